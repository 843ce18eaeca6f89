"""A judge's cases for The 9th Age's character rules (seed 002), played through the front door.

Each case follows a sequence in which the state changes around a character (it is slain in its
unit, charges out and fails, leaves and comes back, is left the last of its unit) and asserts
what the seed's text and the published rulebook say: the legal and the illegal step, the clause
cited, and that a refused step changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.rulesets.t9a_units import is_destroyed
from herohammer.units import Status
from test_t9a_rules import HERO, refused, scenario
from _t9a import play_to, reloading_game, reloads

SHAKEN = "published.t9a-shaken"
CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs"}








def _archers_turn(n: int, **kw: Any) -> dict[str, Any]:
    """The Hero in Spearmen of ``n``; the orc archers 14" away, in their own Shooting phase."""
    data = scenario(n=n, files=min(n, 5), joined=True, phase="shooting", enemy_y=34, **kw)
    data["active"] = "orcs"
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["bow"]
    return data


# -- a character slain while joined ------------------------------------------------------------
@pytest.mark.rule("t9a.join.part-of-unit", "t9a.leave.when")
def test_a_character_slain_in_its_unit_is_part_of_no_unit_and_cannot_leave_it() -> None:
    g = reloading_game(_archers_turn(1))
    # one spearman: the 5 hits are shared, 3 on the Hero the orcs name, 2 on the spearman (no wound);
    # the Hero's 3 wound (5+), none saved: slain; 1 of 2 models lost: a Panic test, passed
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"},
            ScriptedDice([6] * 5 + [1, 1] + [6] * 3 + [1] * 3 + [1, 1]))
    hero, spears = g.state.unit("hero"), g.state.unit("spears")
    assert not hero.alive and hero.joined is None  # a slain character is part of no unit
    assert len(spears.models) == 1 and spears.formation is not None and "Hero" not in spears.formation.order
    assert g.state.joined_to("spears") == []
    reloads(g)
    play_to(g, "charge", "elves")
    refused(g, {"do": "leave", "character": "hero", "to": [36, 14]}, "t9a.leave.when")  # one clear line, no traceback
    assert "no models left" in g.check({"do": "leave", "character": "hero", "to": [36, 14]}).reason
    play_to(g, "movement", "elves")
    refused(g, {"do": "join", "character": "hero", "unit": "spears", "rank_choice": "widen"}, "t9a.join.move")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal  # the unit moves on without him


@pytest.mark.rule("t9a.charge-out.stand-and-shoot", "t9a.charge-out.no-other-charges")
def test_stand_and_shoot_that_slays_a_character_charging_out_leaves_the_unit_whole_and_without_a_charge() -> None:
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"]))
    # 5 shots BS3 -1: hit 5+; S3 against T4: 5+; Sv4+: all hit, all wound, none saved: 5 wounds on the Hero alone
    # then the Spearmen's Panic test, passed: the Hero is a unit destroyed beside them (published.t9a-panic, round 29b)
    events = g.apply(CHARGE_OUT, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    charge = next(e for e in events if e.kind == "charge")
    assert dict(charge.data)["outcome"] == "slain" and "t9a.charge-out.stand-and-shoot" in charge.rules
    hero, spears = g.state.unit("hero"), g.state.unit("spears")
    assert not hero.alive and hero.joined is None
    assert len(spears.models) == 10  # every hit was the Hero's
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges")
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal  # not Shaken: the charge did not fail
    reloads(g)


# -- a failed charge out: the unit Shaken ------------------------------------------------------
def _bows(data: dict[str, Any]) -> dict[str, Any]:
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    return data


@pytest.mark.rule("t9a.charge-out.failure")
def test_a_unit_shaken_by_a_failed_charge_out_does_not_move_reform_leave_or_shoot_until_the_turn_ends() -> None:
    mage = {"id": "mage", "character": "independent",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [32.5, 19]}]}
    g = reloading_game(_bows(scenario(joined=True, phase="charge", enemy_y=36, extra=[mage])))
    events = g.apply(CHARGE_OUT, ScriptedDice([1, 1]))  # 5" + 2" < 16": a 1" Failed Charge move, still in the unit
    assert dict(events[-1].data)["outcome"] == "failed_stayed_shaken"
    assert g.state.unit("spears").has(Status.SHAKEN) and g.state.unit("hero").joined == "spears"
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 22]]}, SHAKEN)
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 22]], "march": True}, "t9a.charge-out.failure")
    refused(g, {"do": "reform", "unit": "spears", "facing": 90}, SHAKEN)
    refused(g, {"do": "leave", "character": "hero", "to": [30, 14]}, SHAKEN)
    # a character that is not Shaken may still join the Shaken unit (it then stands in it, bound by its Shaken)
    join = {"do": "join", "character": "mage", "unit": "spears", "position": 0}
    assert g.check(join).legal
    g.apply(join)
    play_to(g, "shooting", "elves")
    refused(g, {"do": "shoot", "unit": "spears", "target": "orcs"}, SHAKEN)
    play_to(g, "charge", "orcs")
    assert not any(u.has(Status.SHAKEN) for u in g.state.units)  # until the end of the player turn only
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal


