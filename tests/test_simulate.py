"""The simulator: reproducible seeds, exact columns from the rules code, engine/compiled agreement, the CLI."""

from __future__ import annotations

import copy
import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from _cli import result_of, run
from herohammer import __version__, fastsim, odds
from herohammer.actions import Charge
from herohammer.dice import SeededDice
from herohammer.scenario import read_data, state_from_data
from herohammer.simulate import (
    Row,
    SimulationResult,
    canonical_hash,
    demo_files,
    engine_seeds,
    outcome_of,
    prepare,
    read_demo,
    run_engine_once,
    simulate,
    wilson,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_40K4 = ROOT / "examples" / "40k4_librarian_joins_tactical.yaml"


def demo(name: str) -> dict[str, Any]:
    return read_demo(name)[0]


def psyker_scenario(ld: int = 9, toughness: int = 4, wounds: int = 1, ruleset: str = "40k3") -> dict[str, Any]:
    return {
        "ruleset": ruleset, "active": "red",
        "sides": {
            "red": [{"id": "psyker", "character": "independent", "rules": ["psyker"], "models": [
                {"name": "Psyker", "profile": f"WS4 BS4 S4 T{toughness} W{wounds} I4 A2 Ld{ld} Sv3+", "at": [10, 10]}]}],
            "blue": [{"id": "foe", "models": [{"name": "Foe", "profile": "WS3 BS3 S3 T3 W1 I3 A1 Ld7", "at": [50, 40]}]}],
        },
        "plan": [{"do": "psychic_test", "psyker": "psyker"}],
    }


def by_label(result: SimulationResult) -> dict[str, Row]:
    return {r.label: r for r in result.rows()}


# == exact columns come from the rules code ======================================================
@pytest.mark.parametrize("ld,toughness,wounds", [(9, 4, 1), (10, 3, 1), (7, 4, 2), (2, 6, 1)])
def test_exact_column_equals_psychic_odds(ld: int, toughness: int, wounds: int) -> None:
    result = simulate(psyker_scenario(ld, toughness, wounds), 2000, seed=5)
    expected = odds.psychic_odds(ld, toughness, wounds, "40k3")
    marg = result.marginals()
    assert marg["event: psychic_test.power_used"].get(1, (0, Fraction(0)))[1] == expected["power_used"]
    assert marg["event: psychic_test.perils"].get(1, (0, Fraction(0)))[1] == expected["perils"]
    assert marg["psyker: destroyed"].get(True, (0, Fraction(0)))[1] == expected["psyker_slain"]
    assert result.meta["method"] == "compiled"


def test_exact_column_equals_the_t9a_charge_odds() -> None:
    from herohammer.rulesets.t9a_turn import charge_out_odds

    data = demo("demo_t9a_wizard_charges_out.yaml")
    result = simulate(data, 1000, seed=2)
    expected = charge_out_odds(state_from_data(data), Charge(do="charge", unit="wizard", target="orc_archers"))
    marg = result.marginals()
    for name, p in expected.items():
        assert marg[f"event: charge.outcome: {name}"][1][1] == p


def test_demo_join_through_woods_matches_the_rulings_chance() -> None:
    data = demo("demo_40k3_librarian.yaml")
    result = simulate(data, 500, seed=1)
    rows = by_label(result)
    # a 6 on the highest of 2D6, each die short of 6 re-rolled once (40k3.ic.move-through-cover)
    join = 1 - (Fraction(5, 6) ** 2) ** 2
    assert rows["librarian: joined = tactical"].exact == join
    assert rows["librarian: joined = -"].exact == 1 - join


def test_exact_probabilities_sum_to_one_and_counts_to_runs() -> None:
    result = simulate(demo("demo_t9a_wizard_charges_out.yaml"), 12345, seed=9)
    assert sum(c for _, c, _ in result.counts) == 12345
    assert sum((p for _, _, p in result.counts if p is not None), Fraction(0)) == 1


# == the two ways of running agree ===========================================================
def test_engine_and_compiled_agree_within_their_intervals() -> None:
    data = demo("demo_40k3_librarian.yaml")
    exact = by_label(simulate(data, 10, seed=1))
    engine = by_label(simulate(data, 3000, seed=4, method="engine"))
    assert set(engine) <= set(exact)
    for label, row in engine.items():
        p = float(exact[label].exact or 0)
        sigma = max((p * (1 - p) / row.runs) ** 0.5, 1e-3)
        assert abs(row.probability - p) < 5 * sigma, label


def test_engine_run_i_replays_from_its_own_seed() -> None:
    data = demo("demo_40k3_librarian.yaml")
    state, driver, _ = prepare(data)
    seeds = engine_seeds(77, 50)
    first = [outcome_of(state, run_engine_once(state, driver, SeededDice(int(s)))) for s in seeds]
    again = outcome_of(state, run_engine_once(state, driver, SeededDice(int(seeds[31]))))
    assert again == first[31]
    assert len(set(first)) > 1


def test_sampling_does_not_depend_on_the_chunk_size(monkeypatch: pytest.MonkeyPatch) -> None:
    probs = np.array([0.1, 0.25, 0.65])
    whole = fastsim.sample_counts(probs, 10_000, seed=3)
    monkeypatch.setattr(fastsim, "CHUNK", 999)
    assert (fastsim.sample_counts(probs, 10_000, seed=3) == whole).all()
    assert whole.sum() == 10_000


# == reproducibility ==================================================================
def test_same_seed_same_result_and_the_identity_is_recorded() -> None:
    data = demo("demo_t9a_wizard_charges_out.yaml")
    a = simulate(data, 5000, seed=123).to_json()
    b = simulate(copy.deepcopy(data), 5000, seed=123).to_json()
    assert a == b
    assert a["seed"] == 123
    assert a["scenario_sha256"] == canonical_hash(data)
    assert a["herohammer_version"] == __version__
    c = simulate(data, 5000, seed=124).to_json()
    assert c["outcomes"] != a["outcomes"]


def test_engine_same_seed_same_result() -> None:
    data = demo("demo_40k3_librarian.yaml")
    assert simulate(data, 300, seed=8, method="engine").to_json() == simulate(data, 300, seed=8, method="engine").to_json()


def test_cli_rerun_from_recorded_seed_is_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", str(EXAMPLE_40K4), "--runs", "2000", "--json"], capsys)
    assert code == 0, err
    first = result_of(out)
    assert isinstance(first["seed"], int)
    assert first["scenario_sha256"] == canonical_hash(read_data(EXAMPLE_40K4))
    code, out, _ = run(["simulate", str(EXAMPLE_40K4), "--runs", "2000", "--json", "--seed", str(first["seed"])], capsys)
    assert result_of(out) == first


# == plans and policy ======================================================================
def test_default_policy_joins_the_librarian_every_time() -> None:
    result = simulate(read_data(EXAMPLE_40K4), 100, seed=1)
    assert result.meta["policy"] == "simple"
    assert by_label(result)["librarian: joined = tactical"].exact == 1


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.stem)
def test_the_default_policy_plays_every_example_through(path: Path) -> None:
    """The policy takes the actions the rules require first (a fleeing unit's Rally test), so no run ends refused."""
    data = {k: v for k, v in read_data(path).items() if k != "plan"}
    result = simulate(data, 20, seed=1, method="engine")
    assert result.meta["policy"] == "simple" and sum(n for _, n, _ in result.counts) == 20


