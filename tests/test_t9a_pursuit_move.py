"""The 9th Age pursuit move (published.t9a-pursuit), played through ``Game`` on scripted dice.

The 2022 text (Move Broken Units): "Pivot the unit so that it is facing the same direction as the Broken unit is
Pursuing, and then move the unit straight forward a distance equal to the previously rolled Pursue Distance"; a
pursuer that catches its enemy moves too ("the direction the Pursued unit would have had, had it not been
destroyed").  Until this session the pursuer rolled and stayed where it stood.

The scenario: ten Spearmen (two ranks, who charged: +2) against five orcs (Ld 7, one rank) who lose by 2 and break on
6 or more; the dice are the Break test, the flee, then the pursuit (a Restrain test before it when named).
"""

from __future__ import annotations

import copy
import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from _t9a import exact_odds_as_brute_force, melee_scenario, refused, reloading_game, reloads
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.geometry import group_distance
from herohammer.rulesets import get_ruleset
from herohammer.rulesets.t9a_units import unit_centre
from herohammer.scenario import state_from_data
from herohammer.state import GameState
from herohammer.units import Status

PURSUIT = "published.t9a-pursuit"
REFORM = "published.t9a-reform"
SPACING = "published.t9a-unit-spacing"
MOVE = "published.t9a-move"
FIGHT: dict[str, Any] = {"do": "fight", "unit": "spears"}
BREAK_AND_FLEE_6 = [6, 6, 3, 3]  # the orcs break on 12 and flee 3 + 3 = 6"


def _one_on_one(**kw: Any) -> dict[str, Any]:
    """The Spearmen at [36, 20] facing up the table (0 degrees), the orcs front to front with them (the Hero apart)."""
    return melee_scenario(spear_status=["engaged", "charged"], joined=False, hero_at=(36, 10), **kw)


def _offset() -> dict[str, Any]:
    """The orcs 3" to the Spearmen's right, still front to front in base contact: they flee at a slant, which the
    Spearmen pivot to face."""
    data = _one_on_one()
    data["sides"]["orcs"][0]["formation"]["position"] = [39, 20]
    return data


def _told(events: list[Any]) -> str:
    return next(e for e in events if e.kind == "break").message


def _way(state: GameState) -> tuple[float, float]:
    """The way the orcs flee: from the Spearmen's centre through theirs (published.t9a-flee)."""
    (sx, sy), (ox, oy) = unit_centre(state, "spears"), unit_centre(state, "orcs")
    length = math.hypot(ox - sx, oy - sy)
    return (ox - sx) / length, (oy - sy) / length


def _facing(way: tuple[float, float]) -> float:
    """The facing (0 degrees up the table, counter-clockwise) of a unit looking along ``way``."""
    return math.degrees(math.atan2(-way[0], way[1])) % 360.0


@pytest.mark.rule(PURSUIT)
@pytest.mark.parametrize("pursuit, caught", [([6, 6], True), ([3, 3], True), ([2, 3], False), ([1, 1], False)])
def test_the_pursuer_pivots_to_the_flee_and_moves_its_roll_caught_or_not(pursuit: list[int], caught: bool) -> None:
    g = reloading_game(_offset())
    before = g.state
    way = _way(before)
    start = unit_centre(before, "spears")
    orcs_start = unit_centre(before, "orcs")
    events = g.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + pursuit))
    told = _told(events)
    rolled = sum(pursuit)
    spears = g.state.unit("spears")
    facing = _facing(way)
    assert spears.formation is not None and spears.formation.facing == pytest.approx(facing)
    assert 280 < facing < 300  # a slant to the right: a real pivot, not its old facing (0)
    assert all(m.facing == pytest.approx(facing) for m in spears.models)
    end = unit_centre(g.state, "spears")  # pivoted about its centre, then straight forward its roll
    assert end == pytest.approx((start[0] + way[0] * rolled, start[1] + way[1] * rolled))
    assert f"spears pivots to face {round(facing, 1):g} degrees and pursues {rolled}\" straight forward" in told, told
    assert PURSUIT in next(e for e in events if e.kind == "break").rules
    orcs = g.state.unit("orcs")
    if caught:
        assert not orcs.models and "caught by a pursuit of" in told and "and destroyed" in told, told
    else:
        assert len(orcs.models) == 5 and orcs.has(Status.FLEEING) and "(pursuit" in told, told
        fled = unit_centre(g.state, "orcs")
        assert math.dist(fled, orcs_start) == pytest.approx(6)  # the escaped unit fled its 6"
    assert not spears.has(Status.ENGAGED)  # in contact with no enemy any more
    reloads(g)


