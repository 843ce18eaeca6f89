"""A judge's cases for 40k 3rd and 4th edition, twenty-seventh round: who may aim close combat attacks at whom around
characters, multiple combats with a lone character, and characters who follow the rules of their troop type (seed 001:
"Characters follow rules for models of their type"; 3rd edition: 40k3.char.move-as-type).

Found wrong (each first written as an xfail(strict=True, raises=AssertionError) test; nothing under src/ changed then):
- 4th edition: a Boy in base contact with a Captain and a Marine of his squad may not allocate its attacks against
  the Captain when the two share WS and S (3rd edition's troopers' rule applied to 4th; 40k4.cc.engaged-only);
- 3rd edition: whether a trooper may split its attacks is judged over the whole unit's opponents, not its own
  (40k3.char.attack-allocation);
- 4th edition: a trooper that fights only for standing within 2" of a friend in base contact strikes a lone enemy
  character nobody near him touches, and a Boy supporting a friend who touches only a joined Captain strikes the
  Captain's squad (40k4.cc.engaged-only, multiple combats);
- the Assault phase may end with a close combat left unfought (published.close-combat);
- 4th edition bikes: a bike Captain who fired his bolter may not charge, and after moving fires it not at all beyond
  12" (rulebook p. 81);
- 4th edition Monstrous Creatures: a Hive Tyrant's close combat wounds allow armour saves, he fires one weapon, and he
  does not re-roll difficult terrain (rulebook p. 83); a cavalry Captain may not use Fleet (p. 86);
- 3rd edition: a squad that moved and fired its bolters may not charge with its Captain (cc_1: only a unit that stood
  still to fire heavy or rapid fire weapons may not); a cavalry Captain who rolls a 1 entering difficult terrain loses
  one Wound instead of being removed (3rd edition Cavalry);
- 4th edition: no Target Priority test (on the joined Captain's Leadership) to shoot past the closest enemy (p. 31);
- 4th edition multiple combats: a lone Warboss failing his check beside failing Boyz is let go unswept because he
  tested before the Boyz did (p. 58).

Fixed since, every xfail mark removed (session 27): the allocation and supporting-trooper cases (fix27a:
trooper_may_split, _supported_units), the Monstrous Creatures' three clauses (published.monstrous-creatures), the bike
Captain's charge and full-range shot (published.bikes), the cavalry Captain's run (published.beasts-and-cavalry) and the
3rd edition cavalry Captain removed on a 1 (published.difficult-terrain) (fix27b); the 3rd edition assault after moving
and firing (fire_bars_assault), Target Priority (published.target-priority), every combat fought before the Assault
phase ends, and every loser of a multiple combat checking before any Sweeping Advance.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites; the other tests guard what the
engine rules right around the same states.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, messages, model, scenario, squad

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
#: a Captain with a trooper's WS4 and S4 (a Veteran Sergeant taken as an independent character, say)
PLAIN_CAP = "WS4 BS4 S4 T4 W2 I4 A2 Ld9 Sv3+"
CAP = "WS5 BS5 S4 T4 W2 I5 A2 Ld9 Sv3+"
ALLOC = {"40k3": "40k3.char.attack-allocation", "40k4": "40k4.cc.engaged-only"}
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
#: how far north of the midpoint of two bases 1.9" apart a 25mm base stands touching both
NESTLED = math.sqrt(BASE_25 ** 2 - 0.95 ** 2) - 0.001


def statuses(g: Game) -> dict[str, set[Status]]:
    return {u.id: set(u.status) for u in g.state.units}


# == 1. a Boy touching a Captain and his squad (4th edition: multiple combats) ====================================
def boy_between(ruleset: str, captain: str) -> Game:
    """Two Marines at (20, 20) and (22, 20) with a Captain joined at (22.98, 20); Boy B1 nestles against Marine 2 and
    the Captain, Boy B2 touches Marine 1 alone. All locked; blue's Assault phase (either side fights and allocates)."""
    red = [squad("tac", 20, 20, n=2, status=["locked"]),
           {"id": "cap", "character": "independent", "joined": "tac", "status": ["locked"],
            "models": [model("Cap", 22 + BASE_25, 20, 9, captain)]}]
    dy = BASE_25 * math.sqrt(3) / 2
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("B1", 22 + BASE_25 / 2, 20 + dy, 7, ORK), model("B2", 20, 20 + BASE_25, 7, ORK)]}
    return game({**scenario(ruleset, red, [boyz], phase="assault"), "active": "blue"})


