"""Rulings that hold across a sequence of play: the state changes around a character (40k3, 40k4).

Each test plays several actions through ``Game`` and checks what a judge would rule after
each: move allowances spent across actions, joining by ending any move near a unit,
statuses that hold a character whatever action tries to move it, a retinue destroyed
under its leader, and the unit a psyker fires with.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        g.apply({"do": "end_phase"})


@pytest.mark.rule("40k4.ic.join", "40k4.ic.slowest-model")
def test_40k4_a_character_who_moved_to_join_has_only_the_rest_of_his_allowance_to_move_with_the_unit() -> None:
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 16)]))
    g.apply({"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]})  # 4" of his 6"
    assert g.state.unit("cap").joined == "squad" and g.state.unit("cap").models[0].moved == pytest.approx(4)
    # the squad moves 6" north; the Captain with it would make 10" in the phase
    too_far = {"do": "move", "unit": "squad", "to": [[20, 4], [22, 4], [24, 4], [20, 6]]}
    refused = assert_illegal(g, too_far, "40k4.ic.slowest-model")
    assert "one move allowance a phase" in refused.reason
    # the Captain may go the 2" he has left
    g.apply({"do": "move", "unit": "squad", "to": [[20, 8], [22, 8], [24, 8], [20, 10]]})
    squad_moved = [m.moved for m in g.state.unit("squad").models]
    assert squad_moved == pytest.approx([2, 2, 2]) and g.state.unit("cap").models[0].moved == pytest.approx(6)
    # a new phase gives every model its allowance back
    end_phases(g, 1)
    assert g.state.unit("cap").models[0].moved == 0


@pytest.mark.rule("40k3.ic.join", "40k3.char.move-as-type")
def test_40k3_a_character_who_joined_by_moving_cannot_then_move_his_whole_allowance_with_the_unit() -> None:
    g = game(scenario("40k3", [squad("squad", 20, 10), hero("cap", 20, 17)]))
    events = g.apply({"do": "move", "unit": "cap", "to": [[20, 12]]})  # 5": ends within 2" and joins
    assert g.state.unit("cap").joined == "squad" and any("40k3.ic.join" in e.rules for e in events)
    # the squad keeps its own 6" (by its own type); the Captain has 1" left
    assert_illegal(g, {"do": "move", "unit": "squad", "to": [[20, 15.5], [22, 15.5], [24, 15.5], [20, 14]]},
                   "40k3.char.move-as-type")
    assert_legal(g, {"do": "move", "unit": "squad", "to": [[20, 15.5], [22, 15.5], [24, 15.5], [20, 13]]})


@pytest.mark.rule("40k3.ic.join", "40k3.ic.leave")
def test_40k3_a_character_who_leaves_one_squad_and_ends_near_another_joins_it() -> None:
    red = [squad("tac", 20, 10), squad("dev", 20, 18), hero("lib", 22, 11.5, joined="tac")]
    g = game(scenario("40k3", red))
    leave = {"do": "leave", "character": "lib", "to": [22, 16.5]}  # > 2" from tac, 0.5" from dev's edge
    ruling = g.check(leave)
    assert ruling.legal and any("joins it [40k3.ic.join]" in n and "dev" in n for n in ruling.notes)
    events = g.apply(leave)
    assert g.state.unit("lib").joined == "dev"
    assert any(e.kind == "join" and "40k3.ic.join" in e.rules for e in events)
    # a unit of the Devastators now: he cannot be picked out, and moves with them
    end_phases(g, 1)
    assert g.state.unit("lib").joined == "dev"


@pytest.mark.rule("40k4.ic.join", "40k4.ic.leave")
def test_40k4_a_character_who_leaves_and_ends_near_another_squad_is_alone_until_he_declares_a_join() -> None:
    red = [squad("tac", 20, 10), squad("dev", 20, 18), hero("lib", 22, 11.5, joined="tac")]
    g = game(scenario("40k4", red))
    g.apply({"do": "leave", "character": "lib", "to": [22, 16.5]})
    assert g.state.unit("lib").joined is None


@pytest.mark.rule("40k3.ic.falling-back", "40k4.ic.falling-back", "40k4.ic.pinned")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_character_held_in_a_falling_back_or_pinned_unit_cannot_get_out_by_any_action(ruleset: str) -> None:
    held = {"40k3": "40k3.ic.falling-back", "40k4": "40k4.ic.falling-back"}[ruleset]
    red = [squad("tac", 20, 10, status=["falling_back"]), squad("dev", 20, 18),
           hero("lib", 22, 11.5, joined="tac", status=["falling_back"])]
    g = game(scenario(ruleset, red))
    assert_illegal(g, {"do": "leave", "character": "lib", "to": [22, 15]}, held)
    assert_illegal(g, {"do": "join", "character": "lib", "unit": "dev", "to": [22, 16.5]}, held)
    assert_illegal(g, {"do": "move", "unit": "lib", "to": [[22, 15]]}, "published.fall-back")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 8], [22, 8], [24, 8], [22, 9.5]]},
                   "published.fall-back")
    if ruleset == "40k4":
        red = [squad("tac", 20, 10, status=["pinned"]), squad("dev", 20, 18),
               hero("lib", 22, 11.5, joined="tac", status=["pinned"])]
        g = game(scenario(ruleset, red))
        assert_illegal(g, {"do": "leave", "character": "lib", "to": [22, 15]}, "40k4.ic.pinned")
        assert_illegal(g, {"do": "join", "character": "lib", "unit": "dev", "to": [22, 16.5]}, "40k4.ic.pinned")


@pytest.mark.rule("40k3.ic.join")
def test_a_lone_character_falling_back_or_pinned_cannot_join_or_move() -> None:
    for status, rule in (("falling_back", "published.fall-back"), ("pinned", "published.pinning")):
        g = game(scenario("40k3", [squad("tac", 20, 10), hero("cap", 20, 16, status=[status])]))
        assert_illegal(g, {"do": "join", "character": "cap", "unit": "tac", "to": [20, 12]}, rule)
        assert_illegal(g, {"do": "move", "unit": "cap", "to": [[20, 12]]}, rule)


def retinue_game() -> Game:
    """Blue's shooting phase: a Lascannon team 20" from the Inquisitor's one-model retinue."""
    red = [{"id": "retinue", "rules": ["retinue"], "models": [model("Acolyte", 30, 20)]},
           hero("inq", 31.5, 20, joined="retinue", rules=["retinue"]),
           squad("tac", 32, 16)]
    las = {"id": "las", "models": [{**model("Gunner", 30, 40), "weapons": ["lascannon"]}]}
    return game(scenario("40k4", red, [las], phase="shooting", active="blue"))


@pytest.mark.rule("40k4.char.retinue", "40k4.target.closest", "40k4.char.no-last-man")
def test_40k4_a_retinue_destroyed_frees_its_leader_for_good() -> None:
    g = retinue_game()
    assert not g.ruleset.targets(g.state, "las")["inq"].legal
    events = g.apply({"do": "shoot", "unit": "las", "target": "retinue"}, dice=ScriptedDice([6, 6]))
    assert not g.state.unit("retinue").alive
    inq = g.state.unit("inq")
    assert inq.alive and inq.joined is None  # a unit of his own at once
    assert any(e.kind == "last_man" and "40k4.char.no-last-man" in e.rules for e in events)
    # targetable now under the character rules: the closest target to the Lascannon
    ruling = g.ruleset.targets(g.state, "las")["inq"]
    assert ruling.legal and "40k4.target.closest" in ruling.rules
    end_phases(g, 2)  # blue's assault, then red's movement phase
    assert g.state.active == "red" and g.state.phase.value == "movement"
    assert_legal(g, {"do": "join", "character": "inq", "unit": "tac", "to": [32, 18]}, "40k4.ic.join")
    g.apply({"do": "join", "character": "inq", "unit": "tac", "to": [32, 18]})
    end_phases(g, 6)  # red's next movement phase
    # the Tactical squad is not his retinue: he may leave it
    assert_legal(g, {"do": "leave", "character": "inq", "to": [32, 23]}, "40k4.ic.leave")


#: The clause a psychic shooting attack cites in each edition (4th: its rulebook's Psychic Powers).
AS_SHOOTING = {"40k3": "40k3.psyker.as-shooting", "40k4": "published.40k4-psychic-shooting"}


@pytest.mark.rule("40k3.psyker.as-shooting", "40k4.shoot.same-target")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_joined_psyker_and_his_unit_fire_at_one_target(ruleset: str) -> None:
    tac = squad("tac", 20, 10)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    lib = hero("lib", 22, 11.5, joined="tac", rules=["psyker"])
    blue = [squad("boyz", 18, 24), squad("grots", 30, 24)]
    g = game(scenario(ruleset, [tac, lib], blue, phase="shooting"))
    smite = {"do": "manifest", "psyker": "lib", "power": "smite", "target": "boyz"}
    assert_legal(g, smite, AS_SHOOTING[ruleset])
    g.apply(smite, dice=ScriptedDice([3, 3] + [1] * 12))
    same_target = "40k4.shoot.same-target" if ruleset == "40k4" else "published.shooting"
    refused = assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "grots"}, same_target)
    assert "same target" in refused.reason
    assert_legal(g, {"do": "shoot", "unit": "tac", "target": "boyz"})
    # the other way round: the unit fires first, and the psyker has fired with it
    g = game(scenario(ruleset, [tac, lib], blue, phase="shooting"))
    g.apply({"do": "shoot", "unit": "tac", "target": "grots"}, dice=ScriptedDice([1] * 12))
    assert_illegal(g, smite, AS_SHOOTING[ruleset])




@pytest.mark.rule("40k4.cc.separate-unit", "40k3.ic.no-last-man", "40k4.char.no-last-man")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_character_who_survives_his_squad_in_close_combat_takes_the_losers_morale_check(ruleset: str) -> None:
    from herohammer.dice import SeededDice

    gap = 25 / 25.4
    boy = "WS4 BS2 S4 T4 W1 I5 A4 Ld7 Sv6+"  # strike first, and hard
    red = [{"id": "sq", "status": ["locked"], "models": [model("M1", 20, 20)]},
           {**hero("chap", 22, 20, joined="sq"), "status": ["locked"]}]
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [model("B1", 20, 20 + gap, profile=boy), model("B2", 22, 20 + gap, profile=boy),
                        model("B3", 24, 20 + gap, profile=boy)]}]
    g = game(scenario(ruleset, red, blue, phase="assault"))
    seen = 0
    for seed in range(60):
        events = g.apply({"do": "fight", "unit": "boyz"}, dice=SeededDice(seed))
        chap, sq = g.state.unit("chap"), g.state.unit("sq")
        lost = any(e.kind == "combat_result" and "red loses" in e.message for e in events)
        if not sq.alive and chap.alive and lost:
            seen += 1
            assert chap.joined is None  # a unit of his own at once
            morale = [e for e in events if e.kind == "morale"]
            assert morale and morale[0].message.startswith("chap"), events
            assert not any(e.message.startswith("chap") and "Last Man Standing check" in e.message for e in events)
        g.undo()
    assert seen


@pytest.mark.rule("40k3.char.attack-allocation", "core.zero.w")
def test_empty_or_impossible_actions_are_refused_naming_the_field_and_change_nothing() -> None:
    gap = 25 / 25.4
    red = [{"id": "sq", "status": ["locked"], "models": [model("M1", 20, 20)]},
           {**hero("chap", 22, 20, joined="sq"), "status": ["locked"]}]
    blue = [{"id": "boyz", "status": ["locked"], "models": [model("B1", 20, 20 + gap), model("B2", 22, 20 + gap)]}]
    g = game(scenario("40k3", red, blue, phase="assault"))
    refused = assert_illegal(g, {"do": "allocate", "character": "chap", "attacks": {}}, "40k3.char.attack-allocation")
    assert "field attacks" in refused.reason
    # a unit wiped out cannot shoot, nor be asked for its targets
    dead = {"id": "gone", "destroyed": True, "models": []}
    g = game(scenario("40k4", [squad("tac", 20, 10), dead], [squad("boyz", 20, 30)], phase="shooting"))
    assert_illegal(g, {"do": "shoot", "unit": "gone", "target": "boyz"}, "core.zero.w")
    assert all(not r.legal and "core.zero.w" in r.rules for r in g.ruleset.targets(g.state, "gone").values())
    # coordinates off the table are refused for every action that moves a model
    g = game(scenario("40k3", [squad("tac", 20, 10), hero("cap", 20, 16)]))
    for action in ({"do": "move", "unit": "cap", "to": [[-3, 16]]},
                   {"do": "join", "character": "cap", "unit": "tac", "to": [20, 48.5]}):
        assert not g.check(action).legal and "off the table" in g.check(action).reason


@pytest.mark.rule("40k4.cc.engaged-only", "40k3.char.allocation-b2b-only")
def test_40k4_a_characters_attacks_hurt_only_the_enemy_models_engaged_with_him() -> None:
    from herohammer.dice import SeededDice

    gap = 25 / 25.4
    idle = "WS4 BS4 S4 T4 W1 I4 A- Ld8 Sv3+"  # no attacks: only the Chaplain strikes
    red = [{"id": "sq", "status": ["locked"], "models": [model("M1", 20, 20, profile=idle),
                                                         model("M2", 22, 20, profile=idle)]},
           {**hero("chap", 24, 20, joined="sq"), "status": ["locked"]}]
    red[1]["models"][0]["profile"] = "WS6 BS5 S6 T4 W2 I5 A6 Ld10 Sv3+"
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [model(f"B{i + 1}", 20 + 2 * i, 20 + gap, profile="WS1 BS2 S3 T3 W1 I2 A- Ld7 Sv-")
                        for i in range(3)],
             "rules": ["fearless"]}]  # only B3 touches the Chaplain; Fearless: no Sweeping Advance takes the rest
    most: dict[str, int] = {}
    for ruleset in ("40k3", "40k4"):
        g = game(scenario(ruleset, red, blue, phase="assault"))
        most[ruleset] = 0
        for seed in range(12):
            g.apply({"do": "fight", "unit": "sq"}, dice=SeededDice(seed))
            most[ruleset] = max(most[ruleset], 3 - len(g.state.unit("boyz").models))
            g.undo()
    assert most["40k4"] == 1  # B3 only, however many wounds he causes
    assert most["40k3"] >= 2  # 3rd edition: wounds go on through the unit unless he splits his attacks


SWAMP = [{"id": "swamp", "kind": "dangerous", "polygon": [[18, 14], [40, 14], [40, 30], [18, 30]]}]


@pytest.mark.rule("40k4.char.move-through-cover", "40k4.ic.rules-not-shared", "published.skilled-rider")
def test_40k4_a_character_on_a_bike_rerolls_dangerous_terrain_but_does_not_lend_it_to_his_bikers() -> None:
    # alone: a bike is not slowed by difficult terrain (4th ed. Bikes, published.difficult-terrain: no roll for it),
    # and its test is re-rolled on a 1
    g = game(scenario("40k4", [hero("cap", 20, 10, type="bike")], terrain=SWAMP))
    events = g.apply({"do": "move", "unit": "cap", "to": [[20, 16]]}, dice=ScriptedDice([1, 4]))
    test = [e for e in events if e.kind == "dangerous_terrain"][0]
    assert "0 failed" in test.message and "40k4.char.move-through-cover" in test.rules
    assert "published.skilled-rider" in test.rules and g.state.unit("cap").models[0].wounds_taken == 0
    # both dice 1: a wound, no armour save
    g.undo()
    g.apply({"do": "move", "unit": "cap", "to": [[20, 16]]}, dice=ScriptedDice([1, 1]))
    assert g.state.unit("cap").models[0].wounds_taken == 1
    # with a squad of bikers (no Skilled Rider): their tests are not re-rolled, his are
    bikers = squad("bikers", 20, 10, n=2, type="bike")
    data = scenario("40k4", [bikers, hero("cap", 21, 8.5, joined="bikers", type="bike")], terrain=SWAMP)
    g = game(data)
    events = g.apply({"do": "move", "unit": "bikers", "to": [[20, 16], [22, 16], [21, 14.5]]},
                     dice=ScriptedDice([1, 6, 1, 5]))
    tests = {e.message.split(":")[0]: e for e in events if e.kind == "dangerous_terrain"}
    assert "1 failed" in tests["bikers"].message and "re-rolled" not in tests["bikers"].message
    assert "0 failed" in tests["cap"].message and "re-rolled" in tests["cap"].message
    assert len(g.state.unit("bikers").models) == 1


@pytest.mark.rule("40k3.char.move-as-type", "published.skilled-rider")
def test_40k3_a_character_on_a_bike_has_no_skilled_rider_unless_his_profile_gives_it() -> None:
    g = game(scenario("40k3", [hero("cap", 20, 10, type="bike")], terrain=SWAMP))  # unslowed: the test's die only
    # judge round 51: an independent character re-rolls his test's die (40k3.ic.move-through-cover, "any dice roll
    # when moving through difficult terrain"), which is no Skilled Rider: a 1 and a 1 again still wound him
    events = g.apply({"do": "move", "unit": "cap", "to": [[20, 16]]}, dice=ScriptedDice([1, 1]))
    test = [e for e in events if e.kind == "dangerous_terrain"][0]
    assert "1 failed" in test.message and g.state.unit("cap").models[0].wounds_taken == 1
    assert "published.skilled-rider" not in test.rules and "40k3.ic.move-through-cover" in test.rules, test
    g = game(scenario("40k3", [hero("cap", 20, 10, type="bike", rules=["Skilled Rider"])], terrain=SWAMP))
    g.apply({"do": "move", "unit": "cap", "to": [[20, 16]]}, dice=ScriptedDice([1, 4]))
    assert g.state.unit("cap").models[0].wounds_taken == 0
