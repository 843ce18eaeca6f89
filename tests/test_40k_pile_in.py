"""Pile In (published.pile-in, session 29): a close combat goes on while an enemy of it stands within two Pile In moves.

4th ed. p. 57: "At the end of each Assault phase, models in units that were locked, but which are not themselves
engaged in combat, MUST move up to 6" in an attempt to contact enemy that were in the same combat ... If ... the Pile
In moves of the combatants are insufficient to allow them to get any models engaged, the assault comes to an end.
Both sides may make Consolidation moves instead."  The engine piles in right after the combat's result (the Assault
phase summary's step 6; see the decision).  Before session 29 it released every unit that a result left with no enemy
in base contact, as if no Pile In could reach, and let it consolidate.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.geometry import in_base_contact
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, model, scenario

ORK = "WS4 BS2 S3 T4 W1 I2 A1 Ld7 Sv6+"
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
CONSOLIDATION = {"40k3": "published.40k3-consolidation", "40k4": "published.consolidation"}


def boy_slain(ruleset: str, rest: list[tuple[float, float]], more: list[dict[str, Any]] | None = None
              ) -> tuple[Game, list[Any]]:
    """A Marine slays the one Boy touching him (6, 6, and the Boy's save 1); the Boy missed (1); the other Boyz stand
    at ``rest`` and pass the loser's check (1, 1). Red's Assault phase; the game and the fight's events."""
    tac = {"id": "tac", "status": ["locked"], "models": [model("T1", 20, 20)]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("B1", 20, 20 + BASE_25, 7, ORK),
                       *(model(f"B{i + 2}", x, y, 7, ORK) for i, (x, y) in enumerate(rest))]}
    g = game(scenario(ruleset, [tac, *(more or [])], [boyz], phase="assault"))
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6, 6, 1, 1, 1, 1] + [1] * 4))
    assert [m.name for m in g.state.unit("boyz").models] == [f"B{i + 2}" for i in range(len(rest))]
    return g, events


def said(events: list[Any]) -> list[str]:
    return [e.message for e in events if e.kind == "pile_in" and "published.pile-in" in e.rules]


@pytest.mark.rule("published.pile-in", "published.close-combat")
@EDITIONS
def test_the_combat_goes_on_while_the_enemy_stands_within_two_pile_in_moves(ruleset: str) -> None:
    """The Boyz left stand 3.6" from the Marine: the combat goes on, the Marine piles in to them at once, nobody
    consolidates, and in blue's Assault phase the combat is fought again (no phase ends before)."""
    g, events = boy_slain(ruleset, [(18.5, 24.0), (21.5, 24.0)])
    assert said(events) == ["tac has no model in base contact with the enemy, but an enemy of its combat stands within "
                            "two 6\" Pile In moves: it piles in, T1 moving up to 6\" towards the enemy; in base "
                            "contact with boyz"]
    assert g.state.unit("tac").has(Status.LOCKED) and g.state.unit("boyz").has(Status.LOCKED)
    assert any(in_base_contact(g.state.unit("tac").models[0].placed, b.placed) for b in g.state.unit("boyz").models)
    assert not g.state.unit("tac").has(Status.MAY_CONSOLIDATE)
    assert_illegal(g, {"do": "consolidate", "unit": "tac", "to": [[20, 17]]}, CONSOLIDATION[ruleset])
    for _ in range(3):  # red's Assault phase ends; blue's Movement and Shooting phases
        g.apply({"do": "end_phase"})
    assert g.state.phase.value == "assault" and g.state.active == "blue"
    assert_illegal(g, {"do": "end_phase"}, "published.close-combat")  # the combat must be fought again
    assert_legal(g, {"do": "fight", "unit": "boyz"}, "published.close-combat")


@pytest.mark.rule("published.pile-in", CONSOLIDATION["40k3"], CONSOLIDATION["40k4"])
@EDITIONS
def test_the_assault_ends_when_no_enemy_of_it_stands_within_12_inches(ruleset: str) -> None:
    """The Boyz left stand 13" away: no Pile In could reach, so the assault ends at once and the Marine may
    consolidate, as the page says ("Both sides may make Consolidation moves instead")."""
    g, events = boy_slain(ruleset, [(20, 34.5), (22, 34.5)])
    assert not said(events)
    assert not g.state.unit("tac").has(Status.LOCKED) and g.state.unit("tac").has(Status.MAY_CONSOLIDATE)
    assert not g.state.unit("boyz").has(Status.LOCKED)
    assert_legal(g, {"do": "consolidate", "unit": "tac", "to": [[20, 17]]}, CONSOLIDATION[ruleset])


@pytest.mark.rule("published.pile-in", CONSOLIDATION["40k3"], CONSOLIDATION["40k4"])
@EDITIONS
def test_a_pile_in_stopped_short_by_a_squad_in_the_way_ends_the_assault(ruleset: str) -> None:
    """The Boy left stands 9" from the Marine behind a line of Devastators: each piles in straight at the other and
    stops short of their bases, touching no enemy, so the assault ends: neither is locked, and both may
    consolidate instead."""
    wall = {"id": "dev", "models": [model(f"D{i}", 17.0 + 1.5 * i, 25.0) for i in range(5)]}
    g, events = boy_slain(ruleset, [(20, 30.0)], more=[wall])
    piled = said(events)
    assert piled[0].startswith("tac has no model in base contact") and piled[0].endswith("no model reaches the enemy")
    assert piled[1].startswith("boyz has no model in base contact") and piled[1].endswith("no model reaches the enemy")
    assert "tac is in base contact with no enemy after the Pile In: its assault has ended" in piled[2]
    assert not g.state.unit("tac").has(Status.LOCKED) and not g.state.unit("boyz").has(Status.LOCKED)
    assert g.state.unit("tac").has(Status.MAY_CONSOLIDATE) and g.state.unit("boyz").has(Status.MAY_CONSOLIDATE)
    # the Devastators are no enemy of the assault: the Boy stops short of their bases, out of base contact
    assert not any(in_base_contact(b.placed, d.placed) for b in g.state.unit("boyz").models
                   for d in g.state.unit("dev").models)
    t1, b2 = g.state.unit("tac").models[0], g.state.unit("boyz").models[0]
    assert t1.at[1] < 25.0 - BASE_25 + 0.01 and b2.at[1] > 25.0 + BASE_25 - 0.01  # each stopped at the line
