"""A judge's cases for The 9th Age, fifth round: what the fourth round left, and sequences around a character.

Each case goes through the front door (``Game``: check, apply, undo): the legal and the illegal step, the
clause cited, and a refused step changing nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status
from _t9a import play_to, refused, reloading_game, reloads, scenario

TURN = "published.turn-sequence"


# -- a unit with no models left: refused for that, its side ruled once before (published.turn-sequence) -------
GONE_ACTIONS = [
    ("movement", {"do": "move", "unit": "spears", "to": [[36, 16]]}),
    ("movement", {"do": "reform", "unit": "spears", "facing": 90}),
    ("charge", {"do": "charge", "unit": "spears", "target": "orcs"}),
    ("charge", {"do": "rally", "unit": "spears"}),
    ("shooting", {"do": "shoot", "unit": "spears", "target": "orcs"}),
    ("magic", {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2}),
    ("melee", {"do": "fight", "unit": "spears"}),
]


@pytest.mark.rule("core.zero.w", TURN)
@pytest.mark.parametrize(("phase", "action"), GONE_ACTIONS, ids=[a["do"] for _, a in GONE_ACTIONS])
def test_a_destroyed_unit_is_refused_for_having_no_models_and_the_other_sides_for_its_turn(
        phase: str, action: dict[str, Any]) -> None:
    data = scenario(n=5, phase=phase, active="elves", joined=False)
    data["sides"]["elves"][0].update(models=[], destroyed=True)
    g = reloading_game(data)
    refused(g, action, "core.zero.w", "spears has no models left")
    assert "active side" not in g.check(action).reason
    # the same action by a living unit of the side whose turn it is not: refused once, for the turn
    theirs = reloading_game(scenario(n=5, phase=phase, active="orcs", joined=False))
    refused(theirs, action, TURN, "it is orcs's turn")


# -- line of sight (published.line-of-sight): in the Front Arc only, rear ranks from their file's first rank ------
SIGHT = "published.line-of-sight"


def _orcs_behind(phase: str, active: str = "elves", **kw: Any) -> dict[str, Any]:
    """Ten Spearmen (two ranks, facing up the table) with their Hero; five orc archers 6" behind them, facing them."""
    data = scenario(n=10, phase=phase, active=active, **kw)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    data["sides"]["orcs"][0]["formation"].update(position=[36, 12.5], facing=0)
    return data


@pytest.mark.rule(SIGHT, "t9a.join.part-of-unit")
def test_a_unit_shoots_only_at_what_lies_in_its_front_arc() -> None:
    g = reloading_game(_orcs_behind("shooting"))
    shoot = {"do": "shoot", "unit": "spears", "target": "orcs"}
    refused(g, shoot, SIGHT, "orcs is not in spears's Front Arc")
    assert g.ruleset.targets(g.state, "spears")["orcs"].legal is False
    # the orcs face the Spearmen's rear: the Spearmen lie in their Front Arc, and they shoot
    theirs = reloading_game(_orcs_behind("shooting", active="orcs"))
    assert theirs.check({"do": "shoot", "unit": "orcs", "target": "spears"}).legal
    # turned about (a reform in the Movement phase), the Spearmen see them
    turned = reloading_game(_orcs_behind("movement"))
    turned.apply({"do": "reform", "unit": "spears", "facing": 180})
    play_to(turned, "shooting", "elves")
    ruling = turned.check(shoot)
    assert ruling.legal and SIGHT in ruling.rules
    turned.undo()
    assert turned.state.phase.value == "magic"


@pytest.mark.rule(SIGHT, "published.t9a-magic", "t9a.join.part-of-unit")
def test_a_wizard_in_a_unit_casts_only_at_what_lies_in_its_units_front_arc() -> None:
    data = _orcs_behind("magic", extra={"magic_dice": {"elves": 6, "orcs": 4}})
    hero = data["sides"]["elves"][1]
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball"]
    cast = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    g = reloading_game(data)
    refused(g, cast, SIGHT, "orcs is not in spears's Front Arc")
    data["sides"]["orcs"][0]["formation"].update(position=[36, 30], facing=180)  # in front of the Spearmen
    assert reloading_game(data).check(cast).legal


