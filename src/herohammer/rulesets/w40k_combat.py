"""Warhammer 40,000 (3rd/4th edition) shooting, psychic powers, assaults, close combat and morale.

A mixin of ``rule_<do>`` / ``resolve_<do>`` methods that ``Warhammer40k3`` inherits;
4th edition changes it only through the small hooks marked below.  Every roll goes
through ``Dice`` with its purpose and rule id, so the same code plays a game and,
under ``enumerate_outcomes``, gives the exact odds of a whole action.

Decisions the seeds leave open (the published rules where they give them):

- Shooting: each model fires one weapon (the first listed that can fire: in range, in
  sight, not Heavy after moving).  Models with the same BS and weapon roll together;
  a character whose BS or weapon differs rolls apart (40k3.char.shooting-dice,
  40k4.shoot.separate-dice).  To wound uses the majority Toughness of the target (the lowest with none).
- Wound allocation (shooting and close combat alike): wounds are allocated one per
  model before any model takes a second, in order - the unit's own models closest
  to the attackers first, joined characters last - and saves are rolled as one pool
  per group of models with the same save.  A joined character's wounds are always its
  own group: unsaved wounds on the unit never carry over onto it (40k4.cc.no-carry-over,
  applied to shooting too; within a group, unsaved wounds slay whole models in order and
  any excess is lost).
- Blast: a hit covers ``blast`` models of the target (at most the models it has).
- Morale: 25% casualties in one shooting attack, losing a close combat, or (for a unit
  reduced to one model) Last Man Standing are Leadership tests on the unit's Leadership
  (``leadership_of``: the character's by each edition's rule); failing means falling
  back 2D6" (3D6" for cavalry, bikes and jump infantry) straight away from the nearest
  enemy, half the roll when that way enters or leaves difficult terrain.  A pinned unit
  takes no check for shooting casualties; a falling back unit regroups only in coherency.
  4th edition subtracts the losing margin from a close combat Morale check;
  3rd does not.  4th edition: a unit that fails its close combat Morale check meets the
  victor's Sweeping Advance (Initiative + D6 each: caught and destroyed with its characters,
  or it breaks off and falls back), and each unit the result leaves with no enemy in base
  contact may consolidate D6" in that Assault phase (``leaves_combat``/``after_combat_result``,
  published.sweeping-advance, published.consolidation); 3rd edition falls back only.
- Assault moves each model straight to base contact with the nearest enemy model it
  can reach, sliding round that model if the spot is taken.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from operator import add, attrgetter, itemgetter, lt
from dataclasses import dataclass
from functools import partial
from itertools import accumulate, chain, compress, filterfalse, repeat
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar, Union

from .. import geometry as geo
from .. import movement, straight_moves
from ..actions import Allocate, Assault, Fight, Manifest, Regroup, Shoot, WeaponChoice
from ..catalogue import implements
from ..charts import (best_save, can_shoot, close_combat_attacks, is_casualty, kills_outright, to_hit_melee,
                      to_hit_shooting, to_wound)
from ..checks import LeadershipTestKind, leadership_test
from ..dice import Dice, RollRecord, Split, Stage
from ..errors import HerohammerError
from ..powers import Power, PowerEffect, find_power, known_powers
from ..psychic import PsychicResult
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import CharacterKind, Model, Status, Unit, UnitType
from ..values import evolve, evolve_each
from ..weapons import BARE_HANDS, Weapon, WeaponType, bundled_weapons, find_weapon
from .base import LeadershipRuling, Resolution, Ruleset, places_apart, rule_key, rule_keys, with_its_unit
from .engagement import Contacts, Engagement, touching as _touching

ASSAULT_INCHES = 6.0
REGROUP_INCHES = 6.0  # no enemy this close for a Regroup test (published rule)
CAVALRY_ASSAULT_INCHES = 12.0
#: Types that fall back 3D6" instead of 2D6" (published fall back rule).
FAST_TYPES = frozenset({UnitType.CAVALRY, UnitType.BIKE, UnitType.JUMP_INFANTRY})
#: Types difficult terrain does not slow (4th ed. rulebook, Bikes: "Bikes are not slowed down by difficult terrain";
#: Jump Infantry: "Jump infantry fall back 3D6", as they will always use their packs. They may, of course, move over
#: any obstructions when falling back"): the 4th edition's unslowed types in moves and fall backs
#: (``Warhammer40k4.unslowed_types``, read by ``terrain_unslowed`` and ``_fall_back_halved``, published.difficult-terrain).
UNSLOWED_TYPES = frozenset({UnitType.BIKE, UnitType.JUMP_INFANTRY})
#: Types that assault 12" in 3rd edition (3rd ed. rulebook: cavalry, bikes and jump infantry).
ASSAULT_12_TYPES_3RD = FAST_TYPES
MORALE_FRACTION = 0.25
#: How many later Initiative steps' attacks a state fought from again remembers (``_FightSetup.later``).
LATER_GATHERS_KEPT = 256
#: How many strikes (a state and its pools) a state fought from again remembers (``_FightSetup.strikes``), and how
#: many outcomes of its dice each strike remembers (``_StrikePlan.outcomes``).
STRIKES_KEPT = 256
OUTCOMES_KEPT = 64
#: How many dice-free pieces of a combat result of each kind (``_Kept``) a state fought from again remembers.
RESULTS_KEPT = 256
NEAR_CONTACT_INCHES = 2.0

ModelRef = tuple[str, int]  # (unit id, model index)
R = TypeVar("R")
_WOUNDS_LEFT = attrgetter("wounds_left")
_WOUNDS = attrgetter("wounds")
_X, _Y = itemgetter(0), itemgetter(1)
_AT = attrgetter("at")
_REACH = attrgetter("base.reach_inches")
_INDEX = itemgetter(1)  # a ModelRef's model index
SaveGroup = tuple[str | None, int | None]
#: A strike's saves as one split of the wound chain (``_save_split``): the split, its groups in order, the models
#: that may take wounds (in order) and each one's group (one key for all when there is one group).
SaveSplit = tuple[Split, tuple[SaveGroup, ...], list[ModelRef], list[SaveGroup]]
#: A unit falling back is no longer locked in (nor engaged by) a close combat (``Unit.with_status`` in one step).
_FALLING_BACK = frozenset({Status.FALLING_BACK})
_FALLING_BACK_MOVED = frozenset({Status.FALLING_BACK, Status.MOVED})
_FALL_BACK_RULES = ("published.fall-back",)
#: Terrain a fall back moving into, out of or through has its distance halved (dangerous terrain is difficult too).
_DIFFICULT_KINDS = ("difficult", "dangerous")
_FOUGHT = frozenset({Status.FOUGHT})
_FOUGHT_UNIT = "fought"  # the key of a unit's value once its combat is fought (``_fought_unit``)
_SLAIN_REMOVED = "slain removed"  # the key of a unit's value with its slain removed (``_remove_casualties``)
_SWEEP = "sweeping advance"  # the key of what a Sweeping Advance reads from a state (``_sweep_facts``)
_SWEEP_INITIATIVE = "sweep initiative"  # the key of a group's Initiative for a Sweeping Advance (``_group_initiative``)
_POOL = "combat pool"  # the key of a unit's models in the order a striker's blows wound them (``_combat_pool``)
_STANDING = "standing distance"  # the key of a unit's distance to a falling back group (``_fall_back_heading``)
_TOUCHING = "touching"  # the key of whether a unit touches another (``_units_touch``)
_FREED = "free to consolidate"  # the key of the units a combat's result leaves free (``_free_to_consolidate``)
#: What ends with the phase: a combat fought, and the right to consolidate after it (published.consolidation).
_PHASE_DONE_ORDER = (Status.FOUGHT, Status.MAY_CONSOLIDATE)
_PHASE_DONE = frozenset(_PHASE_DONE_ORDER)
_SHOT = frozenset({Status.SHOT})
_SHOT_NO_ASSAULT = frozenset({Status.SHOT, Status.FIRED_NO_ASSAULT})
#: Weapon types whose firing bars the unit's assault that turn (published.assault-after-firing); Heavy only for
#: a unit that is not a Monstrous Creature (``bars_assault``)
_NO_ASSAULT_TYPES = frozenset({WeaponType.RAPID_FIRE, WeaponType.HEAVY, WeaponType.ORDNANCE})


@implements("published.assault-after-firing")
def _assault_after_firing(members: Sequence[Unit]) -> Ruling | None:
    """Refuse the assault of a unit that (or a character in which) fired a Rapid Fire, Heavy or Ordnance weapon
    this turn: the unit assaults whole, with its characters (40k3.char.must-assault, 40k4.assault.must-charge)."""
    fired = next((u for u in members if u.has(Status.FIRED_NO_ASSAULT)), None)
    if fired is None:
        return None
    whose = "it" if fired is members[0] else f"{fired.id}, who is part of it,"
    return Ruling.forbid(f"{members[0].id} may not assault this turn: {whose} fired a Rapid Fire, Heavy or Ordnance "
                         "weapon in the Shooting phase (only Assault and Pistol weapons may be fired before an "
                         "assault)", "published.assault-after-firing")


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


@implements("published.assault-after-firing")
def bars_assault(unit: Unit, weapon: Weapon) -> bool:
    """Say whether firing ``weapon`` keeps ``unit`` (and the unit it is part of) from assaulting this turn: a Rapid
    Fire or Ordnance weapon always, a Heavy one unless fired by a Monstrous Creature (the page names Infantry)."""
    return weapon.type in _NO_ASSAULT_TYPES and not (weapon.type is WeaponType.HEAVY
                                                     and unit.type is UnitType.MONSTROUS_CREATURE)


#: What a fall back ends: the unit is no longer locked in, nor engaged by, its close combat.
_FALLING_BACK_ENDS = frozenset({Status.LOCKED, Status.ENGAGED})


@dataclass(frozen=True)
class WoundBatch:
    """Wounds from one batch of attacks, waiting for saves: how many, and what they ignore."""

    wounds: int
    ap: int | None
    ignores_armour: bool = False
    strength: int | None = None  # the attack's Strength, for Instant Death (None: no Strength, as Dangerous Terrain)


INSTANT_DEATH = "published.instant-death"
#: No model of a save group is killed outright (``SavesGroup``'s last item): the usual group.
_NO_KILLS: Mapping[ModelRef, int] = {}


@implements("published.instant-death")
def _killed_outright(unit: Unit, model: Model, strength: int | None) -> bool:
    """Say whether an unsaved wound of ``strength`` kills ``model`` outright: a Strength of double its Toughness or
    more (Instant Death), unless it has Eternal Warrior; it matters only to a model with more than one Wound left."""
    return kills_outright(strength, model.profile.t) \
        and model.profile.w - model.wounds_taken > 1 and "eternal_warrior" not in rule_keys(unit.rules)


@implements("published.to-wound")
def _majority(values: Sequence[int]) -> int:
    """Return the value in the majority, the lowest if no majority exists (4th ed. p. 34, Multiple Toughness: "use
    the Toughness characteristic that is in the majority in the target unit. If no majority exists, use the lowest
    in the unit"): the value more than half the models have, as ``_sweep_initiative`` reads "majority"."""
    first = values[0]
    if values.count(first) == len(values):  # the usual unit: one value throughout
        return first
    value, count = Counter(values).most_common(1)[0]
    return value if 2 * count > len(values) else min(values)


@implements("published.sweeping-advance")
def _sweep_initiative(group: Sequence[Unit]) -> int:
    """Return a unit's Initiative for a Sweeping Advance: its models' (and joined characters') profile value, the
    value more than half of them have, else the lowest."""
    values = [m.profile.i for u in group for m in u.models]
    if not values:
        return 0
    if values.count(values[0]) == len(values):  # the usual unit: one value throughout
        return values[0]
    value, count = Counter(values).most_common(1)[0]
    return value if 2 * count > len(values) else min(values)


def _group_initiative(group: Sequence[Unit]) -> int:
    """Return ``_sweep_initiative(group)``, kept on the group's first unit by the others' values: a unit's value (a
    fought unit is one value for every state a fight fought again leads to, ``_fought_unit``) stands in many states.
    Worked out afresh while some other member's hash is not known yet (a state just built: keying would walk its
    models only to be hashed)."""
    if not all(u.hashed() for u in group[1:]):
        return _sweep_initiative(group)
    return group[0].remember((_SWEEP_INITIATIVE, tuple(group[1:])), partial(_sweep_initiative, group))


def _units_touch(a: Unit, b: Unit) -> bool:
    """Return ``touching(a, b)``, kept on ``a`` by ``b``'s value: base contact reads the two units' models alone.
    Measured afresh while ``b``'s hash is not known yet (as ``_group_initiative``)."""
    if not b.hashed():
        return _touching(a, b)
    return a.remember((_TOUCHING, b), partial(_touching, a, b))


def _rolls(dice: Dice, start: int) -> tuple[RollRecord, ...]:
    return tuple(dice.log[start:])


def _zero_rules(strength: int, toughness: int) -> tuple[str, ...]:
    """Name the value-0 clause that decided a to-wound roll, if one did (S 0 prevails over T 0); S 4 against T 4
    names none."""
    if strength <= 0:
        return ("core.zero.s",)
    return ("core.zero.t",) if toughness <= 0 else ()


def _ws_zero(attacker_ws: int, target_ws: int) -> tuple[str, ...]:
    """Name core.zero.ws when a Weapon Skill of 0 decided a close combat to-hit roll (either side's), else nothing."""
    return ("core.zero.ws",) if attacker_ws <= 0 or target_ws <= 0 else ()


@implements("core.zero.a")
def _no_attacks(state: GameState, combat: Iterable[str]) -> list[Event]:
    """Say, per unit of a close combat, which of its models make no attacks because their Attacks are 0."""
    events = []
    for uid in combat:
        unit = state.unit(uid)
        idle = [m.name for m in unit.models if not close_combat_attacks(m.profile.a)]
        if idle:
            events.append(Event("no_attacks", f"{', '.join(idle)} ({uid}) make{'s' * (len(idle) == 1)} no close "
                                "combat attacks: Attacks 0", ("core.zero.a",)))
    return events


BS0_NOTE = "has BS 0 and cannot shoot [core.zero.bs]"  # a volley's note on a model that fires nothing


MOVED_NOTE = "fires no shot after moving [published.weapon-profiles]"  # a volley's note: weapons in range, none fires


def _note_event(note: str) -> Event:
    """A volley's note on a model that does not fire, citing the rule that says why (BS 0, or moving)."""
    if note.endswith(BS0_NOTE):
        return Event("note", note, ("core.zero.bs",))
    return Event("note", note, ("published.weapon-profiles",) if note.endswith(MOVED_NOTE) else ())


def _no_fire_note(name: str, carried: Sequence[Weapon], target_id: str, dist: float, moved: bool) -> str:
    """Say why a model fires no weapon at a target: none reaches it, or (its unit, a joined character too, having
    moved) those that do fire no shot by their type (Heavy, Ordnance, Rapid Fire beyond its range after moving)."""
    reaching = [w for w in carried if dist <= w.range + geo.EPSILON]
    if not reaching or not moved:
        return f"{name} has no weapon that can fire at {target_id} ({dist:.1f}\")"
    kinds = ", ".join(f"{w.name} ({w.type.value.replace('_', ' ').title()})" for w in reaching)
    return f"{name}, whose unit moved this turn: its {kinds} at {target_id} ({dist:.1f}\") {MOVED_NOTE}"


StrikeKey = tuple[str, str, int, int, bool, bool, str]
Job = tuple[StrikeKey, int, tuple[tuple[str, int], ...]]  # a pool of attacks: who, how many, the models it may hurt
Gathered = tuple[tuple[Job, ...], int, Event]  # an Initiative step's pools, the Initiative after it, its event
EventView = Callable[[Event], Hashable]
ScoreRead = Callable[[tuple[tuple[str, int], ...]], Hashable]


class _Melee:
    """Where a close combat stands between steps: the state, the pools still to strike, the score, the events.

    A carry of ``Dice.loop``, made at every step of play and enumeration alike: a plain slotted value built in
    one call (no dataclass copied field by field), never changed once built but for what it works out about
    itself (its key, its tally of events, the attacks its next step gathers), which a new carry does not inherit.
    """

    __slots__ = ("state", "initiative", "jobs", "caused", "events", "finished", "whole_score", "pending",
                 "kept_key", "kept_tally", "gathered")

    def __init__(self, state: GameState, initiative: int, jobs: tuple[Job, ...], caused: tuple[tuple[str, int], ...],
                 events: tuple[Event, ...], finished: bool = False, whole_score: bool = True,
                 pending: tuple[str, ...] = ()) -> None:
        self.state = state
        self.initiative = initiative  # the next Initiative value to gather attacks for; -1: every blow struck
        self.jobs = jobs
        self.caused = caused
        self.events = events
        self.finished = finished
        #: False in a step's result from ``fresh()``: ``caused`` holds only what that step added.
        self.whole_score = whole_score
        #: Units whose slain wait at 0 Wounds for the end of the Initiative step (a later pool of the step reads
        #: them). Told by ``state`` (the units with a model at 0 Wounds), so no key needs it.
        self.pending = pending
        self.kept_key: Hashable | None = None
        self.kept_tally: Counter[Hashable] | None = None
        #: The attacks of the next Initiative step, gathered once per carry (an enumeration steps it per branch).
        self.gathered: tuple[Gathered, ...] | None = None

    def __repr__(self) -> str:
        return (f"_Melee(initiative={self.initiative}, jobs={len(self.jobs)}, caused={self.caused}, "
                f"finished={self.finished}, events={len(self.events)})")

    def key(self, view: EventView | None = None, result: ScoreRead | None = None) -> Hashable:
        """Everything later steps and callers read (worked out once per carry).

        Events count as the caller reads them (``view``, see ``Dice.event_view``; without
        one by kind, rules and data), never by their wording or order.  The wounds caused
        count only as margins between the sides (each side's count less the lowest), and
        once every blow is struck only as ``result`` reads them (who won, and what the
        margin does to the loser's Morale check) - in a whole score, not in what one step
        added (``whole_score``), which a join may still add to; the score in the result's
        text is a representative one.  A finished combat is its state and events alone.
        """
        kept = self.kept_key
        if kept is None:
            events = frozenset(self.tally(view).items())
            if self.finished:
                kept = self.state, events
            elif self.struck and self.whole_score and result is not None:
                kept = self.state, result(self.caused), events
            else:
                low = min((n for _, n in self.caused), default=0)
                kept = (self.state, self.initiative, self.jobs, tuple((side, n - low) for side, n in self.caused),
                        events)
            self.kept_key = kept
        return kept

    def tally(self, view: EventView | None) -> Counter[Hashable]:
        """Count the events as ``view`` shows them (kept with the carry: ``join`` adds two tallies)."""
        tally = self.kept_tally
        if tally is None:
            shown = ((e.kind, e.rules, e.data) for e in self.events) if view is None else map(view, self.events)
            tally = self.kept_tally = Counter(v for v in shown if v is not None)
        return tally

    @property
    def struck(self) -> bool:
        """Say whether every blow is struck: the combat result comes next."""
        return self.initiative < 0 and not self.jobs and not self.finished

    def fresh(self) -> _Melee:
        """Return this point of the combat with no events yet, and until the result no wounds caused yet.

        No step reads the events, and until the combat result the steps only add to the
        wounds caused (``Dice.loop``).
        """
        caused = self.caused if self.struck else tuple((side, 0) for side, _ in self.caused)
        return _Melee(self.state, self.initiative, self.jobs, caused, (), self.finished, self.struck and self.whole_score,
                      self.pending)

    def join(self, stepped: _Melee, view: EventView | None = None) -> _Melee:
        """Return ``stepped`` (a step from ``self.fresh()``) after this point: its events and wounds caused first."""
        if not self.struck:
            mine = dict(self.caused)
            caused = tuple((side, mine.get(side, 0) + n) for side, n in stepped.caused)
            whole = True
        else:
            caused, whole = stepped.caused, stepped.whole_score
        joined = _Melee(stepped.state, stepped.initiative, stepped.jobs, caused, (*self.events, *stepped.events),
                        stepped.finished, whole, stepped.pending)
        joined.kept_tally = self.tally(view) + stepped.tally(view)
        return joined


class _FightSetup(NamedTuple):
    """What a fight reads from the state it starts from, whatever the dice: worked out once per state and fighting unit.

    Ruling and resolving share the engagement; play applying the same fight again (a search)
    and an enumeration (once per leaf) find the rest ready, the first Initiative step's attacks
    too.  ``arms`` and ``gathered`` fill as the fight asks: the melee weapon of each set of
    weapons carried, and each Initiative step's attacks gathered on the starting state.
    """

    engagement: Engagement
    combat: tuple[str, ...]
    allocations: dict[str, tuple[tuple[str, int], ...]]
    levels: frozenset[int]
    arms: dict[tuple[str, ...], Weapon]
    gathered: dict[int, tuple[Gathered, ...]]
    #: The later steps' attacks by their state's value and Initiative (at most ``LATER_GATHERS_KEPT``, the oldest
    #: dropped first), kept from the second fight from this state on (``fights``: how many began from it).
    later: dict[tuple[GameState, int], tuple[Gathered, ...]]
    fights: list[int]
    sides: tuple[tuple[str, int], ...]
    opening: tuple[Event, ...]  # the fight's first events: the close combat, the characters fighting apart
    #: Each strike's reading and what its dice did, by the carry's state and by the units it reads (``_Strikes``),
    #: kept from the second fight from this state on, as ``later`` is.
    strikes: _Strikes
    #: What the combat result works out whatever its dice, by the state it reads (``_Kept``): the state with every
    #: unit fought, the locks released.
    results: _Kept


class _SweepFacts:
    """What a Sweeping Advance reads from the state whatever the dice (``CombatRules._sweep_facts``): the victor
    (None: no Sweeping Advance, and why), both Initiatives, the falling back unit with its characters, and the state
    with them destroyed once a roll catches them (built on that branch only)."""

    __slots__ = ("victor", "why_not", "own", "theirs", "group", "caught", "rolling", "said", "cited", "destroyed")

    def __init__(self, victor: str | None, why_not: str, own: int, theirs: int, group: list[Unit]) -> None:
        self.victor, self.why_not, self.own, self.theirs, self.group = victor, why_not, own, theirs, group
        self.caught: GameState | None = None
        #: the purposes of both rolls and the breaking off roll's splits (worked out on the first roll)
        self.rolling: tuple[str, tuple[int, ...], str] | None = None
        #: the sweeping advance event's words by the two rolls (at most 36 pairs)
        self.said: dict[tuple[int, int], str] = {}
        #: once a roll caught the unit: the rules its event cites and the event naming the slain
        self.cited: tuple[str, ...] = ()
        self.destroyed: Event | None = None


class _Verdict(NamedTuple):
    """What a combat result reads from the wounds caused alone (``CombatRules._combat_verdict``): its event, the
    losing side's units that take the loser's Morale check (none on a draw), why, and the check's modifier."""

    said: Event
    losers: tuple[str, ...]
    why: str
    modifier: int


class _Kept:
    """The dice-free pieces of a fight's result that a state fought from again keeps, by the state each reads.

    ``fought``: the state with every unit of the combat fought, by the state the blows left
    (the very state a Morale check and a fall back then read, so what they keep per state
    is found again); ``unlocked``: the locks released and what follows them (``after_combat_result``: 4th
    edition's units free to consolidate, with their events), by the state the checks left; ``verdicts``: who lost
    and the words saying so, by the wounds caused.
    Each kind is bounded apart (``_keep``).
    """

    __slots__ = ("fought", "unlocked", "verdicts", "lasts")

    def __init__(self) -> None:
        self.fought: dict[GameState, GameState] = {}
        self.unlocked: dict[GameState, Resolution] = {}
        self.verdicts: dict[tuple[tuple[str, int], ...], _Verdict] = {}
        #: Last Man Standing's result by the state the Morale checks left and the units spared it, when it rolled no
        #: die (no unit newly left with one model, or only those spared the test): the same whatever the dice
        self.lasts: dict[tuple[GameState, frozenset[str]], Resolution] = {}


K = TypeVar("K")


def _keep(kept: dict[K, R], key: K, value: R, most: int = RESULTS_KEPT) -> R:
    """Keep ``value`` under ``key`` (the oldest dropped first past ``most``) and return it: every bounded memo of
    a volley and a fight keeps this way."""
    if len(kept) >= most:
        del kept[next(iter(kept))]
    kept[key] = value
    return value


#: What a strike's dice decide and a carry's state keeps (``_Strikes.at``): the state after it, the events after its
#: attacks event (saves, casualties: no rolls of their own), the wounds inflicted (the combat result's count: unsaved
#: wounds a model took, none beyond its last Wound) and the units whose slain wait.
StrikeOutcome = tuple[GameState, tuple[Event, ...], int, tuple[str, ...]]
#: What a strike's dice do to the units it reads, whatever else the state holds (``_StrikePlan.deltas``): the units
#: with their wounds (and slain) taken, the events after its attacks event, the wounds inflicted, and the units whose
#: slain wait for the end of the Initiative step.
StrikeDelta = tuple[tuple[Unit, ...], tuple[Event, ...], int, tuple[str, ...]]


class _StrikePlan(NamedTuple):
    """What a strike reads before its dice: the pool's models, the dice to roll, the words to say.

    It reads only the pools and the units of the first pool's models, so a fight fought again
    from one state keeps it by those (``_Strikes.plans``), for every carry whose state holds the
    same units, whatever happened elsewhere; ``deltas`` then keeps what each result of its dice
    does to those units (by wounds and unsaved wounds per save group, and whether the struck
    unit has characters with it: the carry-over clause cited).
    """

    models: dict[ModelRef, tuple[Unit, Model]]  # the pool's models still standing (none: the strike hurts no one)
    targets: list[Model]
    to_hit: Stage | None
    to_wound: Stage | None
    saving: SaveSplit | None
    attacking: str  # the attacks event's text before the dice: who attacks whom with how many
    why: str  # what the attacks event adds after the wounds (a Strength that cannot wound)
    rules: tuple[str, ...]  # the attacks event's rules
    #: by the dice's result and the carry-over rules cited; a result whose unsaved wounds found no model of their
    #: group to take them (``_melee_not_carried`` reads the Wounds left outside the pool) is marked ``_BY_ROOM`` there
    #: and kept by those Wounds too
    deltas: dict[tuple[Any, ...], StrikeDelta]
    #: the attacks event's text by its hits and wounds (at most one per pair of counts of its attacks)
    said: dict[tuple[int, int], str]
    #: the pool's models an unsaved wound kills outright (Instant Death), with the strike's Strength (usually none)
    kills: Mapping[ModelRef, int] = _NO_KILLS


class _Strikes:
    """The strikes a state fought from again keeps (each kind at most ``STRIKES_KEPT``, the oldest dropped first).

    ``plans``: each strike's reading (``_StrikePlan``) by its pools and the units of its first
    pool; ``at``: by the carry's state, pools and pending units, that plan and what each
    result of its dice led to from that state (at most ``OUTCOMES_KEPT``), so that the same
    strike from the same carry pays only for its dice and its attacks event, and one from a
    new carry with the same units struck pays only for a new state.  ``states``: each state a kept outcome
    made, by its value, so that equal states reached by different strikes (the chaplain's blow first or the
    squad's) are one object: every later look-up keyed by it (``at``, ``_Kept``) then finds it by identity,
    without comparing two states field by field.
    """

    __slots__ = ("plans", "at", "states")

    def __init__(self) -> None:
        self.plans: dict[tuple[tuple[Job, ...], tuple[Unit | None, ...]], _StrikePlan] = {}
        self.at: dict[tuple[GameState, tuple[Job, ...], tuple[str, ...]],
                      tuple[_StrikePlan, dict[tuple[int, ...], StrikeOutcome]]] = {}
        self.states: dict[GameState, GameState] = {}

    def same(self, state: GameState) -> GameState:
        """Return the kept state equal to ``state`` (``state`` itself, kept, the first time one is met)."""
        found = self.states.get(state)
        return _keep(self.states, state, state, STRIKES_KEPT) if found is None else found


#: How many distinct results (wounds per batch, unsaved wounds per save group) a volley's plan keeps (``_Volley``).
VOLLEY_OUTCOMES_KEPT = 256
#: How many allocations of wounds per batch an attack keeps (``_Attack.allocations``).
ALLOCATIONS_KEPT = 64
#: How many worded results (why, rule, modifier, roll) a Morale check's facts keep (``_MoraleFacts.said``).
MORALE_WORDS_KEPT = 64
#: How many worded shots and saves results an attack keeps (``_Attack.said``).
WORDS_KEPT = 256
_VOLLEY, _MORALE, _FALL_BACK = "volley", "morale", "fall back"  # what a state remembers (``HashOnce.remember``)
_NONE_YET: Any = object()
_BY_ROOM: Any = object()  # a strike's result kept by the Wounds left outside its pool as well (``_StrikePlan.deltas``)


class _Batch(NamedTuple):
    """One batch of a shooting attack (same BS and weapon) as the dice find it (``CombatRules._attack``)."""

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
                 "out_of_reach", "models", "allocations", "said")

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

    def reach_short(self) -> bool:
        """Say whether some weapon fired does not reach every model of the target (wounds may be lost for it)."""
        return bool(self.out_of_reach) or self.reach is not None


