"""Rulings and events: how the rules answer a question and record what happened.

A ``Ruling`` is the yes/no a player or judge asks for, with the rule ids that decided
it and one sentence of reason; an ``Event`` is one line of the game log, naming the
rule behind it and carrying the rolls made for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, NoReturn

from .dice import RepresentativesRead, RollRecord
from .values import record


#: Builds a record from the tuple of its fields, without the Python call of its constructor.
_NEW = tuple.__new__


@record  # NamedTuples compared as frozen dataclasses (values.record): each action is ruled on, cheap to build
class Ruling(NamedTuple):
    """Answer "may I?": legal or not, the deciding rule ids, and why."""

    legal: bool
    rules: tuple[str, ...]
    reason: str
    notes: tuple[str, ...] = ()

    @classmethod
    def allow(cls, reason: str, *rules: str, notes: tuple[str, ...] = ()) -> Ruling:
        """Return a legal ruling."""
        return _NEW(cls, (True, rules, reason, notes))  # ``rules`` is a tuple already

    @classmethod
    def forbid(cls, reason: str, *rules: str) -> Ruling:
        """Return an illegal ruling."""
        return _NEW(cls, (False, rules, reason, ()))

    def to_json(self) -> dict[str, Any]:
        """Return the ruling in the commands' JSON form."""
        out: dict[str, Any] = {"legal": self.legal, "rules": list(self.rules), "reason": self.reason}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@record  # a game logs many: a NamedTuple is the cheapest value to build
class Event(NamedTuple):
    """Record one thing that happened, with its rule ids and the rolls made for it."""

    kind: str
    message: str
    rules: tuple[str, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    data: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        """Say the event in one line, citing its rules (once: a message that ends citing them already, as a volley's
        note on a model that fires nothing does, is not followed by them again)."""
        cited = f" [{', '.join(self.rules)}]" if self.rules else ""
        return self.message if cited and self.message.endswith(cited) else f"{self.message}{cited}"

    def to_json(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {
            "kind": self.kind, "message": self.message, "rules": list(self.rules),
            "rolls": [{"purpose": r.purpose, "rule": r.rule, "dice": r.request, "value": r.value,
                       "faces": list(r.faces) if r.faces else None} for r in self.rolls],
            **{k: v for k, v in self.data},
        }


#: A field of an event by its place, past the fields a ``RepresentedEvent`` guards.
_field: Callable[[Any, int], Any] = tuple.__getitem__


def _unread(what: str) -> property:
    """A field of a represented event: reading it raises ``RepresentativesRead`` naming it and the event's kind."""

    def read(self: Event) -> NoReturn:
        raise RepresentativesRead(f"an event's {what} (a {_field(self, 0)} event)")

    return property(read)


def _unread_whole(self: Event, *args: Any) -> NoReturn:
    raise RepresentativesRead(f"a whole event (a {_field(self, 0)} event)")


class RepresentedEvent(Event):
    """An event made under a fast exact enumeration, as ``Game`` and ``action_odds`` hand it to their caller.

    Its kind and rule ids are exact (a loop keeps carries apart by them), and so is its data when every field of it
    is one known to be exact (``EXACT_DATA``); its words and rolls may quote one representative roll of a class
    (``Dice.represents``), so reading them, data with any other field, or the event whole (comparing, hashing,
    unpacking, printing it), raises ``RepresentativesRead`` and the enumeration goes die by die.
    """

    __slots__ = ()


#: The fields of an event's data a fast exact enumeration's caller may read: names and counts the state decides
#: (``models`` slain, a unit, the wounds ``lost`` past the models' reach), the step that struck, and flags and outcomes
#: that only tell which class a roll fell in (a test ``passed``, a charge's ``outcome``), which the walk branches on.
#: An allow-list, so that a field nobody classified is read die by die, slow but exact, never a representative roll
#: quoted as the answer (reliability round 53: a forgotten entry of the earlier list of rolled fields gave wrong odds
#: silently); tests/test_enumeration_reads_data.py fails on a field the examples build that is in neither list.
EXACT_DATA = frozenset({"failed", "initiative", "lost", "model", "models", "onto", "outcome", "passed", "perils",
                        "power_used", "psyker", "slain", "unit", "winner", "wounded"})
#: The fields known to quote a rolled value (the Strength D6 of 3rd edition's Perils of the Warp, which an
#: enumeration hands over as one value of its class): read die by die, as any field not in ``EXACT_DATA`` is.
ROLLED_DATA = frozenset({"strength"})


def _data(self: Event) -> tuple[tuple[str, Any], ...]:
    data: tuple[tuple[str, Any], ...] = _field(self, 4)
    for name, _ in data:
        if name not in EXACT_DATA:
            raise RepresentativesRead(f"an event's data {name!r} (a {_field(self, 0)} event)")
    return data


RepresentedEvent.message = _unread("words")  # type: ignore[assignment]
RepresentedEvent.rolls = _unread("rolls")  # type: ignore[assignment]
RepresentedEvent.data = property(_data)  # type: ignore[assignment]
for _name in ("__iter__", "__getitem__", "__eq__", "__ne__", "__hash__", "__repr__", "__str__", "__reduce__",
              "_asdict", "_replace"):
    setattr(RepresentedEvent, _name, _unread_whole)


def represented(events: Iterable[Event]) -> list[Event]:
    """Return ``events`` as a fast exact enumeration's caller may read them (``RepresentedEvent``)."""
    return [tuple.__new__(RepresentedEvent, e) for e in events]
