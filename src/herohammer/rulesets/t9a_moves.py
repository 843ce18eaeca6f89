"""The 9th Age move geometry: paths, unit spacing, the table edge, wheels, front arcs, charge reach and the
contact move of a charge (a character charging out of his unit too).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import shapely

from ..catalogue import implements
from ..charging import CHARGE_RULE, MAX_CHARGE_BONUS, contact_moves
from ..errors import IllegalActionError
from ..formations import arrange, arranged, front_rank_test, remove_from
from ..geometry import (BASE_TOLERANCE, EPSILON, MM_PER_INCH, Placed, Point, box_gap, ConvexRegion, clearly_apart, distance,
                        on_table, footprint_slack, group_distance, group_extent, nearest_in_rows, outline_hull,
                        overlapping_pairs, overlaps, sweep_hits)
from ..state import GameState
from ..units import Model, Status, Unit
from ..values import drop_oldest, evolve
from .t9a_units import advance_rate, front_centre, formation_of, member_models, MOVED, unit_rates

def located_in_front_arc(unit: Unit, charged: Unit) -> bool:
    """Say whether ``unit`` is Located in ``charged``'s Front Arc: the centre of its front stands in it."""
    f = formation_of(unit)
    at = f.position if f is not None else front_centre(unit)
    arcs, regions = charged.remember("front arcs", lambda: front_arcs(charged))
    for arc, region in zip(arcs, regions):
        inside = region.disc(at, 0.0)  # settled by the arc's sides unless the point is on the outline
        if inside is None:
            inside = shapely.Polygon(arc).covers(shapely.Point(at))
        if inside:
            return True
    return False


def left_apart(state: GameState, ch: Unit, to: Point) -> bool:
    """Say whether a planned leave surely puts no base on another (False: resolve it and check every base).

    The plan keeps the character 1" from every other unit and from the rest of its own; the unit
    re-forms without it (``remove_from``).  When every model left has a slot of its own no smaller
    than its base, only the models that shift to a new slot can meet anyone: each is measured
    against every other standing model and the character's end, as ``overlap_problem`` would.
    """
    if ch.joined is None or len(ch.models) != 1:
        return False  # a unit of characters hands over its lead: resolve it
    host = state.unit(ch.joined)
    name = ch.models[0].name
    if host.formation is None or name not in host.formation.order:
        return False
    f = remove_from(host.formation, name, front_rank_test(state, host), stay=True)
    rest = [m for u in [host, *[u for u in state.units if u.joined == host.id]] if u.id != ch.id for m in u.models]
    if len(rest) != len(f.order) or len(set(f.order)) != len(f.order) or {m.name for m in rest} != set(f.order):
        return False
    if any(m.base.width_mm > f.slot_mm[0] or m.base.depth_mm > f.slot_mm[1] for m in rest):
        return False
    points = f.slot_points
    shifted = [Placed(m.base, points[m.name], f.facing) for m in rest if (m.at, m.facing) != (points[m.name], f.facing)]
    if not shifted:
        return True
    combined = {host.id, ch.id, *(u.id for u in state.units if u.joined == host.id)}
    others = [m.placed for u in state.units if u.id not in combined and u.embarked_in is None for m in u.models]
    others.append(Placed(ch.models[0].base, to, ch.models[0].facing))
    return next(overlapping_pairs(shifted, others, APART), None) is None


def own_models_apart(state: GameState, unit: Unit) -> bool:
    """Say whether moving a unit (its characters with it) can never put one of its models on another: a single
    model, or a formation holding each model in a slot of its own no smaller than its base."""
    members = [m for _, m in member_models(state, unit)]
    if len(members) <= 1:
        return True
    f = unit.formation
    if f is None or len(members) != len(f.order) or len(set(f.order)) != len(f.order):
        return False
    return {m.name for m in members} == set(f.order) and all(
        m.base.width_mm <= f.slot_mm[0] and m.base.depth_mm <= f.slot_mm[1] for m in members)


