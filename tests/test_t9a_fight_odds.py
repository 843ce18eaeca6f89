"""The 9th Age fight's exact odds (issue 11): the flee and pursuit of a broken unit, and the blows as chains of pools.

``odds action`` on a fight that may end in a Break branches on whether the pursuit catches the unit (not on
every pursuit total), rolls to hit, to wound and saves as one chain (one chance node over the unsaved
wounds), and keeps what the dice do not decide per state fought from (each step's blows, what a strike's
unsaved wounds did, a broken unit's place per flee distance).  The answers stay those of brute force
(``enumerate_outcomes(..., fine=True)``: every total a branch, every pool rolled stage by stage), and play
rolls the same dice as before.
"""

from __future__ import annotations

import pytest

from _t9a import STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, scenario
from herohammer.dice import ScriptedDice, SeededDice, Stage, enumerate_outcomes
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.rulesets.t9a_combat import flee, strike_unit, wound_unit
from herohammer.scenario import state_from_data

PURSUIT = "published.t9a-pursuit"
BREAK = "published.t9a-break-test"
FLEE = "published.t9a-flee"
TO_HIT = "published.t9a-to-hit-melee"
TO_WOUND = "published.t9a-to-wound"
FIGHT = {"do": "fight", "unit": "spears"}


def _broken(orc_y: float = 20.0) -> Game:
    """Four Spearmen without Attacks lose by 2 to five charging orcs with a standard: a Break test at -2."""
    data = scenario(n=4, orcs=5, phase="melee", active="elves", enemy_y=orc_y, joined=False,
                    spear_profile=STILL_SPEAR, orc_profile=STILL_ORC, spear_status=["engaged"],
                    orc_status=["engaged", "charged"])
    data["sides"]["elves"][0]["formation"]["files"] = 4
    data["sides"]["orcs"][0]["models"][0]["role"] = "standard"
    return Game(state_from_data(data))


@pytest.mark.rule(PURSUIT, BREAK, FLEE)
def test_a_broken_units_flee_and_pursuit_are_exact_as_brute_force() -> None:
    g = _broken()
    weights = exact_odds_as_brute_force(g.state, FIGHT)
    destroyed = sum(w for o, w in weights if o.lost("spears") == 4)
    fled = sum(w for o, w in weights if o.gained("spears", "fleeing"))
    assert destroyed > 0 and fled > 0  # both ways a Break ends are in the answer, with brute force's odds


@pytest.mark.rule(PURSUIT, FLEE)
def test_the_pursuit_is_still_rolled_and_logged_as_two_dice_in_play() -> None:
    g = _broken()
    events = g.apply(FIGHT, SeededDice(3))
    pursuit = [r for e in events for r in e.rolls if r.rule == PURSUIT]
    assert all(r.request == "2D6" and r.faces is not None and len(r.faces) == 2 for r in pursuit)
    assert not g.check(FIGHT).legal  # the combat was fought


@pytest.mark.rule(FLEE)
def test_a_flee_kept_per_state_ends_where_a_flee_worked_out_alone_ends() -> None:
    g = _broken()
    state = g.state
    kept: dict = {}
    for seed in range(12):
        alone = flee(state, "spears", (36.0, 40.0), SeededDice(seed))
        twice = [flee(state, "spears", (36.0, 40.0), SeededDice(seed), kept=kept) for _ in range(2)]
        assert twice[0] == twice[1] == alone
    # no direction (the point is the unit's centre): the unit stays where it stood, as carrying it on did
    stood = state.unit("spears").formation
    moved, _ = flee(state, "spears", stood.centre, SeededDice(0), kept=kept)
    assert moved.unit("spears").formation.position == stood.position


@pytest.mark.rule(TO_HIT, TO_WOUND)
@pytest.mark.parametrize("attacks", [1, 4, 7])
def test_a_strike_as_one_chain_is_exact_as_brute_force_and_rolls_what_wound_unit_rolls(attacks: int) -> None:
    state = state_from_data(scenario(n=6, orcs=5, phase="melee", active="elves", enemy_y=20))
    victim = state.unit("orcs")
    hit = Stage(4, "elves: to hit (WS4)", TO_HIT)

    def struck(dice):  # what the strike decides: the orcs left, with their wounds
        after, harm = strike_unit(state, victim, attacks, hit, 3, dice, "elves (I5)")
        return len(after.unit("orcs").models), harm.unsaved, harm.lost

    assert enumerate_outcomes(struck) == enumerate_outcomes(struck, fine=True)
    for seed in range(5):  # play: the same rolls, in order, as a pool to hit and then wound_unit
        chained, alone = SeededDice(seed), SeededDice(seed)
        after, harm = strike_unit(state, victim, attacks, hit, 3, chained, "elves (I5)")
        hits = alone.pool(attacks, 4, "elves: to hit (WS4)", TO_HIT)
        after_alone, harm_alone = wound_unit(state, victim, hits, 3, alone, "elves (I5)")
        assert chained.log == alone.log and after == after_alone and harm == harm_alone


