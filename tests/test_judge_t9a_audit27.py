"""Audit 27: The 9th Age rulings around Front Rank models (champion, musician, standard and characters) that the
engine got wrong, played through Game, the public front door.

1. A Reform that narrows a unit whose Front Rank models stand on the right of its first rank left them behind rank
   and file models in the second rank (t9a.char.front-rank); the state it wrote did not load back.
2. A character joining a unit whose first rank holds Front Rank models only pushed the Front Rank model he displaced
   into the second rank of his file, and the Front Rank model standing there into the third, behind rank and file
   models (t9a.join.position: the displaced Front Rank models go to places legal for them); the standard bearer
   then fell among the first casualties, from the rear rank.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from _t9a import HERO, STILL_SPEAR, exact_odds_as_brute_force, play_to, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data

FRONT_RANK = "t9a.char.front-rank"
REFORM = "published.t9a-reform"


def _ranks(g: Game, unit: str = "spears") -> list[tuple[str, ...]]:
    f = g.state.unit(unit).formation
    assert f is not None
    return [f.order[i:i + f.files] for i in range(0, len(f.order), f.files)]


# -- 1. a Reform keeps the Front Rank models in the first rank ---------------------------------------------------------
@pytest.mark.rule(FRONT_RANK, REFORM)
def test_a_reform_to_fewer_files_brings_the_champion_and_standard_into_the_new_first_rank() -> None:
    # ten spearmen five wide, the champion (s3) and the standard bearer (s4) on the right of the first rank
    g = Game(state_from_data(scenario(phase="movement", active="elves", joined=False, hero_at=(10, 10),
                                      roles={3: "champion", 4: "standard"})))
    reform = {"do": "reform", "unit": "spears", "files": 3}
    ruling = g.check(reform)
    assert ruling.legal and FRONT_RANK in ruling.rules and "s3, s4 (Front Rank) step into the first rank" in \
        ruling.reason, ruling
    events = g.apply(reform)
    assert FRONT_RANK in events[0].rules and "[t9a.char.front-rank]" in events[0].message, events
    ranks = _ranks(g)
    assert set(ranks[0]) >= {"s3", "s4"}, ranks  # they stood in the second rank, behind s0 and s1
    assert not {"s3", "s4"} & {n for r in ranks[1:] for n in r}, ranks
    reloads(g)  # the old state was refused at load: "s3, s4 must stand in the first rank"


@pytest.mark.rule(FRONT_RANK, REFORM)
def test_a_reform_that_keeps_the_command_in_front_cites_no_front_rank_move() -> None:
    g = Game(state_from_data(scenario(phase="movement", active="elves", joined=False, hero_at=(10, 10),
                                      roles={0: "champion", 1: "standard"})))
    reform = {"do": "reform", "unit": "spears", "files": 3}
    ruling = g.check(reform)
    assert ruling.legal and FRONT_RANK not in ruling.rules and "step" not in ruling.reason, ruling
    g.apply(reform)
    assert _ranks(g)[0] == ("s0", "s1", "s2")
    reloads(g)


# -- 2. a join displaces Front Rank models to places legal for them ---------------------------------------------------
def _full_command_with_characters() -> dict[str, Any]:
    """Ten spearmen five wide with champion, musician and standard, three characters already joined (six Front Rank
    models for five files: one stands in the second rank) and a fourth character close behind, free to join."""
    data = scenario(phase="movement", active="elves", roles={0: "champion", 1: "musician", 2: "standard"})
    elves = data["sides"]["elves"]
    for i in (2, 3):
        elves.append({"id": f"hero{i}", "character": "independent", "joined": "spears",
                      "models": [{"name": f"Hero{i}", "profile": HERO, "base": [20, 20]}]})
    elves.append({"id": "hero4", "character": "independent",
                  "models": [{"name": "Hero4", "profile": HERO, "base": [20, 20], "at": [36, 12]}]})
    return data


@pytest.mark.rule("t9a.join.position", FRONT_RANK)
def test_a_character_joining_an_all_front_rank_first_rank_pushes_no_front_rank_model_behind_rank_and_file() -> None:
    g = Game(state_from_data(_full_command_with_characters()))
    front = {"s0", "s1", "s2", "Hero", "Hero2", "Hero3", "Hero4"}
    ranks = _ranks(g)
    assert set(ranks[0]) <= front and len([n for n in ranks[1] if n in front]) == 1, ranks
    join = {"do": "join", "character": "hero4", "unit": "spears"}
    assert g.check(join).legal
    g.apply(join)
    ranks = _ranks(g)
    # seven Front Rank models: five in the first rank, the other two in the second; none in the third
    assert set(ranks[0]) <= front and "Hero4" in ranks[0], ranks
    assert len([n for n in ranks[1] if n in front]) == 2, ranks
    assert not front & {n for r in ranks[2:] for n in r}, ranks
    reloads(g)


@pytest.mark.rule("t9a.join.position", FRONT_RANK, "t9a.join.part-of-unit")
def test_after_the_join_the_first_casualties_come_from_the_rear_rank_not_the_standard_bearer() -> None:
    g = Game(state_from_data(_full_command_with_characters()))
    g.apply({"do": "join", "character": "hero4", "unit": "spears"})
    play_to(g, "shooting", "orcs")
    # three hits, three wounds, three failed saves: three rank and file fall, from the rear rank
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6, 6, 6, 1, 1] + [6, 6, 6] + [1, 1, 1]))
    assert "slain:" in events[0].message and "s2" not in events[0].message.split("slain:")[1], events[0].message
    assert "s2" in {m.name for m in g.state.unit("spears").models}


@pytest.mark.rule(FRONT_RANK)
def test_a_scenario_with_a_standard_behind_a_rank_of_rank_and_file_is_refused_and_one_in_the_second_rank_loads() -> None:
    data = _full_command_with_characters()
    data["sides"]["elves"] = data["sides"]["elves"][:-1]  # no fourth character
    g = Game(state_from_data(data))
    order = list(g.state.unit("spears").formation.order)  # type: ignore[union-attr]
    reloads(g)
    k, plain = order.index("s2"), len(order) - 1  # the standard (second rank) and the rear rank's last spearman
    assert 5 <= k < 10 <= plain and order[plain].startswith("s"), order
    order[k], order[plain] = order[plain], order[k]
    bad = scenario(phase="movement", active="elves", roles={0: "champion", 1: "musician", 2: "standard"})
    bad["sides"]["elves"] = data["sides"]["elves"]
    bad["sides"]["elves"][0]["formation"]["order"] = order
    with pytest.raises(ScenarioError, match=r"s2 must stand in the first rank .*never behind a rank holding one"):
        state_from_data(bad)


# -- 3. a character joining a lone character makes the single-rank choice ----------------------------------------------
@pytest.mark.rule("t9a.join.single-rank", "t9a.join.character-units")
def test_a_character_joining_a_lone_character_cites_the_single_rank_choice_it_makes() -> None:
    data = scenario(phase="movement", active="elves", joined=False, hero_at=(20, 10))
    data["sides"]["elves"].append({"id": "hero2", "character": "independent",
                                   "models": [{"name": "Hero2", "profile": HERO, "base": [20, 20], "at": [23, 10]}]})
    g = Game(state_from_data(data))
    unnamed = g.check({"do": "join", "character": "hero2", "unit": "hero"})
    assert not unnamed.legal and unnamed.rules == ("t9a.join.single-rank",), unnamed
    for choice in ("widen", "second_rank"):
        join = {"do": "join", "character": "hero2", "unit": "hero", "rank_choice": choice}
        ruling = g.check(join)
        assert ruling.legal and "t9a.join.single-rank" in ruling.rules, ruling
    events = g.apply({"do": "join", "character": "hero2", "unit": "hero", "rank_choice": "widen"})
    assert "t9a.join.single-rank" in events[0].rules, events
    assert g.state.unit("hero2").joined == "hero"
    reloads(g)


# -- 4. heavy casualties are counted over the phase --------------------------------------------------------------------
PANIC = "published.t9a-panic"


def _two_orc_units(phase: str = "shooting", n: int = 10, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``n`` spearmen (Ld 8), no character, facing two units of five orc archers in the orcs' ``phase``."""
    data = scenario(n=n, joined=False, hero_at=(10, 10), phase=phase, active="orcs", extra=extra)
    second = dict(data["sides"]["orcs"][0])
    second.update(id="orcs2", formation={"position": [52, 34], "facing": 180, "files": 5},
                  models=[{**m, "name": f"p{i}"} for i, m in enumerate(second["models"])])
    data["sides"]["orcs"].append(second)
    return data


