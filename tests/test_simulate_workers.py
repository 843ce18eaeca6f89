"""``simulate --workers N``: the Monte Carlo runs on N local processes, the same counts for every N, one line for a
worker's error, and a Ctrl-C that ends every worker at once; a Dask sweep's Ctrl-C that stops the cluster's work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import herohammer.simulate as sim
from _cli import result_of, run
from _processes import interrupt_when, process_group
from herohammer import fastsim
from herohammer.errors import HerohammerError
from herohammer.scenario import read_data
from herohammer.simulate import prepare, simulate

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = str(ROOT / "examples" / "40k3_librarian_psychic.yaml")


def _counts(result: sim.SimulationResult) -> dict[Any, int]:
    return {outcome: count for outcome, count, _ in result.counts}


@pytest.mark.parametrize("method, runs", [("engine", 700), ("compiled", 5_000)])
def test_every_number_of_workers_gives_the_one_process_counts(monkeypatch: pytest.MonkeyPatch, method: str,
                                                              runs: int) -> None:
    """The engine's games and the compiled plan's draws keep the one-process stream: run ``i`` takes the ``i``-th
    number of the seed's stream whichever process plays it, so 1, 2 and 3 workers (chunks made small here, so that
    each worker takes several) give exactly the counts of a plain call."""
    monkeypatch.setattr(sim, "ENGINE_CHUNK", 64)
    monkeypatch.setattr(sim, "SAMPLE_CHUNK", 777)
    data = read_data(PSYCHIC)
    plain = simulate(data, runs, seed=11, method=method)
    assert len(_counts(plain)) > 1  # several outcomes: a stream moved by one draw would show
    for workers in (1, 2, 3):
        result = simulate(data, runs, seed=11, method=method, workers=workers)
        assert result.meta["method"] == method and result.workers == workers
        assert _counts(result) == _counts(plain), workers
        assert result.to_json() == plain.to_json()
    assert _counts(simulate(data, runs, seed=12, method=method, workers=2)) != _counts(plain)  # the seed matters


def test_shared_runs_in_chunks_give_the_same_answer_for_one_and_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """``auto`` with the compile refused (a budget of 1) plays its shared runs in chunks of ``SHARED_CHUNK``, each from
    (seed, chunk index): 1 and 2 workers give the same counts and the same statistics of how the steps were taken."""
    monkeypatch.setattr(sim, "SHARED_CHUNK", 150)
    data = read_data(PSYCHIC)
    one = simulate(data, 600, seed=3, max_compile_runs=1, workers=1)
    two = simulate(data, 600, seed=3, max_compile_runs=1, workers=2)
    assert one.meta["method"] == "engine" and one.meta["shared"]["drawn"] > 0
    assert _counts(one) == _counts(two) and one.to_json() == two.to_json()
    assert sum(_counts(one).values()) == 600


def test_a_process_s_memo_of_shared_steps_changes_nothing() -> None:
    """A worker's chunks reuse the steps it enumerated before (``sample_shared(memo=...)``) only where enumerating
    again gives the same: the counts and statistics are those of a call without the memo, for a chunk played first or
    after others (runs of 40 and 15: enumerated, then below the floor; 500: within a larger budget)."""
    state, driver, _ = prepare(read_data(PSYCHIC))
    memo: dict[Any, Any] = {}
    for runs, seed in ((40, 1), (15, 2), (500, 3), (40, 4)):
        fresh = fastsim.sample_shared(state, driver, runs, seed)
        remembered = fastsim.sample_shared(state, driver, runs, seed, memo=memo)
        assert remembered == fresh, runs
    assert memo  # the memo was filled, and used by the later calls


@pytest.mark.parametrize("value", ["0", "many", "-2", "1.5", ""])
def test_a_bad_number_of_workers_is_refused_naming_the_option(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", PSYCHIC, "--runs", "100", "--workers", value], capsys)
    assert code == 2 and out == ""
    assert "--workers must be a whole number from 1 to 1024 or auto" in err and repr(value) in err, err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if "error" in line]) == 1, err


@pytest.mark.parametrize("value", [0, "many", True, 2.0, -1])
def test_the_library_refuses_a_bad_number_of_workers(value: Any) -> None:
    with pytest.raises(HerohammerError, match=r"simulate: workers: expected a whole number from 1"):
        simulate(read_data(PSYCHIC), 10, seed=1, workers=value)


def test_auto_takes_the_cores_this_process_may_use(capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    code, out, err = run(["simulate", PSYCHIC, "--runs", "300", "--seed", "1", "--method", "engine",
                          "--workers", "auto"], capsys)
    assert code == 0, err
    assert f"on {cores} process{'es' * (cores != 1)}" in out
    assert simulate(read_data(PSYCHIC), 50, seed=1, method="engine", workers="auto").workers == cores


def test_the_table_says_the_enumeration_ran_in_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    demo = str(ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml")
    code, out, err = run(["simulate", demo, "--runs", "1000", "--seed", "1", "--workers", "2"], capsys)
    assert code == 0, err
    said = " ".join(out.split())
    assert "in one process: --workers shares out the draws only" in said and "on 2 processes" in said


def _fail(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("the dice rolled off the table")


def _die(*args: Any, **kwargs: Any) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("how, said", [
    (_fail, "herohammer: error: a worker process failed: RuntimeError: the dice rolled off the table"),
    (_die, "herohammer: error: a worker process (pid "),
])
def test_a_worker_that_fails_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         how: Any, said: str) -> None:
    """A worker's exception, or a worker killed (a pool that hands its chunk to no one would wait for ever), ends the
    command with one line and exit 2, naming a killed worker's signal, the other workers ended (the workers are forked
    after the patch, so they play it)."""
    from multiprocessing import active_children

    monkeypatch.setattr(sim, "run_engine_once", how)
    start = time.monotonic()
    code, out, err = run(["simulate", PSYCHIC, "--runs", "2000", "--seed", "1", "--method", "engine",
                          "--workers", "2", "--csv"], capsys)
    assert code == 2 and out == "" and time.monotonic() - start < 30
    assert err.startswith(said) and len(err.strip().splitlines()) == 1, err
    if how is _die:
        assert "ended unexpectedly (signal 9)" in err
    assert not active_children()


def test_json_is_the_same_for_every_number_of_workers(capsys: pytest.CaptureFixture[str]) -> None:
    answers = []
    for workers in ("1", "2"):
        code, out, err = run(["simulate", PSYCHIC, "--runs", "400", "--seed", "9", "--method", "engine", "--json",
                              "--workers", workers], capsys)
        assert code == 0, err
        answers.append(result_of(out))
    assert answers[0] == answers[1]


@pytest.mark.slow
def test_ctrl_c_ends_every_worker_at_once_with_130() -> None:
    """SIGINT to the process group (as Ctrl-C sends it) of ``simulate --workers 2`` busy with a million engine runs:
    exit 130 within a few seconds, one line, and no worker left."""
    argv = [sys.executable, "-m", "herohammer", "simulate", PSYCHIC, "--method", "engine", "--runs", "1000000",
            "--seed", "1", "--workers", "2"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1"),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    out, err, took = interrupt_when(
        proc, lambda: len([p for p, cpu in process_group(proc.pid).items() if p != proc.pid and cpu > 0.3]) >= 2,
        "the workers never got to work")  # both workers at work
    assert proc.returncode == 130, err
    assert err.strip() == "herohammer: interrupted; nothing was written", err
    assert took < 5, took
    time.sleep(0.2)
    assert not process_group(proc.pid), "a worker outlived the interrupted command"


def _executing(dask_worker: Any) -> int:
    return len(dask_worker.state.executing)


@pytest.mark.slow
def test_ctrl_c_during_a_dask_sweep_stops_the_cluster_s_work_at_once() -> None:
    """Ctrl-C during ``sweep --scheduler``: exit 130 with one line at once, and the variants the cluster had started
    stop within a few seconds (Dask cannot stop a started task: each variant watches whether its sweep still wants
    it, ``sweep.run_job_on_dask``), so the cluster is free for the next sweep."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as watch:
        argv = [sys.executable, "-m", "herohammer", "sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine",
                "--runs", "200000", "--seed", "1", "--scheduler", cluster.scheduler_address]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, cwd=ROOT, env=dict(os.environ, PYTHONFAULTHANDLER="1"),
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        out, err, took = interrupt_when(proc, lambda: sum(watch.run(_executing).values()) >= 2,  # one a worker
                                        "the cluster never started the variants", settle=0.5)
        sent = time.monotonic() - took  # when the Ctrl-C went
        assert proc.returncode == 130 and took < 5, (took, err)
        assert err.strip() == "herohammer: interrupted; nothing was written", err
        while sum(watch.run(_executing).values()) or watch.run_on_scheduler(lambda dask_scheduler: len(
                dask_scheduler.tasks)):
            # a variant of 200,000 engine runs plays for minutes (about 1.5 ms a run): stopping within 30 s is the
            # stop, with room for a loaded machine (10 s read 10.1 s beside three test suites)
            assert time.monotonic() - sent < 30, "the cluster went on with the dropped variants"
            time.sleep(0.2)
