"""The closed-form geometry gives shapely's answers: swept bases, bounding circles, overlaps with a tolerance.

``sweep_hits`` measures the exact discs while shapely draws circles as inscribed
polygons, so the two may differ only within ``SWEEP_TOLERANCE`` of touching; the
tests draw random bases and moves and compare wherever the exact clearance is
further from zero than that.
"""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from herohammer.geometry import (SWEEP_TOLERANCE, Base, Placed, disc_path_overlaps, distance, overlaps, segment_distance,
                                segments_within, sweep_hits)

near = st.floats(min_value=-4, max_value=4, allow_nan=False, allow_infinity=False)
points = st.tuples(near, near)
round_bases = st.sampled_from([20, 25, 32, 40, 50, 60]).map(Base.parse)
rect_bases = st.builds(lambda w, d: Base.parse([w, d]), st.integers(10, 120), st.integers(10, 120))
facings = st.one_of(st.sampled_from([0.0, 90.0, 45.0]), st.floats(min_value=0, max_value=360))
bases = st.one_of(round_bases, rect_bases)
placed = st.builds(Placed, base=bases, at=points, facing_deg=facings)
radii = st.floats(min_value=0.2, max_value=1.5)


def _shapely_sweep(start: tuple[float, float], to: tuple[float, float], radius: float, other: Placed) -> bool:
    """The answer as shapely gives it: the straight path buffered by the radius, against the base's polygon."""
    return bool(shapely.LineString([start, to]).buffer(radius).intersects(other.footprint()))


def _exact_clearance(start: tuple[float, float], to: tuple[float, float], radius: float, other: Placed) -> float:
    """Measure the gap between the swept disc and the base with shapely's exact segment distance (no buffering)."""
    segment = shapely.LineString([start, to])
    if other.base.round:
        return float(segment.distance(shapely.Point(other.at))) - radius - other.base.radius_inches
    return float(segment.distance(other.footprint())) - radius


def _closest_pair_by_plain_loops(a: list[Placed], b: list[Placed]) -> tuple[int, int, float]:
    """The oracle: every pair measured, the first closest kept (what closest_pair's screens must not change)."""
    from herohammer.geometry import distance

    best = (0, 0, math.inf)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if distance(x, y) < best[2]:
                best = (i, j, distance(x, y))
    return best


@settings(max_examples=400)
@given(points, points, radii, placed)
def test_a_swept_base_meets_a_model_exactly_when_shapely_says_so(start: tuple[float, float], to: tuple[float, float],
                                                                    radius: float, other: Placed) -> None:
    assume(math.dist(start, to) > 1e-6)
    clearance = _exact_clearance(start, to, radius, other)
    reach = radius + (other.base.radius_inches if other.base.round else 0.0)
    assume(abs(clearance) > SWEEP_TOLERANCE * reach + 1e-9)
    assert sweep_hits(start, to, radius, other) == _shapely_sweep(start, to, radius, other)
    assert sweep_hits(start, to, radius, other) == (clearance < 0)


@given(points, points, placed)
def test_the_closed_form_agrees_with_exact_distance_even_at_the_edges(start: tuple[float, float],
                                                                      to: tuple[float, float], other: Placed) -> None:
    """Set the radius to the exact gap: touching counts as meeting, a hair less does not."""
    assume(math.dist(start, to) > 1e-6)
    gap = _exact_clearance(start, to, 0.0, other)
    assume(gap > 0.05)
    assert sweep_hits(start, to, gap + 1e-6, other)
    assert not sweep_hits(start, to, gap - 1e-6, other)


def test_a_move_past_a_round_base_and_through_it() -> None:
    other = Placed(Base.parse(25), (5.0, 0.9))
    r = Base.parse(25).radius_inches  # 25mm bases: 0.98" between centres is touching
    assert sweep_hits((0.0, 0.0), (10.0, 0.0), r, other)  # 0.9" off the line: they cannot pass
    assert not sweep_hits((0.0, -0.1), (10.0, -0.1), r, other)  # 1.0" off the line: passes just clear
    assert not sweep_hits((0.0, 0.0), (3.0, 0.0), r, other)  # stops short of it
    assert not sweep_hits((0.0, 0.0), (10.0, 0.0), 0.0, other)  # no disc: nothing swept


