"""A judge's cases for 40k 3rd and 4th edition, seventh round: Last Man Standing in 4th edition, the Morale check of
a lost assault combat by combat, the clause a 4th edition refusal cites, and refusals that cited no rule at all.

Each case plays actions through ``Game`` (``check``, ``apply``, ``undo``) and asserts what the texts say: the legal
case and the illegal one, the clause cited, and that a refused action changes nothing (``assert_illegal``).

4th ed. rulebook, Morale, Taking Morale tests: "Units normally have to take a Morale check in the following
situations: If a unit takes 25% or more casualties from shooting in the turn ... If a unit is defeated in close
combat in the Assault phase - test once combat results are established. If an enemy unit performs a Tank Shock
attack on their unit". Last Man Standing is not among them (published.last-man-standing's decision).
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (BASE_25, assert_illegal, assert_legal, game, gunners, hero, model, scenario, shoot_then_test, squad,
                   undo_to)

BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
NOB = "WS4 BS2 S5 T4 W2 I5 A4 Ld7 Sv6+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
#: The rule a move by troop type cites in each edition (4th: no clause id of its own, published.movement).
MOVE_RULE = {"40k3": "40k3.char.move-as-type", "40k4": "published.movement"}


def lascannons(n: int = 2, x: float = 20, y: float = 30) -> dict[str, Any]:
    """Blue's lascannon team: each shot at a Marine hits on 3+, wounds on 2+ and leaves no save."""
    return {"id": "las", "models": [{**model(f"Gunner {i + 1}", x + 2 * i, y), "weapons": ["lascannon"]}
                                   for i in range(n)]}


def morale(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "morale"]


def told_no_last_man(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "last_man"]


# == 1. Last Man Standing: 3rd edition has it, 4th edition has none ============================================
@pytest.mark.rule("published.last-man-standing", "published.morale-casualties", "40k4.char.no-last-man",
                  "40k3.ic.no-last-man")
@BOTH
def test_a_squad_shot_down_to_one_marine_takes_last_man_standing_only_in_3rd_edition(ruleset: str) -> None:
    """Three Marines, two shot dead. 3rd edition: the last one takes Last Man Standing at once, on his own Ld 7, and
    a failure sends him back. 4th edition has no such test: the volley rolls no check, the last Marine is told why,
    and when the Shooting phase ends he takes the one check his losses call for (two of three, at -1: below half)."""
    red = [{"id": "tac", "models": [model(f"tac {i + 1}", 20 + 2 * i, 10, ld=7) for i in range(3)]}]
    g = game(scenario(ruleset, red, [lascannons()], phase="shooting", active="blue"))
    events = g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6] + [6, 6, 3, 3]
                                                                                      if ruleset == "40k3" else [6] * 4))
    assert len(g.state.unit("tac").models) == 1
    if ruleset == "40k3":
        tested = morale(events)
        assert len(tested) == 1 and "Last Man Standing" in tested[0].message and "Ld 7" in tested[0].message
        assert "published.last-man-standing" in tested[0].rules and g.state.unit("tac").has(Status.FALLING_BACK)
        assert told_no_last_man(events) == []
        return
    assert morale(events) == [] and not g.state.unit("tac").has(Status.FALLING_BACK)
    told = told_no_last_man(events)
    assert len(told) == 1 and told[0].rules == ("published.last-man-standing",) and not told[0].rolls
    assert "4th edition has no Last Man Standing test" in told[0].message
    checks = morale(g.apply({"do": "end_phase"}, dice=ScriptedDice([6, 6, 3, 3])))
    assert len(checks) == 1 and "published.morale-casualties" in checks[0].rules
    assert "published.last-man-standing" not in checks[0].rules and "Ld 7 -1" in checks[0].message
    assert g.state.unit("tac").has(Status.FALLING_BACK)


def boyz_against_a_lone_marine(ruleset: str, wounds: int = 1) -> Game:
    """Two Boyz locked with one Marine, one on each side of him in base contact: he fights back (WS 4, S 4)."""
    profile = f"WS4 BS4 S4 T4 W{wounds} I4 A1 Ld8 Sv3+"
    red = [{"id": "tac", "status": ["locked"], "models": [{**model("Marine", 20, 20, profile=profile)}]}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [{"name": f"Boy {i + 1}", "profile": BOY, "base": 25, "at": [20 + side * BASE_25, 20]}
                       for i, side in enumerate((-1, 1))]}
    return game(scenario(ruleset, red, [boyz], phase="assault", active="red"))


