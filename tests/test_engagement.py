"""A close combat's contact table, measured once, gives what measuring every pair of bases at each step gives.

``Engagement`` finds the units of a combat and which models touch which on the state the
fight starts from; later steps read it for the models still standing (``Engagement.now``).
Both are held to the plain answers on drawn positions: a breadth-first walk over units
with ``groups_touch``, ``in_base_contact`` for every pair of models left, and the combat
result's release of units no enemy touches any more measured again with ``groups_touch``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from herohammer import geometry as geo
from herohammer.actions import parse_action
from herohammer.dice import SeededDice
from herohammer.errors import HerohammerError, ScenarioError
from herohammer.profiles import Profile
from herohammer.rulesets import RULESETS
from herohammer.rulesets.engagement import Engagement
from herohammer.scenario import state_from_data
from herohammer.state import GameState
from herohammer.values import evolve

PROFILE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
# (unit id, side, the unit it joins)
UNITS = [("squad", "red", None), ("chaplain", "red", "squad"), ("bikes", "red", None),
         ("boyz", "blue", None), ("nob", "blue", "boyz"), ("gretchin", "blue", None)]

models = st.lists(st.tuples(st.sampled_from(range(len(UNITS))), st.integers(0, 5), st.integers(0, 3),
                            st.sampled_from([25, 32])), min_size=2, max_size=14, unique_by=lambda m: m[1:3])
spacings = st.sampled_from([0.99, 1.0, 1.12, 1.27, 2.5])


def _state(drawn: list[tuple[int, int, int, int]], sx: float, sy: float, ruleset: str = "40k4",
           status: tuple[str, ...] = ()) -> GameState:
    """Models on a grid (touching at some spacings, not at others), in up to six units; refused overlaps skipped."""
    sides: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    members: dict[str, list[dict[str, Any]]] = {}
    for k, (u, cx, cy, base) in enumerate(drawn):
        members.setdefault(UNITS[u][0], []).append({"name": f"M{k}", "profile": PROFILE, "base": base,
                                                    "at": [10 + sx * cx, 10 + sy * cy]})
    for uid, side, joins in UNITS:
        if uid in members:
            unit: dict[str, Any] = {"id": uid, "models": members[uid], "status": list(status)}
            if joins is not None:
                unit |= {"character": "independent"} | ({"joined": joins} if joins in members else {})
            sides[side].append(unit)
    data = {"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {s: units for s, units in sides.items() if units}}
    assume(len(data["sides"]) == 2)  # type: ignore[arg-type]
    try:
        return state_from_data(data)
    except ScenarioError:  # bases overlap at this spacing
        assume(False)
        raise


def _linked_by_scan(state: GameState, unit_id: str) -> list[str]:
    """The units of a combat found breadth first, every pair of units measured with ``groups_touch``."""
    seen = [unit_id]
    i = 0
    while i < len(seen):
        u = state.unit(seen[i])
        i += 1
        seen += [x.id for x in state.units if x.id not in seen and x.on_table
                 and (x.joined == u.id or u.joined == x.id or (x.side != u.side and geo.groups_touch(u.placed, x.placed)))]
    return seen


@settings(max_examples=300, deadline=None)
@given(models, spacings, spacings, st.randoms(use_true_random=False))
def test_contacts_read_from_the_table_equal_contacts_measured_now(drawn: list[tuple[int, int, int, int]], sx: float,
                                                                  sy: float, rnd: Any) -> None:
    state = _state(drawn, sx, sy)
    for unit in state.units:
        engagement = Engagement(state, unit.id)
        assert list(engagement.units) == _linked_by_scan(state, unit.id)
        for _ in range(3):  # some models slain (each unit keeps some of its models, in order), as a fight goes on
            units = [state.unit(u) for u in engagement.units]
            later = [evolve(u, models=tuple(m for m in u.models if rnd.random() < 0.7)) for u in units]
            standing = [u for u in later if u.alive]
            now = engagement.now(standing)
            for u in standing:
                for i, m in enumerate(u.models):
                    measured = [(e.id, j) for e in standing if e.side != u.side for j, x in enumerate(e.models)
                                if geo.in_base_contact(m.placed, x.placed)]
                    assert sorted(now.of(u.id, i)) == sorted(measured)
            assert engagement.touched_units(unit.id) == {e.id for e in units if e.side != unit.side
                                                         and geo.groups_touch(unit.placed, e.placed)}


@settings(max_examples=150, deadline=None)
@given(models, spacings, spacings, st.sampled_from(["40k3", "40k4"]), st.integers(0, 10**6))
def test_who_stays_locked_after_a_fight_is_what_measuring_the_bases_again_says(
        drawn: list[tuple[int, int, int, int]], sx: float, sy: float, ruleset: str, seed: int) -> None:
    """After the combat result a unit that no enemy touches is no longer locked: read from the fight's contact
    table (every unit but those that fled stood still) it is the answer of measuring every pair of bases again."""
    state = _state(drawn, sx, sy, ruleset, ("locked",))
    rules = RULESETS[ruleset]()

    class Measured(RULESETS[ruleset]):  # type: ignore[misc, valid-type]
        def _resolve_combat(self, *args: Any, engagement: Engagement | None = None, kept: Any = None) -> Any:
            return super()._resolve_combat(*args)  # no contact table (nor anything kept): the bases measured again

    for unit in state.units:
        action = parse_action({"do": "fight", "unit": unit.id})
        if not rules.rule_on(state, action).legal:
            continue
        try:
            played = rules.resolve(state, action, SeededDice(seed))
        except HerohammerError:  # e.g. a weapon this scenario does not know
            continue
        assert played == Measured().resolve(state, action, SeededDice(seed))


PROFILES = ["WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", "WS4 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+", "WS3 BS4 S3 T4 W1 I2 A2 Ld7 Sv6+",
            "WS4 BS4 S5 T4 W2 I4 A0 Ld8 Sv3+"]
# per column of a battle line: a red model (or none), and the blue model facing it: none, boyz, gretchin, or boyz a
# little back (not touching, within 2")
columns = st.lists(st.tuples(st.sampled_from([None, "squad", "squad", "squad"]), st.sampled_from([None, "boyz", "boyz",
                             "boyz", "gretchin", "back"]), st.integers(0, 3)), min_size=1, max_size=10)


def _line(drawn: list[tuple[str | None, str | None, int]], ruleset: str, alike: bool, charged: bool) -> GameState:
    """Two battle lines face to face, each column's models in base contact (characters at the ends)."""
    units: dict[str, list[dict[str, Any]]] = {}
    for k, (red, blue, p) in enumerate(drawn):
        profile, weapons = (PROFILES[0], ["chainsword"]) if alike else (PROFILES[p], [["chainsword", "power weapon"][p % 2]])
        if red:
            units.setdefault(red, []).append({"name": f"R{k}", "profile": profile, "at": [20 + 1.2 * k, 20],
                                              "weapons": weapons})
        if blue:
            units.setdefault("boyz" if blue == "back" else blue, []).append(
                {"name": f"B{k}", "profile": profile, "weapons": weapons,
                 "at": [20 + 1.2 * k, 21.5 if blue == "back" else 20.99]})
    end = 20 + 1.2 * len(drawn)
    sides: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    for uid, side, joins, at in [("squad", "red", None, 0.0), ("chaplain", "red", "squad", 20.0),
                                 ("boyz", "blue", None, 0.0), ("nob", "blue", "boyz", 20.99), ("gretchin", "blue", None, 0.0)]:
        models = units.get(uid) or ([{"name": uid, "profile": PROFILES[1], "at": [end, at], "weapons": ["chainsword"]}]
                                    if joins else [])
        if models:
            unit: dict[str, Any] = {"id": uid, "models": models, "status": ["charged"] if charged and side == "red" else []}
            if joins is not None:
                unit |= {"character": "independent"} | ({"joined": joins} if joins in units else {})
            sides[side].append(unit)
    assume(sides["red"] and sides["blue"])
    return state_from_data({"ruleset": ruleset, "phase": "assault", "active": "red", "table": {"width": 72, "depth": 48},
                            "sides": sides})


