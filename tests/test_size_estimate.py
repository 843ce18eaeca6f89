"""The size of a chance tree is estimated before it is enumerated (issue 11, item 4).

``estimate_runs`` follows a few random paths (Knuth's estimator); ``odds action`` and
``simulate`` (method auto) use it to go to Monte Carlo at once, saying why, when the
exact enumeration would be far over budget - counted here in rules-code runs, not time.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer import fastsim
from herohammer.action_odds import Outcome, action_odds, summarise
from herohammer.dice import ESTIMATE_PATHS, MAX_ESTIMATE_PATHS, Dice, enumerate_outcomes, estimate_runs
from herohammer.errors import EnumerationTooLarge, OutOfRangeError, about
from herohammer.rulesets import get_ruleset
from herohammer.scenario import read_data, state_from_data
from herohammer.simulate import Driver, prepare
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import scenarios  # noqa: E402  (the benchmark positions)


def dice_in_a_row(n: int) -> Any:
    def rules(dice: Dice) -> tuple[int, ...]:
        return tuple(dice.d6(f"die {i}", "r") for i in range(n))
    return rules


def test_every_path_of_an_even_tree_estimates_its_size_exactly() -> None:
    assert estimate_runs(dice_in_a_row(3)).runs == 6**3 == len(enumerate_outcomes(dice_in_a_row(3)))
    assert estimate_runs(lambda d: "no dice").runs == 1


def test_an_uneven_tree_is_estimated_near_its_size_and_the_same_way_each_time() -> None:
    """A D6, and a second D6 only on a 6: 11 leaves; random paths give 6 or 36, averaging near 11."""
    def rules(dice: Dice) -> tuple[int, int]:
        first = dice.d6("first", "r")
        return first, dice.d6("again", "r") if first == 6 else 0

    runs = len(enumerate_outcomes(rules))
    assert runs == 11
    guess = estimate_runs(rules, 400)
    assert 6 <= guess.runs <= 36 and abs(guess.runs - runs) <= 4 and not guess.loops
    assert guess == estimate_runs(rules, 400)  # drawn from a fixed seed


def test_benchmark_positions_are_estimated_within_a_few_times_their_real_runs() -> None:
    state = state_from_data(scenarios.volley(10))
    rules = get_ruleset(state.ruleset)
    from herohammer.actions import parse_action

    action = parse_action(scenarios.VOLLEY_ACTION)
    calls = {"n": 0}

    def play(dice: Dice) -> Outcome:
        calls["n"] += 1
        return summarise(state, rules.resolve(state, action, dice))

    enumerate_outcomes(play)
    real, calls["n"] = calls["n"], 0
    guess = estimate_runs(play)
    assert calls["n"] == ESTIMATE_PATHS
    assert real / 3 <= guess.runs <= real * 3


def test_a_tree_far_over_budget_is_refused_before_it_is_walked() -> None:
    calls = {"n": 0}
    roll = dice_in_a_row(8)  # 6**8 = 1,679,616 leaves

    def rules(dice: Dice) -> tuple[int, ...]:
        calls["n"] += 1
        return roll(dice)

    with pytest.raises(EnumerationTooLarge) as info:
        enumerate_outcomes(rules, max_runs=5_000, estimate_paths=ESTIMATE_PATHS)
    assert calls["n"] == ESTIMATE_PATHS  # the estimate's paths, no enumeration
    assert info.value.estimate == 6**8
    assert info.value.reason() == "exact enumeration would take about 1.7e6 rules-code runs (budget 5,000)"
    # a tree within the budget is enumerated as before, estimate or not
    assert len(enumerate_outcomes(dice_in_a_row(3), max_runs=216, estimate_paths=ESTIMATE_PATHS)) == 216


def test_about_writes_large_counts_roughly() -> None:
    assert [about(n) for n in (7, 6_936, 99_999, 100_000, 23_456_789)] == ["7", "6,936", "99,999", "1.0e5", "2.3e7"]


def fight_state(ruleset: str) -> GameState:
    return state_from_data(scenarios.fight(ruleset))


def test_odds_action_of_a_small_fight_is_exact_and_of_a_big_one_samples_at_once_saying_why() -> None:
    state = fight_state("40k3")
    assert action_odds(state, scenarios.FIGHT_ACTION).exact

    calls = {"n": 0}

    def counted(before: GameState, resolution: Any) -> Outcome:
        calls["n"] += 1
        return summarise(before, resolution)

    heard: list[str] = []
    answer = action_odds(state, scenarios.FIGHT_ACTION, max_runs=200, runs=50, summary=counted, notice=heard.append)
    assert not answer.exact
    assert calls["n"] == ESTIMATE_PATHS + 50  # the estimate, then the Monte Carlo runs: no enumeration tried
    assert len(heard) == 1
    assert re.fullmatch(r"exact enumeration would take about [\d.,e]+ rules-code runs \(budget 200\): "
                        r"Monte Carlo with 50 runs", heard[0])
    assert "exact enumeration would take about" in answer.method and answer.method.startswith("Monte Carlo (50 runs")


def whole_turn(name: str) -> tuple[GameState, Driver]:
    path = ROOT / "examples" / name
    plan = [json.loads(a) for a in re.findall(r"--action '([^']+)'", path.read_text(encoding="utf-8"))]
    state, driver, _ = prepare(read_data(path), plan, str(path))
    return state, driver


def counted_steps(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the plan steps the rules code takes from now on (``Driver.step``), in the returned ``{"n": ...}``."""
    steps = {"n": 0}
    step = Driver.step

    def counted(self: Driver, node: Any, dice: Dice) -> Any:
        steps["n"] += 1
        return step(self, node, dice)

    monkeypatch.setattr(Driver, "step", counted)
    return steps


