"""The fast move checks give the plain checks' answers, pair for pair and verdict for verdict.

A move's pair questions are screened (boxes, bounding circles, numpy for many pairs)
before the scalar tests decide; coherency walks from model to model; a unit's plan,
its effective rules and a parsed action are remembered; a move, join or leave whose
rule checks every place is not resolved again to judge it.  Each is compared here with
the plain double loop, or with the shared check it skips, on drawn positions.
"""

from __future__ import annotations

import math
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer import movement
from herohammer.actions import parse_action
from herohammer.dice import SeededDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.geometry import (Base, Placed, Terrain, closest_pair, coherency_groups, distance, distance_to_group,
                                 first_swept_hit, in_base_contact, on_table, segment_enters_terrain, sweep_hits)
from herohammer.profiles import Profile
from herohammer.state import Table
from herohammer.units import Model, Unit, UnitType
from herohammer.rulesets.base import _NoRolls, _RollNeeded
from herohammer.scenario import load_scenario
from herohammer.values import evolve

ROOT = Path(__file__).resolve().parents[1]

coordinate = st.floats(min_value=0, max_value=24, allow_nan=False, allow_infinity=False)
points = st.tuples(coordinate, coordinate)
round_bases = st.sampled_from([20, 25, 32, 40, 60]).map(Base.parse)
rect_bases = st.builds(lambda w, d: Base.parse([w, d]), st.integers(20, 100), st.integers(20, 100))
bases = st.one_of(round_bases, round_bases, rect_bases)
placed = st.builds(Placed, base=bases, at=points,
                   facing_deg=st.one_of(st.just(0.0), st.floats(min_value=0, max_value=360)))
path = st.tuples(placed, points, st.floats(min_value=-0.1, max_value=1.2))
PROFILE = Profile.parse("WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+")


def _plain_swept_hit(paths: list[tuple[Placed, tuple[float, float], float]],
                     others: list[Placed]) -> tuple[int, int] | None:
    for i, (start, end, radius) in enumerate(paths):
        for j, other in enumerate(others):
            if sweep_hits(start.at, end, radius, other) and not in_base_contact(start, other):
                return i, j
    return None


@settings(max_examples=150)
@given(st.lists(path, min_size=0, max_size=12), st.lists(placed, min_size=0, max_size=45))
def test_the_first_swept_hit_is_the_double_loops(paths: list[tuple[Placed, tuple[float, float], float]],
                                                 others: list[Placed]) -> None:
    """Screened by boxes (a loop for a few pairs, numpy for more than 400), the first hit is the plain loop's."""
    assert first_swept_hit(paths, others) == _plain_swept_hit(paths, others)


@given(st.lists(path, min_size=1, max_size=3), placed, st.floats(min_value=-1e-6, max_value=1e-6))
def test_a_swept_hit_at_the_edge_of_touching_is_decided_exactly(paths: list[tuple[Placed, tuple[float, float], float]],
                                                                other: Placed, nudge: float) -> None:
    """A radius set to the very gap (give or take a hair) is decided by sweep_hits, not by the screen."""
    start, end, _ = paths[0]
    gap = min(math.dist(start.at, other.at), math.dist(end, other.at)) - other.base.reach_inches
    paths = [(start, end, gap + nudge), *paths[1:]]
    many = [other] * 401  # over 400 pairs: the numpy screen
    assert first_swept_hit(paths, [other]) == _plain_swept_hit(paths, [other])
    assert first_swept_hit(paths, many) == _plain_swept_hit(paths, many)


