"""The closed-form first contact of bases moving straight (``swept_contact``), held to measured distances.

Each answer is checked by measuring (``geometry.distance``, shapely for two rectangles) just short of the contact
found (still the gap or more apart) and just past it (closer than the gap), and a pass judged clear is measured at
places all along the way.  Then the 9th Age Pursuit Move's reach, which uses it, is compared with the reach found by
looking at places one by one with the rules' own checks, over pursuers sent every way past other units.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _t9a import melee_scenario
from herohammer.geometry import Base, parallel_contact, Placed, distance, rectangles_contact
from herohammer.rulesets.t9a_melee import _pursuit_reach, _pivoted
from herohammer.rulesets.t9a_combat import members
from herohammer.scenario import state_from_data
from herohammer.swept_contact import NEVER, first_contact, group_first_contact, table_reach

SQUARE_20 = Base.parse([20, 20])
SQUARE_25 = Base.parse([25, 25])
ROUND_32 = Base.parse(32)
CAVALRY = Base.parse([25, 50])


def _moved(p: Placed, way: tuple[float, float], t: float) -> Placed:
    return Placed(p.base, (p.at[0] + way[0] * t, p.at[1] + way[1] * t), p.facing_deg)


def _way(degrees: float) -> tuple[float, float]:
    return (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))


def test_a_square_driven_head_on_stops_its_gap_short() -> None:
    mover = Placed(SQUARE_20, (0.0, 0.0))
    other = Placed(SQUARE_20, (0.0, 10.0))
    side = 20 / 25.4
    assert first_contact(mover, (0.0, 1.0), other, 1.0) == pytest.approx(10.0 - side - 1.0, abs=1e-12)
    assert first_contact(mover, (0.0, 1.0), other, 0.0) == pytest.approx(10.0 - side, abs=1e-12)


def test_discs_meet_where_their_centres_are_the_radii_and_gap_apart() -> None:
    mover, other = Placed(ROUND_32, (0.0, 0.0)), Placed(ROUND_32, (1.5, 8.0))
    t = first_contact(mover, (0.0, 1.0), other, 1.0)
    reach = 32 / 25.4 + 1.0
    assert t == pytest.approx(8.0 - math.sqrt(reach ** 2 - 2.25), abs=1e-12)


def test_a_pass_beside_is_clear_and_one_the_gap_would_not_allow_is_not() -> None:
    mover = Placed(SQUARE_20, (0.0, 0.0))
    side = 20 / 25.4
    beside = Placed(SQUARE_20, (side + 1.5, 6.0))  # 1.5" of air between the sides the whole way
    assert first_contact(mover, (0.0, 1.0), beside, 1.0) == NEVER
    assert first_contact(mover, (0.0, 1.0), beside, 2.0) < NEVER


def test_a_limit_cuts_the_way_looked_at_and_behind_is_never() -> None:
    mover, other = Placed(SQUARE_20, (0.0, 0.0)), Placed(SQUARE_20, (0.0, 20.0))
    assert first_contact(mover, (0.0, 1.0), other, 1.0, limit=5.0) == NEVER
    assert first_contact(mover, (0.0, -1.0), other, 1.0) == NEVER


def test_the_group_answer_is_its_nearest_pair_and_names_it() -> None:
    movers = [Placed(SQUARE_20, (x, 0.0)) for x in (0.0, 1.0, 2.0)]
    others = [(Placed(SQUARE_20, (5.0, 9.0)), 1.0), (Placed(SQUARE_20, (2.0, 7.0)), 1.0),
              (Placed(SQUARE_20, (0.0, 4.0)), 0.0)]
    pairs = [(first_contact(m, (0.0, 1.0), o, g), k) for m in movers for k, (o, g) in enumerate(others)]
    assert group_first_contact(movers, (0.0, 1.0), others) == min(pairs)
    assert group_first_contact(movers, (0.0, 1.0), others, limit=1.0) == (1.0, -1)


def test_the_table_edge_stops_the_leading_base() -> None:
    movers = [Placed(SQUARE_20, (10.0, 40.0)), Placed(SQUARE_20, (10.0, 44.0))]
    half = 10 / 25.4
    assert table_reach(movers, (0.0, 1.0), 72.0, 48.0) == pytest.approx(48.0 - 44.0 - half, abs=1e-12)
    assert table_reach(movers, (-1.0, 0.0), 72.0, 48.0) == pytest.approx(10.0 - half, abs=1e-12)
    assert table_reach([Placed(ROUND_32, (0.5, 1.0))], (-1.0, 0.0), 72.0, 48.0) == 0.0  # hangs off already


bases = st.sampled_from([SQUARE_20, SQUARE_25, ROUND_32, CAVALRY])
coordinate = st.floats(-6.0, 6.0, allow_nan=False)
angle = st.floats(0.0, 360.0, allow_nan=False, exclude_max=True)


@settings(max_examples=300, deadline=None)
@given(bases, bases, coordinate, coordinate, angle, angle, angle, st.sampled_from([0.0, 1.0]))
def test_the_contact_found_is_where_measuring_finds_it(mine: Base, theirs: Base, x: float, y: float, facing: float,
                                                       other_facing: float, heading: float, gap: float) -> None:
    mover = Placed(mine, (0.0, 0.0), facing)
    other = Placed(theirs, (x, y + 8.0), other_facing)
    if distance(mover, other) <= gap + 1e-6:
        return  # starting within the gap (0, asserted apart below) or too near it to tell by measuring
    way = _way(heading)
    t = first_contact(mover, way, other, gap)
    if t == NEVER:
        for k in range(0, 401):  # clear all along 20" of the way
            assert distance(_moved(mover, way, k * 0.05), other) > gap - 1e-9
        return
    assert distance(_moved(mover, way, t - 1e-6), other) >= gap - 1e-9
    assert distance(_moved(mover, way, t), other) == pytest.approx(gap, abs=1e-6)
    if gap > 0.0:  # (past touching, distance reads 0 however deep)
        assert distance(_moved(mover, way, t + 1e-4), other) < gap
    for k in range(0, 50):  # and nowhere nearer along the way
        assert distance(_moved(mover, way, t * k / 50), other) > gap - 1e-9


rectangles = st.sampled_from([SQUARE_20, SQUARE_25, CAVALRY])


def _corners_and_sides(mover: Placed, way: tuple[float, float], other: Placed) -> float:
    """The first touch of two rectangles by their corners and sides (every corner's ray against every side)."""
    best = NEVER
    for a, b, w in ((mover, other, way), (other, mover, (-way[0], -way[1]))):
        corners = b.corners
        for x, y in a.corners:
            for i, (px, py) in enumerate(corners):
                qx, qy = corners[(i + 1) % 4]
                ex, ey = qx - px, qy - py
                denom = w[0] * ey - w[1] * ex
                if abs(denom) < 1e-12:
                    continue
                t = ((px - x) * ey - (py - y) * ex) / denom
                s = ((px - x) * w[1] - (py - y) * w[0]) / denom
                if t >= 0.0 and -1e-12 <= s <= 1.0 + 1e-12:
                    best = min(best, t)
    return best


@settings(max_examples=400, deadline=None)
@given(rectangles, rectangles, coordinate, coordinate, angle, st.integers(0, 3), angle)
def test_rectangles_turned_alike_meet_where_their_corners_and_sides_do(mine: Base, theirs: Base, x: float, y: float,
                                                                       facing: float, quarters: int,
                                                                       heading: float) -> None:
    """The two slabs of ``parallel_contact`` (a formation charging one it faces) find the touch every corner's ray
    against every side finds, and measuring agrees: apart just before, touching there."""
    mover = Placed(mine, (0.0, 0.0), facing)
    other = Placed(theirs, (x, y + 8.0), (facing + 90.0 * quarters) % 360.0)
    if distance(mover, other) <= 1e-6:
        return
    way = _way(heading)
    t = parallel_contact(mover, way, other)
    assert t is not None
    assert first_contact(mover, way, other, 0.0) == t
    _held_to_corners_and_sides(mover, way, other, t)


def _held_to_corners_and_sides(mover: Placed, way: tuple[float, float], other: Placed, t: float) -> None:
    """Assert that a closed-form first touch is where every corner's ray against every side finds it, and that
    measuring agrees: apart just before, touching there."""
    expected = _corners_and_sides(mover, way, other)
    if expected == NEVER:
        assert t == NEVER
        return
    assert t == pytest.approx(expected, abs=1e-9)
    assert distance(_moved(mover, way, t - 1e-6), other) > 0.0
    assert distance(_moved(mover, way, t), other) == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=400, deadline=None)
