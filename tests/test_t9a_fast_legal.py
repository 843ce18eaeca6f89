"""The 9th Age's cheap judging (issue 11) against full per-candidate judging: the same rulings, the same results.

Joins, leaves and moves (whatever a t9a rule marks ``places_as_ruled``) skip the shared bases-apart
check after resolving, since their rule already keeps every placed model clear; charges
(``rolls_before_placing``) are not resolved without dice, since they always roll first.  The full
path is the same ruleset with every mark taken off: judging then resolves each placing
action and checks its bases, as before.  Positions are the examples' own, with units and
lone models pushed about at random (only what a scenario file accepts), in the phases
that list placing actions.
"""

from __future__ import annotations

import copy
from dataclasses import replace
import random
from pathlib import Path
from typing import Any

import pytest

from herohammer.actions import Action, parse_action
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.rulesets import t9a, t9a_charges, t9a_forward, t9a_joins, t9a_moves
from herohammer.rulesets.base import PLACING, Ruleset
from herohammer.scenario import read_data, state_from_data
from herohammer.state import GameState, Phase

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("t9a_*.yaml"))


def _unmarked(ruleset: Ruleset) -> Ruleset:
    """Return the ruleset with every ``places_as_ruled`` mark taken off (the full, shared check on every placing)."""
    cls = type(ruleset)
    methods: dict[str, Any] = {}
    for do in PLACING:
        for prefix in ("rule_", "resolve_"):
            name = prefix + do
            if hasattr(cls, name):
                methods[name] = (lambda n: lambda self, *args: getattr(super(full, self), n)(*args))(name)
    full = type(f"Unmarked{cls.__name__}", (cls,), methods)
    return full()  # type: ignore[no-any-return]


def _mostly_unshaken(unit: dict[str, Any], rng: random.Random | None) -> None:
    """Take Shaken off a unit in most positions (in all without ``rng``): a Shaken unit neither moves nor charges
    (published.t9a-shaken)."""
    if "shaken" in unit.get("status", ()) and (rng is None or rng.random() < 0.75):
        unit["status"] = [s for s in unit["status"] if s != "shaken"]


def _variants(name: str, rng: random.Random, count: int) -> list[GameState]:
    """Return the example's state and ``count`` others: units and lone models pushed about, phases changed."""
    data = read_data(ROOT / "examples" / name)
    states = [state_from_data(data)]
    tries = 0
    while len(states) <= count and tries < 40 * count:
        tries += 1
        new = copy.deepcopy(data)
        new["phase"] = rng.choice(["movement", "movement", "movement", "charge", data["phase"]])
        new.pop("plan", None)
        for side in new["sides"].values():
            for unit in side:
                _mostly_unshaken(unit, rng)
                if rng.random() < 0.5:
                    continue
                reach = rng.choice([0.5, 2.0, 5.0, 10.0])
                dx, dy = rng.uniform(-reach, reach), rng.uniform(-reach, reach)
                if unit.get("formation"):
                    x, y = unit["formation"]["position"]
                    unit["formation"]["position"] = [x + dx, y + dy]
                    if rng.random() < 0.3:
                        unit["formation"]["facing"] = rng.choice([0, 45, 90, 180, 270, 300])
                for m in unit["models"]:
                    if "at" in m:
                        m["at"] = [m["at"][0] + dx, m["at"][1] + dy]
        try:
            states.append(state_from_data(new))
        except HerohammerError:  # off the table or on another model: not a position a game can be in
            continue
    return states


