"""The 9th Age Melee phase: close combat with characters in and out of units.

Published 9th Age rules as the engine reads them (``herohammer rules --ruleset published``):

* Who fights: a model in base contact with an enemy model attacks with its Attacks; a
  model in the rank right behind a unit's front rank makes one supporting attack while its
  unit is in contact.  Strikes go in Initiative order, highest first; equal Initiative
  strikes at the same time; a model slain before its step does not strike.
* Whom: a model attacks the enemy unit it touches.  Its attacks go to the unit's rank and
  file unless it touches an enemy character and its player directs them at it (``at``:
  only models in base contact with that character may, and a supporting model as if it stood
  in the first rank of its file, ``_in_first_rank``); a lone character, or the last
  survivor of a unit, is a unit of its own and takes them all (t9a.char.lone,
  t9a.combined.last-survivor).  To hit by WS against WS, to wound by S against T, armour
  by S (``t9a_charts``), through the same wounding code as shooting and spells.
* Duels (``fight`` with ``duel``/``accept``/``nominate``): two characters accept to fight
  each other only; Overkill (unsaved wounds beyond the foe's last Wound) scores up to +3; a
  Duel both survive goes on in the combat's next round (``GameState.duels``), and no other is
  issued there meanwhile; the reactive player's character may issue one when the active
  player's issue none; a refusal shames one enemy character that could have accepted
  (``Status.DUEL_REFUSED``): no attacks, Discipline 0, no Battle Standard bonus or Rally Around
  the Flag, until it issues or accepts a Duel or no enemy that could accept one is in contact.
* Combat resolution: each side scores the Wounds its attacks removed, +1 per Full Rank (a rank
  of five models or more, in a unit at least five wide) behind the first up to +3, counted for
  one unit of the side (its highest), +1 per Standard Bearer, +1 once for having charged this
  turn; the side with less loses by the difference and takes a Break test: a Leadership test
  on the unit's highest Leadership (a character's, if higher) at minus the difference,
  unmodified when it has more Full Ranks than every winning unit (Steadfast).
* A unit that breaks flees 2D6" straight away with its characters; the winner pursues
  2D6": when the pursuit reaches the flee distance the fleeing unit is destroyed, its
  characters with it, before it flees (the flee moves are made once the pursuits are rolled).  Either way the combat ends, and the pursuer pivots to face the way
  the unit fled and moves its roll straight forward (stopped short of the table edge, a
  model, Impassable Terrain, or 1" from another unit), or charges a fresh enemy it reaches,
  their combat fought in the next Melee phase; a winner that restrains its pursuit
  may make a Post-Combat Pivot or Reform.
* Friends' Panic tests (published.t9a-panic, "immediately after"): taken as the losses come, for a unit the blows
  destroyed before the Break tests, for a unit that breaks before its flee roll (``t9a_panic.panic_at_once``); for a
  friend a broken unit fled through, once the flee moves are made.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from ..catalogue import implements
from ..checks import LeadershipTestKind
from ..dice import Dice, Stage, rolls_made, rolls_since
from ..errors import ScenarioError
from ..formations import arrange, is_character
from ..geometry import EPSILON, box_gap, distance, group_distance, group_extent, in_base_contact
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..swept_contact import group_first_contact, table_reach
from ..t9a_charts import to_hit_melee
from ..units import Model, Status, Unit
from ..values import keep_bounded
from .base import LeadershipRuling, LeadershipSource, Resolution, Ruleset
from .t9a_discipline import BATTLE_STANDARD, BSB_RULE, SHAKEN_RULE, discipline_test
from .t9a_casualties import (COMMAND_GROUP, REMOVING_CASUALTIES, command_said, no_models_left, rank_and_file,
                             remove_casualties)
from .t9a_nudge import LOSING_CONTACT, nudge_back
from .t9a_moves import SPACING_RULE, UNIT_SPACING, path_problem, shift_unit, spacing_problem
from .t9a_align import aligned
from .t9a_units import CHARGE_ARC, LARGE_RULES, current, formation_of, is_destroyed, off_table, unit_centre
from .t9a_panic import fled_through_panic, panic_at_once
from .t9a_weapons import CLOSE_COMBAT_WEAPONS, Wielded, attack_ap, close_combat_weapon, wielded
from .t9a_combat import (FLEE_RULE, GENERAL, TO_WOUND, away_direction, fled_to, generals_near, members, models_in,
                         strike_unit)

if TYPE_CHECKING:
    from ..actions import Action, Fight, PursuitChoice

TO_HIT = "published.t9a-to-hit-melee"
RESOLUTION = "published.t9a-combat-resolution"
BREAK = "published.t9a-break-test"
PURSUIT = "published.t9a-pursuit"
DUEL = "published.t9a-duel"
FLANK_REAR = "published.t9a-flank-rear"
STUBBORN = "published.t9a-stubborn"
#: The special rule by which a unit breaks on its unmodified Discipline (published.t9a-stubborn).
STUBBORN_RULE = "Stubborn"
#: The Combat Score a side adds for each Flank or Rear Facing of an enemy unit it fights (published.t9a-flank-rear).
FACING_BONUS = {"left": 1, "right": 1, "rear": 2}
#: The Full Ranks an enemy unit in a Flank or Rear needs to take away Steadfast (Disrupted Ranks).
DISRUPTING_RANKS = 2
#: The most Overkill (a duellist's unsaved wounds beyond its foe's last Wound) adds to the Combat Score.
MAX_OVERKILL = 3
FULL_RANK = 5
#: What a fight keeps on the state it is fought from: the broken units' places per flee distance (``flee``).
_FLEES = ("t9a fight", "flees")
#: ... and each Initiative step's blows by the state struck on (at most this many kept, then cleared).
_BLOWS = ("t9a fight", "blows")
BLOWS_KEPT = 256
#: ... and what each strike's unsaved wounds did (``strike_unit``'s ``kept``).
_STRIKES = ("t9a fight", "strikes")
_SCORES = ("t9a fight", "scores")
MAX_RANK_BONUS = 3
#: The models a Full Rank of a unit whose rules name it Large or Gigantic needs (``t9a_units.LARGE_RULES``).
LARGE_FULL_RANK = 3


@dataclass(frozen=True)
class Blow:
    """One model's attacks in a step: who strikes, at which unit, how many attacks."""

    side: str
    model: Model
    victim: str  # the unit id whose models take the attacks
    attacks: int
    only: str | None = None  # the one model of it they may wound: a Champion fighting a Duel (published.t9a-duel)
    ap: int = 0  # what its Close Combat Weapon's Armour Penetration adds to the save roll (published.t9a-*)
    weapon: str = ""  # the Close Combat Weapon whose bonuses its profile carries ("" none)


class _Scored(NamedTuple):
    """A combat's score before its Break test (``_combat_score``): what the dice after the blows do not decide."""

    state: GameState  # every unit of the combat marked as fought
    live: list[str]
    hosts: dict[str, Unit]
    score: dict[str, int]
    notes: list[str]
    fronts: dict[tuple[str, str], str]
    counted: dict[str, dict[str, int]]
    rules: tuple[str, ...]
    free: tuple[str, ...]  # the units that wiped out every enemy in their base contact (No More Foes, ``_no_more_foes``)


@implements(RESOLUTION, BREAK)
def _no_more_foes(state: GameState, live: Sequence[str], hosts: Mapping[str, Unit]) -> tuple[str, ...]:
    """Return the units of a combat that goes on which no longer touch an enemy: each destroyed every enemy unit in
    its base contact (every unit of a combat touched one when it began, ``combat_of``).

    The 2022 text, Break Test, No More Foes: "Sometimes a unit destroys all enemy units in base contact and finds
    itself no longer Engaged in Combat ... These units always count as winning the combat ... When this happens in
    multiple combats, the Combat Score resulting from lost Health Points by the unit and its enemies counts, but all
    other Combat Score bonuses are ignored. Note that the unit itself doesn't take a Break Test".  Only a combat of
    three units or more may hold one while both sides stand, so a combat of two looks at nothing.  Round 42: until
    then such a unit scored its bonuses, took its side's Break test and stayed Engaged.
    """
    if len(live) < 3 or len({hosts[u].side for u in live}) < 2:
        return ()
    return tuple(u for u in live if not engaged_with(state, u))


@implements(RESOLUTION)
def _combat_score(state: GameState, mine: str, foes: list[str], caused: dict[str, int]) -> _Scored:
    """Score a combat from the wounds caused and the static bonuses (none for a unit with no more foes, which is
    told); mark its units as fought."""
    everyone = [mine, *foes]
    live = [u for u in everyone if models_in(state, u)]
    hosts = {u: members(state, u)[0] for u in live}
    score = dict(caused)
    notes = ["wounds caused: " + ", ".join(f"{side} {n}" for side, n in caused.items())]
    free = _no_more_foes(state, live, hosts)
    if free:
        notes += [f"{uid} destroyed every enemy in its base contact and is Engaged no more (No More Foes): it counts "
                  "as winning, takes no Break test and its Combat Score bonuses are ignored; it makes the Overrun "
                  "(if it charged), Post-Combat Pivot or Reform its fight's pursuit names, if any" for uid in free]
        hosts = {u: h for u, h in hosts.items() if u not in free}
    fronts = facings(state, hosts)
    counted = _static_bonuses(state, hosts, fronts)
    for uid, parts in counted.items():
        bonus = sum(parts.values())
        score[hosts[uid].side] = score.get(hosts[uid].side, 0) + bonus
        if bonus:  # what the bonus is made of: "captain +1 (charge)", "spears +3 (ranks +2, charge +1)"
            named = [name if len([v for v in parts.values() if v]) == 1 else f"{name} +{v}"
                     for name, v in parts.items() if v]
            notes.append(f"{uid} +{bonus} ({', '.join(named)})")
    notes += _uncounted(state, hosts, counted)
    state = state.replace_units(*(u.with_status(Status.FOUGHT) for uid in live for u in members(state, uid)))
    rules = (RESOLUTION, *((FLANK_REAR,) if any(f != "front" for f in fronts.values()) else ()),
             *((BATTLE_STANDARD,) if any(p.get("battle standard") for p in counted.values()) else ()))
    hosts.update((u, members(state, u)[0]) for u in free)
    return _Scored(state, live, hosts, score, notes, fronts, counted, rules, free)


class _Fight:
    """Where a 9th Age fight stands between its steps (a carry of ``Dice.loop``): the state, the next Initiative step
    (``at``, an index; the steps' count: the combat's result is next; -1: resolved), the wounds caused and the Duel's
    excess so far by side, the rules met, and the blows' words and rolls (read by nothing but the ``fight`` event: an
    enumeration's merged carries show one representative's); once resolved, every event of the fight."""

    __slots__ = ("state", "at", "caused", "overkill", "rules", "lines", "rolls", "events", "kept_key", "pending")

    def __init__(self, state: GameState, at: int, caused: tuple[tuple[str, int], ...],
                 overkill: tuple[tuple[str, int], ...], rules: tuple[str, ...], lines: tuple[str, ...],
                 rolls: tuple[Any, ...], events: tuple[Event, ...] = (), pending: _PendingPursuit | None = None
                 ) -> None:
        self.state = state
        self.at = at
        self.caused = caused
        self.overkill = overkill
        self.rules = rules
        self.lines = lines
        self.rolls = rolls
        self.events = events
        self.kept_key: Hashable | None = None
        #: with ``at`` at ``PURSUING``: the combat's result up to its pursuits, which the next step rolls
        self.pending = pending

    def over(self) -> bool:
        """Say whether the combat is resolved."""
        return self.at < 0

    def key(self, view: Any = None) -> Hashable:
        """Everything later steps and the caller read: until the result, the state, the next step, the wounds caused,
        the Duel's excess and the rules met; once resolved, the state and the events as the caller reads them
        (``view``, see ``Dice.event_view``; without one by kind, rules and data), never by their wording."""
        kept = self.kept_key
        if kept is None:
            if self.pending is not None:  # the events so far as the caller reads them, and what the pursuits read
                kept = (self.state, self.at, tuple(view(e) if view is not None else (e.kind, e.rules, e.data)
                                                   for e in self.events), self.pending.key())
            elif self.at >= 0:
                kept = (self.state, self.at, self.caused, self.overkill, self.rules)
            else:
                kept = (self.state, tuple(view(e) if view is not None else (e.kind, e.rules, e.data)
                                          for e in self.events))
            self.kept_key = kept
        return kept


#: ``_Fight.at`` once the Break tests and flees are taken and the pursuits are still to roll: a step of its own, so
#: that an enumeration rolls each pursuit from the merged results before it, not once per Break test and flee roll.
PURSUING = 1 << 20


class _PendingPursuit(NamedTuple):
    """A combat's result up to its pursuits (``_resolve_combat``): what ``_pursue`` and the ``break`` event read."""

    state: GameState
    winners: tuple[str, ...]
    held: tuple[str, ...]
    broke: tuple[str, ...]
    fled_by: tuple[tuple[str, tuple[int, tuple[str, ...], tuple[float, float], tuple[float, float]]], ...]
    pursuit: tuple[tuple[str, PursuitChoice], ...]
    said: str
    rules: tuple[str, ...]
    losers: tuple[str, ...]
    rolls: tuple[Any, ...]
    free: tuple[str, ...] = ()  # the units with No More Foes (``_no_more_foes``), who may pivot or reform at the end
    panics: tuple[Event, ...] = ()  # the friends' Panic tests taken as units broke, told after the ``break`` event

    def key(self) -> Hashable:
        """Everything but the words and the rolls (read by the ``break`` event alone: merged carries show one's)."""
        return self.winners, self.held, self.broke, self.fled_by, self.pursuit, self.rules, self.losers, self.free


@dataclass(frozen=True)
class DuelPlan:
    """A Duel issued before the blows: accepted (two duellists) or refused (one enemy character shamed); ``ongoing``:
    the Duel of an earlier round of this combat, fought on (``GameState.duels``)."""

    issuer: str
    accepter: str | None = None
    refused: str | None = None
    ongoing: bool = False
    #: the reactive player's Duel issued after this one was refused ("if no Duel was issued, or it was refused")
    after: DuelPlan | None = None

    @property
    def fought(self) -> DuelPlan:
        """Return the Duel whose duellists fight this round: the reactive player's after a refusal, else this one."""
        return self.after if self.after is not None else self

    @property
    def duellists(self) -> frozenset[str]:
        """Return the two characters fighting the Duel (none when it was refused)."""
        return frozenset({self.issuer, self.accepter}) if self.accepter else frozenset()


