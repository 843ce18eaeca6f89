"""The shortcuts that make ``Game.apply`` cheap on a new state give the slow paths' answers exactly.

Geometry measured a whole unit at a time (``gap_rows``, ``GapTable``, ``nearest_distances``,
``contact_rows``, ``contact_pairs``, ``groups_touch``, ``group_distance``) against the pair-by-pair
functions (``closest_pair``, ``distance``, ``in_base_contact``); ``evolve`` against
``dataclasses.replace``; the per-state indexes and memo against a scan of the units;
``values.cached`` against what it caches.  Everything is compared by exact equality.
"""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from herohammer import geometry as geo
from herohammer.geometry import Base, Placed
from herohammer.scenario import read_data, state_from_data
from herohammer.state import GameState
from herohammer import movement
from herohammer.rulesets.w40k_special_moves import apply_moves, moved_unit
from herohammer.units import Status
from herohammer.values import evolve, evolve_each, evolve_rows

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

near = st.floats(min_value=-3, max_value=3, allow_nan=False, allow_infinity=False)
points = st.tuples(near, near)
round_bases = st.sampled_from([20, 25, 32, 40]).map(Base.parse)
rect_bases = st.builds(lambda w, d: Base.parse([w, d]), st.integers(10, 80), st.integers(10, 80))
# mostly round (the closed forms), sometimes a rectangle (the general path), often one base size per group
placed_round = st.builds(Placed, base=round_bases, at=points)
placed_any = st.one_of(placed_round, placed_round, st.builds(Placed, base=rect_bases, at=points,
                                                            facing_deg=st.sampled_from([0.0, 30.0, 90.0])))
same_base = st.builds(lambda base, ats: [Placed(base, at) for at in ats], round_bases,
                      st.lists(points, min_size=1, max_size=6))
groups = st.one_of(st.lists(placed_any, min_size=1, max_size=6), same_base)


@settings(max_examples=300, deadline=None)
@given(groups, groups)
@example([Placed(Base.parse(32), (3.0, 0.0))], [Placed(Base.parse([40, 10]), (0.0, 0.0)), Placed(Base.parse(40), (0.0, 0.0))])
def test_gaps_give_closest_pair_distances(a: list[Placed], b: list[Placed]) -> None:
    rows = geo.gap_rows(a, b)
    assert [[geo.clear(g) for g in row] for row in rows] == [[geo.distance(p, q) for q in b] for p in a]
    assert geo.nearest_distances(a, b) == [geo.closest_pair([p], b)[2] for p in a]
    assert [geo.clear(min(col)) for col in zip(*rows)] == [geo.closest_pair([q], a)[2] for q in b]  # by symmetry
    assert geo.group_distance(a, b) == geo.closest_pair(a, b)[2]
    assert [geo.distance_to_group(p, b) for p in a] == [geo.closest_pair([p], b)[2] for p in a]


@settings(max_examples=300, deadline=None)
@given(groups, groups, st.data())
def test_gap_table_gives_the_least_gaps_of_gap_rows(a: list[Placed], b: list[Placed], data: st.DataObject) -> None:
    """Each row's least gap and each column's least over some rows, as ``min`` over ``gap_rows`` gives them."""
    rows = geo.gap_rows(a, b)
    table = geo.GapTable(a, b)
    assert table.least() == [min(row) for row in rows]
    kept = data.draw(st.lists(st.integers(0, len(a) - 1), min_size=1, max_size=len(a), unique=True).map(sorted))
    assert table.least_to(kept) == [min(rows[i][j] for i in kept) for j in range(len(b))]


@settings(max_examples=300, deadline=None)
@given(groups, groups, st.sampled_from([0.0, 0.01, 0.5]))
def test_contacts_give_in_base_contact(a: list[Placed], b: list[Placed], tolerance: float) -> None:
    pairwise = [[geo.in_base_contact(p, q, tolerance) for q in b] for p in a]
    assert geo.contact_rows(a, b, tolerance) == pairwise
    assert [geo.contacts(p, b, tolerance) for p in a] == pairwise
    assert geo.groups_touch(a, b, tolerance) == any(any(row) for row in pairwise)
    assert geo.contact_pairs(a, b, tolerance) == [(i, j) for i, row in enumerate(pairwise) for j, t in enumerate(row) if t]


