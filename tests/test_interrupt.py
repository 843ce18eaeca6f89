"""Ctrl-C during a long command: exit 130 with one line, no traceback, no worker left behind (issue 14).

Each command runs in its own process group, as from a terminal; once it is busy (its header printed, a second of
CPU spent, a sweep's workers at work) the whole group gets SIGINT, as Ctrl-C sends it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from _processes import process_group, stuck_report

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = str(ROOT / "examples" / "40k3_librarian_psychic.yaml")


def _at_work(group: int) -> dict[int, float]:
    """Return the worker processes of a command's process group that have started working (0.2 s of CPU or more)."""
    return {p: c for p, c in process_group(group).items() if p != group and c > 0.2}


def _sweep_at_work() -> tuple[subprocess.Popen[str], dict[int, float]]:
    """Start ``sweep --workers 2`` (each variant takes minutes) in a process group of its own, as from a terminal;
    return it once both workers work, with their CPU seconds (the group is killed if they never do)."""
    argv = ["sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine", "--runs", "200000", "--seed", "1",
            "--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"), preexec_fn=_as_in_a_terminal)
    deadline = time.monotonic() + 120
    while len(busy := _at_work(proc.pid)) < 2:
        if proc.poll() is not None or time.monotonic() > deadline:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise AssertionError("the workers never got to work")
        time.sleep(0.05)
    return proc, busy


def _as_in_a_terminal() -> None:
    """Give the child Ctrl-C's default handling, as a shell's foreground job has.

    A test runner started in the background (``cmd &`` without job control) inherits
    SIGINT ignored, and Python then never raises KeyboardInterrupt in the child.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(argv: list[str], header: str | None) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="100", PYTHONFAULTHANDLER="1")
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env, cwd=ROOT,
                            preexec_fn=_as_in_a_terminal)
    assert proc.stdout is not None
    try:
        if header is not None:  # wait on what it shows: its header, printed before the work (odds: its 2nd line)
            lines = [proc.stdout.readline()]
            while header not in lines[-1] and lines[-1] and len(lines) < 3:
                lines.append(proc.stdout.readline())
            assert header in lines[-1], lines
        deadline = time.monotonic() + 120
        workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 0
        while sum(process_group(proc.pid).values()) < 1.0 or len(_at_work(proc.pid)) < workers:  # busy for a second of
            # CPU (the imports take less), and its workers at work
            assert proc.poll() is None, "the command ended before it could be interrupted"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # say where it is stuck, for the next look at it
            raise AssertionError(f"no end within 60 s after Ctrl-C\n{stuck_report(proc)}") from None
        assert not process_group(proc.pid), "a worker outlived the interrupted command"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out, err


@pytest.mark.slow
@pytest.mark.parametrize("argv, header", [
    (["simulate", PSYCHIC, "--method", "engine", "--runs", "1000000", "--seed", "1"], None),
    (["odds", "action", PSYCHIC, "--action", '{"do": "shoot", "unit": "tactical", "target": "boyz"}',
      "--max-branches", "1", "--runs", "1000000"], "Monte Carlo with 1,000,000 runs"),
    (["sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine", "--runs", "200000", "--seed", "1"],
     "4 variants x 200,000 runs"),
    (["sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine", "--runs", "200000", "--seed", "1",
      "--workers", "2"], "4 variants x 200,000 runs"),
], ids=["simulate", "odds action", "sweep", "sweep --workers 2"])
def test_ctrl_c_stops_a_long_command_with_one_line_and_exit_130(argv: list[str], header: str | None) -> None:
    code, out, err = _interrupted(argv, header)
    assert code == 130, (code, err)
    assert err.strip() == "herohammer: interrupted; nothing was written", err



def _workers_left_by_an_interrupted_execute(jobs: list[Any], progress: Any) -> list[Any]:
    """Run ``sweep._execute`` on 2 workers with Ctrl-C raising KeyboardInterrupt, as on a terminal, and expect it to
    end by that KeyboardInterrupt with Ctrl-C's handler put back; return the workers still alive then (ended after)."""
    from multiprocessing import active_children

    from herohammer import sweep

    usual = signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal, whatever ran the tests
    try:
        with pytest.raises(KeyboardInterrupt):
            sweep._execute(jobs, 2, None, progress)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C's handler put back
        return active_children()
    finally:
        signal.signal(signal.SIGINT, usual)
        for p in active_children():
            p.terminate()


