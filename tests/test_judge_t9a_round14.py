"""A judge's cases for The 9th Age, fourteenth round: a redirected charge whose second target Flees too.

The 9th Age rulebook, 2022 text (newrecruit.eu wiki, the-ninth-age-(2022)/rules/redirecting-a-charge): "If a unit
Redirects a Charge and the second target also Flees, the Charging unit may opt to Charge either target, but must
declare which before rolling the Charge Range." Each case goes through ``Game``: the legal and the illegal step, the
clause cited, and the exact odds held to brute force.
"""

from __future__ import annotations

import math

from fractions import Fraction
from typing import Any

import pytest

from _t9a import exact_odds_as_brute_force, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

REDIRECT = "published.t9a-redirect-charge"
FLEE = "published.t9a-flee-reaction"
GUARD = "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10"
BOTH_FLEE = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee", "redirect": "guards",
             "redirect_reaction": "flee"}


def _two_targets(guard_status: list[str] | None = None) -> Game:
    """The orcs (Ld 7, Advance 4) 10" from the Spearmen (with their Hero) ahead-left and the Guards ahead-right."""
    data = scenario(phase="charge", active="orcs", enemy_y=30)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    guards: dict[str, Any] = {"id": "guards", "formation": {"position": [42, 20], "files": 5},
                              "models": [{"name": f"g{i}", "profile": GUARD, "base": [20, 20]} for i in range(5)]}
    if guard_status:
        guards["status"] = guard_status
    data["sides"]["elves"].append(guards)
    return reloading_game(data)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


@pytest.mark.rule(REDIRECT, FLEE)
def test_the_second_target_flees_too_and_the_charger_charges_the_target_it_named() -> None:
    """Spearmen flee 2", the test (5 on Ld 7) passes, the Guards flee too (6"): the orcs charge the one they named
    before the Charge Range roll, the Spearmen (caught at 12.22") or, named or by default, the Guards (since session 48 out of reach where they fled:
    the orcs' Charge Move wheels, then goes forwards)."""
    g = _two_targets()
    before = g.state
    ruling = g.check({**BOTH_FLEE, "if_both_flee": "spears"})
    assert ruling.legal and REDIRECT in ruling.rules and "if guards Flees too, orcs charges spears" in ruling.reason
    events = g.apply({**BOTH_FLEE, "if_both_flee": "spears"}, ScriptedDice([1, 1, 2, 3, 3, 3, 6, 6]))
    assert kinds(events) == ["flee", "redirect", "flee", "charge_choice", "charge"]
    assert dict(events[3].data)["outcome"] == "first_target" and REDIRECT in events[3].rules
    assert dict(events[4].data)["outcome"] == "caught" and "reaches spears" in events[4].message
    assert [r.value for r in events[2].rolls] == [6] and [r.value for r in events[4].rolls] == [6, 6]
    assert not g.state.unit("spears").alive and g.state.unit("guards").has(Status.FLEEING)
    reloads(g)
    g.undo()
    assert g.state is before
    # Session 48: the orcs' Charge Move goes forwards after at most one Wheel (published.t9a-charge). The Guards fled
    # 6" to a front at y = 14.75 (x 42.93 to 46.86, still facing up): the orcs' front (y = 30, x 33.54 to 38.46, facing
    # down) must wheel left about its corner (38.46, 30) until that corner's line passes inside the Guards' front end,
    # atan(4.47 / 15.25) = 16.3 degrees: 17, its arc 4.92" * 17 degrees and then 4.47 sin 17 + 15.25 cos 17 forward:
    # 17.35", beyond 4" + 12". Until then the straight 15.90" to the corner was caught with 16".
    fled = g.state
    width, corner = 5 * 25 / 25.4, (38.46, 30.0)
    for named in ({"if_both_flee": "guards"}, {}):
        events = g.apply({**BOTH_FLEE, **named}, ScriptedDice([1, 1, 2, 3, 3, 3, 6, 6]))
        front = g.state.unit("guards").formation
        assert front is not None and front.facing == 0
        end = front.front_corners()[0]
        dx, dy = end[0] - (36 + width / 2), 30 - end[1]
        assert abs(corner[0] - (36 + width / 2)) < 0.01 and (dx, dy) == pytest.approx((4.47, 15.25), abs=0.01)
        phi = math.ceil(math.degrees(math.atan(dx / dy)))
        t = math.radians(phi)
        reach = width * t + dx * math.sin(t) + dy * math.cos(t)
        assert phi == 17 and 4 + 12 < reach
        assert dict(events[3].data)["outcome"] == "second_target" and dict(events[4].data)["outcome"] == "failed_left"
        assert f"orcs fails its charge (16\" < {reach:.2f}\")" in events[4].message
        assert g.state.unit("guards").alive and g.state.unit("spears").has(Status.FLEEING)
        g.undo()
        assert g.state is fled or g.state == fled


