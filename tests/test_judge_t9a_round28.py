"""Judge round 28 (t9a28): The 9th Age character rulings that break once the state changes around a character, and the
core tests through the turn, played through Game (the public front door) with every roll scripted.

1. Swiftstride on a combined unit: the engine rolled the unit's extra charge die although the character joined to it
   lacks the rule (published.t9a-swiftstride: a unit has it only when every model has it); a character charging out
   keeps the bonus of the unit he leaves (t9a.charge-out.own-rate).
2. A last survivor took on his destroyed unit's "marched" and lost his own shot, though he had only moved to join it
   (t9a.join.moved-separately prevails: what the character and his unit moved is counted apart,
   t9a.combined.last-survivor).
3. A Flying character could not charge out of his unit over a unit in his way: the charge had no Flying Movement
   (published.t9a-fly, t9a.charge-out.own-rate, t9a.leave.move).
4. The open readings kept and stated as decisions: a '-' raised by a modifier tests on the modified value
   (core.profile.dash, core.value.used); WS 0 against WS 0 hits automatically (core.zero.ws); Wizard Conclave takes
   exactly two different spells (t9a.spell.wizard-conclave).
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import HERO, STILL_ORC, play_to, refused, reloads, scenario
from herohammer.actions import Charge, Join
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

SWIFT = "published.t9a-swiftstride"
FLY = "published.t9a-fly"
LAST = "t9a.combined.last-survivor"
SEPARATELY = "t9a.join.moved-separately"


def _charge_dice(events: list[Any]) -> int:
    return sum(1 for e in events for r in e.rolls if "charge die" in r.purpose)


# -- 1. Swiftstride needs every model of the charging unit ----------------------------------------------------------
def _swift(spear_rules: list[str], hero_rules: list[str]) -> Game:
    data = scenario(phase="charge", active="elves", enemy_y=30, spear_rules=spear_rules, orc_profile=STILL_ORC)
    data["sides"]["elves"][1]["rules"] = hero_rules
    return Game(state_from_data(data))


@pytest.mark.rule(SWIFT, "t9a.join.part-of-unit", "published.t9a-charge")
def test_a_swiftstride_unit_joined_by_a_character_without_it_rolls_no_extra_charge_die() -> None:
    g = _swift(["Swiftstride"], [])
    charge = {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}
    ruling = g.check(charge)
    assert ruling.legal and "2D6" in ruling.reason, ruling
    # 2D6 only: 1 + 6 + Advance 5 = 12 >= 10, the charge is made; the third die scripted is left unrolled (the old
    # engine rolled it, dropped the 1 and moved 6 + 6)
    dice = ScriptedDice([1, 6, 6])
    events = g.apply(charge, dice)
    assert _charge_dice(events) == 2 and dice.unused == (6,), events
    assert SWIFT in events[-1].rules and "hero lacks Swiftstride" in events[-1].message, events[-1]
    assert g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(SWIFT, "published.t9a-charge")
def test_a_swiftstride_unit_whose_character_has_it_too_rolls_three_dice_and_drops_the_lowest() -> None:
    g = _swift(["Swiftstride"], ["Swiftstride"])
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1, 3]))
    assert _charge_dice(events) == 3 and SWIFT in events[-1].rules, events
    # 1 + 3 + 5 = 9 < 10: failed, the Failed Charge move the higher die (3)
    assert "fails its charge (9\"" in events[-1].message, events[-1].message


@pytest.mark.rule(SWIFT, "t9a.charge-out.own-rate", "t9a.charge-out.success")
def test_a_character_without_swiftstride_charging_out_of_a_swiftstride_unit_uses_its_bonus() -> None:
    g = _swift(["Swiftstride"], [])
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1, 4]))
    assert _charge_dice(events) == 3, events  # 4 + 1 + his Advance 5 = 10: he reaches the orcs 10" away
    assert "t9a.charge-out.own-rate" in events[-1].rules and SWIFT in events[-1].rules, events[-1]
    assert "t9a.charge-out.success" in events[-1].rules
    # his own Swiftstride, out of a unit without it, is his too
    g = _swift([], ["Swiftstride"])
    assert _charge_dice(g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"},
                                ScriptedDice([1, 1, 4]))) == 3


# -- 2. a last survivor keeps his own move, not his unit's march ------------------------------------------------------
def _wizard_in_a_marched_unit() -> Game:
    """One spearman who marched this turn and the Hero, a Wizard who joined him after by an Advance move (moved)."""
    data = scenario(n=1, phase="magic", active="elves", enemy_y=30, spear_status=["moved", "marched"],
                    hero_status=["moved"], hero_weapons=["bow"], extra={"magic_dice": {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][1]["rules"] = ["Wizard Adept"]
    data["sides"]["elves"][1]["spells"] = ["Fireball", "Flame Cage"]
    return Game(state_from_data(data))


@pytest.mark.rule(LAST, SEPARATELY, "published.t9a-miscast", "published.t9a-who-can-shoot")
def test_a_last_survivor_who_only_moved_shoots_though_his_unit_had_marched() -> None:
    g = _wizard_in_a_marched_unit()
    shoot = {"do": "shoot", "unit": "spears", "target": "orcs"}
    # three 3s with 3 Magic Dice: the Fireball goes off (1 hit, not wounding) and Miscasts, Witchfire (222): 1 hit
    # of S3 with Armour Penetration 2 on the spearman, wounded, no save left; the Hero alone takes the unit's Panic
    # test and passes on 1 + 1
    events = g.apply({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 3},
                     ScriptedDice([3, 3, 3, 1, 1, 1, 6, 1, 1]))
    assert [e.kind for e in events] == ["cast", "miscast", "panic"] and LAST in events[2].rules, events
    hero = g.state.unit("hero")
    assert hero.last_of == "spears" and hero.has(Status.MOVED) and not hero.has(Status.MARCHED), hero.status
    reloads(g)
    play_to(g, "shooting", "elves")
    ruling = g.check(shoot)  # the destroyed unit's name is its last survivor
    assert ruling.legal and "1 shot" in ruling.reason, ruling
    # BS 6 moved (-1): 2+ to hit the orcs 10" away; the bow's S3 wounds their T4 on 5+
    events = g.apply(shoot, ScriptedDice([6, 1]))
    assert events[0].kind == "shoot" and "hero shoots orcs: 1 shot (2+ to hit" in events[0].message, events


@pytest.mark.rule(LAST, SEPARATELY)
def test_a_last_survivor_who_marched_with_his_unit_still_does_not_shoot() -> None:
    data = scenario(n=1, phase="magic", active="elves", enemy_y=30, spear_status=["moved", "marched"],
                    hero_status=["moved", "marched"], hero_weapons=["bow"],
                    extra={"magic_dice": {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][1]["rules"] = ["Wizard Adept"]
    data["sides"]["elves"][1]["spells"] = ["Fireball", "Flame Cage"]
    g = Game(state_from_data(data))
    g.apply({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 3},
            ScriptedDice([3, 3, 3, 1, 1, 1, 6, 1, 1]))
    assert g.state.unit("hero").has(Status.MARCHED)
    play_to(g, "shooting", "elves")
    refused(g, {"do": "shoot", "unit": "hero", "target": "orcs"}, "published.t9a-who-can-shoot", "marched")


# -- 3. a Flying character charges out of his unit over a unit in his way --------------------------------------------
def _flier_behind_guards(hero_rules: list[str] | None = None, spear_rules: list[str] | None = None,
                         guards_y: float = 26) -> Game:
    """The Hero (Fly 8, 16) in the Spearmen's front rank; elven Guards stand between them and the orcs 14" away."""
    data = scenario(phase="charge", active="elves", enemy_y=34, orc_profile=STILL_ORC, spear_rules=spear_rules)
    data["sides"]["elves"][1]["rules"] = hero_rules if hero_rules is not None else ["Fly (8, 16)"]
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [36, guards_y], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": HERO.replace("W3", "W1"),
                                               "base": [20, 20]} for i in range(5)]})
    return Game(state_from_data(data))


