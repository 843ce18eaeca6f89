"""The 9th Age charts the seeds lean on without giving them (published rules, 2nd edition and its 2022 text).

* To hit at range: 7 - BS (BS 1: 6+ ... BS 5: 2+; a 1 always fails, so a BS above 5 offsets negative modifiers), worsened by -1 for Long Range
  (more than half the weapon's range), -1 for moving before shooting, -1 for Stand and
  Shoot, -1 soft cover, -2 hard cover.  A roll needed above 6 is a 6 followed by 4+ (7+),
  5+ (8+) or 6 (9+); beyond that no hit is possible.
* To hit in melee: the attacker's Weapon Skill against the defender's, compared as the 2nd
  edition compares Offensive to Defensive Skill: 4 or more above: 2+; 1 to 3 above: 3+;
  equal to 3 below: 4+; 4 to 7 below: 5+; 8 or more below: 6+.
* To wound: Strength against Toughness: 2 or more above: 2+, 1 above: 3+, equal: 4+,
  1 below: 5+, 2 or more below: 6+ (always possible, unlike 40k).
* Armour: the save worsens by 1 for each point of the attack's Armour Penetration (2nd edition:
  the Strength does not touch it).
* Values of 0 (seed 004): BS 0 cannot shoot, WS 0 is hit automatically and hits only on
  6, S 0 never wounds (it prevails over T 0, as in core.zero.s), T 0 is wounded on 2+.

A roll needed is an int: 1 means automatic (no roll), None means it cannot succeed.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .catalogue import implements
from .dice import Dice

AUTOMATIC = 1
TO_HIT_SHOOTING = "published.t9a-to-hit-shooting"

#: Published 9th Age missile weapons: (range in inches, Strength, Armour Penetration).  2nd edition's Shooting
#: Weapons (the rulebook's Bow, Longbow, Crossbow, Handgun, Pistol, Throwing Weapons); the shortbow, sling and javelin
#: of the army books at AP 0.  None: "as user", the shooter's own Strength or Armour Penetration (Throwing Weapons).
MISSILE_WEAPONS: dict[str, tuple[float, int | None, int | None]] = {
    "shortbow": (18, 3, 0), "bow": (24, 3, 0), "longbow": (30, 3, 0), "crossbow": (30, 4, 1), "handgun": (24, 4, 2),
    "sling": (18, 3, 0), "javelin": (12, 3, 0), "throwing weapons": (8, None, None), "pistol": (12, 4, 2),
}
#: A weapon's Strength and Armour Penetration as "<kind> S<n> AP<n>" writes them (either or both): 0 to 10.
MAX_STRENGTH = 10
_STRENGTH = re.compile(r"^(.*?)(?:\s+s(\d+))?(?:\s+ap(\d+))?$", re.IGNORECASE)


class MissileWeapon(NamedTuple):
    """A missile weapon as the Shooting phase and Stand and Shoot read it.

    ``strength_as_user`` / ``ap_as_user``: the table gives "as user" and the name states no value; ``for_user`` puts
    in the shooter's own (until then ``strength`` and ``ap`` hold 0, never shot with)."""

    kind: str
    range: float
    strength: int
    ap: int
    strength_as_user: bool = False
    ap_as_user: bool = False

    def for_user(self, strength: int, ap: int) -> MissileWeapon:
        """The weapon in one shooter's hands: "as user" Strength and Armour Penetration are the shooter's."""
        if not (self.strength_as_user or self.ap_as_user):
            return self
        return self._replace(strength=strength if self.strength_as_user else self.strength,
                             ap=ap if self.ap_as_user else self.ap, strength_as_user=False, ap_as_user=False)


def missile_kind(name: str) -> str:
    """Return a missile weapon's kind as the table names it: ``Bow S4`` is a ``bow`` (listed in the table or not)."""
    m = _STRENGTH.match(name.strip().lower())
    assert m is not None  # every part but the kind is optional
    return m.group(1)


@implements(TO_HIT_SHOOTING)
def missile_weapon(name: str) -> MissileWeapon | None:
    """Read a missile weapon by name (``bow``, ``bow S4``, ``crossbow AP2``, ``bow S4 AP1``): kind, range, Strength and
    Armour Penetration; None if unknown.  A value the table gives "as user" is the shooter's (``for_user``).

    The Shooting phase and Stand and Shoot (charging.py) read weapons through this one table.
    """
    m = _STRENGTH.match(name.strip().lower())
    assert m is not None  # every part but the kind is optional
    kind = m.group(1)
    if kind not in MISSILE_WEAPONS:
        return None
    rng, strength, ap = MISSILE_WEAPONS[kind]
    stated_s = int(m.group(2)) if m.group(2) else strength
    stated_ap = int(m.group(3)) if m.group(3) else ap
    return MissileWeapon(kind, rng, stated_s or 0, stated_ap or 0, stated_s is None, stated_ap is None)


@implements("core.zero.bs", "published.t9a-to-hit-shooting")
def to_hit_shooting(bs: int, modifier: int = 0) -> int | None:
    """Return the roll needed to hit at range (7 and up: a 6 then more); None when no hit is possible.

    ``modifier`` is the sum of the to-hit modifiers (negative worsens).  BS 0 cannot shoot.
    """
    if bs <= 0:
        return None
    needed = max(2, 7 - bs - modifier)  # a 1 always fails, so BS 6 gains against a -1
    return needed if needed <= 9 else None


def roll_to_hit_at_range(dice: Dice, shots: int, needed: int | None, who: str, rule: str = TO_HIT_SHOOTING) -> int:
    """Roll ``shots`` to hit at range; a need of 7+/8+/9+ is a 6 followed by 4+/5+/6."""
    if needed is None or shots <= 0:
        return 0
    if needed <= 6:
        return dice.pool(shots, needed, f"{who}: to hit ({needed}+)", rule)
    sixes = dice.pool(shots, 6, f"{who}: to hit ({needed}+: a 6 first)", rule)
    return dice.pool(sixes, needed - 3, f"{who}: to hit ({needed}+: then {needed - 3}+)", rule)


@implements("core.zero.ws", "published.t9a-to-hit-melee")
def to_hit_melee(attacker_ws: int, defender_ws: int) -> int:
    """Return the roll needed to hit in melee: WS 0 is hit automatically and hits only on 6."""
    if defender_ws <= 0:
        return AUTOMATIC
    if attacker_ws <= 0:
        return 6
    diff = attacker_ws - defender_ws
    return 2 if diff >= 4 else 3 if diff >= 1 else 4 if diff >= -3 else 5 if diff >= -7 else 6


@implements("core.zero.s", "core.zero.t", "published.t9a-to-wound")
def to_wound(strength: int, toughness: int) -> int | None:
    """Return the roll needed to wound: S 0 never wounds (even T 0); T 0 is wounded on 2+."""
    if strength <= 0:
        return None
    if toughness <= 0:
        return 2
    diff = strength - toughness
    return 2 if diff >= 2 else 3 if diff == 1 else 4 if diff == 0 else 5 if diff == -1 else 6


@implements("published.t9a-to-wound")
def armour_save(save: int | None, ap: int = 0) -> int | None:
    """Return the armour save roll against an attack of Armour Penetration ``ap``: worse by 1 a point (2nd edition:
    the attack's Strength does not touch it); None when no save is left."""
    if save is None:
        return None
    needed = save + max(0, ap)
    return needed if needed <= 6 else None
