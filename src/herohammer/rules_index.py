"""Import every module that decides rules, so that their ``@implements`` marks register.

Only the modules whose source holds a mark are imported: importing the whole package (the web
app's FastAPI, the simulator's numpy, BattleScribe's XML) cost ``herohammer rules`` most of a
second before its first line, for no mark (``tests/test_qa_bundled_yaml.py`` holds the marks
found to those of importing everything).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import herohammer

_SKIP = {"herohammer.__main__", "herohammer.cli", "herohammer.rules_index"}
_MARK = "@implements("

for _root in herohammer.__path__:
    for _file in sorted(Path(_root).rglob("*.py")):
        _name = ".".join(("herohammer", *_file.relative_to(_root).with_suffix("").parts)).removesuffix(".__init__")
        if _name not in _SKIP and _MARK in _file.read_text(encoding="utf-8"):
            importlib.import_module(_name)
