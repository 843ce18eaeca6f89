"""A judge's cases for 40k 3rd and 4th edition, fourth round: what the third round left (a character slain in the
volley that breaks his squad, regrouping, Trapped!, 3rd edition's own fall back) and more sequences where the
state changes around a character.

Each case plays actions through ``Game`` (``check``, ``apply``, ``undo``) and asserts what the seeds' words (000,
001) or the published rulebook say: the legal case and the illegal one, the clause cited, and that a refused
action changes nothing (``assert_illegal``).
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (HERO, assert_illegal, assert_legal, game, gunners, hero, model, scenario, shoot_then_test, squad,
                   undo_to)

LEADERSHIP = {"40k3": "40k3.char.leadership", "40k4": "40k4.char.leadership"}
BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])


def bolters(n: int, x: float = 20, y: float = 30) -> dict[str, Any]:
    """Return a blue team of ``n`` boltgunners (S4 AP5: a Marine's 3+ save stands)."""
    return {"id": "bolt", "models": [{**model(f"Gunner {i + 1}", x + 2 * i, y), "weapons": ["boltgun"]}
                                     for i in range(n)]}


def positions(g: Game, *uids: str) -> dict[str, list[tuple[float, float]]]:
    return {u: [m.at for m in g.state.unit(u).models] for u in uids}


# == a character slain in the volley that breaks his squad ===================================
def squad_with_captain(ruleset: str, n: int = 5, guns: int = 6, **extra: Any) -> Game:
    """Red's squad of ``n`` Marines (Ld 7) led by a one-Wound Captain (Ld 10), shot at by ``guns`` boltguns."""
    cap = hero("cap", 22, 11.5, ld=10, joined="tac", **extra)
    cap["models"][0]["profile"] = "WS5 BS5 S4 T4 W1 I5 A3 Ld10 Sv3+"
    red = [squad("tac", 20, 10, n=n, ld=7, **extra), cap]
    return game(scenario(ruleset, red, [bolters(guns)], phase="shooting", active="blue"))


SHOOT = {"do": "shoot", "unit": "bolt", "target": "tac"}


@pytest.mark.rule("published.wound-allocation", "published.morale-casualties", "40k3.char.leadership",
                  "40k4.char.leadership")
@BOTH
def test_a_captain_slain_in_the_volley_that_breaks_his_squad_leaves_it_to_test_on_its_own_leadership(
        ruleset: str) -> None:
    """4th ed., Removing casualties: "each [wounding hit] will affect a different model", so six wounds on five
    Marines and their Captain reach the Captain too. When his save fails he is slain with two Marines; the squad
    (3 of 6 lost) then tests, and a unit is no longer "joined by" a dead character (seeds 000/001): Ld 7, not 10.
    When he saves, the same two losses are tested on his Ld 10."""
    g = squad_with_captain(ruleset)
    start = g.state
    hits_wounds = [6] * 12
    events = shoot_then_test(g, SHOOT, hits_wounds + [6, 6, 6, 1, 1] + [1] + [6, 6, 2, 2])
    saves = [e for e in events if e.kind == "saves"]
    assert [e.message.split(":")[0] for e in saves] == ["5 models", "Cap"]  # one wound each, the Captain's sixth
    assert not g.state.unit("cap").alive and len(g.state.unit("tac").models) == 3
    morale = [e for e in events if e.kind == "morale"]
    assert len(morale) == 1 and "lost 3 of 6" in morale[0].message and "Ld 7" in morale[0].message
    assert LEADERSHIP[ruleset] not in morale[0].rules
    assert g.state.unit("tac").has(Status.FALLING_BACK)
    undo_to(g, start)
    assert g.state.unit("cap").alive and g.ruleset.leadership_of(g.state, "tac").value == 10
    events = shoot_then_test(g, SHOOT, hits_wounds + [6, 6, 6, 1, 1] + [6] + [5, 5])
    morale = [e for e in events if e.kind == "morale"]
    assert len(morale) == 1 and "lost 2 of 6" in morale[0].message and "Ld 10" in morale[0].message
    assert LEADERSHIP[ruleset] in morale[0].rules and not g.state.unit("tac").has(Status.FALLING_BACK)


# == a pinned squad is spared the Morale check for shooting casualties =========================
@pytest.mark.rule("published.morale-casualties", "published.pinning")
@BOTH
def test_a_pinned_squad_and_its_captain_take_no_morale_check_for_shooting_casualties(ruleset: str) -> None:
    """4th ed., Taking Morale tests (shooting casualties): "A unit that is already falling back, is pinned or is
    locked in close combat does not have to take this test". The engine used to test a pinned squad, and its
    Captain fell back with it. Unpinned, the same losses call for the check."""
    g = squad_with_captain(ruleset, n=3, guns=4, status=["pinned"])
    start = g.state
    events = shoot_then_test(g, SHOOT, [6] * 4 + [6] * 4 + [1, 1, 6] + [6])
    assert len(g.state.unit("tac").models) == 1 and g.state.unit("cap").alive
    spared = [e for e in events if e.kind == "morale"]
    assert len(spared) == 1 and "pinned" in spared[0].message and not spared[0].rolls
    assert "published.pinning" in spared[0].rules and "published.morale-casualties" in spared[0].rules
    assert not g.state.unit("tac").has(Status.FALLING_BACK) and not g.state.unit("cap").has(Status.FALLING_BACK)
    undo_to(g, start)
    assert len(g.state.unit("tac").models) == 3
    free = squad_with_captain(ruleset, n=3, guns=4)
    events = shoot_then_test(free, SHOOT, [6] * 4 + [6] * 4 + [1, 1, 6] + [6] + [6, 6, 3, 3])
    tested = [e for e in events if e.kind == "morale"]
    assert len(tested) == 1 and tested[0].rolls and "Ld 10" in tested[0].message and "fails" in tested[0].message
    assert free.state.unit("cap").has(Status.FALLING_BACK)


# == regrouping needs the unit in coherency ====================================================
def falling_back_squad(ruleset: str, trooper_at: tuple[float, float] = (24, 20),
                       captain_at: tuple[float, float] = (22, 21.5), orks_y: float = 40) -> Game:
    """Red's falling back squad (Ld 8) with its Captain (Ld 10), at the start of red's Movement phase."""
    tac = squad("tac", 20, 20, ld=8, status=["falling_back"])
    tac["models"][2]["at"] = list(trooper_at)
    red = [tac, hero("cap", *captain_at, ld=10, joined="tac", status=["falling_back"])]
    return game(scenario(ruleset, red, [squad("orks", 20, orks_y)], phase="movement"))


@pytest.mark.rule("published.regroup", "published.coherency", "published.fall-back", "40k3.ic.falling-back",
                  "40k4.ic.falling-back")
@BOTH
def test_a_falling_back_squad_out_of_coherency_may_not_regroup_and_falls_back_again(ruleset: str) -> None:
    """4th ed. p. 48, Regrouping: a unit may test to regroup "so long as ... 3. The unit is in coherency"; if it
    "cannot regroup because of the restrictions given above, then it must continue to fall back". A Marine 8"
    from his squad, or the Captain who may not leave it 6" away, leaves the unit out of coherency: no test, and
    the phase ends with its fall back. The engine used to let it test (and regroup on the Captain's Ld 10)."""
    g = falling_back_squad(ruleset)
    assert_legal(g, {"do": "regroup", "unit": "tac"}, "published.regroup")
    for apart in (falling_back_squad(ruleset, trooper_at=(30, 20)),
                  falling_back_squad(ruleset, captain_at=(22, 27))):
        refused = assert_illegal(apart, {"do": "regroup", "unit": "tac"}, "published.regroup")
        assert "coherency" in str(refused) and "published.coherency" in refused.rules
    before = positions(apart, "tac", "cap")
    events = apart.apply({"do": "end_phase"}, dice=ScriptedDice([2, 3]))
    assert any(e.kind == "fall_back" and "5\"" in e.message for e in events)
    now = positions(apart, "tac", "cap")
    assert all(b[1] - a[1] == pytest.approx(-5) for u in before for a, b in zip(before[u], now[u]))
    assert apart.state.unit("tac").has(Status.FALLING_BACK) and apart.state.unit("cap").joined == "tac"
    apart.undo()
    assert positions(apart, "tac", "cap") == before


@pytest.mark.rule("published.assaulted-while-falling-back", "published.regroup")
@BOTH
def test_a_falling_back_squad_out_of_coherency_still_tests_when_assaulted(ruleset: str) -> None:
    """4th ed. p. 48, Assaulted while falling back: "even units which would not normally be allowed to regroup are
    allowed to make the check" - the coherency bar does not apply; passing on the Captain's Ld 10 it fights."""
    tac = squad("tac", 20, 20, ld=8, status=["falling_back"])
    tac["models"][2]["at"] = [30, 20]
    red = [tac, hero("cap", 22, 21.5, ld=10, joined="tac", status=["falling_back"])]
    g = game(scenario(ruleset, red, [squad("orks", 20, 16)], phase="assault", active="blue"))
    events = g.apply({"do": "assault", "unit": "orks", "target": "tac"}, dice=ScriptedDice([5, 5]))
    test = next(e for e in events if e.kind == "regroup")
    assert "Ld 10" in test.message and "published.assaulted-while-falling-back" in test.rules
    assert not g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.LOCKED)


