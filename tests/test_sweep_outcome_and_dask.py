"""``sweep`` from the command line: an --outcome typo said before any variant runs; a local Dask cluster's table.

docs/simulate.md's how-to points ``sweep --scheduler`` at a cluster on this machine; the table
it prints must be the process pool's, cell for cell.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import herohammer.sweep
from _cli import run, result_of
from herohammer.simulate import read_demo

LD_PATH = "sides.red[librarian].models[0].profile.Ld"


@pytest.fixture()
def short(tmp_path: Path) -> Path:
    """Write the 40k3 demo with a short plan (join, then a psychic test)."""
    scenario = read_demo("demo_40k3_librarian.yaml")[0]
    scenario["plan"] = [scenario["plan"][0], {"do": "psychic_test", "psyker": "librarian"}]
    path = tmp_path / "short.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    return path


@pytest.fixture()
def no_variant_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make running the sweep's variants fail the test: the check must come first."""
    def ran(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the sweep's variants ran before --outcome was checked")
    monkeypatch.setattr(herohammer.sweep, "_execute", ran)


def _sweep(path: Path, *more: str) -> list[str]:
    return ["sweep", str(path), "--vary", f"{LD_PATH}=8,10", "--runs", "300", "--seed", "3", *more]


@pytest.mark.parametrize("label, words", [
    ("librarian: modles lost = 1", "librarian has no outcome 'modles lost = 1'"),
    ("librarian: wounded", "librarian has no outcome 'wounded'"),
])
def test_a_unit_outcome_typo_is_found_without_playing(short: Path, capsys: pytest.CaptureFixture[str],
                                                      no_variant_runs: None, label: str, words: str) -> None:
    code, out, err = run(_sweep(short, "--outcome", label), capsys)
    assert code == 2 and err.count("\n") == 1 and words in err and "models lost = N" in err, err
    assert "trial" not in err and "Traceback" not in err


def test_a_unit_outcome_needs_no_trial(short: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(_sweep(short, "--outcome", "librarian: joined = tactical", "--outcome",
                                "warriors: falling_back"), capsys)
    assert code == 0 and err == "" and "librarian: joined = tactical" in out and "warriors: falling_back" in out


def test_an_event_outcome_typo_is_found_by_a_trial_before_the_sweep(
        short: Path, capsys: pytest.CaptureFixture[str], no_variant_runs: None) -> None:
    code, out, err = run(_sweep(short, "--outcome", "psychic_tset.passed"), capsys)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2 and "Traceback" not in err, err
    assert lines[0] == ("--outcome: events are known only from play: checking against a trial of "
                        f"{herohammer.sweep.TRIAL_RUNS} runs of the first variant")
    assert lines[1].startswith("herohammer: error: --outcome 'psychic_tset.passed': no such outcome: ")
    assert "no event of kind 'psychic_tset'" in lines[1] and "psychic_test" in lines[1]


def test_an_event_outcome_seen_in_the_trial_is_tabulated(short: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(_sweep(short, "--outcome", "psychic_test.passed", "--outcome", "psychic_test.perils"), capsys)
    assert code == 0, err
    assert "psychic_test.passed" in out and "psychic_test.perils" in out and "trial of 200 runs" in err


def test_a_local_dask_cluster_prints_the_process_pool_s_table(short: Path, capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("dask.distributed")
    code, pooled, err = run(_sweep(short, "--workers", "2"), capsys)
    assert code == 0, err
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        code, on_dask, err = run(_sweep(short, "--scheduler", cluster.scheduler_address), capsys)
        assert code == 0, err
        code, dask_json, err = run([*_sweep(short, "--scheduler", cluster.scheduler_address), "--json"], capsys)
        assert code == 0, err
    assert f"(Dask at {cluster.scheduler_address})" in on_dask and "(2 processes)" in pooled
    table = lambda text: text[text.index("┏"):]  # noqa: E731  (the header names where it ran)
    assert table(on_dask) == table(pooled)
    code, pooled_json, err = run([*_sweep(short, "--workers", "2"), "--json"], capsys)
    assert result_of(dask_json) == result_of(pooled_json)
