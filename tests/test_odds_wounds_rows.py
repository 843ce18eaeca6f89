"""``odds action`` and a played action's outcome show the wounds a unit lost where they are not the models it lost.

A 3rd edition Librarian (W2) wounded by Perils of the Warp stands: no model is lost, so a row of models lost alone
never showed the wound. The rows now give ``wounds lost = k`` for a unit in which some outcome's wounds differ from
its models lost, and none for a unit of one-wound models (the two rows would say the same thing).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from herohammer.action_odds import action_odds
from herohammer.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "40k3_librarian_psychic.yaml"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


def _to_wound(strength: int, toughness: int) -> int | None:
    """The 3rd edition to wound chart, written out: 6+ up to three points of Toughness above Strength."""
    gap = toughness - strength
    return None if gap > 3 else min(6, max(2, 4 + gap))


def _perils_wound() -> Fraction:
    """Brute force: a psychic test of 2 or 12 (2D6), then a hit of Strength D6 on Toughness 4, no save."""
    perils = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b in (2, 12)), 36)
    wounded = Fraction(sum(1 for s in range(1, 7) for roll in range(1, 7)
                           if (need := _to_wound(s, 4)) is not None and roll >= need), 36)
    return perils * wounded


@pytest.mark.rule("40k3.psyker.perils")
def test_a_perils_wound_on_a_two_wound_librarian_has_its_row() -> None:
    answer = action_odds(load_scenario(SCENARIO), SMITE)
    rows = {k: v.p for k, v in answer.rows().items()}
    assert rows["librarian: wounds lost = 1"] == _perils_wound() == Fraction(2, 81)
    assert rows["librarian: wounds lost = 0"] == 1 - _perils_wound()
    assert "librarian: models lost = 1" not in rows  # two wounds: one Perils hit never slays him
    assert not any(k.startswith("boyz: wounds lost") for k in rows)  # one wound each: the models lost say it


@pytest.mark.rule("40k3.psyker.perils")
def test_the_cli_answer_and_a_played_outcome_name_the_wound() -> None:
    cli = [sys.executable, "-m", "herohammer"]
    odds = subprocess.run([*cli, "odds", "action", str(SCENARIO), "--json", "--action", json.dumps(SMITE)],
                          capture_output=True, text=True, check=True)
    assert json.loads(odds.stdout)["result"]["rows"]["librarian: wounds lost = 1"] == "2/81"
    # a psychic test of 12 (Perils, failed), the hit's Strength 6, to wound 2+: the Librarian loses one wound
    played = subprocess.run([*cli, "play", str(SCENARIO), "--action", json.dumps(SMITE), "--dice", "6,6,6,2"],
                            capture_output=True, text=True, check=True)
    outcome = next(line for line in played.stdout.splitlines() if line.startswith("outcome:"))
    assert "librarian: wounds lost = 1" in outcome
    missed = subprocess.run([*cli, "play", str(SCENARIO), "--action", json.dumps(SMITE), "--dice", "6,6,6,1"],
                            capture_output=True, text=True, check=True)
    assert "wounds lost" not in next(line for line in missed.stdout.splitlines() if line.startswith("outcome:"))
