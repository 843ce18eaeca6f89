"""A judge's cases for 40k 3rd and 4th edition, round 30: a unit that acts with a character whose own status holds
him back (pinned, falling back, locked in close combat), a squad pinned around a character who would leave it, Pile
In with characters, Instant Death among wounded models, characteristic and Leadership tests with characters and
values of 0, psykers in units that fell back or are pinned, and the closest target past a hidden unit.

Found wrong (each first written as an xfail(strict=True) test; nothing under src/ changed then):
- 3rd edition: a Captain joined to a squad that a scenario gives the ``pinned`` status (his own status not saying
  so) could leave it; published.pinning's decision reads 3rd edition as 4th ("a character may not leave it"), and
  4th edition refused it (40k4.ic.pinned);
- both editions: a squad whose joined Captain is locked in close combat (he alone touches a Boy, the statuses
  saying so) could move away, dragging him along or leaving him: the unit acts with its characters, and a unit with
  a model locked in close combat does not move (published.close-combat);
- both editions: a squad whose joined Captain is pinned could move, shoot, run and assault; one whose Captain is
  falling back could move at will, run and assault (published.pinning, published.fall-back): only the squad's own
  status was read, as round 28b found for a psyker in a locked squad;
- both editions: a Chaplain could join a squad whose Captain was locked in close combat, and in 4th edition one whose
  Captain was falling back (40k3.ic.movement-phase-only, 40k4.ic.movement-phase-only, 40k4.ic.falling-back);
- both editions: Boyz assaulting a squad whose Captain was falling back (his status) met no Regroup test
  (published.assaulted-while-falling-back).

Fixed since (session 30), each xfail mark removed: ``MoraleRules.with_members_holds`` gives a unit the holds of its
joined characters (locked, pinned, falling back), read by ``_mover_checks`` (moves, joins), ``rule_run``,
``rule_shoot``, ``rule_assault`` and ``join_problem`` (a character joins no unit locked or, 4th edition, falling back
with its characters); 3rd edition's ``leave_forbidden`` refuses leaving a pinned unit; ``rule_assault`` and
``_assaulted_falling_back`` read a target falling back with any of its characters.

Decisions stated (``herohammer rules``): published.pinning (changed: a hold on any member holds the whole unit; 3rd
edition's character may not leave a pinned unit). Book entries: 40k4-a-squad-whose-captain-is-held-is-held-with-him,
40k3-a-captain-may-not-leave-a-pinned-squad.

Left as they are (decided before, and a judge might question them): 3rd edition's Leadership of a joined character
lower than the unit's is still used (40k3.char.leadership's decision); a psyker of Leadership 0 or 1 who rolls a 2
fails his test yet uses the power (40k3.psyker.perils-on-2's decision).

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, CHAR_LD, EDITIONS, MOVE, PSY_SHOOT, PSY_TEST, assert_illegal, assert_legal, game, hero, kinds, messages, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
NOB = "WS4 BS2 S4 T4 W2 I3 A2 Ld7 Sv6+"
MARINE = "WS4 BS4 S4 T4 W1 I4 A2 Ld8 Sv3+"
CAPTAIN = "WS5 BS5 S4 T4 W2 I5 A1 Ld9 Sv3+"
LIB = "WS5 BS4 S4 T4 W1 I4 A2 Ld10 Sv3+"


def armed(unit: dict[str, Any], weapon: str = "bolter") -> dict[str, Any]:
    unit["models"] = [{**m, "weapons": [weapon]} for m in unit["models"]]
    return unit


def boyz(x: float = 20, y: float = 25, n: int = 2, uid: str = "boyz") -> dict[str, Any]:
    return {"id": uid, "models": [model(f"{uid} {i + 1}", x + 2 * i, y, 7, ORK) for i in range(n)]}


# == 1. 3rd edition: a pinned squad holds its Captain ===============================================================
@pytest.mark.rule("published.pinning", "40k4.ic.pinned")
@EDITIONS
def test_a_captain_may_not_leave_a_squad_the_scenario_says_is_pinned(ruleset: str) -> None:
    """The scenario pins the squad, not its Captain's own entry. A pinned unit "may not move ... or make any other
    actions" and a character may not leave it (4th ed.: 40k4.ic.pinned; published.pinning's decision reads 3rd
    edition the same way): the Captain is part of the pinned unit, so he may not walk out of it, and nothing
    changes."""
    g = game(scenario(ruleset, [squad("tac", 20, 20, n=2, status=["pinned"]), hero("cap", 22, 18.5, joined="tac")]))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [22, 14]},
                   "40k4.ic.pinned" if ruleset == "40k4" else "published.pinning")


# == 2. a squad acts with its characters: a character held back holds the unit =====================================
def squad_with_held_captain(ruleset: str, status: str, phase: str = "movement") -> Game:
    """Red's three Marines (bolters, Fleet) at y=20 with their Captain (Fleet) joined 1.5" ahead of them; the
    Captain's own status is ``status``. Blue's two Boyz stand 5" off; with ``locked`` a third Boy touches the Captain
    and is locked with him."""
    tac = armed(squad("tac", 20, 20, rules=["fleet"]))
    cap = hero("cap", 22, 18.5, joined="tac", status=[status], rules=["fleet"])
    blue = [boyz(20, 25)]
    if status == "locked":
        blue.append({"id": "boy", "status": ["locked"], "models": [model("Boy", 22, 18.5 - BASE_25, 7, ORK)]})
    return game(scenario(ruleset, [tac, cap], blue, phase=phase))


WITH_HIM = [[20, 21], [22, 21], [24, 21], [22, 19.5]]
WITHOUT_HIM = [[20, 21], [22, 21], [24, 21]]


@pytest.mark.rule("published.close-combat", "40k4.cc.locked")
@EDITIONS
@pytest.mark.parametrize("to", [WITH_HIM, WITHOUT_HIM], ids=["with-him", "without-him"])
def test_a_squad_whose_captain_is_locked_in_close_combat_does_not_move(ruleset: str, to: list[list[float]]) -> None:
    """The Captain touches a Boy and is locked (his status); the squad's own entry says nothing. A unit with a model
    locked in close combat is locked and does not move in the Movement phase (published.close-combat; 4th ed.: the
    character and the unit he joined are locked together, 40k4.cc.locked): the squad may neither carry him off nor
    walk away from him."""
    g = squad_with_held_captain(ruleset, "locked")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": to}, "published.close-combat")


@pytest.mark.rule("published.pinning")
@EDITIONS
def test_a_squad_whose_captain_is_pinned_neither_moves_shoots_runs_nor_assaults(ruleset: str) -> None:
    """The Captain is pinned (his status), the squad's entry not: the squad acts with him (it moves, shoots, runs
    and assaults as one unit with its characters), and a pinned unit "may not move, shoot, assault, or make any
    other actions" in its pinned turn. Each is refused citing published.pinning, and nothing changes."""
    g = squad_with_held_captain(ruleset, "pinned")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": WITH_HIM}, "published.pinning")
    g = squad_with_held_captain(ruleset, "pinned", "shooting")
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.pinning")
    assert_illegal(g, {"do": "run", "unit": "tac", "to": WITH_HIM}, "published.pinning")
    g = squad_with_held_captain(ruleset, "pinned", "assault")
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.pinning")


