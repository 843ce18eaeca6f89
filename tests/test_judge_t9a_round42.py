"""Round 42: a 9th Age judge's cases on characters across a whole turn, played as sequences through Game (apply,
check, undo, legal_actions, a save and load between steps) and the rules code under exact enumeration, checked against
seed 002 (XX.2 Characters: charging out, a failed charge out, the last survivor, leaving) and the 2022 rulebook text
on newrecruit.eu where the seed defers to the general rules (Failed Charge Move; Pursue Moves; Accepting or Refusing a
Duel; Modifiers; Break Test: Steadfast and No More Foes).

Cases: a character whose failed charge out took him clear of his unit, then the Movement phase (a rejoin, a join of
another unit, a move: what decides it) and his next Movement phase; a lone character who failed a charge; a pursuit
that charges a fresh enemy standing at an angle and armed with bows (no Charge Reaction, no Align move, the facings
kept), and one that charges a fresh enemy's flank and fights there next Melee phase; a character shamed by a refused
Duel in a unit's unmodified Leadership test and in a Steadfast unit's Break test; a unit whose only enemy in contact
is wiped out while its combat goes on (No More Foes): its Break test, its Engaged status, its bonuses and the exact
odds; a Wizard whose unit is shot away around him, then his Magic phase, with an undo and a save and load; a character
who leaves his unit and is shot at alone in the enemy's turn.

Found wrong (each first committed as a strict xfail, then fixed and its mark removed):

1. Wrong clause cited: a character whose failed charge out took him clear of his unit (or a lone character whose
   charge failed) was refused a rejoin in that turn's Movement phase as "hero has already moved this turn" citing
   t9a.join.move alone, which asks only for a move into base contact in the Movement phase; what bars him is his
   Failed Charge Move, his move of the player turn (the 2022 text: "A unit that has performed a Failed Charge Move
   cannot perform Move Manoeuvres in the same Player Turn"), as his own move was refused for having charged. The join
   is now refused saying he charged and citing published.t9a-failed-charge and published.t9a-move beside
   t9a.join.move (``t9a_joins._charged_refusal``); his next Movement phase he rejoins, every first-rank slot offered.
   Rounds 35 and 40, which expected the old words, now expect these.
2. Wrong result: a judge's test of the unmodified Leadership of a unit whose Hero was shamed by a refused Duel took
   the Hero at 0; the 0 is a value set by a rule, the first of the modifiers (2022 text, Modifiers), and the
   unmodified value is the profile's (core.value.unmodified): it now takes his 9. The used test, on 8, names him at 0
   and cites published.t9a-duel, which it did not (``NinthAgeTurn._tested_leadership``; round 30's wording updated).
3. Wrong result: a unit whose only enemy in base contact was slain while its combat went on (the 2022 text, Break
   Test, No More Foes) scored its bonuses (a standard), took its side's Break test and stayed Engaged: it now takes no
   Break test, counts as winning, its bonuses are ignored (its Wounds caused count) and it is Engaged no more, told in
   the combat's event (``t9a_melee._no_more_foes``, ``_combat_score``, ``_combat_until_pursuit``); the exact odds that
   it breaks fall from 55/108 to 5/27, as the dice brute-forced give.

Decisions stated (data/rules.yaml, with book entries): the rejoin after a failed charge out (t9a.join.move and
published.t9a-failed-charge, amended); the shamed character's unmodified Discipline and his 0 in a Steadfast Break
test (published.t9a-duel, amended); No More Foes' Break test and score (published.t9a-pursuit, amending round 41's,
which left it) and the pursuit charge into a fresh enemy re-read (no Charge Reaction, no Align move, the facings kept).

Every other case holds as the texts read (see each test's comment): the pursuit charge gets no Stand and Shoot and
fights a Flank it reaches with its bonus; a Steadfast unit's Break test still takes a shamed character's 0 (it ignores
the test's modifier, not the value set); a Wizard whose unit is shot away around him passes his Panic test alone and
casts in his next Magic phase, by his lost unit's name too; a character who left his unit is shot at alone, every hit
his, his unit's friends testing Panic when he falls.

Considered and left: the No More Foes unit's Overrun, Post-Combat Pivot or Reform (a move out of a combat that goes on;
the event says an Overrun named is not made); the 2022 Failed Charge page's Shaken for every failed charger (the engine
keeps the seed's Shaken, a character left in his unit; a failed charger moves no more that turn either way); the Align
move of a charge, a pursuit's charge included (published.t9a-charge-arc: not modelled).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from _t9a import (HERO, SPEAR, STILL_ORC, STILL_SPEAR, melee_scenario, offered, play_to, refused, reloading_game,
                  reloads, saved_and_loaded, scenario)
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.units import Status

MM = 25.4
FAILURE = "t9a.charge-out.failure"
FAILED_CHARGE = "published.t9a-failed-charge"
JOIN = "t9a.join.move"
LONE = "t9a.char.lone"
LAST = "t9a.combined.last-survivor"
PURSUIT = "published.t9a-pursuit"
DUEL = "published.t9a-duel"
BREAK = "published.t9a-break-test"
RESOLUTION = "published.t9a-combat-resolution"
UNMODIFIED = "core.value.unmodified"


# -- 1. a failed charge out that took the character clear, and the Movement phase after it ----------------------------
def _failed_out() -> Game:
    """The Hero charged out of his Spearmen at the orcs 10" away, rolled 1 + 2 (8" short) and made his Failed Charge
    Move of 2" straight at them: more than 1" from his unit, he is out of it (t9a.charge-out.failure)."""
    data = scenario(phase="charge", active="elves", enemy_y=30)
    g = reloading_game(data)
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 2]))
    assert FAILURE in events[0].rules and g.state.unit("hero").joined is None, events[0]
    return g


@pytest.mark.rule(FAILURE, FAILED_CHARGE, JOIN)
def test_a_character_whose_failed_charge_out_took_him_clear_rejoins_only_in_his_next_movement_phase() -> None:
    g = _failed_out()
    play_to(g, "movement", "elves")
    # The seed: he makes "Failed Charge Moves by the general rules"; the 2022 text (Failed Charge Move): "A unit that
    # has performed a Failed Charge Move cannot perform Move Manoeuvres in the same Player Turn" (Failed Charge: its
    # models "are Shaken until the end of the Player Turn"). What bars his rejoin is his Failed Charge Move, not the
    # join clause (which asks only for a move into base contact in the Movement phase): the refusal says so and cites
    # the general rule, as his move is refused for having charged.
    for who in (g, saved_and_loaded(g)):
        for join in ({"do": "join", "character": "hero", "unit": "spears"},
                     {"do": "join", "character": "hero", "unit": "spears", "position": 2}):
            refused(who, join, FAILED_CHARGE, "Failed Charge Move")
            assert JOIN in who.check(join).rules
        refused(who, {"do": "move", "unit": "hero", "to": [[36, 24]]}, "published.t9a-move", "charged")
        assert not [a for a in offered(who, "join") if a["character"] == "hero"]
        assert not [a for a in offered(who, "move") if a["unit"] == "hero"]
    # his next Movement phase: nothing bars him; he rejoins his unit, every slot of its first rank offered
    play_to(g, "movement", "orcs")
    play_to(g, "movement", "elves")
    joins = [a for a in offered(g, "join") if a["character"] == "hero"]
    assert {a.get("position") for a in joins if a["unit"] == "spears"} == {0, 1, 2, 3, 4}, joins
    g.apply({"do": "join", "character": "hero", "unit": "spears", "position": 2})
    assert g.state.unit("hero").joined == "spears"
    reloads(g)


@pytest.mark.rule(FAILED_CHARGE, LONE, JOIN)
def test_a_lone_character_whose_charge_failed_joins_no_unit_that_player_turn() -> None:
    # the Hero alone beside his Spearmen charges the orcs 10" up the table and fails (5" + 1 + 1); round 50
    # (published.t9a-charge): his base (x 29.61 to 30.39) lies left of the orcs' end (33.54), so his Charge Move, and
    # the Failed Charge Move that follows it, wheels 18 degrees right (10.01" up it must come 3.15" right: atan 0.314 =
    # 17.4), then 1" less the wheel's 0.25" forward: still no join
    data = scenario(phase="charge", active="elves", joined=False, hero_at=(30, 19.6), enemy_y=30)
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1]))
    assert g.state.unit("hero").has(Status.CHARGED) and not g.state.unit("hero").has(Status.ENGAGED)
    play_to(g, "movement", "elves")
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, FAILED_CHARGE, "Failed Charge Move")
    g.undo()  # the Movement phase's start undone: back in the Charge phase's end, nothing changed for him
    assert g.state.phase.value == "charge" and g.state.unit("hero").has(Status.CHARGED)


# -- 2. a pursuit that charges a fresh enemy ------------------------------------------------------------------------
def _fresh(facing: float, at: tuple[float, float], bows: bool = True) -> dict[str, Any]:
    """Ten Spearmen (two ranks, no Attacks) who charged five orcs in one rank: the orcs lose by 2 and break on 6 6 (Ld
    7 - 2), flee 1 + 1 and are caught by a pursuit of 6 + 6. Five more orcs (``boyz``, bows ready: a Stand and Shoot
    would be theirs to take against a charge 12" off) stand up the table facing ``facing`` at ``at``."""
    data = melee_scenario(n=10, orcs=5, spear_status=["engaged", "charged"], joined=False, hero_at=(10, 4))
    boyz = {"id": "boyz", "status": [], "formation": {"position": list(at), "facing": facing, "files": 5},
            "models": [{"name": f"b{i}", "profile": STILL_ORC, "base": [25, 25], "weapons": ["bow"] if bows else []}
                       for i in range(5)]}
    data["sides"]["orcs"].append(boyz)
    return data


@pytest.mark.rule(PURSUIT, "published.t9a-charge-reactions")
def test_a_pursuit_charge_into_an_angled_fresh_enemy_with_bows_gets_no_reaction_and_aligns() -> None:
    # the boyz stand 30 degrees askew 10" beyond the orcs' front, bows in hand: the 2022 text's charged unit "can not
    # perform any Charge Reactions" (no Stand and Shoot: no die beyond the fight's six is rolled, and it does not
    # flee); round 47: the pursuer then makes the Align move of a charge (published.t9a-charge-arc), turning from its
    # pursuit's 0 degrees to 330, flush with the front of the boyz (who face 150 and are not turned)
    g = reloading_game(_fresh(150, (36, 30)))
    dice = ScriptedDice([6, 6, 1, 1, 6, 6])
    events = g.apply({"do": "fight", "unit": "spears"}, dice)
    assert dice.unused == ()
    said = next(e for e in events if e.kind == "break").message
    assert "spears charges boyz, which makes no Charge Reaction" in said, said
    spears, boyz = g.state.unit("spears"), g.state.unit("boyz")
    assert spears.formation is not None and boyz.formation is not None
    assert spears.formation.facing == pytest.approx(330) and boyz.formation.facing == 150
    assert "spears aligns to boyz's front Facing" in said, said
    assert spears.has(Status.ENGAGED) and boyz.has(Status.ENGAGED) and not boyz.has(Status.FLEEING)
    assert not any(e.kind in ("shoot", "stand_and_shoot") for e in events)
    # the new combat waits for the next Melee phase: nothing of it is offered now
    assert not offered(g, "fight")
    reloads(g)


@pytest.mark.rule(PURSUIT, "published.t9a-flank-rear", RESOLUTION)
def test_a_pursuit_that_charges_a_fresh_enemys_flank_fights_it_there_charging_next_melee_phase() -> None:
    # the boyz stand sideways across the pursuit's way (facing 90: their left flank towards the Spearmen): the pursuit
    # charges their Flank, and in the orcs' Melee phase the Spearmen score ranks +1, charge +1 and flank +1 (2022 text,
    # Pursuits and Overruns: a charge "in the Facing determined at this point"); the boyz, A0, score nothing, lose by 3
    # and break on 3 2 over Ld 7 - 3
    g = reloading_game(_fresh(90, (36, 31.5), bows=False))
    g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([6, 6, 1, 1, 6, 6]))
    assert g.state.unit("spears").has(Status.ENGAGED) and g.state.unit("boyz").has(Status.ENGAGED)
    g = saved_and_loaded(g)
    play_to(g, "melee", "orcs")
    events = g.apply({"do": "fight", "unit": "boyz"}, ScriptedDice([3, 2, 1, 1, 1, 1]))
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "elves wins by 3" in said and "spears +3 (ranks +1, charge +1, flank +1)" in said, said
    assert "boyz takes a Break test on Ld 7 (b0) -3: 5, breaks" in said, said


