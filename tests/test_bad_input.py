"""Bad input of every kind is one line on stderr naming what is wrong, and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.sweep import parse_vary

ROOT = Path(__file__).resolve().parent.parent
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
END = '{"do": "end_phase"}'


def one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str], *expected: str) -> None:
    code, _, err = run(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for text in expected:
        assert text in err, err


def mutated(tmp_path: Path, change: object) -> Path:
    data = yaml.safe_load(PSYCHIC.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path = tmp_path / "mutated.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def boy(data: dict) -> dict:  # type: ignore[type-arg]
    return data["sides"]["orks"][0]["models"][0]  # type: ignore[no-any-return]


def test_a_binary_file_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(bytes(range(128, 256)))
    one_line_error(["check", str(junk), "--action", END], capsys, "junk.yaml", "UTF-8")


@pytest.mark.parametrize(("argv", "said"), [
    (["actions", "orks_test.ros"], "scenario new --roster FILE"),
    (["play", "orks_test.ros", "--action", END], "scenario new --roster FILE"),
    (["simulate", "marines_test.cat", "--runs", "10"], "from:"),
    (["serve", "orks_test.rosz", "--port", "0"], "scenario new --roster FILE"),
])
def test_a_battlescribe_file_given_as_a_scenario_says_how_to_make_one(
        argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was "(top level): expected a mapping with ruleset, active, sides ..." (the XML read as one YAML string),
    or "not UTF-8 text" for a zipped roster."""
    import zipfile

    bs = ROOT / "examples" / "battlescribe"
    with zipfile.ZipFile(tmp_path / "orks_test.rosz", "w") as z:
        z.write(bs / "orks_test.ros", "orks_test.ros")
    name = argv[1]
    argv = [argv[0], str(tmp_path / name if name.endswith("z") else bs / name), *argv[2:]]
    one_line_error(argv, capsys, name, "a BattleScribe", "not a scenario", said)


def test_out_into_a_missing_folder_is_refused_before_playing(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing" / "after.yaml"
    one_line_error(["play", str(PSYCHIC), "--action", END, "--out", str(out)], capsys, "--out", "does not exist")
    assert not out.exists()


def test_plot_must_be_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["simulate", str(PSYCHIC), "--runs", "5", "--plot", str(tmp_path / "x.txt")], capsys, ".png")


def test_check_takes_one_action(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["check", str(PSYCHIC), "--action", END, "--action", END], capsys, "given twice")


def test_a_negative_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["play", str(PSYCHIC), "--action", END, "--seed", "-1"], capsys, "--seed")


@pytest.mark.rule("core.profile.dash")
@pytest.mark.parametrize("profile,expected", [
    ("WS4 BS2 S3 T4 I2 A2 Ld7 Sv6+", "leaves out W"),
    ("WS4 WS5 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "given twice"),
    ("", "leaves out"),
])
def test_profiles_must_give_each_characteristic_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     profile: str, expected: str) -> None:
    path = mutated(tmp_path, lambda d: boy(d).update(profile=profile))
    one_line_error(["check", str(path), "--action", END], capsys, "sides.orks[0].models[0].profile", expected)


@pytest.mark.parametrize("at,expected", [([-5, -5], "off the"), ([500, 30], "off the"), ([28, 30], "stands on")])
def test_models_must_stand_on_the_table_and_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   at: list[int], expected: str) -> None:
    path = mutated(tmp_path, lambda d: boy(d).update(at=at))
    one_line_error(["check", str(path), "--action", END], capsys, "mutated.yaml", expected)


def test_a_phase_the_ruleset_lacks_is_a_file_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = mutated(tmp_path, lambda d: d.update(phase="magic"))
    one_line_error(["check", str(path), "--action", END], capsys, "mutated.yaml: phase", "40k3 has no magic phase")


def test_a_plan_naming_an_unknown_unit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text("- {do: shoot, unit: nobody, target: boyz}\n", encoding="utf-8")
    one_line_error(["simulate", str(PSYCHIC), "--actions", str(plan), "--runs", "5"], capsys, "nobody")


def test_vary_reads_bracketed_values_whole() -> None:
    assert parse_vary("sides.marines[0].models[0].at=[1,2],[3,4]")[1] == [[1, 2], [3, 4]]
    assert parse_vary("x.profile.Ld=-,5")[1] == ["-", 5]


@pytest.mark.parametrize("extra,expected", [
    ({"weapons": [{"name": "laser", "type": "lazer", "range": 24}]}, "weapons[0].type"),
    ({"weapons": [{"name": "laser", "type": "heavy", "range": 24, "strength": 11}]}, "weapons[0].strength: expected 1..10"),
    ({"weapons": [{"name": "laser", "type": "heavy", "range": -1}]}, "weapons[0].range"),
    ({"powers": [{"name": "Zap", "range": 12, "effect": "shooting"}]}, "powers[0]: a shooting power needs a profile"),
    ({"powers": [{"name": "Zap", "range": 12, "effect": "morale", "modifier": 11}]}, "powers[0].modifier"),
])
def test_weapon_and_power_profiles_are_validated_naming_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   extra: dict, expected: str) -> None:  # type: ignore[type-arg]
    path = mutated(tmp_path, lambda d: d.update(extra))
    one_line_error(["check", str(path), "--action", END], capsys, "mutated.yaml", expected)


