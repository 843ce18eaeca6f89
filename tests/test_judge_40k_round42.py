"""A judge's cases for 40k 3rd and 4th edition, round 42: the questions round 41 left (whose Initiative a 4th edition
victor with a joined Captain sweeps with, a pair of 3rd edition independent characters after its host is slain, and
the clause the pair's difficult terrain re-roll rests on), then sequences across phases and turns around psykers and
Morale: a pair whose host falls to a lascannon or to Perils of the Warp, a squad falling back with its Captain that is
assaulted and holds, Last Man Standing after a close combat that leaves a character alone, and a joined psyker's
Shooting phase checked against Game.legal_actions at each step.

Expected results are derived from the texts (seeds 000 and 001, the catalogue and the decisions of rules.yaml), not
read off the engine; the fractions are counted over the dice in the tests and checked against odds_of_action, the
command line's `odds action` and brute-force enumeration (every die a branch).

Found wrong (first written as xfail(strict=True) tests, commit e3303f2):
- 4th edition (40k4.cc.separate-unit, published.sweeping-advance): a squad (I4) and its joined Captain (I5) who alone
  touched the beaten Boyz swept on their majority Initiative 4, as one victor; where the squad and he both touched
  them they rolled once between them; and a No Sweeping Advance / Terminator Armour rule of either barred both.
  Seed 001: "Characters are treated as a separate unit when resolving close combats, following the normal rules for
  multiple combats", and p. 58 gives "each winning unit that can sweeping advance" a roll of its own; the unit's
  rules are not conferred on him nor his on it (40k4.ic.rules-not-shared). The Boyz were caught with 35/216, not
  77/432.
- 3rd edition (40k3.ic.move-through-cover, 40k3.ic.no-unit-abilities): the difficult terrain re-roll of a unit of
  two independent characters cited only the re-roll's own clause, not the one that lets the unit share it.
- 3rd edition (40k3.psyker.as-shooting, published.shooting): once a lone Librarian leading a joined Chaplain
  (40k3.ic.join) used a psychic power, the Chaplain could fire at nothing ("chap is part of lib, which has already
  shot"), where a squad beside its joined Librarian still fires at his target without him.

Fixed (judge round 42), the xfail marks removed: ``CombatResultRules._sweepers`` (w40k_combat_result) takes every
unit of the winning side, a joined character on his own, that touches the falling back unit: its own Initiative
(``_group_initiative([u])``) and its own rules (``sweep_barred``), held while its unit with its characters touches
another enemy that is not falling back (40k4.cc.locked); ``_SweepFacts.apart`` cites 40k4.cc.separate-unit on the
rolls' events when a character sweeps. ``Warhammer40k3.terrain_reroll_rules`` cites 40k3.ic.no-unit-abilities for a
unit of several. ``Warhammer40k3._power_began_its_shooting``, read by ``rule_shoot`` and ``_host_had_its_shooting``:
a host psyker's power begins his unit's shooting while a joined character has yet to fire, so the unit (``shoot
lib``) fires at its target with the others, and at no other.

Decisions: published.sweeping-advance and 40k4.cc.separate-unit amended (a victorious joined character sweeps as a
unit of his own, by his own rules; said so in each); 40k3.ic.move-through-cover and 40k3.psyker.as-shooting extended
(judge round 42); 40k3.ic.no-last-man affirmed for the pair. Round 15's case of a Chaplain with No Sweeping Advance
barring his Veteran's sweep now asserts the Veteran sweeps. Book entries:
40k4-a-captain-alone-touching-the-loser-sweeps-on-his-own-initiative (new); 40k4-terminators-make-no-sweeping-advance
(its last sentence changed).

Considered and left:
- 3rd edition, the pair whose host falls (round 41's question): the other takes neither Last Man Standing nor a
  Morale check. Right, by the seed's own reason ("он и так считается отдельным отрядом": he already counts as a
  separate unit), which makes the lost model another unit's; asserted after a lascannon and after Perils of the Warp;
  he joins a squad in his next turn and lends it his Leadership.
- a losing joined character still falls back with his unit and is caught with it on the unit's Initiative (seed 001:
  he "may not leave the unit until it regroups"); only the winning side changed.
- (not asserted here) 3rd edition: when Perils slays the pair's host Librarian, the power still used on a 2, the
  Chaplain left is a unit of his own that has not shot, and the engine lets him fire at any target that phase; a
  judge might hold him to the Librarian's target (he was part of the unit whose shooting the power began), but the
  seed calls him a separate unit all along: left.
- a squad falling back with its Captain, assaulted: the test at once with no modifiers on his Leadership (3rd
  edition even his lower 7: destroyed 5/12; 4th edition the squad's 8: 5/18), then locked, he may not leave in the
  next Movement phase; Last Man Standing after a close combat: the 3rd edition ordinary Sergeant left alone tests,
  an independent Captain and every 4th edition character do not; a joined Librarian's power binds his squad's shots
  to its target through a save and load and an undo, as legal_actions offers them.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer import odds_of_action
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _cli import result_of, run
from _w40k import (BASE_25, EDITIONS, HERO, assert_illegal, assert_legal, brute, game, hero, kinds, messages, model,
                   next_turn_to, offered, saved_and_loaded, scenario, squad)

SWEEP = "published.sweeping-advance"
MARINE_A0 = "WS4 BS4 S4 T4 W1 I4 A0 Ld8 Sv3+"  # a Marine who makes no close combat attacks (core.zero.a)
CAPTAIN_A1 = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv3+"
BOY_A0 = "WS4 BS2 S3 T4 W1 I2 A0 Ld7 Sv-"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
D6 = range(1, 7)


# == 1. 4th edition: whose Initiative sweeps when the joined Captain alone touches the loser ===========================
def captain_in_front(marine_touches: bool = False, tac_rules: tuple[str, ...] = (),
                     cap_rules: tuple[str, ...] = ()) -> Game:
    """Red's Assault phase, locked: two Marines (I4, A0) and their joined Captain (I5, A1) beside them; two Boyz (I2,
    A0, Ld 7, no save) touch the Captain only. With ``marine_touches`` a third Boy touches Marine M1 only."""
    locked = ["locked"]
    tac = {"id": "tac", "status": locked, "rules": list(tac_rules),
           "models": [model("M1", 16, 20, 8, MARINE_A0), model("M2", 14, 20, 8, MARINE_A0)]}
    cap = {"id": "cap", "character": "independent", "joined": "tac", "status": locked, "rules": list(cap_rules),
           "models": [model("Cap", 18, 20, 10, CAPTAIN_A1)]}
    boys = [model("b1", 18 + BASE_25 + 0.001, 20, 7, BOY_A0), model("b2", 18, 20 + BASE_25 + 0.001, 7, BOY_A0)]
    if marine_touches:
        boys.append(model("b3", 16, 20 - BASE_25 - 0.001, 7, BOY_A0))
    boyz = {"id": "boyz", "status": locked, "models": boys}
    return game(scenario("40k4", [tac, cap], [boyz], phase="assault"))


FIGHT = {"do": "fight", "unit": "tac"}


def caught_odds(victors: list[int]) -> Fraction:
    """Return the chance the Boyz are caught, counted over every die: the Captain's hit (WS5 against WS4: 3+) and
    wound (S4 against T4: 4+) slay a Boy and win by 1; the Boyz' Morale check on Ld 7 - 1 fails on 7 or more; they
    roll I2 + D6 and each victor of ``victors`` (its Initiative) rolls once: any total equal or greater catches."""
    ways = 0
    for hit, wound, m1, m2, fled, *rolls in itertools.product(D6, repeat=5 + len(victors)):
        won = hit >= 3 and wound >= 4
        fails = m1 + m2 > 6
        ways += won and fails and any(i + r >= 2 + fled for i, r in zip(victors, rolls))
    return Fraction(ways, 6 ** (5 + len(victors)))


@pytest.mark.rule(SWEEP, "40k4.cc.separate-unit")
def test_40k4_a_captain_alone_in_contact_with_the_loser_sweeps_on_his_own_initiative() -> None:
    """Seed 001: "Characters are treated as a separate unit when resolving close combats, following the normal rules
    for multiple combats"; the Sweeping Advance is the close combat's last step, and the multiple combats page
    (p. 58: "Each winning unit that can sweeping advance makes a single roll") gives it to each winning unit in base
    contact with the loser. The Captain alone touches the Boyz: he is the victor and rolls his own I5 + D6; his squad
    touches no Boy ("If the falling back unit no longer has any models in base contact with the victor ... the
    victors do not get a chance to sweeping advance"). Nothing in the seed holds a victorious character to his unit
    as "may not leave the unit until it regroups" holds a losing one. The dice: hit 6, wound 6 (b1 slain), the
    Morale check 6 + 6 fails, the Boyz roll 6 (8), the Captain 3 (5 + 3 = 8): caught. At the squad's majority I4 it
    would be 7, and the Boyz would break off. Exact odds: 1/3 x 21/36 x 33/36 = 77/432, against 35/216 at I4."""
    g = captain_in_front()
    start = g.state
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 6, 3]))
    [sweep] = kinds(events, "sweeping_advance")
    assert sweep.message.startswith("cap makes a sweeping advance against boyz: 5 + 3 = 8 against 2 + 6 = 8"), sweep
    assert "caught and destroyed" in sweep.message and SWEEP in sweep.rules and "40k4.cc.separate-unit" in sweep.rules
    assert not g.state.unit("boyz").alive
    assert g.state.unit("tac").has(Status.MAY_CONSOLIDATE)  # the squad consolidates with him (judge round 35)
    g.undo()
    assert g.state == start
    expected = caught_odds([5])
    assert expected == Fraction(77, 432) and caught_odds([4]) == Fraction(35, 216)
    assert odds_of_action(start, FIGHT).rows()["sweeping_advance.outcome: caught"].p == expected
    assert brute(start, FIGHT, lambda p: p.state.unit("boyz").alive)[False] == expected


@pytest.mark.rule(SWEEP, "40k4.cc.separate-unit")
def test_40k4_a_squad_and_its_captain_both_in_contact_each_roll_their_own_sweeping_advance() -> None:
    """A third Boy touches Marine M1: the squad (I4) and the Captain (I5) are two winning units of the combat in base
    contact with the Boyz, and each "makes a single roll and compares its total to each of the enemy unit's totals;
    any it equals or beats are destroyed" (p. 58). The Boyz roll 6 (8): the squad's 3 (7) falls short, the
    Captain's 3 (8) catches them. Exact odds: 1/3 x 21/36 x (the 216 ways either total reaches) against one roll at
    the majority I4."""
    g = captain_in_front(marine_touches=True)
    start = g.state
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 6, 3, 3]))
    [sweep] = kinds(events, "sweeping_advance")
    assert "make sweeping advances against boyz" in sweep.message, sweep.message
    assert "tac 4 + 3 = 7" in sweep.message and "cap 5 + 3 = 8" in sweep.message and "caught" in sweep.message
    assert not g.state.unit("boyz").alive
    g.undo()
    assert g.state == start
    expected = caught_odds([4, 5])
    assert expected != caught_odds([4])
    assert brute(start, FIGHT, lambda p: p.state.unit("boyz").alive)[False] == expected


@pytest.mark.rule(SWEEP, "40k4.ic.rules-not-shared", "40k4.cc.separate-unit")
def test_40k4_a_rule_that_bars_the_sweep_bars_only_the_unit_that_has_it() -> None:
    """"Some troops, such as Space Marine Terminators, are not allowed to sweeping advance"; "the unit's special rules
    are not conferred upon the character, and the character's special rules are not conferred upon the unit"
    (40k4.ic.rules-not-shared). The Captain in Terminator Armour, alone touching the Boyz, may not sweep: they fall
    back with no roll. The squad in Terminator Armour with a Captain without it: he sweeps (faces as above: caught)."""
    g = captain_in_front(cap_rules=("Terminator Armour",))
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 3, 3]))
    [sweep] = kinds(events, "sweeping_advance")
    assert sweep.message.startswith("no sweeping advance against boyz: cap has Terminator Armour"), sweep.message
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    g = captain_in_front(tac_rules=("Terminator Armour",))
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 6, 3]))
    [sweep] = kinds(events, "sweeping_advance")
    assert sweep.message.startswith("cap makes a sweeping advance against boyz: 5 + 3 = 8"), sweep.message
    assert not g.state.unit("boyz").alive


# == 2. 3rd edition: a pair of independent characters ================================================================
WOODS = [{"id": "woods", "kind": "difficult", "polygon": [[26, 20], [40, 20], [40, 40], [26, 40]]}]


@pytest.mark.rule("40k3.ic.move-through-cover", "40k3.ic.no-unit-abilities", "40k3.ic.join")
def test_40k3_the_pairs_difficult_terrain_reroll_cites_the_clause_that_lets_them_share_it() -> None:
    """A lone Chaplain joined to the lone Captain: each has the re-roll (40k3.ic.move-through-cover), and it is the
    unit's because every member has it (40k3.ic.no-unit-abilities' decision, round 41). What decides the pair's
    re-roll is both clauses: the ruling's note and the roll's event cite both. The Captain alone, leaving the
    Chaplain in his next turn, cites the re-roll's own clause only."""
    red = [hero("cap", 24, 30), hero("chap", 22, 30, joined="cap")]
    g = game(scenario("40k3", red, terrain=WOODS))
    move = {"do": "move", "unit": "cap", "to": [[30, 30], [28, 30]]}
    ruling = g.check(move)
    assert ruling.legal and "40k3.ic.no-unit-abilities" in ruling.notes[0], ruling
    events = g.apply(move, dice=ScriptedDice([2, 3, 1, 6]))
    [rolled] = kinds(events, "difficult_terrain")
    assert {"40k3.ic.move-through-cover", "40k3.ic.no-unit-abilities"} <= set(rolled.rules), rolled
    g = game(scenario("40k3", [hero("cap", 24, 30)], terrain=WOODS))
    ruling = g.check({"do": "move", "unit": "cap", "to": [[30, 30]]})
    assert ruling.legal and "40k3.ic.no-unit-abilities" not in ruling.notes[0], ruling


