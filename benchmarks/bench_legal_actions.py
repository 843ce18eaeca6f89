#!/usr/bin/env python3
"""``Game.legal_actions`` on every example, each try on a new state: CPU ms (best of N), and how many are legal.

Run on demand from the project root:   PYTHONPATH=src .venv/bin/python benchmarks/bench_legal_actions.py [--tries N]

``bench_speed.py --only legal_actions`` reports only the slowest example; this lists every
one, so that a change that speeds one ruleset's examples and slows another's is seen.
Each state is built from the example outside the timing, so nothing remembered helps.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10, help="tries per example, each on a new state (the best counts)")
    args = parser.parse_args(argv)
    print(f"legal_actions per example, each try on a new state, best of {args.tries} (CPU ms)", flush=True)
    from herohammer.game import Game
    from herohammer.scenario import read_data, state_from_data

    for path in sorted((ROOT / "examples").glob("*.yaml")):
        data = read_data(path)
        Game(state_from_data(data)).legal_actions()  # what a first call pays once (lazy imports, tables)
        games = [Game(state_from_data(data)) for _ in range(args.tries)]
        best, legal = float("inf"), 0
        for game in games:
            t0 = time.process_time()
            legal = len(game.legal_actions())
            best = min(best, time.process_time() - t0)
        print(f"  {path.stem:34s} {best * 1000:7.3f} ms  {legal:3d} legal", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
