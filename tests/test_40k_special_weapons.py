"""40k special close combat weapons: a power fist doubles its user's Strength, ignores armour and strikes at
Initiative 1 (published.initiative: the rulebooks' special close combat attacks).

A weapon profile may give the Strength as the user's changed (``x2`` doubled, ``+1`` added to, at most 10) and fix the
Initiative its blows are struck at (``strikes_at``). Before session 26 no such profile could be written: a power fist
was an unknown weapon, and a scenario's own could strike only at the user's Strength and Initiative.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.errors import HerohammerError
from herohammer.weapons import find_weapon, weapon_from_data

from _w40k import BASE_25, game, model, scenario

SARGE = "WS4 BS4 S4 T4 W1 I4 A1 Ld9 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def duel(ruleset: str, weapons: list[str], profile: str = SARGE, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Sergeant in base contact with one Boy (no weapons: his own Strength and Initiative), red's Assault phase."""
    sarge = {"id": "sq", "status": ["locked"], "models": [{**model("Sarge", 20, 20, profile=profile), "weapons": weapons}]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 20, 20 + BASE_25, profile=BOY)]}
    return scenario(ruleset, [sarge], [boyz], phase="assault", **(extra or {}))


@pytest.mark.rule("published.initiative")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_power_fist_strikes_at_initiative_1_with_double_strength_and_no_save(ruleset: str) -> None:
    """The Boy (I2) strikes before the Sergeant's power fist (I1, his own I4 aside); the fist wounds at S8 on 2+ and
    the Boy's 6+ armour is not rolled. The log says why he strikes last, citing the rule."""
    g = game(duel(ruleset, ["power fist"]))
    dice = ScriptedDice([1, 1, 6, 2])  # the Boy's 2 to hit (both miss); the fist's to hit 6, to wound 2 (S8: 2+)
    events = g.apply({"do": "fight", "unit": "sq"}, dice=dice)
    note = next(e for e in events if e.kind == "strikes_at")
    assert note.message == "Sarge (sq) strikes at Initiative 1 with its power fist, whatever its own Initiative of 4"
    assert note.rules == ("published.initiative",)
    assert [e.message for e in events if e.kind == "attacks"] == ["boyz attacks sq (2): 0 hits, 0 wounds",
                                                                 "sq attacks boyz (1): 1 hit, 1 wound"]
    assert not any("save" in r.purpose for r in dice.log)  # a power fist allows no armour save
    assert any("S8 vs T4" in r.purpose and "2+" in r.purpose for r in dice.log)
    assert g.state.unit("boyz").models == ()


@pytest.mark.rule("published.initiative")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_exact_odds_of_a_power_fist_against_the_closed_form(ruleset: str) -> None:
    """The Boy strikes first at the power fist: he must survive two blows (each wounds him with 1/2 x 1/3 x 1/3) before
    his one blow kills the Boy with 1/2 x 5/6 (S8 on 2+, no save). With a chainsword at I4 he strikes first: 1/2 x
    1/2 x 5/6 (S4 on 4+, the 6+ save failed)."""

    def boy_falls(weapons: list[str]) -> Fraction:
        answer = action_odds(game(duel(ruleset, weapons)).state, {"do": "fight", "unit": "sq"})
        assert answer.exact
        return sum((Fraction(w) for outcome, w in answer.weights if dict(outcome.models_lost).get("boyz")),
                   Fraction(0))

    boy_blow = Fraction(1, 2) * Fraction(1, 3) * Fraction(1, 3)
    assert boy_falls(["power fist"]) == (1 - boy_blow) ** 2 * Fraction(1, 2) * Fraction(5, 6)
    assert boy_falls(["chainsword"]) == Fraction(1, 2) * Fraction(1, 2) * Fraction(5, 6)


@pytest.mark.rule("published.weapon-profiles", "published.initiative")
def test_a_scenario_writes_its_own_special_weapon_and_bad_values_are_refused() -> None:
    """``strength: x2`` doubles the user's (S6 to 10, no more), ``+1`` adds to it; ``strikes_at`` fixes the
    Initiative. Out of range values are refused naming the field; the profile writes back as it was read."""
    fist = weapon_from_data({"name": "klaw", "type": "melee", "strength": "x2", "strikes_at": 1, "ignores_armour": True})
    assert (fist.strength_for(4), fist.strength_for(6), fist.strikes_at) == (8, 10, 1)
    choppa = weapon_from_data({"name": "big choppa", "type": "melee", "strength": "+2"})
    assert choppa.strength_for(3) == 5 and choppa.strikes_at is None
    for w in (fist, choppa, find_weapon("power fist")):
        assert weapon_from_data(w.to_data()) == w
    for field, value in (("strength", "x9"), ("strength", "+7"), ("strength", "double"), ("strikes_at", 0),
                         ("strikes_at", 11)):
        with pytest.raises(HerohammerError, match=f"weapons.{field}"):
            weapon_from_data({"name": "odd", "type": "melee", field: value})


@pytest.mark.rule("published.initiative", "published.close-combat")
def test_a_squad_whose_sergeant_has_a_fist_strikes_in_two_steps() -> None:
    """A 40k4 Assault squad charging: the Marines with chainswords strike at I4, the Sergeant's power fist at I1, each
    with his two weapons' extra Attack and the charge's."""
    marines = [{**model(f"M{i}", 20 + 2 * i, 20), "weapons": ["bolt pistol", "chainsword"]} for i in range(2)]
    sarge = {**model("Sarge", 24, 20, profile=SARGE), "weapons": ["bolt pistol", "power fist"]}
    squad = {"id": "sq", "status": ["locked", "charged"], "models": [*marines, sarge]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model(f"B{i}", 20 + 2 * i, 20 + BASE_25, profile=BOY) for i in range(3)]}
    g = game(scenario("40k4", [squad], [boyz], phase="assault"))
    events = g.apply({"do": "fight", "unit": "sq"}, dice=ScriptedDice([1] * 40))
    said = [e.message for e in events if e.kind == "attacks"]
    assert said[0].startswith("sq attacks boyz (6)")  # two Marines, 1 + 1 + 1 each, at I4
    assert said[-1].startswith("sq attacks boyz (3)")  # the Sergeant, 1 + 1 + 1, at I1
