"""The rulings book: worked rulings that run, so the FAQ a judge reads is the FAQ the tests check.

Each ruling is one YAML file, ``book/<ruleset>/<id>.yaml`` (``40k3``, ``40k4``, ``t9a``,
``core``), holding a small scenario, the steps played on one ``Game`` and what each step
must show.  ``load_book`` validates every file with pydantic (a malformed entry is one
``ScenarioError`` naming the file and the field); ``run_entry`` plays an entry through the
public API only and raises ``RulingMismatch`` naming the entry and the step when play and
book disagree.  Every id in an entry's ``rules`` must be cited by some step (a ruling's
rules, an event's rules, a target ruling, an odds branch's events, or a command's output),
so an entry cannot claim a clause that play never reaches.

Entry keys: ``id`` (== file stem), ``ruleset`` (== folder), ``title``, ``question``,
``answer``, ``rules`` (catalogue or ``published.*`` ids), ``source`` (seed and published
rulebook section), ``scenario`` (inline scenario data, the schema of scenario files;
optional for an entry made only of ``cli`` steps), ``steps``.

Step kinds (one per step; ``expect`` says what must hold, ``note`` is commentary):

- ``check: ACTION`` - ``Game.check``; expect ``legal``, ``rules`` (each cited by the
  ruling), ``reason`` (a substring of the reason).
- ``apply: ACTION`` with optional ``dice: [faces]`` (``ScriptedDice``, every face must be
  used) - ``Game.apply``; expect ``rules`` (each cited by some event or one of its rolls) and ``events``
  (substrings of event lines).  With ``expect: {legal: false, ...}`` the action must be
  refused and the state left exactly as it was.
- ``targets: {unit: ID}`` - ``ruleset.targets``; expect ``legal`` (ids that may be shot)
  and ``illegal`` (id -> a rule id the refusal cites).
- ``odds: ACTION`` - ``action_odds`` (the code of ``odds action``); expect ``method``
  (``exact`` or ``monte carlo``) and ``outcomes`` (row label -> exact ``p/q``).
- ``state: {...}`` - the state now: ``phase``, ``active``, ``turn`` and per unit
  ``joined`` (an id or null), ``models``, ``status`` (statuses it has), ``no_status``
  (statuses it lacks), ``removed`` (no models left), ``wounds_taken`` (per model, in order),
  ``embarked_in`` (the transport it rides in, or null),
  ``at`` (each model's place, to 0.01").
- ``undo: true`` - ``Game.undo``.
- ``cli: [args]`` - ``herohammer args`` (``cli.main``); expect ``exit`` (default 0) and
  ``output`` (substrings of what it printed).  For the rules no scenario reaches
  (characteristic tests, odds tables) and for refusals at load time: an argument
  ``{scenario}`` is replaced by a temporary file holding the current game state
  (before any step: the entry's scenario), with the step's ``with: {key: value}``
  top-level keys replaced (e.g. ``with: {special_characters: false}``).
"""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .action_odds import action_odds
from .actions import Action, parse_action
from .dice import ScriptedDice
from .errors import HerohammerError, IllegalActionError, ScenarioError, validation_problem
from .game import Game
from .rulings import Event
from .scenario import state_from_data
from .state import GameState

BOOK_RULESETS = ("core", "40k3", "40k4", "t9a")
STEP_KINDS = ("check", "apply", "targets", "odds", "state", "undo", "cli")
_RULE_ID = re.compile(r"\b(?:core|40k3|40k4|t9a|published)\.[a-z0-9][a-z0-9.-]*[a-z0-9]")
#: The expectation keys each step kind understands.
_EXPECT_KEYS: dict[str, frozenset[str]] = {
    "check": frozenset({"legal", "rules", "reason"}),
    "apply": frozenset({"legal", "rules", "reason", "events"}),
    "targets": frozenset({"legal", "illegal"}),
    "odds": frozenset({"method", "outcomes", "rules"}),
    "state": frozenset(),
    "undo": frozenset(),
    "cli": frozenset({"exit", "output", "rules"}),
}


