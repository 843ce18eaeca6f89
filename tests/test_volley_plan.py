"""A volley remembered per state plays exactly as one worked out afresh.

``resolve_shoot`` keeps per state and action what the dice do not decide (who fires what,
the batches, the target's models in allocation order, the opening events: ``_Volley``),
the state after each distinct result of its wounds and saves, and per state a Morale
check's facts and a fall back's end for each distance rolled.  Here the same shot is
applied again and again on one game (undone between, the dice running on) and compared,
event by event and state by state, with a game on a state built anew from the same data
whose states remember nothing (``HashOnce.remember`` working everything out every time),
on drawn positions: Morale checks passed and failed, falls back stopped short by another
unit or the table edge, Fearless and Stubborn units, a target destroyed, a unit reduced to
its last model, a joined character and one picked out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any, TypeVar
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.values import HashOnce

R = TypeVar("R")
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def _nothing_remembered(self: HashOnce, key: Hashable, compute: Callable[[], R]) -> R:
    return compute()


def _volley(shooters: int, boyz: int, ld: int, nob: str | None, kind: str, rules: list[str], blocker: bool,
            y: float, ruleset: str, weapon: str, save: int = 6) -> dict[str, Any]:
    """Marines firing at a mob of ``boyz`` (Ld ``ld``, Sv ``save``) at ``y`` (near the far edge when high), perhaps led by a Nob, with
    another Ork mob behind it (``blocker``) in the way of a fall back."""
    def model(name: str, profile: str, x: float, at_y: float, arms: list[str]) -> dict[str, Any]:
        return {"name": name, "profile": profile, "base": 25, "at": [x, at_y], "weapons": arms}

    boy = f"WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv{save}+"
    orks: list[dict[str, Any]] = [{"id": "boyz", "type": kind, "rules": rules,
                                   "models": [model(f"Boy {i + 1}", boy, 20 + 2 * i, y, ["slugga"])
                                              for i in range(boyz)]}]
    if nob is not None:
        orks.append({"id": "nob", "type": kind, "character": nob, "joined": "boyz",
                     "models": [model("Nob", "WS4 BS2 S4 T4 W2 I3 A3 Ld7 Sv6+", 21, y + 2.5, ["slugga"])]})
    if blocker:
        orks.append({"id": "grots", "type": "infantry",
                     "models": [model(f"Grot {i + 1}", "WS2 BS3 S2 T2 W1 I2 A1 Ld5 Sv-", 19 + 2 * i, y + 5, ["slugga"])
                                for i in range(6)]})
    marines = [model(f"Marine {i + 1}", MARINE, 20 + 2 * i, y - 10, [weapon]) for i in range(shooters)]
    return {"ruleset": ruleset, "turn": 1, "phase": "shooting", "active": "marines",
            "table": {"width": 72, "depth": 48},
            "sides": {"marines": [{"id": "tactical", "type": "infantry", "models": marines}], "orks": orks},
            "weapons": [{"name": "slugga", "type": "pistol", "range": 12, "strength": 4, "ap": 6},
                        {"name": "big gun", "type": "heavy", "range": 36, "strength": 8, "ap": 3, "shots": 1,
                         "blast": 3}]}


def _same_as_afresh(data: dict[str, Any], action: dict[str, Any], seeds: range,
                    then: tuple[dict[str, Any], ...] = ()) -> list[str]:
    """Apply ``action`` (and the actions ``then``, with the same dice) with each seed on one game (undone between)
    and on a state built anew that remembers nothing; assert the same events and states.  Return the kinds of
    events seen."""
    again = Game(state_from_data(data))
    start = again.state
    seen: list[str] = []
    for seed in seeds:
        dice = SeededDice(seed)
        events = [*again.apply(action, dice)]
        for step in then:
            events += again.apply(step, dice)
        with mock.patch.object(HashOnce, "remember", _nothing_remembered):
            new = Game(state_from_data(data))
            dice = SeededDice(seed)
            expected = [*new.apply(action, dice)]
            for step in then:
                expected += new.apply(step, dice)
        assert events == expected
        assert again.state == new.state
        seen += [e.kind for e in events] + [e.message for e in events if e.kind in ("fall_back", "morale", "saves")]
        for _ in range(1 + len(then)):
            again.undo()
        assert again.state is start
    return seen


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(1, 6), st.integers(2, 10), st.sampled_from([None, "ordinary", "independent"]),
       st.sampled_from(["infantry", "bike"]), st.sampled_from([[], ["fearless"], ["stubborn"]]), st.booleans(),
       st.sampled_from([20.0, 38.0]), st.sampled_from(["40k3", "40k4"]), st.sampled_from(["bolter", "big gun"]),
       st.sampled_from(["boyz", "nob"]), st.sampled_from([4, 6]))
def test_a_volley_applied_again_plays_as_on_a_state_built_anew(shooters: int, boyz: int, ld: int, nob: str | None,
                                                               kind: str, rules: list[str], blocker: bool, y: float,
                                                               ruleset: str, weapon: str, target: str,
                                                               save: int) -> None:
    data = _volley(shooters, boyz, ld, nob, kind, rules, blocker, y, ruleset, weapon, save)
    action = {"do": "shoot", "unit": "tactical", "target": target if nob is not None else "boyz"}
    if not Game(state_from_data(data)).check(action).legal:
        return
    _same_as_afresh(data, action, range(8))


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_branches_a_repeated_volley_takes_are_each_as_afresh(ruleset: str) -> None:
    """One position whose volleys take every branch in a few dozen seeds: passed and failed Morale, falls back
    stopped short by the unit behind, the target destroyed, and the last model's test (3rd edition; 4th has none,
    published.last-man-standing). The Shooting phase is ended
    after each volley: 4th edition takes the Morale check for casualties then (published.morale-casualties)."""
    data = _volley(5, 3, 6, None, "infantry", [], True, 20.0, ruleset, "bolter", save=4)
    seen = _same_as_afresh(data, {"do": "shoot", "unit": "tactical", "target": "boyz"}, range(60),
                           then=({"do": "end_phase"},))
    text = " ".join(seen)
    assert re.search("[1-9] saved", text) and "fails" in text and "passes" in text and "stop" in text and "destroyed" in seen
    # the last model's test: 3rd edition's Last Man Standing; 4th edition has none, the unit is told so
    assert ("is reduced to one model" in text) == (ruleset == "40k3")
    assert ("last_man" in seen) == (ruleset == "40k4")
