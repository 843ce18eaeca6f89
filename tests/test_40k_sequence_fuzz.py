"""A sequence fuzz: random legal sequences of play on every 40k example, with the rulings' invariants after each step.

Hypothesis draws which legal action to take at each step (and the dice seed), so a failing
sequence shrinks to the shortest one that breaks a rule.  After every step:

- no living character is joined to a unit that no longer exists (or has no models left);
- a lone character is a legal target under the character rules or refused by them, never
  treated as part of a unit (``targets`` cites a character targeting rule for it);
- no model has moved more than its move allowance in the phase, however many actions moved it;
- undo restores the state, re-applying with the same dice gives the same state, and
  save/load round-trips.

The default profile is short (a few seconds); ``HEROHAMMER_FUZZ=long`` runs many more and
longer sequences on demand.
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
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.yaml") if load_scenario(p).ruleset in ("40k3", "40k4"))
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
STEPS = 40 if LONG else 12
PROFILE = settings(max_examples=60 if LONG else 3, deadline=None, derandomize=not LONG,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CHARACTER_TARGET_RULES = {"40k3.ic.target", "40k4.target.closest", "40k4.target.monstrous"}


def check_invariants(g: Game) -> None:
    """Assert what must hold after every step of play."""
    state = g.state
    for u in state.units:
        if u.alive and u.joined is not None:
            assert state.has_unit(u.joined) and state.unit(u.joined).alive, f"{u.id} joined to a dead {u.joined}"
        allowance = g.ruleset.move_allowance(state, u)  # type: ignore[attr-defined]
        for m in u.models:
            assert m.moved <= allowance + 1e-6, f"{m.name} moved {m.moved}\" of {allowance}\" this phase"
    for side in state.sides:
        shooters = [u for u in state.units if u.alive and u.side != side and not u.joined]
        lone = [u for u in state.units if u.alive and u.side == side and u.is_character and not u.joined]
        for shooter in shooters[:2]:
            rulings = g.ruleset.targets(state, shooter.id)
            for c in lone:
                ruling = rulings[c.id]
                assert "is part of" not in ruling.reason and "has joined" not in ruling.reason, ruling
                if any(m.profile.bs > 0 for m in shooter.models) and "line of sight" not in ruling.reason:
                    # a character locked in combat is no target of anyone's (the long profile reaches assaults)
                    assert (CHARACTER_TARGET_RULES | {"published.shooting-into-combat"}) & set(ruling.rules), ruling


def replay_same(g: Game, action: object, seed: int, after: GameState) -> None:
    """Undo, re-apply with the same dice, and round-trip the state through save/load."""
    log = g.log
    g.undo()
    g.apply(action, dice=SeededDice(seed))  # type: ignore[arg-type]
    assert g.state == after and g.log == log
    assert state_from_data(state_to_data(g.state)) == g.state


@pytest.mark.rule("40k3.ic.join", "40k4.ic.join", "40k4.char.retinue", "40k3.ic.target", "40k4.target.closest")
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
@PROFILE
@given(data=st.data())
def test_random_legal_sequences_keep_the_character_rules(path: Path, data: st.DataObject) -> None:
    g = Game(load_scenario(path), SeededDice(0))
    check_invariants(g)
    for _ in range(STEPS):
        legal = g.legal_actions()
        if not legal:  # the battle is over (published.game-length): the long profile plays that far
            assert g.why_no_actions() is not None
            break
        action = data.draw(st.sampled_from(legal), label="action")
        seed = data.draw(st.integers(0, 2**16), label="dice seed")
        g.apply(action, dice=SeededDice(seed))
        check_invariants(g)
        replay_same(g, action, seed, g.state)
