"""A unit left with its last model without a test reads as that, not as a test (``outcome_labels``).

Found by using the tool: ``odds action`` on a 4th edition volley printed a row ``last_man``
whenever the target was left with one model, though 4th edition has no Last Man Standing
test (published.last-man-standing); the row read like a test taken.  ``odds action``,
``simulate``'s tallies and ``play`` share the words: ``warriors: down to its last model``.
3rd edition's real test is still a Morale-type check, said as one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
SHOT = ROOT / "examples" / "40k4_lone_character_shot.yaml"  # 4 marines; 2 Necron warriors in range
SHOOT = {"do": "shoot", "unit": "tactical", "target": "warriors"}
DOWN = "warriors: down to its last model"


def _scenario(tmp_path: Path, ruleset: str) -> Path:
    data = yaml.safe_load(SHOT.read_text())
    data["ruleset"] = ruleset
    path = tmp_path / f"{ruleset}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _rows(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines()]


@pytest.mark.rule("published.last-man-standing")
def test_odds_action_says_the_unit_is_down_to_its_last_model_not_a_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "action", str(_scenario(tmp_path, "40k4")), "--action", json.dumps(SHOOT)], capsys)
    assert code == 0, err
    # 44/81: one slain, once the squad has passed its Target Priority test on Ld 9 (5/6: the Lord is the closest
    # enemy unit, published.target-priority): 110/243
    assert any(row.startswith(DOWN) and row.endswith("45.27%") for row in _rows(out)), out
    assert not any(row.startswith("last_man") for row in _rows(out)), out
    code, out, err = run(["odds", "action", str(_scenario(tmp_path, "40k3")), "--action", json.dumps(SHOOT)], capsys)
    assert code == 0, err  # 3rd edition: the unit takes the test; no row says it was spared one
    assert DOWN not in out and "last_man" not in out and "fall_back" in out


@pytest.mark.rule("published.last-man-standing")
def test_play_and_simulate_use_the_same_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = _scenario(tmp_path, "40k4")
    said = []
    for seed in range(1, 12):
        code, out, err = run(["play", str(scenario), "--seed", str(seed), "--action", json.dumps(SHOOT)], capsys)
        assert code == 0, err
        outcome = next(line for line in out.splitlines() if line.startswith("outcome: "))
        assert "last_man" not in outcome
        said.append(DOWN in outcome.split("; ") and "warriors: models lost = 1" in outcome)
    assert any(said), "no seed left the warriors with one model"
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump([SHOOT]))
    code, out, err = run(["simulate", str(scenario), "--actions", str(plan), "--runs", "2000", "--seed", "1", "--csv"],
                         capsys)
    assert code == 0, err
    outcomes = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert f"event: {DOWN}" in outcomes and not any("last_man" in o for o in outcomes), outcomes
    exact = next(line.split(",")[7] for line in out.splitlines() if line.startswith(f"event: {DOWN},"))
    assert exact == "110/243"  # the same chance odds action gives


@pytest.mark.rule("published.last-man-standing")
def test_sweep_takes_the_words_as_a_units_outcome(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = _scenario(tmp_path, "40k4")
    plan = tmp_path / "plan.yaml"
    plan.write_text(yaml.safe_dump([SHOOT]))
    code, out, err = run(["sweep", str(scenario), "--actions", str(plan), "--runs", "500", "--seed", "1",
                          "--vary", "sides.blue[warriors].models[0].profile.Sv=3+,6+", "--outcome", DOWN], capsys)
    assert code == 0, err
    assert DOWN in out and "trial" not in err  # a unit's outcome: known from the scenario, no trial run needed
    code, _, err = run(["sweep", str(scenario), "--actions", str(plan), "--runs", "500", "--seed", "1",
                        "--vary", "sides.blue[warriors].models[0].profile.Sv=3+,6+",
                        "--outcome", "warriors: down to its last man"], capsys)
    assert code == 2 and "down to its last model" in err  # the refusal lists the words there are
