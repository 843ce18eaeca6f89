"""Round 41, as a bot or digital-table developer and a designer use herohammer.

A game's record is written from ``Game.steps`` (each applied action with the state before it, its dice and the
rolls it made) and a roll's logged faces are read back by ``Request.from_logged_faces``: no module but ``game.py``
reads a ``Game``'s private state, and nothing reads a request's fields by ``getattr``.

``sweep`` says why a variant is played as Monte Carlo games, once per variant that switches and before that
variant's runs end, as ``simulate`` does (``run_sweep``'s ``notice``; from worker processes through
``parallel.tell``, from a Dask worker as a logged event): above the table on a piped stdout, on stderr beside
JSON, CSV or ``--quiet``.

``simulate(advance=...)`` hears the runs as they are played or drawn, on any method and number of processes: the
web page's progress is the runs done of the runs asked (``tests/test_web_browser_41.py``), not the seconds gone by.
"""

from __future__ import annotations

import ast
import csv
import io
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from _bots import random_walk
from _cli import result_of
from herohammer import Game, HerohammerError, IllegalActionError, ScriptedDice, SeededDice, Step
from herohammer.dice import Highest, Pool, Total
from herohammer.simulate import simulate
from herohammer.sweep import run_sweep

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "herohammer"
EX = ROOT / "examples"
WALKS = [EX / "40k3_whole_turn.yaml", EX / "t9a_whole_turn.yaml", EX / "40k4_chaplain_combat.yaml"]


# == Game.steps: what a record is written from ==================================================================
@pytest.mark.parametrize("path", WALKS, ids=lambda p: p.name)
def test_steps_give_each_action_with_the_state_before_it_and_the_rolls_it_made(path: Path) -> None:
    game = Game.load(path, SeededDice(11))
    start = game.state
    random_walk(game, 11, 25)
    states, logs = [], []
    replay = Game(start, SeededDice(11))  # the same actions and seed, each step's state and rolls seen as it happens
    for action in game.actions:
        states.append(replay.state)
        before = len(replay.dice.log)
        replay.apply(action)
        logs.append(tuple(replay.dice.log[before:]))
    steps = game.steps()
    assert isinstance(steps, tuple) and all(isinstance(s, Step) for s in steps)
    assert [s.action for s in steps] == list(game.actions)
    assert [s.before for s in steps] == states and steps[0].before is start
    assert [s.rolls for s in steps] == logs
    assert sum(len(s.rolls) for s in steps) == len(game.dice.log)
    assert all(s.dice is game.dice for s in steps)


def test_steps_follow_undo_and_name_the_dice_a_step_was_given() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    judge = ScriptedDice([3, 4, 5, 6, 6, 6, 6, 1, 1, 1, 2, 2, 2, 2, 2, 2])
    game.apply(smite, dice=judge)
    game.apply({"do": "end_phase"})
    first, second = game.steps()
    assert first.dice is judge and second.dice is game.dice
    assert first.rolls == tuple(judge.log) and second.rolls == ()
    assert "dice" not in game.record() and "seed" not in game.record()  # not one dice for the game: faces only
    assert Game.replay(game.to_data(record=True)).state == game.state
    game.undo()
    assert [s.action.do for s in game.steps()] == ["manifest"]
    game.undo()
    assert game.steps() == ()


# == Request.from_logged_faces: a roll read back from its log ==================================================
@pytest.mark.parametrize("seed", range(30))
def test_a_logged_roll_reads_back_to_its_value_whoever_rolled_it(seed: int) -> None:
    """A seeded roll logs a re-rolled die's kept face, a judge's dice every face read: both read back to the value."""
    rng = random.Random(seed)
    n, target, below = rng.randint(1, 5), rng.randint(2, 6), rng.randint(2, 6)
    requests = [Total("t", "core.test.characteristic", n, below), Highest("h", "core.test.characteristic", n, below),
                Pool("p", "core.test.characteristic", n, target, below)]
    for request in requests:
        for dice in (SeededDice(seed), ScriptedDice([rng.randint(1, 6) for _ in range(2 * n)])):
            value = dice.roll(request)
            faces = dice.log[-1].faces or ()
            assert request.from_logged_faces(faces) == (value, len(faces))
    plain = Pool("p", "core.test.characteristic", 3, 4)
    assert plain.from_logged_faces((1, 4, 6)) == plain.from_faces((1, 4, 6)) == (2, 3)


