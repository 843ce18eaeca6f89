"""Troop types: how far they move and assault in each edition, and who may split attacks."""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.game import Game

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def scenario(ruleset: str, phase: str, mine: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> Game:
    return Game.from_data({"ruleset": ruleset, "phase": phase, "active": "blue",
                           "sides": {"blue": mine, "red": theirs}})


def riders(kind: str, character: bool = False) -> dict[str, Any]:
    unit: dict[str, Any] = {"id": "riders", "type": kind, "models": [
        {"name": "R1", "profile": MARINE, "at": [20, 20]}]}
    if character:
        unit["character"] = "independent"
    else:
        unit["models"].append({"name": "R2", "profile": MARINE, "at": [22, 20]})
    return unit


def boyz(y: float) -> dict[str, Any]:
    return {"id": "boyz", "models": [{"name": "Boy 1", "profile": BOY, "at": [20, y]}]}


ASSAULT = {"do": "assault", "unit": "riders", "target": "boyz"}


@pytest.mark.rule("40k4.assault.must-charge", "40k4.ic.slowest-model")
@pytest.mark.parametrize("kind,reach", [("cavalry", 12), ("jump_infantry", 6), ("bike", 6), ("infantry", 6)])
def test_4th_edition_assault_ranges_by_type(kind: str, reach: int) -> None:
    far = scenario("40k4", "assault", [riders(kind)], [boyz(29.98)])  # 9" edge to edge
    assert far.check(ASSAULT).legal is (reach == 12)
    near = scenario("40k4", "assault", [riders(kind)], [boyz(25.5)])  # 4.5"
    assert near.check(ASSAULT).legal


@pytest.mark.rule("40k3.ic.assault-alone", "40k3.char.move-as-type")
@pytest.mark.parametrize("kind,legal", [("cavalry", True), ("bike", True), ("jump_infantry", True),
                                        ("infantry", False)])
def test_3rd_edition_lone_character_assaults_12_as_cavalry_bikes_and_jump_infantry_do(kind: str, legal: bool) -> None:
    """A lone character moves by his type's rules (40k3.char.move-as-type): 3rd edition bikes and jump infantry assault
    12" as cavalry do, so they count as cavalry for 40k3.ic.assault-alone (session 28; before, only cavalry did)."""
    game = scenario("40k3", "assault", [riders(kind, character=True)], [boyz(29.98)])  # 9"
    ruling = game.check(ASSAULT)
    assert ruling.legal is legal and "40k3.ic.assault-alone" in ruling.rules


@pytest.mark.rule("40k3.char.move-as-type")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_cavalry_moves_6_inches_like_infantry_and_bikes_12(ruleset: str) -> None:
    move = {"do": "move", "unit": "riders", "to": [[20, 30], [22, 30]]}  # 10"
    cavalry = scenario(ruleset, "movement", [riders("cavalry")], [boyz(45)])
    ruling = cavalry.check(move)
    assert not ruling.legal and "6" in ruling.reason
    assert scenario(ruleset, "movement", [riders("bike")], [boyz(45)]).check(move).legal


@pytest.mark.rule("40k3.char.attack-allocation")
def test_troopers_split_attacks_only_against_opponents_differing_in_ws_or_s() -> None:
    marine = {"id": "marine", "models": [{"name": "Marine", "profile": "WS4 BS4 S4 T4 W1 I4 A2 Ld8 Sv3+",
                                          "at": [20, 20]}]}
    grots = {"id": "grots", "models": [{"name": "Grot", "profile": "WS2 BS3 S2 T2 W1 I2 A1 Ld5 Sv-",
                                        "at": [20.99, 20]}]}
    boy = {"id": "boyz", "models": [{"name": "Boy", "profile": BOY, "at": [20, 20.99]}]}
    split = {"do": "allocate", "character": "marine", "attacks": {"Boy": 1, "Grot": 1}}
    mixed = scenario("40k3", "assault", [marine], [boy, grots])
    assert mixed.check(split).legal
    twin = {"id": "more_boyz", "models": [{"name": "Boy 2", "profile": BOY, "at": [20.99, 20]}]}
    same = scenario("40k3", "assault", [marine], [boy, twin])
    ruling = same.check({"do": "allocate", "character": "marine", "attacks": {"Boy": 1, "Boy 2": 1}})
    assert not ruling.legal and ruling.rules == ("40k3.char.attack-allocation",)


@pytest.mark.rule("40k3.char.move-as-type")
def test_models_move_around_other_models_not_through_them_unless_they_jump() -> None:
    blocker = {"id": "boyz", "models": [{"name": "Boy 1", "profile": BOY, "at": [20, 23]}]}
    through = {"do": "move", "unit": "riders", "to": [[20, 26], [22, 26]]}
    walkers = scenario("40k3", "movement", [riders("infantry")], [blocker])
    ruling = walkers.check(through)
    assert not ruling.legal and "through Boy 1" in ruling.reason
    before = walkers.state
    with pytest.raises(ValueError):
        walkers.apply(through)
    assert walkers.state == before
    around = {"do": "move", "unit": "riders", "to": [[23, 25], [25, 25]]}
    assert walkers.check(around).legal
    assert scenario("40k3", "movement", [riders("jump_infantry")], [blocker]).check(through).legal
