"""Sweeps: the path syntax, the grid, and identical results sequentially, in processes and on Dask."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer.cli import main
from herohammer.errors import HerohammerError
from herohammer.simulate import read_demo, simulate
from herohammer.sweep import grid, parse_path, parse_vary, run_sweep, set_path, set_profile_value, variant_seed
from _cli import result_of

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml"
LD_PATH = "sides.red[librarian].models[0].profile.Ld"


def data() -> dict[str, Any]:
    """Return the 40k3 demo with a short plan (join, then a psychic test): sweeps, not the demo, are tested."""
    scenario = read_demo("demo_40k3_librarian.yaml")[0]
    scenario["plan"] = [scenario["plan"][0], {"do": "psychic_test", "psyker": "librarian"}]
    return scenario


def test_parse_path() -> None:
    assert parse_path("sides.red[0].models[1].profile.Ld") == ["sides", "red", 0, "models", 1, "profile", "Ld"]
    assert parse_path("sides.red[librarian].at") == ["sides", "red", "[librarian]", "at"]
    with pytest.raises(HerohammerError):
        parse_path("")


def test_set_profile_characteristic_inside_the_string() -> None:
    out = set_path(data(), "sides.red[0].models[0].profile.Ld", 7)
    assert out["sides"]["red"][0]["models"][0]["profile"] == "WS5 BS4 S4 T4 W2 I4 A2 Ld7 Sv3+ Inv4+"
    assert data()["sides"]["red"][0]["models"][0]["profile"].endswith("Ld10 Sv3+ Inv4+")  # a copy was changed
    out = set_path(data(), "sides.red[librarian].models[0].profile.sv", "4+")
    assert "Sv4+" in out["sides"]["red"][0]["models"][0]["profile"]
    assert set_profile_value("WS4 T4", "Ld", 8) == "WS4 T4 Ld8"


def test_set_plain_fields_and_dict_profiles() -> None:
    out = set_path(data(), "sides.red[tactical].models[0].at", [1, 2])
    assert out["sides"]["red"][1]["models"][0]["at"] == [1, 2]
    out = set_path(data(), "turn", 3)
    assert out["turn"] == 3
    d = data()
    d["sides"]["red"][0]["models"][0]["profile"] = {"Ld": 10, "T": 4, "W": 2}
    assert set_path(d, LD_PATH, 6)["sides"]["red"][0]["models"][0]["profile"]["Ld"] == 6


@pytest.mark.parametrize("path", ["sides.red[nobody].at", "sides.red[9].at", "turn.x.y"])
def test_bad_paths_are_refused(path: str) -> None:
    with pytest.raises(HerohammerError):
        set_path(data(), path, 1)


def test_parse_vary_and_grid() -> None:
    assert parse_vary("a.b=1,2,3+,true") == ("a.b", [1, 2, "3+", True])
    g = grid([("a", [1, 2]), ("b", ["x", "y"])])
    assert g == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]
    with pytest.raises(HerohammerError):
        parse_vary("no-equals")


def test_variant_result_is_the_plain_simulation_of_that_variant() -> None:
    sweep = run_sweep(data(), [(LD_PATH, [8, 10])], 500, seed=11)
    assert [v["values"] for v in sweep["variants"]] == [{LD_PATH: 8}, {LD_PATH: 10}]
    alone = simulate(set_path(data(), LD_PATH, 8), 500, variant_seed(11, 0)).to_json()
    assert {k: v for k, v in sweep["variants"][0]["result"].items() if k != "scenario"} == \
        {k: v for k, v in alone.items() if k != "scenario"}
    assert variant_seed(11, 0) != variant_seed(11, 1)


def test_psychic_odds_fall_with_leadership() -> None:
    sweep = run_sweep(data(), [(LD_PATH, [6, 10])], 100, seed=1)
    used = [next(r["exact_float"] for r in v["result"]["outcomes"] if r["outcome"].endswith("power_used"))
            for v in sweep["variants"]]
    assert used[0] < used[1]


def test_processes_and_sequential_give_identical_results() -> None:
    varies = [(LD_PATH, [7, 9]), ("sides.red[librarian].models[0].at", [[19, 30.5], [19, 31]])]
    one = run_sweep(data(), varies, 2000, seed=5)
    pooled = run_sweep(data(), varies, 2000, seed=5, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(pooled, sort_keys=True)


def test_dask_cluster_gives_identical_results() -> None:
    distributed = pytest.importorskip("dask.distributed")
    varies = [(LD_PATH, [7, 9, 10])]
    one = run_sweep(data(), varies, 2000, seed=5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        on_dask = run_sweep(data(), varies, 2000, seed=5, scheduler=cluster.scheduler_address)
    assert json.dumps(one, sort_keys=True) == json.dumps(on_dask, sort_keys=True)


def test_cli_sweep_table_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    short = tmp_path / "demo_short.yaml"
    short.write_text(yaml.safe_dump(data()), encoding="utf-8")
    argv = ["sweep", str(short), "--vary", f"{LD_PATH}=8,10", "--runs", "1000", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "profile.Ld" in out and "simulated" in out and "(exact)" in out
    assert main([*argv, "--json", "--outcome", "librarian: joined = tactical"]) == 0
    doc = result_of(capsys.readouterr().out)
    assert doc["seed"] == 3 and len(doc["variants"]) == 2 and doc["scenario_sha256"]
    assert main([*argv[:2], "--vary", "sides.red[ghost].at=1", "--runs", "10"]) == 2
    assert "ghost" in capsys.readouterr().err


def test_a_value_the_schema_refuses_is_named_with_its_vary_before_any_run() -> None:
    """Every --vary value is checked before the runs, and the refusal names the value: was "variant 1: ...
    profile: got 'Ldx'" once variant 0 had run, and a later value (turn=9) only when its variant came up."""
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    ran: list[int] = []
    with pytest.raises(HerohammerError) as bad:
        run_sweep(data, [(LD_PATH, [8, "x"])], runs=10, seed=1, advance=ran.append)
    assert f"variant 1 (--vary {LD_PATH}=x): " in str(bad.value) and ran == []
    with pytest.raises(HerohammerError) as late:
        run_sweep(data, [(LD_PATH, [8, 9, 10]), ("turn", [1, 9])], runs=10, seed=1, advance=ran.append)
    assert f"variant 1 (--vary {LD_PATH}=8, turn=9): turn: expected at most 7" in str(late.value) and ran == []



