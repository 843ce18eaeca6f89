"""``herohammer odds action``: the exact odds of a whole action in a scenario (engine issues)."""

from __future__ import annotations

from typing import Any


def register_action(queries: Any) -> None:
    """Add ``odds action`` once the game engine provides it (nothing yet)."""
    return None
