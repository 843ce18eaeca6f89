"""Special rules with an effect in play, read through ``effective_rules``, and statuses that lapse.

Pinning (published.pinning): a pinned unit may not move, shoot or assault in its following
turn and is free again when that turn ends; an assault frees it at once.  Fly: a unit that
has it (as ``effective_rules`` reads it) passes over other models; a character joined to a
flying unit does not gain it (40k3.ic.no-unit-abilities, 40k4.ic.rules-not-shared).
"""

from __future__ import annotations

import pytest

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad
from herohammer.dice import ScriptedDice
from herohammer.game import Game

RULESETS = ("40k3", "40k4")


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        g.apply({"do": "end_phase"})


def pinned_in_blues_turn(ruleset: str) -> Game:
    """Blue's shooting phase; red's squad fails a Pinning test (rolls 12)."""
    red = [squad("tac", 20, 10, n=2)]
    blue = [squad("boyz", 20, 22, n=2)]
    g = game(scenario(ruleset, red, blue, phase="shooting", active="blue"))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    assert "pinned" in {s.value for s in g.state.unit("tac").status}
    return g


@pytest.mark.rule("published.pinning")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_pinned_unit_may_not_move_shoot_or_assault_in_its_next_turn(ruleset: str) -> None:
    g = pinned_in_blues_turn(ruleset)
    end_phases(g, 2)  # blue's shooting and assault phases: red's movement phase
    assert (g.state.active, g.state.phase.value) == ("red", "movement")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]}, "published.pinning")
    end_phases(g, 1)
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.pinning")
    end_phases(g, 1)
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.pinning")
    events = g.apply({"do": "end_phase"})
    assert any("tac is no longer pinned" in e.message and "published.pinning" in e.rules for e in events)
    assert "pinned" not in {s.value for s in g.state.unit("tac").status}
    end_phases(g, 3)  # blue's turn passes: red moves again
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]})


@pytest.mark.rule("published.pinning")
def test_the_pin_does_not_lapse_at_the_end_of_the_enemys_turn() -> None:
    g = pinned_in_blues_turn("40k4")
    end_phases(g, 2)
    assert "pinned" in {s.value for s in g.state.unit("tac").status}


@pytest.mark.rule("published.pinning")
def test_a_unit_pinned_in_its_own_turn_stays_pinned_through_its_following_turn() -> None:
    g = game(scenario("40k3", [squad("tac", 20, 10, n=2)], [squad("boyz", 20, 30, n=2)]))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    end_phases(g, 3)  # red's own turn ends: still pinned for its following turn
    assert "pinned" in {s.value for s in g.state.unit("tac").status}
    end_phases(g, 3)  # blue's turn
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]}, "published.pinning")
    end_phases(g, 3)
    assert not {s.value for s in g.state.unit("tac").status} & {"pinned", "newly_pinned"}


@pytest.mark.rule("published.pinning")
def test_an_assault_frees_a_pinned_unit_at_once() -> None:
    red = [squad("tac", 20, 10, n=2, status=["pinned"])]
    blue = [squad("boyz", 20, 13, n=2)]
    g = game(scenario("40k4", red, blue, phase="assault", active="blue"))
    events = g.apply({"do": "assault", "unit": "boyz", "target": "tac"})
    assert any("no longer pinned" in e.message for e in events)
    assert {s.value for s in g.state.unit("tac").status} == {"locked"}


@pytest.mark.rule("published.pinning", "40k4.ic.pinned")
def test_a_character_in_a_pinned_unit_leaves_once_the_pin_lapses() -> None:
    red = [squad("tac", 20, 10, n=2), hero("cap", 21, 11.5, joined="tac")]
    g = game(scenario("40k4", red, [squad("boyz", 20, 30, n=2)], phase="shooting", active="blue"))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    end_phases(g, 2)
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, "40k4.ic.pinned")
    end_phases(g, 6)
    assert_legal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, "40k4.ic.leave")


# -- Fly --------------------------------------------------------------------------------

def crowded(ruleset: str, red: list[dict[str, object]]) -> Game:
    """Red's movement: a wall of blue models across x = 20..30 at y = 14."""
    wall = {"id": "wall", "models": [model(f"W{i}", 20 + i, 14) for i in range(11)]}
    return game(scenario(ruleset, red, [wall, squad("far", 60, 45)]))


@pytest.mark.rule("40k3.ic.no-unit-abilities", "40k4.ic.rules-not-shared")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_fly_is_read_through_effective_rules(ruleset: str) -> None:
    g = crowded(ruleset, [hero("seraph", 25, 10, rules=["Fly"])])
    assert_legal(g, {"do": "move", "unit": "seraph", "to": [[25, 16]]})
    g = crowded(ruleset, [hero("cap", 25, 10)])
    assert not g.check({"do": "move", "unit": "cap", "to": [[25, 16]]}).legal
    # a character without Fly joined to a flying squad: the squad passes over, he does not
    red = [squad("hawks", 24, 10, n=2, rules=["Fly"]), hero("cap", 25, 11.5, joined="hawks")]
    g = crowded(ruleset, red)
    over = {"do": "move", "unit": "hawks", "to": [[24, 16], [26, 16], [25, 17.5]]}
    ruling = g.check(over)
    assert not ruling.legal and ruling.reason.startswith("Cap would move through"), ruling.reason
    assert_legal(g, {"do": "move", "unit": "hawks", "to": [[24, 15.6], [26, 15.6], [25, 12.9]]})
