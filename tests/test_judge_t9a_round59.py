"""Round 59: a 9th Age judge's cases (docstring completed at the end of the round)."""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import HERO, offered, play_to, reloading_game, reloads, saved_and_loaded, scenario
from herohammer.dice import ScriptedDice

DECLARE = "t9a.charge-out.declare"
OWN_RATE = "t9a.charge-out.own-rate"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
FAILED = "published.t9a-failed-charge"
MOVE = "published.t9a-move"
LAST = "t9a.combined.last-survivor"
LEAVE_WHEN = "t9a.leave.when"
LEAVE_MOVE = "t9a.leave.move"
CHARACTERS = "t9a.join.character-units"
NOT_MOVED = "t9a.leave.unit-not-moved"
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


# -- 2. the last survivor and the Mage who joined him: the next Movement phase the survivor is offered his leave ---------
@pytest.mark.rule(LAST, CHARACTERS, LEAVE_WHEN, LEAVE_MOVE, NOT_MOVED)
def test_the_last_survivor_leading_the_characters_who_joined_him_is_offered_his_leave() -> None:
    # The orcs shoot both Spearmen dead: the Hero is all that is left of spears and is that unit
    # (t9a.combined.last-survivor); he passes its Panic test. In the elves' Movement phase a lone Mage marches 9" to
    # join him (a unit of characters, t9a.join.character-units), widening its single rank. The next elves' Movement
    # phase (a save and load between) either may leave it (t9a.leave.when: neither engaged, fleeing nor moved this
    # phase), the leader too, ignoring the other's model (t9a.leave.move); legal_actions offered the Mage's leave and
    # not the Hero's, though his is legal. Played: the unit (spears, led by the Mage now) has not moved for it
    # (t9a.leave.unit-not-moved) and may still move; an undo gives the state back.
    data = scenario(n=2, orcs=10, phase="shooting", active="orcs", enemy_y=40)
    data["sides"]["elves"].append({"id": "mage", "character": "independent",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [30, 12]}]})
    g = reloading_game(data)
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 20 + [1] * 30))
    assert "slain: s0, s1" in events[0].message and g.state.unit("hero").last_of == "spears", events
    play_to(g, "movement", "elves")
    said = g.apply({"do": "join", "character": "mage", "unit": "spears", "position": 0, "rank_choice": "widen"})[-1]
    assert "mage joins hero" in said.message and LAST in said.rules, said
    g.apply({"do": "end_phase"})
    play_to(g, "movement", "elves")
    g = saved_and_loaded(g)
    leaves = offered(g, "leave")
    assert {a["character"] for a in leaves} == {"hero", "mage"}, leaves
    before = g.state
    for leave in leaves:
        ruling = g.check(leave)
        assert ruling.legal and LEAVE_WHEN in ruling.rules and LEAVE_MOVE in ruling.rules, ruling
        if leave["character"] == "hero":
            assert CHARACTERS in ruling.rules and "mage leads the unit on" in " ".join(ruling.notes), ruling
            g.apply(leave)
            assert g.state.unit("mage").last_of == "spears" and g.state.unit("hero").joined is None
            assert g.check({"do": "move", "unit": "spears", "to": [[35, 17]]}).legal
            reloads(g)
            g.undo()
            assert g.state == before
