"""Judge round 24 (judge24b): The 9th Age rulings found by playing random legal actions around characters (a General,
a Battle Standard Bearer, characters joined and alone) through Game, the public front door.

1. A unit shot to its last model while its army's General stands near: the shooting raised a traceback (the General's
   Commanding Presence measured to a unit with no model left) instead of destroying the unit (published.t9a-general,
   published.t9a-panic).
2. A move, a character's leave or join that would put a base off the table: the engine allowed it, and offered such
   moves in legal_actions; a scenario saved after it did not load back (published.t9a-move, t9a.join.position).
3. A join that made the single-rank choice (widen or second rank) did not cite t9a.join.single-rank.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import play_to, refused, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

GENERAL = "published.t9a-general"
PANIC = "published.t9a-panic"
MOVE = "published.t9a-move"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}


def _with_general(n: int) -> Game:
    """Orcs to shoot at ``n`` spearmen; the elven Hero, the General, stands alone 8" behind them (within 12")."""
    data = scenario(n=n, orcs=5, phase="shooting", active="orcs", joined=False, hero_at=(30, 12))
    data["sides"]["elves"][1]["rules"] = ["General"]
    return Game(state_from_data(data))


# -- 1. shot down to the last model, near the General ----------------------------------------------------------------
@pytest.mark.rule(GENERAL, PANIC)
def test_a_unit_shot_down_to_its_last_model_near_its_general_is_destroyed_and_takes_no_panic_test() -> None:
    g = _with_general(1)
    # 5 hits, 5 wounds, 5 failed saves: the one spearman is slain (it raised "closest pair needs at least one model")
    events = g.apply(SHOOT, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5))
    assert [e.kind for e in events] == ["shoot"] and "slain: s0" in events[0].message, events
    assert not g.state.unit("spears").alive and g.state.unit("hero").alive
    reloads(g)


@pytest.mark.rule(GENERAL, PANIC)
def test_a_unit_that_survives_a_quarter_lost_tests_on_its_near_generals_leadership() -> None:
    g = _with_general(8)
    # 2 of 5 hit, wound and are not saved: 2 of 8 lost, a quarter; 5 + 4 = 9 fails the spears' Ld 8, passes the
    # General's Ld 9 (he is 8" away, within his 12")
    events = g.apply(SHOOT, ScriptedDice([6, 6, 1, 1, 1] + [6, 6] + [1, 1] + [5, 4]))
    assert [e.kind for e in events] == ["shoot", "panic"], events
    assert GENERAL in events[1].rules and PANIC in events[1].rules, events[1]
    assert "passes" in events[1].message and "the General within 12\"" in events[1].message, events[1].message
    reloads(g)


# -- 2. no base ends off the table ------------------------------------------------------------------------------------
def _lone_hero_at_the_edge() -> Game:
    return Game(state_from_data(scenario(phase="movement", active="elves", joined=False, hero_at=(20, 45))))


@pytest.mark.rule(MOVE, "t9a.char.lone")
def test_a_move_that_would_put_a_base_off_the_table_is_refused() -> None:
    g = _lone_hero_at_the_edge()
    # the Hero's 20 mm base reaches 0.39" from his centre: at y 47.9 it hangs over the 48" edge
    refused(g, {"do": "move", "unit": "hero", "to": [[20, 49]]}, MOVE, "off the 72x48\" table")
    refused(g, {"do": "move", "unit": "hero", "to": [[20, 47.9]]}, MOVE, "off the 72x48\" table")
    assert not any(a.do == "move" and a.unit == "hero" and a.to and a.to[0][1] > 47.6 for a in g.legal_actions())
    move = {"do": "move", "unit": "hero", "to": [[20, 47.5]]}
    ruling = g.check(move)
    assert ruling.legal and MOVE in ruling.rules, ruling
    g.apply(move)
    reloads(g)


@pytest.mark.rule("t9a.leave.move", MOVE)
def test_a_character_leaving_his_unit_may_not_end_off_the_table() -> None:
    data = scenario(phase="movement", active="elves")
    data["sides"]["elves"][0]["formation"]["position"] = [36, 46]
    g = Game(state_from_data(data))
    refused(g, {"do": "leave", "character": "hero", "to": [30, 47.9]}, MOVE, "off the 72x48\" table")
    leave = {"do": "leave", "character": "hero", "to": [30, 47.5]}
    assert g.check(leave).legal
    g.apply(leave)
    reloads(g)


@pytest.mark.rule("t9a.join.position", "t9a.join.single-rank", MOVE)
def test_a_join_that_widens_a_rank_over_the_table_edge_is_refused_a_second_rank_is_not() -> None:
    data: dict[str, Any] = scenario(n=5, phase="movement", active="elves", joined=False, hero_at=(6, 14))
    data["sides"]["elves"][0]["formation"]["position"] = [2.0, 20]  # one rank of five, its left file at the edge
    g = Game(state_from_data(data))
    join = {"do": "join", "character": "hero", "unit": "spears", "rank_choice": "widen"}
    refused(g, join, MOVE, "off the 72x48\" table")
    second = {**join, "rank_choice": "second_rank"}
    ruling = g.check(second)
    assert ruling.legal and "t9a.join.position" in ruling.rules and "t9a.join.single-rank" in ruling.rules, ruling
    events = g.apply(second)
    assert "t9a.join.single-rank" in events[0].rules, events
    assert g.state.unit("hero").joined == "spears"
    reloads(g)


@pytest.mark.rule("t9a.join.single-rank", "t9a.join.position")
def test_a_join_cites_the_single_rank_choice_only_where_the_unit_stood_in_one_rank() -> None:
    g = Game(state_from_data(scenario(n=10, phase="movement", active="elves", joined=False, hero_at=(36, 14))))
    join = {"do": "join", "character": "hero", "unit": "spears"}
    ruling = g.check(join)  # two ranks of five: no choice to make, the clause is not what allows it
    assert ruling.legal and "t9a.join.single-rank" not in ruling.rules, ruling
    refused(g, {**join, "rank_choice": "widen"}, "t9a.join.single-rank", "only a unit of a single rank may be widened")
