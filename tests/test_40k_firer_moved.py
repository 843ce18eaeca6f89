"""Whether a firer moved is its own unit's: a character who moved to join a squad that stood still (published.weapon-profiles).

Found wrong and fixed in session 25: a squad of heavy bolters that stood still fired nothing once its Captain had moved
to join it, as if the squad had moved (every member counted as having moved when any had).
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import game, hero, model, scenario

JOIN = {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 21]}
SHOOT = {"do": "shoot", "unit": "tac", "target": "boyz"}


def heavy_squad_and_captain(ruleset: str, squad_moved: bool) -> Game:
    """Three heavy bolters 9" from three Boyz, their Captain (a heavy bolter too) 3" away; red's Movement phase."""
    tac: dict[str, Any] = {"id": "tac", "status": ["moved"] if squad_moved else [],
                           "models": [{**model(f"H{i}", 20 + 2 * i, 20), "weapons": ["heavy bolter"]}
                                      for i in range(3)]}
    cap = hero("cap", 28, 22)
    cap["models"][0]["weapons"] = ["heavy bolter"]
    boyz = {"id": "boyz", "models": [model(f"B{i}", 20 + 2 * i, 29, 7) for i in range(3)]}
    return game(scenario(ruleset, [tac, cap], [boyz], phase="movement"))


def volley_after_joining(ruleset: str, squad_moved: bool) -> list[Any]:
    """The Captain joins the squad, the phases run to Shooting, and the squad fires (every die a 1)."""
    g = heavy_squad_and_captain(ruleset, squad_moved)
    g.apply(JOIN)
    while g.state.phase.value != "shooting":
        g.apply({"do": "end_phase"})
    return g.apply(SHOOT, dice=ScriptedDice([1] * 40))


@pytest.mark.rule("published.weapon-profiles", "published.shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_squad_that_stood_still_fires_its_heavy_weapons_after_its_captain_moved_to_join_it(ruleset: str) -> None:
    """The squad stood still: its three heavy bolters fire 3 shots each; the Captain moved (joining is his move) and
    his heavy bolter fires none, the note saying so (before session 25 the squad fired nothing either)."""
    events = volley_after_joining(ruleset, squad_moved=False)
    assert [e.message for e in events if e.kind == "shots"] == ["3 models fire 9 shots with heavy bolter: 0 hits, "
                                                               "0 wounds"]
    [note] = [e for e in events if e.kind == "note"]
    assert note.message.startswith("Cap, whose unit moved this turn: its heavy bolter (Heavy)")
    assert note.rules == ("published.weapon-profiles",)


@pytest.mark.rule("published.weapon-profiles", "published.shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_squad_that_moved_fires_no_heavy_weapon_with_its_captain_joined(ruleset: str) -> None:
    """The squad moved, then the Captain joined it: nobody's heavy bolter fires, each note citing its rule."""
    events = volley_after_joining(ruleset, squad_moved=True)
    assert not [e for e in events if e.kind == "shots"]
    notes = [e for e in events if e.kind == "note"]
    assert len(notes) == 4 and all(e.rules == ("published.weapon-profiles",) for e in notes)


@pytest.mark.rule("published.weapon-profiles")
def test_a_note_that_cites_its_rule_is_said_citing_it_once() -> None:
    """The Captain's note ends citing published.weapon-profiles, which the event cites too: its line says it once."""
    events = volley_after_joining("40k4", squad_moved=False)
    [note] = [e for e in events if e.kind == "note"]
    assert note.describe() == note.message and note.describe().count("[published.weapon-profiles]") == 1
