#!/usr/bin/env python3
"""Time ``herohammer simulate``: runs per second, compiled path against the plain engine, per scenario.

Run on demand from the project root:   .venv/bin/python benchmarks/bench_simulate.py [--runs N] [--engine-seconds S]

For every example scenario (``examples/*.yaml``) and every bundled demo, and for a
psychic test with Perils on its own, the script times:

* compiled: ``simulate(..., method="compiled")`` for N runs, *including* compiling the
  chance tree (the rules code enumerated once) - the figure a user sees;
* sampling only: the numpy draw of N runs from the compiled outcomes;
* engine: one ``Game`` per run with ``SeededDice`` (``method="engine"``), timed for
  about ``--engine-seconds`` seconds of runs - the plain engine, the baseline;

and prints the ratio compiled / engine.  Before timing, it checks that the compiled
exact probabilities of a scenario cover every outcome the engine produced, so the
fast path cannot be fast by skipping rules.  One core, wall-clock ``perf_counter``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from herohammer import fastsim
from herohammer.scenario import read_data
from herohammer.errors import HerohammerError
from herohammer.simulate import demo_files, prepare, read_demo, simulate

ROOT = Path(__file__).resolve().parents[1]

PSYCHIC: dict[str, Any] = {
    "ruleset": "40k3", "active": "red",
    "sides": {
        "red": [{"id": "librarian", "character": "independent", "rules": ["psyker"], "models": [
            {"name": "Librarian", "profile": "WS5 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+", "at": [10, 10]}]}],
        "blue": [{"id": "foe", "models": [{"name": "Foe", "profile": "WS3 BS3 S3 T3 W1 I3 A1 Ld7", "at": [50, 40]}]}],
    },
    "plan": [{"do": "psychic_test", "psyker": "librarian"}],
}


def scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Return (name, data) for the psychic test, every example and every bundled demo."""
    out: list[tuple[str, dict[str, Any]]] = [("psychic test with Perils (40k3, Ld9 T4 W1)", PSYCHIC)]
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        out.append((f"examples/{path.name}", read_data(path)))
    for name in demo_files():
        out.append((f"demo {name}", read_demo(name)[0]))
    return out


def time_engine(data: dict[str, Any], seconds: float) -> tuple[int, float]:
    """Run the plain engine for about ``seconds``; return (runs, elapsed)."""
    runs, elapsed, batch = 0, 0.0, 8
    while elapsed < seconds:
        t0 = time.perf_counter()
        simulate(data, batch, seed=runs + 1, method="engine")
        elapsed += time.perf_counter() - t0
        runs += batch
        batch = min(batch * 2, 4096)
    return runs, elapsed


def main(argv: list[str] | None = None) -> int:
    """Time every scenario and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000, help="runs for the compiled path")
    parser.add_argument("--engine-seconds", type=float, default=1.5, help="time budget per engine baseline")
    args = parser.parse_args(argv)
    console = Console(width=200)
    table = Table(title=f"herohammer simulate, {args.runs:,} runs per scenario, one core")
    for col in ("scenario", "policy", "outcomes", "compile s", "compiled runs/s", "sampling runs/s",
                "engine runs/s", "ratio"):
        table.add_column(col, justify="left" if col in ("scenario", "policy") else "right")
    for name, data in scenarios():
        state, driver, _ = prepare(data)
        try:
            check = simulate(data, 10, seed=1, method="compiled")
        except HerohammerError:  # the chance tree is too large to compile: the engine alone runs it
            runs, elapsed = time_engine(data, args.engine_seconds)
            table.add_row(name, driver.policy, "too many", "-", "-", "-", f"{runs / elapsed:,.0f}", "-")
            continue
        engine_check = simulate(data, 64, seed=1, method="engine")
        known = {o for o, _, _ in check.counts}
        missing = [o for o, c, _ in engine_check.counts if o not in known]
        if missing:
            console.print(f"[red]{name}: the engine produced an outcome the compiled tree lacks; aborting[/red]")
            return 1
        t0 = time.perf_counter()
        result = simulate(data, args.runs, seed=1, method="compiled")
        total = time.perf_counter() - t0
        compiled = fastsim.compile_plan(state, driver, 10**7)
        t0 = time.perf_counter()
        fastsim.sample_counts(compiled.probabilities, args.runs, seed=2)
        sampling = time.perf_counter() - t0
        runs, elapsed = time_engine(data, args.engine_seconds)
        engine_rate = runs / elapsed
        rate = args.runs / total
        table.add_row(name, driver.policy, str(result.meta["exact_outcomes"]),
                      f"{result.timing['compile_seconds']:.3f}", f"{rate:,.0f}", f"{args.runs / sampling:,.0f}",
                      f"{engine_rate:,.0f}", f"{rate / engine_rate:,.0f}x")
    console.print(table)
    console.print("compiled runs/s includes compiling the chance tree once; ratio = compiled / engine runs/s. "
                  f"Python {sys.version.split()[0]}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
