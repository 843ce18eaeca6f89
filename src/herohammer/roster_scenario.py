"""A BattleScribe roster becomes a side of a scenario: its units, deployed in a default formation, ready to edit.

40k units stand in rows of five, 1.5" apart (within 2" coherency), one unit beside the
next along the side's deployment line; a t9a rank-and-file unit gets a ``formation``
five files wide facing the enemy, and a character stands alone in front of it.  The
first side deploys along its own table edge facing +y, the second along the far edge.
"""

from __future__ import annotations

import re
from typing import Any

from .battlescribe import BsFile, BsUnit
from .errors import HerohammerError
from .limits import check_models
from .rulesets import get_ruleset
from .scenario import near_miss

SPACING = 1.5  # inches between model centres in a 40k row (25 mm bases leave a 0.5" gap)
PER_ROW = 5
GAP = 3.0  # inches between units
EDGE = 6.0  # inches from the side and back edges
T9A_DEPTH = 6.0  # a rank-and-file unit's front stands this much further in, its ranks behind it


#: The game each ruleset plays: a roster's profiles mean nothing in another game (40k has no Advance Rate).
GAMES = {"40k3": "Warhammer 40,000", "40k4": "Warhammer 40,000", "t9a": "The 9th Age"}


def _check_games(rosters: list[BsFile], ruleset: str) -> None:
    """Refuse a roster of one game read as another's (a 40k roster as t9a): its profiles would be misread."""
    for roster in rosters:
        own = roster.ruleset
        if own is not None and GAMES.get(own) != GAMES.get(ruleset):
            raise HerohammerError(f"--ruleset {ruleset}: {roster.name!r} is a {GAMES.get(own, own)} roster "
                                  f"({roster.game}); its profiles are not {GAMES.get(ruleset, ruleset)}'s")


def _check_sides(sides: list[str]) -> None:
    """Refuse side names that are empty, repeated, or more than the two sides a scenario has."""
    if len(sides) > 2:
        raise HerohammerError(f"--side: {len(sides)} names given; a scenario has two sides (yours, and the "
                              "opponent's, left empty with one roster)")
    for name in sides:
        if not name.strip():
            raise HerohammerError("--side: a side's name must not be empty")
    if len(sides) == 2 and sides[0] == sides[1]:
        raise HerohammerError(f"--side: {sides[0]!r} given for both sides")


