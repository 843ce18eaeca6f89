"""Exact odds under random play: at random points of random games, ``odds_of_action`` agrees with the dice.

The odds tests check chosen positions; a bot or a digital table asks for the odds of whatever action stands next in
whatever state play has reached (reliability round 42).  From every bundled example a seeded bot plays to a random
point, then takes an action that rolls (a shot, a power, a fight, a charge, an assault, a rally...), and:

- every outcome of seeded ``Game.apply`` runs of that action is one the exact answer gives a chance, and their counts
  fit its probabilities (a chi-square bound generous enough never to fail by chance: mean + 6 standard deviations);
- where the chance tree is small, the exact answer equals brute force (``enumerate_outcomes(fine=True)``: every die a
  branch, each played through ``Game.apply``), by exact equality of fractions;
- the Monte Carlo path of ``odds_of_action`` (the tree given too small a budget) finds no outcome the exact path
  rules out, and its frequencies lie near the exact probabilities.

A second test looks for each kind of action that rolls on its own, by ruleset (40k: shots, psychic powers, assaults,
fights; the 9th Age: charges, spells, fights, shots, rallies), since a random point's action is most often a shot.

The default profile is a few seconds; ``HEROHAMMER_FUZZ=long`` plays many more games (``HEROHAMMER_FUZZ_SEED`` picks
the first seed).
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.action_odds import ActionOdds, action_odds, summarise
from herohammer.actions import Action
from herohammer.dice import Dice, SeededDice, enumerate_outcomes
from herohammer.errors import EnumerationTooLarge
from herohammer.game import Game
from herohammer.scenario import load_scenario
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted([*(ROOT / "examples").glob("*.yaml"), *(ROOT / "src" / "herohammer" / "examples").glob("*.yaml")])
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
FIRST = int(os.environ.get("HEROHAMMER_FUZZ_SEED", "0"))
SEEDS = range(FIRST, FIRST + (40 if LONG else 1))
#: Seeded applies per action, and the budgets: the exact answer's, brute force's (every die a branch).
RUNS, EXACT_BUDGET, BRUTE_BUDGET = (2000, 20_000, 5_000) if LONG else (300, 400, 300)
#: Actions that only place or end something: their odds are those of the rolls they may not make.
QUIET = ("end_phase", "move", "join", "leave")


def _random_point(path: Path, seed: int) -> tuple[GameState, Action] | None:
    """Play a seeded bot from ``path`` to a random step, then on to the first where an action that rolls is legal;
    return the state and one such action (None if the battle ends first)."""
    rng = random.Random(seed * 1009 + sum(path.name.encode()))
    g = Game(load_scenario(path), SeededDice(seed))
    stop = rng.randrange(0, 40)
    for step in range(stop + 60):
        legal = g.legal_actions()
        rolling = [a for a in legal if a.do not in QUIET]
        if step >= stop and rolling:
            return g.state, rng.choice(rolling)
        if not legal:
            return None
        busy = [a for a in legal if a.do != "end_phase"]
        g.apply(rng.choice(busy) if busy and rng.random() < 0.7 else rng.choice(legal),
                dice=SeededDice(rng.randrange(2**32)))
    return None


def _applied(state: GameState, action: Action, dice: Dice) -> Any:
    """The summary of one ``Game.apply`` of ``action`` from ``state`` with ``dice``, as ``odds_of_action`` reads it."""
    g = Game(state, dice)
    events = g.apply(action, dice=dice)
    return summarise(state, (g.state, events))


def _chi_square_fits(counts: Counter[Any], exact: dict[Any, Fraction], runs: int) -> tuple[bool, float, int]:
    """Pearson's chi-square of ``counts`` against ``exact`` (cells expecting under 5 pooled), and whether it lies
    within the degrees of freedom plus 6 of its standard deviations (and 10): far past any chance failure."""
    chi, cells, pooled_expected, pooled_seen = 0.0, 0, 0.0, 0
    for outcome, p in exact.items():
        expected = float(p) * runs
        if expected < 5:
            pooled_expected, pooled_seen = pooled_expected + expected, pooled_seen + counts[outcome]
            continue
        chi, cells = chi + (counts[outcome] - expected) ** 2 / expected, cells + 1
    if pooled_expected > 0:
        chi, cells = chi + (pooled_seen - pooled_expected) ** 2 / max(pooled_expected, 1.0), cells + 1
    df = max(cells - 1, 1)
    return chi <= df + 6 * math.sqrt(2 * df) + 10, chi, df


#: How many random points of an example's games are tried, from its seed on, for one whose action rolls and whose
#: chance tree is within the exact budget (a battle may end first, a fight's tree may be too large).
TRIES = 30


def _exact_point(path: Path, seed: int) -> tuple[GameState, Action, ActionOdds]:
    """The first random point from ``seed`` on whose action's exact answer is within ``EXACT_BUDGET``, with it."""
    for k in range(TRIES):
        point = _random_point(path, seed * TRIES + k)
        if point is None:
            continue
        answer = action_odds(*point, max_runs=EXACT_BUDGET, runs=1)  # past the budget: one sampled run, passed over
        if answer.exact:
            return (*point, answer)
    raise AssertionError(f"{path.name}: no random point of {TRIES} games has an action that rolls within "
                         f"{EXACT_BUDGET:,} exact runs")