@pytest.mark.rule("t9a.charge-out.failure", "t9a.char.lone")
def test_a_failed_charge_out_that_takes_the_character_away_leaves_the_unit_free_and_him_alone() -> None:
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=36))
    events = g.apply(CHARGE_OUT, ScriptedDice([1, 6]))  # 5" + 7" < 16": a 6" Failed Charge move, out of the unit
    assert dict(events[-1].data)["outcome"] == "failed_left"
    hero, spears = g.state.unit("hero"), g.state.unit("spears")
    assert hero.joined is None and not spears.has(Status.SHAKEN) and not hero.has(Status.SHAKEN)
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges")
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal
    refused(g, {"do": "move", "unit": "hero", "to": [[30, 28]]}, "published.t9a-move")  # it charged this turn
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.move")


# -- leaving and joining in one phase ----------------------------------------------------------
@pytest.mark.rule("t9a.leave.when", "t9a.leave.unit-not-moved", "t9a.join.move")
def test_a_character_that_left_does_not_join_again_that_phase_and_its_unit_still_moves() -> None:
    g = reloading_game(scenario(joined=True))
    g.apply({"do": "leave", "character": "hero", "to": [36, 26]})
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.move")
    refused(g, {"do": "leave", "character": "hero", "to": [36, 28]}, "t9a.char.lone")
    g.apply({"do": "move", "unit": "spears", "to": [[36, 22]]})  # the unit it left has not moved: it moves now
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 23]]}, "published.t9a-move")  # and only once
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    assert g.check({"do": "join", "character": "hero", "unit": "spears"}).legal  # next turn it may join again


@pytest.mark.rule("t9a.join.unit-stops", "t9a.join.moved-separately")
def test_a_unit_that_moved_may_still_be_joined_and_then_moves_no_more() -> None:
    g = reloading_game(scenario(hero_at=(36, 26)))
    g.apply({"do": "move", "unit": "spears", "to": [[36, 22]]})
    join = {"do": "join", "character": "hero", "unit": "spears"}
    assert g.check(join).legal
    g.apply(join)
    assert g.state.unit("hero").has(Status.MOVED) and not g.state.unit("hero").has(Status.MARCHED)
    refused(g, {"do": "reform", "unit": "spears", "facing": 90}, "t9a.join.unit-stops")
    refused(g, {"do": "leave", "character": "hero", "to": [36, 27]}, "t9a.leave.when")  # it moved to join


# -- charging out: the unit and the other characters ---------------------------------------------
@pytest.mark.rule("t9a.charge-out.no-other-charges", "t9a.charge-out.success")
def test_after_a_successful_charge_out_neither_the_unit_nor_its_other_character_charges_but_the_unit_moves() -> None:
    mage = {"id": "mage", "character": "independent", "joined": "spears",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]}
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=30, extra=[mage]))
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    assert dict(events[-1].data)["outcome"] == "charged"
    assert g.state.unit("hero").joined is None and g.state.unit("hero").has(Status.ENGAGED)
    assert not g.state.unit("spears").has(Status.ENGAGED)
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges")
    refused(g, {"do": "charge", "unit": "mage", "target": "orcs"}, "t9a.charge-out.no-other-charges")
    play_to(g, "movement", "elves")
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal


@pytest.mark.rule("t9a.charge-out.no-other-charges", "t9a.charge-out.declare")
def test_a_character_does_not_charge_out_of_a_unit_that_declared_its_own_failed_charge() -> None:
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=36))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([1, 1]))
    assert dict(events[-1].data)["outcome"] == "failed_left"
    refused(g, CHARGE_OUT, "t9a.charge-out.no-other-charges")