@given(rectangles, rectangles, coordinate, coordinate, angle, angle, angle)
def test_rectangles_turned_any_way_meet_where_their_corners_and_sides_do(mine: Base, theirs: Base, x: float, y: float,
                                                                         facing: float, other_facing: float,
                                                                         heading: float) -> None:
    """The four slabs of ``rectangles_contact`` (a wheeled formation charging one it does not face) find the touch
    every corner's ray against every side finds, and measuring agrees: apart just before, touching there."""
    mover = Placed(mine, (0.0, 0.0), facing)
    other = Placed(theirs, (x, y + 8.0), other_facing)
    if distance(mover, other) <= 1e-6:
        return
    way = _way(heading)
    t = rectangles_contact(mover, way, other)
    assert t is not None
    assert first_contact(mover, way, other, 0.0) == pytest.approx(t, abs=1e-12)
    _held_to_corners_and_sides(mover, way, other, t)


def test_four_slabs_leave_a_disc_and_a_touch_to_the_corners() -> None:
    mover = Placed(SQUARE_20, (0.0, 0.0))
    assert rectangles_contact(mover, (0.0, 1.0), Placed(ROUND_32, (0.0, 5.0))) is None  # a disc
    assert rectangles_contact(mover, (0.0, 1.0), Placed(SQUARE_20, (0.0, 20 / 25.4), 30.0)) is None  # overlapping
    half_diagonal = 20 / 25.4 / math.sqrt(2.0)  # a square turned 45 degrees meets a face with its corner
    assert rectangles_contact(mover, (0.0, 1.0), Placed(SQUARE_20, (0.0, 5.0), 45.0)) == \
        pytest.approx(5.0 - 10 / 25.4 - half_diagonal, abs=1e-12)
    assert rectangles_contact(mover, (1.0, 0.0), Placed(SQUARE_20, (0.0, 5.0), 30.0)) == NEVER  # passes beside


