"""The fast path of the simulator: compile a plan's chance tree once, then sample N runs with numpy.

``compile_plan`` walks a run step by step.  At each step, every distinct node (game
state, plan position, events so far) is expanded with ``dice.enumerate_outcomes``
over the driver's ``step`` - the very code an engine run calls, ``Game.apply`` and the
ruleset's resolve methods - and identical resulting nodes are merged with their exact
probabilities added.  Merging is what keeps this small: a join that is cut short and
one that is not are two nodes, whatever dice led there.  At the end each final node
becomes an outcome (``simulate.outcome_of``) and identical outcomes merge again.

``sample_counts`` then draws all N runs at once: one uniform double per run, located
in the cumulative float probabilities with ``numpy.searchsorted``; ``bincount`` gives
how often each outcome came up.  Floats are used only here, for sampling; the exact
Fractions stay beside the counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .dice import Dice, TreeSize, enumerate_outcomes, estimate_runs
from .errors import EnumerationTooLarge

if TYPE_CHECKING:
    from .simulate import Driver, Node, Outcome
    from .state import GameState

#: Runs drawn per numpy call (and per progress-bar tick); the stream is the same whatever the chunking.
CHUNK = 1 << 20
#: Nodes of a step's frontier, and random paths through each, that estimate the step before it is taken.
SIZED_NODES = 4
SIZING_PATHS = 4


@dataclass(frozen=True)
class CompiledPlan:
    """Hold a plan's every outcome with its exact probability, ready for sampling."""

    outcomes: tuple[Outcome, ...]
    exact: tuple[Fraction, ...]
    probabilities: np.ndarray[Any, np.dtype[np.float64]]
    rules_code_runs: int


def compile_plan(initial: GameState, driver: Driver, max_runs: int, progress: bool = False) -> CompiledPlan:
    """Enumerate every run of the plan through the rules code; raise ``EnumerationTooLarge`` past ``max_runs``.

    With ``progress`` a bar on stderr counts the plan's steps (states merged so far in its text).
    """
    from .simulate import _progress, outcome_of

    frontier: dict[Node, Fraction] = {driver.start(initial): Fraction(1)}
    finished: dict[Outcome, Fraction] = {}
    used = 0
    steps = len(driver.plan) + 1 if driver.plan is not None else None  # + the step that finds every run done
    with _progress(progress, steps, "compiling the chance tree (exact odds)") as advance:
        while frontier:
            used += _size_up(driver, frontier, used, max_runs)
            frontier, used = _expand(initial, driver, frontier, finished, used, max_runs, outcome_of)
            advance(1)
    ordered = sorted(finished.items(), key=lambda kv: repr(kv[0]))
    probs = np.array([float(p) for _, p in ordered], dtype=np.float64)
    return CompiledPlan(tuple(o for o, _ in ordered), tuple(p for _, p in ordered), probs, used)


def _expand(initial: GameState, driver: Driver, frontier: dict[Node, Fraction], finished: dict[Outcome, Fraction],
            used: int, max_runs: int, outcome_of: Callable[[GameState, Node], Outcome]
            ) -> tuple[dict[Node, Fraction], int]:
    """Play one more step from every node of the frontier; merge equal nodes; return the next frontier."""
    following: dict[Node, Fraction] = {}
    for node, p in frontier.items():
        if driver.done(node):
            outcome = outcome_of(initial, node)
            finished[outcome] = finished.get(outcome, Fraction(0)) + p
            continue
        budget = max_runs - used
        if budget <= 0:
            raise EnumerationTooLarge(max_runs)
        counter = _Counted(_stepper(driver, node))
        dist = enumerate_outcomes(counter, max_runs=budget)
        used += counter.calls
        for nxt, q in dist.items():
            following[nxt] = following.get(nxt, Fraction(0)) + p * q
    return following, used


def _size_up(driver: Driver, frontier: Iterable[Node], used: int, max_runs: int) -> int:
    """Estimate the next step before taking it; raise ``EnumerationTooLarge`` at once when far over budget.

    A few nodes of the frontier, spread over it, each have their step's chance tree
    estimated (``estimate_runs``, a few random paths); their mean times the frontier is the
    step's estimate.  Return the rules-code runs the estimate itself took.
    """
    live = [node for node in frontier if not driver.done(node)]
    if not live:
        return 0
    sample = live[:: -(-len(live) // SIZED_NODES)]
    counted = [_Counted(_stepper(driver, node)) for node in sample]
    sizes = [estimate_runs(c, SIZING_PATHS) for c in counted]
    guess = TreeSize(used + math.ceil(sum(t.runs for t in sizes) / len(sizes) * len(live)), any(t.loops for t in sizes))
    if guess.far_over(max_runs):
        raise EnumerationTooLarge(max_runs, guess.runs)
    return sum(c.calls for c in counted)


def _stepper(driver: Driver, node: Node) -> Callable[[Dice], Node]:
    def step(dice: Dice) -> Node:
        return driver.step(node, dice)

    return step


class _Counted:
    """Count how many times the rules code ran (each run is one path of the chance tree)."""

    def __init__(self, fn: Callable[[Dice], Node]) -> None:
        self.fn = fn
        self.calls = 0

    def __call__(self, dice: Dice) -> Node:
        self.calls += 1
        return self.fn(dice)


def sampler(probabilities: np.ndarray[Any, np.dtype[np.float64]]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Return the cumulative table ``sample_counts`` searches (the last entry pinned to 1)."""
    cum = np.cumsum(probabilities)
    cum /= cum[-1]
    cum[-1] = 1.0
    return cum


def sample_indices(cum: np.ndarray[Any, np.dtype[np.float64]], n: int, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """Draw ``n`` outcome indices at once: one uniform double per run."""
    return np.searchsorted(cum, rng.random(n), side="right")


def sample_counts(probabilities: np.ndarray[Any, np.dtype[np.float64]], runs: int, seed: int,
                  progress: bool = False) -> np.ndarray[Any, Any]:
    """Draw ``runs`` runs from the exact outcome probabilities; return how often each outcome came up."""
    from .simulate import _progress

    cum = sampler(probabilities)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    counts = np.zeros(len(cum), dtype=np.int64)
    done = 0
    with _progress(progress and runs > 4 * CHUNK, runs, "sampling runs") as advance:
        while done < runs:
            n = min(CHUNK, runs - done)
            counts += np.bincount(sample_indices(cum, n, rng), minlength=len(cum))[: len(cum)]
            done += n
            advance(n)
    return counts
