"""A whole 9th Age player turn: charge out, magic, shooting, melee and the Break test - played, simulated, saved."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from herohammer.cli import main
from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data, state_to_data
from herohammer.simulate import simulate
from herohammer.units import Status

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "t9a_whole_turn.yaml"


def turn_actions() -> list[str]:
    """Read the turn's actions from the example's own comment, so the documented command is the tested one."""
    return re.findall(r"--action '([^']*)'", EXAMPLE.read_text(encoding="utf-8"))


@pytest.mark.rule("t9a.spell.wizard-conclave", "t9a.charge-out.success", "t9a.char.lone")
def test_the_documented_turn_plays_every_phase_and_round_trips_after_each_action() -> None:
    game = Game.load(EXAMPLE, SeededDice(1))
    for action in turn_actions():
        before = game.state
        game.apply(action)
        assert state_from_data(state_to_data(game.state)) == game.state  # save and load keep everything
        other = game.copy()
        other.undo()
        assert other.state == before
    kinds = [e.kind for e in game.log]
    assert {"charge", "cast", "shoot", "panic", "fight", "break", "turn"} <= set(kinds)
    cited = {r for e in game.log for r in e.rules}
    assert {"t9a.spell.wizard-conclave", "t9a.charge-out.success", "t9a.char.lone", "published.t9a-magic",
            "published.t9a-panic", "published.t9a-break-test", "published.t9a-pursuit"} <= cited
    assert Status.FLEEING in game.state.unit("orc_warriors").status
    assert game.state.active == "orcs" and game.state.phase.value == "charge"
    assert game.state.magic.used == ()  # the Magic Dice used are discarded with the phase


def test_play_prints_every_roll_and_writes_a_state_that_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    argv = ["play", str(EXAMPLE), "--seed", "1", "--out", str(out)]
    for action in turn_actions():
        argv += ["--action", action]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for text in ("casting dice", "dispel", "Panic test", "Break test", "pursuit", "t9a.spell.wizard-conclave"):
        assert text in printed
    after = load_scenario(out)
    assert after.active == "orcs" and after.unit("orc_warriors").has(Status.FLEEING)


def test_the_turn_simulates_with_its_plan() -> None:
    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    result = simulate(data, runs=40, seed=3, method="engine")  # the exact compile would walk 200 000 runs first
    marginals = result.marginals()
    assert result.runs == 40
    # the combat is fought in every run where the charge went in; the orcs flee in some runs and not others
    fled = marginals["orc_warriors: fleeing"]
    assert set(fled) <= {True, False} and sum(n for n, _ in fled.values()) == 40
    assert marginals["orc_archers: models lost"]