@pytest.mark.rule("40k4.cc.engaged-only", "40k4.cc.separate-unit")
def test_40k4_a_boy_touching_the_captain_and_a_marine_of_one_profile_may_attack_the_captain() -> None:
    g = boy_between("40k4", PLAIN_CAP)
    allocate = {"do": "allocate", "character": "boyz", "attacks": {"cap": 2}}
    assert_legal(g, allocate, "40k4.cc.engaged-only")
    g.apply(allocate)
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 40))
    assert any(m.startswith("B1 (split) attacks cap (2)") for m in messages(events, "attacks"))


@pytest.mark.rule("40k4.cc.engaged-only", "40k4.cc.separate-unit")
def test_40k4_a_boy_touching_a_captain_of_higher_weapon_skill_and_a_marine_attacks_the_captain_as_allocated() -> None:
    """The same Boy facing a WS5 Captain: his allocation is accepted and his two attacks go to the Captain alone; B2,
    who touches no Captain, strikes the squad."""
    g = boy_between("40k4", CAP)
    allocate = {"do": "allocate", "character": "boyz", "attacks": {"cap": 2}}
    assert_legal(g, allocate, "40k4.cc.engaged-only")
    g.apply(allocate)
    events = g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([1] * 40))
    attacks = messages(events, "attacks")
    assert any(m.startswith("B1 (split) attacks cap (2)") for m in attacks), attacks
    assert any(m.startswith("boyz attacks tac (2)") for m in attacks), attacks


@pytest.mark.rule("40k3.char.attack-allocation")
def test_40k3_a_boy_touching_a_marine_and_a_captain_of_one_profile_may_not_split_onto_the_captain() -> None:
    """3rd edition (seed 000): ordinary troopers split their attacks only when their opponents differ in WS or S;
    the Captain and the Marine the Boy touches share WS4 and S4, so the allocation is refused, the game unchanged."""
    g = boy_between("40k3", PLAIN_CAP)
    refused = assert_illegal(g, {"do": "allocate", "character": "boyz", "attacks": {"cap": 2}},
                             "40k3.char.attack-allocation")
    assert "differ in WS or S" in str(refused)
    assert_legal(boy_between("40k3", CAP), {"do": "allocate", "character": "boyz", "attacks": {"cap": 2}},
                 "40k3.char.attack-allocation")


# == 2. 3rd edition: a trooper's own opponents decide whether it may split =========================================
def two_boyz_two_fronts(ruleset: str) -> Game:
    """Three Marines 1.9" apart at y=20 (x = 20, 21.9, 23.8) and a WS5 Captain joined at (25.7, 20). Boy B1 nestles
    against Marines 1 and 2 (both WS4 S4); Boy B2 against Marine 3 and the Captain (WS4 and WS5). Blue's Assault
    phase, all locked."""
    tac = {"id": "tac", "status": ["locked"], "models": [model(f"tac {i + 1}", 20 + 1.9 * i, 20) for i in range(3)]}
    cap = {"id": "cap", "character": "independent", "joined": "tac", "status": ["locked"],
           "models": [model("Cap", 25.7, 20, 9, CAP)]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("B1", 20.95, 20 + NESTLED, 7, ORK), model("B2", 24.75, 20 + NESTLED, 7, ORK)]}
    return game({**scenario(ruleset, [tac, cap], [boyz], phase="assault"), "active": "blue"})