@pytest.mark.rule(PURSUIT)
def test_a_straight_pursuit_moves_the_winner_up_the_table_by_its_roll() -> None:
    g = reloading_game(_one_on_one())
    g.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + [4, 5]))
    f = g.state.unit("spears").formation
    assert f is not None and f.facing == 0 and f.position == pytest.approx((36, 29))  # 9" straight on
    assert not g.state.unit("orcs").models


@pytest.mark.rule(PURSUIT)
def test_a_restrained_unit_stays_where_it_stood() -> None:
    g = reloading_game(_offset())
    before = g.state.unit("spears")
    events = g.apply({**FIGHT, "pursuit": {"spears": {"restrain": True}}}, ScriptedDice(BREAK_AND_FLEE_6 + [4, 4]))
    assert "spears passes its Restrain Pursuit test on Ld 8 (s0): 8, and does not pursue" in _told(events)
    after = g.state.unit("spears")
    assert after.formation == before.formation and [m.at for m in after.models] == [m.at for m in before.models]
    assert len(g.state.unit("orcs").models) == 5  # escaped: nobody pursued


@pytest.mark.rule(PURSUIT, REFORM)
def test_a_restrained_unit_makes_its_post_combat_pivot_or_reform() -> None:
    g = reloading_game(_one_on_one())
    centre = unit_centre(g.state, "spears")
    fight = {**FIGHT, "pursuit": {"spears": {"restrain": True, "facing": 90}}}
    ruling = g.check(fight)
    assert ruling.legal and "spears makes a Post-Combat Pivot if it passes that test" in ruling.reason, ruling
    events = g.apply(fight, ScriptedDice(BREAK_AND_FLEE_6 + [4, 4]))
    assert "spears makes a Post-Combat Pivot: 5 files facing 90 degrees" in _told(events)
    assert REFORM in next(e for e in events if e.kind == "break").rules
    f = g.state.unit("spears").formation
    assert f is not None and f.facing == 90 and unit_centre(g.state, "spears") == pytest.approx(centre)
    g.undo()
    events = g.apply({**FIGHT, "pursuit": {"spears": {"restrain": True, "facing": 180, "files": 2}}},
                     ScriptedDice(BREAK_AND_FLEE_6 + [4, 4]))
    assert "spears makes a Post-Combat Reform: 2 files facing 180 degrees" in _told(events)
    f = g.state.unit("spears").formation
    assert f is not None and (f.files, f.facing) == (2, 180) and unit_centre(g.state, "spears") == pytest.approx(centre)
    g.undo()
    # the test failed: it pursues, and makes no Reform
    events = g.apply({**FIGHT, "pursuit": {"spears": {"restrain": True, "facing": 90}}},
                     ScriptedDice(BREAK_AND_FLEE_6 + [5, 5, 6, 6]))
    assert "Post-Combat" not in _told(events) and g.state.unit("spears").formation.facing == 0


@pytest.mark.rule(PURSUIT)
def test_a_post_combat_reform_without_a_restrain_test_is_a_no_more_foes_units_alone() -> None:
    # round 46: facing or files named without restrain: true is the Post-Combat Pivot or Reform of a unit with No More
    # Foes (the 2022 text); legal to name, made only by such a unit (tests/test_judge_t9a_round46.py)
    ruling = reloading_game(_one_on_one()).check({**FIGHT, "pursuit": {"spears": {"facing": 90}}})
    assert ruling.legal and "Post-Combat Pivot if it has No More Foes" in ruling.reason, ruling


def _fresh_enemy(y: float, side: str = "orcs") -> dict[str, Any]:
    """``_one_on_one`` with five more orcs (not in the combat) across the Spearmen's way, their front edge at ``y``
    (``side``: whose they are; the elves': a friend of the Spearmen that is no part of the combat)."""
    data = _one_on_one()
    fresh = copy.deepcopy(data["sides"]["orcs"][0])
    fresh["id"] = "fresh"
    fresh["status"] = []
    fresh["formation"] = {"position": [36, y], "facing": 0, "files": 5}
    for m in fresh["models"]:
        m["name"] = "f" + m["name"]
    data["sides"][side].append(fresh)
    return data


