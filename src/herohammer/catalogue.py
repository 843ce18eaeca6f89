"""The project's own catalogue of rule clauses, and which of them the code implements.

Clause texts live in ``data/rules.yaml`` in the project's own words, keyed by the ids
of the shared catalogue.  Code that decides a clause names it with ``@implements``
(or calls ``implements`` at import time), so ``herohammer rules`` can report which
clauses are implemented by looking at the code itself rather than at a hand-kept list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TypeVar

import yaml

F = TypeVar("F", bound=Callable[..., object])

_IMPLEMENTED: dict[str, list[str]] = {}


@dataclass(frozen=True)
class Clause:
    """One rule clause: its id, the ruleset it binds, its seed, and what it says."""

    id: str
    ruleset: str
    seed: str
    says: str
    decision: str | None = None
    #: Where a ``published.*`` clause comes from (edition rulebook and section); seed clauses cite their seed.
    source: str | None = None


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Mark a function or class as the place where these clauses are decided."""

    def mark(obj: F) -> F:
        name = f"{obj.__module__}.{getattr(obj, '__qualname__', repr(obj))}"
        for rid in rule_ids:
            _IMPLEMENTED.setdefault(rid, []).append(name)
        return obj

    return mark


@lru_cache(maxsize=1)
def clauses() -> tuple[Clause, ...]:
    """Load every clause of the project's catalogue, in file order."""
    text = resources.files("herohammer").joinpath("data/rules.yaml").read_text(encoding="utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506  (libyaml: 10x faster)
    out: list[Clause] = []
    for ruleset, items in data.items():
        for item in items:
            out.append(
                Clause(
                    id=item["id"],
                    ruleset=ruleset,
                    seed=str(item.get("seed", "published")),
                    says=" ".join(str(item["says"]).split()),
                    decision=" ".join(str(item["decision"]).split()) if item.get("decision") else None,
                    source=" ".join(str(item["source"]).split()) if item.get("source") else None,
                )
            )
    return tuple(out)


def clause(rule_id: str) -> Clause:
    """Return one clause by id (``KeyError`` names the unknown id)."""
    for c in clauses():
        if c.id == rule_id:
            return c
    raise KeyError(f"unknown rule id: {rule_id}")


def implemented_by(rule_id: str) -> list[str]:
    """Return the code objects that declare they decide this clause."""
    _load_rule_modules()
    return list(_IMPLEMENTED.get(rule_id, []))


def _load_rule_modules() -> None:
    """Import every module that holds rules so that their ``@implements`` marks register."""
    from . import rules_index  # noqa: F401  (imports the rule modules)
