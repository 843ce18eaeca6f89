"""Psychic tests and Perils of the Warp (40k3; 40k4 plays psykers the same way)."""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue import implements
from .charts import to_wound
from .checks import check_value
from .dice import Dice
from .errors import OutOfRangeError

PERILS_ROLLS = (2, 12)


@dataclass(frozen=True)
class PsychicResult:
    """Say what a psychic test did: the roll, the power, and what the Warp did to the psyker."""

    roll: int
    passed: bool
    power_used: bool
    perils: bool
    perils_strength: int | None
    wounded: bool
    slain: bool


@implements("40k3.psyker.test", "40k3.psyker.perils", "40k3.psyker.perils-on-2")
def psychic_test(dice: Dice, leadership: int, toughness: int = 4, wounds: int = 1) -> PsychicResult:
    """Take a psychic test: 2D6 at most Ld passes; 2 or 12 brings Perils of the Warp.

    Perils is one automatic hit of Strength D6 wounding by the to-wound chart with no
    save of any kind (40k3.psyker.perils).  On a 2 the power is used anyway, even if
    the hit slays the psyker (40k3.psyker.perils-on-2) - with Leadership below 2 too.
    """
    check_value("Leadership", leadership, "40k3.psyker.test")
    check_value("Toughness", toughness, "core.zero.t")
    if wounds < 1:
        raise OutOfRangeError("Wounds", wounds, "1 or more (a model at 0 Wounds is already removed)", "core.zero.w")
    # only pass/fail and the Perils rolls matter: at most 4 branches when enumerating, not 11
    roll = dice.total(2, f"psychic test (Ld {leadership})", "40k3.psyker.test",
                      splits=(min(PERILS_ROLLS), leadership, max(PERILS_ROLLS) - 1))
    passed = roll <= leadership
    power_used = passed or roll == 2
    perils = roll in PERILS_ROLLS
    strength: int | None = None
    wounded = False
    if perils:
        # the Strength only picks the to-wound roll needed, and that roll only passes or fails: an enumeration
        # branches once per roll needed and twice for the wound, not 6 x 6 ways (play rolls both dice as ever)
        strength = dice.total(1, "Perils of the Warp: Strength of the hit", "40k3.psyker.perils",
                              splits=_strength_cuts(toughness))
        needed = to_wound(strength, toughness)
        if needed is not None:
            wounded = dice.total(1, f"Perils of the Warp: to wound ({needed}+)", "40k3.psyker.perils",
                                 splits=(needed - 1,)) >= needed
    return PsychicResult(roll, passed, power_used, perils, strength, wounded, wounded and wounds <= 1)


def _strength_cuts(toughness: int) -> tuple[int, ...]:
    """Return the Strengths after which the to-wound roll needed against ``toughness`` changes (``Dice.total`` splits)."""
    return tuple(s for s in range(1, 6) if to_wound(s, toughness) != to_wound(s + 1, toughness))