@pytest.mark.rule(FLY, "t9a.charge-out.declare", "t9a.charge-out.own-rate", "t9a.charge-out.success", "t9a.leave.move")
def test_a_flying_character_charges_out_over_the_unit_in_his_way_at_his_flying_rate() -> None:
    assert "fly" in Charge.model_fields  # the charge had no Flying Movement to ask for
    g = _flier_behind_guards()
    on_foot = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold", "fly": False}  # declared (29b)
    refused(g, on_foot, "published.t9a-move", "no clear way")
    flying = {**on_foot, "fly": True}
    ruling = g.check(flying)
    assert ruling.legal and FLY in ruling.rules and "t9a.charge-out.own-rate" in ruling.rules, ruling
    assert "8\" + 2D6" in ruling.reason, ruling.reason
    # 8 + 3 + 3 = 14 >= 14: he flies over the Guards into contact
    events = g.apply(flying, ScriptedDice([3, 3]))
    assert "t9a.charge-out.success" in events[-1].rules and FLY in events[-1].rules, events[-1]
    hero = g.state.unit("hero")
    assert hero.joined is None and hero.has(Status.ENGAGED) and g.state.unit("orcs").has(Status.ENGAGED)
    reloads(g)


@pytest.mark.rule(FLY, "t9a.charge-out.declare")
def test_a_character_without_fly_and_a_unit_with_a_member_without_it_make_no_flying_charge() -> None:
    assert "fly" in Charge.model_fields
    g = _flier_behind_guards(hero_rules=[], spear_rules=["Fly (8, 16)"])
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "fly": True}, FLY, "has no Fly")
    # the unit flies only if every model has Fly: the Hero has not
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs", "fly": True}, FLY, "not every model of spears")


