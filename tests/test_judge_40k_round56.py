"""A judge's cases for 40k 3rd and 4th edition, round 56 (docstring completed at the round's end)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import EDITIONS, brute, game, kinds, model, next_turn_to, saved_and_loaded, scenario, squad

TOUCH = 25 / 25.4  # two 25mm bases this far apart, centre to centre, touch
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv-"
HARMLESS = "WS4 BS2 S3 T4 W1 I2 A0 Ld{ld} Sv-"  # no Attacks (core.zero.a)
FIGHT = {"do": "fight", "unit": "tac"}


# == 1. both editions: a Pile In's test slays the only Marine before the Boy piles in towards him ====================

#: A minefield across the Marine's way to b2 (his centre goes from y 20 to y 26 when he piles in 6").
PILE_MINES = [{"id": "mine", "kind": "dangerous", "polygon": [[15, 22.5], [25, 22.5], [25, 24], [15, 24]]}]
B2_AT = (20.0, 31.0)


def lone_marine_before_two_boyz(ruleset: str) -> Game:
    """Red's Assault phase: one Marine, M1 at (20, 20), locked with two Boyz: b1 (no Attacks) in base contact with
    him, b2 at (20, 31), 10" away edge to edge, beyond a minefield."""
    tac = {"id": "tac", "status": ["locked"], "models": [model("M1", 20, 20, 8)]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20 + TOUCH, 20, 7, HARMLESS), model("b2", *B2_AT, 7, ORK)]}
    return game(scenario(ruleset, [tac], [boyz, squad("far", 60, 45)], phase="assault", terrain=PILE_MINES))


#: The chance the beaten mob (b2 left) holds: 4th edition a Morale check on Ld 7 - 1; 3rd edition the loser's check
#: on Ld 7 and then, b2 left alone, Last Man Standing on Ld 7 (published.last-man-standing's decision).
HOLDS = {"40k4": Fraction(15, 36), "40k3": Fraction(21, 36) ** 2}
#: Scripted: M1's hit and wound (6, 6), the mob's checks (3 and 3 each), then M1's Dangerous Terrain test a 1.
SLAIN_PILING_IN = {"40k4": [6, 6, 3, 3, 1], "40k3": [6, 6, 3, 3, 3, 3, 1]}


@EDITIONS
@pytest.mark.rule("published.pile-in", "published.dangerous-terrain", "published.combat-resolution",
                  "published.close-combat", "core.zero.a")
def test_a_marine_slain_by_his_pile_in_test_is_no_one_for_the_boy_to_pile_in_towards(ruleset: str) -> None:
    """M1 (WS4, S4) strikes b1 (no Attacks, core.zero.a): a hit and a wound on 4+ each, 1/4, slay him; the mob has
    lost by one and tests (``HOLDS``); failed, it falls back (b2 touches no Marine: no Sweeping Advance). Held, no
    model of either side is in base contact and b2 stands within 12": the combat goes on, "the player whose turn it
    is" piling in first (published.pile-in): M1 moves 6" towards b2 across the minefield, a move "into or through it"
    that takes its test (published.dangerous-terrain): a 1 slays him. The published Pile In moves the active side,
    then the other; the test is the Marine's own move's, so it is taken as he piles in, before b2 moves: M1 slain,
    tac is destroyed and b2 has no enemy to pile in towards. He stays where he stood, and boyz, touching no enemy,
    is no longer locked in close combat (published.close-combat): next turn it may move. Before, the tests waited
    until every unit had piled in: b2 piled in 6" to a Marine the test then slew, and boyz stayed locked with no
    enemy into blue's turn. Exact against brute force: (fell back, b2 piled in, boyz locked, tac alive)."""
    g = lone_marine_before_two_boyz(ruleset)
    start = g.state

    def read(p: Game) -> tuple[bool, bool, bool | None, bool]:
        boyz = p.state.unit("boyz")
        fled = boyz.has(Status.FALLING_BACK)
        moved = not fled and next(m.at for m in boyz.models if m.name == "b2") != B2_AT
        return fled, moved, None if fled else boyz.has(Status.LOCKED), p.state.unit("tac").alive

    slain_b1 = Fraction(1, 4)
    holds = HOLDS[ruleset]
    expected = {
        (False, False, True, True): 1 - slain_b1,  # b1 lives: no wound either side, a draw, the fight goes on
        (True, False, None, True): slain_b1 * (1 - holds),
        (False, True, True, True): slain_b1 * holds * Fraction(5, 6),  # M1 passes his test: b2 piles in to him
        (False, False, False, False): slain_b1 * holds * Fraction(1, 6),  # M1 slain: b2 stays, free
    }
    assert brute(start, FIGHT, read, positions=True) == expected

    events = g.apply(FIGHT, dice=ScriptedDice(SLAIN_PILING_IN[ruleset]))
    order = [e.kind for e in events]
    test = order.index("dangerous_terrain")
    assert not [e for e in kinds(events, "pile_in") if e.message.startswith("boyz") and "piles in" in e.message]
    assert order.index("pile_in") < test
    assert not g.state.unit("tac").alive
    assert g.state.unit("boyz").models[0].at == B2_AT and not g.state.unit("boyz").has(Status.LOCKED)
    after = g.state
    h = saved_and_loaded(g)
    next_turn_to(h, "blue", "movement")
    move = {"do": "move", "unit": "boyz", "to": [[20, 27]]}
    ruling = h.check(move)
    assert ruling.legal, ruling.reason
    g.undo()
    assert g.state == start
    g.apply(FIGHT, dice=ScriptedDice(SLAIN_PILING_IN[ruleset]))
    assert g.state == after
