"""A judge's cases for 40k 3rd and 4th edition, round 48 (a short round): the character clauses rounds 40-47 touched
least, as sequences in which the state changes around a character - a Captain pinned with his squad that is then
shot away, a retinue whose last model falls, a bike Captain who moved to join a squad on foot and moves on with it,
a joined Captain whose squad is shot away (and a lone one whose screen falls back) before a second unit picks its
target, a Monstrous Creature character once his Tyrant Guard fall, a squad's volley with its Captain's separate dice
(exact odds), a volley of two weapons at a squad with its Captain, a Captain's difficult terrain dice once his squad
is gone, and a Captain left out of coherency by a casualty.

Expected results are derived from the texts (seeds 000 and 001, the catalogue and the decisions of rules.yaml), not
read off the engine; the fractions are counted over the dice in the tests and checked against brute-force
enumeration (every die a branch).

Found wrong (first written as xfail(strict=True) tests, commit 6fe589d):
- 4th edition (40k4.ic.slowest-model, published.movement): a bike Captain who moved 8" of his 12" to join a squad on
  foot could not move with it at all ("Cap has moved 8.00" already this phase: with this 2.00" it would exceed its
  6""), so the squad could not move away from him either; one who moved 2" could go only 4" with the squad. The
  combined unit's speed (its slowest model's 6") was held against what he moved on his own before they were
  together, instead of bounding the move they make together (his own inches count against his own 12").
- both editions (published.wound-allocation, found through 40k3.char.shooting-dice / 40k4.shoot.separate-dice): a
  squad's boltguns and its Captain's heavy bolter, his dice rolled apart, slew three of five Boyz with five unsaved
  wounds. The wounds are shared out before the saves, one a model, so that each is rolled against its save; an
  unsaved boltgun wound on a Boy whom a heavy bolter wound (another save group) slew was lost, unannounced, while
  other Boyz stood: the Boyz slain, counted over the dice, were not brute force's one Boy per unsaved wound.
- both editions, the same fault found while checking the fix (it fails on the tree before it, 6ecf103): lascannons
  and bolters at three Marines (invulnerable 5+) with their Captain - a bolter wound on a Marine a lascannon slew was
  carried onto the Captain as the unit's excess while a Marine stood unhurt.

Fixed (judge round 48), the xfail marks removed: ``Warhammer40k3.move_limits`` (w40k3) gives each member of a moving
unit a ``movement.MoveLimit`` - the move's bound (``combined_allowance``: 4th edition the slowest model's speed) and
its own allowance for the phase - and ``movement.move_left`` what a model may still go (the lesser of the bound and
what its own allowance has left); ``rule_move``'s checks (``_surely_clear``, ``_places_problem``), the sampled moves
of Game.legal_actions and ``rule_embark`` (w40k_special_moves) read it; ``_allowance_refusal`` words a refusal past
the combined speed ("the combined unit moves at the speed of its slowest model", 40k4.ic.slowest-model) apart from
one past a model's own allowance (published.movement, with the slowest-model clause where the two are one).
``w40k_wounds._spares``, asked by ``save_groups`` only when a model took wounds of two save groups, gives each group
the other living models every weapon of it reaches on which its wounds would be saved alike, and ``unsaved_taken``
puts a group's unsaved wounds on them once its own models are slain (``SavesGroup``'s seventh field); the excess
carried onto a joined character is what is left after that.

Decisions: 40k4.ic.slowest-model (amended, said so), published.wound-allocation (amended, said so),
40k3.char.shooting-dice and 40k4.shoot.separate-dice (stated: rolled apart, his wounds are still the volley's). Book
entries (new): 40k4-a-bike-captain-who-moved-to-join-a-squad-moves-on-with-it,
40k4-five-unsaved-wounds-from-a-squad-and-its-captain-slay-five-boyz.

Checked, as it stands (passed as first written):
- 4th edition: a squad that fails a Pinning test goes to ground with its joined Captain; shot away, he is still
  pinned through his next turn (no move, no join, none offered), told when the pin lapses, and joins another squad
  in his next Movement phase after a save and load; undone, he may not leave the pinned squad (40k4.ic.pinned);
- 4th edition: a retinue holds its Captain while one Veteran lives (after a save and load); once the last falls he
  joins a squad (the ruling cites 40k4.char.retinue), may not leave it in the phase he joined (40k4.ic.leave's
  decision) and leaves it in his next Movement phase, after a save and load (he leads no retinue once he joined);
- 3rd edition: the bike Captain moves on with the squad by his own 12" (no slowest-model clause,
  40k3.char.move-as-type), the rulings above alike;
- a joined Captain is no target of his own; once a first unit shot his squad away he is a lone character: 3rd
  edition within 6" of another squad only as the closest target within 12", 4th edition only as the closest target;
  Game.legal_actions offers those shots alone; undone, refused again;
- 3rd edition: a lone Captain whose screen fails its Morale check at once and falls back 12" is more than 6" from
  every other living unit and may be shot from 19";
- 4th edition: a Hive Tyrant among Tyrant Guard may not be picked out; once the Guard are shot away, a unit whose
  closest enemy is a Termagant brood picks him out (Large Targets: no Target Priority test), the wounds his;
- the Captain's shots are an event of their own citing the separate-dice clause, his to-hit and to-wound dice rolled
  before the saves, and he may not fire again at another target once his unit has fired;
- with his squad the Captain's difficult terrain dice are its 2D6 (11/36); once it is shot away he rolls his own:
  3rd edition 2D6 re-rolled (671/1296), 4th 3D6 (91/216), each against brute force;
- a casualty that leaves the joined Captain 3" from his squad does not make him leave it (leaving is his move): no
  target of his own; in his Movement phase the squad may not move on without closing up with him (his coherency
  clause cited), may close up, or he may leave it first.

Considered and left:
- 3rd edition: a lone Captain whose Fleet of Foot run (Shooting phase) or consolidation ends within 2" of a friendly
  squad joins nothing (40k3.ic.movement-phase-only), rightly, but nothing says so, where round 36 has a Movement
  phase move near a unit he may not join say why; words only, left.
- the wounds are still shared out before the saves as the decision plays the owning player's choice (one a model,
  the character one of them, "each will affect a different model"); only the unsaved excess moves on. Where the
  weapons reach different models, a group's spares are taken in the pool's order, so one group may take a model
  another group's wounds could have fallen on (a fixed order for the owning player's choice, as before); left.
- a combined unit moves once a phase (published.movement's decision), so bounding each move by the combined speed
  gives no second 6" to a unit of bikes joined by a character on foot.
- docs/rules.md still counts 86 4th edition rulings (now 88): test_docs does not hold it; left for the docs rebuild.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (EDITIONS, LEAVE, SAME_TARGET, SEPARATE, assert_illegal, assert_legal, brute, game, hero, kinds,
                   messages, model, next_turn_to, offered, saved_and_loaded, scenario, squad)

D6 = range(1, 7)
JOINED = {"40k3": "40k3.ic.join", "40k4": "40k4.ic.join"}
COHERENCY = {"40k3": "40k3.char.coherency", "40k4": "40k4.ic.join"}


def gunners(uid: str, weapon: str, *at: tuple[float, float]) -> dict[str, Any]:
    """A unit of troopers (BS4) each carrying ``weapon``, one at each of ``at``."""
    return {"id": uid, "models": [{**model(f"{uid} {i + 1}", x, y), "weapons": [weapon]}
                                  for i, (x, y) in enumerate(at)]}


def statuses(g: Game, uid: str) -> set[str]:
    return {s.value for s in g.state.unit(uid).status}


# == 1. 4th edition: a Captain pinned with his squad, the squad then shot away ======================================

def pinned_with_his_squad() -> Game:
    """Blue's Shooting phase: red's squad (two Marines) with its Captain joined, a second red squad ``tac2`` 5" behind;
    blue's two lascannons. The judge calls a Pinning test on the squad (a pinning weapon the engine does not play)."""
    tac = squad("tac", 20, 20, n=2)
    cap = hero("cap", 24, 20, joined="tac")
    las = gunners("las", "lascannon", (20, 32), (22, 32))
    return game(scenario("40k4", [tac, cap, squad("tac2", 20, 13, n=3)], [las], phase="shooting", active="blue"))