def test_the_cli_refuses_a_later_value_before_its_header(capsys: pytest.CaptureFixture[str]) -> None:
    """The header (and the first variant's check) came first; a later value was refused after it."""
    code = main(["sweep", str(DEMO), "--vary", f"{LD_PATH}=8,9", "--vary", "turn=1,9", "--runs", "10", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and f"variant 1 (--vary {LD_PATH}=8, turn=9): turn:" in err, (out, err)


def test_a_dask_sweep_moves_its_progress_as_each_variant_finishes() -> None:
    """On a cluster the bar moved once, at the end, by every variant: a long sweep showed no progress."""
    distributed = pytest.importorskip("dask.distributed")
    steps: list[int] = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        run_sweep(data(), [(LD_PATH, [7, 9, 10])], 50, seed=5, scheduler=cluster.scheduler_address,
                  advance=steps.append)
    assert steps == [1, 1, 1]


def test_workers_and_a_scheduler_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Both given: the cluster ran the sweep and --workers was dropped without a word."""
    with pytest.raises(HerohammerError, match="not both"):
        run_sweep(data(), [(LD_PATH, [7, 9])], 10, seed=5, workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(SystemExit):
        main(["sweep", str(DEMO), "--vary", f"{LD_PATH}=7,9", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"])
    assert "not allowed with argument --workers" in capsys.readouterr().err


def test_an_outcome_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Was two identical columns."""
    code = main(["sweep", str(DEMO), "--vary", f"{LD_PATH}=8,9", "--runs", "10", "--seed", "1",
                 "--outcome", "librarian: joined = tactical", "--outcome", "librarian: joined = tactical"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "--outcome 'librarian: joined = tactical' is given twice" in err, (out, err)
