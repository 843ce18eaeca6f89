"""A library user's rules that read events' data under the fast exact enumeration (reliability round 53).

Round 52 made reading what the fast walk only represents (an event's words and rolls, a rolled value in its data)
go die by die.  Judge rounds 57, 59 and 61 read the names slain from the casualties' words, so each of their fights
was walked die by die twice (once for the caller, once as the oracle): 322 s and 70 s under load.  The names slain,
and the Initiative step that struck, are facts of the state, not of a roll: the casualties (and destroyed) events now
carry them as data (``models``; the ``initiative`` event its step), which a caller reads on the fast walk and gets
exactly what brute force (``fine=True``, every die a branch) gives.  Reading a rolled value still goes die by die.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import Dice, RepresentativesRead, ScriptedDice, SeededDice, enumerate_outcomes, estimate_runs
from herohammer.game import Game
from herohammer.rulings import EXACT_DATA, ROLLED_DATA, Event, represented
from herohammer.scenario import state_from_data
from herohammer.state import GameState

from _w40k import captain_between_boyz, model, scenario
from test_judge_40k_round62 import FEAR, lone_farseer

FIGHT_CAP = {"do": "fight", "unit": "cap"}
Read = Callable[[Game], Any]



def runs_and_odds(state: GameState, action: dict[str, Any], read: Read) -> tuple[int, int, dict[Any, Fraction]]:
    """Play ``action`` under the fast enumeration and return its rules-code runs, brute force's, and the distribution
    of ``read``, asserted equal to brute force by exact equality."""
    runs = [0]

    def play(dice: Dice) -> Any:
        runs[0] += 1
        g = Game(state, dice)
        g.apply(action, dice=dice)
        return read(g)

    fast = enumerate_outcomes(play)
    fast_runs = runs[0]
    assert fast == enumerate_outcomes(play, fine=True)
    return fast_runs, runs[0] - fast_runs, dict(fast)


def names_slain(g: Game) -> tuple[str, ...]:
    """The models slain, in the order the casualties events name them, read from their data."""
    return tuple(name for e in g.log if e.kind == "casualties" for name in dict(e.data)["models"])


def names_said(g: Game) -> tuple[str, ...]:
    """The same, read from the casualties' words."""
    return tuple(name for e in g.log if e.kind == "casualties"
                 for name in e.message.removeprefix("slain: ").split(", "))


