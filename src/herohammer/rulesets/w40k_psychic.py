"""Warhammer 40,000 psychic powers: manifesting a power, its Psychic test and Perils of the Warp."""

from __future__ import annotations


from .. import geometry as geo
from ..actions import Manifest
from ..catalogue import implements
from ..charts import can_shoot
from ..dice import Dice, rolls_made, rolls_since
from ..profiles import DASH_WORDS, Characteristic
from ..powers import Power, PowerEffect, find_power, known_powers
from ..psychic import PsychicResult
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import Status, Unit
from ..values import evolve
from ..weapons import Weapon
from .base import Resolution
from .engagement import touching
from .w40k_wounds import apply_wounds, killed_outright, outright_event, release_orphans, slain_data, zero_rules
from .w40k_shooting import ShootingRules, shot_with


class PsychicPowerRules(ShootingRules):
    """Manifest a psychic power: its target, the Psychic test, Perils of the Warp, its effect."""

    # == psychic powers ================================================================
    @implements("40k3.psyker.test", "40k3.psyker.as-shooting", "published.40k4-psychic-test",
                "published.40k4-psychic-shooting")
    def rule_manifest(self, state: GameState, action: Manifest) -> Ruling:
        """Rule on using a power: a psyker, one power a turn, its phase, and a target as for shooting (each edition's
        clauses: ``psychic_test_rule``, ``psychic_shooting_rule``)."""
        psyker = state.unit(action.psyker)
        if problem := self._own_active(state, psyker):
            return problem
        if "psyker" not in self.effective_rules(state, psyker.id):
            return Ruling.forbid(f"{psyker.id} is not a psyker (no 'psyker' in its rules)", self.psychic_test_rule)
        if refused := self.second_psychic_test(psyker):
            return Ruling.forbid(refused, self.psychic_test_rule)
        power = find_power(action.power, state.powers)
        if power is None:
            return Ruling.forbid(f"unknown power {action.power!r} (known: {', '.join(known_powers(state.powers))})",
                                 self.psychic_test_rule)
        if power.phase != state.phase:
            return Ruling.forbid(f"{power.name} is used in the {power.phase.value} phase, not the "
                                 f"{state.phase.value} phase", self.psychic_test_rule)
        if action.target is None:
            return Ruling.forbid(f"{power.name} needs a target: field target", self.psychic_shooting_rule)
        return self._power_target(state, psyker, power, action.target)

    def _power_target(self, state: GameState, psyker: Unit, power: Power, target_id: str) -> Ruling:
        rule = self.psychic_shooting_rule
        target = state.unit(target_id)
        picked: tuple[str, ...] = ()  # the clause letting a character be picked out, cited when he is the target
        if power.effect is PowerEffect.SHOOTING:
            host = state.unit(psyker.joined) if psyker.joined else psyker
            for u in dict.fromkeys((psyker, host)):  # a run is instead of shooting: said as such, not as fired
                if u.has(Status.RAN):
                    return Ruling.forbid(f"{u.id} ran this Shooting phase instead of shooting: a psychic shooting "
                                         "attack is shooting", self.fleet_rule, rule)
            if host is not psyker and host.has(Status.SHOT):
                # decision (session 28): his unit's shooting is one, his power his part of it (published.shooting:
                # each unit shoots once), whether or not he had a weapon to fire with it
                return Ruling.forbid(f"{host.id} has already shot this phase, {psyker.id} with it: a unit shoots once, "
                                     f"and a psychic shooting attack is {psyker.id}'s part of his unit's shooting "
                                     "(used before the unit fires, not after)", rule, "published.shooting")
            if psyker.has(Status.SHOT):
                return Ruling.forbid(f"{psyker.id} has already fired this turn; a psychic shooting attack is its "
                                     "shooting", rule)
            if problem := self._locked_psyker(state, psyker, "he cannot shoot", rule):
                return problem
            for u in dict.fromkeys((psyker, host)):  # as a shot: not while pinned
                if problem := self._pinned(u, "shoot, nor make a psychic shooting attack"):
                    return Ruling.forbid(problem.reason, *problem.rules, rule)
            earlier = state.target_fired_at(host.id)
            if earlier is not None and earlier != self.aimed_at(state, target):
                return Ruling.forbid(f"{host.id} has fired at {earlier} this turn: {psyker.id}'s psychic shooting "
                                     "attack must take the same target", rule, self.same_target_rule)
            inner = self.target_ruling(state, psyker.id, target_id)
            if not inner.legal:
                return as_shooting(power, inner, rule)
            if problem := self._blind_psyker(psyker, power, rule):
                return problem
            if target.is_character:
                picked = inner.rules
        elif target.side == psyker.side:
            return Ruling.forbid(f"{target.id} is on the same side as {psyker.id}", rule)
        else:  # any other psychic attack on an enemy follows the shooting rules for what it may pick out as well
            if state.phase is Phase.SHOOTING and (problem := self._locked_psyker(
                    state, psyker, "in the Shooting phase a psychic attack follows the shooting rules, and a model "
                    "locked in close combat cannot shoot", rule)):
                # the shooting rules it follows: a model locked in close combat cannot shoot, so in the Shooting phase
                # he makes no psychic attack either (40k3.psyker.as-shooting's decision; 4th edition alike)
                return problem
            if state.phase is Phase.SHOOTING:
                # a unit that ran (Fleet) did so instead of shooting: in that Shooting phase it makes no attack by the
                # shooting rules, so no psychic attack either, a Morale power as much as a shooting one
                for u in dict.fromkeys((psyker, state.unit(psyker.joined) if psyker.joined else psyker)):
                    if u.has(Status.RAN):
                        return Ruling.forbid(f"{u.id} ran this Shooting phase instead of shooting: in the Shooting "
                                             f"phase a psychic attack follows the shooting rules, so {psyker.id} "
                                             f"makes none after running", self.fleet_rule, rule)
                # and a power of the Shooting phase is used instead of shooting (session 23): not once he has fired
                if psyker.has(Status.SHOT):
                    return Ruling.forbid(f"{psyker.id} has already fired this turn; a power of the Shooting phase is "
                                         "used instead of shooting", rule)
            # published Pinning (4th): a pinned unit "may not move, shoot, assault, or make any other actions"
            for u in dict.fromkeys((psyker, state.unit(psyker.joined) if psyker.joined else psyker)):
                if problem := self._pinned(u, "use a psychic power either: a pinned unit makes no other action"):
                    return Ruling.forbid(problem.reason, *problem.rules, self.psychic_test_rule)
            special = self.out_of_reach_of_fire(state, target) or self.character_target_ruling(state, psyker, target)
            if special is not None and not special.legal:
                return as_shooting(power, special, rule)
            if special is not None:
                picked = special.rules
        group = [p for u in state.combined(target.joined or target.id) for p in u.placed]
        if not geo.unit_line_of_sight(psyker.placed, group, state.terrain):
            return Ruling.forbid(f"{psyker.id} itself has no line of sight to {target.id}", rule)
        dist = geo.group_distance(psyker.placed, group)
        if dist > power.range + geo.EPSILON:
            return Ruling.forbid(f"{target.id} is {dist:.1f}\" from {psyker.id}, beyond {power.name}'s range of "
                                 f"{power.range:g}\"", rule)
        if power.effect is PowerEffect.SHOOTING and power.weapon is not None \
                and not self._power_shots(state, psyker, power.weapon, dist):
            kind = power.weapon.type.value.replace("_", " ")
            return Ruling.forbid(f"{psyker.id} moved this turn and {power.name} is a {kind} power: as a weapon of its "
                                 f"type it fires no shots after moving at {dist:.1f}\"", rule, "published.weapon-profiles")
        return Ruling.allow(f"{psyker.id} may take a psychic test to use {power.name} on {target.id} "
                            f"({dist:.1f}\", in sight)", self.psychic_test_rule, rule, *picked)

    @implements("published.close-combat", "40k3.psyker.perils", "published.40k4-perils-of-the-warp")
    def _foes_left_without_a_combat(self, state: GameState) -> Resolution:
        """Release the units that Perils of the Warp, slaying a locked psyker, leaves touching no enemy: a unit is
        locked while in base contact with the enemy, and no combat result is resolved here to release them (no
        consolidation follows: none was fought). Judge round 46: Boyz whose only foe the Warp slew stayed locked,
        unable to move, shoot or assault, for the rest of the game."""
        freed, words = [], []
        for u in state.units:
            if u.joined or not u.alive or not u.has(Status.LOCKED):
                continue
            group = state.combined(u.id)
            foes = [e for e in state.enemies_of(u.side) if e.alive and e.on_table]
            if not any(touching(x, e) for x in group for e in foes):
                freed += [x.with_status(remove=(Status.LOCKED,)) for x in group]
                words.append(u.id)
        if not freed:
            return state, []
        return state.replace_units(*freed), [Event(
            "unlocked", f"{', '.join(words)}: no enemy left in base contact once the Warp slew its foe, no longer locked "
            "in close combat (no combat was fought: no consolidation)", ("published.close-combat", self.perils_rule))]

    @staticmethod
    @implements("core.zero.bs", "40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
    def _blind_psyker(psyker: Unit, power: Power, rule: str) -> Ruling | None:
        """Refuse a psychic shooting attack of a psyker of Ballistic Skill 0: its hits are rolled on his BS, and a
        model of BS 0 makes no shooting attack (core.zero.bs). His own BS decides, not his unit's: judge round 46 (a
        lone one was refused by the all-BS-0 check of ``target_ruling``, which counted a joined one's squad and let
        him Smite, hitting nothing). A power that rolls no hits (a Morale power) is his to use."""
        if can_shoot(psyker.models[0].profile.bs):
            return None
        return Ruling.forbid(f"{psyker.id} has BS 0: a model of Ballistic Skill 0 makes no shooting attack, and "
                             f"{power.name} is one (its hits are rolled on his BS)", rule, "core.zero.bs")

    @implements("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.shooting-into-combat",
                "40k4.cc.locked")
    def _locked_psyker(self, state: GameState, psyker: Unit, why: str, rule: str) -> Ruling | None:
        """Refuse a psychic attack by the shooting rules of a psyker locked in close combat: himself, or the unit he
        joined, whom he is locked with though he touch no enemy (40k4.cc.locked; in 3rd edition he is part of the
        unit, 40k3.ic.join), whatever his own status says (a scenario may mark the unit alone)."""
        host = state.unit(psyker.joined) if psyker.joined else psyker
        if not (psyker.has(Status.LOCKED) or host.has(Status.LOCKED)):
            return None
        if host is psyker:
            return Ruling.forbid(f"{psyker.id} is locked in close combat: {why}", rule,
                                 "published.shooting-into-combat")
        return Ruling.forbid(f"{host.id} is locked in close combat and {psyker.id}, who joined it, is locked with it: "
                             f"{why}", rule, "published.shooting-into-combat", *self.locked_with_unit_rules)

    @implements("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.weapon-profiles")
    def _power_shots(self, state: GameState, psyker: Unit, weapon: Weapon, dist: float) -> int:
        """Return the shots of a psychic shooting attack at ``dist``: by its weapon type, as a shot's (a Heavy power
        fires none once the psyker moved this turn, a Rapid Fire one by its range and moving).  The psyker's own move
        decides, as a firer's (published.weapon-profiles): moving with his unit moves him, and a squad he joined that
        stood still does not make him stand still."""
        chosen = self._weapon_at((weapon,), dist, psyker.has(Status.MOVED))
        return chosen[1] if chosen is not None else 0

    def perils_words(self, result: PsychicResult) -> str:
        """Say what Perils of the Warp did to the psyker (3rd edition: a hit of Strength D6, no save of any kind)."""
        hurt = "wounded" if result.wounded else "not wounded"
        return f"is hit at S{result.perils_strength}, no save: {hurt}"

    @implements("published.assault-after-shooting", "40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
    def shooting_of(self, state: GameState, unit_id: str, target_id: str) -> tuple[str, tuple[str, ...]]:
        """Say whose shooting bound a unit to ``target_id`` this turn, with the clauses that make it the unit's: its own
        volley, its psyker's power (a psychic attack is shooting), a joined character's, or a slain host's power
        whose unit it is what is left of (``left_of``). Judge round 44: the assault refusal said "chap fired at boyz"
        of a Chaplain who fired nothing, his slain host's power being the shooting."""
        unit = state.unit(unit_id)
        if left := left_of(state, unit_id, target_id):
            return (f"{unit_id} was part of {left} when its shooting began this turn, at {target_id}, with {left}'s "
                    f"psychic power ({left} since slain)", (self.join_rule, self.psychic_shooting_rule))
        if _used_power(unit):
            return f"{unit_id} used a psychic power at {target_id} this turn", (self.psychic_shooting_rule,)
        if unit.has(Status.SHOT):
            return f"{unit_id} fired at {target_id} this turn", ()
        power = any(_used_power(u) for u in state.units if u.joined == unit_id)
        return (f"{who_fired(state, unit_id)} at {target_id} this turn, as part of {unit_id}'s shooting",
                (self.join_rule, *((self.psychic_shooting_rule,) if power else ())))

    @implements("40k3.psyker.perils", "40k3.psyker.perils-on-2", "published.40k4-psychic-shooting",
                "published.last-man-standing")
    def resolve_manifest(self, state: GameState, action: Manifest, dice: Dice) -> Resolution:
        """Take the psychic test, suffer Perils of the Warp, and use the power if the test allows it."""
        psyker = state.unit(action.psyker)
        power = find_power(action.power, state.powers)
        assert power is not None and action.target is not None  # checked by rule_manifest
        aimed = state.unit(action.target)
        if power.effect is PowerEffect.SHOOTING and aimed.joined is not None and self.picked_out(state, aimed):
            return self._apart(state, aimed, lambda alone: self.resolve_manifest(alone, action, dice))
        model = psyker.models[0]
        start = rolls_made(dice)
        result = self.psychic_test(dice, model.profile.ld, model.profile.t, model.wounds_left,
                                   model.profile.invulnerable)
        verdict = "passed" if result.passed else "failed"
        # a psyker whose profile prints Ld '-' tests on 0 (core.profile.dash): said and cited, as every Leadership
        # test on a '-' is (judge round 51)
        dashed = model.profile.is_dashed(Characteristic.LD)
        test_rules: tuple[str, ...] = (self.psychic_test_rule, *(("core.profile.dash",) if dashed else ()))
        if result.power_used and not result.passed:
            # a 2 over Leadership 0 or 1 fails the test, yet on a 2 the power is still used (40k3.psyker.perils-on-2;
            # 4th edition alike): the event says both, so "failed" and "uses Smite" do not read as a contradiction
            verdict = f"failed, but on a roll of 2 the power is still used ({self.power_on_two_rule})"
            test_rules += (self.power_on_two_rule,)
        events = [Event("psychic_test", f"{model.name} takes a psychic test for {power.name}: {result.roll} against "
                        f"Ld {model.profile.ld}{DASH_WORDS if dashed else ''}, {verdict}", test_rules,
                        rolls_since(dice, start))]
        before = state
        after = state.replace_unit(psyker.with_status(Status.USED_POWER, *(
            () if result.power_used else (Status.PSYCHIC_TEST_FAILED,))))  # why another power is refused: said
        if result.perils:
            # the 3rd edition hit's to-wound roll against a psyker of Toughness 0 is decided by core.zero.t
            events.append(Event("perils", f"Perils of the Warp! {model.name} {self.perils_words(result)}",
                                (self.perils_rule, *zero_rules(result.perils_strength or 1, model.profile.t))
                                if result.perils_strength is not None else (self.perils_rule,)))
            if result.wounded:
                lost = 1
                if killed_outright(psyker, model, result.perils_strength):  # 3rd edition: S double his T or more
                    lost = model.wounds_left
                    events.append(outright_event(model, result.perils_strength or 0, lost, (self.perils_rule,)))
                after, slain = apply_wounds(after, {(psyker.id, 0): lost})
                if slain:
                    events.append(Event("casualties", f"slain: {', '.join(slain)}", (self.perils_rule, "core.zero.w"),
                                        data=slain_data(slain)))
                    if psyker.has(Status.LOCKED):
                        after, more = self._foes_left_without_a_combat(after)
                        events += more
                    # a psyker slain in his unit may leave it with one model: Last Man Standing at once (3rd
                    # edition; 4th tells it takes none), before the power a 2 still uses (published.last-man-standing)
                    after, more = self._last_man(after, before, dice, set())
                    events += more
                    before = after  # the power's casualties are counted from here: the last man tests once
        if not result.power_used:
            return after, events
        # every power aimed at an enemy unit is a psychic attack by the shooting rules (40k3.psyker.as-shooting's
        # decision), a Morale power as much as a shooting one; at a lone character, the clause that let the power
        # pick him out is cited with it, as the ruling does (judge round 62: the events cited neither)
        rules = (self.psychic_test_rule,) + ((self.power_on_two_rule,) if result.roll == 2 else ()) \
            + (self.psychic_shooting_rule, *self.lone_character_picked(state, psyker, aimed))
        events.append(Event("power_used", f"{model.name} uses {power.name} on {action.target}", rules))
        target = state.unit(action.target)
        target_id = target.joined or target.id
        if power.effect is PowerEffect.SHOOTING:
            assert power.weapon is not None
            group = [p for u in state.combined(target_id) for p in u.placed]
            shots = self._power_shots(state, psyker, power.weapon, geo.group_distance(psyker.placed, group))
            wounded, more = self._shooting_attack(after, [(psyker, model, power.weapon, shots)], target_id, dice,
                                                  (self.psychic_shooting_rule, "published.wound-allocation"))
            events += more
            if wounded is not None:
                after = release_orphans(after.replace_units(*wounded))
            if after.unit(psyker.id).alive:  # a power fired as a Heavy one bars the assault as the weapon does
                after = after.replace_unit(after.unit(psyker.id).with_status(
                    Status.SHOT, *((Status.FIRED_NO_ASSAULT,) if self.fire_bars_assault(
                        psyker, power.weapon, psyker.has(Status.MOVED)) else ())))
            after = _fired(after, psyker.joined or psyker.id, target_id, state)
            after = self.shooting_losses_counted(after, before, target_id)
            after, more = self._after_casualties(after, before, target_id, dice)
            return after, events + more
        if state.phase is Phase.SHOOTING:
            # a power used in the Shooting phase is used instead of shooting (40k3.psyker.as-shooting's decision,
            # session 23): the psyker fires no weapon and runs no run after it, and as his part of his unit's
            # shooting it binds the unit to its target as Smite does, slain by Perils on a 2 or not
            # (40k4.shoot.same-target; 3rd edition: a unit shoots at one enemy unit, published.shooting; session 28b)
            if after.unit(psyker.id).alive:
                after = after.replace_unit(after.unit(psyker.id).with_status(Status.SHOT))
            after = _fired(after, psyker.joined or psyker.id, target_id, state)
        after, more = self._morale_check(after, target_id, dice, f"is struck by {power.name}",
                                         self.psychic_test_rule, power.modifier, also=(self.psychic_shooting_rule,))
        return after, events + more


@implements("40k3.psyker.as-shooting", "published.shooting", "40k3.ic.join")
def _fired(state: GameState, unit_id: str, target_id: str, before: GameState) -> GameState:
    """Record the target a unit (or a character in it) fired at this turn (40k4.shoot.same-target), with the
    characters joined to the target in ``before`` (``shot_with``).

    A host psyker slain by Perils of the Warp (his power still used on a 2) leaves the characters joined to him a
    unit each: they are what is left of the unit whose shooting his power began, and fire at its target too (judge
    round 43: the Chaplain of a pair could fire at any target once Perils slew its host Librarian)."""
    if state.target_fired_at(unit_id) is not None:
        return state
    fired = (*state.fired_at, (unit_id, target_id))
    if not state.unit(unit_id).alive:  # only when Perils slew the host: the rest of his unit is bound with him
        fired += tuple((u.id, target_id) for u in before.combined(unit_id)[1:]
                       if state.unit(u.id).alive and state.target_fired_at(u.id) is None)
    return evolve(state, fired_at=fired, joined_when_shot=shot_with(before, target_id))


def _used_power(unit: Unit) -> bool:
    """Say whether a unit's psyker used a power this turn (a failed test uses none)."""
    return unit.has(Status.USED_POWER) and not unit.has(Status.PSYCHIC_TEST_FAILED)


def _own_shooting(state: GameState, unit_id: str) -> bool:
    """Say whether a unit's own models or its joined characters (those since slain too) fired or used a power this
    turn: what binds it to its target then is its own shooting, not a slain host's."""
    return any(u.has(Status.SHOT) or _used_power(u) for u in state.units if u.id == unit_id or u.joined == unit_id)


def left_of(state: GameState, unit_id: str, target_id: str) -> str | None:
    """Name the slain host psyker whose power at ``target_id`` bound ``unit_id``, what is left of his unit (``_fired``
    records it just after him when Perils slew the host of a pair), or None.

    A unit bound by its own shooting is left of no one (judge round 44: a squad that fired after a lone Librarian of
    another unit was slain by Perils at the same target was told it "was part of lib")."""
    if _own_shooting(state, unit_id):
        return None
    host = None
    for u, t in state.fired_at:
        if u == unit_id:
            return host
        slain = state.unit(u)
        host = u if t == target_id and not slain.alive and _used_power(slain) else host
    return None


def who_fired(state: GameState, unit_id: str) -> str:
    """Name the characters of a unit whose shooting or psychic power bound it to a target (``rule_shoot``), those since
    slain said so: "lib used a psychic power (since slain)"."""
    parts = []
    for u in state.units:
        if u.joined != unit_id or not (u.has(Status.SHOT) or u.has(Status.USED_POWER)):
            continue
        did = "used a psychic power" if _used_power(u) else "fired"  # a power replaces his shot
        parts.append(f"{u.id} {did}" + ("" if u.alive else " (since slain)"))
    return " and ".join(parts) if parts else f"a character in {unit_id} fired"


@implements("40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
def as_shooting(power: Power, refused: Ruling, rule: str) -> Ruling:
    """Refuse a power's target as the shooting rules refuse it, naming the power and the clause that makes them its
    rules first: a player told only "no one may shoot into a close combat" asked for no shot."""
    return Ruling.forbid(f"{power.name} is a psychic attack, which follows the shooting rules ({rule}): "
                         f"{refused.reason}", rule, *refused.rules)
