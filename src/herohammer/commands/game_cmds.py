"""``herohammer check``, ``targets`` and ``actions``: rulings on a scenario file."""

from __future__ import annotations

import argparse
from typing import Any

from ..actions import parse_action
from ..game import Game
from ..report import one_line_json, print_json, simple_table
from . import summary
from .args import Once, add_json_flag, known_unit, known_units, say_notes


def register_check(sub: Any) -> argparse.ArgumentParser:
    """Add ``check SCENARIO --action JSON``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "check", help=summary("check"),
        description="Rule on one action without applying it. The answer (LEGAL or ILLEGAL) is the output: "
                    "the exit status is 0 either way, unless --strict is given; bad input exits 2.")
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    p.add_argument("--action", required=True, action=Once, help='the action as JSON, e.g. {"do": "join", ...}')
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when the action is illegal (without it an illegal action still exits 0)")
    add_json_flag(p)
    p.set_defaults(run=_run_check)
    return p


def register_targets(sub: Any) -> argparse.ArgumentParser:
    """Add ``targets SCENARIO --unit ID``."""
    p: argparse.ArgumentParser = sub.add_parser("targets", help=summary("targets"))
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    p.add_argument("--unit", required=True, help="the firing unit's id")
    add_json_flag(p)
    p.set_defaults(run=_run_targets)
    return p


def register_actions(sub: Any) -> argparse.ArgumentParser:
    """Add ``actions SCENARIO``."""
    p: argparse.ArgumentParser = sub.add_parser("actions", help=summary("actions"))
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    add_json_flag(p)
    p.set_defaults(run=_run_actions)
    return p


def _run_check(args: argparse.Namespace) -> int:
    game = Game.load(args.scenario)
    action = parse_action(args.action, "--action")
    known_units(game.state, action)
    ruling = game.check(action)
    notes = say_notes(game.state, args.json)  # with the answer: a refused input is one line, without them
    if args.json:
        print_json("check", ruling.to_json(), ruleset=game.state.ruleset, rules=ruling.rules, method=None, notes=notes)
    else:
        verdict = "LEGAL" if ruling.legal else "ILLEGAL"
        print(f"{verdict}: {ruling.reason} [{', '.join(ruling.rules) or 'no special rule'}]")
        for note in ruling.notes:
            print(f"  note: {note}")
    return 1 if args.strict and not ruling.legal else 0


def _run_targets(args: argparse.Namespace) -> int:
    game = Game.load(args.scenario)
    known_unit(game.state, args.unit, "--unit")
    answers = game.ruleset.targets(game.state, args.unit)
    notes = say_notes(game.state, args.json)
    if args.json:
        print_json("targets", {"unit": args.unit, "targets": {k: v.to_json() for k, v in answers.items()}},
                   ruleset=game.state.ruleset, rules=[r for v in answers.values() for r in v.rules], method=None,
                   notes=notes)
        return 0
    if not answers:  # an empty table would read as "nothing to say": say why there is nothing
        state = game.state
        why = [f"{side}: " + ("every unit destroyed or aboard a transport" if any(u.side == side for u in state.units)
                                  else "no units")
               for side in state.sides if side != state.unit(args.unit).side]
        print(f"Targets for {args.unit}: none, no enemy unit stands on the table ({'; '.join(why)})")
        return 0
    simple_table(f"Targets for {args.unit}", ["target", "legal", "rules", "reason"],
                 [[k, "yes" if v.legal else "no", ", ".join(v.rules), v.reason] for k, v in answers.items()])
    return 0


def _run_actions(args: argparse.Namespace) -> int:
    game = Game.load(args.scenario)
    legal = game.legal_actions()
    summary = game.ruleset.summarise_actions(game.state, legal)
    none = game.why_no_actions()
    notes = say_notes(game.state, args.json)
    if args.json:  # every listed action is accepted as it is by check --action and play --action
        print_json("actions", {"active": game.state.active, "phase": game.state.phase.value,
                               "actions": [a.to_json() for a in legal], "summary": summary,
                               "none_because": none.reason if none else None},
                   ruleset=game.state.ruleset, rules=list(none.rules) if none else [], method=None, notes=notes)
        return 0
    print(f"{game.state.active} to act, {game.state.phase.value} phase:")
    for item in summary:
        print("  " + one_line_json(item))
    if none is not None:
        print(f"  none: {none.reason} [{', '.join(none.rules)}]")
    return 0
