"""``herohammer odds``: exact odds of tests, psychic tests and attack sequences."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .. import odds
from ..dice import Reroll
from ..report import dump_json, odds_table
from ..rulesets import RULESETS
from .args import add_json_flag, reroll, roll_needed, whole_number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``odds`` and its queries."""
    parser: argparse.ArgumentParser = sub.add_parser("odds", help="exact odds of tests, psychic tests, attacks")
    queries = parser.add_subparsers(dest="query", required=True, parser_class=type(parser))

    p = queries.add_parser("test", help="a characteristic test (core.test.characteristic)")
    p.add_argument("value", type=whole_number("VALUE", 0, 10), help="the characteristic, 0..10")
    p.add_argument("--reroll-failed", action="store_true", help="re-roll a failed test once")
    add_json_flag(p)
    p.set_defaults(run=_run_test)

    p = queries.add_parser("leadership", help="a Leadership test on 2D6 (core.test.leadership)")
    p.add_argument("ld", metavar="LD", type=whole_number("LD", 0, 10), help="Leadership, 0..10")
    add_json_flag(p)
    p.set_defaults(run=_run_leadership)

    p = queries.add_parser("psychic", help="a psychic test with Perils of the Warp (40k3.psyker.*)")
    p.add_argument("ld", metavar="LD", type=whole_number("LD", 0, 10), help="the psyker's Leadership, 0..10")
    p.add_argument("--toughness", type=whole_number("--toughness", 0, 10), default=4)
    p.add_argument("--wounds", type=whole_number("--wounds", 1, 10), default=1)
    p.add_argument("--ruleset", choices=sorted(k for k, v in RULESETS.items() if v.supports_psychic_tests), default="40k3")
    add_json_flag(p)
    p.set_defaults(run=_run_psychic)

    p = queries.add_parser("attacks", help="unsaved wounds from N identical attacks")
    p.add_argument("n", metavar="N", type=whole_number("N", 0, odds.MAX_ATTACKS), help="number of attacks")
    p.add_argument("--hit", type=roll_needed("--hit"), required=True, help="roll needed to hit, e.g. 3+")
    p.add_argument("--wound", type=roll_needed("--wound"), required=True, help="roll needed to wound, e.g. 4+")
    p.add_argument("--save", type=roll_needed("--save"), default=None, help="armour save, e.g. 3+ (none if omitted)")
    p.add_argument("--reroll-hits", type=reroll, default=Reroll.NONE, metavar="failed|1s")
    p.add_argument("--reroll-wounds", type=reroll, default=Reroll.NONE, metavar="failed|1s")
    add_json_flag(p)
    p.set_defaults(run=_run_attacks)

    from .odds_action_cmd import register_action  # the whole-action query (needs a scenario)

    register_action(queries)
    return parser


def _show(args: argparse.Namespace, title: str, rows: dict[str, Fraction], extra: dict[str, Any] | None = None) -> int:
    if args.json:
        print(dump_json({**rows, **(extra or {})}))
    else:
        odds_table(title, rows)
    return 0


def _run_test(args: argparse.Namespace) -> int:
    rows = odds.test_odds(args.value, args.reroll_failed)
    note = ", re-rolling a failure" if args.reroll_failed else ""
    return _show(args, f"Characteristic test against {args.value}{note} (core.test.characteristic)", rows)


def _run_leadership(args: argparse.Namespace) -> int:
    rows = odds.leadership_odds(args.ld)
    return _show(args, f"Leadership test against Ld {args.ld} (core.test.leadership)", rows)


def _run_psychic(args: argparse.Namespace) -> int:
    rows = odds.psychic_odds(args.ld, args.toughness, args.wounds, args.ruleset)
    title = (
        f"Psychic test, Ld {args.ld}, T{args.toughness} W{args.wounds}, {args.ruleset} "
        "(40k3.psyker.test, 40k3.psyker.perils, 40k3.psyker.perils-on-2)"
    )
    return _show(args, title, rows)


def _run_attacks(args: argparse.Namespace) -> int:
    query = odds.AttackQuery(args.n, args.hit, args.wound, args.save, args.reroll_hits, args.reroll_wounds)
    dist = query.distribution()
    mean = dist.mean()
    if args.json:
        print(dump_json({"distribution": {str(k): p for k, p in dist.sorted_items()}, "mean": mean}))
        return 0
    save = f", save {args.save}+" if args.save else ", no save"
    rows = {f"{k} unsaved": p for k, p in dist.sorted_items()}
    odds_table(f"{args.n} attacks, hit {args.hit}+, wound {args.wound}+{save}; mean {mean} = {float(mean):.3f}", rows)
    return 0