@pytest.mark.rule(PURSUIT, SPACING)
@pytest.mark.parametrize("pursuit, charged", [([6, 6], True), ([5, 5], False)])
def test_a_pursuit_charges_a_fresh_enemy_it_reaches_and_stops_1_inch_short_of_one_it_does_not(
        pursuit: list[int], charged: bool) -> None:
    # the fresh orcs face away up the table, their rear edge 0.98" (one 25 mm rank) before their front at y = 31, so
    # 10.02" from the Spearmen's front: 12" reaches them, and the Spearmen charge them (round 41, the 2022 text,
    # Pursue Moves: "it declares a Charge against that unit"); 10" does not, and stops 1" short (until round 41 every
    # roll did, charging nothing)
    g = reloading_game(_fresh_enemy(31.0))
    events = g.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + pursuit))
    told = _told(events)
    spears, fresh = g.state.unit("spears"), g.state.unit("fresh")
    gap = group_distance([m.placed for m in spears.models], [m.placed for m in fresh.models])
    assert not g.state.unit("orcs").models  # caught
    if charged:
        assert gap < 0.01, gap  # in base contact
        assert "pursues 12\" straight forward, and 10.02\" on spears charges fresh" in told, told
        assert spears.has(Status.ENGAGED) and fresh.has(Status.ENGAGED)
        return
    assert 1.0 <= gap < 1.0 + 1 / 64 + 1e-9, gap  # stopped as near as Unit Spacing lets it
    assert "pursues 9." in told and "of its 10\" straight forward: further it would end" in told and "from fresh" \
        in told, told
    assert fresh.status == frozenset()
    assert {PURSUIT, SPACING} <= set(next(e for e in events if e.kind == "break").rules)


@pytest.mark.rule(PURSUIT, MOVE)
def test_a_pursuit_stops_at_the_table_edge() -> None:
    data = _one_on_one()
    data["table"] = {"width": 72, "depth": 30}
    g = reloading_game(data)
    events = g.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + [6, 6]))
    f = g.state.unit("spears").formation
    assert f is not None and 30 - 1 / 64 - 1e-9 <= f.position[1] <= 30, f  # its front rank's edge at the table's
    assert "would end off the 72x30\" table" in _told(events), _told(events)
    assert {PURSUIT, MOVE} <= set(next(e for e in events if e.kind == "break").rules)
    reloads(g)


@pytest.mark.rule(PURSUIT)
def test_the_exact_odds_of_the_pursuit_equal_a_brute_force_over_every_face() -> None:
    """The pursuer's end place and the catch: the engine's exact enumeration (its classes) against a brute force that
    plays every face of the flee's and the pursuit's dice (6 x 6 x 6 x 6, the Break test's 6 6 fixed) by Fraction.
    A friendly unit outside the combat stands in the way (an enemy there would take Panic tests, more dice): some
    rolls are stopped short of it, each at its place."""
    data = _fresh_enemy(31.0, "elves")
    state = state_from_data(data)
    rules = get_ruleset("t9a")
    action = rules.named_now(state, parse_action(FIGHT))

    def seen(after: GameState) -> tuple[Any, ...]:
        f = after.unit("spears").formation
        assert f is not None
        return (round(f.position[0], 6), round(f.position[1], 6), round(f.facing, 6), len(after.unit("orcs").models))

    exact = enumerate_outcomes(lambda dice: seen(rules.resolve(state, action, dice)[0]))
    broke = {o: p for o, p in exact.items() if o != seen(state)}  # the orcs held: nothing moved
    held = exact[seen(state)]
    assert held == Fraction(10, 36)  # Ld 7 - 2: holds on 5 or less
    counts: Counter[tuple[Any, ...]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=4):
        game = Game(state)
        game.apply(FIGHT, ScriptedDice([6, 6, *faces]))
        counts[seen(game.state)] += 1
    brute = {o: Fraction(26, 36) * Fraction(n, 6 ** 4) for o, n in counts.items()}
    assert broke == brute
    assert len(brute) > 10  # many places: the distance matters, not only caught or not


@pytest.mark.rule(PURSUIT, MOVE)
def test_a_pursuer_whose_pivot_would_stand_on_a_friend_stays_where_it_stood() -> None:
    data = _offset()
    guards = copy.deepcopy(data["sides"]["elves"][0])  # two Spearmen just behind, no part of the combat
    guards.update(id="guards", status=[], formation={"position": [36, 18.3], "files": 2}, models=guards["models"][:2])
    for m in guards["models"]:
        m["name"] = "g" + m["name"]
    data["sides"]["elves"].append(guards)
    g = reloading_game(data)
    before = g.state.unit("spears")
    events = g.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + [6, 6]))
    assert "spears cannot pivot to pursue (s3 would end on guards's model gs1): it stays where it stood" \
        in _told(events), _told(events)
    assert MOVE in next(e for e in events if e.kind == "break").rules
    after = g.state.unit("spears")
    assert after.formation == before.formation and not g.state.unit("orcs").models  # caught all the same


