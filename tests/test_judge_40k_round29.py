"""A judge's cases for 40k 3rd and 4th edition, round 29: rulings that must hold as the state changes around a
character in play sequences (a unit destroyed around its character, a retinue that dies, a character joining and
leaving, psykers and Perils in and out of units, morale and Last Man Standing, close combat with characters,
Sweeping Advance and consolidation).

Found wrong (each first written as an xfail(strict=True) test; nothing under src/ changed then): see the report of
session 29 and each test's docstring.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
LIB = "WS5 BS4 S4 T4 W1 I4 A2 Ld10 Sv3+"
CHAPLAIN = "WS5 BS5 S4 T4 W3 I1 A2 Ld10 Sv6+"
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])


def messages(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


def kinds(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def pistols(uid: str, x: float, y: float, n: int = 2) -> dict[str, Any]:
    """Blue's Boyz with bolt pistols, 2" apart along x."""
    return {"id": uid, "models": [{**model(f"{uid} {i + 1}", x + 2 * i, y, 7, ORK), "weapons": ["bolt pistol"]}
                                  for i in range(n)]}


# == 1. the unit shot at is the squad with the Captain joined to it =================================================
def captain_left_by_the_volley(ruleset: str) -> Game:
    """Blue's two Boyz (bolt pistols) shoot red's two-Marine squad with its Captain joined 1.5" behind it: both
    Marines die, the Captain, behind, takes no wound and is left alone. Blue's ``gunz`` stand far off. The game is
    taken on to blue's Assault phase."""
    red = [squad("tac", 20, 20, n=2), hero("cap", 21, 18.5, joined="tac")]
    g = game({**scenario(ruleset, red, [pistols("boyz", 20, 24), pistols("gunz", 20, 32)], phase="shooting"),
              "active": "blue"})
    g.apply({"do": "shoot", "unit": "boyz", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    g.apply({"do": "end_phase"})
    return g


@pytest.mark.rule("published.assault-after-shooting", "40k3.ic.join", "40k4.target.joined")
@EDITIONS
def test_the_shooters_may_assault_the_captain_left_of_the_squad_they_shot(ruleset: str) -> None:
    """The rulebooks: "A unit that fired in the shooting phase of the current turn may only declare a Charge against
    the unit it shot at". The Captain was part of that unit when it was shot at (4th ed.: a character who has joined
    a unit is part of it; 3rd: he is with it until he moves away in a Movement phase); with the Marines dead, he is
    what is left of the unit the Boyz shot at, so they may assault him."""
    g = captain_left_by_the_volley(ruleset)
    assault = {"do": "assault", "unit": "boyz", "target": "cap"}
    assert_legal(g, assault, "published.assault-after-shooting")
    data = g.to_data()
    assert data["joined_when_shot"] == {"cap": "tac"}  # a saved game keeps who was in the unit shot at
    assert_legal(Game.from_data(data), assault, "published.assault-after-shooting")
    events = g.apply(assault)
    assert g.state.unit("boyz").has(Status.LOCKED) and g.state.unit("cap").has(Status.LOCKED), events


@pytest.mark.rule("published.assault-after-shooting")
@EDITIONS
def test_the_shooters_may_not_assault_a_captain_who_was_not_with_the_squad_they_shot(ruleset: str) -> None:
    """A second Captain, standing alone 3" off when the squad was shot, was never part of the unit shot at: the Boyz
    may not assault him, and nothing changes."""
    red = [squad("tac", 20, 20, n=2), hero("cap", 21, 18.5, joined="tac"), hero("other", 26, 22)]
    g = game({**scenario(ruleset, red, [pistols("boyz", 20, 24)], phase="shooting"), "active": "blue"})
    g.apply({"do": "shoot", "unit": "boyz", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1]))
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "assault", "unit": "boyz", "target": "other"}, "published.assault-after-shooting")


