"""Round 54: a 9th Age judge's cases on charging out of a unit, joining and leaving across phases, and the last
survivor, played as sequences through Game (apply, check, undo, legal_actions, a save and load between steps), the
rules code under exact enumeration (action_odds against brute force or an independent count) and the command line
(`check`, `odds action --json`), checked against seed 002 (XX.2 Characters: charging out: declaration, Stand and Shoot,
no other charges, his own rate and the unit's charge bonuses, success, failure; joining; leaving; the last survivor)
and the 2022 rulebook where the seed defers to the general rules (Swiftstride; Stand and Shoot: "farther away than
its Advance Rate"; Shaken; March Test; Combat Score and Break Test).

The clauses the earlier rounds tested least (counted in tests/test_judge_t9a*.py) led: t9a.charge-out.own-rate (10),
t9a.leave.move (13), t9a.charge-out.stand-and-shoot (16), t9a.join.character-units (16).

Cases: 1. a Hero without Swiftstride charging out of Swiftstride Spearmen at orcs 12" away: the ruling (Game.check and
the CLI's check) on 5" + 3D6, the lowest discarded; the Spearmen's own charge on 2D6; the exact odds (CLI `odds action
--json`) against the three dice brute-forced (29/36 reach, 41/216 leave, 1/216 stay Shaken). 2. a Hero of Advance 7 in
Advance 5 Spearmen: orcs 6" away may not Stand and Shoot at him (his own rate) but may at the whole unit; 10" away
they may, every hit his (played: one wound on him, none on the unit). 3. the same orcs with the Stand and Shoot rule,
unasked. 4. two bows at a one-Wound Hero charging out: the odds (slain and his old unit fleeing, charged, out of the
unit, stayed) brute-forced over six dice; his fall and the Spearmen's Panic test on their own Ld 8; an undo; a save
and load. 5. a failed charge out that stays: Shaken through the Movement and Shooting phases (nothing offered, bows
refused), not in the orcs' turn (their charge met by Stand and Shoot). 6. a failed charge out that leaves: his Failed
Charge move was his move (no move, no join), the Spearmen March on their own Ld 8 where with him they tested on his 9;
an undo. 7. a charge out whose combat goes on into the orcs' turn (his charge bonus, their Break test on Ld 7, a draw),
a save and load between turns, the Spearmen's bar gone next turn. 8. two Spearmen cut down around their Hero in the
orcs' Melee phase: his Break test as the unit (Ld 9 -2), no Panic test for a friend 5.6" away, and the exact odds of
the break against a binomial count. 9. the judge's Initiative and Panic tests of that unit by either name. 10. a lone
Hero joining Spearmen that had moved (they stop: Reform and move refused; he may not leave), then charging out of them
next turn; an undo. 11. a Mage (his own Swiftstride, Advance 6) charging out of a unit of characters led by the Hero:
6" + 3D6 ruled, the odds brute-forced, the leader barred, both Shaken on 1 1 1; a save and load.

Found wrong (each first committed as a strict xfail, then fixed and its mark removed):

1. Wrong ruling, missing citation (df3dc484, fixed in b1bf5a02): a charge's ruling said "Charge Range 5\" + 2D6" for a
   charger that rolls 3D6 and drops the lowest with Swiftstride (published.t9a-swiftstride), a Hero charging out with
   his old unit's bonus too (t9a.charge-out.own-rate: "may use charge bonuses that applied to the unit it left"), and
   cited neither; the resolution rolled the three dice. ``ChargeRules._range_said`` gives the ruling the dice the
   resolution will roll (``swiftstride``), the rule and whose bonus it is, or why a combined unit lacks it.
2. Missing citation (xfail in b1bf5a02, fixed in 772d77e6): the Stand and Shoot ruled against a character charging
   out cited only the reaction's rules: refused because he starts no farther than his own Advance Rate (7", where his
   unit's is 5"), it now says the rate is "his own as he charges out" and cites t9a.charge-out.own-rate
   (``t9a_stand_and_shoot.stand_and_shoot_volley``); allowed, named or taken unasked by a unit with the rule, it cites
   t9a.charge-out.stand-and-shoot and says every hit is his (``ChargeRules._reaction_problem``, ``_default_volley``).
3. Missing citation (7f274b43, fixed in 465a982e): a test the judge calls (the test action) of a destroyed combined
   unit, by its name or its survivor's, was ruled and taken as the character's alone, citing only the tests' clauses,
   though the seed names the survivor's Panic test as its own case; ``NinthAge.rule_test``/``resolve_test`` cite
   t9a.combined.last-survivor and say that he takes it as all that is left of the unit.

Decisions stated (data/rules.yaml): t9a.charge-out.own-rate, published.t9a-swiftstride, t9a.combined.last-survivor
amended (round 54), t9a.charge-out.stand-and-shoot given a decision; book entries
t9a-a-hero-charging-out-rolls-his-old-units-swiftstride and t9a-a-judges-test-of-a-unit-cut-down-to-its-hero-is-his;
docs/t9a.md rebuilt (its charge-out example's check now notes that every Stand and Shoot hit is the Wizard's).

Every other case holds as the texts read (see each test's comment).

Considered and left: a plain unit's charge ruling does not say that a target with the Stand and Shoot rule will take
it unasked (only a charge out's now does; the common charge looks at no volley while legal_actions lists it, kept for
speed). legal_actions offers no move of the Spearmen whose sampled forward moves their own Hero (failed charge out,
3" ahead) blocks, though a sideways move is legal: legal_actions samples moves, it does not list them all. A Stand and
Shoot that wounds but does not slay a character charging out said "none slain" and not his wounds: now it says them
too (after the round, ``ChargeRules`` in t9a_charges, checked in the first Stand and Shoot case). A charge out never
wheels (refused: "a wheel is a unit's"), while a lone character's charge may; kept (published.t9a-wheel's decision: "a
character charging out moves straight in").
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from math import comb
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import printed
from _t9a import (HERO, STILL_ORC, STILL_SPEAR, offered, play_to, refused, reloading_game, reloads, saved_and_loaded,
                  scenario)
from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.units import Status

SWIFT = "published.t9a-swiftstride"
OWN_RATE = "t9a.charge-out.own-rate"
DECLARE = "t9a.charge-out.declare"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
D6 = range(1, 7)


def _charge_dice(events: list[Any]) -> list[int]:
    return [f for e in events for r in e.rolls if "charge die" in r.purpose for f in r.faces]


# -- 1. the Charge Range a ruling gives a charger with Swiftstride ------------------------------------------------------
def _swift_spears(tmp_path: Path | None = None) -> dict[str, Any]:
    """Ten Spearmen with Swiftstride and their Hero without it, orcs 12" ahead (no Stand and Shoot), the elves'
    Charge phase."""
    return scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32, spear_rules=["Swiftstride"])


@pytest.mark.rule(OWN_RATE, SWIFT, DECLARE, "published.t9a-charge")
def test_a_charge_out_with_the_units_swiftstride_is_ruled_on_three_dice_and_its_odds_are_the_dice(
        tmp_path: Path) -> None:
    # The Hero lacks Swiftstride; the Spearmen have it. Charging out, he "may use charge bonuses that applied to the
    # unit it left" (seed 002): he rolls 3D6 and drops the lowest (published.t9a-swiftstride), and the resolution does
    # (round 28). The ruling a judge reads before the dice must say so: "5\" + 3D6, the lowest discarded", citing the
    # Swiftstride rule and the seed's clause, and naming whose bonus it is. The Spearmen's own charge with him in
    # them rolls the plain 2D6 (he lacks the rule: a unit has it only when every model does), and its ruling says why.
    g = reloading_game(_swift_spears())
    charge = {"do": "charge", "unit": "hero", "target": "orcs"}
    ruling = g.check(charge)
    assert ruling.legal and "5\" + 3D6, the lowest discarded" in ruling.reason, ruling
    assert SWIFT in ruling.rules and OWN_RATE in ruling.rules, ruling
    assert any("spears's Swiftstride" in n and OWN_RATE in n for n in ruling.notes), ruling
    unit_ruling = g.check({"do": "charge", "unit": "spears", "target": "orcs"})
    assert unit_ruling.legal and "5\" + 2D6" in unit_ruling.reason and SWIFT in unit_ruling.rules, unit_ruling
    assert any("hero lacks Swiftstride" in n for n in unit_ruling.notes), unit_ruling
    # the command line's check says the same
    path = tmp_path / "swift.yaml"
    path.write_text(yaml.safe_dump(_swift_spears()))
    said = printed("check", str(path), "--action", json.dumps(charge))
    assert said.startswith("LEGAL") and "3D6, the lowest discarded" in said and SWIFT in said, said
    # exact odds: 12" to reach on 5" + the two highest of three dice; failed, the Failed Charge move is the highest
    # die, and only a 1 leaves him 0.21" from his neighbours: he stays and the unit is Shaken
    want: dict[str, Fraction] = {}
    for dice in product(D6, repeat=3):
        top = sorted(dice, reverse=True)
        outcome = "charged" if 5 + top[0] + top[1] >= 12 else ("failed_left" if top[0] >= 2 else "failed_stayed_shaken")
        want[outcome] = want.get(outcome, Fraction(0)) + Fraction(1, 216)
    assert want == {"charged": Fraction(29, 36), "failed_left": Fraction(41, 216),
                    "failed_stayed_shaken": Fraction(1, 216)}
    odds = json.loads(printed("odds", "action", str(path), "--action", json.dumps(charge), "--json", "--quiet"))
    assert odds["result"]["exact"] and SWIFT in odds["rules"], odds
    rows = odds["result"]["rows"]
    assert {k.split(": ")[1]: Fraction(v) for k, v in rows.items() if k.startswith("charge.outcome")} == want, rows
    # played: 1 1 1 is the only stay; 2 2 6 reaches (6 + 2 + 5 = 13)
    events = g.apply(charge, ScriptedDice([1, 1, 1]))
    assert _charge_dice(events) == [1, 1, 1] and g.state.unit("spears").has(Status.SHAKEN), events[-1].message
    g.undo()
    events = g.apply(charge, ScriptedDice([2, 2, 6]))
    assert SUCCESS in events[-1].rules and g.state.unit("hero").has(Status.ENGAGED), events[-1].message


# -- 2. Stand and Shoot against a character charging out: his own Advance Rate, every hit his --------------------------
FAST_HERO = HERO.replace("Adv5 Mar10", "Adv7 Mar14")
SNS = "published.t9a-stand-and-shoot"
OUT_SNS = "t9a.charge-out.stand-and-shoot"


def _fast_hero(enemy_y: float) -> dict[str, Any]:
    """The Spearmen (Advance 5) with a Hero of Advance 7, orc archers ``enemy_y - 20``" ahead, the elves' Charge
    phase."""
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=enemy_y)
    data["sides"]["elves"][1]["models"][0]["profile"] = FAST_HERO
    return data


@pytest.mark.rule(OWN_RATE, OUT_SNS, SNS, DECLARE)
def test_stand_and_shoot_at_a_character_charging_out_is_ruled_by_his_own_rate_and_says_every_hit_is_his() -> None:
    # The orcs stand 6" ahead. Charging out, the Hero uses his own Advance Rate (seed 002: "свою персональную Скорость
    # наступления"), 7": he starts no farther than it, so the orcs may not Stand and Shoot (published.t9a-stand-and-
    # shoot) - a refusal decided by the seed's clause, which it must cite and say. The whole Spearmen charging the
    # same orcs move at their slowest Advance Rate, 5": 6" is farther, Stand and Shoot allowed. Ten inches away
    # (another table) the Hero may be stood and shot at, and the ruling says what the seed says of it: every hit is
    # his (t9a.charge-out.stand-and-shoot), as the resolution already does.
    g = reloading_game(_fast_hero(26))
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    refused(g, charge, OWN_RATE, "not farther than its Advance Rate (7\"), his own as he charges out")
    assert SNS in g.check(charge).rules
    ruling = g.check({"do": "charge", "unit": "hero", "target": "orcs"})
    assert ruling.legal and "7\" + 2D6" in ruling.reason and OWN_RATE in ruling.rules, ruling
    unit = g.check({**charge, "unit": "spears"})
    assert unit.legal and SNS in unit.rules and OWN_RATE not in unit.rules, unit
    far = reloading_game(_fast_hero(30))
    ruling = far.check(charge)
    assert ruling.legal and SNS in ruling.rules and OUT_SNS in ruling.rules, ruling
    assert "every hit on hero" in ruling.reason, ruling
    # played: five arrows at 5+ (BS 3, -1 to Stand and Shoot), two hit, both wound his T4 on 5+, one save of 4+
    # fails: one wound on the Hero, nothing on the Spearmen; 7 + 1 + 2 = 10 reaches
    events = far.apply(charge, ScriptedDice([5, 6, 1, 1, 1, 5, 6, 4, 1, 1, 2]))
    assert OUT_SNS in events[-1].rules and SUCCESS in events[-1].rules, events[-1]
    assert far.state.unit("hero").models[0].wounds_taken == 1 and len(far.state.unit("spears").models) == 10
    # the wound that did not slay him is told with the shots (it said only "none slain" before)
    hero = far.state.unit("hero").models[0]
    assert f"none slain ({hero.name} takes 1 unsaved wound, {hero.wounds_left} Wound" in events[-1].message, events[-1]


@pytest.mark.rule(OWN_RATE, OUT_SNS, SNS)
def test_orcs_that_stand_and_shoot_unasked_are_ruled_on_for_a_character_charging_out() -> None:
    # The same orcs with the Stand and Shoot rule take it unasked (published.t9a-stand-and-shoot): the ruling on the
    # Hero's charge out names no reaction, and says what the reaction will be: at 6" none (his own 7" Advance Rate),
    # at 10" a Stand and Shoot whose every hit is his. legal_actions offers the Hold beside it only where the
    # Stand and Shoot may be taken.
    for enemy_y, said, cited in ((26, "its Advance Rate (7\"), his own as he charges out: it Holds", OWN_RATE),
                                 (30, "every hit of a Stand and Shoot at him is his", OUT_SNS)):
        data = _fast_hero(enemy_y)
        data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
        g = reloading_game(data)
        ruling = g.check({"do": "charge", "unit": "hero", "target": "orcs"})
        assert ruling.legal and cited in ruling.rules and SNS in ruling.rules, ruling
        assert len(set(ruling.rules)) == len(ruling.rules) and any(said in n for n in ruling.notes), ruling
        holds = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
        assert (holds in offered(g, "charge")) == (enemy_y == 30)


# -- 3. Stand and Shoot at a frail Hero charging out: the odds, his fall and his old unit's Panic test -------------------
FRAIL_HERO = "WS6 BS6 S4 T4 W1 I6 A0 Ld9 Sv- Adv5 Mar10"
PANIC = "published.t9a-panic"


def _frail_charge_out() -> dict[str, Any]:
    """Ten Spearmen and their one-Wound Hero without a save; two orc archers 10" ahead; the elves' Charge phase."""
    data = scenario(n=10, orcs=2, phase="charge", active="elves", enemy_y=30)
    data["sides"]["elves"][1]["models"][0]["profile"] = FRAIL_HERO
    return data


