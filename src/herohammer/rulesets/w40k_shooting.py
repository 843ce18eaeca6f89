"""Warhammer 40,000 shooting: who fires what, the volley's dice, and the casualties' Morale check.

Decisions the seeds leave open (the published rules where they give them):

- Each model fires one weapon (the first listed that can fire: in range, in sight, not
  Heavy after moving; or the one the player names).  Models with the same BS and weapon
  roll together; a character whose BS or weapon differs rolls apart
  (40k3.char.shooting-dice, 40k4.shoot.separate-dice).
- Blast: a hit covers ``blast`` models of the target (at most the models it has).

A volley is worked out once per state and action (``_Volley``): the dice then only pick
one of its distinct results, so play, odds and simulation share one rules code.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import replace
from operator import attrgetter, itemgetter
from itertools import chain, repeat
from typing import Any, NamedTuple, Union

from .. import geometry as geo
from ..actions import Shoot, WeaponChoice
from ..catalogue import implements
from ..charts import can_shoot, hit_strength, to_hit_shooting, to_wound
from ..dice import Dice, Stage, rolls_made, rolls_since
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from ..values import evolve, keep_bounded
from ..weapons import Weapon, WeaponType
from .base import Resolution
from .w40k_wounds import (Carry, CarrySaves, casualties, majority, MODEL_OF, ModelRef, MODELS_OF,
                          outright_events, release_orphans, roll_saves, save_groups, saves_event,
                          SavesGroup, TOUGHNESS_OF, UNIT_OF, unsaved_taken, WEAPONS_OF, WoundBatch, wounded_units,
                          zero_rules)
from .w40k_morale import last_models, MORALE_FRACTION, MoraleRules, NONE_YET

_SHOT = frozenset({Status.SHOT})
_SHOT_NO_ASSAULT = frozenset({Status.SHOT, Status.FIRED_NO_ASSAULT})
#: The weapon types a type that fires on the move (4th edition bikes) fires after moving as if still, and may
#: charge after firing (``ShootingRules.charge_after_firing``)
_ON_THE_MOVE = frozenset({WeaponType.RAPID_FIRE, WeaponType.HEAVY})


def _choice_key(choice: WeaponChoice) -> Hashable:
    """Return a named weapon choice as a key (a dict's items in order of member)."""
    return tuple(sorted(choice.items())) if isinstance(choice, dict) else choice


def _weapon_pick(members: Sequence[Unit], choice: WeaponChoice) -> dict[str, str] | None:
    """Return the weapon named for each member (its unit id -> the name, case aside), None when none is named."""
    if choice is None:
        return None
    if isinstance(choice, dict):
        return {uid: name.strip().lower() for uid, name in choice.items()}
    return {u.id: choice.strip().lower() for u in members}


BS0_NOTE = "has BS 0 and cannot shoot [core.zero.bs]"  # a volley's note on a model that fires nothing
MOVED_NOTE = "fires no shot after moving [published.weapon-profiles]"  # a volley's note: weapons in range, none fires
RANGE_NOTE = "out of range [published.weapon-profiles]"  # a volley's note: a model none of whose weapons reaches
UNARMED_NOTE = "carries no shooting weapon [published.weapon-profiles]"  # a volley's note: a model with no weapon


def _note_event(note: str) -> Event:
    """A volley's note on a model that does not fire, citing the rule that says why (BS 0, moving, or range)."""
    if note.endswith(BS0_NOTE):
        return Event("note", note, ("core.zero.bs",))
    return Event("note", note, ("published.weapon-profiles",) if note.endswith((MOVED_NOTE, RANGE_NOTE, UNARMED_NOTE))
                 else ())


def _no_fire_note(name: str, carried: Sequence[Weapon], target_id: str, dist: float, moved: bool) -> str:
    """Say why a model fires no weapon at a target: none reaches it, or (its unit, a joined character too, having
    moved) those that do fire no shot by their type (Heavy, Ordnance, Rapid Fire beyond its range after moving)."""
    reaching = [w for w in carried if dist <= w.range + geo.EPSILON]
    if carried and not reaching:  # judge round 43: told citing no rule
        ranges = ", ".join(f"{w.name} {w.range:g}\"" for w in carried)
        return f"{name} has no weapon that can fire at {target_id} ({dist:.1f}\"): {ranges} {RANGE_NOTE}"
    if not carried:  # round 43: told citing no rule
        return f"{name} has no weapon that can fire at {target_id} ({dist:.1f}\"): it {UNARMED_NOTE}"
    if not reaching or not moved:
        return f"{name} has no weapon that can fire at {target_id} ({dist:.1f}\")"
    kinds = ", ".join(f"{w.name} ({w.type.value.replace('_', ' ').title()})" for w in reaching)
    return f"{name}, whose unit moved this turn: its {kinds} at {target_id} ({dist:.1f}\") {MOVED_NOTE}"


#: How many distinct results (wounds per batch, unsaved wounds per save group) a volley's plan keeps (``_Volley``).
VOLLEY_OUTCOMES_KEPT = 256
#: How many allocations of wounds per batch an attack keeps (``_Attack.allocations``).
ALLOCATIONS_KEPT = 64
#: How many worded shots and saves results an attack keeps (``_Attack.said``).
WORDS_KEPT = 256
_VOLLEY = 'volley'


class _Batch(NamedTuple):
    """One batch of a shooting attack (same BS and weapon) as the dice find it (``ShootingRules._attack``)."""

    weapon: Weapon
    rule: str
    shots: int  # the batch's shots, unless its models roll them
    rolled: tuple[str, ...]  # each model's roll for its shots (Assault D6 and the like), else empty
    to_hit: Stage
    wounding: Stage
    blast: int  # the models one hit covers (0: not a blast weapon)
    cited: tuple[str, ...]
    fire: str  # the event's first words: "5 models fire"
    why: str  # why no wound can be caused, if none can
    strength: int  # the weapon's Strength as fired (Instant Death reads it)


class _Attack:
    """A shooting attack worked out before the dice: its batches, its target, and (filled when wounds are first
    allocated) the target's models in the order that takes wounds and the save groups per number of wounds."""

    __slots__ = ("target_id", "rules", "batches", "groups", "fired", "nearest", "beyond", "parts", "pool", "reach",
                 "out_of_reach", "models", "allocations", "said", "carried", "spills")

    def __init__(self, target_id: str, rules: tuple[str, ...], batches: tuple[_Batch, ...], groups: tuple[Unit, ...],
                 fired: Sequence[tuple[Unit, Model, Weapon, int]], nearest: Sequence[float] | None, beyond: bool,
                 parts: tuple[Sequence[tuple[Unit, Model, Weapon, int]], ...]) -> None:
        self.target_id, self.rules, self.batches, self.groups = target_id, rules, batches, groups
        self.fired, self.nearest, self.beyond, self.parts = fired, nearest, beyond, parts
        self.pool: list[ModelRef] = []
        #: each batch's models that its weapon reaches (range and sight), when they differ from batch to batch
        self.reach: tuple[frozenset[ModelRef], ...] | None = None
        #: the target's models no weapon fired reaches (names): wounds past the others are lost
        self.out_of_reach: tuple[str, ...] = ()
        self.models: dict[ModelRef, tuple[Unit, Model]] | None = None
        self.allocations: dict[tuple[int, ...], list[SavesGroup] | None] = {}
        #: the words of its shots and saves events by what they say (``_fire``, ``_saves``)
        self.said: dict[tuple[Any, ...], str] = {}
        #: each save group's wounds by batch index, per number of wounds per batch (``_carry``)
        self.carried: dict[tuple[int, ...], list[list[int]]] = {}
        #: whether the unit's own models leave unsaved wounds over for its joined characters, per number of wounds per
        #: batch and unsaved wounds per group (``_spills``): most volleys' do not, and then no carry is worked out
        self.spills: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}

    def reach_short(self) -> bool:
        """Say whether some weapon fired does not reach every model of the target (wounds may be lost for it)."""
        return bool(self.out_of_reach) or self.reach is not None


class _MoraleDue(NamedTuple):
    """A Morale check the casualties call for: the unit that takes it, and why."""

    unit_id: str
    why: str


#: What a shooting attack's casualties call for (``ShootingRules._casualty_check``): Last Man Standing tests (True),
#: a Morale check, the unit's destruction (its event), or nothing (None).
_Check = Union[bool, _MoraleDue, Event, None]
_LAST_MAN = True


