"""A game's record: where it started, the actions applied and the dice they rolled; written and played back.

Why: a saved state says where a game stands, not how it got there.  A record lets a digital table, a
bot's log or a judge play the game again and check every step (``Game.replay``, ``herohammer play
FILE --replay``).  It is the ``played:`` mapping that ``herohammer play --out`` writes (``actions``,
``seed`` or ``dice``, ``after``), with the state it started from (``start``) and the faces each step
rolled (``rolls``) added, so a record is checked step by step and needs no other file.

``Game.apply`` only appends the action to the game's history; a record is built when asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import guards
from .actions import parse_action
from .dice import Dice, Request, RollRecord, ScriptedDice, SeededDice, SIDES, rolls_made, rolls_since
from .errors import DiceRanOut, HerohammerError, IllegalActionError, ScenarioError
from .rulings import Event
from .scenario import read_data, state_from_data, state_to_data
from .state import GameState

if TYPE_CHECKING:
    from .game import Game


class DiceMismatch(HerohammerError):
    """A record's dice do not give what its actions roll."""


class RecordedDice(Dice):
    """Give each roll the faces the record holds for it, in order: the game played back exactly, whoever rolled it.

    A seeded game logs a re-rolled die's kept face only, a judge's dice (``ScriptedDice``) every face read: a roll
    recorded with as many faces as dice is read as kept faces, one with more as faces read with their re-rolls.
    """

    def __init__(self, rolls: Sequence[Sequence[int]]) -> None:
        super().__init__()
        self._rolls = [tuple(faces) for faces in rolls]
        self._cursor = [0]  # one list: a branch of these dice reads on from the same place

    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, None]:
        at = self._cursor[0]
        asked = f"roll #{at + 1} ({request.purpose}, {request.describe()})"
        if at >= len(self._rolls):
            raise DiceMismatch(f"{asked} is not in the record (it holds {len(self._rolls)} rolls)")
        faces = self._rolls[at]
        try:
            value, used = request.from_logged_faces(faces)
        except IndexError:
            used = -1
        if used != len(faces):
            raise DiceMismatch(f"{asked} does not fit the record's faces {_said(faces)}")
        self._cursor[0] = at + 1
        return value, faces, None

    def _rewind(self, taken: list[RollRecord]) -> None:
        self._cursor[0] -= len(taken)


@dataclass
class Replayed:
    """A record played back: the game at its end, each step's events, and notes on earlier records not replayed."""

    game: Game
    start: GameState
    steps: list[list[Event]]
    links: int = 0
    notes: tuple[str, ...] = ()


# == writing ======================================================================================================
def game_record(game: Game) -> dict[str, Any]:
    """Return the game's record (``Game.record``): the actions, the dice, the faces each step rolled, the start.

    The seed is written only when the actions played again from it roll the same faces (not after an undo that
    had rolled, nor when a copy of the game or another ``Dice`` took faces from its stream): checked by playing
    the record back once.  A judge's dice are written as the faces read; other dice as the faces each roll gave.
    """
    steps = game.steps()
    rolls = [[list(r.faces or ()) for r in step.rolls] for step in steps]
    record: dict[str, Any] = {"actions": [step.action.to_json() for step in steps]}
    dice = game.dice
    if all(step.dice is dice for step in steps):
        if isinstance(dice, ScriptedDice):
            record["dice"] = [face for step in rolls for faces in step for face in faces]
        elif isinstance(dice, SeededDice) and dice.seed is not None:
            record["seed"] = str(dice.seed)
    record["rolls"] = rolls
    record["start"] = state_to_data(steps[0].before if steps else game.state)
    if "seed" in record:
        try:
            play_back(record, "<this game>", "played")
        except HerohammerError:  # the seed's stream was drawn on elsewhere: the faces alone replay the game
            del record["seed"]
    return record


# == playing back =================================================================================================
def replay_game(source: str | Path | Mapping[str, Any], name: str = "<record>") -> Replayed:
    """Play back a saved game's ``played:`` record and check it reaches the state saved beside it (``Game.replay``).

    Earlier records (``played.after``: the game this one was played on from) are played back too, each checked to
    end where the next one starts; one written without its start is named in ``notes``, not replayed.  ``name``:
    what messages call a record given as data (the web's upload names its file).
    """
    if isinstance(source, Mapping):
        data = dict(source)
    else:
        name = str(guards.path(source, "Game.replay", "source"))
        data = read_data(name)
    played = data.get("played")
    if not isinstance(played, Mapping) or not played:
        if "start" in data and "actions" in data:  # Game.record() itself: the state it ends in is not beside it
            raise ScenarioError(name, "played", "missing: this is a record itself (Game.record()); replay the "
                                "game's data with it, Game.to_data(record=True), which holds the state it must reach")
        raise ScenarioError(name, "played", "no record of play here: write one with Game.save(path, record=True) "
                            "or herohammer play --out")
    saved = state_from_data(data, name)
    replayed = play_back(played, name, "played")
    if replayed.game.state != saved:
        raise HerohammerError(f"{name}: played: the actions replayed from played.start do not reach the state "
                              f"saved in this file ({difference(replayed.game.state, saved)})")
    notes: list[str] = []
    link, field, end = played.get("after"), "played.after", replayed.start
    while isinstance(link, Mapping):
        if "start" not in link:
            notes.append(f"{field}: not replayed: it was written without the state it started from")
            break
        earlier = play_back(link, name, field)
        if earlier.game.state != end:
            raise HerohammerError(f"{name}: {field}: its actions do not reach the state the record after it starts "
                                  f"from ({difference(earlier.game.state, end)})")
        replayed.links += 1
        link, field, end = link.get("after"), f"{field}.after", earlier.start
    replayed.notes = tuple(notes)
    return replayed


