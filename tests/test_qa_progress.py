"""A long question is never a silent wait (issue 11, item 4), as a player meets it on a terminal.

Found by using the tool: ``odds action`` on a hundred Boyz shooting a hundred Marines enumerated
for minutes with nothing on the screen but a bar labelled "Monte Carlo runs, if the enumeration
is too large" stuck at 0, and printed its header only with the answer; on an 80-column terminal
the bars' labels hid their own counts ("0/100…").  Now the header comes first, the enumeration
counts its rules-code runs, and the count is always shown.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path
from typing import Any

import pytest

from herohammer import action_odds as odds_module
from herohammer.action_odds import action_odds
from herohammer.commands import odds_action_cmd
from herohammer.rulesets import get_ruleset
from herohammer.scenario import load_scenario

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
VOLLEY = '{"do": "shoot", "unit": "tactical", "target": "boyz"}'
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _on_a_terminal(argv: list[str], columns: int = 80, module: bool = True) -> tuple[int, str, list[str]]:
    """Run ``herohammer argv`` with stderr on a pseudo-terminal ``columns`` wide; return the exit status,
    stdout, and every frame the terminal was sent (escape codes removed)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = dict(os.environ, COLUMNS=str(columns), TERM="xterm")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, *(["-m", "herohammer"] if module else []), *argv], stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    code = proc.wait(timeout=120)
    frames = [ANSI.sub("", f) for f in re.split(r"[\r\n]", seen.decode(errors="replace"))]
    return code, out, [f for f in frames if f.strip()]


def test_the_header_is_printed_before_the_enumeration_starts(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    printed_before: list[str] = []

    def watched(*args: Any, **kwargs: Any) -> Any:
        out = capsys.readouterr().out
        printed_before.append(out)
        print(out, end="")  # put it back for the answer below
        return action_odds(*args, **kwargs)

    monkeypatch.setattr(odds_action_cmd, "action_odds", watched)
    code, out, err = run(["odds", "action", str(PSYCHIC), "--action", VOLLEY], capsys)
    assert code == 0, err
    assert printed_before == ['odds of {"do": "shoot", "unit": "tactical", "target": "boyz"}\n']
    assert out.startswith(printed_before[0]) and "method: exact" in out


def test_an_illegal_action_prints_no_header_only_its_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "action", str(PSYCHIC), "--action", '{"do": "shoot", "unit": "boyz", '
                                                                     '"target": "tactical"}'], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "published.turn-sequence" in err


def test_walked_hears_the_count_of_rules_code_runs_as_the_enumeration_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    state = load_scenario(PSYCHIC)
    kind = type(get_ruleset(state.ruleset))
    resolved = 0
    real = kind.resolve

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal resolved
        resolved += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(kind, "resolve", counted)
    heard: list[int] = []
    answer = action_odds(state, VOLLEY, walked=heard.append)
    assert answer.exact
    assert resolved > odds_module.PROGRESS_EVERY  # the volley is large enough to be heard along the way
    assert heard[-1] == resolved  # the last word is every run made, the estimate's paths included
    assert heard == sorted(set(heard))
    assert all(n % odds_module.PROGRESS_EVERY == 0 for n in heard[:-1])
    plain = action_odds(state, VOLLEY)
    assert plain.weights == answer.weights  # counting changes no answer


@pytest.mark.parametrize("hook", ["walked", "advance"])
def test_a_hook_that_is_not_a_function_is_refused_naming_it(hook: str) -> None:
    state = load_scenario(PSYCHIC)
    with pytest.raises(ValueError, match=f"action_odds: {hook}: expected a function"):
        action_odds(state, VOLLEY, **{hook: 5})


