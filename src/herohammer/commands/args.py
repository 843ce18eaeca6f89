"""Argument types that turn bad input into one clear line (argparse prints it)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..catalogue import implements
from ..dice import Reroll
from ..errors import HerohammerError
from ..notation import DiceAmount, parse_amount, parse_roll_needed
from ..profiles import DASHES

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import GameState

#: The action fields that name a unit of the scenario.
UNIT_FIELDS = ("unit", "character", "target", "psyker")


def known_unit(state: GameState, unit_id: str, where: str) -> None:
    """Refuse a unit id the scenario lacks in one line: where it was given, and the units there are."""
    if not state.has_unit(unit_id):
        raise HerohammerError(f"{where}: no unit with id {unit_id!r} (units: {', '.join(u.id for u in state.units)})")


def known_units(state: GameState, action: Action, where: str = "--action") -> None:
    """Refuse an action naming a unit the scenario lacks, naming the field (``check``, ``play``, ``odds action``)."""
    for field in UNIT_FIELDS:
        unit_id = getattr(action, field, None)
        if isinstance(unit_id, str):
            known_unit(state, unit_id, f"{where}: field {field}")


def say_notes(state: GameState, as_json: bool) -> tuple[str, ...]:
    """Say once what the loaded scenario holds that no rule reads (``scenario.scenario_notes``).

    As text, ``note:`` lines on stderr; for ``--json`` they are returned for the envelope's ``notes``.
    """
    from ..scenario import scenario_notes

    return say(scenario_notes(state), as_json)


def say(notes: Sequence[str], as_json: bool) -> tuple[str, ...]:
    """Say notes worked out already (a simulation's, a sweep's) as ``say_notes`` says them."""
    import sys

    if as_json:
        return tuple(notes)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return ()


#: A whole number written with an exponent, as designers write run counts: ``1e6``, ``2.5e3`` (a plain ``e``, no sign).
_EXPONENT = re.compile(r"(\d+)(?:\.(\d+))?[eE]\+?(\d{1,6})")


def _with_exponent(text: str, high: int) -> int | None:
    """Return the whole number ``1e6`` or ``2.5e3`` writes (past ``high``: ``high + 1``, refused by range), else None."""
    match = _EXPONENT.fullmatch(text.strip())
    if match is None:
        return None
    whole, fraction, exponent = match.group(1), (match.group(2) or "").rstrip("0"), int(match.group(3))
    if len(fraction) > exponent:
        return None  # 2.55e1 is 25.5: not whole
    if len(whole.lstrip("0")) + exponent > len(str(high)) + 1:
        return high + 1  # far past any limit: not built digit by digit (1e99999)
    return int(whole + fraction + "0" * (exponent - len(fraction)))


def whole_number(name: str, low: int, high: int) -> Callable[[str], int]:
    """Return an argparse type accepting a whole number in low..high."""

    def parse(text: str) -> int:
        shown: object
        try:
            value = shown = int(text)
        except ValueError:
            found = _with_exponent(text, high)
            if found is None:
                raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
            value, shown = found, text.strip()  # the number as written: 1e99999 is not worked out
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be from {low} to {high}, got {shown}")
        return value

    parse.__name__ = name
    return parse


class Dashed(int):
    """A characteristic given as '-' or '*': the value 0 (core.profile.dash), known as printed so the answer cites
    the clause."""


#: A characteristic as a profile line prints it (``profiles.parse_value``): plain ASCII digits, a '-' sign at most.
_PRINTED = re.compile(r"-?[0-9]+")


@implements("core.profile.dash")
def characteristic(name: str, low: int = 0, high: int = 10) -> Callable[[str], int]:
    """Return an argparse type for a characteristic as a profile prints it: a whole number in low..high, or '-' or
    '*' for 0 (core.profile.dash), as every profile the engine reads takes it.

    Only what a profile line would read: Python's ``int`` also takes ``1_0``, an Arabic-Indic seven and (through
    ``whole_number``'s run counts) ``1e1``, which a profile refuses, so the odds answered for a value nobody wrote
    (judge round 40 (core)).  A '-' below ``low`` (a psyker of Wounds 0) is out of range, said so.
    """
    whole = whole_number(name, low, high)

    def parse(text: str) -> int:
        if text.strip() in DASHES:  # as a profile's parse_value reads it
            if low > 0:
                raise argparse.ArgumentTypeError(f"{name} must be from {low} to {high}, got {text.strip()!r} "
                                                 "(the value 0, core.profile.dash)")
            return Dashed(0)
        if _PRINTED.fullmatch(text.strip()) is None:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, or '-' or '*' for a value of 0 "
                                             f"(core.profile.dash), got {text!r}")
        return whole(text)

    parse.__name__ = name
    return parse


def dashed(*values: object) -> tuple[str, ...]:
    """Cite core.profile.dash when a characteristic was given as '-' or '*' (``characteristic``)."""
    return ("core.profile.dash",) if any(isinstance(v, Dashed) for v in values) else ()


def worker_count(name: str, high: int) -> Callable[[str], int]:
    """Return an argparse type for a number of worker processes: a whole number in 1..high, or ``auto`` (the cores
    this process may run on, ``parallel.cores``)."""
    whole = whole_number(name, 1, high)

    def parse(text: str) -> int:
        if text.strip().lower() == "auto":
            from ..parallel import cores

            return min(cores(), high)
        try:
            return whole(text)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number from 1 to {high} or auto "
                                             f"(the cores this process may use), got {text!r}") from None

    parse.__name__ = name
    return parse


def roll_needed(name: str, low: int = 2, high: int = 6) -> Callable[[str], int]:
    """Return an argparse type for a roll such as ``4+`` (read by ``notation.parse_roll_needed``)."""

    def parse(text: str) -> int:
        try:
            return parse_roll_needed(text, name, low, high)
        except HerohammerError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{name}: ")) from None

    parse.__name__ = name
    return parse


def dice_amount(name: str, low: int = 0, high: int = 1000) -> Callable[[str], DiceAmount]:
    """Return an argparse type for a number or dice notation (``10``, ``D6``, ``2D6``, ``D3+1``)."""

    def parse(text: str) -> DiceAmount:
        try:
            return parse_amount(text, name, low, high)
        except HerohammerError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{name}: ")) from None

    parse.__name__ = name
    return parse


def reroll(text: str) -> Reroll:
    """Read a re-roll policy: ``failed`` or ``1s``."""
    try:
        return Reroll(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"re-roll must be 'failed' or '1s', got {text!r}") from None


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--json`` (machine-readable, exact fractions as strings)."""
    parser.add_argument("--json", action="store_true", help="print JSON with exact fractions")


class Once(argparse.Action):
    """Refuse a repeated option instead of silently keeping the last (use play for sequences)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} given twice: check one action at a time (play applies several in order)")
        setattr(namespace, self.dest, values)