def slain_by_step(g: Game) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Each Initiative step that struck (its ``initiative`` data) with the names slain after it."""
    steps: list[tuple[int, tuple[str, ...]]] = []
    for e in g.log:
        if e.kind == "initiative":
            steps.append((dict(e.data)["initiative"], ()))
        elif e.kind == "casualties" and steps:
            steps[-1] = (steps[-1][0], (*steps[-1][1], *dict(e.data)["models"]))
    return tuple(steps)


def test_the_names_slain_read_from_data_are_exact_on_the_fast_walk() -> None:
    """The Captain's three blows (I5, 3+ to hit, 4+ to wound: 1/3 each) on b1 and b2, then the survivors' blows back.
    Read from the casualties' data, the names slain equal brute force, in a tenth of its runs or fewer; the same
    names read from the words equal it too, but only die by die (more runs than brute force: the fast walk was left).
    Both readings give the same distribution."""
    state = captain_between_boyz("40k3")
    fast_runs, brute_runs, by_data = runs_and_odds(state, FIGHT_CAP, names_slain)
    word_runs, _, by_words = runs_and_odds(state, FIGHT_CAP, names_said)
    assert 10 * fast_runs < brute_runs < word_runs
    assert by_data == by_words and len(by_data) > 2


def test_the_initiative_step_read_from_data_is_exact() -> None:
    """Which step struck and whom it slew, read from data only, equals brute force on the fast walk (3rd edition: the
    4th's tree, b3 held out of the fight, takes brute force a minute and a half)."""
    fast_runs, brute_runs, odds = runs_and_odds(captain_between_boyz("40k3"), FIGHT_CAP, slain_by_step)
    assert fast_runs < brute_runs
    assert {steps[0][0] for steps in odds} == {5}  # the Captain's I5 strikes first


def test_the_data_says_what_the_words_say() -> None:
    """With the dice fixed, each casualties event's ``models`` are the names its words give, and its count the
    ``slain`` it already carried."""
    g = Game(captain_between_boyz("40k3"), ScriptedDice([6] * 40))
    events = g.apply(FIGHT_CAP)
    slain = [e for e in events if e.kind == "casualties"]
    assert slain
    for e in slain:
        data = dict(e.data)
        assert list(data["models"]) == e.message.removeprefix("slain: ").split(", ")
        assert data["slain"] == len(data["models"])


def test_a_rolled_value_in_data_still_goes_die_by_die() -> None:
    """3rd edition's Perils of the Warp: the Instant Death event's data quote the rolled Strength (``ROLLED_DATA``),
    so reading them goes die by die (more runs than brute force) and equals it; the same action's casualties' names
    keep the fast walk."""
    state = lone_farseer("40k3").state

    def outright(g: Game) -> tuple[Any, ...]:
        return tuple(dict(e.data)["strength"] for e in g.log if e.kind == "instant_death")

    read_runs, brute_runs, odds = runs_and_odds(state, FEAR, outright)
    assert read_runs > brute_runs and set(odds) == {(), (6,)}
    fast_runs, brute_runs, slain = runs_and_odds(state, FEAR, names_slain)
    assert fast_runs < brute_runs and ("Farseer",) in slain


# == every data field is classified (reliability round 53, item 2) ===================================================

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.yaml"))


def played_examples(seeds: int = 4, actions: int = 60) -> list[Event]:
    """The events of each example scenario played on by legal actions picked at random (seeded dice and picks)."""
    events: list[Event] = []
    for path in EXAMPLES:
        for seed in range(seeds):
            g = Game.load(path, dice=SeededDice(seed))
            pick = random.Random(seed)
            for _ in range(actions):
                legal = g.legal_actions()
                if not legal:
                    break
                g.apply(pick.choice(legal))
            events += g.log
    return events


def unclassified(events: list[Event]) -> set[tuple[str, str]]:
    """The (kind, field) of each data field neither known exact (``EXACT_DATA``) nor known rolled (``ROLLED_DATA``)."""
    return {(e.kind, name) for e in events for name, _ in e.data if name not in EXACT_DATA | ROLLED_DATA}


def test_every_data_field_the_examples_build_is_classified() -> None:
    """A field added to an event's data must say whether it quotes a roll: the examples played on at random build no
    field outside ``EXACT_DATA`` and ``ROLLED_DATA`` (the lists do not overlap); a field in neither is caught."""
    assert not EXACT_DATA & ROLLED_DATA
    events = played_examples()
    assert {"models", "initiative", "outcome", "unit"} <= {name for e in events for name, _ in e.data}
    assert unclassified(events) == set()
    assert unclassified([Event("roll_off", "7 beats 5", data=(("total", 7),))]) == {("roll_off", "total")}


def test_a_field_nobody_classified_is_read_die_by_die() -> None:
    """Under the fast walk an event whose data hold a field in neither list raises ``RepresentativesRead`` when its
    data are read (the walk goes die by die: exact, whatever the field quotes); one with known-exact fields only is
    read as is."""
    (unknown, known) = represented([Event("roll_off", "7 beats 5", data=(("total", 7),)),
                                    Event("casualties", "slain: b1", data=(("slain", 1), ("models", ("b1",))))])
    with pytest.raises(RepresentativesRead, match="'total'"):
        unknown.data
    assert dict(known.data) == {"slain": 1, "models": ("b1",)}


def all_data(g: Game) -> frozenset[tuple[Any, int]]:
    """Every event's kind and data, read through the fast walk's events, counted regardless of order."""
    return frozenset(Counter((e.kind, e.data) for e in g.log).items())


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.name in {
    "40k3_librarian_psychic.yaml", "40k4_chaplain_combat.yaml", "40k3_chaplain_falling_back.yaml",
    "t9a_unit_reduced_to_character.yaml"}], ids=lambda p: p.stem)
def test_the_data_of_every_event_of_an_examples_first_actions_equal_brute_force(path: Path) -> None:
    """Each legal action of the example whose tree brute force can walk (at most 20,000 runs): the kinds and data of
    all its events, read on the fast walk (a rolled field sends it die by die), equal brute force's by exact
    equality.  A field wrongly held exact that quotes a representative roll would differ here."""
    g = Game.load(path)
    tried = 0
    for action in g.legal_actions():
        def play(dice: Dice) -> Any:
            played = Game(g.state, dice)
            played.apply(action, dice=dice)
            return all_data(played)

        if estimate_runs(play, fine=True).runs > 20_000:
            continue
        assert enumerate_outcomes(play) == enumerate_outcomes(play, fine=True), action
        tried += 1
    assert tried


def test_a_rolled_value_wrongly_held_exact_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a judge's Leadership test whose event also quoted its 2D6 total in a field held
    exact (``outcome``) gives, on the fast walk, one representative total per class (at most Ld, over), and brute
    force eleven: the distributions differ.  Without that field they are equal."""
    from herohammer.rulesets import get_ruleset
    state = state_from_data(scenario("40k3", [{"id": "tac", "models": [model(f"t{i}", 20 + 2 * i, 20)
                                                                       for i in range(3)]}]))
    cls = type(get_ruleset("40k3"))
    test = {"do": "test", "unit": "tac", "characteristic": "Ld"}

    def play(dice: Dice) -> Any:
        g = Game(state, dice)
        g.apply(test, dice=dice)
        return all_data(g)

    assert enumerate_outcomes(play) == enumerate_outcomes(play, fine=True)
    honest = cls.resolve_test

    def quoting(self: Any, state: GameState, action: Any, dice: Dice) -> Any:
        after, events = honest(self, state, action, dice)
        return after, [Event(e.kind, e.message, e.rules, e.rolls,
                             (*e.data, ("outcome", str(sum(r.value for r in e.rolls))))) for e in events]

    monkeypatch.setattr(cls, "resolve_test", quoting)
    fast, brute = enumerate_outcomes(play), enumerate_outcomes(play, fine=True)
    assert fast != brute and len(brute) == 11 > len(fast)
