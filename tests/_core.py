"""Shared helpers of the core judge rounds (seed 004: characteristic and Leadership tests in every ruleset): the
dice brute-forced, the exact odds a test passes through ``action_odds``, a unit of Initiative 4 and Leadership 8 in
each ruleset, and a test action with modifiers."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import _t9a
from _w40k import game, scenario, squad
from herohammer.action_odds import action_odds
from herohammer.game import Game

D6 = range(1, 7)
RULESETS = ["40k3", "40k4", "t9a"]


def d6_passes(value: int | Fraction) -> Fraction:
    """Seed 004's characteristic test by brute force on a used value already worked out: a D6 at most the value
    passes, a 6 never, a value of 0 never."""
    return Fraction(sum(value > 0 and f != 6 and f <= value for f in D6), 6)


def two_d6_passes(ld: int) -> Fraction:
    """A Leadership test by brute force: 2D6 at most the value passes."""
    return Fraction(sum(a + b <= ld for a, b in product(D6, D6)), 36)


def passed(g: Game, action: dict[str, Any]) -> Fraction:
    """The exact odds that the test ``action`` passes (0 when the engine gives no such row)."""
    answer = action_odds(g.state, action)
    rows = answer.rows()
    assert answer.exact, rows
    got = rows.get("test.outcome: passed")
    return Fraction(0) if got is None else got.p


def games() -> dict[str, tuple[Game, str]]:
    """A unit of Initiative 4 and Leadership 8 in each ruleset."""
    return {"40k3": (game(scenario("40k3", [squad("u", 10, 10, 3, ld=8)])), "u"),
            "40k4": (game(scenario("40k4", [squad("u", 10, 10, 3, ld=8)])), "u"),
            "t9a": (_t9a.game(phase="movement", active="elves", joined=False, hero_at=(60, 5),
                              spear_profile="WS4 BS4 S3 T3 W1 I4 A1 Ld8 Sv5+ Adv5 Mar10"), "spears")}


def take(unit_id: str, ch: str, *mods: tuple[str, Any]) -> dict[str, Any]:
    """A characteristic test of ``unit_id`` with ``mods`` as (kind, value) modifiers, each named by its place."""
    return {"do": "test", "unit": unit_id, "characteristic": ch,
            "modifiers": [{"kind": k, "value": v, "source": f"rule {n}"} for n, (k, v) in enumerate(mods)]}
