"""``parallel.run_chunks`` on its own: results in the chunks' order, heard as they finish (or in order), and every
way a worker can fail said in one line with no worker left behind."""

from __future__ import annotations

import os
import signal
import time
from multiprocessing import active_children
from pathlib import Path
from typing import Any

import pytest

from herohammer.errors import HerohammerError
from herohammer import parallel
from herohammer.parallel import run_chunks


def _square(n: int) -> int:
    return n * n


def _second_first(chunk: tuple[int, str]) -> int:
    """Chunk 0 waits until the parent has heard chunk 1 (a file the parent's ``done`` leaves), so chunk 1 always
    finishes first: waiting only for chunk 1 to start its answer let chunk 0's arrive first on a loaded machine."""
    index, folder = chunk
    if index == 0:
        deadline = time.monotonic() + 60
        while not (Path(folder) / "heard-1").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    return index


def _unpicklable(n: int) -> Any:
    return lambda: n


def _exit_3(n: int) -> int:
    os._exit(3)


def _sigterm(n: int) -> int:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(60)
    return n


def _half_sent(n: int) -> int:
    """Write the head of an answer of a megabyte to the pipe, as ``Connection.send`` does, then die."""
    import gc
    from multiprocessing.connection import Connection

    pipe = next(obj for obj in gc.get_objects() if isinstance(obj, Connection) and not obj.closed)
    os.write(pipe.fileno(), (1 << 20).to_bytes(4, "big") + b"x" * 1000)
    os.kill(os.getpid(), signal.SIGKILL)
    return n


def _raises(n: int) -> int:
    raise ValueError("no dice\nrolled off the table")


def _setup_fails() -> None:
    raise RuntimeError("no scenario")


def test_a_setup_that_fails_is_one_line() -> None:
    with pytest.raises(HerohammerError, match=r"^a worker process failed: RuntimeError: no scenario$"):
        run_chunks(_square, [1, 2, 3], 2, setup=_setup_fails)
    assert not active_children()


def test_the_results_come_in_the_chunks_order_and_no_worker_is_left() -> None:
    heard: list[int] = []
    assert run_chunks(_square, list(range(20)), 3, lambda i, result: heard.append(i)) == [n * n for n in range(20)]
    assert sorted(heard) == list(range(20))
    assert not active_children()


def test_done_hears_each_chunk_as_it_finishes(tmp_path: Path) -> None:
    """A progress bar hears chunks as they finish (the second first here), the results still come in the chunks' order.
    (An ``ordered`` option, which no caller used, was taken out in session 32.)"""
    heard: list[int] = []

    def done(i: int, result: int) -> None:
        heard.append(i)
        (tmp_path / f"heard-{i}").touch()

    results = run_chunks(_second_first, [(0, str(tmp_path)), (1, str(tmp_path))], 2, done)
    assert results == [0, 1] and heard == [1, 0]


def test_no_chunks_start_no_worker_and_no_more_workers_than_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    fork = parallel._Pool.fork

    def counted(self: Any) -> None:
        forked.append(1)
        fork(self)

    monkeypatch.setattr(parallel._Pool, "fork", counted)
    assert run_chunks(_square, [], 2) == [] and not forked
    assert run_chunks(_square, [3, 4], 5) == [9, 16] and len(forked) == 2


@pytest.mark.parametrize("task, said", [
    (_unpicklable, r"^a worker process failed: (PicklingError|AttributeError): Can't pickle"),
    (_exit_3, r"^a worker process \(pid \d+\) ended unexpectedly \(exit code 3\); nothing was written$"),
    (_sigterm, r"^a worker process \(pid \d+\) ended unexpectedly \(signal 15\); nothing was written$"),
    (_half_sent, r"^a worker process \(pid \d+\) ended unexpectedly \(signal 9\); nothing was written$"),
    (_raises, r"^a worker process failed: ValueError: no dice; rolled off the table$"),
], ids=["unpicklable result", "exit code", "SIGTERM", "killed half way through its answer", "an exception"])
def test_a_worker_s_failure_is_one_line_and_no_worker_is_left(task: Any, said: str) -> None:
    """A result that cannot be pickled, a worker that exits, one ended by SIGTERM, one killed with half its answer
    sent (the command must not wait for the rest), an exception over two lines: each one line naming the worker."""
    with pytest.raises(HerohammerError, match=said) as caught:
        run_chunks(task, [1, 2, 3, 4], 2)
    assert len(str(caught.value).splitlines()) == 1 and caught.value.__cause__ is None
    assert not active_children()


def _in_a_daemon(answers: Any) -> None:
    try:
        run_chunks(_square, [1, 2], 2)
        answers.put("ran")
    except HerohammerError as exc:
        answers.put(str(exc))
    except BaseException as exc:  # noqa: BLE001 - what the test must not see
        answers.put(repr(exc))


def test_a_daemonic_process_is_refused_in_one_line() -> None:
    """multiprocessing lets no daemonic process start children, and says so with a bare AssertionError."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    daemon = context.Process(target=_in_a_daemon, args=(answers,), daemon=True)
    daemon.start()
    try:
        assert answers.get(timeout=60) == (
            "workers: this process is a daemonic multiprocessing process, which may start no worker processes; "
            "leave workers out here, or run from a process that is not a daemon")
    finally:
        daemon.join(10)
        if daemon.exitcode is None:
            daemon.kill()
            daemon.join()
