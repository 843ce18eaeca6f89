"""Fewer garbage collections while an enumeration or a simulation builds its long-lived values.

An exact enumeration keeps what it has worked out (merged states, each step's memos, the chance
tree's nodes): hundreds of thousands of objects that live until it ends.  Python's collector
looks at the youngest objects every 700 allocations and walks the whole heap again every hundred
or so of those looks; with such a heap it spent about a third of the 40k3 whole-turn compile
walking values that were never garbage (issue 11, ``docs/performance.md``).  While such a
computation runs, ``fewer_collections`` lets the youngest generation grow to ``YOUNG_OBJECTS``
before a look (so the full walks come about a hundred times less often too), and puts the
caller's thresholds back when the last such computation in the process ends.  Nothing is left
uncollected: cycles are still found, a little later.
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

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_running = 0  # computations inside ``fewer_collections`` now, in every thread
_raised_from: tuple[int, int, int] | None = None  # the thresholds it raised, to put back when the last one ends


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with the youngest generation's threshold raised to ``YOUNG_OBJECTS`` (never lowered, and left
    alone when collection is off), then put the thresholds back; nested and concurrent blocks share one raise, undone
    when the last ends unless the thresholds were changed meanwhile by someone else."""
    global _running, _raised_from
    with _lock:
        if _running == 0:
            young, middle, old = gc.get_threshold()
            if 0 < young < YOUNG_OBJECTS:  # 0: the caller turned collection off
                gc.set_threshold(YOUNG_OBJECTS, middle, old)
                _raised_from = (young, middle, old)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _raised_from is not None:
                if gc.get_threshold() == (YOUNG_OBJECTS, *_raised_from[1:]):
                    gc.set_threshold(*_raised_from)
                _raised_from = None


def with_fewer_collections(work: Callable[P, R]) -> Callable[P, R]:
    """Decorate a function that builds many long-lived values so that it runs inside ``fewer_collections``."""
    @functools.wraps(work)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        with fewer_collections():
            return work(*args, **kwargs)
    return wrapped
