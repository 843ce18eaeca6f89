"""The 9th Age Stand and Shoot: when a charged unit may or must take it, who shoots, with cover, and the hits
shared among the charger and its characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shapely

from ..catalogue import implements
from ..charging import (STAND_AND_SHOOT, STAND_AND_SHOOT_RULE, Shooter, stand_and_shoot_batches, stand_and_shoot_hits,
                        wound_hits)
from ..dice import Dice
from ..formations import is_character, sight_from, too_far_back_to_shoot, WHO_CAN_SHOOT
from ..geometry import EPSILON, Placed, distance, group_distance, unit_line_of_sight, blocks_sight, model_sees_any
from ..state import GameState
from ..units import Status, Unit
from .t9a_weapons import choice_for, weapon_used, weapons_said
from .t9a_units import advance_rate, BUSY, placed_all, sight_all, unit_rates
from .t9a_casualties import (DISTRIBUTING_HITS, rank_and_file, remove_casualties, share_hits, spared_command,
                             take_wounds)
from .t9a_moves import located_in_front_arc

if TYPE_CHECKING:
    from ..actions import WeaponChoice

COVER = "published.t9a-cover"
OWN_RATE = "t9a.charge-out.own-rate"
#: To-hit modifiers of cover by terrain kind (published 9th Age: Soft Cover -1, Hard Cover -2).
COVER_KINDS = {"soft_cover": -1, "hard_cover": -2}


@implements(COVER)
def cover(state: GameState, firing: Sequence[Placed], target: Sequence[Placed]) -> tuple[int, str | None]:
    """Return the cover modifier a target has against a shooting unit, and the terrain piece giving it.

    A target model is covered by a piece of soft or hard cover its base centre stands in, or
    that the line from the closest firing model to it crosses (a piece the firing model
    stands in does not count).  The target has the cover at least half its models have:
    Hard Cover when half are behind hard cover, else Soft Cover when half are behind either.
    """
    pieces = [t for t in state.terrain if t.kind in COVER_KINDS]
    if not pieces or not target or not firing:
        return 0, None
    hard = soft = 0
    which: dict[int, str] = {}
    for p in target:
        near = min(firing, key=lambda f: distance(f, p))
        line = shapely.LineString([near.at, p.at])
        best = 0
        for t in pieces:
            shape = t.shape()
            if shape.contains(shapely.Point(near.at)) and not shape.contains(shapely.Point(p.at)):
                continue
            if shape.contains(shapely.Point(p.at)) or line.intersects(shape):
                if COVER_KINDS[t.kind] < best:
                    best = COVER_KINDS[t.kind]
                    which[best] = t.id
        hard += best <= -2
        soft += best <= -1
    if 2 * hard >= len(target):
        return -2, which[-2]
    if 2 * soft >= len(target):
        return -1, which.get(-1) or which[-2]
    return 0, None


def stands_and_shoots_unasked(charged: Unit) -> bool:
    """Say whether a charged unit Stands and Shoots when its player names no reaction: its rules list Stand and Shoot
    (any other unit Holds unasked; named, the reaction is open to any unit that can shoot at the charger,
    published.t9a-stand-and-shoot)."""
    return charged.has_rule(STAND_AND_SHOOT_RULE)


def takes_stand_and_shoot(charged: Unit, reaction: str | None) -> bool:
    """Say whether a charged unit not fleeing means to Stand and Shoot: named by its player, or unasked
    (``stands_and_shoots_unasked``); whether it may is ``stand_and_shoot_volley``'s ruling."""
    return reaction == "stand_and_shoot" or (reaction is None and stands_and_shoots_unasked(charged))


@dataclass(frozen=True)
class Volley:
    """A charged unit's Stand and Shoot: the models that shoot (none when it may not be taken) and what to tell."""

    shooters: tuple[Shooter, ...]
    said: str


