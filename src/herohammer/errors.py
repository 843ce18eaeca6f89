"""The project's error hierarchy: every failure a user can cause is one of these.

Each is a ``ValueError`` so that library callers can catch the family, and each
message says what was given, where, and which rule id forbids it, so that the
command line can print it as one line with no traceback.
"""

from __future__ import annotations

import re
from typing import Any


def _rebuilt(kind: type[BaseException], args: tuple[Any, ...], fields: dict[str, Any]) -> BaseException:
    """Make an error again from its message and fields, not through its ``__init__`` (see ``_Rebuildable``)."""
    error = kind.__new__(kind, *args)
    error.args = args
    error.__dict__.update(fields)
    return error


class _Rebuildable:
    """Let an error travel through ``pickle`` and ``copy`` whole: its message as it was and every field.

    Why: Python rebuilds an exception by calling its class with ``args`` (the finished message), which an
    ``__init__`` taking other arguments (a file, a field, a problem) refuses or formats again; a bot running games
    in a process pool gets its errors back through pickle.
    """

    args: tuple[Any, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.args, dict(self.__dict__))


class HerohammerError(_Rebuildable, ValueError):
    """Signal a problem the user can fix (bad input or an illegal request).

    Its text is always one line: a control character in what it quotes (a file name
    ending in a carriage return, an id with a newline) is shown escaped, never obeyed.
    """

    def __str__(self) -> str:
        return one_line(super().__str__())


#: Control characters shown as escapes in error messages (``\n`` as the two characters backslash, n).
_ESCAPED = {c: repr(chr(c))[1:-1] for c in (*range(0x20), *range(0x7F, 0xA0))}


def one_line(text: str) -> str:
    """Return text with its control characters (newlines included) shown as escapes: one line, never obeyed."""
    return text.translate(_ESCAPED)