def test_a_ctrl_c_while_the_pool_starts_leaves_no_worker_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that lands while ``sweep --workers`` forks its workers (between two forks, as a loaded machine makes
    likely) is raised before the next fork, and the worker already forked ends: a pool that cleaned up a failed start
    on ``Exception`` only once left the first worker waiting for work, holding the terminal's pipes."""
    from herohammer import parallel, sweep
    from herohammer.scenario import read_data

    fork = parallel._Pool.fork
    forks: list[int] = []

    def fork_then_ctrl_c(self: Any) -> None:
        fork(self)
        forks.append(1)
        if len(forks) == 1:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the Ctrl-C arrives here, before the second worker is forked

    monkeypatch.setattr(parallel._Pool, "fork", fork_then_ctrl_c)
    data = read_data(PSYCHIC)
    jobs: list[sweep.Job] = [(dict(data, turn=t), None, 20, t, "engine", PSYCHIC) for t in (1, 2, 3, 4)]
    left = _workers_left_by_an_interrupted_execute(jobs, lambda n: None)
    assert len(forks) == 1, "the Ctrl-C should be raised before the second worker is forked"
    assert not left, f"workers outlived the interrupted start: {left}"


@pytest.mark.slow
def test_a_sweep_worker_ends_with_its_parent_however_the_parent_goes() -> None:
    """``sweep --workers``: a worker asks Linux to end it when its parent ends (``parallel._quiet_worker``), so no
    worker is left holding the terminal's pipes however the parent goes: here the parent is killed outright, with no
    chance to end them, and its busy workers (each variant takes minutes) must go with it."""
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    proc, busy = _sweep_at_work()
    try:
        proc.kill()
        proc.communicate(timeout=60)  # the pipes close once every worker has ended
        deadline = time.monotonic() + 10
        while process_group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not process_group(proc.pid), f"workers outlived their parent: {busy}"
    finally:
        if process_group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _sleep(n: int) -> int:
    time.sleep(60)
    return n


def test_a_ctrl_c_that_lands_on_another_thread_still_stops_the_workers() -> None:
    """Linux hands a process's SIGINT to any of its threads (a progress bar's, say); Python then only notes it, and a
    main thread waiting on the next result with no time limit never raised it: a sweep ran on, its workers busy for
    minutes (about 1 run in 8, when a pool's own threads took it).  ``run_chunks`` waits a quarter second at a time
    (``parallel._WAKE_SECONDS``); here the Ctrl-C is sent to another thread on purpose, as the workers sleep a
    minute."""
    from multiprocessing import active_children

    from herohammer.parallel import run_chunks

    def ctrl_c_to_this_thread() -> None:
        time.sleep(0.5)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    usual = signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal, whatever ran the tests
    other = threading.Thread(target=ctrl_c_to_this_thread)
    try:
        other.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            run_chunks(_sleep, [1, 2, 3, 4], 2)
        assert time.monotonic() - started < 30, "the workers' minute ran out before the Ctrl-C was heard"
        assert not active_children()
    finally:
        other.join()
        signal.signal(signal.SIGINT, usual)


#: Run as ``python -c``: the console script, with the import of ``herohammer.errors`` (one of the command line's own
#: imports) held until a Ctrl-C comes, so the interrupt lands while the command line loads, every time.
_HELD_IMPORT = """
import sys, time

class HoldErrors:
    def find_spec(self, name, path=None, target=None):
        if name == "herohammer.errors":
            print("loading", flush=True)
            time.sleep(60)
        return None

sys.meta_path.insert(0, HoldErrors())
from herohammer.console import main
sys.exit(main())
"""


