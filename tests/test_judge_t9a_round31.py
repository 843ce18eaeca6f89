"""Round 31: a 9th Age judge's cases on characters through sequences of actions (a unit destroyed around its character,
a character slain before he strikes, a refused Duel's nominee left alone, the Break tests of several losing units),
checked against seed 002 and the 2022 rulebook text, played through Game.

Wrong rulings found (each first committed as a strict xfail, then fixed and its mark removed):

1. Several units losing one combat took their Break tests in the state's order; the rulebook gives the order to the
   losing player (published.t9a-break-test, 2022 text: "in an order chosen by the player who lost the Combat"), and it
   matters: a General whose unit breaks first flees and lends the next unit no Discipline (published.t9a-general).
   The fight now takes ``break_order`` (the losing side's units, first to test first).

2. A friend's Panic test for a unit that broke from combat cited t9a.combined.last-survivor though no unit had been
   reduced to its character (the alarm's "still that unit" list, every model of a broken unit, was read as a last
   survivor): a wrong citation; the clause is cited only when the unit that broke, or the tester, is a last survivor.

3. A winner still in base contact with a losing unit that held pursued, and caught, another unit that broke (the
   2022 text, Pursuits and Overruns: "To be able to Pursue a Broken enemy, the unit cannot be Engaged with any
   non-Broken enemy units"; published.t9a-pursuit): the pursuit is now rolled once every Break test is taken, and only
   by a winner in contact with the broken unit and with no loser that held.

Decisions stated (data/rules.yaml, the rulings book): the losing player's order of the Break tests is the fight's
break_order, each broken unit fleeing before the next tests (so a General's or Battle Standard Bearer's unit that
breaks first lends the next nothing); the pursuits come after every Break test (published.t9a-break-test,
published.t9a-pursuit).

The other cases hold as the texts read: a unit cut down around its character leaves him its Break test, a character
slain before his Initiative step strikes nothing and scores only his Wounds (Overkill only in a Duel, up to +3), a
refused Duel's nominee left alone breaks on Discipline 0, joins and leaves in one phase are one move, a failed charge
out that stays shakes the unit, a Wizard who joined this turn casts from his own model, a spell's target that died is
no target, Discipline 0 fails every test and above 10 is refused at load.

Left as a strict xfail in round 31, fixed in session 32:

4. A unit marched within 8" of a non-fleeing enemy with no March Test (the 2022 text, Moving Units: "Immediately
   before moving a unit, if it is within 8\" of any non-Fleeing enemy units, the unit must take a Discipline Test,
   called a March Test"; failed, it "cannot perform a March Move during this Movement Phase"). A move with
   ``march: true`` now takes it first, and so does a character's join or leave longer than his Advance Rate, on his
   own (tests/test_t9a_march_test.py).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from _t9a import (HERO, SPEAR, STILL_ORC, melee_scenario, play_to, refused, reloading_game, reloads,
                  scenario)
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.units import Status

BREAK = "published.t9a-break-test"
GENERAL = "published.t9a-general"
DUEL = "published.t9a-duel"
LAST = "t9a.combined.last-survivor"
PART = "t9a.join.part-of-unit"

BOSS_PROFILE = "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8"


def _boss(profile: str = BOSS_PROFILE, rules: list[str] | None = None, joined: str = "orcs") -> dict[str, Any]:
    return {"id": "boss", "character": "independent", "joined": joined, "rules": rules or [],
            "models": [{"name": "Boss", "profile": profile, "base": [25, 25]}]}


_melee = melee_scenario  # (tests/_t9a.py: shared with round 31 and 32)


# -- 1. the Break tests of several losing units: the losing player's order -------------------------------------------
def _two_losers() -> dict[str, Any]:
    """Ten Spearmen (one rank, charged this turn: +1) against two units of two orcs (Ld 5), the first joined by the orc
    General (Ld 9); nobody has an Attack, so the orcs lose by 1 and each unit takes a Break test at -1."""
    data = _melee(n=10, orcs=2, spear_status=["engaged", "charged"], orc_profile=STILL_ORC.replace("Ld7", "Ld5"))
    data["sides"]["elves"][0]["formation"]["files"] = 10
    first = data["sides"]["orcs"][0]
    first["formation"]["position"] = [34, 20]
    # two files: the General stands in the first rank, an orc behind him (since round 40 a unit stands as wide as its
    # file says, the characters deployed in it counted: five files would put the three abreast)
    first["formation"]["files"] = 2
    second = copy.deepcopy(first)
    second["id"] = "orcs2"
    second["formation"]["position"] = [38, 20]
    for m in second["models"]:
        m["name"] = "p" + m["name"]
    data["sides"]["orcs"] += [second, _boss(BOSS_PROFILE.replace("A3", "A0").replace("Ld8", "Ld9"), ["General"])]
    return data


#: orcs (the General's unit) 6 6: breaks, flees 3 3; then orcs2 4 4: 8 breaks, flees 2 2; the Spearmen's one pursuit
#: (after every Break test; of orcs, the first that broke: round 32) 1 1: both escape
GENERAL_FIRST = [6, 6, 3, 3, 4, 4, 2, 2, 1, 1]
#: orcs2 4 4: 8, on the General's Ld 9 - 1 holds; then orcs 6 6 breaks, flees 3 3, unpursued (the Spearmen are still
#: engaged with orcs2)
GENERAL_LAST = [4, 4, 6, 6, 3, 3]


@pytest.mark.rule(BREAK, GENERAL)
def test_break_tests_in_the_default_order_the_generals_unit_breaking_first_lends_nothing_after() -> None:
    g = reloading_game(_two_losers())
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice(GENERAL_FIRST))
    told = next(e for e in events if e.kind == "break")
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks" in told.message, told.message
    # the General flees with his unit: the second unit tests on its own Ld 5 - 1 and breaks on 8 (and is told why
    # since round 32)
    assert "orcs2 takes a Break test on Ld 5 (po0) -1 (not Boss's Ld 9: the General broke with orcs, and a Fleeing " \
           "model lends no Discipline): 8, breaks" in told.message, told.message
    reloads(g)


@pytest.mark.rule(BREAK, GENERAL)
def test_the_losing_player_chooses_the_order_of_the_break_tests() -> None:
    g = reloading_game(_two_losers())
    fight = {"do": "fight", "unit": "spears", "break_order": ["orcs2", "orcs"]}
    ruling = g.check(fight)
    assert ruling.legal, ruling
    events = g.apply(fight, ScriptedDice(GENERAL_LAST))
    told = next(e for e in events if e.kind == "break")
    assert told.message.index("orcs2 takes") < told.message.index("orcs takes"), told.message
    assert "orcs2 takes a Break test on Ld 9 (Boss) -1: 8, holds" in told.message
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks" in told.message
    assert BREAK in told.rules and GENERAL in told.rules
    assert g.state.unit("orcs2").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(BREAK)
@pytest.mark.parametrize("order, why", [
    (["orcs2", "guards"], "guards is not a unit of this combat"),
    (["orcs2", "orcs2"], "orcs2 is named twice"),
    (["boss"], "boss is part of orcs"),
])
def test_a_break_order_naming_a_unit_outside_the_combat_twice_or_a_joined_character_is_refused(
        order: list[str], why: str) -> None:
    data = _two_losers()
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [10, 40], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    g = reloading_game(data)
    refused(g, {"do": "fight", "unit": "spears", "break_order": order}, BREAK, why)


@pytest.mark.rule(BREAK, GENERAL)
def test_the_odds_of_the_second_unit_holding_follow_the_chosen_order_exactly() -> None:
    """Brute force over every die: orcs2 holds with the General's Ld 9 - 1 when it tests first."""
    g = reloading_game(_two_losers())
    rules = get_ruleset("t9a")
    state = g.state

    def holds(order: list[str]) -> Fraction:
        act = rules.named_now(state, parse_action({"do": "fight", "unit": "spears", "break_order": order}))
        odds = enumerate_outcomes(lambda dice: rules.resolve(state, act, dice)[0].unit("orcs2").has(Status.ENGAGED))
        return odds.get(True, Fraction(0))

    pass8 = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 8), 36)
    pass4 = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 4), 36)
    assert holds(["orcs2", "orcs"]) == pass8
    # tested second, it has the General only when the General's unit held (pursuit ignored: a held unit stays)
    assert holds(["orcs", "orcs2"]) == pass8 * pass8 + (1 - pass8) * pass4


