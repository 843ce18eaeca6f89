"""A judge's cases for 40k 3rd and 4th edition, eighteenth round: terrain in the Assault phase and the tests it asks.

1. An assault move through difficult terrain is slowed as a move is (4th ed., Move Charging Units: "All the models
   in a charging unit make their Assault move subject to the same rules as in the Movement phase"): the highest of
   2D6; 4th edition bikes are not slowed but test, jump infantry are slowed as infantry, cavalry double the die
   (published.assault-terrain).
2. A failed Dangerous Terrain test wounds the model that rolled the 1 (published.dangerous-terrain).
3. A unit that took its Regroup test moves no further that phase, by the regroup's own rule (published.regroup).
4. 3rd edition's cavalry, bikes and jump infantry: unslowed in moves, assaults and fall backs alike (one table).

Each case plays actions through ``Game`` (or the CLI) and asserts what the texts say, with the outcome the rule
forbids beside the one it gives; where dice decide, the exact odds equal brute force.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, model, scenario

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
VETERAN = "WS4 BS4 S4 T4 W2 I4 A1 Ld8 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
WOOD = [{"id": "wood", "kind": "difficult", "polygon": [[10, 21.5], [30, 21.5], [30, 23.5], [10, 23.5]]}]
SWAMP = [{"id": "swamp", "kind": "dangerous", "polygon": [[10, 21.5], [30, 21.5], [30, 23.5], [10, 23.5]]}]
ASSAULT = {"do": "assault", "unit": "squad", "target": "boyz"}


def charge(ruleset: str, kind: str, boyz_y: float = 25.5, terrain: list[dict[str, Any]] | None = None,
           profiles: tuple[str, str] = (MARINE, MARINE)) -> Game:
    """Red's squad of ``kind`` (S1 at x 20, S2 at x 22, y 20) in its Assault phase; the Boyz (two models in line with
    them) at ``boyz_y``; the wood (y 21.5 to 23.5) between them unless ``terrain`` says otherwise."""
    red = [{"id": "squad", "type": kind, "models": [model("S1", 20, 20, 8, profiles[0]),
                                                     model("S2", 22, 20, 8, profiles[1])]}]
    blue = [{"id": "boyz", "models": [model("Boy 1", 20, boyz_y, 7, BOY), model("Boy 2", 22, boyz_y, 7, BOY)]}]
    return game(scenario(ruleset, red, blue, phase="assault", terrain=WOOD if terrain is None else terrain))


def ys(g: Game, uid: str = "squad") -> list[float]:
    return [round(m.at[1], 3) for m in g.state.unit(uid).models]


def terrain_said(events: list[Any]) -> list[str]:
    return [e.message for e in events if e.kind in ("difficult_terrain", "dangerous_terrain")]


CONTACT_Y = round(25.5 - BASE_25, 3)  # where a charger touching a Boy stands


# == 1. the assault move through difficult terrain ================================================================
@pytest.mark.rule("published.assault-terrain", "published.difficult-terrain")
@pytest.mark.parametrize("ruleset,kind", [("40k4", "infantry"), ("40k3", "infantry"), ("40k4", "jump_infantry")])
def test_an_assault_through_a_wood_moves_the_highest_of_2d6(ruleset: str, kind: str) -> None:
    """The chargers are 4.5" from the Boyz, the wood between: the assault is declared (within 6"), then the highest
    of 2D6 is how far they go. A 6 takes them into contact, both locked; a 3 leaves them 3" on, in the wood, short of
    the Boyz: no contact, neither unit locked. Jump infantry "assault 6" like normal infantry. This move is slowed by
    difficult terrain in the same way as other infantry" (4th ed.)."""
    g = charge(ruleset, kind)
    assert_legal(g, ASSAULT, "published.assault-range")
    events = g.apply(ASSAULT, dice=ScriptedDice([6, 1]))
    assert ys(g) == [CONTACT_Y, CONTACT_Y]
    assert terrain_said(events) == ["squad assaults through difficult terrain: rolls 6\""]
    terrain = [e for e in events if e.kind == "difficult_terrain"][0]
    assert terrain.rules == ("published.assault-terrain", "published.difficult-terrain")
    assert "2 models in base contact" in [e.message for e in events if e.kind == "assault"][0]
    assert g.state.unit("squad").has(Status.LOCKED) and g.state.unit("boyz").has(Status.LOCKED)

    g = charge(ruleset, kind)
    events = g.apply(ASSAULT, dice=ScriptedDice([2, 3]))
    assert ys(g) == [23.0, 23.0]
    assert terrain_said(events) == ["squad assaults through difficult terrain: rolls 3\", and its assault move is cut "
                                    "short"]
    assert "0 models in base contact" in [e.message for e in events if e.kind == "assault"][0]
    assert not g.state.unit("boyz").has(Status.LOCKED) and not g.state.unit("squad").has(Status.LOCKED)
    assert g.state.unit("squad").has(Status.ASSAULTED)  # the assault was made: no second one this turn