formation_offsets = st.lists(st.tuples(st.integers(-4, 4), st.integers(0, 2)), min_size=1, max_size=8, unique=True)


@settings(max_examples=300, deadline=None)
@given(rectangles, rectangles, formation_offsets, formation_offsets, coordinate, coordinate,
       st.sampled_from([0.0, 90.0, 180.0, 270.0, 41.0]), st.integers(0, 3), st.floats(-60.0, 60.0))
def test_a_formation_meets_another_where_its_nearest_pair_does(mine: Base, theirs: Base, my_slots: list,
                                                               their_slots: list, x: float, y: float, facing: float,
                                                               quarters: int, heading: float) -> None:
    """Two blocks of rectangles turned alike (the slabs read once for the group, ``swept_contact._aligned``) first
    touch where the nearest of their pairs does, to the same arithmetic as pair by pair: the same distance, and the
    base named is one that touches there."""
    turn = math.radians(facing)
    ux, uy, vx, vy = math.cos(turn), math.sin(turn), -math.sin(turn), math.cos(turn)
    w, d = mine.width_mm / 25.4, mine.depth_mm / 25.4
    movers = [Placed(mine, (f * w * ux + r * d * vx, f * w * uy + r * d * vy), facing) for f, r in my_slots]
    width = max(theirs.width_mm, theirs.depth_mm) / 25.4
    other_facing = (facing + 90.0 * quarters) % 360.0
    others = [(Placed(theirs, (x + f * width * ux + r * width * vx, y + 8.0 + f * width * uy + r * width * vy),
                      other_facing), 0.0) for f, r in their_slots]
    if any(distance(m, o) <= 1e-6 for m in movers for o, _ in others):
        return
    way = _way(90.0 + facing + heading)
    found, met = group_first_contact(movers, way, others)
    pairs = [first_contact(m, way, o, 0.0) for m in movers for o, _ in others]
    assert found == min(pairs)
    if found == NEVER:
        assert met == -1
    else:
        assert min(first_contact(m, way, others[met][0], 0.0) for m in movers) == found


