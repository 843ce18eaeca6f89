"""A judge's cases for 40k 3rd and 4th edition, round 59 (docstring completed with the findings below).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.scenario import scenario_notes, state_to_data

from _cli import run
from _w40k import (EDITIONS, LEAVE, armed, assert_illegal, assert_legal, brute, falls_back_odds, game, gunners, hero,
                   kinds, model, next_turn_to, pass_odds, saved_and_loaded, scenario, shoot_then_test, squad,
                   two_d6_at_most)

TEST = {"do": "test", "unit": "tac", "characteristic": "Ld"}
KINDS = "core.test.leadership-kinds"
TOUCH = 25 / 25.4  # two 25mm bases this far apart, centre to centre, touch
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv-"
SPLIT_CLAUSE = {"40k3": "40k3.char.attack-allocation", "40k4": "40k4.cc.engaged-only"}
FIGHT_CAP = {"do": "fight", "unit": "cap"}


def squad_with_captain(ruleset: str, cap_ld: int, **status: Any) -> Game:
    """Red's Movement phase: ``tac`` (two Marines, Ld 8) at (20, 20) and (22, 20), joined by ``cap`` at (22, 18.5)."""
    return game(scenario(ruleset, [{**squad("tac", 20, 20, n=2), **status},
                                   {**hero("cap", 22, 18.5, ld=cap_ld), "joined": "tac"}]))


# == 1. 4th edition: a value no model has, in a squad whose Captain is not superior =================================

@pytest.mark.rule("40k4.char.leadership", "core.test.leadership-choice", "40k3.char.leadership", "40k4.ic.leave")
def test_40k4_a_value_no_model_has_is_refused_by_the_character_clause_and_the_shared_pick() -> None:
    """Seed 001 decides a joined squad's test only where the character's Leadership "is superior to the unit's"; where
    it is not, seed 004's pick ("the player may choose which value to use") stands, and round 58 cites both clauses
    for the legal pick (his 7 or the squad's 8). A value no model has (9, 5) is refused by the same two: the shared
    rule names the values to choose from, the character clause is why the pick is open at all (a superior Captain's
    9 refuses 8 by 40k4.char.leadership alone). The Regroup test's pick is read alike. A squad with no character
    refuses 9 by the shared rule alone. Next turn the Captain leaves: the squad's refusal of 7 (his value, no longer
    one of the unit's) cites no character clause; undone, his 7 is legal again and 9 refused by both; saved and
    loaded, the same. 3rd edition: every value but his is refused by 40k3.char.leadership, never 4th's clause."""
    g = squad_with_captain("40k4", 7)
    for chosen in (9, 5):
        refusal = assert_illegal(g, {**TEST, "leadership": chosen}, "core.test.leadership-choice")
        assert "40k4.char.leadership" in refusal.rules, refusal.rules
        assert "40k3.char.leadership" not in refusal.rules
    assert pass_odds(g, {**TEST, "leadership": 7}) == two_d6_at_most(7) == Fraction(21, 36)
    falling = squad_with_captain("40k4", 7, status=["falling_back"])
    refusal = assert_illegal(falling, {"do": "regroup", "unit": "tac", "leadership": 9}, "core.test.leadership-choice")
    assert "40k4.char.leadership" in refusal.rules, refusal.rules
    superior = squad_with_captain("40k4", 9)
    assert assert_illegal(superior, {**TEST, "leadership": 8}, "40k4.char.leadership").rules == (
        "40k4.char.leadership",)
    alone = game(scenario("40k4", [squad("tac", 20, 20, n=2)]))
    assert assert_illegal(alone, {**TEST, "leadership": 9}, "core.test.leadership-choice").rules == (
        "core.test.leadership-choice",)

    next_turn_to(g, "red", "movement")
    assert_legal(g, {"do": "leave", "character": "cap", "to": [22, 15]}, LEAVE["40k4"])
    g.apply({"do": "leave", "character": "cap", "to": [22, 15]})
    after = assert_illegal(g, {**TEST, "leadership": 7}, "core.test.leadership-choice")
    assert "40k4.char.leadership" not in after.rules, after.rules
    g.undo()
    assert g.state.unit("cap").joined == "tac"
    assert_legal(g, {**TEST, "leadership": 7}, "40k4.char.leadership", "core.test.leadership-choice")
    loaded = saved_and_loaded(g)
    again = assert_illegal(loaded, {**TEST, "leadership": 9}, "core.test.leadership-choice")
    assert "40k4.char.leadership" in again.rules

    third = squad_with_captain("40k3", 7)
    for chosen in (9, 8):
        refusal = assert_illegal(third, {**TEST, "leadership": chosen}, "40k3.char.leadership")
        assert "40k4.char.leadership" not in refusal.rules


