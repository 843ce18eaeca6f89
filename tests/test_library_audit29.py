"""Round 29's audit of the library as a bot's developer and a designer use it: what they met, held here.

- Games played in threads at once: the module-wide memos (an action's key, an action read from a
  mapping) dropped their oldest entry by a look-up then a delete, and two threads dropping the same
  entry raised ``KeyError`` out of ``legal_actions``/``apply``.
- ``from herohammer import Game`` under ``mypy --strict`` (``no_implicit_reexport``): the package's
  names were imported under ``TYPE_CHECKING`` without being marked as exported, and ``__all__`` was
  built at run time, so a strict client was told the package does not export them.
"""

from __future__ import annotations

import random
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import herohammer
from herohammer import actions as actions_module
from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.scenario import state_to_data

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


class _DroppedMeanwhile(dict):  # type: ignore[type-arg]
    """A memo whose oldest entry another thread drops between the look-up of the oldest key and its delete."""

    def __iter__(self) -> Iterator[Any]:
        keys = list(super().__iter__())
        if keys:
            super().__delitem__(keys[0])  # the other thread got there first
        return iter(keys)


def test_an_action_key_memo_emptied_by_another_thread_meanwhile_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    full = _DroppedMeanwhile({i: (object(), i) for i in range(actions_module._KEYS_KEPT)})
    monkeypatch.setattr(actions_module, "_KEYS", full)
    action = herohammer.parse_action({"do": "end_phase"})
    assert actions_module.action_key(action) == actions_module.action_key(herohammer.parse_action('{"do": "end_phase"}'))
    assert len(full) <= actions_module._KEYS_KEPT


def test_an_action_read_memo_emptied_by_another_thread_meanwhile_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    full = _DroppedMeanwhile({("k", i): object() for i in range(actions_module._READ_KEPT)})
    monkeypatch.setattr(actions_module, "_READ", full)
    action = herohammer.parse_action({"do": "shoot", "unit": "tactical", "target": "boyz"})
    assert action.do == "shoot"
    assert len(full) <= actions_module._READ_KEPT


def _walk(path: Path, seed: int, steps: int = 150) -> tuple[dict[str, Any], list[str]]:
    game = Game.load(path, SeededDice(seed))
    rng = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        busy = [a for a in legal if a.do != "end_phase"]
        game.apply(rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal))
    return state_to_data(game.state), [repr(e) for e in game.log]


