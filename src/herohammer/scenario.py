"""Scenario files (YAML or JSON, one schema): read, validate, write.

pydantic checks the shape; the cross-references (unique ids, ``joined`` naming a
unit of the same side, special characters agreed on) are checked here.  Every error
becomes one ``ScenarioError`` naming the file, the field's path and what was expected.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import replace
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError, field_validator

from . import guards
from .catalogue import implements
from .errors import HerohammerError, IllegalActionError, ScenarioError, validation_problem
from .keys_once import KeysOnce, object_once
from .input_types import Characteristic, Count, Number, Point
from .geometry import Base, Terrain, on_table, overlapping_pairs
from .limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_NUMBER, LimitError, check_data, check_models, check_size
from .profiles import Profile
from .rulesets import RULESETS, Ruleset
from .rulesets.base import rule_key
from .state import GameState, MagicDice, Phase, Table
from .units import CharacterKind, Model, Status, Unit, UnitType


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class ModelSpec(_Spec):
    """One model in a file."""

    name: str = Field(min_length=1)  # actions, allocations and rulings name a model
    profile: str | dict[str, Characteristic]
    #: The catalogue unit or model this one was filled from (``catalogues:``); its own fields win.
    from_: str | None = Field(None, alias="from")
    base: Number | list[Number] = 25
    at: Point | None = None  # may be left out in a t9a formation (derived from its slot)
    facing: Number = 0.0
    wounds_taken: Count = Field(0, ge=0)
    weapons: list[str] = []
    role: Literal["", "champion", "musician", "standard"] = ""
    #: Promoted to Veteran: Strength +1 written into the profile at load (core.value.unmodified).
    veteran: StrictBool = False
    moved: Number = Field(0.0, ge=0)  # inches moved this phase (one allowance per model per phase)

    @field_validator("profile")
    @classmethod
    def _profile(cls, value: str | dict[str, str | int]) -> str | dict[str, str | int]:
        text = value if isinstance(value, str) else " ".join(f"{k}{v}" for k, v in value.items())
        Profile.parse(text)
        if missing := Profile.missing(text):
            raise ValueError(f"the profile leaves out {', '.join(missing)} (use '-' for a value of 0)")
        return value


class FormationSpec(_Spec):
    """A rank-and-file unit's place (t9a): front-edge centre, facing, width in files, slot order."""

    position: Point
    facing: Number = 0.0
    files: Count = Field(ge=1)
    order: list[str] = []  # model names slot by slot, rank by rank, left to right; default: as listed


class UnitSpec(_Spec):
    """One unit in a file."""

    id: str = Field(min_length=1)
    type: UnitType = UnitType.INFANTRY
    character: CharacterKind | None = None
    rules: list[str] = Field([], description=(
        "special rules by name. Those the ruleset models are played (40k: case, spaces and hyphens aside; t9a: "
        "exactly as printed, 'Fly (8, 6)'); a name within a typo of one (difflib ratio 0.8, or a modelled name "
        "with brackets after it) is refused naming the rule meant; any other name is kept as text, read by no "
        "rule, and said once as a note when the file is loaded"))
    joined: str | None = None
    status: list[Status] = []
    special: StrictBool = False
    formation: FormationSpec | None = None
    destroyed: StrictBool = False  # a unit wiped out during the game: kept (no models) so saves round-trip
    last_of: str | None = None  # t9a: the destroyed combined unit this character is the last survivor of
    spells: list[str] = []  # t9a: the spells chosen before the game (t9a.spell.wizard-conclave)
    embarked_in: str | None = None  # 40k: the transport this unit rides in (published.transports)
    capacity: Count = Field(0, ge=0, le=100)  # 40k: the models a transport vehicle carries
    #: The models the unit had at the start of the battle (published.regroup); absent: the models listed.
    models_at_start: StrictInt | None = Field(None, ge=1, le=MAX_NUMBER)
    models: list[ModelSpec] = []


class TerrainSpec(_Spec):
    """One terrain piece."""

    id: str
    kind: Literal["blocking", "difficult", "dangerous", "open", "soft_cover", "hard_cover"]
    polygon: list[Point] = Field(min_length=3)


class TableSpec(_Spec):
    """The table's size in inches."""

    width: Number = Field(gt=0)
    depth: Number = Field(gt=0)


