"""The attack sequence through play (published.attack-sequence): a volley rolls to hit, then to wound for each hit,
then a save for each wound, and each failed save is an unsaved wound; played with the judge's own dice."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import scenarios  # noqa: E402  (the benchmark positions: 10 Marines rapid-firing bolters at 10 Boyz and a Nob)


def _volley(shooters: int, ruleset: str, boy_save: str) -> Game:
    data: dict[str, Any] = scenarios.volley(shooters, ruleset)
    for model in data["sides"]["orks"][0]["models"]:
        model["profile"] = model["profile"].replace("Sv6+", boy_save)
    return Game(state_from_data(data))


@pytest.mark.rule("published.attack-sequence", "published.to-hit-bs", "published.to-wound", "published.saves")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_volley_rolls_hit_then_wound_for_each_hit_then_a_save_for_each_wound(ruleset: str) -> None:
    g = _volley(2, ruleset, "Sv4+")  # 2 Marines, 4 shots at 10": BS4 hits on 3+, S4 v T4 wounds on 4+, Sv4+ (AP5)
    hit, wound, save = [6, 3, 2, 1], [4, 1], [3]  # 2 hits; of them 1 wound; its save of 3 fails
    before = g.state
    events = g.apply({"do": "shoot", "unit": "tactical", "target": "boyz"}, dice=ScriptedDice(hit + wound + save))
    rolls = [r for e in events for r in e.rolls]
    assert [(r.request, r.faces) for r in rolls[:3]] == [("4D6 3+", (6, 3, 2, 1)), ("2D6 4+", (4, 1)),
                                                       ("1D6 4+", (3,))]
    assert [r.rule for r in rolls[:3]] == ["published.to-hit-bs", "published.to-wound", "published.saves"]
    assert len(g.state.unit("boyz").models) == 9  # the one failed save: one unsaved wound, a Boy slain
    g.undo()
    assert g.state is before
    # every save made: the wound is saved and nobody dies; no hits: nothing is rolled to wound, nor saved
    g.apply({"do": "shoot", "unit": "tactical", "target": "boyz"}, dice=ScriptedDice(hit + wound + [4]))
    assert len(g.state.unit("boyz").models) == 10
    g.undo()
    events = g.apply({"do": "shoot", "unit": "tactical", "target": "boyz"}, dice=ScriptedDice([1, 2, 1, 2]))
    assert [r.request for e in events for r in e.rolls] == ["4D6 3+"] and len(g.state.unit("boyz").models) == 10
