"""herohammer schema: the JSON Schema of scenario and plan files, checked with an independent validator (jsonschema)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "src" / "herohammer" / "examples").glob("*.yaml"))
PLANS = sorted((ROOT / "examples" / "plans").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator(tmp_path_factory: pytest.TempPathFactory) -> jsonschema.Draft202012Validator:
    out = tmp_path_factory.mktemp("schema") / "herohammer.schema.json"
    from herohammer.cli import main

    assert main(["schema", "--out", str(out)]) == 0
    schema = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", SCENARIOS + PLANS, ids=lambda p: p.name)
def test_every_example_validates(validator: jsonschema.Draft202012Validator, path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [e.message for e in validator.iter_errors(data)]
    assert not errors, errors[:1]


def test_a_misspelt_key_fails_the_schema_and_herohammer_suggests_the_key(
        validator: jsonschema.Draft202012Validator, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load((ROOT / "examples" / "40k3_librarian_psychic.yaml").read_text(encoding="utf-8"))
    data["$schema"] = "herohammer.schema.json"
    assert not list(validator.iter_errors(data))  # naming the schema is allowed
    data["sides"]["marines"][0]["models"][0]["weapon"] = data["sides"]["marines"][0]["models"][0].pop("weapons")
    assert list(validator.iter_errors(data))
    path = tmp_path / "typo.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, _, err = run(["actions", str(path)], capsys)
    assert code == 2 and "unknown key `weapon`; did you mean `weapons`?" in err
    assert "Extra inputs" not in err and "extra_forbidden" not in err
    data["sides"]["marines"][0]["models"][0]["weapons"] = data["sides"]["marines"][0]["models"][0].pop("weapon")
    data["weapns"] = []
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, _, err = run(["actions", str(path)], capsys)
    assert code == 2 and "unknown key `weapns`; did you mean `weapons`?" in err


def test_a_misspelt_action_key_suggests_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(ROOT / "examples" / "40k3_librarian_psychic.yaml"), "--action",
                        "{do: shoot, unit: tactical, targt: boyz}"], capsys)
    assert code == 2 and "unknown key `targt`; did you mean `target`?" in err


def test_schema_prints_without_out(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["schema"], capsys)
    assert code == 0 and json.loads(out)["title"] == "herohammer scenario or plan file"
