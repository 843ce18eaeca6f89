"""Models, units, characters, special rules and status, as immutable values.

An independent character is a unit of its own even while it has joined another
(``joined`` names the host): the 40k rules treat it as a separate unit in close
combat and for Last Man Standing, and leaving is then just clearing ``joined``.
Immutable values make ``undo`` a matter of keeping the previous state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from enum import StrEnum

from .formations import Formation
from .geometry import Base, Placed, Point
from .profiles import Profile
from .values import HashOnce, cached, evolve


class UnitType(StrEnum):
    """Name a troop type; it sets how far a model moves and how far it may assault."""

    INFANTRY = "infantry"
    JUMP_INFANTRY = "jump_infantry"
    CAVALRY = "cavalry"
    BIKE = "bike"
    MONSTROUS_CREATURE = "monstrous_creature"
    VEHICLE = "vehicle"


class CharacterKind(StrEnum):
    """Say whether a character is deployed in a unit for good or acts on its own (40k3.char.kinds)."""

    ORDINARY = "ordinary"
    INDEPENDENT = "independent"


class Status(StrEnum):
    """Name a unit's condition or what it has done this turn."""

    FALLING_BACK = "falling_back"
    PINNED = "pinned"
    NEWLY_PINNED = "newly_pinned"  # pinned in its own turn: the pin lasts through its following turn too
    LOCKED = "locked"
    FLEEING = "fleeing"
    ENGAGED = "engaged"
    SHAKEN = "shaken"
    MOVED = "moved"
    REGROUPED = "regrouped"  # 40k: took its Regroup test this Movement phase: it moves no further (published.regroup)
    MARCHED = "marched"
    RAN = "ran"  # 40k: ran with Fleet in this turn's Shooting phase (instead of shooting)
    SHOT = "shot"
    #: 40k: fired a Rapid Fire, Ordnance or (Infantry) Heavy weapon this turn: it may not assault
    #: (published.assault-after-firing)
    FIRED_NO_ASSAULT = "fired_no_assault"
    ASSAULTED = "assaulted"
    USED_POWER = "used_power"  # 40k: has taken its psychic test this turn, passed or failed
    #: 40k: failed its psychic test this turn (with USED_POWER): no power this turn, said so when another is asked
    #: (40k3.psyker.test, published.40k4-psychic-test)
    PSYCHIC_TEST_FAILED = "psychic_test_failed"
    CHARGED = "charged"
    FOUGHT = "fought"  # 40k: has fought its close combat this Assault phase
    #: 40k: fell back off the table edge: gone from the battle, not slain (published.leaving-the-battle; judge round 63:
    #: a shot at it said its last model was removed at 0 Wounds)
    LEFT_BATTLE = "left_battle"
    MAY_CONSOLIDATE = "may_consolidate"  # 40k4: left free by its close combat's result, may consolidate this phase
    HALTED = "halted"  # t9a.join.unit-stops: may not move again this turn
    NO_CHARGE = "no_charge"  # t9a.charge-out.no-other-charges: may not declare a charge this turn
    RALLY_TESTED = "rally_tested"  # t9a: has taken its Rally test this turn (published.t9a-rally)
    STOOD_AND_SHOT = "stood_and_shot"  # t9a: has made a Stand and Shoot this player turn (published.t9a-stand-and-shoot)
    FLED_FROM_CHARGE = "fled_from_charge"  # t9a: has fled as a Charge Reaction this player turn (published.t9a-flee-reaction)
    PANIC_PASSED = "panic_passed"  # t9a: has passed a Panic test this phase, so takes no other (published.t9a-panic)
    #: t9a: a character nominated when a Duel was refused: Discipline 0, no melee attacks, no Battle Standard bonus
    #: or Rally Around the Flag until it issues or accepts a Duel or its combat ends (published.t9a-duel)
    DUEL_REFUSED = "duel_refused"
    #: t9a: failed its March Test this Movement Phase: it may not March, but may still Advance, Reform or stay
    #: (published.t9a-move, the 2022 text's March Test)
    MARCH_TEST_FAILED = "march_test_failed"
    #: t9a: charged an enemy unit with its Pursuit Move: counts as Charging in that combat's next round, fought in the
    #: next Melee phase (published.t9a-pursuit)
    PURSUIT_CHARGED = "pursuit_charged"
    #: t9a: charged with its Pursuit Move in the last player turn: Charging (with CHARGED) until this turn ends
    #: (published.t9a-pursuit)
    PURSUIT_CHARGING = "pursuit_charging"
    #: t9a: made a Failed Charge Move this player turn (with CHARGED): no Move Manoeuvre and no shooting until it ends
    #: (published.t9a-failed-charge); a charger without it reached its target, or caught the unit that fled from it
    FAILED_CHARGE = "failed_charge"


_PLACED = attrgetter("placed")
_AT, _REACH = attrgetter("at"), attrgetter("base.reach_inches")
_X, _Y = itemgetter(0), itemgetter(1)

#: Statuses that last only until the end of the active side's turn.
TURN_STATUSES = frozenset({Status.MOVED, Status.MARCHED, Status.RAN, Status.SHOT, Status.FIRED_NO_ASSAULT,
                           Status.ASSAULTED,
                           Status.USED_POWER, Status.PSYCHIC_TEST_FAILED, Status.CHARGED, Status.HALTED, Status.NO_CHARGE,
                           Status.RALLY_TESTED, Status.REGROUPED, Status.FAILED_CHARGE})


