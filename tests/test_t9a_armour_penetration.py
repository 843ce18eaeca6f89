"""The 9th Age's armour saves by Armour Penetration (2nd edition; published.t9a-to-wound, session 33).

Until session 33 the engine worsened a 9th Age armour save by 1 a point of Strength above 3 (the 1st
edition's rule) while its Magic, March Test and weapons followed the 2nd edition's 2022 text, and its
BattleScribe import dropped the AP of 2nd edition profiles.  Now an attack's Armour Penetration alone
worsens the save: a model's own AP (its profile) with its Close Combat Weapon's in melee, a missile
weapon's in the Shooting phase and in Stand and Shoot, a spell's data, a Miscast's table.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from _t9a import scenario
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.errors import HerohammerError, ScenarioError
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.scenario import state_from_data
from herohammer.spells import spells_from_data
from herohammer.t9a_charts import armour_save, missile_weapon

TO_WOUND = "published.t9a-to-wound"
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
FIGHT = {"do": "fight", "unit": "spears"}


def _purposes(events: list, word: str = "saves") -> list[str]:
    return [r.purpose for e in events for r in e.rolls if word in r.purpose]


@pytest.mark.rule(TO_WOUND)
def test_the_save_worsens_by_armour_penetration_alone() -> None:
    assert [armour_save(5, ap) for ap in range(4)] == [5, 6, None, None]
    assert armour_save(None, 0) is None and armour_save(2, 4) == 6 and armour_save(2, 5) is None


@pytest.mark.rule(TO_WOUND)
def test_the_missile_weapons_carry_the_rulebooks_armour_penetration() -> None:
    assert [missile_weapon(w).ap for w in ("bow", "longbow", "crossbow", "handgun", "pistol")] == [0, 0, 1, 2, 2]
    assert missile_weapon("bow S4 AP1")[2:4] == (4, 1) and missile_weapon("Crossbow AP3")[2:4] == (4, 3)
    assert missile_weapon("bow AP") is None  # no number: no weapon of the table


def _one_shot(weapon: str) -> Game:
    # one orc archer (BS3: 4+ to hit, 5+ at Long Range: beyond 12" of a 24" bow) 14" from ten Spearmen (T3, Sv5+)
    return Game(state_from_data(scenario(orcs=1, orc_weapon=weapon)))


@pytest.mark.rule(TO_WOUND)
@pytest.mark.parametrize(("weapon", "hit_on", "wound_on", "save_on"), [
    ("bow S4", 5, 3, 5), ("crossbow", 4, 3, 6), ("handgun", 5, 3, None), ("bow", 5, 4, 5)])
def test_one_shots_odds_are_the_brute_force_over_its_dice(weapon: str, hit_on: int, wound_on: int,
                                                          save_on: int | None) -> None:
    g = _one_shot(weapon)
    state, rules, act = g.state, get_ruleset("t9a"), parse_action(SHOOT)
    exact = enumerate_outcomes(lambda d: len(rules.resolve(state, act, d)[0].unit("spears").models))
    # brute force through the engine: every face of the three dice (hit, wound, save), a judge's scripted rolls
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=3):
        played = Game(state)
        played.apply(SHOOT, ScriptedDice(faces))
        left = len(played.state.unit("spears").models)
        counts[left] = counts.get(left, 0) + 1
    assert dict(exact.items()) == {k: Fraction(v, 216) for k, v in counts.items()}
    # and the rulebook's arithmetic: the save is the Spearmen's 5+ worsened by the weapon's AP, never by its Strength
    unsaved = Fraction(7 - hit_on, 6) * Fraction(7 - wound_on, 6) * (Fraction(save_on - 1, 6) if save_on else 1)
    assert exact[9] == unsaved
    assert _purposes(Game(state).apply(SHOOT, ScriptedDice([6, 6, 1])), "saves") == (
        [f"orcs shooting: saves ({save_on}+)"] if save_on else [])


@pytest.mark.rule(TO_WOUND)
def test_the_shot_says_its_armour_penetration() -> None:
    events = _one_shot("handgun").apply(SHOOT, ScriptedDice([6, 6]))
    assert "1 shot (5+ to hit, S4 AP2)" in events[0].message and TO_WOUND in events[0].rules, events[0].message


@pytest.mark.rule(TO_WOUND)
@pytest.mark.parametrize(("ap", "weapons", "saves"), [("", [], ["elves (I5): saves (6+)"]), (" AP1", [], []),
                                                      ("", ["halberd"], [])])
def test_a_models_own_armour_penetration_strikes_with_it_in_melee(ap: str, weapons: list[str],
                                                                   saves: list[str]) -> None:
    # the Spearmen (S3) strike the orcs (Sv6+): their own AP 1, or a Halberd's, leaves the orcs no save
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=f"WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10{ap}")
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = list(weapons)
    g = Game(state_from_data(data))
    events = g.apply(FIGHT, ScriptedDice([6] * 80))
    assert [p for p in _purposes(events) if p.startswith("elves (I5)")] == saves  # (the Hero's own blows apart)
    line = events[0].message
    if ap:
        assert "elves 9 attacks (S3 AP1) at orcs" in line, line
    if weapons:
        assert "attacks with halberd (S4 AP1) at orcs" in line, line


@pytest.mark.rule(TO_WOUND, STAND_AND_SHOOT)
@pytest.mark.parametrize(("weapon", "saves"), [("bow", ["Stand and Shoot: saves (5+)"]),
                                               ("crossbow", ["Stand and Shoot: saves (6+)"]), ("handgun", [])])
def test_stand_and_shoot_takes_its_weapons_armour_penetration(weapon: str, saves: list[str]) -> None:
    data = scenario(phase="charge", active="elves", joined=False, enemy_y=28, orc_weapon=weapon)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    g = Game(state_from_data(data))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([6] * 30))
    assert _purposes(events) == saves, _purposes(events)


@pytest.mark.rule(TO_WOUND)
def test_a_spells_armour_penetration_is_its_data_and_bounded() -> None:
    spell = spells_from_data([{"name": "Bolt", "casting_value": 5, "range": 18, "hits": 1, "strength": 4,
                               "types": ["Hex"], "ap": 2}], "spells")[0]
    assert spell.ap == 2
    plain = spells_from_data([{"name": "Bolt", "casting_value": 5, "range": 18, "hits": 1, "strength": 4,
                               "types": ["Hex"]}], "spells")[0]
    assert plain.ap == 0
    with pytest.raises(HerohammerError, match=r"spells\[0\]\.ap"):
        spells_from_data([{"name": "Bolt", "casting_value": 5, "range": 18, "hits": 1, "strength": 4,
                           "types": ["Hex"], "ap": 11}], "spells")


@pytest.mark.rule(TO_WOUND)
def test_a_profiles_armour_penetration_is_read_bounded_and_refused_by_40k() -> None:
    assert state_from_data(scenario(spear_profile="WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10 AP2")).unit(
        "spears").models[0].profile.ap == 2
    with pytest.raises(ScenarioError, match="profile"):
        state_from_data(scenario(spear_profile="WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10 AP11"))
    forty = {"ruleset": "40k3", "phase": "shooting", "active": "a", "sides": {
        "a": [{"id": "marines", "models": [{"name": "m", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+ AP1",
                                            "at": [10, 10]}]}],
        "b": [{"id": "orks", "models": [{"name": "o", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "at": [30, 10]}]}]}}
    with pytest.raises(ScenarioError, match=r"sides\.a\[0\]\.models\[0\]\.profile: AP: The 9th Age's Armour "
                                            r"Penetration .* which 40k3 does not read"):
        state_from_data(forty)


@pytest.mark.rule(TO_WOUND)
def test_a_missile_weapons_armour_penetration_above_10_is_refused_at_load() -> None:
    with pytest.raises(ScenarioError, match="weapons"):
        state_from_data(scenario(orc_weapon="bow AP11"))
    assert state_from_data(scenario(orc_weapon="bow S4 AP2")).unit("orcs").models[0].weapons == ("bow S4 AP2",)


def _thrown(orc_profile: str, weapon: str = "throwing weapons") -> list[str]:
    """The purposes of five orcs' volley of Throwing Weapons at the Spearmen (T3, Sv5+) 6" away (within 8")."""
    data = scenario(orc_weapon=weapon, orc_profile=orc_profile, enemy_y=26,
                    spear_profile="WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10")
    events = Game(state_from_data(data)).apply(SHOOT, ScriptedDice([6] * 30))
    return [r.purpose for r in events[0].rolls]


