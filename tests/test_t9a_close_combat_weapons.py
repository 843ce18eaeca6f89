"""The 9th Age's Close Combat Weapons (judge round 29): the 2022 rulebook's mundane weapons as data, read in melee
(published.t9a-close-combat-weapons and each weapon's clause), refused by name at load when misspelt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from _t9a import scenario
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import HerohammerError, ScenarioError
from herohammer.game import Game
from herohammer.profiles import Profile
from herohammer.rulesets.t9a_weapons import WEAPON_CLAUSES, close_combat_weapons, close_combat_weapons_from_data, wielded
from herohammer.scenario import state_from_data, state_to_data
from herohammer.units import Model
from test_t9a_melee import melee

CCW = "published.t9a-close-combat-weapons"
FIGHT = {"do": "fight", "unit": "spears"}


def _line(g: Game) -> str:
    return str(g.log[0].message)


def _model(weapons: list[str], **profile: int) -> Model:
    base = dict(ws=4, bs=4, s=3, t=3, w=1, i=5, a=1, ld=8)
    base.update(profile)
    from herohammer.scenario import state_from_data as _s

    data = scenario(n=5, hero_weapons=weapons)
    hero = _s(data).unit("hero").models[0]
    from dataclasses import replace

    return replace(hero, profile=replace(hero.profile, **base))


def test_the_bundled_weapons_are_the_2022_rulebooks() -> None:
    table = close_combat_weapons()
    assert {"great weapon", "halberd", "paired weapons", "spear", "lance", "light lance", "hand weapon"} <= set(table)
    gw = table["great weapon"]
    assert (gw.strength, gw.ap, gw.initiative, gw.two_handed) == (2, 2, 0, True)
    assert (table["halberd"].strength, table["halberd"].ap) == (1, 1)
    assert (table["paired weapons"].attacks, table["paired weapons"].offensive) == (1, 1)
    assert table["spear"].extra_rank and table["spear"].first_round_agility == 2
    assert table["lance"].charging and table["light lance"].charging


@pytest.mark.rule("published.t9a-great-weapon", CCW)
def test_a_great_weapon_strikes_at_initiative_0_with_strength_plus_2() -> None:
    g = melee(boss=False, hero_weapons=["great weapon"])
    g.apply(FIGHT, SeededDice(1))
    line = _line(g)
    # the Hero (I6, S4) strikes after the orcs (I2), at step 0, at S6
    assert "I0: elves 3 attacks with great weapon (S6 AP2) at orcs" in line, line
    assert line.index("I2: orcs") < line.index("I0: elves"), line
    assert CCW in g.log[0].rules and "published.t9a-great-weapon" in g.log[0].rules


@pytest.mark.rule("published.t9a-halberd", "published.t9a-paired-weapons", "published.t9a-hand-weapon", CCW)
def test_a_halberd_adds_strength_and_paired_weapons_an_attack_and_weapon_skill() -> None:
    g = melee(boss=False, hero_weapons=["halberd"])
    g.apply(FIGHT, SeededDice(1))
    assert "I6: elves 3 attacks with halberd (S5 AP1) at orcs" in _line(g), _line(g)
    g = melee(boss=False, hero_weapons=["paired weapons"])
    g.apply(FIGHT, SeededDice(1))
    assert "I6: elves 4 attacks with paired weapons (S4) at orcs" in _line(g), _line(g)
    assert any("to hit (WS7)" in r.purpose for r in g.log[0].rolls), g.log[0].rolls
    # a hand weapon (every model has one) gives nothing: three attacks, S4, WS6
    g = melee(boss=False, hero_weapons=["hand weapon"])
    g.apply(FIGHT, SeededDice(1))
    assert "I6: elves 3 attacks with hand weapon (S4) at orcs" in _line(g), _line(g)
    assert "published.t9a-hand-weapon" in g.log[0].rules


@pytest.mark.rule("published.t9a-spear", CCW)
def test_spears_fight_in_an_extra_rank_and_gain_agility_when_charged_not_when_charging() -> None:
    def spears(status: list[str], orc_status: list[str]) -> Game:
        data = scenario(n=15, joined=False, phase="melee", active="elves", enemy_y=20,
                        spear_status=["engaged", *status],
                        orc_status=["engaged", *orc_status])
        for m in data["sides"]["elves"][0]["models"]:
            m["weapons"] = ["spear"]
        return Game(state_from_data(data))

    # charged by the orcs this turn: the First Round, the spears (I5) strike at I7 with Armour Penetration 2
    g = spears([], ["charged"])
    g.apply(FIGHT, SeededDice(3))
    line = _line(g)
    # five in the front rank, ten supporting from the second and third ranks (Fight in Extra Rank)
    assert "I7: elves 15 attacks with spear (S3 AP2) at orcs" in line, line
    # the spears charged: no Agility, Armour Penetration +1 only
    g = spears(["charged"], [])
    g.apply(FIGHT, SeededDice(3))
    assert "I5: elves 15 attacks with spear (S3 AP1) at orcs" in _line(g), _line(g)


@pytest.mark.rule("published.t9a-lance", "published.t9a-light-lance", CCW)
def test_a_lance_gives_its_bonus_only_when_charging() -> None:
    knight = _model(["lance"], s=4)
    assert wielded(knight, True, True, False).profile.s == 6
    assert wielded(knight, False, True, False).profile.s == 4
    light = _model(["light lance", "great weapon"], s=4)
    assert wielded(light, True, True, False).profile.s == 5  # the first listed is the one used
    assert wielded(light, True, True, False).profile.i == light.profile.i


@pytest.mark.rule("published.t9a-light-lance", "published.t9a-lance", CCW)
def test_a_hero_s_light_lance_strikes_harder_in_play_only_when_his_unit_charged() -> None:
    """Played through the fight (the test above asks ``wielded`` alone): +1 S and +1 AP when Charging, else none."""
    for charged, words in ((True, "3 attacks with light lance (S5 AP1) at orcs"),
                           (False, "3 attacks with light lance (S4) at orcs")):
        data = scenario(phase="melee", active="elves", enemy_y=20, hero_weapons=["light lance"],
                        spear_status=["engaged", *(["charged"] if charged else [])], orc_status=["engaged"])
        g = Game(state_from_data(data))
        g.apply(FIGHT, SeededDice(1))
        assert f"I6: elves {words}" in _line(g), _line(g)
        assert "published.t9a-light-lance" in g.log[0].rules


@pytest.mark.rule("published.t9a-spear")
def test_a_spear_engaged_in_the_flank_gains_no_first_round_bonus() -> None:
    spearman = _model(["spear"])
    assert wielded(spearman, False, True, True).profile.i == 5 and wielded(spearman, False, True, True).ap == 1
    assert wielded(spearman, False, True, False).profile.i == 7 and wielded(spearman, False, True, False).ap == 2
    assert wielded(spearman, False, False, False).profile.i == 5  # a later round


def test_a_model_with_a_close_combat_weapon_listed_first_still_shoots_its_bow() -> None:
    data = scenario(n=5, orcs=5, phase="shooting", active="orcs")
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["spear", "bow"]
    g = Game(state_from_data(data))
    assert g.check({"do": "shoot", "unit": "orcs", "target": "spears"}).legal
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, SeededDice(2))
    assert "5 shots" in events[0].message or "5 shot" in events[0].message, events[0].message
    assert state_from_data(state_to_data(g.state)) == g.state


def test_a_misspelt_weapon_in_a_scenario_is_refused_naming_the_field() -> None:
    data = scenario(n=5, hero_weapons=["great weapn"])
    with pytest.raises(ScenarioError) as err:
        state_from_data(data)
    assert "models[0].weapons[0]" in str(err.value) and "did you mean 'great weapon'" in str(err.value)


def test_a_misspelt_weapon_through_the_cli_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario(n=5, hero_weapons=["halbred"])))
    run = subprocess.run([sys.executable, "-m", "herohammer", "check", str(path), "--action", json.dumps(FIGHT)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "Traceback" not in run.stderr, run
    said = run.stdout + run.stderr
    assert "bad.yaml" in said and "weapons[0]" in said and "halberd" in said, said


@pytest.mark.parametrize("item, field", [
    ({"name": "club", "rule": "published.t9a-club", "strength": "2"}, "strength"),
    ({"name": "club", "rule": "published.t9a-club", "strength": 9}, "strength"),
    ({"name": "club", "rule": "published.t9a-club", "charging": 1}, "charging"),
    ({"name": "club", "rule": "published.t9a-club", "reach": 2}, "reach"),
    ({"name": "club"}, "rule"),
])
def test_a_malformed_weapon_in_the_data_is_one_error_naming_the_entry_and_field(item: dict[str, Any],
                                                                                  field: str) -> None:
    with pytest.raises(HerohammerError) as err:
        close_combat_weapons_from_data([{"name": "spear", "rule": "published.t9a-spear"}, item], "weapons.yaml")
    assert str(err.value).startswith(f"weapons.yaml[1].{field}"), err.value


def test_a_weapon_given_twice_is_refused() -> None:
    with pytest.raises(HerohammerError, match=r"\[1\]\.name"):
        close_combat_weapons_from_data([{"name": "Spear", "rule": "published.t9a-spear"},
                                        {"name": "spear", "rule": "published.t9a-spear"}], "w.yaml")


def test_every_weapon_cites_a_published_clause_listed_by_rules() -> None:
    text = (Path(__file__).parent.parent / "src/herohammer/data/rules.yaml").read_text()
    for spec in close_combat_weapons().values():
        assert f"id: {spec.rule}\n" in text, spec.rule


def test_herohammer_rules_calls_every_weapons_clause_implemented_by_the_code_that_applies_its_row() -> None:
    """Each weapon's bonus is data, applied by ``wielded``: ``herohammer rules`` once said "no" for the Great Weapon,
    Spear, Lance and others while play applied them (the tests above)."""
    assert {spec.rule for spec in close_combat_weapons().values()} == set(WEAPON_CLAUSES)
    out = subprocess.run([sys.executable, "-m", "herohammer", "rules", "--ruleset", "published", "--json"],
                         capture_output=True, text=True, check=True).stdout
    rows = {row["id"]: row for row in json.loads(out)["result"]}
    for rule in WEAPON_CLAUSES:
        assert rows[rule]["implemented"], rule
        assert "herohammer.rulesets.t9a_weapons.wielded" in rows[rule]["implemented_by"], rule
