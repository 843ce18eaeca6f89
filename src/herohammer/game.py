"""The game: state, legal actions, apply and undo, and the event log.

In the style of python-chess's ``Board.push()/pop()``: ``apply`` checks the action
with the ruleset, keeps the previous (immutable) state as the snapshot, and swaps in
the new one; ``undo`` puts the snapshot back (O(1): nothing is rebuilt).  An illegal
action raises ``IllegalActionError`` citing the rule ids and leaves the state untouched.

A ruling depends only on the state and the action, so the game remembers its rulings
per state (and the result of an action no dice decide): ``legal_actions`` then
``apply``, or a search that applies and undoes the same actions, rules on each once.

The actions applied are kept with their snapshots (``actions``), so a game can be written as a
record of play and played back (``record``, ``replay``: ``records.py``); nothing is written or
copied until asked.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from .actions import ACTION_TYPES, Action, action_key, parse_action
from .dice import Dice, RepresentativesRead, RollRecord, SeededDice, forget_rolls, rolls_made, rolls_since
from . import guards
from .errors import IllegalActionError
from .rulesets import Ruleset, get_ruleset
from .rulesets.base import Judgement
from .rulings import Event, Ruling, represented
from .scenario import load_scenario, save_scenario, state_from_data, state_to_data
from .state import GameState
from .values import drop_oldest


#: How many rulings a game remembers (the oldest are forgotten first).
_JUDGED_KEPT = 1024


class Step(NamedTuple):
    """One action the game applied, as ``Game.steps`` hands it out: the state it was applied in, the action, the
    dice it rolled with and the rolls it made (a game's record is written from these, ``records.game_record``)."""

    before: GameState
    action: Action
    dice: Dice
    rolls: tuple[RollRecord, ...]


class Game:
    """Hold the current state, apply actions through the ruleset, and undo them."""

    def __init__(self, state: GameState, dice: Dice | None = None) -> None:
        self.state = guards.instance(state, GameState, "Game", "state",
                                     "a GameState (use Game.load(path) or Game.from_data(data))")
        self.ruleset: Ruleset = get_ruleset(state.ruleset)
        self.dice: Dice = _dice(dice, "Game") if dice is not None else SeededDice(None)
        #: The events so far, appended to by ``apply`` and cut back by ``undo``; handed out as a tuple (``log``).
        self._log: list[Event] = []
        self._log_view: tuple[Event, ...] | None = None  # ``log``'s tuple, kept until the log changes
        #: Per applied action: the state before it, the event log's length, the dice it rolled with and their
        #: log's length (so that undo takes back its rolls too: a search applying and undoing keeps no records),
        #: and the action itself (``actions``, the game's record).
        self._history: list[tuple[GameState, int, Dice, int, Action]] = []
        #: Rulings already given, by (state, action); the state is kept so that its id stays its own.
        self._judged: dict[tuple[int, Hashable], tuple[GameState, Judgement]] = {}
        self._legal: tuple[GameState, list[Action]] | None = None

    # -- files ----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path, dice: Dice | None = None) -> Game:
        """Start a game from a scenario file."""
        return cls(load_scenario(path), dice)

    @classmethod
    def from_data(cls, data: dict[str, Any], dice: Dice | None = None) -> Game:
        """Start a game from scenario data."""
        return cls(state_from_data(data), dice)

    @classmethod
    def replay(cls, source: str | Path | Mapping[str, Any], dice: Dice | None = None) -> Game:
        """Play a saved game's record (``played:``) back from its start: the game at the end, its log as it was.

        ``source``: a file written by ``save(path, record=True)`` or ``herohammer play --out``, or its data.
        A record that does not play back (an unknown action, one illegal at that point, dice that do not
        match, an end that is not the state saved) is one ``HerohammerError`` naming the file and the step.

        The game plays on from there with ``dice``; without them, a record's seed goes on with its stream (the
        rolls the game recorded would have made next), and after a record of faces alone or a judge's faces, all
        read, new random dice (``SeededDice(None)``) roll: the record's dice hold no face for a roll it never made.
        """
        from .records import replay_game

        given = _dice(dice, "Game.replay") if dice is not None else None
        game = replay_game(source).game
        if given is not None:
            game.dice = given
        elif not isinstance(game.dice, SeededDice):
            game.dice = SeededDice(None)
        return game

    def save(self, path: str | Path, record: bool = False) -> None:
        """Write the current state as a scenario file; ``record=True`` adds how it was played (``played:``)."""
        save_scenario(self.state, path, played=self.record() if guards.flag(record, "Game.save", "record") else None)

    def to_data(self, record: bool = False) -> dict[str, Any]:
        """Return the current state as scenario data; ``record=True`` adds how it was played (``played:``)."""
        guards.flag(record, "Game.to_data", "record")
        data = state_to_data(self.state)
        if record:
            data["played"] = self.record()
        return data

    # -- the record -----------------------------------------------------------------
    @property
    def log(self) -> tuple[Event, ...]:
        """The events of the actions applied, in order (``undo`` takes back the last action's).

        A tuple: a caller cannot append to it or clear it behind the game's back, which would break ``undo`` and
        the record.  Built on the first read after the log changes, so ``apply`` costs no more for it.
        """
        view = self._log_view
        if view is None:
            view = self._log_view = tuple(self._log)
        return view

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions applied, in order (``undo`` takes back the last; ``copy`` keeps them)."""
        return tuple(entry[4] for entry in self._history)

    def steps(self) -> tuple[Step, ...]:
        """The actions applied, in order, each with the state before it and the rolls it made (``Step``).

        Built when asked from what ``apply`` keeps (the previous state, the dice and where their log stood), so
        applying costs no more for it.  The rolls of a step are its dice's log from where the step began to where
        the next step with the same dice began (or the log's end): rolls those dice made outside the game in
        between (a caller rolling them by hand) count as the step's.
        """
        for entry in self._history:
            if entry[2].represents:  # a fast exact enumeration's dice: their rolls stand for classes of rolls
                raise RepresentativesRead("the rolls of Game.steps()")
        out = []
        ends: dict[int, int] = {}  # per dice (by id: the history keeps them alive), where the next step's rolls began
        for before, _, roller, rolled, act in reversed(self._history):  # from the last: one pass
            end = ends.get(id(roller), rolls_made(roller))
            ends[id(roller)] = rolled
            out.append(Step(before, act, roller, rolls_since(roller, rolled, end)))
        out.reverse()
        return tuple(out)

    def record(self) -> dict[str, Any]:
        """Return how this game was played, as ``save(path, record=True)`` writes it under ``played:``.

        The start (scenario data), the actions (as JSON objects), the faces each step rolled, and the
        dice: the seed when playing the actions again from it rolls the same faces, or a judge's faces.
        """
        from .records import game_record

        return game_record(self)

    # -- rules ----------------------------------------------------------------------
    def check(self, action: Action | str | Mapping[str, Any]) -> Ruling:
        """Rule on an action without applying it: a refusal is a ruling (``legal`` False, its reason and rule ids),
        not an error; an action that cannot be read (JSON or YAML text, a mapping) raises ``HerohammerError``."""
        return self._judge(_as_action(action)).ruling

    def legal_actions(self) -> list[Action]:
        """Return concrete legal actions for the active side (moves sampled, not exhaustive)."""
        state = self.state
        if self._legal is None or self._legal[0] is not state:
            legal = [a for a, sure in self.ruleset.screened_candidates(state) if sure or self._judge(a).ruling.legal]
            for group in self.ruleset.fallback_candidates(state, legal):
                legal.extend(next(([a] for a in group if self._judge(a).ruling.legal), []))
            self._legal = (state, legal)
        return list(self._legal[1])

    def why_no_actions(self) -> Ruling | None:
        """Say why the active side has no legal action, or None when it has one.

        Ending a phase is legal but in the battle's last phase (published.game-length), so an empty
        ``legal_actions()`` means the battle is over: the ruling refusing ``end_phase`` says so, with its
        rule id, where an empty list alone would read as a fault of the tool.
        """
        if self.legal_actions():
            return None
        ruling = self.check({"do": "end_phase"})
        return None if ruling.legal else ruling

    def apply(self, action: Action | str | Mapping[str, Any], dice: Dice | None = None) -> list[Event]:
        """Apply a legal action and return its events (a new list); refuse an illegal one, changing nothing.

        Raises ``IllegalActionError`` (its ``reason`` and the ``rules`` that refuse it) for an action the rules
        forbid, ``HerohammerError`` for one that cannot be read, and ``DiceRanOut`` when a judge's
        ``ScriptedDice`` hold no face for a roll: an action that fails midway changes nothing either, its rolls
        leave the dice's log, and a judge's faces they took are unused again (``Dice.take_back``).  All three are
        ``HerohammerError``s.
        """
        act = _as_action(action)
        roller = _dice(dice, "Game.apply") if dice is not None else self.dice
        judged = self._judge(act)
        rolled = rolls_made(roller)
        if not judged.ruling.legal:
            raise IllegalActionError(judged.ruling.reason, judged.ruling.rules)
        if (result := judged.result) is not None:  # no dice decide it: the result worked out while ruling (or now)
            new_state, events = result[0], list(result[1])
        else:
            try:
                new_state, events = self.ruleset.resolve_checked(self.state, act, roller)
            except BaseException:  # a judge's dice ran out midway, or Ctrl-C: nothing of the action happened
                roller.take_back(rolled)
                raise
            if roller.represents:  # a fast exact enumeration's: their words may quote a representative roll
                events = represented(events)
        self._history.append((self.state, len(self._log), roller, rolled, act))
        self.state = new_state
        self._log.extend(events)
        self._log_view = None
        return events

    def _judge(self, action: Action) -> Judgement:
        """Rule on an action in the current state, once per state and action."""
        state = self.state
        key = (id(state), action_key(action))  # equal actions, equal keys
        known = self._judged.get(key)
        if known is not None and known[0] is state:
            return known[1]
        judged = self.ruleset.judge_checked(state, action)
        if len(self._judged) >= _JUDGED_KEPT:
            drop_oldest(self._judged)  # the oldest first
        self._judged[key] = (state, judged)
        return judged

    def undo(self) -> None:
        """Restore the state, the event log and the dice's log of rolls from before the last applied action.

        The undone action's rolls are in its events; the dice's own log forgets them, so that a search
        applying and undoing millions of times does not keep a record of every roll it tried.  The dice
        themselves are not rewound: the next roll is a new one.  With nothing to undo (a new game, or a replayed one
        undone to its record's start) it raises ``IllegalActionError`` and changes nothing.
        """
        if not self._history:
            raise IllegalActionError("nothing to undo")
        self.state, length, roller, rolled, _ = self._history.pop()
        del self._log[length:]
        self._log_view = None
        forget_rolls(roller, rolled)

    def copy(self) -> Game:
        """Return an independent game at the same state (cheap: the state is immutable).

        The copy rolls the same dice (``Dice.branch``: what one game rolls, the other does not roll
        again, so a search's branch learns nothing of the game's next rolls) but keeps its own
        record of them: undoing in one never takes a roll out of the other's ``dice.log``.  Dice
        handed to ``apply`` itself stay the caller's, shared as they were given.
        """
        dice = self.dice.branch()
        other = Game(self.state, dice)
        other._log = list(self._log)
        other._history = [(state, length, dice if roller is self.dice else roller, rolled, act)
                          for state, length, roller, rolled, act in self._history]
        other._judged = dict(self._judged)
        return other

    def __iter__(self) -> Iterator[Event]:
        return iter(self.log)  # the tuple: applying while iterating does not change what is iterated


def _dice(dice: Any, where: str) -> Dice:
    return guards.instance(dice, Dice, where, "dice", "a Dice (SeededDice(seed) or ScriptedDice(faces))")


def _as_action(action: Action | str | Mapping[str, Any]) -> Action:
    """Take an action object as it is; read anything else (JSON or YAML text, any mapping, as ``odds_of_action``
    does) or refuse it in one line."""
    if type(action) in _ACTION_CLASSES:
        return action  # type: ignore[return-value]  # one of the action classes
    return parse_action(action, "action")  # the parameter's name: a library's caller wrote no --action


_ACTION_CLASSES = frozenset(ACTION_TYPES)
