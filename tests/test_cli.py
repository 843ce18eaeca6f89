"""The command line: exact JSON answers, printed tables, one-line errors, the rules listing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from math import gcd
from pathlib import Path

import pytest

from herohammer import odds
from herohammer.cli import main
from herohammer.dice import Reroll
from _cli import result_of

CATALOGUE = Path(__file__).resolve().parents[2] / "shared" / "rules" / "catalogue.yaml"
ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit status, stdout, stderr) whether it returns or exits."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> object:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    assert err == ""
    return result_of(out)


def assert_exact(text: object, expected: Fraction) -> None:
    """Check an exact fraction string: lowest terms, '0' and '1' bare, equal to the library's value."""
    assert isinstance(text, str), text
    if "/" in text:
        num, den = (int(x) for x in text.split("/"))
        assert den > 1 and gcd(num, den) == 1, text
        assert 0 < num < den
    else:
        assert text in ("0", "1"), text
    assert Fraction(text) == expected


def catalogue_ids() -> list[str]:
    if not CATALOGUE.exists():
        pytest.skip(f"shared catalogue not found at {CATALOGUE}")
    return [
        line.split(":", 1)[1].strip()
        for line in CATALOGUE.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("- id:")
    ]


# --------------------------------------------------------------------------------------
# odds --json
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("reroll", [False, True])
@pytest.mark.parametrize("value", range(0, 11))
def test_odds_test_json(value: int, reroll: bool, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "test", str(value)] + (["--reroll-failed"] if reroll else [])
    got = run_json(argv, capsys)
    expected = odds.test_odds(value, reroll)
    assert isinstance(got, dict) and set(got) == set(expected)
    for key, p in expected.items():
        assert_exact(got[key], p)


@pytest.mark.parametrize("ld", range(0, 11))
def test_odds_leadership_json(ld: int, capsys: pytest.CaptureFixture[str]) -> None:
    got = run_json(["odds", "leadership", str(ld)], capsys)
    expected = odds.leadership_odds(ld)
    assert isinstance(got, dict) and set(got) == {"pass", "fail"}
    for key, p in expected.items():
        assert_exact(got[key], p)