# -- the last survivor of a combined unit ------------------------------------------------------
@pytest.mark.rule("t9a.combined.last-survivor", "t9a.char.lone")
def test_the_last_survivor_of_a_unit_shot_down_moves_charges_and_is_joined_as_that_unit_next_turn() -> None:
    mage = {"id": "mage", "character": "independent",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [31, 17]}]}
    g = reloading_game(_archers_turn(2, extra=[mage]))
    # 5 hit (5+), 2 of them wound (5+) and are not saved: both spearmen fall; the Hero alone tests (Ld 9, rolls 6)
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1] + [3, 3]))
    assert "t9a.combined.last-survivor" in events[-1].rules  # the Panic test is the Hero's alone
    hero = g.state.unit("hero")
    assert hero.alive and hero.joined is None and hero.last_of == "spears"
    assert not is_destroyed(g.state, "spears")
    reloads(g)
    play_to(g, "charge", "elves")
    refused(g, {"do": "leave", "character": "hero", "to": [36, 14]}, "t9a.char.lone")
    ruling = g.check(CHARGE_OUT)
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    play_to(g, "movement", "elves")
    ruling = g.check({"do": "move", "unit": "hero", "to": [[36, 18]]})
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    join = {"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen"}  # a unit of characters
    assert g.check(join).legal
    g.apply(join)
    assert g.state.unit("mage").joined == "hero"
    refused(g, {"do": "move", "unit": "hero", "to": [[36, 18]]}, "t9a.join.unit-stops")


# -- where a character stands ----------------------------------------------------------------
@pytest.mark.rule("t9a.join.position", "t9a.char.front-rank")
def test_a_character_joining_a_full_front_rank_pushes_a_model_back_and_keeps_every_model_in_the_unit() -> None:
    g = reloading_game(scenario(n=10, files=5))
    g.apply({"do": "join", "character": "hero", "unit": "spears", "position": 4})
    f = g.state.unit("spears").formation
    assert f is not None and f.files == 5 and f.front_rank()[4] == "Hero"
    assert sorted(f.order) == sorted([*(f"s{i}" for i in range(10)), "Hero"])
    assert f.rank_of("s4") >= 1  # the spearman it displaced stands behind now


@pytest.mark.rule("t9a.join.single-rank", "t9a.join.position")
def test_a_character_joining_a_single_rank_widens_it_or_sends_one_model_back_as_the_player_chooses() -> None:
    g = reloading_game(scenario(n=5, files=5))
    refused(g, {"do": "join", "character": "hero", "unit": "spears", "position": 1}, "t9a.join.single-rank")
    wide = reloading_game(scenario(n=5, files=5))
    wide.apply({"do": "join", "character": "hero", "unit": "spears", "position": 1, "rank_choice": "widen"})
    f = wide.state.unit("spears").formation
    assert f is not None and (f.files, f.ranks) == (6, 1)
    deep = reloading_game(scenario(n=5, files=5))
    deep.apply({"do": "join", "character": "hero", "unit": "spears", "position": 1, "rank_choice": "second_rank"})
    f = deep.state.unit("spears").formation
    assert f is not None and (f.files, f.ranks) == (5, 2) and f.rank_of("s1") == 1


@pytest.mark.rule("t9a.combined.last-survivor")
def test_the_destroyed_units_name_is_its_last_survivor_for_shooting_moving_and_charging() -> None:
    g = reloading_game(_archers_turn(2))
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
            ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1] + [3, 3]))
    assert not g.state.unit("spears").alive and g.state.unit("hero").last_of == "spears"
    play_to(g, "charge", "elves")
    ruling = g.check({"do": "charge", "unit": "spears", "target": "orcs"})  # the Spearmen are the Hero now
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules and "hero charges" in ruling.reason
    play_to(g, "movement", "elves")
    ruling = g.check({"do": "move", "unit": "spears", "to": [[36, 18]]})
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    g.apply({"do": "move", "unit": "spears", "to": [[36, 18]]})
    assert g.state.unit("hero").has(Status.MOVED)
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 17]]}, "published.t9a-move")  # it moved, as the Hero
    play_to(g, "shooting", "orcs")
    ruling = g.check({"do": "shoot", "unit": "orcs", "target": "spears"})
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5))
    assert "slain: Hero" in events[0].message and "t9a.combined.last-survivor" in events[0].rules
    assert is_destroyed(g.state, "spears")  # with its last survivor gone, the unit is destroyed
    assert g.ruleset.targets(g.state, "orcs") == {}  # nothing of it is left to aim at


