"""Round 33: a 9th Age judge's cases on the character rules of seed 002 (XX.2 Characters) played as sequences through
Game: a character who joins then tries to join again or the unit tries to move, characters joining each other, a
character leaving a unit that is engaged or fleeing, a unit's charge ban lasting one player turn only after a charge
out, Stand and Shoot at a charge out, Front Rank on joining a full front rank, a character joining a Wizard Conclave,
a unit shot away around its character who then acts alone.

Wrong ruling found: a fleeing or engaged lone character told he "cannot move to join" a free unit was refused under
t9a.join.forbidden alone, the clause about the unit joined; the refusal is for his own move into base contact, and now
also cites t9a.join.move, t9a.char.lone and published.t9a-move (book entry t9a-a-fleeing-character-does-not-move-to-join).
Every other case held as the seed reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from _t9a import HERO, SPEAR, melee_scenario, play_to, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.rulesets.t9a_units import model_wounds
from herohammer.units import Status

LEAVE = "t9a.leave.when"


def _mage(data: dict[str, Any], at: tuple[float, float] | None = None, joined: str | None = None) -> dict[str, Any]:
    mage: dict[str, Any] = {"id": "mage", "character": "independent",
                            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]}
    if joined:
        mage["joined"] = joined
    else:
        mage["models"][0]["at"] = list(at or (31, 18))
    data["sides"]["elves"].append(mage)
    return data


def _guards(data: dict[str, Any]) -> dict[str, Any]:
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [20, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


# -- 1. joining, then acting again in the same phase ---------------------------------------------------------------------
@pytest.mark.rule("t9a.join.move", "t9a.join.part-of-unit", LEAVE)
def test_a_character_who_joined_does_not_join_another_unit_in_the_same_phase() -> None:
    g = reloading_game(_guards(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22),
                                        enemy_y=44)))
    ruling = g.check({"do": "join", "character": "hero", "unit": "spears"})
    assert ruling.legal and "t9a.join.move" in ruling.rules, ruling
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    assert g.state.unit("hero").joined == "spears"
    # having moved to join he may not leave this phase, to join another unit or otherwise (round 38: the join was
    # refused as "part of spears ... must leave it first", now as the leave it would be)
    refused(g, {"do": "join", "character": "hero", "unit": "guards"}, LEAVE, "has already moved")
    refused(g, {"do": "leave", "character": "hero", "to": [28, 23]}, LEAVE, "has already moved")
    reloads(g)


@pytest.mark.rule("t9a.join.unit-stops")
def test_a_unit_a_character_joined_does_not_march_but_an_other_unit_still_moves() -> None:
    g = reloading_game(_guards(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22),
                                        enemy_y=44)))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 17]]}, "t9a.join.unit-stops", "cannot move again")
    assert g.check({"do": "move", "unit": "guards", "to": [[20, 17]]}).legal


@pytest.mark.rule("t9a.leave.when", "t9a.join.move")
def test_a_character_who_joined_does_not_leave_again_in_the_same_phase() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22), enemy_y=44))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    refused(g, {"do": "leave", "character": "hero", "to": [30, 22]}, LEAVE, "has already moved")


@pytest.mark.rule("t9a.leave.when")
def test_a_character_who_joined_last_turn_leaves_in_the_next_movement_phase() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22), enemy_y=44))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    play_to(g, "movement", "orcs")
    play_to(g, "movement", "elves")
    ruling = g.check({"do": "leave", "character": "hero", "to": [36, 26]})
    assert ruling.legal and LEAVE in ruling.rules, ruling
    g.apply({"do": "leave", "character": "hero", "to": [36, 26]})
    assert g.state.unit("hero").joined is None
    reloads(g)


# -- 2. characters joining each other --------------------------------------------------------------------------------------
@pytest.mark.rule("t9a.join.character-units", "t9a.join.single-rank")
def test_a_character_joins_a_lone_character_and_they_form_one_unit() -> None:
    data = _mage(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 30), enemy_y=44),
                 at=(30, 26))
    g = reloading_game(data)
    # the lone Hero is a unit of one rank: the player chooses to widen it or to start a second rank
    refused(g, {"do": "join", "character": "mage", "unit": "hero"}, "t9a.join.single-rank", "rank_choice")
    ruling = g.check({"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen"})
    assert ruling.legal, ruling
    g.apply({"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen"})
    assert g.state.unit("mage").joined == "hero"
    reloads(g)


# -- 3. leaving a unit that cannot move ------------------------------------------------------------------------------------
@pytest.mark.rule(LEAVE)
@pytest.mark.parametrize("status, legal", [([], True), (["fleeing"], False)])
def test_a_character_does_not_leave_a_fleeing_unit(status: list[str], legal: bool) -> None:
    g = reloading_game(scenario(phase="movement", active="elves", enemy_y=44, spear_status=status))
    leave = {"do": "leave", "character": "hero", "to": [36, 26]}
    if legal:
        ruling = g.check(leave)
        assert ruling.legal and LEAVE in ruling.rules, ruling
    else:
        refused(g, leave, LEAVE, "fleeing")


@pytest.mark.rule(LEAVE)
def test_a_character_does_not_leave_an_engaged_unit() -> None:
    data = melee_scenario()
    data["phase"] = "movement"
    g = reloading_game(data)
    refused(g, {"do": "leave", "character": "hero", "to": [36, 14]}, LEAVE, "engaged")


@pytest.mark.rule(LEAVE, "t9a.charge-out.declare")
def test_a_character_does_not_charge_out_of_an_engaged_unit() -> None:
    data = melee_scenario()
    data["phase"] = "charge"
    g = reloading_game(data)
    ruling = g.check({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"})
    assert not ruling.legal and "engaged" in ruling.reason, ruling


# -- 4. a charge out bars the unit for that player turn only ----------------------------------------------------------------
@pytest.mark.rule("t9a.charge-out.no-other-charges", "t9a.charge-out.failure")
def test_the_unit_a_character_failed_to_charge_out_of_charges_again_next_turn() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=32))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([1, 1]))
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"},
            "t9a.charge-out.no-other-charges", "cannot declare a charge")
    play_to(g, "charge", "orcs")
    play_to(g, "charge", "elves")
    ruling = g.check({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"})
    assert ruling.legal, ruling


# -- 5. a unit shot away around its character -------------------------------------------------------------------------------
@pytest.mark.rule("t9a.combined.last-survivor", "t9a.char.lone", "published.t9a-move")
def test_a_character_whose_unit_was_shot_away_moves_alone_next_turn() -> None:
    g = reloading_game(scenario(n=1, phase="shooting", active="orcs", enemy_y=40))
    # five 6s hit, the hits split between the last Spearman and the Hero; s0 is slain, the Hero takes no wound;
    # the Hero alone takes the Panic test for the unit (2, passed)
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [6] * 12))
    assert "slain: s0" in events[0].message, events[0].message
    panic = next(e for e in events if e.kind == "panic")
    assert panic.message.startswith("hero passes its Panic test") and "t9a.combined.last-survivor" in panic.rules
    assert not g.state.unit("spears").models and g.state.unit("hero").joined is None
    play_to(g, "movement", "elves")
    # alone, he is still the Spearmen: named either way he moves at his own Advance Rate, as a unit of one
    for name in ("hero", "spears"):
        ruling = g.check({"do": "move", "unit": name, "to": [[36, 24]]})
        assert ruling.legal and "t9a.char.lone" in ruling.rules and "t9a.combined.last-survivor" in ruling.rules
    g.apply({"do": "move", "unit": "spears", "to": [[36, 24]]})
    assert g.state.unit("hero").models[0].at == (36, 24)
    refused(g, {"do": "move", "unit": "hero", "to": [[36, 26]]}, "published.t9a-move", "moved")
    reloads(g)


# -- 6. Stand and Shoot at a charge out; Front Rank on joining a full front rank ----------------------------------------------
@pytest.mark.rule("t9a.charge-out.stand-and-shoot", "published.t9a-stand-and-shoot", "t9a.charge-out.own-rate")
def test_stand_and_shoot_at_a_character_charging_out_wounds_him_and_never_his_unit() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=34))
    # two of five shots hit (6 6 1 1 1), both wound (6 6), the Hero saves one (1 6): one wound on him
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"},
                     ScriptedDice([6, 6, 1, 1, 1] + [6, 6] + [1, 6] + [6, 6]))
    charge = events[0]
    assert "t9a.charge-out.stand-and-shoot" in charge.rules and "t9a.charge-out.own-rate" in charge.rules, charge
    assert g.state.unit("hero").models[0].wounds_taken == 1
    assert len(g.state.unit("spears").models) == 10 and all(m.wounds_taken == 0 for m in g.state.unit("spears").models)
    assert g.state.unit("hero").joined is None
    reloads(g)


@pytest.mark.rule("t9a.char.front-rank", "t9a.join.position")
def test_a_character_joining_a_full_front_rank_stands_in_it_and_pushes_a_model_back() -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22), enemy_y=44))
    events = g.apply({"do": "join", "character": "hero", "unit": "spears"})
    assert "in the first rank" in events[0].message and "t9a.join.position" in events[0].rules, events[0]
    front_y = g.state.unit("hero").models[0].at[1]
    spears = g.state.unit("spears").models
    # five files: the Hero and four Spearmen in front, the displaced one behind; eleven models in three ranks
    assert sum(1 for m in spears if m.at[1] == front_y) == 4
    assert sum(1 for m in spears if m.at[1] < front_y) == 6
    reloads(g)


# -- 7. a character joins a Wizard Conclave ---------------------------------------------------------------------------------
@pytest.mark.rule("t9a.spell.wizard-conclave", "t9a.join.single-rank", "t9a.join.part-of-unit")
def test_a_character_who_joins_a_wizard_conclave_does_not_take_its_champions_wound() -> None:
    data = yaml.safe_load((Path(__file__).resolve().parents[1] / "examples" / "t9a_whole_turn.yaml").read_text())
    data["phase"] = "movement"
    data["sides"]["highborn"].append({"id": "mage", "character": "independent",
                                      "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [44, 24]}]})
    g = reloading_game(data)
    # the Conclave stands in one rank: the player must choose to widen it or to put the displaced model behind
    refused(g, {"do": "join", "character": "mage", "unit": "conclave"}, "t9a.join.single-rank", "rank_choice")
    join = {"do": "join", "character": "mage", "unit": "conclave", "rank_choice": "second_rank"}
    assert g.check(join).legal
    g.apply(join)
    conclave = g.state.unit("conclave")
    # the champion keeps his +1 Wound; the joined character keeps his own three, the other mages one each
    assert [model_wounds(conclave, m) for m in conclave.models] == [2, 1, 1, 1, 1]
    mage = g.state.unit("mage")
    assert mage.joined == "conclave" and model_wounds(conclave, mage.models[0]) == 3
    reloads(g)


# -- 8. after a charge out; the last survivor joining another unit ---------------------------------------------------------
@pytest.mark.rule("t9a.charge-out.success", "t9a.leave.unit-not-moved", "published.t9a-move")
def test_the_unit_a_character_charged_out_of_moves_in_the_movement_phase_and_he_does_not() -> None:
    g = reloading_game(scenario(phase="charge", active="elves", enemy_y=32))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([4, 3]))
    assert "t9a.charge-out.success" in events[0].rules and g.state.unit("hero").joined is None
    g.apply({"do": "end_phase"})
    assert g.state.phase.value == "movement"
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 18]]}).legal
    refused(g, {"do": "move", "unit": "hero", "to": [[36, 25]]}, "published.t9a-move", "engaged")
    g.apply({"do": "move", "unit": "spears", "to": [[36, 18]]})
    reloads(g)


@pytest.mark.rule("t9a.combined.last-survivor", "t9a.join.move", "t9a.char.lone")
def test_the_last_survivor_of_a_unit_shot_away_joins_another_unit_and_is_that_unit_no_more() -> None:
    data = scenario(n=1, phase="shooting", active="orcs", enemy_y=40)
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [30, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    g = reloading_game(data)
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [6] * 12))
    play_to(g, "movement", "elves")
    events = g.apply({"do": "join", "character": "hero", "unit": "guards", "rank_choice": "widen"})
    assert "it is spears no more" in events[0].message and "t9a.combined.last-survivor" in events[0].rules, events[0]
    assert g.state.unit("hero").joined == "guards"
    refused(g, {"do": "move", "unit": "guards", "to": [[30, 18]]}, "t9a.join.unit-stops", "cannot move again")
    reloads(g)


# -- 9. a character who cannot move cannot move to join ---------------------------------------------------------------------
@pytest.mark.rule("t9a.join.move", "published.t9a-move", "t9a.char.lone")
@pytest.mark.parametrize("status, legal", [([], True), (["fleeing"], False), (["engaged"], False)])
def test_a_fleeing_or_engaged_character_does_not_move_to_join_a_free_unit(status: list[str], legal: bool) -> None:
    g = reloading_game(scenario(phase="movement", active="elves", joined=False, hero_at=(30, 22), enemy_y=44,
                                hero_status=status))
    join = {"do": "join", "character": "hero", "unit": "spears"}
    if legal:
        assert g.check(join).legal
        return
    refused(g, join, "t9a.join.move", f"hero is {status[0]} and cannot move to join")
    ruling = g.check(join)
    assert "published.t9a-move" in ruling.rules and "t9a.char.lone" in ruling.rules, ruling


# -- 10. a character flees with his unit -------------------------------------------------------------------------------------
@pytest.mark.rule("t9a.join.part-of-unit", "published.t9a-panic")
def test_a_character_flees_with_his_unit_that_failed_a_panic_test_and_stays_part_of_it() -> None:
    g = reloading_game(scenario(n=10, phase="shooting", active="orcs", enemy_y=40))
    # five hits, three wound and go unsaved: a quarter lost, the Panic test fails on 6 6 against the Hero's Ld 9
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6, 6, 6, 1, 1] + [1, 1, 1] + [6] * 20))
    panic = next(e for e in events if e.kind == "panic")
    assert panic.message.startswith("spears fails its Panic test (12 against Ld 9, Hero)"), panic.message
    hero, spears = g.state.unit("hero"), g.state.unit("spears")
    assert hero.joined == "spears" and hero.has(Status.FLEEING) and spears.has(Status.FLEEING)
    assert len(spears.models) == 7
    reloads(g)
