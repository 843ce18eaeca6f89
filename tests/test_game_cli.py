"""``herohammer check / targets / actions`` on the 40k examples: the documented JSON and one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from _cli import result_of, run
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
LIBRARIAN = str(EX / "40k4_librarian_joins_tactical.yaml")
CHAPLAIN = str(EX / "40k3_chaplain_falling_back.yaml")
CAPTAIN = str(EX / "40k3_lone_captain_target.yaml")
TYRANT = str(EX / "40k4_hive_tyrant_target.yaml")
RETINUE = str(EX / "40k4_inquisitor_retinue.yaml")
WOODS = str(EX / "40k3_librarian_woods.yaml")


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0 and err == "", err
    return result_of(out)


def check(path: str, action: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    answer: dict[str, Any] = run_json(["check", path, "--action", json.dumps(action)], capsys)
    assert set(answer) <= {"legal", "rules", "reason", "notes"} and {"legal", "rules", "reason"} <= set(answer)
    assert isinstance(answer["legal"], bool) and isinstance(answer["reason"], str)
    return answer


def _battle_over(tmp_path: Path) -> str:
    """The 40k3 Librarian example in the battle's last phase (turn 7, the Orks' Assault phase, nobody in reach)."""
    import yaml

    data = yaml.safe_load((EX / "40k3_librarian_psychic.yaml").read_text())
    data.update(turn=7, phase="assault", active="orks")
    path = tmp_path / "over.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


@pytest.mark.rule("published.game-length")
def test_actions_says_why_there_are_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A battle that is over lists no action: the answer says why, with the rule, not an empty list alone."""
    over = _battle_over(tmp_path)
    code, out, err = run(["actions", over], capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == ["orks to act, assault phase:",
                                "  none: the battle is over: it lasts 7 game turns, and this assault phase of turn 7 "
                                "(orks, the last side to play) is its last phase [published.game-length]"]
    code, out, _ = run(["actions", over, "--json"], capsys)
    doc = json.loads(out)
    assert doc["result"]["actions"] == [] and doc["result"]["none_because"].startswith("the battle is over")
    assert doc["rules"] == ["published.game-length"]
    live = run_json(["actions", LIBRARIAN], capsys)
    assert live["actions"] and live["none_because"] is None



def test_actions_are_listed_as_one_line_json_a_user_would_type(capsys: pytest.CaptureFixture[str]) -> None:
    """Was '{ "do": "join", ..., "to": [ 24.0, 20.02 ] }': a pretty-printed text with its newlines dropped."""
    code, out, _ = run(["actions", LIBRARIAN], capsys)
    lines = out.splitlines()[1:]
    assert code == 0 and '  {"do": "end_phase"}' in lines
    assert '  {"do": "join", "character": "librarian", "unit": "tactical", "to": [24.0, 20.02]}' in lines, lines


@pytest.mark.rule("40k4.ic.join")
def test_check_librarian_join(capsys: pytest.CaptureFixture[str]) -> None:
    ok = check(LIBRARIAN, {"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 21]}, capsys)
    assert ok["legal"] and ok["rules"] == ["40k4.ic.join", "40k4.ic.movement-phase-only"]
    far = check(LIBRARIAN, {"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 18]}, capsys)
    assert not far["legal"] and far["rules"] == ["40k4.ic.join"]
    code, out, err = run(["check", LIBRARIAN, "--action",
                          '{"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 21]}'], capsys)
    assert code == 0 and out.startswith("LEGAL: ") and "[40k4.ic.join, 40k4.ic.movement-phase-only]" in out


@pytest.mark.rule("40k4.ic.no-character-units")
def test_check_join_a_lone_character(capsys: pytest.CaptureFixture[str]) -> None:
    no = check(RETINUE, {"do": "join", "character": "captain", "unit": "chaplain", "to": [42.5, 11]}, capsys)
    assert not no["legal"] and no["rules"] == ["40k4.ic.no-character-units"]


@pytest.mark.rule("40k3.ic.falling-back")
def test_check_chaplain_falling_back(capsys: pytest.CaptureFixture[str]) -> None:
    no = check(CHAPLAIN, {"do": "leave", "character": "chaplain", "to": [30, 16]}, capsys)
    assert not no["legal"] and no["rules"] == ["40k3.ic.falling-back"]


@pytest.mark.rule("40k4.char.retinue")
def test_check_retinue(capsys: pytest.CaptureFixture[str]) -> None:
    no = check(RETINUE, {"do": "leave", "character": "inquisitor", "to": [14, 16]}, capsys)
    assert not no["legal"] and no["rules"] == ["40k4.char.retinue"]


@pytest.mark.rule("40k3.ic.move-through-cover")
def test_check_notes_give_exact_difficult_terrain_odds(capsys: pytest.CaptureFixture[str]) -> None:
    ok = check(WOODS, {"do": "move", "unit": "librarian", "to": [[26, 20]]}, capsys)
    assert ok["legal"] and str(1 - (Fraction(5, 6) ** 2) ** 2) in ok["notes"][0] and "40k3.ic.move-through-cover" in ok["notes"][0]


@pytest.mark.rule("40k3.ic.target")
def test_targets_lone_captain(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(["targets", CAPTAIN, "--unit", "shoota_boyz"], capsys)
    assert answer["unit"] == "shoota_boyz"
    state = load_scenario(CAPTAIN)
    assert set(answer["targets"]) == {u.id for u in state.enemies_of("blue")}
    assert answer["targets"]["tactical"]["legal"] is True
    assert answer["targets"]["captain"] == {
        "legal": False, "rules": ["40k3.ic.target"],
        "reason": answer["targets"]["captain"]["reason"],
    }
    back = run_json(["targets", CAPTAIN, "--unit", "tactical"], capsys)
    assert back["targets"]["warboss"]["legal"] and back["targets"]["warboss"]["rules"] == ["40k3.ic.target"]


@pytest.mark.rule("40k4.target.monstrous")
@pytest.mark.rule("40k4.target.closest")
def test_targets_hive_tyrant(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(["targets", TYRANT, "--unit", "devastators"], capsys)
    t = answer["targets"]
    assert set(t) == {"termagants", "hive_tyrant", "broodlord"}
    assert t["hive_tyrant"]["legal"] and t["hive_tyrant"]["rules"] == ["40k4.target.monstrous"]
    assert not t["broodlord"]["legal"] and t["broodlord"]["rules"] == ["40k4.target.closest"]
    for ruling in t.values():
        assert set(ruling) >= {"legal", "rules", "reason"}
    code, out, _ = run(["targets", TYRANT, "--unit", "devastators"], capsys)
    assert code == 0 and "hive_tyrant" in out


def test_actions_lists_the_active_sides_legal_actions(capsys: pytest.CaptureFixture[str]) -> None:
    answer = run_json(["actions", RETINUE], capsys)
    assert answer["active"] == "red" and answer["phase"] == "movement"
    kinds = {a["do"] for a in answer["actions"]}
    assert kinds == {"join", "move", "end_phase"}
    joins = [a for a in answer["actions"] if a["do"] == "join"]
    assert [(a["character"], a["unit"]) for a in joins] == [("captain", "tactical")]  # not the inquisitor
    moves = {a["unit"]: a for a in answer["actions"] if a["do"] == "move"}
    assert "inquisitor" not in moves and "retinue" in moves  # a joined character moves with its unit
    summary = {a["unit"]: a for a in answer["summary"] if a["do"] == "move"}
    assert all(isinstance(a["sampled_directions_legal"], int) for a in summary.values())
    for action in answer["actions"]:  # each listed action is accepted as it is, by check and by play
        ruling = run_json(["check", RETINUE, "--action", json.dumps(action)], capsys)
        assert ruling["legal"], (action, ruling)
    played = run_json(["play", RETINUE, "--action", json.dumps(answer["actions"][0]), "--seed", "1"], capsys)
    assert played["log"][0]["action"] == 1
    chap = run_json(["actions", CHAPLAIN], capsys)
    assert not any(a["do"] == "leave" for a in chap["actions"])  # falling back: no leaving
    code, out, _ = run(["actions", LIBRARIAN], capsys)
    assert code == 0 and out.startswith("red to act, movement phase:")


@pytest.mark.parametrize("argv,expected", [
    (["check", LIBRARIAN, "--action", "{do: [join"], "not valid JSON"),
    (["check", LIBRARIAN, "--action", "not json"], "expected an object"),
    (["check", LIBRARIAN, "--action", '{"do": "teleport"}'], "expected do: join"),
    (["check", LIBRARIAN, "--action", '{"do": "join", "character": "librarian"}'], "field unit"),
    (["check", LIBRARIAN, "--action", '[1, 2]'], "expected an object"),
    (["check", LIBRARIAN, "--action", '{"do": "join", "character": "librarian", "unit": "ghost"}'], "'ghost'"),
    (["check", LIBRARIAN, "--action", '{"do": "shoot", "unit": "nobody", "target": "lord"}'], "'nobody'"),
    (["targets", LIBRARIAN, "--unit", "ghost"], "'ghost'"),
    (["check", LIBRARIAN], "--action"),
])
def test_bad_actions_are_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], expected: str) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and expected in err, err