@pytest.mark.rule("40k4.ic.pinned", "published.pinning", "40k4.ic.join", "40k4.char.no-last-man")
def test_a_captain_pinned_with_his_squad_stays_pinned_once_it_is_shot_away_then_joins_another() -> None:
    """The squad fails its Pinning test on the Captain's Ld 10 (6 + 6): the unit goes to ground, he with it (he is
    part of it, 40k4.ic.join). The lascannons slay both Marines: he is a unit of his own now, but the unit that went
    to ground was his too - he stays pinned through red's next turn (published.pinning: "in its following turn"): no
    move and no join in red's Movement phase, citing published.pinning, and Game.legal_actions offers him none.
    Undone, the squad stands pinned with him and he may not leave it (40k4.ic.pinned). At the end of red's turn he is
    told he is no longer pinned; saved and loaded, in red's next Movement phase he joins tac2."""
    g = pinned_with_his_squad()
    events = g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"},
                     dice=ScriptedDice([6, 6]))
    assert "on Ld 10 (Cap)" in messages(events, "test")[0]
    assert "pinned" in statuses(g, "tac") and "pinned" in statuses(g, "cap")
    pinned = g.state
    g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    shot_away = g.state
    next_turn_to(g, "red", "movement")
    assert_illegal(g, {"do": "move", "unit": "cap", "to": [[24, 17]]}, "published.pinning")
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "tac2", "to": [24, 14.5]}, "published.pinning")
    assert not offered(g, "join") and not [a for a in g.legal_actions() if a.to_json().get("unit") == "cap"]
    # undone to the pinned squad: in red's Movement phase he may not leave it while it is pinned
    h = Game(pinned, ScriptedDice([]))
    next_turn_to(h, "red", "movement")
    assert_illegal(h, {"do": "leave", "character": "cap", "to": [27, 24]}, "40k4.ic.pinned")
    # the pin lapses at the end of red's turn; he joins tac2 in red's next Movement phase
    ends = []
    while (g.state.active, g.state.phase.value) != ("blue", "movement"):
        ends += g.apply({"do": "end_phase"})
    assert any(e.message == "cap is no longer pinned: its pinned turn is over" for e in kinds(ends, "pinned"))
    k = saved_and_loaded(g)
    next_turn_to(k, "red", "movement")
    assert "pinned" not in statuses(k, "cap")
    join = {"do": "join", "character": "cap", "unit": "tac2", "to": [24, 14.5]}
    assert_legal(k, join, "40k4.ic.join")
    k.apply(join)
    assert k.state.unit("cap").joined == "tac2"
    assert Game(shot_away, ScriptedDice([])).state.unit("cap").has(Status.PINNED)


