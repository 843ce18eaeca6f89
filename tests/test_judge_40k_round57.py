"""A judge's cases for 40k 3rd and 4th edition, round 57: which clause decides a squad's Leadership when its Captain's
is not higher (4th edition) or is a '-' (3rd edition); the words that release a unit its foes' Pile In tests left
with no enemy; a squad shot away around its Captain, his Morale and the turn after; a character's split Attacks, a
squad's characteristic test with him, and a join by a plain move.

Expected results are derived from the texts (seeds 000, 001 and 004, the catalogue and the decisions of
rules.yaml), not read off the engine; the fractions are counted over the dice by hand (2D6) and checked against
brute-force enumeration (every die a branch), and once against `herohammer odds action`.

Cases:
1. 4th edition: a squad (Ld 8) joined by a Captain of Ld 7 or 8 tests on its own 8, citing 40k4.char.leadership (the
   clause that leaves it its own value) with core.test.leadership-choice; a Captain of Ld 9 lends his 9 (exact);
2. both editions: the squad joined by a Captain whose Ld is '-': 3rd edition tests on 0 (never passes), citing
   40k3.char.leadership and core.profile.dash; once he leaves (undone) on its 8; 4th edition keeps its 8, citing
   the character clause (exact, odds action);
3. both editions: a lone Marine slain by his Pile In's test: the Boyz, who never moved, are released in words that
   say their foes are gone, not that they piled in and touch no one (the game's record played back);
4. both editions: a squad shot away around its Captain: he takes no Morale check, each edition citing its own
   clause; saved and loaded, next turn he joins another squad, whose test is then on his Ld 10 (exact);
5. both editions: a Marine shot out of a squad of two with its Captain: two models left, no Last Man Standing; the
   Morale check on his Ld 10, no -1 in 4th edition; failed, he falls back with it and may not leave it next turn
   (exact 5/108; saved and loaded; undone);
6. both editions: a lone Captain splits his Attacks between the two Boyz he touches; one on a Boy behind is refused
   (exact, the merged enumeration told it reads the log; saved and loaded between the split and the fight);
7. both editions: a squad's Strength test before and after its Captain joins: the highest used value, modifiers in
   their order, the unmodified value (exact; saved and loaded; the join undone);
8. both editions: a Captain who moves to within 2" of a squad without declaring a join joins it in 3rd edition
   only; 4th edition's declared join next turn (exact; undone; saved and loaded).

Found wrong (each first written as an xfail(strict=True) test, commit d05acdf5):
- 4th edition (40k4.char.leadership): a squad whose joined Captain's Leadership is not higher than its own (7 or 8
  against 8, or a '-') tested on its own value citing only core.test.leadership-choice, as if no character had
  joined (left open by rounds 34 and 56). Seed 001's clause decides both ways ("if it is superior"; rules.yaml:
  "otherwise it uses its own"), so it is cited both ways. Cases 1 and 2.
- both editions (published.pile-in): a unit whose foes the Pile In's Dangerous Terrain tests slew was told it "is in
  base contact with no enemy after the Pile In" though it never moved (left open by round 56). Case 3.

Fixed (judge round 57), the xfail marks removed:
- ``Warhammer40k4.unit_leadership`` (commit e1f7b193): where a character joined and his value is not higher, the
  shared rule's ruling (core.test.leadership-choice: the highest by default, a player's choice among the unit's
  values as rounds 21b and 31 read it) carries 40k4.char.leadership too; every test, Morale check and Target
  Priority test of such a unit cites it. Two earlier assertions of the old citation (judge 40k round 40, core round
  39) changed to the clause's reading.
- ``_pile_in_ended`` (w40k_combat_result; commit eef630f5): a unit whose foes in the Pile In are all slain or
  falling back "has no enemy left in its close combat (the Pile In's Dangerous Terrain tests slew its foes or left
  them falling back)"; one that piled in and reached no one keeps the old words. The book entry
  40k4-a-marine-slain-by-his-pile-in-test-is-no-one-to-pile-in-towards and round 56's case 8 reworded.

Decisions: 40k4.char.leadership (new: the clause cited both ways); published.pile-in (amended: the release's two
wordings); 40k4.char.no-last-man (amended, left open by round 56): re-read against seed 000/001 and the published
Morale page, the reading is kept - a squad shot away around its Captain leaves him no Morale check (the destroyed
unit's check, which no one takes; seed 000: "he already counts as a separate unit"), while in close combat he is a
unit of the combat himself (40k4.cc.separate-unit) and takes the loser's check. The texts do not say whether the
survivor inherits the shooting check: stated, not changed.

Checked, as it stands (passed as first written, save the slips below): cases 4 to 8 - the morale_spared event cites
each edition's clause and not the other's; a squad of a Marine and its Captain takes no Last Man Standing and its
Morale check is on his Ld 10 (4th edition: one Marine of two is not below half, no -1); a character's split is
accepted on models he touches and refused on a Boy behind (40k3.char.allocation-b2b-only, 40k4.cc.engaged-only)
or over his Attacks; the squad's Strength test takes the highest used value (x2 before -3: his 7), a 6 always
fails, and the unmodified value refuses modifiers; a plain move to within 2" joins in 3rd edition only.

My slips, corrected before commit (not the engine's): a join 7.9" long; a second squad nearer the lascannon, so 4th
edition's Target Priority test took the first faces; a fall back's 2D6 not scripted; reading the log under the
merged enumeration without ``event_view`` (dice.loop keeps one representative log for merged carries, as it says:
in 4th edition, where the Captain's Sweeping Advance may destroy the Boyz, which Boy his blows slew was mixed up;
told the view, it equals the die-by-die count).

Considered and left:
- the merged enumeration reads a caller's log only through ``event_view``; a caller that reads the log without it
  gets representative logs silently (documented in dice.loop, not guarded). Not changed.
- 4th edition still lets the player choose the Captain's lower Leadership for the squad's test (core.test.leadership-
  choice's reading, rounds 21b and 31), though rules.yaml's statement of 40k4.char.leadership says the unit "uses its
  own"; the choice is the player's and stated in the decision, not changed.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_to_data
from herohammer.units import Status

from _cli import run
from _w40k import (pass_odds, two_d6_at_most, CHAR_LD, EDITIONS, assert_illegal, assert_legal, brute, game, hero, kinds, model, next_turn_to,
                   saved_and_loaded, scenario, squad)

TOUCH = 25 / 25.4  # two 25mm bases this far apart, centre to centre, touch
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv-"
HARMLESS = "WS4 BS2 S3 T4 W1 I2 A0 Ld{ld} Sv-"  # no Attacks (core.zero.a)
TEST = {"do": "test", "unit": "tac", "characteristic": "Ld"}
FIGHT_CAP = {"do": "fight", "unit": "cap"}


def squad_with_captain(ruleset: str, cap: dict[str, Any]) -> Game:
    """Red's Movement phase: ``tac`` (two Marines, Ld 8) at (20, 20) and (22, 20), joined by ``cap`` at (22, 18.5)."""
    return game(scenario(ruleset, [squad("tac", 20, 20, n=2), {**cap, "joined": "tac"}]))


