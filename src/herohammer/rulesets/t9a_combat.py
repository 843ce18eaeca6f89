"""The 9th Age attack sequence shared by shooting, spells and melee: to hit, to wound, armour, casualties.

Seed 002 leans on "the general rules" without giving them; the engine follows the
published The 9th Age rules of the seed's era (1st/2nd edition, 2016-2021), stated in
``herohammer rules`` under the clauses they serve:

* To hit at range: 7 - BS (BS 1: 6+ ... BS 5 or more: 2+), worsened by -1 for Long Range
  (more than half the weapon's range), -1 for moving before shooting (a unit that
  marched does not shoot), -1 for Stand and Shoot, -1 soft cover, -2 hard cover.  A roll
  needed above 6 is a 6 followed by 4+ (7+), 5+ (8+) or 6 (9+); beyond that no hit.
* To hit in melee: the attacker's Weapon Skill against the defender's, as the 2nd edition
  compares Offensive to Defensive Skill: 4 or more above: 2+; 1 to 3 above: 3+; equal to
  3 below: 4+; 4 to 7 below: 5+; 8 or more below: 6+.
* To wound: Strength against Toughness: 2 or more above: 2+, 1 above: 3+, equal: 4+, 1
  below: 5+, 2 or more below: 6+ (always possible, unlike 40k).
* Armour: the save worsens by 1 for each point of the attack's Armour Penetration (2nd edition).
* Values of 0 (seed 004) everywhere: BS 0 cannot shoot, WS 0 is hit automatically and
  hits only on 6, S 0 never wounds (it prevails over T 0), T 0 is wounded on 2+.

Hits on a combined unit go to its rank and file while it has five or more of them;
with fewer, they are shared among its models, characters too, as equally as possible
(``t9a.share_hits``, published.t9a-distributing-hits); a unit reduced to its characters
shares them among them (t9a.combined.last-survivor).  Wounds never carry over from one
model to another kind.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from types import MappingProxyType
from typing import Any

from ..attacks import resolve_attacks
from ..catalogue import implements
from ..t9a_charts import AUTOMATIC, armour_save, to_wound
from ..rulings import Event
from ..dice import Dice, Stage, rolls_made, rolls_since
from ..formations import arrange
from ..geometry import box_gap, group_distance, group_extent, in_base_contact, on_table
from ..state import GameState
from ..values import evolve
from ..units import Model, Status, Unit
from .base import LeadershipRuling, LeadershipSource
from ..formations import is_character
from .t9a_discipline import BATTLE_STANDARD, heavy_casualties_panic
from .t9a_casualties import (command_said, Contacts, LOOK_OUT_SIR, NO_CONTACTS, REMOVING_CASUALTIES, rank_and_file,
                             remove_casualties, share_hits, sharing, spared_command)
from .t9a_moves import UNIT_SPACING
from .t9a_units import (classification, combined_status, current, discipline_of, host_of, lent_by, model_wounds,
                        off_table, unit_centre)

#: Published rule ids cited for the general rules the seeds rely on.
TO_WOUND = "published.t9a-to-wound"
PANIC = "published.t9a-panic"
FLEE_RULE = "published.t9a-flee"
GENERAL = "published.t9a-general"
#: The special rule naming the army's General, and the reach of his Commanding Presence (inches).
GENERAL_RULE = "General"
COMMANDING_PRESENCE = 12.0


@dataclass(frozen=True)
class Harm:
    """Say what a batch of hits did to a unit: wounds, casualties and the models that took them."""

    hits: int
    wounds: int
    unsaved: int
    slain: tuple[str, ...]
    victim: str  # the unit (a character's id when hits went to it)
    lost: int = 0  # Wounds the models actually lost (unsaved wounds beyond the last model's are overkill)
    #: Musicians and Standard Bearers whose places fell to the casualties, alive: another model fell in each one's
    #: stead (published.t9a-command-group)
    spared: tuple[str, ...] = ()
    #: An Engaged first rank's casualties taken from the end whose fall loses fewest contacts (enemy units, then
    #: models), not the ends in turn (published.t9a-removing-casualties, ``engaged_front``; judge rounds 64, 65)
    kept_contact: bool = False

    @property
    def said(self) -> str:
        """Say who fell: ", slain: s9, s8" and the Command Group spared ("" when nobody fell)."""
        return (f", slain: {', '.join(self.slain)}" + command_said(self.spared)) if self.slain else ""


def allocation_problem(state: GameState, target_id: str, at: str | None) -> str | None:
    """Say why hits cannot be directed at ``at`` (None when they can)."""
    if at is None:
        return None
    host = host_of(state, state.unit(target_id))
    if not state.has_unit(at) or (at != host.id and state.unit(at).joined != host.id):
        return f"{at} is not a character in {host.id}"
    if at != host.id and len(host.models) >= LOOK_OUT_SIR and not sharing(host, [state.unit(at)]):
        kind, tall = classification(host)
        return (f"{host.id} has {len(host.models)} rank-and-file models: hits go to them, not to {at} (a character "
                f"of their Type and Height, {kind.value.capitalize()} and {tall}, may be picked out only below "
                f"{LOOK_OUT_SIR})")
    return None


def wound_unit(state: GameState, victim: Unit, hits: int, strength: int, dice: Dice, who: str,
               rule: str = TO_WOUND, ap: int = 0) -> tuple[GameState, Harm]:
    """Roll to wound and save for ``hits`` on ``victim`` and remove the casualties (the one wounding path);
    ``ap``: the attack's Armour Penetration (``armour_save``)."""
    pool = _wound_pool(state, victim)
    if not pool or hits <= 0:
        return state, Harm(hits, 0, 0, (), victim.id)
    first = pool[0]
    result = resolve_attacks(dice, hits, AUTOMATIC, to_wound(strength, first.profile.t),
                             armour_save(first.profile.save, ap), rule=rule, who=who)
    return take_unsaved(state, victim, pool, result.hits, result.wounds, result.unsaved)


