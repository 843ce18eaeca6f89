"""The 9th Age: the Charge Move of a single-model charger, forwards after at most one Wheel (published.t9a-charge).

The 2022 text (Charge Move): "The unit can move forwards an unlimited distance. A single Wheel can be performed during
the move (a Wheel may not exceed 90)"; "The Front Facing of the Charging unit must contact the" Target Facing, the
Facing of the charged unit in whose Arc the centre of the charger's front stands.  Until round 50 every charger took
the shortest straight way to its target (``t9a_moves.charge_contact``), so a lone character whose forward way passed
behind a unit slid sideways onto its corner (round 49).  This module moves a single model (a lone character, a last
survivor, a unit of one) the text's way: the wheel named, or else the smallest wheel in whole degrees that works, then
straight forward until its base first touches the target's.  Units of several models and a character charging out of
his unit (seed 002: "in base contact with his target") keep the straight way; so the hot paths of a unit's charge do
not reach this module.  A link of the 9th Age chain just above ``t9a_moves``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..catalogue import implements
from ..charging import CHARGE_RULE
from ..geometry import EPSILON, Placed, Point, segment_distance
from ..state import GameState
from ..swept_contact import NEVER, group_first_contact
from ..units import Unit
from .t9a_units import CHARGE_ARC, formation_of, host_of
from .t9a_moves import path_problem, wheel_problem, WHEEL_RULE, wheeled

#: The greatest Wheel (degrees) a Charge Move may make (2022 text, Charge Move: "a Wheel may not exceed 90").
MOST_WHEEL = 90
#: How near (inches) the charger's front must come to the Target Facing for the first contact to count as made on it:
#: the first contact is worked out in closed form (``swept_contact``), so only float rounding parts them.
ON_FACING = 1e-6


@dataclass(frozen=True)
class ForwardCharge:
    """A single model's Charge Move: its wheel (degrees, positive turns left; 0 for none), what the wheel costs of the
    move (inches), then how far it goes straight forward to contact, and the Target Facing it touches."""

    wheel: float
    arc: float
    ahead: float
    facing: str
    way: Point  # the unit vector it moves forward along

    @property
    def reach(self) -> float:
        """The distance the Charge Range must reach: the wheel's arc and the forward move."""
        return self.arc + self.ahead

    @property
    def move(self) -> Point:
        """The straight forward move after the wheel."""
        return self.ahead * self.way[0], self.ahead * self.way[1]


def single_charger(state: GameState, unit: Unit, out: bool) -> bool:
    """Say whether a charger moves as one model (a lone character, a last survivor, a unit of one): not a character
    charging out of his unit, nor a unit with a character in it."""
    return not out and len(unit.models) == 1 and not state.joined_to(unit.id)


def facing_way(facing: float) -> Point:
    """Return the unit vector a model facing ``facing`` degrees moves forward along (0: up the table; facings count
    counter-clockwise)."""
    t = math.radians(facing)
    return -math.sin(t), math.cos(t)


def _wheels(named: float | None) -> Iterator[float]:
    """The wheels to try: the one named, else none, then whole degrees outwards to 90, left before right."""
    if named is not None:
        yield named
        return
    yield 0.0
    for k in range(1, MOST_WHEEL + 1):
        yield float(k)
        yield float(-k)


def facing_side(target: Unit, facing: str) -> tuple[Point, Point] | None:
    """Return the edge of the charged unit's outline that is its ``facing`` Facing (None: it has no formation)."""
    f = formation_of(target)
    if f is None:
        return None
    left, right = f.front_corners()
    depth = f.ranks * f.slot_mm[1] / 25.4
    t = math.radians(f.facing)
    bx, by = math.sin(t) * depth, -math.cos(t) * depth
    back_left, back_right = (left[0] + bx, left[1] + by), (right[0] + bx, right[1] + by)
    return {"front": (left, right), "rear": (back_left, back_right), "left": (left, back_left),
            "right": (right, back_right)}[facing]


def target_facing(unit: Unit, target: Unit) -> str | None:
    """Return the Target Facing: the Facing of the charged unit in whose Arc the centre of the charger's front stands
    as the Charge Move begins (2022 text, Charge Move), or None when either has no formation."""
    mine, theirs = formation_of(unit), formation_of(target)
    if mine is None or theirs is None:
        return None
    return theirs.arc_of(mine.position)


@implements(CHARGE_RULE, WHEEL_RULE, CHARGE_ARC)
def forward_charge(state: GameState, unit: Unit, target: Unit, named: float | None, reach: float,
                   own: set[str], fly: bool) -> ForwardCharge | str:
    """Return a single model's Charge Move at ``target``, or why it has none.

    With a wheel ``named``, that wheel then straight forward; without, the smallest whole-degree wheel (none first,
    then 1 degree left, 1 right, ... up to 90) whose forward move brings the charger's front onto the Target Facing
    within ``reach`` (its greatest Charge Range), its way clear: the wheel sweeps through no unit but the target nor
    Impassable Terrain (``wheel_problem``, unless it flies), and the forward move crosses and ends on none
    (``path_problem``).  A Wheel turns the model about its own front corner (``Formation.wheeled``).
    """
    mine = formation_of(unit)
    if mine is None:
        return f"{unit.id} has no front to charge with"
    charged = host_of(state, target)
    facing = target_facing(unit, charged)
    side = facing_side(charged, facing) if facing is not None else None
    model = unit.models[0]
    bases = [(p, 0.0) for p in target.placed]
    missed = touched = ""  # why no wheel brought its front onto the Target Facing; why none that did was taken
    for wheel in _wheels(named):
        f = mine.wheeled(wheel) if wheel else mine
        arc = mine.wheel_distance(wheel)
        way = facing_way(f.facing)
        at = f.slot_point(0) if wheel else model.at
        start = Placed(model.base, at, f.facing) if wheel else model.placed
        ahead = group_first_contact([start], way, bases)[0]
        if ahead == NEVER:
            missed = missed or "meets no model of it"
            continue
        if side is not None:
            front = tuple((c[0] + ahead * way[0], c[1] + ahead * way[1]) for c in f.front_corners())
            if segment_distance(front[0], front[1], *side) > ON_FACING:
                missed = missed or f"touches it off its {facing} Facing, the Target Facing"
                continue
        if arc + ahead > reach + EPSILON:
            after = f" after a {wheel:g} degree wheel" if wheel else ""
            touched = touched or f"reaches it {arc + ahead:.2f}\" away{after}, beyond its greatest Charge Range"
            continue
        turned = wheeled(state, unit, wheel) if wheel else state
        problem = None if fly or not wheel else wheel_problem(state, unit, wheel, own, frozenset({target.id}))
        if problem is None:
            end = (at[0] + ahead * way[0], at[1] + ahead * way[1])
            problem = path_problem(turned, [(turned.unit(unit.id).models[0], end)], own, fly,
                                   frozenset({target.id}), frozenset({target.id}))
        if problem is not None:
            after = f" after a {wheel:g} degree wheel" if wheel else ""
            touched = touched or f"has no clear way{after} ({problem})"
            continue
        return ForwardCharge(wheel, arc, ahead, facing or "", way)
    if touched or named is not None:
        return touched or missed
    return f"{missed}, and no wheel of up to {MOST_WHEEL} degrees brings its front onto the Target Facing"
