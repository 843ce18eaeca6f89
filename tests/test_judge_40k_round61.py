"""A judge's cases for 40k 3rd and 4th edition, round 61: assaults with characters (the assault of a squad with its
Captain and of the Captain alone, his blows behind his squad, the squad destroyed around him in a fight, falling back
with him, the Sweeping Advance and the consolidation of a Captain left alone) - sequences in which the state changes
around a character: his squad slain in the fight, undo and redo, save and load, the record played back, the next
player turn.

Expected results are derived from the texts (seeds 000 and 001, the 4th edition pages named in rules.yaml, the
catalogue and the decisions of rules.yaml), not read off the engine; the fractions are counted over the dice by hand
and checked against brute-force enumeration (every die a branch).

Cases:
1. both editions: a squad marked locked alone (40k4.cc.locked's decision allows it), joined by its Captain; the Boyz
   slay the squad, the Captain holds and still touches b3: he stays locked - blue's guns may not shoot him
   (published.shooting-into-combat), the combat is fought again in blue's Assault phase; saved and loaded, the record
   played back, undone and redone;
2. both editions: the same squad of one, the Captain slays both Boyz after his trooper falls: he may consolidate
   (published.consolidation; published.40k3-consolidation), offered by legal_actions; saved and loaded; undone;
3. both editions: joined, the Captain's own assault is refused (40k3.char.must-assault, 40k4.assault.must-charge)
   and the squad's cites the clause and takes him in; having left the squad (saved and loaded) he assaults alone 4.7"
   away (40k3.ic.assault-alone, 40k4.assault.alone), 6.3" away he is refused;
4. both editions: a joined Captain 1.4" behind his Marines, touching no Boy, makes no attacks (40k4.cc.base-contact;
   3rd edition published.close-combat): the Boyz slain are the Marines' alone, 9/16, 6/16, 1/16 (exact, brute force);
5. both editions: the squad and its Captain lose and fail one check on his Ld: they fall back together, the event
   citing 40k3.ic.falling-back / 40k4.ic.falling-back; 4th edition's Sweeping Advance on the lowest Initiative of
   two (no majority) lets them break off, or catches them and destroys him with them; saved and loaded;
6. 4th edition: the Captain who outlives his squad wins and sweeps the Boyz on his own I5 (8 against 8: caught),
   then may consolidate; saved and loaded.

Found wrong (each first written as an xfail(strict=True) test):
- both editions (40k4.cc.locked with published.shooting-into-combat, published.consolidation and
  published.40k3-consolidation; xfail commit ce90b01e; cases 1, 2): a Captain joined to a squad that a scenario marks
  locked alone is locked with it (the clause's decision), but when the squad was slain around him in the fight he
  lost the lock: blue's guns could shoot him while a Boy touched him, and once he had slain the Boyz (or swept them,
  case 6) he was refused the consolidation ("only a unit that a close combat's result left with no enemy in base
  contact ... consolidates").
- both editions (40k3.ic.falling-back, 40k4.ic.falling-back; xfail commit 112efa1b; case 5): the fall back move of a
  unit with its Captain carried him along (he may not leave it) but its event cited published.fall-back alone, while
  4th edition's Sweeping Advance that catches them cites 40k4.ic.falling-back. Citation only.

Fixed (judge round 61), the xfail marks removed:
- ``w40k_wounds.release_orphans`` (commit 7380e46d): the character left alone by his destroyed unit keeps its lock
  (the combat's result releases him if no enemy touches him); ``_free_to_consolidate`` reads a group locked as a whole
  (a joined character with his locked unit), so the one left alone may consolidate.
- ``MoraleRules._fallen_back`` (commit e8507f0d): the fall back event of a unit with characters cites the edition's
  ``falling_back_rule`` beside published.fall-back (the words are kept: earlier rounds and the book quote them);
  tests/test_judge_40k_moves.py's cited tuple for a fall back off the table edge updated to include it.

Decisions: 40k4.cc.locked, 40k3.ic.falling-back and 40k4.ic.falling-back amended (rules.yaml) to say so; no docs page
quotes them (test_docs green without a rebuild). Book entry (new, commit 271c50ff):
40k4-a-captain-whose-squad-falls-in-the-fight-stays-locked-and-consolidates; docs/rules.md's list rebuilt.

Checked, as it stands (passed as first written): cases 3, 4 and 6's sweep - the assault clauses both ways, his own
assault range, the lone Captain's 6"; a character behind his squad makes no attacks (exact); the squad and Captain's
one check on his Leadership, their Sweeping Advance on the lowest Initiative with no majority, caught together.

Left (noticed, not changed):
- 3rd edition: blows at a squad whose models are all slain give its joined Captain one wound of the round (he is one
  of the unit's models, each taking one before any a second) while the rest is "lost: never carry over onto cap" -
  round 17's stated reading; a judge may find the two words side by side odd.
- the fall back event still names only the unit ("tac falls back 6""), its characters read from the citation.
- round 60's three citation leftovers (a direct shot's events and the targeting clause, 3rd edition's Perils that
  kills outright, Fear of the Darkness's Morale check and the psychic shooting clause): not taken this round.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (BASE_25, EDITIONS, assert_illegal, assert_legal, brute, game, gunners, hero, kinds, model,
                   next_turn_to, offered, saved_and_loaded, scenario)

BOY = "WS4 BS2 S5 T4 W1 I6 A3 Ld7 Sv-"
NOB = "WS4 BS2 S5 T4 W2 I6 A1 Ld7 Sv-"
WEAK = "WS1 BS4 S1 T3 W1 I1 A1 Ld{ld} Sv-"
TOUCH = BASE_25 + 0.001  # centre to centre, two 25mm bases just in base contact
CONSOLIDATE = {"40k3": "published.40k3-consolidation", "40k4": "published.consolidation"}
FIGHT_TAC = {"do": "fight", "unit": "tac"}


def alive(g: Game) -> dict[str, int]:
    """Each unit's living models."""
    return {u.id: len(u.models) for u in g.state.units}


