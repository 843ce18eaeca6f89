"""A judge's cases for The 9th Age, sixth round: the Flee Charge Reaction, Panic for a friend fleeing through,
the join refused for the side, and the Panic hook's early way out.

The 9th Age rulebook (2nd edition), Charge Reactions, Flee!: a unit not engaged in combat may Flee, once per
phase, and one already fleeing must; it flees 2D6" directly away from the charger, which then rolls to complete
its charge against it: a charge that reaches the fleeing unit destroys it. 17.A Panic Test: "a friendly unit
Flees through the unit's Unit Boundary" calls for a Panic test, except a flee that was the unit's own Charge
Reaction. Each case goes through ``Game``: the legal and the illegal step, the clause cited, undo.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import play_to, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.rulesets import t9a_panic
from herohammer.units import Status

REACTIONS = "published.t9a-charge-reactions"
FLEE = "published.t9a-flee-reaction"
PANIC = "published.t9a-panic"
TURN = "published.turn-sequence"
ORCS_CHARGE = {"do": "charge", "unit": "orcs", "target": "spears"}
SPEARS_CHARGE = {"do": "charge", "unit": "spears", "target": "orcs"}


def _orcs_charge(guards_at: tuple[float, float] | None = None, **kw: Any) -> Game:
    """The orcs, 10" ahead of the Spearmen (with their Hero) and facing them, in the orcs' Charge phase."""
    data = scenario(phase="charge", active="orcs", enemy_y=30, **kw)
    if guards_at is not None:
        data["sides"]["elves"].append(_guards(guards_at))
    return reloading_game(data)


def _guards(at: tuple[float, float], gid: str = "guards") -> dict[str, Any]:
    return {"id": gid, "formation": {"position": list(at), "files": 5},
            "models": [{"name": f"{gid}{i}", "profile": "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10",
                        "base": [20, 20]} for i in range(5)]}


def _kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def _y(g: Game, unit: str) -> float:
    f = g.state.unit(unit).formation
    assert f is not None
    return f.position[1]


# -- 1. the Flee Charge Reaction ------------------------------------------------------------------------
@pytest.mark.rule(FLEE, REACTIONS)
def test_a_unit_that_flees_and_is_caught_by_the_charge_is_destroyed() -> None:
    g = _orcs_charge()
    before = g.state
    ruling = g.check({**ORCS_CHARGE, "reaction": "flee"})
    assert ruling.legal and FLEE in ruling.rules and "spears will Flee" in ruling.reason
    # the Spearmen flee 3 + 3 = 6" straight back (16" from the orcs now); the orcs roll 4 + 6 + 6 = 16": caught
    events = g.apply({**ORCS_CHARGE, "reaction": "flee"}, ScriptedDice([3, 3, 6, 6]))
    assert _kinds(events) == ["flee", "charge"]
    assert "spears flees 6\"" in events[0].message and FLEE in events[0].rules
    charge = events[1]
    assert dict(charge.data)["outcome"] == "caught" and FLEE in charge.rules
    assert "spears is caught and destroyed, and orcs moves 16.00\" to where it caught spears" in charge.message
    assert [r.value for r in charge.rolls] == [6, 6]
    assert not g.state.unit("spears").alive and not g.state.unit("hero").alive  # the Hero with his unit
    assert _y(g, "orcs") == pytest.approx(30 - 16)  # the Charge Move, straight into where the Spearmen fled to
    assert g.state.unit("orcs").has(Status.CHARGED) and not g.state.unit("orcs").has(Status.ENGAGED)
    reloads(g)
    g.undo()
    assert g.state is before


@pytest.mark.rule(FLEE, REACTIONS, "t9a.charge-out.failure")
def test_a_unit_that_flees_beyond_the_charge_range_leaves_the_charger_a_failed_charge() -> None:
    g = _orcs_charge()
    y0, orcs_y = _y(g, "spears"), _y(g, "orcs")
    events = g.apply({**ORCS_CHARGE, "reaction": "flee"}, ScriptedDice([6, 6, 1, 1]))  # flees 12"; the orcs roll 6"
    assert _y(g, "spears") == pytest.approx(y0 - 12)  # directly away from the orcs, who stand straight ahead
    spears = g.state.unit("spears")
    assert spears.has(Status.FLEEING) and spears.has(Status.FLED_FROM_CHARGE) and spears.alive
    assert g.state.unit("hero").has(Status.FLEEING)  # the Hero flees with his unit
    assert dict(events[-1].data)["outcome"] == "failed_left" and _y(g, "orcs") == pytest.approx(orcs_y - 1)
    reloads(g)
    # the flee lasts past the orcs' turn; the once-per-phase mark does not
    play_to(g, "charge", "elves")
    assert g.state.unit("spears").has(Status.FLEEING) and not g.state.unit("spears").has(Status.FLED_FROM_CHARGE)


