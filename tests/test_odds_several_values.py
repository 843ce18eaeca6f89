"""``odds test`` and ``odds leadership`` for a model or unit with several values of one characteristic (session 32).

Until then the calculator took one value, and a judge asked about a unit whose models
differ had to know which value the rules pick.  Now it takes them all and says which it
used and why: the highest for a characteristic test (core.test.highest-value), the
player's pick for a Leadership test (core.test.leadership-choice; the highest unless
``--use`` names another).  The odds are checked against brute force over the dice.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from tests._cli import result_of, run


def _brute_test(value: int) -> dict[str, str]:
    """A D6 at most the value passes, a 6 always fails, 0 always fails (core.test.characteristic), by counting faces."""
    passed = sum(1 for face in range(1, 7) if value > 0 and face != 6 and face <= value)
    p = Fraction(passed, 6)
    return {"pass": str(p), "fail": str(1 - p)}


def _brute_leadership(ld: int) -> dict[str, str]:
    passed = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b <= ld)
    p = Fraction(passed, 36)
    return {"pass": str(p), "fail": str(1 - p)}


@pytest.mark.rule("core.test.highest-value")
@pytest.mark.parametrize("values", [[3, 5], [5, 3], [0, 4], [2, 2, 6], [0, 0]])
def test_several_values_test_once_on_the_highest(values: list[int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "test", *map(str, values), "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["result"] == _brute_test(max(values))
    assert doc["rules"] == ["core.test.characteristic", "core.test.highest-value"]
    code, out, _ = run(["odds", "test", *map(str, values)], capsys)
    assert f"against {max(values)}, the highest of {', '.join(map(str, values))}" in " ".join(out.split())
    assert "core.test.highest-value" in out


@pytest.mark.rule("core.test.highest-value")
def test_one_value_cites_no_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["odds", "test", "4", "--json"], capsys)
    assert code == 0 and json.loads(out)["rules"] == ["core.test.characteristic"]
    assert json.loads(out)["result"] == _brute_test(4)


@pytest.mark.rule("core.test.leadership-choice")
def test_several_leadership_values_the_highest_unless_the_player_picks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "leadership", "7", "9", "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["result"] == _brute_leadership(9)
    assert doc["rules"] == ["core.test.leadership", "core.test.leadership-choice"]
    code, out, _ = run(["odds", "leadership", "7", "9", "--use", "7"], capsys)
    assert code == 0 and "Ld 7 (the player's pick of 7, 9)" in " ".join(out.split())
    assert result_of(run(["odds", "leadership", "7", "9", "--use", "7", "--json"], capsys)[1]) == _brute_leadership(7)
    code, out, _ = run(["odds", "leadership", "7", "9"], capsys)
    assert "Ld 9 (the highest of 7, 9; the player may pick another with --use)" in " ".join(out.split())


@pytest.mark.rule("core.test.leadership-choice")
@pytest.mark.parametrize("argv", [["7", "9", "--use", "8"], ["8", "--use", "7"]])
def test_a_pick_that_is_none_of_the_values_is_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "leadership", *argv], capsys)
    assert code != 0 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert f"--use {argv[-1]}: not one of the unit's Leadership values" in lines[0]
    assert "core.test.leadership-choice" in lines[0]


def test_each_value_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "test", "3", "11"], capsys)
    assert code != 0 and out == "" and "VALUE must be from 0 to 10, got 11" in err
    code, out, err = run(["odds", "leadership", "7", "-1"], capsys)
    assert code != 0 and out == ""
