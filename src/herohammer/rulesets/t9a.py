"""The 9th Age: characters in rank-and-file units (seed 002).

A joined character stays a ``Unit`` of its own with ``joined`` naming its host, and
stands in a slot of the host's ``Formation`` (formations.py); the charge mechanics the
seed defers to (Charge Range, Failed Charge move, Stand and Shoot) are in charging.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, ClassVar, cast

from ..catalogue import implements
from ..charging import (CHARGE_BONUS_RULES, CHARGE_OUT_RULE, CHARGE_REACTIONS, CHARGE_RULE, REDIRECT, FLEE_REACTION,
                        MAX_CHARGE_BONUS, STAND_AND_SHOOT, STAND_AND_SHOOT_RULE, SWIFTSTRIDE, roll_charge,
                        stand_and_shoot)
from ..checks import LeadershipTestKind, TestResult, leadership_test
from ..dice import Dice
from ..errors import IllegalActionError, ScenarioError
from .. import movement
from ..formations import (CHARACTER_RULE, Formation, RankChoice, arrange, centre_file, front_rank_problems,
                          front_rank_test, front_ranked, is_character, place_in_front_rank, WHO_CAN_SHOOT)
from ..geometry import (EPSILON, Placed, Point, box_gap, distance, footprint_slack, group_distance, in_base_contact,
                        nearest_in_rows, overlaps, unit_line_of_sight)
from ..rulings import Event, Ruling
from ..state import GameState, Phase, PhaseSpec
from ..t9a_charts import MAX_STRENGTH, MISSILE_WEAPONS, TO_HIT_SHOOTING, missile_kind, missile_weapon
from ..units import Model, Status, Unit
from .base import (Act, LeadershipRuling, LeadershipSource, Resolution, Ruleset, places_as_ruled, rolls_before_placing,
                   rule_key)
from .t9a_weapons import (CLOSE_COMBAT_WEAPONS, SHOOTING_WEAPONS, close_combat_weapons, several_weapons,
                          weapon_choice_problem, weapon_choices, weapons_said)
from .t9a_units import (advance_rate, BUSY, front_centre, combined_status, CONCLAVE_PATTERN, current, FLY_PATTERN, fly_rates,
                        formation_of, has_conclave, host_of, march_rate, member_models, MOVED, movers_of, placed_all,
                        rallied, RALLIED_WORDS, RALLY_RULE, sight_all, unit_rates, why_moved, WIZARD_CONCLAVE)
from .t9a_casualties import COMMAND_GROUP, DISTRIBUTING_HITS, no_models_left, remove_casualties, take_wounds
from .t9a_moves import (beyond_charge_reach, charge_way_clear, charge_contact, contact_models, contact_move,
                        CONTACT_OVERLAP_SLACK, contact_pairs, detach, greatest_charge_range, in_front_arc,
                        left_apart, own_models_apart, path_problem, shift_unit, spacing_problem, SPACING_RULE,
                        table_edge_problem, wheel_problem, WHEEL_RULE, wheeled)
from .t9a_stand_and_shoot import (charged_with, COVER, stand_and_shoot_at_unit, stand_and_shoot_volley,
                                  stands_and_shoots_unasked, takes_stand_and_shoot)

if TYPE_CHECKING:
    from ..actions import Action, Charge, Join, Leave, Move, Reform

#: Outcomes of a character's charge out of its unit (``charge_out_odds``).
CHARGED, FAILED_LEFT, FAILED_STAYED, SLAIN = "charged", "failed_left", "failed_stayed_shaken", "slain"
PANIC_RULE = "published.t9a-panic"
#: A charging unit that fails its Panic test after Stand and Shoot casualties flees instead of charging.
FLED = "fled"
#: The outcomes of a charge at a unit that fled from it (published.t9a-flee-reaction).
CAUGHT, FLED_OFF = "caught", "target_fled_off_the_table"
_UNIT_CHARGE = (CHARGE_RULE,)
_CHARGE_OUT = (CHARGE_RULE, CHARGE_OUT_RULE)


@implements(CHARGE_RULE, CHARGE_OUT_RULE)
def charge_rules(charger: Unit) -> tuple[str, ...]:
    """Return the ids a charge cites: the published charge rule; a character charging out of his unit, the seed's too."""
    return _CHARGE_OUT if charger.joined else _UNIT_CHARGE


def _redirected(action: Charge, reaction: str | None) -> Charge:
    """The charge a redirect makes: at the unit it names, with ``reaction`` for that unit (and its weapon,
    ``redirect_reaction_weapon``), redirecting no further."""
    assert action.redirect is not None
    return action.model_copy(update={"target": action.redirect, "reaction": reaction, "redirect": None,
                                     "redirect_reaction": None, "if_both_flee": None,
                                     "reaction_weapon": action.redirect_reaction_weapon,
                                     "redirect_reaction_weapon": None})


#: The charge's fields that choose the weapon of a Stand and Shoot: the charged unit's, the redirect's unit's.
REACTION_WEAPON, REDIRECT_WEAPON = "charge.reaction_weapon", "charge.redirect_reaction_weapon"


@implements("t9a.join.part-of-unit", "t9a.combined.last-survivor")
def _why_busy(state: GameState, unit: Unit) -> str:
    """Say what keeps a unit (or a character in one) from charging: engaged, fleeing (his unit's status binding him,
    t9a.join.part-of-unit), or moved, marched or charged this turn (a rallied unit counts as having marched)."""
    host = host_of(state, unit)
    for status, words in ((Status.ENGAGED, "engaged in combat"), (Status.FLEEING, "fleeing")):
        if unit.has(status):
            return f"it is {words}"
        if host.has(status):
            return f"it is part of {host.id}, which is {words}"
    done = [w for s, w in ((Status.CHARGED, "charged"), (Status.MARCHED, "marched"), (Status.MOVED, "moved"))
            if unit.has(s)]
    return RALLIED_WORDS if rallied(host) else f"it has {' and '.join(done) or 'moved'} this turn"


SHAKEN_RULE = "published.t9a-shaken"
FLY_RULE = "published.t9a-fly"
#: The General's Commanding Presence: his Leadership lent to a unit's Discipline tests within 12".
GENERAL_RULE_ID = "published.t9a-general"
FAILED_CHARGE = "published.t9a-failed-charge"


@implements(SHAKEN_RULE, "t9a.charge-out.failure")
def shaken_refusal(state: GameState, unit: Unit, cannot: str, whole_unit: bool = True) -> Ruling | None:
    """Refuse what a Shaken model may not do (charge, Advance or March move, reform, shoot), or None.

    ``whole_unit``: the unit acts with every model in it (a move, a reform, a volley), so one
    Shaken model binds it; otherwise only the named model acts (a character leaving, joining or
    charging out), Shaken by its own status or its unit's.
    """
    if whole_unit:
        shaken = any(u.has(Status.SHAKEN) for u in state.combined(unit.id))
    else:
        shaken = Status.SHAKEN in combined_status(state, unit)
    if not shaken:
        return None
    return Ruling.forbid(f"{unit.id} is Shaken until the end of the player turn (a failed charge out leaves its "
                         f"unit so): it cannot {cannot}", "t9a.charge-out.failure", SHAKEN_RULE)


#: The special rule naming the army's Battle Standard Bearer, and the reach of Rally Around the Flag (inches).
BSB_RULE = "Battle Standard Bearer"
BATTLE_STANDARD = "published.t9a-battle-standard"
RALLY_AROUND_THE_FLAG = 12.0


@implements(BATTLE_STANDARD)
def bearer_near(state: GameState, host_id: str) -> Model | None:
    """Return the Battle Standard Bearer whose Rally Around the Flag reaches a unit: its side's, not fleeing, within
    12" edge to edge of the unit's models (its own unit included); None when there is none (the common case, settled
    by the names of the side's rules before anything is measured)."""
    host = current(state, host_id)
    bearers = [u for u in state.side_units(host.side) if BSB_RULE in u.rules and u.alive and u.models
               and not u.has(Status.DUEL_REFUSED)]  # a bearer shamed by a refused Duel loses it (published.t9a-duel)
    if not bearers:
        return None
    group = [host, *state.joined_to(host.id)]
    ids = {u.id for u in group}
    mine = [m.placed for u in group for m in u.models]
    for b in bearers:
        if b.has(Status.FLEEING) or (b.joined is not None and current(state, b.joined).has(Status.FLEEING)):
            continue
        if b.id in ids or b.joined in ids or (mine and group_distance([m.placed for m in b.models], mine)
                                              <= RALLY_AROUND_THE_FLAG):
            return b.models[0]
    return None


