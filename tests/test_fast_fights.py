"""A close combat enumerated step by step (equal states merged) gives exactly the brute-force answer."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer.action_odds import action_odds, summarise, summary_view
from herohammer.actions import parse_action
from herohammer.dice import Dice, ScriptedDice, SeededDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.rulesets.w40k_close_combat import _allocate_melee
from herohammer.rulesets.w40k_wounds import WoundBatch, models_of
from herohammer.rulings import Event
from herohammer.values import MEMO, evolve
from herohammer.scenario import state_from_data
from herohammer.units import Status

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def small_fight(ruleset: str, with_characters: bool) -> dict[str, Any]:
    """A Marine in base contact with a Boy (with a Chaplain against a Nob)."""
    def m(name: str, profile: str, x: float, y: float) -> dict[str, Any]:
        return {"name": name, "profile": profile, "base": 25, "at": [x, y]}

    n = 1  # the oracles replay the whole fight per leaf: keep it small
    red: list[dict[str, Any]] = [{"id": "squad", "models": [m(f"Marine {i}", MARINE, 20 + 1.2 * i, 20) for i in range(n)]}]
    blue: list[dict[str, Any]] = [{"id": "boyz", "models": [m(f"Boy {i}", BOY, 20 + 1.2 * i, 20.99) for i in range(n)]}]
    if with_characters:
        red.append({"id": "chaplain", "character": "independent", "joined": "squad",
                    "models": [m("Chaplain", "WS5 BS5 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+", 22.4, 20)]})
        blue.append({"id": "nob", "character": "ordinary", "joined": "boyz",
                     "models": [m("Nob", "WS4 BS2 S4 T4 W2 I3 A2 Ld7 Sv6+", 22.4, 20.99)]})
    return {"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": red, "blue": blue}}


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("with_characters", [False, True])
def test_a_fight_merged_step_by_step_equals_brute_force(ruleset: str, with_characters: bool) -> None:
    state = state_from_data(small_fight(ruleset, with_characters))
    action = parse_action({"do": "fight", "unit": "squad"})
    assert Game(state).check(action).legal
    rules = get_ruleset(ruleset)

    def play(dice: Dice) -> Any:
        return summarise(state, rules.resolve(state, action, dice))

    fast = enumerate_outcomes(play)
    assert fast == enumerate_outcomes(play, positions=False)  # no positions read
    # what ``odds action`` asks: no positions read, and events only through ``summary_view``
    assert fast == enumerate_outcomes(play, positions=False, event_view=summary_view)
    # the merging alone against the whole fight replayed per leaf (classes and chains are checked
    # against brute force elsewhere); the smallest fight also against brute force itself
    assert fast == enumerate_outcomes(play, 400_000, merge_loops=False)
    if not with_characters:
        assert fast == enumerate_outcomes(play, 400_000, fine=True)
    assert len(fast) >= 3  # a draw, and casualties on either side


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_odds_of_a_larger_fight_equal_the_whole_fight_replayed_per_leaf(ruleset: str) -> None:
    """Two Marines and a Chaplain against two Boyz and a Nob: ``odds action`` (steps walked once per
    position, the score as margins, events as the answer reads them) gives the oracle's answer exactly."""
    data = small_fight(ruleset, True)
    for side, name, profile in (("red", "Marine 1", MARINE), ("blue", "Boy 1", BOY)):
        group = data["sides"][side][0]
        group["models"].append({"name": name, "profile": profile, "base": 25,
                                "at": [18.8, group["models"][0]["at"][1]]})
    state = state_from_data(data)
    action = parse_action({"do": "fight", "unit": "squad"})
    rules = get_ruleset(ruleset)

    def play(dice: Dice) -> Any:
        return summarise(state, rules.resolve(state, action, dice))

    odds = action_odds(state, action)
    assert odds.exact
    assert dict(odds.weights) == dict(enumerate_outcomes(play, 1_000_000, merge_loops=False).items())


