"""A judge's cases for 40k 3rd and 4th edition, round 60: psykers (the psychic test of a Librarian among other
characters, Perils of the Warp on a Farseer of Toughness 3 with an invulnerable save, one power a turn across phases
and turns) and shooting at characters (3rd edition's 6" and 12", 4th edition's closest target, a Target Priority
test that fails towards a lone character), as sequences in which the state changes around a character: his squad
shot away in the same phase, two characters left alone by their squad, undo, save and load, the record played back,
the next player turn.

Expected results are derived from the texts (seeds 000 and 001, the 4th edition pages named in rules.yaml, the
catalogue and the decisions of rules.yaml), not read off the engine; the fractions are counted over the dice by hand
and checked against brute-force enumeration (every die a branch), and once against `herohammer odds action`.

Cases:
1. 3rd edition: a lone Warboss 6.02" (edge to edge) from his Boyz is more than 6" away and may be picked out; the
   ruling said "6.0" from its nearest other unit: more than 6"", a distance the rule's words contradict. One 5.98"
   away is refused; his distance to the firers is said alike;
2. both editions: a lone Warboss within 6" of his Boyz, behind them: no target (3rd: not the closest within 12"; 4th:
   not the closest); the Boyz shot away in the same phase, the next unit picks him out (3rd: no other unit of his
   side left, at 40"; 4th: now the closest), each edition citing its own clause; undone, refused again; saved and
   loaded, and the record played back, picked out;
3. 4th edition: a squad with its Captain (Ld 10) fires at Boyz past a lone Warboss, the closest: its Target Priority
   test fails with 3/36 (exact, brute force), and then it fires at the Warboss, which the ruling and the event must
   justify by 40k4.target.closest; next turn the Captain has left: on the squad's own 8, 10/36; 3rd edition takes no
   test;
4. both editions: a Farseer (T3, W3, 4+ invulnerable) joined to Guardians uses Fear of the Darkness: 3rd edition's
   Perils hit of Strength D6 allows no save of any kind and kills him outright at S6 (slain 5/648, one wound 5/216),
   the power still used on the 2; 4th edition's one wound, his invulnerable save taken (1/36); exact against brute
   force, and 3rd edition's through `herohammer odds action` too;
5. both editions: a Librarian (Ld 8) and a Captain (Ld 10) both joined to a squad: the psychic test is the
   Librarian's, on his own 8 (26/36 that the power is used, the 2 included), not on the unit's 10; exact;
6. both editions: one power a turn across phases: a Librarian who Smote in the Shooting phase may not use Psychic
   Scream in the Assault phase, each edition citing its own test clause; the record played back in the middle and
   the Smite undone there, it is offered again; in blue's turn his status is gone, and in red's next turn, saved and
   loaded, he Smites again;
7. both editions: a squad with a Captain and a Librarian joined is shot away: each is a unit of his own (no Last Man
   Standing, each edition's clause); next turn the Librarian may join the Captain in 3rd edition (40k3.ic.join) and
   may not in 4th (40k4.ic.no-character-units); undone, and saved and loaded, the same; alone he Smites;
8. both editions: `legal_actions` offers a psyker's powers at exactly the targets `check` allows: a lone Warboss far
   from his Boyz, the same Warboss near them but closest, and a Nob joined to the Boyz.

Found wrong (each first written as an xfail(strict=True) test, commit 29a35fb9):
- 3rd edition (40k3.ic.target; case 1): the lone character's ruling printed its distances to one decimal, so a
  Warboss 6.02" from his Boyz was "6.0" from its nearest other unit: more than 6"" - words a judge reads as a
  contradiction of the clause it cites. Words only: the ruling itself was right.
- 4th edition (40k4.target.closest with published.target-priority; case 3): a failed Target Priority test sends the
  unit's shots at the closest enemy unit; when that is a lone independent character, the shot picks him out, which
  only 40k4.target.closest allows - the same shot asked for directly cites it - but neither the ruling ("failing it,
  fires at boss instead") nor the test's event cited it. Citation only.

Fixed (judge round 60, commit 594d6d97), the xfail marks removed:
- ``geometry.inches_beside``: a distance written with the fewest decimals (one to three) that keep it on its side of
  a limit; ``Warhammer40k3.character_target_ruling`` says the 6" and 12" distances with it ("boss is 6.02" from its
  nearest other unit: more than 6""; "(5.98")" when refused). The book's Nob (6.05") and Warboss (exactly 6") read
  as before.
- ``Warhammer40k4._closest_picked_out``: where the closest enemy unit a Target Priority test names is a lone
  character, ``rule_shoot``'s ruling and ``resolve_shoot``'s failed test cite the clause that lets the shots pick
  him out (40k4.target.closest; 40k4.target.monstrous for a Monstrous Creature) and say it ("(warboss is the
  closest target to tactical)"); a passed test cites nothing more.

Decisions: 40k3.ic.target and published.target-priority amended (rules.yaml) to say so (docs/40k.md and
docs/rules.md rebuilt, commit 418f9ff7). Book entry (new, commit 58374dc0):
40k4-a-failed-target-priority-test-picks-out-the-closest-lone-character; docs/rules.md's list rebuilt.

Checked, as it stands (passed as first written): cases 2 and 4 to 8 - 3rd edition's isolated lone character (no
other unit of his side left once his Boyz were shot away in the same phase) and 4th edition's closest, each citing
its own clause, undone, saved and loaded, the record played back; 3rd edition's Perils with Instant Death at S6 and
no invulnerable save, 4th edition's one wound with the invulnerable save, the power on a 2 (exact, and `odds
action`'s rows); the psychic test on the psyker's own Leadership beside a Captain of higher Ld; one power a turn
across the Shooting and Assault phases, the statuses gone with the turn; two characters left alone by their squad
(no Last Man Standing; a unit of characters in 3rd edition only); `legal_actions` and `check` agreeing on a power's
targets. My slip, corrected before the first commit: case 4's 4th edition faces ran out before the Boyz' fall back
(the Morale check the power causes rolls its 2D6 of fall back distance).

Left (noticed, not changed):
- a direct shot at a lone character cites its targeting clause in the ruling only; the shooting's events cite
  published.shooting (and the same-target clause), not 40k3.ic.target or 40k4.target.closest. The redirect's test
  event now cites it, as the ruling does; the events after it read as a direct shot's.
- 3rd edition's Perils that kills outright: the instant_death event cites published.instant-death alone, the perils
  event before it 40k3.psyker.perils; read together they cite both.
- a Morale power's (Fear of the Darkness) Morale check event cites the psychic test clause beside the Leadership
  ones, not the psychic shooting clause under which it picked its target; the ruling cites both.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _cli import odds_rows
from _w40k import (BASE_25, EDITIONS, ON_TWO, PERILS, PSY_SHOOT, PSY_TEST, armed, assert_illegal,
                   assert_legal, brute, game, gunners, hero, kinds, model, next_turn_to, offered, saved_and_loaded,
                   scenario, two_d6_at_most)

D6 = range(1, 7)
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
LIB = "WS5 BS5 S4 T4 W2 I5 A3 Ld{ld} Sv3+"
SEER = "WS5 BS5 S3 T3 W3 I5 A1 Ld10 Sv- Inv4+"
TARGET = {"40k3": "40k3.ic.target", "40k4": "40k4.target.closest"}
NO_LAST_MAN = {"40k3": "40k3.ic.no-last-man", "40k4": "40k4.char.no-last-man"}
POWERS = ("Smite", "Lightning Arc", "Fear of the Darkness", "Psychic Scream")


def librarian(uid: str, x: float, y: float, ld: int = 9, **extra: Any) -> dict[str, Any]:
    """An independent psyker (W2, Sv3+) with a bolt pistol."""
    return {"id": uid, "character": "independent", "rules": ["psyker"],
            "models": [armed(uid.title(), x, y, "bolt pistol", LIB.format(ld=ld), ld)], **extra}


def boyz_at(x: float, y: float, n: int = 3, uid: str = "boyz") -> dict[str, Any]:
    """Blue's Boyz (T4, no save) in a line along x, 2" apart."""
    return {"id": uid, "models": [model(f"{uid[0]}{i + 1}", x + 2 * i, y, 7, ORK) for i in range(n)]}