def test_touching_bases_at_the_tolerance() -> None:
    """Two 25mm bases 0.99" apart (0.006" gap) touch, 1.2" apart they do not; the group answers agree."""
    base = Base.parse(25)
    marines = [Placed(base, (20.0 + 1.2 * i, 20.0)) for i in range(3)]
    boyz = [Placed(base, (20.0 + 1.2 * i, 20.99)) for i in range(3)]
    assert geo.contact_rows(marines, boyz) == [[i == j for j in range(3)] for i in range(3)]
    assert geo.groups_touch(marines, boyz) and not geo.groups_touch(marines, [Placed(base, (40.0, 40.0))])


def _example_states() -> list[GameState]:
    return [state_from_data(read_data(path)) for path in sorted(EXAMPLES.glob("*.yaml"))]


def test_evolve_is_replace_without_what_was_cached() -> None:
    for state in _example_states():
        hash(state)
        unit = state.units[0]
        model = unit.models[0]
        _ = model.placed, unit.placed, state.combined(unit.id)  # cached on the old values
        moved = evolve(model, at=(1.0, 2.0))
        assert moved == dataclasses.replace(model, at=(1.0, 2.0))
        assert moved.placed == Placed(model.base, (1.0, 2.0), model.facing)  # not the old place
        assert evolve(unit, models=()) == dataclasses.replace(unit, models=())
        places = [(float(i), 2.0) for i in range(len(unit.models))]
        each = evolve_each(unit.models, "at", places)
        assert each == [dataclasses.replace(m, at=at) for m, at in zip(unit.models, places)]
        assert all(set(m.__dict__) == {f.name for f in dataclasses.fields(m)} for m in each)  # nothing cached kept
        after = evolve(state, turn=state.turn + 1)
        assert set(after.__dict__) == {f.name for f in dataclasses.fields(GameState)}  # no old hash, index or memo
        assert after == dataclasses.replace(state, turn=state.turn + 1)
        assert hash(after) == hash(dataclasses.replace(state, turn=state.turn + 1))
        odd = evolve(model, at=(3.0, 4.0))
        odd.__dict__["_something_else"] = 1  # kept by no known name: its fields alone are copied
        assert set(evolve(odd, moved=1.0).__dict__) == {f.name for f in dataclasses.fields(model)}


def test_models_moved_together_as_one_by_one() -> None:
    """``evolve_rows`` (several fields of many values) is ``evolve`` value by value, and ``moved_unit`` (a unit's
    models moved at once) is ``Model.walked_to`` model by model: the same values, the same field types (a place
    given as ints or a list becomes floats, an allowance of 0 spent by a model not in ``places`` too), nothing
    cached kept."""
    for state in _example_states():
        for unit in state.units:
            for m in unit.models:
                m.placed  # noqa: B018 - something cached on the old values, to be left behind
            rows = [((float(i), 2.5), m.moved + 1.5) for i, m in enumerate(unit.models)]
            each = evolve_rows(unit.models, ("at", "moved"), rows)
            assert each == [evolve(m, at=at, moved=moved) for m, (at, moved) in zip(unit.models, rows)]
            assert all(set(m.__dict__) == {f.name for f in dataclasses.fields(m)} for m in each)
            places = {i: ([i, 3] if i % 3 == 0 else (i, 3) if i % 3 == 1 else (float(i), 3.0), 0.5 * i)
                      for i in range(0, len(unit.models), 2)}  # every other model moved, places of every kind
            moved = moved_unit(unit, places, Status.SHOT)
            plain = [m.walked_to(*places.get(i, (m.at, 0.0))) for i, m in enumerate(unit.models)]
            assert list(moved.models) == plain
            assert [(type(m.at[0]), type(m.at[1]), type(m.moved)) for m in moved.models] == \
                [(type(m.at[0]), type(m.at[1]), type(m.moved)) for m in plain]
            assert moved.status == unit.status | {Status.MOVED, Status.SHOT}
    with pytest.raises(TypeError, match="no field 'nowhere'"):
        evolve_rows(state.units[0].models, ("at", "nowhere"), [((0.0, 0.0), 1)])


