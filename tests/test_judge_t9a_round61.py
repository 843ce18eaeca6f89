"""Round 61: a 9th Age judge's cases on lone characters and units of characters (a lone Hero charged, his own charge,
shot, spell and Rally, a Lightning Bolt at him and at his unit, no one joining him while he flees, the Mage joining him
once he rallied, the Hero leaving his Spearmen into the lone Mage, a leave offered back or aside) and on the charge out
and its limits across a whole turn (Charge, Movement, Magic, Shooting, Melee) with an undo, a save and load and a record
played back; through Game (apply, check, undo, legal_actions), exact odds against a count over the dice and brute force,
and `herohammer rules`; checked against seed 002 (XX.2 Characters) and the 2022 rulebook where the seed defers to it.

The clauses the earlier rounds tested least (counted in tests/test_judge_t9a*.py): t9a.char.universal (2),
t9a.join.deploy (2), t9a.spell.wizard-conclave (8), t9a.char.front-rank (16), t9a.charge-out.own-rate (16),
t9a.join.character-units (19), t9a.join.position (19), t9a.leave.move (19), t9a.join.forbidden (22); the brief's focus
on t9a.char.lone (33) and t9a.leave.unit-not-moved (33), with the two points round 60 left open.

Cases: 1. the orcs charge a lone Hero (4" + 2D6 against 9.55" with the wheel: 26/36, counted = exact = brute force),
a unit of one (t9a.char.lone); joined he is no target and not offered; a save and load, played, undone. 2. (four
parametrized) the lone Hero's own charge, shot, Lightning Bolt and Rally, each offered, ruled and played citing
t9a.char.lone, undone. 3. a Lightning Bolt at the lone Hero (exact = brute force, every wound his; a save and load,
played, undone), refused at him joined, offered at spears only. 4. the Mage may not join the fleeing lone Hero
(t9a.join.forbidden, none offered); he rallies on his own Ld 9 (30/36 counted = exact = brute force); the next
Movement phase the Mage joins him (t9a.join.character-units), told he rallied; undone. 5. the orcs 5.5" before the
Spearmen: the Hero's leave ahead is refused, 5" back legal; legal_actions offers a leave (each legal), kept through a
save and load and an undo. 6. the Hero leaves the Spearmen into the lone Mage (one move, t9a.leave.*,
t9a.join.character-units), offered, undone, recorded and played back; the Spearmen's archer then hits on 3+ (unmoved),
the Hero (BS4) in the Mage's unit on 4+ (moved); `herohammer rules t9a.leave.unit-not-moved`. 7. the Hero charges out
of the Spearmen holding him and a Mage (5" + 2D6 against 10": 30/36 counted = exact = brute force); then none of the
six declarations is offered and the unit's and the Mage's are refused (t9a.charge-out.no-other-charges), through a
save and load; an undo gives all six back; saved with its record and played back: Movement offers the Spearmen a
move and the Mage a leave, the Hero nothing; Magic the Mage's Lightning Bolt at the engaged orcs but not his Flame Cage
(Damage: published.t9a-spell-types); Shooting nothing; Melee the Hero's fight; each list as check finds the tries.

Found wrong (each first committed as a strict xfail in 8bd882b3, then fixed and its mark removed):

1. Missing citation (fixed fb2bf48d): a charge at a lone character cited published.t9a-charge alone, in its ruling and
   its event, though what makes him a unit that can be charged is t9a.char.lone (a joined one is refused under
   t9a.join.part-of-unit; a shot's and a spell's target ruling cited it, round 37). Likewise his own charge, shot,
   spell and Rally cited it nowhere, where his move did. ``t9a_units.lone_rules`` now gives the clause for a lone
   character (not a last survivor, nor one whom others joined), read by the charge's ruling and event (charger or
   target), the shot's (shooter), the spell's (caster) and the Rally's.
2. Wrong words (fixed 078d821a): the Mage joining a Hero who had rallied this turn was told "hero marched this turn on
   its own move before he joined it ... [t9a.join.moved-separately]"; the Hero did not move: he rallied and counts as
   having marched (published.t9a-rally). The note now says so and the ruling cites the Rally.
3. Silent (fixed 730445b5, 257ab5a9): legal_actions sampled one leave per character, straight ahead at his Advance
   Rate; with an enemy close before the unit it was refused and no leave was offered, though a leave back or aside is
   legal (t9a.leave.move). ``fallback_candidates`` now tries such a character back, then left and right, at his
   Advance Rate and at half, the first legal kept, as it tries a unit's moves (round 59); a character who may not
   move (moved, busy, Shaken, or his unit so) is not tried. bench_legal_actions --only t9a against main (best of 20):
   captain_joins 0.967/0.947 ms, whole_turn 0.947/0.939, wizard_charges_out 0.658/0.653, unit_reduced_to_character
   0.119/0.108 (a look at its Shaken Captain's statuses; 0.26 before the Shaken screen); the same actions everywhere.

Decisions stated (src/herohammer/data/rules.yaml): t9a.char.lone (round 61: every ruling and event on what a lone
character does as a unit, or has done to him, cites the clause); t9a.leave.unit-not-moved (left open by round 60: the
clause is applied at the leave, whose ruling and event cite it; the unit's statuses are left as they were and its
later shot reads them as any unmoved unit's, citing only what it decides by: the state keeps no record of who left
whom, and the shot decides nothing by this clause that it would not for a unit no character left);
t9a.join.moved-separately (round 61: a join to a rallied unit says it rallied). No book entry (citations and words of
rulings the book plays already, and a listing); DEVELOPERS.md says what the leave fallback does.

Every other case holds as the texts read: a lone character a target of a charge, a shot and a spell and a joined one
not; no join to a fleeing unit; the Rally on his own Discipline; a leave into a lone character as one move, the unit
left unmoved; the charge out's own rate, its bar on the unit and the other characters for the player turn and not
before, through an undo, a save and load and a record; the engaged Hero offered no move, leave or shot, the
Damage spell barred at an engaged unit; legal_actions offering what check finds legal among the tries.

Noticed and left: a Mage joining a lone Hero with `rank_choice: widen` re-centres the two-model rank, moving the Hero
0.39" sideways, even after his Failed Charge Move (which bars his moving this player turn); t9a.join.position lets a
join displace Front Rank models, so it is left as read, for the lead. A join without `position` takes the free file
nearest the centre, not the nearest to the character (a decision of earlier rounds). legal_actions still samples:
a unit's March is tried only straight ahead.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from _cli import printed
from _t9a import (HERO, charge_out_end, exact_odds_as_brute_force, offered, play_to, reloading_game,
                  saved_and_loaded, scenario, undone_and_replayed)
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

LONE = "t9a.char.lone"
PART = "t9a.join.part-of-unit"
CHARS = "t9a.join.character-units"
FORBIDDEN = "t9a.join.forbidden"
NO_OTHER = "t9a.charge-out.no-other-charges"
RALLY = "published.t9a-rally"
APART = "t9a.join.moved-separately"
SHAMAN = "WS3 BS3 S3 T4 W2 I2 A1 Ld7 Sv6+ Adv4 Mar8"


def _lone_hero(phase: str, active: str, hero_at: tuple[float, float] = (42, 27), **kw: Any) -> dict[str, Any]:
    """The Spearmen at (36, 20), their Hero apart at ``hero_at`` (a Wizard Adept with a bow and Lightning Bolt), the
    orcs at (36, 34) facing them with a Shaman (Lightning Bolt) beside them; six Magic Dice a side."""
    data = scenario(n=10, orcs=5, phase=phase, active=active, enemy_y=34, joined=False, hero_at=hero_at,
                    hero_weapons=["bow"], extra={"magic_dice": {"orcs": 6, "elves": 6}}, **kw)
    hero = data["sides"]["elves"][1]
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Lightning Bolt"]
    data["sides"]["orcs"].append({"id": "shaman", "character": "independent", "rules": ["Wizard Adept"],
                                  "spells": ["Lightning Bolt"],
                                  "models": [{"name": "Shaman", "profile": SHAMAN, "base": [25, 25], "at": [46, 37],
                                              "facing": 180}]})
    return data


def _with_mage(data: dict[str, Any], at: tuple[float, float] | None = None, joined: str | None = None,
               status: list[str] | None = None) -> dict[str, Any]:
    """``data`` with a second elf character, the Mage (the Hero's profile), standing at ``at`` or joined to a unit."""
    mage: dict[str, Any] = {"id": "mage", "character": "independent", "status": status or [],
                            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]}
    if joined:
        mage["joined"] = joined
    else:
        mage["models"][0]["at"] = list(at or (24, 20))
    data["sides"]["elves"].append(mage)
    return data


