"""Special rules with an effect in play, read through ``effective_rules``, and statuses that lapse.

Pinning (published.pinning): a pinned unit may not move, shoot or assault in its following
turn and is free again when that turn ends; an assault frees it at once.  Fly: a unit that
has it (as ``effective_rules`` reads it) passes over other models; a character joined to a
flying unit does not gain it (40k3.ic.no-unit-abilities, 40k4.ic.rules-not-shared).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad
from herohammer.dice import ScriptedDice
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data

RULESETS = ("40k3", "40k4")


def end_phases(g: Game, n: int) -> None:
    for _ in range(n):
        g.apply({"do": "end_phase"})


def pinned_in_blues_turn(ruleset: str) -> Game:
    """Blue's shooting phase; red's squad fails a Pinning test (rolls 12)."""
    red = [squad("tac", 20, 10, n=2)]
    blue = [squad("boyz", 20, 22, n=2)]
    g = game(scenario(ruleset, red, blue, phase="shooting", active="blue"))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    assert "pinned" in {s.value for s in g.state.unit("tac").status}
    return g


@pytest.mark.rule("published.pinning")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_pinned_unit_may_not_move_shoot_or_assault_in_its_next_turn(ruleset: str) -> None:
    g = pinned_in_blues_turn(ruleset)
    end_phases(g, 2)  # blue's shooting and assault phases: red's movement phase
    assert (g.state.active, g.state.phase.value) == ("red", "movement")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]}, "published.pinning")
    end_phases(g, 1)
    assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "boyz"}, "published.pinning")
    end_phases(g, 1)
    assert_illegal(g, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.pinning")
    events = g.apply({"do": "end_phase"})
    assert any("tac is no longer pinned" in e.message and "published.pinning" in e.rules for e in events)
    assert "pinned" not in {s.value for s in g.state.unit("tac").status}
    end_phases(g, 3)  # blue's turn passes: red moves again
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]})


@pytest.mark.rule("published.pinning")
def test_the_pin_does_not_lapse_at_the_end_of_the_enemys_turn() -> None:
    g = pinned_in_blues_turn("40k4")
    end_phases(g, 2)
    assert "pinned" in {s.value for s in g.state.unit("tac").status}


@pytest.mark.rule("published.pinning")
def test_a_unit_pinned_in_its_own_turn_stays_pinned_through_its_following_turn() -> None:
    g = game(scenario("40k3", [squad("tac", 20, 10, n=2)], [squad("boyz", 20, 30, n=2)]))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    end_phases(g, 3)  # red's own turn ends: still pinned for its following turn
    assert "pinned" in {s.value for s in g.state.unit("tac").status}
    end_phases(g, 3)  # blue's turn
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]}, "published.pinning")
    end_phases(g, 3)
    assert not {s.value for s in g.state.unit("tac").status} & {"pinned", "newly_pinned"}


@pytest.mark.rule("published.pinning")
def test_an_assault_frees_a_pinned_unit_at_once() -> None:
    red = [squad("tac", 20, 10, n=2, status=["pinned"])]
    blue = [squad("boyz", 20, 13, n=2)]
    g = game(scenario("40k4", red, blue, phase="assault", active="blue"))
    events = g.apply({"do": "assault", "unit": "boyz", "target": "tac"})
    assert any("no longer pinned" in e.message for e in events)
    assert {s.value for s in g.state.unit("tac").status} == {"locked"}


@pytest.mark.rule("published.pinning", "40k4.ic.pinned")
def test_a_character_in_a_pinned_unit_leaves_once_the_pin_lapses() -> None:
    red = [squad("tac", 20, 10, n=2), hero("cap", 21, 11.5, joined="tac")]
    g = game(scenario("40k4", red, [squad("boyz", 20, 30, n=2)], phase="shooting", active="blue"))
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    end_phases(g, 2)
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, "40k4.ic.pinned")
    end_phases(g, 6)
    assert_legal(g, {"do": "leave", "character": "cap", "to": [21, 15]}, "40k4.ic.leave")


# -- Fly --------------------------------------------------------------------------------

def crowded(ruleset: str, red: list[dict[str, object]]) -> Game:
    """Red's movement: a wall of blue models across x = 20..30 at y = 14."""
    wall = {"id": "wall", "models": [model(f"W{i}", 20 + i, 14) for i in range(11)]}
    return game(scenario(ruleset, red, [wall, squad("far", 60, 45)]))


