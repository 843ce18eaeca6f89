#!/usr/bin/env python3
"""Apply and undo one action N times with callgrind collecting only inside named functions (``count_regions.sh``).

Usage (from the project root, under callgrind; see ``count_regions.sh``):
``python benchmarks/region_pairs.py KIND N [--same] [module:Class.method ...]``.  KIND and the games are
``apply_pairs.py``'s.  Each named function (a module-level function or a method, static ones too) is
wrapped so that callgrind collects from its outermost entry to its return (``CALLGRIND_TOGGLE_COLLECT``
through a small C helper, ``VGMARK``); with no function named, the whole apply+undo pairs are collected.
The wrapper and the toggle cost about 5 k instructions per entry (a function called 5 times a pair
reads about 25 k more than it costs).  Nothing of the set-up is counted, so one run gives the count.
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import apply_pairs  # noqa: E402 - the benchmarks' own helpers, next to this script

from herohammer.dice import SeededDice  # noqa: E402
from herohammer.game import Game  # noqa: E402
from herohammer.scenario import state_from_data  # noqa: E402


def main() -> None:
    if len(sys.argv) < 3 or not sys.argv[2].isdigit():
        raise SystemExit("usage: region_pairs.py KIND N [--same] [module:Class.method ...]")
    kind, n = sys.argv[1], int(sys.argv[2])
    toggle: Callable[[], Any] = ctypes.CDLL(os.environ["VGMARK"]).toggle
    depth = [0]

    def wrap(owner: Any, name: str) -> None:
        found = owner.__dict__[name]
        static = isinstance(found, staticmethod)
        func = found.__func__ if static else found

        def counted(*args: Any, **kwargs: Any) -> Any:
            if not depth[0]:
                toggle()
            depth[0] += 1
            try:
                return func(*args, **kwargs)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    toggle()

        setattr(owner, name, staticmethod(counted) if static else counted)

    data, action = apply_pairs.scenario_and_action(kind)
    warm = Game(state_from_data(data), SeededDice(0))  # what a first call pays once (lazy imports, the bundled
    warm.apply(action)  # weapons' YAML read): before any function is wrapped, so that no region counts it
    warm.undo()
    if "--same" in sys.argv:  # as count_instructions.sh's N=300 minus N=100 reads it: the game's first 100 pairs,
        # which fill what the state remembers (the plan, each distinct result), are set-up, not counted
        games = [Game(state_from_data(data), SeededDice(1))] * n
        for _ in range(0 if "--cold" in sys.argv else 100):  # --cold: the pairs of bench_speed.py's "same game
            # again" round, which also pay for each result's first meeting
            games[0].apply(action)
            games[0].undo()
    else:
        games = [Game(state_from_data(data), SeededDice(1)) for _ in range(n)]
    regions = [a for a in sys.argv[3:] if ":" in a]
    for region in regions:
        module, path = region.split(":")
        owner: Any = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        wrap(owner, name)
    gc.collect()
    gc.disable()
    if not regions:
        toggle()
    for game in games:
        game.apply(action)
        game.undo()
    if not regions:
        toggle()


if __name__ == "__main__":
    main()