def _every_candidate(ruleset: Ruleset, state: GameState) -> list[Action]:
    """What legal_actions would try if no charge were left out as beyond reach (every charge at every enemy)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(t9a, "beyond_charge_reach", lambda *_: False)
        return list(ruleset.candidate_actions(state))


def _candidates(ruleset: Ruleset, state: GameState, rng: random.Random) -> list[Action]:
    """Every candidate, joins moving through a point of the unit's edge, leaves and moves every way."""
    out = _every_candidate(ruleset, state)
    mine = [u for u in state.units if u.side == state.active and u.alive]
    for u in mine:
        for host in mine:
            if host is u or not host.models:
                continue
            m = rng.choice(host.models)
            out.append(parse_action({"do": "join", "character": u.id, "unit": host.id,
                                     "to": [m.at[0] + rng.uniform(-0.6, 0.6), m.at[1] + rng.uniform(-0.6, 0.6)]}))
        if u.models and u.joined:  # leaves every way: out of the front, through the unit, onto its neighbours
            at = u.models[0].at
            reach = rng.choice([1.0, 2.5, 6.0])
            out.append(parse_action({"do": "leave", "character": u.id,
                                     "to": [at[0] + rng.uniform(-reach, reach), at[1] + rng.uniform(-reach, reach)]}))
        if u.models and not u.joined:  # moves of every length and way, some wheeling first, some marching
            start = u.formation.position if u.formation is not None else u.models[0].at
            reach = rng.choice([1.0, 4.0, 9.0])
            move: dict[str, Any] = {"do": "move", "unit": u.id, "march": rng.random() < 0.3,
                                    "to": [[start[0] + rng.uniform(-reach, reach), start[1] + rng.uniform(-reach, reach)]]}
            if rng.random() < 0.3:
                move["wheel"] = rng.choice([-45.0, -10.0, 20.0, 90.0])
            out.append(parse_action(move))
    return out


@pytest.mark.parametrize("name", EXAMPLES)
def test_cheap_judging_rules_as_full_judging_on_every_candidate(name: str) -> None:
    rng = random.Random(name)
    fast = get_ruleset("t9a")
    full = _unmarked(fast)
    assert not full._places_as_ruled("join") and all(fast._places_as_ruled(do) for do in ("join", "leave", "move"))
    assert getattr(fast.resolve_charge, "rolls_before_placing", False)  # type: ignore[attr-defined]
    assert not getattr(full.resolve_charge, "rolls_before_placing", False)  # type: ignore[attr-defined]
    judged = legal = left_out = 0
    for state in _variants(name, rng, 12):
        for action in _candidates(fast, state, rng):
            cheap, whole = fast.judge(state, action), full.judge(state, action)
            assert cheap.ruling == whole.ruling, action
            assert cheap.result == whole.result, action  # what apply would put on the table
            judged += 1
            legal += cheap.ruling.legal and action.do in PLACING
            if action.do == "charge":  # what the mark says: resolved without dice, a charge never has a result
                assert full._without_dice(state, action) is None
                if t9a.beyond_charge_reach(state, state.unit(action.unit), state.unit(action.target)):
                    assert not whole.ruling.legal  # left out of the candidates: surely refused
                    left_out += 1
        game = Game(state)
        every = _every_candidate(fast, state)
        expected = [a for a in every if full.judge(state, a).ruling.legal]
        for group in fast.fallback_candidates(state, list(expected)):  # a unit's move back or aside (round 59)
            expected.extend([a for a in group if full.judge(state, a).ruling.legal][:1])
        assert game.legal_actions() == expected
    assert judged > 50 and legal > 10  # the positions leave room both to refuse and to allow
    assert left_out or name != "t9a_whole_turn.yaml"  # its archers stand beyond the Spearmen's reach


def test_a_join_or_move_into_slots_too_small_for_the_bases_is_checked_in_full() -> None:
    """A formation whose slots are smaller than its bases: the join or move is resolved and its overlaps found."""
    from dataclasses import replace

    data = read_data(ROOT / "examples" / "t9a_captain_joins_spearmen.yaml")
    data["sides"]["highborn"][0]["models"][3]["base"] = [30, 30]  # a bigger base: the slots are made as big
    state = state_from_data(data)
    host = state.unit("spearmen")
    assert host.formation is not None and host.formation.slot_mm == (30.0, 30.0)
    cramped = state.replace_unit(replace(host, formation=replace(host.formation, slot_mm=(20.0, 20.0))))
    fast = get_ruleset("t9a")
    full = _unmarked(fast)
    action = parse_action({"do": "join", "character": "captain", "unit": "spearmen", "position": 2})
    plan = fast.plan_join(cramped, action)  # type: ignore[attr-defined]
    assert not plan.in_slots
    ruling = fast.judge(cramped, action).ruling
    assert ruling == full.judge(cramped, action).ruling
    assert not ruling.legal and "published.bases-apart" in ruling.rules
    move = parse_action({"do": "move", "unit": "spearmen", "to": [[36.0, 19.0]]})  # back, away from the Captain
    ruling = fast.judge(cramped, move).ruling
    assert ruling == full.judge(cramped, move).ruling
    assert not ruling.legal and "published.bases-apart" in ruling.rules