class _MoraleDue(NamedTuple):
    """A Morale check the casualties call for: the unit that takes it, and why."""

    unit_id: str
    why: str


#: What a shooting attack's casualties call for (``CombatRules._casualty_check``): Last Man Standing tests (True),
#: a Morale check, the unit's destruction (its event), or nothing (None).
_Check = Union[bool, _MoraleDue, Event, None]
_LAST_MAN = True


class _Volley(NamedTuple):
    """A volley worked out once per state and action (``CombatRules.resolve_shoot``): who shoots, the opening
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


class _MoraleFacts(NamedTuple):
    """What a Morale check reads from the state (``CombatRules._morale_facts``): the unit that tests, the rules citing
    its Fearless pass (None: not Fearless), its Stubborn rules (None: no negative modifier ignored), the rules on
    withheld Fearless, its Leadership and the rules on lost special rules."""

    host_id: str
    fearless: tuple[str, ...] | None
    stubborn: tuple[str, ...] | None
    withheld: tuple[str, ...]
    ld: LeadershipRuling
    lost: tuple[str, ...]
    heroism: str | None  # the rule by which a double 1 passes this kind of check (``double_one_passes``), if any
    #: each check's words and rules by why, rule, modifier and the roll (``_morale_check``): a state tested again
    #: (a search, an enumeration's branches) words each result once
    said: dict[tuple[str, str, int, int, bool], tuple[str, tuple[str, ...]]]


class _FallBack:
    """A unit's fall back worked out once per state (``CombatRules._fall_back``): its members, how many dice, the
    heading away from the nearest enemy (read on the first distance rolled) and each distance's result."""

    __slots__ = ("members", "purpose", "dice", "heading", "edge_in_reach", "clear", "starts", "bounds", "ends", "alone",
                 "tests", "tested")

    def __init__(self, members: Sequence[Unit], purpose: str | None = None) -> None:
        self.members = members
        #: what its distance roll is for (the unit that falls back, as ``_fall_back`` names it; by default the host)
        self.purpose = purpose if purpose is not None else f"{members[0].id}: fall back distance"
        self.dice = 3 if all(u.type in FAST_TYPES for u in members) else 2
        self.heading: tuple[float, float] | None = None
        #: whether the longest roll takes a model to the table edge, where the unit may leave the battle: then the
        #: distance decides more than where models end (``Dice.total``'s ``places``)
        self.edge_in_reach = False
        #: whether every model starts and ends the longest roll clear of the table edge (its base inside the
        #: table): then no roll slides a model, every end being its start moved by the distance rolled
        self.clear = False
        self.starts: list[tuple[list[float], list[float]]] = []  # each member's models' centres: xs, ys
        #: each member's least and greatest centres and its one base reach (low x, low y, high x, high y, reach),
        #: when every member has one base size: the box of a clear move without a look at each model (``_move_box``)
        self.bounds: list[tuple[float, float, float, float, float]] = []
        self.ends: dict[int, tuple[GameState, str, tuple[str, ...]]] = {}  # at most 16 distances (3D6)
        #: for a clear move with one base size per member: whether no other unit stands in the box of the longest
        #: roll (None: not looked yet), which holds the box of every shorter one, so no distance meets anything
        self.alone: bool | None = None
        #: whether a Dangerous Terrain test may follow the move (``CombatRules._fall_back_tests``): the unit goes over
        #: difficult terrain unslowed and the table has some; then the distance decides more than where models end
        self.tests = False
        #: per distance rolled, the models' moves that take a Dangerous Terrain test where they end (none: empty)
        self.tested: dict[int, list[movement.PlannedMove]] = {}