#: How far a move's end may overlap another unit's base: the tolerance of every placement's own check
#: (``movement.overlap_problem``, published.bases-apart).  It was 0.02" until round 44, so an end 0.01-0.02" into a
#: base was ruled clear here and refused after the dice there (a Failed Charge move cut short).
APART = BASE_TOLERANCE


@implements("published.t9a-move", "published.bases-apart")
def path_problem(state: GameState, movers: Sequence[tuple[Model, Point]], own: set[str], fly: bool,
                 may_touch: frozenset[str] = frozenset(), touched: frozenset[str] = frozenset()) -> str | None:
    """Say why models cannot move straight to their new places, or None.

    No model ends on another unit's model or in impassable (``blocking``) terrain; on the
    ground none passes through another unit or impassable terrain (published 9th Age
    movement); Flying Movement passes over both.  ``own`` names the units whose models
    the movers ignore (their own combined unit); ``may_touch`` units may be contacted;
    ``touched`` units (of ``may_touch``) are known to stand on none of the ends, as a
    charge's contact move leaves its target (``CONTACT_OVERLAP_SLACK``), and are not measured.
    """
    if not movers:
        return None
    end_xs, end_ys = [to[0] for _, to in movers], [to[1] for _, to in movers]
    reach = max([model.base.reach_inches for model, _ in movers])
    if not _circles_on_table(state, end_xs, end_ys, reach) and (off := table_edge_problem(state, movers)):
        return off
    xs = [*end_xs, *(model.at[0] for model, _ in movers)]
    ys = [*end_ys, *(model.at[1] for model, _ in movers)]
    low_x, low_y, high_x, high_y = min(xs), min(ys), max(xs), max(ys)
    slack = reach + 1e-6 + 1e-9 * max(-low_x, high_x, -low_y, high_y)  # far above float rounding
    low_x, low_y, high_x, high_y = low_x - slack, low_y - slack, high_x + slack, high_y + slack
    near = [(u, e) for u in state.units if u.alive and u.id not in own and u.id not in touched
            and (e := u.extent)[0] <= high_x and low_x <= e[2] and e[1] <= high_y and low_y <= e[3]]
    blocking = [t for t in state.terrain if t.kind == "blocking"]
    if not near and not blocking:
        return None  # nothing any end could stand on, nor any path cross
    others = [(u, m) for u, _ in near for m in u.models]  # a unit whose extent no path or end reaches can be neither
    crossable = [(u, m) for u, m in others if u.id not in may_touch]
    dist = math.dist
    for model, to in movers:
        end = Placed(model.base, to, model.facing)
        r = model.base.reach_inches + slack - reach  # this base's reach, and the same margin
        end_at, end_reach, end_round = end.at, model.base.reach_inches, model.base.round
        for u, e in near:
            if e[0] > to[0] + r or to[0] - r > e[2] or e[1] > to[1] + r or to[1] - r > e[3]:
                continue  # the end's bounding circle misses every bounding circle of u: it stands on none of u
            for m in u.models:
                q = m.placed
                if not (end_round and q.base.round) and dist(end_at, q.at) >= end_reach + q.base.reach_inches - APART:
                    continue  # ``overlaps``'s own first test, asked here: bounding circles apart
                if overlaps(end, q, APART):
                    return f"{model.name} would end on {u.id}'s model {m.name}"
        for t in blocking:
            if t.near([to], model.base.reach_inches) and end.footprint().intersection(t.shape()).area > 1e-6:
                return f"{model.name} would end in impassable terrain {t.id}"
        if fly or math.dist(model.at, to) <= EPSILON:
            continue
        for u, m in crossable:
            if _path_hits(model, to, m):
                return f"{model.name}'s path crosses {u.id}'s model {m.name}"
        crossed = [t for t in blocking if t.near([model.at, to], model.base.reach_inches)] if blocking else []
        swept = _swept(model, to) if crossed else None
        for t in crossed:
            if swept is not None and swept.intersection(t.shape()).area > 1e-6:
                return f"{model.name}'s path crosses impassable terrain {t.id}"
    return None


