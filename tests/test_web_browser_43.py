"""A judge at an event uses the web table (library round 43): load a scenario, play a turn, undo, save the game as
played, reload the page and open the record again.  Every step of the log shows its ruling with the clause ids the
engine gave (before round 43 the steps that end a phase or a turn showed none), and a refused action, by the rules or
for want of the judge's dice, shows the refusal with its id and changes nothing.  Headless Chromium as in
``test_web_browser.py`` (its fixtures), through the page only; the judge's choices and what the engine says of them
come from a game played beside the page with the same dice; every wait is on something the page shows.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_web_browser import EXAMPLES, browser, open_file, page, server, settled  # noqa: F401  (fixtures)

from herohammer import Action, Event, Game, SeededDice  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)

SCENARIO = EXAMPLES / "40k3_whole_turn.yaml"
SEED = 5


def _chips(page: Page, where: str) -> list[list[str]]:
    """The rule ids each item of ``where`` shows as chips, in order."""
    found: list[list[str]] = page.evaluate(
        """(where) => [...document.querySelectorAll(where)].map(
             (li) => [...li.querySelectorAll('.rule')].map((chip) => chip.dataset.rule))""", where)
    return found


def _judge_s_choice(game: Game) -> Action:
    """A shot when one is legal (the one that rolls dice), else the end of the phase."""
    legal = game.legal_actions()
    return next((a for a in legal if a.do == "shoot"), next(a for a in legal if a.do == "end_phase"))


def _apply(page: Page, action: Action, faces: str = "") -> None:
    before = page.locator("#log li").count()
    page.fill("#faces", faces)
    page.fill("#seed", str(SEED))
    page.fill("#action-json", json.dumps(action.to_json()))
    page.click("#json-apply")
    expect(page.locator("#message")).to_contain_text("applied")
    expect(page.locator("#log li")).not_to_have_count(before)
    settled(page)  # the lists refetched after it are in too


def _unchanged(page: Page, status: str, log: list[str], undo_disabled: bool) -> None:
    """The page as it was: read once it waits on nothing (an action wrongly played would be drawn by then)."""
    settled(page)
    assert page.locator("#status-line").inner_text() == status
    assert page.locator("#log li").all_inner_texts() == log
    assert page.locator("#undo").is_disabled() == undo_disabled


def test_a_judge_plays_a_turn_undoes_saves_reloads_and_replays_with_every_ruling_cited(page: Page,
                                                                                        tmp_path: Path) -> None:
    open_file(page, SCENARIO)
    game = Game.load(SCENARIO, SeededDice(SEED))
    said: list[Event] = []
    shots = 0
    while game.state.active == "marines" or game.state.phase.value == "movement":  # marines' turn, into the orks'
        action = _judge_s_choice(game)
        events = game.apply(action, SeededDice(SEED))
        said += events
        shots += action.do == "shoot"
        _apply(page, action)
        assert _chips(page, "#log li") == [list(e.rules) for e in said]  # each step with the engine's clause ids
    assert shots and all(e.rules for e in said)
    expect(page.locator("#log .rule[data-rule='published.turn-sequence']")).not_to_have_count(0)

    # A refused action: the ruling shows REFUSED with the clause ids the engine gives, and nothing changes.
    status, log, undo_disabled = (page.locator("#status-line").inner_text(), page.locator("#log li").all_inner_texts(),
                                  page.locator("#undo").is_disabled())
    refused = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}  # not the orks' turn
    ruling = game.check(refused)
    assert not ruling.legal and ruling.rules
    page.fill("#action-json", json.dumps(refused))
    page.click("#json-apply")
    box = page.locator("#ruling")
    expect(box).to_have_attribute("data-state", "illegal")
    expect(box.locator(".verdict")).to_have_text("REFUSED")
    assert _chips(page, "#ruling") == [list(ruling.rules)]
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")
    expect(page.locator("#message")).to_contain_text(f"[{', '.join(ruling.rules)}]")
    _unchanged(page, status, log, undo_disabled)

    # The judge's dice run out midway: refused naming the roll and its rule, nothing played.
    action = _judge_s_choice(game)  # the orks' shot
    assert action.do == "shoot"
    first = next(r for e in game.copy().apply(action, SeededDice(SEED)) for r in e.rolls)
    assert first.faces is not None and len(first.faces) > 1  # one typed-in face is short of it
    page.fill("#faces", "4")
    page.fill("#action-json", json.dumps(action.to_json()))
    page.click("#json-apply")
    expect(page.locator("#message")).to_contain_text(f"scripted dice ran out at roll #1 ({first.purpose}, "
                                                     f"{first.request}) [{first.rule}]")
    expect(box.locator(".verdict")).to_have_text("REFUSED")
    assert _chips(page, "#ruling") == [[first.rule]]
    _unchanged(page, status, log, undo_disabled)

    # Undo takes the last step back, events and all.
    page.click("#undo")
    expect(page.locator("#message")).to_contain_text(f"undone: {json.dumps(game.actions[-1].to_json(), separators=(',', ':'))}")
    game.undo()
    expect(page.locator("#log li")).to_have_count(len(game.log))
    assert _chips(page, "#log li") == [list(e.rules) for e in game.log]

    # Saved as played, the page reloaded: the table and its log are still there, each step with its clauses.
    saved, texts = _saved_and_reloaded(page, tmp_path)
    assert _chips(page, "#log li") == [list(e.rules) for e in game.log]

    # The record opened again plays back and verifies; the log is the game's, each step with its clauses.
    open_file(page, saved)
    expect(page.locator("#message")).to_contain_text(
        f"its record played back and verified: {len(game.actions)} actions from played.start")
    assert page.locator("#log li").all_inner_texts() == texts
    assert _chips(page, "#log li") == [list(e.rules) for e in game.log]
    assert Game.replay(saved).log == game.log


def _saved_and_reloaded(page: Page, tmp_path: Path) -> tuple[Path, list[str]]:
    """Download the game as played into ``tmp_path``, reload the page and check that it shows the same log; return
    the saved file and the log's lines."""
    with page.expect_download() as info:
        page.click("#download-game")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    texts = page.locator("#log li").all_inner_texts()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#log li")).to_have_count(len(texts))
    assert page.locator("#log li").all_inner_texts() == texts
    return saved, texts
