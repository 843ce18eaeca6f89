"""Judge round 21 (judge21u): The 9th Age rulings that must hold once the state changes around a character, played
through Game (the public front door) as a judge sets them: a unit shot down to its character (the last survivor,
t9a.combined.last-survivor) who flees, rallies and joins another unit; a character who charges out of his unit while
the unit stays behind (t9a.charge-out.*); a Wizard whose Miscast makes his unit panic, and the character who would
leave the fleeing unit or, once it rallies, move on that turn (t9a.leave.when, published.t9a-rally); a character
caught with his broken unit by the pursuit; a refused Duel's Discipline 0 on a character alone (seed 004's values of
0, published.t9a-duel).  Every roll through ScriptedDice, every ruling's cited ids checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import (HERO, SPEAR, STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, play_to, refused, reloads,
                  scenario)
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

RALLY = "published.t9a-rally"
PANIC = "published.t9a-panic"
LAST = "t9a.combined.last-survivor"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
JOIN_GUARDS = {"do": "join", "character": "hero", "unit": "guards", "rank_choice": "widen"}


def _guards(data: dict[str, Any], at: tuple[float, float] = (46, 14)) -> dict[str, Any]:
    """Add five elven Guards (no character) at ``at``."""
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": list(at), "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


# -- 1. shot down to his last model, the Hero flees, rallies and joins the Guards next turn ------------------------
@pytest.mark.rule(LAST, PANIC, RALLY, "t9a.join.move", "published.t9a-distributing-hits")
def test_a_character_shot_down_to_the_last_survivor_flees_rallies_and_joins_only_the_next_turn() -> None:
    g = Game(state_from_data(_guards(scenario(n=1, orcs=10, phase="shooting", active="orcs"))))
    # 2 hits of 10 (5+): one on the spearman, one on the Hero (fewer than 5 rank and file: shared as equally as
    # possible); the spearman is wounded (6) and fails his save (1), the Hero is not (1); the Hero, alone now, takes
    # the unit's Panic test for heavy casualties: 6 + 6 fails on his Ld 9, he flees 3 + 3
    events = g.apply(SHOOT, ScriptedDice([5, 5] + [1] * 8 + [6, 1, 1, 6, 6, 3, 3]))
    assert [e.kind for e in events] == ["shoot", "panic"], events
    assert "published.t9a-distributing-hits" in events[0].rules and "slain: s0" in events[0].message
    assert LAST in events[1].rules and PANIC in events[1].rules and "hero fails its Panic test" in events[1].message
    assert not g.state.unit("spears").alive and g.state.unit("hero").has(Status.FLEEING)
    reloads(g)
    play_to(g, "charge", "elves")
    # fleeing, he neither joins nor leaves; the Charge phase's first step is his Rally test
    refused(g, {"do": "end_phase"}, RALLY, "must first take a Rally test")
    events = g.apply({"do": "rally", "unit": "hero"}, ScriptedDice([2, 3]))
    assert "hero rallies (5 against Ld 9" in events[0].message and RALLY in events[0].rules
    assert not g.state.unit("hero").has(Status.FLEEING)
    play_to(g, "movement", "elves")
    # rallied: he counts as having marched and moves no further this turn, so he joins no unit; the refusal says
    # why and cites the Rally rule (it said "has already moved" citing only the join's rule before)
    for action in (JOIN_GUARDS, {"do": "move", "unit": "hero", "to": [[36, 12]]},
                   {"do": "reform", "unit": "hero", "facing": 90}):
        refused(g, action, RALLY, "it rallied this turn")
    reloads(g)
    # next turn he is free: he joins the Guards
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    ruling = g.check(JOIN_GUARDS)
    assert ruling.legal and "t9a.join.move" in ruling.rules, ruling
    g.apply(JOIN_GUARDS)
    assert g.state.unit("hero").joined == "guards"
    reloads(g)
