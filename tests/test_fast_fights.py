"""A close combat enumerated step by step (equal states merged) gives exactly the brute-force answer."""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.action_odds import summarise
from herohammer.actions import parse_action
from herohammer.dice import Dice, SeededDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.scenario import state_from_data

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def small_fight(ruleset: str, with_characters: bool) -> dict[str, Any]:
    """A Marine in base contact with a Boy (with a Chaplain against a Nob)."""
    def m(name: str, profile: str, x: float, y: float) -> dict[str, Any]:
        return {"name": name, "profile": profile, "base": 25, "at": [x, y]}

    n = 1  # the oracles replay the whole fight per leaf: keep it small
    red: list[dict[str, Any]] = [{"id": "squad", "models": [m(f"Marine {i}", MARINE, 20 + 1.2 * i, 20) for i in range(n)]}]
    blue: list[dict[str, Any]] = [{"id": "boyz", "models": [m(f"Boy {i}", BOY, 20 + 1.2 * i, 20.99) for i in range(n)]}]
    if with_characters:
        red.append({"id": "chaplain", "character": "independent", "joined": "squad",
                    "models": [m("Chaplain", "WS5 BS5 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+", 22.4, 20)]})
        blue.append({"id": "nob", "character": "ordinary", "joined": "boyz",
                     "models": [m("Nob", "WS4 BS2 S4 T4 W2 I3 A2 Ld7 Sv6+", 22.4, 20.99)]})
    return {"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": red, "blue": blue}}


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("with_characters", [False, True])
def test_a_fight_merged_step_by_step_equals_brute_force(ruleset: str, with_characters: bool) -> None:
    state = state_from_data(small_fight(ruleset, with_characters))
    action = parse_action({"do": "fight", "unit": "squad"})
    assert Game(state).check(action).legal
    rules = get_ruleset(ruleset)

    def play(dice: Dice) -> Any:
        return summarise(state, rules.resolve(state, action, dice))

    fast = enumerate_outcomes(play)
    # the merging alone against the whole fight replayed per leaf (classes and chains are checked
    # against brute force elsewhere); the smallest fight also against brute force itself
    assert fast == enumerate_outcomes(play, 400_000, merge_loops=False)
    if not with_characters:
        assert fast == enumerate_outcomes(play, 400_000, fine=True)
    assert len(fast) >= 3  # a draw, and casualties on either side


def test_play_of_a_fight_rolls_in_initiative_order() -> None:
    """The loop is invisible in play: Initiative 4 strikes before 2, every pool logged with its faces."""
    g = Game(state_from_data(small_fight("40k3", True)), SeededDice(5))
    events = g.apply({"do": "fight", "unit": "squad"})
    steps = [e.message for e in events if e.kind == "initiative"]
    assert steps == sorted(steps, key=lambda m: -int(m.split()[1]))
    assert all(r.faces for e in events for r in e.rolls)
