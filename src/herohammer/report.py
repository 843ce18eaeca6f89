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


def distribution_table(title: str, rows: Mapping[int, tuple[Fraction, Fraction]], what: str,
                       console: Console | None = None) -> None:
    """Print a number's distribution: exactly N and at least N, exact and in percent."""
    console = console or Console()
    console.print(escape(title))
    table = Table()
    for name in (what, "exactly", "%", "at least", "% "):
        table.add_column(name, justify="right", overflow="fold")
    for value, (p, tail) in rows.items():
        table.add_row(str(value), fraction_text(p), percent(p), fraction_text(tail), percent(tail))
    console.print(table)