@implements("published.t9a-move")
def table_edge_problem(state: GameState, movers: Sequence[tuple[Model, Point]]) -> str | None:
    """Say which model would end with its base off the table, or None: a move, reform, join, leave or charge keeps
    every base wholly on the table (published.t9a-move); only a flee or a pursuit may take a unit off it."""
    width, depth = state.table.width, state.table.depth
    if movers and _circles_on_table(state, [to[0] for _, to in movers], [to[1] for _, to in movers],
                                    max([model.base.reach_inches for model, _ in movers])):
        return None
    for model, to in movers:
        if not on_table(Placed(model.base, to, model.facing), width, depth):
            return f"{model.name} would end off the {width:g}x{depth:g}\" table at [{to[0]:.2f}, {to[1]:.2f}]"
    return None


def _circles_on_table(state: GameState, xs: Sequence[float], ys: Sequence[float], reach: float) -> bool:
    """Say whether circles of ``reach`` about these centres all lie on the table: then every base in them does
    (``on_table``'s own first look, for all at once)."""
    return (min(xs) - reach >= 0.0 and min(ys) - reach >= 0.0 and max(xs) + reach <= state.table.width
            and max(ys) + reach <= state.table.depth)


#: Units keep this gap (inches, edge to edge) from other units when a move ends, charges aside.
UNIT_SPACING = 1.0
SPACING_RULE = "published.t9a-unit-spacing"


@implements(SPACING_RULE)
def spacing_problem(state: GameState, movers: Sequence[tuple[Model, Point]], own: set[str],
                    facing: float | None = None) -> str | None:
    """Say which other unit models moved to these places would end within 1" of, or None.

    The published 9th Age Unit Spacing: a unit ends a move (a move, a reform, a character
    joining or leaving) at least 1" from every other unit, friend or foe; only charges come
    closer.  ``own`` names the mover's combined unit, which the gap does not concern.
    """
    if not movers:
        return None
    ends: list[Placed] = []
    xs = [to[0] for _, to in movers]
    ys = [to[1] for _, to in movers]
    reach = max([m.base.reach_inches for m, _ in movers])
    box = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)  # group_extent of the ends
    for u in state.units:
        if u.id in own or not u.alive:
            continue
        if box_gap(box, u.extent) > UNIT_SPACING + 1e-9 * (1.0 + sum(map(abs, box)) + sum(map(abs, u.extent))):
            continue  # u's bounding circles are more than 1" away: no pair to measure
        ends = ends or [Placed(m.base, to, m.facing if facing is None else facing) for m, to in movers]
        if clearly_apart(ends, u.placed, UNIT_SPACING, partial(_outline_hull_of, u), u.extent):
            continue  # every base of u more than 1" away: no pair to measure
        gap = group_distance(ends, u.placed)
        if gap + EPSILON < UNIT_SPACING:
            return f"it would end {gap:.2f}\" from {u.id}; units keep 1\" apart outside a charge"
    return None


def _outline_hull_of(unit: Unit) -> shapely.Polygon | None:
    """Return the outline hull of a unit's bases, worked out once per unit value."""
    return unit.remember("outline hull", lambda: outline_hull(unit.placed))


WHEEL_RULE = "published.t9a-wheel"
#: Wheels are checked for collisions every few degrees of their arc.
WHEEL_STEP_DEGREES = 5.0


@implements(WHEEL_RULE)
def wheeled(state: GameState, unit: Unit, degrees: float) -> GameState:
    """Return the state with a unit (its characters with it) wheeled about a front corner."""
    if unit.formation is not None:
        return arrange(state.replace_unit(replace(unit, formation=unit.formation.wheeled(degrees))), unit.id)
    f = formation_of(unit)
    if f is None:
        raise IllegalActionError(f"{unit.id} has no ranks and files to wheel", (WHEEL_RULE,))
    w = f.wheeled(degrees)
    m = unit.models[0]
    return state.replace_unit(replace(unit, models=(replace(m, at=w.slot_point(0), facing=w.facing),)))


