"""The 9th Age: characters in rank-and-file units (seed 002), the ruleset class.

``NinthAge`` stands on a chain of mixins, one concept each: ``t9a_joins.JoinRules`` (joining and leaving),
``t9a_charges.ChargeRules`` (charges and charging out); the Discipline tests they share are ``t9a_discipline``'s.
What is left here is what every action reads (names, weapons, targets, the legal actions offered) and the plain
moves and reforms. A joined character stays a ``Unit`` of its own with ``joined`` naming its host, and stands in a
slot of the host's ``Formation`` (formations.py); the charge mechanics the seed defers to (Charge Range, Failed
Charge move, Stand and Shoot) are in charging.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, cast

from ..catalogue import implements
from ..charging import CHARGE_BONUS_RULES, CHARGE_RULE, MAX_CHARGE_BONUS, STAND_AND_SHOOT_RULE
from ..dice import Dice
from ..errors import IllegalActionError, ScenarioError
from .. import movement
from ..formations import (CHARACTER_RULE, Formation, RankChoice, arrange, front_rank_problems, front_rank_test,
                          front_ranked, is_character)
from ..geometry import EPSILON, Point, unit_line_of_sight
from ..rulings import Event, Ruling
from ..state import GameState, Phase, PhaseSpec
from ..t9a_charts import MAX_STRENGTH, MISSILE_WEAPONS, TO_HIT_SHOOTING, missile_kind, missile_weapon
from ..units import CharacterKind, Model, Status, Unit
from .base import Act, Resolution, Ruleset, places_as_ruled
from .t9a_weapons import CLOSE_COMBAT_WEAPONS, close_combat_weapons, weapon_choices
from .t9a_units import (advance_rate, BUSY, CONCLAVE_PATTERN, current, failed_charge_rules, FLY_PATTERN, formation_of,
                        host_of, march_rate, member_models, model_wounds, MOVED, movers_of, placed_all, sight_all,
                        TROOP_TYPES, unit_rates, why_moved, why_unmovable, WIZARD_CONCLAVE)
from .t9a_casualties import DISTRIBUTING_HITS, no_models_left
from .t9a_moves import (beyond_charge_reach, greatest_charge_range, in_front_arc, own_models_apart, path_problem,
                        shift_unit, spacing_problem, SPACING_RULE, wheel_problem, WHEEL_RULE, wheeled)
from .t9a_stand_and_shoot import stand_and_shoot_volley, stands_and_shoots_unasked
from .t9a_discipline import MARCH_RULE, march_failed_refusal, shaken_refusal
from .t9a_joins import FLY_RULE
from .t9a_charges import PANIC_RULE, charge_rules, ChargeRules
from .t9a_forward import facing_way

from ..actions import Charge, EndPhase, Join, Leave, Move  # built by every listing of legal actions

if TYPE_CHECKING:
    from ..actions import Action, Fight, Reform, TakeTest


LAST_SURVIVOR = "t9a.combined.last-survivor"


def _tests_as(unit: Unit) -> str:
    """Say that a last survivor takes a test as the destroyed unit he is (t9a.combined.last-survivor)."""
    return f"{unit.id} is all that is left of {unit.last_of} and takes its tests as it [{LAST_SURVIVOR}]"


def _moves_back_or_aside(unit_id: str, start: Point, ahead: Point, right: Point, rate: float) -> Iterator[Move]:
    """Yield a unit's moves back, then left and right, at ``rate`` and then at half of it, each built only when asked
    (``legal_actions`` keeps the first legal one: most often the first)."""
    x, y = start
    for step in (rate, rate / 2):
        for dx, dy in ((-ahead[0], -ahead[1]), (-right[0], -right[1]), right):
            yield Move.trusted(do="move", unit=unit_id, to=((x + dx * step, y + dy * step),))


def _leaves_back_or_aside(character_id: str, start: Point, ahead: Point, right: Point, rate: float) -> Iterator[Leave]:
    """Yield a character's leaves back, then left and right, at ``rate`` and then at half of it, as a unit's moves
    are tried (``_moves_back_or_aside``): he moves through his own unit's models (t9a.leave.move)."""
    x, y = start
    for step in (rate, rate / 2):
        for dx, dy in ((-ahead[0], -ahead[1]), (-right[0], -right[1]), right):
            yield Leave.trusted(do="leave", character=character_id, to=(x + dx * step, y + dy * step))


def _varies(charge: Charge) -> bool:
    """Say whether a charge candidate names more than its declaration: a reaction, a redirect or a chosen weapon."""
    return (charge.reaction is not None or charge.redirect is not None or charge.reaction_weapon is not None
            or charge.redirect_reaction_weapon is not None)


#: The state's memo key (with the ruleset's class) of whether each unit charges flying unless it declares otherwise
#: (``NinthAge.flies_unless_declared``).
_FLYING = "t9a charges flying unless declared"
#: Why a 9th Age file's ``special`` (and ``special_characters``) is refused (judge round 64): 40k's agreement, not the
#: 9th Age's, whose characters are its army books' Characters section models, none of them a named one.
_SPECIAL = ("40k3.char.special-agreement is 40k's; a 9th Age character is a model of an army book's Characters "
            "section, none a named special character [t9a.char.universal]")

#: The state's memo key of ``_renamed_now``.
_RENAMED = "t9a names read as their last survivors"