class CombatRules(Ruleset):
    """Shoot, manifest psychic powers, assault, allocate attacks, fight, and take Morale checks."""

    # == hooks 4th edition overrides ===============================================
    shooting_dice_rule: ClassVar[str] = "40k3.char.shooting-dice"
    #: 3rd edition: a unit shoots at one enemy unit, and a character who joined it is part of it (40k3.ic.join):
    #: published.shooting decides the same target (its decision); the seed's shooting clause is about his dice
    same_target_rule: ClassVar[str] = "published.shooting"
    assault_alone_rule: ClassVar[str] = "40k3.ic.assault-alone"
    must_assault_rule: ClassVar[str] = "40k3.char.must-assault"
    #: The rule that locks a joined character in its unit's combat (3rd: it assaults with the unit).
    locked_rule: ClassVar[str] = "40k3.char.must-assault"
    #: 4th edition: a joined character is a separate unit in close combat (40k4.cc.separate-unit).
    character_separate_in_combat: ClassVar[bool] = False
    #: The rules that make a character who survives his unit's destruction in combat a unit of his own.
    survivor_rules: ClassVar[tuple[str, ...]] = ("published.combat-resolution",)
    #: The clause that keeps a unit's unsaved wounds off its joined character (3rd: the published allocation only).
    carry_over_rules: ClassVar[tuple[str, ...]] = ()
    #: The clause that spares a character Last Man Standing.
    no_last_man_rule: ClassVar[str] = "40k3.ic.no-last-man"
    #: The clauses on dividing close combat attacks: who may, whom they may hurt, who fights at all.
    allocation_rule: ClassVar[str] = "40k3.char.attack-allocation"
    engaged_only_rule: ClassVar[str] = "40k3.char.allocation-b2b-only"
    contact_rule: ClassVar[str] = "published.close-combat"
    allocation_contact_rule: ClassVar[str] = "40k3.char.allocation-b2b-only"
    #: The clause by which a joined character is shot as a target of his own (none in 3rd edition).
    picked_out_rules: ClassVar[tuple[str, ...]] = ()
    #: The clause that keeps a character with its unit while the unit falls back.
    falling_back_rule: ClassVar[str] = "40k3.ic.falling-back"

    if TYPE_CHECKING:
        join_rule: ClassVar[str]
        fleet_rule: ClassVar[str]
        assault_terrain_factor: ClassVar[Mapping[UnitType, int]]
        unslowed_types: ClassVar[Mapping[str, frozenset[UnitType]]]

        def terrain_unslowed(self, state: GameState, unit: Unit, alone: bool = False, kind: str = "move") -> bool: ...

        def unslowed_moves(self, state: GameState, moves: Sequence[movement.PlannedMove]
                           ) -> list[movement.PlannedMove]: ...

        def difficult_terrain_dice(self, state: GameState, unit: Unit, need: float = 6.0,
                                   alone: bool = False) -> tuple[int, int, str]: ...

        def _dangerous_tests(self, state: GameState, moves: Sequence[movement.PlannedMove],
                             dice: Dice) -> Resolution: ...

        def _own_active(self, state: GameState, unit: Unit) -> Ruling | None: ...

        def out_of_reach_of_fire(self, state: GameState, target: Unit) -> Ruling | None: ...

        def character_target_ruling(self, state: GameState, shooter: Unit, target: Unit) -> Ruling | None: ...

    def rapid_fire_shots(self, moved: bool, distance: float, weapon: Weapon) -> int:
        """Return a Rapid Fire weapon's shots (3rd ed.): still, 2 up to half range or 1 up to full; moved, 1 up to half."""
        half = distance <= weapon.range / 2 + geo.EPSILON
        if moved:
            return 1 if half else 0
        return 2 if half else 1

    def fights_near_contact(self, unit: Unit) -> bool:
        """Say whether a model within 2" of a friend in base contact fights (3rd ed.: no, only base contact)."""
        return False

    def combat_morale_modifier(self, margin: int) -> int:
        """Return the Leadership modifier of a close combat Morale check lost by ``margin`` wounds (3rd: none)."""
        return 0

    def combat_result_read(self, caused: tuple[tuple[str, int], ...]) -> Hashable:
        """Return what the combat result reads of the wounds caused: the winner and the Morale modifier of the margin.

        Two fights whose scores read alike here end alike (``_resolve_combat``; its text
        shows the score), so an enumeration merges them before the result.
        """
        if len(caused) != 2 or caused[0][1] == caused[1][1]:
            return None
        (a, x), (b, y) = caused
        return (a if x > y else b), self.combat_morale_modifier(abs(x - y))

    def last_man_spared(self, last: Unit) -> Event | None:
        """Say why a unit newly left with one model takes no Last Man Standing test (None: it takes one).

        3rd edition: an independent character is spared, a unit of its own already (40k3.ic.no-last-man).
        """
        if self.takes_last_man_standing(last.is_independent):
            return None
        return self.character_spared(last)

    @implements("published.last-man-standing")
    def no_last_man_after(self, tested: set[str]) -> set[str]:
        """Return the units a close combat's result spares Last Man Standing, given those that took the loser's
        Morale check (3rd edition: none, the test is taken as well as that check, published.last-man-standing's
        decision; a unit that fell back takes no further check)."""
        return set()

    def character_spared(self, last: Unit) -> Event:
        """The event saying a character left alone takes no Last Man Standing test (its edition's clause)."""
        return Event("last_man", f"{last.id} is the last model but a character never takes Last Man Standing",
                     (self.no_last_man_rule,), data=(("unit", last.id),))

    @implements("published.assault-range")
    def assault_range(self, state: GameState, unit: Unit, members: Sequence[Unit]) -> tuple[float, str]:
        """Return how far a unit assaults and the rule deciding it.

        A lone independent character: 6", or 12" only if it counts as cavalry
        (40k3.ic.assault-alone, read literally: bikes and jump infantry do not count).
        Other units: 12" if every model is cavalry, a bike or jump infantry (3rd ed.), else 6".
        """
        if unit.is_character and len(members) == 1:
            reach = CAVALRY_ASSAULT_INCHES if unit.type is UnitType.CAVALRY else ASSAULT_INCHES
            return reach, self.assault_alone_rule
        fast = all(m.type in ASSAULT_12_TYPES_3RD for m in members)
        reach = CAVALRY_ASSAULT_INCHES if fast else ASSAULT_INCHES
        return reach, self.must_assault_rule if len(members) > 1 else "published.assault-range"

    # == shared helpers ===============================================================
    @implements("published.weapon-profiles")
    def weapon_names(self, state: GameState) -> frozenset[str]:
        """Name every weapon with a profile: the scenario's own (``weapons:``) and the bundled armoury's."""
        return frozenset(w.name.lower() for w in (*state.weapons, *bundled_weapons()))

    def weapons_of(self, state: GameState, model: Model) -> list[Weapon]:
        """Return a model's weapon profiles, the scenario's own first, or fail naming the weapon."""
        return list(map(find_weapon, model.weapons, repeat(state.weapons), repeat(model.name)))

    def _pool_order(self, state: GameState, target_id: str, attackers: Sequence[geo.Placed],
                    with_characters: bool = True, nearest: Sequence[float] | None = None) -> list[ModelRef]:
        """Order the models that take wounds: the unit's own, closest to the attackers first, then its characters.

        ``nearest``: each model's distance to the attackers, already measured (the unit's and
        then its characters' models, as ``state.combined`` lists them).
        """
        host = state.unit(target_id)
        groups = state.combined(target_id) if with_characters else [host]
        out: list[ModelRef] = []
        offset = 0
        for u in groups:
            n = len(u.models)
            gaps: Sequence[float] | None = None
            if nearest is not None:
                gaps = nearest[offset:offset + n]
            elif attackers and n:
                if len(attackers) == 1:  # one striker: its row of gaps to the models (the models measured as
                    # they stand; a gap below 0 is 0, ``geo.clear``, taken in C: -0.0 sorts as 0.0), cleared only
                    # when some base overlaps (no gap below 0: the row sorts as its cleared copy would)
                    gaps = geo.gap_rows(attackers, u.models)[0]
                    if min(gaps) < 0.0:
                        gaps = list(map(max, gaps, repeat(0.0)))
                else:
                    gaps = geo.nearest_distances(u.placed, attackers)
            uid = u.id  # a stable sort of the model indices by their gaps: the closest first, ties in unit order
            out += zip(repeat(uid), range(n) if gaps is None else sorted(range(n), key=gaps.__getitem__))
            offset += n
        return out

    @implements("core.zero.w", "published.wound-allocation")
    def _take_wounds(self, state: GameState, pool: Sequence[ModelRef], batches: Sequence[WoundBatch],
                     dice: Dice, who: str, rules: tuple[str, ...], remove: bool = True,
                     saved_already: dict[SaveGroup, int] | None = None,
                     models: dict[ModelRef, tuple[Unit, Model]] | None = None) -> tuple[GameState, list[Event], int]:
        """Allocate wounds one per model in order, roll saves per group, apply unsaved wounds; return them too.

        ``saved_already``: the saves per group, rolled with the wounds (``_save_split``);
        ``models``: the pool's models (and units) in ``state``, if already looked up.
        """
        taken, events, unsaved = self._saved_wounds(state, pool, batches, dice, who, rules, saved_already, models)
        if taken is None:
            return state, events, unsaved
        state, slain = _apply_wounds(state, taken, remove)
        if slain:
            events.append(_casualties(slain, rules))
        return state, events, unsaved

    def _saved_wounds(self, state: GameState, pool: Sequence[ModelRef], batches: Sequence[WoundBatch], dice: Dice,
                      who: str, rules: tuple[str, ...], saved_already: dict[SaveGroup, int] | None = None,
                      models: dict[ModelRef, tuple[Unit, Model]] | None = None
                      ) -> tuple[dict[ModelRef, int] | None, list[Event], int]:
        """Allocate wounds and roll the saves (``_take_wounds``): the unsaved wounds each model takes, the events, their total.

        None instead of the wounds taken when there is nothing to allocate (no wounds, or no model
        left to take them): nothing changes.
        """
        if models is None:
            models = _models_of(state, pool)
        groups = _save_groups(models, pool, batches, who)
        if groups is None:
            return None, [], 0
        events: list[Event] = []
        unsaved: list[int] = []
        for group in groups:
            start = len(dice.log)
            saved = saved_already[group[0]] if saved_already is not None else _roll_saves(group, dice)
            unsaved.append(group[2] - saved)
            events.append(_saves_event(group, saved, rules, _rolls(dice, start)))
        outright: list[tuple[ModelRef, int, int]] = []
        taken = _unsaved_taken(groups, models, unsaved, None, outright)
        return taken, events + _outright_events(outright, models), sum(unsaved)

    def _save_split(self, state: GameState, pool: Sequence[ModelRef], ignores_armour: bool, most: int,
                    who: str, models: dict[ModelRef, tuple[Unit, Model]] | None = None,
                    looked: list[Model] | None = None) -> SaveSplit | None:
        """Say how up to ``most`` wounds share out among the save groups ``_take_wounds`` makes, and their saves.

        Then the saves are rolled as the end of the hit-and-wound chain (the same dice in the
        same order), so an enumeration branches once per number of unsaved wounds per group.
        Also return the models that may take wounds (in order) and their groups (one key for
        all when there is one group), for ``_allocate_melee``.  ``looked``: the pool's models, if looked up.
        """
        if models is None:
            models = _models_of(state, pool)
        if looked is None:
            looked = list(map(_MODEL, map(models.__getitem__, pool)))  # not is_casualty: wounds taken below W
        alive = list(compress(pool, map(lt, map(_WOUNDS_TAKEN, looked), map(_W, looked))))
        if not alive:
            return None
        if max(map(_W, looked)) > 1:  # as _save_groups: the fewest Wounds left first
            alive = _fewest_left_first(alive, models)
        keys: list[SaveGroup] = []
        if len(set(map(_UNIT, alive))) == 1 and len(set(zip(map(_SAVE, looked), map(_INVULNERABLE, looked)))) == 1:
            unit, model = models[alive[0]]  # one unit of one save (the usual pool): one group, its save worked out once
            armour = None if ignores_armour else model.profile.save
            keys.append((unit.id if unit.is_character else None, best_save(armour, model.profile.invulnerable, None)))
        else:
            for ref in alive:
                unit, model = models[ref]
                armour = None if ignores_armour else model.profile.save
                keys.append((unit.id if unit.is_character else None, best_save(armour, model.profile.invulnerable, None)))
        order = tuple(dict.fromkeys(keys))
        if len(order) == 1:  # one group takes every wound
            shares: list[tuple[int, ...]] = list(zip(range(most + 1)))
        else:
            index = {k: i for i, k in enumerate(order)}
            counts = [0] * len(order)
            shares = [tuple(counts)]
            for k in range(most):  # wound k goes to the k-th living model, round and round (as _take_wounds)
                counts[index[keys[k % len(keys)]]] += 1
                shares.append(tuple(counts))
        stages = []
        for _, save in order:
            stages.append(Stage(save, f"{who}: saves ({save}+)" if save is not None else f"{who}: no save",
                                "published.saves", fails=True))
        return Split(tuple(stages), tuple(shares)), order, alive, keys

    def _morale_check(self, state: GameState, unit_id: str, dice: Dice, why: str, rule: str,
                      modifier: int = 0, kind: LeadershipTestKind = LeadershipTestKind.MORALE,
                      leave: Callable[[GameState, str, Dice], Resolution] | None = None) -> Resolution:
        """Take a Morale (Leadership) check on the unit's Leadership; on a failure the unit falls back.

        What the check reads from the state (``_morale_facts``) is worked out once per state, unit and kind.
        ``leave``: what a failure does instead of the plain fall back (a lost close combat: ``leaves_combat``).
        """
        key = (_MORALE, self, unit_id, kind, modifier < 0)
        facts = state.known(key, _NONE_YET)
        if facts is _NONE_YET:
            facts = state.remember(key, lambda: self._group_morale_facts(state, unit_id, kind, modifier < 0))
        if facts is None:
            return state, []
        host_id, fearless, stubborn, rule_extra, ld, lost, heroism, said = facts
        if fearless is not None:
            return state, [Event("morale", f"{host_id} {why}: Fearless, it passes its {kind._value_} check without "
                                 "rolling", (rule, *fearless))]
        asked = why
        if stubborn is not None:
            why += " (Stubborn: the negative modifier is ignored)"
            rule_extra = stubborn + rule_extra
            modifier = 0
        start = len(dice.log)
        result = leadership_test(dice, ld.value, kind, modifier, heroism is not None)
        said_key = (asked, rule, modifier, result.roll, result.insane_heroism)
        words = said.get(said_key)
        if words is None:
            mod = f" {modifier:+d}" if modifier else ""
            verdict = result.verdict(kind._value_)
            if heroism is not None and result.insane_heroism:
                rule_extra = (*rule_extra, heroism)
            words = _keep(said, said_key, (f"{host_id} {why}: {kind._value_} check on Ld {ld.value}{mod} ({ld.source}), "
                                      f"rolls {result.roll}, {verdict}",
                                      (rule, ld.rule, "core.test.leadership", *rule_extra, *lost)), MORALE_WORDS_KEPT)
        event = Event("morale", words[0], words[1], _rolls(dice, start))
        if result.passed:
            return state, [event]
        state, more = (self._fall_back if leave is None else leave)(state, host_id, dice)
        return state, [event, *more]

    def _group_morale_facts(self, state: GameState, unit_id: str, kind: LeadershipTestKind,
                            negative: bool) -> _MoraleFacts | None:
        """Return ``_morale_facts``, kept on the tested unit's host by the values of its other members as well.

        The facts read the unit with its joined characters alone (its Leadership, Fearless, Stubborn and the rules
        its members share or withhold, ``state.combined``: the hooks it calls read no other unit), so every state
        holding the same members finds them again: the many states a fight's blows lead to differ mostly in the
        other side's casualties.
        """
        group = state.combined(unit_id)
        if not all(u.hashed() for u in group[1:]):  # a state just built: keying would walk the members' models
            return self._morale_facts(state, unit_id, kind, negative)
        return group[0].remember((_MORALE, self, unit_id, kind, negative, tuple(group[1:])),
                                 lambda: self._morale_facts(state, unit_id, kind, negative))

    def _morale_facts(self, state: GameState, unit_id: str, kind: LeadershipTestKind,
                      negative: bool) -> _MoraleFacts | None:
        """Read what a Morale check takes from the state (None: no check, the unit being gone or falling back)."""
        unit = state.unit(unit_id)
        if not unit.alive or unit.has(Status.FALLING_BACK):
            return None
        host_id = unit.joined or unit.id
        if self.passes_automatically(state, host_id, kind):
            return _MoraleFacts(host_id, ("published.fearless", *self.sharing_cited(state, host_id)), None, (),
                                LeadershipRuling(0, "", ""), (), None, {})
        stubborn: tuple[str, ...] | None = None
        if negative and self.ignores_negative_modifiers(state, host_id, kind):
            stubborn = ("published.stubborn", *self.sharing_cited(state, host_id))
        return _MoraleFacts(host_id, None, stubborn, self.withheld(state, host_id, "fearless"),
                            self.leadership_of(state, host_id), self.lost_rules_cited(state, host_id),
                            self.double_one_passes(kind), {})

    #: Named tests a Fearless unit passes without rolling (published Fearless: never falls back, never pinned).
    FEARLESS_PASSES = frozenset({LeadershipTestKind.MORALE, LeadershipTestKind.PINNING, LeadershipTestKind.BREAK,
                                 LeadershipTestKind.PANIC, LeadershipTestKind.FEAR, LeadershipTestKind.TERROR,
                                 LeadershipTestKind.LAST_MAN_STANDING})

    @implements("published.fearless")
    def passes_automatically(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether the unit is Fearless (every member, after joining) against a test that would break or pin it."""
        return kind in self.FEARLESS_PASSES and self.group_has_rule(state, unit_id, "fearless")

    #: The checks a double 1 passes whatever the modifiers: Morale checks, 3rd edition's Last Man Standing being one
    #: (published.last-man-standing); not Pinning, Regroup or other Leadership tests (published.insane-heroism).
    INSANE_HEROISM = frozenset({LeadershipTestKind.MORALE, LeadershipTestKind.LAST_MAN_STANDING})

    @implements("published.insane-heroism")
    def double_one_passes(self, kind: LeadershipTestKind) -> str | None:
        """Return the Insane Heroism rule for a Morale check: "A score of 2 on the 2D6 always indicates a unit has
        passed its Morale check regardless of modifiers" (4th ed., Morale); other Leadership tests have none."""
        return "published.insane-heroism" if kind in self.INSANE_HEROISM else None

    @implements("published.stubborn")
    def ignores_negative_modifiers(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether a Stubborn unit (every member; 4th shares Stubborn both ways) ignores a Morale check's negatives."""
        return kind is LeadershipTestKind.MORALE and self.group_has_rule(state, unit_id, "stubborn")

    def sharing_cited(self, state: GameState, unit_id: str) -> tuple[str, ...]:
        """Cite the rule on sharing special rules when characters have joined the unit."""
        return self.rules_sharing_rules() if len(state.combined(unit_id)) > 1 else ()

    @implements("published.pinning")
    def test_failed(self, state: GameState, unit_id: str, kind: LeadershipTestKind, dice: Dice) -> Resolution:
        """Carry out a failed named test: a Morale-type check falls back, a Pinning test pins the unit."""
        if kind in (LeadershipTestKind.MORALE, LeadershipTestKind.BREAK, LeadershipTestKind.PANIC,
                    LeadershipTestKind.LAST_MAN_STANDING):
            if state.unit(unit_id).has(Status.FALLING_BACK):
                return state, []
            return self._fall_back(state, unit_id, dice)
        if kind is LeadershipTestKind.PINNING:
            own_turn = (Status.NEWLY_PINNED,) if state.unit(unit_id).side == state.active else ()
            pinned = [u.with_status(Status.PINNED, *own_turn) for u in state.combined(unit_id)]
            return state.replace_units(*pinned), [Event("pinned", f"{unit_id} is pinned until the end of its "
                                                        "next turn", ("published.pinning",))]
        return super().test_failed(state, unit_id, kind, dice)

    @implements("published.pinning")
    def end_turn(self, state: GameState) -> Resolution:
        """End the turn; a unit of the side whose turn ends stops being pinned, its pinned turn over.

        Published rule (4th ed. Pinning): a pinned unit may do nothing "in its following
        turn"; so the pin lapses at the end of the unit's own next turn.  A unit pinned in its
        own turn (a test the judge calls for) stays pinned through its following turn.
        """
        side = state.active
        events: list[Event] = []
        units = []
        for u in state.units:
            if u.side == side and u.has(Status.NEWLY_PINNED):
                u = u.with_status(remove=(Status.NEWLY_PINNED,))
            elif u.side == side and u.has(Status.PINNED):
                u = u.with_status(remove=(Status.PINNED,))
                if u.alive and not u.joined:
                    events.append(Event("pinned", f"{u.id} is no longer pinned: its pinned turn is over",
                                        ("published.pinning",)))
            units.append(u)
        after, more = super().end_turn(evolve(state, units=tuple(units)))
        return after, events + more

    def assault_after_run(self, state: GameState, unit: Unit) -> Ruling | None:
        """Return why a unit that ran this turn may not assault (None by default: no unit runs)."""
        return None

    def _pinned(self, unit: Unit, doing: str) -> Ruling | None:
        """Refuse what a pinned unit may not do in its pinned turn (move, shoot, assault, run)."""
        if unit.has(Status.PINNED):
            return Ruling.forbid(f"{unit.id} is pinned: it may not {doing} until its pinned turn is over",
                                 "published.pinning")
        return None

    @implements("published.fall-back")
    def _fall_back(self, state: GameState, unit_id: str, dice: Dice) -> Resolution:
        """Move a broken unit (with its characters) 2D6" (3D6" if fast) straight away from the nearest enemy.

        Where it ends depends only on the state and the distance rolled: worked out once per state, unit and
        distance (``_FallBack``).
        """
        plan: _FallBack = state.remember((_FALL_BACK, self, unit_id),
                                         lambda: _FallBack(state.combined(unit_id), f"{unit_id}: fall back distance"))
        if plan.heading is None:
            self._fall_back_heading(state, plan)
            plan.tests = bool(state.terrain) and (  # dangerous terrain tests any type; difficult the unslowed
                any(t.kind == "dangerous" for t in state.terrain) or (
                    self._fall_back_unslowed(state, plan.members)
                    and any(t.kind in _DIFFICULT_KINDS for t in state.terrain)))
        start = len(dice.log)
        inches = dice.total(plan.dice, plan.purpose, "published.fall-back",
                            places=not (plan.edge_in_reach or plan.tests))
        done = plan.ends.get(inches)
        if done is None:
            done = plan.ends[inches] = self._fallen_back(state, plan, unit_id, inches)
        events = [Event("fall_back", done[1], done[2], _rolls(dice, start), (("unit", unit_id),))]
        if not plan.tests:
            return done[0], events
        tested = plan.tested.get(inches)
        if tested is None:
            tested = plan.tested[inches] = self._fall_back_tests(state, plan, done[0])
        if not tested:
            return done[0], events
        after, more = self._dangerous_tests(done[0], tested, dice)
        return after, events + more

    def _fall_back_unslowed(self, state: GameState, members: Sequence[Unit]) -> bool:
        """Say whether a falling back unit (with its characters) goes over difficult terrain unslowed: every member of
        a type the edition names for the fall back (``unslowed_types["fall_back"]``)."""
        types = self.unslowed_types["fall_back"]
        return all([u.type in types for u in members])

    @implements("published.fall-back", "published.dangerous-terrain", "published.difficult-terrain")
    def _fall_back_tests(self, state: GameState, plan: _FallBack, after: GameState) -> list[movement.PlannedMove]:
        """Return the moves of a fall back whose models take a Dangerous Terrain test.  Every model whose path enters
        dangerous terrain tests, of any type (a fall back is a move, and dangerous terrain tests "every model that moves
        into or through it", published.dangerous-terrain; the Fall Back rule only halves the distance, 4th ed. p. 48:
        infantry falling back through a minefield test as they would walking through it).  A unit that goes over
        difficult terrain unslowed (``_fall_back_unslowed``) tests as in its own moves (``unslowed_moves``): a jump
        infantry model whose fall back ends in difficult terrain (4th ed., Jump Infantry, Morale: "They may, of course,
        move over any obstructions when falling back, but if they end their move in difficult terrain they will still
        have to take a Dangerous Terrain test"), a bike entering or moving through it, 3rd edition cavalry once one of
        the unit enters it.  None when the unit left the battle."""
        terrain = state.terrain
        moves = []
        for u in plan.members:
            now = after.unit(u.id)
            if len(now.models) != len(u.models):  # gone off the table edge: no test
                return []
            for j, (m, end) in enumerate(zip(u.models, now.models)):
                to = end.at
                dangerous = geo.segment_enters_terrain(m.at, to, terrain, "dangerous")
                difficult = dangerous or geo.segment_enters_terrain(m.at, to, terrain, "difficult")
                moves.append(movement.PlannedMove(u.id, j, end, to, math.dist(m.at, to), difficult, dangerous))
        if self._fall_back_unslowed(state, plan.members):
            moves = self.unslowed_moves(after, moves)
        return [mv for mv in moves if mv.dangerous]

    @staticmethod
    def _fall_back_heading(state: GameState, plan: _FallBack) -> None:
        """Set the plan's heading, straight away from the nearest enemy, and whether the longest roll then takes a
        model's base to the table edge (``_FallBack.edge_in_reach``)."""
        members = plan.members
        starts = plan.starts
        for u in members:  # centres only: no base placed for a round sum
            ats = list(map(_AT, u.models))
            starts.append((list(map(_X, ats)), list(map(_Y, ats))))
        enemies = state.enemies_of(members[0].side)
        count = sum([len(xs) for xs, _ in starts])
        cx = sum(chain.from_iterable(map(_X, starts))) / count
        cy = sum(chain.from_iterable(map(_Y, starts))) / count
        dx, dy = 0.0, -1.0
        if enemies:
            if len(enemies) == 1:
                nearest = enemies[0]
            else:
                # round bases measured from their centres (geo.standing_distance): no base placed for the choice;
                # the first enemy in order at the least distance, as min() keeps it, and none nearer than touching
                mine = [m for u in members for m in u.models]
                nearest, best = enemies[0], math.inf
                group = tuple(members) if all(u.hashed() for u in members) else None
                for e in enemies:  # (each enemy's distance kept on its value by the group's values, once hashed)
                    gap = geo.standing_distance(mine, e.models) if group is None else \
                        e.remember((_STANDING, group), partial(geo.standing_distance, mine, e.models))
                    if gap < best:
                        nearest, best = e, gap
                        if gap == 0.0:  # in base contact: no later enemy can be nearer
                            break
            theirs = list(map(_AT, nearest.models))
            ex = sum(map(_X, theirs)) / len(theirs)
            ey = sum(map(_Y, theirs)) / len(theirs)
            norm = math.hypot(cx - ex, cy - ey)
            if norm > 1e-9:
                dx, dy = (cx - ex) / norm, (cy - ey) / norm
        plan.heading = (dx, dy)
        longest = 6.0 * plan.dice
        ox, oy = dx * longest, dy * longest
        width, depth = state.table.width, state.table.depth
        inside = True  # every model starts with its base on the table
        for u, (xs, ys) in zip(members, starts):
            reaches = set(map(_REACH, u.models))
            if len(reaches) == 1:  # one base size (the usual unit): its least and greatest centres decide, adding
                # the same offset to each being monotone in floating point
                reach = reaches.pop()
                edge = 0.5 if reach <= 0.5 else reach
                low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
                plan.bounds.append((low_x, low_y, high_x, high_y, reach))
                if not (edge <= low_x + ox and high_x + ox <= width - edge
                        and edge <= low_y + oy and high_y + oy <= depth - edge):
                    plan.edge_in_reach = True
                    return
                inside = inside and edge <= low_x and high_x <= width - edge and edge <= low_y and high_y <= depth - edge
                continue
            for m, x, y in zip(u.models, xs, ys):
                reach = m.base.reach_inches
                edge = 0.5 if reach <= 0.5 else reach
                if not (edge <= x + ox <= width - edge and edge <= y + oy <= depth - edge):
                    plan.edge_in_reach = True
                    return
                inside = inside and edge <= x <= width - edge and edge <= y <= depth - edge
        plan.clear = inside

    def _fallen_back(self, state: GameState, plan: _FallBack, unit_id: str,
                     inches: int) -> tuple[GameState, str, tuple[str, ...]]:
        """Return the state after the unit fell back ``inches`` (the members moved and falling back, or gone off the
        table edge), what the event says and the rules it cites."""
        members = plan.members
        assert plan.heading is not None  # set by _fall_back_heading before the roll
        dx, dy = plan.heading
        width, depth = state.table.width, state.table.depth
        halved = self._fall_back_halved(state, members, dx * inches, dy * inches)
        moved_inches = inches / 2 if halved else inches
        ox, oy = dx * moved_inches, dy * moved_inches
        ends: list[list[tuple[float, float]]] = []
        at_edge: list[tuple[int, int, tuple[float, float]]] = []  # the models the table edge stopped, and where
        if plan.clear:  # no roll slides a model: each end is its start moved, in C
            ends = [list(zip(map(add, xs, repeat(ox)), map(add, ys, repeat(oy)))) for xs, ys in plan.starts]
        for i, u in enumerate(() if plan.clear else members):  # each model's end (floats in, floats out), kept on the
            # table by its base
            places = []
            for j, m in enumerate(u.models):
                x, y = m.at
                x += ox
                y += oy
                reach = m.base.reach_inches
                edge = 0.5 if reach <= 0.5 else reach  # 0.5" at least
                slid = False
                if edge > x:
                    x, slid = edge, True
                elif width - edge < x:
                    x, slid = width - edge, True
                if edge > y:
                    y, slid = edge, True
                elif depth - edge < y:
                    y, slid = depth - edge, True
                places.append((x, y))
                if slid:
                    at_edge.append((i, j, (x, y)))
            ends.append(places)
        if plan.clear and len(plan.bounds) == len(members):
            if plan.alone is None:  # the box of the longest roll holds every shorter one's (each bound moves
                # monotonically with the distance, in floating point too): nothing in it, nothing in the way of any
                longest = 6.0 * plan.dice
                low_x, low_y, high_x, high_y = _move_box(plan.bounds, dx * longest, dy * longest)
                ids = [u.id for u in members]
                alone = True
                for u in state.units:  # as _units_near, each unit's box read once, to the first that meets the move's
                    if u.models and u.embarked_in is None and u.id not in ids:
                        ex0, ey0, ex1, ey1 = u.extent
                        if ex0 <= high_x and low_x <= ex1 and ey0 <= high_y and low_y <= ey1:
                            alone = False
                            break
                plan.alone = alone
            short = 0 if plan.alone else self._fall_back_blocked(state, members, ends, (dx, dy), False,
                                                                 _move_box(plan.bounds, ox, oy))
        else:
            short = self._fall_back_blocked(state, members, ends, (dx, dy), bool(at_edge), None)
        # in its own Movement phase a unit that falls back has made that phase's fall back move (_falls_back_again)
        fell = _FALLING_BACK_MOVED if state.phase is Phase.MOVEMENT and members[0].side == state.active \
            else _FALLING_BACK
        rules: tuple[str, ...] = _FALL_BACK_RULES
        said = f"{inches}\""
        if halved:
            rules = (*rules, "published.difficult-terrain")
            said = f"{moved_inches:g}\" ({inches}\" rolled, halved through difficult terrain)"
        if at_edge and any(ends[i][j] == place for i, j, place in at_edge):  # a model reached the edge, none
            # stopped it short
            return self._left_the_battle(state, members, fell, unit_id, said, rules)
        moved = []
        for u, places in zip(members, ends):  # one new unit per member
            moved.append(evolve(u, models=tuple(evolve_each(u.models, "at", places)),
                                status=(u.status - _FALLING_BACK_ENDS) | fell))
        stopped = "" if not short else (f": {short} model{'s' if short > 1 else ''} stop{'s' if short == 1 else ''} "
                                         "short where another model stands in the way")
        return state.replace_units(*moved), f"{unit_id} falls back {said}{stopped}", rules

    @implements("published.fall-back", "published.difficult-terrain")
    def _fall_back_halved(self, state: GameState, members: Sequence[Unit], ox: float, oy: float) -> bool:
        """Say whether the fall back of the roll's full distance takes a model into, out of or through difficult
        (or dangerous) terrain: then the distance rolled is halved (4th ed. p. 48, Fall Back!).  Never for a unit
        whose every member is of a type the edition lets through unslowed (``unslowed_types["fall_back"]``, the
        table ``terrain_unslowed`` reads for its moves too: 4th edition jump infantry and bikes go over what is in
        the way)."""
        terrain = [t for t in state.terrain if t.kind in _DIFFICULT_KINDS]
        types = self.unslowed_types["fall_back"]
        if not terrain or all([u.type in types for u in members]):
            return False
        for u in members:
            for m in u.models:
                start = m.at
                end = (start[0] + ox, start[1] + oy)
                if any(geo.segment_enters_terrain(start, end, terrain, kind) for kind in _DIFFICULT_KINDS):
                    return True
        return False

    @staticmethod
    @implements("published.leaving-the-battle")
    def _left_the_battle(state: GameState, members: Sequence[Unit], fell: frozenset[Status], unit_id: str,
                         said: str, rules: tuple[str, ...]) -> tuple[GameState, str, tuple[str, ...]]:
        """Remove a falling back unit, its characters with it, once a model of it reaches the table edge: it has left
        the battle and takes no further part (4th ed. p. 48, Leaving the Battle)."""
        gone = [evolve(u, models=(), status=(u.status - _FALLING_BACK_ENDS) | fell) for u in members]
        names = ", ".join(m.name for u in members for m in u.models)
        return (state.replace_units(*gone),
                f"{unit_id} falls back {said}, reaches the table edge and leaves the battle: removed ({names})",
                (*rules, "published.leaving-the-battle"))

    @staticmethod
    @implements("published.fall-back")
    def _fall_back_blocked(state: GameState, members: Sequence[Unit], ends: list[list[tuple[float, float]]],
                           heading: tuple[float, float], slid: bool,
                           box: tuple[float, float, float, float] | None = None) -> int:
        """Stop short the falling-back models whose ends stand on other models (``ends`` changed in place).

        Return how many stopped short.  Nothing near the move (the common case) is seen from the
        units' boxes; otherwise each model stops on its straight path where it stands clear
        (``straight_moves.settle``); a unit with no clear place on the way stays where it stood.
        ``box``: the box of the move, if known (``_move_box``: the same box, from the centres' bounds).
        """
        if box is None:
            box = _move_box([(*u.extent, 0.0) for u in members], 0.0, 0.0, ends, members)
        near = CombatRules._units_near(state, members, box)
        if not near and not slid:
            return 0
        starts = [p for u in members for p in u.placed]
        flat = [p for places in ends for p in places]
        if not straight_moves.blocked([geo.Placed(s.base, e, s.facing_deg) for s, e in zip(starts, flat)], near, slid):
            return 0
        settled = straight_moves.settle(starts, flat, heading, near)
        if settled is None:
            flat, short = [s.at for s in starts], len(starts)
        else:
            flat, short = settled
        k = 0
        for places in ends:
            for j in range(len(places)):
                places[j] = flat[k]
                k += 1
        return short

    @staticmethod
    def _units_near(state: GameState, members: Sequence[Unit], box: tuple[float, float, float, float]
                    ) -> list[geo.Placed]:
        """Return the bases of the units on the table, other than ``members``, whose box meets ``box``."""
        low_x, low_y, high_x, high_y = box
        ids = {u.id for u in members}
        return [p for u in state.units if u.on_table and u.id not in ids
                and u.extent[0] <= high_x and low_x <= u.extent[2] and u.extent[1] <= high_y and low_y <= u.extent[3]
                for p in u.placed]

    # == regrouping ===================================================================
    @implements("published.regroup")
    def rule_regroup(self, state: GameState, action: Regroup) -> Ruling:
        """Rule on a Regroup test: a unit falling back, in its Movement phase, with no enemy within 6".

        Published rule (3rd ed. p. 50, 4th ed. p. 48): a falling back unit may test to
        regroup at the start of its Movement phase so long as no enemy is within 6" and the
        unit is in coherency (its characters with it) and has at least half the models it
        had at the start of the battle (its joined characters not counted).  Its characters
        regroup with it (40k3.ic.falling-back).
        """
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined} and regroups with it: regroup {unit.joined}",
                                 self.falling_back_rule)
        if not unit.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{unit.id} is not falling back", "published.regroup")
        if unit.has(Status.MOVED):
            return Ruling.forbid(f"{unit.id} has already moved this phase", "published.regroup")
        if problem := self._regroup_too_late(state, unit):
            return problem
        if 2 * len(unit.models) < unit.starting_strength:  # 4th ed. p. 48: "1. It has left at least 50% ..."
            return Ruling.forbid(f"{unit.id} cannot regroup below half strength ({len(unit.models)} of the "
                                 f"{unit.starting_strength} models it had at the start of the battle; its characters "
                                 "do not count): it must continue to fall back", "published.regroup")
        mine = [p for u in state.combined(unit.id) for p in u.placed]
        near = [e.id for e in state.enemies_of(unit.side) if geo.group_distance(mine, e.placed) <= REGROUP_INCHES + movement.EPSILON]
        if near:
            return Ruling.forbid(f"{unit.id} cannot regroup with an enemy within 6\" ({', '.join(near)})",
                                 "published.regroup")
        if not geo.coherent(mine):  # 4th ed. p. 48: "so long as ... 3. The unit is in coherency"
            return Ruling.forbid(f"{unit.id} cannot regroup out of coherency (every model, its characters too, "
                                 "within 2\" of another, all connected): it must continue to fall back",
                                 "published.regroup", "published.coherency")
        ld = self.leadership_of(state, unit.id, action.leadership)
        why = self.regroup_modifier(state, unit.id)[1]
        return Ruling.allow(f"{unit.id} may take a Regroup test on Ld {ld.value} ({ld.source}){why}",
                            "published.regroup", ld.rule)

    @staticmethod
    def _regroup_too_late(state: GameState, unit: Unit) -> Ruling | None:
        """Refuse a Regroup test once a member of the unit (a character who joined it) has moved this Movement phase:
        the test is taken at the start of the phase (published.regroup), before the unit or any of its models moves,
        so a character who joins the falling back unit that phase (3rd edition lets him) lends it no Leadership for a
        test already past."""
        movers = [u.id for u in state.combined(unit.id) if u.has(Status.MOVED) and not u.has(Status.REGROUPED)]
        if not movers:
            return None
        return Ruling.forbid(f"{unit.id} takes its Regroup test at the start of the Movement phase, before any of its "
                             f"models moves: {', '.join(movers)} has moved this phase (joining it)", "published.regroup")

    def regroup_modifier(self, state: GameState, unit_id: str) -> tuple[int, str]:
        """Return the Regroup test's modifier and its words (none in 3rd edition; 40k4 overrides)."""
        return 0, ""

    def resolve_regroup(self, state: GameState, action: Regroup, dice: Dice) -> Resolution:
        """Test on the unit's Leadership: pass and it stops falling back; fail and it falls back again."""
        unit = state.unit(action.unit)
        ld = self.leadership_of(state, unit.id, action.leadership)
        modifier, why = self.regroup_modifier(state, unit.id)
        start = len(dice.log)
        result = leadership_test(dice, ld.value, LeadershipTestKind.REGROUP, modifier)
        verdict = "regroups" if result.passed else "fails and falls back again"
        event = Event("regroup", f"{unit.id} takes a Regroup test on Ld {ld.value} ({ld.source}){why}, rolls "
                      f"{result.roll}: {verdict}", ("published.regroup", ld.rule, "core.test.leadership"),
                      _rolls(dice, start))
        if not result.passed:
            state, more = self._fall_back(state, unit.id, dice)
            members = [u.with_status(Status.MOVED, Status.REGROUPED) for u in state.combined(unit.id)]
            return state.replace_units(*members), [event, *more]
        members = [u.with_status(Status.MOVED, Status.REGROUPED, remove=(Status.FALLING_BACK,))
                   for u in state.combined(unit.id)]
        return state.replace_units(*members), [event]

    @implements("published.last-man-standing")
    def _last_man(self, state: GameState, before: GameState, dice: Dice, skip: set[str]) -> Resolution:
        """Test every unit newly reduced to one model for Last Man Standing, unless exempt (characters)."""
        events: list[Event] = []
        unit_now = state.unit
        for u in before.units:
            if u.joined or u.id in skip:
                continue
            for last in _last_models(before, u.id, unit_now):
                spared = self.last_man_spared(last)
                if spared is not None:
                    events.append(spared)
                    continue
                state, more = self._morale_check(state, last.id, dice, "is reduced to one model",
                                                 "published.last-man-standing", 0,
                                                 LeadershipTestKind.LAST_MAN_STANDING)
                unit_now = state.unit
                events += more
        return state, events

    @implements("published.last-man-standing")
    def _last_man_after_tests(self, state: GameState, before: GameState, dice: Dice, events: Sequence[Event]
                              ) -> Resolution:
        """A unit that its move's Dangerous Terrain tests (``events``) leave with one model takes Last Man Standing at
        once (3rd edition; 4th says it takes none): a unit "reduced to a single model", whatever reduced it."""
        if not any([e.kind == "casualties" for e in events]):
            return state, []
        return self._last_man(state, before, dice, set())

    # == shooting ====================================================================
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
        target_models = list(chain.from_iterable(map(_MODELS, state.combined(target_id))))
        if not shooters:
            return [], [], None, False
        models = list(map(_MODEL, shooters))
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
        nearest = list(map(max, repeat(0.0), table.least_to(kept)))  # geo.clear: max(0.0, gap)
        return fired, notes, nearest, _beyond_a_range(table, fired, kept, nearest)

    def _all_fire(self, state: GameState, shooters: Sequence[tuple[Unit, Model]], least: Sequence[float],
                  moved: frozenset[str], pick: Mapping[str, str] | None = None
                  ) -> list[tuple[Unit, Model, Weapon, int]] | None:
        """Return what each model fires when every one can (the usual volley, no terrain blocking sight), else None.

        ``_shots_one_by_one`` gives the same, each choice made once by weapons and range in the
        models' order as it makes them; here the models are read in C and a weapon chosen once
        per distinct weapons and range.  ``least``: each model's gap to the target.
        """
        models = list(map(_MODEL, shooters))
        if not all(map(can_shoot, set(map(_BS, models)))):
            return None
        if pick:  # a weapon named: each model's choice by its own weapons and what its member named
            return self._fire_picked(state, shooters, least, moved, pick)
        keys = list(zip(map(_WEAPONS_CARRIED, models), [0.0 if d < 0.0 else d for d in least],  # geo.clear
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
            moved = u.has(Status.MOVED)
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
                                              u.has(Status.MOVED)) for u, m in carriers):
                return Ruling.forbid(f"{field}: no model carrying the {said} can fire it at {target.id} now "
                                     "(beyond its range, or a Heavy or Ordnance weapon after its firer moved)", rule)
        return None

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
        target_models = list(chain.from_iterable(map(_MODELS, groups)))
        toughness = _majority(list(map(_TOUGHNESS, target_models)))
        batches: list[_Batch] = []
        parts = []  # each batch's models that fire, for the reach of its weapon (published.wound-allocation)
        for (bs, _name, apart), items in _batches(fired).items():
            parts.append(items)
            weapon = items[0][2]
            who = items[0][1].name if len(items) == 1 else f"{len(items)} models"
            rule = self.shooting_dice_rule if apart else "published.to-hit-bs"
            rolled: tuple[str, ...] = ()
            if weapon.shots_dice is not None:  # Assault D6 and the like: each model rolls its shots
                rolled = tuple(f"{m.name} ({weapon.name}): shots ({weapon.shots_dice})" for _, m, _, n in items if n)
            need = to_hit_shooting(bs)
            strength = weapon.strength_for(items[0][1].profile.s)
            wound_on = to_wound(strength, toughness)
            batches.append(_Batch(
                weapon, rule, sum(map(_SHOTS, items)), rolled,
                Stage(need, f"{who} ({weapon.name}, BS{bs}): to hit ({need}+)", rule),
                Stage(wound_on, f"{who} ({weapon.name}, S{strength} vs T{toughness}): to wound ({wound_on}+)",
                      rule if apart else "published.to-wound"),
                min(weapon.blast, len(target_models)) if weapon.blast else 0,
                (rule, *_zero_rules(strength, toughness)),  # a value-0 clause only when one decided
                f"{who} fire{'s' * (len(items) == 1)}",
                "" if wound_on is not None else f" (S{strength} cannot wound T{toughness})", strength))
        return _Attack(target_id, rules, tuple(batches), tuple(groups), fired, nearest, beyond, tuple(parts))

    @staticmethod
    def _fire(attack: _Attack, dice: Dice) -> tuple[tuple[int, ...], list[Event]]:
        """Roll each batch's shots (if its models roll them), to hit and to wound; return its wounds and events."""
        events: list[Event] = []
        got_each: list[int] = []
        said = attack.said
        for _weapon, rule, shots, rolled, to_hit, wounding, blast, cited, fire, why, _ in attack.batches:
            start = len(dice.log)
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
                text = _keep(said, key, f"{fire} {shots} shot{'s' * (shots != 1)} with {_weapon.name}: "
                             f"{hits} hit{'s' * (hits != 1)}, {got} wound{'s' * (got != 1)}{why}", WORDS_KEPT)
            events.append(Event("shots", text, cited, _rolls(dice, start)))
            got_each.append(got)
        return tuple(got_each), events

    def _allocation(self, state: GameState, attack: _Attack, got_each: tuple[int, ...]
                    ) -> tuple[list[SavesGroup] | None, dict[ModelRef, tuple[Unit, Model]]]:
        """Return the save groups of an attack's wounds (``_save_groups``; None: nothing to allocate) and the target's
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
        known = attack.allocations.get(got_each, _NONE_YET)
        if known is _NONE_YET:
            wounds = [WoundBatch(got, batch.weapon.ap, strength=batch.strength)
                      for got, batch in zip(got_each, attack.batches)]
            known = _keep(attack.allocations, got_each,
                          _save_groups(attack.models, attack.pool, wounds, attack.target_id, attack.reach),
                          ALLOCATIONS_KEPT)
        return known, attack.models

    def _shooting_attack(self, state: GameState, fired: Sequence[tuple[Unit, Model, Weapon, int]],
                         target_id: str, dice: Dice, rules: tuple[str, ...],
                         nearest: Sequence[float] | None = None) -> tuple[list[Unit] | None, list[Event]]:
        """Roll to hit and to wound per batch (same BS and weapon), then allocate and save (``_attack``).

        Return the target's units that took wounds (their slain removed; None if no wound was
        allocated), for the caller to put in its one new state with whatever else the action
        changes (then ``_release_orphans``), and the events.
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
        hurt = _unsaved_taken(*taken, None, outright)
        wounded, slain = _wounded_units(state, hurt)
        events += _outright_events(outright, taken[1])
        if slain:
            events.append(_casualties(slain, rules))
        events += _lost_events(attack, got_each, taken, hurt)
        return wounded, events

    def _saves(self, state: GameState, attack: _Attack, got_each: tuple[int, ...], dice: Dice
               ) -> tuple[tuple[list[SavesGroup], dict[ModelRef, tuple[Unit, Model]], tuple[int, ...]] | None,
                          list[Event]]:
        """Allocate an attack's wounds and roll the saves per group: the groups, the models, the unsaved wounds per
        group and the events (None instead of the first three when no wound was allocated)."""
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
            start = len(dice.log)
            saved = _roll_saves(group, dice)
            unsaved.append(group[2] - saved)
            key = (group[3], group[2], saved, group[0][1] is None)
            text = said.get(key)
            if text is None:  # _saves_event's words
                text = _keep(said, key, _saves_event(group, saved, rules, ())[1], WORDS_KEPT)
            events.append(Event("saves", text, rules, _rolls(dice, start)))
        return (groups, models, tuple(unsaved)), events

    def picked_out(self, state: GameState, target: Unit) -> bool:
        """Say whether a character who has joined a unit is shot at as a target of his own (none in 3rd edition)."""
        return False

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
        key = None if taken is None else (got_each, taken[2])
        if key is None and attack.reach_short() and any(got_each):  # wounds that found no model to take them: told
            key = (got_each, None)
        outcomes = plan.outcomes
        outcome = outcomes.get(key)
        if outcome is None:
            outcome = self._volley_outcome(state, plan, got_each, taken, keeping)
            if keeping:
                _keep(outcomes, key, outcome, VOLLEY_OUTCOMES_KEPT)
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
        moved = frozenset(u.id for u in members if u.has(Status.MOVED))
        shooters: list[tuple[Unit, Model]] = []  # each model with its unit (a character that fired already aside)
        for u in members:
            if not (u.is_character and u.has(Status.SHOT)):
                shooters += zip(repeat(u), u.models)
        fired, notes, nearest, beyond = self._shots(state, shooters, target_id, moved, _weapon_pick(members, choice))
        rules: tuple[str, ...] = tuple(dict.fromkeys(("published.shooting", self.same_target_rule))) \
            if len(members) > 1 else ("published.shooting",)
        if choice is not None:  # the weapon its player named: the rule that lets each model fire one of its own
            rules = (*rules, "published.weapon-profiles")
        events = [Event("shoot", f"{shooter.id} shoots at {target_id}"
                        + (f" (with {', '.join(u.id for u in members[1:])}, at the same target)" if len(members) > 1
                           else ""), rules)]
        events += map(_note_event, notes)
        attack = self._attack(state, fired, target_id, ("published.wound-allocation",
                                                        *self._carry_rule(state, target_id)), nearest, beyond)
        barred = frozenset(u.id for u, _, w, _ in fired if bars_assault(u, w))  # published.assault-after-firing
        return _Volley(shooter.id, tuple(members), tuple(events), attack, {}, {}, barred)

    def _volley_outcome(self, state: GameState, plan: _Volley, got_each: tuple[int, ...],
                        taken: tuple[list[SavesGroup], dict[ModelRef, tuple[Unit, Model]], tuple[int, ...]] | None,
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
            hurt = _unsaved_taken(*taken, None, outright)
            told = _lost_events(attack, got_each, taken, hurt)
        else:
            told = _lost_events(attack, got_each, None)
        if not keeping:
            after, slain, check = self._volley_after(state, plan, hurt)
        else:  # the same wounds on the same models (None: none allocated), the same state
            key = None if hurt is None else tuple(hurt.items())
            shared = plan.afters.get(key)
            if shared is None:
                after, slain, check = self._volley_after(state, plan, hurt)
                shared = _keep(plan.afters, key, (after, check, slain), VOLLEY_OUTCOMES_KEPT)
            after, check, slain = shared
        if slain:
            told = (_casualties(slain, attack.rules), *told)
        if outright:
            assert taken is not None  # a model killed outright took a wound
            told = (*_outright_events(outright, taken[1]), *told)
        return after, told, check

    def _volley_after(self, state: GameState, plan: _Volley, hurt: dict[ModelRef, int] | None
                      ) -> tuple[GameState, list[str], _Check]:
        """Return the state after a volley's unsaved wounds (``hurt``; None: no wound allocated), the slain models'
        names and what the casualties call for (``_volley_outcome``)."""
        target_id = plan.attack.target_id
        wounded: list[Unit] | None = None
        slain: list[str] = []
        if hurt is not None:
            wounded, slain = _wounded_units(state, hurt)
        changed = {u.id: u for u in wounded} if wounded else {}
        barred = plan.barred
        for u in plan.members:
            u = changed.get(u.id, u)
            # Unit.with_status(Status.SHOT), and the bar on assaulting when it fired such a weapon
            changed[u.id] = evolve(u, status=u.status | (_SHOT_NO_ASSAULT if u.id in barred else _SHOT))
        shooter_id = plan.shooter_id
        fired_at = state.fired_at if state.target_fired_at(shooter_id) is not None else (
            *state.fired_at, (shooter_id, target_id))
        after = evolve(state, units=tuple([changed.get(u.id, u) for u in state.units]), fired_at=fired_at)
        if wounded is not None:  # as _apply_wounds does
            after = self.shooting_losses_counted(_release_orphans(after), state, target_id)
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
            if not u.joined and _last_models(before, u.id, unit_now):
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
        alone, spared Last Man Standing (``last_man_spared``: a ``last_man`` event), takes neither, as before; when
        the attack destroyed his unit around him a ``morale_spared`` event says so (3rd edition: 40k3.ic.no-last-man,
        published.morale-casualties)."""
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
            return state, events
        if isinstance(check, _MoraleDue):
            state, more = self._morale_check(state, check.unit_id, dice, check.why, "published.morale-casualties")
            return state, events + more
        return state, [*events, check]  # a pinned unit spared the check: said

    # == psychic powers ================================================================
    @implements("40k3.psyker.test", "40k3.psyker.as-shooting", "published.40k4-psychic-test",
                "published.40k4-psychic-shooting")
    def rule_manifest(self, state: GameState, action: Manifest) -> Ruling:
        """Rule on using a power: a psyker, one power a turn, its phase, and a target as for shooting (each edition's
        clauses: ``psychic_test_rule``, ``psychic_shooting_rule``)."""
        psyker = state.unit(action.psyker)
        if problem := self._own_active(state, psyker):
            return problem
        if "psyker" not in self.effective_rules(state, psyker.id):
            return Ruling.forbid(f"{psyker.id} is not a psyker (no 'psyker' in its rules)", self.psychic_test_rule)
        if psyker.has(Status.USED_POWER):
            return Ruling.forbid(f"{psyker.id} has already taken a psychic test this turn: never more than one "
                                 "power a turn", self.psychic_test_rule)
        power = find_power(action.power, state.powers)
        if power is None:
            return Ruling.forbid(f"unknown power {action.power!r} (known: {', '.join(known_powers(state.powers))})",
                                 self.psychic_test_rule)
        if power.phase != state.phase:
            return Ruling.forbid(f"{power.name} is used in the {power.phase.value} phase, not the "
                                 f"{state.phase.value} phase", self.psychic_test_rule)
        if action.target is None:
            return Ruling.forbid(f"{power.name} needs a target: field target", self.psychic_shooting_rule)
        return self._power_target(state, psyker, power, action.target)

    def _power_target(self, state: GameState, psyker: Unit, power: Power, target_id: str) -> Ruling:
        rule = self.psychic_shooting_rule
        target = state.unit(target_id)
        if power.effect is PowerEffect.SHOOTING:
            host = state.unit(psyker.joined) if psyker.joined else psyker
            for u in dict.fromkeys((psyker, host)):  # a run is instead of shooting: said as such, not as fired
                if u.has(Status.RAN):
                    return Ruling.forbid(f"{u.id} ran this Shooting phase instead of shooting: a psychic shooting "
                                         "attack is shooting", self.fleet_rule, rule)
            if psyker.has(Status.SHOT) or host.has(Status.SHOT):
                return Ruling.forbid(f"{psyker.id} has already fired this turn; a psychic shooting attack is its "
                                     "shooting", rule)
            if psyker.has(Status.LOCKED):
                return Ruling.forbid(f"{psyker.id} is locked in close combat and cannot shoot", rule)
            for u in dict.fromkeys((psyker, host)):  # as a shot: not while pinned
                if problem := self._pinned(u, "shoot, nor make a psychic shooting attack"):
                    return Ruling.forbid(problem.reason, *problem.rules, rule)
            earlier = state.target_fired_at(host.id)
            if earlier is not None and earlier != self.aimed_at(state, target):
                return Ruling.forbid(f"{host.id} has fired at {earlier} this turn: {psyker.id}'s psychic shooting "
                                     "attack must take the same target", rule, self.same_target_rule)
            inner = self.target_ruling(state, psyker.id, target_id)
            if not inner.legal:
                return Ruling.forbid(inner.reason, *inner.rules, rule)
        elif target.side == psyker.side:
            return Ruling.forbid(f"{target.id} is on the same side as {psyker.id}", rule)
        else:  # any other psychic attack on an enemy follows the shooting rules for what it may pick out as well
            if state.phase is Phase.SHOOTING and psyker.has(Status.LOCKED):
                # the shooting rules it follows: a model locked in close combat cannot shoot, so in the Shooting phase
                # he makes no psychic attack either (40k3.psyker.as-shooting's decision; 4th edition alike)
                return Ruling.forbid(f"{psyker.id} is locked in close combat: in the Shooting phase a psychic attack "
                                     f"follows the shooting rules, and a model locked in close combat cannot shoot",
                                     rule, "published.shooting-into-combat")
            if state.phase is Phase.SHOOTING:
                # a unit that ran (Fleet) did so instead of shooting: in that Shooting phase it makes no attack by the
                # shooting rules, so no psychic attack either, a Morale power as much as a shooting one
                for u in dict.fromkeys((psyker, state.unit(psyker.joined) if psyker.joined else psyker)):
                    if u.has(Status.RAN):
                        return Ruling.forbid(f"{u.id} ran this Shooting phase instead of shooting: in the Shooting "
                                             f"phase a psychic attack follows the shooting rules, so {psyker.id} "
                                             f"makes none after running", self.fleet_rule, rule)
                # and a power of the Shooting phase is used instead of shooting (session 23): not once he has fired
                if psyker.has(Status.SHOT):
                    return Ruling.forbid(f"{psyker.id} has already fired this turn; a power of the Shooting phase is "
                                         "used instead of shooting", rule)
            # published Pinning (4th): a pinned unit "may not move, shoot, assault, or make any other actions"
            for u in dict.fromkeys((psyker, state.unit(psyker.joined) if psyker.joined else psyker)):
                if problem := self._pinned(u, "use a psychic power either: a pinned unit makes no other action"):
                    return Ruling.forbid(problem.reason, *problem.rules, self.psychic_test_rule)
            special = self.out_of_reach_of_fire(state, target) or self.character_target_ruling(state, psyker, target)
            if special is not None and not special.legal:
                return Ruling.forbid(special.reason, *special.rules, rule)
        group = [p for u in state.combined(target.joined or target.id) for p in u.placed]
        if not geo.unit_line_of_sight(psyker.placed, group, state.terrain):
            return Ruling.forbid(f"{psyker.id} itself has no line of sight to {target.id}", rule)
        dist = geo.group_distance(psyker.placed, group)
        if dist > power.range + geo.EPSILON:
            return Ruling.forbid(f"{target.id} is {dist:.1f}\" from {psyker.id}, beyond {power.name}'s range of "
                                 f"{power.range:g}\"", rule)
        if power.effect is PowerEffect.SHOOTING and power.weapon is not None \
                and not self._power_shots(state, psyker, power.weapon, dist):
            kind = power.weapon.type.value.replace("_", " ")
            return Ruling.forbid(f"{psyker.id} moved this turn and {power.name} is a {kind} power: as a weapon of its "
                                 f"type it fires no shots after moving at {dist:.1f}\"", rule, "published.weapon-profiles")
        return Ruling.allow(f"{psyker.id} may take a psychic test to use {power.name} on {target.id} "
                            f"({dist:.1f}\", in sight)", self.psychic_test_rule, rule)

    @implements("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.weapon-profiles")
    def _power_shots(self, state: GameState, psyker: Unit, weapon: Weapon, dist: float) -> int:
        """Return the shots of a psychic shooting attack at ``dist``: by its weapon type, as a shot's (a Heavy power
        fires none once the psyker moved this turn, a Rapid Fire one by its range and moving).  The psyker's own move
        decides, as a firer's (published.weapon-profiles): moving with his unit moves him, and a squad he joined that
        stood still does not make him stand still."""
        chosen = self._weapon_at((weapon,), dist, psyker.has(Status.MOVED))
        return chosen[1] if chosen is not None else 0

    def perils_words(self, result: PsychicResult) -> str:
        """Say what Perils of the Warp did to the psyker (3rd edition: a hit of Strength D6, no save of any kind)."""
        hurt = "wounded" if result.wounded else "not wounded"
        return f"is hit at S{result.perils_strength}, no save: {hurt}"

    @implements("40k3.psyker.perils", "40k3.psyker.perils-on-2", "published.40k4-psychic-shooting",
                "published.last-man-standing")
    def resolve_manifest(self, state: GameState, action: Manifest, dice: Dice) -> Resolution:
        """Take the psychic test, suffer Perils of the Warp, and use the power if the test allows it."""
        psyker = state.unit(action.psyker)
        power = find_power(action.power, state.powers)
        assert power is not None and action.target is not None  # checked by rule_manifest
        aimed = state.unit(action.target)
        if power.effect is PowerEffect.SHOOTING and aimed.joined is not None and self.picked_out(state, aimed):
            return self._apart(state, aimed, lambda alone: self.resolve_manifest(alone, action, dice))
        model = psyker.models[0]
        start = len(dice.log)
        result = self.psychic_test(dice, model.profile.ld, model.profile.t, model.wounds_left,
                                   model.profile.invulnerable)
        verdict = "passed" if result.passed else "failed"
        events = [Event("psychic_test", f"{model.name} takes a psychic test for {power.name}: {result.roll} against "
                        f"Ld {model.profile.ld}, {verdict}", (self.psychic_test_rule,), _rolls(dice, start))]
        before = state
        after = state.replace_unit(psyker.with_status(Status.USED_POWER))
        if result.perils:
            # the 3rd edition hit's to-wound roll against a psyker of Toughness 0 is decided by core.zero.t
            events.append(Event("perils", f"Perils of the Warp! {model.name} {self.perils_words(result)}",
                                (self.perils_rule, *_zero_rules(result.perils_strength or 1, model.profile.t))
                                if result.perils_strength is not None else (self.perils_rule,)))
            if result.wounded:
                lost = 1
                if _killed_outright(psyker, model, result.perils_strength):  # 3rd edition: S double his T or more
                    lost = model.wounds_left
                    events.append(_outright_event(model, result.perils_strength or 0, lost))
                after, slain = _apply_wounds(after, {(psyker.id, 0): lost})
                if slain:
                    events.append(Event("casualties", f"slain: {', '.join(slain)}", (self.perils_rule, "core.zero.w"),
                                        data=(("slain", len(slain)),)))
                    # a psyker slain in his unit may leave it with one model: Last Man Standing at once (3rd
                    # edition; 4th tells it takes none), before the power a 2 still uses (published.last-man-standing)
                    after, more = self._last_man(after, before, dice, set())
                    events += more
                    before = after  # the power's casualties are counted from here: the last man tests once
        if not result.power_used:
            return after, events
        rules = (self.psychic_test_rule,) + ((self.power_on_two_rule,) if result.roll == 2 else ())
        if power.effect is PowerEffect.SHOOTING:
            rules += (self.psychic_shooting_rule,)
        events.append(Event("power_used", f"{model.name} uses {power.name} on {action.target}", rules))
        target = state.unit(action.target)
        target_id = target.joined or target.id
        if power.effect is PowerEffect.SHOOTING:
            assert power.weapon is not None
            group = [p for u in state.combined(target_id) for p in u.placed]
            shots = self._power_shots(state, psyker, power.weapon, geo.group_distance(psyker.placed, group))
            wounded, more = self._shooting_attack(after, [(psyker, model, power.weapon, shots)], target_id, dice,
                                                  (self.psychic_shooting_rule, "published.wound-allocation",
                                                   *self._carry_rule(after, target_id)))
            events += more
            if wounded is not None:
                after = _release_orphans(after.replace_units(*wounded))
            if after.unit(psyker.id).alive:  # a power fired as a Heavy one bars the assault as the weapon does
                after = after.replace_unit(after.unit(psyker.id).with_status(
                    Status.SHOT, *((Status.FIRED_NO_ASSAULT,) if bars_assault(psyker, power.weapon) else ())))
            after = _fired(after, psyker.joined or psyker.id, target_id)
            after = self.shooting_losses_counted(after, before, target_id)
            after, more = self._after_casualties(after, before, target_id, dice)
            return after, events + more
        if state.phase is Phase.SHOOTING and after.unit(psyker.id).alive:
            # a power used in the Shooting phase is used instead of shooting (40k3.psyker.as-shooting's decision,
            # session 23): the psyker fires no weapon and runs no run after it
            after = after.replace_unit(after.unit(psyker.id).with_status(Status.SHOT))
        after, more = self._morale_check(after, target_id, dice, f"is struck by {power.name}",
                                         self.psychic_test_rule, power.modifier)
        return after, events + more

    # == assault ======================================================================
    @implements("40k3.ic.assault-alone", "40k3.char.must-assault", "40k4.assault.alone", "40k4.assault.must-charge")
    def rule_assault(self, state: GameState, action: Assault) -> Ruling:
        """Rule on an assault: the unit with its characters, not engaged yet, an enemy within range."""
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if problem := with_its_unit(unit, "assaults when its unit does", "assault with", self.must_assault_rule):
            return problem
        if unit.has(Status.ASSAULTED) or unit.has(Status.CHARGED):
            return Ruling.forbid(f"{unit.id} has already assaulted this turn", "published.assault-range")
        if unit.has(Status.LOCKED):
            return Ruling.forbid(f"{unit.id} is already locked in close combat", self.locked_rule)
        if unit.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{unit.id} is falling back and cannot assault", "published.fall-back")
        if problem := self._pinned(unit, "assault") or self.assault_after_run(state, unit):
            return problem
        target = state.unit(action.target)
        if target.side == unit.side:
            return Ruling.forbid(f"{target.id} is on the same side as {unit.id}: a unit assaults an enemy unit",
                                 "published.assault-range")
        if not target.alive:
            return Ruling.forbid(f"{target.id} has no models left", "core.zero.w")
        if target.embarked_in is not None:
            return Ruling.forbid(f"{target.id} is embarked in {target.embarked_in}, off the table: it cannot be "
                                 "assaulted", "published.transports")
        members = state.combined(unit.id)
        if problem := self.assault_after_shooting(state, unit, members, target) or _assault_after_firing(members):
            return problem
        reach, rule = self.assault_range(state, unit, members)
        mine = [p for u in members for p in u.placed]
        theirs = [p for u in state.combined(target.id) for p in u.placed]
        dist = geo.group_distance(mine, theirs)
        if dist > reach + geo.EPSILON:
            return Ruling.forbid(f"{target.id} is {dist:.1f}\" from {unit.id}, beyond its assault range of "
                                 f"{reach:g}\"", rule)
        with_chars = f" with {', '.join(u.id for u in members[1:])}" if len(members) > 1 else ""
        said = f"{unit.id}{with_chars} may assault {target.id}, {dist:.1f}\" away (range {reach:g}\")"
        notes = self._assault_terrain_notes(state, unit, members, theirs, reach)
        if state.combined(target.id)[0].has(Status.FALLING_BACK):
            return Ruling.allow(f"{said}; it is falling back: it tests to regroup at once, and is destroyed if it "
                                "fails", rule, "published.assaulted-while-falling-back", notes=notes)
        return Ruling.allow(said, rule, notes=notes)

    def _assault_terrain_notes(self, state: GameState, unit: Unit, members: Sequence[Unit],
                               theirs: Sequence[geo.Placed], reach: float) -> tuple[str, ...]:
        """Say what difficult terrain on the chargers' way will ask when the assault is resolved (``_assault_terrain``):
        nothing unless a difficult or dangerous piece lies where the chargers and their target stand."""
        rough = [t for t in state.terrain if t.kind in _DIFFICULT_KINDS]
        if not rough:
            return ()
        placed = [*theirs, *(p for u in members for p in u.placed)]
        low_x, low_y = min(p.at[0] for p in placed) - reach, min(p.at[1] for p in placed) - reach
        high_x, high_y = max(p.at[0] for p in placed) + reach, max(p.at[1] for p in placed) + reach
        if not any(t.bounds[0] <= high_x and low_x <= t.bounds[2] and t.bounds[1] <= high_y and low_y <= t.bounds[3]
                   for t in rough):
            return ()
        new_at, _ = _charge_spots(state, members, [p for p in theirs], reach)
        moves = _assault_paths(state, members, new_at, rough)
        if not any([mv.difficult for mv in moves]):
            return ()
        way = self._assault_way(state, unit, members, moves)
        tested = sum([mv.dangerous for mv in way.moves])
        if way.unslowed:
            return (f"assaults through difficult terrain unslowed: {tested} Dangerous Terrain test"
                    f"{'s' * (tested != 1)} [published.assault-terrain, published.dangerous-terrain]",)
        doubled = ", doubled" if way.factor != 1 else ""
        dangerous = f"; {tested} Dangerous Terrain test{'s' * (tested != 1)}" if tested else ""
        return (f"assaults through difficult terrain: the highest of {way.dice}D6{doubled} must reach {way.need:.2f}\" "
                f"for every charger to go all the way{dangerous} [published.assault-terrain, {way.rule}]",)

    def _assault_way(self, state: GameState, unit: Unit, members: Sequence[Unit],
                     moves: list[movement.PlannedMove]) -> _AssaultWay:
        """Work out what difficult terrain on the chargers' way asks before any die, for the ruling's note and the
        resolution alike: a type the edition lets through unslowed (``terrain_unslowed``, kind "assault") marks who
        tests (``unslowed_moves``); any other rolls ``difficult_terrain_dice`` against the longest difficult path over
        the type's factor (4th ed. cavalry double the highest die)."""
        if self.terrain_unslowed(state, unit, kind="assault"):
            return _AssaultWay(True, self.unslowed_moves(state, moves), 0.0, 1, 0, 0, "published.assault-terrain")
        need = max(mv.length for mv in moves if mv.difficult)
        factor = min([self.assault_terrain_factor.get(u.type, 1) for u in members])
        n, below, dice_rule = self.difficult_terrain_dice(state, unit, need / factor)
        return _AssaultWay(False, moves, need, factor, n, below, dice_rule)

    @staticmethod
    @implements("published.assault-after-shooting")
    def assault_after_shooting(state: GameState, unit: Unit, members: Sequence[Unit], target: Unit) -> Ruling | None:
        """Refuse an assault on any unit but the one the assaulting unit (or a character in it) shot at this turn.

        A psychic shooting attack counts as shooting (it is recorded as the unit's target too).
        The unit shot at is the unit with the characters joined to it, and an ordinary
        character who outlived it (``last_of``); an independent character left alone after
        it was destroyed is a unit of his own, not the unit shot at.
        """
        shot_at = None
        for u in members:
            shot_at = state.target_fired_at(u.id)
            if shot_at is not None:
                break
        if shot_at is None:
            return None
        group = state.combined(target.joined or target.id)
        if any(u.id == shot_at or u.last_of == shot_at for u in group):
            return None
        return Ruling.forbid(f"{unit.id} fired at {shot_at} this turn: it may assault only the unit it shot at, "
                             f"not {target.id}", "published.assault-after-shooting")

    @places_apart  # every spot _charge_spot picks is clear of every model as they stand by then
    @implements("40k4.cc.locked")
    def resolve_assault(self, state: GameState, action: Assault, dice: Dice) -> Resolution:
        """Move each model straight into base contact with the nearest enemy model it can reach; lock both units.

        A falling back target first tests to regroup; if it fails it is destroyed before anyone moves.
        """
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        state, caught = self._assaulted_falling_back(state, action.target, dice)
        if caught and not state.unit(action.target).alive:  # scattered before any charging model moved
            declared = [u.with_status(Status.CHARGED, Status.ASSAULTED) for u in members]
            return state.replace_units(*declared), caught
        reach, rule = self.assault_range(state, unit, members)
        target_ids = [u.id for u in state.combined(state.unit(action.target).id)]
        theirs = [m.placed for tid in target_ids for m in state.unit(tid).models]
        new_at, contacts = _charge_spots(state, members, theirs, reach)
        events: list[Event] = []
        moves: list[movement.PlannedMove] = []
        rough = [t for t in state.terrain if t.kind in _DIFFICULT_KINDS]
        if rough:  # a table without difficult or dangerous terrain asks nothing more
            moves = _assault_paths(state, members, new_at, rough)
            if any([mv.difficult for mv in moves]):
                moves, new_at, contacts, said = self._assault_terrain(state, unit, members, theirs, reach, moves,
                                                                      rough, dice, contacts)
                events.append(said)
        moved_units = []
        for u in members:
            models = tuple(m.moved_to(new_at[(u.id, i)]) for i, m in enumerate(u.models))
            moved_units.append(evolve(u, models=models).with_status(Status.CHARGED, Status.ASSAULTED))
        state = state.replace_units(*moved_units)
        if any([mv.dangerous for mv in moves]):  # each test is taken as its model moves: the slain reach no one
            before = sum([len(u.models) for u in members])
            state, tested = self._dangerous_tests(state, moves, dice)
            events += tested
            left = [m.placed for u in members for m in state.unit(u.id).models]
            if len(left) != before:  # no charger left in contact: none is locked with the target
                contacts = sum([any([geo.distance(p, t) <= _CONTACT for t in theirs]) for p in left])
        if contacts:  # a unit is locked once a model of it is engaged (4th ed., Move Charging Units)
            state = state.replace_units(*(state.unit(u.id).with_status(Status.LOCKED) for u in members))
            pinned = [t for t in target_ids if state.unit(t).has(Status.PINNED)]
            state = state.replace_units(*(state.unit(t).with_status(Status.LOCKED, remove=(
                Status.PINNED, Status.NEWLY_PINNED)) for t in target_ids))
            if pinned:  # published Pinning: assaulted, a pinned unit is no longer pinned and fights normally
                events.append(Event("pinned", f"{action.target} is assaulted: no longer pinned, it fights normally",
                                    ("published.pinning",)))
        rules = tuple(dict.fromkeys((rule, self.locked_rule))) if len(members) > 1 else (rule,)
        return state, [*caught, Event("assault", f"{unit.id} assaults {action.target}: {contacts} model"
                                      f"{'s' * (contacts != 1)} in base contact", rules), *events]

    @implements("published.assault-terrain", "published.difficult-terrain", "published.dangerous-terrain")
    def _assault_terrain(self, state: GameState, unit: Unit, members: Sequence[Unit], theirs: Sequence[geo.Placed],
                         reach: float, moves: list[movement.PlannedMove], rough: Sequence[geo.Terrain], dice: Dice,
                         contacts: int) -> tuple[list[movement.PlannedMove], dict[tuple[str, int], geo.Point], int, Event]:
        """Slow an assault through difficult terrain as a move in the Movement phase is (4th ed., Move Charging Units:
        "All the models in a charging unit make their Assault move subject to the same rules as in the Movement
        phase"): the highest of 2D6 (3D6 with Move Through Cover; 4th ed. cavalry double it) is how far every
        charger moves, each model going as far as it gets towards the enemy; a type the edition lets through
        unslowed (``terrain_unslowed``, kind "assault": 4th ed. bikes) takes Dangerous Terrain tests instead.

        Return the planned moves (the tested models marked), where each charger ends, how many touch an enemy, and
        the event that says so.
        """
        way = self._assault_way(state, unit, members, moves)
        if way.unslowed:
            moves = way.moves
            tested = sum([mv.dangerous for mv in moves])
            new_at = {(mv.unit_id, mv.index): mv.to for mv in moves}
            return moves, new_at, contacts, Event(
                "difficult_terrain", f"{unit.id} assaults through difficult terrain unslowed: {tested} Dangerous "
                f"Terrain test{'s' * (tested != 1)}", ("published.assault-terrain", "published.dangerous-terrain"))
        factor, n, below, dice_rule = way.factor, way.dice, way.below, way.rule
        start = len(dice.log)
        allowed = factor * dice.highest(n, f"{unit.id}: difficult terrain (assault)", dice_rule, below)
        doubled = f" (the highest die {allowed // factor} doubled: cavalry)" if factor != 1 else ""
        short = any([mv.length > allowed + movement.EPSILON for mv in moves])
        if short:  # each charger goes as far as the roll lets it (a spot within the roll is kept as it was)
            new_at, contacts = _charge_spots(state, members, theirs, min(reach, float(allowed)))
            moves = _assault_paths(state, members, new_at, rough)
        else:
            new_at = {(mv.unit_id, mv.index): mv.to for mv in moves}
        said = (f"{unit.id} assaults through difficult terrain: rolls {allowed}\"{doubled}"
                + (", and its assault move is cut short" if short else ""))
        return moves, new_at, contacts, Event("difficult_terrain", said,
                                              ("published.assault-terrain", dice_rule), _rolls(dice, start))

    @implements("published.assaulted-while-falling-back")
    def _assaulted_falling_back(self, state: GameState, target_id: str, dice: Dice) -> Resolution:
        """Test a falling back unit that is assaulted to regroup at once: pass and it fights; fail and it is destroyed.

        Published rule (4th ed., Assaulted while falling back): before any charging model
        moves, with no modifier, even where it could not otherwise regroup (an enemy within 6").
        The unit's characters are part of it: they regroup, or are scattered, with it.
        """
        host_id = state.unit(target_id).joined or target_id
        group = state.combined(host_id)
        if not group[0].has(Status.FALLING_BACK):
            return state, []
        ld = self.leadership_of(state, host_id)
        start = len(dice.log)
        result = leadership_test(dice, ld.value, LeadershipTestKind.REGROUP)
        rules = ("published.assaulted-while-falling-back", "published.regroup", ld.rule, "core.test.leadership")
        said = f"{host_id} is assaulted while falling back: Regroup test on Ld {ld.value} ({ld.source}), rolls " \
               f"{result.roll}"
        if result.passed:
            regrouped = [u.with_status(remove=(Status.FALLING_BACK,)) for u in group]
            return state.replace_units(*regrouped), [Event("regroup", f"{said}: it regroups and fights", rules,
                                                           _rolls(dice, start))]
        scattered = [evolve(u, models=()) for u in group]
        slain = [m.name for u in group for m in u.models]
        return state.replace_units(*scattered), [
            Event("regroup", f"{said}: it fails, and is scattered and destroyed", rules, _rolls(dice, start)),
            Event("destroyed", f"{host_id} is destroyed: slain {', '.join(slain)}",
                  ("published.assaulted-while-falling-back", "core.zero.w"), data=(("slain", len(slain)),)),
        ]

    # == close combat ===================================================================
    def _contact_units(self, state: GameState, unit_id: str) -> list[str]:
        """Return every unit in the same close combat: linked by base contact, and characters with their units."""
        return list(self._engagement(state, unit_id).units)

    @staticmethod
    def _engagement(state: GameState, unit_id: str) -> Engagement:
        """Return the close combat of a unit with who touches whom in it, worked out once per state.

        Ruling on a fight and resolving it both ask; every step of the fight reads it.
        """
        return state.remember(("close combat", unit_id),
                              lambda: Engagement(state, unit_id, partial(striking_initiative, state)))

    @implements("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only", "core.zero.a")
    def rule_allocate(self, state: GameState, action: Allocate) -> Ruling:
        """Rule on splitting attacks between enemy models in base contact.

        A character may always split (40k3.char.attack-allocation); ordinary troopers only
        when the enemy models they touch differ in WS or S (decision: either one), and
        then each model of the unit splits its attacks as declared.
        """
        char = state.unit(action.character)
        if not char.alive:
            return Ruling.forbid(f"{char.id} has no models left", "core.zero.w")
        if not action.attacks:
            return Ruling.forbid("field attacks: nothing allocated; name at least one enemy model (or unit) in base "
                                 "contact and how many attacks go to it, e.g. {\"B1\": 2}",
                                 self.allocation_rule)
        engaged = [(e, m) for e in state.enemies_of(char.side) for m in e.models
                   if any(geo.in_base_contact(m.placed, c.placed) for c in char.models)]
        if not engaged:
            return Ruling.forbid(f"{char.id} is not in base contact with any enemy model", self.allocation_contact_rule)
        if not char.is_character and len({(m.profile.ws, m.profile.s) for _, m in engaged}) < 2:
            return Ruling.forbid(f"{char.id} is not a character: ordinary troopers may split their attacks only "
                                 "when their opponents differ in WS or S", self.allocation_rule)
        for key, n in action.attacks.items():
            if n < 1:
                return Ruling.forbid(f"attacks.{key}: expected 1 or more attacks, got {n}", self.allocation_rule)
            if not any(e.id == key or m.name == key for e, m in engaged):
                return Ruling.forbid(f"attacks.{key}: no enemy model of that unit or name is in base contact with "
                                     f"{char.id}; it can wound only those", self.engaged_only_rule)
        have = (sum(self._attacks(state, char, m) for m in char.models) if char.is_character
                else max(self._attacks(state, char, m) for m in char.models))  # troopers: per model
        if have == 0:
            return Ruling.forbid(f"{char.id} has Attacks 0: it makes no close combat attacks, so it has none to split",
                                 "core.zero.a", self.allocation_rule)
        if sum(action.attacks.values()) > have:
            split = sum(action.attacks.values())
            return Ruling.forbid(f"{char.id} splits {split} attack{'s' * (split != 1)} but has {have}",
                                 self.allocation_rule)
        return Ruling.allow(f"{char.id} splits its {have} attack{'s' * (have != 1)}: "
                            + ", ".join(f"{n} on {k}" for k, n in action.attacks.items()),
                            *dict.fromkeys((self.allocation_rule, self.engaged_only_rule)))

    def resolve_allocate(self, state: GameState, action: Allocate, dice: Dice) -> Resolution:
        """Record the split until the character fights."""
        kept = tuple(a for a in state.allocations if a[0] != action.character)
        state = evolve(state, allocations=(*kept, (action.character, tuple(action.attacks.items()))))
        return state, [Event("allocate", f"{action.character} declares its attacks: "
                             + ", ".join(f"{n} on {k}" for k, n in action.attacks.items()),
                             (self.allocation_rule,))]

    @implements("published.close-combat")
    def _attacks(self, state: GameState, unit: Unit, model: Model) -> int:
        """Return a model's close combat attacks: its A, +1 on the turn it charged, +1 for a second single-handed
        weapon (published); Attacks 0 stays 0 (core.zero.a)."""
        base = close_combat_attacks(model.profile.a)
        if not base:
            return 0
        return base + unit.has(Status.CHARGED) + self._second_weapon(state, model.weapons)

    def _second_weapon_notes(self, state: GameState, combat: Iterable[str]) -> list[Event]:
        """Say, per unit of a close combat, which of its models strike with an extra Attack for a second weapon."""
        events = []
        for uid in combat:
            armed = [m.name for m in state.unit(uid).models
                     if close_combat_attacks(m.profile.a) and self._second_weapon(state, m.weapons)]
            if armed:
                events.append(Event("second_weapon", f"{', '.join(armed)} ({uid}) carr{'ies' if len(armed) == 1 else 'y'} "
                                    "two single-handed weapons (a pistol or close combat weapon in each hand): "
                                    "+1 Attack when striking", ("published.close-combat",)))
        return events

    @staticmethod
    def _fixed_initiative_notes(state: GameState, engagement: Engagement) -> list[Event]:
        """Say, per unit of a close combat, which of its models strike at an Initiative their weapon fixes."""
        events = []
        for uid in engagement.units:
            if uid not in engagement.fixed:
                continue
            for m in state.unit(uid).models:
                at = striking_initiative(state, m)
                if m.weapons and at != m.profile.i:
                    weapon = melee_weapon(state, m)
                    events.append(Event("strikes_at", f"{m.name} ({uid}) strikes at Initiative {at} with its "
                                        f"{weapon.name}, whatever its own Initiative of {m.profile.i}",
                                        ("published.initiative",)))
        return events

    @staticmethod
    def _second_weapon(state: GameState, weapons: tuple[str, ...]) -> int:
        """Return the extra Attack of two single-handed weapons (a pistol or a close combat weapon each): 1 or 0.

        Looked up once per set of weapons and the scenario's profiles; a third weapon adds nothing.
        """
        if len(weapons) < 2:
            return 0
        extra = _kept_for_weapons(_SECOND_WEAPON, state, weapons)
        if extra is None:
            hands = sum(find_weapon(name, state.weapons).type in _SINGLE_HANDED for name in weapons)
            extra = _keep_for_weapons(_SECOND_WEAPON, state, weapons, int(hands >= 2))
        return extra

    def rule_fight(self, state: GameState, action: Fight) -> Ruling:
        """Rule on fighting a close combat: the unit is in base contact and has not fought this phase."""
        unit = state.unit(action.unit)
        if not unit.alive:
            return Ruling.forbid(f"{unit.id} has no models left", "core.zero.w")
        combat = self._contact_units(state, unit.id)
        enemy = fought = False
        others: list[str] = []
        for uid in combat:  # one plain pass: who is an enemy, who has fought, who else fights
            member = state.unit(uid)
            enemy = enemy or member.side != unit.side
            fought = fought or Status.FOUGHT in member.status
            if uid != unit.id:
                others.append(uid)
        if not enemy:
            # the character clause (40k4.cc.base-contact) only for a character; a unit fights by the published rule
            return Ruling.forbid(f"{unit.id} is not in base contact with any enemy",
                                 self.contact_rule if unit.is_character else "published.close-combat")
        if fought:
            return self.fought_refusal(state, unit, combat)
        return Ruling.allow(f"{unit.id} fights its close combat with {', '.join(others)}", "published.close-combat")

    @implements("published.close-combat")
    def fought_refusal(self, state: GameState, unit: Unit, combat: Sequence[str]) -> Ruling:
        """Refuse a fight whose close combat has a unit that has fought this phase (``rule_fight``): each close combat
        is fought once an Assault phase (4th edition also says why a combat a consolidation made waits)."""
        return Ruling.forbid(f"the combat of {unit.id} has already been fought this phase: each close combat is "
                             "fought once an Assault phase", "published.close-combat")

    @implements("40k4.cc.separate-unit", "40k4.cc.base-contact", "40k4.cc.no-carry-over", "40k4.cc.engaged-only",
                "core.zero.ws", "core.zero.a")
    def resolve_fight(self, state: GameState, action: Fight, dice: Dice) -> Resolution:
        """Fight in Initiative order (pooled rolls per step), compare wounds caused, test the losers' morale.

        The fight is a loop of steps over a ``_Melee`` carry (gather an Initiative step's
        attacks, strike with one pool, finally the combat result): play runs it step by
        step, an exact enumeration merges equal carries after every step.
        """
        setup = state.remember(("fight", type(self), action.unit), lambda: self._fight_setup(state, action.unit))
        engagement, combat, allocations, levels, arms, start_gathered, later, fights = setup[:8]
        strikes, results = setup.strikes, setup.results
        # a state fought from once (a new state in play) gains nothing from remembering what the later steps gathered
        # on their own new states: from the second fight from it on (a search applying it again) they are remembered
        remember_later = fights[0] > 0
        fights[0] += 1
        before = state
        # no model strikes at an Initiative from 0 to below this one: a step's last pool then ends the blows
        lowest = min([level for level in levels if level >= 0], default=1 << 30)
        def step(melee: _Melee, dice: Dice) -> _Melee:
            jobs, initiative, events = melee.jobs, melee.initiative, melee.events
            if not jobs:  # gather the next Initiative step's attacks, and strike its first pool in the same step
                if initiative < 0:
                    return result(melee, dice)
                # an enumeration steps the same carry once per branch of the dice: the attacks gathered once
                gathered = melee.gathered
                if gathered is None:
                    if melee.state is before:  # the fight's first step (or one where no one was hurt yet): once a state
                        gathered = start_gathered.get(initiative)
                        if gathered is None:
                            gathered = start_gathered[initiative] = gather(melee)
                    elif remember_later:  # told by the state's value (hashed once) and the Initiative
                        gathered = later.get((melee.state, initiative))
                        if gathered is None:
                            gathered = _keep(later, (melee.state, initiative), gather(melee), LATER_GATHERS_KEPT)
                    else:
                        gathered = gather(melee)
                    melee.gathered = gathered
                if not gathered:  # every blow struck: the combat result is a step of its own
                    return _Melee(melee.state, -1, melee.jobs, melee.caused, melee.events, melee.finished,
                                  melee.whole_score, melee.pending)
                jobs, initiative, event = gathered[0]
                events = (*events, event)
            if len(jobs) == 1 and initiative < lowest:
                initiative = -1  # no one left to strike: the combat result is next
            return self._strike(melee, jobs, initiative, events, dice, strikes if remember_later else None)

        def gather(melee: _Melee) -> tuple[Gathered, ...]:
            """Return the attacks of the next Initiative step that has any, the Initiative after it and its event."""
            for initiative in range(melee.initiative, -1, -1):
                if initiative in levels and (jobs := self._strikes(melee.state, engagement, initiative, allocations,
                                                                            arms)):
                    pools = []
                    for key, (n, pool) in jobs.items():
                        pools.append((key, n, tuple(pool)))
                    return ((tuple(pools), initiative - 1,
                             Event("initiative", f"Initiative {initiative} strikes", ("published.initiative",))),)
            return ()

        def result(melee: _Melee, dice: Dice) -> _Melee:
            kept = results if remember_later else None
            found = None if kept is None else kept.fought.get(melee.state)
            if found is not None:
                state = found
            else:
                state = fought(melee.state)
                if kept is not None:
                    _keep(kept.fought, melee.state, state)
            state, more = self._resolve_combat(state, before, combat, melee.caused, dice,
                                               engagement=engagement, kept=kept)
            return _Melee(state, -1, melee.jobs, melee.caused, (*melee.events, *more), True, melee.whole_score,
                          melee.pending)

        def fought(state: GameState) -> GameState:
            """Return ``state`` with every unit of the combat marked as fought, its splits of attacks ended."""
            allocations = state.allocations  # splits of attacks end with the fight
            if allocations and any(a[0] in combat for a in allocations):
                allocations = tuple(a for a in allocations if a[0] not in combat)
            units = []  # every unit of the combat has fought: one new state, each unit's fought value kept on the unit
            for u in state.units:  # (the many states a fight fought again ends in share them, each hashed once)
                units.append(u.remember(_FOUGHT_UNIT, partial(_fought_unit, u)) if u.id in combat else u)
            return evolve(state, allocations=allocations, units=tuple(units))

        view = dice.event_view
        melee = dice.loop(_Melee(state, 10, (), setup.sides, setup.opening), step, _FINISHED,
                          lambda m: m.key(view, self.combat_result_read), _Melee.fresh, lambda m, r: m.join(r, view))
        return melee.state, list(melee.events)

    def _fight_setup(self, state: GameState, unit_id: str) -> _FightSetup:
        """Work out what a fight reads from the state it starts from, whatever the dice (``_FightSetup``)."""
        engagement = self._engagement(state, unit_id)
        combat = engagement.units
        opening = Event("fight", f"close combat: {', '.join(combat)}", ("published.close-combat",))
        return _FightSetup(engagement, combat, dict(state.allocations),
                           # the Initiative values of the combat's models (models only leave a fight): no other step
                           # gathers attacks
                           frozenset().union(*engagement.levels.values()), {}, {}, {}, [0],
                           tuple(zip(sorted(set(map(_SIDE, map(state.unit, combat)))), repeat(0))),
                           (opening, *self._characters_apart(state, engagement), *_no_attacks(state, combat),
                            *self._second_weapon_notes(state, combat), *self._fixed_initiative_notes(state, engagement)),
                           _Strikes(), _Kept())

    def _strike(self, melee: _Melee, jobs: tuple[Job, ...], initiative: int, events_before: tuple[Event, ...],
                dice: Dice, kept: _Strikes | None = None) -> _Melee:
        """Roll the first of ``jobs`` (hit, wound, saves); after an Initiative step's last, remove the slain.

        The carry that follows holds the other jobs, ``initiative`` and the events after ``events_before``.
        What the strike reads before its dice is its plan (``_strike_plan``), and what the dice
        then do to the state its outcome (``_strike_outcome``); ``kept``: the plans and outcomes
        a fight fought again from one state keeps (``_Strikes``), so that the same strike from
        the same carry pays only for its dice.
        """
        state, pending, rest = melee.state, melee.pending, jobs[1:]
        outcomes: dict[tuple[int, ...], StrikeOutcome] | None = None
        if kept is None:
            plan = self._strike_plan(state, jobs)
        else:
            key = (state, jobs, pending)
            found = kept.at.get(key)
            if found is None:
                found = _keep(kept.at, key, (self._kept_plan(state, jobs, kept.plans), {}), STRIKES_KEPT)
            plan, outcomes = found
        caused = melee.caused
        if plan.models:
            side, n = jobs[0][0][0], jobs[0][1]
            assert plan.to_hit is not None and plan.to_wound is not None  # a plan with models has its dice
            start = len(dice.log)
            saving = plan.saving
            # (hits, wounds, unsaved per save group): the wounds and unsaved counts are what the dice decide
            counts = dice.pools(n, plan.to_hit, plan.to_wound) if saving is None else \
                dice.pools(n, plan.to_hit, plan.to_wound, split=saving[0])
            decided = counts[1:]
            got = decided[0]
            said = plan.said.get((counts[0], got))  # the words once per plan and counts, not per strike
            if said is None:
                hits = counts[0]
                said = plan.said[(counts[0], got)] = (f"{plan.attacking}{hits} hit{'s' * (hits != 1)}, "
                                                      f"{got} wound{'s' * (got != 1)}{plan.why}")
            attacks = Event("attacks", said, plan.rules, tuple(dice.log[start:]))  # (``_rolls`` inlined)
            outcome = outcomes.get(decided) if outcomes is not None else None
            if outcome is None:
                outcome = self._strike_outcome(plan, state, pending, rest, decided, outcomes is not None)
                if outcomes is not None:
                    assert kept is not None  # outcomes are kept only with the fight's strikes
                    if outcome[0] is not state:  # a new state: one object for every strike that reaches it
                        outcome = (kept.same(outcome[0]), outcome[1], outcome[2], outcome[3])
                    _keep(outcomes, decided, outcome, OUTCOMES_KEPT)
            state, more, unsaved, pending = outcome
            events = (*events_before, attacks, *more)
            if unsaved:  # (every side of the combat is in the score from the start, in order: ``_FightSetup.sides``)
                for i, (who, count) in enumerate(caused):
                    if who == side:
                        caused = (*caused[:i], (who, count + unsaved), *caused[i + 1:])
                        break
        else:
            events = events_before
            if not rest and pending:
                state, pending = _remove_casualties(state), ()
        return _Melee(state, initiative, rest, caused, events, melee.finished, melee.whole_score, pending)

    def _strike_plan(self, state: GameState, jobs: tuple[Job, ...]) -> _StrikePlan:
        """Read what the first of ``jobs`` needs before its dice: the models it may hurt, its rolls and their words."""
        (_, pool_key, ws, s, armour_off, apart, who), n, pool = jobs[0]
        models = _models_of(state, pool)  # the pool's models still standing (none leave before the step ends)
        if not models:
            return _StrikePlan(models, [], None, None, None, "", "", (), {}, {})  # (no dice: no deltas)
        live = list(models)
        targets = list(map(_MODEL, models.values()))
        target_ws = _majority(list(map(_WS, targets)))
        need = to_hit_melee(ws, target_ws)
        zero_ws = _ws_zero(ws, target_ws)  # core.zero.ws only when a WS of 0 decided the roll
        rule = self.allocation_rule if apart else (zero_ws[0] if zero_ws else "published.to-hit-ws")
        toughness = _majority(list(map(_TOUGHNESS, targets)))
        wound_on = to_wound(s, toughness)
        saving = self._save_split(state, live, armour_off, n, pool_key, models, targets)
        to_hit = Stage(need, f"{who}: to hit ({need}+, WS{ws})", rule)
        to_wound_stage = Stage(wound_on, f"{who}: to wound ({wound_on}+, S{s} vs T{toughness})",
                               rule if apart else "published.to-wound")
        why = "" if wound_on is not None else f" (S{s} cannot wound T{toughness})"
        kills = _NO_KILLS  # published.instant-death: only a model with Wounds to lose beyond one can be killed outright
        if max(map(_W, targets)) > 1 and s >= 2 * min(map(_TOUGHNESS, targets)):
            kills = {ref: s for ref, (unit, model) in models.items() if _killed_outright(unit, model, s)} or _NO_KILLS
        return _StrikePlan(models, targets, to_hit, to_wound_stage, saving,
                           f"{who} attacks {pool_key} ({n}): ", why,
                           tuple(dict.fromkeys((rule, *zero_ws, *_zero_rules(s, toughness)))), {}, {}, kills)

    def _kept_plan(self, state: GameState, jobs: tuple[Job, ...],
                   plans: dict[tuple[tuple[Job, ...], tuple[Unit | None, ...]], _StrikePlan]) -> _StrikePlan:
        """Return the plan of the first of ``jobs`` kept for the units of its pool as ``state`` holds them."""
        key = (jobs, tuple([state.unit(uid) if state.has_unit(uid) else None
                            for uid in dict.fromkeys(map(_UNIT, jobs[0][2]))]))
        plan = plans.get(key)
        if plan is None:
            plan = _keep(plans, key, self._strike_plan(state, jobs), STRIKES_KEPT)
        return plan

    def _strike_outcome(self, plan: _StrikePlan, state: GameState, pending: tuple[str, ...], rest: tuple[Job, ...],
                        decided: tuple[int, ...], keep: bool = False) -> StrikeOutcome:
        """Do what a strike's dice decided (``decided``: the wounds, then the unsaved wounds per save group): allocate,
        wound, remove.

        What the dice do to the units struck (``_strike_delta``) reads those units alone, so with
        ``keep`` it is kept on the plan for every state holding them; the new state is this
        state with them replaced (a destroyed unit's characters released) and, after an
        Initiative step's last pool, its slain removed.  A strike that slays or wounds no one makes
        no new state.
        """
        events: tuple[Event, ...] = ()
        unsaved = 0
        if decided[0] and plan.saving is not None:
            models = plan.models
            struck = models[next(iter(models))][0]
            host = struck.joined or struck.id
            group = state.combined(host)
            carry = self._carry_rule(state, host)
            # the Wounds left to the struck unit's members outside the pool (4th ed.: its joined characters), which
            # wounds lost for want of carry-over are told against (``_melee_not_carried``): read only when some unsaved
            # wounds found no model of their group, and then part of what is kept
            room = partial(_room_outside, group, models) if len(group) > 1 else tuple
            delta = plan.deltas.get((decided, carry)) if keep else None
            if delta is _BY_ROOM:  # this result's delta is told apart by the Wounds left outside the pool
                delta = plan.deltas.get((decided, carry, room()))
            if delta is None:
                delta, read = _strike_delta(plan, state, rest, decided, carry, room)
                if keep:
                    if read is None:
                        _keep(plan.deltas, (decided, carry), delta, OUTCOMES_KEPT)
                    else:
                        _keep(plan.deltas, (decided, carry), _BY_ROOM, OUTCOMES_KEPT)
                        _keep(plan.deltas, (decided, carry, read), delta, OUTCOMES_KEPT)
            changed, events, unsaved, waiting = delta
            # every wound saved: the same units (a destroyed unit's characters released, as ever)
            state = _release_orphans(state.replace_units(*changed) if changed else state)
            if waiting:
                pending = (*pending, *waiting)
        if not rest and pending:
            state, pending = _remove_casualties(state), ()
        return state, events, unsaved, pending

    def _characters_apart(self, state: GameState, engagement: Engagement) -> list[Event]:
        """Say which joined characters fight as units of their own, and which of them cannot strike (4th ed.)."""
        if not self.character_separate_in_combat:
            return []
        events: list[Event] = []
        for uid in engagement.units:
            unit = state.unit(uid)
            if not (unit.is_character and unit.joined and unit.alive):
                continue
            touching = any(map(_ON_TABLE, map(state.unit, engagement.touched_units(uid))))
            events.append(Event("character_in_combat", f"{uid} fights as a unit of its own" + (
                "" if touching else ", and makes no attacks: it is not in base contact with an enemy model"),
                ("40k4.cc.separate-unit", "40k4.cc.base-contact")))
        return events

    @implements("published.close-combat", "published.initiative")
    def _strikes(self, state: GameState, engagement: Engagement, initiative: int,
                 allocations: dict[str, tuple[tuple[str, int], ...]], arms: dict[tuple[str, ...], Weapon] | None = None
                 ) -> dict[tuple[str, str, int, int, bool, bool, str], tuple[int, list[ModelRef]]]:
        """Gather the attacks of models at this Initiative, pooled by side, target, WS, S and weapon.

        ``arms``: the melee weapon of each set of weapons carried, as far as looked up in this fight.
        A troop unit whose models all strike alike (``_alike_strikes``) is gathered at once.
        """
        jobs: dict[tuple[str, str, int, int, bool, bool, str], tuple[int, list[ModelRef]]] = {}
        units = list(filter(_MODELS, map(state.unit, engagement.units)))
        contacts: Contacts | None = None  # who touches whom now: asked once someone strikes
        standing: dict[str, Unit] = {}
        arms = {} if arms is None else arms  # models that carry the same weapons, looked up once
        separate = self.character_separate_in_combat
        for unit in units:
            if initiative not in engagement.levels[unit.id]:
                continue
            if contacts is None:
                contacts, standing = engagement.now(units), dict(zip(map(_ID, units), units))
            if unit.id not in allocations and not unit.is_character \
                    and self._alike_strikes(state, unit, initiative, engagement, contacts, standing, arms, jobs):
                continue
            attacks: dict[tuple[int, tuple[str, ...]], int] = {}  # a model's attacks by its A and weapons (few kinds)
            strikers: list[tuple[int, Model, int]] = []
            fixed = unit.id in engagement.fixed  # a model's weapon fixes its Initiative (a power fist)
            for i, m in enumerate(unit.models):
                if (striking_initiative(state, m) if fixed else m.profile.i) == initiative:
                    n = attacks.get((m.profile.a, m.weapons))
                    if n is None:
                        n = attacks[(m.profile.a, m.weapons)] = self._attacks(state, unit, m)
                    if n:
                        strikers.append((i, m, n))
            if not strikers:
                continue
            enemies: list[Unit] = []
            split = allocations.get(unit.id)  # checked by rule_allocate: characters, or troopers facing mixed foes
            apart = unit.is_character
            # a trooper touching one enemy unit strikes it with the pool of the first like it (same weapons and
            # profile against the same unit): its attacks are added to that pool at once
            same: dict[tuple[str, tuple[str, ...], int, int], StrikeKey] = {}
            for i, model, n in strikers:
                # the usual model touches the models of one enemy unit: the one it attacks
                sole = None if split else contacts.sole_unit(unit.id, i)
                if sole is not None and not apart:
                    like = (sole, model.weapons, model.profile.ws, model.profile.s)
                    if (known := same.get(like)) is not None:
                        have, pool = jobs[known]
                        jobs[known] = (have + n, pool)
                        continue
                touched = contacts.of(unit.id, i) if sole is None or (apart and separate) else []
                if sole is None:
                    enemies = enemies or [e for e in units if e.side != unit.side]
                    counts: dict[str, int] = {}  # enemy models touched, per enemy unit
                    for eid, _ in touched:
                        counts[eid] = counts.get(eid, 0) + 1
                    touching = [e for e in enemies if e.id in counts]
                    if not touching and not self._near_contact(state, unit, model, enemies):
                        continue
                weapon = arms.get(model.weapons)
                if weapon is None:
                    weapon = arms[model.weapons] = melee_weapon(state, model)
                s = weapon.strength_for(model.profile.s)
                if sole is not None:
                    target = standing[sole]
                else:
                    if split:
                        given = 0
                        for key, k in split:
                            pool = [(e.id, k) for e in touching for k, m in enumerate(e.models)
                                    if (e.id == key or m.name == key) and (e.id, k) in touched]
                            k = min(k, n - given)
                            if pool and k > 0:
                                _add(jobs, (unit.side, key, model.profile.ws, s, weapon.ignores_armour, True,
                                            f"{model.name} (split)"), k, pool)
                                given += k
                        n -= given
                        if not n:
                            continue
                    chosen = self._default_target(state, unit, model, touching, enemies,
                                                  [counts[e.id] for e in touching])
                    if chosen is None:
                        continue
                    target = chosen
                job = (unit.side, target.id, model.profile.ws, s, weapon.ignores_armour, apart,
                       model.name if apart else unit.id)
                if sole is not None and not apart:
                    same[(sole, model.weapons, model.profile.ws, model.profile.s)] = job
                if job in jobs and not (apart and separate):
                    _add(jobs, job, n, jobs[job][1])  # the pool is the first striker's: no need to order another
                    continue
                pool = self._combat_pool(state, target, model)
                if apart and separate:
                    pool = self._engaged_only(pool, touched)
                    if not pool:
                        continue
                _add(jobs, job, n, pool)
        return jobs

    def _alike_strikes(self, state: GameState, unit: Unit, initiative: int, engagement: Engagement,
                       contacts: Contacts, standing: dict[str, Unit], arms: dict[tuple[str, ...], Weapon],
                       jobs: dict[StrikeKey, tuple[int, list[ModelRef]]]) -> bool:
        """Gather a troop unit whose models all strike alike at once, as its models one by one would; say if it did.

        Alike: every model standing has this Initiative, the same weapons, WS and S, and touched
        models of one enemy unit only - the same one - as the fight began, and that unit has lost
        no model since (so each touches it still).  Then every model with attacks strikes that
        unit in one pool: the first model's weapon and pool, the attacks added up.
        """
        models = unit.models
        soles = engagement.start_soles(unit.id)
        if models is not engagement.start_models(unit.id):
            index_of = contacts.index_of(unit.id)
            if index_of is None:
                return False
            soles = tuple(compress(soles, map((0).__le__, index_of)))
        # one pass over the models: the usual unit is alike in every value read here, A and Initiative too
        alike = set(zip(soles, map(_WEAPONS_CARRIED, models), map(_WS, models), map(_S, models), map(_INITIATIVE, models),
                        map(_A, models)))
        one_a = len(alike) == 1
        fixed = unit.id in engagement.fixed  # a model's weapon fixes its Initiative (a power fist)
        if one_a:
            sole, weapons, ws, _, level, _ = alike.pop()
            if (striking_initiative(state, models[0]) if fixed else level) != initiative:
                return False
        else:
            if len(set(map(_INITIATIVE, models))) != 1 \
                    or (striking_initiative(state, models[0]) if fixed else models[0].profile.i) != initiative:
                return False
            shared = set(zip(soles, map(_WEAPONS_CARRIED, models), map(_WS, models), map(_S, models)))
            if len(shared) != 1:
                return False
            sole, weapons, ws, _ = shared.pop()
        if sole is None or sole not in standing or standing[sole].models is not engagement.start_models(sole):
            return False
        if one_a:  # one A: each model strikes with the first one's attacks
            each = self._attacks(state, unit, models[0])
            if not each:
                return True
            n, model = each * len(models), models[0]
        else:
            attacks: dict[int, int] = {}
            for a, m in dict(zip(map(_A, models), models)).items():  # once per A
                attacks[a] = self._attacks(state, unit, m)
            n = sum(map(attacks.__getitem__, map(_A, models)))
            if not n:
                return True
            model = models[list(map(bool, map(attacks.__getitem__, map(_A, models)))).index(True)]
        weapon = arms.get(weapons)
        if weapon is None:
            weapon = arms[weapons] = melee_weapon(state, model)
        job = (unit.side, sole, ws, weapon.strength_for(model.profile.s), weapon.ignores_armour, False, unit.id)
        if job in jobs:
            _add(jobs, job, n, jobs[job][1])  # the pool is the first striker's: no need to order another
        else:
            _add(jobs, job, n, self._combat_pool(state, standing[sole], model))
        return True

    def _near_contact(self, state: GameState, unit: Unit, model: Model, enemies: Sequence[Unit]) -> bool:
        """Say whether a model not in contact fights for being within 2" of a friend in contact (4th: not characters)."""
        if not self.fights_near_contact(unit):
            return False
        friends = [m for m in unit.models if m is not model
                   and any(geo.in_base_contact(m.placed, e.placed) for x in enemies for e in x.models)]
        return geo.within(model.placed, [f.placed for f in friends], NEAR_CONTACT_INCHES)

    def _default_target(self, state: GameState, unit: Unit, model: Model, touching: Sequence[Unit],
                        enemies: Sequence[Unit], contacts: Sequence[int]) -> Unit | None:
        """Pick the enemy unit a model attacks: the one it touches most (units before characters).

        ``contacts``: how many models of each unit in ``touching`` the model touches.
        """
        if touching:
            return max(zip(touching, contacts), key=lambda ek: (not ek[0].is_character, ek[1]))[0]
        engaged = [e for e in enemies if not (self.character_separate_in_combat and e.is_character and e.joined)]
        return min(engaged, key=lambda e: geo.group_distance([model.placed], e.placed), default=None)

    @implements("40k4.cc.engaged-only")
    def _engaged_only(self, pool: list[ModelRef], touched: Iterable[ModelRef]) -> list[ModelRef]:
        """Keep the enemy models a character's attacks may hurt: only those engaged with (touching) it (4th ed.)."""
        return list(filter(set(touched).__contains__, pool))

    def _combat_pool(self, state: GameState, target: Unit, attacker: Model) -> list[ModelRef]:
        """Return the models an attack on ``target`` may wound: 4th ed. never a joined character through its unit."""
        groups = (target,) if self.character_separate_in_combat or target.joined else state.combined(target.id)
        if len(groups) == 1:
            if len(target.models) == 1:  # a lone model (a character fighting apart): nothing to order
                return [(target.id, 0)]
            # the order reads the target unit and the striker's base alone: kept on the unit's value, which stands
            # in every state where the unit has taken no blow since (a later Initiative step's target, as a rule)
            placed = attacker.placed
            return list(target.remember((_POOL, self, placed), lambda: tuple(self._pool_order(
                state, target.id, [placed], with_characters=False))))
        return self._pool_order(state, target.id, [attacker.placed], with_characters=True)

    @implements("published.combat-resolution")
    def _combat_verdict(self, before: GameState, combat: Sequence[str], caused: tuple[tuple[str, int], ...]
                        ) -> _Verdict:
        """Read the wounds caused (every side of the combat, 0 included): who lost and by how much, in words."""
        counts = dict(caused)
        sides = sorted(set(map(_SIDE, map(before.unit, combat))))
        score = ", ".join(map("{} {}".format, sides, map(counts.__getitem__, sides)))
        if len(sides) == 2 and counts[sides[0]] != counts[sides[1]]:
            winner = max(sides, key=counts.__getitem__)
            loser = sides[1] if sides[0] == winner else sides[0]
            margin = counts[winner] - counts[loser]
            losers = []
            for uid in combat:
                was = before.unit(uid)
                if was.side == loser and not was.joined:
                    losers.append(uid)
            return _Verdict(Event("combat_result", f"combat result: {score} wounds caused; {loser} loses by {margin}",
                                  ("published.combat-resolution",), data=(("winner", winner),)),
                            tuple(losers), f"lost the combat by {margin}", self.combat_morale_modifier(margin))
        return _Verdict(Event("combat_result", f"combat result: {score} wounds caused; a draw",
                              ("published.combat-resolution",)), (), "", 0)

    @implements("published.combat-resolution")
    def _resolve_combat(self, state: GameState, before: GameState, combat: Sequence[str],
                        caused: tuple[tuple[str, int], ...], dice: Dice, engagement: Engagement | None = None,
                        kept: _Kept | None = None) -> Resolution:
        """Compare wounds caused; every losing unit takes a Morale check; then Last Man Standing.

        ``caused``: the wounds each side of the combat caused (every side counted, 0 included), by side in order.
        ``engagement``: who touched whom as the fight started (``before``), if measured.
        ``kept``: what a fight fought again from ``before`` keeps whatever the dice (``_FightSetup.results``):
        the verdict by the wounds caused, the locks released by the state they read (each state a check leads to is
        kept where it is made, the caught unit's and each fall back's end, so its value is hashed once).
        """
        if kept is None:
            verdict = self._combat_verdict(before, combat, caused)
        else:
            found_verdict = kept.verdicts.get(caused)
            if found_verdict is None:
                found_verdict = _keep(kept.verdicts, caused, self._combat_verdict(before, combat, caused))
            verdict = found_verdict
        events: list[Event] = [verdict.said]
        tested: set[str] = set()
        leave = None
        if verdict.losers:
            def leave(state: GameState, unit_id: str, dice: Dice) -> Resolution:
                return self.leaves_combat(state, unit_id, dice, combat)
        for uid in verdict.losers:
            # the unit tests with its characters; if it is destroyed, every character who survives it (released
            # by then) is a unit of his own and takes the loser's check himself
            live = [uid] if state.unit(uid).alive else [x.id for x in before.combined(uid) if state.unit(x.id).alive]
            for live_id in live:
                if live_id != uid:
                    events.append(Event("combat_result", f"{live_id} survives {uid} and takes the loser's Morale "
                                        "check as a unit of its own", self.survivor_rules))
                state, more = self._morale_check(state, live_id, dice, verdict.why, "published.combat-resolution",
                                                 verdict.modifier, leave=leave)
                tested.add(uid)
                events += more
        skip = self.no_last_man_after(tested)
        if kept is None:
            state, more = self._last_man(state, before, dice, skip)
        else:
            last_key = (state, frozenset(skip))
            found_last = kept.lasts.get(last_key)
            if found_last is None:
                rolled = len(dice.log)
                found_last = self._last_man(state, before, dice, skip)
                if len(dice.log) == rolled:  # no test rolled: the same result whatever the dice
                    _keep(kept.lasts, last_key, found_last)
            state, more = found_last
        events += more
        if kept is None:
            state, more = self._released(state, before, combat, engagement)
        else:
            found = kept.unlocked.get(state)
            if found is None:
                found = _keep(kept.unlocked, state, self._released(state, before, combat, engagement))
            state, more = found
        return state, events + more if more else events

    def _released(self, state: GameState, before: GameState, combat: Sequence[str],
                  engagement: Engagement | None) -> Resolution:
        """Release the locks a combat's result leaves no reason for, then do what follows (``after_combat_result``):
        both dice-free, so a fight fought again keeps them together by the state the checks left (``_Kept``)."""
        return self.after_combat_result(self._unlocked(state, before, combat, engagement), before, combat)

    # == after a close combat's result: hooks 4th edition overrides =====================
    def leaves_combat(self, state: GameState, unit_id: str, dice: Dice, combat: Sequence[str]) -> Resolution:
        """Carry out a failed close combat Morale check of ``unit_id`` (with its characters): 3rd edition falls back
        (published.fall-back); 4th edition's victors make a Sweeping Advance first (``_sweeping_advance``)."""
        return self._fall_back(state, unit_id, dice)

    def after_combat_result(self, state: GameState, before: GameState, combat: Sequence[str]) -> Resolution:
        """Do what follows a close combat's result once its locks are released (here nothing; both editions override
        it: the units left free may consolidate, ``_free_to_consolidate``, citing the edition's ``consolidation_rule``)."""
        return state, []

    @implements("published.sweeping-advance", "40k4.ic.falling-back")
    def _sweeping_advance(self, state: GameState, unit_id: str, dice: Dice, combat: Sequence[str]) -> Resolution:
        """Roll the victor's Sweeping Advance against a unit that failed its close combat Morale check.

        4th ed. (Sweeping Advances & Consolidation): each side adds a D6 to its unmodified
        Initiative; the falling back unit's higher total breaks off and falls back, the winner's
        equal or greater total catches it: the unit and its characters are destroyed at once, no
        save of any kind.  No Sweeping Advance (a plain fall back) without a victor that still
        touches the unit and is engaged with no other enemy that is not falling back.  The
        falling back unit rolls first; the winner's D6 is split at what it must reach, so an
        exact enumeration takes at most two branches of it.
        """
        rule = "published.sweeping-advance"
        # who sweeps, at what Initiatives: read once per state (an enumeration walks the same result once per branch
        # of the dice before it); the state with the unit destroyed is built only when a roll catches it
        facts = state.remember((_SWEEP, self, unit_id, combat), lambda: self._sweep_facts(state, unit_id, combat))
        victor = facts.victor
        if victor is None:
            state, more = self._fall_back(state, unit_id, dice)
            return state, [Event("sweeping_advance", f"no sweeping advance against {unit_id}: {facts.why_not}; it "
                                 "falls back", (rule,), data=(("outcome", "none"),)), *more]
        own, theirs = facts.own, facts.theirs
        rolling = facts.rolling
        if rolling is None:  # the rolls' purposes and the breaking off roll's splits, once per state
            rolling = facts.rolling = (f"{unit_id}: breaking off (Initiative {own} + D6)",
                                       tuple(range(theirs - own + 1, theirs - own + 7)),
                                       f"{victor}: sweeping advance (Initiative {theirs} + D6)")
        start = len(dice.log)
        fled = dice.total(1, rolling[0], rule, splits=rolling[1])
        reach = own + fled - theirs  # the victor's D6 that catches the unit
        caught_on = dice.total(1, rolling[2], rule, splits=(reach - 1,))
        rolls = _rolls(dice, start)
        said = facts.said.get((fled, caught_on))  # the event's words, once per state and pair of rolls
        if said is None:
            said = (f"{victor} makes a sweeping advance against {unit_id}: {theirs} + {caught_on} = "
                    f"{theirs + caught_on} against {own} + {fled} = {own + fled}")
            if caught_on < reach:
                said = f"{said}: {unit_id} breaks off and falls back"
            else:
                characters = [u.id for u in facts.group[1:]]
                with_them = f" with {', '.join(characters)}" if characters else ""
                said = f"{said}: {unit_id} is caught and destroyed{with_them}, no save allowed"
            facts.said[(fled, caught_on)] = said
        if caught_on < reach:
            state, more = self._fall_back(state, unit_id, dice)
            return state, [Event("sweeping_advance", said, (rule,), rolls, (("outcome", "broke off"),)), *more]
        caught = facts.caught
        if caught is None:  # the first catch from this state: the state with the unit and its characters gone, and
            # the events that say so (the same words whatever the rolls that caught it)
            group = facts.group
            caught = facts.caught = state.replace_units(*(evolve(u, models=()) for u in group))
            slain = [m.name for u in group for m in u.models]
            facts.cited = (rule, self.falling_back_rule) if len(group) > 1 else (rule,)
            facts.destroyed = Event("destroyed", f"{unit_id} is destroyed by the sweeping advance: slain "
                                    f"{', '.join(slain)}", (rule, "core.zero.w"), data=(("slain", len(slain)),))
        destroyed = facts.destroyed
        assert destroyed is not None  # told with the caught state
        return caught, [Event("sweeping_advance", said, facts.cited, rolls, (("outcome", "caught"),)), destroyed]

    #: Special rules (``rule_key`` names) of troops that may not make a Sweeping Advance (published.sweeping-advance).
    no_sweep_rules: ClassVar[frozenset[str]] = frozenset({"terminator_armour", "no_sweeping_advance"})
    #: The rule a consolidation after a close combat cites (40k3 overrides it: published.40k3-consolidation).
    consolidation_rule: ClassVar[str] = "published.consolidation"
    #: Whether a consolidation may end in base contact with an enemy unit, locking both in a new close combat (4th
    #: edition, published.consolidation); 3rd edition refuses it (published.40k3-consolidation: a new foe is engaged
    #: by the advance, which the engine does not model).
    consolidation_engages: ClassVar[bool] = True

    @implements("published.sweeping-advance")
    def sweep_barred(self, state: GameState, victors: Sequence[Unit]) -> str | None:
        """Say why a victor (its unit and joined characters) may not make a Sweeping Advance, or None if it may.

        4th ed.: "Some troops, such as Space Marine Terminators, are not allowed to sweeping advance - in such cases
        the unit just consolidates".  A unit (or a character joined to it) with a special rule of ``no_sweep_rules``
        bars the whole group: it pursues as one (40k4.ic.falling-back), at the pace of its slowest member.
        """
        barred = self.no_sweep_rules
        for u in victors:
            # the rule that bars is the member's own (named below): a member without one is passed over before its
            # effective rules are worked out (once per state: a fight's first result from each state after the blows)
            if barred.isdisjoint(rule_keys(u.rules)) or not (have := barred & self.effective_rules(state, u.id)):
                continue
            named = next(r for r in u.rules if rule_key(r) in have)
            whose = u.id if u is victors[0] else f"{u.id}, joined to {victors[0].id},"
            return f"{whose} has {named} and may not make a sweeping advance (it just consolidates)"
        return None

    def _sweep_facts(self, state: GameState, unit_id: str, combat: Sequence[str]) -> _SweepFacts:
        """Read what a Sweeping Advance takes from the state whatever the dice (``_SweepFacts``); no state built."""
        group = state.combined(unit_id)
        victor, why_not, theirs = self._sweeper(state, group, combat)
        if victor is None:
            return _SweepFacts(None, why_not, 0, 0, group)
        return _SweepFacts(victor, "", _group_initiative(group), theirs, group)

    def _sweeper(self, state: GameState, group: Sequence[Unit], combat: Sequence[str]) -> tuple[str | None, str, int]:
        """Return the victor that sweeps after a falling back ``group`` and its Initiative (None, why and 0 when none
        may: a victor barred from sweeping, ``sweep_barred``, is passed over)."""
        side = group[0].side
        ids = {u.id for u in group}
        # the enemies of the victors that hold them: alive, of the falling back side, not falling back themselves
        holding = [u for u in map(state.unit, combat)
                   if u.side == side and u.id not in ids and u.alive and not u.has(Status.FALLING_BACK)]
        best: tuple[int, str] | None = None
        why = "no enemy unit of its combat is left in base contact with it"
        for uid in combat:
            u = state.unit(uid)
            if u.side == side or u.joined or not u.alive:
                continue
            victors = state.combined(uid)
            if not any(_units_touch(v, f) for v in victors for f in group):
                continue
            if any(_units_touch(v, h) for v in victors for h in holding):
                why = f"{uid} still has models engaged with units that are not falling back"
                continue
            if (barred := self.sweep_barred(state, victors)) is not None:
                why = barred
                continue
            initiative = _group_initiative(victors)
            if best is None or initiative > best[0]:
                best = (initiative, uid)
        return (None, why, 0) if best is None else (best[1], "", best[0])

    @implements("published.consolidation")
    def _free_to_consolidate(self, state: GameState, before: GameState, combat: Sequence[str]) -> Resolution:
        """Let each unit the result left with no enemy in base contact (locked before, free now, not falling back)
        consolidate D6" this Assault phase (``rule_consolidate``); worked out once per state (an enumeration walks the
        same result once per branch of the dice before it)."""
        # keyed by the ids locked before, not by the state before: a new state's first hash walks every model; those
        # ids read once per state fought from (a search fights it again)
        was_locked = before.remember((_FREED, combat), lambda: tuple(sorted(
            {x.id for uid in combat if before.has_unit(uid) for x in before.combined(uid) if x.has(Status.LOCKED)})))
        return state.remember((_FREED, self, was_locked, combat),
                              lambda: self._freed(state, was_locked, combat, self.consolidation_rule))

    @staticmethod
    def _freed(state: GameState, was_locked: tuple[str, ...], combat: Sequence[str], rule: str) -> Resolution:
        freed: list[Unit] = []
        for uid in combat:
            u = state.unit(uid)
            if u.joined or not u.on_table or u.has(Status.FALLING_BACK):
                continue
            group = state.combined(uid)
            if any(x.has(Status.LOCKED) for x in group) or not any(x.id in was_locked for x in group):
                continue
            freed.append(u)
        if not freed:
            return state, []
        state = state.replace_units(*(u.with_status(Status.MAY_CONSOLIDATE) for u in freed))
        return state, [Event("consolidation", f"{u.id} has no enemy left in base contact: it may consolidate D6\" "
                             "this Assault phase (do: consolidate)", (rule,)) for u in freed]

    def _unlocked(self, state: GameState, before: GameState, combat: Sequence[str],
                  engagement: Engagement | None) -> GameState:
        """Release the combat's units with no enemy left in contact after its result (``_resolve_combat``)."""
        # units with no enemy left in contact are no longer locked; an enemy that fell back from this
        # combat has left it wherever its roll put it (a table edge may stop it short of clearing the bases)
        locked = []
        for u in map(state.unit, combat):
            if u.alive and Status.LOCKED in u.status:
                locked.append(u)
        if not locked:
            return state
        fled = {e.id for e in state.units if e.has(Status.FALLING_BACK) and before.has_unit(e.id)
                and not before.unit(e.id).has(Status.FALLING_BACK)}
        # only the units that fled have moved: the others touch as the fight began, the slain aside
        stay = [u for u in map(state.unit, combat) if u.on_table and u.id not in fled]
        contacts = engagement.now(stay) if engagement is not None else None
        staying = {u.id for u in stay}
        freed = []  # (every unit read as it stands: no status read here changes)
        for u in locked:
            group = state.combined(u.id)
            if contacts is not None and all(x.id in staying for x in group):
                touching = any(e not in fled for x in group for i in range(len(x.models)) for e, _ in contacts.of(x.id, i))
            else:
                touching = any(_touching(x, e) for x in group for e in state.enemies_of(u.side) if e.id not in fled)
            if not touching:
                freed.append(u.with_status(remove=(Status.LOCKED,)))
        return state.replace_units(*freed) if freed else state

    # == phases =======================================================================
    def resolve_end_phase(self, state: GameState, action: object, dice: Dice) -> Resolution:
        """End the phase; combats fought and undeclared splits of attacks end with it.

        A Movement phase ends with the fall back move of every unit of the side that is
        falling back and did not regroup (``_falls_back_again``); a Shooting phase with what the
        edition's Morale checks for casualties call for then (``shooting_phase_ends``).
        """
        events: list[Event] = []
        if state.phase is Phase.MOVEMENT:
            state, events = self._falls_back_again(state, dice)
        elif state.phase is Phase.SHOOTING:
            state, events = self.shooting_phase_ends(state, dice)
        if state.allocations or any([not _PHASE_DONE.isdisjoint(u.status) for u in state.units]):
            state = evolve(state, allocations=(),
                           units=tuple(u.with_status(remove=_PHASE_DONE_ORDER)
                                       if not _PHASE_DONE.isdisjoint(u.status) else u for u in state.units))
        state, more = super().resolve_end_phase(state, action, dice)  # type: ignore[arg-type]
        return state, [*events, *more]

    @implements("published.fall-back", "published.regroup")
    def _falls_back_again(self, state: GameState, dice: Dice) -> Resolution:
        """Move each unit of the active side still falling back, that took no Regroup test, a further fall back.

        Published rule (4th ed., Fall Back!): a unit falls back "in each subsequent Movement
        phase until the unit regroups"; one that fails its Regroup test, or may not take it
        (below half strength, an enemy within 6", out of coherency), "must continue to fall
        back".  A failed test has already moved it (``resolve_regroup``), and a unit that fell
        back this very phase has made its move.
        """
        events: list[Event] = []
        for u in state.units:
            if (u.side != state.active or u.joined or not u.models or u.embarked_in is not None
                    or not u.has(Status.FALLING_BACK) or u.has(Status.MOVED)):
                continue
            events.append(Event("regroup", f"{u.id} is still falling back and did not regroup this Movement phase: "
                                "it falls back again", ("published.fall-back", "published.regroup")))
            state, more = self._fall_back(state, u.id, dice)
            events += more
        return state, events


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


