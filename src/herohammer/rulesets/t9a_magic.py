"""The 9th Age Magic phase: Wizards (and Wizard Conclave units) cast spells with Magic Dice.

Published 9th Age rules as the engine reads them (each reading in ``herohammer rules``
under published.t9a-magic):

* Magic Dice: each side's dice for a Magic phase come from the Flux card drawn; the engine
  holds no deck, so a scenario states them (``magic_dice: {side: n}``), and the dice used
  this phase are kept until the phase ends.
* A casting attempt: the caster picks 1 to 5 of its side's Magic Dice; the casting roll is
  their total plus the caster's casting modifier (Wizard Apprentice +0, Adept +1, Master
  +2); at least the spell's casting value casts it.  Two or more natural 6s are
  Overwhelming Power: the spell is cast whatever the total, cannot be dispelled, and the
  caster suffers a Miscast.
* A dispel attempt: the reactive player rolls the dice they commit (``dispel``); a total
  at least the casting roll dispels the spell.
* Each caster casts each of its spells at most once per Magic phase.
* Spell Types (published.t9a-spell-types, ``spells.PLAYED_TYPES``): Hex targets enemy units;
  a Missile targets only what the Caster sees (his Line of Sight, drawn within his unit's Front
  Arc) and is not cast while the Caster (its unit) is Engaged in Combat; a Damage spell does
  not target a unit Engaged in Combat. Other spells need neither sight nor the Front Arc, only range.
* Wizard Conclave (seed 002): the unit's champion is its Master Wizard, has +1 Wound and
  casts the two spells chosen from the rule's list before the game; the unit casts only
  while its champion lives.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..dice import Dice
from ..formations import is_character, sight_from
from ..errors import IllegalActionError, ScenarioError
from ..geometry import Placed, group_distance, unit_line_of_sight
from ..rulings import Event, Ruling
from ..spells import SPELL_TYPES, Spell, bundled_spells, find_spell
from ..state import GameState, MagicDice, Phase
from ..units import Status, Unit
from .base import Resolution, Ruleset
from .t9a_casualties import COMMAND_GROUP, DISTRIBUTING_HITS, no_models_left
from .t9a_discipline import choose_conclave_spells
from .t9a_units import has_conclave, host_of, sight_all
from .t9a_moves import in_front_arc
from .t9a_panic import closest_enemy_centre
from .t9a_combat import TO_WOUND, hit_a_character, spell_harm_said, members, models_in, panic_after_losses, wound_shares

if TYPE_CHECKING:
    from ..actions import Cast

MAGIC = "published.t9a-magic"
MISCAST = "published.t9a-miscast"
CONCLAVE = "t9a.spell.wizard-conclave"
#: Wizard levels: (casting modifier, spells known by the normal selection).
WIZARD_LEVELS = {"Wizard Apprentice": (0, 1), "Wizard Adept": (1, 2), "Wizard Master": (2, 4)}
MAX_DICE = 5
#: Miscast (the engine's reading, see published.t9a-miscast): D6 hits of this Strength on the caster's unit.
MISCAST_STRENGTH = 4


#: A Wizard level as a roster may write it, with the Path of its spells after it: ``Wizard Adept (Divination)``.
_LEVEL = re.compile(r"^\s*(Wizard (?:Apprentice|Adept|Master))\s*(?:\([^()]*\))?\s*$")


def level_named(rule: str) -> str | None:
    """Return the Wizard level a rule's name gives (``Wizard Adept (Divination)`` -> ``Wizard Adept``), or None.

    The Path in brackets says which spells the Wizard may choose; the spells themselves are the
    unit's ``spells`` (chosen before the game), so the level is all the Magic phase reads.
    """
    found = _LEVEL.match(rule)
    return found.group(1) if found else None


def wizard_level(unit: Unit) -> tuple[str, int, int] | None:
    """Return a caster's level, casting modifier and spell count; a Wizard Conclave casts as a Master."""
    if has_conclave(unit):
        return "Wizard Master", *WIZARD_LEVELS["Wizard Master"]
    levels = {level_named(r) for r in unit.rules}
    for name, (mod, count) in WIZARD_LEVELS.items():
        if name in levels:
            return name, mod, count
    return None


