"""``Game.legal_actions`` offers every choice of Shooting Weapon (published.t9a-shooting-weapons), so a bot can choose
each: the Shooting phase's ``shoot.weapon`` and a charged unit's Stand and Shoot ``charge.reaction_weapon``, beside the
plain action (each model's first listed).  Every action offered is legal, and no two offered arm the models alike."""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import scenario
from herohammer.game import Game
from herohammer.scenario import state_from_data

WEAPONS = "published.t9a-shooting-weapons"


def _game(orc_weapons: list[str], enemy_y: float = 30.0, **kw: Any) -> Game:
    """The orcs, each carrying ``orc_weapons``, ``enemy_y - 20``" (front to front) from the Spearmen."""
    data = scenario(enemy_y=enemy_y, **kw)
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = list(orc_weapons)
    return Game(state_from_data(data))


def _offered(game: Game, do: str, unit: str) -> list[dict[str, Any]]:
    return [a for a in (x.to_json() for x in game.legal_actions()) if a["do"] == do and a["unit"] == unit]


@pytest.mark.rule(WEAPONS)
def test_a_shot_is_offered_with_each_weapon_the_unit_carries() -> None:
    g = _game(["javelin", "crossbow"])  # 10" from the Spearmen: both weapons reach
    shots = _offered(g, "shoot", "orcs")
    assert {(a["target"], a.get("weapon")) for a in shots} == {("spears", None), ("spears", "crossbow")}
    for a in shots:
        assert g.check(a).legal, a
    # one weapon each: only the plain shot
    one = _game(["crossbow"])
    assert [a.get("weapon") for a in _offered(one, "shoot", "orcs")] == [None]


@pytest.mark.rule(WEAPONS)
def test_a_weapon_out_of_reach_is_not_offered() -> None:
    g = _game(["javelin", "crossbow"], enemy_y=34)  # 14": javelins (12") fall short, crossbows reach
    shots = _offered(g, "shoot", "orcs")
    assert [a.get("weapon") for a in shots] == ["crossbow"]
    assert not g.check({"do": "shoot", "unit": "orcs", "target": "spears"}).legal


@pytest.mark.rule(WEAPONS, "t9a.join.part-of-unit")
def test_a_unit_and_its_character_choose_apart_every_combination_once() -> None:
    # the Spearmen carry bows and javelins, their Hero a pistol and a longbow: four ways to arm them, three not plain
    data = scenario(enemy_y=30, active="elves", hero_weapons=["pistol", "longbow"])
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow", "javelin"]
    g = Game(state_from_data(data))
    shots = _offered(g, "shoot", "spears")
    choices = [a.get("weapon") for a in shots]
    assert choices[0] is None and sorted(map(str, choices[1:])) == sorted(map(str, [
        {"spears": "bow", "hero": "longbow"}, {"spears": "javelin", "hero": "pistol"},
        {"spears": "javelin", "hero": "longbow"}]))
    for a in shots:
        assert g.check(a).legal, a


@pytest.mark.rule(WEAPONS, "published.t9a-stand-and-shoot")
def test_a_charge_is_offered_with_each_stand_and_shoot_weapon() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=28)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["javelin", "crossbow"]
    g = Game(state_from_data(data))
    charges = [a for a in _offered(g, "charge", "spears") if a["target"] == "orcs"]
    assert {(a.get("reaction"), a.get("reaction_weapon")) for a in charges} == {
        (None, None), (None, "crossbow"), ("hold", None), ("flee", None)}
    for a in charges:
        assert g.check(a).legal, a


REDIRECT = "published.t9a-redirect-charge"


def _two_targets(guard_weapons: list[str], **kw: Any) -> Game:
    """The orcs 10" from two elf units, the Spearmen and the Guards (Stand and Shoot, each guard carrying
    ``guard_weapons``): both in the orcs' Front Arc and sight (as tests/test_judge_t9a_round8.py sets them)."""
    data = scenario(phase="charge", active="orcs", enemy_y=30, **kw)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    data["sides"]["elves"].append({
        "id": "guards", "rules": ["Stand and Shoot"], "formation": {"position": [42, 20], "files": 5},
        "models": [{"name": f"g{i}", "profile": "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10", "base": [20, 20],
                    "weapons": list(guard_weapons)} for i in range(5)]})
    return Game(state_from_data(data))


@pytest.mark.rule(REDIRECT, WEAPONS)
def test_a_charge_whose_target_flees_is_offered_with_each_redirect_and_its_weapons() -> None:
    g = _two_targets(["bow", "javelin"])
    at_spears = [a for a in _offered(g, "charge", "orcs") if a["target"] == "spears"]
    redirects = [(a.get("reaction"), a.get("redirect"), a.get("redirect_reaction_weapon")) for a in at_spears
                 if "redirect" in a]
    # the Spearmen Flee; the orcs may redirect to the Guards, who Stand and Shoot with their first weapon (the
    # default) or with the javelins: a bot could never redirect a charge before
    assert redirects == [("flee", "guards", None), ("flee", "guards", "javelin")]
    for a in at_spears:
        ruling = g.check(a)
        assert ruling.legal, (a, ruling.reason)
    chosen = g.check(next(a for a in at_spears if a.get("redirect_reaction_weapon") == "javelin"))
    assert REDIRECT in chosen.rules and any("javelin" in n for n in chosen.notes), chosen.notes


@pytest.mark.rule(REDIRECT)
def test_a_target_already_fleeing_is_offered_a_redirect_without_naming_its_flee() -> None:
    from herohammer.units import Status

    g = _two_targets(["bow"])
    g = Game(g.state.replace_unit(g.state.unit("spears").with_status(Status.FLEEING)))
    redirects = [a for a in _offered(g, "charge", "orcs") if a["target"] == "spears" and "redirect" in a]
    assert redirects == [{"do": "charge", "unit": "orcs", "target": "spears", "redirect": "guards"}]
    assert g.check(redirects[0]).legal
