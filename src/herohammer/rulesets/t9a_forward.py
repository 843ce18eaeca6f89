"""The 9th Age: the Charge Move, forwards after at most one Wheel (published.t9a-charge).

The 2022 text (Charge Move): "The unit can move forwards an unlimited distance. A single Wheel can be performed during
the move (a Wheel may not exceed 90)"; "The Front Facing of the Charging unit must contact the" Target Facing, the
Facing of the charged unit in whose Arc the centre of the charger's front stands.  Until round 50 every charger took
the shortest straight way to its target (``t9a_moves.charge_contact``), so a lone character whose forward way passed
behind a unit slid sideways onto its corner (round 49); until session 48 a unit of several models (and a unit with a
character in it) still did, so a charge at an angle could be ruled in range where the wheel and the forward move are
not.  This module moves every charger with a front (a lone character, a last survivor, a ranked unit with its
characters) the text's way: the wheel named, or else the smallest wheel in whole degrees that works, then straight
forward until one of its bases first touches one of the target's.  A character charging out of his unit (seed 002:
"in base contact with his target") and an unranked unit of several models keep the straight way.  The hot path, a
target straight ahead, costs one closed-form first contact and a box test of the way.  A link of the 9th Age chain
just above ``t9a_moves``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import attrgetter

from ..catalogue import implements
from ..charging import CHARGE_RULE
from ..formations import Formation
from ..geometry import (EPSILON, group_extent, MM_PER_INCH, Placed, Point, segments_within,
                        segment_point_distance)
from ..state import GameState
from ..swept_contact import NEVER, group_first_contact
from ..units import Model, Unit
from .t9a_units import CHARGE_ARC, formation_of, host_of, member_models, placed_all
from .t9a_moves import path_problem, wheel_problem, WHEEL_RULE, wheeled

#: The greatest Wheel (degrees) a Charge Move may make (2022 text, Charge Move: "a Wheel may not exceed 90").
MOST_WHEEL = 90
#: How near (inches) the charger's front must come to the Target Facing for the first contact to count as made on it:
#: the first contact is worked out in closed form (``swept_contact``), so only float rounding parts them.
ON_FACING = 1e-6


@dataclass(frozen=True)
class ForwardCharge:
    """A Charge Move: its wheel (degrees, positive turns left; 0 for none), what the wheel costs of the
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


def forward_charger(unit: Unit, out: bool) -> bool:
    """Say whether a charger makes the text's Charge Move (forwards, after at most one Wheel): any with a front (a lone
    model, a ranked unit with or without characters in it), not a character charging out of his unit (seed 002)."""
    return not out and formation_of(unit) is not None


def facing_way(facing: float) -> Point:
    """Return the unit vector a model facing ``facing`` degrees moves forward along (0: up the table; facings count
    counter-clockwise)."""
    t = math.radians(facing)
    return -math.sin(t), math.cos(t)


def _wheels(named: float | None, mine: Formation, side: tuple[Point, Point] | None,
            tol: float) -> Iterator[tuple[float, float]]:
    """The wheels to try, each with a floor of what it costs (0: not worked out): the one named, else none, then
    whole degrees outwards to 90, left before right, those whose front can never come onto the Target Facing
    passed over (``_open_wheels``; without a Target Facing, every one)."""
    if named is not None:
        yield named, 0.0
        return
    yield 0.0, 0.0
    if side is not None:
        yield from _open_wheels(mine, side, tol)
        return
    for k in range(1, MOST_WHEEL + 1):
        yield float(k), 0.0
        yield float(-k), 0.0


def facing_side(target: Unit, facing: str) -> tuple[Point, Point] | None:
    """Return the edge of the charged unit's outline that is its ``facing`` Facing (None: it has no formation)."""
    f = formation_of(target)
    if f is None:
        return None
    left, right = f.front_corners()
    depth = f.ranks * f.slot_mm[1] / 25.4
    t = math.radians(f.facing)
    bx, by = math.sin(t) * depth, -math.cos(t) * depth
    if facing == "front":
        return left, right
    back_left, back_right = (left[0] + bx, left[1] + by), (right[0] + bx, right[1] + by)
    return {"rear": (back_left, back_right), "left": (left, back_left), "right": (right, back_right)}[facing]


def target_facing(unit: Unit, target: Unit) -> str | None:
    """Return the Target Facing: the Facing of the charged unit in whose Arc the centre of the charger's front stands
    as the Charge Move begins (2022 text, Charge Move), or None when either has no formation."""
    mine, theirs = formation_of(unit), formation_of(target)
    if mine is None or theirs is None:
        return None
    return theirs.arc_of(mine.position)



