"""Run a scenario many times: outcome tables with 95% intervals, exact where enumeration gives one.

A *run* plays the scenario from its file: either its ``plan`` (a list of action
objects, the same JSON the ``check`` command takes, played in order) or, without a
plan, the default policy ``simple`` (below).  Every step goes through ``Game.apply``
- the one rules code - so a simulated game is a game.

Two ways to play N runs, one rules code:

* ``compiled`` (the fast path, ``fastsim``): the plan's chance tree is enumerated
  once, step by step, through the same resolve code with ``enumerate_outcomes``;
  identical game states after a step are merged, so the tree stays small.  That gives
  every final outcome with its exact probability.  The N runs are then drawn at once
  with numpy from those exact probabilities (floats only for sampling), so each
  simulated run is a real path of the rules code and the exact value sits beside the
  estimate.
* ``engine``: one ``Game`` per run with ``SeededDice``; run ``i`` rolls with the
  i-th 64-bit word of ``SeedSequence(seed).generate_state(N)``.  Used when the chance
  tree is too large to enumerate, or on request.

Outcomes are derived generically from the initial and final states and the events:
per unit, models lost, wounds lost, destroyed, the unit it has joined and each status;
per event kind, how many happened (and each true flag in the event's data, such as
``psychic_test.power_used``).  Plan steps that turn out illegal in a run (a join cut
short by difficult terrain, say) are skipped and counted as ``skipped: step N``.

The default policy ``simple``: until every side has had one player turn, the active
side takes, in each phase, the first legal action the ruleset proposes whose kind is
one of ``POLICY_KINDS`` (in that order of preference) and that it has not taken yet
this phase, at most ``POLICY_MAX_ACTIONS`` per phase; then it ends the phase.  A test the
rules require before anything else (a fleeing unit's Rally test) comes first, so the
policy never asks to end a phase the rules hold open.
Moves are never chosen (their proposals are sample directions, not plans).

Besides game actions, a plan may hold two simulator steps that roll through the
rulesets' test code directly: ``{"do": "psychic_test", "psyker": ID}`` (the psyker's
first model tests by ``ruleset.psychic_test``; Perils wounds it, the power marks the
unit ``used_power`` and a failed test ``psychic_test_failed``: either refuses a second test
that turn, as a game refuses a second power, ``Ruleset.second_psychic_test``) and ``{"do": "leadership_test", "unit": ID}`` (the unit tests
on ``ruleset.leadership_of``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from . import outcome_labels as labels
from .actions import ACTION_KINDS, EndPhase, parse_action
from .checks import leadership_test
from .collector import fewer_collections
from .dice import Dice, SeededDice
from .errors import EnumerationTooLarge, HerohammerError, IllegalActionError, ScenarioError
from . import guards
from .limits import ENGINE_MAX_RUNS, MAX_RUNS, METHODS
from .game import Game
from .outcome_labels import event_labels
from .rulesets import Ruleset, get_ruleset
from .rulings import Event, Ruling
from .action_odds import wilson
from .scenario import read_data, read_structured, scenario_notes, state_from_data
from .state import GameState
from .units import Status, Unit

#: Action kinds the default policy takes, most preferred first.
POLICY_KINDS = ("rally", "charge", "manifest", "assault", "fight", "shoot", "join")
#: At most this many actions per phase under the default policy.
POLICY_MAX_ACTIONS = 12
#: Simulator steps that are not game actions.
PROBES = ("psychic_test", "leadership_test")
#: Cap on rules-code runs when compiling a chance tree; past it, simulate runs the engine per run.
COMPILE_MAX_RUNS = 200_000
#: The least rules-code runs ``auto`` spends trying to enumerate; above it the budget is the runs asked for,
#: so trying costs at most about as much as the runs themselves (then the engine plays them).
COMPILE_FLOOR = 5_000
MEMO_LIMIT = 100_000
#: How many events' labels a driver keeps (``Driver._labels``): enough for the replays of one step's results, little
#: memory for an engine's runs, whose events are all new.
LABELS_KEPT = 4096

Value = int | bool | str
Outcome = tuple[tuple[str, Value], ...]
EVENT_PREFIX = "event: "
SKIP_PREFIX = "skipped: "


# == plans and the default policy ============================================================
@dataclass(frozen=True)
class Node:
    """One point of a run: the state, where the plan (or policy) is, and the events so far."""

    state: GameState
    cursor: int = 0
    memo: tuple[str, ...] = ()
    tally: tuple[tuple[str, int], ...] = ()


def _key(step: Mapping[str, Any]) -> str:
    return json.dumps(step, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Driver:
    """Decide each run's next step: the plan's next entry, or the default policy's choice."""

    ruleset: Ruleset
    plan: tuple[Mapping[str, Any], ...] | None
    sides: int
    #: Rulings and policy choices already made, by (state, action): both are pure functions of
    #: the state, so a compiled chance tree asks once per node, not once per dice branch.
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    #: Each event's counted labels, by the event object (kept with it, so its id stays its own; at most
    #: ``LABELS_KEPT``): a compile meets the same event objects again and again, soon after each other (a fight's
    #: opening, its Initiative steps, in each of its results' replays: about 220,000 events in the 40k3 whole-turn
    #: compile, 34,000 objects, 740 values), where an engine's runs each make new ones.
    _labels: dict[int, tuple[Event, tuple[str, ...]]] = field(default_factory=dict, compare=False, hash=False,
                                                               repr=False)

    @property
    def policy(self) -> str:
        """Name what drives the runs (for reports)."""
        return "plan" if self.plan is not None else "simple"

    def start(self, state: GameState) -> Node:
        """Return the node a run starts from."""
        return Node(state)

    def done(self, node: Node) -> bool:
        """Say whether a run has finished."""
        if self.plan is not None:
            return node.cursor >= len(self.plan)
        return node.cursor >= self.sides

    def choose(self, node: Node) -> Mapping[str, Any]:
        """Return the next step as a JSON object (deterministic in the node)."""
        if self.plan is not None:
            return self.plan[node.cursor]
        cached: Mapping[str, Any] | None = self._memo.get(("choose", node))
        if cached is None:
            cached = self._memo[("choose", node)] = self._choose(node)
        return cached

    def _choose(self, node: Node) -> Mapping[str, Any]:
        if len(node.memo) < POLICY_MAX_ACTIONS:
            legal = [a for a in Game(node.state).legal_actions()
                     if a.do in POLICY_KINDS and hasattr(self.ruleset, f"resolve_{a.do}")]
            legal.sort(key=lambda a: POLICY_KINDS.index(a.do))
            for action in legal:
                data = action.to_json()
                if _key(data) not in node.memo:
                    return data
        return EndPhase(do="end_phase").to_json()

    @cached_property
    def plan_keys(self) -> tuple[str, ...]:
        """Return each plan step's canonical JSON, worked out once (the rulings memo's key)."""
        return tuple(_key(step) for step in self.plan or ())

    def step(self, node: Node, dice: Dice) -> Node:
        """Play the next step with ``dice``; return the next node (the rules code decides everything)."""
        chosen = self.choose(node)
        state = node.state
        try:
            if chosen["do"] in PROBES:
                new_state, events = run_probe(self.ruleset, state, chosen, dice)
            else:
                key = self.plan_keys[node.cursor] if self.plan is not None else None
                new_state, events = self.apply(state, chosen, dice, key)
        except IllegalActionError:
            if self.plan is None and chosen["do"] == "end_phase" and self.ruleset.ends_the_battle(state):
                return Node(state, self.sides, (), node.tally)  # the battle is over (published.game-length)
            new_state = state
            events = [Event("skipped", f"step {node.cursor + 1} ({chosen['do']}) is illegal now")]
            if self.plan is None:  # the policy proposed it as legal; never loop on it
                raise
        counts = dict(node.tally)  # a plain dict: a Counter's missing counts each cost a call (every step of a compile)
        get = counts.get
        if events and events[0].kind == "skipped":
            label = f"{SKIP_PREFIX}step {node.cursor + 1} ({chosen['do']})"
            counts[label] = get(label, 0) + 1
        else:
            known = self._labels
            for event in events:
                entry = known.get(id(event))
                if entry is None:  # (the event is kept with its labels: no other object takes its id meanwhile)
                    if len(known) >= LABELS_KEPT:
                        known.clear()
                    entry = known[id(event)] = (event, tuple(f"{EVENT_PREFIX}{label}" for label in event_labels(event)))
                for counted in entry[1]:
                    counts[counted] = get(counted, 0) + 1
        tally = tuple(sorted(counts.items()))
        if self.plan is not None:
            return Node(new_state, node.cursor + 1, (), tally)
        if chosen["do"] != "end_phase":
            return Node(new_state, node.cursor, (*node.memo, _key(chosen)), tally)
        turned = new_state.active != state.active
        return Node(new_state, node.cursor + int(turned), (), tally)


    def apply(self, state: GameState, step: Mapping[str, Any], dice: Dice,
              step_key: str | None = None) -> tuple[GameState, list[Event]]:
        """Do what ``Game.apply`` does - rule, refuse or resolve - remembering the ruling per state.

        ``step_key``: the step's canonical JSON (``_key``), when the caller has it already.
        """
        key = ("rule", state, _key(step) if step_key is None else step_key)
        entry = self._memo.get(key)
        if len(self._memo) > MEMO_LIMIT:  # engine runs rarely revisit a state: keep memory flat
            self._memo.clear()
        if entry is None:
            action = parse_action(dict(step))
            entry = self._memo[key] = (action, self.ruleset.rule_on(state, action))
        action, ruling = entry
        if not ruling.legal:
            raise IllegalActionError(ruling.reason, ruling.rules)
        return self.ruleset.resolve(state, action, dice)


