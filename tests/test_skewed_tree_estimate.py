"""A skewed chance tree goes to Monte Carlo at once, not after spending the enumeration's whole budget (session 32).

The 2022 Magic phase made a cast's casting roll branch into Fizzles, Miscasts, a Panic test and a
flee: a tree past the 200,000-run budget whose deep subtrees hide behind few branches.  Sixteen
uniform paths (``estimate_runs``) read it at 24,000-150,000 runs, so ``odds action`` enumerated for
about two minutes before giving up; a first estimate near the line is now taken again from
``CLOSER_PATHS`` paths, which read it over the budget, and the answer says so at once.
"""

from __future__ import annotations

from pathlib import Path

from herohammer.action_odds import action_odds
from herohammer.dice import CLOSER_PATHS, DEFAULT_MAX_RUNS, ESTIMATE_PATHS, SeededDice
from herohammer.game import Game
from herohammer.scenario import load_scenario

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "t9a_whole_turn.yaml"
CAST = {"do": "cast", "unit": "conclave", "spell": "Fireball", "target": "orc_archers", "dice": 3, "dispel": 2}


def test_a_cast_past_the_budget_goes_to_monte_carlo_after_the_estimates_alone() -> None:
    game = Game(load_scenario(EXAMPLE), SeededDice(1))
    for action in ({"do": "charge", "unit": "captain", "target": "orc_warriors"}, {"do": "end_phase"},
                   {"do": "end_phase"}):
        game.apply(action)
    heard: list[int] = []
    said: list[str] = []
    odds = action_odds(game.state, CAST, runs=200, walked=heard.append, notice=said.append)
    assert not odds.exact
    assert said and said[0].startswith("exact enumeration would take about") and f"budget {DEFAULT_MAX_RUNS:,}" in said[0]
    # the rules code ran for the two estimates only (their paths), never for an enumeration
    assert max(heard, default=0) <= ESTIMATE_PATHS + CLOSER_PATHS