@pytest.mark.rule("published.last-man-standing", "published.combat-resolution")
@BOTH
def test_the_winners_of_a_combat_cut_down_to_one_model_test_only_in_3rd_edition(ruleset: str) -> None:
    """A Marine of two Wounds (I4) slays a Boy; the last Boy (I2) strikes twice and slays him: the Boyz win by one,
    down to one model. In 3rd edition the last Boy takes Last Man Standing though his side won; in 4th edition,
    which has no such test, he takes none and is told why (the book's 4th edition ruling of round 6 had the winners
    fall back on a failed Last Man Standing)."""
    g = boyz_against_a_lone_marine(ruleset, wounds=2)
    # Marine: to hit 4, to wound 4, the Boy's 6+ save 1; last Boy: to hit 4, 4, to wound 5, 5, Marine's saves 1, 1
    faces = [4, 4, 1, 4, 4, 5, 5, 1, 1] + ([6, 6, 3, 3] if ruleset == "40k3" else [])
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice(faces))
    assert not g.state.unit("tac").alive and len(g.state.unit("boyz").models) == 1
    assert any("red loses by 1" in e.message for e in events if e.kind == "combat_result")
    checks = morale(events)
    if ruleset == "40k3":
        assert len(checks) == 1 and "Last Man Standing" in checks[0].message
        assert "published.last-man-standing" in checks[0].rules and g.state.unit("boyz").has(Status.FALLING_BACK)
        assert told_no_last_man(events) == []
    else:
        told = told_no_last_man(events)
        assert checks == [] and len(told) == 1 and told[0].rules == ("published.last-man-standing",)
        assert not g.state.unit("boyz").has(Status.FALLING_BACK)


@pytest.mark.rule("40k4.char.no-last-man", "published.last-man-standing")
def test_40k4_a_character_left_alone_is_told_the_character_clause_a_trooper_the_published_rule() -> None:
    """Seed 001: "Characters never need to take Last Man Standing tests" - a Captain whose squad is shot away is
    told so, citing the clause; a trooper left alone is told 4th edition has no such test. Neither rolls."""
    red = [squad("tac", 20, 10, n=2), hero("cap", 21, 11.5, joined="tac")]
    g = game(scenario("40k4", red, [lascannons()], phase="shooting", active="blue"))
    events = g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 4))
    told = told_no_last_man(events)
    assert len(told) == 1 and told[0].rules == ("40k4.char.no-last-man",) and told[0].message.startswith("cap")
    assert morale(events) == [] and morale(g.apply({"do": "end_phase"}, dice=ScriptedDice([]))) == []


# == 2. the clause a 4th edition refusal cites =================================================================
@pytest.mark.rule("published.movement", "40k3.char.move-as-type")
@BOTH
def test_a_squad_that_has_moved_is_refused_a_second_move_citing_its_own_editions_rule(ruleset: str) -> None:
    """A squad moves once a Movement phase. 3rd edition cites its character clause (40k3.char.move-as-type); a 4th
    edition game cites published.movement (seed 001: "Characters follow rules for models of their type"), never a
    3rd edition id. Undone, the first move is legal again, citing the same rule."""
    g = game(scenario(ruleset, [squad("tac", 20, 10)]))
    first = {"do": "move", "unit": "tac", "to": [[20, 14], [22, 14], [24, 14]]}
    assert_legal(g, first, MOVE_RULE[ruleset])
    start = g.state
    g.apply(first)
    refused = assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 15], [22, 15], [24, 15]]},
                             MOVE_RULE[ruleset])
    assert "already moved" in str(refused)
    assert ruleset == "40k3" or not any(r.startswith("40k3.") for r in refused.rules)
    undo_to(g, start)
    assert_legal(g, first, MOVE_RULE[ruleset])


@pytest.mark.rule("published.movement", "40k4.ic.join")
def test_40k4_a_captain_who_spent_his_move_joining_is_refused_more_citing_4th_edition_rules_only() -> None:
    """The Captain walks 5" to join the squad (40k4.ic.join); the squad then moves 6": he has 1" left of his 6", so
    the squad's move is refused naming the slowest-model rule and published.movement - no 3rd edition clause."""
    g = game(scenario("40k4", [squad("tac", 20, 10), hero("cap", 20, 17)]))
    g.apply({"do": "join", "character": "cap", "unit": "tac", "to": [20, 12]})
    refused = assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 16], [22, 16], [24, 16], [20, 18]]},
                             "published.movement")
    assert "40k4.ic.slowest-model" in refused.rules and not any(r.startswith("40k3.") for r in refused.rules)
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 14.5], [22, 14.5], [24, 14.5], [20, 13]]},
                 "published.movement")