@implements(WHEEL_RULE)
def wheel_problem(state: GameState, unit: Unit, degrees: float, own: set[str],
                  may_touch: frozenset[str] = frozenset()) -> str | None:
    """Say what a unit's models would sweep through while wheeling (another unit, Impassable Terrain), or None.

    Each model's sweep is the union of the hulls of its base at successive steps of the
    turn (every ``WHEEL_STEP_DEGREES``); ``may_touch`` units (a charge's target) may be met.
    Where no other unit's box comes within the disc the bases turn in about the pivot, and no
    Impassable Terrain stands anywhere, nothing is swept through and nothing is measured.
    """
    if wheel_clear(state, unit, degrees, own, may_touch):
        return None
    steps = max(1, math.ceil(abs(degrees) / WHEEL_STEP_DEGREES))
    frames = [wheeled(state, unit, degrees * k / steps) for k in range(steps + 1)]
    shapes: dict[str, list[shapely.Polygon]] = {}
    for frame in frames:
        for _, m in member_models(frame, frame.unit(unit.id)):
            shapes.setdefault(m.name, []).append(m.placed.footprint())
    others = [(u, m) for u in state.units if u.alive and u.id not in own and u.id not in may_touch for m in u.models]
    blocking = [t for t in state.terrain if t.kind == "blocking"]
    for name, feet in shapes.items():
        swept = shapely.union_all([shapely.convex_hull(shapely.union(a, b)) for a, b in zip(feet, feet[1:])])
        for u, m in others:
            if swept.intersection(m.placed.footprint()).area > 1e-6:
                return f"{name} would sweep through {u.id}'s model {m.name}"
        for t in blocking:
            if swept.intersection(t.shape()).area > 1e-6:
                return f"{name} would sweep through impassable terrain {t.id}"
    return None


def wheel_clear(state: GameState, unit: Unit, degrees: float, own: set[str], may_touch: frozenset[str]) -> bool:
    """Say whether a wheel surely sweeps through nothing, without a shape: every base turns within the disc about the
    pivot (the front corner inside the turn) that reaches its farthest corner, and no other unit's box (but
    ``may_touch``'s) meets that disc's box, nor any Impassable Terrain stand on the table."""
    f = formation_of(unit)
    if f is None or any(t.kind == "blocking" for t in state.terrain):
        return False
    left, right = f.front_corners()
    px, py = left if degrees > 0 else right
    r = max(math.hypot(m.at[0] - px, m.at[1] - py) + m.base.reach_inches for _, m in member_models(state, unit))
    r += 1e-6 * (1.0 + abs(px) + abs(py) + r)
    box = (px - r, py - r, px + r, py + r)
    return not any(u.alive and u.id not in own and u.id not in may_touch and box_gap(box, u.extent) <= 0.0
                   for u in state.units)


def _swept(model: Model, to: Point) -> shapely.Polygon:
    radius = min(model.base.width_mm, model.base.depth_mm) / 25.4 / 2.0 - APART
    return shapely.LineString([model.at, to]).buffer(radius)


@implements("published.t9a-charge-arc")
def in_front_arc(charger: Unit, target: Unit) -> bool:
    """Say whether any model of ``target`` stands in the Front Arc of ``charger`` (of each model when unranked)."""
    arcs, regions = charger.remember("front arcs", lambda: front_arcs(charger))
    unsettled: list[tuple[int, Placed]] = []
    for k, region in enumerate(regions):
        for p in target.placed:
            where = region.disc(p.at, p.base.reach_inches)
            if where and min(p.base.width_mm, p.base.depth_mm) >= 1.0:
                return True  # the whole base (far more than 1e-6 square inches) is inside
            if where is None:  # its bounding circle crosses the arc's edge
                if region.disc(p.at, _SURELY_SHARED) and min(p.base.width_mm, p.base.depth_mm) >= 1.0:
                    return True  # a disc of 0.01" round its centre lies in both: far more than 1e-6 square inches
                unsettled.append((k, p))  # measure the shapes
    for k, p in unsettled:
        if not p.base.round:  # a rectangle: the shared area in closed form, shapely only within rounding of 1e-6
            shared = regions[k].shared_area(p.corners)
            if abs(shared - 1e-6) > 1e-9:
                if shared > 1e-6:
                    return True
                continue
        if shapely.Polygon(arcs[k]).intersection(p.footprint()).area > 1e-6:
            return True
    return False


