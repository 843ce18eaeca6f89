"""A bot written against the public API and type-checked with ``mypy --strict`` (tests/test_library_round37.py).

No casts and no ``type: ignore``: the documented calls must type-check as a client writes them.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

from herohammer import (Action, ActionOdds, Event, Game, GameState, HerohammerError, IllegalActionError, Ruling,
                        ScriptedDice, SeededDice, load_scenario, parse_action)


def choose(game: Game, rng: random.Random) -> Action | None:
    legal: list[Action] = game.legal_actions()
    if not legal:
        why: Ruling | None = game.why_no_actions()
        print(why.reason if why else "")
        return None
    return rng.choice(legal)


def play(path: Path, seed: int, out: Path) -> list[str]:
    game = Game.load(path, SeededDice(seed))
    rng = random.Random(seed)
    played: list[str] = []
    while (action := choose(game, rng)) is not None and len(played) < 20:
        text: str = json.dumps(action.to_json())
        assert parse_action(text) == action and hash(action) == hash(parse_action(text))
        ruling: Ruling = game.check(action)
        if not ruling.legal:
            raise IllegalActionError(ruling.reason, ruling.rules)
        events: list[Event] = game.apply(action)
        lines: list[str] = [e.describe() for e in events]
        played.append(text)
        print(lines, [e.to_json() for e in events])
    branch: Game = game.copy()
    branch.undo()
    game.save(out)
    again = Game.load(out, ScriptedDice([1, 2, 3, 4, 5, 6]))
    state: GameState = again.state
    print(state.turn, state.phase, state.active)
    try:
        again.apply({"do": "end_phase"})
    except IllegalActionError as refused:
        rules: tuple[str, ...] = refused.rules
        print(rules, refused.reason)
    except HerohammerError:
        pass
    return played


def odds(path: Path) -> Fraction:
    from herohammer import odds_of_action

    answer: ActionOdds = odds_of_action(load_scenario(path), {"do": "shoot", "unit": "tactical", "target": "boyz"})
    exact: bool = answer.exact
    p: Fraction = answer.probability(lambda o: o.lost("boyz") >= 1).p
    print(exact, answer.method, answer.rows())
    return p


def table(path: Path, faces: list[int]) -> dict[str, object]:
    """A digital table: a judge's dice, the shooting targets of each unit, the log as JSON, a save read back."""
    game = Game.from_data(Game.load(path).to_data(), ScriptedDice(faces))
    shots: list[str] = []
    for action in game.legal_actions():
        if action.do == "shoot":
            shots.append(f"{action.unit} -> {action.target}")
        elif action.do == "manifest":
            shots.append(f"{action.psyker}: {action.power}")
    ruling: Ruling = game.check(parse_action('{do: end_phase}'))
    rolled = [r.describe() for r in game.dice.log]
    unused: tuple[int, ...] = ScriptedDice(faces).unused
    copy: Game = game.copy()
    log: list[dict[str, object]] = [e.to_json() for e in copy.log]
    return {"shots": shots, "legal": ruling.legal, "rolled": rolled, "unused": unused, "log": log,
            "turn": game.state.turn}
