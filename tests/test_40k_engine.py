"""The 40k character rules of issue 3 (seeds 000 and 001), through the public API.

Each test names the catalogue clause it checks; where a clause forbids something
there is a legal and an illegal case, and an illegal ``apply`` must leave the state
exactly as it was.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad
from herohammer.dice import Highest, ScriptedDice, enumerate_outcomes
from herohammer.errors import IllegalActionError, ScenarioError
from herohammer.rulesets import get_ruleset
from herohammer.scenario import state_from_data
from herohammer.units import CharacterKind, Status

BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
WOODS = [{"id": "woods", "kind": "difficult", "polygon": [[30, 25], [40, 25], [40, 35], [30, 35]]}]


def joined_cap(ruleset: str, cap_extra: dict[str, object] | None = None, squad_extra: dict[str, object] | None = None,
               phase: str = "movement", ld: int = 10) -> dict[str, object]:
    """Return a scenario: a squad at y=10 (x 20..24) with a character joined at (20, 11.5)."""
    return scenario(ruleset, [squad("squad", 20, 10, **(squad_extra or {})),
                              hero("cap", 20, 11.5, ld=ld, joined="squad", **(cap_extra or {}))], phase=phase)


def lone_cap(ruleset: str, phase: str = "movement", **cap_extra: object) -> dict[str, object]:
    """Return a scenario: a squad at y=10 (x 20..24) and a lone character at (20, 16)."""
    return scenario(ruleset, [squad("squad", 20, 10), hero("cap", 20, 16, **cap_extra)], phase=phase)


# == 40k3.char.kinds, 40k3.char.special-agreement ===================================

@pytest.mark.rule("40k3.char.kinds")
def test_ordinary_character_is_deployed_in_a_unit_and_stays_there() -> None:
    state = state_from_data(joined_cap("40k3", {"character": "ordinary"}))
    assert state.unit("cap").character is CharacterKind.ORDINARY and state.unit("cap").joined == "squad"
    g = game(joined_cap("40k3", {"character": "ordinary"}))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 16]}, "40k3.char.kinds")
    # an ordinary character without a unit is refused when the scenario is read
    bad = lone_cap("40k3", character="ordinary")
    with pytest.raises(ScenarioError, match=r"sides\.red\[1\]\.joined.*40k3\.char\.kinds"):
        state_from_data(bad, "bad.yaml")


@pytest.mark.rule("40k3.char.kinds")
def test_independent_character_is_a_unit_of_its_own_and_may_join() -> None:
    g = game(lone_cap("40k3"))
    cap = g.state.unit("cap")
    assert cap.is_independent and cap.joined is None and len(cap.models) == 1
    assert_legal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 11.5]}, "40k3.ic.join")
    # only an independent character joins: an ordinary one in another unit may not
    data = scenario("40k3", [squad("squad", 20, 10), squad("other", 20, 20),
                             hero("sarge", 20, 11.5, kind="ordinary", joined="squad")])
    assert_illegal(game(data), {"do": "join", "character": "sarge", "unit": "other", "to": [20, 18.5]},
                   "40k3.char.kinds")


@pytest.mark.rule("40k3.char.special-agreement")
@BOTH
def test_special_characters_need_both_players_agreement(ruleset: str) -> None:
    agreed = lone_cap(ruleset, special=True) | {"special_characters": True}
    assert state_from_data(agreed).unit("cap").special
    with pytest.raises(ScenarioError) as info:
        state_from_data(lone_cap(ruleset, special=True), "x.yaml")
    assert "40k3.char.special-agreement" in str(info.value)
    assert info.value.field == "sides.red[1].special"


# == moving ==========================================================================

#: The rule a move by troop type cites: 3rd edition's character clause; 4th edition has no clause id for seed 001's
#: "Characters follow rules for models of their type" and cites the published Movement rule.
MOVE_RULE = {"40k3": "40k3.char.move-as-type", "40k4": "published.movement"}


@pytest.mark.rule("40k3.char.move-as-type", "published.movement")
@BOTH
def test_character_moves_by_its_troop_type(ruleset: str) -> None:
    data = scenario(ruleset, [hero("cap", 10, 30), hero("biker", 10, 40, type="bike")])
    g = game(data)
    rule = MOVE_RULE[ruleset]
    assert_legal(g, {"do": "move", "unit": "cap", "to": [[16, 30]]}, rule)
    assert_illegal(g, {"do": "move", "unit": "cap", "to": [[17, 30]]}, rule)
    assert_legal(g, {"do": "move", "unit": "biker", "to": [[22, 40]]}, rule)
    assert_illegal(g, {"do": "move", "unit": "biker", "to": [[23, 40]]}, rule)
    g.apply({"do": "move", "unit": "biker", "to": [[22, 40]]})
    assert g.state.unit("biker").models[0].at == (22.0, 40.0)


def _brute_highest(n: int, reroll_below: int) -> dict[int, Fraction]:
    """Highest of n D6, each re-rolled once below ``reroll_below``: every face sequence counted."""
    out: dict[int, Fraction] = {}
    faces = list(product(range(1, 7), repeat=2 * n))  # first faces, then the re-roll faces
    for seq in faces:
        dice = [seq[i] if seq[i] >= reroll_below else seq[n + i] for i in range(n)]
        out[max(dice)] = out.get(max(dice), Fraction(0)) + Fraction(1, len(faces))
    return out


@pytest.mark.rule("40k3.ic.move-through-cover")
def test_40k3_independent_character_rerolls_difficult_terrain_exact_odds() -> None:
    ruleset = get_ruleset("40k3")
    cap_state = state_from_data(scenario("40k3", [hero("cap", 27, 30), squad("squad", 27, 40, n=1)], terrain=WOODS))
    n, below, rule = ruleset.difficult_terrain_dice(cap_state, cap_state.unit("cap"))  # type: ignore[attr-defined]
    assert (n, rule) == (2, "40k3.ic.move-through-cover") and below > 1
    exact = enumerate_outcomes(lambda d: d.roll(Highest("difficult terrain", rule, n, below)))
    assert {k: exact[k] for k in exact} == _brute_highest(n, below)
    # troops roll the same dice with no re-roll
    assert ruleset.difficult_terrain_dice(cap_state, cap_state.unit("squad"))[:2] == (2, 0)  # type: ignore[attr-defined]
    plain = enumerate_outcomes(lambda d: d.roll(Highest("difficult terrain", "x", 2, 0)))
    # each die short of the 6" needed is re-rolled once: P(a die ends below 6) = (5/6)**2
    assert plain[6] == Fraction(11, 36) and exact[6] == 1 - (Fraction(5, 6) ** 2) ** 2
    # the ruling quotes the exact chance of covering the full 6"
    g = game(scenario("40k3", [hero("cap", 27, 30), squad("squad", 27, 40, n=1)], terrain=WOODS))
    note = g.check({"do": "move", "unit": "cap", "to": [[33, 30]]}).notes[0]
    assert str(1 - (Fraction(5, 6) ** 2) ** 2) in note and "40k3.ic.move-through-cover" in note
    note = g.check({"do": "move", "unit": "squad", "to": [[33, 40]]}).notes
    assert note == ()  # the squad's path stays out of the woods


@pytest.mark.rule("40k3.ic.move-through-cover")
def test_40k3_independent_character_rerolls_scripted_dice() -> None:
    data = scenario("40k3", [hero("cap", 27, 30), squad("grunt", 27, 27, n=1)], terrain=WOODS)
    g = game(data)
    # the character rolls 2 and 1, re-rolls both (6 and 3): highest 6, the full move
    events = g.apply({"do": "move", "unit": "cap", "to": [[33, 30]]}, dice=ScriptedDice([2, 6, 1, 3]))
    assert g.state.unit("cap").models[0].at == (33.0, 30.0)
    roll = events[0].rolls[0]
    assert roll.faces == (2, 6, 1, 3) and roll.value == 6 and roll.rule == "40k3.ic.move-through-cover"
    # a trooper rolling 2 and 1 keeps them and stops 2" along
    g.apply({"do": "move", "unit": "grunt", "to": [[33, 27]]}, dice=ScriptedDice([2, 1]))
    assert g.state.unit("grunt").models[0].at == pytest.approx((29.0, 27.0))


@pytest.mark.rule("40k4.char.move-through-cover")
def test_40k4_character_rolls_an_extra_die_in_difficult_terrain() -> None:
    ruleset = get_ruleset("40k4")
    state = state_from_data(scenario("40k4", [hero("cap", 27, 30), squad("grunt", 27, 27, n=1),
                                              hero("tank", 10, 10, type="vehicle")], terrain=WOODS))
    n, below, rule = ruleset.difficult_terrain_dice(state, state.unit("cap"))  # type: ignore[attr-defined]
    assert (n, below, rule) == (3, 0, "40k4.char.move-through-cover")
    exact = enumerate_outcomes(lambda d: d.roll(Highest("difficult terrain", rule, n, below)))
    assert {k: exact[k] for k in exact} == _brute_highest(3, 0)
    assert exact[6] == 1 - Fraction(5, 6) ** 3
    assert ruleset.difficult_terrain_dice(state, state.unit("grunt"))[:2] == (2, 0)  # type: ignore[attr-defined]
    # not in (or as) a vehicle
    assert ruleset.difficult_terrain_dice(state, state.unit("tank"))[:2] == (2, 0)  # type: ignore[attr-defined]
    g = game(scenario("40k4", [hero("cap", 27, 30), squad("grunt", 27, 27, n=1)], terrain=WOODS))
    assert "91/216" in g.check({"do": "move", "unit": "cap", "to": [[33, 30]]}).notes[0]
    events = g.apply({"do": "move", "unit": "cap", "to": [[33, 30]]}, dice=ScriptedDice([1, 2, 6]))
    assert events[0].rolls[0].faces == (1, 2, 6)
    assert g.state.unit("cap").models[0].at == (33.0, 30.0)
    g.apply({"do": "move", "unit": "grunt", "to": [[33, 27]]}, dice=ScriptedDice([1, 2]))
    assert g.state.unit("grunt").models[0].at == pytest.approx((29.0, 27.0))


# == coherency, joining, leaving ======================================================

@pytest.mark.rule("40k3.char.coherency")
@BOTH
@pytest.mark.parametrize("kind", ["independent", "ordinary"])
def test_character_in_a_unit_keeps_coherency(ruleset: str, kind: str) -> None:
    g = game(joined_cap(ruleset, {"character": kind}))
    squad_only = [[20, 5], [22, 5], [24, 5]]
    # 4th edition states coherency in its joining paragraph (40k4.ic.join); a 40k4 game cites its own clause
    rule = "40k3.char.coherency" if ruleset == "40k3" else "40k4.ic.join"
    assert_illegal(g, {"do": "move", "unit": "squad", "to": squad_only}, rule)
    together = [*squad_only, [20, 6.5]]
    assert_legal(g, {"do": "move", "unit": "squad", "to": together})
    g.apply({"do": "move", "unit": "squad", "to": together})
    assert g.state.unit("cap").models[0].at == (20.0, 6.5) and g.state.unit("cap").joined == "squad"


@pytest.mark.rule("40k3.ic.join")
def test_40k3_join_by_moving_within_2_inches() -> None:
    g = game(lone_cap("40k3"))
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 14]}, "40k3.ic.join")
    assert_legal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]},
                 "40k3.ic.join", "40k3.ic.movement-phase-only")
    g.apply({"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]})
    assert g.state.unit("cap").joined == "squad"
    assert [u.id for u in g.state.combined("squad")] == ["squad", "cap"]
    # 3rd edition: simply moving within 2" of a model of the unit joins it
    g2 = game(lone_cap("40k3"))
    ruling = g2.check({"do": "move", "unit": "cap", "to": [[20, 12.5]]})
    assert ruling.legal and any("40k3.ic.join" in n for n in ruling.notes)
    g2.apply({"do": "move", "unit": "cap", "to": [[20, 12.5]]})
    assert g2.state.unit("cap").joined == "squad"
    # an enemy unit cannot be joined
    g3 = game(scenario("40k3", [hero("cap", 20, 16)], [squad("orks", 20, 10)]))
    assert_illegal(g3, {"do": "join", "character": "cap", "unit": "orks", "to": [20, 12]}, "40k3.ic.join")


@pytest.mark.rule("40k4.ic.join")
def test_40k4_join_needs_moving_within_2_inches_and_a_declaration() -> None:
    g = game(lone_cap("40k4"))
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 14]}, "40k4.ic.join")
    assert_legal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, "40k4.ic.join")
    g.apply({"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]})
    assert g.state.unit("cap").joined == "squad"
    # moving close without declaring the join leaves it a unit of its own
    g2 = game(lone_cap("40k4"))
    g2.apply({"do": "move", "unit": "cap", "to": [[20, 12.5]]})
    assert g2.state.unit("cap").joined is None
    # once joined it obeys coherency with the unit
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})  # blue's movement phase
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})  # red's movement phase again: MOVED cleared
    assert_illegal(g, {"do": "move", "unit": "squad", "to": [[20, 4], [22, 4], [24, 4]]}, "40k4.ic.join")


@pytest.mark.rule("40k3.ic.no-unit-abilities")
def test_40k3_joined_character_does_not_gain_unit_abilities() -> None:
    rs = get_ruleset("40k3")
    state = state_from_data(joined_cap("40k3", {"rules": ["psyker"]}, {"rules": ["infiltrate", "scouts"]}))
    assert rs.effective_rules(state, "cap") == frozenset({"psyker"})  # type: ignore[attr-defined]
    assert rs.effective_rules(state, "squad") == frozenset({"infiltrate", "scouts"})  # type: ignore[attr-defined]


@pytest.mark.rule("40k3.ic.leave")
def test_40k3_leave_by_moving_more_than_2_inches_away() -> None:
    g = game(joined_cap("40k3"))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 12.5]}, "40k3.ic.leave")
    assert_legal(g, {"do": "leave", "character": "cap", "to": [20, 14.5]}, "40k3.ic.leave")
    g.apply({"do": "leave", "character": "cap", "to": [20, 14.5]})
    assert g.state.unit("cap").joined is None and g.state.combined("squad") == [g.state.unit("squad")]


@pytest.mark.rule("40k4.ic.leave")
def test_40k4_leave_by_moving_out_of_coherency() -> None:
    g = game(joined_cap("40k4"))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 12.5]}, "40k4.ic.leave")
    assert_legal(g, {"do": "leave", "character": "cap", "to": [20, 14.5]}, "40k4.ic.leave")
    g.apply({"do": "leave", "character": "cap", "to": [20, 14.5]})
    assert g.state.unit("cap").joined is None


@pytest.mark.rule("40k3.ic.movement-phase-only")
@pytest.mark.parametrize("phase", ["shooting", "assault"])
def test_40k3_join_and_leave_only_in_the_movement_phase(phase: str) -> None:
    rule = "40k3.ic.movement-phase-only"
    assert_illegal(game(lone_cap("40k3", phase=phase)),
                   {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, rule)
    assert_illegal(game(joined_cap("40k3", phase=phase)), {"do": "leave", "character": "cap", "to": [20, 15]}, rule)
    # never during close combat: not out of a locked unit, not into one, even in the Movement phase
    assert_illegal(game(joined_cap("40k3", squad_extra={"status": ["locked"]})),
                   {"do": "leave", "character": "cap", "to": [20, 15]}, rule)
    assert_illegal(game(scenario("40k3", [squad("squad", 20, 10, status=["locked"]), hero("cap", 20, 16)])),
                   {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, rule)
    assert_legal(game(lone_cap("40k3")), {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, rule)
    assert_legal(game(joined_cap("40k3")), {"do": "leave", "character": "cap", "to": [20, 15]}, rule)


@pytest.mark.rule("40k4.ic.movement-phase-only")
@pytest.mark.parametrize("phase", ["shooting", "assault"])
def test_40k4_join_and_leave_only_in_the_movement_phase(phase: str) -> None:
    rule = "40k4.ic.movement-phase-only"
    assert_illegal(game(lone_cap("40k4", phase=phase)),
                   {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, rule)
    assert_illegal(game(joined_cap("40k4", phase=phase)), {"do": "leave", "character": "cap", "to": [20, 15]}, rule)
    assert_illegal(game(joined_cap("40k4", squad_extra={"status": ["locked"]})),
                   {"do": "leave", "character": "cap", "to": [20, 15]}, rule)
    assert_legal(game(lone_cap("40k4")), {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, rule)
    assert_legal(game(joined_cap("40k4")), {"do": "leave", "character": "cap", "to": [20, 15]}, rule)


@pytest.mark.rule("40k3.ic.falling-back")
def test_40k3_cannot_leave_a_unit_falling_back() -> None:
    g = game(joined_cap("40k3", squad_extra={"status": ["falling_back"]}))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 15]}, "40k3.ic.falling-back")
    regrouped = g.state.replace_unit(g.state.unit("squad").with_status(remove=(Status.FALLING_BACK,)))
    g.state = regrouped
    assert_legal(g, {"do": "leave", "character": "cap", "to": [20, 15]}, "40k3.ic.leave")


@pytest.mark.rule("40k4.ic.falling-back")
def test_40k4_cannot_join_or_leave_a_unit_falling_back() -> None:
    g = game(joined_cap("40k4", squad_extra={"status": ["falling_back"]}))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 15]}, "40k4.ic.falling-back")
    g = game(scenario("40k4", [squad("squad", 20, 10, status=["falling_back"]), hero("cap", 20, 16)]))
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, "40k4.ic.falling-back")
    assert_legal(game(lone_cap("40k4")), {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]})
    assert_legal(game(joined_cap("40k4")), {"do": "leave", "character": "cap", "to": [20, 15]})


@pytest.mark.rule("40k4.ic.pinned")
def test_40k4_cannot_leave_a_pinned_unit() -> None:
    g = game(joined_cap("40k4", squad_extra={"status": ["pinned"]}))
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 15]}, "40k4.ic.pinned")
    assert_legal(game(joined_cap("40k4")), {"do": "leave", "character": "cap", "to": [20, 15]}, "40k4.ic.leave")


@pytest.mark.rule("40k4.ic.slowest-model")
def test_40k4_combined_unit_moves_at_the_speed_of_its_slowest_model() -> None:
    data = joined_cap("40k4", {"type": "bike"})
    g = game(data)
    too_far = [[20, 16], [22, 16], [24, 16], [20, 19.5]]  # the bike character 8"
    assert_illegal(g, {"do": "move", "unit": "squad", "to": too_far}, "40k4.ic.slowest-model")
    assert_legal(g, {"do": "move", "unit": "squad", "to": [[20, 16], [22, 16], [24, 16], [20, 17.5]]})
    # on its own the bike moves 12"
    g2 = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 40, 20, type="bike")]))
    assert_legal(g2, {"do": "move", "unit": "cap", "to": [[52, 20]]}, "published.movement")


@pytest.mark.rule("40k4.ic.no-character-units")
def test_40k4_a_character_cannot_join_another_character() -> None:
    g = game(scenario("40k4", [squad("squad", 20, 10), hero("cap", 20, 16), hero("chaplain", 24, 16)]))
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "chaplain", "to": [22, 16]},
                   "40k4.ic.no-character-units")
    assert_legal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [20, 12]}, "40k4.ic.join")


@pytest.mark.rule("40k4.ic.rules-not-shared")
def test_40k4_special_rules_are_not_shared_except_stubborn() -> None:
    rs = get_ruleset("40k4")
    state = state_from_data(joined_cap("40k4", {"rules": ["fearless"]}, {"rules": ["fleet"]}))
    innate = {"move_through_cover", "skilled_rider"}  # every character's own (40k4.char.move-through-cover)
    assert rs.effective_rules(state, "cap") == frozenset({"fearless"} | innate)
    assert rs.effective_rules(state, "squad") == frozenset({"fleet"})
    # Stubborn says it extends: both ways
    state = state_from_data(joined_cap("40k4", {"rules": ["stubborn"]}, {"rules": ["fleet"]}))
    assert rs.effective_rules(state, "squad") == frozenset({"fleet", "stubborn"})  # type: ignore[attr-defined]
    state = state_from_data(joined_cap("40k4", {}, {"rules": ["stubborn"]}))
    assert rs.effective_rules(state, "cap") == frozenset({"stubborn"} | innate)


@pytest.mark.rule("40k4.ic.rules-lost")
def test_40k4_unit_loses_infiltrate_when_a_character_without_it_joins() -> None:
    rs = get_ruleset("40k4")
    alone = state_from_data(lone_cap("40k4") | {"sides": {"red": [squad("squad", 20, 10, rules=["infiltrate"]),
                                                                  hero("cap", 20, 16)],
                                                          "blue": [squad("far", 60, 45)]}})
    assert "infiltrate" in rs.effective_rules(alone, "squad")  # type: ignore[attr-defined]
    joined = state_from_data(joined_cap("40k4", {}, {"rules": ["infiltrate"]}))
    assert "infiltrate" not in rs.effective_rules(joined, "squad")  # type: ignore[attr-defined]
    both = state_from_data(joined_cap("40k4", {"rules": ["infiltrate"]}, {"rules": ["infiltrate"]}))
    assert "infiltrate" in rs.effective_rules(both, "squad")  # type: ignore[attr-defined]


@pytest.mark.rule("40k4.char.retinue")
def test_40k4_character_stays_with_its_living_retinue() -> None:
    data = scenario("40k4", [squad("guard", 20, 10, rules=["retinue"]), squad("squad", 28, 10),
                             hero("cap", 20, 11.5, joined="guard", rules=["retinue"])])
    g = game(data)
    assert_illegal(g, {"do": "leave", "character": "cap", "to": [20, 15]}, "40k4.char.retinue")
    assert_illegal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [25.5, 11]}, "40k4.char.retinue")
    # once the retinue is destroyed it may move between units again
    g.state = g.state.replace_unit(replace(g.state.unit("guard"), models=()))
    assert_legal(g, {"do": "join", "character": "cap", "unit": "squad", "to": [25.5, 11]}, "40k4.ic.join")
    assert_legal(g, {"do": "leave", "character": "cap", "to": [20, 15]})
    g.apply({"do": "join", "character": "cap", "unit": "squad", "to": [25.5, 11]})
    assert g.state.unit("cap").joined == "squad"
    # a character without a retinue leaves freely
    assert_legal(game(joined_cap("40k4")), {"do": "leave", "character": "cap", "to": [20, 15]})


# == Leadership and Last Man Standing ==================================================

@pytest.mark.rule("40k3.char.leadership")
def test_40k3_unit_tests_on_the_characters_leadership_even_if_lower() -> None:
    rs = get_ruleset("40k3")
    for ld in (7, 10):
        state = state_from_data(joined_cap("40k3", ld=ld))
        ruling = rs.leadership_of(state, "squad")  # type: ignore[attr-defined]
        assert (ruling.value, ruling.rule) == (ld, "40k3.char.leadership")
        assert rs.leadership_of(state, "cap").value == ld  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError) as info:
        rs.leadership_of(state_from_data(joined_cap("40k3", ld=7)), "squad", chosen=8)  # type: ignore[attr-defined]
    assert info.value.rules == ("40k3.char.leadership",)
    # without a character the shared rule applies
    assert rs.leadership_of(state_from_data(lone_cap("40k3", ld=7)), "squad").value == 8  # type: ignore[attr-defined]


@pytest.mark.rule("40k4.char.leadership")
def test_40k4_unit_uses_the_characters_leadership_only_if_higher() -> None:
    rs = get_ruleset("40k4")
    high = rs.leadership_of(state_from_data(joined_cap("40k4", ld=10)), "squad")  # type: ignore[attr-defined]
    assert (high.value, high.rule) == (10, "40k4.char.leadership")
    low = rs.leadership_of(state_from_data(joined_cap("40k4", ld=7)), "squad")  # type: ignore[attr-defined]
    assert low.value == 8 and low.rule != "40k4.char.leadership"


@pytest.mark.rule("40k3.ic.no-last-man")
def test_40k3_independent_character_takes_no_last_man_standing() -> None:
    rs = get_ruleset("40k3")
    assert rs.takes_last_man_standing(True) is False
    assert rs.takes_last_man_standing(False) is True


@pytest.mark.rule("40k4.char.no-last-man", "published.last-man-standing")
def test_40k4_characters_never_take_last_man_standing_nor_does_any_unit() -> None:
    """Seed 001: characters never take it; the 4th edition Morale rules call for it for no unit at all."""
    rs = get_ruleset("40k4")
    assert rs.takes_last_man_standing(True) is False
    assert rs.takes_last_man_standing(False) is False


# == targets ============================================================================

def _target_game(ruleset: str, red: list[dict[str, object]], shooter_y: float = 40) -> dict[str, object]:
    return scenario(ruleset, red, [squad("shooters", 20, shooter_y)], phase="shooting")


@pytest.mark.rule("40k3.ic.target")
def test_40k3_lone_character_target_only_if_isolated_or_closest_within_12() -> None:
    rs = get_ruleset("40k3")
    # more than 6" from every other unit of its side: a fair target
    far = state_from_data(_target_game("40k3", [squad("squad", 20, 10), hero("cap", 60, 30)]))
    r = rs.target_ruling(far, "shooters", "cap")
    assert r.legal and r.rules == ("40k3.ic.target",)
    # within 6" of its squad, and the squad is closer to the shooters: not a target
    hidden = state_from_data(_target_game("40k3", [squad("squad", 20, 30), hero("cap", 22, 25)]))
    r = rs.target_ruling(hidden, "shooters", "cap")
    assert not r.legal and r.rules == ("40k3.ic.target",)
    assert rs.target_ruling(hidden, "shooters", "squad").legal
    # within 6" of its squad but the closest target and within 12": a target
    close = state_from_data(_target_game("40k3", [squad("squad", 20, 20), hero("cap", 22, 25)], shooter_y=34))
    r = rs.target_ruling(close, "shooters", "cap")
    assert r.legal and r.rules == ("40k3.ic.target",)
    # closest but more than 12" away: not a target
    distant = state_from_data(_target_game("40k3", [squad("squad", 20, 20), hero("cap", 22, 25)], shooter_y=40))
    r = rs.target_ruling(distant, "shooters", "cap")
    assert not r.legal and "40k3.ic.target" in r.rules
    # shooting through the game: the refusal leaves the state alone
    g = game(_target_game("40k3", [squad("squad", 20, 30), hero("cap", 22, 25)]) | {"active": "blue"})
    assert_illegal(g, {"do": "shoot", "unit": "shooters", "target": "cap"}, "40k3.ic.target")


@pytest.mark.rule("40k4.target.joined")
def test_40k4_joined_character_cannot_be_picked_out() -> None:
    rs = get_ruleset("40k4")
    state = state_from_data(_target_game("40k4", [squad("squad", 20, 30), hero("cap", 20, 31.5, joined="squad")]))
    r = rs.target_ruling(state, "shooters", "cap")
    assert not r.legal and r.rules == ("40k4.target.joined",)
    assert rs.target_ruling(state, "shooters", "squad").legal


@pytest.mark.rule("40k4.target.closest")
def test_40k4_lone_character_target_only_if_closest() -> None:
    rs = get_ruleset("40k4")
    # isolated but not the closest: 3rd edition would allow it, 4th does not
    state = state_from_data(_target_game("40k4", [squad("squad", 20, 30), hero("cap", 60, 30)]))
    r = rs.target_ruling(state, "shooters", "cap")
    assert not r.legal and r.rules == ("40k4.target.closest",)
    assert get_ruleset("40k3").target_ruling(state, "shooters", "cap").legal
    state = state_from_data(_target_game("40k4", [squad("squad", 20, 30), hero("cap", 22, 35)]))
    r = rs.target_ruling(state, "shooters", "cap")
    assert r.legal and r.rules == ("40k4.target.closest",)


@pytest.mark.rule("40k4.target.monstrous")
def test_40k4_monstrous_creature_character_can_always_be_picked_out() -> None:
    rs = get_ruleset("40k4")
    tyrant = {"type": "monstrous_creature"}
    lone = state_from_data(_target_game("40k4", [squad("squad", 20, 30), hero("tyrant", 60, 30, **tyrant)]))
    r = rs.target_ruling(lone, "shooters", "tyrant")
    assert r.legal and r.rules == ("40k4.target.monstrous",)
    in_gaunts = state_from_data(_target_game("40k4", [squad("squad", 20, 30),
                                                      hero("tyrant", 20, 31.5, joined="squad", **tyrant)]))
    assert rs.target_ruling(in_gaunts, "shooters", "tyrant").legal
    guarded = state_from_data(_target_game("40k4", [squad("squad", 20, 30, rules=["tyrant_guard"]),
                                                    hero("tyrant", 20, 31.5, joined="squad", **tyrant)]))
    r = rs.target_ruling(guarded, "shooters", "tyrant")
    assert not r.legal and "40k4.target.monstrous" in r.rules
    carnifexes = state_from_data(_target_game("40k4", [squad("squad", 20, 30, type="monstrous_creature"),
                                                       hero("tyrant", 20, 31.5, joined="squad", **tyrant)]))
    assert not rs.target_ruling(carnifexes, "shooters", "tyrant").legal


@pytest.mark.rule("40k3.ic.target")
@pytest.mark.rule("40k4.target.joined")
@BOTH
def test_targets_rules_on_every_enemy_unit(ruleset: str) -> None:
    state = state_from_data(_target_game(ruleset, [squad("squad", 20, 30), hero("cap", 20, 31.5, joined="squad"),
                                                   hero("lone", 22, 25)]))
    answers = get_ruleset(ruleset).targets(state, "shooters")
    assert set(answers) == {"squad", "cap", "lone"}
    assert answers["squad"].legal and not answers["cap"].legal and not answers["lone"].legal


def test_model_helper_is_25mm() -> None:
    assert model("x", 1, 2)["base"] == 25