#: A base whose centre stands this far (inches) inside a Front Arc shares far more than 1e-6 square inches with it.
_SURELY_SHARED = 0.01


def front_arcs(charger: Unit) -> tuple[list[list[Point]], list[ConvexRegion]]:
    """Return a charger's Front Arcs (its formation's, or each model's when unranked) and their sides as half-planes,
    worked out once per unit value: every charge it may declare asks."""
    f = formation_of(charger)
    arcs = [f.front_arc()] if f is not None else [
        a.front_arc() for m in charger.models if (a := formation_of(replace(charger, models=(m,)))) is not None]
    return arcs, [ConvexRegion(arc) for arc in arcs]


@implements(CHARGE_RULE)
def beyond_charge_reach(state: GameState, unit: Unit, target: Unit, reach: float | None = None) -> bool:
    """Say whether a charge straight at ``target`` is surely refused as out of range, without measuring bases.

    The boxes holding the units' bounding circles (``Unit.extent``) are nearer than any two bases,
    so when they lie further apart than the greatest Charge Range (Advance Rate + 12", ``reach`` when
    the caller has it: ``greatest_charge_range``) the rule would refuse the charge; ``candidate_actions``
    proposes no such doomed charge.
    """
    if not unit.alive or not target.alive:
        return False
    limit = reach if reach is not None else greatest_charge_range(state, unit)
    if limit is None:
        return False
    margin = 1e-9 * (1.0 + limit + sum(map(abs, unit.extent)) + sum(map(abs, target.extent)))  # float rounding
    return box_gap(unit.extent, target.extent) > limit + margin


def greatest_charge_range(state: GameState, unit: Unit) -> float | None:
    """Return the greatest Charge Range a unit may roll (Advance Rate + 12"; a character charging out, its own), with
    ``EPSILON`` to spare for rounding, or None when it has no rate: what ``beyond_charge_reach`` measures against."""
    rates = (advance_rate(unit), 0) if unit.joined else unit_rates(state, unit, False) if unit.alive else None
    return None if rates is None else rates[0] + MAX_CHARGE_BONUS + EPSILON


#: A charge's contact move leaves no base standing on its target's when the charger's bases are measured within
#: this much of their footprints' distances (``footprint_slack``): ``overlaps`` allows ``APART`` (path_problem).
CONTACT_OVERLAP_SLACK = 0.01


@implements("published.t9a-move")
def charge_way_clear(state: GameState, placed: Sequence[Placed], pairs: Sequence[tuple[Placed, Placed]], own: set[str],
                     target_id: str, slack: float) -> bool:
    """Say whether a charge's contact move surely meets nothing but its target, without working the move out.

    The move is the shortest line between the footprints of one of ``pairs`` (``contact_pairs``):
    it ends with that pair touching, so it lies within their two bounding circles' reaches of the
    line between their centres.  ``path_problem``'s box round every start and end of the charger's
    bases (``placed``) therefore lies within their box stretched by those moves; when no unit but the
    charger's own and the target reaches into it, and no impassable terrain stands anywhere, no path
    crosses and no end stands on any other unit.  Nor on the target: each pair of bases starts at least
    the nearest apart and the move is at most ``slack`` longer, within ``overlaps``'s allowance
    (``CONTACT_OVERLAP_SLACK``).
    """
    if not pairs or slack > CONTACT_OVERLAP_SLACK or any(t.kind == "blocking" for t in state.terrain):
        return False
    low_x, low_y, high_x, high_y = group_extent(placed)
    least_dx = least_dy = most_dx = most_dy = 0.0  # the moves' extremes, the standing start included
    for p, q in pairs:
        reach = p.base.reach_inches + q.base.reach_inches
        (px, py), (qx, qy) = p.at, q.at
        if qx - px - reach < least_dx:
            least_dx = qx - px - reach
        if qx - px + reach > most_dx:
            most_dx = qx - px + reach
        if qy - py - reach < least_dy:
            least_dy = qy - py - reach
        if qy - py + reach > most_dy:
            most_dy = qy - py + reach
    margin = 1e-6 * (1.0 + max(-low_x, high_x, -low_y, high_y) + most_dx - least_dx + most_dy - least_dy)
    low_x, low_y = low_x + least_dx - margin, low_y + least_dy - margin
    high_x, high_y = high_x + most_dx + margin, high_y + most_dy + margin
    return not any(u.alive and u.id not in own and u.id != target_id
                   and (e := u.extent)[0] <= high_x and low_x <= e[2] and e[1] <= high_y and low_y <= e[3]
                   for u in state.units)


