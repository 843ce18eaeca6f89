"""Warhammer 40,000 4th edition: the Character rule (seed 001); psykers as in 40k3."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..catalogue import implements
from .base import LeadershipRuling, LeadershipSource, Ruleset
from .w40k3 import Warhammer40k3


class Warhammer40k4(Warhammer40k3):
    """Override the 3rd edition where the 4th edition Character rule changes it."""

    name: ClassVar[str] = "40k4"
    title: ClassVar[str] = "Warhammer 40,000 4th edition"
    seeds: ClassVar[tuple[str, ...]] = ("001", "000", "004")

    @implements("40k4.char.leadership")
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Use the character's Leadership if it is higher than the unit's; else the shared rule."""
        characters = [s for s in sources if s.is_character]
        troops = [s for s in sources if not s.is_character]
        if characters and troops:
            best = max(characters, key=lambda s: s.leadership)
            if best.leadership > max(s.leadership for s in troops) and chosen in (None, best.leadership):
                return LeadershipRuling(best.leadership, "40k4.char.leadership", best.name)
        return Ruleset.unit_leadership(self, sources, chosen)

    @implements("40k4.char.no-last-man")
    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say that characters never take Last Man Standing tests."""
        return not is_character