@pytest.mark.rule("published.assault-terrain")
def test_an_assault_in_the_open_rolls_nothing() -> None:
    """With no terrain on the way no die is rolled: the squad goes straight in (an empty script would fail)."""
    g = charge("40k4", "infantry", terrain=[{"id": "far", "kind": "difficult",
                                             "polygon": [[50, 40], [60, 40], [60, 45], [50, 45]]}])
    events = g.apply(ASSAULT, dice=ScriptedDice([]))
    assert ys(g) == [CONTACT_Y, CONTACT_Y] and not terrain_said(events)


@pytest.mark.rule("published.assault-terrain", "published.move-through-cover")
def test_move_through_cover_rolls_3d6_for_the_assault() -> None:
    """A unit with Move Through Cover rolls an extra die for its assault as for its move: 1, 2, 6 reaches."""
    g = charge("40k4", "infantry")
    data_unit = g.state.unit("squad")
    from herohammer.values import evolve
    g = Game(g.state.replace_units(evolve(data_unit, rules=("Move Through Cover",))), g.dice)
    events = g.apply(ASSAULT, dice=ScriptedDice([1, 2, 6]))
    assert ys(g) == [CONTACT_Y, CONTACT_Y]
    assert [e for e in events if e.kind == "difficult_terrain"][0].rules == ("published.assault-terrain",
                                                                            "published.move-through-cover")


@pytest.mark.rule("published.assault-terrain", "published.dangerous-terrain")
def test_40k4_bikes_assault_through_a_wood_unslowed_each_taking_a_dangerous_terrain_test() -> None:
    """4th ed., Bikes: "Bike assault moves are not slowed down by difficult terrain, However, each model entering or
    moving through difficult terrain must take a Dangerous Terrain test": no roll for the distance; S1 rolls the 1
    and is slain (no armour save), S2 rolls 4 and fights; the Boyz are locked with S2."""
    g = charge("40k4", "bike")
    events = g.apply(ASSAULT, dice=ScriptedDice([1, 4]))
    assert terrain_said(events) == ["squad assaults through difficult terrain unslowed: 2 Dangerous Terrain tests",
                                    "squad: 2 dangerous terrain tests, 1 failed (S1)"]
    assert [m.name for m in g.state.unit("squad").models] == ["S2"] and ys(g) == [CONTACT_Y]
    assert "1 model in base contact" in [e.message for e in events if e.kind == "assault"][0]
    assert g.state.unit("boyz").has(Status.LOCKED)


@pytest.mark.rule("published.assault-terrain", "published.dangerous-terrain")
def test_a_charger_slain_by_its_test_locks_no_one_when_none_is_left_touching() -> None:
    """Both bikers roll a 1: the squad is gone before the combat, and the Boyz are locked with no one."""
    g = charge("40k4", "bike")
    g.apply(ASSAULT, dice=ScriptedDice([1, 1]))
    assert not g.state.unit("squad").models and not g.state.unit("boyz").has(Status.LOCKED)


