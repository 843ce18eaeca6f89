"""Local worker processes for the simulator and sweeps: chunks of work on forked processes, one Ctrl-C ending them all.

``run_chunks`` hands each chunk to a worker of a ``concurrent.futures.ProcessPoolExecutor`` and hears each result as
it comes.  While the workers live a Ctrl-C is only noted and raised where the command can end (``_defer_ctrl_c``),
the workers are then ended at once (``_end_workers``), and each worker asks Linux to end it with its parent
(``_quiet_worker``), so no worker outlives the command.  A worker's error comes back as one ``HerohammerError`` line
(``_run_one``); a worker that dies (killed, out of memory) breaks the executor, which fails every chunk left rather
than wait on it, and is named with its signal (``_ended_unexpectedly``).
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
               setup: Callable[..., None] | None = None, setup_args: tuple[Any, ...] = ()) -> list[R]:
    """Run ``task`` on each chunk on ``workers`` processes; return the results in the chunks' order.

    ``task`` and ``setup`` are module-level functions (the executor pickles them by name); ``setup(*setup_args)`` runs
    once in each worker as it starts (the workers are forked, so ``setup_args`` are inherited, not pickled: a compiled
    plan or a game state costs nothing to hand over).  ``done(i, result)`` hears each chunk as it finishes (a progress
    bar), in the order they finish.  Ctrl-C ends every worker at once and
    raises KeyboardInterrupt here; a worker's error, or a worker's death, is raised as one ``HerohammerError``.
    """
    if not chunks:
        return []
    results: dict[int, R] = {}
    executor = None
    processes: list[Any] = []
    finished = False
    came: list[int] = []
    usual = _defer_ctrl_c(came)  # until the workers have ended, a Ctrl-C is only noted, then raised where it is safe
    try:
        try:
            # their first import (module locks' callbacks, in which a Ctrl-C would be lost), once Ctrl-C is only noted
            import multiprocessing
            import queue
            from concurrent.futures import Future, ProcessPoolExecutor

            if multiprocessing.current_process().daemon:  # multiprocessing's own refusal is a bare AssertionError
                raise HerohammerError("workers: this process is a daemonic multiprocessing process, which may start "
                                      "no worker processes; leave workers out here, or run from a process that is "
                                      "not a daemon")
            executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                           initializer=_start_worker, initargs=(os.getpid(), setup, setup_args))
            heard: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()  # futures as they finish, in that order
            index: dict[Future[Any], int] = {}
            for i, chunk in enumerate(chunks):
                future = executor.submit(_run_one, task, chunk)  # the first forks every worker, from this thread
                index[future] = i
                future.add_done_callback(heard.put)
                processes = processes or list(executor._processes.values())
            _raise_if_came(came)
            while len(results) < len(chunks):
                try:
                    future = heard.get(timeout=_WAKE_SECONDS)
                except queue.Empty:  # nothing finished yet: wake to take a Ctrl-C that Python only noted
                    _raise_if_came(came)
                    continue
                i = index[future]
                results[i] = _result_of(future)
                if done is not None:
                    done(i, results[i])
                _raise_if_came(came)
            finished = True
        finally:  # done, failed, or Ctrl-C at any point once the executor stands: end its workers
            if executor is not None:
                _end_workers(executor, processes, at_once=not finished)
    except _WorkerEnded:  # said once every worker is reaped: their exit codes are known then
        raise HerohammerError(_ended_unexpectedly(processes)) from None
    finally:
        _restore_ctrl_c(usual, came)  # a Ctrl-C noted meanwhile is raised now that the workers have ended
    return [results[i] for i in range(len(chunks))]


#: How long a worker sent SIGTERM (``_end_workers``) may take to end before it is killed.
TERMINATE_SECONDS = 2.0


def _end_workers(executor: Any, processes: list[Any], at_once: bool) -> None:
    """Shut ``executor`` down; with ``at_once`` (an error, a Ctrl-C, a failed start) end its workers first.

    Its workers are sent SIGTERM, and SIGKILL past ``TERMINATE_SECONDS``, and reaped; the executor's own thread then
    sees them gone, marks it broken, closes its queues and ends (the path it takes for a worker that died), so the
    shutdown waits on nothing that is still running.  Without ``at_once`` every chunk is done and the idle workers
    end on the executor's word.
    """
    if at_once:
        started = {id(process): process for process in [*processes, *(executor._processes or {}).values()]}
        for process in started.values():
            if process.exitcode is None:
                process.terminate()
        for process in started.values():
            process.join(TERMINATE_SECONDS)
            if process.exitcode is None:  # pragma: no cover - a worker that outlived SIGTERM
                process.kill()
                process.join()
    executor.shutdown(wait=True, cancel_futures=True)


class _WorkerEnded(Exception):
    """A worker ended while chunks were left (the executor's ``BrokenProcessPool``)."""


def _result_of(future: Any) -> Any:
    """Return a finished chunk's result; raise its failure as one ``HerohammerError`` line, or ``_WorkerEnded``."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except HerohammerError as exc:  # the worker's one line (``_run_one``), without the executor's remote traceback
        raise HerohammerError(str(exc)) from None
    except BrokenProcessPool:  # a worker ended (a signal, the kernel's out-of-memory killer)
        raise _WorkerEnded from None
    except Exception as exc:  # a result the executor could not send back, or a chunk it could not send
        raise HerohammerError(f"a worker process failed: {type(exc).__name__}: {_one_line(str(exc))}") from None


def _ended_unexpectedly(processes: Sequence[Any]) -> str:
    """Name the worker that ended, and how, once the executor said one did and every worker is reaped.

    The executor ends the other workers with SIGTERM as soon as it sees one gone, so a worker that ended otherwise is
    the one; else, a single worker ended by SIGTERM is; else only the signal is known.  (Read after the executor's
    shutdown: until its thread has reaped a worker, a ``Process.exitcode`` read here may say None.)
    """
    ended = [process for process in processes if process.exitcode is not None]
    own = [process for process in ended if process.exitcode != -signal.SIGTERM]
    named = own[:1] or (ended if len(ended) == 1 else [])
    if named:
        code = named[0].exitcode
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        return f"a worker process (pid {named[0].pid}) ended unexpectedly ({how}); nothing was written"
    if ended:
        return f"a worker process ended unexpectedly (signal {int(signal.SIGTERM)}); nothing was written"
    return "a worker process ended unexpectedly; nothing was written"


def _start_worker(parent: int, setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    """Start a worker: quiet to Ctrl-C and ended with its parent (``_quiet_worker``), then ``setup``."""
    _quiet_worker(parent)
    if setup is not None:
        setup(*setup_args)


def _run_one(task: Callable[[Any], Any], chunk: Any) -> Any:
    """Run one chunk in a worker; turn any error into one ``HerohammerError`` line (its traceback, sent back with the
    executor's machinery around it, would say nothing a user can act on)."""
    try:
        return task(chunk)
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
    "Exception ignored" and lost: the sweep went on.  While the workers live (the imports, their start, the wait on
    their results, their end) the handler only notes the Ctrl-C, and ``_raise_if_came`` raises it where the command
    can end.
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


#: How long the command waits at most on its workers' next result before it looks for a Ctrl-C.  Linux may hand the
#: terminal's SIGINT to one of the executor's threads; Python then only notes it (the main thread runs the handler when
#: it next takes the GIL), and a main thread blocked in a wait with no time limit never ran it (a sweep hung, its
#: workers busy for minutes, about 1 run in 8).
_WAKE_SECONDS = 0.25


#: Linux's ``prctl`` option that sends a process a signal when the thread that started it ends.
_PR_SET_PDEATHSIG = 1


def _quiet_worker(parent: int) -> None:
    """Leave Ctrl-C to the parent, which ends the workers (a worker's traceback would reach the terminal), and end
    with the parent (``parent``: its process id).

    On Linux the worker asks to be sent SIGTERM when the parent's thread that started it ends
    (``prctl(PR_SET_PDEATHSIG)``; the executor forks its workers from the thread that submits the first chunk), so
    that however the parent goes - ended by ``run_chunks``, or killed outright - no worker outlives the command
    holding the terminal's pipes; a parent gone before the request ends the worker at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl: ``_end_workers`` only
            pass
    if os.getppid() != parent:
        os._exit(1)