# -- 2. a unit destroyed around its character; a character slain before he strikes -----------------------------------
@pytest.mark.rule(LAST, BREAK, "published.t9a-combat-resolution")
def test_a_unit_cut_down_around_its_character_leaves_him_to_take_its_break_test_alone() -> None:
    # two Spearmen (no Attacks) and the Hero against five orcs: the Hero's three blows miss (1 1 1); the orcs' three
    # hit, wound and go unsaved on the two Spearmen; the third wound is beyond what they had and is not scored
    g = reloading_game(_melee(active="orcs", n=2, orc_profile="WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"))
    events = g.apply({"do": "fight", "unit": "orcs"},
                     ScriptedDice([1, 1, 1] + [6, 6, 6] + [6, 6, 6] + [1, 1, 1] + [6, 6] + [6, 6] + [1, 1]))
    fight = next(e for e in events if e.kind == "fight")
    assert "3 unsaved (slain: s0, s1)" in fight.message, fight.message
    told = next(e for e in events if e.kind == "break")
    assert "orcs wins by 2 (2 to 0" in told.message, told.message
    # the Hero is the unit spears now: he tests on his own Ld 9 at -2, breaks on 12 and flees 12"
    assert "spears takes a Break test on Ld 9 (Hero) -2: 12, breaks and flees 12\"" in told.message, told.message
    assert LAST in told.rules and BREAK in told.rules
    hero = g.state.unit("hero")
    assert hero.last_of == "spears" and hero.has(Status.FLEEING) and not g.state.unit("spears").models
    reloads(g)


