"""Psychic powers as data: a name, a range, the phase it is used in, and what it does.

A power is either a psychic shooting attack (a weapon profile the psyker fires at one
enemy unit it can see - 40k3.psyker.as-shooting) or an effect on an enemy unit (the
only effect bundled is ``morale``: the target takes a Morale check and falls back if
it fails).  Bundled powers are in ``data/powers.yaml``; a scenario may add or replace
powers under its top-level ``powers:`` key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, model_validator

from .errors import HerohammerError, validation_problem
from .state import Phase
from .input_types import Number
from .weapons import Weapon, WeaponType, weapon_from_data

#: libyaml's safe loader when installed (the bundled file loads ~10x faster), else the Python one.
_BUNDLED_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class PowerEffect(StrEnum):
    """Name what a power does."""

    SHOOTING = "shooting"  # a psychic shooting attack with the power's weapon profile
    MORALE = "morale"  # the target takes a Morale check; on a failure it falls back


@dataclass(frozen=True)
class Power:
    """Hold one psychic power: where and when it is used and what it does."""

    name: str
    range: float
    phase: Phase
    effect: PowerEffect
    weapon: Weapon | None = None
    modifier: int = 0  # the Leadership modifier of a morale effect

    def to_data(self) -> dict[str, Any]:
        """Write the power as the mapping ``power_from_data`` reads."""
        out: dict[str, Any] = {"name": self.name, "range": self.range, "phase": self.phase.value,
                               "effect": self.effect.value}
        if self.weapon is not None:
            w = self.weapon.to_data()
            out["shooting"] = {k: v for k, v in w.items() if k not in ("name", "range")}
        if self.modifier:
            out["modifier"] = self.modifier
        return out


class PowerSpec(BaseModel):
    """Validate one psychic power as a file gives it (pydantic: field paths in the errors)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    range: Number = Field(0, ge=0)
    phase: Literal[Phase.SHOOTING, Phase.ASSAULT, Phase.MOVEMENT] = Phase.SHOOTING
    effect: PowerEffect = PowerEffect.SHOOTING
    shooting: dict[str, Any] | None = None
    modifier: Annotated[StrictInt, Field(ge=-10, le=10)] = 0

    @model_validator(mode="after")
    def _profile_for_shooting(self) -> PowerSpec:
        if self.effect is PowerEffect.SHOOTING and self.shooting is None:
            raise ValueError("a shooting power needs a profile: shooting: {type, strength, ap}")
        return self


def power_from_data(data: Mapping[str, Any], where: str = "powers") -> Power:
    """Read one power from a mapping, or fail naming the field."""
    try:
        spec = PowerSpec.model_validate(data)
    except ValidationError as exc:
        path, problem = validation_problem(exc, PowerSpec)
        raise HerohammerError(f"{where}{'.' + path if path else ''}: {problem}") from None
    weapon = None
    if spec.effect is PowerEffect.SHOOTING and spec.shooting is not None:
        weapon = weapon_from_data({"type": WeaponType.ASSAULT.value, **spec.shooting, "name": spec.name.strip(),
                                   "range": spec.range}, f"{where}.shooting")
    return Power(spec.name.strip(), float(spec.range), Phase(spec.phase), spec.effect, weapon, spec.modifier)


def powers_from_data(items: Iterable[Mapping[str, Any]], where: str = "powers") -> tuple[Power, ...]:
    """Read a list of powers."""
    return tuple(power_from_data(item, f"{where}[{i}]") for i, item in enumerate(items))


@lru_cache(maxsize=1)
def bundled_powers() -> tuple[Power, ...]:
    """Return the example powers shipped with the package (``data/powers.yaml``)."""
    text = resources.files("herohammer").joinpath("data/powers.yaml").read_text(encoding="utf-8")
    return powers_from_data(yaml.load(text, Loader=_BUNDLED_LOADER), "data/powers.yaml")


def find_power(name: str, extra: Iterable[Power] = ()) -> Power | None:
    """Return a power by name, the scenario's own first; None if there is none."""
    for p in (*extra, *bundled_powers()):
        if p.name.lower() == name.lower():
            return p
    return None


def known_powers(extra: Iterable[Power] = ()) -> list[str]:
    """List every power name a scenario can use."""
    return sorted({p.name for p in (*extra, *bundled_powers())})