def _charge_out_outcome(state: Any) -> tuple[str, bool]:
    """How a charge out ended (the Hero slain, in contact, out of his unit, or still in it) and whether his old unit
    flees."""
    hero, spears = state.unit("hero"), state.unit("spears")
    if not hero.alive:
        where = "slain"
    elif hero.has(Status.ENGAGED):
        where = "charged"
    else:
        where = "stayed" if hero.joined else "left"
    return where, spears.has(Status.FLEEING)


@pytest.mark.rule(OUT_SNS, DECLARE, OWN_RATE, SUCCESS, FAILURE, PANIC, SNS)
def test_the_odds_of_a_charge_out_into_two_bows_are_the_dice_brute_forced_and_his_fall_panics_his_old_unit() -> None:
    # Two arrows at 5+ (BS 3, -1 for Stand and Shoot), every hit the Hero's (seed 002); an S3 arrow wounds his T4 on
    # 5+, and with one Wound and no save one wound slays him. Slain, he is a friendly unit destroyed (a separate unit
    # from his declaration): the Spearmen take a Panic test on their own Ld 8 (his 9 is gone) and flee on 9 or more.
    # Alive, he rolls 5" + 2D6 against 10": he reaches on 5 or more; failed, his Failed Charge move (the higher die)
    # leaves the unit unless it is 1 (1 1: he stays and the unit is Shaken). Brute force over six dice: two to hit,
    # up to two to wound (one per hit), two for the Charge Range or the Panic test (a fleeing unit's distance is not
    # read).
    g = reloading_game(_frail_charge_out())
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    odds = action_odds(g.state, charge, summary=lambda _before, res: _charge_out_outcome(res[0]))
    assert odds.exact
    want: dict[tuple[str, bool], Fraction] = {}
    for h1, h2, w1, w2, a, b in product(D6, repeat=6):
        hits = (h1 >= 5) + (h2 >= 5)
        slain = any(w >= 5 for w in (w1, w2)[:hits])
        if slain:
            key = ("slain", a + b > 8)
        elif 5 + a + b >= 10:
            key = ("charged", False)
        else:
            key = ("left" if max(a, b) >= 2 else "stayed", False)
        want[key] = want.get(key, Fraction(0)) + Fraction(1, 6 ** 6)
    assert dict(odds.weights) == want
    assert want[("slain", True)] == (1 - Fraction(2, 3) ** 2 - 2 * Fraction(1, 3) * Fraction(2, 3) * Fraction(2, 3)
                                     - Fraction(1, 9) * Fraction(4, 9)) * Fraction(10, 36)
    # played: 5 1 to hit (one hit), 6 to wound: he falls; the Panic test 4 4 passes on Ld 8, citing the clause that
    # made him a unit of his own; a save and load, then the undo gives him back in his place
    before = g.state
    events = g.apply(charge, ScriptedDice([5, 1, 6, 4, 4]))
    panic = [e for e in events if e.kind == "panic"]
    assert len(panic) == 1 and "Ld 8" in panic[0].message and DECLARE in panic[0].rules, panic
    assert [r.faces for r in panic[0].rolls] == [(4, 4)] and not g.state.unit("hero").alive
    assert g.state.unit("spears").has(Status.NO_CHARGE) and not offered(g, "charge")
    reloads(g)
    g.undo()
    assert g.state == before
    again = saved_and_loaded(g)
    events = again.apply(charge, ScriptedDice([1, 1, 1, 1]))  # no hit; 1 1: he stays, the Spearmen are Shaken
    assert _charge_out_outcome(again.state) == ("stayed", False) and again.state.unit("spears").has(Status.SHAKEN)


