"""Round 32: a 9th Age judge's cases on the end of a combat (Break tests, pursuit, Restrain Pursuit, overrun, a unit
destroyed around its character, the last survivor of a combined unit, charges out of units), checked against seed 002
and the 2022 rulebook text (Pursuits and Overruns, Fleeing, Commanding Presence), played through Game, the ruleset's
odds, the simulator and the CLI.

Wrong rulings found (each first committed as a strict xfail, then fixed and its mark removed):

1. A winner touching two broken units pursued both, each with its own roll; the 2022 text: "each unit that is in base
   contact with the Broken unit(s) may declare a Pursuit of a single Broken unit (each Pursuing unit may choose any
   eligible enemy unit to Pursue)". It pursues one: the fight's ``pursuit: {ID: {pursue: ID}}``, by default the first
   that broke (published.t9a-pursuit).
2. Only the first winner touching a broken unit pursued it; every winner in base contact with it (and engaged with no
   loser that held) pursues, each with its own 2D6, and the unit is caught when any reaches its flee distance.
3. No Restrain Pursuit test: "Units can elect not to Pursue, but must then pass a Discipline Test ... if the test is
   failed, the unit must Pursue anyway". ``pursuit: {ID: {restrain: true}}`` takes it on the winner's Discipline (its
   General's within 12", its Battle Standard's re-roll), in play, in exact odds (a pass/fail branch, checked against
   brute force) and in simulation; no test where no enemy in contact broke (an Overrun takes none).
4. Confusing message: a unit testing after its General's unit broke was not told why it had lost his Discipline; it is
   now (decision, published.t9a-general: a Broken General lends nothing, the 2022 Fleeing making a unit Fleeing "from
   the moment it fails a Break Test" and "Models cannot receive Commanding Presence ... from a Fleeing model").
5. Confusing messages: a character slain by Stand and Shoot as he charged out was named twice ("hero is slain by Stand
   and Shoot; ...; slain: Hero"), a unit slain to the last listed model by model; a reform refused for an engaged unit
   said it "cannot move"; a last survivor caught by the pursuit was told destroyed "(hero with it)", as if a character
   beside his unit; a unit barred from charging after a charge out was given two reasons joined by "or".
6. A fight's ``break_order`` and ``pursuit`` refused a last survivor named by his destroyed unit's name ("spears is not
   a unit of this combat"), which its ``unit`` field reads as him (t9a.combined.last-survivor).

Earlier rounds' tests that read the old pursuit (rounds 18 and 31, the Stubborn cases) follow the one-pursuit reading.

The other cases hold as the texts read: a character who charged out, won alone and restrains tests on the General he
left in his unit; the reactive side's winner restrains too; a General caught with his broken unit dies with it; a
winner engaged with a loser that held pursues nobody, whatever it chose; the CLI plays the test.

Left undone: the Post-Combat Pivot or Reform a passed Restrain test allows, the Overrun and pursuit moves themselves,
and the losing player's choice of the winner a broken unit flees away from (the first in contact), all stated in
published.t9a-pursuit's decision.  (The pursuit moves and the Post-Combat Pivot or Reform came later, in the pursuit
session: tests/test_t9a_pursuit_move.py.)
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from _t9a import (HERO, STILL_ORC, exact_odds_as_brute_force, melee_scenario, play_to, refused,
                  reloading_game, reloads, scenario)
from herohammer.cli import main
from herohammer.dice import ScriptedDice
from herohammer.errors import HerohammerError
from herohammer.simulate import simulate
from herohammer.units import Status

BREAK = "published.t9a-break-test"
PURSUIT = "published.t9a-pursuit"
GENERAL = "published.t9a-general"
LAST = "t9a.combined.last-survivor"
SAS = "published.t9a-stand-and-shoot"

#: 2D6 totals: how many of the 36 throws make each
TWO_D6 = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}


def at_most(n: int) -> Fraction:
    """The chance 2D6 totals at most ``n``."""
    return Fraction(sum(c for t, c in TWO_D6.items() if t <= n), 36)


_melee = melee_scenario  # (tests/_t9a.py: shared with round 31 and 32)


def _one_on_one() -> dict[str, Any]:
    """Ten Spearmen in two ranks (+1) who charged (+1), nobody with an Attack, against five orcs (Ld 7, one rank): the
    orcs lose by 2 and break on more than 5; the Hero stands apart, 8" behind, out of the combat."""
    return _melee(spear_status=["engaged", "charged"], joined=False, hero_at=(36, 10))