@pytest.mark.rule("published.t9a-to-hit-melee", "published.t9a-combat-resolution", BREAK, PART)
def test_a_character_slain_before_his_initiative_step_strikes_nothing_and_lends_no_discipline() -> None:
    # the Boss (I8, six attacks) aims at the Hero (I6): six hits, six wounds, six failed saves; the Hero never strikes
    data = _melee(active="orcs")
    data["sides"]["orcs"].append(_boss("WS5 BS3 S4 T4 W2 I8 A6 Ld8 Sv5+ Adv4 Mar8"))
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "orcs", "at": "hero"},
                     ScriptedDice([6] * 6 + [6] * 6 + [1] * 6 + [1, 1]))
    fight = next(e for e in events if e.kind == "fight")
    assert "I8: orcs 6 attacks at hero: 6 hits, 6 unsaved (slain: Hero)" in fight.message, fight.message
    assert "I6: elves" not in fight.message  # dead before his step
    told = next(e for e in events if e.kind in ("break", "combat"))
    # only the Hero's three Wounds score (no Duel: no Overkill); the Spearmen test on their own Ld 8, Steadfast
    assert "orcs wins by 2 (3 to 1;" in told.message and "Break test on Ld 8 (s0) unmodified, Steadfast" in told.message
    reloads(g)


@pytest.mark.rule(DUEL, "published.t9a-combat-resolution")
def test_overkill_on_a_character_slain_in_a_duel_counts_up_to_three() -> None:
    data = _melee(active="orcs")
    data["sides"]["orcs"].append(_boss("WS5 BS3 S4 T4 W2 I8 A6 Ld8 Sv5+ Adv4 Mar8"))
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "orcs", "duel": "boss", "accept": "hero"},
                     ScriptedDice([6] * 6 + [6] * 6 + [1] * 6 + [1, 1]))
    fight = next(e for e in events if e.kind == "fight")
    # six unsaved on the Hero's three Wounds: three beyond, all counted (the cap is +3)
    assert "Overkill: orcs +3 to its Combat Score" in fight.message and DUEL in fight.rules, fight.message
    told = next(e for e in events if e.kind == "combat")
    assert "orcs wins by 5 (6 to 1;" in told.message, told.message


