"""An action field the ruleset does not read is refused, never silently ignored (a player's silent wrong answer).

Found by using the tool: in 40k, ``{"do": "shoot", "unit": "warboss", "target": "tactical", "at": "Nobody"}``
was LEGAL and fired at the unit as if ``at`` were not there.  ``at`` (direct the hits at a character),
``duel``/``accept``/``nominate``, ``position``/``rank_choice``, ``march`` and a leaving character's
``fly`` are The 9th Age's: a 40k player who writes one expects it to count.  40k's own refusals of
``wheel`` and a move's ``fly`` already said so; now every such field does, in one place
(``Ruleset.judge_checked``, from the ruleset's ``unread_fields``), and the state is left unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import SeededDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.rulesets import RULESETS, get_ruleset
from herohammer.scenario import load_scenario

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LONE = EXAMPLES / "40k3_lone_captain_target.yaml"
CHAPLAIN = EXAMPLES / "40k4_chaplain_combat.yaml"
LIBRARIAN = EXAMPLES / "40k4_librarian_joins_tactical.yaml"

#: A legal 40k action, and a 9th Age field added to it (``shoot``'s ``weapon`` is 40k's too since session 25:
#: tests/test_40k_weapon_choice.py).
CASES = [
    (LONE, {"do": "shoot", "unit": "warboss", "target": "tactical"}, {"at": "Sergeant"}),
    (LONE, {"do": "shoot", "unit": "shoota_boyz", "target": "tactical"}, {"at": "Nobody"}),
    (LIBRARIAN, {"do": "join", "character": "librarian", "unit": "tactical", "to": [24.0, 20.02]}, {"position": 0}),
    (LIBRARIAN, {"do": "join", "character": "librarian", "unit": "tactical", "to": [24.0, 20.02]},
     {"rank_choice": "widen"}),
    (LIBRARIAN, {"do": "move", "unit": "librarian", "to": [[26.0, 14.0]]}, {"march": True}),
]


def _fought(path: Path) -> Game:
    game = Game(load_scenario(path), SeededDice(7))
    game.apply({"do": "assault", "unit": "assault_squad", "target": "boyz"})
    return game


@pytest.mark.parametrize("path, action, extra", CASES, ids=[f"{a['do']}.{next(iter(e))}" for _, a, e in CASES])
def test_a_9th_age_field_in_a_40k_action_is_refused_naming_it(path: Path, action: dict[str, Any],
                                                              extra: dict[str, Any]) -> None:
    game = Game.load(path, SeededDice(1))
    assert game.check(action).legal  # the action itself is legal
    field = next(iter(extra))
    ruling = game.check({**action, **extra})
    assert not ruling.legal
    assert f"{action['do']}.{field}" in ruling.reason and "leave out" in ruling.reason
    before = game.state
    with pytest.raises(IllegalActionError, match=f"{action['do']}.{field}"):
        game.apply({**action, **extra})
    assert game.state is before


@pytest.mark.parametrize("field, value", [("at", "Boy 1"), ("duel", "chaplain"), ("accept", "boyz"),
                                          ("nominate", "boyz")])
def test_a_40k_fight_refuses_the_9th_age_duel_and_target_fields(field: str, value: str) -> None:
    game = _fought(CHAPLAIN)
    fight = {"do": "fight", "unit": "assault_squad"}
    assert game.check(fight).legal
    ruling = game.check({**fight, field: value})
    assert not ruling.legal and f"fight.{field}" in ruling.reason


def test_the_command_line_says_illegal_and_names_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", str(LONE), "--action",
                          '{"do": "shoot", "unit": "warboss", "target": "tactical", "at": "Nobody"}'], capsys)
    assert out.startswith("ILLEGAL:") and "shoot.at" in out, (out, err)
    code, out, err = run(["odds", "action", str(LONE), "--action",
                          '{"do": "shoot", "unit": "warboss", "target": "tactical", "at": "Nobody"}'], capsys)
    assert code == 2 and out == "" and "shoot.at" in err and err.count("\n") == 1


def test_every_unread_field_is_a_field_of_its_action_and_the_9th_age_reads_them_all() -> None:
    """The tables name real fields, and only 40k has any: the 9th Age reads every field an action has."""
    from herohammer.actions import ACTION_TYPES

    fields = {t.model_fields["do"].annotation.__args__[0]: set(t.model_fields) for t in ACTION_TYPES}
    for name in RULESETS:
        for do, unread in get_ruleset(name).unread_fields.items():
            assert set(unread) <= fields[do] - {"do"}, (name, do)
    assert get_ruleset("t9a").unread_fields == {}
    assert get_ruleset("40k3").unread_fields == get_ruleset("40k4").unread_fields != {}


def test_actions_the_rulesets_offer_never_carry_an_unread_field() -> None:
    for path in sorted(EXAMPLES.glob("*.yaml")):
        game = Game.load(path)
        unread = game.ruleset.unread_fields
        for action in game.legal_actions():
            assert all(getattr(action, f) is None or getattr(action, f) is False for f in unread.get(action.do, {})), (path.name, action)


@pytest.mark.parametrize("ruleset", ["40k3", "40k4", "t9a"])
def test_another_games_unit_status_in_a_file_is_refused_naming_it(ruleset: str) -> None:
    """A 40k unit ``fleeing`` or ``duel_refused``, a 9th Age unit ``falling_back`` or ``pinned``, would be read by no
    rule of the file's ruleset: refused at load, naming the field and the status; a status of its own game loads."""
    from herohammer.errors import ScenarioError
    from herohammer.scenario import state_from_data
    from herohammer.units import Status

    unread = get_ruleset(ruleset).unread_statuses
    assert unread  # each game names the other's statuses
    for status in unread:
        data = _status_file(ruleset, status.value)
        with pytest.raises(ScenarioError) as exc:
            state_from_data(data)
        assert "sides.a[0].status[0]" in str(exc.value) and repr(status.value) in str(exc.value), exc.value
    own = next(s for s in (Status.MOVED, Status.SHOT) if s not in unread)
    assert state_from_data(_status_file(ruleset, own.value)).unit("x").has(own)


def _status_file(ruleset: str, status: str) -> dict[str, Any]:
    profile = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+" + (" Adv5 Mar10" if ruleset == "t9a" else "")
    return {"ruleset": ruleset, "phase": "movement", "active": "a", "sides": {
        "a": [{"id": "x", "status": [status], "models": [{"name": "m", "profile": profile, "base": 25,
                                                           "at": [10, 10]}]}],
        "b": [{"id": "y", "models": [{"name": "n", "profile": profile, "base": 25, "at": [40, 40]}]}]}}