def test_a_plan_step_far_over_budget_stops_the_compile_before_it_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 9th Age whole turn: its steps added up would take far more runs than the budget; the compile stops at once.

    Since the 2022 Magic phase (session 32) the Conclave's cast rolls its dice as one request merged by what the rules
    tell apart, so the steps before the fight (the cast among them) are walked whole: they, and the estimate's few
    paths, are all the compile takes - never the budget; before, the cast itself was the step far over it (under 500).
    Since reliability round 46 the estimate stops on its first path, once that path's rounds alone pass 16 x 2 x the
    budget (at the Conclave's shooting after the cast, 2.8e6): it named the captain's fight, the heaviest step, when it
    walked all 16 paths to the end first."""
    state, driver = whole_turn("t9a_whole_turn.yaml")
    steps = counted_steps(monkeypatch)
    with pytest.raises(EnumerationTooLarge) as info:
        fastsim.compile_plan(state, driver, 5_000)
    assert info.value.estimate is not None and info.value.estimate > 2 * 5_000 and info.value.at_least
    assert "stopped on its random path 1 of 16 through the plan, at step 6 (shoot: conclave)" in info.value.where
    assert steps["n"] < 5_000  # the steps before it, and the estimate's few paths: not the budget


def test_simulate_auto_says_why_it_plays_the_engine() -> None:
    from herohammer.simulate import simulate

    path = ROOT / "examples" / "t9a_whole_turn.yaml"
    plan = [json.loads(a) for a in re.findall(r"--action '([^']+)'", path.read_text(encoding="utf-8"))]
    result = simulate(read_data(path), 3, 1, plan, "auto", str(path))
    assert result.meta["method"] == "engine"
    # the largest step is the captain's fight since the 2022 Magic phase (session 32) merged the cast's dice; since
    # reliability round 46 the estimate stops on its first path, at the shooting, before it meets the fight
    assert re.fullmatch(r"exact enumeration would take more than [\d.,e]+ rules-code runs \(budget 5,000\) "
                        r"for its steps added up \(the estimate stopped on its random path 1 of 16 through the plan, "
                        r"at step 6 \(shoot: conclave\), the paths having counted [\d.,e]+, most of them at step \d "
                        r"\(\w+: \w+\)\)", result.meta["too_large"]), result.meta["too_large"]
    assert plan[8]["do"] == "fight"  # the plan's own step 9, counted from 1 as its skipped rows count


def test_a_fight_is_estimated_with_its_loop_so_only_a_larger_excess_is_trusted() -> None:
    """A fight's steps merge (``Dice.loop``): the estimate walks each step's results merged, but not the carries that
    merge across parents; it says so, and errs large, so only a larger excess is trusted."""
    from herohammer.actions import parse_action

    state = fight_state("40k4")
    rules = get_ruleset(state.ruleset)
    action = parse_action(scenarios.FIGHT_ACTION)
    guess = estimate_runs(lambda d: summarise(state, rules.resolve(state, action, d)))
    assert guess.loops
    assert guess.far_over(guess.runs // 9) and not guess.far_over(guess.runs // 7)  # LOOP_MARGIN is 8
    plain = estimate_runs(dice_in_a_row(3))
    assert not plain.loops and plain.far_over(107) and not plain.far_over(108)  # ESTIMATE_MARGIN is 2


def test_odds_action_says_first_why_it_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """On the command line the reason follows the header at once, before the Monte Carlo runs."""
    from _cli import run

    scenario = str(ROOT / "examples" / "40k3_librarian_psychic.yaml")
    code, out, err = run(["odds", "action", scenario, "--action", '{"do": "shoot", "unit": "tactical", "target": "boyz"}',
                          "--max-branches", "10", "--runs", "50"], capsys)
    assert code == 0, err
    header, first, *rest = out.splitlines()
    assert header == 'odds of {"do": "shoot", "unit": "tactical", "target": "boyz"}'
    why = re.fullmatch(r"(exact enumeration would take about [\d,]+ rules-code runs \(budget 10\)): "
                       r"Monte Carlo with 50 runs", first)
    assert why is not None, first
    assert any(line.startswith("method: Monte Carlo (50 runs, seed 0; " + why.group(1)) for line in rest)


@pytest.mark.parametrize("policy", [False, True], ids=["its plan", "the default policy"])
def test_a_40k_turn_that_fits_the_budget_is_compiled_not_refused_by_its_estimate(policy: bool) -> None:
    """The 40k3 whole turn: its fight's unmerged paths, and its fall-back places (one branch in
    blind rounds), overstate it many times; the estimate leaves those to the budget."""
    state, driver = whole_turn("40k3_whole_turn.yaml")
    if policy:
        state, driver, _ = prepare(read_data(ROOT / "examples" / "40k3_whole_turn.yaml"), None, "policy")
    # the plan takes about 14,400 rules-code runs, the policy about 18,800: where its Boyz fall back from the volley,
    # its assault makes them test to regroup first (published.assaulted-while-falling-back), a branch more, and the
    # estimate of that assault step (no loop in it, so trusted within ESTIMATE_MARGIN) comes to about 64,000. The
    # plan's fight step is sized from 4 of its ~460 start nodes: one big fight sampled (about 1,000-1,300 runs where
    # the compile, merging across nodes, spends about 26 a node) makes it 1.3e5-2.7e5, within LOOP_MARGIN of 40,000
    # (session 24: the Marines' bolt pistols, published.assault-after-firing, moved it from 1.3e5 to 2.7e5).
    # Session 25: a firer's own move decides (published.weapon-profiles), so under the default policy the squad that
    # stood still while its Librarian moved to join it fires its boltguns beyond 12": the policy takes about 26,800 runs
    # (17,800 before), and its volley step's estimate, sized from a few sampled start nodes, comes to about 1.1e5, over
    # ESTIMATE_MARGIN (2) times 40,000; the budget is 60,000, still far under the default 200,000.
    # Judge round 44: a unit out of coherency closes up as it falls back (published.fall-back), so the Boyz broken up
    # by the volley end in more distinct places: the policy takes about 28,400 runs and its volley step's estimate
    # comes to about 1.3e5, over twice 60,000; the budget is 70,000.
    # Judge round 45: a unit no model of which can fire is offered no shot (published.shooting), so the policy picks
    # among other shots: it takes about 30,400 runs and its volley step's estimate comes to about 1.4e5, over twice
    # 70,000; the budget is 80,000.
    budget = 80_000
    compiled = fastsim.compile_plan(state, driver, budget)
    assert compiled.rules_code_runs <= budget
    assert sum(compiled.exact) == 1


@pytest.mark.parametrize("paths", [-1, MAX_ESTIMATE_PATHS + 1, 10**13])
def test_an_estimate_asked_to_follow_too_many_paths_is_refused_at_once(paths: int) -> None:
    """10**13 random paths would run for ever: the bound is told, naming the parameter (found by the junk test)."""
    with pytest.raises(OutOfRangeError, match="estimate_paths") as refused:
        enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"), estimate_paths=paths)
    assert f"{MAX_ESTIMATE_PATHS:,}" in str(refused.value)


def test_the_most_paths_allowed_are_followed() -> None:
    outcomes = enumerate_outcomes(lambda d: d.d6("a die", "core.test.characteristic"), estimate_paths=MAX_ESTIMATE_PATHS)
    assert sorted(outcomes.items()) == [(face, Fraction(1, 6)) for face in range(1, 7)]


#: A step of the default policy as a refusal names it.
POLICY_STEP = r"the default policy's \w+(: \w+)? \(side \w+, \w+ phase, turn \d\)"
#: A refusal of a plan whose estimate stopped as soon as its paths' rounds passed 16 x 2 x 5,000 (reliability round 46).
STOPPED = (r"more than [\d.,e]+ rules-code runs \(budget 5,000\) for its steps added up \(the estimate stopped on its "
           rf"random path \d+ of 16 through the plan, at {POLICY_STEP}, the paths having counted [\d.,e]+, most of "
           rf"them at {POLICY_STEP}\)")


def test_a_plan_whose_rounds_add_up_far_over_budget_goes_to_the_engine_before_any_round_naming_the_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 9th Age Wizard charging out (default policy): its charge and (since speed18) its fight each fit the budget,
    the rounds added up do not.  The estimate finds it before any round of the compile, within the budget (its
    paths enumerate the charge, about 2,200 runs, where the fight alone used to be far over at once), and names
    the step that weighs most."""
    from herohammer.simulate import simulate

    path = ROOT / "examples" / "t9a_wizard_charges_out.yaml"
    state, driver, _ = prepare(read_data(path), None, str(path))
    steps = counted_steps(monkeypatch)
    with pytest.raises(EnumerationTooLarge) as info:
        fastsim.compile_plan(state, driver, 5_000)
    assert info.value.estimate is not None and info.value.estimate > 2 * 5_000
    assert steps["n"] < 5_000, steps  # the runs played ahead and the estimate's paths: less than the budget
    result = simulate(read_data(path), 3, 1, None, "auto", str(path))
    assert result.meta["method"] == "engine"
    # since reliability round 46 the estimate stops as soon as its paths' rounds settle it (``stopped``)
    assert re.fullmatch(rf"exact enumeration would take (about [\d.,e]+ rules-code runs \(budget 5,000\) "
                        rf"(for its steps added up, most of them )?at {POLICY_STEP}|{STOPPED})",
                        result.meta["too_large"]), result.meta["too_large"]


