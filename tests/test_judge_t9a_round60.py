"""Round 60: DOCSTRING."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from _cli import printed
from _t9a import HERO, exact_odds_as_brute_force, offered, play_to, reloading_game, saved_and_loaded, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game

DECLARE = "t9a.charge-out.declare"
NO_OTHER = "t9a.charge-out.no-other-charges"
CHARGE = "published.t9a-charge"
PART = "t9a.join.part-of-unit"
LEAVE_WHEN = "t9a.leave.when"
RALLY = "published.t9a-rally"
LAST = "t9a.combined.last-survivor"
LONE = "t9a.char.lone"
D6 = range(1, 7)


def _refused_citing(g: Game, action: dict[str, Any], cites: set[str], not_cited: set[str], text: str) -> None:
    """The action is refused with ``text``, citing every id of ``cites`` and none of ``not_cited``; applying it
    changes nothing."""
    before = g.state
    ruling = g.check(action)
    assert not ruling.legal and text in ruling.reason, ruling
    assert cites <= set(ruling.rules) and not not_cited & set(ruling.rules), ruling
    with pytest.raises(ValueError):
        g.apply(action)
    assert g.state is before


# -- 1. a Hero whose unit charged: what refuses his charge out is his unit's charge, his own ------------------------------
@pytest.mark.xfail(strict=True, reason="refused citing t9a.charge-out.no-other-charges and t9a.join.part-of-unit "
                   "alone: not the general charge rule nor t9a.leave.when, by which he charged with his unit")
@pytest.mark.rule(CHARGE, DECLARE, PART, LEAVE_WHEN, NO_OTHER)
def test_a_hero_whose_unit_charged_is_refused_his_charge_out_for_the_charge_he_made_with_it() -> None:
    # The Spearmen charge the orcs and fail (1 1); the Hero, part of the unit for every rule (t9a.join.part-of-unit),
    # charged with it and moved with its Failed Charge Move (t9a.leave.when, round 30): a unit that has declared a
    # charge or moved this turn declares none (published.t9a-charge), and his charge out is made under the general
    # charge rules (t9a.charge-out.declare). Seed 002 also says "in the player turn when a character charges out,
    # neither the unit nor any other character in it may declare a charge": a charge out now would put the two in one
    # player turn, whichever came first, so that clause is cited beside them (decision, round 60). A save and load
    # between; before the unit's charge his charge out is legal.
    g = reloading_game(scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32))
    start = g.state
    g.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([1, 1]))
    g = saved_and_loaded(g)
    _refused_citing(g, {"do": "charge", "unit": "hero", "target": "orcs"}, {CHARGE, DECLARE, PART, LEAVE_WHEN, NO_OTHER},
                    set(), "spears charged this turn: hero, part of it, cannot declare a charge out of it")
    g = Game(start)
    assert g.check({"do": "charge", "unit": "hero", "target": "orcs"}).legal


# -- 2. a Hero whose unit rallied: his charge out is refused as part of the unit that rallied ------------------------------
@pytest.mark.xfail(strict=True, reason="a charge out refused after a Rally does not cite t9a.join.part-of-unit")
@pytest.mark.rule(RALLY, PART, DECLARE, CHARGE)
def test_a_hero_whose_unit_rallied_is_refused_his_charge_out_as_part_of_it() -> None:
    # The Spearmen and their Hero flee; in the elves' Charge phase the Rally is the unit's with him in it (2 3 against
    # the highest Discipline, his Ld 9): passing, the unit counts as having marched (published.t9a-rally), and so does
    # he, who rallied as part of it (t9a.join.part-of-unit): his charge out is refused, citing both and naming spears.
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32, spear_status=["fleeing"],
                    hero_status=["fleeing"])
    g = reloading_game(data)
    g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([2, 3]))
    g = saved_and_loaded(g)
    _refused_citing(g, {"do": "charge", "unit": "hero", "target": "orcs"}, {RALLY, PART, DECLARE, CHARGE}, set(),
                    "it rallied this turn")
    assert "spears" in g.check({"do": "charge", "unit": "hero", "target": "orcs"}).reason