def test_a_units_plan_applied_at_once_as_model_by_model() -> None:
    """``apply_moves`` given one unit's plan (every model in order: the usual move, made in one pass) moves each
    model as ``Model.walked_to`` does and marks the unit moved, as it does for a plan of several units or with
    statuses (model by model)."""
    for state in _example_states():
        for unit in state.units:
            if not unit.models:
                continue
            planned = movement.plan(unit, tuple((m.at[0] + 1, m.at[1] - 0.5) for m in unit.models), ())
            after = apply_moves(state, planned, {unit.id})
            slow = apply_moves(state, iter(planned), {unit.id})  # not a list: the general way
            assert after == slow
            assert list(after.unit(unit.id).models) == [m.walked_to(mv.to, mv.length)
                                                         for m, mv in zip(unit.models, planned)]
            assert after.unit(unit.id).status == unit.status | {Status.MOVED}
            assert [u for u in after.units if u.id != unit.id] == [u for u in state.units if u.id != unit.id]


def test_joined_characters_indexed_as_a_scan_finds_them() -> None:
    for state in _example_states():
        for unit in state.units:
            scan = [u for u in state.units if u.joined == unit.id and u.alive]
            assert state.joined_to(unit.id) == scan
            host = state.unit(unit.joined) if unit.joined else unit
            assert state.combined(unit.id) == [host, *[u for u in state.units if u.joined == host.id and u.alive]]


@pytest.mark.parametrize("first", ["unit", "combined", "joined_to"])
def test_the_units_index_and_groups_are_the_same_whichever_is_asked_first(first: str) -> None:
    """The index, the joined characters and the combined groups are set up in one pass by whichever look-up comes first."""
    for fresh, scanned in zip(_example_states(), _example_states()):
        for unit in fresh.units:
            ask = getattr(fresh, first)
            ask(unit.id)
            host = next(u for u in scanned.units if u.id == (unit.joined or unit.id))
            chars = [u for u in scanned.units if u.joined == host.id and u.alive]
            assert fresh.unit(unit.id) == next(u for u in scanned.units if u.id == unit.id)
            assert fresh.joined_to(unit.id) == [u for u in scanned.units if u.joined == unit.id and u.alive]
            assert fresh.combined(unit.id) == [host, *chars]


def test_a_state_remembers_per_value_and_forgets_when_changed_or_saved() -> None:
    state = _example_states()[0]
    calls: list[int] = []

    def work() -> int:
        calls.append(1)
        return len(calls)

    assert state.remember(("test", 1), work) == 1
    assert state.remember(("test", 1), work) == 1  # worked out once
    assert state.remember(("test", 2), work) == 2  # another key, another answer
    assert evolve(state, turn=state.turn + 1).remember(("test", 1), work) == 3  # a changed state starts afresh
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.remember(("test", 1), work) == 4  # nothing remembered travels in a pickle


def test_a_value_says_whether_its_hash_is_known_yet() -> None:
    """``HashOnce.hashed``: a memo keyed by a unit's value (the 40k fight's ``_units_touch``) is used only once the
    unit is hashed, so a state just built never walks its models to key a memo; a changed value (``evolve``) and a
    pickled copy start unhashed."""
    unit = state_from_data(read_data(sorted(EXAMPLES.glob("*.yaml"))[0])).units[0]
    assert not unit.hashed() and not any(m.hashed() for m in unit.models)
    hash(unit)
    assert unit.hashed() and all(m.hashed() for m in unit.models)
    assert not evolve(unit, status=frozenset()).hashed()
    assert not pickle.loads(pickle.dumps(unit)).hashed()