def strike_unit(state: GameState, victim: Unit, attacks: int, hit: Stage, strength: int, dice: Dice, who: str,
                rule: str = TO_WOUND, kept: dict[Hashable, Any] | None = None, only: str | None = None,
                spare: str | None = None, ap: int = 0) -> tuple[GameState, Harm]:
    """Roll to hit (``hit``), to wound and save for ``attacks`` on ``victim`` as one chain of pools, and remove the
    casualties: the rolls ``dice.pool`` and ``wound_unit`` would make, one after another, in play; one chance node
    over the unsaved wounds in an exact enumeration (hits and wounds in its log are representative).

    ``kept``: what the unsaved wounds did, by the state and the counts (an enumeration strikes the same
    blow on the same state once per branch after it).  ``only``: the one model the blows may wound (a Champion
    fighting a Duel); ``spare``: a model they may not (a Champion fighting a Duel, struck by others: published.t9a-duel).
    """
    pool = _wound_pool(state, victim)
    if only is not None or spare is not None:
        pool = [m for m in pool if (m.name == only if only is not None else m.name != spare)]
    if not pool:
        hits = 0 if hit.target is None else dice.pool(attacks, hit.target, hit.purpose, hit.rule)
        return state, Harm(hits, 0, 0, (), victim.id)
    first = pool[0]
    wound_on, save_on = to_wound(strength, first.profile.t), armour_save(first.profile.save, ap)
    label = f"{who}: " if who else ""
    hits, wounds, unsaved = dice.pools(
        attacks, hit, Stage(wound_on, f"{label}to wound ({wound_on}+)", rule),
        Stage(save_on, f"{label}saves ({save_on}+)", rule, fails=True))
    if kept is None:
        return take_unsaved(state, victim, pool, hits, wounds, unsaved)
    at = (state, victim.id, hits, wounds, unsaved, only, spare)
    found: tuple[GameState, Harm] | None = kept.get(at)
    if found is None:
        if len(kept) >= STRIKES_KEPT:
            kept.clear()
        found = kept[at] = take_unsaved(state, victim, pool, hits, wounds, unsaved)
    return found


#: What a strike's unsaved wounds did, kept per state (``strike_unit``'s ``kept``): cleared past this many.
STRIKES_KEPT = 512


def _wound_pool(state: GameState, victim: Unit) -> list[Model]:
    """Return the models that take a unit's wounds, in order: its rank and file (an Engaged first rank keeping its
    contact, ``engaged_front``), or a character's own models."""
    return rank_and_file(victim, engaged_front(state, victim)) if not is_character(victim) else list(victim.models)