@settings(max_examples=300, deadline=None)
@given(columns, st.sampled_from(["40k3", "40k4"]), st.booleans(), st.booleans(), st.randoms(use_true_random=False))
def test_attacks_of_units_striking_alike_gathered_at_once_equal_gathering_model_by_model(
        drawn: list[tuple[str | None, str | None, int]], ruleset: str, alike: bool, charged: bool, rnd: Any) -> None:
    """A troop unit whose models all strike alike (``_alike_strikes``) is gathered in one pass: the same pools,
    attacks and order as gathering its models one by one, at the start of a fight and after some models fell."""
    state = _line(drawn, ruleset, alike, charged)
    rules = RULESETS[ruleset]()

    class OneByOne(RULESETS[ruleset]):  # type: ignore[misc, valid-type]
        def _alike_strikes(self, *args: Any) -> bool:
            return False

    plain = OneByOne()
    for unit in state.units:
        engagement = Engagement(state, unit.id)
        for fallen in (0.0, 0.2, 0.2):  # first none fallen, then some (each unit keeps some of its models, in order)
            kept = {u.id: tuple(m for m in u.models if rnd.random() >= fallen) for u in map(state.unit, engagement.units)}
            after = state.replace_units(*[evolve(state.unit(uid), models=models) for uid, models in kept.items()
                                          if len(models) < len(state.unit(uid).models)])  # a unit none left is the same
            for initiative in range(5, 0, -1):
                assert rules._strikes(after, engagement, initiative, {}) == plain._strikes(after, engagement, initiative, {})