def _two_losers() -> dict[str, Any]:
    """Ten Spearmen in one rank who charged (+1) against two units of two orcs (Ld 5) side by side: each takes a Break
    test at -1."""
    data = _melee(n=10, orcs=2, spear_status=["engaged", "charged"], orc_profile=STILL_ORC.replace("Ld7", "Ld5"),
                  joined=False, hero_at=(10, 10))
    data["sides"]["elves"][0]["formation"]["files"] = 10
    first = data["sides"]["orcs"][0]
    first["formation"]["position"] = [34, 20]
    second = copy.deepcopy(first)
    second["id"] = "orcs2"
    second["formation"]["position"] = [38, 20]
    for m in second["models"]:
        m["name"] = "p" + m["name"]
    data["sides"]["orcs"].append(second)
    return data


def _two_winners() -> dict[str, Any]:
    """Two small elf units side by side, each two wide, both touching the front of five orcs (Ld 7, Steadfast: one
    Full Rank against none); the Spearmen charged (+1), so the orcs lose by 1 and break on 8 or more."""
    data = _melee(n=4, spear_status=["engaged", "charged"], joined=False, hero_at=(10, 10))
    spears = data["sides"]["elves"][0]
    spears["formation"] = {"position": [34.9, 20], "files": 2}
    guards = copy.deepcopy(spears)
    guards["id"] = "guards"
    guards["status"] = ["engaged"]
    guards["formation"] = {"position": [37.1, 20], "files": 2}
    for m in guards["models"]:
        m["name"] = "g" + m["name"]
    data["sides"]["elves"].append(guards)
    return data


def _fight(**extra: Any) -> dict[str, Any]:
    return {"do": "fight", "unit": "spears", **extra}


def _told(events: list[Any]) -> str:
    return next(e for e in events if e.kind == "break").message


# -- 1. the pursuer chooses one broken unit ---------------------------------------------------------------------------
@pytest.mark.rule(PURSUIT, BREAK)
def test_a_pursuer_touching_two_broken_units_pursues_only_the_first_that_broke_by_default() -> None:
    g = reloading_game(_two_losers())
    # orcs 6 6 breaks, flees 3 3; orcs2 6 6 breaks, flees 2 2; the Spearmen's one pursuit, 6 6, catches orcs
    events = g.apply(_fight(), ScriptedDice([6, 6, 3, 3, 6, 6, 2, 2, 6, 6]))
    told = _told(events)
    assert "orcs takes a Break test on Ld 5 (o0) -1: 12, breaks and flees 6\", caught by a pursuit of 12\"" in told, told
    assert "orcs2 takes a Break test on Ld 5 (po0) -1: 12, breaks and flees 4\" (no pursuit: spears pursues orcs)" \
        in told, told
    assert not g.state.unit("orcs").models and g.state.unit("orcs2").has(Status.FLEEING)
    assert not g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)


@pytest.mark.rule(PURSUIT, BREAK)
def test_the_pursuer_chooses_which_broken_unit_it_pursues() -> None:
    g = reloading_game(_two_losers())
    fight = _fight(pursuit={"spears": {"pursue": "orcs2"}})
    ruling = g.check(fight)
    assert ruling.legal and "spears pursues orcs2 if it breaks" in ruling.reason and PURSUIT in ruling.rules, ruling
    events = g.apply(fight, ScriptedDice([6, 6, 3, 3, 6, 6, 2, 2, 6, 6]))
    told = _told(events)
    assert "orcs takes a Break test on Ld 5 (o0) -1: 12, breaks and flees 6\" (no pursuit: spears pursues orcs2)" \
        in told, told
    assert "orcs2 takes a Break test on Ld 5 (po0) -1: 12, breaks and flees 4\", caught by a pursuit of 12\"" in told
    assert not g.state.unit("orcs2").models and g.state.unit("orcs").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(PURSUIT, BREAK)
