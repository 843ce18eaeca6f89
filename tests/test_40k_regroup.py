"""Regrouping a unit that is falling back, with its character's Leadership (40k3, 40k4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from herohammer.dice import ScriptedDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.units import Status

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "40k3_chaplain_falling_back.yaml"
REGROUP = {"do": "regroup", "unit": "assault_squad"}


def chaplain_game(ruleset: str = "40k3", boyz_y: float = 30.0) -> Game:
    game = Game.load(EXAMPLE)
    data = game.to_data()
    data["ruleset"] = ruleset
    for model in data["sides"]["blue"][0]["models"]:
        model["at"] = [model["at"][0], boyz_y]
    return Game.from_data(data)


@pytest.mark.rule("40k3.char.leadership", "40k3.ic.falling-back")
def test_a_passed_regroup_test_on_the_characters_leadership_ends_falling_back() -> None:
    game = chaplain_game()
    ruling = game.check(REGROUP)
    assert ruling.legal and "40k3.char.leadership" in ruling.rules and "Ld 10" in ruling.reason
    # 2D6 = 10 passes on the Chaplain's Ld 10 (the squad's own best is 9)
    events = game.apply(REGROUP, dice=ScriptedDice([5, 5]))
    assert "regroups" in events[0].message and events[0].rolls[0].value == 10
    for unit_id in ("assault_squad", "chaplain"):
        unit = game.state.unit(unit_id)
        assert not unit.has(Status.FALLING_BACK) and unit.has(Status.MOVED)
    # once regrouped, falling back no longer keeps the character in the unit (before it did)
    ruleset = game.ruleset
    assert ruleset.leave_problem(game.state, game.state.unit("chaplain")) is None  # type: ignore[attr-defined]
    game.undo()
    held = ruleset.leave_problem(game.state, game.state.unit("chaplain"))  # type: ignore[attr-defined]
    assert held is not None and held.rules == ("40k3.ic.falling-back",)


@pytest.mark.rule("40k3.ic.falling-back")
def test_a_failed_regroup_test_falls_back_again() -> None:
    game = chaplain_game()
    before = game.state.unit("assault_squad").models[0].at
    events = game.apply(REGROUP, dice=ScriptedDice([6, 5, 3, 3, 3]))
    assert "falls back again" in events[0].message
    squad = game.state.unit("assault_squad")
    assert squad.has(Status.FALLING_BACK) and squad.models[0].at != before
    assert game.state.unit("chaplain").has(Status.FALLING_BACK)


def test_no_regroup_with_an_enemy_within_6_inches_and_the_state_is_unchanged() -> None:
    game = chaplain_game(boyz_y=15.0)
    before = game.state
    ruling = game.check(REGROUP)
    assert not ruling.legal and ruling.rules == ("published.regroup",) and "boyz" in ruling.reason
    with pytest.raises(IllegalActionError):
        game.apply(REGROUP)
    assert game.state == before


@pytest.mark.rule("40k4.char.leadership")
def test_40k4_regroups_on_the_characters_superior_leadership() -> None:
    game = chaplain_game("40k4")
    assert "40k4.char.leadership" in game.check(REGROUP).rules
    refused = game.check({"do": "regroup", "unit": "chaplain"})
    assert not refused.legal and "assault_squad" in refused.reason
