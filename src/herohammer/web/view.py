"""What the page draws: a game state as plain JSON (bases in inches, formations with their slots).

The page never computes rules; it only needs where things stand and what they are.
Everything geometric is given in table inches, the same frame as the scenario files.
A unit's statuses are named in a player's words (``STATUS_WORDS``), the page's panel, picker
and table labels alike, so a status added to the engine is named once, here.
"""

from __future__ import annotations

from typing import Any

from ..catalogue import clause
from ..geometry import MM_PER_INCH
from ..rulesets import get_ruleset
from ..state import GameState
from ..units import Model, Status, Unit

#: Each status as a player says it, and the tag drawn under the unit on the table (None: not drawn, only listed).
STATUS_WORDS: dict[Status, tuple[str, str | None]] = {
    Status.FALLING_BACK: ("falling back", "FALLING BACK"),
    Status.PINNED: ("pinned until the end of its next turn", "PINNED"),
    Status.NEWLY_PINNED: ("pinned in its own turn: the pin lasts through its next turn too", "PINNED"),
    Status.LOCKED: ("locked in close combat", "LOCKED"),
    Status.FLEEING: ("fleeing", "FLEEING"),
    Status.ENGAGED: ("engaged in combat", "ENGAGED"),
    Status.SHAKEN: ("Shaken until the end of the player turn (a failed charge out, or a charge that caught a unit "
                    "that fled)", "SHAKEN"),
    Status.MOVED: ("moved this turn", None),
    Status.REGROUPED: ("took its Regroup test this Movement phase: it moves no further", None),
    Status.MARCHED: ("marched this turn", None),
    Status.RAN: ("ran (Fleet) this turn instead of shooting", None),
    Status.SHOT: ("shot this turn", None),
    Status.FIRED_NO_ASSAULT: ("fired a Rapid Fire, Ordnance or Heavy weapon this turn: it may not assault", None),
    Status.ASSAULTED: ("assaulted this turn", None),
    Status.USED_POWER: ("took its psychic test this turn (no other power this turn)", None),
    Status.PSYCHIC_TEST_FAILED: ("failed its psychic test this turn: no psychic power this turn",
                                 "PSYCHIC TEST FAILED"),
    Status.CHARGED: ("charged this turn", None),
    Status.FOUGHT: ("fought its close combat this Assault phase", None),
    Status.MAY_CONSOLIDATE: ("left free by its close combat: may consolidate this phase", None),
    Status.LEFT_BATTLE: ("fell back off the table edge: it has left the battle", None),
    Status.HALTED: ("a character joined it: it may not move again this turn", None),
    Status.NO_CHARGE: ("may not declare a charge this turn", None),
    Status.RALLY_TESTED: ("took its Rally test this turn", None),
    Status.STOOD_AND_SHOT: ("made a Stand and Shoot this player turn", None),
    Status.FLED_FROM_CHARGE: ("fled as a Charge Reaction this player turn", None),
    Status.PANIC_PASSED: ("passed a Panic test this phase: it takes no other", None),
    Status.DUEL_REFUSED: ("refused a Duel: Discipline 0 and no melee attacks until it fights a Duel or its combat ends",
                          "DUEL REFUSED"),
    Status.MARCH_TEST_FAILED: ("failed its March Test this Movement Phase: it may not March", None),
    Status.FAILED_CHARGE: ("made a Failed Charge Move this player turn: no other move and no shooting", None),
    Status.PURSUIT_CHARGED: ("charged a fresh enemy with its Pursuit Move: that combat is fought in the next Melee "
                             "phase", "PURSUIT CHARGE"),
    Status.PURSUIT_CHARGING: ("Charging this player turn after its Pursuit Move's charge", None),
}


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


def statuses(ruleset: str) -> list[dict[str, Any]]:
    """Return the statuses a ruleset reads (not another game's: ``Ruleset.unread_statuses``), in a player's words."""
    unread = get_ruleset(ruleset).unread_statuses
    return [{"id": s.value, "words": words, "tag": tag} for s, (words, tag) in STATUS_WORDS.items() if s not in unread]


def table_view(state: GameState) -> dict[str, Any]:
    """Return everything the page draws for one state."""
    return {
        "ruleset": state.ruleset, "turn": state.turn, "phase": state.phase.value, "active": state.active,
        "sides": list(state.sides),
        "table": {"width": state.table.width, "depth": state.table.depth},
        "terrain": [{"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon]} for t in state.terrain],
        "units": [_unit(u) for u in state.units],
        "statuses": statuses(state.ruleset),  # every status this game reads, as the panel and the picker name them
    }