@pytest.mark.rule(FLY, "t9a.charge-out.failure", "published.t9a-failed-charge")
def test_a_flying_character_whose_charge_out_fails_stops_short_of_the_unit_he_flies_over() -> None:
    g = _flier_behind_guards(guards_y=24.5)  # their rear edge 3.7" ahead of the Hero's front
    # 8 + 1 + 4 = 13 < 14: failed; the Failed Charge move of 4" would end on the Guards: he goes back to his last
    # legal place, 1" from them (Unit Spacing), more than 1" from his unit, which he leaves
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold", "fly": True},
                     ScriptedDice([1, 4]))
    assert "t9a.charge-out.failure" in events[-1].rules and "leaves spears" in events[-1].message, events[-1]
    hero = g.state.unit("hero").models[0]
    # back to his last legal place: 1" from the Guards (Unit Spacing), their rear edge at 24.5 - 20 mm
    assert 21.5 < hero.at[1] and hero.at[1] + 10 / 25.4 <= 24.5 - 20 / 25.4 - 1 + 0.02, hero.at
    assert g.state.unit("hero").joined is None and not g.state.unit("spears").has(Status.SHAKEN)
    reloads(g)


@pytest.mark.rule(FLY, "t9a.charge-out.declare")
def test_legal_actions_offer_the_flying_charge_out_the_ground_charge_cannot_make() -> None:
    g = _flier_behind_guards()
    offered = [a for a in g.legal_actions() if a.do == "charge" and a.unit == "hero"]
    # flying is the default for a charger with Fly (round 29b: fly not given); the charge declared on foot is not offered
    assert any(a.fly is not False and a.target == "orcs" for a in offered), offered
    assert FLY in g.check(next(a for a in offered if a.target == "orcs")).rules
    assert not any(a.fly is False and a.target == "orcs" for a in offered), offered


# -- 4. the core tests through the 9th Age turn ---------------------------------------------------------------------
DASHED = "WS4 BS4 S3 T3 W1 I- A1 Ld8 Sv5+ Adv5 Mar10"


