"""The fast path of the simulator: compile a plan's chance tree once, then sample N runs with numpy.

``compile_plan`` walks a run step by step.  At each step, every distinct node (game
state, plan position, events so far) is expanded with ``dice.enumerate_outcomes``
over the driver's ``step`` - the very code an engine run calls, ``Game.apply`` and the
ruleset's resolve methods - and identical resulting nodes are merged with their exact
probabilities added.  Merging is what keeps this small: a join that is cut short and
one that is not are two nodes, whatever dice led there.  At the end each final node
becomes an outcome (``simulate.outcome_of``) and identical outcomes merge again.
A node's events so far (its tally) are read by nothing but its outcome, so each
distinct (state, plan position) is stepped once and its events added to every node
that reaches it.  Once the rest of the plan provably reads no positions (``unplaced``)
the rounds go on blind: a roll that only places models is one branch, and results
that differ only in where models stand merge.

``sample_counts`` then draws all N runs at once: one uniform double per run, located
in the cumulative float probabilities with ``numpy.searchsorted``; ``bincount`` gives
how often each outcome came up.  Floats are used only here, for sampling; the exact
Fractions stay beside the counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .dice import Dice, TreeSize, enumerate_outcomes, estimate_runs
from .errors import EnumerationTooLarge
from .outcome_labels import event_labels
from .unplaced import PositionsRead, erase_positions

if TYPE_CHECKING:
    from .simulate import Driver, Node, Outcome
    from .state import GameState

#: Runs drawn per numpy call (and per progress-bar tick); the stream is the same whatever the chunking.
CHUNK = 1 << 20
#: Nodes of a step's frontier, and random paths through each, that estimate the step before it is taken.
SIZED_NODES = 4
SIZING_PATHS = 4
#: Runs played ahead (seeded dice, as the engine plays them) before a compile, each step estimated where it stands.
LOOKAHEAD_RUNS = 2


@dataclass(frozen=True)
class CompiledPlan:
    """Hold a plan's every outcome with its exact probability, ready for sampling."""

    outcomes: tuple[Outcome, ...]
    exact: tuple[Fraction, ...]
    probabilities: np.ndarray[Any, np.dtype[np.float64]]
    rules_code_runs: int
    #: The round (plan step, from 0) after which positions were erased, if the rest of the plan read none.
    blind_from: int | None = None


def compile_plan(initial: GameState, driver: Driver, max_runs: int, progress: bool = False,
                 blind: bool = True) -> CompiledPlan:
    """Enumerate every run of the plan through the rules code; raise ``EnumerationTooLarge`` past ``max_runs``.

    Each round plays one more step from every node.  Once one trial run shows that the
    rest of the plan reads no positions, the remaining rounds are played *blind*: the
    round's rolls that only place models take one value (``positions=False``) and every
    result's positions are erased (``unplaced``), so results that differ only in where
    models stand merge.  A later step that reads a position after all proves the blind
    rounds wrong; they are dropped and played again with positions from that step on.
    ``blind=False`` keeps every position throughout (the reference the blind rounds are
    tested against).  With ``progress`` a bar on stderr counts the rules-code runs against the
    budget, so a compile that will give up shows how far it has to go.
    """
    from .simulate import _progress

    frontier: Frontier = {driver.start(initial): {(): Fraction(1)}}
    rounds = _Rounds(initial, driver, max_runs)
    blind_not_before = 0 if blind else -1
    blind_from: int | None = None
    with _progress(progress, max_runs, "compiling exact odds (rules-code runs)") as advance:
        rounds.tick = advance
        rounds.spend(_look_ahead(initial, driver, max_runs))
        while frontier:
            rounds.spend(_size_up(driver, frontier, rounds.used, max_runs, rounds.round))
            if 0 <= blind_not_before <= rounds.round:
                reads = rounds.trial(frontier)
                if reads is None:
                    blind_from = rounds.round
                    reads = rounds.try_blind(frontier)
                    if reads is None:
                        break
                    blind_from = None
                blind_not_before = reads
            frontier = rounds.play(frontier, positions=True)
    ordered = sorted(rounds.finished.items(), key=lambda kv: rounds.shown[kv[0]])  # as by repr(outcome)
    probs = np.array([float(p) for _, p in ordered], dtype=np.float64)
    return CompiledPlan(tuple(o for o, _ in ordered), tuple(p for _, p in ordered), probs, rounds.used, blind_from)


#: The runs under way: each node without its tally (state, plan position, policy memo), and the tallies
#: (events so far, sorted (label, count) pairs) of the runs that reached it, with their exact chances.
Frontier = dict["Node", dict[tuple[tuple[str, int], ...], Fraction]]


