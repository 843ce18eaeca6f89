"""Exact discrete distributions with Fraction probabilities.

Every exact answer the tool gives is one of these: immutable, hashable outcomes
mapped to Fractions that sum to exactly one (checked on construction), so that no
float ever enters the odds engine.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from fractions import Fraction
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

#: The probability of an outcome a distribution does not hold (one object, not one built per look).
_ZERO = Fraction(0)


class Distribution(Mapping[T, Fraction], Generic[T]):
    """Map each outcome to its exact probability; the probabilities sum to 1."""

    __slots__ = ("_p",)

    def __init__(self, weights: Mapping[T, Fraction | int] | Iterable[tuple[T, Fraction | int]]):
        items = weights.items() if isinstance(weights, Mapping) else weights
        acc: dict[T, Fraction] = {}
        for outcome, p in items:
            p = Fraction(p)
            if p < 0:
                raise ValueError(f"negative probability {p} for {outcome!r}")
            if p:
                acc[outcome] = acc.get(outcome, Fraction(0)) + p
        total = sum(acc.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        self._p = acc

    @classmethod
    def from_weights(cls, weights: Mapping[T, int], denominator: int) -> Distribution[T]:
        """Build from integer weights over one denominator, checking the total in integers (fast)."""
        if sum(weights.values()) != denominator or any(w < 0 for w in weights.values()):
            raise ValueError(f"weights sum to {sum(weights.values())}, not {denominator}")
        self = cls.__new__(cls)
        self._p = {o: Fraction(w, denominator) for o, w in weights.items() if w}
        return self

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        """Return the distribution that always gives ``outcome``."""
        return cls({outcome: Fraction(1)})

    def __getitem__(self, outcome: T) -> Fraction:
        return self._p.get(outcome, _ZERO)

    # the views of the dict it holds: a Mapping's own would look every outcome up again (a compile reads thousands)
    def items(self) -> ItemsView[T, Fraction]:
        return self._p.items()

    def keys(self) -> KeysView[T]:
        return self._p.keys()

    def values(self) -> ValuesView[Fraction]:
        return self._p.values()

    def __iter__(self) -> Iterator[T]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._p

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._p == other._p
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._p.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v}" for k, v in self.sorted_items())
        return f"Distribution({{{inner}}})"

    def sorted_items(self) -> list[tuple[T, Fraction]]:
        """List (outcome, probability) pairs in a stable order for display."""
        try:
            return sorted(self._p.items())
        except TypeError:
            return sorted(self._p.items(), key=lambda kv: repr(kv[0]))

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """Return the exact probability that ``predicate`` holds."""
        return sum((p for o, p in self._p.items() if predicate(o)), Fraction(0))

    def map(self, fn: Callable[[T], U]) -> Distribution[U]:
        """Return the distribution of ``fn(outcome)``, merging equal images."""
        return Distribution((fn(o), p) for o, p in self._p.items())

    def mean(self, value: Callable[[T], Fraction | int] | None = None) -> Fraction:
        """Return the exact expectation of ``value(outcome)`` (the outcome itself by default)."""
        def identity(o: T) -> Fraction | int:
            return o  # type: ignore[return-value]

        fn = value if value is not None else identity
        return sum((Fraction(fn(o)) * p for o, p in self._p.items()), Fraction(0))