def test_odds_exact_strings(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(["odds", "leadership", "0"], capsys) == {"pass": "0", "fail": "1"}
    assert run_json(["odds", "leadership", "7"], capsys) == {"pass": "7/12", "fail": "5/12"}
    assert run_json(["odds", "test", "4"], capsys) == {"pass": "2/3", "fail": "1/3"}
    assert run_json(["odds", "leadership", "8"], capsys) == {"pass": "13/18", "fail": "5/18"}


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("ld", range(0, 11))
def test_odds_psychic_json(ld: int, ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    for toughness, wounds in ((4, 1), (0, 1), (3, 2), (10, 1)):
        argv = ["odds", "psychic", str(ld), "--toughness", str(toughness), "--wounds", str(wounds),
                "--ruleset", ruleset]
        got = run_json(argv, capsys)
        expected = odds.psychic_odds(ld, toughness, wounds, ruleset)
        assert isinstance(got, dict) and set(got) == set(expected)
        for key, p in expected.items():
            assert_exact(got[key], p)


def test_odds_psychic_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    got = run_json(["odds", "psychic", "9"], capsys)
    assert got == {"power_used": "5/6", "fail": "1/6", "perils": "1/18", "psyker_slain": "2/81"}


@pytest.mark.parametrize(
    "args, query",
    [
        (["0", "--hit", "3+", "--wound", "4+"], odds.AttackQuery(0, 3, 4)),
        (["3", "--hit", "3+", "--wound", "4+", "--save", "5+"], odds.AttackQuery(3, 3, 4, 5)),
        (["10", "--hit", "3", "--wound", "4+", "--save", "4+", "--reroll-hits", "failed", "--reroll-wounds", "1s"],
         odds.AttackQuery(10, 3, 4, 4, Reroll.FAILED, Reroll.ONES)),
        (["7", "--hit", "2+", "--wound", "6+", "--reroll-wounds", "failed"],
         odds.AttackQuery(7, 2, 6, None, Reroll.NONE, Reroll.FAILED)),
        (["100", "--hit", "4+", "--wound", "4+", "--save", "3+"], odds.AttackQuery(100, 4, 4, 3)),
    ],
)
def test_odds_attacks_json(args: list[str], query: odds.AttackQuery, capsys: pytest.CaptureFixture[str]) -> None:
    got = run_json(["odds", "attacks", *args], capsys)
    dist = query.distribution()
    assert isinstance(got, dict) and {"distribution", "at_least", "mean"} <= set(got)
    assert set(got["distribution"]) == {str(k) for k in dist}
    for k, p in dist.items():
        assert_exact(got["distribution"][str(k)], p)
    mean = got["mean"]
    assert Fraction(mean) == dist.mean()
    if "/" in mean:
        n, d = map(int, mean.split("/"))
        assert gcd(n, d) == 1


# --------------------------------------------------------------------------------------
# tables
# --------------------------------------------------------------------------------------


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")


@pytest.mark.usefixtures("wide")
@pytest.mark.parametrize(
    "argv, title, cells",
    [
        (["odds", "test", "4"], "Characteristic test against 4", ["pass", "2/3", "66.67%", "fail", "1/3"]),
        (["odds", "test", "4", "--reroll-failed"], "re-rolling a failure", ["8/9"]),
        (["odds", "leadership", "7"], "Leadership test against Ld 7", ["7/12", "58.33%", "5/12"]),
        (["odds", "psychic", "9"], "Psychic test, Ld 9", ["power_used", "5/6", "perils", "1/18", "2/81"]),
        (["odds", "attacks", "3", "--hit", "3+", "--wound", "4+", "--save", "5+"], "3 attacks, hit 3+",
         ["unsaved wounds", "343/729", "at least", "8/729", "mean: 2/3"]),
    ],
)
def test_odds_tables_print(argv: list[str], title: str, cells: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 0 and err == ""
    assert title in out
    for cell in cells:
        assert cell in out
    assert "{" not in out  # a table, not JSON


@pytest.mark.parametrize("ruleset, given, unused, shown", [
    ("40k3", ["--inv", "4+"], "--inv not used", " T4 W1,"),
    ("40k4", ["--toughness", "5", "--inv", "4+"], "--toughness not used", " W1 Inv4+,"),
])
def test_odds_psychic_names_an_input_its_perils_does_not_read(ruleset: str, given: list[str], unused: str, shown: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """3rd edition Perils allows no save, 4th's one wound reads no Toughness: an input given for nothing is named,
    never silently dropped; and what it reads shapes the odds (4th's invulnerable save lowers psyker_slain)."""
    code, out, _ = run(["odds", "psychic", "9", "--ruleset", ruleset, *given], capsys)
    title = " ".join(out.split())
    assert code == 0 and unused in title and f"Ld 9,{shown}" in title
    with_inv = run_json(["odds", "psychic", "9", "--ruleset", ruleset, "--inv", "4+"], capsys)
    without = run_json(["odds", "psychic", "9", "--ruleset", ruleset], capsys)
    assert (with_inv == without) == (ruleset == "40k3")


# --------------------------------------------------------------------------------------
# bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["odds", "leadership", "13"], "LD"),
        (["odds", "leadership", "-1"], "LD"),
        (["odds", "leadership", "seven"], "seven"),
        (["odds", "test", "11"], "VALUE"),
        (["odds", "test", "4.5"], "4.5"),
        (["odds", "attacks", "5", "--hit", "7+", "--wound", "4+"], "--hit"),
        (["odds", "attacks", "5", "--hit", "3+", "--wound", "1+"], "--wound"),
        (["odds", "attacks", "5", "--hit", "3+", "--wound", "4+", "--save", "x"], "--save"),
        (["odds", "attacks", "-3", "--hit", "3+", "--wound", "4+"], "-3"),
        (["odds", "attacks", "ten", "--hit", "3+", "--wound", "4+"], "ten"),
        (["odds", "attacks", "5", "--hit", "3+", "--wound", "4+", "--reroll-hits", "all"], "all"),
        (["odds", "psychic", "8", "--ruleset", "t9a"], "t9a"),
        (["odds", "psychic", "8", "--ruleset", "40k5"], "40k5"),
        (["odds", "psychic", "8", "--toughness", "11"], "--toughness"),
        (["odds", "psychic", "8", "--wounds", "0"], "--wounds"),
        (["odds", "nonsense"], "nonsense"),
        (["rules", "--ruleset", "40k5"], "40k5"),
    ],
)
def test_bad_input_one_line_exit_2(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert fragment in lines[0]
    assert lines[0].startswith("herohammer")


def test_library_error_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A HerohammerError raised by the library (not argparse) is one line and exit 2 too."""
    from herohammer.errors import IllegalActionError

    def refuse(*args: object, **kwargs: object) -> None:
        raise IllegalActionError("no such test here", ["core.test.leadership"])

    monkeypatch.setattr(odds, "leadership_odds", refuse)
    code, out, err = run(["odds", "leadership", "7"], capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["herohammer: error: illegal action: no such test here [core.test.leadership]"]


# --------------------------------------------------------------------------------------
# rules
# --------------------------------------------------------------------------------------


def test_rules_json_lists_every_catalogue_id(capsys: pytest.CaptureFixture[str]) -> None:
    ids = catalogue_ids()
    code, out, err = run(["rules", "--json"], capsys)
    assert code == 0 and err == ""
    rows = result_of(out)
    listed = [r["id"] for r in rows]
    assert sorted(i for i in listed if not i.startswith("published.")) == sorted(ids)
    assert len(listed) == len(set(listed))
    for r in rows:
        assert {"id", "ruleset", "seed", "source", "says", "implemented"} <= set(r)
        if r["id"].startswith("published."):  # judging rules from the rulebooks name their book and section
            assert r["ruleset"] == "published" and "rulebook" in r["source"], r


def test_rules_looks_up_ids_and_their_starts(capsys: pytest.CaptureFixture[str]) -> None:
    joins = [i for i in catalogue_ids() if i.startswith("t9a.join.")]
    code, out, err = run(["rules", "--json", "published.regroup", "t9a.join"], capsys)
    assert code == 0 and err == ""
    listed = [r["id"] for r in result_of(out)]
    assert sorted(listed) == sorted(["published.regroup", *joins]) and len(joins) > 1
    code, out, err = run(["rules", "t9a.jo"], capsys)  # a start must end at a dot
    assert code == 2 and "'t9a.jo'" in err and len(err.strip().splitlines()) == 1


def test_rules_takes_a_start_written_with_its_dot_and_offers_the_nearest_start(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "--json", "t9a.join"], capsys)
    joins = sorted(r["id"] for r in result_of(out))
    assert code == 0 and len(joins) > 1
    code, out, err = run(["rules", "--json", "t9a.join."], capsys)  # was refused: "no clause id starts with"
    assert code == 0 and sorted(r["id"] for r in result_of(out)) == joins
    code, out, err = run(["rules", "t9a.jo"], capsys)  # the nearest start, not one id under it
    assert code == 2 and err.rstrip().endswith("did you mean t9a.join?"), err


@pytest.mark.parametrize(("argv", "said"), [
    (["rules", "publshed.regroup"], "did you mean published.regroup?"),
    (["rules", "--ruleset", "t9a", "published.regroup"], "of --ruleset t9a"),
])
def test_rules_refuses_an_id_it_does_not_have_in_one_line(argv: list[str], said: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1


def test_rules_core_all_implemented(capsys: pytest.CaptureFixture[str]) -> None:
    core = [i for i in catalogue_ids() if i.startswith("core.")]
    assert core
    code, out, err = run(["rules", "--ruleset", "core", "--json"], capsys)
    assert code == 0
    rows = result_of(out)
    assert [r["id"] for r in rows] == core
    for r in rows:
        assert r["ruleset"] == "core" and r["seed"] == "004"
        assert r["implemented"] is True and r["implemented_by"], r["id"]


@pytest.mark.usefixtures("wide")
def test_rules_core_table(capsys: pytest.CaptureFixture[str]) -> None:
    core = [i for i in catalogue_ids() if i.startswith("core.")]
    code, out, err = run(["rules", "--ruleset", "core"], capsys)
    assert code == 0 and err == ""
    assert f"Rule clauses ({len(core)}; implemented: {len(core)})" in out
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) > 4 and cells[1]:
            rows[cells[1]] = cells[2:4]
    for rid in core:
        assert rows.get(rid) == ["004", "yes"], rid


# --------------------------------------------------------------------------------------
# the installed entry points
# --------------------------------------------------------------------------------------


def _entry_points() -> list[list[str]]:
    bindir = Path(sys.executable).parent
    script = bindir / "herohammer"
    return [[str(script)], [sys.executable, "-m", "herohammer"]]


@pytest.mark.parametrize("command", _entry_points(), ids=["console-script", "python-m"])
def test_entry_point_subprocess(command: list[str]) -> None:
    if not Path(command[0]).exists():
        pytest.skip(f"{command[0]} is not installed")
    env = dict(os.environ, COLUMNS="120")
    proc = subprocess.run(
        [*command, "odds", "leadership", "7", "--json"],
        capture_output=True, text=True, timeout=60, cwd=ROOT, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert result_of(proc.stdout) == {"pass": "7/12", "fail": "5/12"}
    bad = subprocess.run([*command, "odds", "leadership", "13"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
