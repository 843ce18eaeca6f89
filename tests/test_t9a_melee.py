"""The 9th Age Melee phase: characters in and out of units, allocation, combat resolution, Break, pursuit."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _t9a import refused, scenario
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.t9a_charts import to_hit_melee
from herohammer.units import Status

BOSS = {"id": "boss", "character": "independent", "joined": "orcs",
        "models": [{"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8", "base": [25, 25]}]}
FIGHT = {"do": "fight", "unit": "spears"}


def melee(boss: bool = True, spear_files: int = 5, boss_first: bool = False, active: str = "elves",
          **kw: Any) -> Game:
    data = scenario(phase="melee", active=active, enemy_y=20, spear_status=["engaged"], orc_status=["engaged"], **kw)
    data["sides"]["elves"][0]["formation"]["files"] = spear_files
    if boss:
        data["sides"]["orcs"].append(BOSS)
        if boss_first:
            data["sides"]["orcs"][0]["formation"]["order"] = ["Boss", "o0", "o1", "o2", "o3", "o4"]
    return Game(state_from_data(data))



@pytest.mark.rule("t9a.join.part-of-unit")
def test_attacks_go_to_the_rank_and_file_unless_models_in_contact_pick_the_character() -> None:
    g = melee()
    assert g.check({**FIGHT, "at": "boss"}).legal
    refused(g, {**FIGHT, "unit": "hero"}, "t9a.join.part-of-unit", "the unit fights")
    narrow = melee(spear_files=3, boss_first=True)
    refused(narrow, {**FIGHT, "at": "boss"}, "t9a.join.part-of-unit", "only those may attack it")
    # without 'at' every attack goes to the orcs' rank and file: the Boss is never wounded
    plain = melee()
    plain.apply(FIGHT, SeededDice(5))
    assert plain.state.unit("boss").models == () or plain.state.unit("boss").models[0].wounds_taken == 0
    assert "boss" not in plain.log[0].message.split("attacks at ")[1].split(":")[0]


@pytest.mark.rule("t9a.join.part-of-unit")
def test_directed_attacks_wound_the_character() -> None:
    g = melee()
    g.apply({**FIGHT, "at": "boss"}, SeededDice(11))
    fight = g.log[0]
    assert "attacks at boss" in fight.message and "t9a.join.part-of-unit" in fight.rules


@pytest.mark.rule("t9a.char.lone")
@pytest.mark.rule("t9a.join.part-of-unit")
def test_a_joined_character_struck_is_part_of_his_unit_not_a_lone_character() -> None:
    """The Boss joined to the orcs is part of that unit: a fight at him cites that, never the lone-character clause
    (which the lone Hero's fight below cites)."""
    g = melee()
    ruling = g.check({**FIGHT, "at": "boss"})
    assert ruling.legal and "t9a.join.part-of-unit" in ruling.rules and "t9a.char.lone" not in ruling.rules
    g.apply({**FIGHT, "at": "boss"}, SeededDice(11))
    fight = g.log[0]
    assert "attacks at boss" in fight.message
    assert "t9a.join.part-of-unit" in fight.rules and "t9a.char.lone" not in fight.rules


@pytest.mark.rule("t9a.char.lone")
def test_a_lone_character_charges_out_fights_and_the_enemy_breaks() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=27)
    g = Game(state_from_data(data), SeededDice(3))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([6, 6]))
    for _ in range(4):
        g.apply({"do": "end_phase"})
    assert [a.to_json() for a in g.legal_actions()][0] == {"do": "fight", "unit": "hero"}
    # Hero I6: 3 attacks WS6 v WS3 (3+); S4 v T4 (4+); the orcs' 6+ saves (the Hero's AP 0)
    # orcs I2: 3 orcs still touch? every orc in contact attacks the lone hero: WS3 v WS6 (4+)
    events = g.apply({"do": "fight", "unit": "hero"}, SeededDice(7))
    assert "t9a.char.lone" in events[0].rules
    assert any(e.kind in ("break", "combat") for e in events)
    assert state_from_data(state_to_data(g.state)) == g.state


@pytest.mark.rule("t9a.join.part-of-unit")
def test_break_test_on_the_characters_leadership_and_the_character_flees_and_dies_with_its_unit() -> None:
    orcs = melee(boss=False, active="orcs")
    # I6: the Hero's 3 attacks at the orcs (3+) miss; I5: 4 spearmen in contact and 5 supporting attacks miss;
    # I2: 5 orcs (4+) hit, wound (4+) and the 5+ saves fail: 5 spearmen slain. 5 to 0: Break test at -5 on
    # the Hero's Ld 9 (the unit's highest): 12 fails; flee 2, pursuit 12: the unit and its Hero are destroyed.
    dice = ScriptedDice([1, 1, 1] + [1] * 9 + [6] * 5 + [6] * 5 + [1] * 5 + [6, 6] + [1, 1] + [6, 6])
    events = orcs.apply({"do": "fight", "unit": "orcs"}, dice)
    brk = events[-1]
    assert brk.kind == "break" and "Ld 9 (Hero)" in brk.message and "core.test.leadership-choice" in brk.rules
    assert dict(brk.data)["outcome"] == "destroyed"
    assert not orcs.state.unit("spears").alive and not orcs.state.unit("hero").alive


