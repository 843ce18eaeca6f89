"""``herohammer play``: apply actions to a scenario with seeded dice, print the log, save the result."""

from __future__ import annotations

import argparse
from typing import Any

from ..dice import SeededDice
from ..game import Game
from ..report import dump_json
from ..scenario import check_writable, save_scenario
from .args import add_json_flag, whole_number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``play SCENARIO --action JSON [--action JSON ...] [--seed S] [--out FILE]``."""
    p: argparse.ArgumentParser = sub.add_parser("play", help="apply actions in order; print every roll; save the state")
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    p.add_argument("--action", action="append", required=True, help="an action as JSON; repeat for several, in order")
    p.add_argument("--seed", type=whole_number("--seed", 0, 2**63 - 1), default=None, help="seed for the dice (the same seed replays the same rolls)")
    p.add_argument("--out", default=None, help="write the resulting state here (YAML, or JSON if it ends in .json)")
    add_json_flag(p)
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    if args.out:
        check_writable(args.out, "--out")  # refuse before playing, not after
    game = Game.load(args.scenario, SeededDice(args.seed))
    log: list[dict[str, Any]] = []
    lines: list[str] = []
    for i, text in enumerate(args.action, start=1):
        events = game.apply(text)  # an illegal action raises: one line, exit 2, nothing written
        log.append({"action": i, "events": [e.to_json() for e in events]})
        lines.append(f"action {i}: {text}")
        for e in events:
            lines.append(f"  {e.describe()}")
            lines += [f"    roll {r.describe()}" for r in e.rolls]
    if args.out:
        save_scenario(game.state, args.out)
    if args.json:
        print(dump_json({"seed": args.seed, "log": log, "out": args.out,
                         "state": {"turn": game.state.turn, "phase": game.state.phase.value,
                                   "active": game.state.active}}))
        return 0
    print("\n".join(lines))
    print(f"now: turn {game.state.turn}, {game.state.active} to play, {game.state.phase.value} phase"
          + (f"; state written to {args.out}" if args.out else ""))
    return 0
