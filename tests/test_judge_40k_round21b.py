"""A judge's cases for 40k 3rd and 4th edition, twenty-first round, second audit: shooting at independent characters
as the state changes, psykers, characteristic and Leadership tests (seed 004) and values of 0 around characters.

Found wrong and fixed in this round:
- a psyker locked in close combat could use a Morale power (Fear of the Darkness) in the Shooting phase at a unit
  outside his combat, though a psychic attack follows the shooting rules (40k3.psyker.as-shooting,
  published.40k4-psychic-shooting) and a model locked in close combat cannot shoot; a shooting power was refused;
- a character of Attacks 0 splitting his attacks was refused as "splits 1 attacks but has 0" citing only the
  allocation clause: the clause that decides it is core.zero.a.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites; where dice decide, the exact
odds equal brute force (``enumerate_outcomes(..., fine=True)``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, kinds, model, scenario, squad

LIB = "WS5 BS4 S4 T4 W{w} I4 A2 Ld{ld} Sv3+"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
TEST3, TEST4 = "40k3.psyker.test", "published.40k4-psychic-test"
PSY_TEST = {"40k3": TEST3, "40k4": TEST4}
PSY_SHOOT = {"40k3": "40k3.psyker.as-shooting", "40k4": "published.40k4-psychic-shooting"}
PERILS = {"40k3": "40k3.psyker.perils", "40k4": "published.40k4-perils-of-the-warp"}
ON_TWO = {"40k3": "40k3.psyker.perils-on-2", "40k4": "published.40k4-perils-of-the-warp"}
FALLING = {"40k3": "40k3.ic.falling-back", "40k4": "40k4.ic.falling-back"}
ALLOC = {"40k3": "40k3.char.attack-allocation", "40k4": "40k4.cc.engaged-only"}
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        g.apply({"do": "end_phase"}, dice=ScriptedDice([1] * 40))


# == 1. shooting at independent characters as the state changes ===================================================
def leaving_captain(ruleset: str) -> Game:
    """Red's Captain joined to a two-Marine squad (20-22, 30). Blue's Devastator (21, 20) is nearer the squad; blue's
    Scout (21, 45) is nearer the Captain once he stands at (21, 35). Red's Movement phase."""
    red = [squad("tac", 20, 30, n=2), hero("cap", 21, 32, ld=9, joined="tac")]
    blue = [{"id": "dev", "models": [{**model("Dev", 21, 20), "weapons": ["boltgun"]}]},
            {"id": "scout", "models": [{**model("Scout", 21, 45), "weapons": ["boltgun"]}]}]
    return game(scenario(ruleset, red, blue))


@pytest.mark.rule("40k3.ic.target", "40k3.ic.join", "40k3.ic.leave", "40k4.target.joined", "40k4.target.closest",
                  "40k4.ic.leave")
@EDITIONS
def test_a_captain_who_leaves_his_squad_is_a_target_only_by_the_lone_character_rule(ruleset: str) -> None:
    """Joined, the Captain is part of his squad and cannot be picked out, even by the Scout he is closest to. He leaves
    in his Movement phase to 3" behind the squad (4" from it, within 6"). In blue's Shooting phase: the Scout, whose
    closest target he is, 9" away (within 12"), may shoot him in both editions; the Devastator, whose closest target
    is the squad, may not (3rd: within 6" of another living unit and not the closest; 4th: not the closest)."""
    g = leaving_captain(ruleset)
    start = g.state
    end_phases(g, 4)  # red's Movement, Shooting, Assault; blue's Movement: blue shoots
    joined = assert_illegal(g, {"do": "shoot", "unit": "scout", "target": "cap"},
                            "40k3.ic.join" if ruleset == "40k3" else "40k4.target.joined")
    assert "part of tac" in str(joined) or "joined tac" in str(joined)
    g = Game(start)
    g.apply({"do": "leave", "character": "cap", "to": [21, 35]})
    assert g.state.unit("cap").joined is None
    end_phases(g, 4)
    lone = "40k3.ic.target" if ruleset == "40k3" else "40k4.target.closest"
    assert_legal(g, {"do": "shoot", "unit": "scout", "target": "cap"}, lone)
    refused = assert_illegal(g, {"do": "shoot", "unit": "dev", "target": "cap"}, lone)
    assert "closest" in str(refused)
    assert_legal(g, {"do": "shoot", "unit": "dev", "target": "tac"})


