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
that differ only in where models stand merge.  Statuses that tell nodes apart but that
nothing later reads are hidden likewise (``hidden_statuses``, ``_Hiding``), and those
nodes merge.

``sample_counts`` then draws all N runs at once: one uniform double per run, located
in the cumulative float probabilities with ``numpy.searchsorted``; ``bincount`` gives
how often each outcome came up.  Floats are used only here, for sampling; the exact
Fractions stay beside the counts.
"""

from __future__ import annotations

import math
import random
from operator import itemgetter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .dice import CLOSER_PATHS, CLOSER_ZONE, ESTIMATE_MARGIN, Budget, Dice, TreeSize, enumerate_within, estimate_runs
from .collector import with_fewer_collections
from .errors import EnumerationTooLarge, about
from .hidden_statuses import StatusesRead, hide_statuses, unsettled
from .outcome_labels import event_labels
from .unplaced import PositionsRead, erase_positions

if TYPE_CHECKING:
    from .distribution import Distribution
    from .simulate import Driver, Node, Outcome
    from .state import GameState
    from .units import Status

#: Runs drawn per numpy call (and per progress-bar tick); the stream is the same whatever the chunking.
CHUNK = 1 << 20
#: Nodes of a step's frontier, and random paths through each, that estimate the step before it is taken.
SIZED_NODES = 4
SIZING_PATHS = 4
#: Random paths through the plan (each step enumerated where the path stands, one of its distinct results drawn
#: uniformly to go on) whose rounds, added up, estimate the whole compile before it starts (``estimate_plan``).
PLAN_PATHS = 16
#: An estimate from ``PLAN_PATHS`` paths above the budget / ``CLOSER_ZONE`` (and not over it already) is taken again
#: from this many paths, the first ones kept, as ``enumerate_outcomes`` sizes a tree near its budget again.  Why: a plan
#: whose runs branch wide behind a few likely results fools a few uniform paths.  The 40k4 Chaplain example's default
#: policy read 69,117 runs from 16 paths, 64,614 from 32, 190,878 from 64 and over 200,000 from 128; its compile then
#: spent 92,000 of its 100,000 runs (10 s) before its round of 21,296 positions was refused (session 47).
CLOSER_PLAN_PATHS = 128
#: Runs played ahead (seeded dice, as the engine plays them) before a compile, each step sized where it stands.
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
    #: The rounds before which statuses were hidden and merged nodes (``_Hiding``), each with the statuses hidden:
    #: (round, ((unit id, (status, ...)), ...)).
    statuses_hidden: tuple[tuple[int, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()


@with_fewer_collections
def compile_plan(initial: GameState, driver: Driver, max_runs: int, progress: bool = False,
                 blind: bool = True, keep: dict[tuple[Node, bool], Distribution[Node]] | None = None,
                 hide: bool = True) -> CompiledPlan:
    """Enumerate every run of the plan through the rules code; raise ``EnumerationTooLarge`` past ``max_runs``.

    Each round plays one more step from every node.  Once one trial run shows that the
    rest of the plan reads no positions, the remaining rounds are played *blind*: the
    round's rolls that only place models take one value (``positions=False``) and every
    result's positions are erased (``unplaced``), so results that differ only in where
    models stand merge.  A later step that reads a position after all proves the blind
    rounds wrong; they are dropped and played again with positions from that step on.
    ``blind=False`` keeps every position throughout (the reference the blind rounds are
    tested against).  Likewise, before each round, statuses some nodes hold and others do not
    are hidden (``hidden_statuses``) when a trial run shows that nothing after reads them, so
    those nodes merge; a later read undoes the hiding (``_Hiding``); ``hide=False`` never hides.
    With ``progress`` a bar on stderr counts the rules-code runs against the
    budget, so a compile that will give up shows how far it has to go.  Before the first round
    the whole compile is estimated (``estimate_plan``): a plan far over budget, by one step or by
    its rounds added up, raises at once, naming the step that weighs most; the steps the estimate
    enumerated are taken by the rounds as they are (and copied into ``keep``, for ``sample_shared`` after a refusal).  Every run of the rules code counts, a loop's
    steps too (``dice.Budget``), in the budget and in ``rules_code_runs``.
    """
    from .simulate import _progress

    frontier: Frontier = {driver.start(initial): {(): Fraction(1)}}
    rounds = _Rounds(initial, driver, max_runs)
    seeing = _Blind(0 if blind else -1)
    hiding = _Hiding(rounds) if hide else None
    with _progress(progress, max_runs, "compiling exact odds (rules-code runs)") as advance:
        rounds.tick = advance
        ahead = estimate_plan(initial, driver, max_runs, advance)
        rounds.used += ahead.cost
        rounds.known = ahead.known
        if keep is not None:
            keep.update(ahead.known)
        if ahead.too_large():
            raise ahead.refusal()
        while frontier:
            try:
                if hiding is not None:
                    frontier = hiding.hidden(frontier, seeing)
                if seeing.since is None:  # the blind rounds are played without sizing each, as they were tried
                    rounds.spend(_size_up(driver, frontier, rounds.used, max_runs))
                    if 0 <= seeing.not_before <= rounds.round:
                        reads = rounds.trial(frontier)
                        if reads is None:  # blind from here on, unless a round reads a position after all
                            seeing = _Blind(seeing.not_before, rounds.round, rounds.snapshot(frontier),
                                            0 if hiding is None else len(hiding.saved))
                        else:
                            seeing = _Blind(reads)
                first_blind = seeing.since == rounds.round  # places one branch; its results' positions erased
                frontier = rounds.play(frontier, positions=not first_blind, erase=first_blind)
            except StatusesRead as read:
                assert hiding is not None  # nothing hides statuses otherwise
                frontier, seeing = hiding.undone(read)
            except EnumerationTooLarge:
                raise
            except (PositionsRead, Exception):  # a blind round read an erased position (or some code refused it)
                if seeing.at is None:
                    raise
                failed, frontier = rounds.round, rounds.back_to(seeing.at)
                if hiding is not None:
                    del hiding.saved[seeing.hidden:]
                seeing = _Blind(failed)  # played with positions up to the round that read one
    ordered = rounds.outcomes()
    probs = np.array([float(p) for _, p in ordered], dtype=np.float64)
    hid = () if hiding is None else tuple(
        (saved.at.round, tuple((uid, tuple(sorted(s.value for s in held)))
                               for uid, held in sorted(saved.statuses.items())))
        for saved in hiding.saved)
    return CompiledPlan(tuple(o for o, _ in ordered), tuple(p for _, p in ordered), probs, rounds.used, seeing.since,
                        hid)


#: A run's events so far: sorted (label, count) pairs.
Tally = tuple[tuple[str, int], ...]
#: The runs under way: each node without its tally (state, plan position, policy memo), and the tallies of the runs
#: that reached it, with their exact chances.
Frontier = dict["Node", dict[Tally, Fraction]]
_FIRST = itemgetter(0)


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
        #: The runs finished, by their final state's part of the outcome (its index in ``_parts``) and their tally.
        self.finished: dict[tuple[int, Tally], Fraction] = {}
        #: Each final state's part of the outcome, by its index (``state_outcome``), worked out once per state.
        self._outcomes: dict[GameState, int] = {}
        #: The distinct parts of outcomes, each with its items' reprs joined, and their indices.
        self._parts: list[tuple[Outcome, str]] = []
        self._part_index: dict[Outcome, int] = {}
        self._erased: dict[Any, Any] = {}  # units and models already erased (erase_positions)
        #: Steps the plan's estimate already enumerated (``PlanEstimate.known``): a round takes them as they are, their
        #: runs counted once, where the estimate spent them.
        self.known: dict[tuple[Node, bool], Distribution[Node]] = {}

    def spend(self, runs: int) -> None:
        """Count rules-code runs spent outside the rounds (estimates), on the progress bar too."""
        self.used += runs
        self.tick(runs)

    def play(self, frontier: Frontier, positions: bool, erase: bool = False) -> Frontier:
        """Play one more step from every node; merge equal nodes; return the next frontier.

        ``positions=False``: rolls that only place models take one value, and ``erase``
        then erases every result's positions.  Finished nodes go to ``finished``.
        """
        from .simulate import Node

        ended = self.finished
        following: Frontier = {}
        for start, reaching in frontier.items():
            if self.driver.done(start):
                part = self.state_outcome(start.state)
                for tally, p in reaching.items():
                    key = (part, tally)
                    before = ended.get(key)
                    ended[key] = p if before is None else before + p
                continue
            known = self.known.pop((start, not positions), None) if positions != erase else None
            if known is not None:
                dist = known
            else:
                left = self.max_runs - self.used
                if left <= 0:
                    raise EnumerationTooLarge(self.max_runs)
                budget = Budget(left, self.tick)  # every run counted, a loop's steps too
                try:
                    dist = enumerate_within(_stepper(self.driver, start), budget, positions, tally_view)
                except EnumerationTooLarge as exc:  # it was given what was left of the plan's budget: say the plan's
                    spent = self.used + budget.runs
                    raise EnumerationTooLarge(self.max_runs, spent + exc.estimate if exc.estimate else None,
                                              f"at {_step_words(self.driver, start)}") from None
                finally:
                    self.used += budget.runs
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

    def state_outcome(self, state: GameState) -> int:
        """Return the part of an outcome a final state gives (the tally follows it), as its index in ``_parts``:
        worked out once per state, its items' reprs joined once per part (as a tuple's ``repr`` joins them)."""
        from .simulate import state_outcome

        known = self._outcomes.get(state)
        if known is None:
            part = state_outcome(self.initial, state)
            known = self._part_index.get(part)
            if known is None:
                known = self._part_index[part] = len(self._parts)
                self._parts.append((part, ", ".join(map(repr, part))))
            self._outcomes[state] = known
        return known

    def snapshot(self, frontier: Frontier) -> _Snapshot:
        """Keep what the rounds have before playing ``frontier``'s round, to play it again (``back_to``)."""
        return _Snapshot(self.round, frontier, dict(self.finished))

    def back_to(self, snapshot: _Snapshot) -> Frontier:
        """Go back to a snapshot's round, the runs finished then as they were; return its frontier."""
        self.round, self.finished = snapshot.round, dict(snapshot.finished)
        return snapshot.frontier

    def outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """Return the finished runs' outcomes (their final state's part, then their tally) with their exact chances,
        ordered by ``repr`` (the order the samples are drawn in).  Every part has one length (one item per unit and
        label of the initial state), so each outcome comes from one (part, tally) pair: each is built once, here."""
        reprs: dict[Any, str] = {}  # each tally item's repr, written once: thousands of outcomes share them
        shown = []
        for (index, tally), p in self.finished.items():
            part, written = self._parts[index]
            shown.append((_tuple_repr(written, len(part), tally, reprs), (*part, *tally), p))
        shown.sort(key=_FIRST)
        return [(outcome, p) for _, outcome, p in shown]

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
                steps += 1  # a step that reads an erased position ran too: it is counted
                node = self.driver.step(node, SeededDice(steps - 1))
                if steps == 1:
                    node = replace(node, state=erase_positions(node.state))
        except EnumerationTooLarge:
            raise
        except (PositionsRead, Exception):  # an erased position was read (directly, or as some code refused it)
            return self.round + max(steps - 1, 1)
        finally:
            self.used += steps
            self.tick(steps)
        return None


