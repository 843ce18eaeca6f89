"""Immutable values made cheap: a hash computed once per value, and copies that change only some fields.

The game state is a tree of frozen dataclasses (state -> units -> models).  Exact odds
merge branches by hashing states, and every wound builds a new state; without these
two helpers each hash walks the whole tree and each change re-runs every field through
``__init__``.  With them a new state re-hashes only the units that changed (the others
keep their hash: structural sharing), and a change costs one dictionary copy.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import fields
from itertools import islice
from operator import itemgetter
from typing import Any, ClassVar, Generic, TypeVar, overload

T = TypeVar("T")
R = TypeVar("R")

_HASH = "_hash_once"
#: Where a value keeps what was worked out from it (``HashOnce.remember``); left out of pickles like the hash.
MEMO = "_remembered"
#: How many worked-out values one value remembers (``HashOnce.remember``).
REMEMBERED_KEPT = 64
_MISSING: Any = object()
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
#: A dataclass's field values as a tuple, taken from its ``__dict__``, by class (``HashOnce.__hash__``).
_FIELD_VALUES: dict[type, Callable[[dict[str, Any]], tuple[Any, ...]]] = {}
_LAYOUTS: dict[type, tuple[int, frozenset[str], tuple[str, ...], Callable[[dict[str, Any]], tuple[Any, ...]]]] = {}
#: A dataclass's compared field values as a tuple, taken from its ``__dict__``, by class (``HashOnce.__eq__``).
_COMPARED: dict[type, Callable[[dict[str, Any]], tuple[Any, ...]]] = {}


def _field_values(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """Return what takes a dataclass's field values, in order, from its ``__dict__`` as a tuple (in C)."""
    if len(names) == 1:
        return lambda kept: (kept[names[0]],)
    return itemgetter(*names)


def _compared_names(value: Any) -> tuple[str, ...]:
    """Return the names of the fields a dataclass's ``==`` compares, in order."""
    return tuple(f.name for f in fields(value) if f.compare)


def _field_names(value: Any) -> tuple[str, ...]:
    """Return a dataclass's field names, looked up once per class."""
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = tuple(f.name for f in fields(value))
    return names