# == falling back through difficult terrain ====================================================
WOOD = {"id": "wood", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 30], [10, 30]]}


@pytest.mark.rule("published.fall-back", "published.difficult-terrain", "40k3.ic.falling-back", "40k4.ic.falling-back")
@BOTH
def test_a_squad_falling_back_into_a_wood_moves_half_the_roll_with_its_captain(ruleset: str) -> None:
    """4th ed. p. 48, Fall Back!: "If the unit moves into, out of or through difficult terrain, the distance rolled
    on the dice is halved for a Fall Back move." A squad and its Captain who fail their Morale check with a wood
    behind them fall back 3.5" on a roll of 7; the engine used to move them the full 7". With the wood elsewhere
    the same roll moves them 7"."""
    red = [squad("tac", 20, 20, ld=7), hero("cap", 22, 21.5, ld=8, joined="tac")]
    test = {"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Morale"}
    for wood, moved in ((WOOD, 3.5), ({**WOOD, "polygon": [[50, 24], [60, 24], [60, 30], [50, 30]]}, 7.0)):
        g = game(scenario(ruleset, red, [squad("orks", 20, 10)], phase="movement", terrain=[wood]))
        before = positions(g, "tac", "cap")
        events = g.apply(test, dice=ScriptedDice([6, 6, 3, 4]))
        fall = next(e for e in events if e.kind == "fall_back")
        assert ("published.difficult-terrain" in fall.rules) == (moved < 7)
        assert f"{moved:g}\"" in fall.message
        now = positions(g, "tac", "cap")
        assert all(b[1] - a[1] == pytest.approx(moved) for u in before for a, b in zip(before[u], now[u]))
        assert g.state.unit("cap").joined == "tac" and g.state.unit("cap").has(Status.FALLING_BACK)
        g.undo()
        assert positions(g, "tac", "cap") == before