# == 2. Instant Death in the combat result: one wound inflicted ====================================================
def fist_and_chaplain(ruleset: str, s: int = 8) -> Game:
    """Red's Sergeant (WS4 S``s`` I4 A2) and a Marine touch blue's Chaplain (T4 W3 I1, Sv6+) and a Boy (I2), all
    locked; red's Assault phase."""
    sarge = {"id": "sarge", "status": ["locked"],
             "models": [model("Sergeant", 30, 20, 9, f"WS4 BS4 S{s} T4 W1 I4 A2 Ld9 Sv3+")]}
    chap = {"id": "chap", "character": "independent", "status": ["locked"],
            "models": [model("Chaplain", 30, 20 + BASE_25 + 0.005, 10, CHAPLAIN)]}
    return game(scenario(ruleset, [sarge], [chap], phase="assault"))


@pytest.mark.rule("published.instant-death", "published.combat-resolution")
@EDITIONS
def test_a_blow_that_kills_a_chaplain_outright_counts_one_wound_inflicted(ruleset: str) -> None:
    """The Sergeant's S8 blow (first attack hits, wounds, unsaved; the second misses) kills the Chaplain (T4, 3
    Wounds) outright (published.instant-death: "killed outright"). The combat result totals the wounds inflicted
    (3rd and 4th ed., Determine Assault Results: "Total up wounds inflicted"): one unsaved wound was inflicted, not
    three; the rulebooks give the slain model's other Wounds no count."""
    g = fist_and_chaplain(ruleset)
    events = g.apply({"do": "fight", "unit": "sarge"}, dice=ScriptedDice([6, 1, 6, 1] + [1] * 20))
    assert kinds(events, "instant_death") and not g.state.unit("chap").alive
    [result] = kinds(events, "combat_result")
    assert result.message.endswith("red 1 wounds caused; blue loses by 1"), result.message


