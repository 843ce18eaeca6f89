"""Judge's cases: The 9th Age Panic tests for a friend destroyed or breaking from combat nearby.

The 9th Age rulebook (2nd edition, 17.A Panic Test): "A Panic Test is a Discipline Test that a unit has
to take immediately after any of the following situations arise: a friendly unit is destroyed within 6"
of the unit (including Fleeing off the board); a friendly unit Breaks from Combat within 6" of the unit";
"units that fail a Panic Test immediately Flee directly away from the closest enemy unit"; "if several
units have to take a Panic Test at the same time, take all Panic Tests before performing any Flee Moves";
"units do not take Panic Tests if they are Engaged in Combat, if they are already Fleeing, or if they
already passed a Panic Test during this phase". Seed 002 (t9a.combined.last-survivor): a combined unit
reduced to its character "does not count as destroyed for other units' Panic tests".
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from _t9a import SPEAR, exact_odds_as_brute_force, scenario
from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.geometry import group_distance
from herohammer.scenario import state_from_data, state_to_data
from herohammer.simulate import simulate
from herohammer.state import GameState
from herohammer.units import Status

PANIC = "published.t9a-panic"
LAST = "t9a.combined.last-survivor"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
#: Five orc bows at one spearman: five 6s to hit, five 6s to wound, five 1s to save: the spearman is slain.
SLAY_ONE = [6] * 5 + [6] * 5 + [1] * 5
#: From a 5-wide unit of 20 mm bases centred at x, its left edge lies this far left of x (2.5 bases).
HALF_ROW = 2.5 * 20 / 25.4


def _guards(x: float, y: float = 20.0, status: list[str] | None = None, gid: str = "guards",
            n: int = 5) -> dict[str, Any]:
    return {"id": gid, "status": status or [], "formation": {"position": [x, y], "files": 5},
            "models": [{"name": f"{gid}{i}", "profile": SPEAR, "base": [20, 20]} for i in range(n)]}


def _gap(state: GameState, a: str, b: str) -> float:
    return group_distance([m.placed for m in state.unit(a).models], [m.placed for m in state.unit(b).models])


def _lone_spearman(gap: float, joined: bool = False, **kw: Any) -> Game:
    """One spearman (the hero with him when ``joined``) shot at by five orc bows; guards ``gap`` inches to his right."""
    data = scenario(n=1, joined=joined, hero_at=(10, 10))
    right_edge = 36 + 10 / 25.4  # the spearman's base: 20 mm wide, centred at x = 36
    data["sides"]["elves"].append(_guards(right_edge + gap + HALF_ROW, **kw))
    g = Game(state_from_data(data))
    assert state_from_data(state_to_data(g.state)) == g.state
    return g


def _panics(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "panic"]


# -- 1. a friend destroyed within 6" -------------------------------------------------------------
@pytest.mark.rule(PANIC)
@pytest.mark.parametrize("gap,tests", [(5.9, True), (6.1, False)])
def test_a_friend_destroyed_within_6_inches_makes_the_unit_take_a_panic_test(gap: float, tests: bool) -> None:
    g = _lone_spearman(gap)
    assert _gap(g.state, "spears", "guards") == pytest.approx(gap)
    before, logged = g.state, len(g.log)
    # the spearman is slain; the guards (Ld 8) roll 12: they fail and flee 2D6 = 7" from the closest enemy
    events = g.apply(SHOOT, ScriptedDice(SLAY_ONE + [6, 6] + [3, 4]))
    assert not g.state.unit("spears").alive
    if not tests:
        assert not _panics(events) and g.state.unit("guards") == before.unit("guards")
        return
    panic = _panics(events)[0]
    assert PANIC in panic.rules and "spears destroyed 5.9\" away" in panic.message and "fails" in panic.message
    assert dict(panic.data)["outcome"] == "fled"
    guards = g.state.unit("guards")
    assert Status.FLEEING in guards.status
    orcs_y = 34.0  # directly away from the orcs' centre: the guards go down the table and away to the right
    assert guards.formation is not None and guards.formation.position[1] < 20 < orcs_y
    assert events[-1].kind == "flee" and "7\"" in events[-1].message
    assert all(a.to_json()["do"] == "end_phase" for a in g.legal_actions())
    g.undo()
    assert g.state is before and len(g.log) == logged


@pytest.mark.rule(PANIC)
def test_a_passed_panic_test_leaves_the_unit_where_it_stands() -> None:
    g = _lone_spearman(3.0)
    before = g.state.unit("guards")
    events = g.apply(SHOOT, ScriptedDice(SLAY_ONE + [4, 4]))  # 8 against Ld 8: passed
    panic = _panics(events)[-1]
    assert "guards passes its Panic test" in panic.message and dict(panic.data)["outcome"] == "passed"
    after = g.state.unit("guards")
    assert after.models == before.models and Status.FLEEING not in after.status


# -- the last survivor ----------------------------------------------------------------------------
@pytest.mark.rule(LAST)
@pytest.mark.rule(PANIC)
def test_a_unit_left_with_its_last_survivor_is_not_destroyed_for_its_friends() -> None:
    g = _lone_spearman(2.0, joined=True)
    before = g.state
    # five hits shared by the spearman and the hero (fewer than five rank and file): 3 on the spearman, 2 on the hero.
    # The spearman: 6, 6, 6 wound, 1, 1, 1 fail the saves; the hero: 1, 1 do not wound. The hero, left alone, takes
    # his unit's Panic test for heavy casualties (1 of 2 lost) and passes on 2; the guards 2" away take none.
    events = g.apply(SHOOT, ScriptedDice([6] * 5 + [6, 6, 6] + [1, 1, 1] + [1, 1] + [1, 1]))
    assert not g.state.unit("spears").alive and g.state.unit("hero").alive
    assert g.state.unit("hero").last_of == "spears"
    panics = _panics(events)
    assert len(panics) == 1 and panics[0].message.startswith("hero passes") and LAST in panics[0].rules
    assert g.state.unit("guards") == before.unit("guards")
    g.undo()
    assert g.state is before


@pytest.mark.rule(LAST)
@pytest.mark.rule(PANIC)
def test_the_last_survivor_slain_destroys_the_unit_and_his_friends_test() -> None:
    data = scenario(n=1, joined=True, phase="magic", active="orcs")
    data["sides"]["elves"].append(_guards(36 + 10 / 25.4 + 2.0 + HALF_ROW))
    data["sides"]["elves"][1]["models"][0]["profile"] = "WS6 BS6 S4 T4 W1 I6 A3 Ld9 Sv- Adv5 Mar10"
    g = Game(state_from_data(data))
    g.apply({"do": "end_phase"})  # to the orcs' Shooting phase
    # 1 spearman + hero W1, no save: five hits, 3 at the spearman, 2 at the hero; all wound; the spearman fails his saves
    events = g.apply(SHOOT, ScriptedDice([6] * 5 + [6, 6, 6] + [1, 1, 1] + [6, 6] + [3, 3] + [3, 4]))
    assert not g.state.unit("spears").alive and not g.state.unit("hero").alive
    panic = _panics(events)[-1]
    assert panic.message.startswith("guards passes its Panic test for spears destroyed")


# -- 2. a friend breaking from combat -----------------------------------------------------------
#: The orcs fight: every elf blow misses, the five orcs slay five spearmen, the spearmen's Break test (-5) fails on 12
#: (tests/test_t9a_melee.py).
BROKEN = [1, 1, 1] + [1] * 9 + [6] * 5 + [6] * 5 + [1] * 5 + [6, 6]
#: Then they flee 2" and the pursuit's 12" catches them: destroyed.
CAUGHT = [1, 1] + [6, 6]
#: Or the pursuit rolls 2: the spearmen flee 6" and escape.
ESCAPED = [3, 3] + [1, 1]


def _combat(gap: float, **kw: Any) -> Game:
    """The orcs' Melee phase: spears (with their hero) engaged with the orcs; guards ``gap`` inches to the spears' right."""
    data = scenario(phase="melee", active="orcs", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"])
    right_edge = 36 + 2.5 * 20 / 25.4
    data["sides"]["elves"].append(_guards(right_edge + gap + HALF_ROW, **kw))
    return Game(state_from_data(data))


@pytest.mark.rule(PANIC)
@pytest.mark.parametrize("gap,tests", [(5.9, True), (6.1, False)])
@pytest.mark.parametrize("dice", [CAUGHT, ESCAPED])
def test_a_friend_breaking_from_combat_within_6_inches(gap: float, tests: bool, dice: list[int]) -> None:
    # "immediately after ... A friendly unit Breaks from Combat within 6\"": the guards test as the spears break, before
    # the spears' flee roll and the pursuit's (round 49: until then after the pursuit, and for the spears "destroyed"
    # when it caught them; one loss, tested once, as it breaks); failing (5 + 6), they flee 2 + 2 at once
    g = _combat(gap)
    assert _gap(g.state, "spears", "guards") == pytest.approx(gap)
    before = g.state
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice(BROKEN + ([5, 6] + [2, 2] if tests else []) + dice))
    assert any(e.kind == "break" for e in events)
    panics = _panics(events)
    if not tests:  # measured from where the spears stood when they broke, before their flee move
        assert not panics
        return
    assert len(panics) == 1 and "spears breaks from combat 5.9\" away" in panics[0].message
    assert "fails" in panics[0].message and Status.FLEEING in g.state.unit("guards").status
    g.undo()
    assert g.state is before


# -- 3. who takes no Panic test -----------------------------------------------------------------
@pytest.mark.rule(PANIC)
@pytest.mark.parametrize("status", ["fleeing", "engaged"])
def test_a_fleeing_or_engaged_friend_takes_no_panic_test(status: str) -> None:
    g = _lone_spearman(1.5, status=[status])
    before = g.state.unit("guards")
    events = g.apply(SHOOT, ScriptedDice(SLAY_ONE))
    assert not g.state.unit("spears").alive and not _panics(events)
    assert g.state.unit("guards") == before


@pytest.mark.rule(PANIC)
def test_a_unit_that_passed_a_panic_test_takes_no_other_that_phase() -> None:
    data = scenario(n=1, joined=False, hero_at=(10, 10))
    data["sides"]["elves"].append(_guards(36 + 10 / 25.4 + 3.0 + HALF_ROW))
    more = dict(data["sides"]["orcs"][0], id="raiders")
    more["formation"] = dict(more["formation"], position=[50, 30])
    more["models"] = [dict(m, name=f"r{i}") for i, m in enumerate(more["models"])]
    data["sides"]["orcs"].append(more)
    g = Game(state_from_data(data))
    g.apply(SHOOT, ScriptedDice(SLAY_ONE + [4, 4]))  # the spearman slain; the guards pass on 8
    assert Status.PANIC_PASSED in g.state.unit("guards").status
    # the raiders slay two of the five guards (heavy casualties): 3 shots at 4+ hit, 2 wound, 2 saves fail;
    # 2 shots at 5+ miss. No second Panic test this phase
    events = g.apply({"do": "shoot", "unit": "raiders", "target": "guards"},
                     ScriptedDice([6, 6, 6] + [6, 6, 1] + [1, 1] + [1, 1]))
    assert len(g.state.unit("guards").models) == 3 and not _panics(events)
    g.apply({"do": "end_phase"})  # a new phase: the guards would test again
    assert all(Status.PANIC_PASSED not in u.status for u in g.state.units)
    assert state_from_data(state_to_data(g.state)) == g.state


@pytest.mark.rule(PANIC)
def test_every_test_is_taken_before_any_flee_move() -> None:
    data = scenario(n=1, joined=False, hero_at=(10, 10))
    data["sides"]["elves"].append(_guards(36 + 10 / 25.4 + 2.0 + HALF_ROW))
    data["sides"]["elves"].append(_guards(36 - 10 / 25.4 - 2.0 - HALF_ROW, gid="wardens"))
    g = Game(state_from_data(data))
    # both friends test (guards 12: fail; wardens 12: fail) before either flees (2D6 each)
    events = g.apply(SHOOT, ScriptedDice(SLAY_ONE + [6, 6] + [6, 6] + [1, 2] + [2, 2]))
    assert [e.kind for e in events] == ["shoot", "panic", "panic", "flee", "flee"]
    assert "3\"" in events[3].message and "4\"" in events[4].message


# -- exact odds through the same code ------------------------------------------------------------
@pytest.mark.rule(PANIC)
def test_exact_odds_of_a_shot_that_destroys_a_unit_next_to_a_friend_match_brute_force() -> None:
    g = _lone_spearman(3.0)
    state = g.state
    weights = exact_odds_as_brute_force(state, SHOOT)
    # one shot slays the spearman with 1/3 * 1/2 * 2/3 = 1/9; the guards (Ld 8) fail on 9+ (10 of 36)
    slain = 1 - Fraction(8, 9) ** 5
    fled = sum((p for o, p in weights if "panic.outcome: fled" in o.labels()), Fraction(0))
    passed = sum((p for o, p in weights if "panic.outcome: passed" in o.labels()), Fraction(0))
    assert fled == slain * Fraction(10, 36) and passed == slain * Fraction(26, 36)
    assert all(o.gained("guards", "fleeing") == ("panic.outcome: fled" in o.labels()) for o, _ in weights)


@pytest.mark.rule(PANIC)
def test_simulate_compiles_the_friends_panic_test_exactly_as_odds_action_says() -> None:
    g = _lone_spearman(3.0)
    odds = action_odds(g.state, SHOOT)
    result = simulate(state_to_data(g.state), 500, seed=1, plan=[SHOOT], method="compiled")
    assert result.exact_known and result.meta["method"] == "compiled"
    marginals = result.marginals()

    def exact(label: str) -> Fraction:
        return sum((p for o, p in odds.weights if label in o.labels()), Fraction(0))

    assert marginals["guards: fleeing"][True][1] == exact("guards: fleeing")
    assert marginals["guards: panic_passed"][True][1] == exact("guards: panic_passed") == exact("panic.outcome: passed")
    counted = marginals["guards: fleeing"][True][0] + marginals["guards: fleeing"][False][0]
    assert counted == 500


@pytest.mark.rule(PANIC)
@pytest.mark.rule("published.t9a-flee")
def test_a_friend_that_panics_off_the_table_is_destroyed_and_its_own_friends_test() -> None:
    data = scenario(n=1, joined=False, hero_at=(10, 10), enemy_y=19.0)
    data["sides"]["elves"][0]["formation"]["position"] = [36, 5]
    guards_x = 36 + 10 / 25.4 + 3.0 + HALF_ROW
    data["sides"]["elves"].append(_guards(guards_x, y=5.0))
    data["sides"]["elves"].append(_guards(guards_x + 2 * HALF_ROW + 2.0, y=5.0, gid="wardens"))
    g = Game(state_from_data(data))
    assert _gap(g.state, "spears", "wardens") > 6 and _gap(g.state, "guards", "wardens") == pytest.approx(2.0)
    # the Guards fail (12) and flee 12" off the table: destroyed; the Wardens, 2" from where the Guards stood,
    # then test (12: fail) and flee 2"
    events = g.apply(SHOOT, ScriptedDice(SLAY_ONE + [6, 6] + [6, 6] + [6, 6] + [1, 1]))
    assert [e.kind for e in events] == ["shoot", "panic", "flee", "panic", "flee"]
    assert "off the table: destroyed" in events[2].message and "guards destroyed 2.0\" away" in events[3].message
    assert not g.state.unit("guards").alive and Status.FLEEING in g.state.unit("wardens").status


@pytest.mark.rule(PANIC)
@pytest.mark.rule("published.t9a-rally")
def test_a_friend_that_fails_to_rally_and_flees_off_the_table_is_destroyed_for_its_friends() -> None:
    data = scenario(n=5, joined=False, hero_at=(10, 10), phase="charge", active="elves", spear_status=["fleeing"])
    data["sides"]["elves"][0]["formation"]["position"] = [36, 4]
    data["sides"]["elves"].append(_guards(36 + 2 * HALF_ROW + 3.0, y=4.0))
    g = Game(state_from_data(data))
    assert _gap(g.state, "spears", "guards") == pytest.approx(3.0)
    before = g.state
    # the Rally test: 6 + 4 = 10 against Ld 8 fails; the flee of 3 + 2 takes the spears off the table: destroyed;
    # the guards, 3" from where they stood, pass their Panic test on 3 + 3
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 4, 3, 2, 3, 3]))
    assert not g.state.unit("spears").alive
    panic = _panics(events)[-1]
    assert "guards passes its Panic test for spears destroyed 3.0\" away" in panic.message
    assert Status.PANIC_PASSED in g.state.unit("guards").status
    g.undo()
    assert g.state is before
