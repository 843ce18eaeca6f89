"""Every roll in the game goes through one Dice object.

Rules code asks for a roll (``dice.total(2, ...)``, ``dice.pool(n, 4, ...)``) and
never knows whether the answer is sampled from a seeded generator, read from a
script of physical rolls, or one branch of an exact enumeration.  That is what lets
one implementation of a rule give both play and exact odds: ``enumerate_outcomes``
re-runs the rules code once per branch of the chance tree (the OpenSpiel idea of
explicit chance nodes), multiplying exact Fractions along the way.

Pooled rolls ("N dice, count those >= k") are one request with a closed-form
distribution, so an enumeration branches N+1 ways instead of 6**N.  Two more cuts keep
the tree as small as the number of *distinct results the rules code can tell apart*
(design.md, "Exact odds that scale"):

* a total or highest die the rules code only compares (``splits``: a Leadership test
  asks only "at most Ld?") branches once per class of values, handing the code one
  representative value of each class with the class's exact probability;
* a chain of pools (``pools``: hit, then wound with the hits) is one chance node over
  the last count - the wounds are Binomial(n, p_hit * p_wound) - with a representative
  count for the stages before it.

Play still rolls every physical die (the log keeps every real roll); only an
enumeration's log shows representative values.  ``enumerate_outcomes(..., fine=True)``
turns both cuts off: the brute-force oracle the fast enumeration is tested against.
"""

from __future__ import annotations

import copy
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import Any, NamedTuple, TypeVar

from . import guards
from .collector import with_fewer_collections
from .distribution import Distribution
from .errors import DiceRanOut, EnumerationTooLarge, HerohammerError, OutOfRangeError
from .values import record

T = TypeVar("T", bound=Hashable)
C = TypeVar("C")

SIDES = 6
#: Default cap on rules-code runs in one exact enumeration; above it callers fall back to Monte Carlo.
DEFAULT_MAX_RUNS = 200_000
#: The first path's size estimate over-counts shallow branches: give up at once only this far over budget.
OVERSIZE = 16
#: Random paths followed to estimate a chance tree's size before enumerating it (``estimate_runs``).
ESTIMATE_PATHS = 16
#: How far over budget an estimate without loops must be to go to Monte Carlo at once (with loops: ``LOOP_MARGIN``).
ESTIMATE_MARGIN = 2
#: A first estimate without loops above budget / ``CLOSER_ZONE`` (and not far over it) is taken again from
#: ``CLOSER_PATHS`` paths, whose excess over the budget is trusted at once.  Why: in a skewed tree (a 9th Age cast
#: whose casting roll branches into Fizzles, Miscasts, Panic and flees, session 32) a few uniform paths mostly miss the
#: deep subtrees: 16 paths read 24,000-150,000 runs of a tree past 200,000, whose enumeration then spent its whole
#: budget (2 minutes) before Monte Carlo; 256 paths cost about 0.1% of the budget and read it over.
CLOSER_ZONE = 4
CLOSER_PATHS = 256
#: An estimate with loops counts each step's distinct results but not the carries that merge across them: it errs
#: large (40k fights measured: 0.8-1.9 times their real runs in the examples, 1.5 and 4.5 times in the benchmark's
#: 10-a-side fights; 2.3 times in the Chaplain example's fight once two weapons gave +1 Attack, session 26), so only a
#: larger excess is trusted.
LOOP_MARGIN = 8
#: The most rules-code runs an estimate spends walking one step of a loop exactly (``_SampledDice.loop``); a step
#: larger than this is followed down one random path instead, counted unmerged.
LOOP_STEP_RUNS = 2_000


class Reroll(StrEnum):
    """Say which dice of a roll are rolled again, once."""

    NONE = "none"
    FAILED = "failed"
    ONES = "1s"

    def below(self, target: int) -> int:
        """Return the face under which a die is re-rolled for this policy and target."""
        if self is Reroll.FAILED:
            return target
        if self is Reroll.ONES:
            return 2
        return 0


@lru_cache(maxsize=None)
def face_probabilities(reroll_below: int = 0, sides: int = SIDES) -> tuple[Fraction, ...]:
    """Return P(face) for faces 1..sides of one die re-rolled once when it shows < reroll_below."""
    below = max(0, min(reroll_below, sides + 1) - 1)  # how many faces trigger a re-roll
    base = Fraction(1, sides)
    return tuple(
        (base if face > below else Fraction(0)) + Fraction(below, sides) * base
        for face in range(1, sides + 1)
    )


@lru_cache(maxsize=None)
def success_probability(target: int, reroll_below: int = 0) -> Fraction:
    """Return the chance that one die, re-rolled by the policy, shows ``target`` or more."""
    faces = face_probabilities(reroll_below)
    return sum(faces[max(target, 1) - 1 :], Fraction(0))


def binomial_weights(n: int, p: Fraction) -> tuple[list[int], int]:
    """Return integer weights w[k] and one denominator with P(k successes of n) = w[k] / den.

    Staying in integers over a common denominator (and reducing only at the end) is
    what keeps 300-dice pools fast.
    """
    a, d = p.numerator, p.denominator
    b = d - a
    weights = [0] * (n + 1)
    a_pow = [1] * (n + 1)
    for k in range(1, n + 1):
        a_pow[k] = a_pow[k - 1] * a
    b_pow = 1
    c = 1  # comb(n, k), updated from k = n downwards
    for k in range(n, -1, -1):
        weights[k] = c * a_pow[k] * b_pow
        b_pow *= b
        c = c * k // (n - k + 1) if k else c
    return weights, d**n


def binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    """Return the exact Binomial(n, p) distribution as (count, probability) pairs."""
    if n == 0 or p == 0:
        return ((0, Fraction(1)),)
    if p == 1:
        return ((n, Fraction(1)),)
    weights, den = binomial_weights(n, p)
    return tuple((k, Fraction(w, den)) for k, w in enumerate(weights) if w)


@dataclass(frozen=True)
class Request(ABC):
    """Describe one roll: what it is for, the rule behind it, and how its value is made."""

    purpose: str
    rule: str

    @abstractmethod
    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Return every value this roll can give with its exact probability (a chance node)."""

    def fine_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Return every value without merging classes (the brute-force oracle's chance node)."""
        return self.outcomes()

    @abstractmethod
    def sample(self, faces: FaceStream) -> tuple[int, tuple[int, ...]]:
        """Roll physical dice from ``faces``: return the value and the faces that made it."""

    @abstractmethod
    def from_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        """Read the value from scripted faces; return (value, faces consumed)."""

    def from_logged_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        """Read the value from the faces a log holds for this roll (``RollRecord.faces``); return (value, faces read).

        A seeded roll logs a re-rolled die's kept face only, a judge's dice every face read: a roll that re-rolls,
        logged with as many faces as dice, is read as kept faces (a game's record played back, ``records``).
        """
        return self.from_faces(faces)

    @abstractmethod
    def describe(self) -> str:
        """Say the roll in the players' notation, e.g. ``2D6`` or ``10D6 4+``."""


def _reroll_note(reroll_below: int) -> str:
    if reroll_below <= 1:
        return ""
    return " re-rolling 1s" if reroll_below == 2 else f" re-rolling <{reroll_below}"


