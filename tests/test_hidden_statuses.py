"""A compile hides statuses nothing later reads (``hidden_statuses``) and gives exactly what brute force gives.

The runs of a plan often differ in a status no later step asks about: whether a psyker failed his
test, once his power is spent.  ``fastsim.compile_plan`` hides such statuses (their presence
unknown) when a trial run reads none of them, so those runs merge; any later read raises
``StatusesRead`` and the compile goes back and plays that round again.  These tests hold the
hidden statuses' answers to every real set they stand for, and the compile to brute force, to the
compile that hides nothing, and to itself when the trial misses a read.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer import fastsim
from herohammer.hidden_statuses import HiddenStatuses, StatusesRead, hide_statuses, status_bounds
from herohammer.scenario import read_data, state_from_data
from herohammer.simulate import Outcome, make_driver
from herohammer.units import Status
from tests.test_compiled_plans import FIGHT_THEN_MOVE, brute_force, fight

LIBRARIAN = "WS5 BS4 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def scream() -> dict[str, Any]:
    """A lone 3rd edition Librarian 4" from a Boy in the Assault phase: Psychic Scream makes the Boy test morale."""
    return {"ruleset": "40k3", "phase": "assault", "active": "marines", "table": {"width": 72, "depth": 48},
            "sides": {"marines": [{"id": "librarian", "type": "infantry", "character": "independent",
                                   "rules": ["psyker"],
                                   "models": [{"name": "Librarian", "profile": LIBRARIAN, "base": 25, "at": [30, 20]}]}],
                      "orks": [{"id": "boyz", "models": [{"name": "Boy", "profile": BOY, "base": 25, "at": [30, 24]}]}]}}


#: A failed test and a passed one the Boy shrugs off differ only in the Librarian's failed test, which the turn's end
#: clears; whether the Boy falls back is read (by the outcome) and stays told apart.
SCREAM_THEN_END: list[dict[str, Any]] = [
    {"do": "manifest", "psyker": "librarian", "power": "Psychic Scream", "target": "boyz"}, {"do": "end_phase"}]


def compiled(data: dict[str, Any], plan: list[dict[str, Any]], hide: bool = True,
             blind: bool = True) -> tuple[fastsim.CompiledPlan, dict[Outcome, Fraction]]:
    state = state_from_data(data)
    result = fastsim.compile_plan(state, make_driver(state, plan), 10**6, blind=blind, hide=hide)
    return result, dict(zip(result.outcomes, result.exact))


def test_a_status_nothing_later_reads_is_hidden_and_the_odds_are_brute_forces() -> None:
    hidden, fast = compiled(scream(), SCREAM_THEN_END)
    seeing, slow = compiled(scream(), SCREAM_THEN_END, hide=False)
    assert hidden.statuses_hidden == ((1, (("librarian", ("psychic_test_failed",)),)),)
    assert seeing.statuses_hidden == ()
    assert fast == slow == brute_force(scream(), SCREAM_THEN_END)
    assert hidden.outcomes == seeing.outcomes  # the same order: the same samples
    assert any(dict(o)["librarian: falling_back"] is False and dict(o)["boyz: falling_back"] for o in fast)


def test_a_read_the_trial_missed_is_caught_and_played_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trial is made to miss every read: everything that varies is hidden, the Boy's falling back too; the
    outcome reads it, and the compile goes back and plays the round with it told apart."""
    monkeypatch.setattr(fastsim._Hiding, "_trial", lambda self, node, hide: None)
    hidden, fast = compiled(scream(), SCREAM_THEN_END)
    assert fast == brute_force(scream(), SCREAM_THEN_END)
    assert all("falling_back" not in statuses for _, hid in hidden.statuses_hidden for _, statuses in hid)


def test_missed_reads_of_statuses_and_positions_together_are_both_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both trials miss: a fight whose loser falls back, then the Boyz move (reading where they stand and whether
    they fall back); blind rounds and hidden statuses are both undone, and the odds are brute force's."""
    monkeypatch.setattr(fastsim._Hiding, "_trial", lambda self, node, hide: None)
    monkeypatch.setattr(fastsim._Rounds, "trial", lambda self, frontier: None)
    result, fast = compiled(fight("40k3"), FIGHT_THEN_MOVE)
    assert fast == brute_force(fight("40k3"), FIGHT_THEN_MOVE)
    assert result.blind_from == 2


