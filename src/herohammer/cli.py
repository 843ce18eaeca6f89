"""The command line: one parser, a sub-command per module in ``commands/``.

Every user error (bad input, an illegal action, an unknown ruleset) ends as one line
on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from . import __version__
from .console import INTERRUPTED
from .errors import HerohammerError, one_line


class _StoreOnce(argparse._StoreAction):
    """Refuse an option given twice: argparse would keep the last silently, and which one was meant is unknown."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if option_string is not None:
            given: set[str] = namespace.__dict__.setdefault("_options_given", set())
            if self.dest in given:
                parser.error(f"{option_string} given twice: give it once (a second value would replace the first)")
            given.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """Report a usage error as one line and exit 2, instead of usage plus error (JSON under ``--json``).

    An option that takes one value refuses a second (``_StoreOnce``); those meant to repeat say so (``append``).
    """

    json_errors = False
    #: The sub-command's words (``odds action``): the root parser reports the arguments no parser took, in its own
    #: name, which read "herohammer: error: unrecognized arguments" and a JSON envelope whose command was "".
    chosen = ""
    #: The words typed, so that a missing argument's message can name the unknown options typed instead of it.
    words: Sequence[str] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> NoReturn:
        message = one_line(message)  # an argument quoted back may hold a newline
        prog = self.prog
        if message.startswith("the following arguments are required") and (unknown := self._unknown_options()):
            # argparse names the missing argument before the unknown option typed, often in its place
            message = (f"unrecognized arguments: {' '.join(unknown)} ({prog} --help lists its options); "
                       f"and {message}")
        message = self._command_words(message)
        if prog == "herohammer" and _Parser.chosen and message.startswith("unrecognized arguments"):
            prog = f"herohammer {_Parser.chosen}"
            message += f" (herohammer {_Parser.chosen} --help lists its options)"
        if _Parser.json_errors:
            _print_json_error(prog.removeprefix("herohammer").strip(), f"{prog}: {message}", ())
            self.exit(2)
        self.exit(2, f"{prog}: error: {message}\n")


    def _command_words(self, message: str) -> str:
        """Name the commands when none is given ("required: command" said only the argument's name) and the nearest
        one to a mistyped command (argparse lists them all)."""
        sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None or not sub.choices:
            return message
        names = list(sub.choices)
        if message == f"the following arguments are required: {sub.dest}":
            return f"expected a command: {', '.join(names)} ({self.prog} --help says what each does)"
        typed = message.removeprefix(f"argument {sub.dest}: invalid choice: ").split(" (choose from", 1)[0]
        if typed != message and len(typed) > 2 and typed[0] == typed[-1] == "'":
            import difflib

            near = difflib.get_close_matches(typed[1:-1], names, n=1, cutoff=0.6)
            return f"no command {typed}" + (f"; did you mean {near[0]}?" if near else "") + f" (commands: {', '.join(names)})"
        return message

    def _unknown_options(self) -> list[str]:
        """The option words typed that neither this parser nor its parents know (negative numbers are values)."""
        known = set(self._option_string_actions)
        return [w for w in _Parser.words if w.startswith("-") and w != "-" and not w[1:2].isdigit()
                and w.split("=", 1)[0] not in known and not w.startswith("--json")]


def _print_json_error(command: str, message: str, rules: Sequence[str]) -> None:
    """Print an error in the common JSON envelope (on stdout, where a machine reads the answer)."""
    from .report import dump_json, envelope

    out = envelope(command, None, rules=rules, method=None)
    out["error"] = message
    try:
        print(dump_json(out), flush=True)
    except BrokenPipeError:  # the reader has gone (piped into head): nothing left to tell it
        _stdout_gone()


def _stdout_gone() -> None:
    """Point stdout at /dev/null once its reader has closed the pipe, so Python's flush at exit finds nowhere to fail
    (else it prints "Exception ignored ... BrokenPipeError"), as the Python documentation advises for SIGPIPE."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout with no file behind it (a test's capture): nothing to flush there
        pass


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """Build the parser: the ``chosen`` sub-command in full, every other by name and help only.

    Only the chosen command's module is imported (with numpy, pydantic, rich ... as it
    needs them), so ``--help`` and a quick command do not load what they do not use.
    """
    from .commands import register_commands

    parser = _Parser(
        prog="herohammer",
        description="Rules engine, exact odds and simulator for wargame character rules.",
    )
    parser.add_argument("--version", action="version", version=f"herohammer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    register_commands(sub, chosen)
    return parser


def _command_word(words: Sequence[str]) -> str | None:
    """Return the sub-command named on the command line (its first word that is not an option), if any."""
    return next((w for w in words if not w.startswith("-")), None)


def _chosen_words(words: Sequence[str]) -> str:
    """The sub-command as typed, with ``odds``'s question (``odds action``), for a usage error's words."""
    from .commands import COMMANDS

    plain = [w for w in words if not w.startswith("-")]
    if not plain or plain[0] not in {c.name for c in COMMANDS}:
        return ""
    if plain[0] == "odds" and len(plain) > 1 and plain[1] in ("test", "leadership", "psychic", "attacks", "action"):
        return " ".join(plain[:2])
    return plain[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit status (130 after Ctrl-C, at any moment, with one line)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: files are written whole or not at all (write_atomically)
        if argv is None:  # the command itself (a library call with its own words keeps the caller's Ctrl-C)
            _ignore_ctrl_c()
        print(INTERRUPTED, file=sys.stderr)
        return 130


def _ignore_ctrl_c() -> None:
    """Let the command that took its Ctrl-C wind up: a second one (pressed again, or one already pending while a
    pool's workers were ended) would otherwise raise past the one line and end the process by SIGINT, not 130."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _main(argv: Sequence[str] | None) -> int:
    args_given = sys.argv[1:] if argv is None else list(argv)
    if args_given == ["--version"]:  # answered before the sub-commands (and their libraries) load
        print(f"herohammer {__version__}")
        return 0
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_word(words))
    _Parser.json_errors = "--json" in words
    _Parser.chosen = _chosen_words(words)
    _Parser.words = words
    try:
        args = parser.parse_args(words)
    finally:
        _Parser.json_errors, _Parser.chosen, _Parser.words = False, "", ()
    try:
        try:
            return int(args.run(args) or 0)
        except HerohammerError as exc:
            if getattr(args, "json", False):
                command = " ".join(w for w in (args.command, getattr(args, "query", None)) if w)
                _print_json_error(command, str(exc), getattr(exc, "rules", ()))  # may meet a closed pipe too
                return 2
            print(f"herohammer: error: {exc}", file=sys.stderr)
            return 2
    except BrokenPipeError:  # e.g. piped into head, which has read what it wanted and closed the pipe
        _stdout_gone()
        return 0
