#!/usr/bin/env python3
"""Why ``bench_speed.py --only apply``'s same-game times lag the instruction counts of ``count_regions.sh --same``.

Usage (from the project root): ``python benchmarks/probe_apply_warmup.py [KIND ...]`` (KIND: move, join, volley,
fight; default volley fight).  For each kind, on a game just built from the scenario (as each of
``bench_speed.py``'s rounds is), it applies and undoes the action in blocks: pairs 0-200 (what the benchmark
times), 200-400 and 400-1400, CPU ms per pair, the best of 5 games; once with the garbage collector on (as the
benchmark runs) and once off (as ``apply_pairs.py`` counts), and says how much of each block the collector took.

What it showed in session 18: the first pairs of a new game pay for working out each dice result not met yet
(a fight's strikes, Morale and sweeps kept per state), and the count (pairs 100-300 after one warm pair)
sees fewer of them than the timed pairs 0-200; the collector takes about 5%.
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from apply_pairs import scenario_and_action  # noqa: E402 - the benchmarks' own helpers, next to this script

from herohammer.dice import SeededDice  # noqa: E402
from herohammer.game import Game  # noqa: E402
from herohammer.scenario import state_from_data  # noqa: E402

BLOCKS = (200, 200, 1000)


def probe(kind: str, collector: bool) -> tuple[list[float], float]:
    """Return the best per-pair CPU ms of each block, and the collector's share of the first block (ms per pair)."""
    data, action = scenario_and_action(kind)
    warm = Game(state_from_data(data), SeededDice(0))
    warm.apply(action)
    warm.undo()
    best = [float("inf")] * len(BLOCKS)
    collected = [0.0]
    began = [0.0]

    def heard(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            collected[0] += time.process_time() - began[0]

    gc.callbacks.append(heard)
    first_gc = float("inf")
    try:
        for _ in range(5):
            game = Game(state_from_data(data), SeededDice(1))
            gc.collect()
            if not collector:
                gc.disable()
            for i, n in enumerate(BLOCKS):
                collected[0] = 0.0
                t0 = time.process_time()
                for _ in range(n):
                    game.apply(action)
                    game.undo()
                spent = (time.process_time() - t0) / n
                if i == 0:
                    first_gc = min(first_gc, collected[0] / n)
                best[i] = min(best[i], spent)
            gc.enable()
    finally:
        gc.callbacks.remove(heard)
    return [b * 1000 for b in best], first_gc * 1000


def main() -> None:
    kinds = sys.argv[1:] or ["volley", "fight"]
    for kind in kinds:
        for collector in (True, False):
            blocks, in_gc = probe(kind, collector)
            print(f"{kind:7} gc {'on ' if collector else 'off'}  pairs 0-200 {blocks[0]:.3f}  200-400 {blocks[1]:.3f}  "
                  f"400-1400 {blocks[2]:.3f} ms/pair" + (f"  (collector {in_gc:.3f} ms/pair of the first block)"
                                                         if collector else ""))


if __name__ == "__main__":
    main()
