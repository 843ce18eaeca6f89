"""A judge's cases for 40k 3rd and 4th edition, round 34 (docstring completed below).

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, EDITIONS, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
BOSS = "WS5 BS2 S5 T4 W2 I3 A3 Ld8 Sv4+"
PSYKER = "WS5 BS4 S4 T4 W1 I4 A2 Ld10 Sv3+"


def kinds(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def messages(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


# == 1. a wound carried onto the Boss while a Boy stands beyond every weapon ========================================
def boyz_boss_and_a_boy_beyond(ruleset: str, red: list[dict[str, Any]], boss: str = BOSS) -> Game:
    """Blue's Boy (Sv6+) and the Boss (W2, Sv4+) who joined his mob 22" from red's line, and Boy 2 of the same mob
    2.5" behind the Boy: beyond a bolter's 24" from every gunner."""
    blue = [{"id": "boyz", "models": [model("Boy", 22, 23, 7, ORK), model("Boy 2", 22, 25.5, 7, ORK)]},
            {"id": "boss", "character": "independent", "joined": "boyz", "models": [model("Boss", 24, 23, 8, boss)]}]
    return game(scenario(ruleset, red, blue, phase="shooting"))


def bolters() -> dict[str, Any]:
    return {"id": "guns", "models": [{**model(f"Gunner {i + 1}", 20 + 2 * i, 0.5), "weapons": ["bolter"]}
                                     for i in range(3)]}


@pytest.mark.rule("published.wound-allocation", "published.saves")
@EDITIONS
def test_a_bolter_wound_carried_onto_the_boss_is_saved_with_boy_2_beyond_every_bolter(ruleset: str) -> None:
    """Three bolter wounds (AP5) on the Boy and the Boss; Boy 2 stands beyond every bolter's 24", so no wound may
    fall on him. The Boy takes the first and third (no save against AP5), the Boss the second, which his 4+ saves.
    One of the Boy's slays him, the other falls on the Boss (session 32): his own 4+ against it is rolled and saves
    it on the 6. The volley is resolved (before judge round 34 it stopped with an error: the carried save was read
    twice, once for the casualties and again to tell the wounds lost beyond reach); no wound is said lost."""
    g = boyz_boss_and_a_boy_beyond(ruleset, [bolters()])
    events = g.apply({"do": "shoot", "unit": "guns", "target": "boyz"}, dice=ScriptedDice([6] * 3 + [6] * 3 + [6, 6] + [1, 1]))
    assert messages(events, "casualties") == ["slain: Boy"]
    carried = [e for e in kinds(events, "saves") if "carried" in e.message]
    assert len(carried) == 1 and "4+" in carried[0].message and "1 saved" in carried[0].message
    assert not kinds(events, "beyond_reach")
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2"]
    assert g.state.unit("boss").models[0].wounds_taken == 0


@pytest.mark.rule("published.wound-allocation", "published.saves", "40k3.psyker.as-shooting",
                  "published.40k4-psychic-shooting")
@EDITIONS
def test_a_smite_wound_carried_onto_the_boss_meets_his_invulnerable_save_with_boy_2_beyond_its_range(
        ruleset: str) -> None:
    """The same with Smite (S4 AP2, 12"): Boy 2 stands beyond its range. Three wounds: the Boy has no save against
    AP2 and takes two, the Boss one, which his invulnerable 5+ saves; the Boy's second falls on the Boss, whose 5+
    is not the save it failed (none): rolled, a 1, and the Boss loses a Wound. The psychic attack is resolved (before
    judge round 34 it stopped with an error, as the volley did)."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 23, 12, 10, PSYKER)]}
    g = boyz_boss_and_a_boy_beyond(ruleset, [lib], boss=BOSS + " Inv5+")
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                     dice=ScriptedDice([3, 3] + [6, 6, 6, 1] + [6] * 3 + [6, 1] + [1, 1]))
    assert messages(events, "casualties") == ["slain: Boy"]
    carried = [e for e in kinds(events, "saves") if "carried" in e.message]
    assert len(carried) == 1 and "5+" in carried[0].message and "0 saved" in carried[0].message
    assert not kinds(events, "beyond_reach")
    assert g.state.unit("boss").models[0].wounds_taken == 1


@pytest.mark.rule("published.wound-allocation", "published.saves")
def test_the_odds_of_the_boss_s_wounds_with_boy_2_beyond_every_bolter_equal_brute_force() -> None:
    """The Boss's Wounds lost to the three bolters, and Boy 2 never hurt (beyond every bolter): the fast
    enumeration, which reads the carried saves again per result, equals brute force over every die."""
    start = boyz_boss_and_a_boy_beyond("40k4", [bolters()]).state

    def hurt(dice: Dice) -> tuple[int, bool]:
        played = Game(start, dice)
        played.apply({"do": "shoot", "unit": "guns", "target": "boyz"}, dice=dice)
        boss = played.state.unit("boss")
        return (boss.models[0].wounds_taken if boss.alive else 2), "Boy 2" in [m.name for m in
                                                                               played.state.unit("boyz").models]

    fast = enumerate_outcomes(hurt, positions=False)
    assert fast == enumerate_outcomes(hurt, fine=True)
    assert all(boy_2 for (_, boy_2) in fast) and sum(fast.values()) == 1
