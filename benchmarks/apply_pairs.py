#!/usr/bin/env python3
"""Apply and undo one action N times, for counting machine instructions (``count_instructions.sh``).

Usage (from the project root): ``python benchmarks/apply_pairs.py KIND N [--same]``, KIND one of
end, move, join, volley, fight (the scenarios of ``bench_speed.py``'s apply rows).  It builds 300
games first, then applies and undoes the action on N of them, each on a state just built from the
scenario data (nothing remembered helps), or with ``--same`` N times on one game (as a search
does).  The garbage collector is off while the pairs run, so the count does not depend on when it
happens to run.  Per pair = (the count at N=300 - the count at N=100) / 200.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scenarios  # noqa: E402 - the benchmarks' own scenarios, next to this script

from herohammer.dice import SeededDice  # noqa: E402
from herohammer.game import Game  # noqa: E402
from herohammer.scenario import read_data, state_from_data  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def scenario_and_action(kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the scenario data and the action of one apply row."""
    if kind == "end":
        return scenarios.volley(10), {"do": "end_phase"}
    if kind == "move":
        data = scenarios.volley(10)
        data["phase"] = "movement"
        at = [m["at"] for m in data["sides"]["marines"][0]["models"]]
        return data, {"do": "move", "unit": "tactical", "to": [[x, y + 3] for x, y in at]}
    if kind == "join":
        data = read_data(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml")
        return data, next(a.to_json() for a in Game(state_from_data(data)).legal_actions() if a.do == "join")
    if kind == "volley":
        return scenarios.volley(10), scenarios.VOLLEY_ACTION
    if kind == "fight":
        return scenarios.fight("40k4"), scenarios.FIGHT_ACTION
    raise SystemExit(f"apply_pairs.py: KIND must be end, move, join, volley or fight, not {kind!r}")


def main() -> None:
    if len(sys.argv) < 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) > 300:
        raise SystemExit("usage: apply_pairs.py KIND N [--same]   (N at most 300)")
    kind, n = sys.argv[1], int(sys.argv[2])
    data, action = scenario_and_action(kind)
    warm = Game(state_from_data(data), SeededDice(0))  # what a first call pays once (lazy imports, tables)
    warm.apply(action)
    warm.undo()
    if "--same" in sys.argv:
        games = [Game(state_from_data(data), SeededDice(1))] * 300
    else:
        games = [Game(state_from_data(data), SeededDice(1)) for _ in range(300)]
    gc.collect()
    gc.disable()
    for game in games[:n]:
        game.apply(action)
        game.undo()


if __name__ == "__main__":
    main()
