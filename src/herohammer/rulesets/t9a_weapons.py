"""The 9th Age: which of its Shooting Weapons a model uses (published.t9a-shooting-weapons).

A model may carry several Shooting Weapons but uses one per phase, the unit's rank and file all the same one, each
character his own.  The Shooting phase's shot (``shoot``'s ``weapon``) and a charged unit's Stand and Shoot (the
charge's ``reaction_weapon``, ``redirect_reaction_weapon`` for the unit a charge is redirected to) choose it the
same way: one name for every model carrying that kind, or one per member (the unit, a joined character); none
given, each model's first listed, and what is said names the weapon used and the field that chooses another.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from ..catalogue import implements
from ..state import GameState
from ..t9a_charts import missile_kind, missile_weapon
from ..units import Model, Unit

if TYPE_CHECKING:
    from ..actions import WeaponChoice

#: A model with several Shooting Weapons uses one per phase; the unit's rank and file use the same one.
SHOOTING_WEAPONS = "published.t9a-shooting-weapons"


def choice_for(choice: WeaponChoice, unit_id: str) -> str | None:
    """Return the weapon chosen for one member of the shooting unit (None: its models' first listed)."""
    return choice.get(unit_id) if isinstance(choice, dict) else choice


@implements(SHOOTING_WEAPONS)
def weapon_used(model: Model, chosen: str | None) -> tuple[str, float, int] | None:
    """Return the missile weapon a model shoots: the one chosen when it carries it (by kind), else its first listed."""
    if not model.weapons:
        return None
    if chosen is not None:
        for name in model.weapons:
            if _matches(name, chosen):
                return missile_weapon(name)
    return missile_weapon(model.weapons[0])


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
    return any(len(m.weapons) > 1 for u in state.combined(host.id) for m in u.models)


@implements(SHOOTING_WEAPONS)
def weapons_said(state: GameState, host: Unit, choice: WeaponChoice, verb: str = "shoots",
                 field: str = "weapon") -> list[str]:
    """Say which weapon each member with more than one kind fires (``verb``: what it does with it; ``field``: the
    action's field that chooses another); nothing for a member whose models carry one kind."""
    said = []
    for u in state.combined(host.id):
        carried = list(dict.fromkeys(missile_kind(w) for m in u.models if len(m.weapons) > 1 for w in m.weapons))
        if len(carried) < 2:
            continue
        chosen = choice_for(choice, u.id)
        used = list(dict.fromkeys(w[0] for m in u.models if (w := weapon_used(m, chosen)) is not None))
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

    def arms(choice: WeaponChoice) -> tuple[tuple[str, float, int] | None, ...]:
        return tuple(weapon_used(m, choice_for(choice, u.id)) for u in members for m in u.models)

    seen = {arms(None)}
    choices: list[WeaponChoice] = []
    for picks in product(*(names for _, names in options)):
        choice: WeaponChoice = picks[0] if len(options) == 1 else dict(zip((uid for uid, _ in options), picks))
        if (armed := arms(choice)) not in seen:
            seen.add(armed)
            choices.append(choice)
    return choices
