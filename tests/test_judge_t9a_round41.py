"""Round 41: a 9th Age judge's cases on the end of a pursuit, played as sequences through Game and checked against the
2022 rulebook text on newrecruit.eu (Pursue Moves; Pursuit Distance and Pursuing Units; Move Broken Units; Pursuits and
Overruns; No More Foes): a pursuer whose Pursuit Move meets an enemy unit that is not in the combat.

The texts: (Move Broken Units) "If the Pursue Move would bring the Pursuing unit in contact with an obstacle, such as an
Enemy Unit, the Table Edge or an Obstruction*, specific rules apply"; (Pursue Moves) "Before moving any units, check:
Which Pursuing unit would Charge an enemy unit"; "Enemy unit: If the Front Facing of the Pursuing unit would be in
contact with the Unit Boundary of an enemy unit that did not Flee from the same Combat, it declares a Charge against
that unit, which can not perform any Charge Reactions"; "The Charging units will be moved first". The project's
charges are moved straight into contact without an Align move (published.t9a-charge-arc); a combat is fought once a
Melee phase (published.t9a-combat-resolution), and a unit that charged counts as Charging in its combat's first round.

Found wrong (each first committed as a strict xfail, then fixed and its mark removed):

1. A pursuer whose Pursuit Move reached an enemy unit outside the combat stopped 1" short of it and was engaged in
   nothing: it now charges it (published.t9a-pursuit, ``t9a_melee._fresh_enemy_charge``): it moves on straight into
   base contact, both units are Engaged, and their combat is fought in the next Melee phase, the pursuer counting as
   Charging there (+1 to its side's Combat Score) and no longer in the round after.  A roll that falls short of the
   contact still stops 1" short, as a Pursuit Move does.
2. The enemy charged so cannot fight in the Melee phase the pursuit was made in: refused, citing the pursuit.

An Overrun that reaches a fresh enemy charges it too (its case was added once the fix was in: the same Pursuit Move).

Decisions stated (data/rules.yaml, published.t9a-pursuit, with a book entry): what is charged (an enemy unit neither
Fleeing nor Engaged in another combat), how (straight into contact, no Align move), when its combat is fought and how
long the pursuer counts as Charging; Pursuing off the Board and the Overrun of a unit whose own contacts were wiped out
while its combat goes on (No More Foes) are left, with the text found quoted.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from _t9a import SPEAR, STILL_ORC, exact_odds_as_brute_force, melee_scenario, play_to, refused, reloading_game, reloads
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

PURSUIT = "published.t9a-pursuit"
RESOLUTION = "published.t9a-combat-resolution"
FIGHT: dict[str, Any] = {"do": "fight", "unit": "spears"}
MM = 25.4
#: the orcs' front edge stands at y = 20 and the Spearmen's too (melee_scenario); the fresh orcs' front edge, facing
#: the Spearmen, this far up the table beyond it
GAP = 8.5


def _fresh_enemy(gap: float = GAP, status: list[str] | None = None) -> dict[str, Any]:
    """Ten Spearmen in two ranks who charged (+1 ranks, +1 charge) against five orcs in one rank: the orcs lose by 2 and
    break on 6 6 (Ld 7 - 2).  Five more orcs (``boyz``), in no combat, face the Spearmen ``gap``" beyond the orcs'
    front edge, across the way the orcs flee and the Spearmen pursue (straight up the table)."""
    data = melee_scenario(n=10, orcs=5, spear_status=["engaged", "charged"], joined=False, hero_at=(10, 4))
    boyz = copy.deepcopy(data["sides"]["orcs"][0])
    boyz.update(id="boyz", status=status or [])
    boyz["formation"]["position"] = [36, 20 + gap]
    boyz["models"] = [{**m, "name": f"b{i}", "profile": STILL_ORC} for i, m in enumerate(boyz["models"])]
    data["sides"]["orcs"].append(boyz)
    return data


def _break(events: list[Any]) -> Any:
    return next(e for e in events if e.kind == "break")


def _front_y(g: Game) -> float:
    spears = g.state.unit("spears")
    assert spears.formation is not None
    return spears.formation.position[1]


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("pursuit", [[5, 4], [6, 6]])
def test_a_pursuit_that_reaches_a_fresh_enemy_charges_it(pursuit: list[int]) -> None:
    g = reloading_game(_fresh_enemy())
    # Break 6 6 (fails), flee 1 1 = 2", the pursuit of 9" or 12" catches the orcs (destroyed before they flee)
    events = g.apply(FIGHT, ScriptedDice([6, 6, 1, 1, *pursuit]))
    told = _break(events)
    assert "caught by a pursuit of" in told.message and not g.state.unit("orcs").alive, told.message
    # the Pursuit Move would contact the boyz 8.5" on: it charges them and stands in base contact with them, its front
    # facing theirs (no Align move needed: already parallel), whatever its roll beyond 8.5"
    assert "spears charges boyz" in told.message, told.message
    assert PURSUIT in told.rules
    assert _front_y(g) == pytest.approx(20 + GAP, abs=0.01)
    for uid in ("spears", "boyz"):
        assert g.state.unit(uid).has(Status.ENGAGED), uid
    reloads(g)


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("pursuit, y", [([4, 4], 20 + GAP - 1), ([3, 4], 27.0), ([1, 1], 22.0)])
def test_a_pursuit_short_of_the_fresh_enemy_stops_1_inch_from_it_or_where_its_roll_ends(
        pursuit: list[int], y: float) -> None:
    g = reloading_game(_fresh_enemy())
    g.apply(FIGHT, ScriptedDice([6, 6, 1, 1, *pursuit]))
    # 8" does not reach the boyz 8.5" on: the Unit Spacing stops it 1" short (7.5"); 7" and 2" move their roll
    assert _front_y(g) == pytest.approx(y, abs=1 / 64 + 1e-9)
    assert not g.state.unit("spears").has(Status.ENGAGED) and not g.state.unit("boyz").has(Status.ENGAGED)
    reloads(g)


def _charged_boyz() -> Game:
    g = reloading_game(_fresh_enemy())
    g.apply(FIGHT, ScriptedDice([6, 6, 1, 1, 6, 6]))
    return g


@pytest.mark.rule(PURSUIT, RESOLUTION)
def test_the_fresh_enemys_combat_is_fought_next_melee_phase_the_pursuer_charging_then_only() -> None:
    g = _charged_boyz()
    # the pursuer fought this phase: its new combat waits for the next Melee phase
    refused(g, FIGHT, PURSUIT, "next Melee phase")
    play_to(g, "melee", "orcs")
    assert any(a.do == "fight" for a in g.legal_actions())
    # the orcs' Melee phase: the Spearmen count as Charging (+1) with their rank (+1); the boyz, one rank, nothing:
    # the boyz lose by 2 and hold on 3 2 (Ld 7 - 2)
    events = g.apply({"do": "fight", "unit": "boyz"}, ScriptedDice([3, 2]))
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "elves wins by 2" in said and "charge" in said.split("spears +2")[1][:30], said
    # the elves' Melee phase: the combat's second round, no one charging: +1 (ranks) only, the boyz hold on 3 3
    play_to(g, "melee", "elves")
    events = g.apply(FIGHT, ScriptedDice([3, 3]))
    said = next(e for e in events if e.kind in ("combat", "break")).message
    assert "elves wins by 1" in said and "charge" not in said, said
    reloads(g)


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("status", [["fleeing"], ["engaged"]])
def test_a_fleeing_or_engaged_enemy_in_the_way_is_not_charged_it_stops_the_pursuer_1_inch_short(
        status: list[str]) -> None:
    g = reloading_game(_fresh_enemy(status=status))
    g.apply(FIGHT, ScriptedDice([6, 6, 1, 1, 6, 6]))
    assert _front_y(g) == pytest.approx(20 + GAP - 1, abs=1 / 64 + 1e-9)
    assert not g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(PURSUIT)
def test_the_exact_odds_of_a_fight_whose_pursuit_may_charge_a_fresh_enemy_are_the_brute_forces() -> None:
    g = reloading_game(_fresh_enemy())
    weights = exact_odds_as_brute_force(g.state, FIGHT)
    # the orcs caught and the boyz charged: the orcs break (2D6 over 5: 26/36), the Spearmen's pursuit reaches the
    # boyz (9" or more) and catches the orcs (a flee no further), so the orcs never flee into the boyz' way
    catch_and_reach = Fraction(sum(ways(p) * sum(ways(f) for f in range(2, p + 1)) for p in range(9, 13)), 36 * 36)
    caught_and_charged = sum(w for outcome, w in weights if ("orcs", 5) in outcome.models_lost
                             and ("boyz", ("engaged",)) in outcome.statuses_gained)
    assert caught_and_charged == Fraction(26, 36) * catch_and_reach
    # caught by a shorter pursuit, the boyz are not charged
    catch_short = Fraction(sum(ways(p) * sum(ways(f) for f in range(2, p + 1)) for p in range(2, 9)), 36 * 36)
    assert sum(w for outcome, w in weights if ("orcs", 5) in outcome.models_lost
               and not any(uid == "boyz" for uid, _ in outcome.statuses_gained)) == Fraction(26, 36) * catch_short


def ways(total: int) -> int:
    """How many of the 36 rolls of 2D6 make ``total``."""
    return 6 - abs(total - 7)


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("overrun, engaged", [([5, 4], True), ([4, 4], False)])
def test_an_overrun_that_reaches_a_fresh_enemy_charges_it_too(overrun: list[int], engaged: bool) -> None:
    # the 2022 text, Pursuits and Overruns: "If the Overrun Move will lead to a Charge, it will be in the Facing
    # determined at this point": the Spearmen (one Attack each) who charged slay the lone orc (T1, no save) and
    # Overrun straight up the table, 9" reaching the boyz 8.5" on, 8" not
    data = _fresh_enemy()
    for m in data["sides"]["elves"][0]["models"]:
        m["profile"] = SPEAR
    orcs = data["sides"]["orcs"][0]
    orcs["models"] = [{**orcs["models"][0], "profile": "WS3 BS3 S3 T1 W1 I2 A0 Ld7 Sv- Adv4 Mar8"}]
    g = reloading_game(data)
    events = g.apply({**FIGHT, "pursuit": {"spears": {"overrun": True}}}, ScriptedDice([6] * 16 + overrun))
    said = next(e for e in events if e.kind == "combat").message
    assert ("spears overruns 9\" straight forward, and 8.50\" on spears charges boyz" in said) == engaged, said
    assert _front_y(g) == pytest.approx(20 + GAP if engaged else 20 + GAP - 1, abs=1 / 64 + 1e-9)
    assert g.state.unit("spears").has(Status.ENGAGED) == engaged == g.state.unit("boyz").has(Status.ENGAGED)
    reloads(g)
