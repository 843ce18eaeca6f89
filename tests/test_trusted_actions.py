"""Candidates built without validation (``_Action.trusted``) are the very values validation gives.

Rulesets propose their candidates with ``trusted``: the fields they fill are already text,
floats and tuples.  Here every candidate of every example, and of random walks from them
through every phase, is rebuilt by validation from the fields it was given and compared:
equal, hashed alike, the same JSON, the same fields set, and the same types all the way
down (a whole number where validation makes a float would print ``29`` for ``29.0``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from herohammer.actions import Action, EndPhase, Join, Move
from herohammer.game import Game
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))


def _typed(value: Any) -> Any:
    """The value with every leaf paired with its type, so that 29 and 29.0 (or a list and a tuple) differ."""
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_typed(v) for v in value))
    return (type(value).__name__, value)


def _assert_as_validated(action: Action) -> None:
    validated = type(action)(**{name: getattr(action, name) for name in action.model_fields_set})
    assert action == validated and hash(action) == hash(validated)
    assert action.model_dump_json() == validated.model_dump_json() and action.to_json() == validated.to_json()
    assert action.model_fields_set == validated.model_fields_set
    assert list(action.__dict__) == list(validated.__dict__)
    assert {k: _typed(v) for k, v in action.__dict__.items()} == {k: _typed(v) for k, v in validated.__dict__.items()}
    assert (action.__pydantic_extra__, action.__pydantic_private__) == (validated.__pydantic_extra__,
                                                                          validated.__pydantic_private__)


def _check_candidates(state: GameState) -> int:
    ruleset = Game(state).ruleset
    candidates = [a for a, _ in ruleset.screened_candidates(state)] + list(ruleset.candidate_actions(state))
    for action in candidates:
        _assert_as_validated(action)
    return len(candidates)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_candidate_on_walks_from_the_examples_is_what_validation_gives(name: str) -> None:
    rng = random.Random(name)
    game = Game.load(ROOT / "examples" / name)
    kinds: set[str] = set()
    for _ in range(25):
        if _check_candidates(game.state) == 0:
            break
        legal = game.legal_actions()
        kinds.update(a.do for a in game.ruleset.candidate_actions(game.state))
        if not legal:
            break
        game.apply(rng.choice(legal))
    assert kinds  # something was proposed and compared


def test_trusted_fills_the_defaults_and_keeps_what_was_given() -> None:
    move = Move.trusted(do="move", unit="u", to=((1.0, 2.0),))
    assert move.march is False and move.fly is False and move.wheel is None
    assert move.model_fields_set == {"do", "unit", "to"}
    join = Join.trusted(do="join", character="c", unit="u", position=2, rank_choice=None)
    assert join.model_fields_set == {"do", "character", "unit", "position", "rank_choice"} and join.to is None
    assert EndPhase.trusted(do="end_phase") == EndPhase(do="end_phase")
    _assert_as_validated(move)
    _assert_as_validated(join)


def test_boarding_getting_out_and_rallying_candidates_are_what_validation_gives() -> None:
    """Kinds the examples never propose: embark and disembark (a transport) and the 9th Age Rally test."""
    from test_40k_special_rules import with_rhino
    from test_t9a_rally import fleeing

    proposed: set[str] = set()
    for game in (with_rhino("40k4"), with_rhino("40k3", aboard=True), fleeing()):
        special = getattr(game.ruleset, "special_move_candidates", lambda state: [])(game.state)
        for action in [*game.ruleset.candidate_actions(game.state), *special]:
            proposed.add(action.do)
            _assert_as_validated(action)
    assert {"embark", "disembark", "rally"} <= proposed


def test_an_action_with_a_mapping_hashes_as_its_equals_do() -> None:
    """A fight naming its pursuit choices (offered by legal_actions since round 36) goes in a set like any action:
    hashed by its JSON with the keys sorted, so equal mappings in another order hash alike, and others apart."""
    from herohammer.actions import parse_action

    one = parse_action({"do": "fight", "unit": "a", "pursuit": {"a": {"restrain": True}, "b": {"overrun": True}}})
    other_order = parse_action({"do": "fight", "unit": "a", "pursuit": {"b": {"overrun": True}, "a": {"restrain": True}}})
    other = parse_action({"do": "fight", "unit": "a", "pursuit": {"a": {"overrun": True}}})
    assert one == other_order and hash(one) == hash(other_order)
    assert one != other and len({one, other_order, other}) == 2