@pytest.mark.rule("published.fall-back")
@EDITIONS
def test_a_squad_whose_captain_is_falling_back_moves_at_no_will_and_assaults_not_but_may_shoot(ruleset: str) -> None:
    """The Captain is falling back (his status), the squad's entry not: they fall back as one (40k3.ic.falling-back,
    40k4.ic.falling-back), so the squad may not move at will, run or assault (published.fall-back), but it may shoot
    ("Troops who are falling back may continue to shoot")."""
    g = squad_with_held_captain(ruleset, "falling_back")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": WITH_HIM}, "published.fall-back")
    g = squad_with_held_captain(ruleset, "falling_back", "shooting")
    assert_illegal(g, {"do": "run", "unit": "tac", "to": WITH_HIM}, "published.fall-back")
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.line-of-sight")
    g = squad_with_held_captain(ruleset, "falling_back", "assault")
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.fall-back")


@pytest.mark.rule("published.movement", "40k3.char.move-as-type")
@EDITIONS
def test_a_squad_whose_captain_stands_free_still_moves_with_or_without_him(ruleset: str) -> None:
    """The same squad and Captain with no status: the squad moves, its Captain with it or staying in coherency."""
    for to in (WITH_HIM, WITHOUT_HIM):
        g = game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 22, 18.5, joined="tac")]))
        assert_legal(g, {"do": "move", "unit": "tac", "to": to}, MOVE[ruleset])


