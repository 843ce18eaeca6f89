"""Warhammer 40,000 assaults: who may assault whom, how far, and the assault move into base contact.

Assault moves each model straight to base contact with the nearest enemy model it can
reach, sliding round that model if the spot is taken.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .. import geometry as geo
from .. import movement
from ..actions import Assault
from ..catalogue import implements
from ..checks import LeadershipTestKind, leadership_test
from ..dice import Dice, rolls_made, rolls_since
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from ..values import evolve
from .base import Resolution, places_apart, with_its_unit
from .w40k_hooks import REROLLERS, WITHHELD_WORDS
from .w40k_morale import DIFFICULT_KINDS
from .w40k_psychic import PsychicPowerRules
from .w40k_wounds import slain_data

#: A unit that has assaulted this turn (``rule_assault``: a character joined to it assaults with it, once).
_ASSAULTED = frozenset({Status.ASSAULTED, Status.CHARGED})


@implements("published.assault-range")
def charges_over(state: GameState, unit: Unit) -> Ruling | None:
    """Refuse an assault once a close combat of this Assault phase has been fought: every charge is moved before the
    first combat is picked (4th ed., Assault phase summary: "Repeat the above until all charging units have moved",
    then Resolve Combats; the 3rd edition's summary at hand, alike), so a unit its combat left free (a character
    whose squad was cut down around him too) consolidates and does not assault (judge round 36). Runs only on an
    assault's ruling, over the statuses a fight leaves (``Status.FOUGHT``, cleared when the phase ends)."""
    fought = [u.id for u in state.units if u.has(Status.FOUGHT)]
    if not fought:
        return None
    why = "every assault of an Assault phase is moved before its first close combat is fought"
    if unit.id in fought:
        return Ruling.forbid(f"{unit.id} has fought a close combat this Assault phase: {why}; a unit its combat "
                             "left free may consolidate, not assault", "published.assault-range")
    return Ruling.forbid(f"a close combat has been fought this Assault phase ({', '.join(sorted(fought))}): {why}",
                         "published.assault-range")