# -- 4. a failed charge out that stays: Shaken through the player turn, and no longer in the next ----------------------
SHAKEN = "published.t9a-shaken"


@pytest.mark.rule(FAILURE, SHAKEN, NO_OTHER, "published.t9a-stand-and-shoot")
def test_a_failed_charge_out_that_stays_shakes_the_unit_until_its_player_turn_ends() -> None:
    # The Hero charges out at orcs 10" ahead and rolls 1 1: 7" falls short, and his 1" Failed Charge move leaves him
    # 0.21" from his neighbours, under the 1" the seed asks: he stays, and every model of the unit is Shaken until the
    # end of the player turn (seed 002). A save and load between phases. The Movement phase offers the elves nothing
    # but its end (Shaken: no move, no leave), the Shooting phase refuses the Spearmen's bows (citing the failed charge
    # out and Shaken). In the orcs' player turn the Spearmen are Shaken no more, and the orcs' charge may be met by
    # their Stand and Shoot (a Shaken unit could not).
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=30)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    g = reloading_game(data)
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1, 1]))
    assert FAILURE in events[-1].rules and "stays and the unit is Shaken" in events[-1].message, events[-1]
    assert all(g.state.unit(u).has(Status.SHAKEN) for u in ("spears", "hero"))
    g = saved_and_loaded(g)
    play_to(g, "movement", "elves")
    assert [a.do for a in g.legal_actions()] == ["end_phase"]
    refused(g, {"do": "leave", "character": "hero", "to": [30, 19.6]}, SHAKEN, "Shaken")
    play_to(g, "shooting", "elves")
    refused(g, {"do": "shoot", "unit": "spears", "target": "orcs"}, SHAKEN, "cannot make a shooting attack")
    assert FAILURE in g.check({"do": "shoot", "unit": "spears", "target": "orcs"}).rules
    play_to(g, "charge", "orcs")
    assert not any(g.state.unit(u).has(s) for u in ("spears", "hero") for s in (Status.SHAKEN, Status.NO_CHARGE))
    ruling = g.check({"do": "charge", "unit": "orcs", "target": "spears", "reaction": "stand_and_shoot"})
    assert ruling.legal and "spears will Stand and Shoot" in ruling.reason, ruling