@pytest.mark.rule(TO_WOUND)
@pytest.mark.parametrize(("profile", "wound_on", "save"), [
    ("WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", 4, "5+"),
    ("WS3 BS3 S4 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", 3, "5+"),
    ("WS3 BS3 S5 AP1 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", 2, "6+"),
    ("WS3 BS3 S4 AP2 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", 3, None)])
def test_throwing_weapons_strike_with_the_throwers_own_strength_and_armour_penetration(
        profile: str, wound_on: int, save: str | None) -> None:
    """The rulebook's Throwing Weapons are Strength and Armour Penetration "as user": the shooter's own (read as 3 and 0
    for every thrower before session 37)."""
    purposes = _thrown(profile)
    assert f"orcs shooting: to wound ({wound_on}+)" in purposes
    assert [p for p in purposes if "save" in p] == ([f"orcs shooting: saves ({save})"] if save else [])


@pytest.mark.rule(TO_WOUND)
def test_a_throwing_weapon_that_states_its_strength_keeps_it_and_takes_the_throwers_ap() -> None:
    purposes = _thrown("WS3 BS3 S5 AP1 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", "throwing weapons S3")
    assert "orcs shooting: to wound (4+)" in purposes and "orcs shooting: saves (6+)" in purposes
    assert missile_weapon("throwing weapons") == missile_weapon("Throwing Weapons")  # one kind, whoever throws it


@pytest.mark.rule(TO_WOUND, STAND_AND_SHOOT)
@pytest.mark.parametrize(("profile", "wounds", "saves"), [
    ("WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", "4+", ["Stand and Shoot: saves (5+)"]),
    ("WS3 BS3 S5 AP1 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", "2+", ["Stand and Shoot: saves (6+)"])])
def test_stand_and_shoot_with_throwing_weapons_takes_the_throwers_strength_and_ap(
        profile: str, wounds: str, saves: list[str]) -> None:
    data = scenario(phase="charge", active="elves", joined=False, enemy_y=28, orc_weapon="throwing weapons",
                    orc_profile=profile)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    events = Game(state_from_data(data)).apply({"do": "charge", "unit": "spears", "target": "orcs"},
                                               ScriptedDice([6] * 30))
    assert _purposes(events) == saves and _purposes(events, "to wound") == [f"Stand and Shoot: to wound ({wounds})"]
