"""A judge's cases for 40k 3rd and 4th edition, round 53 (a short round): 4th edition psykers, the special rules a
joined character does or does not share, and picking out a character in a second shooting of the same phase, as
sequences in which the state changes around a character - a Librarian whose squad was shot away the turn before, one
whose psychic test fails or whose Perils slays him inside his squad, a Captain who leaves a Fearless or a Fleet squad
or whose Fleet squad is shot away, and a lone Captain or a Hive Tyrant shot at once the units before them are gone.

Expected results are derived from the texts (seeds 000 and 001, the 4th edition pages named in rules.yaml, the
catalogue and the decisions of rules.yaml), not read off the engine; the fractions are counted over the dice in the
tests and checked against brute-force enumeration (every die a branch).

Found wrong (first written as an xfail(strict=True) test, commit ff033d5):
- 4th edition (published.40k4-psychic-shooting, published.40k4-perils-of-the-warp, published.fleet; 3rd edition
  alike, 40k3.psyker.as-shooting, published.fleet-of-foot): a Fleet squad whose joined Librarian Smote on a double 1
  - Perils slays him, the power still used on the 2, the squad bound to its target - could then run "instead of
  shooting": ``rule_run`` asked only the living members whether a power was used, and the slain psyker is none.
  So could, in 3rd edition, a Fleet Chaplain left of a host Librarian Perils slew after his power (40k3.ic.join;
  judge round 43 held him to the host's target but not from running). Both cases fail on the tree before the fix.

Fixed (judge round 53), the xfail mark removed: ``SpecialMoves.rule_run`` (w40k_special_moves) refuses a run once
the unit's shooting has begun this turn (``GameState.target_fired_at``) with no living member left who shot (the Chaplain left of a slain host too, recorded after him), naming
whose shooting it was through ``shooting_of`` ("lib used a psychic power (since slain) at boyz this turn, as part of
tac's shooting: tac's shooting has begun, and it runs instead of shooting"), citing the Fleet rule, the join clause
and the psychic shooting clause. Asked only after the living members' checks, a look at the phase's few targets.

Decisions: published.40k4-psychic-shooting (amended, said so: the squad of a psyker Perils slew after his power was
used does not run that phase; a failed test, a 12, uses no power and the squad runs). Book entry (new):
40k4-a-squad-whose-librarian-perils-slew-after-his-power-may-not-run. docs/40k.md and docs/rules.md rebuilt (the
decision, and the ruling counts: round 52's entry was missing from docs/rules.md's list).

Checked, as it stands (passed as first written, some scenario slips of mine corrected - see below):
- 4th edition, exact: a Librarian (W1, Sv3+) whose squad was shot away in blue's turn Smites alone: the (standing,
  Boyz slain) distribution counted here - Perils one wound, no armour save, the power kept on a 2 - equals brute
  force; then no weapon and no second power, after a save and load; having fired first, no Smite;
- 4th edition, exact: joined, the same distribution, the Marines untouched; a failed test (5 + 6) leaves no second
  power but the squad free to fire at the Grots; Perils on 1 + 1 slays him through his 3+ and binds the squad to
  the Boyz, after a save and load;
- 4th edition: a Fearless squad with a Captain who is not Fearless: two of five models shot (40%) call for a check
  on his Ld 10 (3/36 to fall back, brute force) citing 40k4.ic.rules-not-shared and 40k4.ic.rules-lost; once he
  left, none (Fearless), whatever the dice;
- 4th edition: a Fleet squad joined by a Captain without Fleet may not run (the squad loses its rule to him,
  40k4.ic.rules-lost, cited with published.fleet); he leaves: the squad runs and he may not; the squad shot away
  around him in blue's turn, he has no Fleet to run by, after a save and load;
- 4th edition: a lone Captain behind the Boyz is no target of dev (40k4.target.closest); one Boy slain by las, still
  none; both slain, dev picks him out in the same phase, no Target Priority test, after a save and load; undone,
  refused;
- 4th edition: a Hive Tyrant among his Tyrant Guard is no target (40k4.target.monstrous); the Guard shot away, dev
  picks him out in the same phase though the Termagants are closer, no Target Priority test; undone, refused.

My slips, corrected before commit (not the engine's): one Marine of four with a joined Captain is one of five models
(20%, no check); the Fleet refusal cites 40k4.ic.rules-lost - the seed's own words for a unit losing its rule to a
character without it (Infiltrate its example) - which the test now asks for with published.fleet.

Considered and left:
- Furious Charge and Skilled Rider/Move Through Cover in a 4th edition assault: Furious Charge is not among the
  rules the engine models (``modelled_rules``), so "his own rule the squad does not gain" on the charge cannot be
  met in play; Move Through Cover was checked in rounds 49-51. Adding Furious Charge is a feature, not a ruling.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (armed, assert_illegal, assert_legal, brute, game, hero, hive_tyrant_with, kinds, model,
                   next_turn_to, offered, saved_and_loaded, scenario, shoot_then_test)

D6 = range(1, 7)
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
LIB = "WS5 BS5 S4 T4 W1 I5 A3 Ld9 Sv3+"  # one Wound and a 3+ armour save: Perils' wound allows no armour save
PSY_TEST, PERILS, PSY_SHOOT = ("published.40k4-psychic-test", "published.40k4-perils-of-the-warp",
                               "published.40k4-psychic-shooting")
SMITE = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}


def binomial_capped(q: Fraction, shots: int, most: int) -> dict[int, Fraction]:
    """Models slain by ``shots`` independent shots that each slay one with ``q``, at most ``most``."""
    odds: dict[int, Fraction] = {}
    for hits in itertools.product((0, 1), repeat=shots):
        p = Fraction(1)
        for h in hits:
            p *= q if h else 1 - q
        n = min(most, sum(hits))
        odds[n] = odds.get(n, Fraction(0)) + p
    return odds


def smite_with_perils(ld: int, boyz: int) -> dict[tuple[bool, int], Fraction]:
    """(Librarian of one Wound standing, Boyz slain) after a 4th edition Smite, counted over the dice.

    The psychic test: 2D6 at most Ld passes (published.40k4-psychic-test). 2 or 12 is Perils of the Warp: one wound
    with no armour save (published.40k4-perils-of-the-warp, no to-wound roll), slaying a one-Wound psyker; on the 2
    the power is still used. Smite: 4 shots, BS5 hits on 2+, S4 against T4 wounds on 4+, AP2 against no save.
    """
    shot = Fraction(sum(1 for h, w in itertools.product(D6, D6) if h >= 2 and w >= 4), 36)
    smitten = binomial_capped(shot, 4, boyz)
    out: dict[tuple[bool, int], Fraction] = {}
    for a, b in itertools.product(D6, D6):
        total, p = a + b, Fraction(1, 36)
        standing = total not in (2, 12)
        for n, r in (smitten.items() if total <= ld else ((0, Fraction(1)),)):
            out[(standing, n)] = out.get((standing, n), Fraction(0)) + p * r
    return out


def boyz_and_grots() -> list[dict[str, Any]]:
    """Blue's three Boyz (T4, no save) 10" in front of (24, 20), the closest enemy, and three Grots further left."""
    return [{"id": "boyz", "models": [model(f"b{i + 1}", 22 + 2 * i, 30, 7, ORK) for i in range(3)]},
            {"id": "grots", "models": [model(f"g{i + 1}", 6 + 2 * i, 26, 5, ORK) for i in range(3)]}]


