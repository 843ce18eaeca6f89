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
