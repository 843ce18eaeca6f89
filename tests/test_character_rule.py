"""A roster's "Independent Character" is what ``character: independent`` says (40k3.char.kinds).

BattleScribe rosters list Independent Character among a unit's special rules.  Read as text, it
was noted as "not modelled" by the very tool about independent characters, and a unit that
listed it without ``character:`` could not join anything.  Now the rule makes the unit an
independent character, a ``character:`` that says otherwise is refused naming the field, a typo
of it is refused as any modelled rule's is, and The 9th Age (which has no such rule) keeps it as text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from _w40k import game, model, scenario, squad
from herohammer.errors import ScenarioError
from herohammer.scenario import scenario_notes, state_from_data

ROOT = Path(__file__).resolve().parents[1]
HERO = "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+"


def _captain(**extra: Any) -> dict[str, Any]:
    return {"id": "captain", "rules": ["Independent Character"], "models": [model("Captain", 10, 20, 10, HERO)],
            **extra}


JOIN = {"do": "join", "character": "captain", "unit": "tac", "to": [11.5, 20]}


@pytest.mark.parametrize("ruleset, clause", [("40k3", "40k3.ic.join"), ("40k4", "40k4.ic.join")])
def test_a_unit_listing_the_rule_is_an_independent_character_that_joins_and_leaves(ruleset: str, clause: str) -> None:
    data = scenario(ruleset, [_captain(), squad("tac", 13, 20)])
    g = game(data)
    assert g.state.unit("captain").is_independent
    ruling = g.check(JOIN)
    assert ruling.legal and clause in ruling.rules, ruling
    g.apply(JOIN)
    assert g.state.unit("captain").joined == "tac"
    assert not scenario_notes(g.state)  # no "not modelled" note for the rule the tool is about


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_without_the_rule_or_the_field_the_model_is_no_character_and_may_not_join(ruleset: str) -> None:
    data = scenario(ruleset, [{**_captain(), "rules": []}, squad("tac", 13, 20)])
    g = game(data)
    before = g.state
    ruling = g.check(JOIN)
    assert not ruling.legal
    assert g.state is before


@pytest.mark.parametrize("kind", ["ordinary"])
def test_a_character_field_that_says_otherwise_is_refused_naming_it(kind: str) -> None:
    data = scenario("40k3", [_captain(character=kind, joined="tac"), squad("tac", 13, 20)])
    with pytest.raises(ScenarioError) as caught:
        state_from_data(data, "s.yaml")
    text = str(caught.value)
    assert "sides.red[0].character" in text and "sides.red[0].rules[0]" in text and "[40k3.char.kinds]" in text


def test_the_field_and_the_rule_together_load_as_one_independent_character() -> None:
    state = state_from_data(scenario("40k4", [_captain(character="independent"), squad("tac", 13, 20)]))
    assert state.unit("captain").is_independent and not scenario_notes(state)


def test_a_typo_of_the_rule_is_refused_as_any_modelled_rule_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario("40k3", [{**_captain(), "rules": ["Independant Character"]},
                                                     squad("tac", 13, 20)])), encoding="utf-8")
    code, out, err = run(["actions", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "sides.red[0].rules[0]" in err and "did you mean 'independent_character'?" in err, err


def test_the_cli_says_the_refusal_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(scenario("40k3", [_captain(character="ordinary", joined="tac"),
                                                     squad("tac", 13, 20)])), encoding="utf-8")
    code, out, err = run(["check", str(path), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}: sides.red[0].character: " in err


def test_a_roster_s_independent_character_joins_through_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "orks.yaml"
    code, _, err = run(["scenario", "new", "--roster", str(ROOT / "examples" / "battlescribe" / "orks_test.ros"),
                        "--out", str(out)], capsys)
    assert code == 0, err
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    boss = next(u for u in data["sides"]["waaagh_test"] if "Independent Character" in u.get("rules", []))
    del boss["character"]  # the rule alone says it
    out.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, printed, err = run(["actions", str(out)], capsys)
    assert code == 0 and f'"do": "join", "character": "{boss["id"]}"' in printed
    assert "Independent Character" not in err


def test_the_9th_age_keeps_the_name_as_text() -> None:
    data = yaml.safe_load((ROOT / "examples" / "t9a_captain_joins_spearmen.yaml").read_text(encoding="utf-8"))
    side = next(iter(data["sides"]))
    data["sides"][side][0].setdefault("rules", []).append("Independent Character")
    notes = scenario_notes(state_from_data(data))
    assert any("read as text: " in n and "Independent Character" in n for n in notes), notes