def make_driver(state: GameState, plan: Sequence[Mapping[str, Any]] | None, source: str = "plan") -> Driver:
    """Check a plan up front (each step parses and the ruleset can resolve it) and return its driver."""
    ruleset = get_ruleset(state.ruleset)
    if plan is None:
        return Driver(ruleset, None, len(state.sides))
    steps: list[Mapping[str, Any]] = []
    for i, raw in enumerate(plan):
        where = f"{source}[{i}]"
        if not isinstance(raw, Mapping):
            raise HerohammerError(f"{where}: expected an action object like {{\"do\": \"join\", ...}}")
        step = dict(raw)
        do = step.get("do")
        if do == "psychic_test":
            _expect_keys(step, where, {"psyker"})
        elif do == "leadership_test":
            _expect_keys(step, where, {"unit"})
        elif isinstance(do, str) and do not in ACTION_KINDS:  # the plan's own kinds listed too, and the step counted
            raise HerohammerError(f"{where}: field do: got {do!r} at the plan's step {i + 1}; expected do: "
                                  f"{', '.join((*ACTION_KINDS, *PROBES[:-1]))} or {PROBES[-1]}")
        else:
            action = parse_action(step, where)
            if not hasattr(ruleset, f"resolve_{action.do}"):
                raise HerohammerError(f"{where}: ruleset {ruleset.name} cannot resolve {action.do!r} actions yet")
            step = action.to_json()
        for key in ("unit", "character", "psyker", "target"):
            name = step.get(key)
            if isinstance(name, str) and not state.has_unit(name):
                known = ", ".join(u.id for u in state.units)
                raise HerohammerError(f"{where}: field {key}: no unit {name!r} in the scenario (units: {known})")
        steps.append(step)
    return Driver(ruleset, tuple(steps), len(state.sides))


def _expect_keys(step: Mapping[str, Any], where: str, keys: set[str]) -> None:
    given = set(step) - {"do"}
    if given != keys:
        raise HerohammerError(f"{where}: {step['do']} takes exactly {', '.join(sorted(keys))} (got {sorted(given)})")
    for k in keys:
        if not isinstance(step[k], str):
            raise HerohammerError(f"{where}: field {k}: expected a unit id")


