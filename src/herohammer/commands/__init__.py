"""Sub-commands, listed in a light table and imported only when one runs.

``herohammer --help`` lists every command from ``COMMANDS`` without importing any
command module (nor numpy, pydantic, rich or shapely, which they pull in); the module
of the command actually given is imported and registers its full parser.  A module
exposes ``register...(subparsers)`` and takes its one-line help from ``summary(name)``,
so the table is the only place that help is written.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

SubParsers = Any  # argparse's private _SubParsersAction
Register = Callable[[SubParsers], argparse.ArgumentParser]


@dataclass(frozen=True)
class Command:
    """A sub-command as ``--help`` lists it: its name, one line, and where its parser is registered."""

    name: str
    help: str
    module: str  # under herohammer.commands
    register: str = "register"


COMMANDS: tuple[Command, ...] = (
    Command("odds", "exact odds of tests, psychic tests, attacks", "odds_cmd"),
    Command("rules", "list the rule clauses and their status", "rules_cmd"),
    Command("rulings", "the rulings book: worked rulings citing the rules, played through the engine", "rulings_cmd"),
    Command("check", "is this action legal? with the deciding rule ids", "game_cmds", "register_check"),
    Command("targets", "which enemy units may this unit shoot at?", "game_cmds", "register_targets"),
    Command("actions", "the active side's legal actions now", "game_cmds", "register_actions"),
    Command("play", "apply actions in order; print every roll; save the state", "play_cmd"),
    Command("simulate", "play a scenario many times: outcome table, 95%% intervals, exact odds beside them",
            "simulate_cmd", "register_simulate"),
    Command("sweep", "simulate a grid of scenario variants (--vary PATH=V1,V2); processes or a Dask cluster",
            "simulate_cmd", "register_sweep"),
    Command("catalogue", "list the units of a BattleScribe .cat/.catz/.gst/.ros/.rosz file, or show one",
            "catalogue_cmd"),
    Command("scenario", "write a scenario file (from BattleScribe rosters)", "scenario_cmd"),
    Command("schema", "write the JSON Schema of scenario and plan files (for editors)", "schema_cmd"),
    Command("serve", "the table in a browser: rulings, targets, odds, play and undo (a local web app)", "serve_cmd"),
)

_BY_NAME = {c.name: c for c in COMMANDS}


def summary(name: str) -> str:
    """Return a command's one-line help, as the table states it."""
    return _BY_NAME[name].help


def register_commands(sub: SubParsers, chosen: str | None) -> None:
    """Register the ``chosen`` command's full parser (importing its module) and every other as a name and help.

    A listed-only command still parses as itself, so a mistyped command is refused with
    every choice named, and ``--help`` lists them all without importing any of them.
    """
    for command in COMMANDS:
        if command.name == chosen:
            register: Register = getattr(import_module(f".{command.module}", __name__), command.register)
            register(sub)
        else:
            sub.add_parser(command.name, help=command.help, add_help=False)