def shot_at(played: Game) -> str:
    """The unit the first shooting of an action fired at, read from its event ("tac shoots at boss ...")."""
    (shoot, *_) = kinds(list(played.log), "shoot")
    return str(shoot.message.split(" shoots at ")[1].split(" ")[0])


# == 1. 3rd edition: a lone Warboss 6.02" from his Boyz, and one 5.98" away: the distance said beside the 6" ==========

def warboss_beside_boyz(gap: float) -> Game:
    """Red's Shooting phase: Marines 24" from a lone Warboss who stands ``gap`` inches (edge to edge) from his Boyz."""
    red = [gunners("tac", 30, 5, n=1)]
    blue = [hero("boss", 30, 29, ld=9), boyz_at(30 + BASE_25 + gap, 29, n=2)]
    return game(scenario("40k3", red, blue, phase="shooting"))


@pytest.mark.rule("40k3.ic.target")
def test_40k3_a_lone_character_just_over_6_inches_from_his_boyz_is_said_to_be_so() -> None:
    """Seed 000: a lone independent character may be chosen as a target only if he is "more than 6"" from another
    living unit (or the closest target within 12"). A Warboss 6.02" from his Boyz is more than 6" away: he may be
    picked out, and the ruling that cites the clause must not call his distance 6.0" while it says "more than 6"";
    it says 6.02". One 5.98" away is within 6" and not the closest within 12" (the Boyz are not closer, but he is
    24" away): refused, its words saying 5.98", not 6.0"."""
    far = warboss_beside_boyz(6.02)
    ruling = far.check({"do": "shoot", "unit": "tac", "target": "boss"})
    assert ruling.legal and ruling.rules == ("40k3.ic.target",), ruling
    assert "6.02\"" in ruling.reason and "6.0\"" not in ruling.reason, ruling.reason
    near = warboss_beside_boyz(5.98)
    refused = assert_illegal(near, {"do": "shoot", "unit": "tac", "target": "boss"}, "40k3.ic.target")
    assert "5.98\"" in refused.reason and "6.0\"" not in refused.reason, refused.reason


