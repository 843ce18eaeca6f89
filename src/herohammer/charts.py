"""The published Warhammer 40,000 3rd/4th edition charts, and the effects of a value of 0.

Sources (the seeds lean on these without giving them):
- To hit when shooting: the BS chart, 7 - BS, never better than 2+ (3rd ed. rulebook
  p. 18, 4th ed. rulebook p. 18).
- To hit in close combat: WS against WS: 3+ when higher, 4+ when equal or lower, 5+
  when the target's WS is more than double (3rd ed. p. 44, 4th ed. p. 39).
- To wound: Strength against Toughness (3rd ed. p. 19, 4th ed. p. 20): S >= T+2: 2+,
  T+1: 3+, T: 4+, T-1: 5+, T-2 and T-3: 6+, less: no effect.
- Armour: a weapon with AP equal to or better (lower) than the save ignores it.

A roll needed is an int: 1 means automatic (no roll), None means it cannot succeed.
"""

from __future__ import annotations

from .catalogue import implements

AUTOMATIC = 1


@implements("core.zero.bs")
def can_shoot(bs: int) -> bool:
    """Say whether a model may use shooting weapons: not with Ballistic Skill 0."""
    return bs > 0


@implements("published.to-hit-bs")
def to_hit_shooting(bs: int) -> int | None:
    """Return the D6 roll needed to hit with a shooting weapon (None: BS 0 cannot shoot)."""
    if not can_shoot(bs):
        return None
    return max(2, 7 - bs)


@implements("core.zero.ws", "published.to-hit-ws")
def to_hit_melee(attacker_ws: int, defender_ws: int) -> int:
    """Return the roll needed to hit in close combat; WS 0 is hit automatically and hits on 6+ only."""
    if defender_ws == 0:
        return AUTOMATIC
    if attacker_ws == 0:
        return 6
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


@implements("published.instant-death")
def kills_outright(strength: int | None, toughness: int) -> bool:
    """Say whether a wound of this Strength kills outright (Instant Death): double the Toughness or more, whatever
    Wounds the model has left (None: an attack with no Strength, as Dangerous Terrain, never does)."""
    return strength is not None and strength >= 2 * toughness


@implements("core.zero.s")
def hit_strength(model_strength: int, weapon_strength: int) -> int:
    """Return the Strength a model's hit wounds with: its weapon's, or 0 for a model of Strength 0.

    Seed 004: "a model with Strength 0 cannot inflict wounds". A shooting weapon's own Strength (a bolter's 4, a
    bow's 3) or a close combat weapon's bonus (+1, +2) does not lift it: the hits of a Strength 0 model wound as
    Strength 0, which never wounds (``to_wound``; judge round 39 (core): they wounded by the weapon's Strength, in
    40k and The 9th Age alike).
    """
    return weapon_strength if model_strength > 0 else 0


@implements("core.zero.s", "core.zero.t", "published.to-wound")
def to_wound(strength: int, toughness: int) -> int | None:
    """Return the roll needed to wound: S 0 never wounds; T 0 is always wounded on 2+.

    Strength 0 is checked first: an attack that cannot cause wounds does not cause
    them against Toughness 0 either (the project's reading of core.zero.s with core.zero.t).
    """
    if strength <= 0:
        return None
    if toughness <= 0:
        return 2
    diff = strength - toughness
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    if diff >= -3:
        return 6
    return None


def armour_save_allowed(save: int | None, ap: int | None) -> bool:
    """Say whether an armour save may be taken against a weapon of this AP ('-' is None)."""
    if save is None:
        return False
    return ap is None or ap > save


@implements("published.saves")
def best_save(save: int | None, invulnerable: int | None, ap: int | None) -> int | None:
    """Return the save to roll: the better of the armour save allowed and the invulnerable save."""
    armour = save if armour_save_allowed(save, ap) else None
    if armour and invulnerable:
        return min(armour, invulnerable)
    return armour or invulnerable or None  # the one there is (a save of 0 is none)


@implements("core.zero.a")
def close_combat_attacks(attacks: int) -> int:
    """Return how many close combat attacks a model makes: none with Attacks 0."""
    return max(0, attacks)


@implements("core.zero.w")
def is_casualty(wounds_left: int) -> bool:
    """Say whether a model is removed as a casualty: its Wounds have reached 0."""
    return wounds_left <= 0