# == 3. a psyker who joins a pinned squad ==========================================================================
@pytest.mark.rule("published.pinning", "40k3.ic.join", "40k4.ic.join", "40k3.psyker.test",
                  "published.40k4-psychic-test")
@EDITIONS
def test_a_librarian_who_joined_a_pinned_squad_uses_no_power_that_turn(ruleset: str) -> None:
    """A lone Librarian joins a squad pinned in blue's turn (it may be joined; 4th ed. only forbids leaving it). He is
    now part of a pinned unit: in the Shooting phase he may not Smite, nor use Fear of the Darkness, nor shoot on his
    own; in the Assault phase no Psychic Scream and no assault."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [{**model("Lib", 22, 15, 10, LIB), "weapons": ["bolt pistol"]}]}
    g = game(scenario(ruleset, [squad("tac", 20, 20, n=2, status=["pinned"]), lib], [boyz(18, 28, 3)]))
    g.apply({"do": "join", "character": "lib", "unit": "tac", "to": [22, 18.5]})
    assert g.state.unit("lib").joined == "tac"
    g.apply({"do": "end_phase"})
    for name in ("Smite", "Fear of the Darkness"):
        assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": name, "target": "boyz"}, "published.pinning")
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.pinning")
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Psychic Scream", "target": "boyz"},
                   "published.pinning")
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.pinning")


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.fall-back")
@EDITIONS
def test_a_librarian_in_a_falling_back_squad_may_still_smite(ruleset: str) -> None:
    """A falling back unit may shoot (published.fall-back), and a psychic shooting attack follows the shooting
    rules: the Librarian falling back with his squad may Smite the Boyz 5.5" off, and the squad may fire too."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac", "status": ["falling_back"],
           "models": [model("Lib", 22, 21.5, 10, LIB)]}
    g = game(scenario(ruleset, [armed(squad("tac", 20, 20, n=2, status=["falling_back"])), lib],
                      [boyz(18, 28, 3)], phase="shooting"))
    assert_legal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                 PSY_TEST[ruleset], PSY_SHOOT[ruleset])
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "boyz"})


# == 4. Pile In with a character ===================================================================================
def captain_cuts_down_the_boy_he_touches(ruleset: str, far: tuple[float, float] = (30, 24)) -> Game:
    """Red's two Marines stand 2" behind their Captain (A1), who alone touches Boy 1; Boy 2 of the same mob stands at
    ``far``, touching no one. Another blue squad stands apart. Red's Assault phase, all locked."""
    tac = {"id": "tac", "status": ["locked"],
           "models": [model("T1", 20, 16, 8, MARINE), model("T2", 22, 16, 8, MARINE)]}
    cap = {"id": "cap", "character": "independent", "joined": "tac", "status": ["locked"],
           "models": [model("Cap", 21, 18, 9, CAPTAIN)]}
    mob = {"id": "boyz", "status": ["locked"],
           "models": [model("B1", 21, 18 + BASE_25, 7, ORK), model("B2", far[0], far[1], 7, ORK)]}
    return game(scenario(ruleset, [tac, cap], [mob, squad("other", 4, 40, n=1)], phase="assault"))


@pytest.mark.rule("published.pile-in", "published.combat-resolution", "40k4.cc.locked")
@EDITIONS
def test_the_boy_left_standing_off_piles_in_to_the_captain_and_the_combat_goes_on(ruleset: str) -> None:
    """The Captain slays Boy 1 (hit, wound, no save); blue loses by 1 and passes its check (a 2). No model of either
    side is in base contact now, but Boy 2 stands within two 6" Pile In moves: the combat goes on and both sides pile
    in, red first (its turn); Boy 2 reaches the Captain, and red's unit, its Captain touching him, stays locked.
    The unit shot at, ``other``, far off, is no part of it."""
    g = captain_cuts_down_the_boy_he_touches(ruleset)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6, 6, 1] + [1] * 20))
    piles = kinds(events, "pile_in")
    assert [p.message.split(" ")[0] for p in piles] == ["tac", "boyz"], piles
    assert all("published.pile-in" in p.rules for p in piles)
    assert "in base contact with cap" in piles[1].message
    assert g.state.unit("tac").has(Status.LOCKED) and g.state.unit("cap").has(Status.LOCKED)
    assert g.state.unit("boyz").has(Status.LOCKED) and not g.state.unit("other").has(Status.LOCKED)
    assert not g.state.unit("tac").has(Status.MAY_CONSOLIDATE)
    assert_illegal(g, {"do": "consolidate", "unit": "tac", "to": [[20, 17], [22, 17], [21, 19]]},
                   "published.consolidation" if ruleset == "40k4" else "published.40k3-consolidation")


