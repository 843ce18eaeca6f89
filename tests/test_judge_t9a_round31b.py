"""Round 31b: a 9th Age judge's cases on characters through sequences of actions, beside round 31 (a character who
left his unit then is charged, charging out of a fleeing unit, a lone fleeing character rallying, a second move in one
phase, Stand and Shoot at a unit with its character), played through Game.

Wrong rulings found (each first committed as a strict xfail, then fixed and its mark removed):

1. Confusing message: a Stand and Shoot at a charging unit told its shots but not what they did ("orcs stood and shot
   (5 shots, 5 at Long Range)", then a Panic test with no casualty named); the charge now tells the models slain, or
   that none was (published.t9a-stand-and-shoot).

2. Confusing message: a unit that cannot move was told "has moved or charged already this turn, or cannot move
   (engaged or fleeing)" whatever the reason; it is now told the one that holds (published.t9a-move).

3. Confusing message: a character who marched to join a unit did not shoot with it, rightly
   (t9a.join.moved-separately, cited), but the volley never said why his shot was missing: the note was cited, not
   told; the volley now tells it (and every model that cannot shoot, where only the first was told).

The other cases hold as the texts read: a character who left his unit is charged alone and flees alone; one still in
his unit is never charged alone; no charge out of a fleeing unit; a lone fleeing character rallies on his own
Discipline (odds brute-forced) and, rallied, neither moves nor reforms; a fleeing character charged must Flee; a unit
fleeing a charge takes its character along; a unit a character joined neither moves nor reforms; a Duel nobody can
accept is not issued; after a charge out, the other character leaves, the unit moves and the charger fights alone; a
character who left the General's unit tests on the General's Discipline. The order of several Break tests (the
losing player's) was ruled in round 31 (break_order); nothing more was found on it here.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from _t9a import exact_odds_as_brute_force, HERO, play_to, refused, reloading_game, reloads, scenario
from herohammer.cli import main
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

SAS = "published.t9a-stand-and-shoot"
MOVE = "published.t9a-move"

#: five bows at Long Range: 6s hit (5+ at long range, -1 Stand and Shoot), 6s wound, 1s fail the 5+ save
FIVE_DOWN = [6] * 5 + [6] * 5 + [1] * 5


# -- 1. a character who left his unit is a unit of his own when charged ----------------------------------------------
@pytest.mark.rule("t9a.leave.move", "published.t9a-flee-reaction", "published.t9a-charge")
def test_a_character_who_left_his_unit_is_charged_alone_and_flees_while_his_old_unit_stays() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=44))
    g.apply({"do": "leave", "character": "hero", "to": [36, 28]})
    play_to(g, "charge", "orcs")
    events = g.apply({"do": "charge", "unit": "orcs", "target": "hero", "reaction": "flee"}, ScriptedDice([3, 3, 4, 4]))
    fled = next(e for e in events if e.kind == "flee")
    assert "hero flees 6\" from orcs's charge" in fled.message, fled.message
    charge = next(e for e in events if e.kind == "charge")
    assert "orcs fails its charge (12\" < 21.61\")" in charge.message, charge.message
    assert g.state.unit("hero").has(Status.FLEEING) and not g.state.unit("spears").has(Status.FLEEING)
    assert g.state.unit("hero").joined is None
    reloads(g)


@pytest.mark.rule("t9a.join.part-of-unit", "published.t9a-charge")
def test_a_character_still_in_his_unit_is_not_charged_alone() -> None:
    g = reloading_game(scenario(phase="charge", active="orcs", enemy_y=34))
    refused(g, {"do": "charge", "unit": "orcs", "target": "hero", "reaction": "flee"}, "t9a.join.part-of-unit",
            "the unit is charged, not its character alone")


# -- 2. charging out of a fleeing unit; a lone fleeing character's rally ----------------------------------------------
@pytest.mark.rule("t9a.charge-out.declare")
def test_a_character_does_not_charge_out_of_a_fleeing_unit() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=32, spear_status=["fleeing"]))
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, "t9a.charge-out.declare",
            "part of spears, which is fleeing")


@pytest.mark.rule("published.t9a-rally")
@pytest.mark.parametrize("dice,rallies", [([5, 4], True), ([5, 5], False)])
def test_a_lone_fleeing_character_rallies_on_his_own_discipline(dice: list[int], rallies: bool) -> None:
    g = reloading_game(scenario(phase="charge", active="elves", joined=False, hero_status=["fleeing"], enemy_y=44))
    events = g.apply({"do": "rally", "unit": "hero"}, ScriptedDice(dice + [3, 3]))
    assert "Ld 9, Hero" in events[0].message and "published.t9a-rally" in events[0].rules, events[0].message
    assert g.state.unit("hero").has(Status.FLEEING) is not rallies
    reloads(g)


@pytest.mark.rule("published.t9a-rally")
def test_the_odds_of_a_lone_fleeing_characters_rally_are_brute_forces() -> None:
    state = reloading_game(scenario(phase="charge", active="elves", joined=False, hero_status=["fleeing"],
                                    enemy_y=44)).state
    weights = dict(exact_odds_as_brute_force(state, {"do": "rally", "unit": "hero"}))
    rallied = sum(p for o, p in weights.items() if "rally.outcome: rallied" in o.events)
    # 2D6 at most his own Ld 9, counted here: 30 of the 36 throws
    assert rallied == Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 9), 36)


# -- 3. a second move in one phase; a unit that cannot move is told why -----------------------------------------------
@pytest.mark.rule(MOVE, "t9a.leave.when")
def test_a_unit_that_moved_does_not_move_again_in_the_phase_and_its_character_does_not_leave() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=44))
    g.apply({"do": "move", "unit": "spears", "to": [[36, 18]]})
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 16]]}, MOVE, "spears")
    # he moved with it: he has moved this phase and cannot leave (t9a.leave.when)
    refused(g, {"do": "leave", "character": "hero", "to": [30, 24]}, "t9a.leave.when", "hero has already moved")


@pytest.mark.rule(MOVE)
@pytest.mark.parametrize("status,words", [("moved", "spears has moved already this turn"),
                                          ("engaged", "spears is engaged"), ("fleeing", "spears is fleeing")])
def test_a_unit_that_cannot_move_is_told_its_own_reason(status: str, words: str) -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=44, spear_status=[status]))
    ruling = g.check({"do": "move", "unit": "spears", "to": [[36, 18]]})
    assert not ruling.legal and MOVE in ruling.rules and words in ruling.reason, ruling
    assert " or " not in ruling.reason, ruling


# -- 4. Stand and Shoot at a unit with its character ------------------------------------------------------------------
@pytest.mark.rule(SAS, "published.t9a-panic")
def test_stand_and_shoot_tells_the_models_it_slew_before_the_chargers_panic() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "stand_and_shoot"},
                     ScriptedDice(FIVE_DOWN + [6, 6, 6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    assert len(g.state.unit("spears").models) == 5
    assert "slain: " in charge.message and charge.message.count(", s") >= 4, charge.message
    panic = next(e for e in events if e.kind == "panic")
    assert "Ld 9" in panic.message  # the Hero's Discipline, his unit's


@pytest.mark.rule(SAS)
def test_stand_and_shoot_that_slays_nobody_says_so() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "stand_and_shoot"},
                     ScriptedDice([1] * 5 + [6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    assert "none slain" in charge.message, charge.message
    assert len(g.state.unit("spears").models) == 10


@pytest.mark.rule(SAS, "t9a.join.part-of-unit")
def test_a_character_with_a_bow_stands_and_shoots_with_his_unit() -> None:
    g = reloading_game(scenario(phase="charge", active="orcs", enemy_y=34, hero_weapons=["bow"]))
    events = g.apply({"do": "charge", "unit": "orcs", "target": "spears", "reaction": "stand_and_shoot"},
                     ScriptedDice([1, 6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    assert "spears stood and shot (1 shot, 1 at Long Range)" in charge.message, charge.message
    assert g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)


# -- 5. more sequences: a rallied character, a fleeing one charged, a unit fleeing with its character, a join ----------
@pytest.mark.rule("published.t9a-rally", MOVE)
def test_a_lone_character_who_rallied_does_not_move_in_the_movement_phase() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", joined=False, hero_status=["fleeing"], enemy_y=44))
    g.apply({"do": "rally", "unit": "hero"}, ScriptedDice([5, 4]))
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "hero", "to": [[10, 12]]}, "published.t9a-rally", "it rallied this turn")
    refused(g, {"do": "reform", "unit": "hero", "facing": 90}, "published.t9a-rally", "it rallied this turn")


@pytest.mark.rule("published.t9a-charge-reactions", "published.t9a-flee-reaction")
def test_a_fleeing_lone_character_charged_must_flee() -> None:
    g = reloading_game(scenario(phase="charge", active="orcs", joined=False, hero_at=(36, 26),
                                hero_status=["fleeing"], enemy_y=40))
    refused(g, {"do": "charge", "unit": "orcs", "target": "hero", "reaction": "hold"},
            "published.t9a-flee-reaction", "a unit already fleeing must Flee")


@pytest.mark.rule("published.t9a-flee-reaction", "t9a.join.part-of-unit", "t9a.leave.when")
def test_a_unit_that_flees_a_charge_takes_its_character_with_it_and_he_does_not_leave_it() -> None:
    g = reloading_game(scenario(phase="charge", active="orcs", enemy_y=34))
    events = g.apply({"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee"},
                     ScriptedDice([3, 3, 4, 4]))
    assert "spears flees 6\" from orcs's charge" in events[0].message, events[0].message
    assert g.state.unit("hero").joined == "spears" and g.state.unit("spears").has(Status.FLEEING)
    # the hero moved 6" with his unit, as every model of it did
    assert g.state.unit("hero").models[0].at[1] == pytest.approx(g.state.unit("spears").models[0].at[1])
    play_to(g, "charge", "elves")
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, "t9a.charge-out.declare",
            "fleeing")
    reloads(g)


@pytest.mark.rule("t9a.join.unit-stops", "published.t9a-reform")
def test_a_unit_a_character_just_joined_neither_moves_nor_reforms_and_is_told_why() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(36, 26), enemy_y=44))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    refused(g, {"do": "reform", "unit": "spears", "facing": 90}, "t9a.join.unit-stops",
            "a character joined spears this phase: it cannot reform")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "t9a.join.unit-stops",
            "a character joined spears this phase: it cannot move again")


@pytest.mark.rule("published.t9a-duel")
def test_a_duel_with_nobody_to_accept_or_refuse_it_is_not_issued() -> None:
    g = reloading_game(scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"],
                                orc_status=["engaged"]))
    refused(g, {"do": "fight", "unit": "spears", "duel": "hero"}, "published.t9a-duel",
            "no enemy character or Champion")


@pytest.mark.rule("t9a.charge-out.success", "t9a.charge-out.no-other-charges", "t9a.leave.when",
                  "t9a.leave.unit-not-moved", "published.t9a-combat-resolution")
def test_after_a_charge_out_the_other_character_leaves_the_unit_moves_and_the_charger_fights_alone() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=32)
    data["sides"]["elves"].append({"id": "mage", "character": "independent", "joined": "spears",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]})
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([4, 4]))
    assert g.state.unit("hero").joined is None and g.state.unit("hero").has(Status.ENGAGED)
    play_to(g, "movement", "elves")
    # the charge out was the unit's only charge, not its move: its other character leaves and the unit moves
    events = g.apply({"do": "leave", "character": "mage", "to": [30, 26]})
    assert "spears has not moved" in events[0].message
    g.apply({"do": "move", "unit": "spears", "to": [[36, 17]]})
    play_to(g, "melee", "elves")
    # the Hero's three blows slay three orcs (6s to hit and to wound, their 6+ saves fail on 1s): he alone is
    # the elves' side of the combat; +1 for his charge. The orc left before him misses (1; round 63: the casualties
    # fall from both ends of the single rank and the rest stand, so one orc, not two slid together, touches him),
    # they break on 7 (Ld 7 - 4), flee 12" and are caught by a pursuit of 12"
    events = g.apply({"do": "fight", "unit": "hero"}, ScriptedDice([6] * 6 + [1] * 3 + [1] + [1, 6] + [6, 6] + [6, 6]))
    told = next(e for e in events if e.kind == "break")
    assert "elves wins by 4 (4 to 0; wounds caused: elves 3, orcs 0; hero +1 (charge))" in told.message, told.message
    assert not g.state.unit("spears").has(Status.ENGAGED) and g.state.unit("mage").joined is None
    reloads(g)


# -- 6. a character who marched to join does not shoot with the unit, and the volley says so --------------------------
def _archers_joined_by(hero_at: tuple[float, float]) -> Game:
    data = scenario(phase="movement", active="elves", joined=False, hero_at=hero_at, enemy_y=34, hero_weapons=["bow"])
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    g = reloading_game(data)
    # a March within 8" of the orcs takes a March Test (session 32, published.t9a-move): passed on 1 1, so that the
    # Hero joins whatever the dice (the default dice failed it about one run in six); an Advance rolls nothing
    g.apply({"do": "join", "character": "hero", "unit": "spears"}, ScriptedDice([1, 1]))
    play_to(g, "shooting", "elves")
    return g


@pytest.mark.rule("t9a.join.moved-separately", "published.t9a-who-can-shoot")
def test_a_character_who_marched_to_join_does_not_shoot_and_the_volley_tells_why() -> None:
    g = _archers_joined_by((36, 26))  # 6.39": a March
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1] * 9))
    shoot = events[0]
    # nine Spearmen shoot (the tenth was pushed behind the second rank); the Hero marched
    assert "spears shoots orcs: 9 shots (4+ to hit, S3)" in shoot.message, shoot.message
    assert "hero marched this turn and does not shoot" in shoot.message, shoot.message
    assert "1 model stands behind the second rank of spears" in shoot.message
    assert "t9a.join.moved-separately" in shoot.rules


@pytest.mark.rule("t9a.join.moved-separately", "published.t9a-to-hit-shooting")
def test_a_character_who_advanced_to_join_shoots_at_minus_one_and_the_unmoved_unit_at_its_own() -> None:
    g = _archers_joined_by((36, 23))  # 3.39": an Advance
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1] * 10))
    # BS6 hits on 1+, Long Range and moving -1 each: 3+; the Spearmen, unmoved, 3+ and Long Range: 4+
    assert "1 shot (3+ to hit, S3)" in events[0].message and "9 shots (4+ to hit, S3)" in events[0].message


@pytest.mark.rule(MOVE, "published.t9a-reform")
@pytest.mark.parametrize("action", [{"do": "move", "unit": "spears", "to": [[36, 18]]},
                                    {"do": "reform", "unit": "spears", "facing": 90}])
def test_the_cli_tells_an_engaged_unit_why_it_cannot_move_or_reform(action: dict[str, object], tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "engaged.json"
    path.write_text(json.dumps(scenario(phase="movement", active="elves", enemy_y=20, spear_status=["engaged"],
                                        orc_status=["engaged"])), encoding="utf-8")
    assert main(["check", str(path), "--action", json.dumps(action)]) == 0
    out = capsys.readouterr().out.strip()
    # a reform is told it cannot reform (round 32: it was told "cannot move")
    assert out == f"ILLEGAL: spears is engaged in combat and cannot {action['do']} [published.t9a-{action['do']}]", out


@pytest.mark.rule("published.t9a-general", "t9a.leave.when", "core.test.leadership")
def test_a_character_who_left_the_generals_unit_tests_on_the_generals_discipline_within_12_inches() -> None:
    data = scenario(phase="movement", active="elves", enemy_y=44)
    data["sides"]["elves"].append({"id": "gen", "character": "independent", "joined": "spears", "rules": ["General"],
                                   "models": [{"name": "Gen", "profile": HERO.replace("Ld9", "Ld10"),
                                               "base": [20, 20]}]})
    g = reloading_game(data)
    g.apply({"do": "leave", "character": "hero", "to": [36, 28]})
    events = g.apply({"do": "test", "unit": "hero", "characteristic": "Ld", "kind": "Panic"}, ScriptedDice([5, 5]))
    assert "hero takes a Panic test on Ld 10 (Gen, the General within 12\"), rolls 10: passes" in events[0].message
    assert "published.t9a-general" in events[0].rules