# == 1. 4th edition: a Captain whose Leadership is not higher than his squad's ======================================

@pytest.mark.rule("40k4.char.leadership", "core.test.leadership-choice", "core.test.leadership",
                  "core.test.leadership-kinds")
@pytest.mark.parametrize("cap_ld", [7, 8, 9])
def test_40k4_a_squad_whose_captain_is_not_higher_tests_on_its_own_leadership_by_the_character_clause(
        cap_ld: int) -> None:
    """Seed 001: "Any Leadership tests made by a unit joined by a character are made using the character's Leadership
    value, if it is superior to the unit's" (40k4.char.leadership; rules.yaml: "otherwise it uses its own"). The
    clause decides both ways: a Captain of Ld 9 lends his 9; one of 7 or 8 is not superior, and the clause leaves
    the squad its own 8 - the value the ruling must name it by, with the shared rule that picks among the values
    in the unit (core.test.leadership-choice, its default the highest). Before, only the shared rule was cited, as
    if no character had joined. The Morale check (a named Leadership test, core.test.leadership-kinds) cites the
    same. Exact: 26/36 on Ld 8, 30/36 on Ld 9, against brute force."""
    g = squad_with_captain("40k4", hero("cap", 22, 18.5, ld=cap_ld))
    used = max(cap_ld, 8)
    ruling = g.check(TEST)
    assert ruling.legal and f"Ld {used} " in ruling.reason, ruling
    assert "40k4.char.leadership" in ruling.rules, ruling.rules
    if cap_ld <= 8:
        assert "core.test.leadership-choice" in ruling.rules and "(tac 1)" in ruling.reason
    else:
        assert "(Cap)" in ruling.reason
    morale = g.check({**TEST, "kind": "Morale"})
    assert morale.legal and "40k4.char.leadership" in morale.rules, morale
    assert pass_odds(g, TEST) == two_d6_at_most(used)
    # a value the clauses do not allow is refused, naming the one that refuses it; nothing changes
    refusing = "40k4.char.leadership" if cap_ld > 8 else "core.test.leadership-choice"
    assert_illegal(g, {**TEST, "leadership": 6}, refusing)


