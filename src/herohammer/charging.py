"""The 9th Age charge mechanics the character rules defer to (seed 002 names them, does not give them).

Published The 9th Age rules (1st and 2nd edition, 2016-2021; the seed's era):

* Charge Range = the charger's Advance Rate + 2D6 (``CHARGE_DICE``); the charge succeeds
  when the range is at least the distance to the target, edge to edge.
* Failed Charge move: the charger moves directly towards its target a distance equal to
  the higher of the two charge dice (project reading, see t9a.charge-out.failure in
  data/rules.yaml).  The 2022 edition changed the roll to D6+4 plus Charge Speed; the
  project follows the seed's edition.
* Swiftstride (published.t9a-swiftstride): roll one extra die for the Charge Range and discard
  the lowest; a unit has it only when every model in it has it (its joined characters too), and a
  character charging out of a unit may use it as a charge bonus of that unit (t9a.charge-out.own-rate).
* Stand and Shoot (published.t9a-stand-and-shoot): the charged unit shoots at the charger as
  if in the Shooting Phase, with -1 to hit, and at Long Range (-1 more) when the charger is
  beyond half a weapon's range, even beyond its maximum range; through the 9th Age charts of
  ``t9a_charts`` (its missile weapon table, to hit by BS, to wound by Strength against
  Toughness, armour by Strength, values of 0 as seed 004 says).  Who shoots and whether the
  reaction may be taken at all is ruled in ``rulesets/t9a.py`` (``stand_and_shoot_volley``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from .attacks import resolve_attacks
from .dice import Dice
from .geometry import Placed, Point, distance
from .t9a_charts import AUTOMATIC, armour_save, roll_to_hit_at_range, to_hit_shooting, to_wound

#: The published charge of a unit: declaring it (sight, reach, room), Charge Range, the Charge Move.
CHARGE_RULE = "published.t9a-charge"
#: A character charging out of his unit (the seed's clause); he follows the general charge rules too.
CHARGE_OUT_RULE = "t9a.charge-out.declare"
CHARGE_DICE = 2
MAX_CHARGE_BONUS = 12  # the most 2D6 can add to the Advance Rate
#: Charge bonuses of a unit that a character charging out of it may use (t9a.charge-out.own-rate).
CHARGE_BONUS_RULES = frozenset({"Swiftstride"})
#: The published Swiftstride: one more charge die, the lowest discarded; a unit's only when all its models have it.
SWIFTSTRIDE = "published.t9a-swiftstride"
STAND_AND_SHOOT_RULE = "Stand and Shoot"
#: The published rule on Stand and Shoot (when it may be taken, who shoots, at what range).
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
#: The published Charge Reactions: the charged unit's player chooses Hold, Stand and Shoot or Flee.
CHARGE_REACTIONS = "published.t9a-charge-reactions"
#: The Flee Charge Reaction: the charged unit flees 2D6" from its charger, which may still catch it.
FLEE_REACTION = "published.t9a-flee-reaction"
#: Redirecting a Charge: after its target Flees, the charger may take a Discipline test to charge another unit.
REDIRECT = "published.t9a-redirect-charge"
#: Stand and Shoot's to-hit modifier; Long Range adds its own (published.t9a-to-hit-shooting).
STAND_AND_SHOOT_MODIFIER = LONG_RANGE_MODIFIER = -1


@dataclass(frozen=True)
class ChargeRoll:
    """Say what the charge dice gave: the dice kept, the range and the Failed Charge distance."""

    kept: tuple[int, ...]
    advance: int

    @property
    def range(self) -> int:
        """Return the Charge Range: Advance Rate + the kept dice."""
        return self.advance + sum(self.kept)

    @property
    def failed_move(self) -> int:
        """Return the Failed Charge move: the higher kept die."""
        return max(self.kept)


def roll_charge(dice: Dice, advance: int, swiftstride: bool, who: str, rule: str = CHARGE_RULE) -> ChargeRoll:
    """Roll the Charge Range: 2D6 (3D6 dropping the lowest with Swiftstride) plus Advance Rate."""
    n = CHARGE_DICE + (1 if swiftstride else 0)
    faces = sorted((dice.d6(f"{who}: charge die", rule) for _ in range(n)), reverse=True)
    return ChargeRoll(tuple(faces[:CHARGE_DICE]), advance)


@dataclass(frozen=True)
class Shooter:
    """One model shooting in a Stand and Shoot: its BS, its weapon's Strength, whether the charger is at Long Range,
    the charger's cover against it (0, -1 Soft Cover, -2 Hard Cover: published.t9a-cover) and its weapon's Armour
    Penetration (published.t9a-to-wound)."""

    bs: int
    strength: int
    long_range: bool = False
    cover: int = 0
    ap: int = 0


def stand_and_shoot_batches(shooters: Sequence[Shooter]) -> list[tuple[int | None, int, int, int]]:
    """Group a Stand and Shoot's shots by what they roll (-1 to hit, -1 more at Long Range, the charger's cover as in
    the Shooting phase): (need, Strength, Armour Penetration, shots)."""
    groups: dict[tuple[int, int, bool, int, int], int] = {}
    for s in shooters:
        key = (s.bs, s.strength, s.long_range, s.cover, s.ap)
        groups[key] = groups.get(key, 0) + 1
    return [(to_hit_shooting(bs, STAND_AND_SHOOT_MODIFIER + (LONG_RANGE_MODIFIER if far else 0) + cover), strength,
             ap, n) for (bs, strength, far, cover, ap), n in sorted(groups.items())]


def stand_and_shoot_hits(dice: Dice, need: int | None, shots: int, rule: str) -> int:
    """Roll one batch of a Stand and Shoot's shots to hit; return the hits."""
    return roll_to_hit_at_range(dice, shots, need, "Stand and Shoot", rule)