@pytest.mark.rule("published.pile-in", "published.consolidation", "published.40k3-consolidation")
@EDITIONS
def test_with_the_boy_beyond_two_pile_in_moves_the_assault_ends_and_the_squad_consolidates(ruleset: str) -> None:
    """The same fight with Boy 2 some 19" off: no Pile In could bring him into contact, so the assault ends at once
    ("Both sides may make Consolidation moves instead"): the squad with its Captain may consolidate, and nothing
    piles in."""
    g = captain_cuts_down_the_boy_he_touches(ruleset, far=(36, 30))
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6, 6, 1] + [1] * 20))
    assert not kinds(events, "pile_in")
    assert g.state.unit("tac").has(Status.MAY_CONSOLIDATE) and not g.state.unit("tac").has(Status.LOCKED)
    rule = "published.consolidation" if ruleset == "40k4" else "published.40k3-consolidation"
    assert any(rule in e.rules for e in kinds(events, "consolidation"))


# == 5. Instant Death among wounded models =========================================================================
@pytest.mark.rule("published.instant-death", "published.wound-allocation")
@EDITIONS
def test_a_lascannon_and_a_bolter_slay_the_wounded_nob_and_wound_the_fresh_one(ruleset: str) -> None:
    """A lascannon (S9: Instant Death on T4) and a bolter each wound a mob of two Nobz (W2), Nob 2 on his last
    Wound; no save (6+ against AP2 and a 1). The owner's fixed order puts the wounded Nob first: one Nob is slain
    and the fresh one stands wounded, not both slain (the lascannon's wound on the fresh Nob would kill him outright
    while the bolter finished the wounded one)."""
    nobz = [model("Nob 1", 16, 20, 7, NOB), {**model("Nob 2", 18, 20, 7, NOB), "wounds_taken": 1}]
    guns = {"id": "guns", "models": [{**model("L", 17, 2), "weapons": ["lascannon"]},
                                     {**model("B", 19, 2), "weapons": ["bolter"]}]}
    g = game(scenario(ruleset, [guns], [{"id": "nobz", "models": nobz}], phase="shooting"))
    events = g.apply({"do": "shoot", "unit": "guns", "target": "nobz"},
                     dice=ScriptedDice([6, 6, 6, 6, 1, 1] + [1] * 10))
    assert messages(events, "casualties") == ["slain: Nob 2"]
    assert [(m.name, m.wounds_taken) for m in g.state.unit("nobz").models] == [("Nob 1", 1)]


# == 6. characteristic and Leadership tests with characters ========================================================
@pytest.mark.rule("core.test.characteristic", "core.test.highest-value")
@EDITIONS
def test_a_squad_with_its_captain_takes_an_initiative_test_on_his_higher_value(ruleset: str) -> None:
    """Seed 004: "If the test is taken for a unit, one value is used, the highest": the Marines' I4 and the
    Captain's I5 give 5, so a 5 passes; a 6 always fails."""
    g = game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 22, 18.5, joined="tac")]))
    test = {"do": "test", "unit": "tac", "characteristic": "I"}
    [event] = kinds(g.apply(test, dice=ScriptedDice([5])), "test")
    assert "on 5 (Cap's profile, the highest in the unit)" in event.message and event.message.endswith("passes")
    assert "core.test.highest-value" in event.rules
    [event] = kinds(g.apply(test, dice=ScriptedDice([6])), "test")
    assert event.message.endswith("fails")


