"""What a fresh-eyes walk through the README's commands on the bundled examples found (session 13, qa3).

Each through the command line, as a user meets it: a ``--vary`` path through a side the
scenario lacks, sweep's header and its ``--json`` envelope, the 9th Age combat score's words,
a move given the wrong number of positions, and ``odds action`` on an action that changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
TURN_40K3 = ROOT / "examples" / "40k3_whole_turn.yaml"  # sides marines and orks
TURN_T9A = ROOT / "examples" / "t9a_whole_turn.yaml"
LD = "sides.marines[tactical].models[0].profile.Ld"


def test_a_vary_through_a_side_the_scenario_lacks_names_the_sides_there(capsys: pytest.CaptureFixture[str]) -> None:
    """It said "no element [0] there" after printing the sweep's header: the path made up an empty side."""
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", "sides.red[0].models[0].profile.Ld=8,9", "--runs", "10"],
                         capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert "--vary sides.red[0].models[0].profile.Ld: no 'red' there (there: marines, orks)" in err


def test_sweep_s_header_counts_in_words_and_its_json_names_the_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", f"{LD}=8", "--runs", "1", "--seed", "1"], capsys)
    assert code == 0, err
    assert ": 1 variant x 1 run = 1 run, seed 1 (1 process)" in out.splitlines()[0]
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", f"{LD}=8,9", "--runs", "2", "--seed", "1", "--json"],
                         capsys)
    assert code == 0 and json.loads(out)["ruleset"] == "40k3", err  # it was null
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", "ruleset=40k3,40k4", "--runs", "2", "--seed", "1",
                          "--json"], capsys)
    assert code == 0 and json.loads(out)["ruleset"] is None  # two rulesets: none is the sweep's


@pytest.mark.rule("published.t9a-combat-resolution")
def test_the_t9a_combat_score_says_its_parts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """It printed a Python dict (``wounds {'highborn': 2, 'orcs': 0}``) and ``captain +1 (ranks, standard, charge)``
    for a lone captain's charge bonus."""
    steps = [{"do": "charge", "unit": "captain", "target": "orc_warriors"}, *[{"do": "end_phase"}] * 4,
             {"do": "fight", "unit": "captain"}]
    code, out, err = run(["play", str(TURN_T9A), "--seed", "1", *[a for s in steps for a in ("--action", json.dumps(s))]],
                         capsys)
    assert code == 0, err
    line = next(line for line in out.splitlines() if " wins by " in line)
    assert "{" not in line and "wounds caused: highborn " in line and "captain +1 (charge)" in line, line


@pytest.mark.rule("published.movement")
def test_a_move_given_too_few_positions_says_one_per_model(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", str(TURN_40K3), "--action",
                          '{"do": "move", "unit": "tactical", "to": [[26, 24]]}'], capsys)
    assert code == 0 and out.startswith("ILLEGAL: tactical has 4 models: got 1 position; give one per model"), out


def test_odds_of_an_action_that_changes_nothing_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "action", str(TURN_40K3), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 0, err
    assert "(every dice outcome enumerated, 1 distinct result)" in out and "nothing changes, whatever the dice" in out


def test_a_sweep_s_bad_plan_or_first_variant_is_refused_before_its_header(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A plan step that is no action was refused naming ``run_sweep: plan[0]`` (the Python function), after the
    header; simulate names ``--actions[0]``."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("- 1\n- 2\n")
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", f"{LD}=8", "--runs", "10", "--actions", str(plan)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert "--actions[0]: expected an action object" in err and "run_sweep" not in err
    code, out, err = run(["sweep", str(TURN_40K3), "--vary", "sides.marines[tactical].models[0].profile=8",
                          "--runs", "10"], capsys)
    assert code == 2 and out == "" and ("variant 0 (--vary sides.marines[tactical].models[0].profile=8): "
                                        "sides.marines[1].models[0].profile") in err, (out, err)


def _helpless(parser: object, prefix: str) -> list[str]:
    import argparse

    assert isinstance(parser, argparse.ArgumentParser)
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += _helpless(child, f"{prefix} {name}")
        elif action.help is None and not isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            out.append(f"{prefix} {'/'.join(action.option_strings) or action.dest}")
    return out


def test_every_argument_of_every_command_says_what_it_is() -> None:
    """``targets --help`` and ``actions --help`` showed a bare ``scenario``; ``sweep --help`` a bare --runs, --seed
    and --method (simulate says what each is)."""
    import argparse

    from herohammer.cli import build_parser
    from herohammer.commands import COMMANDS

    missing = []
    for command in COMMANDS:
        root = build_parser(command.name)
        sub = next(a for a in root._actions if isinstance(a, argparse._SubParsersAction))
        missing += _helpless(sub.choices[command.name], command.name)
    assert missing == []
