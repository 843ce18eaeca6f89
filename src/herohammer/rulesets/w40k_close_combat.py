"""Warhammer 40,000 close combat: the fight, its blows by Initiative, and the combat result.

Who strikes whom with what (the combat's units, allocation, each step's pools) is the layer below, ``w40k_strikes``.

A fight is a ``Dice.loop`` over Initiative steps (``_Melee`` carries it between them):
each step's strikes are worked out once per state and its dice only pick a result, so an
enumeration merges fights that stand alike between steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from operator import attrgetter, lt
from functools import partial
from itertools import compress, repeat
from typing import Any, NamedTuple

from ..actions import Fight
from ..catalogue import implements
from ..charts import close_combat_attacks, is_casualty, to_hit_melee, to_wound
from ..dice import Dice, Stage, rolls_made, rolls_since
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from ..values import evolve, keep_bounded
from ..weapons import Weapon
from .base import Resolution
from .engagement import Engagement
from .w40k_wounds import (casualties, killed_outright, majority, MODEL_OF, ModelRef, models_of,
                          NO_KILLS, outright_events, release_orphans, SaveSplit, TOUGHNESS_OF, UNIT_OF, PROFILE_WOUNDS_OF,
                          wounded_units, WOUNDS_TAKEN_OF, zero_rules)
from .w40k_combat_result import PileInDanger
from .w40k_strikes import Job, StrikeRules, WEAPON_ARMOUR_OFF, WS_OF

#: How many later Initiative steps' attacks a state fought from again remembers (``_FightSetup.later``).
LATER_GATHERS_KEPT = 256
#: How many strikes (a state and its pools) a state fought from again remembers (``_FightSetup.strikes``), and how
#: many outcomes of its dice each strike remembers (``_StrikePlan.outcomes``).
STRIKES_KEPT = 256
OUTCOMES_KEPT = 64
_WOUNDS_LEFT = attrgetter("wounds_left")
_FOUGHT = frozenset({Status.FOUGHT})
_FOUGHT_UNIT = "fought"  # the key of a unit's value once its combat is fought (``_fought_unit``)
_SLAIN_REMOVED = "slain removed"  # the key of a unit's value with its slain removed (``_remove_casualties``)


def _ws_zero(attacker_ws: int, target_ws: int) -> tuple[str, ...]:
    """Name core.zero.ws when a Weapon Skill of 0 decided a close combat to-hit roll (either side's), else nothing."""
    return ("core.zero.ws",) if attacker_ws <= 0 or target_ws <= 0 else ()


@implements("core.zero.a")
def _no_attacks(state: GameState, combat: Iterable[str]) -> list[Event]:
    """Say, per unit of a close combat, which of its models make no attacks because their Attacks are 0."""
    events = []
    for uid in combat:
        unit = state.unit(uid)
        idle = [m.name for m in unit.models if not close_combat_attacks(m.profile.a)]
        if idle:
            events.append(Event("no_attacks", f"{', '.join(idle)} ({uid}) make{'s' * (len(idle) == 1)} no close "
                                "combat attacks: Attacks 0", ("core.zero.a",)))
    return events


#: an Initiative step's pools, the Initiative after it, its events (the step's, and what the steps it passed said:
#: a character left touching no enemy, ``_foes_gone``); no pools: no blow left to strike, the events alone
Gathered = tuple[tuple[Job, ...], int, tuple[Event, ...]]
EventView = Callable[[Event], Hashable]
ScoreRead = Callable[[tuple[tuple[str, int], ...]], Hashable]


class _Melee:
    """Where a close combat stands between steps: the state, the pools still to strike, the score, the events.

    A carry of ``Dice.loop``, made at every step of play and enumeration alike: a plain slotted value built in
    one call (no dataclass copied field by field), never changed once built but for what it works out about
    itself (its key, its tally of events, the attacks its next step gathers), which a new carry does not inherit.
    """

    __slots__ = ("state", "initiative", "jobs", "caused", "events", "finished", "whole_score", "pending",
                 "kept_key", "kept_tally", "gathered")

    def __init__(self, state: GameState, initiative: int, jobs: tuple[Job, ...], caused: tuple[tuple[str, int], ...],
                 events: tuple[Event, ...], finished: bool = False, whole_score: bool = True,
                 pending: tuple[str, ...] = ()) -> None:
        self.state = state
        self.initiative = initiative  # the next Initiative value to gather attacks for; -1: every blow struck
        self.jobs = jobs
        self.caused = caused
        self.events = events
        self.finished = finished
        #: False in a step's result from ``fresh()``: ``caused`` holds only what that step added.
        self.whole_score = whole_score
        #: Units whose slain wait at 0 Wounds for the end of the Initiative step (a later pool of the step reads
        #: them). Told by ``state`` (the units with a model at 0 Wounds), so no key needs it.
        self.pending = pending
        self.kept_key: Hashable | None = None
        self.kept_tally: dict[Hashable, int] | None = None
        #: The attacks of the next Initiative step, gathered once per carry (an enumeration steps it per branch).
        self.gathered: tuple[Gathered, ...] | None = None

    def __repr__(self) -> str:
        return (f"_Melee(initiative={self.initiative}, jobs={len(self.jobs)}, caused={self.caused}, "
                f"finished={self.finished}, events={len(self.events)})")

    def key(self, view: EventView | None = None, result: ScoreRead | None = None) -> Hashable:
        """Everything later steps and callers read (worked out once per carry).

        Events count as the caller reads them (``view``, see ``Dice.event_view``; without
        one by kind, rules and data), never by their wording or order.  The wounds caused
        count only as margins between the sides (each side's count less the lowest), and
        once every blow is struck only as ``result`` reads them (who won, and what the
        margin does to the loser's Morale check) - in a whole score, not in what one step
        added (``whole_score``), which a join may still add to; the score in the result's
        text is a representative one.  A finished combat is its state and events alone.
        """
        kept = self.kept_key
        if kept is None:
            events = frozenset(self.tally(view).items())
            if self.finished:
                kept = self.state, events
            elif self.struck and self.whole_score and result is not None:
                kept = self.state, result(self.caused), events
            else:
                low = min((n for _, n in self.caused), default=0)
                kept = (self.state, self.initiative, self.jobs, tuple((side, n - low) for side, n in self.caused),
                        events)
            self.kept_key = kept
        return kept

    def tally(self, view: EventView | None) -> dict[Hashable, int]:
        """Count the events as ``view`` shows them (kept with the carry: ``join`` adds two tallies; a plain dict, no
        count below 1, which a carry's every step and join builds: a Counter's calls cost more than its counting)."""
        tally = self.kept_tally
        if tally is None:
            tally = self.kept_tally = {}
            get = tally.get
            for v in (((e.kind, e.rules, e.data) for e in self.events) if view is None else map(view, self.events)):
                if v is not None:
                    tally[v] = get(v, 0) + 1
        return tally

    @property
    def struck(self) -> bool:
        """Say whether every blow is struck: the combat result comes next."""
        return self.initiative < 0 and not self.jobs and not self.finished

    def fresh(self) -> _Melee:
        """Return this point of the combat with no events yet, and until the result no wounds caused yet.

        No step reads the events, and until the combat result the steps only add to the
        wounds caused (``Dice.loop``).
        """
        caused = self.caused if self.struck else tuple((side, 0) for side, _ in self.caused)
        return _Melee(self.state, self.initiative, self.jobs, caused, (), self.finished, self.struck and self.whole_score,
                      self.pending)

    def join(self, stepped: _Melee, view: EventView | None = None) -> _Melee:
        """Return ``stepped`` (a step from ``self.fresh()``) after this point: its events and wounds caused first."""
        if not self.struck:
            mine = dict(self.caused)
            caused = tuple((side, mine.get(side, 0) + n) for side, n in stepped.caused)
            whole = True
        else:
            caused, whole = stepped.caused, stepped.whole_score
        joined = _Melee(stepped.state, stepped.initiative, stepped.jobs, caused, (*self.events, *stepped.events),
                        stepped.finished, whole, stepped.pending)
        before, after = self.tally(view), stepped.tally(view)
        if not after or not before:  # one side counts nothing (a step of no event the view reads): the other's, shared
            joined.kept_tally = before or after  # (no tally is changed once made)
        else:
            joined.kept_tally = both = before.copy()
            get = both.get
            for v, n in after.items():  # every count is positive: the sum a Counter's ``+`` would give
                both[v] = get(v, 0) + n
        return joined


class _FightSetup(NamedTuple):
    """What a fight reads from the state it starts from, whatever the dice: worked out once per state and fighting unit.

    Ruling and resolving share the engagement; play applying the same fight again (a search)
    and an enumeration (once per leaf) find the rest ready, the first Initiative step's attacks
    too.  ``arms`` and ``gathered`` fill as the fight asks: the melee weapon of each set of
    weapons carried, and each Initiative step's attacks gathered on the starting state.
    """

    engagement: Engagement
    combat: tuple[str, ...]
    allocations: dict[str, tuple[tuple[str, int], ...]]
    levels: frozenset[int]
    arms: dict[tuple[str, ...], Weapon]
    gathered: dict[int, tuple[Gathered, ...]]
    #: The later steps' attacks by their state's value and Initiative (at most ``LATER_GATHERS_KEPT``, the oldest
    #: dropped first), kept from the second fight from this state on (``fights``: how many began from it).
    later: dict[tuple[GameState, int], tuple[Gathered, ...]]
    fights: list[int]
    sides: tuple[tuple[str, int], ...]
    opening: tuple[Event, ...]  # the fight's first events: the close combat, the characters fighting apart
    #: Each strike's reading and what its dice did, by the carry's state and by the units it reads (``_Strikes``),
    #: kept from the second fight from this state on, as ``later`` is.
    strikes: _Strikes
    #: What the combat result works out whatever its dice, by the state it reads (``_Kept``): the state with every
    #: unit fought, the locks released.
    results: _Kept
    #: The characters' models touching an enemy as the fight starts, (unit id, model name) by the Initiative they
    #: strike at (``_touching_characters``): each is told if its foes are gone by its step (``_foes_gone``).
    waiting: dict[int, tuple[tuple[str, str], ...]]


class _Verdict(NamedTuple):
    """What a combat result reads from the wounds caused alone (``CloseCombatRules._combat_verdict``): its event, the
    losing side's units that take the loser's Morale check (none on a draw), why, and the check's modifier."""

    said: Event
    losers: tuple[str, ...]
    why: str
    modifier: int


class _Kept:
    """The dice-free pieces of a fight's result that a state fought from again keeps, by the state each reads.

    ``fought``: the state with every unit of the combat fought, by the state the blows left
    (the very state a Morale check and a fall back then read, so what they keep per state
    is found again); ``unlocked``: the locks released and what follows them (``after_combat_result``: 4th
    edition's units free to consolidate, with their events), by the state the checks left; ``verdicts``: who lost
    and the words saying so, by the wounds caused.
    Each kind is bounded apart (``keep_bounded``).
    """

    __slots__ = ("fought", "unlocked", "verdicts", "lasts", "checked", "checked_by_id")

    def __init__(self) -> None:
        self.fought: dict[GameState, GameState] = {}
        self.unlocked: dict[GameState, tuple[GameState, list[Event], PileInDanger | None]] = {}
        self.verdicts: dict[tuple[tuple[str, int], ...], _Verdict] = {}
        #: Last Man Standing's result by the state the Morale checks left and the units spared it, when it rolled no
        #: die (no unit newly left with one model, or only those spared the test): the same whatever the dice
        self.lasts: dict[tuple[GameState, frozenset[str]], Resolution] = {}
        #: one object per value of the states the Morale checks left (``one_of``), and each object met with the one
        #: kept for its value, by identity
        self.checked: dict[GameState, GameState] = {}
        self.checked_by_id: dict[int, tuple[GameState, GameState]] = {}

    def one_of(self, state: GameState) -> GameState:
        """Return the one object kept for ``state``'s value among the states the Morale checks left.

        Different results of the blows may end in equal states made apart (a unit caught by a Sweeping Advance
        with three models left or with five): looked up by value, each would be compared with the kept one field
        by field on every fight; found by identity, an object met before costs one look-up.
        """
        met = self.checked_by_id.get(id(state))
        if met is not None and met[0] is state:  # (the object itself is held, so its id is not another's)
            return met[1]
        kept = self.checked.get(state)
        if kept is None:
            kept = keep_bounded(self.checked, state, state, STRIKES_KEPT)
        keep_bounded(self.checked_by_id, id(state), (state, kept), STRIKES_KEPT)
        return kept


#: What a strike's dice decide and a carry's state keeps (``_Strikes.at``): the state after it, the events after its
#: attacks event (saves, casualties: no rolls of their own), the wounds inflicted (the combat result's count: unsaved
#: wounds a model took, none beyond its last Wound) and the units whose slain wait.
StrikeOutcome = tuple[GameState, tuple[Event, ...], int, tuple[str, ...]]
#: What a strike's dice do to the units it reads, whatever else the state holds (``_StrikePlan.deltas``): the units
#: with their wounds (and slain) taken, the events after its attacks event, the wounds inflicted, and the units whose
#: slain wait for the end of the Initiative step.
StrikeDelta = tuple[tuple[Unit, ...], tuple[Event, ...], int, tuple[str, ...]]


class _StrikePlan(NamedTuple):
    """What a strike reads before its dice: the pool's models, the dice to roll, the words to say.

    It reads only the pools and the units of the first pool's models, so a fight fought again
    from one state keeps it by those (``_Strikes.plans``), for every carry whose state holds the
    same units, whatever happened elsewhere; ``deltas`` then keeps what each result of its dice
    does to those units (by wounds and unsaved wounds per save group, and whether the struck
    unit has characters with it: the carry-over clause cited).
    """

    models: dict[ModelRef, tuple[Unit, Model]]  # the pool's models still standing (none: the strike hurts no one)
    targets: list[Model]
    to_hit: Stage | None
    to_wound: Stage | None
    saving: SaveSplit | None
    attacking: str  # the attacks event's text before the dice: who attacks whom with how many
    why: str  # what the attacks event adds after the wounds (a Strength that cannot wound)
    rules: tuple[str, ...]  # the attacks event's rules
    #: by the dice's result and the carry-over rules cited; a result whose unsaved wounds found no model of their
    #: group to take them (``_melee_not_carried`` reads the Wounds left outside the pool) is marked ``_BY_ROOM`` there
    #: and kept by those Wounds too
    deltas: dict[tuple[Any, ...], StrikeDelta]
    #: the attacks event's text by its hits and wounds (at most one per pair of counts of its attacks)
    said: dict[tuple[int, int], str]
    #: the pool's models an unsaved wound kills outright (Instant Death), with the strike's Strength (usually none)
    kills: Mapping[ModelRef, int] = NO_KILLS


class _Strikes:
    """The strikes a state fought from again keeps (each kind at most ``STRIKES_KEPT``, the oldest dropped first).

    ``plans``: each strike's reading (``_StrikePlan``) by its pools and the units of its first
    pool; ``at``: by the carry's state, pools and pending units, that plan and what each
    result of its dice led to from that state (at most ``OUTCOMES_KEPT``), so that the same
    strike from the same carry pays only for its dice and its attacks event, and one from a
    new carry with the same units struck pays only for a new state.  ``states``: each state a kept outcome
    made, by its value, so that equal states reached by different strikes (the chaplain's blow first or the
    squad's) are one object: every later look-up keyed by it (``at``, ``_Kept``) then finds it by identity,
    without comparing two states field by field.
    """

    __slots__ = ("plans", "at", "states")

    def __init__(self) -> None:
        self.plans: dict[tuple[tuple[Job, ...], tuple[Unit | None, ...]], _StrikePlan] = {}
        self.at: dict[tuple[GameState, tuple[Job, ...], tuple[str, ...]],
                      tuple[_StrikePlan, dict[tuple[int, ...], StrikeOutcome]]] = {}
        self.states: dict[GameState, GameState] = {}

    def same(self, state: GameState) -> GameState:
        """Return the kept state equal to ``state`` (``state`` itself, kept, the first time one is met)."""
        found = self.states.get(state)
        return keep_bounded(self.states, state, state, STRIKES_KEPT) if found is None else found


_BY_ROOM: Any = object()  # a strike's result kept by the Wounds left outside its pool as well (``_StrikePlan.deltas``)


class CloseCombatRules(StrikeRules):
    """Allocate attacks and fight: strikes by Initiative, then the combat result."""









    def rule_fight(self, state: GameState, action: Fight) -> Ruling:
        """Rule on fighting a close combat: the unit is in base contact and has not fought this phase."""
        unit = state.unit(action.unit)
        if not unit.alive:
            return Ruling.forbid(f"{unit.id} has no models left", "core.zero.w")
        combat = self._contact_units(state, unit.id)
        enemy = fought = False
        others: list[str] = []
        for uid in combat:  # one plain pass: who is an enemy, who has fought, who else fights
            member = state.unit(uid)
            enemy = enemy or member.side != unit.side
            fought = fought or Status.FOUGHT in member.status
            if uid != unit.id:
                others.append(uid)
        if not enemy:
            # the character clause (40k4.cc.base-contact) only for a character; a unit fights by the published rule
            return Ruling.forbid(f"{unit.id} is not in base contact with any enemy",
                                 self.contact_rule if unit.is_character else "published.close-combat")
        if fought:
            return self.fought_refusal(state, unit, combat)
        return Ruling.allow(f"{unit.id} fights its close combat with {', '.join(others)}", "published.close-combat")

    @implements("published.close-combat")
    def fought_refusal(self, state: GameState, unit: Unit, combat: Sequence[str]) -> Ruling:
        """Refuse a fight whose close combat has a unit that has fought this phase (``rule_fight``): each close combat
        is fought once an Assault phase (4th edition also says why a combat a consolidation made waits)."""
        return Ruling.forbid(f"the combat of {unit.id} has already been fought this phase: each close combat is "
                             "fought once an Assault phase", "published.close-combat")

    @implements("40k4.cc.separate-unit", "40k4.cc.base-contact", "40k4.cc.no-carry-over", "40k4.cc.engaged-only",
                "core.zero.ws", "core.zero.a")
    def resolve_fight(self, state: GameState, action: Fight, dice: Dice) -> Resolution:
        """Fight in Initiative order (pooled rolls per step), compare wounds caused, test the losers' morale.

        The fight is a loop of steps over a ``_Melee`` carry (gather an Initiative step's
        attacks, strike with one pool, finally the combat result): play runs it step by
        step, an exact enumeration merges equal carries after every step.
        """
        setup = state.remember(("fight", type(self), action.unit), lambda: self._fight_setup(state, action.unit))
        engagement, combat, allocations, levels, arms, start_gathered, later, fights = setup[:8]
        strikes, results, waiting = setup.strikes, setup.results, setup.waiting
        # a state fought from once (a new state in play) gains nothing from remembering what the later steps gathered
        # on their own new states: from the second fight from it on (a search applying it again) they are remembered
        remember_later = fights[0] > 0
        fights[0] += 1
        before = state
        # no model strikes at an Initiative from 0 to below this one: a step's last pool then ends the blows
        lowest = min([level for level in levels if level >= 0], default=1 << 30)
        def step(melee: _Melee, dice: Dice) -> _Melee:
            jobs, initiative, events = melee.jobs, melee.initiative, melee.events
            if not jobs:  # gather the next Initiative step's attacks, and strike its first pool in the same step
                if initiative < 0:
                    return result(melee, dice)
                # an enumeration steps the same carry once per branch of the dice: the attacks gathered once
                gathered = melee.gathered
                if gathered is None:
                    if melee.state is before:  # the fight's first step (or one where no one was hurt yet): once a state
                        gathered = start_gathered.get(initiative)
                        if gathered is None:
                            gathered = start_gathered[initiative] = gather(melee)
                    elif remember_later:  # told by the state's value (hashed once) and the Initiative
                        gathered = later.get((melee.state, initiative))
                        if gathered is None:
                            gathered = keep_bounded(later, (melee.state, initiative), gather(melee), LATER_GATHERS_KEPT)
                    else:
                        gathered = gather(melee)
                    melee.gathered = gathered
                if not gathered or not gathered[0][0]:  # every blow struck: the combat result is a step of its own
                    return _Melee(melee.state, -1, melee.jobs, melee.caused,
                                  (*melee.events, *gathered[0][2]) if gathered else melee.events, melee.finished,
                                  melee.whole_score, melee.pending)
                jobs, initiative, said = gathered[0]
                events = (*events, *said)
            if len(jobs) == 1 and initiative < lowest:
                initiative = -1  # no one left to strike: the combat result is next
            return self._strike(melee, jobs, initiative, events, dice, strikes if remember_later else None)

        def gather(melee: _Melee) -> tuple[Gathered, ...]:
            """Return the attacks of the next Initiative step that has any, the Initiative after it and its events
            (with what the steps passed said of a character left touching no enemy, ``_foes_gone``)."""
            gone: tuple[Event, ...] = ()
            for initiative in range(melee.initiative, -1, -1):
                if initiative not in levels:
                    continue
                jobs = self._strikes(melee.state, engagement, initiative, allocations, arms)
                here = self._foes_gone(melee.state, engagement, waiting[initiative], initiative) \
                    if waiting and initiative in waiting else ()
                if jobs:
                    pools = []
                    for key, (n, pool) in jobs.items():
                        pools.append((key, n, tuple(pool)))
                    return ((tuple(pools), initiative - 1,
                             (*gone, Event("initiative", f"Initiative {initiative} strikes", ("published.initiative",),
                                           data=(("initiative", initiative),)), *here)),)
                gone += here
            return (((), -1, gone),) if gone else ()

        def result(melee: _Melee, dice: Dice) -> _Melee:
            kept = results if remember_later else None
            found = None if kept is None else kept.fought.get(melee.state)
            if found is not None:
                state = found
            else:
                state = fought(melee.state)
                if kept is not None:
                    keep_bounded(kept.fought, melee.state, state)
            state, more = self._resolve_combat(state, before, combat, melee.caused, dice,
                                               engagement=engagement, kept=kept)
            return _Melee(state, -1, melee.jobs, melee.caused, (*melee.events, *more), True, melee.whole_score,
                          melee.pending)

        def fought(state: GameState) -> GameState:
            """Return ``state`` with every unit of the combat marked as fought, its splits of attacks ended."""
            allocations = state.allocations  # splits of attacks end with the fight
            if allocations and any(a[0] in combat for a in allocations):
                allocations = tuple(a for a in allocations if a[0] not in combat)
            units = []  # every unit of the combat has fought: one new state, each unit's fought value kept on the unit
            for u in state.units:  # (the many states a fight fought again ends in share them, each hashed once)
                units.append(u.remember(_FOUGHT_UNIT, partial(_fought_unit, u)) if u.id in combat else u)
            return evolve(state, allocations=allocations, units=tuple(units))

        view = dice.event_view
        melee = dice.loop(_Melee(state, 10, (), setup.sides, setup.opening), step, _FINISHED,
                          lambda m: m.key(view, self.combat_result_read), _Melee.fresh, lambda m, r: m.join(r, view))
        return melee.state, list(melee.events)

    def _fight_setup(self, state: GameState, unit_id: str) -> _FightSetup:
        """Work out what a fight reads from the state it starts from, whatever the dice (``_FightSetup``)."""
        engagement = self._engagement(state, unit_id)
        combat = engagement.units
        opening = Event("fight", f"close combat: {', '.join(combat)}", ("published.close-combat",))
        return _FightSetup(engagement, combat, dict(state.allocations),
                           # the Initiative values of the combat's models (models only leave a fight): no other step
                           # gathers attacks
                           frozenset().union(*engagement.levels.values()), {}, {}, {}, [0],
                           tuple(zip(sorted(set(map(_SIDE, map(state.unit, combat)))), repeat(0))),
                           (opening, *self._characters_apart(state, engagement),
                            *self._supporters_notes(state, engagement), *_no_attacks(state, combat),
                            *self._second_weapon_notes(state, combat), *self._fixed_initiative_notes(state, engagement)),
                           _Strikes(), _Kept(), self._touching_characters(state, engagement))

    def _strike(self, melee: _Melee, jobs: tuple[Job, ...], initiative: int, events_before: tuple[Event, ...],
                dice: Dice, kept: _Strikes | None = None) -> _Melee:
        """Roll the first of ``jobs`` (hit, wound, saves); after an Initiative step's last, remove the slain.

        The carry that follows holds the other jobs, ``initiative`` and the events after ``events_before``.
        What the strike reads before its dice is its plan (``_strike_plan``), and what the dice
        then do to the state its outcome (``_strike_outcome``); ``kept``: the plans and outcomes
        a fight fought again from one state keeps (``_Strikes``), so that the same strike from
        the same carry pays only for its dice.
        """
        state, pending, rest = melee.state, melee.pending, jobs[1:]
        outcomes: dict[tuple[int, ...], StrikeOutcome] | None = None
        if kept is None:
            plan = self._strike_plan(state, jobs)
        else:
            key = (state, jobs, pending)
            found = kept.at.get(key)
            if found is None:
                found = keep_bounded(kept.at, key, (self._kept_plan(state, jobs, kept.plans), {}), STRIKES_KEPT)
            plan, outcomes = found
        caused = melee.caused
        if plan.models:
            side, n = jobs[0][0][0], jobs[0][1]
            assert plan.to_hit is not None and plan.to_wound is not None  # a plan with models has its dice
            start = rolls_made(dice)
            saving = plan.saving
            # (hits, wounds, unsaved per save group): the wounds and unsaved counts are what the dice decide
            counts = dice.pools(n, plan.to_hit, plan.to_wound) if saving is None else \
                dice.pools(n, plan.to_hit, plan.to_wound, split=saving[0])
            decided = counts[1:]
            got = decided[0]
            said = plan.said.get((counts[0], got))  # the words once per plan and counts, not per strike
            if said is None:
                hits = counts[0]
                said = plan.said[(counts[0], got)] = (f"{plan.attacking}{hits} hit{'s' * (hits != 1)}, "
                                                      f"{got} wound{'s' * (got != 1)}{plan.why}")
            attacks = Event("attacks", said, plan.rules, rolls_since(dice, start))
            outcome = outcomes.get(decided) if outcomes is not None else None
            if outcome is None:
                outcome = self._strike_outcome(plan, state, pending, rest, decided, outcomes is not None)
                if outcomes is not None:
                    assert kept is not None  # outcomes are kept only with the fight's strikes
                    if outcome[0] is not state:  # a new state: one object for every strike that reaches it
                        outcome = (kept.same(outcome[0]), outcome[1], outcome[2], outcome[3])
                    keep_bounded(outcomes, decided, outcome, OUTCOMES_KEPT)
            state, more, unsaved, pending = outcome
            events = (*events_before, attacks, *more)
            if unsaved:  # (every side of the combat is in the score from the start, in order: ``_FightSetup.sides``)
                for i, (who, count) in enumerate(caused):
                    if who == side:
                        caused = (*caused[:i], (who, count + unsaved), *caused[i + 1:])
                        break
        else:
            events = events_before
            if not rest and pending:
                state, pending = _remove_casualties(state), ()
        return _Melee(state, initiative, rest, caused, events, melee.finished, melee.whole_score, pending)

    @implements("40k4.cc.engaged-only", "40k3.char.attack-allocation")
    def _strike_plan(self, state: GameState, jobs: tuple[Job, ...]) -> _StrikePlan:
        """Read what the first of ``jobs`` needs before its dice: the models it may hurt, its rolls and their words."""
        (_, pool_key, ws, s, armour_off, apart, who), n, pool = jobs[0]
        models = models_of(state, pool)  # the pool's models still standing (none leave before the step ends)
        if not models:
            return _StrikePlan(models, [], None, None, None, "", "", (), {}, {})  # (no dice: no deltas)
        live = list(models)
        targets = list(map(MODEL_OF, models.values()))
        target_ws = majority(list(map(WS_OF, targets)))
        need = to_hit_melee(ws, target_ws)
        zero_ws = _ws_zero(ws, target_ws)  # core.zero.ws only when a WS of 0 decided the roll
        rule = self.allocation_rule if apart else (zero_ws[0] if zero_ws else "published.to-hit-ws")
        toughness = majority(list(map(TOUGHNESS_OF, targets)))
        wound_on = to_wound(s, toughness)
        saving = self._save_split(state, live, bool(armour_off), n, pool_key, models, targets)
        to_hit = Stage(need, f"{who}: to hit ({need}+, WS{ws})", rule)
        to_wound_stage = Stage(wound_on, f"{who}: to wound ({wound_on}+, S{s} vs T{toughness})",
                               rule if apart else "published.to-wound")
        why = "" if wound_on is not None else f" (S{s} cannot wound T{toughness})"
        creature = armour_off if armour_off and armour_off != WEAPON_ARMOUR_OFF and wound_on is not None else ""
        if creature:
            why = " (a Monstrous Creature's close combat wounds: no armour save)"
        # blows at a character (a unit of his own in 4th edition) cite what lets them reach him: the strikers are
        # engaged with him (judge round 63: they cited the to-hit chart alone), in base contact with him in 3rd
        # edition (judge round 65)
        at_character = self.struck_character_rules if not apart and state.has_unit(pool_key) \
            and state.unit(pool_key).is_character else ()
        kills = NO_KILLS  # published.instant-death: only a model with Wounds to lose beyond one can be killed outright
        if max(map(PROFILE_WOUNDS_OF, targets)) > 1 and s >= 2 * min(map(TOUGHNESS_OF, targets)):
            kills = {ref: s for ref, (unit, model) in models.items() if killed_outright(unit, model, s)} or NO_KILLS
        return _StrikePlan(models, targets, to_hit, to_wound_stage, saving,
                           f"{who} attacks {pool_key} ({n}): ", why,
                           tuple(dict.fromkeys((rule, *at_character, *zero_ws, *zero_rules(s, toughness),
                                                *(creature,) * bool(creature)))),
                           {}, {}, kills)

    def _kept_plan(self, state: GameState, jobs: tuple[Job, ...],
                   plans: dict[tuple[tuple[Job, ...], tuple[Unit | None, ...]], _StrikePlan]) -> _StrikePlan:
        """Return the plan of the first of ``jobs`` kept for the units of its pool as ``state`` holds them."""
        key = (jobs, tuple([state.unit(uid) if state.has_unit(uid) else None
                            for uid in dict.fromkeys(map(UNIT_OF, jobs[0][2]))]))
        plan = plans.get(key)
        if plan is None:
            plan = keep_bounded(plans, key, self._strike_plan(state, jobs), STRIKES_KEPT)
        return plan

    def _strike_outcome(self, plan: _StrikePlan, state: GameState, pending: tuple[str, ...], rest: tuple[Job, ...],
                        decided: tuple[int, ...], keep: bool = False) -> StrikeOutcome:
        """Do what a strike's dice decided (``decided``: the wounds, then the unsaved wounds per save group): allocate,
        wound, remove.

        What the dice do to the units struck (``_strike_delta``) reads those units alone, so with
        ``keep`` it is kept on the plan for every state holding them; the new state is this
        state with them replaced (a destroyed unit's characters released) and, after an
        Initiative step's last pool, its slain removed.  A strike that slays or wounds no one makes
        no new state.
        """
        events: tuple[Event, ...] = ()
        unsaved = 0
        if decided[0] and plan.saving is not None:
            models = plan.models
            struck = models[next(iter(models))][0]
            host = struck.joined or struck.id
            group = state.combined(host)
            carry = self._carry_rule(state, host)
            # the Wounds left to the struck unit's members outside the pool (4th ed.: its joined characters), which
            # wounds lost for want of carry-over are told against (``_melee_not_carried``): read only when some unsaved
            # wounds found no model of their group, and then part of what is kept
            room = partial(_room_outside, group, models) if len(group) > 1 else tuple
            delta = plan.deltas.get((decided, carry)) if keep else None
            if delta is _BY_ROOM:  # this result's delta is told apart by the Wounds left outside the pool
                delta = plan.deltas.get((decided, carry, room()))
            if delta is None:
                delta, read = _strike_delta(plan, state, rest, decided, carry, room, self.not_carried_words)
                if keep:
                    if read is None:
                        keep_bounded(plan.deltas, (decided, carry), delta, OUTCOMES_KEPT)
                    else:
                        keep_bounded(plan.deltas, (decided, carry), _BY_ROOM, OUTCOMES_KEPT)
                        keep_bounded(plan.deltas, (decided, carry, read), delta, OUTCOMES_KEPT)
            changed, events, unsaved, waiting = delta
            # every wound saved: the same units (a destroyed unit's characters released, as ever)
            state = release_orphans(state.replace_units(*changed) if changed else state)
            if waiting:
                pending = (*pending, *waiting)
        if not rest and pending:
            state, pending = _remove_casualties(state), ()
        return state, events, unsaved, pending









    @implements("published.combat-resolution")
    def _combat_verdict(self, before: GameState, combat: Sequence[str], caused: tuple[tuple[str, int], ...]
                        ) -> _Verdict:
        """Read the wounds caused (every side of the combat, 0 included): who lost and by how much, in words."""
        counts = dict(caused)
        sides = sorted(set(map(_SIDE, map(before.unit, combat))))
        score = ", ".join(map("{} {}".format, sides, map(counts.__getitem__, sides)))
        if len(sides) == 2 and counts[sides[0]] != counts[sides[1]]:
            winner = max(sides, key=counts.__getitem__)
            loser = sides[1] if sides[0] == winner else sides[0]
            margin = counts[winner] - counts[loser]
            losers = []
            for uid in combat:
                was = before.unit(uid)
                if was.side == loser and not was.joined:
                    losers.append(uid)
            return _Verdict(Event("combat_result", f"combat result: {score} wounds caused; {loser} loses by {margin}",
                                  ("published.combat-resolution",), data=(("winner", winner),)),
                            tuple(losers), f"lost the combat by {margin}", self.combat_morale_modifier(margin))
        return _Verdict(Event("combat_result", f"combat result: {score} wounds caused; a draw",
                              ("published.combat-resolution",)), (), "", 0)

    @implements("published.combat-resolution")
    def _resolve_combat(self, state: GameState, before: GameState, combat: Sequence[str],
                        caused: tuple[tuple[str, int], ...], dice: Dice, engagement: Engagement | None = None,
                        kept: _Kept | None = None) -> Resolution:
        """Compare wounds caused; every losing unit takes a Morale check; then Last Man Standing.

        ``caused``: the wounds each side of the combat caused (every side counted, 0 included), by side in order.
        ``engagement``: who touched whom as the fight started (``before``), if measured.
        ``kept``: what a fight fought again from ``before`` keeps whatever the dice (``_FightSetup.results``):
        the verdict by the wounds caused, the locks released by the state they read (each state a check leads to is
        kept where it is made, the caught unit's and each fall back's end, so its value is hashed once).
        """
        if kept is None:
            verdict = self._combat_verdict(before, combat, caused)
        else:
            found_verdict = kept.verdicts.get(caused)
            if found_verdict is None:
                found_verdict = keep_bounded(kept.verdicts, caused, self._combat_verdict(before, combat, caused))
            verdict = found_verdict
        events: list[Event] = [verdict.said]
        tested: set[str] = set()
        failed: list[str] = []
        leave = None
        if len(verdict.losers) > 1:
            # a multiple combat: every losing unit checks its Morale before any of them falls back or meets a Sweeping
            # Advance (4th ed. p. 58), so a unit that failed holds no victor back from sweeping another
            def leave(state: GameState, unit_id: str, dice: Dice) -> Resolution:
                failed.append(unit_id)
                return state.replace_units(*(u.with_status(Status.FALLING_BACK) for u in state.combined(unit_id))), []
        elif verdict.losers:
            def leave(state: GameState, unit_id: str, dice: Dice) -> Resolution:
                return self.leaves_combat(state, unit_id, dice, combat)
        for uid in verdict.losers:
            # the unit tests with its characters; if it is destroyed, every character who survives it (released
            # by then) is a unit of his own and takes the loser's check himself
            live = [uid] if state.unit(uid).alive else [x.id for x in before.combined(uid) if state.unit(x.id).alive]
            for live_id in live:
                if live_id != uid:
                    events.append(self.survivor_tests(state.unit(live_id), uid))
                state, more = self._morale_check(state, live_id, dice, verdict.why, "published.combat-resolution",
                                                 verdict.modifier, leave=leave)
                tested.add(uid)
                events += more
        if failed:  # published.combat-resolution: the failed checks carried out once every loser has tested
            state, more = self.losers_leave_combat(state, failed, dice, combat)
            events += more
        skip = self.no_last_man_after(tested)
        if kept is None:
            state, more = self._last_man(state, before, dice, skip)
        else:
            state = kept.one_of(state)
            last_key = (state, frozenset(skip))
            found_last = kept.lasts.get(last_key)
            if found_last is None:
                rolled = rolls_made(dice)
                found_last = self._last_man(state, before, dice, skip)
                if rolls_made(dice) == rolled:  # no test rolled: the same result whatever the dice
                    keep_bounded(kept.lasts, last_key, found_last)
            state, more = found_last
        events += more
        if kept is None:
            state, more, danger = self._released(state, before, combat, engagement)
        else:
            found = kept.unlocked.get(state)
            if found is None:
                found = keep_bounded(kept.unlocked, state, self._released(state, before, combat, engagement))
            state, more, danger = found
        if danger is not None:  # a Pile In took models into dangerous terrain: their tests, the rest, what follows
            state, more = self._pile_in_tests(state, before, combat, danger, more, dice)
        return state, events + more if more else events

    def _released(self, state: GameState, before: GameState, combat: Sequence[str], engagement: Engagement | None
                  ) -> tuple[GameState, list[Event], PileInDanger | None]:
        """Release the locks a combat's result leaves no reason for, then do what follows (``after_combat_result``):
        both dice-free, so a fight fought again keeps them together by the state the checks left (``_Kept``).  A
        Pile In that took models into dangerous terrain stops there and returns those moves with the units yet to
        pile in (``PileInDanger``): the rest is left to ``_pile_in_tests``, after their dice."""
        state, piling = self._unlocked(state, before, combat, engagement)
        state, piled, danger = self._pile_in(state, piling, combat)
        if danger is not None:
            return state, piled, danger
        state, more = self.after_combat_result(state, before, combat)
        return state, [*piled, *more] if piled else more, None

    @implements("published.dangerous-terrain", "published.pile-in")
    def _pile_in_tests(self, state: GameState, before: GameState, combat: Sequence[str], danger: PileInDanger,
                       events: list[Event], dice: Dice) -> Resolution:
        """Test the models a unit's Pile In took into dangerous terrain ("every model that moves into or through it",
        published.dangerous-terrain; judge round 55: none did) as that unit has piled in, then a unit the tests leave
        with one model takes Last Man Standing (3rd edition), before the next unit piles in towards what is left
        (judge round 56: the tests waited until every unit had piled in, so a Boy piled in towards a Marine his test
        then slew, and stayed locked with no enemy); once all have, a unit touching no enemy is released, and what
        follows the result follows."""
        out = list(events)
        pending: PileInDanger | None = danger
        while pending is not None:
            piled, (state, tested) = state, self._dangerous_tests(state, pending.entered, dice)
            state, last = self._last_man_after_tests(state, piled, dice, tested)
            out += [*tested, *last]
            state, more, pending = self._pile_in_moves(state, pending.rest, danger.members, combat)
            out += more
        state, freed = self._pile_in_ended(state, danger.members)
        state, more = self.after_combat_result(state, before, combat)
        return state, [*out, *freed, *more]

_SIDE = attrgetter("side")
_FINISHED = attrgetter("finished")


def _slain_now(models: dict[ModelRef, tuple[Unit, Model]], rest: Sequence[Job], wounds: int,
               looked: Sequence[Model] | None = None) -> bool:
    """Say whether a strike's slain may leave at once instead of at the end of its Initiative step.

    Blows at one Initiative are simultaneous, but only the step's later pools read the models
    (by index): a unit none of them reads loses its slain at once, unless the strike might
    destroy it (fewer ``wounds`` than its models standing in the pool keep it), since a
    destroyed unit releases its characters, which later strikes of the step do read.
    ``looked``: the models of ``models``, in order, if looked up.
    """
    later: set[str] = set()
    for job in rest:
        later.update(map(UNIT_OF, job[2]))
    units = list(map(UNIT_OF, models))
    if not later.isdisjoint(units):
        return False
    if looked is None:
        looked = list(map(MODEL_OF, models.values()))
    standing = compress(units, map(lt, map(WOUNDS_TAKEN_OF, looked), map(PROFILE_WOUNDS_OF, looked)))
    if len(set(units)) == 1:  # the usual pool: the models of one unit, counted in C
        return wounds < (len(list(standing)) or wounds + 1)
    counts = Counter(standing)
    return wounds < min(counts.values(), default=wounds + 1)


def _allocate_melee(models: dict[ModelRef, tuple[Unit, Model]], saving: SaveSplit, got: int,
                    unsaved_now: Sequence[int], rules: tuple[str, ...], events: list[Event],
                    left_over: list[tuple[str, int]] | None = None, kills: Mapping[ModelRef, int] = NO_KILLS
                    ) -> tuple[dict[ModelRef, int], int]:
    """Allocate a strike's ``got`` wounds, saved as rolled with them (``unsaved_now`` per group): ``_saved_wounds`` of one batch.

    Wound k goes to the k-th model that may take one, round and round, so each group takes
    its share of the split and its first models; unsaved wounds slay whole models in order,
    any excess is lost (each group's excess, by the unit of its models, appended to ``left_over``
    when given: ``_melee_not_carried`` tells it).  Append each group's saves event; return the
    wounds each model takes and the unsaved total.
    """
    split, order, alive, keys = saving
    row = split.shares[got]
    reached = alive[:got]
    taken: dict[ModelRef, int] = {}
    total = 0
    for i, (_, save) in enumerate(order):
        n = row[i]
        if not n:
            continue
        refs = reached if len(order) == 1 else [ref for ref, key in zip(reached, keys) if key == order[i]]
        unsaved = unsaved_now[i]
        left = unsaved
        outright: list[tuple[ModelRef, int, int]] = []
        for ref in refs:
            if not left:
                break
            model = models[ref][1]
            room = model.profile.w - model.wounds_taken
            if kills and ref in kills:  # published.instant-death: one unsaved wound takes every Wound left
                taken[ref] = room
                left -= 1
                outright.append((ref, kills[ref], room))
                continue
            taken[ref] = room if room < left else left
            left -= taken[ref]
        if left and left_over is not None:
            left_over.append((models[refs[0]][0].id, left))
        names = models[refs[0]][1].name if len(refs) == 1 else f"{len(refs)} models"
        kind = "no save" if save is None else f"{n - unsaved} saved"
        events.append(Event("saves", f"{names}: {n} wound{'s' * (n != 1)}, {kind}, {unsaved} unsaved", rules))
        if outright:
            events += outright_events(outright, models)
        total += unsaved
    return taken, total


def _room_outside(group: Sequence[Unit], models: dict[ModelRef, tuple[Unit, Model]]) -> tuple[tuple[str, int], ...]:
    """Return the Wounds left to each member of a struck unit's combined ``group`` (the unit and the characters joined
    to it) with none of its models in the strike's pool (``models``): in 4th edition a strike on the unit never holds
    its characters (40k4.cc.separate-unit), nor one on a character the unit.  Members with none left are left out."""
    pooled = set(map(UNIT_OF, models))
    return tuple((u.id, left) for u in group if u.id not in pooled
                 and (left := sum(max(0, m.profile.w - m.wounds_taken) for m in u.models)) > 0)


@implements("published.wound-allocation", "40k4.cc.no-carry-over")
def _melee_not_carried(models: dict[ModelRef, tuple[Unit, Model]], taken: dict[ModelRef, int],
                       left_over: Sequence[tuple[str, int]], outside: tuple[tuple[str, int], ...],
                       carry: tuple[str, ...], words: tuple[str, str]) -> list[Event]:
    """Say how many of a close combat strike's unsaved wounds are lost only because they never carry over from the
    unit onto a character who joined it, or from such a character onto his unit (40k4.cc.no-carry-over: "wounds on
    a unit cannot carry over onto a joined character, and vice versa"; 3rd edition reads the character's wounds as
    his own group too, published.wound-allocation): each group's excess (``left_over``: by its unit) up to the
    Wounds its fellow members had left after the strike (in the pool: ``taken`` counted; outside it: ``outside``).
    The same ``not_carried_over`` event a volley tells (``_lost_events``); none when no fellow had a Wound left.
    ``words``: the edition's (``CombatHooks.not_carried_words``): the unit's excess, then a joined character's."""
    room: dict[str, int] = dict(outside)
    units: dict[str, Unit] = {}
    for ref, (unit, model) in models.items():
        units[unit.id] = unit
        left = model.profile.w - model.wounds_taken - taken.get(ref, 0)
        if left > 0:
            room[unit.id] = room.get(unit.id, 0) + left
    rules = (*carry, "published.wound-allocation")
    told: list[Event] = []
    for uid, excess in left_over:
        fellows = [other for other in room if other != uid]
        if not fellows:
            continue
        lost = min(excess, sum(room[other] for other in fellows))
        s = "s" * (lost != 1)
        unit = units[uid]
        onto = ', '.join(fellows)
        if unit.is_character and unit.joined:
            told.append(Event("not_carried_over", words[1].format(lost=lost, s=s, uid=uid, onto=onto), rules,
                              data=(("unit", uid), ("lost", lost), ("onto", "its unit"))))
        else:
            told.append(Event("not_carried_over", words[0].format(lost=lost, s=s, uid=uid, onto=onto), rules,
                              data=(("unit", uid), ("lost", lost))))
    return told


@implements("published.combat-resolution")
def _strike_delta(plan: _StrikePlan, state: GameState, rest: Sequence[Job], decided: tuple[int, ...],
                  carry: tuple[str, ...], room: Callable[[], tuple[tuple[str, int], ...]],
                  words: tuple[str, str]) -> tuple[StrikeDelta, tuple[tuple[str, int], ...] | None]:
    """Work out what a strike's dice do to the units it reads (``CloseCombatRules._strike_outcome``), in ``state``.

    The wounds are allocated in the same pass that worked out the save groups (``_save_split``
    and ``_saved_wounds`` of one batch, held to them by ``tests/test_fast_fights.py``); the
    slain leave at once unless a later pool of the Initiative step reads their unit (``_slain_now``).
    """
    got = decided[0]
    assert plan.saving is not None  # a strike that wounds has its saves
    models = plan.models
    rules = ("published.wound-allocation", *carry)
    remove = not rest or _slain_now(models, rest, got, plan.targets)
    events: list[Event] = []
    left_over: list[tuple[str, int]] = []
    taken, unsaved = _allocate_melee(models, plan.saving, got, decided[1:], rules, events, left_over, plan.kills)
    changed: list[Unit] = []
    if taken:
        changed, slain = wounded_units(state, taken, remove)
        if slain:
            events.append(casualties(slain, rules))
    outside = None
    if left_over:  # some unsaved wounds found no model of their group to take them
        outside = room()
        events.extend(_melee_not_carried(models, taken, left_over, outside, carry, words))
    waiting = tuple(dict.fromkeys(map(UNIT_OF, models))) if unsaved and not remove else ()
    # the combat result counts the wounds the strike inflicted: those a model took, up to its last Wound; unsaved
    # wounds beyond it, or that found no model, are lost and count for nothing (published.combat-resolution's decision);
    # a wound that kills its model outright is one wound inflicted, whatever Wounds it took (published.instant-death's
    # decision, session 29: the rulebooks total the wounds inflicted, and Instant Death kills outright)
    kills = plan.kills
    inflicted = sum(taken.values()) if not kills else sum(
        [1 if ref in kills else n for ref, n in taken.items()])
    return (tuple(changed), tuple(events), inflicted, waiting), outside


def _fought_unit(unit: Unit) -> Unit:
    """Return ``unit`` marked as having fought its close combat this phase."""
    return evolve(unit, status=unit.status | _FOUGHT)


def _without_slain(unit: Unit) -> Unit:
    """Return ``unit`` without its models left at 0 Wounds."""
    return evolve(unit, models=tuple(m for m in unit.models if not is_casualty(m.wounds_left)))


def _remove_casualties(state: GameState) -> GameState:
    """Remove the models left at 0 Wounds at the end of an Initiative step (only the units that have any)."""
    # each unit's value without its slain kept on the unit: the states a fight fought again reaches share them
    struck = [u.remember(_SLAIN_REMOVED, partial(_without_slain, u)) for u in state.units
              if any(map(is_casualty, map(_WOUNDS_LEFT, u.models)))]
    return release_orphans(state.replace_units(*struck) if struck else state)
