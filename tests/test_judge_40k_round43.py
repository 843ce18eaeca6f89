"""A judge's cases for 40k 3rd and 4th edition, round 43: round 42's reading of seed 001 ("Characters are treated as a
separate unit when resolving close combats, following the normal rules for multiple combats") carried through a
combat in which a joined Captain and his squad fight different enemy units - whom each strikes and is struck by, how
the result is summed, who tests on the losing side and who sweeps on the winning side -; the Chaplain left when
Perils of the Warp slays the host Librarian of a 3rd edition pair; a shot at a unit beyond every weapon's range; and
sequences across phases and turns with an undo or a save and load between the steps and Game.legal_actions read at
each point.

Expected results are derived from the texts (seeds 000 and 001, the catalogue and the decisions of rules.yaml), not
read off the engine; the fractions are counted over the dice in the tests and checked against odds_of_action and
brute-force enumeration (every die a branch).

Found wrong (first written as xfail(strict=True) tests):
- 4th edition (40k4.cc.separate-unit, published.sweeping-advance): a squad whose own models touched only the beaten
  Boyz made no Sweeping Advance because its joined Captain touched other Boyz who held ("tac still has models engaged
  with units that are not falling back": they were his models, not the squad's). The Captain is a unit of his own in
  the close combat, and the rulebook holds a victor only by "models still engaged"; seed 001 locks him with his unit
  (40k4.cc.locked), not his unit with him. The Boyz fell back every time, where the squad catches them with
  175/576.
- 3rd edition (40k3.psyker.as-shooting, published.shooting, 40k3.ic.join): when Perils of the Warp slew the host
  Librarian of a pair (the power still used on a 2, at the Boyz), the Chaplain left could fire at the Orks and then
  assault them, though he was part of the unit whose shooting the power began; a squad whose joined Librarian Perils
  slew was already held to the power's target (session 28b). Round 42 left it ("the seed calls him a separate unit
  all along"); that sentence of seed 000 is given as the reason he takes no Last Man Standing test, and a unit's
  shooting picks one target (seed 000: psychic attacks follow the shooting rules, "не более одной цели").
- both editions (published.weapon-profiles): a model whose every weapon falls short of the target was told "has no
  weapon that can fire at boyz (26.0")" citing no rule.

Fixed (judge round 43), the xfail marks removed: ``CombatResultRules._sweepers`` (w40k_combat_result) holds a victor
by its own models, and a joined character by his unit's too, and words the hold after whose models hold it;
``_sweep_facts`` cites 40k4.cc.separate-unit when the unit of a joined character sweeps. ``_fired`` (w40k_psychic)
records the power's target for each character a slain host leaves behind, and ``Warhammer40k3.rule_shoot`` refuses
another target naming the slain unit (``_left_of``); published.assault-after-shooting then reads the same record.
``_no_fire_note`` (w40k_shooting) names the weapons and their ranges and cites published.weapon-profiles.

Decisions: published.sweeping-advance (amended: the unit of a joined character is held from its sweep only by its
own models, said so), 40k4.cc.separate-unit (amended: both of its readings affirmed where the squad and its Captain
fight different enemy units, and the squad's sweep), 40k3.psyker.as-shooting (extended: what is left of a pair whose
host Perils slew), published.shooting (stated: a target beyond every weapon's range stays legal). Book entries:
40k4-a-squad-sweeps-its-own-loser-while-its-captain-fights-on, 40k3-the-chaplain-left-by-perils-fires-at-the-powers-
target.

Considered and left:
- 4th edition, a joined Captain on the LOSING side of a multiple combat: he takes no Morale check of his own. Seed 001
  says of the unit he joined that "Any Leadership tests made by a unit joined by a character are made using the
  character's Leadership value, if it is superior", and "if a character is part of a unit that falls back, he may not
  leave the unit until it regroups": the combined unit tests once, on his Leadership, and falls back whole. The
  "separate unit" sentence is followed by what it means ("This means that they MUST be in base-to-base contact ...
  may not make attacks for being within 2" ... wounds suffered by a unit never carry over ... only the enemy models
  that are engaged with the character may allocate their attacks against it"): who fights and who is struck, not who
  tests. No Last Man Standing for him either (40k4.char.no-last-man). Asserted here with exact odds, then through a
  save and load into the next Movement phase, where he may not leave the squad (40k4.ic.falling-back).
- a shot at a unit that no model has in range stays legal (both editions): the seeds say nothing of picking a target
  out of range (seed 000 measures only for picking out an independent character, seed 001 nothing), and the
  rulebooks of both editions pick the target first and measure after, so a misjudged range wastes the unit's
  shooting (it has fired at that unit, published.assault-after-shooting). Game.legal_actions offers it, as it is
  legal. In 4th edition a target other than the closest calls for the Target Priority test first, and a failed test
  sends the fire at the closest (published.target-priority): the odds of firing a boltgun at all are those of
  failing it, 5/18, exact.
- the Captain's blows in the 4th edition multiple combat go only to the Boyz he touches, their excess lost rather
  than carried to the Boyz his squad fights (40k4.cc.engaged-only, published.combat-resolution's decision: wounds
  past a model's last Wound count for nothing), and only those Boyz strike him: asserted as it stands.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from herohammer import odds_of_action
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (BASE_25, EDITIONS, HERO, assert_illegal, assert_legal, brute, game, hero, kinds, messages, model,
                   next_turn_to, offered, saved_and_loaded, scenario, squad)

SWEEP = "published.sweeping-advance"
SEPARATE = "40k4.cc.separate-unit"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
MARINE_A0 = "WS4 BS4 S4 T4 W1 I4 A0 Ld8 Sv3+"
CAPTAIN_A0 = "WS5 BS5 S4 T4 W2 I5 A0 Ld10 Sv3+"
CAPTAIN_A1 = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv3+"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
BOY_A1 = "WS4 BS2 S3 T4 W1 I2 A1 Ld7 Sv-"
BOY_A0 = "WS4 BS2 S3 T4 W1 I2 A0 Ld{ld} Sv-"
LIBRARIAN_W1 = "WS5 BS5 S4 T4 W1 I5 A3 Ld9 Sv3+"
D6 = range(1, 7)
TOUCH = BASE_25 + 0.001  # centre to centre, two 25mm bases just touching


def touching(name: str, x: float, y: float, ld: int = 7, profile: str = ORK) -> dict[str, Any]:
    """Return a Boy whose base touches the model at (x, y) from below (y smaller)."""
    return model(name, x, y - TOUCH, ld, profile)


def split_combat(ruleset: str = "40k4", *, tac_profile: str = MARINE, cap_profile: str = HERO,
                 a: list[dict[str, Any]] | None = None, b: list[dict[str, Any]] | None = None,
                 a_rules: tuple[str, ...] = (), b_rules: tuple[str, ...] = ()) -> Game:
    """Red's Assault phase, all locked: Marines M1 (10, 20) and M2 (12, 20) with their Captain (14, 20) joined; blue's
    Boyz 'a' touch the squad only, Boyz 'b' the Captain only (by default a1 touches M1, b1 the Captain)."""
    locked = ["locked"]
    tac = {"id": "tac", "status": locked, "models": [model("M1", 10, 20, 8, tac_profile),
                                                      model("M2", 12, 20, 8, tac_profile)]}
    cap = {"id": "cap", "character": "independent", "joined": "tac", "status": locked,
           "models": [model("Cap", 14, 20, 10, cap_profile)]}
    boyz_a = {"id": "a", "status": locked, "rules": list(a_rules), "models": a or [touching("a1", 10, 20)]}
    boyz_b = {"id": "b", "status": locked, "rules": list(b_rules), "models": b or [touching("b1", 14, 20)]}
    return game(scenario(ruleset, [tac, cap], [boyz_a, boyz_b], phase="assault"))


FIGHT = {"do": "fight", "unit": "tac"}


# == 1. whom the Captain strikes and who strikes him when he and his squad fight different units (4th edition) ======
@pytest.mark.rule(SEPARATE, "40k4.cc.engaged-only", "40k4.cc.no-carry-over", "published.combat-resolution")
def test_40k4_the_captain_strikes_only_the_boyz_he_touches_and_his_excess_is_lost_not_carried_to_the_others() -> None:
    """Seed 001: "only the enemy models that are engaged with the character may allocate their attacks against it and
    can be hurt by its attacks". The Captain (A3) touches b1 alone: his three blows all hit and wound (6s), b1 (W1)
    is slain by the first and the other two find no model he is engaged with - not a1, whom his squad fights. The
    squad's two blows at a1 miss (1, 1); a1 strikes the squad alone (6, 6 to hit and wound; one save fails on a 1 and
    a Marine is slain, the other is made on a 6), never the Captain. The result is summed side by side over the one
    combat (the Captain's and the squad's Boyz are both blue): one wound each, a draw - no Morale check for anyone."""
    g = split_combat()
    start = g.state
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 6, 6, 1, 1, 6, 6, 6, 6, 1, 6]))
    attacks = messages(events, "attacks")
    assert attacks[0].startswith("Cap attacks b (3): 3 hits, 3 wounds"), attacks
    assert attacks[1].startswith("tac attacks a (2)") and attacks[2].startswith("a attacks tac (2)"), attacks
    assert not any(m.startswith("a attacks cap") for m in attacks)
    assert not g.state.unit("b").alive and [m.name for m in g.state.unit("a").models] == ["a1"]
    assert g.state.unit("cap").models[0].wounds_taken == 0 and len(g.state.unit("tac").models) == 1
    [result] = messages(events, "combat_result")
    assert "blue 1, red 1" in result and "draw" in result.lower(), result
    assert not kinds(events, "morale")
    g.undo()
    assert g.state == start


# == 2. the winning side: the squad sweeps its own loser while its Captain fights on (4th edition) ==================
def squad_beats_a_while_captain_holds_b() -> Game:
    """M1 and M2 (A1) each touch one Boy of 'a' (Ld 2, A0); the Captain (A0) touches b1 of the Fearless 'b' (A0)."""
    return split_combat(cap_profile=CAPTAIN_A0,
                        a=[touching("a1", 10, 20, 2, BOY_A0.format(ld=2)),
                           touching("a2", 12, 20, 2, BOY_A0.format(ld=2))],
                        b=[touching("b1", 14, 20, 7, BOY_A0.format(ld=7))], b_rules=("Fearless",))


@pytest.mark.rule(SWEEP, SEPARATE, "40k4.cc.locked", "published.fearless")
def test_40k4_the_squad_sweeps_the_boyz_it_beat_though_its_captain_still_fights_others() -> None:
    """The squad's blows: 6 and 1 to hit, 6 to wound: a1 slain, red wins by 1. 'a' tests on Ld 2 - 1 and fails (3 + 3);
    the Fearless 'b' holds. 'a' touches the squad only: the squad is the victor, a unit of its own in this close
    combat as its Captain is (seed 001: "following the normal rules for multiple combats"), and none of its models is
    "still engaged in combat with other units which are not falling back" - b1 touches the Captain alone. So the squad
    sweeps on its own I4: 'a' rolls 1 (3), the squad 6 (10): caught and destroyed. The Captain stays locked with 'b',
    and the squad with him (it keeps coherency with him, no consolidation). Exact odds: one Marine of two slays a Boy
    (2 x 1/4 x 3/4 = 3/8; both would destroy 'a' outright), 'a' fails (all but a double 1: 35/36), and the squad's
    4 + D6 reaches 2 + D6 (30/36): 175/576."""
    g = squad_beats_a_while_captain_holds_b()
    start = g.state
    events = g.apply(FIGHT, dice=ScriptedDice([6, 1, 6, 3, 3, 1, 6]))
    [sweep] = kinds(events, "sweeping_advance")
    assert sweep.message.startswith("tac makes a sweeping advance against a: 4 + 6 = 10 against 2 + 1 = 3"), sweep
    assert "caught and destroyed" in sweep.message and SEPARATE in sweep.rules
    assert not g.state.unit("a").alive and g.state.unit("b").alive
    assert g.state.unit("cap").has(Status.LOCKED) and g.state.unit("tac").has(Status.LOCKED)
    assert not g.state.unit("tac").has(Status.MAY_CONSOLIDATE) and not offered(g, "consolidate")
    g.undo()
    assert g.state == start
    ways = 0
    for h1, h2, w1, w2, m1, m2, fled, swept in itertools.product(D6, repeat=8):
        kills = (h1 >= 4 and w1 >= 4) + (h2 >= 4 and w2 >= 4)
        ways += kills == 1 and (m1, m2) != (1, 1) and 4 + swept >= 2 + fled
    expected = Fraction(ways, 6 ** 8)
    assert expected == Fraction(3, 8) * Fraction(35, 36) * Fraction(5, 6) == Fraction(175, 576)
    assert odds_of_action(start, FIGHT).rows()["sweeping_advance.outcome: caught"].p == expected
    caught = brute(start, FIGHT, lambda p: not p.state.unit("a").alive and p.state.unit("a").has(Status.FALLING_BACK))
    assert caught[True] == expected  # destroyed after its failed check, not slain to the last Boy by the blows


@pytest.mark.rule(SWEEP, "40k4.cc.locked", SEPARATE)
def test_40k4_a_captain_who_beat_his_boyz_is_held_while_his_squad_fights_boyz_that_hold() -> None:
    """The mirror: the Captain (A1) touches a1 and a2 of 'a' (Ld 2), the squad (A0) touches the Fearless 'b'. His hit
    and wound (6, 6) slay a1; 'a' fails (3 + 3). "If the unit they have joined is locked in combat with the enemy, the
    character is locked with them" (seed 001): the squad is still engaged with 'b', which holds, so he may not sweep
    and 'a' just falls back (published.sweeping-advance: "the victors do not get a chance to sweeping advance"). The
    event says whose models hold him."""
    g = split_combat(tac_profile=MARINE_A0, cap_profile=CAPTAIN_A1,
                     a=[touching("a1", 14, 20, 2, BOY_A0.format(ld=2)),
                        model("a2", 14 + TOUCH, 20, 2, BOY_A0.format(ld=2))],
                     b=[touching("b1", 10, 20, 7, BOY_A0.format(ld=7))], b_rules=("Fearless",))
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 3, 3] + [3] * 4))
    [sweep] = kinds(events, "sweeping_advance")
    assert "no sweeping advance against a" in sweep.message, sweep.message
    assert "cap is locked with tac, which still has models engaged" in sweep.message, sweep.message
    assert g.state.unit("a").has(Status.FALLING_BACK) and len(g.state.unit("a").models) == 1


# == 3. the losing side: one Morale check, on the Captain's Leadership, and one fall back (4th edition) =============
def squad_and_captain_lose() -> Game:
    """Red makes no attacks (A0); a1 (A1) touches M1 and b1 (A1) the Captain; both Boyz units have No Sweeping
    Advance, so a failed check falls back with no Initiative roll-off."""
    return split_combat(tac_profile=MARINE_A0, cap_profile=CAPTAIN_A0,
                        a=[touching("a1", 10, 20, 7, BOY_A1)], b=[touching("b1", 14, 20, 7, BOY_A1)],
                        a_rules=("No Sweeping Advance",), b_rules=("No Sweeping Advance",))


def falls_back(margin_faces: tuple[int, ...]) -> bool:
    """Say whether red falls back on these dice: a1's hit (4+), wound (S3 against T4: 5+) and M1's save (3+), then
    b1's on the Captain (WS4 against WS5: 4+), then 2D6 against Ld 10 minus the margin (a double 1 always passes)."""
    h1, w1, s1, h2, w2, s2, d1, d2 = margin_faces
    margin = (h1 >= 4 and w1 >= 5 and s1 < 3) + (h2 >= 4 and w2 >= 5 and s2 < 3)
    return margin > 0 and (d1, d2) != (1, 1) and d1 + d2 > 10 - margin