# -- 1. a lone Hero charged: a unit of one, the charge's target ------------------------------------------------------------
@pytest.mark.rule(LONE, PART, "published.t9a-charge")
def test_a_lone_hero_is_charged_as_a_unit_of_one_and_a_joined_one_is_not() -> None:
    # The orcs (Advance 4") face a lone Hero 9.55" off with the wheel that brings their front onto his (26 degrees,
    # 2.23"): a character on his own is a unit of a single model (t9a.char.lone), charged like any unit, and the
    # ruling and its event say so; 4" + 2D6 reaches him on 6 or more: 26/36, counted, equal to the engine's exact odds
    # and brute force (he Holds: no bow). Joined to the Spearmen he is no target (t9a.join.part-of-unit), and
    # legal_actions offers a charge at him only when he stands alone. Played after a save and load, undone.
    data = _lone_hero("charge", "orcs")
    data["sides"]["elves"][1]["models"][0]["weapons"] = []
    g = reloading_game(data)
    action = {"do": "charge", "unit": "orcs", "target": "hero", "reaction": "hold"}
    ruling = g.check(action)
    assert ruling.legal and LONE in ruling.rules, ruling
    assert {"do": "charge", "unit": "orcs", "target": "hero"} in offered(g, "charge")
    ends: dict[str, Fraction] = {}
    for outcome, weight in exact_odds_as_brute_force(g.state, action):
        end = "charged" if outcome.gained("hero", "engaged") else "failed"
        ends[end] = ends.get(end, Fraction(0)) + Fraction(weight)
    count = sum(Fraction(1, 36) for a, b in product(range(1, 7), repeat=2) if a + b >= 6)
    assert ends == {"charged": count, "failed": 1 - count} and count == Fraction(26, 36), ends
    g = saved_and_loaded(g)
    before = g.state
    events = g.apply(action, ScriptedDice([3, 3]))
    assert LONE in events[0].rules and g.state.unit("hero").has(Status.ENGAGED), events
    g.undo()
    assert g.state == before
    joined = reloading_game(scenario(n=10, orcs=5, phase="charge", active="orcs", enemy_y=30))
    refused = joined.check({"do": "charge", "unit": "orcs", "target": "hero"})
    assert not refused.legal and PART in refused.rules and LONE not in refused.rules, refused
    assert all(a["target"] != "hero" for a in offered(joined, "charge"))


