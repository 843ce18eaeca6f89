"""Round 42, as a bot or digital-table developer and a designer use herohammer.

``Game.log`` is a tuple: a bot that appends to it or clears it got at the game's own list and broke ``undo`` and the
record; now it cannot, and a tuple read earlier stays what it was.  ``isinstance(x, Action)`` raises ``TypeError``
(``Action`` is pydantic's union read by ``do``): ``is_action(x)`` asks it, ``ACTION_TYPES`` is the tuple of action
classes.  ``Game.steps()`` is built in one pass from the last step back (it looked ahead through the history for
each step): the same steps on long games whose steps roll with several dice, in work that grows with the game's
length, not its square.  ``simulate`` and ``sweep`` given odd options (tests at the end).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from _bots import random_walk
from _cli import result_of, run
from herohammer import (ACTION_TYPES, Action, Dice, Game, IllegalActionError, ScriptedDice, SeededDice, is_action,
                        parse_action)
from herohammer.actions import ACTION_KINDS

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
WALKS = [EX / "40k3_whole_turn.yaml", EX / "t9a_whole_turn.yaml", EX / "40k4_inquisitor_retinue.yaml"]


# == Game.log: read-only ========================================================================================
def test_the_log_is_a_tuple_a_bot_cannot_change_and_undo_and_the_record_hold() -> None:
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(2))
    assert game.log == ()
    random_walk(game, 2, 15)
    log = game.log
    assert isinstance(log, tuple) and log and game.log is log  # read again unchanged: the same tuple, not a copy
    with pytest.raises(AttributeError):
        log.append(log[0])  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        game.log = ()  # type: ignore[misc]
    mine = list(game.log)
    mine.clear()  # a bot's own copy is its own
    assert game.log == log
    events = game.apply({"do": "end_phase"})
    assert game.log == log + tuple(events) and log == tuple(mine) + log  # the tuple read earlier stays as it was
    game.undo()
    assert game.log == log
    again = Game.replay(game.to_data(record=True))
    assert again.log == game.log and again.state == game.state
    assert list(game) == list(game.log)  # iterating a game iterates its log


def test_iterating_a_game_while_applying_iterates_the_log_as_it_was() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    game.apply({"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"})
    seen = []
    for event in game:
        seen.append(event)
        if len(seen) == 1:
            game.apply({"do": "end_phase"})
    assert tuple(seen) == game.log[:len(seen)] and len(game.log) > len(seen)


def test_a_copys_log_is_its_own() -> None:
    game = Game.load(EX / "t9a_whole_turn.yaml", SeededDice(4))
    random_walk(game, 4, 10)
    branch = game.copy()
    assert branch.log == game.log
    random_walk(branch, 5, 10)
    assert branch.log[:len(game.log)] == game.log and len(branch.log) > len(game.log)
    game.undo()
    assert branch.log[:len(game.log)] == game.log


# == is_action / ACTION_TYPES ===================================================================================
def test_isinstance_with_action_types_and_is_action_tell_an_action_object() -> None:
    with pytest.raises(TypeError):  # why they are needed: Action is a union read by `do`, not a class
        isinstance(1, Action)  # type: ignore[misc, arg-type]
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(1))
    offered = game.legal_actions()
    assert offered and all(is_action(a) and isinstance(a, ACTION_TYPES) for a in offered)
    assert {get_kind(t) for t in ACTION_TYPES} == set(ACTION_KINDS)  # every kind, one class each
    action = parse_action({"do": "end_phase"})
    assert is_action(action) and type(action) in ACTION_TYPES
    for value in ({"do": "end_phase"}, '{"do": "end_phase"}', "end_phase", None, 3, ACTION_TYPES[0], game):
        assert not is_action(value)  # text, a mapping, a class: not an action object (parse_action reads text)


def get_kind(cls: type) -> str:
    return str(cls.model_fields["do"].annotation.__args__[0])  # type: ignore[attr-defined]


@settings(max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(junk=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), st.binary(max_size=4),
                      st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2), st.lists(st.integers())))
def test_is_action_answers_false_for_anything_else_and_never_raises(junk: Any) -> None:
    assert is_action(junk) is False


def test_is_action_narrows_for_a_type_checker(tmp_path: Path) -> None:
    """``is_action`` is a ``TypeGuard[Action]``: after it, mypy --strict reads ``value.do`` and ``to_json``."""
    from _mypy import run_mypy

    body = "    return value.do + str(value.to_json())\n"
    for guarded in (True, False):
        client = tmp_path / f"client_{guarded}.py"
        client.write_text("from herohammer import is_action\n\n\ndef kind(value: object) -> str:\n"
                          + ("    if not is_action(value):\n        return ''\n" if guarded else "") + body,
                          encoding="utf-8")
        out, err, status = run_mypy(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                     str(client)])
        assert (status == 0) is guarded, out + err  # without the guard, `object` has no `do`


# == Game.steps: one pass, the same steps ========================================================================
def _walk_with_several_dice(path: Path, seed: int) -> tuple[Game, list[tuple[Any, Any, Dice, int]]]:
    """Walk a game to its end, each step rolled with the game's dice, a judge's, a second seeded dice or the step's
    own, and the game's dice rolled by hand between some steps; return it with what each step began with."""
    rng = random.Random(seed)
    game = Game.load(path, SeededDice(seed))
    judge = ScriptedDice([rng.randint(1, 6) for _ in range(4000)])
    other = SeededDice(seed + 1)
    seen = []
    while legal := game.legal_actions():
        busy = [a for a in legal if a.do != "end_phase"]
        action = rng.choice(busy) if busy and rng.random() < 0.9 else rng.choice(legal)
        dice = rng.choice([game.dice, game.dice, judge, other, SeededDice(rng.randrange(1000))])
        seen.append((game.state, action, dice, len(dice.log)))
        game.apply(action, dice=dice)
        if rng.random() < 0.2:
            game.dice.d6("a die rolled by hand", "core.test.characteristic")  # counts as the last step's with them
    return game, seen


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("path", WALKS, ids=lambda p: p.name)
def test_steps_on_a_long_game_rolled_with_several_dice_are_what_each_step_began_with_and_rolled(path: Path,
                                                                                              seed: int) -> None:
    game, seen = _walk_with_several_dice(path, seed)
    assert len(seen) > 40 and len({id(dice) for _, _, dice, _ in seen}) > 4
    expected = []
    for i, (before, action, dice, start) in enumerate(seen):  # a step's rolls end where its dice's next step began
        end = next((later[3] for later in seen[i + 1:] if later[2] is dice), len(dice.log))
        expected.append((before, action, dice, tuple(dice.log[start:end])))
    steps = game.steps()
    assert [(s.before, s.action, s.dice, s.rolls) for s in steps] == expected
    assert all(s.before is e[0] and s.dice is e[2] for s, e in zip(steps, expected))
    while len(game.actions) > len(seen) // 2:  # undone halfway: the steps before it, the last one's rolls cut back
        game.undo()
    half = game.steps()
    assert [s.action for s in half] == [a for _, a, _, _ in seen[:len(half)]]
    assert [s.rolls for s in half[:-1]] == [e[3] for e in expected[:len(half) - 1]]


