"""Round 29b: a 9th Age judge's cases on characters charging out, Stubborn in a judge's test, the reactive side's
blows at a character, and the Flying charge, checked against seed 002 and the 2022 rulebook text.

1. A character charging out of his unit and slain by Stand and Shoot made no friend take a Panic test (the session-26
   reading: he was still part of his unit). The 2022 text, Charging out of a Unit: "As soon as the Character declares
   a Charge, it is considered a separate unit"; a friendly unit destroyed within 6" calls for a Panic test
   (published.t9a-panic), his old unit's too.
2. The judge's ``test`` action of the Break kind did not apply Stubborn: the negative modifier (the Combat Score
   difference, published.t9a-break-test) still counted for a Stubborn unit (published.t9a-stubborn).
3. The reactive side could not direct its blows at a character of the active unit: ``at`` was read for the active
   side only (published.t9a-to-hit-melee, t9a.join.part-of-unit). ``reactive_at`` gives it the same choice.
4. A unit with Fly charged on foot unless asked for ``fly: true``. The 2022 text, Fly: "When declaring a Charge with
   a unit with Fly, you must declare if the unit will not use Flying Movement for the Charge Move": a charge by a unit
   (or a character charging out) that can fly is a Flying charge unless ``fly: false`` is declared.

Each was first committed as a strict xfail, then fixed and its mark removed.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import HERO, STILL_SPEAR, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.rulings import Event
from herohammer.scenario import state_from_data
from herohammer.units import Status

PANIC = "published.t9a-panic"
STUBBORN = "published.t9a-stubborn"
TO_HIT = "published.t9a-to-hit-melee"
FLY = "published.t9a-fly"
CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs"}


# -- 1. a character slain by Stand and Shoot charging out is a friendly unit destroyed --------------------------------
def _archers_and_guards() -> dict[str, Any]:
    """The Hero in the Spearmen charges out at five orc archers with Stand and Shoot; elven Guards stand beside."""
    data = scenario(joined=True, phase="charge", active="elves", enemy_y=28)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["bow S3"]
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [41, 20], "files": 2},
                                   "models": [{"name": f"g{i}", "profile": HERO.replace("W3", "W1"),
                                               "base": [20, 20]} for i in range(2)]})
    return data


SLAY = [5] * 5 + [6] * 5 + [1] * 5  # five hits, five wounds, five failed saves: the Hero (W3) is slain


def _panics(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "panic"]


@pytest.mark.rule(PANIC, "t9a.charge-out.declare", "t9a.charge-out.stand-and-shoot")
def test_a_character_slain_charging_out_is_a_unit_destroyed_his_old_unit_and_friends_near_test() -> None:
    g = reloading_game(_archers_and_guards())
    events = g.apply(CHARGE_OUT, ScriptedDice(SLAY + [1] * 4))  # then two Panic tests of 2D6, passed on 1s
    charge = next(e for e in events if e.kind == "charge")
    assert dict(charge.data)["outcome"] == "slain", charge
    panics = _panics(events)
    assert [e.message.split(" ")[0] for e in panics] == ["spears", "guards"], [e.message for e in panics]
    assert all(PANIC in e.rules and "t9a.charge-out.declare" in e.rules for e in panics), panics
    assert "hero destroyed" in panics[0].message, panics[0].message
    assert g.state.unit("spears").has(Status.PANIC_PASSED) and g.state.unit("guards").has(Status.PANIC_PASSED)
    reloads(g)


@pytest.mark.rule(PANIC, "t9a.charge-out.declare", "t9a.charge-out.stand-and-shoot")
def test_a_character_who_survives_stand_and_shoot_charging_out_panics_nobody() -> None:
    g = reloading_game(_archers_and_guards())
    # five misses, then the Charge Range 6 + 6
    events = g.apply(CHARGE_OUT, ScriptedDice([1] * 5 + [6, 6]))
    assert not _panics(events)
    assert g.state.unit("hero").alive


# -- 2. Stubborn in the judge's Break test --------------------------------------------------------------------------
def _break_test(stubborn: bool) -> tuple[Game, dict[str, Any]]:
    data = scenario(phase="melee", active="elves", joined=False, spear_rules=["Stubborn"] if stubborn else [])
    test = {"do": "test", "unit": "spears", "characteristic": "Ld", "kind": "Break",
            "modifiers": [{"kind": "add", "value": -3, "source": "combat score"}]}
    return Game(state_from_data(data)), test


@pytest.mark.rule(STUBBORN, "core.test.leadership", "core.test.leadership-kinds", "published.t9a-break-test")
def test_a_stubborn_unit_ignores_the_negative_modifier_of_a_judges_break_test() -> None:
    g, test = _break_test(stubborn=True)
    events = g.apply(test, ScriptedDice([4, 4]))  # 8: passes on the unmodified Ld 8
    assert "passes" in events[0].message and "Ld 8" in events[0].message, events[0].message
    assert STUBBORN in events[0].rules and "published.stubborn" not in events[0].rules, events[0].rules
    # a unit without Stubborn tests at -3: Ld 5, and 8 fails
    g, test = _break_test(stubborn=False)
    events = g.apply(test, ScriptedDice([4, 4]))
    assert "fails" in events[0].message and "Ld 5" in events[0].message, events[0].message
    assert STUBBORN not in events[0].rules


@pytest.mark.rule(STUBBORN, "core.test.leadership-kinds")
def test_stubborn_keeps_the_negative_modifier_of_a_test_other_than_break() -> None:
    g, test = _break_test(stubborn=True)
    events = g.apply({**test, "kind": "Panic"}, ScriptedDice([4, 4]))  # Panic: -3 stands, Ld 5, 8 fails
    assert "fails" in events[0].message and "Ld 5" in events[0].message, events[0].message
    assert STUBBORN not in events[0].rules


# -- 3. the reactive side's blows at a character of the active unit ----------------------------------------------------
def _melee() -> Game:
    """The Hero in the Spearmen's front rank (no Attacks among them), in base contact with one orc, o2."""
    return reloading_game(scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"],
                                   orc_status=["engaged"], spear_profile=STILL_SPEAR))


