"""Mangled records of play (``played:``) through ``Game.replay``, ``play FILE --replay`` and the web's upload.

A judge replays a game from a file a player edited; a digital table opens a record a bot wrote and a network cut
short (reliability round 42).  Hypothesis takes the record of a short seeded game (or one played with a judge's
faces, or with an undo that leaves only its faces to replay) and mangles it: the file's text cut short, steps
dropped, doubled or swapped, faces edited, dropped or added, the seed, the judge's dice, the rolls, an action's field
or the start replaced, an earlier record (``played.after``) made up.  Then:

- ``Game.replay`` either plays it back to the state saved beside it, or raises one ``HerohammerError`` of one line
  naming the file: never another exception;
- ``herohammer play FILE --replay`` ends with 0, or with 2 and one line naming the file: never a traceback;
- the web's upload (``POST /api/tables`` with the file's text) opens the table (201) or refuses it with a 4xx whose
  one-line error names the file: never a 500.

The default profile is a few seconds; ``HEROHAMMER_FUZZ=long`` tries many more.
"""

from __future__ import annotations

import copy
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _cli import run
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
PROFILE = settings(max_examples=300 if LONG else 12, deadline=None, derandomize=not LONG, database=None,
                   suppress_health_check=list(HealthCheck))
#: Games whose records are mangled: the example, the dice (a seed or a judge's faces), and whether an undo that
#: rolled leaves the record its faces alone to replay (the seed's stream was drawn on).
GAMES = [("40k3_librarian_psychic.yaml", "seed", False), ("40k4_chaplain_combat.yaml", "judge", False),
         ("t9a_whole_turn.yaml", "seed", True), ("40k4_lone_character_shot.yaml", "seed", True)]
JUNK: list[Any] = [None, True, 0, -1, 7, 2.5, "x", "4", [], {}, [[1]], "9" * 40, {"do": "end_phase"}]


@cache
def _record(name: str, dice: str, undo: bool) -> str:
    """The JSON text of a seeded bot's short game from an example, saved with its record."""
    g = Game(load_scenario(ROOT / "examples" / name), ScriptedDice([(i * 5) % 6 + 1 for i in range(4000)])
             if dice == "judge" else SeededDice(3))
    for i in range(14):
        legal = g.legal_actions()
        busy = [a for a in legal if a.do != "end_phase"]
        g.apply(busy[i % len(busy)] if busy and i % 3 else legal[-1])
        if undo and i == 5:
            g.undo()
    return json.dumps(g.to_data(record=True))


@st.composite
def mangled(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A game's record mangled once or more; its YAML text, perhaps cut short, and what was done to it."""
    data = json.loads(_record(*draw(st.sampled_from(GAMES))))
    played, done = data["played"], []
    for _ in range(draw(st.integers(1, 3))):
        actions, rolls = played.get("actions"), played.get("rolls")
        kind = draw(st.sampled_from(["drop", "double", "swap", "face", "seed", "dice", "rolls", "field", "start",
                                     "after", "delete"]))
        done.append(kind)
        steps = len(actions) if isinstance(actions, list) else 0
        step = draw(st.integers(0, max(steps - 1, 0)))
        paired = isinstance(rolls, list) and len(rolls) == steps and draw(st.booleans())  # the step's faces alike
        if kind == "drop" and steps:
            actions.pop(step)
            if paired:
                rolls.pop(step)
        elif kind == "double" and steps:
            actions.insert(step, copy.deepcopy(actions[step]))
            if paired:
                rolls.insert(step, copy.deepcopy(rolls[step]))
        elif kind == "swap" and steps > 1:
            other = draw(st.integers(0, steps - 1))
            actions[step], actions[other] = actions[other], actions[step]
            if paired:
                rolls[step], rolls[other] = rolls[other], rolls[step]
        elif kind == "face" and isinstance(rolls, list) and any(isinstance(s, list) and s for s in rolls):
            faces = draw(st.sampled_from([r for s in rolls if isinstance(s, list) for r in s if isinstance(r, list)]))
            edit = draw(st.sampled_from(["set", "drop", "add"]))
            if edit == "add" or not faces:
                faces.append(draw(st.integers(1, 6)))
            elif edit == "drop":
                faces.pop()
            else:
                faces[draw(st.integers(0, len(faces) - 1))] = draw(st.sampled_from([1, 2, 3, 4, 5, 6, *JUNK]))
        elif kind == "seed":
            played["seed"] = draw(st.sampled_from([*JUNK, "0" * 5000, str(2**64), "12"]))
        elif kind == "dice":
            faces = played.get("dice") if isinstance(played.get("dice"), list) else []
            played["dice"] = draw(st.sampled_from([faces[:len(faces) // 2], faces[1:], [6, *faces], *JUNK]))
        elif kind == "rolls":
            played["rolls"] = draw(st.sampled_from([[], [[]] * steps, [[[7]]] * steps, [[[]]] * steps, *JUNK]))
        elif kind == "field" and steps and isinstance(actions[step], dict):
            actions[step][draw(st.sampled_from([*actions[step], "unit", "extra"]))] = draw(st.sampled_from(JUNK))
        elif kind == "start" and isinstance(played.get("start"), dict):
            played["start"][draw(st.sampled_from(["ruleset", "active", "turn", "phase", "sides"]))] = \
                draw(st.sampled_from(JUNK))
        elif kind == "after":
            played["after"] = draw(st.sampled_from([copy.deepcopy(played), {"actions": []}, {"start": {}}, *JUNK]))
        elif kind == "delete":
            played.pop(draw(st.sampled_from(["actions", "rolls", "seed", "dice", "start"])), None)
    text = yaml.safe_dump(data, sort_keys=False)
    if draw(st.booleans()) and draw(st.booleans()):  # a file cut short, as a network or a full disk leaves it
        text = text[:draw(st.integers(0, len(text) - 1))]
        done.append("cut")
    return text, done


@PROFILE
@given(record=mangled())
def test_a_mangled_record_replays_to_its_saved_state_or_is_refused_in_one_line_naming_the_file(
        record: tuple[str, list[str]], tmp_path_factory: pytest.TempPathFactory) -> None:
    text, done = record
    path = tmp_path_factory.mktemp("record") / "game.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        again = Game.replay(path)
    except HerohammerError as refused:
        said = str(refused)
        assert str(path) in said and "\n" not in said.strip(), (done, said)  # "illegal action: FILE: ..." alike
    else:
        assert again.state == load_scenario(path), done  # played back to the very state saved


@PROFILE
@given(record=mangled())
def test_play_replay_of_a_mangled_record_ends_0_or_2_in_one_line(record: tuple[str, list[str]],
                                                                  tmp_path_factory: pytest.TempPathFactory,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text, done = record
    path = tmp_path_factory.mktemp("record") / "game.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["play", str(path), "--replay"], capsys)
    assert code in (0, 2) and "Traceback" not in err, (done, code, err)
    if code == 2:
        assert err.count("\n") == 1 and str(path) in err and out == "", (done, err)


@PROFILE
@given(record=mangled())
def test_the_web_opens_a_mangled_record_or_refuses_it_in_one_line_naming_the_file(record: tuple[str, list[str]]
                                                                                  ) -> None:
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    text, done = record
    client = TestClient(create_app(), raise_server_exceptions=True)  # an unforeseen error fails the test
    answer = client.post("/api/tables", json={"text": text, "filename": "mangled.yaml"})
    assert answer.status_code == 201 or 400 <= answer.status_code < 500, (done, answer.text)
    if answer.status_code != 201:
        error = answer.json()["error"]
        assert "mangled.yaml" in error and "\n" not in error.strip(), (done, error)