def test_play_of_a_fight_rolls_in_initiative_order() -> None:
    """The loop is invisible in play: Initiative 4 strikes before 2, every pool logged with its faces."""
    g = Game(state_from_data(small_fight("40k3", True)), SeededDice(5))
    events = g.apply({"do": "fight", "unit": "squad"})
    steps = [e.message for e in events if e.kind == "initiative"]
    assert steps == sorted(steps, key=lambda m: -int(m.split()[1]))
    assert all(r.faces for e in events for r in e.rolls)


@pytest.mark.rule("published.fall-back", "published.leaving-the-battle")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_unit_that_falls_back_leaves_the_combat_even_when_the_table_edge_stops_it(ruleset: str) -> None:
    """The winner is no longer locked once its enemy falls back, however far the roll takes it.

    The Boy stands on the table edge straight behind the Marine: falling back away from the
    Marine he reaches the edge at once, so his unit leaves the battle and is removed
    (published.leaving-the-battle), and the Marine is no longer locked.  (Only where the
    longest roll keeps every model off the edge may ``odds action`` roll a fall-back distance
    as one branch: then nothing but positions depends on it.)
    """
    tough_boy = BOY.replace("W1", "W2")
    data = {"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "squad", "status": ["locked"], "models": [
                          {"name": "Marine", "profile": MARINE, "base": 25, "at": [20, 46.516]}]}],
                      "blue": [{"id": "boyz", "status": ["locked"], "models": [
                          {"name": "Boy", "profile": tough_boy, "base": 25, "at": [20, 47.5]}]}]}}
    # the Marine: hit 6, wound 6, save 1 (one unsaved wound); the Boy: hits 1 1; Morale 6 6 fails; (4th ed.: the Boy
    # breaks off the Sweeping Advance, I2 + 6 against I4 + 1, published.sweeping-advance); fall back 6 6
    sweep = [6, 1] if ruleset == "40k4" else []
    game = Game(state_from_data(data), ScriptedDice([6, 6, 1, 1, 1, 6, 6, *sweep, 6, 6]))
    events = game.apply({"do": "fight", "unit": "squad"})
    assert [e.kind for e in events if e.kind == "fall_back"] == ["fall_back"]
    boyz, squad = game.state.unit("boyz"), game.state.unit("squad")
    assert boyz.models == () and any("leaves the battle" in e.message for e in events)  # gone off the edge
    assert boyz.has(Status.FALLING_BACK) and not boyz.has(Status.LOCKED)
    assert not squad.has(Status.LOCKED)


@pytest.mark.parametrize("ruleset,with_characters", [("40k3", False), ("40k4", False), ("40k3", True)])
def test_simulate_outcomes_of_a_fight_equal_brute_force(ruleset: str, with_characters: bool) -> None:
    """What ``simulate`` tallies (every event kind, every status, losses) is exact too, not only the odds summary."""
    from herohammer.simulate import make_driver, outcome_of

    state = state_from_data(small_fight(ruleset, with_characters))
    driver = make_driver(state, [{"do": "fight", "unit": "squad"}])
    node = driver.start(state)

    def play(dice: Dice) -> Any:
        return outcome_of(state, driver.step(node, dice))

    # brute-force rolls; the loop merged (the merging itself is checked against whole replays above)
    assert enumerate_outcomes(play) == enumerate_outcomes(play, 400_000, fine=True, merge_loops=True)


_SAVES = st.sampled_from(["", " Sv6+", " Sv4+", " Sv3+"])
_INVULNERABLES = st.sampled_from(["", "", " Inv4+"])
_PROFILES = st.builds(lambda w, sv, inv: f"WS4 BS4 S4 T4 W{w} I4 A1 Ld8{sv}{inv}", st.sampled_from([1, 1, 2, 3]),
                      _SAVES, _INVULNERABLES)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_PROFILES, st.integers(0, 3)), min_size=1, max_size=6),
       st.lists(st.tuples(_PROFILES, st.integers(0, 3)), max_size=2), st.sampled_from(["40k3", "40k4"]),
       st.booleans(), st.integers(1, 12), st.data())