@pytest.mark.rule("core.test.characteristic", "core.zero.ws")
@EDITIONS
def test_a_model_of_value_0_fails_its_test_even_on_a_1(ruleset: str) -> None:
    """Seed 004: "Models with a characteristic of zero automatically fail a test on it": a Gretchin of I0 rolls a 1
    and still fails its Initiative test."""
    grot = {"id": "grot", "models": [model("Grot", 30, 30, 5, "WS2 BS3 S2 T2 W1 I0 A1 Ld5 Sv-")]}
    g = game(scenario(ruleset, [grot]))
    [event] = kinds(g.apply({"do": "test", "unit": "grot", "characteristic": "I"}, dice=ScriptedDice([1])), "test")
    assert "on 0" in event.message and event.message.endswith("fails")
    assert "core.test.characteristic" in event.rules


@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership", "core.test.leadership")
@EDITIONS
def test_a_squad_tests_on_its_captains_leadership_and_may_not_pick_its_own(ruleset: str) -> None:
    """A squad of Ld 6 with its Captain (Ld 10) tests on 10 (both editions: the character's, the higher); asking for
    the squad's own 6 is refused citing the edition's character clause, and nothing changes."""
    g = game(scenario(ruleset, [squad("tac", 20, 20, ld=6), hero("cap", 22, 18.5, joined="tac")]))
    [event] = kinds(g.apply({"do": "test", "unit": "tac", "characteristic": "Ld"}, dice=ScriptedDice([5, 5])), "test")
    assert "Ld 10 (Cap)" in event.message and event.message.endswith("passes") and CHAR_LD[ruleset] in event.rules
    assert_illegal(g, {"do": "test", "unit": "tac", "characteristic": "Ld", "leadership": 6}, CHAR_LD[ruleset])


@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership")
@EDITIONS
def test_a_captain_of_lower_leadership_lends_it_in_3rd_edition_only(ruleset: str) -> None:
    """A Veteran squad of Ld 9 with a Captain of Ld 8: 3rd edition's seed says every Leadership test of a unit with a
    character uses his Leadership (40k3.char.leadership's decision: even lower); 4th edition uses it only "if it is
    superior to the unit's", so the squad tests on its own 9."""
    g = game(scenario(ruleset, [squad("vets", 20, 20, ld=9), hero("cap", 22, 18.5, ld=8, joined="vets")]))
    event = kinds(g.apply({"do": "test", "unit": "vets", "characteristic": "Ld"}, dice=ScriptedDice([4, 5])),
                  "test")[0]
    assert ("Ld 8 (Cap)" if ruleset == "40k3" else "Ld 9") in event.message, event.message
    assert event.message.endswith("fails" if ruleset == "40k3" else "passes")


@pytest.mark.rule("published.regroup", "40k3.char.leadership", "40k4.char.leadership")
@EDITIONS
def test_a_falling_back_squad_regroups_on_its_captains_leadership(ruleset: str) -> None:
    """A falling back squad of Ld 6 with its Captain (Ld 10), no enemy near: the Regroup test is taken on 10; a 9
    regroups both (they fall back, and stop, as one)."""
    red = [squad("tac", 20, 20, n=3, ld=6, status=["falling_back"]),
           hero("cap", 22, 18.5, joined="tac", status=["falling_back"])]
    g = game(scenario(ruleset, red))
    assert_legal(g, {"do": "regroup", "unit": "tac"}, "published.regroup", CHAR_LD[ruleset])
    [event] = kinds(g.apply({"do": "regroup", "unit": "tac"}, dice=ScriptedDice([4, 5])), "regroup")
    assert "Ld 10 (Cap)" in event.message and "regroups" in event.message
    assert not any(g.state.unit(u).has(Status.FALLING_BACK) for u in ("tac", "cap"))


# == 7. morale: the Captain counts among the models the squad had ==================================================
@pytest.mark.rule("published.morale-casualties", "published.last-man-standing", "40k3.char.leadership")
def test_40k3_a_squad_left_with_one_marine_and_its_captain_takes_no_last_man_standing() -> None:
    """3rd edition: a bolter slays one of two Marines; the squad with its Captain still has two models, so it is not
    "reduced to a single model": it takes its Morale check (1 of 3 lost) on the Captain's Ld 9 and no Last Man
    Standing test."""
    red = [squad("tac", 20, 20, n=2, ld=6), hero("cap", 21, 18.5, joined="tac", ld=9)]
    gun = armed({"id": "gun", "models": [model("B0", 20, 30, 7, ORK)]})
    g = game({**scenario("40k3", red, [gun], phase="shooting"), "active": "blue"})
    events = g.apply({"do": "shoot", "unit": "gun", "target": "tac"}, dice=ScriptedDice([6, 1, 6, 1] + [1] * 10))
    [check] = messages(events, "morale")
    assert check.startswith("tac lost 1 of 3 models: Morale check on Ld 9 (Cap)"), check
    assert "Last Man" not in " ".join(messages(events, "morale") + messages(events, "last_man"))