@implements(STAND_AND_SHOOT, "t9a.join.part-of-unit", "t9a.charge-out.stand-and-shoot", WHO_CAN_SHOOT, OWN_RATE)
def stand_and_shoot_volley(state: GameState, charged: Unit, charger: Unit, first: bool = False,
                           choice: WeaponChoice = None, field: str = "reaction_weapon",
                           advance: int | None = None) -> Volley:
    """Rule on the Stand and Shoot of a unit with that reaction, charged by ``charger`` (a unit, or a character out).

    As the published rule says, it is taken only when the charged unit can shoot (not engaged,
    not fleeing, not Shaken, not already stood and shot this player turn), the charger is
    Located in its Front Arc (the centre of the charger's front) and starts farther away than
    its Advance Rate (the slowest charging model's; a character charging out, his own, and the refusal says so citing
    t9a.charge-out.own-rate).  Then
    every model of the unit's first two ranks (published.t9a-who-can-shoot), the characters
    joined to it too (part of the unit, in its first rank), with a missile weapon and BS above 0
    shoots if it sees the charger itself, as in the Shooting phase; a charger beyond half a weapon's range (or
    beyond its range: Stand and Shoot still shoots) is at Long Range.  ``first``: stop at the first model that
    shoots, its range unmeasured (whether the reaction may be taken at all, which listing legal actions asks).
    ``choice``: the weapon chosen as a shot's (published.t9a-shooting-weapons; checked by ``weapon_choice_problem``),
    each model's first listed where none is; when a member carries several, what is told says which one, and that
    ``field`` chooses another.  ``advance``: the charger's Advance Rate where it is not its ground one (a Flying charge).
    """
    out = bool(charger.joined)
    group = [u for u in state.combined(charged.id) if u.alive]
    firing = [m.placed for u in group for m in u.models]
    aim = charger.placed if out else placed_all(state, charger)
    rate = advance_rate(charger) if out else (unit_rates(state, charger, False) or (0, 0))[0]
    if advance is not None:  # a Flying charge: its flying Advance Rate stands for the Advance Rate (published.t9a-fly)
        rate = advance
    gap = group_distance(aim, firing) if aim and firing else 0.0
    why = ""
    if any(u.has(s) for u in group for s in (*BUSY, Status.SHAKEN)):
        why = "it is engaged, fleeing or Shaken and cannot shoot"
    elif any(u.has(Status.STOOD_AND_SHOT) for u in group):
        why = "it has stood and shot already this player turn"
    elif not located_in_front_arc(charger, charged):
        why = f"{charger.id} is not in its Front Arc"
    elif gap <= rate + EPSILON:
        why = f"{charger.id} starts {gap:.2f}\" away, not farther than its Advance Rate ({rate}\")"
        if out:  # a character charging out: the seed's own rate, not his unit's
            why += ", his own as he charges out"
    elif not unit_line_of_sight(sight_all(state, charged), aim, state.terrain):
        why = f"it has no line of sight to {charger.id}"
    if why:
        own = f", {OWN_RATE}" if why.endswith("his own as he charges out") else ""
        return Volley((), f"{charged.id} cannot Stand and Shoot: {why} [{STAND_AND_SHOOT}{own}]")
    shooters: list[Shooter] = []
    # "as if in the Shooting Phase": the charger's cover where it stands, found as a volley finds it (COVER)
    covered, piece = (0, None) if first else cover(state, firing, aim)
    behind = too_far_back_to_shoot(next((u.formation for u in group if u.formation is not None), None))
    back = 0
    blind: list[str] = []
    sight = blocks_sight(state.terrain)
    for u in group:
        chosen = choice_for(choice, u.id)
        for m in u.models:
            w = weapon_used(m, chosen)
            if w is None or m.profile.bs <= 0:
                continue
            if m.name in behind:
                back += 1
                continue
            if sight and not model_sees_any(sight_from(charged.formation, m), aim, state.terrain):
                blind.append(m.name)  # each model shoots only at a charger it sees itself (WHO_CAN_SHOOT)
                continue
            if first:
                return Volley((Shooter(m.profile.bs, w.strength, ap=w.ap),),
                              f"{charged.id} may Stand and Shoot [{STAND_AND_SHOOT}]")
            shooters.append(Shooter(m.profile.bs, w.strength, group_distance([m.placed], aim) > w.range / 2, covered,
                                    w.ap))
    rear = (f"{back} {'model stands' if back == 1 else 'models stand'} behind the second rank and cannot shoot "
            f"[{WHO_CAN_SHOOT}]") if back else ""
    if blind:
        rear = "; ".join(filter(None, (rear, f"{', '.join(blind)} {'does' if len(blind) == 1 else 'do'} not see "
                                             f"{charger.id} and cannot shoot [{WHO_CAN_SHOOT}]")))
    if not shooters:
        return Volley((), f"{charged.id} cannot Stand and Shoot: " + (rear or f"no model has a missile weapon "
                                                                             f"[{STAND_AND_SHOOT}]"))
    far = sum(s.long_range for s in shooters)
    used = weapons_said(state, charged, choice, "stands and shoots with", field)
    return Volley(tuple(shooters), f"{charged.id} stood and shot ({len(shooters)} shot{'s' * (len(shooters) != 1)}"
                  + (f", {far} at Long Range" if far else "")
                  + (f", {charger.id} in {'hard' if covered <= -2 else 'soft'} cover behind {piece}: {covered} to hit "
                     f"[{COVER}]" if covered else "") + f") [{STAND_AND_SHOOT}]"
                  + (f"; {rear}" if rear else "") + "".join(f"; {u}" for u in used))