HERO_W1 = "WS5 BS5 S4 T4 W1 I5 A3 Ld{ld} Sv3+"


def pair_under_fire() -> Game:
    """Blue's Shooting phase: red's lone Captain (W1, host) with a Chaplain (W2, Ld 9) joined to him, a squad of
    three Marines 6" away; blue's lascannon 20" off."""
    cap = {"id": "cap", "character": "independent", "models": [model("Cap", 20, 20, 10, HERO_W1)]}
    chap = hero("chap", 22, 20, ld=9, joined="cap")
    guns = {"id": "guns", "models": [{**model("G", 20, 40, 7, ORK), "weapons": ["lascannon"]}]}
    return game(scenario("40k3", [cap, chap, squad("tac", 28, 20, ld=7)], [guns], phase="shooting",
                         active="blue"))


@pytest.mark.rule("40k3.ic.no-last-man", "published.morale-casualties", "published.last-man-standing",
                  "40k3.ic.join", "40k3.char.leadership")
def test_40k3_the_pair_whose_host_falls_leaves_the_other_a_unit_of_his_own_who_joins_a_squad_next_turn() -> None:
    """The lascannon hits and wounds (6, 6): its wound would kill either outright, so it falls on the model with the
    fewest Wounds, the Captain (published.wound-allocation's decision). The Chaplain is left: an independent
    character "need not take the Last Man Standing test, since he already counts as a separate unit" (seed 000,
    40k3.ic.no-last-man), and the unit that lost the model is gone, so he takes no Morale check for its casualties
    either (the catalogue's decision, affirmed: the seed's reason makes him a unit of his own whose models were
    not lost). Saved and loaded; in red's Movement phase legal_actions offers his join to the squad, he joins it,
    and the squad's Leadership test is then taken on his Ld 9 (40k3.char.leadership)."""
    g = pair_under_fire()
    events = g.apply({"do": "shoot", "unit": "guns", "target": "cap"}, dice=ScriptedDice([6, 6]))
    assert messages(events, "casualties") == ["slain: Cap"]
    [last] = kinds(events, "last_man")
    assert "40k3.ic.no-last-man" in last.rules
    [spared] = kinds(events, "morale_spared")
    assert {"published.morale-casualties", "40k3.ic.no-last-man"} <= set(spared.rules)
    assert not kinds(events, "morale") and not g.state.unit("chap").joined
    g = saved_and_loaded(g)
    next_turn_to(g, "red", "movement")
    assert ("tac", "chap") in offered(g, "join"), offered(g, "join")
    join = {"do": "join", "character": "chap", "unit": "tac", "to": [25.5, 20]}
    assert_legal(g, join, "40k3.ic.join")
    g.apply(join)
    assert g.state.unit("chap").joined == "tac"
    assert "Ld 9 (Chap)" in g.check({"do": "test", "unit": "tac", "characteristic": "Ld"}).reason