# == 2. 4th edition: a retinue whose last model falls ==============================================================

def captain_with_his_retinue() -> Game:
    """Blue's Shooting phase: red's Captain fielded with his retinue (four Veterans, ``retinue`` on both), a squad of
    red's 4" away; blue's lascannon team ``las`` of one gunner, ``las2`` of three."""
    guard = {"id": "guard", "rules": ["retinue"], "models": [model(f"V{i + 1}", 18 + 2 * i, 20) for i in range(4)]}
    cap = hero("cap", 26, 20, joined="guard", rules=["retinue"])
    blue = [gunners("las", "lascannon", (18, 32)), gunners("las2", "lascannon", (20, 32), (22, 32), (24, 32))]
    return game(scenario("40k4", [guard, cap, squad("tac", 20, 14, n=3)], blue, phase="shooting", active="blue"))


@pytest.mark.rule("40k4.char.retinue", "40k4.ic.join", "40k4.ic.leave", "40k4.char.no-last-man")
def test_a_retinue_holds_its_captain_until_its_last_model_falls_then_he_joins_and_leaves_a_squad() -> None:
    """Seed 001: a character fielded with his retinue "may not leave them and join another unit while they remain
    alive. Should the unit be destroyed, the character may once again move between units." The first lascannon slays
    one Veteran (one model of five: no Morale check): the retinue lives, and in red's Movement phase (that state
    saved and loaded) he may not join the squad, citing 40k4.char.retinue. The three others slay the last three Veterans:
    in red's Movement phase he joins the squad (the ruling cites the retinue rule that freed him); joining ended his
    move, so he does not leave again that phase (40k4.ic.leave's decision). Saved and loaded, in red's next Movement
    phase he leaves the squad: it is no retinue of his (40k4.char.retinue's decision: he leads none once he joins
    during the game)."""
    g = captain_with_his_retinue()
    g.apply({"do": "shoot", "unit": "las", "target": "guard"}, dice=ScriptedDice([6] * 3))
    assert len(g.state.unit("guard").models) == 3
    h = saved_and_loaded(g)
    next_turn_to(h, "red", "movement")
    join = {"do": "join", "character": "cap", "unit": "tac", "to": [25, 16]}
    assert_illegal(h, join, "40k4.char.retinue")
    g.apply({"do": "shoot", "unit": "las2", "target": "guard"}, dice=ScriptedDice([6] * 9))
    assert not g.state.unit("guard").alive and g.state.unit("cap").joined is None
    next_turn_to(g, "red", "movement")
    assert_legal(g, join, "40k4.ic.join", "40k4.char.retinue")
    g.apply(join)
    assert g.state.unit("cap").joined == "tac"
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [29, 18]}, "40k4.ic.leave")
    k = saved_and_loaded(g)
    next_turn_to(k, "red", "movement")
    assert_legal(k, {"do": "leave", "character": "cap", "to": [29, 18]}, "40k4.ic.leave")


# == 3. a bike Captain who moved to join a squad on foot ============================================================

def squad_moves(dy: float, cap: tuple[float, float]) -> dict[str, Any]:
    """The squad (at y 20) moves ``dy``" on, its Captain (joined) to ``cap``."""
    return {"do": "move", "unit": "tac", "to": [[30, 20 + dy], [32, 20 + dy], [34, 20 + dy], list(cap)]}