# == 2. 3rd edition: a Captain whose Leadership is '-' ===============================================================

DASHED = "WS5 BS5 S4 T4 W2 I5 A3 Ld- Sv3+"
LEAVE = {"do": "leave", "character": "cap", "to": [22, 14]}


@pytest.mark.rule("40k3.char.leadership", "40k4.char.leadership", "core.profile.dash", "40k3.ic.leave",
                  "core.test.leadership-choice")
@EDITIONS
def test_a_squad_joined_by_a_captain_whose_leadership_is_a_dash(ruleset: str, tmp_path: Any, capsys: Any) -> None:
    """A '-' is the value 0 (core.profile.dash). 3rd edition: "all Leadership tests of the unit are taken on his
    Leadership" (seed 000, 40k3.char.leadership; its decision: even where it is lower), so the squad tests on 0 and
    never passes (2D6 is at least 2), the ruling citing both clauses; once he leaves it (40k3.ic.leave) it tests on
    its own 8 (26/36); undone, on 0 again. 4th edition: his 0 is not superior, the squad keeps its 8
    (40k4.char.leadership). Exact against brute force, and 4th edition's by `herohammer odds action`."""
    cap = {**hero("cap", 22, 18.5), "models": [{**model("Cap", 22, 18.5), "profile": DASHED}]}
    g = squad_with_captain(ruleset, cap)
    ruling = g.check(TEST)
    assert ruling.legal, ruling
    assert CHAR_LD[ruleset] in ruling.rules
    if ruleset == "40k3":
        assert "Ld 0 (Cap, whose Ld is '-': the value 0)" in ruling.reason
        assert "core.profile.dash" in ruling.rules
        assert pass_odds(g, TEST) == 0
        start = g.state
        g.apply(LEAVE)
        assert g.state.unit("cap").joined is None
        assert_legal(g, TEST, "core.test.leadership")
        assert "Ld 8 (tac 1)" in g.check(TEST).reason and pass_odds(g, TEST) == two_d6_at_most(8)
        g.undo()
        assert g.state == start and pass_odds(g, TEST) == 0
    else:
        assert "Ld 8 (tac 1)" in ruling.reason and "core.profile.dash" not in ruling.rules
        assert pass_odds(g, TEST) == two_d6_at_most(8)
        path = tmp_path / "dash.json"
        path.write_text(json.dumps(state_to_data(g.state)))
        code, out, _ = run(["odds", "action", str(path), "--action", json.dumps(TEST), "--json"], capsys)
        assert code == 0, out
        assert "26/36" in out or "13/18" in out, out


# == 3. both editions: the Boyz released when their foe's Pile In test slew him ======================================