def test_the_default_policy_rallies_a_fleeing_unit_before_it_ends_the_phase() -> None:
    rows = by_label(simulate(read_data(ROOT / "examples" / "t9a_wizard_charges_out.yaml"), 200, seed=1,
                             method="engine"))
    assert rows["rally.outcome: rallied"].count + rows["rally.outcome: fled"].count > 0


@pytest.mark.rule("40k3.psyker.test")
def test_a_step_illegal_in_some_runs_is_skipped_and_counted() -> None:
    data = demo("demo_40k3_librarian.yaml")
    test = {"do": "psychic_test", "psyker": "librarian"}
    data["plan"] = [data["plan"][0], test, test]
    rows = by_label(simulate(data, 100, seed=1))
    # a second test is refused whether the first gave the power (11/12 at Ld 10) or failed: "A failed test: no power
    # this turn" (40k3.psyker.test), as a game refuses a second power
    assert rows["skipped: step 3 (psychic_test)"].exact == 1
    assert rows["psychic_test.power_used"].exact == odds.psychic_odds(10, 4, 2)["power_used"]
    assert rows["librarian: psychic_test_failed"].exact == 1 - odds.psychic_odds(10, 4, 2)["power_used"]


def test_actions_file_replaces_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("- {do: psychic_test, psyker: librarian}\n", encoding="utf-8")
    code, out, err = run(["simulate", str(EXAMPLE_40K4), "--actions", str(plan), "--runs", "100", "--seed", "1",
                          "--json"], capsys)
    assert code == 0, err
    data = result_of(out)
    assert data["policy"] == "plan" and data["plan_sha256"]
    assert not any(r["outcome"].endswith("joined") for r in data["outcomes"])
    code, out, err = run(["simulate", str(EXAMPLE_40K4), "--actions", str(plan), "--runs", "100", "--seed", "1"],
                         capsys)  # the header names the plan played: not "its plan", the scenario's own
    header = "".join(out.splitlines()[:2]).replace(" ", "")  # rich may wrap the title line
    assert code == 0 and f"100runsoftheplanin{plan}".replace(" ", "") in header, out


