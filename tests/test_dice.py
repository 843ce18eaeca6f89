"""The dice object: seeded sampling, scripted faces, and exact enumeration.

Enumeration is checked against brute force over every face of every die
(``itertools.product``) with exact Fraction equality.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer.dice import (
    Dice,
    FaceStream,
    Highest,
    Pool,
    Request,
    Reroll,
    ScriptedDice,
    SeededDice,
    Split,
    Stage,
    Total,
    enumerate_outcomes,
    face_probabilities,
    success_probability,
)
from herohammer.distribution import Distribution
from herohammer.errors import EnumerationTooLarge, HerohammerError, OutOfRangeError

FACES = range(1, 7)


# --------------------------------------------------------------------------------------
# brute force helpers
# --------------------------------------------------------------------------------------


def die_outcomes(reroll_below: int) -> list[tuple[int, Fraction]]:
    """Every physical history of one die (first face, and the second if re-rolled) with its weight."""
    out = []
    for first in FACES:
        if first < reroll_below:
            out.extend((second, Fraction(1, 36)) for second in FACES)
        else:
            out.append((first, Fraction(1, 6)))
    return out


def brute(n: int, reroll_below: int, fn: Callable[[tuple[int, ...]], Hashable]) -> dict[Hashable, Fraction]:
    """Return the distribution of ``fn(faces)`` over every history of ``n`` dice."""
    acc: dict[Hashable, Fraction] = {}
    for combo in itertools.product(die_outcomes(reroll_below), repeat=n):
        faces = tuple(f for f, _ in combo)
        p = Fraction(1)
        for _, q in combo:
            p *= q
        key = fn(faces)
        acc[key] = acc.get(key, Fraction(0)) + p
    return {k: v for k, v in acc.items() if v}


def as_dict(dist: Distribution[Hashable]) -> dict[Hashable, Fraction]:
    return {k: dist[k] for k in dist}


# --------------------------------------------------------------------------------------
# SeededDice
# --------------------------------------------------------------------------------------


def _play(dice: Dice) -> list[int]:
    return [
        dice.d6("a", "r.a"),
        dice.total(2, "b", "r.b"),
        dice.pool(10, 4, "c", "r.c", Reroll.FAILED),
        dice.highest(3, "d", "r.d", reroll_below=2),
        dice.total(3, "e", "r.e", reroll_below=3),
    ]


def test_same_seed_same_rolls_and_logs() -> None:
    a, b = SeededDice(1234), SeededDice(1234)
    assert _play(a) == _play(b)
    assert a.log == b.log
    assert [r.faces for r in a.log] == [r.faces for r in b.log]


def test_different_seeds_differ() -> None:
    a, b = SeededDice(1), SeededDice(2)
    ra = [a.d6("x", "r") for _ in range(50)]
    rb = [b.d6("x", "r") for _ in range(50)]
    assert ra != rb


def test_seeded_dice_do_not_use_the_global_random() -> None:
    import random

    random.seed(0)
    a = [SeededDice(5).d6("x", "r") for _ in range(20)]
    random.seed(99)
    b = [SeededDice(5).d6("x", "r") for _ in range(20)]
    assert a == b


def _randint_faces(rng: random.Random, n: int, reroll_below: int) -> tuple[int, ...]:
    """The plain way to roll: one ``randint(1, 6)`` per die, and one more for a die re-rolled."""
    kept = []
    for _ in range(n):
        face = rng.randint(1, 6)
        if face < reroll_below:
            face = rng.randint(1, 6)
        kept.append(face)
    return tuple(kept)


class _RandintDice(Dice):
    """The oracle of ``SeededDice``: every request rolled die by die with ``randint`` from ``random.Random(seed)``."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        assert isinstance(request, (Total, Highest, Pool))
        faces = _randint_faces(self.rng, request.n, request.reroll_below)
        if isinstance(request, Pool):
            return sum(1 for f in faces if f >= request.target), faces, None
        return (sum(faces) if isinstance(request, Total) else max(faces)), faces, None


