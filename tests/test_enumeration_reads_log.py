"""A library user's rules that read the game's log under the fast exact enumeration (reliability round 52).

The fast walk hands rules code one representative roll per class of results (a Leadership test's total, a chain's
hits before its wounds, a loop's merged carries), so the values in the dice's log and the words built from them are
one branch's.  Before, a caller who read them got a wrong distribution silently (the first cases below differed from
brute force: 27 volley messages against 195, a Leadership test's words one per class).  Now reading them makes the
enumeration go die by die (``RepresentativesRead``), so every case here equals the brute-force oracle
(``fine=True``, every die a branch) by exact equality, and a caller who reads only what is exact (the state, events'
kinds and rule ids) keeps the fast walk.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.action_odds import action_odds, summarise
from herohammer.dice import Dice, RepresentativesRead, enumerate_outcomes, estimate_runs
from herohammer.errors import EnumerationTooLarge
from herohammer.game import Game
from herohammer.rulings import Event
from herohammer.scenario import state_from_data
from herohammer.state import GameState

from _t9a import melee_scenario, ORC
from _w40k import captain_between_boyz, scenario, squad, two_d6_at_most

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import scenarios  # noqa: E402  (the benchmark positions)

Read = Callable[[Game, Dice], Any]


def runs_and_odds(state: GameState, action: dict[str, Any], read: Read) -> tuple[int, int, dict[Any, Fraction]]:
    """Play ``action`` through ``Game`` under the fast enumeration and return the rules-code runs it took, those brute
    force took, and the distribution of ``read``, asserted equal to brute force (every die a branch) by exact
    equality."""
    runs = [0]

    def play(dice: Dice) -> Any:
        runs[0] += 1
        g = Game(state, dice)
        g.apply(action, dice=dice)
        return read(g, dice)

    fast = enumerate_outcomes(play)
    fast_runs = runs[0]
    assert fast == enumerate_outcomes(play, fine=True)
    return fast_runs, runs[0] - fast_runs, dict(fast)


def words(g: Game, dice: Dice) -> tuple[str, ...]:
    return tuple(e.message for e in g.log)


def kinds(g: Game, dice: Dice) -> tuple[str, ...]:
    return tuple(e.kind for e in g.log)


def rolled(g: Game, dice: Dice) -> tuple[tuple[str, int], ...]:
    return tuple((r.purpose, r.value) for r in dice.log)


def volley() -> GameState:
    return state_from_data(scenarios.volley(2))


def ld_tested() -> GameState:
    """40k3: a squad of three Ld8 troopers in the Movement phase, to take a Leadership test."""
    return state_from_data(scenario("40k3", [squad("tac", 20, 20)]))


LD_TEST = {"do": "test", "unit": "tac", "characteristic": "Ld"}



FIGHT_CAP = {"do": "fight", "unit": "cap"}


def orcs_fight() -> GameState:
    """The 9th Age: an armed orc (A1) fights two Spearmen and their Hero, who strike no blow back."""
    return state_from_data(melee_scenario(active="orcs", n=2, orcs=1, orc_profile=ORC))


T9A_FIGHT = {"do": "fight", "unit": "orcs"}


@pytest.mark.parametrize("read", [words, rolled], ids=["words", "rolls"])
def test_a_volley_read_from_the_log_is_exact(read: Read) -> None:
    """Two Marines' rapid fire: the hits before the wounds are a chain's representative count ("4 shots: 2 hits, 1
    wound"), so the words and the rolls gave 27 results where brute force gives 195.  Now the same."""
    _, _, odds = runs_and_odds(volley(), scenarios.VOLLEY_ACTION, read)
    assert len(odds) == 195


def test_a_volley_read_by_kinds_stays_fast() -> None:
    """Kinds are exact under the fast walk: reading only them keeps it (far fewer runs than brute force)."""
    runs, brute_runs, odds = runs_and_odds(volley(), scenarios.VOLLEY_ACTION, kinds)
    assert 5 * runs < brute_runs and len(odds) == 4


def test_a_leadership_tests_words_are_exact() -> None:
    """A Leadership test branches once per class (at most Ld, over): its words said one representative total each.
    Read die by die, each total's words come with its own chance (2D6 = 7 in 6/36), the pass with 2D6 <= 8's."""
    _, _, odds = runs_and_odds(ld_tested(), LD_TEST, words)
    assert len(odds) == 11
    assert sum(p for said, p in odds.items() if said[-1].endswith("passes")) == two_d6_at_most(8)
    assert sum(p for said, p in odds.items() if "rolls 7" in said[-1] or " 7 " in said[-1]) == Fraction(6, 36)


def test_a_fights_words_are_exact_and_its_kinds_fast() -> None:
    """A 40k fight is a loop of Initiative steps whose equal carries merge: read by its words, it equals brute force
    now; read by its kinds alone, it equals brute force on the fast walk, in fewer runs than the words took."""
    state = captain_between_boyz("40k3")
    word_runs, brute_runs, said = runs_and_odds(state, FIGHT_CAP, words)
    kind_runs, _, _ = runs_and_odds(state, FIGHT_CAP, kinds)
    assert 10 * kind_runs < brute_runs < word_runs
    assert len(said) > 1


def test_a_t9a_fights_words_are_exact() -> None:
    """The 9th Age fight's loop of strikes: its words, read from the game, equal brute force; read by kinds, too, on
    the fast walk."""
    state = orcs_fight()
    _, _, said = runs_and_odds(state, T9A_FIGHT, words)
    kind_runs, brute_runs, _ = runs_and_odds(state, T9A_FIGHT, kinds)
    assert len(said) > 1 and kind_runs < brute_runs


def test_the_events_themselves_and_the_steps_rolls_are_exact() -> None:
    """Returning the events whole (hashed as the result), reading each one's rolls, or the rolls of ``Game.steps()``:
    each is what brute force gives."""
    runs_and_odds(ld_tested(), LD_TEST, lambda g, d: g.log)
    runs_and_odds(ld_tested(), LD_TEST, lambda g, d: tuple(r.value for e in g.log for r in e.rolls))
    runs_and_odds(volley(), scenarios.VOLLEY_ACTION, lambda g, d: tuple(r.value for s in g.steps() for r in s.rolls))


def test_a_represented_event_says_what_was_read() -> None:
    """Under the fast walk an event's words raise ``RepresentativesRead`` naming what was read and the event's kind;
    its kind and rules read as ever."""
    seen: list[str] = []

    def play(dice: Dice) -> Any:
        g = Game(ld_tested(), dice)
        event = g.apply(LD_TEST, dice=dice)[-1]
        assert isinstance(event, Event) and event.kind == "test" and isinstance(event.rules, tuple)
        try:
            return event.message
        except RepresentativesRead as read:
            seen.append(read.what)
            raise

    enumerate_outcomes(play)
    assert seen and "words" in seen[0] and "event" in seen[0]


def test_action_odds_summary_reading_words_is_exact() -> None:
    """``action_odds`` with a summary of the caller's: read by its words, the answer equals brute force over the
    resolution; a summary reading kinds and data (``summarise``'s labels) stays on the fast walk."""
    state = ld_tested()
    from herohammer.rulesets import get_ruleset
    from herohammer.actions import parse_action
    rules = get_ruleset("40k3")
    act = rules.named_now(state, parse_action(LD_TEST))

    def said(before: GameState, resolution: Any) -> tuple[str, ...]:
        return tuple(e.message for e in resolution[1])

    odds = action_odds(state, LD_TEST, summary=said)
    assert odds.exact
    assert dict(odds.weights) == dict(enumerate_outcomes(lambda d: said(state, rules.resolve(state, act, d)),
                                                         fine=True))
    calls = [0]

    def labelled(before: GameState, resolution: Any) -> Any:
        calls[0] += 1
        return summarise(before, resolution)

    assert dict(action_odds(state, LD_TEST, summary=labelled).weights) == dict(action_odds(state, LD_TEST).weights)
    assert calls[0] < 36


def test_too_large_die_by_die_says_why() -> None:
    """The benchmark's fight read by its words is far too large die by die: ``EnumerationTooLarge`` says the walk
    left the fast one because the rules read an event's words (the caller falls back to Monte Carlo); the same fight
    read by kinds is enumerated on the fast walk."""
    state = state_from_data(scenarios.fight("40k3"))

    def play(read: Read) -> Callable[[Dice], Any]:
        def run(dice: Dice) -> Any:
            g = Game(state, dice)
            g.apply(scenarios.FIGHT_ACTION, dice=dice)
            return read(g, dice)
        return run

    with pytest.raises(EnumerationTooLarge) as too_large:
        enumerate_outcomes(play(words), estimate_paths=16)
    assert "walking every die, since the rules read an event's words" in too_large.value.reason()
    assert estimate_runs(play(words)).runs > estimate_runs(play(kinds)).runs
