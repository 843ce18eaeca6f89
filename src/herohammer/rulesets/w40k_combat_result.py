"""Warhammer 40,000 after a close combat's result: Sweeping Advance and consolidation (4th edition's hooks).

4th edition: a unit that fails its close combat Morale check meets the victor's Sweeping
Advance (Initiative + D6 each: caught and destroyed with its characters, or it breaks off
and falls back), and each unit the result leaves with no enemy in base contact may
consolidate D6" in that Assault phase (``leaves_combat``/``after_combat_result``,
published.sweeping-advance, published.consolidation); 3rd edition falls back only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import ClassVar, NamedTuple

from .. import geometry as geo, movement
from ..catalogue import implements
from ..dice import Dice, RollRecord, rolls_made, rolls_since
from ..rulings import Event
from ..state import GameState
from ..straight_moves import STOP_SHORT
from ..units import Model, Status, Unit
from ..values import evolve
from .base import Resolution, rule_key, rule_keys
from .engagement import Engagement, touching as _touching
from .w40k_assault import AssaultRules
from .w40k_wounds import slain_data

_SWEEP = "sweeping advance"  # the key of what a Sweeping Advance reads from a state (``_sweep_facts``)
_SWEEP_INITIATIVE = "sweep initiative"  # the key of a group's Initiative for a Sweeping Advance (``_group_initiative``)
_TOUCHING = "touching"  # the key of whether a unit touches another (``_units_touch``)
_FREED = "free to consolidate"  # the key of the units a combat's result leaves free (``_free_to_consolidate``)
#: The most a model moves to Pile In (inches), and the clause that moves it (published.pile-in).
PILE_IN_INCHES = 6.0
PILE_IN_RULE = "published.pile-in"
#: The clause by which a character joined to a winning unit sweeps as a unit of his own (``_sweepers``).
SEPARATE_UNIT_RULE = "40k4.cc.separate-unit"


@implements("published.sweeping-advance")
def _sweep_initiative(group: Sequence[Unit]) -> int:
    """Return a unit's Initiative for a Sweeping Advance: its models' (and joined characters') profile value, the
    value more than half of them have, else the lowest."""
    values = [m.profile.i for u in group for m in u.models]
    if not values:
        return 0
    if values.count(values[0]) == len(values):  # the usual unit: one value throughout
        return values[0]
    for value in set(values):  # a few values at most (a squad and its characters): counted in C, no Counter built
        if 2 * values.count(value) > len(values):
            return value
    return min(values)


def _group_initiative(group: Sequence[Unit]) -> int:
    """Return ``_sweep_initiative(group)``, kept on the group's first unit by the others' values: a unit's value (a
    fought unit is one value for every state a fight fought again leads to, ``_fought_unit``) stands in many states.
    Worked out afresh while some other member's hash is not known yet (a state just built: keying would walk its
    models only to be hashed)."""
    if not all(u.hashed() for u in group[1:]):
        return _sweep_initiative(group)
    return group[0].remember((_SWEEP_INITIATIVE, tuple(group[1:])), partial(_sweep_initiative, group))


def _units_touch(a: Unit, b: Unit) -> bool:
    """Return ``touching(a, b)``, kept on ``a`` by ``b``'s value: base contact reads the two units' models alone.
    Measured afresh while ``b``'s hash is not known yet (as ``_group_initiative``)."""
    if not b.hashed():
        return _touching(a, b)
    return a.remember((_TOUCHING, b), partial(_touching, a, b))


#: How far short of another base (inches) a Pile In stops when that base is not an enemy of a close combat: beyond
#: base contact's tolerance, so that no Pile In contacts a unit not involved in the assault (published.pile-in).
PILE_IN_CLEARANCE = 0.05


def _first_block(start: geo.Point, end: geo.Point, radius: float,
                 others: Sequence[tuple[geo.Placed, float]]) -> float:
    """Return how far (a fraction of the way, 0 to 1) a disc of ``radius`` moves from ``start`` towards ``end`` before
    its base would come within each other base's clearance (0: it may touch it): a straight move goes through
    nothing, it stops short (``_contact_around`` finds a way around for a Pile In cut off)."""
    step = (end[0] - start[0], end[1] - start[1])
    length = (step[0] ** 2 + step[1] ** 2) ** 0.5
    if length == 0.0:
        return 0.0
    u = 1.0
    for o, clearance in others:
        stretch = geo.disc_path_overlaps(start, step, radius + clearance, o)
        if stretch is not None and stretch[1] > 0.0 and stretch[0] < u:
            if stretch[0] <= 0.0 and (start[0] - o.at[0]) * step[0] + (start[1] - o.at[1]) * step[1] >= 0.0:
                continue  # already this near (a friend it stood touching): moving away from it is free
            u = stretch[0]
    return max(0.0, u - STOP_SHORT / length) if u < 1.0 else 1.0


