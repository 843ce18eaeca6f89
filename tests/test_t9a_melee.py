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
def test_a_lone_character_charges_out_fights_and_the_enemy_breaks() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=27)
    g = Game(state_from_data(data), SeededDice(3))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([6, 6]))
    for _ in range(4):
        g.apply({"do": "end_phase"})
    assert [a.to_json() for a in g.legal_actions()][0] == {"do": "fight", "unit": "hero"}
    # Hero I6: 3 attacks WS6 v WS3 (3+): 6, 6, 6; S4 v T4: 6, 6, 1; Sv6+ worsened: none -> 2 slain
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
