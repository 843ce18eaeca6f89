"""``herohammer rules``: the clause ids, their seed, the project's statement, implemented or not."""

from __future__ import annotations

import argparse
from typing import Any

from ..catalogue import Clause, clauses, implemented_by
from ..errors import HerohammerError
from ..report import print_json, simple_table
from ..rulesets import RULESETS
from . import summary
from .args import add_json_flag


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``rules``."""
    parser: argparse.ArgumentParser = sub.add_parser("rules", help=summary("rules"))
    parser.add_argument("ids", nargs="*", metavar="ID",
                        help="only these clauses: an id (published.regroup) or the start of ids up to a dot (t9a.join)")
    parser.add_argument("--ruleset", choices=["core", *sorted(RULESETS), "published"], default=None,
                        help="only this ruleset's clauses (core: the shared ones; published: judging rules from the rulebooks)")
    add_json_flag(parser)
    parser.set_defaults(run=_run)
    return parser


def chosen(every: list[Clause], ids: list[str], where: str = "", label: str = "rules") -> list[Clause]:
    """Return the clauses an id or an id's start names (``t9a.join`` is every ``t9a.join.*``), in catalogue order.

    An id that names none is refused in one line, with the nearest id when there is one: a judge
    who mistypes a clause must not get an empty table that reads as "no such rule applies".
    """
    if not ids:
        return every
    known = [c.id for c in every]
    ids = [w[:-1] if w.endswith(".") and len(w) > 1 else w for w in ids]  # a start written with its dot: t9a.join.
    for wanted in ids:
        if not any(i == wanted or i.startswith(wanted + ".") for i in known):
            import difflib

            # the nearest id or start of ids (t9a.jo: t9a.join, which names several), not always a whole id
            starts = sorted({i.rsplit(".", k)[0] for i in known for k in range(i.count("."))} - set(known))
            near = difflib.get_close_matches(wanted, known + starts, n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]}?" if near else " (herohammer rules lists them)"
            raise HerohammerError(f"{label}: no clause id{where} is or starts with {wanted!r}{hint}")
    return [c for c in every if any(c.id == w or c.id.startswith(w + ".") for w in ids)]


def _run(args: argparse.Namespace) -> int:
    selected = chosen([c for c in clauses() if args.ruleset in (None, c.ruleset)], args.ids,
                      f" of --ruleset {args.ruleset}" if args.ruleset else "")
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