def test_a_leave_whose_unit_shifts_a_bigger_base_onto_an_enemy_is_checked_in_full() -> None:
    """The Spearmen's 40mm slot: the Captain's 20mm base leaves room for an orc in front of him; the spearman
    who fills his slot would stand on it, so the leave is refused as the shared check refuses it."""
    data = read_data(ROOT / "examples" / "t9a_captain_joins_spearmen.yaml")
    spears, captain = data["sides"]["highborn"]
    for m in spears["models"]:
        m["base"] = [40, 40]
    captain["joined"] = "spearmen"
    captain["models"][0].pop("at")
    x, _ = state_from_data(data).unit("captain").models[0].at  # where deploying put him
    orcs = data["sides"]["orcs"][0]
    orcs.pop("formation")
    orcs["models"] = [{**orcs["models"][0], "at": [x, 19.8 + 25 / 25.4 / 2]}]  # 0.2" into the Captain's slot
    state = state_from_data(data)
    fast = get_ruleset("t9a")
    full = _unmarked(fast)
    leave = parse_action({"do": "leave", "character": "captain", "to": [30.0, 12.0]})
    ruling = fast.judge(state, leave).ruling
    assert ruling == full.judge(state, leave).ruling
    assert not ruling.legal and "published.bases-apart" in ruling.rules


def _charge_positions(name: str, rng: random.Random, count: int) -> list[GameState]:
    """The example's units pushed about in its Charge phase, some on round bases, some behind a wall or a third
    unit standing across the way: positions where a charge's way is clear, crossed or blocked."""
    data = read_data(ROOT / "examples" / name)
    states: list[GameState] = []
    tries = 0
    while len(states) < count and tries < 40 * count:
        tries += 1
        new = copy.deepcopy(data)
        new["phase"] = "charge"
        new.pop("plan", None)
        for side in new["sides"].values():
            for unit in side:
                _mostly_unshaken(unit, None)
                if rng.random() < 0.3:  # round bases, small or large: the contact move's footprints are polygons
                    size = rng.choice([20, 25, 40, 60])
                    for m in unit["models"]:
                        m["base"] = size
                if rng.random() < 0.4:
                    continue
                dx, dy = rng.uniform(-6, 6), rng.uniform(-6, 6)
                if unit.get("formation"):
                    x, y = unit["formation"]["position"]
                    unit["formation"]["position"] = [x + dx, y + dy]
                    if rng.random() < 0.2:
                        unit["formation"]["facing"] = rng.choice([0, 10, 180, 200, 270])
                for m in unit["models"]:
                    if "at" in m:
                        m["at"] = [m["at"][0] + dx, m["at"][1] + dy]
        if rng.random() < 0.25:  # a wall somewhere between the lines
            x, y = rng.uniform(20, 50), rng.uniform(22, 30)
            new["terrain"] = [{"id": "wall", "kind": "blocking", "polygon": [[x, y], [x + 3, y], [x + 3, y + 0.5],
                                                                             [x, y + 0.5]]}]
        try:
            states.append(state_from_data(new))
        except HerohammerError:  # off the table or on another model: not a position a game can be in
            continue
    return states


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n != "t9a_captain_joins_spearmen.yaml"])
def test_a_charge_whose_way_is_screened_rules_as_the_contact_move_measured_against_everyone(name: str) -> None:
    """``charge_way_clear`` skips the contact move when nothing but the target stands within its reach (and
    ``t9a_forward._way_clear`` the forward move's measuring, session 48), and ``path_problem`` does not measure the
    ends against the target it touches: the rulings are those of the contact move worked out and every end and path
    measured against every unit (the screens and the skip off)."""
    rng = random.Random(name)
    fast = get_ruleset("t9a")
    clear = way_blocked = screened = 0
    real = t9a_charges.charge_way_clear
    real_forward = t9a_forward._way_clear
    for state in _charge_positions(name, rng, 40):
        every = [a for a in _every_candidate(fast, state) if a.do == "charge"]
        with pytest.MonkeyPatch.context() as patch:
            calls: list[bool] = []
            patch.setattr(t9a_charges, "charge_way_clear", lambda *args: calls.append(real(*args)) or calls[-1])
            patch.setattr(t9a_forward, "_way_clear", lambda *args: calls.append(real_forward(*args)) or calls[-1])
            cheap = [fast.judge(state, a).ruling for a in every]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(t9a_charges, "charge_way_clear", lambda *args: False)
            patch.setattr(t9a_forward, "_way_clear", lambda *args: False)
            patch.setattr(t9a_charges, "CONTACT_OVERLAP_SLACK", -1.0)
            whole = [fast.judge(state, a).ruling for a in every]
        assert cheap == whole
        screened += sum(calls)
        clear += sum(r.legal for r in whole)
        way_blocked += sum("no clear way" in r.reason for r in whole)
    assert 5 < screened < clear  # charges on both sides of the screen
    assert way_blocked > 3 or name != "t9a_whole_turn.yaml"  # and ways blocked, by walls and third units


