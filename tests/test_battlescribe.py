"""BattleScribe data: catalogues, game systems and rosters (zipped too) read safely into units, scenarios, rulings.

The files under examples/battlescribe are written for these tests in the BattleScribe
schema (no community data is shipped: it has no licence).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml

from _cli import result_of, run
from herohammer.battlescribe import BattleScribeError, read_battlescribe
from herohammer.game import Game
from herohammer.scenario import load_scenario

DATA = Path(__file__).resolve().parents[1] / "examples" / "battlescribe"
MARINES = DATA / "marines_test.cat"
ORKS = DATA / "orks_test.ros"
HIGHBORN = DATA / "highborn_test.cat"


def _zip(src: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w") as z:
        z.write(src, src.name)
    return dest


def test_catalogue_units_with_links_resolved_through_the_game_system() -> None:
    data = read_battlescribe(MARINES)
    assert data.kind == "catalogue" and data.ruleset == "40k3"
    assert [u.name for u in data.units] == ["Librarian", "Tactical Squad"]
    librarian = data.unit("librarian")
    assert [m.profile for m in librarian.models] == ["WS5 BS5 S4 T4 W2 I5 A3 Ld9 Sv3+"]
    assert librarian.character and librarian.categories == ("HQ",)
    assert librarian.rules == ("Independent Character", "Psyker")  # infoLinks to the game system's shared rules
    assert librarian.default_weapons == ("bolt pistol", "force weapon")  # the optional plasma pistol is not taken
    force = next(w for w in librarian.weapons if w.name == "force weapon")
    assert force.data == {"name": "force weapon", "range": 0, "type": "melee", "strength": "user", "ap": "-",
                          "ignores_armour": True}
    squad = data.unit("Tactical Squad")  # a root entryLink to a shared entry, its model linked in turn
    assert [(m.name, m.count) for m in squad.models] == [("Space Marine", 5)] and not squad.character
    assert squad.weapons[0].data == {"name": "bolter", "range": 24, "type": "rapid_fire", "strength": 4, "ap": 5}


@pytest.mark.parametrize("printed,read", [('5"', "5"), ("2 (9)", "2"), ("Ground 5, Fly 9", "5"), ("3D6", "3D6"), ("-", "-")])
def test_movement_rates_as_the_data_prints_them(printed: str, read: str) -> None:
    from herohammer.battlescribe import _number

    assert _number(printed) == read


def test_catalogue_command_lists_and_shows_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["catalogue", str(MARINES)], capsys)
    assert code == 0 and "Librarian" in out and "5 Space Marine" in out, err
    code, out, _ = run(["catalogue", str(MARINES), "--unit", "Librarian"], capsys)
    assert code == 0 and '"WS5 BS5 S4 T4 W2 I5 A3 Ld9 Sv3+"' in out and "a character" in out
    assert "Independent Character" in out and "force weapon" in out
    code, out, _ = run(["catalogue", str(MARINES), "--unit", "Librarian", "--json"], capsys)
    unit = result_of(out)["unit"]
    assert unit["character"] and unit["models"][0]["profile"] == "WS5 BS5 S4 T4 W2 I5 A3 Ld9 Sv3+"
    code, _, err = run(["catalogue", str(MARINES), "--unit", "Librarain"], capsys)
    assert code == 2 and "did you mean 'Librarian'?" in err


def test_zipped_files_read_the_same(tmp_path: Path) -> None:
    shutil.copy(DATA / "w40k3_test.gst", tmp_path / "w40k3_test.gst")
    catz = _zip(MARINES, tmp_path / "marines.catz")
    rosz = _zip(ORKS, tmp_path / "orks.rosz")
    assert read_battlescribe(catz).units == read_battlescribe(MARINES).units
    assert read_battlescribe(rosz).units == read_battlescribe(ORKS).units


def test_roster_units_count_models_and_keep_the_chosen_wargear() -> None:
    roster = read_battlescribe(ORKS)
    assert roster.kind == "roster" and roster.ruleset == "40k3"
    boss, boyz = roster.units
    assert boss.character and boss.default_weapons == ("power klaw",)
    assert [(m.name, m.count, m.profile) for m in boyz.models] == [("Boy", 10, "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+")]
    assert boyz.default_weapons == ("slugga",)


def test_t9a_profiles_are_mapped_into_the_t9a_ruleset() -> None:
    """Dis plays Leadership, HP Wounds, Res Toughness, Arm N a 7-N save, Off WS, Agi I; Adv/Mar move (docs/data.md)."""
    data = read_battlescribe(HIGHBORN)
    assert data.ruleset == "t9a"
    captain = data.unit("Captain")
    model = captain.models[0]
    assert captain.character and model.profile == "Adv5 Mar10 Ld9 W3 WS6 T4 A3 S4 AP1 I7 Sv4+ BS3"  # its AP 1 too
    assert model.base == (20.0, 20.0) and model.troop_type == "Infantry"
    printed = dict(model.printed)
    assert printed["Def"] == "6" and printed["AP"] == "1" and printed["Arm"] == "3"
    spear = data.unit("Spearmen").models[0]
    assert spear.count == 10 and spear.profile == "Adv5 Mar10 Ld8 W1 WS4 T3 A1 S3 I5 Sv5+ BS4"  # Aim 3+: BS4


def test_a_scenario_names_catalogue_units_and_gets_rulings_without_a_typed_profile(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(MARINES, tmp_path / "marines.cat")
    shutil.copy(DATA / "w40k3_test.gst", tmp_path / "w40k3_test.gst")
    shutil.copy(ORKS, tmp_path / "orks.ros")
    scenario = {
        "$schema": "herohammer-scenario.schema.json",
        "ruleset": "40k3", "phase": "shooting", "active": "marines", "catalogues": ["marines.cat", "orks.ros"],
        "sides": {
            "marines": [
                {"id": "librarian", "character": "independent", "rules": ["psyker"],
                 "models": [{"name": "Librarian", "from": "Librarian", "at": [30, 10]}]},
                {"id": "tactical", "models": [{"name": f"Marine {k}", "from": "Space Marine", "at": [20 + 1.5 * k, 12]}
                                              for k in range(5)]},
            ],
            "orks": [{"id": "boyz", "models": [{"name": f"Boy {k}", "from": "Boy", "at": [20 + 1.5 * k, 30]}
                                               for k in range(6)]}],
        },
    }
    path = tmp_path / "from_catalogue.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    state = load_scenario(path)
    lib = state.unit("librarian").models[0]
    assert lib.profile.ws == 5 and lib.profile.w == 2 and lib.profile.save == 3
    assert lib.weapons == ("bolt pistol", "force weapon")
    assert state.unit("boyz").models[0].weapons == ("slugga",)
    game = Game(state)
    ruling = game.check({"do": "shoot", "unit": "tactical", "target": "boyz"})
    assert ruling.legal, ruling.reason
    code, out, err = run(["odds", "action", str(path), "--action",
                          '{do: shoot, unit: tactical, target: boyz}', "--json"], capsys)
    assert code == 0, err
    assert any(k.startswith("boyz") for k in result_of(out)["rows"])


@pytest.mark.parametrize("models,catalogues,fragment", [
    ([{"name": "X", "from": "Librarian", "at": [5, 5]}], None, "catalogues: [army.cat]"),
    ([{"name": "X", "from": "Librarain", "at": [5, 5]}], ["marines.cat"], "did you mean 'Librarian'"),
    ([{"name": "X", "from": "Librarian", "at": [5, 5]}], ["missing.cat"], "catalogues[0]: "),
])
def test_bad_catalogue_references_name_the_field(tmp_path: Path, models: list, catalogues: list | None,
                                                 fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(MARINES, tmp_path / "marines.cat")
    shutil.copy(DATA / "w40k3_test.gst", tmp_path / "w40k3_test.gst")  # the catalogue's links lead there
    data = {"ruleset": "40k3", "active": "a", "sides": {"a": [{"id": "u", "models": models}], "b": []}}
    if catalogues:
        data["catalogues"] = catalogues
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, _, err = run(["actions", str(path)], capsys)
    assert code == 2 and fragment in err and str(path) in err and "Traceback" not in err


def test_scenario_new_from_a_roster_deploys_its_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "waaagh.yaml"
    code, printed, err = run(["scenario", "new", "--roster", str(ORKS), "--out", str(out)], capsys)
    assert code == 0 and f"wrote {out}" in printed, err
    state = load_scenario(out)
    assert state.ruleset == "40k3" and state.sides == ("waaagh_test", "opponent")
    assert [u.id for u in state.units] == ["warboss", "boyz"] and len(state.unit("boyz").models) == 10
    code, printed, err = run(["actions", str(out), "--json"], capsys)
    assert code == 0 and any(a["do"] == "move" for a in result_of(printed)["actions"]), err
    both = tmp_path / "both.yaml"
    code, _, err = run(["scenario", "new", "--roster", str(ORKS), "--roster", str(_zip(ORKS, tmp_path / "o.rosz")),
                        "--side", "red", "--side", "blue", "--out", str(both)], capsys)
    assert code == 0, err
    two = load_scenario(both)
    assert two.sides == ("red", "blue") and len(two.units) == 4
    assert min(m.at[1] for u in two.units if u.side == "blue" for m in u.models) > 24  # across the table


def test_scenario_new_t9a_gives_rank_and_file_formations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "he.yaml"
    code, _, err = run(["scenario", "new", "--roster", str(HIGHBORN), "--out", str(out)], capsys)
    assert code == 0, err
    data = yaml.safe_load(out.read_text())
    spears = next(u for u in data["sides"]["highborn_test"] if u["id"] == "spearmen")
    assert spears["formation"]["files"] == 5 and len(spears["models"]) == 10
    state = load_scenario(out)
    assert state.ruleset == "t9a" and state.unit("captain").models[0].profile.ld == 9


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<catalogue name="&lol3;"/>"""
EXTERNAL = """<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]><catalogue name="&x;"/>"""


