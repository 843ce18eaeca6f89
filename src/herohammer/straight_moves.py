"""A group's forced straight move (a 40k fall back) that stops each model short of what blocks its way.

A fall back is not chosen by the player: each model goes straight to where the roll sends
it.  Where that end would stand on another model, or where the table edge has slid it onto
one of its own unit, the model stops at the furthest clear place of its own straight path
(leading models first, so those behind stop behind them).  Never a state the engine itself
refuses (bases overlapping); the same places for the same roll, so exact odds branch on
the roll alone.  ``blocked`` is the cheap look that finds nothing in the way in the
common case.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import geometry as geo
from .geometry import Placed, Point

#: How far short of touching a stopped model stays (inches): well inside the 0.01" overlap tolerance of every check.
STOP_SHORT = 0.001


def blocked(moved: Sequence[Placed], others: Sequence[Placed], slid: bool) -> bool:
    """Say whether moved bases stand on ``others`` or (when the table edge ``slid`` some) on each other."""
    if slid and next(geo.overlapping_pairs(moved), None) is not None:
        return True
    return bool(others) and next(geo.overlapping_pairs(moved, others), None) is not None


def furthest_clear(start: Point, end: Point, radius: float, obstacles: Sequence[Placed]) -> float | None:
    """Return the furthest fraction u in [0, 1] of the way from ``start`` to ``end`` where a disc of ``radius`` overlaps
    none of ``obstacles`` (it may touch them), or None when no place on the way is clear."""
    step = (end[0] - start[0], end[1] - start[1])
    length = math.hypot(*step)
    margin = STOP_SHORT / length if length > 0.0 else 0.0
    stretches = [s for s in (geo.disc_path_overlaps(start, step, radius, o) for o in obstacles) if s is not None]
    u = 1.0
    moved = True
    while moved:  # step back before every stretch the place lies in, until none holds it
        moved = False
        for u1, u2 in stretches:
            if u1 < u < u2:
                u = u1 - margin
                moved = True
    return u if u >= 0.0 else None


def settle(starts: Sequence[Placed], ends: Sequence[Point], heading: Point,
           others: Sequence[Placed]) -> tuple[list[Point], int] | None:
    """Place each model on its straight path from its start to its end, as far along as it stands clear.

    Models go in order of how far ahead they stand along ``heading`` (ties by their order),
    leaders first (a file keeps its order), each clear of ``others`` and of the models already placed.  Return the
    places (in the given order) and how many models stopped short; None when one cannot
    stand anywhere on its way (the group then stays where it stood).
    """
    hx, hy = heading
    order = sorted(range(len(starts)), key=lambda i: (-(starts[i].at[0] * hx + starts[i].at[1] * hy), i))
    places: list[Point | None] = [None] * len(starts)
    standing = list(others)
    short = 0
    for i in order:
        start, end = starts[i], ends[i]
        radius = start.base.reach_inches  # a rectangular base (never one that falls back today) by its bounding circle
        u = furthest_clear(start.at, end, radius, standing)
        if u is None:
            return None
        if u < 1.0:
            short += 1
            end = (start.at[0] + u * (end[0] - start.at[0]), start.at[1] + u * (end[1] - start.at[1]))
        places[i] = end
        standing.append(Placed(start.base, end, start.facing_deg))
    settled = [p for p in places if p is not None]
    moved = [Placed(s.base, p, s.facing_deg) for s, p in zip(starts, settled)]
    if blocked(moved, others, True):  # the closed forms' word held to the checks every placement meets
        return None
    return settled, short


#: How far inside the coherency distance a stray model closes up (inches): clear of every check's tolerance.
CLOSE_UP = 0.05


def gathered(starts: Sequence[Placed], ends: Sequence[Point], allowance: float,
             groups: Sequence[list[int]] | None = None) -> tuple[list[Point], list[int], bool | None] | None:
    """Bring back into coherency the models whose straight ends stand apart from the group's main chain (the largest,
    the first on a tie), each moved from its straight end towards the nearest end of the chain until it stands just
    within 2" of it, where that place is within ``allowance`` of its start, else (beyond reach) ``allowance`` from its
    start straight towards that end; return the places, the models moved and whether the places stand in coherency
    (``_whole``), None when nothing changes.

    A unit broken up by casualties moves back into formation in its next move, and a joined character must obey the
    usual coherency rules (40k3.char.coherency, 40k4.ic.join): a fall back is that move (judge round 44; before, a
    Nob left 4" from his mob by a casualty kept the gap in every fall back and the mob could never regroup).
    ``groups``: the ends' chains when known (every end its start moved by one offset: the starts' chains), so not
    measured again."""
    chains: Sequence[list[int]] = geo.coherency_groups(
        [Placed(s.base, e, s.facing_deg) for s, e in zip(starts, ends)]) if groups is None else groups
    if len(chains) <= 1:
        return None
    longest = max(chains, key=len)
    chain = list(longest)
    dist = math.dist
    out = list(ends)
    strays = [i for g in chains if g is not longest for i in g]
    if len(strays) > 1:  # the nearest to the chain first
        strays.sort(key=lambda i: min([dist(out[i], out[k]) for k in chain]))
    moved: list[int] = []
    for i in strays:
        (ex, ey) = here = out[i]
        gap, t = math.inf, chain[0]
        for k in chain:  # the nearest end of the chain (the first of equals)
            if (d := dist(here, out[k])) < gap:
                gap, t = d, k
        tx, ty = out[t]
        reach = geo.COHERENCY_INCHES - CLOSE_UP + starts[i].base.reach_inches + starts[t].base.reach_inches
        if gap <= reach:  # brought in already by a stray closed up before it
            chain.append(i)
            continue
        straight = (tx + (ex - tx) * reach / gap, ty + (ey - ty) * reach / gap)
        place = straight if math.dist(starts[i].at, straight) <= allowance else min(  # else where the allowance
            _meets(starts[i].at, allowance, out[t], reach), key=lambda q: math.dist(q, out[i]), default=None)  # meets it
        if place is not None:
            out[i] = place
            chain.append(i)
            moved.append(i)
        elif (nearer := _towards(starts[i].at, out[t], allowance, reach)) is not None:  # beyond reach: as near as the
            out[i] = nearer  # roll takes it (judge round 45: it went straight, its gap kept in every fall back)
            moved.append(i)
    if not moved:
        return None
    return out, moved, _whole(starts, out, chain)


def _whole(starts: Sequence[Placed], places: Sequence[Point], chain: list[int]) -> bool | None:
    """Say whether the closed-up places stand in coherency, where that is known without measuring the unit again: all
    bases round (gaps are the centres' distances less the radii, as ``geometry.coherency_groups`` measures them), and
    every model in the chain (each stray was brought within reach of it) or one left out, which is in coherency when
    it stands within 2" of a model of the chain. None (not known: measure it) otherwise."""
    if not all([s.base.round for s in starts]):
        return None
    if len(chain) == len(starts):
        return True
    if len(chain) < len(starts) - 1:
        return None
    (i,) = set(range(len(starts))).difference(chain)
    at, radius, limit, dist = places[i], starts[i].base.radius_inches, geo.COHERENCY_INCHES + geo.EPSILON, math.dist
    return any([dist(at, places[k]) - (radius + starts[k].base.radius_inches) <= limit for k in chain])


def _towards(start: Point, end: Point, allowance: float, reach: float) -> Point | None:
    """Return the place ``allowance`` from ``start`` straight towards ``end``, when ``end`` lies beyond both (more than
    ``allowance + reach`` away): the nearest a stray the fall back cannot bring within coherency comes to its unit's
    chain. None when it lies nearer (the stray already within ``reach`` of it: it goes straight)."""
    d = math.dist(start, end)
    if d <= allowance + reach:
        return None
    return (start[0] + (end[0] - start[0]) * allowance / d, start[1] + (end[1] - start[1]) * allowance / d)


def clear_of_own(starts: Sequence[Placed], places: Sequence[Point], moved: Sequence[int]) -> bool:
    """Say whether each of the ``moved`` models (``gathered``'s) stands at its place clear of every other model of its
    unit at theirs (no overlap beyond the 0.01" every check allows; round bases measured in closed form)."""
    dist = math.dist
    for i in moved:
        a, at = starts[i], places[i]
        for k, (b, other) in enumerate(zip(starts, places)):
            if k == i:
                continue
            if a.base.round and b.base.round:
                if dist(at, other) < a.base.radius_inches + b.base.radius_inches - 0.01:
                    return False
            elif geo.overlaps(Placed(a.base, at, a.facing_deg), Placed(b.base, other, b.facing_deg)):
                return False
    return True


def _meets(a: Point, ra: float, b: Point, rb: float) -> list[Point]:
    """Return the points where the circles of radius ``ra`` about ``a`` and ``rb`` about ``b`` meet (none, or two)."""
    d = math.dist(a, b)
    if d == 0.0 or d > ra + rb or d < abs(ra - rb):
        return []
    along = (d * d + ra * ra - rb * rb) / (2 * d)
    side = math.sqrt(max(ra * ra - along * along, 0.0))
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    mx, my = a[0] + ux * along, a[1] + uy * along
    return [(mx - uy * side, my + ux * side), (mx + uy * side, my - ux * side)]