@implements(REMOVING_CASUALTIES)
def engaged_front(state: GameState, unit: Unit) -> Contacts:
    """Name the models of an Engaged unit's first rank, its characters' too, in base contact with an enemy model, each
    with the enemy models (unit id, name) it touches: what its casualties weigh, end against end
    (``t9a_casualties._from_both_ends``, judge rounds 64, 65). None for a unit not Engaged, or without ranks. Kept on
    the state by the unit asked (a fight strikes it often)."""
    if unit.formation is None or Status.ENGAGED not in unit.status:
        return NO_CONTACTS
    return state.remember((_FRONT_TOUCHING, unit.id), partial(_front_touching, state, unit))


_FRONT_TOUCHING = "t9a first rank touching"


def _front_touching(state: GameState, unit: Unit) -> Contacts:
    f = unit.formation
    assert f is not None
    row = set(f.order[:f.files])
    mine = [m for u in (unit, *state.joined_to(unit.id)) for m in u.models if m.name in row]
    foes = [(e.id, n) for e in state.enemies_of(unit.side) for n in e.models]
    found = {m.name: frozenset((uid, n.name) for uid, n in foes if in_base_contact(m.placed, n.placed)) for m in mine}
    return MappingProxyType({name: touched for name, touched in found.items() if touched})


def take_unsaved(state: GameState, victim: Unit, pool: Sequence[Model], hits: int, wounds: int,
                 unsaved: int) -> tuple[GameState, Harm]:
    """Put ``unsaved`` wounds on ``pool`` (``victim``'s models, in order) and remove the slain."""
    before = state  # the first rank as it stood, for the Command Group spared
    host_id = victim.joined or victim.id
    left = unsaved
    slain: list[str] = []
    hurt: dict[str, int] = {}
    owner = state.unit(host_id) if victim.joined else victim
    lost = 0
    for m in pool:
        if left <= 0:
            break
        have = model_wounds(owner, m) - m.wounds_taken
        take = min(have, left)
        left -= take
        lost += take
        if take >= have:
            slain.append(m.name)
        else:
            hurt[m.name] = m.wounds_taken + take
    if hurt:
        fresh = state.unit(victim.id)
        state = state.replace_unit(replace(fresh, models=tuple(
            replace(m, wounds_taken=hurt[m.name]) if m.name in hurt else m for m in fresh.models)))
    touching = engaged_front(before, owner) if slain and owner.id == victim.id else NO_CONTACTS
    spared = spared_command(owner, slain, touching) if slain and owner.id == victim.id else ()
    kept = bool(touching) and set(slain) != {m.name for m in rank_and_file(owner)[:len(slain)]}
    if slain:
        state = remove_casualties(state, host_id, slain)
    return state, Harm(hits, wounds, unsaved, tuple(slain), victim.id, lost, spared, kept)


def wound_shares(state: GameState, target_id: str, hits: int, strength: int, dice: Dice, who: str,
                 at: str | None = None, taken: dict[str, int] | None = None,
                 ap: int = 0) -> tuple[GameState, list[Harm]]:
    """Distribute a batch of hits at a (combined) unit (``share_hits``) and wound each share on its own models."""
    harms: list[Harm] = []
    for share in share_hits(state, target_id, hits, at, taken):
        victim = state.unit(share.victim.id)
        if victim.alive:
            state, harm = wound_unit(state, victim, share.hits, strength, dice, who, ap=ap)
            harms.append(harm)
    return state, harms


def hit_a_character(before: GameState, harms: Sequence[Harm]) -> bool:
    """Say whether a character of a combined unit took some of the hits (``before``: the state they were shared on)."""
    return any(before.unit(h.victim).joined for h in harms)


def spell_harm_said(hits: int, strength: int, harms: Sequence[Harm]) -> str:
    """Say what a spell's (or a Miscast's) hits did: on one unit as "4 hits of S4 on orcs, 3 unsaved", else share by share."""
    if len(harms) == 1:
        h = harms[0]
        return f"{hits} hit{'s' * (hits != 1)} of S{strength} on {h.victim}, {h.unsaved} unsaved" + h.said
    return f"{hits} hit{'s' * (hits != 1)} of S{strength}: {harm_said(harms)}"


def harm_said(harms: Sequence[Harm]) -> str:
    """Say what a batch of hits did, member by member: "3 hits, 1 unsaved on spears; 1 hits, 0 unsaved on hero"."""
    return "; ".join(f"{h.hits} hit{'s' * (h.hits != 1)}, {h.unsaved} unsaved on {h.victim}" + h.said for h in harms)


