"""The 9th Age's cheaper geometry (issue 11) against the plain measures it replaces, by exact equality.

``nearest_in_rows`` measures only the pairs that can be nearest and must give every row that
can hold the nearest pair the very float ``distance`` gives, and the first nearest model of
its row; ``ConvexRegion`` settles a base against an arc only when shapely's area test
would agree; the charge's contact move is the one ``contact_vector`` gives for every model.
Bases are drawn at random and in formation grids, where equal gaps (ties) are the rule.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

from herohammer.charging import contact_vector
from herohammer.formations import Formation
from herohammer.geometry import (Base, ConvexRegion, Placed, box_gap, clearly_apart, distance, footprint_slack,
                                 group_distance, group_extent, nearest_in_rows)

near = st.floats(min_value=-6, max_value=6, allow_nan=False, allow_infinity=False).filter(
    lambda c: c == 0.0 or abs(c) > 1e-9)  # GEOS itself errs on coordinates near 1e-308 (an area off by a quarter)
points = st.tuples(near, near)
round_bases = st.sampled_from([20, 25, 32, 40]).map(Base.parse)
rect_bases = st.builds(lambda w, d: Base.parse([w, d]), st.integers(10, 60), st.integers(10, 60))
facings = st.one_of(st.sampled_from([0.0, 90.0, 180.0, 45.0]), st.floats(min_value=0, max_value=360))
loose = st.builds(Placed, base=st.one_of(rect_bases, round_bases), at=points, facing_deg=facings)


@st.composite
def formations(draw: st.DrawFn) -> list[Placed]:
    """Bases standing in the slots of a formation (equal gaps everywhere), as t9a units stand."""
    files = draw(st.integers(1, 5))
    n = draw(st.integers(1, 10))
    size = draw(st.sampled_from([(20.0, 20.0), (25.0, 25.0), (20.0, 40.0), (50.0, 50.0)]))
    facing = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0, 30.0]))
    at = (draw(st.integers(-8, 8)) * 0.5, draw(st.integers(-8, 8)) * 0.5)
    f = Formation(at, facing, files, tuple(f"m{i}" for i in range(n)), size)
    base = Base(size[0], size[1], round=False)
    return [Placed(base, f.point_of(name), facing) for name in f.order]


groups = st.one_of(st.lists(loose, min_size=1, max_size=6), formations())


def _plain_rows(a: list[Placed], b: list[Placed]) -> list[tuple[float, int]]:
    """The oracle: every pair measured; each row's least gap and its first place."""
    out = []
    for p in a:
        row = [distance(p, q) for q in b]
        out.append((min(row), row.index(min(row))))
    return out


@settings(max_examples=300, deadline=None)
@given(groups, groups, st.sampled_from([math.inf, 0.0, 0.5, 3.0]))
def test_nearest_in_rows_gives_every_row_that_can_be_nearest_exactly(a: list[Placed], b: list[Placed],
                                                                       within: float) -> None:
    rows = nearest_in_rows(a, b, within)
    plain = _plain_rows(a, b)
    least = min(d for d, _ in plain)
    for got, want in zip(rows, plain, strict=True):
        if got is not None:
            assert got == want  # the same float, the same first nearest
        else:  # left out only when it cannot be as near as the nearest row (nor within ``within``)
            assert want[0] > min(least, within)
        if want[0] <= min(least, within):
            assert got == want
    if within == math.inf:
        assert min(d for d, _ in filter(None, rows)) == group_distance(a, b)


_SQUARE, _ROUND = Base.parse([20, 20]), Base.parse(20)
_SQUARE20, _SQUARE10 = Base(20.0, 20.0, round=False), Base(10.0, 10.0, round=False)


@settings(max_examples=300, deadline=None)
@given(groups, groups)
@example([Placed(_SQUARE, (0.014940627, 1.765344329), 30.0), Placed(_SQUARE, (0.696850394, 2.159045117), 30.0)],
         [Placed(_ROUND, (-1.1875, 4.625), 0.0)])  # the nearer by distance is not the shorter move along the polygons