@pytest.mark.rule(FLEE, REACTIONS)
def test_a_unit_engaged_in_combat_may_only_hold() -> None:
    g = _orcs_charge(spear_status=["engaged"], hero_status=["engaged"])
    refused(g, {**ORCS_CHARGE, "reaction": "flee"}, FLEE, "spears is engaged in combat: it may only Hold")
    assert g.check({**ORCS_CHARGE, "reaction": "hold"}).legal


@pytest.mark.rule(FLEE, REACTIONS)
def test_a_unit_already_fleeing_must_flee_and_flees_once_per_phase() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=28, orc_status=["fleeing"])
    data["sides"]["elves"].append(_guards((46, 20)))
    g = reloading_game(data)
    refused(g, {**SPEARS_CHARGE, "reaction": "hold"}, FLEE, "a unit already fleeing must Flee")
    default = g.check(SPEARS_CHARGE)
    assert default.legal and FLEE in default.rules and "orcs is fleeing, so it Flees" in default.reason
    orcs_y = _y(g, "orcs")
    first = g.apply(SPEARS_CHARGE, ScriptedDice([3, 3, 1, 1]))  # flees 6" up the table; the spears roll 7": short
    assert _y(g, "orcs") == pytest.approx(orcs_y + 6) and dict(first[-1].data)["outcome"] == "failed_left"
    # the guards charge the same orcs this phase: they Flee (they must) but make no second flee move
    again = g.apply({"do": "charge", "unit": "guards", "target": "orcs"}, ScriptedDice([1, 1]))
    assert again[0].kind == "flee" and dict(again[0].data)["outcome"] == "stayed" and not again[0].rolls
    assert _y(g, "orcs") == pytest.approx(orcs_y + 6)
    assert [r.purpose for r in again[-1].rolls] == ["guards: charge die", "guards: charge die"]


@pytest.mark.rule(FLEE, "published.t9a-flee")
def test_a_unit_that_flees_off_the_table_leaves_the_charge_without_a_target() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=42)
    data["sides"]["elves"][0]["formation"]["position"] = [36, 32]
    g = reloading_game(data)
    spears_before = g.state.unit("spears").models
    events = g.apply({**SPEARS_CHARGE, "reaction": "flee"}, ScriptedDice([6, 6]))  # 12" up a 48" table: off it
    assert _kinds(events) == ["flee", "charge"] and dict(events[0].data)["outcome"] == "destroyed"
    assert not g.state.unit("orcs").alive and dict(events[1].data)["outcome"] == "target_fled_off_the_table"
    assert g.state.unit("spears").models == spears_before and g.state.unit("spears").has(Status.CHARGED)
    reloads(g)


@pytest.mark.rule(FLEE, "t9a.charge-out.success", "t9a.leave.unit-not-moved")
def test_a_character_charging_out_who_catches_a_fleeing_unit_leaves_his_own() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=28))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee"},
                     ScriptedDice([1, 1, 6, 6]))  # the orcs flee 2"; the Hero rolls 5 + 12 = 17"
    assert dict(events[-1].data)["outcome"] == "caught" and not g.state.unit("orcs").alive
    assert "orcs is caught and destroyed, and hero moves out of spears 10.00\"" in events[-1].message
    assert "t9a.charge-out.success" in events[-1].rules
    hero = g.state.unit("hero")
    assert hero.joined is None and hero.has(Status.CHARGED) and not hero.has(Status.ENGAGED)
    assert g.state.unit("spears").has(Status.NO_CHARGE)  # t9a.charge-out.no-other-charges all the same
    reloads(g)
    play_to(g, "movement", "elves")  # the unit he left may still move; he may not
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 23]]}).legal
    assert not g.check({"do": "move", "unit": "hero", "to": [[36, 33]]}).legal


@pytest.mark.rule(FLEE, "published.t9a-move")
def test_a_charger_whose_way_to_the_caught_unit_is_blocked_stays_where_it_stood() -> None:
    data = scenario(phase="charge", active="orcs", enemy_y=27)
    data["sides"]["elves"].append(_guards((36, 15)))
    g = reloading_game(data)
    orcs = g.state.unit("orcs").models
    # the Spearmen flee 2", carried on past the guards (7" in all); the orcs roll 4 + 12 = 16" >= 14": caught, but
    # the straight way to where they fled runs through the guards; the guards pass their Panic test (4)
    events = g.apply({**ORCS_CHARGE, "reaction": "flee"}, ScriptedDice([1, 1, 6, 6, 2, 2]))
    charge = next(e for e in events if e.kind == "charge")
    assert dict(charge.data)["outcome"] == "caught" and "orcs stays where it stood" in charge.message
    assert not g.state.unit("spears").alive and g.state.unit("orcs").models == orcs
    assert g.state.unit("orcs").has(Status.CHARGED)