class RulingMismatch(HerohammerError):
    """Report a book entry whose play does not give the ruling the book states."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Expect(_Strict):
    """What a step must show (which keys apply depends on the step kind)."""

    legal: bool | list[str] | None = None
    rules: list[str] = []
    reason: str | None = None
    events: list[str] = []
    illegal: dict[str, str] = {}
    method: Literal["exact", "monte carlo"] | None = None
    outcomes: dict[str, str] = {}
    exit: int = 0
    output: list[str] = []

    @field_validator("outcomes")
    @classmethod
    def _fractions(cls, value: dict[str, str]) -> dict[str, str]:
        for label, text in value.items():
            try:
                Fraction(str(text))
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"outcome {label!r}: expected an exact probability like 11/36, got {text!r}") from None
        return value


class UnitState(_Strict):
    """What a unit must look like after the steps so far."""

    joined: str | None = None
    models: int | None = Field(None, ge=0)
    status: list[str] = []
    no_status: list[str] = []
    removed: bool | None = None
    wounds_taken: list[int] | None = None
    at: list[tuple[float, float]] | None = None  # each model's place, to 0.01"
    embarked_in: str | None = None  # 40k: the transport it rides in (null: on the table)


class StateExpect(_Strict):
    """The state a ``state`` step asserts."""

    phase: str | None = None
    active: str | None = None
    turn: int | None = None
    units: dict[str, UnitState] = {}


class TargetsQuery(_Strict):
    """The firing unit of a ``targets`` step."""

    unit: str


class Step(_Strict):
    """One step of a ruling: exactly one kind, its expectation and optional scripted dice."""

    check: dict[str, Any] | None = None
    apply: dict[str, Any] | None = None
    targets: TargetsQuery | None = None
    odds: dict[str, Any] | None = None
    state: StateExpect | None = None
    undo: Literal[True] | None = None
    cli: list[str] | None = None
    with_: dict[str, Any] = Field({}, alias="with")
    dice: list[int] | None = None
    expect: Expect = Expect()
    note: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        kinds = [k for k in STEP_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a step has exactly one of {', '.join(STEP_KINDS)} (got {', '.join(kinds) or 'none'})")
        kind = kinds[0]
        extra = sorted(self.expect.model_fields_set - _EXPECT_KEYS[kind])
        if extra:
            raise ValueError(f"expect.{extra[0]} does not apply to a {kind} step "
                             f"(expected: {', '.join(sorted(_EXPECT_KEYS[kind])) or 'nothing'})")
        if self.dice is not None and kind != "apply":
            raise ValueError("dice only apply to an apply step")
        if self.with_ and kind != "cli":
            raise ValueError("with only applies to a cli step (the scenario written for {scenario})")
        for name in ("check", "apply", "odds"):
            action = getattr(self, name)
            if action is not None:
                parse_action(action, where=name)
        return self

    @property
    def kind(self) -> str:
        """Name the step's kind."""
        return next(k for k in STEP_KINDS if getattr(self, k) is not None)

    def action(self) -> Action:
        """Return the step's action (check, apply and odds steps)."""
        raw = self.check if self.check is not None else self.apply if self.apply is not None else self.odds
        assert raw is not None, "only check, apply and odds steps carry an action"
        return parse_action(raw)


class Entry(_Strict):
    """One worked ruling: the question, the answer, the clauses it shows and the play that shows them."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    ruleset: Literal["core", "40k3", "40k4", "t9a"]
    title: str = Field(min_length=1)
    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    rules: list[str] = Field(min_length=1)
    source: str = Field(min_length=1)
    scenario: dict[str, Any] | None = None
    steps: list[Step] = Field(min_length=1)

    @model_validator(mode="after")
    def _scenario_needed(self) -> Entry:
        if self.scenario is None and any(s.kind != "cli" for s in self.steps):
            raise ValueError("scenario: needed by every step but cli")
        return self


# --------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BookEntry:
    """A validated entry with the file it came from and its starting state."""

    entry: Entry
    source: str
    state: GameState | None

    @property
    def id(self) -> str:
        """Return the ruling's id."""
        return self.entry.id