def _way_clear(start: geo.Point, end: geo.Point, radius: float, others: list[tuple[geo.Placed, float]]) -> bool:
    """Say whether ``_first_block(start, end, radius, others)`` is 1.0, the whole way clear: the others are asked in
    turn up to the first that blocks the way, which then goes first for the next way asked (``others`` reordered;
    no block depends on their order): the places around one foe are mostly cut off by the same friend."""
    step = (end[0] - start[0], end[1] - start[1])
    if (step[0] ** 2 + step[1] ** 2) ** 0.5 == 0.0:
        return False
    for k, (o, clearance) in enumerate(others):
        stretch = geo.disc_path_overlaps(start, step, radius + clearance, o)
        if stretch is not None and stretch[1] > 0.0 and stretch[0] < 1.0:
            if stretch[0] <= 0.0 and (start[0] - o.at[0]) * step[0] + (start[1] - o.at[1]) * step[1] >= 0.0:
                continue  # already this near, moving away from it (as ``_first_block``)
            if k:
                others.insert(0, others.pop(k))
            return False
    return True


def _within_reach(m: Model, radius: float, most: float,
                  others: list[tuple[geo.Placed, float]]) -> list[tuple[geo.Placed, float]]:
    """Return the bases of ``others`` that a disc of ``radius`` moving at most ``most`` inches from ``m`` could come
    within their clearance of: the others cannot stop any of its moves (``_first_block``), so a Pile In measures its
    straight way and its ways around (``_contact_around``) against these alone.  Kept with a margin of 0.01" beyond
    the bounding circles (``Base.reach_inches``), so no base that rounding could bring near is left out."""
    x, y = m.at
    far = most + radius + 0.01
    return [(o, clearance) for o, clearance in others
            if math.dist((x, y), o.at) <= far + clearance + o.base.reach_inches]


_AROUND_ANGLES = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in range(0, 360, 10))


def _contact_around(start: geo.Point, radius: float, foes: Sequence[Model],
                    others: Sequence[tuple[geo.Placed, float]], most: float = PILE_IN_INCHES) -> geo.Point | None:
    """Return the nearest place in base contact with a foe of the combat that a model of base ``radius`` at ``start``
    reaches by a straight move of at most ``most`` (6", or what its Pile In has left) through and into no other base,
    or None (published.pile-in's decision,
    session 31: a Pile In is a move "in an attempt to contact" the enemy, so a model whose straight way in is cut
    off by a friend's base goes around it, as any move may)."""
    spots: list[tuple[float, int, geo.Point]] = []  # every place in contact within reach, the nearest tried first
    for f in foes:
        reach = radius + (f.base.radius_inches if f.base.round else f.base.reach_inches) + 0.001
        if math.dist(start, f.at) - reach > most + 0.01:  # every place around it beyond reach (0.01": rounding)
            continue
        for cos, sin in _AROUND_ANGLES:
            spot = (f.at[0] + reach * cos, f.at[1] + reach * sin)
            length = math.dist(start, spot)
            if length <= most:
                spots.append((length, len(spots), spot))
    spots.sort()  # by length, ties in the foes' and angles' order: the first clear one is the nearest
    others = list(others)
    for _, _, spot in spots:
        if _way_clear(start, spot, radius, others):
            return spot
    return None

#: How many times a unit's models are walked for a Pile In: a model stopped by a friend that had not moved yet
#: goes on, with what its 6" has left, once the friend has moved (published.pile-in, judge round 32c).
PILE_IN_PASSES = 4
#: The least move (inches) that counts as a model's progress in a pass of its Pile In.
PILE_IN_PROGRESS = 0.01


class PileInDanger(NamedTuple):
    """A Pile In stopped where a unit's moves entered dangerous terrain (``_pile_in_moves``): ``entered``, those moves,
    whose tests come before the next unit piles in; ``rest``, the units still to pile in, in order; ``members``,
    every unit and character of the Pile In, each released once all have moved if it touches no enemy."""

    entered: tuple[movement.PlannedMove, ...]
    rest: tuple[str, ...]
    members: tuple[str, ...]


@implements("published.dangerous-terrain")
def _into_danger(state: GameState, group: Sequence[Unit]) -> list[movement.PlannedMove]:
    """Return the Pile In moves of ``group`` (its models as they stood) that entered dangerous terrain on the way to
    where ``state`` has them now: each such model tests (published.dangerous-terrain, judge round 55)."""
    if not any(piece.kind == "dangerous" for piece in state.terrain):
        return []
    out = []
    for x in group:
        now = state.unit(x.id).models
        for i, m in enumerate(x.models):
            to = now[i].at
            if to != m.at and geo.segment_enters_terrain(m.at, to, state.terrain, "dangerous"):
                out.append(movement.PlannedMove(x.id, i, m, to, math.dist(m.at, to), False, True))
    return out