@pytest.mark.rule(DUEL, "published.t9a-combat-resolution")
def test_a_character_wounded_in_a_duel_but_alive_scores_the_wounds_he_lost_and_strikes_back() -> None:
    data = _melee(active="orcs")
    data["sides"]["orcs"].append(_boss("WS5 BS3 S4 T4 W2 I8 A6 Ld8 Sv5+ Adv4 Mar8"))
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "orcs", "duel": "boss", "accept": "hero"},
                     ScriptedDice([6, 6, 1, 1, 1, 1] + [6, 6] + [1, 1] + [1, 1, 1] + [1, 1]))
    fight = next(e for e in events if e.kind == "fight")
    assert "I8: orcs 6 attacks at hero: 2 hits, 2 unsaved; I6: elves 3 attacks at boss" in fight.message
    told = next(e for e in events if e.kind == "combat")
    # the Hero lives: his Ld 9 is the unit's for the Break test
    assert "orcs wins by 1 (2 to 1;" in told.message and "Ld 9 (Hero)" in told.message, told.message
    assert g.state.unit("hero").models[0].wounds_left == 1


@pytest.mark.rule(DUEL, LAST, BREAK)
def test_a_refused_duels_nominee_left_alone_breaks_on_discipline_0() -> None:
    # one orc and the Boss; the Hero's Duel is refused (the Boss, the only character, is shamed: Discipline 0), then
    # the Hero's three blows go to the rank and file and slay the orc: the Boss alone is the unit, on Ld 0
    data = _melee(orcs=1)
    data["sides"]["orcs"].append(_boss())
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "spears", "duel": "hero"},
                     ScriptedDice([6, 6, 6] + [6] * 3 + [1] * 3 + [1, 1] + [1, 1] + [1, 1]))  # the orc's 6+ saves fail
    told = next(e for e in events if e.kind == "break")
    # 1 + 1 = 2 is no pass on Ld 0 - 2
    assert "orcs takes a Break test on Ld 0 (Boss) -2: 2, breaks" in told.message, told.message
    assert DUEL in told.rules and LAST in told.rules
    assert not g.state.unit("boss").models  # caught by the pursuit (2" on 1 + 1 against a flee of 2")
    reloads(g)


# -- 3. joining, leaving, charging out: sequences -----------------------------------------------------------------------
@pytest.mark.rule("t9a.join.forbidden")
def test_a_character_does_not_join_a_fleeing_unit() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22),
                                spear_status=["fleeing"], enemy_y=40))
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.forbidden", "fleeing")


@pytest.mark.rule("t9a.join.forbidden")
def test_a_character_does_not_join_an_engaged_unit() -> None:
    data = _melee()
    data["sides"]["elves"][1].pop("joined")
    data["sides"]["elves"][1]["models"][0]["at"] = [30, 18]
    data["phase"] = "movement"
    g = reloading_game(data)
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.forbidden", "")


def _with_guards(data: dict[str, Any]) -> dict[str, Any]:
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [20, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


@pytest.mark.rule("t9a.join.move", "t9a.leave.move")
def test_a_character_who_left_his_unit_does_not_join_another_in_the_same_phase() -> None:
    g = reloading_game(_with_guards(scenario(phase="movement", active="elves", enemy_y=44)))
    g.apply({"do": "leave", "character": "hero", "to": [28, 23]})
    refused(g, {"do": "join", "character": "hero", "unit": "guards"}, "t9a.join.move", "already moved")
    refused(g, {"do": "move", "unit": "hero", "to": [[28, 25]]}, "published.t9a-move", "moved")


@pytest.mark.rule("t9a.leave.unit-not-moved", "published.t9a-move")
def test_the_unit_a_character_left_still_moves_and_he_stays_behind() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=44))
    events = g.apply({"do": "leave", "character": "hero", "to": [36, 26]})
    assert "spears has not moved" in events[0].message and "t9a.leave.unit-not-moved" in events[0].rules
    g.apply({"do": "move", "unit": "spears", "to": [[36, 18]]})
    assert g.state.unit("hero").models[0].at == (36, 26) and g.state.unit("hero").joined is None
    reloads(g)


@pytest.mark.rule("t9a.charge-out.no-other-charges")
def test_two_characters_do_not_both_charge_out_of_one_unit() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=28)
    data["sides"]["elves"].append({"id": "mage", "character": "independent", "joined": "spears",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]})
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([3, 3]))
    refused(g, {"do": "charge", "unit": "mage", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "cannot declare a charge")
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "cannot declare a charge")


@pytest.mark.rule("t9a.leave.when", "t9a.charge-out.declare")
def test_a_character_leaves_his_unit_in_the_charge_phase_only_by_charging_out() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=40))
    refused(g, {"do": "leave", "character": "hero", "to": [36, 24]}, "t9a.leave.when", "only by charging out")


