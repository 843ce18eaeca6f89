"""A state's hash reads the fields a game changes (``GameState.hashed_fields``), once per value; equality reads all.

The ruleset, sides, table, terrain, the agreement on special characters and the scenario's weapons and powers are fixed
for a game, so they are left out of the hash that every new state a fight or volley builds pays for; two states that
differ only in them hash alike and still compare unequal, so no memo or enumeration keyed by state mixes them up.
"""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

from herohammer.scenario import read_data, state_from_data
from herohammer.state import GameState, MagicDice, Table
from herohammer.values import evolve

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "40k3_lone_captain_target.yaml"

#: The fields fixed for a game: a field added to GameState must be named here or among ``hashed_fields`` (a field a game
#: changes that the hash did not read would make every state of a search collide).
FIXED_FOR_A_GAME = {"ruleset", "sides", "table", "terrain", "special_characters_agreed", "weapons", "powers"}


def _state() -> GameState:
    return state_from_data(read_data(EXAMPLE))


def test_every_field_is_hashed_or_fixed_for_a_game() -> None:
    names = [f.name for f in dataclasses.fields(GameState)]
    assert set(GameState.hashed_fields) <= set(names)
    assert set(names) - set(GameState.hashed_fields) == FIXED_FOR_A_GAME


def test_states_that_differ_only_in_a_fixed_field_hash_alike_and_compare_unequal() -> None:
    state = _state()
    assert state.weapons, "the example defines a weapon of its own"
    other = evolve(state, weapons=(), table=Table(state.table.width + 12, state.table.depth))
    assert hash(other) == hash(state) and other != state
    assert len({state: 1, other: 2}) == 2  # a memo keyed by state keeps both


def test_states_that_differ_in_a_changed_field_compare_and_hash_by_it() -> None:
    state = _state()
    same = evolve(state, units=tuple(state.units))  # equal fields, a new value: equal, the same hash
    assert same == state and hash(same) == hash(state)
    later = evolve(state, turn=state.turn + 1)
    assert later != state and hash(later) != hash(state)
    spent = evolve(state, magic=MagicDice((("red", 4),)).spend("red", 2))
    assert spent != state and hash(spent) != hash(state)


def test_magic_dice_hash_once_and_travel_through_pickle() -> None:
    dice = MagicDice((("red", 5),), (("red", 2),), ("wizard/Fireball",))
    assert hash(dice) == hash(MagicDice((("red", 5),), (("red", 2),), ("wizard/Fireball",)))
    again = pickle.loads(pickle.dumps(dice))
    assert "_hash_once" not in again.__dict__  # the kept hash stays behind (string hashes differ between processes)
    assert again == dice and hash(again) == hash(dice)


def _compared(value: object) -> tuple[object, ...]:
    """What a dataclass's own ``==`` compares: its compared fields, in order."""
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value) if f.compare)  # type: ignore[arg-type]


def test_equality_is_the_dataclass_s_whatever_each_value_remembers() -> None:
    """``HashOnce.__eq__`` (fields taken in C) answers as the dataclass's generated ``==`` would, on the units and
    models of every example, equal ones rebuilt as new objects, with a kept hash or a memo on one side only."""
    from herohammer.geometry import Placed
    from herohammer.units import Model, Unit
    from herohammer.values import HashOnce

    for cls in (GameState, Unit, Model, Placed, MagicDice):
        assert cls.__eq__ is HashOnce.__eq__ and cls.__hash__ is HashOnce.__hash__
    values: list[object] = []
    for path in sorted(EXAMPLE.parent.glob("40k*.yaml"))[:6]:
        state = state_from_data(read_data(path))
        values += [state, *state.units, *(m for u in state.units for m in u.models)]
    rebuilt = [evolve(v) for v in values]  # equal fields, new objects
    for v in values[::2]:
        hash(v)  # a kept hash on one side of some pairs
        v.remember("probe", lambda: 1)  # type: ignore[attr-defined]
    pairs = 0
    for a in values + rebuilt:
        for b in values + rebuilt:
            if type(a) is type(b):
                assert (a == b) == (_compared(a) == _compared(b)) and (a != b) == (_compared(a) != _compared(b))
                pairs += 1
    assert pairs > 1000 and all(v == r and v is not r for v, r in zip(values, rebuilt))
    assert values[0].__eq__(object()) is NotImplemented