@pytest.mark.rule("40k3.ic.no-unit-abilities", "40k4.ic.rules-not-shared")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_fly_is_read_through_effective_rules(ruleset: str) -> None:
    g = crowded(ruleset, [hero("seraph", 25, 10, rules=["Fly"])])
    assert_legal(g, {"do": "move", "unit": "seraph", "to": [[25, 16]]})
    g = crowded(ruleset, [hero("cap", 25, 10)])
    assert not g.check({"do": "move", "unit": "cap", "to": [[25, 16]]}).legal
    # a character without Fly joined to a flying squad: the squad passes over, he does not
    red = [squad("hawks", 24, 10, n=2, rules=["Fly"]), hero("cap", 25, 11.5, joined="hawks")]
    g = crowded(ruleset, red)
    over = {"do": "move", "unit": "hawks", "to": [[24, 16], [26, 16], [25, 17.5]]}
    ruling = g.check(over)
    assert not ruling.legal and ruling.reason.startswith("Cap would move through"), ruling.reason
    assert_legal(g, {"do": "move", "unit": "hawks", "to": [[24, 15.6], [26, 15.6], [25, 12.9]]})


# -- Fleet: run in the Shooting phase -------------------------------------------------------

FLEET_RULE = {"40k3": "published.fleet-of-foot", "40k4": "published.fleet"}


def runners(ruleset: str, squad_rules: list[str], hero_rules: list[str] | None = None,
            terrain: list[dict[str, object]] | None = None) -> Game:
    """Red's Shooting phase: Guardians with laspistols (with a joined Farseer if ``hero_rules`` is given) 8" from
    Orks."""
    guard = squad("guard", 20, 10, n=2, rules=squad_rules)
    red = [{**guard, "models": [{**m, "weapons": ["laspistol"]} for m in guard["models"]]}]  # a shot each: 12"
    if hero_rules is not None:
        red.append(hero("seer", 21, 11.5, joined="guard", rules=hero_rules))
    blue = [squad("boyz", 20, 21.5, n=2)]
    return game(scenario(ruleset, red, blue, phase="shooting", terrain=terrain))


@pytest.mark.rule("published.fleet-of-foot", "published.fleet")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fleet_unit_runs_d6_instead_of_shooting(ruleset: str) -> None:
    g = runners(ruleset, ["Fleet"])
    run = {"do": "run", "unit": "guard", "to": [[20, 15], [22, 15]]}
    assert_legal(g, run, FLEET_RULE[ruleset])
    events = g.apply(run, dice=ScriptedDice([3]))
    assert any("guard runs 3\"" in e.message and "stops short" in e.message for e in events)
    assert [m.at for m in g.state.unit("guard").models] == [(20.0, 13.0), (22.0, 13.0)]
    assert not g.check({"do": "shoot", "unit": "guard", "target": "boyz"}).legal
    assert_illegal(g, {"do": "run", "unit": "guard", "to": [[20, 14], [22, 14]]}, FLEET_RULE[ruleset])


@pytest.mark.rule("published.fleet-of-foot", "published.fleet")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_run_without_fleet_beyond_a_d6_or_after_shooting(ruleset: str) -> None:
    g = runners(ruleset, [])
    assert_illegal(g, {"do": "run", "unit": "guard", "to": [[20, 12], [22, 12]]}, FLEET_RULE[ruleset])
    g = runners(ruleset, ["Fleet of Foot"])
    assert_illegal(g, {"do": "run", "unit": "guard", "to": [[20, 16.5], [22, 16.5]]}, FLEET_RULE[ruleset])
    g = runners(ruleset, ["Fleet"], terrain=[])
    g.apply({"do": "shoot", "unit": "guard", "target": "boyz"}, dice=ScriptedDice([1, 1]))
    assert_illegal(g, {"do": "run", "unit": "guard", "to": [[20, 12], [22, 12]]}, FLEET_RULE[ruleset])