def joined_by_bike(ruleset: str, start: tuple[float, float], to: tuple[float, float]) -> Game:
    """Red's Movement phase: a Captain on a bike (12") at ``start`` joins a squad on foot (6") of three Marines at
    (30, 20), (32, 20), (34, 20), moving to ``to``."""
    cap = {**hero("cap", *start), "type": "bike"}
    g = game(scenario(ruleset, [cap, squad("tac", 30, 20, n=3)], [squad("boyz", 10, 45, n=2)]))
    if ruleset == "40k4":
        g.apply({"do": "join", "character": "cap", "unit": "tac", "to": list(to)})
    else:  # 3rd edition: he joins by ending his move within 2" (40k3.ic.join)
        g.apply({"do": "move", "unit": "cap", "to": [list(to)]})
    assert g.state.unit("cap").joined == "tac"
    return g


OWN_ALLOWANCE = {"40k3": "40k3.char.move-as-type", "40k4": "published.movement"}


@pytest.mark.rule("40k4.ic.slowest-model", "published.movement", "40k3.char.move-as-type", "40k4.ic.join",
                  "40k3.ic.join")
@EDITIONS
def test_a_bike_captain_who_moved_8_inches_to_join_a_squad_on_foot_moves_on_with_it(ruleset: str) -> None:
    """The bike Captain moves 8" of his 12" (from (32, 10) to (32, 18)) and joins the squad. 4th edition: "the
    combined unit moves ... at the speed of the slowest model while they stay together" - the squad's 6", a bound on
    the move they make together; his 8" were his own bike move, made before they were together, and count against
    his own 12" (published.movement: one allowance a phase, spent across actions). So the squad may move 2" with him
    2" on, and 4" with him 4" on (his 12" spent); a move taking him 5.4" on (13.4" in the phase) is refused, citing
    published.movement. 3rd edition has no slowest-model clause: he moves as a bike (40k3.char.move-as-type), the
    same rulings. The 4" move applied, he has moved 12"; undone, the game is as before."""
    g = joined_by_bike(ruleset, (32, 10), (32, 18))
    start = g.state
    assert_legal(g, squad_moves(2, (32, 20)))
    assert_legal(g, squad_moves(4, (32, 22)))
    error = assert_illegal(g, squad_moves(4, (35, 22.5)), OWN_ALLOWANCE[ruleset])
    assert "12\"" in str(error) and "Cap has moved 8.00\"" in str(error), error
    g.apply(squad_moves(4, (32, 22)))
    assert [m.at for m in g.state.unit("tac").models] == [(30, 24), (32, 24), (34, 24)]
    assert g.state.unit("cap").models[0].at == (32, 22) and g.state.unit("cap").models[0].moved == pytest.approx(12)
    g.undo()
    assert g.state == start


@pytest.mark.rule("40k4.ic.slowest-model", "40k3.char.move-as-type", "40k4.ic.join", "40k3.ic.join")
@EDITIONS
def test_a_bike_captain_who_moved_2_inches_to_join_moves_on_at_the_squads_speed_in_4th_edition(ruleset: str) -> None:
    """The bike Captain moves 2" (from (32, 16) to (32, 18)) and joins the squad, 10" of his 12" left. 4th edition:
    the move they make together is at the squad's speed, 6" (40k4.ic.slowest-model): the squad moving 6" may take him
    6" on, not 6.97" (refused naming him and the clause). 3rd edition: he moves as a bike (40k3.char.move-as-type),
    so 6.97" on is allowed too, the coherency with the squad kept."""
    g = joined_by_bike(ruleset, (32, 16), (32, 18))
    far = squad_moves(6, (33, 24.9))
    if ruleset == "40k4":
        refused = assert_illegal(g, far, "40k4.ic.slowest-model")
        assert "Cap" in refused.reason
    else:
        assert_legal(g, far, "40k3.char.move-as-type")
    assert_legal(g, squad_moves(6, (32, 24)))


# == 4. a joined Captain whose squad is shot away, before a second unit picks its target ============================

def joined_captain_and_a_second_squad(ruleset: str) -> Game:
    """Red's Shooting phase. Blue's squad (two Marines) with its Captain joined at (30, 20), blue's ``tac2`` 5" to his
    side; red's lascannons (``las``) in front of the squad, red's ``near`` 10" below the Captain (he its closest
    enemy), red's ``far`` 18" from him, nearer tac2 than him."""
    tac = squad("tac", 28, 24, n=2)
    cap = hero("cap", 30, 22, joined="tac")
    tac2 = squad("tac2", 36, 20, n=2)
    red = [gunners("las", "lascannon", (26, 34), (28, 34)), gunners("near", "boltgun", (30, 12)),
           gunners("far", "boltgun", (44, 6))]
    return game(scenario(ruleset, red, [tac, cap, tac2], phase="shooting"))


