"""Psychic tests and Perils of the Warp: the test is alike in 40k3 and 40k4; what the Warp does differs.

3rd edition (seed 000): an automatic hit of Strength D6, no save of any kind.  4th edition
(published rulebook): one wound, no armour save, an invulnerable save allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue import implements
from .charts import kills_outright, to_wound
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
    #: the invulnerable save the psyker took against a 4th edition Perils wound (None: no save was taken)
    perils_save: int | None = None


@implements("40k3.psyker.test", "40k3.psyker.perils", "40k3.psyker.perils-on-2", "published.instant-death")
def psychic_test(dice: Dice, leadership: int, toughness: int = 4, wounds: int = 1) -> PsychicResult:
    """Take a psychic test: 2D6 at most Ld passes; 2 or 12 brings Perils of the Warp.

    Perils is one automatic hit of Strength D6 wounding by the to-wound chart with no
    save of any kind (40k3.psyker.perils).  On a 2 the power is used anyway, even if
    the hit slays the psyker (40k3.psyker.perils-on-2) - with Leadership below 2 too.  A hit
    of Strength double the psyker's Toughness or more that wounds slays him outright, whatever
    Wounds he has left (published.instant-death).
    """
    check_value("Toughness", toughness, "core.zero.t")
    roll, passed, power_used, perils = _test(dice, leadership, wounds, "40k3.psyker.test")  # checks Ld and Wounds
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
    outright = kills_outright(strength, toughness)
    return PsychicResult(roll, passed, power_used, perils, strength, wounded, wounded and (wounds <= 1 or outright))


@implements("published.40k4-psychic-test", "published.40k4-perils-of-the-warp")
def psychic_test_4th(dice: Dice, leadership: int, wounds: int = 1, invulnerable: int | None = None) -> PsychicResult:
    """Take a 4th edition psychic test (published.40k4-psychic-test): as in 3rd; Perils is one wound, no armour save.

    The published 4th edition rule: on a 2 or 12 the psyker suffers a wound with no armour
    save allowed; an invulnerable save may be taken.  On a 2 the power is still used.
    """
    if invulnerable is not None and not 2 <= invulnerable <= 6:
        raise OutOfRangeError("invulnerable save", invulnerable, "2+ to 6+, or none", "published.saves")
    roll, passed, power_used, perils = _test(dice, leadership, wounds, "published.40k4-psychic-test")
    wounded = perils
    if perils and invulnerable is not None:
        wounded = dice.total(1, f"Perils of the Warp: invulnerable save ({invulnerable}+)",
                             "published.40k4-perils-of-the-warp", splits=(invulnerable - 1,)) < invulnerable
    return PsychicResult(roll, passed, power_used, perils, None, wounded, wounded and wounds <= 1,
                         invulnerable if perils else None)


def _test(dice: Dice, leadership: int, wounds: int, rule: str) -> tuple[int, bool, bool, bool]:
    """Roll the psychic test both editions share (``rule``: the edition's clause on it): the roll, passed, power used
    (a 2 always), Perils (2 or 12)."""
    check_value("Leadership", leadership, rule)
    if wounds < 1:
        raise OutOfRangeError("Wounds", wounds, "1 or more (a model at 0 Wounds is already removed)", "core.zero.w")
    # only pass/fail and the Perils rolls matter: at most 4 branches when enumerating, not 11
    roll = dice.total(2, f"psychic test (Ld {leadership})", rule,
                      splits=(min(PERILS_ROLLS), leadership, max(PERILS_ROLLS) - 1))
    passed = roll <= leadership
    return roll, passed, passed or roll == 2, roll in PERILS_ROLLS


def _strength_cuts(toughness: int) -> tuple[int, ...]:
    """Return the Strengths after which the to-wound roll needed against ``toughness`` changes, or Instant Death
    begins (double the Toughness: published.instant-death), for ``Dice.total`` splits."""
    return tuple(s for s in range(1, 6) if to_wound(s, toughness) != to_wound(s + 1, toughness)
                 or kills_outright(s, toughness) != kills_outright(s + 1, toughness))
