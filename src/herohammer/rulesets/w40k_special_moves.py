"""40k moves that special rules give a unit: Fleet's run in the Shooting phase, Infiltrate's set-up; and the
consolidation after a close combat (4th edition: published.consolidation; 3rd: published.40k3-consolidation, which
never ends in base contact with an enemy), a D6" move made as a run is.

Both are read through ``effective_rules``, so what a joined character withholds from his
unit or does not gain from it (40k3.ic.no-unit-abilities, 40k4.ic.rules-not-shared,
40k4.ic.rules-lost) decides whether the combined unit may make the move: a unit acting
with its characters has such a rule only when every member has it.

Published sources (the seeds name the rules but do not give them):
- Fleet of Foot, 3rd edition (Eldar; White Dwarf 227 Chapter Approved): in the Shooting
  phase a unit may run instead of shooting, D6", not slowed by difficult terrain.
- Fleet, 4th edition rulebook (Universal special rules): the same run, and the unit may
  still assault in the Assault phase.
- Infiltrate, 3rd and 4th edition rulebooks: infiltrators are set up after the other units,
  anywhere more than 18" from the enemy, or more than 12" if no enemy can see them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from .. import geometry as geo
from .. import movement
from ..actions import Action, Consolidate, Disembark, Embark, Infiltrate, Run
from ..catalogue import implements
from ..dice import Dice, rolls_made, rolls_since
from ..rulings import Event, Ruling
from ..state import GameState, Phase, PhaseSpec
from ..units import Status, Unit, UnitType
from ..values import evolve, evolve_rows
from .base import Resolution, with_its_unit
from .w40k_combat import CombatRules
from .w40k_hooks import COHERENCY_WORDS

#: The names a unit's Fleet goes by (3rd edition's Eldar call it Fleet of Foot).
FLEET = frozenset({"fleet", "fleet_of_foot"})
RUN_MOST_INCHES = 6.0  # a D6
CONSOLIDATE_MOST_INCHES = 6.0  # a D6 (published.consolidation)
INFILTRATE_INCHES = 18.0
#: How far beyond 18" of the nearest enemy ``legal_actions`` offers an Infiltrators' set-up (rounding aside).
INFILTRATE_MARGIN = 0.25
INFILTRATORS = frozenset({"infiltrate"})
INFILTRATE_HIDDEN_INCHES = 12.0
EMBARK_INCHES = 2.0  # a passenger boards from, and is set down, within 2" of its transport
#: A unit that has had its Shooting phase (``rule_run``: a character joined to it runs with it, instead of shooting).
_SHOT_OR_RAN = frozenset({Status.SHOT, Status.RAN})


def plan_members(state: GameState, members: Sequence[Unit], positions: Sequence[geo.Point]
                 ) -> list[movement.PlannedMove]:
    """Pair positions with the models of a unit and then of its characters, in file order."""
    moves: list[movement.PlannedMove] = []
    at = 0
    for u in members:
        if at >= len(positions):
            break
        moves += movement.plan(u, positions[at:at + len(u.models)], state.terrain)
        at += len(u.models)
    return moves


@implements("published.consolidation")
def _consolidation_contacts(state: GameState, side: str, moves: Sequence[movement.PlannedMove]
                            ) -> dict[str, tuple[str, int]]:
    """Return the enemy units (by the unit each joins, or its own id) a consolidation may bring into base contact,
    each with the first model and roll that would: the D6 stops each model at one of six places on its way (1" to 6"
    along it, or its end)."""
    enemies = [(e, e.placed) for e in state.enemies_of(side) if e.on_table]
    found: dict[str, tuple[str, int]] = {}
    if not enemies:
        return found
    for mv in moves:
        for inches in range(1, int(CONSOLIDATE_MOST_INCHES) + 1):
            at = [mv.model.moved_to(movement.truncate(mv.model.at, mv.to, float(inches))).placed]
            for e, placed in enemies:
                host = e.joined or e.id
                if host not in found and geo.groups_touch(at, placed):
                    found[host] = (mv.model.name, inches)
            if mv.length <= inches:
                break
    return found


@implements("published.consolidation")
def _touched_hosts(state: GameState, side: str, members: Sequence[Unit]) -> list[str]:
    """Return the enemy units (their hosts) the members' models touch where they stand."""
    mine = [p for u in members for p in u.placed]
    return list(dict.fromkeys(e.joined or e.id for e in state.enemies_of(side)
                              if e.on_table and geo.groups_touch(mine, e.placed)))


