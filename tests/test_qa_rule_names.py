"""Special rules nobody reads, and sides without units: never a silently wrong answer.

A unit's ``rules`` name special rules; the engine plays those its ruleset models
(``Ruleset.modelled_rules``, names compared as ``Ruleset.rule_name`` writes them).  A name
within a typo of a modelled rule (``flet``) is refused naming the file, the field and the
rule meant; any other name (``combat_squads``, a roster's rule) is kept as text and said
once as a note by every command that loads the file, and by the web's load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run, result_of
from herohammer.rulesets import RULESETS, get_ruleset
from herohammer.scenario import near_miss

ROOT = Path(__file__).resolve().parents[1]
LIBRARIAN = ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml"
RETINUE = ROOT / "examples" / "40k4_inquisitor_retinue.yaml"
T9A = ROOT / "examples" / "t9a_whole_turn.yaml"


def _write(tmp_path: Path, source: Path, change: Any, name: str = "s.yaml") -> Path:
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _rules(side: str, index: int, rules: list[str]) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["sides"][side][index]["rules"] = rules
    return change


@pytest.mark.parametrize("source, side, index, rules, field, meant", [
    (LIBRARIAN, "red", 0, ["flet"], "sides.red[0].rules[0]", "fleet"),
    (LIBRARIAN, "red", 0, ["psyker", "Fearles"], "sides.red[0].rules[1]", "fearless"),
    (LIBRARIAN, "blue", 0, ["combat_squads", "Stuborn"], "sides.blue[0].rules[1]", "stubborn"),
    (RETINUE, "red", 0, ["retinu"], "sides.red[0].rules[0]", "retinue"),
    (T9A, "highborn", 0, ["stand and shoot"], "sides.highborn[0].rules[0]", "Stand and Shoot"),
    (T9A, "highborn", 2, ["Wizard Aprentice (Cosmology)"], "sides.highborn[2].rules[0]", "Wizard Apprentice"),
    (T9A, "orcs", 0, ["Swiftstrid"], "sides.orcs[0].rules[0]", "Swiftstride"),
], ids=["flet", "Fearles", "Stuborn", "retinu", "t9a lower case", "t9a bracketed level typo", "Swiftstrid"])
def test_a_typo_of_a_modelled_rule_is_refused_naming_file_field_and_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], source: Path, side: str, index: int, rules: list[str],
        field: str, meant: str) -> None:
    path = _write(tmp_path, source, _rules(side, index, rules))
    for command in (["check", str(path), "--action", '{"do": "end_phase"}'], ["actions", str(path)],
                    ["simulate", str(path), "--runs", "10"]):
        code, out, err = run(command, capsys)
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (command, err)
        assert f"{path}: {field}: " in err and f"did you mean {meant!r}?" in err, err


def test_rules_the_engine_does_not_model_are_kept_and_said_once_by_every_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, LIBRARIAN, _rules("red", 1, ["combat_squads", "Scouts", "And They Shall Know No Fear"]))
    note = "note: special rules not modelled by 40k3, read as text: And They Shall Know No Fear, Scouts, combat_squads"
    end = '{"do": "end_phase"}'
    for command in (["check", str(path), "--action", end], ["actions", str(path)],
                    ["targets", str(path), "--unit", "tactical"], ["play", str(path), "--action", end, "--seed", "1"],
                    ["odds", "action", str(path), "--action", end], ["simulate", str(path), "--runs", "20"]):
        code, out, err = run(command, capsys)
        assert code == 0 and err.count(note) == 1 and err.count("note:") == 1, (command, err)
        code, out, err = run([*command, "--json"], capsys)
        assert code == 0 and err == "", (command, err)
        assert json.loads(out)["notes"] == [note.removeprefix("note: ")], command
    code, out, err = run(["check", str(LIBRARIAN), "--action", end, "--json"], capsys)  # nothing to say: no notes
    assert code == 0 and err == "" and "notes" not in json.loads(out)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_modelled_rule_is_read_as_written_in_the_files(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    assert rules.modelled_rules
    for name in rules.modelled_rules:
        assert near_miss(rules, name) is None and rules.rule_name(name) in rules.modelled_rules
    spelled = {"40k3": ["Fleet of Foot", "Move Through Cover", "move-through-cover", "Psyker", "FEARLESS"],
               "40k4": ["Retinue", "Tyrant Guard", "Skilled Rider"],
               "t9a": ["Fly (8, 6)", "Fly(10,20)", "Wizard Conclave (Fireball, Shield)", "Stand and Shoot"]}[ruleset]
    for name in spelled:
        assert rules.rule_name(name) in rules.modelled_rules, name
    for real in ["combat_squads", "scouts", "Independent Character", "Deep Strike", "Horse (mount): Adv 8 Mar 16"]:
        assert near_miss(rules, real) is None, real


def test_a_roster_s_rules_stay_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "orks.yaml"
    code, _, err = run(["scenario", "new", "--roster", str(ROOT / "examples" / "battlescribe" / "orks_test.ros"),
                        "--out", str(out)], capsys)
    assert code == 0, err
    code, printed, err = run(["actions", str(out)], capsys)
    assert code == 0 and "Independent Character" not in err  # what character: independent says (test_character_rule)
    assert "side opponent has no units (sides.opponent is empty)" in err


def _empty_blue(data: dict[str, Any]) -> None:
    data["sides"]["blue"] = []
    data["phase"] = "shooting"


def _destroyed_blue(data: dict[str, Any]) -> None:  # as a save writes a unit wiped out in play
    for unit in data["sides"]["blue"]:
        unit["destroyed"] = True
        unit["models"] = []
    data["phase"] = "shooting"


def test_an_empty_side_loads_with_a_note_and_targets_says_there_is_no_enemy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, LIBRARIAN, _empty_blue)
    code, out, err = run(["targets", str(path), "--unit", "tactical"], capsys)
    assert code == 0 and "note: side blue has no units (sides.blue is empty)" in err
    assert out == "Targets for tactical: none, no enemy unit stands on the table (blue: no units)\n"
    code, out, err = run(["targets", str(path), "--unit", "tactical", "--json"], capsys)
    assert code == 0 and result_of(out)["targets"] == {} and "side blue has no units" in json.loads(out)["notes"][0]


def test_a_side_destroyed_in_play_loads_without_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, LIBRARIAN, _destroyed_blue)
    code, out, err = run(["targets", str(path), "--unit", "tactical"], capsys)
    assert code == 0 and err == ""
    assert out == ("Targets for tactical: none, no enemy unit stands on the table "
                   "(blue: every unit destroyed or aboard a transport)\n")
    saved = tmp_path / "saved.yaml"
    code, _, err = run(["play", str(path), "--action", '{"do": "end_phase"}', "--seed", "1", "--out", str(saved)],
                       capsys)
    assert code == 0 and err == ""
    assert yaml.safe_load(saved.read_text())["sides"]["blue"][0]["destroyed"] is True
    code, _, err = run(["actions", str(saved)], capsys)
    assert code == 0 and err == ""


def test_a_scenario_without_any_unit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.yaml"
    path.write_text("ruleset: 40k3\nactive: a\nsides: {a: [], b: []}\n")
    code, out, err = run(["actions", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{path}: sides: no side has a unit (a: [], b: [])" in err


def test_the_web_s_load_says_the_notes_and_refuses_a_typo() -> None:
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    client = TestClient(create_app())
    data = yaml.safe_load(LIBRARIAN.read_text(encoding="utf-8"))
    data["sides"]["red"][1]["rules"] = ["combat_squads"]
    data["sides"]["blue"] = []
    r = client.post("/api/tables", json={"scenario": data, "filename": "squads.yaml"})
    assert r.status_code == 201, r.text
    assert r.json()["notes"] == ["special rules not modelled by 40k3, read as text: combat_squads",
                                 "side blue has no units (sides.blue is empty): nothing of it to shoot, charge or fight"]
    data["sides"]["red"][1]["rules"] = ["stuborn"]
    r = client.post("/api/tables", json={"scenario": data, "filename": "squads.yaml"})
    assert r.status_code == 400 and r.json()["field"] == "sides.red[1].rules[0]"
    assert "did you mean 'stubborn'?" in r.json()["error"]
    r = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"})
    assert r.status_code == 201 and r.json()["notes"] == []


def test_a_table_read_by_its_id_says_the_notes_too() -> None:
    """serve opens its scenario's table itself; the page its link opens reads the table by id (``?table=``)."""
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app
    from herohammer.web.session import Store

    data = yaml.safe_load(LIBRARIAN.read_text(encoding="utf-8"))
    data["sides"]["red"][1]["rules"] = ["combat_squads"]
    store = Store()
    first = store.open(data, "squads.yaml")  # as serve_cmd opens it
    client = TestClient(create_app(store))
    assert client.get(f"/api/tables/{first.id}").json()["notes"] == [
        "special rules not modelled by 40k3, read as text: combat_squads"]
    demo = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"}).json()["table_id"]
    assert client.get(f"/api/tables/{demo}").json()["notes"] == []


def test_a_refused_input_is_one_line_without_the_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, LIBRARIAN, _rules("red", 1, ["combat_squads"]))
    plan = tmp_path / "plan.json"
    plan.write_text('[{"do": "shoot"}]')
    for command in (["check", str(path), "--action", ""], ["targets", str(path), "--unit", "ghost"],
                    ["play", str(path), "--action", '{"do": "shoot", "unit": "tactical", "target": "warriors"}'],
                    ["odds", "action", str(path), "--action", '{"do": "assault"}'],
                    ["simulate", str(path), "--runs", "10", "--actions", str(plan)]):
        code, out, err = run(command, capsys)
        assert code == 2 and err.count("\n") == 1 and err.startswith("herohammer: error: "), (command, err)


def test_serve_says_the_notes_of_the_scenario_it_opens(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = _write(tmp_path, LIBRARIAN, _rules("red", 1, ["combat_squads"]))
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", "serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert "herohammer serve: " in proc.stdout.readline()
        assert proc.stderr.readline() == "note: special rules not modelled by 40k3, read as text: combat_squads\n"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
