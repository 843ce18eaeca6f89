"""simulate --plot: one panel per outcome group, every outcome in one (none dropped), exact values marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from _cli import run
from herohammer.commands.simulate_cmd import panels, plot
from herohammer.simulate import simulate_file

ROOT = Path(__file__).resolve().parents[1]
WIZARD = ROOT / "examples" / "t9a_wizard_charges_out.yaml"
PLAN = ROOT / "examples" / "plans" / "wizard_charges.yaml"


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return simulate_file(WIZARD, 300, 7, PLAN, "auto", False)


def test_every_row_is_in_exactly_one_panel(result) -> None:  # type: ignore[no-untyped-def]
    drawn = panels(result)
    rows = result.rows()
    assert sum(len(p.labels) for p in drawn) == len(rows)
    titles = [p.title for p in drawn]
    assert len(titles) == len(set(titles))
    numeric = {r.outcome for r in rows if r.value is not None}
    assert numeric <= set(titles)  # a numeric outcome has its own panel with every value
    for p in drawn:
        assert len(p.simulated) == len(p.low) == len(p.high) == len(p.exact) == len(p.labels)
        assert all(lo <= s <= hi for s, lo, hi in zip(p.simulated, p.low, p.high))
        assert all(e is not None for e in p.exact)  # this plan's odds are known exactly: every bar is marked


def test_plot_writes_every_panel_and_says_where(tmp_path: Path, result, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "wizard.png"
    assert plot(result, out) == len(panels(result)) > 12 - 6
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cli = tmp_path / "cli.png"
    code, printed, err = run(["simulate", str(WIZARD), "--actions", str(PLAN), "--runs", "200", "--seed", "7",
                              "--plot", str(cli)], capsys)
    assert code == 0 and f"written to {cli}" in printed, err
    code, printed, err = run(["simulate", str(WIZARD), "--actions", str(PLAN), "--runs", "200", "--seed", "7",
                              "--plot", str(cli), "--json"], capsys)
    assert code == 0 and f"written to {cli}" in err and printed.lstrip().startswith("{")