@pytest.mark.rule("40k3.char.attack-allocation")
def test_40k3_a_boy_whose_own_opponents_share_a_profile_may_not_choose_which_marine_to_strike() -> None:
    g = two_boyz_two_fronts("40k3")
    assert_illegal(g, {"do": "allocate", "character": "boyz", "attacks": {"tac 2": 2}}, "40k3.char.attack-allocation")


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only")
def test_40k3_a_boy_facing_a_marine_and_the_captain_may_split_onto_the_captain() -> None:
    """B2's own opponents differ (Marine 3 WS4, the Captain WS5): his split onto the Captain is accepted; a Marine
    no Boy touches cannot be named at all; and with B2 gone (B1 alone, facing two WS4 S4 Marines) no split is let."""
    g = two_boyz_two_fronts("40k3")
    assert_legal(g, {"do": "allocate", "character": "boyz", "attacks": {"Cap": 1}}, "40k3.char.attack-allocation")
    assert_illegal(g, {"do": "allocate", "character": "boyz", "attacks": {"nobody": 1}},
                   "40k3.char.allocation-b2b-only")
    data = g.to_data()
    data["sides"]["blue"][0]["models"] = data["sides"]["blue"][0]["models"][:1]
    alone = Game.from_data(data)
    assert_illegal(alone, {"do": "allocate", "character": "boyz", "attacks": {"tac 2": 2}},
                   "40k3.char.attack-allocation")


# == 3. 4th edition: a supporting trooper and a lone enemy character =============================================
def warboss_and_boyz(ruleset: str) -> Game:
    """Red's squad: T1 (20, 20) touches a lone Warboss at (20.98, 20); X (20, 21.9) stands within 2" of T1; T2
    (21.9, 23.3) within 2" of X and of T3 but more than 2" from T1; T3 (24.8, 23.3) touches Boy B1 at (25.78, 23.3).
    T2 touches no one; the Warboss (2.44" off) is nearer him than B1 (2.9"). All locked; red's Assault phase; every
    model 1 Attack."""
    tac = {"id": "tac", "status": ["locked"],
           "models": [model("T1", 20, 20), model("X", 20, 21.9), model("T2", 21.9, 23.3), model("T3", 24.8, 23.3)]}
    boss = {"id": "boss", "character": "independent", "status": ["locked"],
            "models": [model("Boss", 20 + BASE_25, 20, 9, "WS5 BS2 S5 T5 W3 I3 A1 Ld9 Sv4+")]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [model("B1", 24.8 + BASE_25, 23.3, 7,
                                                               "WS4 BS2 S3 T4 W1 I2 A1 Ld7 Sv6+")]}
    return game(scenario(ruleset, [tac], [boss, boyz], phase="assault"))


@pytest.mark.rule("40k4.cc.engaged-only", "40k4.cc.separate-unit")
def test_40k4_a_supporting_trooper_strikes_the_unit_his_friend_touches_not_a_lone_character_nearby() -> None:
    g = warboss_and_boyz("40k4")
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40))
    attacks = messages(events, "attacks")
    assert any(m.startswith("tac attacks boyz (2)") for m in attacks), attacks
    assert not any(m.startswith("tac attacks boss (3)") for m in attacks), attacks


@pytest.mark.rule("40k4.cc.engaged-only", "40k3.char.allocation-b2b-only")
@EDITIONS
def test_the_models_in_base_contact_with_a_lone_warboss_and_with_the_boyz_strike_each_their_own(ruleset: str) -> None:
    """T1 touches the Warboss and T3 the Boy: each strikes the enemy he touches. 3rd edition: only those two fight
    (no model fights for being within 2" of a friend); the Warboss's blow falls on T1, whom he touches."""
    g = warboss_and_boyz(ruleset)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40))
    attacks = messages(events, "attacks")
    assert any(m.startswith("tac attacks boyz (") for m in attacks), attacks
    assert any(m.startswith("tac attacks boss (") for m in attacks), attacks
    if ruleset == "40k3":
        assert any(m.startswith("tac attacks boyz (1)") for m in attacks), attacks
        assert any(m.startswith("tac attacks boss (1)") for m in attacks), attacks
    assert any(m.startswith("Boss attacks tac (1)") for m in attacks), attacks


@pytest.mark.rule("40k4.cc.engaged-only", "40k4.cc.locked", "40k4.cc.separate-unit")
def test_40k4_a_boy_supporting_a_friend_who_touches_only_the_captain_does_not_strike_the_squad() -> None:
    red = [squad("tac", 20, 20, n=2, status=["locked"]),
           {"id": "cap", "character": "independent", "joined": "tac", "status": ["locked"],
            "models": [model("Cap", 24, 20, 9, CAP)]}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("B1", 24 + BASE_25, 20, 7, ORK), model("B2", 27.5, 20, 7, ORK)]}
    g = game(scenario("40k4", red, [boyz], phase="assault"))
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40))
    attacks = messages(events, "attacks")
    assert any(m.startswith("boyz attacks cap (") for m in attacks), attacks
    assert not any(m.startswith("boyz attacks tac") for m in attacks), attacks