@implements("published.wound-allocation", "40k4.cc.no-carry-over")
def _lost_events(attack: _Attack, got_each: tuple[int, ...],
                 taken: tuple[list[SavesGroup], dict[ModelRef, tuple[Unit, Model]], tuple[int, ...]] | None,
                 hurt: dict[ModelRef, int] | None = None) -> tuple[Event, ...]:
    """Say how many of an attack's wounds are lost, each reason with its own count and rule: those the unit's models
    could not take while a character who joined it, in reach, could (``not_carried_over``: unsaved wounds on the unit
    never carry over onto him, 40k4.cc.no-carry-over, which 3rd edition's reading shares, published.wound-allocation),
    and the rest, which no living model in reach took (no save rolled) or the reachable models' Wounds could not hold
    (``beyond_reach``: the owning player may remove only models "within the line of fire and range of the attacker's
    weaponry", 4th ed., Removing casualties, so the rest of the unit stands).  Nothing when every weapon reaches every
    model of the target and no character joined it (checked first: the usual volley pays nothing more), or none is
    lost.  A character counts as in reach when some weapon fired reaches him."""
    short = attack.reach_short()
    if not short and len(attack.groups) == 1:
        return ()
    lost = sum(got_each)
    carried = 0
    characters: list[str] = []
    if taken is not None:
        groups, models, unsaved = taken
        if any(g[5] for g in groups):  # Instant Death: one unsaved wound took all a model's Wounds left
            left_over: list[int] = []  # each group's unsaved wounds no model took
            _unsaved_taken(groups, models, unsaved, left_over)
            lost -= sum(g[2] for g in groups) - sum(left_over)  # all but the unsaved wounds no model took
        else:
            lost -= sum(g[2] for g in groups) - sum(unsaved) + sum((hurt or {}).values())  # saved, and taken
        if lost > 0 and len(attack.groups) > 1:
            carried, characters = _not_carried(attack, groups, models, unsaved, hurt or {})
    if lost <= 0:
        return ()
    target = attack.target_id
    told: list[Event] = []
    if carried:
        s = "s" * (carried != 1)
        told.append(Event("not_carried_over", f"{carried} wound{s} on {target} lost: the unit's unsaved wounds never "
                          f"carry over onto {', '.join(characters)}, who joined it",
                          (*[r for r in attack.rules if r != "published.wound-allocation"],
                           "published.wound-allocation"),
                          data=(("unit", target), ("lost", carried))))
    lost -= carried
    if not short or lost <= 0:
        return tuple(told)
    out, s = attack.out_of_reach, "s" * (lost != 1)
    beyond = ", ".join(out) if len(out) <= 3 else f"{len(out)} of its models"
    if attack.reach is None:
        why = (f"{beyond} {'stands' if len(out) == 1 else 'stand'} beyond the range or line of fire of every weapon "
               "fired, and the models within it could take no more")
    else:
        why = ("each weapon's wounds go only to models within its own range and line of fire, and those could take no"
               " more" + (f" ({beyond} beyond every weapon's)" if out else ""))
    told.append(Event("beyond_reach", f"{lost} wound{s} on {target} lost: {why}",
                      ("published.wound-allocation",), data=(("unit", target), ("lost", lost))))
    return tuple(told)