@pytest.mark.rule("t9a.join.part-of-unit")
def test_a_character_in_a_unit_is_charged_through_its_unit_never_alone() -> None:
    data = scenario(joined=True, phase="charge", enemy_y=30)
    data["active"] = "orcs"
    g = reloading_game(data)
    refused(g, {"do": "charge", "unit": "orcs", "target": "hero"}, "t9a.join.part-of-unit")
    assert all(getattr(a, "target", None) != "hero" for a in g.legal_actions())
    events = g.apply({"do": "charge", "unit": "orcs", "target": "spears"}, ScriptedDice([6, 6]))
    assert dict(events[-1].data)["outcome"] == "charged" and g.state.unit("spears").has(Status.ENGAGED)
    play_to(g, "charge", "elves")  # locked in the combat, the unit and its Hero neither charge nor leave
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "published.t9a-charge")
    refused(g, CHARGE_OUT, "t9a.charge-out.declare")
    refused(g, {"do": "leave", "character": "hero", "to": [30, 14]}, "t9a.leave.when")


def _conclave(**kw: Any) -> dict[str, Any]:
    """Three Spearmen of a Wizard Conclave, its champion in the middle, charging (or shot by) orc archers 8" away."""
    data = scenario(n=3, files=3, hero_at=(10, 10), enemy_y=28, enemy_rules=["Stand and Shoot"], roles={1: "champion"},
                    host_rules=["Wizard Conclave (Fireball, Flame Cage, Burning Head)"], **kw)
    data["sides"]["elves"][0]["spells"] = ["Fireball", "Flame Cage"]
    return data


@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_stand_and_shoot_leaves_a_wizard_conclaves_champion_its_extra_wound_and_takes_it_last() -> None:
    # 5 shots all hit, 3 wound, none saved: the two spearmen fall, the champion (W1 + 1) keeps a Wound
    g = reloading_game(_conclave(phase="charge"))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs"},
                     ScriptedDice([6] * 5 + [6, 6, 6, 1, 1] + [1, 1, 1] + [1, 1] + [6, 6]))
    assert dict(events[-1].data)["outcome"] == "charged"
    [champion] = g.state.unit("spears").models
    assert (champion.name, champion.wounds_taken) == ("s1", 1)
    # the orcs' own volley, three unsaved wounds, does the same
    data = _conclave(phase="shooting")
    data["active"] = "orcs"
    shot = reloading_game(data)
    shot.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
               ScriptedDice([6] * 5 + [6, 6, 6, 1, 1] + [1, 1, 1] + [1, 1]))
    assert [(m.name, m.wounds_taken) for m in shot.state.unit("spears").models] == [("s1", 1)]


def _next_volley(g: Game) -> None:
    """Play on to the orcs' next Shooting phase."""
    play_to(g, "charge", "elves")
    play_to(g, "shooting", "orcs")


@pytest.mark.rule("t9a.join.part-of-unit")
def test_hits_reach_the_character_only_once_its_unit_has_shrunk_and_then_as_equally_as_possible() -> None:
    g = reloading_game(_archers_turn(6))
    at_hero = {"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"}
    refused(g, at_hero, "t9a.join.part-of-unit")  # six rank and file: the hits are theirs
    # 2 hit (5+), 2 wound (4+), none saved: two spearmen fall, 2 of 7 models: a Panic test on the Hero's Ld 9
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6, 6, 1, 1, 1] + [6, 6] + [1, 1] + [1, 1]))
    assert "Ld 9" in events[-1].message
    _next_volley(g)
    assert g.check(at_hero).legal  # four rank and file left: the orcs may name the Hero
    # 5 hits on 5 models: one each, the Hero's own (wounded on 5+ against T4, saved on 4+) slays no one
    events = g.apply(at_hero, ScriptedDice([6] * 5 + [1] * 4 + [6] + [1]))
    assert "4 hits, 0 unsaved on spears; 1 hit, 1 unsaved on hero" in events[0].message
    assert [e.kind for e in events] == ["shoot"] and g.state.unit("hero").models[0].wounds_taken == 1


@pytest.mark.rule("t9a.leave.when", "t9a.join.part-of-unit")
def test_a_character_whose_unit_charged_moved_with_it_and_does_not_leave_it_that_turn() -> None:
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=36))
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([1, 1]))
    assert dict(events[-1].data)["outcome"] == "failed_left"  # the unit's 1" Failed Charge move, the Hero with it
    assert g.state.unit("hero").has(Status.CHARGED)
    leave = {"do": "leave", "character": "hero", "to": [30, 14]}
    refused(g, leave, "t9a.leave.when")  # it has moved this phase
    play_to(g, "movement", "elves")
    refused(g, leave, "t9a.leave.when")  # a charger does not move in the Movement phase
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 22]]}, "published.t9a-move")
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    assert g.check(leave).legal  # a new turn
    # a charge that reaches its target: the Hero charged with the unit and is locked in the combat with it
    won = reloading_game(scenario(joined=True, phase="charge", enemy_y=30))
    won.apply({"do": "charge", "unit": "spears", "target": "orcs"}, ScriptedDice([6, 6]))
    assert won.state.unit("hero").has(Status.CHARGED)
    refused(won, leave, "t9a.leave.when")  # engaged with its unit, and moved


