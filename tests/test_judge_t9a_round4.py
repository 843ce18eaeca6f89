"""A judge's cases for The 9th Age, fourth round: what the third round left, and sequences around a character.

Each case goes through the front door (``Game``: check, apply, undo): the legal and the illegal step, the
clause cited, and a refused step changing nothing. The published rule on hits at a combined unit
(published.t9a-distributing-hits) is held to the brute-force enumeration and to icepool by exact equality.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest

from herohammer.action_odds import summarise
from herohammer.actions import parse_action
from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.units import Status
from _t9a import play_to, refused, reloading_game, reloads, scenario
from test_t9a_rules import HERO, scenario as charge_scenario

DISTRIBUTING = "published.t9a-distributing-hits"
SIGHT = "published.line-of-sight"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
AT_HERO = {**SHOOT, "at": "hero"}


# -- a charge's line of sight: the charging unit's characters are its models too -----------------------------
def _behind_a_wall(wall_to: float) -> Game:
    """Four Spearmen and their Hero in one rank, the Hero at the right end; a wall just in front of the rank and
    file up to x = ``wall_to`` (37.5: the Hero's right half is clear; 38.5: the whole rank is behind it)."""
    data = charge_scenario(n=4, joined=True, phase="charge", enemy_y=28)
    data["sides"]["elves"][0]["formation"]["order"] = ["s0", "s1", "s2", "s3", "Hero"]
    data["terrain"] = [{"id": "wall", "kind": "blocking",
                        "polygon": [[33, 20.3], [wall_to, 20.3], [wall_to, 21], [33, 21]]}]
    return reloading_game(data)


@pytest.mark.rule("published.t9a-charge", "t9a.join.part-of-unit", "published.t9a-charge-arc")
def test_a_charging_unit_sees_its_target_with_its_character_too() -> None:
    g = _behind_a_wall(37.5)
    from herohammer.geometry import unit_line_of_sight
    spears, orcs = g.state.unit("spears"), g.state.unit("orcs")
    assert not unit_line_of_sight(spears.placed, orcs.placed, g.state.terrain)  # no spearman sees the orcs
    ruling = g.check({"do": "charge", "unit": "spears", "target": "orcs"})
    # the Hero, part of the unit, sees them: sight is given; the charge is refused for the wall in its way alone
    # (since session 48 its Charge Move forwards, and every wheel sweeps into the wall too)
    assert SIGHT not in ruling.rules and "line of sight" not in ruling.reason
    assert not ruling.legal and "published.t9a-move" in ruling.rules and "crosses impassable terrain wall" in ruling.reason
    hidden = _behind_a_wall(38.5)  # the Hero behind the wall too: nobody of the unit sees them
    refused(hidden, {"do": "charge", "unit": "spears", "target": "orcs"}, SIGHT, "no line of sight")
    assert "t9a.join.part-of-unit" in hidden.check({"do": "charge", "unit": "spears", "target": "orcs"}).rules


# -- hits at a combined unit: as equally as possible below five rank and file ---------------------------------
@pytest.mark.rule(DISTRIBUTING, "t9a.join.part-of-unit")
def test_five_rank_and_file_keep_every_hit_off_their_character_and_a_named_one_is_refused() -> None:
    g = reloading_game(scenario(n=5))
    refused(g, AT_HERO, "t9a.join.part-of-unit", "5 rank-and-file models")
    events = g.apply(SHOOT, ScriptedDice([6] * 5 + [1] * 5))  # 5 hits, none wounds: all on the Spearmen
    assert "5 hits, 0 unsaved on spears" in events[0].message and "on hero" not in events[0].message
    assert DISTRIBUTING not in events[0].rules


@pytest.mark.rule(DISTRIBUTING, "t9a.join.part-of-unit")
@pytest.mark.parametrize("n,hits,at,spears_hits,hero_hits", [
    (3, 1, None, 1, 0),  # one hit, four models: the attacker's pick, the rank and file by default
    (3, 1, "hero", 0, 1),  # ... or the Hero when the shot names him
    (2, 3, None, 2, 1),  # three hits, three models: one each, whatever is named
    (2, 3, "hero", 2, 1),
    (1, 5, None, 3, 2),  # five hits, two models: three and two, the odd one as the attacker picks
    (1, 5, "hero", 2, 3),
])
def test_below_five_rank_and_file_the_hits_are_shared_as_equally_as_possible(
        n: int, hits: int, at: str | None, spears_hits: int, hero_hits: int) -> None:
    g = reloading_game(scenario(n=n))
    shot = {**SHOOT, **({"at": at} if at else {})}
    assert g.check(shot).legal
    before = g.state
    events = g.apply(shot, ScriptedDice([6] * hits + [1] * (5 - hits) + [1] * hits))  # no hit wounds
    said = events[0].message
    assert (f"{spears_hits} hit{'s' * (spears_hits != 1)}, 0 unsaved on spears" in said) == bool(spears_hits)
    assert (f"{hero_hits} hit{'s' * (hero_hits != 1)}, 0 unsaved on hero" in said) == bool(hero_hits)
    assert (DISTRIBUTING in events[0].rules) == bool(hero_hits)
    g.undo()
    assert g.state is before


@pytest.mark.rule(DISTRIBUTING, "t9a.join.part-of-unit")
def test_the_characters_share_is_wounded_on_his_own_toughness_and_save() -> None:
    g = reloading_game(scenario(n=2))
    # three hits on three models, one each; 4s wound the Spearmen, their 5+ saves fail; the Hero's 5 wounds him
    events = g.apply(SHOOT, ScriptedDice([6, 6, 6, 1, 1] + [4, 4] + [1, 1] + [5] + [1] + [1, 1]))
    rolls = [r.describe() for r in events[0].rolls]
    # S3 wounds the Spearmen (T3) on 4+ and the Hero (T4) on 5+: two rolls, one per share
    assert any("to wound (4+): 2D6" in r for r in rolls) and any("to wound (5+): 1D6" in r for r in rolls)
    assert "2 hits, 2 unsaved on spears" in events[0].message
    assert "1 hit, 1 unsaved on hero" in events[0].message and g.state.unit("hero").models[0].wounds_taken == 1


@pytest.mark.rule(DISTRIBUTING, "t9a.combined.last-survivor", "t9a.join.character-units")
def test_a_unit_left_with_its_characters_shares_the_hits_among_them() -> None:
    mage = {"id": "mage", "character": "independent", "joined": "spears",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]}
    data = scenario(n=1)
    data["sides"]["elves"].append(mage)
    g = reloading_game(data)
    # the spearman falls to the first hit shared (one hit each of three), the Panic test passes
    g.apply(SHOOT, ScriptedDice([6, 6, 6, 1, 1] + [6] + [1] + [1] + [1] + [1, 1]))
    assert not g.state.unit("spears").alive and g.state.unit("hero").last_of == "spears"
    play_to(g, "charge", "elves")
    play_to(g, "shooting", "orcs")
    events = g.apply({**SHOOT, "at": "mage"}, ScriptedDice([6] * 5 + [1] * 3 + [1] * 2))
    assert "3 hits, 0 unsaved on mage" in events[0].message and "2 hits, 0 unsaved on hero" in events[0].message
    assert DISTRIBUTING in events[0].rules


