"""The project's error hierarchy: every failure a user can cause is one of these.

Each is a ``ValueError`` so that library callers can catch the family, and each
message says what was given, where, and which rule id forbids it, so that the
command line can print it as one line with no traceback.
"""

from __future__ import annotations

from typing import Any


class HerohammerError(ValueError):
    """Signal a problem the user can fix (bad input or an illegal request)."""


class ScenarioError(HerohammerError):
    """Report a malformed scenario file: the file, the field's path and what was expected."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: {field}" if field else source
        super().__init__(f"{where}: {problem}")


class IllegalActionError(HerohammerError):
    """Refuse an action, naming the rule ids that forbid it; the game state is unchanged."""

    def __init__(self, message: str, rules: tuple[str, ...] | list[str] = ()) -> None:
        self.rules = tuple(rules)
        self.reason = message
        cited = f" [{', '.join(self.rules)}]" if self.rules else ""
        super().__init__(f"illegal action: {message}{cited}")


class OutOfRangeError(HerohammerError):
    """Reject a value outside what the rules allow (Leadership 13, a 7+ roll, ...)."""

    def __init__(self, name: str, value: object, expected: str, rule: str | None = None) -> None:
        self.name = name
        self.value = value
        cited = f" [{rule}]" if rule else ""
        super().__init__(f"{name}: got {value!r}, expected {expected}{cited}")


class UnknownRulesetError(HerohammerError):
    """Reject a ruleset name that is not registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown ruleset: {name!r} (known: {', '.join(known)})")


class EnumerationTooLarge(Exception):
    """Stop an exact enumeration that would visit more outcomes than allowed.

    Not a user error: callers catch it and fall back to Monte Carlo, naming the method.
    """

    def __init__(self, limit: int, estimate: int | None = None) -> None:
        self.limit = limit
        self.estimate = estimate
        said = f"about {estimate:,} dice outcomes (estimated before enumerating)" if estimate else "more"
        super().__init__(f"{said} than {limit:,} dice outcomes to enumerate" if not estimate
                         else f"{said}, more than the {limit:,} allowed")


def validation_problem(exc: Any) -> tuple[str, str]:
    """Return (field path, one-line problem) for the first error of a pydantic ``ValidationError``.

    Duck-typed on ``exc.errors()`` so this module needs no pydantic import.
    """
    errors = exc.errors()
    err = errors[0]
    path = ""
    for part in err["loc"]:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    msg = str(err["msg"]).removeprefix("Value error, ")
    given = err.get("input")
    shown = "" if isinstance(given, (dict, list)) or given is None else f" (got {given!r})"
    more = len(errors) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return path, f"{msg}{shown}{tail}"
