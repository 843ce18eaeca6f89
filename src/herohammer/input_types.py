"""The pydantic types for a number in input (a scenario file, an action, a request): true, false and text refused.

A YAML or JSON ``true`` is a Python ``bool``, which is an ``int``: pydantic would read
``at: [true, 20]`` as ``[1.0, 20.0]``, a silently wrong answer.  Text is refused too:
pydantic would read ``"20"`` (a quoted number, ``move: "6"``) as 20, so a file that
writes a number as text would load in our reader and fail in any stricter one, and
``"1e3"`` or ``" 20 "`` would pass unseen.  Every field where a number is meant uses
one of these types, so the error names the field.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BeforeValidator


def not_bool(value: Any) -> Any:
    """Refuse true/false where a number is meant (pydantic would read true as 1)."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    return value


def plain_number(value: Any) -> Any:
    """Refuse true/false and text where a number is meant (pydantic would read true as 1 and "20" as 20)."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    if isinstance(value, (str, bytes, bytearray)):
        raise ValueError(_as_text(value))
    return value


def _as_text(value: str | bytes | bytearray) -> str:
    """Say why a number came as text: quoted, or an exponent YAML 1.1 reads as text (``1e1``, ``1.5e1``)."""
    text = value.strip() if isinstance(value, str) else ""
    if "e" in text.lower():
        try:
            number = float(text)
        except ValueError:
            pass
        else:
            if math.isfinite(number):
                return (f"expected a number, not text: {text} came as text (in quotes, or an exponent, which YAML "
                        f"reads as a number only with a dot and a sign: 1.0e+1); write {number:g}")
    return "expected a number, not text (a number is written without quotes)"


#: A number (whole or not) in input.
Number = Annotated[float, BeforeValidator(plain_number)]
#: A whole number in input.
Count = Annotated[int, BeforeValidator(plain_number)]
#: A point on the table, [x, y] in inches.
Point = tuple[Number, Number]


def number_not_text(value: Any) -> Any:
    """Refuse a number written as text (``"4"``) where text or a number may stand (a profile's ``Sv: 3+``, ``WS: 4``)."""
    if isinstance(value, str) and value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        raise ValueError("expected a number, not text (a number is written without quotes)")
    return plain_number(value) if isinstance(value, bool) else value


#: A characteristic's value in a profile mapping: a number, or text that is not a plain number (``3+``, ``-``, ``D6``).
Characteristic = Annotated[str | int, BeforeValidator(number_not_text)]