def run_probe(ruleset: Ruleset, state: GameState, step: Mapping[str, Any], dice: Dice) -> tuple[GameState, list[Event]]:
    """Take a psychic or Leadership test through the ruleset's rules code and apply what it does."""
    if step["do"] == "leadership_test":
        unit = state.unit(step["unit"])
        if not unit.alive:
            raise IllegalActionError(f"{unit.id} has no models left", ["core.zero.w"])
        value = ruleset.leadership_of(state, unit.id).value
        test = leadership_test(dice, value)
        return state, [Event("leadership_test", f"{unit.id} tests on Ld {value}: {'passed' if test.passed else 'failed'}",
                             (test.rule,), data=(("unit", unit.id), ("passed", test.passed),
                                                 ("failed", not test.passed)))]
    psyker = state.unit(step["psyker"])
    if not psyker.alive:
        raise IllegalActionError(f"{psyker.id} has no models left", ["core.zero.w"])
    if refused := ruleset.second_psychic_test(psyker):
        raise IllegalActionError(refused, [ruleset.psychic_test_rule])
    model = psyker.models[0]
    result = ruleset.psychic_test(dice, model.profile.ld, model.profile.t, model.wounds_left,
                                  model.profile.invulnerable)
    models = psyker.models
    if result.slain:
        models = models[1:]
    elif result.wounded:
        models = (replace(model, wounds_taken=model.wounds_taken + 1), *models[1:])
    new = replace(psyker, models=models)
    if result.power_used:
        new = new.with_status(Status.USED_POWER)
    else:  # a failed test also ends his powers for the turn (a plan's second test is skipped)
        new = new.with_status(Status.PSYCHIC_TEST_FAILED)
    said = "uses the power" if result.power_used else "fails"
    perils = ", Perils of the Warp" + (" slays it" if result.slain else " wounds it" if result.wounded else "") \
        if result.perils else ""
    return state.replace_unit(new), [Event(
        "psychic_test", f"{psyker.id} rolls {result.roll} and {said}{perils}",
        ruleset.psychic_rules(),
        data=(("psyker", psyker.id), ("passed", result.passed), ("power_used", result.power_used),
              ("perils", result.perils), ("wounded", result.wounded), ("slain", result.slain)),
    )]


# == outcomes ===================================================================================
def outcome_of(initial: GameState, node: Node) -> Outcome:
    """Derive a run's outcome from the initial and final states and the events' tally."""
    return (*state_outcome(initial, node.state), *node.tally)


def state_outcome(initial: GameState, final: GameState) -> Outcome:
    """Return the part of an outcome the final state gives: per unit, losses, joining and statuses (no positions).

    A unit with no model left is destroyed and holds no status: the statuses it had when its last model fell (falling
    back, shaken) stay on it in the state, but a table counting it as falling back too read as a unit still there.
    """
    out: list[tuple[str, Value]] = []
    for u, wounds, (lost, hurt, gone, joined), statuses in initial.remember(_OUTCOME_LABELS,
                                                                           partial(_outcome_labels, initial)):
        f = final.unit(u.id)
        out.append((lost, len(u.models) - len(f.models)))
        out.append((hurt, wounds - sum([m.wounds_left for m in f.models])))
        out.append((gone, u.alive and not f.alive))
        if joined:
            out.append((joined, f.joined or "-"))
        if f.alive:
            held = f.status
            out += [(label, s in held) for label, s in statuses]
        else:
            out += [(label, False) for label, _ in statuses]
    return tuple(out)


_OUTCOME_LABELS = "outcome labels"


def _outcome_labels(initial: GameState) -> tuple[tuple[Unit, int, tuple[str, str, str, str], tuple[tuple[str, Status], ...]], ...]:
    """What ``state_outcome`` reads of the initial state, worked out once for all the runs from it: each unit, its
    Wounds, its labels (a character's joined label; "" for others) and its status labels with their statuses."""
    return tuple((u, sum(m.wounds_left for m in u.models),
                  (labels.models_lost(u.id), labels.wounds_lost(u.id), labels.destroyed(u.id),
                   labels.joined(u.id) if u.is_character else ""),
                  tuple((labels.status(u.id, s.value), s) for s in Status)) for u in initial.units)


def _default(key: str) -> Value:
    return 0


# == seeds, hashes, loading ======================================================================
def canonical_hash(data: Any) -> str:
    """Return the sha256 of the canonical JSON of plain data (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fresh_seed() -> int:
    """Return a new random seed (recorded in the output so the run can be repeated)."""
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])


def engine_seeds(seed: int, runs: int) -> np.ndarray[Any, Any]:
    """Return the per-run seeds of the engine path: independent 64-bit words derived from ``seed``."""
    return np.random.SeedSequence(seed).generate_state(runs, np.uint64)


def demo_files() -> list[str]:
    """List the bundled demo scenarios (``herohammer/examples/demo_*.yaml``)."""
    root = resources.files("herohammer") / "examples"
    return sorted(p.name for p in root.iterdir() if p.name.startswith("demo_") and p.name.endswith(".yaml"))


def read_demo(name: str) -> tuple[dict[str, Any], str]:
    """Return a bundled demo's data and its description (the comment lines at its top)."""
    text = (resources.files("herohammer") / "examples" / name).read_text(encoding="utf-8")
    import yaml

    data = yaml.safe_load(text)
    about = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        about.append(line.lstrip("#").strip())
    return data, " ".join(a for a in about if a)


def load_plan(path: str | Path) -> list[dict[str, Any]]:
    """Read a plan file: a YAML or JSON list of action objects (or a mapping with key ``plan``)."""
    p = Path(path)
    data = read_structured(p)
    if isinstance(data, dict) and "plan" in data:
        data = data["plan"]
    if not isinstance(data, list):
        raise ScenarioError(str(p), "(top level)", "expected a list of action objects")
    if not data:  # every run would play nothing and the table say so: surely not what was meant
        raise ScenarioError(str(p), "(top level)", "an empty plan plays nothing; list actions, or leave out "
                            "--actions to play the scenario's plan or the default policy")
    return data


