"""The 9th Age: which of its Shooting Weapons a model uses (published.t9a-shooting-weapons).

A model may carry several Shooting Weapons but uses one per phase, the unit's rank and file all the same one, each
character his own.  The Shooting phase's shot (``shoot``'s ``weapon``) and a charged unit's Stand and Shoot (the
charge's ``reaction_weapon``, ``redirect_reaction_weapon`` for the unit a charge is redirected to) choose it the
same way: one name for every model carrying that kind, or one per member (the unit, a joined character); none
given, each model's first listed, and what is said names the weapon used and the field that chooses another.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from importlib import resources
from itertools import product
from typing import TYPE_CHECKING, Any, NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from ..catalogue import implements
from ..charts import hit_strength
from ..errors import HerohammerError, validation_problem
from ..profiles import Profile
from ..state import GameState
from ..t9a_charts import MAX_STRENGTH, MissileWeapon, missile_kind, missile_weapon
from ..units import Model, Unit

if TYPE_CHECKING:
    from ..actions import WeaponChoice

#: A model with several Shooting Weapons uses one per phase; the unit's rank and file use the same one.
SHOOTING_WEAPONS = "published.t9a-shooting-weapons"


def choice_for(choice: WeaponChoice, unit_id: str) -> str | None:
    """Return the weapon chosen for one member of the shooting unit (None: its models' first listed)."""
    return choice.get(unit_id) if isinstance(choice, dict) else choice


@implements(SHOOTING_WEAPONS)
def weapon_used(model: Model, chosen: str | None) -> MissileWeapon | None:
    """Return the missile weapon a model shoots: the one chosen when it carries it (by kind), else its first listed;
    a Strength or Armour Penetration "as user" is the model's own."""
    if not model.weapons:
        return None
    weapon = None
    if chosen is not None:
        weapon = next((missile_weapon(name) for name in model.weapons if _matches(name, chosen)), None)
    if weapon is None:  # its first listed Shooting Weapon: a Close Combat Weapon listed before it is not one
        weapon = next((w for name in model.weapons if (w := missile_weapon(name)) is not None), None)
    # Throwing Weapons' "as user" Strength and Armour Penetration are the shooter's own (published.t9a-to-wound)
    if weapon is None:
        return None
    weapon = weapon.for_user(model.profile.s, model.profile.ap or 0)
    # a model of Strength 0 cannot inflict wounds, whatever its weapon's Strength (core.zero.s)
    return weapon if model.profile.s > 0 else weapon._replace(strength=hit_strength(model.profile.s, weapon.strength))


def _matches(carried: str, chosen: str) -> bool:
    """Say whether a carried weapon is the one chosen: its kind (``bow``), and its Strength when the choice names one."""
    if missile_kind(carried) != missile_kind(chosen):
        return False
    return chosen.strip().lower() == missile_kind(chosen) or missile_weapon(carried) == missile_weapon(chosen)


@implements(SHOOTING_WEAPONS)
def weapon_choice_problem(state: GameState, host: Unit, choice: WeaponChoice, field: str = "shoot.weapon") -> str | None:
    """Say what is wrong with a choice of weapon for ``host``'s combined unit (naming ``field``, the action's field),
    or None when every choice can be made."""
    if choice is None:
        return None
    group = {u.id: u for u in state.combined(host.id)}
    picks = choice if isinstance(choice, dict) else {"": choice}
    for who, name in picks.items():
        where = f"{field}.{who}" if who else field
        if who and who not in group:
            return (f"{where}: {who} is not {host.id} nor a character in it; name the unit or one of its "
                    f"characters [{SHOOTING_WEAPONS}]")
        if missile_weapon(name) is None:
            return f"{where}: {name!r} is not a missile weapon [{SHOOTING_WEAPONS}]"
        carriers = [group[who]] if who else list(group.values())
        if not any(_matches(w, name) for u in carriers for m in u.models for w in m.weapons):
            return (f"{where}: no model of {who or host.id} carries a {name.strip()} "
                    f"(a model uses one of its own Shooting Weapons) [{SHOOTING_WEAPONS}]")
    return None


def several_weapons(state: GameState, host: Unit) -> bool:
    """Say whether a model of ``host``'s combined unit carries more than one Shooting Weapon (a cheap first look)."""
    return any(len(m.weapons) > 1 and sum(missile_weapon(w) is not None for w in m.weapons) > 1
               for u in state.combined(host.id) for m in u.models)


@implements(SHOOTING_WEAPONS)
def weapons_said(state: GameState, host: Unit, choice: WeaponChoice, verb: str = "shoots",
                 field: str = "weapon") -> list[str]:
    """Say which weapon each member with more than one kind fires (``verb``: what it does with it; ``field``: the
    action's field that chooses another); nothing for a member whose models carry one kind."""
    said = []
    for u in state.combined(host.id):
        carried = list(dict.fromkeys(missile_kind(w) for m in u.models if len(m.weapons) > 1 for w in m.weapons
                                     if missile_weapon(w) is not None))
        if len(carried) < 2:
            continue
        chosen = choice_for(choice, u.id)
        used = list(dict.fromkeys(w.kind for m in u.models if (w := weapon_used(m, chosen)) is not None))
        how = "as chosen" if chosen is not None else f"its first listed; choose another with {field}"
        said.append(f"{u.id} {verb} {', '.join(used)} of {', '.join(carried)} ({how}) [{SHOOTING_WEAPONS}]")
    return said


@implements(SHOOTING_WEAPONS)
def weapon_choices(state: GameState, host: Unit) -> list[WeaponChoice]:
    """Return every choice of weapon for ``host``'s combined unit that fires otherwise than its models' first listed
    (what ``legal_actions`` offers beside the plain shot, so a bot may choose each): one name when a single member
    has several kinds, else one name per member, every combination; choices that arm every model alike are one."""
    members = state.combined(host.id)
    options: list[tuple[str, list[str]]] = []
    for u in members:
        names = [w for m in u.models if len(m.weapons) > 1 for w in m.weapons if missile_weapon(w) is not None]
        kinds = list(dict.fromkeys(missile_weapon(w) for w in names))
        if len(kinds) > 1:
            options.append((u.id, [next(w for w in names if missile_weapon(w) == k) for k in kinds]))
    if not options:
        return []

    def arms(choice: WeaponChoice) -> tuple[MissileWeapon | None, ...]:
        return tuple(weapon_used(m, choice_for(choice, u.id)) for u in members for m in u.models)

    seen = {arms(None)}
    choices: list[WeaponChoice] = []
    for picks in product(*(names for _, names in options)):
        choice: WeaponChoice = picks[0] if len(options) == 1 else dict(zip((uid for uid, _ in options), picks))
        if (armed := arms(choice)) not in seen:
            seen.add(armed)
            choices.append(choice)
    return choices


# -- Close Combat Weapons (the 2022 rulebook's mundane ones, data/t9a_close_combat_weapons.yaml) ----------------------
#: The rule that sends a model's close combat to the weapon it carries (the first listed of its Close Combat Weapons).
CLOSE_COMBAT_WEAPONS = "published.t9a-close-combat-weapons"
_CC_FILE = "data/t9a_close_combat_weapons.yaml"


class CloseCombatWeaponSpec(BaseModel):
    """Validate one Close Combat Weapon as the data file gives it (bonuses the 2022 rulebook states)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=40)
    rule: str = Field(pattern=r"^published\.t9a-[a-z-]+$")  # its published clause (data/rules.yaml)
    strength: StrictInt = Field(0, ge=0, le=3)
    ap: StrictInt = Field(0, ge=0, le=3)
    attacks: StrictInt = Field(0, ge=0, le=3)
    offensive: StrictInt = Field(0, ge=0, le=3)
    initiative: StrictInt | None = Field(None, ge=0, le=10)
    charging: StrictBool = False
    extra_rank: StrictBool = False
    first_round_agility: StrictInt = Field(0, ge=0, le=3)
    first_round_ap: StrictInt = Field(0, ge=0, le=3)
    two_handed: StrictBool = False


def close_combat_weapons_from_data(items: Any, where: str) -> dict[str, CloseCombatWeaponSpec]:
    """Read a list of Close Combat Weapons by lower-case name, or fail with one line naming the entry and the field."""
    if not isinstance(items, list):
        raise HerohammerError(f"{where}: a list of close combat weapons expected")
    out: dict[str, CloseCombatWeaponSpec] = {}
    for i, item in enumerate(items):
        try:
            spec = CloseCombatWeaponSpec.model_validate(item)
        except ValidationError as exc:
            path, problem = validation_problem(exc)
            raise HerohammerError(f"{where}[{i}]{'.' + path if path else ''}: {problem}") from None
        key = spec.name.strip().lower()
        if key in out:
            raise HerohammerError(f"{where}[{i}].name: {spec.name!r} is given twice")
        out[key] = spec
    return out


@lru_cache(maxsize=1)
def close_combat_weapons() -> dict[str, CloseCombatWeaponSpec]:
    """Return the bundled Close Combat Weapons by lower-case name."""
    text = resources.files("herohammer").joinpath(_CC_FILE).read_text(encoding="utf-8")
    return close_combat_weapons_from_data(yaml.safe_load(text), _CC_FILE)


#: The Close Combat Weapon every model has, which a model with another cannot choose (published.t9a-close-combat-weapons).
HAND_WEAPON = "hand weapon"


@implements(CLOSE_COMBAT_WEAPONS)
def close_combat_weapon(model: Model) -> CloseCombatWeaponSpec | None:
    """Return the Close Combat Weapon a model fights with: the first of its weapons that is one other than the Hand
    Weapon, which "a model with another Close Combat Weapon cannot choose" (2022 text; round 30: a Hand Weapon listed
    first was used); the Hand Weapon when it lists no other (None: none listed, a hand weapon by default, as every
    model has).  The 2022 text's choice among several is made in the first round; the engine takes the first listed."""
    table = close_combat_weapons()
    found = [spec for spec in (table.get(name.strip().lower()) for name in model.weapons) if spec is not None]
    return next((spec for spec in found if spec.name != HAND_WEAPON), found[0] if found else None)


def attack_ap(wielded: Wielded | None, model: Model) -> int:
    """Return the Armour Penetration of a model's close combat attacks: its weapon's with its own (``wielded``), or
    its own alone when it carries no Close Combat Weapon (published.t9a-to-wound)."""
    return wielded.ap if wielded is not None else (model.profile.ap or 0)


class Wielded(NamedTuple):
    """A model's close combat profile with its weapon: the profile it strikes with, the save modifier its Armour
    Penetration adds, whether it fights in an extra rank, and the weapon (None: no bonus applies)."""

    profile: Profile
    ap: int
    extra_rank: bool
    weapon: CloseCombatWeaponSpec | None


#: Each bundled weapon's own clause, named on its row of the data file: ``wielded`` applies the row, so it decides them
#: all (tests/test_t9a_close_combat_weapons.py holds this list to the file's rows).
WEAPON_CLAUSES = ("published.t9a-hand-weapon", "published.t9a-great-weapon", "published.t9a-halberd",
                  "published.t9a-paired-weapons", "published.t9a-spear", "published.t9a-lance",
                  "published.t9a-light-lance")


@implements(CLOSE_COMBAT_WEAPONS, *WEAPON_CLAUSES)
def wielded(model: Model, charged: bool, first_round: bool, flanked: bool) -> Wielded:
    """Return what a model strikes with in this round (``charged``: its unit charged this turn; ``first_round``: the
    combat's First Round, a unit in it having charged this turn; ``flanked``: its unit is engaged in a Flank or Rear
    Facing).

    Strength, Attack Value, Offensive Skill (the engine's WS) and Initiative are changed in the profile (a Great
    Weapon strikes at Initiative step 0 whatever its Agility); a Lance's and a Light Lance's Devastating Charge only
    when its unit charged; a Spear's +2 Agility and +1 Armour Penetration in the First Round unless its unit charged
    or is engaged in a Flank or Rear Facing.  Armour Penetration: the model's own (its profile's AP) with the
    weapon's; each point worsens the armour save by 1 (published.t9a-to-wound).
    """
    weapon = close_combat_weapon(model)
    p = model.profile
    own_ap = p.ap or 0
    if weapon is None:
        return Wielded(p, own_ap, False, None)
    devastating = not weapon.charging or charged
    s_bonus = weapon.strength if devastating else 0
    ap = weapon.ap if devastating else 0
    i = p.i if weapon.initiative is None else weapon.initiative
    if weapon.first_round_agility or weapon.first_round_ap:
        if first_round and not charged and not flanked:
            i += weapon.first_round_agility
            ap += weapon.first_round_ap
    changed = replace(p, s=hit_strength(p.s, min(MAX_STRENGTH, p.s + s_bonus)), a=p.a + weapon.attacks if p.a > 0 else p.a,
                      ws=p.ws + weapon.offensive if p.ws > 0 else p.ws, i=i)
    return Wielded(changed, own_ap + ap, weapon.extra_rank, weapon)
