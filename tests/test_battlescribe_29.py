"""BattleScribe data as the community writes it (session 29), found by running the importer on real 3rd edition
catalogues: a special rule named close to a modelled one ('Infiltrators', 'infiltrate') made `scenario new` refuse
the whole army as a typo, and a save printed armour/invulnerable ('2+/5+') made it refuse the unit.  The rosters are
written here in the BattleScribe roster schema; no community data."""

from __future__ import annotations

from pathlib import Path

import pytest

from _cli import run
from herohammer.battlescribe import read_battlescribe
from herohammer.scenario import state_from_data
from test_battlescribe_21 import BOLTGUN, MARINE, model, roster, scenario_of, weapon


def rules(*names: str) -> str:
    return "<rules>" + "".join(f'<rule id="r-{n}" name="{n}" hidden="false"><description>{n}.</description></rule>'
                               for n in names) + "</rules>"


def unit_with(name: str, rules_xml: str, *selections: str) -> str:
    return (f'<selection id="s-{name}" name="{name}" entryId="e-{name}" number="1" type="unit">{rules_xml}'
            f'<selections>{"".join(selections)}</selections></selection>')


SCOUT = {**MARINE, "Save": "4+"}


@pytest.mark.rule("published.infiltrate")
def test_a_rule_named_close_to_a_modelled_one_is_noted_not_a_refusal_of_the_army(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = roster(tmp_path / "scouts.ros", unit_with(
        "Scout Squad", rules("Infiltrators", "Move Through Cover", "Scouts and Snipers"),
        model("Scout", 5, weapon(*BOLTGUN, number=5), chars=SCOUT)))
    data, err = scenario_of(path, capsys)  # was exit 2: "'Infiltrators' is not a special rule 40k3 plays"
    squad = next(iter(data["sides"].values()))[0]
    assert squad["rules"] == ["Move Through Cover", "Scouts and Snipers"]
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    said = [n for n in notes if "Infiltrators" in n]
    assert len(said) == 1, err
    assert said[0].startswith(f"note: {path}: Scout Squad: special rule 'Infiltrators' not given to the unit")
    assert "'infiltrate'" in said[0] and "40k3" in said[0]
    state_from_data(data, "scouts.yaml")  # and the file reads back


def test_a_save_printed_armour_slash_invulnerable_reads_as_both(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    terminator = {**MARINE, "A": "2", "Ld": "10", "Save": "2+/5+"}
    daemon = {"WS": "5", "BS": "0", "S": "5", "T": "5", "W": "3", "I": "4", "A": "3", "Ld": "10", "Sv": "-/4+"}
    path = roster(tmp_path / "chosen.ros", unit_with("Chaos Terminators", "", model("Chaos Terminator", 5,
                                                                                   chars=terminator)),
                  unit_with("Daemon Prince", "", model("Daemon Prince", 1, chars=daemon)))
    army = read_battlescribe(path)
    assert army.unit("Chaos Terminators").models[0].profile.endswith("Sv2+ Inv5+")
    assert army.unit("Daemon Prince").models[0].profile.endswith("Sv- Inv4+")
    data, err = scenario_of(path, capsys)  # was exit 2: "Sv: '2+/5+' is not a roll like 4+"
    side = next(iter(data["sides"].values()))
    assert side[0]["models"][0]["profile"].endswith("Sv2+ Inv5+")
    notes = [line for line in err.splitlines() if "2+/5+" in line]
    assert len(notes) == 1 and "armour 2+ and invulnerable 5+" in notes[0], err
    code, out, _ = run(["catalogue", str(path), "--unit", "Chaos Terminators"], capsys)
    assert code == 0 and "Sv2+ Inv5+" in out


GUARDSMAN = {"WS": "3", "BS": "3", "S": "3", "T": "3", "W": "1", "I": "3", "A": "1", "Ld": "7", "Save": "5+"}


def categories(*names: str) -> str:
    return "<categories>" + "".join(f'<category id="c-{n}" name="{n}" entryId="e-c-{n}" primary="false"/>'
                                    for n in names) + "</categories>"


@pytest.mark.rule("40k3.ic.join")
def test_a_squad_under_a_character_category_is_not_an_independent_character(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Real data files an Infantry Platoon of eleven under 'Independent Character' (its officer's category): it was
    imported as one independent character of eleven models, which joins units and is shot as a character."""
    path = roster(tmp_path / "guard.ros",
                  unit_with("Infantry Platoon", categories("Infantry", "Independent Character"),
                            model("Guardsman", 9, chars=GUARDSMAN), model("Sergeant", 1, chars=GUARDSMAN)),
                  unit_with("Commissar", categories("HQ", "Independent Character"),
                            model("Commissar", 1, chars={**GUARDSMAN, "Ld": "9"})))
    army = read_battlescribe(path)
    assert not army.unit("Infantry Platoon").character
    assert army.unit("Commissar").character
    data, _ = scenario_of(path, capsys)
    platoon, commissar = next(iter(data["sides"].values()))
    assert "character" not in platoon and len(platoon["models"]) == 10
    assert commissar["character"] == "independent"
    code, out, _ = run(["catalogue", str(path)], capsys)
    assert code == 0
    row = next(line for line in out.splitlines() if "Infantry Platoon" in line)
    assert "yes" not in row


def test_a_9th_age_character_on_a_mount_rides_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 9th Age data prints a mount's values that are the rider's as 'C' (Dis C, HP C, Arm C+2): the Horse was made
    a model of its own, whose profile 'Ld C' did not read, and the whole army was refused."""
    from test_battlescribe_21 import T9A_GAME, profile

    parts = [profile("Knight Commander", "1 Global", {"Adv": '4"', "Mar": '8"', "Dis": "9"}),
             profile("Knight Commander", "2 Defensive", {"HP": "3", "Def": "6", "Res": "4", "Arm": "1"}),
             profile("Knight Commander", "3 Offensive", {"Att": "4", "Off": "6", "Str": "4", "AP": "1", "Agi": "6"}),
             profile("Knight Commander", "0 Size", {"Height": "Standard", "Type": "Infantry", "Base": "20x20"}),
             profile("Horse", "1 Global", {"Adv": '7"', "Mar": '14"', "Dis": "C"}),
             profile("Horse", "2 Defensive", {"HP": "C", "Def": "C", "Res": "C", "Arm": "C+2"}),
             profile("Horse", "3 Offensive", {"Att": "1", "Off": "3", "Str": "3", "AP": "0", "Agi": "3"}),
             profile("Horse", "0 Size", {"Height": "Standard", "Type": "Cavalry", "Base": "25x50"})]
    rider = ('<selection id="s-kc" name="Knight Commander" entryId="e-kc" number="1" type="model">'
             f'<profiles>{"".join(parts)}</profiles></selection>')
    path = roster(tmp_path / "empire.ros", unit_with("Knight Commander", categories("Characters"), rider),
                  game=T9A_GAME)
    commander = read_battlescribe(path).unit("Knight Commander")
    assert [m.name for m in commander.models] == ["Knight Commander"]
    mounted = commander.models[0]
    assert not mounted.problem
    assert mounted.profile.startswith("Adv7 Mar14 Ld9 W3 WS6 T4 A4 S4 AP1 I6 Sv4+")  # the horse's rates, Arm 1 + 2
    assert mounted.base == (25.0, 50.0) and mounted.troop_type == "Cavalry"
    assert any(r.startswith("Horse (mount): ") and "Att 1" in r for r in commander.rules)
    data, _ = scenario_of(path, capsys)  # was exit 2: "Horse: ... got 'LdC'"
    unit = next(iter(data["sides"].values()))[0]
    assert unit["character"] == "independent" and unit["models"][0]["profile"].startswith("Adv7 Mar14")