@implements(BATTLE_STANDARD)
def discipline_test(state: GameState, host_id: str, dice: Dice, leadership: int, kind: LeadershipTestKind,
                    modifier: int = 0) -> tuple[TestResult, str]:
    """Take a unit's Discipline test, re-rolled once when it fails within the reach of its Battle Standard Bearer
    (Rally Around the Flag); return the result that stands and what the re-roll did ("" without one)."""
    result = leadership_test(dice, leadership, kind, modifier)
    if result.passed:
        return result, ""
    bearer = bearer_near(state, host_id)
    if bearer is None:
        return result, ""
    again = leadership_test(dice, leadership, kind, modifier)
    return again, (f"the first roll, {result.roll}, failed and was re-rolled for Rally Around the Flag ({bearer.name}, "
                   f"the Battle Standard Bearer) [{BATTLE_STANDARD}]")


@implements("t9a.combined.last-survivor")
def heavy_casualties_panic(state: GameState, host_id: str, lost: int, at_start: int, dice: Dice,
                           lent: Sequence[int] = ()) -> tuple[TestResult, str] | None:
    """Take the Panic test for heavy casualties (a quarter of the models lost) on the survivors' Leadership.

    A character left alone takes it alone, with its own Leadership; it is a Leadership
    test (core.test.leadership-kinds).  ``lent``: Leadership values the unit may use
    instead (its General's, from the Melee and Shooting rules above).  A failure is re-rolled within the reach of
    the Battle Standard Bearer (``discipline_test``); the second string says so.
    """
    if at_start <= 0 or lost * 4 < at_start:
        return None
    host = current(state, host_id)
    models = [m for u in [host, *state.joined_to(host.id)] for m in u.models]
    if not models:
        return None
    return discipline_test(state, host.id, dice, max([*(m.profile.ld for m in models), *lent]),
                           LeadershipTestKind.PANIC)


@implements("t9a.spell.wizard-conclave")
def conclave_spells(unit: Unit) -> tuple[str, ...]:
    """Return the spell list given with a unit's Wizard Conclave rule, e.g. ``Wizard Conclave (A, B, C)``."""
    for r in unit.rules:
        m = CONCLAVE_PATTERN.match(r)
        if m:
            return tuple(s.strip() for s in m.group(1).split(",") if s.strip())
    return ()


@implements("t9a.spell.wizard-conclave")
def choose_conclave_spells(unit: Unit, chosen: Sequence[str]) -> tuple[str, str]:
    """Check the champion's choice: exactly two different spells from the rule's list (not normal selection)."""
    rule = "t9a.spell.wizard-conclave"
    if not has_conclave(unit):
        raise IllegalActionError(f"unit {unit.id} has no Wizard Conclave rule", [rule])
    listed = conclave_spells(unit)
    if len(chosen) != 2 or len(set(chosen)) != 2:
        raise IllegalActionError(f"the champion chooses exactly two different spells, got {list(chosen)}", [rule])
    bad = [s for s in chosen if s not in listed]
    if bad:
        raise IllegalActionError(f"{', '.join(bad)} not in the Wizard Conclave list ({', '.join(listed)})", [rule])
    return (chosen[0], chosen[1])


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


def _rank_choice_rules(plan: JoinPlan) -> tuple[str, ...]:
    """Cite t9a.join.single-rank where the join made the player's choice: the unit stood in one full rank, widened
    or given a second rank for the displaced model (a judge asked which clause let the rank grow); a lone character
    joined by another is such a rank of one."""
    f = formation_of(plan.host)
    full_single = f is not None and f.single_rank and len(f.order) == f.files
    return ("t9a.join.single-rank",) if full_single else ()


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


def _refuse(reason: str, *rules: str) -> IllegalActionError:
    return IllegalActionError(reason, rules)