@pytest.mark.rule("t9a.charge-out.failure", "published.t9a-shaken", "t9a.leave.when")
def test_a_failed_charge_out_that_stays_in_the_unit_shakes_it_for_the_movement_phase() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=32))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1]))
    assert "so it stays and the unit is Shaken" in events[0].message, events[0].message
    assert "t9a.charge-out.failure" in events[0].rules
    assert g.state.unit("hero").joined == "spears" and g.state.unit("spears").has(Status.SHAKEN)
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "t9a.charge-out.failure", "Shaken")
    refused(g, {"do": "leave", "character": "hero", "to": [30, 24]}, "t9a.charge-out.failure", "Shaken")
    reloads(g)


# -- 4. magic: a Wizard who joined this turn, a target that died ------------------------------------------------------
def _wizard(**kw: Any) -> dict[str, Any]:
    data = scenario(active="elves", extra={"magic_dice": {"elves": 6, "orcs": 4}}, **kw)
    hero = data["sides"]["elves"][1]
    hero["rules"] = ["Wizard Adept"]
    hero["spells"] = ["Fireball", "Spectral Blades"]
    return data


@pytest.mark.rule("published.t9a-magic", PART, "t9a.join.move")
@pytest.mark.parametrize("enemy_y, legal", [(40, False), (34, True)])
def test_a_wizard_who_joined_a_unit_this_turn_casts_from_his_own_model(enemy_y: float, legal: bool) -> None:
    g = reloading_game(_wizard(phase="movement", joined=False, hero_at=(30, 22), enemy_y=enemy_y))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    play_to(g, "magic", "elves")
    ruling = g.check({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2})
    assert ruling.legal is legal, ruling
    if not legal:
        assert "the Caster's own model" in ruling.reason and "beyond Fireball's range of 18\"" in ruling.reason
        assert PART in ruling.rules


@pytest.mark.rule("published.t9a-magic", "published.t9a-spell-types")
def test_a_spell_at_a_unit_the_last_spell_destroyed_is_refused() -> None:
    g = reloading_game(_wizard(phase="magic", orcs=1, enemy_y=30))
    events = g.apply({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2},
                     ScriptedDice([4, 4, 1, 6, 1]))  # cast 4 4; 1 hit; wounds on 6; the orc's 6+ save fails (1)
    assert "slain: o0" in events[0].message, events[0].message
    refused(g, {"do": "cast", "unit": "hero", "spell": "Spectral Blades", "target": "orcs", "dice": 2},
            "published.t9a-magic", "not a living enemy unit")


# -- 5. Discipline at the ends of its range --------------------------------------------------------------------------
@pytest.mark.rule("core.test.leadership", "core.test.characteristic")
@pytest.mark.parametrize("dice", [[1, 1], [6, 6]])
def test_a_unit_of_discipline_0_fails_every_discipline_test(dice: list[int]) -> None:
    g = reloading_game(scenario(phase="shooting", active="elves", joined=False,
                                spear_profile=SPEAR.replace("Ld8", "Ld0")))
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Panic"}, ScriptedDice(dice))
    assert "on Ld 0 (s0)" in events[0].message and "fails" in events[0].message, events[0].message
    rules = get_ruleset("t9a")
    act = parse_action({"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Panic"})
    state = g.state
    odds = enumerate_outcomes(lambda d: "passes" in rules.resolve(state, act, d)[1][0].message)
    assert dict(odds.items()) == {False: Fraction(1)}


@pytest.mark.rule("core.value.used")
def test_a_discipline_above_10_is_refused_at_load_naming_the_field() -> None:
    from herohammer.errors import ScenarioError
    from herohammer.scenario import state_from_data
    with pytest.raises(ScenarioError, match=r"sides\.elves\[0\]\.models\[0\]\.profile: Ld: got 11, expected 0\.\.10"):
        state_from_data(scenario(spear_profile=SPEAR.replace("Ld8", "Ld11")))


