"""Session 18's walk of a fresh clone with bad input (rel18): what it found, each with a test.

A scenario naming a unit that is not there in ``allocations`` or ``fired_at``, an allocation of fewer than one attack,
a model with an empty name, and 1 or "yes" for a true/false field were loaded without a word; a plan whose first
step is illegal from the start was played as "skipped: step 1" in every run without saying why; a ``--json`` error
written to a reader that had gone ended in a traceback; a web request body that is not JSON was answered
"body[1]: JSON decode error", and a typed-in die of 7 by a message naming no field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from _cli import result_of, run
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data
from herohammer.web.api import create_app

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
SELF_SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "librarian"}
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
Data = dict[str, Any]


def written(tmp_path: Path, change: Callable[[Data], object], name: str = "mine.yaml") -> Path:
    data = yaml.safe_load(PSYCHIC.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def one_line(argv: list[str], capsys: pytest.CaptureFixture[str], *expected: str) -> str:
    code, _, err = run(argv, capsys)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for text in expected:
        assert text in err, err
    return err


@pytest.mark.parametrize("change,words", [
    (lambda d: d.update(allocations={"ghost": {"Boy 1": 2}}), "allocations.ghost: no unit with id 'ghost'"),
    (lambda d: d.update(fired_at={"ghost": "boyz"}), "fired_at.ghost: no unit with id 'ghost'"),
    (lambda d: d.update(fired_at={"tactical": "ghost"}), "fired_at.tactical: no unit with id 'ghost'"),
    (lambda d: d.update(allocations={"librarian": {"Boy 1": 0}}), "allocations.librarian.Boy 1: expected at least 1"),
    (lambda d: d["sides"]["marines"][1]["models"][0].update(name=""), "models[0].name: expected at least 1 character"),
    (lambda d: d["sides"]["marines"][1]["models"][0].update(veteran=1), "models[0].veteran: expected true or false"),
    (lambda d: d.update(special_characters="yes"), "special_characters: expected true or false"),
])
def test_a_scenario_value_that_names_nothing_or_is_not_what_the_field_takes_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Data], object], words: str) -> None:
    one_line(["actions", str(written(tmp_path, change))], capsys, "mine.yaml", words)


def test_the_same_fields_given_rightly_still_load(tmp_path: Path) -> None:
    def right(d: Data) -> None:
        d.update(allocations={"librarian": {"Boy 1": 2}}, fired_at={"tactical": "boyz"}, special_characters=True)
        d["sides"]["marines"][1]["models"][0]["veteran"] = True

    state = load_scenario(written(tmp_path, right))
    assert state.allocations == (("librarian", (("Boy 1", 2),)),) and state.fired_at == (("tactical", "boyz"),)
    assert state.unit("tactical").models[0].profile.s == 5  # the Veteran's +1 Strength (core.value.unmodified)


@pytest.mark.rule("40k3.psyker.as-shooting")
def test_a_plan_whose_first_step_is_illegal_from_the_start_is_refused_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = written(tmp_path, lambda d: d.update(plan=[SELF_SMITE]))
    one_line(["simulate", str(bad), "--runs", "10", "--seed", "1"], capsys,
             "the plan's step 1 (manifest) is illegal", "librarian is on the same side", "40k3.psyker.as-shooting")
    code, out, _ = run(["simulate", str(bad), "--runs", "10", "--seed", "1", "--json"], capsys)
    assert code == 2 and "step 1 (manifest)" in json.loads(out)["error"]
    good = written(tmp_path, lambda d: d.update(plan=[SMITE]), "good.yaml")
    code, out, err = run(["simulate", str(good), "--runs", "10", "--seed", "1", "--json"], capsys)
    assert code == 0 and result_of(out)["outcomes"], err


def test_a_json_error_to_a_reader_that_has_gone_is_no_traceback(tmp_path: Path) -> None:
    for argv in (["check", str(PSYCHIC), "--action", '{"do": "nope"}', "--json"],
                 ["simulate", str(PSYCHIC), "--runs", "0", "--json"]):
        read, write = os.pipe()
        os.close(read)  # like `| head` that has read what it wanted
        try:
            done = subprocess.run([sys.executable, "-m", "herohammer", *argv], stdout=write, stderr=subprocess.PIPE,
                                  text=True, timeout=120)
        finally:
            os.close(write)
        assert done.returncode == 2 and done.stderr == "", done.stderr


def test_a_web_body_that_is_not_json_and_a_die_out_of_range_name_what_is_wrong() -> None:
    client = TestClient(create_app())
    r = client.post("/api/tables", content=b"{demo", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == (
        "request body: not valid JSON at character 1: Expecting property name enclosed in double quotes")
    tid = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"}).json()["table_id"]
    r = client.post(f"/api/tables/{tid}/play", json={"actions": [{"do": "end_phase"}], "dice": [3, 7]})
    assert r.status_code == 422 and r.json()["error"] == "body.dice[1]: expected at most 6 (got 7)"
    assert client.get(f"/api/tables/{tid}").json()["log"] == []  # nothing played


@pytest.mark.rule("40k3.char.move-as-type")
def test_a_move_too_long_names_the_model_kind_in_words() -> None:
    data = yaml.safe_load(PSYCHIC.read_text(encoding="utf-8"))
    data.update(phase="movement")
    data["sides"]["marines"][0].pop("joined")
    data["sides"]["marines"][0]["models"][0]["at"] = [30, 24]
    game = Game(state_from_data(data, "mine.yaml"))
    ruling = game.check({"do": "join", "character": "librarian", "unit": "tactical", "to": [60, 40]})
    assert not ruling.legal and "but an infantry model moves at most 6\" a phase" in ruling.reason
    near = game.check({"do": "join", "character": "librarian", "unit": "tactical", "to": [30, 21.5]})
    assert near.legal, near.reason