class _Volley(NamedTuple):
    """A volley worked out once per state and action (``ShootingRules.resolve_shoot``): who shoots, the opening
    events, the attack, and each distinct result of its wounds and saves (at most ``VOLLEY_OUTCOMES_KEPT``), with
    the state it leads to, Morale check and fall back included (remembered on that state).

    Kept from the second volley from a state on: a state shot from once (play, a new state) keeps
    nothing the volley worked out alive, only that it was shot from; one shot from again (a search,
    an enumeration) finds the plan and its results."""

    shooter_id: str
    members: tuple[Unit, ...]
    opening: tuple[Event, ...]
    attack: _Attack
    outcomes: dict[Hashable, tuple[GameState, tuple[Event, ...], _Check]]
    #: the state after the wounds and what it calls for, by the wounds each model took (``_volley_outcome``): results
    #: that differ only in the dice that did not change the table (wounds saved) share one state, and with it what
    #: that state remembers (its Morale check's facts, its fall back's end for each distance)
    afters: dict[Hashable, tuple[GameState, _Check, list[str]]]
    #: the members whose models fired a weapon that bars the assault this turn (published.assault-after-firing)
    barred: frozenset[str] = frozenset()


class ShootingRules(MoraleRules):
    """Shoot: the volley's shots, hits, wounds and saves, then the casualties' checks."""

    # == shooting ====================================================================
    def fired_moving(self, unit: Unit) -> bool:
        """Say whether ``unit``'s weapons fire as a moving firer's this turn (published.weapon-profiles): it moved, and
        its type does not fire on the move as if it stood still (``fires_on_the_move``: 4th edition bikes)."""
        return unit.has(Status.MOVED) and not self.fires_on_the_move(unit)

    def charge_after_firing(self, unit: Unit) -> frozenset[WeaponType]:
        """Return the weapon types ``unit`` may fire and still assault besides Assault and Pistol ones
        (``bars_assault``): Rapid Fire and Heavy for a type that fires on the move (4th edition bikes)."""
        return _ON_THE_MOVE if self.fires_on_the_move(unit) else frozenset()

    def _fired_on_the_move(self, members: Sequence[Unit], fired: Sequence[tuple[Unit, Model, Weapon, int]],
                           barred: frozenset[str]) -> list[Event]:
        """Say which members fired a Rapid Fire or Heavy weapon that bars no assault by their type's rule, and why."""
        events = []
        for u in members:
            rule = self.fires_on_the_move(u)
            if not rule:
                continue
            kinds = sorted({w.type.value.replace("_", " ").title() for f, _, w, _ in fired
                            if f is u and w.type in _ON_THE_MOVE})
            if not kinds:
                continue
            moved = " after moving, as if it stood still," if u.has(Status.MOVED) else ""
            still = "" if u.id in barred else " and may still charge this turn"
            events.append(Event("note", f"{u.id} fires its {' and '.join(kinds)} weapons from a bike{moved}{still}",
                                (rule,)))
        return events

    def _shots(self, state: GameState, shooters: Sequence[tuple[Unit, Model]], target_id: str,
               moved: frozenset[str], pick: Mapping[str, str] | None = None
               ) -> tuple[list[tuple[Unit, Model, Weapon, int]], list[str], list[float] | None, bool]:
        """Decide what each model fires: one weapon, shots by its type; and notes on those that cannot.

        ``moved``: the members (unit ids) that moved this turn.  Each firer's own unit decides whether it moved
        (published.weapon-profiles: "if the firer moved"), so a character who moved to join a squad that stood
        still has moved, while the squad's heavy weapons still fire.  ``pick``: the weapon named for each member
        (``_weapon_pick``): a model that carries it fires it, the others choose as usual.

        Also return each target model's distance to the nearest model that fires (``geo.GapTable``:
        the gaps are measured once, for the ranges here and the wound allocation after), or None
        if no model fires; and whether a target model may stand beyond the range of a weapon fired
        (``_beyond_a_range``: then the wound allocation measures each weapon's reach).
        """
        target_models = list(chain.from_iterable(map(MODELS_OF, state.combined(target_id))))
        if not shooters:
            return [], [], None, False
        models = list(map(MODEL_OF, shooters))
        table = geo.GapTable(models, target_models)
        least = table.least()
        # without blocking terrain every model sees the target (geo.unit_line_of_sight): asked once, not per model
        blocking = geo.blocks_sight(state.terrain)
        if not blocking and (fired := self._all_fire(state, shooters, least, moved, pick)) is not None:
            kept: Sequence[int] = range(len(fired))
            notes: list[str] = []
        else:
            fired, notes, kept = self._shots_one_by_one(state, shooters, target_id, moved, least, blocking,
                                                        target_models, pick)
            if not kept:
                return fired, notes, None, False
        # each member once, by identity: a set would hash units just built, walking every model
        if any(self.weapons_a_turn(u) > 1 for u in {id(u): u for u, _ in shooters}.values()):
            fired, kept = self._more_weapons(state, fired, kept, least, moved)
        nearest = list(map(max, repeat(0.0), table.least_to(kept)))  # geo.clear: max(0.0, gap)
        return fired, notes, nearest, _beyond_a_range(table, fired, kept, nearest)

    @implements("published.monstrous-creatures")
    def _more_weapons(self, state: GameState, fired: list[tuple[Unit, Model, Weapon, int]], kept: Sequence[int],
                      least: Sequence[float], moved: frozenset[str]
                      ) -> tuple[list[tuple[Unit, Model, Weapon, int]], list[int]]:
        """Add the further weapons a model fires where its type lets it fire more than one (``weapons_a_turn``: 4th
        edition Monstrous Creatures, "up to two weapons a turn"): after the one chosen (named, or its first that can),
        its next weapons that can fire at the target, in the order listed, each as a batch of its own; return them
        with the shooters' rows of every entry (``kept``, a row once per weapon fired)."""
        more: list[tuple[Unit, Model, Weapon, int]] = []
        rows: list[int] = []
        for row, item in zip(kept, fired):
            more.append(item)
            rows.append(row)
            unit, model, weapon, _ = item
            extra = self.weapons_a_turn(unit) - 1
            if extra <= 0:
                continue
            others = [w for w in self.weapons_of(state, model) if w.is_shooting]
            first = next((i for i, w in enumerate(others) if w.name == weapon.name), None)
            if first is not None:
                del others[first]
            dist = max(0.0, least[row])
            while extra > 0 and (choice := self._weapon_at(others, dist, unit.id in moved)) is not None:
                more.append((unit, model, *choice))
                rows.append(row)
                others.remove(choice[0])
                extra -= 1
        return more, rows

    def _all_fire(self, state: GameState, shooters: Sequence[tuple[Unit, Model]], least: Sequence[float],
                  moved: frozenset[str], pick: Mapping[str, str] | None = None
                  ) -> list[tuple[Unit, Model, Weapon, int]] | None:
        """Return what each model fires when every one can (the usual volley, no terrain blocking sight), else None.

        ``_shots_one_by_one`` gives the same, each choice made once by weapons and range in the
        models' order as it makes them; here the models are read in C and a weapon chosen once
        per distinct weapons and range.  ``least``: each model's gap to the target.
        """
        models = list(map(MODEL_OF, shooters))
        if not all(map(can_shoot, set(map(_BS, models)))):
            return None
        if pick:  # a weapon named: each model's choice by its own weapons and what its member named
            return self._fire_picked(state, shooters, least, moved, pick)
        keys = list(zip(map(WEAPONS_OF, models), [0.0 if d < 0.0 else d for d in least],  # geo.clear
                        [u.id in moved for u, _ in shooters] if moved else repeat(False)))
        arms: dict[tuple[str, ...], list[Weapon]] = {}
        chosen: dict[tuple[tuple[str, ...], float, bool], tuple[Weapon, int] | None] = {}
        for model, key in zip(models, keys):
            if key not in chosen:
                carried = arms.get(model.weapons)
                if carried is None:
                    carried = arms[model.weapons] = [w for w in self.weapons_of(state, model) if w.is_shooting]
                chosen[key] = self._weapon_at(carried, key[1], key[2])
        if None in chosen.values():
            return None
        return list(map(tuple.__add__, shooters, map(chosen.__getitem__, keys)))  # type: ignore[arg-type]

    def _shots_one_by_one(self, state: GameState, shooters: Sequence[tuple[Unit, Model]], target_id: str,
                          moved: frozenset[str],
                          least: Sequence[float], blocking: bool, target_models: Sequence[Model],
                          pick: Mapping[str, str] | None = None
                          ) -> tuple[list[tuple[Unit, Model, Weapon, int]], list[str], list[int]]:
        """Decide model by model what each fires (``_shots``), with a note on each that cannot; return also the rows
        of the models that fire.  ``least``: each model's gap to the target."""
        fired: list[tuple[Unit, Model, Weapon, int]] = []
        notes: list[str] = []
        kept: list[int] = []  # the rows of the models that fire
        arms: dict[tuple[str, ...], list[Weapon]] = {}  # models that carry the same weapons: shooting ones, looked up once
        # the choice by weapons, range and whether the firer's unit moved
        chosen: dict[tuple[tuple[str, ...], float, bool], tuple[Weapon, int] | None] = {}
        for i, ((unit, model), dist) in enumerate(zip(shooters, least)):
            if dist < 0.0:
                dist = 0.0  # geo.clear: bases that touch or overlap are 0" apart
            if not can_shoot(model.profile.bs):
                notes.append(f"{model.name} {BS0_NOTE}")
                continue
            if blocking and not geo.unit_line_of_sight([model.placed], [m.placed for m in target_models],
                                                       state.terrain):
                notes.append(f"{model.name} cannot see {target_id}")
                continue
            key = (model.weapons, dist, unit.id in moved)
            if pick and unit.id in pick:  # the weapon its player named, if this model carries it
                choice = self._picked_weapon_at(state, model, pick[unit.id], dist, key[2])
                if choice is not None:
                    fired.append((unit, model, *choice))
                    kept.append(i)
                    continue
            if key in chosen:
                choice = chosen[key]
            else:
                carried = arms.get(model.weapons)
                if carried is None:
                    carried = arms[model.weapons] = [w for w in self.weapons_of(state, model) if w.is_shooting]
                choice = chosen[key] = self._weapon_at(carried, dist, key[2])
            if choice is None:
                notes.append(_no_fire_note(model.name, arms[model.weapons], target_id, dist, key[2]))
                continue
            fired.append((unit, model, *choice))
            kept.append(i)
        return fired, notes, kept

    def _fire_picked(self, state: GameState, shooters: Sequence[tuple[Unit, Model]], least: Sequence[float],
                     moved: frozenset[str], pick: Mapping[str, str]) -> list[tuple[Unit, Model, Weapon, int]] | None:
        """``_all_fire`` with a weapon named: each model fires the named weapon if it carries it and can, else its
        first that can; None as soon as one model fires nothing (``_shots_one_by_one`` then says why)."""
        fired = []
        for (unit, model), dist in zip(shooters, least):
            dist = 0.0 if dist < 0.0 else dist
            went = unit.id in moved
            choice = self._picked_weapon_at(state, model, pick[unit.id], dist, went) if unit.id in pick else None
            if choice is None:
                choice = self._weapon_at([w for w in self.weapons_of(state, model) if w.is_shooting], dist, went)
            if choice is None:
                return None
            fired.append((unit, model, *choice))
        return fired

    @implements("published.weapon-profiles")
    def _picked_weapon_at(self, state: GameState, model: Model, name: str, dist: float,
                          moved: bool) -> tuple[Weapon, int] | None:
        """Return the named weapon (case aside) with its shots if ``model`` carries it and it fires at this range,
        else None (the model then chooses as usual: a model fires one weapon, published.weapon-profiles)."""
        named = self._named_weapons(state, model, name)
        return self._weapon_at(named, dist, moved) if named else None

    @implements("published.weapon-profiles")
    def weapon_variants(self, state: GameState, shooter: Unit, target: Unit) -> list[str]:
        """Name the weapons a shot at ``target`` may name that change what some model fires (``legal_actions`` offers
        each beside the unnamed shot, as The 9th Age's do): a weapon a model carries and can fire at the target now
        where, unnamed, it would fire another; each once, as carried.  Terrain and sight aside: the ruling decides."""
        members = state.combined(shooter.id)
        if not any(len(m.weapons) > 1 for u in members for m in u.models):
            return []
        group = [p for u in state.combined(target.joined or target.id) for p in u.placed]
        if not group:  # a target with no model on the table (embarked, destroyed): nothing to fire at
            return []
        names: dict[str, str] = {}
        for u in members:
            moved = self.fired_moving(u)
            for m in u.models:
                carried = [w for w in self.weapons_of(state, m) if w.is_shooting]
                if len(carried) < 2:
                    continue
                dist = max(0.0, geo.group_distance([m.placed], group))
                unnamed = self._weapon_at(carried, dist, moved)
                for w in carried:
                    key = w.name.lower()
                    if key not in names and (unnamed is None or unnamed[0].name.lower() != key) \
                            and self._weapon_at([w], dist, moved) is not None:
                        names[key] = w.name
        return list(names.values())

    def _named_weapons(self, state: GameState, model: Model, name: str) -> list[Weapon]:
        """Return the shooting weapons of ``model`` named ``name`` (lower case, stripped: as ``_weapon_pick`` keeps it)."""
        return [w for w in self.weapons_of(state, model) if w.is_shooting and w.name.lower() == name]

    @implements("published.weapon-profiles")
    def weapon_choice_problem(self, state: GameState, shooter: Unit, target: Unit,
                              choice: WeaponChoice) -> Ruling | None:
        """Refuse a weapon named for a volley (``Shoot.weapon``, for the unit or per member) that no model of the
        members named carries as a shooting weapon, a member that is not the unit or a character in it, or a weapon
        none of its carriers can fire at the target now (beyond its range, or a Heavy or Ordnance weapon after its
        firer moved); None when every choice can be made."""
        members = {u.id: u for u in state.combined(shooter.id)}
        picks = choice if isinstance(choice, dict) else {"": choice} if choice is not None else {}
        group = [p for u in state.combined(target.joined or target.id) for p in u.placed]
        rule = "published.weapon-profiles"
        for who, name in picks.items():
            field = f"weapon.{who}" if who else "weapon"
            if who and who not in members:
                return Ruling.forbid(f"{field}: {who} is not {shooter.id} nor a character in it; name the unit or one "
                                     f"of its characters", rule)
            said, wanted = name.strip(), name.strip().lower()
            carriers = [(u, m) for u in ([members[who]] if who else members.values()) for m in u.models
                        if self._named_weapons(state, m, wanted)]
            if not carriers:
                return Ruling.forbid(f"{field}: no model of {who or shooter.id} carries a shooting weapon named "
                                     f"{said!r} (a model fires one of its own weapons)", rule)
            if not any(self._picked_weapon_at(state, m, wanted, geo.group_distance([m.placed], group),
                                              self.fired_moving(u)) for u, m in carriers):
                return Ruling.forbid(f"{field}: no model carrying the {said} can fire it at {target.id} now "
                                     "(beyond its range, or a Heavy or Ordnance weapon after its firer moved)", rule)
        return None

    @implements("published.shooting", "published.weapon-profiles", "core.zero.bs")
    def unarmed_problem(self, state: GameState, shooter: Unit) -> Ruling | None:
        """Refuse the shooting of a unit none of whose models (its joined characters' with them) can fire a weapon at
        all: none carries a shooting weapon (published.weapon-profiles: a shot is a weapon's), or those who do have
        BS 0 (core.zero.bs). Judge round 45: such a unit was offered shots that fired nothing, and then counted as
        having fired (published.assault-after-shooting). None as soon as one model can fire: most units' first.
        Judge round 46: the one place that decides it, a unit all of BS 0 as well (``target_ruling`` refused that one
        before the sight, citing core.zero.bs alone); the weapon clause cited only where a model carries none."""
        unarmed, blind = [], []
        for u in state.combined(shooter.id):
            for m in u.models:
                if any(w.is_shooting for w in self.weapons_of(state, m)):
                    if can_shoot(m.profile.bs):
                        return None
                    blind.append(m.name)
                else:
                    unarmed.append(m.name)
        said = [f"{', '.join(unarmed)} carr{'y' if len(unarmed) > 1 else 'ies'} no shooting weapon"] if unarmed else []
        said += [f"{', '.join(blind)} ha{'ve' if len(blind) > 1 else 's'} BS 0"] if blind else []
        return Ruling.forbid(f"{shooter.id} has no model that can fire a weapon ({'; '.join(said)}): it cannot shoot",
                             "published.shooting", *(("published.weapon-profiles",) if unarmed else ()),
                             *(("core.zero.bs",) if blind else ()))

    def _weapon_at(self, carried: Sequence[Weapon], dist: float, moved: bool) -> tuple[Weapon, int] | None:
        """Return the first weapon that can fire at this range (shots by its type), with its shots; None if none can."""
        for w in carried:
            if dist > w.range + geo.EPSILON:
                continue
            if w.type is WeaponType.RAPID_FIRE:
                shots = self.rapid_fire_shots(moved, dist, w)
            elif w.type is WeaponType.HEAVY or w.type is WeaponType.ORDNANCE:
                shots = 0 if moved else w.shots
            else:
                shots = w.shots
            if shots:
                return w, shots
        return None

    @implements("40k3.char.shooting-dice", "40k4.shoot.separate-dice", "core.zero.s", "core.zero.t")
    @implements("published.attack-sequence")
    def _attack(self, state: GameState, fired: Sequence[tuple[Unit, Model, Weapon, int]], target_id: str,
                rules: tuple[str, ...], nearest: Sequence[float] | None = None, beyond: bool = True) -> _Attack:
        """Work out a shooting attack before the dice (``_Attack``): per batch (same BS and weapon) its shots, its
        hit-and-wound chain and the words of its event; to wound on the majority Toughness of the target.

        ``nearest``: each target model's distance to the nearest model that fires, if ``_shots`` measured it;
        ``beyond``: whether a target model may stand beyond the range of a weapon fired (``_beyond_a_range``).
        """
        groups = state.combined(target_id)
        target_models = list(chain.from_iterable(map(MODELS_OF, groups)))
        toughness = majority(list(map(TOUGHNESS_OF, target_models)))
        batches: list[_Batch] = []
        parts = []  # each batch's models that fire, for the reach of its weapon (published.wound-allocation)
        for (bs, _name, apart), items in _strength_apart(_batches(fired)):
            parts.append(items)
            weapon = items[0][2]
            # one model (a Monstrous Creature's weapon listed twice fires twice: still one model)
            one = len(items) == 1 or all(it[1] is items[0][1] for it in items)
            who = items[0][1].name if one else f"{len(items)} models"
            rule = self.shooting_dice_rule if apart else "published.to-hit-bs"
            rolled: tuple[str, ...] = ()
            if weapon.shots_dice is not None:  # Assault D6 and the like: each model rolls its shots
                rolled = tuple(f"{m.name} ({weapon.name}): shots ({weapon.shots_dice})" for _, m, _, n in items if n)
            need = to_hit_shooting(bs)
            strength = hit_strength(items[0][1].profile.s, weapon.strength_for(items[0][1].profile.s))
            wound_on = to_wound(strength, toughness)
            batches.append(_Batch(
                weapon, rule, sum(map(_SHOTS, items)), rolled,
                Stage(need, f"{who} ({weapon.name}, BS{bs}): to hit ({need}+)", rule),
                Stage(wound_on, f"{who} ({weapon.name}, S{strength} vs T{toughness}): to wound ({wound_on}+)",
                      rule if apart else "published.to-wound"),
                min(weapon.blast, len(target_models)) if weapon.blast else 0,
                (rule, *zero_rules(strength, toughness)),  # a value-0 clause only when one decided
                f"{who} fire{'s' * one}",
                "" if wound_on is not None else f" (S{strength} cannot wound T{toughness})", strength))
        return _Attack(target_id, rules, tuple(batches), tuple(groups), fired, nearest, beyond, tuple(parts))

    @staticmethod
    def _fire(attack: _Attack, dice: Dice) -> tuple[tuple[int, ...], list[Event]]:
        """Roll each batch's shots (if its models roll them), to hit and to wound; return its wounds and events."""
        events: list[Event] = []
        got_each: list[int] = []
        said = attack.said
        for _weapon, rule, shots, rolled, to_hit, wounding, blast, cited, fire, why, _ in attack.batches:
            start = rolls_made(dice)
            if rolled:
                roll = _weapon.shots_dice.roll  # type: ignore[union-attr]  # rolled only with shots dice
                shots = sum([roll(dice, label, rule) for label in rolled])
            if blast:
                hits = dice.pools(shots, to_hit)[0] * blast
                got = dice.pools(hits, wounding)[0]
            else:  # hit then wound: one chance node over the wounds when enumerating
                hits, got = dice.pools(shots, to_hit, wounding)
            key = (fire, _weapon.name, why, shots, hits, got)
            text = said.get(key)
            if text is None:
                text = keep_bounded(said, key, f"{fire} {shots} shot{'s' * (shots != 1)} with {_weapon.name}: "
                             f"{hits} hit{'s' * (hits != 1)}, {got} wound{'s' * (got != 1)}{why}", WORDS_KEPT)
            events.append(Event("shots", text, cited, rolls_since(dice, start)))
            got_each.append(got)
        return tuple(got_each), events

    def _allocation(self, state: GameState, attack: _Attack, got_each: tuple[int, ...]
                    ) -> tuple[list[SavesGroup] | None, dict[ModelRef, tuple[Unit, Model]]]:
        """Return the save groups of an attack's wounds (``save_groups``; None: nothing to allocate) and the target's
        models, worked out once per attack and number of wounds per batch (``attack.allocations``)."""
        if attack.models is None:  # the target's models in the order that takes wounds, looked up once
            if attack.nearest is not None:  # each target model's distance to the nearest firer, measured in _shots
                attack.pool = self._pool_order(state, attack.target_id, (), nearest=attack.nearest)
            else:
                attack.pool = self._pool_order(state, attack.target_id, [m.placed for _, m, _, _ in attack.fired])
            models: dict[ModelRef, tuple[Unit, Model]] = {}
            for u in attack.groups:
                models.update(zip(zip(repeat(u.id), range(len(u.models))), zip(repeat(u), u.models)))
            attack.models = models
            blocking = geo.blocks_sight(state.terrain)
            if attack.beyond or blocking:  # some target model may be out of a weapon's range or sight: measured
                _reach_of_batches(state, attack, blocking)
        known = attack.allocations.get(got_each, NONE_YET)
        if known is NONE_YET:
            wounds = [WoundBatch(got, batch.weapon.ap, strength=batch.strength)
                      for got, batch in zip(got_each, attack.batches)]
            known = keep_bounded(attack.allocations, got_each,
                          save_groups(attack.models, attack.pool, wounds, attack.target_id, attack.reach),
                          ALLOCATIONS_KEPT)
        return known, attack.models

    def _shooting_attack(self, state: GameState, fired: Sequence[tuple[Unit, Model, Weapon, int]],
                         target_id: str, dice: Dice, rules: tuple[str, ...],
                         nearest: Sequence[float] | None = None) -> tuple[list[Unit] | None, list[Event]]:
        """Roll to hit and to wound per batch (same BS and weapon), then allocate and save (``_attack``).

        Return the target's units that took wounds (their slain removed; None if no wound was
        allocated), for the caller to put in its one new state with whatever else the action
        changes (then ``release_orphans``), and the events.
        ``nearest``: each target model's distance to the nearest model that fires, if ``_shots`` measured it.
        """
        attack = self._attack(state, fired, target_id, rules, nearest)
        got_each, events = self._fire(attack, dice)
        taken, more = self._saves(state, attack, got_each, dice)
        events += more
        if taken is None:
            events += _lost_events(attack, got_each, None)
            return None, events
        outright: list[tuple[ModelRef, int, int]] = []
        carry = _carry(attack, got_each, _as_rolled(taken[3]))
        hurt = unsaved_taken(*taken[:3], None, outright, carry)
        wounded, slain = wounded_units(state, hurt)
        events += outright_events(outright, taken[1])
        if slain:
            events.append(casualties(slain, rules))
        events += _lost_events(attack, got_each, taken, hurt, carry)
        return wounded, events

    def _saves(self, state: GameState, attack: _Attack, got_each: tuple[int, ...], dice: Dice
               ) -> tuple[_Taken | None, list[Event]]:
        """Allocate an attack's wounds and roll the saves per group: the groups, the models, the unsaved wounds per
        group, the joined characters' saves made against the unit's wounds carried onto them (``carry_over``) and
        the events (None instead of the first four when no wound was allocated)."""
        if not any(got_each):  # nothing to allocate: no order of the models needed
            return None, []
        if attack.models is not None and (groups := attack.allocations.get(got_each)) is not None:  # known
            models = attack.models
        else:
            groups, models = self._allocation(state, attack, got_each)
        if groups is None:
            return None, []
        events: list[Event] = []
        unsaved: list[int] = []
        rules = attack.rules
        said = attack.said
        for group in groups:
            start = rolls_made(dice)
            saved = roll_saves(group, dice)
            unsaved.append(group[2] - saved)
            key = (group[3], group[2], saved, group[0][1] is None)
            text = said.get(key)
            if text is None:  # saves_event's words
                text = keep_bounded(said, key, saves_event(group, saved, rules, ())[1], WORDS_KEPT)
            events.append(Event("saves", text, rules, rolls_since(dice, start)))
        made: list[int] = []
        if _spills(attack, got_each, groups, models, unsaved):  # the characters' own saves against the unit's excess,
            carry = _carry(attack, got_each, _rolling(attack, dice, made, events))  # rolled now
            if carry is not None:
                unsaved_taken(groups, models, unsaved, None, None, carry)
        return (groups, models, tuple(unsaved), tuple(made)), events

    def picked_out(self, state: GameState, target: Unit) -> bool:
        """Say whether a character who has joined a unit is shot at as a target of his own (none in 3rd edition)."""
        return False

    @implements("40k3.ic.target", "40k4.target.closest", "40k4.target.monstrous")
    def lone_character_picked(self, state: GameState, shooter: Unit, target: Unit) -> tuple[str, ...]:
        """Return the clauses that let ``shooter`` pick out ``target`` when he is a character not in a unit (each
        edition's ``character_target_ruling``), for the events of the attack to cite as its ruling does; nothing for
        a unit, a joined character or a refusal. Judge round 62: a shot or a psychic shooting attack at a lone
        Warboss cited 40k3.ic.target / 40k4.target.closest in its ruling only, its events published.shooting."""
        if target.joined is not None or not target.is_character:
            return ()
        picked = self.character_target_ruling(state, shooter, target)
        return picked.rules if picked is not None and picked.legal else ()

    @implements("40k3.char.shooting-dice", "40k4.shoot.separate-dice", "40k4.shoot.same-target", "published.shooting")
    @implements("published.weapon-profiles")
    def fires_with_ruling(self, state: GameState, members: Sequence[Unit], target: Unit, ruling: Ruling,
                          choice: WeaponChoice = None) -> Ruling:
        """Add to a legal shot's ruling of a unit with characters what its volley does: each character yet to fire
        fires with it at its target (4th edition: 40k4.shoot.same-target; 3rd: a unit fires at one target,
        published.shooting), and one whose BS and weapon fired no trooper's shares rolls his dice apart
        (40k3.char.shooting-dice, 40k4.shoot.separate-dice); one that can fire no weapon at it is said so, as the
        volley's note. Judge round 66: the ruling cited line of sight only. Judge round 67: the dice were read from
        the weapons carried, the volley's from the weapon each fires (a Captain with a boltgun and a plasma pistol,
        firing the boltgun, was told he rolled apart): now both read the volley's choice (``_shots``), made model by
        model, so the ruling asks it of his models and of the troopers that carry a weapon he fires at his BS alone
        (``legal_actions``' rulings measure no more of the table than a Captain's own gaps, most often)."""
        host, aimed = members[0], self.aimed_at(state, target)
        firing = [u for u in members[1:] if u.is_character and not u.has(Status.SHOT)]
        if not firing:
            return ruling
        target_id, moved = target.joined or target.id, frozenset(u.id for u in members if self.fired_moving(u))
        pick = _weapon_pick(members, choice)
        # a model's choice is its own (its weapons, its range, what its member named): his models' alone, then the
        # troopers' that carry a weapon of his BS and name, the only ones whose fire decides his dice
        fired, said, _, _ = self._shots(state, [(u, m) for u in firing for m in u.models], target_id, moved, pick)
        keys = {(m.profile.bs, w.name.lower()) for _, m, w, _ in fired}  # a carried name finds its weapon by case
        rivals = [(u, m) for u in members if not u.is_character for m in u.models  # aside (``find_weapon``)
                  if any((m.profile.bs, name.lower()) in keys for name in m.weapons)]
        shared = {(m.profile.bs, w.name) for _, m, w, _ in self._shots(state, rivals, target_id, moved, pick)[0]} \
            if rivals else set()
        rules: tuple[str, ...] = ("published.shooting", self.same_target_rule)
        notes: list[str] = []
        for u in firing:
            own = [item for item in fired if item[0] is u]
            if not own:  # the volley's note on each of his models: why it fires nothing
                notes += [n for n in said for m in u.models if n.startswith((f"{m.name} ", f"{m.name},"))]
                continue
            notes.append(f"{u.id} fires with {host.id} at {aimed}, the same target [{self.same_target_rule}]")
            if apart := [item for item in own if (item[1].profile.bs, item[2].name) not in shared]:
                rules += (self.shooting_dice_rule,)
                notes.append(f"{u.id}'s dice are rolled apart from {host.id}'s (BS{apart[0][1].profile.bs}, "
                             f"{', '.join(dict.fromkeys(w.name for _, _, w, _ in apart))}) [{self.shooting_dice_rule}]")
        return Ruling(True, tuple(dict.fromkeys((*ruling.rules, *rules))), ruling.reason, (*ruling.notes, *notes))

    def aimed_at(self, state: GameState, target: Unit) -> str:
        """Return the unit a shot at ``target`` strikes: a joined character's unit, unless he is picked out."""
        return target.joined if target.joined is not None and not self.picked_out(state, target) else target.id

    def _apart(self, state: GameState, target: Unit, attack: Callable[[GameState], Resolution]) -> Resolution:
        """Make ``attack`` on a joined character picked out as a separate target: it strikes him alone, as if he
        stood on his own, and he is part of his unit again after it (if both still stand)."""
        host = target.joined
        after, events = attack(state.replace_unit(evolve(target, joined=None)))
        shot = after.unit(target.id)
        if host is not None and shot.alive and after.unit(host).alive:
            after = after.replace_unit(evolve(shot, joined=host))
        return after, [Event("target", f"{target.id} is picked out apart from {host}: the attack strikes him alone",
                             self.picked_out_rules), *events]

    def resolve_shoot(self, state: GameState, action: Shoot, dice: Dice) -> Resolution:
        """Fire the unit with its characters (at the unit's target), remove casualties, then test morale.

        What does not depend on the dice is worked out once per state and action (``_volley``), and each
        distinct result of the wounds and saves once per state (``_Volley.outcome``), so applying the same
        shot again (a search) or an enumeration's every branch pays only for the dice.
        """
        key: Hashable = (_VOLLEY, self, action.unit, action.target, _choice_key(action.weapon))
        kept: list[_Volley | None] | None = state.known(key)
        if kept and (known := kept[0]) is not None:  # a state shot from again (never one whose target is picked out:
            plan, keeping = known, True  # that volley is kept on the state with him apart, ``_apart``)
        else:
            target = state.unit(action.target)
            if target.joined is not None and self.picked_out(state, target):  # a target of his own: he alone is shot
                return self._apart(state, target, lambda alone: self.resolve_shoot(alone, action, dice))
            plan, keeping = self._volley_plan(state, action, target)
        attack = plan.attack
        got_each, events = self._fire(attack, dice)
        taken, more = self._saves(state, attack, got_each, dice)
        key = None if taken is None else (got_each, taken[2], taken[3])
        if key is None and attack.reach_short() and any(got_each):  # wounds that found no model to take them: told
            key = (got_each, None)
        outcomes = plan.outcomes
        outcome = outcomes.get(key)
        if outcome is None:
            outcome = self._volley_outcome(state, plan, got_each, taken, keeping)
            if keeping:
                keep_bounded(outcomes, key, outcome, VOLLEY_OUTCOMES_KEPT)
        after, told, check = outcome
        events = [*plan.opening, *events, *more, *told]
        if type(check) is _MoraleDue:  # the usual check, as _casualties_tested takes it
            after, more = self._morale_check(after, check.unit_id, dice, check.why, "published.morale-casualties")
        elif check is None:  # nothing called for
            more = []
        else:
            after, more = self._casualties_tested(after, state, attack.target_id, dice, check)
        return after, events + more

    def _volley_plan(self, state: GameState, action: Shoot, target: Unit) -> tuple[_Volley, bool]:
        """Return the volley's plan (``_volley``) and whether it is kept on the state: a first volley from a state
        keeps nothing it worked out alive (only that it was shot from); the second keeps its plan from then on."""
        kept: list[_Volley | None] = state.remember((_VOLLEY, self, action.unit, target.id,
                                                     _choice_key(action.weapon)), list)
        if not kept:  # a first volley from this state: its plan and results die with it
            kept.append(None)
            return self._volley(state, action.unit, target, action.weapon), False
        plan = kept[0]
        if plan is None:  # the second: kept from now on, with its results
            plan = kept[0] = self._volley(state, action.unit, target, action.weapon)
        return plan, True

    def _volley(self, state: GameState, unit_id: str, target: Unit, choice: WeaponChoice = None) -> _Volley:
        """Work out a volley before the dice (``_Volley``): who fires what, the attack, the opening events.
        ``choice``: the weapon its player named (``Shoot.weapon``), for the whole unit or per member."""
        shooter = state.unit(unit_id)
        members = state.combined(shooter.id)
        target_id = target.joined or target.id
        moved = frozenset(u.id for u in members if self.fired_moving(u))
        shooters: list[tuple[Unit, Model]] = []  # each model with its unit (a character that fired already aside)
        for u in members:
            if not (u.is_character and u.has(Status.SHOT)):
                shooters += zip(repeat(u), u.models)
        fired, notes, nearest, beyond = self._shots(state, shooters, target_id, moved, _weapon_pick(members, choice))
        rules: tuple[str, ...] = tuple(dict.fromkeys(("published.shooting", self.same_target_rule))) \
            if len(members) > 1 else ("published.shooting",)
        if choice is not None:  # the weapon its player named: the rule that lets each model fire one of its own
            rules = (*rules, "published.weapon-profiles")
        rules = (*rules, *self.lone_character_picked(state, shooter, target))
        events = [Event("shoot", f"{shooter.id} shoots at {target_id}"
                        + (f" (with {', '.join(u.id for u in members[1:])}, at the same target)" if len(members) > 1
                           else ""), rules)]
        events += map(_note_event, notes)
        if len(fired) > len(set(map(id, map(MODEL_OF, fired)))):  # a model fires several weapons
            events += _several_weapons(fired)
        attack = self._attack(state, fired, target_id, ("published.wound-allocation",), nearest, beyond)
        barred = frozenset(u.id for u, _, w, _ in fired if self.fire_bars_assault(u, w, u.id in moved))
        events += self._fired_on_the_move(members, fired, barred)
        return _Volley(shooter.id, tuple(members), tuple(events), attack, {}, {}, barred)

    def _volley_outcome(self, state: GameState, plan: _Volley, got_each: tuple[int, ...], taken: _Taken | None,
                        keeping: bool = False) -> tuple[GameState, tuple[Event, ...], _Check]:
        """Return the state after a volley's wounds (the slain removed, the firers marked as having shot, the target
        remembered: 40k4.shoot.same-target), its casualties event and the wounds lost beyond the weapons' reach
        (``_lost_events``), and what the casualties call for (``_casualty_check``).

        ``keeping``: the plan is kept (a state shot from again): the state is shared by every result whose wounds
        left each model as another result's did (``_Volley.afters``)."""
        attack = plan.attack
        hurt: dict[ModelRef, int] | None = None
        outright: list[tuple[ModelRef, int, int]] = []
        if taken is not None:
            carry = _carry(attack, got_each, _as_rolled(taken[3]))
            hurt = unsaved_taken(*taken[:3], None, outright, carry)
            told = _lost_events(attack, got_each, taken, hurt, carry)
        else:
            told = _lost_events(attack, got_each, None)
        if not keeping:
            after, slain, check = self._volley_after(state, plan, hurt)
        else:  # the same wounds on the same models (None: none allocated), the same state
            key = None if hurt is None else tuple(hurt.items())
            shared = plan.afters.get(key)
            if shared is None:
                after, slain, check = self._volley_after(state, plan, hurt)
                shared = keep_bounded(plan.afters, key, (after, check, slain), VOLLEY_OUTCOMES_KEPT)
            after, check, slain = shared
        if slain:
            told = (casualties(slain, attack.rules), *told)
        if outright:
            assert taken is not None  # a model killed outright took a wound
            told = (*outright_events(outright, taken[1]), *told)
        return after, told, check

    def _volley_after(self, state: GameState, plan: _Volley, hurt: dict[ModelRef, int] | None
                      ) -> tuple[GameState, list[str], _Check]:
        """Return the state after a volley's unsaved wounds (``hurt``; None: no wound allocated), the slain models'
        names and what the casualties call for (``_volley_outcome``)."""
        target_id = plan.attack.target_id
        wounded: list[Unit] | None = None
        slain: list[str] = []
        if hurt is not None:
            wounded, slain = wounded_units(state, hurt)
        changed = {u.id: u for u in wounded} if wounded else {}
        barred = plan.barred
        for u in plan.members:
            u = changed.get(u.id, u)
            # Unit.with_status(Status.SHOT), and the bar on assaulting when it fired such a weapon
            changed[u.id] = evolve(u, status=u.status | (_SHOT_NO_ASSAULT if u.id in barred else _SHOT))
        shooter_id = plan.shooter_id
        if state.target_fired_at(shooter_id) is not None:
            after = evolve(state, units=tuple([changed.get(u.id, u) for u in state.units]))
        else:
            after = evolve(state, units=tuple([changed.get(u.id, u) for u in state.units]),
                           fired_at=(*state.fired_at, (shooter_id, target_id)),
                           joined_when_shot=shot_with(state, target_id))
        if wounded is not None:  # as apply_wounds does
            after = self.shooting_losses_counted(release_orphans(after), state, target_id)
        return after, slain, self._casualty_check(after, state, target_id)

    def _carry_rule(self, state: GameState, target_id: str) -> tuple[str, ...]:
        return self.carry_over_rules if len(state.combined(target_id)) > 1 else ()

    @implements("published.morale-casualties")
    def _after_casualties(self, state: GameState, before: GameState, target_id: str, dice: Dice) -> Resolution:
        """Test Last Man Standing, and a Morale check after losing 25% of the models to one attack (both, 3rd ed.)."""
        return self._casualties_tested(state, before, target_id, dice, self._casualty_check(state, before, target_id))

    def _casualty_check(self, state: GameState, before: GameState, target_id: str) -> _Check:
        """Say what ``_after_casualties`` calls for, before any die: Last Man Standing tests (``_LAST_MAN``, with
        ``quarter_check``'s answer after them), else ``quarter_check``'s answer."""
        unit_now = state.unit
        for u in before.units:
            if not u.joined and last_models(before, u.id, unit_now):
                return _LAST_MAN
        return self.quarter_check(state, before, target_id)

    @implements("published.morale-casualties")
    def quarter_check(self, state: GameState, before: GameState, target_id: str) -> _Check:
        """Say what a shooting attack's casualties call for once Last Man Standing is settled: 3rd edition tests
        after each shooting attack (``_quarter_check``); 4th edition counts them over the phase
        (``shooting_losses_counted``, ``shooting_phase_ends``)."""
        return self._quarter_check(state, before, target_id)

    def shooting_losses_counted(self, state: GameState, before: GameState, target_id: str) -> GameState:
        """Return the state after a shooting attack on ``target_id`` (``before``: the state it was made from) with
        what the edition keeps of its losses for later (3rd edition: nothing, the check follows the attack)."""
        return state

    def shooting_phase_ends(self, state: GameState, dice: Dice) -> Resolution:
        """Take what the end of the Shooting phase calls for (3rd edition: nothing, each attack was tested)."""
        return state, []

    @staticmethod
    def _destroyed(state: GameState, before: GameState, target_id: str) -> Event | None:
        """Return the event of a target destroyed by a shooting attack (every model of it and its characters)."""
        if any(state.unit(u.id).models for u in before.combined(target_id)):
            return None
        return _destroyed_event(target_id)

    @staticmethod
    @implements("published.morale-casualties")
    def _quarter_check(state: GameState, before: GameState, target_id: str) -> _Check:
        """Say whether the target lost 25% of its models: its Morale check (the unit and why), its destruction (the
        event), the check a pinned unit is spared (the event), or nothing (None).

        Published rule (4th ed., Taking Morale tests, A) Shooting casualties): "A unit that is already falling back,
        is pinned or is locked in close combat does not have to take this test" (falling back: ``_morale_facts``).
        """
        was, alive_id = 0, None
        for u in before.combined(target_id):
            was += len(u.models)
            if alive_id is None and state.unit(u.id).models:
                alive_id = u.id
        if alive_id is None:
            return _destroyed_event(target_id)
        now = sum([len(u.models) for u in state.combined(alive_id)])
        if was - now > 0 and (was - now) >= MORALE_FRACTION * was:
            if state.unit(alive_id).has(Status.PINNED):
                return Event("morale", f"{alive_id} lost {was - now} of {was} models but is pinned: a pinned unit "
                             "takes no Morale check for shooting casualties", ("published.morale-casualties",
                                                                             "published.pinning"))
            return _MoraleDue(alive_id, f"lost {was - now} of {was} models")
        return None

    def _casualties_tested(self, state: GameState, before: GameState, target_id: str, dice: Dice,
                           check: _Check) -> Resolution:
        """Carry out what ``_casualty_check`` found the casualties call for."""
        if check is _LAST_MAN:
            state, events = self._last_man(state, before, dice, set())
            check = self.quarter_check(state, before, target_id)
            if events:
                return self._quarter_after_last_man(state, target_id, dice, events, check)
        if isinstance(check, _MoraleDue):
            return self._morale_check(state, check.unit_id, dice, check.why, "published.morale-casualties")
        return state, [] if check is None else [check]  # type: ignore[list-item]  # an Event: the unit destroyed

    @implements("published.last-man-standing", "published.morale-casualties")
    def _quarter_after_last_man(self, state: GameState, target_id: str, dice: Dice, events: list[Event],
                                check: _Check) -> Resolution:
        """Take the casualties' Morale check as well as Last Man Standing (published.last-man-standing's decision):
        the last model of a unit that lost 25% of its models to the attack, having passed its Last Man Standing
        test, takes that check too (one that failed falls back and takes none: ``_morale_facts``). A character left
        alone, spared Last Man Standing (``last_man_spared``: a ``last_man`` event), takes neither, as before; a
        ``morale_spared`` event says so (3rd edition: 40k3.ic.no-last-man, published.morale-casualties) when the
        attack destroyed his unit around him, or (judge round 50) slew the character who had joined him."""
        if check is None or isinstance(check, bool):
            return state, events
        spared = [dict(e.data).get("unit") for e in events if e.kind == "last_man"]
        if spared:
            if isinstance(check, _MoraleDue) and not state.unit(target_id).alive:  # the unit shot away around them
                who = ", ".join(map(str, spared))
                own = "is a unit of his own" if len(spared) == 1 else "are units of their own"
                return state, [*events, Event(
                    "morale_spared", f"{who} {own} now that {target_id} is destroyed: no Morale check for its "
                    "shooting casualties", ("published.morale-casualties", self.no_last_man_rule))]
            if isinstance(check, _MoraleDue) and check.unit_id in spared:  # its last model a character spared
                return state, [*events, Event(
                    "morale_spared", f"{check.unit_id} {check.why}, but he is its last model, a character spared Last "
                    "Man Standing: no Morale check for its shooting casualties either",
                    ("published.morale-casualties", "published.last-man-standing", self.no_last_man_rule))]
            return state, events
        if isinstance(check, _MoraleDue):
            state, more = self._morale_check(state, check.unit_id, dice, check.why, "published.morale-casualties")
            return state, events + more
        return state, [*events, check]  # a pinned unit spared the check: said