# == 4. a close combat with a Captain in it is fought every Assault phase ==========================================
def captain_locked(ruleset: str) -> Game:
    """Two Marines with their Captain joined, locked with three Boyz; red's Assault phase, nothing fought yet."""
    red = [squad("tac", 20, 20, n=2, status=["locked"]), hero("cap", 21, 18.5, joined="tac", status=["locked"])]
    boyz = {"id": "boyz", "status": ["locked"], "models": [model(f"B{i}", 20 + 2 * i, 20 + BASE_25, 7, ORK)
                                                           for i in range(3)]}
    return game(scenario(ruleset, red, [boyz], phase="assault"))


@pytest.mark.rule("published.close-combat", "40k3.char.must-assault", "40k4.cc.locked")
@EDITIONS
def test_the_assault_phase_does_not_end_with_a_close_combat_left_unfought(ruleset: str) -> None:
    g = captain_locked(ruleset)
    assert_illegal(g, {"do": "end_phase"}, "published.close-combat")


@pytest.mark.rule("published.close-combat", "40k4.cc.locked")
@EDITIONS
def test_once_the_captains_combat_is_fought_the_assault_phase_ends_and_he_is_still_locked(ruleset: str) -> None:
    """Fought (no blow lands), the combat is a draw; the phase then ends, the Captain still locked with his squad, and
    in the next Assault phase (blue's) the same combat may be fought again."""
    g = captain_locked(ruleset)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([1] * 40))
    assert messages(events, "combat_result")[-1].endswith("a draw")
    assert_legal(g, {"do": "end_phase"})
    g.apply({"do": "end_phase"})
    assert Status.LOCKED in statuses(g)["cap"] and Status.LOCKED in statuses(g)["tac"]
    while g.state.phase.value != "assault":
        g.apply({"do": "end_phase"})
    assert g.state.active == "blue"
    assert_legal(g, {"do": "fight", "unit": "boyz"}, "published.close-combat")


# == 5. 4th edition: a character follows the rules of his type (seed 001) - a Captain on a bike ======================
def bike_captain(boyz_y: float) -> Game:
    """4th edition, red's Movement phase: a Captain on a bike (an independent character of type bike) carrying his
    bike's bolter (Rapid Fire) at (20, 14); three Boyz at y = ``boyz_y``."""
    cap = {**hero("cap", 20, 14), "type": "bike"}
    cap["models"] = [{**cap["models"][0], "weapons": ["bolter"]}]
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, boyz_y, 7, ORK) for i in range(3)]}
    return game(scenario("40k4", [cap], [boyz]))


def ride_and_shoot(g: Game) -> list[Any]:
    """Ride 12" north to (20, 26), shoot the Boyz with the bolter (every die a 1), and go on to the Assault phase."""
    g.apply({"do": "move", "unit": "cap", "to": [[20, 26]]})
    g.apply({"do": "end_phase"})
    events = g.apply({"do": "shoot", "unit": "cap", "target": "boyz"}, dice=ScriptedDice([1] * 20))
    g.apply({"do": "end_phase"})
    return events


@pytest.mark.rule("published.assault-after-firing", "40k4.assault.alone", "published.bikes")
def test_40k4_a_captain_on_a_bike_who_fired_his_bolter_may_still_charge() -> None:
    g = bike_captain(32)
    ride_and_shoot(g)
    assert_legal(g, {"do": "assault", "unit": "cap", "target": "boyz"}, "40k4.assault.alone")


@pytest.mark.rule("published.weapon-profiles", "40k4.shoot.separate-dice", "published.bikes")
def test_40k4_a_captain_on_a_bike_fires_his_bolter_once_at_full_range_after_moving() -> None:
    events = ride_and_shoot(bike_captain(40))
    assert messages(events, "shots") == ["Cap fires 1 shot with bolter: 0 hits, 0 wounds"]


