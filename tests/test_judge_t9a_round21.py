"""Judge round 21 (judge21u): The 9th Age rulings that must hold once the state changes around a character, played
through Game (the public front door) as a judge sets them: a unit shot down to its character (the last survivor,
t9a.combined.last-survivor) who flees, rallies and joins another unit; a character who charges out of his unit while
the unit stays behind (t9a.charge-out.*); a Wizard whose Miscast makes his unit panic, and the character who would
leave the fleeing unit or, once it rallies, move on that turn (t9a.leave.when, published.t9a-rally); a character
caught with his broken unit by the pursuit; a refused Duel's Discipline 0 on a character alone (seed 004's values of
0, published.t9a-duel).  Every roll through ScriptedDice, every ruling's cited ids checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import (HERO, SPEAR, STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, play_to, refused, reloads,
                  scenario)
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

RALLY = "published.t9a-rally"
PANIC = "published.t9a-panic"
LAST = "t9a.combined.last-survivor"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
JOIN_GUARDS = {"do": "join", "character": "hero", "unit": "guards", "rank_choice": "widen"}


def _guards(data: dict[str, Any], at: tuple[float, float] = (46, 14)) -> dict[str, Any]:
    """Add five elven Guards (no character) at ``at``."""
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": list(at), "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


# -- 1. shot down to his last model, the Hero flees, rallies and joins the Guards next turn ------------------------
@pytest.mark.rule(LAST, PANIC, RALLY, "t9a.join.move", "published.t9a-distributing-hits")
def test_a_character_shot_down_to_the_last_survivor_flees_rallies_and_joins_only_the_next_turn() -> None:
    # (the Guards 1" nearer since round 40: the Spearman and the Hero now deploy side by side in the five files the
    # file gives, not one behind the other, so the Hero stands and flees elsewhere, and 10" did not reach the Guards)
    g = Game(state_from_data(_guards(scenario(n=1, orcs=10, phase="shooting", active="orcs"), at=(45, 14))))
    # 2 hits of 10 (5+): one on the spearman, one on the Hero (fewer than 5 rank and file: shared as equally as
    # possible); the spearman is wounded (6) and fails his save (1), the Hero is not (1); the Hero, alone now, takes
    # the unit's Panic test for heavy casualties: 6 + 6 fails on his Ld 9, he flees 3 + 3
    events = g.apply(SHOOT, ScriptedDice([5, 5] + [1] * 8 + [6, 1, 1, 6, 6, 3, 3]))
    assert [e.kind for e in events] == ["shoot", "panic"], events
    assert "published.t9a-distributing-hits" in events[0].rules and "slain: s0" in events[0].message
    assert LAST in events[1].rules and PANIC in events[1].rules and "hero fails its Panic test" in events[1].message
    assert not g.state.unit("spears").alive and g.state.unit("hero").has(Status.FLEEING)
    reloads(g)
    play_to(g, "charge", "elves")
    # fleeing, he neither joins nor leaves; the Charge phase's first step is his Rally test
    refused(g, {"do": "end_phase"}, RALLY, "must first take a Rally test")
    events = g.apply({"do": "rally", "unit": "hero"}, ScriptedDice([2, 3]))
    assert "hero rallies (5 against Ld 9" in events[0].message and RALLY in events[0].rules
    assert not g.state.unit("hero").has(Status.FLEEING)
    play_to(g, "movement", "elves")
    # rallied: he counts as having marched and moves no further this turn, so he joins no unit; the refusal says
    # why and cites the Rally rule (it said "has already moved" citing only the join's rule before)
    for action in (JOIN_GUARDS, {"do": "move", "unit": "hero", "to": [[36, 12]]},
                   {"do": "reform", "unit": "hero", "facing": 90}):
        refused(g, action, RALLY, "it rallied this turn")
    reloads(g)
    # next turn he is free: he joins the Guards
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    ruling = g.check(JOIN_GUARDS)
    assert ruling.legal and "t9a.join.move" in ruling.rules, ruling
    g.apply(JOIN_GUARDS)
    assert g.state.unit("hero").joined == "guards"
    reloads(g)


# -- 2. a character charges out; his old unit stays behind, charges no more, but still moves ------------------------
@pytest.mark.rule("t9a.charge-out.declare", "t9a.charge-out.success", "t9a.charge-out.no-other-charges",
                  "t9a.leave.unit-not-moved", "published.t9a-move")
def test_the_unit_a_character_charged_out_of_declares_no_charge_but_moves_in_the_movement_phase() -> None:
    g = Game(state_from_data(scenario(phase="charge", active="elves", enemy_y=30, orc_profile=STILL_ORC)))
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
    events = g.apply(charge, ScriptedDice([6, 6]))  # Charge Range 5 + 12 reaches the orcs 10" away
    assert "t9a.charge-out.success" in events[0].rules, events
    hero, spears = g.state.unit("hero"), g.state.unit("spears")
    assert hero.joined is None and hero.has(Status.ENGAGED) and not spears.has(Status.ENGAGED)
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges",
            "spears cannot declare a charge")
    play_to(g, "movement", "elves")
    # it did not charge and has not moved (the character's charge out is not its move): it moves at its rate
    move = {"do": "move", "unit": "spears", "to": [[36, 16]]}
    ruling = g.check(move)
    assert ruling.legal and "published.t9a-move" in ruling.rules, ruling
    g.apply(move)
    assert g.state.unit("hero").models[0].at == hero.models[0].at  # he stays in his combat
    # the engaged Hero is no longer part of it: he neither joins it back nor moves
    refused(g, {"do": "join", "character": "hero", "unit": "spears", "rank_choice": "widen"}, "t9a.join.forbidden",
            "hero is engaged")
    reloads(g)


# -- 3. a Wizard's Miscast panics his unit; he may not leave it fleeing, nor on the turn it rallies -----------------
CAST = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
LEAVE = {"do": "leave", "character": "hero", "to": [36, 14]}


@pytest.mark.rule("published.t9a-miscast", PANIC, "t9a.leave.when", RALLY)
def test_a_wizard_whose_miscast_panicked_his_unit_leaves_it_neither_fleeing_nor_when_it_rallies() -> None:
    data = scenario(n=8, phase="magic", active="elves", enemy_y=30, extra={"magic_dice": {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][1]["rules"] = ["Wizard Adept"]
    data["sides"]["elves"][1]["spells"] = ["Fireball", "Flame Cage"]
    g = Game(state_from_data(data))
    # three 3s with 3 Magic Dice (-1): the 2022 Miscast 222, Witchfire; its six S3 hits (Armour Penetration 2: no
    # save) slay six of nine: the Panic test fails on 6 + 6
    events = g.apply({**CAST, "dice": 3}, ScriptedDice([3, 3, 3, 1, 1, 6] + [6] * 6 + [6, 6] + [3, 3]))
    assert [e.kind for e in events] == ["cast", "miscast", "panic"], events
    assert g.state.unit("spears").has(Status.FLEEING) and g.state.unit("hero").has(Status.FLEEING)
    refused(g, {**CAST, "spell": "Flame Cage"}, "published.t9a-magic", "hero is fleeing and cannot cast")
    play_to(g, "charge", "elves")
    # his unit flees: he does not leave it, in the Charge phase or by a charge out of it
    refused(g, LEAVE, "t9a.leave.when", "hero is fleeing")
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs"}, "t9a.charge-out.declare", "fleeing")
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([1, 1]))
    assert RALLY in events[0].rules and not g.state.unit("hero").has(Status.FLEEING)
    refused(g, {"do": "charge", "unit": "hero", "target": "orcs"}, RALLY, "it rallied this turn")
    play_to(g, "movement", "elves")
    # rallied with his unit, he counts as having marched: no leave this turn, and the refusal cites the Rally rule
    refused(g, LEAVE, RALLY, "hero cannot move: it rallied this turn")
    assert "t9a.leave.when" in g.check(LEAVE).rules
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 22]]}, RALLY, "spears cannot move: it rallied")
    reloads(g)
    # the turn after, he leaves
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    hx, hy = g.state.unit("hero").models[0].at
    right = max(m.at[0] for m in g.state.unit("spears").models)
    ruling = g.check({**LEAVE, "to": [right + 2.5, hy]})  # beside his unit, over an inch from its models
    assert ruling.legal and "t9a.leave.when" in ruling.rules, ruling


# -- 4. a character in a unit caught by the pursuit dies with it, and the message says so ---------------------------
def _melee(joined: bool = True) -> Game:
    """Four Spearmen (and the Hero) lose to the orcs' standard and charge (0 to 2); nobody has Attacks."""
    data = scenario(n=4, orcs=5, phase="melee", active="elves", enemy_y=20, joined=joined,
                    spear_profile=STILL_SPEAR, orc_profile=STILL_ORC, spear_status=["engaged"],
                    orc_status=["engaged", "charged"])
    data["sides"]["elves"][0]["formation"]["files"] = 4
    data["sides"]["elves"][1]["models"][0]["profile"] = "WS6 BS6 S4 T4 W3 I6 A0 Ld9 Sv4+ Adv5 Mar10"
    data["sides"]["orcs"][0]["models"][0]["role"] = "standard"
    return Game(state_from_data(data))