def contact_models(state: GameState, unit: Unit, out: bool) -> list[Model]:
    """Return the models a charge carries along: a character charging out alone, else the unit with its characters
    (the unit's own models first)."""
    return list(unit.models) if out else [m for _, m in member_models(state, unit)]


def charge_contact(state: GameState, unit: Unit, target: Unit, out: bool,
             rows: Sequence[tuple[float, int] | None] | None = None,
             slack: float | None = None) -> tuple[float, float, list[tuple[Model, Point]]]:
    """Return the straight move into base contact with ``target`` and every model it carries along.

    Each model's move would be ``contact_vector`` to its nearest target model, and the shortest is
    taken; only the models that can give it are worked out (``contact_pairs``).  ``rows``, when given,
    are ``nearest_in_rows`` from those models (``contact_models``) to the target's, with that slack
    (``slack``, when the caller has it).
    """
    models = contact_models(state, unit, out)
    placed = tuple([m.placed for m in models])
    if rows is None and slack is None:  # the move depends on the bases alone: kept by their places (values)
        key = (placed, target.placed)
        move = _CONTACT_MOVES.get(key)
        if move is None:
            slack = footprint_slack(placed, target.placed)
            dx, dy, _ = contact_move(models, contact_pairs(placed, target.placed,
                                                           nearest_in_rows(placed, target.placed, slack=slack), slack))
            move = _CONTACT_MOVES[key] = (dx, dy)
            if len(_CONTACT_MOVES) > CONTACT_MOVES_KEPT:
                drop_oldest(_CONTACT_MOVES)
        dx, dy = move
        return dx, dy, [(m, (m.at[0] + dx, m.at[1] + dy)) for m in models]
    if slack is None:
        slack = footprint_slack(placed, target.placed)
    if rows is None:
        rows = nearest_in_rows(placed, target.placed, slack=slack)
    return contact_move(models, contact_pairs(placed, target.placed, rows, slack))


#: Contact moves worked out lately, by the charging and the charged bases' places: an enumeration's branches move the
#: same unmoved charger into the same unmoved target again and again (a charge that reaches, whatever it rolled).
_CONTACT_MOVES: dict[tuple[tuple[Placed, ...], tuple[Placed, ...]], tuple[float, float]] = {}
CONTACT_MOVES_KEPT = 1024


def contact_pairs(placed: Sequence[Placed], theirs: Sequence[Placed], rows: Sequence[tuple[float, int] | None],
                   slack: float) -> list[tuple[Placed, Placed]]:
    """Return the pairs (a charging base, its nearest target base) whose contact move may be the charge's.

    The move runs along the footprints' nearest points, which for a round base (a polygon) can be
    up to ``footprint_slack`` longer than ``distance``; so only a base within that slack of the
    nearest (``rows``: ``nearest_in_rows`` from ``placed`` to ``theirs``) can give it.
    """
    least = min((row[0] for row in rows if row is not None), default=math.inf)
    reach = least + slack + 1e-9 * (1.0 + least)
    return [(p, theirs[row[1]]) for p, row in zip(placed, rows) if row is not None and row[0] <= reach]


