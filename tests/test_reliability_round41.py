"""Reliability round 41: what long random play and mangled input found, each case a plain sequence through the front door.

(The module docstring is completed at the end of the round.)
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from herohammer.errors import HerohammerError
from herohammer.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DEMO_40K3 = ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml"


def _with_bad_plan_step(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The bundled 40k3 demo with its plan's third step naming no power (``power: 7``)."""
    data = yaml.safe_load(DEMO_40K3.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["plan"][2]["power"] = 7
    path = tmp_path / "demo.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path, data


def test_a_bad_step_of_the_scenario_s_own_plan_names_the_file_and_plan(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate FILE`` with no --actions plays the scenario's ``plan:``; a step of it that is no action is refused
    in one line naming the file and ``plan[2]``, not a ``--actions`` the user never gave (nor ``None``)."""
    path, data = _with_bad_plan_step(tmp_path)
    code, out, err = run(["simulate", str(path), "--runs", "3", "--seed", "1", "--method", "engine"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    assert f"{path}: plan[2]: field power" in err and "--actions" not in err and "None" not in err, err
    with pytest.raises(HerohammerError) as refused:  # the library alike: no --actions there either
        simulate(data, 3, seed=1, method="engine", source="demo.yaml")
    assert "demo.yaml: plan[2]: field power" in str(refused.value) and "--actions" not in str(refused.value)
