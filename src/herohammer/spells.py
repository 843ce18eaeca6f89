"""The 9th Age spells as data: casting value, range and what the spell does.

The bundled spells are in ``data/spells.yaml`` (validated by pydantic, so a bad entry is
one error naming the entry and the field).  A spell that causes hits gives a number of
hits (a number or D3/D6/2D6) at a Strength; the t9a Magic phase wounds them through the
same code as shooting (``rulesets/t9a_combat.wound_unit``).  Its ``types`` are the
published spell Types (published.t9a-spell-types) that say how its target is chosen; the
engine plays those a spell that hits an enemy unit can have (``PLAYED_TYPES``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from .dice import Dice
from .errors import HerohammerError, validation_problem
from .input_types import Number

SPELL_TYPES = "published.t9a-spell-types"
#: The published spell Types (The 9th Age, 2nd edition, Spell Type).
PUBLISHED_TYPES = ("Augment", "Aura", "Caster", "Damage", "Focused", "Ground", "Hex", "Missile", "Universal")
#: The Types the engine plays: its spells hit one enemy unit (Hex), some from afar (Missile), some only the unengaged (Damage).
PLAYED_TYPES = ("Hex", "Missile", "Damage")

#: Dice expressions for a spell's number of hits: (dice to roll, faces kept as they are).
_HITS_DICE = {"D3": 1, "D6": 1, "2D6": 2}


class SpellSpec(BaseModel):
    """Validate one spell as a file gives it."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    casting_value: StrictInt = Field(ge=2, le=20)
    range: Number = Field(gt=0, le=72)
    hits: StrictInt | Literal["D3", "D6", "2D6"] = Field(1)
    strength: StrictInt = Field(ge=0, le=10)
    types: tuple[str, ...] = Field(min_length=1)
    #: the hits' Armour Penetration: each point worsens the armour save by 1 (published.t9a-to-wound)
    ap: StrictInt = Field(0, ge=0, le=10)


def types_problem(types: tuple[str, ...]) -> tuple[int | None, str] | None:
    """Say which of a spell's Types is wrong and why (the index, or None for the list as a whole), or None."""
    for i, name in enumerate(types):
        if name not in PUBLISHED_TYPES:
            return i, f"unknown spell type {name!r} (the published Types: {', '.join(PUBLISHED_TYPES)}) [{SPELL_TYPES}]"
        if name not in PLAYED_TYPES:
            return i, (f"spell type {name!r} is not played by the engine: its spells hit one enemy unit "
                       f"(types {', '.join(PLAYED_TYPES)}) [{SPELL_TYPES}]")
    if len(set(types)) != len(types):
        return None, f"a type is given twice: {list(types)} [{SPELL_TYPES}]"
    if "Hex" not in types:
        return None, f"a spell that hits an enemy unit has the type Hex, got {list(types)} [{SPELL_TYPES}]"
    return None


@dataclass(frozen=True)
class Spell:
    """Hold one spell: its casting value, range, and the hits it causes."""

    name: str
    casting_value: int
    range: float
    hits: int | str
    strength: int
    types: tuple[str, ...]
    ap: int = 0

    @property
    def missile(self) -> bool:
        """Say whether the spell is a Missile: not cast by an engaged Caster (published.t9a-spell-types)."""
        return "Missile" in self.types

    @property
    def damage(self) -> bool:
        """Say whether the spell is Damage: it targets only units not engaged in combat (published.t9a-spell-types)."""
        return "Damage" in self.types

    def roll_hits(self, dice: Dice, rule: str) -> int:
        """Return the number of hits (rolled through ``dice`` when the spell gives a dice expression)."""
        if isinstance(self.hits, int):
            return self.hits
        value = dice.total(_HITS_DICE[self.hits], f"{self.name}: hits ({self.hits})", rule)
        return (value + 1) // 2 if self.hits == "D3" else value


def spells_from_data(items: Iterable[Mapping[str, Any]], where: str) -> tuple[Spell, ...]:
    """Read a list of spells, or fail naming the entry and the field."""
    out = []
    for i, item in enumerate(items):
        try:
            spec = SpellSpec.model_validate(item)
        except ValidationError as exc:
            path, problem = validation_problem(exc)
            raise HerohammerError(f"{where}[{i}]{'.' + path if path else ''}: {problem}") from None
        wrong = types_problem(spec.types)
        if wrong is not None:
            at, problem = wrong
            raise HerohammerError(f"{where}[{i}].types{'' if at is None else f'[{at}]'}: {problem}")
        out.append(Spell(spec.name.strip(), spec.casting_value, float(spec.range), spec.hits, spec.strength,
                         spec.types, spec.ap))
    return tuple(out)


@lru_cache(maxsize=1)
def bundled_spells() -> tuple[Spell, ...]:
    """Return the spells shipped with the package (``data/spells.yaml``)."""
    text = resources.files("herohammer").joinpath("data/spells.yaml").read_text(encoding="utf-8")
    return spells_from_data(yaml.safe_load(text), "data/spells.yaml")


def find_spell(name: str) -> Spell | None:
    """Return a bundled spell by name (case-insensitive), or None."""
    return next((s for s in bundled_spells() if s.name.lower() == name.strip().lower()), None)