@implements(PILE_IN_RULE)
def _pile_in_models(state: GameState, group: Sequence[Unit], enemies: Sequence[Unit], foes: list[Model],
                    foe_ids: set[str]) -> tuple[GameState, list[str]]:
    """Move a unit's models (its joined characters' too) up to 6" each towards the nearest enemy model of the combat;
    return the state and the names of those that moved (in the unit's order).  Models "MUST move up to 6\" in an attempt to contact enemy"
    (4th ed. p. 57), so (decisions, published.pile-in):

    - each takes the straight way in, stopping at base contact or short of any other base; one whose straight way
      is cut off goes around to the nearest free place in contact it reaches (session 31);
    - those nearest the enemy move first, and the unit's models are walked again (``PILE_IN_PASSES``) while one
      moves on: a model boxed in behind friends that had not moved yet follows them in with what its 6" has left
      (judge round 32c; before, models moved once each in the order they stand in the unit and a boxed-in one
      stopped short)."""
    def gap_of(ref: tuple[int, int]) -> float:
        m = group[ref[0]].models[ref[1]]
        return min([geo.distance(m.placed, f.placed) for f in foes])

    order = sorted([(k, i) for k, x in enumerate(group) for i in range(len(x.models))], key=gap_of)
    left = dict.fromkeys(order, PILE_IN_INCHES)
    went: set[tuple[int, int]] = set()
    for _ in range(PILE_IN_PASSES):
        moved = False
        for ref in order:
            k, i = ref
            x = state.unit(group[k].id)
            m = x.models[i]
            most = left[ref]
            if most <= PILE_IN_PROGRESS:
                continue
            # every other base as it stands now (the models already moved included) that a move of at most ``most``
            # may come near (``_within_reach``); only a foe of the combat may be touched
            radius = m.base.radius_inches if m.base.round else m.base.reach_inches
            others = _within_reach(m, radius, most, [(o.placed, 0.0 if y.id in foe_ids else PILE_IN_CLEARANCE)
                                                     for y in state.units if y.on_table for o in y.models if o is not m])
            nearest = min(foes, key=lambda f: geo.distance(m.placed, f.placed))
            gap = geo.distance(m.placed, nearest.placed)
            if gap <= 0.01:
                continue
            dx, dy = nearest.at[0] - m.at[0], nearest.at[1] - m.at[1]
            length = (dx * dx + dy * dy) ** 0.5
            step = min(most, gap)
            end = (m.at[0] + dx / length * step, m.at[1] + dy / length * step)
            u_clear = _first_block(m.at, end, radius, others)
            if u_clear < 1.0 and step == gap:  # the way straight in is cut off: go around (session 31)
                around = _contact_around(m.at, radius, foes, others, most)
                if around is not None:
                    end, u_clear = around, 1.0
            to = (m.at[0] + (end[0] - m.at[0]) * u_clear, m.at[1] + (end[1] - m.at[1]) * u_clear)
            travelled = math.dist(m.at, to)
            if travelled < PILE_IN_PROGRESS:
                continue
            left[ref] = most - travelled
            models = list(x.models)
            models[i] = evolve(m, at=to)
            state = state.replace_units(evolve(x, models=tuple(models)))
            foes = [f for e in enemies for y in state.combined(e.id) for f in y.models]
            moved = True
            went.add(ref)
        if not moved:
            break
    return state, [x.models[i].name for k, x in enumerate(group) for i in range(len(x.models)) if (k, i) in went]


class _SweepFacts:
    """What a Sweeping Advance reads from the state whatever the dice (``CombatResultRules._sweep_facts``): the victor
    (None: no Sweeping Advance, and why), both Initiatives, the falling back unit with its characters, and the state
    with them destroyed once a roll catches them (built on that branch only)."""

    __slots__ = ("victor", "victors", "why_not", "own", "theirs", "group", "caught", "rolling", "said", "cited",
                 "destroyed", "apart", "breaking")

    def __init__(self, victors: tuple[tuple[str, int], ...], why_not: str, own: int, group: list[Unit],
                 apart: tuple[str, ...] = ()) -> None:
        #: every victor that may sweep the unit, with its Initiative, in the combat's order (none: why_not says why)
        self.victors = victors
        #: the one victor and its Initiative when there is exactly one (the usual close combat); else None and 0
        self.victor: str | None = victors[0][0] if len(victors) == 1 else None
        self.theirs = victors[0][1] if len(victors) == 1 else 0
        self.why_not, self.own, self.group = why_not, own, group
        #: the clause that makes a joined character a victor of his own, when one is (cited by the rolls' events)
        self.apart = apart
        self.caught: GameState | None = None
        #: a multiple combat's breaking off roll: its purpose and its splits (``_sweeping_advances``, on its first roll)
        self.breaking: tuple[str, tuple[int, ...]] | None = None
        #: the purposes of both rolls and the breaking off roll's splits (worked out on the first roll)
        self.rolling: tuple[str, tuple[int, ...], str] | None = None
        #: the sweeping advance event's words by the two rolls (at most 36 pairs)
        self.said: dict[tuple[int, int], str] = {}
        #: once a roll caught the unit: the rules its event cites and the event naming the slain
        self.cited: tuple[str, ...] = ()
        self.destroyed: Event | None = None