@pytest.mark.rule("core.test.characteristic", "core.test.leadership", "published.turn-sequence")
@pytest.mark.parametrize("phase", ["charge", "movement", "magic", "shooting", "melee"])
def test_a_judge_calls_a_characteristic_or_leadership_test_in_any_phase_of_a_9th_age_turn(phase: str) -> None:
    g = Game(state_from_data(scenario(phase=phase, active="elves", joined=False, hero_at=(10, 10))))
    for unit in ("spears", "orcs"):  # either side's unit, as in 40k
        for test in ({"do": "test", "unit": unit, "characteristic": "I"},
                     {"do": "test", "unit": unit, "characteristic": "Ld", "kind": "Terror"}):
            ruling = g.check(test)
            assert ruling.legal and ("core.test.characteristic" in ruling.rules or
                                     "core.test.leadership-kinds" in ruling.rules), (phase, ruling)


@pytest.mark.rule("core.profile.dash", "core.value.used", "core.test.characteristic")
def test_a_dash_raised_by_a_modifier_tests_on_the_modified_value_and_unraised_never_passes() -> None:
    g = Game(state_from_data(scenario(phase="magic", active="elves", joined=False, hero_at=(10, 10),
                                      spear_profile=DASHED)))
    assert g.check({"do": "test", "unit": "spears", "characteristic": "I"}).legal  # it was refused in every phase
    raised = {"do": "test", "unit": "spears", "characteristic": "I",
              "modifiers": [{"kind": "add", "value": 1, "source": "spell"}]}
    events = g.apply(raised, ScriptedDice([1]))
    assert "I test on 1" in events[0].message and "passes" in events[0].message, events[0]
    assert "core.value.used" in events[0].rules
    events = g.apply(raised, ScriptedDice([2]))
    assert "fails" in events[0].message, events[0]
    plain = {"do": "test", "unit": "spears", "characteristic": "I"}
    events = g.apply(plain, ScriptedDice([1]))  # '-' is 0: a 1 fails it
    assert "I test on 0" in events[0].message and "fails" in events[0].message, events[0]


@pytest.mark.rule("core.test.highest-value", "core.test.leadership-choice", "t9a.join.part-of-unit", LAST)
def test_whose_value_a_combined_unit_and_its_last_survivor_test_on() -> None:
    g = Game(state_from_data(scenario(phase="shooting", active="orcs", n=1, orcs=10, spear_profile=DASHED)))
    assert g.check({"do": "test", "unit": "spears", "characteristic": "I"}).legal  # it was refused in every phase
    # the unit tests on its highest value, the Hero's (I 6, Ld 9); the Hero named tests with his unit
    for unit in ("spears", "hero"):
        events = g.apply({"do": "test", "unit": unit, "characteristic": "I"}, ScriptedDice([6]))
        assert "I test on 6 (Hero's profile" in events[0].message and "fails" in events[0].message, events[0]
        events = g.apply({"do": "test", "unit": unit, "characteristic": "Ld"}, ScriptedDice([5, 4]))
        assert "spears takes a Leadership test on Ld 9 (Hero)" in events[0].message, events[0]
    # the player may pick the spearman's Ld 8 instead (core.test.leadership-choice)
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "Ld", "leadership": 8}, ScriptedDice([5, 4]))
    assert "on Ld 8 (s0)" in events[0].message and "fails" in events[0].message, events[0]
    # the orcs shoot the spearman down (2 hits shared, one each; his wounded and unsaved): the Hero is the unit now
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
            ScriptedDice([5, 5] + [1] * 8 + [6, 1, 1, 1, 1]))
    assert g.state.unit("hero").last_of == "spears"
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "I"}, ScriptedDice([6]))
    assert "hero takes a I test on 6" in events[0].message, events[0]


@pytest.mark.rule("published.t9a-general", "core.test.leadership-choice")
def test_a_unit_near_its_general_may_take_a_leadership_test_on_his_leadership() -> None:
    data = scenario(n=5, phase="magic", active="elves", joined=False, hero_at=(30, 12))
    data["sides"]["elves"][1]["rules"] = ["General"]
    g = Game(state_from_data(data))
    test = {"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Fear"}
    ruling = g.check(test)
    assert ruling.legal and "published.t9a-general" in ruling.rules and "Ld 9" in ruling.reason, ruling
    events = g.apply(test, ScriptedDice([5, 4]))
    assert "Fear test on Ld 9" in events[0].message and "passes" in events[0].message, events[0]
    # beyond 12" the General lends nothing
    data["sides"]["elves"][1]["models"][0]["at"] = [70, 46]
    g = Game(state_from_data(data))
    assert "Ld 8" in g.check(test).reason