class ScenarioSpec(_Spec):
    """A whole scenario file."""

    #: The JSON Schema an editor validates the file against (``herohammer schema``); ignored here.
    schema_: str | None = Field(None, alias="$schema")
    ruleset: str
    #: BattleScribe files (.cat/.catz/.ros/.rosz) whose units models name with ``from:``.
    catalogues: list[str] = []
    turn: StrictInt = Field(1, ge=1)
    phase: Phase = Phase.MOVEMENT
    active: str
    table: TableSpec = TableSpec(width=72, depth=48)
    special_characters: StrictBool = False
    terrain: list[TerrainSpec] = []
    sides: dict[str, list[UnitSpec]] = Field(min_length=2, description=(
        "each side's units by side name; a side may be empty (noted on load: nothing of it to shoot or fight), "
        "not every side; a unit wiped out in play is kept with destroyed: true"))
    weapons: list[dict[str, Any]] = []  # the scenario's own weapon profiles (weapons.py)
    powers: list[dict[str, Any]] = []  # the scenario's own psychic powers (powers.py)
    #: Declared splits of attacks (40k3.char.attack-allocation): character -> enemy model or unit -> attacks.
    allocations: dict[str, dict[str, Annotated[Count, Field(ge=1, le=MAX_NUMBER)]]] = {}
    #: t9a: each side's Magic Dice per Magic phase (the Flux card's), those used this phase, spells cast.
    magic_dice: dict[str, Annotated[Count, Field(ge=0, le=12)]] = {}
    magic_dice_used: dict[str, Annotated[Count, Field(ge=0, le=12)]] = {}
    spells_cast: list[str] = []
    #: t9a: "unit/spell" a Caster cannot cast any more this game (a Miscast's Amnesia, published.t9a-miscast)
    spells_forgotten: list[str] = []
    fired_at: dict[str, str] = {}  # this turn's shooting targets by unit (40k4.shoot.same-target)
    #: 40k: the characters joined to a unit shot at this turn when it was shot at: character -> that unit
    #: (published.assault-after-shooting: one its destruction left alone is what is left of the unit shot at)
    joined_when_shot: dict[str, str] = {}
    #: 40k4: the units shot at this Shooting phase with the models each had when first shot, in that order
    #: (published.morale-casualties: their Morale checks are taken when the phase ends)
    shot_this_phase: dict[str, Annotated[StrictInt, Field(ge=1, le=MAX_NUMBER)]] = {}
    #: t9a: the Duels still being fought, each the two duellists (issuer, accepter): it goes on into the combat's next
    #: round (published.t9a-duel)
    duels: list[tuple[str, str]] = []
    #: Actions (JSON objects) that ``herohammer simulate`` plays in order; ignored by the game itself.
    plan: list[dict[str, Any]] = []
    #: How ``herohammer play`` reached this state (source file, actions, seed or dice): enough to replay it.
    played: dict[str, Any] = {}

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, value: str) -> str:
        if value not in RULESETS:
            raise ValueError(f"expected one of {', '.join(sorted(RULESETS))}")
        return value


def _check_unit_keys(source: str, spec: ScenarioSpec, by_id: Mapping[str, Unit]) -> None:
    """Refuse a unit id in ``allocations`` (the character splitting) or ``fired_at`` (the shooter and its target) that
    names no unit: played, it would be read by nothing, the declared split or this turn's target silently lost."""
    named = [(f"allocations.{k}", k) for k in spec.allocations]
    for shooter, target in spec.fired_at.items():
        named += [(f"fired_at.{shooter}", shooter), (f"fired_at.{shooter}", target)]
    for character, host in spec.joined_when_shot.items():
        named += [(f"joined_when_shot.{character}", character), (f"joined_when_shot.{character}", host)]
    for field, unit_id in named:
        if unit_id not in by_id:
            raise ScenarioError(source, field, f"no unit with id {unit_id!r} (units: {', '.join(by_id)})")


def _pydantic_error(source: str, exc: ValidationError) -> ScenarioError:
    path, problem = validation_problem(exc, ScenarioSpec)
    return ScenarioError(source, path or "(top level)", problem)


def read_structured(path: str | Path) -> Any:
    """Read a YAML or JSON file (by its suffix) into plain data, or fail naming the file and the line.

    The file's size is checked before reading and its nesting and size while parsing
    (YAML as a stream of events, so no input can exhaust the stack); see ``limits``.
    """
    if not isinstance(path, (str, Path)):
        raise ScenarioError(repr(path)[:60], "", "expected a file name (str or pathlib.Path)")
    p = Path(path)
    try:
        size = p.stat().st_size
        if p.is_file():
            check_size(size, str(p))
        with p.open(encoding="utf-8") as f:  # no end (/dev/zero, a pipe still writing): read one past the limit
            text = f.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise LimitError(f"{p}: more than the limit of {MAX_FILE_BYTES:,} characters (a file without an end?)")
    except OSError as exc:
        raise ScenarioError(str(p), "", f"cannot read the file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(p), "", f"not UTF-8 text (byte {exc.start}): expected a YAML or JSON file") from None
    return parse_text(text, "JSON" if p.suffix.lower() == ".json" else "YAML", str(p))


def parse_text(text: str, kind: str, where: str, limit: int = MAX_FILE_BYTES) -> Any:
    """Parse YAML or JSON text into plain data, refusing size, nesting or numbers past the limits in one line."""
    check_size(len(text), where, limit, "characters")
    data = _parse(text, kind, where)
    check_data(data, where)
    return data


def _parse(text: str, kind: str, where: str) -> Any:
    try:
        if kind == "JSON":
            return json.loads(text, object_pairs_hook=lambda pairs: object_once(pairs, where))
        _check_yaml_events(text, where)
        return yaml.load(text, Loader=_YAML_LOADER)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, yaml.MarkedYAMLError) and "nesting depth" in str(exc.problem):
            raise LimitError(f"{where}: nested deeper than {MAX_DEPTH} levels (the limit)") from None
        if isinstance(exc, yaml.MarkedYAMLError) and exc.problem:
            mark = exc.problem_mark
            first = exc.problem + (f" at line {mark.line + 1}, column {mark.column + 1}" if mark else "")
        raise ScenarioError(where, "", f"not valid {kind}: {first}") from None
    except HerohammerError:
        raise
    except RecursionError:
        raise LimitError(f"{where}: nested deeper than {MAX_DEPTH} levels (the limit)") from None
    except ValueError as exc:  # Python's limit on very long integers, or a date such as 2020-13-45
        if "integer string conversion" in str(exc):
            raise LimitError(f"{where}: a number thousands of digits long (more than {MAX_NUMBER:.0e} is refused)") from None
        raise ScenarioError(where, "", f"not valid {kind}: {str(exc).splitlines()[0] if str(exc) else exc!r}") from None


