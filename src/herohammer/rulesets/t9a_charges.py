"""The 9th Age's charges: a unit's, and a character's out of his unit (published.t9a-charge, t9a.charge-out.*).

Declaring a charge, the charged unit's reaction (Hold, Stand and Shoot, Flee and the redirect it allows), Flying
charges, the Charge Range roll and the Charge or Failed Charge move; the mechanics the seed defers to (Charge Range,
Stand and Shoot) are in charging.py and ``t9a_stand_and_shoot``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..charging import (CHARGE_BONUS_RULES, CHARGE_OUT_RULE, CHARGE_REACTIONS, CHARGE_RULE, REDIRECT, FLEE_REACTION,
                        MAX_CHARGE_BONUS, STAND_AND_SHOOT, SWIFTSTRIDE, roll_charge, stand_and_shoot)
from ..checks import LeadershipTestKind
from ..dice import Dice, rolls_made, rolls_since
from ..errors import IllegalActionError
from .. import movement
from ..formations import WHO_CAN_SHOOT
from ..geometry import (BASE_TOLERANCE, box_gap, EPSILON, Placed, Point, distance, footprint_slack, group_distance,
                        nearest_in_rows, unit_line_of_sight)
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Status, Unit
from .base import Resolution, rolls_before_placing, rule_key
from .t9a_weapons import SHOOTING_WEAPONS, weapon_choice_problem, weapon_choices, weapons_said
from .t9a_units import (advance_rate, BUSY, CHARGE_ARC, charger_centre, combined_status, current, FAILED_CHARGE,
                        fly_rates, formation_of, host_of, lone_rules, march_rate, member_models, MOVED, off_table, placed_all,
                        rallied, RALLIED_WORDS, RALLY_RULE, sight_all, unit_centre, unit_rates)
from .t9a_casualties import COMMAND_GROUP, DISTRIBUTING_HITS, no_models_left, remove_casualties, take_wounds
from .t9a_align import aligned
from .t9a_forward import forward_charge, ForwardCharge, forward_charger, MOST_WHEEL
from .t9a_moves import (charge_way_clear, charge_contact, contact_models, contact_move, CONTACT_OVERLAP_SLACK,
                        contact_pairs, detach, in_front_arc, path_problem, shift_unit, spacing_problem, wheel_problem,
                        WHEEL_RULE, wheeled)
from .t9a_stand_and_shoot import (charged_with, COVER, OWN_RATE, stand_and_shoot_at_unit, stand_and_shoot_volley,
                                  stands_and_shoots_unasked, takes_stand_and_shoot, Volley)
from .t9a_discipline import (GENERAL_RULE_ID, MARCH_RULE, shaken_refusal, BATTLE_STANDARD, discipline_test,
                              SHAKEN_RULE)
from .t9a_joins import FLY_RULE, JoinRules

from ..actions import Charge  # built by every listing of legal actions

if TYPE_CHECKING:
    from ..actions import Action, Move, WeaponChoice


#: ``GameState.remember`` key: a charged unit's Stand and Shoot, ruled once per state charged from (``_stand_and_shoot``).
_STAND_AND_SHOOT = "stand and shoot"

#: Outcomes of a character's charge out of its unit (``charge_out_odds``).
CHARGED, FAILED_LEFT, FAILED_STAYED, SLAIN = "charged", "failed_left", "failed_stayed_shaken", "slain"


PANIC_RULE = "published.t9a-panic"
#: The seed's Stand and Shoot at a character charging out: every hit is his.
OUT_SNS = "t9a.charge-out.stand-and-shoot"


#: A charging unit that fails its Panic test after Stand and Shoot casualties flees instead of charging.
FLED = "fled"
#: How near a move stopped short comes to where its way is last clear, in inches (``_cut_short``): finer than the
#: 0.01" its event gives.
STOP_PRECISION = 0.001


#: What a charge's ruling says of the wheel ``t9a_forward`` chose for a charge named without one.
_SMALLEST = ", the smallest that brings its front onto the Target Facing"


#: The outcomes of a charge at a unit that fled from it (published.t9a-flee-reaction).
CAUGHT, FLED_OFF = "caught", "target_fled_off_the_table"


_UNIT_CHARGE = (CHARGE_RULE,)


_CHARGE_OUT = (CHARGE_RULE, CHARGE_OUT_RULE)


@implements(CHARGE_RULE, CHARGE_OUT_RULE)
def charge_rules(charger: Unit) -> tuple[str, ...]:
    """Return the ids a charge cites: the published charge rule; a character charging out of his unit, the seed's too."""
    return _CHARGE_OUT if charger.joined else _UNIT_CHARGE


def _redirected(action: Charge, reaction: str | None) -> Charge:
    """The charge a redirect makes: at the unit it names, with ``reaction`` for that unit (and its weapon,
    ``redirect_reaction_weapon``), redirecting no further.  A new charge, it is named with no wheel (the smallest onto
    its target's Facing, published.t9a-charge): the wheel named is the Charge Move's at the unit declared (round 55:
    a wheel named with a redirect was refused, though no text bars it)."""
    assert action.redirect is not None
    return action.model_copy(update={"target": action.redirect, "reaction": reaction, "redirect": None, "wheel": None,
                                     "redirect_reaction": None, "if_both_flee": None,
                                     "reaction_weapon": action.redirect_reaction_weapon,
                                     "redirect_reaction_weapon": None})


#: The charge's fields that choose the weapon of a Stand and Shoot: the charged unit's, the redirect's unit's.
REACTION_WEAPON, REDIRECT_WEAPON = "charge.reaction_weapon", "charge.redirect_reaction_weapon"


@implements("t9a.join.part-of-unit", "t9a.combined.last-survivor")
def _why_busy(state: GameState, unit: Unit) -> str:
    """Say what keeps a unit (or a character in one) from charging: engaged, fleeing (his unit's status binding him,
    t9a.join.part-of-unit), or moved, marched or charged this turn (a rallied unit counts as having marched)."""
    host = host_of(state, unit)
    for status, words in ((Status.ENGAGED, "engaged in combat"), (Status.FLEEING, "fleeing")):
        if unit.has(status):
            return f"it is {words}"
        if host.has(status):
            return f"it is part of {host.id}, which is {words}"
    done = [w for s, w in ((Status.CHARGED, "charged"), (Status.MARCHED, "marched"), (Status.MOVED, "moved"))
            if unit.has(s)]
    if not done and host.id != unit.id:
        done = [w for s, w in ((Status.MARCHED, "marched"), (Status.MOVED, "moved")) if host.has(s)]
        if done and not rallied(host):
            return f"it is part of {host.id}, which has {' and '.join(done)} this turn, and it moved with it"
    if rallied(host):
        return RALLIED_WORDS + (f" (he rallied with {host.id}, part of it)" * (host.id != unit.id))
    return f"it has {' and '.join(done) or 'moved'} this turn"


#: What a failed charger is told of Shaken, which the seed gives only a character left in his unit.  Round 56: and
#: that the 2022 Shaken would bar it from nothing more than its Failed Charge Move does in what the engine plays.
NOT_SHAKEN = ("; not Shaken: the seed's Shaken is a failed charge out's that leaves the character in his unit, the "
              "2022 text's for every failed charger is not followed, and would bar nothing more: this Player Turn it "
              "neither charges, moves, reforms nor shoots again [published.t9a-failed-charge]")


#: What a charger that caught a unit that fled is told (round 57; the 2022 text, Shaken: models become Shaken by
#: "Charging a Fleeing unit", and a Shaken model makes no Shooting Attack, Advance, March or Reform, nor charges).
CAUGHT_SHAKEN = ("; it is Shaken until the end of the Player Turn for charging a Fleeing unit (it neither charges, "
                 "moves, reforms nor shoots again this Player Turn)")


def _charge_event(msg: str, rules: list[str], dice: Dice, start: int, outcome: str,
                  skip: tuple[int, int] = (0, 0), note: str = "") -> Event:
    """Say how a charge ended, with its dice from ``start`` (less the ``skip`` span a Panic event reports) and ``note``
    (what the charged unit's Stand and Shoot did, or why it could not be taken)."""
    rolls = rolls_since(dice, start)
    if skip[0] < skip[1]:
        rolls = rolls[:max(skip[0] - start, 0)] + rolls[max(skip[1] - start, 0):]
    return Event("charge", msg + note, tuple(dict.fromkeys(rules)), rolls, (("outcome", outcome),))


