"""Judge round 24 (judge24b): The 9th Age rulings found by playing random legal actions around characters (a General,
a Battle Standard Bearer, characters joined and alone) through Game, the public front door.

1. A unit shot to its last model while its army's General stands near: the shooting raised a traceback (the General's
   Commanding Presence measured to a unit with no model left) instead of destroying the unit (published.t9a-general,
   published.t9a-panic).
"""

from __future__ import annotations

import pytest

from _t9a import reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

GENERAL = "published.t9a-general"
PANIC = "published.t9a-panic"
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
    assert "passes" in events[1].message and "the General's" in events[1].message, events[1].message
    reloads(g)
