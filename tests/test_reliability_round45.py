"""Reliability round 45.

* ``herohammer simulate examples/t9a_whole_turn.yaml --method compiled | cat`` printed its title and then nothing for
  over 10 minutes.  Progress was drawn only as a bar on a terminal.  The size estimate did catch the plan (about
  1.3e12 rules-code runs against the budget of 200,000, most of them at step 9, the Captain's fight), but only at its
  end: its random paths enumerate each step where they stand, spending up to half the budget before the rounds are
  added up (100,836 rules-code runs here, each a whole cast or melee: 436 s on this loaded machine), then refused it
  with its size and exit 1.  Now on a pipe or in a file every progress bar of ``simulate``, ``sweep`` and ``odds
  action`` is a line on stderr every ``simulate.LINE_SECONDS`` (``progress_bar``, ``_LineProgress``): the wait is
  never silent.  ``--method compiled`` is still never switched (docs/simulate.md says so).
"""

from __future__ import annotations

import re
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


ROOT = Path(__file__).resolve().parent.parent
PROGRESS_LINE = re.compile(r"^compiling exact odds \(rules-code runs\): [\d,]+ of 200,000 "
                           r"\((\d+m )?\d+s\)$")


def _first_line(stream: Any, seconds: float) -> str:
    """The first line ``stream`` gives within ``seconds``, or ``""``."""
    chosen = selectors.DefaultSelector()
    chosen.register(stream, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if chosen.select(left):
            return str(stream.readline())
    return ""


def test_a_long_compile_on_a_pipe_says_its_title_then_how_far_it_has_gone() -> None:
    """stdout and stderr both pipes, as under ``| cat`` in a script: the title at once, then progress lines on stderr
    within ``LINE_SECONDS`` (and a little); the run is stopped there (it would go on for minutes)."""
    from herohammer.simulate import LINE_SECONDS

    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", "simulate", "examples/t9a_whole_turn.yaml",
                             "--method", "compiled", "--seed", "1"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        title = _first_line(proc.stdout, 60)
        assert title.startswith("examples/t9a_whole_turn.yaml (t9a): 100,000 runs of its plan, seed 1"), title
        line = _first_line(proc.stderr, 60 + LINE_SECONDS)
        assert PROGRESS_LINE.match(line.rstrip("\n")), line
        assert proc.poll() is None  # still at work: the line came while it works, not at its end
    finally:
        proc.kill()
        proc.communicate()
