"""Round 49: a 9th Age judge's cases (a short round) on a lone Hero's charge into a combat's flank, the timing of the
Panic tests a fight calls for, and characters across phases and turns, played as sequences through Game (apply, check,
undo, legal_actions, a save and load between steps) and the rules code under exact enumeration, checked against seed
002 (XX.2 Characters: the character on his own, Front Rank, the last survivor, Stand and Shoot at a charge out) and
the 2022 rulebook text where the seed defers to the general rules (Charge Move: "The unit can move forwards an
unlimited distance. A single Wheel can be performed during the move"; Panic Test: "a Discipline Test that a unit has
to take immediately after any of the following situations arise: A friendly unit is destroyed within 6" of the unit
... A friendly unit Breaks from Combat within 6" of the unit", "units that fail a Panic Test immediately Flee").

Cases: a lone Hero whose front meets an Engaged unit's flank charges straight forward into it, flush (a save and load,
an undo); the same Hero a little further up, whose forward path passes behind the orcs: his charge refused without a
wheel, made with one and aligned flush with their flank (strict xfail: the engine slides him onto their rear
corner); orc boyz 4" from a scout the Spearmen slay test at once, before the Spearmen's Overrun (a save and load, an
undo), and the exact odds that they flee, the scout slain or broken, brute-forced over six dice
(55/162); two Spearmen slain around their Hero: the Guard beside them take no Panic test, then test when he falls in
the next turn's fight (t9a.combined.last-survivor; a save and load, the elves' turn played to their Melee phase, the
fight offered under his name, an undo); a Hero keeps his Front Rank place as five of his ten Spearmen are shot down
and as the unit reforms to three files (a save and load, the turn played on, an undo); every Stand and Shoot hit on a
Hero charging out, his fall a unit destroyed 0" from his Spearmen, who may charge no more that turn (refused and not
offered before and after a save and load, an undo).

Found wrong (each first committed as a strict xfail):

1. Wrong timing (fixed): the Panic test of a unit within 6" of a friend destroyed or broken in a fight was taken once
   the whole fight was over, after its Break tests, flee and pursuit rolls, Pursuit Moves and Overruns; the text takes
   it "immediately after" the loss, and a failed one flees "immediately" (published.t9a-panic). A fight now takes its
   friends' tests as the losses come (``MeleePhase.takes_own_panic_tests``; ``FriendsPanic.resolve_checked`` leaves a
   fight's to it): for units its blows destroyed once the blows are struck, before the Break tests, and for a unit that
   breaks right after its failed Break test, before its flee roll (``_combat_until_pursuit`` calling
   ``t9a_panic.panic_at_once``); a friend a broken unit flees through tests once the flee moves are made
   (``t9a_panic.fled_through_panic``). The Panic events follow the combat's event, each with its own dice
   (``_own_rolls``). So a friend a pursuit or Overrun would charge has already tested, and a unit broken and then
   caught is tested for as it breaks ("breaks from combat"), once. Amended for it: tests/test_judge_t9a_panic.py's
   friend breaking from combat (its dice, and the caught case's "destroyed" now "breaks from combat").
2. Wrong move (left, strict xfail): a lone Hero charging an Engaged unit's flank, his forward path passing behind it,
   is moved on a slant, 0.62" sideways, onto its rear corner (``t9a_moves.charge_contact``: the straight way to the
   nearest point). The 2022 Charge Move goes forwards with at most one Wheel, the Front Facing into the Target Facing:
   without a wheel he cannot reach the flank, so the charge named without one should be refused (citing
   published.t9a-charge) and not offered; with a 20 degree wheel towards the orcs he should move forward into their
   flank and align flush with it. Tried in this round for single-model chargers only (a lone character, a last
   survivor, a unit of one; not a character charging out, whom seed 002 places "in base contact with his target"):
   ``forward_charge`` (``swept_contact.group_first_contact`` along the model's facing) read by ``charge_contact``,
   by the declaration (reach = the wheel's arc + the forward distance; refused when the forward sweep meets no base
   of the target; the way checked with ``path_problem`` along it) and by ``resolve_charge``'s reach and Failed
   Charge Move. It made this case pass, but eight earlier cases and two book entries place a lone Hero off to one side
   (or askew) and charge without a wheel, now refused or ending elsewhere: tests/test_judge_t9a_reactions.py (Stand
   and Shoot only once per player turn; a character slain by Stand and Shoot charging out), test_judge_t9a_round3.py
   (two cases), round40 (a character who left and his unit both charge), round42 (a lone character whose charge
   failed joins no unit), round44 (the askew lone Hero, 20 degrees), round47 (the last survivor aligns), and the book's
   t9a-a-character-in-a-unit-shoots-only-at-what-he-sees and
   t9a-a-charger-at-an-angle-aligns-about-the-point-of-contact.
   Each has to be re-derived (a wheel named, or the Hero placed ahead of his target) and the decision written; with
   units of several models (the same rule, their contact made by their front after the wheel) it is its own round.
   Not done in this round's time: the code was reverted, the case stays a strict xfail. Fixed in round 50
   (tests/test_judge_t9a_round50.py, ``rulesets/t9a_forward.py``): the xfail removed; its charge named without a wheel,
   read here as refused, is made with the smallest wheel that brings his front onto the flank (7 degrees), as the
   declaration names no wheel.

Decisions stated (data/rules.yaml, with a book entry): published.t9a-panic amended (round 49: a fight's Panic tests
"immediately after" the loss, as above; "a fight and its pursuit" taken out of the actions whose tests wait for their
end; t9a-a-friend-lost-in-a-fight-is-tested-for-at-once).

Every other case holds as the texts read (see each test's comment).

Considered and left: the Wizard Conclave (t9a.spell.wizard-conclave) in a sequence: rounds 28, 33 and 37 played its
champion's Wound, a character joining it and its champion's fall; not repeated. A unit destroyed by the blows is tested
for after the combat's score is worked out, before the Break tests (the score reads no friend outside the combat, so
that order changes nothing but the dice's); the 2022 text's separate step "Roll for Flee and Pursuit Distances" after
every Break test, where the engine rolls each broken unit's flee distance right after its own test (and the friends'
Panic tests of that unit, now between), is the engine's order since round 36, unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import (HERO, SPEAR, STILL_ORC, STILL_SPEAR, offered, play_to, refused, reloading_game, reloads,
                  saved_and_loaded, scenario)
from herohammer.dice import ScriptedDice
from herohammer.units import Status

CHARGE = "published.t9a-charge"
CHARGE_ARC = "published.t9a-charge-arc"
PANIC = "published.t9a-panic"
LAST = "t9a.combined.last-survivor"
MM = 25.4
SCOUT = "WS3 BS3 S3 T1 W1 I2 A0 Ld7 Sv- Adv4 Mar8"


def _block(name: str, at: tuple[float, float], facing: float, files: int, n: int, profile: str, base: list[int],
           status: tuple[str, ...] = ("engaged",)) -> dict[str, Any]:
    return {"id": name, "status": list(status), "formation": {"position": list(at), "facing": facing, "files": files},
            "models": [{"name": f"{name}{i}", "profile": profile, "base": base} for i in range(n)]}


# -- 1. a lone Hero charging the flank of a combat: the Charge Move goes forward -------------------------------------
def _flank(hero_y: float) -> dict[str, Any]:
    """Five Spearmen (one rank, facing up the table) Engaged front to front with five orcs (25mm, one rank, facing down,
    their front at y = 20, their rear at y = 20 + 25mm); a lone Hero (20mm base) 44" across, facing left (90) towards
    the orcs' right flank (x = 36 + 2.5 bases of 25mm), his centre at ``hero_y``."""
    spears = _block("spears", (36, 20), 0, 5, 5, STILL_SPEAR, [20, 20])
    orcs = _block("orcs", (36, 20), 180, 5, 5, STILL_ORC, [25, 25])
    hero = {"id": "hero", "character": "independent",
            "models": [{"name": "Hero", "profile": HERO, "base": [20, 20], "at": [44, hero_y], "facing": 90}]}
    return {"ruleset": "t9a", "phase": "charge", "active": "elves", "sides": {"elves": [spears, hero], "orcs": [orcs]}}


