"""Session 48: a unit of several models (and a unit with a character in it) charges the 2022 text's way, forwards
after at most one Wheel, its front onto the Target Facing (published.t9a-charge, published.t9a-wheel).

The text (Move Chargers, Charge Move): "The unit can move forwards an unlimited distance. A single Wheel can be
performed during the move (a Wheel may not exceed 90)"; "The Front Facing of the Charging unit must contact the"
Target Facing, the Facing of the charged unit in whose Arc the centre of the charger's front stands as the move
begins. A Wheel turns the unit about its front corner on the inside of the turn; what it costs of the move is the arc
its outer front corner travels (published.t9a-wheel), so the Charge Range must reach the wheel's arc plus the forward
move. Every expected number below is worked out in the test from the bases (the Spearmen five 20mm files, the orcs
five 25mm files facing down the table) by trigonometry: the wheel's arc, then how far the front goes forward until
the orcs' front corner meets it.

The charger: Spearmen, front centre (30, 20), facing up the table; their right front corner R = (30 + 2.5 * 20mm, 20).
The target: orcs facing down the table, their front edge at y = ``oy``, centre x = 40, so their front's near (left,
as the table reads) corner A = (40 - 2.5 * 25mm, oy). Straight up the Spearmen's front passes left of the orcs; a
wheel right (clockwise, about R) of phi degrees turns their front towards the orcs, which their right front corner's
forward line passes inside A once tan(phi) >= (A - R).x / (A - R).y: the smallest whole degree that does it is the
wheel. Then A meets their front after a forward move of (A - R) . (sin phi, cos phi).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import result_of, run
from _t9a import offered, refused, reloading_game, saved_and_loaded
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.rulesets import get_ruleset
from herohammer.units import Status

CHARGE = "published.t9a-charge"
WHEEL = "published.t9a-wheel"
CHARGE_ARC = "published.t9a-charge-arc"
MM = 25.4
SPEAR = "WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10"
ORC = "WS3 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8"  # no shooting weapon: the orcs Hold
HERO = "WS6 BS6 S4 T4 W3 I6 A3 Ld9 Sv4+ Adv5 Mar10"
ADV = 5
FRONT = 5 * 20 / MM  # the Spearmen's front, 3.94"
R = (30 + FRONT / 2, 20.0)  # their right front corner, about which they wheel right


def _data(oy: float, hero: bool = False, spear_x: float = 30.0) -> dict[str, Any]:
    """Spearmen (ten, five files) at (spear_x, 20) facing up; orcs (five, one rank) facing down, front at y = oy."""
    spears: dict[str, Any] = {"id": "spears", "formation": {"position": [spear_x, 20], "files": 5},
                              "models": [{"name": f"s{i}", "profile": SPEAR, "base": [20, 20]} for i in range(10)]}
    elves = [spears]
    if hero:
        elves.append({"id": "hero", "character": "independent", "joined": "spears",
                      "models": [{"name": "Hero", "profile": HERO, "base": [20, 20]}]})
    return {"ruleset": "t9a", "phase": "charge", "active": "elves", "sides": {
        "elves": elves,
        "orcs": [{"id": "orcs", "formation": {"position": [40, oy], "facing": 180, "files": 5},
                  "models": [{"name": f"o{i}", "profile": ORC, "base": [25, 25]} for i in range(5)]}]}}


def _corner(oy: float) -> tuple[float, float]:
    """The orcs' front corner nearest the Spearmen."""
    return 40 - 2.5 * 25 / MM, oy


def _smallest_wheel(oy: float) -> int:
    """The least whole degree the Spearmen wheel right so that their right front corner's forward line passes inside
    the orcs' near front corner."""
    ax, ay = _corner(oy)
    return math.ceil(math.degrees(math.atan((ax - R[0]) / (ay - R[1]))))


def _forward(oy: float, phi: float) -> float:
    """How far the Spearmen go forward after a wheel of phi degrees right until the orcs' corner meets their front."""
    ax, ay = _corner(oy)
    t = math.radians(phi)
    return (ax - R[0]) * math.sin(t) + (ay - R[1]) * math.cos(t)


def _reach(oy: float) -> tuple[int, float, float]:
    """The wheel, its arc (the outer front corner's) and the Charge Range it must reach: arc + forward."""
    phi = _smallest_wheel(oy)
    arc = FRONT * math.radians(phi)
    return phi, arc, arc + _forward(oy, phi)


def _least_reach(oy: float, phi: float) -> float:
    """The reach of a wheel of phi degrees right whose forward move brings the front onto the orcs' front: the arc and
    the least forward move by which the orcs' corner meets the front (it lying within the front's width) or the
    front's left corner meets the orcs' front edge (y = oy, between its ends); infinite when neither does."""
    ax, ay = _corner(oy)
    t = math.radians(phi)
    across = (ax - R[0]) * math.cos(t) - (ay - R[1]) * math.sin(t)  # along the front from its right end (<= 0: on it)
    ahead = [_forward(oy, phi)] if -FRONT <= across <= 0 else []
    lx, ly = R[0] - FRONT * math.cos(t), R[1] + FRONT * math.sin(t)  # the left front corner after the wheel
    if math.cos(t) > 1e-9:
        go = (oy - ly) / math.cos(t)
        if ax <= lx + go * math.sin(t) <= ax + 5 * 25 / MM:
            ahead.append(go)
    return FRONT * t + min(ahead) if ahead else math.inf


