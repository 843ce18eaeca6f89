"""The 9th Age Panic tests a unit takes for its friends: one destroyed, or breaking from combat, within 6".

The 9th Age rulebook (2nd edition, 17.A Panic Test): "A Panic Test is a Discipline Test that a unit
has to take immediately after any of the following situations arise: a friendly unit is destroyed
within 6" of the unit (including Fleeing off the board); a friendly unit Breaks from Combat within
6" of the unit ..."; "units that fail a Panic Test immediately Flee directly away from the closest
enemy unit (Centre of Unit to Centre of Unit)"; "if several units have to take a Panic Test at the
same time, take all Panic Tests before performing any Flee Moves"; "units do not take Panic Tests
if they are Engaged in Combat, if they are already Fleeing, or if they already passed a Panic Test
during this phase".

Every action a 9th Age unit can be destroyed or broken by (a shot, a spell or its Miscast, a fight,
a Stand and Shoot, a flee off the table) goes through ``resolve_checked``; the hook here compares
the state before it with the state after and has the friends near each unit lost take their test.
A combined unit whose last survivor lives is not destroyed (``t9a.is_destroyed``,
t9a.combined.last-survivor), nor is a character slain inside a unit (he is part of it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..checks import LeadershipTestKind, leadership_test
from ..dice import Dice
from ..geometry import Placed, group_distance
from ..rulings import Event
from ..state import GameState
from ..units import Status, Unit
from .base import Resolution, Ruleset
from .t9a import current, is_destroyed
from .t9a_combat import FLEE_RULE, GENERAL, PANIC, flee, generals_near, members

if TYPE_CHECKING:
    from ..actions import Action

#: How near a friend destroyed or breaking makes a unit take a Panic test (inches, edge to edge).
PANIC_REACH = 6.0
LAST_SURVIVOR = "t9a.combined.last-survivor"
#: What keeps a unit from taking a Panic test (published.t9a-panic).
NO_PANIC = (Status.ENGAGED, Status.FLEEING, Status.PANIC_PASSED)


@dataclass(frozen=True)
class Alarm:
    """A friend lost near others: destroyed or broken from combat, measured where it stood when the action began."""

    unit: str
    side: str
    stood: tuple[Placed, ...]
    what: str  # "destroyed" or "breaks from combat"
    keeps: tuple[str, ...]  # the ids that are still that unit (its last survivor): they do not test for it


def _standing(state: GameState) -> list[Unit]:
    """Return the units on the table as units: hosts, lone characters, last survivors (not joined characters)."""
    return [u for u in state.units if u.joined is None and u.alive and u.embarked_in is None]


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
    for u in _standing(before):
        destroyed = is_destroyed(after, u.id)
        now = current(after, u.id)
        broke = not destroyed and u.has(Status.ENGAGED) and not u.has(Status.FLEEING) and now.has(Status.FLEEING)
        if not destroyed and not broke:
            continue
        what = "breaks from combat" if broke else "destroyed"
        keeps = () if destroyed else tuple(m.id for m in members(after, now.id))
        out.append(Alarm(u.id, u.side, _stood(before, u.id), what, keeps))
    return out


def _centre(state: GameState, unit_id: str) -> tuple[float, float]:
    host = current(state, unit_id)
    if host.formation is not None:
        return host.formation.position
    return next(m.at for u in members(state, unit_id) for m in u.models)


@implements(PANIC)
def closest_enemy_centre(state: GameState, unit_id: str, fallback: tuple[float, float]) -> tuple[float, float]:
    """Return where a unit that failed a Panic test flees away from: the closest enemy unit's centre.

    Centre of unit to centre of unit; on a tie the first such unit in the state's order; with no
    enemy on the table, away from the friend whose loss caused the test (``fallback``).
    """
    side = current(state, unit_id).side
    here = _centre(state, unit_id)
    best: tuple[float, tuple[float, float]] | None = None
    for e in _standing(state):
        if e.side == side:
            continue
        c = _centre(state, e.id)
        d = (c[0] - here[0]) ** 2 + (c[1] - here[1]) ** 2
        if best is None or d < best[0]:
            best = (d, c)
    return best[1] if best is not None else fallback


def _mean(points: Sequence[Placed]) -> tuple[float, float]:
    return (sum(p.at[0] for p in points) / len(points), sum(p.at[1] for p in points) / len(points))


class FriendsPanic(Ruleset):
    """The hook: after every action, the Panic tests its destroyed or broken units call for in their friends."""

    def resolve_checked(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Resolve the action, then take the Panic tests of the friends near each unit it destroyed or broke."""
        after, events = super().resolve_checked(state, action, dice)
        lost = alarms(state, after)
        if not lost:
            return after, events
        return friends_panic(after, lost, dice, events)

    def end_panic_phase(self, state: GameState) -> GameState:
        """Forget who passed a Panic test when a phase ends: the test spares a unit only for its phase."""
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
            near = [(group_distance(a.stood, mine), a) for a in lost
                    if a.side == u.side and a.unit != u.id and u.id not in a.keeps]
            near = [(d, a) for d, a in near if d <= PANIC_REACH]
            if near:
                d, a = min(near, key=lambda n: n[0])
                tests.append((u, a, d))
        fleeing: list[tuple[str, Alarm]] = []
        for u, a, d in tests:  # every test first, then the flee moves (published.t9a-panic)
            start = len(dice.log)
            group = members(state, u.id)
            general = [m.profile.ld for m in generals_near(state, u.id)]
            own = max(m.profile.ld for c in group for m in c.models)
            result = leadership_test(dice, max([own, *general]), LeadershipTestKind.PANIC)
            rules = [PANIC, result.rule]
            lent = bool(general) and result.value == max(general) and result.value > own
            if lent:
                rules.append(GENERAL)
            if u.last_of or a.keeps or current(state, a.unit).last_of:
                rules.append(LAST_SURVIVOR)
            ld = f"Ld {result.value}" + (", the General's" if lent else "")
            cause = f"{a.unit} {a.what} {d:.1f}\" away"
            if result.passed:
                state = state.replace_units(*(c.with_status(Status.PANIC_PASSED) for c in group))
                said = f"{u.id} passes its Panic test for {cause} ({result.roll} against {ld})"
                outcome = "passed"
            else:
                fleeing.append((u.id, a))
                said = f"{u.id} fails its Panic test for {cause} ({result.roll} against {ld}) and flees"
                outcome = "fled"
            events.append(Event("panic", said, tuple(dict.fromkeys(rules)), tuple(dice.log[start:]),
                                (("outcome", outcome),)))
        before = state
        for uid, a in fleeing:
            start = len(dice.log)
            away = closest_enemy_centre(state, uid, _mean(a.stood))
            state, dist = flee(state, uid, away, dice)
            gone = not current(state, uid).alive
            events.append(Event("flee", f"{uid} flees {dist}\" from its failed Panic test"
                                + (", off the table: destroyed" if gone else ""),
                                (FLEE_RULE, PANIC), tuple(dice.log[start:]),
                                (("outcome", "destroyed" if gone else "fled"),)))
        lost = alarms(before, state) if fleeing else []
    return state, events