def drop_oldest(kept: dict[Any, Any]) -> None:
    """Forget a bounded memo's oldest entries, an eighth of them at once, as games played in threads at once may ask
    together.

    A dict keeps the places of the entries deleted from its front until it next grows, and its first key is found
    past them: dropping one entry per insert made every look-up of the oldest walk further (a memo kept full by a
    search spent more there than in what it remembers).  Dropping a share at once walks that stretch once per share.
    The look-up of the oldest keys and their deletes are two steps: another thread may have dropped those entries,
    or changed the memo, in between, which is no error (the memo is only a memo).
    """
    try:
        oldest = list(islice(kept, max(1, len(kept) // _DROPPED_SHARE)))
    except RuntimeError:  # changed meanwhile by another thread
        return
    for key in oldest:
        kept.pop(key, None)


#: ``drop_oldest`` forgets this fraction (one in so many) of a full memo's entries at once.
_DROPPED_SHARE = 8


K = TypeVar("K")

#: How many entries a bounded memo keeps unless told otherwise (``keep_bounded``).
MEMO_KEPT = 256


def keep_bounded(kept: dict[K, R], key: K, value: R, most: int = MEMO_KEPT) -> R:
    """Keep ``value`` under ``key`` in a memo of at most ``most`` entries (the oldest dropped first) and return it:
    every bounded memo of a volley, a fight or a pursuit keeps this way."""
    if len(kept) >= most:
        drop_oldest(kept)  # a state's memo, which games in threads may share
    kept[key] = value
    return value


class HashOnce:
    """Mixin for frozen dataclasses (declared with ``eq=True, frozen=True``): hash the fields once, keep it.

    The kept hash (and anything remembered under ``MEMO``) is left out of pickles and
    copies, since string hashes differ between processes.  A class may name the fields its
    hash reads (``hashed_fields``, a tuple of names; all of them when empty): equal values
    then still hash alike (``==`` compares every field), and fields that never differ
    between the values hashed together need not be hashed for every new value.
    """

    __slots__ = ()

    #: The fields the hash reads (empty: every field), for a class whose other fields are fixed for a game.
    hashed_fields: ClassVar[tuple[str, ...]] = ()

    def __hash__(self) -> int:
        fields_now = self.__dict__
        kept: int | None = fields_now.get(_HASH)
        if kept is None:
            values = _FIELD_VALUES.get(type(self))
            if values is None:
                values = _FIELD_VALUES[type(self)] = _field_values(self.hashed_fields or _field_names(self))
            kept = fields_now[_HASH] = hash(values(fields_now))
        return kept

    def __eq__(self, other: object) -> bool:
        """Compare the fields as the dataclass's own ``__eq__`` would (those it compares, in order), taken in C: equal
        values met in a merge (a state's units, their models) are compared field by field at every meeting.  Two kept
        hashes that differ answer at once."""
        if other is self:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        kept, other_kept = mine.get(_HASH), theirs.get(_HASH)
        if kept is not None and other_kept is not None and kept != other_kept:
            return False
        values = _COMPARED.get(type(self))
        if values is None:
            values = _COMPARED[type(self)] = _field_values(_compared_names(self))
        return values(mine) == values(theirs)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != _HASH and k != MEMO}

    def hashed(self) -> bool:
        """Say whether this value's hash is known already: a memo keyed by it then costs no walk of its fields (a value
        hashed by nothing else yet, as in a state just built, may be worked out more cheaply than keyed)."""
        return _HASH in self.__dict__

    def known(self, key: Hashable, default: Any = None) -> Any:
        """Return what ``remember`` keeps for ``key`` on this value, or ``default``: a look without a ``compute`` to
        build for the usual case, where it is known."""
        memo = self.__dict__.get(MEMO)
        return default if memo is None else memo.get(key, default)

    def remember(self, key: Hashable, compute: Callable[[], R]) -> R:
        """Return ``compute()``, worked out once per value for ``key`` (what ruling and resolving both ask).

        The values live on this value and die with it; a changed value (``evolve``) starts
        with none.  ``key`` must name everything ``compute`` depends on besides the value.
        """
        memo: dict[Hashable, Any] = self.__dict__.setdefault(MEMO, {})
        value: R = memo.get(key, _MISSING)  # the key hashed once when it is known
        if value is not _MISSING:
            return value
        if len(memo) >= REMEMBERED_KEPT:
            memo.clear()
        value = memo[key] = compute()
        return value


def _layout(value: Any) -> tuple[int, frozenset[str], tuple[str, ...], Callable[[dict[str, Any]], tuple[Any, ...]]]:
    """Return how many fields a dataclass has, their names as a set and in order, and what takes their values."""
    names = _field_names(value)
    return len(names), frozenset(names), names, _field_values(names)


def evolve(value: T, **changes: Any) -> T:
    """Return a copy of a frozen dataclass value with some fields changed, like ``dataclasses.replace`` but cheaper.

    Only for classes without ``__post_init__`` (nothing to re-check): the fields are
    copied as they are, and what the old value cached about itself (its hash, cached
    properties) is left behind.
    """
    cls = type(value)
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = _layout(value)
    count, name_set, names, take = layout
    if not changes.keys() <= name_set:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - name_set)[0]!r}")
    state = value.__dict__.copy()  # its fields, and what it may keep beyond them, copied in C
    if len(state) != count:  # it keeps more (its hash, memo, cached answers): those are left behind
        for key in _kept(cls):
            if key in state:
                del state[key]
        if len(state) != count:  # something else kept on it: its fields alone are taken, in C
            state = dict(zip(names, take(value.__dict__)))
    state.update(changes)
    new = _new(cls)
    _set(new, "__dict__", state)
    return new


_new, _set = object.__new__, object.__setattr__


def evolve_each(values: Iterable[T], name: str, new_values: Iterable[Any]) -> list[T]:
    """Return ``[evolve(v, **{name: x}) for v, x in zip(values, new_values)]``: one field changed in many values of one
    class at once (a unit's models moved together), as ``evolve_rows`` does for several fields."""
    return evolve_rows(values, (name,), zip(new_values))