FLANK_X = 36 + 2.5 * 25 / MM  # the orcs' right flank
REAR_Y = 20 + 25 / MM  # the orcs' rear


@pytest.mark.rule(CHARGE, CHARGE_ARC, "t9a.char.lone")
def test_a_lone_hero_whose_front_meets_the_flank_charges_straight_forward_and_touches_it_flush() -> None:
    # His base (y 20.81 to 21.59) overlaps the orcs' flank (y 20 to 20.98) by 0.17": moving forward (the 2022 Charge
    # Move: "The unit can move forwards an unlimited distance") his front meets the flank, flush, facing unchanged, his
    # y unchanged. Both Engaged; a save and load keeps it; an undo gives the start back.
    g = reloading_game(_flank(21.2))
    before = g.state
    assert {"do": "charge", "unit": "hero", "target": "orcs"} in offered(g, "charge")
    g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([3, 3]))
    hero = g.state.unit("hero").models[0]
    assert hero.at[1] == pytest.approx(21.2, abs=1e-6) and hero.facing == pytest.approx(90)
    assert hero.at[0] == pytest.approx(FLANK_X + 10 / MM, abs=1e-3)
    assert g.state.unit("hero").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.ENGAGED)
    g = saved_and_loaded(g)
    reloads(g)
    g2 = reloading_game(_flank(21.2))
    g2.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([3, 3]))
    g2.undo()
    assert g2.state == before


