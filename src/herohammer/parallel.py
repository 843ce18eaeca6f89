"""Local worker processes for the simulator and sweeps: chunks of work on forked processes, one Ctrl-C ending them all.

``run_chunks`` forks its workers (``_Pool``), each with a pipe of its own, and hands each worker the index of its next
chunk as it answers the last: the chunks themselves are inherited by the fork, never sent.  The command waits on the
pipes and the workers' sentinels only, in its main thread, a quarter second at a time, so nothing in it can wait on
a worker that is gone.  Why not ``concurrent.futures`` or ``multiprocessing.Pool``: both feed their workers through
queues shared by all of them, guarded by locks that live across processes and served by helper threads, and each
left a Ctrl-C'd or failed command waiting for ever now and then (a Pool's ``terminate`` on its task queue's lock
under rule coverage; the executor twice in clean-clone CI, sessions 36 and 37).  Here a worker's pipe is its own,
and a worker that ends, however it ends, closes it: the command reads the end of the pipe and names the worker.

While the workers live a Ctrl-C is only noted and raised where the command can end (``_defer_ctrl_c``), the workers
are then ended at once (``_Pool.end``), and each worker asks Linux to end it with its parent (``_quiet_worker``), so
no worker outlives the command.  A worker's error comes back as one ``HerohammerError`` line (``_answer``).  A chunk
may say a line while it works (``tell``: a sweep's variant going to Monte Carlo), heard by the command at once
(``run_chunks``' ``told``), not with its result.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
               told: Callable[[int, str], None] | None = None) -> list[R]:
    """Run ``task`` on each chunk on ``workers`` processes (no more than there are chunks); return the results in the
    chunks' order.

    The workers are forked, so ``task``, ``setup``, ``setup_args`` and the chunks are inherited, not pickled (a
    compiled plan or a game state costs nothing to hand over); only the results travel back, pickled.
    ``setup(*setup_args)`` runs once in each worker as it starts.  ``done(i, result)`` hears each chunk as it
    finishes (a progress bar), in the order they finish; ``told(i, line)`` each line chunk ``i`` says while it works
    (``tell`` called in the worker), as it comes.  Ctrl-C ends every worker at once and raises
    KeyboardInterrupt here; a worker's error, or a worker's death, is raised as one ``HerohammerError``.
    """
    if not chunks:
        return []
    came: list[int] = []
    usual = _defer_ctrl_c(came)  # until the workers have ended, a Ctrl-C is only noted, then raised where it is safe
    pool: _Pool | None = None
    try:
        # the first import of multiprocessing (module locks' callbacks, in which a Ctrl-C would be lost) comes once
        # Ctrl-C is only noted
        import multiprocessing

        if multiprocessing.current_process().daemon:  # multiprocessing's own refusal is a bare AssertionError
            raise HerohammerError("workers: this process is a daemonic multiprocessing process, which may start "
                                  "no worker processes; leave workers out here, or run from a process that is "
                                  "not a daemon")
        pool = _Pool(task, chunks, setup, setup_args)
        for _ in range(min(workers, len(chunks))):
            pool.fork()
            _raise_if_came(came)
        return pool.run(done, came, told)
    finally:  # done, failed, or Ctrl-C at any point: every worker is ended and reaped before the command goes on
        try:
            if pool is not None:
                pool.end()
        finally:
            _restore_ctrl_c(usual, came)  # a Ctrl-C noted meanwhile is raised now that the workers have ended


#: How long a worker sent SIGTERM (``_Pool.end``), or told to stop, may take to end before it is killed.
TERMINATE_SECONDS = 2.0


@dataclass
class _Worker:
    """One forked worker: its process, the command's end of its pipe, and the chunk it works on (None: idle)."""

    process: Any
    pipe: Any
    chunk: int | None = None


