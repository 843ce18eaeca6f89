"""Dice notation as players write it, read in one place: ``D6``, ``2D6``, ``D3+1``, ``2D6 highest``, ``3+``.

A number of dice (attacks, shots, a distance) is a ``DiceAmount``: a fixed number, or
N dice of 3 or 6 sides plus a modifier, optionally keeping only the highest die.  A
roll needed (to hit, a save) is ``3+`` and reads as the int 3.  Every command-line
argument, weapon or power field and scenario field that takes one of these goes
through ``parse_amount`` or ``parse_roll_needed``, so the errors read the same
everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .dice import Dice
from .distribution import Distribution
from .errors import HerohammerError, OutOfRangeError

#: The most dice one amount may name (a larger number is a typing slip, not a rule).
MAX_DICE = 20
_AMOUNT = re.compile(r"^(?P<count>\d*)\s*[dD](?P<sides>3|6)\s*(?:(?P<sign>[+-])\s*(?P<plus>\d+))?"
                     r"(?:\s+(?P<highest>highest))?$")
EXAMPLES = "a whole number or dice such as D6, 2D6, D3+1, 2D6 highest"


class NotationError(OutOfRangeError):
    """Report text that is not dice notation, naming where it was given."""

    def __init__(self, where: str, text: object, expected: str) -> None:
        self.name = where
        self.value = text
        HerohammerError.__init__(self, f"{where}: {text!r} is not {expected}")


@dataclass(frozen=True)
class DiceAmount:
    """Hold a number that may be rolled: ``count`` dice of ``sides`` plus ``plus`` (count 0: fixed)."""

    count: int = 0
    sides: int = 6
    plus: int = 0
    highest: bool = False

    @classmethod
    def fixed(cls, value: int) -> DiceAmount:
        """Return a number that needs no roll."""
        return cls(0, 6, value)

    @property
    def is_fixed(self) -> bool:
        """Say whether no die is rolled."""
        return self.count == 0

    def __str__(self) -> str:
        if self.is_fixed:
            return str(self.plus)
        count = "" if self.count == 1 else str(self.count)
        plus = f"{self.plus:+d}" if self.plus else ""
        return f"{count}D{self.sides}{plus}{' highest' if self.highest else ''}"

    def distribution(self) -> Distribution[int]:
        """Return the exact distribution of the number, counting face combinations without walking them (20D6 has
        6**20 of them: walked one by one, ``odds attacks 20D6`` ran for hours; 10D6 took 25 s).

        The highest of n dice is k in k**n - (k-1)**n combinations; a sum's counts are the single die's convolved
        n times (``tests/test_notation.py`` holds both to the walk of every combination)."""
        if self.is_fixed:
            return Distribution.certain(self.plus)
        faces = range(1, self.sides + 1)
        weights: dict[int, int]
        if self.highest:
            weights = {k + self.plus: k ** self.count - (k - 1) ** self.count for k in faces}
        else:
            sums = {0: 1}
            for _ in range(self.count):
                rolled: dict[int, int] = {}
                for total, ways in sums.items():
                    for face in faces:
                        rolled[total + face] = rolled.get(total + face, 0) + ways
                sums = rolled
            weights = {total + self.plus: ways for total, ways in sums.items()}
        return Distribution.from_weights(weights, self.sides ** self.count)

    def mean(self) -> Fraction:
        """Return the expected value."""
        return self.distribution().mean()

    def roll(self, dice: Dice, purpose: str, rule: str) -> int:
        """Roll the number through the game's dice (a D3 is a D6 halved, rounded up)."""
        if self.is_fixed:
            return self.plus
        if self.sides == 6:
            value = (dice.highest(self.count, purpose, rule) if self.highest
                     else dice.total(self.count, purpose, rule))
        else:
            faces = [(dice.d6(f"{purpose} (D3)", rule) + 1) // 2 for _ in range(self.count)]
            value = max(faces) if self.highest else sum(faces)
        return value + self.plus


def parse_amount(text: str | int, where: str = "value", low: int = 0, high: int = 1000) -> DiceAmount:
    """Read a number or dice notation (``2``, ``D6``, ``2D6``, ``D3+1``, ``2D6 highest``), or fail naming ``where``."""
    if isinstance(text, bool):
        raise NotationError(where, text, EXAMPLES)
    if isinstance(text, int):
        raw = str(text)
    elif isinstance(text, str):
        raw = text.strip()
    else:
        raise NotationError(where, text, EXAMPLES)
    if raw.lstrip("-").isdigit() and raw.isascii():
        value = int(raw)
        if not low <= value <= high:
            raise NotationError(where, text, f"a number from {low} to {high}")
        return DiceAmount.fixed(value)
    m = _AMOUNT.match(raw)
    if m is None:
        raise NotationError(where, text, EXAMPLES)
    count = int(m["count"]) if m["count"] else 1
    if not 1 <= count <= MAX_DICE:
        raise NotationError(where, text, f"1 to {MAX_DICE} dice")
    if m["highest"] and count < 2:
        raise NotationError(where, text, "'highest' of two or more dice, e.g. 2D6 highest")
    plus = int(m["plus"] or 0) * (-1 if m["sign"] == "-" else 1)
    amount = DiceAmount(count, int(m["sides"]), plus, bool(m["highest"]))
    lowest = (1 if amount.highest else count) + plus
    if lowest < low or max(amount.distribution()) > high:
        raise NotationError(where, text, f"dice that always give {low} to {high}")
    return amount


def parse_roll_needed(text: str | int, where: str = "roll", low: int = 2, high: int = 6) -> int:
    """Read a roll needed on a D6 such as ``3+`` (or ``3``) and return 3, or fail naming ``where``."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise NotationError(where, text, f"a roll like 4+ ({low}+ to {high}+)")
    raw = str(text).strip().removesuffix("+").strip()
    if not (raw.isascii() and raw.isdigit()):
        raise NotationError(where, text, f"a roll like 4+ ({low}+ to {high}+)")
    value = int(raw)
    if not low <= value <= high:
        raise NotationError(where, text, f"a roll from {low}+ to {high}+")
    return value