@settings(max_examples=60)
@given(st.integers(0, 2**40), st.lists(st.tuples(st.integers(0, 70), st.sampled_from([0, 1, 2, 4, 7])), max_size=30))
def test_face_stream_is_randints_stream(seed: int, takes: list[tuple[int, int]]) -> None:
    """The faces a ``FaceStream`` hands out, read ahead in blocks of words, are ``randint(1, 6)``'s from the same seed."""
    stream, plain = FaceStream(random.Random(seed)), random.Random(seed)
    for n, reroll_below in takes:
        assert tuple(stream.rolled(n, reroll_below)) == _randint_faces(plain, n, reroll_below)
    assert tuple(stream.take(200)) == _randint_faces(plain, 200, 0)  # and the stream goes on alike


def test_seeded_dice_copied_or_pickled_go_on_alike() -> None:
    """The faces a ``SeededDice`` read ahead travel with it: a copy or a pickle rolls on as the original does."""
    import copy
    import pickle

    dice = SeededDice(5)
    dice.pool(7, 4, "x", "r")
    twins = [pickle.loads(pickle.dumps(dice)), copy.deepcopy(dice)]
    rolled = [(d.total(3, "y", "r"), d.pool(40, 3, "z", "r")) for d in (dice, *twins)]
    assert rolled[0] == rolled[1] == rolled[2]
    assert dice.log == twins[0].log == twins[1].log


ROLLS = st.one_of(
    st.tuples(st.just("pool"), st.integers(-1, 40), st.integers(-1, 8), st.sampled_from(list(Reroll))),
    st.tuples(st.just("total"), st.integers(0, 12), st.sampled_from([0, 1, 2, 3, 7])),
    st.tuples(st.just("highest"), st.integers(1, 4), st.sampled_from([0, 2, 4])),
    st.tuples(st.just("pools"), st.integers(0, 40), st.sampled_from([None, 1, 2, 3, 4, 6, 7]),
              st.sampled_from([None, 2, 4, 5, 6]), st.sampled_from(list(Reroll)), st.booleans()),
    st.tuples(st.just("split"), st.integers(0, 20), st.sampled_from([None, 2, 4]), st.sampled_from([None, 3, 5, 7])),
)


