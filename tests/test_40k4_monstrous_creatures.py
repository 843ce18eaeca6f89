"""4th edition Monstrous Creatures (published.monstrous-creatures, rulebook p. 83), a character of that type too (seed
001: "Characters follow rules for models of their type"): two weapons a turn, close combat wounds that allow no armour
save, difficult terrain dice re-rolled; 3rd edition, whose page was not at hand, keeps one weapon and the saves."""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import BASE_25, game, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
TYRANT = "WS5 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+"


def tyrant(weapons: list[str], **extra: Any) -> dict[str, Any]:
    return {"id": "ty", "type": "monstrous_creature", "character": "independent", **extra,
            "models": [{**model("Tyrant", 20, 20 + BASE_25 / 2 + 60 / 25.4 / 2, 10, TYRANT), "base": 60,
                        "weapons": weapons}]}


def boyz(y: float = 30, n: int = 3) -> dict[str, Any]:
    return {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, y, 7, ORK) for i in range(n)]}


def shots(events: list[Any]) -> list[str]:
    return [e.message for e in events if e.kind == "shots"]


@pytest.mark.rule("published.monstrous-creatures", "published.weapon-profiles")
def test_the_odds_of_a_tyrants_two_gun_volley_are_exact() -> None:
    """Both batches (storm bolter, heavy bolter) roll in the enumeration: its odds equal brute force's."""
    g = game(scenario("40k4", [tyrant(["storm bolter", "heavy bolter"])], [boyz()], phase="shooting"))
    state = g.state

    def left(dice: Dice) -> int:
        played = Game(state, dice)
        played.apply({"do": "shoot", "unit": "ty", "target": "boyz"}, dice=dice)
        return len(played.state.unit("boyz").models)

    fast = enumerate_outcomes(left, positions=False)
    assert fast == enumerate_outcomes(left, fine=True)
    assert set(fast) == {0, 1, 2, 3}


@pytest.mark.rule("published.monstrous-creatures", "published.weapon-profiles")
def test_a_tyrant_fires_two_of_three_guns_a_named_one_first_and_3rd_edition_one() -> None:
    """Of three guns the first two that can fire do; a weapon named fires with the first other; after moving his
    Heavy weapon fires no shot, so the next that can takes its place. 3rd edition: one weapon, as before."""
    arms = ["storm bolter", "heavy bolter", "bolter"]
    g = game(scenario("40k4", [tyrant(arms)], [boyz()], phase="shooting"))
    assert sorted(shots(g.apply({"do": "shoot", "unit": "ty", "target": "boyz"}, dice=ScriptedDice([1] * 20)))) == [
        "Tyrant fires 2 shots with storm bolter: 0 hits, 0 wounds",
        "Tyrant fires 3 shots with heavy bolter: 0 hits, 0 wounds"]
    g = game(scenario("40k4", [tyrant(arms)], [boyz()], phase="shooting"))
    named = g.apply({"do": "shoot", "unit": "ty", "target": "boyz", "weapon": "bolter"}, dice=ScriptedDice([1] * 20))
    assert sorted(shots(named)) == ["Tyrant fires 2 shots with bolter: 0 hits, 0 wounds",
                                    "Tyrant fires 2 shots with storm bolter: 0 hits, 0 wounds"]
    moved = game(scenario("40k4", [tyrant(arms, status=["moved"])], [boyz()], phase="shooting"))
    assert sorted(shots(moved.apply({"do": "shoot", "unit": "ty", "target": "boyz"}, dice=ScriptedDice([1] * 20)))) \
        == ["Tyrant fires 2 shots with bolter: 0 hits, 0 wounds",
            "Tyrant fires 2 shots with storm bolter: 0 hits, 0 wounds"]
    third = game(scenario("40k3", [tyrant(arms)], [boyz()], phase="shooting"))
    assert shots(third.apply({"do": "shoot", "unit": "ty", "target": "boyz"}, dice=ScriptedDice([1] * 20))) == [
        "Tyrant fires 2 shots with storm bolter: 0 hits, 0 wounds"]


@pytest.mark.rule("published.monstrous-creatures", "published.saves")
def test_a_tyrants_blows_allow_an_invulnerable_save_and_3rd_edition_armour() -> None:
    """4th edition: no armour save against his blows, an invulnerable one still; 3rd edition: the armour save."""
    def fight(ruleset: str, profile: str) -> list[str]:
        tac = squad("tac", 20, 20, n=1, status=["locked"])
        tac["models"] = [{**tac["models"][0], "profile": profile}]
        g = game(scenario(ruleset, [tac], [tyrant([], status=["locked"])], phase="assault"))
        return [e.message for e in g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6] * 40))
                if e.kind in ("saves", "attacks")]
    said = fight("40k4", "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+ Inv5+")
    assert said[0].endswith("(a Monstrous Creature's close combat wounds: no armour save)")
    assert said[1] == "tac 1: 3 wounds, 3 saved, 0 unsaved"
    assert fight("40k3", "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+")[1] == "tac 1: 3 wounds, 3 saved, 0 unsaved"


@pytest.mark.rule("published.monstrous-creatures", "published.difficult-terrain", "40k4.char.move-through-cover")
def test_a_tyrant_re_rolls_his_low_terrain_dice_once_and_a_captain_on_foot_does_not() -> None:
    """4th edition: the Tyrant's 3D6 (Move Through Cover) showing 1, 1, 1 are re-rolled (each below the 5" needed,
    once): 4, 2, 3 leave him 4", short; the event cites the rule. A Captain on foot keeps his 1, 1, 1."""
    woods = {"id": "woods", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 32], [10, 32]]}
    g = game(scenario("40k4", [tyrant([])], terrain=[woods]))
    ruling = g.check({"do": "move", "unit": "ty", "to": [[20, 26.67]]})
    assert "(chance 665/729) [40k4.char.move-through-cover, published.monstrous-creatures]" in ruling.notes[0]
    events = g.apply({"do": "move", "unit": "ty", "to": [[20, 26.67]]}, dice=ScriptedDice([1, 4, 1, 2, 1, 3]))
    said = [e for e in events if e.kind == "difficult_terrain"]
    assert said[0].message == "ty rolls 4\" for difficult terrain (a Monstrous Creature re-rolls the dice below 5), " \
        "and stops short"
    assert "published.monstrous-creatures" in said[0].rules
    cap = {"id": "cap", "character": "independent",
           "models": [model("Cap", 20, 23, 10, "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+")]}
    g = game(scenario("40k4", [cap], terrain=[woods]))
    g.apply({"do": "move", "unit": "cap", "to": [[20, 28]]}, dice=ScriptedDice([1, 1, 1, 6, 6, 6]))
    assert g.state.unit("cap").models[0].at == (20.0, 24.0)