def apply_moves(state: GameState, moves: Iterable[movement.PlannedMove], moved_ids: set[str],
                *statuses: Status) -> GameState:
    """Return the state with the planned moves made, each spending the model's move allowance."""
    if (type(moves) is list and len(moved_ids) == 1 and moves and (uid := moves[0].unit_id) in moved_ids
            and not statuses):  # one unit's plan (a move of a unit on its own): its models walked in order, at once
        unit = state.unit(uid)
        if (len(moves) == len(unit.models)
                and all([mv.index == i and mv.unit_id == uid and mv.model is m and type(t := mv.to) is tuple
                         and len(t) == 2 and type(t[0]) is float and type(t[1]) is float
                         for i, (mv, m) in enumerate(zip(moves, unit.models))])):
            # each model's place (a pair of floats) and allowance spent, as ``Model.walked_to`` makes them
            rows = [(mv.to, mv.model.moved + mv.length) for mv in moves]
            walked = evolve(unit, models=tuple(evolve_rows(unit.models, _WALKED, rows)),
                            status=unit.status | _MOVED_ONLY)
            return state.replace_unit(walked)
    by_unit: dict[str, dict[int, tuple[geo.Point, float]]] = {}
    for mv in moves:
        if (places := by_unit.get(mv.unit_id)) is None:
            places = by_unit[mv.unit_id] = {}
        places[mv.index] = (mv.to, mv.length)
    units = []
    for u in state.units:
        if u.id in moved_ids:
            u = moved_unit(u, by_unit.get(u.id, {}), *statuses)
        units.append(u)
    return evolve(state, units=tuple(units))


def moved_unit(unit: Unit, places: dict[int, tuple[geo.Point, float]], *statuses: Status, **changes: object) -> Unit:
    """Return a unit with its models by index moved to ``(place, inches)`` (spending their move allowance), marked
    MOVED (and ``statuses``), with any other fields ``changes`` names: what ``apply_moves`` does to each moved unit."""
    rows = []  # each model's place and allowance spent, as ``Model.walked_to`` makes them (held to it by a test)
    for i, m in enumerate(unit.models):
        at, inches = places.get(i, (m.at, 0.0))
        if not (type(at) is tuple and len(at) == 2 and type(at[0]) is float and type(at[1]) is float):
            at = (float(at[0]), float(at[1]))  # a planned place is a pair of floats already
        rows.append((at, m.moved + inches))
    new_models = tuple(evolve_rows(unit.models, _WALKED, rows))  # one layout look-up for the unit
    return evolve(unit, models=new_models, status=unit.status | {Status.MOVED, *statuses}, **changes)


#: The fields ``Model.walked_to`` changes: where the model stands and the inches it has moved this phase.
_WALKED = ("at", "moved")
_MOVED_ONLY = frozenset({Status.MOVED})


