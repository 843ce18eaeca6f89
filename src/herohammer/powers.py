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
from typing import Any

import yaml

from .errors import HerohammerError
from .state import Phase
from .weapons import Weapon, WeaponType, weapon_from_data


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


def power_from_data(data: Mapping[str, Any], where: str = "powers") -> Power:
    """Read one power from a mapping, or fail naming the field."""
    if not isinstance(data, Mapping):
        raise HerohammerError(f"{where}: expected a mapping with name, range, phase, effect")
    known = {"name", "range", "phase", "effect", "shooting", "modifier"}
    extra = sorted(set(data) - known)
    if extra:
        raise HerohammerError(f"{where}: unknown field {extra[0]!r} (expected {', '.join(sorted(known))})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise HerohammerError(f"{where}: field name: expected a power name")
    rng = data.get("range", 0)
    if isinstance(rng, bool) or not isinstance(rng, (int, float)) or rng < 0:
        raise HerohammerError(f"{where}: field range: expected inches >= 0, got {rng!r}")
    try:
        phase = Phase(str(data.get("phase", "shooting")))
    except ValueError:
        raise HerohammerError(f"{where}: field phase: expected shooting or assault, got {data.get('phase')!r}") from None
    try:
        effect = PowerEffect(str(data.get("effect", "shooting")))
    except ValueError:
        raise HerohammerError(
            f"{where}: field effect: expected one of {', '.join(e.value for e in PowerEffect)}, got {data.get('effect')!r}"
        ) from None
    weapon = None
    if effect is PowerEffect.SHOOTING:
        profile = data.get("shooting")
        if not isinstance(profile, Mapping):
            raise HerohammerError(f"{where}: field shooting: a shooting power needs a profile {{type, strength, ap}}")
        weapon = weapon_from_data({"type": WeaponType.ASSAULT.value, **profile, "name": name.strip(), "range": rng},
                                  f"{where}.shooting")
    modifier = data.get("modifier", 0)
    if isinstance(modifier, bool) or not isinstance(modifier, int) or not -10 <= modifier <= 10:
        raise HerohammerError(f"{where}: field modifier: expected a whole number -10..10, got {modifier!r}")
    return Power(name.strip(), float(rng), phase, effect, weapon, modifier)


def powers_from_data(items: Iterable[Mapping[str, Any]], where: str = "powers") -> tuple[Power, ...]:
    """Read a list of powers."""
    return tuple(power_from_data(item, f"{where}[{i}]") for i, item in enumerate(items))


@lru_cache(maxsize=1)
def bundled_powers() -> tuple[Power, ...]:
    """Return the example powers shipped with the package (``data/powers.yaml``)."""
    text = resources.files("herohammer").joinpath("data/powers.yaml").read_text(encoding="utf-8")
    return powers_from_data(yaml.safe_load(text), "data/powers.yaml")


def find_power(name: str, extra: Iterable[Power] = ()) -> Power | None:
    """Return a power by name, the scenario's own first; None if there is none."""
    for p in (*extra, *bundled_powers()):
        if p.name.lower() == name.lower():
            return p
    return None


def known_powers(extra: Iterable[Power] = ()) -> list[str]:
    """List every power name a scenario can use."""
    return sorted({p.name for p in (*extra, *bundled_powers())})
