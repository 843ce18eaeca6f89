"""The fast enumeration (classes of totals, chained pools) gives exactly the brute-force answer.

The oracle is ``enumerate_outcomes(..., fine=True)``: every total of every roll and
every stage of a chain its own chance node, as the enumerator did before the cuts.
Each legal action the rules propose in every example (and the benchmark positions) is
enumerated both ways and the distributions must be equal as exact Fractions; the
chance nodes themselves are checked against icepool.
"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest

from herohammer.action_odds import summarise, summary_view
from herohammer.actions import parse_action
from herohammer.dice import Dice, Reroll, ScriptedDice, SeededDice, Split, Stage, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.scenario import load_scenario, state_from_data
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import scenarios  # noqa: E402  (the benchmark positions)

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
#: Kinds of action whose odds players ask for; moves are proposals, not plans.
ROLLING = ("shoot", "manifest", "assault", "fight", "regroup", "charge", "join")
#: Brute force is the slow oracle: actions whose fine tree is larger are left to the fight tests below.
ORACLE_RUNS = 4_000


def _both(state: GameState, action: Any, limit: int = ORACLE_RUNS) -> tuple[Any, Any] | None:
    ruleset = get_ruleset(state.ruleset)

    def play(dice: Dice) -> Any:
        return summarise(state, ruleset.resolve(state, action, dice))

    try:
        fine = enumerate_outcomes(play, limit, fine=True)
    except Exception as exc:  # EnumerationTooLarge: too slow to brute-force here
        if type(exc).__name__ == "EnumerationTooLarge":
            return None
        raise
    # as ``odds action`` asks: its summary reads no positions, so a fall-back distance is one branch,
    # and events only through ``summary_view``, so a loop merges what looks alike through it
    return enumerate_outcomes(play, positions=False, event_view=summary_view), fine


def _actions(state: GameState) -> list[Any]:
    return [a for a in Game(state).legal_actions() if a.do in ROLLING]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_rolling_action_of_every_example_is_exactly_the_brute_force_answer(path: Path) -> None:
    state = load_scenario(path)
    compared = 0
    for action in _actions(state):
        pair = _both(state, action)
        if pair is None:
            continue
        fast, fine = pair
        assert dict(fast.items()) == dict(fine.items()), action
        compared += 1
    if _actions(state):
        assert compared, f"no action of {path.name} was small enough to compare"


@pytest.mark.parametrize("name,data,action", [
    ("volley", scenarios.volley(5), scenarios.VOLLEY_ACTION),
    ("smite", scenarios.smite(), scenarios.SMITE_ACTION),
])
def test_benchmark_positions_match_brute_force(name: str, data: dict[str, Any], action: dict[str, Any]) -> None:
    state = state_from_data(data)
    assert Game(state).check(action).legal
    pair = _both(state, parse_action(action), 200_000)
    assert pair is not None
    fast, fine = pair
    assert dict(fast.items()) == dict(fine.items())


def test_fast_enumeration_runs_the_rules_code_fewer_times() -> None:
    """The point of the cuts: a Leadership test is 2 branches, a volley one per wound count."""
    from herohammer.checks import leadership_test

    calls = {"fast": 0, "fine": 0}

    def counted(kind: str) -> Callable[[Dice], bool]:
        def run(dice: Dice) -> bool:
            calls[kind] += 1
            return leadership_test(dice, 7).passed
        return run

    assert enumerate_outcomes(counted("fast")) == enumerate_outcomes(counted("fine"), fine=True)
    assert (calls["fast"], calls["fine"]) == (2, 11)


@pytest.mark.parametrize("splits", [(7,), (2, 8, 11), (2, 1, 11), (12,), (3, 5, 9)])
def test_a_classed_total_matches_icepool_per_class(splits: tuple[int, ...]) -> None:
    def run(dice: Dice) -> int:
        total = dice.total(2, "test", "core.test.leadership", splits=splits)
        return sum(1 for s in splits if total > s)  # the class, all the caller may ask

    two = 2 @ icepool.Die(range(1, 7))
    expected: dict[int, Fraction] = {}
    for face in range(2, 13):
        cls = sum(1 for s in splits if face > s)
        expected[cls] = expected.get(cls, Fraction(0)) + Fraction(two.quantity(face), two.denominator())
    assert dict(enumerate_outcomes(run).items()) == expected


@pytest.mark.parametrize("n,hit,wound,rh,rw", [
    (10, 3, 4, Reroll.NONE, Reroll.NONE), (7, 4, 2, Reroll.FAILED, Reroll.ONES), (12, 5, 6, Reroll.ONES, Reroll.NONE),
    (6, 1, 4, Reroll.NONE, Reroll.NONE), (6, 4, 7, Reroll.NONE, Reroll.NONE), (0, 4, 4, Reroll.NONE, Reroll.NONE),
])
def test_a_chained_pool_matches_icepool_and_brute_force(n: int, hit: int, wound: int, rh: Reroll, rw: Reroll) -> None:
    def run(dice: Dice) -> int:
        return dice.pools(n, Stage(hit, "to hit", "published.to-hit-bs", rh),
                          Stage(wound if wound <= 6 else None, "to wound", "published.to-wound", rw))[-1]

    def die(target: int, reroll: Reroll) -> icepool.Die:
        faces = {Reroll.NONE: [], Reroll.FAILED: list(range(1, target)), Reroll.ONES: [1]}[reroll]
        fresh = icepool.Die(range(1, 7))
        return fresh.reroll(faces, depth=1) if faces else fresh

    one = icepool.map(lambda h, w: int((hit <= 1 or h >= hit) and wound <= 6 and w >= wound), die(hit, rh), die(wound, rw))
    total = n @ one if n else icepool.Die([0])
    expected = {k: Fraction(total.quantity(k), total.denominator()) for k in total.outcomes() if total.quantity(k)}
    fast = enumerate_outcomes(run)
    assert dict(fast.items()) == expected
    assert fast == enumerate_outcomes(run, fine=True)


@pytest.mark.parametrize("n,hit,wound,save", [(8, 3, 4, 3), (5, 4, 4, None), (6, 2, 3, 7), (0, 4, 4, 4)])
def test_a_chain_ending_in_failed_saves_matches_icepool_and_brute_force(n: int, hit: int, wound: int,
                                                                         save: int | None) -> None:
    """Hit, wound, then the saves the wounds fail: one chance node over the unsaved wounds."""
    def run(dice: Dice) -> tuple[int, ...]:
        return dice.pools(n, Stage(hit, "to hit", "published.to-hit-bs"), Stage(wound, "to wound", "published.to-wound"),
                          Stage(save if save is None or save <= 6 else None, "saves", "published.saves", fails=True))[-1:]

    fails = 6 if save is None or save > 6 else save - 1  # faces that fail the save (None: no save)
    one = icepool.map(lambda h, w, s: int(h >= hit and w >= wound and s <= fails), *(icepool.Die(range(1, 7)),) * 3)
    total = n @ one if n else icepool.Die([0])
    expected = {(k,): Fraction(total.quantity(k), total.denominator()) for k in total.outcomes() if total.quantity(k)}
    fast = enumerate_outcomes(run)
    assert dict(fast.items()) == expected
    assert fast == enumerate_outcomes(run, fine=True)


@pytest.mark.parametrize("n,models", [(6, "AAB"), (5, "AB"), (7, "A"), (4, "BBBA")])
def test_a_chain_split_among_save_groups_matches_brute_force(n: int, models: str) -> None:
    """Wounds shared round the models (groups A: 3+, B: no save); one chance node per unsaved count of each group."""
    order = tuple(dict.fromkeys(models))
    shares = tuple(tuple(sum(1 for k in range(w) if models[k % len(models)] == g) for g in order) for w in range(n + 1))
    split = Split(tuple(Stage(3 if g == "A" else None, f"saves {g}", "published.saves", fails=True) for g in order),
                  shares)

    def run(dice: Dice) -> tuple[Any, ...]:
        counts = dice.pools(n, Stage(4, "to hit", "published.to-hit-bs"), Stage(4, "to wound", "published.to-wound"),
                            split=split)
        return (*counts[2:], tuple(k > 0 for k in shares[counts[1]]))  # what the caller may read

    fast = enumerate_outcomes(run)
    assert fast == enumerate_outcomes(run, fine=True)
    assert len(fast) < len(enumerate_outcomes(lambda d: d.pools(n, Stage(4, "h", "r"), Stage(4, "w", "r"),
                                                                split=split), fine=True))
    play = ScriptedDice([6] * n + [6] * n + [1] * n)  # every die hits and wounds; every save fails
    assert play.pools(n, Stage(4, "h", "r"), Stage(4, "w", "r"), split=split)[2:] == shares[n]


def test_play_counts_the_failed_saves_of_a_chain() -> None:
    dice = ScriptedDice([6, 5, 1, 4, 4, 3, 2])
    counts = dice.pools(3, Stage(4, "to hit", "r"), Stage(4, "to wound", "r"), Stage(3, "saves", "r", fails=True))
    assert counts == (2, 2, 1)  # hits 6 5; wounds 4 4; saves 3 (saved) 2 (failed)
    assert [r.faces for r in dice.log] == [(6, 5, 1), (4, 4), (3, 2)]


def test_a_roll_that_only_places_models_is_one_branch_when_no_position_is_read() -> None:
    """A fall-back distance: 11 branches for a caller that reads positions, one (the most likely, 7) otherwise."""
    def run(dice: Dice) -> int:
        return dice.total(2, "fall back distance", "published.fall-back", places=True)

    assert len(enumerate_outcomes(run)) == 11
    assert dict(enumerate_outcomes(run, positions=False).items()) == {7: Fraction(1)}
    assert len(enumerate_outcomes(run, positions=False, fine=True)) == 11  # the oracle never cuts
    assert dict(enumerate_outcomes(lambda d: d.total(2, "range", "r") > 6, positions=False).items()) == {
        False: Fraction(15, 36), True: Fraction(21, 36)}  # a total without ``places`` still branches


def test_play_still_rolls_every_die_of_a_chain() -> None:
    """Seeded and scripted play roll the hits, then the wounds, each logged with its faces."""
    dice = ScriptedDice([6, 1, 5, 2, 4, 3])
    hits, wounds = dice.pools(4, Stage(4, "to hit", "published.to-hit-bs"), Stage(4, "to wound", "published.to-wound"))
    assert (hits, wounds) == (2, 1)
    assert [r.faces for r in dice.log] == [(6, 1, 5, 2), (4, 3)]
    seeded = SeededDice(3)
    seeded.pools(10, Stage(4, "to hit", "r"), Stage(4, "to wound", "r"))
    assert all(r.faces is not None and len(r.faces) == int(r.request.split("D6")[0]) for r in seeded.log)


@dataclass(frozen=True)
class _Walker:
    """A toy loop's carry: where it stands, the steps taken, and a log no step reads."""

    at: int
    steps: int
    log: tuple[int, ...]

    def key(self) -> tuple[int, int, int]:
        return self.at, self.steps, sum(self.log)  # the caller reads only how many sixes the log holds

    def fresh(self) -> _Walker:
        return _Walker(self.at, self.steps, ())

    def join(self, stepped: _Walker) -> _Walker:
        return _Walker(stepped.at, stepped.steps, self.log + stepped.log)


