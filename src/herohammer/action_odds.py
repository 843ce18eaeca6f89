"""The odds of a whole action: every outcome of the dice, through the same resolve code as play.

``action_odds`` rules on the action (an illegal one raises ``IllegalActionError``),
then runs ``ruleset.resolve(state, action, dice)`` under ``enumerate_outcomes`` and
summarises each branch's resulting state with ``summarise`` - a generic summary that
works for any ruleset: models and wounds lost per unit, statuses gained, and which
kinds of event happened (plus any ``outcome`` an event names, such as a t9a charge's
``charged`` / ``failed_left`` / ``failed_stayed_shaken`` / ``slain``).  When the chance tree is too large it samples ``runs`` games
with ``SeededDice(seed)`` instead and gives each probability a 95% Wilson interval;
the answer names its method either way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import Action, parse_action
from .dice import DEFAULT_MAX_RUNS, ESTIMATE_PATHS, Dice, SeededDice, enumerate_outcomes
from .distribution import Distribution
from . import guards
from .collector import with_fewer_collections
from .errors import EnumerationTooLarge, IllegalActionError
from .limits import ENGINE_MAX_RUNS
from .rulesets import get_ruleset
from . import outcome_labels as labels
from .outcome_labels import EVENT_TEXT_FIELDS, event_labels
from .rulings import Event, represented
from .state import GameState

Z95 = 1.959963984540054
DEFAULT_RUNS = 10_000
#: How often (in rules-code runs) ``action_odds`` tells ``walked`` how far the exact enumeration has gone, and
#: ``advance`` how many Monte Carlo runs are done (a bar moves, and a caller may cancel, that often).
PROGRESS_EVERY = 16
#: How ``odds action`` reads a status, said beside its status rows (reliability round 46): what the action did, so a
#: unit it gave a status and then destroyed (broken and caught by the Sweeping Advance, fallen back off the table)
#: counts as gaining it; ``simulate`` reads where the game ended, where a destroyed unit holds none
#: (``simulate.state_outcome``).  Both readings are kept: each answers its own question (published.leaving-the-battle).
STATUS_READING = ("a status row counts each unit the action gave that status, whether or not the action then "
                  "destroyed it; simulate reads where the game ended, where a destroyed unit holds no status "
                  "(published.leaving-the-battle)")
#: Event kinds worth reporting as "did it happen?" (ruleset-neutral names).
FLAG_KINDS = ("psychic_test", "perils", "power_used", "fall_back", "destroyed", "last_man", "combat_result",
              "beyond_reach", "not_carried_over")


@dataclass(frozen=True, order=True)
class Outcome:
    """Summarise one way an action can end: what each unit lost and gained, and what happened."""

    models_lost: tuple[tuple[str, int], ...]
    wounds_lost: tuple[tuple[str, int], ...]
    statuses_gained: tuple[tuple[str, tuple[str, ...]], ...]
    events: tuple[str, ...]

    def lost(self, unit_id: str) -> int:
        """Return the models a unit lost (0 if none)."""
        return dict(self.models_lost).get(unit_id, 0)

    def labels(self) -> list[str]:
        """Say what happened in the words ``odds action`` and ``simulate`` use for their rows (wounds lost where they
        are not just the models lost)."""
        return ([labels.with_value(labels.models_lost(u), k) for u, k in self.models_lost]
                + [labels.with_value(labels.wounds_lost(u), n) for u, n in self.wounds_lost if n != self.lost(u)]
                + [labels.status(u, s) for u, ss in self.statuses_gained for s in ss] + list(self.events))

    def wounds(self, unit_id: str) -> int:
        """Return the wounds a unit lost (0 if none)."""
        return dict(self.wounds_lost).get(unit_id, 0)

    def gained(self, unit_id: str, status: str) -> bool:
        """Say whether a unit gained a status."""
        return status in dict(self.statuses_gained).get(unit_id, ())


def summarise(before: GameState, resolution: tuple[GameState, list[Event]]) -> Outcome:
    """Summarise a resolved action against the state it started from (any ruleset)."""
    after, events = resolution
    lost, wounds, gained = [], [], []
    for u in before.units:
        now = after.unit(u.id) if after.has_unit(u.id) else None
        n_now = len(now.models) if now else 0
        w_before = sum(m.wounds_left for m in u.models)
        w_now = sum(m.wounds_left for m in now.models) if now else 0
        if n_now < len(u.models):
            lost.append((u.id, len(u.models) - n_now))
        if w_now < w_before:
            wounds.append((u.id, w_before - w_now))
        if now is not None:
            new = sorted(s.value for s in now.status - u.status)
            if new:
                gained.append((u.id, tuple(new)))
    flags = sorted({label for e in events for label in summary_view(e) or ()})
    return Outcome(tuple(lost), tuple(wounds), tuple(gained), tuple(flags))


def summary_view(event: Event) -> tuple[str, ...] | None:
    """Return what ``summarise`` reads of an event: its labels if it is worth reporting, else None."""
    if event.kind in FLAG_KINDS or any(k in EVENT_TEXT_FIELDS for k, _ in event.data):
        return tuple(event_labels(event))
    return None


@dataclass(frozen=True)
class Estimate:
    """A probability: exact, or sampled with a 95% Wilson interval."""

    p: Fraction
    low: float | None = None
    high: float | None = None

    def to_json(self) -> dict[str, Any] | Fraction:
        """Return the exact Fraction, or the estimate with its interval."""
        if self.low is None:
            return self.p
        return {"estimate": float(self.p), "ci95": [self.low, self.high]}


def wilson(successes: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """Return the 95% Wilson score interval for ``successes`` in ``runs`` (exact 0 and 1 at the ends)."""
    if runs <= 0:
        return 0.0, 1.0
    phat = successes / runs
    denom = 1 + z * z / runs
    centre = (phat + z * z / (2 * runs)) / denom
    half = z * math.sqrt(phat * (1 - phat) / runs + z * z / (4 * runs * runs)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == runs else min(1.0, centre + half)
    return low, high


def _lost_exactly(unit: str, k: int) -> Callable[[Outcome], bool]:
    return lambda o: o.lost(unit) == k


def _wounds_exactly(unit: str, k: int) -> Callable[[Outcome], bool]:
    return lambda o: o.wounds(unit) == k


def _gains(unit: str, status: str) -> Callable[[Outcome], bool]:
    return lambda o: o.gained(unit, status)


def _happens(flag: str) -> Callable[[Outcome], bool]:
    return lambda o: flag in o.events


@dataclass(frozen=True)
class ActionOdds:
    """The distribution of an action's outcomes, exact or sampled, naming its method."""

    action: Action
    method: str
    exact: bool
    weights: tuple[tuple[Outcome, Fraction], ...]  # probabilities (exact) or frequencies (sampled)
    runs: int

    def probability(self, predicate: Callable[[Outcome], bool]) -> Estimate:
        """Return the probability that the outcome satisfies ``predicate``."""
        p = sum((w for o, w in self.weights if predicate(o)), Fraction(0))
        if self.exact:
            return Estimate(p)
        low, high = wilson(round(p * self.runs), self.runs)
        return Estimate(p, low, high)

    def distribution(self) -> Distribution[Outcome]:
        """Return the outcomes as a Distribution (exact, or the sample's frequencies)."""
        return Distribution(dict(self.weights))

    def mean_lost(self, unit_id: str) -> Fraction:
        """Return the expected models a unit loses."""
        return sum((w * o.lost(unit_id) for o, w in self.weights), Fraction(0))

    def rows(self) -> dict[str, Estimate]:
        """Return the questions players ask, one row each: models slain per unit, wounds lost per unit where they
        are not just the models slain (a multi-wound character hurt but standing, a Perils wound), statuses, events."""
        rows: dict[str, Estimate] = {}
        units = sorted({u for o, _ in self.weights for u, _ in o.models_lost})
        for unit in units:
            most = max(o.lost(unit) for o, _ in self.weights)
            for k in range(0, most + 1):
                rows[labels.with_value(labels.models_lost(unit), k)] = self.probability(_lost_exactly(unit, k))
        hurt = sorted({u for o, _ in self.weights for u, n in o.wounds_lost if n != o.lost(u)})
        for unit in hurt:
            most = max(o.wounds(unit) for o, _ in self.weights)
            for k in range(0, most + 1):
                rows[labels.with_value(labels.wounds_lost(unit), k)] = self.probability(_wounds_exactly(unit, k))
        statuses = sorted({(u, s) for o, _ in self.weights for u, ss in o.statuses_gained for s in ss})
        for unit, status in statuses:
            rows[labels.status(unit, status)] = self.probability(_gains(unit, status))
        flags = sorted({f for o, _ in self.weights for f in o.events})
        for flag in flags:
            rows[flag] = self.probability(_happens(flag))
        return rows

    def status_reading(self) -> str | None:
        """Say how the status rows read (``STATUS_READING``), if the answer has any."""
        return STATUS_READING if any(o.statuses_gained for o, _ in self.weights) else None

    def to_json(self) -> dict[str, Any]:
        """Return the answer as JSON data but for its exact probabilities, kept as Fractions (or estimates with
        intervals): ``json.dumps(..., default=str)`` writes them as the commands do (``"11/12"``), never as floats.
        ``status_rows`` says how the status rows read, where there are any."""
        units = sorted({u for o, _ in self.weights for u, _ in o.models_lost})
        reading = self.status_reading()
        return {
            "action": self.action.to_json(), "method": self.method, "exact": self.exact, "runs": self.runs,
            "rows": {k: v.to_json() for k, v in self.rows().items()},
            "mean_models_slain": {u: self.mean_lost(u) if self.exact else float(self.mean_lost(u)) for u in units},
            **({"status_rows": reading} if reading else {}),
        }