# -- 3. a character shamed by a refused Duel ------------------------------------------------------------------------
@pytest.mark.rule(DUEL, UNMODIFIED, "core.test.leadership-choice")
def test_a_shamed_characters_discipline_0_is_a_modifier_an_unmodified_test_takes_his_own() -> None:
    # 2022 text (Accepting or Refusing a Duel): the nominee "Has its Discipline set to 0"; (Modifiers) "A Value Set to
    # a Fixed Number" is the first of the modifiers. Seed 004: the unmodified value is the one written in the profile
    # when the game starts. So the Spearmen's test of the used value is on their own Ld 8 (the Hero's is 0), and a
    # test of the unmodified value on the Hero's Ld 9, written in his profile.
    g = reloading_game(scenario(phase="movement", active="elves", hero_status=["duel_refused"]))
    used = g.check({"do": "test", "unit": "spears", "characteristic": "Ld"})
    assert used.legal and "Ld 8" in used.reason and DUEL in used.rules, used
    for unit in ("spears", "hero"):
        plain = g.check({"do": "test", "unit": unit, "characteristic": "Ld", "unmodified": True})
        assert plain.legal and "Ld 9 (Hero, unmodified)" in plain.reason and UNMODIFIED in plain.rules, plain
    events = g.apply({"do": "test", "unit": "spears", "characteristic": "Ld", "unmodified": True},
                     ScriptedDice([4, 5]))
    assert "passes" in events[0].message, events[0].message