@pytest.mark.parametrize("name,content,fragment", [
    ("laughs.cat", BILLION_LAUGHS, "refused: the XML declares a DTD or entities"),
    ("external.cat", EXTERNAL, "refused: the XML declares a DTD or entities"),
    ("broken.cat", "<catalogue><selectionEntries></catalogue>", "not well-formed XML"),
    ("html.cat", "<html><body>hello</body></html>", "not a BattleScribe catalogue, game system or roster"),
    ("empty.ros", '<roster xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces/></roster>', "has no units"),
    ("fake.catz", "PK\x03\x04 this is not really a zip", "a broken zip file"),
    ("nothing.cat", "", "not well-formed XML"),
])
def test_malformed_or_hostile_files_are_one_clear_error(tmp_path: Path, name: str, content: str, fragment: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BattleScribeError) as info:
        read_battlescribe(path)
    assert str(info.value).startswith(str(path)) and fragment in str(info.value)
    code, out, err = run(["catalogue", str(path)], capsys)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1
    code, out, err = run(["catalogue", str(path), "--json"], capsys)
    assert code == 2 and fragment in json.loads(out)["error"]


def test_a_zip_with_two_files_or_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = tmp_path / "two.catz"
    with zipfile.ZipFile(two, "w") as z:
        z.writestr("a.cat", MARINES.read_text(encoding="utf-8"))
        z.writestr("b.cat", MARINES.read_text(encoding="utf-8"))
    code, _, err = run(["catalogue", str(two)], capsys)
    assert code == 2 and "expected one file inside the zip, found 2" in err
    code, _, err = run(["catalogue", str(tmp_path / "none.cat")], capsys)
    assert code == 2 and "cannot read the file" in err


def test_a_game_system_lists_no_units_and_says_where_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    """Was an empty table under "0 units", which read as a file read wrong."""
    code, out, err = run(["catalogue", str(DATA / "w40k3_test.gst")], capsys)
    assert code == 0 and err == "" and len(out.splitlines()) == 1, out
    assert "0 units: its catalogues (.cat, .catz) hold the units: herohammer catalogue FILE.cat" in out
    assert "┏" not in out