_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_yaml_events(text: str, where: str) -> None:
    """Walk the YAML parser's events (no recursion) and stop at the first past a limit, or at a mapping's key given
    twice (YAML would keep the last silently: a scenario's ``turn: 3`` below ``turn: 1``, an action's second ``do``)."""
    depth = 0
    keys = KeysOnce(where)
    for count, event in enumerate(yaml.parse(text, Loader=_YAML_LOADER), start=1):
        if count > 2 * MAX_NODES:
            raise LimitError(f"{where}: more than {MAX_NODES:,} values (the limit for one file or action)")
        keys.feed(event)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise LimitError(f"{where}: line {line}: nested deeper than {MAX_DEPTH} levels (the limit)")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def refuse_battlescribe(name: str) -> None:
    """Refuse a BattleScribe file given as a scenario, saying how to make one of it: read as YAML, its XML
    is one string ("expected a mapping" says nothing), a zipped one "not UTF-8 text"."""
    suffix = Path(name).suffix.lower()
    if suffix in ("", ".yaml", ".yml", ".json"):
        return
    from .battlescribe import SUFFIXES

    if suffix in SUFFIXES:
        made = ("herohammer scenario new --roster FILE makes a scenario of it" if suffix.startswith(".ros")
                else "name its units in a scenario's from: (herohammer catalogue FILE lists them)")
        raise ScenarioError(name, "", f"a BattleScribe {suffix} file, not a scenario (YAML or JSON): {made}")


def read_data(path: str | Path) -> dict[str, Any]:
    """Read a scenario file into plain data, or fail naming the file."""
    if isinstance(path, (str, Path)):
        refuse_battlescribe(str(path))
    data = read_structured(path)
    if not isinstance(data, dict):
        raise ScenarioError(str(path), "(top level)", "expected a mapping with ruleset, active, sides ...")
    return data


def load_scenario(path: str | Path) -> GameState:
    """Read and validate a scenario file into a game state."""
    return state_from_data(read_data(path), str(path))


@implements("40k3.char.special-agreement", "40k3.char.kinds")
def state_from_data(data: Mapping[str, Any], source: str = "<scenario>") -> GameState:
    """Validate plain data (as read from a file) into a game state."""
    from .battlescribe import fill_from_catalogues

    guards.mapping(data, "state_from_data", "data")
    guards.instance(source, str, "state_from_data", "source", "text naming where the data came from")
    check_data(data, source)
    filled = fill_from_catalogues(dict(data), source)  # its refusals name the source and the field already
    try:
        spec = ScenarioSpec.model_validate(filled)
    except ValidationError as exc:
        raise _pydantic_error(source, exc) from None
    except HerohammerError as exc:  # a profile or base the domain types refuse
        raise ScenarioError(source, "", str(exc)) from None
    check_models(sum(len(u.models) for units in spec.sides.values() for u in units), source)
    _check_unread_fields(source, spec, RULESETS[spec.ruleset])
    if spec.turn > (last := RULESETS[spec.ruleset].last_turn):
        raise ScenarioError(source, "turn", f"expected at most {last}, got {spec.turn}: a {spec.ruleset} battle lasts "
                            f"{last} game turns [published.game-length]")
    if not any(spec.sides.values()):  # a save keeps destroyed units (destroyed: true), so this is no game's state
        raise ScenarioError(source, "sides", f"no side has a unit ({', '.join(f'{s}: []' for s in spec.sides)}): "
                            "list each side's units (a unit wiped out in play is kept with destroyed: true)")
    if spec.active not in spec.sides:
        raise ScenarioError(source, "active", f"expected one of the sides {sorted(spec.sides)}, got {spec.active!r}")
    units: list[Unit] = []
    seen: dict[str, str] = {}
    for side, specs in spec.sides.items():
        for i, u in enumerate(specs):
            where = f"sides.{side}[{i}]"
            if u.id in seen:
                raise ScenarioError(source, f"{where}.id", f"unit id {u.id!r} is used twice (also at {seen[u.id]})")
            seen[u.id] = where
            units.append(_unit(source, where, side, _character_by_rules(source, where, u, spec.ruleset)))
    by_id = {u.id: u for u in units}
    for side, specs in spec.sides.items():
        for i, u in enumerate(specs):
            _check_links(source, f"sides.{side}[{i}]", u, side, by_id, spec)
            _check_casualties(source, f"sides.{side}[{i}]", by_id[u.id], spec.ruleset)
    pieces: dict[str, int] = {}
    for i, t in enumerate(spec.terrain):  # rulings name a piece by its id: two of one name would read as one
        if t.id in pieces:
            raise ScenarioError(source, f"terrain[{i}].id",
                                f"terrain id {t.id!r} is used twice (also at terrain[{pieces[t.id]}])")
        pieces[t.id] = i
    counted = RULESETS[spec.ruleset]  # the phases whose losses it counts, and the rule counting them
    if spec.shot_this_phase and spec.phase not in counted.losses_phases:
        phases = " or ".join(f"a {p.value.capitalize()}" for p in Phase if p in counted.losses_phases)
        raise ScenarioError(source, "shot_this_phase", f"losses are counted over {phases} phase, not the "
                            f"{spec.phase.value} phase [{counted.losses_rule}]")
    for unit_id in spec.shot_this_phase:
        if unit_id not in by_id:
            raise ScenarioError(source, f"shot_this_phase.{unit_id}", f"no unit with id {unit_id!r} "
                                f"[{counted.losses_rule}]")
    _check_unit_keys(source, spec, by_id)
    state = GameState(
        ruleset=spec.ruleset, turn=spec.turn, phase=spec.phase, active=spec.active,
        sides=tuple(spec.sides), table=Table(spec.table.width, spec.table.depth),
        terrain=tuple(_terrain(source, i, t) for i, t in enumerate(spec.terrain)),
        units=tuple(units), special_characters_agreed=spec.special_characters,
        **_combat_extras(source, spec),
    )
    from .rulesets import get_ruleset

    state = _arrange_formations(state, source)
    ruleset = get_ruleset(spec.ruleset)
    if not ruleset.has_phase(state.phase):
        raise ScenarioError(source, "phase", f"{spec.ruleset} has no {state.phase.value} phase; expected one of "
                            + ", ".join(p.phase.value for p in ruleset.phases))
    _check_placement(source, state)
    _check_rule_names(source, spec, ruleset)
    _check_weapon_names(source, spec, state, ruleset)
    ruleset.validate_state(state, source)
    return state