# == 1. 4th edition: a Librarian whose squad was shot away in blue's turn Smites alone (exact odds) ==================

def librarian_left_alone() -> Game:
    """Blue's Shooting phase: blue's lascannons slay both Marines around the Librarian (W1, Ld 9); no Morale check
    for a destroyed unit nor for him (40k4.char.no-last-man's decision); red's Shooting phase follows."""
    tac = {"id": "tac", "models": [armed("M1", 20, 20, "boltgun"), armed("M2", 22, 20, "boltgun")]}
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac",
           "models": [armed("Lib", 24, 20, "bolt pistol", LIB, 9)]}
    las = {"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 44, "lascannon") for i in range(2)]}
    g = game(scenario("40k4", [tac, lib], [*boyz_and_grots(), las], phase="shooting", active="blue"))
    shoot_then_test(g, {"do": "shoot", "unit": "las", "target": "tac"}, [6] * 12)
    assert not g.state.unit("tac").alive and g.state.unit("lib").alive and g.state.unit("lib").joined is None
    assert not g.state.unit("lib").has(Status.FALLING_BACK)
    next_turn_to(g, "red", "shooting")
    return g


@pytest.mark.rule("published.40k4-psychic-test", "published.40k4-perils-of-the-warp",
                  "published.40k4-psychic-shooting", "40k4.char.no-last-man")
def test_40k4_a_librarian_whose_squad_was_shot_away_smites_alone_exact_odds() -> None:
    """His squad shot away in blue's turn, the Librarian is a unit of his own in red's Shooting phase: Smite at the
    Boyz is legal (offered). The (Librarian standing, Boyz slain) distribution counted here - Perils one wound with
    no armour save, so his 3+ does not help - equals the engine's, brute force. Once he Smote (3 + 4) he fires no
    weapon (the power was used instead of shooting, published.40k4-psychic-shooting) and uses no second power
    (published.40k4-psychic-test: one a turn), after a save and load too; neither offered. Undone, he fires his bolt
    pistol first, and then Smite is refused (he has shot)."""
    g = librarian_left_alone()
    assert_legal(g, SMITE, PSY_TEST)
    assert ("lib", "Smite", "boyz") in {p[:3] for p in offered(g, "manifest")}
    read = (lambda p: (p.state.unit("lib").alive, 3 - len(p.state.unit("boyz").models)))
    assert brute(g.state, SMITE, read) == smite_with_perils(9, 3)
    start = g.state
    g.apply(SMITE, dice=ScriptedDice([3, 4] + [1] * 8))
    for h in (g, saved_and_loaded(g)):
        assert_illegal(h, {"do": "shoot", "unit": "lib", "target": "boyz"}, PSY_SHOOT)
        assert_illegal(h, {**SMITE, "power": "Lightning Arc"}, PSY_TEST)
        assert not offered(h, "shoot") and not offered(h, "manifest")
    h = Game(start, ScriptedDice([]))
    h.apply({"do": "shoot", "unit": "lib", "target": "boyz"}, dice=ScriptedDice([1] * 4))
    assert_illegal(h, SMITE, PSY_SHOOT)
    assert not offered(h, "manifest")


# == 2. 4th edition: a joined Librarian whose test fails, or whose Perils on a 2 slays him (exact odds) ==============

def librarian_in_squad() -> Game:
    """Red's Shooting phase: two Marines (boltguns) with their Librarian (W1, Ld 9, bolt pistol) joined."""
    tac = {"id": "tac", "models": [armed("M1", 20, 20, "boltgun"), armed("M2", 22, 20, "boltgun")]}
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac",
           "models": [armed("Lib", 24, 20, "bolt pistol", LIB, 9)]}
    return game(scenario("40k4", [tac, lib], boyz_and_grots(), phase="shooting"))


