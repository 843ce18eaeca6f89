"""BattleScribe rosters (session 19): a second selection of one model is counted, not dropped; a 9th Age model gets
its missile weapon from the roster's weapon profiles, read as the t9a ruleset's table names it, or listed with the
reason it is not used. The rosters under examples/battlescribe are written for these tests in the BattleScribe schema
(no community data)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.battlescribe import read_battlescribe, t9a_missile
from herohammer.game import Game
from herohammer.scenario import state_from_data

DATA = Path(__file__).resolve().parents[1] / "examples" / "battlescribe"
MOB = DATA / "orks_mob_test.ros"
HOST = DATA / "highborn_host_test.ros"
HIGHBORN_CAT = DATA / "highborn_test.cat"


def scenario_of(roster: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, err = run(["scenario", "new", "--roster", str(roster)], capsys)
    assert code == 0, err
    return yaml.safe_load(out)  # type: ignore[no-any-return]


def test_a_40k_rosters_selections_of_one_model_are_all_counted() -> None:
    boyz = read_battlescribe(MOB).unit("Boyz")
    # every selection counted; eight and two of one profile stay apart since their weapons differ (session 21:
    # each model carries its own selection's weapons), and the Boy of another profile (A3) is a kind of its own
    assert [(m.name, m.count, m.profile, m.weapons) for m in boyz.models] == [
        ("Boy", 8, "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", ("slugga",)),
        ("Boy", 2, "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", ("big shoota",)),
        ("Boy", 1, "WS4 BS2 S3 T4 W1 I2 A3 Ld7 Sv6+", ("shoota",))]
    assert boyz.default_weapons == ("slugga", "big shoota", "shoota")


def test_a_scenario_from_the_roster_numbers_every_model_of_one_name(capsys: pytest.CaptureFixture[str]) -> None:
    data = scenario_of(MOB, capsys)
    sides = data["sides"]
    assert isinstance(sides, dict)
    models = sides[next(iter(sides))][0]["models"]
    assert [m["name"] for m in models] == [f"Boy {k}" for k in range(1, 12)]
    assert models[-1]["profile"].split()[6] == "A3"
    state = state_from_data(data, "mob.yaml")
    assert len(state.unit("boyz").models) == 11


def test_a_catalogue_keeps_one_model_per_name_at_its_minimum() -> None:
    spear = read_battlescribe(HIGHBORN_CAT).unit("Spearmen").models
    assert [(m.name, m.count) for m in spear] == [("Spearman", 10)]


def test_a_9th_age_rosters_selections_of_one_model_add_up_and_take_the_missile_weapon() -> None:
    host = read_battlescribe(HOST)
    assert host.ruleset == "t9a"
    archers = host.unit("Archers")
    assert [(m.name, m.count) for m in archers.models] == [("Archer", 10)]
    assert archers.default_weapons == ("longbow",)  # 'Sea Guard Longbow', 30": the table's longbow
    hand = next(w for w in archers.weapons if w.name == "Hand Weapon")
    assert hand.usable is None and "not a missile weapon" in hand.problem
    xbows = host.unit("Crossbowmen")
    assert xbows.default_weapons == ("crossbow S5 AP2",)  # its printed Strength and AP, not the table's 4 and 1
    repeater = next(w for w in xbows.weapons if w.name == "Repeater")
    assert repeater.usable is None and "names none of the t9a ruleset's kinds" in repeater.problem
    captain = host.unit("Captain")
    assert captain.default_weapons == () and 'range 36" is not the crossbow\'s 30"' in captain.weapons[0].problem


@pytest.mark.parametrize("name, chars, read", [
    ("Longbow", {"Range": '30"', "Str": "3"}, "longbow"),
    ("Elven Bow", {"Range": '24"', "Str": "4"}, "bow S4"),
    ("Throwing Weapons", {"Range": '8"', "Str": "As user", "AP": "As user"}, "throwing weapons"),
    ("Throwing Weapons", {"Range": '8"', "Str": "3"}, "throwing weapons S3"),  # a printed number is the weapon's
    ("Great Weapon", {"Range": "Combat", "Str": "+2"}, None),
    ("Bow", {"Range": '24"', "Str": "D6"}, None),
])
def test_a_9th_age_weapon_profile_read_as_the_missile_table_names_it(name: str, chars: dict[str, str],
                                                                    read: str | None) -> None:
    missile, problem = t9a_missile(name, chars)
    assert missile == read and (problem == "") is (read is not None)


@pytest.mark.rule("published.t9a-to-hit-shooting")
def test_the_9th_age_scenario_from_the_roster_shoots_with_the_imported_longbow(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = scenario_of(HOST, capsys)
    assert "weapons" not in data  # the t9a ruleset reads its own table: no 40k profiles written
    sides = data["sides"]
    assert isinstance(sides, dict)
    own = next(iter(sides))
    archers = next(u for u in sides[own] if u["id"] == "archers")
    assert all(m["weapons"] == ["longbow"] for m in archers["models"])
    assert [m["name"] for m in archers["models"]] == [f"Archer {k}" for k in range(1, 11)]
    xbows = next(u for u in sides[own] if u["id"] == "crossbowmen")
    assert xbows["models"][0]["weapons"] == ["crossbow S5 AP2"]
    other = [s for s in sides if s != own][0]
    sides[other] = [{"id": "orcs", "formation": {"position": [10, 36], "facing": 180, "files": 5}, "models": [
        {"name": f"orc{k}", "profile": "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8", "base": [25, 25]}
        for k in range(10)]}]
    data["phase"] = "shooting"
    game = Game(state_from_data(data, "host.yaml"))
    assert {getattr(a, "unit", None) for a in game.legal_actions() if a.do == "shoot"} == {"archers", "crossbowmen"}
    archers_shot = game.apply({"do": "shoot", "unit": "archers", "target": "orcs"})[0].message
    assert "10 shots" in archers_shot and "S3)" in archers_shot  # the longbow's Strength, every archer firing
    game.undo()
    crossbows_shot = game.apply({"do": "shoot", "unit": "crossbowmen", "target": "orcs"})[0].message
    assert "S5 AP2)" in crossbows_shot  # the roster's Strength 5, Armour Penetration 2 crossbow