@implements("published.wound-allocation")
def _in_line_of_fire(state: GameState, pool: list[ModelRef], models: dict[ModelRef, tuple[Unit, Model]],
                     fired: Sequence[tuple[Unit, Model, Weapon, int]]) -> list[ModelRef]:
    """Keep, in their order, the target's models that some firing model can see: 4th ed. lets the owning player remove
    casualties "providing they are within the line of fire", so a model hidden from every firer takes no wound."""
    firers = [m.placed for _, m, _, _ in fired]
    return [ref for ref in pool if geo.unit_line_of_sight(firers, [models[ref][1].placed], state.terrain)]


@implements("published.wound-allocation")
def _beyond_a_range(table: geo.GapTable, fired: Sequence[tuple[Unit, Model, Weapon, int]], kept: Sequence[int],
                    nearest: Sequence[float]) -> bool:
    """Say cheaply whether a target model may stand beyond the range of a weapon fired at it: not when each target
    model is within the shortest weapon's range of its nearest firer (``nearest``, measured by ``_shots``), nor,
    with weapons of several ranges, within each range of its nearest firer with a weapon of that range (``table``'s
    gaps, ``kept``: the table's rows of the models in ``fired``).  One range (the usual volley): one comparison."""
    ranges = [w.range for _, _, w, _ in fired]
    shortest = min(ranges, default=math.inf)
    if max(nearest, default=0.0) > shortest + geo.EPSILON:
        return True
    if all(map(shortest.__eq__, ranges)):
        return False
    for reach in set(ranges):  # weapons of several ranges: each weapon's wounds go only to models it reaches
        rows = [row for row, r in zip(kept, ranges) if r == reach]
        if max(table.least_to(rows)) > reach + geo.EPSILON:
            return True
    return False


