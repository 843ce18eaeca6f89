"""Round 40, as a bot or digital-table developer and a designer use herohammer: a game's record, simulate's switch
to Monte Carlo said first on any stdout, and a psyker's second power refused saying exactly why.

A game keeps the actions it applied (``Game.actions``: undo takes the last back, a copy keeps them); its record
(``Game.record``, ``save(path, record=True)``, what ``play --out`` writes under ``played:``) holds the start, the
actions, the dice (the seed when it replays the game, a judge's faces) and the faces each step rolled, and plays
back (``Game.replay``, ``play FILE --replay``) to the identical state and log; a bad record is one line naming the
file and the step.  ``simulate`` piped or not says why it goes to Monte Carlo before the runs, on stdout above a
table and on stderr beside JSON, CSV or ``--quiet``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from _bots import random_walk
from _cli import result_of, run
from herohammer import Game, HerohammerError, IllegalActionError, Reroll, ScriptedDice, SeededDice
from herohammer.records import RecordedDice
from herohammer.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
LIBRARIAN = EX / "40k3_librarian_psychic.yaml"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
WALKS = [EX / "40k3_whole_turn.yaml", EX / "t9a_whole_turn.yaml", EX / "40k4_chaplain_combat.yaml"]


# == the actions applied ==========================================================================================
def test_a_game_keeps_the_actions_it_applied_undo_takes_the_last_back_and_a_copy_keeps_them() -> None:
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(5))
    assert game.actions == ()
    played = random_walk(game, 5, 12)
    assert len(played) == 12 and game.actions == tuple(played)
    assert isinstance(game.actions, tuple)  # read-only: the game's own list is not handed out
    branch = game.copy()
    assert branch.actions == game.actions
    game.undo()
    assert game.actions == tuple(played[:-1]) and branch.actions == tuple(played)
    with pytest.raises(IllegalActionError):
        game.apply({"do": "shoot", "unit": "nobody", "target": "nobody"})
    assert game.actions == tuple(played[:-1])  # a refused action is not recorded


# == a record written and played back ============================================================================
@pytest.mark.parametrize("path", WALKS, ids=lambda p: p.name)
def test_a_seeded_games_record_plays_back_to_the_identical_state_and_log(path: Path, tmp_path: Path) -> None:
    game = Game.load(path, SeededDice(4))
    random_walk(game, 4, 30)
    record = game.record()
    assert record["seed"] == "4" and "dice" not in record
    assert record["actions"] == [a.to_json() for a in game.actions] and len(record["rolls"]) == len(game.actions)
    saved = tmp_path / "game.json"
    game.save(saved, record=True)
    again = Game.replay(saved)
    assert again.state == game.state and again.log == game.log and again.actions == game.actions
    assert Game.replay(game.to_data(record=True)).log == game.log  # the data alike, without a file
    assert "played" not in json.loads(json.dumps(game.to_data()))  # a plain save stays a plain scenario


@pytest.mark.parametrize("path", WALKS[:2], ids=lambda p: p.name)
def test_after_an_undo_that_rolled_the_seed_is_not_written_and_the_faces_play_the_game_back(path: Path) -> None:
    game = Game.load(path, SeededDice(7))
    random_walk(game, 7, 20)
    rolled = len(game.dice.log)
    while len(game.dice.log) == rolled:  # undo until an action that rolled is taken back: the stream moved on
        game.undo()
    random_walk(game, 8, 10)
    record = game.record()
    assert "seed" not in record and "dice" not in record  # the seed would not give these faces again
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.log == game.log


def test_a_judges_dice_are_written_as_the_faces_read_and_play_the_game_back() -> None:
    faces = [random.Random(3).randint(1, 6) for _ in range(2000)]
    game = Game.load(EX / "40k3_whole_turn.yaml", ScriptedDice(faces))
    random_walk(game, 3, 25)
    record = game.record()
    used = len(faces) - game.dice.remaining
    assert record["dice"] == faces[:used] and "seed" not in record
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.log == game.log


@pytest.mark.parametrize("seed", range(40))
def test_recorded_re_rolls_give_the_same_value_and_faces_whoever_rolled_them(seed: int) -> None:
    """A seeded pool logs a re-rolled die's kept face, a judge's every face read: both play back as logged."""
    rng = random.Random(seed)
    n, target = rng.randint(1, 6), rng.randint(2, 6)
    seeded = SeededDice(seed)
    seeded.pool(n, target, "to hit", "core.test.characteristic", Reroll.FAILED)
    judged = ScriptedDice([rng.randint(1, 6) for _ in range(2 * n)])
    judged.pool(n, target, "to hit", "core.test.characteristic", Reroll.FAILED)
    for dice in (seeded, judged):
        logged = dice.log[0]
        again = RecordedDice([logged.faces or ()])
        assert again.pool(n, target, "to hit", "core.test.characteristic", Reroll.FAILED) == logged.value
        assert again.log == dice.log


# == play --out, play --replay ===================================================================================
def _played(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Path:
    out = tmp_path / "game.yaml"
    code, _, err = run(["play", str(LIBRARIAN), "--action", json.dumps(SMITE), "--action", '{"do": "end_phase"}',
                        *extra, "--out", str(out)], capsys)
    assert code == 0, err
    return out


def test_play_out_says_which_actions_were_played_and_play_replay_verifies_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _played(tmp_path, capsys, "--seed", "3")
    played = yaml.safe_load(out.read_text(encoding="utf-8"))["played"]
    assert played["actions"] == [SMITE, {"do": "end_phase"}] and played["seed"] == "3"
    assert played["start"]["ruleset"] == "40k3" and len(played["rolls"]) == 2 and played["rolls"][0]
    code, text, err = run(["play", str(out), "--replay"], capsys)
    assert code == 0, err
    lines = text.splitlines()
    assert lines[0] == f"replaying {out}: 2 actions from its start, with seed 3"
    assert f"verified: the 2 actions recorded replay from played.start to the state saved in {out}" in text
    assert any("psychic test for Smite" in line for line in lines)
    code, text, err = run(["play", str(out), "--replay", "--json"], capsys)
    result = result_of(text)
    assert code == 0 and result["verified"] is True and result["replayed"] == 2 and result["seed"] == 3


def test_a_game_played_on_in_place_replays_with_the_record_it_was_played_on_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _played(tmp_path, capsys, "--dice", "3,4,5,6,6,6,6,1,1,1,2,2,4,4")
    code, _, err = run(["play", str(out), "--action", '{"do": "end_phase"}', "--seed", "9", "--out", str(out)],
                       capsys)
    assert code == 0, err
    code, text, err = run(["play", str(out), "--replay"], capsys)
    assert code == 0, err
    assert "and the 1 earlier record it was played on from" in text


def _bad(out: Path, change: Any) -> Path:
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    change(data, data["played"])
    bad = out.with_name("bad.yaml")
    bad.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return bad


BAD_RECORDS = {
    "unknown action": (lambda d, p: p["actions"].__setitem__(1, {"do": "teleport"}),
                       "played.actions[1] (step 2): field do"),
    "illegal here": (lambda d, p: (p["actions"].__setitem__(1, SMITE), p["rolls"].__setitem__(1, [])),
                     "played.actions[1] (step 2): illegal at this point of the game: librarian has already used a "
                     "psychic power this turn"),
    "another seed": (lambda d, p: p.__setitem__("seed", "4"), "played.rolls[0] (step 1): the dice do not match"),
    "other faces": (lambda d, p: p["rolls"][0].__setitem__(0, [6, 6]),
                    "played.rolls[0] (step 1): the dice do not match the record: the step rolled [2 5]"),
    "too few faces": (lambda d, p: (p.pop("seed"), p["rolls"][0].__setitem__(1, [1])),
                      "played.actions[0] (step 1): the dice do not match the record: roll #2"),
    "another end": (lambda d, p: d.__setitem__("turn", 2), "do not reach the state saved in this file"),
    "no start": (lambda d, p: p.pop("start"), "played.start: missing"),
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_a_bad_record_is_one_line_naming_the_file_and_the_step(case: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    change, words = BAD_RECORDS[case]
    bad = _bad(_played(tmp_path, capsys, "--seed", "3"), change)
    before = bad.read_bytes()
    code, text, err = run(["play", str(bad), "--replay"], capsys)
    assert code == 2 and text == "" and len(err.strip().splitlines()) == 1, err
    assert str(bad) in err and words in err and "Traceback" not in err, err
    with pytest.raises(HerohammerError) as caught:
        Game.replay(bad)
    assert words in str(caught.value)
    assert bad.read_bytes() == before


def test_an_illegal_step_cites_the_rule_that_refuses_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    change, _ = BAD_RECORDS["illegal here"]
    bad = _bad(_played(tmp_path, capsys, "--seed", "3"), change)
    with pytest.raises(IllegalActionError) as caught:
        Game.replay(bad)
    assert caught.value.rules == ("40k3.psyker.test",)


def test_replay_takes_its_dice_from_the_record_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _played(tmp_path, capsys, "--seed", "3")
    code, _, err = run(["play", str(out), "--replay", "--seed", "4"], capsys)
    assert code == 2 and "--seed not taken with it" in err
    code, _, err = run(["play", str(LIBRARIAN), "--replay"], capsys)
    assert code == 2 and f"{LIBRARIAN}: played: no record of play here" in err
    code, _, err = run(["play", str(LIBRARIAN)], capsys)
    assert code == 2 and "--action" in err and "--replay" in err


# == simulate: the switch to Monte Carlo said first =============================================================
def _simulate(*extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "herohammer", "simulate", "examples/40k3_librarian_psychic.yaml",
                           "--runs", "200", "--seed", "1", *extra], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300, check=False)


def test_simulate_piped_says_why_it_plays_monte_carlo_before_the_table() -> None:
    done = _simulate()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("examples/40k3_librarian_psychic.yaml (40k3): 200 runs")
    # "more than" since reliability round 46: the plan's estimate stops once its paths have settled it
    assert lines[1].startswith("note: no exact odds: exact enumeration would take more than ")
    assert "(budget 5,000)" in lines[1] and lines[1].endswith("playing the 200 runs as Monte Carlo games instead")
    assert lines[2].startswith("┏")  # the table comes after it
    assert sum("note: no exact odds" in line for line in lines) == 1


@pytest.mark.parametrize("flag", ["--csv", "--json", "--quiet"])
def test_machine_readable_and_quiet_stdout_stays_clean_the_note_on_stderr(flag: str) -> None:
    done = _simulate(flag)
    assert done.returncode == 0, done.stderr
    assert "no exact odds" not in done.stdout
    assert [line for line in done.stderr.splitlines() if line.startswith("note: no exact odds: ")]
    if flag == "--csv":
        assert next(csv.reader(io.StringIO(done.stdout)))[0] == "outcome"
    elif flag == "--json":
        assert result_of(done.stdout)["method"] == "engine"


def test_the_library_hears_the_switch_once_with_its_reason_and_nothing_when_exact() -> None:
    heard: list[str] = []
    result = simulate(yaml.safe_load(LIBRARIAN.read_text(encoding="utf-8")), 50, 1, notice=heard.append)
    assert heard == [f"no exact odds: {result.meta['too_large']}; playing the 50 runs as Monte Carlo games instead"]
    test = {"ruleset": "40k3", "phase": "movement", "active": "red",
            "sides": {"red": [{"id": "squad", "models": [{"name": "S", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                          "at": [10, 10]}]}],
                      "blue": [{"id": "far", "models": [{"name": "F", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                        "at": [60, 40]}]}]},
            "plan": [{"do": "leadership_test", "unit": "squad"}]}
    quiet: list[str] = []
    assert simulate(test, 50, 1, notice=quiet.append).exact_known and quiet == []
    with pytest.raises(HerohammerError, match="simulate: notice"):
        simulate(test, 50, 1, notice="print")  # type: ignore[arg-type]


# == a psyker's second power ====================================================================================
def _librarian(ruleset: str, faces: list[int]) -> Game:
    data = yaml.safe_load(LIBRARIAN.read_text(encoding="utf-8"))
    data["ruleset"] = ruleset
    return Game.from_data(data, ScriptedDice(faces))


TEST_RULE = {"40k3": "40k3.psyker.test", "40k4": "published.40k4-psychic-test"}


@pytest.mark.rule("40k3.psyker.test")
@pytest.mark.rule("published.40k4-psychic-test")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_after_a_failed_psychic_test_the_refusal_says_the_test_failed(ruleset: str) -> None:
    game = _librarian(ruleset, [5, 6])  # 11 against Ld 10: failed, no Perils (neither 2 nor 12)
    assert game.check(SMITE).legal
    events = game.apply(SMITE)
    assert "failed" in events[0].message and not any(e.kind == "power_used" for e in events)
    ruling = game.check(SMITE)
    assert not ruling.legal and ruling.rules == (TEST_RULE[ruleset],)
    assert ruling.reason.startswith("librarian failed its psychic test this turn: ")
    assert "already used" not in ruling.reason and "never more than one power" not in ruling.reason
    game.undo()
    assert game.check(SMITE).legal  # the refusal came from the test taken, nothing else


@pytest.mark.rule("40k3.psyker.test")
@pytest.mark.rule("published.40k4-psychic-test")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_after_a_power_used_the_refusal_says_the_one_power_is_used(ruleset: str) -> None:
    game = _librarian(ruleset, [3, 4, 5, 6, 6, 6, 6, 1, 1, 1, 2, 2, 2, 2, 2, 2])
    game.apply(SMITE)
    assert any(e.kind == "power_used" for e in game.log)
    ruling = game.check(SMITE)
    assert not ruling.legal and ruling.rules == (TEST_RULE[ruleset],)
    assert ruling.reason.startswith("librarian has already used a psychic power this turn: ")
    assert "never more than one power a turn" in ruling.reason
    assert ("the rulebook does not say how many powers" in ruling.reason) == (ruleset == "40k4")