@pytest.mark.rule("40k4.target.monstrous", "40k4.target.closest", "40k3.ic.target")
@EDITIONS
def test_a_lone_monstrous_character_not_the_closest_is_a_target_in_4th_only(ruleset: str) -> None:
    """A lone Monstrous Creature character 2" from his brood and behind it: the brood is the Devastator's closest
    target. 4th edition: a Monstrous Creature character can always be picked out; 3rd edition has no such rule, so
    the Tyrant, within 6" of another living unit and not the closest target, cannot be shot."""
    tyrant = {"id": "tyrant", "character": "independent", "type": "monstrous_creature",
              "models": [model("Tyrant", 21, 35, 10, "WS6 BS3 S6 T6 W4 I5 A4 Ld10 Sv3+")]}
    blue = [squad("brood", 20, 30, n=2), tyrant]
    dev = {"id": "dev", "models": [{**model("Dev", 21, 20), "weapons": ["boltgun"]}]}
    g = game(scenario(ruleset, [dev], blue, phase="shooting"))
    action = {"do": "shoot", "unit": "dev", "target": "tyrant"}
    if ruleset == "40k4":
        assert_legal(g, action, "40k4.target.monstrous")
    else:
        assert_illegal(g, action, "40k3.ic.target")


# == 2. psykers ===================================================================================================
def librarian(ruleset: str, ld: int = 10, w: int = 2, phase: str = "shooting", lib: dict[str, Any] | None = None,
              red: list[dict[str, Any]] | None = None, blue: list[dict[str, Any]] | None = None) -> Game:
    """A lone Librarian (psyker, bolt pistol) at (30, 20) and three Boyz 6" north; red's turn."""
    lib_unit = {"id": "lib", "character": "independent", "rules": ["psyker"],
                "models": [{**model("Lib", 30, 20, ld, LIB.format(w=w, ld="{ld}")), "weapons": ["bolt pistol"]}],
                **(lib or {})}
    boyz = {"id": "boyz", "models": [model(f"Boy {i}", 28 + 2 * i, 26, 7, ORK) for i in range(3)]}
    return game(scenario(ruleset, [lib_unit, *(red or [])], [boyz, *(blue or [])], phase=phase))


@pytest.mark.rule("40k3.psyker.test", "40k3.psyker.perils", "40k3.psyker.perils-on-2", "published.40k4-psychic-test",
                  "published.40k4-perils-of-the-warp", "core.test.leadership")
