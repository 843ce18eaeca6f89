#!/usr/bin/env python3
"""Time ``herohammer simulate --workers N``: wall and CPU seconds of a demo's runs on 1 and 2 local processes.

Run on demand from the project root:

    .venv/bin/python benchmarks/bench_workers.py [--runs 1000000] [--workers 1,2] [--method auto,engine]
                                                 [--demo demo_40k3_librarian.yaml]

Each row is one fresh ``herohammer simulate`` command (``--quiet --csv``, seed 1) in a child process:
wall-clock from start to exit, and the CPU seconds of the command and every worker it started
(``resource.getrusage(RUSAGE_CHILDREN)``, user + system).  ``none`` is the command without ``--workers``.
Before timing, the script checks that every ``--workers`` gives the CSV of the command without it, byte for
byte (the counts do not depend on the number of processes), so no row is fast by playing other runs.
The machine may be shared: the figures of one run, wall and CPU side by side, are what to read.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
DEMOS = ROOT / "src" / "herohammer" / "examples"


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Run ``herohammer argv`` in a child process; return (wall seconds, CPU seconds of it and its workers, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "herohammer", *argv], capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"herohammer {' '.join(argv)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main(argv: list[str] | None = None) -> int:
    """Time every (method, workers) pair and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000, help="runs per command")
    parser.add_argument("--workers", default="1,2", help="numbers of workers, comma-separated (none is always timed)")
    parser.add_argument("--method", default="auto,engine", help="methods, comma-separated")
    parser.add_argument("--demo", default="demo_40k3_librarian.yaml", help="a bundled demo's file name")
    parser.add_argument("--no-plain", action="store_true",
                        help="leave out the command without --workers (the first --workers is then the reference)")
    args = parser.parse_args(argv)
    scenario = str(DEMOS / args.demo)
    counts = [*([] if args.no_plain else [None]), *(int(w) for w in args.workers.split(","))]
    console = Console(width=120)
    table = Table(title=f"herohammer simulate {args.demo} --runs {args.runs:,} --seed 1, "
                        f"{len(os.sched_getaffinity(0))} cores")
    for col in ("method", "--workers", "wall s", "CPU s", "runs/s (wall)", f"vs {counts[0] or 'none'}"):
        table.add_column(col, justify="left" if col == "method" else "right")
    for method in args.method.split(","):
        base = ["simulate", scenario, "--runs", str(args.runs), "--seed", "1", "--method", method, "--quiet", "--csv"]
        plain_wall = 0.0
        plain_csv = ""
        for k, workers in enumerate(counts):
            wall, cpu, csv = timed(base + ([] if workers is None else ["--workers", str(workers)]))
            if k == 0:
                plain_wall, plain_csv = wall, csv
            elif csv != plain_csv:
                console.print(f"[red]{method}, --workers {workers}: not the counts of one process; aborting[/red]")
                return 1
            table.add_row(method, "none" if workers is None else str(workers), f"{wall:.2f}", f"{cpu:.2f}",
                          f"{args.runs / wall:,.0f}", f"{plain_wall / wall:.2f}x")
    console.print(table)
    console.print(f"Each row one fresh command (start-up included); CPU: the command and its workers. "
                  f"Python {sys.version.split()[0]}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