# == a character left alone in base contact when his squad is cut down =========================
@pytest.mark.rule("40k4.cc.locked", "40k4.cc.separate-unit", "published.combat-resolution", "40k3.ic.no-last-man")
@pytest.mark.parametrize("ruleset, faces", [
    # Nob: 4 attacks, hits, wounds, the Marine's save; the Captain: 3 attacks, a wound, the Nob saves; Ld 9: 4
    ("40k3", [3, 3, 6, 6, 2, 6, 2, 6, 2, 2, 6, 6, 2, 2]),
    # 4th: the Boy within 2" of the Nob strikes at Initiative 2 (two misses); Ld 9 -1: 6
    ("40k4", [3, 3, 6, 6, 2, 6, 2, 6, 2, 2, 6, 6, 2, 2, 1, 5]),
])
def test_a_captain_left_alone_in_base_contact_when_his_squad_is_cut_down_stays_locked(
        ruleset: str, faces: list[int]) -> None:
    """Seed 001: "If the unit they have joined is locked in combat with the enemy, the character is locked with
    them"; once the squad is gone he is a unit of his own (seed 000: "he is already a separate unit"), who takes
    the loser's check himself, passes it, and stays locked with the Nob he touches. Undo gives the squad back."""
    red = [{"id": "squad", "status": ["locked"], "models": [{**model("Marine", 20, 22.016), "weapons": ["chainsword"]}]},
           hero("cap", 20.984, 23.0, ld=9, joined="squad", status=["locked"])]
    nob = {"name": "Nob", "profile": "WS4 BS2 S5 T4 W2 I5 A4 Ld7 Sv6+", "base": 25, "at": [20, 23]}
    boy = {"name": "Boy", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "base": 25, "at": [18.0, 23.5]}
    g = game(scenario(ruleset, red, [{"id": "boyz", "status": ["locked"], "models": [nob, boy]}], phase="assault",
                      active="blue"))
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice(faces))
    assert not g.state.unit("squad").alive
    cap = g.state.unit("cap")
    assert cap.alive and cap.joined is None and cap.has(Status.LOCKED) and not cap.has(Status.FALLING_BACK)
    assert g.state.unit("boyz").has(Status.LOCKED)
    check = next(e for e in events if e.kind == "morale")
    assert check.message.startswith("cap lost the combat") and "Ld 9" in check.message and "passes" in check.message
    assert not any(e.kind == "last_man" and "cap" not in e.message for e in events)
    g.undo()
    assert g.state.unit("squad").alive and g.state.unit("cap").joined == "squad"


