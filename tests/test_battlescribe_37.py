"""BattleScribe data a player brings (session 37): what read as a silently wrong army.

A profile missing a characteristic read it as '-' (0), a catalogue whose game system is not beside it lost every
profile and rule it links there (a Librarian read as no character), a vehicle's unit was dropped from the scenario
without a word, a model printed with Wounds '*' was refused as "the new scenario" rather than the roster, and a
character bought inside a squad's selection became one of the squad's models and gave the whole squad his
Independent Character rule.  The files are written here in the BattleScribe schema; no community data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.battlescribe import BattleScribeError, read_battlescribe
from herohammer.scenario import state_from_data
from test_battlescribe_21 import MARINE, model, profile, roster, unit
from test_battlescribe_29 import rules, unit_with

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "battlescribe"


def test_a_profile_missing_a_characteristic_is_refused_not_read_as_zero(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scout = {k: v for k, v in MARINE.items() if k not in ("I", "Ld")}
    path = roster(tmp_path / "scouts.ros", unit("Scout Squad", model("Scout", 5, chars=scout, ident="s-scout")))
    found = read_battlescribe(path).unit("Scout Squad").models[0]
    assert "I, Ld" in found.problem and "not printed" in found.problem, found
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code != 0 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1, err
    assert f"{path}: Scout Squad: Scout (selection s-scout):" in err and "I, Ld" in err, err


def test_a_model_printed_with_wounds_star_is_refused_naming_the_roster(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = roster(tmp_path / "avatar.ros", unit("Avatar", model("Avatar", 1, chars={**MARINE, "W": "*"},
                                                                  ident="s-avatar")))
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code != 0 and out == "" and "Traceback" not in err
    assert f"{path}: Avatar: Avatar (selection s-avatar):" in err, err
    assert "'*'" in err and "core.zero.w" in err and "the new scenario" not in err, err


def test_a_catalogue_whose_game_system_is_missing_says_so_rather_than_losing_its_links(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alone = tmp_path / "marines_test.cat"
    shutil.copy(EXAMPLES / "marines_test.cat", alone)
    with pytest.raises(BattleScribeError) as caught:
        read_battlescribe(alone)
    message = str(caught.value)
    assert message.startswith(f"{alone}: ") and "sys-test-40k3" in message and ".gst" in message, message
    assert "rule-ic" in message, message  # the first link that leads nowhere, by its targetId
    code, out, err = run(["catalogue", str(alone)], capsys)
    assert code != 0 and out == "" and "Traceback" not in err and err.count("\n") == 1, err
    shutil.copy(EXAMPLES / "w40k3_test.gst", tmp_path)  # with its game system beside it, it reads as before
    assert read_battlescribe(alone).unit("Librarian").character


WALKER = {"WS": "4", "BS": "4", "S": "6(10)", "Front": "12", "Side": "12", "Rear": "10", "I": "4", "A": "2"}


def test_a_unit_without_a_model_profile_herohammer_reads_is_noted_not_dropped_silently(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dread = ('<selection id="s-dread" name="Dreadnought" entryId="e-dread" number="1" type="model"><profiles>'
             f'{profile("Dreadnought", "Walker", WALKER)}</profiles></selection>')
    path = roster(tmp_path / "dread.ros", unit("Dreadnought", dread), unit("Tactical Squad", model("Marine", 5)))
    unit_read = read_battlescribe(path).unit("Dreadnought")
    assert unit_read.models == () and any("Front" in n for n in unit_read.notes), unit_read
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code == 0, err
    said = [line for line in err.splitlines() if "Dreadnought" in line]
    assert len(said) == 1 and said[0].startswith(f"note: {path}: Dreadnought"), err
    assert "left out" in said[0] and "Front, Side, Rear" in said[0], said
    code, out, _ = run(["catalogue", str(path)], capsys)
    assert code == 0 and "(none in the data)" not in out


CHAPLAIN = {**MARINE, "WS": "5", "W": "2", "A": "2", "Ld": "10"}


@pytest.mark.rule("40k3.ic.join")
def test_a_character_chosen_inside_a_squads_selection_is_joined_to_it_not_one_of_its_models(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chaplain = (f'<selection id="s-chap" name="Chaplain" entryId="e-chap" number="1" type="model">'
                f'{rules("Independent Character")}<profiles>{profile("Chaplain", "Unit", CHAPLAIN)}</profiles>'
                '</selection>')
    path = roster(tmp_path / "joined.ros", unit_with("Assault Squad", "", model("Marine", 5), chaplain))
    army = read_battlescribe(path)
    assert [u.name for u in army.units] == ["Assault Squad", "Chaplain"]
    squad, chap = army.units
    assert not squad.character and "Independent Character" not in squad.rules
    assert [m.count for m in squad.models] == [5]
    assert chap.character and chap.joined == "Assault Squad" and chap.models[0].profile.startswith("WS5")
    data, _ = _scenario(path, capsys)
    side = next(iter(data["sides"].values()))
    assert [u["id"] for u in side] == ["assault_squad", "chaplain"]
    assert side[1]["character"] == "independent" and side[1]["joined"] == "assault_squad"
    assert "rules" not in side[0]
    state_from_data(data, "joined.yaml")


@pytest.mark.rule("40k4.char.retinue")
def test_a_4th_edition_character_bought_with_his_retinue_leads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inquisitor = (f'<selection id="s-inq" name="Inquisitor" entryId="e-inq" number="1" type="model">'
                  f'{rules("Independent Character")}<profiles>'
                  f'{profile("Inquisitor", "Unit", {**CHAPLAIN, "Save": "4+"})}</profiles></selection>')
    path = roster(tmp_path / "retinue.ros", unit_with("Inquisitor and Retinue", "", inquisitor,
                                                       model("Acolyte", 4, chars={**MARINE, "Save": "5+"})),
                  game="Warhammer 40,000 4th Edition (test)")
    data, err = _scenario(path, capsys)
    side = next(iter(data["sides"].values()))
    retinue, inq = side
    assert inq["joined"] == retinue["id"] and inq["character"] == "independent"
    assert "retinue" in inq["rules"] and "retinue" in retinue["rules"]
    assert any("40k4.char.retinue" in line for line in err.splitlines()), err
    state_from_data(data, "retinue.yaml")


def test_a_character_rule_on_a_squad_of_several_models_is_noted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The data puts the rule on the unit, not on one model: which model is the character is not said."""
    path = roster(tmp_path / "command.ros", unit_with("Command Squad", rules("Independent Character"),
                                                      model("Veteran", 5)))
    squad = read_battlescribe(path).unit("Command Squad")
    assert not squad.character
    assert any("Independent Character" in n and "5 models" in n for n in squad.notes), squad.notes
    assert "Independent Character" not in squad.rules  # a scenario would make a unit listing it a character
    data, err = _scenario(path, capsys)
    state = state_from_data(data, "command.yaml")
    assert state.unit("command_squad").character is None and "[40k3.ic.join]" in err