@pytest.mark.rule(BREAK, PURSUIT)
def test_a_combat_fought_once_is_refused_the_second_time_and_changes_nothing() -> None:
    g = _broken()
    assert g.check(FIGHT).legal
    g.apply(FIGHT, ScriptedDice([3, 3]))  # the Break test passed (6 on Ld 8 - 2): the spears hold
    before = g.state
    ruling = g.check(FIGHT)
    assert not ruling.legal and "has been fought" in ruling.reason
    with pytest.raises(IllegalActionError):
        g.apply(FIGHT)
    assert g.state is before


@pytest.mark.rule(FLEE, BREAK)
def test_a_unit_broken_front_to_front_flees_straight_away_from_the_winners_centre() -> None:
    """Two units fighting front to front share their front edges' centre: the flee runs from the winner's centre
    through the loser's (their footprints' middles), so the loser moves, the full 2D6, straight back."""
    import math

    from herohammer.rulesets.t9a_units import unit_centre

    before = _broken().state
    assert before.unit("spears").formation.position == before.unit("orcs").formation.position  # front to front
    start = math.dist(unit_centre(before, "spears"), unit_centre(before, "orcs"))
    fled = 0
    for seed in range(40):
        g = _broken()
        events = g.apply(FIGHT, SeededDice(seed))
        flee_rolls = [r for e in events for r in e.rolls if r.rule == FLEE]
        spears = g.state.unit("spears")
        if not flee_rolls or not spears.alive or not spears.models:
            continue
        fled += 1
        distance = sum(flee_rolls[0].faces or ())
        # measured from where the orcs stood: they pursue since the pursuit moves (published.t9a-pursuit)
        gap = math.dist(unit_centre(g.state, "spears"), unit_centre(before, "orcs"))
        assert gap == pytest.approx(start + distance)  # moved away by its flee distance, not left where it stood
        assert unit_centre(g.state, "spears")[1] < unit_centre(before, "spears")[1]  # away from the orcs (north)
    assert fled  # some seed broke them and they got away


@pytest.mark.rule(TO_HIT, TO_WOUND, BREAK, "t9a.join.part-of-unit")
def test_the_fight_as_merged_steps_gives_the_odds_of_the_fight_replayed_whole() -> None:
    """The fight walks as a ``Dice.loop`` (each Initiative step, then the combat's result): carries that differ only in
    their dice merge after each step.  Its exact odds equal the fight replayed whole at every leaf
    (``merge_loops=False``, what every fight did before), a Hero joined to the Spearmen and a Break possible, on
    fewer rules-code runs; play rolls the dice of the fight replayed whole."""
    from herohammer.action_odds import summarise
    from herohammer.actions import parse_action
    from herohammer.dice import Budget, enumerate_within
    from herohammer.rulesets import get_ruleset

    state = state_from_data(scenario(n=5, orcs=5, phase="melee", active="elves", enemy_y=20.0, joined=True,
                                     spear_status=["engaged"], orc_status=["engaged", "charged"],
                                     hero_status=["engaged"]))
    rules = get_ruleset("t9a")
    act = rules.named_now(state, parse_action(dict(FIGHT)))

    def fought(dice):
        return summarise(state, rules.resolve(state, act, dice))

    merged, whole = Budget(10**6), Budget(10**6)
    odds = enumerate_within(fought, merged)
    assert dict(odds.items()) == dict(enumerate_outcomes(fought, merge_loops=False).items())
    from herohammer.dice import _enumerate
    _enumerate(fought, whole, False, False, True, None)
    assert merged.runs < whole.runs
    assert any(o.gained("spears", "fleeing") for o in odds) or any(o.gained("orcs", "fleeing") for o in odds)
    g = Game(state)
    events = g.apply(FIGHT, SeededDice(4))
    told = next(e for e in events if e.kind == "fight")
    assert told.rolls and all(r.faces is not None for r in told.rolls)  # every die rolled in play, none merged
