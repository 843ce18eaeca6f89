"""The 9th Age Magic phase: Wizards (and Wizard Conclave units) cast spells with Magic Dice.

Read against the 2022 text of The 9th Age rulebook (newrecruit wiki, ``PAGES``); each reading
is in ``herohammer rules`` under published.t9a-magic and published.t9a-miscast:

* Magic Dice: each side's dice for a Magic phase come from the Flux card drawn; the engine
  holds no deck, so a scenario states them (``magic_dice: {side: n}``), and the dice used
  this phase are kept until the phase ends.
* Spell Casting Sequence (rules/spell-casting-sequence): A Casting Attempt, B Dispelling
  Attempt, C Broken Concentration, D the spell's effect, F the Miscast's effect.  One
  Casting Attempt per spell per Magic phase, even a spell known by different Wizards.
* Casting Attempt: 1 to 5 of the side's Magic Dice; their total plus the Casting Modifier
  (Wizard Master +1, rules/wizards) at least the Casting Value passes; a natural 1 or 2 on a
  single Magic Dice always fails.
* Dispelling Attempt: the reactive player's 1 to 5 dice (``dispel``), named with the cast; a
  total at least the total casting roll dispels the spell; a natural 1 or 2 on a single die fails.
* Fizzle: a failed Casting or Dispelling Attempt of 2 or more dice gives its natural 1s back
  to the pool (not a passed Casting Attempt then dispelled).
* Miscast (rules/miscasts): three or more dice of one value, -1 with 3 dice, +1 with 5; a
  passed, undispelled attempt suffers the table's effect (``MISCAST_TABLE``).
* Spell Types (published.t9a-spell-types, ``spells.PLAYED_TYPES``): Hex targets enemy units;
  a Missile targets only what the Caster sees (his Line of Sight, drawn within his unit's Front
  Arc) and is not cast while the Caster (its unit) is Engaged in Combat; a Damage spell does
  not target a unit Engaged in Combat. Other spells need neither sight nor the Front Arc, only range.
* Wizard Conclave (seed 002): the unit's champion is its Master Wizard, has +1 Wound and
  casts the two spells chosen from the rule's list before the game; the unit casts only
  while its champion lives.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..dice import Dice, FaceStream, Request, rolls_made, rolls_since
from ..formations import is_character, sight_from
from ..errors import IllegalActionError, ScenarioError
from ..geometry import Placed, group_distance, unit_line_of_sight
from ..rulings import Event, Ruling
from ..spells import SPELL_TYPES, Spell, bundled_spells, find_spell
from ..state import GameState, MagicDice, Phase
from ..units import Model, Status, Unit
from .base import Resolution, Ruleset
from .t9a_casualties import COMMAND_GROUP, DISTRIBUTING_HITS, no_models_left, remove_casualties, take_wounds
from .t9a_discipline import choose_conclave_spells
from .t9a_units import has_conclave, host_of, lone_rules, model_wounds, sight_all
from .t9a_moves import in_front_arc
from .t9a_nudge import LOSING_CONTACT, nudge_back
from .t9a_panic import closest_enemy_centre
from .t9a_combat import TO_WOUND, hit_a_character, spell_harm_said, members, models_in, panic_after_losses, wound_shares

if TYPE_CHECKING:
    from ..actions import Cast

MAGIC = "published.t9a-magic"
MISCAST = "published.t9a-miscast"
CONCLAVE = "t9a.spell.wizard-conclave"
#: The 2022 text's pages the phase is read against (rules/spell-casting-sequence, rules/wizards, rules/miscasts).
PAGES = "https://www.newrecruit.eu/wiki/t9a/the-ninth-age-(2022)/rules/"
#: Wizard levels: (Casting Modifier, spells known by the normal selection).  The 2022 text (rules/wizards): Wizard
#: Apprentices; Wizard Adepts (Channel (1)); Wizard Masters (Channel (1) and a +1 Casting Modifier).
WIZARD_LEVELS = {"Wizard Apprentice": (0, 1), "Wizard Adept": (0, 2), "Wizard Master": (1, 4)}
#: The Magic Dice one Casting or Dispelling Attempt uses: between 1 and 5.
MAX_DICE = 5
#: A natural roll of this or less on a single Magic Dice is always a failed attempt, whatever the modifiers.
SINGLE_DIE_FAILS = 2
#: Miscast Modifier by the Magic Dice used for the casting roll (rules/miscasts): 3 dice -1, 5 dice +1.
MISCAST_MODIFIER = {3: -1, 5: 1}
#: The Miscast table (rules/miscasts), by the three of a kind's value after its modifier (0 or lower: no effect,
#: 7 or higher: Breach in the Veil).
MISCAST_TABLE = {1: "Broken Concentration", 2: "Witchfire", 3: "Magical Inferno", 4: "Amnesia", 5: "Backlash",
                 6: "Implosion", 7: "Breach in the Veil"}
#: Witchfire and Magical Inferno: Armour Penetration 2 (their Strength is the Magic Dice used).
MISCAST_AP = 2
#: Backlash and Implosion: hits on the Caster that wound on 4+ with Armour Penetration 10 (no armour save).
MISCAST_CASTER_HITS = {5: 2, 6: 4}
MISCAST_WOUND_ON = 4


def faces_of(value: int) -> tuple[int, ...]:
    """Read a Magic Dice roll's value back into its faces (``MagicRoll``: 364 -> 3, 6, 4)."""
    return tuple(int(c) for c in str(value))