LIBRARIAN_W1 = "WS5 BS5 S4 T4 W1 I5 A3 Ld9 Sv3+"


def pair_with_librarian_host() -> Game:
    """Red's Shooting phase: a lone Librarian (W1, Ld 9, psyker, host) with a Chaplain (a boltgun) joined to him;
    blue's Boyz 8" off and blue's Orks 10" off, both in sight."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 20, 20, 9, LIBRARIAN_W1)]}
    chap = {**hero("chap", 22, 20, joined="lib"), "models": [{**model("Chap", 22, 20, 10, HERO),
                                                               "weapons": ["boltgun"]}]}
    boyz = {"id": "boyz", "models": [model(f"b{i}", 18 + 2 * i, 28, 7, ORK) for i in range(3)]}
    orks = {"id": "orks", "models": [model(f"o{i}", 30 + 2 * i, 28, 7, ORK) for i in range(3)]}
    return game(scenario("40k3", [lib, chap], [boyz, orks], phase="shooting"))


SMITE_BOYZ = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}


@pytest.mark.rule("40k3.psyker.as-shooting", "published.shooting", "40k3.ic.join")
def test_40k3_the_pairs_chaplain_still_fires_at_the_target_of_its_host_librarians_power() -> None:
    """The Librarian, host of the pair, Smites the Boyz (test 2 + 3 = 5, passed; the four shots miss). His power is
    his part of the unit's shooting (40k3.psyker.as-shooting's decision), and the unit fires at one target: the rest
    of it, the Chaplain, may still fire at the Boyz, without the Librarian, as a squad does beside its Librarian
    ("tac may still fire at boyz, without him", round 37); not at the Orks. legal_actions offers exactly that shot
    and the end of the phase (the boltgun's two shots within half range, standing still); once it is fired, only the
    end of the phase."""
    g = pair_with_librarian_host()
    g.apply(SMITE_BOYZ, dice=ScriptedDice([2, 3, 1, 1, 1, 1]))
    assert_legal(g, {"do": "shoot", "unit": "lib", "target": "boyz"}, "published.line-of-sight")
    assert_illegal(g, {"do": "shoot", "unit": "lib", "target": "orks"}, "published.shooting")
    assert offered(g, "shoot") == {("lib", "boyz")} and not offered(g, "manifest")
    events = g.apply({"do": "shoot", "unit": "lib", "target": "boyz"}, dice=ScriptedDice([1, 1]))
    assert messages(events, "shots") == ["Chap fires 2 shots with boltgun: 0 hits, 0 wounds"], events
    assert [a.do for a in g.legal_actions()] == ["end_phase"]


@pytest.mark.rule("40k3.psyker.perils", "40k3.psyker.perils-on-2", "40k3.ic.no-last-man")
def test_40k3_perils_slays_the_pairs_host_librarian_his_power_is_still_used_and_the_chaplain_takes_no_test() -> None:
    """The Librarian rolls 1 + 1 = 2: Perils of the Warp, a hit of Strength D6 (4) with no save, wounding on 4+ (5):
    he is slain, and on a 2 the power is still used (40k3.psyker.perils-on-2): Smite's four shots at the Boyz
    (misses). The Chaplain left is an independent character: no Last Man Standing (40k3.ic.no-last-man), and no
    Morale check (Perils casualties are not the enemy's shooting, published.last-man-standing's decision). An
    undo brings the Librarian back, his power unused."""
    g = pair_with_librarian_host()
    start = g.state
    events = g.apply(SMITE_BOYZ, dice=ScriptedDice([1, 1, 4, 5, 1, 1, 1, 1]))
    assert messages(events, "casualties")[0] == "slain: Lib"
    [last] = kinds(events, "last_man")
    assert "40k3.ic.no-last-man" in last.rules and not kinds(events, "morale")
    [used] = kinds(events, "power_used")
    assert "40k3.psyker.perils-on-2" in used.rules
    assert not g.state.unit("lib").alive and g.state.unit("chap").alive and not g.state.unit("chap").joined
    g.undo()
    assert g.state == start
    assert ("lib", "Smite", "boyz") in offered(g, "manifest")


# == 3. a squad falling back with its Captain, assaulted: the test at once, on whose Leadership ======================
def falling_back_assaulted(ruleset: str) -> Game:
    """Blue's Assault phase: red's three Marines (Ld 8) with their Captain (Ld 7) joined, all falling back (below
    half strength: they began six); blue's Boyz 4" off."""
    tac = {**squad("tac", 20, 20, ld=8), "status": ["falling_back"], "models_at_start": 6}
    cap = hero("cap", 22, 18.5, ld=7, joined="tac", status=["falling_back"])
    boyz = {"id": "boyz", "models": [model(f"b{i}", 20 + 2 * i, 24, 7, ORK) for i in range(3)]}
    return game({**scenario(ruleset, [tac, cap], [boyz], phase="assault"), "active": "blue"})


ASSAULT_TAC = {"do": "assault", "unit": "boyz", "target": "tac"}


@pytest.mark.rule("published.assaulted-while-falling-back", "40k3.char.leadership", "40k4.char.leadership",
                  "40k3.ic.falling-back", "40k4.ic.falling-back", "40k4.cc.locked")
@EDITIONS
def test_a_falling_back_squad_assaulted_tests_at_once_on_its_captains_leadership_and_holds(ruleset: str) -> None:
    """The squad is assaulted whilst falling back: it "must check to regroup immediately ... No modifiers apply ...
    even units which would not normally be allowed to regroup" (below half strength, an enemy within 6"). 3rd
    edition takes it on the Captain's Ld 7 even though lower (40k3.char.leadership's decision), 4th on the squad's
    8 (his is not superior): destroyed with 15/36 = 5/12 and 10/36 = 5/18. A pass (3 + 3) regroups them and they
    fight: in red's next Movement phase they are locked, the Captain may not leave (40k3.ic.movement-phase-only,
    40k4.ic.movement-phase-only), and legal_actions offers no move or leave of theirs. An undo of the assault puts
    the falling back back."""
    g = falling_back_assaulted(ruleset)
    start = g.state
    ld = 7 if ruleset == "40k3" else 8
    expected = Fraction(sum(a + b > ld for a, b in itertools.product(D6, repeat=2)), 36)
    assert expected == {7: Fraction(5, 12), 8: Fraction(5, 18)}[ld]
    assert brute(start, ASSAULT_TAC, lambda p: p.state.unit("tac").alive)[False] == expected
    assert odds_of_action(start, ASSAULT_TAC).rows()["tac: models lost = 3"].p == expected
    events = g.apply(ASSAULT_TAC, dice=ScriptedDice([3, 3]))
    [regroup] = kinds(events, "regroup")
    who = "Cap" if ld == 7 else "tac 1"
    assert f"Ld {ld} ({who})" in regroup.message, regroup.message
    assert not g.state.unit("tac").has(Status.FALLING_BACK) and not g.state.unit("cap").has(Status.FALLING_BACK)
    assert g.state.unit("tac").has(Status.LOCKED)
    g.undo()
    assert g.state == start
    g.apply(ASSAULT_TAC, dice=ScriptedDice([3, 3]))
    g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 40))  # every blow misses: a draw, still locked
    next_turn_to(g, "red", "movement")
    assert g.state.unit("tac").has(Status.LOCKED)
    movement_only = "40k3.ic.movement-phase-only" if ruleset == "40k3" else "40k4.ic.movement-phase-only"
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [22, 14]}, movement_only)
    assert not offered(g, "leave") and not any(u in ("tac", "cap") for u, *_ in offered(g, "move"))