class AssaultRules(PsychicPowerRules):
    """Assault: who may assault whom, how far, and the move into base contact."""

    # == assault ======================================================================
    @implements("published.assault-after-firing")
    def _assault_after_firing(self, members: Sequence[Unit]) -> Ruling | None:
        """Refuse the assault of a unit that (or a character in which) fired this turn a weapon that bars it
        (``fire_bars_assault``): the unit assaults whole, with its characters (40k3.char.must-assault,
        40k4.assault.must-charge)."""
        fired = next((u for u in members if u.has(Status.FIRED_NO_ASSAULT)), None)
        if fired is None:
            return None
        whose = "it" if fired is members[0] else f"{fired.id}, who is part of it,"
        return Ruling.forbid(f"{members[0].id} may not assault this turn: {whose} {self.assault_bar_words}",
                             "published.assault-after-firing")

    @implements("40k3.ic.assault-alone", "40k3.char.must-assault", "40k4.assault.alone", "40k4.assault.must-charge")
    def rule_assault(self, state: GameState, action: Assault) -> Ruling:
        """Rule on an assault: the unit with its characters, not engaged yet, an enemy within range."""
        unit = state.unit(action.unit)
        if problem := self._own_active(state, unit) or charges_over(state, unit):
            return problem
        if problem := self.host_holds(state, unit, "assault", self.must_assault_rule) or \
                self.host_did(state, unit, _ASSAULTED, "has already assaulted this turn", "a unit assaults once a "
                              "turn", "published.assault-range", self.must_assault_rule) or \
                with_its_unit(unit, "assaults when its unit does", "assault with", self.must_assault_rule):
            return problem
        if unit.has(Status.ASSAULTED) or unit.has(Status.CHARGED):
            return Ruling.forbid(f"{unit.id} has already assaulted this turn", "published.assault-range")
        held = self.with_members_holds(state, unit)  # its characters' holds hold it (session 30)
        if held.has(Status.LOCKED):
            return Ruling.forbid(f"{unit.id} is already locked in close combat", self.locked_rule)
        if held.has(Status.FALLING_BACK):
            return Ruling.forbid(f"{unit.id} is falling back and cannot assault", "published.fall-back")
        if problem := self._pinned(held, "assault") or self.assault_after_run(state, unit):
            return problem
        target = state.unit(action.target)
        if target.side == unit.side:
            return Ruling.forbid(f"{target.id} is on the same side as {unit.id}: a unit assaults an enemy unit",
                                 "published.assault-range")
        if not target.alive:
            return Ruling.forbid(f"{target.id} has no models left", "core.zero.w")
        if target.embarked_in is not None:
            return Ruling.forbid(f"{target.id} is embarked in {target.embarked_in}, off the table: it cannot be "
                                 "assaulted", "published.transports")
        members = state.combined(unit.id)
        shot = self.assault_after_shooting(state, unit, members, target)
        if shot is not None and not shot.legal:
            return shot
        if problem := self._assault_after_firing(members):
            return problem
        remains = shot.rules if shot is not None else ()
        reach, rule = self.assault_range(state, unit, members)
        slowed = self.assault_slowed_rules([u for u in members if u.alive], reach)
        mine = [p for u in members for p in u.placed]
        theirs = [p for u in state.combined(target.id) for p in u.placed]
        dist = geo.group_distance(mine, theirs)
        if dist > reach + geo.EPSILON:
            pace = (f" with {', '.join(u.id for u in members[1:] if u.alive)}: a unit and the characters who joined it "
                    "assault together, no further than the slowest of them") if slowed else ""
            return Ruling.forbid(f"{target.id} is {dist:.1f}\" from {unit.id}, beyond its assault range of "
                                 f"{reach:g}\"{pace}", rule, *slowed)
        with_chars = f" with {', '.join(u.id for u in members[1:])}" if len(members) > 1 else ""
        said = f"{unit.id}{with_chars} may assault {target.id}, {dist:.1f}\" away (range {reach:g}\")"
        if shot is not None:
            said += f"; {shot.reason}"
        picked = self._lone_character_assaulted(state, unit, target)
        if picked:
            said += (f"; {target.id} may not be picked out as a shooting target by {unit.id} ({', '.join(picked)}), "
                     "but that clause limits shooting:"
                     " an assault picks any enemy unit within range")
            remains = (*remains, *picked)
        notes = self._assault_terrain_notes(state, unit, members, theirs, reach)
        if any(u.has(Status.FALLING_BACK) for u in state.combined(target.id)):  # its characters too (session 30)
            return Ruling.allow(f"{said}; it is falling back: it tests to regroup at once, and is destroyed if it "
                                "fails", rule, *slowed, *remains, "published.assaulted-while-falling-back", notes=notes)
        return Ruling.allow(said, rule, *slowed, *remains, notes=notes)

    @implements("40k3.ic.target", "40k4.target.closest")
    def _lone_character_assaulted(self, state: GameState, unit: Unit, target: Unit) -> tuple[str, ...]:
        """Return the clauses by which ``unit`` could not shoot at ``target``, a lone character it assaults (none when
        it could, or ``target`` is no lone character): those clauses limit shooting only ("chosen as a shooting
        target", 40k3.ic.target; "the closest target to the firing unit", 40k4.target.closest), so the assault's
        ruling names them to say they do not bar it (judge round 63: it was silent)."""
        if not target.is_character or target.joined:
            return ()
        shot = self.character_target_ruling(state, unit, target)
        return shot.rules if shot is not None and not shot.legal else ()

    def _assault_terrain_notes(self, state: GameState, unit: Unit, members: Sequence[Unit],
                               theirs: Sequence[geo.Placed], reach: float) -> tuple[str, ...]:
        """Say what difficult terrain on the chargers' way will ask when the assault is resolved (``_assault_terrain``):
        nothing unless a difficult or dangerous piece lies where the chargers and their target stand."""
        rough = [t for t in state.terrain if t.kind in DIFFICULT_KINDS]
        if not rough:
            return ()
        placed = [*theirs, *(p for u in members for p in u.placed)]
        low_x, low_y = min(p.at[0] for p in placed) - reach, min(p.at[1] for p in placed) - reach
        high_x, high_y = max(p.at[0] for p in placed) + reach, max(p.at[1] for p in placed) + reach
        if not any(t.bounds[0] <= high_x and low_x <= t.bounds[2] and t.bounds[1] <= high_y and low_y <= t.bounds[3]
                   for t in rough):
            return ()
        new_at, _ = _charge_spots(state, members, [p for p in theirs], reach)
        moves = _assault_paths(state, members, new_at, rough)
        if not any([mv.difficult for mv in moves]):
            return ()
        way = self._assault_way(state, unit, members, moves)
        tested = sum([mv.dangerous for mv in way.moves])
        if way.unslowed:
            words, rules = self.unslowed_tests_words(unit, tested)
            return (f"assaults through difficult terrain unslowed: {words} "
                    f"[{', '.join(('published.assault-terrain', *rules))}]",)
        doubled = ", doubled" if way.factor != 1 else ""
        dangerous = f"; {tested} Dangerous Terrain test{'s' * (tested != 1)}" if tested else ""
        reroll = self.terrain_reroll_rules(state, unit)
        withheld = self.terrain_rules_withheld(state, unit)
        again = f", re-rolling each die below it once ({REROLLERS[reroll[0]]})" if reroll else ""
        return (f"assaults through difficult terrain: the highest of {way.dice}D6{doubled} must reach {way.need:.2f}\" "
                f"for every charger to go all the way{again}{dangerous}{WITHHELD_WORDS if withheld else ''} "
                f"[{', '.join(dict.fromkeys(('published.assault-terrain', way.rule, *reroll, *withheld)))}]",)

    def _assault_way(self, state: GameState, unit: Unit, members: Sequence[Unit],
                     moves: list[movement.PlannedMove]) -> _AssaultWay:
        """Work out what difficult terrain on the chargers' way asks before any die, for the ruling's note and the
        resolution alike: a type the edition lets through unslowed (``terrain_unslowed``, kind "assault") marks who
        tests (``unslowed_moves``); any other rolls ``difficult_terrain_dice`` against the longest difficult path over
        the type's factor (4th ed. cavalry double the highest die)."""
        if self.terrain_unslowed(state, unit, kind="assault"):
            return _AssaultWay(True, self.unslowed_moves(state, moves), 0.0, 1, 0, 0, "published.assault-terrain")
        need = max(mv.length for mv in moves if mv.difficult)
        factor = min([self.assault_terrain_factor.get(u.type, 1) for u in members])
        n, below, dice_rule = self.difficult_terrain_dice(state, unit, need / factor)
        return _AssaultWay(False, moves, need, factor, n, below, dice_rule)

    @implements("published.assault-after-shooting")
    def assault_after_shooting(self, state: GameState, unit: Unit, members: Sequence[Unit],
                               target: Unit) -> Ruling | None:
        """Refuse an assault on any unit but the one the assaulting unit (or a character in it) shot at this turn.

        A psychic shooting attack counts as shooting (it is recorded as the unit's target too).
        The unit shot at is the unit with the characters joined to it when it was shot at, and
        what is left of it: an ordinary character who outlived it (``last_of``), or an
        independent character joined to it then whom its destruction left alone
        (``GameState.joined_when_shot``; session 29). A legal ruling is returned for that one
        (the clause cited by the assault's ruling), None when the clause has nothing to say. A refusal says whose
        shooting it was (``shooting_of``: a psyker's power, a slain host's; judge round 44).
        """
        shot_at = None
        for holder in members:
            shot_at = state.target_fired_at(holder.id)
            if shot_at is not None:
                break
        if shot_at is None:
            return None
        group = state.combined(target.joined or target.id)
        if any(u.id == shot_at or u.last_of == shot_at for u in group):
            return None
        left = [u.id for u in group if state.was_joined_when_shot(u.id, shot_at)]
        if left:
            return Ruling.allow(f"{unit.id} fired at {shot_at} this turn: {', '.join(left)}, joined to it when it "
                                f"was shot at, is what is left of it", "published.assault-after-shooting")
        words, rules = self.shooting_of(state, holder.id, shot_at)
        return Ruling.forbid(f"{words}: {unit.id} may assault only the unit it shot at, not {target.id}",
                             "published.assault-after-shooting", *rules)

    @places_apart  # every spot _charge_spot picks is clear of every model as they stand by then
    @implements("40k4.cc.locked")
    def resolve_assault(self, state: GameState, action: Assault, dice: Dice) -> Resolution:
        """Move each model straight into base contact with the nearest enemy model it can reach; lock both units.

        A falling back target first tests to regroup; if it fails it is destroyed before anyone moves.
        """
        unit = state.unit(action.unit)
        members = state.combined(unit.id)
        picked = self._lone_character_assaulted(state, unit, state.unit(action.target))  # cited as the ruling does
        state, caught = self._assaulted_falling_back(state, action.target, dice)
        if caught and not state.unit(action.target).alive:  # scattered before any charging model moved
            declared = [u.with_status(Status.CHARGED, Status.ASSAULTED) for u in members]
            return state.replace_units(*declared), caught
        reach, rule = self.assault_range(state, unit, members)
        target_ids = [u.id for u in state.combined(state.unit(action.target).id)]
        theirs = [m.placed for tid in target_ids for m in state.unit(tid).models]
        new_at, contacts = _charge_spots(state, members, theirs, reach)
        events: list[Event] = []
        moves: list[movement.PlannedMove] = []
        rough = [t for t in state.terrain if t.kind in DIFFICULT_KINDS]
        if rough:  # a table without difficult or dangerous terrain asks nothing more
            moves = _assault_paths(state, members, new_at, rough)
            if any([mv.difficult for mv in moves]):
                moves, new_at, contacts, said = self._assault_terrain(state, unit, members, theirs, reach, moves,
                                                                      rough, dice, contacts)
                events.append(said)
        moved_units = []
        for u in members:
            models = tuple(m.moved_to(new_at[(u.id, i)]) for i, m in enumerate(u.models))
            moved_units.append(evolve(u, models=models).with_status(Status.CHARGED, Status.ASSAULTED))
        state = state.replace_units(*moved_units)
        if any([mv.dangerous for mv in moves]):  # each test is taken as its model moves: the slain reach no one
            before = sum([len(u.models) for u in members])
            state, tested = self._dangerous_tests(state, moves, dice)
            events += tested
            left = [m.placed for u in members for m in state.unit(u.id).models]
            if len(left) != before:  # no charger left in contact: none is locked with the target
                contacts = sum([any([geo.distance(p, t) <= _CONTACT for t in theirs]) for p in left])
        if contacts:  # a unit is locked once a model of it is engaged (4th ed., Move Charging Units)
            state = state.replace_units(*(state.unit(u.id).with_status(Status.LOCKED) for u in members))
            pinned = [t for t in target_ids if state.unit(t).has(Status.PINNED)]
            state = state.replace_units(*(state.unit(t).with_status(Status.LOCKED, remove=(
                Status.PINNED, Status.NEWLY_PINNED)) for t in target_ids))
            if pinned:  # published Pinning: assaulted, a pinned unit is no longer pinned and fights normally
                events.append(Event("pinned", f"{action.target} is assaulted: no longer pinned, it fights normally",
                                    ("published.pinning",)))
        rules = tuple(dict.fromkeys((rule, self.locked_rule))) if len(members) > 1 else (rule,)
        rules = (*rules, *picked)
        return state, [*caught, Event("assault", f"{unit.id} assaults {action.target}: {contacts} model"
                                      f"{'s' * (contacts != 1)} in base contact", rules), *events]

    @implements("published.assault-terrain", "published.difficult-terrain", "published.dangerous-terrain")
    def _assault_terrain(self, state: GameState, unit: Unit, members: Sequence[Unit], theirs: Sequence[geo.Placed],
                         reach: float, moves: list[movement.PlannedMove], rough: Sequence[geo.Terrain], dice: Dice,
                         contacts: int) -> tuple[list[movement.PlannedMove], dict[tuple[str, int], geo.Point], int, Event]:
        """Slow an assault through difficult terrain as a move in the Movement phase is (4th ed., Move Charging Units:
        "All the models in a charging unit make their Assault move subject to the same rules as in the Movement
        phase"): the highest of 2D6 (3D6 with Move Through Cover; 4th ed. cavalry double it) is how far every
        charger moves, each model going as far as it gets towards the enemy; a type the edition lets through
        unslowed (``terrain_unslowed``, kind "assault": 4th ed. bikes) takes Dangerous Terrain tests instead.

        Return the planned moves (the tested models marked), where each charger ends, how many touch an enemy, and
        the event that says so.
        """
        way = self._assault_way(state, unit, members, moves)
        if way.unslowed:
            moves = way.moves
            tested = sum([mv.dangerous for mv in moves])
            new_at = {(mv.unit_id, mv.index): mv.to for mv in moves}
            words, rules = self.unslowed_tests_words(unit, tested)
            return moves, new_at, contacts, Event(
                "difficult_terrain", f"{unit.id} assaults through difficult terrain unslowed: {words}",
                ("published.assault-terrain", *rules))
        factor, n, below, dice_rule = way.factor, way.dice, way.below, way.rule
        start = rolls_made(dice)
        allowed = factor * dice.highest(n, f"{unit.id}: difficult terrain (assault)", dice_rule, below)
        doubled = f" (the highest die {allowed // factor} doubled: cavalry)" if factor != 1 else ""
        short = any([mv.length > allowed + movement.EPSILON for mv in moves])
        if short:  # each charger goes as far as the roll lets it (a spot within the roll is kept as it was)
            new_at, contacts = _charge_spots(state, members, theirs, min(reach, float(allowed)))
            moves = _assault_paths(state, members, new_at, rough)
        else:
            new_at = {(mv.unit_id, mv.index): mv.to for mv in moves}
        reroll = self.terrain_reroll_rules(state, unit)
        said = (f"{unit.id} assaults through difficult terrain: rolls {allowed}\"{doubled}"
                + (f" ({REROLLERS[reroll[0]]} re-rolls the dice below {below})" if reroll else "")
                + (", and its assault move is cut short" if short else ""))
        withheld = self.terrain_rules_withheld(state, unit)
        said += WITHHELD_WORDS if withheld else ""
        cited = tuple(dict.fromkeys(("published.assault-terrain", dice_rule, *reroll, *withheld)))
        return moves, new_at, contacts, Event("difficult_terrain", said, cited, rolls_since(dice, start))

    @implements("published.assaulted-while-falling-back")
    def _assaulted_falling_back(self, state: GameState, target_id: str, dice: Dice) -> Resolution:
        """Test a falling back unit that is assaulted to regroup at once: pass and it fights; fail and it is destroyed.

        Published rule (4th ed., Assaulted while falling back): before any charging model
        moves, with no modifier, even where it could not otherwise regroup (an enemy within 6").
        The unit's characters are part of it: they regroup, or are scattered, with it.
        """
        host_id = state.unit(target_id).joined or target_id
        group = state.combined(host_id)
        if not any(u.has(Status.FALLING_BACK) for u in group):  # a character falling back: they fall back as one
            return state, []
        ld = self.leadership_of(state, host_id)
        start = rolls_made(dice)
        result = leadership_test(dice, ld.value, LeadershipTestKind.REGROUP)
        rules = ("published.assaulted-while-falling-back", "published.regroup", *ld.rules, *result.clauses)
        said = f"{host_id} is assaulted while falling back: Regroup test on Ld {ld.value} ({ld.said}), rolls " \
               f"{result.roll}"
        if result.passed:
            regrouped = [u.with_status(remove=(Status.FALLING_BACK,)) for u in group]
            return state.replace_units(*regrouped), [Event("regroup", f"{said}: it regroups and fights", rules,
                                                           rolls_since(dice, start))]
        scattered = [evolve(u, models=()) for u in group]
        slain = [m.name for u in group for m in u.models]
        return state.replace_units(*scattered), [
            Event("regroup", f"{said}: it fails, and is scattered and destroyed", rules, rolls_since(dice, start)),
            Event("destroyed", f"{host_id} is destroyed: slain {', '.join(slain)}",
                  ("published.assaulted-while-falling-back", "core.zero.w"), data=slain_data(slain)),
        ]


