"""Reliability round 46.

* ``simulate examples/t9a_whole_turn.yaml --method compiled`` refused the plan (about 1.3e12 rules-code runs against
  200,000) only after its estimate had spent 100,836 runs, up to 7 minutes: the Conclave's Fireball, sized at 4,133
  runs from ``SIZING_PATHS`` paths (a skewed tree: about 9.1e5), was enumerated on the first path until the
  estimate's whole allowance (half the budget) ran out.  Now a step enumerated far past its sizing is sized again from
  ``CLOSER_PATHS`` paths (``fastsim._Watched``): the cast alone is far over the budget, refused after about 8,800
  runs.  And the paths stop as soon as their rounds counted so far pass ``PLAN_PATHS x ESTIMATE_MARGIN x`` the
  budget: their mean is then over ``ESTIMATE_MARGIN x`` the budget whatever the rest count, so the stop refuses only
  what the finished estimate refuses (``more than`` that mean, and where they stopped).
* ``odds action`` counts a status the action gave a unit it then destroyed (a unit fallen back off the table counts
  as falling back); ``simulate`` reads the end state, where a destroyed unit holds none (round 45).  Both readings
  are kept, and the odds answer now says its own under its rows and in its ``--json`` (``status_rows``); the decision
  is published.leaving-the-battle's.
* ``--json`` and ``--csv`` showed no progress at all (``simulate``, ``sweep``; ``odds action --json``): a long
  compile was a silent wait.  Progress goes to stderr, so they show it now as the tables do (a bar on a terminal, a
  line every ``LINE_SECONDS`` on a pipe); ``--quiet`` still shows none.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer import fastsim
from herohammer.action_odds import STATUS_READING
from herohammer.dice import ESTIMATE_MARGIN
from herohammer.errors import EnumerationTooLarge
from herohammer.scenario import read_data
from herohammer.simulate import LINE_SECONDS, Driver, prepare
from tests._cli import result_of, run
from tests.test_reliability_round45 import LONG_COMPILE, _first_line
from tests.test_size_estimate import counted_steps

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def _plan(name: str, policy: bool = False) -> tuple[Any, Driver]:
    path = EX / name
    state, driver, _ = prepare(read_data(path), None, str(path))
    assert policy or driver.plan is not None
    return state, driver


# == 1. the plan's estimate stops as soon as it is sure ===========================================================
def test_the_whole_turn_is_refused_at_its_cast_far_within_what_the_estimate_may_spend(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At the command's budget (200,000) the Fireball's enumeration is looked at again once it passes twice its
    sizing: 256 paths read it far over the budget on its own, so the compile is refused there, naming the step,
    having run the rules code a small part of the 100,000 runs the estimate spent before."""
    state, driver = _plan("t9a_whole_turn.yaml")
    runs = counted_steps(monkeypatch)
    with pytest.raises(EnumerationTooLarge) as info:
        fastsim.compile_plan(state, driver, 200_000)
    assert info.value.estimate is not None and info.value.estimate > ESTIMATE_MARGIN * 200_000
    assert info.value.where == "at step 4 (cast: conclave)" and not info.value.at_least
    assert runs["n"] < 200_000 // 2 // 5, runs  # was 100,836


def test_the_command_says_why_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", str(EX / "t9a_whole_turn.yaml"), "--method", "compiled", "--seed", "1",
                          "--quiet"], capsys)
    assert code == 2  # a refusal the user can act on (docs/simulate.md said exit 1)
    assert re.fullmatch(r"herohammer: error: exact enumeration would take about [\d.e]+ rules-code runs \(budget "
                        r"200,000\) at step 4 \(cast: conclave\); use --method engine\n", err), err


def _finished(monkeypatch: pytest.MonkeyPatch, state: Any, driver: Driver, budget: int) -> fastsim.PlanEstimate:
    """The estimate with every path walked to its end: the stop's threshold (``paths x ESTIMATE_MARGIN x budget``,
    read from ``fastsim.ESTIMATE_MARGIN``) put out of reach for this one call."""
    with monkeypatch.context() as patched:
        patched.setattr(fastsim, "ESTIMATE_MARGIN", 10**30)
        return fastsim.estimate_plan(state, driver, budget)


