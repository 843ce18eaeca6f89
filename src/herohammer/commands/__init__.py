"""Sub-commands: each module exposes ``register(subparsers)``; add new ones to COMMANDS."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from . import (catalogue_cmd, game_cmds, odds_cmd, play_cmd, rules_cmd, rulings_cmd, scenario_cmd, schema_cmd,
               serve_cmd, simulate_cmd)

SubParsers = Any  # argparse's private _SubParsersAction
Register = Callable[[SubParsers], argparse.ArgumentParser]

COMMANDS: list[Register] = [
    odds_cmd.register,
    rules_cmd.register,
    rulings_cmd.register,
    game_cmds.register_check,
    game_cmds.register_targets,
    game_cmds.register_actions,
    play_cmd.register,
    simulate_cmd.register,  # simulate and sweep
    catalogue_cmd.register,
    scenario_cmd.register,
    schema_cmd.register,
    serve_cmd.register,
]
