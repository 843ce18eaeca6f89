"""Round 37's audit of the library as a bot and a digital table use it, through the public API only.

A bot loop on every bundled example (40k and the 9th Age, seeded): legal actions are values (hashable,
equal to their JSON read back, picklable), each one offered applies, undo restores the state, the log
and the dice's log, a copy explores a branch without touching the game; a refused action changes
nothing and cites its rule; a game saved mid-turn as JSON reads back to the same position; a game is
replayed from its seed and its actions, or from the faces its dice log holds.  Exact odds of an action
of each kind a bot asks, and the switch to Monte Carlo saying so.  Two games in two threads.  The docs'
Python example runs as written; every public name says what it is for.
"""

from __future__ import annotations

import inspect
import json
import os
import pickle
import random
import re
import textwrap
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

import herohammer
from herohammer import (ActionOdds, Game, GameState, IllegalActionError, ScriptedDice, SeededDice, load_scenario,
                        parse_action)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
BUNDLED = sorted((ROOT / "src" / "herohammer" / "examples").glob("*.yaml"))
STEPS = 40


def _bot_walk(path: Path, seed: int, steps: int = STEPS) -> tuple[Game, list[Any]]:
    """Play a seeded random bot from a scenario; return the game and the actions it applied."""
    game = Game.load(path, SeededDice(seed))
    rng = random.Random(seed)
    played: list[Any] = []
    for _ in range(steps):
        legal = game.legal_actions()
        if not legal:
            assert game.why_no_actions() is not None
            break
        busy = [a for a in legal if a.do != "end_phase"]
        action = rng.choice(busy) if busy and rng.random() < 0.75 else rng.choice(legal)
        game.apply(action)
        played.append(action)
    return game, played


# -- the bot loop ----------------------------------------------------------------------------------------------


def _check_offered_actions_are_values(legal: list[Any]) -> None:
    assert len(set(legal)) == len(legal), "an action offered twice"
    for action in legal:
        text = json.dumps(action.to_json())
        again = parse_action(text)
        assert again == action and hash(again) == hash(action), text
        assert parse_action(action.to_json()) == action
        assert pickle.loads(pickle.dumps(action)) == action


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES + BUNDLED, ids=[p.name for p in EXAMPLES + BUNDLED])
def test_a_bot_walks_every_example_and_every_offered_action_applies(path: Path, seed: int) -> None:
    game = Game.load(path, SeededDice(seed))
    rng = random.Random(seed)
    for step in range(STEPS):
        legal = game.legal_actions()
        if not legal:
            break
        _check_offered_actions_are_values(legal)
        action = rng.choice(legal)
        state, log, rolls = game.state, game.log, game.dice.log
        events = game.apply(action)  # every offered action is legal when applied
        assert game.log[len(log):] == tuple(events)
        if step % 3 == 0:  # undo restores the state, the log and the dice's log exactly
            game.undo()
            assert game.state is state and game.log == log and game.dice.log == rolls
            game.apply(action)
        if step % 7 == 0:  # a branch explored in a copy leaves the game as it was
            state, log, rolls = game.state, game.log, game.dice.log
            branch = game.copy()
            for _ in range(3):
                offered = branch.legal_actions()
                if not offered:
                    break
                branch.apply(rng.choice(offered))
            branch.undo()
            assert game.state is state and game.log == log and game.dice.log == rolls


def test_no_action_is_offered_twice_to_a_character_straight_below_his_units_centre() -> None:
    data = yaml.safe_load((ROOT / "examples" / "40k3_chaplain_falling_back.yaml").read_text(encoding="utf-8"))
    data["sides"]["red"][0].pop("status")  # the squad no longer falls back: the Chaplain may leave it
    game = Game.from_data(data)
    legal = game.legal_actions()
    leaves = [a for a in legal if a.do == "leave"]
    assert leaves and len(set(legal)) == len(legal), [a.to_json() for a in leaves]


# -- a refused action changes nothing --------------------------------------------------------------------------