def test_a_chosen_unit_that_held_leaves_the_pursuer_engaged_and_one_that_did_not_break_is_told() -> None:
    g = reloading_game(_two_losers())
    # orcs breaks (6 6, flees 3 3); orcs2, the one the Spearmen chose, holds (1 1): still engaged, nobody is pursued
    events = g.apply(_fight(pursuit={"spears": {"pursue": "orcs2"}}), ScriptedDice([6, 6, 3, 3, 1, 1]))
    told = _told(events)
    assert "orcs takes a Break test on Ld 5 (o0) -1: 12, breaks and flees 6\" (no pursuit: spears is still engaged " \
           "with orcs2)" in told, told
    assert g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(PURSUIT, BREAK)
def test_every_winner_touching_the_broken_unit_pursues_it() -> None:
    g = reloading_game(_two_winners())
    # Steadfast orcs on Ld 7 break on 6 6, flee 6 6; the Spearmen's pursuit 1 1 falls short, the Guards' 6 6 catches
    events = g.apply(_fight(), ScriptedDice([6, 6, 6, 6, 1, 1, 6, 6]))
    told = _told(events)
    assert "breaks and flees 12\", pursued by spears 2\" and guards 12\": caught and destroyed" in told, told
    assert not g.state.unit("orcs").models
    reloads(g)


# -- 2. Restrain Pursuit -----------------------------------------------------------------------------------------------
@pytest.mark.rule(PURSUIT, "core.test.leadership")
@pytest.mark.parametrize("restrain, caught", [([4, 4], False), ([5, 5], True)])
def test_a_winner_restrains_its_pursuit_on_a_passed_discipline_test(restrain: list[int], caught: bool) -> None:
    g = reloading_game(_one_on_one())
    fight = _fight(pursuit={"spears": {"restrain": True}})
    ruling = g.check(fight)
    assert ruling.legal and "spears tries to Restrain Pursuit if its enemy breaks" in ruling.reason, ruling
    # the orcs break on 6 6 (Ld 7 - 2) and flee 3 3; the Spearmen's Restrain Pursuit test on their Ld 8
    dice = [6, 6, 3, 3, *restrain] + ([6, 6] if caught else [])
    events = g.apply(fight, ScriptedDice(dice))
    told = _told(events)
    if caught:
        assert f"spears fails its Restrain Pursuit test on Ld 8 (s0): {sum(restrain)}, and pursues" in told, told
        assert "caught by a pursuit of 12\"" in told and not g.state.unit("orcs").models
    else:
        assert f"spears passes its Restrain Pursuit test on Ld 8 (s0): {sum(restrain)}, and does not pursue" \
            in told, told
        assert g.state.unit("orcs").has(Status.FLEEING) and len(g.state.unit("orcs").models) == 5
    assert PURSUIT in next(e for e in events if e.kind == "break").rules
    assert not g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)


@pytest.mark.rule(PURSUIT, BREAK, "core.test.leadership")
def test_the_odds_of_catching_after_a_restrain_test_equal_brute_force() -> None:
    state = reloading_game(_one_on_one()).state
    weights = dict(exact_odds_as_brute_force(state, _fight(pursuit={"spears": {"restrain": True}})))
    caught = sum(p for o, p in weights.items() if "break.outcome: destroyed" in o.events)
    breaks = 1 - at_most(5)
    catch = sum(Fraction(c, 36) * (1 - at_most(f - 1)) for f, c in TWO_D6.items())
    assert caught == breaks * (1 - at_most(8)) * catch


@pytest.mark.rule(PURSUIT, BREAK)
def test_a_restrained_pursuit_simulates_exactly_and_by_the_engine() -> None:
    data = _one_on_one()
    plan = [_fight(pursuit={"spears": {"restrain": True}})]
    exact = simulate(data, runs=400, seed=7, plan=plan)
    marginals = exact.marginals()
    destroyed = marginals["orcs: models lost"]
    breaks = 1 - at_most(5)
    catch = sum(Fraction(c, 36) * (1 - at_most(f - 1)) for f, c in TWO_D6.items())
    assert destroyed[5][1] == breaks * (1 - at_most(8)) * catch, destroyed
    engine = simulate(data, runs=60, seed=7, plan=plan, method="engine").marginals()["orcs: models lost"]
    assert sum(n for n, _ in engine.values()) == 60