def slug(text: str, taken: set[str]) -> str:
    """Make an id from a name (``Tactical Squad`` -> ``tactical_squad``), unique among ``taken``."""
    base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "unit"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _models(unit: BsUnit, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Return (name, model data) for every model of the unit, numbered when there are several of one name (of one
    selection or several: ``Boy 1`` ... ``Boy 10``, then ``Boy 11`` for a Boy of another profile or other weapons).

    Each model carries the weapons of its own roster selection (``BsUnit.model_weapons``; ``build_unit`` says how
    the unit-level ones are shared out), the unit's all when the roster does not tell its models apart.
    """
    out = []
    totals: dict[str, int] = {}
    for m in unit.models:
        totals[m.name] = totals.get(m.name, 0) + m.count
    numbered: dict[str, int] = {}
    for m in unit.models:
        if m.problem:
            raise HerohammerError(f"{path + ': ' if path else ''}{unit.name}: {m.selection or m.name}: the roster's "
                                  f"profile {m.problem}; no scenario written: correct the roster, or write this "
                                  "model's profile: in a scenario by hand")
        weapons = list(unit.model_weapons(m))
        for _ in range(m.count):
            numbered[m.name] = numbered.get(m.name, 0) + 1
            name = m.name if totals[m.name] == 1 else f"{m.name} {numbered[m.name]}"
            data: dict[str, Any] = {"name": name, "profile": m.profile}
            if m.base is not None:
                data["base"] = list(m.base) if isinstance(m.base, tuple) else m.base
            if weapons:
                data["weapons"] = list(weapons)
            out.append((name, data))
    return out


#: The 4th edition rule a character fielded with a unit of his (a retinue) is held by (40k4.char.retinue).
RETINUE_RULE = "40k4.char.retinue"


def _joined_character(unit: BsUnit, models: list[tuple[str, dict[str, Any]]], host_id: str, host: dict[str, Any],
                      ruleset: str, ids: set[str], far: bool, depth: float, notes: list[str] | None,
                      path: str) -> dict[str, Any]:
    """Return a character chosen inside a unit's roster selection as a character joined to it, standing one row
    behind its models (within 2" of them).  In 4th edition he was fielded with it, so it is his retinue: both get
    the rule ``retinue`` and he may not leave it while it lives (40k4.char.retinue's reading of a roster)."""
    behind = min(m["at"][1] for m in host["models"]) if not far else max(m["at"][1] for m in host["models"])
    first = host["models"][0]["at"][0]
    placed = [{**m, "at": [round(first + SPACING * k, 2), round(behind + (SPACING if far else -SPACING), 2)]}
              for k, (_, m) in enumerate(models)]
    entry: dict[str, Any] = {"id": slug(unit.name, ids), "character": "independent", "joined": host_id}
    rules = [r for r in unit.rules if r.lower() != "independent character"]  # said by character: independent
    if ruleset == "40k4":
        rules.append("retinue")
        host["rules"] = [*host.get("rules", []), "retinue"]
        if notes is not None:
            notes.append(f"{path}: {unit.name} was chosen inside {unit.joined}'s selection: he is fielded with it as "
                         f"his retinue, joined to {host_id}, and may not leave it while it lives [{RETINUE_RULE}]")
    if rules:
        entry["rules"] = rules
    entry["models"] = placed
    return entry


def import_notes(rosters: list[BsFile]) -> list[str]:
    """What the import could not do as the rosters say (``BsUnit.notes``), each naming its file."""
    return [f"{roster.path}: {note}" for roster in rosters for unit in roster.units for note in unit.notes]


def build_scenario(rosters: list[BsFile], ruleset: str, width: float = 72, depth: float = 48,
                   sides: list[str] | None = None, notes: list[str] | None = None) -> dict[str, Any]:
    """Return scenario data with each roster's units as a side (a second, empty side if only one roster).

    A special rule whose name is close to one the ruleset plays but not it (3rd edition data's 'Infiltrators',
    the ruleset's 'infiltrate') is left out of the unit's rules, which would read it as a typo and refuse the file;
    ``notes`` gets a line naming the file, the unit and the rule it is close to.
    """
    if not 1 <= len(rosters) <= 2:
        raise HerohammerError("--roster: give one roster (your side) or two (both sides)")
    _check_games(rosters, ruleset)
    played = get_ruleset(ruleset)
    ranked = played.ranked_units
    _check_sides(sides or [])
    for roster in rosters:  # before a model is written: a roster's number="1e9" would be a billion of them
        check_models(sum(m.count for u in roster.units for m in u.models), str(roster.path))
    if sides and len(sides) < len(rosters):
        raise HerohammerError(f"--side: {len(rosters)} rosters and {len(sides)} side name; name both sides "
                              "(--side A --side B, in roster order) or neither")
    taken_sides: set[str] = set()
    names = sides or [slug(r.name, taken_sides) for r in rosters]
    if len(rosters) == 1 and len(names) == 1:  # a second --side names the empty side
        names = [*names[:1], "opponent" if names[0] != "opponent" else "enemy"]
    data: dict[str, Any] = {"ruleset": ruleset, "turn": 1, "phase": "movement", "active": names[0],
                            "table": {"width": width, "depth": depth}, "sides": {n: [] for n in names}}
    weapons: dict[str, dict[str, Any]] = {}
    powers: dict[str, dict[str, Any]] = {}  # a psychic power the roster prints as a weapon (BsWeapon.power_entry)
    ids: set[str] = set()
    for index, roster in enumerate(rosters):
        far = index == 1
        x, row_y = EDGE, EDGE
        placed_ids: dict[str, tuple[str, dict[str, Any]]] = {}  # a unit's name -> its id and entry, the last of it
        for unit in roster.units:
            models = _models(unit, roster.path)
            if not models:
                continue  # a roster entry without a model profile (an upgrade, a detachment choice)
            if unit.joined and unit.joined in placed_ids:
                host_id, host = placed_ids[unit.joined]
                data["sides"][names[index]].append(
                    _joined_character(unit, models, host_id, host, ruleset, ids, far, depth,
                                      notes, str(roster.path)))
                continue
            for w in unit.weapons:
                if (power := w.power_entry()) is not None:
                    powers.setdefault(w.name.lower(), power)
                elif w.data is not None and not w.power:
                    weapons.setdefault(w.name.lower(), w.data)
            files = min(PER_ROW, len(models))
            unit_width = files * SPACING
            if x + unit_width > width - EDGE:
                x, row_y = EDGE, row_y + 4 * SPACING + GAP
            entry: dict[str, Any] = {"id": slug(unit.name, ids)}
            if unit.character:
                entry["character"] = "independent"
            kept = []
            for rule in unit.rules:
                if (meant := near_miss(played, rule)) is None:
                    kept.append(rule)
                elif notes is not None:
                    notes.append(f"{roster.path}: {unit.name}: special rule {rule!r} not given to the unit: its name "
                                 f"is close to {meant!r}, which {ruleset} plays, and would be read as a typo of it; "
                                 f"if it is that rule, write {meant!r} under the unit's rules")
            if kept:
                entry["rules"] = kept
            if ranked and not unit.character:  # rank and file in a formation (The 9th Age)
                front = depth - (row_y + T9A_DEPTH) if far else row_y + T9A_DEPTH
                entry["formation"] = {"position": [round(x + unit_width / 2, 2), round(front, 2)],
                                      "facing": 180 if far else 0, "files": files}
                entry["models"] = [m for _, m in models]
            else:
                placed = []
                for k, (_, m) in enumerate(models):
                    px = x + SPACING * (k % PER_ROW) + SPACING / 2
                    py = row_y - SPACING * (k // PER_ROW)
                    placed.append({**m, "at": [round(px, 2), round(depth - py if far else py, 2)]})
                entry["models"] = placed
            data["sides"][names[index]].append(entry)
            placed_ids[unit.name] = (entry["id"], entry)
            x += unit_width + GAP
    if weapons:
        data["weapons"] = list(weapons.values())
    if powers:
        data["powers"] = list(powers.values())
    return data
