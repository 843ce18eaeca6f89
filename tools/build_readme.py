#!/usr/bin/env python3
"""Build README.md from docs/README.in.md, running every command shown so its output is real.

In the template, a fenced ```console block holds commands only, one per line, each
starting with "$ ".  This script runs them from the project root (with the project's
.venv/bin first on PATH, COLUMNS=100) and writes each command followed by its output.
Everything else is copied as it is.  Run: .venv/bin/python tools/build_readme.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "docs" / "README.in.md"
TARGET = ROOT / "README.md"


def run(command: str) -> str:
    """Run one shell command from the project root and return what it printed."""
    env = dict(os.environ, COLUMNS="100", PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run(command, shell=True, cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return proc.stdout.rstrip("\n")


def build(template: str) -> str:
    """Return the README text with every console block's output filled in."""
    out: list[str] = []
    lines = iter(template.splitlines())
    for line in lines:
        out.append(line)
        if line.strip() != "```console":
            continue
        for body in lines:
            if body.strip() == "```":
                out.append(body)
                break
            if body.startswith("$ "):
                out.append(body)
                printed = run(body[2:])
                if printed:
                    out.append(printed)
                print(f"ran: {body[2:][:90]}", file=sys.stderr)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    TARGET.write_text(build(TEMPLATE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}", file=sys.stderr)
