"""Round 57 (docstring written last)."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import printed
from _t9a import (HERO, ORC, SPEAR, STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, offered, play_to, refused,
                  reloading_game, reloads, saved_and_loaded, scenario)
from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.units import Status

DECLARE = "t9a.charge-out.declare"
SNS_OUT = "t9a.charge-out.stand-and-shoot"
OWN_RATE = "t9a.charge-out.own-rate"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
PART = "t9a.join.part-of-unit"
LAST = "t9a.combined.last-survivor"
SHAKEN = "published.t9a-shaken"
FAILED = "published.t9a-failed-charge"
FLEE = "published.t9a-flee-reaction"
WHO_CAN_SHOOT = "published.t9a-who-can-shoot"
MOVE = "published.t9a-move"
D6 = range(1, 7)

#: The flee (2") and the charge (5" + 6 + 6 = 17") of a charge that catches the orcs who fled, 12" off.
CATCH = [1, 1, 6, 6]


def _statuses(g: Any, unit: str) -> set[str]:
    return {s.value for s in g.state.unit(unit).status}


# -- 1. a charger that catches a unit that fled is Shaken until its player turn ends -------------------------------------
def _fled() -> dict[str, Any]:
    """Ten Spearmen with bows and their Hero (a bow) in their Charge phase; the orcs fleeing 10" before their front,
    a second orc unit (orcs2) 25" off, in bow range."""
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=30, orc_status=["fleeing"],
                    hero_weapons=["bow"])
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    data["sides"]["orcs"].append({"id": "orcs2", "formation": {"position": [40, 45], "facing": 180, "files": 5},
                                  "models": [{"name": f"p{i}", "profile": ORC, "base": [25, 25]} for i in range(5)]})
    return data


@pytest.mark.rule(SHAKEN, FLEE, WHO_CAN_SHOOT, SUCCESS, NO_OTHER)
def test_a_charger_that_catches_a_unit_that_fled_is_shaken_and_does_not_shoot_that_player_turn() -> None:
    # The 2022 text, Shaken: "Under certain circumstances, models may become Shaken. The most common situations are:
    # Charging a Fleeing unit ..., Failing a Charge ..."; "A Shaken model cannot perform ... Shooting Attack"; Choose a
    # Unit and a Target: units eligible to shoot must not "Be Shaken". The Spearmen (their Hero with them) catch the
    # orcs who fled (2" flee, 17" charge): the orcs are destroyed, the Spearmen and the Hero who charged with them are
    # Shaken; a save and load keeps it; in the Shooting phase their volley at orcs2 is refused citing the Shaken clause
    # (round 45 let it shoot), none offered. An undo of the Shooting phase's start; in the orcs' player turn nobody is
    # Shaken. A Hero whose charge out catches the orcs is the charging unit: he alone is Shaken, and the Spearmen he
    # left (who charged nothing) shoot.
    g = reloading_game(_fled())
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "flee"}, ScriptedDice(CATCH))
    said = events[-1]
    assert "caught and destroyed" in said.message and "Shaken until the end of the Player Turn" in said.message, said
    assert SHAKEN in said.rules and FAILED not in said.rules, said
    assert "shaken" in _statuses(g, "spears") and "shaken" in _statuses(g, "hero")
    g = saved_and_loaded(g)
    play_to(g, "shooting", "elves")
    refused(g, {"do": "shoot", "unit": "spears", "target": "orcs2"}, SHAKEN, "caught")
    assert offered(g, "shoot") == []
    play_to(g, "charge", "orcs")
    assert "shaken" not in _statuses(g, "spears") | _statuses(g, "hero")
    reloads(g)
    g = reloading_game(_fled())
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee"}, ScriptedDice(CATCH))
    assert "moves out of spears" in events[-1].message and SHAKEN in events[-1].rules, events[-1]
    assert "shaken" in _statuses(g, "hero") and "shaken" not in _statuses(g, "spears")
    play_to(g, "movement", "elves")
    g.apply({"do": "move", "unit": "spears", "to": [[36, 24]]})
    play_to(g, "shooting", "elves")
    refused(g, {"do": "shoot", "unit": "hero", "target": "orcs2"}, SHAKEN, "caught")
    assert {a["unit"] for a in offered(g, "shoot")} == {"spears"}
