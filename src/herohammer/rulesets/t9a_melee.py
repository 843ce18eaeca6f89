"""The 9th Age Melee phase: close combat with characters in and out of units.

Published 9th Age rules as the engine reads them (``herohammer rules --ruleset published``):

* Who fights: a model in base contact with an enemy model attacks with its Attacks; a
  model in the rank right behind a unit's front rank makes one supporting attack while its
  unit is in contact.  Strikes go in Initiative order, highest first; equal Initiative
  strikes at the same time; a model slain before its step does not strike.
* Whom: a model attacks the enemy unit it touches.  Its attacks go to the unit's rank and
  file unless it touches an enemy character and its player directs them at it (``at``:
  only models in base contact with that character may); a lone character, or the last
  survivor of a unit, is a unit of its own and takes them all (t9a.char.lone,
  t9a.combined.last-survivor).  To hit by WS against WS, to wound by S against T, armour
  by S (``t9a_charts``), through the same wounding code as shooting and spells.
* Combat resolution: each side scores its unsaved wounds, +1 per full rank (five models
  wide) behind the first up to +3, +1 for a standard, +1 for having charged this turn; the
  side with less loses by the difference and takes a Break test: a Leadership test on the
  unit's highest Leadership (a character's, if higher) at minus the difference, unmodified
  when it has more ranks than the winner (Steadfast).
* A unit that breaks flees 2D6" straight away with its characters; the winner pursues
  2D6": when the pursuit reaches the flee distance the fleeing unit is destroyed, its
  characters with it.  Either way the combat ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..checks import LeadershipTestKind, leadership_test
from ..dice import Dice
from ..formations import is_character
from ..geometry import in_base_contact
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..t9a_charts import to_hit_melee
from ..units import Model, Status, Unit
from .base import Resolution, Ruleset
from .t9a import current, remove_casualties
from .t9a_combat import FLEE_RULE, TO_WOUND, flee, members, models_in, rank_and_file, wound_unit

if TYPE_CHECKING:
    from ..actions import Fight

TO_HIT = "published.t9a-to-hit-melee"
RESOLUTION = "published.t9a-combat-resolution"
BREAK = "published.t9a-break-test"
PURSUIT = "published.t9a-pursuit"
FULL_RANK = 5
MAX_RANK_BONUS = 3


@dataclass(frozen=True)
class Blow:
    """One model's attacks in a step: who strikes, at which unit, how many attacks."""

    side: str
    model: Model
    victim: str  # the unit id whose models take the attacks
    attacks: int


def _touching(a: Sequence[Unit], b: Sequence[Unit]) -> bool:
    return any(in_base_contact(m.placed, n.placed) for u in a for m in u.models for v in b for n in v.models)


def engaged_with(state: GameState, unit_id: str) -> list[str]:
    """Return the ids of the enemy combined units in base contact with a combined unit."""
    mine = members(state, unit_id)
    side = mine[0].side
    seen: list[str] = []
    for e in state.enemies_of(side):
        group = members(state, e.id)
        if group[0].id not in seen and _touching(mine, group):
            seen.append(group[0].id)
    return seen


def rank_bonus(unit: Unit) -> int:
    """Return +1 per full rank (five models wide) behind the first, up to +3."""
    f = unit.formation
    if f is None or f.files < FULL_RANK:
        return 0
    full = len(f.order) // f.files
    return max(0, min(MAX_RANK_BONUS, full - 1))


def full_ranks(unit: Unit) -> int:
    """Count a unit's full ranks (five models wide or more)."""
    f = unit.formation
    return len(f.order) // f.files if f is not None and f.files >= FULL_RANK else 0


