"""4th edition Bikes (published.bikes, rulebook p. 81), a character on a bike too (seed 001): Rapid Fire and Heavy
weapons fire after moving as a bike's that stood still, and the bike may still charge after firing them; the
exemption is the bike's own. 3rd edition, whose Bikes page was not at hand, fires and charges as infantry."""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def boyz(y: float) -> dict[str, Any]:
    return {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, y, 7, ORK) for i in range(3)]}


def ride(ruleset: str, weapon: str, boyz_y: float) -> tuple[Game, list[str]]:
    cap = {**hero("cap", 20, 14), "type": "bike"}
    cap["models"] = [{**cap["models"][0], "weapons": [weapon]}]
    g = game(scenario(ruleset, [cap], [boyz(boyz_y)]))
    g.apply({"do": "move", "unit": "cap", "to": [[20, 26]]})
    g.apply({"do": "end_phase"})
    events = g.apply({"do": "shoot", "unit": "cap", "target": "boyz"}, dice=ScriptedDice([1] * 20))
    g.apply({"do": "end_phase"})
    return g, [e.message for e in events if e.kind in ("shots", "note")]


@pytest.mark.rule("published.bikes", "published.weapon-profiles", "published.assault-after-firing")
def test_a_bike_captain_fires_his_heavy_bolter_after_moving_and_may_charge() -> None:
    g, said = ride("40k4", "heavy bolter", 31)
    assert said == ["cap fires its Heavy weapons from a bike after moving, as if it stood still, and may still charge "
                    "this turn", "Cap fires 3 shots with heavy bolter: 0 hits, 0 wounds"]
    assert_legal(g, {"do": "assault", "unit": "cap", "target": "boyz"}, "40k4.assault.alone")


@pytest.mark.rule("published.bikes", "published.weapon-profiles", "published.assault-after-firing")
def test_3rd_edition_bikes_fire_as_infantry() -> None:
    """3rd edition: after moving the bolter fires once up to half range only, and none at 13"; a bike that moved and
    fired it may still charge, as any 3rd edition unit that moved (only one that stood still to fire Rapid Fire or
    Heavy weapons may not, published.assault-after-firing), and one that stood still to fire it may not."""
    _, said = ride("40k3", "bolter", 40)
    assert said == ["Cap, whose unit moved this turn: its bolter (Rapid Fire) at boyz (13.0\") fires no shot after "
                    "moving [published.weapon-profiles]"]
    g, said = ride("40k3", "bolter", 31)
    assert said == ["Cap fires 1 shot with bolter: 0 hits, 0 wounds"]
    assert_legal(g, {"do": "assault", "unit": "cap", "target": "boyz"}, "40k3.ic.assault-alone")
    cap = {**hero("cap", 20, 26), "type": "bike"}
    cap["models"] = [{**cap["models"][0], "weapons": ["bolter"]}]
    still = game(scenario("40k3", [cap], [boyz(31)], phase="shooting"))
    still.apply({"do": "shoot", "unit": "cap", "target": "boyz"}, dice=ScriptedDice([1] * 2))
    still.apply({"do": "end_phase"})
    assert_illegal(still, {"do": "assault", "unit": "cap", "target": "boyz"}, "published.assault-after-firing")


@pytest.mark.rule("published.bikes", "published.assault-after-firing", "40k4.assault.must-charge")
def test_a_bike_captain_with_a_squad_on_foot_that_fired_its_bolters_may_not_charge_with_it() -> None:
    """The exemption is the bike's own: the squad's bolters keep it, and him with it, from charging."""
    cap = {**hero("cap", 22, 18.5, joined="tac"), "type": "bike"}
    cap["models"] = [{**cap["models"][0], "weapons": ["bolter"]}]
    tac = squad("tac", 20, 20)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    g = game(scenario("40k4", [tac, cap], [boyz(25)], phase="shooting"))
    g.apply({"do": "shoot", "unit": "tac", "target": "boyz"}, dice=ScriptedDice([1] * 40))
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.assault-after-firing")