@pytest.mark.parametrize("action,expected", [
    ('{"do": "join", "character": "librarian", "unit": "tactical", "to": [true, 21]}', "field to[0]"),
    ('{"do": "join", "character": "librarian", "unit": "tactical", "to": [NaN, 21]}', "field to[0]"),
])
def test_actions_refuse_booleans_and_nan_for_numbers(capsys: pytest.CaptureFixture[str], action: str,
                                                     expected: str) -> None:
    example = ROOT / "examples" / "40k4_librarian_joins_tactical.yaml"
    one_line_error(["check", str(example), "--action", action], capsys, "--action", expected)


# -- issue 14: inputs that used to end in a traceback or run without limit ------------------------

LIBRARIAN = ROOT / "examples" / "40k4_librarian_joins_tactical.yaml"


@pytest.mark.parametrize("name,text,expected", [
    ("deep.yaml", "[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
    ("deep.json", "[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
    ("block.yaml", "\n".join("  " * i + "- " for i in range(100)), "nested deeper than 32 levels"),
    ("bigint.yaml", "ruleset: 40k3\nturn: " + "9" * 5000 + "\n", "thousands of digits"),
    ("bigint.json", '{"turn": ' + "9" * 5000 + "}", "thousands of digits"),
    ("large.yaml", "ruleset: 40k3\nturn: 10000000000000\n", "number too large"),
    ("huge.yaml", "- {}\n" * 300_000, "more than the limit of 1,000,000"),
    ("many.yaml", "- {}\n" * 150_000, "more than 100,000 values"),
    ("laughs.yaml", "a: &a [1, 2]\n" + "".join(
        f"b{i}: &b{i} [*{'a' if i == 0 else f'b{i - 1}'}, *{'a' if i == 0 else f'b{i - 1}'}]\n" for i in range(30)),
     "more than 100,000 values"),
    ("escape.yaml", 'ruleset: "40k3\\e[31m"\n', "control character"),
    ("date.yaml", "turn: 2020-13-45\n", "not valid YAML"),
])
def test_hostile_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str,
                                    expected: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for argv in (["check", str(path), "--action", END], ["simulate", str(PSYCHIC), "--actions", str(path)],
                 ["sweep", str(path), "--vary", "turn=1,2"]):
        one_line_error(argv, capsys, name, expected)


@pytest.mark.parametrize("action,expected", [
    ("[" * 5000 + "]" * 5000, "nested deeper than 32 levels"),
    ('{"do": "end_phase", "x": ' + "9" * 5000 + "}", "thousands of digits"),
    ('{"do": "leave", "character": "librarian", "to": [1e999, 2]}', "--action"),
    ('{"do": "end_phase", "x": "' + "a" * 200_000 + '"}', "more than the limit of 100,000"),
])
def test_hostile_actions_are_one_line(capsys: pytest.CaptureFixture[str], action: str, expected: str) -> None:
    for command in ("check", "play", "odds action"):
        one_line_error([*command.split(), str(LIBRARIAN), "--action", action], capsys, expected)


def test_hostile_vary_values_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["sweep", str(PSYCHIC), "--vary", "turn=" + "[" * 5000], capsys, "--vary")


def test_more_models_than_the_limit_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from herohammer.limits import MAX_MODELS

    def crowd(d: dict) -> None:  # type: ignore[type-arg]
        d["sides"]["orks"][0]["models"] = [dict(boy(d), at=[i % 70 + 1, 1 + i // 70]) for i in range(MAX_MODELS + 1)]

    path = mutated(tmp_path, crowd)
    one_line_error(["check", str(path), "--action", END], capsys, f"more than the limit of {MAX_MODELS:,}")


MARKUP = "[/]x[bold red]"


def test_markup_in_ids_is_printed_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = PSYCHIC.read_text(encoding="utf-8").replace("orks", f"'{MARKUP}'").replace("boyz", f"'{MARKUP}b'")
    path = tmp_path / "markup.yaml"
    path.write_text(text, encoding="utf-8")
    data = yaml.safe_load(text)
    firer = data["sides"][data["active"]][0]["id"]
    code, out, err = run(["targets", str(path), "--unit", firer], capsys)
    assert code == 0, err
    assert f"{MARKUP}b" in out  # the id itself, not restyled or swallowed
    code, out, err = run(["simulate", str(path), "--runs", "20", "--seed", "1"], capsys)
    assert code == 0, err
    assert MARKUP in out


def test_a_saved_file_is_never_half_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from herohammer.game import Game

    game = Game.load(PSYCHIC)
    out = tmp_path / "after.yaml"
    out.write_text("earlier", encoding="utf-8")

    def interrupted(self: Path, *args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "write_text", interrupted)
    with pytest.raises(KeyboardInterrupt):
        game.save(out)
    monkeypatch.undo()
    assert out.read_text(encoding="utf-8") == "earlier"
    assert [p.name for p in tmp_path.iterdir()] == ["after.yaml"]


def test_ctrl_c_is_one_line_and_exit_130(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from herohammer import game

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(game.Game, "load", interrupted)
    code, out, err = run(["check", str(PSYCHIC), "--action", END], capsys)
    assert code == 130 and err.strip() == "herohammer: interrupted; nothing was written"


PYDANTIC_WORDS = ("Input should", "Field required", "valid integer", "valid list", "Value error")


@pytest.mark.parametrize("action, expected", [
    ('{"do": "join", "character": "librarian"}', "field unit: required, but not given"),
    ('{"do": "move", "unit": "librarian", "to": "x"}', "field to: expected a list"),
    ('{"do": "move", "unit": "librarian", "to": [[1, "a"]]}', "field to[0][1]: expected a number"),
    ('{"do": "test", "unit": "librarian", "characteristic": "Q"}', "field characteristic: expected 'WS'"),
])
def test_action_errors_are_in_our_words(capsys: pytest.CaptureFixture[str], action: str, expected: str) -> None:
    code, out, err = run(["check", "examples/40k3_librarian_psychic.yaml", "--action", action], capsys)
    assert code == 2 and expected in err and not any(w in err for w in PYDANTIC_WORDS), err


def test_scenario_errors_are_in_our_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(Path("examples/40k3_librarian_psychic.yaml").read_text(encoding="utf-8"))
    data["turn"] = "x"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out, err = run(["check", str(bad), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 2 and "turn: expected a whole number" in err and not any(w in err for w in PYDANTIC_WORDS), err


@pytest.mark.parametrize("host", ["é" * 70])  # no name that would need a DNS lookup
def test_serve_refuses_a_host_it_cannot_listen_on_in_one_line(capsys: pytest.CaptureFixture[str], host: str) -> None:
    one_line_error(["serve", "--host", host, "--port", "0"], capsys, "--host")


def test_an_argument_with_a_newline_is_quoted_back_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(["rules", "--id=a\nb"], capsys, "unrecognized arguments", "a\\nb")
    one_line_error(["rules", "a\nb"], capsys, "no clause id", "a\\nb")  # a clause id looked up


@pytest.mark.parametrize("example", ["40k3_librarian_psychic.yaml", "t9a_captain_joins_spearmen.yaml"])
def test_a_terrain_id_used_twice_is_refused_naming_the_second(example: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Rulings name a terrain piece by its id ('would end in impassable terrain wood'): two of one name read as one."""
    data = yaml.safe_load((ROOT / "examples" / example).read_text(encoding="utf-8"))
    square = [[60, 40], [62, 40], [62, 42], [60, 42]]
    data["terrain"] = [*data.get("terrain", []), {"id": "rock", "kind": "open", "polygon": square},
                       {"id": "rock2", "kind": "open", "polygon": square}]
    path = tmp_path / "terrain.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out, _ = run(["actions", str(path)], capsys)
    assert code == 0 and out  # distinct ids: the file reads
    data["terrain"][-1]["id"] = "rock"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    second = len(data["terrain"]) - 1
    one_line_error(["actions", str(path)], capsys, "terrain.yaml", f"terrain[{second}].id", "used twice",
                   f"terrain[{second - 1}]")


@pytest.mark.parametrize(("text", "write"), [("1e1", "write 10"), ("2.5e1", "write 25")])
def test_an_exponent_yaml_reads_as_text_is_explained(text: str, write: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """YAML 1.1 reads 1e1 as text: the refusal said "a number is written without quotes" of a number written
    without quotes."""
    one_line_error(["check", str(PSYCHIC), "--action", f"{{do: move, unit: tactical, to: [[{text}, 2]]}}"],
                   capsys, f"field to[0][0]: expected a number, not text: {text} came as text", write)
    path = tmp_path / "exp.yaml"
    path.write_text(PSYCHIC.read_text(encoding="utf-8").replace("at: [26, 30]", f"at: [{text}, 30]"), encoding="utf-8")
    one_line_error(["actions", str(path)], capsys, "models[0].at[0]: expected a number, not text", write)


def test_an_action_s_kind_alone_says_how_to_write_the_action(capsys: pytest.CaptureFixture[str]) -> None:
    """--action end_phase was "expected an object like {"do": "move", ...}": right, but not the one meant."""
    one_line_error(["check", str(PSYCHIC), "--action", "end_phase"], capsys,
                   '--action: expected an object: {do: end_phase, ...} (YAML) or {"do": "end_phase", ...} (JSON)')


def test_a_deep_action_is_refused_as_deep_with_the_recursion_limit_raised(capsys: pytest.CaptureFixture[str]) -> None:
    """The parser's own RecursionError is not the only guard: in a process whose recursion limit was raised (mypy in
    the same process raises it to 2**14) the 5,000 levels parse, and the reader still refuses them as too deep."""
    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(2**14)
    try:
        one_line_error(["check", str(LIBRARIAN), "--action", "[" * 5000 + "]" * 5000], capsys,
                       "nested deeper than 32 levels")
    finally:
        sys.setrecursionlimit(limit)
