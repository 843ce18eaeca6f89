"""Run the command line inside a test and collect what it printed."""

from __future__ import annotations

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


ENVELOPE = {"command", "ruleset", "method", "rules", "result"}


def result_of(text: str) -> Any:
    """Parse a ``--json`` answer, check the common envelope, and return its result."""
    import json

    doc = json.loads(text)
    assert isinstance(doc, dict) and ENVELOPE <= set(doc), doc
    assert doc["method"] in ("exact", "monte-carlo", None) and isinstance(doc["rules"], list)
    return doc["result"]
