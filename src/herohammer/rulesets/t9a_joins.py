"""The 9th Age: a character joining a rank-and-file unit and leaving it (seed 002: t9a.join.*, t9a.leave.*).

A joined character stays a ``Unit`` of its own with ``joined`` naming its host, and stands in a slot of the
host's ``Formation`` (formations.py): ``JoinRules`` plans the slot, the move and the checks once, for the ruling
and the resolution alike (``JoinPlan``, ``LeavePlan``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..checks import LeadershipTestKind
from ..dice import Dice, rolls_made, rolls_since
from ..errors import IllegalActionError
from .. import movement
from ..formations import Formation, arrange, centre_file, front_rank_test, is_character, place_in_front_rank
from ..geometry import EPSILON, Placed, Point, box_gap, in_base_contact, nearest_in_rows, overlaps
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import Model, Status, Unit
from .base import LeadershipRuling, LeadershipSource, Resolution, Ruleset, places_as_ruled
from .t9a_units import (advance_rate, BUSY, fly_rates, formation_of, lent_by, march_rate, member_models, MOVED,
                        rallied, RALLY_RULE, why_moved)
from .t9a_moves import APART, detach, left_apart, path_problem, spacing_problem, SPACING_RULE, table_edge_problem
from .t9a_discipline import (BATTLE_STANDARD, discipline_test, GENERAL_RULE_ID, MARCH_RULE, march_test_enemies,
                             SHAKEN_RULE, shaken_refusal)

if TYPE_CHECKING:
    from ..actions import Charge, Join, Leave


FLY_RULE = "published.t9a-fly"


# -- plans shared by rule_ and resolve_ ------------------------------------------------
@dataclass(frozen=True)
class JoinPlan:
    """What a legal join does: the host's new formation and how far the character moves."""

    host: Unit
    character: Unit
    formation: Formation
    moved: float
    advance: int
    march: int
    #: Every model of the joined unit stands in a slot no smaller than its base: none can stand on another.
    in_slots: bool = False
    #: The state the join is made from: the character out of the unit he leaves to join (``JoinRules._leaving``).
    start: GameState | None = None
    #: What he leaves by the same move ("" if he was a lone character): the unit's name, as a leave says it.
    left: str = ""


def _rank_choice_rules(plan: JoinPlan) -> tuple[str, ...]:
    """Cite t9a.join.single-rank where the join made the player's choice: the unit stood in one full rank, widened
    or given a second rank for the displaced model (a judge asked which clause let the rank grow); a lone character
    joined by another is such a rank of one."""
    f = formation_of(plan.host)
    full_single = f is not None and f.single_rank and len(f.order) == f.files
    return ("t9a.join.single-rank",) if full_single else ()


@implements("t9a.join.deploy")
def _placed_not_moved(action: Join) -> None:
    """Refuse a Deployment's join that reads a move: a character deployed as part of a unit is placed in it (round 63:
    ``fly`` was ignored, for a model without Fly too, and a ``to`` point was ruled by t9a.join.move's base contact)."""
    if action.fly:
        raise _refuse("fly: a character deployed as part of a unit is placed in it, not moved: Deployment has no "
                      "Flying Movement (leave fly out)", "t9a.join.deploy")
    if action.to is not None:
        raise _refuse("to: a character deployed as part of a unit is placed in its first rank, not moved into base "
                      "contact: Deployment reads no contact point (leave to out; position names his file)",
                      "t9a.join.deploy")


@implements("t9a.join.character-units")
def _character_unit_rules(plan: JoinPlan) -> tuple[str, ...]:
    """Cite t9a.join.character-units where a character joins a character (a lone one, or the last survivor of a
    unit): the clause that lets them form a unit made only of characters (round 60: it was cited only by refusals
    and the leader's leave)."""
    return ("t9a.join.character-units",) if is_character(plan.host) else ()


@dataclass(frozen=True)
class _JoinBasis:
    """What every join of one character into one unit shares whatever the file (``NinthAge._join_basis``)."""

    character: Unit
    host: Unit
    #: The host's formation, its slots as wide and deep as the character's base at least.
    formation: Formation
    front: Callable[[str], bool]
    #: How many names the combined unit's models have.
    names: int
    #: The combined unit's models (host first), then the character's.
    models: tuple[Model, ...]
    #: The character and its new combined unit: the spacing and the paths leave them out.
    group: frozenset[str]
    advance: int
    march: int
    #: Each member stands in a slot of its own under one name: a join puts every model in a slot.
    regular: bool
    #: Regular, and every model on the character's base: the models stand on every slot of the new formation.
    uniform: bool
    #: Every base no wider nor deeper than the slots.
    fits: bool


@dataclass(frozen=True)
class LeavePlan:
    """What a legal leave does: how far the character moves."""

    host: Unit
    character: Unit
    moved: float
    advance: int


@implements("t9a.combined.last-survivor", "t9a.join.part-of-unit")
def _no_longer(plan: JoinPlan) -> str:
    """Say what becomes of a destroyed unit's name when its last survivor joins another unit ("" if it is none).

    The seed keeps the lone character that unit while he is left alone; joined to another unit he
    is part of that one (t9a.join.part-of-unit), so the destroyed unit's name names nothing more.
    """
    gone = plan.character.last_of
    return (f"{plan.character.id} was all that was left of {gone}; now part of {plan.host.id}, it is {gone} no more: "
            f"{gone} is gone from the table [t9a.combined.last-survivor]") if gone else ""


