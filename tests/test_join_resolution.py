"""A 40k join resolved in one change of the character's unit is the join resolved step by step.

``resolve_join`` moves the character and makes it part of the unit in one ``evolve`` when
no dangerous terrain test can come between, and reuses the gap the ruling measured
(``PlannedMove.gap_to``, kept on the planned move).  These tests hold it to the steps it stands
for (``apply_moves``, then ``_joined``), on every legal join of the 40k examples and on
joins drawn around each host, with dice and without.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from herohammer import geometry as geo
from herohammer import movement
from herohammer.actions import Join
from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.rulesets.w40k3 import JOIN_INCHES, _joined
from herohammer.rulesets.w40k_special_moves import apply_moves
from herohammer.scenario import load_scenario
from herohammer.state import GameState
from herohammer.units import CharacterKind

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("40k*.yaml"))


def _step_by_step(game: Game, state: GameState, action: Join, seed: int) -> tuple[GameState, list[str]] | None:
    """The join as separate steps (for a character whose move meets no dangerous terrain), or None."""
    rules = game.ruleset
    character = state.unit(action.character)
    dice = SeededDice(seed)
    to = action.to if action.to is not None else character.models[0].at
    moves, events = rules._roll_difficult(state, character, movement.plan(character, [to], state.terrain), dice,
                                          alone=True)
    if any(mv.dangerous for mv in moves):
        return None
    after = apply_moves(state, moves, {character.id})
    placed = geo.Placed(character.models[0].base, moves[0].to, character.models[0].facing)
    if geo.group_distance([placed], after.unit(action.unit).placed) > JOIN_INCHES + movement.EPSILON:
        return None  # stops short: resolved as before
    after = after.replace_unit(_joined(after.unit(character.id), action.unit))
    return after, [e.describe() for e in events] + [f"{character.id} joins {action.unit} "
                                                    f"[{rules.join_rule}, {rules.phase_only_rule}]"]


def _joins(game: Game, rng: random.Random) -> list[Join]:
    """The legal joins, and joins to points drawn around each host (legal or not)."""
    state = game.state
    out = [a for a in game.legal_actions() if isinstance(a, Join)]
    for c in state.units:
        if c.character is not CharacterKind.INDEPENDENT or not c.models:
            continue
        for host in state.side_units(c.side):
            if host.id == c.id or host.joined:
                continue
            for _ in range(6):
                x, y = rng.choice(host.models).at
                out.append(Join(do="join", character=c.id, unit=host.id,
                                to=(x + rng.uniform(-3.5, 3.5), y + rng.uniform(-3.5, 3.5))))
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_join_resolves_as_its_steps(path: Path) -> None:
    rng = random.Random(11)
    game = Game(load_scenario(path), SeededDice(3))
    seen = 0
    for _ in range(8):
        state = game.state
        for action in _joins(game, rng):
            if not game.check(action).legal:
                continue
            for seed in (1, 2):
                expected = _step_by_step(game, state, action, seed)
                after, events = game.ruleset.resolve(state, action, SeededDice(seed))
                if expected is not None:
                    seen += 1
                    assert after == expected[0]
                    assert [e.describe() for e in events] == expected[1]
        legal = game.legal_actions()
        game.apply(rng.choice(legal))
    if "joins" in path.name:
        assert seen  # the example's own join was compared