def _not_carried(attack: _Attack, groups: Sequence[SavesGroup], models: dict[ModelRef, tuple[Unit, Model]],
                 unsaved: Sequence[int], hurt: dict[ModelRef, int]) -> tuple[int, list[str]]:
    """Return how many of the unit's own unsaved wounds (its save groups, not a character's) its models could not take
    while the characters who joined it, in reach of some weapon fired, had Wounds left for them, and those
    characters: the wounds lost only because they never carry over (``_lost_events``).  Shared as ``_unsaved_taken``
    shares them."""
    left_over: list[int] = []
    _unsaved_taken(groups, models, unsaved, left_over)
    excess = sum(left for group, left in zip(groups, left_over) if group[0][0] is None)  # the unit's own groups
    if not excess:
        return 0, []
    room, names = 0, []
    for ref in attack.pool:
        unit, model = models[ref]
        if unit.character is not None and (left := model.profile.w - model.wounds_taken - hurt.get(ref, 0)) > 0:
            room += left
            names.append(unit.id)
    return min(excess, room), list(dict.fromkeys(names))


def _destroyed_event(target_id: str) -> Event:
    """Say that a shooting attack destroyed its target: both editions' casualty checks end so."""
    return Event("destroyed", f"{target_id} is destroyed", ("core.zero.w",))


