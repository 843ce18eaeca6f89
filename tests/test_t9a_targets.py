"""Shooting targets in The 9th Age: a joined character is part of its unit, a lone one is a unit."""

from __future__ import annotations

from pathlib import Path

import pytest

from herohammer.game import Game
from _cli import result_of

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "t9a_wizard_charges_out.yaml"


@pytest.mark.rule("t9a.join.part-of-unit")
def test_joined_character_is_not_a_separate_target() -> None:
    game = Game.load(EXAMPLE)
    answers = game.ruleset.targets(game.state, "orc_archers")
    assert answers["wizard"].legal is False
    assert "t9a.join.part-of-unit" in answers["wizard"].rules
    host = game.state.unit("wizard").joined
    assert host is not None and answers[host].legal is True


@pytest.mark.rule("t9a.char.lone")
def test_lone_character_is_a_target_of_its_own() -> None:
    game = Game.load(EXAMPLE)
    data = game.to_data()
    for side in data["sides"].values():
        for unit in side:
            if unit["id"] == "wizard":
                unit.pop("joined")
                wizard_name = unit["models"][0]["name"]
                unit["models"][0]["at"] = [50.0, 10.0]  # in the archers' Front Arc (published.line-of-sight)
    for side in data["sides"].values():
        for unit in side:
            order = unit.get("formation", {}).get("order")
            if order:
                unit["formation"]["order"] = [n for n in order if n != wizard_name]
    lone = Game.from_data(data)
    ruling = lone.ruleset.target_ruling(lone.state, "orc_archers", "wizard")
    assert ruling.legal and ruling.rules == ("t9a.char.lone",)


@pytest.mark.rule("t9a.charge-out.failure", "t9a.charge-out.success", "t9a.charge-out.stand-and-shoot")
def test_odds_action_gives_the_four_ways_a_charge_out_ends(capsys: pytest.CaptureFixture[str]) -> None:
    from fractions import Fraction
    import json

    from herohammer.actions import parse_action
    from herohammer.cli import main
    from herohammer.rulesets.t9a_turn import charge_out_odds

    action = '{"do": "charge", "unit": "wizard", "target": "orc_archers"}'
    assert main(["odds", "action", str(EXAMPLE), "--action", action, "--json"]) == 0
    rows = result_of(capsys.readouterr().out)["rows"]
    ways = {k.removeprefix("charge.outcome: "): Fraction(v) for k, v in rows.items() if k.startswith("charge.outcome: ")}
    assert set(ways) == {"charged", "failed_left", "failed_stayed_shaken", "slain"}
    assert sum(ways.values()) == 1
    expected = charge_out_odds(Game.load(EXAMPLE).state, parse_action(action))  # type: ignore[arg-type]
    assert ways == {k: expected[k] for k in expected}