@pytest.mark.rule("40k3.ic.target", "40k4.target.joined", "40k4.target.closest", "40k3.ic.join")
@EDITIONS
def test_a_joined_captain_whose_squad_is_shot_away_may_be_picked_out_by_the_next_unit_as_each_edition_says(
        ruleset: str) -> None:
    """While joined he is no target of his own (40k3.ic.target with 40k3.ic.join; 40k4.target.joined). The
    lascannons slay both Marines: he is a lone character now. 3rd edition: within 6" of tac2 (a living unit of his
    side), so only as the closest target within 12": ``near`` (10" away, he its closest) may pick him out, ``far``
    (18" away) may not. 4th edition: only as the closest target: ``near`` may, ``far``, nearer tac2, may not. Undone,
    he is joined again and refused to both."""
    g = joined_captain_and_a_second_squad(ruleset)
    start = g.state
    joined_rule = {"40k3": "40k3.ic.target", "40k4": "40k4.target.joined"}[ruleset]
    closest_rule = {"40k3": "40k3.ic.target", "40k4": "40k4.target.closest"}[ruleset]
    assert_illegal(g, {"do": "shoot", "unit": "near", "target": "cap"}, joined_rule)
    g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("tac").alive and g.state.unit("cap").alive and g.state.unit("cap").joined is None
    assert_legal(g, {"do": "shoot", "unit": "near", "target": "cap"}, closest_rule)
    assert_illegal(g, {"do": "shoot", "unit": "far", "target": "cap"}, closest_rule)
    assert ("near", "cap") in offered(g, "shoot") and ("far", "cap") not in offered(g, "shoot")
    g.undo()
    assert g.state == start
    error = assert_illegal(g, {"do": "shoot", "unit": "near", "target": "cap"}, joined_rule)
    if ruleset == "40k3":
        assert "40k3.ic.join" in error.rules


# == 5. 3rd edition: a lone Captain whose screen falls back mid-phase =============================================

@pytest.mark.rule("40k3.ic.target", "published.morale-casualties", "published.fall-back")
def test_40k3_a_lone_captain_is_a_target_once_the_squad_beside_him_falls_back_out_of_6_inches() -> None:
    """3rd edition takes the Morale check at once. The lone Captain stands 3" from his squad (the screen) and 19" from
    red's ``b``: within 6" of another living unit and not the closest target within 12", he may not be shot. The
    lascannon slays one Marine of four (a quarter): the screen fails its check (6 + 6) and falls back 12" straight
    away from the lascannon, ending more than 6" from him. Still living, but no longer within 6": he may now be shot
    by ``b`` from 19" away (40k3.ic.target: "more than 6" from another living unit")."""
    cap = hero("cap", 30, 20)
    screen = {"id": "screen", "models": [model(f"S{i + 1}", 30 + 2 * i, 16) for i in range(4)]}
    red = [gunners("las", "lascannon", (10, 16)), gunners("b", "boltgun", (28, 40), (30, 40))]
    g = game(scenario("40k3", red, [cap, screen], phase="shooting"))
    shot = {"do": "shoot", "unit": "b", "target": "cap"}
    assert_illegal(g, shot, "40k3.ic.target")
    events = g.apply({"do": "shoot", "unit": "las", "target": "screen"}, dice=ScriptedDice([6] * 6))
    assert kinds(events, "fall_back") and g.state.unit("screen").has(Status.FALLING_BACK)
    assert min(m.at[0] for m in g.state.unit("screen").models) > 40
    ruling = g.check(shot)
    assert ruling.legal and "more than 6\" from every other living unit" in ruling.reason, ruling
    assert_legal(g, shot, "40k3.ic.target")


# == 6. 4th edition: a Monstrous Creature character once his Tyrant Guard fall ======================================

GANT = "WS3 BS3 S3 T3 W1 I4 A1 Ld{ld} Sv6+"


@pytest.mark.rule("40k4.target.monstrous", "40k4.target.joined", "published.target-priority",
                  "40k4.char.no-last-man")