# -- 2. Panic for a friend fleeing through ------------------------------------------------------------
@pytest.mark.rule(PANIC, "published.t9a-flee")
def test_a_friend_fleeing_through_the_unit_calls_for_a_panic_test_at_any_distance() -> None:
    data = scenario(phase="charge", active="elves", spear_status=["fleeing"], hero_status=["fleeing"])
    data["sides"]["elves"].append(_guards((36, 15)))
    g = reloading_game(data)
    # a failed Rally test (10 against Ld 9): the Spearmen flee 5" straight back, through the guards, and on past them
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 4, 3, 2] + [6, 6] + [1, 1]))
    panic = [e for e in events if e.kind == "panic"]
    assert len(panic) == 1 and "guards fails its Panic test for spears fleeing through it" in panic[0].message
    assert PANIC in panic[0].rules and "t9a.combined.last-survivor" not in panic[0].rules
    assert g.state.unit("guards").has(Status.FLEEING)
    reloads(g)


@pytest.mark.rule(PANIC, FLEE)
def test_a_flee_charge_reaction_through_a_friend_calls_for_no_panic_test() -> None:
    g = _orcs_charge(guards_at=(36, 15))
    events = g.apply({**ORCS_CHARGE, "reaction": "flee"}, ScriptedDice([3, 2, 1, 1]))  # 5" back, through the guards
    assert _y(g, "spears") < 15 and "panic" not in _kinds(events)
    assert "spears flees 5\" from orcs's charge (its player's Charge Reaction), carried on to " in events[0].message
    assert not g.state.unit("guards").has(Status.FLEEING) and not g.state.unit("guards").has(Status.PANIC_PASSED)


@pytest.mark.rule(PANIC)
def test_a_flee_that_passes_a_friend_by_calls_for_no_panic_test() -> None:
    data = scenario(phase="charge", active="elves", spear_status=["fleeing"], hero_status=["fleeing"])
    data["sides"]["elves"].append(_guards((56, 15)))  # beside the way back, not on it
    g = reloading_game(data)
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 4, 3, 2]))
    assert "panic" not in _kinds(events) and not g.state.unit("guards").has(Status.FLEEING)


# -- 3. a join across sides: refused for the side; out of turn, for the turn ------------------------------------
@pytest.mark.rule("t9a.join.move", TURN)
def test_a_character_joins_only_a_unit_of_its_own_side_and_only_in_its_own_turn() -> None:
    data = scenario(phase="movement", active="elves", joined=False, enemy_y=30, hero_at=(30, 21))
    g = reloading_game(data)
    refused(g, {"do": "join", "character": "hero", "unit": "orcs"}, "t9a.join.move",
            "hero may join only a unit of its own side (orcs is orcs's)")
    assert g.check({"do": "join", "character": "hero", "unit": "spears"}).legal
    theirs = reloading_game(scenario(phase="movement", active="orcs", joined=False, enemy_y=30))
    refused(theirs, {"do": "join", "character": "hero", "unit": "spears"}, TURN, "it is orcs's turn")


# -- 4. the Panic hook looks only at the units an action replaced -----------------------------------------------
@pytest.mark.rule(PANIC)
def test_the_panic_hook_looks_only_at_units_the_action_changed_and_still_takes_the_test(
        monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[str] = []
    real = t9a_panic.is_destroyed

    def counting(state: Any, unit_id: str) -> bool:
        looked.append(unit_id)
        return real(state, unit_id)

    monkeypatch.setattr(t9a_panic, "is_destroyed", counting)
    data = scenario(n=1, joined=False, hero_at=(10, 10))
    data["sides"]["elves"].append(_guards((44, 20)))
    g = reloading_game(data)
    before = g.state
    g.apply({"do": "end_phase"})  # changes no unit
    assert looked == []
    g.undo()
    # five bows slay the lone spearman; the guards 2.5" away take their Panic test (12: failed) and flee
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [6, 6] + [3, 4]))
    changed = {u.id for u in before.units if g.state.unit(u.id) is not u}  # the spears, the orcs (shot), the guards
    assert "spears" in looked and set(looked) <= changed and "hero" not in changed
    panic = [e for e in events if e.kind == "panic"]
    assert len(panic) == 1 and "guards fails its Panic test for spears destroyed" in panic[0].message
    assert g.state.unit("guards").has(Status.FLEEING)


