"""A seeded random bot for tests that play games through the public API, as a bot developer's client would."""

from __future__ import annotations

import random
from typing import Any

from herohammer.game import Game


def random_walk(game: Game, seed: int, steps: int) -> list[Any]:
    """Apply up to ``steps`` legal actions chosen by a seeded bot (three times in four something other than ending
    the phase, when it can); return the actions it applied."""
    rng = random.Random(seed)
    played = []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            break
        busy = [a for a in legal if a.do != "end_phase"]
        action = rng.choice(busy) if busy and rng.random() < 0.75 else rng.choice(legal)
        game.apply(action)
        played.append(action)
    return played
