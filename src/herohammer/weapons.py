"""Weapon profiles as data: range, Strength, AP and type, read from YAML.

A profile is what the army book prints (3rd/4th edition rulebooks, "Weapons"): range
in inches, Strength (or the user's), Armour Piercing, and a type - Rapid Fire,
Assault N, Heavy N, Pistol, Ordnance N - optionally with Blast.  Close combat
weapons have the type ``melee``.  Bundled profiles are in ``data/weapons.yaml``; a
scenario may add or replace profiles under its top-level ``weapons:`` key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError, field_validator

from .errors import HerohammerError, validation_problem
from .input_types import Number
from .notation import DiceAmount, parse_amount

#: libyaml's safe loader when installed (the bundled file loads ~10x faster), else the Python one.
_BUNDLED_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class WeaponType(StrEnum):
    """Name a weapon type; it sets how many shots are fired and when (published shooting rules)."""

    RAPID_FIRE = "rapid_fire"
    ASSAULT = "assault"
    HEAVY = "heavy"
    PISTOL = "pistol"
    ORDNANCE = "ordnance"
    MELEE = "melee"


@dataclass(frozen=True)
class Weapon:
    """Hold one weapon profile.

    ``strength`` None means "User" (the wielder's S); ``ap`` None means "-" (no
    armour ignored).  ``blast`` is how many models of the target one hit covers (0:
    not a Blast weapon) - the project's stand-in for placing the template, stated in
    the docs.  ``ignores_armour`` is a power weapon's "no armour save in close combat".
    A close combat weapon may change the user's Strength (``strength_factor`` x2 for a power
    fist, ``strength_bonus`` +1) and strike at a fixed Initiative (``strikes_at`` 1: a power
    fist strikes last), as the rulebooks' special close combat weapons do.
    """

    name: str
    range: float
    type: WeaponType
    strength: int | None = None
    ap: int | None = None
    shots: int = 1
    blast: int = 0
    ignores_armour: bool = False
    #: Random shots (``Assault D6``): rolled through the game's dice by each model that fires; None when fixed.
    shots_dice: DiceAmount | None = None
    #: "User" Strength changed: multiplied (``x2``), then added to (``+1``); at most 10.
    strength_factor: int = 1
    strength_bonus: int = 0
    #: The Initiative its blows are struck at whatever the wielder's (a power fist: 1); None: the wielder's.
    strikes_at: int | None = None

    @property
    def is_shooting(self) -> bool:
        """Say whether the weapon is fired in the Shooting phase."""
        return self.type is not WeaponType.MELEE

    def strength_for(self, user_strength: int) -> int:
        """Return the Strength of a hit: the profile's, or the wielder's for 'User' (doubled, added to: at most 10)."""
        if self.strength is not None:
            return self.strength
        if self.strength_factor == 1 and not self.strength_bonus:
            return user_strength
        return min(MAX_STRENGTH, user_strength * self.strength_factor + self.strength_bonus)

    def strength_said(self) -> str | int:
        """Write the Strength as a profile prints it: a number, 'user', 'x2' or '+1'."""
        if self.strength is not None:
            return self.strength
        if self.strength_factor != 1:
            return f"x{self.strength_factor}"
        return f"+{self.strength_bonus}" if self.strength_bonus else "user"

    def to_data(self) -> dict[str, Any]:
        """Write the profile as the mapping ``weapon_from_data`` reads."""
        out: dict[str, Any] = {"name": self.name, "type": self.type.value, "range": self.range,
                               "strength": self.strength_said(),
                               "ap": "-" if self.ap is None else self.ap}
        if self.shots_dice is not None:
            out["shots"] = str(self.shots_dice)
        elif self.shots != 1:
            out["shots"] = self.shots
        if self.blast:
            out["blast"] = self.blast
        if self.ignores_armour:
            out["ignores_armour"] = True
        if self.strikes_at is not None:
            out["strikes_at"] = self.strikes_at
        return out


class WeaponSpec(BaseModel):
    """Validate one weapon profile as a file gives it (pydantic: field paths in the errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    type: WeaponType
    range: Number = Field(0, ge=0)
    strength: int | str | None = None  # None: "user", the wielder's Strength; "x2" doubled, "+1" added to
    ap: int | None = None  # None: "-", no armour ignored
    shots: Annotated[StrictInt, Field(ge=0, le=20)] | str = 1  # a number or dice notation: 2, D6, 2D3, D3+1
    blast: Annotated[StrictInt, Field(ge=0, le=20)] = 0
    ignores_armour: StrictBool = False
    #: The Initiative its blows are struck at (a power fist: 1); unset: the wielder's.
    strikes_at: Annotated[StrictInt, Field(ge=1, le=10)] | None = None

    @field_validator("strength", mode="before")
    @classmethod
    def _strength(cls, value: Any) -> int | str | None:
        if isinstance(value, str) and (changed := strength_change(value)) is not None:
            return changed
        try:
            return _number_or_word(value, "user", 1, 10)
        except ValueError:
            raise ValueError("expected 1..10, 'user', 'x2' (the user's doubled) or '+1' (the user's plus 1)") from None

    @field_validator("ap", mode="before")
    @classmethod
    def _ap(cls, value: Any) -> int | None:
        return _number_or_word(value, "-", 1, 6)

    @field_validator("shots", mode="before")
    @classmethod
    def _shots(cls, value: Any) -> int | str:
        if isinstance(value, str):
            amount = parse_amount(value, "shots", 0, 20)  # one clear error for bad notation
            return amount.plus if amount.is_fixed else str(amount)
        return value  # type: ignore[no-any-return]

    def build(self) -> Weapon:
        """Return the weapon profile the rules use."""
        dice = parse_amount(self.shots, "shots", 0, 20) if isinstance(self.shots, str) else None
        fixed = 1 if isinstance(self.shots, str) else max(1, self.shots)
        strength, factor, bonus = self.strength, 1, 0
        if isinstance(strength, str):  # 'x2' or '+1': the user's Strength changed
            factor, bonus = (int(strength[1:]), 0) if strength[0] == "x" else (1, int(strength[1:]))
            strength = None
        return Weapon(self.name.strip(), float(self.range), self.type, strength, self.ap,
                      fixed, self.blast, self.ignores_armour, dice, factor, bonus, self.strikes_at)


#: The user's Strength changed by a close combat weapon: doubled (``x2``, up to x3) or added to (``+1`` to ``+5``).
_USER_CHANGED = re.compile(r"^(x[23]|\+[1-5])$", re.IGNORECASE)
#: No Strength above 10 (the to-wound chart's last column).
MAX_STRENGTH = 10


def strength_change(text: str) -> str | None:
    """Read a Strength printed as the user's changed (``x2``, ``User +2``, ``+1``): the notation a profile keeps
    (``x2``, ``+2``), or None when it is no such change."""
    changed = text.strip().lower().replace(" ", "").removeprefix("user")
    return changed if _USER_CHANGED.match(changed) else None


def _number_or_word(value: Any, word: str, low: int, high: int) -> int | None:
    """Read a printed value that is a number in low..high or a word ('user', '-') meaning none."""
    if value is None or (isinstance(value, str) and value.strip().lower() == word):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"expected {low}..{high} or '{word}'")
    return value