@with_fewer_collections
def action_odds(
    state: GameState,
    action: Action | str | Mapping[str, Any],
    *,
    max_runs: int = DEFAULT_MAX_RUNS,
    runs: int = DEFAULT_RUNS,
    seed: int | None = 0,
    summary: Callable[[GameState, tuple[GameState, list[Event]]], Any] = summarise,
    advance: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
    walked: Callable[[int], None] | None = None,
) -> ActionOdds:
    """Return the odds of every outcome of one legal action, exact when the chance tree allows.

    Works for any ruleset: it only calls ``rule_on`` and ``resolve``.  Raises
    ``IllegalActionError`` (with the rule ids) for an action the rules forbid.  The size
    of the chance tree is estimated first (``estimate_runs``): far over ``max_runs`` it
    samples at once, and ``notice`` hears why in one line before the runs start.
    ``walked`` hears how many rules-code runs the exact enumeration has made, every
    ``PROGRESS_EVERY`` runs and at its end (a progress bar's count, so a long enumeration is
    not a silent wait); ``advance`` hears each further batch of Monte Carlo runs.
    A ``summary`` of the caller's is handed events whose words and rolls it may not read on the
    fast walk (``RepresentedEvent``): reading them makes the enumeration go die by die.
    """
    guards.instance(state, GameState, "action_odds", "state", "a GameState (load_scenario(path) or Game.state)")
    act = parse_action(action, "action")  # named as the parameter: a library's caller wrote no --action
    runs = guards.whole(runs, "action_odds", "runs", 1, ENGINE_MAX_RUNS)
    max_runs = guards.whole(max_runs, "action_odds", "max_runs", 1, ENGINE_MAX_RUNS)
    seed = guards.seed(seed, "action_odds")
    for name, hook, takes in (("notice", notice, "one line of text"), ("advance", advance, "a number of runs"),
                              ("walked", walked, "a number of runs")):
        guards.hook(hook, "action_odds", name, takes)
    ruleset = get_ruleset(state.ruleset)
    ruling = ruleset.rule_on(state, act)
    if not ruling.legal:
        raise IllegalActionError(ruling.reason, ruling.rules)

    def play(dice: Dice) -> Any:
        return summary(state, ruleset.resolve(state, act, dice))

    def play_represented(dice: Dice) -> Any:  # a summary of the caller's: events whose words it may not read
        after, events = ruleset.resolve(state, act, dice)
        return summary(state, (after, represented(events) if dice.represents else events))

    runs_made = 0

    plain = summary is summarise  # it reads no positions, and events only through summary_view
    walk = play if plain else play_represented

    def play_counted(dice: Dice) -> Any:
        nonlocal runs_made
        runs_made += 1
        if walked is not None and runs_made % PROGRESS_EVERY == 0:
            walked(runs_made)
        return walk(dice)

    try:
        dist = enumerate_outcomes(play_counted if walked is not None else walk, max_runs, positions=not plain,
                                  event_view=summary_view if plain else None, estimate_paths=ESTIMATE_PATHS)
        if walked is not None:
            walked(runs_made)
        return ActionOdds(act, f"exact (every dice outcome enumerated, {len(dist)} distinct result{'s' * (len(dist) != 1)})", True,
                          tuple(dist.sorted_items()), 0)
    except EnumerationTooLarge as too_large:
        why = too_large.reason()
    if notice is not None:
        notice(f"{why}: Monte Carlo with {runs:,} runs")
    dice = SeededDice(seed)
    counts: Counter[Any] = Counter()
    for i in range(runs):  # ``advance`` moves a progress bar every PROGRESS_EVERY runs
        counts[play(dice)] += 1
        if advance is not None and ((i + 1) % PROGRESS_EVERY == 0 or i + 1 == runs):
            advance(i % PROGRESS_EVERY + 1)
    weights = tuple(sorted(((o, Fraction(c, runs)) for o, c in counts.items()), key=lambda kv: repr(kv[0])))
    return ActionOdds(act, f"Monte Carlo ({runs} runs, seed {seed}; {why}), 95% Wilson intervals", False, weights, runs)


#: ``action_odds`` under the name the package exports it by (``from herohammer import odds_of_action``): the name
#: ``herohammer.action_odds`` is this module's, which the import system sets on the package once it is loaded.
odds_of_action = action_odds


def outcomes_of(odds: ActionOdds) -> Iterable[Outcome]:
    """Iterate over the outcomes an answer holds."""
    return (o for o, _ in odds.weights)