@pytest.mark.rule(PURSUIT, GENERAL)
def test_a_winner_restrains_on_its_generals_discipline_within_12_inches() -> None:
    data = _one_on_one()
    data["sides"]["elves"][1]["rules"] = ["General"]  # the Hero, Ld 9, 8" behind the Spearmen
    g = reloading_game(data)
    events = g.apply(_fight(pursuit={"spears": {"restrain": True}}), ScriptedDice([6, 6, 3, 3, 5, 4]))
    told = _told(events)
    assert "spears passes its Restrain Pursuit test on Ld 9 (Hero): 9, and does not pursue" in told, told
    assert GENERAL in next(e for e in events if e.kind == "break").rules


@pytest.mark.rule(PURSUIT)
def test_a_restrain_entry_rolls_nothing_when_no_enemy_breaks() -> None:
    g = reloading_game(_one_on_one())
    dice = ScriptedDice([1, 1])  # the orcs hold: nobody to pursue, no Restrain test
    events = g.apply(_fight(pursuit={"spears": {"restrain": True}}), dice)
    assert [r.purpose for e in events for r in e.rolls][-1].startswith("Break"), events
    assert g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("entry, why", [
    ({"guards": {"restrain": True}}, "pursuit: guards is not a unit of this game"),
    ({"hero": {"restrain": True}}, "pursuit: hero is not a unit of this combat"),
    ({"spears": {"pursue": "spears"}}, "pursuit: spears.pursue: spears is not an enemy of spears"),
    ({"spears": {"pursue": "hero"}}, "pursuit: spears.pursue: hero is not an enemy of spears"),
    ({"spears": {"pursue": "orcs9"}}, "pursuit: spears.pursue: orcs9 is not a unit of this game"),
])
def test_a_bad_pursuit_entry_is_refused_naming_the_field(entry: dict[str, Any], why: str) -> None:
    g = reloading_game(_one_on_one())
    refused(g, _fight(pursuit=entry), PURSUIT, why)


@pytest.mark.rule(PURSUIT)
def test_a_pursuit_naming_a_joined_character_or_an_enemy_out_of_contact_is_refused() -> None:
    data = _two_winners()
    data["sides"]["elves"][1]["joined"] = "guards"
    data["sides"]["elves"][1]["models"][0].pop("at")
    far = copy.deepcopy(data["sides"]["orcs"][0])
    far["id"] = "far"
    far["status"] = []
    far["formation"]["position"] = [10, 40]
    for m in far["models"]:
        m["name"] = "f" + m["name"]
    data["sides"]["orcs"].append(far)
    g = reloading_game(data)
    refused(g, _fight(pursuit={"hero": {"restrain": True}}), PURSUIT,
            "pursuit: hero is part of guards: the unit pursues, with it")
    refused(g, _fight(pursuit={"spears": {"pursue": "far"}}), PURSUIT,
            "pursuit: spears.pursue: far is not in base contact with spears")


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("entry, field", [
    ({"spears": {"restrain": "yes"}}, "pursuit.spears.restrain"),
    ({"spears": {"chase": "orcs"}}, "pursuit.spears.chase"),
    ({"spears": True}, "pursuit.spears"),
])
def test_a_malformed_pursuit_entry_is_one_error_naming_the_field(entry: dict[str, Any], field: str) -> None:
    g = reloading_game(_one_on_one())
    before = g.state
    with pytest.raises(HerohammerError, match=field.replace(".", r"\.")):
        g.check(_fight(pursuit=entry))
    assert g.state is before


@pytest.mark.rule(PURSUIT)
def test_the_cli_refuses_a_bad_pursuit_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(_one_on_one()), encoding="utf-8")
    action = json.dumps(_fight(pursuit={"spears": {"pursue": "spears"}}))
    assert main(["check", str(path), "--action", action]) == 0
    out = capsys.readouterr().out.strip()
    assert out == f"ILLEGAL: pursuit: spears.pursue: spears is not an enemy of spears [{PURSUIT}]", out


# -- 3. a Broken General lends no Discipline --------------------------------------------------------------------------
def _generals_two_losers() -> dict[str, Any]:
    data = _two_losers()
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "joined": "orcs", "rules": ["General"],
                                  "models": [{"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A0 Ld9 Sv5+ Adv4 Mar8",
                                              "base": [25, 25]}]})
    return data