PILE_MINES = [{"id": "mine", "kind": "dangerous", "polygon": [[15, 22.5], [25, 22.5], [25, 24], [15, 24]]}]
B2_AT = (20.0, 31.0)
#: Scripted: M1's hit and wound (6, 6), the mob's checks (3 and 3 each), then M1's Dangerous Terrain test a 1.
SLAIN_PILING_IN = {"40k4": [6, 6, 3, 3, 1], "40k3": [6, 6, 3, 3, 3, 3, 1]}


@pytest.mark.rule("published.pile-in", "published.dangerous-terrain", "published.close-combat")
@EDITIONS
def test_boyz_whose_foe_his_own_pile_in_test_slew_are_released_in_words_that_say_so(ruleset: str) -> None:
    """Round 56's case 1 (left open there): M1 slays b1 and the mob holds; M1 piles in first (the active side,
    published.pile-in) across a minefield and his test (published.dangerous-terrain) slays him. The Boyz never
    move - they have no enemy left to pile in towards - and are released (published.close-combat). The release
    said "boyz is in base contact with no enemy after the Pile In", the words for a unit that piled in and reached
    no one; they must say what happened: no enemy of its close combat is left. A unit that did pile in and touches
    no one keeps the old words (tests/test_40k_pile_in.py). Played back from the game's record, the same log."""
    tac = {"id": "tac", "status": ["locked"], "models": [model("M1", 20, 20, 8)]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20 + TOUCH, 20, 7, HARMLESS), model("b2", *B2_AT, 7, ORK)]}
    g = game(scenario(ruleset, [tac], [boyz, squad("far", 60, 45)], phase="assault", terrain=PILE_MINES))
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice(SLAIN_PILING_IN[ruleset]))
    assert not g.state.unit("tac").alive and not g.state.unit("boyz").has(Status.LOCKED)
    released = [e for e in kinds(events, "pile_in") if e.message.startswith("boyz")]
    assert len(released) == 1, [e.message for e in kinds(events, "pile_in")]
    [said] = released
    assert "base contact with no enemy after the Pile In" not in said.message, said.message
    assert "no enemy left in its close combat" in said.message and "no longer locked" in said.message, said.message
    assert "published.pile-in" in said.rules
    assert next(m.at for m in g.state.unit("boyz").models if m.name == "b2") == B2_AT
    replayed = Game.replay(g.to_data(record=True))
    assert replayed.state == g.state and replayed.log == g.log


# == 4. both editions: a squad shot away around its Captain; he joins another next turn ==============================

SPARED = {"40k3": ("40k3.ic.no-last-man", "published.morale-casualties"),
          "40k4": ("40k4.char.no-last-man", "published.morale-casualties")}
JOIN = {"40k3": "40k3.ic.join", "40k4": "40k4.ic.join"}
OTHER = {"40k3": "40k4.char.no-last-man", "40k4": "40k3.ic.no-last-man"}


def shot_away_around_captain(ruleset: str) -> Game:
    """Blue's Shooting phase: red's ``tac`` (one Marine, Ld 8) at (20, 20) joined by its Captain (Ld 10) at
    (21.5, 18.6); red's ``dev`` (two Marines, Ld 7) at (24, 16), further from the lascannon than tac; blue's
    lascannon ``las`` at (20, 40)."""
    red = [squad("tac", 20, 20, n=1), hero("cap", 21.5, 18.6, joined="tac"), squad("dev", 24, 16, n=2, ld=7)]
    las = {"id": "las", "models": [{**model("L1", 20, 40), "weapons": ["lascannon"]}]}
    data = scenario(ruleset, red, [las], phase="shooting")
    data["active"] = "blue"
    return game(data)


@pytest.mark.rule("40k3.ic.no-last-man", "40k4.char.no-last-man", "published.morale-casualties", "40k3.ic.join",
                  "40k4.ic.join", "40k3.char.leadership", "40k4.char.leadership")
