"""What ``parse_action`` remembers gives what reading the mapping afresh gives.

``parse_action`` keys a mapping it has read by a hashable copy of it (types JSON tells
apart tagged: ``1``, ``1.0`` and ``true``; ``0.0`` and ``-0.0``), and ``action_key``
keys an action by its values (by its JSON text when a number is zero).  These tests hold
both to the plain readings: two mappings (or actions) with the same key have the same JSON
text, and a remembered reading (or refusal) is the one ``_read_action`` gives.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from herohammer.actions import _read_action, _reading_key, action_key, parse_action
from herohammer.errors import HerohammerError

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, width=64)
    | st.sampled_from([0.0, -0.0, 1.0, 1, True, 0, False, "1", "move"]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)
NUMBER = st.sampled_from([0, 0.0, -0.0, 1, 1.0, True, 2.5, -3, 10**20, 1e300, float("inf")]) | st.floats(-50, 50)
MOVE = st.fixed_dictionaries({"do": st.just("move"), "unit": st.sampled_from(["a", "b"]),
                              "to": st.lists(st.lists(NUMBER, min_size=2, max_size=2) | st.tuples(NUMBER, NUMBER),
                                             max_size=4)},
                             optional={"march": st.sampled_from([True, False, 1, 0, 1.0, "yes"])})


def _reading(value: Any) -> tuple[str, str]:
    """What reading afresh gives: the action's type and JSON text, or the refusal's message."""
    try:
        action = _read_action(copy.deepcopy(value), "action")  # parse_action's default (round 43: not --action)
    except HerohammerError as exc:
        return "refused", str(exc)
    return type(action).__name__, action.model_dump_json()


@settings(max_examples=300, deadline=None)
@given(JSON, JSON)
@example(1, 1.0)
@example(1, True)
@example(0.0, -0.0)
@example([[1.0, 2.0]], [[1, 2]])
@example([[0.0, 2.0]], [[-0.0, 2.0]])
@example([1.5, 2.0], [1.5, 2])  # a join's place: a list of floats is keyed by its numbers, ints and zeros apart
@example([0.0, 2.0], [-0.0, 2.0])
@example([1.5, 2.5], [[1.5, 2.5]])
@example([1.5, 2.5], [1.5, 2.5, 3.5])
@example({"a": 1, "b": 2}, {"b": 2, "a": 1})
@example("1", 1)
def test_equal_keys_only_for_the_same_json_text(a: Any, b: Any) -> None:
    key_a, key_b = _reading_key({"x": a}), _reading_key({"x": b})
    assert key_a is not None and key_b is not None  # plain JSON is always keyed
    assert (key_a == key_b) == (json.dumps(a) == json.dumps(b))
    assert _reading_key({"x": copy.deepcopy(a)}) == key_a


@pytest.mark.parametrize("value", [
    {"x": (1, 2)}, {1: "a"}, {"x": {2: 3}}, {"x": [object()]}, {"x": {"y": (1.0, 2.0)}},
])
def test_what_is_not_plain_json_is_not_keyed(value: dict[Any, Any]) -> None:
    assert _reading_key(value) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(MOVE, min_size=1, max_size=3))
@example([{"do": "move", "unit": "a", "to": [[0, 1]]}, {"do": "move", "unit": "a", "to": [[0.0, 1.0]]},
          {"do": "move", "unit": "a", "to": [[-0.0, 1.0]]}, {"do": "move", "unit": "a", "to": [[True, 1.0]]}])
def test_a_remembered_reading_is_the_fresh_reading(values: list[dict[str, Any]]) -> None:
    for value in values * 2:  # the second time round, from memory
        expected = _reading(value)
        try:
            action = parse_action(value)
        except HerohammerError as exc:
            assert expected == ("refused", str(exc))
            continue
        assert expected == (type(action).__name__, action.model_dump_json())


def test_a_mapping_read_again_gives_the_same_action() -> None:
    value = {"do": "move", "unit": "a", "to": [[1, 2.5], [3.0, 4]]}
    assert parse_action(value) is parse_action(copy.deepcopy(value))
    assert parse_action({"do": "end_phase"}) is parse_action({"do": "end_phase"})


def test_action_key_tells_actions_apart_as_their_json_text_does() -> None:
    a = parse_action({"do": "move", "unit": "a", "to": [[1, 2]]})
    assert action_key(a) == action_key(parse_action({"do": "move", "unit": "a", "to": [[1.0, 2.0]]}))
    b = a.model_copy(update={"unit": "b"})  # a copy with a field changed has a key of its own
    assert action_key(b) != action_key(a)
    c = parse_action({"do": "move", "unit": "a", "to": [[-0.0, 2]]})
    zero = parse_action({"do": "move", "unit": "a", "to": [[0.0, 2]]})
    assert action_key(c) == c.model_dump_json() != action_key(zero) == zero.model_dump_json()  # a zero: its sign counts
    assert action_key(c) is action_key(c)  # worked out once per action object


ZERO_OR_NOT = st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, 1e-200])
ACTION = st.one_of(
    st.builds(lambda u, to, m: {"do": "move", "unit": u, "to": to, "march": m}, st.sampled_from(["a", "b"]),
              st.lists(st.tuples(ZERO_OR_NOT, ZERO_OR_NOT), min_size=1, max_size=3), st.booleans()),
    st.builds(lambda c, to: {"do": "leave", "character": c, "to": to}, st.sampled_from(["a", "b"]),
              st.tuples(ZERO_OR_NOT, ZERO_OR_NOT)),
    st.builds(lambda u, f, n: {"do": "reform", "unit": u, "facing": f, "files": n}, st.sampled_from(["a", "b"]),
              ZERO_OR_NOT, st.integers(1, 3)),
    st.builds(lambda u, p, r: {"do": "join", "character": "c", "unit": u, "position": p, "rank_choice": r},
              st.sampled_from(["a", "b"]), st.integers(0, 2), st.sampled_from([None, "widen"])),
    st.builds(lambda c, n, m: {"do": "allocate", "character": c, "attacks": {"Boy": n, "Grot": m}},
              st.sampled_from(["a", "b"]), st.integers(0, 2), st.integers(0, 2)),
    st.builds(lambda u, v: {"do": "test", "unit": u, "characteristic": "Ld",
                            "modifiers": [{"kind": "add", "value": v}]}, st.sampled_from(["a", "b"]), st.integers(-1, 1)),
    st.builds(lambda u, to: {"do": "move", "unit": u, "to": to}, st.sampled_from(["a", "b"]), st.just([])),
    st.just({"do": "end_phase"}),
)


@settings(max_examples=300, deadline=None)
@given(ACTION, ACTION)
@example({"do": "reform", "unit": "a", "facing": 0.0, "files": 1}, {"do": "reform", "unit": "a", "facing": -0.0, "files": 1})
@example({"do": "leave", "character": "a", "to": (1e-200, 1e-200)}, {"do": "leave", "character": "a", "to": (1e-200, 1e-200)})
def test_action_keys_are_equal_only_for_the_same_json_text(a: dict[str, Any], b: dict[str, Any]) -> None:
    first, second = _read_action(a, "a"), _read_action(b, "b")
    assert {action_key(first): None}  # a key a game can remember its ruling by, whatever the action holds
    assert (action_key(first) == action_key(second)) == (first.model_dump_json() == second.model_dump_json())