@pytest.mark.rule(BREAK, GENERAL)
def test_a_broken_general_lends_the_next_break_test_nothing_and_the_test_says_why() -> None:
    g = reloading_game(_generals_two_losers())
    # the General's unit breaks (6 6) and flees (3 3); orcs2 then tests on its own Ld 5 - 1: 4 4 breaks, flees 2 2;
    # one pursuit (1 1) of orcs, which escapes
    events = g.apply(_fight(), ScriptedDice([6, 6, 3, 3, 4, 4, 2, 2, 1, 1]))
    told = _told(events)
    assert "orcs2 takes a Break test on Ld 5 (po0) -1 (not Boss's Ld 9: the General broke with orcs, and a Fleeing " \
           "model lends no Discipline): 8, breaks" in told, told
    assert GENERAL in next(e for e in events if e.kind == "break").rules


# -- 4. messages --------------------------------------------------------------------------------------------------------
@pytest.mark.rule("t9a.charge-out.stand-and-shoot", SAS)
def test_a_character_slain_by_stand_and_shoot_as_he_charges_out_is_named_once() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))  # the Spearmen's Panic test: 2, passed
    charge = events[0].message
    assert charge.lower().count("hero") == 1, charge
    assert charge.startswith("hero is slain by the Stand and Shoot of orcs (5 shots, 5 at Long Range)"), charge
    assert not g.state.unit("hero").alive and g.state.unit("spears").alive


@pytest.mark.rule(SAS)
def test_a_unit_slain_to_the_last_by_stand_and_shoot_is_told_once() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34, n=2, joined=False))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "stand_and_shoot"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5))
    charge = events[0].message
    assert charge.startswith("spears is slain to the last model by the Stand and Shoot of orcs"), charge
    assert "slain: s0" not in charge, charge


@pytest.mark.rule("published.t9a-reform")
def test_a_reform_refused_for_an_engaged_unit_says_it_cannot_reform() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=20, spear_status=["engaged"],
                                orc_status=["engaged"]))
    refused(g, {"do": "reform", "unit": "spears", "facing": 90}, "published.t9a-reform",
            "spears is engaged in combat and cannot reform")
    assert "cannot move" not in g.check({"do": "reform", "unit": "spears", "facing": 90}).reason


@pytest.mark.rule(LAST, PURSUIT)
def test_a_last_survivor_caught_by_the_pursuit_is_the_unit_destroyed_not_a_character_with_it() -> None:
    g = reloading_game(_melee(active="orcs", n=2, orc_profile="WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"))
    # the Hero misses (1 1 1); the orcs slay both Spearmen; the Hero alone breaks (6 6), flees 2 2, is caught (6 6)
    events = g.apply({"do": "fight", "unit": "orcs"},
                     ScriptedDice([1, 1, 1] + [6, 6, 6] + [6, 6, 6] + [1, 1, 1] + [6, 6] + [2, 2] + [6, 6]))
    told = _told(events)
    assert "caught by a pursuit of 12\" and destroyed (hero, its last survivor)" in told, told
    assert "with it" not in told
    assert LAST in next(e for e in events if e.kind == "break").rules


# -- 5. the last survivor of a combined unit, named by his unit's name ---------------------------------------------------
def _last_hero() -> dict[str, Any]:
    """The Hero, last survivor of the Spearmen (destroyed around him), charged the five orcs alone this turn."""
    data = _melee(spear_status=[], joined=False, hero_at=(36, 19.606299213), hero_status=["engaged", "charged"])
    spears = data["sides"]["elves"][0]
    spears["models"] = []
    spears["destroyed"] = True
    spears.pop("formation")
    data["sides"]["elves"][1]["last_of"] = "spears"
    return data