def play_back(played: Mapping[str, Any], name: str, field: str) -> Replayed:
    """Play one record from its start, checking each step's legality and, when recorded, the faces it rolled."""
    from .game import Game

    start_data = played.get("start")
    if not isinstance(start_data, Mapping):
        source = played.get("source")
        said = f" (it names its source, {source}, which may have changed since)" if source else ""
        raise ScenarioError(name, f"{field}.start", "missing: a record is played back from the state it started "
                            f"from{said}")
    start = state_from_data(dict(start_data), f"{name}: {field}.start")
    actions = played.get("actions")
    if not isinstance(actions, list):
        raise ScenarioError(name, f"{field}.actions", "expected the list of actions played")
    rolls = _rolls(played.get("rolls"), len(actions), name, f"{field}.rolls")
    game = Game(start, _dice(played, rolls, name, field))
    steps = []
    for i, action in enumerate(actions):
        where = f"{name}: {field}.actions[{i}] (step {i + 1})"
        act = parse_action(action, where)
        before = rolls_made(game.dice)
        try:
            events = game.apply(act)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: illegal at this point of the game: {exc.reason}", exc.rules) from None
        except (DiceMismatch, DiceRanOut) as exc:
            raise HerohammerError(f"{where}: the dice do not match the record: {exc}") from None
        except HerohammerError as exc:
            raise HerohammerError(f"{where}: {exc}") from None
        if rolls is not None:
            got = [list(r.faces or ()) for r in rolls_since(game.dice, before)]
            if got != rolls[i]:
                raise HerohammerError(f"{name}: {field}.rolls[{i}] (step {i + 1}): the dice do not match the record: "
                                      f"the step rolled {_rolls_said(got)} where the record has {_rolls_said(rolls[i])}")
        steps.append(events)
    return Replayed(game, start, steps)


def _dice(played: Mapping[str, Any], rolls: list[list[list[int]]] | None, name: str, field: str) -> Dice:
    """The dice a record names: its seed, a judge's faces, or else the faces each roll gave."""
    if "seed" in played:
        seed = played["seed"]
        text = str(seed) if isinstance(seed, (str, int)) and not isinstance(seed, bool) else ""
        # as long as the largest seed at most: thousands of digits are refused here, not by Python's int()
        if not (text.isascii() and text.isdigit()) or len(text) > len(str(guards.MAX_SEED)) \
                or int(text) > guards.MAX_SEED:
            raise ScenarioError(name, f"{field}.seed", f"expected a whole number from 0 to 2**64-1, got {_short(seed)}")
        return SeededDice(int(text))
    if "dice" in played:
        faces = played["dice"]
        if not isinstance(faces, list) or not all(_face(f) for f in faces):
            raise ScenarioError(name, f"{field}.dice", "expected a list of faces from 1 to 6")
        return ScriptedDice(faces)
    if rolls is None:
        raise ScenarioError(name, field, "no dice: expected seed, dice (a judge's faces) or rolls")
    return RecordedDice([faces for step in rolls for faces in step])


def _rolls(value: Any, steps: int, name: str, field: str) -> list[list[list[int]]] | None:
    """Read a record's faces per step and roll, or None when it has none."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != steps:
        raise ScenarioError(name, field, f"expected one list of rolls per action ({steps})")
    for i, step in enumerate(value):
        if not isinstance(step, list) or not all(isinstance(faces, list) and all(_face(f) for f in faces)
                                                 for faces in step):
            raise ScenarioError(name, f"{field}[{i}]", "expected a list of rolls, each a list of faces from 1 to 6")
    return value


def _short(value: Any) -> str:
    """A value as a message quotes it, cut short past 40 characters."""
    said = repr(value)
    return said if len(said) <= 40 else f"{said[:37]}..."


def _face(value: Any) -> bool:
    return type(value) is int and 1 <= value <= SIDES


def _said(faces: Sequence[int]) -> str:
    return "[" + " ".join(map(str, faces)) + "]"


def _rolls_said(rolls: Sequence[Sequence[int]]) -> str:
    return " ".join(_said(faces) for faces in rolls) if rolls else "no dice"


def difference(replayed: GameState, saved: GameState) -> str:
    """Name where two states part: the turn and phase, or the first unit that differs."""
    if (replayed.turn, replayed.phase, replayed.active) != (saved.turn, saved.phase, saved.active):
        return (f"the replay ends in turn {replayed.turn}, {replayed.active} to play, {replayed.phase.value} phase; "
                f"the file in turn {saved.turn}, {saved.active} to play, {saved.phase.value} phase")
    for unit in saved.units:
        if not replayed.has_unit(unit.id) or replayed.unit(unit.id) != unit:
            return f"unit {unit.id} differs"
    return "the units stand alike; something else of the state differs"