# == a squad that loses a close combat with a Stubborn or a Fearless Captain in it ==============
def squad_locked_with_boyz(rules: list[str]) -> Game:
    """40k4: three Marines (Ld 7) and their Captain (Ld 10, ``rules``) locked with three Boyz and a Nob; blue fights."""
    red = [{"id": "squad", "status": ["locked"],
            "models": [{**model(f"Marine {i}", 20 + 2 * i, 22.016, ld=7), "weapons": ["chainsword"]} for i in range(3)]},
           hero("cap", 26, 22.016, ld=10, joined="squad", status=["locked"], rules=rules)]
    boyz = [{"name": f"Boy {i}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "base": 25, "at": [20 + 2 * i, 23]}
            for i in range(3)]
    nob = {"name": "Nob", "profile": "WS4 BS2 S5 T4 W2 I3 A4 Ld7 Sv6+", "base": 25, "at": [26, 23]}
    return game(scenario("40k4", red, [{"id": "boyz", "status": ["locked"], "models": [*boyz, nob]}],
                         phase="assault", active="blue"))


#: The Captain misses; a Marine wounds a Boy, who saves; the Nob wounds the Captain and the Boyz slay a Marine:
#: red loses by 2; the squad's Morale check rolls 5 + 4 = 9 (then, when it fails, it breaks off the Boyz' Sweeping
#: Advance, 6 against 1, published.sweeping-advance, and falls back 3 + 3).
LOST_BY_TWO = [2, 2, 1, 5, 4, 2, 6, 1, 6, 6, 3, 1, 2, 3, 1, 3, 5, 2, 5, 6, 6, 4, 6, 1, 5, 1, 5, 5, 4, 6, 1, 3, 3]


@pytest.mark.rule("published.stubborn", "published.fearless", "40k4.ic.rules-not-shared", "40k4.char.leadership",
                  "published.combat-resolution")
@pytest.mark.parametrize("rules, holds", [(["stubborn"], True), (["fearless"], False), ([], False)])
def test_40k4_a_squad_that_loses_a_combat_holds_with_a_stubborn_captain_not_with_a_fearless_one(
        rules: list[str], holds: bool) -> None:
    """Seed 001: a character's special rules are not conferred on the unit "unless specified in the rule itself
    (like in the Stubborn special rule)". Losing by 2, the squad tests on its Captain's Ld 10: with a Stubborn
    Captain the -2 is ignored and 9 passes; with a Fearless one the squad is not Fearless, tests at Ld 10 -2, fails
    and falls back, the Captain with it (he may not leave it, 40k4.ic.falling-back), as with a Captain of no rule."""
    g = squad_locked_with_boyz(rules)
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice(LOST_BY_TWO))
    result = next(e for e in events if e.kind == "combat_result")
    assert "red loses by 2" in result.message
    check = next(e for e in events if e.kind == "morale")
    assert check.message.startswith("squad lost the combat by 2") and "Ld 10" in check.message
    assert ("Stubborn" in check.message) == (rules == ["stubborn"])
    assert ("-2" in check.message) == (rules != ["stubborn"])
    assert ("published.stubborn" in check.rules) == (rules == ["stubborn"])
    assert "published.fearless" not in check.rules and check.rolls
    assert g.state.unit("squad").has(Status.FALLING_BACK) == (not holds)
    assert g.state.unit("cap").has(Status.FALLING_BACK) == (not holds) and g.state.unit("cap").joined == "squad"
    g.undo()
    assert g.state.unit("squad").has(Status.LOCKED) and not g.state.unit("cap").has(Status.FALLING_BACK)


