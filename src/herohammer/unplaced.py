"""States whose models have no known place: the proof that what follows reads no positions.

A compiled plan's chance tree multiplies with every roll that only places models (a
fall-back distance: one branch per total).  When nothing later in the plan reads where
models stand, those branches all lead to the same outcomes, and one representative
would do.  Whether the later steps read positions is not declared anywhere; it is
checked: ``erase_positions`` puts ``UNKNOWN_PLACE`` where every model stands, and any
use of it (indexing, unpacking, arithmetic, comparing it with a real point) raises
``PositionsRead``.  Rules code that runs to the end on such a state provably took the
same path it would have taken from any positions, so its result - positions aside -
holds for all of them.  ``PositionsRead`` derives from ``BaseException`` so that no
``except Exception`` in the code under test can swallow the proof's failure.

Two erased states with the same units, statuses and wounds are equal (every model
stands on the one ``UNKNOWN_PLACE``), so states that differed only in where models
ended merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn, cast

from .geometry import Point
from .state import GameState
from .values import evolve


class PositionsRead(BaseException):
    """Code read a position of a state whose positions were erased: the erased state cannot stand for the real ones."""


class _UnknownPlace:
    """The place of a model on an erased state: any use of it raises ``PositionsRead``."""

    __slots__ = ()

    def _read(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PositionsRead("a position was read")

    __getitem__ = __iter__ = __len__ = __float__ = __int__ = __index__ = __complex__ = _read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _read
    __lt__ = __le__ = __gt__ = __ge__ = __neg__ = __abs__ = __bool__ = __array__ = _read

    def __eq__(self, other: object) -> bool:
        """Equal to itself only; compared with a real point it is read (tuples compare the same object without asking)."""
        if other is self:
            return True
        self._read()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return 0x5E1F

    def __repr__(self) -> str:
        return "UNKNOWN_PLACE"

    def __reduce__(self) -> str:
        return "UNKNOWN_PLACE"


Sequence.register(_UnknownPlace)  # so checks of a point's shape go on to read it (its len() raises)

#: Where every model of an erased state stands (one object, so erased states compare equal field by field).
UNKNOWN_PLACE = cast(Point, _UnknownPlace())


def erase_positions(state: GameState, known: dict[Any, Any] | None = None) -> GameState:
    """Return the state with every model standing on ``UNKNOWN_PLACE`` (everything else kept as it is).

    ``known`` remembers the units and models already erased (keyed on their values, which
    hash once): what a step did not change is erased once, not once per result.
    """
    seen: dict[Any, Any] = {} if known is None else known
    units = []
    for u in state.units:
        erased = seen.get(u)
        if erased is None:
            models = []
            for m in u.models:
                blind = seen.get(m)
                if blind is None:
                    blind = seen[m] = evolve(m, at=UNKNOWN_PLACE)
                models.append(blind)
            erased = seen[u] = evolve(u, models=tuple(models))
        units.append(erased)
    return evolve(state, units=tuple(units))


def is_erased(state: GameState) -> bool:
    """Say whether a state's positions were erased (every model on ``UNKNOWN_PLACE``)."""
    return all(m.at is UNKNOWN_PLACE for u in state.units for m in u.models)
