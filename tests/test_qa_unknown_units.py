"""A mistyped unit id gets the same one line from every command: the field it was in, and the units there are.

Found by using the tool: ``check`` said "--action: field unit: no unit with id 'nobdy' (units: ...)", but
``play`` and ``odds action`` said "illegal action: no unit with id 'nobdy' in this scenario" (no field, no
list, and it is a typo, not a ruling), and ``targets --unit nobdy`` called its option an illegal action.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
LONE = str(ROOT / "examples" / "40k3_lone_captain_target.yaml")
UNITS = "(units: tactical, captain, shoota_boyz, warboss)"
TYPO = '{"do": "shoot", "unit": "warboss", "target": "tactcal"}'


def _one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (out, err)
    return err


@pytest.mark.parametrize("command", ["check", "play", "odds action"])
def test_every_action_command_names_the_field_and_lists_the_units(command: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line([*command.split(), LONE, "--action", TYPO], capsys)
    assert err == f"herohammer: error: --action: field target: no unit with id 'tactcal' {UNITS}\n"


def test_play_names_which_of_its_actions_has_the_typo_before_playing_any(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    err = _one_line(["play", LONE, "--seed", "1", "--action", '{"do": "end_phase"}', "--action", TYPO,
                     "--out", str(out)], capsys)
    assert err == f"herohammer: error: --action 2: field target: no unit with id 'tactcal' {UNITS}\n"
    assert not out.exists()


def test_targets_names_its_option(capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line(["targets", LONE, "--unit", "warbos"], capsys)
    assert err == f"herohammer: error: --unit: no unit with id 'warbos' {UNITS}\n"