@pytest.mark.rule(DISTRIBUTING, "published.t9a-magic", "t9a.join.part-of-unit")
def test_a_spells_hits_are_shared_as_a_volleys_are() -> None:
    from test_t9a_magic import magic_scenario

    data = magic_scenario()
    spears = data["sides"]["elves"][0]
    spears.pop("spells", None)
    data["sides"]["orcs"][0]["models"] = data["sides"]["orcs"][0]["models"][:2]
    boss = {"id": "boss", "character": "independent", "joined": "orcs",
            "models": [{"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8", "base": [25, 25]}]}
    data["sides"]["orcs"].append(boss)
    hero = next(u for u in data["sides"]["elves"] if u["id"] == "hero")
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball"]
    g = reloading_game(data)
    cast = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    assert g.check(cast).legal
    # cast on 4 + 4 (no Miscast); 3 hits on three models: one each, the Boss wounded on his own T4 (4+ for S4)
    events = g.apply(cast, ScriptedDice([4, 4, 3] + [1, 1] + [1]))
    shared = next(e for e in events if e.kind == "cast")
    assert "2 hits, 0 unsaved on orcs; 1 hit, 0 unsaved on boss" in shared.message and DISTRIBUTING in shared.rules


@pytest.mark.rule(DISTRIBUTING, "published.t9a-stand-and-shoot", "t9a.join.part-of-unit")
def test_stand_and_shoot_at_a_charging_unit_of_fewer_than_five_shares_its_hits_with_the_character() -> None:
    data = charge_scenario(n=2, joined=True, phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    g = reloading_game(data)
    # five hits on three models: two, two and one (the Hero); none wounds; the charge (6, 6) goes home
    events = g.apply({"do": "charge", "unit": "spears", "target": "orcs"},
                     ScriptedDice([6] * 5 + [1] * 4 + [1] + [6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    rolls = [r.describe() for r in charge.rolls]
    assert any("to wound (4+): 4D6" in r for r in rolls) and any("to wound (5+): 1D6" in r for r in rolls)
    assert DISTRIBUTING in charge.rules and dict(charge.data)["outcome"] == "charged"


def _play(state: Any, action: dict[str, Any]) -> Any:
    ruleset = get_ruleset(state.ruleset)
    act = parse_action(action)

    def play(dice: Dice) -> Any:
        return summarise(state, ruleset.resolve(state, act, dice))
    return play


@pytest.mark.rule(DISTRIBUTING)
@pytest.mark.parametrize("at", [None, "hero"])
def test_shared_hits_give_the_brute_force_odds_and_icepools(at: str | None) -> None:
    g = reloading_game(scenario(n=2, orcs=3))
    action = {**SHOOT, **({"at": at} if at else {})}
    play = _play(g.state, action)
    fast = enumerate_outcomes(play)
    assert fast == enumerate_outcomes(play, fine=True)

    def hero_wounds(dice: Dice) -> int:
        state, _ = get_ruleset("t9a").resolve(g.state, parse_action(action), dice)
        hero = state.unit("hero")
        return hero.models[0].wounds_taken if hero.models else 3

    # icepool: three shots at 5+ (long range), the Hero's share of the hits (one when all three hit, or the first
    # when named), each wounding on 5+ (S3 v T4) and unsaved on 1-3 (Sv4+)
    d6 = icepool.Die(range(1, 7))
    hits = 3 @ (d6 >= 5)
    share = hits.map(lambda h: (1 if h >= 1 else 0) if at else h // 3)
    unsaved = share.map(lambda k: k @ icepool.map(lambda w, s: int(w >= 5 and s <= 3), d6, d6) if k else icepool.Die([0]))
    expected = {k: Fraction(unsaved.quantity(k), unsaved.denominator()) for k in unsaved.outcomes()
                if unsaved.quantity(k)}
    got = enumerate_outcomes(hero_wounds, fine=True)
    assert dict(got.items()) == expected


# -- sequences around a character ----------------------------------------------------------------------------
def _orcs_fight() -> Game:
    """Five Spearmen and their Hero engaged with five orcs who strike first (I7) and hard (WS9 S9 A2)."""
    from test_t9a_melee import melee

    # S9 AP6: no armour save against their blows
    return melee(boss=False, active="orcs", n=5, orc_profile="WS9 BS3 S9 T4 W1 I7 A2 Ld7 Sv6+ Adv4 Mar8 AP6")


@pytest.mark.rule("t9a.combined.last-survivor", "published.t9a-break-test")
def test_a_character_whose_unit_dies_around_him_in_melee_stays_engaged_and_takes_its_break_test_alone() -> None:
    g = _orcs_fight()
    before = g.state
    # I7: ten orc attacks hit and wound: the five Spearmen fall; I6: the Hero's three miss; 5 to 0;
    # the Hero, all that is left of the Spearmen, takes their Break test on his own Ld 9 at -5: 2 holds
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6] * 10 + [6] * 10 + [1] * 3 + [1, 1]))
    hero = g.state.unit("hero")
    assert hero.last_of == "spears" and hero.alive and hero.has(Status.ENGAGED)
    test = events[-1]
    assert "Break test on Ld 9 (Hero)" in test.message and "holds" in test.message
    assert "t9a.combined.last-survivor" in test.rules
    reloads(g)
    after = g.state
    g.undo()
    assert g.state is before and g.state.unit("hero").joined == "spears"
    g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice([6] * 10 + [6] * 10 + [1] * 3 + [1, 1]))
    assert g.state == after
    # he is the Spearmen: in their next round the unit's name fights with him, alone
    play_to(g, "melee", "elves")
    ruling = g.check({"do": "fight", "unit": "spears"})
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    broken = _orcs_fight()
    events = broken.apply({"do": "fight", "unit": "orcs"},
                          ScriptedDice([6] * 10 + [6] * 10 + [1] * 3 + [6, 6] + [1, 1] + [6, 6]))
    assert "t9a.combined.last-survivor" in events[-1].rules and "destroyed" in events[-1].message
    assert not broken.state.unit("hero").alive


@pytest.mark.rule("t9a.join.part-of-unit", "published.t9a-panic", "core.test.leadership-choice")
def test_once_its_character_is_slain_the_unit_tests_on_its_own_leadership() -> None:
    g = reloading_game(scenario(n=1))
    # five hits on two models: three on the Hero (named), who falls; two on the spearman, who does not.
    # One of two models lost: the spearman's Panic test, on his own Ld 8 (the Hero's 9 is gone): 4 + 5 fails
    events = g.apply(AT_HERO, ScriptedDice([6] * 5 + [1, 1] + [6] * 3 + [1] * 3 + [4, 5] + [3, 3]))
    panic = events[-1]
    assert not g.state.unit("hero").alive and panic.kind == "panic"
    assert "Ld 8" in panic.message and dict(panic.data)["outcome"] == "fled"
    assert g.state.unit("spears").has(Status.FLEEING) and not g.state.unit("hero").has(Status.FLEEING)
    g.undo()
    assert g.state.unit("hero").alive and g.state.unit("hero").joined == "spears"


@pytest.mark.rule("t9a.charge-out.success", "t9a.charge-out.no-other-charges", "t9a.join.part-of-unit")
def test_a_character_who_charged_out_is_no_part_of_the_unit_another_enemy_then_charges() -> None:
    data = charge_scenario(joined=True, phase="charge", enemy_y=27)
    data["sides"]["orcs"][0]["formation"]["position"] = [42, 27]
    data["sides"]["orcs"].append({"id": "wolves", "formation": {"position": [30, 28], "facing": 180, "files": 3},
                                  "models": [{"name": f"w{i}", "profile": "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8",
                                              "base": [25, 25]} for i in range(3)]})
    g = reloading_game(data)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([6, 6]))
    assert g.state.unit("hero").joined is None and g.state.unit("hero").has(Status.ENGAGED)
    refused(g, {"do": "charge", "unit": "spears", "target": "wolves"}, "t9a.charge-out.no-other-charges", "charged out")
    play_to(g, "charge", "orcs")  # the elves' player turn is over: the Spearmen may charge again in their next
    assert not g.state.unit("spears").has(Status.NO_CHARGE)
    before = g.state
    ruling = g.check({"do": "charge", "unit": "wolves", "target": "spears"})
    # since session 48 the wolves' Charge Move goes forwards after a wheel (published.t9a-charge): their front
    # (28.52 to 31.48, y = 28) passes left of the Spearmen's (34.03 on, y = 20) until it has wheeled 18 degrees
    # (atan(2.55 / 8) = 17.7), which the ruling names
    assert ruling.legal and "wolves charges, wheeling 18 degrees" in ruling.reason and "at spears" in ruling.reason
    g.apply({"do": "charge", "unit": "wolves", "target": "spears"}, ScriptedDice([6, 6]))
    spears, hero = g.state.unit("spears"), g.state.unit("hero")
    assert spears.has(Status.ENGAGED) and g.state.joined_to("spears") == []  # the Hero is not charged with them
    assert hero.joined is None and not hero.has(Status.CHARGED)
    reloads(g)
    g.undo()
    assert g.state is before