@pytest.mark.rule("core.zero.ws", "published.t9a-to-hit-melee")
def test_ws_0_against_ws_0_hits_automatically() -> None:
    data = scenario(phase="melee", active="elves", enemy_y=20, joined=False, hero_at=(10, 10),
                    spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile="WS0 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10",
                    orc_profile="WS0 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8")
    g = Game(state_from_data(data))
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([1] * 40))
    first = events[0].rolls[0]
    # the orcs' WS 0 lets every blow hit without a roll, though the spearmen's own WS 0 would hit only on 6
    assert first.rule == "published.t9a-to-wound" and first.request.startswith("10D6"), first
    assert "core.zero.ws" in events[0].rules, events[0]


@pytest.mark.rule("t9a.spell.wizard-conclave")
@pytest.mark.parametrize("spells", [["Fireball"], ["Fireball", "Fireball"], ["Fireball", "Flame Cage", "Burning Head"]])
def test_a_wizard_conclave_takes_exactly_two_different_spells_of_its_list(spells: list[str]) -> None:
    from herohammer.errors import ScenarioError

    data = scenario(phase="magic", active="elves", joined=False, hero_at=(10, 10), roles={0: "champion"},
                    spear_rules=["Wizard Conclave (Fireball, Flame Cage, Burning Head)"])
    data["sides"]["elves"][0]["spells"] = spells
    with pytest.raises(ScenarioError, match=r"exactly two different spells.*t9a\.spell\.wizard-conclave"):
        state_from_data(data)


@pytest.mark.rule(FLY, "published.t9a-charge", "t9a.join.part-of-unit")
def test_a_unit_whose_every_model_has_fly_charges_flying_its_character_with_it() -> None:
    g = _flier_behind_guards(spear_rules=["Fly (10, 20)"])  # the Hero has Fly (8, 16): the slowest, 8
    charge = {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold", "fly": True}
    ruling = g.check(charge)
    assert ruling.legal and FLY in ruling.rules and "8\" + 2D6, flying" in ruling.reason, ruling
    events = g.apply(charge, ScriptedDice([3, 3]))  # 8 + 6 = 14: the unit flies over the Guards into contact
    assert "spears charges orcs" in events[-1].message and FLY in events[-1].rules, events[-1]
    assert g.state.unit("spears").has(Status.ENGAGED) and g.state.unit("hero").joined == "spears"
    reloads(g)


@pytest.mark.rule(FLY, "t9a.join.move", "t9a.join.position", "t9a.join.moved-separately")
def test_a_flying_character_joins_a_unit_over_the_unit_in_his_way() -> None:
    assert "fly" in Join.model_fields  # a join had no Flying Movement to ask for
    data = scenario(phase="movement", active="elves", joined=False, hero_at=(36, 12.5))
    data["sides"]["elves"][1]["rules"] = ["Fly (8, 16)"]
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [36, 16], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": HERO.replace("W3", "W1"),
                                               "base": [20, 20]} for i in range(5)]})
    g = Game(state_from_data(data))
    join = {"do": "join", "character": "hero", "unit": "spears"}
    refused(g, join, "published.t9a-move", "path crosses guards")
    ruling = g.check({**join, "fly": True})
    assert ruling.legal and FLY in ruling.rules and "t9a.join.move" in ruling.rules, ruling
    events = g.apply({**join, "fly": True})
    assert FLY in events[0].rules and "t9a.join.moved-separately" in events[0].rules, events[0]
    hero = g.state.unit("hero")
    assert hero.joined == "spears" and hero.has(Status.MOVED) and not hero.has(Status.MARCHED)  # 7" of his 8"
    reloads(g)
    # without Fly there is no Flying Movement to join by
    data["sides"]["elves"][1]["rules"] = []
    refused(Game(state_from_data(data)), {**join, "fly": True}, FLY, "has no Fly")