# == no module but game.py reads a Game's private state =========================================================
def _private_reads(tree: ast.AST) -> list[str]:
    """The ``._history``/``._judged``/``._legal``/``._log`` attributes a module reads, and every ``getattr`` of a
    request."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("_history", "_judged", "_legal", "_log"):
            found.append(f"line {node.lineno}: .{node.attr}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "request"):
            found.append(f"line {node.lineno}: getattr(request, ...)")
    return found


def test_no_module_but_game_py_reads_a_games_private_state() -> None:
    found = {str(p.relative_to(SRC)): reads for p in sorted(SRC.rglob("*.py")) if p.name != "game.py"
             if (reads := _private_reads(ast.parse(p.read_text(encoding="utf-8"))))}
    assert found == {}
    game_py = ast.parse((SRC / "game.py").read_text(encoding="utf-8"))
    assert _private_reads(game_py)  # the scan does find them where they are


# == sweep: each variant's switch to Monte Carlo said before its runs ============================================
LIBRARIAN = EX / "40k3_librarian_psychic.yaml"
PHASES = ("phase", ["movement", "assault"])  # from the movement phase the default policy's game is too large to walk


def _librarian() -> dict[str, Any]:
    return yaml.safe_load(LIBRARIAN.read_text(encoding="utf-8"))


def _expected(result: dict[str, Any], runs: int) -> str:
    return (f"variant 0 (phase=movement): no exact odds: {result['variants'][0]['result']['too_large']}; playing the "
            f"{runs:,} runs as Monte Carlo games instead")


def test_run_sweep_says_the_switch_of_the_variants_that_switch_only() -> None:
    heard: list[str] = []
    result = run_sweep(_librarian(), [PHASES], 60, 1, notice=heard.append)
    assert [v["result"]["method"] for v in result["variants"]] == ["engine", "compiled"]
    assert heard == [_expected(result, 60)]  # the compiled variant says nothing
    with pytest.raises(HerohammerError, match="run_sweep: notice: expected a function taking one line of text"):
        run_sweep(_librarian(), [PHASES], 60, 1, notice="print")  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [None, 2])
def test_each_variants_switch_is_heard_before_that_variant_ends_on_processes_too(workers: int | None) -> None:
    order: list[str] = []
    result = run_sweep(_librarian(), [("turn", [1, 3, 5])], 60, 1, workers=workers, notice=order.append,
                       advance=lambda n: order.append("done"))
    assert [v["result"]["method"] for v in result["variants"]] == ["engine"] * 3
    notes = [line for line in order if line != "done"]
    assert sorted(notes) == [f"variant {i} (turn={t}): no exact odds: {v['result']['too_large']}; playing the 60 "
                             "runs as Monte Carlo games instead" for i, (t, v) in enumerate(zip([1, 3, 5],
                                                                                               result["variants"]))]
    for k, at in enumerate(i for i, line in enumerate(order) if line == "done"):  # each variant's before its end
        assert sum(line != "done" for line in order[:at]) >= k + 1


def test_a_dask_workers_switch_is_heard_by_the_sweep_once() -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        heard: list[str] = []
        result = run_sweep(_librarian(), [PHASES], 60, 1, scheduler=cluster.scheduler_address, notice=heard.append)
    assert heard == [_expected(result, 60)]


def _sweep(*extra: str) -> subprocess.CompletedProcess[str]:
    """``herohammer sweep`` in a child process, its stdout a pipe (not a terminal)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "herohammer", "sweep", str(LIBRARIAN.relative_to(ROOT)),
                           "--vary", "phase=movement,assault", "--runs", "60", "--seed", "1", *extra],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False)


def test_sweep_piped_says_the_switch_under_its_header_and_before_the_table() -> None:
    done = _sweep()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("examples/40k3_librarian_psychic.yaml: 2 variants x 60 runs")
    assert lines[1] == "  vary phase"  # a top-level field named once (session 42; was "vary phase: phase")
    # "more than" since reliability round 46: the plan's estimate stops once its paths have settled it
    assert lines[2].startswith("note: variant 0 (phase=movement): no exact odds: exact enumeration would take more "
                               "than ")
    assert lines[2].endswith("; playing the 60 runs as Monte Carlo games instead")
    assert lines[3].startswith("┏")
    assert sum("no exact odds" in line for line in lines) == 1 and "no exact odds" not in done.stderr


