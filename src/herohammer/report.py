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
