"""Round 54: a 9th Age judge's cases (work in progress)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from _t9a import (HERO, STILL_ORC, STILL_SPEAR, offered, play_to, refused, reloading_game, reloads, saved_and_loaded,
                  scenario)
from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.units import Status

SWIFT = "published.t9a-swiftstride"
OWN_RATE = "t9a.charge-out.own-rate"
DECLARE = "t9a.charge-out.declare"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
D6 = range(1, 7)
SRC = str(Path(__file__).resolve().parents[1] / "src")


def _cli(*args: str) -> str:
    """Run the command line on this tree's sources and return what it printed."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "herohammer", *args], capture_output=True, text=True, env=env,
                          timeout=300, check=True)
    return done.stdout


def _charge_dice(events: list[Any]) -> list[int]:
    return [f for e in events for r in e.rolls if "charge die" in r.purpose for f in r.faces]


# -- 1. the Charge Range a ruling gives a charger with Swiftstride ------------------------------------------------------
def _swift_spears(tmp_path: Path | None = None) -> dict[str, Any]:
    """Ten Spearmen with Swiftstride and their Hero without it, orcs 12" ahead (no Stand and Shoot), the elves'
    Charge phase."""
    return scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32, spear_rules=["Swiftstride"])


@pytest.mark.rule(OWN_RATE, SWIFT, DECLARE, "published.t9a-charge")
def test_a_charge_out_with_the_units_swiftstride_is_ruled_on_three_dice_and_its_odds_are_the_dice(
        tmp_path: Path) -> None:
    # The Hero lacks Swiftstride; the Spearmen have it. Charging out, he "may use charge bonuses that applied to the
    # unit it left" (seed 002): he rolls 3D6 and drops the lowest (published.t9a-swiftstride), and the resolution does
    # (round 28). The ruling a judge reads before the dice must say so: "5\" + 3D6, the lowest discarded", citing the
    # Swiftstride rule and the seed's clause, and naming whose bonus it is. The Spearmen's own charge with him in
    # them rolls the plain 2D6 (he lacks the rule: a unit has it only when every model does), and its ruling says why.
    g = reloading_game(_swift_spears())
    charge = {"do": "charge", "unit": "hero", "target": "orcs"}
    ruling = g.check(charge)
    assert ruling.legal and "5\" + 3D6, the lowest discarded" in ruling.reason, ruling
    assert SWIFT in ruling.rules and OWN_RATE in ruling.rules, ruling
    assert any("spears's Swiftstride" in n and OWN_RATE in n for n in ruling.notes), ruling
    unit_ruling = g.check({"do": "charge", "unit": "spears", "target": "orcs"})
    assert unit_ruling.legal and "5\" + 2D6" in unit_ruling.reason and SWIFT in unit_ruling.rules, unit_ruling
    assert any("hero lacks Swiftstride" in n for n in unit_ruling.notes), unit_ruling
    # the command line's check says the same
    path = tmp_path / "swift.yaml"
    path.write_text(yaml.safe_dump(_swift_spears()))
    said = _cli("check", str(path), "--action", json.dumps(charge))
    assert said.startswith("LEGAL") and "3D6, the lowest discarded" in said and SWIFT in said, said
    # exact odds: 12" to reach on 5" + the two highest of three dice; failed, the Failed Charge move is the highest
    # die, and only a 1 leaves him 0.21" from his neighbours: he stays and the unit is Shaken
    want: dict[str, Fraction] = {}
    for dice in product(D6, repeat=3):
        top = sorted(dice, reverse=True)
        outcome = "charged" if 5 + top[0] + top[1] >= 12 else ("failed_left" if top[0] >= 2 else "failed_stayed_shaken")
        want[outcome] = want.get(outcome, Fraction(0)) + Fraction(1, 216)
    assert want == {"charged": Fraction(29, 36), "failed_left": Fraction(41, 216),
                    "failed_stayed_shaken": Fraction(1, 216)}
    odds = json.loads(_cli("odds", "action", str(path), "--action", json.dumps(charge), "--json", "--quiet"))
    assert odds["result"]["exact"] and SWIFT in odds["rules"], odds
    rows = odds["result"]["rows"]
    assert {k.split(": ")[1]: Fraction(v) for k, v in rows.items() if k.startswith("charge.outcome")} == want, rows
    # played: 1 1 1 is the only stay; 2 2 6 reaches (6 + 2 + 5 = 13)
    events = g.apply(charge, ScriptedDice([1, 1, 1]))
    assert _charge_dice(events) == [1, 1, 1] and g.state.unit("spears").has(Status.SHAKEN), events[-1].message
    g.undo()
    events = g.apply(charge, ScriptedDice([2, 2, 6]))
    assert SUCCESS in events[-1].rules and g.state.unit("hero").has(Status.ENGAGED), events[-1].message