def test_games_played_in_threads_at_once_play_as_they_do_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions_module, "_KEYS_KEPT", 8)  # full memos, dropping entries all the time
    monkeypatch.setattr(actions_module, "_READ_KEPT", 8)
    jobs = [(EXAMPLES / name, seed) for name in ("40k3_whole_turn.yaml", "40k4_librarian_joins_tactical.yaml",
                                                  "t9a_whole_turn.yaml") for seed in (1, 2)]
    alone = [_walk(path, seed) for path, seed in jobs]
    results: dict[int, Any] = {}

    def play(i: int) -> None:
        try:
            results[i] = _walk(*jobs[i])
        except Exception as error:  # noqa: BLE001 - the failure is what the test reports
            results[i] = error

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as the interpreter allows
    try:
        threads = [threading.Thread(target=play, args=(i,)) for i in range(len(jobs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert [results[i] for i in range(len(jobs))] == alone


STRICT_CLIENT = """
    from herohammer import Game, SeededDice, HerohammerError, IllegalActionError, Action, Event, GameState

    def play(path: str, seed: int) -> GameState:
        game = Game.load(path, SeededDice(seed))
        legal: list[Action] = game.legal_actions()
        events: list[Event] = game.apply(legal[0])
        try:
            game.undo()
        except (IllegalActionError, HerohammerError):
            pass
        return game.state
"""


def test_a_strict_mypy_client_may_import_the_public_names_from_the_package(tmp_path: Path) -> None:
    from _mypy import run_mypy

    client = tmp_path / "client.py"
    client.write_text(textwrap.dedent(STRICT_CLIENT))
    out, err, status = run_mypy(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(client)])
    assert status == 0, out + err


def test_the_package_lists_its_public_names_where_a_type_checker_reads_them() -> None:
    import ast

    tree = ast.parse((ROOT / "src" / "herohammer" / "__init__.py").read_text())
    literal = [n for n in tree.body if isinstance(n, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)]
    assert literal, "__all__ is assigned"
    names = ast.literal_eval(literal[0].value)  # a literal list: what mypy and editors read
    assert sorted(names) == sorted(["__version__", *herohammer._PUBLIC])


# -- Game.copy: one source of dice, each game its own record of rolls --------------------------------------------

SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
BOLTERS = {"do": "shoot", "unit": "tactical", "target": "boyz"}


def test_undoing_in_a_copy_leaves_the_original_games_record_of_rolls_alone() -> None:
    game = Game.load(EXAMPLES / "40k3_librarian_psychic.yaml", SeededDice(1))
    game.apply(SMITE)
    rolls = game.dice.log
    assert rolls
    branch = game.copy()
    branch.undo()  # a search's branch takes the Smite back
    assert game.dice.log == rolls  # the original still stands after the Smite: its rolls are still its record
    assert branch.dice.log == ()
    branch.apply(BOLTERS)
    assert game.dice.log == rolls  # nor does the branch's volley join the original's record
    assert branch.dice.log and "bolter" in branch.dice.log[0].purpose  # the branch keeps its own volley's rolls


def test_a_copy_rolls_on_the_original_dice_not_a_replay_of_them() -> None:
    game = Game.load(EXAMPLES / "40k3_librarian_psychic.yaml", SeededDice(1))
    start = game.state
    one_pair = SeededDice(1)  # two games on one pair of dice: the second rolls what follows the first's rolls
    first, second = Game(start, one_pair), Game(start, one_pair)
    first.apply(SMITE)
    second.apply(SMITE)
    branch = game.copy()
    branch.apply(SMITE)  # the branch rolls first ...
    game.apply(SMITE)  # ... and the original rolls the dice's next faces: no foreknowledge from a branch
    assert branch.dice.log == first.dice.log[:len(branch.dice.log)] and branch.log == first.log
    assert game.log == second.log


def test_a_copy_of_a_game_with_a_judges_dice_takes_the_next_faces_too() -> None:
    from herohammer.dice import ScriptedDice

    faces = [3, 4, 5, 6, 6, 6, 6, 1, 1, 1] * 2
    game = Game.load(EXAMPLES / "40k3_librarian_psychic.yaml", ScriptedDice(faces))
    branch = game.copy()
    branch.apply(SMITE)
    assert branch.dice.remaining == game.dice.remaining == 10  # one judge's dice: the faces a roll took are gone
    assert game.dice.log == ()


# -- sweep --csv: the grid as a spreadsheet reads it --------------------------------------------------------------

DEMO_T9A = ROOT / "src" / "herohammer" / "examples" / "demo_t9a_wizard_charges_out.yaml"
ADV = "sides.highborn[wizard].models[0].profile.Adv"


def test_sweep_writes_csv_one_row_per_variant_and_outcome_with_the_varied_values(capsys: pytest.CaptureFixture[str]) -> None:
    import csv
    import io
    import json

    from _cli import result_of, run

    argv = ["sweep", str(DEMO_T9A), "--vary", f"{ADV}=4,6", "--runs", "400", "--seed", "3"]
    code, out, err = run([*argv, "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == [ADV, "outcome", "value", "count", "runs", "probability", "ci95_low", "ci95_high",
                             "exact", "exact_float", "seed", "scenario_sha256", "plan_sha256", "herohammer_version"]
    code, text, _ = run([*argv, "--json"], capsys)
    sweep = result_of(text)
    expected = [(str(v["values"][ADV]), r["outcome"], "" if r["value"] is None else str(r["value"]), str(r["count"]),
                 r["exact"] or "") for v in sweep["variants"] for r in v["result"]["outcomes"]]
    assert [(r[ADV], r["outcome"], r["value"], r["count"], r["exact"]) for r in rows] == expected
    assert {r["runs"] for r in rows} == {"400"}
    assert json.loads(json.dumps(rows))  # plain text cells


def test_sweep_csv_with_outcome_keeps_those_rows_and_says_zero_where_a_variant_never_saw_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    import csv
    import io

    from _cli import run

    code, out, err = run(["sweep", str(DEMO_T9A), "--vary", "sides.highborn[wizard].models[0].profile.W=1,9",
                          "--runs", "300", "--seed", "3", "--outcome", "wizard: destroyed", "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["sides.highborn[wizard].models[0].profile.W"], r["outcome"]) for r in rows] == [
        ("1", "wizard: destroyed"), ("9", "wizard: destroyed")]
    tough = rows[1]
    assert tough["count"] == "0" and float(tough["probability"]) == 0.0 and float(tough["ci95_high"]) > 0


def test_sweep_refuses_csv_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    from _cli import run

    code, out, err = run(["sweep", str(DEMO_T9A), "--vary", f"{ADV}=4", "--runs", "10", "--csv", "--json"], capsys)
    assert code == 2 and "not allowed with" in out + err  # under --json the refusal is JSON too


# -- --runs 1e6: how designers write a large count ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "runs"), [("1e5", 100_000), ("1E6", 1_000_000), ("2.5e3", 2500), ("100_000", 100_000)])
def test_runs_take_a_whole_number_written_with_an_exponent(text: str, runs: int) -> None:
    from herohammer.commands.args import whole_number

    assert whole_number("--runs", 1, 10**9)(text) == runs


@pytest.mark.parametrize(("text", "says"), [("1.5", "whole number"), ("1e-3", "whole number"), ("2.55e1", "whole number"),
                                            ("1e10", "from 1 to 1000000000"), ("1e99999", "from 1 to 1000000000, got 1e99999$"),
                                            ("1e", "whole number"), ("e5", "whole number")])
def test_runs_written_with_an_exponent_are_still_whole_and_in_range(text: str, says: str) -> None:
    import argparse

    from herohammer.commands.args import whole_number

    with pytest.raises(argparse.ArgumentTypeError, match=says):
        whole_number("--runs", 1, 10**9)(text)


def test_simulate_runs_1e4_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from _cli import result_of, run

    code, out, err = run(["simulate", str(DEMO_T9A), "--runs", "1e4", "--seed", "1", "--json"], capsys)
    assert code == 0, out + err
    assert result_of(out)["runs"] == 10_000


# -- sweep --plot: each outcome against the varied value ---------------------------------------------------------

W = "sides.highborn[wizard].models[0].profile.W"


def test_sweep_plot_draws_each_outcome_against_the_first_varied_value(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    from _cli import result_of, run

    argv = ["sweep", str(DEMO_T9A), "--vary", f"{ADV}=4,6", "--vary", f"{W}=1,3", "--runs", "300", "--seed", "3",
            "--outcome", "wizard: destroyed", "--outcome", "charge.outcome: charged"]
    png = tmp_path / "grid.png"
    code, out, err = run([*argv, "--plot", str(png)], capsys)
    assert code == 0, err
    assert f"plot: 2 panels written to {png}" in out
    assert png.read_bytes().startswith(b"\x89PNG")
    code, text, _ = run([*argv, "--json"], capsys)
    sweep = result_of(text)

    from herohammer.commands.simulate_cmd import sweep_panels
    from herohammer.sweep import cell

    panels = sweep_panels(sweep, ["wizard: destroyed", "charge.outcome: charged"])
    assert [p.title for p in panels] == ["wizard: destroyed", "charge.outcome: charged"]
    destroyed = panels[0]
    assert destroyed.x == ("4", "6") and destroyed.x_label == "profile.Adv"
    assert [line.name for line in destroyed.lines] == ["profile.W = 1", "profile.W = 3"]
    by_values = {(v["values"][ADV], v["values"][W]): v["result"] for v in sweep["variants"]}
    for line, w in zip(destroyed.lines, (1, 3)):
        assert list(line.simulated) == [cell(by_values[(adv, w)], "wizard: destroyed")[0] for adv in (4, 6)]
        assert all(lo <= s <= hi for lo, s, hi in zip(line.low, line.simulated, line.high))
        assert all(e is not None for e in line.exact)  # the demo compiles: exact values to mark


def test_sweep_plot_path_is_checked_before_any_variant_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from _cli import run

    code, out, err = run(["sweep", str(DEMO_T9A), "--vary", f"{ADV}=4", "--runs", "10", "--plot",
                          str(tmp_path / "grid.txt")], capsys)
    assert code == 2 and "expected a file name ending in .png" in err and "variant" not in out


# -- an apply that fails midway (a judge's dice ran out) leaves the dice as it found them ------------------------

def test_an_apply_whose_scripted_dice_ran_out_takes_no_face_and_logs_no_roll() -> None:
    from herohammer.dice import ScriptedDice
    from herohammer.errors import HerohammerError

    dice = ScriptedDice([3, 4])
    game = Game.load(EXAMPLES / "40k3_librarian_psychic.yaml", dice)
    before = game.state
    with pytest.raises(HerohammerError, match="scripted dice ran out at roll #2"):
        game.apply(SMITE)
    assert game.state is before and game.log == ()
    assert dice.log == () and dice.unused == (3, 4)  # the psychic test's 3 and 4 are the judge's still
    game.apply({"do": "end_phase"})  # and the game goes on from there, the faces unspent
    assert dice.unused == (3, 4)


def test_after_a_failed_apply_the_judges_next_faces_are_read_from_where_the_action_began() -> None:
    from herohammer.dice import ScriptedDice
    from herohammer.errors import HerohammerError

    dice = ScriptedDice([3, 4])
    game = Game.load(EXAMPLES / "40k3_librarian_psychic.yaml", dice)
    for _ in range(2):  # tried again: the psychic test reads 3 and 4 again, and the to-hit roll is the one short
        with pytest.raises(HerohammerError, match=r"ran out at roll #2 \(Librarian \(Smite, BS4\): to hit"):
            game.apply(SMITE)
    assert dice.unused == (3, 4)


@pytest.mark.parametrize("since", ["1", -1, 5, None, 1.5, True])
def test_take_back_refuses_a_junk_position_in_one_line(since: Any) -> None:
    from herohammer.dice import ScriptedDice
    from herohammer.errors import HerohammerError

    dice = ScriptedDice([3, 4, 5])
    dice.d6("a roll", "core.test")
    with pytest.raises(HerohammerError, match="take_back: since"):
        dice.take_back(since)
    assert len(dice.log) == 1 and dice.unused == (4, 5)


def test_the_demos_as_csv_are_one_table_with_a_column_naming_each_demo(capsys: pytest.CaptureFixture[str]) -> None:
    import csv
    import io

    from _cli import run

    code, out, err = run(["simulate", "--runs", "200", "--seed", "1", "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["scenario", "outcome", "value", "count", "runs", "probability", "ci95_low", "ci95_high", "exact",
                       "exact_float", "seed", "scenario_sha256", "plan_sha256", "herohammer_version"]
    assert all(r[0] != "scenario" for r in rows[1:])  # one header, not one per demo
    assert {r[0] for r in rows[1:]} == {"demo_40k3_librarian.yaml", "demo_t9a_wizard_charges_out.yaml"}
    assert {len(r) for r in rows} == {14}