REFUSED = [
    ("40k3_librarian_psychic.yaml", {"do": "shoot", "unit": "tactical", "target": "tactical"}),
    ("40k3_librarian_psychic.yaml", {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "librarian"}),
    ("40k4_librarian_joins_tactical.yaml", {"do": "join", "character": "librarian", "unit": "tactical", "to": [60, 40]}),
    ("t9a_wizard_charges_out.yaml", {"do": "shoot", "unit": "spearmen", "target": "orc_archers"}),
    ("t9a_captain_joins_spearmen.yaml", {"do": "charge", "unit": "spearmen", "target": "spearmen"}),
]


@pytest.mark.parametrize("name, action", REFUSED, ids=[f"{n}:{a['do']}" for n, a in REFUSED])
def test_a_refused_action_raises_citing_its_rule_and_changes_nothing(name: str, action: dict[str, Any]) -> None:
    game = Game.load(EXAMPLES[0].parent / name, SeededDice(5))
    state, log, rolls = game.state, game.log, game.dice.log
    ruling = game.check(action)
    assert not ruling.legal
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    assert isinstance(caught.value, ValueError)
    assert caught.value.rules == ruling.rules and caught.value.rules, "a refusal cites the rule that forbids it"
    assert all(rule in str(caught.value) for rule in ruling.rules)
    assert game.state is state and game.log == log and game.dice.log == rolls
    with pytest.raises(IllegalActionError):
        Game.load(EXAMPLES[0].parent / name).undo()  # nothing to undo: the documented error too


# -- save mid-turn, load, replay -------------------------------------------------------------------------------

MID_TURN = [p for p in EXAMPLES if "whole_turn" in p.name or "chaplain" in p.name or "captain" in p.name]


@pytest.mark.parametrize("path", MID_TURN, ids=[p.name for p in MID_TURN])
def test_a_game_saved_mid_turn_as_json_reads_back_to_the_same_position(path: Path, tmp_path: Path) -> None:
    for steps in (3, 7, 12):
        game, _ = _bot_walk(path, 3, steps)
        saved = tmp_path / f"mid{steps}.json"
        game.save(saved)
        json.loads(saved.read_text(encoding="utf-8"))  # JSON, as its name asks
        loaded = Game.load(saved, SeededDice(9))
        assert loaded.state == game.state
        assert loaded.legal_actions() == game.legal_actions()
        assert Game.from_data(game.to_data()).state == game.state
        for action in game.legal_actions():  # the same next action, the same dice: the same events
            faces = [random.Random(steps).randint(1, 6) for _ in range(300)]
            here, there = game.copy(), loaded.copy()
            assert here.apply(action, ScriptedDice(faces)) == there.apply(action, ScriptedDice(faces))
            assert here.state == there.state


@pytest.mark.parametrize("path", MID_TURN + [ROOT / "examples" / "40k4_chaplain_combat.yaml"],
                         ids=lambda p: p.name)
def test_a_game_replays_from_its_seed_and_actions_and_from_the_faces_its_dice_logged(path: Path) -> None:
    game, played = _bot_walk(path, 4)
    again = Game.load(path, SeededDice(4))
    for action in played:
        again.apply(action.to_json())  # as a table reads them back from its own file
    assert again.log == game.log and again.state == game.state
    faces = [face for record in game.dice.log for face in (record.faces or ())]
    assert len(faces) >= sum(len(r.faces or ()) for r in game.dice.log)
    judged = Game.load(path, ScriptedDice(faces))
    for action in played:
        judged.apply(action)
    assert judged.state == game.state
    assert [e.message for e in judged.log] == [e.message for e in game.log]


# -- exact odds --------------------------------------------------------------------------------------------------

ODDS = [
    ("shoot", "40k3_librarian_psychic.yaml", [], {"do": "shoot", "unit": "tactical", "target": "boyz"}),
    ("psychic", "40k3_librarian_psychic.yaml", [], {"do": "manifest", "psyker": "librarian", "power": "Smite",
                                                    "target": "boyz"}),
    ("test", "40k3_librarian_psychic.yaml", [], {"do": "test", "unit": "tactical", "characteristic": "Ld"}),
    ("assault", "40k4_chaplain_combat.yaml", [], {"do": "assault", "unit": "assault_squad", "target": "boyz"}),
    ("t9a charge", "t9a_wizard_charges_out.yaml", [], {"do": "charge", "unit": "wizard", "target": "orc_archers"}),
]