@pytest.mark.rule("published.40k4-psychic-test", "published.40k4-perils-of-the-warp",
                  "published.40k4-psychic-shooting", "40k4.shoot.same-target")
def test_40k4_a_joined_librarian_fails_his_test_or_is_slain_by_perils_on_a_2() -> None:
    """Joined, the Librarian's Smite gives the same distribution as alone (the Perils wound is his, the Marines
    untouched), brute force. His test fails (5 + 6 against Ld 9): no power, his concentration broken - a second
    power is refused (published.40k4-psychic-test), not offered - but no shooting spent: the squad with him fires at
    the Grots (no power binds it). Undone, 1 + 1: Perils slays him in spite of his 3+ save, and the power is still
    used; the Marines may then fire only at the Boyz (40k4.shoot.same-target), after a save and load too."""
    g = librarian_in_squad()
    read = (lambda p: (p.state.unit("lib").alive, 3 - len(p.state.unit("boyz").models), len(p.state.unit("tac").models)))
    expected = {(s, n, 2): p for (s, n), p in smite_with_perils(9, 3).items()}
    assert brute(g.state, SMITE, read) == expected
    start = g.state
    g.apply(SMITE, dice=ScriptedDice([5, 6]))
    assert len(g.state.unit("boyz").models) == 3
    assert_illegal(g, {**SMITE, "power": "Lightning Arc"}, PSY_TEST)
    assert not [p for p in offered(g, "manifest") if p[0] == "lib"]
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "grots"})
    h = Game(start, ScriptedDice([]))
    events = h.apply(SMITE, dice=ScriptedDice([1, 1] + [6] * 12))
    assert not h.state.unit("lib").alive and len(h.state.unit("tac").models) == 2
    assert any(PERILS in e.rules for e in events)
    assert len(h.state.unit("boyz").models) == 0
    for k in (h, saved_and_loaded(h)):
        assert_illegal(k, {"do": "shoot", "unit": "tac", "target": "grots"}, "40k4.shoot.same-target")


