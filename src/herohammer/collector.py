"""Fewer garbage collections while an enumeration or a simulation builds its long-lived values.

An exact enumeration keeps what it has worked out (merged states, each step's memos, the chance
tree's nodes): hundreds of thousands of objects that live until it ends.  Python's collector
looks at the youngest objects every 700 allocations and walks the whole heap again every hundred
or so of those looks; with such a heap it spent about a third of the 40k3 whole-turn compile
walking values that were never garbage (issue 11, ``docs/performance.md``).  While such a
computation runs, ``fewer_collections`` lets the youngest generation grow to ``YOUNG_OBJECTS``
before a look, and waits ``MIDDLE_LOOKS`` looks, not ten, before it walks again every object that
survived them (with such a heap each of those walks takes a tenth of a second, and nearly everything
it walks is still in use); it puts the caller's thresholds back when the last such computation in the
process ends.  Nothing is left uncollected: cycles are still found, a little later.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

#: The youngest generation's threshold while an enumeration runs (Python's default is 700): the collector then
#: runs about as often as it would with the 40k3 whole-turn compile's heap if that heap were a hundredth its size.
YOUNG_OBJECTS = 100_000
#: The middle generation's threshold while an enumeration runs (Python's default is 10): the survivors of the young
#: generation's looks are walked again after this many looks, not ten (the 40k3 whole-turn compile then walks none of
#: them; two such walks took 4% of it, issue 11).
MIDDLE_LOOKS = 1_000

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_running = 0  # computations inside ``fewer_collections`` now, in every thread
_raised_from: tuple[int, int, int] | None = None  # the thresholds it raised, to put back when the last one ends


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with the youngest generation's threshold raised to ``YOUNG_OBJECTS`` and the middle one's to
    ``MIDDLE_LOOKS`` (neither lowered, both left alone when collection is off), then put the thresholds back; nested
    and concurrent blocks share one raise, undone when the last ends unless the thresholds were changed meanwhile by
    someone else."""
    global _running, _raised_from
    with _lock:
        if _running == 0:
            young, middle, old = gc.get_threshold()
            if 0 < young and (young < YOUNG_OBJECTS or middle < MIDDLE_LOOKS):  # 0: the caller turned collection off
                gc.set_threshold(max(young, YOUNG_OBJECTS), max(middle, MIDDLE_LOOKS), old)
                _raised_from = (young, middle, old)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _raised_from is not None:
                young, middle, old = _raised_from
                if gc.get_threshold() == (max(young, YOUNG_OBJECTS), max(middle, MIDDLE_LOOKS), old):
                    gc.set_threshold(*_raised_from)
                _raised_from = None


def with_fewer_collections(work: Callable[P, R]) -> Callable[P, R]:
    """Decorate a function that builds many long-lived values so that it runs inside ``fewer_collections``."""
    @functools.wraps(work)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with fewer_collections():
            return work(*args, **kwargs)
    return wrapped
