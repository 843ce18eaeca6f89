"""Exact odds checked against independent oracles: icepool and brute force, with exact Fractions.

Every value in range is checked (0..10 for characteristics and Leadership, T 0..10 and
W 1..3 for psychic tests); attack sequences are checked against the rules code's own
chance tree (``AttackQuery.enumerate``) for small N and against icepool for large N.
The published charts are written out again here, independently of ``charts.py``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from icepool import d6

from herohammer import charts, odds
from herohammer.dice import Reroll
from herohammer.distribution import Distribution
from herohammer.errors import HerohammerError, IllegalActionError, OutOfRangeError, UnknownRulesetError
from herohammer.profiles import Profile

FACES = range(1, 7)
VALUES = range(0, 11)
SIX = Fraction(1, 6)


def ice_fraction(die: icepool.Die, outcome: object) -> Fraction:
    """Return icepool's exact probability of one outcome as a reduced Fraction."""
    return Fraction(die.quantity(outcome), die.denominator())


def ice_reroll(faces_to_reroll: list[int]) -> icepool.Die:
    """Return a D6 re-rolled once when it shows one of these faces (icepool's own reroll)."""
    if not faces_to_reroll:
        return d6
    if len(faces_to_reroll) == 6:  # re-rolling everything once is just a fresh D6
        return d6
    return d6.reroll(faces_to_reroll, depth=1)


def published_to_wound(strength: int, toughness: int) -> int | None:
    """Return the roll needed to wound from the published 3rd/4th edition chart (and seed 004)."""
    if strength == 0:
        return None  # core.zero.s
    if toughness == 0:
        return 2  # core.zero.t
    if strength >= toughness + 2:
        return 2
    if strength == toughness + 1:
        return 3
    if strength == toughness:
        return 4
    if strength == toughness - 1:
        return 5
    if strength in (toughness - 2, toughness - 3):
        return 6
    return None


# --------------------------------------------------------------------------------------
# characteristic tests
# --------------------------------------------------------------------------------------


def _passes(value: int, face: int) -> bool:
    return value > 0 and face != 6 and face <= value


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("value", VALUES)
def test_test_odds_brute_force(value: int, reroll: bool) -> None:
    p_pass = Fraction(0)
    for first in FACES:
        if _passes(value, first):
            p_pass += SIX
        elif reroll:
            p_pass += SIX * sum((SIX for second in FACES if _passes(value, second)), Fraction(0))
    got = odds.test_odds(value, reroll)
    assert got == {"pass": p_pass, "fail": 1 - p_pass}
    assert all(isinstance(p, Fraction) for p in got.values())


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("value", VALUES)
def test_test_odds_icepool(value: int, reroll: bool) -> None:
    failing = [f for f in FACES if not _passes(value, f)]
    die = ice_reroll(failing) if reroll else d6
    passed = die.map(lambda f: _passes(value, f))
    assert odds.test_odds(value, reroll)["pass"] == ice_fraction(passed, True)
    assert odds.test_odds(value, reroll)["fail"] == ice_fraction(passed, False)


def test_test_odds_known_values() -> None:
    assert odds.test_odds(0) == {"pass": 0, "fail": 1}
    assert odds.test_odds(4)["pass"] == Fraction(2, 3)
    assert odds.test_odds(10)["pass"] == Fraction(5, 6)
    assert odds.test_odds(4, True)["pass"] == Fraction(8, 9)


@pytest.mark.parametrize("bad", [-1, 11])
def test_test_odds_range(bad: int) -> None:
    with pytest.raises(OutOfRangeError):
        odds.test_odds(bad)


# --------------------------------------------------------------------------------------
# Leadership tests
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.test.leadership")
@pytest.mark.parametrize("ld", VALUES)
def test_leadership_odds_brute_force_and_icepool(ld: int) -> None:
    brute = sum((Fraction(1, 36) for a, b in itertools.product(FACES, FACES) if a + b <= ld), Fraction(0))
    ice = (2 @ d6).probability("<=", ld)
    assert ice == brute
    got = odds.leadership_odds(ld)
    assert got == {"pass": brute, "fail": 1 - brute}


