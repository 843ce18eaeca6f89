"""Round 58: a 9th Age judge's cases (seed 002, XX.2 Characters; the 2022 rulebook where the seed defers to it).

DOCSTRING PENDING
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from _cli import printed
from _t9a import (HERO, ORC, STILL_SPEAR, melee_scenario, offered, play_to, refused, reloading_game, reloads,
                  saved_and_loaded, scenario)
from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice

DECLARE = "t9a.charge-out.declare"
OWN_RATE = "t9a.charge-out.own-rate"
NO_OTHER = "t9a.charge-out.no-other-charges"
SUCCESS = "t9a.charge-out.success"
FAILURE = "t9a.charge-out.failure"
PART = "t9a.join.part-of-unit"
APART = "t9a.join.moved-separately"
LAST = "t9a.combined.last-survivor"
PANIC = "published.t9a-panic"
FAILED = "published.t9a-failed-charge"
WHO_CAN_SHOOT = "published.t9a-who-can-shoot"
D6 = range(1, 7)


def _statuses(g: Any, unit: str) -> set[str]:
    return {s.value for s in g.state.unit(unit).status}


# -- 1. the last survivor falls: his friend's Panic test names the unit he was ------------------------------------------
def _two_spears_in_melee() -> dict[str, Any]:
    """The orcs' Melee phase: two Spearmen and their Hero (no Attacks, W2) engaged with armed orcs; a friendly unit
    (guard) 5.2" behind them."""
    data = melee_scenario(active="orcs", n=2, orc_profile=ORC)
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("A3", "A0").replace("W3", "W2")
    data["sides"]["elves"].append({"id": "guard", "formation": {"position": [36, 14], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


@pytest.mark.rule(LAST, PANIC)
def test_the_friend_of_a_unit_whose_last_survivor_falls_tests_for_that_unit_destroyed() -> None:
    # Seed 002: a combined unit left with its character alone "is still that unit", and it is not destroyed for other
    # units' Panic tests while he lives. The 2022 Panic Test: "a friendly unit is destroyed within 6"". So when he falls
    # it is the unit, spears, that is destroyed: the guard's test must name spears (his own id, hero, names only the
    # model who was the unit's last). The orcs slay both Spearmen (the Hero holds his unit's Break test), a save and
    # load, an undo of the elves' fight; the next orc Melee phase slays him and the guard tests for "spears destroyed".
    g = reloading_game(_two_spears_in_melee())
    g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6] * 3 + [6] * 3 + [1] * 3 + [3, 3]))
    assert g.state.unit("hero").last_of == "spears"
    g = saved_and_loaded(g)
    play_to(g, "melee", "elves")
    before = g.state
    g.apply({"do": "fight", "unit": "spears"})
    g.undo()
    assert g.state == before
    g.apply({"do": "fight", "unit": "spears"})
    play_to(g, "melee", "orcs")
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6, 6, 6, 6, 1, 1, 3, 3]))
    panic = [e for e in events if e.kind == "panic"]
    assert len(panic) == 1 and LAST in panic[0].rules and PANIC in panic[0].rules, panic
    said = panic[0].message
    assert said.startswith("guard passes its Panic test for spears") and "destroyed" in said, said
    assert "last survivor" in said and "hero" in said, said
    reloads(g)


# -- 2. a character who marched with his unit is refused his shot by the unit's march ------------------------------------
def _archers(phase: str = "movement", **kw: Any) -> dict[str, Any]:
    """Ten Spearmen with bows and a Hero with a bow, the orcs 24" off."""
    data = scenario(n=10, orcs=5, phase=phase, active="elves", enemy_y=44, hero_weapons=["bow"], **kw)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    return data


@pytest.mark.rule(WHO_CAN_SHOOT, PART, APART)
def test_a_hero_who_marched_with_his_unit_is_refused_his_shot_by_its_march_not_as_moved_apart() -> None:
    # The 2022 Choose a Unit and a Target: units eligible to shoot must not "have Marched". Seed 002: once joined, the
    # character "counts as part of the unit" (t9a.join.part-of-unit): he marched because his unit did, with it. The
    # clause on moving apart (t9a.join.moved-separately) counts a character's and a unit's moves separately: it decides
    # only where they moved apart (round 57 left this). The Spearmen march 8" with their Hero: the shot is refused, and
    # the note on the Hero cites the unit's march and his being part of it, not moved-separately. A save and load; an
    # undo of the end of the Movement phase. Beside it the legal reading: a lone Hero who marches 7.77" to join the
    # Spearmen (who did not move) has marched apart, and their shot goes ahead without him, citing moved-separately.
    g = reloading_game(_archers())
    g.apply({"do": "move", "unit": "spears", "to": [[36, 28]], "march": True})
    assert {"marched"} <= _statuses(g, "hero") and {"marched"} <= _statuses(g, "spears")
    g = saved_and_loaded(g)
    before = g.state
    g.apply({"do": "end_phase"})
    g.undo()
    assert g.state == before
    play_to(g, "shooting", "elves")
    ruling = g.check({"do": "shoot", "unit": "spears", "target": "orcs"})
    assert not ruling.legal and WHO_CAN_SHOOT in ruling.rules, ruling
    assert "hero marched" in ruling.reason and "with spears" in ruling.reason, ruling
    assert PART in ruling.rules and APART not in ruling.rules, ruling
    assert not offered(g, "shoot")

    g = reloading_game(_archers(joined=False, hero_at=(36, 12)))
    said = g.apply({"do": "join", "character": "hero", "unit": "spears", "position": 0})[-1]
    assert "marched 7.77\"" in said.message and APART in said.rules, said
    play_to(g, "shooting", "elves")
    events = g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1] * 20))
    assert "hero marched this turn and does not shoot" in events[0].message and APART in events[0].rules, events
