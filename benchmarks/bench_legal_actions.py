#!/usr/bin/env python3
"""Game.legal_actions on every example, each try on a state just built: CPU ms now and at a baseline, in one run.

Run on demand from the project root:   .venv/bin/python benchmarks/bench_legal_actions.py [--only t9a]

``bench_speed.py``'s ``legal_actions`` row shows only the slowest example; this shows each
one (issue 11: under 1 ms on every example).  Each version runs in a fresh process (this
tree's ``src`` on PYTHONPATH, then the baseline's, exported with ``git archive``); each
example is timed ``--tries`` times, every try on a new state built outside the timing
(nothing remembered helps), and the best try is shown: load on the machine only adds time.
The number of legal actions must be the same in both versions.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import child_json  # noqa: E402 - the benchmarks' own helpers, next to this script

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "db0b29e"


def child(only: str, tries: int) -> None:
    """Print {example: [best CPU seconds, number of legal actions]} as JSON, for the herohammer on PYTHONPATH."""
    from herohammer.game import Game
    from herohammer.scenario import read_data, state_from_data

    out: dict[str, list[float]] = {}
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        if only not in path.stem:
            continue
        try:
            data = read_data(path)
            games = [Game(state_from_data(data)) for _ in range(tries)]
        except ValueError:  # an example this version cannot read
            continue
        best, count = float("inf"), 0
        for game in games:
            t0 = time.process_time()
            count = len(game.legal_actions())
            best = min(best, time.process_time() - t0)
        out[path.stem] = [best, count]
    print(json.dumps(out))


def measure(src: Path, only: str, tries: int) -> dict[str, list[float]]:
    return child_json(__file__, src, ["--only", only, "--tries", str(tries)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--only", default="", help="the examples whose name contains this")
    parser.add_argument("--tries", type=int, default=5, help="tries per example, each on a new state (best kept)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.only, args.tries)
        return 0
    from rich.console import Console
    from rich.table import Table

    from baseline import export

    console = Console(width=120)
    console.print(f"[bold]legal_actions per example[/bold]: CPU ms, best of {args.tries} new states, now and at "
                  f"{args.baseline}, each version in a fresh process")
    with tempfile.TemporaryDirectory() as tmp:
        now = measure(ROOT / "src", args.only, args.tries)
        before = measure(export(args.baseline, Path(tmp)), args.only, args.tries)
    table = Table(title=f"Game.legal_actions on a new state (CPU ms; ratio = {args.baseline} / now)")
    for col in ("example", "now", "before", "ratio", "legal actions (now / before)"):
        table.add_column(col, justify="left" if col == "example" else "right")
    for name, (cpu, count) in now.items():
        old: Any = before.get(name)
        table.add_row(name, f"{cpu * 1000:.3f}", f"{old[0] * 1000:.3f}" if old else "-",
                      f"{old[0] / cpu:.1f}x" if old and cpu > 0 else "-",
                      f"{count:.0f} / {old[1]:.0f}" if old else f"{count:.0f} / -")
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
