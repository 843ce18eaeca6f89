"""What a Game remembers gives the answers it would work out afresh.

``Game`` keeps its rulings per (state, action) and reuses the dice-free result worked
out while ruling; ``GameState``, ``Unit`` and ``Model`` keep their hash.  These tests
walk every example at random and compare each remembered answer with the ruleset's
own, and check that a kept hash never crosses a process boundary.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import HerohammerError, IllegalActionError
from herohammer.game import Game
from herohammer.rulesets.base import _NoRolls, _RollNeeded
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_remembered_rulings_and_results_are_the_rulesets_own(path: Path) -> None:
    rng = random.Random(7)
    game = Game(load_scenario(path), SeededDice(7))
    for _ in range(12):
        state = game.state
        legal = game.legal_actions()
        assert game.legal_actions() == legal  # asked again: the same list, a fresh copy
        assert game.legal_actions() is not game.legal_actions()
        for action in game.ruleset.candidate_actions(state):
            assert game.check(action) == game.ruleset.rule_on(state, action)
            assert (action in legal) == game.check(action).legal
        action = rng.choice(legal)
        try:
            expected = game.ruleset.resolve(state, action, _NoRolls())
        except (_RollNeeded, IllegalActionError):
            expected = None
        try:
            events = game.apply(action)
        except IllegalActionError:  # a roll put a model on another (checked when resolved)
            assert game.state is state
            continue
        if expected is not None:  # no dice: the result worked out while ruling is the result
            assert game.state == expected[0] and events == expected[1]
        game.undo()
        assert game.state is state  # undo puts back the very same value
        game.apply(action)


def test_a_ruling_is_not_carried_to_another_state() -> None:
    game = Game(load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml"), ScriptedDice([6, 6] * 50))
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    assert game.check(smite).legal
    game.apply(smite)
    again = game.check(smite)
    assert not again.legal  # the same action on the new state is ruled on afresh: one power a turn
    game.undo()
    assert game.check(smite).legal


def test_equal_actions_from_text_and_objects_share_a_ruling() -> None:
    game = Game(load_scenario(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml"))
    join = next(a for a in game.legal_actions() if a.do == "join")
    assert game.check(join.to_json()) is game.check(join)


def test_a_kept_hash_stays_in_its_process() -> None:
    state = load_scenario(ROOT / "examples" / "40k3_whole_turn.yaml")
    here = hash(state)
    assert hash(state) == here and hash(state.units[0]) == hash(state.units[0])
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and hash(copy) == here
    code = ("import dataclasses, pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "from herohammer.state import GameState; "
            "fresh = GameState(**{f.name: getattr(s, f.name) for f in dataclasses.fields(s)}); "
            "print(hash(s) == hash(fresh))")
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True,
                             env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True).stdout
        assert out.strip() == b"True"  # recomputed there, not carried over from here


def test_undo_takes_back_the_rolls_from_the_dice_log_but_not_the_dice() -> None:
    """A search that applies and undoes keeps no record of the rolls it tried; the next roll is still new."""
    dice = SeededDice(3)
    game = Game(load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml"), dice)
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    events = game.apply(smite)
    rolls = tuple(r for e in events for r in e.rolls)
    assert rolls and dice.log == rolls  # the dice's log holds what the events show
    for _ in range(50):
        game.undo()
        assert dice.log == ()
        again = game.apply(smite)
        assert dice.log == tuple(r for e in again for r in e.rolls)
    game.undo()
    second = Game(game.state, dice)  # two games on one dice: each undo takes back only its own rolls
    game.apply(smite)
    kept = dice.log
    second.apply(smite)
    second.undo()
    assert dice.log == kept


def test_scripted_dice_count_their_rolls_across_an_undo() -> None:
    """'ran out at roll #N' counts the rolls made from the faces the judge entered, whatever was undone between."""
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    seeded = Game(load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml"), SeededDice(3))
    records = [r for e in seeded.apply(smite) for r in e.rolls]
    faces = [f for r in records for f in (r.faces or ())]
    game = Game(load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml"), ScriptedDice(faces))
    assert [r for e in game.apply(smite) for r in e.rolls] == records
    game.undo()
    with pytest.raises(HerohammerError, match=rf"ran out at roll #{len(records) + 1} "):
        game.apply(smite)
