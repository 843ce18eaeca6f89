"""Instant Death (published.instant-death), 40k 3rd and 4th edition: an unsaved wound whose Strength is double the
model's Toughness or more kills it outright, whatever Wounds it has left; Eternal Warrior is the exception.

Before session 23 the engine did not model it: a Chaplain of 3 Wounds shot by a lascannon (S9) lost one Wound. Each
case plays actions through ``Game``; where dice decide, the exact odds equal brute force
(``enumerate_outcomes(..., fine=True)``).
"""

from __future__ import annotations

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import BASE_25, game, kinds, model, scenario

EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
ID = "published.instant-death"
CHAPLAIN = "WS5 BS4 S4 T4 W3 I5 A2 Ld10 Sv6+"


def shot_at(ruleset: str, strength: int, rules: list[str] | None = None, wounds_taken: int = 0) -> Game:
    """Red's Gunner (BS5, a one-shot Assault gun of ``strength``, AP6) 8" south of blue's lone Chaplain (T4 W3, Sv6+);
    red's Shooting phase."""
    gun = {**model("Gunner", 30, 12, 8, "WS4 BS5 S4 T4 W1 I4 A1 Ld8 Sv3+"), "weapons": [f"gun S{strength}"]}
    weapons = [{"name": f"gun S{strength}", "range": 24, "type": "assault", "shots": 1, "strength": strength, "ap": 6}]
    chap = {**model("Chaplain", 30, 20, 10, CHAPLAIN), **({"wounds_taken": wounds_taken} if wounds_taken else {})}
    blue = [{"id": "chap", "character": "independent", "rules": rules or [], "models": [chap]}]
    return game(scenario(ruleset, [{"id": "guns", "models": [gun]}], blue, phase="shooting", weapons=weapons))


SHOOT = {"do": "shoot", "unit": "guns", "target": "chap"}
#: hit (6), wound (6), save failed (1), then ones for any test
HIT_WOUND_FAIL = [6, 6, 1] + [1] * 10


@pytest.mark.rule(ID, "published.wound-allocation")
@EDITIONS
def test_an_unsaved_wound_of_double_toughness_kills_a_three_wound_character_outright(ruleset: str) -> None:
    """S8 against the Chaplain's T4: one unsaved wound, and he loses all 3 Wounds (an instant_death event citing the
    rule, then slain). S7 is not double: he loses one Wound and stands."""
    g = shot_at(ruleset, 8)
    events = g.apply(SHOOT, dice=ScriptedDice(HIT_WOUND_FAIL))
    [told] = kinds(events, "instant_death")
    assert ID in told.rules and "Chaplain" in told.message and "S8" in told.message and "all 3 Wounds" in told.message
    assert not g.state.unit("chap").alive
    g = shot_at(ruleset, 7)
    events = g.apply(SHOOT, dice=ScriptedDice(HIT_WOUND_FAIL))
    assert not kinds(events, "instant_death")
    assert g.state.unit("chap").models[0].wounds_taken == 1


@pytest.mark.rule(ID)
@EDITIONS
def test_eternal_warrior_is_not_killed_outright_and_a_last_wound_is_no_instant_death(ruleset: str) -> None:
    """With Eternal Warrior the S8 wound takes one Wound; a Chaplain with one Wound left dies of it as of any wound,
    and is not told of Instant Death (nothing more to lose)."""
    g = shot_at(ruleset, 8, rules=["Eternal Warrior"])
    events = g.apply(SHOOT, dice=ScriptedDice(HIT_WOUND_FAIL))
    assert not kinds(events, "instant_death") and g.state.unit("chap").models[0].wounds_taken == 1
    g = shot_at(ruleset, 8, wounds_taken=2)
    events = g.apply(SHOOT, dice=ScriptedDice(HIT_WOUND_FAIL))
    assert not kinds(events, "instant_death") and not g.state.unit("chap").alive


@pytest.mark.rule(ID)
@EDITIONS
def test_the_odds_of_a_shot_of_double_toughness_equal_brute_force(ruleset: str) -> None:
    """Exact: the Chaplain's Wounds lost to one S8 shot (BS5 hits on 2+, wounds on 2+, Sv6+) are 0 or 3, never 1, and
    the enumeration equals brute force."""
    start = shot_at(ruleset, 8).state

    def lost(dice: Dice) -> int:
        played = Game(start, dice)
        played.apply(SHOOT, dice=dice)
        unit = played.state.unit("chap")
        return 3 if not unit.alive else unit.models[0].wounds_taken

    fast = enumerate_outcomes(lost, positions=False)
    assert fast == enumerate_outcomes(lost, fine=True, positions=False)
    assert set(fast) == {0, 3}