def _killed_if_running(proc: subprocess.Popen[str]) -> None:
    """End a command's whole process group if it still runs (a failed test leaves nothing behind)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def _assert_ended_by_ctrl_c(proc: subprocess.Popen[str], out: str, err: str) -> None:
    """A command ended by Ctrl-C: exit 130 and the one line, no traceback."""
    assert proc.returncode == 130, err
    assert err == "herohammer: interrupted; nothing was written\n"
    assert "Traceback" not in out + err


@pytest.mark.parametrize("argv", [["--version"], ["simulate"]])
def test_a_ctrl_c_while_the_command_line_loads_ends_with_one_line_and_130(argv: list[str]) -> None:
    """Before the console script caught it, a Ctrl-C in the command line's own imports (the first tenth of a second
    of any command) ended the process by SIGINT with Python's traceback."""
    proc = subprocess.Popen([sys.executable, "-c", _HELD_IMPORT, *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT,
                            preexec_fn=_as_in_a_terminal)
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline() == "loading\n"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        _killed_if_running(proc)
    _assert_ended_by_ctrl_c(proc, out, err)


#: Run as ``python -c``: the console script with ``sweep --workers``'s first import of ``multiprocessing`` (made where
#: the workers start) held in a finalizer, as an import's module lock runs its weakref callback there, until the test
#: says go on (a line on stdin): the Ctrl-C sent meanwhile is taken inside the finalizer, every time.
_HELD_IN_A_FINALIZER = """
import sys

class HeldThere:
    def __del__(self):
        print("starting the workers", flush=True)
        sys.stdin.readline()

class HoldTheFirstImport:
    def find_spec(self, name, path=None, target=None):
        if name == "multiprocessing":
            sys.meta_path.remove(self)
            HeldThere()  # dropped at once: its finalizer runs here
        return None

sys.meta_path.insert(0, HoldTheFirstImport())
from herohammer.console import main
sys.exit(main())
"""


def test_a_ctrl_c_taken_in_a_finalizer_while_the_pool_starts_still_ends_the_sweep() -> None:
    """Python runs a Ctrl-C's handler wherever the main thread is when it looks, a finalizer or weakref callback too
    (each import's module lock has one, and ``sweep --workers`` imports ``multiprocessing`` as its workers start), and a
    KeyboardInterrupt raised there is printed as "Exception ignored" and lost: the sweep went on for minutes (the
    probe ``benchmarks/probe_ctrl_c_pool.py --fork`` saw it about once in 150 Ctrl-Cs sent around the start).  While
    the workers live its handler now only notes a Ctrl-C, raised once they stand."""
    argv = ["sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine", "--runs", "200000", "--seed", "1",
            "--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-c", _HELD_IN_A_FINALIZER, *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=ROOT, preexec_fn=_as_in_a_terminal)
    assert proc.stdout is not None and proc.stdin is not None
    try:
        lines = [proc.stdout.readline()]
        while lines[-1] and lines[-1] != "starting the workers\n":
            lines.append(proc.stdout.readline())
        assert lines[-1] == "starting the workers\n", lines
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.2)  # taken in the finalizer, blocked reading its stdin
        out, err = proc.communicate("go on\n", timeout=30)
    except subprocess.TimeoutExpired:
        raise AssertionError("the sweep went on after its Ctrl-C") from None
    finally:
        _killed_if_running(proc)
    _assert_ended_by_ctrl_c(proc, out, err)
    assert not process_group(proc.pid), "a worker outlived the interrupted command"


def test_a_ctrl_c_taken_in_a_finalizer_while_the_sweep_waits_on_its_pool_is_raised() -> None:
    """The same loss once the workers stand: a Ctrl-C taken in a finalizer between two results (here one dropped by the
    progress callback, in which the Ctrl-C comes) ends ``sweep._execute`` with KeyboardInterrupt, its workers
    ended."""
    from herohammer import sweep
    from herohammer.scenario import read_data

    data = read_data(PSYCHIC)
    jobs: list[sweep.Job] = [(dict(data, turn=t), None, 20, t, "engine", PSYCHIC) for t in (1, 2, 3, 4)]
    seen: list[int] = []

    class CtrlCInHere:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # its handler runs here, inside the finalizer
            seen.append(1)

    def progress(n: int) -> None:
        CtrlCInHere()

    left = _workers_left_by_an_interrupted_execute(jobs, progress)
    assert seen == [1], "the Ctrl-C should come once, with the first result"
    assert not left, f"workers outlived the interrupted sweep: {left}"