# == 1. both editions: the Captain left alone by his squad in a fight stays locked with the Boyz he touches =========

def captain_behind_a_locked_squad(ruleset: str) -> Game:
    """Red's Assault phase: tac (two feeble troopers, t1 and t2 at (20, 20) and (22, 20)) marked locked alone, as
    40k4.cc.locked's decision allows a scenario to, joined by cap at (24, 20); blue's Boyz (I6 A3) b1-b3 touching
    t1, t2 and cap, and blue's guns far off."""
    red = [{"id": "tac", "status": ["locked"], "models": [model(f"t{i + 1}", 20 + 2 * i, 20, 8, WEAK) for i in range(2)]},
           {**hero("cap", 24, 20), "joined": "tac"}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model(f"b{i + 1}", 20 + 2 * i, 20 + TOUCH, 7, BOY) for i in range(3)]}
    return game(scenario(ruleset, red, [boyz, gunners("guns", 10, 40)], phase="assault"))


#: b1 and b2's six blows at tac: two hit (6, 6) and wound (6, 6), slaying t1 and t2; b3's three at cap miss (1s); cap's
#: three miss (1s); cap loses by 2 and passes his Morale check on a double 1
SQUAD_SLAIN = [6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1]


@EDITIONS
@pytest.mark.rule("40k4.cc.locked", "published.shooting-into-combat", "published.close-combat")
def test_a_captain_whose_locked_squad_is_slain_stays_locked_with_the_boy_he_touches(ruleset: str) -> None:
    """The squad's lock is read for its joined Captain whatever his own status says (40k4.cc.locked's decision; 3rd
    edition alike, the character being part of the unit). The Boyz slay the squad at I6; the Captain, a unit of his
    own now (40k3.ic.no-last-man, 40k4.char.no-last-man), holds and still touches b3: he is still locked in the
    close combat (published.close-combat: a unit in base contact with an enemy is). Blue's guns may not shoot him
    (published.shooting-into-combat), in blue's Assault phase the combat is fought again, with him. Saved and loaded,
    and with the fight undone and played again, the same."""
    g = captain_behind_a_locked_squad(ruleset)
    start = g.state
    g.apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_SLAIN))
    assert alive(g)["tac"] == 0 and alive(g)["cap"] == 1 and alive(g)["boyz"] == 3
    fought = g.state
    for h in (g, saved_and_loaded(g), Game.replay(g.to_data(record=True))):
        next_turn_to(h, "blue", "shooting")
        assert_illegal(h, {"do": "shoot", "unit": "guns", "target": "cap"}, "published.shooting-into-combat")
        next_turn_to(h, "blue", "assault")
        assert offered(h, "fight") == {("boyz",), ("cap",)}  # either names the one combat
        events = h.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 12))
        assert kinds(events, "fight")[0].message == "close combat: boyz, cap"
    while g.state != start:
        g.undo()
    g.apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_SLAIN))
    assert g.state == fought