def test_the_whole_turns_compile_hides_the_failed_psychic_test_and_gives_the_same_odds() -> None:
    """The 40k3 whole turn: 100 of the fight's 600 nodes differed only in the Librarian's failed test."""
    path = EXAMPLES / "40k3_whole_turn.yaml"
    plan = [json.loads(a) for a in re.findall(r"--action '([^']+)'", path.read_text(encoding="utf-8"))]
    data = read_data(path)
    hidden, fast = compiled(data, plan)
    seeing, slow = compiled(data, plan, hide=False)
    assert fast == slow and hidden.outcomes == seeing.outcomes
    assert ("librarian", ("psychic_test_failed",)) in [item for _, hid in hidden.statuses_hidden for item in hid]
    assert hidden.rules_code_runs < seeing.rules_code_runs


STATUSES = list(Status)
sets = st.frozensets(st.sampled_from(STATUSES), max_size=6)


@settings(max_examples=300, deadline=None)
@given(sets, sets, sets, st.data())
def test_hidden_statuses_answer_only_what_every_real_set_they_stand_for_answers_alike(
        held: frozenset[Status], unsure: frozenset[Status], other: frozenset[Status], data: st.DataObject) -> None:
    """For every real set between the bounds, an answer given is the real set's answer; any other question raises."""
    unsure = unsure - held
    hidden = HiddenStatuses.between(held, held | unsure)
    real = held | data.draw(st.frozensets(st.sampled_from(sorted(unsure)), max_size=len(unsure)) if unsure
                            else st.just(frozenset()))
    checks = [(lambda: s in hidden, lambda: s in real) for s in STATUSES]
    checks += [(lambda: hidden | other, lambda: real | other), (lambda: other | hidden, lambda: other | real),
               (lambda: hidden & other, lambda: real & other), (lambda: other & hidden, lambda: other & real),
               (lambda: hidden - other, lambda: real - other), (lambda: other - hidden, lambda: other - real),
               (lambda: hidden.isdisjoint(other), lambda: real.isdisjoint(other)),
               (lambda: hidden == other, lambda: real == other), (lambda: hidden != other, lambda: real != other)]
    for asked, truth in checks:
        try:
            answer = asked()
        except StatusesRead as read:
            assert read.statuses and read.statuses <= unsure  # only a hidden status can decide it
            continue
        expected = truth()
        if isinstance(answer, HiddenStatuses):  # a set of statuses, some still hidden: the real one lies between
            assert answer.held <= expected <= answer.held | answer.unsure
        else:
            assert answer == expected


def test_hidden_statuses_cannot_be_listed_counted_or_written_and_no_handler_swallows_it() -> None:
    hidden = HiddenStatuses.between(frozenset({Status.SHOT}), frozenset({Status.SHOT, Status.PSYCHIC_TEST_FAILED}))
    for read in (lambda: list(hidden), lambda: len(hidden), lambda: bool(hidden), lambda: repr(hidden),
                 lambda: sorted(hidden), lambda: frozenset().union(hidden), lambda: f"{hidden}"):
        with pytest.raises(StatusesRead):
            try:
                read()
            except Exception:  # what rules code might write; it must not hide the read
                pytest.fail("StatusesRead was caught as an Exception")
    assert Status.SHOT in hidden and Status.FLEEING not in hidden
    assert hidden - {Status.PSYCHIC_TEST_FAILED} == frozenset({Status.SHOT})  # settled: a plain frozenset again
    assert type(hidden | {Status.PSYCHIC_TEST_FAILED}) is frozenset


def test_units_that_differed_only_in_a_hidden_status_merge_and_settle_at_the_turns_end() -> None:
    state = state_from_data(scream())
    librarian = state.unit("librarian")
    passed = state.replace_unit(librarian.with_status(Status.USED_POWER))
    failed = state.replace_unit(librarian.with_status(Status.USED_POWER, Status.PSYCHIC_TEST_FAILED))
    hide = {"librarian": frozenset({Status.PSYCHIC_TEST_FAILED})}
    assert passed != failed and hide_statuses(passed, hide) == hide_statuses(failed, hide)
    assert hash(hide_statuses(passed, hide)) == hash(hide_statuses(failed, hide))
    after = hide_statuses(failed, hide).unit("librarian").with_status(remove=(Status.USED_POWER,
                                                                              Status.PSYCHIC_TEST_FAILED))
    assert status_bounds(after) == (frozenset(), frozenset()) and type(after.status) is frozenset
