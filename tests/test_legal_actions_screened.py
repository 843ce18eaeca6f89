"""Sampled moves checked together give the legal list that judging each candidate in full gives.

``Game.legal_actions`` takes a unit's sampled moves as ``screened_candidates`` marks them:
those ``movement.clear_shifts`` and the unit's own checks find surely legal are not judged
one by one, and those surely refused (a unit that may not move at will, a run without
Fleet) are not proposed.  Here the list is compared with judging every candidate in full, on the
examples, on random walks from them and on drawn positions; and ``clear_shifts`` is
held to the checks it stands for, shift by shift.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from herohammer import movement
from herohammer.actions import parse_action
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.geometry import Base, Placed, coherent, overlapping_pairs
from herohammer.dice import SeededDice
from herohammer.scenario import load_scenario, read_data, state_from_data
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))


def _judged_in_full(state: GameState) -> list[Any]:
    """The reference: every candidate judged on its own, then each fallback group's first legal try."""
    ruleset = Game(state).ruleset
    legal = [a for a in ruleset.candidate_actions(state) if ruleset.judge(state, a).ruling.legal]
    for group in ruleset.fallback_candidates(state, list(legal)):
        legal.extend([a for a in group if ruleset.judge(state, a).ruling.legal][:1])
    return legal


def _assert_same_list(state: GameState) -> int:
    """Compare the screened list with the full one; return how many candidates the screen settled."""
    ruleset = Game(state).ruleset
    screened = list(ruleset.screened_candidates(state))
    proposed = [a for a, _ in screened]
    candidates = list(ruleset.candidate_actions(state))
    kept = iter(candidates)
    assert all(any(a == c for c in kept) for a in proposed)  # the candidates, in order, some left out
    for action in candidates:
        if action not in proposed:  # left out: surely refused
            assert not ruleset.judge(state, action).ruling.legal, action
    for action, sure in screened:
        if sure:
            assert ruleset.judge(state, action).ruling.legal, action
    assert Game(state).legal_actions() == _judged_in_full(state)
    return sum(sure for _, sure in screened)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_examples_legal_actions_are_the_full_judgings(name: str) -> None:
    _assert_same_list(load_scenario(ROOT / "examples" / name))


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n.startswith("40k")])
def test_random_walks_from_the_40k_examples_keep_the_full_judgings_list(name: str) -> None:
    rng = random.Random(name)
    game = Game.load(ROOT / "examples" / name)
    for _ in range(12):
        _assert_same_list(game.state)
        legal = game.legal_actions()
        moves = [a for a in legal if a.do in ("move", "join", "leave")]
        game.apply(rng.choice(moves if moves and rng.random() < 0.8 else legal))


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n.startswith("t9a")])
def test_random_walks_from_the_9th_age_examples_keep_the_full_judgings_list(name: str) -> None:
    """Charges (their variants screened at once), reactions, moves, shots and fights as a seeded game meets them."""
    rng = random.Random(name)
    game = Game.load(ROOT / "examples" / name, SeededDice(7))
    for _ in range(14):
        _assert_same_list(game.state)
        legal = game.legal_actions()
        if not legal:
            break
        busy = [a for a in legal if a.do != "end_phase"]
        game.apply(rng.choice(busy if busy and rng.random() < 0.7 else legal))


def test_a_charges_variants_are_ruled_at_once_and_a_refused_one_is_left_out() -> None:
    """The whole-turn example's reactions and redirects share their charge's declaration: each is settled by the
    screen.  With the Orc Archers moved behind the Conclave (within its reach, out of its Front Arc), the Conclave's
    charge at the Warriors redirected to them is refused: it is left out, and judging it refuses it too."""
    data = read_data(ROOT / "examples" / "t9a_whole_turn.yaml")
    data.pop("plan")
    state = state_from_data(data)
    ruleset = Game(state).ruleset
    screened = list(ruleset.screened_candidates(state))
    variants = [a for a, _ in screened if a.do == "charge" and (a.reaction or a.redirect)]
    assert variants and all(sure for a, sure in screened if a in variants)
    assert not any(sure for a, sure in screened if a not in variants)
    _assert_same_list(state)

    archers = next(u for u in data["sides"]["orcs"] if u["id"] == "orc_archers")
    archers["formation"] = {"position": [42, 12], "facing": 0, "files": 5}
    behind = state_from_data(data)
    ruleset = Game(behind).ruleset
    redirect = parse_action({"do": "charge", "unit": "conclave", "target": "orc_warriors", "reaction": "flee",
                             "redirect": "orc_archers"})
    assert redirect in list(ruleset.candidate_actions(behind))
    assert redirect not in [a for a, _ in ruleset.screened_candidates(behind)]
    refused = ruleset.judge(behind, redirect).ruling
    assert not refused.legal and "Front Arc" in refused.reason
    assert _assert_same_list(behind) > 0