class _Pool:
    """The workers of one ``run_chunks``: forked one by one, handed chunk indices, heard, ended."""

    def __init__(self, task: Callable[[Any], Any], chunks: Sequence[Any], setup: Callable[..., None] | None,
                 setup_args: tuple[Any, ...]) -> None:
        import multiprocessing

        self.context = multiprocessing.get_context("fork")
        self.task, self.chunks, self.setup, self.setup_args = task, chunks, setup, setup_args
        self.workers: list[_Worker] = []
        self.next_chunk = 0
        self.finished = False

    def fork(self) -> None:
        """Start one worker.  It closes the command's ends of the pipes, its own and those of the workers forked before
        it, which it inherits, so that each worker's end is held by that worker alone and closes when it ends."""
        mine, theirs = self.context.Pipe()
        others = [*(worker.pipe for worker in self.workers), mine]
        process = self.context.Process(target=_work, daemon=True,
                                       args=(theirs, others, os.getpid(), self.task, self.chunks, self.setup,
                                             self.setup_args))
        self.workers.append(_Worker(process, mine))
        process.start()
        theirs.close()

    def run(self, done: Callable[[int, Any], None] | None, came: list[int],
            told: Callable[[int, str], None] | None = None) -> list[Any]:
        """Hand out every chunk and hear every result (and every line a chunk tells on the way, ``told``); return the
        results in the chunks' order."""
        from multiprocessing.connection import wait

        results: dict[int, Any] = {}
        for worker in self.workers:
            self._hand_out(worker)
        while len(results) < len(self.chunks):
            busy = [worker for worker in self.workers if worker.chunk is not None]
            ready = set(wait([*(w.pipe for w in busy), *(w.process.sentinel for w in busy)], _WAKE_SECONDS))
            _raise_if_came(came)
            for worker in busy:
                if worker.pipe in ready or worker.process.sentinel in ready:
                    heard = self._hear(worker)
                    if isinstance(heard, str):  # a line said on the way: the chunk works on
                        if told is not None and worker.chunk is not None:
                            told(worker.chunk, heard)
                        _raise_if_came(came)
                        continue
                    index, result = heard
                    results[index] = result
                    self._hand_out(worker)
                    if done is not None:
                        done(index, result)
                    _raise_if_came(came)
        self.finished = True
        return [results[i] for i in range(len(self.chunks))]

    def _hand_out(self, worker: _Worker) -> None:
        """Give ``worker`` the next chunk's index, if a chunk is left."""
        if self.next_chunk >= len(self.chunks):
            return
        try:
            worker.pipe.send(self.next_chunk)
        except OSError:  # its end of the pipe is closed: it has ended
            raise HerohammerError(self._ended(worker)) from None
        worker.chunk = self.next_chunk
        self.next_chunk += 1

    def _hear(self, worker: _Worker) -> tuple[int, Any] | str:
        """Return the chunk index and result a worker sent, or a line its chunk told (``tell``); raise its error, or its
        end, as one line."""
        assert worker.chunk is not None
        try:
            if not worker.pipe.poll():  # its sentinel only: it ended and its pipe holds nothing
                raise EOFError
            ok, answer = worker.pipe.recv()
        except (EOFError, OSError):  # it ended (killed, out of memory, exited) before its answer was whole
            raise HerohammerError(self._ended(worker)) from None
        if ok is None:
            return str(answer)
        if not ok:
            raise HerohammerError(answer)
        index, worker.chunk = worker.chunk, None
        return index, answer

    def _ended(self, worker: _Worker) -> str:
        """Name a worker that ended before its answer, and how, once it is reaped."""
        process = worker.process
        process.join(TERMINATE_SECONDS)
        if process.exitcode is None:  # pragma: no cover - its pipe closed, yet it lives: end it
            process.kill()
            process.join()
        code = process.exitcode
        how = f"signal {-code}" if code < 0 else f"exit code {code}"
        return f"a worker process (pid {process.pid}) ended unexpectedly ({how}); nothing was written"

    def end(self) -> None:
        """End every worker and reap it: told to stop when every chunk is done, else (an error, a Ctrl-C) sent SIGTERM
        at once; SIGKILL past ``TERMINATE_SECONDS``."""
        started = [worker for worker in self.workers if worker.process.pid is not None]
        for worker in started:
            if self.finished:
                try:
                    worker.pipe.send(None)
                except OSError:  # it has ended already
                    pass
            elif worker.process.exitcode is None:
                worker.process.terminate()
        for worker in started:
            worker.process.join(TERMINATE_SECONDS)
            if worker.process.exitcode is None:  # pragma: no cover - a worker that outlived its word or SIGTERM
                worker.process.kill()
                worker.process.join()
        for worker in self.workers:
            worker.pipe.close()