class CombatResultRules(AssaultRules):
    """What follows a close combat's result: the hooks 4th edition overrides (Sweeping Advance, consolidation)."""

    # == after a close combat's result: hooks 4th edition overrides =====================
    def leaves_combat(self, state: GameState, unit_id: str, dice: Dice, combat: Sequence[str]) -> Resolution:
        """Carry out a failed close combat Morale check of ``unit_id`` (with its characters): 3rd edition falls back
        (published.fall-back); 4th edition's victors make a Sweeping Advance first (``_sweeping_advance``)."""
        return self._fall_back(state, unit_id, dice)

    def after_combat_result(self, state: GameState, before: GameState, combat: Sequence[str]) -> Resolution:
        """Do what follows a close combat's result once its locks are released (here nothing; both editions override
        it: the units left free may consolidate, ``_free_to_consolidate``, citing the edition's ``consolidation_rule``)."""
        return state, []

    @implements("published.sweeping-advance", "40k4.ic.falling-back")
    def _sweeping_advance(self, state: GameState, unit_id: str, dice: Dice, combat: Sequence[str]) -> Resolution:
        """Roll the victor's Sweeping Advance against a unit that failed its close combat Morale check.

        4th ed. (Sweeping Advances & Consolidation): each side adds a D6 to its unmodified
        Initiative; the falling back unit's higher total breaks off and falls back, the winner's
        equal or greater total catches it: the unit and its characters are destroyed at once, no
        save of any kind.  No Sweeping Advance (a plain fall back) without a victor that still
        touches the unit and is engaged with no other enemy that is not falling back.  The
        falling back unit rolls first; the winner's D6 is split at what it must reach, so an
        exact enumeration takes at most two branches of it.
        """
        rule = "published.sweeping-advance"
        # who sweeps, at what Initiatives: read once per state (an enumeration walks the same result once per branch
        # of the dice before it); the state with the unit destroyed is built only when a roll catches it
        facts = state.remember((_SWEEP, self, unit_id, combat), lambda: self._sweep_facts(state, unit_id, combat))
        victor = facts.victor
        if len(facts.victors) > 1:  # two winning units may sweep it: each rolls (a multiple combat, 4th ed. p. 58)
            return self._sweeping_advances(state, [unit_id], dice, combat)
        if victor is None:
            state, more = self._fall_back(state, unit_id, dice)
            return state, [Event("sweeping_advance", f"no sweeping advance against {unit_id}: {facts.why_not}; it "
                                 "falls back", (rule,), data=(("outcome", "none"),)), *more]
        own, theirs = facts.own, facts.theirs
        rolling = facts.rolling
        if rolling is None:  # the rolls' purposes and the breaking off roll's splits, once per state
            rolling = facts.rolling = (f"{unit_id}: breaking off (Initiative {own} + D6)",
                                       tuple(range(theirs - own + 1, theirs - own + 7)),
                                       f"{victor}: sweeping advance (Initiative {theirs} + D6)")
        start = rolls_made(dice)
        fled = dice.total(1, rolling[0], rule, splits=rolling[1])
        reach = own + fled - theirs  # the victor's D6 that catches the unit
        caught_on = dice.total(1, rolling[2], rule, splits=(reach - 1,))
        rolls = rolls_since(dice, start)
        said = facts.said.get((fled, caught_on))  # the event's words, once per state and pair of rolls
        if said is None:
            said = (f"{victor} makes a sweeping advance against {unit_id}: {theirs} + {caught_on} = "
                    f"{theirs + caught_on} against {own} + {fled} = {own + fled}")
            if caught_on < reach:
                said = f"{said}: {unit_id} breaks off and falls back"
            else:
                characters = [u.id for u in facts.group[1:]]
                with_them = f" with {', '.join(characters)}" if characters else ""
                said = f"{said}: {unit_id} is caught and destroyed{with_them}, no save allowed"
            facts.said[(fled, caught_on)] = said
        if caught_on < reach:
            state, more = self._fall_back(state, unit_id, dice)
            return state, [Event("sweeping_advance", said, (rule, *facts.apart), rolls, (("outcome", "broke off"),)),
                           *more]
        caught, cited, destroyed = self._caught(state, unit_id, facts)
        return caught, [Event("sweeping_advance", said, cited, rolls, (("outcome", "caught"),)), destroyed]

    def _caught(self, state: GameState, unit_id: str, facts: _SweepFacts) -> tuple[GameState, tuple[str, ...], Event]:
        """Return the state with a caught unit and its characters gone, the rules its catching cites and the event
        that says so: built on the first catch from the state ``facts`` were read from, then kept on them (the same
        whatever the rolls that caught it)."""
        if facts.caught is None:
            facts.caught, facts.cited, facts.destroyed = self._swept_away(state, unit_id, facts.group, facts.apart)
        assert facts.destroyed is not None  # told with the caught state
        return facts.caught, facts.cited, facts.destroyed

    def _swept_away(self, state: GameState, unit_id: str, group: Sequence[Unit],
                   apart: tuple[str, ...]) -> tuple[GameState, tuple[str, ...], Event]:
        """Return the state with a caught unit (``group``: with its characters) gone, the rules its catching cites
        (``apart``: the clause making a victor of a joined character) and the event that says so."""
        rule = "published.sweeping-advance"
        slain = [m.name for u in group for m in u.models]
        cited = (rule, *apart, *((self.falling_back_rule,) if len(group) > 1 else ()))
        return (state.replace_units(*(evolve(u, models=()) for u in group)), cited,
                Event("destroyed", f"{unit_id} is destroyed by the sweeping advance: slain {', '.join(slain)}",
                      (rule, "core.zero.w"), data=slain_data(slain)))

    @implements("published.sweeping-advance", "40k4.ic.falling-back")
    def _sweeping_advances(self, state: GameState, losers: Sequence[str], dice: Dice,
                           combat: Sequence[str]) -> Resolution:
        """Roll the Sweeping Advances of a multiple combat: several units failed their checks, or two winning units may
        sweep one.

        4th ed. p. 58 (Multiple Combats): "Each winning unit that can sweeping advance makes a single roll and compares
        its total to each of the enemy unit's totals; any it equals or beats are destroyed."  So each falling back
        unit rolls its own Initiative + D6, then each victor that may sweep one of them rolls once, split at what
        each of its foes' totals asks; a unit that no victor equals or beats breaks off and falls back.  Every victor
        that may sweep it is read before any unit falls back or is destroyed.
        """
        rule = "published.sweeping-advance"
        combat = tuple(combat)  # who sweeps whom: read once per state, as ``_sweeping_advance`` reads it
        before = state
        facts = [(uid, state.remember((_SWEEP, self, uid, combat), partial(self._sweep_facts, state, uid, combat)))
                 for uid in losers]
        fled: dict[str, int] = {}
        rolls: dict[str, tuple[RollRecord, ...]] = {}
        for uid, f in facts:  # each falling back unit first: its total is what the victors' single rolls must reach
            if f.victors:
                start = rolls_made(dice)
                breaking = f.breaking
                if breaking is None:  # its purpose and its splits at every victor's reach, once per state
                    breaking = f.breaking = (f"{uid}: breaking off (Initiative {f.own} + D6)", tuple(sorted(
                        {theirs - f.own + k for _, theirs in f.victors for k in range(1, 7)})))
                fled[uid] = dice.total(1, breaking[0], rule, splits=breaking[1])
                rolls[uid] = rolls_since(dice, start)
        swept: dict[str, list[tuple[str, int]]] = {}  # victor -> (a unit it may catch, the D6 that catches it)
        initiative: dict[str, int] = {}
        for uid, f in facts:
            for victor, theirs in f.victors:
                initiative[victor] = theirs
                swept.setdefault(victor, []).append((uid, f.own + fled[uid] - theirs))
        rolled: dict[str, int] = {}
        for victor in (v for v in combat if v in swept):  # one roll each, in the combat's order
            start = rolls_made(dice)
            against = swept[victor]
            also = f", one roll against {' and '.join(u for u, _ in against)}" if len(against) > 1 else ""
            rolled[victor] = dice.total(1, f"{victor}: sweeping advance (Initiative {initiative[victor]} + D6{also})",
                                        rule, splits=tuple(reach - 1 for _, reach in against))
            for uid, _ in against:
                rolls[uid] = rolls[uid] + rolls_since(dice, start)
        events: list[Event] = []
        for uid, f in facts:
            if not f.victors:
                state, more = self._fall_back(state, uid, dice)
                events += [Event("sweeping_advance", f"no sweeping advance against {uid}: {f.why_not}; it falls back",
                                 (rule,), data=(("outcome", "none"),)), *more]
                continue
            total = f.own + fled[uid]
            sweepers = f.victors
            if len(sweepers) == 1:
                victor, theirs = sweepers[0]
                said = (f"{victor} makes a sweeping advance against {uid}: {theirs} + {rolled[victor]} = "
                        f"{theirs + rolled[victor]} against {f.own} + {fled[uid]} = {total}")
            else:
                said = (f"{' and '.join(v for v, _ in sweepers)} make sweeping advances against {uid}: "
                        f"{', '.join(f'{v} {t} + {rolled[v]} = {t + rolled[v]}' for v, t in sweepers)} against "
                        f"{f.own} + {fled[uid]} = {total}")
            once = [f"{v} rolls once against {' and '.join(u for u, _ in swept[v])}" for v, _ in sweepers
                    if len(swept[v]) > 1]
            if once:
                said = f"{said} ({'; '.join(once)}: a multiple combat)"
            if all(t + rolled[v] < total for v, t in sweepers):
                state, more = self._fall_back(state, uid, dice)
                events += [Event("sweeping_advance", f"{said}: {uid} breaks off and falls back", (rule, *f.apart),
                                 tuple(rolls[uid]), (("outcome", "broke off"),)), *more]
                continue
            group = f.group if state is before else state.combined(uid)
            characters = [u.id for u in group[1:]]
            with_them = f" with {', '.join(characters)}" if characters else ""
            # the first unit caught from the state: the state it leaves kept on its facts (``_caught``)
            state, cited, destroyed = self._caught(state, uid, f) if state is before else \
                self._swept_away(state, uid, group, f.apart)
            events += [Event("sweeping_advance", f"{said}: {uid} is caught and destroyed{with_them}, no save allowed",
                             cited, tuple(rolls[uid]), (("outcome", "caught"),)), destroyed]
        return state, events

    def losers_leave_combat(self, state: GameState, losers: Sequence[str], dice: Dice,
                            combat: Sequence[str]) -> Resolution:
        """Carry out the failed close combat Morale checks of a multiple combat once every loser has tested: each unit
        in turn as ``leaves_combat`` does (3rd edition: each falls back); 4th edition overrides it (one Sweeping
        Advance roll per victor against every unit it may catch, ``_sweeping_advances``)."""
        events: list[Event] = []
        for uid in losers:
            state, more = self.leaves_combat(state, uid, dice, combat)
            events += more
        return state, events

    #: Special rules (``rule_key`` names) of troops that may not make a Sweeping Advance (published.sweeping-advance).
    no_sweep_rules: ClassVar[frozenset[str]] = frozenset({"terminator_armour", "no_sweeping_advance"})
    #: The rule a consolidation after a close combat cites (40k3 overrides it: published.40k3-consolidation).
    consolidation_rule: ClassVar[str] = "published.consolidation"
    #: Whether a consolidation may end in base contact with an enemy unit, locking both in a new close combat (4th
    #: edition, published.consolidation); 3rd edition refuses it (published.40k3-consolidation: a new foe is engaged
    #: by the advance, which the engine does not model).
    consolidation_engages: ClassVar[bool] = True

    @implements("published.sweeping-advance")
    def sweep_barred(self, state: GameState, victors: Sequence[Unit]) -> str | None:
        """Say why a victor (its unit and joined characters) may not make a Sweeping Advance, or None if it may.

        4th ed.: "Some troops, such as Space Marine Terminators, are not allowed to sweeping advance - in such cases
        the unit just consolidates".  ``victors`` is one victor (``_sweepers``: a joined character sweeps on his own,
        judge round 42); a member with a rule of ``no_sweep_rules`` of its own (40k4.ic.rules-not-shared) bars it.
        """
        barred = self.no_sweep_rules
        for u in victors:
            # the rule that bars is the member's own (named below): a member without one is passed over before its
            # effective rules are worked out (once per state: a fight's first result from each state after the blows)
            if barred.isdisjoint(rule_keys(u.rules)) or not (have := barred & self.effective_rules(state, u.id)):
                continue
            named = next(r for r in u.rules if rule_key(r) in have)
            whose = u.id if u is victors[0] else f"{u.id}, joined to {victors[0].id},"
            return f"{whose} has {named} and may not make a sweeping advance (it just consolidates)"
        return None

    def _sweep_facts(self, state: GameState, unit_id: str, combat: Sequence[str]) -> _SweepFacts:
        """Read what a Sweeping Advance takes from the state whatever the dice (``_SweepFacts``); no state built."""
        group = state.combined(unit_id)
        victors, why_not = self._sweepers(state, group, combat)
        if not victors:
            return _SweepFacts((), why_not, 0, group)
        # a joined character or the unit he joined sweeping as a unit of its own (40k4.cc.separate-unit)
        apart = (SEPARATE_UNIT_RULE,) if any(len(state.combined(v)) > 1 for v, _ in victors) else ()
        return _SweepFacts(victors, "", _group_initiative(group), group, apart)

    @implements("published.sweeping-advance", "40k4.cc.separate-unit", "40k4.cc.locked")
    def _sweepers(self, state: GameState, group: Sequence[Unit],
                  combat: Sequence[str]) -> tuple[tuple[tuple[str, int], ...], str]:
        """Return every victor that may sweep a falling back ``group``, with its Initiative, in the combat's order, and
        why none may when there is none (a victor barred from sweeping, ``sweep_barred``, is passed over).

        A character joined to a winning unit is a victor of his own (judge round 42: "Characters are treated as a
        separate unit when resolving close combats, following the normal rules for multiple combats", seed 001): he
        sweeps when he touches the loser, on his own Initiative and by his own rules (40k4.ic.rules-not-shared), and
        his unit only when its own models touch it. He is held while he or his unit touches an enemy unit that is not
        falling back (he is locked with his unit, 40k4.cc.locked); his unit only by its own models (judge round 43:
        the squad was held by its Captain's other foe, "the victor has models still engaged" read of both)."""
        side = group[0].side
        ids = {u.id for u in group}
        # the enemies of the victors that hold them: alive, of the falling back side, not falling back themselves
        holding = [u for u in map(state.unit, combat)
                   if u.side == side and u.id not in ids and u.alive and not u.has(Status.FALLING_BACK)]
        found: list[tuple[str, int]] = []
        why = "no enemy unit of its combat is left in base contact with it"
        for uid in combat:
            u = state.unit(uid)
            if u.side == side or not u.alive or not any(_units_touch(u, f) for f in group):
                continue
            # a victor's own models hold it, and a joined character his unit's too (40k4.cc.locked), not the reverse
            if any(_units_touch(u, h) for h in holding):
                why = f"{uid} still has models engaged with units that are not falling back"
                continue
            if u.joined and any(_units_touch(state.unit(u.joined), h) for h in holding):
                why = (f"{uid} is locked with {u.joined}, which still has models engaged with units that are not "
                       "falling back")
                continue
            if (barred := self.sweep_barred(state, [u])) is not None:
                why = barred
                continue
            found.append((uid, _group_initiative([u])))
        return tuple(found), "" if found else why

    @implements("published.consolidation")
    def _free_to_consolidate(self, state: GameState, before: GameState, combat: Sequence[str]) -> Resolution:
        """Let each unit the result left with no enemy in base contact (locked before, free now, not falling back)
        consolidate D6" this Assault phase (``rule_consolidate``); worked out once per state (an enumeration walks the
        same result once per branch of the dice before it)."""
        # keyed by the ids locked before, not by the state before: a new state's first hash walks every model; those
        # ids read once per state fought from (a search fights it again)
        # a joined character was locked with his unit whatever his own status said (40k4.cc.locked's decision): a
        # group is locked as a whole, so one the fight left alone (``release_orphans``) may consolidate too
        was_locked = before.remember((_FREED, combat), lambda: tuple(sorted(
            {x.id for uid in combat if before.has_unit(uid) and any(y.has(Status.LOCKED) for y in before.combined(uid))
             for x in before.combined(uid)})))
        return state.remember((_FREED, self, was_locked, combat),
                              lambda: self._freed(state, was_locked, combat, self.consolidation_rule))

    @staticmethod
    def _freed(state: GameState, was_locked: tuple[str, ...], combat: Sequence[str], rule: str) -> Resolution:
        freed: list[Unit] = []
        for uid in combat:
            u = state.unit(uid)
            if u.joined or not u.on_table or u.has(Status.FALLING_BACK):
                continue
            group = state.combined(uid)
            if any(x.has(Status.LOCKED) for x in group) or not any(x.id in was_locked for x in group):
                continue
            freed.append(u)
        if not freed:
            return state, []
        state = state.replace_units(*(u.with_status(Status.MAY_CONSOLIDATE) for u in freed))
        return state, [Event("consolidation", f"{u.id} has no enemy left in base contact: it may consolidate D6\" "
                             "this Assault phase (do: consolidate)", (rule,)) for u in freed]

    def _unlocked(self, state: GameState, before: GameState, combat: Sequence[str],
                  engagement: Engagement | None) -> tuple[GameState, list[str]]:
        """Release the combat's units with no enemy left in contact after its result (``_resolve_combat``), but those
        an enemy of the combat stands within Pile In reach of: return the state and those, which pile in
        (``_pile_in``)."""
        # units with no enemy left in contact are no longer locked; an enemy that fell back from this
        # combat has left it wherever its roll put it (a table edge may stop it short of clearing the bases)
        locked = []
        for u in map(state.unit, combat):
            if u.alive and Status.LOCKED in u.status:
                locked.append(u)
        if not locked:
            return state, []
        fled = {e.id for e in state.units if e.has(Status.FALLING_BACK) and before.has_unit(e.id)
                and not before.unit(e.id).has(Status.FALLING_BACK)}
        # only the units that fled have moved: the others touch as the fight began, the slain aside
        stay = [u for u in map(state.unit, combat) if u.on_table and u.id not in fled]
        contacts = engagement.now(stay) if engagement is not None else None
        staying = {u.id for u in stay}
        freed = []  # (every unit read as it stands: no status read here changes)
        piling: list[str] = []
        for u in locked:
            group = state.combined(u.id)
            if contacts is not None and all(x.id in staying for x in group):
                touching = any(contacts.touches_enemy(x.id, fled) for x in group)
            else:
                touching = any(_touching(x, e) for x in group for e in state.enemies_of(u.side) if e.id not in fled)
            if not touching:
                if self._pile_in_reach(state, group, combat, fled) is None:
                    freed.append(u.with_status(remove=(Status.LOCKED,)))
                elif not u.joined:  # the combat goes on: the unit (its characters with it) piles in
                    piling.append(u.id)
        return (state.replace_units(*freed) if freed else state), piling

    @implements(PILE_IN_RULE)
    def _pile_in_reach(self, state: GameState, group: Sequence[Unit], combat: Sequence[str],
                       fled: set[str] | frozenset[str] = frozenset()) -> str | None:
        """Return an enemy unit of the combat that two Pile In moves could bring into base contact with ``group`` (a
        unit with its characters, no model of which touches an enemy now), or None: the combat goes on while one
        stands within 12" (each side's models pile in 6"), and the assault ends when none does (published.pile-in)."""
        side = group[0].side
        mine = [p for x in group for p in x.placed]
        if not mine:
            return None
        for uid in combat:
            if not state.has_unit(uid):
                continue
            e = state.unit(uid)
            if (e.side == side or e.joined or not e.alive or not e.on_table or uid in fled
                    or e.has(Status.FALLING_BACK)):
                continue
            theirs = [p for x in state.combined(uid) for p in x.placed]
            if theirs and geo.group_distance(mine, theirs) <= 2 * PILE_IN_INCHES:
                return uid
        return None

    @implements(PILE_IN_RULE)
    def _pile_in(self, state: GameState, piling: Sequence[str], combat: Sequence[str]
                 ) -> tuple[GameState, list[Event], PileInDanger | None]:
        """Pile In the units a combat's result left with no enemy in base contact but one within reach (``_unlocked``):
        each model (its joined characters' too) moves up to 6" towards the nearest model of an enemy unit of the
        combat, stopping at base contact or short of any other base, out of contact with units not in the assault
        (``_pile_in_models``); the side whose turn it is first.  A unit that then touches no enemy is released: its
        assault has ended, and it may consolidate as a unit its foes left (published.pile-in).

        The third value, when a unit's Pile In took models into dangerous terrain: those moves and the units yet to
        pile in (``PileInDanger``), the moving stopped there, for the caller rolls the tests before the next unit
        piles in (``_pile_in_tests``; judge round 55: a Pile In took none; judge round 56: they waited until every
        unit had piled in, so a Boy piled in towards a Marine his test then slew, and stayed locked with no enemy)."""
        if not piling:
            return state, [], None
        # the units that pile in and the characters joined to it now: one left alone by the tests is released too
        members = tuple(x.id for uid in piling for x in state.combined(uid))
        order = tuple(u.id for u in sorted(map(state.unit, piling), key=lambda x: x.side != state.active))
        state, events, danger = self._pile_in_moves(state, order, members, combat)
        if danger is not None:
            return state, events, danger
        state, freed = self._pile_in_ended(state, members)
        return state, events + freed, None

    @implements(PILE_IN_RULE)
    def _pile_in_moves(self, state: GameState, order: Sequence[str], members: tuple[str, ...],
                      combat: Sequence[str]) -> tuple[GameState, list[Event], PileInDanger | None]:
        """Pile In the units of ``order`` one after another (the active side's first, ``_pile_in``), stopping after
        the first whose moves entered dangerous terrain: those moves and the units still to move come back as a
        ``PileInDanger`` (``members``: every unit and character of the Pile In, for ``_pile_in_ended``)."""
        events: list[Event] = []
        for n, uid in enumerate(order):
            u = state.unit(uid)
            if not u.alive or u.has(Status.FALLING_BACK):
                continue  # the tests of a Pile In before it destroyed it, or its Last Man Standing broke it
            group = state.combined(u.id)
            enemies = [state.unit(c) for c in combat if state.has_unit(c)]
            enemies = [e for e in enemies if e.side != u.side and e.alive and e.on_table
                       and not e.has(Status.FALLING_BACK)]
            foes = [m for e in enemies for x in state.combined(e.id) for m in x.models]
            if not foes or any(_touching(x, state.unit(e.id)) for x in group for e in enemies):
                continue  # another's Pile In has reached it, or the tests of another's left it no enemy
            foe_ids = {x.id for e in enemies for x in state.combined(e.id)}
            state, names = _pile_in_models(state, group, enemies, foes, foe_ids)
            entered = _into_danger(state, group)
            group = state.combined(u.id)
            reached = sorted({e.id for x in group for e in enemies if _touching(x, state.unit(e.id))})
            where = f"; in base contact with {', '.join(reached)}" if reached else "; no model reaches the enemy"
            events.append(Event("pile_in", f"{u.id} has no model in base contact with the enemy, but an enemy of its "
                                f"combat stands within two {PILE_IN_INCHES:g}\" Pile In moves: it piles in, "
                                f"{', '.join(names) or 'no model can'} {'moving' if names else 'move'} up to "
                                f"{PILE_IN_INCHES:g}\" towards the enemy{where}", (PILE_IN_RULE,)))
            if entered:
                return state, events, PileInDanger(tuple(entered), tuple(order[n + 1:]), members)
        return state, events, None

    @staticmethod
    @implements(PILE_IN_RULE)
    def _pile_in_ended(state: GameState, members: Sequence[str]) -> tuple[GameState, list[Event]]:
        """Release each unit of a Pile In (``members``: the units that piled in and their characters, one the tests
        left alone a unit of his own) that touches no living enemy once every unit has piled in: its assault has
        ended, and it is no longer locked in close combat."""
        freed: list[Unit] = []
        events: list[Event] = []
        for uid in members:
            u = state.unit(uid)
            if u.joined or not u.alive or not u.has(Status.LOCKED):
                continue
            group = state.combined(u.id)
            enemies = [e for e in state.enemies_of(u.side) if e.alive]
            if any(_touching(x, e) for x in group for e in enemies):
                continue
            freed += [x.with_status(remove=(Status.LOCKED,)) for x in group]
            # words for what happened (judge round 57): a unit whose foes the Pile In's tests slew or broke (it may
            # never have moved) is not one that piled in and reached no one
            foes = [state.unit(m) for m in members if state.unit(m).side != u.side]
            if not foes or any(f.alive and f.on_table and not f.has(Status.FALLING_BACK) for f in foes):
                why = f"{u.id} is in base contact with no enemy after the Pile In"
            else:
                why = (f"{u.id} has no enemy left in its close combat (the Pile In's Dangerous Terrain tests slew "
                       "its foes or left them falling back)")
            events.append(Event("pile_in", f"{why}: its assault has ended, and it is no longer locked in close "
                                "combat", (PILE_IN_RULE,)))
        return (state.replace_units(*freed) if freed else state), events
