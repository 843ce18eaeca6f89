"""Round 44, as a bot or digital-table developer and a designer use herohammer.

Every error herohammer raises travels through ``pickle``, ``copy`` and ``deepcopy`` whole: its message as it was
and every field (a bot running games in a process pool gets them back through pickle).  Python rebuilds an
exception by calling its class with the finished message, which ``ScenarioError(source, field, problem)`` and the
others taking more than a message refused - the pool's worker died with a ``TypeError`` in its place - and
``IllegalActionError`` said "illegal action: illegal action: ...".  A switch of a public function (``record``,
``progress``, ``fine``, ...) takes True or False only: ``to_data(record="no")`` wrote the record.
"""

from __future__ import annotations

import copy
import importlib
import multiprocessing
import pickle
import pkgutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import herohammer
from herohammer import DiceRanOut, Game, HerohammerError, ScriptedDice, SeededDice, enumerate_outcomes, simulate_file
from herohammer.errors import EnumerationTooLarge

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


# == errors through pickle and copy =============================================================================
def _every_error_class() -> set[type[BaseException]]:
    """Every subclass of the public families, found after importing every module (so a new one is not missed)."""
    for module in pkgutil.walk_packages(herohammer.__path__, "herohammer."):
        if ".web" not in module.name and not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: set[type[BaseException]] = set()
    todo: list[type[BaseException]] = [HerohammerError, EnumerationTooLarge]
    while todo:
        kind = todo.pop()
        found.add(kind)
        todo += kind.__subclasses__()
    return found


def _one_of_each() -> list[BaseException]:
    """An error of each class, built as the code builds it, with every field it has."""
    from herohammer.battlescribe import BattleScribeError
    from herohammer.book import RulingMismatch
    from herohammer.errors import (IllegalActionError, OutOfRangeError, ScenarioError, UnknownRulesetError)
    from herohammer.guards import ArgumentError
    from herohammer.limits import LimitError
    from herohammer.notation import NotationError
    from herohammer.records import DiceMismatch

    return [HerohammerError("plain"), DiceRanOut("scripted dice ran out at roll #3", ["core.psychic.test"]),
            IllegalActionError("the unit has fled", ["40k3.assault.no-charge-fled"]),
            ScenarioError("army.yaml", "sides.red[0].models", "expected a whole number"),
            OutOfRangeError("Ld", 13, "2 to 10", "core.leadership"), UnknownRulesetError("40k9", ["40k3", "t9a"]),
            EnumerationTooLarge(200_000, 9_000_000, "at step 2"), NotationError("attacks", "2q6", "dice notation"),
            RulingMismatch("entry 4: got legal"), DiceMismatch("roll #2 is not in the record"),
            LimitError("too deep"), BattleScribeError("army.ros", "not a roster"),
            ArgumentError("Game.to_data", "record", "True or False", "no")]


def test_every_error_class_has_a_case_here() -> None:
    """A new error class fails this test until it is added above (and so checked below)."""
    assert _every_error_class() == {type(e) for e in _one_of_each()}


@pytest.mark.parametrize("error", _one_of_each(), ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_every_error_round_trips_with_its_message_and_fields(error: BaseException, how: str) -> None:
    error.add_note("a note a caller added")  # kept too: notes live among the fields
    again = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "copy": copy.copy, "deepcopy": copy.deepcopy}[how](error)
    assert type(again) is type(error) and again is not error
    assert str(again) == str(error) and again.args == error.args
    assert vars(again) == vars(error) and vars(again)  # every field, and there are fields to keep
    assert "illegal action: illegal action" not in str(again)


def _play_out_of_dice(faces: list[int]) -> str:
    """Run in a pool's worker: Smite with too few judge's dice."""
    game = Game.load(EX / "40k3_librarian_psychic.yaml", ScriptedDice(faces))
    game.apply(SMITE)
    return "played"


def _load_bad(text: str) -> str:
    """Run in a pool's worker: read a scenario with a wrong field."""
    herohammer.state_from_data({"ruleset": text}, "bot.yaml")
    return "loaded"


def test_a_pools_worker_hands_back_the_error_it_met_whole() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", ScriptedDice([]))
    with pytest.raises(DiceRanOut) as here:
        game.apply(SMITE)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        with pytest.raises(DiceRanOut) as there:
            pool.submit(_play_out_of_dice, []).result()
        assert there.value.rules == here.value.rules and there.value.rules
        assert str(there.value) == str(here.value)
        with pytest.raises(HerohammerError) as bad:
            pool.submit(_load_bad, "40k9").result()
        assert "40k9" in str(bad.value) and "bot.yaml" in str(bad.value)


# == switches take True or False ================================================================================
@pytest.mark.parametrize("junk", ["no", "False", 0, 1, None, [], "", 0.0])
def test_a_switch_given_anything_but_true_or_false_is_refused_naming_it(junk: Any, tmp_path: Path) -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(1))
    game.apply(SMITE)
    calls = {
        "Game.to_data: record": lambda: game.to_data(record=junk),
        "Game.save: record": lambda: game.save(tmp_path / "saved.yaml", record=junk),
        "simulate: progress": lambda: simulate_file(EX / "40k3_librarian_psychic.yaml", 2, 1, progress=junk),
        "enumerate_outcomes: fine": lambda: enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"),
                                                               fine=junk),
        "enumerate_outcomes: positions": lambda: enumerate_outcomes(
            lambda d: d.d6("a die", "core.test.characteristic"), positions=junk),
    }
    if junk is not None:
        calls["enumerate_outcomes: merge_loops"] = lambda: enumerate_outcomes(
            lambda d: d.d6("a die", "core.test.characteristic"), merge_loops=junk)
    for said, call in calls.items():
        with pytest.raises(HerohammerError, match="expected True or False") as caught:
            call()
        assert str(caught.value).startswith(said), str(caught.value)
    assert not (tmp_path / "saved.yaml").exists()
    assert len(game.actions) == 1  # the game is as it was