def fist_fight(ruleset: str, s: int) -> Game:
    """Red's Sergeant (WS4 S``s`` I4 A2) in base contact with blue's lone Chaplain (T4 W3, Sv6+), both locked; red's
    Assault phase."""
    sarge = {"id": "sarge", "status": ["locked"],
             "models": [model("Sergeant", 30, 20, 9, f"WS4 BS4 S{s} T4 W1 I4 A2 Ld9 Sv3+")]}
    chap = {"id": "chap", "character": "independent", "status": ["locked"],
            "models": [model("Chaplain", 30, 20 + BASE_25 + 0.005, 10, CHAPLAIN.replace("I5", "I1"))]}
    return game(scenario(ruleset, [sarge], [chap], phase="assault"))


@pytest.mark.rule(ID, "published.combat-resolution")
@EDITIONS
def test_a_blow_of_double_toughness_kills_outright_in_close_combat_and_the_odds_equal_brute_force(ruleset: str) -> None:
    """The Sergeant's S8 blow (2 attacks: the first hits, wounds and is not saved) kills the Chaplain outright; the
    combat result counts the one wound inflicted (the decision under the rule, session 29; it counted the 3 Wounds
    he lost before). S7: one Wound per unsaved wound.
    Exact: the Wounds the Chaplain loses equal brute force, and at S8 are 0 or 3."""
    g = fist_fight(ruleset, 8)
    events = g.apply({"do": "fight", "unit": "sarge"}, dice=ScriptedDice([6, 1, 6, 1] + [1] * 20))
    [told] = kinds(events, "instant_death")
    assert ID in told.rules and not g.state.unit("chap").alive
    [result] = kinds(events, "combat_result")
    assert "red 1 wounds caused" in result.message, result.message
    g = fist_fight(ruleset, 7)
    events = g.apply({"do": "fight", "unit": "sarge"}, dice=ScriptedDice([6, 1, 6, 1] + [1] * 20))
    assert not kinds(events, "instant_death") and g.state.unit("chap").models[0].wounds_taken == 1
    for s in (8, 7):
        start = fist_fight(ruleset, s).state

        def lost(dice: Dice) -> int:
            played = Game(start, dice)
            played.apply({"do": "fight", "unit": "sarge"}, dice=dice)
            unit = played.state.unit("chap")
            return 3 if not unit.alive else unit.models[0].wounds_taken

        fast = enumerate_outcomes(lost, positions=False)
        assert fast == enumerate_outcomes(lost, fine=True, positions=False)
        assert set(fast) == {0, 3} if s == 8 else {1, 2} <= set(fast), (s, fast)  # S7: a Wound per wound


def farseer(ruleset: str, *rules: str) -> Game:
    """A lone psyker of T3 and 3 Wounds (a Farseer) 6" from three Boyz; red's Shooting phase."""
    seer = {"id": "seer", "character": "independent", "rules": ["psyker", *rules],
            "models": [model("Farseer", 30, 20, 10, "WS5 BS5 S3 T3 W3 I5 A1 Ld10 Sv4+")]}
    boyz = {"id": "boyz", "models": [model(f"Boy {i}", 28 + 2 * i, 26, 7, "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+")
                                     for i in range(3)]}
    return game(scenario(ruleset, [seer], [boyz], phase="shooting"))


@pytest.mark.rule(ID, "40k3.psyker.perils", "published.40k4-perils-of-the-warp")
def test_a_3rd_edition_perils_hit_of_double_toughness_slays_the_psyker_outright() -> None:
    """3rd edition: a psychic test of 12 brings Perils, a hit of Strength D6 (6: double the Farseer's T3) that wounds
    (2+): he loses all 3 Wounds (instant_death, slain). A hit of S5 takes one Wound. 4th edition's Perils is one
    wound, no Strength: one Wound."""
    fear = {"do": "manifest", "psyker": "seer", "power": "Fear of the Darkness", "target": "boyz"}
    g = farseer("40k3")
    events = g.apply(fear, dice=ScriptedDice([6, 6, 6, 2]))
    [told] = kinds(events, "instant_death")
    assert ID in told.rules and "all 3 Wounds" in told.message and not g.state.unit("seer").alive
    g = farseer("40k3")
    events = g.apply(fear, dice=ScriptedDice([6, 6, 5, 2]))
    assert not kinds(events, "instant_death") and g.state.unit("seer").models[0].wounds_taken == 1
    g = farseer("40k4")
    events = g.apply(fear, dice=ScriptedDice([6, 6] + [1] * 4))
    assert not kinds(events, "instant_death") and g.state.unit("seer").models[0].wounds_taken == 1


@pytest.mark.rule(ID, "40k3.psyker.perils")
def test_a_3rd_edition_perils_hit_of_double_toughness_takes_one_wound_from_an_eternal_warrior() -> None:
    """Eternal Warrior keeps Instant Death away from Perils as from any wound: the S6 hit that wounds the T3 Farseer
    takes one of his 3 Wounds (before session 24 the psychic test's own reading slew him)."""
    fear = {"do": "manifest", "psyker": "seer", "power": "Fear of the Darkness", "target": "boyz"}
    g = farseer("40k3", "Eternal Warrior")
    events = g.apply(fear, dice=ScriptedDice([6, 6, 6, 2]))
    assert not kinds(events, "instant_death") and g.state.unit("seer").models[0].wounds_taken == 1
