"""A judge's cases for 40k 3rd and 4th edition, twenty-third round: a power of the Shooting phase is used instead of
shooting.

Found wrong and fixed in this round:
- a Librarian who used Fear of the Darkness (a Morale power) in the Shooting phase could then run (Fleet), fire his
  weapon, or (having fired) still use it: the 4th edition rulebook says most powers "are used instead of shooting" and
  the codex powers "instead of firing a weapon", so a power of the Shooting phase is his shooting
  (40k3.psyker.as-shooting, published.40k4-psychic-shooting, the decision of session 23);
- a Librarian joined to a Fleet squad who used Smite could still run with the squad: a unit runs instead of
  shooting, and a member of it had shot (published.fleet-of-foot, published.fleet).
A failed psychic test still uses no power and spends no shooting; a power of the Assault phase is no shooting.
"""

from __future__ import annotations

import pytest

from herohammer.dice import ScriptedDice
from herohammer.units import Status

from test_judge_40k_round22 import FLEET, PSY_SHOOT, running_librarian
from _w40k import assert_illegal, assert_legal

EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
FEAR = {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"}
SMITE = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
#: a psychic test of 3 + 3 (passed on Ld10), then sixes for whatever follows (the Boyz' Morale check, hits, wounds)
PASSED = [3, 3] + [6] * 30


def run_of(joined: bool) -> dict[str, object]:
    runner = "tac" if joined else "lib"
    to = [[28, 21], [32, 21], [30, 22]] if joined else [[30, 22]]
    return {"do": "run", "unit": runner, "to": to}


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.fleet-of-foot",
                  "published.fleet")
@EDITIONS
@pytest.mark.parametrize("power", ["Fear of the Darkness", "Smite"])
@pytest.mark.parametrize("joined", [False, True])
def test_a_psyker_who_used_a_power_of_the_shooting_phase_does_not_run(ruleset: str, power: str, joined: bool) -> None:
    """Legal: the Fleet Librarian (alone, or with his Fleet squad) may run. Once he used Fear of the Darkness or Smite
    on the Boyz, the run is refused, citing the edition's Fleet rule and psychic clause, and the game is unchanged
    (before session 23 both runs were allowed)."""
    g = running_librarian(ruleset, joined)
    assert_legal(g, run_of(joined), FLEET[ruleset])
    g.apply({**FEAR, "power": power}, dice=ScriptedDice(PASSED))
    assert g.state.unit("lib").has(Status.SHOT)
    before = g.state
    refused = assert_illegal(g, run_of(joined), FLEET[ruleset])
    assert PSY_SHOOT[ruleset] in refused.rules
    assert "used a psychic power this turn instead of shooting" in str(refused)
    assert g.state == before


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
@EDITIONS
def test_a_lone_psyker_fires_no_weapon_after_fear_of_the_darkness_and_uses_it_not_after_firing(ruleset: str) -> None:
    """Fear of the Darkness is used instead of shooting: the Librarian alone may fire at the Boyz before it, not after;
    and once he fired, Fear of the Darkness is refused citing the edition's psychic clause."""
    g = running_librarian(ruleset)
    shoot = {"do": "shoot", "unit": "lib", "target": "boyz"}
    assert_legal(g, shoot)
    g.apply(FEAR, dice=ScriptedDice(PASSED))
    assert not g.check(shoot).legal
    g = running_librarian(ruleset)
    g.apply(shoot, dice=ScriptedDice([1] * 6))
    refused = assert_illegal(g, FEAR, PSY_SHOOT[ruleset])
    assert "used instead of shooting" in str(refused)


@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test", "published.fleet-of-foot", "published.fleet")
@EDITIONS
def test_a_failed_psychic_test_spends_no_shooting_the_psyker_may_still_run(ruleset: str) -> None:
    """A failed test (6 + 6 on Ld10, 3rd edition Perils on 12 aside: the test uses a 5 + 6) uses no power: the
    Librarian may still run."""
    g = running_librarian(ruleset)
    g.apply(FEAR, dice=ScriptedDice([5, 6]))
    assert g.state.unit("lib").has(Status.USED_POWER) and not g.state.unit("lib").has(Status.SHOT)
    assert_legal(g, run_of(False), FLEET[ruleset])
