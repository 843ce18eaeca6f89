"""4th edition multiple combats: each winning unit that may sweep makes a single Sweeping Advance roll.

4th ed. p. 58 (Multiple Combats, stored page http://redelf.narod.ru/w40k/rulebook4/58.html): "Each winning unit that
can sweeping advance makes a single roll and compares its total to each of the enemy unit's totals; any it equals or
beats are destroyed."  Before, the engine rolled the victor's D6 anew for each falling back unit, and let only the
victor of the best Initiative sweep a unit that two winning units touched.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, game, model, scenario
from test_judge_40k_round27 import boss_and_boyz_lose

BOY = "WS4 BS2 S3 T4 W3 I2 A1 Ld7"
#: every die of the fight before the Sweeping Advances a 6 (boss_and_boyz_lose: 18 faces; two_victors: 9)
BEFORE_SWEEPS = {"boss_and_boyz": 18, "two_victors": 9}


def two_victors() -> Game:
    """A Boy (W3) locked between two Marine squads of one model each, both touching him: with every die a 6 he takes
    2 wounds, causes none, and fails his check at -2."""
    tac = {"id": "tac", "status": ["locked"], "models": [model("T1", 20, 20)]}
    vets = {"id": "vets", "status": ["locked"], "models": [model("V1", 20 + 2 * BASE_25, 20)]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 20 + BASE_25, 20, 7, BOY)]}
    return game(scenario("40k4", [tac, vets], [boyz], phase="assault"))


def sweep_rolls(dice: ScriptedDice) -> list[Any]:
    return [r for r in dice.log if "sweeping advance" in r.purpose]


def said(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


@pytest.mark.rule("published.sweeping-advance", "published.combat-resolution")
def test_one_victor_rolls_once_against_both_units_that_failed() -> None:
    """The Warboss breaks off on a 1 (3 + 1 = 4), the Boyz on a 6 (2 + 6 = 8); the Marines roll a single 1 (4 + 1 = 5):
    the Warboss is caught, the Boyz break off.  Rolled anew per unit, the Marines' second die (a 6) caught the Boyz."""
    g = boss_and_boyz_lose()
    dice = ScriptedDice([6] * BEFORE_SWEEPS["boss_and_boyz"] + [1, 6, 1] + [6] * 40)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=dice)
    assert [r.purpose for r in sweep_rolls(dice)] == [
        "tac: sweeping advance (Initiative 4 + D6, one roll against boss and boyz)"]
    assert not g.state.unit("boss").alive
    assert g.state.unit("boyz").alive and g.state.unit("boyz").has(Status.FALLING_BACK)
    sweeps = said(events, "sweeping_advance")
    assert sweeps[0].startswith("tac makes a sweeping advance against boss: 4 + 1 = 5 against 3 + 1 = 4")
    assert sweeps[0].endswith("boss is caught and destroyed, no save allowed")
    assert sweeps[1].startswith("tac makes a sweeping advance against boyz: 4 + 1 = 5 against 2 + 6 = 8")
    assert "tac rolls once against boss and boyz: a multiple combat" in sweeps[1]
    assert sweeps[1].endswith("boyz breaks off and falls back")
    # each unit's event carries its own roll and the victor's one roll
    swept = [e for e in events if e.kind == "sweeping_advance"]
    assert [len(e.rolls) for e in swept] == [2, 2] and swept[0].rolls[1] is swept[1].rolls[1]
    assert all("published.sweeping-advance" in e.rules for e in swept)


@pytest.mark.rule("published.sweeping-advance")
def test_one_roll_catches_both_when_it_beats_both() -> None:
    g = boss_and_boyz_lose()
    dice = ScriptedDice([6] * BEFORE_SWEEPS["boss_and_boyz"] + [2, 4, 3] + [6] * 40)
    g.apply({"do": "fight", "unit": "tac"}, dice=dice)
    assert len(sweep_rolls(dice)) == 1
    assert not g.state.unit("boss").alive and not g.state.unit("boyz").alive  # 7 against 5 and 6


@pytest.mark.rule("published.sweeping-advance")
def test_two_winning_units_touching_one_loser_each_roll_and_either_catches_him() -> None:
    """The Boyz roll 6 (8); tac rolls 1 (5) and vets 6 (10): caught by vets.  Before, only one victor (the first of the
    best Initiative) rolled, and its 1 let the Boyz break off."""
    g = two_victors()
    dice = ScriptedDice([6] * BEFORE_SWEEPS["two_victors"] + [6, 1, 6] + [6] * 40)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=dice)
    assert [r.purpose for r in sweep_rolls(dice)] == ["tac: sweeping advance (Initiative 4 + D6)",
                                                       "vets: sweeping advance (Initiative 4 + D6)"]
    assert not g.state.unit("boyz").alive
    assert said(events, "sweeping_advance") == [
        "tac and vets make sweeping advances against boyz: tac 4 + 1 = 5, vets 4 + 6 = 10 against 2 + 6 = 8: boyz is "
        "caught and destroyed, no save allowed"]