def test_a_plan_that_fits_is_still_compiled_after_its_steps_are_estimated() -> None:
    """The same Wizard with his plan (the charge alone): every step estimated ahead and by round, then compiled."""
    from herohammer.simulate import load_plan, simulate

    path = ROOT / "examples" / "t9a_wizard_charges_out.yaml"
    plan = load_plan(ROOT / "examples" / "plans" / "wizard_charges.yaml")
    result = simulate(read_data(path), 300, 1, plan, "auto", str(path))
    assert result.meta["method"] == "compiled" and result.meta["rules_code_runs"] <= 5_000
    assert sum(p for _, _, p in result.counts if p is not None) == 1


def every_rules_code_run(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count every run of the rules code from now on, read from the code itself: each plan step taken
    (``Driver.step``) and each step of a loop walked (``Dice.loop``'s ``step``, as the enumeration walks it)."""
    from herohammer import dice

    runs = counted_steps(monkeypatch)
    runs["loop"] = 0
    walk = dice._step_outcomes

    def counted_walk(carry: Any, step: Any, *rest: Any) -> Any:
        def counted(c: Any, d: Dice) -> Any:
            runs["n"] += 1
            runs["loop"] += 1
            return step(c, d)
        return walk(carry, counted, *rest)

    monkeypatch.setattr(dice, "_step_outcomes", counted_walk)
    return runs


def chaplain_plan() -> tuple[GameState, Driver]:
    return whole_turn("40k4_chaplain_combat.yaml")  # its assault and fight, from its comment


def test_the_rules_code_runs_a_compile_reports_are_every_run_a_fight_included(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight walks its Initiative steps inside one plan step: those runs count too, on the budget and in the figure
    reported, and the plan's estimate (its rounds added up, each round's carries unmerged) errs large by no more than
    LOOP_MARGIN, the excess trusted of an estimate with loops, and small by no more than ESTIMATE_MARGIN."""
    from herohammer.dice import ESTIMATE_MARGIN, LOOP_MARGIN

    from herohammer.simulate import simulate

    state, driver = chaplain_plan()
    estimate = fastsim.estimate_plan(state, driver, 5_000)
    assert driver.plan is not None
    runs = every_rules_code_run(monkeypatch)
    path = ROOT / "examples" / "40k4_chaplain_combat.yaml"
    result = simulate(read_data(path), 300, 1, list(driver.plan), "auto", str(path))
    reported = result.meta["rules_code_runs"]
    assert result.meta["method"] == "compiled" and reported == runs["n"]
    assert runs["loop"] > runs["n"] / 2  # the loop's steps are most of them, not only the plan's steps
    assert reported / ESTIMATE_MARGIN <= estimate.runs <= reported * LOOP_MARGIN


@pytest.mark.parametrize("example", ["40k3_librarian_psychic.yaml", "40k4_chaplain_combat.yaml"])
def test_a_policy_whose_rounds_each_fit_but_add_up_past_the_budget_goes_to_the_engine_at_once(
        monkeypatch: pytest.MonkeyPatch, example: str) -> None:
    """No single step of these default policies is far over the 5,000-run budget; their rounds added up are, so the
    compile ends before its first round, naming the size and the step that weighs most, having spent well within it."""
    from herohammer.simulate import simulate

    path = ROOT / "examples" / example
    state, driver, _ = prepare(read_data(path), None, str(path))
    runs = every_rules_code_run(monkeypatch)
    with pytest.raises(EnumerationTooLarge) as info:
        fastsim.compile_plan(state, driver, 5_000)
    assert info.value.estimate is not None and info.value.estimate > 2 * 5_000
    assert runs["n"] <= 5_000 * 0.6, runs  # the estimate's paths (at most half the budget enumerated), not the budget
    result = simulate(read_data(path), 3, 1, None, "auto", str(path))
    assert result.meta["method"] == "engine"
    assert re.fullmatch(f"exact enumeration would take {STOPPED}", result.meta["too_large"]), result.meta["too_large"]


@pytest.mark.parametrize("example", ["40k4_chaplain_combat.yaml", "40k4_hive_tyrant_target.yaml"])
def test_a_plan_that_fits_compiles_the_same_with_the_steps_its_estimate_enumerated(
        monkeypatch: pytest.MonkeyPatch, example: str) -> None:
    """The rounds take the steps the estimate enumerated as they are: the same exact outcomes, byte for byte, as a
    compile that enumerates every step itself."""
    path = ROOT / "examples" / example
    plan = chaplain_plan()[1].plan if example.startswith("40k4_chaplain") else None
    state, driver, _ = prepare(read_data(path), plan, str(path))
    reused = fastsim.compile_plan(state, driver, 5_000)
    estimate = fastsim.estimate_plan

    def forgetting(*args: Any, **kwargs: Any) -> fastsim.PlanEstimate:
        found = estimate(*args, **kwargs)
        assert found.known  # it did enumerate some steps
        found.known.clear()
        return found

    monkeypatch.setattr(fastsim, "estimate_plan", forgetting)
    state, driver, _ = prepare(read_data(path), plan, str(path))
    alone = fastsim.compile_plan(state, driver, 50_000)
    assert repr(reused.outcomes) == repr(alone.outcomes) and reused.exact == alone.exact
    assert reused.rules_code_runs < alone.rules_code_runs  # nothing enumerated twice