@EDITIONS
def test_a_psyker_of_leadership_0_uses_his_power_only_on_a_double_1_which_brings_perils(ruleset: str) -> None:
    """A psychic test is 2D6 at most Ld: with Ld 0 no roll passes, yet a 2 still lets the power be used (the seed: on
    a 2 the psyker uses the power despite the attack; decision for Ld below 2). 3 fails, no Perils; 2 is Perils and
    the power. Exact odds: the power 1/36, Perils 2/36, equal to brute force."""
    g = librarian(ruleset, ld=0)
    fear = {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"}
    start = g.state
    events = g.apply(fear, dice=ScriptedDice([1, 2]))
    [test] = kinds(events, "psychic_test")
    assert test.message.endswith("3 against Ld 0, failed") and test.rules == (PSY_TEST[ruleset],)
    assert not kinds(events, "power_used") and not kinds(events, "perils")
    g = Game(start)
    events = g.apply(fear, dice=ScriptedDice([1, 1, 1, 1, 6, 6, 3, 3]))  # Perils: 3rd S1 (T4 needs 6, rolls 1)
    [used] = kinds(events, "power_used")
    assert ON_TWO[ruleset] in used.rules and kinds(events, "perils")[0].rules[0] == PERILS[ruleset]

    def play(dice: Dice) -> tuple[bool, bool]:
        played = Game(start, dice)
        out = played.apply(fear)
        return bool(kinds(out, "power_used")), bool(kinds(out, "perils"))

    fast = enumerate_outcomes(play, positions=False)
    assert fast == enumerate_outcomes(play, fine=True, positions=False)
    assert sum(p for (power, _), p in fast.items() if power) == Fraction(1, 36)
    assert sum(p for (_, perils), p in fast.items() if perils) == Fraction(2, 36)


@pytest.mark.rule("40k3.psyker.perils-on-2", "published.40k4-perils-of-the-warp", "40k3.psyker.perils", "core.zero.w")
@EDITIONS
def test_perils_on_a_2_slays_a_one_wound_psyker_whose_power_still_strikes_on_a_12_it_does_not(ruleset: str) -> None:
    """A one-wound Librarian (Ld 10) uses Smite. On a 2 the Warp slays him (3rd: S6 hit, 2 to wound; 4th: one wound,
    no save) and Smite still strikes; on a 12 he is slain and no power is used. Exact odds of (power used, slain)
    equal brute force."""
    g = librarian(ruleset, w=1)
    start = g.state
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    perils = [6, 2] if ruleset == "40k3" else []  # 3rd: Strength 6, to wound 2 (needs 2+)
    events = g.apply(smite, dice=ScriptedDice([1, 1, *perils, 4, 4, 1, 1, 6, 6, 1, 1, 1, 1]))
    assert not g.state.unit("lib").alive and kinds(events, "casualties")[0].message == "slain: Lib"
    [used] = kinds(events, "power_used")
    assert ON_TWO[ruleset] in used.rules and PSY_SHOOT[ruleset] in used.rules
    assert kinds(events, "shots")[0].message.startswith("Lib fires 4 shots with Smite: 2 hits")
    g = Game(start)
    events = g.apply(smite, dice=ScriptedDice([6, 6, *perils]))
    assert not g.state.unit("lib").alive and not kinds(events, "power_used")

    def play(dice: Dice) -> tuple[bool, bool]:
        played = Game(start, dice)
        out = played.apply(smite)
        return bool(kinds(out, "power_used")), not played.state.unit("lib").alive

    fast = enumerate_outcomes(play, positions=False)
    assert fast == enumerate_outcomes(play, fine=True, positions=False)
    assert fast[(True, False)] + fast[(True, True)] == Fraction(33, 36)  # a pass, 2 to 10


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.shooting-into-combat")
@EDITIONS
def test_a_psyker_locked_in_close_combat_makes_no_psychic_attack_in_the_shooting_phase(ruleset: str) -> None:
    """A psychic attack follows the shooting rules, and a model locked in close combat cannot shoot: in the Shooting
    phase the locked Librarian may use neither Smite nor Fear of the Darkness at the Boyz outside his combat (before
    session 21 the Morale power was let through). An Assault phase power (Psychic Scream) is no shooting: he may use
    it on the free Boyz, but not on the Grot locked with him (no one picks out a unit in close combat)."""
    grot = {"id": "grot", "status": ["locked"], "models": [model("Grot", 30, 20 - BASE_25, 5, ORK)]}
    locked = {"status": ["locked"]}
    g = librarian(ruleset, lib=locked, blue=[grot])
    fear = assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"},
                          PSY_SHOOT[ruleset])
    assert "locked in close combat" in str(fear) and "published.shooting-into-combat" in fear.rules
    assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_SHOOT[ruleset])
    free = librarian(ruleset)
    assert_legal(free, {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"},
                 PSY_SHOOT[ruleset])
    a = librarian(ruleset, lib=locked, blue=[grot], phase="assault")
    assert_legal(a, {"do": "manifest", "psyker": "lib", "power": "Psychic Scream", "target": "boyz"}, PSY_TEST[ruleset])
    assert_illegal(a, {"do": "manifest", "psyker": "lib", "power": "Psychic Scream", "target": "grot"},
                   "published.shooting-into-combat")


@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test")
@EDITIONS
def test_one_power_a_turn_holds_across_phases_and_comes_back_in_the_psykers_next_turn(ruleset: str) -> None:
    """Fear of the Darkness in the Shooting phase (passed, 3 + 3): Psychic Scream in the same turn's Assault phase is
    refused, as is any power after a failed test; in red's next turn the Librarian may test again."""
    g = librarian(ruleset)
    g.apply({"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"},
            dice=ScriptedDice([3, 3, 1, 1]))
    end_phases(g, 1)
    scream = {"do": "manifest", "psyker": "lib", "power": "Psychic Scream", "target": "boyz"}
    refused = assert_illegal(g, scream, PSY_TEST[ruleset])
    assert "never more than one power a turn" in str(refused)
    end_phases(g, 4)  # red's Assault; blue's Movement, Shooting, Assault
    assert g.state.active == "red" and not g.state.unit("lib").has(Status.USED_POWER)
    end_phases(g, 1)  # red's Movement: its Shooting phase
    assert_legal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_TEST[ruleset])
    failed = librarian(ruleset)
    failed.apply({"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"},
                 dice=ScriptedDice([6, 5]))
    assert_illegal(failed, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_TEST[ruleset])
    assert_legal(failed, {"do": "shoot", "unit": "lib", "target": "boyz"})  # a failed test spends no shooting


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "40k4.shoot.same-target")
@EDITIONS
def test_a_joined_psyker_after_moving_and_after_his_squad_fired(ruleset: str) -> None:
    """The Librarian joined to a squad moves with it 2" and may then use Smite (an assault-type power) in the Shooting
    phase. Once his squad has fired (he with it), Smite is refused (a psychic shooting attack is his shooting), and
    since session 23 Fear of the Darkness too: a power of the Shooting phase is used instead of shooting."""
    tac = {"id": "tac", "models": [{**model(f"M{i + 1}", x, 18), "weapons": ["boltgun"]} for i, x in enumerate((28, 32))]}
    g = librarian(ruleset, lib={"joined": "tac"}, red=[tac], phase="movement")
    g.apply({"do": "move", "unit": "tac", "to": [[28, 20], [32, 20], [30, 22]]})
    end_phases(g, 1)
    start = g.state
    assert_legal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_SHOOT[ruleset])
    g.apply({"do": "shoot", "unit": "tac", "target": "boyz"}, dice=ScriptedDice([1] * 12))
    refused = assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                             PSY_SHOOT[ruleset])
    assert "tac has already shot" in str(refused)  # his unit shot (session 28 words)
    fear = assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"},
                          PSY_SHOOT[ruleset])
    assert "instead of shooting" in str(fear)
    assert g.state != start