@pytest.mark.rule("published.t9a-pursuit", "published.t9a-break-test", "t9a.join.part-of-unit")
def test_a_character_in_a_unit_caught_by_the_pursuit_is_destroyed_with_it() -> None:
    g = _melee()
    # Break test on the Hero's Ld 9 - 2: 6 + 6 breaks; flee 3 + 4, pursuit 4 + 3 catches
    events = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([6, 6, 3, 4, 4, 3]))
    said = events[-1].message
    assert "caught by a pursuit of 7\" and destroyed (hero with it)" in said, said
    assert "t9a.join.part-of-unit" in events[-1].rules and "published.t9a-pursuit" in events[-1].rules
    assert not g.state.unit("hero").alive and not g.state.unit("spears").alive
    # the winners are free of the combat
    assert not g.state.unit("orcs").has(Status.ENGAGED)
    reloads(g)
    # escaped (pursuit 6"), the Hero flees with his unit
    g = _melee()
    said = g.apply({"do": "fight", "unit": "spears"}, ScriptedDice([6, 6, 3, 4, 3, 3]))[-1].message
    assert "breaks and flees 7\" (pursuit 6\")" in said and g.state.unit("hero").has(Status.FLEEING), said


# -- 5. a refused Duel leaves a character alone on Discipline 0 (seed 004) -----------------------------------------
@pytest.mark.rule("published.t9a-duel", "published.t9a-break-test", "core.zero.a", "t9a.char.lone")
def test_a_lone_character_shamed_by_a_refused_duel_breaks_on_discipline_0() -> None:
    data = scenario(phase="melee", active="elves", enemy_y=20, joined=False, hero_at=(36, 20 - 10 / 25.4),
                    hero_status=["engaged"], spear_profile=STILL_SPEAR, orc_profile=STILL_ORC,
                    orc_status=["engaged", "charged"])
    data["sides"]["elves"][0]["formation"]["position"] = [10, 8]
    data["sides"]["orcs"][0]["models"][0]["role"] = "standard"
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "joined": "orcs", "models": [
        {"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8", "base": [25, 25]}]})
    g = Game(state_from_data(data))
    refuse = {"do": "fight", "unit": "hero", "duel": "boss"}
    ruling = g.check(refuse)
    assert ruling.legal and "published.t9a-duel" in ruling.rules and "Leadership counts as 0" in ruling.reason
    # the Hero makes no attacks; the Boss's three miss; 0 to 2: the Hero alone tests on Ld 0 - 2 and no roll passes
    odds = dict(exact_odds_as_brute_force(g.state, refuse))
    assert odds and not any("break.outcome: held" in o.events for o in odds), odds  # Discipline 0 never holds
    assert all(any(e.startswith("break.outcome") for e in o.events) for o in odds if not o.models_lost), odds
    events = g.apply(refuse, ScriptedDice([1, 1, 1, 1, 1, 6, 6, 1, 1]))
    said = events[-1].message
    assert "hero takes a Break test on Ld 0 (Hero) -2: 2, breaks" in said, said
    assert "published.t9a-duel" in events[-1].rules and g.state.unit("hero").has(Status.FLEEING)