def champion_of(unit: Unit) -> Model | None:
    """Return a rank-and-file unit's living Champion (its command group's ``champion``), or None."""
    if is_character(unit):
        return None
    return next((m for m in unit.models if m.role == "champion"), None)


@implements(DUEL)
def can_duel(unit: Unit) -> bool:
    """Say whether a unit holds a model that may issue or accept a Duel: a living character, or the Champion of a
    rank-and-file unit (2022 text: "Characters and Champions Engaged in Combat may issue a Duel"); a duellist is named
    by its unit's id, a Champion by the id of the unit it leads."""
    return unit.alive and (is_character(unit) or champion_of(unit) is not None)


def duelling_champions(state: GameState, duellists: frozenset[str]) -> dict[str, str]:
    """Return the duellists that are Champions, each unit's id with its Champion's name."""
    return {d: c.name for d in duellists if (c := champion_of(state.unit(d))) is not None}


def duellist_alive(state: GameState, name: str) -> bool:
    """Say whether a duellist (a character's id, or a Champion's unit's) is still on the table."""
    return state.has_unit(name) and can_duel(state.unit(name))


@implements(DUEL)
def ongoing_duel(state: GameState, units: Sequence[str]) -> tuple[str, str] | None:
    """Return the Duel still being fought among these combined units (both duellists alive, each in one of them)."""
    if not state.duels:
        return None
    ids = {u.id for uid in units for u in members(state, uid) if can_duel(u)}
    return next(((a, b) for a, b in state.duels if a in ids and b in ids), None)


@implements(DUEL)
def duels_left(state: GameState) -> GameState:
    """Drop the Duels that are over: a duellist slain or gone, or the two no longer in one combat (a unit broke,
    fled or was destroyed: the combat has ended)."""
    if not state.duels:
        return state
    going = tuple(pair for pair in state.duels if all(duellist_alive(state, d) for d in pair)
                  and members(state, pair[1])[0].id in combat_of(state, members(state, pair[0])[0].id))
    return state if going == state.duels else replace(state, duels=going)


@implements(DUEL)
def shame_ends(state: GameState) -> GameState:
    """End a refused Duel's effects at the end of a Player Turn where no enemy model that could accept a Duel (a
    character, or a unit's Champion: 2022 text, "an enemy model Engaged in the same Combat that could accept a Duel")
    is in a unit in base contact with the shamed character's unit (its combat over, or no such model left). Until
    round 43 only an enemy character kept the shame: a Champion left in contact lifted it."""
    shamed = [u for u in state.units if u.has(Status.DUEL_REFUSED)]
    ended = [u for u in shamed if not u.alive or not any(
        can_duel(c) for f in engaged_with(state, members(state, u.id)[0].id) for c in members(state, f))]
    return state.replace_units(*(u.with_status(remove=(Status.DUEL_REFUSED,)) for u in ended)) if ended else state


def _touching(a: Sequence[Unit], b: Sequence[Unit]) -> bool:
    return any(in_base_contact(m.placed, n.placed) for u in a for m in u.models for v in b for n in v.models)


def _model_touching(model: Model, units: Sequence[Unit]) -> bool:
    """Say whether one model is in base contact with a model of the units (what ``_touching`` says of it alone)."""
    placed = model.placed
    return any(in_base_contact(placed, n.placed) for v in units for n in v.models)


@implements(PURSUIT)
def _overruns_not_made(state: GameState, live: Sequence[str], pursuit: Mapping[str, PursuitChoice] | None,
                       free: Sequence[str] = ()) -> str:
    """Say why the Overrun each unit named is not made when enemy units of its combat are left (round 40: until then
    the event said nothing of it): one in its base contact is not wiped out (the 2022 text: an Overrun only "if all
    enemy units in base contact were wiped out"), or, none touching it, others of the combat stand (a unit of a combat
    of two, which ``_no_more_foes`` does not look at).  A unit with No More Foes (``free``) makes it (round 48,
    ``MeleePhase._no_more_foes_end``)."""
    said = ""
    for uid in live:
        choice = (pursuit or {}).get(uid)
        if choice is None or not choice.overrun or uid in free:
            continue
        touching = engaged_with(state, uid)
        said += (f"; {uid} makes no Overrun: {', '.join(touching)}, in its base contact, "
                 f"{'is' if len(touching) == 1 else 'are'} not wiped out" if touching else
                 f"; {uid} makes no Overrun: enemy units of the combat are left (an Overrun is made only once every "
                 "enemy of the combat is wiped out)")
    return said


def engaged_with(state: GameState, unit_id: str) -> list[str]:
    """Return the ids of the enemy combined units in base contact with a combined unit.

    Kept on the state by the unit asked (``HashOnce.remember``): a fight asks it of one state for its ruling, its
    combat, its Duels and its combat result."""
    return list(state.remember((_ENGAGED, unit_id), partial(_engaged_with, state, unit_id)))


_ENGAGED = "t9a engaged with"


def _engaged_with(state: GameState, unit_id: str) -> tuple[str, ...]:
    mine = members(state, unit_id)
    side = mine[0].side
    seen: list[str] = []
    for e in state.enemies_of(side):
        group = members(state, e.id)
        if group[0].id not in seen and _touching(mine, group):
            seen.append(group[0].id)
    return tuple(seen)


@implements(RESOLUTION)
def combat_of(state: GameState, unit_id: str) -> list[str]:
    """Return the other combined units of a unit's combat: every unit connected to it through base contact, enemy or
    friend (a friend that fights an enemy it fights), in the order they are reached (published.t9a-combat-resolution:
    "a group of opposing units that are all connected through base contact").

    The common combat of two units costs one more look: the enemy's own contacts.
    """
    found = [members(state, unit_id)[0].id]
    i = 0
    while i < len(found):
        for other in engaged_with(state, found[i]):
            if other not in found:
                found.append(other)
        i += 1
    return found[1:]


@implements(RESOLUTION)
def fighting_unit(state: GameState, unit_id: str) -> str:
    """Return the unit a combat is fought from whichever of its player's units names it: the first of them in the
    state's order (published.t9a-combat-resolution: one combat, "a group of opposing units that are all connected
    through base contact").  Round 38: the name given set the order of the choices the texts leave to the players
    (the losing side's Break tests, and so the unit its pursuers chase), so the same combat fought under either of
    two charging units' names had different odds; now it is one fight, offered once."""
    mine = members(state, unit_id)[0]
    order = {u.id: i for i, u in enumerate(state.units)}
    ours = [mine.id, *(u for u in combat_of(state, mine.id) if state.unit(u).side == mine.side)]
    return min(ours, key=order.__getitem__)


@implements(RESOLUTION)
def full_ranks(unit: Unit) -> int:
    """Count a unit's Full Ranks: ranks of five models or more, an incomplete rear rank of five or more included.

    A unit fewer than five files wide has none (published.t9a-combat-resolution); a unit whose rules name it Large
    (or Gigantic) needs three models a rank, not five.
    """
    f = unit.formation
    need = LARGE_FULL_RANK if unit.rules and not LARGE_RULES.isdisjoint(unit.rules) else FULL_RANK
    if f is None or f.files < need:
        return 0
    whole, rest = divmod(len(f.order), f.files)
    return whole + (1 if rest >= need else 0)


def rank_bonus(unit: Unit) -> int:
    """Return +1 per Full Rank behind the first, up to +3."""
    return max(0, min(MAX_RANK_BONUS, full_ranks(unit) - 1))


@implements("core.zero.ws", "core.zero.s", "core.zero.t", "core.zero.a")
def _zero_rules(ws: int, struck_ws: int, strength: int, struck: Sequence[Model]) -> tuple[str, ...]:
    """Cite the value-0 clauses that decided a batch of blows: WS 0 on either side (hit automatically, or only on 6),
    Strength 0 (no wound) or else Toughness 0 (wounded on 2+); none where no value was 0."""
    cited = ("core.zero.ws",) if ws <= 0 or struck_ws <= 0 else ()
    if strength <= 0:
        return (*cited, "core.zero.s")
    if any(m.profile.t <= 0 for m in struck):
        return (*cited, "core.zero.t")
    return cited