# == too late to join once shots are fired ======================================================
@pytest.mark.rule("40k4.ic.movement-phase-only", "40k3.ic.movement-phase-only", "published.assault-after-shooting",
                  "40k3.ic.assault-alone", "40k4.assault.alone")
@BOTH
def test_a_captain_may_not_join_a_squad_that_has_shot_he_shoots_and_assaults_as_a_unit_of_his_own(
        ruleset: str) -> None:
    """Seeds 000/001: joining happens "only in the Movement phase". After the squad has shot at the Orks the
    Captain beside it may not join it (refused, nothing changes); he shoots on his own, at the Kommandos, and in
    the Assault phase each assaults only what it shot at (published.assault-after-shooting)."""
    movement = {"40k3": "40k3.ic.movement-phase-only", "40k4": "40k4.ic.movement-phase-only"}[ruleset]
    red = [gunners("tac", 20, 10, weapon="bolt pistol"),
           {**hero("cap", 26, 12), "models": [{**model("Cap", 26, 12, 10, HERO), "weapons": ["bolt pistol"]}]}]
    blue = [squad("orks", 20, 14), squad("kommandos", 28, 15)]
    g = game(scenario(ruleset, red, blue, phase="shooting"))
    g.apply({"do": "shoot", "unit": "tac", "target": "orks"}, dice=ScriptedDice([1, 1, 1]))
    join = {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 11]}
    assert_illegal(g, join, movement)
    # 4th edition: the Orks are closer to him, so he first passes a Target Priority test (published.target-priority)
    g.apply({"do": "shoot", "unit": "cap", "target": "kommandos"},
            dice=ScriptedDice(([1, 1] if ruleset == "40k4" else []) + [1]))
    g.apply({"do": "end_phase"})
    assert_illegal(g, join, movement)
    assert_legal(g, {"do": "assault", "unit": "tac", "target": "orks"})
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "kommandos"}, "published.assault-after-shooting")
    assert_legal(g, {"do": "assault", "unit": "cap", "target": "kommandos"})
    assert_illegal(g, {"do": "assault", "unit": "cap", "target": "orks"}, "published.assault-after-shooting")
    g.undo()
    g.undo()
    assert g.state.unit("cap").joined is None and not g.state.unit("cap").has(Status.SHOT)


# == a Captain slain in the fight his squad then loses ==========================================
@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership", "published.combat-resolution",
                  "40k4.cc.separate-unit")