@pytest.mark.rule("published.assault-terrain", "published.assault-range")
def test_40k4_cavalry_double_the_highest_die_through_a_wood() -> None:
    """4th ed., Beasts & Cavalry: "When charging they move 12". They are slowed by difficult terrain - roll for the
    distance they can move just as you would for infantry, but double the result": the Boyz 9.5" away are reached
    on a 5 (10") but not on a 4 (8")."""
    g = charge("40k4", "cavalry", boyz_y=30.5)
    events = g.apply(ASSAULT, dice=ScriptedDice([5, 1]))
    assert terrain_said(events) == ["squad assaults through difficult terrain: rolls 10\" (the highest die 5 doubled: "
                                    "cavalry)"]
    assert ys(g) == [round(30.5 - BASE_25, 3)] * 2 and g.state.unit("boyz").has(Status.LOCKED)
    g = charge("40k4", "cavalry", boyz_y=30.5)
    g.apply(ASSAULT, dice=ScriptedDice([4, 2]))
    assert ys(g) == [28.0, 28.0] and not g.state.unit("boyz").has(Status.LOCKED)


@pytest.mark.rule("published.assault-terrain", "published.dangerous-terrain")
def test_an_assault_through_a_swamp_rolls_for_the_distance_and_tests_each_model() -> None:
    """Dangerous terrain is difficult terrain that may also harm: the charging squad rolls its 2D6 (6: it reaches)
    and each model passing through takes its test; S2 rolls the 1."""
    g = charge("40k4", "infantry", terrain=SWAMP)
    events = g.apply(ASSAULT, dice=ScriptedDice([6, 2, 5, 1]))
    assert terrain_said(events) == ["squad assaults through difficult terrain: rolls 6\"",
                                    "squad: 2 dangerous terrain tests, 1 failed (S2)"]
    assert [m.name for m in g.state.unit("squad").models] == ["S1"]


@pytest.mark.rule("published.assault-terrain", "published.dangerous-terrain")
@pytest.mark.parametrize("kind", ["infantry", "bike"])
def test_the_exact_odds_of_an_assault_through_terrain_equal_brute_force(kind: str) -> None:
    """Who is left and who is locked after the assault through the wood, by the fast enumeration and by brute force;
    the infantry reach on a highest die of 5 or 6 (4.5" to go): 1 - (4/6)^2 = 5/9."""
    start = charge("40k4", kind).state

    def after(dice: Dice) -> tuple[tuple[str, ...], bool]:
        g = Game(start, dice)
        g.apply(ASSAULT, dice=dice)
        return tuple(m.name for m in g.state.unit("squad").models), g.state.unit("boyz").has(Status.LOCKED)

    fast = enumerate_outcomes(after)
    assert fast == enumerate_outcomes(after, fine=True)
    if kind == "infantry":
        assert dict(fast) == {(("S1", "S2"), True): Fraction(5, 9), (("S1", "S2"), False): Fraction(4, 9)}
    else:  # each biker's own test: the one who rolled the 1 is the one lost
        assert fast[(("S2",), True)] == fast[(("S1",), True)] == Fraction(5, 36)
        assert fast[((), False)] == Fraction(1, 36) and fast[(("S1", "S2"), True)] == Fraction(25, 36)