# == results =====================================================================================

@dataclass(frozen=True)
class Row:
    """One line of the outcome table: an outcome, how often it happened, and its exact chance."""

    outcome: str
    value: Value | None
    count: int
    runs: int
    exact: Fraction | None

    @property
    def label(self) -> str:
        """Say the outcome for people: ``tactical: models lost = 2`` or ``librarian: destroyed``."""
        name = self.outcome.removeprefix(EVENT_PREFIX)
        return name if self.value is None else f"{name} = {self.value}"

    @property
    def probability(self) -> float:
        """Return the simulated frequency."""
        return self.count / self.runs if self.runs else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of the frequency."""
        return wilson(self.count, self.runs)

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON-ready data (exact as a fraction string)."""
        lo, hi = self.ci95
        return {"outcome": self.outcome, "value": self.value, "count": self.count, "probability": self.probability,
                "ci95": [lo, hi], "exact": None if self.exact is None else str(self.exact),
                "exact_float": None if self.exact is None else float(self.exact)}


@dataclass
class SimulationResult:
    """Hold a simulation: what was run (seed, hashes, version) and how often each outcome came up."""

    meta: dict[str, Any]
    counts: list[tuple[Outcome, int, Fraction | None]]
    exact_known: bool
    baseline: Outcome = ()
    timing: dict[str, float] = field(default_factory=dict)
    #: What the scenario holds that no rule reads (``scenario.scenario_notes``); not in ``to_json``, whose caller
    #: says them its own way (the commands: stderr, or the envelope's ``notes``).
    notes: tuple[str, ...] = ()
    #: The worker processes the runs were played on (``None``: not asked for); not in ``to_json``: how the runs
    #: were shared out, not what they gave (the same seed gives the same counts for every number of workers).
    workers: int | None = None

    @property
    def runs(self) -> int:
        """Return the number of runs."""
        return int(self.meta["runs"])

    def keys(self) -> list[str]:
        """List every outcome key in first-seen order."""
        seen: dict[str, None] = {}
        for outcome, _, _ in self.counts:
            for k, _ in outcome:
                seen.setdefault(k, None)
        return list(seen)

    def marginals(self) -> dict[str, dict[Value, tuple[int, Fraction | None]]]:
        """Return, per key, each value's count and exact probability (when known)."""
        keys = self.keys()
        out: dict[str, dict[Value, list[Any]]] = {k: {} for k in keys}
        for outcome, count, p in self.counts:
            values = dict(outcome)
            for k in keys:
                v = values.get(k, _default(k))
                slot = out[k].setdefault(v, [0, Fraction(0) if self.exact_known else None])
                slot[0] += count
                if self.exact_known and p is not None:
                    slot[1] += p
        return {k: {v: (c, e) for v, (c, e) in sorted(d.items(), key=lambda kv: str(kv[0]).zfill(6))}
                for k, d in out.items()}

    def rows(self, include_constant: bool = False) -> list[Row]:
        """Return the table rows, leaving out outcomes that never differ from the start.

        A bool (or a 0/1 event count) is one row, the chance it is true; any other
        outcome has one row per value.
        """
        rows: list[Row] = []
        baseline = dict(self.baseline)
        for key, values in self.marginals().items():
            if len(values) == 1 and not include_constant and (
                    key.startswith(EVENT_PREFIX) or next(iter(values)) == baseline.get(key, 0)):
                continue
            flag = all(isinstance(v, bool) for v in values) or (key.startswith((EVENT_PREFIX, SKIP_PREFIX)) and set(values) <= {0, 1})
            if flag:
                none = (0, Fraction(0) if self.exact_known else None)
                count, exact = next(((c, e) for v, (c, e) in values.items() if v), none)
                rows.append(Row(key, None, count, self.runs, exact))
            else:
                rows.extend(Row(key, v, c, self.runs, e) for v, (c, e) in values.items())
        return rows

    def means(self) -> dict[str, dict[str, Any]]:
        """Return the simulated (and exact) mean of each numeric outcome that varies."""
        out: dict[str, dict[str, Any]] = {}
        for key, values in self.marginals().items():
            if len(values) < 2 or not all(isinstance(v, int) for v in values):
                continue
            sim = sum(int(v) * c for v, (c, _) in values.items()) / max(self.runs, 1)
            exact = sum((int(v) * e for v, (_, e) in values.items() if e is not None), Fraction(0)) \
                if self.exact_known else None
            out[key] = {"mean": sim, "exact": None if exact is None else str(exact),
                        "exact_float": None if exact is None else float(exact)}
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the whole result as JSON-ready data: meta, rows, means (no timings: re-runs compare equal)."""
        rows = self.rows()
        return {**self.meta, "outcomes": [r.to_json() for r in rows], "means": self.means(),
                "unchanged_outcomes": len(self.keys()) - len({r.outcome for r in rows})}

    def to_csv(self) -> str:
        """Return the rows as CSV text, each row ending with what reproduces it (``IDENTITY_COLUMNS``): a CSV has
        no envelope, and without its seed a run drawn from a fresh one could not be played again."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["outcome", "value", "count", "runs", "probability", "ci95_low", "ci95_high", "exact",
                         "exact_float", *IDENTITY_COLUMNS])
        identity = identity_of(self.meta)
        for r in self.rows():
            lo, hi = r.ci95
            writer.writerow([r.outcome, "" if r.value is None else r.value, r.count, r.runs, f"{r.probability:.6f}",
                             f"{lo:.6f}", f"{hi:.6f}", "" if r.exact is None else str(r.exact),
                             "" if r.exact is None else f"{float(r.exact):.6f}", *identity])
        return buf.getvalue()


