"""Warhammer 40,000 Morale: checks, falling back, Regroup and Last Man Standing.

Decisions the seeds leave open (the published rules where they give them):

- Morale: 25% casualties in one shooting attack, losing a close combat, or (for a unit
  reduced to one model) Last Man Standing are Leadership tests on the unit's Leadership
  (``leadership_of``: the character's by each edition's rule); failing means falling
  back 2D6" (3D6" for cavalry, bikes and jump infantry) straight away from the nearest
  enemy, half the roll when that way enters or leaves difficult terrain.  A pinned unit
  takes no check for shooting casualties; a falling back unit regroups only in coherency.
  4th edition subtracts the losing margin from a close combat Morale check; 3rd does not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import add, attrgetter, itemgetter
from functools import partial
from itertools import chain, repeat
from typing import Any, NamedTuple

from .. import geometry as geo
from .. import movement, straight_moves
from ..actions import Regroup
from ..catalogue import implements
from ..checks import LEADERSHIP_CLAUSES, LeadershipTestKind, leadership_test
from ..dice import Dice, rolls_made, rolls_since
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import CharacterKind, Status, Unit
from ..values import evolve, evolve_each, keep_bounded
from .base import LeadershipRuling, Resolution
from .w40k_hooks import FAST_TYPES
from .w40k_wounds import WoundRules

REGROUP_INCHES = 6.0  # no enemy this close for a Regroup test (published rule)
MORALE_FRACTION = 0.25
_X = itemgetter(0)
_Y = itemgetter(1)
_AT = attrgetter("at")
_REACH = attrgetter("base.reach_inches")
#: A unit falling back is no longer locked in (nor engaged by) a close combat (``Unit.with_status`` in one step).
_FALLING_BACK = frozenset({Status.FALLING_BACK})
#: what holds back a unit and every character in it (``MoraleRules.with_members_holds``)
_HOLDS = frozenset({Status.LOCKED, Status.PINNED, Status.FALLING_BACK})
_FALLING_BACK_MOVED = frozenset({Status.FALLING_BACK, Status.MOVED})
_FALL_BACK_RULES = ("published.fall-back",)
#: Terrain a fall back moving into, out of or through has its distance halved (dangerous terrain is difficult too).
DIFFICULT_KINDS = ("difficult", "dangerous")
_STANDING = "standing distance"  # the key of a unit's distance to a falling back group (``_fall_back_heading``)
#: What a fall back ends: the unit is no longer locked in, nor engaged by, its close combat.
_FALLING_BACK_ENDS = frozenset({Status.LOCKED, Status.ENGAGED})
_LEFT = frozenset({Status.LEFT_BATTLE})  # a unit gone off the table edge (``_left_the_battle``), not slain
#: How many worded results (why, rule, modifier, roll) a Morale check's facts keep (``_MoraleFacts.said``).
MORALE_WORDS_KEPT = 64
_MORALE = 'morale'
_FALL_BACK = 'fall back'
NONE_YET: Any = object()


class _MoraleFacts(NamedTuple):
    """What a Morale check reads from the state (``MoraleRules._morale_facts``): the unit that tests, the rules citing
    its Fearless pass (None: not Fearless), its Stubborn rules (None: no negative modifier ignored), the rules on
    withheld Fearless, its Leadership and the rules on lost special rules."""

    host_id: str
    fearless: tuple[str, ...] | None
    stubborn: tuple[str, ...] | None
    withheld: tuple[str, ...]
    ld: LeadershipRuling
    lost: tuple[str, ...]
    heroism: str | None  # the rule by which a double 1 passes this kind of check (``double_one_passes``), if any
    #: each check's words and rules by why, rule, modifier and the roll (``_morale_check``): a state tested again
    #: (a search, an enumeration's branches) words each result once
    said: dict[tuple[str, str, int, int, bool], tuple[str, tuple[str, ...]]]


class _FallBack:
    """A unit's fall back worked out once per state (``MoraleRules._fall_back``): its members, how many dice, the
    heading away from the nearest enemy (read on the first distance rolled) and each distance's result."""

    __slots__ = ("members", "purpose", "dice", "heading", "edge_in_reach", "clear", "starts", "bounds", "ends", "alone",
                 "tests", "tested", "apart")

    def __init__(self, members: Sequence[Unit], purpose: str | None = None) -> None:
        self.members = members
        #: what its distance roll is for (the unit that falls back, as ``_fall_back`` names it; by default the host)
        self.purpose = purpose if purpose is not None else f"{members[0].id}: fall back distance"
        self.dice = 3 if all(u.type in FAST_TYPES for u in members) else 2
        self.heading: tuple[float, float] | None = None
        #: whether the longest roll takes a model to the table edge, where the unit may leave the battle: then the
        #: distance decides more than where models end (``Dice.total``'s ``places``)
        self.edge_in_reach = False
        #: whether every model starts and ends the longest roll clear of the table edge (its base inside the
        #: table): then no roll slides a model, every end being its start moved by the distance rolled
        self.clear = False
        self.starts: list[tuple[list[float], list[float]]] = []  # each member's models' centres: xs, ys
        #: each member's least and greatest centres and its one base reach (low x, low y, high x, high y, reach),
        #: when every member has one base size: the box of a clear move without a look at each model (``_move_box``)
        self.bounds: list[tuple[float, float, float, float, float]] = []
        self.ends: dict[int, tuple[GameState, str, tuple[str, ...]]] = {}  # at most 16 distances (3D6)
        #: for a clear move with one base size per member: whether no other unit stands in the box of the longest
        #: roll (None: not looked yet), which holds the box of every shorter one, so no distance meets anything
        self.alone: bool | None = None
        #: whether a Dangerous Terrain test may follow the move (``MoraleRules._fall_back_tests``): the unit goes over
        #: difficult terrain unslowed and the table has some; then the distance decides more than where models end
        self.tests = False
        #: per distance rolled, the models' moves that take a Dangerous Terrain test where they end (none: empty)
        self.tested: dict[int, list[movement.PlannedMove]] = {}
        #: the chains of the unit with its characters, when it stands out of coherency (empty: it does not; None: not
        #: looked yet): then its fall back closes up its strays where the roll allows (``straight_moves.gathered``)
        self.apart: list[list[int]] | None = None