# -- 2. a lone Hero acts as a unit of one: his charge, his shot, his spell, his Rally --------------------------------------
_OWN_ACTS = {
    "charge": ("charge", {}, {"do": "charge", "unit": "hero", "target": "orcs"}),
    "shoot": ("shooting", {}, {"do": "shoot", "unit": "hero", "target": "orcs"}),
    "cast": ("magic", {}, {"do": "cast", "unit": "hero", "spell": "Lightning Bolt", "target": "orcs", "dice": 2}),
    "rally": ("charge", {"hero_status": ["fleeing"], "hero_at": (20, 14)}, {"do": "rally", "unit": "hero"}),
}


@pytest.mark.rule(LONE)
@pytest.mark.parametrize("kind", sorted(_OWN_ACTS))
def test_a_lone_hero_charges_shoots_casts_and_rallies_as_a_unit_of_one(kind: str) -> None:
    # Seed 002: "a character on its own acts as a single-model unit and follows all the rules for units". His move
    # says so (t9a.char.lone) and so does every shot or spell at him; what he does himself as that unit (a charge on
    # his own Charge Range, a shot with his own bow, a spell from his own Front Arc, a Rally on his own Discipline)
    # is ruled under the same clause, in the ruling and in the event. Each is offered by legal_actions, played, undone.
    phase, kw, action = _OWN_ACTS[kind]
    g = reloading_game(_lone_hero(phase, "elves", **kw))
    ruling = g.check(action)
    assert ruling.legal and LONE in ruling.rules, ruling
    assert any(a["unit"] == "hero" and a.get("target") == action.get("target") for a in offered(g, action["do"]))
    before = g.state
    events = g.apply(action, ScriptedDice([4] * 12))
    assert LONE in events[0].rules, events
    g.undo()
    assert g.state == before