def _value_of(faces: Sequence[int]) -> int:
    return int("".join(map(str, faces)))


def attempt_passes(faces: Sequence[int], total: int, needed: int) -> bool:
    """Say whether a Casting or Dispelling Attempt passes: its total reaches ``needed``, and a single Magic Dice
    did not roll a natural 1 or 2 (always a failed attempt, published.t9a-magic, 2022 text)."""
    return not (len(faces) == 1 and faces[0] <= SINGLE_DIE_FAILS) and total >= needed


def fizzled(faces: Sequence[int]) -> int:
    """Return the Magic Dice a failed attempt gives back to its pool: its natural 1s, when 2 or more dice were used
    (Fizzle, published.t9a-magic, 2022 text)."""
    return faces.count(1) if len(faces) >= 2 else 0


def miscast_value(faces: Sequence[int]) -> int | None:
    """Return a casting roll's Miscast (three or more dice of one value) as that value with its Miscast Modifier
    (-1 with 3 dice, +1 with 5: published.t9a-miscast, 2022 text), or None when there is none."""
    same = [v for v, k in Counter(faces).items() if k >= 3]
    return same[0] + MISCAST_MODIFIER.get(len(faces), 0) if same else None


def _cast_reads(faces: tuple[int, ...], needed: int, mod: int, dispel: int) -> tuple[object, ...]:
    """What the cast's rules code tells apart in a casting roll: a failed attempt's Fizzle (and whether it Miscast),
    a passed one's Miscast, and its total only as far as ``dispel`` dice can reach it (a total above 6 a die is
    never dispelled; with no dispel, no total is)."""
    total = sum(faces) + mod
    miscast = miscast_value(faces)
    if not attempt_passes(faces, total, needed):
        return "failed", fizzled(faces), miscast is not None
    if miscast == 1:
        return "broken", fizzled(faces)
    return "passed", min(total, 6 * dispel + 1) if dispel else 0, miscast


def _dispel_reads(faces: tuple[int, ...], needed: int) -> tuple[object, ...]:
    """What a Dispelling Attempt's rules code tells apart: dispelled, or failed with its Fizzle."""
    passed = attempt_passes(faces, sum(faces), needed)
    return passed, 0 if passed else fizzled(faces)


