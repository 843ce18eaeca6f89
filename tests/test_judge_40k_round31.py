"""A judge's cases for 40k 3rd and 4th edition, round 31: psykers of Leadership 0 or 1 and the roll of 2, Perils
slaying a lone psyker mid-phase, powers whose target is gone, characteristic and Leadership tests with modifiers and
values of 0 or 10, characters who leave a unit and are then shot, second moves in a phase, and Pile In.

Found wrong (each first written as an xfail(strict=True) test):
- both editions: a psyker of Leadership 1 who rolls a 2 was told "2 against Ld 1, failed", then "uses Smite": the
  test's message did not say that a 2 still uses the power (40k3.psyker.perils-on-2,
  published.40k4-perils-of-the-warp), nor cite it.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
LIB = "WS5 BS4 S4 T4 W{w} I4 A2 Ld{ld} Sv3+"
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
PSY_TEST = {"40k3": "40k3.psyker.test", "40k4": "published.40k4-psychic-test"}
PSY_SHOOT = {"40k3": "40k3.psyker.as-shooting", "40k4": "published.40k4-psychic-shooting"}
ON_TWO = {"40k3": "40k3.psyker.perils-on-2", "40k4": "published.40k4-perils-of-the-warp"}
CHAR_LD = {"40k3": "40k3.char.leadership", "40k4": "40k4.char.leadership"}


def kinds(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def messages(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


def boyz(x: float = 20, y: float = 25, n: int = 2, uid: str = "boyz") -> dict[str, Any]:
    return {"id": uid, "models": [model(f"{uid} {i + 1}", x + 2 * i, y, 7, ORK) for i in range(n)]}


def librarian(uid: str = "lib", x: float = 20, y: float = 18, ld: int = 10, w: int = 2, **extra: Any) -> dict[str, Any]:
    profile = LIB.format(w=w, ld="{ld}")
    return {"id": uid, "character": "independent", "rules": ["psyker"],
            "models": [model(uid.title(), x, y, ld, profile)], **extra}


# == 1. a psyker of Leadership 1 who rolls a 2 ======================================================================
@pytest.mark.rule("40k3.psyker.perils-on-2", "published.40k4-perils-of-the-warp", "40k3.psyker.test",
                  "published.40k4-psychic-test")
@EDITIONS
def test_a_psyker_of_leadership_1_who_rolls_a_2_is_told_the_2_still_uses_the_power(ruleset: str) -> None:
    """A Librarian of Ld 1 rolls a double 1: above his Leadership, so the test is not passed, but a 2 is Perils of
    the Warp and the power is still used (40k3.psyker.perils-on-2; 4th ed.: "On a 2 the power is still used",
    published.40k4-perils-of-the-warp). The test's own message must say so, citing the clause, rather than a bare
    "failed" followed by "uses Smite"."""
    g = game(scenario(ruleset, [librarian(ld=1, w=2)], [boyz(18, 24, 3)], phase="shooting"))
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                     dice=ScriptedDice([1, 1, 1, 1] + [1] * 20))
    [test] = kinds(events, "psychic_test")
    assert "2 against Ld 1" in test.message and "still uses the power" in test.message, test.message
    assert ON_TWO[ruleset] in test.rules and PSY_TEST[ruleset] in test.rules
    assert kinds(events, "power_used")


@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test")
@EDITIONS
def test_a_psyker_of_leadership_1_who_rolls_a_3_fails_and_uses_nothing(ruleset: str) -> None:
    """The same Librarian rolls 1 + 2: no pass, no Perils, no power; the test says plainly "failed" and cites only
    the psychic test. He has still tried his power this turn: a second attempt is refused."""
    g = game(scenario(ruleset, [librarian(ld=1)], [boyz(18, 24, 3)], phase="shooting"))
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    events = g.apply(smite, dice=ScriptedDice([1, 2]))
    [test] = kinds(events, "psychic_test")
    assert test.message.endswith("3 against Ld 1, failed") and test.rules == (PSY_TEST[ruleset],)
    assert not kinds(events, "power_used") and not kinds(events, "perils")
    assert_illegal(g, smite, PSY_TEST[ruleset])
