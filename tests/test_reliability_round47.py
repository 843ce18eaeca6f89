"""Reliability round 47 (the lead's): a plan's estimate near its budget is taken again from more paths.

``herohammer simulate examples/40k4_chaplain_combat.yaml`` (the default policy, 100,000 runs, so a budget of 100,000
rules-code runs) was estimated at 69,117 runs from ``PLAN_PATHS`` (16) random paths through the plan, within twice
the budget, so the compile was tried: it spent about 92,000 runs (10 s of CPU) on six rounds before its seventh, of
21,296 positions, was refused, and only then were the runs played as Monte Carlo games (24.7 s of CPU in all).  More
paths read it larger (64 paths: 190,878; 128: past 200,000), as a few uniform paths miss the rare wide branches
(Knuth's estimator is unbiased but skewed: most small samples read low).  Now an estimate above the budget /
``CLOSER_ZONE`` and not over it is taken again from ``CLOSER_PLAN_PATHS`` paths, the first ones kept, when the
budget affords them (``fastsim.estimate_plan``), as ``enumerate_outcomes`` sizes a single tree near its budget again:
the plan is refused from its estimate, about 9 s of CPU in all.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer import fastsim
from herohammer.dice import CLOSER_ZONE, ESTIMATE_MARGIN
from herohammer.errors import EnumerationTooLarge
from herohammer.scenario import read_data
from herohammer.simulate import Driver, prepare
from tests.test_reliability_round46 import EX

BUDGET = 100_000


def _plan(name: str) -> tuple[Any, Driver]:
    path = EX / name
    state, driver, _ = prepare(read_data(path), None, str(path))
    return state, driver


def test_the_chaplains_policy_read_low_by_a_few_paths_is_refused_from_its_estimate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state, driver = _plan("40k4_chaplain_combat.yaml")
    with monkeypatch.context() as patched:  # the reading before: 16 paths and no more
        patched.setattr(fastsim, "CLOSER_PLAN_PATHS", fastsim.PLAN_PATHS)
        few = fastsim.estimate_plan(state, driver, BUDGET)
    assert not few.too_large() and few.stopped is None
    assert BUDGET < CLOSER_ZONE * few.runs <= CLOSER_ZONE * ESTIMATE_MARGIN * BUDGET  # near the budget, not over it
    assert fastsim.CLOSER_PLAN_PATHS * few.cost <= fastsim.PLAN_PATHS * BUDGET // 2  # and the budget affords more
    state, driver = _plan("40k4_chaplain_combat.yaml")
    closer = fastsim.estimate_plan(state, driver, BUDGET)
    assert closer.too_large() and closer.runs > ESTIMATE_MARGIN * BUDGET
    assert closer.cost < BUDGET // 4  # refused for a fraction of what the compile spent before its refusal
    assert closer.stopped is not None and closer.stopped[1] == fastsim.CLOSER_PLAN_PATHS
    state, driver = _plan("40k4_chaplain_combat.yaml")
    with pytest.raises(EnumerationTooLarge) as refused:
        fastsim.compile_plan(state, driver, BUDGET)
    assert f"of {fastsim.CLOSER_PLAN_PATHS} through the plan" in refused.value.reason()


@pytest.mark.parametrize("name", ["40k3_whole_turn.yaml", "40k3_librarian_psychic.yaml"])
def test_a_plan_whose_few_paths_read_it_well_within_the_budget_is_estimated_and_compiled_as_before(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Below the budget / ``CLOSER_ZONE`` the 16 paths stand: the same estimate, and the compile gives the same exact
    odds for the same rules-code runs with the extra paths turned off."""
    state, driver = _plan(name)
    now = fastsim.estimate_plan(state, driver, BUDGET)
    assert CLOSER_ZONE * now.runs <= BUDGET
    state, driver = _plan(name)
    compiled = fastsim.compile_plan(state, driver, BUDGET)
    with monkeypatch.context() as patched:
        patched.setattr(fastsim, "CLOSER_PLAN_PATHS", fastsim.PLAN_PATHS)
        state, driver = _plan(name)
        assert fastsim.estimate_plan(state, driver, BUDGET).runs == now.runs
        state, driver = _plan(name)
        before = fastsim.compile_plan(state, driver, BUDGET)
    assert compiled.exact == before.exact and repr(compiled.outcomes) == repr(before.outcomes)
    assert compiled.rules_code_runs == before.rules_code_runs and sum(compiled.exact) == 1


def test_a_plan_just_over_a_small_budget_keeps_its_few_paths_the_budget_cannot_afford_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 40k3 whole turn's policy at a budget of 15,000: its 16 paths read it near the budget, but eight times
    what they cost is past half the budget, so they stand (a compile that small costs little to try): the same
    estimate, for the same cost, as with the extra paths turned off."""
    budget = 15_000
    state, driver = _plan("40k3_whole_turn.yaml")
    estimate = fastsim.estimate_plan(state, driver, budget)
    assert budget < CLOSER_ZONE * estimate.runs and estimate.runs <= ESTIMATE_MARGIN * budget
    assert fastsim.CLOSER_PLAN_PATHS * estimate.cost > fastsim.PLAN_PATHS * budget // 2
    assert estimate.stopped is None and not estimate.too_large()
    with monkeypatch.context() as patched:
        patched.setattr(fastsim, "CLOSER_PLAN_PATHS", fastsim.PLAN_PATHS)
        state, driver = _plan("40k3_whole_turn.yaml")
        few = fastsim.estimate_plan(state, driver, budget)
    assert (few.runs, few.cost) == (estimate.runs, estimate.cost)