class MeleePhase(Ruleset):
    """Rule on and resolve close combat in The 9th Age (mixed into the t9a ruleset before ``NinthAge``)."""

    if TYPE_CHECKING:  # NinthAge's Reform, the Post-Combat Pivot or Reform after a passed Restrain Pursuit test
        def reform_problem(self, state: GameState, unit: Unit, facing: float | None,
                           files: int | None) -> Ruling | None: ...

        def reformed(self, state: GameState, unit: Unit, facing: float | None,
                     files: int | None) -> tuple[GameState, str]: ...

    @implements("t9a.join.part-of-unit", "t9a.char.lone", "t9a.combined.last-survivor")
    def rule_fight(self, state: GameState, action: Fight) -> Ruling:
        """Rule on fighting a combat: an engaged unit in base contact; attacks at a character only from contact."""
        unit = state.unit(action.unit)
        if not models_in(state, unit.id):
            return no_models_left(unit)
        group = members(state, unit.id)
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined}: the unit fights, with it",
                                 "t9a.join.part-of-unit")
        if any(u.has(Status.FOUGHT) for u in group):
            if unit.has(Status.PURSUIT_CHARGED):
                return Ruling.forbid(f"{unit.id} fought this Melee phase and then charged with its Pursuit Move: its "
                                     "new combat is fought in the next Melee phase", PURSUIT, RESOLUTION)
            return Ruling.forbid(f"{unit.id}'s combat has been fought this Melee phase", RESOLUTION)
        foes = engaged_with(state, unit.id)
        if not foes:
            return Ruling.forbid(f"{unit.id} is not in base contact with an enemy unit", TO_HIT)
        # the combat is every unit connected through base contact: friends fighting the same foes fight with it
        rest = combat_of(state, unit.id)
        friends = [u for u in rest if state.unit(u).side == unit.side]
        if fought := next((u for u in rest for m in members(state, u) if m.has(Status.FOUGHT)), None):
            if state.unit(fought).has(Status.PURSUIT_CHARGED):
                return Ruling.forbid(f"{unit.id}'s combat is fought in the next Melee phase: {fought} charged into it "
                                     "with its Pursuit Move after fighting this one", PURSUIT, RESOLUTION)
            return Ruling.forbid(f"{unit.id}'s combat (with {fought}) has been fought this Melee phase", RESOLUTION)
        if action.at is not None:
            problem = self._at_problem(state, group, foes, action.at)
            if problem:
                return Ruling.forbid(problem, "t9a.join.part-of-unit")
        if action.reactive_at is not None:
            problem = self._reactive_at_problem(state, group, rest, action.reactive_at)
            if problem:
                return Ruling.forbid(problem, "t9a.join.part-of-unit", TO_HIT)
        if action.break_order is not None and (problem := _break_order_problem(state, [unit.id, *rest],
                                                                               action.break_order)):
            return Ruling.forbid(problem, BREAK)
        if action.pursuit and (problem := _pursuit_problem(state, [unit.id, *rest], action.pursuit)):
            return Ruling.forbid(problem, PURSUIT)
        duel = self.plan_duel(state, group, rest, action)
        if isinstance(duel, str):
            return Ruling.forbid(duel, DUEL)
        if duel is not None and action.reactive_at in duel.fought.duellists:
            other = next(d for d in duel.fought.duellists if d != action.reactive_at)
            return Ruling.forbid(f"reactive_at: {action.reactive_at} fights the Duel: only {other} may attack it",
                                 DUEL)
        rules = [TO_HIT, RESOLUTION, *((DUEL,) if duel else ())]
        for f in foes:
            if state.joined_to(f) or len(group) > 1:
                rules.append("t9a.join.part-of-unit")
            if is_character(state.unit(f)) and not state.unit(f).last_of and not state.unit(f).joined:
                rules.append("t9a.char.lone")
            if state.unit(f).last_of:
                rules.append("t9a.combined.last-survivor")
        if unit.last_of:  # named by his destroyed unit's name or his own: he fights as that unit
            rules.append("t9a.combined.last-survivor")
        said = ""
        if duel is not None:
            said = (f"; the Duel of {duel.issuer} and {duel.accepter} goes on" if duel.ongoing else
                    f"; {duel.issuer} duels {duel.accepter}" if duel.accepter else
                    f"; the Duel {duel.issuer} issues is refused: {duel.refused} may not attack and its Leadership "
                    "counts as 0" if duel.refused else
                    f"; the Duel {duel.issuer} issues is refused: only Champions could have accepted, and none is "
                    "nominated")
            if (then := duel.after) is not None:  # the reactive player's Duel after the refusal
                said += (f"; then the reactive player's {then.issuer} duels {then.accepter}" if then.accepter else
                         f"; then the reactive player's Duel, issued by {then.issuer}, is refused too" +
                         (f": {then.refused} may not attack and its Leadership counts as 0" if then.refused else
                          ": only Champions could have accepted, and none is nominated"))
        enemies = [u for u in rest if u not in friends]
        if action.reactive_at is not None:
            said += (f"; the models of {state.opponent(unit.side)} in base contact with {action.reactive_at} attack "
                     "it (the reactive side's choice)")
        also = f" with {', '.join(friends)} (one combat, connected through base contact)" if friends else ""
        if action.break_order:
            said += f"; the losing side's Break tests in the order {', '.join(action.break_order)}"
            rules.append(BREAK)
        for name, choice in (action.pursuit or {}).items():
            if choice.restrain:
                said += f"; {name} tries to Restrain Pursuit if its enemy breaks"
            if choice.pursue:
                said += f"; {name} pursues {choice.pursue} if it breaks" + (", failing that test" * choice.restrain)
            if choice.facing is not None or choice.files is not None:
                said += (f"; {name} makes a Post-Combat {_reform_kind(choice)} if it "
                         + ("passes that test or " if choice.restrain else "") + "has No More Foes")
            if choice.overrun:
                said += f"; {name} Overruns if every enemy in its base contact is wiped out"
            rules.append(PURSUIT)
        return Ruling.allow(f"{unit.id} fights {', '.join(enemies)}{also}{said}", *dict.fromkeys(rules))

    @implements(STUBBORN, BREAK)
    def ignores_negative_modifiers(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether a judge's Break test (the ``test`` action) of a Stubborn unit ignores its negative modifiers:
        a Break test's is the Combat Score difference (published.t9a-break-test), which a Stubborn unit does not
        apply (published.t9a-stubborn), as the Melee phase's own Break test reads it (``_stubborn``)."""
        return kind is LeadershipTestKind.BREAK and bool(_stubborn(state, members(state, unit_id)[0].id))

    @implements(STUBBORN)
    def stubborn_cited(self, state: GameState, unit_id: str) -> tuple[str, ...]:
        """Cite The 9th Age's Stubborn (a unit with one model with it is Stubborn: no sharing rule to cite)."""
        return (STUBBORN,)

    @staticmethod
    def duel_candidates(state: GameState, unit_id: str) -> Iterator[Fight]:
        """Propose the fight with each Duel its combat's characters could issue (published.t9a-duel): each issuer,
        the active side's or the reactive side's, with each enemy character able to accept it, accepted and refused
        (that character nominated); none while a Duel goes on in the combat (the plain fight fights it).  The rulings
        check each candidate as any other."""
        from ..actions import Fight

        units = [unit_id, *combat_of(state, unit_id)]
        if ongoing_duel(state, units) is not None:
            return
        side = state.unit(unit_id).side
        offers = [(issuer.id, able.id) for uid in units for issuer in members(state, uid) if can_duel(issuer)
                  for foe in engaged_with(state, uid) for able in members(state, foe) if can_duel(able)]
        for issuer_id, able_id in offers:
            yield Fight.trusted(do="fight", unit=unit_id, duel=issuer_id, accept=able_id)
            if not is_character(state.unit(able_id)):  # a Champion is never nominated
                continue
            yield Fight.trusted(do="fight", unit=unit_id, duel=issuer_id, nominate=able_id)
            if state.unit(issuer_id).side != side:  # the reactive player's own Duel: nothing after it
                continue
            for again, accepter in offers:  # refused: the reactive player may issue one, here accepted
                if state.unit(again).side != side and again != able_id:  # not by the nominee, who refused
                    yield Fight.trusted(do="fight", unit=unit_id, duel=issuer_id, nominate=able_id,
                                        reactive_duel=again, reactive_accept=accepter)

    @staticmethod
    @implements(PURSUIT)
    def pursuit_candidates(state: GameState, unit_id: str) -> Iterator[Fight]:
        """Propose the fight with each choice its combat's units may name for the end of it (published.t9a-pursuit,
        round 36): a Restrain Pursuit test ("Units can elect not to Pursue, but must then pass a Discipline Test") for
        each unit, either side's, as either may win, an Overrun for each that charged this turn (the 2022 text:
        "A unit that fought its First Round of Combat after Charging can choose ... Overrun"), and for each unit in
        ranks and files the about-turn as the Post-Combat Pivot it makes with No More Foes (round 46: one of the
        facings it may name, offered so that the choice is seen; any other is named as a reform's).  One choice a fight:
        the rulings check each candidate as any other."""
        from ..actions import Fight, PursuitChoice

        for uid in [unit_id, *combat_of(state, unit_id)]:
            yield Fight.trusted(do="fight", unit=unit_id, pursuit={uid: PursuitChoice(restrain=True, files=None)})
            if (shape := formation_of(state.unit(uid))) is not None:
                yield Fight.trusted(do="fight", unit=unit_id,
                                    pursuit={uid: PursuitChoice(facing=(shape.facing + 180.0) % 360.0, files=None)})
            if state.unit(uid).has(Status.CHARGED):
                yield Fight.trusted(do="fight", unit=unit_id, pursuit={uid: PursuitChoice(overrun=True, files=None)})

    @implements(DUEL)
    def plan_duel(self, state: GameState, group: Sequence[Unit], combat: Sequence[str],
                  action: Fight) -> DuelPlan | str | None:
        """Check a Duel issued, accepted or refused before the blows; return it, a refusal reason, or None.

        ``combat`` is the combat's other units (``combat_of``).  A Duel of an earlier round that both duellists
        survived is fought on, and no other is issued in the combat meanwhile ("there must not be any ongoing Duel in
        this combat").  Else a character of the active side engaged anywhere in the combat issues it (the fighting
        unit's or a friend's that fights with it), or, when the active player issues none, one of the reactive
        side's ("if no Duel was issued, the Reactive Player may ... issue a Duel"); an enemy character whose unit is
        in base contact with the issuer's unit may accept (2022 text, rules/duels: "this enemy model's unit must be
        in base contact with the unit of the model that issued the Duel"); if none does, the issuer names one that
        could have (``nominate``; the only one by default), who is shamed (``Status.DUEL_REFUSED``).
        """
        going = ongoing_duel(state, [group[0].id, *combat])
        if going is not None:
            if action.duel is not None or action.accept is not None or action.nominate is not None:
                return (f"the Duel of {going[0]} and {going[1]} goes on in this combat: no other Duel may be issued "
                        "until it ends")
            if action.at in going:
                other = going[1] if action.at == going[0] else going[0]
                return f"{action.at} fights the Duel: only {other} may attack it"
            return DuelPlan(going[0], accepter=going[1], ongoing=True)
        reactive = (action.reactive_duel, action.reactive_accept, action.reactive_nominate)
        if action.duel is None:
            if action.accept is not None or action.nominate is not None:
                return "no Duel was issued (duel: the character who issues it)"
            if any(x is not None for x in reactive):
                return ("no Duel of the active player was refused: when the active player issues none, the reactive "
                        "player's Duel is named in duel:, not reactive_duel:")
            return None
        units = [group[0].id, *combat]
        everyone = [c for uid in units for c in members(state, uid) if can_duel(c)]
        side = group[0].side
        mine = [c.id for c in everyone if c.side == side]
        theirs = [c.id for c in everyone if c.side != side]  # the reactive player's, when the active issues none
        if action.duel not in mine and action.duel not in theirs:
            return (f"{action.duel} is not a character in {group[0].id}'s combat, nor a unit with a Champion "
                    f"({', '.join(mine) or 'none'} of {side}; {', '.join(theirs) or 'none'} of the reactive player, "
                    f"when {side} issues no Duel): only such a character issues a Duel, or a unit's Champion")
        first = self._issued(state, combat, action.duel, action.accept, action.nominate, action.at, "")
        if isinstance(first, str) or all(x is None for x in reactive):
            return first
        # the reactive player's Duel after the active player's was refused (2022 text, rules/duels)
        if first.accepter is not None or action.duel not in mine:
            return ("reactive_duel: the reactive player issues a Duel only after the active player's Duel was refused"
                    + (" (this one was accepted)" if first.accepter is not None else
                       f" ({action.duel} is the reactive player's own: it is the reactive Duel)"))
        if action.reactive_duel is None:
            return "reactive_accept and reactive_nominate answer a reactive_duel: name the character who issues it"
        if action.reactive_duel not in theirs:
            return (f"reactive_duel: {action.reactive_duel} is not the reactive player's character in "
                    f"{group[0].id}'s combat, nor a unit of theirs with a Champion ({', '.join(theirs) or 'none'})")
        if action.reactive_duel == first.refused:
            # "one of their Characters or Champions that did not refuse the Active Player's Duel" (2022 text)
            return (f"reactive_duel: {action.reactive_duel} refused the active player's Duel (nominated for the "
                    "refusal): only a character or Champion that did not refuse it issues the reactive player's Duel")
        second = self._issued(state, combat, action.reactive_duel, action.reactive_accept, action.reactive_nominate,
                              action.at, "reactive_")
        if isinstance(second, str):
            return second
        return replace(first, after=second)

    def _issued(self, state: GameState, combat: Sequence[str], named: str, accept: str | None, nominate: str | None,
                at: str | None, field: str) -> DuelPlan | str:
        """Check one Duel issued by ``named``: accepted by ``accept`` or refused (``nominate`` shamed); ``field``:
        the action's field prefix the reasons name (``reactive_`` for the reactive player's Duel after a refusal)."""
        issuer = members(state, named)[0].id
        touching = engaged_with(state, issuer)
        able = [c.id for f in touching for c in members(state, f) if can_duel(c)]
        if not able:
            return (f"no enemy character or Champion in a unit in base contact with {issuer} ({named}'s unit) "
                    "could accept a Duel")
        if accept is not None and at in (named, accept):
            # either duellist: the accepter when the active player's character issued, the issuer when the reactive
            # player's did (that Duel's issuer is the enemy the fighting unit's ``at`` could aim at)
            other = accept if at == named else named
            return f"{at} fights the Duel: only {other} may attack it"
        if accept is not None:
            if accept not in able:
                return f"{accept} cannot accept: {self._why_not_able(state, combat, issuer, accept)} " \
                       f"({', '.join(able)} may)"
            if nominate is not None:
                return f"the Duel was accepted: nobody is nominated ({field}nominate is for a refusal)"
            return DuelPlan(named, accepter=accept)
        shamable = [c for c in able if is_character(state.unit(c))]  # "note that Champions cannot be nominated"
        if not shamable:
            if nominate is not None:
                return (f"{nominate} cannot be nominated: only a character that could have accepted is, and "
                        f"only Champions could ({', '.join(able)})")
            return DuelPlan(named)  # refused, and nobody to nominate
        nominee = nominate if nominate is not None else (shamable[0] if len(shamable) == 1 else None)
        if nominee is None:
            return (f"the Duel is refused: name the character who could have accepted it ({field}nominate: "
                    f"{' or '.join(shamable)})")
        if nominee not in shamable:
            if nominee in able:
                return f"{nominee} is a Champion: Champions cannot be nominated ({', '.join(shamable)} may be)"
            return f"{nominee} could not have accepted the Duel ({', '.join(able)} could)"
        return DuelPlan(named, refused=nominee)

    @staticmethod
    def _why_not_able(state: GameState, combat: Sequence[str], issuer: str, accept: str) -> str:
        """Say why ``accept`` may not take up a Duel issued from ``issuer``'s unit."""
        if not state.has_unit(accept) or not can_duel(state.unit(accept)) \
                or state.unit(accept).side == state.unit(issuer).side:
            return "it is not a living enemy character, nor an enemy unit with a Champion"
        host = members(state, accept)[0].id
        if host not in combat:
            return f"its unit {host} is not in this combat"
        return f"its unit {host} is not in base contact with {issuer}, the issuer's unit"

    @implements(TO_HIT, "t9a.join.part-of-unit")
    def _reactive_at_problem(self, state: GameState, group: Sequence[Unit], combat: Sequence[str],
                             at: str) -> str | None:
        """Check the reactive player's ``reactive_at``: a character of the active side in this combat (the fighting
        unit's or a friend's fighting with it), and some reactive model in base contact with it, as ``at`` is checked
        for the active side: the reactive side directs its blows the same way (published.t9a-to-hit-melee)."""
        side = group[0].side
        mine = [group[0].id, *(u for u in combat if state.unit(u).side == side)]
        ours = [c.id for uid in mine for c in members(state, uid) if is_character(c)]
        if at not in ours:
            return (f"reactive_at: {at} is not a character of {side} in {group[0].id}'s combat "
                    f"({', '.join(ours) or 'none'}): the reactive side directs its blows only at one")
        target = state.unit(at)
        theirs = [u for u in combat if state.unit(u).side != side]
        if not any(_touching(members(state, u), [target]) for u in theirs):
            return (f"reactive_at: no model of {', '.join(theirs)} is in base contact with {at}: only those may "
                    "attack it")
        return None

    def _at_problem(self, state: GameState, group: Sequence[Unit], foes: Sequence[str], at: str) -> str | None:
        if not state.has_unit(at) or not is_character(state.unit(at)) or state.unit(at).side == group[0].side:
            return f"{at} is not an enemy character"
        target = state.unit(at)
        host = target.joined or target.id
        if host not in foes:
            return f"{at} is not in a unit {group[0].id} fights"
        if not _touching(group, [target]):
            return f"no model of {group[0].id} is in base contact with {at}: only those may attack it"
        return None

    @implements("t9a.join.part-of-unit", "t9a.char.lone", "t9a.combined.last-survivor")
    def resolve_fight(self, state: GameState, action: Fight, dice: Dice) -> Resolution:
        """Fight the combat: strikes by Initiative, then combat resolution, the Break test, flight and pursuit."""
        # what the dice do not decide, kept on the state fought from for every fight from it (an enumeration
        # fights it once per branch): each Initiative step's blows by the state it is struck on, and where a
        # broken unit ends for each flee distance (``flee``'s ``kept``)
        blows_kept: dict[Hashable, list[Blow]] = state.remember(_BLOWS, dict)
        flees: dict[Hashable, Any] = state.remember(_FLEES, dict)
        strikes: dict[Hashable, Any] = state.remember(_STRIKES, dict)
        scores: dict[Hashable, _Scored] = state.remember(_SCORES, dict)
        named = members(state, action.unit)[0].id
        mine = fighting_unit(state, named)  # either name of one combat fights it alike (round 38)
        rest = combat_of(state, mine)  # the whole combat, friends that fight the same foes too
        sides = {mine: state.active}
        for f in rest:
            sides[f] = state.unit(f).side
        friends = [u for u in rest if sides[u] == state.active]
        rules = [TO_HIT, TO_WOUND, *((RESOLUTION,) if friends else ())]
        plan = self.plan_duel(state, members(state, mine), rest, action)
        duel = plan if isinstance(plan, DuelPlan) else None
        events: list[Event] = []
        if duel is not None:
            rules.append(DUEL)
            for issued, by in ((duel, ""), (duel.after, "after the refusal, the reactive player's ")):
                if issued is None:  # (no reactive Duel after the active player's)
                    continue
                # the refusal's shame first: the reactive Duel's issuer, if he was the one nominated, is shamed no more
                state = self._duel_begins(state, issued)
                events.append(Event("duel", (
                    f"the Duel of {issued.issuer} and {issued.accepter} goes on: they fight each other only"
                    if issued.ongoing else f"{by}{issued.issuer} issues a Duel; " + (
                        f"{issued.accepter} accepts: they fight each other only" if issued.accepter else
                        f"it is refused, and {issued.refused} may not attack, counts as Discipline 0 and brings no "
                        "Battle Standard bonus or Rally Around the Flag until its combat ends or it issues or accepts a "
                        "Duel" if issued.refused else
                        "it is refused; only Champions could have accepted, and none is nominated")),
                    (DUEL,), (), (("outcome", "ongoing" if issued.ongoing else "accepted" if issued.accepter
                                   else "refused"),)))
            duel = duel.fought
        elif any(u.has(Status.DUEL_REFUSED) for uid in sides for u in members(state, uid)):
            rules.append(DUEL)  # an earlier refusal's shame still holds
        began = state  # where the units stand before the blows: a friend lost is measured from there
        arms = self._arms(state, sides)
        steps = tuple(sorted({arms[(u.id, m.name)].profile.i if (u.id, m.name) in arms else m.profile.i
                              for uid in sides for u in members(state, uid) for m in u.models}, reverse=True))
        champions = duelling_champions(state, duel.duellists if duel is not None else frozenset())

        def strike(fight: _Fight, dice: Dice) -> _Fight:
            """One Initiative step's blows (``fight.at`` < the steps), or the combat's result after the last."""
            begun = rolls_made(dice)
            if fight.at == PURSUING:
                assert fight.pending is not None  # set with PURSUING
                state, more = self._finish_pursuit(fight.pending, dice, flees)
                return _Fight(state, -1, fight.caused, fight.overkill, fight.rules, (), (), (*fight.events, *more))
            if fight.at == len(steps):
                return self._fight_result(fight, mine, rest, friends, events, dice, flees, scores,
                                          action.break_order or (), action.pursuit or {}, named, began)
            step = steps[fight.at]
            state = fight.state
            at = (state, mine, step, action.at, action.reactive_at, duel)
            blows = blows_kept.get(at)
            if blows is None:
                blows = self._blows(state, sides, step, action.at, duel, action.reactive_at)
                keep_bounded(blows_kept, at, blows, BLOWS_KEPT)
            groups: dict[tuple[str, str, str, int, int, int, int, str], int] = {}
            for b in blows:
                key = (b.side, b.victim, b.only or "", b.model.profile.ws, b.model.profile.s, b.model.profile.i,
                       b.ap, b.weapon)
                groups[key] = groups.get(key, 0) + b.attacks
            caused, overkill = dict(fight.caused), dict(fight.overkill)
            rules, lines = list(fight.rules), list(fight.lines)
            slew = False
            for (side, victim_id, only, ws, s, _, ap, weapon), n in sorted(groups.items()):
                victim = state.unit(victim_id)
                struck = [m for m in victim.models if not only or m.name == only]
                if not struck:
                    continue
                # a duelling Champion is struck by the other duellist's blows only (``only``), never by the others'
                spare = champions.get(victim_id) if not only else None
                hit = Stage(to_hit_melee(ws, struck[0].profile.ws), f"{side}: to hit (WS{ws})", TO_HIT)
                rules.extend(_zero_rules(ws, struck[0].profile.ws, s, struck))
                state, harm = strike_unit(state, victim, n, hit, s, dice, f"{side} (I{step})", TO_WOUND, strikes,
                                          only or None, spare, ap)
                if weapon:
                    rules.extend((CLOSE_COMBAT_WEAPONS, _weapon_rule(weapon)))
                caused[side] += harm.lost
                slew = slew or bool(harm.slain)
                if duel is not None and victim_id in duel.duellists and (only or victim_id not in champions):
                    overkill[side] += harm.unsaved - harm.lost
                if is_character(victim) and not victim.joined:  # a joined one is part of his unit, not lone
                    rules.append("t9a.combined.last-survivor" if victim.last_of else "t9a.char.lone")
                if victim.joined:
                    rules.append("t9a.join.part-of-unit")
                lines.append(f"I{step}: {side} {n} attack{'s' * (n != 1)}"
                             + (f" with {weapon}" if weapon else "")
                             + (f" (S{s}" + (f" AP{ap}" if ap else "") + ")" if weapon or ap else "")
                             + f" at {victim_id}"
                             + (f"'s Champion {only}" if only else "")
                             + f": {harm.hits} hit{'s' * (harm.hits != 1)}, {harm.unsaved} unsaved"
                             + (f" (slain: {', '.join(harm.slain)})" if harm.slain else "")
                             + command_said(harm.spared)
                             + (f" (taken from the end whose fall loses fewest contacts [{REMOVING_CASUALTIES}])"
                                if harm.kept_contact else ""))
                if harm.spared:
                    rules.append(COMMAND_GROUP)
                if harm.kept_contact:
                    rules.append(REMOVING_CASUALTIES)
            if slew:  # casualties fell: units that lost base contact are nudged back
                state, nudges = nudge_back(fight.state, state)
                if nudges:
                    lines.extend(nudges)
                    rules.append(LOSING_CONTACT)
            return _Fight(state, fight.at + 1, tuple(caused.items()), tuple(overkill.items()),
                          tuple(dict.fromkeys(rules)), tuple(lines), (*fight.rolls, *rolls_since(dice, begun)))

        caused = {state.active: 0, state.opponent(state.active): 0}
        view = dice.event_view
        fought = dice.loop(_Fight(state, 0, tuple(caused.items()), tuple(dict.fromkeys(caused, 0).items()),
                                  tuple(rules), (), ()),
                           strike, _Fight.over, lambda f: f.key(view))
        after = duels_left(fought.state)
        # the friends its broken units fled through test once the flee moves are made (its other losses as they came)
        return fled_through_panic(after, began, (mine, *rest), dice, list(fought.events))

    def takes_own_panic_tests(self, action: Action) -> bool:
        """A fight takes its friends' Panic tests as its losses come (``_combat_until_pursuit``), round 49."""
        return action.do == "fight"

    @staticmethod
    @implements(DUEL)
    def _duel_begins(state: GameState, duel: DuelPlan) -> GameState:
        """Put a Duel issued this round into the state: an accepted one goes on until it ends (``GameState.duels``), a
        refused one shames its nominee; a character who issues or accepts a Duel is shamed no more."""
        if duel.ongoing:
            return state
        ended = [state.unit(c) for c in (duel.issuer, duel.accepter) if c and state.unit(c).has(Status.DUEL_REFUSED)]
        state = state.replace_units(*(u.with_status(remove=(Status.DUEL_REFUSED,)) for u in ended))
        if duel.accepter is not None:
            return replace(state, duels=(*state.duels, (duel.issuer, duel.accepter)))
        if duel.refused is None:  # refused where only Champions could have accepted: nobody is nominated
            return state
        return state.replace_unit(state.unit(duel.refused).with_status(Status.DUEL_REFUSED))

    def _fight_result(self, fight: _Fight, mine: str, rest: list[str], friends: list[str], opening: list[Event], dice: Dice, flees: dict[Hashable, Any],
                      scores: dict[Hashable, _Scored], break_order: tuple[str, ...] = (),
                      pursuit: Mapping[str, PursuitChoice] | None = None, named: str | None = None,
                      began: GameState | None = None) -> _Fight:
        """Add the Overkill, tell the blows (one ``fight`` event with their rolls), and resolve the combat: ``rest``,
        the combat's other units, ``friends`` among them fighting beside ``mine`` (``combat_of``); the event names
        the unit the player named (``named``), the others of his side beside it."""
        caused = dict(fight.caused)
        lines = list(fight.lines)
        for side, extra in fight.overkill:
            if extra:
                caused[side] += min(MAX_OVERKILL, extra)
                lines.append(f"Overkill: {side} +{min(MAX_OVERKILL, extra)} to its Combat Score")
        enemies = [u for u in rest if u not in friends]
        rules = fight.rules
        if not lines and any(m.profile.a <= 0 for uid in (mine, *rest) for u in members(fight.state, uid)
                             for m in u.models):
            rules = (*rules, "core.zero.a")  # a model of Attacks 0 makes no close combat attacks
        who = named or mine
        beside = [u for u in (mine, *friends) if u != who]
        told = Event("fight", f"{who} fights {', '.join(enemies)}" + (f" with {', '.join(beside)}" if beside else "")
                     + ": " + ("; ".join(lines) or "no blows are struck (no model in contact has an Attack)"),
                     rules, fight.rolls)
        result = self._combat_until_pursuit(fight.state, mine, rest, caused, dice, flees, scores, break_order,
                                            pursuit, began)
        if isinstance(result, _PendingPursuit):
            return _Fight(result.state, PURSUING, fight.caused, fight.overkill, fight.rules, (), (), (*opening, told),
                          result)
        state, more = result
        return _Fight(state, -1, fight.caused, fight.overkill, fight.rules, (), (), (*opening, told, *more))

    def _blows(self, state: GameState, sides: dict[str, str], step: int, at: str | None,
               duel: DuelPlan | None = None, reactive_at: str | None = None) -> list[Blow]:
        out: list[Blow] = []
        arms = self._arms(state, sides)
        duellists = duel.duellists if duel is not None else frozenset()
        champions = duelling_champions(state, duellists)
        apart = duellists - champions.keys()  # characters set apart: their units' other models fight on
        for uid, side in sides.items():
            group = members(state, uid)
            foes = [f for f, s in sides.items() if s != side]
            in_contact = False
            for u in group:
                if u.has(Status.DUEL_REFUSED):
                    continue  # a character shamed by a refused Duel does not attack (published.t9a-duel)
                for m in u.models:
                    touched = [f for f in foes if _model_touching(m, members(state, f))]
                    if touched:
                        in_contact = True
                    w = arms.get((u.id, m.name))
                    if w is not None:  # its Close Combat Weapon's profile (published.t9a-close-combat-weapons)
                        m = replace(m, profile=w.profile)
                    ap, weapon = attack_ap(w, m), w.weapon.name if w is not None and w.weapon is not None else ""
                    if u.id in apart or champions.get(u.id) == m.name:
                        # duellists count as in base contact and strike only each other
                        other = next(d for d in duellists if d != u.id)
                        if m.profile.i == step and m.profile.a > 0 and duellist_alive(state, other):
                            out.append(Blow(side, m, other, m.profile.a, champions.get(other), ap, weapon))
                        continue
                    if m.profile.i != step or not touched or m.profile.a <= 0:
                        continue
                    aim = at if side == state.active else reactive_at  # each side's own choice
                    victim = self._victim(state, u, m, touched[0], aim, apart)
                    if victim is not None:
                        out.append(Blow(side, m, victim, m.profile.a, None, ap, weapon))
            host = group[0]
            if in_contact and host.formation is not None and host.formation.files >= 1:
                # every model of the second rank supports, a joined character pushed there by Front Rank models
                # too (t9a.char.front-rank); duellists and shamed characters strike as above or not at all
                for u in group:
                    if u.id in apart or u.has(Status.DUEL_REFUSED):
                        continue
                    for m in u.models:
                        w = arms.get((u.id, m.name))
                        if w is not None:
                            m = replace(m, profile=w.profile)
                        ap, weapon = attack_ap(w, m), w.weapon.name if w is not None and w.weapon is not None else ""
                        # the second rank supports; a Spear's Fight in Extra Rank, the third too
                        ranks = (1, 2) if w is not None and w.extra_rank else (1,)
                        if m.profile.i == step and m.profile.a > 0 and m.name in host.formation.order \
                                and host.formation.rank_of(m.name) in ranks and foes \
                                and champions.get(u.id) != m.name \
                                and (u is host or not any(_model_touching(m, members(state, f))
                                                          for f in foes)):
                            aim = at if side == state.active else reactive_at
                            # aimed as if from the first rank, in its file
                            seat = m if aim is None else _in_first_rank(host, m)
                            victim = self._victim(state, u, seat, foes[0], aim, apart)
                            if victim is not None:
                                out.append(Blow(side, m, victim, 1, None, ap, weapon))
        return out

    @implements(CLOSE_COMBAT_WEAPONS)
    def _arms(self, state: GameState, sides: dict[str, str]) -> dict[tuple[str, str], Wielded]:
        """Return each model's Close Combat Weapon profile in this combat's round, by (unit id, model name); models
        with none are left out.  Charging: its unit (or a member) has charged this turn; the First Round: some unit
        of the combat charged this turn (a combat's rounds after the first are fought in later turns); flanked: its
        unit is engaged in a Flank or Rear Facing (``facings``)."""
        carriers = [(uid, u, m) for uid in sides for u in members(state, uid) for m in u.models
                    if m.weapons and close_combat_weapon(m) is not None]
        if not carriers:
            return {}
        hosts = {uid: state.unit(uid) for uid in sides}
        charged = {uid for uid in sides if any(u.has(Status.CHARGED) for u in members(state, uid))}
        first_round = bool(charged)
        faced = facings(state, hosts) if first_round else {}
        flanked = {uid for (uid, _), facing in faced.items() if facing != "front"}
        return {(u.id, m.name): wielded(m, uid in charged, first_round, uid in flanked) for uid, u, m in carriers}

    def _victim(self, state: GameState, unit: Unit, model: Model, foe: str, at: str | None,
                apart: frozenset[str] = frozenset()) -> str | None:
        """Return the unit whose models take a model's attacks: the rank and file unless directed at a character.

        Duellists (``apart``) are attacked by nobody but each other; None when nothing else is left.
        """
        group = [u for u in members(state, foe) if u.id not in apart]
        if at is not None and at not in apart and any(c.id == at for c in group) \
                and _model_touching(model, [state.unit(at)]):
            return at
        if not group:
            return None
        host = group[0]
        if rank_and_file(host) or len(group) == 1:
            return host.id
        return group[1].id

    def _resolve_combat(self, state: GameState, mine: str, foes: list[str], caused: dict[str, int],
                        dice: Dice, flees: dict[Hashable, Any] | None = None,
                        scores: dict[Hashable, _Scored] | None = None,
                        break_order: tuple[str, ...] = (),
                        pursuit: Mapping[str, PursuitChoice] | None = None) -> tuple[GameState, list[Event]]:
        """Score the combat, take the loser's Break test, and flee and pursue (``_combat_until_pursuit``, then
        ``_finish_pursuit``: a fight rolls the pursuits as a step of their own)."""
        result = self._combat_until_pursuit(state, mine, foes, caused, dice, flees, scores, break_order, pursuit)
        if isinstance(result, _PendingPursuit):
            return self._finish_pursuit(result, dice, flees)
        return result

    @implements(PURSUIT)
    def _finish_pursuit(self, pending: _PendingPursuit, dice: Dice, flees: dict[Hashable, Any] | None = None
                        ) -> tuple[GameState, list[Event]]:
        """Roll a combat's pursuits (``_pursue``) and tell its ``break`` event, with the Break tests' and flees'
        rolls before the pursuits'."""
        start = rolls_made(dice)
        rules = list(pending.rules)  # (a pending result is shared by an enumeration's branches: never changed)
        state, said, outcome = self._pursue(pending.state, list(pending.winners), list(pending.held),
                                            list(pending.broke), {uid: (fled, list(touching), way, away)
                                                                  for uid, (fled, touching, way, away)
                                                                  in pending.fled_by},
                                            dict(pending.pursuit), dice, pending.said, rules, flees)
        state, said = self._no_more_foes_end(state, pending.free, dict(pending.pursuit), dice, said, rules, flees)
        if len(pending.broke) == len(pending.losers):  # no enemy left standing in the combat: the winners are free
            # (but for one whose Pursuit Move charged a fresh enemy)
            state = state.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for w in pending.winners
                                          for u in members(state, w) if not u.has(Status.PURSUIT_CHARGED)))
        return state, [Event("break", said, tuple(dict.fromkeys(rules)), (*pending.rolls, *rolls_since(dice, start)),
                             (("outcome", outcome),)), *pending.panics]

    @implements(RESOLUTION, BREAK, PURSUIT, "t9a.combined.last-survivor")
    def _combat_until_pursuit(self, state: GameState, mine: str, foes: list[str], caused: dict[str, int],
                              dice: Dice, flees: dict[Hashable, Any] | None = None,
                              scores: dict[Hashable, _Scored] | None = None,
                              break_order: tuple[str, ...] = (),
                              pursuit: Mapping[str, PursuitChoice] | None = None,
                              began: GameState | None = None
                              ) -> tuple[GameState, list[Event]] | _PendingPursuit:
        """Score the combat, take the loser's Break test, and flee; return the result, or what its pursuits read
        (``_PendingPursuit``) when a unit broke.

        ``break_order``: the losing player's order of the Break tests (published.t9a-break-test: "The order is chosen
        by the losing player"); the units it leaves out test after, in the state's order.  ``pursuit``: each winning
        unit's Restrain Pursuit attempt and chosen broken unit (``_pursue``).

        ``scores``: the combat's score by the state, units and wounds caused it is worked out from (what the dice
        do not decide: an enumeration's branches after the blows share it).

        ``began``: the state before the blows. With it, the friends of a unit the blows destroyed, then of each unit
        that breaks, take their Panic tests at once (published.t9a-panic: "immediately after"), before the Break
        tests and before its flee roll respectively (round 49); their events follow the combat's.
        """
        start = rolls_made(dice)
        panics: list[Event] = []  # the friends' Panic tests (and their flee moves), told after the combat's event
        skipped: list[tuple[int, int]] = []  # where their rolls lie among the combat's
        at = (state, mine, tuple(foes), tuple(caused.items()))
        scored = scores.get(at) if scores is not None else None
        if scored is None:
            scored = _combat_score(state, mine, foes, caused)
            if scores is not None:
                keep_bounded(scores, at, scored, BLOWS_KEPT)
        state, live, hosts, score, notes, fronts, counted, kept_rules, free = scored
        rules = list(kept_rules)
        if began is not None and (gone := [u for u in (mine, *foes) if is_destroyed(state, u)]):
            at_panic = rolls_made(dice)
            state, told = panic_at_once(state, began, gone, "destroyed", dice)
            panics += told
            skipped.append((at_panic, rolls_made(dice)))
        if free:  # no longer Engaged, counting as winning: no Break test, no pursuit (``_no_more_foes``)
            state = state.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for uid in free
                                          for u in members(state, uid)))
            rules.append(BREAK)
        side_a, side_b = state.active, state.opponent(state.active)
        diff = score[side_a] - score[side_b]
        if not live or all(hosts[u].side == side_a for u in live) or all(hosts[u].side == side_b for u in live):
            state = state.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for uid in live
                                          for u in members(state, uid)))
            said = f"the combat ends: one side has no models left ({'; '.join(notes)})"
            asked = [u for u in live if (c := (pursuit or {}).get(u)) is not None and c.overrun]
            state, said = self._overruns(state, asked, dice, said, rules, flees)
            state, said = self._no_more_foes_moves(state, tuple(live), pursuit, said, rules)
            return state, [Event("combat", said, tuple(dict.fromkeys(rules)), _own_rolls(dice, start, skipped)),
                           *panics]
        unmade = _overruns_not_made(state, live, pursuit, free)  # enemies are left: an Overrun named is not made
        if unmade:  # (round 48: told, citing no clause until then)
            rules.append(PURSUIT)
        if diff == 0:
            state, moved = self._no_more_foes_end(state, free, pursuit, dice, "", rules, flees)
            return state, [Event("combat", f"a draw, {score[side_a]} to {score[side_b]} ({'; '.join(notes)}){unmade}"
                                 f"{moved}", tuple(dict.fromkeys(rules)), _own_rolls(dice, start, skipped),
                                 (("outcome", "draw"),)), *panics]
        winner, loser = (side_a, side_b) if diff > 0 else (side_b, side_a)
        losers = [u for u in live if hosts[u].side == loser and u not in free]
        chosen = [u for u in break_order if u in losers]
        if len(chosen) > 1 or (chosen and len(losers) > 1):
            losers = chosen + [u for u in losers if u not in chosen]
            said_order = f"; Break tests in the order {loser}'s player chose: {', '.join(losers)}"
        else:
            said_order = ""
        winners = [u for u in live if hosts[u].side == winner and u not in free]
        said = f"{winner} wins by {abs(diff)} ({score[side_a]} to {score[side_b]}; {'; '.join(notes)}){said_order}"
        broke: list[str] = []  # each losing unit takes its own Break test (published.t9a-break-test)
        #: a broken unit's flee distance, the winners touching it, the way it flees (its pursuers pivot to face it) and
        #: the point it flees away from (the first winner's centre)
        fled_by: dict[str, tuple[int, list[str], tuple[float, float], tuple[float, float]]] = {}
        tested_from = state  # before any unit flees: whose General reached whom
        for uid in losers:
            host = hosts[uid]
            steadfast = full_ranks(host) > max((full_ranks(hosts[w]) for w in winners), default=0)
            disrupted = [e for (t, e), f in fronts.items() if t == uid and f != "front"
                         and full_ranks(hosts[e]) >= DISRUPTING_RANKS]
            if steadfast and disrupted:  # Disrupted Ranks: no Steadfast (published.t9a-flank-rear)
                steadfast = False
                rules.append(FLANK_REAR)
            stubborn = _stubborn(state, uid)
            if stubborn:
                rules.append(STUBBORN)
            ld = self._break_leadership(state, uid)
            if any(u.has(Status.DUEL_REFUSED) for u in members(state, uid)):
                rules.append(DUEL)
            if any(m.name == ld.source for m in generals_near(state, uid)):
                rules.append(GENERAL)
            result, flag = discipline_test(state, uid, dice, ld.value, LeadershipTestKind.BREAK,
                                           0 if steadfast or stubborn else -abs(diff))
            rules += [BREAK, result.rule, *ld.rules, *((BATTLE_STANDARD,) if flag else ())]
            if host.last_of:  # the last survivor is still his unit: he takes its Break test alone
                rules.append("t9a.combined.last-survivor")
            test = (f"{uid} takes a Break test on Ld {ld.value} ({ld.source})"
                    + (" unmodified, Steadfast" if steadfast else f" unmodified, Stubborn ({stubborn})" if stubborn
                       else f" -{abs(diff)}")
                    + (f" (not Steadfast: Disrupted Ranks, {', '.join(disrupted)} in its flank or rear with two "
                       f"Full Ranks or more)" if disrupted and full_ranks(host) > max(
                           (full_ranks(hosts[w]) for w in winners), default=0) else "")
                    + (f" ({flag})" if flag else "") + _broken_general(tested_from, state, uid, broke, ld.value)
                    + f": {result.roll}")
            if _broken_general(tested_from, state, uid, broke, ld.value):
                rules.append(GENERAL)
            if result.passed:
                said += f"; {test}, holds"
                continue
            if len(members(state, uid)) > 1:  # its characters break, flee and die with it
                rules.append("t9a.join.part-of-unit")
            if began is not None:  # its friends test as it breaks, before its flee roll (round 49)
                at_panic = rolls_made(dice)
                state, told = panic_at_once(state, state, [uid], "breaks from combat", dice)
                panics += told
                skipped.append((at_panic, rolls_made(dice)))
            # the winners in base contact with it, before it flees (any winner when none touches it now)
            touching = [w for w in winners if _touching(members(state, w), members(state, uid))] or winners[:1]
            away = unit_centre(state, touching[0])
            way = away_direction(state, uid, away)
            # the flee distance is rolled now; the flee move is made once the pursuits have caught whom they catch
            # ("Each Broken unit that was not caught will now Flee", round 36: ``_pursue``); Fleeing from the moment
            # it fails the test (the 2022 text, Fleeing), so a General in it lends the next tests nothing
            fled = dice.total(2, f"{uid}: flee distance (2D6)", FLEE_RULE)
            state = state.replace_units(*(u.with_status(Status.FLEEING, remove=(Status.ENGAGED,))
                                          for u in members(state, uid)))
            rules.append(FLEE_RULE)
            said += f"; {test}, breaks and flees {fled}\""
            said += f"\x00{len(broke)}\x00"
            broke.append(uid)
            fled_by[uid] = (fled, touching, way, away)
        said += unmade
        if not broke:  # every loser held: no pursuit (``_pursue`` would roll none and change nothing)
            state, said = self._no_more_foes_end(state, free, pursuit, dice, said, rules, flees)
            return state, [Event("combat", said, tuple(dict.fromkeys(rules)), _own_rolls(dice, start, skipped),
                                 (("outcome", "held"),)), *panics]
        return _PendingPursuit(state, tuple(winners), tuple(u for u in losers if u not in broke), tuple(broke),
                               tuple((uid, (fled, tuple(touching), way, away))
                                     for uid, (fled, touching, way, away) in fled_by.items()),
                               tuple(sorted((pursuit or {}).items())), said, tuple(rules), tuple(losers),
                               _own_rolls(dice, start, skipped), free, tuple(panics))

    @implements(PURSUIT, GENERAL, BATTLE_STANDARD, SHAKEN_RULE, "t9a.combined.last-survivor")
    def _pursue(self, state: GameState, winners: list[str], held: list[str], broke: list[str],
                fled_by: dict[str, tuple[int, list[str], tuple[float, float], tuple[float, float]]],
                pursuit: Mapping[str, PursuitChoice],
                dice: Dice, said: str, rules: list[str], kept: dict[Hashable, Any] | None = None
                ) -> tuple[GameState, str, str]:
        """Roll the pursuits once every Break test is taken (2022 text, Pursuits and Overruns: "each unit that is in
        base contact with the Broken unit(s) may declare a Pursuit of a single Broken unit"; "Units can elect not to
        Pursue, but must then pass a Discipline Test ... if the test is failed, the unit must Pursue anyway").

        Each winner touching a broken unit, Engaged with no loser that held and not Shaken (published.t9a-shaken: "A
        Shaken model cannot ... pursue") pursues one broken unit it touches: its
        player's choice (``pursuit``), by default the first that broke that no winner before it pursues, else the first
        that broke; one that asked to Restrain Pursuit takes the test first, on its Discipline (its General's within
        12", its Battle Standard's re-roll) and stays on a pass.  A broken unit is caught when any of its pursuers' 2D6
        reaches its flee distance.  Then each pursuer makes its Pursuit Move (``_pursuit_move``: it pivots to face the
        way the unit fled and moves its roll straight forward), the pursuers of the first broken unit first, each in
        the winners' order.  ``said`` holds a mark per broken unit (``\x00i\x00``), replaced here; the rules cited
        are added to ``rules``; ``kept``: the fight's store (``flee``'s), where each pursuer's reach is kept by the
        state it pursues from.  Return the state, the told text and the combat's outcome (the first unit that broke:
        fled or destroyed)."""
        chasers: dict[str, list[str]] = {b: [] for b in broke}
        why_not: dict[str, list[str]] = {b: [] for b in broke}
        reforms: list[tuple[str, PursuitChoice]] = []  # the Post-Combat Pivots or Reforms after passed Restrain tests
        for w in winners:
            reach = [b for b in broke if w in fled_by[b][1]]
            if not reach:
                continue  # no broken enemy in its contact (wiped out, or held): no pursuit, no Restrain test
            rules.append(PURSUIT)
            engaged = next((h for h in held if _touching(members(state, w), members(state, h))), None)
            if engaged is not None:
                for b in reach:
                    why_not[b].append(f"{w} is still engaged with {engaged}")
                continue
            if _shaken(state, w):  # no pursuit, and so no Restrain test either
                rules.append(SHAKEN_RULE)
                said += f"; {w} is Shaken and may not pursue"
                for b in reach:
                    why_not[b].append(f"{w} is Shaken")
                continue
            choice = pursuit.get(w)
            target = choice.pursue if choice is not None and choice.pursue in reach else None
            if target is None:
                target = next((b for b in reach if not chasers[b]), reach[0])
                if choice is not None and choice.pursue is not None:
                    said += f"; {w} cannot pursue {choice.pursue}, which did not break in its contact: it pursues {target}"
            if choice is not None and choice.restrain:
                ld = self._break_leadership(state, w)
                result, flag = discipline_test(state, w, dice, ld.value, LeadershipTestKind.RESTRAIN_PURSUIT)
                rules += [result.rule, *ld.rules, *((BATTLE_STANDARD,) if flag else ())]
                if any(m.name == ld.source for m in generals_near(state, w)):
                    rules.append(GENERAL)
                test = (f"{w} {'passes' if result.passed else 'fails'} its Restrain Pursuit test on Ld {ld.value} "
                        f"({ld.source})" + (f" ({flag})" if flag else "") + f": {result.roll}")
                if result.passed:
                    said += f"; {test}, and does not pursue"
                    for b in reach:
                        why_not[b].append(f"{w} restrained its pursuit")
                    if choice.facing is not None or choice.files is not None:
                        reforms.append((w, choice))
                    continue
                said += f"; {test}, and pursues {target} anyway"
            chasers[target].append(w)
            for b in reach:
                if b != target:
                    why_not[b].append(f"{w} pursues {target}")
        outcome = "held"
        moves: list[tuple[str, tuple[float, float], int]] = []  # each pursuer's way and roll, moved after the flees
        escaped: list[str] = []
        for i, uid in enumerate(broke):  # the pursuits rolled and the catches made, broken unit by broken unit
            fled, _, way, _ = fled_by[uid]
            mark = f"\x00{i}\x00"
            if not chasers[uid]:
                said = said.replace(mark, f"\x01{i}\x01 (no pursuit: {', '.join(why_not[uid])})")
                rules.append(PURSUIT)
                done = "fled"
                escaped.append(uid)
            else:
                # each pursuit is compared with the flee and is the distance the pursuer moves: an enumeration
                # branches on every total, each a different place (no splits: one class per total)
                rolled = [(w, dice.total(2, f"{w}: pursuit (2D6)", PURSUIT)) for w in chasers[uid]]
                rules.append(PURSUIT)
                told = (" and ".join(f"{w} {chase}\"" for w, chase in rolled))
                if any(chase >= fled for _, chase in rolled):
                    # caught: destroyed before any flee move is made (2022 text: "the Fleeing unit is immediately
                    # destroyed"; "Each Broken unit that was not caught will now Flee"), so it never flees off the
                    # table nor stands in another's way (round 36)
                    group = members(state, uid)
                    # the last survivor is the unit (t9a.combined.last-survivor), not a character destroyed with it
                    last = [u.id for u in group if u.last_of == uid]
                    chars = [u.id for u in group if u.id != uid and u.alive and u.last_of != uid]
                    # published.t9a-pursuit: the characters in it are destroyed with it (t9a.join.part-of-unit);
                    # the same state for every roll that catches it (kept in the fight's store with the reaches)
                    caught_key = ("caught", state, uid)
                    caught = kept.get(caught_key) if kept is not None else None
                    if caught is None:
                        caught = remove_casualties(state, uid, [m.name for u in group for m in u.models])
                        for u in members(caught, uid):
                            caught = caught.replace_unit(u.with_status(remove=(Status.FLEEING,)))
                        if kept is not None:
                            kept[caught_key] = caught
                    state = caught
                    whose = (f" ({last[0]}, its last survivor)" if last else "") + (
                        f" ({', '.join(chars)} with it)" if chars else "")
                    if last:
                        rules.append("t9a.combined.last-survivor")
                    said = said.replace(mark, (f", caught by a pursuit of {rolled[0][1]}\"" if len(rolled) == 1 else
                                               f", pursued by {told}: caught") + " and destroyed" + whose)
                    done = "destroyed"
                else:
                    said = said.replace(mark, f"\x01{i}\x01" + (f" (pursuit {rolled[0][1]}\")" if len(rolled) == 1
                                                                  else f" (pursued by {told}: escapes)"))
                    done = "fled"
                    escaped.append(uid)
                moves += [(w, way, chase) for w, chase in rolled]
            if i == 0:
                outcome = done
        for uid in escaped:  # the flee moves of the units not caught, in the order they broke (published.t9a-flee)
            fled, _, _, away = fled_by[uid]
            fled_from = state
            state = fled_to(state, uid, away, fled, kept)
            gone = ""
            if not current(state, uid).alive:  # round 35: told, its characters named, as every flee off the table
                gone, cited = off_table(fled_from, uid)
                rules += cited
                if uid == broke[0]:
                    outcome = "destroyed"  # as a Panic or Rally test's flee off the table, or a Flee reaction's
            said = said.replace(f"\x01{broke.index(uid)}\x01", gone)
        for w, way, chase in moves:  # the Pursuit Moves, once the flees are made
            state, moved, cited = _pursuit_move(state, w, way, chase, kept)
            said += f"; {moved}"
            rules += cited
        for w, choice in reforms:  # once every pursuer has moved: judged where the units then stand
            state, made = self._post_combat_reform(state, w, choice)
            said += f"; {made}"
            rules.append("published.t9a-reform")
        return state, said, outcome

    @implements(PURSUIT, SHAKEN_RULE)
    def _overruns(self, state: GameState, asked: Sequence[str], dice: Dice, said: str, rules: list[str],
                  kept: dict[Hashable, Any] | None = None) -> tuple[GameState, str]:
        """Make the Overruns of the units that asked for one (the fight's ``pursuit``: ``overrun: true``) once every
        enemy of the combat is wiped out, or every enemy in their own base contact (No More Foes,
        ``_no_more_foes_end``; 2022 text, Pursuits and Overruns: "A unit that fought its First Round of Combat after
        Charging can choose to make a special Pursuit Move called Overrun if all enemy units in base
        contact were wiped out ... Overruns follow the rules for Pursuits, except that step 1. Pivot is ignored (i.e.
        Overruns are straight forward) and that no Restrain Pursuit Test is required"): each rolls its Pursuit
        Distance, 2D6, and moves it straight forward as a Pursuit Move does (``_pursuit_move``, no pivot); a Shaken
        unit does not (published.t9a-shaken).  ``rule_fight`` has refused the ask of a unit that did not charge."""
        for uid in asked:
            rules.append(PURSUIT)
            if not state.unit(uid).has(Status.CHARGED):  # (refused when the fight was ruled on; a state changed since)
                said += f"; {uid} did not charge this turn and makes no Overrun"
                continue
            if _shaken(state, uid):
                rules.append(SHAKEN_RULE)
                said += f"; {uid} is Shaken and may not Overrun"
                continue
            rolled = dice.total(2, f"{uid}: Overrun (2D6)", PURSUIT)
            # no way to pivot to: the unit moves straight forward as it faces (``_pursuit_move``)
            state, moved, cited = _pursuit_move(state, uid, (0.0, 0.0), rolled, kept, overrun=True)
            said += f"; {moved}"
            rules += cited
        return state, said

    @implements(PURSUIT, BREAK)
    def _no_more_foes_end(self, state: GameState, free: Sequence[str], pursuit: Mapping[str, PursuitChoice] | None,
                          dice: Dice, said: str, rules: list[str], kept: dict[Hashable, Any] | None = None
                          ) -> tuple[GameState, str]:
        """Make the moves of the units with No More Foes (``free``) at the end of a combat that goes on: the Overrun
        each that charged named (2022 text, No More Foes: they "can either make an Overrun (if they were Charging), a
        Post-Combat Pivot, or a Post-Combat Reform"; an Overrun "if all enemy units in base contact were wiped out"),
        rolled after every Break test, flee and pursuit roll and made after every flee and Pursuit Move, as the last
        Pursuit Moves (``_overruns``); then the Post-Combat Pivots and Reforms (``_no_more_foes_moves``).  Round 48:
        until then the Overrun was not made (said)."""
        if free and pursuit:
            asked = [now for uid, choice in pursuit.items()
                     if choice.overrun and (now := current(state, uid).id) in free]
            if asked:
                state, said = self._overruns(state, asked, dice, said, rules, kept)
        return self._no_more_foes_moves(state, free, pursuit, said, rules)

    @implements(PURSUIT, "published.t9a-reform")
    def _post_combat_reform(self, state: GameState, unit_id: str, choice: PursuitChoice) -> tuple[GameState, str]:
        """Make the Post-Combat Pivot or Reform a unit that passed its Restrain Pursuit test named (the 2022 text: "If
        the test is passed, the unit may do either a Post-Combat Pivot or a Post-Combat Reform"): a Reform about its
        centre, judged as a reform is (``reform_problem``: ranks and files, a place on a model or in Impassable
        Terrain, Unit Spacing) where the units stand once the pursuers have moved; refused there, it is not made and
        the unit stays as it stood (said)."""
        host = members(state, unit_id)[0]
        kind = _reform_kind(choice)
        facing = None if choice.facing is None else float(choice.facing)
        if problem := self.reform_problem(state, host, facing, choice.files):
            return state, f"{host.id} makes no Post-Combat {kind}: {problem.reason}"
        state, shape = self.reformed(state, host, facing, choice.files)
        return state, f"{host.id} makes a Post-Combat {kind}: {shape}"

    @implements(PURSUIT, BREAK, "published.t9a-reform")
    def _no_more_foes_moves(self, state: GameState, free: Sequence[str], pursuit: Mapping[str, PursuitChoice] | None,
                            said: str, rules: list[str]) -> tuple[GameState, str]:
        """Make the Post-Combat Pivot or Reform (``facing``, ``files``) each unit with No More Foes named (2022 text,
        No More Foes: such units "can either make an Overrun (if they were Charging), a Post-Combat Pivot, or a
        Post-Combat Reform"; no Restrain Pursuit test asked), as a passed test's is made (``_post_combat_reform``);
        ``free``: the units that touch no enemy once the blows are struck (``_no_more_foes``, or every survivor of a
        combat whose one side is wiped out).  A unit that named one without ``restrain`` and is not free makes none,
        said.  Round 46: until then no unit with No More Foes moved."""
        for uid, choice in (pursuit or {}).items():
            if choice.facing is None and choice.files is None:
                continue
            now = current(state, uid).id
            if now in free:
                rules += [PURSUIT, "published.t9a-reform", *(("t9a.join.part-of-unit",) * bool(state.joined_to(now)))]
                state, made = self._post_combat_reform(state, now, choice)
                said += f"; {made} (No More Foes)"
            elif not choice.restrain:
                rules.append(PURSUIT)
                said += (f"; {now} makes no Post-Combat {_reform_kind(choice)}: it has not destroyed every enemy in "
                         "its base contact (No More Foes), and named no Restrain Pursuit test")
        return state, said

    @implements(DUEL, GENERAL)
    def _break_leadership(self, state: GameState, uid: str) -> LeadershipRuling:
        """Return the Leadership a unit breaks on: its highest, or the General's within 12"; a character who
        refused a Duel counts as Leadership 0."""
        sources = [LeadershipSource(m.name, 0 if u.has(Status.DUEL_REFUSED) else m.profile.ld, u.is_character)
                   for u in state.combined(members(state, uid)[0].id) for m in u.models]
        general = [LeadershipSource(m.name, m.profile.ld, True) for m in generals_near(state, uid)]
        return self.with_lent(state, uid, self.unit_leadership([*sources, *general]))

    @implements(DUEL)
    def end_turn(self, state: GameState) -> Resolution:
        """End the player turn: Duels that are over are dropped, and a refused Duel's shame ends where no enemy that
        could accept a Duel is left in contact (published.t9a-duel); a unit that charged with its Pursuit Move counts
        as Charging through the next player turn (``pursuit_charges_on``)."""
        state, events = super().end_turn(shame_ends(duels_left(state)))
        return pursuit_charges_on(state), events

    @implements(DUEL)
    def validate_state(self, state: GameState, source: str) -> None:
        """Refuse a Duel in the file that is no Duel: two living characters of opposite sides in one combat."""
        super().validate_state(state, source)
        for i, pair in enumerate(state.duels):
            where = f"duels[{i}]"
            for name in pair:
                if not duellist_alive(state, name):
                    raise ScenarioError(source, where, f"{name!r} is not a living character nor a unit with a "
                                        f"Champion: only characters and Champions fight a Duel [{DUEL}]")
            a, b = (state.unit(n) for n in pair)
            if a.side == b.side:
                raise ScenarioError(source, where, f"{a.id} and {b.id} are on one side: a Duel is fought by enemies "
                                    f"[{DUEL}]")
            if members(state, b.id)[0].id not in combat_of(state, members(state, a.id)[0].id):
                raise ScenarioError(source, where, f"{a.id} and {b.id} are not in one combat (their units are not "
                                    f"connected through base contact) [{DUEL}]")
            if any(n in other for other in state.duels[:i] for n in pair):
                raise ScenarioError(source, where, f"{a.id} or {b.id} already fights a Duel (a duellist fights one) "
                                    f"[{DUEL}]")

    def end_melee_phase(self, state: GameState) -> GameState:
        """Clear who has fought when a Melee phase ends."""
        if state.phase is not Phase.MELEE:
            return state
        return state.replace_units(*(u.with_status(remove=(Status.FOUGHT,)) for u in state.units))


