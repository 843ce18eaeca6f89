"""Junk thrown at every public Python function: one clear ``HerohammerError`` or an answer, never a traceback.

Each case calls one public function with one argument replaced by something drawn
from ``JUNK`` (None, bools, NaN and infinities, huge and negative numbers, text with
rich markup, bytes, mappings, lists, plain objects, a state where an action belongs
and the reverse).  The function must either answer (the junk happened to be valid)
or raise a ``HerohammerError`` (a ``ValueError``) whose message is one line; for junk
that can never be valid in that place (an ``object()``, bytes) the message names
the parameter.  Issue 14, deliverable 1.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import herohammer as hh
from herohammer.action_odds import action_odds
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.scenario import read_data
from herohammer.simulate import simulate, simulate_file
from herohammer.sweep import run_sweep, sweep_cost

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "40k3_librarian_psychic.yaml"
STATE = hh.load_scenario(EXAMPLE)
DATA = read_data(EXAMPLE)
END = hh.parse_action('{"do": "end_phase"}')


class Opaque:
    """A value no public function takes anywhere."""


NEVER_VALID = (Opaque, bytes)

JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
    st.integers(max_value=-1), st.integers(min_value=10**13, max_value=10**40),
    st.text(max_size=12), st.sampled_from(["[/]", "[bold red]x", "", "nobody", "end_phase", "40k3"]),
    st.binary(max_size=6), st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=3), max_size=3),
    st.lists(st.integers(-3, 9), max_size=3), st.tuples(st.text(max_size=3)), st.builds(Opaque),
    st.just(STATE), st.just(END), st.just({"do": "move", "unit": "nobody", "to": [[1, 2]]}),
    st.just({"do": "end_phase"}), st.just([("turn", [1])]),
)

#: (public function, parameter replaced): a call with that one argument replaced by the junk.
CASES: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("Game", "state"): lambda j: Game(j),
    ("Game", "dice"): lambda j: Game(STATE, j),
    ("Game.load", "path"): lambda j: Game.load(j),
    ("Game.from_data", "data"): lambda j: Game.from_data(j),
    ("Game.check", "action"): lambda j: Game(STATE).check(j),
    ("Game.apply", "action"): lambda j: Game(STATE).apply(j),
    ("Game.apply", "dice"): lambda j: Game(STATE).apply(END, j),
    ("Game.save", "path"): lambda j: Game(STATE).save(j),
    ("Game.save", "record"): lambda j: Game(STATE).save("saved.yaml", j),
    ("Game.to_data", "record"): lambda j: Game(STATE).to_data(j),
    ("Ruleset.rule_on", "state"): lambda j: hh.get_ruleset("40k3").rule_on(j, END),
    ("Ruleset.rule_on", "action"): lambda j: hh.get_ruleset("40k3").rule_on(STATE, j),
    ("Ruleset.resolve", "state"): lambda j: hh.get_ruleset("40k3").resolve(j, END, hh.SeededDice(1)),
    ("Ruleset.resolve", "action"): lambda j: hh.get_ruleset("40k3").resolve(STATE, j, hh.SeededDice(1)),
    ("Ruleset.resolve", "dice"): lambda j: hh.get_ruleset("40k3").resolve(STATE, END, j),
    ("Ruleset.targets", "state"): lambda j: hh.get_ruleset("40k3").targets(j, "tactical"),
    ("Ruleset.targets", "unit_id"): lambda j: hh.get_ruleset("40k3").targets(STATE, j),
    ("action_odds", "state"): lambda j: action_odds(j, END),
    ("action_odds", "action"): lambda j: action_odds(STATE, j),
    ("action_odds", "runs"): lambda j: action_odds(STATE, END, runs=j),
    ("action_odds", "max_runs"): lambda j: action_odds(STATE, END, max_runs=j),
    ("action_odds", "seed"): lambda j: action_odds(STATE, END, seed=j),
    ("action_odds", "notice"): lambda j: action_odds(STATE, END, notice=j),
    ("action_odds", "advance"): lambda j: action_odds(STATE, END, advance=j),
    ("action_odds", "walked"): lambda j: action_odds(STATE, END, walked=j),
    ("simulate", "data"): lambda j: simulate(j, 2, 1, method="engine"),
    ("simulate", "runs"): lambda j: simulate(DATA, j, 1, method="engine"),
    ("simulate", "seed"): lambda j: simulate(DATA, 2, j, method="engine"),
    ("simulate", "plan"): lambda j: simulate(DATA, 2, 1, j, method="engine"),
    ("simulate", "method"): lambda j: simulate(DATA, 2, 1, method=j),
    ("simulate", "workers"): lambda j: simulate(DATA, 2, 1, method="engine", workers=j),
    ("simulate", "notice"): lambda j: simulate(DATA, 2, 1, method="engine", notice=j),
    ("simulate", "advance"): lambda j: simulate(DATA, 2, 1, method="engine", advance=j),
    ("simulate", "progress"): lambda j: simulate(DATA, 2, 1, method="engine", progress=j),
    ("simulate", "source"): lambda j: simulate(DATA, 2, 1, method="engine", source=j),
    ("Game.replay", "source"): lambda j: Game.replay(j),
    ("Game.replay", "dice"): lambda j: Game.replay("no-such-record.yaml", j),
    ("simulate_file", "path"): lambda j: simulate_file(j, 2, 1, method="engine"),
    ("simulate_file", "actions"): lambda j: simulate_file(EXAMPLE, 2, 1, j, method="engine"),
    ("simulate_file", "workers"): lambda j: simulate_file(EXAMPLE, 2, 1, method="engine", workers=j),
    ("run_sweep", "data"): lambda j: run_sweep(j, [("turn", [1])], 2, 1, method="engine"),
    ("run_sweep", "varies"): lambda j: run_sweep(DATA, j, 2, 1, method="engine"),
    ("run_sweep", "runs"): lambda j: run_sweep(DATA, [("turn", [1])], j, 1, method="engine"),
    ("run_sweep", "seed"): lambda j: run_sweep(DATA, [("turn", [1])], 2, j, method="engine"),
    ("run_sweep", "plan"): lambda j: run_sweep(DATA, [("turn", [1])], 2, 1, j, method="engine"),
    ("run_sweep", "workers"): lambda j: run_sweep(DATA, [("turn", [1])], 2, 1, method="engine", workers=j),
    ("run_sweep", "notice"): lambda j: run_sweep(DATA, [("turn", [1])], 2, 1, method="engine", notice=j),
    ("run_sweep", "advance"): lambda j: run_sweep(DATA, [("turn", [1])], 2, 1, method="engine", advance=j),
    ("run_sweep", "source"): lambda j: run_sweep(DATA, [("turn", [1])], 2, 1, method="engine", source=j),
    ("sweep_cost", "method"): lambda j: sweep_cost([("turn", [1])], 2, j),
    ("load_scenario", "path"): lambda j: hh.load_scenario(j),
    ("state_from_data", "data"): lambda j: hh.state_from_data(j),
    ("save_scenario", "state"): lambda j: hh.save_scenario(j, "saved.yaml"),
    ("save_scenario", "path"): lambda j: hh.save_scenario(STATE, j),
    ("parse_action", "value"): lambda j: hh.parse_action(j),
    ("get_ruleset", "name"): lambda j: hh.get_ruleset(j),
    ("SeededDice", "seed"): lambda j: hh.SeededDice(j),
    ("ScriptedDice", "faces"): lambda j: hh.ScriptedDice(j),
    ("enumerate_outcomes", "rules"): lambda j: hh.enumerate_outcomes(j),
    ("enumerate_outcomes", "max_runs"): lambda j: hh.enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"), j),
    ("enumerate_outcomes", "estimate_paths"): lambda j: hh.enumerate_outcomes(
        lambda d: d.d6("a die", "core.test.characteristic"), estimate_paths=j),
    ("enumerate_outcomes", "fine"): lambda j: hh.enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"),
                                                                    fine=j),
    ("enumerate_outcomes", "merge_loops"): lambda j: hh.enumerate_outcomes(
        lambda d: d.d6("a die", "core.test.characteristic"), merge_loops=j),
    ("enumerate_outcomes", "positions"): lambda j: hh.enumerate_outcomes(
        lambda d: d.d6("a die", "core.test.characteristic"), positions=j),
    ("parse_amount", "text"): lambda j: hh.parse_amount(j),
    ("parse_roll_needed", "text"): lambda j: hh.parse_roll_needed(j),
    ("read_battlescribe", "path"): lambda j: hh.read_battlescribe(j),
    ("Profile.parse", "text"): lambda j: hh.Profile.parse(j),
}
#: Parameters whose message may not name them for junk of any kind (a text or a number is read as what it says).
NAMES_WHAT_IT_READ = {("parse_amount", "text"), ("parse_roll_needed", "text"), ("Profile.parse", "text"),
                      ("get_ruleset", "name"), ("SeededDice", "seed"), ("ScriptedDice", "faces"),
                      ("parse_action", "value"), ("Game.check", "action"), ("Game.apply", "action"),
                      ("action_odds", "action")}


@pytest.fixture(scope="module", autouse=True)
def _in_a_scratch_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Junk text given as a file name may be written: write it in a scratch folder."""
    before = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("junk"))
    yield
    os.chdir(before)


