"""Run mypy in the test's own process and give the process back as it was.

mypy's ``main`` raises the interpreter's recursion limit (to 2**14) and leaves it raised: every
later test in the session would then parse deeper input than a user's process does.
"""

from __future__ import annotations

import sys


def run_mypy(args: list[str]) -> tuple[str, str, int]:
    """Return mypy's ``api.run(args)`` (stdout, stderr, exit status), the recursion limit restored after it."""
    from mypy import api

    limit = sys.getrecursionlimit()
    try:
        return api.run(args)
    finally:
        sys.setrecursionlimit(limit)
