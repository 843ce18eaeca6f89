"""Rulings and events: how the rules answer a question and record what happened.

A ``Ruling`` is the yes/no a player or judge asks for, with the rule ids that decided
it and one sentence of reason; an ``Event`` is one line of the game log, naming the
rule behind it and carrying the rolls made for it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .dice import RollRecord
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