@EDITIONS
def test_a_captain_whose_squad_is_shot_away_takes_no_morale_check_and_joins_another_next_turn(ruleset: str) -> None:
    """The lascannon slays the last Marine (a hit and a wound on 6s; no save against AP2): tac is destroyed around
    its Captain, who is a unit of his own of one model (seed 000: "он и так считается отдельным отрядом"; seed 001:
    characters "are used to fighting heroically on their own"). He takes no Morale check for the shot (the decision
    of both clauses, judge rounds 22 and 50, confirmed here: the check is the unit's that lost the models), each
    edition citing its own clause and not the other's. Saved and loaded, in red's next Movement phase he joins dev
    (40k3.ic.join / 40k4.ic.join), whose test is then on his Ld 10 (33/36, against brute force), citing each
    edition's Leadership clause."""
    g = shot_away_around_captain(ruleset)
    events = list(g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6, 6])))
    if g.state.shot_this_phase:
        events += g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").alive and g.state.unit("cap").joined is None
    assert not kinds(events, "morale")
    [spared] = kinds(events, "morale_spared")
    assert set(SPARED[ruleset]) <= set(spared.rules) and OTHER[ruleset] not in spared.rules, spared
    assert not g.state.unit("cap").has(Status.FALLING_BACK)
    h = saved_and_loaded(g)
    next_turn_to(h, "red", "movement")
    join = {"do": "join", "character": "cap", "unit": "dev", "to": [22.5, 14.6]}
    assert_legal(h, join, JOIN[ruleset])
    h.apply(join)
    assert h.state.unit("cap").joined == "dev"
    dev_test = {"do": "test", "unit": "dev", "characteristic": "Ld"}
    ruling = h.check(dev_test)
    assert ruling.legal and "Ld 10 (Cap)" in ruling.reason and CHAR_LD[ruleset] in ruling.rules, ruling
    assert pass_odds(h, dev_test) == two_d6_at_most(10) == Fraction(33, 36)


# == 5. both editions: a Marine shot out of the squad his Captain joined: no Last Man Standing, his Ld 10 ============

def squad_of_two_and_captain(ruleset: str) -> Game:
    """Blue's Shooting phase: red's ``tac`` (two Marines, Ld 8) at (20, 20) and (22, 20) joined by its Captain (Ld 10)
    at (21, 18.4); blue's lascannon ``las`` at (20, 40)."""
    red = [squad("tac", 20, 20, n=2), hero("cap", 21, 18.4, joined="tac")]
    las = {"id": "las", "models": [{**model("L1", 20, 40), "weapons": ["lascannon"]}]}
    data = scenario(ruleset, red, [las], phase="shooting")
    data["active"] = "blue"
    return game(data)


SHOOT_TAC = {"do": "shoot", "unit": "las", "target": "tac"}
NO_LAST_MAN = {"40k3": "40k3.ic.no-last-man", "40k4": "40k4.char.no-last-man"}


@pytest.mark.rule("published.morale-casualties", "published.last-man-standing", "40k3.char.leadership",
                  "40k4.char.leadership", "40k3.ic.falling-back", "40k4.ic.falling-back", "published.wound-allocation")
