"""Warhammer 40,000 3rd edition: characters, independent characters, psykers (seed 000)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..catalogue import implements
from ..dice import Dice
from ..errors import IllegalActionError
from ..psychic import PsychicResult, psychic_test
from .base import LeadershipRuling, LeadershipSource, Ruleset


class Warhammer40k3(Ruleset):
    """Override the shared rules where the 3rd edition character rules say otherwise."""

    name: ClassVar[str] = "40k3"
    title: ClassVar[str] = "Warhammer 40,000 3rd edition"
    seeds: ClassVar[tuple[str, ...]] = ("000", "004")
    supports_psychic_tests: ClassVar[bool] = True

    def psychic_test(self, dice: Dice, leadership: int, toughness: int, wounds: int) -> PsychicResult:
        """Take a psychic test with Perils of the Warp (40k3.psyker.*)."""
        return psychic_test(dice, leadership, toughness, wounds)

    @implements("40k3.char.leadership")
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Use the character's Leadership for every test of its unit, even where it is lower."""
        characters = [s for s in sources if s.is_character]
        if not characters:
            return super().unit_leadership(sources, chosen)
        best = max(characters, key=lambda s: s.leadership)
        if chosen is not None and chosen != best.leadership:
            raise IllegalActionError(
                f"a unit with a character tests on the character's Leadership {best.leadership}, not {chosen}",
                ["40k3.char.leadership"],
            )
        return LeadershipRuling(best.leadership, "40k3.char.leadership", best.name)

    @implements("40k3.ic.no-last-man")
    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say that an independent character never takes Last Man Standing: it is a unit already."""
        return not is_character