@implements(CONCLAVE)
def spell_choice_problem(unit: Unit) -> str | None:
    """Say what is wrong with a unit's chosen spells (None when the choice is legal)."""
    if not unit.spells:
        return None
    unknown = [s for s in unit.spells if find_spell(s) is None]
    if unknown:
        return (f"unknown spell {', '.join(unknown)} (known: {', '.join(s.name for s in bundled_spells())}) "
                f"[{MAGIC}]")
    if has_conclave(unit):
        try:
            choose_conclave_spells(unit, unit.spells)
        except IllegalActionError as exc:
            return f"{exc.reason} [{CONCLAVE}]"
        return None
    level = wizard_level(unit)
    if level is None:
        return f"only a Wizard (Wizard Apprentice, Adept or Master) or a Wizard Conclave unit knows spells [{MAGIC}]"
    if len(set(unit.spells)) != len(unit.spells) or len(unit.spells) > level[2]:
        return f"a {level[0]} knows at most {level[2]} different spells, got {list(unit.spells)} [{MAGIC}]"
    return None


@implements(MAGIC, CONCLAVE, "t9a.join.part-of-unit")
def casting_models(state: GameState, unit: Unit) -> tuple[list[Placed], str]:
    """Return where a spell is cast from (its range is measured), and who casts it: the Caster's own model.

    A spell's range and sight are the Caster's (published.t9a-magic): a Wizard character is
    part of his unit for the rules where that matters (t9a.join.part-of-unit), but the unit's
    other models do not cast, so they lend him neither range nor sight.  A Wizard Conclave
    casts through its champion, its Master Wizard (t9a.spell.wizard-conclave).  Any other
    casting unit casts from all its models.
    """
    if is_character(unit):
        return [m.placed for m in unit.models], f"{unit.id} (the Caster's own model)" if unit.joined else unit.id
    if has_conclave(unit):
        champions = [m.placed for m in unit.models if m.role == "champion"]
        return champions, f"{unit.id}'s champion, its Master Wizard"
    return [m.placed for u in state.combined(unit.id) for m in u.models], unit.id


@implements("published.line-of-sight", "published.t9a-magic")
def casting_sight(state: GameState, unit: Unit) -> list[Placed]:
    """Return where the Caster (``casting_models``) sees from: a model behind its unit's first rank sees as if
    it stood in the first rank of its file (``sight_from``); the Caster's range is still measured from itself."""
    if is_character(unit):
        f = state.unit(unit.joined).formation if unit.joined else unit.formation
        return [sight_from(f, m) for m in unit.models]
    if has_conclave(unit):
        return [sight_from(unit.formation, m) for m in unit.models if m.role == "champion"]
    return sight_all(state, unit)