@implements("t9a.join.character-units", "t9a.leave.unit-not-moved")
def _unit_left(state: GameState, plan: LeavePlan) -> tuple[str, str, str]:
    """Say what a character leaves: the unit's name, what its leave's event says of the unit left, the check's note.

    A character who leads a unit of characters (the one the others joined) leaves it to the next, who leads it on
    (the unit stays: ``detach``); the unit is not his name any more, and he, who moves, is not the one unmoved
    (round 35: "hero leaves hero; hero has not moved"). The leave does not make the unit left count as having moved
    (t9a.leave.unit-not-moved); a character who moved to join it this phase has moved all the same
    (t9a.join.moved-separately).
    """
    ch, host = plan.character, plan.host
    if host.id != ch.id:
        return host.id, f"{host.id} has not moved", f"{host.id} does not count as having moved"
    heir = state.joined_to(ch.id)[0]
    if any(heir.has(s) for s in MOVED):
        return ("the unit of characters he led", f"{heir.id} leads it now (he moved to join it this phase)",
                f"{heir.id} leads the unit on: the leave does not count as its move, but {heir.id} moved to join it "
                "this phase")
    return ("the unit of characters he led", f"{heir.id} leads it now and has not moved",
            f"{heir.id} leads the unit on and does not count as having moved")


@implements("t9a.join.moved-separately", RALLY_RULE)
def _moved_apart_note(host: Unit, marched: bool) -> str:
    """Say, in a ruling on a join, how the character and the unit count as having moved: apart.  His join makes the
    unit count as having moved no more than it had; a unit that moved or marched this turn before he joined it still
    has (judge round 51: it was told "the unit does not" of a unit that had marched)."""
    own = "it counts as having marched" if marched else "it counts as having moved"
    if not any(host.has(s) for s in (Status.MOVED, Status.MARCHED)):
        # round 66: the plain case said the clause's words without its id, and the ruling did not cite it
        return f"{own}; the unit does not [t9a.join.moved-separately]"
    if rallied(host):  # round 61: it was told "marched this turn on its own move" of a unit that had only rallied
        return (f"{own}; {host.id} rallied this turn and counts as having marched, apart from him "
                f"[{RALLY_RULE}, t9a.join.moved-separately]")
    done = "marched" if host.has(Status.MARCHED) else "moved"
    return (f"{own}; {host.id} {done} this turn on its own move before he joined it, and counts as having {done} "
            "[t9a.join.moved-separately]")


STOPS_NOTE = "the unit cannot move again this Movement phase [t9a.join.unit-stops]"