def test_a_strike_allocates_its_wounds_as_take_wounds_does(host: list[tuple[str, int]], boss: list[tuple[str, int]],
                                                          ruleset: str, ignores_armour: bool, most: int,
                                                          data: st.DataObject) -> None:
    """A strike's wounds allocated in the pass that found its save groups (``_allocate_melee``) are exactly
    ``_saved_wounds``'s with the same saves: the same wounds on the same models, the same events and total.

    Models already wounded, some to 0 Wounds (slain, waiting for the end of the Initiative step), are drawn too.
    """
    def model(name: str, profile: str, x: float) -> dict[str, Any]:
        return {"name": name, "profile": profile, "base": 25, "at": [x, 30]}

    blue: list[dict[str, Any]] = [{"id": "mob", "models": [model(f"Mob {i}", p, 20 + 2 * i)
                                                           for i, (p, _) in enumerate(host)]}]
    if boss:
        blue.append({"id": "boss", "character": "independent", "joined": "mob",
                     "models": [model(f"Boss {i}", p, 40 + 2 * i) for i, (p, _) in enumerate(boss)]})
    state = state_from_data({"ruleset": ruleset, "phase": "assault", "active": "red",
                             "table": {"width": 72, "depth": 48}, "sides": {"red": [], "blue": blue}})
    hurt = []
    for unit, drawn in zip(state.units, (host, boss)):
        hurt.append(evolve(unit, models=tuple(evolve(m, wounds_taken=min(t, m.profile.w))
                                              for m, (_, t) in zip(unit.models, drawn))))
    state = state.replace_units(*hurt)
    rules = get_ruleset(ruleset)
    pool = [(u.id, i) for u in state.combined("mob") for i in range(len(u.models))]
    models = models_of(state, pool)
    saving = rules._save_split(state, pool, ignores_armour, most, "mob", models)
    if saving is None:  # no model left to take a wound: _saved_wounds takes none either
        assert rules._saved_wounds(state, pool, [WoundBatch(most, None, ignores_armour)], SeededDice(0), "mob",
                                   ("x",))[0] is None
        return
    got = data.draw(st.integers(1, most))
    shares = saving[0].shares[got]
    unsaved_now = [data.draw(st.integers(0, k)) for k in shares]
    saved = {group: k - u for group, k, u in zip(saving[1], shares, unsaved_now)}
    events: list[Event] = []
    fast = _allocate_melee(models, saving, got, unsaved_now, ("x",), events)
    taken, plain_events, unsaved = rules._saved_wounds(state, pool, [WoundBatch(got, None, ignores_armour)],
                                                       SeededDice(0), "mob", ("x",), saved_already=saved,
                                                       models=models)
    assert fast == (taken, unsaved)
    assert list(taken or {}) == list(fast[0])  # in the same order (the slain are named in it)
    assert events == plain_events


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_fight_applied_again_on_the_same_state_plays_as_on_a_new_one(ruleset: str) -> None:
    """What a fight remembers of its starting state (``_FightSetup``: the engagement, the first Initiative
    step's attacks, and from the second fight on the later steps' attacks by their state's value) changes
    nothing: each fight on a game that fought from that state before gives exactly the events and state of
    the same dice on a state just built from the same data."""
    data = small_fight(ruleset, True)
    for side, name, profile in (("red", "Marine 1", MARINE), ("blue", "Boy 1", BOY)):
        group = data["sides"][side][0]
        group["models"].append({"name": name, "profile": profile, "base": 25, "at": [18.8, group["models"][0]["at"][1]]})
    action = {"do": "fight", "unit": "squad"}
    again = Game(state_from_data(data))
    for seed in range(60):
        events = again.apply(action, SeededDice(seed))
        new = Game(state_from_data(data))
        assert events == new.apply(action, SeededDice(seed))
        assert again.state == new.state
        again.undo()