@dataclass(frozen=True)
class Model(HashOnce):
    """One model: its profile, base, place on the table and wounds taken."""

    __hash__ = HashOnce.__hash__  # kept by dataclass: hashed once per value
    __eq__ = HashOnce.__eq__  # kept by dataclass: its fields taken in C

    name: str
    profile: Profile
    base: Base
    at: Point
    facing: float = 0.0
    wounds_taken: int = 0
    weapons: tuple[str, ...] = ()
    role: str = ""  # t9a: champion, musician, standard; empty for rank and file
    #: Inches moved this phase: one move allowance per model per phase, however many actions move it.
    moved: float = 0.0

    @cached
    def placed(self) -> Placed:
        """Return the base at its place, for geometry (built once per model value)."""
        return Placed(self.base, self.at, self.facing)

    @property
    def wounds_left(self) -> int:
        """Return the wounds the model has left."""
        return self.profile.w - self.wounds_taken

    def moved_to(self, at: Point) -> Model:
        """Return the model standing at ``at``."""
        return evolve(self, at=(float(at[0]), float(at[1])))

    def walked_to(self, at: Point, inches: float) -> Model:
        """Return the model at ``at`` having spent ``inches`` more of this phase's move allowance."""
        if not (type(at) is tuple and len(at) == 2 and type(at[0]) is float and type(at[1]) is float):
            at = (float(at[0]), float(at[1]))  # a planned place is a pair of floats already
        return evolve(self, at=at, moved=self.moved + inches)


@dataclass(frozen=True)
class Unit(HashOnce):
    """One unit (an independent character is one too), with its side, rules and status."""

    __hash__ = HashOnce.__hash__  # kept by dataclass: hashed once per value
    __eq__ = HashOnce.__eq__  # kept by dataclass: its fields taken in C

    id: str
    side: str
    type: UnitType
    models: tuple[Model, ...]
    character: CharacterKind | None = None
    rules: frozenset[str] = frozenset()
    joined: str | None = None
    status: frozenset[Status] = frozenset()
    special: bool = False
    formation: Formation | None = None  # t9a rank and file: ranks, files, facing, slots
    #: t9a.combined.last-survivor: the destroyed combined unit whose last survivor this character is (and so is).
    last_of: str | None = None
    #: t9a: the spells this unit's Wizard (or a Wizard Conclave's champion) chose before the game.
    spells: tuple[str, ...] = ()
    #: 40k: the transport vehicle this unit rides in; while embarked it is off the table.
    embarked_in: str | None = None
    #: 40k: how many models this vehicle carries (0: it is no transport).
    capacity: int = 0
    #: The models the unit had at the start of the battle (published.regroup: half strength), its joined
    #: characters not counted; None where nothing recorded it (then as many as it has now).
    models_at_start: int | None = None

    @property
    def is_character(self) -> bool:
        """Say whether the unit is a character."""
        return self.character is not None

    @property
    def is_independent(self) -> bool:
        """Say whether the unit is an independent character."""
        return self.character is CharacterKind.INDEPENDENT

    @property
    def alive(self) -> bool:
        """Say whether the unit has any model left (on the table or riding in a transport)."""
        return bool(self.models)

    @property
    def on_table(self) -> bool:
        """Say whether the unit stands on the table: alive and not embarked in a transport."""
        return bool(self.models) and self.embarked_in is None

    @property
    def starting_strength(self) -> int:
        """Return the models the unit had at the start of the battle (as many as now where none was recorded)."""
        return len(self.models) if self.models_at_start is None else self.models_at_start

    def has(self, status: Status) -> bool:
        """Say whether the unit has a status."""
        return status in self.status

    def has_rule(self, rule: str) -> bool:
        """Say whether the unit has a special rule by name (its own rules only)."""
        return rule in self.rules

    def with_status(self, *add: Status, remove: tuple[Status, ...] = ()) -> Unit:
        """Return the unit with statuses added and removed (itself when that changes none: it keeps what it worked
        out about itself, its places and box, for the states after)."""
        status = (self.status - frozenset(remove)) | frozenset(add)
        if type(status) is type(self.status) and status == self.status:  # a hidden status settled is a change
            return self
        return evolve(self, status=status)

    @cached
    def placed(self) -> tuple[Placed, ...]:
        """Return every model's base at its place (built once per unit value: rules ask it in every step)."""
        return tuple(map(_PLACED, self.models))

    @cached
    def extent(self) -> tuple[float, float, float, float]:
        """Return the box (min x, min y, max x, max y) holding every model's bounding circle, so that a move far from
        it is seen to pass clear of the whole unit at once (an empty box for a unit with no models)."""
        if not self.models:
            return (math.inf, math.inf, -math.inf, -math.inf)
        if len(self.models) == 1:  # a lone model (a character, say): its own circle
            (x, y), reach = self.models[0].at, self.models[0].base.reach_inches
            return x - reach, y - reach, x + reach, y + reach
        ats = list(map(_AT, self.models))  # read in C: every new unit a rule measures works its box out once
        xs, ys = list(map(_X, ats)), list(map(_Y, ats))
        reach = max(map(_REACH, self.models))
        return min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach
