"""A judge's cases for 40k 3rd and 4th edition, round 61: assaults with characters (DOCSTRING TO BE WRITTEN)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (BASE_25, EDITIONS, assert_illegal, assert_legal, brute, game, gunners, hero, kinds, model,
                   next_turn_to, offered, saved_and_loaded, scenario)

BOY = "WS4 BS2 S5 T4 W1 I6 A3 Ld7 Sv-"
NOB = "WS4 BS2 S5 T4 W2 I6 A1 Ld7 Sv-"
WEAK = "WS1 BS4 S1 T3 W1 I1 A1 Ld{ld} Sv-"
TOUCH = BASE_25 + 0.001  # centre to centre, two 25mm bases just in base contact
CONSOLIDATE = {"40k3": "published.40k3-consolidation", "40k4": "published.consolidation"}
FIGHT_TAC = {"do": "fight", "unit": "tac"}


def alive(g: Game) -> dict[str, int]:
    """Each unit's living models."""
    return {u.id: len(u.models) for u in g.state.units}


# == 1. both editions: the Captain left alone by his squad in a fight stays locked with the Boyz he touches =========

def captain_behind_a_locked_squad(ruleset: str) -> Game:
    """Red's Assault phase: tac (two feeble troopers, t1 and t2 at (20, 20) and (22, 20)) marked locked alone, as
    40k4.cc.locked's decision allows a scenario to, joined by cap at (24, 20); blue's Boyz (I6 A3) b1-b3 touching
    t1, t2 and cap, and blue's guns far off."""
    red = [{"id": "tac", "status": ["locked"], "models": [model(f"t{i + 1}", 20 + 2 * i, 20, 8, WEAK) for i in range(2)]},
           {**hero("cap", 24, 20), "joined": "tac"}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model(f"b{i + 1}", 20 + 2 * i, 20 + TOUCH, 7, BOY) for i in range(3)]}
    return game(scenario(ruleset, red, [boyz, gunners("guns", 10, 40)], phase="assault"))


#: b1 and b2's six blows at tac: two hit (6, 6) and wound (6, 6), slaying t1 and t2; b3's three at cap miss (1s); cap's
#: three miss (1s); cap loses by 2 and passes his Morale check on a double 1
SQUAD_SLAIN = [6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1]


@EDITIONS
@pytest.mark.rule("40k4.cc.locked", "published.shooting-into-combat", "published.close-combat")
def test_a_captain_whose_locked_squad_is_slain_stays_locked_with_the_boy_he_touches(ruleset: str) -> None:
    """The squad's lock is read for its joined Captain whatever his own status says (40k4.cc.locked's decision; 3rd
    edition alike, the character being part of the unit). The Boyz slay the squad at I6; the Captain, a unit of his
    own now (40k3.ic.no-last-man, 40k4.char.no-last-man), holds and still touches b3: he is still locked in the
    close combat (published.close-combat: a unit in base contact with an enemy is). Blue's guns may not shoot him
    (published.shooting-into-combat), in blue's Assault phase the combat is fought again, with him. Saved and loaded,
    and with the fight undone and played again, the same."""
    g = captain_behind_a_locked_squad(ruleset)
    start = g.state
    g.apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_SLAIN))
    assert alive(g)["tac"] == 0 and alive(g)["cap"] == 1 and alive(g)["boyz"] == 3
    fought = g.state
    for h in (g, saved_and_loaded(g)):
        next_turn_to(h, "blue", "shooting")
        assert_illegal(h, {"do": "shoot", "unit": "guns", "target": "cap"}, "published.shooting-into-combat")
        next_turn_to(h, "blue", "assault")
        assert offered(h, "fight") == {("boyz",), ("cap",)}  # either names the one combat
        events = h.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 12))
        assert kinds(events, "fight")[0].message == "close combat: boyz, cap"
    while g.state != start:
        g.undo()
    g.apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_SLAIN))
    assert g.state == fought


# == 2. both editions: the Captain who outlives his squad and destroys the Boyz consolidates ==========================

def captain_and_trooper_against_a_boy_and_a_nob(ruleset: str) -> Game:
    """Red's Assault phase: tac (one feeble trooper t1 at (20, 20)) marked locked alone, joined by cap at (22.9, 20)
    (1.92" from t1); blue's Boy b1 (A1) touching t1 and Nob b2 (W2) touching cap."""
    red = [{"id": "tac", "status": ["locked"], "models": [model("t1", 20, 20, 8, WEAK)]},
           {**hero("cap", 22.9, 20), "joined": "tac"}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20, 20 + TOUCH, 7, BOY.replace("A3", "A1")), model("b2", 22.9, 20 + TOUCH, 7, NOB)]}
    return game(scenario(ruleset, red, [boyz, gunners("guns", 10, 40)], phase="assault"))


#: b1 hits and wounds t1 (6, 6); b2 misses cap (1); cap's three blows hit (6, 6, 6) and wound (6, 6, 6): b2's two
#: Wounds and, as his blows fall, b1; the rest for the consolidation's D6 (3)
CAPTAIN_WINS = [6, 6, 1, 6, 6, 6, 6, 6, 6, 3, 3, 3]


@EDITIONS
@pytest.mark.rule("published.40k3-consolidation", "published.consolidation", "40k4.cc.locked")
def test_a_captain_who_outlives_his_squad_and_destroys_the_boyz_may_consolidate(ruleset: str) -> None:
    """Each unit of the combat that its result leaves with no enemy in base contact, not falling back, may
    consolidate (published.consolidation; 3rd edition: published.40k3-consolidation's decision), a lone character
    too. The Captain fought in the combat, locked with his squad (40k4.cc.locked); he outlives it and slays both
    Boyz: he may consolidate D6", offered by legal_actions; saved and loaded, the same; undone, the fight again."""
    g = captain_and_trooper_against_a_boy_and_a_nob(ruleset)
    dice = ScriptedDice(CAPTAIN_WINS)
    events = g.apply(FIGHT_TAC, dice=dice)
    assert alive(g) == {"tac": 0, "cap": 1, "boyz": 0, "guns": 3}
    said = [e for e in kinds(events, "consolidation") if e.message.startswith("cap ")]
    assert len(said) == 1 and CONSOLIDATE[ruleset] in said[0].rules, [e.message for e in events]
    to = {"do": "consolidate", "unit": "cap", "to": [[22.9, 18.0]]}
    for h in (g, saved_and_loaded(g)):
        assert_legal(h, to, CONSOLIDATE[ruleset])
        assert ("cap",) in offered(h, "consolidate")
    g.apply(to, dice=dice)
    assert g.state.unit("cap").models[0].at == (22.9, 20 - 2.0)
    assert not g.state.unit("cap").has(Status.MAY_CONSOLIDATE)
    g.undo()
    g.undo()
    assert_legal(g, FIGHT_TAC)