@EDITIONS
def test_a_marine_shot_out_of_a_squad_of_two_with_its_captain(ruleset: str) -> None:
    """The lascannon (BS4: 3+; S9 against T4: 2+; AP2: no save) slays one model, 5/9; the wound falls on a Marine
    (published.wound-allocation), so tac is one Marine and his Captain: two models, not one, so 3rd edition's Last
    Man Standing is not called for (40k3.ic.no-last-man's decision: the character is part of the unit while
    joined), while the unit lost 1 of its 3 models (25% or more: published.morale-casualties) and tests on the
    Captain's Ld 10 (each edition's Leadership clause; 4th edition at the phase's end and at no -1: one Marine of
    the two it began with is not below half, the Captain not counted). It falls back, Captain and all, on 11 or 12:
    5/9 x 3/36 = 5/108 (exact, against brute force). Failed, the Captain may not leave it in red's Movement phase
    (after a save and load), each edition's clause; undone, nothing was shot."""
    g = squad_of_two_and_captain(ruleset)
    start = g.state

    def read(p: Game) -> tuple[int, bool, bool]:
        if p.state.shot_this_phase:
            p.apply({"do": "end_phase"})
        return (len(p.state.unit("tac").models), p.state.unit("tac").has(Status.FALLING_BACK),
                p.state.unit("cap").has(Status.FALLING_BACK))

    assert brute(start, SHOOT_TAC, read) == {
        (2, False, False): Fraction(4, 9),
        (1, False, False): Fraction(5, 9) * (1 - Fraction(3, 36)),
        (1, True, True): Fraction(5, 9) * Fraction(3, 36),
    }
    assert Fraction(5, 9) * Fraction(3, 36) == Fraction(5, 108)
    events = list(g.apply(SHOOT_TAC, dice=ScriptedDice([6, 6] + ([] if ruleset == "40k4" else [6, 5, 1, 1]))))
    if g.state.shot_this_phase:
        events += g.apply({"do": "end_phase"}, dice=ScriptedDice([6, 5, 1, 1]))
    [check] = kinds(events, "morale")
    assert "Morale check on Ld 10 (Cap)" in check.message and "-1" not in check.message, check.message
    assert CHAR_LD[ruleset] in check.rules and "published.morale-casualties" in check.rules
    assert not [e for e in events if "Last Man Standing" in e.message]
    assert g.state.unit("tac").has(Status.FALLING_BACK) and g.state.unit("cap").has(Status.FALLING_BACK)
    h = saved_and_loaded(g)
    next_turn_to(h, "red", "movement")
    assert_illegal(h, {"do": "leave", "character": "cap", "to": [21, 12]},
                   {"40k3": "40k3.ic.falling-back", "40k4": "40k4.ic.falling-back"}[ruleset])
    while g.state != start:
        g.undo()
    assert len(g.state.unit("tac").models) == 2 and not g.state.unit("cap").has(Status.FALLING_BACK)


# == 6. both editions: a lone Captain splits his Attacks between two Boyz; saved and loaded between ==================

SPLIT = {"do": "allocate", "character": "cap", "attacks": {"b1": 2, "b2": 1}}
ENGAGED = {"40k3": "40k3.char.allocation-b2b-only", "40k4": "40k4.cc.engaged-only"}
SPLITS = {"40k3": "40k3.char.attack-allocation", "40k4": "40k4.cc.engaged-only"}


def captain_between_boyz(ruleset: str) -> Game:
    """Red's Assault phase: the Captain alone (WS5 S4 A3 I5) at (20, 20), locked with three Boyz: b1 and b2 touching
    him on either side, b3 touching b1 but not him."""
    cap = {**hero("cap", 20, 20), "status": ["locked"]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20 + TOUCH, 20, 7, ORK), model("b2", 20 - TOUCH, 20, 7, ORK),
                       model("b3", 20 + 2 * TOUCH, 20, 7, ORK)]}
    return game(scenario(ruleset, [cap], [boyz], phase="assault"))


def slain_by_the_captain(p: Game) -> tuple[bool, bool]:
    """Whether b1 and b2 were slain by the blows struck before the combat's result (the Captain's, at I5), read from
    the casualties' data (the names slain, exact on the fast walk: reliability round 53)."""
    names: list[str] = []
    for e in p.log:
        if e.kind == "combat_result":
            break
        if e.kind == "casualties":
            names += dict(e.data)["models"]
    return "b1" in names, "b2" in names


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only",
                  "published.initiative")
