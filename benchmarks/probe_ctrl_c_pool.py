"""Probe: Ctrl-C sent at many moments around ``sweep --workers N``'s pool start; count how the command ends.

Run on demand (not a test): ``python benchmarks/probe_ctrl_c_pool.py [TRIALS] [--workers N] [--fork]``.

``--fork`` (fast, ~0.1 s a trial): this interpreter loads the scenario once, then each trial forks a child that
makes itself a process group, takes Ctrl-C as a terminal's job does, and runs ``sweep._execute`` (the pool start
and the wait, with the imports a first pool start makes, as the command does); SIGINT goes to the child's group
an offset (0 to ``--spread`` seconds) after the child says it starts.  ``lost`` is a Ctrl-C taken inside a
finalizer (Python prints "Exception ignored ... KeyboardInterrupt" and goes on).

Without ``--fork``, each trial starts the sweep in a process group of its own (as a terminal's foreground job), waits for
its header, then for the pool's first worker to appear (``/proc``), and sends SIGINT to the whole group
after an offset drawn in turn from a spread of offsets around that moment (before it, too: an offset
counted from the header).  Outcomes: ``ok`` (exit 130 and the one line), ``went on`` (still running
``--patience`` seconds later: killed), ``other`` (any other exit or text), ``left`` (a worker outlived
the command).
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = str(ROOT / "examples" / "40k3_librarian_psychic.yaml")
LINE = "herohammer: interrupted; nothing was written"


def _group(group: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def _children(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().strip()
    except OSError:
        return ""


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def trial(offset: float, workers: int, patience: float, from_fork: bool) -> tuple[str, str]:
    argv = ["sweep", PSYCHIC, "--vary", "turn=1,2,3,4", "--method", "engine", "--runs", "200000", "--seed", "1",
            "--workers", str(workers)]
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="100"), preexec_fn=_default_ctrl_c)
    assert proc.stdout is not None
    try:
        proc.stdout.readline()  # the header
        if from_fork:
            deadline = time.monotonic() + 30
            while not _children(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
                pass  # spin: the first fork is the moment to hit
        end = time.monotonic() + offset
        while time.monotonic() < end:
            pass
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=patience)
        except subprocess.TimeoutExpired:
            return "went on", ""
        left = _group(proc.pid)
        if left:
            return "left", f"workers {left}"
        if proc.returncode == 130 and err.strip() == LINE:
            return "ok", ""
        return "other", f"exit {proc.returncode}: {err.strip()[-300:]!r}"
    finally:
        if proc.poll() is None or _group(proc.pid):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.communicate()


def fork_trials(trials: int, workers: int, patience: float, spread: float) -> collections.Counter[str]:
    from herohammer import sweep
    from herohammer.scenario import read_data
    from herohammer.simulate import prepare

    data = read_data(PSYCHIC)
    jobs: list[sweep.Job] = [(dict(data, turn=t), None, 200000, t, "engine", PSYCHIC) for t in (1, 2, 3, 4)]
    prepare(jobs[0][0], None, PSYCHIC)
    counts: collections.Counter[str] = collections.Counter()
    for i in range(trials):
        said, told = os.pipe()
        errors, erred = os.pipe()
        pid = os.fork()
        if pid == 0:  # the command: its own group, Ctrl-C raising KeyboardInterrupt, 130 when it does
            os.close(said)
            os.close(errors)
            os.dup2(erred, 2)
            os.setsid()
            signal.signal(signal.SIGINT, signal.default_int_handler)
            code = 0
            try:
                os.write(told, b"s")
                sweep._execute(jobs, workers, None, lambda n: None)
            except KeyboardInterrupt:
                code = 130
            finally:
                os._exit(code)
        os.close(told)
        os.close(erred)
        os.read(said, 1)
        os.close(said)
        offset = (i * 0.618034 % 1) * spread
        end = time.monotonic() + offset
        while time.monotonic() < end:
            pass
        os.killpg(pid, signal.SIGINT)
        start, status = time.monotonic(), None
        while time.monotonic() - start < patience:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.005)
        else:
            status = None
        left = bool(_group(pid))
        if left:
            os.killpg(pid, signal.SIGKILL)
        if status is None:
            os.waitpid(pid, 0)
        err = b""
        while chunk := os.read(errors, 65536):
            err += chunk
        os.close(errors)
        code = None if status is None else os.waitstatus_to_exitcode(status)
        what = ("ok" if code == 130 and not err else "lost" if b"Exception ignored" in err
                else "went on" if code is None else "left" if left else "other")
        counts[what] += 1
        if what != "ok":
            print(f"trial {i}: offset {offset * 1000:.1f} ms: {what}, exit {code}, "
                  f"stderr {err.decode()[-400:]!r}", flush=True)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("trials", type=int, nargs="?", default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--patience", type=float, default=10.0)
    parser.add_argument("--spread", type=float, default=0.030, help="offsets from 0 to this many seconds")
    parser.add_argument("--fork", action="store_true", help="trials forked from this interpreter (fast)")
    args = parser.parse_args()
    if args.fork:
        counts = fork_trials(args.trials, args.workers, args.patience, args.spread)
        print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())), f"of {args.trials}", flush=True)
        return
    counts = collections.Counter()
    for i in range(args.trials):
        from_fork = i % 4 != 3  # most trials aimed at the pool start, a quarter counted from the header
        offset = (i * 0.618034 % 1) * args.spread if from_fork else (i * 0.618034 % 1) * 0.3
        what, detail = trial(offset, args.workers, args.patience, from_fork)
        counts[what] += 1
        if what != "ok":
            print(f"trial {i}: offset {offset * 1000:.1f} ms from the {'first fork' if from_fork else 'header'}: "
                  f"{what} {detail}", flush=True)
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())), f"of {args.trials}", flush=True)


if __name__ == "__main__":
    main()