def _move_box(bounds: Sequence[tuple[float, float, float, float, float]], ox: float, oy: float,
              ends: Sequence[Sequence[tuple[float, float]]] = (), members: Sequence[Unit] = ()
              ) -> tuple[float, float, float, float]:
    """Return the box of a fall back: where each member's bases start and end (low x, low y, high x, high y).

    ``bounds``: each member's least and greatest centres and its base reach (``_FallBack.bounds``); a clear
    move ends each model at its start moved by (``ox``, ``oy``), and adding one offset to every centre keeps
    the least least and the greatest greatest in floating point, so the ends' bounds are the starts' moved.
    With ``ends`` (the models' end places, any move) ``bounds`` holds each member's box already (its
    ``Unit.extent``, reach 0) and the ends are measured as they are, each by its member's greatest reach.
    """
    low_x = low_y = math.inf
    high_x = high_y = -math.inf
    if ends:
        for (ex0, ey0, ex1, ey1, _), places, u in zip(bounds, ends, members):
            reach = max(map(_REACH, u.models))
            xs, ys = list(map(_X, places)), list(map(_Y, places))
            low_x, low_y = min(low_x, ex0, min(xs) - reach), min(low_y, ey0, min(ys) - reach)
            high_x, high_y = max(high_x, ex1, max(xs) + reach), max(high_y, ey1, max(ys) + reach)
        return low_x, low_y, high_x, high_y
    # as Unit.extent and the ends' bounds less and plus the reach: of a start and its end moved by o, the least is
    # the start moved by min(o, 0) (adding 0.0 changes no float, adding o is monotone), the greatest by max(o, 0)
    lx, hx = (ox, 0.0) if ox < 0.0 else (0.0, ox)
    ly, hy = (oy, 0.0) if oy < 0.0 else (0.0, oy)
    for x0, y0, x1, y1, reach in bounds:
        if (low := (x0 + lx) - reach) < low_x:
            low_x = low
        if (low := (y0 + ly) - reach) < low_y:
            low_y = low
        if (high := (x1 + hx) + reach) > high_x:
            high_x = high
        if (high := (y1 + hy) + reach) > high_y:
            high_y = high
    return low_x, low_y, high_x, high_y


