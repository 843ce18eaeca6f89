"""How far bases moving straight together go before they come within a gap of other bases: in closed form.

A forced straight move (the 9th Age Pursuit Move) stops at the first place where a base
would come within 1" of another unit's base, or onto it.  Looking at places one by one
(step, then halve) measures dozens of shapes per move; here the first contact is worked
out directly.  Every base is a convex shape (a rectangle's corners, or a disc's centre)
grown by a radius, so two bases first come within a gap of each other where a corner of
one meets a side of the other, or two corners meet, each grown by the radii and the gap:
a ray against a segment or a circle.  Nothing nearer than the contact found is refused by
the rules' own checks, whose tolerances only allow more (``t9a_melee._pursuit_reach``
takes the place down to its grid, and asks those checks for the words of what stops it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .geometry import base_axes, parallel_contact, Placed, Point, distance, rectangles_contact, swept_slabs

#: What "never" reads as: no contact along the whole ray.
NEVER = math.inf


def _shape(p: Placed) -> tuple[tuple[Point, ...], float]:
    """Return a base as a convex polygon (counter-clockwise corners; a disc's centre alone) and the radius it is grown
    by (a disc's radius, else 0)."""
    if p.base.round:
        return (p.at,), p.base.radius_inches
    return p.corners, 0.0


def _ray_circle(origin: Point, way: Point, centre: Point, radius: float) -> float:
    """Return the first t >= 0 where ``origin + t * way`` (``way`` a unit vector) lies within ``radius`` of ``centre``."""
    wx, wy = centre[0] - origin[0], centre[1] - origin[1]
    along = wx * way[0] + wy * way[1]
    across2 = wx * wx + wy * wy - along * along
    if across2 > radius * radius:
        return NEVER
    half = math.sqrt(radius * radius - across2)
    if along + half < 0.0:
        return NEVER  # the circle lies behind
    return max(0.0, along - half)


def _ray_segment(origin: Point, way: Point, p: Point, q: Point) -> float:
    """Return the t >= 0 where ``origin + t * way`` crosses the segment ``p``-``q`` (parallel: never; the corners'
    circles find that contact)."""
    ex, ey = q[0] - p[0], q[1] - p[1]
    denom = way[0] * ey - way[1] * ex
    if abs(denom) < 1e-12:
        return NEVER
    ox, oy = p[0] - origin[0], p[1] - origin[1]
    t = (ox * ey - oy * ex) / denom
    s = (ox * way[1] - oy * way[0]) / denom
    if t < 0.0 or s < 0.0 or s > 1.0:
        return NEVER
    return t


def _grown_sides(p: Placed, by: float) -> tuple[tuple[Point, Point], ...]:
    """Return a rectangular base's sides, each moved outwards by ``by``: kept on the placed base (a pursuer's way
    meets the same bases from many states)."""
    return p.remember((_GROWN, by), lambda: _grown(p.corners, by))


_GROWN = "sides grown"


def _grown(corners: Sequence[Point], by: float) -> tuple[tuple[Point, Point], ...]:
    sides = []
    for i, p in enumerate(corners):
        q = corners[(i + 1) % len(corners)]
        ex, ey = q[0] - p[0], q[1] - p[1]
        length = math.hypot(ex, ey)
        nx, ny = ey / length * by, -ex / length * by  # the outward normal of a counter-clockwise side
        sides.append(((p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny)))
    return tuple(sides)


def first_contact(mover: Placed, way: Point, other: Placed, gap: float, limit: float = NEVER) -> float:
    """Return how far ``mover`` goes along the unit vector ``way`` before it comes within ``gap`` (>= 0) of ``other``
    (0 when it is within it already; ``NEVER`` when it passes clear, or goes ``limit`` first)."""
    bound = mover.base.reach_inches + other.base.reach_inches + gap
    if _ray_circle(mover.at, way, other.at, bound) >= limit:
        return NEVER  # the bounding circles do not come within the gap on the way looked at
    return _contact_within_circles(mover, way, other, gap, bound, limit)


def _contact_within_circles(mover: Placed, way: Point, other: Placed, gap: float, bound: float, limit: float) -> float:
    """``first_contact`` of a pair whose bounding circles (``bound`` apart) meet before ``limit``."""
    if gap > 0.0 and math.dist(mover.at, other.at) < bound and distance(mover, other) < gap:
        return 0.0  # (no base is nearer than 0: with no gap, never; a charge's first contact asks often)
    if gap == 0.0 and not mover.base.round and not other.base.round:  # two rectangles: slabs, two or four
        found = parallel_contact(mover, way, other)
        if found is None:  # turned apart, or touching already (then the corners and sides below say how)
            found = rectangles_contact(mover, way, other)
        if found is not None:
            return found if found < limit else NEVER
    mine, r_mine = _shape(mover)
    theirs, r_theirs = _shape(other)
    reach = r_mine + r_theirs + gap
    best = NEVER
    if reach > 0.0:  # a corner (or a disc's centre) meets a corner's circle
        for a in mine:
            for b in theirs:
                best = min(best, _ray_circle(a, way, b, reach))
    if len(theirs) > 1:  # a corner of the mover meets a side of the other
        sides = _grown_sides(other, reach)
        for a in mine:
            for p, q in sides:
                best = min(best, _ray_segment(a, way, p, q))
    if len(mine) > 1:  # a corner of the other meets a side of the mover (the corner moving against ``way``)
        back = (-way[0], -way[1])
        for p, q in _grown_sides(mover, reach):
            for b in theirs:
                best = min(best, _ray_segment(b, back, p, q))
    return best


def group_first_contact(movers: Sequence[Placed], way: Point, others: Sequence[tuple[Placed, float]],
                        limit: float = NEVER) -> tuple[float, int]:
    """Return how far bases moving together along the unit vector ``way`` go before one comes within its gap of one of
    ``others`` (each with its own gap), and which of ``others`` it meets: the least of every pair's ``first_contact``;
    ``limit`` and -1 when that is further (only the pairs whose bounding circles meet before the nearest contact found
    so far are measured)."""
    # each pair's bounding circles meet no later than its bases do: the pairs are measured nearest meeting first,
    # until the next pair's circles meet beyond the nearest contact found
    meetings = []
    wx, wy = way
    sqrt = math.sqrt
    nx, ny = -wy, wx  # across the way: a pair whose centres stand further apart across it than their reaches passes
    reaches = [(other.at, other.base.reach_inches, gap, other.at[0] * nx + other.at[1] * ny) for other, gap in others]
    for mover in movers:
        (mx, my), reach = mover.at, mover.base.reach_inches
        across = mx * nx + my * ny
        for k, ((ox, oy), other_reach, gap, other_across) in enumerate(reaches):  # ``_ray_circle`` of the pair, inlined
            bound = reach + other_reach + gap
            if abs(other_across - across) > bound + 1e-9:
                continue  # side by side, far beyond rounding (the test below, in fewer steps)
            dx, dy = ox - mx, oy - my
            along = dx * wx + dy * wy
            across2 = dx * dx + dy * dy - along * along
            if across2 > bound * bound:
                continue
            half = sqrt(bound * bound - across2)
            if along + half < 0.0:
                continue  # the circle lies behind
            t = along - half if along - half > 0.0 else 0.0
            if t < limit:
                meetings.append((t, k, mover))
    meetings.sort(key=_first)
    best, met = limit, -1
    slabs = _aligned(movers, way, others) if len(meetings) > 1 else None
    for t, k, mover in meetings:
        if t >= best:
            break
        other, gap = others[k]
        found = _slab_contact(slabs, mover, other, k) if slabs is not None else None
        if found is None:
            found = _contact_within_circles(mover, way, other, gap,
                                            mover.base.reach_inches + other.base.reach_inches + gap, best)
        if found < best:
            best, met = found, k
            if best == 0.0:
                break
    return best, met


#: What ``_aligned`` reads once for a group: the movers' axes, the way's steps along them, each other's half sides
#: along them.
_Slabs = tuple[float, float, float, float, float, float, list[tuple[float, float]]]


def _aligned(movers: Sequence[Placed], way: Point, others: Sequence[tuple[Placed, float]]) -> _Slabs | None:
    """Read once what ``parallel_contact`` reads for every pair, when every pair is two rectangles turned alike (up to
    quarter turns) with no gap between (a formation charging another it faces): else None."""
    first = movers[0]
    if first.base.round or any(gap != 0.0 or other.base.round for other, gap in others) \
            or any(m.facing_deg != first.facing_deg or m.base.round for m in movers):
        return None
    (ux, uy), (vx, vy) = base_axes(first)
    halves = []
    for other, _ in others:
        (wx, wy), _ = base_axes(other)
        other_w, other_d = other.base.half_sides
        if abs(ux * wx + uy * wy) <= 1e-12:
            other_w, other_d = other_d, other_w  # a quarter turn: its depth runs along the mover's width
        elif abs(ux * wy - uy * wx) > 1e-12:
            return None
        halves.append((other_w, other_d))
    return ux, uy, vx, vy, way[0] * ux + way[1] * uy, way[0] * vx + way[1] * vy, halves


def _slab_contact(slabs: _Slabs, mover: Placed, other: Placed, k: int) -> float | None:
    """``parallel_contact`` of a pair ``_aligned`` read, to the same arithmetic (``NEVER`` when it passes clear; None
    when the two touch already)."""
    ux, uy, vx, vy, step_u, step_v, halves = slabs
    other_w, other_d = halves[k]
    half_w, half_d = mover.base.half_sides
    dx, dy = other.at[0] - mover.at[0], other.at[1] - mover.at[1]
    return swept_slabs(((dx * ux + dy * uy, step_u, half_w + other_w), (dx * vx + dy * vy, step_v, half_d + other_d)))


def _first(meeting: tuple[float, int, Placed]) -> float:
    return meeting[0]


def table_reach(movers: Sequence[Placed], way: Point, width: float, depth: float) -> float:
    """Return how far bases moving together along the unit vector ``way`` go before one would hang off a ``width`` x
    ``depth`` table (0 when one does already)."""
    best = NEVER
    for mover in movers:
        shape, radius = _shape(mover)
        for x, y in shape:
            for at, step, high in ((x, way[0], width), (y, way[1], depth)):
                if step > 1e-12:
                    best = min(best, (high - radius - at) / step)
                elif step < -1e-12:
                    best = min(best, (at - radius) / -step)
    return max(0.0, best)