# == 2. both editions: the Captain who outlives his squad and destroys the Boyz consolidates ==========================

def captain_and_trooper_against_a_boy_and_a_nob(ruleset: str) -> Game:
    """Red's Assault phase: tac (one feeble trooper t1 at (20, 20)) marked locked alone, joined by cap at (22.9, 20)
    (1.92" from t1); blue's Boy b1 (A1) touching t1 and Nob b2 (W2) touching cap."""
    red = [{"id": "tac", "status": ["locked"], "models": [model("t1", 20, 20, 8, WEAK)]},
           {**hero("cap", 22.9, 20), "joined": "tac"}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20, 20 + TOUCH, 7, BOY.replace("A3", "A1")), model("b2", 22.9, 20 + TOUCH, 7, NOB)]}
    return game(scenario(ruleset, red, [boyz, gunners("guns", 10, 40)], phase="assault"))


#: b1 hits and wounds t1 (6, 6); b2 misses cap (1); cap's three blows hit (6, 6, 6) and wound (6, 6, 6): b2's two
#: Wounds and, as his blows fall, b1; the rest for the consolidation's D6 (3)
CAPTAIN_WINS = [6, 6, 1, 6, 6, 6, 6, 6, 6, 3, 3, 3]


@EDITIONS
@pytest.mark.rule("published.40k3-consolidation", "published.consolidation", "40k4.cc.locked")
def test_a_captain_who_outlives_his_squad_and_destroys_the_boyz_may_consolidate(ruleset: str) -> None:
    """Each unit of the combat that its result leaves with no enemy in base contact, not falling back, may
    consolidate (published.consolidation; 3rd edition: published.40k3-consolidation's decision), a lone character
    too. The Captain fought in the combat, locked with his squad (40k4.cc.locked); he outlives it and slays both
    Boyz: he may consolidate D6", offered by legal_actions; saved and loaded, the same; undone, the fight again."""
    g = captain_and_trooper_against_a_boy_and_a_nob(ruleset)
    dice = ScriptedDice(CAPTAIN_WINS)
    events = g.apply(FIGHT_TAC, dice=dice)
    assert alive(g) == {"tac": 0, "cap": 1, "boyz": 0, "guns": 3}
    said = [e for e in kinds(events, "consolidation") if e.message.startswith("cap ")]
    assert len(said) == 1 and CONSOLIDATE[ruleset] in said[0].rules, [e.message for e in events]
    to = {"do": "consolidate", "unit": "cap", "to": [[22.9, 18.0]]}
    for h in (g, saved_and_loaded(g)):
        assert_legal(h, to, CONSOLIDATE[ruleset])
        assert ("cap",) in offered(h, "consolidate")
    g.apply(to, dice=dice)
    assert g.state.unit("cap").models[0].at == (22.9, 20 - 2.0)
    assert not g.state.unit("cap").has(Status.MAY_CONSOLIDATE)
    g.undo()
    g.undo()
    assert_legal(g, FIGHT_TAC)


# == 3. both editions: a Captain assaults with his squad, and alone once he has left it ==============================

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
MUST = {"40k3": "40k3.char.must-assault", "40k4": "40k4.assault.must-charge"}
ALONE = {"40k3": "40k3.ic.assault-alone", "40k4": "40k4.assault.alone"}
LEAVE = {"40k3": "40k3.ic.leave", "40k4": "40k4.ic.leave"}