VORTEX = {"name": "Vortex", "range": 24, "phase": "shooting", "effect": "shooting",
          "shooting": {"type": "heavy", "shots": 2, "strength": 6, "ap": 3}}
BOLT = {"name": "Warp Bolt", "range": 24, "phase": "shooting", "effect": "shooting",
        "shooting": {"type": "rapid_fire", "shots": 1, "strength": 4, "ap": 5}}


@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "published.weapon-profiles")
@EDITIONS
def test_a_psychic_shooting_attack_fires_by_its_weapon_type_after_the_psyker_moved(ruleset: str) -> None:
    """A psychic attack follows the shooting rules, its weapon type's among them: a Heavy power (Vortex) is refused
    once the Librarian moved this turn, and nothing changes (before session 21 it fired its full 2 shots); standing
    still he may use it, 2 shots. A Rapid Fire power (Warp Bolt) after moving fires 1 shot at the Boyz 5" away (half
    range; 4th edition: 2, its Rapid Fire rule) and is refused at Grots 15" away; standing still it fires 2 shots at
    half range."""
    grots = {"id": "grots", "models": [model("Grot", 30, 36, 5, ORK)]}
    powers = [VORTEX, BOLT]
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 30, 20, 10, LIB.format(w=2, ld="{ld}"))]}
    boyz = {"id": "boyz", "models": [model(f"Boy {i}", 28 + 2 * i, 26, 7, ORK) for i in range(3)]}
    g = game(scenario(ruleset, [lib], [boyz, grots], powers=powers))
    still = Game(g.state)
    g.apply({"do": "move", "unit": "lib", "to": [[30, 21]]})
    end_phases(g, 1)
    vortex = {"do": "manifest", "psyker": "lib", "power": "Vortex", "target": "boyz"}
    refused = assert_illegal(g, vortex, PSY_SHOOT[ruleset])
    assert "published.weapon-profiles" in refused.rules and "heavy" in str(refused)
    assert_illegal(g, {"do": "manifest", "psyker": "lib", "power": "Warp Bolt", "target": "grots"}, PSY_SHOOT[ruleset])
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Warp Bolt", "target": "boyz"},
                     dice=ScriptedDice([3, 3, 1, 1]))
    moved_shots = "1 shot" if ruleset == "40k3" else "2 shots"  # each edition's Rapid Fire after moving
    assert kinds(events, "shots")[0].message.startswith(f"Lib fires {moved_shots} with Warp Bolt")
    end_phases(still, 1)
    events = still.apply(vortex, dice=ScriptedDice([3, 3, 1, 1]))
    assert kinds(events, "shots")[0].message.startswith("Lib fires 2 shots with Vortex")
    still.undo()
    events = still.apply({"do": "manifest", "psyker": "lib", "power": "Warp Bolt", "target": "boyz"},
                         dice=ScriptedDice([3, 3, 1, 1]))
    assert kinds(events, "shots")[0].message.startswith("Lib fires 2 shots with Warp Bolt")


