"""Immutable values made cheap: a hash computed once per value, and copies that change only some fields.

The game state is a tree of frozen dataclasses (state -> units -> models).  Exact odds
merge branches by hashing states, and every wound builds a new state; without these
two helpers each hash walks the whole tree and each change re-runs every field through
``__init__``.  With them a new state re-hashes only the units that changed (the others
keep their hash: structural sharing), and a change costs one dictionary copy.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import fields
from operator import itemgetter
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")

_HASH = "_hash_once"
_MEMO = "_memo"
_TRANSIENT = frozenset({_HASH, _MEMO})
#: The most entries a value's memo keeps (then it starts afresh).
MEMO_KEPT = 256
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_COPIERS: dict[type, tuple[tuple[str, ...], Callable[[dict[str, Any]], Any], frozenset[str]]] = {}


def _field_names(value: Any) -> tuple[str, ...]:
    """Return a dataclass's field names, looked up once per class."""
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = tuple(f.name for f in fields(value))
    return names


class HashOnce:
    """Mixin for frozen dataclasses (declared with ``eq=True, frozen=True``): hash the fields once, keep it.

    The kept hash is left out of pickles and copies, since string hashes differ between
    processes.
    """

    __slots__ = ()

    def __hash__(self) -> int:
        kept: int | None = self.__dict__.get(_HASH)
        if kept is None:
            kept = hash(tuple(self.__dict__[name] for name in _field_names(self)))
            self.__dict__[_HASH] = kept
        return kept

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in _TRANSIENT}

    def remembered(self, key: Hashable, work: Callable[[], R]) -> R:
        """Return ``work()`` for ``key``, worked out once per value: for what rules code derives from this value alone.

        The memo lives on the value (so it dies with it), is left out of pickles, copies
        and comparisons, and holds at most ``MEMO_KEPT`` entries.
        """
        memo: dict[Hashable, Any] | None = self.__dict__.get(_MEMO)
        if memo is None:
            memo = self.__dict__[_MEMO] = {}
        elif key in memo:
            return memo[key]  # type: ignore[no-any-return]
        if len(memo) >= MEMO_KEPT:
            memo.clear()
        result = memo[key] = work()
        return result


def evolve(value: T, **changes: Any) -> T:
    """Return a copy of a frozen dataclass value with some fields changed, like ``dataclasses.replace`` but cheaper.

    Only for classes without ``__post_init__`` (nothing to re-check): the fields are
    copied as they are (read all at once by an ``itemgetter`` made once per class), and
    what the old value cached about itself (its hash, cached properties) is left behind.
    """
    cls = type(value)
    known = _COPIERS.get(cls)
    if known is None:
        names = _field_names(value)
        read_all = itemgetter(*names) if len(names) > 1 else (lambda fields: tuple(fields[n] for n in names))
        known = _COPIERS[cls] = (names, read_all, frozenset(names))
    names, read, allowed = known
    new = object.__new__(cls)
    state = new.__dict__
    state.update(zip(names, read(value.__dict__)))
    if not allowed.issuperset(changes):
        unknown = sorted(set(changes) - allowed)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    state.update(changes)
    return new


class cached(Generic[R]):  # noqa: N801 - used as a decorator, like functools.cached_property
    """A property worked out once per value and kept in its ``__dict__``: ``functools.cached_property`` without its lock.

    Python 3.11's ``cached_property`` takes a lock on every first access (about 1 us more
    each), and a move asks for dozens of such values on a state just built; the values
    here are pure functions of an immutable value, so two threads working one out at the
    same moment would only both find the same answer.
    """

    def __init__(self, method: Callable[[Any], R]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, value: None, owner: type | None = None) -> cached[R]: ...

    @overload
    def __get__(self, value: object, owner: type | None = None) -> R: ...

    def __get__(self, value: object | None, owner: type | None = None) -> R | cached[R]:
        if value is None:
            return self
        result = value.__dict__[self.name] = self.method(value)
        return result
