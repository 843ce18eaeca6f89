"""Run the command line inside a test and collect what it printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from herohammer.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``herohammer argv``; return the exit status, stdout and stderr (argparse exits included)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def odds_rows(state: Any, action: dict[str, Any], path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Save ``state`` as a scenario file at ``path`` and return the rows of ``herohammer odds action --json`` on it
    (a judge's check that the command line gives the odds the engine does)."""
    import json

    from herohammer.scenario import state_to_data

    path.write_text(json.dumps(state_to_data(state)))
    code, out, _ = run(["odds", "action", str(path), "--action", json.dumps(action), "--json"], capsys)
    assert code == 0, out
    rows: dict[str, Any] = json.loads(out)["result"]["rows"]
    return rows


ENVELOPE = {"command", "ruleset", "method", "rules", "result"}


def result_of(text: str) -> Any:
    """Parse a ``--json`` answer, check the common envelope, and return its result."""
    import json

    doc = json.loads(text)
    assert isinstance(doc, dict) and ENVELOPE <= set(doc), doc
    assert doc["method"] in ("exact", "monte-carlo", None) and isinstance(doc["rules"], list)
    return doc["result"]


#: This tree's sources, put first on a child process's path so that it runs the code under test.
SRC = str(Path(__file__).resolve().parents[1] / "src")


def printed(*args: str) -> str:
    """Run ``herohammer args`` in a process of its own on this tree's sources and return what it printed (a judge's
    case read as a user types it; a failure raises)."""
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "herohammer", *args], capture_output=True, text=True, env=env,
                          timeout=300, check=True)
    return done.stdout
