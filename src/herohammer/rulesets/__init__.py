"""Rulesets by name: one lookup, ``ValueError("unknown ruleset: ...")`` for the rest."""

from __future__ import annotations

from ..errors import UnknownRulesetError
from .base import Ruleset
from .t9a_turn import NinthAgeTurn
from .w40k3 import Warhammer40k3
from .w40k4 import Warhammer40k4

RULESETS: dict[str, type[Ruleset]] = {cls.name: cls for cls in (Warhammer40k3, Warhammer40k4, NinthAgeTurn)}


def get_ruleset(name: str) -> Ruleset:
    """Return the ruleset registered under ``name``."""
    try:
        return RULESETS[name]()
    except (KeyError, TypeError):  # TypeError: a dict or list given as the name
        raise UnknownRulesetError(name, sorted(RULESETS)) from None


__all__ = ["RULESETS", "Ruleset", "get_ruleset"]