# == 4. Last Man Standing after a close combat that leaves a character alone ========================================
def last_of_his_squad(ruleset: str, kind: str) -> Game:
    """Red's Assault phase, locked: a Marine and a Sergeant or Captain (``kind``; I5, A2, Ld 9, Sv3+) of his squad;
    two Boyz touch the character, a third the Marine only."""
    locked = ["locked"]
    tac = {"id": "tac", "status": locked, "models": [model("M1", 16, 20, 8, MARINE)]}
    sgt = {"id": "sgt", "character": kind, "joined": "tac", "status": locked,
           "models": [model("Sgt", 18, 20, 9, "WS5 BS5 S4 T4 W2 I5 A2 Ld9 Sv3+")]}
    boyz = {"id": "boyz", "status": locked,
            "models": [model("b1", 18 + BASE_25 + 0.001, 20, 7, ORK), model("b2", 18, 20 + BASE_25 + 0.001, 7, ORK),
                       model("b3", 16, 20 - BASE_25 - 0.001, 7, ORK)]}
    return game(scenario(ruleset, [tac, sgt], [boyz], phase="assault"))


#: The Sergeant hits and wounds twice (b1, b2 slain); M1 misses; b3 hits and wounds twice, M1 fails his save (1) and
#: the Sergeant saves the other (6) where 3rd edition deals it to him; then the checks roll 3 + 3.
CC_FACES = [6, 6, 6, 6, 1, 6, 6, 6, 6, 1, 6] + [3] * 12


