"""Shared helpers of the bad-input tests: edit a scenario's data, write it, and catch its one-line refusal."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer.errors import ScenarioError
from herohammer.scenario import state_from_data

Data = dict[str, Any]


def refused(data: Data, source: str = "mine.yaml") -> ScenarioError:
    """Load ``data`` expecting a refusal: one line, beginning with the file's name."""
    with pytest.raises(ScenarioError) as caught:
        state_from_data(data, source)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(f"{source}: ")
    return caught.value


def changed(data: Data, change: Callable[[Data], object]) -> Data:
    """Return a deep copy of ``data`` with ``change`` made to it."""
    out = copy.deepcopy(data)
    change(out)
    return out


def written(tmp_path: Path, data: Data) -> Path:
    """Write ``data`` as ``mine.yaml`` under ``tmp_path``."""
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path
