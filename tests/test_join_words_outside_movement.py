"""A lone 3rd edition character whose run or consolidation ends within 2" of a friendly squad is told he does not join it.

Seed 000: an independent character joins a unit by moving to within 2" of it in his Movement phase (40k3.ic.join),
and joining happens in no other phase (40k3.ic.movement-phase-only).  Judge round 48 found the engine right (he does
not join) but silent: a player who consolidates his Captain up to his squad, or runs him there with Fleet, was not
told why he stands beside it unjoined.  Round 36 already said it of a Movement-phase move that could not join.  4th
edition joins by moving within 2" in the Movement phase and declaring it (40k4.ic.join, 40k4.ic.movement-phase-only):
since judge round 65 its consolidation says so in its own words too.
"""

from __future__ import annotations

import pytest

from _w40k import game, hero, scenario, squad
from herohammer.dice import ScriptedDice
from test_judge_40k_round46 import captain_beats_a_boy

NOT_JOINED = "does not join it"


@pytest.mark.rule("40k3.ic.join", "40k3.ic.movement-phase-only", "published.40k3-consolidation")
def test_a_lone_captain_who_consolidates_within_2_inches_of_his_squad_is_told_he_does_not_join_it() -> None:
    """3rd edition: the Captain slays the Boy and consolidates 6" to (25.2, 20), 1.2" from the squad's end model at
    (24, 20): the event says he does not join it, citing both clauses, and he stands alone."""
    g = captain_beats_a_boy("40k3")
    events = g.apply({"do": "consolidate", "unit": "cap", "to": [[25.2, 20]]}, dice=ScriptedDice([6]))
    said = [e for e in events if NOT_JOINED in e.message]
    assert len(said) == 1, [e.message for e in events]
    assert "cap ends its consolidation within 2\" of tac" in said[0].message
    assert {"40k3.ic.join", "40k3.ic.movement-phase-only"} <= set(said[0].rules)
    assert g.state.unit("cap").joined is None


@pytest.mark.rule("40k3.ic.join", "published.40k3-consolidation")
def test_a_consolidation_that_ends_beyond_2_inches_says_nothing_of_joining() -> None:
    """3rd edition: the same Captain consolidates only 3" (to (27, 20), 3" from the squad): nothing is said of
    joining."""
    g = captain_beats_a_boy("40k3")
    events = g.apply({"do": "consolidate", "unit": "cap", "to": [[27, 20]]}, dice=ScriptedDice([3]))
    assert not any(NOT_JOINED in e.message or e.kind == "join" for e in events), [e.message for e in events]


@pytest.mark.rule("40k4.ic.join", "40k4.ic.movement-phase-only")
def test_4th_edition_tells_a_captain_who_consolidates_beside_his_squad_he_does_not_join_it() -> None:
    """4th edition joins by moving within 2" in the Movement phase and declaring it: the consolidation to 1.2" from the
    squad says he does not join it, citing both 4th edition clauses (judge round 65; before, it said nothing)."""
    g = captain_beats_a_boy("40k4")
    events = g.apply({"do": "consolidate", "unit": "cap", "to": [[25.2, 20]]}, dice=ScriptedDice([6]))
    said = [e for e in events if NOT_JOINED in e.message]
    assert len(said) == 1, [e.message for e in events]
    assert "in his Movement phase" in said[0].message
    assert {"40k4.ic.join", "40k4.ic.movement-phase-only"} <= set(said[0].rules)
    assert not {"40k3.ic.join", "40k3.ic.movement-phase-only"} & set(said[0].rules)
    assert g.state.unit("cap").joined is None


@pytest.mark.rule("40k3.ic.join", "40k3.ic.movement-phase-only", "published.fleet-of-foot")
def test_a_lone_captain_with_fleet_who_runs_within_2_inches_of_a_squad_is_told_he_does_not_join_it() -> None:
    """3rd edition Shooting phase: a lone Captain with Fleet of Foot at (32, 20) runs a 6 to (26, 20), his base 2"
    from the squad's end model at (24, 20) centre to centre (well within 2" edge to edge): told he does not join."""
    cap = hero("cap", 32, 20, rules=["fleet_of_foot"])
    g = game(scenario("40k3", [squad("tac", 20, 20), cap], phase="shooting"))
    events = g.apply({"do": "run", "unit": "cap", "to": [[26, 20]]}, dice=ScriptedDice([6]))
    assert any(e.kind == "run" for e in events), [e.message for e in events]
    said = [e for e in events if NOT_JOINED in e.message]
    assert len(said) == 1 and "cap ends its run within 2\" of tac" in said[0].message, [e.message for e in events]
    assert g.state.unit("cap").joined is None