@pytest.mark.rule("t9a.leave.when", "t9a.join.forbidden", "published.t9a-magic", "published.t9a-rally")
def test_a_wizard_whose_unit_flees_neither_leaves_nor_casts_until_it_rallies() -> None:
    from test_t9a_magic import magic_scenario

    data = magic_scenario(rules=[], roles={}, n=4, spear_status=["fleeing"])
    data["sides"]["elves"][0].pop("spells", None)
    hero = next(u for u in data["sides"]["elves"] if u["id"] == "hero")
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball"]
    data["phase"] = "charge"
    cast = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    g = reloading_game(data)
    refused(g, {"do": "leave", "character": "hero", "to": [36, 14]}, "t9a.leave.when", "fleeing")
    # the Rally test fails (12 against Ld 9): the unit flees on, its Wizard with it, and he does not cast
    g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 6, 3, 3]))
    assert g.state.unit("hero").has(Status.FLEEING) and g.state.unit("hero").joined == "spears"
    play_to(g, "magic", "elves")
    refused(g, cast, "published.t9a-magic", "fleeing")
    # rallied (2 against Ld 9): he casts, though the unit counts as having marched
    rallied = reloading_game(data)
    rallied.apply({"do": "rally", "unit": "spears"}, ScriptedDice([1, 1]))
    play_to(rallied, "magic", "elves")
    assert rallied.check(cast).legal