class MeleePhase(Ruleset):
    """Rule on and resolve close combat in The 9th Age (mixed into the t9a ruleset before ``NinthAge``)."""

    @implements("t9a.join.part-of-unit", "t9a.char.lone")
    def rule_fight(self, state: GameState, action: Fight) -> Ruling:
        """Rule on fighting a combat: an engaged unit in base contact; attacks at a character only from contact."""
        unit = state.unit(action.unit)
        if unit.side != state.active or not models_in(state, unit.id):
            return Ruling.forbid(f"{unit.id} is not a living unit of the active side")
        group = members(state, unit.id)
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined}: the unit fights, with it",
                                 "t9a.join.part-of-unit")
        if any(u.has(Status.FOUGHT) for u in group):
            return Ruling.forbid(f"{unit.id}'s combat has been fought this Melee phase", RESOLUTION)
        foes = engaged_with(state, unit.id)
        if not foes:
            return Ruling.forbid(f"{unit.id} is not in base contact with an enemy unit", TO_HIT)
        if action.at is not None:
            problem = self._at_problem(state, group, foes, action.at)
            if problem:
                return Ruling.forbid(problem, "t9a.join.part-of-unit")
        rules = [TO_HIT, RESOLUTION]
        for f in foes:
            if state.joined_to(f) or len(group) > 1:
                rules.append("t9a.join.part-of-unit")
            if is_character(state.unit(f)) and not state.unit(f).last_of:
                rules.append("t9a.char.lone")
        return Ruling.allow(f"{unit.id} fights {', '.join(foes)}", *dict.fromkeys(rules))

    def _at_problem(self, state: GameState, group: Sequence[Unit], foes: Sequence[str], at: str) -> str | None:
        if not state.has_unit(at) or not is_character(state.unit(at)) or state.unit(at).side == group[0].side:
            return f"{at} is not an enemy character"
        target = state.unit(at)
        host = target.joined or target.id
        if host not in foes:
            return f"{at} is not in a unit {group[0].id} fights"
        if not _touching(group, [target]):
            return f"no model of {group[0].id} is in base contact with {at}: only those may attack it"
        return None

    @implements("t9a.join.part-of-unit", "t9a.char.lone", "t9a.combined.last-survivor")
    def resolve_fight(self, state: GameState, action: Fight, dice: Dice) -> Resolution:
        """Fight the combat: strikes by Initiative, then combat resolution, the Break test, flight and pursuit."""
        start = len(dice.log)
        mine = members(state, action.unit)[0].id
        foes = engaged_with(state, mine)
        sides = {mine: state.active}
        for f in foes:
            sides[f] = state.unit(f).side
        caused = {state.active: 0, state.opponent(state.active): 0}
        lines: list[str] = []
        rules = [TO_HIT, TO_WOUND]
        steps = sorted({m.profile.i for uid in sides for u in members(state, uid) for m in u.models}, reverse=True)
        for step in steps:
            blows = self._blows(state, sides, step, action.at)
            groups: dict[tuple[str, str, int, int, int], int] = {}
            for b in blows:
                key = (b.side, b.victim, b.model.profile.ws, b.model.profile.s, b.model.profile.i)
                groups[key] = groups.get(key, 0) + b.attacks
            for (side, victim_id, ws, s, _), n in sorted(groups.items()):
                victim = state.unit(victim_id)
                if not victim.models:
                    continue
                hits = dice.pool(n, to_hit_melee(ws, victim.models[0].profile.ws), f"{side}: to hit (WS{ws})", TO_HIT)
                state, harm = wound_unit(state, victim, hits, s, dice, f"{side} (I{step})")
                caused[side] += harm.unsaved
                if is_character(victim):
                    rules.append("t9a.combined.last-survivor" if victim.last_of else "t9a.char.lone")
                if victim.joined:
                    rules.append("t9a.join.part-of-unit")
                lines.append(f"I{step}: {side} {n} attacks at {victim_id}: {harm.hits} hits, {harm.unsaved} unsaved"
                             + (f" (slain: {', '.join(harm.slain)})" if harm.slain else ""))
        events = [Event("fight", f"{mine} fights {', '.join(foes)}: " + "; ".join(lines),
                        tuple(dict.fromkeys(rules)), tuple(dice.log[start:]))]
        state, more = self._resolve_combat(state, mine, foes, caused, dice)
        events.extend(more)
        return state, events

    def _blows(self, state: GameState, sides: dict[str, str], step: int, at: str | None) -> list[Blow]:
        out: list[Blow] = []
        for uid, side in sides.items():
            group = members(state, uid)
            foes = [f for f, s in sides.items() if s != side]
            in_contact = False
            for u in group:
                for m in u.models:
                    touched = [f for f in foes if _touching([_only(u, m)], members(state, f))]
                    if touched:
                        in_contact = True
                    if m.profile.i != step or not touched or m.profile.a <= 0:
                        continue
                    out.append(Blow(side, m, self._victim(state, u, m, touched[0], at if side == state.active else None),
                                    m.profile.a))
            host = group[0]
            if in_contact and host.formation is not None and host.formation.files >= 1:
                for m in host.models:
                    if m.profile.i == step and m.profile.a > 0 and m.name in host.formation.order \
                            and host.formation.rank_of(m.name) == 1 and foes:
                        out.append(Blow(side, m, self._victim(state, host, m, foes[0], None), 1))
        return out

    def _victim(self, state: GameState, unit: Unit, model: Model, foe: str, at: str | None) -> str:
        """Return the unit whose models take a model's attacks: the rank and file unless directed at a character."""
        group = members(state, foe)
        if at is not None and any(c.id == at for c in group) and _touching([_only(unit, model)], [state.unit(at)]):
            return at
        host = group[0]
        if rank_and_file(host) or len(group) == 1:
            return host.id
        return group[1].id

    def _resolve_combat(self, state: GameState, mine: str, foes: list[str], caused: dict[str, int],
                        dice: Dice) -> tuple[GameState, list[Event]]:
        """Score the combat, take the loser's Break test, and flee and pursue."""
        start = len(dice.log)
        everyone = [mine, *foes]
        live = [u for u in everyone if models_in(state, u)]
        hosts = {u: members(state, u)[0] for u in live}
        score = dict(caused)
        notes = [f"wounds {caused}"]
        for uid, host in hosts.items():
            bonus = rank_bonus(host) + (1 if any(m.role == "standard" for m in host.models) else 0) \
                + (1 if any(u.has(Status.CHARGED) for u in members(state, uid)) else 0)
            score[host.side] = score.get(host.side, 0) + bonus
            if bonus:
                notes.append(f"{uid} +{bonus} (ranks, standard, charge)")
        state = state.replace_units(*(u.with_status(Status.FOUGHT) for uid in live for u in members(state, uid)))
        side_a, side_b = state.active, state.opponent(state.active)
        diff = score[side_a] - score[side_b]
        rules = [RESOLUTION]
        if not live or all(hosts[u].side == side_a for u in live) or all(hosts[u].side == side_b for u in live):
            state = state.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for uid in live
                                          for u in members(state, uid)))
            return state, [Event("combat", f"the combat ends: one side has no models left ({'; '.join(notes)})",
                                 tuple(rules))]
        if diff == 0:
            return state, [Event("combat", f"a draw, {score[side_a]} to {score[side_b]} ({'; '.join(notes)})",
                                 tuple(rules), (), (("outcome", "draw"),))]
        winner, loser = (side_a, side_b) if diff > 0 else (side_b, side_a)
        events: list[Event] = []
        losers = [u for u in live if hosts[u].side == loser]
        winners = [u for u in live if hosts[u].side == winner]
        said = f"{winner} wins by {abs(diff)} ({score[side_a]} to {score[side_b]}; {'; '.join(notes)})"
        for uid in losers:
            host = hosts[uid]
            steadfast = full_ranks(host) > max(full_ranks(hosts[w]) for w in winners)
            ld = self.leadership_of(state, uid)
            result = leadership_test(dice, ld.value, LeadershipTestKind.BREAK, 0 if steadfast else -abs(diff))
            rules += [BREAK, result.rule, ld.rule]
            test = (f"{uid} takes a Break test on Ld {ld.value} ({ld.source})"
                    + (" unmodified, Steadfast" if steadfast else f" -{abs(diff)}") + f": {result.roll}")
            if result.passed:
                said += f"; {test}, holds"
                continue
            if len(members(state, uid)) > 1:  # its characters break, flee and die with it
                rules.append("t9a.join.part-of-unit")
            away = _centre(state, winners[0])
            state, fled = flee(state, uid, away, dice, FLEE_RULE)
            chase = dice.total(2, f"{winners[0]}: pursuit (2D6)", PURSUIT)
            rules += [FLEE_RULE, PURSUIT]
            if chase >= fled:
                dead = [m.name for u in members(state, uid) for m in u.models]
                state = remove_casualties(state, uid, dead)
                for u in members(state, uid):
                    state = state.replace_unit(u.with_status(remove=(Status.FLEEING,)))
                said += f"; {test}, breaks and flees {fled}\", caught by a pursuit of {chase}\" and destroyed"
                outcome = "destroyed"
            else:
                said += f"; {test}, breaks and flees {fled}\" (pursuit {chase}\")"
                outcome = "fled"
            state = state.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for w in winners
                                          for u in members(state, w)))
            events.append(Event("break", said, tuple(dict.fromkeys(rules)), tuple(dice.log[start:]),
                                (("outcome", outcome),)))
            return state, events
        return state, [Event("combat", said, tuple(dict.fromkeys(rules)), tuple(dice.log[start:]),
                             (("outcome", "held"),))]

    def end_melee_phase(self, state: GameState) -> GameState:
        """Clear who has fought when a Melee phase ends."""
        if state.phase is not Phase.MELEE:
            return state
        return state.replace_units(*(u.with_status(remove=(Status.FOUGHT,)) for u in state.units))


def _only(unit: Unit, model: Model) -> Unit:
    return replace(unit, models=(model,))


def _centre(state: GameState, unit_id: str) -> tuple[float, float]:
    host = current(state, unit_id)
    if host.formation is not None:
        return host.formation.position
    group = members(state, unit_id)
    return next(m.at for u in group for m in u.models)