class NinthAge(Ruleset):
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

    #: Deployment, once before the first turn: each side in turn places its characters in units.
    deployment: ClassVar[PhaseSpec] = PhaseSpec(Phase.DEPLOYMENT, frozenset({"join", "end_phase"}))
    #: 40k's scenario fields (``Ruleset.unread_scenario_fields``): the 9th Age reads a model's missile weapon from
    #: its own table, has no psychic powers, splits of attacks, shooting targets kept, transports.
    unread_scenario_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "file": {"weapons": "40k's weapon profiles (a 9th Age model's missile weapon is read from its own table)",
                 "powers": "40k's psychic powers (the 9th Age's wizards cast spells)",
                 "allocations": "40k's declared splits of a character's attacks",
                 "fired_at": "40k's shooting targets this turn",
                 "joined_when_shot": "40k's characters joined to the units shot at this turn"},
        "unit": {"embarked_in": "40k's transports", "capacity": "40k's transport capacity"},
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
        Status.MAY_CONSOLIDATE: "40k's consolidation after a close combat",
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

    @implements("t9a.join.deploy")
    def resolve_end_phase(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """End a phase; Deployment passes to the next side, and after the last side the first turn begins."""
        if state.phase is not Phase.DEPLOYMENT:
            return super().resolve_end_phase(state, action, dice)
        return self.end_deployment(state, "t9a.join.deploy", "")

    #: The fields that name a unit acting or acted on, per action kind, read as what the name stands for now.
    NAMED_NOW: ClassVar[dict[str, tuple[str, ...]]] = {
        "move": ("unit",), "reform": ("unit",), "charge": ("unit", "target", "redirect", "if_both_flee"),
        "shoot": ("unit", "target"), "cast": ("unit", "target"), "rally": ("unit",), "fight": ("unit",), "join": ("unit",),
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
        changed: dict[str, object] = {}
        for f in fields:
            name = getattr(action, f)
            if state.has_unit(name) and not state.unit(name).alive and (now := current(state, name).id) != name:
                changed[f] = now
        if action.do == "charge" and getattr(action, "fly") is None:
            changed["fly"] = self.flies_unless_declared(state, str(changed.get("unit", getattr(action, "unit"))))
        return cast("Act", action.model_copy(update=changed)) if changed else action

    @implements(FLY_RULE, "t9a.charge-out.own-rate")
    def flies_unless_declared(self, state: GameState, unit_id: str) -> bool:
        """Say whether a charge whose ``fly`` is not given is a Flying charge: the charger can fly (every model of a
        unit has Fly, or the character charging out has it). The 2022 text, Fly: "When declaring a Charge with a unit
        with Fly, you must declare if the unit will not use Flying Movement for the Charge Move": flying is the
        default, ``fly: false`` the declaration. Read once, before every ruling and resolution (``named_now``)."""
        if not state.has_unit(unit_id) or not state.unit(unit_id).alive:
            return False
        unit = state.unit(unit_id)
        return self.charge_rates(state, unit, bool(unit.joined), True) is not None

    def phase_rules(self, state: GameState, action: Act) -> tuple[str, ...]:
        """Cite the clause that ties an action to its phase: a charge's is the charge rule (a character's out of his
        unit, the seed's clause too)."""
        if action.do == "charge":
            name = cast("Charge", action).unit
            return charge_rules(state.unit(name)) if state.has_unit(name) else (CHARGE_RULE,)
        return {"join": ("t9a.join.move",), "leave": ("t9a.leave.when",)}.get(action.do, ())

    # -- scenario ------------------------------------------------------------------
    def counts_as_character(self, unit: Unit) -> bool:
        """Say whether a unit is a character: the Character rule makes one too (t9a.char.universal)."""
        return is_character(unit)

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
        """Say whether ``name`` is a missile weapon as the Shooting phase reads it (``bow``, ``bow S4``: S 0 to 10), or a
        Close Combat Weapon as melee reads it (``great weapon``)."""
        if name.strip().lower() in close_combat_weapons():
            return True
        weapon = missile_weapon(name)
        return weapon is not None and weapon[2] <= MAX_STRENGTH

    @implements("t9a.char.lone", "t9a.join.deploy", "t9a.char.front-rank")
    def validate_state(self, state: GameState, source: str) -> None:
        """Refuse a character unit of several models and a Front Rank model behind a first rank of others."""
        for u in state.units:
            if is_character(u) and u.joined is None and len(u.models) > 1:
                raise ScenarioError(source, f"units.{u.id}.models",
                                    "a character on its own is a unit of a single model [t9a.char.lone]")
            if u.joined is not None and not is_character(u):
                raise ScenarioError(source, f"units.{u.id}.joined", "only a character joins a unit [t9a.join.deploy]")
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

    def lent_leadership(self, state: GameState, unit_id: str) -> tuple[LeadershipSource, ...]:
        """Return the Leadership a unit may take instead of its own for a Discipline test (a hook): the General's within
        12" (published.t9a-general), which the turn's phases, above this module, work out.  Here: none."""
        return ()

    def charger_panic(self, state: GameState, unit_id: str, before: int, dice: Dice,
                      away_from: Point) -> tuple[GameState, list[Event]]:
        """Take the Panic test a charging unit may owe after Stand and Shoot casualties (a hook).

        The Panic test belongs to the shooting rules above this module (t9a_combat); the
        turn's Shooting phase mixin implements this hook, so the charge takes the test
        without importing them.  Here: no test.
        """
        return state, []

    @property
    def flees_from_charges(self) -> bool:
        """Say whether this ruleset has a flee move for the Flee Charge Reaction (a mixin overrides
        ``flee_from_charge``): without one it refuses the reaction."""
        return type(self).flee_from_charge is not NinthAge.flee_from_charge

    def flee_from_charge(self, state: GameState, unit_id: str, away_from: Point, dice: Dice) -> tuple[GameState, int]:
        """Flee a charged unit 2D6" straight away from its charger's centre; return the state and the distance (a hook).

        The flee move belongs to the turn's Panic and Melee mixins (``t9a_combat.flee``), which the
        charge rules do not import; the one that overrides it gives the ruleset the reaction (``flees_from_charges``).
        """
        raise IllegalActionError(f"{unit_id} has no flee move in ruleset {self.name}", (FLEE_REACTION,))

    def _redirect_candidates(self, state: GameState, charger: Unit, target: Unit,
                             viable: Sequence[Unit]) -> Iterator[Action]:
        """Propose a charge at ``target`` that Flees (named, or a unit already fleeing) with each redirect the charger
        could declare (published.t9a-redirect-charge: another unit it could charge), the new target reacting by
        default, and each other weapon that unit could Stand and Shoot with (``redirect_reaction_weapon``)."""
        from ..actions import Charge

        flees = {} if target.has(Status.FLEEING) else {"reaction": "flee"}  # a unit already fleeing Flees unasked
        for other in viable:
            if other.id == target.id:
                continue
            yield Charge.trusted(do="charge", unit=charger.id, target=target.id, **flees, redirect=other.id)
            if stands_and_shoots_unasked(other) and not other.has(Status.FLEEING) \
                    and stand_and_shoot_volley(state, other, charger, first=True).shooters:
                for choice in weapon_choices(state, other):
                    yield Charge.trusted(do="charge", unit=charger.id, target=target.id, **flees,
                                         redirect=other.id, redirect_reaction_weapon=choice)

    def end_turn(self, state: GameState) -> Resolution:
        """End the player turn: Shaken from a failed charge out lasts until now, and so do a Stand and Shoot's
        once per player turn (published.t9a-stand-and-shoot) and a Flee's (published.t9a-flee-reaction), on either side."""
        cleared = tuple(u.with_status(remove=(Status.SHAKEN, Status.STOOD_AND_SHOT, Status.FLED_FROM_CHARGE))
                        for u in state.units)
        return super().end_turn(replace(state, units=cleared))

    # -- listing -----------------------------------------------------------------
    def candidate_actions(self, state: GameState) -> Iterable[Action]:
        """Propose joins, leaves, moves and charges for the active side, then ending the phase."""
        from ..actions import Charge, EndPhase, Join, Leave, Move

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
            if state.phase in (Phase.MOVEMENT, Phase.DEPLOYMENT) and is_character(u) and u.joined is None \
                    and not state.joined_to(u.id):  # a character in a unit (leading one of characters) leaves first
                for host in mine:
                    f = formation_of(host)
                    if host.id == u.id or host.joined or f is None:
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
            if u.joined and u.models and state.phase is Phase.MOVEMENT:  # in the Charge phase: the charge out
                m = u.models[0]
                t = math.radians(m.facing)
                step = float(advance_rate(u))
                yield Leave.trusted(do="leave", character=u.id, to=(m.at[0] - math.sin(t) * step, m.at[1] + math.cos(t) * step))
        yield EndPhase.trusted(do="end_phase")

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
            after = self._joined(state, plan)[0]
            if problem := movement.overlap_problem(state, after):
                return Ruling.forbid(problem, "published.bases-apart")
        where = f"file {plan.formation.front_rank().index(plan.character.models[0].name)} of the first rank"
        if state.phase is Phase.DEPLOYMENT:
            return Ruling.allow(f"{plan.character.id} is deployed as part of {plan.host.id} ({where})",
                                "t9a.join.deploy", "t9a.join.position", "t9a.char.front-rank")
        note = "it counts as having marched; the unit does not" if plan.moved > plan.advance + EPSILON else \
            "it counts as having moved; the unit does not"
        gone = _no_longer(plan)
        return Ruling.allow(
            f"{plan.character.id} joins {plan.host.id}, moving {plan.moved:.2f}\" of its {plan.march}\" "
            f"(file {plan.formation.front_rank().index(plan.character.models[0].name)} of the first rank)",
            "t9a.join.move", "t9a.join.position", "t9a.char.front-rank", *_rank_choice_rules(plan),
            *((FLY_RULE,) if action.fly else ()),
            *(("t9a.combined.last-survivor",) if gone or plan.host.last_of else ()),
            notes=(note, "the unit cannot move again this Movement phase [t9a.join.unit-stops]",
                   *((gone,) if gone else ())))

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

    @implements("t9a.join.move", "t9a.join.forbidden", "t9a.join.character-units", "t9a.join.position")
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
        if ch.joined is not None:
            return _refuse(f"{ch.id} is already part of {ch.joined}; it must leave it first", "t9a.join.part-of-unit")
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
                return _refuse(f"{ch.id} is {s.value.replace('_', ' ')} and cannot move to join", "t9a.join.forbidden")
        if shaken := shaken_refusal(state, ch, "join a unit (a join is its Advance or March move)", False):
            return _refuse(shaken.reason, "t9a.join.move", *shaken.rules)
        if any(ch.has(s) for s in MOVED):
            said, rally = why_moved(ch, f"{ch.id} has already moved this turn")
            return _refuse(said, "t9a.join.move", *rally)
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
        """Work out a join or refuse it: who may join whom, where the character stands, and whether it can reach."""
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
            problem = state.remember(("t9a join spacing", basis.group, model.base, shape), lambda: spacing_problem(
                state, [(m, points[m.name]) for m in basis.models], set(basis.group), new.facing))
            in_slots = basis.fits
        else:
            placed = [(m, points[m.name]) for m in basis.models if m.name in points]
            problem = spacing_problem(state, placed, set(basis.group), new.facing)
            slot_w, slot_d = new.slot_mm
            in_slots = len(placed) == basis.names + 1 == len(new.order) == len(set(new.order)) and all(
                m.base.width_mm <= slot_w and m.base.depth_mm <= slot_d for m, _ in placed)
        if problem:
            raise _refuse(f"{ch.id} cannot join {host.id} in file {file}: the unit {problem}", "t9a.join.position",
                          SPACING_RULE)
        if off := table_edge_problem(state, [(m, points[m.name]) for m in basis.models if m.name in points]):
            raise _refuse(f"{ch.id} cannot join {host.id} in file {file}: {off}", "t9a.join.position",
                          "published.t9a-move")
        if state.phase is Phase.DEPLOYMENT:  # placed in the unit, not moved (t9a.join.deploy)
            return JoinPlan(host, ch, new, 0.0, basis.advance, basis.march, in_slots)
        own = set(basis.group)
        legs = [(model.at, action.to), (action.to, slot)] if action.to is not None else [(model.at, slot)]
        for a, b in legs:
            problem = path_problem(state, [(model.moved_to(a), b)], own, action.fly)
            if problem:
                raise _refuse(f"{ch.id} cannot join that way: {problem} (it moves through the unit it joins, and "
                              "no other)", "t9a.join.position", "published.t9a-move",
                              *((FLY_RULE,) if action.fly else ()))
        if moved > march + EPSILON:
            raise _refuse(f"{ch.id} would move {moved:.2f}\" to reach file {file} of {host.id}'s first rank, "
                          f"more than its {'flying ' if action.fly else ''}March Rate {march}\"; it cannot join there",
                          "t9a.join.position", *((FLY_RULE,) if action.fly else ()))
        return JoinPlan(host, ch, new, moved, advance, march, in_slots)

    @places_as_ruled
    def resolve_join(self, state: GameState, action: Join, dice: Dice) -> Resolution:
        """Join: the character takes its slot, the unit stops, each counts as moved (or marched) separately."""
        new, events = self._joined(state, self.plan_join(state, action))
        if action.fly and state.phase is not Phase.DEPLOYMENT:  # by a Flying Movement (published.t9a-fly)
            events = [e._replace(message=f"{e.message} (a Flying Movement)", rules=(*e.rules, FLY_RULE))
                      for e in events]
        return new, events

    @implements("t9a.join.unit-stops", "t9a.join.moved-separately", "t9a.join.part-of-unit", "t9a.join.deploy",
                "t9a.combined.last-survivor")
    def _joined(self, state: GameState, plan: JoinPlan) -> Resolution:
        """Carry out a planned join (no dice decide it)."""
        if state.phase is Phase.DEPLOYMENT:
            ch = replace(plan.character, joined=plan.host.id, formation=None)
            new = arrange(state.replace_units(ch, replace(plan.host, formation=plan.formation)), plan.host.id)
            return new, [Event("join", f"{ch.id} is deployed as part of {plan.host.id}, in its first rank",
                               ("t9a.join.deploy", "t9a.join.position", "t9a.char.front-rank"))]
        marched = plan.moved > plan.advance + EPSILON
        ch = plan.character.with_status(Status.MOVED, *((Status.MARCHED,) if marched else ()))
        # a last survivor that joins another unit is part of it, no longer the destroyed unit (t9a.combined.last-survivor)
        ch = replace(ch, joined=plan.host.id, formation=None, last_of=None)
        host = replace(plan.host, formation=plan.formation).with_status(Status.HALTED)
        new = arrange(state.replace_units(ch, host), host.id)
        msg = (f"{ch.id} joins {host.id} in the first rank ({'marched' if marched else 'moved'} "
               f"{plan.moved:.2f}\"); {host.id} cannot move again this phase")
        gone = _no_longer(plan)
        return new, [Event("join", msg + (f"; {gone}" if gone else ""), (
            "t9a.join.move", "t9a.join.position", "t9a.join.unit-stops", "t9a.join.moved-separately",
            *_rank_choice_rules(plan), *(("t9a.combined.last-survivor",) if gone or plan.host.last_of else ())))]

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
            resolved = self._without_dice(state, action)
            if resolved is not None and (problem := movement.overlap_problem(state, resolved[0])):
                return Ruling.forbid(problem, "published.bases-apart")
        return Ruling.allow(f"{plan.character.id} leaves {plan.host.id}, moving {plan.moved:.2f}\"",
                            "t9a.leave.when", "t9a.leave.move",
                            notes=(f"{plan.host.id} does not count as having moved [t9a.leave.unit-not-moved]",))

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
        for s in BUSY:
            if ch.has(s) or host.has(s):
                raise _refuse(f"{ch.id} is {s.value.replace('_', ' ')} and cannot move", "t9a.leave.when")
        if shaken := shaken_refusal(state, ch, "leave its unit (a leave is its Advance or March move)", False):
            raise _refuse(shaken.reason, "t9a.leave.when", *shaken.rules)
        if any(ch.has(s) for s in MOVED):
            said, rally = why_moved(ch, f"{ch.id} has already moved this turn" + (
                " (it charged, out of its unit or with it)" if ch.has(Status.CHARGED) else ""))
            raise _refuse(said, "t9a.leave.when", *rally)
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
                if m.name != model.name and overlaps(end, m.placed, 0.02):
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
        marched = plan.moved > plan.advance + EPSILON
        new = detach(state, plan.character, action.to, (Status.MOVED, *((Status.MARCHED,) if marched else ())))
        ch = plan.character
        return new, [Event("leave", f"{ch.id} leaves {plan.host.id} ({plan.moved:.2f}\"); {plan.host.id} has not moved",
                           ("t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved"))]

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
            resolved = self._without_dice(state, action)
            if resolved is not None and (problem := movement.overlap_problem(state, resolved[0])):
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
            return Ruling.forbid(f"a character joined {unit.id} this phase: it cannot move again",
                                 "t9a.join.unit-stops")
        if any(u.has(s) for u in state.combined(unit.id) for s in (*MOVED, *BUSY)):
            said, rally = why_moved(unit, f"{unit.id} has moved or charged already this turn, or cannot move (engaged "
                                    "or fleeing)")
            return Ruling.forbid(said, "published.t9a-move", *rally)
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
        return Ruling.allow(f"{unit.id} moves {dist:.2f}\" of its {rate}\" ({kind} Rate){turn}", *rules,
                            "published.t9a-move", SPACING_RULE)

    @places_as_ruled
    def resolve_move(self, state: GameState, action: Move, dice: Dice) -> Resolution:
        """Move a unit (wheeling first if asked), with the characters that are part of it."""
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
            said, rally = why_moved(unit, f"{unit.id} has moved already or cannot move this phase")
            return Ruling.forbid(said, "published.t9a-reform", *rally,
                                 *(("t9a.join.unit-stops",) if unit.has(Status.HALTED) else ()))
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

    # -- charging ---------------------------------------------------------------
    @implements(CHARGE_RULE, CHARGE_OUT_RULE, "t9a.charge-out.no-other-charges", "t9a.join.part-of-unit")
    def rule_charge(self, state: GameState, action: Charge) -> Ruling:
        """Rule on declaring a charge, by a unit or by a character out of its unit, and on the reaction named.

        The declaration does not depend on the reaction: it is worked out once per state for the
        charge with or without one (listing legal actions offers the Hold beside the default).
        """
        key = (type(self), "rule_charge", action.unit, action.target, action.wheel, action.fly)
        declared = state.remember(key, lambda: self._charge_declared(state, action))
        if not declared.legal:
            return declared
        if action.redirect is None and action.redirect_reaction_weapon is not None:
            return Ruling.forbid(f"{REDIRECT_WEAPON}: no redirect is named, so no redirect's unit Stands and Shoots",
                                 SHOOTING_WEAPONS, REDIRECT)
        if action.reaction is None:
            if self._must_flee(state.unit(action.target)):
                if action.reaction_weapon is not None:
                    return self._no_volley(REACTION_WEAPON, f"{action.target} is fleeing, so it Flees")
                ruling = Ruling.allow(f"{declared.reason}; {action.target} is fleeing, so it Flees (a unit already "
                                      "fleeing must)", *declared.rules, CHARGE_REACTIONS, FLEE_REACTION,
                                      notes=declared.notes)
                return ruling if action.redirect is None else self._with_redirect(state, action, ruling)
            if action.redirect is not None:
                return self._redirect_problem(state, action)
            default = self._default_volley(state, action, state.unit(action.unit), state.unit(action.target),
                                           REACTION_WEAPON)
            if default is None:
                return declared
            if not default.legal:
                return default
            return Ruling.allow(declared.reason, *declared.rules, *default.rules,
                                notes=(*declared.notes, *default.notes))
        reaction = self._reaction_problem(state, action, state.unit(action.unit), state.unit(action.target))
        if not reaction.legal:
            return reaction
        ruling = Ruling.allow(f"{declared.reason}; {reaction.reason}", *declared.rules, *reaction.rules,
                              notes=(*declared.notes, *reaction.notes))
        return ruling if action.redirect is None else self._with_redirect(state, action, ruling)

    @staticmethod
    @implements(SHOOTING_WEAPONS, CHARGE_REACTIONS)
    def _no_volley(field: str, why: str) -> Ruling:
        """Refuse a weapon chosen for a Stand and Shoot that the charged unit will not take (naming the field)."""
        return Ruling.forbid(f"{field}: {why} and fires no weapon (only a Stand and Shoot does)", SHOOTING_WEAPONS,
                             CHARGE_REACTIONS, STAND_AND_SHOOT)

    @implements(SHOOTING_WEAPONS, STAND_AND_SHOOT)
    def _default_volley(self, state: GameState, action: Charge, charger: Unit, target: Unit,
                        field: str) -> Ruling | None:
        """Rule on the weapons of the default Charge Reaction (Stand and Shoot when it may be taken, else Hold):
        None when there is nothing to say (no weapon chosen, no model of the charged unit with several), a refusal
        of a weapon chosen where no Stand and Shoot is taken or that cannot be, else which weapons it will use."""
        chosen = action.reaction_weapon
        if chosen is None and not (stands_and_shoots_unasked(target) and several_weapons(state, target)):
            return None  # the common charge: nothing to look at
        if not stands_and_shoots_unasked(target):
            return self._no_volley(field, f"{target.id} Holds (its rules do not list Stand and Shoot)")
        volley = stand_and_shoot_volley(state, target, charger, first=True,
                                        advance=self._flying_advance(state, charger, action))
        if not volley.shooters:
            if chosen is None:
                return None
            why = volley.said.split(" [")[0].split("cannot Stand and Shoot: ", 1)[-1]
            return self._no_volley(field, f"{target.id} Holds ({why})")
        if problem := weapon_choice_problem(state, target, chosen, field):
            return Ruling.forbid(problem, SHOOTING_WEAPONS, STAND_AND_SHOOT)
        notes = tuple(weapons_said(state, target, chosen, "will stand and shoot with", field.split(".")[-1]))
        return Ruling.allow("", *((SHOOTING_WEAPONS,) if notes else ()), notes=notes)

    def _with_redirect(self, state: GameState, action: Charge, ruling: Ruling) -> Ruling:
        """Add the redirect a charge names to its ruling, or refuse the charge for it."""
        problem = self._redirect_problem(state, action)
        if not problem.legal:
            return problem
        return Ruling.allow(f"{ruling.reason}; {problem.reason}", *ruling.rules, *problem.rules,
                            notes=(*ruling.notes, *problem.notes))

    @implements(REDIRECT)
    def _redirect_problem(self, state: GameState, action: Charge) -> Ruling:
        """Rule on the redirect a charge names: only after its target Flees, at another unit the charger could charge
        (as the charge was declared: published.t9a-charge, before the flee), Holding or Standing and Shooting."""
        assert action.redirect is not None
        flees = action.reaction == "flee" or (action.reaction is None and self._must_flee(state.unit(action.target)))
        if not flees:
            return Ruling.forbid(f"{action.unit} may redirect its charge only when {action.target} Flees (name "
                                 "reaction flee)", REDIRECT, CHARGE_REACTIONS)
        if action.redirect == action.target:
            return Ruling.forbid(f"a charge is redirected to another unit, not to {action.target} again", REDIRECT)
        if action.wheel is not None:
            return Ruling.forbid("a charge that may be redirected goes straight in: declare no wheel with a redirect",
                                 REDIRECT, WHEEL_RULE)
        new = state.unit(action.redirect)
        second = _redirected(action, action.redirect_reaction)
        key = (type(self), "rule_charge", action.unit, new.id, None, action.fly)
        declared = state.remember(key, lambda: self._charge_declared(state, second))
        if not declared.legal:
            return Ruling.forbid(f"{action.unit} could not redirect its charge to {new.id}: {declared.reason}",
                                 REDIRECT, *declared.rules)
        said = "its default Charge Reaction"
        rules: tuple[str, ...] = ()
        notes: tuple[str, ...] = ()
        if action.redirect_reaction is not None:
            reaction = self._reaction_problem(state, second, state.unit(action.unit), new, REDIRECT_WEAPON)
            if not reaction.legal:
                return Ruling.forbid(f"the redirected charge: {reaction.reason}", REDIRECT, *reaction.rules)
            said, rules, notes = reaction.reason, reaction.rules, reaction.notes
        elif self._must_flee(new):
            if action.redirect_reaction_weapon is not None:
                return self._no_volley(REDIRECT_WEAPON, f"{new.id} is fleeing, so it Flees")
            said, rules = f"{new.id} is fleeing, so it Flees", (CHARGE_REACTIONS, FLEE_REACTION)
        elif (default := self._default_volley(state, second, state.unit(action.unit), new, REDIRECT_WEAPON)) \
                is not None:
            if not default.legal:
                return Ruling.forbid(f"the redirected charge: {default.reason}", REDIRECT, *default.rules)
            rules, notes = default.rules, default.notes
        both = self._both_flee_problem(action, new)
        if isinstance(both, Ruling):
            return both
        return Ruling.allow(f"if {action.target} Flees, {action.unit} takes a Discipline test to redirect its charge "
                            f"to {new.id} ({said}){both}", REDIRECT, *rules, notes=notes)

    def _both_flee_problem(self, action: Charge, new: Unit) -> Ruling | str:
        """Rule on ``if_both_flee``, the target a charger picks when its redirect's unit Flees too (either target,
        published.t9a-redirect-charge): return what the ruling says of it, or the refusal."""
        flees = self._flees(action.redirect_reaction, new)
        chosen = action.if_both_flee
        if chosen is not None and not flees:
            return Ruling.forbid(f"if_both_flee picks a target only when {new.id} Flees too (name redirect_reaction "
                                 "flee)", REDIRECT)
        if chosen is not None and chosen not in (action.target, new.id):
            return Ruling.forbid(f"if both flee, {action.unit} may charge either target, {action.target} or {new.id},"
                                 f" not {chosen}", REDIRECT)
        if not flees:
            return ""
        return f"; if {new.id} Flees too, {action.unit} charges {chosen or new.id} (either target, named before its " \
               "Charge Range roll)"

    @implements(REDIRECT, BATTLE_STANDARD, GENERAL_RULE_ID)
    def _redirect(self, state: GameState, action: Charge, charger: Unit, fled: Unit,
                  dice: Dice) -> tuple[Unit | None, Event]:
        """Take the Discipline test to redirect a charge whose target fled; return the new target (None: the charge
        goes on at the unit that fled) and what happened.

        The redirect was ruled as the charge was declared; after the flee the new charge must still be one the
        charger could declare (the fled unit may now stand in its way): if not, no test is taken.
        """
        assert action.redirect is not None
        start = len(dice.log)
        new = state.unit(action.redirect)
        second = _redirected(action, None)
        again = self._charge_declared(state, second)
        if not again.legal:
            return None, Event("redirect", f"{charger.id} cannot redirect its charge to {new.id} after {fled.id} fled "
                               f"({again.reason}): it charges {fled.id} still", (REDIRECT, *again.rules), (),
                               (("outcome", "no_redirect"),))
        if charger.joined:  # a character charging out tests on his own Discipline
            model = charger.models[0]
            ld = self.unit_leadership([LeadershipSource(model.name, model.profile.ld, True)])
        else:
            ld = self.leadership_of(state, charger.id)
        lent = self.lent_leadership(state, charger.id)  # the General's, within 12" (a Discipline test like any)
        if lent and max(s.leadership for s in lent) > ld.value:
            best = max(lent, key=lambda s: s.leadership)
            ld = LeadershipRuling(best.leadership, GENERAL_RULE_ID, f"{best.name}, the General within 12\"")
        # a Discipline test like any other: re-rolled once on a failure within the Battle Standard Bearer's reach
        result, flag = discipline_test(state, charger.id, dice, ld.value, LeadershipTestKind.LEADERSHIP)
        test = f"{charger.id} takes a Discipline test to redirect its charge (Ld {ld.value}, {ld.source}): {result.roll}"
        if flag:
            test += f" ({flag.split(' [')[0]})"
        rules = (REDIRECT, result.rule, ld.rule, *((BATTLE_STANDARD,) if flag else ()))
        if not result.passed:
            return None, Event("redirect", f"{test}, failed: it charges {fled.id} still", rules,
                               tuple(dice.log[start:]), (("outcome", "failed"),))
        return new, Event("redirect", f"{test}, passed: it charges {new.id} instead", (*rules, CHARGE_RULE),
                          tuple(dice.log[start:]), (("outcome", "redirected"),))

    @implements(REDIRECT, FLEE_REACTION)
    def _both_flee(self, state: GameState, action: Charge, charger: Unit, second: Unit,
                   dice: Dice) -> tuple[GameState, Unit, list[Event]]:
        """Flee the redirect's unit too (its Flee Charge Reaction, its flee move rolled through the Dice); the charger
        then charges either target, as ``if_both_flee`` named it before the Charge Range roll (none: the redirect's).
        Return the state, the unit charged as it now stands, and the events."""
        state, second, fled = self._flee_reaction(state, charger, second, dice)
        chosen = action.if_both_flee if action.if_both_flee is not None else second.id
        which = "first_target" if chosen == action.target else "second_target"
        target = state.unit(chosen)
        said = Event("charge_choice", f"{second.id} Flees too: {charger.id} charges {chosen}, "
                     f"{'its first target' if which == 'first_target' else 'the unit it redirected to'} (either target, "
                     "its player's choice, named before the Charge Range roll)", (REDIRECT,), (),
                     (("outcome", which),))
        return state, target, [fled, said]

    def _charge_declared(self, state: GameState, action: Charge) -> Ruling:
        named = state.unit(action.unit)  # a destroyed combined unit named is its last survivor (named_now)
        target = state.unit(action.target)
        decl = charge_rules(named)  # the general charge rule; a character charging out, the seed's clause too
        if not named.alive:
            return no_models_left(named, *decl)
        if target.side == named.side or not target.alive:
            return Ruling.forbid(f"{target.id} is not a living enemy unit", *decl)
        if target.joined:
            return Ruling.forbid(f"{target.id} is part of {target.joined}: the unit is charged, not its character alone",
                                 "t9a.join.part-of-unit", *decl)
        unit = named
        host = host_of(state, unit)
        if unit.has(Status.NO_CHARGE) or (unit.joined and host.has(Status.CHARGED)):
            return Ruling.forbid(f"a character charged out of {host.id} (or the unit charged) this turn: "
                                 f"{unit.id} cannot declare a charge", "t9a.charge-out.no-other-charges")
        if not combined_status(state, unit).isdisjoint(BUSY) or any(unit.has(s) for s in MOVED):
            return Ruling.forbid(f"{unit.id} cannot charge: {_why_busy(state, unit)}", *decl,
                                 *((RALLY_RULE,) if rallied(host_of(state, unit)) else ()))
        if not unit.joined and state.joined_to(unit.id) and any(c.has(Status.CHARGED) for c in state.joined_to(unit.id)):
            return Ruling.forbid(f"a character charged out of {unit.id} this turn", "t9a.charge-out.no-other-charges")
        if shaken := shaken_refusal(state, unit, "declare a charge", whole_unit=not unit.joined):
            return shaken
        out = bool(unit.joined)
        if not in_front_arc(unit, target):
            return Ruling.forbid(f"{target.id} is not in {unit.id}'s Front Arc", *decl,
                                 "published.t9a-charge-arc")
        seeing = unit.placed if out else sight_all(state, unit)  # with its characters; rear ranks from the first
        if not unit_line_of_sight(seeing, placed_all(state, target), state.terrain):
            return Ruling.forbid(f"{unit.id} has no line of sight to {target.id}", *decl,
                                 "published.line-of-sight", "t9a.join.part-of-unit")
        rates = self.charge_rates(state, unit, out, bool(action.fly))
        if rates is None:
            return Ruling.forbid(f"{unit.id} has no Fly special rule: it cannot charge with Flying Movement" if out else
                                 f"not every model of {unit.id} has Fly: it cannot charge with Flying Movement",
                                 *decl, FLY_RULE)
        adv = rates[0]
        own = {unit.id} if out else {u.id for u in state.combined(unit.id)}
        if out:
            own.add(host.id)
            own.update(c.id for c in state.joined_to(host.id))
        arc, way = 0.0, state
        if action.wheel is not None:
            if out:
                return Ruling.forbid(f"{unit.id} charges out on its own base, straight in: a wheel is a unit's",
                                     WHEEL_RULE, *decl)
            f = formation_of(unit)
            if f is None:
                return Ruling.forbid(f"{unit.id} has no ranks and files to wheel", WHEEL_RULE)
            arc = f.wheel_distance(action.wheel)
            problem = None if action.fly else wheel_problem(state, unit, action.wheel, own, frozenset({target.id}))
            if problem:
                return Ruling.forbid(f"{unit.id} cannot wheel {action.wheel:g} degrees towards {target.id}: {problem}",
                                     WHEEL_RULE, *decl)
            way = wheeled(state, unit, action.wheel)
        charger = way.unit(unit.id)
        models = contact_models(way, charger, out)
        placed = [m.placed for m in models]  # the charger's own models first
        slack = footprint_slack(placed, target.placed)  # rows charge_contact may move along, not only the nearest
        rows = nearest_in_rows(placed[:len(charger.models)], target.placed, slack=slack)
        nearest = min(row[0] for row in rows if row is not None)  # group_distance(charger.placed, target.placed)
        gap = arc + nearest
        if gap > adv + MAX_CHARGE_BONUS + EPSILON:
            return Ruling.forbid(f"{target.id} is {gap:.2f}\" away{' with the wheel' if arc else ''}, beyond "
                                 f"{unit.id}'s greatest Charge Range ({adv}\" + 12\")", *decl,
                                 *((WHEEL_RULE,) if arc else ()))
        if len(placed) > len(rows):  # its characters: only one nearer than the unit's nearest can lead the move
            rows += nearest_in_rows(placed[len(rows):], target.placed, nearest, slack)
        pairs = contact_pairs(placed, target.placed, rows, slack)
        problem = None
        if action.fly or not charge_way_clear(way, placed, pairs, own, target.id, slack):
            _, _, movers = contact_move(models, pairs)
            touched = frozenset({target.id}) if slack <= CONTACT_OVERLAP_SLACK else frozenset()
            problem = path_problem(way, movers, own, bool(action.fly), frozenset({target.id}), touched)
        if problem:
            return Ruling.forbid(f"{unit.id} has no clear way to {target.id}: {problem}", *decl,
                                 "published.t9a-move", *((FLY_RULE,) if action.fly else ()))
        rules: tuple[str, ...] = (*decl, "t9a.charge-out.own-rate") if out else decl
        if action.fly:  # a character charging out flies as he may when leaving (t9a.leave.move)
            rules += (FLY_RULE, *(("t9a.leave.move",) if out else ()))
        if unit.last_of or target.last_of:
            rules += ("t9a.combined.last-survivor",)
        who = f"{unit.id} charges out of {unit.joined}" if out else f"{unit.id} charges"
        if arc:
            rules += (WHEEL_RULE,)
            who += f", wheeling {action.wheel:g} degrees ({arc:.2f}\" of the move),"
        return Ruling.allow(f"{who} at {target.id}, {gap:.2f}\" away, in its Front Arc and sight (Charge Range "
                            f"{adv}\" + 2D6{', flying' if action.fly else ''})", *rules, "published.t9a-charge-arc")

    @implements(CHARGE_REACTIONS, STAND_AND_SHOOT, FLEE_REACTION, SHOOTING_WEAPONS)
    def _reaction_problem(self, state: GameState, action: Charge, charger: Unit, target: Unit,
                          field: str = REACTION_WEAPON) -> Ruling:
        """Rule on the Charge Reaction the charged unit's player chose.

        Hold may always be chosen by a unit not fleeing; Stand and Shoot when the published rule allows it
        (``stand_and_shoot_volley``: a unit that can shoot at the charger); Flee by a unit not
        engaged in combat, and it is the only reaction of a unit already fleeing (published.t9a-flee-reaction).
        A Stand and Shoot's weapon is chosen as a shot's (``action.reaction_weapon``, named ``field``;
        published.t9a-shooting-weapons); it is refused with any other reaction.
        """
        if action.reaction in ("flee", "hold") and action.reaction_weapon is not None:
            return self._no_volley(field, f"{target.id} {'Flees' if action.reaction == 'flee' else 'Holds'}")
        if action.reaction == "flee":
            return self._flee_problem(state, target)
        if self._must_flee(target):
            return Ruling.forbid(f"{target.id} is fleeing: a unit already fleeing must Flee (name reaction flee, or "
                                 "none)", CHARGE_REACTIONS, FLEE_REACTION)
        if action.reaction == "hold":
            return Ruling.allow(f"{target.id} holds (its player's Charge Reaction)", CHARGE_REACTIONS)
        # named, Stand and Shoot is open to any unit that can shoot at the charger (published.t9a-stand-and-shoot):
        # the rule "Stand and Shoot" on a unit only makes it the reaction its player takes unasked
        if problem := weapon_choice_problem(state, target, action.reaction_weapon, field):
            return Ruling.forbid(problem, SHOOTING_WEAPONS, STAND_AND_SHOOT)
        volley = stand_and_shoot_volley(state, target, charger, choice=action.reaction_weapon,
                                        advance=self._flying_advance(state, charger, action))
        if not volley.shooters:
            return Ruling.forbid(volley.said.split(" [")[0] + " (it may Hold)", CHARGE_REACTIONS, STAND_AND_SHOOT,
                                 *((WHO_CAN_SHOOT,) if WHO_CAN_SHOOT in volley.said else ()))
        notes = tuple(weapons_said(state, target, action.reaction_weapon, "will stand and shoot with",
                                   field.split(".")[-1]))
        return Ruling.allow(f"{target.id} will Stand and Shoot (its player's Charge Reaction)", CHARGE_REACTIONS,
                            STAND_AND_SHOOT, *((SHOOTING_WEAPONS,) if notes else ()), notes=notes)

    @implements(FLEE_REACTION)
    def _flee_reaction(self, state: GameState, charger: Unit, target: Unit, dice: Dice) -> tuple[GameState, Unit, Event]:
        """Flee the charged unit from its charger (once per phase: a unit that fled from a charge already stays put).

        Return the state, the charged unit as it now stands (no models: it fled off the table) and the flee's event.
        """
        start = len(dice.log)
        if target.has(Status.FLED_FROM_CHARGE):
            return state, target, Event("flee", f"{target.id} fled from a charge this phase already: it Flees, but "
                                        "makes no second flee move", (CHARGE_REACTIONS, FLEE_REACTION), (),
                                        (("outcome", "stayed"),))
        state, dist = self.flee_from_charge(state, target.id, front_centre(charger), dice)
        now = state.unit(target.id)
        gone = not now.alive
        if not gone:
            state = state.replace_units(*(u.with_status(Status.FLED_FROM_CHARGE) for u in state.combined(target.id)))
            now = state.unit(target.id)
        said = f"{target.id} flees {dist}\" from {charger.id}'s charge (its player's Charge Reaction)"
        if not gone and (moved := math.dist(target.models[0].at, now.models[0].at)) > dist + EPSILON:
            said += f", carried on to {moved:.2f}\" to end clear of the units in its way"
        return state, now, Event("flee", said + (", off the table: destroyed" if gone else ""),
                                 (CHARGE_REACTIONS, FLEE_REACTION, "published.t9a-flee"), tuple(dice.log[start:]),
                                 (("outcome", "destroyed" if gone else "fled"),))

    @implements(FLEE_REACTION, "t9a.charge-out.success")
    def _caught(self, state: GameState, way: GameState, unit: Unit, target: Unit, out: bool,
                fly: bool = False) -> tuple[GameState, str]:
        """Destroy a fled unit the charge reached; the charger makes its Charge Move into contact where it fled to.

        ``way`` is the state after the charge's wheel.  The move goes straight, as every charge's,
        and only if its way is clear and its end stands on no model (the ruling measured the way to
        where the unit stood, not to where it fled); otherwise the charger stays where it stood (a
        character charging out: in his unit).  Return the state and what the charger did.
        """
        gone = [m.name for u in state.combined(target.id) for m in u.models]
        dx, dy, movers = charge_contact(way, way.unit(unit.id), target, out)
        host = host_of(state, unit)
        own = {unit.id, host.id, *(c.id for c in state.joined_to(host.id))} if out else \
            {u.id for u in state.combined(unit.id)}
        moved: GameState | None = None
        if not path_problem(way, movers, own, fly, frozenset({target.id})):
            model = unit.models[0]
            moved = detach(state, unit, (model.at[0] + dx, model.at[1] + dy)) if out else \
                shift_unit(way, way.unit(unit.id), dx, dy)
            moved = remove_casualties(moved, target.id, gone)
            if movement.overlap_problem(state, moved):
                moved = None
        if moved is None:
            stayed = remove_casualties(state, target.id, gone)
            return stayed.replace_units(*(u.with_status(Status.CHARGED) for u in [
                stayed.unit(unit.id), *charged_with(stayed, unit.id, out)])), (
                f"stays {'in ' + host.id if out else 'where it stood'}: its Charge Move to where {target.id} fled "
                "is not clear")
        moved = moved.replace_units(moved.unit(unit.id).with_status(Status.CHARGED), *charged_with(moved, unit.id, out))
        return moved, ("moves out of " + host.id + " " if out else "moves ") + \
            f"{math.hypot(dx, dy):.2f}\" to where it caught {target.id}"

    def _flying_advance(self, state: GameState, charger: Unit, action: Charge) -> int | None:
        """Return a Flying charge's flying Advance Rate, which stands for the charger's Advance Rate where a Stand and
        Shoot measures it (published.t9a-fly); None for a charge on the ground."""
        if not action.fly:
            return None
        rates = self.charge_rates(state, charger, bool(charger.joined), True)
        return rates[0] if rates is not None else None

    @staticmethod
    @implements(FLY_RULE, FAILED_CHARGE)
    def _flown_short(state: GameState, unit: Unit, out: bool, ux: float, uy: float, step: float) -> float:
        """Return how far a Flying Failed Charge move goes along (ux, uy): ``step``, or less where its end would stand
        on a model of another unit or in Impassable Terrain (a Flying Movement passes over them, never ends on them)."""
        host = host_of(state, unit)
        own = {unit.id, host.id, *(c.id for c in state.joined_to(host.id))} if out else \
            {u.id for u in state.combined(unit.id)}
        movers = [m for m in unit.models] if out else [m for _, m in member_models(state, unit)]
        while step > 0:
            ends = [(m, (m.at[0] + ux * step, m.at[1] + uy * step)) for m in movers]
            if not path_problem(state, ends, own, True) and not spacing_problem(state, ends, own):
                return step  # back to its last legal place, Unit Spacing kept (published.t9a-fly)
            step = max(0.0, step - 0.1)
        return 0.0

    @staticmethod
    @implements("t9a.charge-out.own-rate", FLY_RULE, "t9a.leave.move")
    def charge_rates(state: GameState, unit: Unit, out: bool, fly: bool) -> tuple[int, int] | None:
        """Return the Advance and March Rates a charge uses, or None for a Flying charge the charger cannot make.

        A character charging out of his unit uses his own (t9a.charge-out.own-rate), flying by his own Fly as he may
        when he leaves (t9a.leave.move); a unit, its slowest model's, flying only when every model has Fly
        (published.t9a-fly).
        """
        if out:
            return fly_rates(unit) if fly else (advance_rate(unit), march_rate(unit))
        return unit_rates(state, unit, fly)

    @implements(SWIFTSTRIDE, "t9a.charge-out.own-rate", "t9a.join.part-of-unit")
    def swiftstride(self, state: GameState, unit: Unit, out: bool) -> tuple[bool, str]:
        """Say whether a charger rolls its Charge Range with Swiftstride, and why when that is not plain ("").

        A unit has Swiftstride only when every model in it has it (published.t9a-swiftstride), its joined characters
        too: one without it takes it from the combined unit.  A character charging out of a unit has his own, or may
        use the unit's as a charge bonus that applied to the unit he leaves (t9a.charge-out.own-rate).
        """
        key = rule_key("Swiftstride")
        if out:
            if key in self.effective_rules(state, unit.id):
                return True, ""
            host = host_of(state, unit)
            if any(rule_key(r) in self.effective_rules(state, host.id) for r in CHARGE_BONUS_RULES):
                return True, (f"{unit.id} charges with {host.id}'s Swiftstride, a charge bonus of the unit it leaves "
                              f"[t9a.charge-out.own-rate]")
            return False, ""
        members = state.combined(unit.id)
        lacking = [u.id for u in members if key not in self.effective_rules(state, u.id)]
        if not lacking:
            return True, ""
        if len(lacking) < len(members):
            return False, (f"{', '.join(lacking)} lacks Swiftstride, so {unit.id} rolls no extra charge die: a unit "
                           f"has it only when every model in it has it [{SWIFTSTRIDE}]")
        return False, ""

    def _must_flee(self, target: Unit) -> bool:
        """Say whether the charged unit's only Charge Reaction is Flee: it is fleeing already (and this ruleset flees)."""
        return self.flees_from_charges and target.has(Status.FLEEING)

    def _flees(self, reaction: str | None, target: Unit) -> bool:
        """Say whether the charged unit Flees: its player named Flee, or named nothing and it is fleeing already."""
        return reaction == "flee" or (reaction is None and self._must_flee(target))

    @implements(CHARGE_REACTIONS, FLEE_REACTION)
    def _flee_problem(self, state: GameState, target: Unit) -> Ruling:
        """Rule on a Flee Charge Reaction: not by a unit engaged in combat (it may only Hold), nor where no flee move is."""
        if not self.flees_from_charges:
            return Ruling.forbid(f"{target.id} cannot Flee: ruleset {self.name} has no flee move", FLEE_REACTION)
        if any(u.has(Status.ENGAGED) for u in state.combined(target.id)):
            return Ruling.forbid(f"{target.id} is engaged in combat: it may only Hold", CHARGE_REACTIONS, FLEE_REACTION)
        again = " (it fled from a charge this phase already, so it flees no further)" \
            if target.has(Status.FLED_FROM_CHARGE) else ""
        return Ruling.allow(f"{target.id} will Flee (its player's Charge Reaction){again}", CHARGE_REACTIONS,
                            FLEE_REACTION)

    @rolls_before_placing
    @implements("t9a.charge-out.stand-and-shoot", "t9a.charge-out.own-rate", "t9a.charge-out.success",
                "t9a.charge-out.failure", "t9a.charge-out.no-other-charges", FAILED_CHARGE)
    def resolve_charge(self, state: GameState, action: Charge, dice: Dice) -> Resolution:
        """Resolve a charge: the Charge Reaction (Stand and Shoot, or the Flee), the Charge Range roll, then the charge
        (at a unit that fled: caught and destroyed) or the Failed Charge move."""
        start = len(dice.log)
        events: list[Event] = []  # a charger's Panic test, when Stand and Shoot calls for one
        skip = (start, start)  # the dice of that test, reported on its own event
        unit = state.unit(action.unit)
        target = state.unit(action.target)
        out = bool(unit.joined)
        host = host_of(state, unit)
        rules: list[str] = list(charge_rules(unit))
        if out:
            others = [c for c in state.joined_to(host.id) if c.id != unit.id]
            state = state.replace_units(*(u.with_status(Status.NO_CHARGE) for u in [host, *others]))
            rules.append("t9a.charge-out.no-other-charges")
        # Stand and Shoot: every hit on the character charging out (t9a.charge-out.stand-and-shoot);
        # on a unit, shared as every shooting attack's hits are (published.t9a-distributing-hits)
        flees = self._flees(action.reaction, target)
        reaction, weapon, field = action.reaction, action.reaction_weapon, REACTION_WEAPON
        if flees:  # published.t9a-flee-reaction: it flees first, then the charger rolls to catch it where it ends
            rules += [CHARGE_REACTIONS, FLEE_REACTION]
            state, target, fled = self._flee_reaction(state, unit, target, dice)
            events.append(fled)
            if action.redirect is not None:  # published.t9a-redirect-charge: a Discipline test, at once
                new_target, redirect = self._redirect(state, action, unit, target, dice)
                events.append(redirect)
                rules.append(REDIRECT)
                if new_target is not None:
                    target, flees, reaction = new_target, False, action.redirect_reaction
                    weapon, field = action.redirect_reaction_weapon, REDIRECT_WEAPON
                    if self._flees(reaction, target):
                        state, target, more = self._both_flee(state, action, unit, target, dice)
                        events += more
                        flees = True
            skip = (start, len(dice.log))
            if flees and not target.alive:
                new = state.replace_units(*(u.with_status(Status.CHARGED)
                                            for u in [state.unit(unit.id), *charged_with(state, unit.id, out)]))
                return new, [*events, _charge_event(f"{unit.id}'s charge has no target: {target.id} fled off the table",
                                                    rules, dice, start, FLED_OFF, skip)]
        holds = reaction == "hold"  # the charged unit's player's Charge Reaction (published.t9a-charge-reactions)
        volley = stand_and_shoot_volley(state, target, unit, choice=weapon, field=field.split(".")[-1],
                                        advance=self._flying_advance(state, unit, action)) \
            if takes_stand_and_shoot(target, reaction) and not flees \
            else None
        said = f"; {volley.said}" if volley is not None else ""
        if holds:
            rules.append(CHARGE_REACTIONS)
            said = f"; {target.id} holds (its player's Charge Reaction) [{CHARGE_REACTIONS}]"
        elif reaction is not None:
            rules.append(CHARGE_REACTIONS)
        if volley is not None:
            rules.append(STAND_AND_SHOOT)
            if WHO_CAN_SHOOT in volley.said:
                rules.append(WHO_CAN_SHOOT)
            if COVER in volley.said:
                rules.append(COVER)
            if SHOOTING_WEAPONS in volley.said:
                rules.append(SHOOTING_WEAPONS)
        event = partial(_charge_event, note=said)
        if volley is not None and volley.shooters:
            state = state.replace_units(*(u.with_status(Status.STOOD_AND_SHOT) for u in state.combined(target.id)))
            before = sum(len(u.models) for u in ([unit] if out else state.combined(unit.id)))
            if out:
                model = unit.models[-1]
                unsaved = stand_and_shoot(dice, volley.shooters, model.profile.t, model.profile.save,
                                          "t9a.charge-out.stand-and-shoot")
                rules.append("t9a.charge-out.stand-and-shoot")
                state, dead = take_wounds(state, [(unit, model)], unsaved)
                if dead:
                    state = remove_casualties(state, host.id, dead)
            else:
                state, dead, shared, spared = stand_and_shoot_at_unit(state, unit.id, volley.shooters, dice)
                if shared:
                    rules.append(DISTRIBUTING_HITS)
                if spared:
                    rules.append(COMMAND_GROUP)
            if dead:
                survivor = current(state, unit.id)
                if not survivor.alive:
                    return state, [event(f"{unit.id} is slain by Stand and Shoot", rules, dice, start, SLAIN)]
                if survivor.id != unit.id:
                    rules.append("t9a.combined.last-survivor")
                unit = survivor
                if not out:
                    shot_at = len(dice.log)
                    state, panic = self.charger_panic(state, unit.id, before, dice, front_centre(target))
                    if panic:
                        events.extend(panic)
                        skip = (shot_at, len(dice.log))
                    if state.unit(unit.id).has(Status.FLEEING):
                        rules.append(PANIC_RULE)
                        return state, [*events, event(
                            f"{unit.id} flees from the Stand and Shoot of {target.id}: its charge is not made",
                            rules, dice, start, FLED, skip)]
            unit = state.unit(unit.id)
            host = host_of(state, unit)
        swift, swift_said = self.swiftstride(state, unit, out)
        if swift or swift_said:
            rules.append(SWIFTSTRIDE)
        rates = self.charge_rates(state, unit, out, bool(action.fly)) or self.charge_rates(state, unit, out, False)
        assert rates is not None
        rate = rates[0]
        if action.fly:
            rules.append(FLY_RULE)
        roll = roll_charge(dice, rate, swift, unit.id)
        if swift_said:
            said = f"; {swift_said}{said}"
            event = partial(_charge_event, note=said)
        if out:
            rules.append("t9a.charge-out.own-rate")
        arc, way = 0.0, state
        if action.wheel is not None and not out:  # the one wheel of the charge move (published.t9a-wheel)
            f = formation_of(unit)
            arc = f.wheel_distance(action.wheel) if f is not None else 0.0
            way = wheeled(state, unit, action.wheel)
        reach = arc + group_distance(way.unit(unit.id).placed if out else placed_all(way, way.unit(unit.id)),
                                     target.placed)
        if roll.range + EPSILON >= reach and flees:  # the charger catches the unit that fled: it is destroyed
            caught, where = self._caught(state, way, unit, target, out, bool(action.fly))
            if where.startswith("moves") and out:
                rules.append("t9a.charge-out.success")
            return caught, [*events, event(f"{unit.id}'s charge reaches {target.id}, which fled: range {roll.range}\" >= "
                                           f"{reach:.2f}\"; {target.id} is caught and destroyed, and {unit.id} {where}",
                                           rules, dice, start, CAUGHT, skip)]
        if roll.range + EPSILON >= reach:
            dx, dy, _ = charge_contact(way, way.unit(unit.id), target, out)
            model = unit.models[0]
            to = (model.at[0] + dx, model.at[1] + dy)
            new = detach(state, unit, to) if out else shift_unit(way, way.unit(unit.id), dx, dy)
            new = new.replace_units(new.unit(unit.id).with_status(Status.CHARGED, Status.ENGAGED),
                                    new.unit(target.id).with_status(Status.ENGAGED),
                                    *charged_with(new, unit.id, out))
            if out:
                rules.append("t9a.charge-out.success")
            turn = f" after a {action.wheel:g} degree wheel ({arc:.2f}\")" if arc else ""
            if arc:
                rules.append(WHEEL_RULE)
            return new, [*events, event(f"{unit.id} charges {target.id}{turn}: range {roll.range}\" >= "
                                                f"{reach:.2f}\"", rules, dice, start, CHARGED, skip)]
        gap = reach if arc else group_distance(unit.placed if out else placed_all(state, unit), target.placed)
        dx, dy, _ = charge_contact(state, unit, target, out)
        model = unit.models[0]
        rules.append("t9a.charge-out.failure" if out else FAILED_CHARGE)  # a unit's: the general rule
        failed = float(roll.failed_move)
        if arc and action.wheel is not None:  # the Failed Charge move follows the wheel as far as it goes
            turned = action.wheel * min(1.0, failed / arc)
            state = wheeled(state, unit, turned)
            unit = state.unit(unit.id)
            failed = max(0.0, failed - arc * min(1.0, failed / arc))
            dx, dy, _ = charge_contact(state, unit, target, out)
            rules.append(WHEEL_RULE)
        length = math.hypot(dx, dy)
        step = min(failed, max(0.0, length - 0.01))
        if action.fly and length > 0:  # flown over what stands in the way, it may not end on it: it stops short
            step = self._flown_short(state, unit, out, dx / length, dy / length, step)
        dx, dy = (dx / length * step, dy / length * step) if length > 0 else (0.0, 0.0)
        if not out:
            new = shift_unit(state, unit, dx, dy)
            new = new.replace_units(new.unit(unit.id).with_status(Status.CHARGED), *charged_with(new, unit.id, out))
            return new, [*events, event(f"{unit.id} fails its charge ({roll.range}\" < {gap:.2f}\") and moves "
                                                f"{roll.failed_move}\"", rules, dice, start, FAILED_LEFT, skip)]
        to = (model.at[0] + dx, model.at[1] + dy)
        end = Placed(model.base, to, model.facing)
        rest = placed_all(state, host, skip=model.name)
        away = min((distance(end, p) for p in rest), default=math.inf)
        if away + EPSILON >= 1.0:
            new = detach(state, unit, to)
            new = new.replace_unit(new.unit(unit.id).with_status(Status.CHARGED))
            return new, [*events, event(f"{unit.id} fails its charge ({roll.range}\" < {gap:.2f}\"), moves "
                                                f"{roll.failed_move}\" and leaves {host.id}", rules, dice, start, FAILED_LEFT,
                                                skip)]
        members = [state.unit(host.id), *state.joined_to(host.id)]
        new = state.replace_units(*(u.with_status(Status.SHAKEN) for u in members))
        new = new.replace_unit(new.unit(unit.id).with_status(Status.CHARGED))
        return new, [*events, event(f"{unit.id} fails its charge ({roll.range}\" < {gap:.2f}\"); its {roll.failed_move}\" "
                                            f"Failed Charge move ends {away:.2f}\" from {host.id}, so it stays and the "
                                            "unit is Shaken until the end of the player turn", rules, dice, start,
                                            FAILED_STAYED, skip)]


def _charge_event(msg: str, rules: list[str], dice: Dice, start: int, outcome: str,
                  skip: tuple[int, int] = (0, 0), note: str = "") -> Event:
    """Say how a charge ended, with its dice from ``start`` (less the ``skip`` span a Panic event reports) and ``note``
    (what the charged unit's Stand and Shoot did, or why it could not be taken)."""
    rolls = [r for i, r in enumerate(dice.log) if i >= start and not skip[0] <= i < skip[1]]
    return Event("charge", msg + note, tuple(dict.fromkeys(rules)), tuple(rolls), (("outcome", outcome),))
