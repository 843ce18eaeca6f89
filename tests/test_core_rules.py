"""The rules shared by every ruleset (seed 004, catalogue section ``core``).

One or more tests per ``core.*`` id, each checking what the clause says with a legal
and, where the clause forbids something, an illegal or failing case.  Dice are scripted
(``ScriptedDice``) so that each case shows the faces that decide it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from herohammer import charts
from herohammer.attacks import resolve_attacks
from herohammer.checks import (
    LeadershipTestKind,
    characteristic_test,
    chosen_leadership,
    highest_value,
    leadership_test,
)
from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.errors import IllegalActionError, OutOfRangeError
from herohammer.profiles import (
    Characteristic,
    Modifier,
    Profile,
    used_value,
)
from herohammer.psychic import psychic_test
from herohammer.rulesets import get_ruleset
from herohammer.rulesets.base import LeadershipSource, Ruleset

S = Characteristic.S
T = Characteristic.T
LD = Characteristic.LD


# --------------------------------------------------------------------------------------
# core.profile.dash
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.profile.dash")
@pytest.mark.parametrize("mark", ["-", "*"])
def test_dash_and_star_read_as_zero(mark: str) -> None:
    p = Profile.parse(f"WS{mark} BS{mark} S{mark} T{mark} W{mark} I{mark} A{mark} Ld{mark} Sv-")
    assert (p.ws, p.bs, p.s, p.t, p.w, p.i, p.a, p.ld) == (0,) * 8
    assert p.save is None


@pytest.mark.rule("core.profile.dash")
def test_dash_mixed_with_numbers() -> None:
    p = Profile.parse("WS4 BS- S3 T3 W1 I4 A* Ld8 Sv5+")
    # the profile keeps which values were printed '-' (judge round 51: a test on one cites core.profile.dash)
    assert p == Profile(ws=4, bs=0, s=3, t=3, w=1, i=4, a=0, ld=8, save=5, dashed=frozenset({"bs", "a"}))
    assert p.is_dashed(Characteristic.BS) and not p.is_dashed(Characteristic.WS)
    assert Profile.parse(p.format()) == p and "BS-" in p.format()
    # a dash is the value 0, so the rules for 0 apply to it
    assert not charts.can_shoot(p.bs)
    assert charts.close_combat_attacks(p.a) == 0


@pytest.mark.rule("core.profile.dash")
def test_dash_in_mapping() -> None:
    p = Profile.from_mapping({"WS": "-", "BS": "*", "S": 4, "Sv": "3+"})
    assert (p.ws, p.bs, p.s, p.save) == (0, 0, 4, 3)


@pytest.mark.rule("core.profile.dash")
@pytest.mark.parametrize(
    "text, token",
    [
        ("WS4 Q3", "Q3"),  # unknown characteristic
        ("WS4 4", "4"),  # no name at all
        ("WSx BS4", "x"),  # not a number, '-' or '*'
        ("WS4 BS--", "--"),  # a double dash is not a dash
        ("WS4 S+", "+"),
        ("WS11", "11"),  # out of 0..10
        ("WS4 Sv7+", "7+"),
        ("Ld", "''"),  # nothing after the name
    ],
)
def test_bad_tokens_raise_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(OutOfRangeError) as info:
        Profile.parse(text)
    assert token in str(info.value)


@pytest.mark.rule("core.profile.dash")
@pytest.mark.parametrize("text", ["WS²", "Sv²+"])
def test_unicode_digit_token_raises_out_of_range(text: str) -> None:
    with pytest.raises(OutOfRangeError):
        Profile.parse(text)


# --------------------------------------------------------------------------------------
# core.zero.*
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.zero.ws")
@pytest.mark.parametrize("attacker_ws", range(0, 11))
def test_ws0_is_hit_automatically(attacker_ws: int) -> None:
    assert charts.to_hit_melee(attacker_ws, 0) == charts.AUTOMATIC == 1


@pytest.mark.rule("core.zero.ws")
@pytest.mark.parametrize("defender_ws", range(1, 11))
def test_ws0_hits_only_on_6(defender_ws: int) -> None:
    assert charts.to_hit_melee(0, defender_ws) == 6


@pytest.mark.rule("core.zero.ws")
def test_ws_nonzero_is_not_automatic() -> None:
    # the illegal side: only WS 0 is hit automatically, and only WS 0 needs a 6
    assert charts.to_hit_melee(4, 1) == 3
    assert charts.to_hit_melee(1, 1) == 4
    assert charts.to_hit_melee(1, 3) == 5


@pytest.mark.rule("core.zero.ws")
def test_ws0_through_the_attack_sequence() -> None:
    # against WS 0 no to-hit dice are rolled: the script holds only the to-wound dice
    dice = ScriptedDice([4, 1, 6])
    result = resolve_attacks(dice, 3, charts.to_hit_melee(4, 0), 4)
    assert (result.hits, result.wounds) == (3, 2)
    assert [r.purpose for r in dice.log] == ["to wound (4+)"]
    # a WS 0 attacker: a 5 misses, a 6 hits
    dice = ScriptedDice([5, 6, 6])
    result = resolve_attacks(dice, 2, charts.to_hit_melee(0, 3), 4)
    assert result.hits == 1 and result.wounds == 1


@pytest.mark.rule("core.zero.bs")
def test_bs0_cannot_shoot() -> None:
    assert charts.can_shoot(0) is False
    assert charts.to_hit_shooting(0) is None
    # and no shooting dice are rolled for it
    dice = ScriptedDice([])
    assert resolve_attacks(dice, 5, charts.to_hit_shooting(0), 4).hits == 0
    assert dice.log == ()


@pytest.mark.rule("core.zero.bs")
@pytest.mark.parametrize("bs, needed", [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (10, 2)])
def test_bs_above_zero_shoots(bs: int, needed: int) -> None:
    assert charts.can_shoot(bs) is True
    assert charts.to_hit_shooting(bs) == needed


@pytest.mark.rule("core.zero.bs", "core.profile.dash")
def test_bs_dash_cannot_shoot() -> None:
    assert not charts.can_shoot(Profile.parse("BS-").bs)


@pytest.mark.rule("core.zero.s")
@pytest.mark.parametrize("toughness", range(0, 11))
def test_s0_never_wounds(toughness: int) -> None:
    assert charts.to_wound(0, toughness) is None
    dice = ScriptedDice([6, 6])
    result = resolve_attacks(dice, 2, 2, charts.to_wound(0, toughness))
    assert result.hits == 2 and result.wounds == 0


@pytest.mark.rule("core.zero.s")
def test_s1_can_wound() -> None:
    assert charts.to_wound(1, 1) == 4
    assert charts.to_wound(1, 4) == 6
    assert charts.to_wound(1, 0) == 2


@pytest.mark.rule("core.zero.t")
@pytest.mark.parametrize("strength", range(1, 11))
def test_t0_wounded_on_2(strength: int) -> None:
    assert charts.to_wound(strength, 0) == 2


@pytest.mark.rule("core.zero.t")
def test_t0_a_roll_of_1_still_fails() -> None:
    dice = ScriptedDice([1, 2])
    result = resolve_attacks(dice, 2, 1, charts.to_wound(1, 0))
    assert result.wounds == 1


@pytest.mark.rule("core.zero.t", "core.zero.w")
def test_perils_against_toughness_0() -> None:
    # 2D6 = 1+1 (perils), Strength 1, to wound: 2+ against T0 -> a 2 wounds and slays a 1-wound psyker
    dice = ScriptedDice([1, 1, 1, 2])
    r = psychic_test(dice, leadership=8, toughness=0, wounds=1)
    assert r.perils and r.perils_strength == 1 and r.wounded and r.slain
    assert dice.log[-1].purpose == "Perils of the Warp: to wound (2+)"
    # a 1 on the to-wound die still fails
    dice = ScriptedDice([6, 6, 1, 1])
    r = psychic_test(dice, leadership=8, toughness=0, wounds=1)
    assert r.perils and not r.wounded and not r.slain
    # the same Strength 1 hit against Toughness 4 needs 6+: the 2 does not wound
    dice = ScriptedDice([1, 1, 1, 2])
    r = psychic_test(dice, leadership=8, toughness=4, wounds=1)
    assert dice.log[-1].purpose == "Perils of the Warp: to wound (6+)"
    assert not r.wounded


@pytest.mark.rule("core.zero.t")
def test_perils_odds_against_toughness_0() -> None:
    dist = enumerate_outcomes(lambda d: psychic_test(d, 8, 0, 1).slain)
    # perils 2/36, then every Strength wounds on 2+ (5/6)
    assert dist[True] == Fraction(2, 36) * Fraction(5, 6)


@pytest.mark.rule("40k3.psyker.perils")
@pytest.mark.parametrize("toughness", range(0, 11))
@pytest.mark.parametrize("leadership,wounds", [(8, 1), (10, 2), (1, 1)])
def test_perils_branching_per_roll_needed_equals_brute_force(toughness: int, leadership: int, wounds: int) -> None:
    """The Perils Strength branches once per to-wound roll needed: everything decided equals every face rolled."""
    def decided(d: Dice) -> tuple[bool, bool, bool, bool, bool]:
        r = psychic_test(d, leadership, toughness, wounds)
        return r.passed, r.power_used, r.perils, r.wounded, r.slain

    assert enumerate_outcomes(decided) == enumerate_outcomes(decided, fine=True)


@pytest.mark.rule("core.zero.w")
def test_wounds_0_is_a_casualty() -> None:
    assert charts.is_casualty(0) is True
    assert charts.is_casualty(1) is False
    assert charts.is_casualty(3) is False


@pytest.mark.rule("core.zero.w")
def test_perils_slays_only_at_zero_wounds() -> None:
    faces = [6, 6, 6, 6]  # perils, S6, wounds
    assert psychic_test(ScriptedDice(faces), 8, 4, wounds=1).slain
    r = psychic_test(ScriptedDice(faces), 8, 4, wounds=2)
    assert r.wounded and not r.slain


@pytest.mark.rule("core.zero.w")
def test_psyker_with_zero_wounds_cannot_test() -> None:
    with pytest.raises(OutOfRangeError, match=r"core\.zero\.w"):
        psychic_test(ScriptedDice([3, 3]), 8, 4, wounds=0)


@pytest.mark.rule("core.zero.a")
def test_attacks_0_makes_no_attacks() -> None:
    assert charts.close_combat_attacks(0) == 0
    assert charts.close_combat_attacks(Profile.parse("A-").a) == 0
    dice = ScriptedDice([])
    result = resolve_attacks(dice, charts.close_combat_attacks(0), 3, 4)
    assert result == type(result)(0, 0, 0, 0)
    assert dice.log == ()


@pytest.mark.rule("core.zero.a")
@pytest.mark.parametrize("attacks", [1, 2, 5, 10])
def test_attacks_above_zero_attack(attacks: int) -> None:
    assert charts.close_combat_attacks(attacks) == attacks


# --------------------------------------------------------------------------------------
# core.test.characteristic
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("value", range(1, 11))
@pytest.mark.parametrize("roll", range(1, 7))
def test_characteristic_test_roll_at_most_value_passes(value: int, roll: int) -> None:
    result = characteristic_test(ScriptedDice([roll]), value)
    assert result.passed == (roll <= value and roll != 6)
    assert result.roll == roll and result.value == value
    assert result.rule == "core.test.characteristic"


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("value", [6, 7, 10])
def test_natural_6_always_fails(value: int) -> None:
    assert not characteristic_test(ScriptedDice([6]), value).passed
    assert characteristic_test(ScriptedDice([5]), value).passed


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("roll", range(1, 7))
def test_value_0_always_fails(roll: int) -> None:
    assert not characteristic_test(ScriptedDice([roll]), 0).passed


@pytest.mark.rule("core.test.characteristic")
def test_characteristic_test_rerolls_a_failure_once() -> None:
    dice = ScriptedDice([5, 2])
    result = characteristic_test(dice, 3, reroll_failed=True)
    assert result.passed and result.roll == 2
    assert [r.purpose for r in dice.log] == ["characteristic test", "characteristic test (re-roll)"]
    # the re-roll can fail again, and a second failure stands
    dice = ScriptedDice([5, 6, 1])
    result = characteristic_test(dice, 3, reroll_failed=True)
    assert not result.passed and dice.remaining == 1
    # a pass is not re-rolled
    dice = ScriptedDice([1, 6])
    assert characteristic_test(dice, 3, reroll_failed=True).passed and dice.remaining == 1
    # a natural 6 on the re-roll still fails, even against 10
    assert not characteristic_test(ScriptedDice([6, 6]), 10, reroll_failed=True).passed
    # a value of 0 fails however often it is rolled
    assert not characteristic_test(ScriptedDice([1, 1]), 0, reroll_failed=True).passed


@pytest.mark.rule("core.test.characteristic")
@pytest.mark.parametrize("bad", [-1, 11, 12])
def test_characteristic_out_of_range_is_refused(bad: int) -> None:
    dice = ScriptedDice([1])
    with pytest.raises(OutOfRangeError):
        characteristic_test(dice, bad)
    assert dice.log == ()  # refused before any dice are rolled


@pytest.mark.rule("core.test.characteristic")
def test_characteristic_test_is_logged_with_rule() -> None:
    dice = ScriptedDice([4])
    characteristic_test(dice, 4, purpose="Initiative test")
    (record,) = dice.log
    assert record.purpose == "Initiative test"
    assert record.rule == "core.test.characteristic"
    assert record.faces == (4,)


# --------------------------------------------------------------------------------------
# core.test.highest-value
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.test.highest-value")
def test_highest_value_is_used() -> None:
    assert highest_value([3, 5, 4]) == 5
    assert highest_value([0, 0]) == 0
    assert highest_value([7]) == 7


@pytest.mark.rule("core.test.highest-value")
def test_one_test_with_the_highest_value() -> None:
    # a unit with Initiative 2, 3 and 5 takes one test against 5: a roll of 4 passes
    dice = ScriptedDice([4])
    assert characteristic_test(dice, highest_value([2, 3, 5])).passed
    assert len(dice.log) == 1
    # against the lowest it would have failed
    assert not characteristic_test(ScriptedDice([4]), 2).passed


@pytest.mark.rule("core.test.highest-value")
def test_highest_value_needs_a_value() -> None:
    with pytest.raises(OutOfRangeError, match=r"core\.test\.highest-value"):
        highest_value([])


# --------------------------------------------------------------------------------------
# core.value.unmodified
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.value.unmodified")
def test_veteran_promotion_raises_strength_in_profile() -> None:
    p = Profile.parse("WS4 BS4 S3 T3 W1 I4 A1 Ld8 Sv4+")
    vet = p.promoted_to_veteran()
    assert vet.s == 4 and vet[S] == 4
    assert vet.with_value(S, 3) == p  # nothing else changed
    assert p.s == 3  # the original profile is immutable
    # the raised value is the unmodified one: used with no modifiers, it is 4
    assert used_value(vet, S) == 4


@pytest.mark.rule("core.value.unmodified")
def test_veteran_promotion_caps_at_10() -> None:
    assert Profile(s=10).promoted_to_veteran().s == 10


@pytest.mark.rule("core.value.unmodified")
def test_modifiers_do_not_change_the_unmodified_value() -> None:
    p = Profile.parse("WS4 S4 T4 Ld8")
    mods = [Modifier.add(S, 2, "power weapon"), Modifier.multiply(T, 2), Modifier.set_to(LD, 10, "character")]
    assert used_value(p, S, mods) == 6
    assert used_value(p, T, mods) == 8
    assert used_value(p, LD, mods) == 10
    assert (p.s, p.t, p.ld) == (4, 4, 8)
    assert (p[S], p[T], p[LD]) == (4, 4, 8)


# --------------------------------------------------------------------------------------
# core.value.used
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.value.used")
def test_used_value_without_modifiers_is_the_profile() -> None:
    p = Profile(s=4, t=3)
    assert used_value(p, S) == 4
    assert used_value(p, T, [Modifier.add(S, 3)]) == 3  # a modifier of another characteristic


@pytest.mark.rule("core.value.used")
@pytest.mark.parametrize(
    "base, mods, expected, other_order",
    [
        # multiply before add: (4 x 2) + 1 = 9, not (4 + 1) x 2 = 10
        (4, [Modifier.add(S, 1), Modifier.multiply(S, 2)], 9, 10),
        # set before add: set 3 then +1 = 4, not (4 + 1) then set 3 = 3
        (4, [Modifier.add(S, 1), Modifier.set_to(S, 3)], 4, 3),
        # set before multiply: set 3 then x2 = 6, not 4 x 2 then set 3 = 3
        (4, [Modifier.multiply(S, 2), Modifier.set_to(S, 3)], 6, 3),
        # halving rounds up: 3 x 1/2 = 2 then +1 = 3, not (3 + 1) / 2 = 2
        (3, [Modifier.add(S, 1), Modifier.multiply(S, Fraction(1, 2))], 3, 2),
        # halving rounds up: 5 / 2 = 3
        (5, [Modifier.multiply(S, Fraction(1, 2))], 3, 2),
        # clamp only at the end: 8 x 2 - 7 = 9, not min(16, 10) - 7 = 3
        (8, [Modifier.add(S, -7), Modifier.multiply(S, 2)], 9, 3),
        # clamp at the end from below: 1 - 3 + 4 = 2, not max(0, -2) + 4 = 4
        (1, [Modifier.add(S, -3), Modifier.add(S, 4)], 2, 4),
        # the result is clamped to 0..10
        (6, [Modifier.multiply(S, 2)], 10, 12),
        (2, [Modifier.add(S, -5)], 0, -3),
        # a borrowed value replaces the own one before the model's own +1
        (3, [Modifier.add(S, 1), Modifier.set_to(S, 5, "borrowed")], 6, 5),
    ],
)
def test_used_value_order(base: int, mods: list[Modifier], expected: int, other_order: int) -> None:
    assert expected != other_order
    p = Profile(s=base)
    assert used_value(p, S, mods) == expected
    assert used_value(p, S, list(reversed(mods))) == expected  # the list order does not matter


@pytest.mark.rule("core.value.used")
def test_used_value_decides_the_test() -> None:
    # a model with Ld 6 borrowing Ld 9: a roll of 8 passes on the used value, would fail on its own
    p = Profile(ld=6)
    ld = used_value(p, LD, [Modifier.set_to(LD, 9, "borrowed from the character")])
    assert leadership_test(ScriptedDice([4, 4]), ld).passed
    assert not leadership_test(ScriptedDice([4, 4]), p.ld).passed
    # Strength 3 halved to 2 rounded up: a 2 passes, a 3 fails
    s = used_value(Profile(s=3), S, [Modifier.multiply(S, Fraction(1, 2))])
    assert s == 2
    assert characteristic_test(ScriptedDice([2]), s).passed
    assert not characteristic_test(ScriptedDice([3]), s).passed


# --------------------------------------------------------------------------------------
# core.test.leadership
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.test.leadership")
@pytest.mark.parametrize("ld", range(0, 11))
@pytest.mark.parametrize("a", range(1, 7))
@pytest.mark.parametrize("b", range(1, 7))
def test_leadership_2d6_at_most_ld_passes(ld: int, a: int, b: int) -> None:
    dice = ScriptedDice([a, b])
    result = leadership_test(dice, ld)
    assert result.roll == a + b
    assert result.passed == (a + b <= ld)
    assert result.rule == "core.test.leadership"
    assert dice.remaining == 0
    (record,) = dice.log
    assert record.faces == (a, b) and record.rule == "core.test.leadership" and record.request == "2D6"


@pytest.mark.rule("core.test.leadership")
def test_leadership_no_natural_fail_on_2d6() -> None:
    # unlike a characteristic test, double 6 is just 12: it passes nothing below 12, and Ld 10 passes a 10
    assert leadership_test(ScriptedDice([5, 5]), 10).passed
    assert not leadership_test(ScriptedDice([5, 6]), 10).passed
    assert leadership_test(ScriptedDice([4, 4]), 8).passed
    assert not leadership_test(ScriptedDice([4, 5]), 8).passed


@pytest.mark.rule("core.test.leadership")
@pytest.mark.parametrize("bad", [-1, 11, 13])
def test_leadership_out_of_range(bad: int) -> None:
    dice = ScriptedDice([1, 1])
    with pytest.raises(OutOfRangeError, match=r"core\.test\.leadership"):
        leadership_test(dice, bad)
    assert dice.log == ()


@pytest.mark.rule("core.test.leadership")
def test_leadership_modifier() -> None:
    r = leadership_test(ScriptedDice([4, 4]), 9, modifier=-1)
    assert r.value == 8 and r.passed
    r = leadership_test(ScriptedDice([4, 5]), 9, modifier=-1)
    assert not r.passed


# --------------------------------------------------------------------------------------
# core.test.leadership-choice (and the 40k3 / 40k4 overrides)
# --------------------------------------------------------------------------------------

UNIT = [LeadershipSource("trooper", 7), LeadershipSource("sergeant", 8), LeadershipSource("trooper 2", 7)]


@pytest.mark.rule("core.test.leadership-choice")
def test_choice_defaults_to_highest() -> None:
    assert chosen_leadership([7, 8, 7]) == 8
    for rules in (Ruleset(), get_ruleset("t9a")):
        ruling = rules.unit_leadership(UNIT)
        assert (ruling.value, ruling.rule, ruling.source) == (8, "core.test.leadership-choice", "sergeant")


@pytest.mark.rule("core.test.leadership-choice")
def test_choice_of_any_value_in_the_unit() -> None:
    assert chosen_leadership([7, 8, 7], 7) == 7
    for rules in (Ruleset(), get_ruleset("t9a")):
        ruling = rules.unit_leadership(UNIT, chosen=7)
        assert ruling.value == 7 and ruling.source == "trooper"
        assert rules.unit_leadership(UNIT, chosen=8).value == 8


@pytest.mark.rule("core.test.leadership-choice")
@pytest.mark.parametrize("chosen", [6, 9, 10, 0])
def test_choice_must_be_a_value_of_the_unit(chosen: int) -> None:
    with pytest.raises(IllegalActionError) as info:
        chosen_leadership([7, 8, 7], chosen)
    assert "core.test.leadership-choice" in info.value.rules
    assert "core.test.leadership-choice" in str(info.value)
    for rules in (Ruleset(), get_ruleset("t9a")):
        with pytest.raises(IllegalActionError) as info:
            rules.unit_leadership(UNIT, chosen=chosen)
        assert info.value.rules == ("core.test.leadership-choice",)


@pytest.mark.rule("core.test.leadership-choice")
def test_choice_needs_a_model() -> None:
    with pytest.raises(OutOfRangeError):
        chosen_leadership([])


@pytest.mark.rule("core.test.leadership-choice")
def test_rulesets_without_characters_use_the_core_choice() -> None:
    # 40k3 and 40k4 fall back to the shared rule in a unit with no character
    for name in ("40k3", "40k4"):
        rules = get_ruleset(name)
        assert rules.unit_leadership(UNIT).rule == "core.test.leadership-choice"
        assert rules.unit_leadership(UNIT).value == 8
        assert rules.unit_leadership(UNIT, chosen=7).value == 7
        with pytest.raises(IllegalActionError):
            rules.unit_leadership(UNIT, chosen=9)


@pytest.mark.rule("40k3.char.leadership")
def test_40k3_character_leadership_even_if_lower() -> None:
    rules = get_ruleset("40k3")
    unit = [*UNIT, LeadershipSource("Chaplain", 6, is_character=True)]
    ruling = rules.unit_leadership(unit)
    assert (ruling.value, ruling.rule, ruling.source) == (6, "40k3.char.leadership", "Chaplain")
    assert rules.unit_leadership(unit, chosen=6).value == 6
    with pytest.raises(IllegalActionError) as info:
        rules.unit_leadership(unit, chosen=8)
    assert info.value.rules == ("40k3.char.leadership",)


@pytest.mark.rule("40k3.char.leadership")
def test_40k3_character_leadership_when_higher() -> None:
    rules = get_ruleset("40k3")
    unit = [*UNIT, LeadershipSource("Captain", 10, is_character=True)]
    ruling = rules.unit_leadership(unit)
    assert (ruling.value, ruling.rule) == (10, "40k3.char.leadership")
    with pytest.raises(IllegalActionError):
        rules.unit_leadership(unit, chosen=7)


@pytest.mark.rule("40k4.char.leadership")
def test_40k4_character_leadership_if_higher() -> None:
    rules = get_ruleset("40k4")
    unit = [*UNIT, LeadershipSource("Captain", 10, is_character=True)]
    ruling = rules.unit_leadership(unit)
    assert (ruling.value, ruling.rule, ruling.source) == (10, "40k4.char.leadership", "Captain")


@pytest.mark.rule("40k4.char.leadership")
def test_40k4_lower_character_leadership_is_not_used() -> None:
    rules = get_ruleset("40k4")
    unit = [*UNIT, LeadershipSource("Chaplain", 6, is_character=True)]
    ruling = rules.unit_leadership(unit)
    assert (ruling.value, ruling.rule) == (8, "core.test.leadership-choice")
    # an equal character Leadership is not "higher" either
    unit = [*UNIT, LeadershipSource("Veteran Sergeant", 8, is_character=True)]
    assert rules.unit_leadership(unit).rule == "core.test.leadership-choice"
    # a value no model has is still refused
    with pytest.raises(IllegalActionError):
        rules.unit_leadership(unit, chosen=9)


# --------------------------------------------------------------------------------------
# core.test.leadership-kinds
# --------------------------------------------------------------------------------------


@pytest.mark.rule("core.test.leadership-kinds")
@pytest.mark.parametrize("kind", list(LeadershipTestKind))
def test_every_kind_is_a_leadership_test(kind: LeadershipTestKind) -> None:
    for faces, passed in (([3, 4], True), ([4, 4], False)):
        dice = ScriptedDice(faces)
        result = leadership_test(dice, 7, kind)
        assert result.passed is passed
        assert result.rule == "core.test.leadership"
        (record,) = dice.log
        assert kind.value in record.purpose
        assert record.purpose == f"{kind.value} test (Ld 7)"
        assert record.rule == "core.test.leadership"
    # the same odds as a plain Leadership test
    dist = enumerate_outcomes(lambda d: leadership_test(d, 7, kind).passed)
    assert dist[True] == Fraction(21, 36)


@pytest.mark.rule("core.test.leadership-kinds")
@pytest.mark.parametrize("kind", [LeadershipTestKind.TERROR, LeadershipTestKind.BREAK, LeadershipTestKind.PANIC])
def test_named_kinds_take_modifiers_and_range_checks(kind: LeadershipTestKind) -> None:
    assert leadership_test(ScriptedDice([4, 4]), 9, kind, modifier=-1).passed
    assert not leadership_test(ScriptedDice([4, 5]), 9, kind, modifier=-1).passed
    with pytest.raises(OutOfRangeError):
        leadership_test(ScriptedDice([1, 1]), 11, kind)


@pytest.mark.rule("40k4.char.leadership")
def test_40k4_superior_character_leadership_cannot_be_declined() -> None:
    rules = get_ruleset("40k4")
    unit = [*UNIT, LeadershipSource("Captain", 10, is_character=True)]
    with pytest.raises(IllegalActionError) as info:
        rules.unit_leadership(unit, chosen=7)
    assert "40k4.char.leadership" in info.value.rules
