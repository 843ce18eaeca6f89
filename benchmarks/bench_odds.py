#!/usr/bin/env python3
"""Time herohammer's exact odds engine against icepool on the same exact distributions.

Run on demand from the project root:   .venv/bin/python benchmarks/bench_odds.py [--repeats N]

For each query both engines compute the same exact distribution; the script checks the
two answers are identical (exact Fraction equality) and aborts if not.  Timing is fair:
herohammer's lru caches are cleared before every timed repeat, and icepool's dice are
built from scratch inside the timed region (a fresh ``Die(range(1, 7))``, not the cached
``icepool.d6``, whose ``N @ d6`` sums are memoised on the instance).  The figure is the
best of several repeats measured with ``time.perf_counter``.

The icepool column times icepool producing its own exact answer (a Die with integer
quantities); the "icepool + Fractions" column adds turning that into reduced Fractions,
which is what herohammer hands back.  The ratio uses the first, stricter column.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
from rich.console import Console
from rich.table import Table

from herohammer import dice, odds
from herohammer.dice import Reroll

TARGET_RATIO = 20.0


def clear_herohammer_caches() -> None:
    """Forget every memoised dice result so a repeat computes from nothing."""
    for fn in (
        dice._pool_outcomes,
        dice._total_outcomes,
        dice._highest_outcomes,
        dice.success_probability,
        dice.face_probabilities,
    ):
        fn.cache_clear()


def best_of(fn: Callable[[], Any], repeats: int, before: Callable[[], None] | None = None) -> tuple[float, Any]:
    """Return the best wall time of ``repeats`` runs of ``fn`` and its last result."""
    best = float("inf")
    result: Any = None
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


# --------------------------------------------------------------------------------------
# the queries, once per engine
# --------------------------------------------------------------------------------------


def herohammer_attacks(q: odds.AttackQuery) -> Callable[[], dict[int, Fraction]]:
    def run() -> dict[int, Fraction]:
        return dict(q.distribution())

    return run


def _ice_die(target: int, reroll: Reroll) -> icepool.Die:
    fresh = icepool.Die(range(1, 7))
    faces = {Reroll.NONE: [], Reroll.FAILED: list(range(1, target)), Reroll.ONES: [1]}[reroll]
    return fresh.reroll(faces, depth=1) if faces else fresh


def icepool_attacks_die(q: odds.AttackQuery) -> Callable[[], icepool.Die]:
    def run() -> icepool.Die:
        hit_die = _ice_die(q.hit, q.reroll_hits)
        wound_die = _ice_die(q.wound, q.reroll_wounds)
        save_die = icepool.Die(range(1, 7))
        save = q.save

        def unsaved(h: int, w: int, s: int) -> int:
            return int(h >= q.hit and w >= q.wound and (save is None or s < save))

        one = icepool.map(unsaved, hit_die, wound_die, save_die)
        return q.attacks @ one

    return run


def ice_to_fractions(die: icepool.Die) -> dict[int, Fraction]:
    den = die.denominator()
    return {k: Fraction(die.quantity(k), den) for k in die.outcomes() if die.quantity(k)}


def herohammer_leadership() -> dict[int, Fraction]:
    return {ld: odds.leadership_odds(ld)["pass"] for ld in range(11)}


def icepool_leadership() -> dict[int, Fraction]:
    two = 2 @ icepool.Die(range(1, 7))
    return {ld: two.probability("<=", ld) for ld in range(11)}


# --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats per engine (best is kept)")
    args = parser.parse_args(argv)
    repeats = max(1, args.repeats)

    rows: list[tuple[str, float, float, float]] = []
    attack_queries = [
        odds.AttackQuery(n, 3, 4, 4, Reroll.FAILED, Reroll.ONES) for n in (10, 100, 300)
    ] + [odds.AttackQuery(n, 4, 3, 5, Reroll.ONES, Reroll.FAILED) for n in (10, 100, 300)]

    for q in attack_queries:
        label = (
            f"{q.attacks} attacks, hit {q.hit}+ re-roll {q.reroll_hits.value}, "
            f"wound {q.wound}+ re-roll {q.reroll_wounds.value}, save {q.save}+"
        )
        hh_time, hh = best_of(herohammer_attacks(q), repeats, clear_herohammer_caches)
        ice_time, ice_die = best_of(icepool_attacks_die(q), repeats)
        ice_frac_time, ice = best_of(lambda: ice_to_fractions(icepool_attacks_die(q)()), repeats)
        if hh != ice:
            print(f"ABORT: herohammer and icepool disagree on {label}", file=sys.stderr)
            return 1
        rows.append((label, hh_time, ice_time, ice_frac_time))

    hh_time, hh = best_of(herohammer_leadership, repeats, clear_herohammer_caches)
    ice_time, ice = best_of(icepool_leadership, repeats)
    if hh != ice:
        print("ABORT: herohammer and icepool disagree on the Leadership table", file=sys.stderr)
        return 1
    rows.append(("Leadership table, Ld 0..10 (P pass)", hh_time, ice_time, ice_time))

    table = Table(title=f"Exact odds: herohammer vs icepool {icepool.__version__} (best of {repeats}, caches cleared)")
    table.add_column("query")
    table.add_column("herohammer", justify="right")
    table.add_column("icepool", justify="right")
    table.add_column("icepool + Fractions", justify="right")
    table.add_column("ratio (icepool/herohammer)", justify="right")
    for label, hh_t, ice_t, ice_f in rows:
        ratio = ice_t / hh_t
        mark = "" if ratio >= TARGET_RATIO else "  (< target)"
        table.add_row(label, f"{hh_t * 1e3:.3f} ms", f"{ice_t * 1e3:.3f} ms", f"{ice_f * 1e3:.3f} ms", f"{ratio:.1f}x{mark}")
    Console().print(table)
    print("all answers identical (exact Fraction equality)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