def _check_unread_fields(source: str, spec: ScenarioSpec, ruleset: type[Ruleset]) -> None:
    """Refuse a field another game reads and this ruleset does not (``Ruleset.unread_scenario_fields``), set to
    anything but its default, and another game's unit status (``Ruleset.unread_statuses``): loaded, it would be read
    by nothing (``magic_dice`` or a ``fleeing`` unit in a 40k file)."""
    unread = ruleset.unread_scenario_fields
    if not unread:
        return

    def refuse(where: str, name: str, what: str) -> None:
        raise ScenarioError(source, where, f"{what}, which {ruleset.name} does not read: leave out {name} "
                            f"(or write the file for the ruleset that reads it)")

    def check(spec_: BaseModel, fields: Mapping[str, str], where: str) -> None:
        for name, what in fields.items():
            if name in spec_.model_fields_set and getattr(spec_, name) != type(spec_).model_fields[name].default:
                refuse(f"{where}.{name}" if where else name, name, what)

    check(spec, unread.get("file", {}), "")
    units, models = unread.get("unit", {}), unread.get("model", {})
    statuses = ruleset.unread_statuses
    for side, specs in spec.sides.items():
        for i, u in enumerate(specs):
            check(u, units, f"sides.{side}[{i}]")
            for k, status in enumerate(u.status):
                if status in statuses:
                    refuse(f"sides.{side}[{i}].status[{k}]", repr(status.value), statuses[status])
            for j, m in enumerate(u.models):
                check(m, models, f"sides.{side}[{i}].models[{j}]")


#: How alike (difflib's ratio, names compared in lower case) a name must be to a modelled rule to be taken for a typo.
NEAR_MISS = 0.8


def near_miss(ruleset: Ruleset, name: str) -> str | None:
    """Return the modelled rule that ``name`` misses by a typo, its case or its brackets (None: modelled, or far from all).

    A name far from every modelled rule (``combat_squads``, ``scouts``, a roster's rule) is a
    real rule the engine does not play: kept as text and noted, never refused.
    """
    read = ruleset.rule_name(name)
    if read in ruleset.modelled_rules:
        return None
    loose = {rule_key(m): m for m in ruleset.modelled_rules}
    bare = rule_key(re.sub(r"\s*\(.*\)\s*$", "", read))  # "Wizard Apprentice (Cosmology)": the rule, mis-written
    if bare in loose:
        return loose[bare]
    for written in (rule_key(read), bare):  # "Wizard Aprentice (Cosmology)": a typo before the brackets
        close = difflib.get_close_matches(written, loose, n=1, cutoff=NEAR_MISS)
        if close:
            return loose[close[0]]
    return None


def _check_rule_names(source: str, spec: ScenarioSpec, ruleset: Ruleset) -> None:
    """Refuse a special rule's name that misses a modelled one (``flet``): played as written, it would do nothing."""
    for side, specs in spec.sides.items():
        for i, u in enumerate(specs):
            for k, name in enumerate(u.rules):
                if not name.strip():
                    raise ScenarioError(source, f"sides.{side}[{i}].rules[{k}]", "expected a special rule's name, "
                                        "got empty text")
                if (meant := near_miss(ruleset, name)) is not None:
                    raise ScenarioError(
                        source, f"sides.{side}[{i}].rules[{k}]",
                        f"{name!r} is not a special rule {ruleset.name} plays; did you mean {meant!r}? (a name this "
                        "close to a modelled rule is taken for a typo; other names are kept as text, read by no rule)")


