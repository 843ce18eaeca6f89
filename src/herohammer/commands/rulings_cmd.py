"""``herohammer rulings``: the rulings book as an FAQ, each entry played live before it is shown."""

from __future__ import annotations

import argparse
from typing import Any

from ..book import BOOK_RULESETS, BookEntry, Entry, EntryReport, StepReport, find_entry, load_book, run_entry
from ..catalogue import clause
from ..errors import HerohammerError
from ..report import print_json, simple_table
from . import summary
from .args import add_json_flag


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``rulings [ID] [--ruleset R] [--rule CLAUSE] [--json]``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "rulings", help=summary("rulings"))
    p.add_argument("id", nargs="?", default=None, help="a ruling's id: play it and print it as an FAQ entry")
    p.add_argument("--ruleset", choices=BOOK_RULESETS, default=None, help="only this ruleset's rulings")
    p.add_argument("--rule", metavar="CLAUSE_ID", default=None, help="only the rulings that show this clause")
    add_json_flag(p)
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    if args.id is not None:
        given = [o for o, v in (("--ruleset", args.ruleset), ("--rule", args.rule)) if v is not None]
        if given:  # they choose among the rulings listed: with one ruling named they would be dropped unsaid
            raise HerohammerError(f"{' and '.join(given)} choose{'s' * (len(given) == 1)} the rulings listed; "
                                  f"herohammer rulings {args.id} plays that one ruling: give one or the other")
        item = find_entry(args.id)
        if args.json:
            return _show(run_entry(item), True)
        return _play_and_show(item)
    wanted = None if args.rule is None else args.rule.removesuffix(".") or args.rule
    if wanted is not None:  # a clause id or a start of ids up to a dot (t9a.join), as herohammer rules takes them
        from ..catalogue import clauses
        from .rules_cmd import chosen

        chosen(list(clauses()), [wanted], label="--rule")  # a typo: no such clause (the nearest offered)
    book = [b for b in load_book(BOOK_RULESETS if args.ruleset is None else (args.ruleset,))
            if wanted is None or any(r == wanted or r.startswith(wanted + ".") for r in b.entry.rules)]
    if wanted is not None and not book:
        among = f"of {args.ruleset} " if args.ruleset else ""
        raise HerohammerError(f"--rule: no ruling {among}in the book shows {wanted!r} yet "
                              f"(herohammer rules {wanted} prints what it says)")
    if args.json:
        print_json("rulings", [{"id": b.id, "ruleset": b.entry.ruleset, "title": b.entry.title,
                                "rules": b.entry.rules} for b in book], ruleset=args.ruleset,
                   rules=[r for b in book for r in b.entry.rules], method=None)
        return 0
    simple_table(f"Rulings ({len(book)}); herohammer rulings ID prints one", ["id", "title", "rules"],
                 [[b.id, b.entry.title, ", ".join(b.entry.rules)] for b in book])
    return 0


def _clause_text(rule_id: str) -> tuple[str, str]:
    try:
        c = clause(rule_id)
    except KeyError:
        return "?", "(not listed by herohammer rules)"
    origin = c.source or f"seed {c.seed}"
    return origin, c.says + (f" Decision: {c.decision}" if c.decision else "")


def _show(report: EntryReport, as_json: bool) -> int:
    e = report.entry.entry
    if as_json:
        print_json("rulings", {
            "id": e.id, "ruleset": e.ruleset, "title": e.title, "question": e.question, "answer": e.answer,
            "rules": [{"id": r, "source": _clause_text(r)[0], "says": _clause_text(r)[1]} for r in e.rules],
            "source": e.source,
            "steps": [{"kind": s.kind, "what": s.what, "result": list(s.lines), "cited": sorted(s.cited),
                       **({"note": e.steps[s.index].note} if e.steps[s.index].note else {})} for s in report.steps],
            "verified": True,
        }, ruleset=e.ruleset, rules=e.rules, method=None)
        return 0
    _print_heading(e)
    for s in report.steps:
        _print_step(e, s)
    print("\nverified: every step gave the ruling the book states")
    return 0


def _play_and_show(item: BookEntry) -> int:
    """Print the entry's question, answer and rules first, then each step as it is played: an odds step may
    enumerate for many seconds (t9a-a-redirected-charge-whose-second-target-flees-too: ~10 s before anything was
    printed), counted by a bar on a terminal while it runs, as ``odds action`` counts it."""
    import sys

    e = item.entry
    _print_heading(e)
    sys.stdout.flush()
    bar = _OddsBar(sys.stderr.isatty())

    def played(step: StepReport) -> None:
        bar.stop()  # before printing: a live bar would take stdout's lines to the terminal, away from a file
        _print_step(e, step)
        sys.stdout.flush()

    try:
        run_entry(item, played, bar.walked)
    finally:
        bar.stop()
    print("\nverified: every step gave the ruling the book states")
    return 0


class _OddsBar:
    """A bar of an odds step's rules-code runs, shown from its first count until the step is printed."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None
        self.advance: Any = None
        self.counted = 0

    def walked(self, runs: int) -> None:
        if self.bar is None:
            from ..dice import DEFAULT_MAX_RUNS
            from ..simulate import progress_bar

            self.bar = progress_bar(self.enabled, DEFAULT_MAX_RUNS, "exact odds: rules-code runs")
            self.advance, self.counted = self.bar.__enter__(), 0
        self.advance(runs - self.counted)
        self.counted = runs

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _print_heading(e: Entry) -> None:
    print(f"{e.id} ({e.ruleset}): {e.title}")
    print(f"\nQ: {' '.join(e.question.split())}")
    print(f"A: {' '.join(e.answer.split())}")
    print("\nRules:")
    for r in e.rules:
        origin, says = _clause_text(r)
        print(f"  [{r}] ({origin}) {says}")
    print(f"Source: {e.source}")
    print("\nPlayed through the engine:")


def _print_step(e: Entry, s: StepReport) -> None:
    note = e.steps[s.index].note
    print(f"  {s.index + 1}. {s.what}" + (f"  -- {' '.join(note.split())}" if note else ""))
    for line in s.lines:
        print(f"       {line}")