def test_40k4_a_hive_tyrant_among_tyrant_guard_is_picked_out_once_the_guard_are_shot_away() -> None:
    """The Hive Tyrant (a Monstrous Creature character) has joined his Tyrant Guard: they protect him, he may not be
    picked out (40k4.target.monstrous, 40k4.target.joined). The lascannons in front of the Guard slay both: alone
    now, "Characters that are Monstrous Creatures can always be picked out as separate targets" - the Devastators,
    whose closest enemy is a brood of Termagants, may shoot him all the same; a Large Target declared, the gants (no
    Large Target) are not closer (published.target-priority's decision): no Target Priority test. The wounds are his.
    Undone, the Guard protect him again."""
    guard = {"id": "guard", "rules": ["tyrant_guard"],
             "models": [model(f"TG{i + 1}", 28 + 2 * i, 24, 5, GANT) for i in range(2)]}
    tyrant = {"id": "tyrant", "type": "monstrous_creature", "character": "independent", "joined": "guard",
              "models": [{"name": "Hive Tyrant", "profile": "WS5 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+", "base": 60,
                          "at": [30, 27.5]}]}
    gants = {"id": "gants", "models": [model(f"g{i + 1}", 40 + 2 * i, 14, 5, GANT) for i in range(3)]}
    red = [gunners("las", "lascannon", (28, 19), (30, 19)), gunners("dev", "lascannon", (40, 8), (42, 8))]
    g = game(scenario("40k4", red, [guard, tyrant, gants], phase="shooting"))
    pick = {"do": "shoot", "unit": "dev", "target": "tyrant"}
    assert_illegal(g, pick, "40k4.target.monstrous")
    events = g.apply({"do": "shoot", "unit": "las", "target": "guard"}, dice=ScriptedDice([6] * 6))
    assert not kinds(events, "target_priority") and not g.state.unit("guard").alive
    before = g.state
    assert_legal(g, pick, "40k4.target.monstrous")
    events = g.apply(pick, dice=ScriptedDice([6] * 6))
    assert not kinds(events, "target_priority")
    assert g.state.unit("tyrant").models[0].wounds_taken == 2 and len(g.state.unit("gants").models) == 3
    g.undo()
    assert g.state == before
    g.undo()
    assert_illegal(g, pick, "40k4.target.monstrous")


# == 7. a squad's volley with its Captain's separate dice (exact odds) ==============================================

BOY_4 = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv4+"


def volley(ruleset: str) -> Game:
    """Red's Shooting phase: two Marines (BS4, boltguns) with their Captain (BS5, heavy bolter) joined, 9" from five
    Fearless Boyz with a 4+ save (no Morale check to roll)."""
    tac = gunners("tac", "boltgun", (20, 20), (22, 20))
    cap = hero("cap", 24, 20, joined="tac")
    cap["models"][0]["weapons"] = ["heavy bolter"]
    boyz = {"id": "boyz", "rules": ["fearless"], "models": [model(f"B{i + 1}", 18 + 2 * i, 29, 7, BOY_4)
                                                            for i in range(5)]}
    return game(scenario(ruleset, [tac, cap], [boyz], phase="shooting"))


def shot_kills(bs: int, strength: int, toughness: int, ap: int | None, save: int) -> Fraction:
    """The chance one shot slays a one-Wound model, counted over its to-hit, to-wound and save dice."""
    hit_on = 7 - bs
    diff = strength - toughness
    wound_on = 2 if diff >= 2 else 3 if diff == 1 else 4 if diff == 0 else 5 if diff == -1 else 6
    saves = ap is None or ap > save
    ways = sum(1 for h, w, s in itertools.product(D6, D6, D6)
               if h >= hit_on and w >= wound_on and not (saves and s >= save))
    return Fraction(ways, 216)


def kills_odds() -> dict[int, Fraction]:
    """Four boltgun shots (rapid fire, 9" away, unmoved: two each) at 1/6, three heavy bolter shots at 5/9 (S5 on T4
    wounds on 3+, AP4 takes the 4+ save away); every casualty is a Boy, at most five."""
    bolt = shot_kills(4, 4, 4, 5, 4)
    heavy = shot_kills(5, 5, 4, 4, 4)
    assert (bolt, heavy) == (Fraction(1, 6), Fraction(5, 9))
    odds: dict[int, Fraction] = {}
    for outcome in itertools.product([0, 1], repeat=7):
        p = Fraction(1)
        for i, k in enumerate(outcome):
            q = bolt if i < 4 else heavy
            p *= q if k else 1 - q
        n = min(5, sum(outcome))
        odds[n] = odds.get(n, Fraction(0)) + p
    return odds


@pytest.mark.rule("40k3.char.shooting-dice", "40k4.shoot.separate-dice", "40k4.shoot.same-target",
                  "published.shooting")
