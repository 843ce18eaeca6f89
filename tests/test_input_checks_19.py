"""Bad input a user meets (session 19): a number written as text, a field the ruleset does not read, a turn past the
battle's last, and an action's error path written as a scenario's. Each is one clear message naming the file (or
request), the field and, where a rule reads it, the rule id; a legal neighbour of each still loads or plays."""

from __future__ import annotations

import copy
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from _cli import run
from _scenario_edits import Data, changed, refused, written
from herohammer.errors import HerohammerError, IllegalActionError
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.web.api import create_app

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
CHAPLAIN = ROOT / "examples" / "40k4_chaplain_combat.yaml"
SPEARMEN = ROOT / "examples" / "t9a_captain_joins_spearmen.yaml"
WIZARD = resources.files("herohammer") / "examples" / "demo_t9a_wizard_charges_out.yaml"


def load(path: Any) -> Data:
    return yaml.safe_load(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, out, err)
    return err


# -- 1. a number written as text ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, text", [
    (("sides", "marines", 1, "models", 0, "at", 0), "20"),
    (("sides", "marines", 1, "models", 0, "base"), "25"),
    (("sides", "marines", 1, "models", 0, "wounds_taken"), "0"),
    (("table", "width"), "72"),
])
def test_a_number_written_as_text_is_refused_naming_the_field(path: tuple[Any, ...], text: str) -> None:
    data = load(PSYCHIC)

    def put(value: Any) -> Callable[[Data], None]:
        def change(d: Data) -> None:
            at = d
            for key in path[:-1]:
                at = at[key]
            at[path[-1]] = value
        return change

    err = refused(changed(data, put(text)))
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    assert err.field == where and "expected a number, not text" in err.problem and repr(text) in err.problem
    assert "more problem" not in err.problem  # the union's other member (base: a list) is no second problem
    state_from_data(changed(data, put(int(text))), "mine.yaml")  # the number itself loads


def test_a_profile_mapping_refuses_a_number_as_text_but_reads_3_plus() -> None:
    data = load(PSYCHIC)
    profile = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": "3+"}

    def with_profile(p: dict[str, Any]) -> Data:
        return changed(data, lambda d: d["sides"]["marines"][1]["models"][0].__setitem__("profile", p))

    state = state_from_data(with_profile(profile), "mine.yaml")
    assert state.unit("tactical").models[0].profile.format() == "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    err = refused(with_profile({**profile, "BS": "4"}))
    assert err.field == "sides.marines[1].models[0].profile.BS" and "not text" in err.problem