@example([Placed(_SQUARE20, (-1.0, 0.393700787 + 0.787401575 * i), 180.0) for i in range(5)],
         [Placed(_SQUARE10, (0.0, 3.0), 6.103515625e-05)])  # turned 1e-6 rad: not parallel (aligned_frames' sine test)
def test_the_charge_contact_move_is_the_one_every_model_measured_gives(a: list[Placed], b: list[Placed]) -> None:
    """``_contact``'s choice: only models within ``footprint_slack`` of the nearest are worked out (a round base's
    polygon can put a model a little further by distance nearer along the footprints), the shortest move is the same."""
    from herohammer.charging import contact_move

    full = min((math.hypot(*v), *v) for v in (contact_vector(p, b) for p in a))
    slack = footprint_slack(a, b)
    rows = nearest_in_rows(a, b, slack=slack)
    least = min(r[0] for r in rows if r is not None)
    cheap = min((math.hypot(*v), *v) for v in (contact_move(p, b[r[1]]) for p, r in zip(a, rows)
                                                if r is not None and r[0] <= least + slack + 1e-9 * (1.0 + least)))
    assert cheap == full


arcs = st.builds(lambda f, files, depth: Formation(f, depth, files, ("x",), (20.0, 20.0)).front_arc(),
                 points, st.integers(1, 6), facings)


@settings(max_examples=400, deadline=None)
@given(arcs, loose)
def test_a_base_settled_against_an_arc_agrees_with_shapely(arc: list[tuple[float, float]], p: Placed) -> None:
    region = ConvexRegion(arc)
    where = region.disc(p.at, p.base.reach_inches)
    area = shapely.Polygon(arc).intersection(p.footprint()).area
    if where is True:
        assert area > 1e-6 and math.isclose(area, p.footprint().area, rel_tol=1e-9)
    elif where is False:
        assert area == 0.0
    if not p.base.round:
        assert math.isclose(region.shared_area(p.corners), area, rel_tol=1e-9, abs_tol=1e-9)
    if region.disc(p.at, 0.01) and min(p.base.width_mm, p.base.depth_mm) >= 1.0:  # in_front_arc's sure overlap
        assert area > 1e-6


@settings(max_examples=200, deadline=None)
@given(groups, groups)
def test_boxes_apart_are_a_floor_of_the_group_distance(a: list[Placed], b: list[Placed]) -> None:
    gap = box_gap(group_extent(a), group_extent(b))
    assert gap <= group_distance(a, b) + 1e-9
    for inches in (0.0, 0.5, 1.0, gap * 0.999):
        if clearly_apart(a, b, inches):
            assert group_distance(a, b) > inches


@settings(max_examples=200, deadline=None)
@given(points, st.integers(1, 7), st.integers(1, 20), facings, st.sampled_from([(20.0, 20.0), (25.0, 50.0)]))
def test_a_formation_s_slot_points_worked_out_at_once_are_slot_point_s(at: tuple[float, float], files: int, n: int,
                                                                        facing: float,
                                                                        slot: tuple[float, float]) -> None:
    f = Formation(at, facing, files, tuple(f"m{i}" for i in range(n)), slot)
    assert [f.point_of(name) for name in f.order] == [f.slot_point(i) for i in range(n)]


