"""herohammer: rules engine, exact odds and simulator for wargame character rules.

Warhammer 40,000 3rd and 4th edition (independent characters, psykers, Perils of the
Warp) and The 9th Age (characters in rank-and-file units), with the characteristic
and Leadership tests they share.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: The one place the version is written: pyproject.toml reads it from here (``[tool.setuptools.dynamic]``),
#: so the package needs no ``importlib.metadata`` (tens of milliseconds) to know it at start-up.
__version__ = "0.1.0"

#: The public API, ``from herohammer import Game, load_scenario, ...``: name -> the module defining it.
#: Loaded on first use (module ``__getattr__``), so ``import herohammer`` and ``--version`` stay fast.
#: The functions named like their modules (``action_odds.action_odds``, ``simulate.simulate``) are
#: imported from those modules: a package attribute would be replaced by the module on its import
#: (``action_odds`` is exported as ``odds_of_action``).
_PUBLIC = {
    "Game": "game", "Step": "game", "load_scenario": "scenario", "state_from_data": "scenario", "save_scenario": "scenario",
    "GameState": "state", "parse_action": "actions", "Action": "actions",
    "ACTION_TYPES": "actions", "is_action": "actions", "Ruling": "rulings", "Event": "rulings",
    "get_ruleset": "rulesets", "RULESETS": "rulesets", "Ruleset": "rulesets",
    "SeededDice": "dice", "ScriptedDice": "dice", "Dice": "dice", "Reroll": "dice", "enumerate_outcomes": "dice",
    "Distribution": "distribution", "Profile": "profiles", "parse_amount": "notation", "DiceAmount": "notation",
    "parse_roll_needed": "notation", "ActionOdds": "action_odds", "odds_of_action": "action_odds",
    "Outcome": "action_odds", "Estimate": "action_odds", "DiceRanOut": "errors", "simulate_file": "simulate", "read_battlescribe": "battlescribe", "HerohammerError": "errors",
    "ScenarioError": "errors", "IllegalActionError": "errors", "OutOfRangeError": "errors",
}

#: Written out (``_PUBLIC``'s names; a test holds them equal): type checkers read ``__all__`` only as a literal.
__all__ = [
    "__version__", "Game", "Step", "load_scenario", "state_from_data", "save_scenario", "GameState", "parse_action",
    "Action", "ACTION_TYPES", "is_action", "Ruling", "Event", "get_ruleset", "RULESETS", "Ruleset", "SeededDice", "ScriptedDice", "Dice",
    "Reroll", "enumerate_outcomes", "Distribution", "Profile", "parse_amount", "DiceAmount",
    "parse_roll_needed", "ActionOdds", "odds_of_action", "Outcome", "Estimate", "DiceRanOut", "simulate_file", "read_battlescribe", "HerohammerError",
    "ScenarioError", "IllegalActionError", "OutOfRangeError",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors only
    from .action_odds import (
        ActionOdds as ActionOdds, Estimate as Estimate, Outcome as Outcome, odds_of_action as odds_of_action,
    )
    from .actions import (
        ACTION_TYPES as ACTION_TYPES, Action as Action, is_action as is_action, parse_action as parse_action,
    )
    from .battlescribe import read_battlescribe as read_battlescribe
    from .dice import (
        Dice as Dice, Reroll as Reroll, ScriptedDice as ScriptedDice, SeededDice as SeededDice,
        enumerate_outcomes as enumerate_outcomes,
    )
    from .distribution import Distribution as Distribution
    from .errors import (
        DiceRanOut as DiceRanOut, HerohammerError as HerohammerError, IllegalActionError as IllegalActionError,
        OutOfRangeError as OutOfRangeError, ScenarioError as ScenarioError,
    )
    from .game import Game as Game, Step as Step
    from .notation import (
        DiceAmount as DiceAmount, parse_amount as parse_amount, parse_roll_needed as parse_roll_needed,
    )
    from .profiles import Profile as Profile
    from .rulesets import RULESETS as RULESETS, Ruleset as Ruleset, get_ruleset as get_ruleset
    from .rulings import Event as Event, Ruling as Ruling
    from .scenario import (
        load_scenario as load_scenario, save_scenario as save_scenario, state_from_data as state_from_data,
    )
    from .simulate import simulate_file as simulate_file
    from .state import GameState as GameState


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'herohammer' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
