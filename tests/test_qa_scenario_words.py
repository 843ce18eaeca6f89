"""A scenario file's mistake is told as one, not as an "illegal action".

Found by using the tool: two Spearmen both named ``spear1`` gave
"units.spearmen.formation: illegal action: model names must be unique ..." - no action was played.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
WHOLE_TURN = ROOT / "examples" / "t9a_whole_turn.yaml"


@pytest.mark.parametrize("who", [0, 1], ids=["rank and file", "joined character"])
def test_a_repeated_model_name_in_a_combined_unit_is_a_file_error_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], who: int) -> None:
    data = yaml.safe_load(WHOLE_TURN.read_text(encoding="utf-8"))
    data["sides"]["highborn"][who]["models"][0]["name"] = data["sides"]["highborn"][0]["models"][1]["name"]
    path = tmp_path / "twins.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out, err = run(["actions", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "illegal action" not in err  # a file's mistake, named where it is (session 18: before the formation's check)
    assert err == ([f"herohammer: error: {path}: sides.highborn[0].models[1].name: unit spearmen has two models named "
                    "'spear2' (also models[0]): actions, allocations and rulings name a model, so give each of a "
                    "unit's models its own name (spear2 1, spear2 2)\n",
                    f"herohammer: error: {path}: sides.highborn[1].models[0].name: captain's model 'spear2' has the "
                    "name of a model of spearmen, the unit it has joined: actions, allocations and rulings name a "
                    "model, so give it its own name\n"][who])
