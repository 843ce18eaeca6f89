"""No action ends with bases overlapping, in any ruleset: the shared check behind every hook.

Each ruleset checks its own moves; ``Ruleset.rule_on`` and ``Ruleset.resolve`` check
again, once for all, that no model whose place changed stands on another
(published.bases-apart).  A ruleset hook that forgets is simulated here by a subclass
that allows any move, so the shared check is what decides.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import Dice, SeededDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.rulesets import RULESETS
from herohammer.rulings import Ruling
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"40k3": ROOT / "examples" / "40k3_librarian_woods.yaml",
            "40k4": ROOT / "examples" / "40k4_librarian_joins_tactical.yaml",
            "t9a": ROOT / "examples" / "t9a_captain_joins_spearmen.yaml"}


def forgetful(ruleset: str, rolled: bool) -> Any:
    """Return a ruleset like ``ruleset`` whose move hook forgets to check where models end."""

    class Forgetful(RULESETS[ruleset]):  # type: ignore[misc,valid-type]
        def rule_move(self, state: GameState, action: Any) -> Ruling:
            return Ruling.allow("any move (this test's ruleset checks nothing itself)")

        def resolve_move(self, state: GameState, action: Any, dice: Dice) -> Any:
            if rolled:
                dice.d6("a move whose end depends on a roll", "published.bases-apart")
            unit = state.unit(action.unit)
            moved = [replace(m, at=tuple(to)) for m, to in zip(unit.models, action.to)]
            return state.replace_unit(replace(unit, models=tuple(moved) + unit.models[len(moved):])), []

    return Forgetful()


def _mover_and_enemy(game: Game) -> tuple[str, tuple[float, float], tuple[float, float]]:
    """Return a lone model's unit of the active side, its place, and an enemy model's place."""
    state = game.state
    mover = next(u for u in state.units if u.side == state.active and len(u.models) == 1 and u.joined is None)
    enemy = next(u for u in state.units if u.side != state.active)
    return mover.id, mover.models[0].at, enemy.models[0].at


@pytest.mark.rule("published.bases-apart")
@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_a_move_onto_another_model_is_refused_in_every_ruleset(ruleset: str) -> None:
    game = Game.load(EXAMPLES[ruleset], SeededDice(1))
    game.ruleset = forgetful(ruleset, rolled=False)
    unit, here, enemy_at = _mover_and_enemy(game)
    before = game.state
    onto = {"do": "move", "unit": unit, "to": [list(enemy_at)]}
    ruling = game.check(onto)
    assert not ruling.legal and ruling.rules == ("published.bases-apart",)
    assert "bases may not overlap" in ruling.reason
    with pytest.raises(IllegalActionError, match="published.bases-apart"):
        game.apply(onto)
    assert game.state is before
    clear = {"do": "move", "unit": unit, "to": [[here[0], here[1] + 0.5]]}
    assert game.check(clear).legal
    game.apply(clear)
    assert game.state.unit(unit).models[0].at == (here[0], here[1] + 0.5)


@pytest.mark.rule("published.bases-apart")
@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_a_placement_decided_by_dice_is_checked_when_resolved(ruleset: str) -> None:
    game = Game.load(EXAMPLES[ruleset], SeededDice(1))
    game.ruleset = forgetful(ruleset, rolled=True)
    unit, here, enemy_at = _mover_and_enemy(game)
    before = game.state
    onto = {"do": "move", "unit": unit, "to": [list(enemy_at)]}
    assert game.check(onto).legal  # where it ends is known only once the dice are rolled
    with pytest.raises(IllegalActionError, match="bases may not overlap"):
        game.apply(onto)
    assert game.state is before and game.log == ()
    game.apply({"do": "move", "unit": unit, "to": [[here[0], here[1] + 0.5]]})
    assert game.state is not before
