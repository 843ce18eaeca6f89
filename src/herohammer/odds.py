"""Exact odds for the questions players ask, computed from the rules code itself.

Tests, Leadership and psychic tests are enumerated through the same functions that
play the game (``checks``, ``psychic``), so a rule has one implementation.  Attack
sequences are answered in closed form: each attack's hit, wound and save chain is
independent of the others, so the number of unsaved wounds is Binomial(N, p_hit *
p_wound * p_unsaved) - exactly what the pooled rolls of ``attacks.resolve_attacks``
give, which the tests check by enumeration, and fast enough for 300 attacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .attacks import resolve_attacks
from .checks import characteristic_test, check_value, leadership_test
from .dice import Dice, Reroll, binomial, binomial_weights, enumerate_outcomes, success_probability
from .distribution import Distribution
from .errors import OutOfRangeError
from .rulesets import get_ruleset

MAX_ATTACKS = 1000


def test_odds(value: int, reroll_failed: bool = False) -> dict[str, Fraction]:
    """Return the exact chance to pass and fail a characteristic test (core.test.characteristic)."""
    check_value("VALUE", value, "core.test.characteristic")
    dist = enumerate_outcomes(lambda d: characteristic_test(d, value, reroll_failed=reroll_failed).passed)
    return {"pass": dist[True], "fail": dist[False]}


def leadership_odds(leadership: int) -> dict[str, Fraction]:
    """Return the exact chance to pass and fail a Leadership test (core.test.leadership)."""
    check_value("LD", leadership, "core.test.leadership")
    dist = enumerate_outcomes(lambda d: leadership_test(d, leadership).passed)
    return {"pass": dist[True], "fail": dist[False]}


def psychic_odds(leadership: int, toughness: int = 4, wounds: int = 1, ruleset: str = "40k3") -> dict[str, Fraction]:
    """Return the exact odds of a psychic test with Perils, through the ruleset's own rules code."""
    rules = get_ruleset(ruleset)
    check_value("LD", leadership, "40k3.psyker.test")
    check_value("toughness", toughness, "core.zero.t")
    if wounds < 1 or wounds > 10:
        raise OutOfRangeError("wounds", wounds, "1..10", "core.zero.w")
    rules.require_psychic_tests()
    dist = enumerate_outcomes(lambda d: rules.psychic_test(d, leadership, toughness, wounds))
    return {
        "power_used": dist.probability(lambda r: r.power_used),
        "fail": dist.probability(lambda r: not r.passed),
        "perils": dist.probability(lambda r: r.perils),
        "psyker_slain": dist.probability(lambda r: r.slain),
    }


def check_roll_needed(name: str, value: int | None, allow_none: bool = False) -> None:
    """Reject a roll needed outside 2+..6+."""
    if value is None and allow_none:
        return
    if value is None or isinstance(value, bool) or not 2 <= value <= 6:
        raise OutOfRangeError(name, value, "a roll from 2+ to 6+")


@dataclass(frozen=True)
class AttackQuery:
    """Describe a batch of identical attacks: how many, the rolls needed, the re-rolls."""

    attacks: int
    hit: int
    wound: int
    save: int | None = None
    reroll_hits: Reroll = Reroll.NONE
    reroll_wounds: Reroll = Reroll.NONE

    def __post_init__(self) -> None:
        if isinstance(self.attacks, bool) or not 0 <= self.attacks <= MAX_ATTACKS:
            raise OutOfRangeError("N", self.attacks, f"a number of attacks from 0 to {MAX_ATTACKS}")
        check_roll_needed("--hit", self.hit)
        check_roll_needed("--wound", self.wound)
        check_roll_needed("--save", self.save, allow_none=True)

    def per_attack(self) -> Fraction:
        """Return the chance that one attack ends as an unsaved wound."""
        p_hit = success_probability(self.hit, self.reroll_hits.below(self.hit))
        p_wound = success_probability(self.wound, self.reroll_wounds.below(self.wound))
        p_unsaved = 1 - success_probability(self.save) if self.save else Fraction(1)
        return p_hit * p_wound * p_unsaved

    def distribution(self) -> Distribution[int]:
        """Return the exact distribution of unsaved wounds (closed form)."""
        p = self.per_attack()
        if p in (0, 1) or self.attacks == 0:
            return Distribution(binomial(self.attacks, p))
        weights, den = binomial_weights(self.attacks, p)
        return Distribution.from_weights(dict(enumerate(weights)), den)

    def play(self, dice: Dice) -> int:
        """Roll the attacks through the rules code and return the unsaved wounds."""
        return resolve_attacks(
            dice, self.attacks, self.hit, self.wound, self.save, self.reroll_hits, self.reroll_wounds
        ).unsaved

    def enumerate(self) -> Distribution[int]:
        """Return the distribution by walking the rules code's chance tree (slow; the oracle)."""
        return enumerate_outcomes(self.play)