@pytest.mark.rule(LAST, PURSUIT)
def test_a_last_survivor_named_by_his_units_name_restrains_his_pursuit() -> None:
    g = reloading_game(_last_hero())
    fight = {"do": "fight", "unit": "spears", "pursuit": {"spears": {"restrain": True}}}
    ruling = g.check(fight)
    assert ruling.legal and "hero tries to Restrain Pursuit" in ruling.reason and LAST in ruling.rules, ruling
    # three blows slay three orcs (6s to hit and to wound, their 6+ saves fail on 1s); +1 charge: 4 to 0; the orcs
    # break on 6 6 (Ld 7 - 4), flee 3 3; the Hero's Restrain test on his Ld 9: 5 5 fails, his pursuit of 6 6 catches
    events = g.apply(fight, ScriptedDice([6, 6, 6] + [6, 6, 6] + [1, 1, 1] + [6, 6, 3, 3, 5, 5, 6, 6]))
    told = _told(events)
    assert "hero fails its Restrain Pursuit test on Ld 9 (Hero): 10, and pursues orcs anyway" in told, told
    assert not g.state.unit("orcs").models
    reloads(g)


@pytest.mark.rule(LAST, BREAK)
def test_a_break_order_naming_a_last_survivor_by_his_units_name_is_his() -> None:
    g = reloading_game(_last_hero())
    ruling = g.check({"do": "fight", "unit": "hero", "break_order": ["spears"]})
    assert ruling.legal and "Break tests in the order hero" in ruling.reason, ruling
    ruling = g.check({"do": "fight", "unit": "hero", "pursuit": {"hero": {"pursue": "orcs"}, "spears": {}}})
    assert not ruling.legal and "pursuit: hero is named twice" in ruling.reason, ruling


# -- 6. charges out: the unit's bar told with its one reason ----------------------------------------------------------
@pytest.mark.rule("t9a.charge-out.no-other-charges", "t9a.charge-out.stand-and-shoot")
def test_a_unit_whose_character_charged_out_and_died_is_told_why_it_cannot_charge() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"},
            ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert not g.state.unit("hero").alive
    # slain, he still charged out: the unit may not declare a charge this turn
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "a character charged out of spears this turn: spears cannot declare a "
                                               "charge")
    assert " or " not in g.check({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}).reason


@pytest.mark.rule("t9a.charge-out.no-other-charges", "t9a.charge-out.declare")
def test_a_character_in_a_unit_that_charged_is_told_his_unit_charged() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=32)
    data["sides"]["elves"].append({"id": "mage", "character": "independent", "joined": "spears",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]})
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([4, 4]))
    ruling = g.check({"do": "charge", "unit": "mage", "target": "orcs", "reaction": "hold"})
    assert not ruling.legal and "spears charged this turn: mage, part of it, cannot declare a charge out of it" \
        in ruling.reason and " or " not in ruling.reason, ruling


# -- 7. sequences that hold: a charge out won and restrained, an overrun, the reactive winner, a Battle Standard -------
@pytest.mark.rule("t9a.charge-out.success", PURSUIT, GENERAL, "t9a.char.lone")
def test_a_character_who_charged_out_restrains_on_the_general_he_left_in_his_unit() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=32)
    data["sides"]["elves"].append({"id": "gen", "character": "independent", "joined": "spears", "rules": ["General"],
                                   "models": [{"name": "Gen", "profile": HERO.replace("Ld9", "Ld10"),
                                               "base": [20, 20]}]})
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([4, 4]))
    play_to(g, "melee", "elves")
    # the Hero alone slays three orcs (their 6+ saves fail on 1s) and wins by 4; the one orc left in his contact
    # misses (1; round 63: the single rank's casualties fall from both ends, the rest stand); the orcs break on 1 6
    # (Ld 7 - 4), flee 6 6; the Hero, a unit of his own since his charge out, tests on the General's Ld 10 (within
    # 12"): 5 5 passes
    events = g.apply({"do": "fight", "unit": "hero", "pursuit": {"hero": {"restrain": True}}},
                     ScriptedDice([6] * 6 + [1] * 3 + [1] + [1, 6] + [6, 6] + [5, 5]))
    told = _told(events)
    assert "hero passes its Restrain Pursuit test on Ld 10 (Gen): 10, and does not pursue" in told, told
    assert "(no pursuit: hero restrained its pursuit)" in told
    assert g.state.unit("orcs").has(Status.FLEEING) and not g.state.unit("hero").has(Status.ENGAGED)
    reloads(g)


