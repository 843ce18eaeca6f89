"""``herohammer play``: apply actions to a scenario with seeded or given dice, print the log, save the result.

Every game can be replayed: without ``--seed`` a seed is chosen, printed and written
into the saved state (``played:``, the game's record: ``records.py``); with ``--dice 3,5,6``
a judge's physical rolls are used in order, and running out is one clear error that changes
nothing.  ``play FILE --replay`` plays a saved game's record back and checks every step.
"""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from ..action_odds import summarise
from ..actions import parse_action
from ..dice import Dice, ScriptedDice, SeededDice, unused_words
from ..errors import DiceRanOut, HerohammerError, IllegalActionError
from ..game import Game
from ..rulings import Event
from ..report import print_json
from ..scenario import check_writable, read_data, save_scenario, state_from_data
from . import summary
from .args import add_json_flag, known_units, say_notes, whole_number

MAX_SEED = 2**63 - 1
#: Chosen seeds are nine digits at most: short enough for a judge to read out and type back.
CHOSEN_SEEDS = 10**9


def dice_faces(text: str) -> list[int]:
    """Read ``--dice 3,5,6`` (commas or spaces): faces 1..6, in the order rolled."""
    faces = []
    for i, part in enumerate(text.replace(",", " ").split(), start=1):
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= 6:
            raise argparse.ArgumentTypeError(f"die #{i} is {part!r}: expected a face from 1 to 6")
        faces.append(int(part))
    if not faces:
        raise argparse.ArgumentTypeError("expected faces such as 3,5,6")
    return faces


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``play SCENARIO --action ACTION [--action ...] [--seed S | --dice 3,5,6] [--out FILE]``."""
    p: argparse.ArgumentParser = sub.add_parser("play", help=summary("play"))
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    p.add_argument("--action", action="append", default=None,
                   help="an action as JSON or YAML, e.g. '{do: shoot, unit: a, target: b}'; repeat for several, in order")
    p.add_argument("--replay", action="store_true",
                   help="play back the game recorded in the file (its played:, as --out writes it) from its start, "
                        "checking every step and that it ends at the state saved")
    dice = p.add_mutually_exclusive_group()
    dice.add_argument("--seed", type=whole_number("--seed", 0, MAX_SEED), default=None,
                      help="seed for the dice (the same seed replays the same rolls); chosen and printed if omitted")
    dice.add_argument("--dice", type=dice_faces, default=None, metavar="3,5,6,...",
                      help="the rolls to use, in order (a judge's physical dice)")
    p.add_argument("--out", default=None, help="write the resulting state here (YAML, or JSON if it ends in .json)")
    add_json_flag(p)
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    if args.replay:
        return _run_replay(args)
    if not args.action:
        raise HerohammerError("play: give the actions to play (--action ACTION, repeat for several), or --replay to "
                              "play back the game a saved file records")
    if args.out:
        check_writable(args.out, "--out")  # refuse before playing, not after
    dice: Dice
    if args.dice is not None:
        dice, seed = ScriptedDice(args.dice), None
    else:
        seed = args.seed if args.seed is not None else secrets.randbelow(CHOSEN_SEEDS)
        dice = SeededDice(seed)
    data = read_data(args.scenario)
    game = Game(state_from_data(data, str(args.scenario)), dice)
    start = game.state
    for i, text in enumerate(args.action, start=1):  # a typo (a field, an unknown unit): say so before playing any
        where = "--action" if len(args.action) == 1 else f"--action {i}"
        known_units(start, parse_action(text, where), where)
    log: list[dict[str, Any]] = []
    lines: list[str] = [f"dice: {len(args.dice)} given rolls, in order" if seed is None
                        else f"seed: {seed} (replay with --seed {seed})"]
    rules: list[str] = []
    for i, text in enumerate(args.action, start=1):
        try:
            events = game.apply(text)  # an illegal action raises: one line, exit 2, nothing written
        except HerohammerError as exc:
            # Say which action, and that the actions before it were not kept either (all or none).
            which = f"action {i} of {len(args.action)}"
            none_kept = "nothing was played or written (play applies all its actions or none)"
            if isinstance(exc, DiceRanOut):
                raise HerohammerError(f"{which}: {exc}; --dice gave {len(args.dice)} rolls; {none_kept}") from None
            if len(args.action) == 1:
                raise
            if isinstance(exc, IllegalActionError):
                raise IllegalActionError(f"{which}: {exc.reason}; {none_kept}", exc.rules) from None
            raise HerohammerError(f"{which}: {exc}; {none_kept}") from None
        log.append({"action": i, "events": [e.to_json() for e in events]})
        rules += [r for e in events for r in e.rules]
        lines += _step_lines(i, text, events)
    unused = dice.unused if isinstance(dice, ScriptedDice) else ()
    happened = summarise(start, (game.state, list(game.log))).labels()
    notes = say_notes(start, args.json)  # every action played: the notes come with the answer
    if args.out:
        played: dict[str, Any] = {"source": args.scenario, **game.record()}
        if seed is not None:  # the seed chosen or given replays this game: no undo, no other dice drew on it
            played["seed"] = str(seed)
        else:  # every face given, those no roll took too, as a judge typed them
            played["dice"] = args.dice
        if data.get("played"):  # the scenario was itself played to: keep how, so the whole chain replays (the
            played["after"] = data["played"]  # source may be the file --out writes over)
        save_scenario(game.state, args.out, played=played)
    if args.json:
        print_json("play", {"seed": seed, "dice": args.dice, "unused_dice": len(unused), "unused_faces": list(unused),
                            "log": log, "out": args.out,
                            "outcome": happened,
                            "state": {"turn": game.state.turn, "phase": game.state.phase.value,
                                      "active": game.state.active}},
                   ruleset=game.state.ruleset, rules=rules, method=None, notes=notes)
        return 0
    print("\n".join(lines))
    if unused:
        print(unused_words(unused))  # which ones, so a judge can tell a miscount from a die to re-enter
    if happened:
        print("outcome: " + "; ".join(happened))
    print(f"now: turn {game.state.turn}, {game.state.active} to play, {game.state.phase.value} phase"
          + (f"; state written to {args.out} (with the seed or dice used)" if args.out else ""))
    return 0


def _step_lines(i: int, action: Any, events: list[Event]) -> list[str]:
    """Say one action played and its events with their rolls, as ``play`` prints them."""
    lines = [f"action {i}: {action}"]
    for e in events:
        lines.append(f"  {e.describe()}")
        lines += [f"    roll {r.describe()}" for r in e.rolls]
    return lines


def _run_replay(args: argparse.Namespace) -> int:
    """Play back a saved game's record (``play FILE --replay``): every step, then that it ends at the state saved."""
    import json

    from ..records import replay_game

    given = [f"--{name}" for name in ("action", "seed", "dice", "out") if getattr(args, name) is not None]
    if given:
        raise HerohammerError(f"play --replay plays the file's own record with its own dice: {', '.join(given)} "
                              "not taken with it")
    replayed = replay_game(args.scenario)
    game, played = replayed.game, replayed.game.actions
    dice = game.dice
    unused = dice.unused if isinstance(dice, ScriptedDice) else ()
    earlier = (f", and the {replayed.links} earlier record{'s' * (replayed.links != 1)} it was played on from"
               if replayed.links else "")
    verified = (f"verified: the {len(played)} action{'s' * (len(played) != 1)} recorded replay from played.start to "
                f"the state saved in {args.scenario}{earlier}")
    if args.json:
        print_json("play", {"replayed": len(played), "verified": True, "earlier_records": replayed.links,
                            "notes_on_earlier": list(replayed.notes),
                            "seed": dice.seed if isinstance(dice, SeededDice) else None,
                            "unused_dice": len(unused), "unused_faces": list(unused),
                            "log": [{"action": i, "events": [e.to_json() for e in events]}
                                    for i, events in enumerate(replayed.steps, start=1)],
                            "state": {"turn": game.state.turn, "phase": game.state.phase.value,
                                      "active": game.state.active}},
                   ruleset=game.state.ruleset, rules=[r for e in game.log for r in e.rules], method=None)
        return 0
    how = (f"seed {dice.seed}" if isinstance(dice, SeededDice) else "the judge's dice recorded"
           if isinstance(dice, ScriptedDice) else "the faces each roll gave, as recorded")
    lines = [f"replaying {args.scenario}: {len(played)} action{'s' * (len(played) != 1)} from its start, with {how}"]
    for i, (action, events) in enumerate(zip(played, replayed.steps), start=1):
        lines += _step_lines(i, json.dumps(action.to_json()), events)
    print("\n".join(lines))
    if unused:
        print(unused_words(unused))
    print(verified)
    for note in replayed.notes:
        print(f"note: {note}")
    print(f"now: turn {game.state.turn}, {game.state.active} to play, {game.state.phase.value} phase")
    return 0