@pytest.mark.rule("published.fleet-of-foot", "published.fleet")
def test_3rd_edition_runners_may_not_assault_but_4th_edition_fleet_may() -> None:
    for ruleset, legal in (("40k3", False), ("40k4", True)):
        g = runners(ruleset, ["Fleet"])
        g.apply({"do": "run", "unit": "guard", "to": [[20, 15], [22, 15]]}, dice=ScriptedDice([5]))
        g.apply({"do": "end_phase"})
        ruling = g.check({"do": "assault", "unit": "guard", "target": "boyz"})
        assert ruling.legal is legal, ruling
        if not legal:
            assert_illegal(g, {"do": "assault", "unit": "guard", "target": "boyz"}, "published.fleet-of-foot")


@pytest.mark.rule("40k3.ic.no-unit-abilities", "40k4.ic.rules-lost", "40k4.ic.rules-not-shared")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_character_without_fleet_keeps_his_unit_from_running(ruleset: str) -> None:
    run = {"do": "run", "unit": "guard", "to": [[20, 12], [22, 12], [21, 13.5]]}
    g = runners(ruleset, ["Fleet"], hero_rules=[])
    lost = {"40k3": "40k3.ic.no-unit-abilities", "40k4": "40k4.ic.rules-lost"}[ruleset]
    assert_illegal(g, run, lost)
    assert "seer lacks Fleet" in g.check(run).reason
    g = runners(ruleset, [], hero_rules=["Fleet"])  # nor does a Fleet character lend it to his unit
    not_shared = {"40k3": "40k3.ic.no-unit-abilities", "40k4": "40k4.ic.rules-not-shared"}[ruleset]
    assert_illegal(g, run, not_shared)
    g = runners(ruleset, ["Fleet"], hero_rules=["Fleet"])
    assert_legal(g, run, FLEET_RULE[ruleset])
    assert_illegal(g, {"do": "run", "unit": "seer", "to": [[21, 13]]}, FLEET_RULE[ruleset])


# -- Infiltrate: a Deployment phase before turn 1 ----------------------------------------------

def deploying(ruleset: str, squad_rules: list[str], hero_rules: list[str] | None = None,
              terrain: list[dict[str, object]] | None = None) -> Game:
    """Red's Deployment phase: Scouts in red's corner; the Orks in a line at y = 40."""
    red = [squad("scouts", 5, 5, n=2, rules=squad_rules), squad("tac", 10, 2, n=2)]
    if hero_rules is not None:
        red.append(hero("sgt", 6, 6.5, joined="scouts", rules=hero_rules))
    blue = [squad("boyz", 30, 40, n=3)]
    return game(scenario(ruleset, red, blue, phase="deployment", terrain=terrain))


WALL = {"id": "wall", "kind": "blocking", "polygon": [[20, 30], [40, 30], [40, 31], [20, 31]]}


@pytest.mark.rule("published.infiltrate")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_infiltrators_set_up_more_than_18_inches_away_or_12_out_of_sight(ruleset: str) -> None:
    g = deploying(ruleset, ["Infiltrate"], terrain=[WALL])
    assert_legal(g, {"do": "infiltrate", "unit": "scouts", "to": [[30, 20], [32, 20]]}, "published.infiltrate")
    assert_illegal(g, {"do": "infiltrate", "unit": "scouts", "to": [[30, 33], [32, 33]]}, "published.infiltrate")
    hidden = {"do": "infiltrate", "unit": "scouts", "to": [[30, 25], [32, 25]]}  # 14" away, behind the wall
    assert_legal(g, hidden, "published.infiltrate")
    g = deploying(ruleset, ["Infiltrate"])  # no wall: in sight, 14" is too close
    ruling = g.check(hidden)
    assert not ruling.legal and "can see it" in ruling.reason
    assert_illegal(g, {"do": "infiltrate", "unit": "tac", "to": [[10, 12], [12, 12]]}, "published.infiltrate")


