"""The 9th Age Panic tests a unit takes for its friends: one destroyed, or breaking from combat, within 6".

The 9th Age rulebook (2nd edition, 17.A Panic Test): "A Panic Test is a Discipline Test that a unit
has to take immediately after any of the following situations arise: a friendly unit is destroyed
within 6" of the unit (including Fleeing off the board); a friendly unit Breaks from Combat within
6" of the unit ..."; "units that fail a Panic Test immediately Flee directly away from the closest
enemy unit (Centre of Unit to Centre of Unit)"; "if several units have to take a Panic Test at the
same time, take all Panic Tests before performing any Flee Moves"; "units do not take Panic Tests
if they are Engaged in Combat, if they are already Fleeing, or if they already passed a Panic Test
during this phase".

Every action a 9th Age unit can be destroyed or broken by (a shot, a spell or its Miscast, a Stand and
Shoot, a flee off the table) goes through ``resolve_checked``; a fight takes its own tests as its
losses come (``panic_at_once``, ``fled_through_panic``: round 49). The hook here compares
the state before it with the state after (only the units the action replaced) and has the friends
near each unit lost take their test, and the friends a flee move went through ("a friendly unit
Flees through the unit's Unit Boundary", not a Flee Charge Reaction: published.t9a-flee-reaction).
A combined unit whose last survivor lives is not destroyed (``t9a.is_destroyed``,
t9a.combined.last-survivor), nor is a character slain inside a unit (he is part of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shapely

from ..catalogue import implements
from ..charging import FLEE_REACTION
from ..checks import LeadershipTestKind
from ..dice import Dice, rolls_made, rolls_since
from ..geometry import Placed, group_distance
from ..rulings import Event
from ..state import GameState
from ..units import Status, Unit
from ..values import evolve
from .base import Resolution, Ruleset
from .t9a_discipline import BATTLE_STANDARD, discipline_test
from .t9a_units import current, is_destroyed, off_table, unit_centre
from .t9a_combat import FLEE_RULE, GENERAL, PANIC, discipline_said, flee, members, unit_discipline

if TYPE_CHECKING:
    from ..actions import Action

#: How near a friend destroyed or breaking makes a unit take a Panic test (inches, edge to edge).
PANIC_REACH = 6.0
LAST_SURVIVOR = "t9a.combined.last-survivor"
CHARGE_OUT = "t9a.charge-out.declare"
#: What keeps a unit from taking a Panic test (published.t9a-panic).
NO_PANIC = (Status.ENGAGED, Status.FLEEING, Status.PANIC_PASSED)


@dataclass(frozen=True)
class Alarm:
    """A friend lost near others: destroyed or broken from combat, measured where it stood when the action began."""

    unit: str
    side: str
    stood: tuple[Placed, ...]
    what: str  # "destroyed", "breaks from combat" or "fleeing through it"
    keeps: tuple[str, ...]  # the ids that are still that unit (its last survivor): they do not test for it
    #: A flee through friends: the units it passed through, which test whatever the distance (None: the 6" reach).
    through: tuple[str, ...] | None = None
    #: A character slain charging out of his unit: a separate unit from his declaration (t9a.charge-out.declare).
    charged_out: bool = False


def _standing(state: GameState) -> list[Unit]:
    """Return the units on the table as units: hosts, lone characters, last survivors (not joined characters)."""
    return [u for u in state.units if u.joined is None and u.alive and u.embarked_in is None]


def _changed_standing(before: GameState, after: GameState) -> list[Unit]:
    """Return the units standing before an action whose value the action replaced: only they can be lost.

    A unit the action left as the very same value keeps its living models and its statuses, so it
    was neither destroyed nor broken; most actions (a move, a join, a missed shot) change a few units
    or none, and this runs after every one, so the states' units are compared by identity first.
    """
    old, new = before.units, after.units
    if old is new:
        return []
    if len(old) != len(new):  # not one for one: look at every unit
        return _standing(before)
    return [u for u, now in zip(old, new) if u is not now and u.joined is None and u.alive and u.embarked_in is None]


def _stood(state: GameState, unit_id: str) -> tuple[Placed, ...]:
    return tuple(m.placed for u in members(state, unit_id) for m in u.models)


@implements(PANIC, LAST_SURVIVOR)
def alarms(before: GameState, after: GameState) -> list[Alarm]:
    """Return the units an action destroyed or broke from combat, each where it stood before the action.

    Destroyed: no model of it, nor its last survivor, lives (``is_destroyed``); a character slain inside
    a unit is a casualty of it, not a unit destroyed. Broke: engaged and not fleeing before, fleeing
    after: only a failed Break test makes an engaged unit flee. A unit that broke and was caught by
    the pursuit is destroyed: one loss, so its friends test once for it.
    """
    out: list[Alarm] = []
    for u in _changed_standing(before, after):
        destroyed = is_destroyed(after, u.id)
        now = current(after, u.id)
        broke = not destroyed and u.has(Status.ENGAGED) and not u.has(Status.FLEEING) and now.has(Status.FLEEING)
        if destroyed or broke:
            what = "breaks from combat" if broke else "destroyed"
            keeps = () if destroyed else tuple(m.id for m in members(after, now.id))
            out.append(Alarm(u.id, u.side, _stood(before, u.id), what, keeps))
        if not destroyed and now.has(Status.FLEEING) and (through := fled_through(before, after, u.id)):
            out.append(Alarm(u.id, u.side, _stood(before, u.id), "fleeing through it", (), through))
    return out


@implements(PANIC, CHARGE_OUT)
def charged_out_slain(before: GameState, after: GameState, action: Action) -> list[Alarm]:
    """Return the character a charge out of his unit lost (slain by Stand and Shoot) as a friendly unit destroyed.

    The 2022 text, Charging out of a Unit: "As soon as the Character declares a Charge, it is considered a separate
    unit" (the seed's t9a.charge-out.declare), so his death is a unit destroyed, measured where he stood in his unit
    when he declared it: his old unit (0" away) and the friends within 6" of him take their Panic tests
    (published.t9a-panic). Only a charge makes a joined character a unit of his own within one action.
    """
    from ..actions import Charge

    if not isinstance(action, Charge) or not before.has_unit(action.unit):
        return []
    ch = before.unit(action.unit)
    if ch.joined is None or not ch.alive or after.unit(ch.id).alive:
        return []
    return [Alarm(ch.id, ch.side, tuple(m.placed for m in ch.models), "destroyed", (), charged_out=True)]


@implements(PANIC, FLEE_REACTION)
def fled_through(before: GameState, after: GameState, unit_id: str) -> tuple[str, ...]:
    """Return the friendly units a unit's flee move in this action passed through (none if it made no flee move).

    A fleeing unit moves only by flee moves, so one fleeing after the action whose models stand elsewhere
    fled; each model went straight from where it stood to where it stands (``t9a_combat.flee``), so the
    ground it crossed is the hull of its base at both ends, and a friend any of whose bases that ground
    overlaps was fled through. A Flee Charge Reaction is the unit's own choice: it makes no friend take the
    test (published.t9a-flee-reaction), so a unit that fled from a charge in this action is left out.
    """
    group = members(after, unit_id)
    if not group[0].has(Status.FLEEING) or (group[0].has(Status.FLED_FROM_CHARGE)
                                            and not current(before, unit_id).has(Status.FLED_FROM_CHARGE)):
        return ()
    crossed = group[0].remember((_GROUND, tuple(members(before, unit_id)), tuple(group[1:])),
                                lambda: _ground_crossed(members(before, unit_id), group))
    if crossed is None:
        return ()
    own = {u.id for u in group}
    return tuple(f.id for f in _standing(after) if f.side == group[0].side and f.id not in own and any(
        crossed.intersection(m.placed.footprint()).area > _CROSSED for c in members(after, f.id) for m in c.models))


_GROUND = "ground fled over"


def _ground_crossed(was_group: Sequence[Unit], group: Sequence[Unit]) -> shapely.Geometry | None:
    """Return the ground a unit's models crossed going straight from where they stood to where they stand (None when
    none moved): kept on the unit as it stands, since the states an enumeration reaches after one flee (the pursuer
    moved, say) share it."""
    was = {m.name: m for u in was_group for m in u.models}
    ground = [shapely.convex_hull(shapely.union(was[m.name].placed.footprint(), m.placed.footprint()))
              for u in group for m in u.models if m.name in was and was[m.name].at != m.at]
    return shapely.union_all(ground) if ground else None


#: How much of a friend's base a flee must cross (square inches) to pass through it rather than graze it.
_CROSSED = 1e-6




@implements(PANIC, LAST_SURVIVOR)
def _named(state: GameState, unit_id: str) -> str:
    """Return how a Panic test names a friend lost: a last survivor by the unit he is (seed 002: a combined unit left
    with its character alone "is still that unit"), so his fall is that unit destroyed (round 58: it said "hero
    destroyed", the model's id); any other unit by its id."""
    was = state.unit(unit_id).last_of
    return f"{was} (its last survivor, {unit_id})" if was is not None and was != unit_id else unit_id


@implements(PANIC)
def closest_enemy_centre(state: GameState, unit_id: str, fallback: tuple[float, float]) -> tuple[float, float]:
    """Return where a unit that failed a Panic test flees away from: the closest enemy unit's centre.

    Centre of unit to centre of unit; on a tie the first such unit in the state's order; with no
    enemy on the table, away from the friend whose loss caused the test (``fallback``).
    """
    side = current(state, unit_id).side
    here = unit_centre(state, unit_id)
    best: tuple[float, tuple[float, float]] | None = None
    for e in _standing(state):
        if e.side == side:
            continue
        c = unit_centre(state, e.id)
        d = (c[0] - here[0]) ** 2 + (c[1] - here[1]) ** 2
        if best is None or d < best[0]:
            best = (d, c)
    return best[1] if best is not None else fallback


def _mean(points: Sequence[Placed]) -> tuple[float, float]:
    return (sum(p.at[0] for p in points) / len(points), sum(p.at[1] for p in points) / len(points))


@implements(PANIC, LAST_SURVIVOR)
def panic_at_once(state: GameState, stood_in: GameState, unit_ids: Sequence[str], what: str,
                  dice: Dice) -> Resolution:
    """Take the Panic tests of the friends of units lost in the middle of a fight (``what``: "destroyed" by its blows,
    or "breaks from combat" at its Break test), measured where they stood in ``stood_in``: "immediately after" the
    loss (published.t9a-panic), before any flee or pursuit roll of the combat (round 49)."""
    lost = [Alarm(uid, stood_in.unit(uid).side, _stood(stood_in, uid), what,
                  tuple(m.id for m in members(state, uid)) if what != "destroyed" else ()) for uid in unit_ids]
    return friends_panic(state, lost, dice, [])


@implements(PANIC)
def fled_through_panic(state: GameState, before: GameState, unit_ids: Sequence[str], dice: Dice,
                       events: list[Event]) -> Resolution:
    """Take the Panic tests of the friends the flee moves of ``unit_ids`` went through ("after completing the Flee
    Move"), a fight's broken units once its pursuits are made; its other losses were tested as they came."""
    lost = [Alarm(uid, before.unit(uid).side, _stood(before, uid), "fleeing through it", (), through)
            for uid in unit_ids if not is_destroyed(state, uid) and current(state, uid).has(Status.FLEEING)
            and (through := fled_through(before, state, uid))]
    return friends_panic(state, lost, dice, events) if lost else (state, events)


class FriendsPanic(Ruleset):
    """The hook: after every action, the Panic tests its destroyed or broken units call for in their friends."""

    def takes_own_panic_tests(self, action: Action) -> bool:
        """Say whether the action takes its friends' Panic tests itself, as it goes (a 9th Age fight: round 49)."""
        return False

    def resolve_checked(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Resolve the action, then take the Panic tests of the friends near each unit it destroyed or broke."""
        after, events = super().resolve_checked(state, action, dice)
        if self.takes_own_panic_tests(action):
            return after, events
        lost = alarms(state, after) + charged_out_slain(state, after, action)
        if not lost:
            return after, events
        return friends_panic(after, lost, dice, events)

    def flee_from_charge(self, state: GameState, unit_id: str, away_from: tuple[float, float],
                         dice: Dice) -> tuple[GameState, int]:
        """Flee a charged unit 2D6" straight away from its charger (published.t9a-flee-reaction), as every flee goes."""
        return flee(state, unit_id, away_from, dice)

    def end_panic_phase(self, state: GameState) -> GameState:
        """Forget who passed a Panic test when a phase ends: the test spares a unit only for its phase; and the losses
        counted over it for heavy casualties (``shot_this_phase``: each phase counts its own)."""
        if state.shot_this_phase:
            state = evolve(state, shot_this_phase=())
        if not any(u.has(Status.PANIC_PASSED) for u in state.units):
            return state
        return state.replace_units(*(u.with_status(remove=(Status.PANIC_PASSED,)) for u in state.units
                                     if u.has(Status.PANIC_PASSED)))


@implements(PANIC, LAST_SURVIVOR, FLEE_RULE)
def friends_panic(state: GameState, lost: list[Alarm], dice: Dice, events: list[Event]) -> Resolution:
    """Take every Panic test the friends lost call for, then the flee moves of those that fail; repeat for
    any unit those flee moves take off the table (it is destroyed too)."""
    events = list(events)
    while lost:
        tests: list[tuple[Unit, Alarm, float]] = []
        for u in _standing(state):
            if any(c.has(s) for c in members(state, u.id) for s in NO_PANIC):
                continue
            mine = [m.placed for c in members(state, u.id) for m in c.models]
            near = [(0.0 if a.through is not None else group_distance(a.stood, mine), a) for a in lost
                    if a.side == u.side and a.unit != u.id and u.id not in a.keeps]
            near = [(d, a) for d, a in near if (u.id in a.through if a.through is not None else d <= PANIC_REACH)]
            if near:
                d, a = min(near, key=lambda n: n[0])
                tests.append((u, a, d))
        fleeing: list[tuple[str, Alarm]] = []
        for u, a, d in tests:  # every test first, then the flee moves (published.t9a-panic)
            start = rolls_made(dice)
            group = members(state, u.id)
            discipline = unit_discipline(state, u.id)
            assert discipline is not None  # a standing unit has models
            ld, lent = discipline
            result, flag = discipline_test(state, u.id, dice, ld.value, LeadershipTestKind.PANIC)
            rules = [PANIC, result.rule, *ld.rules, *((BATTLE_STANDARD,) if flag else ())]
            if lent:
                rules.append(GENERAL)
            # the clause is cited when a last survivor tests or is lost; ``a.keeps`` lists every model of a unit that
            # broke (they are still that unit), which says nothing of a last survivor (round 31: it cited the clause)
            if u.last_of or current(state, a.unit).last_of:
                rules.append(LAST_SURVIVOR)
            if a.charged_out:
                rules.append(CHARGE_OUT)
            ld_said = discipline_said(ld, lent, flag)
            lost_as = _named(state, a.unit)
            cause = f"{lost_as} {a.what}" if a.through is not None else f"{lost_as} {a.what} {d:.1f}\" away"
            if a.charged_out:
                cause += " (a separate unit once he declared his charge out)"
            if result.passed:
                state = state.replace_units(*(c.with_status(Status.PANIC_PASSED) for c in group))
                said = f"{u.id} passes its Panic test for {cause} ({result.roll} against {ld_said})"
                outcome = "passed"
            else:
                fleeing.append((u.id, a))
                said = f"{u.id} fails its Panic test for {cause} ({result.roll} against {ld_said}) and flees"
                outcome = "fled"
            events.append(Event("panic", said, tuple(dict.fromkeys(rules)), rolls_since(dice, start),
                                (("outcome", outcome),)))
        before = state
        for uid, a in fleeing:
            start = rolls_made(dice)
            away = closest_enemy_centre(state, uid, _mean(a.stood))
            fled_from = state
            state, dist = flee(state, uid, away, dice)
            gone = not current(state, uid).alive
            said, cite = off_table(fled_from, uid) if gone else ("", ())
            events.append(Event("flee", f"{uid} flees {dist}\" from its failed Panic test" + said,
                                (FLEE_RULE, PANIC, *cite), rolls_since(dice, start),
                                (("outcome", "destroyed" if gone else "fled"),)))
        lost = alarms(before, state) if fleeing else []
    return state, events