class _AssaultWay(NamedTuple):
    """What difficult terrain on an assault's way asks before any die (``AssaultRules._assault_way``)."""

    unslowed: bool  # the edition lets this type through: tests (the marked ``moves``) instead of a roll
    moves: list[movement.PlannedMove]
    need: float  # the longest path through difficult terrain
    factor: int  # what the highest die is multiplied by (4th ed. cavalry: 2)
    dice: int  # how many D6 the highest is taken of
    below: int  # re-roll the dice when the highest is below this (``difficult_terrain_dice``)
    rule: str  # the clause that sets the dice


#: How close (edge to edge, in inches) a charger's base must end to an enemy's to count as in base contact again,
#: once Dangerous Terrain tests took models away (``_charge_spot`` places bases touching, a rectangle by its half width).
_CONTACT = 0.05


def _charge_spots(state: GameState, members: Sequence[Unit], theirs: Sequence[geo.Placed], reach: float
                  ) -> tuple[dict[tuple[str, int], geo.Point], int]:
    """Return where each charging model ends (nearest to the enemy first, ``_charge_spot``) and how many touch."""
    movers = sorted(((u.id, i) for u in members for i in range(len(u.models))),
                    key=lambda r: geo.group_distance([state.unit(r[0]).models[r[1]].placed], theirs))
    placed_now = {(u.id, i): m.placed for u in state.units for i, m in enumerate(u.models)}
    new_at: dict[tuple[str, int], geo.Point] = {}
    contacts = 0
    for ref in movers:
        model = state.unit(ref[0]).models[ref[1]]
        spot, touching = _charge_spot(model, theirs, reach, [p for r, p in placed_now.items() if r != ref])
        new_at[ref] = spot
        placed_now[ref] = geo.Placed(model.base, spot, model.facing)
        contacts += touching
    return new_at, contacts