def test_the_screen_settles_the_sampled_moves_of_a_unit_in_the_open() -> None:
    """The inquisitor's retinue and the other units there move in the open: every sampled move is settled at once."""
    state = load_scenario(ROOT / "examples" / "40k4_inquisitor_retinue.yaml")
    assert _assert_same_list(state) == sum(a.do == "move" for a in _judged_in_full(state))


@pytest.mark.parametrize(("name", "left_out"), [("40k3_chaplain_falling_back.yaml", "move"),
                                               ("40k4_lone_character_shot.yaml", "run")])
def test_candidates_surely_refused_are_left_out(name: str, left_out: str) -> None:
    """A falling-back squad's moves and a run without Fleet are refused whatever the place: not proposed at all."""
    state = load_scenario(ROOT / "examples" / name)
    ruleset = Game(state).ruleset
    dropped = [a for a in ruleset.candidate_actions(state) if a not in [b for b, _ in ruleset.screened_candidates(state)]]
    assert dropped and {a.do for a in dropped} == {left_out}
    assert not any(ruleset.judge(state, a).ruling.legal for a in dropped)
    _assert_same_list(state)


# -- drawn positions -------------------------------------------------------------------------------------------

def _model(name: str, x: float, y: float, base: int, moved: float = 0.0) -> dict[str, Any]:
    return {"name": name, "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "base": base, "at": [x, y],
            **({"moved": moved} if moved else {})}


@st.composite
def crowded(draw: st.DrawFn) -> dict[str, Any]:
    """A small table with a red squad, perhaps a character joined to it, and other units close by."""
    base = draw(st.sampled_from([25, 25, 40]))
    step = base / 25.4 + draw(st.sampled_from([0.0, 1e-7, 0.5, 1.0, 2.0, 2.0 + 1e-9, 2.0 - 1e-9, 2.5]))
    x0, y0 = draw(st.floats(1, 9)), draw(st.floats(1, 9))
    n = draw(st.integers(1, 5))
    moved = draw(st.sampled_from([0.0, 0.0, 1.0, 2.9, 3.0 + 1e-10]))
    squad = {"id": "squad", "models": [_model(f"s{i}", x0 + i * step, y0, base, moved) for i in range(n)]}
    red: list[dict[str, Any]] = [squad]
    if draw(st.booleans()):
        red.append({"id": "hero", "character": "independent", "joined": "squad",
                    "models": [_model("Hero", x0 + draw(st.sampled_from([0.0, step])), y0 + step, 25)]})
    blue = [{"id": f"b{k}", "models": [_model(f"b{k}", draw(st.floats(0.5, 15.5)), draw(st.floats(0.5, 11.5)), 25)]}
            for k in range(draw(st.integers(0, 4)))]
    return {"ruleset": draw(st.sampled_from(["40k3", "40k4"])), "phase": "movement", "active": "red",
            "table": {"width": draw(st.sampled_from([16, 24])), "depth": 12}, "sides": {"red": red, "blue": blue}}


def _drawn_state(data: dict[str, Any]) -> GameState:
    """The drawn position as a state; a drawing with bases on one another or off the table is not an example."""
    try:
        return state_from_data(data)
    except HerohammerError:
        assume(False)
        raise  # not reached: assume(False) ends the example


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded())
def test_drawn_crowds_keep_the_full_judgings_list(data: dict[str, Any]) -> None:
    state = _drawn_state(data)
    _assert_same_list(state)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded(), st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1, max_size=6),
       st.sampled_from([3.0, 2.0, 1.0]))