@pytest.mark.rule(CHARGE, CHARGE_ARC, "t9a.char.lone", "published.t9a-wheel")
def test_a_lone_hero_whose_forward_path_passes_behind_the_orcs_must_wheel_and_ends_flush_with_their_flank() -> None:
    # His base (y 21.61 to 22.39) lies wholly beyond the orcs' rear (y 20.98): moving forward he passes behind them. The
    # 2022 Charge Move is forwards with at most one Wheel ("The unit can move forwards an unlimited distance. A single
    # Wheel can be performed during the move"), and "The Front Facing of the Charging unit must contact the" Target
    # Facing. Without a wheel he cannot reach their flank; until round 49 the engine slid him 0.62" sideways onto their
    # rear corner. Amended in round 50 (published.t9a-charge): the declaration names no wheel, so the charge named
    # without one is offered and legal, made with the smallest wheel that brings his front onto the flank (7 degrees:
    # tests/test_judge_t9a_round50.py), not refused as this case first read. A wheel of 20 degrees towards them (left,
    # as facings count) brings his front onto their flank; a wheel the other way does not (refused). With it he
    # charges, wheels, moves forward into the flank and makes the Align move about the point of contact: facing 90
    # again, his front flush with the flank (x = the flank + half his base), the point of contact still touched. A save
    # and load; the undo gives him back where he stood.
    g = reloading_game(_flank(22.0))
    assert {"do": "charge", "unit": "hero", "target": "orcs"} in offered(g, "charge")
    assert "wheeling 7 degrees" in g.check({"do": "charge", "unit": "hero", "target": "orcs"}).reason
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "wheel": -20}, CHARGE,
            "after its -20 degree wheel meets no model")
    before = g.state
    wheel = {"do": "charge", "unit": "hero", "target": "orcs", "wheel": 20}
    assert g.check(wheel).legal
    events = g.apply(wheel, ScriptedDice([3, 3]))
    assert "aligns to orcs" in events[0].message and CHARGE_ARC in events[0].rules, events[0].message
    hero = g.state.unit("hero").models[0]
    assert hero.facing == pytest.approx(90) and hero.at[0] == pytest.approx(FLANK_X + 10 / MM, abs=1e-3)
    assert 20 - 10 / MM < hero.at[1] < REAR_Y + 10 / MM  # his front overlaps the flank (y 20 to 20.98)
    assert g.state.unit("hero").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.ENGAGED)
    g = saved_and_loaded(g)
    reloads(g)
    g2 = reloading_game(_flank(22.0))
    g2.apply(wheel, ScriptedDice([3, 3]))
    g2.undo()
    assert g2.state == before