@pytest.mark.rule("published.last-man-standing", "40k3.char.kinds", "40k3.ic.no-last-man", "40k4.char.no-last-man",
                  "published.combat-resolution")
@pytest.mark.parametrize("ruleset, kind", [("40k3", "ordinary"), ("40k3", "independent"), ("40k4", "ordinary"),
                                           ("40k4", "independent")])
def test_last_man_standing_after_a_close_combat_that_leaves_the_character_alone(ruleset: str, kind: str) -> None:
    """Red wins the combat 2 to 1 and is left with its character alone. 3rd edition: a unit reduced to one model
    takes Last Man Standing (published.last-man-standing; a winner left with one model takes it alone), the
    ordinary Sergeant as the last of his squad (40k3.char.kinds: part of it), on his Ld 9; an independent Captain
    never (40k3.ic.no-last-man). 4th edition: no Last Man Standing for any character (40k4.char.no-last-man). The
    Boyz, left with one, take the loser's check (3rd edition then Last Man Standing as well)."""
    g = last_of_his_squad(ruleset, kind)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice(list(CC_FACES)))
    assert "red" in kinds(events, "combat_result")[0].message and "blue loses" in kinds(events, "combat_result")[
        0].message, messages(events, "combat_result")
    assert not g.state.unit("tac").alive and g.state.unit("sgt").alive
    tests = [m for m in messages(events, "morale") if m.startswith("sgt")]
    if ruleset == "40k3" and kind == "ordinary":
        assert len(tests) == 1 and "Last Man Standing check on Ld 9 (Sgt)" in tests[0], tests
    else:
        assert tests == []
        [told] = [e for e in kinds(events, "last_man") if e.message.startswith("sgt")]
        assert ("40k3.ic.no-last-man" if ruleset == "40k3" else "40k4.char.no-last-man") in told.rules
    boyz_tests = [m for m in messages(events, "morale") if m.startswith("boyz")]
    assert boyz_tests[0].startswith("boyz lost the combat by 1")
    assert (len(boyz_tests) == 2 and "Last Man Standing" in boyz_tests[1]) is (ruleset == "40k3"), boyz_tests


