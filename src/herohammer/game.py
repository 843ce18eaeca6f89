"""The game: state, legal actions, apply and undo, and the event log.

In the style of python-chess's ``Board.push()/pop()``: ``apply`` checks the action
with the ruleset, keeps the previous (immutable) state as the snapshot, and swaps in
the new one; ``undo`` puts the snapshot back.  An illegal action raises
``IllegalActionError`` citing the rule ids and leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .actions import ACTION_TYPES, Action, parse_action
from .dice import Dice, SeededDice
from . import guards
from .errors import IllegalActionError
from .rulesets import Ruleset, get_ruleset
from .rulings import Event, Ruling
from .scenario import load_scenario, save_scenario, state_from_data, state_to_data
from .state import GameState


class Game:
    """Hold the current state, apply actions through the ruleset, and undo them."""

    def __init__(self, state: GameState, dice: Dice | None = None) -> None:
        self.state = guards.instance(state, GameState, "Game", "state",
                                     "a GameState (use Game.load(path) or Game.from_data(data))")
        self.ruleset: Ruleset = get_ruleset(state.ruleset)
        self.dice: Dice = _dice(dice, "Game") if dice is not None else SeededDice(None)
        self.log: list[Event] = []
        self._history: list[tuple[GameState, int]] = []

    # -- files ----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, dice: Dice | None = None) -> Game:
        """Start a game from a scenario file."""
        return cls(load_scenario(path), dice)

    @classmethod
    def from_data(cls, data: dict[str, Any], dice: Dice | None = None) -> Game:
        """Start a game from scenario data."""
        return cls(state_from_data(data), dice)

    def save(self, path: str | Path) -> None:
        """Write the current state as a scenario file."""
        save_scenario(self.state, path)

    def to_data(self) -> dict[str, Any]:
        """Return the current state as scenario data."""
        return state_to_data(self.state)

    # -- rules ----------------------------------------------------------------------
    def check(self, action: Action | str | dict[str, Any]) -> Ruling:
        """Rule on an action without applying it."""
        return self.ruleset.rule_on(self.state, _as_action(action))

    def legal_actions(self) -> list[Action]:
        """Return concrete legal actions for the active side (moves sampled, not exhaustive)."""
        return [a for a in self.ruleset.candidate_actions(self.state) if self.ruleset.rule_on(self.state, a).legal]

    def apply(self, action: Action | str | dict[str, Any], dice: Dice | None = None) -> list[Event]:
        """Apply a legal action and return its events; refuse an illegal one, changing nothing."""
        act = _as_action(action)
        ruling = self.ruleset.rule_on(self.state, act)
        if not ruling.legal:
            raise IllegalActionError(ruling.reason, ruling.rules)
        roller = _dice(dice, "Game.apply") if dice is not None else self.dice
        new_state, events = self.ruleset.resolve(self.state, act, roller)
        self._history.append((self.state, len(self.log)))
        self.state = new_state
        self.log.extend(events)
        return events

    def undo(self) -> None:
        """Restore the state and log from before the last applied action."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        self.state, length = self._history.pop()
        del self.log[length:]

    def copy(self) -> Game:
        """Return an independent game at the same state (cheap: the state is immutable)."""
        other = Game(self.state, self.dice)
        other.log = list(self.log)
        other._history = list(self._history)
        return other

    def __iter__(self) -> Iterator[Event]:
        return iter(self.log)


def _dice(dice: Any, where: str) -> Dice:
    return guards.instance(dice, Dice, where, "dice", "a Dice (SeededDice(seed) or ScriptedDice(faces))")


def _as_action(action: Action | str | dict[str, Any]) -> Action:
    """Take an action object as it is; read anything else (JSON text, a mapping) or refuse it in one line."""
    if isinstance(action, ACTION_TYPES):
        return action
    return parse_action(action)