@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test", "40k3.char.leadership", "40k4.char.leadership")
@EDITIONS
def test_a_psychic_test_is_on_the_psykers_own_leadership_not_the_one_his_unit_borrows(ruleset: str) -> None:
    """A Librarian of Ld 8 joined to a squad that a Captain of Ld 10 leads too: the squad's Leadership tests are on
    the Captain's 10 (each edition's clause), but the psychic test is the psyker's own, "equal to or under his
    Leadership": a 9 fails it, with no power used."""
    tac = {"id": "tac", "models": [{**model(f"M{i + 1}", x, 18), "weapons": ["boltgun"]} for i, x in enumerate((28, 32))]}
    g = librarian(ruleset, ld=8, lib={"joined": "tac"}, red=[tac, hero("cap", 30, 16, ld=10, joined="tac")])
    assert "on Ld 10 (Cap)" in g.check({"do": "test", "unit": "tac", "characteristic": "Ld"}).reason
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, dice=ScriptedDice([4, 5]))
    [test] = kinds(events, "psychic_test")
    assert test.message.endswith("9 against Ld 8, failed") and test.rules == (PSY_TEST[ruleset],)
    assert not kinds(events, "power_used")


@pytest.mark.rule("40k3.ic.falling-back", "40k4.ic.falling-back", "published.fall-back")
@EDITIONS
def test_a_psyker_in_a_falling_back_squad_cannot_leave_it_but_may_still_use_a_power(ruleset: str) -> None:
    """The squad the Librarian joined is falling back: he may not leave it in the Movement phase (each edition's
    clause); falling back troops may still shoot (published.fall-back), so in the Shooting phase he may use Smite."""
    tac = {"id": "tac", "status": ["falling_back"], "models": [model("M1", 28, 18), model("M2", 32, 18)]}
    g = librarian(ruleset, lib={"joined": "tac", "status": ["falling_back"]}, red=[tac], phase="movement")
    assert_illegal(g, {"do": "leave", "character": "lib", "to": [30, 24]}, FALLING[ruleset])
    s = librarian(ruleset, lib={"joined": "tac", "status": ["falling_back"]}, red=[tac])
    assert_legal(s, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_SHOOT[ruleset])


