"""A judge's cases for 40k 3rd and 4th edition, round 32: states that change around a character - the unit's
shooting wounds once its troopers are dead, psychic powers at units locked in combat or destroyed, a squad whose
Librarian Perils slew, Pile In with models boxed in behind friends, and more.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, BASE_25, EDITIONS, game, hero, model, PSY_SHOOT, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def kinds(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def messages(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


def gunner(x: float = 21, y: float = 2, weapon: str = "heavy bolter", uid: str = "hb") -> dict[str, Any]:
    return {"id": uid, "models": [{**model("Gunner", x, y), "weapons": [weapon]}]}


def marine_and_captain(ruleset: str, marines: int = 1) -> dict[str, Any]:
    """Red's heavy bolter (3 shots, S5 AP4) 20" from blue's ``marines`` Marines (Sv3+) and their joined Captain
    (W2, Sv3+), in red's Shooting phase."""
    return scenario(ruleset, [gunner()], [squad("tac", 20, 22, n=marines),
                                          hero("cap", 20 + 2 * marines, 22, ld=9, joined="tac")], phase="shooting")


# == 1. the unit's shooting wounds once its troopers are dead fall on the joined character =========================
@pytest.mark.rule("published.wound-allocation")
@EDITIONS
def test_the_units_unsaved_wounds_beyond_its_troopers_fall_on_the_joined_captain(ruleset: str) -> None:
    """Three heavy bolter wounds on one Marine and his joined Captain (W2): the Marine takes the first and third,
    the Captain the second (one each before any takes a second, the fewest Wounds left first). All three saves
    fail: the Marine is slain by one, and the other, which no Marine is left to take, falls on the Captain: a
    joined character "is part of that unit" (seed 001) and the owning player removes a model per unsaved wound
    from the unit (4th ed., Removing casualties; 3rd alike): he loses both Wounds and is slain. The seed's "never
    carry over" sentence is in its close combat paragraph, where he is a separate unit; it is not cited here."""
    g = game(marine_and_captain(ruleset))
    events = g.apply({"do": "shoot", "unit": "hb", "target": "tac"}, dice=ScriptedDice([6] * 6 + [1, 1, 1] + [1] * 4))
    assert messages(events, "casualties") == ["slain: tac 1, Cap"]
    assert not kinds(events, "not_carried_over")
    assert all("40k4.cc.no-carry-over" not in e.rules for e in events)
    assert not g.state.unit("cap").alive and not g.state.unit("tac").alive


@pytest.mark.rule("published.wound-allocation")
@EDITIONS
def test_the_odds_the_captain_falls_to_the_heavy_bolter_equal_brute_force_and_the_count(ruleset: str) -> None:
    """The chance the Captain is slain: only when all three shots hit (2/3), wound (2/3: S5 against T4) and go
    unsaved (1/3 each against 3+): (4/9)^3 (1/3)^3; the fast enumeration equals brute force and this count."""
    start = game(marine_and_captain(ruleset)).state

    def captain_slain(dice: Dice) -> bool:
        played = Game(start, dice)
        played.apply({"do": "shoot", "unit": "hb", "target": "tac"}, dice=dice)
        return not played.state.unit("cap").alive

    fast = enumerate_outcomes(captain_slain, positions=False)
    assert fast == enumerate_outcomes(captain_slain, fine=True)
    assert fast[True] == Fraction(4, 9) ** 3 * Fraction(1, 3) ** 3