class SpecialMoves(CombatRules):
    """Run with Fleet (Shooting phase) and set up Infiltrators (a Deployment phase before turn 1)."""

    #: 3rd edition: Fleet of Foot; 4th edition overrides with its Fleet, after which the unit may still assault.
    fleet_rule: ClassVar[str] = "published.fleet-of-foot"
    fleet_may_assault: ClassVar[bool] = False
    #: Deployment, once before the first turn: each side in turn sets up its Infiltrators.
    deployment: ClassVar[PhaseSpec] = PhaseSpec(Phase.DEPLOYMENT, frozenset({"infiltrate", "end_phase"}))

    if TYPE_CHECKING:
        def _held(self, unit: Unit) -> Ruling | None: ...

        def _mover_checks(self, state: GameState, unit: Unit) -> Ruling | None: ...

        def move_limits(self, state: GameState, members: Sequence[Unit]) -> dict[str, movement.MoveLimit]: ...

        def flying(self, state: GameState, members: Sequence[Unit]) -> frozenset[str]: ...

        def _dangerous_tests(self, state: GameState, moves: Sequence[movement.PlannedMove],
                             dice: Dice) -> Resolution: ...

    def joins_not_here(self, state: GameState, unit_id: str, move: str) -> list[Event]:
        """Say that a lone character whose ``move`` (a run, a consolidation) outside the Movement phase ended within
        reach of a unit he could join does not join it (none in 4th edition, which joins by declaring; 3rd overrides)."""
        return []

    # == phases ========================================================================
    @implements("published.infiltrate")
    def resolve_end_phase(self, state: GameState, action: object, dice: Dice) -> Resolution:
        """End a phase; Deployment passes to the next side, and after the last side turn 1 begins."""
        if state.phase is not Phase.DEPLOYMENT:
            return super().resolve_end_phase(state, action, dice)
        return self.end_deployment(state, "published.infiltrate", " (Infiltrators set up)")

    # == whose rules a combined unit acts on ===========================================
    def _lacking(self, state: GameState, unit: Unit, names: frozenset[str], what: str,
                 rule: str) -> Ruling | None:
        """Refuse a move only a unit with ``names`` may make when it, or any member acting with it, lacks the rule.

        A character without the rule joined to a unit that has it takes it away (cites the
        clause on rules lost); a character with it does not lend it to his unit (the clause on
        rules not shared).  In 3rd edition both are 40k3.ic.no-unit-abilities.
        """
        members = state.combined(unit.id)
        if all(self.effective_rules(state, u.id) & names for u in members):
            return None
        if len(members) == 1:
            return Ruling.forbid(f"{unit.id} does not have {what}", rule)
        host_own = self.own_rules(members[0])  # before joining took anything away
        lacking = [u for u in members[1:] if not self.effective_rules(state, u.id) & names]
        host_has = bool(host_own & names)
        lacking = lacking if host_has else [members[0], *lacking]
        why = self.rules_lost_rules() if host_has else self.rules_sharing_rules()
        who = ", ".join(u.id for u in lacking)
        return Ruling.forbid(f"{unit.id} acts with its characters, and {who} lack{'s' * (len(lacking) == 1)} {what}: "
                             f"a special rule counts for a combined unit only when every member has it", rule, *why)

    def _positions_problem(self, state: GameState, members: Sequence[Unit], to: Sequence[geo.Point]) -> str | None:
        models = sum(len(u.models) for u in members)
        if len(to) not in (len(members[0].models), models):
            return (f"{members[0].id} has {len(members[0].models)} models ({models} with its characters): "
                    f"got {len(to)} positions")
        return None

    # == Fleet: run in the Shooting phase ===============================================
    @implements("published.fleet-of-foot", "published.fleet", "40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
    def rule_run(self, state: GameState, action: Run) -> Ruling:
        """Rule on a unit with Fleet running D6" in its Shooting phase instead of shooting."""
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if problem := self.host_holds(state, unit, "run", self.fleet_rule) or \
                self.host_did(state, unit, _SHOT_OR_RAN, "has already shot or run this turn", "a run is instead of "
                              "shooting", self.fleet_rule) or \
                with_its_unit(unit, "runs when its unit does", "run with", self.fleet_rule):
            return problem
        held = self.with_members_holds(state, unit)  # its characters' holds hold it (session 30)
        if held.has(Status.LOCKED):
            return Ruling.forbid(f"{unit.id} is locked in close combat and cannot run", self.fleet_rule)
        if problem := self._held(held):
            return problem
        # a member who fired (its character too, who runs with it; a psychic power of the Shooting phase is used
        # instead of shooting, 40k3.psyker.as-shooting's decision) has had its Shooting phase: a run is instead of it
        members = state.combined(unit.id)
        if fired := next((u for u in members if u.has(Status.SHOT) and u.has(Status.USED_POWER)), None):
            return Ruling.forbid(f"{fired.id} used a psychic power this turn instead of shooting: "
                                 f"{unit.id} runs instead of shooting", self.fleet_rule, self.psychic_shooting_rule)
        if fired := next((u for u in members if u.has(Status.SHOT) or u.has(Status.RAN)), None):
            return Ruling.forbid(f"{fired.id} has already shot or run this turn: {unit.id} runs instead of shooting",
                                 self.fleet_rule)
        if (shot_at := state.target_fired_at(unit.id)) is not None:
            # its shooting began with a member since slain: a power used on a 2 before Perils slew its psyker
            words, rules = self.shooting_of(state, unit.id, shot_at)
            return Ruling.forbid(f"{words}: {unit.id}'s shooting has begun, and it runs instead of shooting",
                                 self.fleet_rule, *rules)
        if problem := self._lacking(state, unit, FLEET, "Fleet", self.fleet_rule):
            return problem
        if wrong := self._positions_problem(state, members, action.to):
            return Ruling.forbid(wrong, self.fleet_rule)
        moves = plan_members(state, members, action.to)
        if off := movement.table_problem(state, moves):
            return Ruling.forbid(off, self.fleet_rule)
        for mv in moves:
            if mv.length > RUN_MOST_INCHES + movement.EPSILON:
                return Ruling.forbid(f"{mv.model.name} would run {mv.length:.2f}\", but a run is D6\": at most "
                                     f"{RUN_MOST_INCHES:g}\"", self.fleet_rule)
        ids = {u.id for u in members}
        if blocked := movement.places_problem(state, moves, ids, lambda: self.flying(state, members)):
            return Ruling.forbid(blocked, self.fleet_rule)
        if not geo.coherent(movement.positions_after(state, [u.id for u in members], moves)):
            return Ruling.forbid(f"after the run {unit.id} would not be in coherency {COHERENCY_WORDS}",
                                 *self.coherency_rules(members))
        then = ("it may still assault this turn" if self.fleet_may_assault
                else "it may not assault this turn")
        typed = self.type_rules_cited(members, FLEET)
        return Ruling.allow(f"{unit.id} may run instead of shooting" + (" (cavalry may use Fleet)" if typed else "")
                            + ": it rolls a D6 and each model moves up to that many inches towards its place, difficult "
                            f"terrain aside; {then}", self.fleet_rule, *typed)

    def resolve_run(self, state: GameState, action: Run, dice: Dice) -> Resolution:
        """Roll the D6 and move each model that far towards its place; the unit has shot (run) this turn."""
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        start = rolls_made(dice)
        inches = dice.total(1, f"{unit.id}: run", self.fleet_rule)
        moves, short, held = movement.cut_short(state, plan_members(state, members, action.to), inches)
        state = apply_moves(state, moves, {u.id for u in members}, Status.RAN, Status.SHOT)
        events = [Event("run", f"{unit.id} runs {inches}\" instead of shooting" + (", and stops short" if short else "")
                        + held, (self.fleet_rule, *self.type_rules_cited(members, FLEET),
                                 *(("published.bases-apart",) if held else ())), rolls_since(dice, start))]
        ran, (state, more) = state, self._dangerous_tests(state, moves, dice)
        events += more
        state, more = self._last_man_after_tests(state, ran, dice, more)
        return state, events + more + self.joins_not_here(state, unit.id, "run")

    # == consolidation after a close combat (both editions) ==============================
    @staticmethod
    def _no_consolidation(unit: Unit, rule: str) -> tuple[str, tuple[str, ...]] | None:
        """Say why a unit its close combat did not leave free this phase may not consolidate, with the rules (None:
        it may); the unit's own refusal and a joined character's both say it."""
        if unit.has(Status.MAY_CONSOLIDATE):
            return None
        if unit.has(Status.LOCKED):  # locked still: in base contact, or an enemy of its combat within Pile In reach
            return ("may not consolidate: it is still locked in close combat (an enemy in base contact, or one within "
                    "two Pile In moves: the combat goes on)", (rule, "published.pile-in"))
        return ("may not consolidate: only a unit that a close combat's result left with no enemy in base contact "
                "this Assault phase consolidates, once", (rule,))

    @implements("published.consolidation", "published.40k3-consolidation", "published.pile-in")
    def rule_consolidate(self, state: GameState, action: Consolidate) -> Ruling:
        """Rule on a consolidation: a unit its close combat left free this phase moves up to D6" towards its places;
        where a roll would bring it into base contact with an enemy unit, 4th edition locks them in a new close
        combat (``_consolidated_into``) and 3rd edition refuses the move (``consolidation_engages``)."""
        rule = self.consolidation_rule
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if unit.joined and (held := self._no_consolidation(state.unit(unit.joined), rule)) is not None:
            # judge round 35: not sent to "consolidate with" a unit that may not (he consolidates only with it)
            why, rules = held
            return Ruling.forbid(f"{unit.id} is part of {unit.joined}, which {why}; {unit.id} consolidates only with "
                                 "it", *rules)
        if problem := with_its_unit(unit, "consolidates when its unit does", "consolidate with", rule):
            return problem
        if (held := self._no_consolidation(unit, rule)) is not None:
            return Ruling.forbid(f"{unit.id} {held[0]}", *held[1])
        members = state.combined(unit.id)
        if wrong := self._positions_problem(state, members, action.to):
            return Ruling.forbid(wrong, rule)
        moves = plan_members(state, members, action.to)
        if off := movement.table_problem(state, moves):
            return Ruling.forbid(off, rule)
        for mv in moves:
            if mv.length > CONSOLIDATE_MOST_INCHES + movement.EPSILON:
                return Ruling.forbid(f"{mv.model.name} would consolidate {mv.length:.2f}\", but a consolidation is "
                                     f"D6\": at most {CONSOLIDATE_MOST_INCHES:g}\"", rule)
        ids = {u.id for u in members}
        if blocked := movement.places_problem(state, moves, ids, lambda: self.flying(state, members)):
            return Ruling.forbid(blocked, rule)
        touched = _consolidation_contacts(state, unit.side, moves)
        if touched and not self.consolidation_engages:
            host, (name, inches) = next(iter(touched.items()))
            return Ruling.forbid(
                f"{name} would end in base contact with {host} if the D6 rolls {inches}: a 3rd edition consolidation "
                "never reaches an enemy (the victors consolidate or advance; it is the advance towards the enemy, "
                "not modelled, that may meet a new one)", rule)
        for host, (name, inches) in touched.items():
            group = state.combined(host)
            if any(x.has(Status.LOCKED) and not x.has(Status.FOUGHT) for x in group):
                return Ruling.forbid(
                    f"{name} would end in base contact with {host} if the D6 rolls {inches}, and {host} is locked in a "
                    "close combat still to be fought this phase: a unit that consolidates into a new close combat "
                    "counts as engaged only from the next Assault phase, which the engine cannot yet leave out of "
                    "that fight, so it refuses the move", rule)
        if not geo.coherent(movement.positions_after(state, [u.id for u in members], moves)):
            return Ruling.forbid(f"after consolidating {unit.id} would not be in coherency {COHERENCY_WORDS}",
                                 *self.coherency_rules(members))
        notes = tuple(f"{name} ends in base contact with {host} if the D6 rolls {inches} (the least roll that reaches "
                      "it): a new close combat, fought from the next Assault phase [published.consolidation]"
                      + (f"; {host} is falling back and tests to regroup at once, or is destroyed "
                         "[published.assaulted-while-falling-back]"
                         if state.unit(host).has(Status.FALLING_BACK) else "")
                      for host, (name, inches) in touched.items())
        danger = [mv.model.name for mv in moves if mv.dangerous]
        tested = (f"; {', '.join(danger)} {'moves' if len(danger) == 1 else 'move'} into dangerous terrain on the way: "
                  "each model the roll takes into it tests, a 1 a wound with no armour save" if danger else "")
        return Ruling.allow(f"{unit.id} may consolidate: it rolls a D6 and each model moves up to that many inches "
                            f"towards its place{tested}", rule, *(("published.dangerous-terrain",) if danger else ()),
                            notes=notes)

    def resolve_consolidate(self, state: GameState, action: Consolidate, dice: Dice) -> Resolution:
        """Roll the D6 and move each model that far towards its place; the unit's consolidation is spent."""
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        start = rolls_made(dice)
        inches = dice.total(1, f"{unit.id}: consolidate", self.consolidation_rule)
        moves, short, held = movement.cut_short(state, plan_members(state, members, action.to), inches)
        state = apply_moves(state, moves, {u.id for u in members})
        # the consolidation is spent; made in the other side's turn, it is no move of the unit's own turn: MOVED,
        # which only the active side's turn end clears, would keep it from moving in its next Movement phase
        spent = (Status.MAY_CONSOLIDATE,) if unit.side == state.active else (Status.MAY_CONSOLIDATE, Status.MOVED)
        state = state.replace_units(*(u.with_status(remove=spent) for u in state.combined(unit.id)))
        events = [Event("consolidate", f"{unit.id} consolidates {inches}\"" + (", and stops short" if short else "")
                        + held, (self.consolidation_rule, *(("published.bases-apart",) if held else ())),
                        rolls_since(dice, start))]
        # a consolidation is a move like any other: each model it takes into dangerous terrain tests (judge round
        # 55; before, none did), and a unit the tests leave with one model takes Last Man Standing (3rd edition)
        moved, (state, tested) = state, self._dangerous_tests(state, moves, dice)
        events += tested
        state, more = self._last_man_after_tests(state, moved, dice, tested)
        events += more
        # the unit, or the character its tests left a unit of his own, goes on from where they stopped
        survivors = [u.id for u in moved.combined(unit.id) if state.unit(u.id).alive]
        if not survivors:
            return state, events
        host = survivors[0]
        touched = _touched_hosts(state, unit.side, state.combined(host))
        if not touched:
            return state, events + self.joins_not_here(state, host, "consolidation")
        return self._consolidated_into(state, host, touched, dice, events)

    @implements("published.consolidation", "published.assaulted-while-falling-back", "40k4.cc.locked")
    def _consolidated_into(self, state: GameState, unit_id: str, touched: Sequence[str], dice: Dice,
                           events: list[Event]) -> Resolution:
        """Lock a unit that consolidated into base contact with enemy units in a new close combat with them (4th ed.,
        p. 44: "a unit which consolidates into a new close combat does not count as engaged until the next Assault
        phase"); a falling back unit so contacted tests to regroup at once, or is destroyed (4th ed. p. 48, Assaulted
        while falling back: "Note that this rule applies if a unit consolidates into enemies falling back too")."""
        locked = []
        for host in touched:
            state, more = self._assaulted_falling_back(state, host, dice)
            events += more
            if state.unit(host).alive:
                locked.append(host)
        if not locked:
            return state, events
        groups = [state.combined(unit_id), *map(state.combined, locked)]
        state = state.replace_units(*(u.with_status(Status.LOCKED) for group in groups for u in group))
        joined = any(len(group) > 1 for group in groups)  # a character is locked with his unit (40k4.cc.locked)
        events.append(Event("new_combat", f"{unit_id} consolidates into base contact with {', '.join(locked)}: locked "
                            "in a new close combat, fought from the next Assault phase",
                            ("published.consolidation", *(("40k4.cc.locked",) if joined else ()))))
        return state, events

    def assault_after_run(self, state: GameState, unit: Unit) -> Ruling | None:
        """Refuse an assault by a unit that ran this turn, unless its Fleet lets it (4th edition)."""
        if unit.has(Status.RAN) and not self.fleet_may_assault:
            return Ruling.forbid(f"{unit.id} ran in the Shooting phase: it may not assault this turn",
                                 self.fleet_rule)
        return None

    # == Infiltrate: set up before the game =============================================
    @implements("published.infiltrate")
    def rule_infiltrate(self, state: GameState, action: Infiltrate) -> Ruling:
        """Rule on setting up Infiltrators: more than 18" from every enemy, or more than 12" where none can see them."""
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if problem := with_its_unit(unit, "is set up with its unit", "infiltrate", "published.infiltrate"):
            return problem
        if problem := self._lacking(state, unit, INFILTRATORS, "Infiltrate", "published.infiltrate"):
            return problem
        members = state.combined(unit.id)
        if wrong := self._positions_problem(state, members, action.to):
            return Ruling.forbid(wrong, "published.infiltrate")
        moves = plan_members(state, members, action.to)
        if off := movement.table_problem(state, moves):
            return Ruling.forbid(off, "published.infiltrate")
        ids = {u.id for u in members}
        if blocked := movement.placement_problem(state, moves, ids):
            return Ruling.forbid(blocked, "published.infiltrate")
        placed = movement.positions_after(state, [u.id for u in members], moves)
        if not geo.coherent(placed):
            return Ruling.forbid(f"{unit.id} would not be set up in coherency {COHERENCY_WORDS}",
                                 *self.coherency_rules(members))
        enemies = state.enemies_of(unit.side)
        nearest = min((geo.group_distance(placed, e.placed) for e in enemies), default=float("inf"))
        if nearest > INFILTRATE_INCHES + movement.EPSILON:
            return Ruling.allow(f"{unit.id} may be set up there: {nearest:.1f}\" from the nearest enemy, more than 18\"",
                                "published.infiltrate")
        seen_by = [e.id for e in enemies if geo.unit_line_of_sight(e.placed, placed, state.terrain)]
        if nearest > INFILTRATE_HIDDEN_INCHES + movement.EPSILON and not seen_by:
            return Ruling.allow(f"{unit.id} may be set up there: {nearest:.1f}\" from the nearest enemy, more than 12\", "
                                "and out of every enemy's sight", "published.infiltrate")
        sight = f", and {', '.join(seen_by)} can see it" if seen_by else ""
        return Ruling.forbid(f"{unit.id} would be {nearest:.1f}\" from the nearest enemy{sight}: Infiltrators set up "
                             "more than 18\" from the enemy, or more than 12\" out of sight", "published.infiltrate")

    def resolve_infiltrate(self, state: GameState, action: Infiltrate, dice: Dice) -> Resolution:
        """Set the unit (with its characters) up in its new places: a set-up, not a move."""
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        moves = plan_members(state, members, action.to)
        placed = {(mv.unit_id, mv.index): mv.to for mv in moves}
        state = state.replace_units(*(replace(u, models=tuple(m.moved_to(placed.get((u.id, i), m.at))
                                                              for i, m in enumerate(u.models))) for u in members))
        return state, [Event("infiltrate", f"{unit.id} infiltrates: set up apart from its deployment",
                             ("published.infiltrate",))]

    # == transports: embark and disembark ===============================================
    @implements("published.transports")
    def rule_embark(self, state: GameState, action: Embark) -> Ruling:
        """Rule on a unit (with its characters) boarding a transport: room aboard, every model within reach."""
        unit = state.unit(action.unit)
        if problem := with_its_unit(unit, "embarks with its unit", "embark", "published.transports"):
            return problem
        if unit.has(Status.MOVED) and unit.embarked_in is None:
            return Ruling.forbid(f"{unit.id} has already moved this phase: boarding is a unit's move",
                                 "published.transports")
        if problem := self._mover_checks(state, unit):
            return problem
        transport = state.unit(action.transport)
        if transport.side != unit.side or not transport.on_table or not transport.capacity:
            return Ruling.forbid(f"{transport.id} is no transport of {unit.side} on the table", "published.transports")
        members = state.combined(unit.id)
        riders = sum(len(u.models) for u in members)
        room = transport.capacity - sum(len(u.models) for u in state.aboard(transport.id))
        if riders > room:
            return Ruling.forbid(f"{transport.id} has room for {room} more models; {unit.id} has {riders}",
                                 "published.transports")
        limits = self.move_limits(state, members)
        for u in members:
            for m in u.models:
                gap = geo.group_distance([m.placed], transport.placed)
                left = movement.move_left(limits[u.id], m)
                if gap > left + EMBARK_INCHES + movement.EPSILON:
                    return Ruling.forbid(f"{m.name} is {gap:.1f}\" from {transport.id}: it cannot come within "
                                         f"{EMBARK_INCHES:g}\" of it with the {left:g}\" it may "
                                         "still move", "published.transports")
        return Ruling.allow(f"{unit.id} may embark in {transport.id} ({riders} of its {room} places)",
                            "published.transports")

    def resolve_embark(self, state: GameState, action: Embark, dice: Dice) -> Resolution:
        """Take the unit and its characters off the table into the transport; boarding is their move."""
        members = state.combined(action.unit)
        state = state.replace_units(*(replace(u, embarked_in=action.transport, status=u.status | {Status.MOVED})
                                      for u in members))
        who = ", ".join(u.id for u in members)
        return state, [Event("embark", f"{who} embark{'s' * (len(members) == 1)} in {action.transport}",
                             ("published.transports",))]

    @implements("published.transports")
    def rule_disembark(self, state: GameState, action: Disembark) -> Ruling:
        """Rule on a unit leaving its transport: every model set down within 2\" of the vehicle, in coherency."""
        unit = state.unit(action.unit)
        if not unit.alive:
            return Ruling.forbid(f"{unit.id} has no models left", "core.zero.w")
        if unit.embarked_in is None:
            return Ruling.forbid(f"{unit.id} is not embarked in a transport", "published.transports")
        if problem := with_its_unit(unit, "disembarks with its unit", "disembark", "published.transports"):
            return problem
        if unit.has(Status.MOVED):
            return Ruling.forbid(f"{unit.id} has already moved this phase (it embarked)", "published.transports")
        transport = state.unit(unit.embarked_in)
        if not transport.on_table:
            return Ruling.forbid(f"{transport.id} is no longer on the table; the engine does not play passengers "
                                 "of a destroyed transport", "published.transports")
        members = state.combined(unit.id)
        models = sum(len(u.models) for u in members)
        if len(action.to) != models:
            return Ruling.forbid(f"{unit.id} has {models} models with its characters: got {len(action.to)} "
                                 "positions", "published.transports")
        moves = plan_members(state, members, action.to)
        if off := movement.table_problem(state, moves):
            return Ruling.forbid(off, "published.transports")
        for mv in moves:
            gap = geo.group_distance([geo.Placed(mv.model.base, mv.to, mv.model.facing)], transport.placed)
            if gap > EMBARK_INCHES + movement.EPSILON:
                return Ruling.forbid(f"{mv.model.name} would be set down {gap:.1f}\" from {transport.id}: "
                                     f"within {EMBARK_INCHES:g}\" of the vehicle", "published.transports")
        if blocked := movement.placement_problem(state, moves, {u.id for u in members}):
            return Ruling.forbid(blocked, "published.transports")
        if not geo.coherent(movement.positions_after(state, [u.id for u in members], moves)):
            return Ruling.forbid(f"{unit.id} would not be set down in coherency {COHERENCY_WORDS}",
                                 *self.coherency_rules(members))
        return Ruling.allow(f"{unit.id} may disembark from {transport.id}; that is its move this phase",
                            "published.transports")

    def resolve_disembark(self, state: GameState, action: Disembark, dice: Dice) -> Resolution:
        """Set the unit and its characters down by the transport; they have moved this phase."""
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        transport = unit.embarked_in
        placed = {(mv.unit_id, mv.index): mv.to for mv in plan_members(state, members, action.to)}
        state = state.replace_units(*(replace(u, embarked_in=None, status=u.status | {Status.MOVED},
                                              models=tuple(m.moved_to(placed[(u.id, i)]) for i, m in enumerate(u.models)))
                                      for u in members))
        return state, [Event("disembark", f"{', '.join(u.id for u in members)} disembark from {transport}",
                             ("published.transports",))]

    def special_move_candidates(self, state: GameState) -> Iterable[Action]:
        """Propose runs (Shooting phase), boarding and getting out (Movement phase), Infiltrators' set-ups
        (Deployment); legal_actions keeps the legal."""
        if state.phase is Phase.DEPLOYMENT:
            yield from self._infiltration_candidates(state)
            return
        if state.phase is Phase.MOVEMENT:
            yield from self._transport_candidates(state)
        if state.phase is Phase.ASSAULT:
            yield from self._consolidation_candidates(state)
        if state.phase is not Phase.SHOOTING:
            return
        for u in state.side_units(state.active):
            if not u.joined:
                to = [(m.at[0], m.at[1] + 1.0) for x in state.combined(u.id) for m in x.models]
                yield Run.trusted(do="run", unit=u.id, to=tuple(to))

    @implements("published.infiltrate")
    def _infiltration_candidates(self, state: GameState) -> Iterable[Action]:
        """Propose each Infiltrators' set-up (with its characters) moved as one toward the nearest enemy until it
        stands ``INFILTRATE_MARGIN`` beyond 18" of it: no other enemy is nearer, since the shift brings no model
        closer to any enemy than its length. Judge round 67: the Deployment phase offered ending it alone, as if no
        unit could infiltrate. A unit any member of which lacks Infiltrate (``_lacking``: 40k4.ic.rules-lost,
        40k3.ic.no-unit-abilities) is not offered; one already within reach of the enemy neither (sampled, as
        moves are, not every set-up)."""
        enemies = [e for e in state.enemies_of(state.active) if e.alive and e.embarked_in is None]
        for u in state.side_units(state.active):
            if u.joined or not u.alive or u.embarked_in is not None or not enemies \
                    or self._lacking(state, u, INFILTRATORS, "Infiltrate", "published.infiltrate") is not None:
                continue
            models = [m for x in state.combined(u.id) for m in x.models]
            placed = [m.placed for m in models]
            gap, nearest = min(((geo.group_distance(placed, e.placed), i) for i, e in enumerate(enemies)))
            shift = gap - INFILTRATE_INCHES - INFILTRATE_MARGIN
            cx, cy = (sum(m.at[k] for m in models) / len(models) for k in (0, 1))
            aim = enemies[nearest].models
            ex, ey = (sum(m.at[k] for m in aim) / len(aim) for k in (0, 1))
            length = ((ex - cx) ** 2 + (ey - cy) ** 2) ** 0.5
            if shift <= 0 or length == 0:
                continue
            dx, dy = (ex - cx) / length * shift, (ey - cy) / length * shift
            yield Infiltrate.trusted(do="infiltrate", unit=u.id,
                                     to=tuple((round(m.at[0] + dx, 2), round(m.at[1] + dy, 2)) for m in models))

    @staticmethod
    def _consolidation_candidates(state: GameState) -> Iterable[Action]:
        """Propose two consolidations of each unit free to consolidate: every model 2" one way or the other."""
        for u in state.units:
            if Status.MAY_CONSOLIDATE in u.status and not u.joined:
                models = [m for x in state.combined(u.id) for m in x.models]
                for dy in (2.0, -2.0):
                    yield Consolidate.trusted(do="consolidate", unit=u.id,
                                              to=tuple((m.at[0], m.at[1] + dy) for m in models))

    def _transport_candidates(self, state: GameState) -> Iterable[Action]:
        transports = [u for u in state.side_units(state.active) if u.capacity]
        for t in transports:
            for u in state.side_units(state.active):
                if not u.joined and not u.capacity and u.type is not UnitType.VEHICLE:
                    yield Embark.trusted(do="embark", unit=u.id, transport=t.id)
            for u in state.aboard(t.id):
                if not u.joined:
                    x, y = t.models[0].at
                    reach = t.models[0].base.depth_mm / geo.MM_PER_INCH / 2 + 1.0
                    n = sum(len(member.models) for member in state.combined(u.id))
                    yield Disembark.trusted(do="disembark", unit=u.id,
                                    to=tuple((x + 1.1 * (i - (n - 1) / 2), y + reach) for i in range(n)))