# -- 3. a Lightning Bolt at a lone Hero, and at the Hero in his unit --------------------------------------------------------
@pytest.mark.rule(LONE, PART, "published.t9a-magic", "published.t9a-spell-types")
def test_a_lightning_bolt_at_a_lone_hero_and_at_the_unit_that_holds_him() -> None:
    # The orc Shaman casts Lightning Bolt (a Missile: his Front Arc and sight). The lone Hero is a unit of one and a
    # target (t9a.char.lone), offered by legal_actions; the spell's odds (the cast on two dice, the hit, the wound,
    # his save) equal brute force, and every wound is his. Joined to the Spearmen he is no target
    # (t9a.join.part-of-unit): legal_actions offers the Bolt at spears only. Played after a save and load, undone.
    g = reloading_game(_lone_hero("magic", "orcs"))
    action = {"do": "cast", "unit": "shaman", "spell": "Lightning Bolt", "target": "hero", "dice": 2}
    ruling = g.check(action)
    assert ruling.legal and LONE in ruling.rules, ruling
    assert ("Lightning Bolt", "hero") in {(a["spell"], a["target"]) for a in offered(g, "cast")}
    weights = exact_odds_as_brute_force(g.state, action)
    assert all(o.wounds("spears") == 0 for o, _ in weights)
    assert sum(Fraction(w) for o, w in weights if o.wounds("hero")) > 0
    g = saved_and_loaded(g)
    before = g.state
    g.apply(action, ScriptedDice([4, 4, 6, 1]))  # cast (8 against 7): one hit; wounded on 6, his save fails on 1
    assert g.state.unit("hero").models[0].wounds_taken >= 1
    g.undo()
    assert g.state == before
    data = _lone_hero("magic", "orcs")
    data["sides"]["elves"][1]["joined"] = "spears"
    del data["sides"]["elves"][1]["models"][0]["at"]
    joined = reloading_game(data)
    refused = joined.check(action)
    assert not refused.legal and PART in refused.rules, refused
    assert {a["target"] for a in offered(joined, "cast")} == {"spears"}