# == 2. both editions: the tests the engine rolls itself are named Leadership tests =================================

@pytest.mark.rule("core.test.leadership-kinds", "core.test.leadership", "published.regroup", "40k3.char.leadership",
                  "published.last-man-standing", "published.target-priority")
@EDITIONS
def test_the_tests_the_engine_rolls_cite_the_named_kinds_clause(ruleset: str, capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """Seed 004: Terror, Break, Panic "and every other named Leadership test is a Leadership test": what applies to
    Leadership tests applies to each. The judge's own `test` cites core.test.leadership-kinds for every kind; a
    Regroup test, a Morale check, a Last Man Standing test (3rd edition) and a Target Priority test (4th edition) are
    such named tests, and it is that clause that lets the unit's Leadership pick (the character's, or the player's)
    decide them. So their rulings and events cite it beside core.test.leadership. The Regroup of a squad (Ld 8)
    with its Captain (Ld 7): 3rd edition on his 7 (exact 21/36), 4th edition on the squad's 8 by default (its +1 with
    no enemy in sight aside); once through `herohammer odds action`."""
    falling = squad_with_captain(ruleset, 7, status=["falling_back"])
    regroup = {"do": "regroup", "unit": "tac"}
    assert_legal(falling, regroup, "published.regroup", "core.test.leadership", KINDS)
    (event, *_) = falling.apply(regroup, dice=ScriptedDice([1, 1]))
    assert event.kind == "regroup" and {"core.test.leadership", KINDS} <= set(event.rules), event
    falling.undo()
    if ruleset == "40k3":
        assert falls_back_odds(falling.state, regroup, "tac")[False] == two_d6_at_most(7) == Fraction(21, 36)
    path = tmp_path / "falling.json"
    path.write_text(json.dumps(state_to_data(falling.state)))
    code, out, _ = run(["odds", "action", str(path), "--action", json.dumps(regroup), "--json"], capsys)
    assert code == 0, out
    assert KINDS in json.loads(out)["rules"], out

    # a Morale check (3rd edition: with Last Man Standing first) on a squad shot down to one Marine
    data = scenario(ruleset, [squad("tac", 20, 20, n=2)], [{"id": "las", "models": [armed("L1", 20, 34, "lascannon")]}],
                    phase="shooting")
    data["active"] = "blue"
    events = shoot_then_test(game(data), {"do": "shoot", "unit": "las", "target": "tac"}, [6, 6] + [1] * 6)
    tests = [e for e in kinds(events, "morale")]
    assert tests and all({"core.test.leadership", KINDS} <= set(e.rules) for e in tests), tests
    if ruleset == "40k3":
        assert "published.last-man-standing" in tests[0].rules
    else:  # a Target Priority test: the squad fires at the far unit past the near one
        red = [gunners("tac", 20, 20, n=2)]
        blue = [squad("near", 20, 30, n=2), squad("far", 36, 40, n=2)]
        tp = game(scenario(ruleset, red, blue, phase="shooting"))
        shot = tp.apply({"do": "shoot", "unit": "tac", "target": "far"}, dice=ScriptedDice([1, 1] + [1] * 10))
        (priority,) = kinds(shot, "target_priority")
        assert {"published.target-priority", "core.test.leadership", KINDS} <= set(priority.rules), priority