@dataclass(frozen=True)
class _Snapshot:
    """What a compile had before a round it may have to play again (``_Rounds.snapshot``, ``_Rounds.back_to``)."""

    round: int
    frontier: Frontier
    finished: dict[tuple[int, Tally], Fraction]


@dataclass(frozen=True)
class _Blind:
    """Where a compile stands with blind rounds (``unplaced``): not before round ``not_before`` (-1: never), or blind
    since round ``since``, with what it had then (``at``, and how many hidings of statuses stood: ``_Hiding.saved``),
    to play that round again with positions should a blind round read one."""

    not_before: int
    since: int | None = None
    at: _Snapshot | None = None
    hidden: int = 0


@dataclass(frozen=True)
class _Hidden:
    """What a compile had when it hid statuses before a round (``_Hiding``): enough to play that round again."""

    at: _Snapshot
    #: The blind rounds' state then.
    blind: _Blind
    #: The statuses hidden, per unit id.
    statuses: dict[str, frozenset[Status]]


class _Hiding:
    """Hide, before each round, the statuses that tell the frontier's nodes apart when nothing after reads them
    (``hidden_statuses``), so those nodes merge; undo it when a later round reads one after all.

    That nothing reads them is not declared anywhere; it is tried, then checked.  The trial is one seeded run of the
    rest of the plan from one node with them hidden, its outcome included.  A status that run reads is not hidden
    before the round after the one that read it, and the trial is made again without it.  The trial proves nothing
    for the other runs: every round of the compile that reads a hidden status raises ``StatusesRead``, and the
    compile goes back to the round that hid it (the frontier, the finished outcomes and the blind rounds' state as
    they were then), that status barred until after the round that read it.
    """

    def __init__(self, rounds: _Rounds) -> None:
        self.rounds = rounds
        #: The first round each status may be hidden before (a run read it in the round before).
        self.barred: dict[Status, int] = {}
        self.saved: list[_Hidden] = []
        self._units: dict[Any, Any] = {}  # units already hidden (``hide_statuses``)

    def hidden(self, frontier: Frontier, blind: _Blind) -> Frontier:
        """Return the frontier with what may be hidden hidden and its nodes merged (itself when nothing would
        merge); remember how to undo it."""
        if len(frontier) < 2:
            return frontier
        now = self.rounds.round
        hide = self._allowed(unsettled(node.state for node in frontier), now)
        while hide:
            read = self._trial(next(iter(frontier)), hide)
            if read is None:
                break
            statuses, at = read
            self._bar(statuses, at)
            hide = self._allowed(hide, now)
        if not hide:
            return frontier
        merged = self._merged(frontier, hide)
        if len(merged) == len(frontier):
            return frontier
        self.saved.append(_Hidden(self.rounds.snapshot(frontier), blind, hide))
        return merged

    def undone(self, read: StatusesRead) -> tuple[Frontier, _Blind]:
        """Go back to the round that hid what ``read`` read; return its frontier and blind rounds' state then."""
        at = next((i for i, saved in enumerate(self.saved)
                   if any(statuses & read.statuses for statuses in saved.statuses.values())), None)
        if at is None:  # only the compile hides statuses: a read of others is not this compile's
            raise read
        saved = self.saved[at]
        del self.saved[at:]
        self._bar(read.statuses, self.rounds.round)
        return self.rounds.back_to(saved.at), saved.blind

    def _allowed(self, statuses: dict[str, frozenset[Status]], now: int) -> dict[str, frozenset[Status]]:
        barred = self.barred
        allowed = {uid: frozenset(s for s in held if barred.get(s, 0) <= now) for uid, held in statuses.items()}
        return {uid: held for uid, held in allowed.items() if held}

    def _bar(self, statuses: frozenset[Status], read_in: int) -> None:
        for status in statuses:
            self.barred[status] = max(self.barred.get(status, 0), read_in + 1)

    def _trial(self, node: Node, hide: dict[str, frozenset[Status]]) -> tuple[frozenset[Status], int] | None:
        """Play one seeded run of the rest of the plan from ``node`` with ``hide`` hidden, its outcome included;
        return what it read and in which round, or ``None``."""
        from .dice import SeededDice
        from .simulate import state_outcome

        rounds, driver = self.rounds, self.rounds.driver
        node = replace(node, state=hide_statuses(node.state, hide, self._units))
        steps = 0
        try:
            while not driver.done(node):
                steps += 1
                node = driver.step(node, SeededDice(steps - 1))
            state_outcome(rounds.initial, node.state)
        except StatusesRead as read:
            return read.statuses, rounds.round + max(steps - 1, 0)
        except EnumerationTooLarge:
            raise
        except Exception:  # some code refused what it made of them: none is hidden before the next round
            return frozenset().union(*hide.values()), rounds.round
        finally:
            rounds.spend(steps)
        return None

    def _merged(self, frontier: Frontier, hide: dict[str, frozenset[Status]]) -> Frontier:
        from .simulate import Node

        merged: Frontier = {}
        for node, reaching in frontier.items():
            bare = Node(hide_statuses(node.state, hide, self._units), node.cursor, node.memo)
            slot = merged.get(bare)
            if slot is None:
                merged[bare] = dict(reaching)
                continue
            for tally, p in reaching.items():
                slot[tally] = slot[tally] + p if tally in slot else p
        return merged