# -- 6. the March Test (session 32: modelled; tests/test_t9a_march_test.py holds the rest) ----------------------------
@pytest.mark.rule("published.t9a-move", "core.test.leadership")
def test_a_unit_within_8_inches_of_an_enemy_takes_a_march_test_before_marching() -> None:
    # the orcs stand 7" from the Spearmen's front; the Spearmen (the Hero's Ld 9) march 7" to the side: 6 + 6 fails
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=27))
    events = g.apply({"do": "move", "unit": "spears", "to": [[29, 20]], "march": True}, ScriptedDice([6, 6]))
    assert any("March Test" in e.message for e in events), [e.message for e in events]
    assert not g.state.unit("spears").has(Status.MARCHED)


# -- 7. Panic for a friend breaking from combat: its citation ---------------------------------------------------------
def _breaking_near_guards(n: int = 10) -> Game:
    data = _melee(active="orcs", n=n, orc_profile="WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8")
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [30, 20], "files": 2},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(4)]})
    return reloading_game(data)


@pytest.mark.rule("published.t9a-panic")
def test_a_friend_breaking_from_combat_panics_its_neighbours_without_a_last_survivor_citation() -> None:
    g = _breaking_near_guards()
    # the Hero misses (1 1 1); five orcs hit, wound, go unsaved: five Spearmen fall; the Spearmen break on 6 6; the
    # Guards, 5.2" away, test at once (round 49: before the flee and pursuit rolls): 6 6 fails, flee 2 2; the Spearmen
    # flee 3 3 and escape a pursuit of 1 1
    events = g.apply({"do": "fight", "unit": "orcs"},
                     ScriptedDice([1, 1, 1] + [6] * 5 + [6] * 5 + [1] * 5 + [6, 6] + [6, 6] + [2, 2] + [3, 3] + [1, 1]))
    panic = next(e for e in events if e.kind == "panic")
    assert "guards fails its Panic test for spears breaks from combat" in panic.message, panic.message
    assert "published.t9a-panic" in panic.rules and LAST not in panic.rules, panic.rules


@pytest.mark.rule("published.t9a-panic", LAST)
def test_a_last_survivor_breaking_from_combat_panics_its_neighbours_citing_the_clause() -> None:
    g = _breaking_near_guards(n=2)
    # the two Spearmen fall to the orcs' first three blows (the rest miss); the Hero alone breaks on 6 6; the Guards
    # test at once (round 49) and pass on 1 1; he flees 3 3 and escapes 1 1
    events = g.apply({"do": "fight", "unit": "orcs"},
                     ScriptedDice([1, 1, 1] + [6, 6, 6] + [6, 6, 6] + [1, 1, 1] + [6, 6] + [1, 1] + [3, 3] + [1, 1]))
    panic = next(e for e in events if e.kind == "panic")
    assert "guards passes its Panic test for spears breaks from combat" in panic.message, panic.message
    assert LAST in panic.rules


# -- 8. no pursuit by a winner still engaged with a loser that held -----------------------------------------------------
@pytest.mark.rule("published.t9a-pursuit", BREAK)
def test_a_winner_still_engaged_with_a_unit_that_held_does_not_pursue_the_one_that_broke() -> None:
    g = reloading_game(_two_losers())
    # orcs2 tests first (Ld 9, the General's, -1): 6 6 breaks, flees 3 3; the General's orcs hold on 1 1; the
    # Spearmen, still engaged with them, cannot pursue: no pursuit die is rolled and orcs2 escapes
    events = g.apply({"do": "fight", "unit": "spears", "break_order": ["orcs2", "orcs"]},
                     ScriptedDice([6, 6, 3, 3, 1, 1]))
    told = next(e for e in events if e.kind == "break")
    assert "orcs2 takes a Break test on Ld 9 (Boss) -1: 12, breaks and flees 6\" (no pursuit" in told.message, \
        told.message
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 2, holds" in told.message
    assert "published.t9a-pursuit" in told.rules
    assert g.state.unit("orcs2").has(Status.FLEEING) and len(g.state.unit("orcs2").models) == 2
    assert g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)


