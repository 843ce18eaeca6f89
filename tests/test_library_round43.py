"""Round 43, as a bot or digital-table developer uses herohammer.

``dice.log`` is a tuple, as ``Game.log`` became in round 42: a bot that appended to the dice's list or cut it got at
the record ``Game.undo``, ``Game.steps`` and the record of play are read from.  The rules code notes where a ruling's
rolls begin and takes them by ``rolls_made``/``rolls_since`` (the dice's own list, no tuple of the whole log built per
roll), and the view is rebuilt only when its length is not the log's: rolling only appends, and what forgets rolls
(``Game.undo``, ``take_back``) drops the view, so a log undone and rolled again to the same length is not stale.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _bots import random_walk
from herohammer import DiceRanOut, Game, ScriptedDice, SeededDice
from herohammer.dice import RollRecord

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


# == dice.log: read-only ========================================================================================
def test_the_dice_log_is_a_tuple_a_bot_cannot_change_and_undo_and_the_record_hold() -> None:
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(2))
    assert game.dice.log == ()
    random_walk(game, 2, 15)
    log = game.dice.log
    assert isinstance(log, tuple) and log and all(isinstance(r, RollRecord) for r in log)
    assert game.dice.log is log  # read again with no roll between: the same tuple, not a copy
    with pytest.raises(AttributeError):
        log.append(log[0])  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        game.dice.log = ()  # type: ignore[misc]
    assert log == tuple(r for s in game.steps() for r in s.rolls)
    mine = list(game.dice.log)
    mine.clear()  # a bot's own copy is its own
    assert game.dice.log == log
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.dice.log == log


def test_a_log_undone_and_rolled_again_to_the_same_length_shows_the_new_rolls() -> None:
    met = 0
    for seed in range(40):  # the seeds whose second Smite rolls as many dice as the first, undone, did
        game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(seed))
        first = game.apply(SMITE)
        seen = game.dice.log  # the view is built here ...
        assert seen == tuple(r for e in first for r in e.rolls)
        game.undo()  # ... the undo forgets those rolls ...
        again = game.apply(SMITE)  # ... and new rolls are made: the view read must be theirs, not the old one
        rolls = tuple(r for e in again for r in e.rolls)
        assert game.dice.log == rolls and seen == tuple(r for e in first for r in e.rolls)  # the old tuple as it was
        met += len(rolls) == len(seen) and rolls != seen
    assert met >= 3


def test_a_judges_dice_that_ran_out_midway_show_no_roll_of_the_failed_action() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    judge = ScriptedDice([3, 4, 5, 6, 6])  # the psychic test and some of the wounds: not enough for the Smite
    assert judge.log == ()
    with pytest.raises(DiceRanOut):
        game.apply(SMITE, dice=judge)
    assert judge.log == () and judge.remaining == 5
    judge.take_back(0)  # nothing to take back: still empty
    assert judge.log == ()


def test_a_copys_dice_log_is_its_own_and_a_tuple_too() -> None:
    game = Game.load(EX / "t9a_whole_turn.yaml", SeededDice(4))
    random_walk(game, 4, 10)
    kept = game.dice.log
    branch = game.copy()
    assert branch.dice.log == kept
    random_walk(branch, 5, 10)
    while branch.actions:
        branch.undo()
    assert branch.dice.log == () and game.dice.log == kept and isinstance(branch.dice.log, tuple)
