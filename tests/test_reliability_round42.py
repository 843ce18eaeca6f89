"""Reliability round 42: what long random play, exact odds under random play and mangled records found, each case a
plain sequence through the front door.

Run: the long profiles of the sequence fuzzers (``HEROHAMMER_FUZZ=long``, other Hypothesis seeds than the default),
seeded random walks over every bundled example played to the battle's end (check against apply, undo, re-apply,
save and load, ``Game.replay`` of the record), ``odds_of_action`` at random points of random games against seeded
``Game.apply`` runs (tests/test_odds_under_random_play.py), and records mangled (truncated, reordered, faces
edited, steps dropped or doubled, seeds and dice edited) through ``Game.replay`` and ``play --replay``.

Found wrong (each first an xfail(strict=True) test here, shortest sequence):
1. a record whose ``played.seed`` is a whole number of thousands of digits (``"000...0"``, 5,000 of them) ended
   ``Game.replay`` and ``play --replay`` in a Python ``ValueError`` traceback (the interpreter's limit on turning
   text into a number), where the seed is a whole number from 0 to 2**64-1 everywhere else.

Fixed: 1. ``records._dice`` refuses a record's seed longer than the largest (2**64-1, ``guards.MAX_SEED``) or larger
   than it, naming ``played.seed`` (the value quoted cut short).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run
from herohammer.dice import SeededDice
from herohammer.errors import HerohammerError
from herohammer.game import Game

ROOT = Path(__file__).resolve().parents[1]
PSYKER = ROOT / "examples" / "40k3_librarian_psychic.yaml"


def _record_with_seed(tmp_path: Path, seed: object) -> Path:
    """A two-step game of the 40k3 psyker example saved with its record, its seed then replaced by ``seed``."""
    g = Game.load(PSYKER, SeededDice(7))
    g.apply({"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"})
    g.apply({"do": "end_phase"})
    data = g.to_data(record=True)
    assert data["played"]["seed"] == "7"
    data["played"]["seed"] = seed
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", ["0" * 5000, str(2**64), "9" * 30])
def test_a_record_s_seed_out_of_range_is_one_line_naming_the_field(tmp_path: Path, seed: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A record's seed is a whole number from 0 to 2**64-1, as every other seed (``guards.MAX_SEED``): a longer one is
    refused naming the file and ``played.seed``, by the library and by ``play --replay`` (exit 2, one line)."""
    path = _record_with_seed(tmp_path, seed)
    with pytest.raises(HerohammerError) as refused:
        Game.replay(path)
    assert f"{path}: played.seed" in str(refused.value) and "2**64" in str(refused.value), refused.value
    code, out, err = run(["play", str(path), "--replay"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "played.seed" in err, (code, out, err)


def test_a_record_s_largest_seed_replays(tmp_path: Path) -> None:
    """The bound is the seed's own: a record at 2**64-1 plays back (the faces it rolled, checked)."""
    g = Game.load(PSYKER, SeededDice(2**64 - 1))
    g.apply({"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"})
    path = tmp_path / "game.yaml"
    g.save(path, record=True)
    assert yaml.safe_load(path.read_text())["played"]["seed"] == str(2**64 - 1)
    again = Game.replay(path)
    assert again.state == g.state and again.log == g.log
