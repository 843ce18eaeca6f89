"""Round 37, as a designer uses ``simulate`` and ``sweep``: exact columns against brute force, seeds that
reproduce every output (the CSV too), sweeps that agree with single runs, and bad input as one line."""

from __future__ import annotations

import copy
import csv
import io
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import result_of, run
from herohammer.simulate import simulate
from herohammer.sweep import variant_seed

SIXTH = Fraction(1, 6)
ROW = "WS4 BS4 S4 T4 W1 I4 A1 Ld{ld} Sv3+"
TARGET = "WS3 BS3 S3 T4 W1 I3 A1 Ld7 Sv5+"


def leadership(ld: int, ruleset: str = "40k4") -> dict[str, Any]:
    """One model taking a Leadership test on ``ld``."""
    return {"ruleset": ruleset, "phase": "movement", "active": "red",
            "sides": {"red": [{"id": "squad", "models": [{"name": "S1", "profile": ROW.format(ld=ld), "at": [10, 10]}]}],
                      "blue": [{"id": "far", "models": [{"name": "F1", "profile": ROW.format(ld=7), "at": [60, 40]}]}]},
            "plan": [{"do": "leadership_test", "unit": "squad"}]}


def volley(target_id: str = "targets") -> dict[str, Any]:
    """Two BS4 gunners, one S4 AP- shot each, at five T4 Sv5+ models 16" away (hit 3+, wound 4+, save 5+)."""
    gunners = [{"name": f"Gunner {i}", "profile": ROW.format(ld=8), "base": 25, "at": [30 + 2 * i, 10],
                "weapons": ["carbine"]} for i in (1, 2)]
    targets = [{"name": f"T{i}", "profile": TARGET, "base": 25, "at": [26 + 2 * i, 26]} for i in range(1, 6)]
    return {"ruleset": "40k3", "phase": "shooting", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "gunners", "models": gunners}], "blue": [{"id": target_id, "models": targets}]},
            "weapons": [{"name": "carbine", "type": "assault", "shots": 1, "range": 24, "strength": 4, "ap": "-"}],
            "plan": [{"do": "shoot", "unit": "gunners", "target": target_id}]}


def brute_force_leadership(ld: int) -> Fraction:
    """Every face of 2D6, counted: passed on a total of Ld or less."""
    return sum((SIXTH ** 2 for a, b in itertools.product(range(1, 7), repeat=2) if a + b <= ld), Fraction(0))


def brute_force_volley() -> dict[int, Fraction]:
    """Every face of each shot's to-hit, to-wound and save dice, counted: the models lost (one wound each)."""
    lost: Counter[int] = Counter()
    for faces in itertools.product(range(1, 7), repeat=6):
        unsaved = sum(1 for hit, wound, save in (faces[:3], faces[3:]) if hit >= 3 and wound >= 4 and save < 5)
        lost[unsaved] += 1
    return {k: Fraction(n, 6 ** 6) for k, n in lost.items()}


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


# == exactness: the exact column is the brute-force answer ================================================
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("ld", [2, 7, 10])
def test_a_leadership_tests_exact_column_is_the_brute_force_count_of_2d6(ruleset: str, ld: int) -> None:
    result = simulate(leadership(ld, ruleset), 500, seed=1)
    assert result.meta["method"] == "compiled"
    passed = result.marginals()["event: leadership_test.passed"]
    assert passed.get(1, (0, Fraction(0)))[1] == brute_force_leadership(ld)


def test_a_two_model_volleys_exact_column_is_the_brute_force_count_of_every_die(tmp_path: Path,
                                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", str(write(tmp_path, "volley.yaml", volley())), "--runs", "1000", "--seed", "4",
                          "--json"], capsys)
    assert code == 0, err
    rows = {r["value"]: Fraction(r["exact"]) for r in result_of(out)["outcomes"] if r["outcome"] == "targets: models lost"}
    assert rows == brute_force_volley()


# == reproducibility ======================================================================================
def test_the_same_seed_gives_the_same_counts_on_any_number_of_workers() -> None:
    one = simulate(volley(), 3000, seed=11).counts
    assert simulate(volley(), 3000, seed=11, workers=1).counts == one
    assert simulate(volley(), 3000, seed=11, workers=2).counts == one
    engine = simulate(volley(), 300, seed=11, method="engine").counts
    assert simulate(volley(), 300, seed=11, method="engine", workers=2).counts == engine


def test_a_fresh_seed_is_printed_and_replays_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "volley.yaml", volley()))
    code, out, _ = run(["simulate", path, "--runs", "500"], capsys)
    assert code == 0
    seed = out.split("seed ", 1)[1].split()[0].rstrip(",")
    code, again, _ = run(["simulate", path, "--runs", "500", "--seed", seed], capsys)
    table = [line for line in out.splitlines() if "%" in line]
    assert table and table == [line for line in again.splitlines() if "%" in line]


IDENTITY = ["seed", "scenario_sha256", "plan_sha256", "herohammer_version"]


