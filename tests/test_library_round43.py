"""Round 43, as a bot or digital-table developer uses herohammer.

A bot written with the public names alone plays a whole game in each ruleset, picking each action by its odds
(below).  What it tripped on: ``parse_action`` refused a read-only mapping that ``Game.apply``, ``check`` and
``odds_of_action`` take, refused an action object, and named its input ``--action`` (a command-line option the
library's caller never wrote); ``Game.replay(game.record())`` was told "no record of play here" of a record;
a judge's dice that ran out named the roll but not its rule.  The steps that end a phase or a turn cite the turn
sequence (``published.turn-sequence``), so every event of a game's log names its clause.

``dice.log`` is a tuple, as ``Game.log`` became in round 42: a bot that appended to the dice's list or cut it got at
the record ``Game.undo``, ``Game.steps`` and the record of play are read from.  The rules code notes where a ruling's
rolls begin and takes them by ``rolls_made``/``rolls_since`` (the dice's own list, no tuple of the whole log built per
roll), and the view is rebuilt only when its length is not the log's: rolling only appends, and what forgets rolls
(``Game.undo``, ``take_back``) drops the view, so a log undone and rolled again to the same length is not stale.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from _bots import random_walk
from fractions import Fraction
from types import MappingProxyType

from herohammer import (ACTION_TYPES, Action, DiceRanOut, Game, HerohammerError, IllegalActionError, ScenarioError,
                        ScriptedDice, SeededDice, odds_of_action, parse_action)
from herohammer.dice import RollRecord
from herohammer.scenario import read_data

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


# == dice.log: read-only ========================================================================================
def test_the_dice_log_is_a_tuple_a_bot_cannot_change_and_undo_and_the_record_hold() -> None:
    game = Game.load(EX / "40k3_whole_turn.yaml", SeededDice(2))
    assert game.dice.log == ()
    random_walk(game, 2, 15)
    log = game.dice.log
    assert isinstance(log, tuple) and log and all(isinstance(r, RollRecord) for r in log)
    assert game.dice.log is log  # read again with no roll between: the same tuple, not a copy
    with pytest.raises(AttributeError):
        log.append(log[0])  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        game.dice.log = ()  # type: ignore[misc]
    assert log == tuple(r for s in game.steps() for r in s.rolls)
    mine = list(game.dice.log)
    mine.clear()  # a bot's own copy is its own
    assert game.dice.log == log
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.dice.log == log


def test_a_log_undone_and_rolled_again_to_the_same_length_shows_the_new_rolls() -> None:
    met = 0
    for seed in range(40):  # the seeds whose second Smite rolls as many dice as the first, undone, did
        game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(seed))
        first = game.apply(SMITE)
        seen = game.dice.log  # the view is built here ...
        assert seen == tuple(r for e in first for r in e.rolls)
        game.undo()  # ... the undo forgets those rolls ...
        again = game.apply(SMITE)  # ... and new rolls are made: the view read must be theirs, not the old one
        rolls = tuple(r for e in again for r in e.rolls)
        assert game.dice.log == rolls and seen == tuple(r for e in first for r in e.rolls)  # the old tuple as it was
        met += len(rolls) == len(seen) and rolls != seen
    assert met >= 3


def test_a_judges_dice_that_ran_out_midway_show_no_roll_of_the_failed_action() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    judge = ScriptedDice([3, 4, 5, 6, 6])  # the psychic test and some of the wounds: not enough for the Smite
    assert judge.log == ()
    with pytest.raises(DiceRanOut):
        game.apply(SMITE, dice=judge)
    assert judge.log == () and judge.remaining == 5
    judge.take_back(0)  # nothing to take back: still empty
    assert judge.log == ()


def test_a_copys_dice_log_is_its_own_and_a_tuple_too() -> None:
    game = Game.load(EX / "t9a_whole_turn.yaml", SeededDice(4))
    random_walk(game, 4, 10)
    kept = game.dice.log
    branch = game.copy()
    assert branch.dice.log == kept
    random_walk(branch, 5, 10)
    while branch.actions:
        branch.undo()
    assert branch.dice.log == () and game.dice.log == kept and isinstance(branch.dice.log, tuple)


# == a bot that plays each ruleset to the end by the odds, through the public names =============================
def _enemy_losses(game: Game, action: Action) -> Fraction:
    """The models the other side is expected to lose to ``action`` (exact, or a small sample's mean)."""
    odds = odds_of_action(game.state, action, max_runs=2_000, runs=20, seed=1)
    enemy = game.state.opponent(game.state.active)
    return sum((odds.mean_lost(u.id) for u in game.state.units if u.side == enemy), Fraction(0))


def _by_the_odds(game: Game, rng: random.Random) -> Action | None:
    """Of a few legal actions (ending the phase among them), the one whose odds cost the enemy most."""
    legal = game.legal_actions()
    if not legal:
        return None
    ends = [a for a in legal if a.do == "end_phase"]
    others = [a for a in legal if a.do != "end_phase"]
    picked = rng.sample(others, min(3, len(others))) + ends
    return max(picked, key=lambda a: (_enemy_losses(game, a), a.do != "end_phase"))


@pytest.mark.parametrize("path", [EX / "40k3_whole_turn.yaml", EX / "40k4_inquisitor_retinue.yaml",
                                  EX / "t9a_whole_turn.yaml"], ids=lambda p: p.name)
def test_a_bot_plays_each_ruleset_to_the_end_by_the_odds_with_public_names_only(path: Path) -> None:
    game = Game.load(path, SeededDice(7))
    rng = random.Random(7)
    for _ in range(300):
        action = _by_the_odds(game, rng)
        if action is None:
            break
        assert isinstance(action, ACTION_TYPES) and game.check(action).legal
        before, log, rolls = game.state, game.log, game.dice.log
        branch = game.copy()  # a search's branch: applied and undone there, nothing changes here
        branch.apply(action)
        branch.undo()
        assert branch.state is before and game.log is log and game.dice.log is rolls
        events = game.apply(action)
        assert events and all(e.rules for e in events), [e.describe() for e in events]  # every step names its clause
        assert game.log == log + tuple(events) and game.dice.log[:len(rolls)] == rolls
        if rng.random() < 0.1:  # a bot takes a step back and plays it again
            game.undo()
            assert game.state is before and game.log == log and game.dice.log == rolls
            game.apply(action)
    ended = game.why_no_actions()
    assert ended is not None and "published.game-length" in ended.rules  # the battle played to its end
    with pytest.raises(IllegalActionError) as refused:
        game.apply({"do": "end_phase"})
    assert "published.game-length" in refused.value.rules
    again = Game.replay(game.to_data(record=True))
    assert again.state == game.state and again.log == game.log
    assert again.actions == game.actions and [s.rolls for s in again.steps()] == [s.rolls for s in game.steps()]


# == what the bot tripped on =====================================================================================
def test_parse_action_reads_what_apply_takes_and_names_its_input_as_the_library_s() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    read = parse_action(SMITE)
    assert parse_action(MappingProxyType(SMITE)) == read  # a read-only mapping, as apply takes it
    assert parse_action(read) is read  # an action object as it is
    assert game.check(MappingProxyType(SMITE)).legal
    with pytest.raises(HerohammerError) as unread:
        parse_action(MappingProxyType({"do": "fly"}))
    assert str(unread.value).startswith("action: field do: ")
    for junk in (None, 7, ["do", "end_phase"]):
        with pytest.raises(HerohammerError) as unread:
            parse_action(junk)
        assert str(unread.value).startswith("action: expected an object")  # not "--action", which no caller wrote
    with pytest.raises(HerohammerError, match=r"^plan\.steps\[2\]: field do: "):
        parse_action({"do": "fly"}, "plan.steps[2]")


def test_replaying_a_record_alone_says_to_replay_the_game_s_data() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    game.apply(SMITE)
    with pytest.raises(ScenarioError) as bare:
        Game.replay(game.record())
    assert bare.value.field == "played" and "this is a record itself (Game.record())" in str(bare.value)
    assert "Game.to_data(record=True)" in str(bare.value)
    with pytest.raises(ScenarioError, match="no record of play here"):
        Game.replay(game.to_data())  # scenario data without a record: as before
    assert Game.replay(game.to_data(record=True)).state == game.state


def test_a_judge_s_dice_that_ran_out_cite_the_rule_of_the_roll_that_found_no_face() -> None:
    game = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    judge = ScriptedDice([3, 4])  # the psychic test's two dice; the to-hit roll finds none
    with pytest.raises(DiceRanOut) as ran_out:
        game.apply(SMITE, dice=judge)
    played = Game.load(EX / "40k3_librarian_psychic.yaml", SeededDice(3))
    played.apply(SMITE)
    second = played.dice.log[1]  # the roll that found no face: the to-hit roll after the psychic test
    assert "to hit" in second.purpose and ran_out.value.rules == (second.rule,)
    assert str(ran_out.value).endswith(f"({second.purpose}, {second.request}) [{second.rule}]")
    assert "roll #2" in str(ran_out.value) and game.actions == () and judge.remaining == 2


@pytest.mark.rule("published.turn-sequence")
@pytest.mark.parametrize("path", [EX / "40k3_whole_turn.yaml", EX / "t9a_whole_turn.yaml"], ids=lambda p: p.name)
def test_ending_a_phase_or_a_turn_cites_the_turn_sequence(path: Path) -> None:
    game = Game.load(path, SeededDice(1))
    kinds = set()
    for _ in range(len(game.ruleset.phases) * 2):
        (event,) = game.apply({"do": "end_phase"})
        kinds.add(event.kind)
        assert event.rules == ("published.turn-sequence",) and event.describe().endswith("[published.turn-sequence]")
    assert kinds == {"phase", "turn"}


@pytest.mark.rule("published.weapon-profiles")
def test_a_unit_that_carries_no_shooting_weapon_is_told_citing_the_weapon_profiles() -> None:
    """The example's retinue and its Inquisitor stripped of their weapons: their shot is refused (round 45: a unit no
    model of which can fire may not shoot), naming each model and citing the weapon profiles; nothing changes."""
    data = read_data(EX / "40k4_inquisitor_retinue.yaml")
    for unit in data["sides"]["red"]:
        if unit["id"] in ("retinue", "inquisitor"):
            for model in unit["models"]:
                model.pop("weapons", None)
    game = Game.from_data(data, SeededDice(1))
    game.apply({"do": "end_phase"})  # to the Shooting phase
    before = game.state
    with pytest.raises(IllegalActionError) as refused:
        game.apply({"do": "shoot", "unit": "retinue", "target": "warriors"})
    assert "published.weapon-profiles" in refused.value.rules
    assert all(name in refused.value.reason for name in ("Acolyte", "Mystic", "Servitor", "Inquisitor"))
    assert "carry no shooting weapon" in refused.value.reason and game.state is before
