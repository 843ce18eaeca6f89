"""A 9th Age turn at the web table (library round 44): the Captain charges out of his Spearmen, the Wizard Conclave
casts Fireball, the Conclave and the Spearmen shoot, the Captain fights in melee; played through the page (each
unit picked on the table, its listed action applied, the JSON box for a cast with more dice than the listed one),
checked, undone, saved as played, reloaded and opened again.  Every step of the log shows the clause ids the
engine gave, every check shows its ruling's, and a refused shot (into a combat, or out of range) shows its clause
once: a shooting ruling whose reason ended citing its clause was cited twice in the refusal's message
("... in range [published.t9a-to-hit-shooting] [published.t9a-to-hit-shooting]", ``IllegalActionError``).
Headless Chromium as in ``test_web_browser.py`` (its fixtures); the choices and what the engine says of them come
from a game played beside the page with the same seed; every wait is on something the page shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tests.test_web_browser import EXAMPLES, browser, open_file, page, server  # noqa: F401  (fixtures)
from tests.test_web_browser_43 import _chips, _saved_and_reloaded, _unchanged

from herohammer import Game, IllegalActionError, SeededDice  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)

SCENARIO = EXAMPLES / "t9a_whole_turn.yaml"
PLAN: list[dict[str, Any]] = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))["plan"]
SEED = 3  # a seed whose charge arrives, so that every step of the plan is legal


def _pick(page: Page, unit: str) -> None:
    """Select a unit by clicking one of its models on the table, and wait for its actions."""
    page.locator(f'#table g.unit[data-unit="{unit}"] [data-model]').first.click()
    expect(page.locator("#selected-name")).to_have_text(unit)
    expect(page.locator("#actions li").first).to_be_visible()


def _listed(page: Page, action: dict[str, Any]) -> Any:
    """The item of the actions list that is this action, or None (once the list of the table as it now stands is in)."""
    expect(page.locator("#actions")).to_have_attribute("aria-busy", "false")
    items = page.locator("#actions li")
    for k in range(items.count()):
        code = items.nth(k).locator("code")
        if code.count() and json.loads(code.inner_text()) == action:
            return items.nth(k)
    return None


def _check_and_apply(page: Page, game: Game, action: dict[str, Any]) -> str:
    """Check the action on the page (its ruling and clauses as the engine's), then apply it; say how it was given."""
    ruling = game.check(action)
    assert ruling.legal and ruling.rules, (action, ruling.reason)
    if "unit" in action:
        _pick(page, action["unit"])
    item = _listed(page, action)
    page.fill("#faces", "")
    page.fill("#seed", str(SEED))
    if item is None:
        page.fill("#action-json", json.dumps(action))
        page.click("#json-check")
    else:
        item.locator(".act-check").click()
    box = page.locator("#ruling")
    expect(box).to_have_attribute("data-state", "legal")
    expect(box.locator(".reason")).to_have_text(ruling.reason)
    assert _chips(page, "#ruling") == [list(ruling.rules)]
    before = page.locator("#log li").count()
    if item is None:
        page.click("#json-apply")
    else:
        item.locator(".act-apply").click()
    expect(page.locator("#message")).to_contain_text("applied")
    expect(page.locator("#log li")).not_to_have_count(before)
    game.apply(action, SeededDice(SEED))
    return "list" if item is not None else "json"


def _refused_once(page: Page, game: Game, action: dict[str, Any]) -> None:
    """A refused action: REFUSED with the engine's clauses, each cited once in the message; nothing changes."""
    ruling = game.check(action)
    assert not ruling.legal and ruling.rules
    status, log, undo_disabled = (page.locator("#status-line").inner_text(), page.locator("#log li").all_inner_texts(),
                                  page.locator("#undo").is_disabled())
    page.fill("#action-json", json.dumps(action))
    page.click("#json-apply")
    box = page.locator("#ruling")
    expect(box.locator("code.proposed")).to_have_text(json.dumps(action, separators=(",", ":")))  # this refusal's
    expect(box.locator(".verdict")).to_have_text("REFUSED")
    assert _chips(page, "#ruling") == [list(ruling.rules)]
    message = page.locator("#message")
    expect(message).to_have_attribute("data-kind", "error")
    cite = f"[{', '.join(ruling.rules)}]"
    expect(message).to_contain_text(cite)
    assert message.inner_text().count(cite) == 1, message.inner_text()
    _unchanged(page, status, log, undo_disabled)


def test_a_9th_age_turn_played_undone_saved_reloaded_and_replayed_with_every_ruling_cited(
        page: Page, tmp_path: Path) -> None:
    open_file(page, SCENARIO)
    game = Game.load(SCENARIO)
    ways = []
    for step, action in enumerate(PLAN):
        ways.append(_check_and_apply(page, game, action))
        assert _chips(page, "#log li") == [list(e.rules) for e in game.log], action
        if action["do"] == "charge":  # out of his unit: the Captain stands apart from the Spearmen
            expect(page.locator('#table [data-label="spearmen"]')).to_have_text("spearmen")
        if step == 5:  # the shooting phase, the Conclave shot: into the combat and out of range are refused
            _refused_once(page, game, {"do": "shoot", "unit": "spearmen", "target": "orc_warriors"})
            _refused_once(page, game, {"do": "shoot", "unit": "conclave", "target": "orc_archers"})
    assert "json" in ways and ways.count("list") >= len(PLAN) - 2  # the cast with 3 dice is not a listed one
    assert all(e.rules for e in game.log)
    kinds = {e.kind for e in game.log}
    assert {"charge", "cast", "shoot", "fight"} <= kinds, kinds
    expect(page.locator("#status-line")).to_contain_text("orcs to act, charge phase")

    # Undo the last two steps (the end of the phase, the fight and all its events), then play the fight again.
    for _ in range(2):
        page.click("#undo")
        expect(page.locator("#message")).to_contain_text(
            f"undone: {json.dumps(game.actions[-1].to_json(), separators=(',', ':'))}")
        game.undo()
        expect(page.locator("#log li")).to_have_count(len(game.log))
        assert _chips(page, "#log li") == [list(e.rules) for e in game.log]
    expect(page.locator("#status-line")).to_contain_text("highborn to act, melee phase")
    for action in PLAN[-2:]:
        _check_and_apply(page, game, action)
    assert _chips(page, "#log li") == [list(e.rules) for e in game.log]

    # Saved as played, the page reloaded, the record opened again: the same log, each step with its clauses.
    saved, texts = _saved_and_reloaded(page, tmp_path)
    open_file(page, saved)
    expect(page.locator("#message")).to_contain_text(
        f"its record played back and verified: {len(game.actions)} actions from played.start")
    assert page.locator("#log li").all_inner_texts() == texts
    assert _chips(page, "#log li") == [list(e.rules) for e in game.log]
    again = Game.replay(saved)
    assert again.log == game.log and again.state == game.state


def test_a_refusal_that_ended_citing_its_clause_is_cited_once() -> None:
    """The engine's side of the refusal above: the message of ``IllegalActionError`` cites each clause once."""
    shot = {"do": "shoot", "unit": "spearmen", "target": "orc_archers"}
    for seed in range(40):  # a charge that leaves the Spearmen's bows out of range of the archers
        game = Game.load(SCENARIO)
        for action in PLAN[:6]:
            game.apply(action, SeededDice(seed))
        ruling = game.check(shot)
        if not ruling.legal:
            break
    cite = f"[{', '.join(ruling.rules)}]"
    assert not ruling.legal and ruling.reason.endswith(cite), ruling.reason  # the reason ends citing its clause
    before = game.state
    try:
        game.apply(shot)
    except IllegalActionError as refused:
        assert str(refused) == f"illegal action: {ruling.reason}" and str(refused).count(cite) == 1
        assert refused.rules == ruling.rules and refused.reason == ruling.reason
    else:
        raise AssertionError("the shot out of range was applied")
    assert game.state is before
    other = IllegalActionError("no line of sight", ["published.line-of-sight"])  # one not citing: cited as before
    assert str(other) == "illegal action: no line of sight [published.line-of-sight]"