def test_on_an_80_column_terminal_the_bars_show_their_counts_and_say_why_they_change() -> None:
    code, out, frames = _on_a_terminal(["odds", "action", str(PSYCHIC), "--action", VOLLEY,
                                        "--max-branches", "1", "--runs", "600", "--seed", "3"])
    assert code == 0, frames
    lines = out.splitlines()
    assert lines[0].startswith("odds of ") and "Monte Carlo with 600 runs" in lines[1]
    exact = [f for f in frames if f.startswith("exact odds: rules-code runs")]
    sampled = [f for f in frames if f.startswith("Monte Carlo runs")]
    assert exact and sampled, frames
    assert all(re.search(r" \d+/1 ", f) for f in exact), exact
    assert all(re.search(r" \d+/600 ", f) and len(f) <= 80 for f in sampled), sampled
    assert any(" 600/600 " in f for f in sampled), sampled


def test_a_long_label_is_cut_short_on_a_narrow_terminal_never_the_count() -> None:
    """The engine's bar says why it plays one game per run; 80 columns once showed "… -…" for its count."""
    label = "playing the engine (the chance tree has more than 4,995 rules-code runs)"
    code, _, frames = _on_a_terminal(["-c", "from herohammer.simulate import progress_bar\n"
                                            f"with progress_bar(True, 3000, {label!r}) as advance:\n"
                                            "    advance(256)"], columns=80, module=False)
    assert code == 0, frames
    bars = [f for f in frames if f.startswith("playing the engine (the chance tree")]
    assert bars and all(re.search(r" (0|256)/3000 ", f) and len(f) <= 80 for f in bars), bars


@pytest.mark.parametrize("plan", [[{"do": "fight", "unit": "squad"}, {"do": "end_phase"}],
                                  [{"do": "fight", "unit": "squad"}, {"do": "end_phase"},
                                   {"do": "move", "unit": "boyz", "to": [[20, 25]]}]])
def test_a_compile_bar_counts_its_rules_code_runs_against_the_budget(monkeypatch: pytest.MonkeyPatch,
                                                                     plan: list[dict[str, Any]]) -> None:
    """The compile's bar counts rules-code runs out of the budget (a compile that gives up at 5,000 shows how far
    it is, not a step count stuck for many seconds); it hears every run the compile spends, blind rounds
    dropped and played again included."""
    from contextlib import contextmanager

    from herohammer import fastsim, simulate as simulate_module
    from herohammer.scenario import state_from_data
    from herohammer.simulate import make_driver

    heard: list[tuple[int | None, str, list[int]]] = []

    @contextmanager
    def recorder(enabled: bool, total: int | None, label: str) -> Any:
        counts: list[int] = []
        heard.append((total, label, counts))
        yield counts.append

    monkeypatch.setattr(simulate_module, "_progress", recorder)
    marine, boy = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
    data = {"ruleset": "40k3", "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "squad", "models": [{"name": "Marine", "profile": marine, "base": 25,
                                                          "at": [20, 20]}]}],
                      "blue": [{"id": "boyz", "models": [{"name": "Boy", "profile": boy, "base": 25,
                                                          "at": [20, 20.99]}]}]}}
    state = state_from_data(data)
    compiled = fastsim.compile_plan(state, make_driver(state, plan), 12_345, progress=True)
    [(total, label, counts)] = heard
    assert total == 12_345 and "rules-code runs" in label
    assert sum(counts) == compiled.rules_code_runs > len(plan) + 1


def test_the_exact_odds_bar_never_reads_past_its_budget(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """odds action --max-branches 10 on an assault showed "17/10" (the size estimate's sample runs counted too)."""
    from herohammer.commands import odds_action_cmd

    shown: list[int] = []

    class Bar:
        def __enter__(self) -> Any:
            return shown.append

        def __exit__(self, *exc: object) -> None:
            return None

    monkeypatch.setattr(odds_action_cmd, "progress_bar", lambda enabled, total, label: Bar())
    progress = odds_action_cmd._Progress(True, 10, 100)
    progress.walked(8)
    progress.walked(17)
    assert shown == [8, 2] and sum(shown) == 10