@pytest.mark.parametrize("name,policy", [("t9a_whole_turn.yaml", False), ("t9a_wizard_charges_out.yaml", True),
                                         ("40k4_chaplain_combat.yaml", True), ("40k3_whole_turn.yaml", True)])
def test_an_estimate_that_stops_early_refuses_what_the_finished_one_refuses_for_less(
        monkeypatch: pytest.MonkeyPatch, name: str, policy: bool) -> None:
    """Far over a budget of 5,000, each of these stops before its last path; the paths walked to the end give a mean
    at least what the stop said (``more than``), over twice the budget: the same refusal, for fewer runs."""
    budget = 5_000
    state, driver = _plan(name, policy)
    early = fastsim.estimate_plan(state, driver, budget)
    assert early.stopped is not None and early.too_large()
    path, paths, words, counted = early.stopped
    assert 1 <= path <= paths == fastsim.PLAN_PATHS and counted > paths * ESTIMATE_MARGIN * budget
    assert early.runs == -(-counted // paths) > ESTIMATE_MARGIN * budget
    state, driver = _plan(name, policy)
    finished = _finished(monkeypatch, state, driver, budget)
    assert finished.stopped is None
    assert finished.runs >= early.runs and finished.runs > ESTIMATE_MARGIN * budget
    assert early.cost < finished.cost
    said = early.refusal()
    assert said.at_least and said.estimate == early.runs
    assert said.reason().startswith("exact enumeration would take more than ")
    assert f"the estimate stopped on its random path {path} of {paths} through the plan, at {words}, " in said.reason()


def test_a_plan_just_within_its_budget_still_compiles_the_same() -> None:
    """The 40k4 Hive Tyrant's policy compiled at exactly the runs it takes: no stop, the same exact odds."""
    state, driver = _plan("40k4_hive_tyrant_target.yaml", policy=True)
    roomy = fastsim.compile_plan(state, driver, 200_000)
    budget = roomy.rules_code_runs
    state, driver = _plan("40k4_hive_tyrant_target.yaml", policy=True)
    assert fastsim.estimate_plan(state, driver, budget).stopped is None
    state, driver = _plan("40k4_hive_tyrant_target.yaml", policy=True)
    tight = fastsim.compile_plan(state, driver, budget)
    assert tight.rules_code_runs == budget
    assert repr(tight.outcomes) == repr(roomy.outcomes) and tight.exact == roomy.exact and sum(tight.exact) == 1


# == 2. one reading of "gained a status", said =====================================================================
LAST_MAN = ROOT / "src" / "herohammer" / "book" / "40k3" / "40k3-the-last-man-also-tests-for-casualties.yaml"
SHOOT = {"do": "shoot", "unit": "las", "target": "tac"}


@pytest.fixture
def last_man(tmp_path: Path) -> Path:
    """The book entry's squad of three Marines 10" from the table edge, shot at by two lascannons: it may fall back
    2D6" off the table, destroyed in the very shooting that broke it (published.leaving-the-battle)."""
    path = tmp_path / "last_man.json"
    path.write_text(json.dumps(yaml.safe_load(LAST_MAN.read_text(encoding="utf-8"))["scenario"]))
    return path


def _exact_rows(rows: dict[str, Any]) -> dict[str, Fraction]:
    return {label: Fraction(value) for label, value in rows.items()}


@pytest.mark.rule("published.leaving-the-battle")
def test_odds_action_says_a_status_counts_a_unit_it_then_destroyed_and_simulate_reads_the_end(
        last_man: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "action", str(last_man), "--action", json.dumps(SHOOT)], capsys)
    assert code == 0, err
    lines = out.splitlines()
    legend = lines.index(f"  ({STATUS_READING})")
    assert lines.index(next(line for line in lines if line.lstrip().startswith("tac: falling_back"))) < legend
    assert "whether or not the action then destroyed it" in STATUS_READING and "published.leaving-the-battle" in out
    code, out, err = run(["odds", "action", str(last_man), "--action", json.dumps(SHOOT), "--json"], capsys)
    assert code == 0, err
    answer = result_of(out)
    assert answer["status_rows"] == STATUS_READING
    odds = _exact_rows(answer["rows"])
    code, out, err = run(["simulate", str(last_man), "--actions", str(_plan_file(last_man)), "--runs", "100",
                          "--seed", "1", "--json"], capsys)
    assert code == 0, err
    ended = {row["outcome"]: Fraction(row["exact"]) for row in result_of(out)["outcomes"] if row["value"] is None}
    # the squad wiped out (all three Marines lost) fell back off the table: odds counts it as falling back, simulate
    # as destroyed only; the rest are alike
    wiped = odds["tac: models lost = 3"]
    assert wiped > 0 and ended["tac: destroyed"] == wiped
    assert odds["tac: falling_back"] - ended["tac: falling_back"] == wiped


