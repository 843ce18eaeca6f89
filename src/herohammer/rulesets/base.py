"""The shared rules and the hooks each ruleset may override.

In the style of python-chess's variants: a ruleset is a small subclass that overrides
a few hook methods, each a few lines; this base class holds the defaults every game
shares (seed 004), so rules code asks ``ruleset.hook(...)`` and never which ruleset it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..checks import chosen_leadership
from ..dice import Dice
from ..errors import IllegalActionError
from ..psychic import PsychicResult


@dataclass(frozen=True)
class LeadershipSource:
    """One model's Leadership as a unit's test sees it."""

    name: str
    leadership: int
    is_character: bool = False


@dataclass(frozen=True)
class LeadershipRuling:
    """Say which Leadership a unit tests on and which rule decided it."""

    value: int
    rule: str
    source: str


class Ruleset:
    """Hold the rules shared by every game; subclasses override hooks for their seed."""

    name: ClassVar[str] = "core"
    title: ClassVar[str] = "Rules shared by every ruleset (seed 004)"
    seeds: ClassVar[tuple[str, ...]] = ("004",)

    # -- psychic powers -------------------------------------------------------
    supports_psychic_tests: ClassVar[bool] = False

    def require_psychic_tests(self) -> None:
        """Refuse a psychic test in a ruleset that has none."""
        if not self.supports_psychic_tests:
            raise IllegalActionError(
                f"ruleset {self.name} has no 40k psychic test (use 40k3 or 40k4)", ["40k3.psyker.test"]
            )

    def psychic_test(self, dice: Dice, leadership: int, toughness: int, wounds: int) -> PsychicResult:
        """Take a psychic test by this ruleset's rules."""
        self.require_psychic_tests()
        raise NotImplementedError  # pragma: no cover - unreachable, require_ raises

    # -- Leadership -------------------------------------------------------------
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Return the Leadership a unit tests on: the player's choice, the highest by default."""
        value = chosen_leadership([s.leadership for s in sources], chosen)
        source = next(s.name for s in sources if s.leadership == value)
        return LeadershipRuling(value, "core.test.leadership-choice", source)

    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say whether a unit of one model left takes a Last Man Standing test."""
        return True
