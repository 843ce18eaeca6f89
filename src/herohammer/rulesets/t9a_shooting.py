"""The 9th Age Shooting phase: units (with the characters in them) and lone characters shoot.

A combined unit shoots as one unit: each model with a missile weapon in its first or
second rank (published.t9a-who-can-shoot) fires once, a
character among them with its own BS and its own movement (t9a.join.moved-separately:
a character that marched does not shoot, its unit may).  Hits on a combined unit go as
``t9a.share_hits`` shares them (published.t9a-distributing-hits); a lone character is a unit of its own and a target
like any other (t9a.char.lone).  After the volley, a unit that lost a quarter of its
models takes the Panic test for heavy casualties.

Missile weapons (published 9th Age general weapons): range in inches and Strength;
a weapon named ``<kind> S<n>`` uses that Strength.  A model with several uses one per
phase, the unit's rank and file all the same one, each character his own
(published.t9a-shooting-weapons): the shot's ``weapon`` chooses, by default each
model's first listed, and the ruling says which is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..dice import Dice, rolls_made, rolls_since
from ..geometry import Point, blocks_sight, group_distance, model_sees_any
from ..rulings import Event, Ruling
from ..state import GameState
from ..t9a_charts import TO_HIT_SHOOTING, roll_to_hit_at_range, to_hit_shooting
from ..units import Model, Status, Unit
from .base import Resolution, Ruleset
from .t9a_casualties import COMMAND_GROUP, DISTRIBUTING_HITS, no_models_left
from .t9a_stand_and_shoot import COVER, cover
from .t9a_units import current, FAILED_CHARGE, lone_rules, rallied, RALLY_RULE
from .t9a_discipline import shaken_refusal
from ..formations import WHO_CAN_SHOOT, is_character, sight_from, too_far_back_to_shoot
from .t9a_combat import (TO_WOUND, allocation_problem, harm_said, hit_a_character, members, models_in,
                         panic_after_losses, wound_shares)
from .t9a_weapons import SHOOTING_WEAPONS, choice_for, weapon_choice_problem, weapon_used, weapons_said

if TYPE_CHECKING:
    from ..actions import Shoot, WeaponChoice

LONG_RANGE, MOVED = -1, -1
#: What keeps a unit from shooting at all, and how a refusal says it (published.t9a-who-can-shoot).
_BARRED = ((Status.ENGAGED, "is engaged in combat"), (Status.FLEEING, "is fleeing"),
           (Status.SHOT, "has already shot this phase"))


@dataclass(frozen=True)
class Shot:
    """One model's shot: who fires, at what need, with what Strength and Armour Penetration."""

    unit: Unit
    model: Model
    weapon: str
    need: int | None
    strength: int
    long_range: bool
    ap: int = 0


@implements("t9a.join.moved-separately", "t9a.join.part-of-unit", TO_HIT_SHOOTING)
def moved_now(member: Unit, host: Unit) -> bool:
    """Say whether a member of a shooting unit takes the Moving and Shooting -1: by its own status, or, a character
    joined to it, by the unit's (round 30): a character in a unit that moved or marched moved with it or moved to join
    it after (whether he marched is his own status: t9a.join.moved-separately).  A charge is no Move Manoeuvre (2022
    text, To-Hit Modifiers: "performed a Move Maneuvre (Reform, Advance or March)"): round 45, until then a character
    in a unit that charged took the -1 and its rank and file did not."""
    if member.has(Status.MOVED) or member.has(Status.MARCHED):
        return True
    return member.id != host.id and (host.has(Status.MOVED) or host.has(Status.MARCHED))


@implements(WHO_CAN_SHOOT, "t9a.join.part-of-unit", "t9a.join.moved-separately")
def marched_note(member: Unit, host: Unit) -> str:
    """Say why a member of a shooting unit that marched does not shoot, citing the clause that decides it.

    The unit: it marched (WHO_CAN_SHOOT). A character in a unit that marched too: he marched with it, as part of the
    unit (t9a.join.part-of-unit), and the unit's march is what bars him (round 58: he was told
    t9a.join.moved-separately, the clause on moving apart, which decides only when the unit did not march: then his
    own march, made apart, bars him alone).
    """
    if member.id == host.id:
        return f"{member.id} marched this turn and does not shoot [{WHO_CAN_SHOOT}]"
    if host.has(Status.MARCHED):
        return (f"{member.id} marched with {host.id} this turn, part of the unit that marched, and does not shoot "
                f"[{WHO_CAN_SHOOT}, t9a.join.part-of-unit]")
    return f"{member.id} marched this turn and does not shoot [t9a.join.moved-separately]"