def _pillar_ahead() -> Game:
    """Ten Spearmen with bows in two ranks (s0-s4 in front, s5-s9 behind them in the same files); one orc ahead
    and to their right, in their Front Arc; a pillar of blocking rock ahead of their right files."""
    data = scenario(n=10, phase="shooting", active="elves", joined=False, orcs=1)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    data["sides"]["orcs"][0]["formation"].update(position=[46, 30], files=1)
    data["terrain"] = [{"id": "rock", "kind": "blocking", "polygon": [[40, 22.5], [41.5, 22.5], [41.5, 24], [40, 24]]}]
    return reloading_game(data)


@pytest.mark.rule(SIGHT, "published.t9a-who-can-shoot")
def test_a_second_rank_model_sees_as_if_it_stood_in_the_first_rank_of_its_file() -> None:
    from herohammer.geometry import model_sees_any

    g = _pillar_ahead()
    spears, orc = g.state.unit("spears"), [m.placed for m in g.state.unit("orcs").models]
    seen = {m.name: model_sees_any(m.placed, orc, g.state.terrain) for m in spears.models}
    # where they stand: s3 sees the orc past the rock, s8 behind him does not; s4 and s9 (the right file) neither
    assert seen["s3"] and not seen["s8"] and not seen["s4"] and not seen["s9"]
    ruling = g.check({"do": "shoot", "unit": "spears", "target": "orcs"})
    # s8 draws his sight from s3's place in the first rank: he shoots; s9 is as blind as s4 before him
    assert ruling.legal and "8 shots" in ruling.reason
    assert any("s4, s9 do not see orcs" in n for n in ruling.notes)
    before = g.state
    g.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([1] * 8))
    g.undo()
    assert g.state is before


# -- a unit destroyed in combat: off the table, engaged in nothing (core.zero.w) -----------------------------------
def _slaughter(joined: bool) -> Game:
    """Five Spearmen (their Hero in them when ``joined``, else 20" away) engaged with five orcs who strike first
    (I7) and hard (WS9 S9 A2): ten orc blows on 6s slay every Spearman."""
    from test_t9a_melee import melee

    return melee(boss=False, active="orcs", n=5, joined=joined, hero_at=(10, 10),
                 orc_profile="WS9 BS3 S9 T4 W1 I7 A2 Ld7 Sv6+ Adv4 Mar8 AP6")  # AP6: no armour save


@pytest.mark.rule("core.zero.w", "published.t9a-combat-resolution", "t9a.join.forbidden")
def test_a_unit_slain_to_the_last_model_is_engaged_in_nothing_and_its_foes_are_free() -> None:
    g = _slaughter(joined=False)
    before = g.state
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6] * 20))
    spears, orcs = g.state.unit("spears"), g.state.unit("orcs")
    assert not spears.alive and spears.status == frozenset()  # no longer on the table: not engaged, nothing
    assert not orcs.has(Status.ENGAGED) and "the combat ends" in events[-1].message
    reloads(g)
    # the destroyed Spearmen can be neither joined nor named to act; the orcs move in their next turn
    play_to(g, "movement", "elves")
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.move", "must be on the table")
    play_to(g, "movement", "orcs")
    assert g.check({"do": "move", "unit": "orcs", "to": [[36, 24]]}).legal
    for _ in range(20):  # undo back to before the fight, step by step
        if g.state is before:
            break
        g.undo()
    assert g.state is before and before.unit("spears").has(Status.ENGAGED)


@pytest.mark.rule("t9a.combined.last-survivor", "core.zero.w")
def test_the_record_of_a_unit_whose_hero_survives_is_empty_and_the_hero_carries_its_combat() -> None:
    g = _slaughter(joined=True)
    # I7: the five Spearmen fall; I6: the Hero's three attacks miss; 5 to 0: the Hero tests alone on Ld 9 at -5, 2 holds
    g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6] * 20 + [1] * 3 + [1, 1]))
    spears, hero, orcs = g.state.unit("spears"), g.state.unit("hero"), g.state.unit("orcs")
    assert not spears.alive and spears.status == frozenset()
    assert hero.last_of == "spears" and hero.has(Status.ENGAGED) and orcs.has(Status.ENGAGED)
    reloads(g)
    # he is still locked with the orcs: the Spearmen's name, which is he, does not move in his Movement phase
    play_to(g, "movement", "elves")
    refused(g, {"do": "move", "unit": "spears", "to": [[10, 10]]}, "published.t9a-move", "hero is engaged in combat and cannot move")