# -- 2. the Panic test of a friend of a unit destroyed or broken in melee: at once -----------------------------------
OVERRUN = {"do": "fight", "unit": "spears", "pursuit": {"spears": {"overrun": True}}}


def _scout_and_boyz() -> dict[str, Any]:
    """The elves' Melee phase: five Spearmen (one rank, A1) who charged this turn face a lone orc scout on a 100mm
    square base (T1, no save, A0), alone in their base contact; only their right-hand Spearman touches it (round 48's
    case). Five orc boyz (Ld7, in no combat) stand 3.57" to the
    scout's right and 2.06" above its rear: within 6" of it, clear of the Spearmen's way straight up the table."""
    spears = _block("spears", (32.77, 20), 0, 5, 5, SPEAR, [20, 20], ("engaged", "charged"))
    scout = _block("scout", (36, 20), 180, 1, 1, SCOUT, [100, 100])
    boyz = _block("boyz", (44, 26), 180, 5, 5, STILL_ORC, [25, 25], ())
    return {"ruleset": "t9a", "phase": "melee", "active": "elves", "sides": {"elves": [spears], "orcs": [scout, boyz]}}


@pytest.mark.rule(PANIC, "published.t9a-pursuit")
def test_the_boyz_near_the_scout_slain_in_melee_test_for_panic_at_once_before_the_overrun_is_rolled() -> None:
    # The Spearman's 6 hits the scout and 6 wounds it (T1, no save): a friendly unit destroyed within 6" of the boyz,
    # who are in no combat. The 2022 text (Panic Test): "a Discipline Test that a unit has to take immediately after
    # any of the following situations arise: A friendly unit is destroyed within 6" of the unit"; "units that fail a
    # Panic Test immediately Flee". So the boyz test at once, 6 + 6 = 12 against Ld 7, and flee 3 + 3 = 6" (from the
    # closest enemy, the Spearmen), before the Spearmen's Overrun (every enemy in their base contact wiped out) rolls
    # its 3 + 4 = 7" straight up the table. Until round 49 the test came after the Overrun, its dice last.
    g = reloading_game(_scout_and_boyz())
    assert OVERRUN in offered(g, "fight")
    dice = ScriptedDice([6, 6, 6, 6, 3, 3, 3, 4])
    events = g.apply(OVERRUN, dice)
    assert dice.unused == ()
    assert [e.kind for e in events] == ["fight", "combat", "panic", "flee"]
    combat, panic, fled = events[1:]
    assert "spears overruns 7\" straight forward" in combat.message, combat.message
    assert [r.purpose for r in combat.rolls] == ["spears: Overrun (2D6)"]
    assert "boyz fails its Panic test for scout destroyed 4.1\" away (12 against Ld 7, boyz0)" in panic.message, panic
    assert PANIC in panic.rules and [r.faces for r in panic.rolls] == [(6, 6)], panic
    assert [r.faces for r in fled.rolls] == [(3, 3)], fled
    assert g.state.unit("boyz").has(Status.FLEEING) and not g.state.unit("scout").alive
    assert g.state.unit("spears").formation.position[1] == pytest.approx(27.0)
    reloads(g)
    g = saved_and_loaded(g)
    assert g.state.unit("boyz").has(Status.FLEEING)
    g2 = reloading_game(_scout_and_boyz())
    before = g2.state
    g2.apply(OVERRUN, ScriptedDice([6, 6, 6, 6, 3, 3, 3, 4]))
    g2.undo()
    assert g2.state == before


