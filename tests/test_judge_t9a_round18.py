"""Judge round 18: the 9th Age rulings a judge meets in play, read against the rulebook (2nd edition; the 2022 text
on the newrecruit.eu wiki where the engine says so): the Flank and Rear Bonuses and Disrupted Ranks, the Battle
Standard Bearer (+1, Rally Around the Flag), Stand and Shoot with the charger's cover, Large units' Full Ranks of
three, and a judge's round on what earlier rounds did not try.  Every case goes through the front door (Game.check
/ apply, the rulings and events they give); dice through the engine's own Dice, exact odds against brute force.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.formations import Formation
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

RESOLUTION = "published.t9a-combat-resolution"
FLANK_REAR = "published.t9a-flank-rear"
BSB = "published.t9a-battle-standard"
BREAK = "published.t9a-break-test"
PANIC = "published.t9a-panic"
RALLY = "published.t9a-rally"
COVER = "published.t9a-cover"
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
FIGHT = {"do": "fight", "unit": "spears"}
STILL_HERO = "WS6 BS6 S4 T4 W3 I6 A0 Ld9 Sv4+ Adv5 Mar10"
SLOT = 20 / 25.4  # a Spearman's 20 mm file and rank, in inches
#: The x of the Spearmen's right flank edge (five 20 mm files centred on x = 36).
FLANK_X = 36 + 2.5 * SLOT


def melee(n: int = 10, files: int = 5, orcs: int = 5, orc_status: tuple[str, ...] = ("charged",),
          joined: bool = True, hero_at: tuple[float, float] = (10, 10), hero_rules: list[str] | None = None,
          hero_status: list[str] | None = None, spear_rules: list[str] | None = None,
          orc_roles: dict[int, str] | None = None, extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The Spearmen (front at y 20, facing up; the Hero in them unless ``joined`` is False) locked front to front with
    the orcs; ``extra`` orc units added.  Nobody has Attacks, so the combat's score is its static bonuses."""
    data = scenario(n=n, orcs=orcs, phase="melee", active="elves", enemy_y=20, joined=joined, hero_at=hero_at,
                    spear_profile=STILL_SPEAR, orc_profile=STILL_ORC, spear_status=["engaged"],
                    orc_status=["engaged", *orc_status], spear_rules=spear_rules, hero_status=hero_status)
    data["sides"]["elves"][0]["formation"]["files"] = files
    hero = data["sides"]["elves"][1]
    hero["models"][0]["profile"] = STILL_HERO
    hero["rules"] = hero_rules or []
    for i, role in (orc_roles or {}).items():
        data["sides"]["orcs"][0]["models"][i]["role"] = role
    data["sides"]["orcs"].extend(extra or [])
    return data


def band(uid: str, n: int, at: tuple[float, float], facing: float, status: tuple[str, ...] = ("engaged",),
         files: int = 5) -> dict[str, Any]:
    """An orc unit of ``n`` (25 mm bases) with its front's centre at ``at``."""
    return {"id": uid, "status": list(status), "formation": {"position": list(at), "facing": facing, "files": files},
            "models": [{"name": f"{uid[0]}{i}", "profile": STILL_ORC, "base": [25, 25]} for i in range(n)]}


def right_flank(n: int = 5, status: tuple[str, ...] = ("engaged",)) -> dict[str, Any]:
    """Wolves facing the Spearmen's right flank (facing 90: towards -x), three of them touching the Spearmen's three
    ranks (their front rank spans y 14.8 to 19.8, clear of the orcs' front at y 20)."""
    return band("wolves", n, (FLANK_X, 17.3), 90, status)


def rear(n: int = 5, ranks: int = 3, status: tuple[str, ...] = ("engaged",), files: int = 5) -> dict[str, Any]:
    """Boars facing the way the Spearmen face, their front against the Spearmen's rear edge (``ranks`` deep)."""
    return band("boars", n, (36, 20 - ranks * SLOT), 0, status, files)


def fought(data: dict[str, Any], dice: list[int]) -> tuple[Game, str, tuple[str, ...]]:
    """Fight the Spearmen's combat on ``dice``; return the game, the last event's message and its rules."""
    g = Game(state_from_data(data))
    events = g.apply(FIGHT, ScriptedDice(dice))
    assert RESOLUTION in events[-1].rules
    return g, events[-1].message, events[-1].rules