def _add(jobs: dict[tuple[str, str, int, int, bool, bool, str], tuple[int, list[ModelRef]]],
         key: tuple[str, str, int, int, bool, bool, str], n: int, pool: list[ModelRef]) -> None:
    have, old = jobs.get(key, (0, pool))
    jobs[key] = (have + n, old if have else pool)


#: A fired item's parts (unit, model, weapon, shots) and what batches them, read in C.
_UNIT, _MODEL, _WEAPON, _SHOTS = itemgetter(0), itemgetter(1), itemgetter(2), itemgetter(3)
_BS, _NAME, _CHARACTER = attrgetter("profile.bs"), attrgetter("name"), attrgetter("character")
_MODELS, _TOUGHNESS, _W, _WOUNDS_TAKEN = attrgetter("models"), attrgetter("profile.t"), attrgetter("profile.w"), \
    attrgetter("wounds_taken")
_SAVE, _INVULNERABLE = attrgetter("profile.save"), attrgetter("profile.invulnerable")
_IS_SHOOTING = attrgetter("is_shooting")
#: A memo of what each set of weapons carried gives, with the scenario's profiles (``_kept_for_weapons``).
WeaponsMemo = dict[tuple[tuple[str, ...], int], tuple[tuple[Weapon, ...], int]]


#: Each set of weapons carried (with the scenario's profiles, ``_kept_for_weapons``): the Initiative its close combat weapon
#: strikes at, 0 for the wielder's own (``striking_initiative``).
_STRIKES_AT: WeaponsMemo = {}


@implements("published.initiative")
def striking_initiative(state: GameState, model: Model) -> int:
    """Return the Initiative a model strikes at: its profile's, or the one its close combat weapon fixes (a power fist
    strikes at 1); the weapon is the first close combat weapon it lists, as the fight's blows use."""
    if not model.weapons:
        return model.profile.i
    at = _kept_for_weapons(_STRIKES_AT, state, model.weapons)
    if at is None:
        at = _keep_for_weapons(_STRIKES_AT, state, model.weapons, melee_weapon(state, model).strikes_at or 0)
    return at or model.profile.i


def melee_weapon(state: GameState, model: Model) -> Weapon:
    """Return the weapon a model strikes with in close combat: its first listed close combat weapon, else its bare
    hands (the user's Strength)."""
    carried = (find_weapon(name, state.weapons, model.name) for name in model.weapons)
    return next(filterfalse(_IS_SHOOTING, carried), BARE_HANDS)


def _kept_for_weapons(memo: WeaponsMemo, state: GameState, weapons: tuple[str, ...]) -> int | None:
    """Return what a set of weapons gives as ``memo`` keeps it for the scenario's profiles, or None: the profiles by
    identity, kept with the value (hashing them would cost more than the look-up)."""
    kept = memo.get((weapons, id(state.weapons)))
    return kept[1] if kept is not None and kept[0] is state.weapons else None


def _keep_for_weapons(memo: WeaponsMemo, state: GameState, weapons: tuple[str, ...], value: int) -> int:
    """Keep what a set of weapons gives for the scenario's profiles (``_kept_for_weapons``) and return it."""
    return _keep(memo, (weapons, id(state.weapons)), (state.weapons, value), 4096)[1]


#: The weapon types a model holds in one hand in close combat: two give an extra Attack (published.close-combat).
_SINGLE_HANDED = frozenset((WeaponType.MELEE, WeaponType.PISTOL))
#: Each set of weapons carried (with the scenario's profiles): its extra Attack, 1 or 0 (``_second_weapon``).
_SECOND_WEAPON: WeaponsMemo = {}
_SIDE, _ID, _ON_TABLE, _FINISHED = attrgetter("side"), attrgetter("id"), attrgetter("on_table"), attrgetter("finished")
_INITIATIVE, _WS, _S, _A = attrgetter("profile.i"), attrgetter("profile.ws"), attrgetter("profile.s"), attrgetter("profile.a")
_WEAPONS_CARRIED = attrgetter("weapons")


def _batches(fired: Sequence[tuple[Unit, Model, Weapon, int]]
             ) -> dict[tuple[int, str, bool], list[tuple[Unit, Model, Weapon, int]]]:
    """Group the models that fire into batches that roll together: the same BS and weapon.

    A character rolls apart (the last of the key True) only if no trooper of the unit has its
    BS and weapon; otherwise it rolls with them (40k3.char.shooting-dice).
    """
    keys = set(zip(map(_BS, map(_MODEL, fired)), map(_NAME, map(_WEAPON, fired)), map(_CHARACTER, map(_UNIT, fired))))
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


def _models_of(state: GameState, refs: Sequence[ModelRef]) -> dict[ModelRef, tuple[Unit, Model]]:
    """Look the referenced models up once (with their units), in order; a reference to no model is left out."""
    if len(uids := set(map(_UNIT, refs))) == 1 and state.has_unit(uid := uids.pop()):
        host = state.unit(uid)  # the usual pool: models of one unit, looked up in C
        models = host.models
        at = list(map(_INDEX, refs))
        if max(at) < len(models):
            return dict(zip(refs, zip(repeat(host), map(models.__getitem__, at))))
    units: dict[str, Unit | None] = {}
    out: dict[ModelRef, tuple[Unit, Model]] = {}
    for ref in refs:
        uid = ref[0]
        unit = units[uid] if uid in units else units.setdefault(uid, state.unit(uid) if state.has_unit(uid) else None)
        if unit is not None and ref[1] < len(unit.models):
            out[ref] = (unit, unit.models[ref[1]])
    return out


#: One save group of a volley's or strike's wounds (``_save_groups``): its key, the models that take its wounds (in
#: order, once each), how many wounds it takes, the words for those models, the purpose of its saves roll, and the
#: models its unsaved wounds kill outright with the Strength that does it (Instant Death; usually none).
SavesGroup = tuple[SaveGroup, list[ModelRef], int, str, str, Mapping[ModelRef, int]]