# -- 4. a fleeing lone Hero: no one joins him; he rallies on his own Discipline; then the Mage joins him -----------------
@pytest.mark.rule(FORBIDDEN, LONE, RALLY, CHARS, APART)
def test_a_fleeing_lone_hero_is_joined_by_no_one_rallies_alone_and_is_joined_after() -> None:
    # The elves' Charge phase: the Hero flees on his own; the Mage beside him. A character cannot join a unit that is
    # fleeing (t9a.join.forbidden; the Hero is a unit of one). He rallies on his own Discipline 9 (t9a.char.lone):
    # 2D6 <= 9 on 30/36, counted, equal to the engine's exact odds and brute force. Rallied, he counts as having
    # marched (published.t9a-rally): the Mage joins him in the Movement phase (a unit of characters,
    # t9a.join.character-units), and the ruling says the Hero counts as having marched because he rallied.
    data = _with_mage(scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=40, joined=False,
                               hero_at=(20, 20), hero_status=["fleeing"]), at=(20, 14))
    g = reloading_game(data)
    join = {"do": "join", "character": "mage", "unit": "hero", "rank_choice": "second_rank"}
    failed = _with_mage(scenario(n=10, orcs=5, phase="movement", active="elves", enemy_y=40, joined=False,
                                 hero_at=(20, 20), hero_status=["fleeing", "rally_tested"]), at=(20, 14))
    movement = reloading_game(failed)  # his Rally failed this turn: still fleeing in the Movement phase
    refused = movement.check(join)
    assert not refused.legal and FORBIDDEN in refused.rules, refused
    assert offered(movement, "join") == []
    rally = {"do": "rally", "unit": "hero"}
    assert rally in offered(g, "rally")
    count = sum(Fraction(1, 36) for a, b in product(range(1, 7), repeat=2) if a + b <= 9)
    engine = {o: Fraction(w) for o, w in exact_odds_as_brute_force(g.state, rally)}
    still = sum((w for o, w in engine.items() if o.gained("hero", "rally_tested") and not o.gained("hero", "marched")),
                Fraction(0))
    assert 1 - still == count == Fraction(30, 36), engine
    g.apply(rally, ScriptedDice([4, 5]))
    assert not g.state.unit("hero").has(Status.FLEEING)
    g = saved_and_loaded(g)
    play_to(g, "movement", "elves")
    ruling = g.check(join)
    assert ruling.legal and CHARS in ruling.rules, ruling
    said = " ".join(ruling.notes)
    assert "hero rallied this turn" in said and "on its own move" not in said, ruling
    assert RALLY in ruling.rules, ruling
    before = g.state
    g.apply(join)
    assert g.state.unit("mage").joined == "hero"
    g.undo()
    assert g.state == before


# -- 5. a Hero whose sampled leave is refused is offered one back or aside --------------------------------------------------
@pytest.mark.rule("t9a.leave.when", "t9a.leave.move", "published.t9a-unit-spacing")
def test_a_hero_whose_leave_ahead_is_refused_is_offered_a_leave_back_or_aside() -> None:
    # The orcs stand 5.5" before the Spearmen's front. The Hero's leave straight ahead at his Advance Rate would end
    # within 1" of them (published.t9a-unit-spacing); he may leave any other way, ignoring his unit's models
    # (t9a.leave.move): 5" back (behind the unit) is legal. legal_actions offers a leave (each offered one legal), as
    # it offers the unit its move back (judge round 59); an undo restores the list, a save and load keeps it.
    g = reloading_game(scenario(n=10, orcs=5, phase="movement", active="elves", enemy_y=25.5))
    ahead = g.check({"do": "leave", "character": "hero", "to": [36, 24.61]})
    assert not ahead.legal, ahead
    back = g.check({"do": "leave", "character": "hero", "to": [36, 14.61]})
    assert back.legal and "t9a.leave.move" in back.rules, back
    leaves = offered(g, "leave")
    assert leaves and all(g.check(a).legal for a in leaves), leaves
    assert offered(saved_and_loaded(g), "leave") == leaves
    before = g.state
    g.apply(leaves[0])
    assert g.state.unit("hero").joined is None and offered(g, "leave") == []
    g.undo()
    assert g.state == before and offered(g, "leave") == leaves


# -- 6. the Hero leaves his Spearmen to join the lone Mage; the Spearmen shoot unmoved -------------------------------------
@pytest.mark.rule("t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved", CHARS, "t9a.join.move",
                  "published.t9a-to-hit-shooting")