@pytest.mark.rule("published.infiltrate")
def test_deployment_hands_over_to_each_side_then_turn_one_begins() -> None:
    g = deploying("40k4", ["Infiltrate"])
    g.apply({"do": "infiltrate", "unit": "scouts", "to": [[30, 20], [32, 20]]})
    assert [m.at for m in g.state.unit("scouts").models] == [(30.0, 20.0), (32.0, 20.0)]
    assert g.state.unit("scouts").models[0].moved == 0  # a set-up, not a move
    g.apply({"do": "end_phase"})
    assert (g.state.active, g.state.phase.value) == ("blue", "deployment")
    assert not g.check({"do": "move", "unit": "boyz", "to": [[30, 38], [32, 38], [34, 38]]}).legal
    events = g.apply({"do": "end_phase"})
    assert (g.state.active, g.state.phase.value, g.state.turn) == ("red", "movement", 1)
    assert "published.infiltrate" in events[0].rules
    assert not g.check({"do": "infiltrate", "unit": "scouts", "to": [[30, 22], [32, 22]]}).legal


@pytest.mark.rule("40k3.ic.no-unit-abilities", "40k4.ic.rules-lost", "published.infiltrate")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_character_without_infiltrate_takes_it_from_the_unit(ruleset: str) -> None:
    to = {"do": "infiltrate", "unit": "scouts", "to": [[30, 18], [32, 18], [31, 16.5]]}
    g = deploying(ruleset, ["Infiltrate"], hero_rules=[])
    lost = {"40k3": "40k3.ic.no-unit-abilities", "40k4": "40k4.ic.rules-lost"}[ruleset]
    assert_illegal(g, to, lost)
    assert_illegal(g, {"do": "infiltrate", "unit": "sgt", "to": [[31, 16.5]]}, "published.infiltrate")
    g = deploying(ruleset, ["Infiltrate"], hero_rules=["Infiltrate"])
    assert_legal(g, to, "published.infiltrate")
    g.apply(to)
    assert g.state.unit("sgt").models[0].at == (31.0, 16.5)


# -- Transports --------------------------------------------------------------------------------

RHINO = {"name": "Rhino", "profile": "WS0 BS4 S0 T7 W3 I0 A0 Ld10 Sv3+", "base": [90, 115]}
WOODS = {"id": "woods", "kind": "difficult", "polygon": [[28, 14], [40, 14], [40, 30], [28, 30]]}


def rhino(x: float, y: float, capacity: int = 10) -> dict[str, object]:
    return {"id": "rhino", "type": "vehicle", "capacity": capacity, "models": [{**RHINO, "at": [x, y]}]}


def with_rhino(ruleset: str, aboard: bool = False, capacity: int = 10, terrain: list[dict[str, object]] | None = None,
               phase: str = "movement") -> Game:
    """Red's movement: a Rhino at (26, 10); a Tactical squad with its Captain beside it (or aboard)."""
    extra = {"embarked_in": "rhino"} if aboard else {}
    red = [rhino(26, 10, capacity), squad("tac", 20, 10, n=2, **extra), hero("cap", 21, 11.5, joined="tac", **extra)]
    return game(scenario(ruleset, red, [squad("boyz", 20, 40, n=2)], phase=phase, terrain=terrain))


@pytest.mark.rule("published.transports")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_unit_embarks_with_its_character_and_is_off_the_table(ruleset: str) -> None:
    g = with_rhino(ruleset)
    assert_illegal(g, {"do": "embark", "unit": "cap", "transport": "rhino"}, "published.transports")
    assert_legal(g, {"do": "embark", "unit": "tac", "transport": "rhino"}, "published.transports")
    events = g.apply({"do": "embark", "unit": "tac", "transport": "rhino"})
    assert "tac, cap embark in rhino" in events[0].message
    assert {u.id for u in g.state.side_units("red")} == {"rhino"}
    assert {u.embarked_in for u in (g.state.unit("tac"), g.state.unit("cap"))} == {"rhino"}
    assert "tac" not in g.ruleset.targets(g.state, "boyz")
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 12], [22, 12]]}, "published.transports")
    # the Rhino moves with them aboard: a model may stand where the squad stood
    g.apply({"do": "move", "unit": "rhino", "to": [[21, 16]]})
    again = with_rhino(ruleset)
    again.apply({"do": "move", "unit": "tac", "to": [[20, 12], [22, 12], [21, 13.5]]})
    assert_illegal(again, {"do": "embark", "unit": "tac", "transport": "rhino"}, "published.transports")