@EDITIONS
def test_a_lone_captain_splits_his_attacks_between_the_boyz_he_touches(ruleset: str) -> None:
    """A character "may always divide his attacks among the models in base contact with him", declared before he
    rolls to hit (40k3.char.attack-allocation; 4th edition: only the enemy engaged with him, 40k4.cc.engaged-only):
    2 on b1 and 1 on b2 is accepted; one on b3, who touches only b1, is refused (40k3.char.allocation-b2b-only /
    40k4.cc.engaged-only), as is a split of 4 of his 3 Attacks; refused, nothing changes. He strikes first (I5
    against the Boyz' I2, published.initiative): each blow hits on 3+ (WS5 against WS4) and wounds on 4+ (S4
    against T4), 1/3, no save: b1 falls to one of his two blows, 1 - (2/3)^2 = 5/9, b2 to the other, 1/3,
    independently. Exact against brute force; saved and loaded between the split and the fight, the same
    distribution and, with the same faces, the same log; the split undone, nothing is declared."""
    g = captain_between_boyz(ruleset)
    start = g.state
    assert_illegal(g, {**SPLIT, "attacks": {"b1": 2, "b3": 1}}, ENGAGED[ruleset])
    assert_illegal(g, {**SPLIT, "attacks": {"b1": 4}}, SPLITS[ruleset])
    assert_legal(g, SPLIT, SPLITS[ruleset])
    g.apply(SPLIT)
    split = g.state
    h = saved_and_loaded(g)
    assert h.state == split
    b1, b2 = Fraction(5, 9), Fraction(1, 3)
    expected = {(True, True): b1 * b2, (True, False): b1 * (1 - b2), (False, True): (1 - b1) * b2,
                (False, False): (1 - b1) * (1 - b2)}
    assert brute(split, FIGHT_CAP, slain_by_the_captain) == expected
    assert brute(h.state, FIGHT_CAP, slain_by_the_captain) == expected
    faces = [6, 6, 1, 6, 6] + [1] * 30
    events = g.apply(FIGHT_CAP, dice=ScriptedDice(faces))
    blows = [e for e in kinds(events, "attacks") if e.message.startswith("Cap")]
    assert [e.message.split(":")[0] for e in blows] == ["Cap (split) attacks b1 (2)", "Cap (split) attacks b2 (1)"]
    assert all(SPLITS[ruleset] in e.rules for e in blows)
    k = Game(h.state, ScriptedDice(faces))
    assert [e.message for e in k.apply(FIGHT_CAP, dice=ScriptedDice(faces))] == [e.message for e in events]
    g.undo()
    g.undo()
    assert g.state == start


# == 7. both editions: a squad's Strength test before and after its Captain joins, with modifiers ======================

STRONG = "WS5 BS5 S5 T4 W2 I5 A3 Ld10 Sv3+"
S_TEST = {"do": "test", "unit": "tac", "characteristic": "S"}
JOIN_TAC = {"do": "join", "character": "cap", "unit": "tac", "to": [22, 18.5]}


def d6_test(value: int) -> Fraction:
    """A characteristic test counted by hand (seed 004): a D6 at most the value passes, a 6 always fails, a value of
    0 always fails."""
    return Fraction(sum(1 for face in range(1, 7) if face <= value and face != 6), 6) if value > 0 else Fraction(0)


@pytest.mark.rule("core.test.characteristic", "core.test.highest-value", "core.value.used", "core.value.unmodified",
                  "40k3.ic.join", "40k4.ic.join")
