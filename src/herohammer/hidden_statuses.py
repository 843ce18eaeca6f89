"""States whose unsettled statuses are hidden: the proof that what follows reads none of them.

A compile's runs often differ in a status that nothing later reads.  In the 40k3 whole turn,
whether the Librarian failed his psychic test splits 500 fights into 600, though nothing
after the Shooting phase asks, and the turn's end clears it.  ``hide_statuses`` puts a
``HiddenStatuses`` in place of such a unit's statuses.  It holds the statuses the unit surely
has and those it may have; it answers every question both bounds agree on, and raises
``StatusesRead`` on any other (is a hidden status held, how many are there, iterate them,
compare with a real set that lies between the bounds).  Rules code that runs to the end on
such a state provably took the path it would have taken from every real set of statuses the
bounds allow, so runs that differ only in the hidden statuses merge.  Adding or removing a
status settles it; once none is unsettled the statuses are a plain frozenset again (the
turn's end clears this turn's statuses).  ``StatusesRead`` derives from ``BaseException``, as
``unplaced.PositionsRead`` does, so that no ``except Exception`` in the code under test can
swallow the proof's failure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, cast

from .state import GameState
from .units import Status, Unit
from .values import evolve


class StatusesRead(BaseException):
    """Code asked a question about statuses whose answer a hidden one decides: the hidden states cannot stand for
    the real ones."""

    def __init__(self, statuses: frozenset[Status]) -> None:
        super().__init__(f"hidden statuses were read: {', '.join(sorted(statuses))}")
        #: The hidden statuses whose presence the question turned on.
        self.statuses = statuses


_SETS = (set, frozenset)


class HiddenStatuses:
    """A unit's statuses, some of them unknown: ``held`` it surely has, ``unsure`` it may have or not.

    Set operations with real sets or other hidden ones give the bounds of their result
    (settled statuses fall out of ``unsure``); any answer that would depend on an unsure
    status raises ``StatusesRead``.  Not a frozenset subclass: C code would then read its
    (empty) contents without asking.
    """

    __slots__ = ("held", "unsure", "_hash")

    def __init__(self, held: frozenset[Status], unsure: frozenset[Status]) -> None:
        self.held = held
        self.unsure = unsure
        self._hash = hash((held, unsure, HiddenStatuses))

    @staticmethod
    def between(held: frozenset[Status], possible: frozenset[Status]) -> frozenset[Status]:
        """Return the statuses known to include ``held`` and lie within ``possible``: a plain frozenset once both
        bounds agree (typed as one: the rules code treats it as one)."""
        if held == possible:
            return held
        return cast(frozenset[Status], HiddenStatuses(held, possible - held))

    # -- what the rules code may ask ---------------------------------------------------------------------------------
    def __contains__(self, status: object) -> bool:
        if status in self.held:
            return True
        if status in self.unsure:
            raise StatusesRead(frozenset({cast(Status, status)}))
        return False

    def __or__(self, other: Any) -> frozenset[Status]:
        if (bounds := _bounds(other)) is None:
            return NotImplemented
        low, high = bounds
        return self.between(self.held | low, self.held | self.unsure | high)

    __ror__ = __or__

    def __and__(self, other: Any) -> frozenset[Status]:
        if (bounds := _bounds(other)) is None:
            return NotImplemented
        low, high = bounds
        return self.between(self.held & low, (self.held | self.unsure) & high)

    __rand__ = __and__

    def __sub__(self, other: Any) -> frozenset[Status]:
        if (bounds := _bounds(other)) is None:
            return NotImplemented
        low, high = bounds
        return self.between(self.held - high, (self.held | self.unsure) - low)

    def __rsub__(self, other: Any) -> frozenset[Status]:
        if (bounds := _bounds(other)) is None:
            return NotImplemented
        low, high = bounds
        return self.between(low - (self.held | self.unsure), high - self.held)

    def isdisjoint(self, other: Any) -> bool:
        """Say whether it shares no status with ``other`` (a set), read only when the hidden ones decide."""
        if not self.held.isdisjoint(other):
            return False
        if not self.unsure.isdisjoint(other):
            raise StatusesRead(self.unsure.intersection(other))
        return True

    def __eq__(self, other: object) -> bool:
        """Equal to hidden statuses with the same bounds (the compile's merge); a real set is equal to it only when
        the hidden ones decide, so that question is read (unless the real set lies outside the bounds)."""
        if isinstance(other, HiddenStatuses):
            return self._hash == other._hash and self.held == other.held and self.unsure == other.unsure
        if isinstance(other, _SETS):
            if self.held <= other <= self.held | self.unsure:
                self._read()
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return self._hash

    def _read(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise StatusesRead(self.unsure)

    __iter__ = __len__ = __bool__ = __le__ = __lt__ = __ge__ = __gt__ = __xor__ = __rxor__ = _read
    union = intersection = difference = symmetric_difference = issubset = issuperset = _read
    __repr__ = __str__ = __format__ = _read  # words written from the statuses would tell the runs apart

    def __reduce__(self) -> tuple[Any, ...]:
        return (HiddenStatuses, (self.held, self.unsure))


def _bounds(value: Any) -> tuple[frozenset[Status], frozenset[Status]] | None:
    """The statuses a value surely holds and may hold (a real set holds exactly its own); ``None`` for what is no set
    (an operation with it is not a set's, as with a frozenset)."""
    if isinstance(value, HiddenStatuses):
        return value.held, value.held | value.unsure
    if isinstance(value, _SETS):
        real = frozenset(value)
        return real, real
    return None


def status_bounds(unit: Unit) -> tuple[frozenset[Status], frozenset[Status]]:
    """Return the statuses a unit surely has and may have (the same set when none is hidden): for the compile's own
    bookkeeping, which must not ask the rules' questions."""
    status = unit.status
    if isinstance(status, HiddenStatuses):
        return status.held, status.held | status.unsure
    return status, status


def hide_statuses(state: GameState, hidden: Mapping[str, frozenset[Status]],
                  known: dict[tuple[Unit, frozenset[Status]], Unit] | None = None) -> GameState:
    """Return the state with ``hidden[unit id]`` unknown on each such unit (whether it held them or not).

    ``known`` remembers the units already hidden (keyed on their values, which hash once, and what was hidden): a unit
    shared by many states is hidden once.
    """
    seen: dict[tuple[Unit, frozenset[Status]], Unit] = {} if known is None else known
    units = []
    for unit in state.units:
        statuses = hidden.get(unit.id)
        if statuses:
            after = seen.get((unit, statuses))
            if after is None:
                low, high = status_bounds(unit)
                after = seen[(unit, statuses)] = evolve(unit, status=HiddenStatuses.between(low - statuses,
                                                                                              high | statuses))
            unit = after
        units.append(unit)
    return evolve(state, units=tuple(units))


def unsettled(states: Iterable[GameState]) -> dict[str, frozenset[Status]]:
    """Return, per unit id, the statuses some of ``states`` surely give it and others do not: what hiding could merge."""
    some: dict[str, frozenset[Status]] = {}
    every: dict[str, frozenset[Status]] = {}
    for state in states:
        for unit in state.units:
            held = status_bounds(unit)[0]
            if unit.id in some:
                some[unit.id] |= held
                every[unit.id] &= held
            else:
                some[unit.id] = every[unit.id] = held
    return {uid: some[uid] - every[uid] for uid in some if some[uid] != every[uid]}
