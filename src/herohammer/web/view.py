"""What the page draws: a game state as plain JSON (bases in inches, formations with their slots).

The page never computes rules; it only needs where things stand and what they are.
Everything geometric is given in table inches, the same frame as the scenario files.
"""

from __future__ import annotations

from typing import Any

from ..catalogue import clause
from ..geometry import MM_PER_INCH
from ..state import GameState
from ..units import Model, Unit


def clause_texts(rule_ids: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Return what each cited clause says (for hover text); an id the catalogue lacks says so."""
    out: dict[str, str] = {}
    for rid in rule_ids:
        try:
            out[rid] = clause(rid).says
        except KeyError:
            out[rid] = "(not in the project's catalogue)"
    return out


def _model(m: Model) -> dict[str, Any]:
    return {
        "name": m.name, "x": m.at[0], "y": m.at[1], "facing": m.facing, "role": m.role,
        "base": {"width": m.base.width_mm / MM_PER_INCH, "depth": m.base.depth_mm / MM_PER_INCH,
                 "round": m.base.round, "mm": m.base.to_data()},
        "wounds_left": m.wounds_left, "wounds": m.profile.w, "profile": m.profile.format(),
        "weapons": list(m.weapons),
    }


def _formation(u: Unit) -> dict[str, Any] | None:
    f = u.formation
    if f is None:
        return None
    return {
        "position": list(f.position), "facing": f.facing, "files": f.files, "ranks": f.ranks,
        "slot": [f.slot_mm[0] / MM_PER_INCH, f.slot_mm[1] / MM_PER_INCH],
        "front_rank": list(f.front_rank()),
        "slots": [{"name": name, "rank": i // f.files, "file": i % f.files,
                   "x": f.slot_point(i)[0], "y": f.slot_point(i)[1]} for i, name in enumerate(f.order)],
    }


def _unit(u: Unit) -> dict[str, Any]:
    return {
        "id": u.id, "side": u.side, "type": u.type.value, "alive": u.alive,
        "character": u.character.value if u.character else None, "joined": u.joined,
        "status": sorted(s.value for s in u.status), "rules": sorted(u.rules), "special": u.special,
        "embarked_in": u.embarked_in,  # riding in a transport: off the table, so no model is drawn
        "models": [_model(m) for m in u.models] if u.embarked_in is None else [], "formation": _formation(u),
    }


def table_view(state: GameState) -> dict[str, Any]:
    """Return everything the page draws for one state."""
    return {
        "ruleset": state.ruleset, "turn": state.turn, "phase": state.phase.value, "active": state.active,
        "sides": list(state.sides),
        "table": {"width": state.table.width, "depth": state.table.depth},
        "terrain": [{"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in state.terrain],
        "units": [_unit(u) for u in state.units],
    }