def test_a_loop_whose_log_no_step_reads_walks_each_step_once_per_fresh_carry() -> None:
    """``fresh``/``join``: the same answer as the whole replay and the plain merged loop, from fewer step runs."""
    runs = {"plain": 0, "fresh": 0, "whole": 0}

    def step(kind: str) -> Callable[[_Walker, Dice], _Walker]:
        def run(walker: _Walker, dice: Dice) -> _Walker:
            runs[kind] += 1
            roll = dice.d6("step", "r")
            return _Walker(min(walker.at + (roll >= 4), 2), walker.steps + 1, (*walker.log, int(roll == 6)))
        return run

    def play(kind: str, split: bool) -> Callable[[Dice], tuple[int, int]]:
        def run(dice: Dice) -> tuple[int, int]:
            start = _Walker(0, 0, ())
            end = dice.loop(start, step(kind), lambda w: w.steps == 4, _Walker.key,
                            _Walker.fresh if split else None, _Walker.join if split else None)
            return end.at, sum(end.log)
        return run

    fresh = enumerate_outcomes(play("fresh", True))
    assert fresh == enumerate_outcomes(play("plain", False))
    assert fresh == enumerate_outcomes(play("whole", True), merge_loops=False)
    assert fresh == enumerate_outcomes(play("whole", True), fine=True)
    assert runs["fresh"] < runs["plain"]
    # in play the loop is the plain one: ``fresh`` and ``join`` are only an enumeration's shortcut
    assert play("fresh", True)(SeededDice(3)) == play("plain", False)(SeededDice(3))


class _Carry:
    """A loop's carry that a weak reference can watch (no value of the game is kept once an enumeration ends)."""

    def __init__(self, at: int, steps: int) -> None:
        self.at, self.steps = at, steps


def test_a_loop_s_carries_die_with_its_enumeration() -> None:
    """Nothing of a walk outlives it: a loop's final carries (in a game, states and all they remember) were kept by
    the module's cache of chance weights until 4,096 other chance nodes pushed them out (issue 11: a compile's every
    state stayed alive after it, and the collector walked them again)."""
    made: list[weakref.ref[_Carry]] = []

    def step(carry: _Carry, dice: Dice) -> _Carry:
        after = _Carry(min(carry.at + (dice.d6("step", "r") >= 4), 2), carry.steps + 1)
        made.append(weakref.ref(after))
        return after

    def rules(dice: Dice) -> int:
        return dice.loop(_Carry(0, 0), step, lambda c: c.steps == 3, lambda c: (c.at, c.steps)).at

    dist = enumerate_outcomes(rules)
    assert dist == enumerate_outcomes(rules, fine=True)
    gc.collect()
    assert made and [ref for ref in made if ref() is not None] == []
