"""Random legal play on every bundled example of every ruleset, with the invariants a judge expects after each step.

The sequence fuzzers (``test_40k_sequence_fuzz.py``, ``test_t9a_sequence_fuzz.py``, ``test_random_play.py``) check
joins, targets, move allowances, undo and save/load.  This one adds what a bot playing thousands of games, a
digital table or a judge replaying a game meets (reliability round 41):

- every action ``legal_actions`` offers is ruled legal by ``check`` (and the one drawn applies without a refusal);
- every candidate action ``check`` refuses is refused by ``apply`` too, and leaves the state and the log unchanged;
- ``Game.replay`` of the game's record (``to_data(record=True)``, through YAML as a file holds it) gives the same
  state and the same log;
- 40k: a falling back unit is never offered an assault (published.fall-back); The 9th Age: a fleeing unit is never
  offered a charge (published.t9a-flee);
- The 9th Age: no model stands on another unit's model (published.t9a-move), save the models of one combined unit;
  a combined unit's formation holds exactly its living models, each of them on its own slot, and no Front Rank
  model (a character, a champion, a musician, a standard) stands behind a rank holding a model without Front Rank
  (t9a.char.front-rank, t9a.join.position).

The default profile is a few seconds; ``HEROHAMMER_FUZZ=long`` plays many more and longer games.
"""

from __future__ import annotations

import math
import os
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herohammer.dice import SeededDice
from herohammer.errors import IllegalActionError
from herohammer.formations import combined_models, front_rank_problems, front_rank_test
from herohammer.game import Game
from herohammer.geometry import overlaps
from herohammer.scenario import load_scenario
from herohammer.units import Status

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted([*(ROOT / "examples").glob("*.yaml"), *(ROOT / "src" / "herohammer" / "examples").glob("*.yaml")])
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
STEPS = 60 if LONG else 8
PROFILE = settings(max_examples=60 if LONG else 1, deadline=None, derandomize=not LONG,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: The tolerance a placement is held to (``geometry.overlaps``): bases in contact touch, they do not overlap.
CONTACT = 0.05


def offered_rightly(g: Game) -> None:
    """Every offered action is ruled legal; none is a charge of a fleeing unit or an assault of a falling back one."""
    for action in g.legal_actions():
        assert g.check(action).legal, (action.to_json(), g.check(action))
        if action.do in ("assault", "charge"):
            status = g.state.unit(action.unit).status  # type: ignore[union-attr]  # both actions name a unit
            assert Status.FLEEING not in status and Status.FALLING_BACK not in status, action.to_json()


def refusals_change_nothing(g: Game) -> None:
    """A candidate ``check`` refuses is refused by ``apply`` alike, and the state and log stay as they were."""
    before, log = g.state, g.log
    for action in g.ruleset.candidate_actions(before):
        if not g.check(action).legal:
            with pytest.raises(IllegalActionError):
                g.apply(action)
            assert g.state is before and g.log == log


def replays_the_same(g: Game) -> None:
    """The game's record, written as a file holds it and played back, ends in the same state with the same log."""
    again = Game.replay(yaml.safe_load(yaml.safe_dump(g.to_data(record=True), sort_keys=False)))
    assert again.state == g.state and again.log == g.log


def t9a_places_hold(g: Game) -> None:
    """No model stands on another unit's; a combined unit's models stand on their slots, Front Rank models foremost."""
    state = g.state
    alive = [u for u in state.units if u.alive]
    host_of = {u.id: u.joined or u.id for u in alive}
    for a, b in combinations(alive, 2):
        if host_of[a.id] == host_of[b.id]:
            continue
        for m in a.models:
            for n in b.models:
                assert not overlaps(m.placed, n.placed, CONTACT), f"{a.id}'s {m.name} stands on {b.id}'s {n.name}"
    for host in alive:
        if host.joined is not None or host.formation is None:
            continue
        f, members = host.formation, combined_models(state, host)
        assert sorted(set(f.order)) == sorted(m.name for _, m in members), (host.id, f.order)
        assert not front_rank_problems(f, front_rank_test(state, host)), (host.id, f.order)
        slots = f.slot_points
        for _, m in members:
            if f.order.count(m.name) == 1:  # a model on one slot stands on its centre
                assert math.dist(m.at, slots[m.name]) <= CONTACT, (host.id, m.name, m.at, slots[m.name])


@pytest.mark.rule("published.fall-back", "published.t9a-flee", "published.t9a-move", "t9a.char.front-rank",
                  "t9a.join.position")
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
@PROFILE
@given(data=st.data())
def test_random_play_keeps_the_invariants_a_judge_expects(path: Path, data: st.DataObject) -> None:
    g = Game(load_scenario(path), SeededDice(0))
    for step in range(STEPS):
        legal = g.legal_actions()
        if not legal:  # the battle is over (published.game-length)
            assert g.why_no_actions() is not None
            break
        offered_rightly(g)
        others = [a for a in legal if a.do != "end_phase"]
        pool = others if others and data.draw(st.integers(0, 4), label="end the phase?") else legal
        action = data.draw(st.sampled_from(pool), label="action")
        g.apply(action, dice=SeededDice(data.draw(st.integers(0, 2**16), label="dice seed")))
        refusals_change_nothing(g)
        if g.state.ruleset == "t9a":
            t9a_places_hold(g)
        if step % 4 == 3 or LONG:
            replays_the_same(g)
    replays_the_same(g)
