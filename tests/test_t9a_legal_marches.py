"""``legal_actions`` proposes Marches (session 33): beside the Advance straight ahead it offered every unit, a March
straight ahead at its March Rate (published.t9a-move), kept only where the March is legal; taken, it first rolls the
March Test when an enemy stands within 8".  The Spearmen (Adv 5, Mar 10) stand at (36, 20) facing up the table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import result_of, run
from _t9a import reloading_game, scenario
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

MOVE = "published.t9a-move"


def _marches(g: Game) -> list[Any]:
    return [a for a in g.legal_actions() if a.do == "move" and a.march]


@pytest.mark.rule(MOVE)
def test_legal_actions_propose_a_march_straight_ahead_at_the_march_rate() -> None:
    g = Game(state_from_data(scenario(phase="movement", active="elves", enemy_y=40.0)), SeededDice(3))
    [march] = _marches(g)
    assert march.unit == "spears" and len(march.to) == 1
    x, y = march.to[0]
    assert abs(x - 36) < 1e-9 and abs(y - 30) < 1e-9  # 10", its March Rate, straight ahead
    assert g.check(march).legal
    advances = [a for a in g.legal_actions() if a.do == "move" and not a.march and a.unit == "spears"]
    assert advances  # the Advance is still offered beside it


@pytest.mark.rule(MOVE)
def test_the_proposed_march_far_from_the_enemy_marches_with_no_die() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=40.0))
    [march] = _marches(g)
    g.apply(march, ScriptedDice([]))  # the orcs 20" away: no March Test, no die
    assert g.state.unit("spears").has(Status.MARCHED)
    spears = g.state.unit("spears")
    assert spears.formation is not None and spears.formation.position == pytest.approx((36, 30))


def _orcs_to_the_side() -> dict[str, Any]:
    """The orcs 6" to the Spearmen's right, facing them: within 8", out of the way of a March straight ahead."""
    data = scenario(phase="movement", active="elves")
    data["sides"]["orcs"][0]["formation"] = {"position": [44, 25], "facing": 90, "files": 5}
    return data


@pytest.mark.rule(MOVE, "core.test.leadership")
def test_the_proposed_march_near_an_enemy_takes_its_march_test() -> None:
    g = reloading_game(_orcs_to_the_side())
    [march] = _marches(g)
    events = g.apply(march, ScriptedDice([3, 3]))  # 6 on Ld 9: passed
    assert [e.kind for e in events] == ["march_test", "move"] and "passed: it marches" in events[0].message
    assert g.state.unit("spears").has(Status.MARCHED)


@pytest.mark.rule(MOVE, "core.test.leadership")
def test_no_march_is_proposed_to_a_unit_that_failed_its_march_test() -> None:
    g = reloading_game(_orcs_to_the_side())
    [march] = _marches(g)
    events = g.apply(march, ScriptedDice([5, 5]))  # 10 on Ld 9: failed
    assert [e.kind for e in events] == ["march_test"] and g.state.unit("spears").has(Status.MARCH_TEST_FAILED)
    assert not _marches(g)  # it cannot March this Movement Phase
    assert [a for a in g.legal_actions() if a.do == "move" and a.unit == "spears"]  # it may still Advance


@pytest.mark.rule(MOVE)
def test_no_march_is_proposed_into_an_enemy_straight_ahead() -> None:
    g = Game(state_from_data(scenario(phase="movement", active="elves", enemy_y=27.0)), SeededDice(3))
    assert not _marches(g)  # 10" ahead would run into the orcs 7" away


@pytest.mark.rule(MOVE)
def test_no_march_is_proposed_outside_the_movement_phase() -> None:
    g = Game(state_from_data(scenario(phase="shooting", active="elves", enemy_y=40.0)), SeededDice(3))
    assert not _marches(g)


@pytest.mark.rule(MOVE)
def test_the_cli_lists_the_march_and_check_accepts_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "march.yaml"
    path.write_text(yaml.safe_dump(_orcs_to_the_side()))
    code, out, err = run(["actions", str(path), "--json"], capsys)
    assert code == 0, err
    marches = [a for a in result_of(out)["actions"] if a["do"] == "move" and a.get("march")]
    assert [(a["unit"], a["march"]) for a in marches] == [("spears", True)]
    code, out, err = run(["check", str(path), "--action", json.dumps(marches[0]), "--json"], capsys)
    assert code == 0, err
    ruling = result_of(out)
    assert ruling["legal"] and "March Test" in ruling["reason"]