def test_leadership_odds_known_values() -> None:
    assert odds.leadership_odds(7)["pass"] == Fraction(7, 12)
    assert odds.leadership_odds(1)["pass"] == 0
    assert odds.leadership_odds(10)["pass"] == Fraction(11, 12)


@pytest.mark.parametrize("bad", [-1, 11, 13])
def test_leadership_odds_range(bad: int) -> None:
    with pytest.raises(OutOfRangeError):
        odds.leadership_odds(bad)


# --------------------------------------------------------------------------------------
# psychic tests
# --------------------------------------------------------------------------------------


def psychic_brute(ld: int, toughness: int, wounds: int, ruleset: str = "40k3") -> dict[str, Fraction]:
    """Walk 2D6 x D6 (Strength) x D6 (to wound) by hand: 1296 equally likely histories.

    40k4's Perils is one wound with no armour save (published.40k4-perils-of-the-warp): no
    Strength, no to-wound roll, so every Perils slays a psyker with one Wound left.  3rd
    edition: a hit of Strength double the Toughness or more that wounds slays him whatever his
    Wounds (published.instant-death).
    """
    out = dict.fromkeys(("power_used", "fail", "perils", "psyker_slain"), Fraction(0))
    w = Fraction(1, 1296)
    for a, b, strength, wound_die in itertools.product(FACES, repeat=4):
        roll = a + b
        perils = roll in (2, 12)
        if roll <= ld or roll == 2:  # on a 2 the power is used even when Ld < 2
            out["power_used"] += w
        if roll > ld:
            out["fail"] += w
        if perils:
            out["perils"] += w
            needed = published_to_wound(strength, toughness)
            wounded = ruleset == "40k4" or (needed is not None and wound_die >= needed)
            outright = ruleset == "40k3" and strength >= 2 * toughness
            if wounded and (wounds <= 1 or outright):
                out["psyker_slain"] += w
    return out


@pytest.mark.rule("40k3.psyker.test", "40k3.psyker.perils", "40k3.psyker.perils-on-2", "core.zero.t",
                  "published.40k4-perils-of-the-warp", "published.instant-death")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("ld", VALUES)
def test_psychic_odds_brute_force(ld: int, ruleset: str) -> None:
    for toughness in VALUES:
        for wounds in (1, 2, 3):
            assert odds.psychic_odds(ld, toughness, wounds, ruleset) == psychic_brute(ld, toughness, wounds, ruleset), (
                ld,
                toughness,
                wounds,
            )


@pytest.mark.rule("40k3.psyker.perils", "core.zero.t")
@pytest.mark.parametrize("toughness", VALUES)
def test_psychic_slain_icepool(toughness: int) -> None:
    def slain(a: int, b: int, strength: int, wound_die: int) -> bool:
        needed = published_to_wound(strength, toughness)
        return a + b in (2, 12) and needed is not None and wound_die >= needed

    die = icepool.map(slain, d6, d6, d6, d6)
    assert odds.psychic_odds(8, toughness, 1)["psyker_slain"] == ice_fraction(die, True)


@pytest.mark.rule("40k3.psyker.perils-on-2")
def test_psychic_power_used_on_2_with_low_leadership() -> None:
    for ld in (0, 1):
        got = odds.psychic_odds(ld)
        assert got["power_used"] == Fraction(1, 36)
        assert got["fail"] == 1


def test_psychic_known_values() -> None:
    got = odds.psychic_odds(9, 4, 1)
    assert got == {"power_used": Fraction(5, 6), "fail": Fraction(1, 6), "perils": Fraction(1, 18),
                   "psyker_slain": Fraction(2, 81)}