@pytest.mark.rule("published.morale-casualties", "40k4.char.leadership", "40k4.ic.falling-back")
def test_40k4_a_squad_and_its_captain_fail_the_phase_check_and_fall_back_together() -> None:
    """4th edition: two of four Marines fall to a bolter (2 of the 5 models the unit had with its Captain); at the
    end of the Shooting phase the squad tests on the Captain's Ld 7, rolls 12 and falls back with him."""
    red = [squad("tac", 20, 20, n=4, ld=6), hero("cap", 22, 18.5, joined="tac", ld=7)]
    gun = armed({"id": "gun", "models": [model("B0", 20, 30, 7, ORK)]})
    g = game({**scenario("40k4", red, [gun], phase="shooting"), "active": "blue"})
    g.apply({"do": "shoot", "unit": "gun", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1] + [1] * 10))
    events = g.apply({"do": "end_phase"}, dice=ScriptedDice([6, 6] + [1] * 10))
    [check] = messages(events, "morale")
    assert check.startswith("tac lost 2 of 5 models this Shooting phase: Morale check on Ld 7 (Cap)"), check
    assert g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.FALLING_BACK)


# == 8. the closest target past a hidden unit ======================================================================
WALL = [{"id": "wall", "kind": "blocking", "polygon": [[15, 13], [24.5, 13], [24.5, 14], [15, 14]]}]


def warboss_past_a_hidden_mob(ruleset: str) -> Game:
    """Red's bolter squad at y=10; blue's two Boyz 6" ahead behind a wall the Marines cannot see past; a lone
    Warboss 17" off in plain sight, more than 6" from every other unit. Red's Shooting phase."""
    blue = [squad("near", 20, 16, n=2), hero("boss", 40, 20), squad("far", 60, 45)]
    return game(scenario(ruleset, [armed(squad("tac", 20, 10))], blue, phase="shooting", terrain=WALL))


@pytest.mark.rule("40k4.target.closest", "published.line-of-sight")
def test_40k4_a_lone_warboss_is_the_closest_target_when_the_nearer_mob_is_out_of_sight() -> None:
    """4th edition: the closest target is the closest the firers could shoot; the mob behind the wall is out of
    sight (refused citing line of sight), so the Warboss is the closest target and may be shot."""
    g = warboss_past_a_hidden_mob("40k4")
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "near"}, "published.line-of-sight")
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "boss"}, "40k4.target.closest")


@pytest.mark.rule("40k3.ic.target", "published.line-of-sight")
def test_40k3_the_same_warboss_may_be_shot_as_more_than_6_inches_from_any_unit() -> None:
    """3rd edition: the Warboss is more than 6" from every other living unit, so he may be shot whatever is
    closer."""
    g = warboss_past_a_hidden_mob("40k3")
    ruling = g.check({"do": "shoot", "unit": "tac", "target": "boss"})
    assert ruling.legal and "40k3.ic.target" in ruling.rules and "more than 6\"" in ruling.reason, ruling


@pytest.mark.rule("published.close-combat", "published.pinning", "published.fall-back")
@EDITIONS
@pytest.mark.parametrize("status", ["locked", "pinned", "falling_back"])
def test_the_legal_actions_offer_no_move_of_a_squad_held_by_its_captain(ruleset: str, status: str) -> None:
    """The front door's legal actions agree with the rulings: for the squad whose Captain is held (``status``) no
    move, run or assault is offered, nor a leave for the Captain; with no status the squad's moves are offered."""
    for phase, kinds_held in (("movement", {"move", "leave", "join"}), ("shooting", {"run"}),
                              ("assault", {"assault"})):
        g = squad_with_held_captain(ruleset, status, phase)
        offered = [a for a in g.legal_actions() if a.do in kinds_held
                   and getattr(a, "unit", None) in (None, "tac") and getattr(a, "character", "cap") == "cap"]
        assert offered == [], offered
    free = game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 22, 18.5, joined="tac")]))
    assert any(a.do == "move" and a.unit == "tac" for a in free.legal_actions())  # type: ignore[union-attr]


