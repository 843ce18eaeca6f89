"""The README and the docs pages: built from their templates, short where they must be, every link landing.

No command is run here (``tools/build_readme.py`` runs them when it builds the pages): the tests read the
templates and the committed pages only.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUP_RUN = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/herohammer simulate"
SETUP_TEST = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_readme", ROOT / "tools" / "build_readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_readme"] = module
    spec.loader.exec_module(module)
    return module


def _without_outputs(text: str) -> list[str]:
    """The lines of a page or template with a console block's output lines dropped (its commands kept)."""
    out: list[str] = []
    in_console = False
    for line in text.splitlines():
        if line.startswith("<!-- Generated from "):
            continue
        if line.strip() == "```console":
            in_console = True
        elif in_console and line.strip() == "```":
            in_console = False
        elif in_console and not line.startswith("$ "):
            continue
        out.append(line)
    return out


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_template_has_its_page_and_the_page_is_built_from_it() -> None:
    targets = _tool().targets()
    assert ROOT / "README.md" in targets and len(targets) >= 10
    for target, template in targets.items():
        page = target.read_text(encoding="utf-8")
        assert page.startswith(f"<!-- Generated from {template.relative_to(ROOT)} by tools/build_readme.py"), target
        assert _without_outputs(page) == _without_outputs(template.read_text(encoding="utf-8")), (
            f"{target.relative_to(ROOT)} is not built from {template.relative_to(ROOT)}: run tools/build_readme.py")


def test_build_writes_each_command_then_its_output_and_copies_the_rest() -> None:
    tool = _tool()
    tool.run = lambda command: f"<{command}>"
    built = tool.build("# T\n\n```console\n$ herohammer a\n$ herohammer b\n```\ntext\n", "docs/templates/t.in.md")
    assert built.splitlines() == [
        "<!-- Generated from docs/templates/t.in.md by tools/build_readme.py: edit the template, not this file. -->",
        "# T", "", "```console", "$ herohammer a", "<herohammer a>", "$ herohammer b", "<herohammer b>", "```", "text"]


def test_unknown_target_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _tool().main(["docs/nowhere.md"]) == 2
    assert capsys.readouterr().err == "build_readme: no template for docs/nowhere.md (see --list)\n"


def test_readme_is_short_and_opens_with_what_it_is_and_the_two_setup_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 450
    first = lines[:40]
    assert SETUP_RUN in first and SETUP_TEST in first
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").count(SETUP_TEST.replace("-e '", "-q -e '")) == 1


def test_every_relative_link_and_anchor_lands() -> None:
    pages = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if not p.name.endswith(".in.md"))]
    anchors = {}
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        anchors[page.resolve()] = {_slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page.resolve()
            if not target.exists() or (anchor and anchor not in anchors.get(target, set())):
                broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert not broken, broken