def test_psychic_odds_bad_input() -> None:
    with pytest.raises(IllegalActionError, match=r"40k3\.psyker\.test"):
        odds.psychic_odds(8, ruleset="t9a")
    with pytest.raises(UnknownRulesetError, match="unknown ruleset"):
        odds.psychic_odds(8, ruleset="40k5")
    for kwargs in ({"leadership": 11}, {"leadership": 8, "toughness": 11}, {"leadership": 8, "wounds": 0},
                   {"leadership": 8, "wounds": 11}):
        with pytest.raises(OutOfRangeError):
            odds.psychic_odds(**kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# attack sequences
# --------------------------------------------------------------------------------------

ROLLS = [(3, 4, 4), (2, 6, None), (4, 2, 2), (6, 3, 5), (5, 5, 6), (4, 4, 3)]
REROLLS = list(itertools.product(Reroll, Reroll))


@pytest.mark.parametrize("hit, wound, save", ROLLS)
@pytest.mark.parametrize("reroll_hits, reroll_wounds", REROLLS)
def test_attack_closed_form_equals_rules_code(
    hit: int, wound: int, save: int | None, reroll_hits: Reroll, reroll_wounds: Reroll
) -> None:
    for n in range(0, 9):
        q = odds.AttackQuery(n, hit, wound, save, reroll_hits, reroll_wounds)
        closed = q.distribution()
        assert closed == q.enumerate(), n
        assert sum(closed.values()) == 1
        assert set(closed) <= set(range(n + 1))


def _ice_attacks(q: odds.AttackQuery) -> dict[int, Fraction]:
    """Build the same attack sequence from icepool dice, attack by attack."""
    def dice(target: int, reroll: Reroll) -> icepool.Die:
        if reroll is Reroll.FAILED:
            return ice_reroll(list(range(1, target)))
        if reroll is Reroll.ONES:
            return ice_reroll([1])
        return d6

    hit_die, wound_die = dice(q.hit, q.reroll_hits), dice(q.wound, q.reroll_wounds)
    save = q.save

    def unsaved(h: int, w: int, s: int) -> int:
        return int(h >= q.hit and w >= q.wound and (save is None or s < save))

    one = icepool.map(unsaved, hit_die, wound_die, d6)
    total = q.attacks @ one
    return {k: ice_fraction(total, k) for k in total.outcomes() if total.quantity(k)}


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("hit, wound, save", ROLLS)
@pytest.mark.parametrize("reroll_hits, reroll_wounds", REROLLS)
def test_attack_small_vs_icepool(
    n: int, hit: int, wound: int, save: int | None, reroll_hits: Reroll, reroll_wounds: Reroll
) -> None:
    q = odds.AttackQuery(n, hit, wound, save, reroll_hits, reroll_wounds)
    if n == 0:
        assert q.distribution() == Distribution.certain(0)
    else:
        assert dict(q.distribution()) == _ice_attacks(q)


@pytest.mark.parametrize("n", [10, 50, 100, 300])
@pytest.mark.parametrize(
    "hit, wound, save, reroll_hits, reroll_wounds",
    [
        (3, 4, 4, Reroll.FAILED, Reroll.ONES),
        (4, 3, 5, Reroll.ONES, Reroll.FAILED),
        (2, 6, None, Reroll.FAILED, Reroll.FAILED),
        (5, 2, 2, Reroll.NONE, Reroll.ONES),
    ],
)
def test_attack_large_vs_icepool(
    n: int, hit: int, wound: int, save: int | None, reroll_hits: Reroll, reroll_wounds: Reroll
) -> None:
    q = odds.AttackQuery(n, hit, wound, save, reroll_hits, reroll_wounds)
    dist = q.distribution()
    assert dict(dist) == _ice_attacks(q)
    assert dist.mean() == n * q.per_attack()


def test_attack_per_attack_by_hand() -> None:
    # hit 3+ re-rolling failures: 1 - (1/3)^2 = 8/9; wound 4+ re-rolling 1s: 1/2 + 1/6*1/2 = 7/12;
    # save 4+ fails half the time
    q = odds.AttackQuery(1, 3, 4, 4, Reroll.FAILED, Reroll.ONES)
    assert q.per_attack() == Fraction(8, 9) * Fraction(7, 12) * Fraction(1, 2)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"attacks": -1, "hit": 3, "wound": 4},
        {"attacks": odds.MAX_ATTACKS + 1, "hit": 3, "wound": 4},
        {"attacks": True, "hit": 3, "wound": 4},
        {"attacks": 1, "hit": 7, "wound": 4},
        {"attacks": 1, "hit": 1, "wound": 4},
        {"attacks": 1, "hit": 3, "wound": None},
        {"attacks": 1, "hit": 3, "wound": 4, "save": 1},
        {"attacks": 1, "hit": 3, "wound": 4, "save": 7},
    ],
)
def test_attack_query_rejects_bad_input(kwargs: dict[str, object]) -> None:
    with pytest.raises(HerohammerError):
        odds.AttackQuery(**kwargs)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# chart properties (hypothesis)
