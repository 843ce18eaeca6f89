"""Records (``values.record``): NamedTuples that behave as the frozen dataclasses they replaced.

Log records, events, rulings and the stages of a roll are built by the thousand in play,
so they are NamedTuples (one tuple each, where a frozen dataclass sets every field
through ``object.__setattr__``).  Each is held here to a frozen dataclass of the same
fields: equality, inequality, hashing, repr, order, immutability, pickling and copying.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from herohammer.dice import Reroll, RollRecord, Split, Stage
from herohammer.rulings import Event, Ruling

RECORDS: list[type[Any]] = [RollRecord, Event, Ruling, Stage, Split]
SMALL = st.one_of(st.none(), st.booleans(), st.integers(-3, 7), st.sampled_from(["a", "b", ""]),
                  st.tuples(st.integers(1, 6), st.integers(1, 6)), st.just(Reroll.ONES))


def _twin(cls: type[Any]) -> type[Any]:
    """A frozen dataclass with ``cls``'s fields: what ``cls`` was before it became a record."""
    return dataclasses.make_dataclass(cls.__name__, list(cls._fields), frozen=True)


TWINS = {cls: _twin(cls) for cls in RECORDS}


@given(st.sampled_from(RECORDS), st.data())
def test_records_behave_as_frozen_dataclasses(cls: type[Any], data: st.DataObject) -> None:
    twin = TWINS[cls]
    values = [data.draw(st.lists(SMALL, min_size=len(cls._fields), max_size=len(cls._fields))) for _ in range(2)]
    if data.draw(st.booleans()):
        values[1] = list(values[0])
    (a, b), (ta, tb) = [cls(*v) for v in values], [twin(*v) for v in values]
    others: list[Any] = [b, tuple(values[0]), tuple(values[1]), None, 3, "a", Event("k", "m"), list(values[0])]
    twin_others: list[Any] = [tb, tuple(values[0]), tuple(values[1]), None, 3, "a", Event("k", "m"), list(values[0])]
    for other, twin_other in zip(others, twin_others):
        assert (a == other) is (ta == twin_other)
        assert (other == a) is (twin_other == ta)
        assert (a != other) is (ta != twin_other)
        assert (other != a) is (twin_other != ta)
    assert hash(a) == hash(ta)
    assert repr(a) == repr(ta)
    for order in (lambda x, y: x < y, lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y):
        for x, y in ((a, b), (a, tuple(values[1])), (tuple(values[1]), a)):
            with pytest.raises(TypeError):
                order(x, y)
    with pytest.raises(AttributeError):
        a.__setattr__(cls._fields[0], 1)
    for kept in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert kept == a and type(kept) is cls


def test_records_keep_their_defaults_and_json() -> None:
    event = Event("shots", "3 hits", ("r.a",), (RollRecord("to hit", "r.a", "5D6 4+", 3, (4, 5, 1, 6, 2)),),
                  (("hits", 3),))
    assert event.to_json() == {"kind": "shots", "message": "3 hits", "rules": ["r.a"],
                               "rolls": [{"purpose": "to hit", "rule": "r.a", "dice": "5D6 4+", "value": 3,
                                          "faces": [4, 5, 1, 6, 2]}], "hits": 3}
    assert Event("k", "m") == Event("k", "m", (), (), ())
    assert RollRecord("p", "r", "1D6", 4) == RollRecord("p", "r", "1D6", 4, None, None)
    assert Ruling.allow("fine", "r.a", "r.b") == Ruling(True, ("r.a", "r.b"), "fine", ())
    assert Ruling.forbid("no", "r.a") == Ruling(False, ("r.a",), "no", ())
    assert Stage(3, "hit", "r") == Stage(3, "hit", "r", Reroll.NONE, False)
