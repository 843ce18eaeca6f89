"""Bad input a user meets (session 18): an unknown weapon, true/false for a number, two models of one name in a unit,
and a key given twice in a web request's JSON body. Each is one clear message naming the file (or request), the field
and, where a rule reads it, the rule id; a legal neighbour of each still loads."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from _scenario_edits import Data, changed, refused, written
from herohammer.game import Game
from herohammer.scenario import state_from_data

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
T9A = resources.files("herohammer") / "examples" / "demo_t9a_wizard_charges_out.yaml"


def forty_k() -> Data:
    return yaml.safe_load(PSYCHIC.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def ninth_age() -> Data:
    return yaml.safe_load(T9A.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# -- 1. a weapon no profile names -----------------------------------------------------------------------------------
@pytest.mark.rule("published.weapon-profiles")
def test_a_40k_weapon_without_a_profile_is_refused_at_load_naming_unit_model_and_the_closest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = forty_k()
    data["sides"]["marines"][1]["models"][2]["weapons"] = ["boltr"]
    err = refused(data)
    assert err.field == "sides.marines[1].models[2].weapons[0]"
    assert "unit tactical, model Marine 2: no weapon 'boltr' in 40k3" in err.problem
    assert err.problem.index("'bolter'") < err.problem.index("known:")  # the closest first
    assert "slugga" in err.problem and "weapons:" in err.problem and "[published.weapon-profiles]" in err.problem
    code, _, printed = run(["check", str(written(tmp_path, data)), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 2 and len(printed.strip().splitlines()) == 1 and "mine.yaml" in printed and "'boltr'" in printed


@pytest.mark.rule("published.weapon-profiles")
def test_a_40k_weapon_of_the_scenario_or_the_armoury_loads_case_aside_and_fires() -> None:
    data = forty_k()
    data["sides"]["marines"][1]["models"][2]["weapons"] = ["Bolter"]  # the armoury's, case aside
    data["sides"]["orks"][0]["models"][0]["weapons"] = ["Big Shoota"]
    data["weapons"].append({"name": "big shoota", "type": "assault", "shots": 3, "range": 36, "strength": 5, "ap": 6})
    state = state_from_data(data, "mine.yaml")
    from herohammer.rulesets import get_ruleset

    ruleset = get_ruleset("40k3")
    assert [w.strength for w in ruleset.weapons_of(state, state.unit("boyz").models[0])] == [5]  # type: ignore[attr-defined]
    ruling = Game(state).check({"do": "shoot", "unit": "tactical", "target": "boyz"})
    assert ruling.legal, ruling.reason


@pytest.mark.rule("published.t9a-to-hit-shooting")
@pytest.mark.parametrize("weapon,closest", [("bwo S3", "bow"), ("morning star", ""), ("bow S11", "bow"),
                                            ("longbow s4 extra", "longbow")])
def test_a_9th_age_weapon_outside_the_missile_table_is_refused_not_silently_unfired(weapon: str, closest: str) -> None:
    data = ninth_age()
    data["sides"]["orcs"][0]["models"][3]["weapons"] = [weapon]
    err = refused(data)
    assert err.field == "sides.orcs[0].models[3].weapons[0]"
    assert f"unit orc_archers, model archer4: no weapon {weapon!r} in t9a" in err.problem
    # the hint names the Close Combat Weapons the engine reads (judge round 29; before, none was modelled)
    assert "Close Combat Weapons: hand weapon, great weapon" in err.problem
    assert "[published.t9a-to-hit-shooting]" in err.problem
    if closest:
        assert f"did you mean {closest!r}" in err.problem


@pytest.mark.rule("published.t9a-to-hit-shooting")
def test_a_9th_age_missile_weapon_with_its_strength_loads_and_a_40k_profile_does_not_make_one() -> None:
    data = ninth_age()
    data["sides"]["orcs"][0]["models"][3]["weapons"] = ["Crossbow S5"]
    assert state_from_data(data, "mine.yaml").unit("orc_archers").models[3].weapons == ("Crossbow S5",)
    data["sides"]["orcs"][0]["models"][3]["weapons"] = ["great bow"]
    assert "no weapon 'great bow' in t9a" in refused(data).problem
    data["weapons"] = [{"name": "great bow", "type": "heavy", "range": 36, "strength": 5, "ap": 4}]
    err = refused(data)  # a 40k profile is read by no 9th Age rule: refused as a field t9a does not read (rel19)
    assert err.field == "weapons" and "which t9a does not read" in err.problem


# -- 2. true or false where a number is meant ---------------------------------------------------------------------
def _at(d: Data) -> None:
    d["sides"]["marines"][1]["models"][0]["at"] = [True, 20]


def _table(d: Data) -> None:
    d["table"]["width"] = True


def _wounds(d: Data) -> None:
    d["sides"]["marines"][0]["models"][0]["wounds_taken"] = False


def _base(d: Data) -> None:
    d["sides"]["marines"][1]["models"][0]["base"] = True


def _profile(d: Data) -> None:
    d["sides"]["marines"][1]["models"][0]["profile"] = {"WS": 4, "BS": True, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
                                                        "Ld": 8, "Sv": "3+"}


def _range(d: Data) -> None:
    d["weapons"][0]["range"] = True


def _polygon(d: Data) -> None:
    d["terrain"] = [{"id": "wood", "kind": "difficult", "polygon": [[0, 0], [4, False], [4, 4]]}]


@pytest.mark.parametrize("change,field", [
    (_at, "sides.marines[1].models[0].at[0]"), (_table, "table.width"),
    (_wounds, "sides.marines[0].models[0].wounds_taken"), (_base, "sides.marines[1].models[0].base"),
    (_profile, "sides.marines[1].models[0].profile.BS"), (_range, "weapons[0].range"),
    (_polygon, "terrain[0].polygon[1][1]"),
])
def test_true_or_false_where_a_number_is_meant_is_refused_naming_the_field(change: Callable[[Data], None],
                                                                          field: str) -> None:
    err = refused(changed(forty_k(), change))
    assert field in str(err) and "true/false" in str(err)


@pytest.mark.parametrize("change,field", [
    (lambda d: d["sides"]["highborn"][0]["formation"].update(files=True), "sides.highborn[0].formation.files"),
    (lambda d: d.update(magic_dice={"highborn": True}), "magic_dice.highborn"),
])
def test_true_or_false_in_a_9th_age_formation_or_magic_dice_is_refused(change: Callable[[Data], None],
                                                                       field: str) -> None:
    err = refused(changed(ninth_age(), change))
    assert err.field == field and "true/false" in err.problem


def test_whole_numbers_where_a_number_is_meant_still_load() -> None:
    data = forty_k()
    data["sides"]["marines"][1]["models"][0]["at"] = [26, 20]
    data["table"] = {"width": 72, "depth": 48}
    assert state_from_data(data, "mine.yaml").unit("tactical").models[0].at == (26.0, 20.0)


# -- 3. two models of one name in a unit --------------------------------------------------------------------------
def test_two_models_of_one_name_in_a_unit_are_refused_naming_the_unit_and_the_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = forty_k()
    data["sides"]["orks"][0]["models"][4]["name"] = "Boy 2"
    err = refused(data)
    assert err.field == "sides.orks[0].models[4].name"
    assert "unit boyz has two models named 'Boy 2' (also models[1])" in err.problem
    code, _, printed = run(["actions", str(written(tmp_path, data))], capsys)
    assert code == 2 and len(printed.strip().splitlines()) == 1 and "'Boy 2'" in printed


def test_a_joined_character_named_as_a_model_of_his_unit_is_refused() -> None:
    data = forty_k()
    data["sides"]["marines"][0]["models"][0]["name"] = "Sergeant"
    err = refused(data)
    assert err.field == "sides.marines[0].models[0].name" and "tactical, the unit it has joined" in err.problem
    t9a = ninth_age()
    t9a["sides"]["highborn"][1]["models"][0]["name"] = "spear3"
    assert "the name of a model of spearmen" in refused(t9a).problem


def test_two_characters_joined_to_one_unit_need_their_own_names() -> None:
    data = forty_k()
    chaplain = copy.deepcopy(data["sides"]["marines"][0])
    chaplain["id"] = "chaplain"
    chaplain["models"][0]["at"] = [24, 20]
    data["sides"]["marines"].append(chaplain)
    err = refused(data)
    assert "a character joined to tactical too" in err.problem
    chaplain["models"][0]["name"] = "Chaplain"
    assert len(state_from_data(data, "mine.yaml").units) == 4  # his own name: loads


# -- 4. a web request's JSON body with a key given twice ----------------------------------------------------------
@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from herohammer.web.api import create_app
    from herohammer.web.server import listen, start_in_thread

    running = start_in_thread(create_app(), listen("127.0.0.1", 0))
    try:
        yield running.url.rstrip("/")
    finally:
        running.stop()


def _post(url: str, text: str) -> Any:
    import httpx2 as httpx

    return httpx.post(url, content=text.encode(), headers={"Content-Type": "application/json"}, timeout=30)


def test_a_key_given_twice_in_a_request_body_is_a_400_and_changes_nothing(server: str) -> None:
    import httpx2 as httpx

    opened = _post(f"{server}/api/tables", '{"demo": "demo_40k3_librarian.yaml", "demo": "demo_t9a_wizard_charges_out.yaml"}')
    assert opened.status_code == 400 and opened.json()["error"] == (
        "request body: the key 'demo' is given twice in one object; give each key once (YAML and JSON would keep the "
        "last one silently)")
    table = _post(f"{server}/api/tables", '{"demo": "demo_40k3_librarian.yaml"}').json()
    tid, before = table["table_id"], httpx.get(f"{server}/api/tables/{table['table_id']}").json()
    join = '"do": "join", "character": "librarian", "unit": "tactical", "to": [20, 24.8]'
    played = _post(f"{server}/api/tables/{tid}/play", '{"actions": [{' + join + ', "do": "end_phase"}], "seed": 1}')
    assert played.status_code == 400 and "the key 'do' is given twice" in played.json()["error"]
    checked = _post(f"{server}/api/tables/{tid}/check", '{"action": {' + join + '}, "action": {"do": "end_phase"}}')
    assert checked.status_code == 400 and "the key 'action' is given twice" in checked.json()["error"]
    assert httpx.get(f"{server}/api/tables/{tid}").json() == before  # nothing applied
    legal = _post(f"{server}/api/tables/{tid}/play", json.dumps({"actions": [json.loads("{" + join + "}")], "seed": 1}))
    assert legal.status_code == 200, legal.text
    counted = _post(f"{server}/api/tables/{tid}/odds", '{"action": {"do": "end_phase"}, "runs": true}')
    assert counted.status_code == 422 and counted.json()["error"].startswith("body.runs: expected a number, not true")
