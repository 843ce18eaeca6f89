"""Import every module that decides rules, so that their ``@implements`` marks register."""

from __future__ import annotations

import importlib
import pkgutil

import herohammer

_SKIP = {"herohammer.__main__", "herohammer.cli", "herohammer.rules_index"}

for _info in pkgutil.walk_packages(herohammer.__path__, "herohammer."):
    if _info.name not in _SKIP:
        importlib.import_module(_info.name)