@pytest.mark.rule(PURSUIT)
def test_odds_action_on_a_pursuit_stopped_short_equals_brute_force() -> None:
    """``odds action``'s exact weights (its outcome rows) equal the enumeration that branches on every die."""
    weights = dict(exact_odds_as_brute_force(state_from_data(_fresh_enemy(31.0, "elves")), FIGHT))
    caught = sum(p for o, p in weights.items() if "break.outcome: destroyed" in o.events)
    assert caught == Fraction(26, 36) * sum(Fraction(a, 36) * Fraction(b, 36) for f, a in _TWO_D6.items()
                                            for p, b in _TWO_D6.items() if p >= f)


_TWO_D6 = Counter(a + b for a in range(1, 7) for b in range(1, 7))


@pytest.mark.rule(PURSUIT, "published.t9a-shaken")
@pytest.mark.parametrize("restrain", [False, True])
def test_a_shaken_winner_does_not_pursue_and_takes_no_restrain_test(restrain: bool) -> None:
    """published.t9a-shaken: "A Shaken model cannot ... pursue". The Shaken Spearmen win and the orcs break and flee
    their 6": no pursuit is rolled (nor a Restrain Pursuit test when asked for), the orcs escape and the Spearmen stay
    where they stood; the same fight without Shaken rolls the pursuit and catches them (the dice after the flee)."""
    data = _one_on_one()
    data["sides"]["elves"][0]["status"] = ["engaged", "charged", "shaken"]
    g = reloading_game(data)
    before = g.state.unit("spears")
    action = {**FIGHT, "pursuit": {"spears": {"restrain": True}}} if restrain else FIGHT
    dice = ScriptedDice(BREAK_AND_FLEE_6 + [6, 6])
    events = g.apply(action, dice)
    told = _told(events)
    assert "spears is Shaken and may not pursue" in told and "Restrain" not in told, told
    assert "published.t9a-shaken" in next(e for e in events if e.kind == "break").rules
    orcs = g.state.unit("orcs")
    assert len(orcs.models) == 5 and orcs.has(Status.FLEEING)
    assert g.state.unit("spears").formation == before.formation  # no Pursuit Move
    assert dice.unused == (6, 6)  # the pursuit dice are left unrolled
    reloads(g)
    calm = reloading_game(_one_on_one())
    calm.apply(FIGHT, ScriptedDice(BREAK_AND_FLEE_6 + [6, 6]))
    assert not calm.state.unit("orcs").models  # caught: the pursuit was rolled


#: a foe the Spearmen's first blows slay: one orc of T1, no save, no attacks
FRAIL_ORC = "WS3 BS3 S3 T1 W1 I2 A0 Ld7 Sv- Adv4 Mar8"


def _wiped_out(spear_status: list[str]) -> dict[str, Any]:
    """Ten Spearmen (A1) front to front with one frail orc (``FRAIL_ORC``), the Hero apart: on 6s it dies to the
    first blows and the combat ends with no enemy left."""
    return melee_scenario(spear_status=spear_status, joined=False, hero_at=(36, 10), orcs=1,
                          spear_profile="WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10", orc_profile=FRAIL_ORC)


def _blow_dice(data: dict[str, Any], action: dict[str, Any]) -> int:
    """How many dice the fight's blows take when every face is a 6 (the fight played once, no Overrun asked)."""
    dice = ScriptedDice([6] * 60)
    Game(state_from_data(data)).apply({k: v for k, v in action.items() if k != "pursuit"}, dice)
    return 60 - len(dice.unused)


OVERRUN = {**FIGHT, "pursuit": {"spears": {"overrun": True}}}


@pytest.mark.rule(PURSUIT)
def test_a_charger_that_wipes_out_its_enemy_overruns_its_2d6_straight_forward() -> None:
    """2022 text, Pursuits and Overruns: "A unit that fought its First Round of Combat after Charging can choose to
    make a special Pursuit Move called Overrun if all enemy units in base contact were wiped out ... step 1. Pivot is
    ignored (i.e. Overruns are straight forward) and ... no Restrain Pursuit Test is required"."""
    data = _wiped_out(["engaged", "charged"])
    blows = _blow_dice(data, OVERRUN)
    g = reloading_game(data)
    ruling = g.check(OVERRUN)
    assert ruling.legal and "spears Overruns if every enemy in its base contact is wiped out" in ruling.reason, ruling
    events = g.apply(OVERRUN, ScriptedDice([6] * blows + [3, 4]))
    combat = next(e for e in events if e.kind == "combat")
    assert "one side has no models left" in combat.message and "spears overruns 7\" straight forward" \
        in combat.message, combat.message
    assert PURSUIT in combat.rules and [r.value for r in combat.rolls][-1:] == [7]
    f = g.state.unit("spears").formation
    assert f is not None and f.facing == 0 and f.position == pytest.approx((36, 27))  # no pivot: 7" up the table
    assert not g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)
    # asked for nothing, the unit stays where it fought, and no die is rolled for it
    stay = reloading_game(data)
    dice = ScriptedDice([6] * blows + [3, 4])
    stay.apply(FIGHT, dice)
    assert stay.state.unit("spears").formation.position == pytest.approx((36, 20)) and dice.unused == (3, 4)