def _plain_groups(models: list[Placed], max_gap: float) -> list[list[int]]:
    parent = list(range(len(models)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            if distance(models[i], models[j]) <= max_gap + 1e-9:
                parent[max(root(i), root(j))] = min(root(i), root(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(models)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


@settings(max_examples=120)
@given(st.lists(placed, min_size=0, max_size=34), st.sampled_from([0.0, 1.0, 2.0, 3.5]))
def test_coherency_groups_are_the_double_loops(models: list[Placed], max_gap: float) -> None:
    """Walked from model to model (numpy for more than 28 models), the chains are those of the plain union."""
    assert coherency_groups(models, max_gap) == _plain_groups(models, max_gap)


@given(st.integers(2, 30), st.floats(min_value=-1e-7, max_value=1e-7))
def test_a_chain_exactly_two_inches_apart_is_coherent_to_the_hair(n: int, nudge: float) -> None:
    r = Base.parse(25).radius_inches
    chain = [Placed(Base.parse(25), (i * (2 * r + 2.0 + nudge), 5.0)) for i in range(n)]
    assert coherency_groups(chain) == _plain_groups(chain, 2.0)


# -- rulings: a marked rule checks what the shared check would ------------------------------------------------

MARKED = ["40k3_librarian_woods.yaml", "40k4_librarian_joins_tactical.yaml", "40k4_inquisitor_retinue.yaml",
          "40k3_whole_turn.yaml"]


@pytest.mark.parametrize("name", MARKED)
def test_a_marked_move_join_or_leave_never_ends_on_a_model_the_rule_let_pass(name: str) -> None:
    """For 40k moves, joins and leaves judging skips the bases-apart check after resolving: it could never refuse."""
    rng = random.Random(11)
    state = load_scenario(ROOT / "examples" / name)
    ruleset = Game(state).ruleset
    units = [u for u in state.units if u.side == state.active and u.alive]
    tried = 0
    for _ in range(300):
        unit = rng.choice(units)
        reach = rng.choice([0.5, 1.5, 3.0, 6.0])
        dx, dy = rng.uniform(-reach, reach), rng.uniform(-reach, reach)
        if unit.joined or rng.random() < 0.3:
            if not unit.is_independent:
                continue
            at = unit.models[0].at
            to = [at[0] + dx, at[1] + dy]
            host = rng.choice(units)
            do = {"do": "leave", "character": unit.id, "to": to} if unit.joined else \
                {"do": "join", "character": unit.id, "unit": host.id, "to": to}
        else:
            members = state.combined(unit.id)
            do = {"do": "move", "unit": unit.id,
                  "to": [[m.at[0] + dx + rng.uniform(-0.3, 0.3), m.at[1] + dy] for u in members for m in u.models]}
        action = parse_action(do)
        ruling = ruleset.rule_on(state, action)
        if not ruling.legal:
            continue
        try:
            after, _ = ruleset.resolve(state, action, _NoRolls())
        except _RollNeeded:
            continue
        tried += 1
        assert movement.overlap_problem(state, after) is None
    assert tried > 5
    # (a subclass overriding rule_move without the mark gets the shared check back: tests/test_bases_apart.py)


@pytest.mark.parametrize("name", MARKED)
def test_a_lazily_worked_out_result_is_the_resolution_without_dice(name: str) -> None:
    rng = random.Random(5)
    game = Game.load(ROOT / "examples" / name, SeededDice(3))
    for action in rng.sample(game.legal_actions(), k=min(6, len(game.legal_actions()))):
        judged = game._judge(action)
        try:
            expected = game.ruleset.resolve(game.state, action, _NoRolls())
        except _RollNeeded:
            expected = None
        assert judged.result == expected


# -- remembered values ------------------------------------------------------------------------------------------

def test_a_mapping_read_again_is_the_same_action_and_junk_is_still_refused() -> None:
    move = {"do": "move", "unit": "tactical", "to": [[1, 2], [3.5, 4]]}
    assert parse_action(move) == parse_action(dict(move)) == parse_action('{"do": "move", "unit": "tactical", '
                                                                          '"to": [[1, 2], [3.5, 4]]}')
    assert parse_action(move).to == ((1.0, 2.0), (3.5, 4.0))
    with pytest.raises(AttributeError):  # the action remembered is shared, so nothing in it can change
        parse_action(move).to.append((9.0, 9.0))  # type: ignore[attr-defined]
    with pytest.raises(HerohammerError, match="control character"):
        parse_action({"do": "move", "unit": "tac\x1b[2Jtical", "to": [[1, 2]]})
    with pytest.raises(HerohammerError, match="control character"):  # refused again: failures are not remembered
        parse_action({"do": "move", "unit": "tac\x1b[2Jtical", "to": [[1, 2]]})
    assert parse_action({"do": "move", "unit": "tactical", "to": ((1, 2), (3.5, 4))}) == parse_action(move)
    with pytest.raises(HerohammerError, match="not true/false"):
        parse_action({"do": "move", "unit": "tactical", "to": [[1, True]]})


def test_memos_stay_behind_in_copies_and_pickles() -> None:
    state = load_scenario(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml")
    unit = state.units[0]
    assert unit.remember("answer", lambda: 42) == 42
    assert unit.remember("answer", lambda: 0) == 42  # worked out once per value
    again = pickle.loads(pickle.dumps(unit))
    assert again == unit and again.remember("answer", lambda: 7) == 7
    assert evolve(unit, rules=unit.rules).remember("answer", lambda: 8) == 8
    with pytest.raises(TypeError, match="no field 'nonsense'"):
        evolve(unit, nonsense=1)


def test_a_plan_is_remembered_only_for_the_same_terrain() -> None:
    state = load_scenario(ROOT / "examples" / "40k3_librarian_woods.yaml")
    unit = next(u for u in state.units if u.models)
    to = [(m.at[0] + 1.0, m.at[1]) for m in unit.models]
    first = movement.plan(unit, to, state.terrain)
    assert movement.plan(unit, to, state.terrain) == first
    assert movement.plan(unit, to, ()) == [evolve(mv, difficult=False, dangerous=False) for mv in first]


@given(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), st.integers(0, 90))
def test_a_placed_base_stores_floats_whatever_it_is_given(at: tuple[int, int], facing: int) -> None:
    p = Placed(Base.parse(25), at, facing)  # type: ignore[arg-type]
    q = Placed(Base.parse(25), (float(at[0]), float(at[1])), float(facing))
    assert p == q and hash(p) == hash(q) and type(p.at[0]) is float and type(p.facing_deg) is float
    with pytest.raises(HerohammerError, match="finite"):
        Placed(Base.parse(25), (math.nan, 0.0))
    with pytest.raises(HerohammerError, match="expected a Base"):
        Placed("25", (0.0, 0.0))  # type: ignore[arg-type]


@settings(max_examples=200)
@given(st.lists(placed, min_size=1, max_size=8), st.lists(placed, min_size=1, max_size=8),
       st.floats(min_value=0.0, max_value=6.0))
def test_groups_clearly_apart_are_further_apart_than_asked(a: list[Placed], b: list[Placed], inches: float) -> None:
    """The hulls' distance is a floor of the closest pair's: "clearly apart" never says so of groups within reach."""
    from herohammer.geometry import clearly_apart, group_distance

    if clearly_apart(a, b, inches):
        assert group_distance(a, b) > inches


@given(st.integers(1, 6), st.integers(1, 3), st.sampled_from([0.0, 90.0, 30.0]),
       st.floats(min_value=0.9, max_value=1.1), st.floats(min_value=-1e-9, max_value=1e-9))
def test_formations_an_inch_apart_are_measured_when_it_matters(files: int, ranks: int, facing: float, gap: float,
                                                               nudge: float) -> None:
    """Blocks of t9a bases side by side about 1" apart: the screen never clears blocks within 1", and clears those square to each other."""
    from herohammer.geometry import clearly_apart, group_distance

    size = 25 / 25.4
    turn = math.radians(facing)
    along = (math.cos(turn), math.sin(turn))
    block = [Placed(Base.parse([25, 25]), (10 + (f * along[0] - r * along[1]) * size, 10 + (f * along[1] + r * along[0])
                                           * size), facing) for f in range(files) for r in range(ranks)]
    shift = files * size + gap + nudge
    other = [Placed(p.base, (p.at[0] + along[0] * shift, p.at[1] + along[1] * shift), facing) for p in block]
    if clearly_apart(block, other, 1.0):
        assert group_distance(block, other) > 1.0
    if facing == 0.0 and gap >= 1.05:
        assert clearly_apart(block, other, 1.0)  # side by side and square to each other, the hulls are the blocks


# -- one model's move: the plan's terrain flags, the table check and the gap to a unit, each as plainly worked out --

terrain_piece = st.builds(
    lambda kind, x, y, w, d: Terrain(id=f"{kind}-{x}-{y}", kind=kind, polygon=((x, y), (x + w, y), (x + w, y + d),
                                                                              (x, y + d))),
    st.sampled_from(["difficult", "dangerous", "blocking"]), coordinate, coordinate,
    st.floats(0.5, 8), st.floats(0.5, 8))


def _plain_flags(start: tuple[float, float], to: tuple[float, float],
                 terrain: list[Terrain]) -> tuple[bool, bool]:
    """The difficult and dangerous flags of a planned move as the plan worked them out before: per kind present."""
    kinds = {t.kind for t in terrain}
    if not kinds or math.dist(start, to) <= movement.EPSILON:
        return False, False
    dangerous = "dangerous" in kinds and segment_enters_terrain(start, to, terrain, "dangerous")
    return dangerous or ("difficult" in kinds and segment_enters_terrain(start, to, terrain, "difficult")), dangerous


@settings(max_examples=300, deadline=None)
@given(st.lists(points, min_size=1, max_size=4), st.lists(points, min_size=1, max_size=4),
       st.lists(terrain_piece, max_size=4))
def test_a_plan_flags_difficult_and_dangerous_terrain_as_each_kinds_own_check(
        starts: list[tuple[float, float]], ends: list[tuple[float, float]], terrain: list[Terrain]) -> None:
    """The plan screens every piece by its box once for both kinds, then asks ``segment_enters_terrain``."""
    unit = Unit("u", "red", UnitType.INFANTRY, tuple(Model(f"m{i}", PROFILE, Base.parse(25), at)
                                                     for i, at in enumerate(starts)))
    planned = movement._plan(unit, ends, tuple(terrain))
    assert [(mv.difficult, mv.dangerous) for mv in planned] == [
        _plain_flags(m.at, to, terrain) for m, to in zip(unit.models, ends)]


@settings(max_examples=300, deadline=None)
@given(placed, points, st.sampled_from([(0.0, 0.0), (24.0, 24.0), (30.0, 20.0), (24.0, 0.0)]),
       st.sampled_from([0.0, 1e-7, float("nan"), float("inf")]))
def test_the_table_check_of_a_move_is_on_table_of_its_placed_base(start: Placed, to: tuple[float, float],
                                                                  table: tuple[float, float], odd: float) -> None:
    """A round base is measured inline; the answer (and its message) is ``geometry.on_table``'s."""
    state = load_scenario(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml")
    state = evolve(state, table=Table(*table))
    model = Model("m", PROFILE, start.base, start.at, start.facing_deg)
    to = (to[0] + odd, to[1]) if odd != 1e-7 else (to[0] + table[0], to[1])
    mv = movement.PlannedMove("u", 0, model, to, math.dist(model.at, to), False)
    if not (math.isfinite(to[0]) and math.isfinite(to[1])):
        expected: str | None = f"m: {list(to)} is not a point on the table"
    else:
        try:
            on = on_table(mv.placed, *table)
        except HerohammerError as exc:
            with pytest.raises(HerohammerError, match=str(exc)):
                movement.table_problem(state, [mv])
            return
        expected = None if on else (f"m would stand off the table at {list(to)} (the table is "
                                    f"{table[0]:g}\" x {table[1]:g}\")")
    assert movement.table_problem(state, [mv]) == expected


@settings(max_examples=300, deadline=None)
@given(placed, points, st.lists(placed, min_size=1, max_size=6), st.lists(placed, min_size=1, max_size=6))
def test_a_moves_gap_to_a_unit_is_distance_to_group_for_the_unit_asked(
        start: Placed, to: tuple[float, float], a: list[Placed], b: list[Placed]) -> None:
    """``gap_to`` measures a round base without placing it, and keeps the answer only for the very unit asked."""
    model = Model("m", PROFILE, start.base, start.at, start.facing_deg)
    mv = movement.PlannedMove("u", 0, model, to, math.dist(model.at, to), False)
    one, other = (Unit(uid, "red", UnitType.INFANTRY, tuple(Model(f"{uid}{i}", PROFILE, p.base, p.at, p.facing_deg)
                                                            for i, p in enumerate(group)))
                  for uid, group in (("a", a), ("b", b)))
    for unit in (one, other, one, evolve(one, models=other.models)):
        assert mv.gap_to(unit) == distance_to_group(mv.placed, unit.models) == closest_pair([mv.placed], unit.placed)[2]