@given(st.integers(0, 10), st.integers(0, 10))
def test_to_hit_in_melee_matches_the_published_table(att: int, dfn: int) -> None:
    if dfn == 0:
        want = 1
    elif att == 0:
        want = 6
    else:
        d = att - dfn
        want = {True: 2}.get(d >= 4) or (3 if d >= 1 else 4 if d >= -3 else 5 if d >= -7 else 6)
    assert to_hit_melee(att, dfn) == want


# -- Duels -------------------------------------------------------------------------------------------
DUEL = "published.t9a-duel"
NO_ATTACKS_SPEAR = "WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10"
NO_ATTACKS_ORC = "WS3 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8"


def _duel_game() -> Game:
    """The Hero (in the Spearmen) and the Boss (in the orcs) face each other; only they have Attacks."""
    return melee(spear_profile=NO_ATTACKS_SPEAR, orc_profile=NO_ATTACKS_ORC)


@pytest.mark.rule(DUEL)
def test_who_may_issue_accept_and_be_nominated_in_a_duel() -> None:
    g = _duel_game()
    assert g.check({**FIGHT, "duel": "hero", "accept": "boss"}).legal
    assert DUEL in g.check({**FIGHT, "duel": "hero"}).rules  # refused; the Boss is the one who could accept
    refused(g, {**FIGHT, "duel": "spears", "accept": "boss"}, DUEL, "only such a character issues a Duel")
    refused(g, {**FIGHT, "duel": "hero", "accept": "orcs"}, DUEL, "cannot accept")
    refused(g, {**FIGHT, "duel": "hero", "nominate": "orcs"}, DUEL, "could not have accepted")
    refused(g, {**FIGHT, "duel": "hero", "accept": "boss", "nominate": "boss"}, DUEL, "nobody is nominated")
    refused(g, {**FIGHT, "accept": "boss"}, DUEL, "no Duel was issued")
    refused(g, {**FIGHT, "duel": "hero", "accept": "boss", "at": "boss"}, DUEL, "only hero may attack it")
    alone = melee(boss=False)
    refused(alone, {**FIGHT, "duel": "hero"}, DUEL, "could accept a Duel")


@pytest.mark.rule(DUEL)
def test_duellists_strike_only_each_other_and_overkill_counts_toward_the_combat_score() -> None:
    # I6: the Hero's 3 attacks at the Boss (3+): 6 6 6; wound (4+): 6 6 6; Sv5+ -1 = 6+: 1 1 1.
    # 3 unsaved on the Boss's 2 Wounds: 2 lost + 1 Overkill; the Boss is slain before his I3.
    # 2 (Wounds lost) + 1 (Overkill) + 1 (second full rank) = 4 to 0: the orcs break test on Ld 7 - 4: 1 1 holds.
    g = _duel_game()
    events = g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice([6, 6, 6] * 2 + [1, 1, 1] + [1, 1]))
    assert [e.kind for e in events] == ["duel", "fight", "combat"]
    assert "Overkill: elves +1" in events[1].message and DUEL in events[1].rules
    assert "elves wins by 4" in events[2].message
    assert not g.state.unit("boss").alive
    # the same blows directed at the Boss outside a Duel: the third wound is lost, a win by 3
    plain = _duel_game()
    events = plain.apply({**FIGHT, "at": "boss"}, ScriptedDice([6, 6, 6] * 2 + [1, 1, 1] + [1, 1]))
    assert "Overkill" not in events[0].message and "elves wins by 3" in events[-1].message


@pytest.mark.rule(DUEL)
def test_only_the_duellists_strike_each_other_in_a_duel() -> None:
    g = melee()  # everyone has Attacks
    events = g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, SeededDice(4))
    lines = events[1].message.split(": ", 1)[1].split("; ")
    at_boss = [x for x in lines if "attacks at boss" in x]
    at_hero = [x for x in lines if "attacks at hero" in x]
    assert at_boss and all(x.startswith("I6: elves 3 attacks") for x in at_boss)  # the Hero's 3, nobody else's
    assert all(x.startswith("I3: orcs 3 attacks") for x in at_hero)  # the Boss's 3 (if he lives to strike)
    assert state_from_data(state_to_data(g.state)) == g.state


@pytest.mark.rule(DUEL)
def test_a_refused_duel_shames_the_nominated_character() -> None:
    # the Boss refuses: he makes no attacks and the orcs' Break test uses Ld 7, not his 8.
    # I6: the Hero's 3 attacks at the orcs' rank and file (3+): 6 6 6; wound T4 (4+): 6 6 6; their 6+ saves fail: 1 1 1.
    g = _duel_game()
    events = g.apply({**FIGHT, "duel": "hero"}, ScriptedDice([6, 6, 6] * 2 + [1, 1, 1] + [1, 1]))
    assert events[0].kind == "duel" and dict(events[0].data)["outcome"] == "refused"
    assert "attacks at hero" not in events[1].message and "I3" not in events[1].message
    assert "Ld 7" in events[-1].message and DUEL in events[-1].rules
    plain = _duel_game()
    events = plain.apply(FIGHT, ScriptedDice([6, 6, 6] * 2 + [1, 1, 1] + [1, 1, 1] + [1, 1]))  # the Boss strikes: misses
    assert "Ld 8" in events[-1].message