# == 3. 4th edition: a Fearless squad, its Captain not Fearless: the check while he is with it, none once he left =====

def fearless_squad_with_captain() -> Game:
    """Red's Movement phase: four Fearless Marines (Ld 8) with a Captain (Ld 10, not Fearless) joined; blue's two
    lascannons 24" off."""
    tac = {"id": "tac", "rules": ["fearless"], "models": [armed(f"M{i + 1}", 20 + 2 * i, 20, "boltgun")
                                                           for i in range(4)]}
    las = {"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 44, "lascannon") for i in range(2)]}
    return game(scenario("40k4", [tac, hero("cap", 28, 20, joined="tac")], [las]))


@pytest.mark.rule("40k4.ic.rules-not-shared", "40k4.ic.rules-lost", "published.fearless", "published.morale-casualties",
                  "40k4.char.leadership", "40k4.ic.leave")
def test_40k4_a_fearless_squad_tests_while_its_captain_is_with_it_and_not_once_he_left() -> None:
    """The squad's Fearless is not the Captain's, nor his lack of it theirs (40k4.ic.rules-not-shared; the clause's
    decision: Fearless works for the combined unit only when every member has it). Joined, two Marines of the five models
    slain (40%; one of five would be under 25%) in blue's Shooting phase calls for a Morale check at its end, on his Ld 10 (40k4.char.leadership): 3/36
    that both fall back, brute force over the phase's end, the check citing the sharing clause and the squad's
    rule lost to him (40k4.ic.rules-lost). He leaves in red's
    Movement phase instead (40k4.ic.leave): the same loss (half the squad) calls for no check (Fearless), and the squad does not fall
    back whatever the dice; he, not shot at, takes none either."""
    g = fearless_squad_with_captain()
    start = g.state
    next_turn_to(g, "blue", "shooting")
    g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6]))
    assert len(g.state.unit("tac").models) == 2 and g.state.unit("cap").alive
    end = {"do": "end_phase"}
    assert brute(g.state, end, lambda p: p.state.unit("tac").has(Status.FALLING_BACK)) == {
        True: Fraction(3, 36), False: Fraction(33, 36)}
    events = g.apply(end, dice=ScriptedDice([6, 5] + [3] * 4))
    assert g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.FALLING_BACK)
    assert any({"40k4.ic.rules-not-shared", "40k4.ic.rules-lost"} <= set(e.rules) for e in events), events
    h = Game(start, ScriptedDice([]))
    h.apply({"do": "leave", "character": "cap", "to": [34, 20]})
    next_turn_to(h, "blue", "shooting")
    h.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6]))
    assert len(h.state.unit("tac").models) == 2
    assert brute(h.state, end, lambda p: p.state.unit("tac").has(Status.FALLING_BACK)) == {False: Fraction(1)}
    events = h.apply(end, dice=ScriptedDice([6, 6]))
    assert not h.state.unit("tac").has(Status.FALLING_BACK) and not h.state.unit("cap").has(Status.FALLING_BACK)


# == 4. 4th edition: a Fleet squad and its Captain without Fleet ====================================================

