"""A volley's shortcuts on a new state give what the plain ways give.

``_shots`` takes the usual volley (no terrain blocking sight, every model able to fire) in one
step, ``_all_fire``, where ``_shots_one_by_one`` decides model by model with a note on each
that cannot; and a fall back whose models all start and end the longest roll with their bases
on the table (``_FallBack.clear``) moves them by the distance rolled without a clamp per model.
Both are held here to the plain way on drawn positions: models out of range, of BS 0, Heavy
weapons after moving, units near or across the table edge.
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from herohammer import geometry as geo
from herohammer.errors import ScenarioError
from herohammer.rulesets import get_ruleset
from herohammer.rulesets.w40k_combat import CombatRules
from herohammer.rulesets.w40k_morale import _FallBack
from herohammer.scenario import state_from_data

WEAPONS = [{"name": "slugga", "type": "pistol", "range": 12, "strength": 4, "ap": 6},
           {"name": "big gun", "type": "heavy", "range": 36, "strength": 8, "ap": 3, "shots": 1}]
ARMS = [["bolter"], ["slugga"], ["big gun"], ["big gun", "bolter"], ["slugga", "bolter"]]


def _state(firers: list[tuple[int, int, float, float]], boyz: list[tuple[float, float]], ruleset: str,
           kind: str = "infantry") -> Any:
    """Marines (BS, arms, place: each a row 2.5" further up) and a mob of Boyz at the given places, in the shooting
    phase (drawn bases on each other, or off the table, are left out)."""
    marines = [{"name": f"Marine {i + 1}", "profile": f"WS4 BS{bs} S4 T4 W1 I4 A1 Ld8 Sv3+", "base": 25,
                "at": [x, y + 2.5 * i], "weapons": ARMS[arms]} for i, (bs, arms, x, y) in enumerate(firers)]
    mob = [{"name": f"Boy {i + 1}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "base": 25, "at": [x, y],
            "weapons": ["slugga"]} for i, (x, y) in enumerate(boyz)]
    try:
        return state_from_data({
            "ruleset": ruleset, "turn": 1, "phase": "shooting", "active": "marines",
            "table": {"width": 72, "depth": 48},
            "sides": {"marines": [{"id": "tactical", "type": "infantry", "models": marines}],
                      "orks": [{"id": "boyz", "type": kind, "models": mob}]},
            "weapons": WEAPONS})
    except ScenarioError:  # bases on each other, or off the table
        assume(False)


def _line(n: int, x: float, y: float) -> list[tuple[float, float]]:
    return [(x + 2.0 * i, y) for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 3, 4, 4, 4]), st.integers(0, len(ARMS) - 1),
                          st.floats(2, 70), st.floats(1, 2)), min_size=1, max_size=8),
       st.integers(1, 6), st.floats(2, 60), st.floats(22, 46), st.booleans(), st.sampled_from(["40k3", "40k4"]))
def test_every_model_firing_at_once_is_the_model_by_model_choice(firers: list[tuple[int, int, float, float]],
                                                                boyz: int, x: float, y: float, moved: bool,
                                                                ruleset: str) -> None:
    state = _state(firers, _line(boyz, x, y), ruleset)
    rules = get_ruleset(ruleset)
    assert isinstance(rules, CombatRules)
    shooters = [(u, m) for u in state.combined("tactical") for m in u.models]
    target_models = list(state.unit("boyz").models)
    least = geo.GapTable([m for _, m in shooters], target_models).least()
    movers = frozenset({"tactical"}) if moved else frozenset()  # the members that moved this turn
    fired, notes, kept = rules._shots_one_by_one(state, shooters, "boyz", movers, least, False, target_models)
    at_once = rules._all_fire(state, shooters, least, movers)
    if at_once is None:
        assert notes and len(kept) < len(shooters)
    else:
        assert at_once == fired and not notes and kept == list(range(len(shooters)))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.floats(0.5, 56), st.floats(0.5, 47.5), st.floats(0.5, 71.5), st.floats(0.5, 47.5),
       st.sampled_from(["infantry", "bike"]))
def test_a_fall_back_clear_of_the_edge_ends_where_the_clamped_one_does(boyz: int, x: float, y: float, ex: float,
                                                                       ey: float, kind: str) -> None:
    state = _state([(4, 0, ex, ey)], _line(boyz, x, y), "40k4", kind)
    rules = get_ruleset("40k4")
    assert isinstance(rules, CombatRules)
    plan = _FallBack(state.combined("boyz"))
    rules._fall_back_heading(state, plan)
    plain = _FallBack(state.combined("boyz"))
    rules._fall_back_heading(state, plain)
    plain.clear = False  # every model clamped to the table one by one
    for inches in range(plan.dice, 6 * plan.dice + 1):
        assert rules._fallen_back(state, plan, "boyz", inches) == rules._fallen_back(state, plain, "boyz", inches)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(1, 70), st.floats(1, 46)), min_size=1, max_size=6),
       st.lists(st.tuples(st.floats(1, 70), st.floats(1, 46)), min_size=1, max_size=2),
       st.sampled_from([25, 40]), st.floats(-18, 18), st.floats(-18, 18))
def test_a_clear_fall_backs_box_from_the_centres_bounds_is_the_box_of_its_bases(
        boyz: list[tuple[float, float]], nobs: list[tuple[float, float]], base: int, ox: float, oy: float) -> None:
    """``_move_box`` from the plan's bounds (a clear move) is the box measured from each member's extent and ends."""
    from herohammer.rulesets.w40k_morale import _move_box
    from herohammer.units import Unit
    from herohammer.values import evolve, evolve_each

    state = _state([(4, 0, 2.0, 1.0)], boyz, "40k4")
    mob = state.unit("boyz")
    nob = evolve(mob, id="nob", models=tuple(evolve_each(mob.models[:len(nobs)], "at", nobs)))
    nob = evolve(nob, models=tuple(evolve(m, base=geo.Base.parse(base)) for m in nob.models))
    members: list[Unit] = [mob, nob]
    bounds = []
    for u in members:
        xs, ys = [m.at[0] for m in u.models], [m.at[1] for m in u.models]
        bounds.append((min(xs), min(ys), max(xs), max(ys), u.models[0].base.reach_inches))
    ends = [[(x + ox, y + oy) for x, y in (m.at for m in u.models)] for u in members]
    assert _move_box(bounds, ox, oy) == _move_box([(*u.extent, 0.0) for u in members], 0.0, 0.0, ends, members)
