"""A judge's cases for 40k 3rd and 4th edition, fifth round: what the fourth left (regrouping at half strength,
the turn sequence cited when an action comes in the wrong phase or from the side whose turn it is not).

Each case plays actions through ``Game`` (``check``, ``apply``, ``undo``), a scenario file or the command line,
and asserts what the published rulebook says: the legal case and the illegal one, the clause cited, and that a
refused action changes nothing (``assert_illegal``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer.dice import ScriptedDice
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.units import Status

from _cli import run
from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad

BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
REGROUP = {"do": "regroup", "unit": "tac"}


# == regrouping needs half the unit's starting strength =======================================
def depleted(ruleset: str, at_start: int | None, n: int = 3, captain: bool = True) -> dict[str, Any]:
    """Red's falling back squad of ``n`` Marines (Ld 8) that began the battle ``at_start`` strong, its Captain
    (Ld 10) with it, at the start of red's Movement phase; the Orks are far away."""
    extra = {} if at_start is None else {"models_at_start": at_start}
    red = [squad("tac", 20, 20, n=n, ld=8, status=["falling_back"], **extra)]
    if captain:
        red.append(hero("cap", 22, 21.5, ld=10, joined="tac", status=["falling_back"]))
    return scenario(ruleset, red, [squad("orks", 20, 40)], phase="movement")


@pytest.mark.rule("published.regroup", "published.fall-back", "40k3.ic.falling-back", "40k4.ic.falling-back")
@BOTH
def test_a_squad_at_exactly_half_its_starting_strength_may_regroup_one_below_may_not(ruleset: str) -> None:
    """4th ed. p. 48, Regrouping: a unit may test "so long as: 1. It has left at least 50% of its original
    strength"; if it "cannot regroup because of the restrictions given above, then it must continue to fall back"
    (3rd ed., Codex Space Marines clarification: "Not below 50% strength"). Three Marines of six may test, on
    their Captain's Ld 10; three of seven may not - the Captain does not make up the squad's strength (four of
    seven would be more than half) - and the phase ends with the whole unit's fall back."""
    g = game(depleted(ruleset, 6))
    assert_legal(g, REGROUP, "published.regroup")
    assert "Ld 10" in g.check(REGROUP).reason
    short = game(depleted(ruleset, 7))
    refused = assert_illegal(short, REGROUP, "published.regroup")
    assert "half strength" in str(refused) and "3 of the 7" in str(refused)
    before = {u: [m.at for m in short.state.unit(u).models] for u in ("tac", "cap")}
    events = short.apply({"do": "end_phase"}, dice=ScriptedDice([2, 3]))
    assert any("falls back again" in e.message and "published.regroup" in e.rules for e in events)
    for u in before:
        assert all(b[1] - a[1] == pytest.approx(-5) for a, b in zip(before[u], [m.at for m in short.state.unit(u)
                                                                                 .models]))
    assert short.state.unit("tac").has(Status.FALLING_BACK) and short.state.unit("cap").has(Status.FALLING_BACK)


@pytest.mark.rule("published.regroup", "40k3.ic.no-last-man", "40k4.char.no-last-man")
@BOTH
def test_a_captain_alone_and_a_scenario_without_a_starting_size_regroup_as_listed(ruleset: str) -> None:
    """Without ``models_at_start`` a unit began the battle with the models listed: three Marines listed may test.
    A Captain who falls back alone is a unit of one model of one: his squad's losses do not bar him."""
    assert_legal(game(depleted(ruleset, None)), REGROUP, "published.regroup")
    data = depleted(ruleset, 7)
    data["sides"]["red"] = [hero("cap", 22, 21.5, ld=10, status=["falling_back"]),
                            {"id": "tac", "destroyed": True, "models_at_start": 7}]
    assert_legal(game(data), {"do": "regroup", "unit": "cap"}, "published.regroup")


def gunned_down(ruleset: str) -> Game:
    """Blue's Shooting phase: three boltguns at red's falling back squad of four (Ld 8), which began the battle so."""
    gunners = {"id": "bolt", "models": [{**model(f"Gunner {i + 1}", 20 + 2 * i, 30), "weapons": ["boltgun"]}
                                        for i in range(3)]}
    red = [squad("tac", 20, 10, n=4, ld=8, status=["falling_back"])]
    return game(scenario(ruleset, red, [gunners], phase="shooting", active="blue"))


@pytest.mark.rule("published.regroup", "published.morale-casualties")
@BOTH
def test_a_squad_shot_below_half_strength_may_not_regroup_until_the_shots_are_undone(ruleset: str) -> None:
    """The starting strength is the unit's at the start of the battle, kept through play, saving and undo: four
    Marines shot down to one (a falling back unit takes no Morale check) may not test to regroup in red's next
    Movement phase; the game saved and read back keeps it so; with the shooting undone all four may test."""
    g = gunned_down(ruleset)
    g.apply({"do": "shoot", "unit": "bolt", "target": "tac"}, dice=ScriptedDice([6] * 3 + [6] * 3 + [1, 1, 1]))
    assert len(g.state.unit("tac").models) == 1 and g.state.unit("tac").starting_strength == 4
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    assert g.state.active == "red" and g.state.phase.value == "movement"
    refused = assert_illegal(g, REGROUP, "published.regroup")
    assert "1 of the 4" in str(refused)
    saved = state_to_data(g.state)
    assert next(u for u in saved["sides"]["red"] if u["id"] == "tac")["models_at_start"] == 4
    assert state_from_data(saved) == g.state
    assert_illegal(Game(state_from_data(saved)), REGROUP, "published.regroup")
    for _ in range(3):
        g.undo()
    assert len(g.state.unit("tac").models) == 4
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    assert_legal(g, REGROUP, "published.regroup")


@pytest.mark.rule("published.regroup")
def test_the_scenario_file_gives_the_starting_size_and_a_wrong_one_gets_one_clear_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Through the command line: a scenario file's ``models_at_start`` decides the ruling (exactly half: LEGAL;
    below: ILLEGAL citing published.regroup); a value that is no whole number, or fewer than the models listed,
    is refused in one line naming the file and the field."""
    path = tmp_path / "regroup.yaml"
    for at_start, verdict in ((6, "LEGAL"), (7, "ILLEGAL")):
        path.write_text(yaml.safe_dump(depleted("40k4", at_start)))
        code, out, err = run(["check", str(path), "--action", json.dumps(REGROUP)], capsys)
        assert code == 0 and out.split()[0].rstrip(":") == verdict, out
        assert "published.regroup" in out
    for bad, words in (("six", "models_at_start"), (2, "at least the 3 models listed"), (True, "models_at_start"),
                       (0, "models_at_start")):
        data = depleted("40k4", None)
        data["sides"]["red"][0]["models_at_start"] = bad
        path.write_text(yaml.safe_dump(data))
        code, out, err = run(["check", str(path), "--action", json.dumps(REGROUP)], capsys)
        assert code == 2 and str(path) in err and "models_at_start" in err and words in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        with pytest.raises(ScenarioError):
            state_from_data(data, str(path))
