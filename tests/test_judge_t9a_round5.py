"""A judge's cases for The 9th Age, fifth round: what the fourth round left, and sequences around a character.

Each case goes through the front door (``Game``: check, apply, undo): the legal and the illegal step, the
clause cited, and a refused step changing nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status
from _t9a import play_to, refused, reloading_game, reloads, scenario

TURN = "published.turn-sequence"


# -- a unit with no models left: refused for that, its side ruled once before (published.turn-sequence) -------
GONE_ACTIONS = [
    ("movement", {"do": "move", "unit": "spears", "to": [[36, 16]]}),
    ("movement", {"do": "reform", "unit": "spears", "facing": 90}),
    ("charge", {"do": "charge", "unit": "spears", "target": "orcs"}),
    ("charge", {"do": "rally", "unit": "spears"}),
    ("shooting", {"do": "shoot", "unit": "spears", "target": "orcs"}),
    ("magic", {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2}),
    ("melee", {"do": "fight", "unit": "spears"}),
]


@pytest.mark.rule("core.zero.w", TURN)
@pytest.mark.parametrize(("phase", "action"), GONE_ACTIONS, ids=[a["do"] for _, a in GONE_ACTIONS])
def test_a_destroyed_unit_is_refused_for_having_no_models_and_the_other_sides_for_its_turn(
        phase: str, action: dict[str, Any]) -> None:
    data = scenario(n=5, phase=phase, active="elves", joined=False)
    data["sides"]["elves"][0].update(models=[], destroyed=True)
    g = reloading_game(data)
    refused(g, action, "core.zero.w", "spears has no models left")
    assert "active side" not in g.check(action).reason
    # the same action by a living unit of the side whose turn it is not: refused once, for the turn
    theirs = reloading_game(scenario(n=5, phase=phase, active="orcs", joined=False))
    refused(theirs, action, TURN, "it is orcs's turn")
