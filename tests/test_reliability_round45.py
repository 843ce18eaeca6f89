"""Reliability round 45.

* ``simulate.state_outcome`` counted a destroyed unit as falling back too: the statuses a unit had when its last model
  fell stay on it in the state, and the simulate tables (and their JSON) read them as if it still stood.  A Marine
  shooting at a lone falling-back Ork: the table showed ``boyz: destroyed`` 1/9 and ``boyz: falling_back`` for every
  run (a constant row, so not shown at all).  Now a destroyed unit holds no status in an outcome: destroyed or falling
  back, never both.
* ``herohammer simulate examples/t9a_whole_turn.yaml --method compiled | cat`` printed its title and then nothing for
  over 10 minutes.  Progress was drawn only as a bar on a terminal.  The size estimate did catch the plan (about
  1.3e12 rules-code runs against the budget of 200,000, most of them at step 9, the Captain's fight), but only at its
  end: its random paths enumerate each step where they stand, spending up to half the budget before the rounds are
  added up (100,836 rules-code runs here, each a whole cast or melee: 436 s on this loaded machine), then refused it
  with its size and exit 1.  Now on a pipe or in a file every progress bar of ``simulate``, ``sweep`` and ``odds
  action`` is a line on stderr every ``simulate.LINE_SECONDS`` (``progress_bar``, ``_LineProgress``): the wait is
  never silent.  ``--method compiled`` is still never switched (docs/simulate.md says so).
* The 0.01" a base may be off (base contact within it, an overlap up to it allowed) was a bare literal in
  ``geometry`` (eight defaults), ``movement`` (swept radii and screens) and ``t9a_moves``: now
  ``geometry.BASE_TOLERANCE``, which ``t9a_moves.APART`` is; no ruling changed (the existing tests).
"""

from __future__ import annotations

import json
import re
import selectors
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.scenario import state_from_data
from herohammer.simulate import state_outcome
from herohammer.units import Status
from herohammer.values import evolve
from tests._cli import result_of, run

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv3+"


def _scenario(status: list[str]) -> dict[str, Any]:
    """A Marine with a bolter 20" from a lone Ork (``status`` on the Ork), the Marines' shooting phase, and the plan:
    the shot.  A hit on 3+ (BS4), a wound on 4+ (S4 against T4), a failed 3+ save: the Ork falls in 1/9 of the runs."""
    return {"ruleset": "40k3", "phase": "shooting", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "tac", "models": [{"name": "M", "profile": MARINE, "base": 25, "at": [20, 10],
                                                         "weapons": ["bolter"]}]}],
                      "blue": [{"id": "boyz", "status": status, "models": [
                          {"name": "B", "profile": ORK, "base": 25, "at": [20, 30]}]}]},
            "plan": [{"do": "shoot", "unit": "tac", "target": "boyz"}]}


def _rows(result: dict[str, Any]) -> dict[str, Fraction]:
    """The rows of a simulate --json answer by label, their exact values."""
    return {row["outcome"] if row["value"] is None else f"{row['outcome']} = {row['value']}": Fraction(row["exact"])
            for row in result["outcomes"]}


def test_a_destroyed_unit_holds_no_status_in_an_outcome() -> None:
    """Destroyed while falling back, and destroyed outright: the destroyed row only; alive, its statuses as they are."""
    for status in (["falling_back"], []):
        initial = state_from_data(_scenario(status))
        boyz = initial.unit("boyz")
        gone = initial.replace_unit(evolve(boyz, models=(), status=boyz.status | {Status.SHAKEN}))
        shown = dict(state_outcome(initial, gone))
        assert shown["boyz: destroyed"] is True
        assert not any(shown[f"boyz: {s.value}"] for s in Status), status
        shaken = evolve(boyz, status=boyz.status | {Status.SHAKEN})
        standing = dict(state_outcome(initial, initial.replace_unit(shaken)))
        assert shown["boyz: models lost"] == 1 and standing["boyz: destroyed"] is False
        assert standing["boyz: shaken"] is True and standing["boyz: falling_back"] is bool(status)


def test_simulate_counts_a_unit_shot_down_while_falling_back_as_destroyed_not_falling_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fleeing_ork.json"
    path.write_text(json.dumps(_scenario(["falling_back"])))
    code, out, err = run(["simulate", str(path), "--runs", "2000", "--seed", "1", "--json"], capsys)
    assert code == 0, err
    rows = _rows(result_of(out))
    killed = Fraction(2, 3) * Fraction(1, 2) * Fraction(1, 3)  # by hand: a hit (BS4: 3+), a wound, no save
    assert rows["boyz: destroyed"] == killed
    assert rows["boyz: falling_back"] == 1 - killed  # the rows part: destroyed, or still falling back
    code, out, err = run(["simulate", str(path), "--runs", "2000", "--seed", "1"], capsys)
    assert code == 0, err
    table = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    assert "1/9" in table["boyz: destroyed"] and "8/9" in table["boyz: falling_back"], out


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


#: A compile that works for longer than ``LINE_SECONDS``: the 40k4 Chaplain's default policy, whose estimate fits the
#: budget and whose rounds then spend all 200,000 runs (about 40 s).  Until reliability round 46 the 9th Age whole
#: turn's estimate took minutes; it now refuses that plan in a few seconds.
LONG_COMPILE = "examples/40k4_chaplain_combat.yaml"


def test_a_long_compile_on_a_pipe_says_its_title_then_how_far_it_has_gone() -> None:
    """stdout and stderr both pipes, as under ``| cat`` in a script: the title at once, then progress lines on stderr
    within ``LINE_SECONDS`` (and a little); the run is stopped there (it would go on for a while)."""
    from herohammer.simulate import LINE_SECONDS

    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", "simulate", LONG_COMPILE,
                             "--method", "compiled", "--seed", "1"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        title = _first_line(proc.stdout, 60)
        assert title.startswith(f"{LONG_COMPILE} (40k4): 100,000 runs of the default policy"), title
        line = _first_line(proc.stderr, 60 + LINE_SECONDS)
        assert PROGRESS_LINE.match(line.rstrip("\n")), line
        assert proc.poll() is None  # still at work: the line came while it works, not at its end
    finally:
        proc.kill()
        proc.communicate()


@pytest.mark.rule("published.bases-apart")
def test_one_base_tolerance_for_contact_overlap_and_the_9th_age_moves() -> None:
    import inspect

    from herohammer import geometry
    from herohammer.rulesets import t9a_moves

    assert t9a_moves.APART is geometry.BASE_TOLERANCE == 0.01
    for name in ("in_base_contact", "contacts", "contact_rows", "groups_touch", "contact_pairs", "overlaps",
                 "overlapping_pairs", "first_swept_hit"):
        defaults = [p.default for p in inspect.signature(getattr(geometry, name)).parameters.values()
                    if p.default is not inspect.Parameter.empty]
        assert geometry.BASE_TOLERANCE in defaults, name
