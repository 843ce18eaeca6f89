"""The attack sequence: roll to hit, roll to wound, take saves - as pooled rolls.

This is the rules code that play runs and that exact enumeration walks; ``odds``
answers the same question in closed form and the tests check the two agree exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice, Reroll


@dataclass(frozen=True)
class AttackResult:
    """Count what came of a batch of identical attacks."""

    attacks: int
    hits: int
    wounds: int
    unsaved: int


def resolve_attacks(
    dice: Dice,
    attacks: int,
    hit: int | None,
    wound: int | None,
    save: int | None = None,
    reroll_hits: Reroll = Reroll.NONE,
    reroll_wounds: Reroll = Reroll.NONE,
    rule: str = "published.attack-sequence",
    who: str = "",
) -> AttackResult:
    """Roll one batch of attacks through hit, wound and save; None for hit/wound means impossible.

    ``hit`` or ``wound`` of 1 succeeds without a roll (a model of WS 0 is hit
    automatically); ``save`` None means no save is allowed.
    """
    label = f"{who}: " if who else ""
    hits = 0 if hit is None else dice.pool(attacks, hit, f"{label}to hit ({hit}+)", rule, reroll_hits)
    wounds = 0 if wound is None else dice.pool(hits, wound, f"{label}to wound ({wound}+)", rule, reroll_wounds)
    saved = 0 if save is None else dice.pool(wounds, save, f"{label}saves ({save}+)", rule)
    return AttackResult(attacks, hits, wounds, wounds - saved)