# -- Flank and Rear Bonuses (published.t9a-flank-rear) -----------------------------------------------------------
@pytest.mark.rule(FLANK_REAR)
def test_arcs_part_the_table_round_a_unit_by_its_corners() -> None:
    f = Formation((36.0, 20.0), 0.0, 5, tuple(f"s{i}" for i in range(10)), (20.0, 20.0))  # 3.94" wide, 1.57" deep
    assert f.arc_of((36, 25)) == "front" and f.arc_of((45, 28.5)) == "front"  # beyond the 135-degree line's corner
    assert f.arc_of((45, 25)) == "right" and f.arc_of((27, 19)) == "left"
    assert f.arc_of((36, 15)) == "rear" and f.arc_of((38.6, 17.8)) == "right"  # just outside the rear arc's line
    turned = Formation((36.0, 20.0), 90.0, 5, tuple(f"s{i}" for i in range(10)), (20.0, 20.0))  # facing -x
    assert turned.arc_of((30, 20)) == "front" and turned.arc_of((40, 20)) == "rear"
    assert turned.arc_of((37, 25)) == "right" and turned.arc_of((37, 15)) == "left"


@pytest.mark.rule(FLANK_REAR, RESOLUTION)
def test_a_unit_fighting_an_enemy_flank_adds_one_and_the_front_nothing() -> None:
    # orcs in front only: +1 charge; elves +1 ranks: a draw
    g, said, rules = fought(melee(), [])
    assert "a draw, 1 to 1" in said and "flank" not in said and FLANK_REAR not in rules, said
    # the wolves in the right flank: +1 more for the orcs' side, the Spearmen lose by 1 and test at -1
    g, said, rules = fought(melee(extra=[right_flank()]), [4, 4])
    assert "wolves +1 (flank)" in said and "orcs wins by 1 (1 to 2;" in said and FLANK_REAR in rules, said
    # five wolves are one Full Rank: no Disrupted Ranks, the Spearmen (two) stay Steadfast
    assert "Ld 9 (Hero) unmodified, Steadfast: 8, holds" in said
    reloads(g)


@pytest.mark.rule(FLANK_REAR, RESOLUTION)
def test_a_unit_fighting_an_enemy_rear_adds_two() -> None:
    g, said, rules = fought(melee(extra=[rear()]), [3, 3])
    assert "boars +2 (rear)" in said and "orcs wins by 2 (1 to 3;" in said and FLANK_REAR in rules, said
    assert "Ld 9 (Hero) unmodified, Steadfast: 6, holds" in said


@pytest.mark.rule(FLANK_REAR, RESOLUTION)
def test_each_facing_counts_once_and_both_sides_score_their_own_flanks() -> None:
    # the wolves in the flank and the boars in the rear: +1 and +2 (the orcs +1 charge): 4 to 1
    g, said, _ = fought(melee(extra=[right_flank(), rear(3, files=3)]), [1, 1])
    assert "wolves +1 (flank)" in said and "boars +2 (rear)" in said and "orcs wins by 3 (1 to 4;" in said, said


@pytest.mark.rule(FLANK_REAR, BREAK)
def test_an_enemy_with_two_full_ranks_in_the_flank_takes_away_steadfast() -> None:
    # fifteen Spearmen (three Full Ranks, +2) against five charging orcs with a standard (+2) and wolves in the flank
    # (+1): they lose by 1, but have more Full Ranks than any winner: Steadfast while the wolves have one Full Rank
    g, said, rules = fought(melee(n=14, orc_roles={0: "standard"}, extra=[right_flank(5)]), [4, 5])
    assert "orcs wins by 1 (2 to 3;" in said and "unmodified, Steadfast: 9, holds" in said, said
    # ten wolves (two Full Ranks, +1 more): Disrupted Ranks, no Steadfast: the test is at -2 and 4 + 5 fails
    # (the orcs' and the wolves' pursuits, 1 + 1 each: every winner in contact pursues, round 32)
    g, said, rules = fought(melee(n=14, orc_roles={0: "standard"}, extra=[right_flank(10)]),
                            [4, 5, 1, 1, 1, 1, 1, 1])
    assert "orcs wins by 2 (2 to 4;" in said and "not Steadfast: Disrupted Ranks, wolves" in said, said
    assert "Ld 9 (Hero) -2" in said and "breaks" in said and FLANK_REAR in rules and BREAK in rules
    assert g.state.unit("spears").has(Status.FLEEING) or not g.state.unit("spears").alive


# -- Battle Standard Bearer (published.t9a-battle-standard) ------------------------------------------------------
@pytest.mark.rule(BSB, RESOLUTION)
def test_the_battle_standard_bearer_in_the_combat_adds_one() -> None:
    # the orcs' ranks (ten, +1) and charge (+1) beat the Spearmen's ranks by 1 ...
    _, said, rules = fought(melee(orcs=10), [4, 4])
    assert "orcs wins by 1 (1 to 2;" in said and BSB not in rules, said
    # ... and draw when the Hero in the Spearmen is the Battle Standard Bearer
    g, said, rules = fought(melee(orcs=10, hero_rules=["Battle Standard Bearer"]), [])
    assert "a draw, 2 to 2" in said and "battle standard +1" in said and BSB in rules, said
    reloads(g)