# == 2. both editions: a lone Warboss behind his Boyz, picked out once they are shot away in the same phase =========

def warboss_behind_boyz(ruleset: str) -> Game:
    """Red's Shooting phase: ``las`` (two lascannons) 10" before blue's two Boyz at (20, 24), (22, 24); the lone
    Warboss at (15, 26), within 6" of them and behind them as ``far`` (two boltguns at (50, 6), (52, 6)) sees it."""
    red = [{"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 14, "lascannon") for i in range(2)]},
           gunners("far", 50, 6, n=2)]
    return game(scenario(ruleset, red, [boyz_at(20, 24, n=2), hero("boss", 15, 26, ld=9)], phase="shooting"))


@EDITIONS
@pytest.mark.rule("40k3.ic.target", "40k4.target.closest")
def test_a_lone_character_is_picked_out_once_his_boyz_are_shot_away_in_the_same_phase(ruleset: str) -> None:
    """The Warboss, 4.4" from his Boyz and 39" from ``far``, behind them: 3rd edition refuses him (within 6" of
    another living unit of his side and not the closest within 12", 40k3.ic.target), 4th too (not the closest,
    40k4.target.closest). ``las`` shoots the Boyz away (four 6s: two hits, two wounds, no save): in the same phase
    ``far`` picks him out - 3rd edition because no other unit of his side is left (more than 6" from every other
    living unit, at any range), 4th because he is now the closest - each edition citing its own clause and never the
    other's. Undone, refused again; saved and loaded, and the game's record played back, picked out."""
    g = warboss_behind_boyz(ruleset)
    at_boss = {"do": "shoot", "unit": "far", "target": "boss"}
    refused = assert_illegal(g, at_boss, TARGET[ruleset])
    assert not set(TARGET.values()) - {TARGET[ruleset]} & set(refused.rules), refused.rules
    assert ("far", "boss") not in {p[:2] for p in offered(g, "shoot")}
    start = g.state
    g.apply({"do": "shoot", "unit": "las", "target": "boyz"}, dice=ScriptedDice([6] * 4))
    assert not g.state.unit("boyz").alive and g.state.phase.value == "shooting"
    for h in (g, saved_and_loaded(g), Game.replay(g.to_data(record=True))):
        ruling = h.check(at_boss)
        assert ruling.legal and ruling.rules == (TARGET[ruleset],), ruling
        assert ("far", "boss") in {p[:2] for p in offered(h, "shoot")}
    if ruleset == "40k3":
        assert "no other unit of its side" in g.check(at_boss).reason
    g.undo()
    assert g.state == start
    assert_illegal(g, at_boss, TARGET[ruleset])


# == 3. 4th edition: a failed Target Priority test sends the squad's shots at a lone Warboss =======================

def squad_past_warboss(captain: bool = True) -> Game:
    """Red's Shooting phase: two Marines with boltguns at (20, 20), (22, 20) (and their Captain, Ld 10, joined at
    (24, 20)); blue's lone Warboss at (24, 27) the closest enemy, his Boyz 14" away at (22-26, 34) (more than 6" from
    him)."""
    red = [gunners("tac", 20, 20, n=2)] + ([{**hero("cap", 24, 20, ld=10), "joined": "tac"}] if captain else [])
    return game(scenario("40k4", red, [boyz_at(22, 34), hero("boss", 24, 27, ld=9)], phase="shooting"))


@pytest.mark.rule("published.target-priority", "40k4.target.closest", "40k4.char.leadership")
def test_40k4_a_failed_target_priority_test_picks_out_the_lone_character_by_the_closest_clause() -> None:
    """4th ed. p. 31: a unit firing at an enemy other than the closest first takes a Leadership test; failed, it
    fires at the closest enemy unit instead. Here the closest is a lone Warboss, whom only 40k4.target.closest lets
    be picked out (a shot at him asked for directly cites it): the ruling that announces the redirect and the test's
    event when it fails must cite it too (a pass, firing at the Boyz, need not). The test is on the Captain's Ld 10
    (40k4.char.leadership): the squad fires at the Warboss with 3/36, exact and brute force. Next turn the Captain
    leaves: the squad's own 8 fails with 10/36, and still the same clause. 3rd edition has no such test."""
    g = squad_past_warboss()
    at_boyz = {"do": "shoot", "unit": "tac", "target": "boyz"}
    assert_legal(g, {**at_boyz, "target": "boss"}, "40k4.target.closest")
    assert_legal(g, at_boyz, "published.target-priority", "40k4.target.closest")
    odds = brute(g.state, at_boyz, shot_at)
    assert odds == {"boss": 1 - two_d6_at_most(10), "boyz": two_d6_at_most(10)}
    assert odds["boss"] == Fraction(3, 36)
    h = Game(g.state, ScriptedDice([]))
    (test, *_) = h.apply(at_boyz, dice=ScriptedDice([6, 6] + [1] * 12))
    assert test.kind == "target_priority" and "40k4.target.closest" in test.rules, test
    h = Game(g.state, ScriptedDice([]))
    (test, *_) = h.apply(at_boyz, dice=ScriptedDice([1, 1] + [1] * 12))
    assert "40k4.target.closest" not in test.rules and shot_at(h) == "boyz", test

    next_turn_to(g, "red", "movement")
    g.apply({"do": "leave", "character": "cap", "to": [24, 14]})
    g.apply({"do": "end_phase"})
    assert g.state.phase.value == "shooting" and g.state.unit("cap").joined is None
    assert brute(g.state, at_boyz, shot_at) == {"boss": Fraction(10, 36), "boyz": Fraction(26, 36)}
    assert_legal(g, at_boyz, "published.target-priority", "40k4.target.closest")
    third = game(scenario("40k3", [gunners("tac", 20, 20, n=2)], [boyz_at(22, 34), hero("boss", 24, 27, ld=9)],
                          phase="shooting"))
    assert brute(third.state, at_boyz, shot_at) == {"boyz": Fraction(1)}


# == 4. both editions: Perils of the Warp on a Farseer of Toughness 3 with a 4+ invulnerable save ===================

def farseer_with_guardians(ruleset: str) -> Game:
    """Red's Shooting phase: two Guardians with the Farseer (T3 W3 Ld10, no armour, 4+ invulnerable) joined; blue's
    three Boyz 9" away."""
    red = [{"id": "gd", "models": [armed("G1", 20, 20, "boltgun"), armed("G2", 22, 20, "boltgun")]},
           {"id": "seer", "character": "independent", "rules": ["psyker"], "joined": "gd",
            "models": [armed("Farseer", 24, 20, "bolt pistol", SEER, 10)]}]
    return game(scenario(ruleset, red, [boyz_at(22, 30)], phase="shooting"))


FEAR = {"do": "manifest", "psyker": "seer", "power": "Fear of the Darkness", "target": "boyz"}


def farseer_wounds_by_hand(ruleset: str) -> dict[int, Fraction]:
    """The Farseer's Wounds left after the psychic test, counted over the dice. Perils on 2 or 12 (both editions).
    3rd (40k3.psyker.perils): a hit of Strength D6, no save of any kind (his 4+ invulnerable too); to wound T3, S1
    on 6, S2 5+, S3 4+, S4 3+, S5 and S6 2+ (published.to-wound); S6 is double his Toughness: all three Wounds
    (published.instant-death). 4th (published.40k4-perils-of-the-warp): one wound, his 4+ invulnerable save taken."""
    out: dict[int, Fraction] = {}
    for a, b in itertools.product(D6, D6):
        if a + b not in (2, 12):
            out[3] = out.get(3, Fraction(0)) + Fraction(1, 36)
            continue
        if ruleset == "40k4":
            for save in D6:
                left = 3 if save >= 4 else 2
                out[left] = out.get(left, Fraction(0)) + Fraction(1, 216)
            continue
        for strength, roll in itertools.product(D6, D6):
            need = {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 2}[strength]
            left = 3 if roll < need else (0 if strength >= 6 else 2)
            out[left] = out.get(left, Fraction(0)) + Fraction(1, 36 * 36)
    return out


@EDITIONS
@pytest.mark.rule("40k3.psyker.perils", "40k3.psyker.perils-on-2", "published.40k4-perils-of-the-warp",
                  "published.instant-death")
def test_perils_of_the_warp_on_a_toughness_3_farseer_with_an_invulnerable_save(ruleset: str, tmp_path: Path,
                                                                               capsys: pytest.CaptureFixture[str]
                                                                               ) -> None:
    """Each edition's Perils against the hand count (3rd: slain 5/648, a wound 5/216; 4th: a wound 1/36), brute
    force. 3rd edition, 1 + 1 then a 6 and a 6: hit at S6, no save though he has a 4+ invulnerable, killed outright
    (Instant Death), and on the 2 the power is still used (40k3.psyker.perils-on-2): the Boyz take their check. 4th
    edition, the same faces: his invulnerable save (the second 6) keeps the wound off. Each edition cites its own
    clauses, never the other's. 3rd edition's odds through `herohammer odds action` too."""
    g = farseer_with_guardians(ruleset)
    assert_legal(g, FEAR, PSY_TEST[ruleset], PSY_SHOOT[ruleset])
    read = (lambda p: p.state.unit("seer").models[0].wounds_left if p.state.unit("seer").alive else 0)
    odds = brute(g.state, FEAR, read)
    assert odds == {k: v for k, v in farseer_wounds_by_hand(ruleset).items() if v}
    if ruleset == "40k3":
        assert odds[0] == Fraction(5, 648) and odds[2] == Fraction(5, 216)
    else:
        assert odds == {3: Fraction(35, 36), 2: Fraction(1, 36)}
    h = Game(g.state, ScriptedDice([]))
    events = h.apply(FEAR, dice=ScriptedDice([1, 1, 6, 6, 3, 3] + [1] * 6))
    cited = {r for e in events for r in e.rules}
    assert PERILS[ruleset] in cited and ON_TWO[ruleset] in cited
    other = "40k4" if ruleset == "40k3" else "40k3"
    assert not {PERILS[other], ON_TWO[other], PSY_TEST[other]} - {PERILS[ruleset], ON_TWO[ruleset]} & cited
    assert kinds(events, "power_used") and kinds(events, "morale")
    if ruleset == "40k3":
        assert not h.state.unit("seer").alive and kinds(events, "instant_death")
        (perils,) = kinds(events, "perils")
        assert "S6" in perils.message and "no save" in perils.message
        rows = odds_rows(g.state, FEAR, tmp_path / "seer.json", capsys)
        assert Fraction(rows["seer: models lost = 1"]) == odds[0]
        assert Fraction(rows["seer: wounds lost = 1"]) == odds[2]
    else:
        assert h.state.unit("seer").models[0].wounds_left == 3
        (perils,) = kinds(events, "perils")
        assert "invulnerable" in perils.message


# == 5. both editions: a Librarian's psychic test is on his own Leadership, beside a Captain of Ld 10 ===============

def squad_with_captain_and_librarian(ruleset: str, phase: str = "shooting", **kw: Any) -> Game:
    """Two Marines (Ld 8, boltguns) at (20, 20), (22, 20) with a Captain (Ld 10) and a Librarian (Ld 8) joined;
    blue's Boyz 10" away and ``kw`` for the scenario."""
    red = [gunners("tac", 20, 20, n=2), {**hero("cap", 24, 20, ld=10), "joined": "tac"},
           librarian("lib", 20, 18, ld=8, joined="tac")]
    return game(scenario(ruleset, red, [boyz_at(22, 30)], phase=phase, **kw))


@EDITIONS
@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test", "40k3.char.leadership", "40k4.char.leadership")
def test_a_librarian_takes_his_psychic_test_on_his_own_leadership_beside_a_captain(ruleset: str) -> None:
    """Seed 000: the psyker passes his test by rolling equal to or under "his Ld"; the unit's Leadership (the
    Captain's 10 by 40k3.char.leadership or 40k4.char.leadership) is for the unit's tests, not for his power. So
    Smite is used with 26/36 (2D6 at most 8, the 2 among them), not 33/36: exact, brute force. The test's event says
    Ld 8 and cites the edition's own test clause alone."""
    g = squad_with_captain_and_librarian(ruleset)
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    used = brute(g.state, smite, lambda p: bool(kinds(list(p.log), "power_used")))
    assert used[True] == two_d6_at_most(8) == Fraction(26, 36)
    h = Game(g.state, ScriptedDice([]))
    (test, *_) = h.apply(smite, dice=ScriptedDice([4, 5]))
    assert test.kind == "psychic_test" and "Ld 8" in test.message and "failed" in test.message, test
    assert test.rules == (PSY_TEST[ruleset],), test.rules


# == 6. both editions: one power a turn across the phases; the record played back; the next turns ================

@EDITIONS
@pytest.mark.rule("40k3.psyker.test", "published.40k4-psychic-test", "40k3.psyker.as-shooting",
                  "published.40k4-psychic-shooting")
def test_one_power_a_turn_across_phases_record_undo_and_the_next_turn(ruleset: str) -> None:
    """The Librarian (joined to two Marines) Smites the Boyz in the Shooting phase (3 + 4, every shot missing): in the
    Assault phase Psychic Scream, at the Boyz he touches, is refused - one power a turn - citing his edition's test
    clause and not the other's; not offered. The record played back after the Smite: the same state, and the same
    refusal of Lightning Arc; the Smite undone there, it is offered again. Blue's turn: the turn's statuses are gone
    with red's turn. Red's next turn, saved and loaded: Smite is his again."""
    red = [gunners("tac", 20, 20, n=2), librarian("lib", 24, 20, joined="tac")]
    g = game(scenario(ruleset, red, [boyz_at(22, 30)], phase="shooting"))
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    g.apply(smite, dice=ScriptedDice([3, 4] + [1] * 4))
    assert len(g.state.unit("boyz").models) == 3
    replayed = Game.replay(g.to_data(record=True))
    assert replayed.state == g.state
    refusal = assert_illegal(replayed, {**smite, "power": "Lightning Arc"}, PSY_TEST[ruleset])
    assert "already used a psychic power this turn" in refusal.reason
    replayed.undo()
    assert ("lib", "Smite", "boyz") in offered(replayed, "manifest")
    g.apply({"do": "end_phase"})
    assert g.state.phase.value == "assault"
    scream = {**smite, "power": "Psychic Scream"}
    refused = assert_illegal(g, scream, PSY_TEST[ruleset])
    assert PSY_TEST["40k4" if ruleset == "40k3" else "40k3"] not in refused.rules
    assert not [p for p in offered(g, "manifest") if p[0] == "lib"]
    next_turn_to(g, "blue", "movement")
    assert not g.state.unit("lib").has(Status.USED_POWER)
    next_turn_to(g, "red", "shooting")
    loaded = saved_and_loaded(g)
    assert_legal(loaded, smite, PSY_TEST[ruleset], PSY_SHOOT[ruleset])
    assert ("lib", "Smite", "boyz") in offered(loaded, "manifest")


# == 7. both editions: a Captain and a Librarian left alone by their squad =========================================

@EDITIONS
@pytest.mark.rule("40k3.ic.join", "40k4.ic.no-character-units", "40k3.ic.no-last-man", "40k4.char.no-last-man",
                  "40k4.ic.join")
def test_two_characters_left_alone_by_their_squad_join_each_other_only_in_3rd_edition(ruleset: str) -> None:
    """Blue's lascannons shoot both Marines away (no save): the Captain and the Librarian are each a unit of their own,
    neither takes Last Man Standing (each edition's clause). Red's next Movement phase: 3rd edition lets an
    independent character join another (40k3.ic.join; judge round 42's reading); 4th edition refuses a unit of
    characters (40k4.ic.no-character-units), after a save and load too. Joined in 3rd edition and undone, he stands
    alone again. Alone, in the Shooting phase, he Smites the Boyz."""
    red = [{"id": "tac", "models": [armed("M1", 20, 20, "boltgun"), armed("M2", 22, 20, "boltgun")]},
           {**hero("cap", 24, 20, ld=10), "joined": "tac"}, librarian("lib", 20, 18, joined="tac")]
    las = {"id": "las", "models": [armed(f"L{i + 1}", 20 + 3 * i, 44, "lascannon") for i in range(2)]}
    g = game(scenario(ruleset, red, [las, boyz_at(22, 30)], phase="shooting", active="blue"))
    events = g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("tac").alive
    assert [g.state.unit(u).joined for u in ("cap", "lib")] == [None, None]
    spared = kinds(events, "last_man")
    assert len(spared) == 2 and all(NO_LAST_MAN[ruleset] in e.rules for e in spared), spared
    next_turn_to(g, "red", "movement")
    join = {"do": "join", "character": "lib", "unit": "cap", "to": [23, 20]}
    if ruleset == "40k3":
        assert_legal(g, join, "40k3.ic.join")
        start = g.state
        g.apply(join)
        assert g.state.unit("lib").joined == "cap"
        g.undo()
        assert g.state == start and g.state.unit("lib").joined is None
    else:
        for h in (g, saved_and_loaded(g)):
            refused = assert_illegal(h, join, "40k4.ic.no-character-units")
            assert "40k3.ic.join" not in refused.rules
    g.apply({"do": "end_phase"})
    assert_legal(g, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}, PSY_TEST[ruleset])


