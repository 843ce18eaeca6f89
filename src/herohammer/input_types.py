"""The pydantic types for a number in input (a scenario file, an action, a request): true and false refused.

A YAML or JSON ``true`` is a Python ``bool``, which is an ``int``: pydantic would read
``at: [true, 20]`` as ``[1.0, 20.0]``, a silently wrong answer.  Every field where a
number is meant uses one of these types, so the error names the field.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator


def not_bool(value: Any) -> Any:
    """Refuse true/false where a number is meant (pydantic would read true as 1)."""
    if isinstance(value, bool):
        raise ValueError("expected a number, not true/false")
    return value


#: A number (whole or not) in input.
Number = Annotated[float, BeforeValidator(not_bool)]
#: A whole number in input.
Count = Annotated[int, BeforeValidator(not_bool)]
#: A point on the table, [x, y] in inches.
Point = tuple[Number, Number]
