"""A compiled plan (``fastsim.compile_plan``) gives exactly what brute force gives, blind rounds included.

Blind rounds erase positions once the rest of the plan reads none (``unplaced``);
these tests hold them to the compile that keeps every position and to the brute-force
enumeration of whole runs, and check that a read of an erased position is always caught.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer import fastsim, geometry as geo
from herohammer.dice import Dice, enumerate_outcomes
from herohammer.scenario import state_from_data
from herohammer.simulate import Outcome, make_driver, outcome_of, run_engine_once
from herohammer.state import GameState
from herohammer.values import evolve
from herohammer.unplaced import UNKNOWN_PLACE, PositionsRead, erase_positions, is_erased

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def fight(ruleset: str) -> dict[str, Any]:
    """A Marine in base contact with a Boy: whoever loses may fall back 2D6 (eleven places)."""
    return {"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "squad", "models": [{"name": "Marine", "profile": MARINE, "base": 25,
                                                          "at": [20, 20]}]}],
                      "blue": [{"id": "boyz", "models": [{"name": "Boy", "profile": BOY, "base": 25,
                                                          "at": [20, 20.99]}]}]}}


FIGHT_THEN_END: list[dict[str, Any]] = [{"do": "fight", "unit": "squad"}, {"do": "end_phase"}]
#: The Boyz then move in their own turn: a move reads where they stand (when they may move at all).
FIGHT_THEN_MOVE: list[dict[str, Any]] = [*FIGHT_THEN_END, {"do": "move", "unit": "boyz", "to": [[20, 25]]}]


def compiled(data: dict[str, Any], plan: list[dict[str, Any]] | None, blind: bool) -> tuple[fastsim.CompiledPlan, dict[Outcome, Fraction]]:
    state = state_from_data(data)
    plan_ = fastsim.compile_plan(state, make_driver(state, plan), 10**6, blind=blind)
    return plan_, dict(zip(plan_.outcomes, plan_.exact))


def brute_force(data: dict[str, Any], plan: list[dict[str, Any]]) -> dict[Outcome, Fraction]:
    """Every whole run of the plan, every die face a branch (loops merged, as the fight tests allow)."""
    state = state_from_data(data)
    driver = make_driver(state, plan)

    def run(dice: Dice) -> Outcome:
        return outcome_of(state, run_engine_once(state, driver, dice))

    return dict(enumerate_outcomes(run, 400_000, fine=True, merge_loops=True).items())


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_blind_rounds_equal_the_compile_with_positions_and_brute_force(ruleset: str) -> None:
    blind, fast = compiled(fight(ruleset), FIGHT_THEN_END, blind=True)
    seeing, slow = compiled(fight(ruleset), FIGHT_THEN_END, blind=False)
    assert blind.blind_from == 0  # the end of the phase reads no positions: the fight itself is played blind
    assert seeing.blind_from is None
    assert fast == slow == brute_force(fight(ruleset), FIGHT_THEN_END)
    assert sum(fast.values()) == 1


def test_a_later_step_that_reads_positions_keeps_them_until_then() -> None:
    blind, fast = compiled(fight("40k3"), FIGHT_THEN_MOVE, blind=True)
    _, slow = compiled(fight("40k3"), FIGHT_THEN_MOVE, blind=False)
    assert blind.blind_from == 2  # only the move (the last step) is played blind
    assert fast == slow == brute_force(fight("40k3"), FIGHT_THEN_MOVE)
    skipped = [dict(o).get("skipped: step 3 (move)", 0) for o in fast]
    assert 0 in skipped and 1 in skipped  # some Boyz moved (their places read), some could not


def test_a_blind_compile_that_meets_a_position_drops_its_blind_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the cheap trial misses a read (here: made to), the compile itself finds it and starts again with positions."""
    monkeypatch.setattr(fastsim._Rounds, "trial", lambda self, frontier: None)
    blind, fast = compiled(fight("40k3"), FIGHT_THEN_MOVE, blind=True)
    _, slow = compiled(fight("40k3"), FIGHT_THEN_MOVE, blind=False)
    assert blind.blind_from == 2
    assert fast == slow


def erased_fight() -> tuple[GameState, GameState]:
    state = state_from_data(fight("40k3"))
    return state, erase_positions(state)


