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
2. a legal 9th Age charge was refused after its dice, or walked through a unit (published.t9a-failed-charge,
   published.t9a-move, published.bases-apart): the charged unit Flees (its Charge Reaction) past a lone character
   behind it, the charger fails its charge and its Failed Charge move, straight towards where the unit fled, ended
   on the character ("o2 of orcs would end standing on Hero of hero: bases may not overlap", for some rolls only) or,
   further on, passed through him.  Found as demo_t9a_wizard_charges_out.yaml, 32 steps and an undo (the orc
   archers charging the spearmen, who flee past the Wizard), by a walk holding ``Game.apply`` to a fresh game's.

Fixed: 1. ``records._dice`` refuses a record's seed longer than the largest (2**64-1, ``guards.MAX_SEED``) or larger
   than it, naming ``played.seed`` (the value quoted cut short).
2. ``ChargeRules._cut_short`` (t9a_charges.py; was ``_flown_short``, for a Flying charge alone): a Failed Charge
   move on the ground stops short where its way is last clear (published.t9a-move), the event saying how far it went
   and what stood in its way.  Decision amended: published.t9a-failed-charge.  Book entry:
   t9a-a-failed-charge-move-stops-before-a-unit-in-its-way.

Considered and left: an IllegalActionError's message begins "illegal action:", so a record's illegal step reads
"illegal action: FILE: played.actions[1] (step 2): illegal at this point of the game: ..." (the file named, not
first); a record whose edited faces or dropped no-op step still reach the state saved beside it replays (the record
is consistent with its dice and its end: nothing tells it from a game so played).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run
from _t9a import scenario as t9a_scenario
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.geometry import overlaps
from herohammer.scenario import state_from_data

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


#: Half the side of an orc's 25 mm base and of the Hero's 20 mm one, in inches.
ORC_HALF, HERO_HALF = 25 / 25.4 / 2, 20 / 25.4 / 2


def _flee_past_the_hero(hero_y: float) -> Game:
    """Orcs 1" in front of the spearmen (front edge at y 20, two ranks to y 18.4) in the Charge phase; the lone Hero
    (20 mm) stands behind the spearmen at (36, hero_y)."""
    return Game(state_from_data(t9a_scenario(phase="charge", joined=False, hero_at=(36, hero_y), enemy_y=21.0)))


@pytest.mark.rule("published.t9a-failed-charge", "published.t9a-move", "published.bases-apart")
@pytest.mark.parametrize("hero_y", [16.3, 17.5])
def test_a_failed_charge_move_stops_before_a_unit_in_its_way(hero_y: float) -> None:
    """The spearmen Flee 11" (6, 5) through the Hero's place and end clear beyond him; the orcs roll 5 and 2 (Charge
    Range 11" < 12"), fail, and make their Failed Charge move of 5" straight towards the spearmen.  No model moves
    through another unit nor ends on one (published.t9a-move): the move stops short where the Hero stands in its way,
    the event says so citing published.t9a-move.  With the Hero at y 16.3 the whole move would end on him (a legal
    action refused after its dice), at 17.5 pass through him."""
    g = _flee_past_the_hero(hero_y)
    charge = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee"}
    assert g.check(charge).legal
    events = g.apply(charge, dice=ScriptedDice([6, 5, 5, 2]))
    failed = events[-1]
    assert "orcs fails its charge (11\" < 12.00\")" in failed.message, failed.message
    assert "stops short" in failed.message and "hero" in failed.message, failed.message
    assert {"published.t9a-failed-charge", "published.t9a-move"} <= set(failed.rules), failed.rules
    hero = g.state.unit("hero").models[0]
    orcs = g.state.unit("orcs").models
    assert all(not overlaps(o.placed, hero.placed) for o in orcs)
    front = min(o.at[1] for o in orcs) - ORC_HALF  # the orcs' front edge
    assert hero.at[1] + HERO_HALF <= front + 0.01, (front, hero.at)  # the Hero's near edge: the orcs stop at it
    assert front < 21.0 - 0.5  # they moved on as far as the way is clear
    g.undo()
    g.apply(charge, dice=ScriptedDice([6, 5, 1, 1]))  # a Failed Charge move of 1": clear, whole, nothing said
    assert "stops short" not in g.log[-1].message
    assert min(o.at[1] for o in g.state.unit("orcs").models) == pytest.approx(21.0 + ORC_HALF - 1)