def _roll(dice: Dice, what: tuple[Any, ...]) -> Any:
    kind, *args = what
    if kind == "pool":
        n, target, reroll = args
        return dice.pool(n, target, f"pool {n} {target}+", "r.pool", reroll) if n >= 0 else None
    if kind == "total":
        n, below = args
        return dice.total(n, f"total {n}", "r.total", below, splits=(7,))
    if kind == "highest":
        n, below = args
        return dice.highest(n, f"highest {n}", "r.highest", below)
    if kind == "pools":
        n, hit, wound, reroll, fails = args
        return dice.pools(n, Stage(hit, "hit", "r.hit", reroll), Stage(wound, "wound", "r.wound", fails=fails))
    n, hit, save = args
    split = Split((Stage(save, "save a", "r.save", fails=True), Stage(4, "save b", "r.save", fails=True)),
                  tuple((k - k // 2, k // 2) for k in range(n + 1)))
    return dice.pools(n, Stage(hit, "hit", "r.hit"), split=split)


@settings(max_examples=80)
@given(st.integers(0, 2**40), st.lists(ROLLS, max_size=25))
def test_seeded_dice_roll_as_randint_dice(seed: int, rolls: list[tuple[Any, ...]]) -> None:
    """``SeededDice`` (faces from a ``FaceStream``, pools and totals without requests) gives the values and the log
    that rolling every request die by die with ``randint`` gives: the same seed, the same game."""
    fast, plain = SeededDice(seed), _RandintDice(seed)
    for what in rolls:
        assert _roll(fast, what) == _roll(plain, what)
    assert fast.log == plain.log
    assert fast.d6("x", "r") == plain.d6("x", "r")


class _RequestDice(SeededDice):
    """Seeded dice that build every request and roll it through ``Dice.roll`` (the general way)."""


@pytest.mark.parametrize("reroll", list(Reroll))
def test_seeded_pools_and_totals_match_their_requests(reroll: Reroll) -> None:
    """``SeededDice`` rolls pools and totals without building requests: the same values, faces and log records."""
    for seed in range(30):
        fast, slow = SeededDice(seed), _RequestDice(seed)
        for n in (0, 1, 2, 5, 20, 31, 32, 40):
            for target in (-1, 0, 1, 2, 4, 6, 7, 9):
                assert fast.pool(n, target, f"pool {n} {target}+", "r.pool", reroll) == \
                    slow.pool(n, target, f"pool {n} {target}+", "r.pool", reroll)
            for below in (0, 2, 4):
                assert fast.total(n, f"total {n}", "r.total", below, splits=(7,), places=bool(below)) == \
                    slow.total(n, f"total {n}", "r.total", below, splits=(7,), places=bool(below))
        assert fast.log == slow.log and len(fast.log) > 40
        assert fast.d6("x", "r") == slow.d6("x", "r")  # both generators left at the same point
    for bad in (lambda d: d.pool(-1, 4, "x", "r"), lambda d: d.total(-1, "x", "r")):
        with pytest.raises(OutOfRangeError):
            bad(SeededDice(1))


def test_every_face_appears_with_fair_frequency() -> None:
    dice = SeededDice(20240601)
    n = 60_000
    dice.total(n, "fairness", "test.fair")
    (record,) = dice.log
    assert record.faces is not None and len(record.faces) == n
    counts = Counter(record.faces)
    assert set(counts) == set(FACES)
    # expected 10,000 each, sd ~ 91: +-600 is more than 6 sd
    for face in FACES:
        assert abs(counts[face] - n / 6) < 600, counts
    assert record.value == sum(record.faces)


def test_every_face_appears_in_single_rolls() -> None:
    dice = SeededDice(7)
    seen = {dice.d6("x", "r") for _ in range(200)}
    assert seen == set(FACES)


def test_seeded_rerolls_are_fair() -> None:
    # a pool re-rolling failures at 4+ succeeds with 3/4 per die
    dice = SeededDice(11)
    n = 40_000
    hits = dice.pool(n, 4, "x", "r", Reroll.FAILED)
    assert abs(hits - n * 3 / 4) < 600
    (record,) = dice.log
    assert record.faces is not None and len(record.faces) == n  # the kept face of each die
    assert hits == sum(1 for f in record.faces if f >= 4)


def test_each_roll_is_logged_with_purpose_and_rule() -> None:
    dice = SeededDice(3)
    _play(dice)
    assert [(r.purpose, r.rule) for r in dice.log] == [
        ("a", "r.a"),
        ("b", "r.b"),
        ("c", "r.c"),
        ("d", "r.d"),
        ("e", "r.e"),
    ]
    assert [r.request for r in dice.log] == [
        "1D6",
        "2D6",
        "10D6 4+ re-rolling <4",
        "highest of 3D6 re-rolling 1s",
        "3D6 re-rolling <3",
    ]
    for record in dice.log:
        assert record.probability is None
        assert record.faces is not None
        assert record.purpose in record.describe() and record.rule in record.describe()


def test_pool_without_dice_is_not_logged() -> None:
    dice = SeededDice(0)
    assert dice.pool(0, 4, "x", "r") == 0
    assert dice.pool(5, 1, "x", "r") == 5  # automatic
    assert dice.pool(5, 7, "x", "r") == 0  # impossible
    assert dice.log == ()
    with pytest.raises(OutOfRangeError):
        dice.pool(-1, 4, "x", "r")


# --------------------------------------------------------------------------------------
# ScriptedDice
# --------------------------------------------------------------------------------------


def test_scripted_consumes_in_order() -> None:
    dice = ScriptedDice([3, 4, 6, 1, 2, 5])
    assert dice.d6("a", "r") == 3
    assert dice.total(2, "b", "r") == 10
    assert dice.highest(2, "c", "r") == 2
    assert dice.pool(1, 5, "d", "r") == 1
    assert dice.remaining == 0
    assert [r.faces for r in dice.log] == [(3,), (4, 6), (1, 2), (5,)]


def test_scripted_rerolls_of_failures() -> None:
    # 3 dice at 4+ re-rolling failures: 2 -> 5 (hit), 6 (hit), 3 -> 1 (miss)
    dice = ScriptedDice([2, 5, 6, 3, 1, 6])
    assert dice.pool(3, 4, "to hit", "r", Reroll.FAILED) == 2
    assert dice.log[0].faces == (2, 5, 6, 3, 1)
    assert dice.remaining == 1


def test_scripted_rerolls_of_ones() -> None:
    # 3 dice at 4+ re-rolling 1s: 1 -> 4 (hit), 3 (miss, not re-rolled), 1 -> 1 (miss)
    dice = ScriptedDice([1, 4, 3, 1, 1])
    assert dice.pool(3, 4, "to wound", "r", Reroll.ONES) == 1
    assert dice.remaining == 0
    # a total re-rolling below 3
    dice = ScriptedDice([2, 6, 3])
    assert dice.total(2, "x", "r", reroll_below=3) == 9
    dice = ScriptedDice([1, 1, 6])
    assert dice.highest(2, "x", "r", reroll_below=2) == 6


def test_scripted_runs_out_clearly() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(HerohammerError, match=r"ran out at roll #1 \(Leadership, 2D6\)"):
        dice.total(2, "Leadership", "r")
    # running out during a re-roll
    dice = ScriptedDice([6, 2])
    dice.d6("first", "r")
    with pytest.raises(HerohammerError, match=r"ran out at roll #2 \(to hit, 1D6 4\+"):
        dice.pool(1, 4, "to hit", "r", Reroll.FAILED)


def test_scripted_rejects_bad_faces() -> None:
    for bad in (0, 7, -1):
        with pytest.raises(OutOfRangeError):
            ScriptedDice([1, bad])


# --------------------------------------------------------------------------------------
# per-die probabilities
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("reroll_below", range(0, 8))
def test_face_probabilities_match_brute_force(reroll_below: int) -> None:
    faces = face_probabilities(reroll_below)
    expected = brute(1, reroll_below, lambda f: f[0])
    assert {i + 1: p for i, p in enumerate(faces) if p} == expected
    assert sum(faces) == 1


@pytest.mark.parametrize("target", range(0, 9))
@pytest.mark.parametrize("reroll", list(Reroll))
def test_success_probability(target: int, reroll: Reroll) -> None:
    rb = reroll.below(target)
    expected = brute(1, rb, lambda f: f[0] >= target).get(True, Fraction(0))
    assert success_probability(target, rb) == expected


def test_reroll_below() -> None:
    assert Reroll.NONE.below(4) == 0
    assert Reroll.FAILED.below(4) == 4
    assert Reroll.ONES.below(4) == 2


# --------------------------------------------------------------------------------------
# enumerate_outcomes vs brute force
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 4))
@pytest.mark.parametrize("reroll_below", [0, 2, 4])
def test_total_enumeration(n: int, reroll_below: int) -> None:
    dist = enumerate_outcomes(lambda d: d.total(n, "x", "r", reroll_below))
    assert sum(dist.values()) == 1
    assert as_dict(dist) == brute(n, reroll_below, sum)


@pytest.mark.parametrize("n", range(1, 4))
@pytest.mark.parametrize("reroll_below", [0, 2, 5])
def test_highest_enumeration(n: int, reroll_below: int) -> None:
    dist = enumerate_outcomes(lambda d: d.highest(n, "x", "r", reroll_below))
    assert sum(dist.values()) == 1
    assert as_dict(dist) == brute(n, reroll_below, max)


@pytest.mark.parametrize("n", range(0, 4))
@pytest.mark.parametrize("target", range(1, 8))
@pytest.mark.parametrize("reroll", list(Reroll))
def test_pool_enumeration(n: int, target: int, reroll: Reroll) -> None:
    dist = enumerate_outcomes(lambda d: d.pool(n, target, "x", "r", reroll))
    assert sum(dist.values()) == 1
    expected = brute(n, reroll.below(target), lambda faces: sum(f >= target for f in faces))
    assert as_dict(dist) == expected


def test_chained_rolls_enumeration() -> None:
    """A later roll that depends on an earlier one: roll a D6, then pool half that (rounded up) at 4+ re-rolling 1s."""

    def rules(d: Dice) -> tuple[int, int]:
        k = d.d6("how many", "r")
        return k, d.pool((k + 1) // 2, 4, "hits", "r", Reroll.ONES)

    dist = enumerate_outcomes(rules)
    expected: dict[Hashable, Fraction] = {}
    for k in FACES:
        for hits, p in brute((k + 1) // 2, 2, lambda faces: sum(f >= 4 for f in faces)).items():
            expected[(k, hits)] = expected.get((k, hits), Fraction(0)) + p / 6
    assert as_dict(dist) == expected
    assert sum(dist.values()) == 1


def test_enumeration_of_independent_rolls_matches_product() -> None:
    def rules(d: Dice) -> tuple[int, int, int]:
        return d.total(2, "a", "r"), d.highest(2, "b", "r"), d.pool(2, 5, "c", "r", Reroll.FAILED)

    dist = enumerate_outcomes(rules)
    tot = brute(2, 0, sum)
    hi = brute(2, 0, max)
    po = brute(2, 5, lambda f: sum(x >= 5 for x in f))
    expected = {(a, b, c): pa * pb * pc for (a, pa), (b, pb), (c, pc) in itertools.product(tot.items(), hi.items(), po.items())}
    assert as_dict(dist) == expected


def test_enumeration_logs_probabilities() -> None:
    logs: list[list[Fraction | None]] = []

    def rules(d: Dice) -> int:
        v = d.total(2, "Ld", "core.test.leadership")
        logs.append([r.probability for r in d.log])
        return v

    enumerate_outcomes(rules)
    assert len(logs) == 11  # one run per total 2..12
    assert sorted(p for (p,) in logs if p is not None) == sorted(brute(2, 0, sum).values())


def test_enumeration_too_large() -> None:
    def rules(d: Dice) -> tuple[int, int, int]:
        return d.d6("a", "r"), d.d6("b", "r"), d.d6("c", "r")

    assert len(enumerate_outcomes(rules, max_runs=216)) == 216
    with pytest.raises(EnumerationTooLarge) as info:
        enumerate_outcomes(rules, max_runs=215)
    assert info.value.limit == 215
    assert not isinstance(info.value, HerohammerError)  # not a user error: callers fall back


def test_enumeration_of_no_dice() -> None:
    assert enumerate_outcomes(lambda d: "nothing") == Distribution.certain("nothing")


# --------------------------------------------------------------------------------------
# Distribution
# --------------------------------------------------------------------------------------


def test_distribution_must_sum_to_one() -> None:
    with pytest.raises(ValueError, match="sum to 1/2"):
        Distribution({1: Fraction(1, 2)})
    with pytest.raises(ValueError, match="sum to 3/2"):
        Distribution({1: Fraction(1, 2), 2: 1})
    with pytest.raises(ValueError, match="negative"):
        Distribution({1: Fraction(-1, 2), 2: Fraction(3, 2)})


def test_distribution_basics() -> None:
    d = Distribution([(1, Fraction(1, 3)), (2, Fraction(1, 3)), (1, Fraction(1, 3)), (3, 0)])
    assert d[1] == Fraction(2, 3) and d[2] == Fraction(1, 3) and d[3] == 0
    assert 3 not in d and len(d) == 2
    assert d.probability(lambda x: x > 1) == Fraction(1, 3)
    assert d.mean() == Fraction(4, 3)
    assert d.map(lambda x: x % 2) == Distribution({1: Fraction(2, 3), 0: Fraction(1, 3)})
    assert d == Distribution({2: Fraction(1, 3), 1: Fraction(2, 3)})
    assert hash(d) == hash(Distribution({2: Fraction(1, 3), 1: Fraction(2, 3)}))
    assert Distribution.certain("x")["x"] == 1
    assert all(isinstance(p, Fraction) for p in d.values())


def _enumerated(call: Callable[[Dice], int]) -> int:
    enumerate_outcomes(call)
    return 0


@pytest.mark.parametrize("kind", ["seeded", "scripted", "enumerated"])
@pytest.mark.parametrize(
    "call",
    [lambda d: d.highest(0, "x", "r"), lambda d: d.total(-1, "x", "r"), lambda d: d.highest(-1, "x", "r")],
    ids=["highest-0", "total-minus-1", "highest-minus-1"],
)
def test_bad_dice_counts_are_refused_alike(kind: str, call: Callable[[Dice], int]) -> None:
    with pytest.raises(OutOfRangeError):
        if kind == "seeded":
            call(SeededDice(1))
        elif kind == "scripted":
            call(ScriptedDice([1, 2, 3]))
        else:
            _enumerated(call)
