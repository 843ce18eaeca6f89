"""The Charge Move's wheel search passes over the wheels whose front can never come onto the Target Facing
(``t9a_forward._open_wheels``): its bracket of wheels (``_wheels_facing``) keeps every wheel a full scan of 1 to 90
degrees, each way, would keep, in the same order and with the same floors, so the wheel chosen and its words are the
same (published.t9a-charge, published.t9a-wheel)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer.formations import Formation
from herohammer.rulesets import t9a_forward
from herohammer.rulesets.t9a_forward import MOST_WHEEL, _open_wheels

coordinate = st.floats(-30.0, 30.0, allow_nan=False)
facing = st.floats(0.0, 360.0, allow_nan=False, exclude_max=True)


def _every_wheel(monkeypatch: pytest.MonkeyPatch, mine: Formation, side: tuple[tuple[float, float], ...],
                 tol: float) -> list[tuple[float, float]]:
    with monkeypatch.context() as m:
        m.setattr(t9a_forward, "_wheels_facing", lambda *args: (1, MOST_WHEEL))
        return list(_open_wheels(mine, side, tol))  # type: ignore[arg-type]


@pytest.mark.rule("published.t9a-charge", "published.t9a-wheel")
@settings(max_examples=1000, deadline=None)
@given(coordinate, coordinate, facing, st.integers(1, 8), st.sampled_from([20.0, 25.0, 50.0]), coordinate, coordinate,
       st.booleans(), facing, st.floats(0.5, 8.0), st.sampled_from([1e-6, 0.05, 0.2, 0.5]))
def test_the_wheels_looked_at_are_those_a_full_scan_keeps(x: float, y: float, turn: float, files: int, slot: float,
                                                          sx: float, sy: float, close: bool, side_turn: float,
                                                          length: float, tol: float) -> None:
    """Anywhere about the front, and close to a pivot (within the front's width, where its width no longer bounds the
    angle), the sides a full scan finds are found, in its order."""
    mine = Formation((x, y), turn, files, tuple(f"m{i}" for i in range(files * 2)), (slot, 25.0))
    if close:
        sx, sy = x + sx / 8.0, y + sy / 8.0
    t = math.radians(side_turn)
    side = ((sx, sy), (sx + length * math.cos(t), sy + length * math.sin(t)))
    with pytest.MonkeyPatch.context() as monkeypatch:
        expected = _every_wheel(monkeypatch, mine, side, tol)
    assert list(_open_wheels(mine, side, tol)) == expected  # type: ignore[arg-type]


@pytest.mark.rule("published.t9a-wheel")
def test_a_side_straight_ahead_needs_little_wheel_and_one_behind_none() -> None:
    """A side across the way ahead: the small wheels either way still see it; a side behind the front: no wheel of up
    to 90 degrees brings the front onto it, and the bracket says so without looking at one."""
    mine = Formation((0.0, 0.0), 0.0, 5, tuple(f"m{i}" for i in range(10)), (25.0, 25.0))
    ahead = list(_open_wheels(mine, ((-3.0, 10.0), (3.0, 10.0)), 1e-6))
    assert [w for w, _ in ahead[:4]] == [1.0, -1.0, 2.0, -2.0]
    behind = ((-3.0, -20.0), (3.0, -20.0))
    width = 5 * 25 / 25.4
    assert t9a_forward._wheels_facing(mine.front_corners()[0], (0.0, 1.0), behind, width, 1e-6, False)[0] > MOST_WHEEL
    assert list(_open_wheels(mine, behind, 1e-6)) == []  # type: ignore[arg-type]