def test_the_front_arc_settled_without_shapely_is_shapely_s() -> None:
    """``in_front_arc`` settles most bases by their bounding circles or the centre's depth inside the arc: the
    answer is shapely's area test on every base of the target against every arc of the charger."""
    import shapely

    inside = outside = 0
    for name in EXAMPLES:
        rng = random.Random(name)
        for state in _charge_positions(name, rng, 20):
            for u in state.units:
                for e in state.units:
                    if e.side == u.side or not (u.alive and e.alive):
                        continue
                    arcs, _ = t9a_moves.front_arcs(u)
                    plain = any(shapely.Polygon(arc).intersection(p.footprint()).area > 1e-6 for arc in arcs
                                for p in e.placed)
                    assert t9a.in_front_arc(u, e) == plain, (u.id, e.id)
                    inside += plain
                    outside += not plain
    assert inside > 50 and outside > 20


@pytest.mark.parametrize("name", [n for n in EXAMPLES if n != "t9a_captain_joins_spearmen.yaml"])  # none joined
def test_a_leave_screened_by_boxes_rules_as_every_base_measured(name: str) -> None:
    """A leave measures the end against its own unit's bases only where their boxes come near (``box_gap``): the
    rulings are those of every base measured (the boxes' gaps taken as 0, so that no box screens anything)."""
    rng = random.Random(name)
    fast = get_ruleset("t9a")
    legal = refused = 0
    for state in _variants(name, rng, 12):
        state = replace(state, phase=Phase.MOVEMENT)  # a leave is a Movement phase move (in the Charge phase: a charge)
        leaves = [a for a in _candidates(fast, state, rng) if a.do == "leave"]
        for _ in range(6):  # and some ending right by the unit: within an inch of it, or on it
            for u in state.units:
                if u.joined and u.models and u.side == state.active:
                    at = u.models[0].at
                    leaves.append(parse_action({"do": "leave", "character": u.id,
                                                "to": [at[0] + rng.uniform(-2, 2), at[1] + rng.uniform(-2, 2)]}))
        cheap = [fast.judge(state, a).ruling for a in leaves]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(t9a_joins, "box_gap", lambda *_: 0.0)
            whole = [fast.judge(state, a).ruling for a in leaves]
        assert cheap == whole
        legal += sum(r.legal for r in whole)
        refused += sum(not r.legal for r in whole)
    assert legal > 5 and refused > 5