#: One volley of five bows at the spearmen: ``dead`` hits wound and are not saved, the other shots miss.
def _volley(dead: int) -> list[int]:
    return [6] * dead + [1] * (5 - dead) + [6] * dead + [1] * dead


@pytest.mark.rule(PANIC, "core.test.leadership-kinds")
def test_two_volleys_of_one_phase_add_up_to_a_quarter_of_the_unit_and_call_for_a_panic_test() -> None:
    g = Game(state_from_data(_two_orc_units()))
    first = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(_volley(2)))
    assert [e.kind for e in first] == ["shoot"], first  # 2 of 10: less than a quarter
    reloads(g)  # the losses counted so far are part of the state (shot_this_phase)
    # 1 more of the 8 left: 3 of the 10 it had when the phase began, a quarter (the old engine counted 1 of 8)
    second = g.apply({"do": "shoot", "unit": "orcs2", "target": "spears"}, ScriptedDice(_volley(1) + [1, 1]))
    assert [e.kind for e in second] == ["shoot", "panic"], second
    assert PANIC in second[1].rules and "passes" in second[1].message, second[1]
    assert "3 of the 10 models it had when the phase began" in second[1].message, second[1].message
    g.apply({"do": "end_phase"})
    assert g.state.shot_this_phase == ()  # each phase counts its own losses
    reloads(g)


