"""Every action ``legal_actions`` offers is one ``apply`` carries out, on every example, along random walks.

A bot takes the legal list at its word.  ``tests/test_fuzz.py`` applies one drawn action per step and
``tests/test_random_play.py`` asks ``check`` (40k only); here each offered action is applied (and undone)
at every step, through the same JSON a bot would send back, on the 40k and 9th Age examples alike.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
STEPS = 25


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_offered_action_applies_and_its_json_reads_back_the_same(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(load_scenario(path), SeededDice(seed))
    applied = 0
    for _ in range(STEPS):
        legal = game.legal_actions()
        assert legal, "end_phase at least is always offered"
        before, log_before = game.state, game.log
        for action in legal:
            sent = json.loads(json.dumps(action.to_json()))  # what a bot reads and sends back
            game.apply(sent, dice=SeededDice(rng.randrange(2**32)))  # an offered action is never refused
            applied += 1
            game.undo()
            assert game.state is before and game.log == log_before
        game.apply(rng.choice(legal), dice=SeededDice(rng.randrange(2**32)))
    assert applied >= STEPS