def test_a_shift_said_clear_passes_every_check_it_stands_for(data: dict[str, Any], shifts: list[tuple[float, float]],
                                                            allowance: float) -> None:
    """clear_shifts says True only where the allowance, table, placement, path and coherency checks all pass."""
    state = _drawn_state(data)
    members = state.combined("squad")
    models = [m for u in members for m in u.models]
    ids = {u.id for u in members}
    most = [allowance - m.moved + movement.EPSILON for m in models]
    verdicts = movement.clear_shifts(state, models, ids, shifts, most)
    assert len(verdicts) == len(shifts)
    for (dx, dy), clear in zip(shifts, verdicts):
        if not clear:
            continue
        positions = [(m.at[0] + dx, m.at[1] + dy) for m in models]
        moves = [mv for u, first in _firsts(members) for mv in
                 movement.plan(u, positions[first:first + len(u.models)], state.terrain)]
        assert all(mv.length <= limit for mv, limit in zip(moves, most))
        assert movement.table_problem(state, moves) is None
        assert movement.placement_problem(state, moves, ids) is None
        assert movement.path_problem(state, moves, ids) is None
        assert coherent(movement.positions_after(state, [u.id for u in members], moves))


@pytest.mark.parametrize("nudge", [-1e-7, 0.0, 1e-7])
def test_a_shift_to_the_very_edge_of_the_table_or_allowance_is_left_to_the_full_checks(nudge: float) -> None:
    """At the edge (give or take a hair) the screen is not sure; further in it is."""
    data = {"ruleset": "40k3", "phase": "movement", "active": "red", "table": {"width": 24, "depth": 12},
            "sides": {"red": [{"id": "squad", "models": [_model("a", 5, 5, 25), _model("b", 7, 5, 25)]}],
                      "blue": []}}
    state = state_from_data(data)
    models = list(state.unit("squad").models)
    r = models[0].base.radius_inches
    to_edge = 24 - (7 + r) + nudge
    assert movement.clear_shifts(state, models, {"squad"}, [(to_edge, 0.0), (to_edge - 0.1, 0.0)], [30.0, 30.0]) \
        == [False, True]
    assert movement.clear_shifts(state, models, {"squad"}, [(3.0 + nudge, 0.0), (2.9, 0.0)], [3.0, 3.0]) \
        == [False, True]


def _firsts(members: list[Any]) -> list[tuple[Any, int]]:
    out, at = [], 0
    for u in members:
        out.append((u, at))
        at += len(u.models)
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded(), st.tuples(st.floats(-4, 4), st.floats(-4, 4)), st.sampled_from([0.0, 1e-9, 1e-7, 1e-3]))
def test_a_move_by_one_shift_is_ruled_as_the_full_checks_rule_it(data: dict[str, Any], shift: tuple[float, float],
                                                                 wobble: float) -> None:
    """rule_move passes a whole-unit shift that clear_shifts is sure of without the checks of places: same ruling."""
    state = _drawn_state(data)
    ruleset = Game(state).ruleset
    models = [m for u in state.combined("squad") for m in u.models]
    to = [[m.at[0] + shift[0] + wobble * i, m.at[1] + shift[1]] for i, m in enumerate(models)]
    action = parse_action({"do": "move", "unit": "squad", "to": to})
    fast = ruleset.rule_on(state, action)
    full = type(ruleset)()
    full._surely_clear = lambda *args: False  # type: ignore[method-assign]
    assert fast == full.rule_on(state, action)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 8), st.floats(0, 8), st.sampled_from([20, 25, 40])), min_size=1, max_size=12))
def test_a_group_sound_as_one_is_coherent_and_apart_by_the_full_checks(bases: list[tuple[float, float, int]]) -> None:
    """The once-per-group check clear_shifts trusts: sure only when coherent() and overlapping_pairs() agree."""
    placed = [Placed(Base.parse(mm), (x, y)) for x, y, mm in bases]
    sound = movement._sound_as_one([x for x, _, _ in bases], [y for _, y, _ in bases],
                                   [p.base.radius_inches for p in placed])
    if sound:
        assert coherent(placed)
        assert next(overlapping_pairs(placed), None) is None
    elif coherent(placed) and next(overlapping_pairs(placed), None) is None:  # not sure: only within the margin
        gaps = [math.dist(a.at, b.at) - a.base.radius_inches - b.base.radius_inches
                for i, a in enumerate(placed) for b in placed[i + 1:]]
        assert any(abs(g - 2.0) < 1e-5 or abs(g + 0.01) < 1e-5 for g in gaps) or not coherent(
            placed, 2.0 - 1e-5)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded(), st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1, max_size=6),
       st.sampled_from(["none", "squad", "hero", "both"]), st.booleans())
