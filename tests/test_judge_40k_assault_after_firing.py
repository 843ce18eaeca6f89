"""No assault after firing a Rapid Fire, Heavy or Ordnance weapon (published.assault-after-firing), 40k 3rd and 4th.

Before session 24 the bar was not modelled: a squad that fired its boltguns could assault the Boyz it shot. Each case
plays the shooting and then asks for the assault through ``Game``; an assault refused leaves the state unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.units import Status

from _w40k import HERO, TROOPER, assert_illegal, assert_legal, game, model, scenario

EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
ID = "published.assault-after-firing"
TYRANT = "WS8 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+"


def armed(name: str, x: float, y: float, weapons: list[str], profile: str = TROOPER) -> dict[str, Any]:
    return {**model(name, x, y, 8, profile), "weapons": weapons}


def squad_and_boyz(ruleset: str, weapons: list[str], character: list[str] | None = None, unit_type: str = "infantry",
                   profile: str = TROOPER) -> Any:
    """Red's three-model squad (each carrying ``weapons``, first listed fired) 5" south of five Boyz; with
    ``character``, a Chaplain carrying those weapons has joined it. Red's Shooting phase; nobody moved."""
    red: list[dict[str, Any]] = [{"id": "squad", "type": unit_type,
                                  "models": [armed(f"Marine {i}", 30 + 2 * i, 20, weapons, profile) for i in range(3)]}]
    if character is not None:
        red.append({"id": "chap", "character": "independent", "joined": "squad",
                    "models": [armed("Chaplain", 36, 20, character, HERO)]})
    boyz = {"id": "boyz", "models": [armed(f"Boy {i}", 28 + 2 * i, 25, ["choppa"], "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+")
                                     for i in range(5)]}
    weapons_data = [{"name": "choppa", "type": "melee", "range": 0, "strength": "user", "ap": "-"}]
    return game(scenario(ruleset, red, [boyz], phase="shooting", weapons=weapons_data))


def shoot_then_assault(g: Any, unit: str = "squad") -> dict[str, Any]:
    g.apply({"do": "shoot", "unit": unit, "target": "boyz"})
    while g.state.phase.value != "assault":
        g.apply({"do": "end_phase"})
    return {"do": "assault", "unit": unit, "target": "boyz"}


@pytest.mark.rule(ID, "published.assault-after-shooting")
@EDITIONS
def test_a_squad_that_fired_boltguns_may_not_assault_but_one_that_fired_bolt_pistols_may(ruleset: str) -> None:
    g = squad_and_boyz(ruleset, ["bolter"])
    assault = shoot_then_assault(g)
    assert g.state.unit("squad").has(Status.FIRED_NO_ASSAULT)
    refused = assert_illegal(g, assault, ID)
    assert "squad may not assault" in str(refused) and "Rapid Fire" in str(refused)
    g = squad_and_boyz(ruleset, ["bolt pistol", "bolter"])
    assault = shoot_then_assault(g)
    assert not g.state.unit("squad").has(Status.FIRED_NO_ASSAULT)
    assert_legal(g, assault)
    g.apply(assault)
    assert g.state.unit("squad").has(Status.LOCKED)


def assault_refusal(ruleset: str, weapons: list[str], **kwargs: Any) -> str | None:
    """Shoot with the squad (``squad_and_boyz``'s arguments), then ask for its assault: None when legal, else the
    refusal's words (checked to cite the rule and to leave the state unchanged)."""
    g = squad_and_boyz(ruleset, weapons, **kwargs)
    assault = shoot_then_assault(g)
    if g.check(assault).legal:
        return None
    return str(assert_illegal(g, assault, ID))


@pytest.mark.rule(ID, "40k3.char.must-assault", "40k4.assault.must-charge")
@EDITIONS
def test_the_bar_is_the_whole_units_with_its_joined_character(ruleset: str) -> None:
    """The squad fired bolt pistols but the Chaplain in it a boltgun: the unit assaults whole, so none of it may; the
    refusal names him. The other way round (his pistol, their boltguns) it is refused too."""
    assert "chap, who is part of it" in (assault_refusal(ruleset, ["bolt pistol"], character=["bolter"]) or "")
    assert assault_refusal(ruleset, ["bolter"], character=["bolt pistol"]) is not None
    assert assault_refusal(ruleset, ["bolt pistol"], character=["bolt pistol"]) is None


@pytest.mark.rule(ID)
@EDITIONS
def test_heavy_weapons_bar_infantry_but_not_a_monstrous_creature_and_assault_weapons_bar_nothing(ruleset: str) -> None:
    assert assault_refusal(ruleset, ["heavy bolter"]) is not None
    assert assault_refusal(ruleset, ["heavy bolter"], unit_type="monstrous_creature", profile=TYRANT) is None
    assert assault_refusal(ruleset, ["storm bolter"]) is None


@pytest.mark.rule(ID)
@EDITIONS
def test_the_bar_lasts_the_turn_only(ruleset: str) -> None:
    """Once red's turn ends the squad's bar is gone (a turn status, as having shot)."""
    g = squad_and_boyz(ruleset, ["bolter"])
    shoot_then_assault(g)
    assert g.state.unit("squad").has(Status.FIRED_NO_ASSAULT)
    g.apply({"do": "end_phase"})
    assert g.state.active == "blue"
    assert not g.state.unit("squad").has(Status.FIRED_NO_ASSAULT)