@pytest.mark.rule("published.assault-after-firing", "published.weapon-profiles", "40k4.assault.alone")
def test_40k4_a_captain_on_foot_who_fired_his_bolter_may_not_charge_and_fires_twice_at_half_range() -> None:
    """The same Captain on foot (infantry) walks 6" and fires his bolter twice at 5" (half range, after moving): the
    bolter keeps him from charging (published.assault-after-firing)."""
    cap = {**hero("cap", 20, 20), "type": "infantry"}
    cap["models"] = [{**cap["models"][0], "weapons": ["bolter"]}]
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 32, 7, ORK) for i in range(3)]}
    g = game(scenario("40k4", [cap], [boyz]))
    g.apply({"do": "move", "unit": "cap", "to": [[20, 26]]})
    g.apply({"do": "end_phase"})
    events = g.apply({"do": "shoot", "unit": "cap", "target": "boyz"}, dice=ScriptedDice([1] * 20))
    assert messages(events, "shots") == ["Cap fires 2 shots with bolter: 0 hits, 0 wounds"]
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "assault", "unit": "cap", "target": "boyz"}, "published.assault-after-firing")


# == 6. 4th edition: a Monstrous Creature character follows the Monstrous Creatures' rules ========================
TYRANT = "WS5 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+"


def hive_tyrant(weapons: list[str], **extra: Any) -> dict[str, Any]:
    """A Hive Tyrant: an independent character of type monstrous_creature on a 60mm base at (20, 21.67)."""
    return {"id": "ty", "type": "monstrous_creature", "character": "independent", **extra,
            "models": [{**model("Tyrant", 20, 20 + BASE_25 / 2 + 60 / 25.4 / 2, 10, TYRANT), "base": 60,
                        "weapons": weapons}]}


@pytest.mark.rule("40k4.cc.engaged-only", "published.saves", "published.monstrous-creatures")
def test_40k4_a_hive_tyrants_close_combat_wounds_allow_no_armour_save() -> None:
    g = game(scenario("40k4", [squad("tac", 20, 20, n=1, status=["locked"])],
                      [hive_tyrant([], status=["locked"])], phase="assault"))
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6] * 40))
    # every die a 6: three hits, three wounds; the Marine's armour save (a 6) must not be rolled
    assert "slain: tac 1" in messages(events, "casualties"), messages(events, "saves")


@pytest.mark.rule("published.weapon-profiles", "40k4.target.monstrous", "published.monstrous-creatures")
def test_40k4_a_hive_tyrant_fires_both_of_his_guns() -> None:
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 30, 7, ORK) for i in range(3)]}
    g = game(scenario("40k4", [hive_tyrant(["storm bolter", "heavy bolter"])], [boyz], phase="shooting"))
    events = g.apply({"do": "shoot", "unit": "ty", "target": "boyz"}, dice=ScriptedDice([1] * 20))
    assert sorted(messages(events, "shots")) == ["Tyrant fires 2 shots with storm bolter: 0 hits, 0 wounds",
                                                 "Tyrant fires 3 shots with heavy bolter: 0 hits, 0 wounds"]


@pytest.mark.rule("40k4.char.move-through-cover", "published.difficult-terrain", "published.monstrous-creatures")
def test_40k4_a_hive_tyrant_re_rolls_his_difficult_terrain_dice() -> None:
    woods = {"id": "woods", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 32], [10, 32]]}
    g = game(scenario("40k4", [hive_tyrant([])], terrain=[woods]))
    move = {"do": "move", "unit": "ty", "to": [[20, 26.67]]}
    assert_legal(g, move, "published.movement")
    g.apply(move, dice=ScriptedDice([1, 1, 1, 6, 6, 6]))
    assert g.state.unit("ty").models[0].at == (20.0, 26.67)


# == 7. 4th edition: a character on a horse (cavalry) may use Fleet ================================================
@pytest.mark.rule("published.fleet", "40k4.ic.rules-not-shared", "published.beasts-and-cavalry")
def test_40k4_a_cavalry_captain_may_run_in_the_shooting_phase() -> None:
    cav = {**hero("cap", 20, 20), "type": "cavalry"}
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 40, 7, ORK) for i in range(3)]}
    g = game(scenario("40k4", [cav], [boyz], phase="shooting"))
    assert_legal(g, {"do": "run", "unit": "cap", "to": [[20, 24]]}, "published.fleet")