@pytest.mark.rule(BSB, BREAK)
def test_rally_around_the_flag_re_rolls_a_failed_break_test_within_12_inches() -> None:
    bearer = ["Battle Standard Bearer"]
    # the Bearer stands alone 4" from the Spearmen (no +1: not in the combat): 6 + 6 fails, re-rolled 4 + 4 holds
    g, said, rules = fought(melee(n=11, orcs=10, joined=False, hero_at=(30, 15), hero_rules=bearer), [6, 6, 3, 3])
    assert "the first roll, 12, failed and was re-rolled for Rally Around the Flag (Hero" in said, said
    assert "Ld 8 (s0) -1" in said and ": 6, holds" in said and BSB in rules and BREAK in rules
    # beyond 12", or fleeing, he re-rolls nothing: the unit breaks on 6 + 6 (flee and pursuit dice follow)
    for kw in ({"hero_at": (10, 5)}, {"hero_at": (30, 15), "hero_status": ["fleeing"]}):
        g, said, rules = fought(melee(n=11, orcs=10, joined=False, hero_rules=bearer, **kw), [6, 6, 1, 1, 1, 1])
        assert "re-rolled" not in said and "breaks" in said and BSB not in rules, said


@pytest.mark.rule(BSB, RALLY)
def test_a_re_rolled_rally_tests_exact_odds_are_brute_forces() -> None:
    # (a Break test's failure flees and is pursued, both placed for every roll: too slow to walk die by die here;
    # the Break, Panic and Rally tests share one re-roll, ``discipline_test``)
    data = scenario(n=2, phase="charge", active="elves", joined=False, hero_at=(30, 15), spear_status=["fleeing"])
    data["sides"]["elves"][1]["rules"] = ["Battle Standard Bearer"]
    weights = exact_odds_as_brute_force(state_from_data(data), {"do": "rally", "unit": "spears"})
    assert len(weights) > 1


@pytest.mark.rule(BSB, RALLY)
def test_rally_around_the_flag_re_rolls_a_failed_rally_test() -> None:
    data = scenario(phase="charge", active="elves", joined=False, hero_at=(30, 15), spear_status=["fleeing"])
    data["sides"]["elves"][1]["rules"] = ["Battle Standard Bearer"]
    g = Game(state_from_data(data))
    events = g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([6, 6, 3, 3]))
    assert "spears rallies" in events[-1].message and "re-rolled for Rally Around the Flag" in events[-1].message
    assert BSB in events[-1].rules and RALLY in events[-1].rules
    assert not g.state.unit("spears").has(Status.FLEEING)
    # the fleeing Bearer rallies himself without it: his own failed test stands
    data["sides"]["elves"][1]["status"] = ["fleeing"]
    g = Game(state_from_data(data))
    events = g.apply({"do": "rally", "unit": "hero"}, ScriptedDice([6, 6, 1, 1]))
    assert "fails to rally" in events[-1].message and BSB not in events[-1].rules


@pytest.mark.rule(BSB, PANIC)
def test_rally_around_the_flag_re_rolls_a_failed_panic_test() -> None:
    # the orc archers shoot three of ten Spearmen down (a quarter): Panic, 6 + 6 fails, re-rolled 2 + 2 passes
    data = scenario(joined=False, hero_at=(30, 15))
    data["sides"]["elves"][1]["rules"] = ["Battle Standard Bearer"]
    g = Game(state_from_data(data))
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
                     ScriptedDice([6] * 5 + [6, 6, 6, 1, 1] + [1, 1, 1] + [6, 6, 2, 2]))
    panic = events[-1]
    assert panic.kind == "panic" and "passes" in panic.message and "re-rolled for Rally Around the Flag" in \
        panic.message, panic
    assert BSB in panic.rules and PANIC in panic.rules


# -- Stand and Shoot and cover (published.t9a-stand-and-shoot, published.t9a-cover) ------------------------------
def _archers(kind: str | None, orcs: int = 5) -> dict[str, Any]:
    """Orc archers (BS3, bows) with Stand and Shoot 8" from the Spearmen; a wall of ``kind`` between them."""
    data = scenario(joined=True, phase="charge", active="elves", enemy_y=28, orcs=orcs)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    if kind is not None:
        data["terrain"] = [{"id": "wall", "kind": kind, "polygon": [[28, 23], [44, 23], [44, 23.5], [28, 23.5]]}]
    return data


CHARGE = {"do": "charge", "unit": "spears", "target": "orcs"}


