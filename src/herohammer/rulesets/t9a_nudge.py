"""The 9th Age's Nudging (2022 text, Losing Base Contact): after the casualties of simultaneous attacks, two enemy
units that lost base contact with each other are slid back into it, the unit that suffered no casualties first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from ..catalogue import implements
from ..geometry import in_base_contact, overlaps
from ..state import GameState
from ..units import Model, Status, Unit
from .t9a_moves import shift_unit
from .t9a_units import current

#: The published rule on units that lost base contact to casualties.
LOSING_CONTACT = "published.t9a-losing-base-contact"
#: How many of the least slides (by length) are tried before a unit is left where it stands.
_TRIES = 24


def _group(state: GameState, host: Unit) -> list[Unit]:
    """A combined unit: its host and the characters joined to it."""
    return [host, *state.joined_to(host.id)]


def _models(group: Sequence[Unit]) -> list[Model]:
    return [m for u in group for m in u.models]


def _touch(a: Sequence[Model], b: Sequence[Model]) -> bool:
    return any(in_base_contact(m.placed, n.placed) for m in a for n in b)


def _hosts(state: GameState) -> list[Unit]:
    """The Engaged units on the table (a combined unit by its host), the active player's first."""
    hosts = [u for u in state.units if not u.joined and u.models and Status.ENGAGED in u.status]
    return sorted(hosts, key=lambda u: u.side != state.active)


@implements(LOSING_CONTACT)
def nudge_back(before: GameState, after: GameState) -> tuple[GameState, list[str]]:
    """Return ``after`` with each pair of enemy units that touched in ``before`` and no longer touch slid back into
    base contact, and what was said of each.

    The 2022 text: "The unit that is going to lose base contact while not suffering casualties is moved the minimum
    amount needed to keep it in base contact. If there is no such unit, the Active Player's unit counts as such ...
    If this will not bring the units back into contact, move the unit suffering casualties ... instead", in a
    straight line, through no other unit, into contact with no enemy unit it did not touch, and never a unit in base
    contact with another enemy unit. Decision (judge round 65): the slide is made along the unit's rank (to its
    side), the straight move that keeps a fighting front's depth; a pair no such slide brings back stays apart (the
    unit Drops out of Combat, No More Foes in a combat of three units or more)."""
    said: list[str] = []
    olds = {u.id: u for u in _hosts(before)}
    for a_id, a_old in olds.items():
        for b_id, b_old in olds.items():
            if a_old.side == b_old.side or a_id > b_id:
                continue
            if not _touch(_models(_group(before, a_old)), _models(_group(before, b_old))):
                continue
            a, b = current(after, a_id), current(after, b_id)
            if not a.models or not b.models or _touch(_models(_group(after, a)), _models(_group(after, b))):
                continue
            lost_a = len(_models(_group(after, a))) < len(_models(_group(before, a_old)))
            lost_b = len(_models(_group(after, b))) < len(_models(_group(before, b_old)))
            first = b if (lost_a and not lost_b) or (lost_a == lost_b and b.side == after.active) else a
            for mover, target in ((first, b if first is a else a), (b if first is a else a, first)):
                moved = _slide(before, after, mover, target)
                if moved is not None:
                    after, inches = moved
                    said.append(f"{mover.id} is nudged {inches:.2f}\" to its side, back into base contact with "
                                f"{target.id} [{LOSING_CONTACT}]")
                    break
    return after, said


def _slide(before: GameState, state: GameState, mover: Unit, target: Unit) -> tuple[GameState, float] | None:
    """Slide ``mover`` along its rank the least that brings it into base contact with ``target``, through no model
    and into no new enemy's contact; None where no slide does, or ``mover`` touches another enemy unit."""
    group, foes = _group(state, mover), _models(_group(state, target))
    mine = _models(group)
    enemies = [u for u in state.units if u.side != mover.side and u.models and not u.joined]
    touched_before = {u.id for u in _hosts(before) if u.side != mover.side
                      and _touch(_models(_group(before, u)), _models(_group(before, current(before, mover.id))))}
    others = [e for e in enemies if e.id != target.id]
    if any(_touch(mine, _models(_group(state, e))) for e in others):
        return None  # in base contact with another enemy unit: never nudged
    facing = mover.formation.facing if mover.formation is not None else mover.models[0].facing
    ax, ay = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    slides = set()
    for m in mine:
        for n in foes:
            d = (n.at[0] - m.at[0]) * ax + (n.at[1] - m.at[1]) * ay
            half = (m.base.width_mm + n.base.width_mm) / 2 / 25.4
            if abs(d) > half:
                slides.add(d - math.copysign(half, d))
    ids = {u.id for u in group}
    for t in sorted(slides, key=abs)[:_TRIES]:
        moved = _shifted(state, group, t * ax, t * ay)
        now = _models(_group(moved, current(moved, mover.id)))
        if not _touch(now, foes):
            continue
        standing = [x for u in moved.units if u.id not in ids for x in u.models]
        if any(overlaps(m.placed, x.placed) for m in now for x in standing):
            continue
        if any(_touch(now, _models(_group(moved, e))) for e in others if e.id not in touched_before):
            continue
        return moved, abs(t)
    return None


def _shifted(state: GameState, group: Sequence[Unit], dx: float, dy: float) -> GameState:
    """Move a combined unit (its host's formation, its characters arranged in it; or a lone unit's models)."""
    host = group[0]
    if host.formation is not None:
        return shift_unit(state, host, dx, dy)
    return state.replace_units(*(replace(u, models=tuple(m.moved_to((m.at[0] + dx, m.at[1] + dy)) for m in u.models))
                                 for u in group))