class ScenarioError(HerohammerError):
    """Report a malformed scenario file: the file, the field's path and what was expected."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: {field}" if field else source
        super().__init__(f"{where}: {problem}")


class DiceRanOut(HerohammerError):
    """A judge's scripted dice hold no face for a roll an action makes (nothing of the action happened): told apart
    from other errors by its type, so ``play`` can say how many faces it was given and a record's playback that its
    dice do not match.  ``rules``: the rule id of the roll that found no face, cited as a refusal cites its rules
    (the web table shows it as a refusal's)."""

    def __init__(self, message: str, rules: tuple[str, ...] | list[str] = ()) -> None:
        self.rules = tuple(rules)
        cited = f" [{', '.join(self.rules)}]" if self.rules else ""
        super().__init__(f"{message}{cited}")


class IllegalActionError(HerohammerError):
    """Refuse an action, naming the rule ids that forbid it; the game state is unchanged."""

    def __init__(self, message: str, rules: tuple[str, ...] | list[str] = ()) -> None:
        self.rules = tuple(rules)
        self.reason = message
        cited = f" [{', '.join(self.rules)}]" if self.rules else ""
        if message.endswith(cited):  # a reason that ends citing its rules already is not cited twice
            cited = ""
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


class EnumerationTooLarge(_Rebuildable, Exception):
    """Stop an exact enumeration that would visit more outcomes than allowed.

    Not a user error: callers catch it and fall back to Monte Carlo, naming the method.
    """

    def __init__(self, limit: int, estimate: int | None = None, where: str | None = None,
                 at_least: bool = False) -> None:
        self.limit = limit
        self.estimate = estimate
        #: Where the size was found (a plan's step: ``at step 5 (fight: wizard)``), if known.
        self.where = where
        #: ``estimate`` is the least the estimate could come to (a plan's estimate stopped early), not the estimate.
        self.at_least = at_least
        super().__init__(self.reason())

    def reason(self) -> str:
        """Say in one phrase why there is no exact answer: the estimate against the budget (and where it was found),
        or the budget spent."""
        if self.estimate:
            at = f" {self.where}" if self.where else ""
            return (f"exact enumeration would take {'more than' if self.at_least else 'about'} "
                    f"{about(self.estimate)} rules-code runs (budget {self.limit:,}){at}")
        at = f" (the budget ran out {self.where})" if self.where else ""
        return f"the chance tree has more than {self.limit:,} rules-code runs{at}"


def about(n: int) -> str:
    """Write a large count roughly: ``6,936``, ``2.3e7``."""
    if n < 100_000:
        return f"{n:,}"
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _known_keys(model: Any, loc: tuple[Any, ...]) -> list[str]:
    """Return the keys the model at ``loc`` accepts (walking field annotations: lists, dicts, optionals)."""
    import typing

    def models_in(annotation: Any) -> list[Any]:
        if hasattr(annotation, "model_fields"):
            return [annotation]
        return [m for arg in typing.get_args(annotation) for m in models_in(arg)]

    current = [model]
    for part in loc:
        if not isinstance(part, str):
            continue
        following = []
        for m in current:
            fields = getattr(m, "model_fields", {})
            by_key = {(f.alias or name): f for name, f in fields.items()}
            if part in by_key:
                following += models_in(by_key[part].annotation)
            elif not fields:
                following.append(m)
        current = following or current  # a dict key (a side's name) keeps the model below it
    return sorted({(f.alias or name) for m in current for name, f in getattr(m, "model_fields", {}).items()})


def unknown_key_problem(key: str, known: list[str]) -> str:
    """Say that a key is unknown, suggesting the nearest known one (difflib), never the validator's wording."""
    import difflib

    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if close:
        return f"unknown key `{key}`; did you mean `{close[0]}`?"
    return f"unknown key `{key}`; expected one of: {', '.join(f'`{k}`' for k in known)}"


def validation_problem(exc: Any, model: Any = None) -> tuple[str, str]:
    """Return (field path, one-line problem) for the first error of a pydantic ``ValidationError``.

    Duck-typed on ``exc.errors()`` so this module needs no pydantic import.  An unknown key
    is reported in our words with the nearest known key (``model`` is the model validated).
    """
    errors = exc.errors()
    err = next((e for e in errors if e.get("type") == "extra_forbidden"), None)  # a misspelt key explains the rest
    siblings = 1
    if err is None:
        err, siblings = _deepest_choice(errors)
    path = field_path(err["loc"])
    if err.get("type") == "extra_forbidden" and err["loc"]:
        known = _known_keys(model, tuple(err["loc"][:-1])) if model is not None else []
        more = len(errors) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        if known:
            return path, unknown_key_problem(str(err["loc"][-1]), known) + tail
        return path, f"unknown key `{err['loc'][-1]}`" + tail
    msg = in_our_words(err)
    given = err.get("input")
    shown = "" if isinstance(given, (dict, list)) or given is None else f" (got {given!r})"
    more = len(errors) - siblings  # the other members of the union that failed are not more problems
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return path, f"{msg}{shown}{tail}"


def field_path(loc: Any) -> str:
    """Write a pydantic error location as the scenario files' field paths do: ``sides.red[1].at[0]``, ``to[0][1]``
    (keys joined by dots, list places in brackets; which member of a union pydantic tried left out)."""
    path = ""
    for part in loc:
        if isinstance(part, str) and _UNION_TAG.match(part):
            continue  # which member of a union pydantic tried (``float``, ``function-before[...]``): not a field
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


#: A union member's tag in a pydantic error location (``base: 25 | [25, 50]`` tried as ``float``, then ``list[float]``).
_UNION_TAG = re.compile(r"^(?:function-(?:before|after|wrap|plain)\[.*\]|float|int|str|bool"
                        r"|(?:list|dict|tuple|set|union)\[.*\]|constrained-\w+)$")


def _deepest_choice(errors: list[Any]) -> tuple[Any, int]:
    """Return the first error, or, when it is one member of a union failing (``profile.str: expected text``), the
    deepest error of that union's members, our own validator's first: the one that names what is wrong
    (``profile.BS: expected a number, not true/false``)."""
    first = errors[0]
    loc = tuple(first["loc"])
    at = next((i for i, part in enumerate(loc) if isinstance(part, str) and _UNION_TAG.match(part)), None)
    if at is None:
        return first, 1
    same = [e for e in errors if tuple(e["loc"])[:at] == loc[:at]]
    return max(same, key=lambda e: (len(e["loc"]), e.get("type") == "value_error")), len(same)  # our words first


#: pydantic's error types, said in the project's words (a user never reads the validation library's own).
_OUR_WORDS: dict[str, str] = {
    "missing": "required, but not given",
    "int_type": "expected a whole number", "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "float_type": "expected a number", "float_parsing": "expected a number",
    "finite_number": "expected a finite number",
    "string_type": "expected text", "bool_type": "expected true or false", "bool_parsing": "expected true or false",
    "list_type": "expected a list", "tuple_type": "expected a list", "dict_type": "expected a mapping",
    "model_type": "expected a mapping", "model_attributes_type": "expected a mapping",
    "union_tag_not_found": "missing the `{discriminator}` key",
    "greater_than_equal": "expected at least {ge}", "less_than_equal": "expected at most {le}",
    "greater_than": "expected more than {gt}", "less_than": "expected less than {lt}",
    "too_short": "expected at least {min_length} item(s)", "too_long": "expected at most {max_length} item(s)",
    "string_too_short": "expected at least {min_length} character(s)",
    "string_too_long": "expected at most {max_length} character(s)",
}


def in_our_words(err: Any) -> str:
    """Say one pydantic error in the project's words; our own validators' messages pass through."""
    kind = str(err.get("type", ""))
    ctx = {k: str(v) for k, v in (err.get("ctx") or {}).items()}
    if kind in ("literal_error", "enum"):
        return f"expected {ctx.get('expected', 'one of the allowed values')}"
    if kind == "union_tag_invalid":
        return f"unknown {ctx.get('discriminator', 'kind')} {ctx.get('tag', '?')!r}; expected one of {ctx.get('expected_tags', '?')}"
    words = _OUR_WORDS.get(kind)
    if words is not None:
        try:
            return words.format(**ctx)
        except (KeyError, IndexError):
            pass
    return str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
