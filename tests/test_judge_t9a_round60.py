"""Round 60: DOCSTRING."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from _cli import printed
from _t9a import HERO, exact_odds_as_brute_force, offered, play_to, reloading_game, saved_and_loaded, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game

DECLARE = "t9a.charge-out.declare"
NO_OTHER = "t9a.charge-out.no-other-charges"
CHARGE = "published.t9a-charge"
PART = "t9a.join.part-of-unit"
LEAVE_WHEN = "t9a.leave.when"
RALLY = "published.t9a-rally"
LAST = "t9a.combined.last-survivor"
LONE = "t9a.char.lone"
D6 = range(1, 7)


def _refused_citing(g: Game, action: dict[str, Any], cites: set[str], not_cited: set[str], text: str) -> None:
    """The action is refused with ``text``, citing every id of ``cites`` and none of ``not_cited``; applying it
    changes nothing."""
    before = g.state
    ruling = g.check(action)
    assert not ruling.legal and text in ruling.reason, ruling
    assert cites <= set(ruling.rules) and not not_cited & set(ruling.rules), ruling
    with pytest.raises(ValueError):
        g.apply(action)
    assert g.state is before


# -- 1. a Hero whose unit charged: what refuses his charge out is his unit's charge, his own ------------------------------
@pytest.mark.rule(CHARGE, DECLARE, PART, LEAVE_WHEN, NO_OTHER)
def test_a_hero_whose_unit_charged_is_refused_his_charge_out_for_the_charge_he_made_with_it() -> None:
    # The Spearmen charge the orcs and fail (1 1); the Hero, part of the unit for every rule (t9a.join.part-of-unit),
    # charged with it and moved with its Failed Charge Move (t9a.leave.when, round 30): a unit that has declared a
    # charge or moved this turn declares none (published.t9a-charge), and his charge out is made under the general
    # charge rules (t9a.charge-out.declare). Seed 002 also says "in the player turn when a character charges out,
    # neither the unit nor any other character in it may declare a charge": a charge out now would put the two in one
    # player turn, whichever came first, so that clause is cited beside them (decision, round 60). A save and load
    # between; before the unit's charge his charge out is legal.
    g = reloading_game(scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32))
    start = g.state
    g.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([1, 1]))
    g = saved_and_loaded(g)
    _refused_citing(g, {"do": "charge", "unit": "hero", "target": "orcs"}, {CHARGE, DECLARE, PART, LEAVE_WHEN, NO_OTHER},
                    set(), "spears charged this turn: hero, part of it, cannot declare a charge out of it")
    g = Game(start)
    assert g.check({"do": "charge", "unit": "hero", "target": "orcs"}).legal


# -- 2. a Hero whose unit rallied: his charge out is refused as part of the unit that rallied ------------------------------
@pytest.mark.rule(RALLY, PART, DECLARE, CHARGE)
def test_a_hero_whose_unit_rallied_is_refused_his_charge_out_as_part_of_it() -> None:
    # The Spearmen and their Hero flee; in the elves' Charge phase the Rally is the unit's with him in it (2 3 against
    # the highest Discipline, his Ld 9): passing, the unit counts as having marched (published.t9a-rally), and so does
    # he, who rallied as part of it (t9a.join.part-of-unit): his charge out is refused, citing both and naming spears.
    data = scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=32, spear_status=["fleeing"],
                    hero_status=["fleeing"])
    g = reloading_game(data)
    g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([2, 3]))
    g = saved_and_loaded(g)
    _refused_citing(g, {"do": "charge", "unit": "hero", "target": "orcs"}, {RALLY, PART, DECLARE, CHARGE}, set(),
                    "it rallied this turn")
    assert "spears" in g.check({"do": "charge", "unit": "hero", "target": "orcs"}).reason


# -- 3. a lone Hero as the target of a shot: a unit of one model, every hit his ------------------------------------------
@pytest.mark.rule(LONE, PART, "published.t9a-shooting")
def test_a_lone_hero_is_a_target_of_his_own_and_a_joined_one_is_not() -> None:
    # t9a.char.lone: a character on his own acts as a single-model unit and follows all the rules for units, so the
    # orcs may shoot him; joined to the Spearmen he is part of them (t9a.join.part-of-unit), never a target alone. Two
    # orc archers (BS3: 4+ to hit, within half the bow's 24", no long range), S3 against his T4 (5+), his 4+ save fails
    # on 1-3: each arrow wounds him with 1/2 * 1/3 * 1/2 = 1/12. The count over his wounds equals the engine's exact
    # odds and brute force over every die; played (6 6 5 5 1 1: two wounds of his three), undone.
    lone = scenario(n=10, orcs=2, phase="shooting", active="orcs", joined=False, hero_at=(36, 24), enemy_y=30)
    g = reloading_game(lone)
    targets = g.ruleset.targets(g.state, "orcs")
    assert targets["hero"].legal and targets["spears"].legal, targets
    joined = reloading_game(scenario(n=10, orcs=2, phase="shooting", active="orcs", enemy_y=30))
    alone = joined.ruleset.targets(joined.state, "orcs")
    assert not alone["hero"].legal and PART in alone["hero"].rules, alone["hero"]
    action = {"do": "shoot", "unit": "orcs", "target": "hero"}
    shot = Fraction(1, 12)
    count = {0: (1 - shot) ** 2, 1: 2 * shot * (1 - shot), 2: shot ** 2}
    engine: dict[int, Fraction] = {}
    for outcome, weight in exact_odds_as_brute_force(g.state, action):
        assert outcome.wounds("spears") == 0, outcome
        engine[outcome.wounds("hero")] = engine.get(outcome.wounds("hero"), Fraction(0)) + Fraction(weight)
    assert engine == count
    before = g.state
    g.apply(action, ScriptedDice([6, 6, 5, 5, 1, 1]))
    assert g.state.unit("hero").models[0].wounds_taken == 2 and g.state.unit("hero").alive
    g.undo()
    assert g.state == before


# -- 4. a unit shooting with its Hero: he fires as one of its models, with his own BS ------------------------------------
@pytest.mark.rule(PART, "published.t9a-shooting", "published.t9a-to-hit-range")
def test_the_spearmen_shoot_with_their_hero_who_fires_his_bow_on_his_own_ballistic_skill() -> None:
    # The Spearmen carry no missile weapon; their Hero a bow. The unit shoots as one (t9a.join.part-of-unit: each
    # model with a missile weapon fires once, a character with his own BS): one arrow, BS6 (2+ to hit: a natural 1
    # fails), S3 against the orcs' T4 (5+), their 6+ save fails on 1-5: an orc slain with 5/6 * 1/3 * 5/6 = 25/108,
    # counted, equal to the engine's exact odds and brute force. Asked of the Hero's name it is refused: he is part
    # of the unit, which shoots. Played after a save and load, undone.
    g = reloading_game(scenario(n=10, orcs=5, phase="shooting", active="elves", enemy_y=30, hero_weapons=["bow"]))
    action = {"do": "shoot", "unit": "spears", "target": "orcs"}
    assert g.check(action).legal
    own = g.check({"do": "shoot", "unit": "hero", "target": "orcs"})
    assert not own.legal and PART in own.rules, own
    engine: dict[int, Fraction] = {}
    for outcome, weight in exact_odds_as_brute_force(g.state, action):
        slain = outcome.lost("orcs")
        engine[slain] = engine.get(slain, Fraction(0)) + Fraction(weight)
    assert engine == {1: Fraction(25, 108), 0: Fraction(83, 108)}
    g = saved_and_loaded(g)
    before = g.state
    g.apply(action, ScriptedDice([2, 5, 5]))
    assert len(g.state.unit("orcs").models) == 4
    g.undo()
    assert g.state == before


# -- 5. the last survivor: undone, played again, recorded and played back; then he charges as the unit ------------------
@pytest.mark.rule(LAST, LONE, CHARGE)
def test_the_last_survivor_undone_replayed_from_its_record_charges_as_the_unit_by_either_name(tmp_path: Path) -> None:
    # The orcs shoot both Spearmen dead; the Hero is all that is left and is that unit (t9a.combined.last-survivor).
    # An undo gives the two Spearmen back; played again with the same dice, saved with its record and played back
    # (Game.replay) to the same state. The elves' next Charge phase: his charge asked as spears or as hero is the same
    # ruling, a lone unit's (t9a.char.lone) on his own 5" + 2D6, not a charge out (he has no unit to leave, so no
    # bar on another's charge follows it); `herohammer rules` states the clause.
    data = scenario(n=2, orcs=10, phase="shooting", active="orcs", enemy_y=34)
    g = reloading_game(data)
    start = g.state
    volley = [6] * 20 + [1] * 30
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(volley))
    assert g.state.unit("hero").last_of == "spears" and not g.state.unit("hero").joined
    g.undo()
    assert g.state == start and len(g.state.unit("spears").models) == 2
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(volley))
    assert "slain: s0, s1" in events[0].message, events
    path = tmp_path / "survivor.yaml"
    g.save(path, record=True)
    back = Game.replay(path)
    assert back.state == g.state and back.actions == g.actions
    play_to(back, "charge", "elves")
    by_unit = back.check({"do": "charge", "unit": "spears", "target": "orcs"})
    by_hero = back.check({"do": "charge", "unit": "hero", "target": "orcs"})
    assert by_unit.legal and by_hero.legal and by_unit.reason == by_hero.reason, (by_unit, by_hero)
    assert DECLARE not in by_hero.rules and "5\" + 2D6" in by_hero.reason, by_hero
    said = json.loads(printed("rules", LAST, "--json"))["result"]
    assert [r["id"] for r in said] == [LAST] and "last" in said[0]["says"], said