def _straight(oy: float) -> float:
    """The shortest straight distance from the Spearmen to the orcs (their right front corner to the orcs' corner)."""
    ax, ay = _corner(oy)
    return math.hypot(ax - R[0], ay - R[1])


def _charge(**more: Any) -> dict[str, Any]:
    return {"do": "charge", "unit": "spears", "target": "orcs", **more}


def _message(events: list[Any]) -> str:
    return next(e.message for e in events if e.kind == "charge")


@pytest.mark.rule(CHARGE)
def test_spearmen_facing_the_orcs_straight_ahead_charge_forward_without_a_wheel() -> None:
    # Orcs centred on the Spearmen's own file line (x = 30), their front 10" up: the forward move is the 10" gap, no
    # wheel; a roll of 2 and 3 reaches it (5 + 5 = 10), 1 and 3 does not; the front ends on the orcs' front.
    data = _data(30)
    data["sides"]["orcs"][0]["formation"]["position"] = [30, 30]
    g = reloading_game(data)
    ruling = g.check(_charge())
    assert ruling.legal and "10.00\" away" in ruling.reason and "wheeling" not in ruling.reason, ruling
    assert _charge() in offered(g, "charge")
    events = g.apply(_charge(), dice=ScriptedDice([2, 3]))
    assert "range 10\" >= 10.00\"" in _message(events)
    spears = g.state.unit("spears")
    assert spears.has(Status.ENGAGED) and spears.formation is not None
    assert spears.formation.position == pytest.approx((30, 30), abs=1e-6) and spears.formation.facing == 0
    g.undo()
    g.apply(_charge(), dice=ScriptedDice([1, 3]))
    assert not g.state.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule(CHARGE, WHEEL, CHARGE_ARC)
def test_spearmen_at_an_angle_wheel_the_least_they_must_and_the_range_is_the_arc_and_the_forward_move() -> None:
    # Orcs' front at y = 30: A = (37.54, 30), R = (31.97, 20). tan(phi) >= 5.57 / 10: phi >= 29.1, so 30 degrees
    # right (at 29 their right corner's line meets the orcs' flank 0.05" above their front corner). The arc is
    # 3.94" * pi/6 = 2.06", the forward move 5.57 sin 30 + 10 cos 30 = 11.45": a reach of 13.51", where the
    # straight way (11.45", the corners' distance) was all it was asked before. A roll of 4 and 4 (13") reached
    # it then and fails now; 4 and 5 (14") charges, wheeling -30 degrees.
    phi, arc, reach = _reach(30)
    assert phi == 30 and _straight(30) < ADV + 8 < reach < ADV + 9
    g = reloading_game(_data(30))
    ruling = g.check(_charge())
    assert ruling.legal and WHEEL in ruling.rules, ruling
    assert f"wheeling -{phi} degrees ({arc:.2f}\" of the move" in ruling.reason and f"{reach:.2f}\" away" in ruling.reason
    before = g.state
    events = g.apply(_charge(), dice=ScriptedDice([4, 4]))
    assert "fails its charge" in _message(events) and f"{reach:.2f}" in _message(events)
    assert not g.state.unit("spears").has(Status.ENGAGED) and not g.state.unit("orcs").has(Status.ENGAGED)
    g.undo()
    assert g.state == before
    g = saved_and_loaded(g)
    events = g.apply(_charge(), dice=ScriptedDice([4, 5]))
    said = _message(events)
    assert f"wheeling -{phi} degrees ({arc:.2f}\"" in said and f"range 14\" >= {reach:.2f}\"" in said, said
    assert WHEEL in [e for e in events if e.kind == "charge"][0].rules
    assert g.state.unit("spears").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.ENGAGED)
    # the front touched the orcs' front corner A, then the Align move turned them flush with the orcs' front about it
    f = g.state.unit("spears").formation
    assert f is not None and f.facing % 360 == pytest.approx(0, abs=1e-6)
    assert f.position[1] == pytest.approx(30, abs=1e-6)
    assert f.position[0] + FRONT / 2 >= _corner(30)[0] - 1e-6  # their right end stands along the orcs' front