@implements(PURSUIT)
def pursuit_charges_on(state: GameState) -> GameState:
    """Carry a Pursuit Move's charge into the next player turn, whose Melee phase fights its combat (published.t9a-
    pursuit): a unit that charged so this turn is Charging (CHARGED, PURSUIT_CHARGING) through the next, whichever side
    is then active; one that was Charging so this turn no longer is."""
    changed = [u.with_status(Status.CHARGED, Status.PURSUIT_CHARGING, remove=(Status.PURSUIT_CHARGED,))
               if u.has(Status.PURSUIT_CHARGED) else u.with_status(remove=(Status.CHARGED, Status.PURSUIT_CHARGING))
               for u in state.units if u.has(Status.PURSUIT_CHARGED) or u.has(Status.PURSUIT_CHARGING)]
    return state.replace_units(*changed) if changed else state


@implements(FLANK_REAR)
def facings(state: GameState, hosts: dict[str, Unit]) -> dict[tuple[str, str], str]:
    """Return the Facing of each unit of a combat that each enemy unit in base contact with it fights, keyed by
    (unit, enemy): ``front``, ``left``, ``right`` or ``rear`` (published.t9a-flank-rear).

    The Facing is the Arc of the unit (``Formation.arc_of``; a lone model's, its base's) in which most of the enemy
    unit's models in base contact with it (or with a character in it) stand, centre by centre; on a tie the front
    before a flank before the rear.  A pair whose enemy models all stand in the unit's Front Arc is left out without
    measuring a base (it can only fight the front, which gives nothing).
    """
    out: dict[tuple[str, str], str] = {}
    for tid, target in hosts.items():
        f = formation_of(target)
        if f is None:
            continue
        mine = [m.placed for u in members(state, tid) for m in u.models]
        for eid, enemy in hosts.items():
            if enemy.side == target.side:
                continue
            arcs = [(m, f.arc_of(m.at)) for u in members(state, eid) for m in u.models]
            if all(arc == "front" for _, arc in arcs):
                continue  # the common front-to-front combat: no Flank or Rear, no base to measure
            votes = dict.fromkeys(("front", "left", "right", "rear"), 0)
            for m, arc in arcs:
                if any(in_base_contact(m.placed, p) for p in mine):
                    votes[arc] += 1
            most = max(votes.values())
            if most:
                out[(tid, eid)] = next(k for k, v in votes.items() if v == most)
    return out