def _bench_fight(ruleset: str) -> dict[str, Any]:
    """10 Marines and a Chaplain against 10 Boyz and a Nob (``benchmarks/scenarios.py``, the speed rows' fight)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import scenarios

    return scenarios.fight(ruleset)


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("position", ["small", "bench"])
def test_a_fight_fought_again_from_one_state_keeps_only_what_the_dice_do_not_decide(ruleset: str, position: str) -> None:
    """A fight fought again from the same state (a search) finds each strike's reading and each outcome of its
    dice kept (``_FightSetup.strikes``), and the combat result's dice-free pieces (``_FightSetup.results``:
    the fought state, the verdict by the wounds caused, the locks released): every fight,
    after undo as before, gives exactly the events and state of the same dice on a state just built from
    the same data, which fights with nothing kept, whichever branch the dice take this time."""
    data = small_fight(ruleset, True) if position == "small" else _bench_fight(ruleset)
    if position == "small":  # two a side, so that a side may be destroyed or fall back
        for side, name, profile in (("red", "Marine 1", MARINE), ("blue", "Boy 1", BOY)):
            group = data["sides"][side][0]
            group["models"].append({"name": name, "profile": profile, "base": 25,
                                    "at": [18.8, group["models"][0]["at"][1]]})
    action = {"do": "fight", "unit": "squad"}
    again = Game(state_from_data(data))
    start = again.state
    kinds: set[str] = set()
    verdicts: set[str] = set()
    destroyed = False
    for seed in range(80):
        events = again.apply(action, SeededDice(seed))
        new = Game(state_from_data(data))
        assert events == new.apply(action, SeededDice(seed))
        assert again.state == new.state
        kinds.update(e.kind for e in events)
        verdicts.update(e.message.rsplit(", ", 1)[-1] for e in events if e.kind == "morale")
        verdicts.update("draw" if e.message.endswith("a draw") else "lost" for e in events if e.kind == "combat_result")
        destroyed = destroyed or any(not u.models for u in again.state.units)
        again.undo()
        assert again.state is start
    # the dice took the fight down different branches from the one kept state
    assert {"fall_back", "casualties"} <= kinds
    # and a strike's reading and what its dice did were found again from carries whose states differ elsewhere (a
    # strike on the Nob or the Chaplain after different losses among the Boyz): kept by the units struck
    setup = start.__dict__[MEMO][("fight", type(again.ruleset), "squad")]
    assert len(setup.strikes.plans) < len(setup.strikes.at)
    assert sum(map(len, (plan.deltas for plan in setup.strikes.plans.values()))) \
        < sum(map(len, (outcomes for _, outcomes in setup.strikes.at.values())))
    assert {"passes", "fails", "draw", "lost"} <= verdicts
    assert destroyed or position == "bench"  # the small fight also wipes a unit out


@pytest.mark.rule("published.close-combat")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_states_a_fight_fought_again_ends_in_share_their_units(ruleset: str) -> None:
    """A unit's fought value and its value with the slain removed are kept on the unit (``_fought_unit``,
    ``_without_slain``): different states a fight fought again from one state ends in (losses elsewhere, wounds
    on a character) hold the very same fought unit where it is the same, and each fight still plays as on a
    state just built from the same data."""
    data = _bench_fight(ruleset)
    action = {"do": "fight", "unit": "squad"}
    again = Game(state_from_data(data))
    holders: dict[int, tuple[Any, set[Any]]] = {}  # each fought unit object: it, and the losses beside it
    for seed in range(60):
        events = again.apply(action, SeededDice(seed))
        new = Game(state_from_data(data))
        assert events == new.apply(action, SeededDice(seed))
        assert again.state == new.state
        for unit in again.state.units:
            if Status.FOUGHT in unit.status:
                # the other units' losses: different ones come from different states fought
                losses = tuple(len(u.models) for u in again.state.units if u.id != unit.id)
                holders.setdefault(id(unit), (unit, set()))[1].add(losses)
        again.undo()
    assert any(len(losses) > 1 for _, losses in holders.values())  # one unit object after different losses elsewhere


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_a_fight_fought_again_tells_wounds_lost_to_no_carry_over_as_on_a_new_state() -> None:
    """A strike's result is kept by its dice alone (``_StrikePlan.deltas``), unless some unsaved wounds found no model
    of their group to take them: then it is kept by the Wounds the struck unit's other members had left as well
    (what the lost wounds are told against, ``_melee_not_carried``).  A Captain (I6) strikes the Boss first, then a
    Vet (I5, four Attacks) strikes the lone Boy the Boss (one of his three Wounds taken) has joined: fought again from one state, the Vet's strike
    is read once for every Boss the Captain left, and each fight gives exactly the events and state of the same dice
    on a state just built from the same data, the wounds lost to no carry-over counted against the Boss's Wounds
    left after the Captain's blows."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _w40k import BASE_25, model, scenario
    from test_judge_40k_round17 import BOSS, BOY, FIGHT

    cap = "WS5 BS5 S5 T4 W2 I6 A3 Ld10 Sv3+"
    vet = "WS10 BS5 S10 T4 W2 I5 A4 Ld10 Sv3+"  # hits on 3+, wounds on 2+: often more unsaved wounds than the Boy has
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, vet)]},
           {"id": "caps", "status": ["locked"], "models": [model("Cap", 20 + BASE_25, 20, 10, cap)]}]
    blue = [{"id": "boyz", "status": ["locked"], "models": [model("Boy 1", 20, 20 + BASE_25, 7, BOY)]},
            {"id": "boss", "character": "independent", "joined": "boyz", "status": ["locked"],
             "models": [{**model("Boss", 20 + BASE_25, 20 + BASE_25, 9, BOSS), "wounds_taken": 1}]}]
    data = scenario("40k4", red, blue, phase="assault")
    again = Game(state_from_data(data))
    lost: set[tuple[int, int]] = set()  # (the Boss's wounds taken, the wounds said lost)
    for seed in range(150):
        events = again.apply(FIGHT, SeededDice(seed))
        new = Game(state_from_data(data))
        assert events == new.apply(FIGHT, SeededDice(seed))
        assert again.state == new.state
        boss = again.state.unit("boss").models
        lost.update((boss[0].wounds_taken if boss else 3, dict(e.data)["lost"]) for e in events
                    if e.kind == "not_carried_over")
        again.undo()
    # wounds were lost to no carry-over against a Boss the Captain had left with two Wounds and with one: told
    # against each (two lost against two Wounds left, one against one)
    assert {(1, 2), (2, 1)} <= lost, lost