# == 8. both editions: legal_actions offers a power at exactly the targets check allows ============================

def psyker_facing(ruleset: str, boss_at: tuple[float, float], boyz_y: float, phase: str) -> Game:
    """Red's Librarian joined to two Marines at (20-24, 20); blue's Boyz at (``boyz_y``), a lone Warboss at
    ``boss_at`` and a Nob joined to the Boyz."""
    red = [gunners("tac", 20, 20, n=2), librarian("lib", 24, 20, joined="tac")]
    boyz = boyz_at(30, boyz_y)
    nob = {**hero("nob", 32, boyz_y + 1.5, ld=7), "joined": "boyz"}
    return game(scenario(ruleset, red, [boyz, nob, hero("boss", *boss_at, ld=9)], phase=phase))


@EDITIONS
@pytest.mark.parametrize("where", ["isolated", "near but closest"])
@pytest.mark.parametrize("phase", ["shooting", "assault"])
@pytest.mark.rule("40k3.psyker.as-shooting", "published.40k4-psychic-shooting", "40k3.ic.target",
                  "40k4.target.closest", "40k4.target.joined")
def test_legal_actions_offers_a_power_at_exactly_the_targets_check_allows(ruleset: str, where: str,
                                                                          phase: str) -> None:
    """Every (power, target) the Librarian's `check` allows is offered by `legal_actions`, and nothing else: the
    joined Nob never (a shot may not pick him out), the lone Warboss far from his Boyz always when in range, the
    Warboss near his Boyz only as the closest (within 12" in 3rd edition)."""
    g = psyker_facing(ruleset, (26, 26), 40 if where == "isolated" else 31, phase)
    allowed = set()
    for power in POWERS:
        for target in ("boyz", "nob", "boss"):
            if g.check({"do": "manifest", "psyker": "lib", "power": power, "target": target}).legal:
                allowed.add(("lib", power, target))
    assert offered(g, "manifest") == allowed
    assert not {a for a in allowed if a[2] == "nob"}
    expect_boss = {"shooting": {"Smite", "Lightning Arc", "Fear of the Darkness"}, "assault": {"Psychic Scream"}}
    assert {a[1] for a in allowed if a[2] == "boss"} == expect_boss[phase]