# == 3. characteristic and Leadership tests (seed 004) ============================================================
def squad_with_captain(ruleset: str, cap_ld: int) -> Game:
    """A squad of two Ld 8 troopers (I4) with a Captain (I5) of Ld ``cap_ld`` joined."""
    return game(scenario(ruleset, [squad("tac", 20, 20, n=2, ld=8), hero("cap", 21, 22, ld=cap_ld, joined="tac")]))


def pass_odds(g: Game, action: dict[str, Any]) -> Fraction:
    """Return the exact odds that a test passes (no failure event), asserting they equal brute force."""
    start = g.state

    def passes(dice: Dice) -> bool:
        out = Game(start, dice).apply(action)
        return "passes" in out[0].message

    fast = enumerate_outcomes(passes, positions=False)
    assert fast == enumerate_outcomes(passes, fine=True, positions=False)
    return fast.get(True, Fraction(0))


@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership", "core.test.leadership",
                  "core.test.leadership-choice", "core.value.used")
@EDITIONS
def test_a_squads_leadership_test_borrows_its_captains_leadership_by_each_editions_rule(ruleset: str) -> None:
    """3rd edition: every Leadership test of the unit is on the character's Ld, even a lower one (6 here, and the
    player's pick of 8 refused); 4th: only if superior, so the squad's 8. A Captain of Ld 10 with +2 still tests on 10
    (clamped), with -3 on 7: exact odds 33/36 and 21/36 equal brute force."""
    g = squad_with_captain(ruleset, 6)
    test = {"do": "test", "unit": "tac", "characteristic": "Ld"}
    if ruleset == "40k3":
        assert_legal(g, test, "40k3.char.leadership")
        assert "on Ld 6 (Cap)" in g.check(test).reason
        assert_illegal(g, {**test, "leadership": 8}, "40k3.char.leadership")
    else:
        assert_legal(g, test, "core.test.leadership-choice")
        assert "on Ld 8" in g.check(test).reason
    ten = squad_with_captain(ruleset, 10)
    up = {**test, "modifiers": [{"kind": "add", "value": 2}]}
    down = {**test, "modifiers": [{"kind": "add", "value": -3}]}
    [event] = ten.apply(up, dice=ScriptedDice([5, 5]))
    assert "on Ld 10 (Cap, modified)" in event.message and "core.value.used" in event.rules
    ten.undo()
    assert pass_odds(ten, up) == Fraction(33, 36)
    assert pass_odds(ten, down) == Fraction(21, 36)


@pytest.mark.rule("core.test.characteristic", "core.test.highest-value", "core.value.used")
@EDITIONS
def test_a_characteristic_test_takes_the_units_highest_value_and_a_6_or_a_value_of_0_always_fails(ruleset: str
                                                                                                     ) -> None:
    """The squad with its Captain takes an Initiative test on the Captain's 5 (the highest in the unit); raised to 8 a
    roll of 6 still fails (5/6, as on 5); lowered by 2, 3/6; set to 0 no roll passes. Exact odds equal brute force."""
    g = squad_with_captain(ruleset, 9)
    test = {"do": "test", "unit": "tac", "characteristic": "I"}
    assert_legal(g, test, "core.test.characteristic", "core.test.highest-value")
    assert "on 5 (Cap's profile, the highest in the unit)" in g.check(test).reason
    raised = {**test, "modifiers": [{"kind": "add", "value": 3}]}
    [event] = g.apply(raised, dice=ScriptedDice([6]))
    assert "on 8" in event.message and event.message.endswith("rolls 6: fails")
    g.undo()
    assert pass_odds(g, raised) == Fraction(5, 6)  # not 1: the 6 fails
    assert pass_odds(g, test) == Fraction(5, 6)
    assert pass_odds(g, {**test, "modifiers": [{"kind": "add", "value": -2}]}) == Fraction(3, 6)
    assert pass_odds(g, {**test, "modifiers": [{"kind": "set", "value": 0}]}) == 0