def book_root() -> Traversable:
    """Return the folder the book ships in (``herohammer/book``)."""
    return resources.files("herohammer").joinpath("book")


#: libyaml's safe loader when PyYAML has it: the pure-Python one took seconds over the book's hundred files, which
#: ``herohammer rulings`` reads before printing anything.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_entry_text(text: str, source: str, folder: str | None = None, stem: str | None = None) -> BookEntry:
    """Validate one entry's YAML text; ``folder`` and ``stem`` are checked against its ruleset and id."""
    try:
        data = yaml.load(text, Loader=_LOADER)  # noqa: S506  (a safe loader: libyaml's when built)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ScenarioError(source, "", f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(source, "(top level)", "expected a mapping with id, ruleset, title, question, answer ...")
    try:
        entry = Entry.model_validate(data)
    except ValidationError as exc:
        path, problem = validation_problem(exc)
        raise ScenarioError(source, path or "(top level)", problem) from None
    if stem is not None and entry.id != stem:
        raise ScenarioError(source, "id", f"expected the file's name {stem!r}, got {entry.id!r}")
    if folder is not None and entry.ruleset != folder:
        raise ScenarioError(source, "ruleset", f"expected {folder!r} (the entry's folder), got {entry.ruleset!r}")
    state = state_from_data(entry.scenario, f"{source}: scenario") if entry.scenario is not None else None
    if state is not None and entry.ruleset != "core" and state.ruleset != entry.ruleset:
        raise ScenarioError(source, "scenario.ruleset", f"expected {entry.ruleset!r} like the entry, got {state.ruleset!r}")
    return BookEntry(entry, source, state)


def load_book(rulesets: Iterable[str] = BOOK_RULESETS) -> list[BookEntry]:
    """Load and validate every entry of the packaged book, in ruleset then id order."""
    root = book_root()
    out: list[BookEntry] = []
    seen: dict[str, str] = {}
    for folder in rulesets:
        directory = root.joinpath(folder)
        if not directory.is_dir():
            continue
        for item in sorted(directory.iterdir(), key=lambda t: t.name):
            if not item.name.endswith(".yaml"):
                continue
            source = f"book/{folder}/{item.name}"
            loaded = load_entry_text(item.read_text(encoding="utf-8"), source, folder, item.name.removesuffix(".yaml"))
            if loaded.id in seen:
                raise ScenarioError(source, "id", f"ruling id {loaded.id!r} is used twice (also in {seen[loaded.id]})")
            seen[loaded.id] = source
            out.append(loaded)
    return out


def find_entry(entry_id: str) -> BookEntry:
    """Return one entry by id, or fail naming the known ids.

    An entry's file is named by its id (``load_entry_text`` holds them equal), so only that file is read: not the
    whole book, which ``herohammer rulings ID`` waited on before printing anything.
    """
    root = book_root()
    ids = []
    for folder in BOOK_RULESETS:
        directory = root.joinpath(folder)
        if not directory.is_dir():
            continue
        for item in directory.iterdir():
            if item.name == f"{entry_id}.yaml":
                return load_entry_text(item.read_text(encoding="utf-8"), f"book/{folder}/{item.name}", folder,
                                       entry_id)
            if item.name.endswith(".yaml"):
                ids.append(item.name.removesuffix(".yaml"))
    near = [i for i in sorted(ids) if entry_id in i or i in entry_id][:5]
    hint = f" (did you mean {', '.join(near)}?)" if near else " (herohammer rulings lists them)"
    raise HerohammerError(f"no ruling with id {entry_id!r} in the book{hint}")


# --------------------------------------------------------------------------------------
# running
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepReport:
    """What one step did: a one-line description, the answer's lines and the ids it cited."""

    index: int
    kind: str
    what: str
    lines: tuple[str, ...]
    cited: frozenset[str]


@dataclass(frozen=True)
class EntryReport:
    """An entry played to the end: every step's report and every id cited along the way."""

    entry: BookEntry
    steps: tuple[StepReport, ...]
    cited: frozenset[str] = field(default=frozenset())