def test_a_move_along_a_turned_rectangle() -> None:
    wagon = Placed(Base.parse([100, 50]), (10.0, 10.0), 90.0)  # 100mm deep along x once turned by 90 degrees
    assert sweep_hits((0.0, 10.0), (20.0, 10.0), 0.4, wagon)
    half_depth = 50 / 25.4 / 2  # after the turn the 50mm side runs along x, the 100mm side along y
    assert not sweep_hits((10.0 + half_depth + 0.5, 0.0), (10.0 + half_depth + 0.5, 20.0), 0.4, wagon)
    assert sweep_hits((10.0 + half_depth + 0.3, 0.0), (10.0 + half_depth + 0.3, 20.0), 0.4, wagon)


@given(placed, placed, st.sampled_from([0.0, 0.01, 0.02, 0.05]))
def test_overlap_with_the_bounding_circle_shortcut_is_shapelys_overlap(a: Placed, b: Placed, tolerance: float) -> None:
    """Far-apart pairs are settled by bounding circles; the answer is still the shrunk shapes' overlap."""
    assume(not (a.base.round and b.base.round))
    half = tolerance / 2
    mine = a.footprint().buffer(-half, join_style="mitre") if half else a.footprint()
    other = b.footprint().buffer(-half, join_style="mitre") if half else b.footprint()
    if a.base.round:
        mine = shapely.Point(a.at).buffer(a.base.radius_inches - half, quad_segs=256)
    if b.base.round:
        other = shapely.Point(b.at).buffer(b.base.radius_inches - half, quad_segs=256)
    depth = float(mine.intersection(other).area) if mine.intersects(other) else 0.0
    assume(depth > 1e-6 or float(mine.distance(other)) > 1e-3)  # not at the very edge of touching
    assert overlaps(a, b, tolerance) == (depth > 1e-6)


@given(bases)
def test_a_base_lies_within_its_reach(base: Base) -> None:
    outline = Placed(base, (0.0, 0.0), 37.0).footprint().exterior.coords
    assert max(math.hypot(x, y) for x, y in outline) <= base.reach_inches + 1e-9


@given(st.lists(placed, min_size=1, max_size=6), st.lists(placed, min_size=1, max_size=6))
def test_closest_pair_of_round_bases_is_the_plain_loops_answer(a: list[Placed], b: list[Placed]) -> None:
    """The inlined loop for round bases names the same pair, ties included, at the same distance."""
    from herohammer.geometry import closest_pair

    a = [Placed(Base.parse(25 + 10 * (i % 3)), p.at) for i, p in enumerate(a)]
    b = [Placed(Base.parse(32), p.at) for p in b]
    assert closest_pair(a, b) == _closest_pair_by_plain_loops(a, b)


@settings(max_examples=60)
@given(st.lists(placed, min_size=1, max_size=30), st.lists(placed, min_size=1, max_size=30),
       st.sampled_from([0.0, 0.01, 0.02]))
def test_overlapping_pairs_are_the_double_loops_pairs_in_its_order(a: list[Placed], b: list[Placed],
                                                                    tolerance: float) -> None:
    """Screened by bounding circles (a plain loop for a few pairs, numpy for many), the pairs are the double loop's."""
    from herohammer.geometry import overlapping_pairs

    assert list(overlapping_pairs(a, b, tolerance)) == [
        (i, j) for i in range(len(a)) for j in range(len(b)) if overlaps(a[i], b[j], tolerance)]
    assert list(overlapping_pairs(a, None, tolerance)) == [
        (i, j) for i in range(len(a)) for j in range(i + 1, len(a)) if overlaps(a[i], a[j], tolerance)]


def test_a_path_meets_terrain_only_inside_its_box() -> None:
    from herohammer.geometry import Terrain, enters_terrain, segment_enters_terrain

    woods = Terrain("woods", "difficult", ((10.0, 10.0), (14.0, 10.0), (12.0, 14.0)))
    assert enters_terrain((0.0, 12.0), [(20.0, 12.0)], [woods])  # straight through
    assert not enters_terrain((0.0, 0.0), [(20.0, 0.0)], [woods])  # below its box
    assert not enters_terrain((10.0, 13.9), [(10.5, 14.0)], [woods])  # inside the box, beside the triangle
    assert enters_terrain((12.0, 12.0), [], [woods])  # standing in it
    for start, end in (((0.0, 12.0), (20.0, 12.0)), ((0.0, 0.0), (20.0, 0.0)), ((10.0, 13.9), (10.5, 14.0))):
        assert segment_enters_terrain(start, end, [woods]) == enters_terrain(start, [end], [woods])


