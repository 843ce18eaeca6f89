"""The 9th Age: the Align move that ends a charge (published.t9a-charge-arc), after its straight move into contact.

The 2022 text (Charge Move; Aligning Units): the charger is turned about the point where it touched the charged unit
until its Front Facing lies flush with the Facing it contacted; where other units, the table edge or Impassable
Terrain bar that, the charged unit is turned instead (never one already Engaged in Combat).  Worked out only for a
charger that stands off the charged unit's Facings, so a square charge costs nothing more than the test.  A link of
the 9th Age chain just above ``t9a_moves`` (it reads ``t9a_units`` alone); ``t9a_charges`` and ``t9a_melee`` call it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import shapely
from shapely.ops import nearest_points

from ..catalogue import implements
from ..formations import arrange
from ..geometry import Placed, Point, on_table, overlaps
from ..state import GameState
from ..units import Model, Status, Unit
from .t9a_units import CHARGE_ARC, formation_of, host_of

#: How far (degrees) a charger's facing may turn from the charged unit's Facings and still count as aligned.
ALIGNED_DEGREES = 0.5
#: How far (inches) a charger's front may stand from the charged unit and still be taken as touching it.
TOUCHING = 0.05
#: The facing a charger takes against each Facing of the charged unit, added to the charged unit's facing.
_FLUSH = {"front": 180.0, "rear": 0.0, "right": 90.0, "left": -90.0}


def _rectangle(f_corners: tuple[Point, Point], facing: float, depth: float) -> list[Point]:
    """Return a unit's outline from its front corners, facing and depth (inches)."""
    left, right = f_corners
    t = math.radians(facing)
    bx, by = math.sin(t) * depth, -math.cos(t) * depth
    return [left, right, (right[0] + bx, right[1] + by), (left[0] + bx, left[1] + by)]


def _nearest_on(segment: tuple[Point, Point], polygon: list[Point]) -> tuple[float, Point]:
    """Return how far a segment (the charger's front) stands from a rectangle's outline and the rectangle's point
    nearest to it: the point of contact."""
    line, shape = shapely.LineString(segment), shapely.Polygon(polygon)
    _, on = nearest_points(line, shape.exterior)
    return float(line.distance(shape)), (float(on.x), float(on.y))


def _turned(point: Point, about: Point, degrees: float) -> Point:
    """Return a point turned counter-clockwise about another."""
    t = math.radians(degrees)
    dx, dy = point[0] - about[0], point[1] - about[1]
    return (about[0] + math.cos(t) * dx - math.sin(t) * dy, about[1] + math.sin(t) * dx + math.cos(t) * dy)


def _pivoted_about(state: GameState, host: Unit, about: Point, degrees: float) -> GameState:
    """Return the state with a combined unit (its characters with it; a lone model alone) turned about a point."""
    if host.formation is not None:
        f = host.formation
        turned = replace(f, position=_turned(f.position, about, degrees), facing=(f.facing + degrees) % 360.0)
        return arrange(state.replace_unit(replace(host, formation=turned)), host.id)
    return state.replace_unit(replace(host, models=tuple(
        replace(m, at=_turned(m.at, about, degrees), facing=(m.facing + degrees) % 360.0) for m in host.models)))


def _members(state: GameState, host_id: str) -> list[Unit]:
    return [state.unit(host_id), *state.joined_to(host_id)]


def _end_problem(state: GameState, host_id: str) -> str | None:
    """Say what an aligned unit's models would end on (another unit's model, Impassable Terrain, off the table)."""
    own = {u.id for u in _members(state, host_id)}
    models: list[Model] = [m for u in _members(state, host_id) for m in u.models]
    others = [(u, m) for u in state.units if u.alive and u.id not in own for m in u.models]
    blocking = [t for t in state.terrain if t.kind == "blocking"]
    for m in models:
        p: Placed = m.placed
        if not on_table(p, state.table.width, state.table.depth):
            return f"{m.name} would stand off the table"
        for u, o in others:
            if overlaps(p, o.placed):  # flush against the charged unit: within the 0.01" every check allows
                return f"{m.name} would stand on {u.id}'s model {o.name}"
        for t in blocking:
            if t.near([m.at], m.base.reach_inches) and p.footprint().intersection(t.shape()).area > 1e-6:
                return f"{m.name} would stand in impassable terrain {t.id}"
    return None


@implements(CHARGE_ARC)
def aligned(state: GameState, charger_id: str, target_id: str, before: GameState) -> tuple[GameState, str]:
    """Return the state after a charge's Align move and what the event says of it ("" for a charger already square to
    the charged unit's Facings).  ``before``: the state as the charge move began, which gives the Target Facing (the
    Arc the charger's front's centre stood in, 2022 text, Charge Move) and whether the charged unit was Engaged (then
    it is never the one turned)."""
    charger, target = state.unit(charger_id), host_of(state, state.unit(target_id))
    mine, theirs = formation_of(charger), formation_of(target)
    if mine is None or theirs is None:
        return state, ""
    off = (mine.facing - theirs.facing) % 90.0
    if min(off, 90.0 - off) <= ALIGNED_DEGREES:
        return state, ""
    start, was = formation_of(before.unit(charger_id)), before.unit(target.id)
    front = (start or mine).front_corners()
    centre = ((front[0][0] + front[1][0]) / 2.0, (front[0][1] + front[1][1]) / 2.0)
    facing = (formation_of(was) or theirs).arc_of(centre)
    engaged_before = was.has(Status.ENGAGED)
    front = mine.front_corners()
    outline = _rectangle(theirs.front_corners(), theirs.facing, theirs.ranks * theirs.slot_mm[1] / 25.4)
    gap, point = _nearest_on(front, outline)
    turn = (theirs.facing + _FLUSH[facing] - mine.facing + 180.0) % 360.0 - 180.0
    where = f"[{point[0]:.2f}, {point[1]:.2f}]"
    if gap > TOUCHING:
        return state, (f"; {charger_id} touches {target.id} with no part of its front and makes no Align move "
                       f"[{CHARGE_ARC}]")
    host = host_of(state, charger)
    turned = _pivoted_about(state, host, point, turn)
    why = _end_problem(turned, host.id)
    if why is None:
        return turned, (f"; {charger_id} aligns to {target.id}'s {facing} Facing, turning {turn:+.1f} degrees about "
                        f"the point of contact {where} [{CHARGE_ARC}]")
    if engaged_before or target.has(Status.FLEEING):
        return state, (f"; {charger_id} cannot align ({why}) and {target.id}, already in a combat, is not turned: "
                       f"no Align move is made [{CHARGE_ARC}]")
    instead = _pivoted_about(state, target, point, -turn)
    why_not = _end_problem(instead, target.id)
    if why_not is None:
        return instead, (f"; {charger_id} cannot align ({why}), so {target.id} is aligned to it instead, turning "
                         f"{-turn:+.1f} degrees about the point of contact {where} [{CHARGE_ARC}]")
    return state, (f"; neither {charger_id} ({why}) nor {target.id} ({why_not}) can be aligned: no Align move is "
                   f"made [{CHARGE_ARC}]")
