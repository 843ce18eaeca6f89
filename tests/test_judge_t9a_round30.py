"""Round 30: a 9th Age judge's cases on the whole turn around characters (magic, shooting, melee, the core tests in
sequences where the state changes), checked against seed 002 and the 2022 rulebook text, played through Game.

Wrong rulings found (each first committed as a strict xfail, then fixed and its mark removed):

1. The judge's Discipline test (the ``test`` action, characteristic Ld) was never re-rolled for Rally Around the
   Flag, though the unit stood within 12" of its Battle Standard Bearer (published.t9a-battle-standard: units in
   reach "may re-roll failed Discipline tests"; the Break, Panic, Rally and redirect tests already were).
2. A General joined to a fleeing unit (the unit's status, as a scenario writes it) still lent his Discipline to the
   units around him (published.t9a-general: "unless he is fleeing"; a character's statuses are his own and, once
   joined, his unit's, as the Battle Standard Bearer's were already read).
3. A character in a unit that had moved, marched or charged this turn (the unit's status) could still leave it in
   the Movement phase (t9a.leave.when: "if he can move at all ... not already moved"): he moved with it, or moved to
   join it after it had moved.
4. A character in a unit that rallied this turn, or that another character had charged out of (the unit's status),
   could still charge out of it (t9a.charge-out.no-other-charges, published.t9a-rally): the unit's bar and its move
   bind the characters in it.
5. A character in a unit that had moved or marched this turn (the unit's status) shot without the -1 for moving
   (published.t9a-to-hit-shooting): he moved with it, or moved to join it after (t9a.join.moved-separately keeps only
   whether he marched his own).
6. A character charging out whose target fled took his Discipline test to redirect the charge on his own Discipline,
   though the General stood in the unit he left (published.t9a-general, published.t9a-redirect-charge): from his
   declaration he is a unit of his own (the 2022 text, round 29b), and the General a friend within 12".
7. A character whose weapons list his Hand Weapon before another Close Combat Weapon (a Great Weapon, a Halberd) fought
   with the Hand Weapon (published.t9a-close-combat-weapons, 2022 text: "a model with another Close Combat Weapon
   cannot choose the Hand Weapon"): he fights with the other, whatever the order of the list.
8. A unit whose character was shamed by a refused Duel took its Panic tests (a friend destroyed, heavy casualties) on
   his Discipline (published.t9a-duel: "its Discipline is set to 0"), though its Break test and the judge's test
   already read 0: its Panic and Rally tests now do too.

Decisions stated (data/rules.yaml): every 9th Age Leadership test the judge calls is a Discipline test
(published.t9a-battle-standard); a General joined to a fleeing unit flees with it, and lends his Discipline to a
character charging out of his unit (published.t9a-general); a character in a unit that moved has moved at least
(t9a.join.moved-separately, t9a.leave.when); a unit's bar on charging binds the characters left in it, not the
character whose charge out barred it, who still redirects (t9a.charge-out.no-other-charges).

The other cases hold as the texts read: a lone Wizard slain by his own Miscast panics his friends, a Wizard in a unit
of five rank and file or more takes no Miscast hit and one in a smaller unit his share, spells and shots pick out a
character only as the rules allow, a General slain in the blows lends nothing to the Break test, a Lance strikes
harder only in the round its bearer charged out, a Great Weapon's supporting attack strikes at I0, two characters
join one halted unit in one phase.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from _t9a import HERO, SPEAR, STILL_ORC, STILL_SPEAR, play_to, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.scenario import state_from_data
from herohammer.units import Status

BSB = "published.t9a-battle-standard"
GENERAL = "published.t9a-general"
PANIC = "published.t9a-panic"
MISCAST = "published.t9a-miscast"
MAGIC = "published.t9a-magic"
HITS = "published.t9a-distributing-hits"
LEAVE = "t9a.leave.when"


def _guards(data: dict[str, Any], at: tuple[float, float] = (46, 14), ld: int = 6, n: int = 5) -> dict[str, Any]:
    """Add elven Guards (Ld ``ld``, no character) at ``at``."""
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": list(at), "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR.replace("Ld8", f"Ld{ld}"),
                                               "base": [20, 20]} for i in range(n)]})
    return data


def _hero_rules(data: dict[str, Any], *rules: str, spells: list[str] | None = None) -> dict[str, Any]:
    hero = next(u for u in data["sides"]["elves"] if u["id"] == "hero")
    hero["rules"] = list(rules)
    if spells is not None:
        hero["spells"] = spells
    return data


# -- 1. the judge's Discipline test and Rally Around the Flag ------------------------------------------------------------
def _judge_test(kind: str, unit: str = "spears", **kw: Any) -> tuple[Game, dict[str, Any]]:
    data = _guards(_hero_rules(scenario(phase="shooting", active="elves", **kw), "Battle Standard Bearer"),
                   at=(46, 14))
    return reloading_game(data), {"do": "test", "unit": unit, "characteristic": "Ld", "kind": kind}


@pytest.mark.rule(BSB, "core.test.leadership", "core.test.leadership-kinds")
@pytest.mark.parametrize("kind", ["Panic", "Break", "Leadership"])
def test_a_judges_discipline_test_in_reach_of_the_battle_standard_is_re_rolled(kind: str) -> None:
    g, test = _judge_test(kind)
    events = g.apply(test, ScriptedDice([6, 6, 1, 1]))  # 12 fails on the Hero's Ld 9; the re-roll, 2, passes
    told = events[0]
    assert "passes" in told.message and "re-rolled for Rally Around the Flag" in told.message, told.message
    assert BSB in told.rules and "core.test.leadership" in told.rules, told.rules
    assert len(events) == 1  # passed: nothing follows


@pytest.mark.rule(BSB, "core.test.leadership")
def test_a_friend_within_12_inches_of_the_bearer_re_rolls_too_and_the_odds_are_brute_forces() -> None:
    g, test = _judge_test("Panic", unit="guards")  # the Guards (Ld 6) stand 4" from the Hero
    events = g.apply(test, ScriptedDice([6, 6, 3, 3]))
    assert "passes" in events[0].message and BSB in events[0].rules, events[0].message
    # exact odds of passing: the engine's enumeration against every pair of pairs of dice
    rules = get_ruleset("t9a")
    from herohammer.actions import parse_action
    act = parse_action(test)
    state = g.state
    odds = enumerate_outcomes(lambda dice: "passes" in rules.resolve(state, act, dice)[1][0].message)
    once = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 6), 36)
    assert odds[True] == once + (1 - once) * once


@pytest.mark.rule(BSB, "core.test.leadership")
def test_a_unit_beyond_12_inches_of_the_bearer_takes_its_judges_test_once() -> None:
    data = _guards(_hero_rules(scenario(phase="shooting", active="elves"), "Battle Standard Bearer"), at=(6, 40))
    g = reloading_game(data)
    events = g.apply({"do": "test", "unit": "guards", "characteristic": "Ld", "kind": "Panic"}, ScriptedDice([6, 6]))
    assert "fails" in events[0].message and BSB not in events[0].rules, events[0]


@pytest.mark.rule("core.test.characteristic", "core.test.highest-value")
def test_a_characteristic_test_is_no_discipline_test_and_is_not_re_rolled() -> None:
    g, _ = _judge_test("Panic")
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "I"}, ScriptedDice([6]))
    # the Hero's I6 is the unit's highest, and a 6 always fails; Rally Around the Flag re-rolls Discipline tests only
    assert "on 6 (Hero" in events[0].message and "fails" in events[0].message, events[0].message
    assert BSB not in events[0].rules


# -- 2. a General in a fleeing unit lends nothing -----------------------------------------------------------------------
def _general_with(spear_status: list[str]) -> Game:
    data = _guards(_hero_rules(scenario(phase="shooting", active="orcs", spear_status=spear_status), "General"))
    return reloading_game(data)


@pytest.mark.rule(GENERAL, "t9a.join.part-of-unit")
def test_a_general_whose_unit_flees_lends_no_discipline() -> None:
    g = _general_with(["fleeing"])
    ruling = g.check({"do": "test", "unit": "guards", "characteristic": "Ld", "kind": "Panic"})
    assert ruling.legal and "Ld 6" in ruling.reason and GENERAL not in ruling.rules, ruling


@pytest.mark.rule(GENERAL, "core.test.leadership-choice")
def test_a_general_whose_unit_stands_lends_his_discipline_within_12_inches() -> None:
    g = _general_with([])
    ruling = g.check({"do": "test", "unit": "guards", "characteristic": "Ld", "kind": "Panic"})
    assert ruling.legal and "Ld 9 (Hero, the General within 12\")" in ruling.reason and GENERAL in ruling.rules


@pytest.mark.rule(GENERAL, PANIC)
def test_heavy_casualties_near_a_general_in_a_fleeing_unit_test_on_the_units_own_discipline() -> None:
    g = _general_with(["fleeing"])
    # the orcs shoot the Guards: five hits, two wounds, no saves: two of five fall, a quarter: a Panic test on Ld 6
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "guards"},
                     ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1] + [2, 2]))
    panic = next(e for e in events if e.kind == "panic")
    assert "against Ld 6" in panic.message and GENERAL not in panic.rules, panic.message


# -- 3. a character in a unit that moved has moved ------------------------------------------------------------------------
@pytest.mark.rule(LEAVE, "t9a.join.part-of-unit")
@pytest.mark.parametrize("status", ["moved", "marched", "charged"])
def test_a_character_does_not_leave_a_unit_that_has_moved_this_turn(status: str) -> None:
    g = reloading_game(scenario(phase="movement", active="elves", spear_status=[status], enemy_y=40))
    refused(g, {"do": "leave", "character": "hero", "to": [36, 23]}, LEAVE, "has already moved")


@pytest.mark.rule(LEAVE, "t9a.leave.unit-not-moved", "t9a.join.unit-stops")
def test_a_character_leaves_a_unit_another_character_just_joined_and_the_unit_moves_no_more() -> None:
    data = scenario(phase="movement", active="elves", enemy_y=40)
    data["sides"]["elves"].append({"id": "mage", "character": "independent",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [31, 18]}]})
    g = reloading_game(data)
    g.apply({"do": "join", "character": "mage", "unit": "spears"})
    # the Hero has not moved: he may leave; the unit, halted by the Mage's join, still may not move
    ruling = g.check({"do": "leave", "character": "hero", "to": [36, 24]})
    assert ruling.legal and LEAVE in ruling.rules, ruling
    g.apply({"do": "leave", "character": "hero", "to": [36, 24]})
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "t9a.join.unit-stops", "cannot move again")
    # and the Mage, who moved to join, may not leave again this phase
    refused(g, {"do": "leave", "character": "mage", "to": [31, 18]}, LEAVE, "has already moved")
    reloads(g)


@pytest.mark.rule("t9a.charge-out.declare", "published.t9a-rally", "t9a.join.part-of-unit")
def test_a_character_does_not_charge_out_of_a_unit_that_rallied_this_turn() -> None:
    # the Spearmen rallied at the start of this turn (the Rally test taken and passed: they count as having marched);
    # the Hero fled and rallied with them
    g = reloading_game(scenario(phase="charge", active="elves", spear_status=["marched", "rally_tested"], enemy_y=28))
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, "published.t9a-rally",
            "rallied this turn")


@pytest.mark.rule("t9a.charge-out.no-other-charges")
def test_a_character_does_not_charge_out_of_a_unit_another_character_charged_out_of() -> None:
    # another character charged out of the Spearmen this turn: the unit is barred from charging (no_charge), and so is
    # every character still in it ("the unit itself, including other Characters in the unit")
    g = reloading_game(scenario(phase="charge", active="elves", spear_status=["no_charge"], enemy_y=28))
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "cannot declare a charge")
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "cannot declare a charge")


@pytest.mark.rule("published.t9a-to-hit-shooting", "t9a.join.moved-separately", "t9a.join.part-of-unit")
@pytest.mark.parametrize("status", ["moved", "marched"])
def test_a_character_in_a_unit_that_moved_shoots_at_minus_one(status: str) -> None:
    # the Hero (BS4, a bow) in Spearmen that moved (or marched) this turn: he moved with them, or moved to join them
    # after; he shoots at -1 (4+), and the Spearmen, had they bows, would not shoot at all after a march
    data = scenario(phase="shooting", active="elves", spear_status=[status], hero_weapons=["bow"], enemy_y=30)
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("BS6", "BS4")
    g = reloading_game(data)
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1]))
    assert "1 shot (4+ to hit" in events[0].message, events[0].message


@pytest.mark.rule("published.t9a-to-hit-shooting", "t9a.join.moved-separately")
def test_a_character_in_a_unit_that_stood_still_shoots_at_his_own_bs() -> None:
    data = scenario(phase="shooting", active="elves", hero_weapons=["bow"], enemy_y=30)
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("BS6", "BS4")
    g = reloading_game(data)
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1]))
    assert "1 shot (3+ to hit" in events[0].message, events[0].message


# -- magic around characters ------------------------------------------------------------------------------------------
def _wizard(n: int = 10, joined: bool = True, **kw: Any) -> Game:
    data = scenario(n=n, phase="magic", active="elves", enemy_y=30, joined=joined,
                    extra={"magic_dice": {"elves": 6, "orcs": 4}}, **kw)
    return reloading_game(_hero_rules(data, "Wizard Adept", spells=["Fireball", "Spectral Blades"]))


FIREBALL = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
#: Three 3s with 3 Magic Dice: cast (9), a Miscast 333 - 1 = 222, Witchfire (2022 text: D6 hits on the Caster's unit,
#: Strength 3 for the 3 dice, Armour Penetration 2); the Fireball's D6 = 1 hit that does not wound.
WITCHFIRE_CAST = {**FIREBALL, "dice": 3}
WITCHFIRE = [3, 3, 3, 1, 1]


@pytest.mark.rule(MISCAST, PANIC, "t9a.char.lone")
def test_a_lone_wizard_slain_by_his_own_miscast_is_a_unit_destroyed_and_his_friends_near_test() -> None:
    g = _wizard(joined=False, hero_at=(30, 22))  # 4" from the Spearmen
    # Witchfire: 6 hits of S3 on the Hero (T4): six wounds (6s), six failed saves (1s on his 4+, 6+ for the Armour
    # Penetration 2): his three Wounds are gone; the Spearmen test for a friend destroyed within 6": 6 + 6 fails,
    # they flee 6"
    events = g.apply(WITCHFIRE_CAST, ScriptedDice(WITCHFIRE + [6] + [6] * 6 + [1] * 6 + [6, 6, 3, 3]))
    miscast = next(e for e in events if e.kind == "miscast")
    assert MISCAST in miscast.rules and "slain: Hero" in miscast.message, miscast.message
    panic = next(e for e in events if e.kind == "panic")
    assert panic.message.startswith("spears fails its Panic test for hero destroyed") and PANIC in panic.rules
    assert not g.state.unit("hero").alive and g.state.unit("spears").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(MISCAST, HITS, "t9a.join.part-of-unit")
def test_a_wizard_in_a_unit_of_five_rank_and_file_or_more_takes_no_miscast_hit() -> None:
    g = _wizard(n=10)
    # Witchfire's 5 hits of S3 wound the Spearmen (T3) on 4+; Armour Penetration 2 leaves their 5+ no save
    events = g.apply(WITCHFIRE_CAST, ScriptedDice(WITCHFIRE + [5] + [6] * 5 + [1, 1]))
    miscast = next(e for e in events if e.kind == "miscast")
    assert "5 hits of S3 on spears, 5 unsaved" in miscast.message and HITS not in miscast.rules, miscast.message
    assert g.state.unit("hero").models[0].wounds_taken == 0 and len(g.state.unit("spears").models) == 5
    # five of eleven lost to the Miscast: the Spearmen test for heavy casualties (on the Hero's Ld 9), and pass
    panic = next(e for e in events if e.kind == "panic")
    assert "passes" in panic.message and MISCAST in panic.rules and PANIC in panic.rules, panic


@pytest.mark.rule(MISCAST, HITS, "t9a.join.part-of-unit")
def test_a_wizard_in_a_unit_of_fewer_than_five_rank_and_file_takes_his_share_of_the_miscast() -> None:
    g = _wizard(n=3)
    # five hits on four models as equally as possible: one each, the odd one on the rank and file (nobody makes the
    # Miscast's attack: the engine's reading); the Hero's hit wounds (6) and he saves it (6 on his 4+, -2 for the
    # Armour Penetration 2)
    events = g.apply(WITCHFIRE_CAST, ScriptedDice(WITCHFIRE + [5] + [1] * 4 + [6] + [6]))
    miscast = next(e for e in events if e.kind == "miscast")
    assert "4 hits, 0 unsaved on spears" in miscast.message and "1 hit, 0 unsaved on hero" in miscast.message, \
        miscast.message
    assert HITS in miscast.rules


@pytest.mark.rule(MAGIC, "t9a.join.part-of-unit", "t9a.char.lone")
def test_a_spell_targets_a_lone_character_but_never_a_character_in_his_unit() -> None:
    data = scenario(phase="magic", active="orcs", enemy_y=30, extra={"magic_dice": {"elves": 4, "orcs": 6}})
    data["sides"]["orcs"][0]["rules"] = ["Wizard Master"]
    data["sides"]["orcs"][0]["spells"] = ["Spectral Blades"]
    g = reloading_game(data)
    cast = {"do": "cast", "unit": "orcs", "spell": "Spectral Blades", "target": "hero", "dice": 2}
    refused(g, cast, "t9a.join.part-of-unit", "hero is part of spears: the unit is the target")
    data["sides"]["elves"][1].pop("joined")
    data["sides"]["elves"][1]["models"][0]["at"] = [20, 24]
    g = reloading_game(data)
    ruling = g.check(cast)
    assert ruling.legal and MAGIC in ruling.rules, ruling


@pytest.mark.rule(MAGIC, "t9a.join.part-of-unit", GENERAL)
def test_a_wizard_whose_unit_flees_does_not_cast() -> None:
    g = _wizard(spear_status=["fleeing"])
    refused(g, FIREBALL, MAGIC, "hero is fleeing and cannot cast")


# -- shooting at a combined unit and a character alone ------------------------------------------------------------------
@pytest.mark.rule(HITS, "t9a.join.part-of-unit")
def test_a_shot_may_pick_out_a_character_only_below_five_rank_and_file_and_he_takes_the_odd_hit() -> None:
    g = reloading_game(scenario(phase="shooting", active="orcs", enemy_y=30))
    shot = {"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"}
    refused(g, shot, HITS, "hits go to them, not to hero")
    g = reloading_game(scenario(n=3, phase="shooting", active="orcs", enemy_y=30))
    # five hits on three Spearmen and the Hero: one each, the fifth on the Hero the orcs named
    events = g.apply(shot, ScriptedDice([6] * 5 + [1] * 3 + [1] * 2))
    assert "3 hits, 0 unsaved on spears" in events[0].message and "2 hits, 0 unsaved on hero" in events[0].message, \
        events[0].message
    assert HITS in events[0].rules


@pytest.mark.rule(PANIC, "t9a.char.lone", "published.t9a-to-hit-shooting")
def test_a_lone_character_shot_dead_beside_his_friends_is_a_unit_destroyed() -> None:
    g = reloading_game(scenario(phase="shooting", active="orcs", enemy_y=30, joined=False, hero_at=(30, 22)))
    # five hits, five wounds (S3 against T4: 5+, sixes), five failed saves: the Hero's three Wounds are gone
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "hero"}, ScriptedDice([6] * 10 + [1] * 5 + [1, 1]))
    assert "slain: Hero" in events[0].message, events[0].message
    panic = next(e for e in events if e.kind == "panic")
    assert "spears passes its Panic test for hero destroyed" in panic.message and PANIC in panic.rules


# -- melee: the General slain, the Close Combat Weapons of characters ----------------------------------------------------
@pytest.mark.rule("published.t9a-break-test", GENERAL, "core.test.leadership-choice")
def test_a_general_slain_in_the_blows_lends_his_unit_nothing_for_its_break_test() -> None:
    from test_t9a_melee import BOSS
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"])
    data["sides"]["orcs"].append({**BOSS, "rules": ["General"]})
    g = reloading_game(data)
    # the Hero's three blows at the Boss (W2) hit, wound and go unsaved; the rest miss; the orcs test on their own Ld 7
    events = g.apply({"do": "fight", "unit": "spears", "at": "boss"},
                     ScriptedDice([6] * 3 + [6] * 3 + [1] * 3 + [1] * 9 + [1] * 5 + [1, 1]))
    assert "slain: Boss" in events[0].message, events[0].message
    combat = next(e for e in events if e.kind == "combat")
    assert "Break test on Ld 7 (o0)" in combat.message and GENERAL not in combat.rules, combat.message


@pytest.mark.rule("published.t9a-lance", "published.t9a-close-combat-weapons", "t9a.charge-out.success")
def test_a_character_who_charged_out_with_a_lance_strikes_harder_only_in_the_round_he_charged() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=28, hero_weapons=["lance"],
                                orc_profile=STILL_ORC))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([6, 6]))
    play_to(g, "melee", "elves")
    events = g.apply({"do": "fight", "unit": "hero"}, ScriptedDice([1] * 3 + [1, 1]))
    assert "3 attacks with lance (S6 AP2)" in events[0].message and "published.t9a-lance" in events[0].rules
    play_to(g, "melee", "orcs")
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([1] * 3))
    assert "3 attacks with lance (S4)" in events[0].message, events[0].message


def _crowded(weapons: list[str]) -> Game:
    from test_judge_t9a_round28b import _crowded_front
    data = _crowded_front()
    for u in data["sides"]["elves"]:
        if u["id"].startswith("hero"):
            u["models"][0]["weapons"] = list(weapons)
    return reloading_game(data)


@pytest.mark.rule("published.t9a-great-weapon", "published.t9a-to-hit-melee", "t9a.char.front-rank")
def test_a_great_weapon_of_a_character_in_the_second_rank_supports_at_initiative_0_and_strength_6() -> None:
    g = _crowded(["great weapon"])
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([1] * 10 + [1, 1]))
    # three Heroes in the first rank (three attacks each) and one behind them (one supporting attack), all at I0, S6
    assert "I0: elves 10 attacks with great weapon (S6 AP2) at orcs" in events[0].message, events[0].message


@pytest.mark.rule("published.t9a-paired-weapons", "published.t9a-to-hit-melee", "t9a.char.front-rank")
def test_paired_weapons_add_an_attack_in_the_first_rank_and_none_to_a_supporting_attack() -> None:
    g = _crowded(["paired weapons"])
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([1] * 13 + [1, 1]))
    assert "I6: elves 13 attacks with paired weapons (S4) at orcs" in events[0].message, events[0].message


# -- joining in one Movement phase ------------------------------------------------------------------------------------
@pytest.mark.rule("t9a.join.move", "t9a.join.unit-stops", "t9a.join.single-rank")
def test_two_characters_join_one_unit_in_the_same_movement_phase() -> None:
    data = _guards(scenario(phase="movement", active="elves", joined=False, hero_at=(44, 10)), at=(50, 14))
    data["sides"]["elves"].append({"id": "mage", "character": "independent",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [56, 10]}]})
    g = reloading_game(data)
    g.apply({"do": "join", "character": "hero", "unit": "guards", "rank_choice": "widen"})
    # the Guards are halted (they move no more this phase), but a halted unit may still be joined
    ruling = g.check({"do": "join", "character": "mage", "unit": "guards", "rank_choice": "widen"})
    assert ruling.legal and "t9a.join.move" in ruling.rules, ruling
    g.apply({"do": "join", "character": "mage", "unit": "guards", "rank_choice": "widen"})
    assert g.state.unit("mage").joined == "guards" and g.state.unit("hero").joined == "guards"
    refused(g, {"do": "move", "unit": "guards", "to": [[50, 16]]}, "t9a.join.unit-stops", "cannot move again")
    reloads(g)


# -- a character charging out redirects his charge, on the Discipline his General lends ---------------------------------
REDIRECT = "published.t9a-redirect-charge"
REDIRECTED = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee", "redirect": "orcs2",
              "redirect_reaction": "hold"}


def _charge_out_at_two(general: bool) -> Game:
    """The Hero (Ld 9) in the Spearmen, 8" from five orcs; five more orcs (orcs2) beside them; with ``general``, the
    General (Ld 10) is a second character in the Spearmen."""
    data = scenario(phase="charge", active="elves", enemy_y=28, orc_profile=STILL_ORC)
    if general:
        data["sides"]["elves"].append({"id": "gen", "character": "independent", "joined": "spears",
                                       "rules": ["General"], "models": [
                                           {"name": "Gen", "profile": HERO.replace("Ld9", "Ld10"), "base": [20, 20]}]})
    data["sides"]["orcs"].append({"id": "orcs2", "formation": {"position": [46, 30], "facing": 180, "files": 5},
                                  "models": [{"name": f"p{i}", "profile": STILL_ORC, "base": [25, 25]}
                                             for i in range(5)]})
    return reloading_game(data)


@pytest.mark.rule(REDIRECT, "t9a.charge-out.declare", "t9a.charge-out.no-other-charges")
def test_a_character_charging_out_redirects_his_charge_when_his_target_flees() -> None:
    g = _charge_out_at_two(general=False)
    # the orcs flee 3 + 3; the Hero's Discipline test, 4 + 4, passes on his Ld 9; his Charge Range 6 + 6 reaches orcs2
    events = g.apply(REDIRECTED, ScriptedDice([3, 3, 4, 4, 6, 6]))
    redirect = next(e for e in events if e.kind == "redirect")
    assert dict(redirect.data)["outcome"] == "redirected" and "(Ld 9, Hero)" in redirect.message, redirect.message
    assert g.state.unit("orcs2").has(Status.ENGAGED) and g.state.unit("hero").joined is None
    # his charge out still bars the Spearmen from charging this turn
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs2"}, "t9a.charge-out.no-other-charges",
            "cannot declare a charge")
    reloads(g)


@pytest.mark.rule(REDIRECT, GENERAL, "t9a.charge-out.declare")
def test_a_character_charging_out_redirects_on_the_discipline_of_the_general_he_left_in_his_unit() -> None:
    g = _charge_out_at_two(general=True)
    # 5 + 5 = 10 fails on the Hero's own Ld 9 and passes on the General's 10: once he declares his charge he is a unit
    # of his own (2022 text), and the General in the unit he left is a friend within 12"
    events = g.apply(REDIRECTED, ScriptedDice([3, 3, 5, 5, 6, 6, 1, 1]))
    redirect = next(e for e in events if e.kind == "redirect")
    assert dict(redirect.data)["outcome"] == "redirected", redirect.message
    assert "Ld 10, Gen, the General within 12\"" in redirect.message and GENERAL in redirect.rules, redirect.message


# -- a model with another Close Combat Weapon does not fight with its Hand Weapon ----------------------------------------
@pytest.mark.rule("published.t9a-close-combat-weapons", "published.t9a-great-weapon", "published.t9a-halberd")
@pytest.mark.parametrize(("weapons", "told"), [
    (["hand weapon", "great weapon"], "I0: elves 3 attacks with great weapon (S6 AP2) at orcs"),
    (["bow", "hand weapon", "halberd"], "I6: elves 3 attacks with halberd (S5 AP1) at orcs"),
])
def test_a_character_with_another_close_combat_weapon_never_fights_with_his_hand_weapon(weapons: list[str],
                                                                                       told: str) -> None:
    # the 2022 text: "Every model has a Hand Weapon; a model with another Close Combat Weapon cannot choose the Hand
    # Weapon", whatever order the roster lists them in
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=STILL_SPEAR, orc_profile=STILL_ORC, hero_weapons=weapons)
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([1] * 3 + [1, 1]))
    assert told in events[0].message and "hand weapon" not in events[0].message, events[0].message


# -- the Rally test of a unit whose General or Battle Standard Bearer flees with it -------------------------------------
@pytest.mark.rule("published.t9a-rally", BSB, "t9a.join.part-of-unit")
def test_a_unit_fleeing_with_its_battle_standard_bearer_rallies_without_the_re_roll() -> None:
    data = _hero_rules(scenario(phase="charge", active="elves", spear_status=["fleeing"], enemy_y=40),
                       "Battle Standard Bearer")
    g = reloading_game(data)
    # 6 + 6 fails on the Hero's Ld 9; the Bearer flees with the unit, so Rally Around the Flag re-rolls nothing
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 6, 1, 1]))
    assert "fails to rally (12 against Ld 9, Hero)" in events[0].message and BSB not in events[0].rules, events[0]
    assert g.state.unit("spears").has(Status.FLEEING) and g.state.unit("hero").has(Status.FLEEING)


@pytest.mark.rule("published.t9a-rally", "core.test.leadership-choice", GENERAL)
def test_a_unit_fleeing_with_its_general_rallies_on_his_discipline_as_its_own() -> None:
    data = _hero_rules(scenario(phase="charge", active="elves", spear_status=["fleeing"], enemy_y=40), "General")
    g = reloading_game(data)
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([4, 5]))
    # the General is part of the unit: his Ld 9 is its highest, not a Commanding Presence lent from without
    assert "rallies (9 against Ld 9, Hero" in events[0].message and GENERAL not in events[0].rules, events[0]


# -- a unit charged by a character out of his unit flees away from him ----------------------------------------------------
@pytest.mark.rule("published.t9a-flee-reaction", "t9a.charge-out.declare")
def test_a_unit_fleeing_from_a_character_charging_out_flees_away_from_him_not_from_his_unit() -> None:
    import math
    from herohammer.rulesets.t9a_panic import unit_centre
    data = scenario(phase="charge", active="elves", enemy_y=28, orc_profile=STILL_ORC)
    data["sides"]["elves"][0]["formation"]["order"] = ["s0", "s1", "s2", "s3", "Hero", "s4", "s5", "s6", "s7", "s8",
                                                       "s9"]  # the Hero at the right end of the first rank
    data["sides"]["orcs"][0]["formation"]["position"] = [44, 28]
    g = reloading_game(data)
    hero = g.state.unit("hero").models[0].at
    before = unit_centre(g.state, "orcs")
    # the 2022 text: "in case of a Flee Charge Reaction, the enemy unit Flees away from the Character"
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee"}, ScriptedDice([3, 3, 1, 1]))
    after = unit_centre(g.state, "orcs")
    fled = math.atan2(after[1] - before[1], after[0] - before[0])
    assert math.isclose(fled, math.atan2(before[1] - hero[1], before[0] - hero[0]), abs_tol=1e-6)
    assert not math.isclose(fled, math.atan2(before[1] - 20, before[0] - 36), abs_tol=1e-2)  # not from his unit
    assert g.state.unit("orcs").has(Status.FLEEING)
    reloads(g)


# -- a character who left his unit shoots at -1, the unit he left at its full skill -------------------------------------
@pytest.mark.rule("t9a.leave.unit-not-moved", "t9a.join.moved-separately", "published.t9a-to-hit-shooting")
def test_the_unit_a_character_left_shoots_as_unmoved_and_he_at_minus_one() -> None:
    data = scenario(phase="movement", active="elves", hero_weapons=["bow"], enemy_y=30)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("BS6", "BS4")
    g = reloading_game(data)
    g.apply({"do": "leave", "character": "hero", "to": [33, 22]})  # 3.5": an Advance move
    play_to(g, "shooting", "elves")
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1] * 10))
    assert "10 shots (3+ to hit" in events[0].message, events[0].message  # BS4, the Spearmen did not move
    events = g.apply({"do": "shoot", "unit": "hero", "target": "orcs"}, ScriptedDice([1]))
    assert "1 shot (4+ to hit" in events[0].message, events[0].message  # BS4, -1: he moved (a lone character)


# -- a character shamed by a refused Duel lends his unit no Discipline in its Panic tests --------------------------------
DUEL = "published.t9a-duel"


@pytest.mark.rule(DUEL, PANIC, "core.test.leadership-choice")
def test_a_unit_whose_character_refused_a_duel_takes_its_panic_test_for_a_friend_on_its_own_discipline() -> None:
    # the Hero (Ld 9) refused a Duel: his Discipline is 0 until his shame ends (the status duel_refused); the Guards,
    # a single model beside the Spearmen, are shot dead: the Spearmen test on their own Ld 8, and 4 + 5 fails it
    data = _guards(scenario(phase="shooting", active="orcs", enemy_y=30, hero_status=["duel_refused"]), at=(42, 14),
                   n=1)
    g = reloading_game(data)
    # (round 42: the judge's test names the shamed Hero's 0 and cites the Duel)
    judged = g.check({"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Panic"})
    assert "Ld 8 (s0; Hero at 0, shamed by a refused Duel)" in judged.reason and DUEL in judged.rules, judged
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "guards"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [4, 5] + [3, 3]))
    panic = next(e for e in events if e.kind == "panic")
    assert "(9 against Ld 8" in panic.message and "fails" in panic.message, panic.message


@pytest.mark.rule(DUEL, PANIC, "core.test.leadership-choice")
def test_a_unit_whose_character_refused_a_duel_takes_its_heavy_casualties_test_on_its_own_discipline() -> None:
    g = reloading_game(scenario(phase="shooting", active="orcs", enemy_y=30, hero_status=["duel_refused"]))
    # five of eleven slain: a quarter; 4 + 5 = 9 fails on the Spearmen's Ld 8 (the shamed Hero's 9 does not count)
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [4, 5] + [3, 3]))
    panic = next(e for e in events if e.kind == "panic")
    assert "(9 against Ld 8" in panic.message and "fails" in panic.message, panic.message