@EDITIONS
def test_a_squads_volley_with_its_captains_heavy_bolter_rolled_apart_exact_odds_then_no_second_target(
        ruleset: str) -> None:
    """The Captain's BS and weapon differ from the squad's: his dice are rolled apart (40k3.char.shooting-dice,
    40k4.shoot.separate-dice), at the squad's target. The Boyz slain, counted over the dice, equal brute force. With
    the dice 3, 3, 3, 3 / 4, 4, 4, 4 (boltguns: four hits, four wounds), 5, 5, 5 / 3, 3, 3 (heavy bolter: three hits,
    three wounds, no save) and 6, 6, 1, 1 (two of the boltguns' four saves made): the Marines' and his shots are two
    events, his citing the separate-dice clause (his to-hit and to-wound dice rolled before the saves), and five
    unsaved wounds slay all five Boyz ("for each wound that is not saved, one model is removed", whichever weapon
    caused it). Then the Captain may not fire at
    another target: his unit has shot (published.shooting; 4th edition 40k4.shoot.same-target)."""
    g = volley(ruleset)
    action = {"do": "shoot", "unit": "tac", "target": "boyz"}
    assert brute(g.state, action, lambda p: 5 - len(p.state.unit("boyz").models)) == kills_odds()
    events = g.apply(action, dice=ScriptedDice([3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 3, 3, 3, 6, 6, 1, 1]))
    shots = kinds(events, "shots")
    assert len(shots) == 2 and shots[1].message.startswith("Cap fires 3 shots with heavy bolter"), shots
    assert SEPARATE[ruleset] in shots[1].rules and shots[1].rolls[0].faces == (5, 5, 5)
    assert not g.state.unit("boyz").alive
    assert_illegal(g, {"do": "shoot", "unit": "cap", "target": "boyz"}, SAME_TARGET[ruleset])


MARINE_INV = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+ Inv5+"


@pytest.mark.rule("published.wound-allocation", "40k3.char.shooting-dice", "40k4.shoot.separate-dice",
                  "40k4.char.no-last-man", "40k3.ic.no-last-man")
@EDITIONS
def test_lascannons_and_bolters_slay_the_three_marines_before_any_wound_falls_on_their_captain(ruleset: str) -> None:
    """Blue's two lascannons and three bolters fire at red's three Marines (3+, invulnerable 5+) with their Captain
    joined, 20" away: five hits, five wounds, one a model, the Captain one of them (4th ed., Removing casualties:
    "each will affect a different model"; published.wound-allocation's decision), then M1 a second. The lascannon
    wounds (AP2: the 5+ invulnerable save) on M1 and M2: 1 and 6, one unsaved; the bolter wounds (3+) on M3 and M1:
    1 and 1, both unsaved; the Captain's own: 6, saved. Three unsaved wounds on the squad: one Marine each, all three
    slain - the unit's unsaved wounds fall on its joined character only once its own models are all slain (the
    decision of session 32), and none is left to fall on him: he keeps both Wounds, a unit of his own now (no Last
    Man Standing)."""
    tac = {"id": "tac", "models": [model(f"M{i + 1}", 20 + 2 * i, 20, 8, MARINE_INV) for i in range(3)]}
    cap = hero("cap", 26, 20, joined="tac")
    dev = {"id": "dev", "models": [{**model(f"D{i + 1}", 20 + 2 * i, 40), "weapons": ["lascannon"]} for i in range(2)]
           + [{**model(f"B{i + 1}", 24 + 2 * i, 40), "weapons": ["bolter"]} for i in range(3)]}
    g = game(scenario(ruleset, [tac, cap], [dev], phase="shooting", active="blue"))
    events = g.apply({"do": "shoot", "unit": "dev", "target": "tac"},
                     dice=ScriptedDice([6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 6, 1, 1, 6]))
    assert messages(events, "saves") == ["2 models: 2 wounds, 1 saved, 1 unsaved",
                                         "2 models: 2 wounds, 0 saved, 2 unsaved", "Cap: 1 wound, 1 saved, 0 unsaved"]
    assert messages(events, "casualties") == ["slain: M1, M2, M3"]
    assert not g.state.unit("tac").alive and g.state.unit("cap").models[0].wounds_taken == 0


# == 8. a Captain's difficult terrain dice once his squad is gone ==================================================

WOODS = [{"id": "woods", "kind": "difficult", "polygon": [[26, 20], [40, 20], [40, 40], [26, 40]]}]


def highest_reaches(n: int, need: int, reroll_below: int) -> Fraction:
    """The chance the highest of ``n`` D6 is at least ``need``, each die below ``reroll_below`` re-rolled once."""
    ways = 0
    for first in itertools.product(D6, repeat=n):
        again_at = [i for i, f in enumerate(first) if f < reroll_below]
        for again in itertools.product(D6, repeat=len(again_at)):
            faces = list(first)
            for i, f in zip(again_at, again):
                faces[i] = f
            ways += 6 ** (n - len(again_at)) * (max(faces) >= need)
    return Fraction(ways, 6 ** (2 * n))


@pytest.mark.rule("40k3.ic.move-through-cover", "40k4.char.move-through-cover", "40k4.ic.rules-not-shared",
                  "40k3.ic.no-unit-abilities", "published.difficult-terrain")