class _Rounds:
    """Play the rounds of a compile: each distinct node stepped once, its events kept apart from the runs' tallies.

    A run's tally (the events so far) is read by nothing but its outcome, so the step
    from ``(state, cursor, memo)`` is enumerated once - with an empty tally - and its
    results' tallies are added to every run that reaches it.  The outcome of a final
    state is worked out once per state, the tally appended.
    """

    def __init__(self, initial: GameState, driver: Driver, max_runs: int) -> None:
        self.initial = initial
        self.driver = driver
        self.max_runs = max_runs
        self.used = 0
        #: Told how many rules-code runs were spent, as they are (a progress bar's advance).
        self.tick: Callable[[int], None] = _no_tick
        self.round = 0
        self.finished: dict[Outcome, Fraction] = {}
        self._outcomes: dict[GameState, tuple[Outcome, str]] = {}
        #: Each outcome's ``repr``, the order of the compiled outcomes: written from its state's part, written once.
        self.shown: dict[Outcome, str] = {}
        self._erased: dict[Any, Any] = {}  # units and models already erased (erase_positions)

    def spend(self, runs: int) -> None:
        """Count rules-code runs spent outside the rounds (estimates), on the progress bar too."""
        self.used += runs
        self.tick(runs)

    def play(self, frontier: Frontier, positions: bool, erase: bool = False,
             finished: dict[Outcome, Fraction] | None = None) -> Frontier:
        """Play one more step from every node; merge equal nodes; return the next frontier.

        ``positions=False``: rolls that only place models take one value, and ``erase``
        then erases every result's positions.  Finished nodes go to ``finished``.
        """
        from .simulate import Node

        ended = self.finished if finished is None else finished
        following: Frontier = {}
        for start, reaching in frontier.items():
            if self.driver.done(start):
                part, shown = self.state_outcome(start.state)
                for tally, p in reaching.items():
                    outcome = (*part, *tally)
                    ended[outcome] = ended.get(outcome, Fraction(0)) + p
                    if outcome not in self.shown:
                        self.shown[outcome] = _tuple_repr(shown, len(part), tally)
                continue
            budget = self.max_runs - self.used
            if budget <= 0:
                raise EnumerationTooLarge(self.max_runs)
            counter = _Counted(_stepper(self.driver, start), self.tick)
            try:
                dist = enumerate_outcomes(counter, max_runs=budget, positions=positions, event_view=tally_view)
            except EnumerationTooLarge as exc:  # it was given what was left of the plan's budget: say the plan's
                spent = self.used + counter.calls
                raise EnumerationTooLarge(self.max_runs, spent + exc.estimate if exc.estimate else None) from None
            finally:
                self.used += counter.calls
            for nxt, q in dist.items():
                state = erase_positions(nxt.state, self._erased) if erase else nxt.state
                bare = Node(state, nxt.cursor, nxt.memo)
                slot = following.get(bare)
                if slot is None:
                    slot = following[bare] = {}
                for tally, p in reaching.items():
                    joined = _added(tally, nxt.tally)
                    slot[joined] = slot[joined] + p * q if joined in slot else p * q
        self.round += 1
        return following

    def state_outcome(self, state: GameState) -> tuple[Outcome, str]:
        """Return the part of an outcome a final state gives (the tally follows it) and its items' reprs joined as a
        tuple's ``repr`` joins them, worked out once per state."""
        from .simulate import state_outcome

        known = self._outcomes.get(state)
        if known is None:
            part = state_outcome(self.initial, state)
            known = self._outcomes[state] = (part, ", ".join(map(repr, part)))
        return known

    def trial(self, frontier: Frontier) -> int | None:
        """Play one run of the rest of the plan from one node, blind after this step; return the round that read a position.

        A cheap trial before a blind compile: a round that reads positions on this run
        would read them in the compile too (``None``: none did; that proves nothing yet,
        the compile checks every run).
        """
        from .dice import SeededDice

        node = next(iter(frontier))
        steps = 0
        try:
            while not self.driver.done(node):
                node = self.driver.step(node, SeededDice(steps))
                steps += 1
                if steps == 1:
                    node = replace(node, state=erase_positions(node.state))
        except EnumerationTooLarge:
            raise
        except (PositionsRead, Exception):  # an erased position was read (directly, or as some code refused it)
            return self.round + max(steps, 1)
        finally:
            self.used += steps
            self.tick(steps)
        return None

    def try_blind(self, frontier: Frontier) -> int | None:
        """Play every remaining round blind from ``frontier`` (real positions), adding up the outcomes.

        Return ``None``, or the round that read a position (the first that must see real
        ones): the blind rounds are then forgotten.
        """
        start = self.round
        finished: dict[Outcome, Fraction] = {}
        frontier = self.play(frontier, positions=False, erase=True, finished=finished)
        try:
            while frontier:
                frontier = self.play(frontier, positions=True, finished=finished)
        except EnumerationTooLarge:
            raise
        except (PositionsRead, Exception):  # an erased position was read (directly, or as some code refused it)
            failed = self.round
            self.round = start
            return failed
        for outcome, p in finished.items():
            self.finished[outcome] = self.finished.get(outcome, Fraction(0)) + p
        return None


def _tuple_repr(shown: str, items: int, more: tuple[Any, ...]) -> str:
    """Return ``repr`` of a tuple of ``items`` items whose reprs joined are ``shown``, followed by the items of
    ``more`` (what ``repr((*part, *more))`` gives, without writing ``part`` again)."""
    if more:
        shown = f"{shown}, {', '.join(map(repr, more))}" if items else ", ".join(map(repr, more))
        items += len(more)
    return f"({shown},)" if items == 1 else f"({shown})"