def _tuple_repr(shown: str, items: int, more: tuple[Any, ...], reprs: dict[Any, str]) -> str:
    """Return ``repr`` of a tuple of ``items`` items whose reprs joined are ``shown``, followed by the items of
    ``more`` (what ``repr((*part, *more))`` gives, without writing ``part`` again); ``reprs`` keeps the reprs of
    ``more``'s items already written."""
    if more:
        written = []
        for item in more:
            text = reprs.get(item)
            if text is None:
                text = reprs[item] = repr(item)
            written.append(text)
        joined = ", ".join(written)
        shown = f"{shown}, {joined}" if items else joined
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


@dataclass
class PlanEstimate:
    """What the random paths through a plan found (``estimate_plan``): the compile's rules-code runs, its rounds added
    up, where most of them are, and what finding it cost."""

    max_runs: int
    #: The rounds added up, averaged over the paths (Knuth's estimator over the plan).
    runs: int
    #: Rules-code runs the estimate took (the steps' estimates, the steps it enumerated): the compile counts them.
    cost: int
    #: Each step's share of ``runs`` by what it says (``_step_words``), most first.
    shares: tuple[tuple[str, int], ...]
    #: Steps enumerated on the way as a compile's round walks them, by node and whether the round is the first blind
    #: one (places one branch; the results' positions erased after), for the rounds to take.
    known: dict[tuple[Node, bool], Distribution[Node]]
    #: A single step alone far over the budget (``TreeSize.far_over``), if one was met: its size and words.
    step_over: tuple[int, str] | None = None
    #: Where the paths stopped once what they had counted settled the answer (``estimate_plan``): the path (from 1),
    #: the paths there would have been, the step that path had reached and the rounds all of them had counted.
    #: ``runs`` is then the least the finished estimate could have come to.
    stopped: tuple[int, int, str, int] | None = None

    def too_large(self) -> bool:
        """Say whether the plan is too large to try: one step alone far over the budget, or its rounds added up over
        ``ESTIMATE_MARGIN`` times it (the rounds' costs were walked, so only the merging of runs across steps is
        missed, and that errs large)."""
        return self.step_over is not None or self.runs > ESTIMATE_MARGIN * self.max_runs

    def refusal(self) -> EnumerationTooLarge:
        """Say why in one line: the size against the budget, what the paths counted if they stopped early, and the
        step that weighs most."""
        if self.step_over is not None:
            size, words = self.step_over
            return EnumerationTooLarge(self.max_runs, size, f"at {words}")
        most = f", most of them at {self.shares[0][0]}" if self.shares else ""
        if self.stopped is not None:  # what the paths counted, before the rest of the plan: "most" is of those
            path, paths, words, counted = self.stopped
            return EnumerationTooLarge(self.max_runs, self.runs, f"for its steps added up (the estimate stopped on its "
                                       f"random path {path} of {paths} through the plan, at {words}, the paths having "
                                       f"counted {about(counted)}{most})", at_least=True)
        return EnumerationTooLarge(self.max_runs, self.runs, f"for its steps added up{most}" if most else None)


