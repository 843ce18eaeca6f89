"""A judge's cases for 40k 3rd and 4th edition, round 29: rulings that must hold as the state changes around a
character in play sequences (a unit destroyed around its character, a retinue that dies, a character joining and
leaving, psykers and Perils in and out of units, morale and Last Man Standing, close combat with characters,
Sweeping Advance and consolidation).

Found wrong (each first written as an xfail(strict=True) test; nothing under src/ changed then): see the report of
session 29 and each test's docstring.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
LIB = "WS5 BS4 S4 T4 W1 I4 A2 Ld10 Sv3+"
CHAPLAIN = "WS5 BS5 S4 T4 W3 I1 A2 Ld10 Sv6+"
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])


def messages(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


def kinds(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def pistols(uid: str, x: float, y: float, n: int = 2) -> dict[str, Any]:
    """Blue's Boyz with bolt pistols, 2" apart along x."""
    return {"id": uid, "models": [{**model(f"{uid} {i + 1}", x + 2 * i, y, 7, ORK), "weapons": ["bolt pistol"]}
                                  for i in range(n)]}


# == 1. the unit shot at is the squad with the Captain joined to it =================================================
def captain_left_by_the_volley(ruleset: str) -> Game:
    """Blue's two Boyz (bolt pistols) shoot red's two-Marine squad with its Captain joined 1.5" behind it: both
    Marines die, the Captain, behind, takes no wound and is left alone. Blue's ``gunz`` stand far off. The game is
    taken on to blue's Assault phase."""
    red = [squad("tac", 20, 20, n=2), hero("cap", 21, 18.5, joined="tac")]
    g = game({**scenario(ruleset, red, [pistols("boyz", 20, 24), pistols("gunz", 20, 32)], phase="shooting"),
              "active": "blue"})
    g.apply({"do": "shoot", "unit": "boyz", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    g.apply({"do": "end_phase"})
    return g


@pytest.mark.rule("published.assault-after-shooting", "40k3.ic.join", "40k4.target.joined")
@EDITIONS
def test_the_shooters_may_assault_the_captain_left_of_the_squad_they_shot(ruleset: str) -> None:
    """The rulebooks: "A unit that fired in the shooting phase of the current turn may only declare a Charge against
    the unit it shot at". The Captain was part of that unit when it was shot at (4th ed.: a character who has joined
    a unit is part of it; 3rd: he is with it until he moves away in a Movement phase); with the Marines dead, he is
    what is left of the unit the Boyz shot at, so they may assault him."""
    g = captain_left_by_the_volley(ruleset)
    assault = {"do": "assault", "unit": "boyz", "target": "cap"}
    assert_legal(g, assault, "published.assault-after-shooting")
    data = g.to_data()
    assert data["joined_when_shot"] == {"cap": "tac"}  # a saved game keeps who was in the unit shot at
    assert_legal(Game.from_data(data), assault, "published.assault-after-shooting")
    events = g.apply(assault)
    assert g.state.unit("boyz").has(Status.LOCKED) and g.state.unit("cap").has(Status.LOCKED), events


@pytest.mark.rule("published.assault-after-shooting")
@EDITIONS
def test_the_shooters_may_not_assault_a_captain_who_was_not_with_the_squad_they_shot(ruleset: str) -> None:
    """A second Captain, standing alone 3" off when the squad was shot, was never part of the unit shot at: the Boyz
    may not assault him, and nothing changes."""
    red = [squad("tac", 20, 20, n=2), hero("cap", 21, 18.5, joined="tac"), hero("other", 26, 22)]
    g = game({**scenario(ruleset, red, [pistols("boyz", 20, 24)], phase="shooting"), "active": "blue"})
    g.apply({"do": "shoot", "unit": "boyz", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1]))
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "assault", "unit": "boyz", "target": "other"}, "published.assault-after-shooting")
