"""The geometry kept by value for an enumeration's branches (rectangular groups' closest pair, overlap checks, a 9th Age
contact move) answers for the bases as they stand now: a base moved, or the same places rebuilt as new objects, never
reads an answer kept for other places."""

from __future__ import annotations

import pytest

from herohammer import geometry, movement
from herohammer.geometry import Base, Placed, closest_pair, overlaps

SQUARE = Base.parse([20, 20])  # 20 mm square bases: rectangles, whose closest pairs are kept by value


def _rank(x: float, y: float, n: int = 5) -> tuple[Placed, ...]:
    return tuple(Placed(SQUARE, (x + i * 20 / 25.4, y)) for i in range(n))


def _brute(a: tuple[Placed, ...], b: tuple[Placed, ...]) -> float:
    """Every pair measured, none kept (``distance``: rectangles in closed form, GEOS's answer within rounding)."""
    return min(geometry.distance(p, q) for p in a for q in b)


@pytest.mark.parametrize("gap", [0.5, 3.0, 7.25])
def test_a_rectangular_group_s_closest_pair_is_measured_for_its_places_now(gap: float) -> None:
    near = _rank(10.0, 10.0)
    far = _rank(10.0, 10.0 + 20 / 25.4 + gap)
    first = closest_pair(near, far)
    assert first[2] == pytest.approx(gap) and first[2] == _brute(near, far)
    moved = _rank(10.0, 10.0 + 20 / 25.4 + gap + 1.0)  # the same group one inch farther: a new answer
    assert closest_pair(near, moved)[2] == pytest.approx(gap + 1.0)
    again = tuple(Placed(p.base, p.at, p.facing_deg) for p in far)  # equal places, new objects: the same answer
    assert closest_pair(near, again) == first


def test_a_kept_closest_pair_is_forgotten_oldest_first_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(geometry, "_CLOSEST", {})
    monkeypatch.setattr(geometry, "CLOSEST_KEPT", 3)
    base = _rank(0.0, 0.0, 2)
    for k in range(6):
        assert closest_pair(base, _rank(0.0, 2.0 + k, 2))[2] == pytest.approx(2.0 + k - 20 / 25.4)
    assert len(geometry._CLOSEST) <= 3


def test_an_overlap_check_reads_the_places_now_not_an_earlier_answer() -> None:
    standing = _rank(10.0, 10.0)
    clear = _rank(10.0, 12.0)
    assert movement._first_overlap((5, 6, 7, 8, 9), standing + clear) is None
    onto = _rank(10.3, 10.2)  # the same models moved onto the first rank
    hit = movement._first_overlap((5, 6, 7, 8, 9), standing + onto)
    assert hit is not None and overlaps((standing + onto)[5 + hit[0]], (standing + onto)[hit[1]])