# == 3. refusals that cited no rule ============================================================================
@pytest.mark.rule("published.movement")
@BOTH
def test_a_move_off_the_table_is_refused_citing_the_movement_rule(ruleset: str) -> None:
    """No model leaves the table: a Captain 2" from the edge may not walk 4" past it; 1" is fine."""
    g = game(scenario(ruleset, [hero("cap", 2, 30)]))
    assert_illegal(g, {"do": "move", "unit": "cap", "to": [[-2, 30]]}, "published.movement")
    assert_legal(g, {"do": "move", "unit": "cap", "to": [[1, 30]]}, MOVE_RULE[ruleset])


@pytest.mark.rule("published.shooting")
@BOTH
def test_a_unit_shoots_once_a_phase_and_never_at_its_own_side(ruleset: str) -> None:
    """A second volley by the same squad, or a volley at a friendly squad, was refused citing no rule; both now cite
    published.shooting. The first volley at the enemy is legal."""
    red = [gunners("tac", 20, 10, weapon="bolt pistol"), squad("dev", 30, 10)]
    g = game(scenario(ruleset, red, [squad("orks", 20, 25)], phase="shooting"))
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "dev"}, "published.shooting")
    volley = {"do": "shoot", "unit": "tac", "target": "orks"}
    assert_legal(g, volley)
    shoot_then_test(g, volley, [1, 1, 1])
    refused = assert_illegal(g, volley, "published.shooting")
    assert "once a Shooting phase" in str(refused)


@pytest.mark.rule("published.close-combat", "published.assault-range")
@BOTH
def test_a_combat_is_fought_once_and_no_unit_assaults_its_own_side(ruleset: str) -> None:
    """The Marine's combat, once fought, may not be fought again that phase (by either side); the refusal now cites
    published.close-combat. Assaulting a friendly squad cites the assault rule."""
    g = boyz_against_a_lone_marine(ruleset)
    assert_legal(g, {"do": "fight", "unit": "boyz"}, "published.close-combat")
    g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1, 1, 1, 1, 1]))  # every blow misses: a draw
    for unit in ("tac", "boyz"):
        refused = assert_illegal(g, {"do": "fight", "unit": unit}, "published.close-combat")
        assert "already been fought" in str(refused)
    red = [squad("tac", 20, 10), squad("dev", 20, 14)]
    g = game(scenario(ruleset, red, [squad("orks", 20, 18)], phase="assault"))
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "dev"}, "published.assault-range")


# == 4. the Morale check of a lost assault, combat by combat (4th edition) =====================================
def two_combats() -> Game:
    """Blue's Assault phase, two combats: a Nob locked with a squad of two (Ld 7) whose Captain (Ld 9) stands behind
    it, out of base contact; another Nob locked with a second squad 20" away."""
    nob = "WS4 BS2 S5 T4 W2 I5 A4 Ld7 Sv6+"
    red = [{"id": "squad", "status": ["locked"], "models": [model("Marine", 20, 20, ld=7), model("Marine 2", 22, 20,
                                                                                                  ld=7)]},
           hero("cap", 21, 18.5, ld=9, joined="squad", status=["locked"]),
           {"id": "squad2", "status": ["locked"], "models": [model("M3", 40, 20), model("M4", 42, 20)]}]
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [{"name": "Nob", "profile": nob, "base": 25, "at": [20, 20 + BASE_25]}]},
            {"id": "boyz2", "status": ["locked"],
             "models": [{"name": "Nob 2", "profile": nob, "base": 25, "at": [40, 20 + BASE_25]}]}]
    return game(scenario("40k4", red, blue, phase="assault", active="blue"))


#: The first Nob hits twice (2, 1, 6, 4), wounds once (3, 2), the Marine fails his save (2); the squad's check rolls
#: 4 + 6 = 10 and its fall back 4 + 2.
FIRST_COMBAT_LOST = [2, 1, 6, 4, 3, 2, 2, 4, 6, 4, 2]


@pytest.mark.rule("published.combat-resolution", "40k4.char.leadership", "40k4.cc.separate-unit",
                  "40k4.ic.falling-back", "published.close-combat")