@pytest.mark.rule(PURSUIT, "published.t9a-combat-resolution")
def test_a_winner_that_slew_every_enemy_takes_no_restrain_test() -> None:
    # the Hero's three blows slay the one orc (its 6+ saves fail on 1s): no broken unit, nothing to pursue (the
    # Overrun, not modelled, asks no Restrain test either): no die after the blows
    g = reloading_game(_melee(orcs=1, spear_status=["engaged", "charged"]))
    dice = ScriptedDice([6, 6, 6] + [6, 6, 6] + [1, 1, 1])
    events = g.apply(_fight(pursuit={"spears": {"restrain": True}}), dice)
    assert "the combat ends: one side has no models left" in events[-1].message, events[-1].message
    assert not any("Restrain" in r.purpose for e in events for r in e.rolls)
    assert not g.state.unit("orcs").alive


@pytest.mark.rule(PURSUIT, BREAK)
def test_the_reactive_sides_winner_may_restrain_too() -> None:
    # the orcs' turn: they fight the Spearmen and lose by 2 (ranks, the Spearmen's charge bonus kept from the file)
    g = reloading_game(_melee(active="orcs", spear_status=["engaged", "charged"], joined=False, hero_at=(36, 10)))
    fight = {"do": "fight", "unit": "orcs", "pursuit": {"spears": {"restrain": True}}}
    assert g.check(fight).legal
    events = g.apply(fight, ScriptedDice([6, 6, 3, 3, 2, 2]))
    assert "spears passes its Restrain Pursuit test on Ld 8 (s0): 4, and does not pursue" in _told(events)


@pytest.mark.rule(PURSUIT, "published.t9a-battle-standard")
def test_a_failed_restrain_test_is_re_rolled_for_the_battle_standard() -> None:
    data = _one_on_one()
    data["sides"]["elves"][1]["rules"] = ["Battle Standard Bearer"]  # the Hero, 8" behind the Spearmen
    g = reloading_game(data)
    # the orcs break (6 6) and flee (3 3); the Restrain test fails on 5 5, is re-rolled, and 4 4 passes
    events = g.apply(_fight(pursuit={"spears": {"restrain": True}}), ScriptedDice([6, 6, 3, 3, 5, 5, 4, 4]))
    told = _told(events)
    assert "spears passes its Restrain Pursuit test on Ld 8 (s0) (the first roll, 10, failed and was re-rolled for " \
           "Rally Around the Flag (Hero, the Battle Standard Bearer)" in told, told
    assert "published.t9a-battle-standard" in next(e for e in events if e.kind == "break").rules


@pytest.mark.rule(PURSUIT, "t9a.join.part-of-unit", GENERAL)
def test_a_broken_unit_caught_takes_its_general_with_it() -> None:
    g = reloading_game(_generals_two_losers())
    # the General's unit breaks first (6 6, flees 3 3); orcs2 holds on 1 1: the Spearmen, engaged with orcs2, do not
    # pursue; then the same with orcs2 first: 4 4 holds on the General's Ld 9 - 1, orcs breaks on 6 6, flees 1 1
    events = g.apply(_fight(break_order=["orcs2", "orcs"], pursuit={"spears": {"pursue": "orcs"}}),
                     ScriptedDice([4, 4, 6, 6, 1, 1]))
    told = _told(events)
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks and flees 2\" (no pursuit: spears is still " \
           "engaged with orcs2)" in told, told
    g.undo()
    # both break with the General's unit first; the one pursuit (of orcs, chosen) catches it and the Boss with it
    events = g.apply(_fight(pursuit={"spears": {"pursue": "orcs"}}), ScriptedDice([6, 6, 3, 3, 6, 6, 2, 2, 6, 6]))
    told = _told(events)
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks and flees 6\", caught by a pursuit of 12\" and " \
           "destroyed (boss with it)" in told, told
    assert not g.state.unit("boss").alive and g.state.unit("orcs2").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(PURSUIT)
def test_the_cli_plays_a_restrain_pursuit_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(_one_on_one()), encoding="utf-8")
    action = json.dumps(_fight(pursuit={"spears": {"restrain": True}}))
    assert main(["play", str(path), "--action", action, "--dice", "6,6,3,3,4,4"]) == 0
    out = capsys.readouterr().out
    assert "Restrain Pursuit test (Ld 8): 2D6 -> 8" in out and "and does not pursue" in out, out
