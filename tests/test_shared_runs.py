"""``simulate``'s Monte Carlo after a refused compile: the runs that stand on one position take its step together
(``fastsim.sample_shared``), drawn from the step's exact odds or played one game each; the counts keep the law of
independent games (issue 11: t9a_wizard_charges_out's 100,000 runs took about 10 minutes of CPU)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from herohammer import fastsim
from herohammer.simulate import prepare, read_demo, simulate
from herohammer.scenario import read_data

ROOT = Path(__file__).resolve().parents[1]


def _compiled_and_driver(name: str) -> tuple[fastsim.CompiledPlan, object, object]:
    state, driver, _ = prepare(read_demo(name)[0], None, name)
    return fastsim.compile_plan(state, driver, 200_000), state, driver


@pytest.mark.parametrize("name", ["demo_40k3_librarian.yaml", "demo_t9a_wizard_charges_out.yaml"])
@pytest.mark.parametrize("floor", [fastsim.SHARED_FLOOR, 10**9])  # steps drawn where they can be; every step played
def test_shared_runs_follow_the_exact_odds(name: str, floor: int) -> None:
    compiled, state, driver = _compiled_and_driver(name)
    runs = 1500 if floor > 10**6 else 40_000
    shared = fastsim.sample_shared(state, driver, runs, 11, floor=floor)  # type: ignore[arg-type]
    assert sum(shared.counts.values()) == runs
    assert (shared.played == 0) if floor == fastsim.SHARED_FLOOR else (shared.shared == 0 and shared.played > 0)
    exact = dict(zip(compiled.outcomes, compiled.exact))
    assert set(shared.counts) <= set(exact)
    for outcome, p in exact.items():
        seen = shared.counts.get(outcome, 0) / runs
        sigma = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen - float(p)) <= 5 * sigma + 1 / runs, (outcome, seen, float(p))


def test_shared_runs_same_seed_same_counts_and_another_seed_others() -> None:
    _, state, driver = _compiled_and_driver("demo_40k3_librarian.yaml")
    first = fastsim.sample_shared(state, driver, 2000, 5)  # type: ignore[arg-type]
    assert fastsim.sample_shared(state, driver, 2000, 5).counts == first.counts  # type: ignore[arg-type]
    assert fastsim.sample_shared(state, driver, 2000, 6).counts != first.counts  # type: ignore[arg-type]


def test_a_refused_compile_shares_its_steps_and_says_so() -> None:
    """The wizard charging out under the default policy is too large to compile: the charge (one position, every
    run) is drawn once from its exact odds, the estimate's enumeration taken as it is; the CLI says how."""
    path = ROOT / "examples" / "t9a_wizard_charges_out.yaml"
    result = simulate(read_data(path), 300, seed=2, source=str(path))
    assert result.meta["method"] == "engine" and result.meta["engine_reason"] == "too large"
    shared = result.meta["shared"]
    assert shared["drawn"] >= 1 and shared["nodes"] >= shared["drawn"]
    assert sum(c for _, c, _ in result.counts) == 300


def test_played_steps_say_where_they_are() -> None:
    """Most shared runs finish only in the last rounds: while steps are played one game each, the bar's words say
    which step and how many of the runs standing have played it (no bar standing still at 0 for minutes)."""
    _, state, driver = _compiled_and_driver("demo_40k3_librarian.yaml")
    said: list[str] = []
    finished: list[int] = []
    fastsim.sample_shared(state, driver, 600, 3, tick=finished.append, floor=10**9,  # type: ignore[arg-type]
                          note=said.append)
    assert sum(finished) == 600
    assert said and said[0] == "step 1, 256 of 600 runs played"
    assert all(text.startswith("step ") and text.endswith(" of 600 runs played") for text in said)