@pytest.mark.rule("published.transports")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_actions_offer_boarding_and_getting_out_in_the_movement_phase(ruleset: str) -> None:
    g = with_rhino(ruleset)
    boarding = [a.to_json() for a in g.legal_actions() if a.do == "embark"]
    assert boarding == [{"do": "embark", "unit": "tac", "transport": "rhino"}]  # the squad with its Captain, not he alone
    g.apply(boarding[0])
    assert not [a for a in g.legal_actions() if a.do == "disembark"]  # it has had its move this phase
    aboard = with_rhino(ruleset, aboard=True)
    getting_out = [a for a in aboard.legal_actions() if a.do == "disembark"]
    assert [a.to_json()["unit"] for a in getting_out] == ["tac"]
    aboard.apply(getting_out[0])
    assert aboard.state.unit("tac").on_table and aboard.state.unit("cap").on_table
    shooting = with_rhino(ruleset, aboard=True, phase="shooting")
    assert not [a for a in shooting.legal_actions() if a.do in ("embark", "disembark")]


@pytest.mark.rule("published.transports")
def test_no_room_no_reach_no_boarding() -> None:
    g = with_rhino("40k4", capacity=2)
    ruling = g.check({"do": "embark", "unit": "tac", "transport": "rhino"})
    assert not ruling.legal and "room for 2" in ruling.reason
    red = [rhino(50, 10), squad("tac", 20, 10, n=2)]
    g = game(scenario("40k4", red, [squad("boyz", 20, 40, n=2)]))
    assert_illegal(g, {"do": "embark", "unit": "tac", "transport": "rhino"}, "published.transports")
    assert_illegal(g, {"do": "embark", "unit": "tac", "transport": "boyz"}, "published.transports")


@pytest.mark.rule("published.transports")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_unit_disembarks_within_2_inches_and_has_moved(ruleset: str) -> None:
    g = with_rhino(ruleset, aboard=True)
    far = {"do": "disembark", "unit": "tac", "to": [[20, 4], [22, 4], [21, 5.5]]}
    assert_illegal(g, far, "published.transports")
    assert_illegal(g, {"do": "disembark", "unit": "cap", "to": [[23, 10]]}, "published.transports")
    near = {"do": "disembark", "unit": "tac", "to": [[22.5, 9], [22.5, 11], [22.5, 13]]}
    assert_legal(g, near, "published.transports")
    g.apply(near)
    assert g.state.unit("tac").on_table and g.state.unit("cap").models[0].at == (22.5, 13.0)
    assert "tac" in g.ruleset.targets(g.state, "boyz")
    assert not g.check({"do": "move", "unit": "tac", "to": [[21.5, 9], [21.5, 11], [21.5, 13]]}).legal


@pytest.mark.rule("40k4.char.move-through-cover", "published.difficult-terrain")
def test_40k4_a_character_aboard_does_not_lend_his_transport_move_through_cover() -> None:
    g = with_rhino("40k4", aboard=True, terrain=[WOODS])
    through = {"do": "move", "unit": "rhino", "to": [[30, 19]]}
    ruling = g.check(through)
    assert ruling.legal and "2D6" in ruling.notes[0] and "40k4.char.move-through-cover" in ruling.notes[0]
    events = g.apply(through, dice=ScriptedDice([2, 5]))
    rolled = next(e for e in events if e.kind == "difficult_terrain")
    assert rolled.rolls[0].faces == (2, 5)
    assert "does not extend to the vehicle" in rolled.message and "40k4.char.move-through-cover" in rolled.rules
    # on foot, the Captain himself rolls 3D6
    g = with_rhino("40k4", terrain=[WOODS])
    g.apply({"do": "leave", "character": "cap", "to": [25.5, 15]})
    end_phases(g, 6)
    ruling = g.check({"do": "move", "unit": "cap", "to": [[29, 17]]})
    assert ruling.legal and "3D6" in ruling.notes[0] and "40k4.char.move-through-cover" in ruling.notes[0]


