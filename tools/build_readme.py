#!/usr/bin/env python3
"""Build README.md and the docs pages from their templates, running every command shown so its output is real.

Targets: docs/README.in.md -> README.md, and each docs/templates/NAME.in.md -> docs/NAME.md.
In a template, a fenced ```console block holds commands only, one per line, each
starting with "$ ".  This script runs them from the project root (with the project's
.venv/bin first on PATH, COLUMNS=100) and writes each command followed by its output.
Everything else is copied as it is.

Run: .venv/bin/python tools/build_readme.py              (every target)
     .venv/bin/python tools/build_readme.py docs/odds.md  (only the targets named)
     .venv/bin/python tools/build_readme.py --list        (the targets and their templates)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "docs" / "README.in.md"
TARGET = ROOT / "README.md"
PAGES = ROOT / "docs" / "templates"


def targets() -> dict[Path, Path]:
    """Every target file and the template it is built from: the README first, then the docs pages by name."""
    found = {TARGET: TEMPLATE}
    for template in sorted(PAGES.glob("*.in.md")):
        found[ROOT / "docs" / (template.name.removesuffix(".in.md") + ".md")] = template
    return found


def run(command: str) -> str:
    """Run one shell command from the project root and return what it printed."""
    env = dict(os.environ, COLUMNS="100", PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
    proc = subprocess.run(command, shell=True, cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return proc.stdout.rstrip("\n")


def build(template: str, source: str = "docs/README.in.md") -> str:
    """Return the page's text with every console block's output filled in, under a line naming its template."""
    out: list[str] = [f"<!-- Generated from {source} by tools/build_readme.py: edit the template, not this file. -->"]
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


def main(argv: list[str]) -> int:
    """Build the targets named (paths from the project root), or all of them."""
    every = targets()
    if argv == ["--list"]:
        for target, template in every.items():
            print(f"{template.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
        return 0
    chosen = {t: s for t, s in every.items() if not argv or str(t.relative_to(ROOT)) in argv}
    unknown = set(argv) - {str(t.relative_to(ROOT)) for t in every}
    if unknown:
        print(f"build_readme: no template for {', '.join(sorted(unknown))} (see --list)", file=sys.stderr)
        return 2
    for target, template in chosen.items():
        source = str(template.relative_to(ROOT))
        target.write_text(build(template.read_text(encoding="utf-8"), source), encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