#: A 32-bit word's top byte -> the face ``randint(1, 6)`` reads from that word (its top 3 bits, plus 1).
_FACE_OF_TOP_BYTE = bytes((b >> 5) + 1 for b in range(256))
#: Top bytes whose 3 top bits are 6 or 7: ``randint`` rejects the word and draws another.
_REJECTED_TOP_BYTES = bytes(range(6 << 5, 256))
#: The fewest words a ``FaceStream`` draws at a time: one call of the generator gives the faces of many rolls
#: (a volley's 30 or so), where a word drawn per die costs several times as much.  256 (about 190 faces, a 10-a-side
#: fight's two rounds): the same-game fight's apply+undo pair read 887 k instructions with 48, 878 k with 256.
READ_AHEAD = 256


class FaceStream:
    """The faces ``randint(1, 6)`` gives from a generator, in the same order, drawn in blocks of its words.

    ``randint(1, 6)`` takes ``getrandbits(3)``, the top 3 bits of the next 32-bit word, and
    draws again when they are 6 or 7.  ``getrandbits(32 * k)`` returns the next k words
    (the first in the lowest bits), so the faces are the top bytes of those words with the
    rejected ones dropped.  The stream draws at least ``READ_AHEAD`` words at a time and
    keeps the faces not asked for yet: the faces handed out are the generator's own
    sequence (``tests/test_dice.py`` holds them to ``randint``), while the generator itself
    runs ahead of them, so nothing else may draw from it.
    """

    __slots__ = ("_rng", "_ahead", "_at")

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._ahead = b""  # faces drawn and not handed out yet, from _at on
        self._at = 0

    def take(self, n: int) -> bytes:
        """Return the next ``n`` faces (as bytes, one face a byte)."""
        at = self._at
        end = at + n
        if end <= len(self._ahead):
            self._at = end
            return self._ahead[at:end]
        ahead = self._ahead[at:]
        while len(ahead) < n:
            words = max(n - len(ahead), READ_AHEAD)
            top_bytes = self._rng.getrandbits(32 * words).to_bytes(4 * words, "little")[3::4]
            ahead += top_bytes.translate(_FACE_OF_TOP_BYTE, _REJECTED_TOP_BYTES)
        self._ahead, self._at = ahead, n
        return ahead[:n]

    def rolled(self, n: int, reroll_below: int) -> bytes:
        """Return the kept faces of ``n`` D6, each rolled again once (the next face) when it shows under ``reroll_below``."""
        if reroll_below <= 1:
            return self.take(n)
        kept = bytearray()
        ahead = b""  # faces taken and not used yet
        at = 0
        for die in range(n):
            for attempt in range(2):  # the first face, and the re-roll if it is below reroll_below
                if at == len(ahead):
                    ahead, at = self.take(n - die), 0  # every die left wants a face at least: none is taken too many
                face = ahead[at]
                at += 1
                if face >= reroll_below:
                    break
            kept.append(face)
        return bytes(kept)


#: A target (0 to 7) -> the faces that miss it (deleted from a roll's faces, what is left are the successes).
_MISSING = tuple(bytes(range(1, min(target, SIDES + 1))) for target in range(SIDES + 2))


def _scripted_die(faces: Sequence[int], at: int, reroll_below: int) -> tuple[int, int]:
    face = faces[at]
    if face < reroll_below:
        return faces[at + 1], 2
    return face, 1


