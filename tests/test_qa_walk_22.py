"""A fresh-eyes walk (session 22): what a player, a judge, a bot's developer and a designer meet on a fresh machine.

- ``sweep`` and ``odds action`` show a progress bar on a terminal, as ``simulate`` does; only ``simulate`` took
  ``--quiet`` to hide it (``sweep --quiet`` and ``odds action --quiet`` were refused as unrecognized arguments).
- A sweep's bar counts variants: on 40k4_chaplain_combat.yaml each took ~20 s and the bar stood at ``0/2 -:--:--``
  all that while; it now shows the time so far as well.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from _cli import run
from test_qa_progress import _on_a_terminal

ROOT = Path(__file__).resolve().parents[1]
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
VOLLEY = '{"do": "shoot", "unit": "tactical", "target": "boyz"}'
SWEEP = ["sweep", str(PSYCHIC), "--vary", "turn=1,2", "--runs", "200", "--seed", "1"]
ODDS = ["odds", "action", str(PSYCHIC), "--action", VOLLEY, "--max-branches", "1", "--runs", "300", "--seed", "3"]


@pytest.mark.parametrize("argv, bar", [(SWEEP, "variants"), (ODDS, "Monte Carlo runs")])
def test_quiet_hides_the_bar_of_sweep_and_odds_action_on_a_terminal(argv: list[str], bar: str) -> None:
    code, out, frames = _on_a_terminal(argv)
    assert code == 0, frames
    assert any(f.startswith(bar) for f in frames), frames  # the bar, without --quiet
    code, quiet_out, frames = _on_a_terminal([*argv, "--quiet"])
    assert code == 0, frames
    assert not any(f.startswith(bar) for f in frames), frames
    assert quiet_out == out  # the same answer, the header first


def test_quiet_is_in_the_help_of_simulate_sweep_and_odds_action(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["simulate"], ["sweep"], ["odds", "action"]):
        code, out, _ = run([*argv, "--help"], capsys)
        assert code == 0 and "--quiet" in out, argv


def test_a_sweeps_bar_shows_the_time_so_far_while_a_variant_runs() -> None:
    code, _, frames = _on_a_terminal(SWEEP)
    assert code == 0, frames
    bars = [f for f in frames if f.startswith("variants")]
    # the count, the time elapsed, the time left (unknown before the first variant ends)
    assert bars and all(re.search(r" \d/2 \d:\d\d:\d\d (\d:\d\d:\d\d|-:--:--)", f) for f in bars), bars