# -- 5. a failed charge out that leaves, then the Remaining Moves --------------------------------------------------------
MARCH = "published.t9a-move"
FAILED_CHARGE = "published.t9a-failed-charge"


def _with_orcs2(phase: str) -> dict[str, Any]:
    """Orcs 10" ahead of the Spearmen and their Hero, and a second unit of orcs (orcs2) off their right, within 8"."""
    data = scenario(n=10, orcs=5, phase=phase, active="elves", enemy_y=30)
    more = json.loads(json.dumps(data["sides"]["orcs"][0]))
    more["id"], more["formation"]["position"] = "orcs2", [47, 14]
    more["models"] = [{**m, "name": f"p{i}"} for i, m in enumerate(more["models"])]
    data["sides"]["orcs"].append(more)
    return data


@pytest.mark.rule(FAILURE, FAILED_CHARGE, MARCH, "t9a.leave.unit-not-moved", "t9a.join.move", NO_OTHER)
def test_a_hero_whose_charge_out_failed_out_of_his_unit_stays_put_while_the_unit_marches_on_its_own_discipline() -> None:
    # With the Hero in them, a March of the Spearmen within 8" of orcs2 takes its March Test on his Ld 9 (the highest
    # of the unit). He charges out at the orcs 10" away and rolls 1 3: 9" falls short; his Failed Charge move of 3"
    # takes him 2.2" from his neighbours: he has left the unit (seed 002), not Shaken. A save and load. The Remaining
    # Moves: his Failed Charge move was his move (no move, no join, citing the failed charge), while the Spearmen,
    # whom his leaving does not make moved, may March: their March Test is now on their own Ld 8, his 9 gone with him
    # (4 4 passes). An undo gives them back where they stood, still barred from charging for the turn.
    with_him = reloading_game(_with_orcs2("movement"))
    march = {"do": "move", "unit": "spears", "to": [[28, 20]], "march": True}
    assert "March Test on Ld 9 (Hero)" in with_him.check(march).reason
    g = reloading_game(_with_orcs2("charge"))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1, 3]))
    assert "leaves spears" in events[-1].message and FAILURE in events[-1].rules, events[-1]
    hero = g.state.unit("hero")
    assert hero.joined is None and hero.models[0].at == pytest.approx((36, 22.606299213))
    g = saved_and_loaded(g)
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "hero", "to": [[36, 24]]}, FAILED_CHARGE, "cannot move again")
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, FAILED_CHARGE, "Failed Charge Move")
    ruling = g.check(march)
    assert ruling.legal and "March Test on Ld 8 (s0), orcs2 being within 8\"" in ruling.reason, ruling
    before = g.state
    events = g.apply(march, ScriptedDice([4, 4]))
    assert [e.kind for e in events] == ["march_test", "move"] and [r.faces for r in events[0].rolls] == [(4, 4)]
    assert g.state.unit("spears").has(Status.MARCHED) and g.state.unit("spears").has(Status.NO_CHARGE)
    g.undo()
    assert g.state == before


