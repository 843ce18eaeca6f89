"""The command line answers ``--version`` without loading the heavy libraries."""

from __future__ import annotations

import re
import subprocess
import sys

HEAVY = ("numpy", "pydantic", "rich", "shapely")


def test_version_loads_no_heavy_library() -> None:
    code = ("import sys; from herohammer.cli import main; status = main(['--version']); "
            f"print(status, sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("herohammer ")
    assert out[1] == "0 []"


def test_simulate_prints_each_demo_heading_before_its_table_and_quiet_changes_nothing_else(capsys: object) -> None:
    from herohammer.cli import main

    assert main(["simulate", "--runs", "200", "--quiet"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert out.splitlines()[0].startswith("herohammer simulate: the bundled demos")
    first_demo = out.index("demo_40k3")
    assert first_demo < out.index("method: compiled")  # the heading comes first, then the table and its method
    assert main(["simulate", "--runs", "200"]) == 0
    again = capsys.readouterr().out  # type: ignore[attr-defined]
    timings = re.compile(r"\(\d+\.\d+ s\)")
    assert timings.sub("", again) == timings.sub("", out)