@pytest.mark.rule(DUEL, BREAK, "published.t9a-stubborn")
@pytest.mark.parametrize("shamed, outcome", [(True, "Ld 8 (s0) unmodified, Steadfast: 9, breaks"),
                                             (False, "Ld 9 (Hero) unmodified, Steadfast: 9, holds")])
def test_a_shamed_character_brings_0_to_his_steadfast_units_break_test(shamed: bool, outcome: str) -> None:
    # Steadfast units "ignore Discipline modifiers from the Combat Score difference": not the Discipline set to 0 of a
    # shamed character, a modifier of his value (2022 text, Modifiers), not of the test. The orcs (one rank) charged
    # with a standard: 2 to 1 (the Spearmen's ranks); the Spearmen, two Full Ranks against none, are Steadfast and take
    # their Break test unmodified, on their own Ld 8 when the Hero is shamed: 4 + 5 = 9 breaks them; unshamed, 9 holds
    data = melee_scenario(active="orcs", n=10, hero_status=["engaged", "duel_refused"] if shamed else ["engaged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("A3", "A0")
    orcs = data["sides"]["orcs"][0]
    orcs["status"] = ["engaged", "charged"]
    orcs["models"][0]["role"] = "standard"
    g = reloading_game(data)
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([4, 5, 1, 1, 1, 1]))
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "orcs wins by 1" in said and outcome in said, said
    assert (DUEL in next(e for e in events if e.kind in ("combat", "break")).rules) == shamed


# -- 4. No More Foes: a unit whose enemies in contact are all wiped out while its combat goes on ------------------------
SCOUT = "WS3 BS3 S3 T1 W1 I2 A0 Ld7 Sv- Adv4 Mar8"


def _column(name: str, at: tuple[float, float], facing: float, files: int, n: int, profiles: list[str], base: int,
            roles: dict[int, str] | None = None) -> dict[str, Any]:
    roles = roles or {}
    return {"id": name, "status": ["engaged"], "formation": {"position": list(at), "facing": facing, "files": files},
            "models": [{"name": f"{name}{i}", "profile": profiles[i % len(profiles)], "base": [base, base],
                        **({"role": roles[i]} if i in roles else {})} for i in range(n)]}


def _no_more_foes() -> dict[str, Any]:
    """One combat in a column up the table: five Spearmen (one rank; a Standard Bearer; only the middle one has an
    Attack) face a lone orc scout (T1, no save); behind the scout the Guard (five elves, no Attacks) face down the
    table into the scout's rear; behind the Guard fifteen orcs (three ranks, no Attacks) fight the Guard's rear. The
    scout is the Spearmen's only enemy in contact."""
    still, hitter = STILL_SPEAR, SPEAR
    spears = _column("spears", (36, 20), 0, 5, 5, [still, still, hitter, still, still], 20, {0: "standard"})
    scout = _column("scout", (36, 20), 180, 1, 1, [SCOUT], 25)
    guard = _column("guard", (36, 20 + 25 / MM), 180, 5, 5, [still], 20)
    mob = _column("mob", (36, 20 + 25 / MM + 20 / MM), 180, 5, 15, [STILL_ORC], 25)
    return {"ruleset": "t9a", "phase": "melee", "active": "elves",
            "sides": {"elves": [spears, guard], "orcs": [scout, mob]}}


FIGHT = {"do": "fight", "unit": "spears"}


@pytest.mark.rule(RESOLUTION, BREAK)
def test_a_unit_that_wiped_out_its_only_foe_takes_no_break_test_and_is_no_longer_engaged() -> None:
    # 2022 text (Break Test, No More Foes): "Sometimes a unit destroys all enemy units in base contact and finds itself
    # no longer Engaged in Combat ... These units always count as winning the combat ... When this happens in multiple
    # combats, the Combat Score resulting from lost Health Points by the unit and its enemies counts, but all other
    # Combat Score bonuses are ignored. Note that the unit itself doesn't take a Break Test". The Spearman's 6 6 slays
    # the scout: the elves score 1 (the scout's Wound; the Spearmen's standard ignored), the orcs 4 (ranks +2, the
    # Guard's rear +2): the orcs win by 3, and only the Guard tests, on Ld 8 - 3: 1 + 2 holds.
    g = reloading_game(_no_more_foes())
    dice = ScriptedDice([6, 6, 1, 2])
    events = g.apply(FIGHT, dice)
    assert dice.unused == ()
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "orcs wins by 3 (1 to 4" in said and "spears +1" not in said, said
    assert "spears takes a Break test" not in said and "guard takes a Break test on Ld 8 (guard0) -3: 3, holds" in said
    assert "No More Foes" in said, said
    spears = g.state.unit("spears")
    assert not spears.has(Status.ENGAGED) and g.state.unit("guard").has(Status.ENGAGED)
    reloads(g)
    # free of the combat, the Spearmen move in their next Movement phase; the Guard, still Engaged, do not
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 18]]}).legal
    refused(g, {"do": "move", "unit": "guard", "to": [[40, 24]]}, "published.t9a-move", "engaged")