def _save_groups(models: dict[ModelRef, tuple[Unit, Model]], pool: Sequence[ModelRef], batches: Sequence[WoundBatch],
                 who: str, reach: Sequence[frozenset[ModelRef]] | None = None) -> list[SavesGroup] | None:
    """Allocate wounds one per model in order (wound k to the k-th living model, round and round) and group them by
    the save they take (a joined character's always apart); None when there is nothing to allocate.

    What ``_saved_wounds`` decides before any save is rolled: it depends only on the models and the wounds.
    ``reach``: each batch's models, when its weapon reaches fewer than the pool (``_spread``).
    """
    total = sum(map(_WOUNDS, batches))
    if total == 0:
        return None
    looked = list(map(_MODEL, map(models.__getitem__, pool)))  # not is_casualty: wounds taken below W
    alive = list(compress(pool, map(lt, map(_WOUNDS_TAKEN, looked), map(_W, looked))))
    if not alive:
        return None
    several = max(map(_W, looked)) > 1
    if several:  # multi-Wound models: the fewest Wounds left first (``_fewest_left_first``)
        alive = _fewest_left_first(alive, models)
    per_model: dict[ModelRef, Sequence[WoundBatch]]  # wound k goes to the k-th living model, round and round
    one_each = len(batches) == 1 and total <= len(alive)  # one batch, no model taking a second wound
    if one_each:  # the first models in order, a wound each
        per_model = dict(zip(alive[:total], repeat((batches[0],))))
    elif reach is not None:  # the batches' weapons reach different models
        per_model = _spread(alive, batches, reach)
        if not per_model:
            return None
    else:
        per_model = {}
        k, n_alive = 0, len(alive)
        for batch in batches:
            for _ in range(batch.wounds):
                ref = alive[k % n_alive]
                taking = per_model.get(ref)
                if taking is None:
                    per_model[ref] = [batch]
                else:
                    taking.append(batch)  # type: ignore[attr-defined]  # a list, made just above
                k += 1
    # each save group's wounds, by the model taking each; a group's wounds that kill outright (Instant Death) apart
    groups: dict[tuple[str | None, int | None, int | None], list[ModelRef]] = {}
    hurt = [models[ref][1] for ref in per_model]
    if one_each and len(set(map(_UNIT, per_model))) == 1 \
            and len(set(zip(map(_SAVE, hurt), map(_INVULNERABLE, hurt)))) == 1 \
            and not (several and _any_killed_outright(models, per_model, batches[0].strength, hurt)):
        # a wound each on models of one unit with one save (the usual volley): one save group, its save worked out once
        batch, (unit, model) = batches[0], models[alive[0]]
        armour = None if batch.ignores_armour else model.profile.save
        save = best_save(armour, model.profile.invulnerable, batch.ap)
        groups[(unit.id if unit.character is not None else None, save, None)] = list(per_model)
    else:
        saves: dict[tuple[int | None, int | None, int | None, bool], int | None] = {}  # best_save by its inputs
        weakest = 2 * min(map(_TOUGHNESS, looked)) if several else 0  # the Strength that may kill outright
        for ref, taking in per_model.items():  # the models that take wounds, in allocation order
            unit, model = models[ref]
            character = unit.id if unit.character is not None else None
            profile = model.profile
            for batch in taking:
                asked = (profile.save, profile.invulnerable, batch.ap, batch.ignores_armour)
                if asked in saves:
                    save = saves[asked]
                else:
                    armour = None if batch.ignores_armour else profile.save
                    save = saves[asked] = best_save(armour, profile.invulnerable, batch.ap)
                # wounds that would kill this model outright are saved apart, so that each unsaved one is known
                kills = batch.strength if several and batch.strength is not None and batch.strength >= weakest \
                    and _killed_outright(unit, model, batch.strength) else None
                group = groups.get((character, save, kills))
                if group is None:
                    groups[(character, save, kills)] = [ref]
                else:
                    group.append(ref)
    out: list[SavesGroup] = []
    for (character, save, kills), wounded in groups.items():
        refs = list(dict.fromkeys(wounded))
        names = models[refs[0]][1].name if len(refs) == 1 else f"{len(refs)} models"
        outright = _NO_KILLS if kills is None else dict.fromkeys(refs, kills)
        out.append(((character, save), refs, len(wounded), names, f"{who}: saves ({save}+) for {names}", outright))
    return out


def _any_killed_outright(models: dict[ModelRef, tuple[Unit, Model]], refs: Iterable[ModelRef],
                         strength: int | None, looked: Sequence[Model]) -> bool:
    """Say whether a wound of ``strength`` would kill any of these models (``looked``: theirs, in order) outright
    (``_killed_outright``); the Toughnesses are compared first, so that the usual volley asks no more."""
    return strength is not None and strength >= 2 * min(map(_TOUGHNESS, looked)) \
        and any(_killed_outright(*models[ref], strength) for ref in refs)


@implements("published.wound-allocation")
def _fewest_left_first(alive: list[ModelRef], models: dict[ModelRef, tuple[Unit, Model]]) -> list[ModelRef]:
    """Order the living models of each unit (the units kept in pool order, a joined character apart) by the Wounds
    each has left, fewest first, ties in pool order: wounds go first to the models they can remove whole, a model
    already wounded taking the next wound before a fresh one ("remove whole models where possible"; 4th ed.,
    Removing casualties: one model removed per wound "assuming that the models in the unit have one Wound each").
    Wound k still goes to the k-th model of this order, so each save group's unsaved wounds (``_unsaved_taken``)
    slay whole models before wounding another.  Called only when some model of the pool has more than one Wound."""
    rows = [models[ref][1] for ref in alive]
    left = list(map(int.__sub__, map(_W, rows), map(_WOUNDS_TAKEN, rows)))
    if min(left) == max(left):  # every model as whole as the next (a fresh unit of one W): pool order stands
        return alive
    block = {uid: i for i, uid in enumerate(dict.fromkeys(map(_UNIT, alive)))}
    at = dict(zip(alive, left))
    return sorted(alive, key=lambda ref: (block[ref[0]], at[ref]))


@implements("published.wound-allocation")
def _spread(alive: Sequence[ModelRef], batches: Sequence[WoundBatch], reach: Sequence[frozenset[ModelRef]]
            ) -> dict[ModelRef, Sequence[WoundBatch]]:
    """Share out wounds whose weapons reach different models: each goes to the model its weapon reaches that has taken
    the fewest so far (the first of them in order), the batch reaching the fewest models first, so that as many
    models as can take one ("each will affect a different model", 4th ed., Removing casualties) before any takes a
    second.  With every batch reaching every model this is ``_save_groups``' round and round."""
    counts = dict.fromkeys(alive, 0)
    taken: dict[ModelRef, list[WoundBatch]] = {}
    for b in sorted(range(len(batches)), key=lambda i: len(reach[i])):  # stable: in their order among equals
        can = [ref for ref in alive if ref in reach[b]]
        if not can:  # no living model in its weapon's reach: its wounds are lost (``_lost_events``)
            continue
        batch = batches[b]
        for _ in range(batch.wounds):
            ref = min(can, key=counts.__getitem__)  # the first of the fewest
            counts[ref] += 1
            taken.setdefault(ref, []).append(batch)
    return {ref: taken[ref] for ref in alive if ref in taken}


def _outright_events(outright: Sequence[tuple[ModelRef, int, int]], models: dict[ModelRef, tuple[Unit, Model]]
                     ) -> list[Event]:
    """Say which models an unsaved wound killed outright (published.instant-death), with the Wounds each lost."""
    return [_outright_event(models[ref][1], strength, lost) for ref, strength, lost in outright]


def _outright_event(model: Model, strength: int, lost: int) -> Event:
    """Say that an unsaved wound of ``strength`` killed ``model`` outright (published.instant-death), ``lost``
    Wounds in all."""
    return Event("instant_death", f"Instant Death: {model.name} (T{model.profile.t}) takes an unsaved wound of "
                 f"S{strength}, double his Toughness or more, and loses all {lost} Wounds he had left",
                 (INSTANT_DEATH,), data=(("model", model.name), ("strength", strength), ("lost", lost)))


def _roll_saves(group: SavesGroup, dice: Dice) -> int:
    """Roll a save group's saves (none without a save); return how many are saved."""
    save = group[0][1]
    return 0 if save is None else dice.pool(group[2], save, group[4], "published.saves")


def _saves_event(group: SavesGroup, saved: int, rules: tuple[str, ...], rolls: tuple[RollRecord, ...]) -> Event:
    """Say how a save group's wounds were saved."""
    n, unsaved = group[2], group[2] - saved
    kind = "no save" if group[0][1] is None else f"{saved} saved"
    return Event("saves", f"{group[3]}: {n} wound{'s' * (n != 1)}, {kind}, {unsaved} unsaved", rules, rolls)


def _unsaved_taken(groups: Sequence[SavesGroup], models: dict[ModelRef, tuple[Unit, Model]],
                   unsaved: Sequence[int], left_over: list[int] | None = None,
                   outright: list[tuple[ModelRef, int, int]] | None = None) -> dict[ModelRef, int]:
    """Share each group's unsaved wounds out: they slay whole models in order, any excess is lost (each group's
    excess appended to ``left_over`` when given: ``_not_carried`` tells it).  A wound that kills its model outright
    (Instant Death: the group's last item) takes all the Wounds it has left (each such model, the Strength and the
    Wounds it lost appended to ``outright`` when given)."""
    taken: dict[ModelRef, int] = {}
    for group, left in zip(groups, unsaved):
        kills = group[5]
        for ref in group[1]:
            if not left:
                break
            model = models[ref][1]
            room = model.profile.w - model.wounds_taken - taken.get(ref, 0)
            if kills and ref in kills and room > 0:  # published.instant-death: one unsaved wound, every Wound left
                taken[ref] = taken.get(ref, 0) + room
                left -= 1
                if outright is not None and room > 1:
                    outright.append((ref, kills[ref], room))
                continue
            got = room if room < left else left
            if got:
                taken[ref] = taken.get(ref, 0) + got
                left -= got
        if left_over is not None:
            left_over.append(left)
    return taken


def _last_models(before: GameState, unit_id: str, unit_now: Callable[[str], Unit]) -> list[Unit]:
    """Return the members of a unit (with the characters it had before) newly left with one model each, by
    ``unit_now``: the unit down to one model; or destroyed, each character it leaves a unit of one model of its own.

    None for the very same units (none newly reduced to one), none left, or the unit standing with more.
    """
    same, now, now_units = True, 0, []
    for x in before.combined(unit_id):  # the members it had before: a character released from a destroyed unit counts
        y = unit_now(x.id)
        if y is not x:
            same = False
        if y.models:
            now += len(y.models)
            now_units.append(y)
    if same or not now or (now != 1 and now_units[0].id == unit_id):
        return []
    if sum(len(x.models) for x in before.combined(unit_id)) > 1:
        return [last for last in now_units if len(last.models) == 1]
    return []


def _slain_now(models: dict[ModelRef, tuple[Unit, Model]], rest: Sequence[Job], wounds: int,
               looked: Sequence[Model] | None = None) -> bool:
    """Say whether a strike's slain may leave at once instead of at the end of its Initiative step.

    Blows at one Initiative are simultaneous, but only the step's later pools read the models
    (by index): a unit none of them reads loses its slain at once, unless the strike might
    destroy it (fewer ``wounds`` than its models standing in the pool keep it), since a
    destroyed unit releases its characters, which later strikes of the step do read.
    ``looked``: the models of ``models``, in order, if looked up.
    """
    later: set[str] = set()
    for job in rest:
        later.update(map(_UNIT, job[2]))
    units = list(map(_UNIT, models))
    if not later.isdisjoint(units):
        return False
    if looked is None:
        looked = list(map(_MODEL, models.values()))
    standing = compress(units, map(lt, map(_WOUNDS_TAKEN, looked), map(_W, looked)))
    if len(set(units)) == 1:  # the usual pool: the models of one unit, counted in C
        return wounds < (len(list(standing)) or wounds + 1)
    counts = Counter(standing)
    return wounds < min(counts.values(), default=wounds + 1)


def _allocate_melee(models: dict[ModelRef, tuple[Unit, Model]], saving: SaveSplit, got: int,
                    unsaved_now: Sequence[int], rules: tuple[str, ...], events: list[Event],
                    left_over: list[tuple[str, int]] | None = None, kills: Mapping[ModelRef, int] = _NO_KILLS
                    ) -> tuple[dict[ModelRef, int], int]:
    """Allocate a strike's ``got`` wounds, saved as rolled with them (``unsaved_now`` per group): ``_saved_wounds`` of one batch.

    Wound k goes to the k-th model that may take one, round and round, so each group takes
    its share of the split and its first models; unsaved wounds slay whole models in order,
    any excess is lost (each group's excess, by the unit of its models, appended to ``left_over``
    when given: ``_melee_not_carried`` tells it).  Append each group's saves event; return the
    wounds each model takes and the unsaved total.
    """
    split, order, alive, keys = saving
    row = split.shares[got]
    reached = alive[:got]
    taken: dict[ModelRef, int] = {}
    total = 0
    for i, (_, save) in enumerate(order):
        n = row[i]
        if not n:
            continue
        refs = reached if len(order) == 1 else [ref for ref, key in zip(reached, keys) if key == order[i]]
        unsaved = unsaved_now[i]
        left = unsaved
        outright: list[tuple[ModelRef, int, int]] = []
        for ref in refs:
            if not left:
                break
            model = models[ref][1]
            room = model.profile.w - model.wounds_taken
            if kills and ref in kills:  # published.instant-death: one unsaved wound takes every Wound left
                taken[ref] = room
                left -= 1
                outright.append((ref, kills[ref], room))
                continue
            taken[ref] = room if room < left else left
            left -= taken[ref]
        if left and left_over is not None:
            left_over.append((models[refs[0]][0].id, left))
        names = models[refs[0]][1].name if len(refs) == 1 else f"{len(refs)} models"
        kind = "no save" if save is None else f"{n - unsaved} saved"
        events.append(Event("saves", f"{names}: {n} wound{'s' * (n != 1)}, {kind}, {unsaved} unsaved", rules))
        if outright:
            events += _outright_events(outright, models)
        total += unsaved
    return taken, total


def _room_outside(group: Sequence[Unit], models: dict[ModelRef, tuple[Unit, Model]]) -> tuple[tuple[str, int], ...]:
    """Return the Wounds left to each member of a struck unit's combined ``group`` (the unit and the characters joined
    to it) with none of its models in the strike's pool (``models``): in 4th edition a strike on the unit never holds
    its characters (40k4.cc.separate-unit), nor one on a character the unit.  Members with none left are left out."""
    pooled = set(map(_UNIT, models))
    return tuple((u.id, left) for u in group if u.id not in pooled
                 and (left := sum(max(0, m.profile.w - m.wounds_taken) for m in u.models)) > 0)


@implements("published.wound-allocation", "40k4.cc.no-carry-over")
def _melee_not_carried(models: dict[ModelRef, tuple[Unit, Model]], taken: dict[ModelRef, int],
                       left_over: Sequence[tuple[str, int]], outside: tuple[tuple[str, int], ...],
                       carry: tuple[str, ...]) -> list[Event]:
    """Say how many of a close combat strike's unsaved wounds are lost only because they never carry over from the
    unit onto a character who joined it, or from such a character onto his unit (40k4.cc.no-carry-over: "wounds on
    a unit cannot carry over onto a joined character, and vice versa"; 3rd edition reads the character's wounds as
    his own group too, published.wound-allocation): each group's excess (``left_over``: by its unit) up to the
    Wounds its fellow members had left after the strike (in the pool: ``taken`` counted; outside it: ``outside``).
    The same ``not_carried_over`` event a volley tells (``_lost_events``); none when no fellow had a Wound left."""
    room: dict[str, int] = dict(outside)
    units: dict[str, Unit] = {}
    for ref, (unit, model) in models.items():
        units[unit.id] = unit
        left = model.profile.w - model.wounds_taken - taken.get(ref, 0)
        if left > 0:
            room[unit.id] = room.get(unit.id, 0) + left
    rules = (*carry, "published.wound-allocation")
    told: list[Event] = []
    for uid, excess in left_over:
        fellows = [other for other in room if other != uid]
        if not fellows:
            continue
        lost = min(excess, sum(room[other] for other in fellows))
        s = "s" * (lost != 1)
        unit = units[uid]
        if unit.is_character and unit.joined:
            told.append(Event("not_carried_over", f"{lost} wound{s} on {uid} lost: a joined character's unsaved "
                              f"wounds never carry over onto {', '.join(fellows)}", rules,
                              data=(("unit", uid), ("lost", lost), ("onto", "its unit"))))
        else:
            told.append(Event("not_carried_over", f"{lost} wound{s} on {uid} lost: the unit's unsaved wounds never "
                              f"carry over onto {', '.join(fellows)}, who joined it", rules,
                              data=(("unit", uid), ("lost", lost))))
    return told


@implements("published.combat-resolution")
def _strike_delta(plan: _StrikePlan, state: GameState, rest: Sequence[Job], decided: tuple[int, ...],
                  carry: tuple[str, ...], room: Callable[[], tuple[tuple[str, int], ...]] = tuple
                  ) -> tuple[StrikeDelta, tuple[tuple[str, int], ...] | None]:
    """Work out what a strike's dice do to the units it reads (``CombatRules._strike_outcome``), in ``state``.

    The wounds are allocated in the same pass that worked out the save groups (``_save_split``
    and ``_saved_wounds`` of one batch, held to them by ``tests/test_fast_fights.py``); the
    slain leave at once unless a later pool of the Initiative step reads their unit (``_slain_now``).
    """
    got = decided[0]
    assert plan.saving is not None  # a strike that wounds has its saves
    models = plan.models
    rules = ("published.wound-allocation", *carry)
    remove = not rest or _slain_now(models, rest, got, plan.targets)
    events: list[Event] = []
    left_over: list[tuple[str, int]] = []
    taken, unsaved = _allocate_melee(models, plan.saving, got, decided[1:], rules, events, left_over, plan.kills)
    changed: list[Unit] = []
    if taken:
        changed, slain = _wounded_units(state, taken, remove)
        if slain:
            events.append(_casualties(slain, rules))
    outside = None
    if left_over:  # some unsaved wounds found no model of their group to take them
        outside = room()
        events.extend(_melee_not_carried(models, taken, left_over, outside, carry))
    waiting = tuple(dict.fromkeys(map(_UNIT, models))) if unsaved and not remove else ()
    # the combat result counts the wounds the strike inflicted: those a model took, up to its last Wound; unsaved
    # wounds beyond it, or that found no model, are lost and count for nothing (published.combat-resolution's decision)
    inflicted = sum(taken.values())
    return (tuple(changed), tuple(events), inflicted, waiting), outside


def _fired(state: GameState, unit_id: str, target_id: str) -> GameState:
    """Record the target a unit (or a character in it) fired at this turn (40k4.shoot.same-target)."""
    if state.target_fired_at(unit_id) is not None:
        return state
    return evolve(state, fired_at=(*state.fired_at, (unit_id, target_id)))


def _apply_wounds(state: GameState, taken: dict[ModelRef, int], remove: bool = True) -> tuple[GameState, list[str]]:
    """Add wounds to models and remove those reduced to 0 Wounds (core.zero.w); return the slain names.

    With ``remove`` False the slain stay (at 0 Wounds) until the end of an Initiative step,
    since blows at one Initiative are simultaneous.
    """
    changed, slain = _wounded_units(state, taken, remove)
    return _release_orphans(state.replace_units(*changed)), slain


def _casualties(slain: Sequence[str], rules: tuple[str, ...]) -> Event:
    """Name the models slain by wounds (core.zero.w)."""
    return Event("casualties", f"slain: {', '.join(slain)}", ("core.zero.w", *rules), data=(("slain", len(slain)),))


@implements("core.zero.w")
def _wounded_units(state: GameState, taken: dict[ModelRef, int], remove: bool = True) -> tuple[list[Unit], list[str]]:
    """Return the units with wounds added (``_apply_wounds``, not yet in a state) and the slain names: a model whose
    wounds reach its W is removed as a casualty (core.zero.w), here for every volley and strike."""
    slain: list[str] = []
    changed: list[Unit] = []
    hit: dict[str, list[int]] = {}
    for uid, i in taken:
        wounded = hit.get(uid)
        if wounded is None:
            hit[uid] = [i]
        else:
            wounded.append(i)
    for uid, wounded in hit.items():
        unit = state.unit(uid)
        models: list[Model | None] = list(unit.models)
        for i in sorted(wounded):  # the slain named in the unit's order
            m = unit.models[i]
            wounds = m.wounds_taken + taken[(uid, i)]
            if m.profile.w - wounds <= 0:  # is_casualty
                slain.append(m.name)
                if remove:  # removed at once: no new model to build
                    models[i] = None
                    continue
            models[i] = evolve(m, wounds_taken=wounds)
        if remove:  # and any model left at 0 Wounds before
            kept = tuple([m for m in models if m is not None and m.wounds_taken < m.profile.w])
        else:
            kept = tuple(models)  # type: ignore[arg-type]  # no model removed: none is None
        changed.append(evolve(unit, models=kept))
    return changed, slain


def _fought_unit(unit: Unit) -> Unit:
    """Return ``unit`` marked as having fought its close combat this phase."""
    return evolve(unit, status=unit.status | _FOUGHT)


def _without_slain(unit: Unit) -> Unit:
    """Return ``unit`` without its models left at 0 Wounds."""
    return evolve(unit, models=tuple(m for m in unit.models if not is_casualty(m.wounds_left)))


def _remove_casualties(state: GameState) -> GameState:
    """Remove the models left at 0 Wounds at the end of an Initiative step (only the units that have any)."""
    # each unit's value without its slain kept on the unit: the states a fight fought again reaches share them
    struck = [u.remember(_SLAIN_REMOVED, partial(_without_slain, u)) for u in state.units
              if any(map(is_casualty, map(_WOUNDS_LEFT, u.models)))]
    return _release_orphans(state.replace_units(*struck) if struck else state)


def _release_orphans(state: GameState) -> GameState:
    """Make a character whose unit was destroyed a unit of its own again (free to join another).

    40k4.char.retinue: once the retinue is destroyed the character may move between units again.
    An ordinary character (40k3.char.kinds) is all that is left of the unit he was deployed in:
    ``last_of`` names it, so a saved game says where he came from.
    """
    dead = {u.id for u in state.units if not u.models}
    if not dead:
        return state
    orphans = [evolve(u, joined=None, last_of=u.joined if u.character is CharacterKind.ORDINARY else u.last_of)
               for u in state.units if u.joined in dead and u.models]
    return state.replace_units(*orphans) if orphans else state


class _AssaultWay(NamedTuple):
    """What difficult terrain on an assault's way asks before any die (``CombatRules._assault_way``)."""

    unslowed: bool  # the edition lets this type through: tests (the marked ``moves``) instead of a roll
    moves: list[movement.PlannedMove]
    need: float  # the longest path through difficult terrain
    factor: int  # what the highest die is multiplied by (4th ed. cavalry: 2)
    dice: int  # how many D6 the highest is taken of
    below: int  # re-roll the dice when the highest is below this (``difficult_terrain_dice``)
    rule: str  # the clause that sets the dice


#: How close (edge to edge, in inches) a charger's base must end to an enemy's to count as in base contact again,
#: once Dangerous Terrain tests took models away (``_charge_spot`` places bases touching, a rectangle by its half width).
_CONTACT = 0.05


def _charge_spots(state: GameState, members: Sequence[Unit], theirs: Sequence[geo.Placed], reach: float
                  ) -> tuple[dict[tuple[str, int], geo.Point], int]:
    """Return where each charging model ends (nearest to the enemy first, ``_charge_spot``) and how many touch."""
    movers = sorted(((u.id, i) for u in members for i in range(len(u.models))),
                    key=lambda r: geo.group_distance([state.unit(r[0]).models[r[1]].placed], theirs))
    placed_now = {(u.id, i): m.placed for u in state.units for i, m in enumerate(u.models)}
    new_at: dict[tuple[str, int], geo.Point] = {}
    contacts = 0
    for ref in movers:
        model = state.unit(ref[0]).models[ref[1]]
        spot, touching = _charge_spot(model, theirs, reach, [p for r, p in placed_now.items() if r != ref])
        new_at[ref] = spot
        placed_now[ref] = geo.Placed(model.base, spot, model.facing)
        contacts += touching
    return new_at, contacts


def _assault_paths(state: GameState, members: Sequence[Unit], new_at: Mapping[tuple[str, int], geo.Point],
                   rough: Sequence[geo.Terrain]) -> list[movement.PlannedMove]:
    """Return each charger's straight move to where it ends, marked where its path meets difficult or dangerous
    terrain (as ``movement.plan`` marks a move: the centre's line, start and end included)."""
    out = []
    for u in members:
        for i, m in enumerate(u.models):
            to = new_at[(u.id, i)]
            dangerous = geo.segment_enters_terrain(m.at, to, rough, "dangerous")
            difficult = dangerous or geo.segment_enters_terrain(m.at, to, rough, "difficult")
            out.append(movement.PlannedMove(u.id, i, m, to, math.dist(m.at, to), difficult, dangerous))
    return out


def _charge_spot(model: Model, targets: Sequence[geo.Placed], reach: float,
                 others: Iterable[geo.Placed]) -> tuple[geo.Point, bool]:
    """Return where a charging model ends: touching the nearest enemy model it can reach, else as close as it gets."""
    others = list(others)
    r = model.base.radius_inches if model.base.round else model.base.width_mm / geo.MM_PER_INCH / 2
    for t in sorted(targets, key=lambda p: geo.distance(model.placed, p)):
        rt = t.base.radius_inches if t.base.round else t.base.width_mm / geo.MM_PER_INCH / 2
        base_angle = math.atan2(model.at[1] - t.at[1], model.at[0] - t.at[0])
        for k in range(0, 13):
            for sign in ((1,) if k == 0 else (1, -1)):
                a = base_angle + sign * k * math.pi / 12
                spot = (t.at[0] + (r + rt) * math.cos(a), t.at[1] + (r + rt) * math.sin(a))
                if math.dist(spot, model.at) > reach + geo.EPSILON:
                    continue
                here = geo.Placed(model.base, spot, model.facing)
                if not any(geo.overlaps(here, o) for o in others):
                    return spot, True
    nearest = min(targets, key=lambda p: geo.distance(model.placed, p))
    gap = geo.distance(model.placed, nearest)
    step = min(reach, max(0.0, gap - 0.05))
    dx, dy = nearest.at[0] - model.at[0], nearest.at[1] - model.at[1]
    norm = max(math.hypot(dx, dy), 1e-9)
    while step > 0:
        spot = (model.at[0] + dx / norm * step, model.at[1] + dy / norm * step)
        if not any(geo.overlaps(geo.Placed(model.base, spot, model.facing), o) for o in others):
            return spot, False
        step -= 0.25
    return model.at, False


__all__ = ["CombatRules", "WoundBatch", "HerohammerError", "Phase"]