# -- 6. a charge out in one turn, its combat in the next -----------------------------------------------------------------
STILL_HERO = HERO.replace("A3", "A0")
RESULT = "published.t9a-combat-resolution"


@pytest.mark.rule(SUCCESS, NO_OTHER, RESULT, "published.t9a-break-test", "t9a.leave.unit-not-moved")
def test_a_hero_who_charged_out_fights_on_into_the_orcs_turn_and_his_old_unit_is_free_again() -> None:
    # Nobody has Attacks. The Hero charges out at orcs 5" ahead (6 6): he is moved out into base contact with them
    # (seed 002) and the Spearmen may not charge this player turn, yet they may move in its Movement phase (his
    # charge out made them neither moved nor halted). The elves' Melee phase: the Hero wins 1 to 0 by his charge
    # bonus; the orcs' Break test on their own Ld 7 (3 3) holds. A save and load between player turns. The orcs'
    # Melee phase: no charge bonus now, a draw 0 to 0, no test. The elves' next Charge phase: the Spearmen are barred
    # no more (the bar was for "the same player turn"); the Hero, engaged, neither charges nor leaves.
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=25, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC)
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    g = reloading_game(data)
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([6, 6]))
    assert SUCCESS in events[-1].rules and g.state.unit("hero").joined is None
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, NO_OTHER, "charged out of spears")
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[32, 20]]}).legal
    play_to(g, "melee", "elves")
    events = g.apply({"do": "fight", "unit": "hero"}, ScriptedDice([3, 3]))
    combat = events[-1]
    assert "wins by 1 (1 to 0" in combat.message and "hero +1 (charge)" in combat.message, combat.message
    assert "orcs takes a Break test on Ld 7" in combat.message and "holds" in combat.message, combat.message
    g = saved_and_loaded(g)
    play_to(g, "melee", "orcs")
    before = g.state
    events = g.apply({"do": "fight", "unit": "orcs"})
    assert "a draw, 0 to 0" in events[-1].message and not events[-1].rolls, events[-1]
    g.undo()
    assert g.state == before
    g.apply({"do": "fight", "unit": "orcs"})
    play_to(g, "charge", "elves")
    assert not g.state.unit("spears").has(Status.NO_CHARGE)
    assert NO_OTHER not in g.check({"do": "charge", "unit": "spears", "target": "orcs"}).rules
    assert not g.check({"do": "charge", "unit": "hero", "target": "orcs"}).legal
    assert not g.check({"do": "leave", "character": "hero", "to": [30, 24]}).legal


