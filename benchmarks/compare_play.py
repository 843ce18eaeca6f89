#!/usr/bin/env python3
"""Seeded random play on every example, now and at a baseline commit: the same legal lists, events, rolls and states?

Run on demand from the project root:   .venv/bin/python benchmarks/compare_play.py [--baseline COMMIT] [--walks N]

Speed work must not change a ruling.  The tests hold each fast path to its plain path; this
plays the whole game both ways.  From every example, ``--walks`` walks of up to ``--steps``
actions each: at every step the legal actions are listed, one is drawn (the walk's own seeded
``random.Random``) and applied with ``SeededDice`` of the same seed.  Each walk is digested
(every legal list, every event with its rules, rolls and data, every state as scenario data)
in a fresh process for this tree and for the baseline (exported with ``git archive``); any walk
whose digests differ is named.  An example the baseline cannot read is skipped there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import child_json  # noqa: E402 - the benchmarks' own helpers, next to this script

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "78d6cd1"


def child(walks: int, steps: int) -> None:
    """Print {example/walk: digest} as JSON, for the herohammer on PYTHONPATH."""
    from herohammer.dice import SeededDice
    from herohammer.errors import HerohammerError
    from herohammer.game import Game
    from herohammer.scenario import read_data, state_from_data

    out: dict[str, str] = {}
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        try:
            data = read_data(path)
            state = state_from_data(data)
        except (ValueError, HerohammerError):  # an example this version cannot read
            continue
        for walk in range(walks):
            draw, game, digest = random.Random(walk), Game(state, SeededDice(walk)), hashlib.sha256()
            for _ in range(steps):
                # each action as its JSON (defaults left out): a new optional field changes no digest
                legal = sorted(json.dumps(a.to_json(), sort_keys=True) for a in game.legal_actions())
                digest.update(json.dumps(legal).encode())
                if not legal:
                    break
                try:
                    events = game.apply(draw.choice(legal))
                except HerohammerError as refused:  # a listed action refused: a defect, and digested as such
                    digest.update(f"refused: {refused}".encode())
                    break
                digest.update(repr([(e.kind, e.message, e.rules, e.rolls, e.data) for e in events]).encode())
                digest.update(json.dumps(game.to_data(), sort_keys=True, default=str).encode())
            out[f"{path.stem}/{walk}"] = digest.hexdigest()
    print(json.dumps(out))


def play(src: Path, walks: int, steps: int) -> dict[str, str]:
    return child_json(__file__, src, ["--walks", str(walks), "--steps", str(steps)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    parser.add_argument("--walks", type=int, default=12, help="seeded walks per example")
    parser.add_argument("--steps", type=int, default=25, help="actions per walk at most")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.walks, args.steps)
        return 0
    from baseline import export

    print(f"seeded play on every example, {args.walks} walks of up to {args.steps} actions, now and at "
          f"{args.baseline}, each version in a fresh process", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        now = play(ROOT / "src", args.walks, args.steps)
        before = play(export(args.baseline, Path(tmp)), args.walks, args.steps)
    compared = [key for key in now if key in before]
    differ = [key for key in compared if now[key] != before[key]]
    print(f"{len(compared)} walks compared ({len(now) - len(compared)} the baseline cannot play): "
          f"{len(differ)} differ{': ' + ', '.join(differ) if differ else ''}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