def fleet_squad_with_captain(phase: str = "movement", active: str = "red") -> Game:
    """Two Fleet Marines with a Captain (not Fleet) joined; blue's two lascannons 24" off."""
    tac = {"id": "tac", "rules": ["fleet"], "models": [armed("M1", 20, 20, "boltgun"), armed("M2", 22, 20, "boltgun")]}
    las = {"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 44, "lascannon") for i in range(2)]}
    return game(scenario("40k4", [tac, hero("cap", 24, 20, joined="tac")], [las], phase=phase, active=active))


@pytest.mark.rule("40k4.ic.rules-not-shared", "40k4.ic.rules-lost", "published.fleet", "40k4.ic.leave",
                  "40k4.char.no-last-man")
def test_40k4_a_fleet_squad_runs_only_without_its_captain_and_he_never_runs() -> None:
    """Fleet is the squad's, not the Captain's (40k4.ic.rules-not-shared): joined, the unit may not run in red's
    Shooting phase - the squad loses its rule to a character without it (40k4.ic.rules-lost, as Infiltrate in the
    seed's example), cited with published.fleet - not offered. He leaves in the Movement phase: the squad runs, he may
    not (published.fleet), not offered. From blue's Shooting phase instead, the squad is shot away around him: in
    red's Shooting phase he, alone, has no Fleet to run by, after a save and load too - the squad's rule went with
    it."""
    g = fleet_squad_with_captain()
    start = g.state
    g.apply({"do": "end_phase"})
    run_squad = {"do": "run", "unit": "tac", "to": [[20, 22], [22, 22], [24, 22]]}
    assert "published.fleet" in assert_illegal(g, run_squad, "40k4.ic.rules-lost").rules
    assert not offered(g, "run")
    h = Game(start, ScriptedDice([]))
    h.apply({"do": "leave", "character": "cap", "to": [28, 20]})
    h.apply({"do": "end_phase"})
    run_cap = {"do": "run", "unit": "cap", "to": [[28, 22]]}
    assert_illegal(h, run_cap, "published.fleet")
    assert {p[0] for p in offered(h, "run")} == {"tac"}
    h.apply({"do": "run", "unit": "tac", "to": [[20, 22], [22, 22]]}, dice=ScriptedDice([6]))
    assert h.state.unit("tac").models[0].at[1] > 20
    k = fleet_squad_with_captain("shooting", "blue")
    shoot_then_test(k, {"do": "shoot", "unit": "las", "target": "tac"}, [6] * 12)
    assert not k.state.unit("tac").alive and k.state.unit("cap").alive
    next_turn_to(k, "red", "shooting")
    for m in (k, saved_and_loaded(k)):
        assert_illegal(m, {"do": "run", "unit": "cap", "to": [[24, 22]]}, "published.fleet")
        assert not offered(m, "run")


# == 5. 4th edition: a lone Captain picked out in a second shooting once the closer Boyz are shot away ===============

def lone_captain_behind_boyz() -> Game:
    """Red's Shooting phase: two lascannon teams, las far left and dev on the right; blue's two Boyz 10" in front of
    dev, a lone Captain (W2) 19" from it, Grots far off on the left."""
    red = [{"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 6, "lascannon") for i in range(2)]},
           {"id": "dev", "models": [armed(f"D{i + 1}", 44 + 2 * i, 6, "lascannon") for i in range(2)]}]
    blue = [{"id": "boyz", "models": [model(f"b{i + 1}", 44 + 2 * i, 16, 7, ORK) for i in range(2)]},
            hero("cap", 50, 24),
            {"id": "grots", "models": [model(f"g{i + 1}", 8 + 2 * i, 34, 5, ORK) for i in range(2)]}]
    return game(scenario("40k4", red, blue, phase="shooting"))


@pytest.mark.rule("40k4.target.closest", "published.target-priority", "published.shooting")
def test_40k4_a_lone_captain_is_picked_out_in_the_same_phase_once_the_closer_boyz_are_shot_away() -> None:
    """The lone Captain is no target of dev while the Boyz are closer (40k4.target.closest), not offered. las (the
    Boyz its closest enemy, no Target Priority test) slays one Boy: the other still stands closer, still refused.
    Undone, las slays both: now dev's closest target is the Captain (the Grots further off), so dev picks him out in
    the same phase, citing the clause, after a save and load too, no Target Priority test, and both wounds are his.
    Undone to the Boyz standing, refused again."""
    g = lone_captain_behind_boyz()
    pick = {"do": "shoot", "unit": "dev", "target": "cap"}
    volley = {"do": "shoot", "unit": "las", "target": "boyz"}
    assert_illegal(g, pick, "40k4.target.closest")
    assert ("dev", "cap") not in offered(g, "shoot")
    standing = g.state
    events = g.apply(volley, dice=ScriptedDice([6, 1, 6, 6]))
    assert not kinds(events, "target_priority") and len(g.state.unit("boyz").models) == 1
    assert_illegal(g, pick, "40k4.target.closest")
    h = Game(standing, ScriptedDice([]))
    h.apply(volley, dice=ScriptedDice([6, 6, 6, 6]))
    assert not h.state.unit("boyz").alive
    for k in (h, saved_and_loaded(h)):
        assert_legal(k, pick, "40k4.target.closest")
        assert ("dev", "cap") in offered(k, "shoot")
    events = h.apply(pick, dice=ScriptedDice([6] * 8))
    assert not kinds(events, "target_priority") and not h.state.unit("cap").alive
    assert_illegal(Game(standing, ScriptedDice([])), pick, "40k4.target.closest")


# == 6. 4th edition: a Hive Tyrant among his Tyrant Guard, picked out once they fall in the same phase ===============

@pytest.mark.rule("40k4.target.monstrous", "40k4.target.closest", "published.target-priority")
def test_40k4_a_hive_tyrant_is_picked_out_once_his_tyrant_guard_is_shot_away_though_not_closest() -> None:
    """A Monstrous Creature character "can always be picked out", unless he joined a unit whose special rule
    protects him, such as Tyrant Guard (40k4.target.monstrous): joined to them, dev may not pick him out, not
    offered. las shoots the Guard away; in the same phase dev picks him out though the Termagants stand closer to it
    - the lone character's closest rule (40k4.target.closest) gives way to "always" - citing the monstrous clause,
    no Target Priority test, after a save and load too; the wounds his. Undone, refused again."""
    guard = {"id": "guard", "rules": ["tyrant_guard"],
             "models": [{"name": f"Guard{i + 1}", "profile": "WS4 BS0 S5 T6 W1 I2 A2 Ld10 Sv2+", "base": 40,
                         "at": [26 + 3 * i, 24]} for i in range(2)]}
    g = hive_tyrant_with(guard)  # the Termagants at (42-46, 14): still the enemy closest to dev
    pick = {"do": "shoot", "unit": "dev", "target": "tyrant"}
    assert_illegal(g, pick, "40k4.target.monstrous")
    assert ("dev", "tyrant") not in offered(g, "shoot")
    standing = g.state
    g.apply({"do": "shoot", "unit": "las", "target": "guard"}, dice=ScriptedDice([6] * 8))
    assert not g.state.unit("guard").alive and g.state.unit("tyrant").joined is None
    assert g.state.unit("tyrant").models[0].wounds_taken == 0
    for k in (g, saved_and_loaded(g)):
        assert_legal(k, pick, "40k4.target.monstrous")
        assert ("dev", "tyrant") in offered(k, "shoot")
    events = g.apply(pick, dice=ScriptedDice([6] * 8))
    assert not kinds(events, "target_priority")
    assert g.state.unit("tyrant").models[0].wounds_taken == 2 and len(g.state.unit("gants").models) == 3
    assert_illegal(Game(standing, ScriptedDice([])), pick, "40k4.target.monstrous")


# == 7. 4th edition: a Fleet squad whose Librarian Perils slew on a 2, after his power was used ======================

@pytest.mark.rule("published.40k4-psychic-shooting", "published.40k4-perils-of-the-warp", "published.fleet",
                  "published.40k4-psychic-test")
def test_40k4_a_fleet_squad_whose_librarian_perils_slew_after_his_power_may_not_run() -> None:
    """Squad and Librarian both Fleet. He Smites on 1 + 1: Perils slays him, and the power is still used on the 2
    (published.40k4-perils-of-the-warp) - used instead of shooting, it began his squad's shooting, which it binds to
    the Boyz (the psychic shooting clause's decision). So the squad may not then run instead of shooting
    (published.fleet; the power was its shooting, alive or slain its psyker), after a save and load too, not
    offered. On 6 + 6 instead the test fails (12 above Ld 9): Perils slays him but no power was used, so no shooting
    was spent (the decision: a failed test uses none) and the squad runs; on 5 + 6 alike, he alive. Over the test's
    dice, (he stands, the squad may run) counted here equals the engine's, brute force."""
    tac = {"id": "tac", "rules": ["fleet"], "models": [armed("M1", 20, 20, "boltgun"), armed("M2", 22, 20, "boltgun")]}
    lib = {"id": "lib", "character": "independent", "rules": ["psyker", "fleet"], "joined": "tac",
           "models": [armed("Lib", 24, 20, "bolt pistol", LIB, 9)]}
    start = game(scenario("40k4", [tac, lib], boyz_and_grots(), phase="shooting")).state
    run_on = {"do": "run", "unit": "tac", "to": [[20, 22], [22, 22]]}
    expected: dict[tuple[bool, bool], Fraction] = {}
    for a, b in itertools.product(D6, D6):  # (he stands, the squad may run): a power used on any total up to 9
        key = (a + b not in (2, 12), a + b > 9)
        expected[key] = expected.get(key, Fraction(0)) + Fraction(1, 36)
    assert brute(start, SMITE, lambda p: (p.state.unit("lib").alive, p.check(run_on).legal)) == expected
    g = Game(start, ScriptedDice([]))
    g.apply(SMITE, dice=ScriptedDice([1, 1] + [1] * 8))
    assert not g.state.unit("lib").alive and len(g.state.unit("boyz").models) == 3
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "grots"}, "40k4.shoot.same-target")
    for k in (g, saved_and_loaded(g)):
        assert PSY_SHOOT in assert_illegal(k, run_on, "published.fleet").rules
        assert not offered(k, "run")
    for faces in ([6, 6, 1], [5, 6]):
        h = Game(start, ScriptedDice([]))
        h.apply(SMITE, dice=ScriptedDice(faces))
        assert h.state.unit("lib").alive == (faces == [5, 6])
        assert_legal(h, run_on if faces != [5, 6] else {**run_on, "to": [[20, 22], [22, 22], [24, 22]]},
                     "published.fleet")


