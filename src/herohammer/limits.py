"""The stated limits on what herohammer reads and runs, and the checks that enforce them.

Why: a mistaken or hostile input (a file nested thousands of levels deep, a number
thousands of digits long, a list of 300,000 empty mappings, a billion runs) must be
refused at once with one line naming the file and the limit, never parse or run for
minutes, exhaust the stack, or end in a traceback.  docs/limits.md states these figures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .errors import HerohammerError

#: Largest scenario or plan file read, in bytes (a saved 1,000-model game is about 150 kB).
MAX_FILE_BYTES = 1_000_000
#: Largest ``--action`` text, in characters.
MAX_ACTION_CHARS = 100_000
#: Deepest nesting of mappings and lists in a file or action (a scenario needs about 7).
MAX_DEPTH = 32
#: Most values (mappings, lists and scalars) in one file or action, aliases counted as expanded.
MAX_NODES = 100_000
#: Largest number (whole or not) accepted anywhere in a file or action (no rule needs more than a few digits).
MAX_NUMBER = 10**12
#: Most models in one scenario.
MAX_MODELS = 1_000
#: The ways ``simulate`` and ``sweep`` may play runs (``--method``); here so the command line names them
#: without importing the simulator.
METHODS = ("auto", "compiled", "engine")
#: Most runs ``simulate`` and ``sweep`` may ask for (numpy draws compiled runs fast).
MAX_RUNS = 10**9
#: Most variants in one sweep (the product of the ``--vary`` value counts).
MAX_VARIANTS = 10_000
#: Most local processes a sweep starts.
MAX_WORKERS = 1_024
#: Most runs played one game at a time (``simulate`` by the engine; ``odds action`` by Monte Carlo).
ENGINE_MAX_RUNS = 1_000_000


class LimitError(HerohammerError):
    """Refuse an input beyond one of the stated limits, naming where and which limit."""


def _path(parts: Sequence[str | int]) -> str:
    """Write a field's path as ``sides.red[0].models``; a very deep one is cut short."""
    out = ""
    for part in parts[:6]:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return (out + ("..." if len(parts) > 6 else "")) or "(top level)"


def check_data(data: Any, where: str) -> None:
    """Refuse plain data (as read from YAML or JSON) nested too deep, too large, or with a huge number.

    Walks without recursion and stops at the first value past a limit, so even a YAML
    "billion laughs" of aliases costs at most ``MAX_NODES`` steps.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    seen = 0
    while stack:
        value, path = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            raise LimitError(f"{where}: more than {MAX_NODES:,} values (the limit for one file or action)")
        if len(path) > MAX_DEPTH:
            raise LimitError(f"{where}: {_path(path)}: nested deeper than {MAX_DEPTH} levels (the limit)")
        if isinstance(value, str):
            _check_text(value, where, path)
            continue
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and abs(value) > MAX_NUMBER:  # a table 1e300" wide is a typo too
            raise LimitError(f"{where}: {_path(path)}: number too large (more than {MAX_NUMBER:.0e}; the limit)")
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, (str, int, float)) or isinstance(key, bool):
                    raise LimitError(f"{where}: {_path(path)}: expected text keys, got {type(key).__name__}")
                _check_text(str(key), where, path)
                stack.append((item, (*path, str(key))))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _check_text(text: str, where: str, path: tuple[str | int, ...]) -> None:
    """Refuse control characters (a terminal escape in a unit id would restyle the output)."""
    if found := _CONTROL.search(text):
        raise LimitError(f"{where}: {_path(path)}: control character {found.group()!r} in {text[:40]!r}; "
                         "expected printable text")


def check_size(size: int, where: str, limit: int = MAX_FILE_BYTES, unit: str = "bytes") -> None:
    """Refuse a file or text larger than the limit before reading it."""
    if size > limit:
        raise LimitError(f"{where}: {size:,} {unit}, more than the limit of {limit:,}")


def check_models(count: int, where: str) -> None:
    """Refuse a scenario with more models than the stated limit."""
    if count > MAX_MODELS:
        raise LimitError(f"{where}: {count:,} models, more than the limit of {MAX_MODELS:,}")
