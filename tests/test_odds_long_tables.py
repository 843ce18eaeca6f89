"""``odds attacks`` with many attacks: the table folds each negligible end into one row and writes no fraction too
long to read, so 1,000 attacks print a readable table at once (it took rich seconds to lay out 1,001 rows of
fractions thousands of digits long); ``--json`` keeps every value, exact."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from herohammer.report import FOLD_ABOVE_ROWS, LONGEST_CELL_FRACTION, at_least_rows, fold_tails, percent

from _cli import run

ARGV = ["odds", "attacks", "1000", "--bs", "4", "--s", "4", "--t", "4", "--sv", "3+"]
ROW = re.compile(r"^│\s*([0-9]+(?:-[0-9]+)?) │\s*(\S[^│]*?) │\s*(\S+%) │\s*(\S[^│]*?) │\s*(\S+%) │$")


def _table(out: str) -> list[tuple[str, ...]]:
    return [m.groups() for line in out.splitlines() if (m := ROW.match(line))]


def test_a_thousand_attacks_fold_their_negligible_ends_and_agree_with_the_exact_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(ARGV + ["--json"], capsys)
    assert code == 0, err
    exact = {int(k): Fraction(v) for k, v in json.loads(out)["result"]["distribution"].items()}
    assert len(exact) == 1001 and sum(exact.values()) == 1
    code, out, err = run(ARGV, capsys)
    assert code == 0, err
    rows = _table(out)
    assert FOLD_ABOVE_ROWS < len(rows) < 200  # folded, yet every value of note on its own row
    folded = [label for label, *_ in rows if "-" in label]
    assert len(folded) == 2 and f"folded: {folded[0]} and {folded[1]}" in " ".join(out.split())
    covered = []
    for label, exactly, pct, at_least, pct_tail in rows:
        lo, _, hi = label.partition("-")
        values = range(int(lo), int(hi or lo) + 1)
        covered.extend(values)
        chance = sum((exact[v] for v in values), Fraction(0))
        tail = sum((p for v, p in exact.items() if v >= int(lo)), Fraction(0))
        assert pct == percent(chance) and pct_tail == percent(tail)
        for cell, value in ((exactly, chance), (at_least, tail)):
            text = str(value)
            assert cell == (text if len(text) <= LONGEST_CELL_FRACTION else "exact: --json")
        if "-" in label:  # a folded end: each of its values is under 0.005%
            assert all(exact[v] < Fraction(1, 20000) for v in values)
    assert covered == sorted(exact)  # every value once, in order


def test_a_short_table_keeps_every_value_on_its_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "attacks", "10", "--bs", "4", "--s", "4", "--t", "4", "--sv", "3+"], capsys)
    assert code == 0, err
    rows = _table(out)
    assert [label for label, *_ in rows] == [str(v) for v in range(11)]
    assert "folded" not in out and rows[-1][1] == "1/3486784401"  # 10 unsaved wounds: (1/9)**10, under 0.005%


def test_fold_tails_folds_runs_of_two_or_more_only() -> None:
    negligible = Fraction(1, 10 ** 6)
    values = {v: negligible for v in range(FOLD_ABOVE_ROWS + 5)}
    values[0] = negligible * 3  # a lone negligible value at the low end stays on its row
    values[1] = Fraction(1, 2)
    middle = range(2, FOLD_ABOVE_ROWS)
    for v in middle:
        values[v] = Fraction(1, 100)
    values[1] = 1 - sum(p for v, p in values.items() if v != 1)
    rows, folded = fold_tails(at_least_rows(values))
    top = max(values)
    assert folded == [f"{FOLD_ABOVE_ROWS}-{top}"]
    assert rows[0] == ("0", values[0], Fraction(1))
    label, chance, tail = rows[-1]
    assert label == folded[0] and chance == tail == sum(values[v] for v in range(FOLD_ABOVE_ROWS, top + 1))
    assert [r[0] for r in rows[:-1]] == [str(v) for v in range(FOLD_ABOVE_ROWS)]