def test_rectangles_side_by_side_touch_and_overlap_only_past_the_tolerance() -> None:
    """Rank-and-file bases stand touching: not an overlap; pushed together past the tolerance, one."""
    width = 20 / 25.4
    for facing in (0.0, 45.0, 90.0, 30.0):
        c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
        left = Placed(Base.parse([20, 20]), (10.0, 10.0), facing)

        def beside(gap: float) -> Placed:
            return Placed(Base.parse([20, 20]), (10.0 + c * (width + gap), 10.0 + s * (width + gap)), facing)

        assert not overlaps(left, beside(0.0), 0.0)  # touching along a side
        assert not overlaps(left, beside(-0.005), 0.01)  # within the tolerance
        assert overlaps(left, beside(-0.02), 0.01)
        assert overlaps(left, beside(-0.001), 0.0)


@given(placed, placed, st.tuples(near, near), st.floats(0.2, 3.0))
def test_sight_screened_by_boxes_is_sight_checked_against_every_piece(a: Placed, b: Placed,
                                                                      centre: tuple[float, float], size: float) -> None:
    """A blocking piece whose box misses the bases' box is skipped: the answer is the same as checking it."""
    import numpy as np

    from herohammer.geometry import Terrain, _crossing, _sight_points, line_of_sight

    x, y = centre
    wall = Terrain("wall", "blocking", ((x, y), (x + size, y), (x + size, y + size / 3), (x, y + size / 3)))
    segments = shapely.linestrings(np.array([[s, e] for s in _sight_points(a) for e in _sight_points(b)], dtype=float))
    assert line_of_sight(a, b, [wall]) == (not bool(_crossing(segments, [wall.shape()]).all()))


@given(placed, placed, st.tuples(near, near), st.floats(0.2, 3.0))
def test_a_piece_not_near_a_move_touches_neither_its_ends_nor_its_swept_base(
        a: Placed, b: Placed, corner: tuple[float, float], size: float) -> None:
    from herohammer.geometry import Terrain

    x, y = corner
    rock = Terrain("rock", "blocking", ((x, y), (x + size, y), (x, y + size)))
    reach = a.base.reach_inches
    if not rock.near([a.at], reach):
        assert not a.footprint().intersects(rock.shape())
    if not rock.near([a.at, b.at], reach):
        assert not shapely.LineString([a.at, b.at]).buffer(reach).intersects(rock.shape())


@given(st.lists(placed, min_size=1, max_size=6), st.lists(placed, min_size=1, max_size=6))
def test_closest_pair_of_any_bases_is_the_plain_loops_answer(a: list[Placed], b: list[Placed]) -> None:
    """Pairs whose bounding circles are further apart than the best so far are skipped: same pair, same distance."""
    from herohammer.geometry import closest_pair

    assert closest_pair(a, b) == _closest_pair_by_plain_loops(a, b)


@settings(max_examples=300, deadline=None)
@given(points, points, radii, placed, st.floats(min_value=-1.5, max_value=2.5))
def test_a_disc_path_overlaps_a_base_exactly_on_its_stretch(start: tuple[float, float], to: tuple[float, float],
                                                            radius: float, other: Placed, u: float) -> None:
    """``disc_path_overlaps`` names the stretch of a straight path where a disc overlaps a base: at any point of the
    path, shapely's exact distance to the base is below the radius inside the stretch and not below it outside
    (points within 1e-6" of touching are not judged)."""
    step = (to[0] - start[0], to[1] - start[1])
    at = (start[0] + u * step[0], start[1] + u * step[1])
    gap = float(shapely.Point(at).distance(other.footprint() if not other.base.round
                                            else shapely.Point(other.at).buffer(0.0))) - radius
    if other.base.round:
        gap -= other.base.radius_inches
    assume(abs(gap) > 1e-6)
    stretch = disc_path_overlaps(start, step, radius, other)
    inside = stretch is not None and stretch[0] < u < stretch[1]
    assert inside == (gap < 0.0)


