"""A Pile In's ways in and around (published.pile-in's decision, session 31), measured the quick way, against the
slow way it replaces: every place in contact around every foe, each way checked against every other base.

The 52nd session made the Pile In measure only the bases that a move of what the model has left can reach
(``_within_reach``), try the places around the foes nearest first and stop at the first clear one
(``_contact_around``), and ask of each way only whether it is clear, stopping at the first base that blocks it
(``_way_clear``).  None of that may change a place: random layouts of round and square bases, some overlapping, are
compared here with the slow way by exact equality.
"""

from __future__ import annotations

import math
import random

import pytest

from herohammer import geometry as geo
from herohammer.rulesets import w40k_combat_result as piling

BASES = [geo.Base.parse(25), geo.Base.parse(40), geo.Base.parse(60), geo.Base.parse([50, 25])]


class _Standing:
    """A model as the Pile In reads it: its place, its base and its placed base."""

    def __init__(self, placed: geo.Placed) -> None:
        self.at, self.base, self.placed = placed.at, placed.base, placed


def _slow_around(start: geo.Point, radius: float, foes: list[_Standing],
                 others: list[tuple[geo.Placed, float]], most: float) -> geo.Point | None:
    """The nearest place in contact with a foe whose way in is clear: every foe, every angle, every base."""
    best: tuple[float, geo.Point] | None = None
    for f in foes:
        reach = radius + (f.base.radius_inches if f.base.round else f.base.reach_inches) + 0.001
        for cos, sin in piling._AROUND_ANGLES:
            spot = (f.at[0] + reach * cos, f.at[1] + reach * sin)
            length = math.dist(start, spot)
            if length > most or (best is not None and length >= best[0]):
                continue
            if piling._first_block(start, spot, radius, others) >= 1.0:
                best = (length, spot)
    return best[1] if best is not None else None


def _layout(rng: random.Random, size: float) -> list[geo.Placed]:
    return [geo.Placed(rng.choice(BASES), (rng.uniform(0.0, size), rng.uniform(0.0, size)),
                       float(rng.choice([0, 30, 90]))) for _ in range(rng.randint(3, 24))]


@pytest.mark.rule("published.pile-in")
@pytest.mark.parametrize("seed", range(4))
def test_the_way_around_is_the_slow_ways_place(seed: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(300):
        placed = _layout(rng, 14.0)
        me = _Standing(placed[0])
        foes = [_Standing(p) for p in placed[1:1 + rng.randint(1, 4)]]
        foe_bases = {id(f.placed) for f in foes}
        others = [(p, 0.0 if id(p) in foe_bases else piling.PILE_IN_CLEARANCE) for p in placed[1:]]
        radius = me.base.radius_inches if me.base.round else me.base.reach_inches
        most = rng.choice([6.0, 3.0, 1.5])
        quick = piling._contact_around(me.at, radius, foes, piling._within_reach(me, radius, most, others), most)
        assert quick == _slow_around(me.at, radius, foes, others, most)
        found += quick is not None
    assert 0 < found < 300  # both kinds of layout met: a way around found, and none


@pytest.mark.rule("published.pile-in")
@pytest.mark.parametrize("seed", range(4))
def test_a_clear_way_is_what_the_first_block_says(seed: int) -> None:
    rng = random.Random(100 + seed)
    clear = 0
    for _ in range(2000):
        placed = _layout(rng, 8.0)
        others = [(p, rng.choice([0.0, piling.PILE_IN_CLEARANCE])) for p in placed[1:]]
        start = placed[0].at if rng.random() < 0.8 else (rng.uniform(0.0, 8.0), rng.uniform(0.0, 8.0))
        end = start if rng.random() < 0.05 else (rng.uniform(0.0, 8.0), rng.uniform(0.0, 8.0))
        radius = rng.choice([0.49, 0.8, 1.2])
        asked = list(others)
        said = piling._way_clear(start, end, radius, asked)
        assert said == (piling._first_block(start, end, radius, others) >= 1.0)
        assert sorted(map(id, asked)) == sorted(map(id, others))  # reordered, never changed
        clear += said
    assert 0 < clear < 2000


@pytest.mark.rule("published.pile-in")
def test_only_bases_out_of_reach_are_left_out() -> None:
    rng = random.Random(7)
    for _ in range(500):
        placed = _layout(rng, 20.0)
        me = _Standing(placed[0])
        others = [(p, piling.PILE_IN_CLEARANCE) for p in placed[1:]]
        radius = me.base.radius_inches if me.base.round else me.base.reach_inches
        kept = piling._within_reach(me, radius, 6.0, others)
        for o, clearance in others:
            if (o, clearance) in kept:
                continue
            for _ in range(20):  # no way of at most 6" comes near a base left out
                angle, length = rng.uniform(0.0, 2 * math.pi), rng.uniform(0.0, 6.0)
                end = (me.at[0] + length * math.cos(angle), me.at[1] + length * math.sin(angle))
                assert piling._first_block(me.at, end, radius, [(o, clearance)]) >= 1.0 or end == me.at