# -- 6. hits at a character in a unit; the ranks re-formed around him keep him in the front rank --------------------
@pytest.mark.rule("published.t9a-distributing-hits", "t9a.char.front-rank", "t9a.join.part-of-unit")
def test_casualties_shrink_the_unit_around_its_character_who_stays_in_the_front_rank_and_then_may_be_hit() -> None:
    g = Game(state_from_data(scenario(n=6, orcs=10, phase="shooting", active="orcs")))
    at_hero = {"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"}
    # six rank and file keep every hit off him: naming him is refused, citing the rule on hits at combined units
    refused(g, at_hero, "published.t9a-distributing-hits", "6 rank-and-file models")
    # 5 hits on the rank and file, 5 wounds, 5 failed saves (rear rank first); the Panic test holds on 1 + 1
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [1] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert "5 unsaved on spears" in events[0].message and "on hero" not in events[0].message, events
    spears, hero = g.state.unit("spears"), g.state.unit("hero")
    assert len(spears.models) == 1 and hero.alive
    # one spearman and the Hero: one rank of two, side by side, the Hero in it (t9a.char.front-rank)
    assert abs(spears.models[0].at[1] - hero.models[0].at[1]) < 1e-6
    assert abs(spears.models[0].at[0] - hero.models[0].at[0]) == pytest.approx(20 / 25.4)
    reloads(g)
    # the orcs' next volley may pick him out: one rank-and-file model is fewer than five
    g2 = Game(g.state)
    for _ in range(10):
        g2.apply({"do": "end_phase"})
    assert (g2.state.active, g2.state.phase.value) == ("orcs", "shooting")
    ruling = g2.check(at_hero)
    assert ruling.legal, ruling
    # 3 hits: the Hero named takes the odd one (2 him, 1 the spearman); none wounds
    events = g2.apply(at_hero, ScriptedDice([6] * 3 + [1] * 7 + [1] + [1, 1]))
    assert "published.t9a-distributing-hits" in events[0].rules and "2 hits, 0 unsaved on hero" in events[0].message