@settings(max_examples=200, deadline=None)
@given(points, st.integers(1, 6), st.integers(2, 14), facings, st.randoms(use_true_random=False))
def test_a_reordered_formation_hands_over_the_very_slot_points(at: tuple[float, float], files: int, n: int,
                                                               facing: float, rng: Any) -> None:
    """Joins and leaves reorder a formation; the points handed over are those it would work out itself."""
    from herohammer.formations import place_in_front_rank, remove_from

    f = Formation(at, facing, files, tuple(f"m{i}" for i in range(n)), (25.0, 20.0))
    assert f.slot_points  # worked out, so that the next ones are handed over
    joined = place_in_front_rank(f, "new", rng.randrange(f.files), lambda name: name == "m0",
                                 "second_rank" if f.single_rank else None)
    left = remove_from(f, f"m{rng.randrange(n)}")
    for g in (joined, left, f.reordered(tuple(reversed(f.order)))):
        fresh = Formation(g.position, g.facing, g.files, g.order, g.slot_mm)
        assert g.slot_grid == fresh.slot_grid == tuple(g.slot_point(i) for i in range(len(g.order)))


@settings(max_examples=300, deadline=None)
@given(loose, loose)
def test_contact_move_reads_the_nearest_points_shapely_gives(a: Placed, b: Placed) -> None:
    """The contact move read from the shortest line's coordinates: the floats ``nearest_points`` wraps in Points."""
    from shapely.ops import nearest_points

    from herohammer.charging import contact_move

    p, q = nearest_points(a.footprint(), b.footprint())
    move = contact_move(a, b)
    assert move == (float(q.x - p.x), float(q.y - p.y))
    assert all(type(v) is float for v in move)


def aligned_gap(a: Placed, b: Placed) -> float | None:
    """The gap between two rectangles turned alike, from ``aligned_frames``; None for bases turned otherwise."""
    from herohammer.geometry import aligned_frames

    frames = aligned_frames([a, b])
    if frames is None:
        return None
    (u, v, half_u, half_v), (ou, ov, other_u, other_v) = frames
    across = abs(u - ou) - half_u - other_u
    along = abs(v - ov) - half_v - other_v
    return math.hypot(max(across, 0.0), max(along, 0.0))


@settings(max_examples=300, deadline=None)
@given(rect_bases, rect_bases, points, points, st.sampled_from([0.0, 90.0, 180.0, 270.0, 30.0]),
       st.sampled_from([0.0, 90.0, 180.0, 270.0, 120.0, 31.0]))
def test_aligned_gap_is_shapely_s_gap_for_rectangles_turned_alike(a: Base, b: Base, at: tuple[float, float],
                                                                   other: tuple[float, float], turn: float,
                                                                   more: float) -> None:
    """Two rectangles whose sides are parallel: the gap read from their frames (``aligned_frames``, what
    ``nearest_in_rows`` floors pairs with) is shapely's gap to within rounding; turned otherwise, no frames."""
    p, q = Placed(a, at, turn), Placed(b, other, (turn + more) % 360.0)
    gap = aligned_gap(p, q)
    if more % 90.0 != 0.0:
        assert gap is None
        return
    assert gap is not None
    assert abs(gap - distance(p, q)) <= 1e-12 * (1.0 + max(map(abs, (*at, *other))))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(loose, loose), max_size=6))
def test_contact_moves_from_one_call_are_each_pair_s_contact_move(pairs: list[tuple[Placed, Placed]]) -> None:
    from herohammer.charging import contact_move, contact_moves

    moves = contact_moves(pairs)
    assert moves == [contact_move(a, b) for a, b in pairs]
    assert all(type(v) is float for move in moves for v in move)


@settings(max_examples=200, deadline=None)
@given(groups, groups, groups)
def test_frames_kept_on_a_base_are_the_frames_worked_out_afresh(a: list[Placed], b: list[Placed],
                                                                 c: list[Placed]) -> None:
    """``aligned_frames`` keeps each base's frame for the axes it was asked in: asked again in other groups (other
    first bases, other axes), the frames are those of bases placed afresh."""
    from herohammer.geometry import aligned_frames

    def afresh(group: list[Placed]) -> list[Placed]:
        return [Placed(p.base, p.at, p.facing_deg) for p in group]

    for first, second in ((a, b), (b, c), (c, a), (a, b)):
        assert aligned_frames([*first, *second]) == aligned_frames(afresh([*first, *second]))