def _check_weapon_names(source: str, spec: ScenarioSpec, state: GameState, ruleset: Ruleset) -> None:
    """Refuse a model's weapon that the ruleset has no profile for (``Ruleset.weapon_names``): played, the model would
    find no weapon when it fires (40k) or silently not shoot (t9a). The refusal names the unit, the model and the
    weapon, with the names known, the closest first."""
    names = None
    for side, specs in spec.sides.items():
        for i, u in enumerate(specs):
            for j, m in enumerate(u.models):
                for k, weapon in enumerate(m.weapons):
                    if names is None:
                        names = ruleset.weapon_names(state)
                        if names is None:
                            return
                    if ruleset.weapon_known(weapon, names):
                        continue
                    close = difflib.get_close_matches(ruleset.weapon_key(weapon).strip(), names, n=3, cutoff=0.6)
                    known = [*close, *sorted(names - set(close))]
                    mean = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
                    raise ScenarioError(source, f"sides.{side}[{i}].models[{j}].weapons[{k}]",
                                        f"unit {u.id}, model {m.name}: no weapon {weapon!r} in {ruleset.name}; {mean}"
                                        f"known: {', '.join(known)} ({ruleset.weapons_hint}) [{ruleset.weapons_rule}]")


def unmodelled_rules(state: GameState) -> tuple[str, ...]:
    """List the special rules of a state's units that its ruleset reads nowhere (kept as text), each once."""
    from .rulesets import get_ruleset

    ruleset = get_ruleset(state.ruleset)
    return tuple(sorted({r for u in state.units for r in u.rules if ruleset.rule_name(r) not in ruleset.modelled_rules}))


def scenario_notes(state: GameState) -> tuple[str, ...]:
    """Say what a loaded scenario holds that no rule will read: special rules kept as text, a side without units."""
    notes = []
    if unread := unmodelled_rules(state):
        notes.append(f"special rules not modelled by {state.ruleset}, read as text: {', '.join(unread)}")
    for side in state.sides:
        if not any(u.side == side for u in state.units):
            notes.append(f"side {side} has no units (sides.{side} is empty): nothing of it to shoot, charge or fight")
    return tuple(notes)


def _check_placement(source: str, state: GameState) -> None:
    """Refuse models off the table or standing on each other (a move could never put them there)."""
    placed = [(f"sides.{u.side}[{u.id}].models[{i}]", m.name, m.placed)
              for u in state.units if u.embarked_in is None for i, m in enumerate(u.models)]
    for where, name, p in placed:
        if not on_table(p, state.table.width, state.table.depth):
            raise ScenarioError(source, f"{where}.at", f"{name} stands off the {state.table.width:g}x"
                                f"{state.table.depth:g}\" table at {list(p.at)}")
    for a, b in overlapping_pairs([p for _, _, p in placed]):
        raise ScenarioError(source, f"{placed[b][0]}.at",
                            f"{placed[b][1]} stands on {placed[a][1]} ({placed[a][0]}): bases overlap")


def _arrange_formations(state: GameState, source: str) -> GameState:
    """Complete each rank-and-file formation and stand its models (and joined characters) in their slots."""
    from .formations import arrange, default_formation

    for i, u in enumerate(state.units):
        if u.formation is None or not u.alive:
            continue
        try:
            state = state.replace_unit(replace(u, formation=default_formation(state, u)))
        except IllegalActionError as exc:  # a file's mistake, not an action: its reason alone
            raise ScenarioError(source, f"units.{u.id}.formation", exc.reason) from None
        except HerohammerError as exc:
            raise ScenarioError(source, f"units.{u.id}.formation", str(exc)) from None
        state = arrange(state, u.id)
    return state


def _terrain(source: str, i: int, t: TerrainSpec) -> Terrain:
    try:
        return Terrain(t.id, t.kind, tuple(t.polygon))
    except HerohammerError as exc:
        raise ScenarioError(source, f"terrain[{i}].polygon", str(exc)) from None


def _character_by_rules(source: str, where: str, u: UnitSpec, ruleset_name: str) -> UnitSpec:
    """Return the unit as the character its special rules make it (40k: a roster's Independent Character).

    The rule and ``character:`` say one thing twice, so a unit listing the rule is that kind of
    character, and a ``character:`` that says otherwise is refused rather than one of them ignored.
    """
    from .rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_name)
    kind = u.character
    if kind is not None and kind not in ruleset.character_kinds:  # (t9a: one kind, t9a.char.universal)
        raise ScenarioError(source, f"{where}.character", f"{u.id} is written character: {kind.value}, a kind of "
                            f"character {ruleset.title} does not have: {ruleset.character_kinds_words}")
    if not ruleset.character_rule_names:
        return u
    for k, name in enumerate(u.rules):
        made = ruleset.character_rule_names.get(ruleset.rule_name(name))
        if made is None or made is kind:
            continue
        if kind is not None:
            raise ScenarioError(source, f"{where}.character",
                                f"{u.id} has the special rule {name!r} ({where}.rules[{k}]), which makes it an "
                                f"{made.value} character, but character: {kind.value} says otherwise: keep one "
                                f"[{ruleset.character_kinds_rule}]")
        kind = made
    return u if kind is u.character else u.model_copy(update={"character": kind})