@EDITIONS
def test_a_captain_whose_squad_was_shot_away_rolls_his_own_difficult_terrain_dice(ruleset: str) -> None:
    """Red's Captain joined to a squad 2" short of a wood. With the squad, the unit's dice are the squad's (the
    character's advantage is not conferred on it: 40k3.ic.no-unit-abilities' decision, 40k4.ic.rules-not-shared):
    2D6, reaching spots 4" in (6" in all) with 11/36. Blue's lascannons slay the squad; in red's Movement phase the
    Captain alone rolls his own: 3rd edition 2D6 re-rolled (671/1296, 40k3.ic.move-through-cover), 4th edition
    3D6 (91/216, 40k4.char.move-through-cover). Each against brute force."""
    tac = {"id": "tac", "models": [model("M1", 24, 28), model("M2", 24, 32)]}
    cap = hero("cap", 24, 30, joined="tac")
    las = gunners("las", "lascannon", (10, 28), (10, 32))
    g = game(scenario(ruleset, [tac, cap], [las], phase="shooting", active="blue", terrain=WOODS))
    together = Game(g.state, ScriptedDice([]))
    next_turn_to(together, "red", "movement")
    move_all = {"do": "move", "unit": "tac", "to": [[30, 28], [30, 32], [30, 30]]}
    reached = brute(together.state, move_all,
                    lambda p: p.state.unit("cap").models[0].at == (30.0, 30.0), positions=True)
    assert reached[True] == highest_reaches(2, 6, 0) == Fraction(11, 36)
    g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("tac").alive
    next_turn_to(g, "red", "movement")
    alone = {"do": "move", "unit": "cap", "to": [[30, 30]]}
    expected = highest_reaches(2, 6, 6) if ruleset == "40k3" else highest_reaches(3, 6, 0)
    assert expected == {"40k3": Fraction(671, 1296), "40k4": Fraction(91, 216)}[ruleset]
    reached = brute(g.state, alone,
                    lambda p: p.state.unit("cap").models[0].at == (30.0, 30.0), positions=True)
    assert reached[True] == expected
    [rolled] = kinds(g.apply(alone, dice=ScriptedDice([6, 6, 6])), "difficult_terrain")
    assert {"40k3": "40k3.ic.move-through-cover", "40k4": "40k4.char.move-through-cover"}[ruleset] in rolled.rules


# == 9. a Captain left out of coherency by a casualty ===============================================================

@pytest.mark.rule("40k3.char.coherency", "40k4.ic.join", "published.coherency", "40k3.ic.leave", "40k4.ic.leave",
                  "40k3.ic.target", "40k4.target.joined")
@EDITIONS
def test_a_captain_left_out_of_coherency_by_a_casualty_is_still_joined_and_must_close_up_or_leave(
        ruleset: str) -> None:
    """Five Marines in a line with their Captain at the end, 2" on. Blue's lascannon slays the Marine beside him (the
    nearest to it): he stands 3" (edge to edge) from the squad. Casualties do not move him: he left nobody (leaving is
    a move of his, 40k3.ic.leave, 40k4.ic.leave), so he is still part of the squad and no target of his own. In red's
    Movement phase the squad must move back into coherency with him (he "must obey the usual Coherency rules": a move
    that keeps him apart is refused citing 40k3.char.coherency / 40k4.ic.join); a move closing up with him is allowed;
    instead he may leave it, after which the squad moves on its own."""
    tac = {"id": "tac", "models": [model(f"M{i + 1}", 16 + 2 * i, 20) for i in range(5)]}
    cap = hero("cap", 26, 20, joined="tac")
    blue = [gunners("las", "lascannon", (24, 32)), gunners("b", "boltgun", (30, 30))]
    g = game(scenario(ruleset, [tac, cap], blue, phase="shooting", active="blue"))
    events = g.apply({"do": "shoot", "unit": "las", "target": "tac"}, dice=ScriptedDice([6] * 6))
    assert messages(events, "casualties") == ["slain: M5"]
    assert g.state.unit("cap").joined == "tac"
    assert_illegal(g, {"do": "shoot", "unit": "b", "target": "cap"},
                   {"40k3": "40k3.ic.target", "40k4": "40k4.target.joined"}[ruleset])
    next_turn_to(g, "red", "movement")
    apart = {"do": "move", "unit": "tac", "to": [[17, 20], [19, 20], [21, 20], [23, 20]]}
    error = assert_illegal(g, apart, COHERENCY[ruleset])
    assert "published.coherency" in error.rules
    closing = {"do": "move", "unit": "tac", "to": [[18, 20], [20, 20], [22, 20], [24, 20], [26, 20]]}
    assert_legal(g, closing)
    leave = {"do": "leave", "character": "cap", "to": [26, 17]}
    assert_legal(g, leave, LEAVE[ruleset])
    g.apply(leave)
    assert g.state.unit("cap").joined is None
    assert_legal(g, apart)
