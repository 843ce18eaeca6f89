"""What the on-demand benchmarks share: a baseline commit's ``src`` exported, and a script's child run on a tree.

Each benchmark compares this tree with an earlier commit in one run: the earlier ``src`` is
exported with ``git archive`` (no worktree registered), and the script runs itself as a child
process with that ``src`` on PYTHONPATH, printing its answer as JSON on its last line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def export(commit: str, into: Path) -> Path:
    """Export the baseline commit's ``src`` into ``into`` and return its path."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src"],
                             capture_output=True, check=True).stdout
    tar_path = into / "base.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def child_json(script: str, src: Path, args: list[str]) -> dict[str, Any]:
    """Run ``script --child ARGS`` with ``src`` on PYTHONPATH and return the JSON mapping it prints last."""
    result = subprocess.run([sys.executable, script, "--child", *args], env={**os.environ, "PYTHONPATH": str(src)},
                            capture_output=True, text=True, check=True, cwd=ROOT)
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))
