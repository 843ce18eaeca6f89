"""BattleScribe rosters (session 22): a Template weapon (range 'Template': a flamer) is read and said not to be used,
citing published.template-weapons, since herohammer places no template; unit-level grenades, which fight as a model
without them does, leave no note. The rosters are written here in the BattleScribe roster schema; no community
data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from _cli import result_of, run
from herohammer.battlescribe import read_battlescribe
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from test_battlescribe_21 import BOLT_PISTOL, BOLTGUN, MISSILE, model, profile, roster, scenario_of, shots_by_weapon, \
    unit, weapon

FLAMER = ("Flamer", {"Range": "Template", "S": "4", "AP": "5", "Type": "Assault 1"})
# as a 3rd edition data set prints them: krak grenades and melta bombs a weapon profile with nothing filled in
KRAK = ("Krak Grenades", {"Range": "", "S": "", "AP": "", "Type": "", "Abilities": "Strength 6 against vehicles"})
MELTA_BOMBS = ("Melta Bombs", {"Range": "", "S": "", "AP": "", "Type": "", "Abilities": "against vehicles"})


def frag() -> str:
    return ('<selection id="s-frag22" name="Frag Grenades" entryId="e-frag" number="1" type="upgrade"><profiles>'
            f'{profile("Frag Grenades", "Abilities", {"Description": "Assault through cover"})}</profiles></selection>')


def burners(tmp_path: Path) -> Path:
    """Four boltgun Marines and one with a flamer and a bolt pistol, its own selection's."""
    return roster(tmp_path / "burners.ros", unit(
        "Tactical Squad", model("Space Marine", 4, weapon(*BOLTGUN, number=4)),
        model("Space Marine", 1, weapon(*FLAMER, number=1), weapon(*BOLT_PISTOL, number=1), ident="s-burner")))