def evolve_rows(values: Iterable[T], names: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> list[T]:
    """Return ``[evolve(v, **dict(zip(names, row))) for v, row in zip(values, rows)]``: several fields changed in many
    values of one class at once (a unit's models moved, each spending its allowance): the class's layout looked up and
    the fields checked once, no keyword dictionary built per value.

    Each copy is the old ``__dict__`` copied in C with what the class may keep beyond its fields
    (its hash, memo and ``cached`` answers, ``_kept``) taken out; a value found to keep anything
    else has its fields alone taken, as ``evolve`` does.
    """
    out: list[T] = []
    cls: type | None = None
    count, fields_ = 0, ()  # type: tuple[int, tuple[str, ...]]
    extras: tuple[str, ...] = ()
    take: Callable[[dict[str, Any]], tuple[Any, ...]] = tuple
    two = len(names) == 2
    one = len(names) == 1
    first, second = names if two else (names[0], "") if one else ("", "")
    for value, row in zip(values, rows):
        if type(value) is not cls:
            cls = type(value)
            layout = _LAYOUTS.get(cls)
            if layout is None:
                layout = _LAYOUTS[cls] = _layout(value)
            count, name_set, fields_, take = layout
            if not name_set.issuperset(names):
                raise TypeError(f"{cls.__name__} has no field {sorted(set(names) - name_set)[0]!r}")
            extras = _kept(cls)
        state = value.__dict__.copy()
        if len(state) != count:
            for key in extras:
                if key in state:
                    del state[key]
            if len(state) != count:  # something else kept on it: its fields alone
                state = dict(zip(fields_, take(value.__dict__)))
        if two:  # a move's place and allowance: set by key (a zip and an update cost several times more)
            state[first], state[second] = row
        elif one:  # one field (a fall back's places): set by key too
            state[first] = row[0]
        else:
            state.update(zip(names, row))
        copy = _new(cls)
        _set(copy, "__dict__", state)
        out.append(copy)
    return out


_KEPT: dict[type, tuple[str, ...]] = {}


def _kept(cls: type) -> tuple[str, ...]:
    """Return what a value of ``cls`` may keep in its ``__dict__`` beyond its fields: its hash, its memo and the
    answers of its ``cached`` properties (looked up once per class)."""
    kept = _KEPT.get(cls)
    if kept is None:
        names = {key for klass in cls.__mro__ for key, attr in vars(klass).items() if isinstance(attr, cached)}
        kept = _KEPT[cls] = (_HASH, MEMO, *sorted(names))
    return kept


class cached(Generic[R]):  # noqa: N801 - used as a decorator, like functools.cached_property
    """A property worked out once per value and kept in its ``__dict__``: ``functools.cached_property`` without its lock.

    For immutable values only (the answer never goes stale), which any thread may work out
    alike; Python 3.11's ``cached_property`` takes a lock on every first look-up, a cost
    each new state pays for every model.  ``evolve`` leaves the kept answer behind.
    """

    def __init__(self, func: Callable[[Any], R]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached[R]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> R: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> R | cached[R]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


N = TypeVar("N", bound=tuple[Any, ...])


def record(cls: type[N]) -> type[N]:
    """Make a ``NamedTuple`` compare as a frozen dataclass does: equal only to a value of its own class, unordered.

    A NamedTuple is the cheapest immutable value Python builds (one tuple, where a frozen
    dataclass sets each field through ``object.__setattr__``), which counts for what play
    makes by the thousand: log records, events, rulings.  Its hash stays the tuple's, the
    hash of its fields, as a frozen dataclass's is; only a tuple's equality to any tuple
    of the same fields, and its order, are taken away.
    """
    def __eq__(self: N, other: object) -> bool:
        if type(other) is cls:
            return tuple.__eq__(self, other)
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self: N, other: object) -> bool:
        if type(other) is cls:
            return tuple.__ne__(self, other)
        return True if isinstance(other, tuple) else NotImplemented

    def __lt__(self: N, other: object) -> bool:  # and the other three orders: a frozen dataclass has none
        if isinstance(other, tuple):  # a tuple would order it as one
            raise TypeError(f"{cls.__name__} values have no order")
        return NotImplemented

    for name, method in (("__eq__", __eq__), ("__ne__", __ne__), ("__lt__", __lt__), ("__le__", __lt__),
                         ("__gt__", __lt__), ("__ge__", __lt__), ("__hash__", tuple.__hash__)):
        setattr(cls, name, method)
    return cls