def _plan_file(scenario: Path) -> Path:
    plan = scenario.with_name("plan.json")
    plan.write_text(json.dumps([SHOOT]))
    return plan


def test_an_answer_with_no_status_row_has_no_such_line(last_man: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ending the lascannons' Shooting phase before they fire changes no unit's status: nothing to say, on the
    command line or in the JSON."""
    from herohammer.action_odds import action_odds
    from herohammer.scenario import load_scenario

    answer = action_odds(load_scenario(last_man), {"do": "end_phase"})
    assert not any(o.statuses_gained for o, _ in answer.weights)
    assert answer.status_reading() is None and "status_rows" not in answer.to_json()
    code, out, err = run(["odds", "action", str(last_man), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 0 and "method: exact" in out and STATUS_READING not in out, out + err


# == 3. --json and --csv show progress on stderr ===================================================================
def _on_a_terminal(argv: list[str]) -> tuple[int, str, str]:
    """Run ``herohammer argv`` with stdout a pipe and stderr a terminal (a pty); return its status, stdout and what
    the terminal showed."""
    leader, follower = pty.openpty()
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin", "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    shown = []
    while True:
        try:
            chunk = os.read(leader, 1 << 16)
        except OSError:  # the terminal's other end closed: the command has ended
            break
        if not chunk:
            break
        shown.append(chunk)
    os.close(leader)
    out = proc.communicate(timeout=120)[0]
    return proc.returncode, out.decode(), b"".join(shown).decode(errors="replace")


SIMULATE = ["simulate", "examples/40k4_lone_character_shot.yaml", "--runs", "1000", "--seed", "1"]
SWEEP = ["sweep", "examples/40k4_lone_character_shot.yaml", "--vary", "turn=1,2", "--runs", "200", "--seed", "1"]
ODDS = ["odds", "action", "examples/40k4_lone_character_shot.yaml", "--action",
        json.dumps({"do": "shoot", "unit": "tactical", "target": "lord"})]


@pytest.mark.parametrize("argv,bar", [(SIMULATE + ["--json"], "compiling exact odds (rules-code runs)"),
                                      (SIMULATE + ["--csv"], "compiling exact odds (rules-code runs)"),
                                      (SWEEP + ["--json"], "variants"), (SWEEP + ["--csv"], "variants"),
                                      (ODDS + ["--json"], "exact odds: rules-code runs")],
                         ids=["simulate --json", "simulate --csv", "sweep --json", "sweep --csv", "odds --json"])
def test_json_and_csv_on_stdout_show_the_bar_on_a_terminal(argv: list[str], bar: str) -> None:
    code, out, shown = _on_a_terminal(argv)
    assert code == 0, shown
    assert bar in shown, shown
    if "--json" in argv:
        assert json.loads(out)["command"] in ("simulate", "sweep", "odds action")  # the answer alone on stdout
    else:
        assert len(list(csv.reader(io.StringIO(out)))) > 1 and bar not in out
    code, out, shown = _on_a_terminal([*argv, "--quiet"])
    assert code == 0 and bar not in shown, shown


def test_json_on_a_pipe_says_how_far_a_long_compile_has_gone_on_stderr() -> None:
    """stdout and stderr both pipes: nothing on stdout until the answer, a progress line on stderr within
    ``LINE_SECONDS`` (and a little) while the compile works; the run is stopped there."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", "simulate", LONG_COMPILE, "--method", "compiled",
                             "--seed", "1", "--json"], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = _first_line(proc.stderr, 60 + LINE_SECONDS)
        assert re.fullmatch(r"compiling exact odds \(rules-code runs\): [\d,]+ of 200,000 \((\d+m )?\d+s\)\n",
                            line), line
        assert proc.poll() is None  # still at work
    finally:
        proc.kill()
        out, _ = proc.communicate()
    assert out == ""  # the JSON alone, and it had not come