@EDITIONS
def test_a_squads_strength_test_takes_its_joined_captains_value_by_the_shared_rules(ruleset: str) -> None:
    """Seed 004: a unit tests one value, its highest (core.test.highest-value), the value used after every
    modifier (core.value.used: multipliers, then additions) unless the test asks the unmodified one (the profile's,
    core.value.unmodified); a 6 always fails. Before the Captain (S5) joins, the squad (S4) passes on 4/6; joined in
    the Movement phase (each edition's join clause), on his 5: 5/6, and 5/6 still with x2 (his 10: the 6 fails);
    with -3 his 2 (the Marines' 1): 2/6; x2 then -3 his 7: 5/6; unmodified, his printed 5: 5/6 (with a modifier
    refused, core.value.unmodified). Saved and loaded, the same; the join undone, 4/6 again. Exact against brute
    force."""
    cap = {**hero("cap", 30, 18.5), "models": [{**model("Cap", 26, 18.5), "profile": STRONG}]}
    g = game(scenario(ruleset, [squad("tac", 20, 20, n=2), cap]))
    start = g.state
    assert pass_odds(g, S_TEST) == d6_test(4) == Fraction(4, 6)
    assert_legal(g, JOIN_TAC, JOIN[ruleset])
    g.apply(JOIN_TAC)
    assert g.state.unit("cap").joined == "tac"
    cases = [((), 5), (({"kind": "multiply", "value": 2},), 10), (({"kind": "add", "value": -3},), 2),
             (({"kind": "add", "value": -3}, {"kind": "multiply", "value": 2}), 7)]
    h = saved_and_loaded(g)
    for mods, value in cases:
        action = {**S_TEST, "modifiers": list(mods)}
        assert_legal(g, action, "core.test.characteristic", "core.test.highest-value")
        assert f"on {value} (Cap's" in g.check(action).reason
        assert pass_odds(g, action) == pass_odds(h, action) == d6_test(value), mods
    # the unmodified value is the printed one: it takes no modifiers (refused, naming the clause), his 5
    assert_illegal(g, {**S_TEST, "modifiers": [{"kind": "add", "value": -3}], "unmodified": True},
                   "core.value.unmodified")
    bare = {**S_TEST, "unmodified": True}
    assert_legal(g, bare, "core.value.unmodified")
    assert pass_odds(g, bare) == pass_odds(h, bare) == d6_test(5)
    g.undo()
    assert g.state == start and pass_odds(g, S_TEST) == Fraction(4, 6)


# == 8. both editions: a Captain who moves to within 2" of a squad without declaring a join ==========================

MOVE_NEAR = {"do": "move", "unit": "cap", "to": [[20, 18.4]]}


@pytest.mark.rule("40k3.ic.join", "40k4.ic.join", "40k3.char.leadership", "core.test.leadership-choice")
@EDITIONS
def test_a_captain_who_moves_beside_a_squad_joins_it_only_in_3rd_edition(ruleset: str) -> None:
    """Seed 000: to count as joined, an independent character "simply has to move within 2\\" of a model of the unit
    in the Movement phase" (40k3.ic.join); seed 001 adds "and be declared as joining that unit" (40k4.ic.join). The
    Captain (Ld 10) moves 5.4" to end 0.6" from tac 1 with a plain move: in 3rd edition he has joined (the move
    says so, citing the clause) and the squad tests on his 10 (33/36, 40k3.char.leadership); undone, he stands
    alone and it tests on its 8 (26/36). In 4th edition he has not: the squad tests on its own 8, citing no
    character clause (none joined); saved and loaded, in red's next Movement phase he declares the join and it
    tests on his 10. Exact against brute force."""
    g = game(scenario(ruleset, [squad("tac", 20, 20, n=2), hero("cap", 20, 13)]))
    start = g.state
    events = g.apply(MOVE_NEAR)
    said = [e for e in events if "joins" in e.message]
    if ruleset == "40k3":
        assert g.state.unit("cap").joined == "tac"
        assert [e.rules for e in said] == [("40k3.ic.join",)]
        assert_legal(g, TEST, "40k3.char.leadership")
        assert pass_odds(g, TEST) == two_d6_at_most(10) == Fraction(33, 36)
        g.undo()
        assert g.state == start and g.state.unit("cap").joined is None
        assert pass_odds(g, TEST) == two_d6_at_most(8) == Fraction(26, 36)
        return
    assert g.state.unit("cap").joined is None and not said
    ruling = g.check(TEST)
    assert "Ld 8 (tac 1)" in ruling.reason and not {"40k3.char.leadership", "40k4.char.leadership"} & set(ruling.rules)
    assert pass_odds(g, TEST) == Fraction(26, 36)
    h = saved_and_loaded(g)
    next_turn_to(h, "red", "movement")
    join = {"do": "join", "character": "cap", "unit": "tac", "to": [21, 18.4]}
    assert_legal(h, join, "40k4.ic.join")
    h.apply(join)
    assert h.state.unit("cap").joined == "tac"
    assert_legal(h, TEST, "40k4.char.leadership")
    assert pass_odds(h, TEST) == Fraction(33, 36)