@implements("published.wound-allocation")
def _reach_of_batches(state: GameState, attack: _Attack, blocking: bool) -> None:
    """Keep in ``attack.pool`` the target's models some weapon fired reaches, and in ``attack.reach`` each batch's
    own (when they differ): 4th ed., Removing casualties, lets the owning player remove models "providing they are
    within the line of fire and range of the attacker's weaponry", read weapon by weapon, so a batch's wounds go only
    to models within its weapon's range of one of its models (that, where terrain blocks sight, sees it)."""
    pool, models = attack.pool, attack.models
    assert models is not None
    if attack.beyond:
        reaches = [_within_fire(state, pool, models, part, blocking) for part in attack.parts]
    else:
        reaches = [_in_line_of_fire(state, pool, models, part) for part in attack.parts]
    first = reaches[0]
    if all(map(first.__eq__, reaches)):
        attack.pool = first
    else:
        union = set(chain.from_iterable(reaches))
        attack.pool = [ref for ref in pool if ref in union]
        attack.reach = tuple(map(frozenset, reaches))
    if len(attack.pool) < len(pool):
        kept = set(attack.pool)
        attack.out_of_reach = tuple([models[ref][1].name for ref in pool if ref not in kept])


@implements("published.wound-allocation")
def _within_fire(state: GameState, pool: list[ModelRef], models: dict[ModelRef, tuple[Unit, Model]],
                 fired: Sequence[tuple[Unit, Model, Weapon, int]], blocking: bool) -> list[ModelRef]:
    """Keep, in their order, the target's models within range of a firing model's weapon (and, where terrain blocks
    sight, in that model's sight): 4th ed. lets the owning player remove casualties "providing they are within the
    line of fire and range of the attacker's weaponry", so a model beyond the reach of every weapon fired takes no
    wound."""
    terrain = state.terrain
    kept = []
    for ref in pool:
        placed = models[ref][1].placed
        if any(geo.distance(m.placed, placed) <= w.range + geo.EPSILON
               and (not blocking or geo.line_of_sight(m.placed, placed, terrain)) for _, m, w, _ in fired):
            kept.append(ref)
    return kept