# -- sequences around a character: joining and leaving in one phase, joining after a charge -------------------------
def _lone_hero(phase: str, hero_at: tuple[float, float], enemy_y: float = 40.0) -> Game:
    from test_t9a_rules import scenario as rules_scenario

    return reloading_game(rules_scenario(n=10, phase=phase, hero_at=hero_at, enemy_y=enemy_y))


JOIN = {"do": "join", "character": "hero", "unit": "spears"}
LEAVE = {"do": "leave", "character": "hero", "to": [30, 24]}


@pytest.mark.rule("t9a.leave.when", "t9a.join.move", "t9a.join.moved-separately")
def test_a_character_who_joined_does_not_leave_in_that_phase_but_does_in_his_next_turn() -> None:
    g = _lone_hero("movement", (36, 24))
    before = g.state
    g.apply(JOIN)
    assert g.state.unit("hero").joined == "spears" and g.state.unit("hero").has(Status.MOVED)
    # joining was his move ("not already moved this phase"): he does not leave again in the same phase
    refused(g, LEAVE, "t9a.leave.when", "already moved")
    joined = g.state
    play_to(g, "charge", "orcs")
    play_to(g, "movement", "elves")
    ruling = g.check(LEAVE)
    assert ruling.legal and "t9a.leave.when" in ruling.rules
    g.apply(LEAVE)
    assert g.state.unit("hero").joined is None and g.state.joined_to("spears") == []
    reloads(g)
    g.undo()
    assert g.state.unit("hero").joined == "spears"
    while g.state is not joined:
        g.undo()
    g.undo()
    assert g.state is before


@pytest.mark.rule("t9a.join.forbidden", "published.t9a-charge")
def test_a_unit_that_charged_home_this_turn_is_engaged_and_cannot_be_joined_in_the_movement_phase() -> None:
    g = _lone_hero("charge", (30, 22), enemy_y=27)
    g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([6, 6]))
    assert g.state.unit("spears").has(Status.ENGAGED)
    play_to(g, "movement", "elves")
    refused(g, JOIN, "t9a.join.forbidden", "engaged")


@pytest.mark.rule("t9a.join.forbidden", "t9a.join.unit-stops", "t9a.charge-out.failure")
def test_a_unit_whose_charge_failed_is_neither_engaged_nor_fleeing_and_may_be_joined() -> None:
    g = _lone_hero("charge", (30, 22), enemy_y=30)
    g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1]))
    spears = g.state.unit("spears")
    assert not spears.has(Status.ENGAGED) and not spears.has(Status.FLEEING)
    play_to(g, "movement", "elves")
    ruling = g.check(JOIN)
    assert ruling.legal and "t9a.join.move" in ruling.rules
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 21]]}, "published.t9a-move", "charged already")
    g.apply(JOIN)
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 21]]}, "t9a.join.unit-stops", "cannot move again")


@pytest.mark.rule(SIGHT, "t9a.char.lone")
def test_a_lone_character_sees_in_his_own_front_arc() -> None:
    # the Hero stands alone at (36, 14), facing up the table like the Spearmen; the orcs 6" behind him
    data = _orcs_behind("shooting", joined=False, hero_at=(36, 16.5), hero_weapons=["longbow"])
    data["sides"]["orcs"][0]["formation"].update(position=[36, 9])
    data["sides"]["elves"][0]["formation"].update(position=[20, 30])
    g = reloading_game(data)
    refused(g, {"do": "shoot", "unit": "hero", "target": "orcs"}, SIGHT, "orcs is not in hero's Front Arc")
    data["sides"]["elves"][1]["models"][0]["facing"] = 180  # turned about, he faces them
    ruling = reloading_game(data).check({"do": "shoot", "unit": "hero", "target": "orcs"})
    assert ruling.legal and "1 shot " in ruling.reason