@lru_cache(maxsize=512)
def _magic_outcomes(n: int, reads: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    """Every distinct roll of ``n`` Magic Dice (faces lowest first) with its exact probability, merged into the
    classes ``reads`` says the rules code can tell apart, each shown by its most likely roll."""
    den = 6 ** n
    rolls = [(c, Fraction(math.factorial(n), math.prod(math.factorial(k) for k in Counter(c).values()) * den))
             for c in itertools.combinations_with_replacement(range(1, 7), n)]
    if not reads:
        return tuple((_value_of(c), p) for c, p in rolls)
    classes: dict[tuple[object, ...], list[tuple[tuple[int, ...], Fraction]]] = {}
    for c, p in rolls:
        key = _cast_reads(c, reads[1], reads[2], reads[3]) if reads[0] else _dispel_reads(c, reads[1])
        classes.setdefault(key, []).append((c, p))
    merged = [(_value_of(max(members, key=lambda cp: (cp[1], [-f for f in cp[0]]))[0]), sum((p for _, p in members), Fraction(0)))
              for members in classes.values()]
    return tuple(sorted(merged))


@lru_cache(maxsize=8)
def _ordered_outcomes(n: int) -> tuple[tuple[int, Fraction], ...]:
    """Every ordered roll of ``n`` Magic Dice, each die on its own (the brute-force oracle's chance node)."""
    return tuple((_value_of(c), Fraction(1, 6 ** n)) for c in itertools.product(range(1, 7), repeat=n))


@dataclass(frozen=True)
class MagicRoll(Request):
    """``n`` Magic Dice rolled for a Casting or Dispelling Attempt: the value is their faces as digits (3, 6, 4 ->
    364), so the rules code reads each die (a single die's natural 1 or 2, a Fizzle's 1s, a Miscast's three of a
    kind), while an exact enumeration branches once per class of rolls it can tell apart (``reads``: (1, casting
    value, modifier, dispelling dice) for a casting roll, (0, casting roll) for a dispel)."""

    n: int = 1
    reads: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or not 1 <= self.n <= MAX_DICE:
            raise IllegalActionError(f"{self.purpose}: 1 to {MAX_DICE} Magic Dice, not {self.n!r}", (MAGIC,))

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return _magic_outcomes(self.n, self.reads)

    def fine_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return _ordered_outcomes(self.n)

    def sample(self, faces: FaceStream) -> tuple[int, tuple[int, ...]]:
        rolled = tuple(faces.take(self.n))
        return _value_of(rolled), rolled

    def from_faces(self, faces: Sequence[int]) -> tuple[int, int]:
        if len(faces) < self.n:
            raise IndexError(self.n)
        return _value_of(faces[: self.n]), self.n

    def describe(self) -> str:
        return f"{self.n}D6 read die by die"


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


@implements("t9a.join.part-of-unit")
def casting_apart(state: GameState, unit: Unit) -> tuple[str, ...]:
    """Cite t9a.join.part-of-unit for a Caster in a unit with characters (a character joined to it, or the unit he
    leads): his range is his own model's, his sight drawn within the unit's Front Arc. Each refusal cited it; the
    cast allowed and its event now do too (round 62)."""
    return ("t9a.join.part-of-unit",) if unit.joined or state.joined_to(unit.id) else ()


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


def _miscast_said(rolled: Sequence[int], value: int) -> str:
    """Say a Miscast: "three 4s with 5 Magic Dice (+1): 555"."""
    face, count = Counter(rolled).most_common(1)[0]
    words = {3: "three", 4: "four", 5: "five"}
    shift = MISCAST_MODIFIER.get(len(rolled), 0)
    note = f" with {len(rolled)} Magic Dice ({shift:+d})" if shift else ""
    return f"{words[count]} {face}s{note}: {str(max(value, 0)) * 3}"


def casting_modifier(unit: Unit) -> int:
    """Return a caster's Casting Modifier: +1 for a Wizard Master (a Wizard Conclave casts as one), else 0."""
    level = wizard_level(unit)
    return level[1] if level else 0


def spell_attempted_by(state: GameState, side: str, spell: str) -> str | None:
    """Name the unit of ``side`` that made this Magic phase's Casting Attempt of ``spell``, or None: one Casting Attempt
    may be made for each spell, even one known by different Wizards (published.t9a-magic, 2022 text)."""
    for done in state.magic.cast:
        caster, _, name = done.rpartition("/")
        if name == spell and state.has_unit(caster) and state.unit(caster).side == side:
            return caster
    return None


@implements(CONCLAVE, "t9a.combined.last-survivor")
def _conclave_gone(state: GameState, unit: Unit, spell: str) -> Ruling | None:
    """Refuse a spell of a Wizard Conclave whose champion fell with the last of its rank and file, asked of the
    character left as the unit (its name now names him, t9a.combined.last-survivor): the unit casts only while its
    champion lives (t9a.spell.wizard-conclave), whatever the survivor knows himself (judge round 37: it was told only
    that he did not know the spell). None when that is not why the spell is not his."""
    if not unit.last_of or not state.has_unit(unit.last_of):
        return None
    gone = state.unit(unit.last_of)
    if not has_conclave(gone) or spell not in gone.spells:
        return None
    own = f"{unit.id}, all that is left of it, knows {', '.join(unit.spells) or 'no spell'}"
    return Ruling.forbid(f"{gone.id}'s champion, its Master Wizard, is slain with the last of its rank and file: the "
                         f"unit casts {spell} no more ({own})", CONCLAVE, "t9a.combined.last-survivor", MAGIC)


@implements(CONCLAVE, "t9a.join.part-of-unit")
def _conclaves_not_his(state: GameState, unit: Unit, spell: str) -> Ruling | None:
    """Refuse a Wizard Conclave's spell asked of a character joined to it: its champion chose it "instead of selecting
    spells the normal way" (t9a.spell.wizard-conclave), the unit casts it, and the character, part of the unit
    (t9a.join.part-of-unit), casts only the spells he selected (judge round 67: he was told only that he did not know
    it, citing published.t9a-magic).  None when that is not why the spell is not his."""
    if not unit.joined or not state.has_unit(unit.joined):
        return None
    host = state.unit(unit.joined)
    if not has_conclave(host) or spell not in host.spells:
        return None
    own = ", ".join(unit.spells) or "no spell"
    return Ruling.forbid(f"{unit.id} does not know {spell}: it is {host.id}'s, chosen by its champion, its Master "
                         f"Wizard, and {host.id} casts it; {unit.id}, part of the unit, casts only the spells he "
                         f"selected ({own})", CONCLAVE, MAGIC, "t9a.join.part-of-unit")


@implements("t9a.join.part-of-unit", "t9a.char.lone", "t9a.combined.last-survivor")
def target_rules(state: GameState, target: Unit) -> tuple[str, ...]:
    """Return the character rules a spell's target is hit under, as a shot's target is (judge round 37: a spell cited
    neither): a unit holding a character shares the hits with him (t9a.join.part-of-unit), a lone character is a unit
    of one (t9a.char.lone), a last survivor is still his unit (t9a.combined.last-survivor)."""
    if target.last_of:
        return ("t9a.combined.last-survivor",)
    if state.joined_to(target.id) or len(members(state, target.id)) > 1:
        return ("t9a.join.part-of-unit",)
    return ("t9a.char.lone",) if is_character(target) else ()


@implements("t9a.combined.last-survivor")
def survivor_said(unit: Unit) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the clause and the note a cast by a combined unit's last survivor is ruled under: he casts as that unit,
    asked by either name (judge round 53: his cast said neither, where his shooting says both), else nothing."""
    if not unit.last_of:
        return (), ()
    return ("t9a.combined.last-survivor",), (f"{unit.id} is all that is left of {unit.last_of} and casts as it "
                                             "[t9a.combined.last-survivor]",)


def caster_model(unit: Unit) -> Model | None:
    """Return the Caster's own model, the one a Miscast's Backlash, Implosion and Breach in the Veil strike: a
    character's model, a Wizard Conclave's champion (its Master Wizard), else the unit's first model."""
    if has_conclave(unit):
        return next((m for m in unit.models if m.role == "champion"), None)
    return unit.models[0] if unit.models else None


@implements(LOSING_CONTACT)
def nudged_after(pre: GameState, state: GameState) -> tuple[GameState, str]:
    """Nudge back into base contact the Engaged units a spell's or a Miscast's casualties parted, as a fight's are
    (2022 text, Losing Base Contact: "Removing casualties may cause units to lose base contact with their foe ...
    after removing all casualties caused by simultaneous attacks", casualties of any source; judge round 66: only
    melee casualties were followed by a nudge, and a Hero whose last spearman a Lightning Bolt slew stood out of his
    foe's contact, both Engaged, neither able to fight).  Also say it ("" if nothing was nudged)."""
    if models_lost(pre, state) == 0:
        return state, ""
    state, said = nudge_back(pre, state)
    return state, "; ".join(said)


def models_lost(pre: GameState, state: GameState) -> int:
    """How many models left the table between two states (casualties)."""
    return sum(len(u.models) for u in pre.units) - sum(len(u.models) for u in state.units)


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
        if spell is not None and spell.name not in unit.spells and (gone := _conclave_gone(state, unit, spell.name)):
            return gone
        if spell is not None and spell.name not in unit.spells and (hosts := _conclaves_not_his(state, unit,
                                                                                                 spell.name)):
            return hosts
        if spell is None or spell.name not in unit.spells:
            return Ruling.forbid(f"{unit.id} does not know {action.spell} (it knows: {', '.join(unit.spells) or 'none'})",
                                 MAGIC, *((CONCLAVE,) if has_conclave(unit) else ()))
        conclave = has_conclave(unit)
        if conclave and not any(m.role == "champion" for m in unit.models):
            return Ruling.forbid(f"{unit.id}'s champion, its Master Wizard, is dead: the unit casts no more", CONCLAVE)
        if unit.has(Status.FLEEING) or (unit.joined and state.unit(unit.joined).has(Status.FLEEING)):
            return Ruling.forbid(f"{unit.id} is fleeing and cannot cast", MAGIC)
        if f"{unit.id}/{spell.name}" in state.magic.forgotten:
            return Ruling.forbid(f"{unit.id} forgot {spell.name} to a Miscast's Amnesia: it cannot cast it any more "
                                 "this game", MISCAST)
        attempted = spell_attempted_by(state, unit.side, spell.name)
        if attempted == unit.id:
            return Ruling.forbid(f"{unit.id} has already cast {spell.name} this Magic phase (one Casting Attempt "
                                 "per spell)", MAGIC)
        if attempted is not None:
            return Ruling.forbid(f"{attempted} has already cast {spell.name} this Magic phase: one Casting Attempt "
                                 "per spell, even one known by different Wizards", MAGIC)
        if not 1 <= action.dice <= MAX_DICE:
            return Ruling.forbid(f"a Casting Attempt uses 1 to {MAX_DICE} Magic Dice, not {action.dice}", MAGIC)
        if action.dispel > MAX_DICE:
            return Ruling.forbid(f"a Dispelling Attempt uses 1 to {MAX_DICE} Magic Dice, not {action.dispel}", MAGIC)
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
        apart = casting_apart(state, unit)
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
        survivor, notes = survivor_said(unit)
        rules += survivor + target_rules(state, target)
        rules += tuple(r for r in lone_rules(state, unit) if r not in rules)  # a lone Caster, a unit of one (round 61)
        rules += tuple(r for r in apart if r not in rules)  # a Caster in a unit, as each refusal says (round 62)
        mod = casting_modifier(unit)
        return Ruling.allow(f"{unit.id} casts {spell.name} (casting value {spell.casting_value}+) at {target.id} with "
                            f"{action.dice} Magic Dice {mod:+d}" + (
                                f" (a Wizard Master's Casting Modifier)" if mod else ""), *rules, notes=notes)

    @implements(CONCLAVE, MAGIC, MISCAST)
    def resolve_cast(self, state: GameState, action: Cast, dice: Dice) -> Resolution:
        """Cast by the 2022 Spell Casting Sequence: the Casting Attempt, the Dispelling Attempt, Broken Concentration,
        the spell's hits (and a Panic test), then the Miscast's effect; a failed attempt of 2 or more dice Fizzles."""
        start = rolls_made(dice)
        unit = state.unit(action.unit)
        spell = find_spell(action.spell)
        assert spell is not None  # rule_cast checked it
        mod = casting_modifier(unit)
        reads = (1, spell.casting_value, mod, action.dispel)
        rolled = faces_of(dice.roll(MagicRoll(f"{unit.id}: casting dice", MAGIC, action.dice, reads)))
        roll = sum(rolled) + mod
        miscast = miscast_value(rolled)
        rules = [MAGIC, *((CONCLAVE,) if has_conclave(unit) else ()), *survivor_said(unit)[0], *lone_rules(state, unit)]
        rules.extend(r for r in casting_apart(state, unit) if r not in rules)  # a Caster in a unit (round 62)
        enemy = state.opponent(unit.side)
        magic = state.magic.spend(unit.side, action.dice)
        magic = replace(magic, cast=(*magic.cast, f"{unit.id}/{spell.name}"))
        said = f"{unit.id} casts {spell.name}: {'+'.join(map(str, rolled))}{mod:+d} = {roll}"
        if miscast is not None:
            rules.append(MISCAST)
        outcome = "cast"
        fizzle = 0
        if not attempt_passes(rolled, roll, spell.casting_value):
            outcome = "failed"
            fizzle = fizzled(rolled)
            said += (f", a natural {rolled[0]} on a single Magic Dice: the Casting Attempt fails whatever the modifiers"
                     if len(rolled) == 1 else f", short of {spell.casting_value}: the Casting Attempt fails")
            if miscast is not None:
                said += f" (its Miscast, {_miscast_said(rolled, miscast)}, has no effect)"
        elif miscast == 1:
            outcome = "broken_concentration"
            fizzle = fizzled(rolled)
            said += (f", but {_miscast_said(rolled, miscast)}: Broken Concentration, the Casting Attempt fails "
                     "(no Dispelling Attempt is made against it)")
        elif action.dispel:
            magic = magic.spend(enemy, action.dispel)
            shown = faces_of(dice.roll(MagicRoll(f"{enemy}: dispelling dice", MAGIC, action.dispel, (0, roll))))
            dispel = sum(shown)
            if attempt_passes(shown, dispel, roll):
                outcome = "dispelled"
                said += f"; {enemy} dispels it with {'+'.join(map(str, shown))} = {dispel}"
                if miscast is not None:
                    said += f" (its Miscast, {_miscast_said(rolled, miscast)}, has no effect)"
            else:
                back = fizzled(shown)
                said += (f"; {enemy}'s Dispelling Attempt of " + (
                    f"a natural {shown[0]} on a single Magic Dice fails whatever the total" if len(shown) == 1
                    else f"{'+'.join(map(str, shown))} = {dispel} falls short"))
                if back:
                    magic = magic.refund(enemy, back)
                    said += f" (Fizzle: {back} natural 1{'s' * (back != 1)} back to {enemy}'s Magic Dice)"
        if fizzle:
            magic = magic.refund(unit.side, fizzle)
            said += f" (Fizzle: {fizzle} natural 1{'s' * (fizzle != 1)} back to {unit.side}'s Magic Dice)"
        state = replace(state, magic=magic)
        events: list[Event] = []
        if outcome == "cast":
            if miscast is not None and miscast <= 0:
                said += f" ({_miscast_said(rolled, miscast)}: no effect)"
            rules.extend(r for r in target_rules(state, state.unit(action.target)) if r not in rules)
            state, hit_said, panic, hits_rolled = self._spell_hits(state, unit, spell, action.target, dice)
            said += f": {hit_said}"
            rules.append(TO_WOUND)
            if DISTRIBUTING_HITS in hit_said:
                rules.append(DISTRIBUTING_HITS)
            if COMMAND_GROUP in hit_said:
                rules.append(COMMAND_GROUP)
            if LOSING_CONTACT in hit_said:
                rules.append(LOSING_CONTACT)
            events.append(Event("cast", said, tuple(rules), rolls_since(dice, start, hits_rolled), (("outcome", outcome),)))
            events.extend(panic)  # the Panic test's dice are its own event's
        else:
            events.append(Event("cast", said, tuple(rules), rolls_since(dice, start), (("outcome", outcome),)))
        if outcome == "cast" and miscast is not None and miscast >= 2:
            state, more = self._miscast(state, unit, spell, rolled, miscast, dice)
            events.extend(more)
        return state, events

    @implements(MISCAST)
    def _miscast(self, state: GameState, unit: Unit, spell: Spell, rolled: tuple[int, ...], value: int,
                 dice: Dice) -> tuple[GameState, list[Event]]:
        """Apply a Miscast's effect (2022 table, from 222 up) after the spell's: hits on the Caster's unit (Witchfire,
        Magical Inferno), the spell forgotten (Amnesia), hits on the Caster (Backlash, Implosion), or the Caster's
        model removed (Breach in the Veil); losses to hits call for the unit's Panic test."""
        start = rolls_made(dice)
        name = MISCAST_TABLE[min(value, 7)]
        head = f"{unit.id} Miscasts ({_miscast_said(rolled, value)}): {name}"
        host = unit.joined or unit.id
        before = models_in(state, host)
        rules: tuple[str, ...] = (MISCAST,)
        if name == "Amnesia":
            forgotten = (*state.magic.forgotten, f"{unit.id}/{spell.name}")
            state = replace(state, magic=replace(state.magic, forgotten=forgotten))
            return state, [Event("miscast", f"{head}: {unit.id} cannot cast {spell.name} any more this game",
                                 rules, (), (("outcome", name),))]
        if name in ("Witchfire", "Magical Inferno"):
            n = 1 if name == "Witchfire" else 2
            hits = dice.total(n, f"{unit.id}: {name} hits ({n}D6)", MISCAST)
            strength = len(rolled)  # the Magic Dice used for the casting roll
            pre = state
            state, harms = wound_shares(state, host, hits, strength, dice, name, ap=MISCAST_AP)
            hit_said = spell_harm_said(hits, strength, harms) + (
                f" [{DISTRIBUTING_HITS}]" if hit_a_character(pre, harms) else "")
            said = f"{head}, Armour Penetration {MISCAST_AP}: {hit_said}"
            rules += (TO_WOUND,) + ((DISTRIBUTING_HITS,) if DISTRIBUTING_HITS in hit_said else ()) + (
                (COMMAND_GROUP,) if COMMAND_GROUP in hit_said else ())
            state, nudged = nudged_after(pre, state)
            if nudged:
                said += f"; {nudged}"
                rules += (LOSING_CONTACT,)
        else:
            model = caster_model(unit)
            assert model is not None  # a caster without its model does not cast (rule_cast)
            have = model_wounds(state.unit(host) if unit.joined else unit, model) - model.wounds_taken
            if name == "Breach in the Veil":
                wounds = have
                said = f"{head}: {model.name} is removed as a casualty (no saves of any kind)"
            else:
                hits = MISCAST_CASTER_HITS[min(value, 6)]
                wounds = dice.pool(hits, MISCAST_WOUND_ON, f"{unit.id}: {name} to wound ({MISCAST_WOUND_ON}+)",
                                   MISCAST)
                said = (f"{head}: {hits} hits on {model.name} wounding on {MISCAST_WOUND_ON}+, Armour Penetration 10 "
                        f"(no armour save): {wounds} wound{'s' * (wounds != 1)}")
            pre = state
            state, dead = take_wounds(state, [(state.unit(unit.id), model)], wounds)
            if dead:
                state = remove_casualties(state, host, dead)
                said += f", {model.name} slain" if name != "Breach in the Veil" else ""
                state, nudged = nudged_after(pre, state)
                if nudged:
                    said += f"; {nudged}"
                    rules += (LOSING_CONTACT,)
        events = [Event("miscast", said, rules, rolls_since(dice, start), (("outcome", name),))]
        if models_in(state, host) and models_in(state, host) < before:
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
        state, harms = wound_shares(state, target_id, hits, spell.strength, dice, spell.name, ap=spell.ap)
        said = spell_harm_said(hits, spell.strength, harms) + (
            f" [{DISTRIBUTING_HITS}]" if hit_a_character(pre, harms) else "")
        state, nudged = nudged_after(pre, state)
        said += f"; {nudged}" if nudged else ""
        hits_rolled = rolls_made(dice)
        at = next(m.at for u in state.combined(unit.id) for m in u.models)
        state, panic = panic_after_losses(state, target_id, before, dice, at)
        return state, said, [panic] if panic is not None else [], hits_rolled

    def end_magic_phase(self, state: GameState) -> GameState:
        """Discard the Magic Dice used and the spells cast when a Magic phase ends (a spell forgotten to Amnesia
        stays forgotten: published.t9a-miscast)."""
        if state.phase is not Phase.MAGIC:
            return state
        return replace(state, magic=MagicDice(state.magic.per_phase, forgotten=state.magic.forgotten))
