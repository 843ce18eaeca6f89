"""A judge's cases for 40k 3rd and 4th edition, nineteenth round (second wave): consolidation and falling back.

1. Consolidation by either side (4th ed.): every unit a close combat's result leaves with no enemy in base contact
   may consolidate, whichever player's turn it is: the inactive side's victor too (published.consolidation).
2. A fight refused in a close combat a consolidation made this phase says why: the consolidating unit counts as
   engaged only from the next Assault phase (published.consolidation), not "already fought".
3. Infantry falling back through dangerous terrain take its tests, halved as through difficult terrain
   (published.dangerous-terrain, published.fall-back), in both editions.

Each case plays actions through ``Game`` and asserts what the texts say, beside the outcome the rule forbids; where
dice decide, the exact odds equal brute force.
"""

from __future__ import annotations

from fractions import Fraction
import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import assert_illegal, assert_legal, game, scenario
from test_judge_40k_round19 import FIGHT_VETS, INTO_GROT, MORALE, falling, morale_losses, told, won
from test_sweeping_advance import BLOWS, FAILS, boyz, vets

CONS = "published.consolidation"
DANGER = "published.dangerous-terrain"


# == 1. consolidation by either side ==============================================================================
def blue_wins(sweep: list[int]) -> Game:
    """Red (the active side) has Boyz locked with blue's Vet; the Vet fights (as either side may) and wins; the Boyz
    fail their Morale check, and ``sweep`` (the Boyz' D6, then the Vet's) decides the Sweeping Advance, then their
    fall back's 2D6 if they break off."""
    g = game(scenario("40k4", [boyz()], [vets()], phase="assault"))
    assert g.state.active == "red"
    g.apply(FIGHT_VETS, dice=ScriptedDice([*BLOWS, *FAILS, *sweep]))
    return g


@pytest.mark.rule(CONS, "published.sweeping-advance")
@pytest.mark.parametrize("sweep, boyz_left", [([1, 6], False), ([6, 1, 4, 4], True)])
def test_40k4_the_inactive_sides_victor_consolidates_in_the_others_turn(sweep: list[int], boyz_left: bool) -> None:
    """4th ed. p. 44-46 (stored page rulebook4/56.html, Sweeping Advances & Consolidation): "the victors make a
    Sweeping Advance ... and can then make a Consolidate move"; the winners consolidate when the loser breaks off as
    when it is caught.  The rule names no player: blue's Vet, winning in red's turn, may consolidate D6" (an action of
    either side), once; the Boyz falling back may not."""
    g = blue_wins(sweep)
    assert g.state.unit("boyz").alive is boyz_left
    vet = g.state.unit("vets")
    assert vet.side == "blue" and vet.has(Status.MAY_CONSOLIDATE)
    away = {"do": "consolidate", "unit": "vets", "to": [[20, 17]]}
    assert any(getattr(a, "do", "") == "consolidate" and getattr(a, "unit", "") == "vets" for a in g.legal_actions())
    assert_legal(g, away, CONS)
    events = g.apply(away, dice=ScriptedDice([2]))
    assert told(events, "consolidate") == ["vets consolidates 2\", and stops short"]
    assert g.state.unit("vets").models[0].at == (20, 18) and not g.state.unit("vets").has(Status.MAY_CONSOLIDATE)
    refused = assert_illegal(g, away, CONS)  # once only
    assert "only a unit that a close combat's result left" in str(refused)
    if boyz_left:
        assert_illegal(g, {"do": "consolidate", "unit": "boyz", "to": [[20, 30]]}, CONS)


# == 2. the refusal of a fight in a combat a consolidation made ===================================================
@pytest.mark.rule(CONS, "published.close-combat")
def test_40k4_a_combat_made_by_a_consolidation_is_refused_for_that_reason_until_the_next_assault_phase() -> None:
    """4th ed. p. 44: "a unit which consolidates into a new close combat does not count as engaged until the next
    Assault phase": the Grot the Vet consolidated into (on a 6) may not fight this phase, and the refusal says so,
    citing published.consolidation (neither has fought this combat); in the next Assault phase it fights.  A combat
    fought this phase is still refused as fought once an Assault phase (published.close-combat)."""
    g = won()
    g.apply(INTO_GROT, dice=ScriptedDice([6]))
    for unit in ("grots", "vets"):
        refused = assert_illegal(g, {"do": "fight", "unit": unit}, CONS)
        assert "counts as engaged only from the next Assault phase" in str(refused)
        assert "already been fought" not in str(refused) and "vets consolidated into this close combat" in str(refused)
    for _ in range(3):
        g.apply({"do": "end_phase"})
    assert g.state.phase.value == "assault"
    assert_legal(g, {"do": "fight", "unit": "grots"}, "published.close-combat")
    fought = game(scenario("40k4", [vets()], [boyz()], phase="assault"))
    fought.apply(FIGHT_VETS, dice=ScriptedDice([1, 1, 1, 1, 1, 1, 1]))  # no wounds: a draw, both still locked
    refused = assert_illegal(fought, {"do": "fight", "unit": "boyz"}, "published.close-combat")
    assert "has already been fought this phase" in str(refused) and CONS not in refused.rules


# == 3. infantry falling back through dangerous terrain ===========================================================
MINES = [{"id": "mines", "kind": "dangerous", "polygon": [[10, 24.5], [30, 24.5], [30, 27.5], [10, 27.5]]}]


@pytest.mark.rule("published.fall-back", DANGER, "published.difficult-terrain")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_infantry_falling_back_into_dangerous_terrain_test_each_model(ruleset: str) -> None:
    """A fall back is a move, and dangerous terrain tests "every model that moves into or through it"
    (published.dangerous-terrain); the Fall Back rule (4th ed. p. 48, stored page rulebook4/62.html) halves the roll
    "if the unit moves into, out of or through difficult terrain" and names no exception.  10" halved is 5": both
    Marines end in the minefield and test (S1's 1 slays him); 4" stops short of it: no test; in a wood (difficult,
    not dangerous) no test either."""
    g = falling(ruleset, "infantry", MINES)
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 5, 5, 1, 6]))
    assert told(events, "fall_back") == ["squad falls back 5\" (10\" rolled, halved through difficult terrain)"]
    tests = [e for e in events if e.kind == "dangerous_terrain"]
    assert [e.message for e in tests] == ["squad: 2 dangerous terrain tests, 1 failed (S1)"]
    assert DANGER in tests[0].rules
    assert [(m.name, m.at[1]) for m in g.state.unit("squad").models] == [("S2", 25.0)]
    g = falling(ruleset, "infantry", MINES)
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 2, 2]))
    assert told(events, "fall_back") == ["squad falls back 4\""] and not told(events, "dangerous_terrain")
    g = falling(ruleset, "infantry")
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 5, 5]))
    assert not told(events, "dangerous_terrain") and len(g.state.unit("squad").models) == 2


@pytest.mark.rule("published.fall-back", DANGER)
def test_the_exact_odds_of_infantry_falling_back_into_a_minefield_equal_brute_force() -> None:
    """The models lost: the Morale check fails (Ld 8: 2D6 over 8); the fall back's 2D6, halved as the full roll
    would enter the minefield, still reaches it (4.5" from the Marines' centres) on 9 or more (10 of 36 ways); each
    model then dies on a 1."""
    start = falling("40k4", "infantry", MINES).state

    fast = morale_losses(start)
    fails = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > 8), 36)
    mines = fails * Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= 9), 36)
    assert dict(fast) == {0: 1 - mines + mines * Fraction(25, 36), 1: mines * Fraction(10, 36),
                          2: mines * Fraction(1, 36)}