@implements("t9a.join.part-of-unit", "t9a.leave.when")
def charged_with(state: GameState, unit_id: str, out: bool) -> list[Unit]:
    """Return the characters in a charging unit, marked as having charged with it (a character charging out: none).

    They moved with the unit in its charge, so none of them leaves it later in the turn (it has moved).
    """
    return [] if out else [c.with_status(Status.CHARGED) for c in state.joined_to(unit_id)]


@implements(STAND_AND_SHOOT, DISTRIBUTING_HITS, "t9a.join.part-of-unit")
def stand_and_shoot_at_unit(state: GameState, unit_id: str, shooters: Sequence[Shooter],
                             dice: Dice) -> tuple[GameState, list[str], bool, bool]:
    """Shoot a charging unit: each batch's hits shared as every shooting attack's are (``share_hits``: on the rank
    and file alone while five or more stand, else as equally as possible among its models, characters too), each
    share wounded on its own models' Toughness and save; return the state, the slain, and whether a character was hit.

    The rank and file take their wounds from the rear rank, the champion last (as every other volley takes them,
    ``rank_and_file``); wounds beyond the models a share hit are lost.
    """
    dead: list[str] = []
    shared = spared = False
    taken: dict[str, int] = {}
    for need, strength, ap, n in stand_and_shoot_batches(shooters):
        hits = stand_and_shoot_hits(dice, need, n, STAND_AND_SHOOT)
        for share in share_hits(state, unit_id, hits, None, taken):
            victim = state.unit(share.victim.id)
            if not victim.alive:
                continue
            shared = shared or bool(share.victim.joined)  # a character of the unit took hits
            victims = [(victim, m) for m in (list(victim.models) if is_character(victim) else rank_and_file(victim))]
            first = victims[0][1]
            unsaved = wound_hits(dice, share.hits, strength, first.profile.t, first.profile.save, STAND_AND_SHOOT, ap)
            state, slain = take_wounds(state, victims, unsaved)
            if slain:
                if not is_character(victim) and spared_command(victim, slain):
                    spared = True  # another rank-and-file model fell in a Musician's or Standard's place
                state = remove_casualties(state, unit_id, slain)
                dead.extend(slain)
    return state, dead, shared, spared