@pytest.mark.rule(PANIC)
def test_a_volley_that_takes_no_model_calls_for_no_panic_test_and_losses_short_of_a_quarter_call_for_none() -> None:
    g = Game(state_from_data(_two_orc_units(n=12)))
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(_volley(2)))
    # nothing more lost: no test, though 2 of 12 were lost earlier
    assert [e.kind for e in g.apply({"do": "shoot", "unit": "orcs2", "target": "spears"},
                                    ScriptedDice([1] * 5))] == ["shoot"]
    g = Game(state_from_data(_two_orc_units(n=13)))
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(_volley(2)))
    # 3 of 13 over the phase: short of a quarter
    assert [e.kind for e in g.apply({"do": "shoot", "unit": "orcs2", "target": "spears"},
                                    ScriptedDice(_volley(1)))] == ["shoot"]


@pytest.mark.rule(PANIC)
def test_a_scenario_gives_the_phase_losses_only_in_a_phase_that_counts_them() -> None:
    counted = _two_orc_units(extra={"shot_this_phase": {"spears": 12}})
    g = Game(state_from_data(counted))  # the spearmen had 12 when the Shooting phase began: 2 are lost already
    assert g.state.shot_this_phase == (("spears", 12),)
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(_volley(1) + [1, 1]))
    assert [e.kind for e in events] == ["shoot", "panic"] and "3 of the 12 models" in events[1].message, events
    with pytest.raises(ScenarioError, match=r"shot_this_phase.*not the movement phase \[published\.t9a-panic\]"):
        state_from_data(_two_orc_units(phase="movement", extra={"shot_this_phase": {"spears": 12}}))


# -- 5. a Musician or Standard Bearer is replaced by another rank-and-file model as a casualty --------------------------
COMMAND_GROUP = "published.t9a-command-group"


