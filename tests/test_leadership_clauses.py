"""A Leadership test's result carries the clauses it rests on (reliability round 52).

The named tests the 40k engine rolls itself (Regroup, Morale, Last Man Standing, Target Priority) cited
core.test.leadership and core.test.leadership-kinds by hand at each call site (40k judge round 59); now they cite
``TestResult.clauses``, so a test's events say what the test itself is.  The ids on the events are unchanged (the
citation tests and the judge rounds hold them); here the result's own clauses, and a Regroup played both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from herohammer.checks import (LEADERSHIP_CLAUSES, LEADERSHIP_KINDS, LeadershipTestKind, characteristic_test,
                               leadership_test)
from herohammer.dice import ScriptedDice
from herohammer.game import Game

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "40k3_chaplain_falling_back.yaml"
REGROUP = {"do": "regroup", "unit": "assault_squad"}


@pytest.mark.rule("core.test.leadership", "core.test.leadership-kinds", "core.test.characteristic")
@pytest.mark.parametrize("kind", list(LeadershipTestKind))
def test_a_leadership_tests_result_cites_its_clauses_and_a_characteristic_tests_its_own(
        kind: LeadershipTestKind) -> None:
    """Every named Leadership test, passed (2D6 = 2 on Ld 8) or failed (12), cites the Leadership test and the clause
    that makes every named test one; a characteristic test cites only its own clause."""
    for faces, passed in (([1, 1], True), ([6, 6], False)):
        result = leadership_test(ScriptedDice(faces), 8, kind)
        assert result.passed is passed
        assert result.clauses == LEADERSHIP_CLAUSES == ("core.test.leadership", LEADERSHIP_KINDS)
    assert characteristic_test(ScriptedDice([3]), 4).clauses == ("core.test.characteristic",)


@pytest.mark.rule("core.test.leadership", "core.test.leadership-kinds", "published.regroup")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_regroup_cites_what_its_test_says(ruleset: str) -> None:
    """The Regroup ruling and its test's event, passed (2D6 = 2) or failed (12), cite the Regroup clause and the test
    result's clauses, each once."""
    for faces in ([1, 1], [6, 6]):
        data = Game.load(EXAMPLE).to_data()
        data["ruleset"] = ruleset
        for model in data["sides"]["blue"][0]["models"]:
            model["at"] = [model["at"][0], 30.0]
        game = Game.from_data(data)
        ruling = game.check(REGROUP)
        assert ruling.legal and set(LEADERSHIP_CLAUSES) <= set(ruling.rules)
        event = game.apply(REGROUP, dice=ScriptedDice(faces + [3] * 12))[0]
        assert event.kind == "regroup" and ("regroups" in event.message) is (faces == [1, 1])
        assert "published.regroup" in event.rules
        assert all(event.rules.count(c) == 1 for c in LEADERSHIP_CLAUSES), event.rules