# == 3. 3rd edition: Perils leaves a falling back squad with one model ============================================
def falling_back_librarian(ruleset: str) -> Game:
    """A Librarian (W1) joined to one Marine (Ld 6), both falling back; three Boyz 5" off. Red's Shooting phase."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac", "status": ["falling_back"],
           "models": [model("Lib", 22, 21.5, 10, LIB)]}
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 25, 7, ORK) for i in range(3)]}
    return game(scenario(ruleset, [squad("tac", 20, 20, n=1, ld=6, status=["falling_back"]), lib], [boyz],
                         phase="shooting"))


@pytest.mark.rule("published.last-man-standing", "40k3.psyker.perils-on-2", "published.fall-back")
def test_40k3_a_falling_back_squad_left_with_one_model_by_perils_is_told_it_takes_no_last_man_standing() -> None:
    """Perils on a 2 slays the Librarian; the Marine left is falling back already, so takes no Last Man Standing test
    (a unit falling back takes no further Morale check: published.last-man-standing's decision) and an event says
    so, citing the clause, before the power the 2 still uses."""
    g = falling_back_librarian("40k3")
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                     dice=ScriptedDice([1, 1, 6, 6] + [1] * 8))
    assert not g.state.unit("lib").alive and g.state.unit("tac").has(Status.FALLING_BACK)
    assert not messages(events, "morale")
    told = kinds(events, "last_man")
    assert len(told) == 1 and "falling back" in told[0].message, events
    assert "published.last-man-standing" in told[0].rules
    kinds_seen = [e.kind for e in events]
    assert kinds_seen.index("last_man") < kinds_seen.index("power_used")


# == 4. joining, leaving and moving again in one Movement phase ====================================================
JOIN = {"40k3": "40k3.ic.join", "40k4": "40k4.ic.join"}
LEAVE = {"40k3": "40k3.ic.leave", "40k4": "40k4.ic.leave"}
MOVE = {"40k3": "40k3.char.move-as-type", "40k4": "published.movement"}


def captain_beside_squad(ruleset: str, cap_y: float = 12) -> Game:
    """Red's three-Marine squad at y=20 and a lone Captain at (20, ``cap_y``); red's Movement phase."""
    return game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 20, cap_y)]))


@pytest.mark.rule("40k3.ic.join", "40k4.ic.join", "40k3.char.move-as-type", "published.movement")
@EDITIONS
def test_a_captain_who_moved_alone_may_not_then_join_a_squad_citing_the_join_clause(ruleset: str) -> None:
    """The Captain moves 2" on his own, then tries to join the squad: joining is his move (he joins "by moving" within
    2" in his Movement phase), and a model moves once a phase. The refusal cites the join clause with the movement
    rule, and nothing changes."""
    g = captain_beside_squad(ruleset)
    g.apply({"do": "move", "unit": "cap", "to": [[20, 14]]})
    refused = assert_illegal(g, {"do": "join", "character": "cap", "unit": "tac", "to": [21, 18.5]}, JOIN[ruleset])
    assert MOVE[ruleset] in refused.rules and "already moved" in str(refused)


@pytest.mark.rule("40k3.ic.join", "40k3.ic.leave", "40k4.ic.join", "40k4.ic.leave", "published.movement")
@EDITIONS
def test_a_captain_who_joined_a_squad_may_not_leave_it_in_the_same_phase(ruleset: str) -> None:
    """Decision (session 29, stated under the leave clauses): joining ends the Captain's own move (he counts as
    joined by moving within 2"); leaving is a move of his own, so having joined he does not leave that phase, not
    even with inches of his allowance unspent. The refusal cites the leave clause and the movement rule, and
    nothing changes; the next Movement phase he may leave."""
    g = captain_beside_squad(ruleset, cap_y=15)
    g.apply({"do": "join", "character": "cap", "unit": "tac", "to": [21, 18.5]})
    assert g.state.unit("cap").joined == "tac"
    refused = assert_illegal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, LEAVE[ruleset])
    assert MOVE[ruleset] in refused.rules
    for _ in range(6):
        g.apply({"do": "end_phase"})
    assert g.state.active == "red" and g.state.phase.value == "movement"
    assert_legal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, LEAVE[ruleset])


@pytest.mark.rule("40k3.ic.leave", "40k4.ic.leave", "published.movement", "40k3.char.move-as-type")
@EDITIONS
def test_a_captain_who_moved_with_his_squad_may_not_then_leave_it(ruleset: str) -> None:
    """A second move in a phase: the squad moves 2" with its Captain; the Captain then tries to leave it. He moved
    with his unit, and a model moves once a phase: refused, and the squad may not move again either."""
    g = game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 22, 18.5, joined="tac")]))
    g.apply({"do": "move", "unit": "tac", "to": [[20, 22], [22, 22], [24, 22], [22, 20.5]]})
    refused = assert_illegal(g, {"do": "leave", "character": "cap", "to": [22, 17]}, LEAVE[ruleset])
    assert "already moved" in str(refused)
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 23], [22, 23], [24, 23], [22, 21.5]]},
                   MOVE[ruleset])


# == 5. shooting at a character who has left his squad, and a psyker out of his unit ===============================
@pytest.mark.rule("40k3.ic.target", "40k3.ic.leave")
def test_40k3_a_captain_who_left_his_squad_is_shot_only_as_the_closest_within_12_inches() -> None:
    """The Captain leaves his squad, ending 3.5" from it: a lone independent character within 6" of another unit of
    his side. In blue's Shooting phase the Boyz 17.5" away, with the squad nearer, may not shoot him; the Gunz 8.5"
    away, to whom he is the closest target, may."""
    def bolt_boyz(uid: str, y: float) -> dict[str, Any]:
        return {"id": uid, "models": [{**model(f"{uid} {i + 1}", 20 + 2 * i, y, 7, ORK), "weapons": ["bolter"]}
                                      for i in range(2)]}
    g = game(scenario("40k3", [squad("tac", 20, 20), hero("cap", 22, 18.5, joined="tac")],
                      [bolt_boyz("boyz", 34), bolt_boyz("gunz", 6)]))
    g.apply({"do": "leave", "character": "cap", "to": [22, 15.5]})
    for _ in range(4):
        g.apply({"do": "end_phase"})
    assert g.state.active == "blue" and g.state.phase.value == "shooting"
    refused = assert_illegal(g, {"do": "shoot", "unit": "boyz", "target": "cap"}, "40k3.ic.target")
    assert "not the closest target within 12\"" in str(refused)
    assert_legal(g, {"do": "shoot", "unit": "gunz", "target": "cap"}, "40k3.ic.target")


def librarian_leaves(ruleset: str) -> Game:
    """A Librarian leaves his bolter squad in red's Movement phase, ending 4" from it; mob ``x`` stands 4" beyond
    him, mob ``y`` 8" before the squad. The game is taken to red's Shooting phase."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac",
           "models": [model("Lib", 22, 21.5, 10, LIB.replace("W1", "W2"))]}
    tac = {"id": "tac", "models": [{**model(f"M{i}", 20 + 2 * i, 20), "weapons": ["bolter"]} for i in range(3)]}
    x = {"id": "x", "models": [model(f"X{i}", 32 + 2 * i, 22, 7, ORK) for i in range(3)]}
    y = {"id": "y", "models": [model(f"Y{i}", 18 + 2 * i, 28, 7, ORK) for i in range(3)]}
    g = game(scenario(ruleset, [tac, lib], [x, y]))
    g.apply({"do": "leave", "character": "lib", "to": [28, 21.5]})
    g.apply({"do": "end_phase"})
    return g


