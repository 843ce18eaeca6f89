"""A model of Strength 0 cannot inflict wounds (core.zero.s), whatever Strength its weapon would give its hits.

Seed 004: "a model with Strength 0 cannot inflict wounds". A shooting weapon's own Strength (a bolter's 4, a bow's 3)
or a close combat weapon's bonus (+1, +2) does not lift it: the hits of a Strength 0 model wound as Strength 0, which
never wounds (judge round 39 (core): they wounded by the weapon's Strength, in 40k and The 9th Age alike).
"""

from __future__ import annotations

from .catalogue import implements


@implements("core.zero.s")
def hit_strength(model_strength: int, weapon_strength: int) -> int:
    """Return the Strength a model's hit wounds with: its weapon's, or 0 for a model of Strength 0 (core.zero.s)."""
    return weapon_strength if model_strength > 0 else 0