class MoraleRules(WoundRules):
    """Morale checks, falling back, Regroup tests and Last Man Standing."""

    def _morale_check(self, state: GameState, unit_id: str, dice: Dice, why: str, rule: str,
                      modifier: int = 0, kind: LeadershipTestKind = LeadershipTestKind.MORALE,
                      leave: Callable[[GameState, str, Dice], Resolution] | None = None,
                      also: tuple[str, ...] = ()) -> Resolution:
        """Take a Morale (Leadership) check on the unit's Leadership; on a failure the unit falls back.

        What the check reads from the state (``_morale_facts``) is worked out once per state, unit and kind.
        ``leave``: what a failure does instead of the plain fall back (a lost close combat: ``leaves_combat``).
        ``also``: clauses cited after ``rule`` for what caused the check (a psychic attack's: judge round 62).
        """
        key = (_MORALE, self, unit_id, kind, modifier < 0)
        facts = state.known(key, NONE_YET)
        if facts is NONE_YET:
            facts = state.remember(key, lambda: self._group_morale_facts(state, unit_id, kind, modifier < 0))
        if facts is None:
            return state, []
        host_id, fearless, stubborn, rule_extra, ld, lost, heroism, said = facts
        if fearless is not None:
            return state, [Event("morale", f"{host_id} {why}: Fearless, it passes its {kind._value_} check without "
                                 "rolling", (rule, *also, *fearless))]
        asked = why
        if stubborn is not None:
            why += " (Stubborn: the negative modifier is ignored)"
            rule_extra = stubborn + rule_extra
            modifier = 0
        start = rolls_made(dice)
        result = leadership_test(dice, ld.value, kind, modifier, heroism is not None)
        said_key = (asked, rule, also, modifier, result.roll, result.insane_heroism)
        words = said.get(said_key)
        if words is None:
            mod = f" {modifier:+d}" if modifier else ""
            verdict = result.verdict(kind._value_)
            if heroism is not None and result.insane_heroism:
                rule_extra = (*rule_extra, heroism)
            text = f"{host_id} {why}: {kind._value_} check on Ld {ld.value}{mod} ({ld.said}), rolls {result.roll}, " \
                f"{verdict}"
            words = keep_bounded(said, said_key, (text, (rule, *also, *ld.rules, *result.clauses, *rule_extra, *lost)),
                                 MORALE_WORDS_KEPT)
        event = Event("morale", words[0], words[1], rolls_since(dice, start))
        if result.passed:
            return state, [event]
        state, more = (self._fall_back if leave is None else leave)(state, host_id, dice)
        return state, [event, *more]

    def _group_morale_facts(self, state: GameState, unit_id: str, kind: LeadershipTestKind,
                            negative: bool) -> _MoraleFacts | None:
        """Return ``_morale_facts``, kept on the tested unit's host by the values of its other members as well.

        The facts read the unit with its joined characters alone (its Leadership, Fearless, Stubborn and the rules
        its members share or withhold, ``state.combined``: the hooks it calls read no other unit), so every state
        holding the same members finds them again: the many states a fight's blows lead to differ mostly in the
        other side's casualties.
        """
        group = state.combined(unit_id)
        if not all(u.hashed() for u in group[1:]):  # a state just built: keying would walk the members' models
            return self._morale_facts(state, unit_id, kind, negative)
        return group[0].remember((_MORALE, self, unit_id, kind, negative, tuple(group[1:])),
                                 lambda: self._morale_facts(state, unit_id, kind, negative))

    def _morale_facts(self, state: GameState, unit_id: str, kind: LeadershipTestKind,
                      negative: bool) -> _MoraleFacts | None:
        """Read what a Morale check takes from the state (None: no check, the unit being gone or falling back)."""
        unit = state.unit(unit_id)
        if not unit.alive or unit.has(Status.FALLING_BACK):
            return None
        host_id = unit.joined or unit.id
        if self.passes_automatically(state, host_id, kind):
            return _MoraleFacts(host_id, ("published.fearless", *self.sharing_cited(state, host_id)), None, (),
                                LeadershipRuling(0, "", ""), (), None, {})
        stubborn: tuple[str, ...] | None = None
        if negative and self.ignores_negative_modifiers(state, host_id, kind):
            stubborn = ("published.stubborn", *self.sharing_cited(state, host_id))
        return _MoraleFacts(host_id, None, stubborn, self.withheld(state, host_id, "fearless"),
                            self.leadership_of(state, host_id), self.lost_rules_cited(state, host_id),
                            self.double_one_passes(kind), {})

    #: Named tests a Fearless unit passes without rolling (published Fearless: never falls back, never pinned).
    FEARLESS_PASSES = frozenset({LeadershipTestKind.MORALE, LeadershipTestKind.PINNING, LeadershipTestKind.BREAK,
                                 LeadershipTestKind.PANIC, LeadershipTestKind.FEAR, LeadershipTestKind.TERROR,
                                 LeadershipTestKind.LAST_MAN_STANDING})

    @implements("published.fearless")
    def passes_automatically(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether the unit is Fearless (every member, after joining) against a test that would break or pin it."""
        return kind in self.FEARLESS_PASSES and self.group_has_rule(state, unit_id, "fearless")

    #: The checks a double 1 passes whatever the modifiers: Morale checks, 3rd edition's Last Man Standing being one
    #: (published.last-man-standing); not Pinning, Regroup or other Leadership tests (published.insane-heroism).
    INSANE_HEROISM = frozenset({LeadershipTestKind.MORALE, LeadershipTestKind.LAST_MAN_STANDING})

    @implements("published.insane-heroism")
    def double_one_passes(self, kind: LeadershipTestKind) -> str | None:
        """Return the Insane Heroism rule for a Morale check: "A score of 2 on the 2D6 always indicates a unit has
        passed its Morale check regardless of modifiers" (4th ed., Morale); other Leadership tests have none."""
        return "published.insane-heroism" if kind in self.INSANE_HEROISM else None

    @implements("published.stubborn")
    def ignores_negative_modifiers(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether a Stubborn unit (every member; 4th shares Stubborn both ways) ignores a Morale check's negatives."""
        return kind is LeadershipTestKind.MORALE and self.group_has_rule(state, unit_id, "stubborn")

    def sharing_cited(self, state: GameState, unit_id: str) -> tuple[str, ...]:
        """Cite the rule on sharing special rules when characters have joined the unit."""
        return self.rules_sharing_rules() if len(state.combined(unit_id)) > 1 else ()

    @implements("published.pinning")
    def test_failed(self, state: GameState, unit_id: str, kind: LeadershipTestKind, dice: Dice) -> Resolution:
        """Carry out a failed named test: a Morale-type check falls back, a Pinning test pins the unit."""
        if kind in (LeadershipTestKind.MORALE, LeadershipTestKind.BREAK, LeadershipTestKind.PANIC,
                    LeadershipTestKind.LAST_MAN_STANDING):
            if state.unit(unit_id).has(Status.FALLING_BACK):
                return state, []
            return self._fall_back(state, unit_id, dice)
        if kind is LeadershipTestKind.PINNING:
            own_turn = (Status.NEWLY_PINNED,) if state.unit(unit_id).side == state.active else ()
            pinned = [u.with_status(Status.PINNED, *own_turn) for u in state.combined(unit_id)]
            return state.replace_units(*pinned), [Event("pinned", f"{unit_id} is pinned until the end of its "
                                                        "next turn", ("published.pinning",))]
        return super().test_failed(state, unit_id, kind, dice)

    @implements("published.pinning")
    def end_turn(self, state: GameState) -> Resolution:
        """End the turn; a unit of the side whose turn ends stops being pinned, its pinned turn over.

        Published rule (4th ed. Pinning): a pinned unit may do nothing "in its following
        turn"; so the pin lapses at the end of the unit's own next turn.  A unit pinned in its
        own turn (a test the judge calls for) stays pinned through its following turn.
        """
        side = state.active
        events: list[Event] = []
        units = []
        changed = False
        for u in state.units:
            if u.side == side and u.has(Status.NEWLY_PINNED):
                u = u.with_status(remove=(Status.NEWLY_PINNED,))
                changed = True
            elif u.side == side and u.has(Status.PINNED):
                u = u.with_status(remove=(Status.PINNED,))
                changed = True
                if u.alive and not u.joined:
                    events.append(Event("pinned", f"{u.id} is no longer pinned: its pinned turn is over",
                                        ("published.pinning",)))
            units.append(u)
        after, more = super().end_turn(evolve(state, units=tuple(units)) if changed else state)
        return after, events + more

    def assault_after_run(self, state: GameState, unit: Unit) -> Ruling | None:
        """Return why a unit that ran this turn may not assault (None by default: no unit runs)."""
        return None

    @staticmethod
    def with_members_holds(state: GameState, unit: Unit) -> Unit:
        """Return a unit as it acts: with the holds of the characters joined to it (locked in close combat, pinned,
        falling back) as its own.

        A unit moves, runs, shoots and assaults with its characters, as one unit (40k3.ic.join, 40k4.ic.join), so a
        hold on any of them holds the whole unit: a model locked in close combat locks it (published.close-combat,
        40k4.cc.locked), a pinned one pins it (published.pinning), one falling back makes it fall back
        (40k3.ic.falling-back, 40k4.ic.falling-back; published.fall-back). Decision (session 30): before, only the
        unit's own status was read, so a squad whose Captain a scenario gave such a status acted as if free. A
        character joined to the unit is ruled on as himself (his unit's holds are read where he acts)."""
        if unit.joined:
            return unit
        members = state.combined(unit.id)
        if len(members) == 1:
            return unit
        extra = frozenset().union(*[u.status & _HOLDS for u in members[1:]]) - unit.status
        return unit.with_status(*extra) if extra else unit

    @implements("published.pinning", "published.fall-back")
    def host_holds(self, state: GameState, unit: Unit, doing: str, *rules: str,
                   falling_back: bool = True) -> Ruling | None:
        """Refuse a joined character's act that the unit he is part of is held from: pinned (no shot, assault or run),
        or falling back (no assault or run; ``falling_back`` False where a falling back unit may still act, as it
        shoots). None for a character on his own, or one whose unit is free to act.

        He acts only with his unit (``rules``: the clause that says so), so sending him to act with it would send him
        to an act the hold refuses as well; the refusal names the hold and its rule instead. Decision (judge round
        35): before, a Captain who joined a pinned squad was told to "shoot with tac" or "assault with tac".
        """
        if not unit.joined:
            return None
        host = self.with_members_holds(state, state.unit(unit.joined))
        if host.has(Status.PINNED):
            return Ruling.forbid(f"{unit.id} is part of {host.id}, which is pinned: neither may {doing} until its "
                                 f"pinned turn is over ({unit.id} acts only with {host.id})", "published.pinning",
                                 *rules)
        if falling_back and host.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{unit.id} is part of {host.id}, which is falling back: neither may {doing} until "
                                 f"it regroups ({unit.id} acts only with {host.id})", "published.fall-back", *rules)
        return None

    @staticmethod
    def host_did(state: GameState, unit: Unit, done: frozenset[Status], did: str, why: str,
                 *rules: str) -> Ruling | None:
        """Refuse a joined character's act of his own that his unit (or a member of it) has already made this turn
        (``done``: the statuses that say so), he with it. None for a character on his own, or while his unit has not.

        ``did`` says what the unit did ("has already assaulted this turn"), ``why`` why it may not again. He acts
        only with his unit, so sending him to act with it would send him to an act refused as well. Decision (judge
        round 35): before, he was told to "assault with tac" or "run with tac" of a squad that had.
        """
        if not unit.joined or not any(u.status & done for u in state.combined(unit.joined)):
            return None
        return Ruling.forbid(f"{unit.id} is part of {unit.joined}, which {did}: {why}, and {unit.id} acts only "
                             f"with {unit.joined}", *dict.fromkeys(rules))

    def _pinned(self, unit: Unit, doing: str) -> Ruling | None:
        """Refuse what a pinned unit may not do in its pinned turn (move, shoot, assault, run)."""
        if unit.has(Status.PINNED):
            return Ruling.forbid(f"{unit.id} is pinned: it may not {doing} until its pinned turn is over",
                                 "published.pinning")
        return None

    @implements("published.fall-back")
    def _fall_back(self, state: GameState, unit_id: str, dice: Dice) -> Resolution:
        """Move a broken unit (with its characters) 2D6" (3D6" if fast) straight away from the nearest enemy.

        Where it ends depends only on the state and the distance rolled: worked out once per state, unit and
        distance (``_FallBack``).
        """
        plan: _FallBack = state.remember((_FALL_BACK, self, unit_id),
                                         lambda: _FallBack(state.combined(unit_id), f"{unit_id}: fall back distance"))
        if plan.heading is None:
            self._fall_back_heading(state, plan)
            plan.tests = bool(state.terrain) and (  # dangerous terrain tests any type; difficult the unslowed
                any(t.kind == "dangerous" for t in state.terrain) or (
                    self._fall_back_unslowed(state, plan.members)
                    and any(t.kind in DIFFICULT_KINDS for t in state.terrain)))
        start = rolls_made(dice)
        inches = dice.total(plan.dice, plan.purpose, "published.fall-back",
                            places=not (plan.edge_in_reach or plan.tests))
        done = plan.ends.get(inches)
        if done is None:
            done = plan.ends[inches] = self._fallen_back(state, plan, unit_id, inches)
        events = [Event("fall_back", done[1], done[2], rolls_since(dice, start), (("unit", unit_id),))]
        if not plan.tests:
            return done[0], events
        tested = plan.tested.get(inches)
        if tested is None:
            tested = plan.tested[inches] = self._fall_back_tests(state, plan, done[0])
        if not tested:
            return done[0], events
        after, more = self._dangerous_tests(done[0], tested, dice)
        return after, events + more

    def _fall_back_unslowed(self, state: GameState, members: Sequence[Unit]) -> bool:
        """Say whether a falling back unit (with its characters) goes over difficult terrain unslowed: every member of
        a type the edition names for the fall back (``unslowed_types["fall_back"]``)."""
        types = self.unslowed_types["fall_back"]
        return all([u.type in types for u in members])

    @implements("published.fall-back", "published.dangerous-terrain", "published.difficult-terrain")
    def _fall_back_tests(self, state: GameState, plan: _FallBack, after: GameState) -> list[movement.PlannedMove]:
        """Return the moves of a fall back whose models take a Dangerous Terrain test.  Every model whose path enters
        dangerous terrain tests, of any type (a fall back is a move, and dangerous terrain tests "every model that moves
        into or through it", published.dangerous-terrain; the Fall Back rule only halves the distance, 4th ed. p. 48:
        infantry falling back through a minefield test as they would walking through it).  A unit that goes over
        difficult terrain unslowed (``_fall_back_unslowed``) tests as in its own moves (``unslowed_moves``): a jump
        infantry model whose fall back ends in difficult terrain (4th ed., Jump Infantry, Morale: "They may, of course,
        move over any obstructions when falling back, but if they end their move in difficult terrain they will still
        have to take a Dangerous Terrain test"), a bike entering or moving through it, 3rd edition cavalry once one of
        the unit enters it.  None when the unit left the battle."""
        terrain = state.terrain
        moves = []
        for u in plan.members:
            now = after.unit(u.id)
            if len(now.models) != len(u.models):  # gone off the table edge: no test
                return []
            for j, (m, end) in enumerate(zip(u.models, now.models)):
                to = end.at
                dangerous = geo.segment_enters_terrain(m.at, to, terrain, "dangerous")
                difficult = dangerous or geo.segment_enters_terrain(m.at, to, terrain, "difficult")
                moves.append(movement.PlannedMove(u.id, j, end, to, math.dist(m.at, to), difficult, dangerous))
        if self._fall_back_unslowed(state, plan.members):
            moves = self.unslowed_moves(after, moves)
        return [mv for mv in moves if mv.dangerous]

    @staticmethod
    def _fall_back_heading(state: GameState, plan: _FallBack) -> None:
        """Set the plan's heading, straight away from the nearest enemy, and whether the longest roll then takes a
        model's base to the table edge (``_FallBack.edge_in_reach``)."""
        members = plan.members
        starts = plan.starts
        for u in members:  # centres only: no base placed for a round sum
            ats = list(map(_AT, u.models))
            starts.append((list(map(_X, ats)), list(map(_Y, ats))))
        enemies = state.enemies_of(members[0].side)
        count = sum([len(xs) for xs, _ in starts])
        cx = sum(chain.from_iterable(map(_X, starts))) / count
        cy = sum(chain.from_iterable(map(_Y, starts))) / count
        dx, dy = 0.0, -1.0
        if enemies:
            if len(enemies) == 1:
                nearest = enemies[0]
            else:
                # round bases measured from their centres (geo.standing_distance): no base placed for the choice;
                # the first enemy in order at the least distance, as min() keeps it, and none nearer than touching
                mine = [m for u in members for m in u.models]
                nearest, best = enemies[0], math.inf
                group = tuple(members) if all(u.hashed() for u in members) else None
                for e in enemies:  # (each enemy's distance kept on its value by the group's values, once hashed)
                    gap = geo.standing_distance(mine, e.models) if group is None else \
                        e.remember((_STANDING, group), partial(geo.standing_distance, mine, e.models))
                    if gap < best:
                        nearest, best = e, gap
                        if gap == 0.0:  # in base contact: no later enemy can be nearer
                            break
            theirs = list(map(_AT, nearest.models))
            ex = sum(map(_X, theirs)) / len(theirs)
            ey = sum(map(_Y, theirs)) / len(theirs)
            norm = math.hypot(cx - ex, cy - ey)
            if norm > 1e-9:
                dx, dy = (cx - ex) / norm, (cy - ey) / norm
        plan.heading = (dx, dy)
        longest = 6.0 * plan.dice
        ox, oy = dx * longest, dy * longest
        width, depth = state.table.width, state.table.depth
        inside = True  # every model starts with its base on the table
        for u, (xs, ys) in zip(members, starts):
            reaches = set(map(_REACH, u.models))
            if len(reaches) == 1:  # one base size (the usual unit): its least and greatest centres decide, adding
                # the same offset to each being monotone in floating point
                reach = reaches.pop()
                edge = 0.5 if reach <= 0.5 else reach
                low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
                plan.bounds.append((low_x, low_y, high_x, high_y, reach))
                if not (edge <= low_x + ox and high_x + ox <= width - edge
                        and edge <= low_y + oy and high_y + oy <= depth - edge):
                    plan.edge_in_reach = True
                    return
                inside = inside and edge <= low_x and high_x <= width - edge and edge <= low_y and high_y <= depth - edge
                continue
            for m, x, y in zip(u.models, xs, ys):
                reach = m.base.reach_inches
                edge = 0.5 if reach <= 0.5 else reach
                if not (edge <= x + ox <= width - edge and edge <= y + oy <= depth - edge):
                    plan.edge_in_reach = True
                    return
                inside = inside and edge <= x <= width - edge and edge <= y <= depth - edge
        plan.clear = inside

    def _fallen_back(self, state: GameState, plan: _FallBack, unit_id: str,
                     inches: int) -> tuple[GameState, str, tuple[str, ...]]:
        """Return the state after the unit fell back ``inches`` (the members moved and falling back, or gone off the
        table edge), what the event says and the rules it cites."""
        members = plan.members
        assert plan.heading is not None  # set by _fall_back_heading before the roll
        dx, dy = plan.heading
        width, depth = state.table.width, state.table.depth
        halved = self._fall_back_halved(state, members, dx * inches, dy * inches)
        moved_inches = inches / 2 if halved else inches
        ox, oy = dx * moved_inches, dy * moved_inches
        ends: list[list[tuple[float, float]]] = []
        at_edge: list[tuple[int, int, tuple[float, float]]] = []  # the models the table edge stopped, and where
        if plan.clear:  # no roll slides a model: each end is its start moved, in C
            ends = [list(zip(map(add, xs, repeat(ox)), map(add, ys, repeat(oy)))) for xs, ys in plan.starts]
        for i, u in enumerate(() if plan.clear else members):  # each model's end (floats in, floats out), kept on the
            # table by its base
            places = []
            for j, m in enumerate(u.models):
                x, y = m.at
                x += ox
                y += oy
                reach = m.base.reach_inches
                edge = 0.5 if reach <= 0.5 else reach  # 0.5" at least
                slid = False
                if edge > x:
                    x, slid = edge, True
                elif width - edge < x:
                    x, slid = width - edge, True
                if edge > y:
                    y, slid = edge, True
                elif depth - edge < y:
                    y, slid = depth - edge, True
                places.append((x, y))
                if slid:
                    at_edge.append((i, j, (x, y)))
            ends.append(places)
        if plan.apart is None:
            groups = geo.coherency_groups([p for u in members for p in u.placed])
            plan.apart = groups if len(groups) > 1 else []
        closed = clean = False
        whole: bool | None = None
        if plan.apart:  # a clear move's ends are its starts moved: the starts' chains
            closed, clean, whole = self._close_up(members, ends, moved_inches, plan.apart if plan.clear else None,
                                           _move_box(plan.bounds, ox, oy) if plan.clear else None)
        if plan.clear and len(plan.bounds) == len(members) and (clean or not closed):
            if plan.alone is None:  # the box of the longest roll holds every shorter one's (each bound moves
                # monotonically with the distance, in floating point too): nothing in it, nothing in the way of any
                longest = 6.0 * plan.dice
                low_x, low_y, high_x, high_y = _move_box(plan.bounds, dx * longest, dy * longest)
                ids = [u.id for u in members]
                alone = True
                for u in state.units:  # as _units_near, each unit's box read once, to the first that meets the move's
                    if u.models and u.embarked_in is None and u.id not in ids:
                        ex0, ey0, ex1, ey1 = u.extent
                        if ex0 <= high_x and low_x <= ex1 and ey0 <= high_y and low_y <= ey1:
                            alone = False
                            break
                plan.alone = alone
            short = 0 if plan.alone else self._fall_back_blocked(state, members, ends, (dx, dy), False,
                                                                 _move_box(plan.bounds, ox, oy))
        else:  # a stray closed up may stand on a model of its own unit: settled as if the table edge slid it
            short = self._fall_back_blocked(state, members, ends, (dx, dy), bool(at_edge) or closed, None)
        # in its own Movement phase a unit that falls back has made that phase's fall back move (_falls_back_again)
        fell = _FALLING_BACK_MOVED if state.phase is Phase.MOVEMENT and members[0].side == state.active \
            else _FALLING_BACK
        rules: tuple[str, ...] = _FALL_BACK_RULES + self.fall_back_slowed_rules(members, plan.dice)
        said = f"{inches}\""
        along = ""
        if len(members) > 1:  # its characters fall back with it, held in it until it regroups (judge round 61: the
            # event moved them silently, citing no clause; judge round 62: it named the unit alone)
            rules = (*rules, self.falling_back_rule)
            chars = [u.id for u in members[1:]]
            along = f" ({', '.join(chars)} fall{'s' * (len(chars) == 1)} back with it)"
        if closed:
            rules = (*rules, *self.coherency_rules(members))
        if halved:
            rules = (*rules, "published.difficult-terrain")
            said = f"{moved_inches:g}\" ({inches}\" rolled, halved through difficult terrain)"
        if at_edge and any(ends[i][j] == place for i, j, place in at_edge):  # a model reached the edge, none
            # stopped it short
            return self._left_the_battle(state, members, fell, unit_id, said + along, rules)
        moved = []
        for u, places in zip(members, ends):  # one new unit per member
            moved.append(evolve(u, models=tuple(evolve_each(u.models, "at", places)),
                                status=(u.status - _FALLING_BACK_ENDS) | fell))
        stopped = ""
        if closed:  # in coherency as closed up (``gathered``'s word, when no model was stopped short), else measured
            together = whole if whole is not None and not short else geo.coherent(
                [geo.Placed(p.base, at, p.facing_deg) for u, places in zip(members, ends) for p, at in zip(u.placed, places)])
            stopped = ", closing up into coherency" if together else \
                ", closing in on the rest of the unit as far as the roll reaches"  # judge round 45: a stray beyond reach
        stopped += "" if not short else (f": {short} model{'s' if short > 1 else ''} stop{'s' if short == 1 else ''} "
                                         "short where another model stands in the way")
        return state.replace_units(*moved), f"{unit_id} falls back {said}{stopped}{along}", rules

    @staticmethod
    @implements("published.fall-back", "published.coherency")
    def _close_up(members: Sequence[Unit], ends: list[list[tuple[float, float]]], inches: float,
                  groups: list[list[int]] | None, box: tuple[float, float, float, float] | None
                  ) -> tuple[bool, bool, bool | None]:
        """Close up a broken-up unit's strays in its fall back (``straight_moves.gathered``: ``ends`` changed in
        place); say whether any moved, whether each that did stands clear of its own unit inside ``box`` (a clear
        move's box: then what a straight move meets, the strays' ways meet too), and whether the unit then stands in
        coherency (``gathered``'s word, None when not known: its bases are measured again for the event's words). Asked only of a unit that stands out of coherency (``_FallBack.apart``); ``groups``:
        its chains, when each end is its start moved."""
        starts = [p for u in members for p in u.placed]
        found = straight_moves.gathered(starts, [p for places in ends for p in places], inches, groups)
        if found is None:
            return False, True, False
        closed, moved, whole = found
        _put_back(ends, closed)
        if box is None:
            return True, False, whole
        low_x, low_y, high_x, high_y = box
        for i in moved:
            (x, y), reach = closed[i], starts[i].base.reach_inches
            if not (low_x <= x - reach and x + reach <= high_x and low_y <= y - reach and y + reach <= high_y):
                return True, False, whole
        return True, straight_moves.clear_of_own(starts, closed, moved), whole

    @implements("published.fall-back", "published.difficult-terrain")
    def _fall_back_halved(self, state: GameState, members: Sequence[Unit], ox: float, oy: float) -> bool:
        """Say whether the fall back of the roll's full distance takes a model into, out of or through difficult
        (or dangerous) terrain: then the distance rolled is halved (4th ed. p. 48, Fall Back!).  Never for a unit
        whose every member is of a type the edition lets through unslowed (``unslowed_types["fall_back"]``, the
        table ``terrain_unslowed`` reads for its moves too: 4th edition jump infantry and bikes go over what is in
        the way)."""
        terrain = [t for t in state.terrain if t.kind in DIFFICULT_KINDS]
        types = self.unslowed_types["fall_back"]
        if not terrain or all([u.type in types for u in members]):
            return False
        for u in members:
            for m in u.models:
                start = m.at
                end = (start[0] + ox, start[1] + oy)
                if any(geo.segment_enters_terrain(start, end, terrain, kind) for kind in DIFFICULT_KINDS):
                    return True
        return False

    @staticmethod
    @implements("published.leaving-the-battle")
    def _left_the_battle(state: GameState, members: Sequence[Unit], fell: frozenset[Status], unit_id: str,
                         said: str, rules: tuple[str, ...]) -> tuple[GameState, str, tuple[str, ...]]:
        """Remove a falling back unit, its characters with it, once a model of it reaches the table edge: it has left
        the battle and takes no further part (4th ed. p. 48, Leaving the Battle); the event names every model removed,
        its characters' too, and (``said``: judge round 63) the characters that fell back with it, as the plain fall
        back's words do."""
        gone = [evolve(u, models=(), status=(u.status - _FALLING_BACK_ENDS) | fell | _LEFT) for u in members]
        names = ", ".join(m.name for u in members for m in u.models)
        return (state.replace_units(*gone),
                f"{unit_id} falls back {said}, reaches the table edge and leaves the battle: removed ({names})",
                (*rules, "published.leaving-the-battle"))

    @staticmethod
    @implements("published.fall-back")
    def _fall_back_blocked(state: GameState, members: Sequence[Unit], ends: list[list[tuple[float, float]]],
                           heading: tuple[float, float], slid: bool,
                           box: tuple[float, float, float, float] | None = None) -> int:
        """Stop short the falling-back models whose ends stand on other models (``ends`` changed in place).

        Return how many stopped short.  Nothing near the move (the common case) is seen from the
        units' boxes; otherwise each model stops on its straight path where it stands clear
        (``straight_moves.settle``); a unit with no clear place on the way stays where it stood.
        ``box``: the box of the move, if known (``_move_box``: the same box, from the centres' bounds).
        """
        if box is None:
            box = _move_box([(*u.extent, 0.0) for u in members], 0.0, 0.0, ends, members)
        near = MoraleRules._units_near(state, members, box)
        if not near and not slid:
            return 0
        starts = [p for u in members for p in u.placed]
        flat = [p for places in ends for p in places]
        if not straight_moves.blocked([geo.Placed(s.base, e, s.facing_deg) for s, e in zip(starts, flat)], near, slid):
            return 0
        settled = straight_moves.settle(starts, flat, heading, near)
        if settled is None:
            flat, short = [s.at for s in starts], len(starts)
        else:
            flat, short = settled
        _put_back(ends, flat)
        return short

    @staticmethod
    def _units_near(state: GameState, members: Sequence[Unit], box: tuple[float, float, float, float]
                    ) -> list[geo.Placed]:
        """Return the bases of the units on the table, other than ``members``, whose box meets ``box``."""
        low_x, low_y, high_x, high_y = box
        ids = {u.id for u in members}
        return [p for u in state.units if u.on_table and u.id not in ids
                and u.extent[0] <= high_x and low_x <= u.extent[2] and u.extent[1] <= high_y and low_y <= u.extent[3]
                for p in u.placed]

    # == regrouping ===================================================================
    @implements("published.regroup")
    def rule_regroup(self, state: GameState, action: Regroup) -> Ruling:
        """Rule on a Regroup test: a unit falling back, in its Movement phase, with no enemy within 6".

        Published rule (3rd ed. p. 50, 4th ed. p. 48): a falling back unit may test to
        regroup at the start of its Movement phase so long as no enemy is within 6" and the
        unit is in coherency (its characters with it) and has at least half the models it
        had at the start of the battle (its joined characters not counted).  Its characters
        regroup with it (40k3.ic.falling-back).
        """
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit):
            return problem
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined} and regroups with it: regroup {unit.joined}",
                                 self.falling_back_rule)
        if not unit.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{unit.id} is not falling back", "published.regroup")
        if unit.has(Status.MOVED):
            return Ruling.forbid(f"{unit.id} has already moved this phase", "published.regroup")
        if problem := self._regroup_too_late(state, unit):
            return problem
        now, at_start, ordinary = original_strength(state, unit)
        if 2 * now < at_start:  # 4th ed. p. 48: "1. It has left at least 50% of its original strength"
            counted = ("; its ordinary characters count, deployed in it, not those who joined it", (
                self.character_kinds_rule,)) if ordinary else ("; its characters do not count", ())
            return Ruling.forbid(f"{unit.id} cannot regroup below half strength ({now} of the {at_start} models it had "
                                 f"at the start of the battle{counted[0]}): it must continue to fall back",
                                 "published.regroup", *counted[1])
        members = state.combined(unit.id)
        mine = [p for u in members for p in u.placed]
        near = [e.id for e in state.enemies_of(unit.side) if geo.group_distance(mine, e.placed) <= REGROUP_INCHES + movement.EPSILON]
        if near:
            return Ruling.forbid(f"{unit.id} cannot regroup with an enemy within 6\" ({', '.join(near)})",
                                 "published.regroup")
        if not geo.coherent(mine):  # 4th ed. p. 48: "so long as ... 3. The unit is in coherency"
            return Ruling.forbid(f"{unit.id} cannot regroup out of coherency (every model, its characters too, "
                                 "within 2\" of another, all connected): it must continue to fall back",
                                 "published.regroup", *self.coherency_rules(members))
        ld = self.leadership_of(state, unit.id, action.leadership)
        why = self.regroup_modifier(state, unit.id)[1]
        return Ruling.allow(f"{unit.id} may take a Regroup test on Ld {ld.value} ({ld.said}){why}",
                            "published.regroup", *ld.rules, *LEADERSHIP_CLAUSES)

    @staticmethod
    def _regroup_too_late(state: GameState, unit: Unit) -> Ruling | None:
        """Refuse a Regroup test once a member of the unit (a character who joined it) has moved this Movement phase:
        the test is taken at the start of the phase (published.regroup), before the unit or any of its models moves,
        so a character who joins the falling back unit that phase (3rd edition lets him) lends it no Leadership for a
        test already past."""
        movers = [u.id for u in state.combined(unit.id) if u.has(Status.MOVED) and not u.has(Status.REGROUPED)]
        if not movers:
            return None
        return Ruling.forbid(f"{unit.id} takes its Regroup test at the start of the Movement phase, before any of its "
                             f"models moves: {', '.join(movers)} has moved this phase (joining it)", "published.regroup")

    def regroup_modifier(self, state: GameState, unit_id: str) -> tuple[int, str]:
        """Return the Regroup test's modifier and its words (none in 3rd edition; 40k4 overrides)."""
        return 0, ""

    def resolve_regroup(self, state: GameState, action: Regroup, dice: Dice) -> Resolution:
        """Test on the unit's Leadership: pass and it stops falling back; fail and it falls back again."""
        unit = state.unit(action.unit)
        ld = self.leadership_of(state, unit.id, action.leadership)
        modifier, why = self.regroup_modifier(state, unit.id)
        start = rolls_made(dice)
        result = leadership_test(dice, ld.value, LeadershipTestKind.REGROUP, modifier)
        verdict = "regroups" if result.passed else "fails and falls back again"
        event = Event("regroup", f"{unit.id} takes a Regroup test on Ld {ld.value} ({ld.said}){why}, rolls "
                      f"{result.roll}: {verdict}", ("published.regroup", *ld.rules, *result.clauses),
                      rolls_since(dice, start))
        if not result.passed:
            state, more = self._fall_back(state, unit.id, dice)
            members = [u.with_status(Status.MOVED, Status.REGROUPED) for u in state.combined(unit.id)]
            return state.replace_units(*members), [event, *more]
        members = [u.with_status(Status.MOVED, Status.REGROUPED, remove=(Status.FALLING_BACK,))
                   for u in state.combined(unit.id)]
        return state.replace_units(*members), [event]

    @implements("published.last-man-standing")
    def _last_man(self, state: GameState, before: GameState, dice: Dice, skip: set[str]) -> Resolution:
        """Test every unit newly reduced to one model for Last Man Standing, unless exempt (characters)."""
        events: list[Event] = []
        unit_now = state.unit
        for u in before.units:
            if u.joined or u.id in skip:
                continue
            for last in last_models(before, u.id, unit_now):
                spared = self.last_man_spared(last)
                if spared is None and last.has(Status.FALLING_BACK):
                    spared = falling_back_spared(last)
                if spared is not None:
                    events.append(spared)
                    continue
                state, more = self._morale_check(state, last.id, dice, "is reduced to one model",
                                                 "published.last-man-standing", 0,
                                                 LeadershipTestKind.LAST_MAN_STANDING)
                unit_now = state.unit
                events += more
        return state, events

    @implements("published.last-man-standing")
    def _last_man_after_tests(self, state: GameState, before: GameState, dice: Dice, events: Sequence[Event]
                              ) -> Resolution:
        """A unit that its move's Dangerous Terrain tests (``events``) leave with one model takes Last Man Standing at
        once (3rd edition; 4th says it takes none): a unit "reduced to a single model", whatever reduced it."""
        if not any([e.kind == "casualties" for e in events]):
            return state, []
        return self._last_man(state, before, dice, set())


