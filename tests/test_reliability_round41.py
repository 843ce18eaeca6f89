"""Reliability round 41: what long random play and mangled input found, each case a plain sequence through the front door.

Run: the long profiles of the sequence fuzzers (``HEROHAMMER_FUZZ=long``: test_40k_sequence_fuzz, test_t9a_sequence_fuzz,
test_fuzz: 600 commands, 150 walks, 150 web tables), random walks over every bundled example checking that ``check``
agrees with ``apply`` on ~260,000 drawn actions (legal and not, off the ``legal_actions`` menu), record and replay
(``Game.replay``, ``play --replay``) of long games with undos, and ~5,000 mangled scenario files (wrong types, huge
numbers, unicode, missing fields) through ``check``, ``play``, ``simulate``, ``odds action``, ``targets``, ``actions``.
The new invariants run in tests/test_play_invariants.py.

Found wrong (each first an xfail(strict=True) test here, shortest sequence):
1. a move ruled legal was refused after its dice (published.difficult-terrain, published.bases-apart): a squad walks
   into woods, one model through the place a squad-mate steps 0.9" aside; with a roll of 2 the cut-short model
   would stand on him and ``apply`` raised "bases may not overlap" after rolling (for some rolls only; a bot's legal
   action refused, a retry a re-roll).  Found as 40k4_librarian_joins_tactical.yaml, 18 steps, then the Warriors'
   move into the woods.  A Fleet run and a consolidation cut short by their D6 shared the code.
2. ``simulate FILE`` with a bad step in the scenario's own ``plan:`` said ``None: --actions[2]: ...`` (a --actions
   never given, no file named); the library and a sweep said ``--actions[2]``.

Fixed: ``movement.cut_short`` and ``movement.stop_clear`` (used by ``_roll_difficult``, ``resolve_run`` and
``resolve_consolidate``, which each had their own copy of the cut): a model cut short steps back along its path to
where its base is clear, the event says so citing published.bases-apart; ``simulate.prepare`` names a step of the
scenario's own plan ``FILE: plan[N]``.  Decision amended: published.bases-apart (where a model cut short stops).  Book
entry: 40k3-a-marine-cut-short-in-woods-stops-where-his-base-is-clear.

The fuzzers' own faults, mended: the 40k sequence fuzz drew from an empty list once the battle was over
(published.game-length), and took a lone character refused as a target for being locked in combat
(published.shooting-into-combat) for a missing character targeting rule.

Considered and left: 40k has no impassable terrain in the texts (``blocking`` hides, it does not stop a move), so
"no model ends inside impassable terrain" is a 9th Age invariant only (``t9a_moves.path_problem`` refuses it); a
base of 10^9 mm is refused as "stands off the table at [x, y]", naming the model's ``at`` rather than ``base``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from herohammer.dice import ScriptedDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.geometry import overlaps
from herohammer.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DEMO_40K3 = ROOT / "src" / "herohammer" / "examples" / "demo_40k3_librarian.yaml"


def _with_bad_plan_step(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The bundled 40k3 demo with its plan's third step naming no power (``power: 7``)."""
    data = yaml.safe_load(DEMO_40K3.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["plan"][2]["power"] = 7
    path = tmp_path / "demo.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path, data


def test_a_bad_step_of_the_scenario_s_own_plan_names_the_file_and_plan(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate FILE`` with no --actions plays the scenario's ``plan:``; a step of it that is no action is refused
    in one line naming the file and ``plan[2]``, not a ``--actions`` the user never gave (nor ``None``)."""
    path, data = _with_bad_plan_step(tmp_path)
    code, out, err = run(["simulate", str(path), "--runs", "3", "--seed", "1", "--method", "engine"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    assert f"{path}: plan[2]: field power" in err and "--actions" not in err and "None" not in err, err
    with pytest.raises(HerohammerError) as refused:  # the library alike: no --actions there either
        simulate(data, 3, seed=1, method="engine", source="demo.yaml")
    assert "demo.yaml: plan[2]: field power" in str(refused.value) and "--actions" not in str(refused.value)


def _squad_at_the_woods(ruleset: str) -> dict[str, Any]:
    """Two Marines in a line west of woods (x 25.5 to 40): Marine 1 walks 4.8" east into them, through the place
    Marine 2 stands, while Marine 2 steps 0.9" aside (the two end 2" apart, base to base: in coherency)."""
    marine = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    return {
        "ruleset": ruleset, "phase": "movement", "active": "red",
        "terrain": [{"id": "woods", "kind": "difficult", "polygon": [[25.5, 20], [40, 20], [40, 40], [25.5, 40]]}],
        "sides": {
            "red": [{"id": "squad", "models": [{"name": "Marine 1", "profile": marine, "base": 25, "at": [21, 30]},
                                               {"name": "Marine 2", "profile": marine, "base": 25, "at": [23, 30]}]}],
            "blue": [{"id": "far", "models": [{"name": "Ork", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+",
                                               "at": [60, 45]}]}],
        },
    }


@pytest.mark.rule("published.difficult-terrain", "published.bases-apart")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_model_cut_short_by_difficult_terrain_stops_where_its_base_is_clear(ruleset: str) -> None:
    """Found by random play (40k4_librarian_joins_tactical.yaml, Necron Warriors walking into the woods): a move ruled
    legal was refused after the dice, for some rolls only, because a model cut short by the roll would have stood on
    a squad-mate.  The unit moves *up to* the highest die (published.difficult-terrain) and no base may end on
    another (published.bases-apart): a model cut short whose place along its path is taken stops further back on its
    path, where its base is clear.  A roll of 2: Marine 1 would stop on (23, 30), 0.9" from Marine 2's new place."""
    g = Game.from_data(_squad_at_the_woods(ruleset))
    move = {"do": "move", "unit": "squad", "to": [[25.8, 30], [23, 30.9]]}
    assert g.check(move).legal
    before = g.state
    events = g.apply(move, dice=ScriptedDice([2, 1]))
    said = next(e for e in events if e.kind == "difficult_terrain")
    assert "rolls 2\" for difficult terrain, and stops short; Marine 1 stops 1.60\" along the way" in said.message
    assert "published.bases-apart" in said.rules
    first, second = g.state.unit("squad").models
    assert second.at == (23, 30.9)  # a 0.9" move: whole
    assert first.at[1] == 30 and 21 <= first.at[0] <= 23, first.at  # on its path, short of the roll's 2"
    assert not overlaps(first.placed, second.placed)
    assert first.at[0] >= 23 - 0.397 - 0.05, first.at  # as far along as its base is clear (0.397" back), to 1/20"
    g.undo()
    assert g.state is before
    events = g.apply(move, dice=ScriptedDice([3, 1]))  # a 3: Marine 1 stops at (24, 30), clear; nothing changes
    assert g.state.unit("squad").models[0].at == (24, 30)
