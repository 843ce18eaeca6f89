"""40k: a model with two single-handed weapons (a pistol or a close combat weapon each) makes one Attack more.

The rulebooks' number of attacks (published.close-combat): the Attacks characteristic, +1 on the turn the model
assaulted, +1 for two single-handed weapons, and no more for a third. A boltgun is no single-handed weapon. Before
session 26 the second weapon gave nothing, so a Chaplain with bolt pistol and crozius struck twice where he strikes
three times (four on the charge).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import BASE_25, assert_illegal, assert_legal, game, model, scenario

CHAPLAIN = "WS5 BS5 S4 T4 W2 I4 A2 Ld10 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def chaplain_in_contact(ruleset: str, weapons: list[str], profile: str = CHAPLAIN,
                        status: tuple[str, ...] = ()) -> Game:
    """A lone Chaplain in base contact with one Boy (carrying nothing), red's Assault phase."""
    chap = {"id": "chap", "character": "independent", "status": ["locked", *status],
            "models": [{**model("Chaplain", 20, 20, profile=profile), "weapons": weapons}]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 20, 20 + BASE_25, profile=BOY)]}
    return game(scenario(ruleset, [chap], [boyz], phase="assault"))


def split(n: int) -> dict[str, Any]:
    """The Chaplain's attacks, all on the Boy."""
    return {"do": "allocate", "character": "chap", "attacks": {"B1": n}}


@pytest.mark.rule("published.close-combat")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize(("weapons", "status", "attacks"), [
    (["crozius arcanum"], (), 2),  # one weapon: his Attacks
    (["bolt pistol", "crozius arcanum"], (), 3),  # a pistol and a close combat weapon: +1
    (["bolt pistol", "crozius arcanum"], ("charged",), 4),  # and +1 on the turn he assaulted
    (["bolt pistol", "chainsword", "power weapon"], (), 3),  # a third weapon adds nothing
    (["bolt pistol", "laspistol"], (), 3),  # two pistols are two single-handed weapons
    (["bolter", "bolt pistol"], (), 2),  # a boltgun is no single-handed weapon
])
def test_a_second_single_handed_weapon_gives_one_attack_more(ruleset: str, weapons: list[str],
                                                             status: tuple[str, ...], attacks: int) -> None:
    """The Chaplain may split as many attacks as he has, and not one more (the game left unchanged)."""
    g = chaplain_in_contact(ruleset, weapons, status=status)
    assert_legal(g, split(attacks))
    refused = g.check(split(attacks + 1))
    assert not refused.legal
    assert f"but has {attacks}" in refused.reason
    assert_illegal(g, split(attacks + 1), refused.rules[0])


@pytest.mark.rule("published.close-combat", "core.zero.a")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_attacks_0_stay_0_whatever_the_weapons(ruleset: str) -> None:
    """A model of Attacks 0 makes no attacks, two weapons or not: its split is refused citing core.zero.a."""
    g = chaplain_in_contact(ruleset, ["bolt pistol", "crozius arcanum"], CHAPLAIN.replace("A2", "A0"))
    assert_illegal(g, split(1), "core.zero.a")


@pytest.mark.rule("published.close-combat")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_fight_says_who_strikes_with_a_second_weapon_and_rolls_their_attacks(ruleset: str) -> None:
    """In play the fight's log names the models with two weapons, cites the rule, and rolls their extra Attack."""
    g = chaplain_in_contact(ruleset, ["bolt pistol", "crozius arcanum"])
    events = g.apply({"do": "fight", "unit": "chap"}, dice=ScriptedDice([1] * 10))
    said = [e for e in events if e.kind == "second_weapon"]
    assert [e.message for e in said] == [
        "Chaplain (chap) carries two single-handed weapons (a pistol or close combat weapon in each hand): "
        "+1 Attack when striking"]
    assert said[0].rules == ("published.close-combat",)
    assert any(e.kind == "attacks" and e.message.startswith("Chaplain attacks boyz (3)") for e in events)
    assert not any(e.kind == "second_weapon" for e in
                   chaplain_in_contact(ruleset, ["crozius arcanum"]).apply({"do": "fight", "unit": "chap"},
                                                                            dice=ScriptedDice([1] * 10)))


@pytest.mark.rule("published.close-combat")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_exact_odds_of_two_weapons_against_the_closed_form(ruleset: str) -> None:
    """A Marine (A1, WS4 S4) with bolt pistol and chainsword strikes a Boy (WS4 T4 Sv6+) twice before it strikes:
    it falls with 1 - (1 - p)^2, p = 1/2 to hit x 1/2 to wound x 5/6 unsaved; with the chainsword alone, with p."""
    p = Fraction(1, 2) * Fraction(1, 2) * Fraction(5, 6)

    def boy_falls(weapons: list[str]) -> Fraction:
        marine = {"id": "m", "status": ["locked"],
                  "models": [{**model("Marine", 20, 20), "weapons": weapons}]}
        boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 20, 20 + BASE_25, profile=BOY)]}
        answer = action_odds(game(scenario(ruleset, [marine], [boyz], phase="assault")).state,
                             {"do": "fight", "unit": "m"})
        assert answer.exact
        return sum((Fraction(w) for outcome, w in answer.weights if dict(outcome.models_lost).get("boyz")),
                   Fraction(0))

    assert boy_falls(["bolt pistol", "chainsword"]) == 1 - (1 - p) ** 2
    assert boy_falls(["chainsword"]) == p