@implements("published.wound-allocation")
def _lost_events(attack: _Attack, got_each: tuple[int, ...], taken: _Taken | None,
                 hurt: dict[ModelRef, int] | None = None, carry: Carry | None = None) -> tuple[Event, ...]:
    """Say how many of an attack's wounds are lost (``beyond_reach``): those no living model in reach took (no save
    rolled) or the reachable models' Wounds could not hold: the owning player may remove only models "within the
    line of fire and range of the attacker's weaponry" (4th ed., Removing casualties), so the rest of the unit
    stands.  A joined character whom a wound's weapon reaches may take it (``carry_over``).  Nothing
    when every weapon reaches every model of the target (checked first: the usual volley pays nothing more), or
    none is lost."""
    if not attack.reach_short():
        return ()
    lost = sum(got_each)
    if taken is not None:
        groups, models, unsaved, made = taken
        if carry is not None or any(g[5] for g in groups):  # a wound carried, or Instant Death: one unsaved wound
            if carry is not None:  # the character's saves read again from the first (judge round 34): the caller's
                carry = replace(carry, saves=_as_rolled(made))  # pass through them has used its reading up
            left_over: list[int] = []  # each group's unsaved wounds no model took; may take all a model's Wounds left
            unsaved_taken(groups, models, unsaved, left_over, None, carry)
            lost -= sum(g[2] for g in groups) - sum(left_over)  # all but the unsaved wounds no model took
        else:
            lost -= sum(g[2] for g in groups) - sum(unsaved) + sum((hurt or {}).values())  # saved, and taken
    if lost <= 0:
        return ()
    target = attack.target_id
    out, s = attack.out_of_reach, "s" * (lost != 1)
    beyond = ", ".join(out) if len(out) <= 3 else f"{len(out)} of its models"
    if attack.reach is None:
        why = (f"{beyond} {'stands' if len(out) == 1 else 'stand'} beyond the range or line of fire of every weapon "
               "fired, and the models within it could take no more")
    else:
        why = ("each weapon's wounds go only to models within its own range and line of fire, and those could take no"
               " more" + (f" ({beyond} beyond every weapon's)" if out else ""))
    return (Event("beyond_reach", f"{lost} wound{s} on {target} lost: {why}",
                  ("published.wound-allocation",), data=(("unit", target), ("lost", lost))),)