@implements(RESOLUTION, FLANK_REAR, BATTLE_STANDARD)
def _static_bonuses(state: GameState, hosts: dict[str, Unit],
                    fronts: dict[tuple[str, str], str] | None = None) -> dict[str, dict[str, int]]:
    """Return each unit's share of its side's Combat Score bonuses (published.t9a-combat-resolution).

    A side counts the Rank Bonus of one unit only, its highest (the first in the combat on a tie), and +1
    for Charging once, however many of its units charged (given to the first that did); each Standard
    Bearer, a joined character's too, counts +1, and its Battle Standard Bearer in the combat +1
    (published.t9a-battle-standard).  Each Flank Facing of an enemy unit its units fight counts +1, each Rear
    Facing +2, once however many of its units fight there (given to the first the combat names;
    published.t9a-flank-rear).
    """
    fronts = facings(state, hosts) if fronts is None else fronts
    flanking: dict[str, dict[str, int]] = {uid: {"flank": 0, "rear": 0} for uid in hosts}
    taken: set[tuple[str, str]] = set()
    for (tid, eid), facing in fronts.items():
        if facing in FACING_BONUS and (tid, facing) not in taken:
            taken.add((tid, facing))
            flanking[eid]["rear" if facing == "rear" else "flank"] += FACING_BONUS[facing]
    best: dict[str, str] = {}
    charger: dict[str, str] = {}
    for uid, host in hosts.items():
        if host.side not in best or rank_bonus(host) > rank_bonus(hosts[best[host.side]]):
            best[host.side] = uid
        if host.side not in charger and any(u.has(Status.CHARGED) for u in members(state, uid)):
            charger[host.side] = uid
    return {uid: {"ranks": rank_bonus(host) if best[host.side] == uid else 0,
                  "standard": sum(1 for u in members(state, uid) for m in u.models if m.role == "standard"),
                  "charge": 1 if charger.get(host.side) == uid else 0,
                  **flanking[uid],
                  "battle standard": sum(1 for u in members(state, uid) if BSB_RULE in u.rules and u.alive
                                         and not u.has(Status.DUEL_REFUSED))}  # a shamed bearer: none (published.t9a-duel)
            for uid, host in hosts.items()}


