"""Local worker processes for the simulator and sweeps: chunks of work on a pool, one Ctrl-C ending them all.

``run_chunks`` hands each chunk to a process of a ``multiprocessing`` pool and hears each result as it comes.
While the pool lives a Ctrl-C is only noted and raised where the command can end (``_defer_ctrl_c``), the pool's
workers are then ended at once (``Pool.terminate``), and each worker asks Linux to end it with its parent
(``_quiet_worker``), so no worker outlives the command.  A worker's error comes back as one ``HerohammerError``
line (``_run_one``), and a worker that dies (killed, out of memory) is said as such rather than waited on for ever
(a ``Pool`` would hand its task to no one).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from . import guards
from .errors import HerohammerError
from .guards import ArgumentError
from .limits import MAX_WORKERS

T = TypeVar("T")
R = TypeVar("R")

#: ``workers="auto"``: as many processes as this process may run on (``os.sched_getaffinity``).
AUTO = "auto"


def cores() -> int:
    """Return the cores this process may run on (its CPU affinity, where the system has one, else the count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - no affinity outside Linux
        return max(1, os.cpu_count() or 1)


def resolve_workers(value: Any, where: str, name: str = "workers") -> int | None:
    """Return a number of worker processes: ``None`` (not asked), a whole number from 1 to ``MAX_WORKERS``, or
    ``"auto"`` (``cores()``, at most ``MAX_WORKERS``); anything else refused naming ``where`` and ``name``."""
    if value is None:
        return None
    if isinstance(value, str):
        if value.strip().lower() == AUTO:
            return min(cores(), MAX_WORKERS)
        raise ArgumentError(where, name, f'a whole number from 1 to {MAX_WORKERS:,}, or "auto"', value)
    return guards.whole(value, where, name, 1, MAX_WORKERS)


def run_chunks(task: Callable[[T], R], chunks: Sequence[T], workers: int,
               done: Callable[[int, R], None] | None = None,
               setup: Callable[..., None] | None = None, setup_args: tuple[Any, ...] = (),
               ordered: bool = False) -> list[R]:
    """Run ``task`` on each chunk in a pool of ``workers`` processes; return the results in the chunks' order.

    ``task`` and ``setup`` are module-level functions (a pool pickles them by name); ``setup(*setup_args)`` runs once
    in each worker as it starts (on Linux the workers are forked, so ``setup_args`` are inherited, not pickled: a
    compiled plan or a game state costs nothing to hand over).  ``done(i, result)`` hears each chunk as it finishes
    (a progress bar), in the order they finish, or in the chunks' order with ``ordered``.  Ctrl-C ends every worker at
    once and raises KeyboardInterrupt here; a worker's error is raised as one ``HerohammerError``.
    """
    results: dict[int, R] = {}
    pool = None
    came: list[int] = []
    usual = _defer_ctrl_c(came)  # until the pool has ended, a Ctrl-C is only noted, then raised where it is safe
    try:
        try:
            # its first import (module locks' callbacks, in which a Ctrl-C would be lost), once Ctrl-C is only noted
            from multiprocessing import Pool, TimeoutError as NoResultYet, active_children

            before = set(active_children())
            # Pool cleans up a failed start on Exception only: a Ctrl-C between two forks left the first worker
            # behind, holding the terminal's pipes after the command had exited
            pool = Pool(workers, initializer=_start_worker, initargs=(os.getpid(), setup, setup_args))
            mine = [p for p in active_children() if p not in before]
            _raise_if_came(came)
            items = [(task, i, chunk) for i, chunk in enumerate(chunks)]
            finishing = pool.imap(_run_one, items) if ordered else pool.imap_unordered(_run_one, items)
            while len(results) < len(items):
                try:
                    i, result = finishing.next(timeout=_WAKE_SECONDS)
                except NoResultYet:  # nothing finished yet: wake to take a Ctrl-C, or to see a worker gone
                    _raise_if_came(came)
                    _check_alive(mine)
                    continue
                results[i] = result
                if done is not None:
                    done(i, result)
                _raise_if_came(came)
        finally:  # done, failed, or Ctrl-C at any point once the pool stands: end its workers
            if pool is not None:
                _end_pool(pool)
    finally:
        _restore_ctrl_c(usual, came)  # a Ctrl-C noted meanwhile is raised now that the pool has ended
    return [results[i] for i in range(len(chunks))]


#: How long ``Pool.terminate`` may take before the workers are killed without it (``_end_pool``).
TERMINATE_SECONDS = 5.0


def _end_pool(pool: Any) -> None:
    """End a pool's workers with ``Pool.terminate``, in a thread of its own and for at most ``TERMINATE_SECONDS``; past
    that, kill every worker still running and go on.

    Why: ``Pool.terminate`` first takes the lock of the queue the workers read their chunks from, and it waited for
    ever once a worker had failed under the rule-coverage tool's run (session 30: ``rulecov`` hung in
    ``_help_stuff_finish`` after ``test_a_worker_that_fails_is_one_line``, with both workers gone); a command must
    end with its one line whatever the pool's state.  The thread left waiting is a daemon: it does not keep the
    process alive, and the pool's finalizer, already called, does not run again at exit.
    """
    ender = threading.Thread(target=pool.terminate, name="pool-terminate", daemon=True)
    ender.start()
    ender.join(TERMINATE_SECONDS)
    if ender.is_alive():
        killed = [process for process in list(getattr(pool, "_pool", ())) if process.exitcode is None]
        for process in killed:
            process.kill()
        for process in killed:  # reaped, so that no worker is left behind when the command ends
            process.join(TERMINATE_SECONDS)


def _check_alive(workers: Sequence[Any]) -> None:
    """Raise one line for a pool worker that has ended (a signal, the kernel's out-of-memory killer): the pool would
    start another, and wait for ever on the chunk the dead one held."""
    for process in workers:
        if process.exitcode is not None:
            how = (f"signal {-process.exitcode}" if process.exitcode < 0 else f"exit code {process.exitcode}")
            raise HerohammerError(f"a worker process (pid {process.pid}) ended unexpectedly ({how}); "
                                  "nothing was written")


def _start_worker(parent: int, setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    """Start a pool worker: quiet to Ctrl-C and ended with its parent (``_quiet_worker``), then ``setup``."""
    _quiet_worker(parent)
    if setup is not None:
        setup(*setup_args)


def _run_one(item: tuple[Callable[[Any], Any], int, Any]) -> tuple[int, Any]:
    """Run one chunk in a worker; turn any error into one ``HerohammerError`` line (its traceback, printed by the
    pool's thread or re-raised with the pool's machinery around it, would say nothing a user can act on)."""
    task, index, chunk = item
    try:
        return index, task(chunk)
    except HerohammerError as exc:  # said as the one process would say it (a plain error: it pickles whole)
        raise HerohammerError(_one_line(str(exc))) from None
    except Exception as exc:
        raise HerohammerError(f"a worker process failed: {type(exc).__name__}: {_one_line(str(exc))}") from None


def _one_line(text: str) -> str:
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


def _defer_ctrl_c(came: list[int]) -> Any:
    """Only note Ctrl-C (in ``came``) from now on; return the handler to put back (None: left as it was, off the main
    thread or where Ctrl-C does not raise KeyboardInterrupt).

    Why: Python runs a signal's handler in whatever code the main thread runs when it looks, a finalizer or a
    weakref callback too (an import's module lock has one), and a KeyboardInterrupt raised there is printed as
    "Exception ignored" and lost: the sweep went on.  While the pool lives (its imports, its start, the wait on its
    results, its end) the handler only notes the Ctrl-C, and ``_raise_if_came`` raises it where the command can end.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    usual = signal.getsignal(signal.SIGINT)
    if usual is not signal.default_int_handler:
        return None
    signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    return usual


def _raise_if_came(came: list[int]) -> None:
    """Raise the KeyboardInterrupt of a Ctrl-C that ``_defer_ctrl_c``'s handler noted, if one came."""
    if came:
        raise KeyboardInterrupt


def _restore_ctrl_c(usual: Any, came: list[int]) -> None:
    """Put Ctrl-C's handler back and raise the KeyboardInterrupt that ``_defer_ctrl_c`` held back, if one came."""
    if usual is not None:
        signal.signal(signal.SIGINT, usual)
    _raise_if_came(came)


#: How long the command waits at most on its pool's next result before it looks for a Ctrl-C.  Linux may hand the
#: terminal's SIGINT to one of the pool's threads; Python then only notes it (the main thread runs the handler when
#: it next takes the GIL), and a main thread blocked in a wait with no time limit never ran it (a sweep hung, its
#: workers busy for minutes, about 1 run in 8).
_WAKE_SECONDS = 0.25


#: Linux's ``prctl`` option that sends a process a signal when the thread that started it ends.
_PR_SET_PDEATHSIG = 1


def _quiet_worker(parent: int) -> None:
    """Leave Ctrl-C to the parent, which ends the pool (a worker's traceback would reach the terminal), and end with
    the parent (``parent``: its process id).

    On Linux the worker asks to be sent SIGTERM when the parent's thread that started it ends
    (``prctl(PR_SET_PDEATHSIG)``), so that however the parent goes - ended by the pool, or
    interrupted at a moment ``Pool.terminate`` does not cover - no worker outlives the command
    holding the terminal's pipes; a parent gone before the request ends the worker at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl: the pool's terminate only
            pass
    if os.getppid() != parent:
        os._exit(1)