#: The last columns of ``simulate --csv`` and ``sweep --csv``: what plays a row again (``--json`` has them too).
IDENTITY_COLUMNS = ("seed", "scenario_sha256", "plan_sha256", "herohammer_version")


def identity_of(meta: Mapping[str, Any]) -> list[str]:
    """Return a result's ``IDENTITY_COLUMNS`` as CSV cells (no plan: an empty cell)."""
    return ["" if meta.get(k) is None else str(meta[k]) for k in IDENTITY_COLUMNS]


# == running ===================================================================================
def prepare(data: Mapping[str, Any], plan: Sequence[Mapping[str, Any]] | None = None,
            source: str = "<scenario>", plan_source: str = "--actions") -> tuple[GameState, Driver, dict[str, Any]]:
    """Validate a scenario and its plan; return the state, the driver and the run's identity (hashes).

    ``plan_source``: what a refused step of a plan given apart from the scenario is named by (``simulate``: the
    plan file and ``--actions``, so the one line says which file to mend); a step of the scenario's own ``plan:``
    is named by ``source`` and ``plan`` (reliability round 41: it was named ``None: --actions[2]``).
    """
    state = state_from_data(data, source)
    own = plan is None
    if own and data.get("plan"):
        plan = list(data["plan"])
    driver = make_driver(state, plan, f"{source}: plan" if own else plan_source)
    meta = {
        "herohammer_version": __version__,
        "scenario": source,
        "scenario_sha256": canonical_hash(dict(data)),
        "plan_sha256": canonical_hash(list(driver.plan)) if driver.plan is not None else None,
        "policy": driver.policy,
        "ruleset": state.ruleset,
    }
    return state, driver, meta


def refuse_unplayable(state: GameState, driver: Driver, where: str = "") -> None:
    """Refuse a simulation that would play nothing (``simulate``, the web table's simulate): a plan whose first step
    the rules forbid in the scenario as it stands (every run would skip it, ``skipped: step 1``, without saying why),
    or no plan in a battle that is over (the default policy has nothing to play: every run would read "nothing
    changed"). A later step, or a sweep's variant, may be illegal in some runs only; those are skipped and counted.
    ``where``: the file the plan came from, named first (judge round 36 (core): "the plan's step 1" named none).
    """
    if driver.plan is None:
        over = Game(state).why_no_actions()
        if over is not None:
            raise HerohammerError(f"nothing to simulate: {over.reason} [{', '.join(over.rules)}]")
        return
    if not driver.plan or driver.plan[0]["do"] in PROBES:
        return
    first = driver.plan[0]
    ruling = driver.ruleset.rule_on(state, parse_action(dict(first)))
    if not ruling.legal:
        named = f"{where}: " if where else ""
        raise IllegalActionError(f"{named}the plan's step 1 ({first['do']}) is illegal in the scenario as it stands, so "
                                 f"every run would skip it: {ruling.reason}", ruling.rules)


def refusal_at(initial: GameState, driver: Driver, step: int, dice: Dice, max_steps: int = 10_000) -> Ruling | None:
    """Play one run up to plan step ``step`` (from 1) and return the ruling refusing it there, or None if it is legal
    in that run: why a step every run skipped was skipped (its row, ``skipped: step N``, says only that it was)."""
    node = driver.start(initial)
    for _ in range(max_steps):
        if driver.done(node):
            return None
        if driver.plan is not None and node.cursor == step - 1:
            chosen = driver.choose(node)
            if chosen["do"] in PROBES:
                return None
            ruling = driver.ruleset.rule_on(node.state, parse_action(dict(chosen)))
            return None if ruling.legal else ruling
        node = driver.step(node, dice)
    return None


def run_engine_once(initial: GameState, driver: Driver, dice: Dice, max_steps: int = 10_000) -> Node:
    """Play one run with the plain game engine and the given dice; return its final node."""
    node = driver.start(initial)
    steps = 0
    while not driver.done(node):
        node = driver.step(node, dice)
        steps += 1
        if steps > max_steps:  # pragma: no cover - a policy bug, not a user error
            raise HerohammerError(f"a run took more than {max_steps} steps")
    return node


