"""``play`` with several actions says which one failed, and that none of them was kept.

Found by using the tool: a judge's ``--dice 1,2`` for an assault and a fight stopped with
"action 2: scripted dice ran out ... (the game stays as it was before action 2)" and an illegal
second action with no number at all; yet nothing of action 1 was printed or written (play is all
or nothing), so the message read as if the assault had been kept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
CHAPLAIN = ROOT / "examples" / "40k4_chaplain_combat.yaml"
ASSAULT = '{"do": "assault", "unit": "assault_squad", "target": "boyz"}'
FIGHT = '{"do": "fight", "unit": "assault_squad"}'
SHOOT = '{"do": "shoot", "unit": "assault_squad", "target": "boyz"}'


def _refused(argv: list[str], out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, printed, err = run([*argv, "--out", str(out)], capsys)
    assert code == 2 and printed == "" and not out.exists()
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_dice_running_out_in_the_second_action_names_it_and_says_nothing_was_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", str(CHAPLAIN), "--dice", "1,2", "--action", ASSAULT, "--action", FIGHT],
                   tmp_path / "after.yaml", capsys)
    assert "action 2 of 2: scripted dice ran out" in err
    assert "nothing was played or written" in err and "stays as it was before action 2" not in err


def test_an_illegal_second_action_is_named_with_its_rule_and_nothing_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", str(CHAPLAIN), "--seed", "1", "--action", ASSAULT, "--action", SHOOT],
                   tmp_path / "after.yaml", capsys)
    assert err.startswith("herohammer: error: illegal action: action 2 of 2: 'shoot' is not an action of the "
                          "assault phase")
    assert "nothing was played or written" in err and err.rstrip().endswith("[published.turn-sequence]")


def test_a_single_illegal_action_reads_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(["play", str(CHAPLAIN), "--seed", "1", "--action", SHOOT], tmp_path / "after.yaml", capsys)
    assert err.startswith("herohammer: error: illegal action: 'shoot' is not an action of the assault phase")


def test_the_json_error_keeps_the_rules_it_cites(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code, out, _ = run(["play", str(CHAPLAIN), "--seed", "1", "--action", ASSAULT, "--action", SHOOT, "--json"],
                       capsys)
    answer = json.loads(out)
    assert code == 2 and answer["rules"] == ["published.turn-sequence"] and "action 2 of 2" in answer["error"]


def test_a_malformed_second_action_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in the second of two --action values names it, as an unknown unit in it already did."""
    err = _refused(["play", str(CHAPLAIN), "--seed", "1", "--action", ASSAULT, "--action", '{"do": "fight", "unti": "x"}'],
                   tmp_path / "after.yaml", capsys)
    assert err.startswith("herohammer: error: --action 2: field unti: unknown key `unti`"), err
    err = _refused(["play", str(CHAPLAIN), "--seed", "1", "--action", '{"do": "asault"}'], tmp_path / "after.yaml", capsys)
    assert err.startswith("herohammer: error: --action: field do: "), err