@pytest.mark.rule("published.template-weapons")
def test_a_template_weapon_is_said_not_used_and_the_model_fires_its_other_weapon(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = burners(tmp_path)
    squad = read_battlescribe(path).unit("Tactical Squad")
    flamer = next(w for w in squad.weapons if w.name == "Flamer")
    assert flamer.usable is None and "a Template weapon" in flamer.problem
    assert "[published.template-weapons]" in flamer.problem
    data, err = scenario_of(path, capsys)
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, err
    assert (f"note: {path}: Space Marine (selection s-burner): weapon 'Flamer' not used (a Template weapon: herohammer "
            "places no template") in notes[0]
    assert "not a number of inches" not in err  # the old words, which named no reason a player could act on
    assert "stand-in profile under the scenario's weapons:" in notes[0]
    side = next(iter(data["sides"]))
    models = data["sides"][side][0]["models"]
    assert [m.get("weapons") for m in models] == [["Boltgun"]] * 4 + [["Bolt Pistol"]]
    # end to end: the flamer's bearer fires his bolt pistol, the rest their boltguns; nothing fires a flamer
    other = [s for s in data["sides"] if s != side][0]
    front = max(m["at"][1] for m in models)
    data["sides"][other] = [{"id": "orks", "models": [
        {"name": f"Boy {k}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "at": [4 + 1.5 * k, front + 7]}
        for k in range(5)]}]
    data["phase"] = "shooting"
    game = Game(state_from_data(data, "burners.yaml"), dice=ScriptedDice([1] * 100))
    events = game.apply({"do": "shoot", "unit": "tactical_squad", "target": "orks"})
    assert shots_by_weapon(events) == Counter({"Boltgun": 8, "Bolt Pistol": 1})


@pytest.mark.rule("published.template-weapons")
def test_the_catalogue_command_says_why_a_template_weapon_is_not_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = burners(tmp_path)
    code, out, err = run(["catalogue", str(path), "--unit", "Tactical Squad", "--json"], capsys)
    assert code == 0, err
    found = result_of(out)["unit"]
    flamer = next(w for w in found["weapons"] if w["name"] == "Flamer")
    assert flamer["printed"]["Range"] == "Template" and "herohammer" not in flamer
    assert "published.template-weapons" in flamer["problem"]
    # a type that says Template (some data sets print it there) reads the same
    typed = roster(tmp_path / "typed.ros", unit(
        "Squad", model("Marine", 2, weapon("Hand Flamer", {"Range": "-", "S": "3", "AP": "6", "Type": "Template"},
                                           number=2), weapon(*BOLT_PISTOL, number=2))))
    read = read_battlescribe(typed).unit("Squad")
    assert "published.template-weapons" in read.weapons[0].problem and read.models[0].weapons == (
        "Hand Flamer", "Bolt Pistol")
    assert read.model_weapons(read.models[0]) == ("Bolt Pistol",)


@pytest.mark.rule("published.template-weapons")
def test_a_unit_level_template_weapon_says_it_is_not_used_rather_than_given_to_no_model(tmp_path: Path) -> None:
    path = roster(tmp_path / "unit_flamer.ros", unit(
        "Tactical Squad", weapon(*FLAMER, number=1), model("Space Marine", 5, weapon(*BOLTGUN, number=5))))
    squad = read_battlescribe(path).unit("Tactical Squad")
    assert len(squad.notes) == 1, squad.notes
    assert "weapon 'Flamer' not used (a Template weapon" in squad.notes[0]
    assert "given to no model" not in squad.notes[0]  # adding it to a model's weapons would not load: no profile


def test_unit_level_grenades_leave_no_note_while_a_missile_launcher_still_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = roster(tmp_path / "grenades.ros", unit(
        "Tactical Squad", frag(), weapon(*KRAK, number=1), weapon(*MELTA_BOMBS, number=1),
        model("Space Marine", 9, weapon(*BOLTGUN, number=9)),
        model("Space Marine Sergeant", 1, weapon(*BOLT_PISTOL, number=1))))
    squad = read_battlescribe(path).unit("Tactical Squad")
    assert squad.notes == ()  # the old import said "'Krak Grenades' (1 for 10 models ...) is given to no model"
    assert {w.name for w in squad.weapons} >= {"Krak Grenades", "Melta Bombs"}  # still listed as printed
    data, err = scenario_of(path, capsys)
    assert "note:" not in err, err
    with_launcher = roster(tmp_path / "launcher.ros", unit(
        "Tactical Squad", weapon(*KRAK, number=1), weapon(*MISSILE, number=1),
        model("Space Marine", 10, weapon(*BOLTGUN, number=10))))
    notes = read_battlescribe(with_launcher).unit("Tactical Squad").notes
    assert len(notes) == 1 and "'Missile Launcher' (1 for 10 models" in notes[0] and "given to no model" in notes[0]


def test_a_unit_level_close_combat_weapon_that_changes_the_fight_is_still_noted(tmp_path: Path) -> None:
    fist = ("Power Fist", {"Range": "-", "S": "x2", "AP": "-", "Type": "Close Combat"})
    hammer = ("Thunder Hammer", {"Range": "-", "S": "8", "AP": "-", "Type": "Close Combat"})
    path = roster(tmp_path / "fist.ros", unit(
        "Assault Squad", weapon(*fist, number=1), weapon(*hammer, number=1),
        model("Space Marine", 5, weapon(*BOLT_PISTOL, number=5))))
    notes = read_battlescribe(path).unit("Assault Squad").notes
    assert len(notes) == 2 and "'Power Fist'" in notes[0] and "'Thunder Hammer'" in notes[1]


def test_a_strength_printed_as_user_reads_as_the_users() -> None:
    from herohammer.battlescribe import weapon_data

    # a 3rd edition data set prints a close combat weapon's Strength "As User"; it was refused as not a number
    data, problem = weapon_data("Close Combat Weapon", {"Range": "Melee", "S": "As User", "AP": "-", "Type": "Melee"})
    assert problem == "" and data is not None and data["strength"] == "user" and data["type"] == "melee"


@pytest.mark.rule("published.initiative")
def test_a_power_fist_printed_with_its_strength_doubled_reads_as_one() -> None:
    """A BattleScribe power fist (Strength "x2", melee) reads as the engine's power fist: the user's Strength doubled,
    no armour save, blows at Initiative 1; a "+1" Strength adds to the user's; a gun's "x2" is no Strength."""
    from herohammer.battlescribe import weapon_data
    from herohammer.weapons import find_weapon, weapon_from_data

    data, problem = weapon_data("Power Fist", {"Range": "-", "S": "x2", "AP": "-", "Type": "Melee"})
    assert problem == "" and data is not None
    assert weapon_from_data(data) == weapon_from_data({**find_weapon("power fist").to_data(), "name": "Power Fist"})
    data, problem = weapon_data("Big Choppa", {"Range": "-", "S": "User +2", "AP": "-", "Type": "Melee"})
    assert problem == "" and data is not None and data["strength"] == "+2" and "strikes_at" not in data
    data, problem = weapon_data("Odd gun", {"Range": "24", "S": "x2", "AP": "-", "Type": "Assault 1"})
    assert data is not None and data["strength"] == "user"