def _unit(source: str, where: str, side: str, u: UnitSpec) -> Unit:
    if u.destroyed and u.models:
        raise ScenarioError(source, f"{where}.models", "expected no models for a unit marked destroyed: true")
    if not u.destroyed and not u.models:
        raise ScenarioError(source, f"{where}.models",
                            "expected at least one model (or destroyed: true for a unit wiped out)")
    models = []
    named: dict[str, int] = {}
    for j, m in enumerate(u.models):
        if (k := named.setdefault(m.name, j)) != j:  # a unit's actions, allocations and events name its models
            raise ScenarioError(source, f"{where}.models[{j}].name",
                                f"unit {u.id} has two models named {m.name!r} (also models[{k}]): actions, allocations "
                                f"and rulings name a model, so give each of a unit's models its own name "
                                f"({m.name} 1, {m.name} 2)")
        try:
            profile = Profile.parse(m.profile) if isinstance(m.profile, str) else Profile.from_mapping(m.profile)
        except HerohammerError as exc:
            raise ScenarioError(source, f"{where}.models[{j}].profile", str(exc)) from None
        if m.veteran:
            profile = profile.promoted_to_veteran()
        try:
            base = Base.parse(m.base)
        except HerohammerError as exc:
            raise ScenarioError(source, f"{where}.models[{j}].base", str(exc)) from None
        if m.at is None and u.formation is None and u.joined is None and u.embarked_in is None:
            raise ScenarioError(source, f"{where}.models[{j}].at",
                                "expected a point [x, y] (only models in a formation may leave it out)")
        at = (0.0, 0.0) if m.at is None else (float(m.at[0]), float(m.at[1]))
        models.append(Model(m.name, profile, base, at, m.facing,
                            m.wounds_taken, tuple(m.weapons), m.role, m.moved))
    formation = None
    if u.formation is not None:
        from .formations import Formation

        f = u.formation
        formation = Formation((float(f.position[0]), float(f.position[1])), f.facing, f.files, tuple(f.order))
    if u.models_at_start is not None and u.models_at_start < len(models):
        raise ScenarioError(source, f"{where}.models_at_start", f"expected at least the {len(models)} models listed "
                            f"(the unit's size at the start of the battle), got {u.models_at_start} [published.regroup]")
    at_start = len(models) if u.models_at_start is None else u.models_at_start
    return Unit(u.id, side, u.type, tuple(models), u.character, frozenset(u.rules), u.joined,
                frozenset(u.status), u.special, formation, u.last_of, tuple(u.spells), u.embarked_in, u.capacity,
                at_start)


@implements("core.zero.w")
def _check_casualties(source: str, where: str, unit: Unit, ruleset_name: str) -> None:
    """Refuse a model listed with as many wounds taken as it has Wounds: a casualty, removed in play (and a
    characteristic of another game's, ``Ruleset.unread_characteristics``).

    Its Wounds are the ruleset's (``Ruleset.model_wounds``): a Wizard Conclave's champion has one more than its
    profile's, so a save of a champion with a wound taken loads again (until session 32 it was refused).
    """
    from .rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_name)
    for j, m in enumerate(unit.models):
        for name, what in ruleset.unread_characteristics.items():
            if getattr(m.profile, name) is not None:
                raise ScenarioError(source, f"{where}.models[{j}].profile", f"{what}, which {ruleset.name} does not "
                                    "read: leave it out (or write the file for the ruleset that reads it)")
        wounds = ruleset.model_wounds(unit, m)
        if wounds == 0:  # the profile is at fault, not the wounds taken: a W of 0 (or '-') is a casualty at once
            raise ScenarioError(source, f"{where}.models[{j}].profile",
                                "a model of Wounds 0 (a '-' or '*' is 0, core.profile.dash) is a casualty, removed "
                                "from the table: leave it out, or give its Wounds [core.zero.w]")
        if m.wounds_taken >= wounds:
            more = f" ({m.profile.w} in its profile, {ruleset.wounds_bonus_said(unit, m)})" if wounds != m.profile.w \
                else ""
            raise ScenarioError(source, f"{where}.models[{j}].wounds_taken",
                                f"a model with {wounds} Wounds{more} and {m.wounds_taken} taken is a casualty "
                                "and must not be listed [core.zero.w]")