def _agrees_with_the_dice(state: GameState, action: Action, answer: ActionOdds, seed: int) -> dict[Any, Fraction]:
    """Check an exact answer against the dice and return it: every outcome ``RUNS`` seeded games give is one it gives a
    chance, their counts fit it (chi-square), and where the tree is small brute force through Game.apply equals it."""
    exact = dict(answer.weights)
    assert sum(exact.values()) == 1
    rng = random.Random(seed)
    counts = Counter(_applied(state, action, SeededDice(rng.randrange(2**32))) for _ in range(RUNS))
    unknown = [o for o in counts if o not in exact]
    assert not unknown, (action.to_json(), unknown[:2])
    fits, chi, df = _chi_square_fits(counts, exact, RUNS)
    assert fits, (action.to_json(), chi, df)
    try:
        brute = enumerate_outcomes(lambda dice: _applied(state, action, dice), BRUTE_BUDGET, fine=True)
    except EnumerationTooLarge:
        return exact
    assert dict(brute) == exact, action.to_json()
    return exact


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_exact_odds_agree_with_the_dice_at_random_points_of_random_games(path: Path, seed: int) -> None:
    state, action, answer = _exact_point(path, seed)
    exact = _agrees_with_the_dice(state, action, answer, seed)
    sampled = action_odds(state, action, max_runs=1, runs=RUNS, seed=seed)
    if sampled.exact:  # a tree of one run: the two paths are the same
        assert dict(sampled.weights) == exact
        return
    for outcome, share in sampled.weights:
        assert outcome in exact, (action.to_json(), outcome)
        p = float(exact[outcome])  # within 6 standard deviations of a binomial share, and a run's worth
        assert abs(float(share) - p) <= 6 * math.sqrt(p * (1 - p) / RUNS) + 1 / RUNS, (action.to_json(), outcome)


#: The kinds of action that roll, by ruleset, each looked for on its own (round 43): a random point's action is a shot
#: more often than not, so a fight, an assault, a power, a spell or a charge was checked only now and then.
KINDS = {"40k3": ("shoot", "manifest", "assault", "fight"), "40k4": ("shoot", "manifest", "assault", "fight"),
         "t9a": ("charge", "cast", "fight", "shoot", "rally")}
BY_RULESET = {r: [p for p in EXAMPLES if load_scenario(p).ruleset == r] for r in KINDS}


def _point_of_kind(ruleset: str, kind: str, seed: int) -> tuple[GameState, Action, ActionOdds]:
    """The first state of seeded random games from ``ruleset``'s examples where an action of ``kind`` is legal and its
    exact answer is within ``EXACT_BUDGET``, with one such action and that answer."""
    for k in range(TRIES):
        path = BY_RULESET[ruleset][(seed + k) % len(BY_RULESET[ruleset])]
        rng = random.Random((seed * TRIES + k) * 7919 + sum(path.name.encode()))
        g = Game(load_scenario(path), SeededDice(seed + k))
        for _ in range(120):
            legal = g.legal_actions()
            if not legal:
                break
            of_kind = [a for a in legal if a.do == kind]
            if of_kind:
                action = rng.choice(of_kind)
                answer = action_odds(g.state, action, max_runs=EXACT_BUDGET, runs=1)
                if answer.exact:
                    return g.state, action, answer
            busy = [a for a in legal if a.do != "end_phase"]
            g.apply(rng.choice(busy) if busy and rng.random() < 0.7 else rng.choice(legal),
                    dice=SeededDice(rng.randrange(2**32)))
    raise AssertionError(f"{ruleset}: no {kind} within {EXACT_BUDGET:,} exact runs in {TRIES} random games")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("ruleset", "kind"), [(r, k) for r, kinds in KINDS.items() for k in kinds])
def test_exact_odds_of_each_kind_of_action_agree_with_the_dice(ruleset: str, kind: str, seed: int) -> None:
    """As above, for one kind of action at a time: every outcome the dice give is one the exact answer gives a chance,
    their counts fit it, and where the tree is small brute force through ``Game.apply`` equals it."""
    state, action, answer = _point_of_kind(ruleset, kind, seed)
    _agrees_with_the_dice(state, action, answer, seed)
