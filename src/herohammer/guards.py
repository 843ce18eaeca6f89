"""Argument checks at the edges of the public Python API.

Why: a library caller who passes a dict where an action belongs, a file name where a
state belongs, NaN or 10**30 as a number of runs, must get one ``ArgumentError`` (a
``HerohammerError``, so a ``ValueError``) naming the function and the parameter, never
an ``AttributeError`` or ``TypeError`` from deep inside the rules code.  The checks
take the expected class from the caller, so this module imports nothing of the game.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .errors import HerohammerError

T = TypeVar("T")

#: The largest seed taken anywhere (numpy and ``random`` both take any size; 64 bits is plenty).
MAX_SEED = 2**64 - 1


class ArgumentError(HerohammerError):
    """Refuse a wrong kind of argument to a public function, naming the function and the parameter."""

    def __init__(self, where: str, name: str, expected: str, value: object) -> None:
        self.where = where
        self.name = name
        super().__init__(f"{where}: {name}: expected {expected}, got {_shown(value)}")


def _shown(value: object) -> str:
    """Name what was given in a few words: its kind, and a short repr for plain values."""
    kind = type(value).__name__
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        text = repr(value)
        if len(text) > 40:
            text = text[:37] + "..."
        return f"{kind} {text}" if not isinstance(value, (bool, type(None))) else text
    return f"a {kind}"


def instance(value: Any, kind: type[T] | tuple[type[T], ...], where: str, name: str, expected: str) -> T:
    """Return ``value`` if it is of ``kind``, else refuse it naming ``where`` and ``name``."""
    if not isinstance(value, kind):
        raise ArgumentError(where, name, expected, value)
    return value


def whole(value: Any, where: str, name: str, low: int, high: int) -> int:
    """Return a whole number in ``low..high``; a bool, a float (NaN included) or text is refused."""
    if isinstance(value, bool):
        raise ArgumentError(where, name, f"a whole number from {low:,} to {high:,}", value)
    try:
        number = operator.index(value)  # ints and numpy integers; never floats or text
    except TypeError:
        raise ArgumentError(where, name, f"a whole number from {low:,} to {high:,}", value) from None
    if not low <= number <= high:
        raise ArgumentError(where, name, f"a whole number from {low:,} to {high:,}", number)
    return number


def flag(value: Any, where: str, name: str, none: bool = False) -> Any:
    """Return ``True`` or ``False`` (and ``None`` when ``none``); anything else is refused, not read as true or false
    by its length (``record="no"`` is not a yes)."""
    if isinstance(value, bool) or none and value is None:
        return value
    raise ArgumentError(where, name, "True or False" + (" or None" if none else ""), value)


def hook(value: Any, where: str, name: str, takes: str) -> Any:
    """Return a function to be called back (``notice``, ``advance``) or None; anything else is refused now, not
    with a ``TypeError`` when it is first called, runs later."""
    if value is not None and not callable(value):
        raise ArgumentError(where, name, f"a function taking {takes}, or None", value)
    return value


def seed(value: Any, where: str, name: str = "seed") -> int | None:
    """Return a seed (``None`` for a fresh one, or a whole number from 0 to 2**64-1)."""
    return None if value is None else whole(value, where, name, 0, MAX_SEED)


def finite(value: Any, where: str, name: str) -> float:
    """Return a finite real number; NaN, infinities, bools and text are refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ArgumentError(where, name, "a finite number", value)
    return float(value)


def path(value: Any, where: str, name: str = "path") -> Path:
    """Return a file name as a Path (str or os.PathLike, not empty)."""
    if isinstance(value, str) and value.strip() or isinstance(value, os.PathLike) and not isinstance(value, bytes):
        return Path(value)
    raise ArgumentError(where, name, "a file name (str or pathlib.Path)", value)


def mapping(value: Any, where: str, name: str) -> Mapping[str, Any]:
    """Return a mapping (scenario data as read from YAML or JSON)."""
    if not isinstance(value, Mapping):
        raise ArgumentError(where, name, "a mapping (scenario data as read from YAML or JSON)", value)
    return value


def mappings(value: Any, where: str, name: str) -> list[Mapping[str, Any]]:
    """Return a list of mappings (a plan of actions as JSON objects)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ArgumentError(where, name, "a list of actions (mappings)", value)
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise ArgumentError(where, f"{name}[{i}]", "an action (a mapping with `do`)", item)
    return list(value)


def choice(value: Any, where: str, name: str, allowed: Sequence[str]) -> str:
    """Return one of the allowed words."""
    if not isinstance(value, str) or value not in allowed:
        raise ArgumentError(where, name, f"one of {', '.join(allowed)}", value)
    return value