@pytest.mark.rule("published.assault-terrain")
def test_odds_action_gives_the_chance_of_reaching_through_the_wood(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """`odds action` on the assault through the wood: the Boyz are locked in 5/9 of the outcomes."""
    from herohammer.cli import main
    path = tmp_path / "assault.json"
    red = [{"id": "squad", "type": "infantry", "models": [model("S1", 20, 20, 8, MARINE),
                                                           model("S2", 22, 20, 8, MARINE)]}]
    blue = [{"id": "boyz", "models": [model("Boy 1", 20, 25.5, 7, BOY), model("Boy 2", 22, 25.5, 7, BOY)]}]
    path.write_text(json.dumps(scenario("40k4", red, blue, phase="assault", terrain=WOOD)))
    assert main(["odds", "action", str(path), "--action", json.dumps(ASSAULT), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["result"]["exact"] is True
    assert answer["result"]["rows"]["boyz: locked"] == answer["result"]["rows"]["squad: locked"] == "5/9"


# == 2. a failed Dangerous Terrain test wounds the model that rolled the 1 ========================================
def through_swamp(ruleset: str, profiles: tuple[str, str] = (MARINE, MARINE)) -> Game:
    red = [{"id": "squad", "models": [model("S1", 20, 20, 8, profiles[0]), model("S2", 22, 20, 8, profiles[1])]}]
    return game(scenario(ruleset, red, [{"id": "boyz", "models": [model("Boy", 21, 45, 7, BOY)]}], terrain=SWAMP))


SWAMP_MOVE = {"do": "move", "unit": "squad", "to": [[20, 22.5], [22, 22.5]]}


@pytest.mark.rule("published.dangerous-terrain")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_model_that_rolls_the_1_is_the_one_slain(ruleset: str) -> None:
    """Both marines wade 2.5" into the swamp (the highest of 2D6: 6, 6): S1 rolls 4, S2 rolls 1: S2 is slain, not
    S1, who stood first in the unit."""
    g = through_swamp(ruleset)
    events = g.apply(SWAMP_MOVE, dice=ScriptedDice([6, 6, 4, 1, 3, 3]))  # 3rd: S1 passes Last Man Standing (3, 3)
    assert [m.name for m in g.state.unit("squad").models] == ["S1"]
    assert "squad: 2 dangerous terrain tests, 1 failed (S2)" in terrain_said(events)


@pytest.mark.rule("published.dangerous-terrain")
def test_a_two_wound_veteran_who_rolls_the_1_keeps_his_squadmate_whole() -> None:
    """S1 (two Wounds) rolls the 1: he takes the wound and lives; S2 (one Wound), who passed, is untouched (a
    wound allocated to the squad would have slain S2 first, its model with the fewest Wounds left). Both fail: one
    wound each, S1 lives on one Wound, S2 is slain."""
    g = through_swamp("40k4", (VETERAN, MARINE))
    g.apply(SWAMP_MOVE, dice=ScriptedDice([6, 6, 1, 5]))
    assert [(m.name, m.wounds_taken) for m in g.state.unit("squad").models] == [("S1", 1), ("S2", 0)]
    g = through_swamp("40k4", (VETERAN, MARINE))
    g.apply(SWAMP_MOVE, dice=ScriptedDice([6, 6, 1, 1]))
    assert [(m.name, m.wounds_taken) for m in g.state.unit("squad").models] == [("S1", 1)]


@pytest.mark.rule("published.dangerous-terrain")
def test_the_exact_odds_of_who_the_swamp_takes_equal_brute_force() -> None:
    """Each model's own die: who is left and with how many wounds, fast enumeration against brute force.

    Amended in judge round 54: the 2.5" move is cut to the higher of 2D6, and a 1 (1/36) stops both Marines 0.5"
    short of the swamp, where they take no test (published.dangerous-terrain: only models that move into or through
    it); so each figure is the test's own chance times 35/36 (before, every branch tested)."""
    start = through_swamp("40k4", (VETERAN, MARINE)).state

    def after(dice: Dice) -> tuple[tuple[str, int], ...]:
        g = Game(start, dice)
        g.apply(SWAMP_MOVE, dice=dice)
        return tuple((m.name, m.wounds_taken) for m in g.state.unit("squad").models)

    fast = enumerate_outcomes(after)
    assert fast == enumerate_outcomes(after, fine=True)
    enter = Fraction(35, 36)  # the higher of 2D6 is 2 or more
    assert fast[(("S1", 1),)] == enter * Fraction(1, 36) and fast[(("S1", 0),)] == enter * Fraction(5, 36)
    assert fast[(("S1", 1), ("S2", 0))] == enter * Fraction(5, 36)
    assert fast[(("S1", 0), ("S2", 0))] == enter * Fraction(25, 36) + (1 - enter)


# == 3. after a Regroup test the unit moves no further, by published.regroup ======================================
def falling_squad(ruleset: str) -> Game:
    red = [{"id": "squad", "status": ["falling_back"], "models": [model("S1", 20, 20, 8, MARINE),
                                                                  model("S2", 22, 20, 8, MARINE)]},
           {"id": "cap", "character": "independent", "joined": "squad", "status": ["falling_back"],
            "models": [model("Cap", 21, 21.5, 9, MARINE)]},
           {"id": "others", "models": [model("O1", 40, 20, 8, MARINE)]}]
    return game(scenario(ruleset, red, [{"id": "boyz", "models": [model("Boy", 21, 40, 7, BOY)]}]))


@pytest.mark.rule("published.regroup")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("faces,passed", [([1, 2], True), ([6, 6, 3, 3], False)])
def test_after_its_regroup_test_a_unit_moves_no_further_citing_the_regroup(ruleset: str, faces: list[int],
                                                                          passed: bool) -> None:
    """Passed ("cannot move any further during that Movement phase") or failed (it fell back again, its move for the
    phase): a move of the squad, or its Captain leaving it, is refused by published.regroup, not as a second move
    by published.movement; another unit of the side still moves."""
    g = falling_squad(ruleset)
    g.apply({"do": "regroup", "unit": "squad"}, dice=ScriptedDice(faces))
    assert g.state.unit("squad").has(Status.FALLING_BACK) is not passed
    refused = assert_illegal(g, {"do": "move", "unit": "squad", "to": [[20, 18], [22, 18], [21, 19.5]]},
                             "published.regroup")
    assert "took a Regroup test this phase" in str(refused) and "published.movement" not in refused.rules
    if passed:  # (still falling back, the Captain may not leave at all: 40k3/40k4.ic.falling-back)
        assert_illegal(g, {"do": "leave", "character": "cap", "to": [21, 25]}, "published.regroup")
    assert_legal(g, {"do": "move", "unit": "others", "to": [[40, 22]]})


@pytest.mark.rule("published.assault-terrain")
@pytest.mark.parametrize("ruleset,kind,note", [
    ("40k4", "infantry", "assaults through difficult terrain: the highest of 2D6 must reach 4.52\""),
    ("40k4", "jump_infantry", "assaults through difficult terrain: the highest of 2D6 must reach 4.52\""),
    ("40k4", "bike", "assaults through difficult terrain unslowed: 2 Dangerous Terrain tests"),
    ("40k3", "bike", "assaults through difficult terrain unslowed: 2 Dangerous Terrain tests")])
def test_the_assault_ruling_says_what_the_wood_will_ask(ruleset: str, kind: str, note: str) -> None:
    """A judge asked about the assault hears, before any die, what the wood will ask of it."""
    ruling = charge(ruleset, kind).check(ASSAULT)
    assert ruling.legal and ruling.notes and ruling.notes[0].startswith(note)
    assert "published.assault-terrain" in ruling.notes[0]
    assert not charge(ruleset, kind, terrain=[]).check(ASSAULT).notes  # no wood: nothing to say


# == 4. 3rd edition: cavalry, bikes and jump infantry unslowed in every move (one table) ==========================
@pytest.mark.rule("published.difficult-terrain", "published.assault-terrain", "published.dangerous-terrain")
@pytest.mark.parametrize("kind", ["bike", "jump_infantry", "cavalry"])
def test_40k3_fast_types_assault_through_the_wood_unslowed(kind: str) -> None:
    """3rd edition: no roll for the distance; bikes test each model entering, jump infantry each model ending in the
    wood (none: they end beside the Boyz), cavalry every model of the unit once it enters (its Cavalry page: "roll a
    D6 for each model in the unit")."""
    g = charge("40k3", kind)
    faces = {"bike": [4, 1], "jump_infantry": [], "cavalry": [4, 1]}[kind]
    events = g.apply(ASSAULT, dice=ScriptedDice(faces))
    assert [m.name for m in g.state.unit("squad").models] == (["S1", "S2"] if kind == "jump_infantry" else ["S1"])
    assert ys(g) == [CONTACT_Y] * len(g.state.unit("squad").models) and g.state.unit("boyz").has(Status.LOCKED)
    assert terrain_said(events)[0].startswith("squad assaults through difficult terrain unslowed")


@pytest.mark.rule("published.difficult-terrain", "published.dangerous-terrain")
def test_40k3_cavalry_move_through_the_wood_unslowed_and_every_rider_tests() -> None:
    """3rd edition cavalry (6" move): only S1 rides into the wood, yet both riders test; no 2D6 for the distance.
    4th edition cavalry "move as infantry": they roll, and no one tests."""
    red = [{"id": "squad", "type": "cavalry", "models": [model("S1", 20, 20, 8, MARINE), model("S2", 22, 20, 8, MARINE)]}]
    wood = [{"id": "wood", "kind": "difficult", "polygon": [[18, 21.5], [21, 21.5], [21, 23.5], [18, 23.5]]}]
    move = {"do": "move", "unit": "squad", "to": [[20, 25], [22, 25]]}
    g = game(scenario("40k3", red, [{"id": "boyz", "models": [model("Boy", 21, 45, 7, BOY)]}], terrain=wood))
    assert "2 tests, a 1 removing the model" in g.check(move).notes[0]  # (session 27: the page's accident)
    events = g.apply(move, dice=ScriptedDice([5, 1, 3, 3]))  # S1, the last man, passes Last Man Standing (3, 3)
    assert [m.name for m in g.state.unit("squad").models] == ["S1"] and ys(g) == [25.0]
    assert "squad: 2 tests for cavalry entering difficult terrain, 1 rolled a 1 (S2): an accident, removed" \
        in terrain_said(events)
    g = game(scenario("40k4", red, [{"id": "boyz", "models": [model("Boy", 21, 45, 7, BOY)]}], terrain=wood))
    events = g.apply(move, dice=ScriptedDice([3, 2]))
    assert ys(g) == [23.0, 23.0] and terrain_said(events) == ["squad rolls 3\" for difficult terrain, and stops short"]


@pytest.mark.rule("published.difficult-terrain", "published.dangerous-terrain")
def test_40k3_bikes_cross_the_wood_unslowed_as_in_4th_edition() -> None:
    """3rd edition bikes move their 12" through the wood with no roll, each rider entering it testing."""
    red = [{"id": "squad", "type": "bike", "models": [model("S1", 20, 20, 8, MARINE), model("S2", 22, 20, 8, MARINE)]}]
    g = game(scenario("40k3", red, [{"id": "boyz", "models": [model("Boy", 21, 45, 7, BOY)]}], terrain=WOOD))
    move = {"do": "move", "unit": "squad", "to": [[20, 31], [22, 31]]}
    events = g.apply(move, dice=ScriptedDice([4, 5]))
    assert ys(g) == [31.0, 31.0] and "squad: 2 dangerous terrain tests, 0 failed" in terrain_said(events)


# == 5. a judge's round on what rounds 1-17 did not test ==========================================================
def led_squad(ruleset: str) -> Game:
    """The Tactical squad (three marines at y 20) led by its Captain (joined before this phase), a Chaplain 2.5" off."""
    from _w40k import hero, squad
    red = [squad("tac", 20, 20), hero("cap", 20, 21.5, joined="tac"), hero("chap", 27, 19)]
    return game(scenario(ruleset, red))


JOIN_CHAPLAIN = {"do": "join", "character": "chap", "unit": "tac", "to": [24, 21.5]}


@pytest.mark.rule("40k3.ic.join", "40k4.ic.join", "40k3.char.move-as-type", "40k4.ic.slowest-model")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_second_character_joins_a_squad_already_led_and_moves_with_what_his_join_left(ruleset: str) -> None:
    """Nothing in the seeds bars a second independent character from a unit one already leads: the Chaplain joins
    the Captain's squad (both are with it now). His join spent 3.91" of his 6": the squad's 3" move is refused for
    him (one allowance a phase, its rule cited once), a 2" move is allowed."""
    g = led_squad(ruleset)
    assert_legal(g, JOIN_CHAPLAIN, f"{ruleset}.ic.join")
    g.apply(JOIN_CHAPLAIN)
    assert [u.id for u in g.state.combined("tac")] == ["tac", "cap", "chap"]
    far = {"do": "move", "unit": "tac", "to": [[20, 23], [22, 23], [24, 23], [20, 24.5], [24, 24.5]]}
    refused = assert_illegal(g, far, "40k3.char.move-as-type" if ruleset == "40k3" else "40k4.ic.slowest-model")
    assert len(refused.rules) == len(set(refused.rules)) and "Chap has moved 3.91\" already" in str(refused)
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 22], [22, 22], [24, 22], [20, 23.5], [24, 23.5]]})


