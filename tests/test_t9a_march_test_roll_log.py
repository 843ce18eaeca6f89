"""The March Test's dice name the test they are for (session 33): the roll log said "Leadership test (Ld 9)" while the
event said March Test; the 2022 text (Moving Units) calls it "a Discipline Test, called a March Test", so the roll's
purpose names the March Test, a Discipline test, and cites published.t9a-move, its re-roll for Rally Around the Flag
the same; other Discipline tests keep their own names.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import reloading_game, scenario
from herohammer.dice import ScriptedDice

MOVE = "published.t9a-move"
BSB = "published.t9a-battle-standard"
MARCH: dict[str, Any] = {"do": "move", "unit": "spears", "to": [[29, 20]], "march": True}
LORD = "WS6 BS6 S4 T4 W3 I6 A3 Ld10 Sv4+ Adv5 Mar10"


def _data() -> dict[str, Any]:
    return scenario(phase="movement", active="elves", enemy_y=27.0)


@pytest.mark.rule(MOVE)
def test_the_march_tests_roll_names_the_march_test_and_cites_its_rule() -> None:
    g = reloading_game(_data())
    events = g.apply(MARCH, ScriptedDice([4, 5]))
    test = next(e for e in events if e.kind == "march_test")
    [roll] = test.rolls
    assert roll.purpose == "March Test, a Discipline test (Ld 9)" and roll.rule == MOVE and roll.value == 9
    assert "Leadership test" not in roll.describe() and "March Test" in roll.describe()


@pytest.mark.rule(MOVE, BSB)
def test_the_re_rolled_march_test_names_the_march_test_too() -> None:
    data = _data()
    data["sides"]["elves"].append({"id": "lord", "character": "independent", "rules": ["Battle Standard Bearer"],
                                   "models": [{"name": "Lord", "profile": LORD, "base": [20, 20], "at": [36, 10]}]})
    g = reloading_game(data)
    test = next(e for e in g.apply(MARCH, ScriptedDice([6, 6, 2, 3])) if e.kind == "march_test")
    assert [(r.purpose, r.rule, r.value) for r in test.rolls] == [
        ("March Test, a Discipline test (Ld 9)", MOVE, 12), ("March Test, a Discipline test (Ld 9)", MOVE, 5)]


@pytest.mark.rule(MOVE)
def test_a_character_marching_alone_logs_his_march_test_by_name() -> None:
    g = reloading_game(_data())
    events = g.apply({"do": "leave", "character": "hero", "to": [29, 19.6]}, ScriptedDice([6, 6]))
    [roll] = events[0].rolls
    assert roll.purpose == "March Test, a Discipline test (Ld 9)" and roll.rule == MOVE
