"""Round 59: a 9th Age judge's cases (docstring completed at the end of the round)."""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import offered, play_to, reloading_game, saved_and_loaded, scenario
from herohammer.dice import ScriptedDice

DECLARE = "t9a.charge-out.declare"
OWN_RATE = "t9a.charge-out.own-rate"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
FAILED = "published.t9a-failed-charge"
MOVE = "published.t9a-move"
CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}


def _charge_out(enemy_y: float = 34, **kw: Any) -> dict[str, Any]:
    """The elves' Charge phase: ten Spearmen and their Hero (his own Advance 5), the orcs ``enemy_y`` up the table."""
    return scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=enemy_y, **kw)


# -- 1. a failed charge out that left him before his unit: the Remaining Moves offer the unit a move ---------------------
@pytest.mark.rule(FAILURE, FAILED, MOVE, NO_OTHER)
def test_the_unit_a_failed_charge_out_left_is_offered_a_move_in_the_remaining_moves() -> None:
    # Seed 002: a failed charge out makes the general Failed Charge Move, and one that takes him 1" or more from his
    # unit leaves it (no Shaken); the unit is barred from charging that turn (t9a.charge-out.no-other-charges), not
    # from moving: its Movement phase's Remaining Moves are its own (published.t9a-move). The Hero rolls 4 1 against
    # 14": 10" short, his 4" Failed Charge Move leaves him 3.21" before the Spearmen, in the way of their forward moves.
    # A move back or aside is legal, so legal_actions must offer one (it offered only end_phase). A save and load;
    # an undo of the offered move gives the state back.
    g = reloading_game(_charge_out())
    said = g.apply(CHARGE_OUT, ScriptedDice([4, 1]))[-1]
    assert "moves 4\" and leaves spears" in said.message and FAILED in said.rules, said
    g.apply({"do": "end_phase"})
    g = saved_and_loaded(g)
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 16]]}).legal  # 4" straight back
    assert g.check({"do": "move", "unit": "spears", "to": [[32, 20]]}).legal  # 4" aside
    moves = [a for a in offered(g, "move") if a["unit"] == "spears"]
    assert moves, g.legal_actions()
    before = g.state
    for move in moves:
        ruling = g.check(move)
        assert ruling.legal and MOVE in ruling.rules, ruling
        g.apply(move)
        assert g.state.unit("spears").formation.position != before.unit("spears").formation.position
        g.undo()
        assert g.state == before