@pytest.mark.rule("published.sweeping-advance")
def test_neither_winning_unit_reaching_him_lets_him_break_off() -> None:
    g = two_victors()
    dice = ScriptedDice([6] * BEFORE_SWEEPS["two_victors"] + [6, 1, 3] + [6] * 40)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=dice)
    boyz = g.state.unit("boyz")
    assert boyz.alive and boyz.has(Status.FALLING_BACK)
    assert said(events, "sweeping_advance")[0].endswith("boyz breaks off and falls back")  # 5 and 7 against 8


def _failed(g: Game, *ids: str) -> Any:
    """The state of ``g`` with ``ids`` falling back, as the multiple combat leaves them once every loser has tested."""
    state = g.state
    return state.replace_units(*(state.unit(i).with_status(Status.FALLING_BACK) for i in ids))


def _brute(losers: dict[str, int], victors: dict[str, tuple[int, tuple[str, ...]]]) -> dict[tuple[bool, ...], Fraction]:
    """The rulebook's Sweeping Advances counted over every face: each loser's Initiative + D6, each victor's one
    Initiative + D6 against the losers it may catch; a loser any victor equals or beats is destroyed."""
    names = list(losers)
    out: dict[tuple[bool, ...], Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=len(losers) + len(victors)):
        fled = dict(zip(names, faces))
        swept = dict(zip(victors, faces[len(losers):]))
        alive = tuple(not any(i + swept[v] >= losers[u] + fled[u] for v, (i, against) in victors.items()
                              if u in against) for u in names)
        out[alive] = out.get(alive, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


@pytest.mark.rule("published.sweeping-advance")
def test_exact_odds_of_one_roll_against_two_units_equal_brute_force_and_the_count_by_hand() -> None:
    g = boss_and_boyz_lose()
    state = _failed(g, "boss", "boyz")
    combat = ("tac", "boss", "boyz")

    def alive(dice: Dice) -> tuple[bool, bool]:
        after, _ = g.ruleset.losers_leave_combat(state, ["boss", "boyz"], dice, combat)
        return after.unit("boss").alive, after.unit("boyz").alive

    fast = dict(enumerate_outcomes(alive, positions=False))
    assert fast == dict(enumerate_outcomes(alive, fine=True))
    assert fast == _brute({"boss": 3, "boyz": 2}, {"tac": (4, ("boss", "boyz"))})
    # one roll against both: the two catches go together far more often than two rolls would have them
    both = fast[(False, False)]
    assert both > (fast[(False, False)] + fast[(False, True)]) * (fast[(False, False)] + fast[(True, False)])


@pytest.mark.rule("published.sweeping-advance")
def test_exact_odds_of_two_victors_against_one_unit_equal_the_count_by_hand() -> None:
    g = two_victors()
    state = _failed(g, "boyz")
    combat = ("tac", "boyz", "vets")

    def alive(dice: Dice) -> bool:
        after, _ = g.ruleset.losers_leave_combat(state, ["boyz"], dice, combat)
        return after.unit("boyz").alive

    fast = dict(enumerate_outcomes(alive, positions=False))
    assert fast == dict(enumerate_outcomes(alive, fine=True))
    by_hand = _brute({"boyz": 2}, {"tac": (4, ("boyz",)), "vets": (4, ("boyz",))})
    assert fast == {alive[0]: p for alive, p in by_hand.items()}


@pytest.mark.rule("published.fall-back")
def test_3rd_edition_losers_of_a_multiple_combat_just_fall_back() -> None:
    """3rd edition has no Sweeping Advance: both failing units fall back, and no sweep die is rolled."""
    g = game(_as_3rd(boss_and_boyz_lose))
    dice = ScriptedDice([6] * 200)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=dice)
    assert not sweep_rolls(dice) and not said(events, "sweeping_advance")
    assert all(g.state.unit(u).has(Status.FALLING_BACK) for u in ("boss", "boyz"))


def _as_3rd(build: Any) -> dict[str, Any]:
    from herohammer.scenario import state_to_data

    data = state_to_data(build().state)
    data["ruleset"] = "40k3"
    return data