def test_places_problem_is_placement_then_path_problem(data: dict[str, Any], shifts: list[tuple[float, float]],
                                                       flies: str, jump: bool) -> None:
    """One look-up of the units near, and Fly asked only when a path meets a model: the same answer, word for word."""
    if jump:
        data["sides"]["red"][0]["type"] = "jump_infantry"
    state = _drawn_state(data)
    members = state.combined("squad")
    ids = {u.id for u in members}
    flying = frozenset({"none": (), "squad": ("squad",), "hero": ("hero",), "both": ("squad", "hero")}[flies]) & ids
    asked: list[bool] = []

    def ask() -> frozenset[str]:
        asked.append(True)
        return flying

    models = [m for u in members for m in u.models]
    for k, (dx, dy) in enumerate(shifts):  # each model its own way: a shift, then a spread
        positions = [(m.at[0] + dx * (1 + 0.3 * i * (k % 2)), m.at[1] + dy) for i, m in enumerate(models)]
        moves = [mv for u, first in _firsts(members) for mv in
                 movement.plan(u, positions[first:first + len(u.models)], state.terrain)]
        expected = movement.placement_problem(state, moves, ids) or movement.path_problem(state, moves, ids, flying)
        assert movement.places_problem(state, moves, ids, ask) == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded(), st.integers(0, 6), st.tuples(st.floats(-4, 4), st.floats(-4, 4)), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.tuples(st.floats(1, 15), st.floats(1, 11), st.floats(0, 90))),
       st.one_of(st.none(), st.tuples(st.integers(0, 10), st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0]))),
       st.sampled_from([0, movement.FEW_MODELS]))
def test_one_models_move_is_ruled_as_placement_then_path_problem(
        data: dict[str, Any], pick: int, shift: tuple[float, float], flies: bool, jump: bool,
        block: tuple[float, float, float] | None, aim: tuple[int, float] | None, few: int) -> None:
    """One model's move (a join, a leave, a character's move) is screened against each model in one pass: the same
    answer as the placement check then the path check, word for word, rectangular bases among the others too.

    ``aim`` sends the model towards another (to it, through it or past it), so that paths meet models often;
    with ``few`` 0 every unit is screened by its box first, as a big unit is."""
    if jump:
        data["sides"]["red"][0]["type"] = "jump_infantry"
    if block is not None:
        data["sides"]["blue"].append({"id": "wall", "models": [
            {**_model("Wall", block[0], block[1], 25), "base": [50, 25], "facing": block[2]}]})
    state = _drawn_state(data)
    models = [(u, i) for u in state.units if u.side == "red" for i in range(len(u.models))]
    unit, index = models[pick % len(models)]
    model = unit.models[index]
    to = (model.at[0] + shift[0], model.at[1] + shift[1])
    if aim is not None:
        others = [m for u in state.units for m in u.models if m is not model]
        if others:
            other, f = others[aim[0] % len(others)], aim[1]
            to = (model.at[0] + f * (other.at[0] - model.at[0]) + shift[0] / 8,
                  model.at[1] + f * (other.at[1] - model.at[1]) + shift[1] / 8)
    move = movement.PlannedMove(unit.id, index, model, to, math.dist(model.at, to), False)
    ids = {unit.id}
    flying = frozenset(ids if flies else ())
    asked: list[bool] = []

    def ask() -> frozenset[str]:
        asked.append(True)
        return flying

    expected = movement.placement_problem(state, [move], ids) or movement.path_problem(state, [move], ids, flying)
    kept, movement.FEW_MODELS = movement.FEW_MODELS, few
    try:
        assert movement.places_problem(state, [move], ids, ask) == expected
    finally:
        movement.FEW_MODELS = kept
    assert len(asked) <= 1