def _check_links(source: str, where: str, u: UnitSpec, side: str, by_id: dict[str, Unit], spec: ScenarioSpec) -> None:
    from .rulesets import get_ruleset

    if u.joined is not None:
        if not get_ruleset(spec.ruleset).counts_as_character(by_id[u.id]):
            raise ScenarioError(source, f"{where}.joined", "only a character can join a unit; add character: independent")
        host = by_id.get(u.joined)
        if host is None:
            raise ScenarioError(source, f"{where}.joined", f"no unit with id {u.joined!r}")
        if host.side != side:
            raise ScenarioError(source, f"{where}.joined", f"{u.joined!r} is a unit of side {host.side!r}, not {side!r}")
        if any(m.at is None for m in u.models) and host.formation is None:
            raise ScenarioError(source, f"{where}.models", f"expected at: {u.joined!r} has no formation to stand in")
        if host.id == u.id or host.joined is not None:
            raise ScenarioError(source, f"{where}.joined", f"{u.joined!r} is itself a character in another unit")
        fellows = [host, *(c for c in by_id.values() if c.joined == host.id and c.id != u.id)]
        for j, m in enumerate(u.models):
            for other in fellows:
                if any(o.name == m.name for o in other.models):
                    mate = "the unit it has joined" if other is host else f"a character joined to {host.id} too"
                    raise ScenarioError(source, f"{where}.models[{j}].name",
                                        f"{u.id}'s model {m.name!r} has the name of a model of {other.id}, {mate}: "
                                        "actions, allocations and rulings name a model, so give it its own name")
    if u.embarked_in is not None or u.capacity:
        _check_transport(source, where, by_id[u.id], by_id)
    if u.last_of is not None:
        gone = by_id.get(u.last_of)
        if gone is None or gone.side != side or gone.alive or gone.id == u.id:
            raise ScenarioError(source, f"{where}.last_of", f"expected a destroyed unit of side {side!r} that this "
                                f"character is the last survivor of, got {u.last_of!r} [t9a.combined.last-survivor, "
                                f"{get_ruleset(spec.ruleset).character_kinds_rule}]")
    if u.character is CharacterKind.ORDINARY and u.joined is None and u.last_of is None:
        kinds = get_ruleset(spec.ruleset).character_kinds_rule  # each edition's own clause (40k4: its published one)
        raise ScenarioError(source, f"{where}.joined",
                            f"{u.id} is an ordinary character, deployed as part of a unit: name it in joined (or, once "
                            f"that unit is destroyed, in last_of) [{kinds}]")
    agreement = get_ruleset(spec.ruleset).special_characters_rule
    if u.special and agreement is not None and not get_ruleset(spec.ruleset).counts_as_character(by_id[u.id]):
        # a special character is a famous character (seed 000): the flag on a unit that is none is read by no rule
        # (judge round 65: before, it was loaded once special characters were agreed)
        raise ScenarioError(source, f"{where}.special",
                            f"{u.id} is not a character, and only a character is a special (named) character: set "
                            f"character: independent (or ordinary), or drop special [{agreement}]")
    if u.special and not spec.special_characters and agreement is not None:
        raise ScenarioError(source, f"{where}.special",
                            "special characters may be used only when both players agree: set "
                            f"special_characters: true [{agreement}]")


@implements("published.transports")
def _check_transport(source: str, where: str, unit: Unit, by_id: dict[str, Unit]) -> None:
    """Refuse a passenger without a transport of its side to ride in, or a transport carrying more than it can."""
    if unit.capacity and unit.type is not UnitType.VEHICLE:
        raise ScenarioError(source, f"{where}.capacity", "only a vehicle carries models: set type: vehicle "
                            "[published.transports]")
    if unit.embarked_in is None:
        aboard = sum(len(u.models) for u in by_id.values() if u.embarked_in == unit.id)
        if aboard > unit.capacity:
            raise ScenarioError(source, f"{where}.capacity", f"{unit.id} carries {aboard} models but has room for "
                                f"{unit.capacity} [published.transports]")
        return
    transport = by_id.get(unit.embarked_in)
    if transport is None or transport.side != unit.side or not transport.capacity or not transport.alive:
        raise ScenarioError(source, f"{where}.embarked_in", f"expected a transport vehicle of side {unit.side!r} "
                            f"(a vehicle with capacity), got {unit.embarked_in!r} [published.transports]")
    if unit.capacity or unit.type is UnitType.VEHICLE:
        raise ScenarioError(source, f"{where}.embarked_in", "a vehicle does not ride in a transport "
                            "[published.transports]")
    host = by_id.get(unit.joined) if unit.joined else None
    if host is not None and host.embarked_in != unit.embarked_in:
        raise ScenarioError(source, f"{where}.embarked_in", f"{unit.id} has joined {host.id}, which is not "
                            f"embarked in {unit.embarked_in!r}: a character rides with his unit [published.transports]")
    for other in by_id.values():
        if other.joined == unit.id and other.embarked_in != unit.embarked_in:
            raise ScenarioError(source, f"{where}.embarked_in", f"{other.id} has joined {unit.id}: embark it in "
                                f"{unit.embarked_in!r} too [published.transports]")