def _work(pipe: Any, others: list[Any], parent: int, task: Callable[[Any], Any], chunks: Sequence[Any],
          setup: Callable[..., None] | None, setup_args: tuple[Any, ...]) -> None:
    """A worker's life: quiet to Ctrl-C and ended with its parent (``_quiet_worker``), ``setup``, then each chunk
    index heard answered with ``(True, result)`` or ``(False, one line)`` (``(None, line)`` before it: a line told,
    ``tell``), until told to stop (None)."""
    global _TELLING
    _quiet_worker(parent)
    for other in others:
        other.close()
    _TELLING = pipe
    failed = None
    if setup is not None:
        try:
            setup(*setup_args)
        except Exception as exc:  # every chunk is answered with it: the command says it once
            failed = (False, _said(exc))
    try:
        while (index := pipe.recv()) is not None:
            answer = failed or _answer(task, chunks[index])
            try:
                pipe.send(answer)
            except Exception as exc:  # a result that cannot be pickled: nothing was sent
                pipe.send((False, _said(exc)))
    except (EOFError, OSError):  # the command has gone
        pass


#: This worker's end of its pipe (``_work``); None in the command itself.
_TELLING: Any = None


def tell(line: str) -> None:
    """Say a line from the chunk being worked on: sent to the command at once, heard by ``run_chunks``' ``told``;
    outside a worker, nothing (the caller's own process says it as it wishes)."""
    if _TELLING is not None:
        _TELLING.send((None, line))


def _answer(task: Callable[[Any], Any], chunk: Any) -> tuple[bool, Any]:
    """Run one chunk in a worker; an error becomes one line (its traceback would say nothing a user can act on)."""
    try:
        return True, task(chunk)
    except Exception as exc:
        return False, _said(exc)


def _said(exc: Exception) -> str:
    """A worker's error in one line: a ``HerohammerError`` as the one process would say it, else its kind too."""
    if isinstance(exc, HerohammerError):
        return _one_line(str(exc))
    return f"a worker process failed: {type(exc).__name__}: {_one_line(str(exc))}"


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


#: How long the command waits at most on its workers' next answer before it looks for a Ctrl-C.  Linux may hand the
#: terminal's SIGINT to another of the command's threads (a progress bar's); Python then only notes it (the main thread
#: runs the handler when it next takes the GIL), and a main thread blocked in a wait with no time limit never ran it
#: (a sweep hung, its workers busy for minutes, about 1 run in 8, when a pool's own threads took it).
_WAKE_SECONDS = 0.25


#: Linux's ``prctl`` option that sends a process a signal when the thread that started it ends.
_PR_SET_PDEATHSIG = 1


def _quiet_worker(parent: int) -> None:
    """Leave Ctrl-C to the parent, which ends the workers (a worker's traceback would reach the terminal), and end
    with the parent (``parent``: its process id).

    On Linux the worker asks to be sent SIGTERM when the parent's thread that started it ends
    (``prctl(PR_SET_PDEATHSIG)``; ``run_chunks`` forks its workers from the thread that calls it), so
    that however the parent goes - ended by ``run_chunks``, or killed outright - no worker outlives the command
    holding the terminal's pipes; a parent gone before the request ends the worker at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl: ``_Pool.end`` only
            pass
    if os.getppid() != parent:
        os._exit(1)