def run_entry(item: BookEntry, played: Callable[[StepReport], None] | None = None,
              walked: Callable[[int], None] | None = None) -> EntryReport:
    """Play an entry through the public API; raise ``RulingMismatch`` where play and book disagree.

    ``played`` hears each step's report as the step is played (``herohammer rulings ID`` prints it then: an odds
    step may take many seconds); ``walked`` hears an odds step's count of rules-code runs (``action_odds``).
    """
    game = Game(item.state) if item.state is not None else None
    reports: list[StepReport] = []
    for i, step in enumerate(item.entry.steps):
        where = f"{item.source}: steps[{i}] ({step.kind})"
        if step.kind == "odds":
            reports.append(_run_odds(game, step, i, where, walked))
        else:
            reports.append(_RUNNERS[step.kind](game, step, i, where))
        if played is not None:
            played(reports[-1])
    cited = frozenset().union(*(r.cited for r in reports))
    missing = [r for r in item.entry.rules if r not in cited]
    if missing:
        raise RulingMismatch(f"{item.source}: rules: {', '.join(missing)} listed but cited by no step "
                             f"(cited: {', '.join(sorted(cited)) or 'nothing'})")
    return EntryReport(item, tuple(reports), cited)


def _fail(where: str, problem: str) -> RulingMismatch:
    return RulingMismatch(f"{where}: {problem}")


def _need_rules(where: str, wanted: Sequence[str], cited: Iterable[str], what: str) -> None:
    have = set(cited)
    missing = [r for r in wanted if r not in have]
    if missing:
        raise _fail(where, f"expected {what} to cite {', '.join(missing)}; it cited {', '.join(sorted(have)) or 'nothing'}")


def _action_text(action: Action) -> str:
    data = action.to_json()
    do = data.pop("do")
    return f"{do} " + ", ".join(f"{k}={v}" for k, v in data.items())