def test_40k4_each_combat_is_resolved_in_turn_its_losers_check_and_fall_back_before_the_next_is_fought() -> None:
    """4th ed.: the loser tests "once combat results are established". The first combat is fought on its own: red
    loses by one, and the squad takes one Morale check - on its Captain's Ld 9, superior to its own 7, at -1 - not a
    second one for the Captain, who fought as a unit of his own (40k4.cc.separate-unit) but tests and falls back
    with the squad he may not leave (40k4.ic.falling-back). That combat is over before the second is fought: its
    units are free, it may not be fought again, and the second combat's units are still locked, unfought."""
    g = two_combats()
    start = g.state
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice(FIRST_COMBAT_LOST))
    checks = morale(events)
    assert len(checks) == 1 and checks[0].message.startswith("squad lost the combat by 1: Morale check on Ld 9 -1")
    assert "40k4.char.leadership" in checks[0].rules and "fails" in checks[0].message
    for uid in ("squad", "cap"):
        assert g.state.unit(uid).has(Status.FALLING_BACK) and not g.state.unit(uid).has(Status.LOCKED)
    assert g.state.unit("cap").joined == "squad" and not g.state.unit("boyz").has(Status.LOCKED)
    refused = assert_illegal(g, {"do": "fight", "unit": "boyz"}, "published.close-combat")
    assert "40k4.cc.base-contact" not in refused.rules  # the Nob is no character: the character clause is not his
    for uid in ("squad2", "boyz2"):
        assert g.state.unit(uid).has(Status.LOCKED) and not g.state.unit(uid).has(Status.FOUGHT)
    assert_legal(g, {"do": "fight", "unit": "boyz2"}, "published.close-combat")
    # the second combat is fought from the state the first left; undone, the first is to fight again
    g.apply({"do": "fight", "unit": "boyz2"})
    assert g.state.unit("squad").has(Status.FALLING_BACK)
    undo_to(g, start)
    assert_legal(g, {"do": "fight", "unit": "boyz"})


# == 5. casualties only from models within the line of fire ===================================================
#: A wall that hides the two left-hand Boyz of a squad at y=10 (x=14, 16) from a gunner at (16, 30).
WALL = [{"id": "wall", "kind": "blocking", "polygon": [[8, 18], [16.5, 18], [16.5, 20], [8, 20]]}]


@pytest.mark.rule("published.wound-allocation", "published.line-of-sight")
@BOTH
def test_a_model_hidden_from_every_firer_takes_no_wound_and_wounds_past_those_in_sight_are_lost(ruleset: str) -> None:
    """4th ed., Removing casualties: the owning player removes models "providing they are within the line of fire".
    A heavy bolter sees only two of four Boyz past the wall. Its three wounds slay the two in sight; the two behind
    the wall - one of them the closest to the gunner - are untouched and the third wound is lost. Without the wall
    the closest Boyz fall."""
    boyz = {"id": "boyz", "models": [model(f"Boy {i + 1}", 14 + 2 * i, 10, 7, BOY) for i in range(4)]}
    gunner = {"id": "hb", "models": [{**model("Gunner", 16, 30), "weapons": ["heavy bolter"]}]}
    faces = [6, 6, 6, 6, 6, 6]  # three hits, three wounds (S5 against T4), AP 4 leaves a Boy no save
    g = game(scenario(ruleset, [gunner], [boyz], phase="shooting", terrain=WALL))
    shoot_then_test(g, {"do": "shoot", "unit": "hb", "target": "boyz"}, faces + [1, 1])
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 1", "Boy 2"]
    g = game(scenario(ruleset, [gunner], [boyz], phase="shooting"))  # 3rd ed.: Last Man Standing, then casualties
    shoot_then_test(g, {"do": "shoot", "unit": "hb", "target": "boyz"}, faces + [1, 1, 1, 1])
    assert len(g.state.unit("boyz").models) == 1 and g.state.unit("boyz").models[0].name != "Boy 2"


@pytest.mark.rule("published.close-combat", "40k3.ic.movement-phase-only", "40k4.ic.movement-phase-only")
@BOTH
def test_a_squad_locked_in_combat_may_not_move_and_only_a_character_is_told_it_is_too_late_to_duck_out(
        ruleset: str) -> None:
    """A squad locked in close combat does not move in its Movement phase: the refusal cited the character clause
    ("once assaults are launched it is too late to join in or duck out") even for a squad with no character in
    it; it now cites the published close combat rule, and the character clause only where a character would move."""
    phase_only = {"40k3": "40k3.ic.movement-phase-only", "40k4": "40k4.ic.movement-phase-only"}[ruleset]
    ork = {"id": "orks", "status": ["locked"], "models": [model("Ork", 20, 10 + BASE_25)]}
    g = game(scenario(ruleset, [squad("tac", 20, 10, status=["locked"])], [ork]))
    refused = assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 9], [22, 9], [24, 9]]},
                             "published.close-combat")
    assert phase_only not in refused.rules
    red = [squad("tac", 20, 10, status=["locked"]), hero("cap", 22, 11.5, joined="tac", status=["locked"])]
    g = game(scenario(ruleset, red, [ork]))
    refused = assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 9], [22, 9], [24, 9], [22, 10.5]]},
                             "published.close-combat")
    assert phase_only in refused.rules
    g = game(scenario(ruleset, [squad("tac", 20, 10)], [squad("orks", 20, 30)]))
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 9], [22, 9], [24, 9]]}, MOVE_RULE[ruleset])