def squad_with_captain_before_boyz(ruleset: str) -> Game:
    """Red's Movement phase: tac (two Marines at (20, 20), (22, 20)) joined by cap at (22, 18.5); blue's three Boyz at
    (20-24, 26), 5" from tac."""
    boyz = {"id": "boyz", "models": [model(f"b{i + 1}", 20 + 2 * i, 26, 7, ORK) for i in range(3)]}
    red = [{"id": "tac", "models": [model(f"tac {i + 1}", 20 + 2 * i, 20) for i in range(2)]},
           {**hero("cap", 22, 18.5), "joined": "tac"}]
    return game(scenario(ruleset, red, [boyz]))


def to_assault_phase(g: Game) -> None:
    """End red's Movement and Shooting phases."""
    while g.state.phase.value != "assault":
        g.apply({"do": "end_phase"}, dice=ScriptedDice([]))


@EDITIONS
@pytest.mark.rule("40k3.char.must-assault", "40k4.assault.must-charge", "40k3.ic.assault-alone",
                  "40k4.assault.alone", "40k4.cc.locked")
def test_a_captain_assaults_with_his_squad_and_alone_once_he_has_left_it(ruleset: str) -> None:
    """Seed 000: "if the unit an independent character is in begins a close combat, the character must begin it
    too" (40k3.char.must-assault; 4th edition 40k4.assault.must-charge), and he "may begin a close combat on his own
    if he is no more than 6" from the enemy" (40k3.ic.assault-alone; 40k4.assault.alone). Joined, his own assault
    is refused by the first clause and the squad's cites it; the squad assaults and he moves in with it, locked with
    it (40k4.cc.locked). Undone to the Movement phase, he leaves the squad 2.55" from it (the leave clause), saved
    and loaded: 4.7" from b3 he assaults alone, citing the second clause, and the squad may still assault the same
    Boyz; left at (26, 19) instead, 6.3" from them, his assault is refused by that clause."""
    g = squad_with_captain_before_boyz(ruleset)
    start = g.state
    to_assault_phase(g)
    assert_illegal(g, {"do": "assault", "unit": "cap", "target": "boyz"}, MUST[ruleset])
    assert_legal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, MUST[ruleset])
    assert offered(g, "assault") == {("tac", "boyz")}
    events = g.apply({"do": "assault", "unit": "tac", "target": "boyz"}, dice=ScriptedDice([]))
    assert MUST[ruleset] in kinds(events, "assault")[0].rules
    assert g.state.unit("cap").models[0].at != (22, 18.5)  # he moved in with his squad
    assert offered(g, "fight") >= {("tac",), ("boyz",)}
    assert_legal(g, {"do": "fight", "unit": "cap"})  # his squad's combat is his: locked with it
    while g.state != start:
        g.undo()
    for spot, legal in (((25.5, 20.5), True), ((26.0, 19.0), False)):
        h = Game(start, ScriptedDice([]))
        assert_legal(h, {"do": "leave", "character": "cap", "to": list(spot)}, LEAVE[ruleset])
        h.apply({"do": "leave", "character": "cap", "to": list(spot)})
        h = saved_and_loaded(h)
        to_assault_phase(h)
        cap_alone = {"do": "assault", "unit": "cap", "target": "boyz"}
        if not legal:
            assert "6.3\"" in assert_illegal(h, cap_alone, ALONE[ruleset]).args[0]
            continue
        assert_legal(h, cap_alone, ALONE[ruleset])
        assert offered(h, "assault") == {("tac", "boyz"), ("cap", "boyz")}
        events = h.apply(cap_alone, dice=ScriptedDice([]))
        said = kinds(events, "assault")[0]
        assert said.message == "cap assaults boyz: 1 model in base contact" and ALONE[ruleset] in said.rules
        assert_legal(h, {"do": "assault", "unit": "tac", "target": "boyz"})


# == 4. both editions: a joined Captain behind his squad in a fight makes no attacks ================================