def test_a_switch_given_true_or_false_does_what_it_says(tmp_path: Path) -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(1))
    game.apply(SMITE)
    assert "played" in game.to_data(record=True) and "played" not in game.to_data(record=False)
    assert "played" not in game.to_data()
    game.save(tmp_path / "with.yaml", record=True)
    game.save(tmp_path / "without.yaml", record=False)
    assert Game.replay(tmp_path / "with.yaml").state == game.state
    assert "played:" not in (tmp_path / "without.yaml").read_text()
    die = enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"), merge_loops=None)
    assert die == enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"), fine=True)


# == simulate and sweep as a designer uses them =================================================================
def test_two_varied_fields_alike_at_the_end_are_headed_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """Two Leadership values (each side's first unit) were both headed ``profile.Ld``: which was which?"""
    from _cli import run

    blue, red = "sides.blue[0].models[0].profile.Ld", "sides.red[0].models[0].profile.Ld"
    code, out, err = run(["sweep", str(EX / "40k4_hive_tyrant_target.yaml"), "--vary", f"{blue}=5,8", "--vary",
                          f"{red}=6,9", "--vary", "sides.red[0].models[1].profile.BS=3,4", "--runs", "20",
                          "--seed", "1", "--quiet", "--outcome", "termagants: falling_back"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert f"  vary blue[0].models[0].profile.Ld: {blue}" in lines and f"  vary red[0].models[0].profile.Ld: {red}" in lines
    assert "  vary profile.BS: sides.red[0].models[1].profile.BS" in lines  # told apart already: kept short
    from herohammer.commands.simulate_cmd import _headings

    assert _headings(["turn", blue]) == {"turn": "turn", blue: "profile.Ld"}
    assert _headings([blue, blue.replace("[0].profile", "[1].profile")]) == {
        blue: "models[0].profile.Ld", blue.replace("[0].profile", "[1].profile"): "models[1].profile.Ld"}


def test_one_run_is_said_as_one_run_in_the_tables_header(capsys: pytest.CaptureFixture[str]) -> None:
    from _cli import run

    code, out, err = run(["simulate", str(EX / "40k3_lone_captain_target.yaml"), "--runs", "1", "--seed", "4",
                          "--quiet"], capsys)
    assert code == 0, err
    assert "1 run of the default policy" in " ".join(out.split()) and "1 runs" not in out


def _overlap(a: Any, b: Any) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _check_figure(figure: Any) -> list[Any]:
    """Every drawn panel says what its axes are, and the figure's title lies over no panel's title."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    drawn = [ax for ax in figure.axes if ax.axison]
    top = figure._suptitle.get_window_extent(renderer)
    for ax in drawn:
        assert ax.get_ylabel() == "chance", ax.get_title()
        assert not _overlap(top, ax.title.get_window_extent(renderer)), ax.get_title()
    return drawn


def test_a_simulations_plot_labels_its_axes_and_its_title_hides_no_panels() -> None:
    import matplotlib.pyplot as plt

    from herohammer.commands.simulate_cmd import panels, simulation_figure

    result = simulate_file(EX / "t9a_wizard_charges_out.yaml", 200, 2, method="auto")
    figure, count = simulation_figure(result)
    try:
        drawn = _check_figure(figure)
        assert len(drawn) == count == len(panels(result))
        by_title = {ax.get_title(): ax for ax in drawn}
        assert by_title["spearmen: models lost"].get_xlabel() == "models lost"
        assert by_title["event: fight"].get_xlabel() == "times logged in the run"  # fights, not a value of a fight
        assert by_title["spearmen: chance of each"].get_xlabel() == ""  # its ticks name each bar
        numeric = {r.outcome for r in result.rows() if r.value is not None}
        assert all(by_title[t].get_xlabel() for t in numeric)
    finally:
        plt.close(figure)


def test_a_sweeps_plot_labels_its_axes_and_names_the_exact_marks() -> None:
    import matplotlib.pyplot as plt

    from herohammer.commands.simulate_cmd import sweep_figure
    from herohammer.scenario import read_data
    from herohammer.sweep import pick_outcomes, run_sweep

    path = EX / "40k4_hive_tyrant_target.yaml"
    sweep = run_sweep(read_data(path), [("sides.blue[0].models[0].profile.Ld", [5, 8]), ("turn", [1, 2])], 20, 1,
                      source=str(path))
    figure, count = sweep_figure(sweep, pick_outcomes(sweep, []))
    try:
        drawn = _check_figure(figure)
        assert count == len(drawn) and all(ax.get_xlabel() == "profile.Ld" for ax in drawn)
        keyed = [ax for ax in drawn if ax.get_legend() is not None]
        assert len(keyed) == 1
        names = [t.get_text() for t in keyed[0].get_legend().get_texts()]
        assert names.count("exact") == 1 and {"turn = 1", "turn = 2"} <= set(names)
    finally:
        plt.close(figure)