def state_to_data(state: GameState) -> dict[str, Any]:
    """Write a game state as plain data that ``state_from_data`` reads back to the same state."""
    sides: dict[str, list[dict[str, Any]]] = {s: [] for s in state.sides}
    for u in state.units:
        entry: dict[str, Any] = {"id": u.id, "type": u.type.value}
        if not u.alive:
            entry["destroyed"] = True
        if u.character is not None:
            entry["character"] = u.character.value
        if u.rules:
            entry["rules"] = sorted(u.rules)
        if u.joined:
            entry["joined"] = u.joined
        if u.status:
            entry["status"] = sorted(s.value for s in u.status)
        if u.special:
            entry["special"] = True
        if u.formation is not None:
            entry["formation"] = u.formation.to_data()
        if u.last_of is not None:
            entry["last_of"] = u.last_of
        if u.spells:
            entry["spells"] = list(u.spells)
        if u.embarked_in is not None:
            entry["embarked_in"] = u.embarked_in
        if u.capacity:
            entry["capacity"] = u.capacity
        if u.starting_strength != len(u.models):
            entry["models_at_start"] = u.starting_strength
        entry["models"] = [_model_data(m) for m in u.models]
        sides[u.side].append(entry)
    data: dict[str, Any] = {
        "ruleset": state.ruleset, "turn": state.turn, "phase": state.phase.value, "active": state.active,
        "table": {"width": state.table.width, "depth": state.table.depth},
    }
    if state.special_characters_agreed:
        data["special_characters"] = True
    if state.terrain:
        data["terrain"] = [{"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in state.terrain]
    data.update(_combat_extras_data(state))
    data["sides"] = sides
    return data


def _model_data(m: Model) -> dict[str, Any]:
    out: dict[str, Any] = {"name": m.name, "profile": m.profile.format(), "base": m.base.to_data(),
                           "at": [m.at[0], m.at[1]]}
    if m.facing:
        out["facing"] = m.facing
    if m.wounds_taken:
        out["wounds_taken"] = m.wounds_taken
    if m.weapons:
        out["weapons"] = list(m.weapons)
    if m.role:
        out["role"] = m.role
    if m.moved:
        out["moved"] = m.moved
    return out


def dump_state(state: GameState, fmt: str = "yaml") -> str:
    """Return the state as YAML or JSON text."""
    data = state_to_data(state)
    if fmt == "json":
        return json.dumps(data, indent=2)
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None)


def check_writable(path: str | Path, option: str) -> Path:
    """Refuse an output path that cannot be written (a directory, or in a missing folder) before any work."""
    p = Path(path)
    if p.is_dir():
        raise HerohammerError(f"{option} {p}: is a directory; give a file name")
    if not p.parent.is_dir():
        raise HerohammerError(f"{option} {p}: the folder {p.parent} does not exist")
    return p


def save_scenario(state: GameState, path: str | Path, played: Mapping[str, Any] | None = None) -> None:
    """Write the state as a scenario file (JSON if the name ends in .json, else YAML), with how it was played.

    Written whole or not at all: Ctrl-C or a full disk leaves any earlier file as it was.
    """
    guards.instance(state, GameState, "save_scenario", "state", "a GameState (load_scenario(path) or Game.state)")
    p = check_writable(guards.path(path, "save_scenario"), "output")
    if played is not None:
        guards.mapping(played, "save_scenario", "played")
    data = state_to_data(state)
    if played:
        data["played"] = dict(played)
    fmt = "json" if p.suffix.lower() == ".json" else "yaml"
    write_atomically(p, json.dumps(data, indent=2) if fmt == "json"
                     else yaml.safe_dump(data, sort_keys=False, default_flow_style=None))


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write a file through a temporary one beside it, renamed into place only when complete."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(text, bytes):
            tmp.write_bytes(text)
        else:
            tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise HerohammerError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _named_once(source: str, field: str, names: list[str]) -> None:
    """Refuse a scenario's weapon or power profile given twice under one name (as models name them, case aside):
    models find the first by name, so the second would be read by nothing, its numbers silently ignored."""
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        j = first.setdefault(name.lower(), i)
        if j != i:
            raise ScenarioError(source, f"{field}[{i}].name", f"{name!r} is defined twice (also {field}[{j}]): "
                                "models find a profile by its name, so give each name once")


def _combat_extras(source: str, spec: ScenarioSpec) -> dict[str, Any]:
    """Read the optional weapons, powers and allocations of a scenario (the combat engine's data)."""
    from .powers import powers_from_data
    from .weapons import weapons_from_data

    try:
        weapons = weapons_from_data(spec.weapons)
        powers = powers_from_data(spec.powers)
    except HerohammerError as exc:
        raise ScenarioError(source, "", str(exc)) from None
    for field, named in (("weapons", weapons), ("powers", powers)):
        _named_once(source, field, [item.name for item in named])
    allocations = tuple((k, tuple(v.items())) for k, v in spec.allocations.items())
    for side in (*spec.magic_dice, *spec.magic_dice_used):
        if side not in spec.sides:
            raise ScenarioError(source, "magic_dice", f"no side {side!r} (sides: {', '.join(spec.sides)})")
    magic = MagicDice(tuple(sorted(spec.magic_dice.items())), tuple(sorted(spec.magic_dice_used.items())),
                      tuple(spec.spells_cast), tuple(spec.spells_forgotten))
    return {"weapons": weapons, "powers": powers, "allocations": allocations,
            "fired_at": tuple(spec.fired_at.items()), "joined_when_shot": tuple(spec.joined_when_shot.items()),
            "shot_this_phase": tuple(spec.shot_this_phase.items()),
            "magic": magic, "duels": tuple((a, b) for a, b in spec.duels)}


def _combat_extras_data(state: GameState) -> dict[str, Any]:
    """Write the optional weapons, powers and allocations back (left out when empty)."""
    out: dict[str, Any] = {}
    if state.weapons:
        out["weapons"] = [w.to_data() for w in state.weapons]
    if state.powers:
        out["powers"] = [p.to_data() for p in state.powers]
    if state.allocations:
        out["allocations"] = {k: dict(v) for k, v in state.allocations}
    if state.fired_at:
        out["fired_at"] = dict(state.fired_at)
    if state.joined_when_shot:
        out["joined_when_shot"] = dict(state.joined_when_shot)
    if state.shot_this_phase:
        out["shot_this_phase"] = dict(state.shot_this_phase)
    if state.duels:
        out["duels"] = [list(pair) for pair in state.duels]
    if state.magic.per_phase:
        out["magic_dice"] = dict(state.magic.per_phase)
    if state.magic.used:
        out["magic_dice_used"] = dict(state.magic.used)
    if state.magic.cast:
        out["spells_cast"] = list(state.magic.cast)
    if state.magic.forgotten:
        out["spells_forgotten"] = list(state.magic.forgotten)
    return out