@BOTH
def test_a_captain_slain_in_the_fight_his_squad_loses_lends_it_no_leadership(ruleset: str) -> None:
    """The Nob (Initiative 6) slays the one-Wound Captain (Ld 10) before anyone else strikes; the Boyz then win the
    combat by 1. The squad takes the loser's check on its own Ld 7 (4th: at -1), since it is no longer a unit
    joined by a character (seeds 000/001); with the fight undone, the Captain's Ld 10 is the squad's again."""
    red = [{"id": "squad", "status": ["locked"],
            "models": [{**model(f"Marine {i}", 20 + 2 * i, 22.016, ld=7), "weapons": ["chainsword"]} for i in range(3)]},
           hero("cap", 26, 22.016, ld=10, joined="squad", status=["locked"])]
    red[1]["models"][0]["profile"] = "WS5 BS5 S4 T4 W1 I5 A3 Ld10 Sv3+"
    boyz = [{"name": f"Boy {i}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "base": 25, "at": [20 + 2 * i, 23]}
            for i in range(3)]
    nob = {"name": "Nob", "profile": "WS4 BS2 S5 T4 W2 I6 A4 Ld7 Sv6+", "base": 25, "at": [26, 23]}
    g = game(scenario(ruleset, red, [{"id": "boyz", "status": ["locked"], "models": [*boyz, nob]}],
                      phase="assault", active="blue"))
    faces = [4, 3, 6, 5, 6, 3, 2, 4, 1, 3, 4, 3, 6, 4, 6, 5, 2, 5, 1, 6, 5, 2, 4, 3, 2]
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice(faces))
    assert not g.state.unit("cap").alive and g.state.unit("squad").alive
    assert any(e.kind == "combat_result" and "red loses by 1" in e.message for e in events)
    check = next(e for e in events if e.kind == "morale")
    assert check.message.startswith("squad lost the combat by 1") and "Ld 7" in check.message
    assert ("Ld 7 -1" in check.message) == (ruleset == "40k4") and LEADERSHIP[ruleset] not in check.rules
    g.undo()
    assert g.ruleset.leadership_of(g.state, "squad").value == 10


# == the Captain who outlives his falling back squad ============================================
@pytest.mark.rule("published.regroup", "40k3.ic.no-last-man", "40k4.char.no-last-man", "40k3.ic.falling-back",
                  "40k4.ic.falling-back")
@BOTH
def test_a_captain_who_outlives_his_falling_back_squad_falls_back_alone_and_regroups_on_his_own(
        ruleset: str) -> None:
    """Shot dead around its Captain, a falling back squad leaves him a unit of his own (no Last Man Standing), still
    falling back. A Regroup test is taken only at the start of his own Movement phase (refused out of it, citing
    the rule); there he tests alone, in coherency, on his own Ld 9."""
    red = [squad("tac", 20, 10, n=2, ld=7, status=["falling_back"]),
           hero("cap", 21, 11.5, ld=9, joined="tac", status=["falling_back"])]
    las = {"id": "las", "models": [{**model(f"Gunner {i + 1}", 20 + 2 * i, 30), "weapons": ["lascannon"]}
                                   for i in range(2)]}
    g = game(scenario(ruleset, red, [las], phase="shooting", active="blue"))
    g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6]))
    cap = g.state.unit("cap")
    assert not g.state.unit("tac").alive and cap.joined is None and cap.has(Status.FALLING_BACK)
    assert_illegal(g, {"do": "regroup", "unit": "cap"}, "published.regroup")
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    assert (g.state.active, g.state.phase.value) == ("red", "movement")
    assert_legal(g, {"do": "regroup", "unit": "cap"}, "published.regroup")
    events = g.apply({"do": "regroup", "unit": "cap"}, dice=ScriptedDice([4, 4]))
    assert "Ld 9" in events[0].message and "regroups" in events[0].message
    assert not g.state.unit("cap").has(Status.FALLING_BACK)
    g.undo()
    assert g.state.unit("cap").has(Status.FALLING_BACK)