def _added(tally: tuple[tuple[str, int], ...], more: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Add two event tallies (sorted (label, count) pairs, no zero counts), as ``Driver.step`` counts them."""
    if not tally:
        return more
    if not more:
        return tally
    merged = dict(tally)
    for label, n in more:
        merged[label] = merged.get(label, 0) + n
    return tuple(sorted(merged.items()))


def _look_ahead(initial: GameState, driver: Driver, max_runs: int) -> int:
    """Play a few runs ahead (seeded dice, as the engine plays) and estimate every step where each run stands.

    One position's step is a part of its round, so a step that alone is far over budget
    (``TreeSize.far_over``) proves the plan too large: ``EnumerationTooLarge`` before any
    round is played, naming the step.  Its rolls that only place models count as one
    branch (the least the compile can spend on it).  A step these runs do not reach is
    estimated with its round (``_size_up``).  Return the rules-code runs this took.
    """
    from .dice import SeededDice

    spent = 0
    for seed in range(LOOKAHEAD_RUNS):
        node = driver.start(initial)
        at = 0
        while not driver.done(node):
            size = estimate_runs(_stepper(driver, node), SIZING_PATHS, positions=False)
            spent += size.cost
            if size.far_over(max_runs):
                raise EnumerationTooLarge(max_runs, size.runs, _step_words(driver, node, at))
            node = driver.step(node, SeededDice(seed))
            spent += 1
            at += 1
    return spent


def _size_up(driver: Driver, frontier: Frontier, used: int, max_runs: int, at: int) -> int:
    """Estimate the next step before taking it; raise ``EnumerationTooLarge`` at once when far over budget.

    The frontier's nodes are grouped by the step each takes next (a round of the default
    policy mixes ending a phase and fighting); a few nodes of each group, spread over it
    (at least one), have their step's chance tree estimated (``estimate_runs``, a few random
    paths, loops walked as the enumeration walks them); each group's mean times its nodes
    is its estimate.  Rolls that only place models count as one branch, as in a blind round
    (where positions are kept, the budget catches the rest: counted with their places, the
    40k3 whole turn's fall backs came to 5.3e5 for a policy that takes about 18,800 runs).
    Return the rules-code runs the estimate itself took.  The message names the step that
    weighs most (``at``: the round).
    """
    live = [node for node in frontier if not driver.done(node)]
    if not live:
        return 0
    groups: dict[str, list[Node]] = {}
    for node in live:
        groups.setdefault(_step_kind(driver, node), []).append(node)
    total = float(used)
    loops = False
    spent = 0
    heaviest = (-1.0, live[0])
    for nodes in groups.values():
        share = max(1, round(SIZED_NODES * len(nodes) / len(live)))
        sizes = [estimate_runs(_stepper(driver, node), SIZING_PATHS, positions=False)
                 for node in nodes[:: -(-len(nodes) // share)]]
        weight = sum(t.runs for t in sizes) / len(sizes) * len(nodes)
        total += weight
        loops = loops or any(t.loops for t in sizes)
        spent += sum(t.cost for t in sizes)
        heaviest = max(heaviest, (weight, nodes[0]), key=lambda wn: wn[0])
    guess = TreeSize(math.ceil(total), loops)
    if guess.far_over(max_runs):
        raise EnumerationTooLarge(max_runs, guess.runs, _step_words(driver, heaviest[1], at))
    return spent


def _step_kind(driver: Driver, node: Node) -> str:
    """Name the step a node takes next, as its action's ``do``."""
    return str(driver.choose(node).get("do", "?"))


def _step_words(driver: Driver, node: Node, at: int) -> str:
    """Say where a size was found: ``at step 5 of a run (fight: wizard)`` (``at`` counts from 0)."""
    action = driver.choose(node)
    who = next((str(action[k]) for k in ("unit", "psyker", "character") if isinstance(action.get(k), str)), None)
    return f"at step {at + 1} of a run ({action.get('do', '?')}{': ' + who if who else ''})"


def tally_view(event: Any) -> tuple[str, ...] | None:
    """What a run's tally reads of an event (``Driver.step`` counts its labels): a loop may merge carries whose events
    show the same labels (``enumerate_outcomes(event_view=...)``); an event without labels counts for nothing."""
    return tuple(labels) if (labels := event_labels(event)) else None


def _stepper(driver: Driver, node: Node) -> Callable[[Dice], Node]:
    def step(dice: Dice) -> Node:
        return driver.step(node, dice)

    return step


class _Counted:
    """Count how many times the rules code ran (each run is one path of the chance tree)."""

    def __init__(self, fn: Callable[[Dice], Node], tick: Callable[[int], None] | None = None) -> None:
        self.fn = fn
        self.calls = 0
        self.tick = _no_tick if tick is None else tick

    def __call__(self, dice: Dice) -> Node:
        self.calls += 1
        self.tick(1)
        return self.fn(dice)


def _no_tick(n: int) -> None:
    """Hear nothing of the runs spent (no progress bar)."""


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
