"""A judge's cases for The 9th Age's "Who can shoot?", played through the front door.

The published rule (Shooting Phase, Who can shoot?, published.t9a-who-can-shoot): normally only the
models in a unit's first and second rank shoot; a Stand and Shoot is made as if in the Shooting Phase,
so the same ranks shoot there.  A character joined to the unit stands in its first rank
(t9a.char.front-rank) and shoots from there; what has no ranks (a lone character) shoots with all.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from _t9a import refused, scenario
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.rulings import Event
from herohammer.scenario import state_from_data
from test_t9a_rules import scenario as charge_scenario

WHO = "published.t9a-who-can-shoot"
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
ORCS_SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
SPEARS_SHOOT = {"do": "shoot", "unit": "spears", "target": "orcs"}


def _to_hit_dice(events: list[Event], purpose: str) -> int:
    return sum(len(r.faces) for e in events for r in e.rolls if r.purpose.startswith(purpose))


@pytest.mark.rule(WHO)
def test_the_third_rank_does_not_shoot() -> None:
    g = Game(state_from_data(scenario(orcs=15)))  # fifteen orc archers, five files: three ranks
    assert g.state.unit("orcs").formation.ranks == 3  # type: ignore[union-attr]
    ruling = g.check(ORCS_SHOOT)
    assert ruling.legal and "orcs shoots 10 shots at spears" in ruling.reason
    assert WHO in ruling.rules
    assert any("5 models stand behind the second rank of orcs" in n and WHO in n for n in ruling.notes)
    events = g.apply(ORCS_SHOOT, ScriptedDice([1] * 10 + [1, 1]))  # ten shots, all miss; Panic needs nothing
    shoot = next(e for e in events if e.kind == "shoot")
    assert _to_hit_dice(events, "orcs shooting") == 10
    assert WHO in shoot.rules and "5 models stand behind the second rank" in shoot.message


@pytest.mark.rule(WHO)
def test_two_ranks_shoot_whole_and_say_nothing_of_ranks() -> None:
    g = Game(state_from_data(scenario(orcs=10)))
    ruling = g.check(ORCS_SHOOT)
    assert ruling.legal and "10 shots" in ruling.reason
    assert WHO not in ruling.rules and not any(WHO in n for n in ruling.notes)


@pytest.mark.rule(WHO)
def test_three_ranks_deep_hit_exactly_as_their_first_two_ranks() -> None:
    """The odds of fifteen archers three deep equal those of ten in two ranks, and icepool's binomial."""
    rules = get_ruleset("t9a")
    action = parse_action(ORCS_SHOOT)

    def odds(orcs: int) -> dict[int, Fraction]:
        state = state_from_data(scenario(orcs=orcs, n=20))

        def casualties(dice: Any) -> int:
            new, _ = rules.resolve(state, action, dice)
            return 20 - len(new.unit("spears").models)

        return {k: Fraction(v) for k, v in enumerate_outcomes(casualties).items()}

    deep = odds(15)
    assert deep == odds(10)
    shot = icepool.Die({1: 1, 0: 8})  # long range 5+, S3 v T3 4+, save 5+: 1/9 of a shot kills
    assert deep == {k: Fraction(n, (10 @ shot).denominator()) for k, n in (10 @ shot).items()}


@pytest.mark.rule(WHO)
def test_a_unit_whose_bows_are_all_in_the_third_rank_has_no_shot() -> None:
    data = scenario(n=15, active="elves", joined=False)
    models = data["sides"]["elves"][0]["models"]
    for m in models[10:]:  # the third rank: slots 10 to 14
        m["weapons"] = ["bow"]
    g = Game(state_from_data(data))
    assert [g.state.unit("spears").formation.rank_of(m["name"]) for m in models[10:]] == [2] * 5  # type: ignore
    refused(g, SPEARS_SHOOT, WHO, "5 models stand behind the second rank of spears")


@pytest.mark.rule(WHO, "t9a.char.front-rank")
def test_a_character_in_the_first_rank_of_a_deep_unit_shoots() -> None:
    g = Game(state_from_data(scenario(n=15, active="elves", hero_weapons=["longbow"])))
    f = g.state.unit("spears").formation
    assert f is not None and f.ranks == 4 and f.rank_of("Hero") == 0
    ruling = g.check(SPEARS_SHOOT)
    assert ruling.legal and "spears shoots 1 shot at orcs" in ruling.reason
    assert WHO not in ruling.rules  # nobody with a missile weapon stands behind the second rank
    # the spearmen take bows: the Hero and nine of them shoot, six stand too far back
    data = scenario(n=15, active="elves", hero_weapons=["longbow"])
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    ruling = Game(state_from_data(data)).check(SPEARS_SHOOT)
    assert ruling.legal and "10 shots" in ruling.reason
    assert any("6 models stand behind the second rank of spears" in n for n in ruling.notes)


@pytest.mark.rule(WHO, "t9a.char.lone")
def test_a_lone_character_shoots_without_ranks() -> None:
    g = Game(state_from_data(scenario(active="elves", joined=False, hero_at=(28, 22), hero_weapons=["longbow"])))
    ruling = g.check({"do": "shoot", "unit": "hero", "target": "orcs"})
    assert ruling.legal and "1 shot " in ruling.reason and WHO not in ruling.rules


def _deep_archers() -> dict[str, Any]:
    """The Hero in the Spearmen; fifteen orc archers (three ranks) with Stand and Shoot 8" in front of them."""
    data = charge_scenario(joined=True, phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    orcs = data["sides"]["orcs"][0]["models"]
    orcs.extend({**orcs[0], "name": f"o{i}"} for i in range(5, 15))
    return data


@pytest.mark.rule(WHO, STAND_AND_SHOOT)
def test_stand_and_shoot_is_made_by_the_first_two_ranks() -> None:
    g = Game(state_from_data(_deep_archers()))
    assert g.state.unit("orcs").formation.ranks == 3  # type: ignore[union-attr]
    # ten archers BS3 (-1: 5+) shoot and miss; then 6, 6 to charge
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1] * 10 + [6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    assert _to_hit_dice(events, "Stand and Shoot: to hit") == 10
    assert STAND_AND_SHOOT in charge.rules and WHO in charge.rules
    assert "orcs stood and shot (10 shots)" in charge.message
    assert "5 models stand behind the second rank" in charge.message
    assert dict(charge.data)["outcome"] == "charged"


@pytest.mark.rule(WHO, STAND_AND_SHOOT)
def test_no_stand_and_shoot_when_only_the_third_rank_has_missile_weapons() -> None:
    data = _deep_archers()
    for m in data["sides"]["orcs"][0]["models"][:10]:
        m["weapons"] = []
    g = Game(state_from_data(data))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([6, 6]))  # only the charge
    charge = next(e for e in events if e.kind == "charge")
    assert _to_hit_dice(events, "Stand and Shoot") == 0 and dict(charge.data)["outcome"] == "charged"
    assert "cannot Stand and Shoot: 5 models stand behind the second rank" in charge.message and WHO in charge.rules
