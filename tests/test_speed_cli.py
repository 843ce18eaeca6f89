"""The command line answers ``--version`` without loading the heavy libraries."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numpy", "pydantic", "rich", "shapely")


def test_version_loads_no_heavy_library() -> None:
    code = ("import sys; from herohammer.cli import main; status = main(['--version']); "
            f"print(status, sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("herohammer ")
    assert out[1] == "0 []"
