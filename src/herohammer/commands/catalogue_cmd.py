"""``herohammer catalogue``: what a BattleScribe catalogue, game system or roster holds, as herohammer reads it."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..battlescribe import BsFile, BsUnit, points, read_battlescribe
from ..report import print_json, simple_table
from . import summary
from .args import add_json_flag


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``catalogue FILE [--unit NAME] [--json]``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "catalogue", help=summary("catalogue"),
        description="Read a BattleScribe / New Recruit data file (40k 3rd/4th edition, The 9th Age 2nd edition) "
                    "and show its units with their profiles as herohammer reads them.")
    p.add_argument("file", help="a .cat, .catz, .gst, .gstz, .ros or .rosz file")
    p.add_argument("--unit", help="show one unit: profiles, weapons, special rules, character")
    add_json_flag(p)
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    data = read_battlescribe(args.file)
    if args.unit is not None:  # --unit "" is a unit name too (none has it), not "list them all"
        unit = data.unit(args.unit)
        if args.json:
            print_json("catalogue", {"file": data.path, "kind": data.kind, "game": data.game, "unit": unit.to_json()},
                       ruleset=data.ruleset, method=None)
            return 0
        console = Console(soft_wrap=True)
        console.print(f"[bold]{escape(unit.name)}[/bold] ({escape(data.name)}, {escape(data.game) or 'unknown game'})"
                      f"{' - a character' if unit.character else ''}, {_unit_points(unit, data.kind)}")
        if unit.categories:
            console.print(f"categories: {escape(', '.join(unit.categories))}")
        if not unit.models and not unit.notes:
            console.print("no model profile in the data for this unit")
        for m in unit.models:
            console.print(f"  {m.count} x {escape(m.name)}: \"{escape(m.profile)}\""
                          + (f"  base {m.base}" if m.base else "") + (f"  {escape(m.troop_type)}" if m.troop_type else ""))
            if any(k in ("HP", "Def", "Off", "Res", "Arm", "Agi") for k, _ in m.printed):
                console.print("    printed: " + escape(" ".join(f"{k} {v}" for k, v in m.printed if v)))
            if m.weapons is not None:  # a roster's model: what its own selection gives it
                console.print(f"    carries: {escape(', '.join(m.weapons)) or 'no weapon'}")
            if m.problem:
                console.print(f"    [yellow]{escape(m.problem)}[/yellow]")
        for w in unit.weapons:
            printed = ", ".join(f"{k} {v}" for k, v in w.characteristics if v)
            kind = "psychic power" if w.power else "weapon"  # a 40k power the data prints as a weapon (session 44)
            console.print(f"  {kind} {escape(w.name)}: {escape(printed)}"
                          + (f"  [yellow]({escape(w.problem)})[/yellow]" if w.problem else ""))
        if unit.rules:
            console.print(f"  special rules: {escape(', '.join(unit.rules))}")
        for note in unit.notes:
            console.print(f"  [yellow]note: {escape(note)}[/yellow]")
        return 0
    if args.json:
        print_json("catalogue", {"file": data.path, "kind": data.kind, "name": data.name, "game": data.game,
                                 **({"pts": data.points} if data.points is not None else {}),
                                 "units": [u.to_json() for u in data.units]}, ruleset=data.ruleset, method=None)
        return 0
    title = (f"{data.name} ({data.kind}; {data.game or 'unknown game'}; ruleset {data.ruleset or 'none'}): "
             f"{len(data.units)} unit{'s' * (len(data.units) != 1)}{_total(data)}")
    if not data.units:  # an empty table would read as a file read wrong: say where units are kept
        where = ("its catalogues (.cat, .catz) hold the units: herohammer catalogue FILE.cat"
                 if data.kind == "game system" else "no unit entry with a model profile in it")
        print(f"{title}: {where}")
        return 0
    priced = any(u.points is not None for u in data.units)
    if priced and data.kind == "catalogue":  # a catalogue's price is the unit's least: say what it counts
        title += ": pts of each unit as it comes (its models and the options it must take, at their least numbers)"
    if priced and any(u.points is None for u in data.units):
        title += "; ?: no cost in the data, or one that does not read (--unit says which)"
    noted = any(u.notes and u.models for u in data.units)  # how many --unit says beside a profile read
    simple_table(title, ["unit", "character", "models", "profile", *(["pts"] if priced else []),
                         *(["notes"] if noted else [])],
                 [[u.name, "yes" if u.character else "", ", ".join(f"{m.count} {m.name}" for m in u.models) or "-",
                   "; ".join(m.profile for m in u.models)
                   or ("(none read: --unit says why)" if u.notes else "(none in the data)"),
                   *([points(u.points) if u.points is not None else "?"] if priced else []),
                   *([str(len(u.notes)) if u.notes and u.models else ""] if noted else [])]
                  for u in data.units])
    return 0


def _total(data: BsFile) -> str:
    """Say a roster's total points, and what its units add up to when that is not it (a cost outside any unit); a
    roster giving no total whose units are all priced (from its catalogue: session 42) is said added up."""
    if data.points is None:
        priced = [u.points for u in data.units if u.points is not None]
        if data.kind != "roster" or not priced or len(priced) < len(data.units):
            return ""
        return f", {points(sum(priced))} pts (its units added up: the roster gives no total)"
    units = sum(u.points or 0.0 for u in data.units)
    return f", {points(data.points)} pts" + ("" if units == data.points else f" (its units add up to {points(units)})")


def _unit_points(unit: BsUnit, kind: str) -> str:
    """Say a unit's points: a catalogue's as the unit comes, a roster's as chosen, or why there are none."""
    if unit.points is not None:
        return f"{points(unit.points)} pts" + (" as it comes (its options not counted)" if kind == "catalogue" else "")
    return "points not said: a cost does not read" if unit.cost_unread else "no cost in the data"
