"""Tests for herohammer.geometry: bases, distances, coherency, line of sight, terrain."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from herohammer.geometry import (
    COHERENCY_INCHES,
    MM_PER_INCH,
    Base,
    Placed,
    Terrain,
    closest_pair,
    coherency_groups,
    coherent,
    crosses_terrain,
    distance,
    enters_terrain,
    group_distance,
    in_base_contact,
    length_in_terrain,
    line_of_sight,
    on_table,
    overlaps,
    path_length,
    unit_line_of_sight,
    within,
)

R25 = 25 / MM_PER_INCH / 2  # radius of a 25mm base in inches
MARINE = Base.parse(25)
BIKE = Base.parse([50, 25])


def m25(x: float, y: float) -> Placed:
    return Placed(MARINE, (x, y))


def square(tid: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain(tid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


# --- bases ---------------------------------------------------------------------------


def test_parse_round_and_rectangular() -> None:
    assert Base.parse(25) == Base(25.0, 25.0, round=True)
    assert Base.parse(40.0) == Base(40.0, 40.0)
    assert Base.parse([50, 25]) == Base(50.0, 25.0, round=False)
    assert Base.parse((60, 35)).round is False


def test_to_data_is_inverse_of_parse() -> None:
    assert Base.parse(25).to_data() == 25
    assert Base.parse([50, 25]).to_data() == [50, 25]
    assert Base.parse([50.5, 25]).to_data() == [50.5, 25]


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (0, "positive"),
        (-25, "positive"),
        (math.nan, "positive"),
        (math.inf, "positive"),
        ([50, 0], "positive"),
        ([50, -1], "positive"),
        ([50, "x"], "positive"),
        ([50], "diameter in mm"),
        ([50, 25, 10], "diameter in mm"),
        ("25", "diameter in mm"),
        (True, "diameter in mm"),
        (None, "diameter in mm"),
    ],
)
def test_parse_rejects_bad_bases(value: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Base.parse(value)  # type: ignore[arg-type]


def test_direct_construction_is_validated() -> None:
    with pytest.raises(ValueError, match="width_mm must be a positive"):
        Base(-1, 25, round=False)
    with pytest.raises(ValueError, match="oval bases are not supported"):
        Base(50, 25)  # round is the default


def test_round_footprint_is_a_disc_in_inches() -> None:
    shape = MARINE.footprint((10, 5))
    assert shape.area == pytest.approx(math.pi * R25**2, rel=1e-3)
    assert shape.centroid.x == pytest.approx(10)
    assert shape.bounds == pytest.approx((10 - R25, 5 - R25, 10 + R25, 5 + R25))


def test_rectangle_faces_plus_y_and_rotates() -> None:
    w, d = 50 / MM_PER_INCH, 25 / MM_PER_INCH
    assert BIKE.footprint((0, 0)).bounds == pytest.approx((-w / 2, -d / 2, w / 2, d / 2))
    turned = BIKE.footprint((1, 2), facing_deg=90)
    assert turned.bounds == pytest.approx((1 - d / 2, 2 - w / 2, 1 + d / 2, 2 + w / 2))
    assert turned.area == pytest.approx(w * d)


def test_placed_accepts_lists_and_caches_footprint() -> None:
    p = Placed(MARINE, [1, 2])  # type: ignore[arg-type]
    assert p.at == (1.0, 2.0)
    assert p == Placed(MARINE, (1.0, 2.0))
    assert hash(p) == hash(Placed(MARINE, (1.0, 2.0)))
    assert p.footprint() is p.footprint()
    with pytest.raises(ValueError, match="position"):
        Placed(MARINE, (1.0,))  # type: ignore[arg-type]


# --- distances -----------------------------------------------------------------------


def test_round_bases_three_inches_apart() -> None:
    assert distance(m25(0, 0), m25(3, 0)) == pytest.approx(3 - 25 / 25.4)
    assert distance(m25(0, 0), m25(3, 4)) == pytest.approx(5 - 25 / 25.4)


def test_round_distance_is_exact() -> None:
    # exactly 2" edge to edge must not come out a hair over 2"
    a, b = m25(0, 0), m25(2 + 2 * R25, 0)
    assert distance(a, b) == pytest.approx(2.0, abs=1e-12)
    assert within(a, [b], 2.0)


def test_touching_bases_are_in_base_contact_but_do_not_overlap() -> None:
    a, b = m25(0, 0), m25(25 / 25.4, 0)
    assert distance(a, b) == 0
    assert in_base_contact(a, b)
    assert in_base_contact(a, b, tolerance=0)
    assert not overlaps(a, b)


def test_base_contact_tolerance() -> None:
    a = m25(0, 0)
    assert in_base_contact(a, m25(2 * R25 + 0.005, 0))
    assert not in_base_contact(a, m25(2 * R25 + 0.005, 0), tolerance=0)
    assert not in_base_contact(a, m25(2 * R25 + 0.05, 0))
    with pytest.raises(ValueError, match="tolerance"):
        in_base_contact(a, a, tolerance=-1)


def test_overlap_beyond_tolerance_is_illegal() -> None:
    a = m25(0, 0)
    assert not overlaps(a, m25(2 * R25 - 0.005, 0))  # within tolerance: a placing slip
    assert overlaps(a, m25(2 * R25 - 0.005, 0), tolerance=0)
    assert overlaps(a, m25(2 * R25 - 0.1, 0))
    assert overlaps(a, a)


def test_overlap_with_rectangles() -> None:
    w = 50 / MM_PER_INCH
    bike = Placed(BIKE, (0, 0))
    assert not overlaps(bike, m25(w / 2 + R25, 0))  # touching
    assert not overlaps(bike, m25(w / 2 + R25 - 0.005, 0))
    assert overlaps(bike, m25(w / 2 + R25 - 0.1, 0))
    assert overlaps(m25(w / 2 + R25 - 0.1, 0), bike)
    other = Placed(BIKE, (w, 0))
    assert not overlaps(bike, other)
    assert in_base_contact(bike, other, tolerance=0)
    assert overlaps(bike, Placed(BIKE, (w - 0.1, 0)))
    assert not overlaps(bike, Placed(BIKE, (w - 0.005, 0)))


def test_rectangle_to_round_and_rotated() -> None:
    w, d = 50 / MM_PER_INCH, 25 / MM_PER_INCH
    marine = m25(3, 0)
    assert distance(Placed(BIKE, (0, 0)), marine) == pytest.approx(3 - w / 2 - R25)
    assert distance(Placed(BIKE, (0, 0), 90), marine) == pytest.approx(3 - d / 2 - R25)
    assert distance(marine, Placed(BIKE, (0, 0), 90)) == pytest.approx(3 - d / 2 - R25)


def test_rectangle_to_rectangle() -> None:
    w, d = 50 / MM_PER_INCH, 25 / MM_PER_INCH
    assert distance(Placed(BIKE, (0, 0)), Placed(BIKE, (0, 4))) == pytest.approx(4 - d)
    assert distance(Placed(BIKE, (0, 0), 90), Placed(BIKE, (0, 4), 90)) == pytest.approx(4 - w)
    # corner to corner across a diagonal
    gap = distance(Placed(BIKE, (0, 0)), Placed(BIKE, (w + 3, d + 4)))
    assert gap == pytest.approx(5.0)


def test_group_distance_and_closest_pair() -> None:
    squad = [m25(0, 0), m25(1, 0), m25(2, 0)]
    enemy = [m25(10, 5), m25(8, 0), m25(9, 0)]
    i, j, gap = closest_pair(squad, enemy)
    assert (i, j) == (2, 1)
    assert gap == pytest.approx(6 - 2 * R25)
    assert group_distance(squad, enemy) == pytest.approx(6 - 2 * R25)
    with pytest.raises(ValueError, match="at least one model"):
        group_distance([], enemy)
    with pytest.raises(ValueError, match="at least one model"):
        closest_pair(squad, [])


def test_within_edge_to_edge() -> None:
    a = m25(0, 0)
    squad = [m25(10, 0), m25(0, 2 + 2 * R25)]
    assert within(a, squad, 2.0)
    assert not within(a, squad, 1.99)
    assert not within(a, [m25(0, 2.001 + 2 * R25)], 2.0)
    assert not within(a, [], 100.0)


# --- coherency -----------------------------------------------------------------------


def test_chain_is_coherent() -> None:
    chain = [m25(i * (1.9 + 2 * R25), 0) for i in range(6)]
    assert coherent(chain)
    assert coherency_groups(chain) == [[0, 1, 2, 3, 4, 5]]


def test_exactly_two_inches_is_coherent() -> None:
    step = COHERENCY_INCHES + 2 * R25
    assert coherent([m25(i * step, 0) for i in range(5)])


def test_broken_chain_is_not_coherent() -> None:
    chain = [m25(0, 0), m25(2, 0), m25(4, 0), m25(9, 0), m25(11, 0)]
    assert not coherent(chain)
    assert coherency_groups(chain) == [[0, 1, 2], [3, 4]]


def test_two_clumps_are_not_coherent_though_every_model_has_a_neighbour() -> None:
    left = [m25(0, 0), m25(1 + 2 * R25, 0)]
    right = [m25(x + 6 + 4 * R25, 0) for x in (0, 1 + 2 * R25)]
    models = [left[0], right[0], left[1], right[1]]
    assert all(within(m, [o for o in models if o is not m], 1.0) for m in models)
    assert group_distance(left, right) == pytest.approx(5.0)
    assert not coherent(models)
    assert coherency_groups(models) == [[0, 2], [1, 3]]


def test_trivial_units_are_coherent() -> None:
    assert coherent([])
    assert coherent([m25(5, 5)])
    assert coherency_groups([]) == []
    assert coherency_groups([m25(5, 5)]) == [[0]]


def test_coherency_gap_is_configurable() -> None:
    models = [m25(0, 0), m25(3 + 2 * R25, 0)]
    assert not coherent(models)
    assert coherent(models, max_gap=3.0)


# --- terrain -------------------------------------------------------------------------


def test_terrain_accepts_lists_and_builds_shape() -> None:
    t = Terrain("ruin", "blocking", [[0, 0], [2, 0], [2, 1], [0, 1]])  # type: ignore[arg-type]
    assert t.polygon == ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0))
    assert t.shape().area == pytest.approx(2.0)
    assert t == Terrain("ruin", "blocking", ((0, 0), (2, 0), (2, 1), (0, 1)))
    hash(t)


@pytest.mark.parametrize(
    ("points", "fragment"),
    [
        (((0, 0), (1, 0)), "at least 3 distinct points"),
        (((0, 0), (1, 0), (0, 0)), "at least 3 distinct points"),
        (((0, 0), (2, 2), (2, 0), (0, 2)), "not valid .*Self-intersection"),
        (((0, 0), (1, 1), (2, 2)), "not valid|no area"),
        (((0, 0), (1, 0), (1, math.nan)), "finite"),
        (((0, 0), (1, 0, 3), (1, 1)), r"point \[x, y\]"),
        ("square", "list of"),
    ],
)
def test_bad_terrain_polygons_name_the_piece(points: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment) as info:
        Terrain("wood-3", "difficult", points)  # type: ignore[arg-type]
    assert "wood-3" in str(info.value)


def test_line_of_sight_blocked_by_wall_between() -> None:
    wall = square("wall", "blocking", 4, -1, 5, 1)
    a, b = m25(0, 0), m25(10, 0)
    assert not line_of_sight(a, b, [wall])
    assert not line_of_sight(b, a, [wall])
    assert line_of_sight(a, b, [])


def test_line_of_sight_beside_the_wall_or_through_other_terrain() -> None:
    a, b = m25(0, 0), m25(10, 0)
    assert line_of_sight(a, b, [square("wall", "blocking", 4, 1, 5, 3)])
    assert line_of_sight(a, b, [square("wood", "difficult", 4, -1, 5, 1)])
    assert line_of_sight(a, b, [square("field", "open", 4, -1, 5, 1)])


def test_line_of_sight_past_the_corner_of_a_base() -> None:
    # the wall hides the centres but not the upper edge of the bases
    wall = square("wall", "blocking", 4, -1, 5, R25 / 2)
    assert line_of_sight(m25(0, 0), m25(10, 0), [wall])
    big = Placed(BIKE, (10, 0), 90)  # a base taller than the wall's gap still shows
    assert line_of_sight(m25(0, 0), big, [square("wall", "blocking", 4, -1, 5, 0.49)])


def test_touching_a_wall_edge_does_not_block() -> None:
    # two walls meet along y == 0; the sight line along their shared edge is open
    upper = square("upper", "blocking", 4, 0, 5, 3)
    lower = square("lower", "blocking", 4, -3, 5, 0)
    assert line_of_sight(m25(0, 0), m25(10, 0), [upper, lower])
    assert not crosses_terrain((0, 0), (10, 0), [upper, lower], "blocking")
    assert not crosses_terrain((0, 3), (10, 3), [upper], "blocking")
    assert crosses_terrain((0, 0.1), (10, 0.1), [upper, lower], "blocking")
    assert not crosses_terrain((0, 0.1), (10, 0.1), [upper, lower], "difficult")


def test_unit_line_of_sight_needs_one_model_to_see() -> None:
    wall = square("wall", "blocking", 4, -1, 5, 1)
    squad = [m25(0, 0), m25(0, 4)]
    target = [m25(10, 0)]
    assert unit_line_of_sight(squad, target, [wall])
    assert not unit_line_of_sight(squad[:1], target, [wall])
    assert not unit_line_of_sight([], target, [wall])


# --- movement ------------------------------------------------------------------------


def test_path_length() -> None:
    assert path_length((0, 0), [(3, 4), (3, 10)]) == pytest.approx(11.0)
    assert path_length((1, 1), []) == 0.0


def test_length_in_difficult_terrain() -> None:
    wood = square("wood", "difficult", 2, -1, 4, 1)
    assert length_in_terrain((0, 0), [(6, 0)], [wood]) == pytest.approx(2.0)
    assert length_in_terrain((0, 0), [(3, 0)], [wood]) == pytest.approx(1.0)
    assert length_in_terrain((0, 0), [(6, 0)], [wood], kind="blocking") == 0.0
    assert length_in_terrain((0, 5), [(6, 5)], [wood]) == 0.0
    assert length_in_terrain((0, 0), [], [wood]) == 0.0


def test_overlapping_pieces_count_once_but_a_doubled_path_twice() -> None:
    wood = square("wood", "difficult", 2, -1, 4, 1)
    swamp = square("swamp", "difficult", 3, -1, 5, 1)
    assert length_in_terrain((0, 0), [(6, 0)], [wood, swamp]) == pytest.approx(3.0)
    assert length_in_terrain((0, 0), [(6, 0), (0, 0)], [wood]) == pytest.approx(4.0)


def test_enters_terrain() -> None:
    wood = square("wood", "difficult", 2, -1, 4, 1)
    assert enters_terrain((0, 0), [(6, 0)], [wood])
    assert enters_terrain((0, 0), [(3, 0)], [wood])  # ends inside
    assert enters_terrain((0, 1), [(6, 1)], [wood])  # touches the edge
    assert enters_terrain((3, 0), [], [wood])  # stands in it
    assert not enters_terrain((0, 2), [(6, 2)], [wood])
    assert not enters_terrain((0, 0), [(6, 0)], [wood], kind="blocking")


def test_on_table() -> None:
    assert on_table(m25(R25, R25), 72, 48)
    assert on_table(m25(72 - R25, 48 - R25), 72, 48)
    assert not on_table(m25(0.3, 10), 72, 48)
    assert not on_table(m25(10, 48), 72, 48)
    d = 25 / MM_PER_INCH
    assert on_table(Placed(BIKE, (d / 2, 10), 90), 72, 48)
    assert not on_table(Placed(BIKE, (d / 2, 10)), 72, 48)


# --- properties ----------------------------------------------------------------------

coords = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
round_bases = st.sampled_from([25, 32, 40, 60]).map(Base.parse)
rect_bases = st.builds(lambda w, d: Base.parse([w, d]), st.integers(10, 120), st.integers(10, 120))
near = st.floats(min_value=-4, max_value=4, allow_nan=False, allow_infinity=False)
facings = st.one_of(st.sampled_from([0.0, 90.0, 45.0]), st.floats(min_value=0, max_value=360))
placed = st.builds(
    Placed,
    base=st.one_of(round_bases, rect_bases),
    at=st.tuples(coords, coords),
    facing_deg=facings,
)
# models a few inches apart, so contact, overlap and coherency are all common
clustered = st.builds(
    Placed,
    base=st.one_of(round_bases, rect_bases),
    at=st.tuples(near, near),
    facing_deg=facings,
)
pairs = st.one_of(st.tuples(placed, placed), st.tuples(clustered, clustered))


@given(pairs)
def test_distance_is_symmetric_and_non_negative(pair: tuple[Placed, Placed]) -> None:
    a, b = pair
    assert distance(a, b) == distance(b, a)
    assert distance(a, b) >= 0
    assert overlaps(a, b) == overlaps(b, a)


@given(pairs)
def test_distance_zero_iff_base_contact(pair: tuple[Placed, Placed]) -> None:
    a, b = pair
    assert (distance(a, b) == 0) == in_base_contact(a, b, tolerance=0)


@given(pairs)
def test_overlap_implies_contact(pair: tuple[Placed, Placed]) -> None:
    a, b = pair
    if overlaps(a, b):
        assert distance(a, b) == 0


@given(pairs)
def test_exact_distance_agrees_with_shapely_polygons(pair: tuple[Placed, Placed]) -> None:
    a, b = pair
    # round bases are measured exactly; shapely's 128-gons sit just inside the disc
    assert distance(a, b) == pytest.approx(a.footprint().distance(b.footprint()), abs=1e-3)


@given(st.one_of(round_bases, rect_bases))
def test_parse_round_trips(base: Base) -> None:
    assert Base.parse(base.to_data()) == base


@given(st.lists(clustered, max_size=8), st.tuples(coords, coords))
def test_coherency_invariant_under_translation(
    models: list[Placed], shift: tuple[float, float]
) -> None:
    moved = [Placed(m.base, (m.at[0] + shift[0], m.at[1] + shift[1]), m.facing_deg) for m in models]
    # pairs within rounding error of the 2" limit may go either way; keep clear of them
    for i, a in enumerate(models):
        for b in models[i + 1 :]:
            assume(abs(distance(a, b) - COHERENCY_INCHES) > 1e-6)
    assert coherent(moved) == coherent(models)
    assert coherency_groups(moved) == coherency_groups(models)


@given(st.lists(clustered, max_size=8))
def test_coherency_groups_partition_the_unit(models: list[Placed]) -> None:
    groups = coherency_groups(models)
    assert sorted(i for g in groups for i in g) == list(range(len(models)))
    for g in groups:
        others = [models[i] for i in range(len(models)) if i not in g]
        for i in g:
            assert not within(models[i], others, COHERENCY_INCHES)


@given(st.lists(clustered, min_size=1, max_size=5), st.lists(clustered, min_size=1, max_size=5))
def test_group_distance_is_the_minimum_pair(a: list[Placed], b: list[Placed]) -> None:
    i, j, d = closest_pair(a, b)
    assert d == distance(a[i], b[j]) == group_distance(a, b)
    assert d == min(distance(x, y) for x in a for y in b)


walls = st.builds(
    lambda x, y, w, h: square("wall", "blocking", x, y, x + w, y + h),
    near,
    near,
    st.floats(min_value=0.1, max_value=3),
    st.floats(min_value=0.1, max_value=3),
)


@given(st.tuples(clustered, clustered), walls)
def test_line_of_sight_is_mutual(pair: tuple[Placed, Placed], wall: Terrain) -> None:
    a, b = pair
    assert line_of_sight(a, b, [wall]) == line_of_sight(b, a, [wall])
    assert line_of_sight(a, b, [Terrain("wood", "difficult", wall.polygon)])