@pytest.mark.rule("published.t9a-pursuit", BREAK)
def test_a_winner_pursues_when_every_unit_it_touches_broke() -> None:
    g = reloading_game(_two_losers())
    # both break (6 6 each, the second on its own Ld 5 - 1 once the General fled), flee 3 3 and 2 2; the pursuit
    # comes after every test, of one broken unit (round 32: the first that broke, by default): 6 6 catches orcs
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([6, 6, 3, 3, 6, 6, 2, 2, 6, 6]))
    told = next(e for e in events if e.kind == "break")
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks and flees 6\", caught by a pursuit of 12\"" \
        in told.message, told.message
    assert "orcs2 takes a Break test on Ld 5 (po0) -1 (not Boss's Ld 9: the General broke with orcs, and a Fleeing " \
           "model lends no Discipline): 12, breaks and flees 4\" (no pursuit: spears pursues orcs)" in told.message
    assert not g.state.unit("orcs").models and g.state.unit("orcs2").has(Status.FLEEING)
    assert not g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(BREAK, "published.t9a-battle-standard")
@pytest.mark.parametrize("order, dice, holds", [
    (None, [6, 6, 6, 6, 3, 3, 5, 5, 2, 2, 1, 1, 1, 1], False),  # the bearer's unit breaks first: no re-roll after
    (["orcs2", "orcs"], [5, 5, 1, 1, 6, 6, 6, 6, 3, 3], True),  # orcs2 first: its 10 is re-rolled, 2 holds
])
def test_the_battle_standard_bearers_re_roll_follows_the_chosen_order(order: list[str] | None, dice: list[int],
                                                                      holds: bool) -> None:
    data = _two_losers()
    data["sides"]["orcs"][-1]["rules"] = ["Battle Standard Bearer"]  # the Boss bears it instead of being General
    spears = data["sides"]["elves"][0]
    spears["models"] = [dict(spears["models"][0], name=f"s{i}") for i in range(20)]  # two ranks: +1, +1 charge
    g = reloading_game(data)
    fight: dict[str, Any] = {"do": "fight", "unit": "spears", **({"break_order": order} if order else {})}
    events = g.apply(fight, ScriptedDice(dice))
    told = next(e for e in events if e.kind == "break")
    orcs2 = told.message[told.message.index("orcs2 takes"):]
    assert ("re-rolled for Rally Around the Flag" in orcs2.split(";")[0]) is holds, told.message
    assert g.state.unit("orcs2").has(Status.ENGAGED) is holds
    assert g.state.unit("orcs").has(Status.FLEEING)


# -- 9. the last survivor joins another unit; a failed charge is the unit's move --------------------------------------
@pytest.mark.rule(LAST, "t9a.join.move", "t9a.join.single-rank", "published.t9a-panic")
def test_a_last_survivor_joins_another_unit_and_his_old_unit_is_gone_without_a_panic_test() -> None:
    data = _with_guards(scenario(n=1, phase="shooting", active="orcs", enemy_y=34))
    data["sides"]["elves"][-1]["formation"]["position"] = [28, 20]
    g = reloading_game(data)
    # five hits: three on the last Spearman's share (one wounds, unsaved: s0 slain), two on the Hero, saved
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert g.state.unit("hero").last_of == "spears"
    play_to(g, "movement", "elves")
    refused(g, {"do": "join", "character": "hero", "unit": "guards"}, "t9a.join.single-rank", "rank_choice")
    # he is the unit "spears" now (t9a.combined.last-survivor): named so, as a move or a fight may name him, he joins
    by_old_name = g.check({"do": "join", "character": "spears", "unit": "guards", "rank_choice": "widen"})
    assert by_old_name.legal and "hero" in by_old_name.reason, by_old_name.reason
    events = g.apply({"do": "join", "character": "hero", "unit": "guards", "rank_choice": "widen"})
    assert "spears is gone from the table" in events[0].message and LAST in events[0].rules, events[0].message
    assert [e.kind for e in events] == ["join"]  # no friend destroyed: no Panic test
    assert g.state.unit("hero").joined == "guards" and g.state.unit("hero").last_of is None
    reloads(g)


@pytest.mark.rule("published.t9a-failed-charge", "published.t9a-move", "t9a.leave.when")
def test_a_unit_that_failed_its_charge_does_not_move_and_its_character_does_not_leave() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1]))
    assert "fails its charge" in events[0].message and "published.t9a-failed-charge" in events[0].rules
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "published.t9a-move", "charged already")
    refused(g, {"do": "leave", "character": "hero", "to": [30, 24]}, "t9a.leave.when", "it charged")