@lru_cache(maxsize=4096)
def _total_outcomes(n: int, reroll_below: int) -> tuple[tuple[int, Fraction], ...]:
    faces = face_probabilities(reroll_below)
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face, q in enumerate(faces, start=1):
                if q:
                    nxt[total + face] = nxt.get(total + face, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


@lru_cache(maxsize=4096)
def _highest_outcomes(n: int, reroll_below: int) -> tuple[tuple[int, Fraction], ...]:
    faces = face_probabilities(reroll_below)
    cdf = [sum(faces[:k], Fraction(0)) for k in range(SIDES + 1)]
    out = tuple((k, cdf[k] ** n - cdf[k - 1] ** n) for k in range(1, SIDES + 1))
    return tuple((k, p) for k, p in out if p)


@lru_cache(maxsize=4096)
def _pool_outcomes(n: int, target: int, reroll_below: int) -> tuple[tuple[int, Fraction], ...]:
    return binomial(n, success_probability(target, reroll_below))


@lru_cache(maxsize=4096)
def _classed(outcomes: tuple[tuple[int, Fraction], ...], splits: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """Merge values the rules code cannot tell apart: classes cut after each split value.

    Each class is represented by its most likely value (the lowest on a tie), so a
    representative roll in a log line is a typical one.
    """
    classes: dict[int, list[tuple[int, Fraction]]] = {}
    for value, p in outcomes:
        classes.setdefault(sum(1 for cut in splits if value > cut), []).append((value, p))
    merged = []
    for members in classes.values():
        representative = max(members, key=lambda vp: (vp[1], -vp[0]))[0]
        merged.append((representative, sum((p for _, p in members), Fraction(0))))
    return tuple(sorted(merged))


@lru_cache(maxsize=4096)
def _classed_totals(n: int, reroll_below: int, splits: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """Return the classes of a total (``_classed``), looked up by the request's numbers, not by hashing its Fractions."""
    return _classed(_total_outcomes(n, reroll_below), splits)


@lru_cache(maxsize=256)
def _most_likely(n: int, reroll_below: int) -> tuple[tuple[int, Fraction], ...]:
    """Return the most likely total of ``n`` D6 (the lowest on a tie) as a certain branch."""
    return ((max(_total_outcomes(n, reroll_below), key=lambda vp: (vp[1], -vp[0]))[0], Fraction(1)),)


def _check_count(request: Request, n: int, least: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < least:
        raise OutOfRangeError(f"number of dice for {request.purpose}", n, f"a whole number, at least {least}")


@dataclass(frozen=True)
class Total(Request):
    """Sum of ``n`` D6 (a 2D6 Leadership test, a D6 Strength, a 3D6 run ...)."""

    n: int = 1
    reroll_below: int = 0
    #: The values the rules code compares the total with (``total <= s``); () = every total counts.
    splits: tuple[int, ...] = ()
    #: The total only decides where models end (a fall-back distance): nothing else depends on it.
    places: bool = False

    def __post_init__(self) -> None:
        _check_count(self, self.n, 0)

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        if self.splits:
            return _classed_totals(self.n, self.reroll_below, self.splits)
        return _total_outcomes(self.n, self.reroll_below)

    def fine_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return _total_outcomes(self.n, self.reroll_below)

    def placeless_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Return one branch, the most likely total, when only where models end would differ."""
        return _most_likely(self.n, self.reroll_below) if self.places else self.outcomes()

    def sample(self, faces: FaceStream) -> tuple[int, tuple[int, ...]]:
        rolled = faces.rolled(self.n, self.reroll_below)
        return sum(rolled), tuple(rolled)

    def from_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        total, used = 0, 0
        for _ in range(self.n):
            face, k = _scripted_die(faces, used, self.reroll_below)
            total += face
            used += k
        return total, used

    def from_logged_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        return _from_logged(self, faces)

    def describe(self) -> str:
        return _total_notation(self.n, self.reroll_below)


@dataclass(frozen=True)
class Highest(Request):
    """Highest of ``n`` D6 (difficult terrain: roll several dice, move the highest)."""

    n: int = 1
    reroll_below: int = 0

    def __post_init__(self) -> None:
        _check_count(self, self.n, 1)

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return _highest_outcomes(self.n, self.reroll_below)

    def sample(self, faces: FaceStream) -> tuple[int, tuple[int, ...]]:
        rolled = faces.rolled(self.n, self.reroll_below)
        return max(rolled), tuple(rolled)

    def from_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        best, used = 0, 0
        for _ in range(self.n):
            face, k = _scripted_die(faces, used, self.reroll_below)
            best = max(best, face)
            used += k
        return best, used

    def from_logged_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        return _from_logged(self, faces)

    def describe(self) -> str:
        return f"highest of {self.n}D6{_reroll_note(self.reroll_below)}"


@dataclass(frozen=True)
class Pool(Request):
    """``n`` D6, counting those showing ``target`` or more (to hit, to wound, saves)."""

    n: int = 1
    target: int = 4
    reroll_below: int = 0

    def __post_init__(self) -> None:
        _check_count(self, self.n, 0)

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return _pool_outcomes(self.n, self.target, self.reroll_below)

    def sample(self, faces: FaceStream) -> tuple[int, tuple[int, ...]]:
        rolled = faces.rolled(self.n, self.reroll_below)
        return _successes(rolled, self.target), tuple(rolled)

    def from_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        hits, used = 0, 0
        for _ in range(self.n):
            face, k = _scripted_die(faces, used, self.reroll_below)
            hits += face >= self.target
            used += k
        return hits, used

    def from_logged_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        return _from_logged(self, faces)

    def describe(self) -> str:
        return _pool_notation(self.n, self.target, self.reroll_below)


def _from_logged(request: Total | Highest | Pool, faces: Sequence[int]) -> tuple[int, int]:
    """Read a re-rolling roll's logged faces: as many as its dice are the kept faces, read without the re-roll."""
    if request.reroll_below > 1 and len(faces) == request.n:
        return replace(request, reroll_below=0).from_faces(faces)
    return request.from_faces(faces)


def _successes(faces: bytes, target: int) -> int:
    """Count the faces showing ``target`` or more: what is left once the misses are deleted, in C."""
    return len(faces.translate(None, _MISSING[min(max(target, 0), SIDES + 1)]))


@lru_cache(maxsize=1024)  # said once per size of roll, not formatted per roll
def _pool_notation(n: int, target: int, reroll_below: int) -> str:
    return f"{n}D6 {target}+{_reroll_note(reroll_below)}"


@lru_cache(maxsize=1024)
def _total_notation(n: int, reroll_below: int) -> str:
    return f"{n}D6{_reroll_note(reroll_below)}"


@record  # a NamedTuple made for each chain rolled: cheaper to build than a frozen dataclass, compared like one
class Stage(NamedTuple):
    """One stage of a chain of pools: the dice that succeeded at the stage before roll at this target.

    ``target`` None means the stage cannot succeed (nothing is rolled, 0 successes).
    ``fails`` counts the dice that fail instead (unsaved wounds: the saves are rolled,
    the wounds that get through go on).
    """

    target: int | None
    purpose: str
    rule: str
    reroll: Reroll = Reroll.NONE
    fails: bool = False

    def key(self) -> tuple[int, int, bool]:
        """Return (target, re-roll below, counts failures) with an impossible stage as target 7."""
        if self.target is None:
            return SIDES + 1, 0, self.fails
        return self.target, self.reroll.below(self.target), self.fails


ChainValue = tuple[int, ...]
StageKey = tuple[int, int, bool]


@record
class Split(NamedTuple):
    """Share the dice that come through a chain among groups, each rolling its own last stage.

    Saves per group of models: ``shares[k]`` says how many of ``k`` wounds each group takes
    (one entry per group, in ``stages`` order), and each group rolls its entry of ``stages``.
    """

    stages: tuple[Stage, ...]
    shares: tuple[tuple[int, ...], ...]

    def key(self) -> tuple[tuple[StageKey, ...], tuple[tuple[int, ...], ...]]:
        """Return what decides the chance node: each group's stage and the shares."""
        return tuple(s.key() for s in self.stages), self.shares


@lru_cache(maxsize=4096)
def _chain_weights(n: int, stages: tuple[tuple[int, int, bool], ...]) -> tuple[tuple[tuple[ChainValue, int], ...], int]:
    """Return the joint distribution of every stage's count as integer weights over one denominator.

    Targets <= 1 and >= 7 roll nothing.  A stage rolling ``k`` of the ``n`` dice has its
    binomial weights (over ``d**k``) scaled by ``d**(n - k)``, so every entry shares the
    denominator: sums and comparisons stay in integers, as in ``binomial_weights``.
    """
    dist: dict[ChainValue, int] = {(): 1}
    den = 1
    for target, below, fails in stages:
        rolls = 1 < target <= SIDES
        p = success_probability(target, below) if rolls else Fraction(1)
        d = p.denominator
        nxt: dict[ChainValue, int] = {}
        for counts, w in dist.items():
            dice_n = counts[-1] if counts else n
            if not rolls or dice_n == 0:
                branches = [(0 if target >= SIDES + 1 or dice_n == 0 else dice_n, d**n)]
            else:
                scale = d ** (n - dice_n)
                branches = [(k, wk * scale) for k, wk in enumerate(binomial_weights(dice_n, p)[0]) if wk]
            for k, wk in branches:
                key = (*counts, dice_n - k if fails else k)
                nxt[key] = nxt.get(key, 0) + w * wk
        dist = nxt
        den *= d**n
    return tuple(sorted(dist.items())), den


def _represent(groups: dict[Any, list[tuple[ChainValue, int]]], den: int) -> tuple[tuple[ChainValue, Fraction], ...]:
    """Return one branch per group: its most likely counts (the lowest on a tie) and the group's probability."""
    return tuple((max(members, key=lambda cw: (cw[1], tuple(-c for c in cw[0])))[0],
                  Fraction(sum(w for _, w in members), den)) for _, members in sorted(groups.items()))


@lru_cache(maxsize=4096)
def _chain_last(n: int, stages: tuple[tuple[int, int, bool], ...]) -> tuple[tuple[ChainValue, Fraction], ...]:
    """Group the joint distribution by the last stage's count; the most likely earlier counts represent it.

    A last stage counting failures (unsaved wounds) also keeps apart whether it rolled any
    dice at all: no wounds means no saves to report, while wounds all saved are reported.
    """
    groups: dict[tuple[int, bool], list[tuple[ChainValue, int]]] = {}
    fails = bool(stages) and stages[-1][2]
    weights, den = _chain_weights(n, stages)
    for counts, w in weights:
        rolled = (counts[-2] if len(counts) > 1 else n) > 0 if fails else True
        groups.setdefault((counts[-1], rolled), []).append((counts, w))
    return _represent(groups, den)


@lru_cache(maxsize=4096)
def _chain_split(n: int, stages: tuple[StageKey, ...],
                 split: tuple[tuple[StageKey, ...], tuple[tuple[int, ...], ...]]
                 ) -> tuple[tuple[ChainValue, Fraction], ...]:
    """Group the joint distribution by every group's count (and which groups rolled at all).

    The counts of the chain before the split are represented by the most likely ones:
    the caller reads the groups' counts, and whether each group rolled (a group without
    wounds reports no saves).  Each group's weights are brought to one denominator (as
    many dice as the chain's ``n``) so that everything stays in integers.
    """
    group_stages, shares = split
    weights, den = _chain_weights(n, stages)
    group_dens = [_chain_weights(n, (stage,))[1] for stage in group_stages]
    for d in group_dens:
        den *= d
    groups: dict[tuple[ChainValue, tuple[bool, ...]], list[tuple[ChainValue, int]]] = {}
    for counts, w in weights:
        share = shares[counts[-1] if counts else n]
        tails: dict[ChainValue, int] = {(): w}
        for stage, k, group_den in zip(group_stages, share, group_dens):
            one, one_den = _chain_weights(k, (stage,))
            scale = group_den // one_den
            tails = {(*t, c[0]): q * r * scale for t, q in tails.items() for c, r in one}
        rolled = tuple(k > 0 for k in share)
        for tail, q in tails.items():
            groups.setdefault((tail, rolled), []).append(((*counts, *tail), q))
    return _represent(groups, den)


@record  # a game logs many: a NamedTuple is the cheapest value to build, compared like a frozen dataclass
class RollRecord(NamedTuple):
    """Remember one roll for the event log: what it was for, the rule, and what came up."""

    purpose: str
    rule: str
    request: str
    value: int
    faces: tuple[int, ...] | None = None
    probability: Fraction | None = None

    def describe(self) -> str:
        """Say the roll in one line for a log."""
        shown = f" [{' '.join(map(str, self.faces))}]" if self.faces else ""
        return f"{self.purpose}: {self.request} -> {self.value}{shown} ({self.rule})"


#: The most random paths an estimate may follow before an enumeration: each is one run of the rules
#: code, and a few dozen already tell a tree far over budget from one within it.
MAX_ESTIMATE_PATHS = 10_000

#: Builds a RollRecord from the tuple of its fields, without the Python call of ``RollRecord(...)``.
_RECORD = tuple.__new__
_NO_REROLL = Reroll.NONE


class RepresentativesRead(BaseException):
    """The caller of a fast exact enumeration read what it only represents: a roll's value, an event's words or data.

    Not an error: ``enumerate_outcomes`` catches it and walks the tree again die by die, where every value is the
    roll's own (``Dice.represents``).  A ``BaseException``, so that no ``except Exception`` in the caller's code
    swallows it, as ``unplaced.PositionsRead``.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(f"read under the fast exact enumeration: {what}")


class Dice(ABC):
    """Give rules code its rolls; subclasses decide where the values come from."""

    #: What the caller of an enumeration reads of each event (``enumerate_outcomes(event_view=...)``);
    #: None: everything.  A loop's ``key`` may look at events only through it.
    event_view: Callable[[Any], Hashable] | None = None
    #: True for a fast exact enumeration's dice: a value handed out may stand for a class of rolls (a total's class,
    #: a chain's earlier counts, a loop's merged carries), so the log's values and the words and data of events
    #: built from them are one representative branch's.  Reading them raises ``RepresentativesRead`` (``log``;
    #: ``Game`` and ``action_odds`` hand out events that do the same), and the enumeration goes die by die.
    represents: bool = False

    def __init__(self) -> None:
        #: Every roll made and not forgotten, appended to as it is rolled; handed out as a tuple (``log``).
        self._logged: list[RollRecord] = []
        self._logged_view: tuple[RollRecord, ...] = ()  # ``log``'s tuple: rebuilt when its length is not the log's

    @property
    def log(self) -> tuple[RollRecord, ...]:
        """The rolls made, in order, each with its purpose and rule id (``Game.undo`` and ``take_back`` forget some).

        A tuple: a caller cannot append to it or cut it behind the game's back, which would break ``Game.undo``,
        ``Game.steps`` and the record, and a tuple read earlier stays what it was.  Built on the first read after
        the log changes, so a roll costs no more for it (rolling only appends: a view as long as the log is the
        log; what forgets rolls drops the view).
        """
        if self.represents:
            raise RepresentativesRead("the dice's log of rolls (dice.log)")
        view = self._logged_view
        if len(view) != len(self._logged):
            view = self._logged_view = tuple(self._logged)
        return view

    def branch(self) -> Dice:
        """Return dice rolling from this one's source, with a log of rolls of their own (what ``Game.copy`` rolls with).

        The source is shared: what either rolls, the other does not roll again (a branch of a
        search learns nothing of the game's next rolls).  The logs are apart: undoing in one
        game takes no record of a roll out of the other's.
        """
        other = copy.copy(self)
        other._logged = list(self._logged)
        return other

    def take_back(self, since: int) -> None:
        """Forget the rolls logged from ``since`` on: those of an action that failed midway, so none of it happened.

        Dice of a generator are not rewound (the next roll is a new one, as after ``Game.undo``);
        a judge's scripted dice are (``ScriptedDice``: the faces those rolls took are unused again).
        """
        since = guards.whole(since, f"{type(self).__name__}.take_back", "since", 0, len(self._logged))
        self._rewind(self._logged[since:])
        forget_rolls(self, since)

    def _rewind(self, taken: list[RollRecord]) -> None:
        """Give back what the rolls ``taken`` used of the dice's source (nothing, for a generator)."""

    @abstractmethod
    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        """Return the value, the faces (if physical) and the probability (if enumerating)."""

    def roll(self, request: Request) -> int:
        """Resolve one request and record it with its purpose and rule id."""
        value, faces, p = self._resolve(request)
        self._logged.append(RollRecord(request.purpose, request.rule, request.describe(), value, faces, p))
        return value

    def total(self, n: int, purpose: str, rule: str, reroll_below: int = 0, splits: Sequence[int] = (),
              places: bool = False) -> int:
        """Roll ``n`` D6 and return their sum.

        ``splits`` promises that the caller only compares the total with these values
        (``total <= s``), so an enumeration may hand it one representative per class.
        ``places`` promises that the total only decides where models end (a fall-back
        distance) and that nothing else in the resolution depends on it, so an
        enumeration whose caller reads no positions (``positions=False``) may hand it one
        representative value.
        """
        return self.roll(Total(purpose, rule, n, reroll_below, tuple(sorted(set(splits))), places))

    def d6(self, purpose: str, rule: str) -> int:
        """Roll one D6."""
        return self.total(1, purpose, rule)

    def highest(self, n: int, purpose: str, rule: str, reroll_below: int = 0) -> int:
        """Roll ``n`` D6 and return the highest."""
        return self.roll(Highest(purpose, rule, n, reroll_below))

    def pool(self, n: int, target: int, purpose: str, rule: str, reroll: Reroll = Reroll.NONE) -> int:
        """Roll ``n`` D6 and count those showing ``target`` or more (re-rolled by ``reroll``).

        A target of 1 or less succeeds without a roll; 7 or more cannot succeed, so no
        dice are rolled and nothing is logged.
        """
        if n < 0:
            raise OutOfRangeError("dice", n, "0 or more")
        if n == 0 or target >= SIDES + 1:
            return 0
        if target <= 1:
            return n
        return self.roll(Pool(purpose, rule, n, target, reroll.below(target)))

    def pools(self, n: int, *stages: Stage, split: Split | None = None) -> ChainValue:
        """Roll ``n`` dice at the first stage, its successes at the next, and so on; return every count.

        Hit then wound is ``pools(shots, Stage(hit, ...), Stage(wound, ...))``.  Play rolls
        each stage as ``pool`` does; an enumeration branches once per last count.  With
        ``split`` the last count is shared among groups that each roll their own stage
        (saves per group of models); their counts follow, and an enumeration branches once
        per tuple of the groups' counts.
        """
        counts: list[int] = []
        for stage in stages:
            ok = 0 if stage.target is None else self.pool(n, stage.target, stage.purpose, stage.rule, stage.reroll)
            n = n - ok if stage.fails else ok
            counts.append(n)
        if split is not None:
            for stage, k in zip(split.stages, split.shares[n]):
                ok = 0 if stage.target is None else self.pool(k, stage.target, stage.purpose, stage.rule, stage.reroll)
                counts.append(k - ok if stage.fails else ok)
        return tuple(counts)

    def loop(self, start: C, step: Callable[[C, Dice], C], done: Callable[[C], bool],
             key: Callable[[C], Hashable], fresh: Callable[[C], C] | None = None,
             join: Callable[[C, C], C] | None = None) -> C:
        """Run ``step`` from ``start`` until ``done``; return the last carry.

        Play runs the steps one after another.  An enumeration walks them breadth
        first, merging carries with equal ``key`` (the first one met stands for them:
        its log lines show representative rolls), and branches once per distinct final
        carry - identical intermediate states inside a resolution are resolved once.
        ``key`` must keep everything later steps and callers read.

        ``fresh`` and ``join`` name what of a carry only accumulates (an event log that no
        step reads): ``fresh(c)`` is ``c`` with it emptied and ``join(c, r)`` adds what a
        step made from ``fresh(c)`` (the carry ``r``) to ``c``'s, so that ``join(c,
        step(fresh(c)))`` is ``step(c)``.  An enumeration then walks each step once per
        distinct ``key(fresh(c))``, however many different logs lead there; the results of
        such a walk merge on ``key`` too, so ``key`` must tell apart any two results that a
        ``join`` would make different.
        """
        carry = start
        while not done(carry):
            carry = step(carry, self)
        return carry


# Rules code and ``Game`` note where a ruling's rolls begin and take them for its events by the three below: the
# dice's own list, read without building the ``log`` tuple (which would copy the whole log on every roll).
def rolls_made(dice: Dice) -> int:
    """Count the rolls ``dice`` have logged: where the rolls of what comes next begin (``rolls_since``)."""
    return len(dice._logged)


def rolls_since(dice: Dice, start: int, end: int | None = None) -> tuple[RollRecord, ...]:
    """Return the rolls ``dice`` logged from ``start`` (a ``rolls_made``) on, or up to ``end``: what a ruling rolled."""
    return tuple(dice._logged[start:end])


def forget_rolls(dice: Dice, since: int) -> None:
    """Forget the rolls logged from ``since`` on without giving back what they used (``Game.undo``; ``take_back``)."""
    del dice._logged[since:]
    dice._logged_view = ()


class SeededDice(Dice):
    """Sample physical dice from a private generator: the same seed gives the same rolls."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise OutOfRangeError("SeededDice: seed", seed, "a whole number (or None for a fresh seed)")
        self.seed = seed
        self._faces = FaceStream(random.Random(seed))  # every face rolled comes from this stream, in order

    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        value, faces = request.sample(self._faces)
        return value, faces, None

    # Play rolls pools and totals by the thousand: the three below roll and log them as ``roll(Pool(...))``
    # and ``roll(Total(...))`` do (the same faces from the stream, the same record) without building
    # the request; anything unusual (and any subclass) takes the general way.
    def pool(self, n: int, target: int, purpose: str, rule: str, reroll: Reroll = Reroll.NONE) -> int:
        if type(n) is not int or n <= 0 or type(target) is not int or not 1 < target <= SIDES \
                or type(self) is not SeededDice:
            return super().pool(n, target, purpose, rule, reroll)
        return self._roll_pool(n, target, purpose, rule, reroll)

    def _roll_pool(self, n: int, target: int, purpose: str, rule: str, reroll: Reroll) -> int:
        """Roll and log ``n`` (1 or more) D6 at ``target`` (2 to 6): ``roll(Pool(...))`` without the request."""
        if reroll is _NO_REROLL:  # most rolls
            stream = self._faces
            at = stream._at
            if at + n <= len(stream._ahead):  # the faces read ahead hold them (``FaceStream.take`` inlined)
                stream._at = at + n
                faces = stream._ahead[at:at + n]
            else:
                faces = stream.take(n)
            notation = _pool_notation(n, target, 0)
        else:
            below = reroll.below(target)
            faces = self._faces.rolled(n, below)
            notation = _pool_notation(n, target, below)
        value = len(faces.translate(None, _MISSING[target]))  # _successes, the target known to be 2 to 6
        self._logged.append(_RECORD(RollRecord, (purpose, rule, notation, value, tuple(faces), None)))
        return value

    def pools(self, n: int, *stages: Stage, split: Split | None = None) -> ChainValue:
        if type(n) is not int or n < 0 or type(self) is not SeededDice:
            return super().pools(n, *stages, split=split)
        counts: list[int] = []
        for target, purpose, rule, reroll, fails in stages:  # a stage's fields unpacked: cheaper than read one by one
            if n and type(target) is int and 1 < target <= SIDES:  # dice to roll: as pool() rolls them
                ok = self._roll_pool(n, target, purpose, rule, reroll)
            else:
                ok = 0 if target is None else Dice.pool(self, n, target, purpose, rule, reroll)
            n = n - ok if fails else ok
            counts.append(n)
        if split is not None:
            for (target, purpose, rule, reroll, fails), k in zip(split.stages, split.shares[n]):
                if k and type(target) is int and 1 < target <= SIDES:
                    ok = self._roll_pool(k, target, purpose, rule, reroll)
                else:
                    ok = 0 if target is None else Dice.pool(self, k, target, purpose, rule, reroll)
                counts.append(k - ok if fails else ok)
        return tuple(counts)

    def total(self, n: int, purpose: str, rule: str, reroll_below: int = 0, splits: Sequence[int] = (),
              places: bool = False) -> int:
        if type(n) is not int or n < 0 or type(reroll_below) is not int or type(self) is not SeededDice:
            return super().total(n, purpose, rule, reroll_below, splits, places)
        faces = self._faces.rolled(n, reroll_below)
        value = sum(faces)
        self._logged.append(_RECORD(RollRecord, (purpose, rule, _total_notation(n, reroll_below), value, tuple(faces),
                                             None)))
        return value


class ScriptedDice(Dice):
    """Read faces from a script, e.g. the physical rolls a judge enters, in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__()
        if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
            raise OutOfRangeError("ScriptedDice: faces", faces, "a list of faces from 1 to 6")
        self._faces = list(faces)
        for f in self._faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES:
                raise OutOfRangeError("scripted die", f, "a face from 1 to 6")
        #: The next face's index and the rolls made (counted apart from the log, which an undo shortens): one list,
        #: so that a ``branch`` of these dice takes its faces from the same script, after the faces already taken.
        self._cursor = [0, 0]

    @property
    def _at(self) -> int:
        return self._cursor[0]

    @_at.setter
    def _at(self, at: int) -> None:
        self._cursor[0] = at

    @property
    def _rolls(self) -> int:
        return self._cursor[1]

    @_rolls.setter
    def _rolls(self, rolls: int) -> None:
        self._cursor[1] = rolls

    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        try:
            value, used = request.from_faces(self._faces[self._at :])
        except IndexError:
            raise DiceRanOut(
                f"scripted dice ran out at roll #{self._rolls + 1} ({request.purpose}, {request.describe()})",
                (request.rule,)) from None
        faces = tuple(self._faces[self._at : self._at + used])
        self._at += used
        self._rolls += 1
        return value, faces, None

    def _rewind(self, taken: list[RollRecord]) -> None:
        self._cursor[0] -= sum(len(r.faces or ()) for r in taken)  # the faces those rolls read are the judge's again
        self._cursor[1] -= len(taken)

    @property
    def remaining(self) -> int:
        """Count the scripted faces not used yet."""
        return len(self._faces) - self._at

    @property
    def unused(self) -> tuple[int, ...]:
        """Return the scripted faces not used yet, in the order given (what a judge typed in that no roll took)."""
        return tuple(self._faces[self._at :])


def unused_words(faces: Sequence[int]) -> str:
    """Say which typed-in dice no roll took: ``3 dice not used: 4, 6, 1`` ("" when every one was)."""
    if not faces:
        return ""
    return f"{len(faces)} {'die' if len(faces) == 1 else 'dice'} not used: {', '.join(map(str, faces))}"


_WEIGHTS: dict[int, tuple[tuple[tuple[int, Fraction], ...], tuple[int, ...], int]] = {}


def _integer_weights(outcomes: tuple[tuple[int, Fraction], ...]) -> tuple[tuple[int, ...], int]:
    """Return a chance node's probabilities as integer weights over one denominator.

    Keyed by the identity of the (itself cached) outcomes tuple: hashing Fractions
    would cost more than the arithmetic it saves.  Only for the outcomes of rolls (numbers,
    kept for the process anyway): a loop's outcomes, its final carries, are weighed once
    per walk (``_weights_of``), since an entry here keeps its outcomes alive.
    """
    hit = _WEIGHTS.get(id(outcomes))
    if hit is not None and hit[0] is outcomes:
        return hit[1], hit[2]
    weights, den = _weights_of(outcomes)
    if len(_WEIGHTS) > 4096:
        _WEIGHTS.clear()
    _WEIGHTS[id(outcomes)] = (outcomes, weights, den)
    return weights, den


def _weights_of(outcomes: tuple[tuple[Any, Fraction], ...]) -> tuple[tuple[int, ...], int]:
    """Work out a chance node's probabilities as integer weights over one denominator."""
    den = 1
    for _, p in outcomes:
        den = den * p.denominator // gcd(den, p.denominator)
    return tuple(p.numerator * (den // p.denominator) for _, p in outcomes), den


class _ReplayDice(Dice):
    """Follow a fixed path of branch indices, then take branch 0 and note the rest.

    The path's probability is kept as an integer numerator and denominator: products
    of small integers are far cheaper than Fraction arithmetic on every roll.
    """

    def __init__(self, path: tuple[int, ...], fine: bool = False, budget: Budget | None = None,
                 memo: dict[Any, Any] | None = None, merge_loops: bool = True, positions: bool = True,
                 event_view: Callable[[Any], Hashable] | None = None) -> None:
        super().__init__()
        self.event_view = event_view
        self.path = path
        self.fine = fine
        self.merge_loops = merge_loops
        self.represents = not fine or merge_loops  # die by die and loops replayed whole: every value is a roll's
        #: False: the caller reads no positions, so a roll that only places models takes one value.
        self.positions = positions or fine
        self.budget = budget if budget is not None else Budget(DEFAULT_MAX_RUNS)
        #: Loops already walked, by (branches taken before, loops met before): shared by the replays.
        self.memo = memo if memo is not None else {}
        self._loops = 0
        self.choices: list[int] = []
        self.widths: list[int] = []
        self.numerator = 1
        self.denominator = 1

    @property
    def probability(self) -> Fraction:
        """Return the exact probability of the path followed so far."""
        return Fraction(self.numerator, self.denominator)

    def _branch(self, outcomes: tuple[tuple[Any, Fraction], ...],
                weighed: tuple[tuple[int, ...], int] | None = None) -> tuple[Any, Fraction]:
        """Take this path's branch of a chance node (branch 0 past the path) and weigh the path by it (``weighed``:
        its integer weights and their denominator, when the caller keeps them)."""
        if len(outcomes) == 1:
            return outcomes[0]
        depth = len(self.choices)
        index = self.path[depth] if depth < len(self.path) else 0
        value, p = outcomes[index]
        weights, den = _integer_weights(outcomes) if weighed is None else weighed
        self.choices.append(index)
        self.widths.append(len(outcomes))
        self.numerator *= weights[index]
        self.denominator *= den
        return value, p

    def _resolve(self, request: Request) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        if self.fine:
            outcomes = request.fine_outcomes()
        elif not self.positions and isinstance(request, Total):
            outcomes = request.placeless_outcomes()
        else:
            outcomes = request.outcomes()
        value, p = self._branch(outcomes)
        return value, None, p

    def loop(self, start: C, step: Callable[[C, Dice], C], done: Callable[[C], bool],
             key: Callable[[C], Hashable], fresh: Callable[[C], C] | None = None,
             join: Callable[[C, C], C] | None = None) -> C:
        """Branch once per distinct final carry, walking the loop breadth first once per replay prefix."""
        if not self.merge_loops:
            return super().loop(start, step, done, key)
        where = (tuple(self.choices), self._loops)
        self._loops += 1
        walked = self.memo.get(where)
        if walked is None:  # weighed here, not in ``_WEIGHTS``: the final carries die with the walk
            outcomes = _breadth_first(start, step, done, key, self.budget, self.positions, self.fine, fresh, join,
                                      self.event_view)
            walked = self.memo[where] = (outcomes, _weights_of(outcomes))
        value: C = self._branch(*walked)[0]
        return value

    def pools(self, n: int, *stages: Stage, split: Split | None = None) -> ChainValue:
        """Branch once per last count (representative earlier counts in the log), unless brute force."""
        if self.fine or n < 0:
            return super().pools(n, *stages, split=split)
        keys = tuple(s.key() for s in stages)
        counts, p = self._branch(_chain_last(n, keys) if split is None else _chain_split(n, keys, split.key()))
        rolled = n
        for stage, count in zip(stages, counts):
            target, below, fails = stage.key()
            if rolled and 1 < target <= SIDES:
                self._logged.append(RollRecord(stage.purpose, stage.rule, _pool_notation(rolled, target, below),
                                           rolled - count if fails else count, None, p))
            rolled = count
        if split is not None:
            for stage, k, count in zip(split.stages, split.shares[rolled], counts[len(stages):]):
                target, below, fails = stage.key()
                if k and 1 < target <= SIDES:
                    self._logged.append(RollRecord(stage.purpose, stage.rule, _pool_notation(k, target, below),
                                               k - count if fails else count, None, p))
        return tuple(counts)


class Budget:
    """Count rules-code runs across nested walks (every run of the rules code a loop's steps make too); past the cap
    the caller falls back to Monte Carlo.  ``tick`` hears each run as it is spent (a progress bar's advance)."""

    def __init__(self, max_runs: int, tick: Callable[[int], None] | None = None) -> None:
        self.max_runs = max_runs
        self.runs = 0
        self.tick = tick

    def spend(self) -> None:
        self.runs += 1
        if self.tick is not None:
            self.tick(1)
        if self.runs > self.max_runs:
            raise EnumerationTooLarge(self.max_runs)



def _walk(rules: Callable[[Dice], Any], budget: Budget, fine: bool,
          merge_loops: bool = True, positions: bool = True,
          event_view: Callable[[Any], Hashable] | None = None) -> Iterable[tuple[Any, int, int]]:
    """Yield (result, numerator, denominator) for every leaf of the chance tree, replaying ``rules``."""
    stack: list[tuple[int, ...]] = [()]
    memo: dict[Any, Any] = {}
    while stack:
        path = stack.pop()
        budget.spend()
        dice = _ReplayDice(path, fine, budget, memo, merge_loops, positions, event_view)
        result = rules(dice)
        if not path:  # the first run sizes the tree (every branch as deep as the first): far too large, stop now
            estimate = math.prod(dice.widths)
            if estimate > OVERSIZE * (budget.max_runs - budget.runs + 1):  # this run is one of the leaves
                raise EnumerationTooLarge(budget.max_runs, estimate)
        for depth in range(len(path), len(dice.choices)):
            prefix = tuple(dice.choices[:depth])
            for alternative in range(1, dice.widths[depth]):
                stack.append(prefix + (alternative,))
        yield result, dice.numerator, dice.denominator


class _SampledDice(_ReplayDice):
    """Follow one random path of the chance tree, each branch drawn uniformly; note every node's width.

    A loop is followed as the enumeration walks it (``_breadth_first``): each step from the
    path's carry is walked exactly (what it costs, and its distinct results), and one of
    those results drawn uniformly goes on.  The walks it adds, weighted by the carries of
    its round and by the paths reaching the loop, are ``inner``; its distinct final carries
    are the loop's width.  Carries that merge across parents are not seen, so this errs
    large (``LOOP_MARGIN``).  ``walked``: the steps already walked, by carry, shared by the
    paths of one estimate.
    """

    def __init__(self, rng: random.Random, positions: bool, event_view: Callable[[Any], Hashable] | None,
                 walked: dict[Hashable, tuple[list[Any], int]] | None = None, fine: bool = False) -> None:
        super().__init__((), fine, merge_loops=False, positions=positions, event_view=event_view)
        self.rng = rng
        self.looped = False
        #: Rules-code runs the loops' steps add, weighted as the enumeration would walk them.
        self.inner = 0
        #: Rules-code runs this path spent walking loop steps (the estimate's own cost).
        self.spent = 0
        self.walked: dict[Hashable, tuple[list[Any], int]] = {} if walked is None else walked
        self._met = 0  # loops met so far on this path: with the carry, what a walked step is known by

    def _branch(self, outcomes: tuple[tuple[Any, Fraction], ...],
                weighed: tuple[tuple[int, ...], int] | None = None) -> tuple[Any, Fraction]:
        if len(outcomes) > 1:  # a branch drawn at random, each alike (Knuth's estimator): no weights read
            self.widths.append(len(outcomes))
            return outcomes[self.rng.randrange(len(outcomes))]
        return outcomes[0]

    def loop(self, start: C, step: Callable[[C, Dice], C], done: Callable[[C], bool],
             key: Callable[[C], Hashable], fresh: Callable[[C], C] | None = None,
             join: Callable[[C, C], C] | None = None) -> C:
        if self.fine:  # die by die, a loop is replayed whole (``_walk`` with ``merge_loops=False``)
            return Dice.loop(self, start, step, done, key)
        self.looped = True
        reaching = math.prod(self.widths)  # the paths (prefixes) that walk this loop, each once
        carry, carries = start, 1
        self._met += 1
        while not done(carry):
            core = carry if fresh is None else fresh(carry)
            core_key = (self._met, key(core))
            known = self.walked.get(core_key)
            if known is None:
                budget = Budget(LOOP_STEP_RUNS)
                try:
                    found = _step_outcomes(core, step, key, budget, False, self.positions, self.event_view)
                except EnumerationTooLarge:  # a step too large to walk: the rest of the loop counted unmerged
                    self.spent += budget.runs
                    self.widths.append(carries)
                    return Dice.loop(self, carry, step, done, key)
                known = self.walked[core_key] = ([r for r, _ in found], budget.runs)
                self.spent += budget.runs
            results, runs = known
            self.inner += reaching * carries * runs
            carries *= len(results)
            result = results[self.rng.randrange(len(results))]
            carry = result if join is None else join(carry, result)
        if carries > 1:
            self.widths.append(carries)
        return carry


@dataclass(frozen=True)
class TreeSize:
    """An estimate of the rules-code runs an enumeration takes, and whether loops were met on the way.

    Without loops the estimate is unbiased; a loop counts unmerged, so a resolution whose
    steps merge costs less than estimated, and only a larger excess is trusted.
    """

    runs: int
    loops: bool = False
    #: Rules-code runs the estimate itself took (its paths, and the loop steps it walked).
    cost: int = 0

    def far_over(self, budget: int) -> bool:
        """Say whether the tree is so far over ``budget`` that trying to enumerate it would be wasted."""
        return self.runs > (LOOP_MARGIN if self.loops else ESTIMATE_MARGIN) * budget


def estimate_runs(rules: Callable[[Dice], Any], paths: int = ESTIMATE_PATHS, positions: bool = True,
                  event_view: Callable[[Any], Hashable] | None = None, seed: int = 0, fine: bool = False) -> TreeSize:
    """Estimate how many times an enumeration would run ``rules``, from ``paths`` runs (Knuth's estimator).

    Each run follows a random path, every branch drawn uniformly; the product of the widths
    of the chance nodes it meets is an unbiased estimate of the number of leaves, and the
    mean over the paths is the estimate.  A loop on the way is followed as the enumeration
    walks it, merging each step's results (``_SampledDice``).  The paths are drawn from
    ``seed``: the same question gets the same estimate.  Rules that read what the fast walk only represents
    (``RepresentativesRead``) are estimated die by die, as ``enumerate_outcomes`` would walk them; ``fine``: at once.
    """
    try:
        return _estimate_runs(rules, paths, positions, event_view, seed, fine)
    except RepresentativesRead:  # the rules read what a fast walk only represents: it would go die by die
        if fine:
            raise
        return _estimate_runs(rules, paths, positions, event_view, seed, True)


@with_fewer_collections
def _estimate_runs(rules: Callable[[Dice], Any], paths: int, positions: bool,
                   event_view: Callable[[Any], Hashable] | None, seed: int, fine: bool) -> TreeSize:
    rng = random.Random(seed)
    total = 0
    looped = False
    spent = paths
    walked: dict[Hashable, tuple[list[Any], int]] = {}
    for _ in range(paths):
        dice = _SampledDice(rng, positions, event_view, walked, fine)
        rules(dice)
        total += math.prod(dice.widths) + dice.inner
        looped = looped or dice.looped
        spent += dice.spent
    return TreeSize(-(-total // paths), looped, spent)


def _breadth_first(start: C, step: Callable[[C, Dice], C], done: Callable[[C], bool],
                   key: Callable[[C], Hashable], budget: Budget,
                   positions: bool = True, fine: bool = False, fresh: Callable[[C], C] | None = None,
                   join: Callable[[C, C], C] | None = None, event_view: Callable[[Any], Hashable] | None = None
                   ) -> tuple[tuple[C, Fraction], ...]:
    """Return every final carry of a loop with its probability, merging equal keys after each step.

    With ``fresh`` and ``join`` a step is walked once per distinct fresh carry (its
    results remembered) and joined to each carry that reaches it.
    """
    frontier: dict[Hashable, tuple[C, Fraction]] = {key(start): (start, Fraction(1))}
    finished: dict[Hashable, tuple[C, Fraction]] = {}
    walked: dict[Hashable, list[tuple[C, Fraction]]] = {}
    while frontier:
        following: dict[Hashable, tuple[C, Fraction]] = {}
        for carry, p in frontier.values():
            if done(carry):
                k = key(carry)
                seen = finished.get(k)
                finished[k] = (carry, p) if seen is None else (seen[0], seen[1] + p)
                continue
            core = carry if fresh is None else fresh(carry)
            core_key = key(core)
            results = walked.get(core_key)
            if results is None:
                results = walked[core_key] = _step_outcomes(core, step, key, budget, fine, positions, event_view)
            for result, q in results:
                if join is not None:
                    result = join(carry, result)
                k = key(result)
                seen = following.get(k)
                following[k] = (result, q * p) if seen is None else (seen[0], seen[1] + q * p)
        frontier = following
    return tuple(finished.values())


def _step_outcomes(carry: C, step: Callable[[C, Dice], C], key: Callable[[C], Hashable], budget: Budget,
                   fine: bool, positions: bool, event_view: Callable[[Any], Hashable] | None
                   ) -> list[tuple[C, Fraction]]:
    """Return the distinct carries one step makes from ``carry``, each with its probability."""
    sums: dict[Hashable, tuple[C, dict[int, int]]] = {}
    for result, num, den in _walk(lambda dice: step(carry, dice), budget, fine, True, positions, event_view):
        k = key(result)
        entry = sums.setdefault(k, (result, {}))
        entry[1][den] = entry[1].get(den, 0) + num
    return [(result, _total(by_den)) for result, by_den in sums.values()]


def _total(by_den: dict[int, int]) -> Fraction:
    """Add up weights kept as numerators by denominator: one Fraction built for the usual single denominator."""
    if len(by_den) == 1:
        ((den, num),) = by_den.items()
        return Fraction(num, den)
    return sum((Fraction(num, den) for den, num in by_den.items()), Fraction(0))


def enumerate_outcomes(
    rules: Callable[[Dice], T], max_runs: int = DEFAULT_MAX_RUNS, fine: bool = False, merge_loops: bool | None = None,
    positions: bool = True, event_view: Callable[[Any], Hashable] | None = None, estimate_paths: int = 0,
) -> Distribution[T]:
    """Run ``rules`` once per branch of its chance tree; return each result's exact probability.

    ``rules`` must depend on nothing random but the dice it is given (copy any game
    state inside it).  Raises ``EnumerationTooLarge`` past ``max_runs`` runs (nested
    loop walks included) so the caller can fall back to Monte Carlo and say so.  Leaf
    probabilities are summed as integers per denominator and turned into Fractions
    once, at the end.  ``fine`` branches on every value of every roll (no classes, no
    chains, loops replayed whole): the slow oracle.  ``merge_loops=False`` keeps the
    classes and chains but replays loops whole: the oracle for the merging alone;
    ``fine=True, merge_loops=True`` rolls by brute force inside merged loops: the oracle
    for the classes and chains of a loop too large to replay whole.
    ``positions=False`` is the caller's promise that its result does not depend on
    where models end: a roll that only places models (``total(..., places=True)``)
    then takes one representative value instead of branching.  ``event_view`` is its
    promise that it reads each event only through this function (the labels of an
    answer's rows, say): a loop then merges carries whose events look alike through it.
    ``estimate_paths`` > 0 first estimates the runs from that many random paths
    (``estimate_runs``) and raises ``EnumerationTooLarge`` with the estimate at once when it
    is far over ``max_runs`` (``TreeSize.far_over``), before spending the budget.

    What the fast walk only represents - the values in the dice's log, the words, rolls and
    data of the events a ``Game`` (or ``action_odds``' summary) is handed under it - raises
    ``RepresentativesRead`` when ``rules`` reads it; the walk then starts again die by die
    (``fine=True``, loops replayed whole), so the answer is exact whatever ``rules`` reads: a
    tree too large for that raises ``EnumerationTooLarge`` saying so.  An event's kind and
    rule ids, and the state, are exact either way (a loop's ``key`` keeps them apart), and
    reading only them keeps the fast walk.
    """
    if not callable(rules):
        raise OutOfRangeError("enumerate_outcomes: rules", rules, "a function of the dice")
    if isinstance(max_runs, bool) or not isinstance(max_runs, int) or max_runs < 1:
        raise OutOfRangeError("enumerate_outcomes: max_runs", max_runs, "a whole number, 1 or more")
    if (isinstance(estimate_paths, bool) or not isinstance(estimate_paths, int)
            or not 0 <= estimate_paths <= MAX_ESTIMATE_PATHS):
        raise OutOfRangeError("enumerate_outcomes: estimate_paths", estimate_paths,
                              f"a whole number from 0 to {MAX_ESTIMATE_PATHS:,}")
    guards.flag(fine, "enumerate_outcomes", "fine")
    guards.flag(merge_loops, "enumerate_outcomes", "merge_loops", none=True)
    guards.flag(positions, "enumerate_outcomes", "positions")
    merge = not fine if merge_loops is None else merge_loops
    try:
        return _sized(rules, Budget(max_runs), fine, merge, positions, event_view, estimate_paths)
    except RepresentativesRead as read:  # what it read is exact only die by die
        if fine and not merge:
            raise
        what = read.what
    return _die_by_die(rules, Budget(max_runs), event_view, estimate_paths, what)


def _sized(rules: Callable[[Dice], T], budget: Budget, fine: bool, merge: bool, positions: bool,
           event_view: Callable[[Any], Hashable] | None, estimate_paths: int) -> Distribution[T]:
    """Estimate the tree's size from ``estimate_paths`` paths (none: no estimate), then enumerate it."""
    max_runs = budget.max_runs
    if estimate_paths > 0:
        guess = _estimate_runs(rules, estimate_paths, positions, event_view, 0, fine and not merge)
        if guess.far_over(max_runs):
            raise EnumerationTooLarge(max_runs, guess.runs)
        if not guess.loops and guess.runs * CLOSER_ZONE > max_runs and estimate_paths < CLOSER_PATHS:
            closer = _estimate_runs(rules, CLOSER_PATHS, positions, event_view, 1, fine and not merge)
            if closer.runs > max_runs:
                raise EnumerationTooLarge(max_runs, closer.runs)
    return _enumerate(rules, budget, fine, merge, positions, event_view)


def _die_by_die(rules: Callable[[Dice], T], budget: Budget, event_view: Callable[[Any], Hashable] | None,
                estimate_paths: int, what: str) -> Distribution[T]:
    """Enumerate every die as a branch, loops replayed whole, for rules that read ``what`` (a ``RepresentativesRead``):
    too large, ``EnumerationTooLarge`` says why the fast walk was left."""
    try:
        return _sized(rules, budget, True, False, True, event_view, estimate_paths)
    except EnumerationTooLarge as too_large:
        raise EnumerationTooLarge(too_large.limit, too_large.estimate,
                                  f"walking every die, since the rules read {what}, which the fast walk only "
                                  "represents (read the state, or events' kinds and rule ids, to keep it)",
                                  too_large.at_least) from None


def enumerate_within(rules: Callable[[Dice], T], budget: Budget, positions: bool = True,
                     event_view: Callable[[Any], Hashable] | None = None) -> Distribution[T]:
    """``enumerate_outcomes`` with its runs counted on ``budget``, nested loop walks included: what the enumeration
    really ran, which ``budget.runs`` tells after it ends or gives up (``EnumerationTooLarge`` past ``max_runs``).
    For callers inside the package that keep the count (``fastsim``); ``rules`` is trusted to be a function."""
    try:
        return _enumerate(rules, budget, False, True, positions, event_view)
    except RepresentativesRead as read:
        return _die_by_die(rules, budget, event_view, 0, read.what)


@with_fewer_collections
def _enumerate(rules: Callable[[Dice], T], budget: Budget, fine: bool, merge: bool, positions: bool,
               event_view: Callable[[Any], Hashable] | None) -> Distribution[T]:
    sums: dict[T, dict[int, int]] = {}
    for result, num, den in _walk(rules, budget, fine, merge, positions, event_view):
        by_den = sums.setdefault(result, {})
        by_den[den] = by_den.get(den, 0) + num
    common = 1
    for by_den in sums.values():
        for den in by_den:
            common = common * den // gcd(common, den)
    weights = {
        result: sum(num * (common // den) for den, num in by_den.items()) for result, by_den in sums.items()
    }
    return Distribution.from_weights(weights, common)