@pytest.mark.rule("published.fleet", "40k4.ic.rules-lost")
def test_40k4_a_captain_on_foot_without_fleet_may_not_run() -> None:
    """On foot and without Fleet the Captain may not run (published.fleet), in the Shooting phase or any other."""
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 40, 7, ORK) for i in range(3)]}
    g = game(scenario("40k4", [hero("cap", 20, 20)], [boyz], phase="shooting"))
    assert_illegal(g, {"do": "run", "unit": "cap", "to": [[20, 24]]}, "published.fleet")


# == 8. 3rd edition: a squad that moved, fired its bolters and charges with its Captain ===========================
def advancing_squad(ruleset: str, moved: bool) -> Game:
    """Three Marines with bolters and their Captain (bolt pistol) joined, three Boyz 5.5" ahead of where the squad
    ends; red's Movement phase. The squad advances 2" (or stands), fires at the Boyz (every die a 1), and the
    Assault phase begins."""
    cap = hero("cap", 22, 18.5, joined="tac")
    cap["models"] = [{**cap["models"][0], "weapons": ["bolt pistol"]}]
    tac = squad("tac", 20, 20 if moved else 22)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    if not moved:
        cap["models"][0]["at"] = [22, 20.5]
    boyz = {"id": "boyz", "models": [model(f"B{i}", 18 + 2 * i, 27.5, 7, ORK) for i in range(4)]}
    g = game(scenario(ruleset, [tac, cap], [boyz]))
    if moved:
        g.apply({"do": "move", "unit": "tac", "to": [[20, 22], [22, 22], [24, 22], [22, 20.5]]})
    g.apply({"do": "end_phase"})
    g.apply({"do": "shoot", "unit": "tac", "target": "boyz"}, dice=ScriptedDice([1] * 20))
    g.apply({"do": "end_phase"})
    return g


@pytest.mark.rule("published.assault-after-firing", "40k3.char.must-assault")
def test_40k3_a_squad_that_moved_and_fired_its_bolters_may_charge_with_its_captain() -> None:
    assert_legal(advancing_squad("40k3", moved=True), {"do": "assault", "unit": "tac", "target": "boyz"},
                 "40k3.char.must-assault")


@pytest.mark.rule("published.assault-after-firing", "40k3.char.must-assault", "40k4.assault.must-charge")
@pytest.mark.parametrize("ruleset, moved", [("40k3", False), ("40k4", False), ("40k4", True)])
def test_a_squad_that_fired_its_bolters_standing_or_in_4th_edition_may_not_charge(ruleset: str, moved: bool) -> None:
    """3rd edition: a squad that stood still to fire its bolters may not assault; 4th edition: a squad that fired its
    Rapid Fire weapons may not, moved or not; nor may its Captain alone (he charges with it or not at all)."""
    g = advancing_squad(ruleset, moved)
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.assault-after-firing")
    assert_illegal(g, {"do": "assault", "unit": "cap", "target": "boyz"},
                   "40k3.char.must-assault" if ruleset == "40k3" else "40k4.assault.must-charge")


# == 9. 3rd edition: a character on a horse moves by the cavalry rules (40k3.char.move-as-type) ===================
@pytest.mark.rule("40k3.char.move-as-type", "published.difficult-terrain")
def test_40k3_a_cavalry_captain_who_rolls_a_1_entering_a_wood_is_removed() -> None:
    woods = {"id": "woods", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 32], [10, 32]]}
    g = game(scenario("40k3", [{**hero("cap", 20, 20), "type": "cavalry"}], terrain=[woods]))
    move = {"do": "move", "unit": "cap", "to": [[20, 26]]}
    assert_legal(g, move, "40k3.char.move-as-type")
    g.apply(move, dice=ScriptedDice([1] * 6))
    assert not g.state.unit("cap").alive


@pytest.mark.rule("40k3.char.move-as-type", "40k3.ic.move-through-cover")
def test_40k3_a_cavalry_captain_who_rolls_a_2_rides_through_the_wood_unharmed() -> None:
    """The same ride with a 2: nothing happens, and cavalry are not slowed: he ends where he was sent."""
    woods = {"id": "woods", "kind": "difficult", "polygon": [[10, 24], [40, 24], [40, 32], [10, 32]]}
    g = game(scenario("40k3", [{**hero("cap", 20, 20), "type": "cavalry"}], terrain=[woods]))
    g.apply({"do": "move", "unit": "cap", "to": [[20, 26]]}, dice=ScriptedDice([2] * 6))
    cap = g.state.unit("cap").models[0]
    assert (cap.at, cap.wounds_taken) == ((20.0, 26.0), 0)