@pytest.mark.rule(RESOLUTION, BREAK)
def test_a_unit_whose_foe_survives_still_tests_with_its_standard_counted() -> None:
    # the Spearman misses (1): the scout lives, the Spearmen are still Engaged, their standard counts (+1) and the
    # Guard fight the scout's rear (+2): 3 to 4, both elven units test on Ld 8 - 1, in the state's order
    g = reloading_game(_no_more_foes())
    dice = ScriptedDice([1, 1, 2, 1, 2])
    events = g.apply(FIGHT, dice)
    assert dice.unused == ()
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "orcs wins by 1 (3 to 4" in said and "spears +1 (standard); guard +2 (rear)" in said, said
    assert "spears takes a Break test on Ld 8 (spears0) -1: 3, holds" in said and "guard takes a Break test" in said
    assert g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(RESOLUTION, BREAK)
def test_the_odds_that_the_spearmen_break_are_the_dice_brute_forced_no_more_foes_read() -> None:
    g = reloading_game(_no_more_foes())
    rules = get_ruleset("t9a")
    act = rules.named_now(g.state, parse_action(FIGHT))
    state = g.state

    def broke(dice: Any) -> bool:
        after, _ = rules.resolve(state, act, dice)
        spears = after.unit("spears")
        return not spears.alive or spears.has(Status.FLEEING)

    engine = enumerate_outcomes(broke)
    # the Spearman hits on 3+ (WS4 against WS3) and wounds on 2+ (S3 against T1), no save: the scout is slain, and the
    # Spearmen test not at all; else the score is 3 (standard, the Guard in the scout's rear) to 4 and they test on
    # Ld 8 - 1 = 7 (until round 42 they tested on Ld 8 - 2 after slaying it: 55/108 broke them, not 5/27). Round 49:
    # the scout slain, the Guard test on Ld 8 - 3 and break on 6 or more; the Spearmen, Engaged no more and 1" away,
    # take their Panic test for it at once ("immediately after ... A friendly unit Breaks from Combat within 6"",
    # published.t9a-panic) and flee on 9 or more, before the mob's pursuit (which until round 49 charged them first,
    # so they took no test: 5/27)
    want = Fraction(0)
    for hit, wound, a, b, p, q in itertools.product(range(1, 7), repeat=6):
        slain = hit >= 3 and wound >= 2
        if (not slain and a + b > 7) or (slain and a + b > 5 and p + q > 8):
            want += Fraction(1, 6 ** 6)
    assert Fraction(engine.get(True, 0)) == want == Fraction(865, 2916)