def _inset(f: Formation, models: Sequence[Model]) -> float:
    """Return how far (inches) a base may stand inside its slot's edge: half what the slot exceeds the least base by,
    where a character's wider base widened the slots of a unit (0 when every base fills its slot)."""
    least: float = min(map(_LEAST_SIDE, map(_BASE, models)))  # in C: a charge asks it of every model of both units
    return max(0.0, max(f.slot_mm) - least) / 2.0 / MM_PER_INCH


_BASE = attrgetter("base")
_LEAST_SIDE = attrgetter("least_side_mm")


#: Each whole-degree wheel's turn (its cosine and sine), worked out once: ``_open_wheels`` turns the way by them.
_TURNS = [(math.cos(math.radians(k)), math.sin(math.radians(k))) for k in range(MOST_WHEEL + 1)]


def _open_wheels(mine: Formation, side: tuple[Point, Point], tol: float) -> Iterator[tuple[float, float]]:
    """Yield the wheels after the first (1 degree left, 1 right, ... up to 90) whose front could still come onto the
    Target Facing ``side`` going straight forward, in the order tried, each with the least it would then cost (the
    wheel's arc and the forward move to the side's line, within ``tol``): a floor worked out in closed form, so that
    the wheels that can never do it are passed over unmeasured, and only as far as the search asks.

    Each wheel turns the front about its inner corner (``Formation.wheeled``; the other corner swings out by the
    front's width); the front then meets the side only where the side's stretch across the front's way lies ahead of
    the front line.  The cost is a floor: the bases touch no earlier than the front's line reaches the side.
    """
    (left_x, left_y), (right_x, right_y) = mine.front_corners()
    width = mine.files * mine.slot_mm[0] / MM_PER_INCH
    wx, wy = facing_way(mine.facing)
    lefts = _wheels_facing((left_x, left_y), (wx, wy), side, width, tol, False)
    rights = _wheels_facing((right_x, right_y), (wx, wy), side, width, tol, True)
    for k in range(min(lefts[0], rights[0]), max(lefts[1], rights[1]) + 1):
        cos, sin = _TURNS[k]
        arc = width * math.radians(k)  # as ``Formation.wheel_distance``
        for turn in ((sin,) if lefts[0] <= k <= lefts[1] else ()) + ((-sin,) if rights[0] <= k <= rights[1] else ()):
            ux, uy = cos * wx - turn * wy, turn * wx + cos * wy  # the way after the wheel (left: counter-clockwise)
            # the front's left corner after it: the pivot of a left wheel; a right one's swings round its right corner
            left = (left_x, left_y) if turn > 0.0 else (right_x - width * uy, right_y + width * ux)
            least = _facing_floor(left, (ux, uy), width, side, tol)
            if least != NEVER:
                yield (float(k) if turn > 0.0 else float(-k)), arc + least


def _facing_floor(left: Point, way: Point, width: float, side: tuple[Point, Point], tol: float) -> float:
    """Return how far a front (its left corner, ``width`` to its right) going straight along ``way`` goes at least
    before it comes onto the segment ``side`` (within ``tol``), or ``NEVER`` when no forward move of it does: only
    where the side's stretch across the front's way lies ahead of the front line."""
    ux, uy = way
    rx, ry = uy, -ux  # to the right of the way: along the front, left to right
    (ax, ay), (bx, by) = side
    low = left[0] * rx + left[1] * ry - tol
    high = low + width + 2.0 * tol
    line = left[0] * ux + left[1] * uy - tol  # how far forward the front stands
    la, lb = ax * rx + ay * ry, bx * rx + by * ry
    fa, fb = ax * ux + ay * uy, bx * ux + by * uy
    if abs(lb - la) < 1e-12:  # the side runs along the way: one lateral place
        if not low <= la <= high:
            return NEVER
        near, far = fa, fb
    else:
        s0, s1 = (low - la) / (lb - la), (high - la) / (lb - la)
        if s0 > s1:
            s0, s1 = s1, s0
        s0, s1 = max(0.0, s0), min(1.0, s1)
        if s0 > s1:
            return NEVER  # the side lies wholly beside the front's way
        near, far = fa + s0 * (fb - fa), fa + s1 * (fb - fa)
    if max(near, far) < line:
        return NEVER  # all of the side the front could meet lies behind it
    return max(0.0, min(near, far) - line - tol)