# == 4. values of 0 and attack allocation in close combat with characters =========================================
def captain_in_combat(ruleset: str, cap: str, nob: str = ORK) -> Game:
    """Red's Captain joined to a Marine, the Captain alone touching blue's Nob; blue's Assault phase."""
    red = [{"id": "squad", "status": ["locked"], "models": [model("Marine", 18, 23)]},
           {"id": "cap", "character": "independent", "joined": "squad", "status": ["locked"],
            "models": [model("Cap", 20, 23 - BASE_25, 9, cap)]}]
    blue = [{"id": "boyz", "status": ["locked"], "models": [model("Nob", 20, 23, 7, nob)]}]
    return game(scenario(ruleset, red, blue, phase="assault", active="blue"))


@pytest.mark.rule("core.zero.a", "core.zero.ws", "published.initiative", "40k3.char.attack-allocation",
                  "40k4.cc.engaged-only")
@EDITIONS
def test_a_captain_of_attacks_0_or_weapon_skill_0_or_initiative_0_in_close_combat(ruleset: str) -> None:
    """Attacks 0: the Captain makes no attacks (core.zero.a) and a split of his attacks is refused citing core.zero.a
    (before: "splits 1 attacks but has 0" under the allocation clause). Weapon Skill 0: the Nob's blows hit him
    without a roll, his own hit only on 6. Initiative 0: he strikes after the Nob's Initiative 2."""
    g = captain_in_combat(ruleset, "WS5 BS5 S4 T4 W2 I4 A0 Ld9 Sv3+")
    refused = assert_illegal(g, {"do": "allocate", "character": "cap", "attacks": {"Nob": 1}}, "core.zero.a")
    assert "Attacks 0" in str(refused) and ALLOC[ruleset] in refused.rules
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([6, 6, 1, 1]))
    [none] = kinds(events, "no_attacks")
    assert none.rules == ("core.zero.a",) and not [e for e in kinds(events, "attacks") if e.message.startswith("Cap")]
    ws0 = captain_in_combat(ruleset, "WS0 BS5 S4 T4 W2 I4 A2 Ld9 Sv3+")
    events = ws0.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([5, 6, 1, 1, 1, 1]))
    blows = kinds(events, "attacks")
    assert blows[0].message == "Cap attacks boyz (2): 1 hit, 0 wounds" and "core.zero.ws" in blows[0].rules
    assert blows[1].message == "boyz attacks cap (2): 2 hits, 0 wounds" and "core.zero.ws" in blows[1].rules
    slow = captain_in_combat(ruleset, "WS5 BS5 S4 T4 W2 I0 A2 Ld9 Sv3+")
    events = slow.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 8))
    assert [e.message for e in kinds(events, "initiative")] == ["Initiative 2 strikes", "Initiative 0 strikes"]


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only")
@EDITIONS
def test_a_split_on_a_model_slain_before_the_captain_strikes_goes_to_the_model_of_its_unit_he_still_touches(
        ruleset: str) -> None:
    """The Captain (I5, A3) touches Orks X1 and X2 of one unit and splits 2 on X1, 1 on X2; a faster Marine (I6)
    slays X1 first. The split is declared before the to-hit dice, so the 2 on X1 are struck at X2, the model he
    still touches (40k3.char.attack-allocation's decision), the 1 on X2 apart."""
    x1 = (20 - 0.5 * BASE_25, 20 + 0.866 * BASE_25)
    red = [{"id": "fast", "status": ["locked"],
            "models": [model("Fast", x1[0] - BASE_25, x1[1], profile="WS5 BS4 S6 T4 W1 I6 A1 Ld8 Sv3+")]},
           {**hero("cap", 20, 20), "status": ["locked"]}]
    bare = ORK.replace("Sv6+", "Sv-")
    blue = [{"id": "x", "status": ["locked"], "models": [model("X1", *x1, profile=bare),
                                                          model("X2", 20, 20 - BASE_25, profile=bare)]}]
    g = game(scenario(ruleset, red, blue, phase="assault"))
    assert_legal(g, {"do": "allocate", "character": "cap", "attacks": {"X1": 2, "X2": 1}}, ALLOC[ruleset])
    g.apply({"do": "allocate", "character": "cap", "attacks": {"X1": 2, "X2": 1}})
    events = g.apply({"do": "fight", "unit": "cap"}, dice=ScriptedDice([6, 6, 1, 6, 6, 6, 6]))
    blows = [e.message for e in kinds(events, "attacks")]
    assert blows == ["fast attacks x (1): 1 hit, 1 wound", "Cap (split) attacks X2 (1): 0 hits, 0 wounds",
                     "Cap attacks x (2): 2 hits, 2 wounds"]
    assert [e.message for e in kinds(events, "casualties")] == ["slain: X1", "slain: X2"]