def test_rectangles_not_turned_alike_or_touching_are_left_to_the_corners() -> None:
    mover = Placed(SQUARE_20, (0.0, 0.0))
    assert parallel_contact(mover, (0.0, 1.0), Placed(SQUARE_20, (0.0, 5.0), 30.0)) is None  # turned otherwise
    assert parallel_contact(mover, (0.0, 1.0), Placed(ROUND_32, (0.0, 5.0))) is None  # a disc
    assert parallel_contact(mover, (0.0, 1.0), Placed(SQUARE_20, (20 / 25.4, 0.0))) is None  # touching already
    assert parallel_contact(mover, (0.0, 1.0), Placed(SQUARE_20, (0.0, 5.0), 90.0)) == pytest.approx(5.0 - 20 / 25.4)
    assert parallel_contact(mover, (1.0, 0.0), Placed(SQUARE_20, (0.0, 5.0))) == NEVER  # passes beside


def test_a_mover_starting_within_the_gap_meets_at_once() -> None:
    mover, other = Placed(SQUARE_20, (0.0, 0.0)), Placed(SQUARE_20, (0.0, 1.0))
    assert first_contact(mover, (0.0, 1.0), other, 1.0) == 0.0


def _reach_both_ways(heading: float, dx: float, dy: float, beside: bool) -> tuple[float, float, object, object]:
    """The Spearmen pivoted to ``heading`` (degrees) looking up the table through the orcs (moved ``dx``, 6 + ``dy``
    further off) and, with ``beside``, past a friendly block 0.5" to their right (a unit beside them, which stops them
    only where a model would stand on it): the closed-form reach and the place-by-place search's."""
    data = melee_scenario(spear_status=["engaged", "charged"], joined=False, hero_at=(20, 10))
    orcs = data["sides"]["orcs"][0]["formation"]
    orcs["position"] = [orcs["position"][0] + dx, orcs["position"][1] + 6.0 + dy]
    if beside:
        data["sides"]["elves"].append({"id": "guards", "formation": {"position": [36 + 100 / 25.4 + 0.5, 20],
                                                                     "files": 5},
                                       "models": [{"name": f"g{i}", "profile": "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 "
                                                   "Mar10", "base": [20, 20]} for i in range(5)]})
    state = state_from_data(data)
    pivoted = _pivoted(state, members(state, "spears")[0], heading % 360.0)
    t = math.radians(heading % 360.0)
    forward = (-math.sin(t), math.cos(t))
    closed = _pursuit_reach(state, pivoted, "spears", forward)
    searched = _pursuit_reach(state, pivoted, "spears", forward, searched=True)
    return closed.far, searched.far, closed, searched


@pytest.mark.parametrize(("heading", "dx", "dy", "beside", "far", "why"), [
    (0.0, 0.0, 0.0, False, 5.0, "it would end 0.98\" from orcs"),
    (20.0, 3.0, -2.0, False, 2.515625, "it would end 1.00\" from orcs"),
    (-40.0, 0.0, 4.0, True, 0.796875, "s4 would end on guards's model g0"),  # touching at 0.797" (1/100" overlap: t9a_moves.APART)
    (-30.0, 0.0, 4.0, True, 0.75, "s4 would end on guards's model g0"),  # 0.78125 with 1/50" of overlap
    (-70.0, 0.0, 4.0, True, 0.53125, "it would end 0.99\" from guards"),  # pivoted, no longer beside it
])
def test_a_pursuit_reach_in_closed_form_is_the_searched_one(heading: float, dx: float, dy: float, beside: bool,
                                                            far: float | None, why: str) -> None:
    closed_far, searched_far, closed, searched = _reach_both_ways(heading, dx, dy, beside)
    assert closed_far == searched_far
    if far is not None:
        assert closed_far == far
    assert closed.why() == searched.why()  # type: ignore[attr-defined]
    assert closed.why()[0].startswith(why), closed.why()  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(st.floats(-90.0, 90.0), st.floats(-4.0, 4.0), st.floats(-4.0, 4.0), st.booleans())
def test_a_pursuit_reach_equals_looking_at_its_places_one_by_one(heading: float, dx: float, dy: float,
                                                                 beside: bool) -> None:
    """Any heading, the orcs anywhere ahead, a friend beside or not: the closed-form reach is the place-by-place
    search's, to the last 1/64", and so are the words of what stops it."""
    closed_far, searched_far, closed, searched = _reach_both_ways(heading, dx, dy, beside)
    assert closed_far == searched_far
    if 0 <= closed_far < 12:
        assert closed.why() == searched.why()  # type: ignore[attr-defined]
