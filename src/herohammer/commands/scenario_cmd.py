"""``herohammer scenario new``: a scenario file from BattleScribe rosters, units deployed, ready to edit."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml

from ..battlescribe import read_battlescribe
from ..errors import HerohammerError
from ..battlescribe import points_words
from ..roster_scenario import build_scenario, import_notes
from ..rulesets import RULESETS
from ..scenario import check_writable, state_from_data
from . import summary
from .args import say, whole_number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``scenario new --roster FILE [--roster FILE] [--ruleset R] [--out FILE]``."""
    p: argparse.ArgumentParser = sub.add_parser("scenario", help=summary("scenario"))
    actions = p.add_subparsers(dest="query", required=True, parser_class=type(p))
    n = actions.add_parser("new", help="a scenario with a roster's units deployed in a default formation",
                           description="Each roster (.ros/.rosz, saved from BattleScribe or New Recruit) becomes a "
                                       "side; with one roster the other side is left empty for you to fill. A "
                                       "catalogue (.cat/.catz) given instead becomes a side of one of each of "
                                       "its units.")
    n.add_argument("--roster", action="append", required=True, help="a .ros or .rosz file, or a .cat/.catz catalogue (once or twice)")
    n.add_argument("--ruleset", choices=sorted(RULESETS), default=None,
                   help="the ruleset (default: read from the roster's game system)")
    n.add_argument("--side", action="append", default=None, help="side name(s), in roster order (default: from the roster); with one roster a second --side names "
                        "the empty side (default: opponent)")
    n.add_argument("--width", type=whole_number("--width", 12, 240), default=72, help="table width in inches")
    n.add_argument("--depth", type=whole_number("--depth", 12, 240), default=48, help="table depth in inches")
    n.add_argument("--out", default=None, help="write the scenario here (YAML, or JSON if it ends in .json); "
                                                "default: print it")
    n.set_defaults(run=_run_new)
    return p


def _run_new(args: argparse.Namespace) -> int:
    if args.out:
        check_writable(args.out, "--out")
    rosters = [read_battlescribe(r) for r in args.roster]
    ruleset = args.ruleset or next((r.ruleset for r in rosters if r.ruleset), None)
    if ruleset is None:
        raise HerohammerError(f"--ruleset: {args.roster[0]}'s game system {rosters[0].game!r} is not 40k 3rd/4th "
                              "edition or The 9th Age; name the ruleset with --ruleset")
    left_out: list[str] = []
    data = build_scenario(rosters, ruleset, args.width, args.depth, args.side, left_out)
    state_from_data(data, "the new scenario")  # it must read back: refuse here rather than write a broken file
    text = (__import__("json").dumps(data, indent=2) if args.out and args.out.lower().endswith(".json")
            else yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True))
    notes = import_notes(rosters) + left_out
    header = (f"# Written by herohammer scenario new from {', '.join(args.roster)} ({ruleset}).\n"
              "# Units stand in a default formation: move them, set phase and active, then check actions.\n"
              + "".join(f"# points: {r.name}: {points_words(r)}\n" if len(rosters) > 1 else
                        f"# points: {points_words(r)}\n" for r in rosters)
              + "".join(f"# note: {' '.join(note.splitlines())}\n" for note in notes))
    if args.out:
        Path(args.out).write_text(("" if args.out.lower().endswith(".json") else header) + text, encoding="utf-8")
        units = sum(len(v) for v in data["sides"].values())
        priced = "; ".join(points_words(r).split(":")[0] for r in rosters if r.points is not None
                           or any(u.points is not None for u in r.units))
        print(f"wrote {args.out}: {units} units on {len(data['sides'])} sides ({ruleset})"
              + (f", {priced}" if priced else ""))
    else:
        print(header + text, end="")
    say(notes, False)  # on stderr, as every command's notes
    return 0
