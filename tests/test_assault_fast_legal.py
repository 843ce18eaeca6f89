"""A 40k assault judged without resolving it (``places_apart``) rules as the shared bases-apart check does.

``resolve_assault`` picks every spot clear of every model as they stand by then, so judging an
assault does not resolve it to look for overlaps; its result is worked out when it is applied.
The full path is the same ruleset with the mark taken off (an override without it): judging
then resolves each assault and checks its bases, as before.  Positions are crowds drawn round
an enemy squad, both editions, with characters joined and not.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from herohammer.actions import Assault
from herohammer.dice import Dice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.movement import overlap_problem
from herohammer.rulesets import RULESETS
from herohammer.rulesets.base import Resolution, Ruleset
from herohammer.scenario import state_from_data
from herohammer.state import GameState


def _unmarked(name: str) -> Ruleset:
    """The ruleset with ``resolve_assault`` overridden without the mark: judging resolves and checks every assault."""

    class Full(RULESETS[name]):  # type: ignore[misc,valid-type]
        def resolve_assault(self, state: GameState, action: Assault, dice: Dice) -> Resolution:
            return super().resolve_assault(state, action, dice)  # type: ignore[no-any-return]

    return Full()  # type: ignore[no-any-return]


def _model(name: str, x: float, y: float, base: int) -> dict[str, Any]:
    return {"name": name, "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "base": base, "at": [x, y]}


@st.composite
def assaults(draw: st.DrawFn) -> dict[str, Any]:
    """A red squad (perhaps with a character) and a blue one a few inches apart, other units crowding the gap."""
    base = draw(st.sampled_from([25, 25, 40, 60]))
    step = base / 25.4 + draw(st.sampled_from([0.0, 1e-7, 0.3, 1.0]))
    n = draw(st.integers(1, 5))
    x0, y0 = draw(st.floats(2, 6)), draw(st.floats(2, 4))
    gap = draw(st.sampled_from([0.0, 0.01, 0.5, 2.0, 5.0, 5.9, 7.0]))
    red: list[dict[str, Any]] = [{"id": "squad", "type": draw(st.sampled_from(["infantry", "cavalry"])),
                                  "models": [_model(f"s{i}", x0 + i * step, y0, base) for i in range(n)]}]
    if draw(st.booleans()):
        red.append({"id": "hero", "character": "independent", "joined": draw(st.sampled_from(["squad", None])),
                    "models": [_model("Hero", x0 + draw(st.floats(-1, 4)), y0 - step, 25)]})
    far = y0 + base / 25.4 + gap
    blue = [{"id": "foe", "models": [_model(f"f{i}", x0 + draw(st.floats(-1, 1)) + i * step, far, base)
                                     for i in range(draw(st.integers(1, 5)))]}]
    blue += [{"id": f"b{k}", "models": [_model(f"b{k}", draw(st.floats(0.5, 15.5)), draw(st.floats(y0, far)), 25)]}
             for k in range(draw(st.integers(0, 4)))]
    return {"ruleset": draw(st.sampled_from(["40k3", "40k4"])), "phase": "assault", "active": "red",
            "table": {"width": 18, "depth": 16}, "sides": {"red": red, "blue": blue}}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(assaults())
def test_an_assault_judged_without_resolving_rules_as_the_full_check(data: dict[str, Any]) -> None:
    for unit in data["sides"]["red"]:
        if unit.get("joined") is None:
            unit.pop("joined", None)
    try:
        state = state_from_data(data)
    except HerohammerError:  # bases on one another or off the table: not a position a game can be in
        assume(False)
        raise
    fast, full = Game(state).ruleset, _unmarked(data["ruleset"])
    assert getattr(type(fast).resolve_assault, "places_apart", False)
    assert not getattr(type(full).resolve_assault, "places_apart", False)
    for action in [a for a in fast.candidate_actions(state) if a.do == "assault"]:
        quick, slow = fast.judge(state, action), full.judge(state, action)
        assert quick.ruling == slow.ruling
        assert quick.result == slow.result
        event("legal, placed" if quick.result is not None else "legal, not placed" if quick.ruling.legal else "refused")
        if quick.result is not None:
            assert overlap_problem(state, quick.result[0]) is None


@pytest.mark.parametrize("name", ["40k3", "40k4"])
def test_an_override_without_the_mark_is_resolved_when_judged(name: str) -> None:
    """The full path really resolves: judging an assault on it keeps the result worked out."""
    data = {"ruleset": name, "phase": "assault", "active": "red", "table": {"width": 18, "depth": 16},
            "sides": {"red": [{"id": "squad", "models": [_model("s0", 5, 5, 25)]}],
                      "blue": [{"id": "foe", "models": [_model("f0", 5, 8, 25)]}]}}
    state = state_from_data(data)
    judged = _unmarked(name).judge(state, Assault(do="assault", unit="squad", target="foe"))
    assert judged.ruling.legal and judged.resolved is not None
    quick = Game(state).ruleset.judge(state, Assault(do="assault", unit="squad", target="foe"))
    assert quick.resolved is None and quick.result == judged.resolved