# -- 2. Stand and Shoot against a character charging out: his own Advance Rate, every hit his --------------------------
FAST_HERO = HERO.replace("Adv5 Mar10", "Adv7 Mar14")
SNS = "published.t9a-stand-and-shoot"
OUT_SNS = "t9a.charge-out.stand-and-shoot"


def _fast_hero(enemy_y: float) -> dict[str, Any]:
    """The Spearmen (Advance 5) with a Hero of Advance 7, orc archers ``enemy_y - 20``" ahead, the elves' Charge
    phase."""
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=enemy_y)
    data["sides"]["elves"][1]["models"][0]["profile"] = FAST_HERO
    return data


@pytest.mark.rule(OWN_RATE, OUT_SNS, SNS, DECLARE)
def test_stand_and_shoot_at_a_character_charging_out_is_ruled_by_his_own_rate_and_says_every_hit_is_his() -> None:
    # The orcs stand 6" ahead. Charging out, the Hero uses his own Advance Rate (seed 002: "свою персональную Скорость
    # наступления"), 7": he starts no farther than it, so the orcs may not Stand and Shoot (published.t9a-stand-and-
    # shoot) - a refusal decided by the seed's clause, which it must cite and say. The whole Spearmen charging the
    # same orcs move at their slowest Advance Rate, 5": 6" is farther, Stand and Shoot allowed. Ten inches away
    # (another table) the Hero may be stood and shot at, and the ruling says what the seed says of it: every hit is
    # his (t9a.charge-out.stand-and-shoot), as the resolution already does.
    g = reloading_game(_fast_hero(26))
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    refused(g, charge, OWN_RATE, "not farther than his own Advance Rate (7\")")
    assert SNS in g.check(charge).rules
    ruling = g.check({"do": "charge", "unit": "hero", "target": "orcs"})
    assert ruling.legal and "7\" + 2D6" in ruling.reason and OWN_RATE in ruling.rules, ruling
    unit = g.check({**charge, "unit": "spears"})
    assert unit.legal and SNS in unit.rules and OWN_RATE not in unit.rules, unit
    far = reloading_game(_fast_hero(30))
    ruling = far.check(charge)
    assert ruling.legal and SNS in ruling.rules and OUT_SNS in ruling.rules, ruling
    assert "every hit on hero" in ruling.reason, ruling
    # played: five arrows at 5+ (BS 3, -1 to Stand and Shoot), two hit, both wound his T4 on 5+, one save of 4+
    # fails: one wound on the Hero, nothing on the Spearmen; 7 + 1 + 2 = 10 reaches
    events = far.apply(charge, ScriptedDice([5, 6, 1, 1, 1, 5, 6, 4, 1, 1, 2]))
    assert OUT_SNS in events[-1].rules and SUCCESS in events[-1].rules, events[-1]
    assert far.state.unit("hero").models[0].wounds_taken == 1 and len(far.state.unit("spears").models) == 10


@pytest.mark.rule(OWN_RATE, OUT_SNS, SNS)
def test_orcs_that_stand_and_shoot_unasked_are_ruled_on_for_a_character_charging_out() -> None:
    # The same orcs with the Stand and Shoot rule take it unasked (published.t9a-stand-and-shoot): the ruling on the
    # Hero's charge out names no reaction, and says what the reaction will be: at 6" none (his own 7" Advance Rate),
    # at 10" a Stand and Shoot whose every hit is his. legal_actions offers the Hold beside it only where the
    # Stand and Shoot may be taken.
    for enemy_y, said, cited in ((26, "not farther than his own Advance Rate (7\"): it Holds", OWN_RATE),
                                 (30, "every hit of a Stand and Shoot at him is his", OUT_SNS)):
        data = _fast_hero(enemy_y)
        data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
        g = reloading_game(data)
        ruling = g.check({"do": "charge", "unit": "hero", "target": "orcs"})
        assert ruling.legal and cited in ruling.rules and SNS in ruling.rules, ruling
        assert len(set(ruling.rules)) == len(ruling.rules) and any(said in n for n in ruling.notes), ruling
        holds = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
        assert (holds in offered(g, "charge")) == (enemy_y == 30)