def _assault_paths(state: GameState, members: Sequence[Unit], new_at: Mapping[tuple[str, int], geo.Point],
                   rough: Sequence[geo.Terrain]) -> list[movement.PlannedMove]:
    """Return each charger's straight move to where it ends, marked where its path meets difficult or dangerous
    terrain (as ``movement.plan`` marks a move: the centre's line, start and end included)."""
    out = []
    for u in members:
        for i, m in enumerate(u.models):
            to = new_at[(u.id, i)]
            dangerous = geo.segment_enters_terrain(m.at, to, rough, "dangerous")
            difficult = dangerous or geo.segment_enters_terrain(m.at, to, rough, "difficult")
            out.append(movement.PlannedMove(u.id, i, m, to, math.dist(m.at, to), difficult, dangerous))
    return out


def _charge_spot(model: Model, targets: Sequence[geo.Placed], reach: float,
                 others: Iterable[geo.Placed]) -> tuple[geo.Point, bool]:
    """Return where a charging model ends: touching the nearest enemy model it can reach, else as close as it gets."""
    others = list(others)
    r = model.base.radius_inches if model.base.round else model.base.width_mm / geo.MM_PER_INCH / 2
    for t in sorted(targets, key=lambda p: geo.distance(model.placed, p)):
        rt = t.base.radius_inches if t.base.round else t.base.width_mm / geo.MM_PER_INCH / 2
        base_angle = math.atan2(model.at[1] - t.at[1], model.at[0] - t.at[0])
        for k in range(0, 13):
            for sign in ((1,) if k == 0 else (1, -1)):
                a = base_angle + sign * k * math.pi / 12
                spot = (t.at[0] + (r + rt) * math.cos(a), t.at[1] + (r + rt) * math.sin(a))
                if math.dist(spot, model.at) > reach + geo.EPSILON:
                    continue
                here = geo.Placed(model.base, spot, model.facing)
                if not any(geo.overlaps(here, o) for o in others):
                    return spot, True
    nearest = min(targets, key=lambda p: geo.distance(model.placed, p))
    gap = geo.distance(model.placed, nearest)
    step = min(reach, max(0.0, gap - 0.05))
    dx, dy = nearest.at[0] - model.at[0], nearest.at[1] - model.at[1]
    norm = max(math.hypot(dx, dy), 1e-9)
    while step > 0:
        spot = (model.at[0] + dx / norm * step, model.at[1] + dy / norm * step)
        if not any(geo.overlaps(geo.Placed(model.base, spot, model.facing), o) for o in others):
            return spot, False
        step -= 0.25
    return model.at, False