def _run_check(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert game is not None
    action = step.action()
    ruling = game.check(action)
    exp = step.expect
    if isinstance(exp.legal, bool) and ruling.legal != exp.legal:
        raise _fail(where, f"expected {'legal' if exp.legal else 'illegal'}, got "
                           f"{'legal' if ruling.legal else 'illegal'}: {ruling.reason} [{', '.join(ruling.rules)}]")
    _need_rules(where, exp.rules, ruling.rules, "the ruling")
    if exp.reason is not None and exp.reason.lower() not in ruling.reason.lower():
        raise _fail(where, f"expected the reason to say {exp.reason!r}; it says {ruling.reason!r}")
    verdict = "LEGAL" if ruling.legal else "ILLEGAL"
    line = f"{verdict}: {ruling.reason} [{', '.join(ruling.rules) or 'no special rule'}]"
    return StepReport(i, "check", _action_text(action), (line, *(f"note: {n}" for n in ruling.notes)),
                      frozenset(ruling.rules))


def _run_apply(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert game is not None
    action = step.action()
    exp = step.expect
    dice = ScriptedDice(step.dice) if step.dice is not None else None
    if exp.legal is False:
        before, log = game.state, len(game.log)
        try:
            game.apply(action, dice)
        except IllegalActionError as exc:
            if game.state != before or len(game.log) != log:
                raise _fail(where, "a refused action changed the game state") from None
            _need_rules(where, exp.rules, exc.rules, "the refusal")
            if exp.reason is not None and exp.reason.lower() not in exc.reason.lower():
                raise _fail(where, f"expected the refusal to say {exp.reason!r}; it says {exc.reason!r}") from None
            line = f"REFUSED, state unchanged: {exc.reason} [{', '.join(exc.rules)}]"
            return StepReport(i, "apply", _action_text(action), (line,), frozenset(exc.rules))
        raise _fail(where, "expected the action to be refused; it was applied")
    try:
        events = game.apply(action, dice)
    except IllegalActionError as exc:
        raise _fail(where, f"expected a legal action; refused: {exc}") from None
    if isinstance(dice, ScriptedDice) and dice.remaining:
        raise _fail(where, f"{dice.remaining} scripted dice left unused (dice: {step.dice})")
    cited = {r for e in events for r in (*e.rules, *(roll.rule for roll in e.rolls))}
    _need_rules(where, exp.rules, cited, "the events")
    lines = tuple(line for e in events for line in (e.describe(), *(f"  roll: {r.describe()}" for r in e.rolls)))
    for text in exp.events:
        if not any(text.lower() in line.lower() for line in lines):
            raise _fail(where, f"expected an event saying {text!r}; events: {' | '.join(lines) or 'none'}")
    return StepReport(i, "apply", _action_text(action), lines, frozenset(cited))


def _run_targets(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert game is not None and step.targets is not None
    unit = step.targets.unit
    answers = game.ruleset.targets(game.state, unit)
    exp = step.expect
    if isinstance(exp.legal, list):
        legal = sorted(k for k, v in answers.items() if v.legal)
        if legal != sorted(exp.legal):
            raise _fail(where, f"expected legal targets {sorted(exp.legal)}, got {legal}")
    for target, rule in exp.illegal.items():
        ruling = answers.get(target)
        if ruling is None:
            raise _fail(where, f"{target!r} is not an enemy unit of {unit!r} (enemies: {', '.join(answers)})")
        if ruling.legal:
            raise _fail(where, f"expected {target} to be an illegal target; it is legal: {ruling.reason}")
        _need_rules(where, [rule], ruling.rules, f"the ruling on {target}")
    lines = tuple(f"{k}: {'may be shot' if v.legal else 'may not be shot'} - {v.reason} [{', '.join(v.rules)}]"
                  for k, v in answers.items())
    return StepReport(i, "targets", f"targets for {unit}", lines,
                      frozenset(r for v in answers.values() for r in v.rules))


def _run_odds(game: Game | None, step: Step, i: int, where: str,
              walked: Callable[[int], None] | None = None) -> StepReport:
    assert game is not None
    action = step.action()
    cited: set[str] = set(game.check(action).rules)
    from .action_odds import summarise

    def summary(before: GameState, resolution: tuple[GameState, list[Event]]) -> Any:
        cited.update(r for e in resolution[1] for r in (*e.rules, *(roll.rule for roll in e.rolls)))
        return summarise(before, resolution)

    try:
        answer = action_odds(game.state, action, summary=summary, walked=walked)
    except IllegalActionError as exc:
        raise _fail(where, f"the odds of an illegal action were asked: {exc}") from None
    exp = step.expect
    if exp.method is not None and answer.exact != (exp.method == "exact"):
        raise _fail(where, f"expected the {exp.method} method, got {answer.method}")
    rows = answer.rows()
    for label, text in exp.outcomes.items():
        if label not in rows:
            raise _fail(where, f"no outcome {label!r}; outcomes: {', '.join(rows)}")
        got = rows[label].p
        if got != Fraction(str(text)):
            raise _fail(where, f"outcome {label!r}: expected {text}, got {got}")
    _need_rules(where, exp.rules, cited, "the action's rulings and events")
    lines = (f"method: {answer.method}", *(f"{k}: {v.p}" for k, v in rows.items()))
    return StepReport(i, "odds", _action_text(action), lines, frozenset(cited))


def _run_state(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert game is not None and step.state is not None
    want, state = step.state, game.state
    for name in ("phase", "active", "turn"):
        value = getattr(want, name)
        now = getattr(state, name)
        now = now.value if hasattr(now, "value") else now
        if value is not None and value != now:
            raise _fail(where, f"expected {name} {value!r}, got {now!r}")
    lines: list[str] = []
    for unit_id, u in want.units.items():
        if not state.has_unit(unit_id):
            raise _fail(where, f"no unit {unit_id!r} (units: {', '.join(x.id for x in state.units)})")
        unit = state.unit(unit_id)
        statuses = sorted(s.value for s in unit.status)
        if "joined" in u.model_fields_set and unit.joined != u.joined:
            raise _fail(where, f"{unit_id}: expected joined {u.joined!r}, got {unit.joined!r}")
        if "embarked_in" in u.model_fields_set and unit.embarked_in != u.embarked_in:
            raise _fail(where, f"{unit_id}: expected embarked in {u.embarked_in!r}, got {unit.embarked_in!r}")
        if u.models is not None and len(unit.models) != u.models:
            raise _fail(where, f"{unit_id}: expected {u.models} models, got {len(unit.models)}")
        if u.removed is not None and unit.alive == u.removed:
            raise _fail(where, f"{unit_id}: expected {'removed' if u.removed else 'on the table'}, "
                               f"it has {len(unit.models)} models")
        for s in u.status:
            if s not in statuses:
                raise _fail(where, f"{unit_id}: expected status {s!r}, has {statuses or 'none'}")
        for s in u.no_status:
            if s in statuses:
                raise _fail(where, f"{unit_id}: expected no status {s!r}, has {statuses}")
        if u.wounds_taken is not None and [m.wounds_taken for m in unit.models] != u.wounds_taken:
            raise _fail(where, f"{unit_id}: expected wounds taken {u.wounds_taken}, "
                               f"got {[m.wounds_taken for m in unit.models]}")
        if u.at is not None:
            places = [m.at for m in unit.models]
            if len(places) != len(u.at) or any(abs(a - x) > 0.01 or abs(b - y) > 0.01
                                               for (a, b), (x, y) in zip(places, u.at)):
                raise _fail(where, f"{unit_id}: expected models at {u.at}, got {[(round(a, 2), round(b, 2)) for a, b in places]}")
        if not unit.models:  # a unit slain keeps its id (and its last "joined") in the state: say it is gone
            lines.append(f"{unit_id}: destroyed (no model left)")
            continue
        aboard = f", embarked in {unit.embarked_in}" if unit.embarked_in else ""
        lines.append(f"{unit_id}: {len(unit.models)} model(s), joined {unit.joined or 'nothing'}{aboard}, "
                     f"status {', '.join(statuses) or 'none'}")
    head = f"{state.active} to act, turn {state.turn}, {state.phase.value} phase"
    return StepReport(i, "state", "the state now", (head, *lines), frozenset())


def _run_undo(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert game is not None
    try:
        game.undo()
    except IllegalActionError as exc:
        raise _fail(where, str(exc)) from None
    return StepReport(i, "undo", "undo the last action", ("the state before it is back",), frozenset())


def _run_cli(game: Game | None, step: Step, i: int, where: str) -> StepReport:
    assert step.cli is not None
    from .cli import main  # the command line is the layer above; imported only to play a cli step

    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory(prefix="herohammer-book-") as tmp:
        argv = list(step.cli)
        if any("{scenario}" in a for a in argv):
            if game is None:
                raise _fail(where, "{scenario} needs the entry's scenario")
            path = Path(tmp) / "scenario.yaml"
            path.write_text(yaml.safe_dump({**game.to_data(), **step.with_}, sort_keys=False), encoding="utf-8")
            argv = [a.replace("{scenario}", str(path)) for a in argv]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        text = (out.getvalue() + err.getvalue()).replace(str(Path(tmp) / "scenario.yaml"), "SCENARIO")
    exp = step.expect
    if code != exp.exit:
        raise _fail(where, f"expected exit {exp.exit}, got {code}: {text.strip()[:300]}")
    for piece in exp.output:
        if piece not in text:
            raise _fail(where, f"expected the output to contain {piece!r}; it printed: {text.strip()[:500]}")
    cited = frozenset(_RULE_ID.findall(text))
    _need_rules(where, exp.rules, cited, "the output")
    lines = tuple(line.rstrip() for line in text.strip().splitlines())
    shown = " ".join(a if " " not in a else f"'{a}'" for a in step.cli).replace("{scenario}", "SCENARIO")
    return StepReport(i, "cli", "herohammer " + shown, lines, cited)


_RUNNERS = {"check": _run_check, "apply": _run_apply, "targets": _run_targets, "odds": _run_odds,
            "state": _run_state, "undo": _run_undo, "cli": _run_cli}


def cited_ids(text: str) -> list[str]:
    """Return the rule ids a text cites (as in a log line or an error message)."""
    return _RULE_ID.findall(text)