@pytest.mark.rule(PANIC, "published.t9a-break-test", "published.t9a-pursuit")
def test_the_odds_that_the_boyz_flee_from_the_scouts_loss_are_the_dice_brute_forced() -> None:
    # The boyz test once, at once, whichever way the scout is lost: slain by the blow (hit 3+: WS4 against WS3; wound
    # 2+: S3 against T1), or, standing, broken by the Spearmen's charge (+1 to 0: its Break test on Ld 7 - 1, broken on
    # 7 or more) "A friendly unit Breaks from Combat within 6" of the unit". They flee when their own 2D6 exceed 7.
    # The Overrun, the scout's flee and the pursuit roll after their test and decide nothing about it; a boyz unit
    # that passed takes no other test this phase (the scout fleeing through it, say).
    from fractions import Fraction
    from itertools import product

    from herohammer.actions import parse_action
    from herohammer.dice import enumerate_outcomes
    from herohammer.rulesets import get_ruleset
    state = reloading_game(_scout_and_boyz()).state
    rules = get_ruleset("t9a")
    act = rules.named_now(state, parse_action(OVERRUN))
    engine = enumerate_outcomes(lambda dice: rules.resolve(state, act, dice)[0].unit("boyz").has(Status.FLEEING))
    want = Fraction(0)
    for hit, wound, b1, b2, p1, p2 in product(range(1, 7), repeat=6):
        slain = hit >= 3 and wound >= 2
        broken = not slain and b1 + b2 > 6
        # slain: the two dice after the blow are the boyz' own; broken: theirs come after the Break test's
        panic = (b1 + b2) if slain else (p1 + p2)
        if (slain or broken) and panic > 7:
            want += Fraction(1, 6 ** 6)
    by_hand = Fraction(15, 36) * (Fraction(20, 36) + Fraction(16, 36) * Fraction(21, 36))
    assert Fraction(engine.get(True, 0)) == want == by_hand == Fraction(55, 162)


# -- 3. characters across phases and turns -------------------------------------------------------------------------
def _two_spearmen_and_guard() -> dict[str, Any]:
    """Round 44's fight: two Spearmen (A0) and their Hero (A2, W3) Engaged with five orcs (WS9 S6 A2), the orcs' Melee
    phase; beside them, 4.3" from the Spearmen and in no combat, five elf Guards (Ld8)."""
    data = scenario(n=2, orcs=5, phase="melee", active="orcs", enemy_y=20, spear_status=["engaged"],
                    orc_status=["engaged"], hero_status=["engaged"],
                    orc_profile="WS9 BS3 S6 T4 W1 I2 A2 Ld7 Sv6+ Adv4 Mar8", spear_profile=STILL_SPEAR)
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("A3", "A2")
    data["sides"]["elves"].append(_block("guard", (30, 16), 0, 5, 5, STILL_SPEAR, [20, 20], ()))
    return data


@pytest.mark.rule(LAST, PANIC, "published.t9a-break-test")
def test_the_guard_tests_for_the_spearmen_only_when_their_last_survivor_falls() -> None:
    # The orcs' Melee phase: the Hero misses (1 1); the orcs' six blows slay both Spearmen (6s to hit and wound, 1s to
    # save). The Hero alone is still the unit (seed 002, XX.2: a unit left with its character "does not count as
    # destroyed for other units' Panic tests"): the Guard, 4.3" away, take no test; he takes the unit's Break test on
    # his Ld 9 at -2 (3 3 holds). A save and load; the elves' turn to their Melee phase, the fight offered under the
    # Hero's name. He misses (1 1), the orcs' four blows in his base contact slay him (W3): now the Spearmen are
    # destroyed, and the Guard test at once (3 3 against Ld 8: passed), citing the clause. An undo gives him back.
    g = reloading_game(_two_spearmen_and_guard())
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([1, 1] + [6] * 6 + [6] * 6 + [1] * 6 + [3, 3]))
    said = " | ".join(e.message for e in events)
    assert "Break test on Ld 9 (Hero) -2" in said and "holds" in said, said
    assert not any(e.kind == "panic" for e in events), said
    assert g.state.unit("hero").last_of == "spears" and not g.state.unit("guard").has(Status.PANIC_PASSED)
    g = saved_and_loaded(g)
    reloads(g)
    play_to(g, "melee", "elves")
    assert {a["unit"] for a in offered(g, "fight")} == {"hero"}
    before = g.state
    dice = ScriptedDice([1, 1] + [6] * 4 + [6] * 4 + [1] * 4 + [3, 3])
    events = g.apply({"do": "fight", "unit": "hero"}, dice)
    assert dice.unused == ()
    assert not g.state.unit("hero").alive
    panic = [e for e in events if e.kind == "panic"]
    assert len(panic) == 1 and panic[0].message.startswith("guard passes its Panic test for "), panic
    assert "destroyed 4.3\" away" in panic[0].message and LAST in panic[0].rules, panic[0]
    assert g.state.unit("guard").has(Status.PANIC_PASSED)
    g.undo()
    assert g.state == before and {a["unit"] for a in offered(g, "fight")} == {"hero"}