def members(state: GameState, unit_id: str) -> list[Unit]:
    """Return what is now a combined unit (its last survivor once the rank and file are gone) and its characters."""
    host = state.unit(unit_id)
    if host.joined:
        host = state.unit(host.joined)
    if not host.alive:  # its last survivor, if one stands (``current``)
        host = current(state, host.id)
    return [host, *state.joined_to(host.id)]


def models_in(state: GameState, unit_id: str) -> int:
    """Count the living models of a combined unit (rank and file and characters)."""
    return sum(len(u.models) for u in members(state, unit_id))


@implements(PANIC, "t9a.combined.last-survivor")
def phase_losses(state: GameState, unit_id: str, before: int) -> tuple[GameState, int]:
    """Count a unit's losses over the phase: return the state and the models it had when the phase began.

    Heavy casualties are "in a single phase, 25% or more of the models it had at the start of the phase"
    (published.t9a-panic), so two volleys of one Shooting phase, or two spells of one Magic phase, add up.  The
    first time a unit loses models in a phase the state keeps what it had just before (``shot_this_phase``, under
    the unit's own name: a destroyed combined unit's last survivor is that unit and counts on, t9a.combined.last-
    survivor); no model joins or leaves a unit in a phase where it can lose one, so that is what it had when the
    phase began.  ``before``: the models it had just before this attack.  Each phase end forgets the counts.
    """
    host = current(state, host_of(state, state.unit(unit_id)).id)
    key = host.last_of or host.id
    had = dict(state.shot_this_phase).get(key)
    if had is not None:
        return state, had
    if models_in(state, host.id) < before:
        state = evolve(state, shot_this_phase=(*state.shot_this_phase, (key, before)))
    return state, before


def panic_after_losses(state: GameState, unit_id: str, before: int, dice: Dice, away_from: tuple[float, float],
                       also: tuple[str, ...] = ()) -> tuple[GameState, Event | None]:
    """Take the Panic test for heavy casualties when due (``heavy_casualties_panic``) and flee on a failure.

    The losses count over the phase (``phase_losses``): a quarter of the models the unit had when the phase began,
    lost to this attack and the phase's earlier ones; a unit engaged in combat, already fleeing or that passed a
    Panic test this phase takes none.  The unit may test on its General's Leadership when he is within 12"
    (published.t9a-general).  Returns the state and the ``panic`` event (None when no test was due), citing
    ``also`` too.
    """
    state, had = phase_losses(state, unit_id, before)
    host = current(state, host_of(state, state.unit(unit_id)).id)
    if host.has(Status.ENGAGED) or host.has(Status.FLEEING) or host.has(Status.PANIC_PASSED):
        return state, None
    start = rolls_made(dice)
    now = models_in(state, host.id)
    if now >= before:  # this attack took no model: nothing new to test for
        return state, None
    discipline = unit_discipline(state, host.id)
    if discipline is None:
        return state, None
    ld, lent = discipline
    taken = heavy_casualties_panic(state, host.id, had - now, had, dice, ld.value)
    if taken is None:
        return state, None
    result, flag = taken
    rules = [PANIC, result.rule, *ld.rules, *also, *((BATTLE_STANDARD,) if flag else ())]
    if lent:
        rules.append(GENERAL)
    if host.last_of:
        rules.append("t9a.combined.last-survivor")
    ld_said = discipline_said(ld, lent, flag)
    if had > before:  # the phase's earlier losses count too
        ld_said += (f"; {had - now} of the {had} models it had when the phase began lost this phase, "
                    f"{had - before} to earlier attacks")
    if result.passed:  # a unit that passed takes no other Panic test this phase
        state = state.replace_units(*(u.with_status(Status.PANIC_PASSED) for u in members(state, host.id)))
        said = f"{host.id} passes its Panic test ({result.roll} against {ld_said})"
    else:
        fled_from = state
        state, dist = flee(state, host.id, away_from, dice)
        said = f"{host.id} fails its Panic test ({result.roll} against {ld_said}) and flees {dist}\""
        if not current(state, host.id).alive:
            gone, cite = off_table(fled_from, host.id)
            said += gone
            rules += cite
    return state, Event("panic", said, tuple(dict.fromkeys(rules)), rolls_since(dice, start),
                        (("outcome", "passed" if result.passed else "fled"),))