def test_an_erased_position_cannot_be_read() -> None:
    _, erased = erased_fight()
    marine, boy = erased.unit("squad").models[0], erased.unit("boyz").models[0]
    assert marine.at is UNKNOWN_PLACE and is_erased(erased)
    for read in (lambda: marine.at[0], lambda: tuple(marine.at), lambda: float(marine.at),  # type: ignore[arg-type]
                 lambda: marine.at == (20.0, 20.0), lambda: math.dist(marine.at, (0.0, 0.0)),
                 lambda: geo.distance(marine.placed, boy.placed), lambda: geo.in_base_contact(marine.placed, boy.placed)):
        with pytest.raises(PositionsRead):
            read()


def test_no_ordinary_handler_can_swallow_a_read() -> None:
    _, erased = erased_fight()
    with pytest.raises(PositionsRead):
        try:
            erased.unit("squad").models[0].at[1]
        except Exception:  # what rules code might write; it must not hide the read
            pytest.fail("PositionsRead was caught as an Exception")


def test_erased_states_that_differed_only_in_positions_merge() -> None:
    state, erased = erased_fight()
    boyz = state.unit("boyz")
    elsewhere = state.replace_unit(evolve(boyz, models=tuple(m.moved_to((m.at[0] + 5, m.at[1] + 5)) for m in boyz.models)))
    assert elsewhere != state
    assert erase_positions(elsewhere) == erased and hash(erase_positions(elsewhere)) == hash(erased)
    wounded = state.replace_unit(evolve(boyz, models=tuple(evolve(m, wounds_taken=1) for m in boyz.models)))
    assert erase_positions(wounded) != erased  # everything but the positions still counts


@pytest.mark.parametrize("example", ["40k3_chaplain_falling_back", "40k3_lone_captain_target", "40k4_hive_tyrant_target",
                                     "t9a_captain_joins_spearmen"])
def test_examples_under_the_default_policy_compile_the_same_blind_or_not(example: str) -> None:
    """The default policy reads positions at every step (it lists legal moves): blind rounds must never change a result."""
    from herohammer.scenario import read_data

    data = read_data(Path(__file__).resolve().parents[1] / "examples" / f"{example}.yaml")
    assert compiled(data, None, blind=True)[1] == compiled(data, None, blind=False)[1]



def test_a_fight_whose_events_show_the_same_labels_merges_them_and_compiles_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's tally reads events only by their labels (``fastsim.tally_view``): a fight's loop may merge carries whose
    events show the same labels; the compile must give what it gives when every event's kind, rules and data count.
    The 40k3 whole turn's plan, played with seeded dice up to its assault, is compiled from there."""
    import json
    import re

    from herohammer.dice import SeededDice
    from herohammer.game import Game
    from herohammer.scenario import read_data, state_to_data

    path = Path(__file__).resolve().parents[1] / "examples" / "40k3_whole_turn.yaml"
    plan = [json.loads(a) for a in re.findall(r"--action '([^']+)'", path.read_text(encoding="utf-8"))]
    start = [step["do"] for step in plan].index("assault")
    game = Game(state_from_data(read_data(path)), SeededDice(7))
    for step in plan[:start]:
        game.apply(step)
    data = state_to_data(game.state)
    merged, by_labels = compiled(data, plan[start:], blind=True)
    monkeypatch.setattr(fastsim, "tally_view", None)
    unmerged, by_events = compiled(data, plan[start:], blind=True)
    assert by_labels == by_events
    assert merged.outcomes == unmerged.outcomes and merged.exact == unmerged.exact  # the same order: the same samples
    assert merged.rules_code_runs < unmerged.rules_code_runs
    assert len(merged.outcomes) > 1 and list(merged.outcomes) == sorted(merged.outcomes, key=repr)  # the order sampled


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=3), st.integers() | st.booleans() | st.text(max_size=3)), max_size=3),
       st.lists(st.tuples(st.text(max_size=3), st.integers()), max_size=3))
def test_an_outcome_is_written_as_repr_writes_it(part: list[tuple[str, Any]], tally: list[tuple[str, int]]) -> None:
    """The compiled outcomes are ordered by their ``repr``, written from their state's part written once and their
    tally's items each written once (a second outcome reuses them)."""
    shown = ", ".join(map(repr, part))
    reprs: dict[Any, str] = {}
    assert fastsim._tuple_repr(shown, len(part), tuple(tally), reprs) == repr((*part, *tally))
    assert fastsim._tuple_repr(shown, len(part), tuple(tally[::-1]), reprs) == repr((*part, *tally[::-1]))
    assert set(reprs) == set(tally)
