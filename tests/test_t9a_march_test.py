"""The 9th Age March Test (session 32; the 2022 text, Moving Units): a unit about to March within 8" of a non-Fleeing
enemy unit first takes a Discipline test; failed, it "cannot perform a March Move during this Movement Phase (it can
perform any other type of move as normal, or choose not to move at all)".

The Spearmen (Ld 8, the Hero's 9 when he is joined) stand at (36, 20) facing up the table; the orcs' front stands
``enemy_y - 20`` inches from theirs. The March asked is 7" to the side, within the Spearmen's March Rate of 10".
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from _t9a import refused, reloading_game, reloads, scenario
from herohammer.action_odds import action_odds
from herohammer.actions import parse_action
from herohammer.dice import Dice, ScriptedDice, SeededDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.simulate import simulate
from herohammer.units import Status

MOVE = "published.t9a-move"
LD = "core.test.leadership"
HIGHEST = "core.test.highest-value"
GENERAL = "published.t9a-general"
BSB = "published.t9a-battle-standard"

MARCH: dict[str, Any] = {"do": "move", "unit": "spears", "to": [[29, 20]], "march": True}
ADVANCE: dict[str, Any] = {"do": "move", "unit": "spears", "to": [[33, 20]]}
LORD = "WS6 BS6 S4 T4 W3 I6 A3 Ld10 Sv4+ Adv5 Mar10"


def _data(enemy_y: float = 27.0, **kw: Any) -> dict[str, Any]:
    return scenario(phase="movement", active="elves", enemy_y=enemy_y, **kw)


def _with_lord(data: dict[str, Any], at: tuple[float, float], rules: list[str]) -> dict[str, Any]:
    data["sides"]["elves"].append({"id": "lord", "character": "independent", "rules": rules,
                                   "models": [{"name": "Lord", "profile": LORD, "base": [20, 20], "at": list(at)}]})
    return data


def _march_test(events: list[Any]) -> Any:
    return next(e for e in events if e.kind == "march_test")


def _brute_force_fail(target: int, rerolled: bool = False) -> Fraction:
    """The chance a 2D6 Discipline test on ``target`` fails, every pair of faces counted (twice for a re-roll)."""
    fails = Fraction(sum(a + b > target for a, b in itertools.product(range(1, 7), repeat=2)), 36)
    return fails * fails if rerolled else fails


# -- play ---------------------------------------------------------------------------------------------------------------
@pytest.mark.rule(MOVE, LD)
def test_a_unit_that_passes_its_march_test_marches() -> None:
    g = reloading_game(_data())
    assert "first a March Test on Ld 9 (Hero), orcs being within 8\"" in g.check(MARCH).reason
    events = g.apply(MARCH, ScriptedDice([4, 5]))  # 9 on Ld 9: passed
    test = _march_test(events)
    assert "spears takes a March Test, orcs being within 8\" and not Fleeing: 9 on Ld 9 (Hero), passed" in test.message
    assert MOVE in test.rules and LD in test.rules and dict(test.data)["outcome"] == "passed"
    assert [r.value for r in test.rolls] == [9]
    assert [e.kind for e in events] == ["march_test", "move"]
    spears = g.state.unit("spears")
    assert spears.has(Status.MARCHED) and spears.formation is not None and spears.formation.position == (29, 20)
    assert g.state.unit("hero").has(Status.MARCHED)
    reloads(g)


@pytest.mark.rule(MOVE, LD)
def test_a_failed_march_test_spends_the_dice_and_leaves_the_unit_where_it_stands() -> None:
    g = reloading_game(_data())
    before = g.state.unit("spears").formation
    events = g.apply(MARCH, ScriptedDice([5, 5]))  # 10 on Ld 9: failed; not an illegal action
    assert [e.kind for e in events] == ["march_test"]
    test = events[0]
    assert "10 on Ld 9 (Hero), failed: it cannot March this Movement Phase and does not move" in test.message
    assert (MOVE, LD) == test.rules[:2] and dict(test.data)["outcome"] == "failed"
    assert f"[{MOVE}, {LD}" in test.describe()
    spears = g.state.unit("spears")
    assert spears.formation == before and not spears.has(Status.MOVED) and not spears.has(Status.MARCHED)
    assert spears.has(Status.MARCH_TEST_FAILED) and g.state.unit("hero").has(Status.MARCH_TEST_FAILED)
    reloads(g)  # the mark is saved with the state
    g.undo()
    assert not g.state.unit("spears").has(Status.MARCH_TEST_FAILED)


@pytest.mark.rule(MOVE, LD)
def test_after_a_failed_march_test_the_unit_may_not_march_but_may_advance_in_the_same_phase() -> None:
    g = reloading_game(_data())
    g.apply(MARCH, ScriptedDice([6, 6]))
    refused(g, MARCH, MOVE, "failed its March Test this Movement Phase: it cannot March")
    assert LD in g.check(MARCH).rules
    assert parse_action(ADVANCE) in list(g.legal_actions()) or g.check(ADVANCE).legal
    events = g.apply(ADVANCE, ScriptedDice([]))  # an Advance takes no test and rolls nothing
    assert [e.kind for e in events] == ["move"]
    spears = g.state.unit("spears")
    assert spears.formation is not None and spears.formation.position == (33, 20) and not spears.has(Status.MARCHED)
    g.apply({"do": "end_phase"})
    assert not any(u.has(Status.MARCH_TEST_FAILED) for u in g.state.units)  # "during this Movement Phase" only


@pytest.mark.rule(MOVE, LD)
def test_after_a_failed_march_test_the_unit_may_reform_or_stay() -> None:
    g = reloading_game(_data())
    g.apply(MARCH, ScriptedDice([6, 6]))
    assert g.check({"do": "reform", "unit": "spears", "facing": 90}).legal
    assert g.check({"do": "end_phase"}).legal


@pytest.mark.rule(MOVE, LD)
def test_seeded_play_passes_and_fails_as_the_dice_say() -> None:
    seen = set()
    for seed in range(40):
        g = Game(reloading_game(_data()).state)
        dice = SeededDice(seed)
        test = _march_test(g.apply(MARCH, dice))
        roll = test.rolls[0].value
        passed = dict(test.data)["outcome"] == "passed"
        assert passed == (roll <= 9), (seed, roll, test.message)
        assert g.state.unit("spears").has(Status.MARCHED) == passed
        assert g.state.unit("spears").has(Status.MARCH_TEST_FAILED) == (not passed)
        seen.add(passed)
    assert seen == {True, False}


# -- who must test --------------------------------------------------------------------------------------------------
@pytest.mark.rule(MOVE)
def test_a_fleeing_enemy_within_8_inches_calls_for_no_march_test() -> None:
    g = reloading_game(_data(orc_status=["fleeing"]))
    assert "March Test" not in g.check(MARCH).reason
    events = g.apply(MARCH, ScriptedDice([]))  # no die is rolled
    assert [e.kind for e in events] == ["move"] and g.state.unit("spears").has(Status.MARCHED)


@pytest.mark.rule(MOVE)
def test_an_enemy_8_1_inches_away_calls_for_no_march_test_one_8_inches_away_does() -> None:
    g = reloading_game(_data(enemy_y=28.1))
    events = g.apply(MARCH, ScriptedDice([]))
    assert [e.kind for e in events] == ["move"] and g.state.unit("spears").has(Status.MARCHED)
    g = reloading_game(_data(enemy_y=28.0))
    assert _march_test(g.apply(MARCH, ScriptedDice([1, 1])))


@pytest.mark.rule(MOVE)
def test_an_advance_near_an_enemy_takes_no_march_test() -> None:
    g = reloading_game(_data())
    events = g.apply(ADVANCE, ScriptedDice([]))
    assert [e.kind for e in events] == ["move"]


@pytest.mark.rule(MOVE, LD, HIGHEST)
def test_a_joined_character_lends_the_unit_his_discipline() -> None:
    # 9 on the dice: the Hero's Ld 9 passes; the Spearmen alone (Ld 8) fail
    joined = reloading_game(_data())
    assert dict(_march_test(joined.apply(MARCH, ScriptedDice([4, 5]))).data)["outcome"] == "passed"
    alone = reloading_game(_data(joined=False, hero_at=(10, 10)))
    test = _march_test(alone.apply(MARCH, ScriptedDice([4, 5])))
    assert "9 on Ld 8 (s0), failed" in test.message, test.message


@pytest.mark.rule(MOVE, LD)
def test_a_lone_character_near_an_enemy_takes_his_own_march_test() -> None:
    g = reloading_game(_data(joined=False, hero_at=(42, 24)))  # about 3" to the side of the orcs
    march = {"do": "move", "unit": "hero", "to": [[48, 24]], "march": True}
    test = _march_test(g.apply(march, ScriptedDice([5, 5])))
    assert "hero takes a March Test, orcs being within 8\" and not Fleeing: 10 on Ld 9 (Hero), failed" in test.message
    assert g.state.unit("hero").has(Status.MARCH_TEST_FAILED) and not g.state.unit("spears").has(Status.MARCH_TEST_FAILED)
    assert g.state.unit("hero").models[0].at == (42, 24)


@pytest.mark.rule(MOVE, LD, GENERAL)
def test_the_general_within_12_inches_lends_his_discipline_and_beyond_it_does_not() -> None:
    near = reloading_game(_with_lord(_data(), (36, 10), ["General"]))  # about 8" behind the Spearmen's rear rank
    assert "Ld 10 (Lord, the General within 12\")" in near.check(MARCH).reason
    test = _march_test(near.apply(MARCH, ScriptedDice([5, 5])))
    assert "10 on Ld 10 (Lord, the General within 12\"), passed" in test.message and GENERAL in test.rules
    far = reloading_game(_with_lord(_data(), (36, 4), ["General"]))  # about 14" away
    test = _march_test(far.apply(MARCH, ScriptedDice([5, 5])))
    assert "10 on Ld 9 (Hero), failed" in test.message and GENERAL not in test.rules


# -- exact odds ---------------------------------------------------------------------------------------------------------
@pytest.mark.rule(MOVE, LD)
def test_the_exact_odds_of_a_march_are_the_brute_force_2d6_enumeration() -> None:
    state = reloading_game(_data()).state
    odds = action_odds(state, MARCH)
    assert odds.exact
    failed = odds.probability(lambda o: "march_test_failed" in dict(o.statuses_gained).get("spears", ()))
    assert failed.p == _brute_force_fail(9) == Fraction(1, 6)
    assert odds.probability(lambda o: "march_test.outcome: failed" in o.labels()).p == Fraction(1, 6)
    rules = get_ruleset("t9a")
    action = parse_action(MARCH)

    def run(dice: Dice) -> str:
        return str(dict(rules.resolve(state, action, dice)[1][0].data)["outcome"])

    dist = enumerate_outcomes(run)
    assert dict(dist.sorted_items()) == {"failed": _brute_force_fail(9), "passed": 1 - _brute_force_fail(9)}


@pytest.mark.rule(MOVE, LD, BSB)
def test_a_failed_march_test_is_re_rolled_within_the_battle_standards_reach() -> None:
    state = reloading_game(_with_lord(_data(), (36, 10), ["Battle Standard Bearer"])).state
    rules = get_ruleset("t9a")
    action = parse_action(MARCH)

    def run(dice: Dice) -> str:
        return str(dict(rules.resolve(state, action, dice)[1][0].data)["outcome"])

    assert dict(enumerate_outcomes(run).sorted_items())["failed"] == _brute_force_fail(9, rerolled=True)
    g = Game(state)
    test = _march_test(g.apply(MARCH, ScriptedDice([6, 6, 2, 3])))
    assert "Rally Around the Flag (Lord" in test.message and BSB in test.rules and "passed" in test.message


# -- simulation -----------------------------------------------------------------------------------------------------
@pytest.mark.rule(MOVE, LD)
def test_a_march_near_an_enemy_simulates_with_its_march_test() -> None:
    result = simulate(_data(), runs=200, seed=5, plan=[MARCH])
    marginals = result.marginals()
    failed = marginals["spears: march_test_failed"]
    assert failed[True][1] == _brute_force_fail(9) and 0 < failed[True][0] < 200
    assert failed[True][0] + marginals["spears: marched"][True][0] == 200


# -- a character marching alone to leave or to join a unit ----------------------------------------------------------
@pytest.mark.rule(MOVE, LD, "t9a.leave.move")
def test_a_character_marching_out_of_his_unit_takes_his_own_march_test() -> None:
    g = reloading_game(_data())
    march_out = {"do": "leave", "character": "hero", "to": [29, 19.6]}  # 7": more than his Advance Rate of 5"
    assert any("first a March Test on Ld 9 (Hero)" in n for n in g.check(march_out).notes)
    events = g.apply(march_out, ScriptedDice([6, 6]))
    assert [e.kind for e in events] == ["march_test"]
    assert "hero takes a March Test, orcs being within 8\" and not Fleeing: 12 on Ld 9 (Hero), failed" in events[0].message
    hero = g.state.unit("hero")
    assert hero.joined == "spears" and hero.has(Status.MARCH_TEST_FAILED)
    assert not g.state.unit("spears").has(Status.MARCH_TEST_FAILED)  # he tested alone: his unit may still march
    refused(g, march_out, MOVE, "failed his March Test this Movement Phase: he cannot March out of spears")
    events = g.apply({"do": "leave", "character": "hero", "to": [32, 19.6]}, ScriptedDice([]))  # 4": an Advance
    assert [e.kind for e in events] == ["leave"] and g.state.unit("hero").joined is None


@pytest.mark.rule(MOVE, LD, "t9a.join.move")
def test_a_character_marching_to_join_a_unit_takes_his_own_march_test() -> None:
    data = _data(joined=False, hero_at=(44, 22))  # about 5" to the side of the orcs
    join = {"do": "join", "character": "hero", "unit": "spears", "position": 4}  # 6.86": a March
    passed = reloading_game(data)
    events = passed.apply(join, ScriptedDice([3, 3]))
    assert [e.kind for e in events] == ["march_test", "join"] and passed.state.unit("hero").joined == "spears"
    failed = reloading_game(data)
    events = failed.apply(join, ScriptedDice([5, 5]))
    assert [e.kind for e in events] == ["march_test"] and "10 on Ld 9 (Hero), failed" in events[0].message
    assert failed.state.unit("hero").joined is None and failed.state.unit("hero").models[0].at == (44, 22)
    refused(failed, join, MOVE, "failed his March Test this Movement Phase: he cannot March to join")
