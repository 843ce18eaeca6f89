"""A judge's typed-in dice that no roll took are named, not only counted (session 21): ``ScriptedDice.unused``, the
text of ``play`` ("3 dice not used: 4, 6, 1") and ``unused_faces`` beside ``unused_dice`` in the JSON answers of
``play --json`` and the web API's play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from _cli import result_of, run
from herohammer.dice import ScriptedDice, unused_words
from herohammer.web.api import create_app
from test_web_api import JOIN, open_demo

LIBRARIAN = str(Path(__file__).resolve().parents[1] / "examples" / "40k3_librarian_psychic.yaml")
SMITE = '{"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}'
DICE = [3, 4, 5, 6, 6, 6, 6, 1, 1, 1, 2, 2]


def test_scripted_dice_give_the_faces_no_roll_took() -> None:
    dice = ScriptedDice([2, 5, 4, 6, 1])
    assert dice.unused == (2, 5, 4, 6, 1)
    assert dice.total(2, "a test", "published.to-hit-bs") == 7
    assert dice.unused == (4, 6, 1) and dice.remaining == 3
    assert unused_words(dice.unused) == "3 dice not used: 4, 6, 1"
    assert unused_words((5,)) == "1 die not used: 5" and unused_words(()) == ""


def test_play_names_the_unused_dice_in_its_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    given = ",".join(map(str, DICE))
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", given, "--json"], capsys)
    assert code == 0, err
    result = result_of(out)
    used = sum(len(r.get("faces") or []) for e in result["log"][0]["events"] for r in e.get("rolls", []))
    left = DICE[used:]
    assert left and result["unused_faces"] == left and result["unused_dice"] == len(left)  # the count kept
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", given], capsys)
    assert code == 0, err
    assert f"{len(left)} dice not used: {', '.join(map(str, left))}" in out.splitlines()
    code, out, err = run(["play", LIBRARIAN, "--action", SMITE, "--dice", ",".join(map(str, DICE[:used]))], capsys)
    assert code == 0 and "not used" not in out, err  # every die taken: nothing to say
    code, out, _ = run(["play", LIBRARIAN, "--action", SMITE, "--seed", "3", "--json"], capsys)
    assert (result_of(out)["unused_dice"], result_of(out)["unused_faces"]) == (0, [])  # seeded: none typed in


def test_the_web_api_play_names_the_unused_dice() -> None:
    client = TestClient(create_app())
    tid = open_demo(client)["table_id"]
    answer = client.post(f"/api/tables/{tid}/play", json={"actions": [JOIN], "dice": [6, 6, 4, 2]})
    assert answer.status_code == 200, answer.text
    result = answer.json()["result"]
    assert (result["unused_dice"], result["unused_faces"]) == (2, [4, 2])
    seeded = client.post(f"/api/tables/{tid}/play", json={"actions": [{"do": "end_phase"}], "seed": 1}).json()
    assert (seeded["result"]["unused_dice"], seeded["result"]["unused_faces"]) == (0, [])
    assert json.dumps(seeded["result"])  # JSON-ready