def _odds(state: GameState, action: Any, **options: Any) -> ActionOdds:
    return herohammer.odds_of_action(state, action, **options)


def test_the_odds_of_an_action_come_from_the_package_top() -> None:
    import herohammer.action_odds  # noqa: F401 - the module loaded first, as the command line and the web app do

    from herohammer import odds_of_action

    answer = odds_of_action(load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml"),
                            {"do": "shoot", "unit": "tactical", "target": "boyz"})
    assert isinstance(answer, ActionOdds) and answer.exact
    assert "odds_of_action" in herohammer.__all__


def test_the_library_page_odds_example_says_what_it_gives() -> None:
    game = Game.load(ROOT / "examples" / "40k3_librarian_psychic.yaml")
    answer = herohammer.odds_of_action(game.state, {"do": "manifest", "psyker": "librarian", "power": "Smite",
                                                    "target": "boyz"})
    assert (answer.exact, answer.method) == (True, "exact (every dice outcome enumerated, 27 distinct results)")
    assert answer.probability(lambda o: o.lost("boyz") >= 1).p == Fraction(715, 972)
    assert answer.rows()["perils"].p == Fraction(1, 18)
    assert json.loads(json.dumps(answer.to_json(), default=str))["rows"]["perils"] == "1/18"


KINDS_OFFERED = ("shoot", "manifest", "fight", "assault", "regroup", "charge", "rally", "cast")


def test_odds_of_the_first_offered_action_of_each_kind_on_seeded_walks() -> None:
    asked: dict[tuple[str, str], str] = {}
    for path in EXAMPLES:
        for seed in (1, 3):
            game = Game.load(path, SeededDice(seed))
            rng = random.Random(seed)
            for _ in range(60):
                legal = game.legal_actions()
                if not legal:
                    break
                for action in legal:
                    key = (game.state.ruleset, action.do)
                    if action.do in KINDS_OFFERED and key not in asked:
                        answer = _odds(game.state, action, runs=100)
                        assert sum(w for _, w in answer.weights) == 1
                        assert answer.exact == answer.method.startswith("exact")
                        asked[key] = answer.method
                busy = [a for a in legal if a.do != "end_phase"]
                game.apply(rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal))
    assert {("t9a", "charge"), ("t9a", "fight"), ("t9a", "cast"), ("40k3", "manifest"), ("40k4", "fight"),
            ("40k3", "shoot")} <= set(asked)


@pytest.mark.parametrize("kind, name, before, action", ODDS, ids=[o[0] for o in ODDS])
def test_exact_odds_of_an_action_of_each_kind(kind: str, name: str, before: list[Any], action: dict[str, Any]) -> None:
    game = Game.load(ROOT / "examples" / name)
    for step in before:
        game.apply(step)
    answer = _odds(game.state, action)
    assert isinstance(answer, ActionOdds)
    assert answer.exact and answer.method.startswith("exact") and answer.runs == 0
    assert all(type(w) is Fraction for _, w in answer.weights)
    assert sum(w for _, w in answer.weights) == 1
    assert answer.action == parse_action(action)
    json.dumps(answer.to_json(), default=str)


def test_a_fight_has_exact_odds_too() -> None:
    game = Game.load(ROOT / "examples" / "40k4_chaplain_combat.yaml", SeededDice(2))
    game.apply({"do": "assault", "unit": "assault_squad", "target": "boyz"})
    fights = [a for a in game.legal_actions() if a.do == "fight"]
    assert fights, [a.to_json() for a in game.legal_actions()]
    answer = _odds(game.state, fights[0])
    assert answer.exact and sum(w for _, w in answer.weights) == 1