# -- 5. a Discipline test to redirect a charge may use the General's Leadership ------------------------------------
@pytest.mark.rule("published.t9a-general", "published.t9a-redirect-charge", "core.test.leadership-kinds")
def test_a_unit_redirecting_its_charge_near_its_general_tests_on_his_leadership() -> None:
    data = scenario(phase="charge", active="orcs", enemy_y=30)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [42, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": HERO.replace("W3", "W1"),
                                               "base": [20, 20]} for i in range(5)]})
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "rules": ["General"], "models": [
        {"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A3 Ld9 Sv5+ Adv4 Mar8", "base": [25, 25], "at": [36, 36]}]})
    g = Game(state_from_data(data))
    charge = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee", "redirect": "guards"}
    # the Spearmen flee 1 + 1; the redirect's Discipline test 5 + 4 = 9 fails the orcs' Ld 7 but passes the
    # General's Ld 9, 6" away (Commanding Presence); the charge at the Guards 6 + 6
    events = g.apply(charge, ScriptedDice([1, 1, 5, 4, 6, 6]))
    redirect = next(e for e in events if e.kind == "redirect")
    assert "Ld 9" in redirect.message and "passed" in redirect.message, redirect.message
    assert "published.t9a-general" in redirect.rules, redirect
    assert "charges guards" in events[-1].message, events[-1].message


@pytest.mark.rule("core.zero.a", "published.t9a-combat-resolution")
def test_a_fight_where_attacks_0_leave_no_blow_cites_the_value_of_0() -> None:
    data = scenario(phase="melee", active="elves", enemy_y=20, joined=False, hero_at=(10, 10),
                    spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile="WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10", orc_profile=STILL_ORC)
    events = Game(state_from_data(data)).apply({"do": "fight", "unit": "spears"}, ScriptedDice([1, 1]))
    assert "no blows are struck" in events[0].message and "core.zero.a" in events[0].rules, events[0]


@pytest.mark.rule(FLY, "published.t9a-failed-charge")
def test_a_flying_unit_whose_charge_fails_stops_short_of_the_unit_it_flew_at() -> None:
    g = _flier_behind_guards(spear_rules=["Fly (10, 20)"], guards_y=24.5)
    # 8 + 1 + 4 = 13 < 14: failed; its 4" Failed Charge move would end on the Guards: it stops 1" short of them
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold", "fly": True},
                     ScriptedDice([1, 4]))
    assert "spears fails its charge" in events[-1].message and FLY in events[-1].rules, events[-1]
    front = max(m.at[1] for u in (g.state.unit("spears"), g.state.unit("hero")) for m in u.models)
    assert 21.5 < front and front + 10 / 25.4 <= 24.5 - 20 / 25.4 - 1 + 0.02, front  # 1" short (Unit Spacing)
    reloads(g)


@pytest.mark.rule(FLY, "published.t9a-stand-and-shoot", "t9a.charge-out.stand-and-shoot")
def test_a_flying_charge_from_within_its_flying_advance_rate_allows_no_stand_and_shoot() -> None:
    # the Hero (Fly 12, 24) charges out at orcs 10" away: beyond his ground Advance Rate 5, within his flying 12
    data = scenario(phase="charge", active="elves", enemy_y=30)
    data["sides"]["elves"][1]["rules"] = ["Fly (12, 24)"]
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    g = Game(state_from_data(data))
    on_foot = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot", "fly": False}
    assert g.check(on_foot).legal
    refused(g, {**on_foot, "fly": True}, "published.t9a-stand-and-shoot", "not farther than its Advance Rate (12\")")
    # not given, the charge flies (round 29b: a charger with Fly declares when it will not fly)
    del on_foot["fly"]
    refused(g, on_foot, "published.t9a-stand-and-shoot", "not farther than its Advance Rate (12\")")