@pytest.mark.rule(REDIRECT, FLEE)
def test_a_failed_test_sends_the_charge_on_at_the_first_target_and_the_second_never_flees() -> None:
    g = _two_targets()
    events = g.apply({**BOTH_FLEE, "if_both_flee": "guards"}, ScriptedDice([1, 1, 6, 5, 6, 6]))
    assert kinds(events) == ["flee", "redirect", "charge"] and "it charges spears still" in events[1].message
    assert not g.state.unit("guards").has(Status.FLEEING) and not g.state.unit("spears").alive


@pytest.mark.rule(REDIRECT, FLEE)
def test_a_second_target_already_fleeing_flees_again_and_is_no_longer_refused() -> None:
    """A unit already fleeing must Flee (published.t9a-flee-reaction): the redirect at it is allowed now, and it
    Flees by default; naming Hold for it is refused."""
    g = _two_targets(["fleeing"])
    redirect = {**BOTH_FLEE, "redirect_reaction": None}
    assert g.check(redirect).legal and "guards is fleeing, so it Flees" in g.check(redirect).reason
    refused(g, {**redirect, "redirect_reaction": "hold"}, FLEE, "guards is fleeing")
    events = g.apply(redirect, ScriptedDice([1, 1, 2, 3, 3, 3, 6, 6]))
    assert kinds(events) == ["flee", "redirect", "flee", "charge_choice", "charge"]


@pytest.mark.rule(REDIRECT)
def test_the_choice_is_one_of_the_two_targets_and_only_when_the_second_flees() -> None:
    g = _two_targets()
    before = g.state
    refused(g, {**BOTH_FLEE, "if_both_flee": "hero"}, REDIRECT, "either target, spears or guards, not hero")
    refused(g, {**BOTH_FLEE, "if_both_flee": "orcs"}, REDIRECT, "not orcs")
    refused(g, {**BOTH_FLEE, "redirect_reaction": "hold", "if_both_flee": "spears"}, REDIRECT, "only when guards Flees")
    refused(g, {**BOTH_FLEE, "redirect_reaction": None, "if_both_flee": "spears"}, REDIRECT, "only when guards Flees")
    engaged = Game(g.state.replace_unit(g.state.unit("guards").with_status(Status.ENGAGED)))
    refused(engaged, BOTH_FLEE, FLEE, "engaged in combat")
    assert g.state is before


@pytest.mark.rule(REDIRECT, FLEE, "core.test.leadership")
@pytest.mark.parametrize("chosen", ["spears", "guards"])
def test_the_exact_odds_of_a_charge_at_two_fleeing_targets_equal_brute_force(chosen: str) -> None:
    """Every die a branch: two flee moves, the Discipline test and the Charge Range; the second flee and the choice
    come only after a passed test (2D6 at most Ld 7: 21/36)."""
    weights = exact_odds_as_brute_force(_two_targets().state, {**BOTH_FLEE, "if_both_flee": chosen})
    which = "first_target" if chosen == "spears" else "second_target"
    chose = sum((p for o, p in weights if f"charge_choice.outcome: {which}" in o.labels()), Fraction(0))
    assert chose == Fraction(21, 36)
    assert not any(f"charge_choice.outcome: {'second_target' if which == 'first_target' else 'first_target'}"
                   in o.labels() for o, _ in weights)