def _wheels_facing(pivot: Point, way: Point, side: tuple[Point, Point], width: float, tol: float,
                   right: bool) -> tuple[int, int]:
    """Return the whole-degree wheels (least, greatest, of 1 to 90) about ``pivot`` that could bring the side within
    the front's forward way: a bracket that holds every such wheel, so ``_open_wheels`` looks at those alone.

    Seen from the pivot, a point of the side at distance ``d`` lies at an angle from the front (counted from its
    direction towards the way).  A wheel of ``w`` degrees turns the front by ``w``; the point then lies in the way the
    front sweeps forward (across its ``width`` beside the pivot, ahead of its line) only if its angle less ``w`` is
    within ``asin(width / d)`` of a right angle on the front's side of it (a left wheel's front runs right from its
    pivot; a ``right`` wheel's runs left, with ``w`` the wheel's negative), ``tol`` widening both.  The angles a
    segment shows a point are one arc, less than a half turn; ``d`` is at least the side's least distance.  Too near
    the pivot to bound: every wheel."""
    every = (1, MOST_WHEEL)
    near = segment_point_distance(*side, pivot)
    if near <= 2.0 * tol:
        return every
    rx, ry = way[1], -way[0]
    angles = [math.degrees(math.atan2((x - pivot[0]) * way[0] + (y - pivot[1]) * way[1],
                                      (x - pivot[0]) * rx + (y - pivot[1]) * ry)) for x, y in side]
    span = (angles[1] - angles[0] + 180.0) % 360.0 - 180.0  # the arc between them less than a half turn
    first = (min(angles[0], angles[0] + span) + 90.0) % 360.0 - 90.0  # in [-90, 270)
    behind = math.degrees(math.asin(tol / near)) + 1e-6  # how far past the right angle tol lets a point stand
    across = math.degrees(math.asin(min(1.0, (width + tol) / near))) + 1e-6  # how far the front's width reaches
    low, high = math.inf, -math.inf
    for shift in (-360.0, 0.0, 360.0):  # the arc as each turn writes it
        start, end = first + shift, first + shift + abs(span)
        # a left wheel w: 90 - across - 2 behind <= angle - w <= 90 + behind (the width bounds the angle only from a
        # right angle down to none; tol lets it go below none); a right one, -w: the mirror, 90 - behind <= angle + w
        # <= 90 + across + 2 behind
        lo, hi = (90.0 - behind - end, 90.0 + across + 2.0 * behind - start) if right else \
            (start - 90.0 - behind, end - 90.0 + across + 2.0 * behind)
        lo, hi = max(lo, 1.0), min(hi, float(MOST_WHEEL))
        if lo <= hi:
            low, high = min(low, lo), max(high, hi)
    if low > high:
        return MOST_WHEEL + 1, 0  # none
    return math.floor(low), math.ceil(high)


def _members_after(members: Sequence[Model], mine: Formation, f: Formation, wheel: float,
                   ranked: bool) -> list[Placed]:
    """Return where a charger's models stand after its wheel (the formation ``f``): each in its slot, as
    ``t9a_moves.wheeled`` arranges them, worked out from the slots alone (no state built for a wheel not taken)."""
    if not wheel:
        return [m.placed for m in members]
    if not ranked:  # a lone model: its formation is its base (``formation_of``)
        return [Placed(members[0].base, f.slot_point(0), f.facing)]
    points = f.slot_points
    return [Placed(m.base, points[m.name], f.facing) if m.name in points else m.placed for m in members]


def _way_clear(state: GameState, placed: Sequence[Placed], move: Point, own: set[str], theirs: set[str]) -> bool:
    """Say whether a straight move of these bases surely meets nothing but the charged unit and keeps them on the
    table, without measuring a base: no Impassable Terrain anywhere, and no other unit's box within the box that
    holds the bases where they start and where they end."""
    if any(t.kind == "blocking" for t in state.terrain):
        return False
    x0, y0, x1, y1 = group_extent(placed)
    dx, dy = move
    low_x, low_y, high_x, high_y = min(x0, x0 + dx), min(y0, y0 + dy), max(x1, x1 + dx), max(y1, y1 + dy)
    if x0 + dx < 0.0 or y0 + dy < 0.0 or x1 + dx > state.table.width or y1 + dy > state.table.depth:
        return False  # its ends' box reaches past the table edge: measure each base
    margin = 1e-6 * (1.0 + max(-low_x, high_x, -low_y, high_y))
    return not any(u.alive and u.id not in own and u.id not in theirs and (e := u.extent)[0] <= high_x + margin
                   and low_x - margin <= e[2] and e[1] <= high_y + margin and low_y - margin <= e[3]
                   for u in state.units)