@pytest.mark.rule("40k4.shoot.same-target", "published.40k4-psychic-shooting", "40k3.psyker.as-shooting",
                  "40k4.ic.leave", "published.shooting")
@EDITIONS
def test_a_librarian_who_left_his_squad_smites_one_mob_and_the_squad_fires_at_another(ruleset: str) -> None:
    """Out of the squad the Librarian is a unit of his own: his Smite binds no one else, so after he smites ``x`` the
    squad may fire at ``y``. He may not shoot again: a unit shoots once (published.shooting), and the refusal says
    so; he is no character "in" a unit bound to its target (4th edition said "a character in lib has already fired
    at x", citing 40k4.shoot.same-target, the clause for a character and the unit he is with)."""
    g = librarian_leaves(ruleset)
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "x"}
    assert_legal(g, smite, "40k3.psyker.as-shooting" if ruleset == "40k3" else "published.40k4-psychic-shooting")
    g.apply(smite, dice=ScriptedDice([3, 3] + [1] * 4))
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "y"}, "published.line-of-sight")
    refused = assert_illegal(g, {"do": "shoot", "unit": "lib", "target": "y"}, "published.shooting")
    assert "lib has already shot" in str(refused) and "a character in lib" not in str(refused)


# == 6. Smite destroys a mob around its Warboss: the unit that smote may assault him ===============================
@pytest.mark.rule("published.assault-after-shooting", "40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
@EDITIONS
def test_a_squad_whose_librarian_smote_a_mob_to_death_may_assault_its_warboss(ruleset: str) -> None:
    """The Librarian's Smite (4 hits, 4 wounds, no save) slays the one Boy and wounds the Warboss joined to him (W4);
    the Warboss is left alone. The psychic attack was the squad's shooting at the mob with its Warboss: in the
    Assault phase the squad may assault him, not the far mob."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac",
           "models": [model("Lib", 22, 21.5, 10, LIB.replace("W1", "W2"))]}
    boss = {"id": "boss", "character": "independent", "joined": "boyz",
            "models": [model("Warboss", 21, 26.5, 8, "WS5 BS2 S5 T5 W4 I3 A4 Ld8 Sv4+")]}
    blue = [{"id": "boyz", "models": [model("B1", 20, 25, 7, ORK)]}, boss, squad("far", 50, 40)]
    g = game(scenario(ruleset, [squad("tac", 20, 20, n=2), lib], blue, phase="shooting"))
    g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
            dice=ScriptedDice([3, 3] + [6] * 8 + [1] * 8))
    assert not g.state.unit("boyz").alive and g.state.unit("boss").alive and g.state.unit("boss").joined is None
    g.apply({"do": "end_phase"})
    assert_legal(g, {"do": "assault", "unit": "tac", "target": "boss"}, "published.assault-after-shooting")
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "far"}, "published.assault-after-shooting")