#: The key ``ShootingPhase.shooters`` keeps its answer under on a state.
_SHOOTERS = "t9a shooters"


class ShootingPhase(Ruleset):
    """Rule on and resolve shooting in The 9th Age (mixed into the t9a ruleset before ``NinthAge``)."""

    def shooters(self, state: GameState, host: Unit, target: Unit,
                 choice: WeaponChoice = None) -> tuple[list[Shot], list[str]]:
        """Return the shots a combined unit fires at a target and the notes on models that cannot fire.

        ``choice``: the shot's ``weapon`` (published.t9a-shooting-weapons), checked by ``weapon_choice_problem``.
        Kept on the state (``HashOnce.remember``): the ruling and the resolution of one shot both ask it.
        """
        chosen = tuple(sorted(choice.items())) if isinstance(choice, dict) else choice
        shots, notes = state.remember((_SHOOTERS, host.id, target.id, chosen),
                                      lambda: self._shooters(state, host, target, choice))
        return list(shots), list(notes)

    def _shooters(self, state: GameState, host: Unit, target: Unit,
                  choice: WeaponChoice) -> tuple[tuple[Shot, ...], tuple[str, ...]]:
        shots: list[Shot] = []
        notes: list[str] = weapons_said(state, host, choice)
        aim = [m.placed for u in members(state, target.id) for m in u.models]
        covered, piece = cover(state, [m.placed for u in state.combined(host.id) for m in u.models], aim)
        if covered:
            notes.append(f"{target.id} is in {'hard' if covered <= -2 else 'soft'} cover behind {piece}: "
                         f"{covered} to hit [{COVER}]")
        behind = too_far_back_to_shoot(host.formation)
        back = 0
        blind: list[str] = []
        sight = blocks_sight(state.terrain)
        for u in state.combined(host.id):
            if rallied(u):  # round 57: it said "marched", a rallied character citing t9a.join.moved-separately
                notes.append(f"{u.id} rallied this turn, and a rallied unit counts as having marched: it does not "
                             f"shoot [{RALLY_RULE}, {WHO_CAN_SHOOT}]")
                continue
            if u.has(Status.MARCHED):
                # a unit that marched does not shoot (WHO_CAN_SHOOT); a character moved apart from his unit neither
                notes.append(marched_note(u, host))
                continue
            chosen = choice_for(choice, u.id)
            for m in u.models:
                if not m.weapons:
                    continue
                w = weapon_used(m, chosen)
                if w is None:
                    continue
                if m.name in behind:
                    back += 1
                    continue
                if m.profile.bs <= 0:
                    notes.append(f"{m.name} has BS 0 and cannot shoot [core.zero.bs]")
                    continue
                if sight and not model_sees_any(sight_from(host.formation, m), aim, state.terrain):
                    blind.append(m.name)  # each model shoots at a target it sees itself (WHO_CAN_SHOOT)
                    continue
                gap = group_distance([m.placed], aim)
                if gap > w.range:
                    continue
                long_range = gap > w.range / 2
                mod = (LONG_RANGE if long_range else 0) + (MOVED if moved_now(u, host) else 0) + covered
                shots.append(Shot(u, m, w.kind, to_hit_shooting(m.profile.bs, mod), w.strength, long_range, w.ap))
        if back:
            notes.append(f"{back} {'model stands' if back == 1 else 'models stand'} behind the second rank of "
                         f"{host.id} and cannot shoot [{WHO_CAN_SHOOT}]")
        if blind:
            notes.append(f"{', '.join(blind)} {'does' if len(blind) == 1 else 'do'} not see {target.id} and "
                         f"cannot shoot at it [{WHO_CAN_SHOOT}]")
        return tuple(shots), tuple(notes)

    @implements("published.t9a-panic", "published.t9a-charge")
    def charger_panic(self, state: GameState, unit_id: str, before: int, dice: Dice,
                      away_from: Point) -> tuple[GameState, list[Event]]:
        """Take the Panic test a charging unit owes after Stand and Shoot casualties; on a failure it flees.

        Stand and Shoot is a shooting attack: a quarter of the charger's models lost to it
        calls for the Panic test for heavy casualties like any other volley (the hook
        ``NinthAge.resolve_charge`` calls).
        """
        state, panic = panic_after_losses(state, unit_id, before, dice, away_from, ("published.t9a-charge",))
        return state, [panic] if panic is not None else []

    @implements("t9a.join.part-of-unit", "t9a.char.lone", "t9a.join.moved-separately", "t9a.combined.last-survivor",
                WHO_CAN_SHOOT, SHOOTING_WEAPONS, DISTRIBUTING_HITS, RALLY_RULE)
    def rule_shoot(self, state: GameState, action: Shoot) -> Ruling:
        """Rule on a shooting attack: a combined unit shoots as one; joined characters are hit through the unit."""
        unit = state.unit(action.unit)  # a destroyed combined unit's name is its last survivor's (named_now)
        if not any(u.alive for u in state.combined(unit.id)):
            return no_models_left(unit)
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined}: name the unit, which shoots with it",
                                 "t9a.join.part-of-unit")
        for s, why in _BARRED:
            if unit.has(s):
                return Ruling.forbid(f"{unit.id} {why} and cannot shoot", WHO_CAN_SHOOT)
        if shaken := shaken_refusal(state, unit, "make a shooting attack", charge_bars=False):
            return shaken
        if unit.has(Status.FAILED_CHARGE):  # round 45: until then it shot (the 2022 text, Choose a Unit and a Target)
            return Ruling.forbid(f"{unit.id} made a Failed Charge Move this player turn and cannot shoot", WHO_CAN_SHOOT,
                                 FAILED_CHARGE)
        ruling = self.target_ruling(state, unit.id, action.target)
        if not ruling.legal:
            return ruling
        target = members(state, action.target)[0]
        if any(u.has(Status.ENGAGED) for u in members(state, target.id)):
            return Ruling.forbid(f"{target.id} is engaged in combat: no shooting into a combat", TO_HIT_SHOOTING)
        problem = allocation_problem(state, target.id, action.at)
        if problem:  # who may be picked out of a combined unit is the rule on hits at combined units
            return Ruling.forbid(problem, "t9a.join.part-of-unit", DISTRIBUTING_HITS)
        if problem := weapon_choice_problem(state, unit, action.weapon):
            return Ruling.forbid(problem, SHOOTING_WEAPONS)
        shots, notes = self.shooters(state, unit, target, action.weapon)
        if not shots:
            why = "; ".join(n for n in notes if SHOOTING_WEAPONS not in n) or (
                f"no model has a missile weapon in range [{TO_HIT_SHOOTING}]")
            if any(SHOOTING_WEAPONS in n for n in notes):
                why += "; " + "; ".join(n for n in notes if SHOOTING_WEAPONS in n)
            rules = [r for r in ("core.zero.bs", "t9a.join.moved-separately", "t9a.join.part-of-unit", RALLY_RULE,
                                 WHO_CAN_SHOOT, TO_HIT_SHOOTING, SHOOTING_WEAPONS) if r in why]
            return Ruling.forbid(f"{unit.id} has no shot at {target.id}: {why}", *rules)
        rules = [*ruling.rules, *lone_rules(state, unit)]  # a lone character shoots as a unit of one (round 61)
        if state.joined_to(target.id) or target.joined:
            rules.append("t9a.join.part-of-unit")
        if any(COVER in n for n in notes):
            rules.append(COVER)
        if any(RALLY_RULE in n for n in notes):
            rules.append(RALLY_RULE)
        if any(WHO_CAN_SHOOT in n for n in notes):
            rules.append(WHO_CAN_SHOOT)
        if any("t9a.join.part-of-unit]" in n for n in notes):  # a character who marched with his unit
            rules.append("t9a.join.part-of-unit")
        if any("t9a.join.moved-separately]" in n for n in notes):  # one who marched apart (round 66: words only)
            rules.append("t9a.join.moved-separately")
        if any(SHOOTING_WEAPONS in n for n in notes):
            rules.append(SHOOTING_WEAPONS)
        if action.at is not None and action.at != target.id:  # the attacker's pick of who takes the odd hits
            rules.append(DISTRIBUTING_HITS)
            notes.append(f"{action.at} is named: he takes his share of the hits, and the first of any that do not "
                         f"divide evenly among {target.id}'s models [{DISTRIBUTING_HITS}]")
        if unit.last_of:  # the destroyed unit shoots as its last survivor, who moved or marched on his own
            rules += ["t9a.combined.last-survivor", "t9a.join.moved-separately"]
            notes.append(f"{unit.id} is all that is left of {unit.last_of} and shoots as it, as far as his own move "
                         f"allows ({'moved' if unit.has(Status.MOVED) else 'did not move'}; what he and his unit moved "
                         "counts apart) [t9a.join.moved-separately]")
        return Ruling.allow(f"{unit.id} shoots {len(shots)} shot{'s' * (len(shots) != 1)} at {target.id}",
                            *dict.fromkeys(rules),
                            notes=tuple(notes))

    def resolve_shoot(self, state: GameState, action: Shoot, dice: Dice) -> Resolution:
        """Fire: roll to hit per group of alike shots, wound the models hits are allocated to, then Panic."""
        start = rolls_made(dice)
        unit = state.unit(action.unit)
        target = members(state, action.target)[0]
        shots, notes = self.shooters(state, unit, target, action.weapon)
        before = models_in(state, target.id)
        groups: dict[tuple[int | None, int, int], int] = {}
        for s in shots:
            groups[(s.need, s.strength, s.ap)] = groups.get((s.need, s.strength, s.ap), 0) + 1
        rules = [TO_HIT_SHOOTING, TO_WOUND]
        if is_character(target) and not state.joined_to(target.id):
            rules.append("t9a.char.lone")
        rules += [r for r in lone_rules(state, unit) if r not in rules]  # he who shoots, a unit of one (round 61)
        if target.last_of:
            rules.append("t9a.combined.last-survivor")
        parts = []
        taken: dict[str, int] = {}  # hits each member took so far: one attack's hits are shared as one
        for (need, strength, ap), n in sorted(groups.items(), key=lambda kv: (kv[0][0] or 99, kv[0][1], kv[0][2])):
            if not models_in(state, target.id):
                break
            hits = roll_to_hit_at_range(dice, n, need, f"{unit.id} shooting")
            if len(members(state, target.id)) > 1:
                rules.append("t9a.join.part-of-unit")
            elif current(state, target.id).last_of:
                rules.append("t9a.combined.last-survivor")
            if strength <= 0:
                rules.append("core.zero.s")
            pre = state
            state, harms = wound_shares(state, target.id, hits, strength, dice, f"{unit.id} shooting", action.at,
                                        taken, ap)
            if hit_a_character(pre, harms):
                rules.append(DISTRIBUTING_HITS)
            if any(h.spared for h in harms):
                rules.append(COMMAND_GROUP)
            if any(pre.unit(h.victim).models and pre.unit(h.victim).models[0].profile.t <= 0 for h in harms):
                rules.append("core.zero.t")
            parts.append(f"{n} shot{'s' * (n != 1)} ({need}+ to hit, S{strength}{f' AP{ap}' if ap else ''}): "
                         + harm_said(harms))
        state = state.replace_units(*(u.with_status(Status.SHOT) for u in state.combined(unit.id)))
        # every note cited is told too (round 31b: a marched character's missing shot was cited, not told)
        if any("t9a.join.moved-separately" in n for n in notes):
            rules.append("t9a.join.moved-separately")
            parts.extend(n.split(" [")[0] for n in notes if "t9a.join.moved-separately" in n)
        if any("core.zero.bs" in n for n in notes):
            rules.append("core.zero.bs")
            parts.extend(n.split(" [")[0] for n in notes if "core.zero.bs" in n)
        if any(COVER in n for n in notes):
            rules.append(COVER)
            parts.append(next(n.split(" [")[0] for n in notes if COVER in n))
        if any(RALLY_RULE in n for n in notes):
            rules.append(RALLY_RULE)
        if any(WHO_CAN_SHOOT in n for n in notes):
            rules.append(WHO_CAN_SHOOT)
            parts.extend(n.split(" [")[0] for n in notes if WHO_CAN_SHOOT in n)
            if any("t9a.join.part-of-unit]" in n for n in notes):  # a character who marched with his unit
                rules.append("t9a.join.part-of-unit")
        if any(SHOOTING_WEAPONS in n for n in notes):
            rules.append(SHOOTING_WEAPONS)
            parts.extend(n.split(" [")[0] for n in notes if SHOOTING_WEAPONS in n)
        events = [Event("shoot", f"{unit.id} shoots {target.id}: " + "; ".join(parts),
                        tuple(dict.fromkeys(rules)), rolls_since(dice, start))]
        at = unit.formation.position if unit.formation is not None else next(
            m.at for u in state.combined(unit.id) for m in u.models)
        state, panic = panic_after_losses(state, target.id, before, dice, at)
        return state, [*events, *([panic] if panic is not None else [])]
