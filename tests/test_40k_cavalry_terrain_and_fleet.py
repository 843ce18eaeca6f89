"""Cavalry by edition (round 27's fixes): 3rd edition cavalry entering difficult terrain roll a D6 a model and a 1 is
removed (published.difficult-terrain's decision, the 3rd edition Cavalry page); 4th edition cavalry, a Captain on a
steed too, may use Fleet (published.beasts-and-cavalry) and are slowed as infantry."""

from __future__ import annotations

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
WOODS = {"id": "woods", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 32], [10, 32]]}
RIDER = "WS4 BS4 S4 T4 W2 I4 A1 Ld8 Sv3+ Inv4+"


def riders(ruleset: str) -> Game:
    """Three two-Wound riders with a 4+ invulnerable save, 2" apart at y = 20; red's Movement phase."""
    cav = {"id": "cav", "type": "cavalry", "models": [model(f"R{i}", 20 + 2 * i, 20, 8, RIDER) for i in range(3)]}
    return game(scenario(ruleset, [cav], terrain=[WOODS]))


INTO = {"do": "move", "unit": "cav", "to": [[20, 25], [22, 25], [24, 25]]}


@pytest.mark.rule("published.difficult-terrain")
def test_3rd_edition_riders_who_roll_a_1_are_removed_whatever_their_wounds_and_saves() -> None:
    g = riders("40k3")
    events = g.apply(INTO, dice=ScriptedDice([1, 2, 1, 3, 3]))  # (then R1's Last Man Standing test, passed)
    said = [e for e in events if e.kind in ("dangerous_terrain", "casualties", "saves")]
    assert [e.message for e in said] == [
        "cav: 3 tests for cavalry entering difficult terrain, 2 rolled a 1 (R0, R2): an accident, removed",
        "slain: R0, R2"]
    assert "published.difficult-terrain" in said[0].rules
    assert [m.name for m in g.state.unit("cav").models] == ["R1"]


@pytest.mark.rule("published.difficult-terrain")
def test_the_odds_of_riders_left_after_the_wood_are_exact() -> None:
    state = riders("40k3").state

    def left(dice: Dice) -> int:
        played = Game(state, dice)
        played.apply(INTO, dice=dice)
        return len(played.state.unit("cav").models)

    fast = enumerate_outcomes(left, positions=False)
    assert fast == enumerate_outcomes(left, fine=True)
    assert set(fast) == {0, 1, 2, 3}


@pytest.mark.rule("published.difficult-terrain", "published.movement")
def test_4th_edition_riders_are_slowed_as_infantry_and_lose_no_one() -> None:
    g = riders("40k4")
    g.apply(INTO, dice=ScriptedDice([1, 1]))
    cav = g.state.unit("cav")
    assert len(cav.models) == 3 and cav.models[0].at == (20.0, 21.0)


@pytest.mark.rule("published.beasts-and-cavalry", "published.fleet", "40k4.ic.rules-lost")
def test_4th_edition_cavalry_run_with_fleet_and_a_captain_on_foot_takes_it_away() -> None:
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 40, 7, ORK) for i in range(3)]}
    cav = {**hero("cap", 20, 20), "type": "cavalry"}
    g = game(scenario("40k4", [cav], [boyz], phase="shooting"))
    events = g.apply({"do": "run", "unit": "cap", "to": [[20, 24]]}, dice=ScriptedDice([4]))
    assert [e.rules for e in events if e.kind == "run"] == [("published.fleet", "published.beasts-and-cavalry")]
    squad_on_horses = {**squad("cav", 20, 20), "type": "cavalry"}
    foot = hero("cap", 26, 20, joined="cav")
    g = game(scenario("40k4", [squad_on_horses, foot], [boyz], phase="shooting"))
    assert_illegal(g, {"do": "run", "unit": "cav", "to": [[20, 23], [22, 23], [24, 23], [26, 23]]},
                   "40k4.ic.rules-lost")
    g = game(scenario("40k4", [squad_on_horses], [boyz], phase="shooting"))
    assert_legal(g, {"do": "run", "unit": "cav", "to": [[20, 23], [22, 23], [24, 23]]}, "published.beasts-and-cavalry")


@pytest.mark.rule("published.fleet-of-foot")
def test_a_3rd_edition_cavalry_captain_has_no_fleet() -> None:
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 40, 7, ORK) for i in range(3)]}
    g = game(scenario("40k3", [{**hero("cap", 20, 20), "type": "cavalry"}], [boyz], phase="shooting"))
    assert_illegal(g, {"do": "run", "unit": "cap", "to": [[20, 24]]}, "published.fleet-of-foot")