@implements(CHARGE_RULE, WHEEL_RULE, CHARGE_ARC)
def forward_charge(state: GameState, unit: Unit, target: Unit, named: float | None, reach: float,
                   own: set[str], fly: bool, clear: bool = True) -> ForwardCharge | str:
    """Return a charger's Charge Move at ``target`` (a single model, or a unit with its characters), or why it has none.

    With a wheel ``named``, that wheel then straight forward; without, the smallest whole-degree wheel (none first,
    then 1 degree left, 1 right, ... up to 90) whose forward move brings the charger's front onto the Target Facing
    within ``reach`` (its greatest Charge Range), its way clear: the wheel sweeps through no unit but the target nor
    Impassable Terrain (``wheel_problem``, unless it flies), and the forward move crosses and ends on none
    (``path_problem``).  A Wheel turns the charger about its front corner (``Formation.wheeled``); the forward move's
    first contact is that of every base of the charger (its characters too) with every base of the charged unit (its
    characters too), in closed form (``swept_contact.group_first_contact``).  A wheel whose front can never come onto
    the Target Facing, or (once one was too far) not within ``reach``, is passed over unmeasured (``_open_wheels``):
    the answer and its words are the same.  Not ``clear``: the way is not looked at (a unit that fled is caught when
    the Charge Range reaches it; the charger then moves only if its way is clear, ``ChargeRules._caught``).
    """
    mine = formation_of(unit)
    if mine is None:
        return f"{unit.id} has no front to charge with"
    charged = host_of(state, target)
    theirs = {u.id for u in state.combined(charged.id)}
    facing = target_facing(unit, charged)
    side = facing_side(charged, facing) if facing is not None else None
    members = [m for _, m in member_models(state, unit)]
    ranked = unit.formation is not None
    bases = [(p, 0.0) for p in placed_all(state, charged)]
    tol = ON_FACING
    if side is not None:  # a base standing inside a widened slot touches short of the slots' outline
        them = formation_of(charged)
        assert them is not None
        tol += _inset(mine, members) + _inset(them, [m for _, m in member_models(state, charged)])
    touching = frozenset(theirs)
    missed = touched = ""  # why no wheel brought its front onto the Target Facing; why none that did was taken
    for wheel, least in _wheels(named, mine, side, tol):
        arc = mine.wheel_distance(wheel)
        if touched and least > reach + EPSILON:
            continue  # the words are the first wheel's: a later one is only measured if it could be taken
        f = mine.wheeled(wheel) if wheel else mine
        way = facing_way(f.facing)
        start = _members_after(members, mine, f, wheel, ranked)
        ahead = group_first_contact(start, way, bases)[0]
        if ahead == NEVER or (side is not None and _off_facing(f, ahead, way, side, tol)):
            missed = missed or _missed(ahead, facing)
            continue
        if arc + ahead > reach + EPSILON:
            after = f" after a {wheel:g} degree wheel" if wheel else ""
            touched = touched or f"reaches it {arc + ahead:.2f}\" away{after}, beyond its greatest Charge Range"
            continue
        move = (ahead * way[0], ahead * way[1])
        if not clear:
            return ForwardCharge(wheel, arc, ahead, facing or "", way)
        problem = None if fly or not wheel else wheel_problem(state, unit, wheel, own, touching)
        if problem is None and (fly or not _way_clear(state, start, move, own, theirs)):
            turned = wheeled(state, unit, wheel) if wheel else state
            movers = [(m, (p.at[0] + move[0], p.at[1] + move[1]))
                      for (_, m), p in zip(member_models(turned, turned.unit(unit.id)), start)]
            problem = path_problem(turned, movers, own, fly, touching, touching)
        if problem is not None:
            after = f" after a {wheel:g} degree wheel" if wheel else ""
            touched = touched or f"has no clear way{after} ({problem})"
            continue
        return ForwardCharge(wheel, arc, ahead, facing or "", way)
    if touched or named is not None:
        return touched or missed
    return f"{missed}, and no wheel of up to {MOST_WHEEL} degrees brings its front onto the Target Facing"


def _off_facing(f: Formation, ahead: float, way: Point, side: tuple[Point, Point], tol: float) -> bool:
    """Say whether a front that went ``ahead`` along ``way`` to first contact stands off the Target Facing ``side``."""
    (lx, ly), (rx, ry) = f.front_corners()
    dx, dy = ahead * way[0], ahead * way[1]
    return not segments_within((lx + dx, ly + dy), (rx + dx, ry + dy), *side, tol)


def _missed(ahead: float, facing: str | None) -> str:
    """Say why a wheel's forward move brings no front onto the Target Facing: it meets no model, or touches off it."""
    return "meets no model of it" if ahead == NEVER else f"touches it off its {facing} Facing, the Target Facing"
