"""``sweep`` says the scenario's load notes as the other commands do: ``note:`` lines on stderr, or ``--json``'s
``notes``, each once for the whole sweep (``sweep.sweep_notes``), a note only some variants have naming them.

Found by using the tool: check, targets, actions, play, odds and simulate said which special
rules no rule reads (``scenario.scenario_notes``); sweep ran the same scenario and said nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.simulate import read_demo

NOTE = "special rules not modelled by 40k3, read as text: combat_squads"
LD = "sides.red[librarian].models[0].profile.Ld=8,10"


@pytest.fixture()
def squads(tmp_path: Path) -> Path:
    """The 40k3 demo with a short plan and a rule no 40k3 rule reads on the Tactical squad."""
    data = read_demo("demo_40k3_librarian.yaml")[0]
    data["plan"] = [data["plan"][0], {"do": "psychic_test", "psyker": "librarian"}]
    data["sides"]["red"][1]["rules"] = ["combat_squads"]
    path = tmp_path / "squads.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _sweep(path: Path, *more: str) -> list[str]:
    return ["sweep", str(path), "--runs", "200", "--seed", "3", *more]


def test_the_table_comes_with_each_note_once_on_stderr(squads: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(_sweep(squads, "--vary", LD), capsys)
    assert code == 0, err
    assert err.splitlines().count(f"note: {NOTE}") == 1 and "note:" not in out, err  # two variants, said once
    code, out, err = run(_sweep(squads, "--vary", LD, "--workers", "2"), capsys)
    assert code == 0 and err.splitlines().count(f"note: {NOTE}") == 1, err  # from the worker processes alike


def test_json_carries_them_in_the_envelope(squads: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(_sweep(squads, "--vary", LD, "--json"), capsys)
    assert code == 0 and "note:" not in err, err
    answer = json.loads(out)
    assert answer["notes"] == [NOTE] and "notes" not in answer["result"]
    code, out, _ = run(["check", str(squads), "--action", '{"do": "end_phase"}', "--json"], capsys)
    assert json.loads(out)["notes"] == answer["notes"]  # the same words as check's


def test_a_note_of_some_variants_names_them(squads: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(_sweep(squads, "--vary", "sides.red[tactical].rules=[combat_squads],[]", "--json"), capsys)
    assert code == 0, err
    assert json.loads(out)["notes"] == [f"{NOTE} (variant 0 of 2)"]


def test_no_note_without_a_cause(squads: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(squads.read_text())
    del data["sides"]["red"][1]["rules"]
    squads.write_text(yaml.safe_dump(data))
    code, out, err = run(_sweep(squads, "--vary", LD, "--json"), capsys)
    assert code == 0 and "notes" not in json.loads(out) and "note:" not in err