@pytest.mark.rule("40k3.ic.movement-phase-only", "40k4.ic.movement-phase-only", "40k4.ic.falling-back")
@EDITIONS
@pytest.mark.parametrize("status", ["locked", "falling_back"])
def test_a_chaplain_may_not_join_a_squad_held_by_its_captain(ruleset: str, status: str) -> None:
    """A Chaplain would join the squad whose Captain is locked in close combat (his status): the squad is locked with
    him, and a character never joins a unit during close combat (40k3/40k4.ic.movement-phase-only: "once assaults
    are launched it is too late to join in"). 4th edition: with the Captain falling back the squad falls back with
    him, and "a character may not join ... a unit while it is falling back" (40k4.ic.falling-back); 3rd edition lets
    a character join a falling back unit (40k3.ic.falling-back's decision), so there the join stands."""
    data = scenario(ruleset, [armed(squad("tac", 20, 20)), hero("cap", 22, 18.5, joined="tac", status=[status]),
                              hero("chap", 26, 14)], [boyz(20, 30)])
    if status == "locked":
        data["sides"]["blue"].append({"id": "boy", "status": ["locked"],
                                      "models": [model("Boy", 22, 18.5 - BASE_25, 7, ORK)]})
    g = game(data)
    join = {"do": "join", "character": "chap", "unit": "tac", "to": [25, 18.5]}
    if status == "locked":
        assert_illegal(g, join, "40k3.ic.movement-phase-only" if ruleset == "40k3" else "40k4.ic.movement-phase-only")
    elif ruleset == "40k4":
        assert_illegal(g, join, "40k4.ic.falling-back")
    else:
        assert_legal(g, join, "40k3.ic.join")


@pytest.mark.rule("published.assaulted-while-falling-back", "40k3.ic.falling-back", "40k4.ic.falling-back")
@EDITIONS
def test_boyz_assaulting_a_squad_whose_captain_is_falling_back_meet_a_regroup_test(ruleset: str) -> None:
    """Blue's Boyz assault red's squad whose joined Captain is falling back (his status; they fall back as one,
    40k3.ic.falling-back, 40k4.ic.falling-back). A unit assaulted whilst falling back must test to regroup at once
    (published.assaulted-while-falling-back): the ruling says so, and on a 12 the squad with its Captain is
    scattered and destroyed."""
    red = [squad("tac", 20, 20, ld=6), hero("cap", 22, 18.5, joined="tac", ld=7, status=["falling_back"])]
    g = game({**scenario(ruleset, red, [boyz(20, 24, 3)], phase="assault"), "active": "blue"})
    assault = {"do": "assault", "unit": "boyz", "target": "tac"}
    assert_legal(g, assault, "published.assaulted-while-falling-back")
    events = g.apply(assault, dice=ScriptedDice([6, 6] + [1] * 10))
    assert any("assaulted while falling back" in m and "Ld 7 (Cap)" in m for m in messages(events, "regroup")), events
    assert not g.state.unit("tac").alive and not g.state.unit("cap").alive


@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership", "core.test.leadership-choice")
@EDITIONS
def test_a_squad_with_two_characters_tests_on_the_better_ones_leadership(ruleset: str) -> None:
    """A squad of Ld 8 joined by a Captain (Ld 9) and a Chaplain (Ld 10): both editions test on the Chaplain's 10
    (3rd: the character's Leadership, the better of the two; 4th: a character's if superior to the unit's), and the
    Captain's 9 may not be picked instead."""
    red = [squad("tac", 20, 20, ld=8), hero("cap", 22, 18.5, ld=9, joined="tac"),
           hero("chap", 24, 18.5, ld=10, joined="tac")]
    g = game(scenario(ruleset, red))
    test = {"do": "test", "unit": "tac", "characteristic": "Ld"}
    assert_legal(g, test, CHAR_LD[ruleset])
    assert "Ld 10 (Chap)" in g.check(test).reason
    assert_illegal(g, {**test, "leadership": 9}, CHAR_LD[ruleset])