def simulate(
    data: Mapping[str, Any],
    runs: int,
    seed: int | None = None,
    plan: Sequence[Mapping[str, Any]] | None = None,
    method: str = "auto",
    source: str = "<scenario>",
    progress: bool = False,
    max_compile_runs: int = COMPILE_MAX_RUNS,
    workers: int | str | None = None,
    notice: Callable[[str], None] | None = None,
    advance: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play a scenario ``runs`` times from ``seed``; count each outcome, exact beside it when enumerable.

    ``workers``: play the Monte Carlo runs on that many local processes (``"auto"``: the cores this process may run
    on), in chunks of a fixed size.  The same seed gives the same counts for every number of workers.  The compiled
    plan's draws and the engine's games keep the one-process stream whatever ``workers`` is (run ``i`` takes the
    ``i``-th number of the seed's stream, whichever process draws it); ``auto``'s shared runs (the compile refused),
    which share positions among the runs played together, are played in chunks of ``SHARED_CHUNK`` runs, each
    seeded from (seed, chunk index), whenever ``workers`` is given - 1 included, so that 1 and N agree - and in one
    pass over all the runs without it, as before.  The exact enumeration of a compiled plan runs in this process.

    ``notice`` hears, in one line and before the runs start, why they are played as Monte Carlo games when the exact
    enumeration was refused (``monte_carlo_notice``): a caller printing only at the end would leave the switch unsaid
    while the slower runs play.  ``advance(n)`` hears the runs as they are played or drawn, ``n`` more at a time (all
    ``runs`` in the end; none while the exact odds are worked out), so a caller can show a count of runs done.
    """
    import time

    from . import fastsim
    from .parallel import resolve_workers

    runs, seed, plan = _checked_arguments(data, runs, seed, plan, method, max_compile_runs)
    guards.hook(notice, "simulate", "notice", "one line of text")
    guards.hook(advance, "simulate", "advance", "a count of runs")
    guards.flag(progress, "simulate", "progress")
    guards.instance(source, str, "simulate", "source", "the scenario's name (text)")
    workers = resolve_workers(workers, "simulate")
    seed = fresh_seed() if seed is None else seed
    state, driver, meta = prepare(data, plan, source)
    meta.update({"seed": seed, "runs": runs})
    baseline = outcome_of(state, driver.start(state))
    timing: dict[str, float] = {}
    if method == "engine":
        _check_engine_runs(runs, "--method engine")
    if method in ("auto", "compiled"):
        # the compile's values live on the state until this returns: the collector's raised thresholds last as long
        # (through the draws and the rows), so it does not walk them all once more before they die (issue 11)
        with fewer_collections():
            t0 = time.perf_counter()
            budget = max_compile_runs if method == "compiled" else min(max_compile_runs, max(COMPILE_FLOOR, runs))
            meta["compile_budget"] = budget
            known: dict[Any, Any] = {}
            try:
                compiled = fastsim.compile_plan(state, driver, budget, progress, keep=known)
            except EnumerationTooLarge as too_large:  # estimated far over budget before trying, or the budget spent
                if method == "compiled":
                    raise HerohammerError(f"{too_large.reason()}; use --method engine") from None
                _check_engine_runs(runs, f"{too_large.reason()}, so")
                meta["too_large"] = too_large.reason()
                compiled = None
                if notice is not None:
                    notice(monte_carlo_notice(too_large.reason(), runs))
            timing["compile_seconds"] = time.perf_counter() - t0
            if compiled is not None:
                t0 = time.perf_counter()
                if workers is not None and workers > 1:
                    counts = _sample_on_workers(compiled.probabilities, runs, seed, workers, progress, advance)
                else:
                    counts = fastsim.sample_counts(compiled.probabilities, runs, seed, progress=progress,
                                                   advance=advance)
                timing["sample_seconds"] = time.perf_counter() - t0
                meta.update({"method": "compiled", "exact_outcomes": len(compiled.outcomes),
                             "rules_code_runs": compiled.rules_code_runs})
                rows: list[tuple[Outcome, int, Fraction | None]] = [
                    (o, int(c), p) for o, p, c in zip(compiled.outcomes, compiled.exact, counts)]
                return SimulationResult(meta, rows, True, baseline, timing, scenario_notes(state), workers)
    t0 = time.perf_counter()
    if method == "engine" and workers is not None and workers > 1:
        tally = _engine_on_workers(state, driver, runs, seed, workers, progress, advance)
    elif method == "engine":
        tally = Counter(_engine_outcomes(state, driver, runs, seed, progress, heard=advance))
    elif workers is not None:  # the shared runs in chunks of a fixed size: the same counts for every --workers
        shared = _shared_in_chunks(state, driver, runs, seed, known, workers,
                                   progress, f"playing the engine ({meta.get('too_large')})", advance)
        tally = Counter(shared.counts)
        meta["shared"] = {"nodes": shared.nodes, "drawn": shared.shared, "played": shared.played,
                          "rules_code_runs": shared.rules_code_runs}
    else:  # the compile was refused: the runs that stand on one position take its step together
        with progress_bar(progress, runs, f"playing the engine ({meta.get('too_large')})", heard=advance) as ticker:
            shared = fastsim.sample_shared(state, driver, runs, seed, known, ticker, note=ticker.note)
        tally = Counter(shared.counts)
        meta["shared"] = {"nodes": shared.nodes, "drawn": shared.shared, "played": shared.played,
                          "rules_code_runs": shared.rules_code_runs}
    timing["engine_seconds"] = time.perf_counter() - t0
    meta.update({"method": "engine", "engine_reason": "requested" if method == "engine" else "too large"})
    ordered = sorted(tally.items(), key=lambda kv: repr(kv[0]))
    return SimulationResult(meta, [(o, c, None) for o, c in ordered], False, baseline, timing,
                            scenario_notes(state), workers)


# == on worker processes =========================================================================
#: Draws per chunk of a compiled plan's sampling on workers (the answer does not depend on it: see ``_sample_chunk``).
SAMPLE_CHUNK = 1 << 18
#: Games per chunk of the engine on workers (the answer does not depend on it: each run has its own seed).
ENGINE_CHUNK = 512
#: Runs per chunk of ``auto``'s shared runs when ``workers`` is given: the runs of one chunk share positions among
#: themselves only, and the chunk draws from (seed, chunk index), so this size is part of the answer and fixed.
SHARED_CHUNK = 8_192

#: What a worker process was handed as it started (``_worker_setup``): the plan, the state, the tables.
_WORKER: dict[str, Any] = {}


def _worker_setup(payload: dict[str, Any]) -> None:
    """Keep what this worker's chunks read (forked on Linux: inherited, not pickled)."""
    _WORKER.clear()
    _WORKER.update(payload)


def chunk_seed(seed: int, index: int) -> int:
    """Return chunk ``index``'s seed: from the simulation's seed and the index alone, never from who plays it."""
    return int(np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1, np.uint64)[0])


def _spans(runs: int, size: int) -> list[tuple[int, int]]:
    """Split ``runs`` into (first run, runs) chunks of ``size`` (the last one shorter)."""
    return [(start, min(size, runs - start)) for start in range(0, runs, size)]


def _sample_chunk(span: tuple[int, int]) -> np.ndarray[Any, Any]:
    """Draw runs ``start`` to ``start + n`` of a compiled plan: the generator of ``sample_counts`` moved on ``start``
    words (PCG64 gives one word per uniform double), so run ``i`` takes the number one process would give it."""
    from . import fastsim

    start, n = span
    cum = _WORKER["cum"]
    bits = np.random.PCG64(np.random.SeedSequence(_WORKER["seed"]))
    bits.advance(start)
    return np.bincount(fastsim.sample_indices(cum, n, np.random.Generator(bits)), minlength=len(cum))[: len(cum)]


def _sample_on_workers(probabilities: np.ndarray[Any, Any], runs: int, seed: int, workers: int,
                       progress: bool, heard: Callable[[int], None] | None = None) -> np.ndarray[Any, Any]:
    """Draw a compiled plan's runs on ``workers`` processes; the counts ``fastsim.sample_counts`` gives in one."""
    from . import fastsim
    from .parallel import run_chunks

    cum = fastsim.sampler(probabilities)
    spans = _spans(runs, SAMPLE_CHUNK)
    with progress_bar(progress, runs, f"sampling runs ({workers} processes)", heard=heard) as advance:
        parts = run_chunks(_sample_chunk, spans, workers, lambda i, part: advance(spans[i][1]),
                           _worker_setup, ({"cum": cum, "seed": seed},))
    return np.asarray(np.sum(parts, axis=0, dtype=np.int64))


def _engine_chunk(seeds: np.ndarray[Any, Any]) -> Counter[Outcome]:
    """Play one game per seed with the plain engine; count the outcomes."""
    state, driver = _WORKER["state"], _WORKER["driver"]
    return Counter(outcome_of(state, run_engine_once(state, driver, SeededDice(int(s)))) for s in seeds)


def _engine_on_workers(state: GameState, driver: Driver, runs: int, seed: int, workers: int,
                       progress: bool, heard: Callable[[int], None] | None = None) -> Counter[Outcome]:
    """Play the engine's runs on ``workers`` processes, run ``i`` with the seed one process gives it."""
    from .parallel import run_chunks

    seeds = engine_seeds(seed, runs)
    chunks = [seeds[start:start + n] for start, n in _spans(runs, ENGINE_CHUNK)]
    tally: Counter[Outcome] = Counter()
    with progress_bar(progress, runs, f"playing the engine ({workers} processes)", heard=heard) as advance:
        for part in run_chunks(_engine_chunk, chunks, workers, lambda i, part: advance(len(chunks[i])),
                               _worker_setup, ({"state": state, "driver": driver},)):
            tally.update(part)
    return tally


def _shared_chunk(span: tuple[int, int]) -> Any:
    """Play chunk ``index``'s ``n`` runs as ``fastsim.sample_shared`` does, from the chunk's own seed; the steps this
    process enumerated for earlier chunks are taken again where that gives the same answer (``memo``)."""
    from . import fastsim

    index, n = span
    return fastsim.sample_shared(_WORKER["state"], _WORKER["driver"], n, chunk_seed(_WORKER["seed"], index),
                                 _WORKER["known"], memo=_WORKER.setdefault("memo", {}))


def _shared_in_chunks(state: GameState, driver: Driver, runs: int, seed: int, known: dict[Any, Any],
                      workers: int, progress: bool, label: str, heard: Callable[[int], None] | None = None) -> Any:
    """Play ``auto``'s shared runs in chunks of ``SHARED_CHUNK`` (in this process for one worker, else on a pool);
    return the chunks' ``SharedRuns`` added up."""
    from .fastsim import SharedRuns
    from .parallel import run_chunks

    chunks = [(index, n) for index, (_, n) in enumerate(_spans(runs, SHARED_CHUNK))]
    payload = {"state": state, "driver": driver, "seed": seed, "known": known}
    with progress_bar(progress, runs, label if workers == 1 else f"{label} on {workers} processes",
                      heard=heard) as advance:
        if workers == 1:
            _worker_setup(payload)
            try:
                parts = []
                for chunk in chunks:
                    parts.append(_shared_chunk(chunk))
                    advance(chunk[1])
            finally:
                _WORKER.clear()
        else:
            parts = run_chunks(_shared_chunk, chunks, workers, lambda i, part: advance(chunks[i][1]),
                               _worker_setup, (payload,))
    total = SharedRuns({})
    for part in parts:
        for outcome, n in part.counts.items():
            total.counts[outcome] = total.counts.get(outcome, 0) + n
        total.nodes += part.nodes
        total.shared += part.shared
        total.played += part.played
        total.rules_code_runs += part.rules_code_runs
    return total


def _checked_arguments(data: Any, runs: Any, seed: Any, plan: Any, method: Any,
                       max_compile_runs: Any) -> tuple[int, int | None, list[Mapping[str, Any]] | None]:
    """Refuse arguments of the wrong kind or out of range in one line naming the parameter (``guards``)."""
    guards.mapping(data, "simulate", "data")
    guards.choice(method, "simulate", "method", METHODS)
    guards.whole(max_compile_runs, "simulate", "max_compile_runs", 1, MAX_RUNS)
    return (guards.whole(runs, "simulate", "runs", 1, MAX_RUNS), guards.seed(seed, "simulate"),
            None if plan is None else guards.mappings(plan, "simulate", "plan"))


def monte_carlo_notice(reason: str, runs: int) -> str:
    """Say in one line why a simulation has no exact column and what it plays instead."""
    played = "the 1 run as a Monte Carlo game" if runs == 1 else f"the {runs:,} runs as Monte Carlo games"
    return f"no exact odds: {reason}; playing {played} instead"


def _check_engine_runs(runs: int, why: str) -> None:
    """Refuse more engine runs than the stated limit before playing any (one game per run is slow)."""
    if runs > ENGINE_MAX_RUNS:
        raise HerohammerError(f"--runs {runs:,}: {why} the engine would play one game per run; "
                              f"at most {ENGINE_MAX_RUNS:,} engine runs (the limit)")


def _engine_outcomes(state: GameState, driver: Driver, runs: int, seed: int, progress: bool,
                     why: str | None = None, heard: Callable[[int], None] | None = None) -> Iterator[Outcome]:
    seeds = engine_seeds(seed, runs)
    with progress_bar(progress, runs, f"playing the engine ({why})" if why else "playing the engine",
                      heard=heard) as advance:
        for i in range(runs):
            yield outcome_of(state, run_engine_once(state, driver, SeededDice(int(seeds[i]))))
            if (i + 1) % 256 == 0 or i + 1 == runs:
                advance(min(256, (i % 256) + 1))


class _Ticker:
    """What a progress context gives: ``advance(n)`` for work done, ``advance.note(text)`` for what it is doing now
    (work whose total is not known ahead, such as the shared runs' rounds, says where it is)."""

    def __init__(self, advance: Callable[[int], None], note: Callable[[str], None]) -> None:
        self._advance = advance
        self.note = note

    def __call__(self, n: int) -> None:
        self._advance(n)


class _NoProgress:
    def __init__(self, heard: Callable[[int], None] | None = None) -> None:
        self.heard = heard

    def __enter__(self) -> Any:
        return _Ticker(self.heard or (lambda n: None), lambda text: None)

    def __exit__(self, *exc: object) -> None:
        return None


class _RichProgress:
    def __init__(self, total: int | None, label: str, elapsed: bool = False,
                 heard: Callable[[int], None] | None = None) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)
        from rich.table import Column

        # On a narrow terminal a long label is cut short, never the count or the time left (80 columns
        # once hid both behind "playing the engine (the chance tree has more than ...)").
        # The label is plain text: a reason naming a unit or side id is never read as markup.
        self.progress = Progress(TextColumn("{task.description}", markup=False,
                                            table_column=Column(ratio=1, no_wrap=True)),
                                 BarColumn(bar_width=20), MofNCompleteColumn(table_column=Column(no_wrap=True)),
                                 *((TimeElapsedColumn(),) if elapsed else ()),
                                 TimeRemainingColumn(), console=Console(stderr=True), transient=True, expand=True)
        self.task = self.progress.add_task(label, total=total)
        self.label = label
        self.heard = heard

    def __enter__(self) -> Any:
        self.progress.start()
        return _Ticker(self._advance,
                       lambda text: self.progress.update(self.task, description=_noted(self.label, text)))

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def _advance(self, n: int) -> None:
        self.progress.advance(self.task, n)
        if self.heard is not None:
            self.heard(n)