@pytest.mark.rule("published.last-man-standing")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_last_man_standing_is_kept_only_where_it_rolled_no_die(ruleset: str) -> None:
    """A fight fought again keeps Last Man Standing's result by the state the Morale checks left only when it
    rolled no die (``_Kept.lasts``: no unit newly left with one model, or 4th edition's words that it takes no
    test); 3rd edition's tests roll every time, so the same state met again rolls its test again.  Every fight
    plays as on a state just built from the same data, and equal states reached by different strikes are one
    object (``_Strikes.same``)."""
    data = small_fight(ruleset, True)
    for side, name, profile in (("red", "Marine 1", MARINE), ("blue", "Boy 1", BOY)):
        group = data["sides"][side][0]
        group["models"].append({"name": name, "profile": profile, "base": 25, "at": [18.8, group["models"][0]["at"][1]]})
    action = {"do": "fight", "unit": "squad"}
    again = Game(state_from_data(data))
    start = again.state
    tested = spared = 0
    for seed in range(80):
        events = again.apply(action, SeededDice(seed))
        new = Game(state_from_data(data))
        assert events == new.apply(action, SeededDice(seed))
        assert again.state == new.state
        tested += sum(1 for e in events if e.kind == "morale" and "is reduced to one model" in e.message)
        spared += sum(1 for e in events if e.kind == "last_man")
        again.undo()
    setup = start.__dict__[MEMO][("fight", type(again.ruleset), "squad")]
    assert setup.results.lasts  # kept where no die was rolled
    assert all(not e.rolls for _, told in setup.results.lasts.values() for e in told)
    if ruleset == "40k3":  # the tests were rolled, and none of them kept
        assert tested > 1
        assert not any(e.kind == "morale" for _, told in setup.results.lasts.values() for e in told)
    else:
        assert spared and not tested
    kept = setup.strikes.states
    for (carry, _, _), (_, outcomes) in setup.strikes.at.items():
        for after, _, _, _ in outcomes.values():  # a strike that hurt no one leaves the carry's very state
            assert after is carry or kept[after] is after
