"""Session 27: an ordinary trooper's split of its close combat attacks is judged over its own opponents, and in 4th
edition a trooper fighting for standing within 2" of a friend strikes a unit that friend touches (multiple combats)."""

from __future__ import annotations

import pytest

from herohammer.dice import ScriptedDice

from _w40k import BASE_25, assert_legal, game, messages, model, scenario, squad
from test_judge_40k_round27 import ORK, two_boyz_two_fronts as two_fronts


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only")
def test_40k3_a_split_named_on_the_squad_is_made_only_by_the_boy_whose_own_opponents_differ() -> None:
    """B2 (Marine 3 and the WS5 Captain) may split, B1 (two alike Marines) may not: the split is accepted, the ruling
    says B1 strikes as without a split, and in the fight only B2's attack is a split one."""
    g = two_fronts("40k3")
    allocate = {"do": "allocate", "character": "boyz", "attacks": {"tac": 1}}
    assert_legal(g, allocate, "40k3.char.attack-allocation")
    assert "B1 strikes as without a split" in g.check(allocate).reason
    g.apply(allocate)
    attacks = messages(g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 40)), "attacks")
    assert any(m.startswith("B2 (split) attacks tac (1)") for m in attacks), attacks
    assert any(m.startswith("boyz attacks tac (3)") for m in attacks), attacks
    assert not any(m.startswith("B1 (split)") for m in attacks), attacks


@pytest.mark.rule("40k4.cc.engaged-only", "published.close-combat")
def test_40k4_the_fight_says_whom_a_supporting_trooper_may_strike_only_in_a_multiple_combat() -> None:
    """A lone Warboss touched by T1 and Boyz touched by T3: X (backing T1) may strike the Warboss, T2 (backing T3)
    only the Boyz, and the log says so; a plain fight of one squad against one mob says nothing of the kind."""
    tac = {"id": "tac", "status": ["locked"],
           "models": [model("T1", 20, 20), model("X", 20, 21.9), model("T2", 21.9, 23.3), model("T3", 24.8, 23.3)]}
    boss = {"id": "boss", "character": "independent", "status": ["locked"],
            "models": [model("Boss", 20 + BASE_25, 20, 9, "WS5 BS2 S5 T5 W3 I3 A1 Ld9 Sv4+")]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 24.8 + BASE_25, 23.3, 7, ORK)]}
    events = game(scenario("40k4", [tac], [boss, boyz], phase="assault")).apply(
        {"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40))
    said = messages(events, "supporting")
    assert any(m.startswith("X (tac)") and "may strike only boss" in m for m in said), said
    assert any(m.startswith("T2 (tac)") and "may strike only boyz" in m and "not boss" in m for m in said), said
    attacks = messages(events, "attacks")
    assert any(m.startswith("tac attacks boss (2)") for m in attacks), attacks
    assert any(m.startswith("tac attacks boyz (2)") for m in attacks), attacks
    plain = game(scenario("40k4", [squad("tac", 20, 20, status=["locked"])],
                          [squad("boyz", 20, 20 + BASE_25, status=["locked"])], phase="assault"))
    assert not messages(plain.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40)), "supporting")