@implements("t9a.join.unit-stops", SHAKEN_RULE, "t9a.charge-out.failure")
def _stops_said(state: GameState, ch: Unit, host: Unit) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Say, in a ruling on a join, that the unit joined moves no more this phase, and the rules beyond the clause.

    Judge round 67: a unit Shaken by its character's failed charge out (t9a.charge-out.failure), which has not moved,
    could make no Advance or March move at all (published.t9a-shaken): it was told it "cannot move again".  And the
    joiner is not Shaken: the failed charge Shakes the models then in the unit (2022 text, Charging out of a Unit: "all
    models in the Combined Unit are Shaken until the end of the Player Turn"), and a join is not among what makes a
    model Shaken (Shaken page); the unit stays Shaken, so it does not shoot, him with it (round 57)."""
    # read on every join legal_actions offers: one loop over the status sets, Shaken first (round 67, bench)
    for u in state.combined(host.id):
        if Status.SHAKEN in u.status:
            break
    else:
        return (STOPS_NOTE,), ()
    if not host.status.isdisjoint(MOVED):
        return (STOPS_NOTE,), ()
    return ((f"{host.id} is Shaken (a failed charge out left every model in it so) and could make no Advance or March "
             f"move this Movement phase; the join stops it all the same [t9a.join.unit-stops, {SHAKEN_RULE}]",
             f"{ch.id} is not Shaken: a failed charge out Shakes the models in the unit then, not one who joins it "
             f"after; {host.id} stays a Shaken unit and does not shoot, {ch.id} with it [{SHAKEN_RULE}]"),
            (SHAKEN_RULE, "t9a.charge-out.failure"))


def _refuse(reason: str, *rules: str) -> IllegalActionError:
    return IllegalActionError(reason, rules)


@implements("t9a.leave.when", "t9a.join.part-of-unit")
def leave_refusal(state: GameState, ch: Unit, host: Unit) -> IllegalActionError | None:
    """Say why a character in ``host`` cannot move out of it now (None if he can): he must "move at all", not
    engaged, fleeing, Shaken, nor moved already this turn, by his own move or with the unit (round 30)."""
    for s in BUSY:
        if ch.has(s) or host.has(s):
            return _refuse(f"{ch.id} is {s.value.replace('_', ' ')} and cannot move", "t9a.leave.when")
    if shaken := shaken_refusal(state, ch, "leave its unit (a leave is its Advance or March move)", False):
        return _refuse(shaken.reason, "t9a.leave.when", *shaken.rules)
    if any(ch.has(s) for s in MOVED):
        said, rally = why_moved(ch, f"{ch.id} has already moved this turn" + (
            " (it charged, out of its unit or with it)" if ch.has(Status.CHARGED) else ""))
        return _refuse(said, "t9a.leave.when", *rally)
    if host.id != ch.id and any(host.has(s) for s in MOVED):
        # the unit moved, marched or charged this turn: its character moved with it, or moved to join it after
        # (round 30: a scenario may write the status on the unit alone)
        said, rally = why_moved(host, f"{ch.id} has already moved this turn: {host.id}, the unit it is part of, "
                                f"{'charged' if host.has(Status.CHARGED) else 'moved'} this turn, and it moved "
                                "with it (or moved to join it after)")
        return _refuse(said, "t9a.leave.when", "t9a.join.part-of-unit", *rally)
    return None


@implements("t9a.join.move", "published.t9a-failed-charge", "published.t9a-move")
def _charged_refusal(ch: Unit) -> IllegalActionError:
    """Refuse the join of a character who charged this player turn and is engaged in nothing: his charge was his move,
    as a charger does not move in the Movement phase (published.t9a-move), and a unit that made a Failed Charge Move
    (out of his unit, t9a.charge-out.failure, or alone) makes no other move that player turn
    (published.t9a-failed-charge), cited when his charge failed.  Round 42: the refusal said "already moved" citing the
    join clause alone, which asks only for a move into base contact; his next Movement phase he joins, his own unit
    too.  Round 45: one whose charge caught a unit that fled was refused for a Failed Charge Move he did not make."""
    if ch.has(Status.FAILED_CHARGE):
        return _refuse(f"{ch.id} charged this turn (its Failed Charge Move was its move of the player turn) and makes "
                       "no other move before its next Movement phase: a join is a move into base contact",
                       "t9a.join.move", "published.t9a-failed-charge", "published.t9a-move")
    return _refuse(f"{ch.id} charged this turn (its charge was its move of the player turn) "
                   "and makes no other move before its next Movement phase: a join is a move into base contact",
                   "t9a.join.move", "published.t9a-move")


class JoinRules(Ruleset):
    """A character joining a unit and leaving it (the join and leave actions of both phases that allow them)."""

    # -- the Discipline a unit tests on, and the March Test ---------------------------------
    def lent_value(self, state: GameState, unit_id: str, model_name: str) -> tuple[tuple[str, ...], str]:
        """A joined character's value is his unit's for its tests: t9a.join.part-of-unit (``t9a_units.lent_by``)."""
        return lent_by(state, unit_id, model_name)

    def lent_leadership(self, state: GameState, unit_id: str, apart: bool = False) -> tuple[LeadershipSource, ...]:
        """Return the Leadership a unit may take instead of its own for a Discipline test (a hook): the General's within
        12" (published.t9a-general), which the turn's phases, above this module, work out.  Here: none.  ``apart``: the
        unit is a character charging out, a unit of his own, not of the unit he leaves."""
        return ()

    @implements("core.test.highest-value", "core.test.leadership-choice", GENERAL_RULE_ID)
    def discipline_ruling(self, state: GameState, unit: Unit) -> LeadershipRuling:
        """Return the Discipline a unit takes a Discipline test of its own on (a charge's redirect, a March Test): the
        highest of its models and joined characters', or the General's within 12" when higher (Commanding Presence,
        ``lent_leadership``).  A character still joined (charging out) is a unit of his own: his own Discipline, and a
        General in the unit he leaves is a friend near him (round 30)."""
        if unit.joined:
            model = unit.models[0]
            ld = self.unit_leadership([LeadershipSource(model.name, model.profile.ld, True)])
        else:  # a joined character's, higher, is the unit's: t9a.join.part-of-unit cited (round 56)
            ld = self.with_lent(state, unit.id, self.leadership_of(state, unit.id))
        lent = self.lent_leadership(state, unit.id, apart=bool(unit.joined))
        if lent and max(s.leadership for s in lent) > ld.value:
            best = max(lent, key=lambda s: s.leadership)
            ld = LeadershipRuling(best.leadership, GENERAL_RULE_ID, f"{best.name}, the General within 12\"")
        return ld

    @implements(MARCH_RULE, "core.test.leadership", BATTLE_STANDARD)
    def march_test(self, state: GameState, mover: Unit, dice: Dice) -> Event | None:
        """Take the March Test a March Move owes when a non-Fleeing enemy unit stands within 8" of the mover (the 2022
        text, Moving Units: "the unit must take a Discipline Test, called a March Test"); None when it owes none.

        ``mover``: the unit that marches (its joined characters with it), or a character marching alone to join or to
        leave a unit, who tests on his own.  Decision: it is rolled only for a March, the one move its result can
        change (failed, "the unit cannot perform a March Move during this Movement Phase (it can perform any other
        type of move as normal, or choose not to move at all)"), so the caller leaves a failed mover where it stands
        (``march_failed``), free to Advance, Reform or stay.  A Discipline test like any: the highest Discipline, a
        joined character's too, or the General's within 12"; re-rolled within the Battle Standard Bearer's reach.
        """
        near = march_test_enemies(state, mover)
        if not near:
            return None
        start = rolls_made(dice)
        ld = self.discipline_ruling(state, mover)
        # the roll log names the test the text names: a March Test, a Discipline test (published.t9a-move)
        result, flag = discipline_test(state, mover.id, dice, ld.value, LeadershipTestKind.LEADERSHIP,
                                       purpose=f"March Test, a Discipline test (Ld {ld.value})", rule=MARCH_RULE)
        said = (f"{mover.id} takes a March Test, {', '.join(near)} being within 8\" and not Fleeing: {result.roll} on "
                f"Ld {ld.value} ({ld.source})")
        if flag:
            said += f" ({flag})"
        if result.passed:
            said += ", passed: it marches"
        else:
            said += (", failed: it cannot March this Movement Phase and does not move (it may still make an Advance "
                     "move, Reform or stay)")
        rules = (MARCH_RULE, result.rule, *ld.rules, *((BATTLE_STANDARD,) if flag else ()))
        return Event("march_test", said, tuple(dict.fromkeys(rules)), rolls_since(dice, start),
                     (("outcome", "passed" if result.passed else "failed"),))

    @implements(MARCH_RULE)
    def march_failed(self, state: GameState, movers: list[Unit], test: Event) -> Resolution:
        """Leave movers that failed their March Test where they stand, marked so until the phase ends."""
        return state.replace_units(*(u.with_status(Status.MARCH_TEST_FAILED) for u in movers)), [test]

    def march_test_note(self, state: GameState, mover: Unit) -> str:
        """Say, in a ruling on a March, the March Test it will first take ("" when none is owed)."""
        near = march_test_enemies(state, mover)
        if not near:
            return ""
        ld = self.discipline_ruling(state, mover)
        return (f"first a March Test on Ld {ld.value} ({ld.source}), {', '.join(near)} being within 8\" and not "
                "Fleeing: if it fails, it does not move and may not March this phase")

    # -- joining -----------------------------------------------------------------
    @places_as_ruled
    def rule_join(self, state: GameState, action: Join) -> Ruling:
        """Rule on a character joining a unit (t9a.join.*).

        The plan keeps 1" from every other unit (Unit Spacing), so the joined unit can stand on
        another unit's model only if its own models overlap: never when each stands in a slot
        no smaller than its base (``JoinPlan.in_slots``); otherwise the join is resolved and
        its bases are checked as every placing action's are.
        """
        plan = self.plan_join(state, action)
        if not plan.in_slots:
            after = self._joined(plan.start or state, plan)[0]
            if problem := movement.overlap_problem(state, after):
                return Ruling.forbid(problem, "published.bases-apart")
        where = f"file {plan.formation.front_rank().index(plan.character.models[0].name)} of the first rank"
        if state.phase is Phase.DEPLOYMENT:
            return Ruling.allow(f"{plan.character.id} is deployed as part of {plan.host.id} ({where})",
                                "t9a.join.deploy", "t9a.join.position", "t9a.char.front-rank",
                                *_character_unit_rules(plan))
        marched = plan.moved > plan.advance + EPSILON
        note = _moved_apart_note(plan.host, marched)
        test = self.march_test_note(plan.start or state, plan.character) if marched else ""
        gone = _no_longer(plan)
        out = f"leaves {plan.left} and " if plan.left else ""
        stops, shaken = _stops_said(plan.start or state, plan.character, plan.host)
        return Ruling.allow(
            f"{plan.character.id} {out}joins {plan.host.id}, moving {plan.moved:.2f}\" of its {plan.march}\" "
            f"(file {plan.formation.front_rank().index(plan.character.models[0].name)} of the first rank)",
            "t9a.join.move", "t9a.join.position", "t9a.char.front-rank", "t9a.join.unit-stops",
            "t9a.join.moved-separately", *_rank_choice_rules(plan),
            *_character_unit_rules(plan), *(("t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved") if plan.left else ()),
            *((FLY_RULE,) if action.fly else ()),
            *(("t9a.combined.last-survivor",) if gone or plan.host.last_of else ()),
            *((MARCH_RULE, "core.test.leadership") if test else ()), *((RALLY_RULE,) if rallied(plan.host) else ()),
            *shaken, notes=(*((test,) if test else ()), note, *stops, *((gone,) if gone else ()),
                   *((f"{plan.left} does not count as having moved [t9a.leave.unit-not-moved]",) if plan.left else ())))

    def plan_join(self, state: GameState, action: Join) -> JoinPlan:
        """Work out a join or refuse it, once per state and action: ruling on a join and resolving it both ask."""
        from ..actions import action_key

        key = (type(self), "plan_join", action_key(action))
        return state.remember(key, lambda: self._plan_join(state, action))

    def _join_basis(self, state: GameState, character: str, unit: str) -> _JoinBasis | IllegalActionError:
        """What every join of this character into this unit shares, or why none is allowed: once per state.

        Listing legal actions proposes a join for each file of each unit; who may join whom,
        the unit's slots and its members do not depend on the file.
        """
        key = (type(self), "join basis", character, unit)
        return state.remember(key, lambda: self._work_out_join_basis(state, character, unit))

    @implements("t9a.join.move", "t9a.join.forbidden", "t9a.join.character-units", "t9a.join.position",
                "published.t9a-move")
    def _work_out_join_basis(self, state: GameState, character: str, unit: str) -> _JoinBasis | IllegalActionError:
        """Refuse a join whatever its file (as the refusal, not raised: it is remembered), or say what every file shares."""
        try:
            ch = state.unit(character)
            host = state.unit(unit)
        except IllegalActionError as exc:
            return exc
        if not is_character(ch):
            return _refuse(f"{ch.id} is not a character; only characters join units", "t9a.char.universal")
        if host.side != ch.side:  # in its own turn: the turn sequence has refused it before any join is ruled
            return _refuse(f"{ch.id} may join only a unit of its own side ({host.id} is {host.side}'s)", "t9a.join.move")
        if not host.alive or not ch.alive:
            gone = ch if not ch.alive else host
            return _refuse(f"both the character and the unit must be on the table ({gone.id} has no models left)",
                           "t9a.join.move", "core.zero.w")
        if ch.joined is not None and state.phase is Phase.DEPLOYMENT and ch.joined != host.id:
            # Deployment has no leave (t9a.leave.when): a placement is taken back, not left (round 63)
            return _refuse(f"{ch.id} is already deployed as part of {ch.joined}: undo that placement to deploy him "
                           f"in {host.id} (Deployment has no leave)", "t9a.join.part-of-unit", "t9a.join.deploy")
        if ch.joined is not None:
            return _refuse(f"{ch.id} is already part of {ch.joined}" + (
                "" if ch.joined == host.id else "; it must leave it first"), "t9a.join.part-of-unit")
        if led := state.joined_to(ch.id):
            return _refuse(f"{ch.id} leads a unit of characters ({', '.join(c.id for c in led)} joined it): it is part "
                           "of that unit and must leave it first", "t9a.join.part-of-unit", "t9a.join.character-units")
        if host.id == ch.id:
            return _refuse(f"{ch.id} cannot join itself: it joins another unit, or another character joins it",
                           "t9a.join.character-units")
        if host.joined is not None:
            return _refuse(f"{host.id} is part of {host.joined}: join {host.joined}, the unit it is part of",
                           "t9a.join.character-units", "t9a.join.part-of-unit")
        for s in BUSY:
            if host.has(s):
                return _refuse(f"{host.id} is {s.value.replace('_', ' ')}: no character can join it", "t9a.join.forbidden")
            if ch.has(s):
                # the character's own state: a join is his move into base contact (t9a.join.move), which an engaged
                # or fleeing character, a unit of his own (t9a.char.lone), cannot make (published.t9a-move)
                return _refuse(f"{ch.id} is {s.value.replace('_', ' ')} and cannot move to join (a join is a move "
                               f"into base contact, t9a.join.move)", "t9a.join.move", "t9a.join.forbidden",
                               "t9a.char.lone", "published.t9a-move")
        if shaken := shaken_refusal(state, ch, "join a unit (a join is its Advance or March move)", False):
            return _refuse(shaken.reason, "t9a.join.move", *shaken.rules)
        if ch.has(Status.CHARGED):
            return _charged_refusal(ch)
        if any(ch.has(s) for s in MOVED):
            # round 67: his move of the phase is spent, a leave out of a unit too (no leave and rejoin in one phase,
            # 2022 text); one move a Movement phase is published.t9a-move's, which the refusal did not cite
            said, rally = why_moved(ch, f"{ch.id} has already moved this turn: a join is its Advance or March move, "
                                    "and it has made its one move of the phase (its own, or a leave out of a unit: "
                                    "it does not leave a unit and join one again in the same phase)")
            return _refuse(said, "t9a.join.move", *(rally or ("published.t9a-move",)))
        f = formation_of(host)
        if f is None:
            return _refuse(f"{host.id} has no formation (ranks and files) to join", "t9a.join.position")
        model = ch.models[0]
        f = f.resized((max(f.slot_mm[0], model.base.width_mm), max(f.slot_mm[1], model.base.depth_mm)))
        front = state.remember(("t9a front rank test", host.id), lambda: front_rank_test(state, host))
        members = [m for _, m in member_models(state, host)]
        names = {m.name for m in members}
        if model.name in names:  # the formation's slots are kept by name (as load refuses such a unit)
            owner = next((u.id for u, m in member_models(state, host) if m.name == model.name), host.id)
            return _refuse(f"{host.id} already has a model named {model.name!r} (of {owner}): {ch.id}'s model of "
                           f"that name joined, one unit would hold two, which its slots, actions and rulings could "
                           f"not tell apart; give one its own name in the scenario file", "t9a.join.position")
        joined = (*members, model)
        # each member one slot of its own: every join places them all, in a new order of the same slots and one more
        regular = len(names) == len(members) == len(f.order) and names == set(f.order)
        return _JoinBasis(ch, host, f, front, len(names), joined,
                          frozenset({ch.id, *(u.id for u in state.combined(host.id))}),
                          advance_rate(ch), march_rate(ch), regular,
                          regular and all(m.base == model.base for m in members),
                          all(m.base.width_mm <= f.slot_mm[0] and m.base.depth_mm <= f.slot_mm[1] for m in joined))

    @implements("t9a.join.move", "t9a.join.position", "t9a.join.single-rank")
    def _plan_join(self, state: GameState, action: Join) -> JoinPlan:
        """Work out a join or refuse it: who may join whom, where the character stands, and whether it can reach.

        A character in a unit joins another by one move out of it (``_leaving``): the join is planned from the
        state he stands in out of it, his path ignoring its models (t9a.leave.move)."""
        origin = state
        if state.phase is Phase.DEPLOYMENT:
            _placed_not_moved(action)
        state, left, left_ids = self._leaving(state, action)
        basis = self._join_basis(state, action.character, action.unit)
        if isinstance(basis, IllegalActionError):
            raise _refuse(basis.reason, *basis.rules)
        ch, host, f, model = basis.character, basis.host, basis.formation, basis.models[-1]
        advance, march = basis.advance, basis.march
        if action.fly and state.phase is not Phase.DEPLOYMENT:  # a Flying Movement: its rates (published.t9a-fly)
            rates = fly_rates(ch)
            if rates is None:
                raise _refuse(f"{ch.id} has no Fly special rule: it cannot join by a Flying Movement",
                              "t9a.join.move", FLY_RULE)
            advance, march = rates
        file = action.position if action.position is not None else centre_file(f, basis.front)
        new = place_in_front_rank(f, model.name, file, basis.front, action.rank_choice)
        points = new.slot_points
        slot = points[model.name]
        start = model.at
        moved = 0.0
        if action.to is not None:
            to_placed = Placed(model.base, action.to, model.facing)
            others = [m.placed for m in host.models] + [m.placed for c in state.joined_to(host.id) for m in c.models]
            if not any(in_base_contact(to_placed, o, 0.05) for o in others):
                raise _refuse(f"{action.to} is not in base contact with {host.id}: a character joins by moving "
                              "into base contact", "t9a.join.move")
            moved += math.dist(start, action.to)
            start = action.to
        moved += math.dist(start, slot)
        if basis.uniform:  # one base in every slot of the new order: the same places whatever the order
            shape = (new.position, new.facing, new.files, new.slot_mm, len(new.order))

            def ends() -> list[tuple[Model, Point]]:
                return [(m, points[m.name]) for m in basis.models]

            problem = state.remember(("t9a join spacing", basis.group, model.base, shape),
                                     lambda: spacing_problem(state, ends(), set(basis.group), new.facing))
            # whether a slot is off the table is looked at once too; the model a refusal names is this order's
            off_anywhere = state.remember(("t9a join table edge", basis.group, model.base, shape),
                                          lambda: table_edge_problem(state, ends()) is not None)
            off = table_edge_problem(state, ends()) if off_anywhere else None
            in_slots = basis.fits
        else:
            placed = [(m, points[m.name]) for m in basis.models if m.name in points]
            problem = spacing_problem(state, placed, set(basis.group), new.facing)
            off = table_edge_problem(state, placed)
            slot_w, slot_d = new.slot_mm
            in_slots = len(placed) == basis.names + 1 == len(new.order) == len(set(new.order)) and all(
                m.base.width_mm <= slot_w and m.base.depth_mm <= slot_d for m, _ in placed)
        if problem:
            raise _refuse(f"{ch.id} cannot join {host.id} in file {file}: the unit {problem}", "t9a.join.position",
                          SPACING_RULE)
        if off:
            raise _refuse(f"{ch.id} cannot join {host.id} in file {file}: {off}", "t9a.join.position",
                          "published.t9a-move")
        if state.phase is Phase.DEPLOYMENT:  # placed in the unit, not moved (t9a.join.deploy)
            return JoinPlan(host, ch, new, 0.0, basis.advance, basis.march, in_slots)
        own = set(basis.group) | left_ids  # and the models of the unit he leaves (t9a.leave.move)
        legs = [(model.at, action.to), (action.to, slot)] if action.to is not None else [(model.at, slot)]
        for a, b in legs:
            problem = path_problem(state, [(model if a == model.at else model.moved_to(a), b)], own, action.fly)
            if problem:
                raise _refuse(f"{ch.id} cannot join that way: {problem} (it moves through the unit it joins, and "
                              "no other)", "t9a.join.position", "published.t9a-move",
                              *((FLY_RULE,) if action.fly else ()))
        if moved > march + EPSILON:
            raise _refuse(f"{ch.id} would move {moved:.2f}\" to reach file {file} of {host.id}'s first rank, "
                          f"more than its {'flying ' if action.fly else ''}March Rate {march}\"; it cannot join there",
                          "t9a.join.position", *((FLY_RULE,) if action.fly else ()))
        if moved > advance + EPSILON and ch.has(Status.MARCH_TEST_FAILED):
            raise _refuse(f"{ch.id} failed his March Test this Movement Phase: he cannot March to join, only move "
                          f"up to his Advance Rate {advance}\"", "t9a.join.move", MARCH_RULE, "core.test.leadership")
        return JoinPlan(host, ch, new, moved, advance, march, in_slots, state if state is not origin else None, left)

    @implements("t9a.leave.when", "t9a.leave.move", "t9a.join.move")
    def _leaving(self, state: GameState, action: Join) -> tuple[GameState, str, frozenset[str]]:
        """Return the state a character joins from, what he leaves by that move and its units' ids.

        A character in a unit (or leading a unit of characters) joins another by one Advance or March move out of it
        into contact with the other: he "can leave ... in the Movement phase, if it can move at all" (t9a.leave.when),
        and joins "by moving into base contact with it in the Movement phase" (t9a.join.move); the 2022 text bars only
        a rejoin of the unit left in the same phase, which his leave, his move, bars already.  Decision (round 38):
        one join action does both; before, he was told to leave first, and his leave was his move.  The unit he leaves
        does not count as having moved (t9a.leave.unit-not-moved).  Anyone else joins from where he stands.
        """
        ch = state.unit(action.character)
        led = ch.joined is None and is_character(ch) and bool(state.joined_to(ch.id))
        if state.phase is not Phase.MOVEMENT or not ch.alive or (ch.joined is None and not led):
            return state, "", frozenset()
        host = state.unit(ch.joined) if ch.joined else ch
        group = frozenset(u.id for u in state.combined(host.id))
        if action.unit in group:
            return state, "", frozenset()  # his own unit: the basis refuses it
        if refusal := leave_refusal(state, ch, host):
            raise _refuse(f"{ch.id} cannot leave {host.id if ch.joined else 'the unit of characters he leads'} to "
                          f"join {action.unit}: {refusal.reason}", *refusal.rules, "t9a.join.move")
        out = state.remember((type(self), "out to join", ch.id), lambda: detach(state, ch, ch.models[0].at))
        return out, host.id if ch.joined else "the unit of characters he led", group

    @places_as_ruled
    def resolve_join(self, state: GameState, action: Join, dice: Dice) -> Resolution:
        """Join: the character takes its slot, the unit stops, each counts as moved (or marched) separately."""
        plan = self.plan_join(state, action)
        test = None
        if state.phase is not Phase.DEPLOYMENT and plan.moved > plan.advance + EPSILON:  # his March: its test first
            test = self.march_test(plan.start or state, plan.character, dice)
            if test is not None and dict(test.data)["outcome"] == "failed":  # he stays where he stood (in his unit)
                return self.march_failed(state, [state.unit(plan.character.id)], test)
        new, events = self._joined(plan.start or state, plan)
        events = ([test] if test is not None else []) + events
        if action.fly and state.phase is not Phase.DEPLOYMENT:  # by a Flying Movement (published.t9a-fly)
            events = [e._replace(message=f"{e.message} (a Flying Movement)", rules=(*e.rules, FLY_RULE))
                      if e.kind == "join" else e for e in events]
        return new, events

    @implements("t9a.join.unit-stops", "t9a.join.moved-separately", "t9a.join.part-of-unit", "t9a.join.deploy",
                "t9a.combined.last-survivor")
    def _joined(self, state: GameState, plan: JoinPlan) -> Resolution:
        """Carry out a planned join (no dice decide it)."""
        if state.phase is Phase.DEPLOYMENT:
            ch = replace(plan.character, joined=plan.host.id, formation=None)
            new = arrange(state.replace_units(ch, replace(plan.host, formation=plan.formation)), plan.host.id)
            return new, [Event("join", f"{ch.id} is deployed as part of {plan.host.id}, in its first rank",
                               ("t9a.join.deploy", "t9a.join.position", "t9a.char.front-rank",
                                *_character_unit_rules(plan)))]
        marched = plan.moved > plan.advance + EPSILON
        ch = plan.character.with_status(Status.MOVED, *((Status.MARCHED,) if marched else ()))
        # a last survivor that joins another unit is part of it, no longer the destroyed unit (t9a.combined.last-survivor)
        ch = replace(ch, joined=plan.host.id, formation=None, last_of=None)
        host = replace(plan.host, formation=plan.formation).with_status(Status.HALTED)
        new = arrange(state.replace_units(ch, host), host.id)
        out = f"leaves {plan.left} and " if plan.left else ""
        _, shaken = _stops_said(state, plan.character, plan.host)
        stops = (f"{host.id}, Shaken, could not move this phase and moves no more; {ch.id} is not Shaken" if shaken
                 else f"{host.id} cannot move again this phase")
        msg = (f"{ch.id} {out}joins {host.id} in the first rank ({'marched' if marched else 'moved'} "
               f"{plan.moved:.2f}\"); {stops}" + (f"; {plan.left} has not moved" if plan.left else ""))
        gone = _no_longer(plan)
        return new, [Event("join", msg + (f"; {gone}" if gone else ""), (
            "t9a.join.move", "t9a.join.position", "t9a.join.unit-stops", "t9a.join.moved-separately", *shaken,
            *(("t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved") if plan.left else ()),
            *_rank_choice_rules(plan), *_character_unit_rules(plan),
            *(("t9a.combined.last-survivor",) if gone or plan.host.last_of else ())))]

    # -- leaving ----------------------------------------------------------------
    @places_as_ruled
    def rule_leave(self, state: GameState, action: Leave) -> Ruling:
        """Rule on a character leaving its unit (t9a.leave.*).

        The plan keeps the character 1" from every other unit and from its own; its unit re-forms
        without it, and when every model keeps a slot no smaller than its base and the few that
        shift stand clear of everyone (``left_apart``) no base can end on another; otherwise the
        leave is resolved and its bases are checked as every placing action's are.
        """
        plan = self.plan_leave(state, action)
        if not left_apart(state, plan.character, action.to):
            # where the leave would end, March Test or not (a failed test leaves him where he stands)
            if problem := movement.overlap_problem(state, self._left(state, action, plan)[0]):
                return Ruling.forbid(problem, "published.bases-apart")
        test = self.march_test_note(state, plan.character) if plan.moved > plan.advance + EPSILON else ""
        left, _, note = _unit_left(state, plan)
        led = plan.host.id == plan.character.id
        return Ruling.allow(f"{plan.character.id} leaves {left}, moving {plan.moved:.2f}\"",
                            "t9a.leave.when", "t9a.leave.move", *((MARCH_RULE, "core.test.leadership") if test else ()),
                            *(("t9a.join.character-units",) if led else ()),
                            notes=(*((test,) if test else ()), f"{note} [t9a.leave.unit-not-moved]"))

    def plan_leave(self, state: GameState, action: Leave) -> LeavePlan:
        """Work out a leave or refuse it, once per state and action: ruling on a leave and resolving it both ask."""
        from ..actions import action_key

        key = (type(self), "plan_leave", action_key(action))
        return state.remember(key, lambda: self._plan_leave(state, action))

    @implements("t9a.leave.when", "t9a.leave.move", "published.t9a-leave-1inch", "t9a.charge-out.declare")
    def _plan_leave(self, state: GameState, action: Leave) -> LeavePlan:
        """Work out a leave or refuse it: only a character free to move, ignoring its own unit's models."""
        ch = state.unit(action.character)
        if not ch.alive:
            raise _refuse(f"{ch.id} has no models left: it is not on the table to leave a unit", "t9a.leave.when")
        if ch.joined is None and not (is_character(ch) and state.joined_to(ch.id)):
            raise _refuse(f"{ch.id} is not part of a unit; it moves as a unit of its own", "t9a.char.lone")
        host = state.unit(ch.joined) if ch.joined else ch  # any character may leave a unit of characters
        if refusal := leave_refusal(state, ch, host):
            raise refusal
        if state.phase is Phase.CHARGE:
            raise _refuse(f"{ch.id} leaves its unit in the Charge phase only by charging out of it (declare a charge "
                          "with it); a move out of the unit is an Advance or March move of the Movement phase",
                          "t9a.leave.when", "t9a.charge-out.declare")
        rates = fly_rates(ch) if action.fly else (advance_rate(ch), march_rate(ch))
        if rates is None:
            raise _refuse(f"{ch.id} has no Fly special rule", "t9a.leave.move")
        model = ch.models[0]
        moved = math.dist(model.at, action.to)
        adv, mar = rates
        if moved > mar + EPSILON:
            raise _refuse(f"{ch.id} would move {moved:.2f}\", more than its {'flying ' if action.fly else ''}March "
                          f"Rate {mar}\"", "t9a.leave.move")
        if moved > adv + EPSILON and ch.has(Status.MARCH_TEST_FAILED):
            raise _refuse(f"{ch.id} failed his March Test this Movement Phase: he cannot March out of {host.id}, only "
                          f"move up to his Advance Rate {adv}\"", "t9a.leave.move", MARCH_RULE, "core.test.leadership")
        own = {u.id for u in state.combined(host.id)}
        problem = path_problem(state, [(model, action.to)], own, action.fly)
        end = Placed(model.base, action.to, model.facing)
        reach = model.base.reach_inches
        x, y = action.to
        units = [host, *state.joined_to(host.id)]
        gaps = [box_gap((x - reach, y - reach, x + reach, y + reach), u.extent) for u in units]  # floors of every gap
        for u, gap in zip(units, gaps):
            if gap > 1e-9:
                continue  # the end's bounding circle is clear of every one of u's: it stands on none of them
            for m in u.models:
                if m.name != model.name and overlaps(end, m.placed, APART):
                    problem = f"{model.name} would end on its own unit's model {m.name}"
        if problem:
            raise _refuse(f"{ch.id} cannot leave there: {problem} (it ignores only its own unit's models; Fly passes "
                          "over)", "t9a.leave.move", "published.t9a-move")
        if all(gap >= 1.0 + 1e-5 for u, gap in zip(units, gaps) if u.id != ch.id or len(u.models) > 1):
            away = math.inf  # every base of its unit more than an inch from the end's bounding circle
        else:
            rest = [m.placed for _, m in member_models(state, host) if m.name != model.name]
            floor = min((math.dist(action.to, p.at) - reach - p.base.reach_inches for p in rest), default=math.inf)
            nearest = nearest_in_rows([end], rest)[0] if rest and floor < 1.0 + 1e-6 else None
            away = nearest[0] if nearest is not None else floor  # bounding circles an inch apart: the bases are
        if away + EPSILON < 1.0:
            raise _refuse(f"{ch.id} would end {away:.2f}\" from its unit: a character leaving must end at least 1\" "
                          "away from it", "t9a.leave.move", "published.t9a-leave-1inch")
        problem = spacing_problem(state, [(model, action.to)], own)
        if problem:
            raise _refuse(f"{ch.id} cannot leave there: {problem}", "t9a.leave.move", SPACING_RULE)
        return LeavePlan(host, ch, moved, adv)

    @places_as_ruled
    @implements("t9a.leave.unit-not-moved")
    def resolve_leave(self, state: GameState, action: Leave, dice: Dice) -> Resolution:
        """Leave: the character moves out and counts as moved; the unit it left does not."""
        plan = self.plan_leave(state, action)
        test = self.march_test(state, plan.character, dice) if plan.moved > plan.advance + EPSILON else None
        if test is not None and dict(test.data)["outcome"] == "failed":  # his March's test first: he stays
            return self.march_failed(state, [plan.character], test)
        new, events = self._left(state, action, plan)
        return new, ([test] if test is not None else []) + events

    def _left(self, state: GameState, action: Leave, plan: LeavePlan) -> Resolution:
        """Return the leave made (no dice): the character out, moved (or marched), his unit not."""
        marched = plan.moved > plan.advance + EPSILON
        new = detach(state, plan.character, action.to, (Status.MOVED, *((Status.MARCHED,) if marched else ())))
        ch = plan.character
        left, after, _ = _unit_left(state, plan)
        led = plan.host.id == ch.id
        return new, [Event("leave", f"{ch.id} leaves {left} ({plan.moved:.2f}\"); {after}",
                           ("t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved",
                            *(("t9a.join.character-units",) if led else ())))]
