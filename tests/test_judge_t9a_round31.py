"""Round 31: a 9th Age judge's cases on characters through sequences of actions (a unit destroyed around its character,
a character slain before he strikes, a refused Duel's nominee left alone, the Break tests of several losing units),
checked against seed 002 and the 2022 rulebook text, played through Game.

Wrong rulings found (each first committed as a strict xfail, then fixed and its mark removed):

1. Several units losing one combat took their Break tests in the state's order; the rulebook gives the order to the
   losing player (published.t9a-break-test, 2022 text: "in an order chosen by the player who lost the Combat"), and it
   matters: a General whose unit breaks first flees and lends the next unit no Discipline (published.t9a-general).
   The fight now takes ``break_order`` (the losing side's units, first to test first).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from _t9a import HERO, SPEAR, STILL_ORC, STILL_SPEAR, play_to, refused, reloading_game, reloads, scenario
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.units import Status

BREAK = "published.t9a-break-test"
GENERAL = "published.t9a-general"
DUEL = "published.t9a-duel"
LAST = "t9a.combined.last-survivor"
PART = "t9a.join.part-of-unit"

BOSS_PROFILE = "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8"


def _boss(profile: str = BOSS_PROFILE, rules: list[str] | None = None, joined: str = "orcs") -> dict[str, Any]:
    return {"id": "boss", "character": "independent", "joined": joined, "rules": rules or [],
            "models": [{"name": "Boss", "profile": profile, "base": [25, 25]}]}


def _melee(active: str = "elves", **kw: Any) -> dict[str, Any]:
    kw.setdefault("spear_profile", STILL_SPEAR)
    kw.setdefault("orc_profile", STILL_ORC)
    return scenario(phase="melee", active=active, enemy_y=20, spear_status=kw.pop("spear_status", ["engaged"]),
                    orc_status=["engaged"], **kw)


# -- 1. the Break tests of several losing units: the losing player's order -------------------------------------------
def _two_losers() -> dict[str, Any]:
    """Ten Spearmen (one rank, charged this turn: +1) against two units of two orcs (Ld 5), the first joined by the orc
    General (Ld 9); nobody has an Attack, so the orcs lose by 1 and each unit takes a Break test at -1."""
    data = _melee(n=10, orcs=2, spear_status=["engaged", "charged"], orc_profile=STILL_ORC.replace("Ld7", "Ld5"))
    data["sides"]["elves"][0]["formation"]["files"] = 10
    first = data["sides"]["orcs"][0]
    first["formation"]["position"] = [34, 20]
    second = copy.deepcopy(first)
    second["id"] = "orcs2"
    second["formation"]["position"] = [38, 20]
    for m in second["models"]:
        m["name"] = "p" + m["name"]
    data["sides"]["orcs"] += [second, _boss(BOSS_PROFILE.replace("A3", "A0").replace("Ld8", "Ld9"), ["General"])]
    return data


#: orcs (the General's unit) 6 6: breaks, flees 3 3, pursuit 1 1 (escapes); then orcs2 4 4: 8
GENERAL_FIRST = [6, 6, 3, 3, 1, 1, 4, 4, 2, 2, 1, 1]
#: orcs2 4 4: 8, on the General's Ld 9 - 1 holds; then orcs 6 6 breaks, flees 3 3, pursuit 1 1
GENERAL_LAST = [4, 4, 6, 6, 3, 3, 1, 1]


@pytest.mark.rule(BREAK, GENERAL)
def test_break_tests_in_the_default_order_the_generals_unit_breaking_first_lends_nothing_after() -> None:
    g = reloading_game(_two_losers())
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice(GENERAL_FIRST))
    told = next(e for e in events if e.kind == "break")
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks" in told.message, told.message
    # the General flees with his unit: the second unit tests on its own Ld 5 - 1 and breaks on 8
    assert "orcs2 takes a Break test on Ld 5 (po0) -1: 8, breaks" in told.message, told.message
    reloads(g)


@pytest.mark.rule(BREAK, GENERAL)
def test_the_losing_player_chooses_the_order_of_the_break_tests() -> None:
    g = reloading_game(_two_losers())
    fight = {"do": "fight", "unit": "spears", "break_order": ["orcs2", "orcs"]}
    ruling = g.check(fight)
    assert ruling.legal, ruling
    events = g.apply(fight, ScriptedDice(GENERAL_LAST))
    told = next(e for e in events if e.kind == "break")
    assert told.message.index("orcs2 takes") < told.message.index("orcs takes"), told.message
    assert "orcs2 takes a Break test on Ld 9 (Boss) -1: 8, holds" in told.message
    assert "orcs takes a Break test on Ld 9 (Boss) -1: 12, breaks" in told.message
    assert BREAK in told.rules and GENERAL in told.rules
    assert g.state.unit("orcs2").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(BREAK)
@pytest.mark.parametrize("order, why", [
    (["orcs2", "guards"], "guards is not a unit of this combat"),
    (["orcs2", "orcs2"], "orcs2 is named twice"),
    (["boss"], "boss is part of orcs"),
])
def test_a_break_order_naming_a_unit_outside_the_combat_twice_or_a_joined_character_is_refused(
        order: list[str], why: str) -> None:
    data = _two_losers()
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [10, 40], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    g = reloading_game(data)
    refused(g, {"do": "fight", "unit": "spears", "break_order": order}, BREAK, why)


@pytest.mark.rule(BREAK, GENERAL)
def test_the_odds_of_the_second_unit_holding_follow_the_chosen_order_exactly() -> None:
    """Brute force over every die: orcs2 holds with the General's Ld 9 - 1 when it tests first."""
    g = reloading_game(_two_losers())
    rules = get_ruleset("t9a")
    state = g.state

    def holds(order: list[str]) -> Fraction:
        act = rules.named_now(state, parse_action({"do": "fight", "unit": "spears", "break_order": order}))
        odds = enumerate_outcomes(lambda dice: rules.resolve(state, act, dice)[0].unit("orcs2").has(Status.ENGAGED))
        return odds.get(True, Fraction(0))

    pass8 = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 8), 36)
    pass4 = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 4), 36)
    assert holds(["orcs2", "orcs"]) == pass8
    # tested second, it has the General only when the General's unit held (pursuit ignored: a held unit stays)
    assert holds(["orcs", "orcs2"]) == pass8 * pass8 + (1 - pass8) * pass4