@pytest.mark.rule(PURSUIT)
def test_only_a_unit_that_charged_may_overrun() -> None:
    refused(reloading_game(_wiped_out(["engaged"])), OVERRUN, PURSUIT,
            "only a unit that charged this turn (its first round of combat) may Overrun")


@pytest.mark.rule(PURSUIT, "published.t9a-shaken")
def test_a_shaken_charger_makes_no_overrun() -> None:
    data = _wiped_out(["engaged", "charged", "shaken"])
    blows = _blow_dice(data, OVERRUN)
    g = reloading_game(data)
    dice = ScriptedDice([6] * blows + [3, 4])
    events = g.apply(OVERRUN, dice)
    combat = next(e for e in events if e.kind == "combat")
    assert "spears is Shaken and may not Overrun" in combat.message and "published.t9a-shaken" in combat.rules
    assert g.state.unit("spears").formation.position == pytest.approx((36, 20)) and dice.unused == (3, 4)


@pytest.mark.rule(PURSUIT, SPACING)
def test_an_overrun_stops_1_inch_short_of_a_fresh_enemy_and_its_odds_branch_on_every_total() -> None:
    """Fresh orcs 9" up the table stop the Overrun 1" short, or it charges them (round 41: the 2022 text, Pursuits
    and Overruns: "If the Overrun Move will lead to a Charge"); the exact odds of the Overrun's end place are the 2D6
    totals', the rolls that cannot reach them past the 1" stop sharing one place, those that reach them another."""
    data = _wiped_out(["engaged", "charged"])
    fresh = copy.deepcopy(data["sides"]["orcs"][0])
    fresh.update(id="fresh", status=[], formation={"position": [36, 30], "facing": 0, "files": 5})
    fresh["models"] = [{**m, "name": f"f{i}"} for i, m in enumerate(fresh["models"] * 5)]
    data["sides"]["orcs"].append(fresh)
    blows = _blow_dice(data, OVERRUN)
    g = reloading_game(data)
    events = g.apply(OVERRUN, ScriptedDice([6] * blows + [4, 5]))
    message = next(e for e in events if e.kind == "combat").message
    assert "spears overruns" in message and "of its 9\" straight forward: further it would end" in message, message
    spears, orcs = g.state.unit("spears"), g.state.unit("fresh")
    gap = group_distance([m.placed for m in spears.models], [m.placed for m in orcs.models])
    assert 1.0 <= gap < 1.0 + 1 / 64 + 1e-9, gap
    # the exact odds of the end place: given the orc slain, the place is the 2D6 total's, every total that reaches the
    # fresh orcs' 1" sharing the place it stops at (an orc that lives loses, breaks and is pursued, no Overrun)
    stop = g.state.unit("spears").formation.position
    g.undo()
    state = g.state
    rules = get_ruleset("t9a")
    action = rules.named_now(state, parse_action(OVERRUN))

    def seen(dice: Any) -> tuple[tuple[float, float], bool]:
        after, events = rules.resolve(state, action, dice)
        f = after.unit("spears").formation
        assert f is not None
        return (round(f.position[0], 9), round(f.position[1], 9)), any("overruns" in e.message for e in events)

    exact = enumerate_outcomes(seen)
    slain = {place: p for (place, overran), p in exact.items() if overran}
    given = {place: p / sum(slain.values()) for place, p in slain.items()}
    short = (round(stop[0], 9), round(stop[1], 9))
    # the fresh orcs' rear edge (their front at y = 30, one 25 mm rank deep) is 9.02" from the Spearmen's front: 9"
    # stops 1" short, 10" to 12" reach them and charge, each ending in base contact (placed on the 1/1024" grid)
    rear = 30 - 25 / 25.4
    touching = (36.0, round(20 + math.floor((rear - 20) * 1024) / 1024, 9))
    assert given == {**{(36.0, 20.0 + t): Fraction(6 - abs(7 - t), 36) for t in range(2, int(stop[1] - 20) + 1)},
                     short: Fraction(4, 36), touching: Fraction(3 + 2 + 1, 36)}