@pytest.mark.rule(TO_HIT, "t9a.join.part-of-unit")
def test_the_reactive_side_directs_its_blows_at_a_character_of_the_active_unit() -> None:
    g = _melee()
    fight = {"do": "fight", "unit": "spears", "reactive_at": "hero"}
    ruling = g.check(fight)
    assert ruling.legal and "t9a.join.part-of-unit" in ruling.rules, ruling
    assert "the models of orcs in base contact with hero attack it" in ruling.reason, ruling.reason
    events = g.apply(fight, ScriptedDice([1] * 40))
    told = next(e for e in events if e.kind == "fight").message
    # the orc in base contact with the Hero attacks him; the other four attack the Spearmen
    assert "orcs 1 attack at hero" in told and "orcs 4 attacks at spears" in told, told


@pytest.mark.rule(TO_HIT, "t9a.join.part-of-unit")
def test_reactive_at_names_an_active_character_in_base_contact_with_a_reactive_model() -> None:
    g = _melee()
    refused(g, {"do": "fight", "unit": "spears", "reactive_at": "orcs"}, "t9a.join.part-of-unit",
            "orcs is not a character of elves")
    refused(g, {"do": "fight", "unit": "spears", "reactive_at": "nobody"}, "t9a.join.part-of-unit",
            "nobody is not a character of elves")
    # the active side's own ``at`` cannot name its own character
    refused(g, {"do": "fight", "unit": "spears", "at": "hero"}, "t9a.join.part-of-unit", "not an enemy character")


@pytest.mark.rule(TO_HIT, "t9a.join.part-of-unit")
def test_reactive_at_refused_when_no_reactive_model_touches_the_character() -> None:
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=STILL_SPEAR, orcs=2)  # two orcs, 33.5" to 35.5": the Hero is 35.6" to 36.4"
    data["sides"]["orcs"][0]["formation"]["position"] = [34.5, 20]  # the orcs touch s0/s1 only
    g = reloading_game(data)
    refused(g, {"do": "fight", "unit": "spears", "reactive_at": "hero"}, "t9a.join.part-of-unit",
            "no model of orcs is in base contact with hero")


def test_reactive_at_is_refused_by_name_in_40k() -> None:
    from herohammer.rulesets.w40k3 import Warhammer40k3

    assert "reactive_at" in Warhammer40k3.unread_fields["fight"]


# -- 4. a unit with Fly charges flying unless it declares otherwise ---------------------------------------------------
def _flier() -> Game:
    from test_judge_t9a_round28 import _flier_behind_guards
    return _flier_behind_guards()


@pytest.mark.rule(FLY, "t9a.charge-out.own-rate", "t9a.leave.move")
def test_a_character_with_fly_charges_out_flying_unless_he_declares_he_will_not() -> None:
    g = _flier()
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
    ruling = g.check(charge)  # no fly given: he flies (the Guards are in his way on foot)
    assert ruling.legal and FLY in ruling.rules and "8\" + 2D6, flying" in ruling.reason, ruling
    # declared not to fly: on foot, the Guards bar the way
    refused(g, {**charge, "fly": False}, "published.t9a-move", "no clear way")
    events = g.apply(charge, ScriptedDice([3, 3]))
    assert FLY in events[-1].rules and g.state.unit("hero").joined is None, events[-1]
    reloads(g)


@pytest.mark.rule(FLY, "published.t9a-charge")
def test_a_unit_without_fly_charges_on_foot_and_fly_true_is_refused() -> None:
    from test_judge_t9a_round28 import _flier_behind_guards
    g = _flier_behind_guards(hero_rules=[])
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
    refused(g, charge, "published.t9a-move", "no clear way")  # on foot: he has no Fly
    refused(g, {**charge, "fly": True}, FLY, "has no Fly")


@pytest.mark.rule(FLY)
def test_fly_in_a_charge_is_true_false_or_absent() -> None:
    g = _flier()
    with pytest.raises(Exception, match="fly"):
        g.check({"do": "charge", "unit": "hero", "target": "orcs", "fly": 1})


@pytest.mark.rule(TO_HIT, "published.t9a-duel")
def test_reactive_at_may_not_name_a_duellist() -> None:
    from test_judge_t9a_duels_21 import _data
    g = reloading_game(_data())
    duel = {"do": "fight", "unit": "spears", "duel": "hero", "accept": "boss"}
    assert g.check(duel).legal
    refused(g, {**duel, "reactive_at": "hero"}, "published.t9a-duel", "hero fights the Duel: only boss may attack it")
