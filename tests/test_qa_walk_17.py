"""Session 17's walk of the command line with bad input (rel17): what it found, each with a test.

A scenario file or an action that gives a mapping's key twice (YAML and JSON keep the last one silently), and a
scenario that defines one weapon (or power) name twice (models find the first; the second's numbers were read by
nothing), are refused in one line naming the file, the line or field, with exit 2; nothing is played or written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.errors import HerohammerError
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
SHOOT = '{"do": "shoot", "unit": "tactical", "target": "boyz"}'


def _one_line(code: int, err: str, *expected: str) -> None:
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for text in expected:
        assert text in err, err


def test_a_scenario_key_given_twice_is_refused_naming_the_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = PSYCHIC.read_text(encoding="utf-8")
    assert load_scenario(PSYCHIC).turn == 1  # the file as it is loads
    twice = tmp_path / "turn_twice.yaml"
    twice.write_text(text + "turn: 3\n", encoding="utf-8")  # played as turn 3 before
    line = len(text.splitlines()) + 1
    code, _, err = run(["check", str(twice), "--action", '{"do": "end_phase"}'], capsys)
    _one_line(code, err, str(twice), f"line {line}", "'turn' is given twice")
    as_json = tmp_path / "turn_twice.json"
    body = json.dumps(yaml.safe_load(text))
    as_json.write_text(body[:-1] + ', "turn": 3}', encoding="utf-8")
    code, _, err = run(["actions", str(as_json)], capsys)
    _one_line(code, err, str(as_json), "'turn' is given twice")
    # a key twice in different mappings is no repeat: each model has its own name and profile
    assert len(load_scenario(PSYCHIC).unit("tactical").models) == 4


@pytest.mark.parametrize("action", [
    '{"do": "shoot", "unit": "tactical", "target": "boyz", "do": "end_phase"}',
    '{do: shoot, unit: tactical, target: boyz, do: end_phase}',
], ids=["JSON", "YAML"])
def test_an_action_key_given_twice_is_refused_and_nothing_is_played_or_written(
        action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    code, _, err = run(["play", str(PSYCHIC), "--action", action, "--seed", "1", "--out", str(out)], capsys)
    _one_line(code, err, "--action", "'do' is given twice")
    assert not out.exists()
    code, _, err = run(["check", str(PSYCHIC), "--action", action], capsys)  # was ruled as end_phase
    _one_line(code, err, "'do' is given twice")
    code, stdout, _ = run(["check", str(PSYCHIC), "--action", SHOOT], capsys)  # given once: ruled as it says
    assert code == 0 and stdout.startswith("LEGAL"), stdout


@pytest.mark.parametrize("field, entry", [
    ("weapons", {"name": "Slugga", "type": "pistol", "range": 6, "strength": 3, "ap": 6}),
    ("powers", {"name": "Smite", "range": 6, "phase": "shooting", "effect": "shooting",
                "shooting": {"type": "assault", "shots": 1, "strength": 4, "ap": 2}}),
])
def test_a_weapon_or_power_defined_twice_is_refused_naming_the_field(
        field: str, entry: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(PSYCHIC.read_text(encoding="utf-8"))
    data.setdefault(field, [])
    if field == "powers":  # one of the scenario's own, then the same name again
        data[field].append({**entry, "range": 12})
    path = tmp_path / "twice.yaml"
    once = tmp_path / "once.yaml"
    once.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert load_scenario(once) is not None  # each name once loads
    first = next(i for i, w in enumerate(data[field]) if w["name"].lower() == entry["name"].lower())  # type: ignore[union-attr]
    data[field].append(entry)
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(HerohammerError, match=rf"{field}\[{len(data[field]) - 1}\]\.name: .* is defined twice "
                                              rf"\(also {field}\[{first}\]\)"):
        load_scenario(path)
    code, _, err = run(["simulate", str(path), "--runs", "10", "--seed", "1"], capsys)
    _one_line(code, err, str(path), f"{field}[{len(data[field]) - 1}].name", "defined twice")