@implements("published.wound-allocation")
def carry_to(attack: _Attack) -> tuple[ModelRef, ...]:
    """Return the models of the characters joined to the target that some weapon fired reaches, in order: they take
    the unit's unsaved wounds its own models could not (a joined character "is part of that unit", seed 001, and the
    owning player removes "one model for each wound inflicted" from it, 4th ed., Removing casualties; 3rd edition
    alike; session 32).  Only close combat keeps them apart (40k4.cc.no-carry-over: a separate unit there)."""
    models = attack.models
    if models is None or len(attack.groups) == 1:
        return ()
    return tuple([ref for ref in attack.pool if models[ref][0].character is not None])


#: A volley's allocated wounds and saves (``ShootingRules._saves``): the save groups, the target's models, each
#: group's unsaved wounds, and the saves each joined character made against wounds carried onto him, in order.
_Taken = tuple[list[SavesGroup], dict[ModelRef, tuple[Unit, Model]], tuple[int, ...], tuple[int, ...]]


@implements("published.wound-allocation")
def _carry(attack: _Attack, got_each: tuple[int, ...], saves: CarrySaves) -> Carry | None:
    """Return what the unit's excess needs to fall on its joined characters (``Carry``), None when none joined it
    in reach: each wound keeps its weapon (Strength, AP, and the models it reaches: ``attack.reach``)."""
    to = carry_to(attack)
    if not to or attack.models is None:
        return None
    batches = [WoundBatch(got, b.weapon.ap, strength=b.strength) for got, b in zip(got_each, attack.batches)]
    wounds = attack.carried.get(got_each)
    if wounds is None:
        wounds = []
        save_groups(attack.models, attack.pool, batches, attack.target_id, attack.reach, wounds)
        keep_bounded(attack.carried, got_each, wounds, ALLOCATIONS_KEPT)
    reach = attack.reach

    def reaches(b: int, ref: ModelRef) -> bool:
        return reach is None or ref in reach[b]  # carry_to: every character some weapon reaches
    return Carry(to, batches, wounds, reaches, saves, attack.target_id)