#: A fleeing unit moved by one distance, with whether it is blocked there and wholly on the table (None: not asked yet).
_Place = tuple[GameState, list[bool | None]]
#: A fleeing unit's places kept per state it flees from (``flee``'s ``kept``): a dict of them is cleared past this.
FLEES_KEPT = 64


@implements(FLEE_RULE)
def flee(state: GameState, host_id: str, away_from: tuple[float, float], dice: Dice,
         rule: str = FLEE_RULE, kept: dict[Hashable, Any] | None = None) -> tuple[GameState, int]:
    """Flee 2D6 inches straight away from a point, with every character in the unit; return the distance.

    ``kept``: where the unit ends for each distance, and each place it was tried at, kept by the
    state it flees from (an enumeration flees from one state once per distance and per branch after
    it: each place is worked out once; the 2D6's distances share the places a blocked flee goes on through).
    """
    dist = dice.total(2, f"{host_id}: flee distance (2D6)", rule)
    return fled_to(state, host_id, away_from, dist, kept), dist


def fled_to(state: GameState, host_id: str, away_from: tuple[float, float], dist: int,
            kept: dict[Hashable, Any] | None = None) -> GameState:
    """Return the state once a unit has fled a distance rolled before (``flee``): a Break test's flee is rolled as
    the unit breaks and moved once the pursuits have caught whom they catch (published.t9a-pursuit, round 36)."""
    if kept is None:
        return _fled(state, host_id, away_from, dist, {})
    at = (state, host_id, away_from)
    found: tuple[dict[int, GameState], dict[float, _Place]] | None = kept.get(at)
    if found is None:
        if len(kept) >= FLEES_KEPT:
            kept.clear()
        found = kept[at] = ({}, {})
    ends, places = found
    end = ends.get(dist)
    if end is None:
        end = ends[dist] = _fled(state, host_id, away_from, dist, places)
    return end


def _fled(state: GameState, host_id: str, away_from: tuple[float, float], dist: int,
          places: dict[float, _Place]) -> GameState:
    """Return the state once the unit has fled ``dist`` inches (carried on while it ends within 1" of a unit).

    ``places``: the unit moved by each distance tried, with whether it is blocked and wholly on the table
    (each worked out when first asked).  A flee with no direction (the point is the unit's centre) stays
    where the first distance put it however far it is carried on, so it is not carried on.
    """
    def place(inches: float) -> _Place:
        found = places.get(inches)
        if found is None:
            found = places[inches] = (shift_away(state, host_id, away_from, inches), [None, None])
        return found

    def blocked(found: _Place) -> bool:
        flags = found[1]
        if flags[0] is None:
            flags[0] = _flee_blocked(found[0], host_id)
        return bool(flags[0])

    def on_table(found: _Place) -> bool:
        flags = found[1]
        if flags[1] is None:
            flags[1] = _on_the_table(found[0], host_id)
        return bool(flags[1])

    spot = place(float(dist))
    extra = 0.0
    furthest = state.table.width + state.table.depth  # a flee with no direction cannot go on forever
    if away_direction(state, host_id, away_from) != (0.0, 0.0):  # with none, every place is the first one
        while blocked(spot) and on_table(spot) and extra < furthest:
            extra += FLEE_STEP  # a flee may not end within 1" of another unit: it goes on until clear
            spot = place(dist + extra)
    moved = spot[0]
    if not on_table(spot):  # it ran off the table: gone, with its characters
        group = members(moved, host_id)
        return remove_casualties(moved, group[0].id, [m.name for u in group for m in u.models])
    return moved.replace_units(*(u.with_status(Status.FLEEING, remove=(Status.ENGAGED,))
                                 for u in members(moved, host_id)))


#: How far a flee that would end within 1" of another unit is carried on at a time.
FLEE_STEP = 0.5


def _flee_blocked(state: GameState, host_id: str) -> bool:
    """Tell whether a fleeing unit stands within 1" of (or on) another unit (published.t9a-flee)."""
    group = members(state, host_id)
    own = {u.id for u in group}
    mine = [m.placed for u in group for m in u.models]
    box = group_extent(mine)
    # a unit whose box (its models' bounding circles) is clearly more than 1" from the fleeing unit's is not measured
    # model by model: the boxes' gap is a floor of the distance (far above float rounding)
    return any(group_distance(mine, u.placed) + 1e-9 < UNIT_SPACING
               for u in state.units if u.id not in own and u.alive and u.embarked_in is None
               and box_gap(box, u.extent) <= UNIT_SPACING + _BOX_MARGIN)