@pytest.mark.parametrize("extra", [["--csv"], ["--json"], ["--quiet"], ["--csv", "--workers", "2"]],
                         ids=" ".join)
def test_sweep_beside_machine_readable_or_quiet_output_says_it_on_stderr(extra: list[str]) -> None:
    done = _sweep(*extra)
    assert done.returncode == 0, done.stderr
    assert "no exact odds" not in done.stdout
    said = [line for line in done.stderr.splitlines() if "no exact odds" in line]
    assert len(said) == 1 and said[0].startswith("note: variant 0 (phase=movement): no exact odds: "), done.stderr
    if "--csv" in extra:
        assert next(csv.reader(io.StringIO(done.stdout)))[:2] == ["phase", "outcome"]
    elif "--json" in extra:
        assert [v["result"]["method"] for v in result_of(done.stdout)["variants"]] == ["engine", "compiled"]


# == simulate's count of runs: what the web page shows as its progress ============================================
SMALL = {"ruleset": "40k3", "phase": "movement", "active": "red",
         "sides": {"red": [{"id": "squad", "models": [{"name": "S", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                       "at": [10, 10]}]}],
                   "blue": [{"id": "far", "models": [{"name": "F", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                     "at": [60, 40]}]}]},
         "plan": [{"do": "leadership_test", "unit": "squad"}]}


@pytest.mark.parametrize("workers", [None, 2])
@pytest.mark.parametrize("case", ["compiled", "engine", "too large"])
def test_simulate_counts_every_run_it_plays_or_draws_whatever_the_method(case: str, workers: int | None) -> None:
    data, method = (_librarian(), "auto") if case == "too large" else (SMALL, case)
    heard: list[int] = []
    result = simulate(data, 3000, 1, method=method, workers=workers, advance=heard.append)
    assert result.meta["method"] == ("engine" if case == "too large" else case)
    assert sum(heard) == 3000 and all(n > 0 for n in heard)
    with pytest.raises(HerohammerError, match="simulate: advance: expected a function taking a count of runs"):
        simulate(SMALL, 10, 1, advance=3)  # type: ignore[arg-type]


def test_a_web_simulation_job_ends_with_every_run_counted() -> None:
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    client = TestClient(create_app())
    table = client.post("/api/tables", json={"text": LIBRARIAN.read_text(encoding="utf-8"),
                                             "filename": LIBRARIAN.name}).json()["table_id"]
    job = client.post(f"/api/tables/{table}/simulate", json={"runs": 3000, "seed": 2}).json()
    assert (job["done"], job["total"]) == (0, 3000)
    assert job["label"] == "0 of 3,000 runs: working out the exact odds first (enumerating the chance tree)"
    for _ in range(1200):
        job = client.get(f"/api/jobs/{job['id']}").json()
        if job["status"] != "running":
            break
        time.sleep(0.1)
    assert job["status"] == "done" and (job["done"], job["total"]) == (3000, 3000), job


# == a bot developer's whole game through the public names ======================================================
RULESETS = {"40k3": EX / "40k3_whole_turn.yaml", "40k4": EX / "40k4_chaplain_combat.yaml",
            "t9a": EX / "t9a_whole_turn.yaml"}


def _client() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("typed_client_round41", ROOT / "tests" / "_typed_client_round41.py")
    assert spec is not None and spec.loader is not None
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    return client