# -- 7. the last survivor of a melee: the combat result, his Break test, the judge's tests by his unit's name ----------
LAST = "t9a.combined.last-survivor"
ARMED_ORC = "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"


def _two_spearmen_in_melee() -> dict[str, Any]:
    """Two Spearmen (no Attacks) and their Hero (no Attacks) in one rank, engaged with five orcs (A1) in the orcs'
    Melee phase; three orcs touch them. Two more Spearmen (spears2) stand 5.6" to the right, out of the fight."""
    data = scenario(n=2, orcs=5, phase="melee", active="orcs", enemy_y=20, spear_profile=STILL_SPEAR,
                    orc_profile=ARMED_ORC, spear_status=["engaged"], orc_status=["engaged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    more = json.loads(json.dumps(data["sides"]["elves"][0]))
    more.update(id="spears2", status=[])
    more["formation"]["position"] = [42, 20]
    more["models"] = [{**m, "name": f"t{i}"} for i, m in enumerate(more["models"])]
    data["sides"]["elves"].append(more)
    return data


@pytest.mark.rule(LAST, RESULT, "published.t9a-break-test", "t9a.join.part-of-unit", PANIC)
def test_the_spearmen_cut_down_to_their_hero_hold_on_his_discipline_and_the_odds_of_their_break_are_binomial() -> None:
    # Three orcs strike the Spearmen's rank and file (none aims at the Hero): 4+ to hit (WS3 against WS4), 4+ to
    # wound (S3 against T3), the 5+ save fails on 1 to 4. Played: three hits, three wounds, three failed saves: both
    # Spearmen fall and the third wound is lost (none carries over to a character). The Hero is the unit now (seed
    # 002): the orcs win 2 to 0, and the unit's Break test is his, on his Ld 9 -2 (3 3 holds). The friends within
    # 6" (spears2) take no Panic test: the unit is not destroyed. The exact odds that the unit breaks (flees or is
    # caught): each attack does a wound that kills with 1/2 * 1/2 * 2/3 = 1/6; k of them (at most the two
    # Spearmen) win the combat by k, and the Break test on 9 - k fails on 2D6 above it.
    g = reloading_game(_two_spearmen_in_melee())
    fight = {"do": "fight", "unit": "orcs"}
    odds = action_odds(g.state, fight, summary=lambda _before, res: (
        not res[0].unit("spears").alive and not res[0].unit("hero").alive)
        or res[0].unit("hero").has(Status.FLEEING))
    assert odds.exact
    above = {n: Fraction(sum(1 for a, b in product(D6, D6) if a + b > n), 36) for n in range(2, 13)}
    want = sum((comb(3, k) * Fraction(1, 6) ** k * Fraction(5, 6) ** (3 - k) * above[9 - min(k, 2)]
                for k in (1, 2, 3)), Fraction(0))
    assert dict(odds.weights).get(True, Fraction(0)) == want
    before = g.state
    events = g.apply(fight, ScriptedDice([6, 6, 6, 6, 6, 6, 1, 1, 1, 3, 3]))
    told = events[-1]
    assert "orcs wins by 2 (2 to 0" in told.message and "Ld 9 (Hero) -2: 6" in told.message, told.message
    assert LAST in told.rules and not g.state.unit("spears").alive and g.state.unit("hero").alive, told
    assert not any(e.kind == "panic" for e in events) and not g.state.unit("spears2").has(Status.FLEEING)
    assert g.state.unit("hero").last_of == "spears" and g.state.unit("hero").has(Status.ENGAGED)
    reloads(g)
    g.undo()
    assert g.state == before


@pytest.mark.rule(LAST, "core.test.leadership", "core.test.characteristic", "core.test.highest-value")
def test_a_judges_tests_of_the_spearmen_cut_down_to_their_hero_are_his_and_say_so() -> None:
    # After that fight the Spearmen are their Hero (seed 002: "этот один персонаж все равно считается тем
    # подразделением"; "персонаж должен в одиночку проходить тест на панику"). A judge calls tests by the unit's name:
    # an Initiative test is on the Hero's I 6 (no rank and file left to have another value), a Panic test on his Ld
    # 9. The name is read as the survivor (Ruleset.named_now) and the rulings and events said only "hero": they now
    # cite the clause that makes him the unit and say he tests as it, by either name. A save and load keeps it.
    g = reloading_game(_two_spearmen_in_melee())
    g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6, 6, 6, 6, 6, 6, 1, 1, 1, 3, 3]))
    g = saved_and_loaded(g)
    for name in ("spears", "hero"):
        initiative = {"do": "test", "unit": name, "characteristic": "I"}
        ruling = g.check(initiative)
        assert ruling.legal and "on 6 (Hero's profile)" in ruling.reason and LAST in ruling.rules, ruling
        assert any("all that is left of spears" in n for n in ruling.notes), ruling
        panic = {"do": "test", "unit": name, "characteristic": "Ld", "kind": "Panic"}
        ruling = g.check(panic)
        assert ruling.legal and "Panic test on Ld 9 (Hero)" in ruling.reason and LAST in ruling.rules, ruling
    before = g.state
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Panic"}, ScriptedDice([5, 5]))
    assert "hero takes a Panic test on Ld 9" in events[0].message and LAST in events[0].rules, events[0]
    assert "fails" in events[0].message
    g.undo()
    assert g.state == before
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "I"}, ScriptedDice([6]))
    assert LAST in events[0].rules and "fails" in events[0].message, events[0]


