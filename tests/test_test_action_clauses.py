"""The judge's own ``test`` action cites its test's clauses from the source the named tests use (reliability round 53).

Before, its ruling and event wrote core.test.leadership and core.test.leadership-kinds by hand, with the clauses of
the Leadership's choice between them; the named tests (Morale, Regroup, Target Priority ...) cite
``TestResult.clauses``.  Now the judge's test does too (the ruling, before any roll, ``LEADERSHIP_CLAUSES``): the same
ids, the test's own first, then what chose the value.  A characteristic test cites its result's clause.
"""

from __future__ import annotations

import pytest

from herohammer import checks
from herohammer.checks import LEADERSHIP_CLAUSES
from herohammer.dice import ScriptedDice

from _w40k import EDITIONS, game, hero, scenario, squad

LD = {"do": "test", "unit": "tac", "characteristic": "Ld"}


@pytest.mark.rule("core.test.leadership", "core.test.leadership-kinds", "core.test.leadership-choice")
@EDITIONS
def test_a_judges_leadership_test_cites_the_named_tests_clauses_first(ruleset: str) -> None:
    """A squad of Ld 8 with its Captain (Ld 10) joined: the ruling and the rolled test's event (2D6 = 9, passes on
    the Captain's 10) both begin with the Leadership clauses, as ``TestResult.clauses`` gives them, then the clause
    of the value chosen; a failed test (12) cites the same."""
    g = game(scenario(ruleset, [squad("tac", 20, 20), {**hero("cap", 26, 20), "joined": "tac"}]))
    ruling = g.check(LD)
    assert ruling.legal and ruling.rules[:2] == LEADERSHIP_CLAUSES, ruling
    clauses = checks.TestResult(True, 9, 10, "core.test.leadership").clauses
    for faces, verdict in (([4, 5], "passes"), ([6, 6], "fails")):
        event = g.copy().apply(LD, dice=ScriptedDice(faces + [6] * 10))[0]
        assert event.kind == "test" and verdict in event.message, event
        assert event.rules[:2] == clauses == LEADERSHIP_CLAUSES, event.rules
        assert set(ruling.rules) <= set(event.rules), (ruling.rules, event.rules)
        assert len(set(event.rules)) == len(event.rules)


def test_a_judges_characteristic_test_cites_its_results_clause() -> None:
    """A Strength test: a D6, its event cites core.test.characteristic first (its result's clause), as the ruling."""
    g = game(scenario("40k3", [squad("tac", 20, 20)]))
    action = {"do": "test", "unit": "tac", "characteristic": "S"}
    assert g.check(action).rules[0] == "core.test.characteristic"
    event = g.apply(action, dice=ScriptedDice([2]))[0]
    assert event.rules[0] == checks.TestResult(True, 2, 4, "core.test.characteristic").clauses[0] == "core.test.characteristic"