# == 5. a joined Librarian's Shooting phase, legal_actions at each step, an undo and a save and load ================
@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test", "40k3.psyker.as-shooting",
                  "published.40k4-psychic-shooting", "40k4.shoot.same-target")
@EDITIONS
def test_a_joined_librarians_power_binds_his_squads_shots_through_an_undo_and_a_save_and_load(ruleset: str) -> None:
    """Red's Shooting phase: a Librarian (Ld 9) joined to three Marines; blue's Boyz and Orks in sight. legal_actions
    offers his Smite at each and the squad's shots at each. He Smites the Orks (4 + 4 passes, misses): then the
    squad may fire at the Orks only (40k4.shoot.same-target; 3rd edition: a unit fires at one target,
    published.shooting), and he no second power. Saved and loaded, the same; undone, both targets again."""
    lib = hero("lib", 26, 20, ld=9, joined="tac", rules=["psyker"])
    boyz = {"id": "boyz", "models": [model(f"b{i}", 18 + 2 * i, 28, 7, ORK) for i in range(3)]}
    orks = {"id": "orks", "models": [model(f"o{i}", 28 + 2 * i, 28, 7, ORK) for i in range(3)]}
    tac = {**squad("tac", 20, 20), "models": [{**m, "weapons": ["boltgun"]} for m in squad("tac", 20, 20)["models"]]}
    g = game(scenario(ruleset, [tac, lib], [boyz, orks], phase="shooting"))
    start = g.state
    assert {("lib", "Smite", "boyz"), ("lib", "Smite", "orks")} <= offered(g, "manifest")
    assert {("tac", "boyz"), ("tac", "orks")} <= offered(g, "shoot")
    g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "orks"},
            dice=ScriptedDice([4, 4, 1, 1, 1, 1]))
    for h in (g, saved_and_loaded(g)):
        assert offered(h, "shoot") == {("tac", "orks")} and not offered(h, "manifest")
        same = "40k4.shoot.same-target" if ruleset == "40k4" else "published.shooting"
        assert_illegal(h, {"do": "shoot", "unit": "tac", "target": "boyz"}, same)
    g.undo()
    assert g.state == start
    assert {("tac", "boyz"), ("tac", "orks")} <= offered(g, "shoot")


