"""Scenario files: validation errors as one clear line, and save/load round trips."""

from __future__ import annotations

import copy
from dataclasses import replace
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from _w40k import hero, scenario, squad
from _cli import run
from herohammer.dice import SeededDice
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import dump_state, load_scenario, save_scenario, state_from_data, state_to_data

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_40K = sorted(p for p in (ROOT / "examples").glob("40k*.yaml"))
END = '{"do": "end_phase"}'


def good() -> dict[str, Any]:
    return scenario("40k3", [squad("squad", 20, 10), hero("cap", 20, 16)], [squad("orks", 20, 30)])


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: d.pop(key)


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(d: dict[str, Any]) -> None:
        for p in path[:-1]:
            d = d[p]
        d[path[-1]] = value
    return mutate


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("missing active", _drop("active"), "active", "required"),
    ("active not a side", _set(("active",), "green"), "active", "expected one of the sides"),
    ("unknown ruleset", _set(("ruleset",), "41k"), "ruleset", "expected one of 40k3, 40k4"),
    ("bad profile token", _set(("sides", "red", 0, "models", 0, "profile"), "WS4 BQ4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
     "sides.red[0].models[0].profile", "BQ4"),
    ("negative base", _set(("sides", "red", 0, "models", 0, "base"), -5), "sides.red[0].models[0].base",
     "positive"),
    ("duplicate id", _set(("sides", "red", 1, "id"), "squad"), "sides.red[1].id", "used twice"),
    ("joined names a missing unit", _set(("sides", "red", 1, "joined"), "ghost"), "sides.red[1].joined",
     "no unit with id 'ghost'"),
    ("joined names an enemy unit", _set(("sides", "red", 1, "joined"), "orks"), "sides.red[1].joined",
     "side 'blue'"),
    ("ordinary character without joined", _set(("sides", "red", 1, "character"), "ordinary"),
     "sides.red[1].joined", "40k3.char.kinds"),
    ("special character without agreement", _set(("sides", "red", 1, "special"), True), "sides.red[1].special",
     "40k3.char.special-agreement"),
    ("unit with no models", _set(("sides", "red", 0, "models"), []), "sides.red[0].models", "at least one model"),
    ("destroyed unit with models", _set(("sides", "red", 0, "destroyed"), True), "sides.red[0].models",
     "no models"),
    ("unknown field", _set(("sides", "red", 0, "colour"), "red"), "sides.red[0].colour", "unknown key `colour`"),
    ("misspelt field", _set(("sides", "red", 0, "rule"), ["x"]), "sides.red[0].rule", "did you mean `rules`?"),
]


@pytest.mark.parametrize(("name", "mutate", "field", "expected"), BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_bad_scenario_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                          mutate: Callable[[dict[str, Any]], None], field: str, expected: str,
                                          suffix: str) -> None:
    data = copy.deepcopy(good())
    mutate(data)
    path = tmp_path / f"bad{suffix}"
    path.write_text(json.dumps(data) if suffix == ".json" else yaml.safe_dump(data), encoding="utf-8")
    code, out, err = run(["check", str(path), "--action", END], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0] and f": {field}:" in lines[0] and expected in lines[0], lines[0]
    assert "Traceback" not in err
    with pytest.raises(ScenarioError) as info:
        state_from_data(data, str(path))
    assert info.value.field == field


@pytest.mark.rule("40k3.char.special-agreement")
def test_special_character_agreed_loads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = good()
    data["sides"]["red"][1]["special"] = True
    data["special_characters"] = True
    path = tmp_path / "agreed.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out, err = run(["check", str(path), "--action", END], capsys)
    assert code == 0 and err == "" and out.startswith("LEGAL")


@pytest.mark.parametrize("text,suffix,expected", [
    ("ruleset: [40k3\nactive: red\n", ".yaml", "not valid YAML"),
    ("{\"ruleset\": ", ".json", "not valid JSON"),
    ("- just\n- a list\n", ".yaml", "(top level)"),
])
def test_malformed_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, suffix: str,
                                    expected: str) -> None:
    path = tmp_path / f"broken{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["check", str(path), "--action", END], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and str(path) in err and expected in err, err


def test_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["targets", str(tmp_path / "nope.yaml"), "--unit", "x"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nope.yaml" in err


# == round trips ====================================================================

def _steps(g: Game) -> None:
    """Apply the first few legal actions, preferring joins, leaves and moves over ending the phase."""
    for _ in range(4):
        actions = [a for a in g.legal_actions() if a.do in ("join", "leave", "move")] or \
                  [a for a in g.legal_actions() if a.do == "end_phase"]
        g.apply(actions[0])


@pytest.mark.parametrize("path", EXAMPLES_40K, ids=[p.name for p in EXAMPLES_40K])
def test_every_example_round_trips(path: Path, tmp_path: Path) -> None:
    state = load_scenario(path)
    assert state_from_data(state_to_data(state)) == state
    g = Game(state, SeededDice(3))
    _steps(g)
    assert state_from_data(state_to_data(g.state)) == g.state
    for suffix in (".yaml", ".json"):
        out = tmp_path / f"saved{suffix}"
        save_scenario(g.state, out)
        assert load_scenario(out) == g.state
        g2 = Game.load(out)
        assert g2.state == g.state
    assert yaml.safe_load(dump_state(g.state)) == json.loads(dump_state(g.state, "json"))


def test_examples_exist_for_both_40k_rulesets() -> None:
    rulesets = {load_scenario(p).ruleset for p in EXAMPLES_40K}
    assert rulesets == {"40k3", "40k4"}
    assert len(EXAMPLES_40K) >= 5


@pytest.mark.rule("40k4.char.retinue")
def test_destroyed_unit_round_trips_and_its_character_may_move_on(tmp_path: Path) -> None:
    data = scenario("40k4", [squad("guard", 20, 10), hero("cap", 20, 11.5, joined="guard", rules=["retinue"])])
    g = Game(state_from_data(data), SeededDice(1))
    g.state = g.state.replace_unit(replace(g.state.unit("guard"), models=()))
    saved = state_to_data(g.state)
    entry = saved["sides"]["red"][0]
    assert entry["id"] == "guard" and entry["destroyed"] is True and entry["models"] == []
    assert state_from_data(saved) == g.state
    save_scenario(g.state, tmp_path / "after.yaml")
    assert load_scenario(tmp_path / "after.yaml") == g.state
    leaves = [a for a in g.legal_actions() if a.do == "leave"]
    assert leaves  # the retinue is gone: the character may move off
    g.apply(leaves[0])
    assert g.state.unit("cap").joined is None