@pytest.mark.rule(STAND_AND_SHOOT, COVER)
@pytest.mark.parametrize(("kind", "hits"), [(None, 5), ("soft_cover", 0), ("hard_cover", 0)])
def test_stand_and_shoot_takes_the_chargers_cover_as_a_volley_does(kind: str | None, hits: int) -> None:
    # BS3 -1 for Stand and Shoot: 5+; behind soft cover 6+, hard cover 7+ (a 6 then 4+): five 5s hit in the open only
    g = Game(state_from_data(_archers(kind)))
    events = g.apply(CHARGE, ScriptedDice([5] * 5 + [1] * 20))
    charge = next(e for e in events if e.kind == "charge")
    to_hit = [r for e in events for r in e.rolls if r.purpose.startswith("Stand and Shoot: to hit")]
    assert to_hit and sum(1 for r in to_hit for f in r.faces if f >= 5) == 5
    assert "stood and shot (5 shots" in charge.message
    if kind is None:
        assert COVER not in charge.rules
    else:
        assert COVER in charge.rules and f"{kind.split('_')[0]} cover behind wall" in charge.message, charge.message
    wounds = [r for e in events for r in e.rolls if "to wound" in r.purpose]
    assert (len(wounds) > 0) == (hits > 0)


@pytest.mark.rule(STAND_AND_SHOOT, COVER)
def test_stand_and_shoot_through_cover_exact_odds_are_brute_forces() -> None:
    exact_odds_as_brute_force(state_from_data(_archers("soft_cover", orcs=2)), CHARGE)


# -- Large units' Full Ranks (published.t9a-combat-resolution) ---------------------------------------------------
@pytest.mark.rule(RESOLUTION, BREAK)
def test_a_large_unit_counts_full_ranks_of_three() -> None:
    # nine Spearmen three wide: no Full Rank as Infantry (the orcs' charge wins by 1), three as Large (+2, Steadfast)
    _, said, _ = fought(melee(n=9, files=3, joined=False), [1, 1])
    assert "spears +" not in said and "orcs wins by 1 (0 to 1;" in said, said
    _, said, _ = fought(melee(n=9, files=3, joined=False, spear_rules=["Large"]), [1, 1])
    assert "spears +2 (ranks)" in said and "elves wins by 1 (2 to 1;" in said, said
    # two wide is too narrow even for Large
    _, said, _ = fought(melee(n=8, files=2, joined=False, spear_rules=["Large"]), [1, 1])
    assert "spears +" not in said, said


# -- a judge's round: what rounds 1-17 did not try ---------------------------------------------------------------
MISCAST = "published.t9a-miscast"
CAST = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}


def _wizard_in_unit(n: int = 8) -> Game:
    """The Hero, a Wizard Adept with Fireball, in ``n`` Spearmen; the orcs 10" away."""
    data = scenario(n=n, phase="magic", active="elves", joined=True, enemy_y=30,
                    extra={"magic_dice": {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][1]["rules"] = ["Wizard Adept"]
    data["sides"]["elves"][1]["spells"] = ["Fireball"]
    return Game(state_from_data(data))


@pytest.mark.rule(MISCAST, PANIC)
def test_a_miscast_that_kills_a_quarter_of_the_wizards_unit_calls_for_its_panic_test() -> None:
    # three 3s with 3 Magic Dice (-1): the 2022 Miscast 222, Witchfire; Fireball's 1 hit fails to wound; Witchfire's
    # six S3 (the 3 dice) hits with Armour Penetration 2 (no save of 5+ left) slay six of nine (the Hero's unit):
    # heavy casualties, a Panic test (6 + 6 fails on Ld 9) and a flee of 3 + 3, the Hero with them
    g = _wizard_in_unit()
    cast = {**CAST, "dice": 3}
    events = g.apply(cast, ScriptedDice([3, 3, 3, 1, 1, 6] + [6] * 6 + [6, 6] + [3, 3]))
    assert [e.kind for e in events] == ["cast", "miscast", "panic"]
    assert "fails its Panic test (12 against Ld 9, Hero)" in events[-1].message and MISCAST in events[-1].rules
    assert g.state.unit("spears").has(Status.FLEEING) and g.state.unit("hero").has(Status.FLEEING)
    reloads(g)
    # one slain of nine is no quarter: no test
    g = _wizard_in_unit()
    events = g.apply(cast, ScriptedDice([3, 3, 3, 1, 1, 1, 6]))
    assert [e.kind for e in events] == ["cast", "miscast"] and "slain: " in events[-1].message


@pytest.mark.rule("published.t9a-combat-resolution")
def test_a_fight_without_attacks_says_no_blows_are_struck() -> None:
    """A fight whose models have no Attacks still tells what it was: no blows, then the score of its bonuses alone."""
    g = Game.from_data(melee())
    g.apply(FIGHT)
    told = next(e for e in g.log if e.kind == "fight")
    assert told.message == "spears fights orcs: no blows are struck (no model in contact has an Attack)"
