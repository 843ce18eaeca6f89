"""The command line: one parser, a sub-command per module in ``commands/``.

Every user error (bad input, an illegal action, an unknown ruleset) ends as one line
on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .errors import HerohammerError


class _Parser(argparse.ArgumentParser):
    """Report a usage error as one line and exit 2, instead of usage plus error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the parser with every registered sub-command (importing them: numpy, pydantic, rich ...)."""
    from .commands import COMMANDS

    parser = _Parser(
        prog="herohammer",
        description="Rules engine, exact odds and simulator for wargame character rules.",
    )
    parser.add_argument("--version", action="version", version=f"herohammer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit status."""
    args_given = sys.argv[1:] if argv is None else list(argv)
    if args_given == ["--version"]:  # answered before the sub-commands (and their libraries) load
        print(f"herohammer {__version__}")
        return 0
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except HerohammerError as exc:
        print(f"herohammer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: files are written whole or not at all (write_atomically)
        print("herohammer: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0