def test_the_hero_leaves_into_the_lone_mage_and_the_unit_he_left_shoots_unmoved(tmp_path: Path) -> None:
    # A leave into a lone character: the Hero moves out of the Spearmen (ignoring their models, t9a.leave.move) into
    # contact with the Mage 4" off (an Advance), and the two form a unit of characters (t9a.join.character-units), one move
    # (round 38); the Spearmen do not count as having moved (t9a.leave.unit-not-moved), said in the ruling and event.
    # Offered by legal_actions; undone; saved with its record and played back. In the Shooting phase the Spearmen's
    # archer (BS4) hits on 3+ against the orcs 10" off: no -1 for moving (decision, round 61: the clause is applied
    # at the leave, which leaves the unit's statuses as they were; the shot reads the unit's statuses and, as for any
    # unit that did not move, says nothing of moving), while the Hero (BS4 here), who moved, hits on 4+ in the Mage's unit.
    data = _with_mage(scenario(n=10, orcs=5, phase="movement", active="elves", enemy_y=30, hero_weapons=["bow"]),
                      at=(40.5, 20))
    data["sides"]["elves"][0]["models"][0]["weapons"] = ["bow"]
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("BS6", "BS4")
    g = reloading_game(data)
    join = {"do": "join", "character": "hero", "unit": "mage", "rank_choice": "widen", "position": 0}
    assert join in offered(g, "join")
    ruling = g.check(join)
    assert ruling.legal and {CHARS, "t9a.leave.when", "t9a.leave.move", "t9a.leave.unit-not-moved"} <= set(ruling.rules)
    assert "spears does not count as having moved [t9a.leave.unit-not-moved]" in ruling.notes, ruling
    events, back = undone_and_replayed(g, join, tmp_path / "left.yaml")
    assert "spears has not moved" in events[0].message and "t9a.leave.unit-not-moved" in events[0].rules, events
    play_to(back, "shooting", "elves")
    shot = back.check({"do": "shoot", "unit": "spears", "target": "orcs"})
    assert shot.legal and not any("moved" in n for n in shot.notes), shot
    said = back.apply({"do": "shoot", "unit": "spears", "target": "orcs"}, ScriptedDice([3, 1]))[0].message
    assert "3+ to hit" in said and "1 hit" in said, said
    theirs = back.apply({"do": "shoot", "unit": "mage", "target": "orcs"}, ScriptedDice([3]))[0].message
    assert "4+ to hit" in theirs and "0 hits" in theirs, theirs  # the Hero's bow, BS4: 3+, -1 for moving: 4+
    said = json.loads(printed("rules", "t9a.leave.unit-not-moved", "--json"))["result"]
    assert [r["id"] for r in said] == ["t9a.leave.unit-not-moved"] and "applied at the leave" in said[0]["decision"]


# -- 7. the charge out and its limits through the whole turn: undo, save and load, a record played back -----------------
def _judged_exactly(g: Game, tries: list[dict[str, Any]], do: str) -> list[dict[str, Any]]:
    """Every ``do`` action legal_actions offers is legal, and of ``tries`` those check finds legal are offered: return
    the offered ones."""
    given = offered(g, do)
    assert all(g.check(a).legal for a in given), given
    assert [a for a in tries if g.check(a).legal] == [a for a in tries if a in given], given
    return given


@pytest.mark.rule("t9a.charge-out.declare", "t9a.charge-out.own-rate", "t9a.charge-out.success", NO_OTHER,
                  "t9a.leave.when", "published.t9a-spell-types", "published.t9a-who-can-shoot")