@settings(max_examples=int(os.environ.get("HEROHAMMER_JUNK_EXAMPLES", 400)), deadline=None, derandomize=True,
          database=None, suppress_health_check=list(HealthCheck))
@given(case=st.sampled_from(sorted(CASES)), junk=JUNK)
def test_junk_to_a_public_function_is_one_clear_error(case: tuple[str, str], junk: Any) -> None:
    function, parameter = case
    try:
        CASES[case](junk)
    except HerohammerError as exc:
        message = str(exc)
        assert message and len(message.splitlines()) == 1, (case, junk, message)
        if isinstance(junk, NEVER_VALID) and case not in NAMES_WHAT_IT_READ:
            assert parameter in message, (case, junk, message)


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_opaque_object_is_refused_naming_the_function_or_the_parameter(case: tuple[str, str]) -> None:
    function, parameter = case
    with pytest.raises(HerohammerError) as caught:
        CASES[case](Opaque())
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    if case not in NAMES_WHAT_IT_READ:
        assert f"{function}: {parameter}" in message or parameter in message, message


@pytest.mark.parametrize("call, expected", [
    (lambda: Game(STATE).check({"do": "shoot", "unit": "nobody", "target": "tactical"}), None),
    (lambda: hh.get_ruleset("40k3").rule_on(STATE, {"do": "end_phase"}), "Ruleset.rule_on: action: expected an Action"),
    (lambda: hh.get_ruleset("40k3").rule_on("examples/x.yaml", END), "Ruleset.rule_on: state: expected a GameState"),
    (lambda: hh.get_ruleset("40k3").targets(STATE, "nobody"), "no unit with id 'nobody'"),
    (lambda: action_odds(STATE, END, runs=float("nan")), "action_odds: runs: expected a whole number"),
    (lambda: action_odds(STATE, END, runs=10**30), "action_odds: runs: expected a whole number from 1 to 1,000,000"),
    (lambda: simulate(DATA, True), "simulate: runs: expected a whole number"),
    (lambda: simulate(DATA, 5, -1), "simulate: seed: expected a whole number from 0"),
    (lambda: simulate(DATA, 5, plan="[]"), "simulate: plan: expected a list of actions"),
    (lambda: run_sweep(DATA, {"turn": [1, 2]}, 5), "run_sweep: varies: expected a list of (path, values) pairs"),
    (lambda: Game(STATE).apply(END, dice=6), "Game.apply: dice: expected a Dice"),
])
def test_wrong_kinds_are_refused_in_one_line_naming_the_field(call: Callable[[], Any], expected: str | None) -> None:
    before = STATE
    with pytest.raises(HerohammerError) as caught:
        ruling = call()
        if expected is None:  # a ruling, not an error: the unknown unit is named in its reason
            assert not ruling.legal and "nobody" in ruling.reason
            raise HerohammerError(ruling.reason)
    if expected is not None:
        assert expected in str(caught.value), str(caught.value)
    assert STATE is before


def test_a_sweep_past_the_limits_is_refused_before_any_variant_is_built() -> None:
    from herohammer.limits import ENGINE_MAX_RUNS, MAX_RUNS, MAX_VARIANTS

    huge = [(f"x{i}", list(range(100))) for i in range(5)]  # 10**10 variants: building them could not end
    with pytest.raises(HerohammerError, match=f"more than the limit of {MAX_VARIANTS:,}"):
        run_sweep(DATA, huge, 1, 1)
    assert sweep_cost([("turn", [1, 2, 3])], 1000) == (3, 3000)
    with pytest.raises(HerohammerError, match=f"more than the limit of {MAX_RUNS:,}"):
        sweep_cost([("turn", list(range(1, 11)))], MAX_RUNS // 5)
    with pytest.raises(HerohammerError, match=f"engine runs .* more than the limit of {ENGINE_MAX_RUNS:,}"):
        sweep_cost([("turn", [1, 2])], ENGINE_MAX_RUNS, "engine")
    assert sweep_cost([("turn", [1, 2])], ENGINE_MAX_RUNS // 2, "engine") == (2, ENGINE_MAX_RUNS)