@pytest.mark.rule(COMMAND_GROUP, "t9a.join.part-of-unit")
def test_the_first_casualty_of_a_single_rank_with_its_standard_on_the_right_is_not_the_standard_bearer() -> None:
    g = Game(state_from_data(scenario(phase="shooting", active="orcs", n=5, joined=False, hero_at=(10, 10),
                                      roles={3: "musician", 4: "standard"})))
    # one hit, wounded, not saved: the place on the right (s4, the standard) falls; a spearman takes up the standard
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6, 1, 1, 1, 1, 6, 1]))
    assert "slain: s2 (s4 of the Command Group stands" in events[0].message, events[0].message
    assert COMMAND_GROUP in events[0].rules, events[0]
    assert {m.name for m in g.state.unit("spears").models} == {"s0", "s1", "s3", "s4"}
    reloads(g)


@pytest.mark.rule(COMMAND_GROUP)
def test_a_volley_that_takes_only_plain_rank_and_file_from_the_rear_cites_no_command_group() -> None:
    g = Game(state_from_data(scenario(phase="shooting", active="orcs", n=10, joined=False, hero_at=(10, 10),
                                      roles={0: "champion", 1: "musician", 2: "standard"})))
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6, 6, 1, 1, 1, 6, 6, 1, 1]))
    assert "slain: s9, s8" in events[0].message and COMMAND_GROUP not in events[0].rules, events[0]


@pytest.mark.rule(COMMAND_GROUP, "published.t9a-combat-resolution")
def test_a_standard_bearer_on_the_right_of_the_rank_keeps_his_plus_one_when_a_blow_falls_on_his_place() -> None:
    g = Game(state_from_data(scenario(phase="charge", active="orcs", n=5, joined=False, hero_at=(10, 10),
                                      roles={4: "standard"}, enemy_y=26, orcs=1, spear_profile=STILL_SPEAR,
                                      orc_profile="WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8")))
    g.apply({"do": "charge", "unit": "orcs", "target": "spears", "reaction": "hold"}, ScriptedDice([6, 6]))
    play_to(g, "melee", "orcs")
    # the orc's one blow hits, wounds and is not saved; the spearmen strike nothing (A0); Break test 1 + 1
    fight, result = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6, 6, 1, 1, 1]))
    assert "(slain: s3) (s4 of the Command Group stands" in fight.message and COMMAND_GROUP in fight.rules, fight
    # orcs 1 wound + 1 charge = 2, spears +1 for the standard: the orcs win by 1, not by 2
    assert "orcs wins by 1" in result.message and "spears +1 (standard)" in result.message, result.message


@pytest.mark.rule(PANIC, "core.test.leadership")
def test_the_exact_odds_of_the_second_volleys_panic_equal_brute_force_and_the_closed_form() -> None:
    g = Game(state_from_data(_two_orc_units()))
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice(_volley(2)))
    weights = exact_odds_as_brute_force(g.state, {"do": "shoot", "unit": "orcs2", "target": "spears"})
    # each bow: 5+ to hit at Long Range, 4+ to wound, the 5+ save failed on 1-4: 1/3 * 1/2 * 2/3 = 1/9 to slay;
    # any spearman slain makes 3 or more of 10 this phase: the Panic test, failed on 9+ (10/36) against Ld 8
    tested = 1 - Fraction(8, 9) ** 5
    assert sum(w for o, w in weights if "panic" in o.events) == tested
    assert sum(w for o, w in weights if "panic.outcome: fled" in o.events) == tested * Fraction(10, 36)


@pytest.mark.rule(COMMAND_GROUP)
def test_a_champion_slain_spares_no_command_group_model() -> None:
    from herohammer.rulesets.t9a_casualties import spared_command

    g = Game(state_from_data(scenario(phase="shooting", active="orcs", n=5, joined=False, hero_at=(10, 10),
                                      roles={0: "champion", 4: "standard"})))
    spears = g.state.unit("spears")
    assert spared_command(spears, ["s0"]) == ()  # a Duel's Champion falls: nobody took the standard's place
    assert spared_command(spears, ["s3"]) == ("s4",)  # the place on the right fell to s3 instead
    assert spared_command(spears, ["s4"]) == ()  # the standard itself fell (no one else was left to)