#: Seconds between the progress lines on a pipe (stderr not a terminal), the first this long after the work starts:
#: work done sooner says nothing more, so what a pipe reads of a quick run is as it was.
LINE_SECONDS = 10.0


class _LineProgress:
    """Progress where no bar can be drawn (stderr a pipe or a file): a line now and then, ``label: 12,345 of 200,000
    (40s)``, so that a long compile is never a silent wait (``simulate --method compiled | cat`` printed nothing after
    its title for over 10 minutes on the 9th Age whole turn)."""

    def __init__(self, total: int | None, label: str, heard: Callable[[int], None] | None = None) -> None:
        import time

        self.clock = time.monotonic
        self.total, self.label, self.heard = total, label, heard
        self.done, self.doing = 0, ""
        self.started = self.clock()
        self.due = self.started + LINE_SECONDS

    def __enter__(self) -> Any:
        return _Ticker(self._advance, self._note)

    def __exit__(self, *exc: object) -> None:
        return None

    def _note(self, text: str) -> None:
        self.doing = text

    def _advance(self, n: int) -> None:
        self.done += n
        if self.heard is not None:
            self.heard(n)
        now = self.clock()
        if now >= self.due:
            self.due = now + LINE_SECONDS
            label = _noted(self.label, self.doing) if self.doing else self.label
            count = f"{self.done:,}" + (f" of {self.total:,}" if self.total else "")
            print(f"{label}: {count} ({_seconds(now - self.started)})", file=sys.stderr, flush=True)