# -- 5. whole turns around a character ---------------------------------------------------------------------------------
def _wizard_in_one_spearman() -> Game:
    """The Hero, a Wizard Adept (Fireball, Spectral Blades), in a unit of one Spearman; the orcs' Shooting phase."""
    data = scenario(n=1, phase="shooting", active="orcs", enemy_y=34, extra={"magic_dice": {"elves": 6, "orcs": 4}})
    hero = data["sides"]["elves"][1]
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball", "Spectral Blades"]
    return reloading_game(data)


@pytest.mark.rule(LAST, "published.t9a-distributing-hits", "published.t9a-magic", "t9a.join.part-of-unit")
def test_a_wizard_whose_unit_is_shot_away_around_him_casts_next_magic_phase_as_that_unit() -> None:
    g = _wizard_in_one_spearman()
    # five hits (fewer than five rank and file: shared, the rank and file first, published.t9a-distributing-hits):
    # three on the Spearman, two on the Hero, all wounding (6s); the Spearman's 5+ saves 6 6 1 lose him, the Hero's 4+
    # saves 6 6 keep his Wounds; his Panic test for heavy casualties, taken alone on his Ld 9 (1 1), passes
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    hero = g.state.unit("hero")
    assert hero.last_of == "spears" and not g.state.unit("spears").alive, events[0].message
    panic = next(e for e in events if e.kind == "panic")
    assert LAST in panic.rules and "hero passes its Panic test" in panic.message, panic.message
    g = saved_and_loaded(g)
    play_to(g, "magic", "elves")
    casts = {(a["unit"], a["spell"], a["target"]) for a in offered(g, "cast")}
    assert ("hero", "Fireball", "orcs") in casts and not [c for c in casts if c[0] == "spears"], casts
    # named by his lost unit's name, he is that unit (t9a.combined.last-survivor): the cast is his
    by_unit = g.check({"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2})
    assert by_unit.legal, by_unit
    g.apply({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2},
            ScriptedDice([1, 1]))  # 2 fails the casting value
    g.undo()
    assert g.check({"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}).legal


@pytest.mark.rule("t9a.leave.when", LONE, "published.t9a-distributing-hits")
def test_a_character_who_left_his_unit_is_shot_at_alone_in_the_enemys_turn() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=34))
    g.apply({"do": "leave", "character": "hero", "to": [30, 22]})
    play_to(g, "shooting", "orcs")
    g = saved_and_loaded(g)
    assert {a["target"] for a in offered(g, "shoot")} == {"hero", "spears"}
    alone = g.check({"do": "shoot", "unit": "orcs", "target": "hero"})
    assert alone.legal and LONE in alone.rules, alone
    # every hit is his: five hits, wounded on 6s against T4 (S3: 5+), his 4+ save failed on 1s: three wounds slay him
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "hero"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))  # 1 1: the Spearmen's Panic test
    assert not g.state.unit("hero").alive and "spears" not in events[0].message.split(":")[1], events[0].message
    assert len(g.state.unit("spears").models) == 10
    g.undo()
    assert g.state.unit("hero").alive and {a["target"] for a in offered(g, "shoot")} == {"hero", "spears"}
