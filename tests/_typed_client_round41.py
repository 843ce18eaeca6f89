"""A bot developer's whole game through the public names only, type-checked with ``mypy --strict``
(tests/test_library_round41.py): legal actions, the odds of the one chosen, check, apply, undo, copy, the record
written and played back, and the replayed game played on.  No casts and no ``type: ignore``.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

from herohammer import (Action, ActionOdds, DiceRanOut, Estimate, Event, Game, GameState, HerohammerError,
                        IllegalActionError, Outcome, Ruling, ScriptedDice, SeededDice, Step, odds_of_action)


def harmful(outcome: Outcome) -> bool:
    """An outcome in which some unit lost a model."""
    return any(lost for _, lost in outcome.models_lost)


def choose(game: Game, rng: random.Random) -> Action | None:
    """A random bot that prefers doing something to ending the phase; None when the battle is over."""
    legal: list[Action] = game.legal_actions()
    if not legal:
        return None
    busy = [a for a in legal if a.do != "end_phase"]
    return rng.choice(busy) if busy and rng.random() < 0.75 else rng.choice(legal)


def play(game: Game, rng: random.Random, limit: int) -> list[Fraction]:
    """Play up to ``limit`` actions, asking the odds of each first; return each one's chance of harm."""
    chances: list[Fraction] = []
    for _ in range(limit):
        action = choose(game, rng)
        if action is None:
            break
        odds: ActionOdds = odds_of_action(game.state, action, max_runs=2_000, runs=50, seed=1)
        estimate: Estimate = odds.probability(harmful)
        chances.append(estimate.p)
        ruling: Ruling = game.check(action)
        assert ruling.legal, ruling.reason
        branch = game.copy()  # a search's branch: what it does leaves the game alone
        branch.apply(action)
        branch.undo()
        events: list[Event] = game.apply(action)
        assert all(isinstance(line, str) for line in (e.describe() for e in events))
        if rng.random() < 0.1:
            game.undo()
            game.apply(action)
    return chances


def refusals(game: Game) -> list[str]:
    """Ask for what a bot may get wrong; return each error's type name (the game must stay as it was)."""
    before: GameState = game.state
    said: list[str] = []
    attempts: list[str] = [
        '{"do": "shoot", "unit": "nobody", "target": "nobody"}',  # refused by the rules
        "{do: fly}",                                              # not an action at all
    ]
    for attempt in attempts:
        try:
            game.apply(attempt)
        except IllegalActionError as refused:
            said.append(f"IllegalActionError {refused.rules}")
        except HerohammerError as unread:
            said.append(f"HerohammerError {type(unread).__name__}")
    for action in game.legal_actions():
        try:
            game.apply(action, ScriptedDice([]))  # a judge with no dice in hand
        except DiceRanOut:
            said.append("DiceRanOut")
            break
        game.undo()
    assert game.state is before
    return said


def replay_and_play_on(game: Game, seed: int, limit: int) -> Game:
    """Write the game's record, play it back and go on playing the replayed game."""
    steps: tuple[Step, ...] = game.steps()
    assert [s.action for s in steps] == list(game.actions)
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.log == game.log
    play(again, random.Random(seed), limit)
    return again


def main(path: Path) -> int:
    game = Game.load(path, SeededDice(3))
    play(game, random.Random(3), 30)
    print(refusals(game))
    on = replay_and_play_on(game, 4, 30)
    return len(on.actions)