@implements("t9a.combined.last-survivor")
def _renamed_now(state: GameState) -> dict[str, str]:
    """Return each destroyed unit's name that now stands for another unit (its last survivor, ``current``), worked out
    once per state: every action ruled or resolved reads its names through it (``NinthAge.named_now``)."""
    renamed: dict[str, str] = {}
    for u in state.units:
        if not u.alive and u.id not in renamed and not state.unit(u.id).alive \
                and (now := current(state, u.id).id) != u.id:
            renamed[u.id] = now
    return renamed


class NinthAge(ChargeRules):
    """Override the shared rules where The 9th Age says otherwise."""

    name: ClassVar[str] = "t9a"
    title: ClassVar[str] = "The 9th Age"
    seeds: ClassVar[tuple[str, ...]] = ("002", "004")
    ranked_units: ClassVar[bool] = True

    #: The 9th Age player turn: Charge, Movement, Magic, Shooting, Melee.
    phases: ClassVar[tuple[PhaseSpec, ...]] = (
        PhaseSpec(Phase.CHARGE, frozenset({"charge", "leave", "test", "end_phase"})),
        PhaseSpec(Phase.MOVEMENT, frozenset({"move", "reform", "join", "leave", "test", "end_phase"})),
        PhaseSpec(Phase.MAGIC, frozenset({"test", "end_phase"})),
        PhaseSpec(Phase.SHOOTING, frozenset({"test", "end_phase"})),
        PhaseSpec(Phase.MELEE, frozenset({"test", "end_phase"})),
    )

    #: The Character rule makes a character (t9a.char.universal), and every 9th Age character is of one kind: he may
    #: act on his own (t9a.char.lone) or join a unit; a scenario's 40k "ordinary" character is refused at load, and a
    #: unit with the rule alone is read as ``character: independent``, so every report reads him as a character.
    character_rule_names: ClassVar[Mapping[str, CharacterKind]] = {CHARACTER_RULE: CharacterKind.INDEPENDENT}
    character_kinds: ClassVar[frozenset[CharacterKind]] = frozenset({CharacterKind.INDEPENDENT})
    character_kinds_rule: ClassVar[str] = "t9a.char.universal"
    character_kinds_words: ClassVar[str] = (
        "every 9th Age character has the one Character rule and may act on his own or join a unit [t9a.char.universal, "
        "t9a.char.lone]: write character: independent, or the Character rule")

    #: Deployment, once before the first turn: each side in turn places its characters in units.
    deployment: ClassVar[PhaseSpec] = PhaseSpec(Phase.DEPLOYMENT, frozenset({"join", "end_phase"}))
    #: 40k's scenario fields (``Ruleset.unread_scenario_fields``): the 9th Age reads a model's missile weapon from
    #: its own table, has no psychic powers, splits of attacks, shooting targets kept, transports, special (named)
    #: characters (t9a.char.universal, judge round 64: a unit's ``special`` was loaded and read by no rule).
    unread_scenario_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "file": {"weapons": "40k's weapon profiles (a 9th Age model's missile weapon is read from its own table)",
                 "powers": "40k's psychic powers (the 9th Age's wizards cast spells)",
                 "allocations": "40k's declared splits of a character's attacks",
                 "fired_at": "40k's shooting targets this turn",
                 "joined_when_shot": "40k's characters joined to the units shot at this turn",
                 "special_characters": f"40k's agreement letting special characters in ({_SPECIAL})"},
        "unit": {"embarked_in": "40k's transports", "capacity": "40k's transport capacity",
                 "special": f"40k's special (named) character ({_SPECIAL})"},
    }
    #: Heavy casualties are counted over a phase (published.t9a-panic): shooting, spells and Miscasts, Stand and Shoot.
    losses_phases: ClassVar[frozenset[Phase]] = frozenset({Phase.CHARGE, Phase.MAGIC, Phase.SHOOTING})
    losses_rule: ClassVar[str] = PANIC_RULE
    #: 40k's unit statuses (``Ruleset.unread_statuses``): a 9th Age unit that breaks flees (fleeing).
    unread_statuses: ClassVar[Mapping[Status, str]] = {
        Status.FALLING_BACK: "40k's falling back unit (a 9th Age unit flees: fleeing)",
        Status.PINNED: "40k's Pinning", Status.NEWLY_PINNED: "40k's Pinning taken in its own turn",
        Status.LOCKED: "40k's units locked in close combat (a 9th Age unit in combat is engaged)",
        Status.REGROUPED: "40k's Regroup test taken this Movement phase",
        Status.RAN: "40k's Fleet run", Status.ASSAULTED: "40k's assault move",
        Status.USED_POWER: "40k's psychic power used this turn",
        Status.PSYCHIC_TEST_FAILED: "40k's psychic test failed this turn",
        Status.MAY_CONSOLIDATE: "40k's consolidation after a close combat",
        Status.LEFT_BATTLE: "40k's unit that fell back off the table edge",
    }
    #: The special rules the character and charge rules read, by their exact names (``rule_name``).
    modelled_rules: ClassVar[frozenset[str]] = frozenset(
        {STAND_AND_SHOOT_RULE, *CHARGE_BONUS_RULES, "Fly", WIZARD_CONCLAVE, CHARACTER_RULE, "Stubborn"})

    def rule_name(self, name: str) -> str:
        """Return a rule's name as the t9a code compares it: exactly as written, ``Fly (8, 6)`` and ``Wizard Conclave (A, B)`` as ``Fly`` and ``Wizard Conclave``."""
        if FLY_PATTERN.match(name):
            return "Fly"
        if name == WIZARD_CONCLAVE or CONCLAVE_PATTERN.match(name):
            return WIZARD_CONCLAVE
        return name

    @implements("t9a.join.deploy", MARCH_RULE)
    def resolve_end_phase(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """End a phase; Deployment passes to the next side, and after the last side the first turn begins.  A failed
        March Test bars marching "during this Movement Phase" only: its mark ends with the phase."""
        if state.phase is not Phase.DEPLOYMENT:
            failed = [u.with_status(remove=(Status.MARCH_TEST_FAILED,)) for u in state.units
                      if u.has(Status.MARCH_TEST_FAILED)]
            return super().resolve_end_phase(state.replace_units(*failed) if failed else state, action, dice)
        return self.end_deployment(state, "t9a.join.deploy", "")

    #: The fields that name a unit acting or acted on, per action kind, read as what the name stands for now.
    NAMED_NOW: ClassVar[dict[str, tuple[str, ...]]] = {
        "move": ("unit",), "reform": ("unit",), "charge": ("unit", "target", "redirect", "if_both_flee"),
        "shoot": ("unit", "target"), "cast": ("unit", "target"), "rally": ("unit",), "fight": ("unit",), "join": ("unit", "character"),
        "test": ("unit",),
    }

    @implements("t9a.combined.last-survivor")
    def named_now(self, state: GameState, action: Act) -> Act:
        """Read a destroyed combined unit's name as its last survivor, who is that unit now.

        One step before every ruling and resolution (``Ruleset.named_now``), so no rule of the
        unit's own forgets it; the survivor's name is what every message then says.
        """
        fields = self.NAMED_NOW.get(action.do)
        if not fields:
            return action
        renamed = state.remember(_RENAMED, lambda: _renamed_now(state))  # (most states: none)
        values = action.__dict__  # every field (``Action.trusted``), read without an attribute look-up each
        changed: dict[str, object] = {f: renamed[name] for f in fields if (name := values[f]) in renamed} \
            if renamed else {}
        if action.do == "fight":  # the names a fight lists: the Break order, the pursuers and whom they pursue
            changed.update(_fight_lists_now(state, cast("Fight", action)))
        if action.do == "charge" and values["fly"] is None \
                and self.flies_unless_declared(state, str(changed.get("unit", values["unit"]))):
            changed["fly"] = True  # a charge that cannot fly keeps None, which every rule reads as not flying
        return cast("Act", action.updated(**changed)) if changed else action

    @implements(FLY_RULE, "t9a.charge-out.own-rate")
    def flies_unless_declared(self, state: GameState, unit_id: str) -> bool:
        """Say whether a charge whose ``fly`` is not given is a Flying charge: the charger can fly (every model of a
        unit has Fly, or the character charging out has it). The 2022 text, Fly: "When declaring a Charge with a unit
        with Fly, you must declare if the unit will not use Flying Movement for the Charge Move": flying is the
        default, ``fly: false`` the declaration. Read once, before every ruling and resolution (``named_now``)."""
        flying: dict[str, bool] = state.remember((type(self), _FLYING), dict)  # by unit id, once per state
        known = flying.get(unit_id)
        if known is None:
            unit = state.unit(unit_id) if state.has_unit(unit_id) else None
            known = flying[unit_id] = unit is not None and unit.alive and \
                self.charge_rates(state, unit, bool(unit.joined), True) is not None
        return known

    def phase_rules(self, state: GameState, action: Act) -> tuple[str, ...]:
        """Cite the clause that ties an action to its phase: a charge's is the charge rule (a character's out of his
        unit, the seed's clause too)."""
        if action.do == "charge":
            name = cast("Charge", action).unit
            return charge_rules(state.unit(name)) if state.has_unit(name) else (CHARGE_RULE,)
        return {"join": ("t9a.join.move",), "leave": ("t9a.leave.when",)}.get(action.do, ())

    # -- scenario ------------------------------------------------------------------
    def model_wounds(self, unit: Unit, model: Model) -> int:
        """A Wizard Conclave's champion has one Wound more than its profile's (t9a.spell.wizard-conclave)."""
        return model_wounds(unit, model)

    def wounds_bonus_said(self, unit: Unit, model: Model) -> str:
        return "+1 as the champion of a Wizard Conclave, t9a.spell.wizard-conclave"

    def counts_as_character(self, unit: Unit) -> bool:
        """Say whether a unit is a character: the Character rule makes one too (t9a.char.universal)."""
        return is_character(unit)

    # -- tests a rule or the judge calls for (seed 004), of a destroyed combined unit ---------------------------------
    @implements("t9a.combined.last-survivor")
    def rule_test(self, state: GameState, action: TakeTest) -> Ruling:
        """Rule on a test as the shared rules do; a last survivor's says he takes it as the unit he is all that is left
        of, citing the seed's clause (round 54: a Panic test asked of the destroyed unit's name, the clause's own case,
        was ruled as the character's alone and cited nothing of it)."""
        ruling = super().rule_test(state, action)
        unit = state.unit(action.unit)
        if not ruling.legal or not unit.last_of:
            return ruling
        return Ruling.allow(ruling.reason, *ruling.rules, LAST_SURVIVOR, notes=(*ruling.notes, _tests_as(unit)))

    @implements("t9a.combined.last-survivor")
    def resolve_test(self, state: GameState, action: TakeTest, dice: Dice) -> Resolution:
        """Take a test as the shared rules do; a last survivor's event cites the clause that makes him the unit."""
        unit = state.unit(action.unit)
        after, events = super().resolve_test(state, action, dice)
        if not unit.last_of or not events:
            return after, events
        first = events[0]
        return after, [first._replace(message=f"{first.message} ({_tests_as(unit)})",
                                      rules=(*first.rules, LAST_SURVIVOR)), *events[1:]]

    #: The missile weapons' table is the 9th Age rule that reads a model's weapons (Shooting phase, Stand and Shoot).
    weapons_rule: ClassVar[str] = TO_HIT_SHOOTING
    weapons_hint: ClassVar[str] = ("the missile weapons, 'bow S4' for one of Strength 4, 0 to 10, and the "
                                   "Close Combat Weapons: " + ", ".join(close_combat_weapons()))

    @implements(TO_HIT_SHOOTING, CLOSE_COMBAT_WEAPONS)
    def weapon_names(self, state: GameState) -> frozenset[str]:
        """Name the published missile weapons (``t9a_charts.MISSILE_WEAPONS``) and Close Combat Weapons
        (``data/t9a_close_combat_weapons.yaml``): the weapons the t9a rules read."""
        return frozenset(MISSILE_WEAPONS) | frozenset(close_combat_weapons())

    def weapon_key(self, name: str) -> str:
        """Return a weapon's kind as the missile weapons' table names it (``Bow S4``: ``bow``); a Close Combat
        Weapon's name in lower case."""
        key = name.strip().lower()
        return key if key in close_combat_weapons() else missile_kind(name)

    def weapon_known(self, name: str, names: frozenset[str]) -> bool:
        """Say whether ``name`` is a missile weapon as the Shooting phase reads it (``bow``, ``bow S4``, ``bow AP1``: S and
        AP 0 to 10), or a
        Close Combat Weapon as melee reads it (``great weapon``)."""
        if name.strip().lower() in close_combat_weapons():
            return True
        weapon = missile_weapon(name)
        return weapon is not None and weapon.strength <= MAX_STRENGTH and weapon.ap <= MAX_STRENGTH

    @implements("t9a.char.lone", "t9a.join.deploy", "t9a.char.front-rank", DISTRIBUTING_HITS)
    def validate_state(self, state: GameState, source: str) -> None:
        """Refuse a character unit of several models, a 40k troop type and a Front Rank model behind a first rank of
        others."""
        for u in state.units:
            if is_character(u) and u.joined is None and len(u.models) > 1:
                raise ScenarioError(source, f"units.{u.id}.models",
                                    "a character on its own is a unit of a single model [t9a.char.lone]")
            if u.joined is not None and not is_character(u):
                raise ScenarioError(source, f"units.{u.id}.joined", "only a character joins a unit [t9a.join.deploy]")
            if u.type not in TROOP_TYPES:  # round 45: read as another Type, it would share hits it should not
                raise ScenarioError(source, f"units.{u.id}.type",
                                    f"{u.type.value} is a 40k troop type: a 9th Age unit's type is infantry or cavalry "
                                    f"(its Type decides who shares the hits at a combined unit) [{DISTRIBUTING_HITS}]")
            if u.formation is not None:
                bad = front_rank_problems(u.formation, front_rank_test(state, u))
                if bad:
                    raise ScenarioError(
                        source, f"units.{u.id}.formation.order",
                        f"{', '.join(bad)} must stand in the first rank while it holds models without Front Rank, "
                        "and never behind a rank holding one [t9a.char.front-rank]")

    @implements("t9a.join.part-of-unit", "t9a.char.lone", "published.line-of-sight")
    def target_ruling(self, state: GameState, shooter_id: str, target_id: str) -> Ruling:
        """Rule on a target: a joined character is part of its unit (shoot the unit); a lone one is a unit.

        A destroyed combined unit named, by the shooter or as the target, is its last survivor
        (t9a.combined.last-survivor), as it is in the Magic and Melee phases.
        """
        shooter, target = current(state, shooter_id), current(state, target_id)
        if target.side == shooter.side:
            return Ruling.forbid(f"{target.id} is on the same side as {shooter.id}: a unit shoots at an enemy unit",
                                 "published.t9a-who-can-shoot")
        if not target.alive:
            return Ruling.forbid(f"{target.id} has no models left", "core.zero.w")
        if target.joined:
            return Ruling.forbid(f"{target.id} is part of {target.joined}: the unit is the target",
                                 "t9a.join.part-of-unit")
        host = host_of(state, shooter)
        if not in_front_arc(host, target):  # a unit's line of sight never leaves its Front Arc
            return Ruling.forbid(f"{target.id} is not in {host.id}'s Front Arc: a unit sees only what lies at least "
                                 "partly in it", "published.line-of-sight")
        firing = sight_all(state, host)  # rear ranks see from their file's first rank
        if not unit_line_of_sight(firing, placed_all(state, target), state.terrain):
            return Ruling.forbid(f"{shooter.id} has no line of sight to {target.id}", "published.line-of-sight")
        if target.last_of:
            return Ruling.allow(f"{target.id} is all that is left of {target.last_of} and is that unit; visible",
                                "t9a.combined.last-survivor")
        if is_character(target):
            return Ruling.allow(f"{target.id} is a lone character, a unit of its own, and visible", "t9a.char.lone")
        return Ruling.allow(f"{target.id} is visible to {shooter.id}", "published.line-of-sight")


    def end_turn(self, state: GameState) -> Resolution:
        """End the player turn: Shaken from a failed charge out (or a charge that caught a unit that fled) lasts until
        now, and so do a Stand and Shoot's once per player turn (published.t9a-stand-and-shoot) and a Flee's
        (published.t9a-flee-reaction), on either side."""
        cleared = tuple(u.with_status(remove=(Status.SHAKEN, Status.STOOD_AND_SHOT, Status.FLED_FROM_CHARGE))
                        for u in state.units)
        return super().end_turn(replace(state, units=cleared))

    # -- listing -----------------------------------------------------------------
    def screened_candidates(self, state: GameState) -> Iterator[tuple[Action, bool]]:
        """Propose ``candidate_actions``; a charge's variants are ruled here at once and kept only when legal (sure).

        A variant (a Charge Reaction named, a redirect, a weapon for a Stand and Shoot) follows its plain charge, by
        the same unit of the side to play in the Charge phase, which ``Game.legal_actions`` judges in full first.
        Both share the declaration, ruled once per state (``rule_charge``); what judging a variant adds is only
        ``rule_charge``'s ruling on its reaction and redirect, so that alone is asked (where ``judged_as_ruled``
        says judging adds nothing after the rule).  A variant refused is left out: surely refused.
        ``tests/test_legal_actions_screened.py`` holds the list to judging every candidate in full.
        """
        alike = (state.phase is Phase.CHARGE and "charge" in self.phase_spec(state.phase).actions
                 and self.judged_as_ruled("charge"))
        for action in self.candidate_actions(state):
            if not (alike and isinstance(action, Charge) and _varies(action)):
                yield action, False
                continue
            try:
                legal = self.rule_charge(state, self.named_now(state, action)).legal
            except IllegalActionError:  # a unit it names is not there: refused, as judging says
                legal = False
            if legal:
                yield action, True

    def candidate_actions(self, state: GameState) -> Iterable[Action]:
        """Propose joins, leaves, moves and charges for the active side, then ending the phase."""
        mine = state.side_units(state.active)
        enemies = state.enemies_of(state.active)
        for u in mine:
            if state.phase is Phase.CHARGE:
                reach = greatest_charge_range(state, u)
                viable = [e for e in enemies if not e.joined and not beyond_charge_reach(state, u, e, reach)]
                for e in viable:  # a joined character: its unit
                    yield Charge.trusted(do="charge", unit=u.id, target=e.id)
                    if stands_and_shoots_unasked(e) and stand_and_shoot_volley(state, e, u, first=True).shooters:
                        for choice in weapon_choices(state, e):  # Stand and Shoot with another weapon
                            yield Charge.trusted(do="charge", unit=u.id, target=e.id, reaction_weapon=choice)
                        # the charged unit's player may Hold instead (published.t9a-charge-reactions)
                        yield Charge.trusted(do="charge", unit=u.id, target=e.id, reaction="hold")
                    if self.flees_from_charges and not e.has(Status.FLEEING) and not e.has(Status.ENGAGED):
                        # or Flee (published.t9a-flee-reaction); a unit already fleeing Flees by default
                        yield Charge.trusted(do="charge", unit=u.id, target=e.id, reaction="flee")
                    if self.flees_from_charges and not e.has(Status.ENGAGED):
                        yield from self._redirect_candidates(state, u, e, viable)
                flying = self.charge_rates(state, u, bool(u.joined), True) if u.alive else None
                if flying is not None:  # a Flying charge (published.t9a-fly), at its own reach: the default for a
                    far = flying[0] + MAX_CHARGE_BONUS + EPSILON  # charger with Fly, so the candidates above fly;
                    for e in enemies:  # beyond their reach the flying one, and within it the one declared on foot
                        if not e.joined and e not in viable and not beyond_charge_reach(state, u, e, far):
                            yield Charge.trusted(do="charge", unit=u.id, target=e.id)
                    for e in viable:
                        yield Charge.trusted(do="charge", unit=u.id, target=e.id, fly=False)
            lone = u.joined is None and not state.joined_to(u.id)
            if is_character(u) and (state.phase is Phase.MOVEMENT or (lone and state.phase is Phase.DEPLOYMENT)):
                # in the Movement phase a character in a unit may leave it to join another by one move (round 38)
                own = {u.id} if lone else {c.id for c in state.combined(u.joined or u.id)}
                for host in mine:
                    f = formation_of(host)
                    if host.id in own or host.joined or f is None:
                        continue
                    choices: tuple[RankChoice | None, ...] = ("widen", "second_rank") if f.single_rank else (None,)
                    for file in range(f.files):
                        for choice in choices:
                            yield Join.trusted(do="join", character=u.id, unit=host.id, position=file, rank_choice=choice)
            if state.phase is Phase.MOVEMENT and u.joined is None and u.models:
                f = u.formation
                start = f.position if f is not None else u.models[0].at
                t = math.radians(f.facing if f is not None else u.models[0].facing)
                step = float(advance_rate(u))
                yield Move.trusted(do="move", unit=u.id, to=((start[0] - math.sin(t) * step, start[1] + math.cos(t) * step),))
                # and a March straight ahead at its March Rate (published.t9a-move), the March Test then rolled
                far = float(march_rate(u))
                if far > step + EPSILON:
                    yield Move.trusted(do="move", unit=u.id, march=True,
                                       to=((start[0] - math.sin(t) * far, start[1] + math.cos(t) * far),))
            # a character in a unit, or one leading a unit of characters (a last survivor others joined, round 59)
            if state.phase is Phase.MOVEMENT and u.models and (u.joined or (state.joined_to(u.id) and is_character(u))):
                # in the Charge phase he leaves by a charge out
                m = u.models[0]
                t = math.radians(m.facing)
                step = float(advance_rate(u))
                yield Leave.trusted(do="leave", character=u.id, to=(m.at[0] - math.sin(t) * step, m.at[1] + math.cos(t) * step))
        yield EndPhase.trusted(do="end_phase")

    @implements("published.t9a-move")
    def fallback_candidates(self, state: GameState, legal: Sequence[Action]) -> Iterable[Iterable[Action]]:
        """Offer a unit whose forward Advance and March were both refused a move back or aside (judge round 59).

        The forward moves ``candidate_actions`` samples can end on a friend standing before the unit (a character
        whose failed charge out left him there), though the unit may move any way up to its rate (published.t9a-move,
        a move straight to a new front centre): back, then left and right, at its Advance Rate and then at half of
        it, the first legal one kept.  A unit that may not move at all (moved, engaged, fleeing, halted, Shaken) is
        not tried, so the common case pays a look at each unit's statuses.
        """
        if state.phase is not Phase.MOVEMENT:
            return
        yield from self._fallback_leaves(state, legal)
        moving = {a.unit for a in legal if a.do == "move"}
        for u in state.side_units(state.active):
            if u.joined is not None or not u.models or u.id in moving or u.has(Status.HALTED) or u.has(Status.SHAKEN):
                continue
            if any(c.has(s) for c in state.combined(u.id) for s in (*MOVED, *BUSY)):
                continue
            f = u.formation
            x, y = f.position if f is not None else u.models[0].at
            facing = f.facing if f is not None else u.models[0].facing
            t = math.radians(facing)
            ahead, right = facing_way(facing), (math.cos(t), math.sin(t))
            rate = float(advance_rate(u))
            yield _moves_back_or_aside(u.id, (x, y), ahead, right, rate)


    @implements("t9a.leave.when", "t9a.leave.move")
    def _fallback_leaves(self, state: GameState, legal: Sequence[Action]) -> Iterator[Iterator[Leave]]:
        """Offer a character whose leave straight ahead was refused a leave back or aside (judge round 61).

        ``candidate_actions`` samples one leave, ahead at his Advance Rate: it can end within 1" of an enemy before
        the unit, though he may leave any way (t9a.leave.move).  Only a character who may move at all is tried (not
        moved or busy, nor his unit: t9a.leave.when), so the common case pays a look at the statuses.
        """
        leaving = {a.character for a in legal if a.do == "leave"}
        for u in state.side_units(state.active):
            if u.id in leaving or not u.models or not (u.joined or (state.joined_to(u.id) and is_character(u))):
                continue
            host = state.unit(u.joined) if u.joined else u
            if any(c.has(s) for c in (u, host) for s in (*MOVED, *BUSY, Status.SHAKEN)):
                continue
            m = u.models[0]
            t = math.radians(m.facing)
            yield _leaves_back_or_aside(u.id, m.at, facing_way(m.facing), (math.cos(t), math.sin(t)),
                                        float(advance_rate(u)))

    # -- moving -----------------------------------------------------------------
    @places_as_ruled
    @implements("t9a.join.unit-stops", "t9a.join.part-of-unit", "t9a.char.lone", "t9a.join.character-units")
    def rule_move(self, state: GameState, action: Move) -> Ruling:
        """Rule on moving a unit (a lone character is one): at its slowest model's rate, around other units.

        The move keeps 1" from every other unit (Unit Spacing), so its models can end on another
        model only if they end on one another: never for a single model or a formation whose
        models each stand in a slot no smaller than their bases (``own_models_apart``);
        otherwise the move is resolved and its bases are checked as every placing action's are.
        """
        ruling = self._rule_move(state, action)
        if ruling.legal and not own_models_apart(state, movers_of(state, state.unit(action.unit))):
            # the places the move would reach, March Test or not (a failed test leaves every model where it stands)
            moved = self._moved(state, action)
            if problem := movement.overlap_problem(state, moved[0]):
                return Ruling.forbid(problem, "published.bases-apart")
        return ruling

    def _rule_move(self, state: GameState, action: Move) -> Ruling:
        named = state.unit(action.unit)  # a destroyed combined unit's name is its last survivor's (named_now)
        if not named.alive:
            return no_models_left(named)
        unit = movers_of(state, named)
        rules: tuple[str, ...] = ("t9a.join.character-units",) if unit.id != named.id else ()
        if named.joined and unit.id == named.id:
            return Ruling.forbid(f"{named.id} is part of {named.joined} and moves with it; it must leave the unit "
                                 "first", "t9a.join.part-of-unit")
        if shaken := shaken_refusal(state, unit, "make an Advance or a March move"):
            return shaken
        if unit.has(Status.HALTED):
            if unit.has(Status.MOVED) and is_character(unit) and not state.joined_to(unit.id):
                # round 35: he moved to join a unit of characters, whose leader then left him leading it alone
                return Ruling.forbid(f"{unit.id} moved to join a unit this phase, and it is his alone now that the "
                                     "others left it: a unit a character joined cannot move again, and he has moved",
                                     "t9a.join.unit-stops", "t9a.join.moved-separately", "t9a.join.character-units")
            return Ruling.forbid(f"a character joined {unit.id} this phase: it cannot move again",
                                 "t9a.join.unit-stops")
        if any(u.has(s) for u in state.combined(unit.id) for s in (*MOVED, *BUSY)):
            said, rally = why_moved(unit, why_unmovable(state, unit))
            return Ruling.forbid(said, "published.t9a-move", *rally, *failed_charge_rules(state, unit))
        if action.march and (refusal := march_failed_refusal(state, unit)):
            return refusal
        if len(action.to) > 1 or (not action.to and action.wheel is None):
            return Ruling.forbid("give one point: the new place of the unit's front centre (or of a lone model)",
                                 "published.t9a-move")
        rates = unit_rates(state, unit, action.fly)
        if rates is None:
            return Ruling.forbid(f"not every model of {unit.id} has Fly: it cannot make a Flying Movement",
                                 "published.t9a-fly")
        rate = rates[1] if action.march else rates[0]
        own = {u.id for u in state.combined(unit.id)}
        arc = 0.0
        if action.wheel is not None:
            f = formation_of(unit)
            if f is None:
                return Ruling.forbid(f"{unit.id} has no ranks and files to wheel", WHEEL_RULE)
            arc = f.wheel_distance(action.wheel)
            problem = None if action.fly else wheel_problem(state, unit, action.wheel, own)
            if problem:
                return Ruling.forbid(f"{unit.id} cannot wheel {action.wheel:g} degrees: {problem}", WHEEL_RULE,
                                     "published.t9a-move")
            state = wheeled(state, unit, action.wheel)
            unit = state.unit(unit.id)
            rules += (WHEEL_RULE,)
        start = unit.formation.position if unit.formation is not None else unit.models[0].at
        to = action.to[0] if action.to else start
        dist = arc + math.dist(start, to)
        kind = ("flying " if action.fly else "") + ("March" if action.march else "Advance")
        if dist > rate + EPSILON:
            why = (("t9a.join.part-of-unit",) if state.joined_to(unit.id) else ()) + (
                ("published.t9a-fly",) if action.fly else ()) + ((WHEEL_RULE,) if arc else ())
            spent = f"{dist:.2f}\" ({arc:.2f}\" of it wheeling)" if arc else f"{dist:.2f}\""
            return Ruling.forbid(f"{unit.id} may move {rate}\" ({kind} Rate of its slowest model), not {spent}",
                                 *why, "published.t9a-move")
        dx, dy = to[0] - start[0], to[1] - start[1]
        movers = [(m, (m.at[0] + dx, m.at[1] + dy)) for _, m in member_models(state, unit)]
        problem = path_problem(state, movers, own, action.fly)
        if problem:
            return Ruling.forbid(f"{unit.id} cannot move there: {problem}", "published.t9a-move",
                                 *(("published.t9a-fly",) if action.fly else ()))
        problem = spacing_problem(state, movers, own)
        if problem:
            return Ruling.forbid(f"{unit.id} cannot move there: {problem}", SPACING_RULE, "published.t9a-move")
        if is_character(unit):
            rules += ("t9a.char.lone",)
        if unit.last_of:
            rules += ("t9a.combined.last-survivor",)
        turn = f", wheeling {action.wheel:g} degrees ({arc:.2f}\")" if arc else ""
        test = self.march_test_note(state, unit) if action.march else ""
        if test:
            rules += ("core.test.leadership", self.discipline_ruling(state, unit).rule)
        return Ruling.allow(f"{unit.id} moves {dist:.2f}\" of its {rate}\" ({kind} Rate){turn}{'; ' * bool(test)}{test}",
                            *rules, "published.t9a-move", SPACING_RULE)

    @places_as_ruled
    def resolve_move(self, state: GameState, action: Move, dice: Dice) -> Resolution:
        """Move a unit (wheeling first if asked), with the characters that are part of it; a March first takes its
        March Test when a non-Fleeing enemy stands within 8" (``march_test``)."""
        unit = movers_of(state, state.unit(action.unit))
        test = self.march_test(state, unit, dice) if action.march else None
        if test is not None and dict(test.data)["outcome"] == "failed":
            return self.march_failed(state, state.combined(unit.id), test)
        new, events = self._moved(state, action)
        return new, ([test] if test is not None else []) + events

    def _moved(self, state: GameState, action: Move) -> Resolution:
        """Return the move made (no dice): the unit and its characters shifted, wheeling first if asked."""
        unit = movers_of(state, state.unit(action.unit))
        marked = (Status.MOVED, *((Status.MARCHED,) if action.march else ()))
        rules: tuple[str, ...] = ("published.t9a-move",)
        said = ""
        if action.wheel is not None:
            f = formation_of(unit)
            arc = f.wheel_distance(action.wheel) if f is not None else 0.0
            state = wheeled(state, unit, action.wheel)
            unit = state.unit(unit.id)
            rules += (WHEEL_RULE,)
            said = f" after wheeling {action.wheel:g} degrees ({arc:.2f}\" of its move)"
        start = unit.formation.position if unit.formation is not None else unit.models[0].at
        to = action.to[0] if action.to else start
        dx, dy = to[0] - start[0], to[1] - start[1]
        new = shift_unit(state, unit, dx, dy)
        members = [new.unit(unit.id), *new.joined_to(unit.id)]
        new = new.replace_units(*(u.with_status(*marked) for u in members))
        return new, [Event("move", f"{unit.id} moves {math.hypot(dx, dy):.2f}\" straight{said}", rules)]

    @implements("published.t9a-reform")
    def rule_reform(self, state: GameState, action: Reform) -> Ruling:
        """Rule on a reform: a unit turns and changes its width about its centre, its whole move for the phase."""
        named = state.unit(action.unit)
        if not named.alive:
            return no_models_left(named)
        unit = movers_of(state, named)
        if named.joined and unit.id == named.id:
            return Ruling.forbid(f"{named.id} is part of {named.joined}; the unit reforms", "t9a.join.part-of-unit")
        if shaken := shaken_refusal(state, unit, "reform"):
            return shaken
        if unit.has(Status.HALTED) or any(u.has(s) for u in state.combined(unit.id) for s in (*MOVED, *BUSY)):
            said, rally = why_moved(unit, f"a character joined {unit.id} this phase: it cannot reform"
                                    if unit.has(Status.HALTED) else why_unmovable(state, unit, "reform"), "reform")
            return Ruling.forbid(said, "published.t9a-reform", *rally,
                                 *(("t9a.join.unit-stops",) if unit.has(Status.HALTED) else ()),
                                 *failed_charge_rules(state, unit))
        if problem := self.reform_problem(state, unit, action.facing, action.files):
            return problem
        new, said, rules = self.reform_shape(state, unit, action.facing, action.files)
        return Ruling.allow(f"{unit.id} reforms: {said}; it cannot move further this phase", "published.t9a-reform",
                            *rules)

    @implements("published.t9a-reform", "t9a.char.front-rank")
    def reform_shape(self, state: GameState, unit: Unit, facing: float | None, files: int | None
                     ) -> tuple[Formation, str, tuple[str, ...]]:
        """Return a Reform's new ranks and files, the words for them and the clauses beyond the Reform's own.

        The unit turns and changes its width about its centre, its models in the same order, except that a Front
        Rank model the new width would leave behind a rank holding models without Front Rank steps forward into it
        (``front_ranked``: a champion or a character on the right of a five-wide rank is still in the first rank
        when the unit narrows to three files).
        """
        f = formation_of(unit)
        assert f is not None  # (reform_problem refuses a unit without one)
        turned = f.rotated(facing if facing is not None else f.facing, files or f.files)
        new = front_ranked(turned, front_rank_test(state, unit))
        said = f"{new.files} files facing {new.facing:g} degrees"
        if new.order == turned.order:
            return new, said, ()
        first = [n for n in new.front_rank() if n not in turned.front_rank()]
        return new, (f"{said}; {', '.join(first)} (Front Rank) step{'s' * (len(first) == 1)} into the first rank "
                     "[t9a.char.front-rank]"), ("t9a.char.front-rank",)

    def reform_problem(self, state: GameState, unit: Unit, facing: float | None, files: int | None) -> Ruling | None:
        """Refuse a Reform the unit's new ranks and files could not make where it stands (None: they can): a unit
        without ranks and files, a path or place blocked, Unit Spacing broken."""
        if formation_of(unit) is None:
            return Ruling.forbid(f"{unit.id} has no ranks and files to reform", "published.t9a-reform")
        new = self.reform_shape(state, unit, facing, files)[0]
        movers = [(m, new.point_of(m.name)) for _, m in member_models(state, unit) if m.name in new.order]
        turned = [(replace(m, facing=new.facing), to) for m, to in movers]
        problem = path_problem(state, turned, {u.id for u in state.combined(unit.id)}, True)
        if problem:
            return Ruling.forbid(f"{unit.id} cannot reform there: {problem}", "published.t9a-reform")
        problem = spacing_problem(state, turned, {u.id for u in state.combined(unit.id)})
        if problem:
            return Ruling.forbid(f"{unit.id} cannot reform there: {problem}", "published.t9a-reform", SPACING_RULE)
        return None

    def resolve_reform(self, state: GameState, action: Reform, dice: Dice) -> Resolution:
        """Reform a unit about its centre; it counts as having moved."""
        unit = movers_of(state, state.unit(action.unit))
        new, said = self.reformed(state, unit, action.facing, action.files)
        members = [new.unit(unit.id), *new.joined_to(unit.id)]
        new = new.replace_units(*(u.with_status(Status.MOVED) for u in members))
        return new, [Event("reform", f"{unit.id} reforms: {said}", (
            "published.t9a-reform", *(("t9a.char.front-rank",) if "[t9a.char.front-rank]" in said else ())))]

    def reformed(self, state: GameState, unit: Unit, facing: float | None, files: int | None
                 ) -> tuple[GameState, str]:
        """Return the state with the unit's ranks and files turned and widened about its centre, and the words."""
        new_f, said, _ = self.reform_shape(state, unit, facing, files)
        if unit.formation is None:
            m = unit.models[0]
            new = state.replace_unit(replace(unit, models=(replace(m, facing=new_f.facing),)))
        else:
            new = arrange(state.replace_unit(replace(unit, formation=new_f)), unit.id)
        return new, said


@implements("t9a.combined.last-survivor")
def _fight_lists_now(state: GameState, action: Fight) -> dict[str, object]:
    """Read a destroyed combined unit's name as its last survivor in a fight's ``break_order`` and ``pursuit`` too
    (round 32: until then only the fighting unit's name was read so, and a Break order or a pursuit naming the
    survivor by his unit refused him as "not a unit of this combat").  A pursuit naming one unit under both names is
    left as given, for its ruling to refuse (``t9a_melee._pursuit_problem``)."""
    def now(name: str) -> str:
        return current(state, name).id if state.has_unit(name) and not state.unit(name).alive else name

    changed: dict[str, object] = {}
    if action.break_order and (order := tuple(map(now, action.break_order))) != action.break_order:
        changed["break_order"] = order
    if action.pursuit:
        pursuit = {k: v if v.pursue is None else v.model_copy(update={"pursue": now(v.pursue)})
                   for k, v in action.pursuit.items()}
        renamed = {now(k): v for k, v in pursuit.items()}
        if len(renamed) == len(pursuit):
            pursuit = renamed
        if pursuit != action.pursuit:
            changed["pursuit"] = pursuit
    return changed
