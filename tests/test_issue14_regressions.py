"""Issue 14's kinds, one regression test each: what play writes, load accepts, and no move ends on a model.

The kinds the fuzz test once found (hostile files, markup, huge numbers, deep nesting,
300,000 empty mappings) are in ``test_bad_input.py``; the Stand-and-Shoot formation order
and the joined Character rule round trips in ``test_t9a_play.py``.  Here: a character
leaves his unit and the unit then moves onto him, in every ruleset, through ``Game`` and
through ``herohammer play`` - the move is refused, changing nothing, and the state play
writes (YAML or JSON) loads back equal, ruling alike on every action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data
from test_t9a_rules import scenario as t9a_scenario

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def w40k(ruleset: str) -> dict[str, Any]:
    """A Captain joined to a five-man squad in a line, an Ork far away; movement phase."""
    return {
        "ruleset": ruleset, "phase": "movement", "active": "marines",
        "sides": {
            "marines": [
                {"id": "captain", "character": "independent", "joined": "tactical",
                 "models": [{"name": "Captain", "profile": "WS5 BS5 S4 T4 W2 I5 A3 Ld9 Sv3+", "base": 25,
                             "at": [30, 20]}]},
                {"id": "tactical", "models": [{"name": f"Marine {i}", "profile": MARINE, "base": 25,
                                               "at": [20 + 2 * i, 20]} for i in range(5)]},
            ],
            "orks": [{"id": "boyz", "models": [{"name": "Boy", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+",
                                                "base": 25, "at": [40, 40]}]}],
        },
    }


def line(last: list[float]) -> dict[str, Any]:
    return {"do": "move", "unit": "tactical", "to": [[20, 22], [22, 22], [24, 22], [26, 22], last]}


#: ruleset -> (scenario data, the leave, the unit's move onto him, what the refusal says, a move beside him)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any], str, dict[str, Any]]] = {
    "40k3": (w40k("40k3"), {"do": "leave", "character": "captain", "to": [30, 24]}, line([30, 24]),
             "would overlap", line([28, 23])),
    "40k4": (w40k("40k4"), {"do": "leave", "character": "captain", "to": [30, 24]}, line([30, 24]),
             "would overlap", line([28, 23])),
    "t9a": (t9a_scenario(joined=True), {"do": "leave", "character": "hero", "to": [36, 25]},
            {"do": "move", "unit": "spears", "to": [[36, 24.8]]}, "would end on",
            {"do": "move", "unit": "spears", "to": [[36, 23.5]]}),
}
CITED = {"40k3": "published.bases-apart", "40k4": "published.bases-apart", "t9a": "published.t9a-move"}


def _same_rulings(a: Game, b: Game) -> None:
    for action in [*a.ruleset.candidate_actions(a.state), *b.ruleset.candidate_actions(b.state)]:
        ra, rb = a.check(action), b.check(action)
        assert (ra.legal, ra.rules, ra.reason) == (rb.legal, rb.rules, rb.reason), action


@pytest.mark.rule("published.bases-apart")
@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_a_unit_may_not_move_onto_the_character_who_just_left_it(ruleset: str, tmp_path: Path) -> None:
    data, leave, onto, says, beside = CASES[ruleset]
    game = Game(state_from_data(data))
    game.apply(leave)
    assert game.state.unit(leave["character"]).joined is None
    before = game.state
    ruling = game.check(onto)
    assert not ruling.legal and says in ruling.reason and CITED[ruleset] in ruling.rules, ruling
    with pytest.raises(IllegalActionError):
        game.apply(onto)
    assert game.state is before
    game.apply(beside)
    for name in ("after.yaml", "after.json"):
        game.save(tmp_path / name)
        again = Game.load(tmp_path / name)
        assert again.state == game.state
        _same_rulings(game, again)


@pytest.mark.rule("published.bases-apart")
@pytest.mark.parametrize("ruleset", sorted(CASES))
def test_what_play_writes_after_a_leave_and_a_move_loads_back(ruleset: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data, leave, onto, _, beside = CASES[ruleset]
    start = tmp_path / "start.yaml"
    start.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = tmp_path / "after.yaml"
    code, _, err = run(["play", str(start), "--action", json.dumps(leave), "--action", json.dumps(onto),
                        "--seed", "1", "--out", str(out)], capsys)
    assert code == 2 and CITED[ruleset] in err and not out.exists(), err
    code, _, err = run(["play", str(start), "--action", json.dumps(leave), "--action", json.dumps(beside),
                        "--seed", "1", "--out", str(out)], capsys)
    assert code == 0, err
    game = Game.load(start)
    game.apply(leave)
    game.apply(beside)
    assert load_scenario(out) == game.state