# -- 8. a join after the unit moved, across the phases, and a charge out of it the next turn ----------------------------
@pytest.mark.rule("t9a.join.move", "t9a.join.unit-stops", "t9a.join.moved-separately", "t9a.leave.when", DECLARE,
                  "published.t9a-reform")
def test_a_hero_who_joins_a_unit_that_moved_stops_it_and_charges_out_of_it_next_turn() -> None:
    # The Spearmen advance 2"; the lone Hero then joins them (seed 002 forbids a join only to a unit engaged or
    # fleeing), walking 3.61" through them to the front: he counts as moved, they had moved on their own, and they
    # may move no more this phase (a Reform refused, citing the clause); he may not leave again (he has moved). A save
    # and load; the orcs' turn passes. In the elves' next Charge phase he charges out of the unit he joined, at the
    # orcs 14" ahead of him (his unit stands 2" nearer), on his own 5" + 2D6 (4 5 reaches); an undo puts him back.
    data = scenario(n=10, orcs=5, phase="movement", active="elves", enemy_y=32, joined=False, hero_at=(36, 14))
    g = reloading_game(data)
    g.apply({"do": "move", "unit": "spears", "to": [[36, 18]]})
    join = {"do": "join", "character": "hero", "unit": "spears"}
    ruling = g.check(join)
    assert ruling.legal and "moving 3.61\" of its 10\"" in ruling.reason, ruling
    assert any("moved this turn on its own move before he joined it" in n for n in ruling.notes), ruling
    events = g.apply(join)
    assert "t9a.join.unit-stops" in events[-1].rules and "t9a.join.moved-separately" in events[-1].rules
    assert g.state.unit("hero").joined == "spears" and g.state.unit("spears").has(Status.HALTED)
    refused(g, {"do": "reform", "unit": "spears", "files": 4}, "t9a.join.unit-stops", "cannot reform")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 19]]}, "t9a.join.unit-stops", "")
    refused(g, {"do": "leave", "character": "hero", "to": [30, 14]}, "t9a.leave.when", "already moved")
    g = saved_and_loaded(g)
    play_to(g, "charge", "elves")
    assert g.state.turn == 2 and not g.state.unit("spears").has(Status.HALTED)
    charge = {"do": "charge", "unit": "hero", "target": "orcs"}
    ruling = g.check(charge)
    assert ruling.legal and "charges out of spears" in ruling.reason and "14.00\" away" in ruling.reason, ruling
    before = g.state
    events = g.apply(charge, ScriptedDice([4, 5]))
    assert SUCCESS in events[-1].rules and g.state.unit("hero").joined is None
    g.undo()
    assert g.state == before and g.state.unit("hero").joined == "spears"


