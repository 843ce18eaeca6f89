"""A judge's cases for the turn sequence in both games: an action out of its phase, or taken by a unit of the side
whose turn it is not, is refused citing published.turn-sequence (with the clause that ties the action to its phase,
where there is one), on the API and on the command line, and changes nothing. What either side may do in the other's
turn (a test; in 40k fighting a close combat) is still allowed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import _t9a
from _cli import run
from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, scenario, squad

TURN = "published.turn-sequence"
BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])


@pytest.mark.rule(TURN, "40k3.ic.movement-phase-only", "40k4.ic.movement-phase-only")
@BOTH
def test_40k_an_action_out_of_its_phase_cites_the_turn_sequence(ruleset: str) -> None:
    """4th ed., The Turn: each player "performs their actions in the appropriate phases - the Movement, Shooting and
    Assault phases". A shot in the Movement phase, a move in the Shooting phase: refused, citing the turn sequence;
    a join in the Shooting phase cites the movement-phase-only clause as well."""
    red = [squad("tac", 20, 20), hero("cap", 28, 20)]
    moving = game(scenario(ruleset, red, [squad("orks", 20, 30)], phase="movement"))
    refused = assert_illegal(moving, {"do": "shoot", "unit": "tac", "target": "orks"}, TURN)
    assert "movement phase" in str(refused)
    assert_legal(moving, {"do": "move", "unit": "tac", "to": [[20, 21], [22, 21], [24, 21]]})
    shooting = game(scenario(ruleset, red, [squad("orks", 20, 30)], phase="shooting"))
    assert_illegal(shooting, {"do": "move", "unit": "tac", "to": [[20, 21], [22, 21], [24, 21]]}, TURN)
    joined = assert_illegal(shooting, {"do": "join", "character": "cap", "unit": "tac", "to": [26, 20]}, TURN)
    assert f"{ruleset}.ic.movement-phase-only" in joined.rules


@pytest.mark.rule(TURN)
@BOTH
def test_40k_the_other_sides_unit_may_not_act_in_red_s_turn_but_fights_its_combat(ruleset: str) -> None:
    """4th ed., The Turn: "players alternate taking turns moving and fighting with their units". In red's turn a
    blue squad may not move, shoot or regroup, nor a blue Captain join or leave: each refusal cites the turn
    sequence. Both sides' models fight a close combat: blue's squad locked with red's may fight it in red's
    Assault phase."""
    blue = [squad("orks", 20, 30), hero("boss", 28, 30, status=[])]
    g = game(scenario(ruleset, [squad("tac", 20, 20)], blue, phase="movement"))
    for action in ({"do": "move", "unit": "orks", "to": [[20, 29], [22, 29], [24, 29]]},
                   {"do": "join", "character": "boss", "unit": "orks", "to": [26, 30]},
                   {"do": "regroup", "unit": "orks"}):
        refused = assert_illegal(g, action, TURN)
        assert "belongs to blue, but it is red's turn" in str(refused)
    assert_legal(g, {"do": "test", "unit": "orks", "characteristic": "Ld"})
    locked = game(scenario(ruleset, [squad("tac", 20, 20)], [squad("orks", 20, 20 + BASE_25)], phase="assault"))
    assert_legal(locked, {"do": "fight", "unit": "orks"}, "published.close-combat")
    assert_illegal(locked, {"do": "assault", "unit": "orks", "target": "tac"}, TURN)


@pytest.mark.rule(TURN)
def test_40k_the_command_line_names_the_turn_sequence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``herohammer check`` on a scenario file: the refusal of the other side's move names published.turn-sequence."""
    path = tmp_path / "turn.yaml"
    path.write_text(yaml.safe_dump(scenario("40k4", [squad("tac", 20, 20)], [squad("orks", 20, 30)])))
    action = {"do": "move", "unit": "orks", "to": [[20, 29], [22, 29], [24, 29]]}
    code, out, err = run(["check", str(path), "--action", json.dumps(action)], capsys)
    assert code == 0 and out.startswith("ILLEGAL") and TURN in out and "red's turn" in out, out
    code, out, err = run(["check", str(path), "--action", json.dumps({"do": "shoot", "unit": "tac",
                                                                       "target": "orks"})], capsys)
    assert out.startswith("ILLEGAL") and TURN in out and "movement phase" in out, out


@pytest.mark.rule(TURN, "t9a.join.move")
def test_t9a_an_action_out_of_its_phase_or_out_of_its_turn_cites_the_turn_sequence() -> None:
    """The 9th Age, Player Turn: Charge, Movement, Magic, Shooting and Melee phases in order, each player in his own
    turn. In the orcs' Shooting phase a move is refused (and a join, citing t9a.join.move too); the elves'
    spearmen may not shoot in the orcs' turn; the orcs may. Each refusal changes nothing."""
    g = _t9a.game()
    _t9a.refused(g, {"do": "move", "unit": "orcs", "to": [[36, 30]]}, TURN, "shooting phase")
    _t9a.refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.move", "shooting phase")
    assert TURN in g.check({"do": "join", "character": "hero", "unit": "spears"}).rules
    _t9a.refused(g, {"do": "shoot", "unit": "spears", "target": "orcs"}, TURN, "belongs to elves, but it is orcs's turn")
    assert g.check({"do": "shoot", "unit": "orcs", "target": "spears"}).legal
    charging = _t9a.game(phase="charge", active="elves", joined=False)
    _t9a.refused(charging, {"do": "charge", "unit": "orcs", "target": "spears"}, TURN, "it is elves's turn")
    orcs_charge = _t9a.game(phase="charge", active="orcs")
    _t9a.refused(orcs_charge, {"do": "leave", "character": "hero", "to": [10, 12]}, TURN, "belongs to elves")


@pytest.mark.parametrize("example", ["40k3_whole_turn", "40k4_chaplain_combat", "t9a_whole_turn"])
def test_ending_a_phase_cites_the_turn_sequence(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``check {do: end_phase}`` names the rule that moves play on (it printed "[no special rule]")."""
    path = Path(__file__).resolve().parents[1] / "examples" / f"{example}.yaml"
    code, out, err = run(["check", str(path), "--action", '{"do": "end_phase"}', "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["result"]["legal"] is True and answer["rules"] == ["published.turn-sequence"]
