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