@pytest.mark.rule("published.transports")
def test_transports_load_save_and_refuse_bad_files(tmp_path: Path) -> None:
    g = with_rhino("40k4", aboard=True)
    path = tmp_path / "s.yaml"
    g.save(path)
    assert Game.load(path).state == g.state
    base = scenario("40k4", [rhino(26, 10, 2), squad("tac", 20, 10, n=2, embarked_in="rhino")])
    assert state_from_data(base).unit("tac").embarked_in == "rhino"
    bad = [
        (scenario("40k4", [squad("tac", 20, 10, n=2, embarked_in="nowhere")]), "embarked_in"),
        (scenario("40k4", [rhino(26, 10, 1), squad("tac", 20, 10, n=2, embarked_in="rhino")]), "capacity"),
        (scenario("40k4", [squad("tac", 20, 10, n=2, capacity=5)]), "capacity"),
        (scenario("40k4", [rhino(26, 10), squad("tac", 20, 10, n=2, embarked_in="rhino"),
                           hero("cap", 21, 11.5, joined="tac")]), "embarked_in"),
    ]
    for data, field in bad:
        with pytest.raises(ScenarioError) as info:
            state_from_data(data)
        assert field in str(info.value) and "published.transports" in str(info.value)


@pytest.mark.rule("published.transports")
def test_the_table_view_draws_no_passenger() -> None:
    from herohammer.web.view import table_view

    g = with_rhino("40k4", aboard=True)
    units = {u["id"]: u for u in table_view(g.state)["units"]}
    assert units["tac"]["embarked_in"] == "rhino" and units["tac"]["models"] == []
    assert units["rhino"]["models"]


@pytest.mark.rule("40k4.char.move-through-cover", "published.dangerous-terrain")
def test_40k4_a_character_aboard_does_not_lend_his_transport_skilled_rider() -> None:
    marsh = {**WOODS, "id": "marsh", "kind": "dangerous"}
    g = with_rhino("40k4", aboard=True, terrain=[marsh])
    events = g.apply({"do": "move", "unit": "rhino", "to": [[30, 19]]}, dice=ScriptedDice([2, 5, 1]))
    test = next(e for e in events if e.kind == "dangerous_terrain")
    assert "re-rolled" not in test.message and "1 failed" in test.message
    assert "40k4.char.move-through-cover" in test.rules and "published.skilled-rider" not in test.rules


@pytest.mark.rule("published.regroup", "published.fall-back", "published.pinning")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_falling_back_lasts_turn_after_turn_until_a_regroup_while_a_pin_lapses(ruleset: str) -> None:
    red = [squad("tac", 20, 10, n=2, status=["falling_back"]), squad("dev", 40, 10, n=2, status=["pinned"])]
    g = game(scenario(ruleset, red, [squad("boyz", 20, 40, n=2)]))
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 8], [22, 8]]}, "published.fall-back")
    end_phases(g, 6)  # a whole round: the pin is over, falling back is not
    assert {s.value for s in g.state.unit("tac").status} == {"falling_back"}
    assert "pinned" not in {s.value for s in g.state.unit("dev").status}
    assert_illegal(g, {"do": "move", "unit": "tac", "to": [[20, 8], [22, 8]]}, "published.fall-back")
    g.apply({"do": "regroup", "unit": "tac"}, dice=ScriptedDice([1, 2]))
    assert "falling_back" not in {s.value for s in g.state.unit("tac").status}
    end_phases(g, 6)
    assert_legal(g, {"do": "move", "unit": "tac", "to": [[20, 8], [22, 8]]})