def _put_back(ends: list[list[tuple[float, float]]], flat: Sequence[tuple[float, float]]) -> None:
    """Write the places of a unit's models, given in one flat list, back into ``ends`` (member by member)."""
    k = 0
    for places in ends:
        for j in range(len(places)):
            places[j] = flat[k]
            k += 1


def _move_box(bounds: Sequence[tuple[float, float, float, float, float]], ox: float, oy: float,
              ends: Sequence[Sequence[tuple[float, float]]] = (), members: Sequence[Unit] = ()
              ) -> tuple[float, float, float, float]:
    """Return the box of a fall back: where each member's bases start and end (low x, low y, high x, high y).

    ``bounds``: each member's least and greatest centres and its base reach (``_FallBack.bounds``); a clear
    move ends each model at its start moved by (``ox``, ``oy``), and adding one offset to every centre keeps
    the least least and the greatest greatest in floating point, so the ends' bounds are the starts' moved.
    With ``ends`` (the models' end places, any move) ``bounds`` holds each member's box already (its
    ``Unit.extent``, reach 0) and the ends are measured as they are, each by its member's greatest reach.
    """
    low_x = low_y = math.inf
    high_x = high_y = -math.inf
    if ends:
        for (ex0, ey0, ex1, ey1, _), places, u in zip(bounds, ends, members):
            reach = max(map(_REACH, u.models))
            xs, ys = list(map(_X, places)), list(map(_Y, places))
            low_x, low_y = min(low_x, ex0, min(xs) - reach), min(low_y, ey0, min(ys) - reach)
            high_x, high_y = max(high_x, ex1, max(xs) + reach), max(high_y, ey1, max(ys) + reach)
        return low_x, low_y, high_x, high_y
    # as Unit.extent and the ends' bounds less and plus the reach: of a start and its end moved by o, the least is
    # the start moved by min(o, 0) (adding 0.0 changes no float, adding o is monotone), the greatest by max(o, 0)
    lx, hx = (ox, 0.0) if ox < 0.0 else (0.0, ox)
    ly, hy = (oy, 0.0) if oy < 0.0 else (0.0, oy)
    for x0, y0, x1, y1, reach in bounds:
        if (low := (x0 + lx) - reach) < low_x:
            low_x = low
        if (low := (y0 + ly) - reach) < low_y:
            low_y = low
        if (high := (x1 + hx) + reach) > high_x:
            high_x = high
        if (high := (y1 + hy) + reach) > high_y:
            high_y = high
    return low_x, low_y, high_x, high_y