def wound_hits(dice: Dice, hits: int, strength: int, toughness: int, save: int | None, rule: str, ap: int = 0) -> int:
    """Roll to wound and save (worse by the weapon's Armour Penetration ``ap``) for a Stand and Shoot's hits on one
    kind of model; return the unsaved wounds."""
    result = resolve_attacks(dice, hits, AUTOMATIC, to_wound(strength, toughness),
                             armour_save(save, ap), rule=rule, who="Stand and Shoot")
    return result.unsaved


def stand_and_shoot(dice: Dice, shooters: Sequence[Shooter], toughness: int, save: int | None,
                    rule: str = "t9a.charge-out.stand-and-shoot") -> int:
    """Resolve a Stand and Shoot at one kind of model (one shot per shooter); return the unsaved wounds."""
    unsaved = 0
    for need, strength, ap, n in stand_and_shoot_batches(shooters):
        unsaved += wound_hits(dice, stand_and_shoot_hits(dice, need, n, rule), strength, toughness, save, rule, ap)
    return unsaved


def contact_vector(mover: Placed, targets: Sequence[Placed]) -> Point:
    """Return the straight move that puts ``mover`` in base contact with the nearest target."""
    return contact_move(mover, min(targets, key=lambda t: distance(mover, t)))


def contact_moves(pairs: Sequence[tuple[Placed, Placed]]) -> list[Point]:
    """Return ``contact_move`` for each (mover, target) pair, from one call to shapely for them all (the same floats)."""
    if len(pairs) < 2:
        return [contact_move(mover, target) for mover, target in pairs]
    movers = np.array([mover.footprint() for mover, _ in pairs], dtype=object)
    targets = np.array([target.footprint() for _, target in pairs], dtype=object)
    ends = shapely.get_coordinates(shapely.shortest_line(movers, targets)).tolist()
    return [(ends[k + 1][0] - ends[k][0], ends[k + 1][1] - ends[k][1]) for k in range(0, len(ends), 2)]


def contact_move(mover: Placed, target: Placed) -> Point:
    """Return the straight move that puts ``mover`` in base contact with ``target`` (along their nearest points).

    The nearest points are the ends of shapely's shortest line, read as coordinates (the very
    floats ``shapely.ops.nearest_points`` would wrap in two Points).
    """
    (ax, ay), (bx, by) = shapely.get_coordinates(shapely.shortest_line(mover.footprint(), target.footprint())).tolist()
    return (bx - ax, by - ay)
