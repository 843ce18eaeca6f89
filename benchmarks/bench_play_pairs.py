#!/usr/bin/env python3
"""Game.apply + undo on the states play meets: CPU ms per pair by action kind, now and at a baseline, in one run.

Run on demand from the project root:   .venv/bin/python benchmarks/bench_play_pairs.py [--walks 8] [--steps 40]

``bench_speed.py`` times apply + undo on a state just built (nothing remembered helps) and on the same
game again (everything does).  Play sits between: a state reached by an action shares every unit the
action did not touch, and what was remembered about them.  This walks seeded random games from every
40k example (``legal_actions`` asked first, as a player or a bot does; one of them picked by a seeded
``random.Random``), applies and undoes each picked action once under the timer, then applies it and
walks on.  The walks of the two versions part where their rules differ, so the kinds' counts differ a
little; the figures are the mean and the median per pair of each kind (the mean counts a full collection of
the garbage collector where it falls: one in a kind of a few pairs makes its mean; the median does not).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import child_json  # noqa: E402 - the benchmarks' own helpers, next to this script

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "db0b29e"


def child(walks: int, steps: int) -> None:
    """Print {kind: [pairs, mean CPU seconds per pair, median]} as JSON, for the herohammer on PYTHONPATH."""
    from herohammer.dice import SeededDice
    from herohammer.game import Game
    from herohammer.scenario import read_data, state_from_data

    spent: dict[str, list[float]] = defaultdict(list)
    for path in sorted((ROOT / "examples").glob("40k*.yaml")):
        data = read_data(path)
        for seed in range(walks):
            pick = random.Random(seed)
            game = Game(state_from_data(data), SeededDice(seed))
            for _ in range(steps):
                actions = game.legal_actions()
                if not actions:
                    break
                action = pick.choice(actions)
                began = time.process_time()
                game.apply(action)
                game.undo()
                spent[action.do].append(time.process_time() - began)
                game.apply(action)
    print(json.dumps({kind: [len(times), statistics.fmean(times), statistics.median(times)]
                      for kind, times in spent.items()}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--walks", type=int, default=8, help="seeded walks per example")
    parser.add_argument("--steps", type=int, default=40, help="actions per walk at most")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.walks, args.steps)
        return 0
    from rich.console import Console
    from rich.table import Table

    from baseline import export

    console = Console(width=120)
    console.print(f"[bold]apply + undo on the states play meets[/bold]: {args.walks} walks of up to {args.steps} "
                  f"actions from every 40k example, now and at {args.baseline}, each version in a fresh process")
    script, walk = str(Path(__file__).resolve()), ["--walks", str(args.walks), "--steps", str(args.steps)]
    with tempfile.TemporaryDirectory() as tmp:
        now = child_json(script, ROOT / "src", walk)
        before = child_json(script, export(args.baseline, Path(tmp)), walk)
    table = Table(title=f"Game.apply + undo per pair, by action kind (CPU ms; ratio = {args.baseline} / now)")
    for col in ("action", "pairs (now / before)", "now", "before", "ratio", "median now", "median before",
                "median ratio"):
        table.add_column(col, justify="left" if col == "action" else "right")
    for kind, (pairs, cpu, mid) in sorted(now.items(), key=lambda item: -item[1][0]):
        old: Any = before.get(kind)
        table.add_row(kind, f"{pairs} / {old[0] if old else '-'}", f"{cpu * 1000:.3f}",
                      f"{old[1] * 1000:.3f}" if old else "-", f"{old[1] / cpu:.1f}x" if old and cpu > 0 else "-",
                      f"{mid * 1000:.3f}", f"{old[2] * 1000:.3f}" if old else "-",
                      f"{old[2] / mid:.1f}x" if old and mid > 0 else "-")
    console.print("The mean counts the collector's full collections where they fall (one, about 14 ms, in a kind of "
                  "17 pairs makes its mean 1 ms); the median does not.")
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