@pytest.mark.rule("40k3.ic.leave", "40k4.ic.leave")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_character_may_not_leave_in_the_phase_he_joined_but_the_one_who_led_it_may(ruleset: str) -> None:
    """Joining was the Chaplain's move this phase: leaving again is refused (the game unchanged); the Captain, who
    joined in an earlier phase, may leave."""
    g = led_squad(ruleset)
    g.apply(JOIN_CHAPLAIN)
    refused = assert_illegal(g, {"do": "leave", "character": "chap", "to": [30, 19]}, f"{ruleset}.ic.leave")
    assert "has already moved this phase" in str(refused)
    assert_legal(g, {"do": "leave", "character": "cap", "to": [20, 26]}, f"{ruleset}.ic.leave")


@pytest.mark.rule("40k3.psyker.perils", "published.40k4-perils-of-the-warp")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_perils_of_the_warp_strikes_the_psyker_in_his_unit_and_no_one_else(ruleset: str) -> None:
    """A one-Wound Librarian in the Tactical squad rolls a double 6: Perils of the Warp slays him (3rd: an S6 hit, no
    save; 4th: one wound, no armour save), the squad's marines are untouched, and the squad, no longer led, still
    shoots that phase."""
    from _w40k import gunners, squad
    lib = {"id": "lib", "character": "independent", "joined": "tac", "rules": ["psyker"],
           "models": [model("Lib", 24, 21.5, 10, "WS5 BS5 S4 T4 W1 I5 A3 Ld10 Sv3+")]}
    g = game(scenario(ruleset, [gunners("tac", 20, 20), lib], [squad("boyz", 20, 30)], phase="shooting"))
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                     dice=ScriptedDice([6, 6, 6, 6]))
    perils = [e for e in events if e.kind == "perils"]
    assert perils and perils[0].rules == (("40k3.psyker.perils",) if ruleset == "40k3"
                                          else ("published.40k4-perils-of-the-warp",))
    assert not g.state.unit("lib").alive and [u.id for u in g.state.combined("tac")] == ["tac"]
    assert [m.wounds_taken for m in g.state.unit("tac").models] == [0, 0, 0]
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "boyz"})