def estimate_plan(initial: GameState, driver: Driver, max_runs: int,
                  tick: Callable[[int], None] | None = None, paths: int = PLAN_PATHS) -> PlanEstimate:
    """Estimate the whole compile before it starts: its rounds added up, along a few random paths through the plan.

    First ``LOOKAHEAD_RUNS`` runs are played ahead with seeded dice, as the engine plays,
    each step sized where it stands (``estimate_runs``, a roll that only places models one
    branch): a step alone far over the budget is found before anything is enumerated.
    Then a compile's rounds are added up.  Round ``i`` steps every distinct node its runs
    reach after ``i`` steps.  A path stands on one node per step: it enumerates the step
    there as a round would (with positions; a round takes the result as it is,
    ``PlanEstimate.known``) and goes on from one of its distinct results drawn uniformly.
    The product of the distinct results before a step estimates how many nodes its round
    holds (Knuth's estimator: unbiased while runs never meet again, large where they
    merge), so ``nodes x runs`` estimates the round; the rounds added up and averaged over
    ``paths`` estimate the compile.  The enumerations (which a round takes as they are, so
    none is spent twice) spend at most half the budget: past that a step counts its estimated runs, and as many
    distinct results (an upper bound: a result is one run at least), and the path goes on from a seeded run of it.
    An enumeration that runs far past its step's size has the step sized again (``_Watched``).  ``tick`` hears every
    rules-code run spent.  An estimate above the budget / ``CLOSER_ZONE`` and not over it is taken again from
    ``CLOSER_PLAN_PATHS`` paths, the first ones kept (a few paths mostly miss a plan's rare wide branches), when what
    the paths so far cost, scaled to that many, is within half the budget: a compile that small costs little to try,
    and the paths' sizing of their steps (which a compile does not take over) would leave a plan that fits just within
    its budget without room.

    The paths stop as soon as what they have counted settles the answer: the estimate is the mean of ``paths``
    paths' rounds, none below 0, so once the rounds counted so far pass ``paths x ESTIMATE_MARGIN x max_runs`` the
    mean is over ``ESTIMATE_MARGIN x max_runs`` whatever the rest would count, and ``too_large`` would hold at the end
    as it holds now.  The stop therefore refuses no plan the finished estimate would let through; it only spares the
    rest of the paths (the 9th Age whole turn's first path counts 2.8e6 by its sixth step, at a budget of 5,000).
    Only rounds before a path's blind step are added in: a path retried from there (a blind step read a position)
    counts its earlier rounds alike, its later ones not.  ``PlanEstimate.runs`` is then the least the mean could be,
    and the refusal says so (``more than``) with where the paths stopped and what they had counted.
    """
    from .dice import SeededDice
    from .simulate import Node

    sizes: dict[Node, TreeSize] = {}
    spent = 0

    def size_of(node: Node) -> TreeSize:
        nonlocal spent
        size = sizes.get(node)
        if size is None:
            size = sizes[node] = estimate_runs(_stepper(driver, node), SIZING_PATHS, positions=False)
            spent += size.cost
            _tell(tick, size.cost)
        return size

    ahead: list[Node] = []
    for seed in range(LOOKAHEAD_RUNS):
        node = driver.start(initial)
        while not driver.done(node):
            if seed == 0:
                ahead.append(node)
            size = size_of(node)
            if size.far_over(max_runs):
                words = _step_words(driver, node)
                return PlanEstimate(max_runs, size.runs, spent, ((words, size.runs),), {}, (size.runs, words))
            node = driver.step(node, SeededDice(seed))
            spent += 1
            _tell(tick, 1)
    # The compile plays blind (places one branch, positions erased) from the first step after which the rest of the
    # plan reads no positions: found on the first run ahead, from its last step back.
    blind_from = len(ahead)
    for at in range(len(ahead) - 1, -1, -1):
        ran, reads = _reads_positions_after(driver, ahead[at])
        spent += ran
        _tell(tick, ran)
        if reads:
            break
        blind_from = at
    known: dict[tuple[Node, bool], Distribution[Node]] = {}
    results: dict[Node, tuple[list[Node], int]] = {}  # each step's distinct next nodes (or a sample), and its runs
    blinded: dict[Node, tuple[list[Node], int]] = {}  # the same for the first blind round
    widths: dict[tuple[Node, bool], int] = {}
    erased: dict[Any, Any] = {}
    shares: dict[str, float] = {}
    total = 0.0
    path = 0
    while path < paths or (paths < CLOSER_PLAN_PATHS  # an estimate near the budget but not over it: more paths,
                           and paths * max_runs < CLOSER_ZONE * total <= CLOSER_ZONE * paths * ESTIMATE_MARGIN * max_runs
                           and CLOSER_PLAN_PATHS * spent <= paths * max_runs // 2):  # which the budget affords
        if path == paths:  # near the budget: more paths, the first ones kept (``CLOSER_PLAN_PATHS``)
            paths = CLOSER_PLAN_PATHS
        rng = random.Random(path)
        node = driver.start(initial)
        nodes = 1.0  # the round's nodes, as this path estimates them
        depth = 0
        counted: list[tuple[str, float]] = []  # this path's rounds, added once it ends
        settled = 0.0  # those of its rounds before its blind step, which a retried path counts alike
        try:
            while not driver.done(node):
                blind = depth == blind_from  # the first blind round: places one branch, positions erased after
                depth += 1
                found = results.get(node) if not blind else None
                if blind:
                    found = blinded.get(node)
                if found is None:
                    size = size_of(node)
                    if size.far_over(max_runs):
                        words = _step_words(driver, node)
                        return PlanEstimate(max_runs, size.runs, spent, ((words, size.runs),), known, (size.runs, words))
                    rules = _stepper(driver, node)
                    budget = _Watched(max(0, max_runs // 2 - spent), tick, size, rules, not blind, max_runs,
                                      max_runs // 2 // paths)
                    try:
                        if size.runs > budget.max_runs:
                            raise EnumerationTooLarge(budget.max_runs)
                        dist = enumerate_within(rules, budget, not blind, tally_view)
                    except EnumerationTooLarge:  # past what the estimate may spend: its estimate, and as many results
                        spent += budget.runs + budget.resizing
                        if budget.alone:
                            words = _step_words(driver, node)
                            runs = budget.size.runs
                            return PlanEstimate(max_runs, runs, spent, ((words, runs),), known, (runs, words))
                        found = ([], budget.size.runs)
                        width = budget.size.runs
                    else:
                        spent += budget.runs + budget.resizing
                        known[(node, blind)] = dist
                        found = (list({Node(erase_positions(n.state, erased) if blind else n.state, n.cursor, n.memo): None
                                       for n in dist}), budget.runs)
                        width = len(found[0])
                    (blinded if blind else results)[node] = found
                    widths[(node, blind)] = width
                following, runs = found
                counted.append((_step_words(driver, node), nodes * runs))
                if len(counted) <= blind_from:  # a path retried from its blind step counts the same before it
                    settled += nodes * runs
                    if total + settled > paths * ESTIMATE_MARGIN * max_runs:  # the mean is over, whatever is to come
                        for words, weight in counted:
                            shares[words] = shares.get(words, 0.0) + weight
                        return PlanEstimate(max_runs, math.ceil((total + settled) / paths), spent,
                                            _ordered(shares, paths), known,
                                            stopped=(path + 1, paths, counted[-1][0], math.ceil(total + settled)))
                nodes *= widths[(node, blind)]
                if following:
                    node = following[rng.randrange(len(following))]
                else:  # a step not enumerated: one seeded run of it goes on
                    node = driver.step(node, SeededDice(path))
                    node = Node(erase_positions(node.state, erased) if blind else node.state, node.cursor, node.memo)
                    spent += 1
                    _tell(tick, 1)
        except EnumerationTooLarge:
            raise
        except (PositionsRead, Exception):  # a blind step read an erased position (directly, or as code refused it)
            if depth <= blind_from + 1:
                raise
            blind_from = depth - 1  # as a compile does, it plays that step with positions and goes blind after it
            continue
        for words, weight in counted:
            shares[words] = shares.get(words, 0.0) + weight
            total += weight
        path += 1
    return PlanEstimate(max_runs, math.ceil(total / paths), spent, _ordered(shares, paths), known)


def _ordered(shares: dict[str, float], paths: int) -> tuple[tuple[str, int], ...]:
    """Each step's share of the rounds counted on ``paths`` paths, per path, most first (``PlanEstimate.shares``)."""
    return tuple(sorted(((w, math.ceil(r / paths)) for w, r in shares.items()), key=lambda wr: -wr[1]))


class _Watched(Budget):
    """The budget of a step the plan's estimate enumerates on a path, which sizes the step again should the
    enumeration run far past what it was sized at (``estimate_plan``).

    A step is sized from ``SIZING_PATHS`` paths (``estimate_runs``), which a skewed tree fools: the 9th Age whole
    turn's Fireball (casting roll, Fizzles, Miscasts, Panic, flees) sized at 4,133 runs takes about a million, and its
    enumeration spent the estimate's whole allowance (100,000 runs, 7 minutes) before the plan was refused.  Once the
    enumeration has spent ``ESTIMATE_MARGIN`` times the step's size (the excess a sizing is trusted within), a path's
    share of the allowance (the budget, halved, over the paths) and ``CLOSER_ZONE`` times what a second sizing costs
    (so that it costs at most a quarter of what the step has spent: the 40k3 Librarian's Smite, sized at 31 runs,
    takes 429, and plans that fit their budget are estimated as before), the step is sized again from
    ``CLOSER_PATHS`` paths, as ``enumerate_outcomes`` sizes a tree near its budget.  Far over the plan's whole
    budget, the step alone is (``alone``: the plan is refused as for a step found far over it ahead); far over the
    allowance, the enumeration stops, as it would have at its end, and the step counts its new size.  Otherwise it
    goes on, nothing spent twice.  A step with loops is left as it was: its sizing errs large, not small."""

    def __init__(self, max_runs: int, tick: Callable[[int], None] | None, size: TreeSize, rules: Callable[[Dice], Any],
                 positions: bool, plan_budget: int, share: int) -> None:
        super().__init__(max_runs, tick)
        self.size, self.rules, self.positions, self.plan_budget = size, rules, positions, plan_budget
        self.look_at = -1 if size.loops else max(ESTIMATE_MARGIN * size.runs, share, CLOSER_ZONE * CLOSER_PATHS)
        #: Rules-code runs the second sizing took (not on this budget: the caller counts them).
        self.resizing = 0
        self.alone = False

    def spend(self) -> None:
        super().spend()
        if self.runs == self.look_at:
            closer = estimate_runs(self.rules, CLOSER_PATHS, self.positions, seed=1)
            self.size, self.resizing = closer, closer.cost
            _tell(self.tick, closer.cost)
            self.alone = closer.far_over(self.plan_budget)
            if self.alone or closer.far_over(self.max_runs):
                raise EnumerationTooLarge(self.max_runs, closer.runs)


def _reads_positions_after(driver: Driver, node: Node) -> tuple[int, bool]:
    """Play the rest of a run from ``node`` with seeded dice, positions erased after its first step (as
    ``_Rounds.trial`` does); return the rules-code runs it took and whether a step read a position."""
    from .dice import SeededDice

    steps = 0
    try:
        while not driver.done(node):
            steps += 1  # a step that reads an erased position ran too
            node = driver.step(node, SeededDice(steps - 1))
            if steps == 1:
                node = replace(node, state=erase_positions(node.state))
    except EnumerationTooLarge:
        raise
    except (PositionsRead, Exception):  # an erased position was read (directly, or as some code refused it)
        return steps, True
    return steps, False


def _tell(tick: Callable[[int], None] | None, runs: int) -> None:
    if tick is not None and runs:
        tick(runs)


def _size_up(driver: Driver, frontier: Frontier, used: int, max_runs: int) -> int:
    """Estimate the next step before taking it; raise ``EnumerationTooLarge`` at once when far over budget.

    The frontier's nodes are grouped by the step each takes next (a round of the default
    policy mixes ending a phase and fighting); a few nodes of each group, spread over it
    (at least one), have their step's chance tree estimated (``estimate_runs``, a few random
    paths, loops walked as the enumeration walks them); each group's mean times its nodes
    is its estimate.  Rolls that only place models count as one branch, as in a blind round
    (where positions are kept, the budget catches the rest: counted with their places, the
    40k3 whole turn's fall backs came to 5.3e5 for a policy that takes about 18,800 runs).
    Return the rules-code runs the estimate itself took.  The message names the step that
    weighs most, as the plan says it (``_step_words``).
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
        raise EnumerationTooLarge(max_runs, guess.runs, f"at {_step_words(driver, heaviest[1])}")
    return spent


def _step_kind(driver: Driver, node: Node) -> str:
    """Name the step a node takes next, as its action's ``do``."""
    return str(driver.choose(node).get("do", "?"))


def _step_words(driver: Driver, node: Node) -> str:
    """Say which step a node takes next as the user gave it: ``step 9 (fight: tactical)``, the plan's step by its
    number from 1 (as a skipped step's row counts it); under the default policy, which has no numbered steps, the
    phase it is in: ``the default policy's fight: spearmen (side highborn, melee phase, turn 1)``."""
    action = driver.choose(node)
    who = next((str(action[k]) for k in ("unit", "psyker", "character") if isinstance(action.get(k), str)), None)
    what = f"{action.get('do', '?')}{': ' + who if who else ''}"
    if driver.plan is not None:
        return f"step {node.cursor + 1} ({what})"
    state = node.state
    return f"the default policy's {what} (side {state.active}, {state.phase} phase, turn {state.turn})"


def tally_view(event: Any) -> tuple[str, ...] | None:
    """What a run's tally reads of an event (``Driver.step`` counts its labels): a loop may merge carries whose events
    show the same labels (``enumerate_outcomes(event_view=...)``); an event without labels counts for nothing."""
    return tuple(labels) if (labels := event_labels(event)) else None


def _stepper(driver: Driver, node: Node) -> Callable[[Dice], Node]:
    def step(dice: Dice) -> Node:
        return driver.step(node, dice)

    return step


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
                  progress: bool = False, advance: Callable[[int], None] | None = None) -> np.ndarray[Any, Any]:
    """Draw ``runs`` runs from the exact outcome probabilities; return how often each outcome came up (``advance``
    told the runs drawn, a chunk at a time)."""
    from .simulate import _progress

    cum = sampler(probabilities)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    counts = np.zeros(len(cum), dtype=np.int64)
    done = 0
    with _progress(progress and runs > 4 * CHUNK, runs, "sampling runs", heard=advance) as ticker:
        while done < runs:
            n = min(CHUNK, runs - done)
            counts += np.bincount(sample_indices(cum, n, rng), minlength=len(cum))[: len(cum)]
            done += n
            ticker(n)
    return counts


#: Runs that must reach a node before its step's chance tree is sized for a shared draw (``sample_shared``); fewer
#: play the step one game each.
SHARED_FLOOR = 16
#: Random paths sizing a node's step before ``sample_shared`` enumerates it.
SHARED_SIZING_PATHS = 4
#: A node's step is enumerated when sized at most this many rules-code runs per run reaching it (a rules-code run of
#: an enumeration, a loop's step, costs less than a game's step: t9a_wizard_charges_out's fights, about 0.3 ms against
#: 0.7 ms), and given up past twice that.
SHARED_RATIO = 2


@dataclass
class SharedRuns:
    """What ``sample_shared`` did: how often each outcome came up, and how its steps were taken."""

    counts: dict[Outcome, int]
    #: Distinct (state, plan position) nodes stepped.
    nodes: int = 0
    #: Nodes whose step was enumerated exactly and drawn for all the runs reaching it at once.
    shared: int = 0
    #: Steps played one game each with seeded dice (a node reached by few runs, or whose tree is too large).
    played: int = 0
    #: Rules-code runs the enumerations and their sizing took.
    rules_code_runs: int = 0


def sample_shared(initial: GameState, driver: Driver, runs: int, seed: int,
                  known: dict[tuple[Node, bool], Distribution[Node]] | None = None,
                  tick: Callable[[int], None] | None = None, floor: int = SHARED_FLOOR,
                  note: Callable[[str], None] | None = None, memo: dict[Any, Any] | None = None) -> SharedRuns:
    """Play ``runs`` Monte Carlo runs of the plan round by round, the runs that stand on one node stepping together.

    A run's next step depends only on its node (state, plan position, policy memo): the
    runs standing on one node are split among its step's results at once.  A node that
    ``SHARED_FLOOR`` runs or more reach has its step's chance tree sized (``estimate_runs``)
    and, when that costs at most ``SHARED_RATIO`` rules-code runs per run reaching it, enumerated
    exactly (``enumerate_within``, the very rules code an engine run calls): its runs are
    then split by one multinomial draw over the exact results (floats only here).  Every
    other step is played one game per run with seeded dice, as the engine plays it.  Either
    way each run's step is drawn from the step's own chances, independently of every other
    run's: the counts are those of ``runs`` independent games (the same law as
    ``--method engine``, another stream of random numbers), found in a fraction of the time
    when many runs pass the same positions (t9a_wizard_charges_out: one charge, a few
    fights).  The same seed gives the same counts.  ``known``: steps already enumerated
    (``PlanEstimate.known``, with positions), taken as they are.  ``tick`` hears each run
    that finishes.  ``floor``: the runs a node needs before its step is sized (``SHARED_FLOOR``).  ``note`` hears
    where the rounds are (most runs finish only in the last rounds, so the runs finished alone would stand still).
    ``memo``: the steps sized and enumerated by earlier calls in this process (``simulate``'s chunks on one worker),
    reused only where this call would have reached the same answer and counted as if spent again, so that the
    counts and the statistics are what a call without it gives (``_shared_step``).
    """
    from .dice import SeededDice
    from .simulate import Node, state_outcome

    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    dice = SeededDice(seed)
    done = SharedRuns({})
    frontier: dict[Node, dict[tuple[tuple[str, int], ...], int]] = {driver.start(initial): {(): runs}}
    outcomes: dict[GameState, Outcome] = {}
    step = 0
    while frontier:
        following: dict[Node, dict[tuple[tuple[str, int], ...], int]] = {}
        step += 1
        standing = sum(n for reaching in frontier.values() for n in reaching.values())
        stepped = 0
        for start, reaching in frontier.items():
            if driver.done(start):
                part = outcomes.get(start.state)
                if part is None:
                    part = outcomes[start.state] = state_outcome(initial, start.state)
                for tally, n in reaching.items():
                    outcome = (*part, *tally)
                    done.counts[outcome] = done.counts.get(outcome, 0) + n
                _tell(tick, sum(reaching.values()))
                stepped += sum(reaching.values())
                continue
            done.nodes += 1
            here = sum(reaching.values())
            dist = _shared_step(driver, start, here, known, done, floor, memo)
            if dist is None:  # one game per run
                for tally, n in reaching.items():
                    for _ in range(n):
                        _reach(following, driver.step(start, dice), tally, 1)
                        stepped += 1
                        if note is not None and stepped % 256 == 0:
                            note(f"step {step}, {stepped:,} of {standing:,} runs played")
                done.played += here
                continue
            stepped += here
            results = list(dist)
            chances = np.array([float(dist[r]) for r in results], dtype=np.float64)
            chances /= chances.sum()
            for tally, n in reaching.items():
                drawn = rng.multinomial(n, chances)
                for i in np.flatnonzero(drawn):
                    _reach(following, results[int(i)], tally, int(drawn[i]))
        frontier = following
    return done


def _reach(following: dict[Node, dict[tuple[tuple[str, int], ...], int]], reached: Node,
           tally: tuple[tuple[str, int], ...], n: int) -> None:
    """Add ``n`` runs with ``tally`` that reach ``reached`` (its tally: the step's events) to the next round."""
    from .simulate import Node

    bare = Node(reached.state, reached.cursor, reached.memo)
    slot = following.get(bare)
    if slot is None:
        slot = following[bare] = {}
    joined = _added(tally, reached.tally)
    slot[joined] = slot.get(joined, 0) + n


def _shared_step(driver: Driver, node: Node, runs: int, known: dict[tuple[Node, bool], Distribution[Node]] | None,
                 done: SharedRuns, floor: int, memo: dict[Any, Any] | None = None) -> Distribution[Node] | None:
    """Return the exact results of ``node``'s step when enumerating them costs at most ``SHARED_RATIO`` rules-code runs
    per run reaching it (sized first; given up past twice that), else ``None``: each run plays the step.

    ``memo`` (node -> its size, and the enumeration's result and cost, or the budget it failed within): the sizing is
    a pure function of the node (``estimate_runs``' fixed seed), and an enumeration within a budget succeeds, at the
    same cost, within any budget at least that cost, or fails having spent one run past it; so a remembered step is
    taken (and its runs counted) exactly where enumerating it again would give the same, and enumerated otherwise."""
    if known is not None and (node, False) in known:
        done.shared += 1
        return known[(node, False)]
    if runs < floor:
        return None
    entry = memo.get(node) if memo is not None else None
    if entry is None:
        size = estimate_runs(_stepper(driver, node), SHARED_SIZING_PATHS, positions=True, event_view=tally_view)
        entry = [size, None, 0, -1]  # size, distribution, its cost, the largest budget it failed within
        if memo is not None:
            memo[node] = entry
    size, dist, cost, failed_within = entry
    done.rules_code_runs += size.cost
    if size.runs > SHARED_RATIO * runs:
        return None
    limit = 2 * SHARED_RATIO * runs
    if dist is not None or limit <= failed_within:  # remembered: the same answer as enumerating again
        if dist is None or cost > limit:
            done.rules_code_runs += limit + 1
            return None
        done.rules_code_runs += cost
        done.shared += 1
        return dist  # type: ignore[no-any-return]
    budget = Budget(limit)
    try:
        dist = enumerate_within(_stepper(driver, node), budget, True, tally_view)
    except EnumerationTooLarge:
        entry[3] = limit
        return None
    finally:
        done.rules_code_runs += budget.runs
    entry[1], entry[2] = dist, budget.runs
    done.shared += 1
    return dist