def _lines_run_in_game_py(call: Any) -> int:
    """The lines of ``game.py`` Python runs during ``call()``: the work done, whatever else the machine is doing."""
    count = 0
    game_py = sys.modules[Game.__module__].__file__

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != game_py:
            return None
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


def test_steps_work_grows_with_the_games_length_not_its_square() -> None:
    """Each step rolled with its own dice (a judge's rolls for each): looking ahead for the next step with the same
    dice went through the whole rest of the history for every step."""
    game = Game.load(EX / "40k4_inquisitor_retinue.yaml", SeededDice(1))
    rng = random.Random(1)
    while len(game.actions) < 80 and (legal := game.legal_actions()):
        game.apply(rng.choice(legal), dice=SeededDice(len(game.actions)))
    played = len(game.actions)  # the random game may end (a side wiped out) before 80 steps
    assert played >= 60, played  # long enough for a square to stand out from a line
    whole = _lines_run_in_game_py(game.steps)
    for _ in range(played // 2):
        game.undo()
    half = _lines_run_in_game_py(game.steps)
    assert whole < 2.5 * half and whole < 10 * played, (whole, half)


# == simulate and sweep given odd options, on every bundled example ===============================================
SCENARIOS = sorted(EX.glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_one_run_of_every_example_is_said_as_one_run(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--runs 1 --quiet --json``: the answer on stdout, and a switch to Monte Carlo said for one run ("the 1 run as a
    Monte Carlo game", not "the 1 runs as Monte Carlo games") on stderr."""
    code, out, err = run(["simulate", str(path), "--runs", "1", "--seed", "3", "--quiet", "--json"], capsys)
    assert code == 0, err
    result = result_of(out)
    assert result["runs"] == 1 and all(row["count"] in (0, 1) for row in result["outcomes"])
    assert "1 runs" not in err and "Traceback" not in err
    if result["method"] == "engine" and result.get("too_large"):
        assert err.endswith("playing the 1 run as a Monte Carlo game instead\n"), err


@pytest.mark.parametrize("command", [["simulate"], ["sweep", "--vary", "turn=1,2"]], ids=["simulate", "sweep"])
@pytest.mark.parametrize("option, value, said", [
    ("--runs", "0", "--runs must be from 1 to 1000000000, got 0"),
    ("--runs", "-3", "--runs must be from 1 to 1000000000, got -3"),
    ("--runs", "1e10", "--runs must be from 1 to 1000000000, got 1e10"),
    ("--runs", "99999999999999999999999", "--runs must be from 1 to 1000000000"),
    ("--runs", "1.5", "--runs must be a whole number, got '1.5'"),
    ("--runs", "nan", "--runs must be a whole number, got 'nan'"),
    ("--seed", "-1", "--seed must be from 0 to 18446744073709551615, got -1"),
    ("--seed", "2" * 30, "--seed must be from 0 to 18446744073709551615"),
    ("--seed", "seven", "--seed must be a whole number, got 'seven'"),
    ("--seed", "", "--seed must be a whole number, got ''"),
    ("--workers", "0", "--workers must be a whole number from 1 to 1024 or auto"),
])
@pytest.mark.parametrize("shape", [[], ["--json"], ["--quiet"], ["--csv", "--quiet"]], ids=["table", "json", "quiet", "csv"])
def test_an_odd_option_is_one_line_naming_it_whatever_the_output(command: list[str], option: str, value: str, said: str,
                                                                 shape: list[str],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([command[0], str(EX / "40k3_librarian_psychic.yaml"), *command[1:], "--runs", "5", option,
                          value, *shape], capsys)
    assert code == 2, (out, err)
    if "--json" in shape:  # under --json an error is JSON too, on stdout
        assert said in json.loads(out)["error"] and err == "", (out, err)
    else:
        assert out == "" and said in err and len(err.strip().splitlines()) == 1, (out, err)


def test_sweeps_header_says_one_run_and_a_field_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["sweep", str(EX / "40k3_librarian_psychic.yaml"), "--vary", "turn=1,2", "--vary",
                          "sides.marines[1].models[0].profile.Ld=8,9", "--runs", "1", "--seed", "2"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert "2 variants x 1 run = 4 runs" not in out  # four variants: two values of each
    assert "4 variants x 1 run = 4 runs, seed 2" in " ".join(lines[:2])
    assert "  vary turn" in lines and "  vary profile.Ld: sides.marines[1].models[0].profile.Ld" in lines
    assert "the 1 run as a Monte Carlo game instead" in out and "1 runs" not in out


def test_a_compiled_simulation_of_one_outcome_says_one_distinct_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", str(EX / "40k3_librarian_woods.yaml"), "--runs", "10", "--seed", "1",
                          "--quiet"], capsys)
    assert code == 0, err
    said = " ".join(out.split())
    assert "to enumerate 1 distinct outcome with exact odds" in said, said