@pytest.mark.rule("t9a.char.front-rank", PANIC, "published.t9a-reform")
def test_a_hero_keeps_his_front_rank_place_as_his_unit_is_shot_down_and_reformed_narrower() -> None:
    # Ten Spearmen in two ranks of five with their Hero, who has Front Rank (seed 002: every character has it) and so
    # stands in the first rank. The orcs' five arrows slay five Spearmen (6s to hit and wound, 1s to save; the hits are
    # the rank and file's: no target named): the Hero stays in the first rank, the unit of six in a first rank of five
    # and one behind. Five of eleven is a quarter and more: the unit's Panic test, on the Hero's Ld 9 (1 1 passes).
    # A save and load; the elves' Movement phase: a reform to three files keeps him in the first rank of three. An
    # undo of the reform gives the five files back.
    g = reloading_game(scenario(n=10, orcs=5, phase="shooting", active="orcs"))
    f = g.state.unit("spears").formation
    assert "Hero" in f.order[:f.files]
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 10 + [1] * 5 + [1, 1]))
    assert len(g.state.unit("spears").models) == 5 and g.state.unit("hero").alive
    assert any(e.kind == "panic" and "passes" in e.message for e in events), [e.message for e in events]
    f = g.state.unit("spears").formation
    assert f.files == 5 and "Hero" in f.order[:5] and len(f.order) == 6
    g = saved_and_loaded(g)
    reloads(g)
    play_to(g, "movement", "elves")
    before = g.state
    g.apply({"do": "reform", "unit": "spears", "files": 3})
    f = g.state.unit("spears").formation
    assert f.files == 3 and "Hero" in f.order[:3], f.order
    reloads(g)
    g.undo()
    assert g.state == before


@pytest.mark.rule("t9a.charge-out.stand-and-shoot", "t9a.charge-out.no-other-charges", PANIC,
                  "t9a.charge-out.declare")
def test_every_stand_and_shoot_hit_falls_on_the_hero_charging_out_and_his_unit_charges_no_more() -> None:
    # The elves' Charge phase: the Hero charges out of his ten Spearmen at the orc archers 10" away, who Stand and
    # Shoot. Five arrows hit (6s) and wound (6s), his 4+ save fails five times (1s): "Hits from a Stand and Shoot
    # reaction against such a charge are all allocated to the character" (seed 002): he is slain (W3), not a Spearman
    # touched. A separate unit from his declaration, his fall is a unit destroyed 0" from the Spearmen: their Panic
    # test (1 1 passes). The Spearmen may not charge this player turn (t9a.charge-out.no-other-charges): refused and
    # not offered, before and after a save and load. An undo gives the Hero back in his unit.
    g = reloading_game(scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=30))
    before = g.state
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    assert g.check(charge).legal
    events = g.apply(charge, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    said = " | ".join(e.message for e in events)
    assert not g.state.unit("hero").alive and len(g.state.unit("spears").models) == 10, said
    assert "t9a.charge-out.stand-and-shoot" in events[0].rules, events[0]
    assert any(e.kind == "panic" and e.message.startswith("spears passes") for e in events), said
    for game in (g, saved_and_loaded(g)):
        refused(game, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges",
                "charged out of spears")
        assert not [a for a in offered(game, "charge") if a["unit"] == "spears"]
    g.undo()
    assert g.state == before and g.state.unit("hero").joined == "spears"