def _spills(attack: _Attack, got_each: tuple[int, ...], groups: Sequence[SavesGroup],
            models: dict[ModelRef, tuple[Unit, Model]], unsaved: list[int]) -> bool:
    """Say whether some unsaved wounds of the unit's own save groups find no model of the unit to take them, with a
    joined character in reach to carry them onto (``_carry``): known once per result of the wounds and saves, so that
    a volley whose unit takes every unsaved wound (the usual one) works out no carry at all."""
    key = (got_each, tuple(unsaved))
    spills = attack.spills.get(key)
    if spills is None:
        if not carry_to(attack):
            return keep_bounded(attack.spills, key, False, ALLOCATIONS_KEPT)
        spare: list[int] = []
        unsaved_taken(groups, models, unsaved, spare)
        spills = keep_bounded(attack.spills, key,
                              any(left for group, left in zip(groups, spare) if group[0][0] is None), ALLOCATIONS_KEPT)
    return spills


def _rolling(attack: _Attack, dice: Dice, made: list[int], events: list[Event]) -> CarrySaves:
    """Roll a character's saves against wounds carried onto him (published.saves), keeping each count in ``made``
    and saying it."""
    def roll(ref: ModelRef, n: int, save: int, words: str) -> int:
        start = rolls_made(dice)
        saved = dice.pool(n, save, f"{attack.target_id}: saves ({save}+) for {words}", "published.saves")
        made.append(saved)
        events.append(Event("saves", f"{words}: {n} wound{'s' * (n != 1)} ({save}+), {saved} saved, {n - saved} "
                            "unsaved", (*attack.rules, "published.saves"), rolls_since(dice, start)))
        return saved
    return roll