# -- 9. a charge out of a unit of characters ------------------------------------------------------------------------------
MAGE = "WS3 BS3 S3 T3 W2 I4 A1 Ld8 Sv- Adv6 Mar12"


def _unit_of_characters() -> dict[str, Any]:
    """The Hero leading a unit of characters, two files wide, with a Mage (Swiftstride, Advance 6) joined to him;
    orcs 12" ahead; the Spearmen far off; the elves' Charge phase."""
    data = scenario(n=5, orcs=5, phase="charge", active="elves", enemy_y=32, joined=False)
    data["sides"]["elves"][0]["formation"]["position"] = [10, 10]
    hero = data["sides"]["elves"][1]
    hero["formation"] = {"position": [36, 20], "files": 2}
    del hero["models"][0]["at"]
    data["sides"]["elves"].append({"id": "mage", "character": "independent", "joined": "hero", "rules": ["Swiftstride"],
                                   "models": [{"name": "Mage", "profile": MAGE, "base": [20, 20]}]})
    return data


@pytest.mark.rule(DECLARE, NO_OTHER, OWN_RATE, FAILURE, SWIFT, "t9a.join.character-units")
def test_a_mage_charging_out_of_a_unit_of_characters_bars_its_leader_and_a_short_fall_shakes_them_both() -> None:
    # The Mage charges out of the Hero's unit of characters (seed 002: characters may form a unit of their own; any
    # character may charge out of his unit). His own Advance Rate, 6", and his own Swiftstride: 6" + 3D6, the lowest
    # discarded, as the ruling now says. The Hero, the unit he leaves, may not declare a charge this player turn.
    # Exact odds over the three dice: he reaches 12" on two highest dice of 6 or more; failed, only a highest die of
    # 1 keeps him within 1" of the Hero: he stays and both are Shaken. Played: 1 1 1 (stays, Shaken), an undo, then
    # 1 4 1 (fails by 1", moves 4" and leaves), a save and load: the Hero is barred still.
    g = reloading_game(_unit_of_characters())
    charge = {"do": "charge", "unit": "mage", "target": "orcs"}
    ruling = g.check(charge)
    assert ruling.legal and "charges out of hero" in ruling.reason, ruling
    assert "6\" + 3D6, the lowest discarded" in ruling.reason and SWIFT in ruling.rules, ruling
    want: dict[str, Fraction] = {}
    for dice in product(D6, repeat=3):
        top = sorted(dice, reverse=True)
        outcome = "charged" if top[0] + top[1] >= 6 else ("failed_left" if top[0] >= 2 else "failed_stayed_shaken")
        want[outcome] = want.get(outcome, Fraction(0)) + Fraction(1, 216)
    odds = action_odds(g.state, charge, summary=lambda _before, res: dict(res[1][-1].data)["outcome"])
    assert odds.exact and dict(odds.weights) == want
    events = g.apply(charge, ScriptedDice([1, 1, 1]))
    assert NO_OTHER in events[-1].rules and FAILURE in events[-1].rules
    assert all(g.state.unit(u).has(Status.SHAKEN) for u in ("hero", "mage"))
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs"}, NO_OTHER, "charged out of hero")
    g.undo()
    g.apply(charge, ScriptedDice([1, 4, 1]))
    g = saved_and_loaded(g)
    mage, hero = g.state.unit("mage"), g.state.unit("hero")
    assert mage.joined is None and not hero.has(Status.SHAKEN) and hero.has(Status.NO_CHARGE)
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs"}, NO_OTHER, "charged out of hero")