@pytest.mark.rule("40k3.ic.falling-back", "40k4.ic.falling-back", "40k3.char.leadership", "40k4.char.leadership",
                  "published.combat-resolution", "published.sweeping-advance")
@EDITIONS
def test_a_captain_locked_with_his_squad_falls_back_with_it_and_may_not_leave_it(ruleset: str) -> None:
    """The Nob (I5) slays Marine 1; the Captain misses: his squad loses by one wound and tests once, on the Captain's
    Ld 9 (4th: at -1), and fails (6, 6). 4th edition: the Sweeping
    Advance reads the group's Initiative (4: its majority) + 6 against the Nob's 5 + 1: it breaks off. Both editions:
    the Captain falls back with the squad, and in red's next Movement phase he may not leave it."""
    nob = "WS4 BS2 S4 T4 W2 I5 A1 Ld7 Sv6+"
    red = [{"id": "tac", "status": ["locked"], "models": [model("M1", 20 - BASE_25, 23), model("M2", 18, 23)]},
           {"id": "cap", "character": "independent", "joined": "tac", "status": ["locked"],
            "models": [model("Cap", 20, 23 - BASE_25, 9, "WS5 BS5 S4 T4 W2 I4 A1 Ld9 Sv3+")]}]
    blue = [{"id": "boyz", "status": ["locked"], "models": [model("Nob", 20, 23, 7, nob)]}]
    g = game(scenario(ruleset, red, blue, phase="assault", active="blue"))
    # Nob (I5): hit 6, wound 6, M1's save 1; then I4: M1 is gone; Cap hits 1; M2 touches nobody
    sweep = [6, 1] if ruleset == "40k4" else []
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([6, 6, 1, 1, 6, 6, *sweep, 3, 3]))
    [check] = kinds(events, "morale")
    assert "Ld 9" in check.message and "fails" in check.message
    assert ("40k3.char.leadership" if ruleset == "40k3" else "40k4.char.leadership") in check.rules
    assert g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.FALLING_BACK)
    assert g.state.unit("cap").joined == "tac"
    if ruleset == "40k4":
        [roll] = kinds(events, "sweeping_advance")
        assert dict(roll.data)["outcome"] == "broke off"
    end_phases(g, 1)  # blue's Assault ends: red's Movement phase
    cap = g.state.unit("cap").models[0].at
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [cap[0] + 4, cap[1]]}, FALLING[ruleset])