def _uncounted(state: GameState, hosts: dict[str, Unit], counted: dict[str, dict[str, int]]) -> list[str]:
    """Say which units' ranks or charge their side did not count again (one Rank Bonus, one +1 for Charging)."""
    out: list[str] = []
    for uid, host in hosts.items():
        ranks = rank_bonus(host)
        if ranks and not counted[uid]["ranks"]:
            out.append(f"the ranks of {uid} (+{ranks}) not counted: one unit's Rank Bonus a side")
        if not counted[uid]["charge"] and any(u.has(Status.CHARGED) for u in members(state, uid)):
            out.append(f"the charge of {uid} not counted again: +1 a side")
    return out


def _own_rolls(dice: Dice, start: int, skipped: Sequence[tuple[int, int]]) -> tuple[Any, ...]:
    """The rolls since ``start`` but those ``skipped`` (from, to): the friends' Panic tests' taken among them, which
    their own events tell."""
    rolls = rolls_since(dice, start)
    if not skipped:
        return rolls
    kept: list[Any] = []
    at = start
    for first, end in skipped:
        kept += rolls[at - start:first - start]
        at = end
    return (*kept, *rolls[at - start:])




@implements(TO_HIT, "t9a.join.part-of-unit")
def _in_first_rank(host: Unit, model: Model) -> Model:
    """Return a supporting model standing in its file's first-rank slot: the 2022 text (Allocating Attacks) lets it
    "allocate its attacks as if it was in the first rank of the unit (in the same file)", so it may strike a
    character the model in front of it touches (round 52; until then its attack always went to the rank and file)."""
    formation = host.formation
    assert formation is not None  # a supporting model stands in a rank of its unit's formation
    front = formation.slot_point(formation.order.index(model.name) % formation.files)
    return replace(model, at=front)