def _as_rolled(made: tuple[int, ...]) -> CarrySaves:
    """Read a character's saves against carried wounds again, as ``_rolling`` rolled them (the same order)."""
    counts = iter(made)
    return lambda ref, n, save, words: next(counts)


@implements("published.monstrous-creatures")
def _several_weapons(fired: Sequence[tuple[Unit, Model, Weapon, int]]) -> list[Event]:
    """Say which models fire more than one weapon, and by what rule (4th edition Monstrous Creatures)."""
    arms: dict[int, tuple[Model, list[str]]] = {}
    for _, model, weapon, _ in fired:
        arms.setdefault(id(model), (model, []))[1].append(weapon.name)
    return [Event("weapons", f"{model.name} fires {len(names)} weapons ({', '.join(names)}): a Monstrous Creature "
                  "fires up to two weapons a turn, at the one target", ("published.monstrous-creatures",))
            for model, names in arms.values() if len(names) > 1]


def _destroyed_event(target_id: str) -> Event:
    """Say that a shooting attack destroyed its target: both editions' casualty checks end so."""
    return Event("destroyed", f"{target_id} is destroyed", ("core.zero.w",))


_WEAPON = itemgetter(2)
_SHOTS = itemgetter(3)
_BS = attrgetter("profile.bs")
_NAME = attrgetter("name")
_CHARACTER = attrgetter("character")


def _strength_apart(batches: dict[tuple[int, str, bool], list[tuple[Unit, Model, Weapon, int]]]
                    ) -> Iterator[tuple[tuple[int, str, bool], list[tuple[Unit, Model, Weapon, int]]]]:
    """Yield the batches, a batch's models of Strength 0 rolling apart from the others: their hits cannot wound
    (core.zero.s, ``charts.hit_strength``), whatever the weapon's Strength."""
    for key, items in batches.items():
        if all(it[1].profile.s > 0 for it in items):  # the usual batch
            yield key, items
            continue
        strong = [it for it in items if it[1].profile.s > 0]
        if strong:
            yield key, strong
        yield key, [it for it in items if it[1].profile.s <= 0]


def _batches(fired: Sequence[tuple[Unit, Model, Weapon, int]]
             ) -> dict[tuple[int, str, bool], list[tuple[Unit, Model, Weapon, int]]]:
    """Group the models that fire into batches that roll together: the same BS and weapon.

    A character rolls apart (the last of the key True) only if no trooper of the unit has its
    BS and weapon; otherwise it rolls with them (40k3.char.shooting-dice).
    """
    keys = set(zip(map(_BS, map(MODEL_OF, fired)), map(_NAME, map(_WEAPON, fired)), map(_CHARACTER, map(UNIT_OF, fired))))
    if len(keys) == 1:  # one BS and weapon throughout (the usual unit): one batch
        bs, name, character = keys.pop()
        if character is None:
            return {(bs, name, False): list(fired)}
    elif not any(character for _, _, character in keys):  # troopers only: batches by BS and weapon, in order
        batches: dict[tuple[int, str, bool], list[tuple[Unit, Model, Weapon, int]]] = {}
        for item in fired:
            batches.setdefault((item[1].profile.bs, item[2].name, False), []).append(item)
        return batches
    batches = {}  # characters fire too: each joins the troopers' batch of its BS and weapon, if there is one
    trooper_keys = {(m.profile.bs, w.name) for u, m, w, _ in fired if not u.is_character}
    for item in fired:
        u, m, w, _ = item
        apart = u.is_character and (m.profile.bs, w.name) not in trooper_keys
        batches.setdefault((m.profile.bs, w.name, apart), []).append(item)
    return batches


def shot_with(state: GameState, target_id: str) -> tuple[tuple[str, str], ...]:
    """Return ``state.joined_when_shot`` with the characters joined to ``target_id`` now added: the unit shot at is
    the unit with them (published.assault-after-shooting), and a volley that destroys it leaves them alone."""
    host = state.combined(target_id)
    if len(host) == 1 or host[0].id != target_id:  # a character picked out is shot at alone
        return state.joined_when_shot
    return (*state.joined_when_shot, *((u.id, host[0].id) for u in host[1:]
                                       if (u.id, host[0].id) not in state.joined_when_shot))