@implements("published.last-man-standing")
def falling_back_spared(last: Unit) -> Event:
    """Say that a unit newly left with one model takes no Last Man Standing test because it is falling back already
    (published.last-man-standing's decision: a unit falling back takes no further check; 3rd edition, session 29:
    before, it took none and nothing said why)."""
    return Event("last_man", f"{last.id} is down to one model but is falling back already: it takes no Last Man "
                 "Standing test", ("published.last-man-standing", "published.fall-back"), data=(("unit", last.id),))


@implements("published.regroup", "published.morale-casualties", "40k3.char.kinds")
def original_strength(state: GameState, unit: Unit) -> tuple[int, int, bool]:
    """Return the models a unit has now and had at the start of the battle, and whether an ordinary character is
    among them, the unit taken as it was deployed: its own models and those of
    the ordinary characters deployed as part of it (40k3.char.kinds; seed 000: "as part of a unit at the start of the
    game"), not the independent characters who joined it since. An ordinary character who outlived its models
    (``last_of``) is what is left of it and is counted against it. Judge round 39: before, an ordinary character was
    counted in neither, so a squad of three Marines and its Sergeant left with one Marine and him (2 of 4, half) was
    held below half strength to regroup and its 4th edition Morale check took -1."""
    base = unit
    if unit.character is CharacterKind.ORDINARY and (unit.last_of or unit.joined):
        base = state.unit(unit.last_of or unit.joined or "")
    parts = [base, *[u for u in state.units if u.character is CharacterKind.ORDINARY and u is not base
                     and base.id in (u.joined, u.last_of)]]
    return sum([len(u.models) for u in parts]), sum([u.starting_strength for u in parts]), len(parts) > 1


def last_models(before: GameState, unit_id: str, unit_now: Callable[[str], Unit]) -> list[Unit]:
    """Return the members of a unit (with the characters it had before) newly left with one model each, by
    ``unit_now``: the unit down to one model; or destroyed, each character it leaves a unit of one model of its own.

    None for the very same units (none newly reduced to one), none left, or the unit standing with more.
    """
    same, now, now_units = True, 0, []
    for x in before.combined(unit_id):  # the members it had before: a character released from a destroyed unit counts
        y = unit_now(x.id)
        if y is not x:
            same = False
        if y.models:
            now += len(y.models)
            now_units.append(y)
    if same or not now or (now != 1 and now_units[0].id == unit_id):
        return []
    if sum(len(x.models) for x in before.combined(unit_id)) > 1:
        return [last for last in now_units if len(last.models) == 1]
    return []
