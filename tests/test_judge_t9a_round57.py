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


# -- 2. a charge out at his own rate, a Stand and Shoot on him alone ------------------------------------------------------
def _slow_spears(enemy_y: float = 31.0) -> dict[str, Any]:
    """Spearmen of Advance 3 with a Hero of Advance 6 in their Charge phase, the orcs (bows) ``enemy_y`` up the table."""
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=enemy_y,
                    spear_profile=SPEAR.replace("Adv5", "Adv3"))
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("Adv5", "Adv6")
    return data


@pytest.mark.rule(OWN_RATE, DECLARE, SNS_OUT, "published.t9a-stand-and-shoot", "published.t9a-charge")
def test_a_charge_out_is_rolled_on_his_own_advance_rate_and_a_stand_and_shoot_hits_only_him() -> None:
    # Seed 002: "При нападении из подразделения персонаж использует свою персональную Скорость наступления" and "Попадания
    # при реакции Стоять и Стрелять распределяются только на персонажа". The Hero (Advance 6) charges out of Spearmen of
    # Advance 3 at the orcs: his Charge Range is 6" + 2D6 (the unit's would be 3" + 2D6). Its exact odds equal the count
    # over the two dice of 6 + a + b >= the distance the ruling measured; the Spearmen's own charge at the same orcs on
    # 3 + 2D6 is a different count. The orcs Stand and Shoot at him: every hit is his, no Spearman slain (all 6s).
    # An undo gives the state back; a save and load between.
    g = reloading_game(_slow_spears())
    hold = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
    ruling = g.check(hold)
    assert ruling.legal and OWN_RATE in ruling.rules, ruling
    assert "11.00\" away" in ruling.reason and "Charge Range 6\" + 2D6" in ruling.reason, ruling
    far = 11.0  # the Spearmen's front (his first-rank slot) to the orcs' front: 31 - 20
    odds = action_odds(g.state, hold, summary=lambda _b, res: dict(res[1][-1].data)["outcome"])
    assert odds.exact
    got = dict(odds.weights)
    want = sum((Fraction(1, 36) for a, b in product(D6, D6) if 6 + a + b >= far - 1e-6), Fraction(0))
    assert got.get("charged", Fraction(0)) == want, (got, far)
    unit_odds = action_odds(g.state, {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"},
                            summary=lambda _b, res: dict(res[1][-1].data)["outcome"])
    unit_want = sum((Fraction(1, 36) for a, b in product(D6, D6) if 3 + a + b >= far - 1e-6), Fraction(0))
    assert dict(unit_odds.weights).get("charged", Fraction(0)) == unit_want != want
    g = saved_and_loaded(g)
    before = g.state
    sns = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    # five arrows hit (6s), two wound his T4 (6 6, then 1 1 1), both saves fail (1 1): two wounds on him, none on
    # the Spearmen; then 2 + 3: 6" + 5 = 11" reaches the orcs 11" away
    events = g.apply(sns, ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1] + [2, 3]))
    said = " | ".join(e.message for e in events)
    assert len(g.state.unit("spears").models) == 10 and g.state.unit("hero").models[0].wounds_taken == 2, said
    assert SNS_OUT in events[-1].rules and SUCCESS in events[-1].rules, said
    assert "range 11\" >= 11.00\"" in said and g.state.unit("hero").joined is None, said
    g.undo()
    assert g.state == before