@pytest.mark.parametrize("plan,message", [
    ("- {do: fly, unit: x}\n", "expected do:"),
    ("- {do: psychic_test}\n", "psychic_test takes exactly psyker"),
    ("{not: a list}\n", "expected a list of action objects"),
])
def test_bad_plans_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], plan: str,
                                       message: str) -> None:
    path = tmp_path / "plan.yaml"
    path.write_text(plan, encoding="utf-8")
    code, out, err = run(["simulate", str(EXAMPLE_40K4), "--actions", str(path), "--runs", "10"], capsys)
    assert code == 2
    assert message in err and "Traceback" not in err


# == output shapes =========================================================================
def test_csv_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["simulate", str(ROOT / "src/herohammer/examples/demo_40k3_librarian.yaml"), "--runs", "1000",
                        "--seed", "1", "--csv"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["outcome", "value", "count", "runs", "probability", "ci95_low", "ci95_high", "exact",
                             "exact_float", "seed", "scenario_sha256", "plan_sha256", "herohammer_version"]
    joined = next(r for r in rows if r["outcome"] == "librarian: joined" and r["value"] == "tactical")
    assert joined["exact"] == str(1 - (Fraction(5, 6) ** 2) ** 2) and joined["runs"] == "1000"
    assert float(joined["ci95_low"]) <= float(joined["probability"]) <= float(joined["ci95_high"])


def test_json_rows_are_consistent() -> None:
    data = simulate(demo("demo_40k3_librarian.yaml"), 4000, seed=1).to_json()
    for row in data["outcomes"]:
        assert row["probability"] == row["count"] / 4000
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["probability"] <= hi <= 1
        assert float(Fraction(row["exact"])) == pytest.approx(row["exact_float"])
    assert "librarian: wounds lost" in data["means"]


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "plot.png"
    code, _, err = run(["simulate", str(EXAMPLE_40K4), "--runs", "100", "--seed", "1", "--plot", str(out)], capsys)
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_scenario_runs_the_bundled_demos(capsys: pytest.CaptureFixture[str]) -> None:
    names = demo_files()
    assert any("40k3" in n for n in names) and any("t9a" in n for n in names)
    code, out, err = run(["simulate", "--runs", "2000"], capsys)
    assert code == 0, err
    for n in names:
        assert n in out
    assert "exact" in out and "seed 1" in out


def test_a_plan_without_a_scenario_is_refused_not_dropped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --actions PLAN`` with no scenario ran the demos and dropped the plan without a word."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("- {do: psychic_test, psyker: librarian}\n", encoding="utf-8")
    code, out, err = run(["simulate", "--actions", str(plan), "--runs", "10"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"--actions {plan}: a plan needs a scenario" in err


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_a_step_every_run_skips_is_said_with_the_ruling_that_refused_it(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A later plan step illegal in every run was a bare 'skipped: step 2 (charge) 100%' row."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("- {do: end_phase}\n- {do: charge, unit: wizard, target: orc_archers}\n", encoding="utf-8")
    scenario = Path(__file__).resolve().parents[1] / "examples" / "t9a_wizard_charges_out.yaml"
    code, out, err = run(["simulate", str(scenario), "--actions", str(plan), "--runs", "50", "--seed", "1"], capsys)
    assert code == 0, err
    assert ("note: step 2 (charge) was refused in every run, e.g.: 'charge' is not an action of the movement phase"
            in out) and out.rstrip().endswith("published.turn-sequence]"), out


def test_a_battle_that_is_over_is_refused_not_simulated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was a table reading "(nothing changed in any run)", the reason unsaid."""
    import yaml

    data = yaml.safe_load((ROOT / "examples" / "40k3_librarian_psychic.yaml").read_text(encoding="utf-8"))
    data.update(turn=7, phase="assault", active="orks")
    path = tmp_path / "over.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    code, out, err = run(["simulate", str(path), "--runs", "10", "--seed", "1"], capsys)
    assert code == 2 and out == "" and err.startswith("herohammer: error: nothing to simulate: the battle is over"), err
    assert err.rstrip().endswith("[published.game-length]")


def test_a_driver_keeps_a_bounded_number_of_event_labels_and_counts_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Driver._labels`` keeps each event's counted labels by the event object, at most ``LABELS_KEPT``: an engine's
    runs (all new events) count their outcomes exactly as with labels worked out afresh each time."""
    from herohammer import simulate as simulate_module

    state, driver, _ = prepare(read_data(ROOT / "examples" / "40k3_whole_turn.yaml"))
    kept = [outcome_of(state, run_engine_once(state, driver, SeededDice(seed))) for seed in range(12)]
    assert 0 < len(driver._labels) <= simulate_module.LABELS_KEPT
    monkeypatch.setattr(simulate_module, "LABELS_KEPT", 0)  # every miss clears the rest: labels worked out afresh
    _, afresh, _ = prepare(read_data(ROOT / "examples" / "40k3_whole_turn.yaml"))
    again = [outcome_of(state, run_engine_once(state, afresh, SeededDice(seed))) for seed in range(12)]
    assert len(afresh._labels) <= 1 and again == kept
    assert any(label.startswith("event: ") for outcome in kept for label, _ in outcome)