class ChargeRules(JoinRules):
    """Charges: declared, reacted to, rolled and moved (a unit's, and a character's out of his unit)."""

    def charger_panic(self, state: GameState, unit_id: str, before: int, dice: Dice,
                      away_from: Point) -> tuple[GameState, list[Event]]:
        """Take the Panic test a charging unit may owe after Stand and Shoot casualties (a hook).

        The Panic test belongs to the shooting rules above this module (t9a_combat); the
        turn's Shooting phase mixin implements this hook, so the charge takes the test
        without importing them.  Here: no test.
        """
        return state, []

    @property
    def flees_from_charges(self) -> bool:
        """Say whether this ruleset has a flee move for the Flee Charge Reaction (a mixin overrides
        ``flee_from_charge``): without one it refuses the reaction."""
        return type(self).flee_from_charge is not ChargeRules.flee_from_charge

    def flee_from_charge(self, state: GameState, unit_id: str, away_from: Point, dice: Dice) -> tuple[GameState, int]:
        """Flee a charged unit 2D6" straight away from its charger's centre; return the state and the distance (a hook).

        The flee move belongs to the turn's Panic and Melee mixins (``t9a_combat.flee``), which the
        charge rules do not import; the one that overrides it gives the ruleset the reaction (``flees_from_charges``).
        """
        raise IllegalActionError(f"{unit_id} has no flee move in ruleset {self.name}", (FLEE_REACTION,))

    def _redirect_candidates(self, state: GameState, charger: Unit, target: Unit,
                             viable: Sequence[Unit]) -> Iterator[Action]:
        """Propose a charge at ``target`` that Flees (named, or a unit already fleeing) with each redirect the charger
        could declare (published.t9a-redirect-charge: another unit it could charge), the new target reacting by
        default, and each other weapon that unit could Stand and Shoot with (``redirect_reaction_weapon``)."""
        flees = {} if target.has(Status.FLEEING) else {"reaction": "flee"}  # a unit already fleeing Flees unasked
        for other in viable:
            if other.id == target.id:
                continue
            yield Charge.trusted(do="charge", unit=charger.id, target=target.id, **flees, redirect=other.id)
            if stands_and_shoots_unasked(other) and not other.has(Status.FLEEING) \
                    and stand_and_shoot_volley(state, other, charger, first=True).shooters:
                for choice in weapon_choices(state, other):
                    yield Charge.trusted(do="charge", unit=charger.id, target=target.id, **flees,
                                         redirect=other.id, redirect_reaction_weapon=choice)

    # -- charging ---------------------------------------------------------------
    @implements(CHARGE_RULE, CHARGE_OUT_RULE, "t9a.charge-out.no-other-charges", "t9a.join.part-of-unit")
    def rule_charge(self, state: GameState, action: Charge) -> Ruling:
        """Rule on declaring a charge, by a unit or by a character out of its unit, and on the reaction named.

        The declaration does not depend on the reaction: it is worked out once per state for the
        charge with or without one (listing legal actions offers the Hold beside the default).
        """
        key = (type(self), "rule_charge", action.unit, action.target, action.wheel, action.fly)
        declared = state.remember(key, lambda: self._charge_declared(state, action))
        if not declared.legal:
            return declared
        if action.redirect is None and action.redirect_reaction_weapon is not None:
            return Ruling.forbid(f"{REDIRECT_WEAPON}: no redirect is named, so no redirect's unit Stands and Shoots",
                                 SHOOTING_WEAPONS, REDIRECT)
        if action.reaction is None:
            if self._must_flee(state.unit(action.target)):
                if action.reaction_weapon is not None:
                    return self._no_volley(REACTION_WEAPON, f"{action.target} is fleeing, so it Flees")
                ruling = Ruling.allow(f"{declared.reason}; {action.target} is fleeing, so it Flees (a unit already "
                                      "fleeing must)", *declared.rules, CHARGE_REACTIONS, FLEE_REACTION,
                                      notes=declared.notes)
                return ruling if action.redirect is None else self._with_redirect(state, action, ruling)
            if action.redirect is not None:
                return self._redirect_problem(state, action)
            default = self._default_volley(state, action, state.unit(action.unit), state.unit(action.target),
                                           REACTION_WEAPON)
            if default is None:
                return declared
            if not default.legal:
                return default
            said = f"{declared.reason}; {default.reason}" if default.reason else declared.reason
            return Ruling.allow(said, *dict.fromkeys((*declared.rules, *default.rules)),
                                notes=(*declared.notes, *default.notes))
        reaction = self._reaction_problem(state, action, state.unit(action.unit), state.unit(action.target))
        if not reaction.legal:
            return reaction
        ruling = Ruling.allow(f"{declared.reason}; {reaction.reason}", *declared.rules, *reaction.rules,
                              notes=(*declared.notes, *reaction.notes))
        return ruling if action.redirect is None else self._with_redirect(state, action, ruling)

    @staticmethod
    @implements(SHOOTING_WEAPONS, CHARGE_REACTIONS)
    def _no_volley(field: str, why: str) -> Ruling:
        """Refuse a weapon chosen for a Stand and Shoot that the charged unit will not take (naming the field)."""
        return Ruling.forbid(f"{field}: {why} and fires no weapon (only a Stand and Shoot does)", SHOOTING_WEAPONS,
                             CHARGE_REACTIONS, STAND_AND_SHOOT)

    @implements(SHOOTING_WEAPONS, STAND_AND_SHOOT, CHARGE_REACTIONS)
    def _default_volley(self, state: GameState, action: Charge, charger: Unit, target: Unit,
                        field: str) -> Ruling | None:
        """Rule on the default Charge Reaction (Stand and Shoot when it may be taken, else Hold) and its weapons:
        None when there is nothing to say (a charged unit that Holds unasked, no weapon chosen), a refusal of a weapon
        chosen where no Stand and Shoot is taken or that cannot be, else what the unit will do, said in the reason
        (round 55: a unit's charge said nothing of the Stand and Shoot its target takes unasked, only a charge out
        did) and which weapons it will use."""
        chosen = action.reaction_weapon
        out = bool(charger.joined)  # a character charging out: his own rate decides, every hit is his (round 54)
        if chosen is None and not stands_and_shoots_unasked(target):
            return None  # the common charge: the charged unit Holds unasked
        if not stands_and_shoots_unasked(target):
            return self._no_volley(field, f"{target.id} Holds (its rules do not list Stand and Shoot)")
        volley = stand_and_shoot_volley(state, target, charger, first=True,
                                        advance=self._flying_advance(state, charger, action))
        if not volley.shooters:
            if chosen is None:
                holds = volley.said.split(" [")[0] + ": it Holds"
                if out and OWN_RATE in volley.said:  # the Hold his own Advance Rate decides, said
                    return Ruling.allow(holds, CHARGE_REACTIONS, STAND_AND_SHOOT, OWN_RATE,
                                        notes=(f"{holds} [{STAND_AND_SHOOT}, {OWN_RATE}]",))
                return Ruling.allow(holds, CHARGE_REACTIONS, STAND_AND_SHOOT)
            why = volley.said.split(" [")[0].split("cannot Stand and Shoot: ", 1)[-1]
            return self._no_volley(field, f"{target.id} Holds ({why})")
        if problem := weapon_choice_problem(state, target, chosen, field):
            return Ruling.forbid(problem, SHOOTING_WEAPONS, STAND_AND_SHOOT)
        said = f"{target.id} will Stand and Shoot (unasked: its rules list Stand and Shoot; its player may name hold)"
        notes = tuple(weapons_said(state, target, chosen, "will stand and shoot with", field.split(".")[-1]))
        if out:
            notes += (self._every_hit_his(charger),)
            return Ruling.allow(said, CHARGE_REACTIONS, STAND_AND_SHOOT, OUT_SNS, *((SHOOTING_WEAPONS,) if len(notes) > 1 else ()),
                                notes=notes)
        return Ruling.allow(said, CHARGE_REACTIONS, STAND_AND_SHOOT, *((SHOOTING_WEAPONS,) if notes else ()), notes=notes)

    @staticmethod
    @implements(OUT_SNS)
    def _every_hit_his(charger: Unit) -> str:
        """Say what the seed says of a Stand and Shoot at a character charging out: every hit is his."""
        return f"{charger.id} charges out of {charger.joined}: every hit of a Stand and Shoot at him is his [{OUT_SNS}]"

    def _with_redirect(self, state: GameState, action: Charge, ruling: Ruling) -> Ruling:
        """Add the redirect a charge names to its ruling, or refuse the charge for it."""
        problem = self._redirect_problem(state, action)
        if not problem.legal:
            return problem
        return Ruling.allow(f"{ruling.reason}; {problem.reason}", *ruling.rules, *problem.rules,
                            notes=(*ruling.notes, *problem.notes))

    @implements(REDIRECT)
    def _redirect_problem(self, state: GameState, action: Charge) -> Ruling:
        """Rule on the redirect a charge names: only after its target Flees, at another unit the charger could charge
        (as the charge was declared: published.t9a-charge, before the flee), Holding or Standing and Shooting."""
        assert action.redirect is not None
        flees = action.reaction == "flee" or (action.reaction is None and self._must_flee(state.unit(action.target)))
        if not flees:
            return Ruling.forbid(f"{action.unit} may redirect its charge only when {action.target} Flees (name "
                                 "reaction flee)", REDIRECT, CHARGE_REACTIONS)
        if action.redirect == action.target:
            return Ruling.forbid(f"a charge is redirected to another unit, not to {action.target} again", REDIRECT)
        new = state.unit(action.redirect)
        second = _redirected(action, action.redirect_reaction)
        key = (type(self), "rule_charge", action.unit, new.id, None, action.fly)
        declared = state.remember(key, lambda: self._charge_declared(state, second))
        if not declared.legal:
            return Ruling.forbid(f"{action.unit} could not redirect its charge to {new.id}: {declared.reason}",
                                 REDIRECT, *declared.rules)
        said = "its default Charge Reaction"
        rules: tuple[str, ...] = ()
        notes: tuple[str, ...] = ()
        if action.redirect_reaction is not None:
            reaction = self._reaction_problem(state, second, state.unit(action.unit), new, REDIRECT_WEAPON)
            if not reaction.legal:
                return Ruling.forbid(f"the redirected charge: {reaction.reason}", REDIRECT, *reaction.rules)
            said, rules, notes = reaction.reason, reaction.rules, reaction.notes
        elif self._must_flee(new):
            if action.redirect_reaction_weapon is not None:
                return self._no_volley(REDIRECT_WEAPON, f"{new.id} is fleeing, so it Flees")
            said, rules = f"{new.id} is fleeing, so it Flees", (CHARGE_REACTIONS, FLEE_REACTION)
        elif (default := self._default_volley(state, second, state.unit(action.unit), new, REDIRECT_WEAPON)) \
                is not None:
            if not default.legal:
                return Ruling.forbid(f"the redirected charge: {default.reason}", REDIRECT, *default.rules)
            said, rules, notes = default.reason or said, default.rules, default.notes
        both = self._both_flee_problem(action, new)
        if isinstance(both, Ruling):
            return both
        if action.wheel is not None:  # round 55: allowed; the wheel named is the charge's at the unit declared
            notes += (f"the {action.wheel:g} degree wheel is the Charge Move's at {action.target}; redirected, the new "
                      f"charge at {new.id} makes its own, the smallest onto its Target Facing [{REDIRECT}, {WHEEL_RULE}]",)
        return Ruling.allow(f"if {action.target} Flees, {action.unit} takes a Discipline test to redirect its charge "
                            f"to {new.id} ({said}){both}", REDIRECT, *rules, notes=notes)

    def _both_flee_problem(self, action: Charge, new: Unit) -> Ruling | str:
        """Rule on ``if_both_flee``, the target a charger picks when its redirect's unit Flees too (either target,
        published.t9a-redirect-charge): return what the ruling says of it, or the refusal."""
        flees = self._flees(action.redirect_reaction, new)
        chosen = action.if_both_flee
        if chosen is not None and not flees:
            return Ruling.forbid(f"if_both_flee picks a target only when {new.id} Flees too (name redirect_reaction "
                                 "flee)", REDIRECT)
        if chosen is not None and chosen not in (action.target, new.id):
            return Ruling.forbid(f"if both flee, {action.unit} may charge either target, {action.target} or {new.id},"
                                 f" not {chosen}", REDIRECT)
        if not flees:
            return ""
        return f"; if {new.id} Flees too, {action.unit} charges {chosen or new.id} (either target, named before its " \
               "Charge Range roll)"

    @implements(REDIRECT, BATTLE_STANDARD, GENERAL_RULE_ID)
    def _redirect(self, state: GameState, action: Charge, charger: Unit, fled: Unit,
                  dice: Dice) -> tuple[Unit | None, Event]:
        """Take the Discipline test to redirect a charge whose target fled; return the new target (None: the charge
        goes on at the unit that fled) and what happened.

        The redirect was ruled as the charge was declared; after the flee the new charge must still be one the
        charger could declare (the fled unit may now stand in its way): if not, no test is taken.
        """
        assert action.redirect is not None
        start = rolls_made(dice)
        new = state.unit(action.redirect)
        second = _redirected(action, None)
        check = state
        if charger.joined:  # his charge out barred his unit from charging, not his own charge (no-other-charges)
            host = state.unit(charger.joined)
            check = state.replace_units(host.with_status(remove=(Status.NO_CHARGE,)))
        again = self._charge_declared(check, second)
        if not again.legal:
            return None, Event("redirect", f"{charger.id} cannot redirect its charge to {new.id} after {fled.id} fled "
                               f"({again.reason}): it charges {fled.id} still", (REDIRECT, *again.rules), (),
                               (("outcome", "no_redirect"),))
        ld = self.discipline_ruling(state, charger)
        # a Discipline test like any other: re-rolled once on a failure within the Battle Standard Bearer's reach
        result, flag = discipline_test(state, charger.id, dice, ld.value, LeadershipTestKind.LEADERSHIP)
        test = f"{charger.id} takes a Discipline test to redirect its charge (Ld {ld.value}, {ld.source}): {result.roll}"
        if flag:
            test += f" ({flag.split(' [')[0]})"
        rules = (REDIRECT, result.rule, *ld.rules, *((BATTLE_STANDARD,) if flag else ()))
        if not result.passed:
            return None, Event("redirect", f"{test}, failed: it charges {fled.id} still", rules,
                               rolls_since(dice, start), (("outcome", "failed"),))
        return new, Event("redirect", f"{test}, passed: it charges {new.id} instead", (*rules, CHARGE_RULE),
                          rolls_since(dice, start), (("outcome", "redirected"),))

    @implements(REDIRECT, FLEE_REACTION)
    def _both_flee(self, state: GameState, action: Charge, charger: Unit, second: Unit,
                   dice: Dice) -> tuple[GameState, Unit, list[Event]]:
        """Flee the redirect's unit too (its Flee Charge Reaction, its flee move rolled through the Dice); the charger
        then charges either target, as ``if_both_flee`` named it before the Charge Range roll (none: the redirect's).
        Return the state, the unit charged as it now stands, and the events."""
        state, second, fled = self._flee_reaction(state, charger, second, dice)
        chosen = action.if_both_flee if action.if_both_flee is not None else second.id
        which = "first_target" if chosen == action.target else "second_target"
        target = state.unit(chosen)
        said = Event("charge_choice", f"{second.id} Flees too: {charger.id} charges {chosen}, "
                     f"{'its first target' if which == 'first_target' else 'the unit it redirected to'} (either target, "
                     "its player's choice, named before the Charge Range roll)", (REDIRECT,), (),
                     (("outcome", which),))
        return state, target, [fled, said]

    @implements("t9a.charge-out.failure", "t9a.charge-out.no-other-charges", FAILED_CHARGE)
    def _charge_declared(self, state: GameState, action: Charge) -> Ruling:
        named = state.unit(action.unit)  # a destroyed combined unit named is its last survivor (named_now)
        target = state.unit(action.target)
        decl = charge_rules(named)  # the general charge rule; a character charging out, the seed's clause too
        if not named.alive:
            return no_models_left(named, *decl)
        if target.side == named.side or not target.alive:
            return Ruling.forbid(f"{target.id} is not a living enemy unit", *decl)
        if target.joined:
            return Ruling.forbid(f"{target.id} is part of {target.joined}: the unit is charged, not its character alone",
                                 "t9a.join.part-of-unit", *decl)
        unit = named
        host = host_of(state, unit)
        # a joined character is bound by his unit's bar as by his own (round 30: a scenario may write it on the unit)
        # told with the one reason that holds (round 32: "a character charged out of spears (or the unit charged)")
        if unit.joined and unit.has(Status.CHARGED) and not host.has(Status.CHARGED):
            # round 58: a charge out that failed and kept him in: his own charge bars him, not the clause on the others
            return Ruling.forbid(f"{unit.id} charged already this turn: his charge out failed and he stayed in "
                                 f"{host.id}", *decl, "t9a.charge-out.failure", FAILED_CHARGE)
        if unit.has(Status.NO_CHARGE) or (unit.joined and host.has(Status.NO_CHARGE)):
            return Ruling.forbid(f"a character charged out of {host.id} this turn: {unit.id} cannot declare a charge",
                                 "t9a.charge-out.no-other-charges")
        if unit.joined and host.has(Status.CHARGED):
            # round 60: he charged with his unit (part of it), so he has charged this turn (the general charge rule,
            # t9a.leave.when); and a charge out would share the player turn with the unit's charge, which the clause
            # forbids whichever came first ("in the player turn when a character charges out")
            return Ruling.forbid(f"{host.id} charged this turn: {unit.id}, part of it, cannot declare a charge out of "
                                 "it (he charged with it, and a charge out and his unit's charge share no player "
                                 "turn)", *decl, "t9a.join.part-of-unit", "t9a.leave.when",
                                 "t9a.charge-out.no-other-charges")
        # a character in a unit that moved, marched or rallied this turn moved with it (round 30, t9a.leave.when)
        if not combined_status(state, unit).isdisjoint(BUSY) or not combined_status(state, unit).isdisjoint(MOVED):
            # round 60: a character who rallied with his unit rallied as part of it
            return Ruling.forbid(f"{unit.id} cannot charge: {_why_busy(state, unit)}", *decl,
                                 *((RALLY_RULE,) if rallied(host) else ()),
                                 *(("t9a.join.part-of-unit",) if rallied(host) and unit.joined else ()))
        if not unit.joined and state.joined_to(unit.id) and any(c.has(Status.CHARGED) for c in state.joined_to(unit.id)):
            return Ruling.forbid(f"a character charged out of {unit.id} this turn", "t9a.charge-out.no-other-charges")
        if shaken := shaken_refusal(state, unit, "declare a charge", whole_unit=not unit.joined):
            return shaken
        out = bool(unit.joined)
        if not in_front_arc(unit, target):
            return Ruling.forbid(f"{target.id} is not in {unit.id}'s Front Arc", *decl,
                                 "published.t9a-charge-arc")
        seeing = unit.placed if out else sight_all(state, unit)  # with its characters; rear ranks from the first
        if not unit_line_of_sight(seeing, placed_all(state, target), state.terrain):
            return Ruling.forbid(f"{unit.id} has no line of sight to {target.id}", *decl,
                                 "published.line-of-sight", "t9a.join.part-of-unit")
        rates = self.charge_rates(state, unit, out, bool(action.fly))
        if rates is None:
            return Ruling.forbid(f"{unit.id} has no Fly special rule: it cannot charge with Flying Movement" if out else
                                 f"not every model of {unit.id} has Fly: it cannot charge with Flying Movement",
                                 *decl, FLY_RULE)
        adv = rates[0]
        own = {unit.id} if out else {u.id for u in state.combined(unit.id)}
        if out:
            own.add(host.id)
            own.update(c.id for c in state.joined_to(host.id))
        arc, way = 0.0, state
        if action.wheel is not None:
            if out:
                return Ruling.forbid(f"{unit.id} charges out on its own base, straight in: a wheel is a unit's",
                                     WHEEL_RULE, *decl)
            f = formation_of(unit)
            if f is None:
                return Ruling.forbid(f"{unit.id} has no ranks and files to wheel", WHEEL_RULE)
            if abs(action.wheel) > MOST_WHEEL:  # 2022 text, Charge Move: "a Wheel may not exceed 90"
                return Ruling.forbid(f"{unit.id} may wheel at most {MOST_WHEEL} degrees in its Charge Move, not "
                                     f"{action.wheel:g}", *decl, WHEEL_RULE)
            arc = f.wheel_distance(action.wheel)
            problem = None if action.fly else wheel_problem(state, unit, action.wheel, own, frozenset({target.id}))
            if problem:
                return Ruling.forbid(f"{unit.id} cannot wheel {action.wheel:g} degrees towards {target.id}: {problem}",
                                     WHEEL_RULE, *decl)
            way = wheeled(state, unit, action.wheel)
        charger = way.unit(unit.id)
        models = contact_models(way, charger, out)
        placed = [m.placed for m in models]  # the charger's own models first
        slack = footprint_slack(placed, target.placed)  # rows charge_contact may move along, not only the nearest
        greatest = adv + MAX_CHARGE_BONUS
        wheel = action.wheel
        if forward_charger(unit, out):  # forwards, after at most one Wheel (t9a_forward)
            # the straight gap only words a refusal: a forward move that reaches goes at least that far (no base moves
            # further than the wheel's arc and the move), so it is measured when the boxes alone cannot rule it out
            # and no forward move reaches (a charger's own models, as below; each tells why in its own words)
            ahead: ForwardCharge | str = ""
            if arc + box_gap(charger.extent, target.extent) <= greatest + EPSILON:
                ahead = forward_charge(state, unit, target, action.wheel, greatest, own, bool(action.fly))
            if isinstance(ahead, str):
                rows = nearest_in_rows(placed[:len(charger.models)], target.placed, slack=slack)
                gap = arc + min(row[0] for row in rows if row is not None)
                if gap > greatest + EPSILON:
                    return self._beyond_range(unit, target, gap, arc, adv, decl)
                return self._no_forward_way(unit, target, action.wheel, ahead, decl)
            gap, arc, wheel = ahead.reach, ahead.arc, ahead.wheel
        else:
            rows = nearest_in_rows(placed[:len(charger.models)], target.placed, slack=slack)
            nearest = min(row[0] for row in rows if row is not None)  # group_distance(charger.placed, target.placed)
            gap = arc + nearest
            if gap > greatest + EPSILON:
                return self._beyond_range(unit, target, gap, arc, adv, decl)
            if len(placed) > len(rows):  # its characters: only one nearer than the unit's nearest can lead the move
                rows += nearest_in_rows(placed[len(rows):], target.placed, nearest, slack)
            pairs = contact_pairs(placed, target.placed, rows, slack)
            problem = None
            if action.fly or not charge_way_clear(way, placed, pairs, own, target.id, slack):
                _, _, movers = contact_move(models, pairs)
                touched = frozenset({target.id}) if slack <= CONTACT_OVERLAP_SLACK else frozenset()
                problem = path_problem(way, movers, own, bool(action.fly), frozenset({target.id}), touched)
            if problem:
                return Ruling.forbid(f"{unit.id} has no clear way to {target.id}: {problem}", *decl,
                                     "published.t9a-move", *((FLY_RULE,) if action.fly else ()))
        rules: tuple[str, ...] = (*decl, "t9a.charge-out.own-rate") if out else decl
        if action.fly:  # a character charging out flies as he may when leaving (t9a.leave.move)
            rules += (FLY_RULE, *(("t9a.leave.move",) if out else ()))
        if unit.last_of or target.last_of:
            rules += ("t9a.combined.last-survivor",)
        rules += lone_rules(state, unit, target)  # a lone character charging or charged: a unit of one (round 61)
        who = f"{unit.id} charges out of {unit.joined}" if out else f"{unit.id} charges"
        if arc:
            rules += (WHEEL_RULE,)
            who += f", wheeling {wheel:g} degrees ({arc:.2f}\" of the move{_SMALLEST if action.wheel is None else ''}),"
        roll, notes = self._range_said(state, unit, out)
        if notes or roll != "2D6":
            rules += (SWIFTSTRIDE,)
        return Ruling.allow(f"{who} at {target.id}, {gap:.2f}\" away, in its Front Arc and sight (Charge Range "
                            f"{adv}\" + {roll}{', flying' if action.fly else ''})", *rules, "published.t9a-charge-arc",
                            notes=notes)

    @staticmethod
    @implements(CHARGE_RULE)
    def _beyond_range(unit: Unit, target: Unit, gap: float, arc: float, adv: float, decl: tuple[str, ...]) -> Ruling:
        """Refuse a charge at a target further than the charger's greatest Charge Range (its Advance Rate and 12")."""
        return Ruling.forbid(f"{target.id} is {gap:.2f}\" away{' with the wheel' if arc else ''}, beyond "
                             f"{unit.id}'s greatest Charge Range ({adv}\" + 12\")", *decl, *((WHEEL_RULE,) if arc else ()))

    @implements(SWIFTSTRIDE, "t9a.charge-out.own-rate")
    def _range_said(self, state: GameState, unit: Unit, out: bool) -> tuple[str, tuple[str, ...]]:
        """Say the dice a charger will roll for its Charge Range, and why where that is not plain, as the resolution
        will roll them (``swiftstride``): a ruling read before the dice tells what they are (round 54: it said 2D6
        for a charger with Swiftstride, a character charging out with his unit's bonus too, and cited neither)."""
        swift, why = self.swiftstride(state, unit, out)
        return ("3D6, the lowest discarded (Swiftstride)" if swift else "2D6"), ((why,) if why else ())

    @staticmethod
    @implements(CHARGE_RULE, WHEEL_RULE, "published.t9a-move")
    def _no_forward_way(unit: Unit, target: Unit, wheel: float | None, why: str, decl: tuple[str, ...]) -> Ruling:
        """Refuse a charge whose forward move (``t9a_forward``) brings the charger's front onto no model of the
        Target Facing: after the wheel named, or after none and every wheel up to 90 degrees."""
        after = f" after its {wheel:g} degree wheel" if wheel is not None else ""
        blocked = ("published.t9a-move",) if "no clear way" in why else ()  # what barred the way: the movement rule
        return Ruling.forbid(f"{unit.id} moving straight forward{after} {why}: a Charge Move goes forwards, after at "
                             f"most one Wheel, its front onto the Target Facing of {target.id}", *decl,
                             *((WHEEL_RULE,) if wheel is not None else ()), *blocked)

    @implements(CHARGE_REACTIONS, STAND_AND_SHOOT, FLEE_REACTION, SHOOTING_WEAPONS)
    def _reaction_problem(self, state: GameState, action: Charge, charger: Unit, target: Unit,
                          field: str = REACTION_WEAPON) -> Ruling:
        """Rule on the Charge Reaction the charged unit's player chose.

        Hold may always be chosen by a unit not fleeing; Stand and Shoot when the published rule allows it
        (``stand_and_shoot_volley``: a unit that can shoot at the charger); Flee by a unit not
        engaged in combat, and it is the only reaction of a unit already fleeing (published.t9a-flee-reaction).
        A Stand and Shoot's weapon is chosen as a shot's (``action.reaction_weapon``, named ``field``;
        published.t9a-shooting-weapons); it is refused with any other reaction.
        """
        if action.reaction in ("flee", "hold") and action.reaction_weapon is not None:
            return self._no_volley(field, f"{target.id} {'Flees' if action.reaction == 'flee' else 'Holds'}")
        if action.reaction == "flee":
            return self._flee_problem(state, target)
        if self._must_flee(target):
            return Ruling.forbid(f"{target.id} is fleeing: a unit already fleeing must Flee (name reaction flee, or "
                                 "none)", CHARGE_REACTIONS, FLEE_REACTION)
        if action.reaction == "hold":
            return Ruling.allow(f"{target.id} holds (its player's Charge Reaction)", CHARGE_REACTIONS)
        # named, Stand and Shoot is open to any unit that can shoot at the charger (published.t9a-stand-and-shoot):
        # the rule "Stand and Shoot" on a unit only makes it the reaction its player takes unasked
        if problem := weapon_choice_problem(state, target, action.reaction_weapon, field):
            return Ruling.forbid(problem, SHOOTING_WEAPONS, STAND_AND_SHOOT)
        volley = stand_and_shoot_volley(state, target, charger, choice=action.reaction_weapon,
                                        advance=self._flying_advance(state, charger, action))
        if not volley.shooters:
            return Ruling.forbid(volley.said.split(" [")[0] + " (it may Hold)", CHARGE_REACTIONS, STAND_AND_SHOOT,
                                 *((WHO_CAN_SHOOT,) if WHO_CAN_SHOOT in volley.said else ()),
                                 *((OWN_RATE,) if OWN_RATE in volley.said else ()))
        notes = tuple(weapons_said(state, target, action.reaction_weapon, "will stand and shoot with",
                                   field.split(".")[-1]))
        out = (OUT_SNS,) if charger.joined else ()  # the seed's clause: every hit on the character charging out
        every = f", every hit on {charger.id}, charging out of {charger.joined} [{OUT_SNS}]" if out else ""
        return Ruling.allow(f"{target.id} will Stand and Shoot (its player's Charge Reaction){every}",
                            CHARGE_REACTIONS, STAND_AND_SHOOT, *out, *((SHOOTING_WEAPONS,) if notes else ()),
                            notes=notes)

    @implements(FLEE_REACTION)
    def _flee_reaction(self, state: GameState, charger: Unit, target: Unit, dice: Dice) -> tuple[GameState, Unit, Event]:
        """Flee the charged unit from its charger (once per phase: a unit that fled from a charge already stays put).

        Return the state, the charged unit as it now stands (no models: it fled off the table) and the flee's event.
        """
        start = rolls_made(dice)
        if target.has(Status.FLED_FROM_CHARGE):
            return state, target, Event("flee", f"{target.id} fled from a charge this phase already: it Flees, but "
                                        "makes no second flee move", (CHARGE_REACTIONS, FLEE_REACTION), (),
                                        (("outcome", "stayed"),))
        fled_from = state
        state, dist = self.flee_from_charge(state, target.id, charger_centre(state, charger), dice)
        now = state.unit(target.id)
        gone = not now.alive
        off, cite = off_table(fled_from, target.id) if gone else ("", ())
        if not gone:
            state = state.replace_units(*(u.with_status(Status.FLED_FROM_CHARGE) for u in state.combined(target.id)))
            now = state.unit(target.id)
        said = f"{target.id} flees {dist}\" from {charger.id}'s charge (its player's Charge Reaction)"
        if not gone and (moved := math.dist(target.models[0].at, now.models[0].at)) > dist + EPSILON:
            said += f", carried on to {moved:.2f}\" to end clear of the units in its way"
        return state, now, Event("flee", said + off,
                                 (CHARGE_REACTIONS, FLEE_REACTION, "published.t9a-flee", *cite), rolls_since(dice, start),
                                 (("outcome", "destroyed" if gone else "fled"),))

    @implements(FLEE_REACTION, "t9a.charge-out.success", WHEEL_RULE, SHAKEN_RULE)
    def _caught(self, state: GameState, way: GameState, unit: Unit, target: Unit, out: bool,
                fly: bool = False, move: Point | None = None, wheel: float | None = None) -> tuple[GameState, str]:
        """Destroy a fled unit the charge reached; the charger makes its Charge Move into contact where it fled to.

        ``way`` is the state after the charge's ``wheel`` (None: none).  The move goes straight, as every charge's,
        and only if its way is clear and its end stands on no model (the ruling measured the way to
        where the unit stood, not to where it fled); otherwise the charger stays where it stood (a
        character charging out: in his unit).  The way is the wheel's sweep too (round 55: only the forward
        move was looked at, and a charger wheeled through Impassable Terrain or another unit to where it caught a
        unit that fled), as a declared wheel's is (``wheel_problem``, published.t9a-wheel); a flier passes over.
        ``move``: a single model's forward move after its wheel (``t9a_forward``).  Return the state and what the
        charger did.
        """
        gone = [m.name for u in state.combined(target.id) for m in u.models]
        if move is None:
            dx, dy, movers = charge_contact(way, way.unit(unit.id), target, out)
        else:
            dx, dy = move
            movers = [(m, (m.at[0] + dx, m.at[1] + dy)) for m in contact_models(way, way.unit(unit.id), out)]
        host = host_of(state, unit)
        own = {unit.id, host.id, *(c.id for c in state.joined_to(host.id))} if out else \
            {u.id for u in state.combined(unit.id)}
        moved: GameState | None = None
        swept = wheel_problem(state, unit, wheel, own, frozenset({target.id})) if wheel and not fly else None
        if not swept and not path_problem(way, movers, own, fly, frozenset({target.id})):
            model = unit.models[0]
            moved = detach(state, unit, (model.at[0] + dx, model.at[1] + dy)) if out else \
                shift_unit(way, way.unit(unit.id), dx, dy)
            moved = remove_casualties(moved, target.id, gone)
            if movement.overlap_problem(state, moved):
                moved = None
        if moved is None:
            stayed = remove_casualties(state, target.id, gone)
            return stayed.replace_units(*(u.with_status(Status.CHARGED, Status.SHAKEN) for u in [
                stayed.unit(unit.id), *charged_with(stayed, unit.id, out)])), (
                f"stays {'in ' + host.id if out else 'where it stood'}: its Charge Move to where {target.id} fled "
                "is not clear" + (f" (wheeling {wheel:g} degrees, {swept})" if swept else "") + CAUGHT_SHAKEN)
        moved = moved.replace_units(*(u.with_status(Status.CHARGED, Status.SHAKEN) for u in [
            moved.unit(unit.id), *charged_with(moved, unit.id, out)]))
        turn = f" after a {wheel:g} degree wheel" if wheel else ""
        return moved, ("moves out of " + host.id + " " if out else "moves ") + \
            f"{math.hypot(dx, dy):.2f}\"{turn} to where it caught {target.id}{CAUGHT_SHAKEN}"

    def _stand_and_shoot(self, given: GameState, target: Unit, charger: Unit, weapon: WeaponChoice, field: str,
                         action: Charge) -> Volley:
        """The Stand and Shoot of a charged unit that did not flee, ruled on the state the charge was given and kept on
        it: what it reads (the charged unit, the charger's place and rates, the terrain) no change the charge makes
        before it touches (a character charging out marks his old unit NO_CHARGE), and an enumeration replays the
        charge from that state once a branch."""
        key = (_STAND_AND_SHOOT, target, charger, frozenset(weapon.items()) if isinstance(weapon, dict) else weapon,
               field, action.fly)
        return given.remember(key, lambda: stand_and_shoot_volley(given, target, charger, choice=weapon, field=field,
                                                                  advance=self._flying_advance(given, charger, action)))

    def _flying_advance(self, state: GameState, charger: Unit, action: Charge) -> int | None:
        """Return a Flying charge's flying Advance Rate, which stands for the charger's Advance Rate where a Stand and
        Shoot measures it (published.t9a-fly); None for a charge on the ground."""
        if not action.fly:
            return None
        rates = self.charge_rates(state, charger, bool(charger.joined), True)
        return rates[0] if rates is not None else None

    @staticmethod
    @implements(WHEEL_RULE, FAILED_CHARGE, MARCH_RULE)
    def _wheel_cut_short(state: GameState, unit: Unit, turned: float, target: Unit,
                         fly: bool) -> tuple[float, str | None]:
        """Return how far (degrees) a Failed Charge Move's wheel of ``turned`` goes, and what its sweep met (None:
        nothing, the whole wheel made).

        On the ground no model passes through another unit or Impassable Terrain (published.t9a-move): a wheel whose
        sweep meets one stops at the last clear part of the turn (found to within ``STOP_PRECISION`` degrees), and
        the move ends there.  A declared wheel's sweep was looked at as the charge was declared; the wheel towards a
        unit that fled is chosen after its flee and was not (round 55: the move wheeled through a rock).  A flier
        passes over.
        """
        own = {u.id for u in state.combined(unit.id)}
        spared = frozenset({target.id})
        first = None if fly else wheel_problem(state, unit, turned, own, spared)
        if first is None:
            return turned, None
        clear, barred = 0.0, turned
        while abs(barred - clear) > STOP_PRECISION:
            middle = (clear + barred) / 2
            if wheel_problem(state, unit, middle, own, spared) is None:
                clear = middle
            else:
                barred = middle
        return clear, first

    @staticmethod
    @implements(FLY_RULE, FAILED_CHARGE, MARCH_RULE)
    def _cut_short(state: GameState, unit: Unit, out: bool, ux: float, uy: float, step: float,
                   fly: bool) -> tuple[float, str | None]:
        """Return how far a Failed Charge move goes along (ux, uy), and what stopped it short (None: nothing).

        On the ground no model passes through another unit or Impassable Terrain, nor ends on a model
        (published.t9a-move): the move stops where its way is last clear (until round 42 it went the whole way and
        ended on, or walked through, a unit behind the one that fled).  A Flying one passes over them, never ends on
        them, and keeps Unit Spacing where it ends (published.t9a-fly).  A move in the open is measured once.

        Stopped short, it goes back 0.1" at a time to a legal place, then halves the last 0.1" until the place is
        known to within ``STOP_PRECISION``, and takes back the overlap the measuring forgives (``BASE_TOLERANCE``), so
        that bases stopped head-on touch (until session 46 it stopped at the 0.1" step, up to 0.1" short of where its
        way is last clear).  On the ground a shorter move's way is part of a longer one's, so this is the last clear
        place; a Flying move, which may pass over what it may not end on, stops at the nearest such edge."""
        host = host_of(state, unit)
        own = {unit.id, host.id, *(c.id for c in state.joined_to(host.id))} if out else \
            {u.id for u in state.combined(unit.id)}
        movers = [m for m in unit.models] if out else [m for _, m in member_models(state, unit)]

        def problem_at(inches: float) -> str | None:
            ends = [(m, (m.at[0] + ux * inches, m.at[1] + uy * inches)) for m in movers]
            return path_problem(state, ends, own, fly) or (spacing_problem(state, ends, own) if fly else None)

        first: str | None = None
        barred = step
        while step > 0:
            problem = problem_at(step)
            if problem is None:
                break
            first = first or problem
            barred, step = step, max(0.0, step - 0.1)  # (no move at all, at 0, is where it stands)
        if first is None:
            return step, None
        while barred - step > STOP_PRECISION:  # the last 0.1" halved: step legal, barred not
            middle = (step + barred) / 2
            if problem_at(middle) is None:
                step = middle
            else:
                barred = middle
        snug = step - BASE_TOLERANCE  # bases may overlap by the tolerance: back to where they touch, if legal there
        if snug > 0 and problem_at(snug) is None:
            step = snug
        return step, first  # back to its last legal place (0.0: it could not move)

    @staticmethod
    @implements("t9a.charge-out.own-rate", FLY_RULE, "t9a.leave.move")
    def charge_rates(state: GameState, unit: Unit, out: bool, fly: bool) -> tuple[int, int] | None:
        """Return the Advance and March Rates a charge uses, or None for a Flying charge the charger cannot make.

        A character charging out of his unit uses his own (t9a.charge-out.own-rate), flying by his own Fly as he may
        when he leaves (t9a.leave.move); a unit, its slowest model's, flying only when every model has Fly
        (published.t9a-fly).
        """
        if out:
            return fly_rates(unit) if fly else (advance_rate(unit), march_rate(unit))
        return unit_rates(state, unit, fly)

    @implements(SWIFTSTRIDE, "t9a.charge-out.own-rate", "t9a.join.part-of-unit")
    def swiftstride(self, state: GameState, unit: Unit, out: bool) -> tuple[bool, str]:
        """Say whether a charger rolls its Charge Range with Swiftstride, and why when that is not plain ("").

        A unit has Swiftstride only when every model in it has it (published.t9a-swiftstride), its joined characters
        too: one without it takes it from the combined unit.  A character charging out of a unit has his own, or may
        use the unit's as a charge bonus that applied to the unit he leaves (t9a.charge-out.own-rate).
        """
        key = rule_key("Swiftstride")
        if out:
            if key in self.effective_rules(state, unit.id):
                return True, ""
            host = host_of(state, unit)
            if any(rule_key(r) in self.effective_rules(state, host.id) for r in CHARGE_BONUS_RULES):
                return True, (f"{unit.id} charges with {host.id}'s Swiftstride, a charge bonus of the unit it leaves "
                              f"[t9a.charge-out.own-rate]")
            return False, ""
        members = state.combined(unit.id)
        lacking = [u.id for u in members if key not in self.effective_rules(state, u.id)]
        if not lacking:
            return True, ""
        if len(lacking) < len(members):
            return False, (f"{', '.join(lacking)} lacks Swiftstride, so {unit.id} rolls no extra charge die: a unit "
                           f"has it only when every model in it has it [{SWIFTSTRIDE}]")
        return False, ""

    def _must_flee(self, target: Unit) -> bool:
        """Say whether the charged unit's only Charge Reaction is Flee: it is fleeing already (and this ruleset flees)."""
        return self.flees_from_charges and target.has(Status.FLEEING)

    def _flees(self, reaction: str | None, target: Unit) -> bool:
        """Say whether the charged unit Flees: its player named Flee, or named nothing and it is fleeing already."""
        return reaction == "flee" or (reaction is None and self._must_flee(target))

    @implements(CHARGE_REACTIONS, FLEE_REACTION)
    def _flee_problem(self, state: GameState, target: Unit) -> Ruling:
        """Rule on a Flee Charge Reaction: not by a unit engaged in combat (it may only Hold), nor where no flee move is."""
        if not self.flees_from_charges:
            return Ruling.forbid(f"{target.id} cannot Flee: ruleset {self.name} has no flee move", FLEE_REACTION)
        if any(u.has(Status.ENGAGED) for u in state.combined(target.id)):
            return Ruling.forbid(f"{target.id} is engaged in combat: it may only Hold", CHARGE_REACTIONS, FLEE_REACTION)
        again = " (it fled from a charge this phase already, so it flees no further)" \
            if target.has(Status.FLED_FROM_CHARGE) else ""
        return Ruling.allow(f"{target.id} will Flee (its player's Charge Reaction){again}", CHARGE_REACTIONS,
                            FLEE_REACTION)

    @rolls_before_placing
    @implements("t9a.charge-out.stand-and-shoot", "t9a.charge-out.own-rate", "t9a.charge-out.success",
                "t9a.charge-out.failure", "t9a.charge-out.no-other-charges", FAILED_CHARGE)
    def resolve_charge(self, state: GameState, action: Charge, dice: Dice) -> Resolution:
        """Resolve a charge: the Charge Reaction (Stand and Shoot, or the Flee), the Charge Range roll, then the charge
        (at a unit that fled: caught and destroyed) or the Failed Charge move."""
        given = state
        start = rolls_made(dice)
        events: list[Event] = []  # a charger's Panic test, when Stand and Shoot calls for one
        skip = (start, start)  # the dice of that test, reported on its own event
        unit = state.unit(action.unit)
        target = state.unit(action.target)
        out = bool(unit.joined)
        host = host_of(state, unit)
        rules: list[str] = [*charge_rules(unit), *lone_rules(state, unit, target)]
        if out:
            others = [c for c in state.joined_to(host.id) if c.id != unit.id]
            state = state.replace_units(*(u.with_status(Status.NO_CHARGE) for u in [host, *others]))
            rules.append("t9a.charge-out.no-other-charges")
        # Stand and Shoot: every hit on the character charging out (t9a.charge-out.stand-and-shoot);
        # on a unit, shared as every shooting attack's hits are (published.t9a-distributing-hits)
        flees = self._flees(action.reaction, target)
        reaction, weapon, field = action.reaction, action.reaction_weapon, REACTION_WEAPON
        if flees:  # published.t9a-flee-reaction: it flees first, then the charger rolls to catch it where it ends
            rules += [CHARGE_REACTIONS, FLEE_REACTION]
            state, target, fled = self._flee_reaction(state, unit, target, dice)
            events.append(fled)
            if action.redirect is not None:  # published.t9a-redirect-charge: a Discipline test, at once
                new_target, redirect = self._redirect(state, action, unit, target, dice)
                events.append(redirect)
                rules.append(REDIRECT)
                if new_target is not None:
                    target, flees, reaction = new_target, False, action.redirect_reaction
                    weapon, field = action.redirect_reaction_weapon, REDIRECT_WEAPON
                    if self._flees(reaction, target):
                        state, target, more = self._both_flee(state, action, unit, target, dice)
                        events += more
                        flees = True
                    if target.id != action.target:  # a new charge, named with no wheel (``_redirected``)
                        action = action.model_copy(update={"wheel": None})
            skip = (start, rolls_made(dice))
            if flees and not target.alive:
                new = state.replace_units(*(u.with_status(Status.CHARGED)
                                            for u in [state.unit(unit.id), *charged_with(state, unit.id, out)]))
                return new, [*events, _charge_event(f"{unit.id}'s charge has no target: {target.id} fled off the table",
                                                    rules, dice, start, FLED_OFF, skip)]
        holds = reaction == "hold"  # the charged unit's player's Charge Reaction (published.t9a-charge-reactions)
        volley = self._stand_and_shoot(given, target, unit, weapon, field.split(".")[-1], action) \
            if takes_stand_and_shoot(target, reaction) and not flees \
            else None
        said = f"; {volley.said}" if volley is not None else ""
        if holds:
            rules.append(CHARGE_REACTIONS)
            said = f"; {target.id} holds (its player's Charge Reaction) [{CHARGE_REACTIONS}]"
        elif reaction is not None:
            rules.append(CHARGE_REACTIONS)
        if volley is not None:
            rules.append(STAND_AND_SHOOT)
            if WHO_CAN_SHOOT in volley.said:
                rules.append(WHO_CAN_SHOOT)
            if COVER in volley.said:
                rules.append(COVER)
            if SHOOTING_WEAPONS in volley.said:
                rules.append(SHOOTING_WEAPONS)
        event = partial(_charge_event, note=said)
        if volley is not None and volley.shooters:
            state = state.replace_units(*(u.with_status(Status.STOOD_AND_SHOT) for u in state.combined(target.id)))
            before = sum(len(u.models) for u in ([unit] if out else state.combined(unit.id)))
            if out:
                model = unit.models[-1]
                unsaved = stand_and_shoot(dice, volley.shooters, model.profile.t, model.profile.save,
                                          "t9a.charge-out.stand-and-shoot")
                rules.append("t9a.charge-out.stand-and-shoot")
                state, dead = take_wounds(state, [(unit, model)], unsaved)
                if dead:
                    state = remove_casualties(state, host.id, dead)
            else:
                state, dead, shared, spared = stand_and_shoot_at_unit(state, unit.id, volley.shooters, dice)
                if shared:
                    rules.append(DISTRIBUTING_HITS)
                if spared:
                    rules.append(COMMAND_GROUP)
            shots = said
            # what the shots did, told with them (round 31b: until then only the shots were told)
            said += f"; slain: {', '.join(dead)}" if dead else "; none slain"
            if out and unsaved and not dead:  # a wound that does not slay him is told too (round 54 noticed it unsaid)
                left = state.unit(unit.id).models[-1].wounds_left
                said += (f" ({model.name} takes {unsaved} unsaved wound{'s' * (unsaved != 1)}, {left} "
                         f"Wound{'s' * (left != 1)} left)")
            event = partial(_charge_event, note=said)
            if dead:
                survivor = current(state, unit.id)
                if not survivor.alive:
                    # the charger named once, with the shots that slew it (round 32: "hero is slain by Stand and
                    # Shoot; ...; slain: Hero" named a character charging out twice)
                    whole = " to the last model" if before > 1 else ""
                    volley_said = shots.removeprefix(f"; {target.id} stood and shot ")
                    return state, [_charge_event(f"{unit.id} is slain{whole} by the Stand and Shoot of {target.id} "
                                                 f"{volley_said}", rules, dice, start, SLAIN)]
                if survivor.id != unit.id:
                    rules.append("t9a.combined.last-survivor")
                unit = survivor
                if not out:
                    shot_at = rolls_made(dice)
                    state, panic = self.charger_panic(state, unit.id, before, dice, unit_centre(state, target.id))
                    if panic:
                        events.extend(panic)
                        skip = (shot_at, rolls_made(dice))
                    if state.unit(unit.id).has(Status.FLEEING):
                        rules.append(PANIC_RULE)
                        return state, [*events, event(
                            f"{unit.id} flees from the Stand and Shoot of {target.id}: its charge is not made",
                            rules, dice, start, FLED, skip)]
            unit = state.unit(unit.id)
            host = host_of(state, unit)
        swift, swift_said = self.swiftstride(state, unit, out)
        if swift or swift_said:
            rules.append(SWIFTSTRIDE)
        rates = self.charge_rates(state, unit, out, bool(action.fly)) or self.charge_rates(state, unit, out, False)
        assert rates is not None
        rate = rates[0]
        if action.fly:
            rules.append(FLY_RULE)
        roll = roll_charge(dice, rate, swift, unit.id)
        if swift_said:
            said = f"; {swift_said}{said}"
            event = partial(_charge_event, note=said)
        if out:
            rules.append("t9a.charge-out.own-rate")
        arc, way, wheel = 0.0, state, action.wheel
        combined = {u.id for u in state.combined(unit.id)}
        ahead = forward_charge(state, unit, target, wheel, rate + MAX_CHARGE_BONUS, combined, bool(action.fly),
                               not flees) \
            if forward_charger(given.unit(action.unit), out) else None  # with a front, as declared (t9a_forward)
        if isinstance(ahead, str) and flees:  # fled beyond the greatest Charge Range: how far it is all the same
            further = forward_charge(state, unit, target, wheel, math.inf, combined, bool(action.fly), False)
            ahead = further if isinstance(further, ForwardCharge) else ahead
        if isinstance(ahead, ForwardCharge):
            wheel = ahead.wheel or None
        if wheel is not None and not out:  # the one wheel of the charge move (published.t9a-wheel)
            f = formation_of(unit)
            arc = f.wheel_distance(wheel) if f is not None else 0.0
            way = wheeled(state, unit, wheel)
        if isinstance(ahead, ForwardCharge):
            reach = ahead.reach
        elif isinstance(ahead, str):  # no forward move reaches it (a target that fled out of its way)
            reach = math.inf
        else:
            reach = arc + group_distance(way.unit(unit.id).placed if out else placed_all(way, way.unit(unit.id)),
                                         target.placed)
        move = ahead.move if isinstance(ahead, ForwardCharge) else None
        if roll.range + EPSILON >= reach and flees:  # the charger catches the unit that fled: it is destroyed
            caught, where = self._caught(state, way, unit, target, out, bool(action.fly), move,
                                         wheel if arc else None)
            if where.startswith("moves") and out:
                rules.append("t9a.charge-out.success")
            rules.append(SHAKEN_RULE)  # Shaken for charging a Fleeing unit (CAUGHT_SHAKEN)
            if arc:  # its Charge Move's wheel, made or (its sweep not clear) not
                rules.append(WHEEL_RULE)
            return caught, [*events, event(f"{unit.id}'s charge reaches {target.id}, which fled: range {roll.range}\" >= "
                                           f"{reach:.2f}\"; {target.id} is caught and destroyed, and {unit.id} {where}",
                                           rules, dice, start, CAUGHT, skip)]
        if roll.range + EPSILON >= reach:
            dx, dy = move if move is not None else charge_contact(way, way.unit(unit.id), target, out)[:2]
            model = unit.models[0]
            to = (model.at[0] + dx, model.at[1] + dy)
            new = detach(state, unit, to) if out else shift_unit(way, way.unit(unit.id), dx, dy)
            new = new.replace_units(new.unit(unit.id).with_status(Status.CHARGED, Status.ENGAGED),
                                    new.unit(target.id).with_status(Status.ENGAGED),
                                    *charged_with(new, unit.id, out))
            if out:
                rules.append("t9a.charge-out.success")
            turn = f" after a {wheel:g} degree wheel ({arc:.2f}\")" if arc else ""
            if arc and action.wheel is None:
                turn = f" wheeling {wheel:g} degrees ({arc:.2f}\"{_SMALLEST})"
            if arc:
                rules.append(WHEEL_RULE)
            # the Target Facing is read where the charger's front stood as its Charge Move began, before its wheel
            # (t9a_forward); a character charging out, straight in, where he stood
            new, align = aligned(new, unit.id, host_of(state, state.unit(target.id)).id, state if move else way)
            if align:
                rules.append(CHARGE_ARC)
            return new, [*events, event(f"{unit.id} charges {target.id}{turn}: range {roll.range}\" >= "
                                        f"{reach:.2f}\"{align}", rules, dice, start, CHARGED, skip)]
        gap = reach if (arc or move) and reach < math.inf else \
            group_distance(unit.placed if out else placed_all(state, unit), target.placed)
        short = f"{roll.range}\" < {gap:.2f}\""
        if isinstance(ahead, str):  # no Charge Move reaches it within the greatest Charge Range: say why, not a gap
            short = f"{roll.range}\": moving forwards after at most one Wheel, it {ahead}"
        dx, dy = move if move is not None else charge_contact(state, unit, target, out)[:2]
        model = unit.models[0]
        rules.append("t9a.charge-out.failure" if out else FAILED_CHARGE)  # a unit's: the general rule
        failed = float(roll.failed_move)
        swept = None  # what the wheel's sweep meets, where it stops the move (published.t9a-move)
        if arc and wheel is not None:  # the Failed Charge move follows the wheel as far as it goes
            turned = wheel * min(1.0, failed / arc)
            made, swept = self._wheel_cut_short(state, unit, turned, target, bool(action.fly))
            state = wheeled(state, unit, made) if made else state
            unit = state.unit(unit.id)
            failed = 0.0 if swept else max(0.0, failed - arc * min(1.0, failed / arc))
            if move is None:
                dx, dy, _ = charge_contact(state, unit, target, out)
            rules.append(WHEEL_RULE)
        length = math.hypot(dx, dy)
        step = min(failed, max(0.0, length - 0.01))
        blocked = None  # what its way meets, where it stops short (published.t9a-move; flown: published.t9a-fly)
        if length > 0 and not swept:
            step, blocked = self._cut_short(state, unit, out, dx / length, dy / length, step, bool(action.fly))
        moves = f"moves {roll.failed_move}\""
        if swept:
            moves += f" but stops short after wheeling {made:.1f} degrees of {turned:g} ({swept})"
            rules.append(MARCH_RULE)
        elif blocked is not None:
            moves += f" but stops short after {step:.2f}\" ({blocked})"
            if not action.fly:
                rules.append(MARCH_RULE)
        dx, dy = (dx / length * step, dy / length * step) if length > 0 else (0.0, 0.0)
        if not out:
            new = shift_unit(state, unit, dx, dy)
            new = new.replace_units(*(u.with_status(Status.FAILED_CHARGE) for u in
                                      [new.unit(unit.id).with_status(Status.CHARGED), *charged_with(new, unit.id, out)]))
            return new, [*events, event(f"{unit.id} fails its charge ({short}) and {moves}"
                                        f"{NOT_SHAKEN}", rules, dice, start, FAILED_LEFT, skip)]
        to = (model.at[0] + dx, model.at[1] + dy)
        end = Placed(model.base, to, model.facing)
        rest = placed_all(state, host, skip=model.name)
        away = min((distance(end, p) for p in rest), default=math.inf)
        if away + EPSILON >= 1.0:
            rules.append(FAILED_CHARGE)  # what it tells of Shaken (NOT_SHAKEN)
            new = detach(state, unit, to)
            new = new.replace_unit(new.unit(unit.id).with_status(Status.CHARGED, Status.FAILED_CHARGE))
            return new, [*events, event(f"{unit.id} fails its charge ({short}), {moves} and "
                                        f"leaves {host.id}{NOT_SHAKEN}", rules, dice, start, FAILED_LEFT, skip)]
        members = [state.unit(host.id), *state.joined_to(host.id)]
        new = state.replace_units(*(u.with_status(Status.SHAKEN) for u in members))
        new = new.replace_unit(new.unit(unit.id).with_status(Status.CHARGED, Status.FAILED_CHARGE))
        return new, [*events, event(f"{unit.id} fails its charge ({short}); its {roll.failed_move}\" "
                                            f"Failed Charge move ends {away:.2f}\" from {host.id}, so it stays and the "
                                            "unit is Shaken until the end of the player turn", rules, dice, start,
                                            FAILED_STAYED, skip)]
