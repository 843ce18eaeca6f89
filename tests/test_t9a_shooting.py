"""The 9th Age Shooting phase: at lone characters, at and from combined units, values of 0, Panic."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from _t9a import game, scenario
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.scenario import state_from_data
from herohammer.units import Status

SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}


def refused(g: Game, action: dict[str, Any], rule: str | None, text: str) -> None:
    before = g.state
    ruling = g.check(action)
    assert not ruling.legal and text in ruling.reason, ruling
    if rule:
        assert rule in ruling.rules
    with pytest.raises(IllegalActionError):
        g.apply(action)
    assert g.state is before


def names(g: Game, unit: str) -> list[str]:
    return [m.name for m in g.state.unit(unit).models]


@pytest.mark.rule("t9a.join.part-of-unit")
def test_hits_on_a_combined_unit_go_to_the_rank_and_file() -> None:
    g = game()
    order = g.state.unit("spears").formation.order  # type: ignore[union-attr]
    # 5 bows at 14" (long range: 5+), all hit, all wound (4+ S3 v T3), no saves (5+ failed)
    events = g.apply(SHOOT, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert "t9a.join.part-of-unit" in events[0].rules and events[1].kind == "panic"
    assert len(g.state.unit("spears").models) == 5 and g.state.unit("hero").models[0].wounds_taken == 0
    # the rear rank falls first
    assert names(g, "spears") == [n for n in order if n != "Hero"][:5]
    refused(game(), {**SHOOT, "at": "hero"}, "t9a.join.part-of-unit", "hits go to them")
    refused(game(), {**SHOOT, "target": "hero"}, "t9a.join.part-of-unit", "part of spears")


@pytest.mark.rule("t9a.join.part-of-unit", "published.t9a-distributing-hits")
def test_a_character_is_picked_out_only_from_a_unit_of_fewer_than_five() -> None:
    g = game(n=3)
    assert g.check({**SHOOT, "at": "hero"}).legal
    # 5 hits on 4 models, as equally as possible: the Hero named takes the odd one (2), the spearmen 3
    events = g.apply({**SHOOT, "at": "hero"}, ScriptedDice([6] * 5 + [1] * 3 + [6, 6] + [1, 1]))
    assert "3 hits, 0 unsaved on spears; 2 hits, 2 unsaved on hero" in events[0].message
    assert "published.t9a-distributing-hits" in events[0].rules
    assert g.state.unit("hero").models[0].wounds_taken == 2 and len(g.state.unit("spears").models) == 3
    unnamed = game(n=3)  # no character named: the odd hit is the rank and file's, the Hero still takes one
    events = unnamed.apply(SHOOT, ScriptedDice([6] * 5 + [1] * 4 + [6] + [1]))
    assert "4 hits, 0 unsaved on spears; 1 hit, 1 unsaved on hero" in events[0].message


@pytest.mark.rule("t9a.char.lone")
def test_a_lone_character_is_a_target_of_its_own() -> None:
    g = game(joined=False, hero_at=(36, 24))
    targets = g.ruleset.targets(g.state, "orcs")
    assert targets["hero"].legal and "t9a.char.lone" in targets["hero"].rules
    # the hero slain 4" from his Spearmen: a friendly unit destroyed within 6", so they take a Panic test (3, 3)
    events = g.apply({**SHOOT, "target": "hero"}, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [3, 3]))
    assert "t9a.char.lone" in events[0].rules and not g.state.unit("hero").alive
    assert events[-1].kind == "panic" and events[-1].message.startswith("spears passes its Panic test for hero destroyed")


@pytest.mark.rule("t9a.join.moved-separately")
def test_a_combined_unit_shoots_with_its_character_but_not_one_that_marched() -> None:
    data = scenario(n=9, active="elves", hero_weapons=["longbow"])  # two ranks of five: all may shoot
    data["sides"]["elves"][0]["models"] = [{**m, "weapons": ["bow"]} for m in data["sides"]["elves"][0]["models"]]
    g = Game(state_from_data(data))
    ruling = g.check({"do": "shoot", "unit": "spears", "target": "orcs"})
    assert ruling.legal and "10 shots" in ruling.reason
    marched = scenario(n=9, active="elves", hero_weapons=["longbow"], hero_status=["moved", "marched"])
    marched["sides"]["elves"][0]["models"] = data["sides"]["elves"][0]["models"]
    g2 = Game(state_from_data(marched))
    ruling = g2.check({"do": "shoot", "unit": "spears", "target": "orcs"})
    assert ruling.legal and "9 shots" in ruling.reason and "t9a.join.moved-separately" in ruling.notes[0]
    only_hero = Game(state_from_data(scenario(active="elves", hero_weapons=["longbow"],
                                              hero_status=["moved", "marched"])))
    refused(only_hero, {"do": "shoot", "unit": "spears", "target": "orcs"}, "t9a.join.moved-separately", "marched")
    refused(only_hero, {"do": "shoot", "unit": "hero", "target": "orcs"}, "t9a.join.part-of-unit", "name the unit")


@pytest.mark.rule("core.zero.bs")
def test_bs_zero_cannot_shoot() -> None:
    refused(game(orc_profile="WS3 BS0 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"), SHOOT, "core.zero.bs", "BS 0")


@pytest.mark.rule("core.zero.s")
def test_strength_zero_cannot_wound() -> None:
    g = game(orc_weapon="bow S0")
    dice = ScriptedDice([6] * 5)
    g.apply(SHOOT, dice)
    assert len(g.state.unit("spears").models) == 10 and dice.remaining == 0
    assert "core.zero.s" in g.log[0].rules


@pytest.mark.rule("core.zero.t")
def test_toughness_zero_is_wounded_on_2() -> None:
    g = game(spear_profile="WS4 BS4 S3 T0 W1 I5 A1 Ld8 Sv- Adv5 Mar10")
    g.apply(SHOOT, ScriptedDice([6] * 5 + [2, 2, 2, 1, 1] + [1, 1]))
    assert len(g.state.unit("spears").models) == 7 and "core.zero.t" in g.log[0].rules


def test_shooting_odds_are_exact() -> None:
    """5 bows at long range (5+), S3 v T3 (4+), save 5+: casualties ~ Binomial(5, 1/3 * 1/2 * 2/3)."""
    state = game().state
    rules = get_ruleset("t9a")
    from herohammer.actions import parse_action

    action = parse_action(SHOOT)

    def casualties(dice: Any) -> int:
        new, _ = rules.resolve(state, action, dice)
        return 10 - len(new.unit("spears").models)

    got = {k: Fraction(v) for k, v in enumerate_outcomes(casualties).items()}
    shot = icepool.Die({1: 1, 0: 8})  # 1/9 of a shot kills
    want = {k: Fraction(n, (5 @ shot).denominator()) for k, n in (5 @ shot).items()}
    assert got == want


@pytest.mark.rule("t9a.combined.last-survivor")
def test_panic_for_heavy_casualties_and_the_character_left_alone() -> None:
    g = game(n=3)
    # 3 killed of 4 models (3 spearmen and the hero): Panic on the hero's Ld 9 alone; 11 fails, flees 2D6
    # 5 hits shared: 4 on the spearmen (3 wound, none saved), 1 on the hero (no wound)
    g.apply(SHOOT, ScriptedDice([6] * 5 + [6, 6, 6, 1] + [1] * 3 + [1] + [5, 6] + [3, 4]))
    panic = g.log[-1]
    assert panic.kind == "panic" and "t9a.combined.last-survivor" in panic.rules and "Ld 9" in panic.message
    assert not g.state.unit("spears").alive and g.state.unit("hero").last_of == "spears"
    assert Status.FLEEING in g.state.unit("hero").status
    calm = game(n=3)
    calm.apply(SHOOT, ScriptedDice([6] * 5 + [6, 6, 6, 1] + [1] * 3 + [1] + [4, 5]))
    assert calm.log[-1].kind == "panic" and "passes" in calm.log[-1].message
    few = game()
    few.apply(SHOOT, ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1]))  # 2 of 11 lost: no Panic test
    assert few.log[-1].kind == "shoot"


# -- cover ----------------------------------------------------------------------------------------
COVER = "published.t9a-cover"
VOLLEY = {"do": "shoot", "unit": "orcs", "target": "spears"}


def _behind(kind: str, xs: tuple[float, float] = (28, 44)) -> Game:
    """The orc archers (BS3, 14" away: long range) shoot the Spearmen across a terrain piece between them."""
    data = scenario(joined=False, hero_at=(10, 10))
    data["terrain"] = [{"id": "hedge", "kind": kind, "polygon": [[xs[0], 25], [xs[1], 25], [xs[1], 26], [xs[0], 26]]}]
    return Game(state_from_data(data))


def _need(g: Game) -> str:
    events = g.apply(VOLLEY, ScriptedDice([1] * 5))
    return events[0].message.split("shots (")[1].split(" to hit")[0]


@pytest.mark.rule(COVER, "published.t9a-to-hit-shooting")
def test_soft_and_hard_cover_worsen_the_roll_to_hit() -> None:
    plain = _behind("open")
    assert COVER not in plain.check(VOLLEY).rules and _need(plain) == "5+"  # BS3 4+, long range -1
    soft = _behind("soft_cover")
    ruling = soft.check(VOLLEY)
    assert ruling.legal and COVER in ruling.rules and any("soft cover behind hedge" in n for n in ruling.notes)
    assert _need(soft) == "6+"
    hard = _behind("hard_cover")
    assert _need(hard) == "7+"  # a 6 then a 4+
    assert COVER in hard.log[-1].rules


@pytest.mark.rule(COVER)
def test_cover_needs_half_the_target_behind_it() -> None:
    aside = _behind("hard_cover", xs=(50, 60))  # not on any line of fire
    assert COVER not in aside.check(VOLLEY).rules and _need(aside) == "5+"
    corner = _behind("hard_cover", xs=(37.2, 40))  # crosses the lines of fire to 2 of the 10 Spearmen only
    assert COVER not in corner.check(VOLLEY).rules