@implements(GENERAL, BREAK)
def _broken_general(before: GameState, state: GameState, uid: str, broke: Sequence[str], ld: int) -> str:
    """Say why a losing unit's Break test is not on its General's higher Discipline when his unit broke before it in
    this combat ("" otherwise): the 2022 text, Fleeing, makes a unit Fleeing "from the moment it fails a Break Test",
    and "Models cannot receive Commanding Presence ... from a Fleeing model" (published.t9a-general, round 32)."""
    for m in generals_near(before, uid):
        owner = next(u for u in before.units if m in u.models)
        host = owner.joined or owner.id
        if host in broke and m.profile.ld > ld:
            return (f" (not {m.name}'s Ld {m.profile.ld}: the General broke with {host}, and a Fleeing model lends no "
                    "Discipline)")
    return ""


#: The longest Pursuit Move (the most 2D6 make): how far a pursuer's way is looked at, once for every roll.
MOST_PURSUIT = 12
#: A Pursuit Move's way is tried at places this far apart, then the first stop found is narrowed to within ...
PURSUIT_STEP = 0.5
#: ... this much (a power of two: the places stay exact in binary, so equal rolls give equal states).
PURSUIT_PRECISION = 1 / 64
#: Where the fight's store (``flee``'s ``kept``) keeps each pursuer's reach, by the state it pursues from.
_REACHES = "t9a pursuit reaches"


@implements(PURSUIT, SPACING_RULE, "published.t9a-move")
def _pursuit_move(state: GameState, pursuer: str, way: tuple[float, float], rolled: int,
                  kept: dict[Hashable, Any] | None = None, overrun: bool = False
                  ) -> tuple[GameState, str, tuple[str, ...]]:
    """Make a pursuer's Pursuit Move (the 2022 text, Move Broken Units: "Pivot the unit so that it is facing the same
    direction as the Broken unit is Pursuing, and then move the unit straight forward a distance equal to the
    previously rolled Pursue Distance"), caught or not; return the state, the words and the rules cited beyond this
    clause (what stopped it short: published.t9a-unit-spacing, or published.t9a-move's table edge and places).

    The unit (its characters with it) pivots about its centre to face ``way``, the way its broken enemy fled (the
    one it would have fled, when caught), ignoring Unit Spacing; then moves straight forward its roll, stopping
    short where going on would take a model off the table, onto a model or into Impassable Terrain, or within 1" of
    another unit (friend, enemy or the fled unit), unless a fresh enemy it reaches stops it: it charges that one
    (``_fresh_enemy_charge``: straight into base contact, both Engaged, the pursuer PURSUIT_CHARGED); a unit
    already within 1" of it once pivoted (a friend that fought beside it) stops it only where a model would stand on
    it.  A pivot that would put a model on another unit's model, off the table or into
    Impassable Terrain is not made: the pursuer stays where it stood.  No longer in base contact with an enemy, it
    is no longer Engaged.  ``overrun``: an Overrun (``way`` (0, 0): no pivot), said so.
    """
    host = members(state, pursuer)[0]
    f = formation_of(host)
    facing = (f.facing if f is not None else host.models[0].facing) % 360.0
    if way != (0.0, 0.0):  # (a flee with no direction leaves the pursuer facing as it stood)
        facing = math.degrees(math.atan2(-way[0], way[1])) % 360.0 + 0.0
    t = math.radians(facing)
    forward = (-math.sin(t), math.cos(t))
    # an enumeration makes this move once per roll from hundreds of states that differ only in what lies far from
    # the pursuer's way (the loser's casualties, where it fled): the pivot, the reach and each move are kept in the
    # fight's store by the pursuing group's values and what stands near its way, not by the whole state
    store: dict[Hashable, Any] = kept.setdefault(_REACHES, {}) if kept is not None else {}
    group = (host, *[u for u in state.units if u.joined == host.id])  # what a pivot or a move changes (``arrange``)
    pivot_key = ("pivot", group, facing)
    turned = store.get(pivot_key, _UNSEEN)
    if turned is _UNSEEN:
        pivoted = _pivoted(state, host, facing)
        turned = None if pivoted is state else tuple(pivoted.unit(u.id) for u in group)
        keep_bounded(store, pivot_key, turned, BLOWS_KEPT)
    else:
        pivoted = state if turned is None else state.replace_units(*turned)
    standing = group if turned is None else turned
    near = _near_way(pivoted, standing, forward)
    at = ("reach", standing, forward, turned is None, near, state.table, state.terrain)
    found = store.get(at)
    if found is None:
        found = keep_bounded(store, at, _pursuit_reach(state, pivoted, host.id, forward), BLOWS_KEPT)
    reach = found.far
    if reach < 0:
        why, rule = found.why()
        return state, f"{host.id} cannot pivot to pursue ({why}): it stays where it stood", (rule,)
    went_as = f"{host.id} overruns" if overrun else \
        f"{host.id} pivots to face {round(facing, 1):g} degrees and pursues"
    charge = None
    if rolled > reach:  # stopped short: by a fresh enemy its roll reaches, which it charges instead
        charge_key = ("charge", standing, forward, near, state.table, state.terrain)
        charge = store.get(charge_key, _UNSEEN)
        if charge is _UNSEEN:
            charge = keep_bounded(store, charge_key, _fresh_enemy_charge(state, pivoted, host.id, forward, near),
                                  BLOWS_KEPT)
    if charge is not None and rolled + EPSILON >= charge[0]:
        went, target = charge
        moved = _moved(store, pivoted, group, standing, forward, went)
        moved = moved.replace_units(
            *(u.with_status(Status.ENGAGED, Status.PURSUIT_CHARGED) for u in members(moved, host.id)),
            *(u.with_status(Status.ENGAGED) for u in members(moved, target)))
        moved, align = aligned(moved, host.id, target, pivoted)
        return moved, (f"{went_as} {rolled}\" straight forward, and {went:.2f}\" on {host.id} charges {target}, "
                       f"which makes no Charge Reaction; their combat is fought in the next Melee phase, {host.id} "
                       f"Charging{align}"), ((CHARGE_ARC,) if align else ())
    went = min(float(rolled), reach)
    moved = _moved(store, pivoted, group, standing, forward, went)
    if not _may_touch_enemy(moved, host.id) or not engaged_with(moved, host.id):
        moved = moved.replace_units(*(u.with_status(remove=(Status.ENGAGED,)) for u in members(moved, host.id)))
    said = f"{went_as} {rolled}\" straight forward"
    if went < rolled:
        why, rule = found.why()
        said = f"{went_as} {went:.2f}\" of its {rolled}\" straight forward: further {why}"
        return moved, said, (rule,)
    return moved, said, ()


_UNSEEN: Any = object()


def _moved(store: dict[Hashable, Any], pivoted: GameState, group: Sequence[Unit], standing: Sequence[Unit],
           forward: tuple[float, float], went: float) -> GameState:
    """Return the state with a pivoted pursuer moved ``went`` straight forward, its units kept in the fight's store by
    where they stood and the move (an enumeration makes the same move from many states)."""
    move_key = ("move", tuple(standing), forward, went)
    shifted = store.get(move_key)
    if shifted is None:
        host = group[0]
        moved = shift_unit(pivoted, pivoted.unit(host.id), forward[0] * went, forward[1] * went)
        keep_bounded(store, move_key, tuple(moved.unit(u.id) for u in group), BLOWS_KEPT)
        return moved
    return pivoted.replace_units(*shifted)


#: The grid a pursuer charging a fresh enemy is placed on, short of touching: finer than base contact's tolerance.
_CONTACT_GRID = 1 / 1024


@implements(PURSUIT)
def _fresh_enemy_charge(state: GameState, pivoted: GameState, host_id: str, forward: tuple[float, float],
                        near: Sequence[Unit]) -> tuple[float, str] | None:
    """Return how far a pivoted pursuer goes straight forward into base contact with the first fresh enemy its way
    meets, and that enemy, or None (2022 text, Pursue Moves: "If the Front Facing of the Pursuing unit would be in
    contact with the Unit Boundary of an enemy unit that did not Flee from the same Combat, it declares a Charge
    against that unit, which can not perform any Charge Reactions").

    A fresh enemy is an enemy unit neither Fleeing nor Engaged in Combat (published.t9a-pursuit's decision: one
    engaged elsewhere stops the pursuer 1" short, as before); the contact is made only if nothing else (the table
    edge, another unit's 1", a model, Impassable Terrain: ``_pursuit_reach`` without that enemy) stops the pursuer
    first.  Straight in, as the project's charges go, without an Align move (published.t9a-charge-arc)."""
    side = pivoted.unit(host_id).side
    movers = [m.placed for m, stepping in _moving_models(pivoted, host_id) if stepping]
    best: tuple[float, str] | None = None
    for hid in dict.fromkeys(members(pivoted, u.id)[0].id for u in near if u.side != side and u.alive):
        group = members(pivoted, hid)
        if any(u.has(Status.FLEEING) or u.has(Status.ENGAGED) for u in group):
            continue
        theirs = [(m.placed, 0.0) for u in group for m in u.models]
        meet, met = group_first_contact(movers, forward, theirs, MOST_PURSUIT + 1.0)
        if met >= 0 and (best is None or meet < best[0]):
            best = (meet, hid)
    if best is None:
        return None
    meet, hid = best
    clear = _pursuit_reach(state, pivoted, host_id, forward,
                           ignore=frozenset(u.id for u in members(pivoted, hid))).far
    if clear < MOST_PURSUIT and clear + PURSUIT_PRECISION <= meet:
        return None  # something else stops it before it touches the enemy: it stops 1" short, as any Pursuit Move
    return math.floor(meet / _CONTACT_GRID) * _CONTACT_GRID, hid


def _shaken(state: GameState, unit_id: str) -> bool:
    """Say whether any model of a combined unit is Shaken, which bars its pursuit and Overrun (published.t9a-shaken)."""
    return any(u.has(Status.SHAKEN) for u in members(state, unit_id))