class MagicPhase(Ruleset):
    """Rule on and resolve casting in The 9th Age (mixed into the t9a ruleset before ``NinthAge``)."""

    def rule_name(self, name: str) -> str:
        """Read a Wizard level written with its Path (``Wizard Adept (Divination)``) as the level the phase plays."""
        return level_named(name) or super().rule_name(name)

    def validate_state(self, state: GameState, source: str) -> None:
        """Refuse spells chosen against the rules: unknown, too many, or off a Wizard Conclave's list."""
        super().validate_state(state, source)
        for side in state.sides:
            for i, u in enumerate(x for x in state.units if x.side == side):
                problem = spell_choice_problem(u)
                if problem:
                    raise ScenarioError(source, f"sides.{side}[{i}].spells", problem)

    @implements(CONCLAVE, "published.t9a-magic", SPELL_TYPES)
    def rule_cast(self, state: GameState, action: Cast) -> Ruling:
        """Rule on a casting attempt: a caster that knows the spell, dice to cast, a target in range and sight."""
        unit = state.unit(action.unit)  # a destroyed combined unit's name is its last survivor's (named_now)
        if not unit.alive:
            return no_models_left(unit, MAGIC)
        spell = find_spell(action.spell)
        if spell is None or spell.name not in unit.spells:
            return Ruling.forbid(f"{unit.id} does not know {action.spell} (it knows: {', '.join(unit.spells) or 'none'})",
                                 MAGIC, *((CONCLAVE,) if has_conclave(unit) else ()))
        conclave = has_conclave(unit)
        if conclave and not any(m.role == "champion" for m in unit.models):
            return Ruling.forbid(f"{unit.id}'s champion, its Master Wizard, is dead: the unit casts no more", CONCLAVE)
        if unit.has(Status.FLEEING) or (unit.joined and state.unit(unit.joined).has(Status.FLEEING)):
            return Ruling.forbid(f"{unit.id} is fleeing and cannot cast", MAGIC)
        if f"{unit.id}/{spell.name}" in state.magic.cast:
            return Ruling.forbid(f"{unit.id} has already cast {spell.name} this Magic phase", MAGIC)
        mine, theirs = state.magic.left(unit.side), state.magic.left(state.opponent(unit.side))
        if action.dice > mine:
            return Ruling.forbid(f"{unit.side} has {mine} Magic Dice left, not {action.dice}", MAGIC)
        if action.dispel > theirs:
            return Ruling.forbid(f"{state.opponent(unit.side)} has {theirs} Magic Dice left to dispel with, "
                                 f"not {action.dispel}", MAGIC)
        if spell.missile and any(u.has(Status.ENGAGED) for u in state.combined(unit.id)):
            engaged = unit.joined or unit.id
            return Ruling.forbid(f"{spell.name} is a Missile spell: {unit.id} cannot cast it while "
                                 f"{'its unit ' + engaged if unit.joined else engaged} is engaged in combat",
                                 SPELL_TYPES, *(("t9a.join.part-of-unit",) if unit.joined else ()))
        target = state.unit(action.target)
        if target.side == unit.side or not models_in(state, target.id):
            return Ruling.forbid(f"{target.id} is not a living enemy unit", MAGIC, SPELL_TYPES)
        if target.joined:
            return Ruling.forbid(f"{target.id} is part of {target.joined}: the unit is the target", "t9a.join.part-of-unit")
        if spell.damage and any(u.has(Status.ENGAGED) for u in members(state, target.id)):
            return Ruling.forbid(f"{spell.name} is a Damage spell: it cannot target {target.id}, which is engaged in "
                                 "combat", SPELL_TYPES)
        caster, who = casting_models(state, unit)
        aim = [m.placed for u in members(state, target.id) for m in u.models]
        gap = group_distance(caster, aim)
        apart = ("t9a.join.part-of-unit",) if unit.joined or state.joined_to(unit.id) else ()
        if gap > spell.range:
            return Ruling.forbid(f"{target.id} is {gap:.2f}\" from {who}, beyond {spell.name}'s range of "
                                 f"{spell.range:g}\"", MAGIC, *apart, *((CONCLAVE,) if conclave else ()))
        if spell.missile:  # only a Missile asks for the Caster's Line of Sight, drawn within his unit's Front Arc
            seer = host_of(state, unit)
            if not in_front_arc(seer, target):
                return Ruling.forbid(f"{spell.name} is a Missile spell: {target.id} is not in {seer.id}'s Front Arc, "
                                     f"and {who} sees only what lies at least partly in it", SPELL_TYPES,
                                     "published.line-of-sight", MAGIC, *apart)
            if not unit_line_of_sight(casting_sight(state, unit), aim, state.terrain):
                return Ruling.forbid(f"{spell.name} is a Missile spell: {who} cannot see {target.id}", SPELL_TYPES,
                                     "published.line-of-sight", MAGIC, *apart)
        rules: tuple[str, ...] = (MAGIC, CONCLAVE) if conclave else (MAGIC,)
        if spell.missile:
            rules += (SPELL_TYPES, "published.line-of-sight")
        level = wizard_level(unit)
        mod = level[1] if level else 0
        return Ruling.allow(f"{unit.id} casts {spell.name} (casting value {spell.casting_value}+) at {target.id} with "
                            f"{action.dice} Magic Dice {'+' if mod >= 0 else ''}{mod}", *rules)

    @implements(CONCLAVE, "published.t9a-magic")
    def resolve_cast(self, state: GameState, action: Cast, dice: Dice) -> Resolution:
        """Cast: roll the casting dice, let the reactive player dispel, then the spell's hits and a Panic test."""
        start = len(dice.log)
        unit = state.unit(action.unit)
        spell = find_spell(action.spell)
        assert spell is not None  # rule_cast checked it
        level = wizard_level(unit)
        mod = level[1] if level else 0
        faces = [dice.d6(f"{unit.id}: casting die {i + 1}", MAGIC) for i in range(action.dice)]
        roll = sum(faces) + mod
        overwhelming = faces.count(6) >= 2
        rules = [MAGIC, *((CONCLAVE,) if has_conclave(unit) else ())]
        enemy = state.opponent(unit.side)
        magic = state.magic.spend(unit.side, action.dice)
        magic = MagicDice(magic.per_phase, magic.used, (*magic.cast, f"{unit.id}/{spell.name}"))
        said = f"{unit.id} casts {spell.name}: {'+'.join(map(str, faces))}{mod:+d} = {roll}"
        outcome = "cast"
        if not overwhelming and roll < spell.casting_value:
            outcome = "failed"
            said += f", short of {spell.casting_value}: the spell fails"
        elif overwhelming:
            said += " with Overwhelming Power (two natural 6s): it cannot be dispelled"
        elif action.dispel:
            magic = magic.spend(enemy, action.dispel)
            dispel = dice.total(action.dispel, f"{enemy}: dispel ({action.dispel} dice)", MAGIC)
            if dispel >= roll:
                outcome = "dispelled"
                said += f"; {enemy} dispels it with {dispel}"
            else:
                said += f"; {enemy}'s dispel of {dispel} falls short"
        state = replace(state, magic=magic)
        events: list[Event] = []
        if outcome == "cast":
            state, hit_said, panic, hits_rolled = self._spell_hits(state, unit, spell, action.target, dice)
            said += f": {hit_said}"
            rules.append(TO_WOUND)
            if DISTRIBUTING_HITS in hit_said:
                rules.append(DISTRIBUTING_HITS)
            if COMMAND_GROUP in hit_said:
                rules.append(COMMAND_GROUP)
            events.append(Event("cast", said, tuple(rules), tuple(dice.log[start:hits_rolled]), (("outcome", outcome),)))
            events.extend(panic)  # the Panic test's dice are its own event's
        else:
            events.append(Event("cast", said, tuple(rules), tuple(dice.log[start:]), (("outcome", outcome),)))
        if overwhelming:
            start = len(dice.log)
            host = unit.joined or unit.id
            before = models_in(state, host)
            state, hit_said = self._miscast(state, unit, dice)
            events.append(Event("miscast", f"{unit.id} miscasts: {hit_said}", (MISCAST, TO_WOUND) + (
                (DISTRIBUTING_HITS,) if DISTRIBUTING_HITS in hit_said else ()) + (
                (COMMAND_GROUP,) if COMMAND_GROUP in hit_said else ()),
                                tuple(dice.log[start:])))
            if 0 < models_in(state, host) < before:
                # the Miscast's losses are heavy casualties like a spell's (with the phase's earlier losses: a quarter
                # of what the unit had when the phase began): the caster's unit tests, fleeing from the closest enemy
                # (no enemy unit caused them: published.t9a-panic)
                away = closest_enemy_centre(state, host, next(m.at for u in members(state, host) for m in u.models))
                state, scare = panic_after_losses(state, host, before, dice, away, (MISCAST,))
                events.extend([scare] if scare is not None else [])
        return state, events

    def _spell_hits(self, state: GameState, unit: Unit, spell: Spell, target_id: str,
                    dice: Dice) -> tuple[GameState, str, list[Event], int]:
        """Roll the spell's hits and wounds, then the target's Panic test; also say where in the dice log the hits end."""
        before = models_in(state, target_id)
        hits = spell.roll_hits(dice, MAGIC)
        pre = state
        state, harms = wound_shares(state, target_id, hits, spell.strength, dice, spell.name)
        said = spell_harm_said(hits, spell.strength, harms) + (
            f" [{DISTRIBUTING_HITS}]" if hit_a_character(pre, harms) else "")
        hits_rolled = len(dice.log)
        at = next(m.at for u in state.combined(unit.id) for m in u.models)
        state, panic = panic_after_losses(state, target_id, before, dice, at)
        return state, said, [panic] if panic is not None else [], hits_rolled

    @implements("published.t9a-miscast")
    def _miscast(self, state: GameState, unit: Unit, dice: Dice) -> tuple[GameState, str]:
        hits = dice.d6(f"{unit.id}: Miscast hits (D6)", MISCAST)
        pre = state
        state, harms = wound_shares(state, unit.joined or unit.id, hits, MISCAST_STRENGTH, dice, "Miscast")
        return state, spell_harm_said(hits, MISCAST_STRENGTH, harms) + (
            f" [{DISTRIBUTING_HITS}]" if hit_a_character(pre, harms) else "")

    def end_magic_phase(self, state: GameState) -> GameState:
        """Discard the Magic Dice used and the spells cast when a Magic phase ends."""
        if state.phase is not Phase.MAGIC:
            return state
        return replace(state, magic=MagicDice(state.magic.per_phase))
