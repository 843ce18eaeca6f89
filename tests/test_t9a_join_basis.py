"""A 9th Age join worked out from what every file shares (``NinthAge._join_basis``) rules as a join worked out alone.

Listing legal actions proposes a join for each front-rank file of each unit (and each rank
choice of a single rank).  Who may join whom, the unit's slots and its members are worked
out once per state; when every model stands on one base size, the places the joined unit
stands on are the same whatever the file, so Unit Spacing and the table edge are looked at once per shape of
the new formation.  Each candidate here is ruled on a state that has ruled on every
other join first (everything remembered) and on a state built anew for it alone
(nothing remembered): the rulings, the legal lists and the joined states must be equal.
Positions put other units in front, behind and beside the unit, some within an inch of
where a new rank or a widened rank would stand, and some models on bigger bases.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from _t9a import HERO, ORC, SPEAR
from herohammer.actions import Join
from herohammer.dice import SeededDice
from herohammer.errors import ScenarioError
from herohammer.formations import front_rank_test, place_in_front_rank
from herohammer.game import Game
from herohammer.scenario import state_from_data


def _data(n: int, files: int, hero_at: tuple[float, float], big: int | None, behind: float, beside: float,
          front: float, phase: str) -> dict[str, Any]:
    """Spearmen (``n`` models, ``files`` wide, one of them on a 25 mm base when ``big`` names it), a hero to join,
    archers in front, friends behind and beside at the distances given."""
    spears = [{"name": f"s{i}", "profile": SPEAR, "base": [25, 25] if i == big else [20, 20]} for i in range(n)]
    depth = -(-n // files) * (25 if big is not None and big < n else 20) / 25.4
    width = files * (25 if big is not None and big < n else 20) / 25.4
    guards = [{"name": f"g{i}", "profile": SPEAR, "base": [20, 20]} for i in range(3)]
    return {
        "ruleset": "t9a", "phase": phase, "active": "elves",
        "sides": {
            "elves": [
                {"id": "spears", "formation": {"position": [36, 20], "files": files}, "models": spears},
                {"id": "hero", "character": "independent",
                 "models": [{"name": "Hero", "profile": HERO, "base": [20, 20], "at": list(hero_at)}]},
                {"id": "guards", "formation": {"position": [36, 20 - depth - behind], "files": 3}, "models": guards},
                {"id": "flank", "character": "independent",
                 "models": [{"name": "Flank", "profile": HERO, "base": [20, 20], "at": [36 + width / 2 + beside, 19]}]},
            ],
            "orcs": [{"id": "orcs", "formation": {"position": [36, 20 + front], "facing": 180, "files": 5},
                      "models": [{"name": f"o{i}", "profile": ORC, "base": [25, 25]} for i in range(5)]}],
        },
    }


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), files=st.integers(1, 6), hx=st.floats(20, 52), hy=st.floats(22, 30),
       big=st.one_of(st.none(), st.integers(0, 11)), behind=st.floats(0.05, 3.0), beside=st.floats(0.45, 3.0),
       front=st.floats(0.5, 6.0), deploy=st.booleans())
def test_every_join_rules_as_a_join_ruled_on_a_state_of_its_own(n: int, files: int, hx: float, hy: float,
                                                                  big: int | None, behind: float, beside: float,
                                                                  front: float, deploy: bool) -> None:
    data = _data(n, files, (hx, hy), big, behind, beside, front, "deployment" if deploy else "movement")
    try:
        game = Game(state_from_data(data))
    except ScenarioError:  # the hero stands on a model or off the table
        assume(False)
        raise
    candidates = [a for a in game.ruleset.candidate_actions(game.state) if isinstance(a, Join)]
    assert candidates  # the hero may try each file of the spearmen and of the guards
    listed = game.legal_actions()
    for action in candidates:
        alone = Game(state_from_data(data))
        assert game.check(action) == alone.check(action)
        assert (action in listed) == alone.check(action).legal
        if alone.check(action).legal:
            shared = game.copy()  # a march to join near the orcs takes a March Test: the same dice for both
            assert shared.apply(action, SeededDice(1)) == alone.apply(action, SeededDice(1))
            assert shared.state == alone.state
    expected = [a for a in game.ruleset.candidate_actions(game.state) if Game(state_from_data(data)).check(a).legal]
    for group in game.ruleset.fallback_candidates(game.state, list(expected)):  # a move back or aside (round 59)
        expected.extend([a for a in group if Game(state_from_data(data)).check(a).legal][:1])
    assert listed == expected


@pytest.mark.rule("t9a.join.position")
def test_a_join_that_would_put_a_base_off_the_table_names_the_model_its_file_pushes_there() -> None:
    """A 5-wide unit of 10 two ranks from the table's back edge: whichever file the Hero joins, the model his join
    pushes into a new rear rank would stand off the table.  The check is made once for the unit's slots (they are the
    same whatever the file), but each refusal names the model that file's order puts there."""
    data = {"ruleset": "t9a", "turn": 1, "phase": "movement", "active": "highborn", "table": {"width": 72, "depth": 48},
            "sides": {"highborn": [
                {"id": "spearmen", "formation": {"position": [36, 2.0], "facing": 0, "files": 5},
                 "models": [{"name": f"spear{i}", "profile": SPEAR, "base": [20, 20]} for i in range(1, 11)]},
                {"id": "hero", "character": "independent",
                 "models": [{"name": "Hero", "profile": HERO, "base": [20, 20], "at": [36, 5]}]}],
                "orcs": [{"id": "orcs", "formation": {"position": [36, 40], "facing": 180, "files": 5},
                          "models": [{"name": f"orc{i}", "profile": ORC, "base": [25, 25]} for i in range(1, 6)]}]}}
    game = Game.from_data(data)
    spearmen = game.state.unit("spearmen")
    assert spearmen.formation is not None
    for file in range(5):
        pushed = place_in_front_rank(spearmen.formation, "Hero", file, front_rank_test(game.state, spearmen), None)
        rear = pushed.order[10]  # the one model of the new third rank, 0.03" from the edge: off the table
        ruling = game.check({"do": "join", "character": "hero", "unit": "spearmen", "position": file})
        assert not ruling.legal and f"{rear} would end off the 72x48\" table" in ruling.reason
        assert {"t9a.join.position", "published.t9a-move"} <= set(ruling.rules)
    assert len({place_in_front_rank(spearmen.formation, "Hero", f, front_rank_test(game.state, spearmen), None).order[10]
                for f in range(5)}) == 5
