"""Characteristic and Leadership tests taken in play (seed 004), and special rules a joined unit shares or not.

Every test here goes through the game's front door (``Game.check`` / ``Game.apply``, the
``test`` and ``regroup`` actions, moves and Morale checks) with scripted dice, so a clause
counts as played, not only as a helper that a unit test calls.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_to_data
from herohammer.units import Status

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, shoot_then_test, squad

WOODS = [{"id": "woods", "kind": "difficult", "polygon": [[18, 14], [40, 14], [40, 30], [18, 30]]}]


def only(events: list[Any], kind: str = "test") -> Any:
    """Return the one event of a kind."""
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, events
    return found[0]


def take_test(unit: str, ch: str, **extra: Any) -> dict[str, Any]:
    return {"do": "test", "unit": unit, "characteristic": ch, **extra}


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("roll,passed", [(1, True), (4, True), (5, False), (6, False)])
def test_a_characteristic_test_passes_on_a_d6_at_most_the_value(roll: int, passed: bool) -> None:
    g = game(scenario("40k3", [squad("squad", 20, 10, n=1)]))  # I4
    assert_legal(g, take_test("squad", "I"), "core.test.characteristic")
    event = only(g.apply(take_test("squad", "I"), dice=ScriptedDice([roll])))
    assert ("passes" in event.message) is passed and "on 4" in event.message
    assert "core.test.characteristic" in event.rules and event.rolls[0].value == roll


@pytest.mark.rule("core.test.characteristic")
def test_a_six_always_fails_and_a_value_of_0_always_fails() -> None:
    g = game(scenario("40k4", [squad("squad", 20, 10, n=1)]))
    ten = take_test("squad", "I", modifiers=[{"kind": "set", "value": 10, "source": "a spell"}])
    assert "fails" in only(g.apply(ten, dice=ScriptedDice([6]))).message
    assert "passes" in only(g.apply(ten, dice=ScriptedDice([5]))).message
    dash = {"id": "gretchin", "models": [model("grot", 20, 10, profile="WS2 BS3 S2 T2 W1 I- A1 Ld{ld} Sv-")]}
    g = game(scenario("40k4", [dash]))
    event = only(g.apply(take_test("gretchin", "I"), dice=ScriptedDice([1])))
    assert "on 0" in event.message and "fails" in event.message


@pytest.mark.rule("core.test.characteristic")
def test_a_test_of_a_unit_with_no_models_or_a_stray_field_is_refused_and_changes_nothing() -> None:
    g = game(scenario("40k3", [squad("squad", 20, 10), {"id": "gone", "destroyed": True, "models": []}]))
    assert_illegal(g, take_test("gone", "I"), "core.zero.w")
    assert_illegal(g, take_test("squad", "I", kind="Pinning"), "core.test.leadership-kinds")


@pytest.mark.rule("core.test.highest-value")
def test_a_unit_tests_once_on_the_highest_value_among_its_models_and_characters() -> None:
    slow = {"id": "mixed", "models": [model("slow", 20, 10, profile="WS4 BS4 S4 T4 W1 I2 A1 Ld{ld} Sv3+"),
                                      model("quick", 22, 10, profile="WS4 BS4 S4 T4 W1 I5 A1 Ld{ld} Sv3+")]}
    g = game(scenario("40k3", [slow]))
    event = only(g.apply(take_test("mixed", "I"), dice=ScriptedDice([5])))
    assert "on 5" in event.message and "passes" in event.message and "quick" in event.message
    assert len(event.rolls) == 1  # one test for the whole unit
    # a joined character's value counts for the unit: I5 hero in a squad of I4 troopers
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 11.5, joined="squad")]))
    event = only(g.apply(take_test("squad", "I"), dice=ScriptedDice([5])))
    assert "on 5" in event.message and "passes" in event.message


@pytest.mark.rule("core.value.unmodified")
def test_a_veterans_strength_is_written_into_the_profile_and_is_its_unmodified_value() -> None:
    vet = {"id": "vet", "models": [{**model("Sergeant", 20, 10), "veteran": True}]}  # printed S4
    g = game(scenario("40k3", [vet]))
    assert g.state.unit("vet").models[0].profile.s == 5
    unmodified = take_test("vet", "S", unmodified=True)
    event = only(g.apply(unmodified, dice=ScriptedDice([5])))
    assert "on 5" in event.message and "unmodified" in event.message and "passes" in event.message
    # the promotion is in the saved profile, not applied twice on reload
    saved = state_to_data(g.state)
    assert "S5" in saved["sides"]["red"][0]["models"][0]["profile"]
    assert "veteran" not in saved["sides"]["red"][0]["models"][0]
    # a test of the unmodified value takes no modifiers
    assert_illegal(g, take_test("vet", "S", unmodified=True, modifiers=[{"kind": "add", "value": -1}]),
                   "core.value.unmodified")


@pytest.mark.rule("core.value.used")
def test_the_used_value_applies_set_then_multiply_then_add() -> None:
    g = game(scenario("40k4", [squad("squad", 20, 10, n=1)]))
    mods = [{"kind": "add", "value": 1, "source": "banner"}, {"kind": "multiply", "value": 2, "source": "rage"},
            {"kind": "set", "value": 2, "source": "borrowed from a familiar"}]
    action = take_test("squad", "S", modifiers=mods)  # (2 x 2) + 1 = 5, whatever order they are listed in
    event = only(g.apply(action, dice=ScriptedDice([5])))
    assert "on 5" in event.message and "passes" in event.message
    assert "fails" in only(g.apply(action, dice=ScriptedDice([6]))).message
    # halved and rounded up: S4 x 1/2 - 1 = 1
    event = only(g.apply(take_test("squad", "S", modifiers=[{"kind": "multiply", "value": "1/2"},
                                                             {"kind": "add", "value": -1}]),
                         dice=ScriptedDice([2])))
    assert "on 1" in event.message and "fails" in event.message
    # a Leadership test's modifiers too: Ld 8 - 2 = 6
    event = only(g.apply(take_test("squad", "Ld", kind="Morale", modifiers=[{"kind": "add", "value": -2}]),
                         dice=ScriptedDice([3, 4, 2, 2])))
    assert "Ld 6" in event.message and "fails" in event.message and "core.value.used" in event.rules


@pytest.mark.rule("core.test.leadership-choice")
def test_the_player_picks_which_leadership_a_unit_without_characters_tests_on() -> None:
    data = scenario("40k3", [{"id": "mob", "status": ["falling_back"],
                              "models": [model("boy", 20, 10, ld=7), model("nob", 22, 10, ld=9)]}])
    g = game(data)
    assert_legal(g, {"do": "regroup", "unit": "mob", "leadership": 7}, "core.test.leadership-choice")
    refused = assert_illegal(g, {"do": "regroup", "unit": "mob", "leadership": 8}, "core.test.leadership-choice")
    assert "not a value of any model" in refused.reason
    # picking 7 fails on 8, where the default (the highest, 9) would pass
    events = g.apply({"do": "regroup", "unit": "mob", "leadership": 7}, dice=ScriptedDice([4, 4, 3, 3]))
    assert "Ld 7" in events[0].message and "falls back again" in events[0].message
    g.undo()
    events = g.apply({"do": "regroup", "unit": "mob"}, dice=ScriptedDice([4, 4]))
    assert "Ld 9" in events[0].message and "regroups" in events[0].message
    # with a character in the unit, the edition's character rule decides instead of the player
    g = game(scenario("40k3", [squad("squad", 20, 10, ld=8), hero("cap", 20, 11.5, ld=7, joined="squad")]))
    assert_illegal(g, take_test("squad", "Ld", leadership=8), "40k3.char.leadership")


@pytest.mark.rule("core.test.leadership-kinds")
def test_every_named_test_is_a_leadership_test_and_its_own_rule_decides_the_failure() -> None:
    base = scenario("40k4", [squad("squad", 20, 10)], [squad("boyz", 20, 30)], phase="shooting")
    for kind, roll, effect in [("Pinning", [6, 5], Status.PINNED), ("Morale", [6, 5], Status.FALLING_BACK)]:
        g = game(base)
        event = only(g.apply(take_test("squad", "Ld", kind=kind), dice=ScriptedDice(roll + [3, 3])), "test")
        assert f"{kind} test on Ld 8" in event.message and "fails" in event.message
        assert "core.test.leadership-kinds" in event.rules and event.rolls[0].request.startswith("2D6")
        assert g.state.unit("squad").has(effect)
    # passing leaves the unit as it was; a Terror test's failure is left to the rule that called for it
    g = game(base)
    g.apply(take_test("squad", "Ld", kind="Pinning"), dice=ScriptedDice([4, 4]))
    assert not g.state.unit("squad").has(Status.PINNED)
    g.apply(take_test("squad", "Ld", kind="Terror"), dice=ScriptedDice([6, 6]))
    assert g.state.unit("squad").status == base_status(g)
    # the game's own Morale checks are Leadership tests on the same 2D6 as well
    tac = squad("tac", 20, 20)
    tac["models"] = [{**m, "weapons": ["bolter"]} for m in tac["models"]]
    shot = scenario("40k4", [tac], [squad("boyz", 20, 30, n=8)], phase="shooting")
    g = game(shot)
    events = shoot_then_test(g, {"do": "shoot", "unit": "tac", "target": "boyz"},
                             [6] * 6 + [6] * 6 + [1, 1, 6, 6, 6, 6] + [6, 6, 3, 3])
    morale = only(events, "morale")
    assert "Morale check" in morale.message and "core.test.leadership" in morale.rules


def base_status(g: Game) -> frozenset[Status]:
    return g.state.unit("squad").status


@pytest.mark.rule("40k3.ic.no-unit-abilities")
def test_40k3_a_character_does_not_gain_the_fearless_or_move_through_cover_of_the_unit_it_joins() -> None:
    fearless = scenario("40k3", [squad("squad", 20, 10, rules=["Fearless"])])
    g = game(fearless)
    event = only(g.apply(take_test("squad", "Ld", kind="Morale"), dice=ScriptedDice([])))
    assert "without rolling" in event.message and not event.rolls
    # with an independent character joined, the unit is not Fearless throughout: it tests
    joined = scenario("40k3", [squad("squad", 20, 10, rules=["Fearless"]), hero("cap", 20, 11.5, joined="squad")])
    g = game(joined)
    event = only(g.apply(take_test("squad", "Ld", kind="Morale"), dice=ScriptedDice([6, 6, 3, 3])))
    assert "fails" in event.message and g.state.unit("cap").has(Status.FALLING_BACK)
    # Move Through Cover: the unit alone rolls 3D6 in difficult terrain; with the character, 2D6
    mtc = [squad("squad", 20, 10, rules=["move_through_cover"])]
    to = [[20, 16], [22, 16], [24, 16]]
    ruling = game(scenario("40k3", mtc, terrain=WOODS)).check({"do": "move", "unit": "squad", "to": to})
    assert ruling.legal and "3D6" in ruling.notes[0]
    with_cap = scenario("40k3", [*mtc, hero("cap", 20, 8.5, joined="squad")], terrain=WOODS)
    ruling = game(with_cap).check({"do": "move", "unit": "squad", "to": [*to, [20, 14.5]]})
    assert ruling.legal and "2D6" in ruling.notes[0]


@pytest.mark.rule("40k4.ic.rules-not-shared")
def test_40k4_fearless_is_not_shared_but_stubborn_is() -> None:
    # a Fearless character does not make its unit Fearless: the unit tests, and falls back with him
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 11.5, joined="squad", rules=["fearless"])]))
    event = only(g.apply(take_test("squad", "Ld", kind="Morale"), dice=ScriptedDice([6, 6, 3, 3])))
    assert "fails" in event.message and g.state.unit("cap").has(Status.FALLING_BACK)
    # alone, the character is Fearless
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 40, 20, rules=["fearless"])]))
    event = only(g.apply(take_test("cap", "Ld", kind="Morale"), dice=ScriptedDice([])))
    assert "without rolling" in event.message and "published.fearless" in event.rules
    # Stubborn says it extends to the unit: the squad ignores the -3
    minus3 = take_test("squad", "Ld", kind="Morale", modifiers=[{"kind": "add", "value": -3}])
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 11.5, joined="squad", rules=["stubborn"])]))
    event = only(g.apply(minus3, dice=ScriptedDice([5, 5])))
    assert "Ld 10" in event.message and "passes" in event.message and "40k4.ic.rules-not-shared" in event.rules
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 11.5, joined="squad")]))
    event = only(g.apply(minus3, dice=ScriptedDice([5, 5, 3, 3])))
    assert "Ld 7" in event.message and "fails" in event.message
    # every character has Move Through Cover, which its unit does not gain: 3D6 alone, 2D6 in the squad
    alone = game(scenario("40k4", [hero("cap", 20, 10)], terrain=WOODS))
    assert "3D6" in alone.check({"do": "move", "unit": "cap", "to": [[20, 16]]}).notes[0]
    both = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 8.5, joined="squad")], terrain=WOODS))
    ruling = both.check({"do": "move", "unit": "squad", "to": [[20, 16], [22, 16], [24, 16], [20, 14.5]]})
    assert ruling.legal and "2D6" in ruling.notes[0]


@pytest.mark.rule("40k4.ic.rules-lost")
def test_40k4_a_unit_loses_fearless_and_move_through_cover_while_a_character_without_them_is_in_it() -> None:
    rules = ["fearless", "move_through_cover", "infiltrate"]
    g = game(scenario("40k4", [squad("squad", 20, 10, rules=rules), hero("cap", 24, 16)], terrain=WOODS))
    assert "without rolling" in only(g.apply(take_test("squad", "Ld", kind="Pinning"))).message
    g.apply({"do": "join", "character": "cap", "unit": "squad", "to": [24, 12]}, dice=ScriptedDice([6, 6, 6]))
    assert g.state.unit("cap").joined == "squad"
    assert "infiltrate" not in g.ruleset.effective_rules(g.state, "squad")
    event = only(g.apply(take_test("squad", "Ld", kind="Pinning"), dice=ScriptedDice([6, 6])))
    assert "fails" in event.message and g.state.unit("squad").has(Status.PINNED)
