"""Present answers: exact fractions for machines, tables for people.

Text that comes from files (ids, names, rule text) goes to rich as ``Text`` objects,
never as markup, so ``[/]`` in a unit id prints as itself and restyles nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text


def fraction_text(p: Fraction | int) -> str:
    """Write an exact probability in lowest terms: ``13/18``, ``0``, ``1``."""
    return str(Fraction(p))


def to_jsonable(value: Any) -> Any:
    """Turn Fractions into exact strings (recursively) so JSON never holds a float probability."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def dump_json(value: Any) -> str:
    """Return the JSON text of an answer."""
    return json.dumps(to_jsonable(value), indent=2, ensure_ascii=False)


def one_line_json(value: Any) -> str:
    """Return JSON text on one line, as a person types it (``{"do": "join", "to": [24.0, 20.02]}``), for an action
    quoted in a header or a listing (a pretty-printed text with its newlines and indents dropped ran the items together)."""
    return json.dumps(to_jsonable(value), ensure_ascii=False)


def percent(p: Fraction) -> str:
    """Write a probability as a percentage for people."""
    return f"{float(p) * 100:.2f}%"


def odds_table(title: str, rows: Mapping[str, Fraction], console: Console | None = None) -> None:
    """Print outcome, exact probability and percentage as a table."""
    console = console or Console()
    console.print(Text(title))
    table = Table()
    table.add_column("outcome")
    table.add_column("exact", justify="right")
    table.add_column("%", justify="right")
    for name, p in rows.items():
        table.add_row(Text(name), fraction_text(p), percent(p))
    console.print(table)


def simple_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[object]], console: Console | None = None) -> None:
    """Print a plain table of strings."""
    console = console or Console()
    console.print(Text(title))
    table = Table()
    for c in columns:
        table.add_column(Text(c))
    for row in rows:
        table.add_row(*(Text(str(x)) for x in row))
    console.print(table)


#: How an answer was found, as every ``--json`` envelope says it.
EXACT = "exact"
MONTE_CARLO = "monte-carlo"


def envelope(command: str, result: Any, *, ruleset: str | None = None, rules: Sequence[str] = (),
             method: str | None = EXACT, notes: Sequence[str] = ()) -> dict[str, Any]:
    """Wrap an answer in the one shape every ``--json`` output has (method None: no odds involved).

    ``notes``: what the scenario holds that no rule reads (``scenario.scenario_notes``), only when there is some.
    """
    return {"command": command, "ruleset": ruleset, "method": method,
            "rules": list(dict.fromkeys(rules)), "result": result} | ({"notes": list(notes)} if notes else {})


def print_json(command: str, result: Any, *, ruleset: str | None = None, rules: Sequence[str] = (),
               method: str | None = EXACT, notes: Sequence[str] = ()) -> None:
    """Print an answer as JSON in the common envelope."""
    print(dump_json(envelope(command, result, ruleset=ruleset, rules=rules, method=method, notes=notes)))


def at_least_rows(dist: Mapping[int, Fraction]) -> dict[int, tuple[Fraction, Fraction]]:
    """Return, for each value, the chance of exactly it and of at least it."""
    rows: dict[int, tuple[Fraction, Fraction]] = {}
    tail = Fraction(0)
    for value in sorted(dist, reverse=True):
        tail += dist[value]
        rows[value] = (Fraction(dist[value]), tail)
    return dict(sorted(rows.items()))


#: A distribution of more values than this is shown with its negligible ends folded (``fold_tails``): 1,000 attacks
#: would otherwise print 1,001 rows of fractions thousands of digits long, and rich takes seconds to lay them out.
FOLD_ABOVE_ROWS = 40
#: An exact fraction longer than this is not written into a table cell (``--json`` carries it whole).
LONGEST_CELL_FRACTION = 40


def fold_tails(rows: Mapping[int, tuple[Fraction, Fraction]]
               ) -> tuple[list[tuple[str, Fraction, Fraction]], list[str]]:
    """Fold each end's run of values less likely than 0.005% (they print as 0.00%) into one row, when the table has
    more than ``FOLD_ABOVE_ROWS`` values; return the rows as (label, chance of exactly it or of the range, chance of
    at least its lowest value) and the ranges folded.

    Only a run of two values or more is folded, so a short table reads as before, every value on its row.
    """
    items = sorted(rows.items())
    plain = [(str(v), p, tail) for v, (p, tail) in items]
    if len(items) <= FOLD_ABOVE_ROWS:
        return plain, []
    negligible = Fraction(1, 20000)
    lo = 0
    while lo < len(items) and items[lo][1][0] < negligible:
        lo += 1
    hi = len(items)
    while hi > lo and items[hi - 1][1][0] < negligible:
        hi -= 1
    out: list[tuple[str, Fraction, Fraction]] = []
    folded: list[str] = []

    def fold(run: list[tuple[int, tuple[Fraction, Fraction]]]) -> None:
        if len(run) < 2:
            out.extend((str(v), p, tail) for v, (p, tail) in run)
            return
        label = f"{run[0][0]}-{run[-1][0]}"
        out.append((label, sum((p for _, (p, _) in run), Fraction(0)), run[0][1][1]))
        folded.append(label)

    fold(items[:lo])
    out.extend((str(v), p, tail) for v, (p, tail) in items[lo:hi])
    fold(items[hi:])
    return out, folded


def fraction_cell(p: Fraction) -> str:
    """Write an exact probability for a table cell: whole when it is short enough to read, else where to read it."""
    text = fraction_text(p)
    return text if len(text) <= LONGEST_CELL_FRACTION else "exact: --json"


def distribution_table(title: str, rows: Mapping[int, tuple[Fraction, Fraction]], what: str,
                       console: Console | None = None) -> None:
    """Print a number's distribution: exactly N and at least N, exact and in percent.

    A long one shows its negligible ends folded into a row each (``fold_tails``) and says so under the table; an
    exact fraction too long to read in a cell says to read it in --json (``--json`` has every value, whole).
    """
    console = console or Console()
    console.print(escape(title))
    table = Table()
    for name in (what, "exactly", "%", "at least", "% "):
        table.add_column(name, justify="right", overflow="fold")
    shown, folded = fold_tails(rows)
    for label, p, tail in shown:
        table.add_row(label, fraction_cell(p), percent(p), fraction_cell(tail), percent(tail))
    console.print(table)
    if folded:
        console.print(f"folded: {' and '.join(folded)} (each value under 0.005%; the row gives the range's chance "
                      "of exactly one of its values, and of at least its lowest); --json lists every value")
