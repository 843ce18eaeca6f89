"""A fresh-eyes walk (session 22): what a player, a judge, a bot's developer and a designer meet on a fresh machine.

- ``sweep`` and ``odds action`` show a progress bar on a terminal, as ``simulate`` does; only ``simulate`` took
  ``--quiet`` to hide it (``sweep --quiet`` and ``odds action --quiet`` were refused as unrecognized arguments).
- A sweep's bar counts variants: on 40k4_chaplain_combat.yaml each took ~20 s and the bar stood at ``0/2 -:--:--``
  all that while; it now shows the time so far as well.
- ``simulate examples/t9a_whole_turn.yaml`` on a terminal: the engine's bar stood at ``0/3000`` for ~30 s while the
  shared runs went round by round: the rounds' note ("step 4, 512 of 3,000 runs played") was written after the bar's
  long label ("playing the engine (exact enumeration would take about 5.0e5 ...)") and cut off with it; it now comes
  before the label's reason in brackets.
- ``herohammer rulings t9a-a-redirected-charge-whose-second-target-flees-too`` (in the README) printed nothing for
  ~10 s (34 s on a loaded machine) while its odds step enumerated; the entry's words and each step are printed as
  they are played now, and the odds step counts its rules-code runs on a terminal.
- An option a sub-command does not take (``odds action ... --method x``, ``targets ... --json --extra``) was reported
  by the root parser as ``herohammer: error: unrecognized arguments`` (and ``"command": ""`` under ``--json``); it
  names the sub-command and its ``--help`` now.
- The web API: a JSON body sent without ``Content-Type: application/json`` (``curl -d``, a ``fetch`` without headers)
  was refused as ``body: expected a mapping (got b'{"demo": ...}')``, Python's bytes shown and the header unnamed; it
  is a 415 naming the header. ``/actions?unit=`` of an unknown unit names the table's units, as ``/targets`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from _cli import run
from herohammer.web.api import create_app
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


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app())


def _table(client: TestClient) -> str:
    r = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"})
    assert r.status_code == 201, r.text
    return str(r.json()["table_id"])


@pytest.mark.parametrize("headers", [{}, {"Content-Type": "application/x-www-form-urlencoded"},
                                     {"Content-Type": "text/plain"}])
def test_a_json_body_without_its_content_type_is_refused_naming_the_header(client: TestClient,
                                                                           headers: dict[str, str]) -> None:
    tid = _table(client)
    before = client.get(f"/api/tables/{tid}/scenario").text
    for url, body in (("/api/tables", b'{"demo": "demo_40k3_librarian.yaml"}'),
                      (f"/api/tables/{tid}/check", b'{"action": {"do": "end_phase"}}'),
                      (f"/api/tables/{tid}/play", b'{"actions": [{"do": "end_phase"}]}')):
        r = client.post(url, content=body, headers=headers)
        assert r.status_code == 415, (url, r.text)
        error = r.json()["error"]
        assert "Content-Type: application/json" in error and "b'" not in error, error
        assert (headers.get("Content-Type") or "no Content-Type") in error
    assert client.get(f"/api/tables/{tid}/scenario").text == before  # the play was not played


def test_bodies_that_are_json_but_wrong_still_name_their_field(client: TestClient) -> None:
    tid = _table(client)
    cases: list[tuple[str, Any, int, str]] = [
        ("/api/tables", [1, 2], 422, "body: expected a mapping"),
        (f"/api/tables/{tid}/check", {"action": [1]}, 422, "body.action: expected a mapping"),
        (f"/api/tables/{tid}/play", {"actions": [{"do": "end_phase"}], "seed": -1}, 422, "body.seed"),
        (f"/api/tables/{tid}/simulate", {"runs": True}, 422, "body.runs: expected a number, not true/false"),
        (f"/api/tables/{tid}/odds", {"action": {"do": "shoot", "unit": "ghosts", "target": "warriors"}}, 400,
         "no unit with id 'ghosts'"),
    ]
    for url, body, status, words in cases:
        r = client.post(url, json=body)
        assert r.status_code == status and words in r.json()["error"], (url, r.text)
    r = client.post("/api/tables", content=b"", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "body: required" in r.json()["error"]


def test_an_unknown_unit_in_the_actions_query_names_the_units(client: TestClient) -> None:
    tid = _table(client)
    r = client.get(f"/api/tables/{tid}/actions", params={"unit": "ghosts"})
    assert r.status_code == 400
    assert r.json()["error"] == "unit: no unit with id 'ghosts' (units: librarian, tactical, warriors)"


def test_undo_with_nothing_to_undo_changes_nothing(client: TestClient) -> None:
    tid = _table(client)
    before = client.get(f"/api/tables/{tid}/scenario").text
    r = client.post(f"/api/tables/{tid}/undo")
    assert r.status_code == 409 and "nothing to undo" in r.json()["error"]
    assert client.get(f"/api/tables/{tid}/scenario").text == before


@pytest.mark.parametrize("argv", [["catalogue"], ["scenario", "new", "--roster"]])
def test_a_scenario_given_where_a_roster_is_read_is_named_as_such(argv: list[str],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*argv, str(PSYCHIC)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    # was "not well-formed XML (not well-formed (invalid token): line 1, column 1)"
    assert f"{PSYCHIC}: a YAML file, not a BattleScribe one: expected a .cat, .gst or .ros file" in err


def test_the_library_refuses_bad_and_illegal_actions_leaving_the_state_as_it_was() -> None:
    from herohammer.dice import SeededDice
    from herohammer.errors import HerohammerError, IllegalActionError
    from herohammer.game import Game
    from herohammer.scenario import load_scenario

    game = Game(load_scenario(PSYCHIC), dice=SeededDice(1))
    start, fingerprint = game.state, hash(game.state)
    refused: list[tuple[Any, str]] = [
        ({"do": "shoot", "unit": "boyz", "target": "tactical"}, "published.turn-sequence"),
        ({"do": "shoot", "unit": "ghosts", "target": "boyz"}, "no unit with id 'ghosts'"),
        ({"do": "move", "unit": "tactical", "to": [[1e9, 1e9]]}, "not an action of the shooting phase"),
        ({"do": "fly"}, "action: field do"),
        ([1], "action: expected an object"),
        ('{"do": "shoot"', "action: not valid JSON"),
    ]
    for action, words in refused:
        with pytest.raises(HerohammerError) as caught:
            game.apply(action)
        message = str(caught.value)
        assert words in message and "--action" not in message, message  # the CLI's option, not the library's
        assert game.state is start and hash(game.state) == fingerprint and game.log == ()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    assert game.state is start and hash(game.state) == fingerprint


def test_a_bars_note_shows_before_its_long_reason_on_an_80_column_terminal() -> None:
    label = "playing the engine (exact enumeration would take about 5.0e5 rules-code runs)"
    code, _, frames = _on_a_terminal(["-c", "from herohammer.simulate import progress_bar\n"
                                            f"with progress_bar(True, 3000, {label!r}) as advance:\n"
                                            "    advance.note('step 4, 256 of 3,000 runs played')\n"
                                            "    advance.note('step 4, 512 of 3,000 runs played')"],
                                     columns=80, module=False)
    assert code == 0, frames
    noted = [f for f in frames if f.startswith("playing the engine: step 4, ")]
    assert noted and all(len(f) <= 80 and re.search(r" 0/3000 ", f) for f in noted), frames
    assert any(f.startswith("playing the engine: step 4, 512") for f in noted), noted  # the part that moves


NOB = "40k4-a-wounded-nob-takes-the-next-wound"  # a ruling with an odds step that takes a second or two


def test_a_ruling_prints_its_question_and_answer_before_its_odds_step_enumerates(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from herohammer import book

    printed_before: list[str] = []
    real = book.action_odds

    def watched(*args: Any, **kwargs: Any) -> Any:
        out = capsys.readouterr().out
        printed_before.append(out)
        print(out, end="")
        return real(*args, **kwargs)

    monkeypatch.setattr(book, "action_odds", watched)
    code, out, err = run(["rulings", NOB], capsys)
    assert code == 0, err
    assert printed_before and printed_before[0].startswith(f"{NOB} (40k4): ") and "\nQ: " in printed_before[0]
    assert "Played through the engine:" in printed_before[0]
    assert out.rstrip().endswith("verified: every step gave the ruling the book states")


def test_a_rulings_odds_step_shows_a_bar_on_a_terminal_and_its_lines_stay_on_stdout(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, plain, err = run(["rulings", NOB], capsys)
    assert code == 0, err
    code, out, frames = _on_a_terminal(["rulings", NOB])
    assert code == 0, frames
    assert out == plain  # every line on stdout, none taken to the terminal by the bar
    assert any(f.startswith("exact odds: rules-code runs") for f in frames), frames


@pytest.mark.parametrize("argv, command", [
    (["odds", "action", str(PSYCHIC), "--action", '{"do": "end_phase"}', "--method", "x"], "odds action"),
    (["odds", "test", "4", "--bogus"], "odds test"),
    (["targets", str(PSYCHIC), "--unit", "tactical", "extra"], "targets"),
])
def test_an_option_a_command_does_not_take_is_named_with_the_command(argv: list[str], command: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"herohammer {command}: error: unrecognized arguments: ")
    assert f"(herohammer {command} --help lists its options)" in err
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 2 and err == ""
    doc = json.loads(out)
    assert doc["command"] == command and doc["error"].startswith(f"herohammer {command}: unrecognized arguments")