def test_odds_too_large_to_enumerate_say_monte_carlo_and_do_not_hang() -> None:
    state = load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml")
    heard: list[str] = []
    start = time.perf_counter()
    answer = _odds(state, {"do": "shoot", "unit": "tactical", "target": "boyz"}, max_runs=2, runs=200,
                   notice=heard.append)
    assert time.perf_counter() - start < 60
    assert not answer.exact and answer.runs == 200 and "Monte Carlo" in answer.method
    assert heard and "Monte Carlo" in heard[0]
    assert sum(w for _, w in answer.weights) == 1
    row = next(iter(answer.rows().values()))
    assert row.low is not None and row.high is not None


def test_an_illegal_action_has_no_odds_but_the_documented_error() -> None:
    state = load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml")
    with pytest.raises(IllegalActionError) as caught:
        _odds(state, {"do": "shoot", "unit": "tactical", "target": "tactical"})
    assert caught.value.rules


def test_an_unknown_kind_of_action_is_told_every_kind_there_is() -> None:
    with pytest.raises(herohammer.HerohammerError) as caught:
        parse_action({"do": "charge_out"})
    for kind in ("join", "leave", "move", "run", "consolidate", "infiltrate", "embark", "disembark", "reform",
                 "shoot", "manifest", "cast", "assault", "charge", "allocate", "fight", "regroup", "rally", "test",
                 "end_phase"):
        assert re.search(rf"\b{kind}\b", str(caught.value)), kind


# -- threads -----------------------------------------------------------------------------------------------------


def test_two_games_in_two_threads_play_as_they_do_alone() -> None:
    jobs = [(ROOT / "examples" / "40k3_whole_turn.yaml", 7), (ROOT / "examples" / "t9a_whole_turn.yaml", 7),
            (ROOT / "examples" / "40k3_whole_turn.yaml", 8)]

    def walk(path: Path, seed: int) -> tuple[Any, ...]:
        game, played = _bot_walk(path, seed, 25)
        return game.to_data(), [e.message for e in game.log], [a.to_json() for a in played]

    alone = [walk(*job) for job in jobs]
    together: dict[int, Any] = {}

    def run(i: int) -> None:
        try:
            together[i] = walk(*jobs[i])
        except Exception as error:  # noqa: BLE001 - reported by the assertion
            together[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(jobs))] == alone


def test_odds_asked_in_threads_while_games_play_give_the_answers_they_give_alone() -> None:
    questions = [(ROOT / "examples" / "40k3_librarian_psychic.yaml", {"do": "manifest", "psyker": "librarian",
                                                                      "power": "Smite", "target": "boyz"}),
                 (ROOT / "examples" / "40k4_chaplain_combat.yaml", {"do": "assault", "unit": "assault_squad",
                                                                   "target": "boyz"}),
                 (ROOT / "examples" / "t9a_wizard_charges_out.yaml", {"do": "charge", "unit": "wizard",
                                                                     "target": "orc_archers"})]

    def ask(path: Path, action: dict[str, Any]) -> Any:
        return _odds(load_scenario(path), action, max_runs=20_000).weights

    alone = [ask(*q) for q in questions]
    together: dict[int, Any] = {}

    def run(i: int) -> None:
        try:
            together[i] = ask(*questions[i]) if i < len(questions) else _bot_walk(ROOT / "examples" /
                                                                                  "t9a_whole_turn.yaml", 5, 30)[0].log
        except Exception as error:  # noqa: BLE001 - reported by the assertion
            together[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(questions) + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [together[i] for i in range(len(questions))] == alone
    assert together[len(questions)] == _bot_walk(ROOT / "examples" / "t9a_whole_turn.yaml", 5, 30)[0].log


# -- docs and names ----------------------------------------------------------------------------------------------


def test_every_public_name_says_what_it_is_for() -> None:
    undocumented = []
    for name in herohammer.__all__:
        value = getattr(herohammer, name)
        if inspect.isclass(value) or inspect.isfunction(value) or inspect.ismethod(value):
            doc = value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__
            if not (doc and doc.strip()):
                undocumented.append(name)
    assert not undocumented


def _python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


def test_the_library_page_python_examples_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = _python_blocks(ROOT / "docs" / "templates" / "library.in.md")
    assert blocks
    os.symlink(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(textwrap.dedent(block), "library.md", "exec"), {})  # noqa: S102 - the page's own example


def test_a_strict_mypy_client_of_the_bot_calls_needs_no_casts(tmp_path: Path) -> None:
    from _mypy import run_mypy

    client = Path(__file__).with_name("_typed_client_round37.py")
    out, err, status = run_mypy(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                str(client)])
    assert status == 0, out + err