@pytest.mark.rule("40k3.psyker.as-shooting", "40k3.psyker.perils-on-2", "40k3.ic.join", "published.fleet-of-foot")
def test_40k3_a_chaplain_left_of_a_librarian_perils_slew_after_his_power_may_not_run() -> None:
    """3rd edition lets one independent character join another (40k3.ic.join): a Fleet Chaplain has joined a Fleet
    Librarian. The Librarian Smites on 1 + 1; Perils (S6 against T4, wounded on the 6) slays him, the power still
    used on the 2 (40k3.psyker.perils-on-2). The Chaplain is what is left of the unit whose shooting the power began
    (judge round 43's decision): he may not run instead of shooting (published.fleet-of-foot), the refusal naming
    the slain Librarian, after a save and load too. Undone, a 12 (no power used) leaves him free to run."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker", "fleet"],
           "models": [armed("Lib", 24, 20, "bolt pistol", LIB, 9)]}
    chap = {"id": "chap", "character": "independent", "rules": ["fleet"], "joined": "lib",
            "models": [armed("Chap", 22, 20, "bolt pistol", LIB, 9)]}
    start = game(scenario("40k3", [lib, chap], boyz_and_grots(), phase="shooting")).state
    run_on = {"do": "run", "unit": "chap", "to": [[22, 22]]}
    g = Game(start, ScriptedDice([]))
    g.apply(SMITE, dice=ScriptedDice([1, 1, 6, 6] + [1] * 8))
    assert not g.state.unit("lib").alive and g.state.unit("chap").joined is None
    for k in (g, saved_and_loaded(g)):
        error = assert_illegal(k, run_on, "published.fleet-of-foot")
        assert "40k3.psyker.as-shooting" in error.rules and "lib since slain" in str(error)
        assert not offered(k, "run")
    h = Game(start, ScriptedDice([]))
    h.apply(SMITE, dice=ScriptedDice([6, 6, 6, 6]))
    assert not h.state.unit("lib").alive
    assert_legal(h, run_on, "published.fleet-of-foot")
