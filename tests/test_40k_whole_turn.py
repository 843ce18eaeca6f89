"""A whole 40k3 turn plays through with `herohammer play`: move, join, power, shooting, assault, combat, morale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from herohammer.cli import main
from herohammer.dice import SeededDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import load_scenario
from herohammer.units import Status

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "40k3_whole_turn.yaml"


def turn_actions() -> list[str]:
    """Read the turn's actions from the example's own comment, so the documented command is the tested one."""
    text = EXAMPLE.read_text(encoding="utf-8")
    return re.findall(r"--action '([^']*)'", text)


def test_the_documented_turn_plays_through_and_ends_with_the_other_side() -> None:
    actions = turn_actions()
    assert len(actions) == 9
    game = Game.load(EXAMPLE, SeededDice(7))
    for action in actions:
        game.apply(action)
    kinds = {e.kind for e in game.log}
    assert {"move", "join", "psychic_test", "phase", "turn", "morale"} <= kinds
    assert game.state.active == "orks" and game.state.phase.value == "movement"


def test_with_other_dice_the_assault_is_legal_exactly_when_the_boyz_held() -> None:
    actions = turn_actions()
    for seed in range(12):
        game = Game.load(EXAMPLE, SeededDice(seed))
        for action in actions[:6]:
            game.apply(action)
        boyz = game.state.unit("boyz")
        held = boyz.alive and not boyz.has(Status.FALLING_BACK)
        ruling = game.check(actions[6])
        if not held:  # the shooting broke them: they fled out of reach (or died)
            before = game.state
            assert not ruling.legal and ruling.rules
            with pytest.raises(IllegalActionError):
                game.apply(actions[6])
            assert game.state == before
        else:
            assert ruling.legal, ruling.reason
            game.apply(actions[6])
            assert game.state.unit("tactical").has(Status.LOCKED)


def test_play_prints_every_roll_and_writes_a_state_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    argv = ["play", str(EXAMPLE), "--seed", "7", "--out", str(out)]
    for action in turn_actions():
        argv += ["--action", action]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for rule in ("40k3.ic.join", "40k3.psyker.test", "40k3.char.shooting-dice", "40k3.char.must-assault",
                 "published.combat-resolution", "core.test.leadership"):
        assert rule in printed
    assert "roll Morale test" in printed or "falls back" in printed or "destroyed" in printed
    after = load_scenario(out)
    assert after.active == "orks" and after.turn == 1