def test_the_typed_client_runs_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("typed_client_round37", Path(__file__).with_name(
        "_typed_client_round37.py"))
    assert spec is not None and spec.loader is not None
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    for path in (ROOT / "examples" / "40k3_whole_turn.yaml", ROOT / "examples" / "t9a_whole_turn.yaml"):
        assert client.play(path, 2, tmp_path / "saved.json")
    assert client.odds(ROOT / "examples" / "40k3_librarian_psychic.yaml") > 0
    seen = client.table(ROOT / "examples" / "40k3_librarian_psychic.yaml", [3, 4, 5])
    assert seen["shots"] and seen["legal"] is True


@pytest.mark.parametrize("path", [ROOT / "examples" / "40k3_whole_turn.yaml", ROOT / "examples" / "t9a_whole_turn.yaml"],
                         ids=lambda p: p.name)
def test_a_bot_plays_to_the_end_of_the_battle_and_is_told_why_nothing_is_left(path: Path, tmp_path: Path) -> None:
    game, played = _bot_walk(path, 6, 3000)
    assert game.legal_actions() == []
    why = game.why_no_actions()
    assert why is not None and "published.game-length" in why.rules
    with pytest.raises(IllegalActionError) as caught:
        game.apply({"do": "end_phase"})
    assert "published.game-length" in caught.value.rules
    game.save(tmp_path / "end.json")
    assert Game.load(tmp_path / "end.json").why_no_actions() == why
    game.undo()
    assert game.legal_actions() and game.why_no_actions() is None


@pytest.mark.parametrize("path", [ROOT / "examples" / "40k3_whole_turn.yaml", ROOT / "examples" / "t9a_whole_turn.yaml"],
                         ids=lambda p: p.name)
def test_a_game_pickled_mid_turn_plays_on_as_the_original_does(path: Path) -> None:
    game, _ = _bot_walk(path, 8, 9)
    other = pickle.loads(pickle.dumps(game))
    rng = random.Random(8)
    for _ in range(20):
        legal = game.legal_actions()
        assert other.legal_actions() == legal
        if not legal:
            break
        action = rng.choice(legal)
        assert other.apply(action) == game.apply(action)
    assert other.state == game.state and other.log == game.log


def test_the_library_page_first_example_says_what_it_gives(tmp_path: Path) -> None:
    game = Game.load(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml", SeededDice(1))
    join = {"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 21]}
    before = game.state
    assert game.check(join).legal is True
    game.apply(join)
    said = game.ruleset.leadership_of(game.state, "tactical")
    assert (said.value, said.rule) == (10, "40k4.char.leadership")
    game.undo()
    assert game.state is before
    game.save(tmp_path / "after.json")
    assert Game.load(tmp_path / "after.json").state == game.state


def test_a_misspelt_action_handed_to_odds_is_named_as_the_parameter_a_library_caller_wrote() -> None:
    state = load_scenario(ROOT / "examples" / "40k3_librarian_psychic.yaml")
    with pytest.raises(herohammer.HerohammerError) as caught:
        herohammer.odds_of_action(state, {"do": "shoot", "unit": "tactical", "targt": "boyz"})
    assert str(caught.value).startswith("action: field targt"), str(caught.value)
    with pytest.raises(herohammer.HerohammerError) as caught:
        Game(state).apply({"do": "shoot", "unit": "tactical", "targt": "boyz"})
    assert str(caught.value).startswith("action: field targt"), str(caught.value)