def squad_in_contact_captain_behind(ruleset: str) -> Game:
    """Red's Assault phase: tac (two Marines, WS4 S4 A1) at (20, 20), (22, 20) locked with Boyz b1, b2 touching them
    (b3 beside b2); cap joined at (21, 18.6), within 2" of both Marines and touching no Boy."""
    red = [{"id": "tac", "status": ["locked"], "models": [model(f"tac {i + 1}", 20 + 2 * i, 20) for i in range(2)]},
           {**hero("cap", 21, 18.6), "joined": "tac", "status": ["locked"]}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model(f"b{i + 1}", 20 + 2 * i, 20 + TOUCH, 7, ORK) for i in range(3)]}
    return game(scenario(ruleset, red, [boyz], phase="assault"))


def boyz_slain_before_they_strike(p: Game) -> int:
    """How many Boyz red's blows slew (every red blow falls before the Boyz' I2), read from the events' data (exact on
    the fast walk: reliability round 53)."""
    slain = 0
    for e in p.log:
        if e.kind == "initiative" and dict(e.data)["initiative"] == 2:
            break
        if e.kind == "casualties":
            slain += len(dict(e.data)["models"])
    return slain


@EDITIONS
@pytest.mark.rule("40k4.cc.base-contact", "published.close-combat")
def test_a_joined_captain_behind_his_squad_makes_no_attacks(ruleset: str) -> None:
    """4th edition: a character "fights only if in base contact with an enemy model; being within 2" of a friendly
    model in contact does not let it attack" (40k4.cc.base-contact), though a trooper so placed would; 3rd edition:
    only models in base contact fight (published.close-combat). The Captain (A3) 1.4" behind his Marines touches no
    Boy: the Boyz slain are the two Marines' blows alone, each slaying on 4+ to hit and 4+ to wound (1/4), counted by
    hand: 0 with 9/16, 1 with 6/16, 2 with 1/16 - exact, against brute force. Had his three blows (3+ and 4+: 1/3
    each) been struck, no Boy would be left standing less often."""
    g = squad_in_contact_captain_behind(ruleset)
    quarter = Fraction(1, 4)
    expected = {0: (1 - quarter) ** 2, 1: 2 * quarter * (1 - quarter), 2: quarter ** 2}
    assert brute(g.state, FIGHT_TAC, boyz_slain_before_they_strike) == expected
    events = g.apply(FIGHT_TAC, dice=ScriptedDice([6] * 40))
    said = kinds(events, "character_in_combat")
    assert len(said) == 1 and "makes no attacks" in said[0].message, [e.message for e in events]
    rule = {"40k3": "published.close-combat", "40k4": "40k4.cc.base-contact"}[ruleset]
    assert rule in said[0].rules
    assert not [e for e in kinds(events, "attacks") if e.message.startswith("Cap ")]


# == 5. both editions: a squad and its Captain lose, fall back together, or are caught by the Sweeping Advance ======

WEAK_BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
FALLING_BACK = {"40k3": "40k3.ic.falling-back", "40k4": "40k4.ic.falling-back"}
#: cap's three blows and the Marines' two miss (1s); the Boyz' four at tac: one hits (6) and wounds (6), t1 fails his
#: save (1); their two at cap miss (1s); red loses by 1 and fails its check on the Captain's Ld (6, 6)
SQUAD_LOSES = [1, 1, 1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6]
#: then 4th edition's Sweeping Advance: tac's total first (I4 + D6), the Boyz' (I2 + D6) after; then the fall back 2D6
BREAKS_OFF = {"40k3": [3, 3], "40k4": [2, 3, 3, 3]}
CAUGHT = [1, 3]


def squad_and_captain_in_a_fight(ruleset: str) -> Game:
    """Red's Assault phase: tac (two Marines, t1 and t2 at (20, 20), (22, 20)) marked locked, joined by cap at
    (24, 20); blue's Boyz b1-b3 (I2 A2) touching each of them."""
    red = [{"id": "tac", "status": ["locked"], "models": [model(f"t{i + 1}", 20 + 2 * i, 20) for i in range(2)]},
           {**hero("cap", 24, 20), "joined": "tac"}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model(f"b{i + 1}", 20 + 2 * i, 20 + TOUCH, 7, WEAK_BOY) for i in range(3)]}
    return game(scenario(ruleset, red, [boyz], phase="assault"))