@pytest.mark.rule("t9a.combined.last-survivor")
def test_a_fleeing_last_survivor_rallies_under_its_units_name_on_its_own_leadership() -> None:
    data = scenario(n=2, files=2, joined=True, phase="charge", enemy_y=40)
    data["sides"]["elves"][0].update(models=[], destroyed=True)
    del data["sides"]["elves"][0]["formation"]
    data["sides"]["elves"][1].update(joined=None, last_of="spears", status=["fleeing"])
    data["sides"]["elves"][1]["models"][0]["at"] = [36, 20]
    g = reloading_game(data)
    ruling = g.check({"do": "rally", "unit": "spears"})  # the Spearmen are the Hero now
    assert ruling.legal and "Ld 9" in ruling.reason
    refused(g, {"do": "end_phase"}, "published.t9a-rally")  # the Rally test is owed first
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([4, 5]))  # 9 against the Hero's Ld 9
    assert dict(events[-1].data)["outcome"] == "rallied" and not g.state.unit("hero").has(Status.FLEEING)


@pytest.mark.rule("t9a.join.character-units", "t9a.join.part-of-unit")
def test_the_leader_of_a_unit_of_characters_leaves_it_before_joining_another_unit() -> None:
    mage = {"id": "mage", "character": "independent",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [37, 26]}]}
    g = reloading_game(scenario(hero_at=(36, 25), extra=[mage]))
    g.apply({"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen", "position": 1})
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    join = {"do": "join", "character": "hero", "unit": "spears"}
    # round 38: a character joins another unit by one move out of his own (t9a.join.move's decision); the leader of
    # a unit of characters leaves it to the Mage, who leads it on (before, he was refused: "leave it first")
    ruling = g.check(join)
    assert ruling.legal and "t9a.leave.when" in ruling.rules, ruling
    assert ruling.reason.startswith("hero leaves the unit of characters he led and joins spears"), ruling
    assert any(a.do == "join" and getattr(a, "character", "") == "hero" for a in g.legal_actions())
    branch = Game(g.state)
    branch.apply(join)
    assert branch.state.unit("hero").joined == "spears" and branch.state.unit("mage").joined is None
    assert not branch.state.joined_to("mage") and "halted" not in branch.state.unit("mage").status
    g.apply({"do": "leave", "character": "mage", "to": [39, 27]})  # the unit of characters is the Hero alone again
    assert g.check(join).legal


@pytest.mark.rule("t9a.char.front-rank")
def test_a_gap_left_in_a_first_rank_of_characters_is_filled_by_the_front_rank_model_behind() -> None:
    chars = [{"id": f"c{i}", "character": "independent", "joined": "spears",
              "models": [{"name": f"C{i}", "profile": HERO, "base": [20, 20]}]} for i in range(3)]
    data = scenario(n=4, files=3, joined=True, extra=chars)
    hero = next(u for u in data["sides"]["elves"] if u["id"] == "hero")
    hero["models"][0]["profile"] = HERO.replace("W3", "W1")  # one hit of the five shared can slay him
    data["sides"]["elves"][0]["formation"]["order"] = ["C0", "Hero", "C1", "C2", "s0", "s1", "s2", "s3"]
    g = reloading_game(data)  # a first rank of characters: the fourth may stand behind it
    g.apply({"do": "leave", "character": "hero", "to": [36, 23]})
    f = g.state.unit("spears").formation
    assert f is not None and f.front_rank() == ("C0", "C2", "C1")  # C2 steps up, not a spearman
    assert sorted(f.order) == sorted(["C0", "C1", "C2", "s0", "s1", "s2", "s3"])
    reloads(g)  # a legal formation, which a saved game loads back
    # a character slain in the first rank leaves the same gap, filled the same way
    shot = dict(data, phase="shooting", active="orcs")
    for m in shot["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["bow"]
    g = reloading_game(shot)
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"},  # one hit each: the Hero's slays him
            ScriptedDice([6] * 5 + [1] * 4 + [6] + [1]))
    f = g.state.unit("spears").formation
    assert not g.state.unit("hero").alive and f is not None and f.front_rank() == ("C0", "C2", "C1")
    reloads(g)