@given(st.lists(placed, min_size=1, max_size=8), st.lists(placed, min_size=1, max_size=8))
def test_a_distance_between_models_as_they_stand_is_the_group_distance_of_their_bases(a: list[Placed],
                                                                                     b: list[Placed]) -> None:
    """``standing_distance`` (the fall back's choice of the nearest enemy) reads round bases from their centres with
    the smaller group as rows: the very float ``group_distance`` of the placed bases gives, either way round."""
    from herohammer.geometry import group_distance, standing_distance

    assert standing_distance(a, b) == group_distance(a, b)
    rounds_a, rounds_b = [p for p in a if p.base.round], [p for p in b if p.base.round]
    if rounds_a and rounds_b:
        assert standing_distance(rounds_a, rounds_b) == group_distance(rounds_a, rounds_b) \
            == standing_distance(rounds_b, rounds_a) == group_distance(rounds_b, rounds_a)


def test_a_base_read_from_data_is_one_value_per_size() -> None:
    """``Base.parse`` gives every model of one size the same base, so its inches are worked out once."""
    assert Base.parse(25) is Base.parse(25.0) == Base(25.0, 25.0)
    assert Base.parse([50, 25]) is Base.parse([50.0, 25.0]) != Base.parse(50)
    assert Base.parse([50, 25]).round is False


rect_placed = st.builds(Placed, base=rect_bases, at=points, facing_deg=facings)


@settings(max_examples=500, deadline=None)
@given(rect_placed, rect_placed)
def test_two_rectangles_are_as_far_apart_as_shapely_measures(a: Placed, b: Placed) -> None:
    """``distance`` between rectangles, worked out from their corners and shadows without drawing them, is GEOS's
    distance between their polygons (0 wherever they meet, crossing or one inside the other)."""
    assert distance(a, b) == distance(b, a)
    assert math.isclose(distance(a, b), float(a.footprint().distance(b.footprint())), rel_tol=1e-12, abs_tol=1e-12)


def test_crossed_rectangles_with_no_corner_inside_the_other_meet() -> None:
    long_way, across = Placed(Base.parse([100, 10]), (0.0, 0.0)), Placed(Base.parse([100, 10]), (0.0, 0.0), 90.0)
    assert not any(overlaps(Placed(Base.parse(1), c), across) for c in long_way.corners)  # no corner inside
    assert distance(long_way, across) == 0.0
    assert distance(long_way, Placed(across.base, (0.0, 1.0), 90.0)) == 0.0  # still crossed, off centre
    assert distance(long_way, Placed(across.base, (0.0, 3.0), 90.0)) == pytest.approx(3.0 - 50 / 25.4 - 5 / 25.4)


@given(points, points, points, points, st.floats(min_value=0.0, max_value=2.0))
def test_segments_within_a_tolerance_is_their_distance_within_it(a: tuple[float, float], b: tuple[float, float],
                                                                 p: tuple[float, float], q: tuple[float, float],
                                                                 tol: float) -> None:
    """``segments_within`` (a charging front on its Target Facing) stops measuring at the first end within: the same
    answer as measuring the whole distance, crossing segments included."""
    assert segments_within(a, b, p, q, tol) == (segment_distance(a, b, p, q) <= tol)
    assert segments_within(a, b, p, q, tol) == (shapely.LineString([a, b]).distance(shapely.LineString([p, q]))
                                                <= tol + 1e-9) or abs(segment_distance(a, b, p, q) - tol) < 1e-9


def test_a_path_straight_along_an_axis_meets_a_square_through_it_or_beside_it() -> None:
    """A move along a base's own axis (a step of 0 across: the clipping's parallel sides) through the base, then
    beside it 0.02" off: met through, and beside only by a swept disc reaching further than 0.02"."""
    square = Placed(Base.parse([20, 20]), (0.0, 5.0))
    half = 10 / 25.4
    assert sweep_hits((0.0, 0.0), (0.0, 10.0), 0.3, square)
    beside = half + 0.02 + 0.3  # the swept disc's edge 0.02" from the square's side
    assert not sweep_hits((beside, 0.0), (beside, 10.0), 0.3, square)
    assert sweep_hits((beside, 0.0), (beside, 10.0), 0.33, square)
    assert not sweep_hits((0.0, 0.0), (0.0, 5.0 - half - 0.3 - 0.02), 0.3, square)  # stops short of it
