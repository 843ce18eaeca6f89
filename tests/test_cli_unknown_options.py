"""An unknown option is named in the one-line refusal, even where argparse would first say an argument is missing
(before session 23 ``herohammer --bogus`` said only "the following arguments are required: command")."""

from __future__ import annotations

import json

import pytest

from _cli import run


@pytest.mark.parametrize("argv, prog", [
    (["--bogus"], "herohammer"),
    (["odds", "--bogus"], "herohammer odds"),
    (["odds", "action", "--bogus=3"], "herohammer odds action"),
    (["rules", "--bogus"], "herohammer rules"),
])
def test_an_unknown_option_is_named_where_an_argument_is_also_missing(argv: list[str], prog: str,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{prog}: error: unrecognized arguments: {argv[-1]}"), err
    assert "Traceback" not in err


def test_a_negative_number_is_a_value_not_an_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["odds", "leadership", "-1"], capsys)
    assert code == 2 and "unrecognized" not in err and "LD must be from 0 to 10" in err


def test_the_json_envelope_names_the_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--json", "--bogus"], capsys)
    assert code == 2 and "unrecognized arguments: --bogus" in json.loads(out)["error"]


def test_a_missing_command_names_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """Was "the following arguments are required: query" (argparse's name for it, not a word a user typed)."""
    code, _, err = run(["odds"], capsys)
    assert code == 2 and err == ("herohammer odds: error: expected a command: test, leadership, psychic, attacks, "
                                 "action (herohammer odds --help says what each does)\n")
    code, _, err = run([], capsys)
    assert code == 2 and err.startswith("herohammer: error: expected a command: odds, rules, rulings, check, ")


def test_a_mistyped_command_is_offered_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["odds", "leadershp", "7"], capsys)
    assert code == 2 and err.startswith("herohammer odds: error: no command 'leadershp'; did you mean leadership? "
                                        "(commands: test, "), err