def test_the_bot_client_type_checks_strictly_without_casts(tmp_path: Path) -> None:
    from _mypy import run_mypy

    out, err, status = run_mypy(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                 str(ROOT / "tests" / "_typed_client_round41.py")])
    assert status == 0, out + err


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_bot_plays_a_whole_battle_with_odds_and_its_replay_plays_on_to_the_end(ruleset: str) -> None:
    client = _client()
    game = Game.load(RULESETS[ruleset], SeededDice(5))
    assert game.state.ruleset == ruleset
    chances = client.play(game, random.Random(5), 40)
    assert len(chances) == 40 and all(0 <= p <= 1 for p in chances)
    said = client.refusals(game)  # the rules' refusal, an action that is none, a judge without dice: by type
    assert [line.split(" ")[0] for line in said[:2]] == ["IllegalActionError", "HerohammerError"]
    assert said[2:] in ([], ["DiceRanOut"])
    on = client.replay_and_play_on(game, 6, 5_000)  # the replayed game plays on to the battle's end
    assert on.legal_actions() == [] and on.why_no_actions().rules == ("published.game-length",)
    assert on.actions[:len(game.actions)] == game.actions and len(on.actions) > len(game.actions)
    again = Game.replay(on.to_data(record=True))  # and the whole of it, record and all, plays back again
    assert again.state == on.state and again.log == on.log
    while again.actions:  # undone to the record's start, and no further
        again.undo()
    assert again.state == on.steps()[0].before
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        again.undo()


def test_a_judge_running_out_of_dice_is_told_by_an_exported_type_and_nothing_happens() -> None:
    from herohammer import DiceRanOut

    game = Game.load(LIBRARIAN)
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    judge = ScriptedDice([3])
    with pytest.raises(DiceRanOut, match=r"ran out at roll #1 \(psychic test \(Ld 10\), 2D6\)"):
        game.apply(smite, judge)  # the 2D6 psychic test, one face in hand
    assert game.actions == () and game.log == () and judge.remaining == 1 and judge.log == ()
    assert issubclass(DiceRanOut, HerohammerError)


def _faces_only_record() -> Game:
    """A game whose record holds faces alone: an undo that had rolled moved the seed's stream on."""
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(7))
    random_walk(game, 7, 20)
    rolled = len(game.dice.log)
    while len(game.dice.log) == rolled:
        game.undo()
    random_walk(game, 8, 5)
    assert "seed" not in game.record() and "dice" not in game.record()
    return game


def test_a_game_replayed_from_faces_alone_plays_on_with_new_dice() -> None:
    """It raised the record's own DiceMismatch ("roll #12 ... is not in the record") at its first roll."""
    again = Game.replay(_faces_only_record().to_data(record=True))
    recorded = len(again.actions)
    assert isinstance(again.dice, SeededDice)
    played = random_walk(again, 9, 40)
    on = again.steps()[recorded:]
    assert len(on) == len(played) and all(step.dice is again.dice for step in on)
    assert Game.replay(again.to_data(record=True)).state == again.state


def test_a_seeded_games_replay_goes_on_with_the_seeds_stream_and_given_dice_are_taken() -> None:
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(7))
    random_walk(game, 7, 10)
    again = Game.replay(game.to_data(record=True))
    random_walk(game, 3, 15)
    random_walk(again, 3, 15)
    assert again.state == game.state and again.log == game.log  # the rolls the original made next
    faces = [random.Random(4).randint(1, 6) for _ in range(500)]
    judged = Game.replay(_faces_only_record().to_data(record=True), ScriptedDice(faces))
    random_walk(judged, 9, 10)
    assert isinstance(judged.dice, ScriptedDice) and judged.dice.remaining < len(faces)
    with pytest.raises(HerohammerError, match="Game.replay: dice: expected a Dice"):
        Game.replay(game.to_data(record=True), 6)  # type: ignore[arg-type]


def test_a_judges_record_replayed_plays_on_with_new_dice_its_faces_all_read() -> None:
    faces = [random.Random(3).randint(1, 6) for _ in range(300)]
    game = Game.load(EX / "40k3_whole_turn.yaml", ScriptedDice(faces))
    random_walk(game, 3, 10)
    assert "dice" in game.record()
    again = Game.replay(game.to_data(record=True))
    random_walk(again, 4, 30)  # raised DiceRanOut at its first roll: the record's faces were all read
    assert len(again.actions) == 40


def test_any_mapping_is_an_action_as_odds_of_action_takes_it() -> None:
    from types import MappingProxyType

    game = Game.load(LIBRARIAN)
    end = MappingProxyType({"do": "end_phase"})
    assert game.check(end).legal
    game.apply(end)
    assert [a.do for a in game.actions] == ["end_phase"]