@pytest.mark.rule("40k4.char.leadership", "40k4.ic.falling-back", SEPARATE, "published.combat-resolution",
                  "40k4.char.no-last-man")
def test_40k4_a_squad_and_its_captain_beaten_by_two_units_test_once_on_his_leadership_and_fall_back_together() -> None:
    """Both Boyz strike home (6, 6, and the saves fail on 1): M1 slain, the Captain wounded: red loses by 2, summed
    over both blue units. Seed 001: "Any Leadership tests made by a unit joined by a character are made using the
    character's Leadership value, if it is superior" - one check for the squad with him, on his Ld 10 - 2 (5 + 5
    fails), not a check of his own as a separate unit; and "if a character is part of a unit that falls back, he may
    not leave the unit until it regroups": he falls back with it. Exact odds counted over the eight dice (the
    Boyz' strikes, then the check), against brute force."""
    g = squad_and_captain_lose()
    start = g.state
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 1, 6, 6, 1, 5, 5] + [3] * 4))
    [result] = messages(events, "combat_result")
    assert "blue 2, red 0" in result and "red loses by 2" in result, result
    morale = kinds(events, "morale")
    assert len(morale) == 1 and morale[0].message.startswith("tac lost the combat by 2: Morale check on Ld 10 -2 (Cap)")
    assert "40k4.char.leadership" in morale[0].rules or "core.test.leadership-choice" in morale[0].rules, morale[0]
    assert g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.FALLING_BACK)
    assert g.state.unit("cap").joined == "tac"
    g.undo()
    assert g.state == start
    expected = Fraction(sum(map(falls_back, itertools.product(D6, repeat=8))), 6 ** 8)
    assert brute(start, FIGHT, lambda p: p.state.unit("tac").has(Status.FALLING_BACK)) == {True: expected,
                                                                                          False: 1 - expected}


