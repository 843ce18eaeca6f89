"""play with a judge's dice and a recorded seed; one JSON envelope (errors too); actions in YAML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from _cli import result_of, run
from herohammer.scenario import load_scenario

EX = Path(__file__).resolve().parents[1] / "examples"
LIBRARIAN = str(EX / "40k3_librarian_psychic.yaml")
SMITE = '{"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}'
SMITE_YAML = "{do: manifest, psyker: librarian, power: Smite, target: boyz}"


def test_play_uses_the_given_dice_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    # psychic test 3+4 = 7 (passed), 4 to hit (5 6 6 6), 4 to wound (6 1 1 1), then the Boy's save (none: AP2)
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", "3,4,5,6,6,6,6,1,1,1,2,2", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["command"] == "play" and doc["ruleset"] == "40k3" and "40k3.psyker.test" in doc["rules"]
    result = doc["result"]
    assert result["seed"] is None and result["dice"][:2] == [3, 4]
    faces = [f for e in result["log"][0]["events"] for r in e.get("rolls", []) for f in r.get("faces") or []]
    assert faces == [3, 4, 5, 6, 6, 6, 6, 1, 1, 1][: len(faces)] and len(faces) >= 10
    assert result["unused_dice"] == 12 - len(faces)


def test_play_says_when_the_dice_run_out_and_changes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "after.yaml"
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", "3,4", "--out", str(out_file)], capsys)
    assert code == 2 and "ran out at roll #2" in err and "--dice gave 2 rolls" in err
    assert not out_file.exists()
    code, _, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", "3,7"], capsys)
    assert code == 2 and "die #2 is '7'" in err
    code, _, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", "3", "--seed", "4"], capsys)
    assert code == 2 and "not allowed with" in err


def test_a_chosen_seed_is_printed_saved_and_replays_the_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    first = tmp_path / "first.yaml"
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--out", str(first)], capsys)
    assert code == 0, err
    seed = int(out.splitlines()[0].split()[1])
    assert f"replay with --seed {seed}" in out
    saved = yaml.safe_load(first.read_text())
    assert saved["played"]["seed"] == str(seed) and saved["played"]["actions"] == [json.loads(SMITE)]
    again = tmp_path / "again.yaml"
    code, out2, _ = run(["play", LIBRARIAN, "--action", SMITE, "--seed", str(seed), "--out", str(again)], capsys)
    assert code == 0 and out2.splitlines()[1:-1] == out.splitlines()[1:-1]
    assert load_scenario(again) == load_scenario(first)  # the saved game reads back (played: is accepted)


def test_playing_on_from_a_played_file_keeps_the_whole_chain(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    """``play`` from a file ``play --out`` wrote, written over in place, keeps the earlier record under ``after``
    (it replaced it: the original source and its seed were lost), and the chain replays to the same state."""
    game = tmp_path / "game.yaml"
    end = '{"do": "end_phase"}'
    assert run(["play", LIBRARIAN, "--action", SMITE, "--seed", "3", "--out", str(game)], capsys)[0] == 0
    assert run(["play", str(game), "--action", end, "--seed", "4", "--out", str(game)], capsys)[0] == 0
    played = yaml.safe_load(game.read_text())["played"]
    assert played["source"] == str(game) and played["actions"] == [json.loads(end)] and played["seed"] == "4"
    earlier = played["after"]
    assert {k: earlier[k] for k in ("source", "actions", "seed")} == {"source": LIBRARIAN, "actions": [json.loads(SMITE)],
                                                                     "seed": "3"} and "after" not in earlier
    middle, replayed = tmp_path / "middle.yaml", tmp_path / "replayed.yaml"
    assert run(["play", earlier["source"], *[a for act in earlier["actions"] for a in ("--action", json.dumps(act))],
                "--seed", earlier["seed"], "--out", str(middle)], capsys)[0] == 0
    assert run(["play", str(middle), *[a for act in played["actions"] for a in ("--action", json.dumps(act))],
                "--seed", played["seed"], "--out", str(replayed)], capsys)[0] == 0
    assert load_scenario(replayed) == load_scenario(game)


def test_actions_may_be_given_in_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    a = result_of(run(["check", LIBRARIAN, "--action", SMITE_YAML, "--json"], capsys)[1])
    b = result_of(run(["check", LIBRARIAN, "--action", SMITE, "--json"], capsys)[1])
    assert a == b and a["legal"]
    code, out, _ = run(["play", LIBRARIAN, "--action", SMITE_YAML, "--seed", "3"], capsys)
    assert code == 0 and "Smite" in out


@pytest.mark.parametrize("argv", [
    ["odds", "leadership", "11"],
    ["odds", "attacks", "3", "--bs", "4"],
    ["check", "/no/such/file.yaml", "--action", SMITE],
    ["check", LIBRARIAN, "--action", '{"do": "fly"}'],
    ["play", LIBRARIAN, "--action", SMITE, "--dice", "1"],
    ["targets", LIBRARIAN, "--unit", "nobody"],
])
def test_errors_are_json_under_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 2 and err == ""
    doc = json.loads(out)
    assert doc["result"] is None and doc["error"] and "Traceback" not in doc["error"]
    assert set(doc) == {"command", "ruleset", "method", "rules", "result", "error"}


@pytest.mark.parametrize("argv,command,method", [
    (["odds", "test", "4"], "odds test", "exact"),
    (["odds", "psychic", "9"], "odds psychic", "exact"),
    (["rules", "--ruleset", "core"], "rules", None),
    (["check", LIBRARIAN, "--action", SMITE], "check", None),
    (["targets", LIBRARIAN, "--unit", "tactical"], "targets", None),
    (["actions", LIBRARIAN], "actions", None),
    (["odds", "action", LIBRARIAN, "--action", SMITE], "odds action", "exact"),
    (["simulate", LIBRARIAN, "--runs", "20", "--seed", "1"], "simulate", "monte-carlo"),
])
def test_every_json_output_has_the_same_envelope(argv: list[str], command: str, method: str | None,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) == {"command", "ruleset", "method", "rules", "result"}
    assert doc["command"] == command and doc["method"] == method and doc["result"] is not None
    if command != "rules":
        assert doc["ruleset"] == ("core" if command == "odds test" else "40k3")


def test_play_names_the_outcome_as_odds_action_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", "3,4,5,6,6,6,6,1,1,1,2,2", "--json"], capsys)
    assert code == 0, err
    outcome = json.loads(out)["result"]["outcome"]
    assert "boyz: models lost = 1" in outcome and "power_used" in outcome
    code, out, _ = run(["odds", "action", LIBRARIAN, "--action", SMITE, "--json"], capsys)
    rows = result_of(out)["rows"]
    assert all(label in rows for label in outcome)  # the same words label the same outcomes
