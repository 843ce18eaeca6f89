"""``herohammer rules``: the clause ids, their seed, the project's statement, implemented or not."""

from __future__ import annotations

import argparse
from typing import Any

from ..catalogue import clauses, implemented_by
from ..report import print_json, simple_table
from ..rulesets import RULESETS
from . import summary
from .args import add_json_flag


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``rules``."""
    parser: argparse.ArgumentParser = sub.add_parser("rules", help=summary("rules"))
    parser.add_argument("--ruleset", choices=["core", *sorted(RULESETS), "published"], default=None,
                        help="only this ruleset's clauses (core: the shared ones; published: judging rules from the rulebooks)")
    add_json_flag(parser)
    parser.set_defaults(run=_run)
    return parser


def _run(args: argparse.Namespace) -> int:
    selected = [c for c in clauses() if args.ruleset in (None, c.ruleset)]
    rows: list[dict[str, Any]] = []
    for c in selected:
        impl = implemented_by(c.id)
        rows.append({"id": c.id, "ruleset": c.ruleset, "seed": c.seed, "says": c.says,
                     "decision": c.decision, "source": c.source or f"seed {c.seed}", "implemented": bool(impl), "implemented_by": impl})
    if args.json:
        print_json("rules", rows, ruleset=args.ruleset, method=None)
        return 0
    simple_table(
        f"Rule clauses ({len(rows)}; implemented: {sum(r['implemented'] for r in rows)})",
        ["id", "source", "implemented", "says"],
        [[r["id"], r["seed"] if r["seed"] != "published" else r["source"], "yes" if r["implemented"] else "no",
          str(r["says"]) + (f" Decision: {r['decision']}" if r["decision"] else "")] for r in rows],
    )
    return 0
