"""BattleScribe rosters (session 21): each model carries the weapons of its own model selection, not every weapon of
its unit. The rosters are written here, in the BattleScribe roster schema (a unit selection holding model selections
whose upgrade selections carry the weapon profiles); no community data."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import result_of, run
from herohammer.battlescribe import read_battlescribe
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data

NS = "http://www.battlescribe.net/schema/rosterSchema"
MARINE = {"WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1", "Ld": "8", "Save": "3+"}
BOLTGUN = ("Boltgun", {"Range": '24"', "S": "4", "AP": "5", "Type": "Rapid Fire"})
# herohammer has no template: the test's flamer is printed as a short Assault 1 weapon
FLAMER = ("Flamer", {"Range": '8"', "S": "4", "AP": "5", "Type": "Assault 1"})
BOLT_PISTOL = ("Bolt Pistol", {"Range": '12"', "S": "4", "AP": "5", "Type": "Pistol"})
MISSILE = ("Missile Launcher", {"Range": '48"', "S": "8", "AP": "3", "Type": "Heavy 1"})
_ids = iter(range(10**6))


def profile(name: str, type_name: str, chars: dict[str, str]) -> str:
    body = "".join(f'<characteristic name="{k}" typeId="ct-{k}">{v.replace(chr(34), "&quot;")}</characteristic>'
                   for k, v in chars.items())
    return (f'<profile id="p-{next(_ids)}" name="{name}" hidden="false" typeId="pt-{type_name}" '
            f'typeName="{type_name}"><characteristics>{body}</characteristics></profile>')


def weapon(name: str, chars: dict[str, str], number: int) -> str:
    """An upgrade selection carrying one weapon profile."""
    return (f'<selection id="s-{next(_ids)}" name="{name}" entryId="e-{name}" number="{number}" type="upgrade">'
            f'<profiles>{profile(name, "Weapon", chars)}</profiles></selection>')


def model(name: str, number: int, *upgrades: str, chars: dict[str, str] = MARINE, ident: str = "") -> str:
    """A model selection: its profile and the upgrade selections under it."""
    return (f'<selection id="{ident or f"s-{next(_ids)}"}" name="{name}" entryId="e-{name}" number="{number}" '
            f'type="model"><profiles>{profile(name, "Unit", chars)}</profiles>'
            f'<selections>{"".join(upgrades)}</selections></selection>')


def unit(name: str, *selections: str) -> str:
    return (f'<selection id="s-{next(_ids)}" name="{name}" entryId="e-{name}" number="1" type="unit">'
            f'<selections>{"".join(selections)}</selections></selection>')


def roster(path: Path, *units: str, game: str = "Warhammer 40,000 3rd Edition (test)") -> Path:
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?><roster id="r" name="Test roster" battleScribeVersion="2.03" '
        f'gameSystemId="sys" gameSystemName="{game}" xmlns="{NS}"><forces><force id="f" name="Army" entryId="fo" '
        f'catalogueId="c" catalogueName="test"><selections>{"".join(units)}</selections></force></forces></roster>',
        encoding="utf-8")
    return path


def tactical(tmp_path: Path) -> Path:
    """Eight boltgun Marines, one with a flamer, a sergeant with a bolt pistol; a missile launcher and frag grenades
    (not a weapon profile) chosen for the unit, not for a model."""
    frag = (f'<selection id="s-frag" name="Frag Grenades" entryId="e-frag" number="1" type="upgrade"><profiles>'
            f'{profile("Frag Grenades", "Abilities", {"Description": "Assault through cover"})}</profiles></selection>')
    return roster(tmp_path / "tactical.ros", unit(
        "Tactical Squad", weapon(*MISSILE, number=1), frag,
        model("Space Marine", 8, weapon(*BOLTGUN, number=8)),
        model("Space Marine", 1, weapon(*FLAMER, number=1)),
        model("Space Marine Sergeant", 1, weapon(*BOLT_PISTOL, number=1))))


def test_each_model_carries_its_own_selections_weapons(tmp_path: Path) -> None:
    squad = read_battlescribe(tactical(tmp_path)).unit("Tactical Squad")
    assert [(m.name, m.count, m.weapons) for m in squad.models] == [
        ("Space Marine", 8, ("Boltgun",)), ("Space Marine", 1, ("Flamer",)),
        ("Space Marine Sergeant", 1, ("Bolt Pistol",))]
    assert [squad.model_weapons(m) for m in squad.models] == [("Boltgun",), ("Flamer",), ("Bolt Pistol",)]
    # the unit's missile launcher: one for ten models whose own selections hold their weapons, so given to none
    assert len(squad.notes) == 1 and "'Missile Launcher' (1 for 10 models" in squad.notes[0]
    assert "given to no model" in squad.notes[0]


def test_the_catalogue_command_shows_what_each_roster_model_carries(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tactical(tmp_path)
    code, out, err = run(["catalogue", str(path), "--unit", "Tactical Squad"], capsys)
    assert code == 0, err
    assert "8 x Space Marine" in out and "carries: Boltgun" in out and "carries: Flamer" in out
    assert "note: Tactical Squad" in out and "'Missile Launcher'" in out
    code, out, err = run(["catalogue", str(path), "--unit", "Tactical Squad", "--json"], capsys)
    unit = result_of(out)["unit"]
    assert [m["weapons"] for m in unit["models"]] == [["Boltgun"], ["Flamer"], ["Bolt Pistol"]]
    assert len(unit["notes"]) == 1


def scenario_of(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], str]:
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code == 0, err
    return yaml.safe_load(out), err


def shots_by_weapon(events: list[Any]) -> Counter[str]:
    fired: Counter[str] = Counter()
    for e in events:
        if e.kind == "shots":
            m = re.search(r"(\d+) shots? with (.+?):", e.message)
            assert m is not None, e.message
            fired[m.group(2)] += int(m.group(1))
    return fired


@pytest.mark.rule("published.weapon-profiles")
def test_the_squad_from_the_roster_fires_each_models_own_weapon(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tactical(tmp_path)
    data, err = scenario_of(path, capsys)
    assert f"note: {path}: Tactical Squad" in err and "'Missile Launcher'" in err  # said, not silently dropped
    side = next(iter(data["sides"]))
    models = data["sides"][side][0]["models"]
    assert [(m["name"], m.get("weapons")) for m in models] == (
        [(f"Space Marine {k}", ["Boltgun"]) for k in range(1, 9)] + [("Space Marine 9", ["Flamer"]),
                                                                     ("Space Marine Sergeant", ["Bolt Pistol"])])
    other = [s for s in data["sides"] if s != side][0]
    front = max(m["at"][1] for m in models)
    data["sides"][other] = [{"id": "orks", "models": [
        {"name": f"Boy {k}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "at": [4 + 1.5 * k, front + 7]}
        for k in range(10)]}]
    data["phase"] = "shooting"
    game = Game(state_from_data(data, "tactical.yaml"), dice=ScriptedDice([1] * 200))
    events = game.apply({"do": "shoot", "unit": "tactical_squad", "target": "orks"})
    # eight boltguns at 12" or less: two shots each; one flamer; one bolt pistol (the old import gave every model the
    # missile launcher first, and ten of them fired it)
    assert shots_by_weapon(events) == Counter({"Boltgun": 16, "Flamer": 1, "Bolt Pistol": 1})


def test_a_selection_of_several_models_shares_out_fewer_weapons(tmp_path: Path) -> None:
    path = roster(tmp_path / "ten.ros", unit(
        "Tactical Squad", model("Space Marine", 10, weapon(*BOLTGUN, number=8), weapon(*FLAMER, number=1),
                                weapon(*MISSILE, number=1), weapon(*BOLT_PISTOL, number=10))))
    squad = read_battlescribe(path).unit("Tactical Squad")
    # the boltguns, the flamer and the missile launcher stand in for one another: each on models of its own
    assert [(m.count, m.weapons) for m in squad.models] == [
        (8, ("Boltgun", "Bolt Pistol")), (1, ("Flamer", "Bolt Pistol")), (1, ("Missile Launcher", "Bolt Pistol"))]
    assert not squad.notes


def test_unit_level_weapons_go_to_every_model_when_no_model_selection_holds_one(tmp_path: Path) -> None:
    path = roster(tmp_path / "guard.ros", unit(
        "Veterans", weapon(*BOLTGUN, number=1), model("Veteran", 4), model("Veteran Sergeant", 1)),
        unit("Scouts", weapon("Krak Grenades", {"Range": "-", "S": "6", "AP": "-", "Type": "Melee"}, number=5),
             model("Scout", 5, weapon(*BOLTGUN, number=5))))
    read = read_battlescribe(path)
    veterans = read.unit("Veterans")
    assert [m.weapons for m in veterans.models] == [None, None]  # the roster does not tell them apart: the unit's
    assert [veterans.model_weapons(m) for m in veterans.models] == [("Boltgun",), ("Boltgun",)]
    scouts = read.unit("Scouts")  # a unit-level weapon of one for each model: every model's, after its own
    assert [(m.count, m.weapons) for m in scouts.models] == [(5, ("Boltgun", "Krak Grenades"))] and not scouts.notes


def test_a_scenario_naming_a_roster_model_gives_it_its_own_weapons(tmp_path: Path) -> None:
    tactical(tmp_path)
    data = {"ruleset": "40k3", "active": "a", "catalogues": ["tactical.ros"],
            "sides": {"a": [{"id": "sarge", "models": [{"name": "S", "from": "Space Marine Sergeant", "at": [5, 5]}]}],
                      "b": []}}
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert load_scenario(path).unit("sarge").models[0].weapons == ("Bolt Pistol",)  # not the unit's four


def test_a_model_selections_weapon_that_does_not_read_is_named_with_its_file_and_selection(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    template = ("Flamer", {"Range": "Template", "S": "4", "AP": "5", "Type": "Assault 1"})
    path = roster(tmp_path / "bad.ros", unit(
        "Tactical Squad", model("Space Marine", 4, weapon(*BOLTGUN, number=4)),
        model("Space Marine", 1, weapon(*template, number=1), ident="s-burner")))
    data, err = scenario_of(path, capsys)
    assert (f"note: {path}: Space Marine (selection s-burner): weapon 'Flamer' not used (a Template weapon: "
            "herohammer places no template") in err
    side = next(iter(data["sides"]))
    assert [m.get("weapons") for m in data["sides"][side][0]["models"]] == [["Boltgun"]] * 4 + [None]
    out = tmp_path / "bad.yaml"
    code, printed, err = run(["scenario", "new", "--roster", str(path), "--out", str(out)], capsys)
    assert code == 0 and "# note: " in out.read_text() and "s-burner" in err, err
    bad_profile = roster(tmp_path / "worse.ros", unit(
        "Tactical Squad", model("Space Marine", 4, weapon(*BOLTGUN, number=4), chars={**MARINE, "WS": "many"},
                                ident="s-odd")))
    code, printed, err = run(["scenario", "new", "--roster", str(bad_profile)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(bad_profile) in err and "Space Marine (selection s-odd)" in err and "does not read" in err
    horde = roster(tmp_path / "horde.ros", unit("Horde", model("Boy", 10**9, weapon(*BOLTGUN, number=10**9))))
    code, printed, err = run(["scenario", "new", "--roster", str(horde)], capsys)  # refused before a model is built
    assert code == 2 and f"{horde}: 1,000,000,000 models, more than the limit of 1,000" in err
    endless = tmp_path / "endless.ros"
    endless.write_text(horde.read_text().replace('"1000000000"', '"1e400"'), encoding="utf-8")
    code, printed, err = run(["catalogue", str(endless)], capsys)  # was an OverflowError's traceback
    assert code == 0 and "Traceback" not in err and "1 Boy" in printed, err


T9A_GAME = "The 9th Age: Fantasy Battles 2nd Edition (test)"


def t9a_model(name: str, number: int, *upgrades: str) -> str:
    parts = [profile(f"{name} Global", "1 Global", {"Adv": '5"', "Mar": '10"', "Dis": "8"}),
             profile(f"{name} Defensive", "2 Defensive", {"HP": "1", "Def": "4", "Res": "3", "Arm": "0"}),
             profile(f"{name} Offensive", "3 Offensive", {"Att": "1", "Off": "4", "Str": "3", "AP": "0", "Agi": "5"}),
             profile(f"{name} Size", "0 Size", {"Height": "Standard", "Type": "Infantry", "Base": "20x20"})]
    return (f'<selection id="s-{next(_ids)}" name="{name}" entryId="e-{name}" number="{number}" type="model">'
            f'<profiles>{"".join(parts)}</profiles><selections>{"".join(upgrades)}</selections></selection>')


def test_a_9th_age_model_takes_the_weapon_of_its_own_selection(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    bow = {"Range": '30"', "Str": "3", "AP": "0"}
    path = roster(tmp_path / "he.ros", unit(
        "Wardens", weapon("Hand Weapon", {"Range": "Combat", "Str": "3", "AP": "0"}, number=1),
        t9a_model("Warden", 6, weapon("Longbow", bow, number=6)),
        t9a_model("Warden", 4, weapon("Crossbow", {"Range": '30"', "Str": "4", "AP": "1"}, number=4))), game=T9A_GAME)
    wardens = read_battlescribe(path).unit("Wardens")
    assert [(m.name, m.count, wardens.model_weapons(m)) for m in wardens.models] == [
        ("Warden", 6, ("longbow",)), ("Warden", 4, ("crossbow",))]
    assert not wardens.notes  # the unit's hand weapon (1 for 10): the t9a ruleset fights by profile, nothing to say
    data, err = scenario_of(path, capsys)
    assert "note:" not in err
    side = next(iter(data["sides"]))
    assert [m["weapons"] for m in data["sides"][side][0]["models"]] == [["longbow"]] * 6 + [["crossbow"]] * 4