def _scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, object], str]:
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code == 0, err
    return yaml.safe_load(out), err


CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"


def _catalogue(path: Path, ident: str, body: str, links: str = "") -> Path:
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?><catalogue id="{ident}" name="{path.stem}" revision="1" '
                    f'gameSystemId="sys-test-40k3" gameSystemRevision="1" library="false" xmlns="{CAT_NS}">'
                    f"{links}{body}</catalogue>", encoding="utf-8")
    return path


def test_a_catalogue_reads_what_it_links_from_a_library_catalogue_beside_it(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "w40k3_test.gst", tmp_path)
    chars = "".join(f'<characteristic name="{k}">{v}</characteristic>' for k, v in CHAPLAIN.items())
    _catalogue(tmp_path / "library.cat", "cat-lib", '<sharedProfiles><profile id="prof-chap" name="Chaplain" '
               f'typeName="Unit"><characteristics>{chars}</characteristics></profile></sharedProfiles>')
    army = _catalogue(
        tmp_path / "army.cat", "cat-army",
        '<selectionEntries><selectionEntry id="se-chap" name="Chaplain" type="model"><infoLinks>'
        '<infoLink id="il-1" name="Chaplain" targetId="prof-chap" type="profile"/>'
        '<infoLink id="il-2" name="Independent Character" targetId="rule-ic" type="rule"/>'
        '</infoLinks></selectionEntry></selectionEntries>',
        '<catalogueLinks><catalogueLink id="cl-1" name="library" targetId="cat-lib" type="catalogue" '
        'importRootEntries="true"/></catalogueLinks>')
    chaplain = read_battlescribe(army).unit("Chaplain")
    assert chaplain.character and chaplain.models[0].profile.startswith("WS5")
    (tmp_path / "library.cat").unlink()
    with pytest.raises(BattleScribeError) as caught:
        read_battlescribe(army)
    message = str(caught.value)
    assert message.startswith(f"{army}: <infoLink name='Chaplain' targetId='prof-chap'> leads to nothing"), message
    assert "library" in message