# --------------------------------------------------------------------------------------

value = st.integers(min_value=0, max_value=10)
NEVER = 7  # a roll needed of None ranks as "worse than 6+"


def rank(needed: int | None) -> int:
    return NEVER if needed is None else needed


@pytest.mark.rule("core.zero.s", "core.zero.t")
@given(s=value, t=value)
def test_to_wound_matches_published_chart(s: int, t: int) -> None:
    assert charts.to_wound(s, t) == published_to_wound(s, t)
    assert charts.to_wound(s, t) in (None, 2, 3, 4, 5, 6)


@given(s=value, t=value)
def test_to_wound_monotone_in_strength_antitone_in_toughness(s: int, t: int) -> None:
    if s < 10:
        assert rank(charts.to_wound(s + 1, t)) <= rank(charts.to_wound(s, t))
    if t < 10:
        assert rank(charts.to_wound(s, t + 1)) >= rank(charts.to_wound(s, t))


@pytest.mark.rule("core.zero.ws")
@given(a=value, d=value)
def test_to_hit_melee_properties(a: int, d: int) -> None:
    needed = charts.to_hit_melee(a, d)
    assert needed in {1, 3, 4, 5, 6}
    assert (needed == 1) == (d == 0)
    assert (needed == 6) == (a == 0 and d > 0)
    if a < 10:  # a better attacker never needs more
        assert charts.to_hit_melee(a + 1, d) <= needed
    if d < 10:  # a better defender is never easier to hit
        assert charts.to_hit_melee(a, d + 1) >= needed
    if a > 0 and d > 0:  # the published WS chart
        expected = 3 if a > d else (5 if d > 2 * a else 4)
        assert needed == expected


@pytest.mark.rule("core.zero.bs")
@given(bs=value)
def test_to_hit_shooting_properties(bs: int) -> None:
    needed = charts.to_hit_shooting(bs)
    assert (needed is None) == (bs == 0) == (not charts.can_shoot(bs))
    if needed is not None:
        assert needed == max(2, 7 - bs)
        assert 2 <= needed <= 6


saves = st.one_of(st.none(), st.integers(min_value=2, max_value=6))


@pytest.mark.rule("core.profile.dash")
@given(
    ws=value, bs=value, s=value, t=value, w=value, i=value, a=value, ld=value,
    save=saves, inv=saves, adv=st.one_of(st.none(), value), mar=st.one_of(st.none(), value),
)
def test_profile_format_parse_round_trip(
    ws: int, bs: int, s: int, t: int, w: int, i: int, a: int, ld: int,
    save: int | None, inv: int | None, adv: int | None, mar: int | None,
) -> None:
    p = Profile(ws, bs, s, t, w, i, a, ld, save, inv, adv, mar)
    text = p.format()
    assert Profile.parse(text) == p
    assert Profile.parse(text).format() == text


dash_or_value = st.one_of(st.sampled_from(["-", "*"]), value.map(str))


@pytest.mark.rule("core.profile.dash")
@given(marks=st.lists(dash_or_value, min_size=8, max_size=8))
def test_profile_parse_dashes_are_zero(marks: list[str]) -> None:
    names = ["WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    p = Profile.parse(" ".join(n + m for n, m in zip(names, marks)))
    expected = [0 if m in "-*" else int(m) for m in marks]
    assert [p.ws, p.bs, p.s, p.t, p.w, p.i, p.a, p.ld] == expected


@given(token=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=6))
def test_profile_parse_only_raises_out_of_range(token: str) -> None:
    try:
        Profile.parse("WS4 " + token)
    except OutOfRangeError:
        pass