def weapon_from_data(data: Mapping[str, Any], where: str = "weapons") -> Weapon:
    """Read one weapon profile from a mapping, or fail naming the field."""
    try:
        return WeaponSpec.model_validate(data).build()
    except ValidationError as exc:
        path, problem = validation_problem(exc, WeaponSpec)
        raise HerohammerError(f"{where}{'.' + path if path else ''}: {problem}") from None


def weapons_from_data(items: Iterable[Mapping[str, Any]], where: str = "weapons") -> tuple[Weapon, ...]:
    """Read a list of weapon profiles."""
    return tuple(weapon_from_data(item, f"{where}[{i}]") for i, item in enumerate(items))


@lru_cache(maxsize=1)
def bundled_weapons() -> tuple[Weapon, ...]:
    """Return the weapon profiles shipped with the package (``data/weapons.yaml``)."""
    text = resources.files("herohammer").joinpath("data/weapons.yaml").read_text(encoding="utf-8")
    return weapons_from_data(yaml.load(text, Loader=_BUNDLED_LOADER), "data/weapons.yaml")


#: Every model fights in close combat even without a listed close combat weapon.
BARE_HANDS = Weapon("close combat weapon", 0.0, WeaponType.MELEE)


@lru_cache(maxsize=1)
def _bundled_by_name() -> dict[str, Weapon]:
    """Index the bundled profiles by lower-case name (the first of a name, as a scan finds it)."""
    index: dict[str, Weapon] = {}
    for w in bundled_weapons():
        index.setdefault(w.name.lower(), w)
    return index


def find_weapon(name: str, extra: Iterable[Weapon] = (), model: str = "") -> Weapon:
    """Return a weapon by name, the scenario's own profiles first, or fail naming the model."""
    wanted = name.lower()
    for w in extra:
        if w.name.lower() == wanted:
            return w
    found = _bundled_by_name().get(wanted)
    if found is not None:
        return found
    known = sorted({w.name for w in (*extra, *bundled_weapons())})
    owner = f" (on {model})" if model else ""
    raise HerohammerError(f"unknown weapon {name!r}{owner}; known: {', '.join(known)} - or define it under weapons:")