def test_simulate_csv_carries_the_seed_the_scenario_hash_and_the_version(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "volley.yaml", volley()))
    code, text, _ = run(["simulate", path, "--runs", "500", "--seed", "9", "--json"], capsys)
    meta = result_of(text)
    code, out, err = run(["simulate", path, "--runs", "500", "--seed", "9", "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[-4:] == IDENTITY
    assert {tuple(r[k] for k in IDENTITY) for r in rows} == {
        ("9", meta["scenario_sha256"], meta["plan_sha256"], meta["herohammer_version"])}


def test_a_csv_without_seed_records_the_fresh_one_and_it_replays(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "volley.yaml", volley()))
    code, out, _ = run(["simulate", path, "--runs", "500", "--csv"], capsys)
    assert code == 0
    seed = next(csv.DictReader(io.StringIO(out)))["seed"]
    code, again, _ = run(["simulate", path, "--runs", "500", "--seed", seed, "--csv"], capsys)
    assert again == out


def test_csv_quotes_a_label_holding_commas_and_quotes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = 'big, "bad" boyz'
    code, out, err = run(["simulate", str(write(tmp_path, "odd.yaml", volley(odd))), "--runs", "200", "--seed", "1",
                          "--csv"], capsys)
    assert code == 0, err
    header, *rows = list(csv.reader(io.StringIO(out)))
    assert {len(r) for r in rows} == {len(header)}
    assert f"{odd}: models lost" in {r[0] for r in rows}


# == labels: an event's row is told apart from a unit's ==================================================
def test_the_table_heads_the_event_rows_so_saves_is_not_read_as_a_units_outcome(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["simulate", str(write(tmp_path, "volley.yaml", volley())), "--runs", "500", "--seed", "1"],
                       capsys)
    assert code == 0
    lines = out.splitlines()
    unit_row = next(i for i, line in enumerate(lines) if "targets: falling_back" in line)
    event_row = next(i for i, line in enumerate(lines) if line.startswith("│ saves "))
    heading = next(i for i, line in enumerate(lines) if "events logged in the run" in line)
    assert unit_row < heading < event_row


# == sweeps ===============================================================================================
LD = "sides.red[squad].models[0].profile.Ld"


def test_a_sweeps_rows_are_single_simulate_runs_at_the_variants_seed(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "ld.yaml", leadership(7)))
    code, out, err = run(["sweep", path, "--vary", f"{LD}=5,9", "--runs", "700", "--seed", "21", "--csv"], capsys)
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    for i, ld in enumerate((5, 9)):
        mine = [r for r in rows if r[LD] == str(ld)]
        assert {r["seed"] for r in mine} == {str(variant_seed(21, i))}
        single = simulate(leadership(ld), 700, seed=variant_seed(21, i)).to_json()
        assert {(r["outcome"], r["count"]) for r in mine} == {(r["outcome"], str(r["count"])) for r in single["outcomes"]}
        assert {r["scenario_sha256"] for r in mine} == {single["scenario_sha256"]}


def test_a_sweep_accepts_a_dash_and_a_star_for_a_characteristic(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "volley.yaml", volley()))
    code, out, err = run(["sweep", path, "--vary", "sides.red[gunners].models[0].profile.WS=-,*,4", "--runs", "100",
                          "--seed", "1", "--json"], capsys)
    assert code == 0, err
    assert [v["values"]["sides.red[gunners].models[0].profile.WS"] for v in result_of(out)["variants"]] == ["-", "*", 4]


def test_a_sweep_takes_a_range_of_whole_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(write(tmp_path, "ld.yaml", leadership(7)))
    code, out, err = run(["sweep", path, "--vary", f"{LD}=6..9", "--runs", "100", "--seed", "1", "--json"], capsys)
    assert code == 0, err
    assert result_of(out)["vary"][LD] == [6, 7, 8, 9]


@pytest.mark.parametrize("values,words", [
    ("9..6", ["9..6", "empty"]),
    ("", ["no values"]),
    ("8..11", ["Ld", "11", "0..10"]),
    ("-1", ["Ld", "-1", "0..10"]),
    ("[1,2]", ["Ld", "one value"]),
    ("null", ["Ld", "one value"]),
])
def test_a_sweep_value_out_of_range_is_one_line_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 values: str, words: list[str]) -> None:
    path = str(write(tmp_path, "ld.yaml", leadership(7)))
    code, out, err = run(["sweep", path, "--vary", f"{LD}={values}", "--runs", "100", "--seed", "1"], capsys)
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and LD in err, err
    for word in words:
        assert word in err, err


# == outputs ==============================================================================================
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_plot_writes_a_png_and_a_missing_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            command: str) -> None:
    path = str(write(tmp_path, "ld.yaml", leadership(7)))
    extra = ["--vary", f"{LD}=6,8"] if command == "sweep" else []
    png = tmp_path / "out.png"
    code, _, err = run([command, path, *extra, "--runs", "200", "--seed", "1", "--plot", str(png), "--quiet"], capsys)
    assert code == 0, err
    assert png.stat().st_size > 1000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    missing = tmp_path / "nowhere" / "out.png"
    code, out, err = run([command, path, *extra, "--runs", "200", "--seed", "1", "--plot", str(missing)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--plot" in err and "does not exist" in err and "Traceback" not in err


# == bad input ============================================================================================
@pytest.mark.parametrize("command", ["simulate", "sweep"])
@pytest.mark.parametrize("option,value", [("--runs", "0"), ("--runs", "-3"), ("--runs", "1e12"), ("--workers", "0"),
                                          ("--method", "fastest")])
def test_a_bad_option_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                            option: str, value: str) -> None:
    path = str(write(tmp_path, "ld.yaml", leadership(7)))
    extra = ["--vary", f"{LD}=6,8"] if command == "sweep" else []
    code, out, err = run([command, path, *extra, option, value], capsys)
    assert code == 2 and out == "" and "Traceback" not in err
    assert option in err.strip().splitlines()[-1]


def test_a_plan_step_of_no_known_kind_names_the_file_the_step_and_what_was_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = write(tmp_path, "plan.yaml", [{"do": "shoot", "unit": "gunners", "target": "targets"},
                                         {"do": "fly", "unit": "gunners"}])
    code, out, err = run(["simulate", str(write(tmp_path, "volley.yaml", volley())), "--actions", str(plan),
                          "--runs", "100"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(plan) in err and "step 2" in err and "'fly'" in err
    assert "leadership_test" in err and "psychic_test" in err  # a plan's probes are kinds it takes too
