"""A sequence fuzz for the 9th Age: random legal sequences of play on every 9th Age example, invariants after each step.

The 40k one (``test_40k_sequence_fuzz.py``) had no 9th Age twin until session 32, when an
exploration of this kind found a state that ``play --out`` saved and no command could load (a
Wizard Conclave's champion with a wound taken, ``test_t9a_conclave_champion_saved.py``).
Hypothesis draws which legal action to take at each step (the end of a phase less often, so
that sequences reach charges, fights, spells and joins) and the dice seed; a failing sequence
shrinks to the shortest one.  After every step:

- every legal action offered is ruled legal by ``rule_on``, and applying it is not refused;
- no living character is joined to a unit that no longer exists or has no models left;
- undo restores the state, re-applying with the same dice gives the same state and log, and
  the state round-trips through save and load.

The default profile is short (seconds); ``HEROHAMMER_FUZZ=long`` runs many more and longer
sequences on demand.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data, state_to_data

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted([*(ROOT / "examples").glob("*.yaml"), *(ROOT / "src" / "herohammer" / "examples").glob("*.yaml")])
EXAMPLES = [p for p in EXAMPLES if load_scenario(p).ruleset == "t9a"]
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
STEPS = 40 if LONG else 14
PROFILE = settings(max_examples=80 if LONG else 4, deadline=None, derandomize=not LONG,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_invariants(g: Game) -> None:
    """Assert what must hold after every step of play."""
    state = g.state
    for u in state.units:
        if u.alive and u.joined is not None:
            assert state.has_unit(u.joined) and state.unit(u.joined).alive, f"{u.id} joined to a dead {u.joined}"
    assert state_from_data(state_to_data(state)) == state  # every state play reaches is saved and loads again


@pytest.mark.rule("t9a.join.move", "t9a.leave.when", "t9a.charge-out.declare", "t9a.combined.last-survivor")
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
@PROFILE
@given(data=st.data())
def test_random_legal_sequences_keep_the_9th_age_invariants(path: Path, data: st.DataObject) -> None:
    g = Game(load_scenario(path), SeededDice(0))
    check_invariants(g)
    for _ in range(STEPS):
        legal = g.legal_actions()
        if not legal:  # the battle is over
            break
        others = [a for a in legal if a.do != "end_phase"]
        pool = others if others and data.draw(st.integers(0, 5), label="end the phase?") else legal
        action = data.draw(st.sampled_from(pool), label="action")
        ruling = g.ruleset.rule_on(g.state, action)
        assert ruling.legal, (action.to_json(), ruling)
        seed = data.draw(st.integers(0, 2**16), label="dice seed")
        before = g.state
        g.apply(action, dice=SeededDice(seed))
        after, log = g.state, g.log
        check_invariants(g)
        g.undo()
        assert g.state == before
        g.apply(action, dice=SeededDice(seed))
        assert g.state == after and g.log == log