def _seconds(seconds: float) -> str:
    """Say a time gone by as ``40s`` or ``12m 05s``."""
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


def _noted(label: str, text: str) -> str:
    """A bar's label with what it is doing now, put before the label's reason in brackets, which a terminal cuts
    short: ``playing the engine: step 3, 512 of 3,000 runs played (exact enumeration would take ...)``, where
    ``label: text`` showed a bar standing still at 0 for half a minute (t9a_whole_turn.yaml), its note cut off."""
    head, bracket, reason = label.partition(" (")
    return f"{head}: {text}{bracket}{reason}" if bracket else f"{label}: {text}"


def progress_bar(enabled: bool, total: int | None, label: str, elapsed: bool = False,
                 heard: Callable[[int], None] | None = None) -> _NoProgress | _RichProgress | _LineProgress:
    """Return a context giving ``advance(n)``: when enabled, a rich bar on stderr where one can be drawn (a terminal,
    a notebook), else a line every ``LINE_SECONDS`` (a pipe, a file); nothing when not enabled; ``heard(n)`` told each
    advance too, bar or not (a library caller's count of runs: ``simulate``'s ``advance``).

    ``elapsed``: the time so far shown too, for a bar of few long steps (a sweep's variants), which would otherwise
    stand still at 0 for as long as a variant takes."""
    if not enabled:
        return _NoProgress(heard)
    from rich.console import Console

    drawn = Console(stderr=True)
    if drawn.is_terminal or drawn.is_jupyter:
        return _RichProgress(total, label, elapsed, heard)
    return _LineProgress(total, label, heard)


_progress = progress_bar


def simulate_file(path: str | Path, runs: int, seed: int | None = None, actions: str | Path | None = None,
                  method: str = "auto", progress: bool = False, workers: int | str | None = None,
                  notice: Callable[[str], None] | None = None,
                  advance: Callable[[int], None] | None = None) -> SimulationResult:
    """Simulate a scenario file (with an optional plan file instead of its ``plan``); ``workers``, ``notice`` and
    ``advance`` as ``simulate``."""
    from .parallel import resolve_workers

    workers = resolve_workers(workers, "simulate_file")
    data = read_data(guards.path(path, "simulate_file"))
    plan = load_plan(guards.path(actions, "simulate_file", "actions")) if actions is not None else None
    return simulate(data, runs, seed, plan, method, str(path), progress, workers=workers, notice=notice,
                    advance=advance)