#: What a box gap must clear beyond 1" before a fleeing unit is taken as clear of a unit without measuring it.
_BOX_MARGIN = 1e-6


def _on_the_table(state: GameState, host_id: str) -> bool:
    """Tell whether every model of a fleeing unit is still wholly on the table."""
    return all(on_table(m.placed, state.table.width, state.table.depth)
               for u in members(state, host_id) for m in u.models)


def away_direction(state: GameState, host_id: str, away_from: tuple[float, float]) -> tuple[float, float]:
    """Return the unit vector from a point to a combined unit's centre ((0, 0) when they coincide): the way a flee
    goes, which its pursuers pivot to face (published.t9a-pursuit)."""
    centre = unit_centre(state, host_id)
    dx, dy = centre[0] - away_from[0], centre[1] - away_from[1]
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def shift_away(state: GameState, host_id: str, away_from: tuple[float, float], inches: float) -> GameState:
    """Move a combined unit ``inches`` straight away from a point (towards it for a negative distance)."""
    group = members(state, host_id)
    host = group[0]
    dx, dy = away_direction(state, host_id, away_from)
    mx, my = dx * inches, dy * inches
    if host.formation is not None:
        return arrange(state.replace_unit(replace(host, formation=host.formation.moved_by(mx, my))), host.id)
    changed = [replace(u, models=tuple(m.moved_to((m.at[0] + mx, m.at[1] + my)) for m in u.models))
               for u in group]
    return state.replace_units(*changed)


@implements(GENERAL)
def generals_near(state: GameState, host_id: str, apart: bool = False) -> list[Model]:
    """Return the General's model when his Commanding Presence reaches a unit: within 12", not fleeing (nor his unit:
    joined, he flees with it, round 30), not in it, not shamed by a refused Duel (his Discipline counts as 0,
    published.t9a-duel).  A unit with no model left (shot or cast down to the last) is within reach of nobody: it
    takes no test, so the General lends it nothing.  ``apart``: the unit is a character charging out of his unit, a
    unit of his own from his declaration (the 2022 text), so a General left in that unit is another unit's model
    (round 30)."""
    group = [state.unit(host_id)] if apart else members(state, host_id)
    ids = {u.id for u in group}
    mine = [m.placed for u in group for m in u.models]
    out: list[Model] = []
    if not mine:
        return out
    for g in state.side_units(group[0].side):
        if g.alive and g.id not in ids and GENERAL_RULE in g.rules and \
                Status.FLEEING not in combined_status(state, g) and not g.has(Status.DUEL_REFUSED) and \
                group_distance([m.placed for m in g.models], mine) <= COMMANDING_PRESENCE:
            out.extend(g.models)
    return out


@implements("core.test.leadership-choice", GENERAL, "published.t9a-duel")
def unit_discipline(state: GameState, host_id: str) -> tuple[LeadershipRuling, bool] | None:
    """Return the Discipline a unit takes a Panic or Rally test on, and whether it is its General's: the highest of
    its models' values (a joined character's too; one shamed by a refused Duel brings 0) and the General's within 12"
    (Commanding Presence), taken only where higher than all its own; the model it is named after.  None when the unit
    has no model left (it takes no test).  Seed 004 lets the player pick among the values: no one picks a lower one
    to flee on, so the highest is taken (core.test.leadership-choice's default)."""
    own = [LeadershipSource(m.name, discipline_of(u, m), is_character(u)) for u in members(state, host_id)
           for m in u.models]
    if not own:
        return None
    near = [LeadershipSource(m.name, m.profile.ld, True) for m in generals_near(state, host_id)]
    best = max([*own, *near], key=lambda s: s.leadership)  # the first of the highest: its own before the General's
    also, lent = lent_by(state, host_id, best.name)  # a joined character's value is the unit's (round 56)
    return (LeadershipRuling(best.leadership, "core.test.leadership-choice", best.name, also=also, lent=lent),
            best.leadership > max(s.leadership for s in own))


def discipline_said(ld: LeadershipRuling, lent: bool, flag: str = "") -> str:
    """Say the Discipline a Panic test was taken on and whose it is ("Ld 9, Hero"), as a Break or Rally test says it
    (judge round 51: a Panic test said "Ld 9" alone, whoever's it was)."""
    return f"Ld {ld.value}, {ld.source}" + (", the General within 12\"" if lent else "") + (f"; {flag}" if flag else "")