@pytest.mark.rule(FLEE, "t9a.charge-out.failure")
def test_a_character_charging_out_at_a_unit_that_outruns_him_stays_and_shakes_his_unit() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=28))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee"},
                     ScriptedDice([6, 6, 1, 1]))  # the orcs flee 12"; the Hero rolls 5 + 2 = 7" and moves 1"
    assert _kinds(events) == ["flee", "charge"] and [r.value for r in events[0].rolls] == [12]
    charge = events[1]
    assert dict(charge.data)["outcome"] == "failed_stayed_shaken" and [r.value for r in charge.rolls] == [1, 1]
    assert FLEE in charge.rules and "t9a.charge-out.failure" in charge.rules
    assert g.state.unit("hero").joined == "spears" and g.state.unit("spears").has(Status.SHAKEN)
    assert g.state.unit("orcs").has(Status.FLEEING)


@pytest.mark.rule(FLEE, REACTIONS)
def test_legal_actions_offer_the_flee_only_where_the_charged_unit_chooses_it() -> None:
    def reactions(g: Game) -> set[str | None]:
        return {a.reaction for a in g.legal_actions() if a.do == "charge" and a.unit == "orcs"}  # type: ignore[union-attr]

    assert reactions(_orcs_charge()) == {None, "flee"}
    assert reactions(_orcs_charge(spear_status=["fleeing"], hero_status=["fleeing"])) == {None}  # it Flees anyway
    assert reactions(_orcs_charge(spear_status=["engaged"], hero_status=["engaged"])) == {None}  # it may only Hold


# -- the join's other refusals, each reached through Game ------------------------------------------------------
_MOVEMENT = {"phase": "movement", "active": "elves", "joined": False, "hero_at": (30, 21), "enemy_y": 40}
_MAGE = {"id": "mage", "character": "independent", "joined": "spears",
         "models": [{"name": "Mage", "profile": "WS4 BS4 S3 T3 W2 I5 A1 Ld8 Sv6+ Adv5 Mar10", "base": [20, 20]}]}
JOIN = {"do": "join", "character": "hero", "unit": "spears"}


def _loose_spears(data: dict[str, Any]) -> None:
    data["sides"]["elves"][0]["formation"] = None
    for i, m in enumerate(data["sides"]["elves"][0]["models"]):
        m["at"] = [34 + (i % 5) * 0.9, 20 - (i // 5) * 0.9]


def _renamed_hero(data: dict[str, Any]) -> None:
    data["sides"]["elves"][1]["models"][0]["name"] = "s0"


JOIN_REFUSALS = [
    ("itself", {}, None, {**JOIN, "unit": "hero"}, "t9a.join.character-units", "hero cannot join itself"),
    ("a joined character", {}, lambda d: d["sides"]["elves"].append(_MAGE), {**JOIN, "unit": "mage"},
     "t9a.join.part-of-unit", "mage is part of spears: join spears"),
    ("fleeing", {"hero_status": ["fleeing"]}, None, JOIN, "t9a.join.forbidden", "hero is fleeing and cannot move"),
    ("engaged", {"hero_status": ["engaged"]}, None, JOIN, "t9a.join.forbidden", "hero is engaged and cannot move"),
    ("shaken", {"hero_status": ["shaken"]}, None, JOIN, "published.t9a-shaken", "it cannot join a unit"),
    ("no formation", {}, _loose_spears, JOIN, "t9a.join.position", "spears has no formation"),
    ("a name taken", {}, _renamed_hero, JOIN, "t9a.join.position", "spears already has a model named 's0'"),
]


@pytest.mark.rule("t9a.join.character-units", "t9a.join.forbidden", "t9a.join.position", "t9a.join.move")
@pytest.mark.parametrize(("status", "change", "action", "rule", "text"), [r[1:] for r in JOIN_REFUSALS],
                         ids=[r[0] for r in JOIN_REFUSALS])
def test_each_refusal_of_a_join_is_reached_and_names_its_rule(status: dict[str, Any], change: Any,
                                                            action: dict[str, Any], rule: str, text: str) -> None:
    assert reloading_game(scenario(**_MOVEMENT)).check(JOIN).legal  # the join itself, where nothing stands in its way
    data = scenario(**_MOVEMENT, **status)
    if change is not None:
        change(data)
    refused(reloading_game(data), action, rule, text)
