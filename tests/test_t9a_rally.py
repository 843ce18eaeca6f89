"""The 9th Age Rally test: a fleeing unit rallies at the start of its turn, on its own or its General's Leadership."""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import refused, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.state import Phase
from herohammer.units import Status

RALLY = "published.t9a-rally"
GENERAL = "published.t9a-general"
RALLY_ACTION = {"do": "rally", "unit": "spears"}


def fleeing(general_at: tuple[float, float] | None = None) -> Game:
    """The Spearmen (Ld 8) with their Hero (Ld 9) flee; the orcs stand 14" ahead; a General (Ld 10) may be near."""
    data: dict[str, Any] = scenario(phase="charge", active="elves", spear_status=["fleeing"],
                                    hero_status=["fleeing"])
    if general_at is not None:
        data["sides"]["elves"].append({"id": "lord", "character": "independent", "rules": ["General"], "models": [
            {"name": "Lord", "profile": "WS7 BS7 S4 T4 W3 I7 A4 Ld10 Sv4+ Adv5 Mar10", "base": [20, 20],
             "at": list(general_at)}]})
    return Game(state_from_data(data))


@pytest.mark.rule(RALLY)
def test_a_fleeing_unit_must_take_its_rally_test_before_the_charge_phase_ends() -> None:
    g = fleeing()
    refused(g, {"do": "end_phase"}, RALLY, "must first take a Rally test")
    refused(g, {**RALLY_ACTION, "unit": "hero"}, "t9a.join.part-of-unit", "the unit rallies")
    assert any(a.to_json() == RALLY_ACTION for a in g.legal_actions())
    events = g.apply(RALLY_ACTION, ScriptedDice([4, 5]))  # 9 against the Hero's Ld 9: rallies
    assert dict(events[0].data)["outcome"] == "rallied" and RALLY in events[0].rules
    spears = g.state.unit("spears")
    assert not spears.has(Status.FLEEING) and not g.state.unit("hero").has(Status.FLEEING)
    assert spears.has(Status.MARCHED)  # it moves no further this turn and does not shoot
    refused(g, RALLY_ACTION, RALLY, "not fleeing")
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "published.t9a-charge", "it rallied this turn")
    g.apply({"do": "end_phase"})
    assert g.state.phase is Phase.MOVEMENT
    assert state_from_data(state_to_data(g.state)) == g.state
    calm = Game(state_from_data(scenario(phase="charge", active="elves")))
    refused(calm, RALLY_ACTION, RALLY, "not fleeing")


@pytest.mark.rule(RALLY)
def test_a_unit_that_fails_to_rally_flees_again_away_from_the_closest_enemy() -> None:
    g = fleeing()
    y0 = g.state.unit("spears").formation.position[1]  # type: ignore[union-attr]
    events = g.apply(RALLY_ACTION, ScriptedDice([6, 4, 3, 2]))  # 10 against Ld 9: fails; flees 5"
    assert dict(events[0].data)["outcome"] == "fled" and "published.t9a-flee" in events[0].rules
    spears = g.state.unit("spears")
    assert spears.has(Status.FLEEING) and spears.has(Status.RALLY_TESTED)
    assert spears.formation is not None and abs(spears.formation.position[1] - (y0 - 5)) < 1e-6  # the orcs are ahead
    refused(g, RALLY_ACTION, RALLY, "has taken its Rally test")
    g.apply({"do": "end_phase"})  # tested: the phase may end
    assert state_from_data(state_to_data(g.state)) == g.state


@pytest.mark.rule(GENERAL, RALLY)
def test_the_general_within_12_inches_lends_his_leadership() -> None:
    near = fleeing(general_at=(30, 10))
    ruling = near.check(RALLY_ACTION)
    assert ruling.legal and GENERAL in ruling.rules and "Ld 10 (Lord)" in ruling.reason
    events = near.apply(RALLY_ACTION, ScriptedDice([5, 5]))  # 10 against the General's Ld 10
    assert dict(events[0].data)["outcome"] == "rallied" and GENERAL in events[0].rules
    far = fleeing(general_at=(70, 45))  # more than 12" away: the unit's own Ld 9
    ruling = far.check(RALLY_ACTION)
    assert ruling.legal and GENERAL not in ruling.rules and "Ld 9" in ruling.reason
    events = far.apply(RALLY_ACTION, ScriptedDice([5, 5, 1, 1]))
    assert dict(events[0].data)["outcome"] == "fled"


@pytest.mark.rule(GENERAL, "published.t9a-break-test")
def test_the_general_within_12_inches_lends_his_leadership_to_a_break_test() -> None:
    from test_t9a_melee import melee

    g = melee(boss=False, active="orcs")
    g2 = melee(boss=False, active="orcs")
    lord = {"id": "lord", "character": "independent", "rules": ["General"], "models": [
        {"name": "Lord", "profile": "WS7 BS7 S4 T4 W3 I7 A4 Ld10 Sv4+ Adv5 Mar10", "base": [20, 20], "at": [30, 10]}]}
    data = state_to_data(g2.state)
    data["sides"]["elves"].append(lord)
    with_lord = Game(state_from_data(data))
    # as in test_t9a_melee: the Spearmen lose by 5 and test on Ld 9 (Hero) -5, or on the Lord's 10 -5
    dice = [1, 1, 1] + [1] * 9 + [6] * 5 + [6] * 5 + [1] * 5 + [6, 6] + [1, 1] + [6, 6]
    plain = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice(dice))
    assert "Ld 9 (Hero)" in plain[-1].message and GENERAL not in plain[-1].rules
    lent = with_lord.apply({"do": "fight", "unit": "orcs"}, ScriptedDice(dice))
    assert "Ld 10 (Lord)" in lent[-1].message and GENERAL in lent[-1].rules