def test_the_charge_out_and_its_limits_through_the_turn_with_an_undo_a_save_and_a_record(tmp_path: Path) -> None:
    # The Spearmen hold their Hero and a Mage (a Wizard: Lightning Bolt, Flame Cage). Charge phase: each of the three
    # may declare (offered, as check finds them). The Hero charges out on his own 5" + 2D6 against 10": 30/36,
    # counted, equal to the engine's exact odds and brute force (t9a.charge-out.own-rate). Charged (5 5): neither the
    # unit nor the Mage may declare a charge this player turn (t9a.charge-out.no-other-charges): none offered, each
    # refused citing it; a save and load keeps that; an undo gives all six back. Saved with its record and played
    # back, then: the Movement phase offers the Spearmen a move and the Mage a leave (he has not charged), the Hero
    # nothing (engaged: t9a.leave.when); the Magic phase the Mage's Lightning Bolt at the orcs (a Hex and Missile
    # spell may take an engaged unit) but not his Flame Cage (a Damage spell: units not Engaged in Combat only,
    # published.t9a-spell-types); the Shooting phase nothing at the orcs (engaged); the Melee phase the Hero's fight.
    data = _with_mage(scenario(n=10, orcs=5, phase="charge", active="elves", enemy_y=30,
                               extra={"magic_dice": {"orcs": 6, "elves": 6}}), joined="spears")
    mage = data["sides"]["elves"][2]
    mage["rules"], mage["spells"] = ["Wizard Adept"], ["Lightning Bolt", "Flame Cage"]
    data["sides"]["elves"][0]["models"][0]["weapons"] = ["bow"]
    g = reloading_game(data)
    charges = [{"do": "charge", "unit": u, "target": "orcs", **r} for u in ("spears", "hero", "mage")
               for r in ({}, {"reaction": "flee"})]
    assert _judged_exactly(g, charges, "charge") == charges
    out = {"do": "charge", "unit": "hero", "target": "orcs"}
    count = sum(Fraction(1, 36) for a, b in product(range(1, 7), repeat=2) if 5 + a + b >= 10)
    ends: dict[str, Fraction] = {}
    for outcome, weight in exact_odds_as_brute_force(g.state, out):
        ends[charge_out_end(outcome)] = ends.get(charge_out_end(outcome), Fraction(0)) + Fraction(weight)
    assert ends["charged"] == count == Fraction(30, 36), ends
    start = g.state
    g.apply(out, ScriptedDice([5, 5]))
    assert g.state.unit("hero").has(Status.ENGAGED) and g.state.unit("hero").joined is None
    for game in (g, saved_and_loaded(g)):
        assert _judged_exactly(game, charges, "charge") == []
        for unit in ("spears", "mage"):
            refused = game.check({"do": "charge", "unit": unit, "target": "orcs"})
            assert not refused.legal and NO_OTHER in refused.rules, refused
    g.undo()
    assert g.state == start and offered(g, "charge") == charges
    g.apply(out, ScriptedDice([5, 5]))
    path = tmp_path / "out.yaml"
    g.save(path, record=True)
    g = Game.replay(path)
    play_to(g, "movement", "elves")
    moves = offered(g, "move") + offered(g, "leave")
    assert {a.get("unit") or a.get("character") for a in moves} == {"spears", "mage"}, moves
    assert all(g.check(a).legal for a in moves)
    assert not g.check({"do": "leave", "character": "hero", "to": [30, 25]}).legal
    play_to(g, "magic", "elves")
    casts = [{"do": "cast", "unit": "mage", "spell": s, "target": "orcs", "dice": 2}
             for s in ("Lightning Bolt", "Flame Cage")]
    assert _judged_exactly(g, casts, "cast") == casts[:1]
    cage = g.check(casts[1])
    assert not cage.legal and "published.t9a-spell-types" in cage.rules, cage
    play_to(g, "shooting", "elves")
    assert _judged_exactly(g, [{"do": "shoot", "unit": "spears", "target": "orcs"}], "shoot") == []
    play_to(g, "melee", "elves")
    assert {a["unit"] for a in offered(g, "fight")} == {"hero"}