def test_a_scenario_file_with_a_quoted_number_fails_on_the_command_line(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    text = PSYCHIC.read_text(encoding="utf-8").replace("turn: 1", 'turn: "1"')
    path = tmp_path / "quoted.yaml"
    path.write_text(text, encoding="utf-8")
    err = one_error_line(["check", str(path), "--action", '{"do": "end_phase"}'], capsys)
    assert "quoted.yaml: turn:" in err


@pytest.mark.parametrize("action, field", [
    ({"do": "move", "unit": "tactical", "to": [[20, "22"]]}, "to[0][1]"),
    ({"do": "test", "unit": "tactical", "characteristic": "Ld", "leadership": "8"}, "leadership"),
])
def test_an_action_refuses_a_number_as_text(action: Data, field: str) -> None:
    game = Game(state_from_data(load(PSYCHIC), "psychic.yaml"))
    before = game.state
    with pytest.raises(HerohammerError) as caught:
        game.apply(action)
    assert f"field {field}: expected a number, not text" in str(caught.value)
    assert game.state is before


@pytest.mark.parametrize("dice, words", [("2", "field dice: expected a number, not text"),
                                         (2, None)])
def test_a_casting_attempt_refuses_its_dice_as_text(dice: Any, words: str | None) -> None:
    game = Game(state_from_data(load(WIZARD), "wizard.yaml"))
    cast = {"do": "cast", "unit": "wizard", "spell": "Fireball", "target": "orc_archers", "dice": dice}
    if words is None:
        game.check(cast)  # read; whether it is legal here is the rules' business
    else:
        with pytest.raises(HerohammerError, match=words):
            game.check(cast)


# -- 2. a field the ruleset does not read ---------------------------------------------------------------------------
@pytest.mark.parametrize("change, field, ruleset", [
    (lambda d: d.__setitem__("magic_dice", {"marines": 5}), "magic_dice", "40k3"),
    (lambda d: d.__setitem__("spells_cast", ["Fireball"]), "spells_cast", "40k3"),
    (lambda d: d.__setitem__("shot_this_phase", {"tactical": 5}), "shot_this_phase", "40k3"),
    (lambda d: d["sides"]["marines"][1].__setitem__("spells", ["Fireball"]), "sides.marines[1].spells", "40k3"),
    (lambda d: d["sides"]["marines"][1]["models"][0].__setitem__("role", "standard"),
     "sides.marines[1].models[0].role", "40k3"),
])
def test_a_40k_scenario_refuses_the_9th_ages_fields(change: Callable[[Data], object], field: str,
                                                     ruleset: str) -> None:
    err = refused(changed(load(PSYCHIC), change))
    assert err.field == field and f"which {ruleset} does not read" in err.problem
    assert f"leave out {field.rsplit('.', 1)[-1]}" in err.problem


def test_an_empty_field_of_another_game_still_loads_and_4th_edition_reads_its_losses() -> None:
    state_from_data(changed(load(PSYCHIC), lambda d: d.__setitem__("magic_dice", {})), "mine.yaml")
    data = load(CHAPLAIN)
    data["phase"] = "shooting"
    first = data["sides"][data["active"]][0]
    state = state_from_data(changed(data, lambda d: d.__setitem__("shot_this_phase", {first["id"]: 5})), "mine.yaml")
    assert state.shot_this_phase == ((first["id"], 5),)


@pytest.mark.parametrize("change, field", [
    (lambda d: d.__setitem__("weapons", [{"name": "bolter", "type": "rapid_fire", "range": 24, "strength": 4,
                                          "ap": 5}]), "weapons"),
    (lambda d: d.__setitem__("fired_at", {"spearmen": "captain"}), "fired_at"),
    (lambda d: d["sides"]["highborn"][0].__setitem__("capacity", 10), "sides.highborn[0].capacity"),
])
def test_a_9th_age_scenario_refuses_40ks_fields(change: Callable[[Data], object], field: str) -> None:
    err = refused(changed(load(SPEARMEN), change))
    assert err.field == field and "which t9a does not read" in err.problem


def test_a_40k_file_with_magic_dice_fails_on_the_command_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = changed(load(PSYCHIC), lambda d: d.__setitem__("magic_dice", {"marines": 5}))
    err = one_error_line(["check", str(written(tmp_path, data)), "--action", '{"do": "end_phase"}'], capsys)
    assert "mine.yaml: magic_dice: The 9th Age's Magic Dice" in err and "40k3 does not read" in err


# -- 3. the battle's last turn --------------------------------------------------------------------------------------
@pytest.mark.rule("published.game-length")
@pytest.mark.parametrize("path, last", [(PSYCHIC, 7), (SPEARMEN, 6)])
def test_a_turn_past_the_battles_last_is_refused_at_load(path: Path, last: int) -> None:
    data = load(path)
    assert state_from_data(changed(data, lambda d: d.__setitem__("turn", last)), "mine.yaml").turn == last
    err = refused(changed(data, lambda d: d.__setitem__("turn", last + 1)))
    assert err.field == "turn" and f"expected at most {last}, got {last + 1}" in err.problem
    assert "[published.game-length]" in err.problem
    err = refused(changed(data, lambda d: d.__setitem__("turn", 10**9)))
    assert err.field == "turn"


@pytest.mark.rule("published.game-length")
def test_the_battles_last_phase_does_not_end_and_the_one_before_does() -> None:
    data = load(SPEARMEN)
    second = list(data["sides"])[1]
    for turn, legal in ((5, True), (6, False)):
        state = state_from_data({**data, "turn": turn, "phase": "melee", "active": second}, "mine.yaml")
        game = Game(state)
        ruling = game.check({"do": "end_phase"})
        assert ruling.legal is legal and ("published.game-length" in ruling.rules) is not legal
        if legal:
            game.apply({"do": "end_phase"})
            assert game.state.turn == 6
        else:
            assert "the battle is over: it lasts 6 game turns" in ruling.reason
            with pytest.raises(IllegalActionError):
                game.apply({"do": "end_phase"})
            assert game.state is state and game.legal_actions() == []
    first = list(data["sides"])[0]  # the first side's last phase of turn 6 hands over to the second
    game = Game(state_from_data({**data, "turn": 6, "phase": "melee", "active": first}, "mine.yaml"))
    game.apply({"do": "end_phase"})
    assert (game.state.turn, game.state.active) == (6, second)


@pytest.mark.rule("published.game-length")
def test_the_default_policy_stops_at_the_battles_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """From the last side's last Magic phase the default policy plays to the battle's end and stops there; from its
    very last phase there is nothing left to play, and simulate says so in one line (session 28: it simulated
    '(nothing changed in any run)')."""
    data = load(SPEARMEN)
    data.update(turn=6, phase="magic", active=list(data["sides"])[1])
    code, out, err = run(["simulate", str(written(tmp_path, data)), "--runs", "10", "--seed", "1"], capsys)
    assert code == 0 and "Traceback" not in err, err
    data.update(phase="melee")
    code, out, err = run(["simulate", str(written(tmp_path, data)), "--runs", "10", "--seed", "1"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "nothing to simulate: the battle is over" in err and "[published.game-length]" in err


# -- 4. an action's field path as a scenario's ----------------------------------------------------------------------
@pytest.mark.parametrize("action, words", [
    ('{"do": "move", "unit": "tactical", "to": [[1, "a"]]}', "--action: field to[0][1]: expected a number"),
    ('{"do": "join", "character": "librarian", "unit": "tactical", "to": [true, 21]}',
     "--action: field to[0]: expected a number, not true/false"),
    ('{"do": "test", "unit": "tactical", "characteristic": "S", "modifiers": [{"kind": "add", "value": true}]}',
     "--action: field modifiers[0].value: expected a number, not true/false"),
])
def test_the_command_line_names_an_actions_field_as_a_scenario_does(action: str, words: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    err = one_error_line(["check", str(PSYCHIC), "--action", action], capsys)
    assert words in err and ".0" not in err.split("field ", 1)[1].split(":")[0]


def test_the_web_names_an_actions_field_as_a_scenario_does() -> None:
    client = TestClient(create_app())
    r = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"})
    tid = r.json()["table_id"]
    before = client.get(f"/api/tables/{tid}/scenario?format=json").json()
    bad = {"do": "move", "unit": "tactical", "to": [[20, "22"]]}
    r = client.post(f"/api/tables/{tid}/check", json={"action": bad})
    assert r.status_code == 400 and "action: field to[0][1]: expected a number, not text" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/play", json={"actions": [bad]})
    assert r.status_code == 400 and "actions[0]: field to[0][1]:" in r.json()["error"]
    assert client.get(f"/api/tables/{tid}/scenario?format=json").json() == before
    r = client.post(f"/api/tables/{tid}/check", json={"action": {**bad, "to": [[20, 22]]}})
    assert r.status_code == 200  # the same action with a number is read (and ruled)


# -- 5. a join in play that would put two models of one name in one unit -------------------------------------------
CLOSE = {
    "ruleset": "40k3", "phase": "movement", "active": "red",
    "sides": {
        "red": [
            {"id": "squad", "models": [
                {"name": "Sergeant", "profile": "WS4 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+", "at": [20, 10]},
                {"name": "Marine 1", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "at": [22, 10]}]},
            {"id": "cap", "character": "independent", "models": [
                {"name": "Captain", "profile": "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+", "at": [20, 16]}]},
        ],
        "blue": [{"id": "far", "models": [{"name": "Ork", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+",
                                            "at": [60, 45]}]}],
    },
}


def named(data: Data, name: str, ruleset: str = "40k3") -> Game:
    out = copy.deepcopy(data)
    out["ruleset"] = ruleset
    out["sides"]["red"][1]["models"][0]["name"] = name
    return Game(state_from_data(out, "mine.yaml"))


@pytest.mark.parametrize("ruleset, rule", [pytest.param("40k3", "40k3.ic.join", marks=pytest.mark.rule("40k3.ic.join")),
                                           pytest.param("40k4", "40k4.ic.join", marks=pytest.mark.rule("40k4.ic.join"))])
def test_a_40k_join_refuses_a_second_model_of_one_name_in_the_unit(ruleset: str, rule: str) -> None:
    join = {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12.5]}
    assert named(CLOSE, "Captain", ruleset).check(join).legal
    game = named(CLOSE, "Sergeant", ruleset)
    before = game.state
    ruling = game.check(join)
    assert not ruling.legal and rule in ruling.rules
    assert "cap's model 'Sergeant' has the name of a model of squad" in ruling.reason
    with pytest.raises(IllegalActionError):
        game.apply(join)
    assert game.state is before
    assert not any(a.do == "join" for a in game.legal_actions())


@pytest.mark.rule("40k3.ic.join")
def test_a_3rd_edition_move_that_would_join_by_ending_close_is_refused_for_a_name_clash() -> None:
    move = {"do": "move", "unit": "cap", "to": [[20, 12.5]]}
    fine = named(CLOSE, "Captain")
    fine.apply(move)
    assert fine.state.unit("cap").joined == "squad"
    game = named(CLOSE, "Marine 1")
    ruling = game.check(move)
    assert not ruling.legal and "40k3.ic.join" in ruling.rules and "two models named 'Marine 1'" in ruling.reason
    assert game.check({"do": "move", "unit": "cap", "to": [[20, 19]]}).legal  # ending far from the squad is a move


def test_a_join_refuses_a_name_of_a_character_already_joined_to_the_unit() -> None:
    data = copy.deepcopy(CLOSE)
    data["ruleset"] = "40k4"
    data["sides"]["red"].append({"id": "chaplain", "character": "independent", "joined": "squad", "models": [
        {"name": "Captain", "profile": "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+", "at": [21, 11.5]}]})
    game = Game(state_from_data(data, "mine.yaml"))
    ruling = game.check({"do": "join", "character": "cap", "unit": "squad", "to": [20, 12.5]})
    assert not ruling.legal and "of chaplain (a character joined to squad)" in ruling.reason


@pytest.mark.rule("t9a.join.position")
def test_a_9th_age_join_refuses_a_second_model_of_one_name_in_the_unit() -> None:
    data = load(SPEARMEN)
    join = {"do": "join", "character": "captain", "unit": "spearmen", "position": 2}
    assert Game(state_from_data(data, "mine.yaml")).check(join).legal
    data["sides"]["highborn"][1]["models"][0]["name"] = "spear4"
    game = Game(state_from_data(data, "mine.yaml"))
    before = game.state
    ruling = game.check(join)
    assert not ruling.legal and "t9a.join.position" in ruling.rules
    assert "spearmen already has a model named 'spear4' (of spearmen): captain's model of that name" in ruling.reason
    with pytest.raises(IllegalActionError):
        game.apply(join)
    assert game.state is before
    assert not any(a.do == "join" for a in game.legal_actions())
