"""Random play from every 40k example: the API's invariants hold on every step (OpenSpiel style).

After each random legal action: undo restores the state and the log exactly, re-applying
with the same seeded dice gives the same state and events, save/load round-trips, and a
refused action changes nothing.  Action kinds whose ``resolve_<do>`` a ruleset does not
have yet (shooting, assault: being written) are left out of the walk, and the test says so.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from herohammer.actions import Action
from herohammer.dice import SeededDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data, state_to_data

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.yaml") if load_scenario(p).ruleset in ("40k3", "40k4"))
STEPS = 30


def resolvable(g: Game, action: Action) -> bool:
    """Say whether the ruleset can carry the action out yet."""
    return hasattr(g.ruleset, f"resolve_{action.do}")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_random_walk_keeps_the_invariants(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    g = Game(load_scenario(path), SeededDice(seed))
    kinds: set[str] = set()
    for _ in range(STEPS):
        legal = g.legal_actions()
        assert legal, "there is always at least end_phase"
        for a in legal:
            assert g.check(a).legal
        action = rng.choice([a for a in legal if resolvable(g, a)])
        kinds.add(action.do)
        before, log_before = g.state, g.log
        roll_seed = rng.randrange(2**32)
        events = g.apply(action, dice=SeededDice(roll_seed))
        after, log_after = g.state, g.log
        assert log_after == log_before + tuple(events)
        g.undo()
        assert g.state == before and g.log == log_before
        assert g.apply(action, dice=SeededDice(roll_seed)) == events
        assert g.state == after and g.log == log_after
        assert state_from_data(state_to_data(g.state)) == g.state
        # a refused action (another side's unit, or a wrong phase) changes nothing
        for other in g.ruleset.candidate_actions(g.state):
            if not g.check(other).legal:
                with pytest.raises(IllegalActionError):
                    g.apply(other)
                assert g.state == after and g.log == log_after
                break
    assert "end_phase" in kinds
    assert len(g.log) >= STEPS


def test_walk_reaches_every_phase_and_both_sides() -> None:
    g = Game(load_scenario(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml"), SeededDice(5))
    seen = set()
    for _ in range(7):
        seen.add((g.state.active, g.state.phase.value))
        g.apply({"do": "end_phase"})
    assert {p for _, p in seen} == {"movement", "shooting", "assault"} and {s for s, _ in seen} == {"red", "blue"}
    assert g.state.turn == 2


def test_unresolved_action_kinds_are_reported() -> None:
    """List the 40k action kinds the walk skips because no resolver exists yet (see the module doc)."""
    g = Game(load_scenario(EXAMPLES[0]))
    skipped = sorted(k for k in ("shoot", "assault", "manifest", "allocate", "fight")
                     if not hasattr(g.ruleset, f"resolve_{k}"))
    print("random walk skips (no resolver yet):", ", ".join(skipped) or "nothing")
    assert all(hasattr(g.ruleset, f"resolve_{k}") for k in ("move", "join", "leave", "end_phase"))
