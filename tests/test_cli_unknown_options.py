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


def test_a_missing_argument_alone_is_said_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["odds"], capsys)
    assert code == 2 and err == "herohammer odds: error: the following arguments are required: query\n"