@pytest.mark.rule("40k4.ic.falling-back", "published.regroup")
def test_40k4_the_captain_fallen_back_with_his_squad_may_not_leave_it_next_turn_through_a_save_and_load() -> None:
    """Case 3's fall back, then the game saved and loaded and played on to red's next Movement phase: the squad is
    still falling back (it has not regrouped yet), so the Captain may not leave it ("he/she/it must wait until the
    unit has regrouped", 40k4.ic.falling-back), and Game.legal_actions offers him no leave."""
    g = squad_and_captain_lose()
    g.apply(FIGHT, dice=ScriptedDice([6, 6, 1, 6, 6, 1, 5, 5] + [3] * 4))
    h = saved_and_loaded(g)
    assert h.state == g.state and h.state.unit("cap").has(Status.FALLING_BACK)
    next_turn_to(h, "red", "movement")
    assert h.state.unit("tac").has(Status.FALLING_BACK) and h.state.unit("cap").joined == "tac"
    cap_at = h.state.unit("cap").models[0].at
    assert_illegal(h, {"do": "leave", "character": "cap", "to": [cap_at[0] + 4, cap_at[1]]}, "40k4.ic.falling-back")
    assert not offered(h, "leave")


# == 4. 3rd edition: the Chaplain left when Perils slays the pair's host Librarian =================================
def pair_with_librarian_host(joined: bool = True, phase: str = "shooting", chap_x: float = 22) -> Game:
    """Red's Shooting phase: a lone Librarian (Ld 9, W1, psyker, host) with a Chaplain (a bolt pistol) joined to him
    (``joined``; else beside him, a unit of his own, at ``chap_x``); blue's Boyz 5" off in front and blue's Orks 5"
    behind, both in sight and within an assault move."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 20, 20, 9, LIBRARIAN_W1)]}
    chap = {**hero("chap", chap_x, 20, **({"joined": "lib"} if joined else {})),
            "models": [{**model("Chap", chap_x, 20, 10, HERO), "weapons": ["bolt pistol"]}]}
    boyz = {"id": "boyz", "models": [model(f"b{i}", 20 + 2 * i, 26, 7, ORK) for i in range(3)]}
    orks = {"id": "orks", "models": [model(f"o{i}", 20 + 2 * i, 14, 7, ORK) for i in range(3)]}
    return game(scenario("40k3", [lib, chap], [boyz, orks], phase=phase))


SMITE_BOYZ = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
PERILS_ON_TWO = [1, 1, 4, 5, 1, 1, 1, 1]  # the test 1 + 1, Perils S4 wounds on 5; Smite's four shots miss


@pytest.mark.rule("40k3.psyker.as-shooting", "40k3.psyker.perils-on-2", "published.shooting", "40k3.ic.join")
def test_40k3_the_chaplain_left_by_perils_fires_only_at_the_target_of_the_power_that_began_his_units_shooting(
) -> None:
    """Perils slays the Librarian on a 2, and his Smite is still used at the Boyz (40k3.psyker.perils-on-2): the
    shooting of his unit - he and the Chaplain - began at the Boyz, and a unit picks one target (seed 000: psychic
    attacks follow the shooting rules, "не более одной цели"; published.shooting). The Chaplain is what is left of
    that unit, as a squad is what is left of its unit when its Librarian dies so (held to the Boyz since session
    28b): he may fire at the Boyz, not at the Orks, and legal_actions offers exactly that. Saved and loaded, the same;
    the undo of the power frees both targets again."""
    g = pair_with_librarian_host()
    start = g.state
    g.apply(SMITE_BOYZ, dice=ScriptedDice(list(PERILS_ON_TWO)))
    assert not g.state.unit("lib").alive and not g.state.unit("chap").joined
    for h in (g, saved_and_loaded(g)):
        refused = assert_illegal(h, {"do": "shoot", "unit": "chap", "target": "orks"}, "published.shooting")
        assert "40k3.ic.join" in refused.rules and "boyz" in refused.reason and "lib" in refused.reason, refused
        assert_legal(h, {"do": "shoot", "unit": "chap", "target": "boyz"}, "published.line-of-sight")
        assert offered(h, "shoot") == {("chap", "boyz")}
    g.undo()
    assert g.state == start
    assert {("lib", "Smite", "boyz"), ("lib", "Smite", "orks")} <= offered(g, "manifest")


@pytest.mark.rule("published.assault-after-shooting", "40k3.psyker.as-shooting", "40k3.ic.assault-alone")
def test_40k3_the_chaplain_left_by_perils_may_assault_only_the_boyz_his_units_power_was_aimed_at() -> None:
    """The same Perils; the Chaplain holds his fire and the phase ends. His unit fired in the Shooting phase - the
    power was its shooting, at the Boyz (published.assault-after-shooting's decision: a psychic shooting attack names
    the unit's target as a volley does) - and "may only declare a Charge against the unit it shot at": he assaults
    the Boyz, 5" off, not the Orks, 5" off too; legal_actions offers the Boyz alone."""
    g = pair_with_librarian_host()
    g.apply(SMITE_BOYZ, dice=ScriptedDice(list(PERILS_ON_TWO)))
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert g.state.phase.value == "assault"
    assert_illegal(g, {"do": "assault", "unit": "chap", "target": "orks"}, "published.assault-after-shooting")
    assert_legal(g, {"do": "assault", "unit": "chap", "target": "boyz"})
    assert offered(g, "assault") == {("chap", "boyz")}


@pytest.mark.rule("40k3.psyker.as-shooting", "40k3.psyker.perils-on-2", "published.shooting")
def test_40k3_without_perils_the_pair_fires_on_at_the_powers_target_and_a_chaplain_never_joined_is_not_bound(
) -> None:
    """Control: the test passes (4 + 4) and Smite misses: the Chaplain, still joined, fires with his host's unit at
    the Boyz only (round 42). A Chaplain standing beside the Librarian as a unit of his own (never joined) is bound by
    nothing when Perils slays the Librarian: he may fire at the Orks."""
    g = pair_with_librarian_host()
    g.apply(SMITE_BOYZ, dice=ScriptedDice([4, 4, 1, 1, 1, 1]))
    assert offered(g, "shoot") == {("lib", "boyz")}
    apart = pair_with_librarian_host(joined=False)
    apart.apply(SMITE_BOYZ, dice=ScriptedDice(list(PERILS_ON_TWO)))
    assert_legal(apart, {"do": "shoot", "unit": "chap", "target": "orks"}, "published.line-of-sight")
    assert {("chap", "boyz"), ("chap", "orks")} <= offered(apart, "shoot")


# == 5. a shot at a unit beyond every weapon's range ==============================================================
def boltguns_and_far_boyz(ruleset: str) -> Game:
    """Red's Shooting phase: three Marines with boltguns (24") and their joined Captain with a bolt pistol (12");
    blue's Boyz 26" off (edge to edge) and its Grots 9" off (the closest)."""
    tac = {**squad("tac", 20, 20), "models": [{**m, "weapons": ["boltgun"]} for m in squad("tac", 20, 20)["models"]]}
    cap = {**hero("cap", 22, 18.5, joined="tac"), "models": [{**model("Cap", 22, 18.5, 10, HERO),
                                                              "weapons": ["bolt pistol"]}]}
    return game(scenario(ruleset, [tac, cap], [squad("boyz", 20, 47), squad("grots", 20, 30)], phase="shooting"))


AT_BOYZ = {"do": "shoot", "unit": "tac", "target": "boyz"}


@pytest.mark.rule("published.shooting", "published.weapon-profiles", "published.assault-after-shooting")
@EDITIONS
def test_a_shot_at_a_unit_beyond_every_range_is_legal_spends_the_shooting_and_says_why_citing_the_rule(
        ruleset: str) -> None:
    """The seeds say nothing of choosing a target out of range, and the rulebooks choose the target before measuring:
    the shot is legal, and offered. 3rd edition (no Target Priority): each Marine has a boltgun of 24" and the Boyz
    stand 26" off, the Captain's bolt pistol reaches 12": none fires, each told so citing published.weapon-profiles
    with the range. The unit has fired at the
    Boyz: its Captain may not fire at the Grots now (he fires with it), and its assault may go only at the Boyz."""
    g = boltguns_and_far_boyz(ruleset)
    assert ("tac", "boyz") in offered(g, "shoot")
    if ruleset == "40k4":  # the Grots are closer: the Target Priority test, passed (3 + 3), keeps the Boyz
        events = g.apply(AT_BOYZ, dice=ScriptedDice([3, 3]))
    else:
        events = g.apply(AT_BOYZ, dice=ScriptedDice([]))
    notes = [e for e in events if e.kind == "note" and "boyz" in e.message]
    assert len(notes) == 4 and all("boltgun 24\"" in e.message for e in notes[:3]), notes
    assert "bolt pistol 12\"" in notes[3].message, notes
    assert all(e.rules == ("published.weapon-profiles",) for e in notes), notes
    assert not kinds(events, "shots")
    assert_illegal(g, {"do": "shoot", "unit": "cap", "target": "grots"}, "published.shooting")
    assert [a.do for a in g.legal_actions()] == ["end_phase"]


@pytest.mark.rule("published.target-priority", "published.assault-after-firing")
def test_40k4_a_shot_declared_out_of_range_fires_only_when_the_target_priority_test_fails_exact_odds() -> None:
    """4th edition: the Boyz are not the closest, so the squad first tests on its Captain's Ld 10 (40k4.char.leadership,
    his being superior); failing it (2D6 above 10: 3/36) it fires at the Grots instead, in range, and its Rapid Fire
    boltguns then bar its assault (published.assault-after-firing); passing, it fires at the Boyz, out of range,
    fires nothing and is not barred. So the odds of the bar are exactly 3/36 = 1/12, against brute force."""
    g = boltguns_and_far_boyz("40k4")
    start = g.state
    expected = Fraction(sum(a + b > 10 for a, b in itertools.product(D6, repeat=2)), 36)
    assert expected == Fraction(1, 12)
    assert odds_of_action(start, AT_BOYZ).rows()["tac: fired_no_assault"].p == expected
    assert brute(start, AT_BOYZ, lambda p: p.state.unit("tac").has(Status.FIRED_NO_ASSAULT))[True] == expected


# == 6. sequences across phases and turns =========================================================================
@pytest.mark.rule("40k3.ic.join", "40k3.psyker.as-shooting", "40k3.psyker.perils-on-2", "published.shooting",
                  "published.assault-after-shooting")
def test_40k3_the_chaplain_joins_the_librarian_perils_slays_him_and_the_chaplain_stays_bound_after_an_undo_and_a_load(
) -> None:
    """Red's Movement phase: the Chaplain stands 5" from the lone Librarian and joins him (40k3.ic.join: a unit of two
    independent characters, its host the Librarian). Shooting phase: legal_actions offers Smite at both Boyz and Orks
    and the pair's volley at both. Smite at the Orks, Perils on a 2: the Librarian is slain, the power still used at
    the Orks; the Chaplain left is bound to them. The power undone and used again at the Boyz (4 + 4, no Perils): the
    Chaplain, still joined, fires with his host's unit at the Boyz only; saved and loaded before the phase ends, the
    same; in the Assault phase the pair may assault only the Boyz."""
    g = pair_with_librarian_host(joined=False, phase="movement", chap_x=25)
    join = {"do": "join", "character": "chap", "unit": "lib", "to": [22, 20]}
    assert_legal(g, join, "40k3.ic.join")
    g.apply(join)
    assert g.state.unit("chap").joined == "lib"
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert g.state.phase.value == "shooting"
    assert {("lib", "Smite", "boyz"), ("lib", "Smite", "orks")} <= offered(g, "manifest")
    assert {("lib", "boyz"), ("lib", "orks")} <= offered(g, "shoot")
    before_power = g.state
    g.apply({**SMITE_BOYZ, "target": "orks"}, dice=ScriptedDice(list(PERILS_ON_TWO)))
    assert not g.state.unit("lib").alive
    assert offered(g, "shoot") == {("chap", "orks")}
    assert_illegal(g, {"do": "shoot", "unit": "chap", "target": "boyz"}, "published.shooting")
    g.undo()
    assert g.state == before_power
    g.apply(SMITE_BOYZ, dice=ScriptedDice([4, 4, 1, 1, 1, 1]))
    h = saved_and_loaded(g)
    for k in (g, h):
        assert offered(k, "shoot") == {("lib", "boyz")}
        assert_illegal(k, {"do": "shoot", "unit": "lib", "target": "orks"}, "published.shooting")
    h.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert_illegal(h, {"do": "assault", "unit": "lib", "target": "orks"}, "published.assault-after-shooting")
    assert offered(h, "assault") == {("lib", "boyz")}


@pytest.mark.rule(SWEEP, "40k4.cc.locked", "40k4.ic.movement-phase-only", SEPARATE)
def test_40k4_after_the_squads_sweep_the_captain_fights_on_and_his_squad_with_him_into_the_next_turn() -> None:
    """Case 2's sweep (the Boyz 'a' caught), then saved and loaded and played on: in blue's turn and red's next
    Movement phase (blue's Assault phase fought, the Marines' blows missing) the squad and its Captain are still
    locked with 'b' (he is locked with it, and it keeps its
    coherency with him), so the Captain may not leave (40k4.ic.movement-phase-only: "once assaults are launched it
    is too late to join in or duck out") and legal_actions offers neither a move nor a leave of theirs; in red's
    Assault phase the combat with 'b' is offered to be fought again."""
    g = squad_beats_a_while_captain_holds_b()
    g.apply(FIGHT, dice=ScriptedDice([6, 1, 6, 3, 3, 1, 6]))
    assert not g.state.unit("a").alive
    h = saved_and_loaded(g)
    next_turn_to(h, "blue", "assault")
    h.apply({"do": "fight", "unit": "b"}, dice=ScriptedDice([1] * 4))  # the Marines' two blows miss: a draw
    next_turn_to(h, "red", "movement")
    assert h.state.unit("tac").has(Status.LOCKED) and h.state.unit("cap").has(Status.LOCKED)
    cap_at = h.state.unit("cap").models[0].at
    assert_illegal(h, {"do": "leave", "character": "cap", "to": [cap_at[0], cap_at[1] + 4]},
                   "40k4.ic.movement-phase-only")
    assert not offered(h, "leave") and not any(u in ("tac", "cap") for u, *_ in offered(h, "move"))
    next_turn_to(h, "red", "assault")
    assert ("tac",) in offered(h, "fight")