# == 10. guards: states that change around a character, ruled right ===============================================
@pytest.mark.rule("published.regroup", "40k3.ic.falling-back", "40k4.ic.falling-back", "40k3.char.leadership",
                  "40k4.char.leadership")
@EDITIONS
def test_a_captain_whose_squad_regroups_on_his_leadership_may_not_leave_it_that_phase(ruleset: str) -> None:
    """A falling back squad (Ld 8) with its Captain (Ld 10): the Regroup test is on his Ld 10; regrouped, the squad
    moves no further that phase and he may not leave it either; failed, both fall back again together."""
    red = [squad("tac", 20, 20, status=["falling_back"]), hero("cap", 26, 20, joined="tac", status=["falling_back"])]
    g = game(scenario(ruleset, red, [squad("boyz", 20, 40)]))
    events = g.apply({"do": "regroup", "unit": "tac"}, dice=ScriptedDice([4, 5]))
    assert "on Ld 10 (Cap)" in messages(events, "regroup")[0]
    leave = assert_illegal(g, {"do": "leave", "character": "cap", "to": [29.5, 20]}, "published.regroup")
    assert "nor leave" in str(leave)
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 21], [22, 21], [24, 21], [26, 21]]},
                   "published.regroup")
    failed = game(scenario(ruleset, red, [squad("boyz", 20, 40)]))
    failed.apply({"do": "regroup", "unit": "tac"}, dice=ScriptedDice([6, 6, 3, 3]))
    assert all(Status.FALLING_BACK in failed.state.unit(u).status for u in ("tac", "cap"))
    assert failed.state.unit("cap").models[0].at[1] == failed.state.unit("tac").models[0].at[1]


@pytest.mark.rule("40k3.ic.movement-phase-only", "40k4.ic.movement-phase-only", "published.fall-back")
@EDITIONS
def test_a_captain_may_not_join_a_squad_locked_in_combat_nor_join_anyone_while_he_falls_back(ruleset: str) -> None:
    """A squad locked with Boyz cannot be joined in the Movement phase (joining is never during close combat); a lone
    Captain who is falling back cannot move at will, so he joins no one."""
    rule = "40k3.ic.movement-phase-only" if ruleset == "40k3" else "40k4.ic.movement-phase-only"
    red = [squad("tac", 20, 20, status=["locked"]), hero("cap", 30, 16)]
    boyz = squad("boyz", 20, 20 + BASE_25, status=["locked"])
    g = game(scenario(ruleset, red, [boyz]))
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 19]}, rule)
    fleeing = game(scenario(ruleset, [squad("tac", 20, 20), hero("cap", 28, 20, status=["falling_back"])]))
    assert_illegal(fleeing, {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 20]}, "published.fall-back")