# == 6. the Captain's sweep through the command line, and the consolidation that follows ===========================
@pytest.mark.rule(SWEEP, "40k4.cc.separate-unit", "40k4.ic.movement-phase-only")
def test_40k4_odds_action_on_the_cli_gives_the_captains_sweep_the_same_exact_fraction(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The scenario of case 1 saved to a file: `herohammer odds action --json` answers the Boyz caught with the
    same 77/432 the dice count; the Captain asked to leave his squad in the Assault phase is refused in one line
    naming the rule (4th ed.: "once assaults are launched it is too late"), exit status 2."""
    path = tmp_path / "sweep.yaml"
    captain_in_front().save(path)
    code, out, err = run(["odds", "action", str(path), "--action", '{"do": "fight", "unit": "tac"}', "--json"],
                         capsys)
    assert code == 0, err
    data: Any = result_of(out)
    assert data["exact"] and Fraction(data["rows"]["sweeping_advance.outcome: caught"]) == caught_odds([5])
    code, out, err = run(["odds", "action", str(path), "--action",
                          '{"do": "leave", "character": "cap", "to": [18, 14]}'], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "40k4.ic.movement-phase-only" in err, err


@pytest.mark.rule(SWEEP, "published.consolidation", "40k4.cc.separate-unit")
def test_40k4_after_the_captains_sweep_his_squad_consolidates_with_him_and_he_not_alone() -> None:
    """The Captain's roll caught the Boyz (case 1's dice). He swept as a unit of his own, but he is still part of his
    squad after the combat: legal_actions offers the squad's consolidation, not his own, and asked on his own he is
    sent to consolidate with it (published.consolidation's decision, judge round 35). The squad consolidates with
    him (the D6 rolls 4, and each model's place is 3" on); an undo puts them back, still free to consolidate."""
    g = captain_in_front()
    g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 6, 3]))
    assert not g.state.unit("boyz").alive
    consolidations = {u for u, *_ in offered(g, "consolidate")}
    assert "tac" in consolidations and "cap" not in consolidations, consolidations
    alone = {"do": "consolidate", "unit": "cap", "to": [[18, 23]]}
    refused = assert_illegal(g, alone, "published.consolidation")
    assert "tac" in str(refused)
    before = g.state
    places = {"do": "consolidate", "unit": "tac", "to": [[16, 23], [14, 23], [18, 23]]}
    assert_legal(g, places, "published.consolidation")
    g.apply(places, dice=ScriptedDice([4]))
    assert g.state.unit("cap").models[0].at == (18.0, 23.0) and g.state.unit("tac").models[1].at == (14.0, 23.0)
    g.undo()
    assert g.state == before and g.state.unit("tac").has(Status.MAY_CONSOLIDATE)