@pytest.mark.rule("published.assault-after-shooting", "published.assault-range")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_squad_shot_dead_around_its_captain_leaves_him_to_a_unit_that_did_not_shoot(ruleset: str) -> None:
    """The Devastator shoots the last marine dead around his Captain; in the Assault phase the Captain stands alone.
    The Assault squad that held its fire may assault him. Session 29 changed the written decision: he was part of
    the unit shot at and is what is left of it, so the Devastator is not refused for the target (it was, citing
    published.assault-after-shooting); having fired a bolter (Rapid Fire) it is barred by
    published.assault-after-firing alone, and with a bolt pistol it may assault him."""
    blue = [{"id": "devs", "models": [{**model("Dev", 20, 28, 8), "weapons": ["bolter"]}]},
            {"id": "assault", "models": [model("Ass", 23, 27, 8)]}]
    red = [{"id": "tac", "models": [model("tac 1", 20, 20)]},
           {"id": "cap", "character": "independent", "joined": "tac", "models": [model("Cap", 20, 21.5, 10)]}]
    g = game(scenario(ruleset, blue, red, phase="shooting"))
    g.apply({"do": "shoot", "unit": "devs", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 6]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    refused = assert_illegal(g, {"do": "assault", "unit": "devs", "target": "cap"}, "published.assault-after-firing")
    assert "published.assault-after-shooting" not in refused.rules
    assert_legal(g, {"do": "assault", "unit": "assault", "target": "cap"}, "published.assault-range")
    blue[0]["models"][0]["weapons"] = ["bolt pistol"]
    g = game(scenario(ruleset, blue, red, phase="shooting"))
    g.apply({"do": "shoot", "unit": "devs", "target": "tac"}, dice=ScriptedDice([6, 6, 1]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert_legal(g, {"do": "assault", "unit": "devs", "target": "cap"}, "published.assault-after-shooting")
