"""4th edition Target Priority: a unit shooting past the closest enemy unit first passes a Leadership test, else fires at
the closest (published.target-priority, the joined character's Leadership by 40k4.char.leadership); 3rd edition has
no such test."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def _scenario(ruleset: str, near_status: list[str] | None = None, near_y: float = 18.0) -> dict[str, Any]:
    """Four Marines with boltguns and a joined Captain (Ld 10, no gun) face two Boyz 7" away and two more 17" away."""
    marines = [{"name": f"Marine {i + 1}", "profile": MARINE, "at": [20 + 2 * i, 10], "weapons": ["bolter"]}
               for i in range(4)]
    return {"ruleset": ruleset, "phase": "shooting", "active": "red", "sides": {
        "red": [{"id": "captain", "character": "independent", "joined": "tactical",
                 "models": [{"name": "Captain", "profile": "WS5 BS5 S4 T4 W2 I5 A2 Ld10 Sv3+", "at": [23, 11.5]}]},
                {"id": "tactical", "models": marines}],
        "blue": [{"id": "near", "status": near_status or [],
                  "models": [{"name": f"Boy {i + 1}", "profile": BOY, "at": [20 + 2 * i, near_y]} for i in range(2)]},
                 {"id": "far", "models": [{"name": f"Boy {i + 3}", "profile": BOY, "at": [20 + 2 * i, 28]}
                                          for i in range(2)]}]}}


def _game(ruleset: str, **kw: Any) -> Game:
    return Game(state_from_data(_scenario(ruleset, **kw)))


def _losses(shots: int, p: Fraction, models: int) -> dict[int, Fraction]:
    """Models lost to ``shots`` shots each killing with ``p``, at most ``models`` (the binomial, capped)."""
    out: dict[int, Fraction] = {}
    for k in range(shots + 1):
        n = min(k, models)
        out[n] = out.get(n, Fraction(0)) + comb(shots, k) * p ** k * (1 - p) ** (shots - k)
    return out


def _shoots_untested(g: Game, unit: str, target: str, dice: int) -> None:
    """Assert that ``unit`` shoots ``target`` with no Target Priority test: not in the ruling, none rolled or logged,
    and the shot goes where it was aimed (``dice``: the shots' to-hit dice, all missing)."""
    ruling = g.check({"do": "shoot", "unit": unit, "target": target})
    assert ruling.legal and "published.target-priority" not in ruling.rules
    events = g.apply({"do": "shoot", "unit": unit, "target": target}, dice=ScriptedDice([1] * dice))
    assert not [e for e in events if e.kind == "target_priority"]
    assert g.state.target_fired_at(unit) == target


@pytest.mark.rule("published.target-priority", "40k4.char.leadership")
def test_the_odds_of_shooting_past_the_closest_unit_are_the_test_then_either_volley_exactly() -> None:
    """Passing (2D6 at most the Captain's Ld 10: 33 in 36) the four boltguns fire once each at the far Boyz (beyond
    half range); failing, twice each at the near Boyz: each shot kills with 2/3 x 1/2 = 1/3 (AP5 allows no 6+ save)."""
    answer = action_odds(state_from_data(_scenario("40k4")), {"do": "shoot", "unit": "tactical", "target": "far"})
    assert answer.exact
    got: dict[tuple[tuple[str, int], ...], Fraction] = {}
    for outcome, weight in answer.weights:
        got[outcome.models_lost] = got.get(outcome.models_lost, Fraction(0)) + Fraction(weight)
    p, passed = Fraction(1, 3), Fraction(33, 36)
    want: dict[tuple[tuple[str, int], ...], Fraction] = {}
    for unit, shots, chance in (("far", 4, passed), ("near", 8, 1 - passed)):
        for n, q in _losses(shots, p, 2).items():
            key = ((unit, n),) if n else ()
            want[key] = want.get(key, Fraction(0)) + chance * q
    assert got == want


@pytest.mark.rule("published.target-priority", "40k4.char.leadership")
def test_a_passed_test_fires_at_the_unit_chosen_and_the_log_says_so() -> None:
    g = _game("40k4")
    ruling = g.check({"do": "shoot", "unit": "tactical", "target": "far"})
    assert ruling.legal and "published.target-priority" in ruling.rules and "Target Priority test" in ruling.reason
    events = g.apply({"do": "shoot", "unit": "tactical", "target": "far"}, dice=ScriptedDice([5, 5] + [1] * 4))
    said = [e for e in events if e.kind == "target_priority"]
    assert len(said) == 1 and "Ld 10 (Captain), rolls 10: passes: it fires at far" in said[0].message
    assert "40k4.char.leadership" in said[0].rules and "published.target-priority" in said[0].rules
    assert g.state.target_fired_at("tactical") == "far"


@pytest.mark.rule("published.target-priority")
def test_a_failed_test_fires_at_the_closest_unit() -> None:
    g = _game("40k4")
    g.apply({"do": "shoot", "unit": "tactical", "target": "far"}, dice=ScriptedDice([6, 5] + [6] * 8 + [6] * 8
                                                                                     + [1] * 8))
    assert g.state.target_fired_at("tactical") == "near"
    assert len(g.state.unit("near").models) == 0 and len(g.state.unit("far").models) == 2


@pytest.mark.rule("published.target-priority")
def test_the_closest_unit_needs_no_test() -> None:
    _shoots_untested(_game("40k4"), "tactical", "near", 8)


@pytest.mark.rule("published.target-priority")
@pytest.mark.parametrize("status", ["falling_back", "locked"])
def test_a_nearer_unit_falling_back_or_locked_in_combat_is_ignored(status: str) -> None:
    g = _game("40k4", near_status=[status])
    ruling = g.check({"do": "shoot", "unit": "tactical", "target": "far"})
    assert ruling.legal and "published.target-priority" not in ruling.rules


@pytest.mark.rule("published.target-priority")
def test_3rd_edition_takes_no_target_priority_test() -> None:
    _shoots_untested(_game("40k3"), "tactical", "far", 4)


@pytest.mark.rule("published.target-priority", "published.monstrous-creatures")
def test_a_monstrous_creature_passes_the_test_automatically() -> None:
    """4th ed. p. 83: a Monstrous Creature passes the Leadership test to target an enemy unit other than the closest
    automatically; the same shot from a squad tests."""
    data = _scenario("40k4")
    data["sides"]["red"] = [{"id": "tyrant", "type": "monstrous_creature", "models": [
        {"name": "Tyrant", "profile": "WS5 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+", "at": [23, 10], "weapons": ["bolter"]}]}]
    _shoots_untested(Game(state_from_data(data)), "tyrant", "far", 1)