@pytest.mark.rule("published.pinning", "40k4.ic.pinned", "40k4.ic.join")
def test_40k4_a_captain_joins_a_pinned_squad_cannot_make_it_shoot_and_leaves_once_the_pin_is_over() -> None:
    """4th edition: the Captain joins a pinned squad (the seed bars only leaving); the squad may not shoot that turn;
    in red's next Movement phase the pin is over and he may leave."""
    red = [squad("tac", 20, 20, status=["pinned"]), hero("cap", 30, 20)]
    red[0]["models"] = [{**m, "weapons": ["bolter"]} for m in red[0]["models"]]
    g = game(scenario("40k4", red, [squad("boyz", 20, 30)]))
    assert_legal(g, {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 20]}, "40k4.ic.join")
    g.apply({"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 20]})
    g.apply({"do": "end_phase"})
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.pinning")
    while not (g.state.active == "red" and g.state.phase.value == "movement"):
        g.apply({"do": "end_phase"})
    assert Status.PINNED not in g.state.unit("tac").status
    assert_legal(g, {"do": "leave", "character": "cap", "to": [29.5, 20]}, "40k4.ic.leave")


# == 11. 4th edition: Target Priority is a Leadership test, taken on the joined Captain's Leadership ===============
@pytest.mark.rule("40k4.char.leadership", "published.target-priority", "40k4.shoot.same-target")
def test_40k4_a_squad_with_its_captain_tests_target_priority_to_shoot_past_the_closest_unit() -> None:
    tac = squad("tac", 20, 10)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    tac["models"].append({**model("tac 4", 26, 10), "weapons": ["bolter"]})
    cap = hero("cap", 23, 11.5, joined="tac")  # no gun: his Ld 10 is all he brings
    near, far = squad("near", 20, 20, n=4), squad("far", 20, 30, n=4)
    g = game(scenario("40k4", [tac, cap], [near, far], phase="shooting"))
    # Tested: 6 + 6 = 12 against Ld 10 fails; 8 shots at the near squad: 6 hits, 4 wounds, 4 failed saves.
    # (Untested, the same dice fire 4 shots at the far squad: 4 hits, 4 wounds, 4 failed saves.)
    g.apply({"do": "shoot", "unit": "tac", "target": "far"}, dice=ScriptedDice([6] * 8 + [1] * 4 + [6] * 4 + [1] * 10))
    assert len(g.state.unit("far").models) == 4
    assert len(g.state.unit("near").models) < 4


@pytest.mark.rule("40k4.target.closest", "published.shooting")
def test_40k4_a_squad_may_shoot_its_closest_enemy_and_a_lone_captain_beyond_it_is_no_target() -> None:
    """The same squad shoots the nearer squad without question; a lone enemy Captain standing behind the farther
    squad, not the closest target, may not be picked out at all (40k4.target.closest)."""
    tac = squad("tac", 20, 10)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    blue = [squad("near", 20, 20, n=4), squad("far", 20, 30, n=4), hero("boss", 28, 34)]
    g = game(scenario("40k4", [tac], blue, phase="shooting"))
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "near"}, "published.line-of-sight")
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boss"}, "40k4.target.closest")


# == 12. 4th edition multiple combats: every loser tests before any Sweeping Advance ===============================
def boss_and_boyz_lose() -> Game:
    """The squad of section 3 against a lone Warboss (W10, no save) and a Nob (W3, no save) of the Boyz: with every die
    a 6 the Marines cause 4 wounds and save every blow; both losers fail their Morale checks (12)."""
    tac = {"id": "tac", "status": ["locked"],
           "models": [model("T1", 20, 20), model("X", 20, 21.9), model("T2", 21.9, 23.3), model("T3", 24.8, 23.3)]}
    boss = {"id": "boss", "character": "independent", "status": ["locked"],
            "models": [model("Boss", 20 + BASE_25, 20, 9, "WS5 BS2 S5 T5 W10 I3 A1 Ld9")]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("B1", 24.8 + BASE_25, 23.3, 7, "WS4 BS2 S3 T4 W3 I2 A1 Ld7")]}
    return game(scenario("40k4", [tac], [boss, boyz], phase="assault"))


@pytest.mark.rule("40k4.cc.separate-unit", "published.sweeping-advance", "published.combat-resolution")
def test_40k4_a_lone_warboss_who_fails_his_check_beside_failing_boyz_meets_the_sweeping_advance() -> None:
    g = boss_and_boyz_lose()
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6] * 80))
    sweeps = messages(events, "sweeping_advance")
    assert not any(m.startswith("no sweeping advance against boss") for m in sweeps), sweeps
    assert not g.state.unit("boss").alive  # 4 + 6 = 10 against 3 + 6 = 9: caught


@pytest.mark.rule("published.sweeping-advance", "published.combat-resolution")
def test_40k4_the_boyz_who_fail_beside_their_warboss_are_swept_and_destroyed() -> None:
    """The same fight: each loser fails its check at -4, and the Boyz meet the Marines' Sweeping Advance (4 + 6 = 10
    against 2 + 6 = 8) and are destroyed, no save allowed."""
    g = boss_and_boyz_lose()
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6] * 80))
    checks = messages(events, "morale")
    assert sorted(m.split(":")[0] for m in checks) == ["boss lost the combat by 4", "boyz lost the combat by 4"]
    assert all("fails" in m for m in checks)
    assert not g.state.unit("boyz").alive
    assert any(m.startswith("tac makes a sweeping advance against boyz: 4 + 6 = 10 against 2 + 6 = 8")
               for m in messages(events, "sweeping_advance"))