def contact_move(models: Sequence[Model], pairs: Sequence[tuple[Placed, Placed]]
                  ) -> tuple[float, float, list[tuple[Model, Point]]]:
    """Return the shortest of the pairs' contact moves (the first of equals) and where it takes each model."""
    moves = contact_moves(pairs)
    _, dx, dy = min([(math.inf, 0.0, 0.0), *[(math.hypot(dx, dy), dx, dy) for dx, dy in moves]])  # the first of equals
    return dx, dy, [(m, (m.at[0] + dx, m.at[1] + dy)) for m in models]


def _path_hits(model: Model, to: Point, other: Model) -> bool:
    """Say whether a model's straight move to ``to`` passes through ``other`` (its inscribed disc swept meets the other
    base), not touching it where it starts."""
    radius = model.base.least_side_mm / MM_PER_INCH / 2.0 - APART
    if not sweep_hits(model.at, to, radius, other.placed):
        return False
    start, there = model.placed, other.placed
    if math.dist(start.at, there.at) - start.base.reach_inches - there.base.reach_inches > APART + 1e-9:
        return True  # their bounding circles stand apart by more: so do the bases (not touching), unmeasured
    return distance(start, there) > APART


def detach(state: GameState, ch: Unit, to: Point, status: tuple[Status, ...] = ()) -> GameState:
    """Take a character out of its unit's formation and stand it at ``to`` as a unit of its own (with ``status``
    added)."""
    if ch.joined is None and state.joined_to(ch.id):
        state = _hand_over(state, ch)
        ch = state.unit(ch.id)
    host = state.unit(ch.joined) if ch.joined else None
    changed: list[Unit] = [state.unit(ch.id)]
    if host is not None and host.formation is not None and ch.models[0].name in host.formation.order:
        f = remove_from(host.formation, ch.models[0].name, front_rank_test(state, host), stay=True)
        changed = arranged(f, [evolve(host, formation=f), *[u for u in state.units if u.joined == host.id]])
    left = next(u for u in changed if u.id == ch.id)  # the character, as its unit's arranging left it
    moved = evolve(left, joined=None, formation=None, models=(left.models[0].moved_to(to), *left.models[1:]),
                   status=left.status | frozenset(status))
    return state.replace_units(*[moved if u.id == ch.id else u for u in changed])  # one new state


@implements("t9a.join.character-units", "t9a.combined.last-survivor")
def _hand_over(state: GameState, leader: Unit) -> GameState:
    """Let the next character lead a unit of characters that its leader is leaving (the unit stays).

    The unit's statuses and, for what is left of a destroyed combined unit, its name (``last_of``)
    stay with the unit: the leader leaves as a lone character and is that unit no more.
    """
    others = state.joined_to(leader.id)
    heir = others[0]
    f = leader.formation
    if f is not None and leader.models[0].name in f.order:
        f = remove_from(f, leader.models[0].name, stay=True)
    keep = leader.status - frozenset(MOVED)
    # the unit stays with the characters in it: the last survivor's name too (t9a.combined.last-survivor)
    new_heir = replace(heir, joined=None, formation=f if len(others) > 1 else None, status=heir.status | keep,
                       last_of=leader.last_of)
    new = state.replace_units(new_heir, *(replace(c, joined=heir.id) for c in others[1:]),
                              # the unit's halt stays with it, not with the leader who leaves (round 35)
                              replace(leader, joined=heir.id, formation=None, last_of=None,
                                      status=leader.status - {Status.HALTED}))
    return arrange(new, heir.id) if new_heir.formation is not None else new


def shift_unit(state: GameState, unit: Unit, dx: float, dy: float) -> GameState:
    if unit.formation is not None:
        return arrange(state.replace_unit(replace(unit, formation=unit.formation.moved_by(dx, dy))), unit.id)
    return state.replace_unit(replace(unit, models=tuple(m.moved_to((m.at[0] + dx, m.at[1] + dy)) for m in unit.models)))
