"""Where a Failed Charge move cut short stops: where the bases touch, not at the last clear 0.1" step.

Until session 46 ``T9AgeRules._cut_short`` went back from the roll's distance 0.1" at a time and stopped at the first
clear place, up to 0.1" short of the unit in its way ("stops short after 4.30"" where the bases touch at 4.31").  The
rulebook's move stops where its way is last clear (published.t9a-move), with bases touching, never overlapping
(published.bases-apart).  The expected distance here is worked out from the bases alone: the orcs' front edge at
y 21 moving straight down the table onto the back edge of the Hero's 20 mm base.
"""

from __future__ import annotations

import re

import pytest

from _t9a import scenario as t9a_scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.geometry import overlaps
from herohammer.scenario import state_from_data

#: Half the side of an orc's 25 mm base and of the Hero's 20 mm one, in inches.
ORC_HALF, HERO_HALF = 25 / 25.4 / 2, 20 / 25.4 / 2
CHARGE = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee"}


@pytest.mark.rule("published.t9a-failed-charge", "published.t9a-move", "published.bases-apart")
@pytest.mark.parametrize("hero_y", [16.3, 16.25, 16.333, 16.47, 16.61])
def test_a_failed_charge_move_cut_short_stops_with_the_bases_touching(hero_y: float) -> None:
    """The spearmen Flee 11" through the Hero's place; the orcs roll 5 and 2 (11" < 12"), fail, and their 5" Failed
    Charge move meets the Hero after 21 - (hero_y + his half base) inches: they stop there, the bases touching (within
    the 0.01" every placement forgives), and the event says that distance to the hundredth."""
    g = Game(state_from_data(t9a_scenario(phase="charge", joined=False, hero_at=(36, hero_y), enemy_y=21.0)))
    before = min(o.at[1] for o in g.state.unit("orcs").models)
    events = g.apply(CHARGE, dice=ScriptedDice([6, 5, 5, 2]))
    touch = 21.0 - (hero_y + HERO_HALF)  # the orcs' front edge reaches the Hero's base
    said = re.search(r"stops short after ([0-9.]+)\"", events[-1].message)
    assert said is not None, events[-1].message
    assert float(said.group(1)) == pytest.approx(touch, abs=0.005 + 1e-9), (said.group(1), touch)
    moved = before - min(o.at[1] for o in g.state.unit("orcs").models)
    assert touch - 0.002 <= moved <= touch + 0.01, (moved, touch)  # at the Hero's base, not 0.1" short of it
    hero = g.state.unit("hero").models[0]
    assert all(not overlaps(o.placed, hero.placed) for o in g.state.unit("orcs").models)


@pytest.mark.rule("published.t9a-failed-charge", "published.t9a-move")
def test_a_failed_charge_move_with_its_way_clear_goes_its_whole_distance() -> None:
    """The same charge with the Hero out of the way (far to the side): the 5" move is made whole, nothing said of
    stopping short."""
    g = Game(state_from_data(t9a_scenario(phase="charge", joined=False, hero_at=(6, 16.3), enemy_y=21.0)))
    before = min(o.at[1] for o in g.state.unit("orcs").models)
    events = g.apply(CHARGE, dice=ScriptedDice([6, 5, 5, 2]))
    assert "stops short" not in events[-1].message, events[-1].message
    assert before - min(o.at[1] for o in g.state.unit("orcs").models) == pytest.approx(5.0)
