"""Wrong input found by walking the command line (session 12): each one line and exit 2, never a traceback.

Also nothing silently wrong: a field varied twice would have run every variant with the
last value while the table showed both; a 40k roster read as The 9th Age would have given
profiles without an Advance Rate; a third --side name was dropped without a word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import herohammer.sweep
from _cli import run

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml"
ORKS = ROOT / "examples" / "battlescribe" / "orks_test.ros"
LD = "sides.red[0].models[0].profile.Ld"


def _one_line(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (code, err)
    for w in words:
        assert w in err, (w, err)


@pytest.fixture()
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any variant of a sweep runs: these are refused first."""
    def ran(*args: object, **kwargs: object) -> object:
        raise AssertionError("a variant ran")
    monkeypatch.setattr(herohammer.sweep, "_execute", ran)


@pytest.mark.parametrize("address", ["nope", "tcp://127.0.0.1", "tcp://127.0.0.1:99999", "tcp://host:8786x", ""])
def test_a_malformed_scheduler_address_is_refused_before_anything_runs(
        capsys: pytest.CaptureFixture[str], nothing_runs: None, address: str) -> None:
    code, out, err = run(["sweep", str(DEMO), "--vary", f"{LD}=8", "--runs", "10", "--scheduler", address], capsys)
    _one_line(code, out, err, f"--scheduler {address!r}: expected a Dask scheduler's address such as "
                              "tcp://127.0.0.1:8786")
    assert out == ""


@pytest.mark.parametrize("varies, words", [
    ([f"{LD}=8,9", "sides.red[0].models[0].profile.ld=10"], "the same field as --vary " + LD),
    ([f"{LD}=8,9,8"], "the value 8 is given twice"),
])
def test_a_field_or_value_given_twice_is_refused(capsys: pytest.CaptureFixture[str], nothing_runs: None,
                                                 varies: list[str], words: str) -> None:
    argv = ["sweep", str(DEMO), "--runs", "10"]
    for v in varies:
        argv += ["--vary", v]
    code, out, err = run(argv, capsys)
    _one_line(code, out, err, words)
    assert out == ""


def test_the_library_refuses_a_field_varied_twice_too() -> None:
    from herohammer.errors import HerohammerError
    from herohammer.scenario import read_data

    with pytest.raises(HerohammerError, match="the same field"):
        herohammer.sweep.run_sweep(read_data(DEMO), [(LD, [8]), (LD, [9])], 10, seed=1)


@pytest.mark.parametrize("more, words", [
    (["--side", "a", "--side", "b", "--side", "c"], "--side: 3 names given"),
    (["--side", " "], "--side: a side's name must not be empty"),
    (["--side", "a", "--side", "a"], "--side: 'a' given for both sides"),
    (["--roster", str(ORKS), "--side", "a"], "--side: 2 rosters and 1 side name"),
    (["--ruleset", "t9a"], "--ruleset t9a: 'Waaagh (test)' is a Warhammer 40,000 roster"),
])
def test_scenario_new_refuses_sides_and_games_it_would_get_wrong(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, more: list[str], words: str) -> None:
    out_file = tmp_path / "new.yaml"
    code, out, err = run(["scenario", "new", "--roster", str(ORKS), *more, "--out", str(out_file)], capsys)
    _one_line(code, out, err, words)
    assert not out_file.exists()


def test_scenario_new_names_the_empty_side_with_a_second_side(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    import yaml

    out_file = tmp_path / "new.yaml"
    code, _, err = run(["scenario", "new", "--roster", str(ORKS), "--side", "mine", "--side", "theirs",
                        "--ruleset", "40k4", "--out", str(out_file)], capsys)
    assert code == 0, err
    data = yaml.safe_load(out_file.read_text())
    assert list(data["sides"]) == ["mine", "theirs"] and data["sides"]["theirs"] == [] and data["ruleset"] == "40k4"


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["table"].__setitem__("width", 1e300), "table.width", "number too large (more than 1e+12"),
    (lambda d: d["sides"]["red"][0]["models"][0].__setitem__("moved", 1e15), "sides.red[0].models[0].moved",
     "number too large"),
    (lambda d: d["sides"]["red"][0].__setitem__("rules", ["psyker", " "]), "sides.red[0].rules[1]",
     "expected a special rule's name, got empty text"),
], ids=["table 1e300 wide", "moved 1e15", "blank rule"])
def test_huge_numbers_and_blank_rule_names_in_a_file_are_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, change: object, field: str, words: str) -> None:
    import yaml

    data = yaml.safe_load(DEMO.read_text())
    change(data)  # type: ignore[operator]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data))
    code, out, err = run(["actions", str(path)], capsys)
    _one_line(code, out, err, f"{path}: {field}: {words}")


def test_a_huge_coordinate_in_an_action_is_refused_as_input(capsys: pytest.CaptureFixture[str]) -> None:
    far = [[1e300, y] for y in range(1, 6)]
    import json

    code, out, err = run(["check", str(DEMO), "--action", json.dumps({"do": "move", "unit": "tactical", "to": far})],
                         capsys)
    _one_line(code, out, err, "number too large")


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_an_empty_plan_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text("[]")
    more = ["--vary", f"{LD}=8,9"] if command == "sweep" else []
    code, out, err = run([command, str(DEMO), *more, "--runs", "10", "--actions", str(plan)], capsys)
    _one_line(code, out, err, f"{plan}: (top level): an empty plan plays nothing")


def test_catalogue_with_an_empty_unit_name_does_not_list_every_unit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["catalogue", str(ORKS), "--unit", ""], capsys)
    _one_line(code, out, err, "no unit named ''")
    assert out == ""


@pytest.mark.parametrize("argv, option", [
    (["odds", "attacks", "10", "--hit", "4+", "--wound", "4+", "--reroll-hits", "1s", "--reroll-hits", "failed"],
     "--reroll-hits"),
    (["odds", "attacks", "10", "--hit", "4+", "--hit", "3+", "--wound", "4+"], "--hit"),
    (["play", str(DEMO), "--action", '{"do": "end_phase"}', "--seed", "1", "--seed", "2"], "--seed"),
    (["simulate", str(DEMO), "--runs", "10", "--runs", "20"], "--runs"),
    (["sweep", str(DEMO), "--vary", f"{LD}=8,9", "--runs", "10", "--seed", "1", "--seed", "2"], "--seed"),
])
def test_an_option_given_twice_is_refused_not_the_last_kept(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                            option: str) -> None:
    code, out, err = run(argv, capsys)
    _one_line(code, out, err, f"{option} given twice: give it once")
    assert out == ""