def _near_way(state: GameState, group: Sequence[Unit], forward: tuple[float, float]) -> tuple[Unit, ...]:
    """Return the units a pursuer's way may meet (``_pursuit_reach``'s edges, models and 1" gaps): every other unit
    standing within 2" of the box its models sweep over the longest roll, in the state's order."""
    own = {u.id for u in group}
    low_x, low_y, high_x, high_y = group_extent([m.placed for u in group for m in u.models])
    dx, dy = forward[0] * MOST_PURSUIT, forward[1] * MOST_PURSUIT
    swept = (min(low_x, low_x + dx), min(low_y, low_y + dy), max(high_x, high_x + dx), max(high_y, high_y + dy))
    return tuple(u for u in state.units if u.id not in own and u.models
                 and box_gap(swept, u.extent) <= UNIT_SPACING + 1.0)


def _may_touch_enemy(state: GameState, host_id: str) -> bool:
    """Say whether any enemy's box comes near enough a combined unit's box for base contact (False: it touches no
    enemy, so ``engaged_with`` need not measure)."""
    group = members(state, host_id)
    box = group_extent([m.placed for u in group for m in u.models])
    side = group[0].side
    return any(box_gap(box, e.extent) <= 0.05 for e in state.enemies_of(side))


def _reform_kind(choice: PursuitChoice) -> str:
    """Name what a passed Restrain Pursuit test's ``facing`` and ``files`` make: a Pivot (a facing alone) or a
    Reform (published.t9a-pursuit)."""
    return "Pivot" if choice.files is None else "Reform"


def _pivoted(state: GameState, host: Unit, facing: float) -> GameState:
    """Return the state with a combined unit pivoted about its centre to a facing (its ranks and files kept)."""
    f = formation_of(host)
    if f is not None and abs((f.facing - facing + 180.0) % 360.0 - 180.0) < 1e-9:
        return state  # already facing so: not turned, so not moved by a rounding
    if host.formation is not None:
        turned = host.formation.rotated(facing, host.formation.files)
        return arrange(state.replace_unit(replace(host, formation=turned)), host.id)
    return state.replace_unit(replace(host, models=tuple(replace(m, facing=facing) for m in host.models)))


def _moving_models(pivoted: GameState, host_id: str) -> list[tuple[Model, bool]]:
    """Return a combined unit's models, each with whether ``shift_unit`` moves it: a formation's slots (its
    characters' too), else the unit's own models."""
    host = pivoted.unit(host_id)
    slots = host.formation.slot_points if host.formation is not None else None
    return [(m, m.name in slots if slots is not None else u.id == host_id)
            for u in members(pivoted, host_id) for m in u.models]


@implements(PURSUIT, SPACING_RULE, "published.t9a-move")
def _pursuit_reach(state: GameState, pivoted: GameState, host_id: str, forward: tuple[float, float],
                   searched: bool = False, ignore: frozenset[str] = frozenset()) -> _Reach:
    """Return how far a pivoted pursuer may go straight forward, up to ``MOST_PURSUIT``, and what stops it there
    (``_Reach``); a reach of -1 when the pivot itself is refused, and why.  The first stop is worked out in closed
    form (``_first_stop``) and taken down to ``PURSUIT_PRECISION``'s grid, so equal ways give equal places; with
    Impassable Terrain on the table (or ``searched``, as the tests compare them) the places are looked at instead
    (``_searched_reach``).  ``ignore``: units left out (the fresh enemy a pursuer charges, ``_fresh_enemy_charge``)."""
    group = members(pivoted, host_id)
    own = {u.id for u in group} | ignore
    mine = [m.placed for u in group for m in u.models]
    box = group_extent(mine)
    beside = {u.id for u in pivoted.units if u.id not in own and u.alive and u.embarked_in is None
              and box_gap(box, u.extent) <= UNIT_SPACING + 1e-6 and group_distance(mine, u.placed) < UNIT_SPACING}

    # what the boxes alone show clear (no base off the table, none within 1" of another unit's bounding circles, nor
    # touching those of a unit beside it; no Impassable Terrain at all) needs no model measured: most places looked at
    width, depth = pivoted.table.width, pivoted.table.depth
    others = [(u.extent, u.id in beside) for u in pivoted.units if u.id not in own and u.alive]
    boxes_only = not any(t.kind == "blocking" for t in pivoted.terrain)

    mine_models = _moving_models(pivoted, host_id)

    def clear(d: float) -> bool:
        dx, dy = forward[0] * d, forward[1] * d
        moved_box = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        margin = 1e-6 * (1.0 + width + depth)  # far above the rounding of a formation moved rather than a box
        if not (margin <= moved_box[0] and moved_box[2] <= width - margin
                and margin <= moved_box[1] and moved_box[3] <= depth - margin):
            return False
        return all(box_gap(moved_box, extent) > (0.05 if by else UNIT_SPACING + 0.01) for extent, by in others)

    def problem(d: float) -> tuple[str, str] | None:
        if boxes_only and clear(d):
            return None
        dx, dy = forward[0] * d, forward[1] * d  # each model's place moved straight forward (the formation's slots
        # move with it): no state built for a place looked at
        movers = [(m, (m.at[0] + dx, m.at[1] + dy) if stepping else m.at) for m, stepping in mine_models]
        if placed := path_problem(pivoted, movers, own, True):
            return placed, "published.t9a-move"
        if spaced := spacing_problem(pivoted, movers, own | beside):
            return spaced, SPACING_RULE
        return None

    if pivoted is not state and (refused := problem(0.0)):
        return _Reach(-1.0, refused)
    if searched or not boxes_only:  # Impassable Terrain, which the closed form does not see: places looked at
        return _Reach(*_searched_reach(problem))
    stop, culprit = _first_stop(pivoted, mine_models, own, beside, forward)
    if stop >= MOST_PURSUIT:
        return _Reach(float(MOST_PURSUIT), ("", ""))
    # (the rules' checks allow a gap short of 1" by ``EPSILON``: a stop on the grid itself is reached)
    done = math.floor((stop + EPSILON) / PURSUIT_PRECISION) * PURSUIT_PRECISION
    if culprit not in beside:
        return _Reach(done, None, problem, culprit)
    # a unit beside it stops it where a model would stand on one of its models, which the checks tell by a small
    # overlap (``path_problem``): from touching, the places on are asked until one is refused
    for _ in range(_PROBED_PLACES):
        nxt = done + PURSUIT_PRECISION
        if nxt > MOST_PURSUIT:
            return _Reach(float(MOST_PURSUIT), ("", ""))
        if found := problem(nxt):
            return _Reach(done, found)
        done = nxt
    return _Reach(*_searched_reach(problem))


#: How many places of ``PURSUIT_PRECISION`` beyond a reach the rules' checks are asked what stops the pursuer there.
_PROBED_PLACES = 8


class _Reach:
    """How far a pivoted pursuer may go straight forward (-1: its pivot is refused) and what stops it there with the
    rule that does: asked of the rules' own checks (``probe``) only when a roll goes further, one place of
    ``PURSUIT_PRECISION`` beyond at a time; ``culprit`` names what the closed form met, should they find nothing."""

    __slots__ = ("far", "_stopped", "_probe", "_culprit")

    def __init__(self, far: float, stopped: tuple[str, str] | None,
                 probe: Callable[[float], tuple[str, str] | None] | None = None, culprit: str = "") -> None:
        self.far = far
        self._stopped = stopped
        self._probe = probe
        self._culprit = culprit

    def why(self) -> tuple[str, str]:
        """Return what stops the pursuer at ``far`` and the rule that does."""
        if self._stopped is None:
            assert self._probe is not None  # set whenever the words are left to ask
            found = None
            for k in range(1, _PROBED_PLACES + 1):
                if found := self._probe(self.far + k * PURSUIT_PRECISION):
                    break
            self._stopped = found or (f"it would come too near {self._culprit}", SPACING_RULE)
            self._probe = None  # (what it held, the state pivoted, is no longer needed)
        return self._stopped


def _first_stop(pivoted: GameState, mine_models: Sequence[tuple[Model, bool]], own: set[str], beside: set[str],
                forward: tuple[float, float]) -> tuple[float, str]:
    """Return how far a pursuer's moving models go straight forward before one would hang off the table, come within
    1" of another unit's model (published.t9a-unit-spacing) or touch a model of a unit beside it (``swept_contact``),
    and what it meets there (a unit's id, else words); 0 when a model that does not move is within that already.  Nothing nearer
    than this is refused by the rules' checks (``_pursuit_reach``'s ``problem``, whose only tolerances allow more)."""
    movers = [m.placed for m, stepping in mine_models if stepping]
    still = [m.placed for m, stepping in mine_models if not stepping]
    owners = [u.id for u in pivoted.units if u.id not in own and u.alive for _ in u.models]
    others = [(m.placed, 0.0 if u.id in beside else UNIT_SPACING) for u in pivoted.units
              if u.id not in own and u.alive for m in u.models]
    for p in still:
        for (o, gap), uid in zip(others, owners):
            if distance(p, o) < gap:
                return 0.0, uid
    edge = min(table_reach(movers, forward, pivoted.table.width, pivoted.table.depth), MOST_PURSUIT + 1.0)
    stop, met = group_first_contact(movers, forward, others, edge)
    return stop, (owners[met] if met >= 0 else "the table edge")


def _searched_reach(problem: Callable[[float], tuple[str, str] | None]) -> tuple[float, tuple[str, str]]:
    """Return the reach found by looking at places: every ``PURSUIT_STEP``, then the first stop narrowed to
    ``PURSUIT_PRECISION`` (with Impassable Terrain, which ``_first_stop`` does not see)."""
    done, stop, why = 0.0, None, ("", "")
    while done < MOST_PURSUIT:
        nxt = min(done + PURSUIT_STEP, float(MOST_PURSUIT))
        if found := problem(nxt):
            stop, why = nxt, found
            break
        done = nxt
    if stop is None:
        return float(MOST_PURSUIT), ("", "")
    while stop - done > PURSUIT_PRECISION:
        mid = (done + stop) / 2.0
        if found := problem(mid):
            stop, why = mid, found
        else:
            done = mid
    return done, why


@implements(PURSUIT, "t9a.combined.last-survivor")
def _pursuit_problem(state: GameState, combat: Sequence[str], pursuit: Mapping[str, PursuitChoice]) -> str | None:
    """Say what is wrong with a fight's ``pursuit`` (published.t9a-pursuit): each key a unit of the combat (not a
    joined character: the unit pursues), each ``pursue`` an enemy unit of the combat in base contact with it, a
    ``facing`` or ``files`` (the Post-Combat Pivot or Reform) only with ``restrain``, ``overrun`` only for a unit
    that charged.  Either side's units may be named,
    as either may win."""
    names = {u.id for u in state.units}
    seen: set[str] = set()
    for name, choice in pursuit.items():
        if name not in names:
            return f"pursuit: {name} is not a unit of this game"
        # a last survivor and his destroyed unit's name are one unit (t9a.combined.last-survivor)
        if (now := current(state, name).id) in seen:
            return f"pursuit: {now} is named twice"
        seen.add(now)
        if (host := state.unit(name).joined) is not None:
            return f"pursuit: {name} is part of {host}: the unit pursues, with it"
        if name not in combat:
            return f"pursuit: {name} is not a unit of this combat ({', '.join(combat)})"
        if (choice.facing is not None or choice.files is not None) and choice.overrun:
            return (f"pursuit: {name}: an Overrun or a Post-Combat Pivot or Reform (facing, files), not both (No More "
                    "Foes: the unit \"can either make an Overrun ..., a Post-Combat Pivot, or a Post-Combat Reform\")")
        if choice.files is not None and formation_of(state.unit(name)) is None:
            return f"pursuit: {name}.files: {name} has no ranks and files to reform"
        if choice.overrun and not state.unit(name).has(Status.CHARGED):
            return (f"pursuit: {name}.overrun: only a unit that charged this turn (its first round of combat) may "
                    "Overrun")
        target = choice.pursue
        if target is None:
            continue
        where = f"pursuit: {name}.pursue: {target}"
        if target not in names:
            return f"{where} is not a unit of this game"
        if (host := state.unit(target).joined) is not None:
            return f"{where} is part of {host}: the unit is pursued, with it"
        if state.unit(target).side == state.unit(name).side:
            return f"{where} is not an enemy of {name}"
        if target not in combat or not _touching(members(state, name), members(state, target)):
            return f"{where} is not in base contact with {name}: only a broken unit in contact is pursued"
    return None


@implements(STUBBORN, DUEL)
@implements(BREAK)
def _break_order_problem(state: GameState, combat: Sequence[str], order: Sequence[str]) -> str | None:
    """Say what is wrong with a fight's ``break_order`` (published.t9a-break-test: the losing player orders the Break
    tests of the units of the combat): a name twice, a character joined to a unit (the unit tests), or a unit outside
    the combat. Either side's units may be named, as either may lose."""
    seen: set[str] = set()
    for name in order:
        if name in seen:
            return f"break_order: {name} is named twice"
        seen.add(name)
        if not any(u.id == name for u in state.units):
            return f"break_order: {name} is not a unit of this game"
        if (host := state.unit(name).joined) is not None:
            return f"break_order: {name} is part of {host}: the unit takes the Break test, with it"
        if name not in combat:
            return f"break_order: {name} is not a unit of this combat ({', '.join(combat)})"
    return None


def _stubborn(state: GameState, uid: str) -> str:
    """Name the model whose Stubborn lets its unit break on its unmodified Discipline (a joined character's too: a unit
    with one or more models with Stubborn is Stubborn, and Disrupted Ranks take only Steadfast away); "" if none.  A
    character shamed by a refused Duel has lost his Stubborn (published.t9a-duel, 2022 text: "it loses Stubborn")."""
    for unit in members(state, uid):
        if unit.has_rule(STUBBORN_RULE) and unit.models and not unit.has(Status.DUEL_REFUSED):
            return unit.models[0].name if unit.is_character else unit.id
    return ""


def _weapon_rule(name: str) -> str:
    """Return the published clause of a bundled Close Combat Weapon by name."""
    from .t9a_weapons import close_combat_weapons

    return close_combat_weapons()[name.strip().lower()].rule