@pytest.mark.rule(CHARGE, WHEEL)
def test_a_wheel_named_is_made_as_named_and_one_that_brings_the_front_off_the_target_facing_is_refused() -> None:
    # Named 0: straight up their front passes left of the orcs (its right end at x = 31.97 < 37.54): it meets no orc.
    # Named -29: their right corner's forward line reaches x = 37.54 at y = 20 + 5.57 / tan 29 = 30.05, on the orcs'
    # flank above their front corner: off the Target Facing (their front, in whose Arc the Spearmen's front centre
    # stands: 10" below it, 10" aside, within 45 degrees of its corners). Named -30, as chosen. Each refusal leaves
    # the state unchanged.
    ax, ay = _corner(30)
    assert R[1] + (ax - R[0]) / math.tan(math.radians(29)) > ay + 0.04
    g = reloading_game(_data(30))
    refused(g, _charge(wheel=0), CHARGE, "meets no model of it")
    refused(g, _charge(wheel=-29), WHEEL, "touches it off its front Facing, the Target Facing")
    ruling = g.check(_charge(wheel=-30))
    assert ruling.legal and f"{_reach(30)[2]:.2f}\" away" in ruling.reason, ruling


@pytest.mark.rule(CHARGE, WHEEL)
def test_a_wheel_over_ninety_degrees_is_refused() -> None:
    g = reloading_game(_data(30))
    refused(g, _charge(wheel=-91), WHEEL, "at most 90 degrees")
    refused(g, _charge(wheel=120), WHEEL, "at most 90 degrees")


@pytest.mark.rule(CHARGE, WHEEL)
def test_spearmen_within_range_straight_but_not_with_their_wheel_may_not_charge() -> None:
    # Orcs' front at y = 35: the straight way is 16.00" (within 5" + 12"); the least wheel is 21 degrees
    # (atan(5.57 / 15) = 20.4), its arc 1.44" and the forward move 16.00": 17.44", beyond it. No larger wheel brings
    # the front onto the orcs' front within 17" either (``_least_reach``). Refused, and not offered.
    phi, arc, reach = _reach(35)
    assert phi == 21 and _straight(35) < ADV + 12 < reach
    assert all(_least_reach(35, p) > ADV + 12 for p in range(phi, 91))
    g = reloading_game(_data(35))
    refused(g, _charge(), CHARGE, f"reaches it {reach:.2f}\" away after a -{phi} degree wheel, beyond its greatest")
    assert _charge() not in offered(g, "charge")


@pytest.mark.rule(CHARGE, WHEEL, "t9a.join.part-of-unit")
def test_a_unit_with_a_character_joined_wheels_and_charges_as_one_unit() -> None:
    # The Hero (20mm, Front Rank) stands in the Spearmen's front rank: the front is still five 20mm files, so the wheel,
    # its arc and the reach are those without him (30 degrees, 13.51"); he moves with the unit and has charged too.
    phi, arc, reach = _reach(30)
    g = reloading_game(_data(30, hero=True))
    ruling = g.check(_charge())
    assert ruling.legal and f"wheeling -{phi} degrees" in ruling.reason and f"{reach:.2f}\" away" in ruling.reason
    events = g.apply(_charge(), dice=ScriptedDice([4, 4]))
    assert "fails its charge" in _message(events)
    g.undo()
    hero_at = g.state.unit("hero").models[0].at
    events = g.apply(_charge(), dice=ScriptedDice([5, 4]))
    assert f"range 14\" >= {reach:.2f}\"" in _message(events)
    hero = g.state.unit("hero")
    assert hero.joined == "spears" and hero.has(Status.CHARGED) and hero.models[0].at != hero_at
    f = g.state.unit("spears").formation
    assert f is not None and hero.models[0].at == pytest.approx(f.point_of("Hero"), abs=1e-6)


def _brute(reach: float) -> Fraction:
    """The chance that 5 + 2D6 reaches ``reach``: every one of the 36 rolls counted."""
    return sum((Fraction(1, 36) for a, b in product(range(1, 7), repeat=2) if ADV + a + b >= reach), Fraction(0))


@pytest.mark.rule(CHARGE, WHEEL)
def test_the_odds_of_an_angled_charge_are_the_two_dice_against_the_arc_and_the_forward_move(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 13.51" needs 2D6 >= 8.51, a 9 or more: 10/36 (the straight 11.45" needed 7 or more, 21/36).
    reach = _reach(30)[2]
    want = _brute(reach)
    assert want == Fraction(10, 36) and _brute(_straight(30)) == Fraction(21, 36)
    state = reloading_game(_data(30)).state
    rules = get_ruleset("t9a")
    act = rules.named_now(state, parse_action(_charge()))
    engine = enumerate_outcomes(lambda dice: rules.resolve(state, act, dice)[0].unit("spears").has(Status.ENGAGED))
    assert Fraction(engine.get(True, 0)) == want
    path = tmp_path / "angled.yaml"
    path.write_text(yaml.safe_dump(_data(30)))
    code, out, err = run(["odds", "action", str(path), "--action", yaml.safe_dump(_charge(), default_flow_style=True),
                          "--json"], capsys)
    assert code == 0, err
    data: Any = result_of(out)
    assert data["exact"] and Fraction(data["rows"]["charge.outcome: charged"]) == want, data["rows"]
