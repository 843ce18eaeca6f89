"""The 9th Age flee move as play meets it: past units in the way, and off the table (published.t9a-flee)."""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.geometry import group_distance
from herohammer.scenario import state_from_data, state_to_data
from herohammer.units import Status

FLEE = "published.t9a-flee"
RALLY_ACTION = {"do": "rally", "unit": "spears"}
FAILS_AND_FLEES_5 = [6, 4, 3, 2]  # 10 against the Hero's Ld 9: fails the Rally test; flees 3 + 2 = 5"


def fleeing(position: tuple[float, float] = (36, 20), guards_at: tuple[float, float] | None = None) -> Game:
    """The Spearmen and their Hero flee from the orcs ahead; friendly guards may stand behind them."""
    data: dict[str, Any] = scenario(phase="charge", active="elves", spear_status=["fleeing"], hero_status=["fleeing"])
    data["sides"]["elves"][0]["formation"]["position"] = list(position)
    if guards_at is not None:
        data["sides"]["elves"].append({"id": "guards", "formation": {"position": list(guards_at), "files": 5},
                                       "models": [{"name": f"g{i}", "profile": "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5",
                                                   "base": [20, 20]} for i in range(5)]})
    return Game(state_from_data(data))


@pytest.mark.rule(FLEE)
def test_a_flee_that_would_end_on_another_unit_goes_on_until_1_inch_clear() -> None:
    g = fleeing(guards_at=(36, 15))
    y0 = g.state.unit("spears").formation.position[1]  # type: ignore[union-attr]
    events = g.apply(RALLY_ACTION, ScriptedDice(FAILS_AND_FLEES_5 + [2, 2]))  # the guards fled through: 4, passed
    assert dict(events[0].data)["outcome"] == "fled" and FLEE in events[0].rules
    assert events[-1].kind == "panic" and events[-1].message.startswith("guards passes its Panic test for spears "
                                                                        "fleeing through it")
    spears, guards = g.state.unit("spears"), g.state.unit("guards")
    assert spears.formation is not None and spears.formation.position[1] < y0 - 5  # carried past the guards
    mine = [m.placed for u in (spears, g.state.unit("hero")) for m in u.models]
    assert group_distance(mine, guards.placed) >= 1 - 1e-9
    assert spears.has(Status.FLEEING)
    assert state_from_data(state_to_data(g.state)) == g.state  # whatever play writes, load accepts


@pytest.mark.rule(FLEE)
def test_a_flee_with_nothing_in_the_way_moves_exactly_its_roll() -> None:
    g = fleeing(guards_at=(60, 5))  # guards well aside
    y0 = g.state.unit("spears").formation.position[1]  # type: ignore[union-attr]
    g.apply(RALLY_ACTION, ScriptedDice(FAILS_AND_FLEES_5))
    assert abs(g.state.unit("spears").formation.position[1] - (y0 - 5)) < 1e-6  # type: ignore[union-attr]


@pytest.mark.rule(FLEE)
def test_a_unit_that_flees_off_the_table_is_destroyed_with_its_characters() -> None:
    g = fleeing(position=(36, 4))
    events = g.apply(RALLY_ACTION, ScriptedDice(FAILS_AND_FLEES_5))
    assert dict(events[0].data)["outcome"] == "fled"
    assert not g.state.unit("spears").alive and not g.state.unit("hero").alive
    assert state_from_data(state_to_data(g.state)) == g.state
    g.undo()
    assert g.state.unit("spears").alive and g.state.unit("hero").alive