@EDITIONS
@pytest.mark.rule("40k3.ic.falling-back", "40k4.ic.falling-back", "published.fall-back", "published.sweeping-advance")
def test_a_squad_and_its_captain_fall_back_together_and_the_event_says_so(ruleset: str) -> None:
    """The squad and its Captain lose by 1 and fail their one check on his Ld 10 (-1 in 4th edition): "an independent
    character in a unit that is falling back cannot leave it until the unit regroups" (40k3.ic.falling-back,
    40k4.ic.falling-back): he falls back with it. The fall back event ("tac falls back 6"") moved him citing
    published.fall-back alone: it must cite the clause too (as 4th edition's Sweeping Advance that catches them
    does: "tac is caught and destroyed with cap", citing 40k4.ic.falling-back). 4th edition: tac's I4
    (one Marine and the Captain: no majority, the lowest, published.sweeping-advance's decision) + 2 against the Boyz'
    2 + 3: tac breaks off; with 1 against 3 it is caught and the Captain destroyed with it. Saved and loaded, the
    same."""
    g = squad_and_captain_in_a_fight(ruleset)
    start = g.state
    events = g.apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_LOSES + BREAKS_OFF[ruleset]))
    [fell] = kinds(events, "fall_back")
    assert fell.message == "tac falls back 6\" (cap falls back with it)", fell.message  # named: judge round 62
    assert fell.rules == ("published.fall-back", FALLING_BACK[ruleset])
    for h in (g, saved_and_loaded(g)):
        assert h.state.unit("cap").has(Status.FALLING_BACK) and h.state.unit("tac").has(Status.FALLING_BACK)
        assert math.dist(h.state.unit("cap").models[0].at, (24, 20)) == pytest.approx(6)  # moved with his squad
    if ruleset == "40k4":
        [swept] = kinds(events, "sweeping_advance")
        assert swept.message == "boyz makes a sweeping advance against tac: 2 + 3 = 5 against 4 + 2 = 6: tac breaks " \
                                "off and falls back"
        caught = Game(start, ScriptedDice([])).apply(FIGHT_TAC, dice=ScriptedDice(SQUAD_LOSES + CAUGHT))
        [swept] = kinds(caught, "sweeping_advance")
        assert swept.message.endswith("4 + 1 = 5: tac is caught and destroyed with cap, no save allowed")
        assert "40k4.ic.falling-back" in swept.rules
        assert [e.message for e in kinds(caught, "destroyed")] == ["tac is destroyed by the sweeping advance: slain "
                                                                  "t2, Cap"]


# == 6. 4th edition: the Captain who outlives his squad beats the Boyz and sweeps them on his own Initiative =======

@pytest.mark.rule("published.sweeping-advance", "40k4.cc.separate-unit", "40k4.cc.locked", "published.consolidation")
def test_40k4_the_captain_who_outlives_his_squad_sweeps_on_his_own_initiative_and_consolidates() -> None:
    """Case 2's fight: b1 slays t1 (6, 6); b2 misses the Captain (1); his three blows hit twice (6, 6, 1) and wound
    (6, 6): b1 (engaged with him through b2, 40k4.cc.engaged-only's decision) slain and b2 wounded. The Boyz lose
    by 1 and fail (6, 6). The Captain, a victor of his own (published.sweeping-advance's decision), touches b2: the
    Boyz roll 6 + 2, he 5 + 3, 8 against 8: caught and destroyed. He may then consolidate (before this round's fix
    the sweep was made, but the consolidation refused). Saved and loaded, the same."""
    g = captain_and_trooper_against_a_boy_and_a_nob("40k4")
    events = g.apply(FIGHT_TAC, dice=ScriptedDice([6, 6, 1, 6, 6, 1, 6, 6, 6, 6, 2, 3]))
    [swept] = kinds(events, "sweeping_advance")
    assert swept.message == ("cap makes a sweeping advance against boyz: 5 + 3 = 8 against 6 + 2 = 8: boyz is caught "
                             "and destroyed, no save allowed")
    assert alive(g) == {"tac": 0, "cap": 1, "boyz": 0, "guns": 3}
    for h in (g, saved_and_loaded(g)):
        assert_legal(h, {"do": "consolidate", "unit": "cap", "to": [[22.9, 18.0]]}, "published.consolidation")
