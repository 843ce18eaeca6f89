"""The page as players and judges use it after session 40: a game downloaded as played (its record), opened again with
its undo, a record that does not play back refused by its step; a failed psychic test shown and edited in words; and
what play-testing the examples found (a fight undone, why the phase may not end, a joined character's actions, odds
too long to read).  Headless Chromium as in ``test_web_browser.py`` (its fixtures), through the page only; every wait is
on something the page shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests._cli import run
from tests.test_web_browser import EXAMPLES, browser, open_file, page, server, settled  # noqa: F401  (fixtures)

from herohammer import Game  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402  (after the module's skip without chromium)

PSYKER = EXAMPLES / "40k3_librarian_psychic.yaml"
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


def _apply(page: Page, action: dict[str, object], faces: str = "") -> None:
    """Apply an action typed in as JSON (with a judge's faces, or a random seed) and wait for the page to say so."""
    before = page.locator("#log li").count()
    page.fill("#faces", faces)
    page.fill("#action-json", json.dumps(action))
    page.click("#json-apply")
    expect(page.locator("#message")).to_contain_text("applied")
    expect(page.locator("#log li")).not_to_have_count(before)
    settled(page)  # the lists refetched after it are in too


def _download_game(page: Page, tmp_path: Path) -> Path:
    with page.expect_download() as info:
        page.click("#download-game")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    return saved


def _played_game(page: Page, tmp_path: Path) -> Path:
    """Smite with a seed, then end the phase; return the game downloaded as played."""
    open_file(page, PSYKER)
    page.fill("#seed", "3")
    _apply(page, SMITE)
    _apply(page, {"do": "end_phase"})
    expect(page.locator("#status-line")).to_contain_text("assault phase")
    return _download_game(page, tmp_path)


def test_the_game_downloaded_as_played_replays_and_opens_with_undo_through_it(
        page: Page, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Download game writes the record (``play FILE --replay`` and ``Game.replay`` verify it); opened again, the page
    says it was played back and Undo steps back through the recorded actions to where the game started."""
    saved = _played_game(page, tmp_path)
    assert saved.name == "40k3_librarian_psychic_played.yaml"
    log = page.locator("#log li").all_inner_texts()
    replayed = Game.replay(saved)
    assert [a.do for a in replayed.actions] == ["manifest", "end_phase"]
    code, out, err = run(["play", str(saved), "--replay"], capsys)
    assert code == 0 and "verified: the 2 actions recorded replay from played.start" in out, err
    open_file(page, PSYKER)  # another table first: the upload replaces it
    expect(page.locator("#undo")).to_be_disabled()
    open_file(page, saved)
    expect(page.locator("#message")).to_contain_text(
        "opened 40k3_librarian_psychic_played.yaml: its record played back and verified: 2 actions from played.start; "
        "Undo steps back through them")
    expect(page.locator("#status-line")).to_contain_text("turn 1, marines to act, assault phase")
    assert page.locator("#log li").all_inner_texts() == log  # the log as it was played
    page.click("#undo")
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    page.click("#undo")
    expect(page.locator("#log li")).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.locator('#table circle[data-model="Boy 6"]')).to_have_count(1)  # Smite's dead are back
    _apply(page, {"do": "end_phase"})
    page.click("#edit")  # an edit starts a new table: the page says that what was played is not carried
    page.click("#edit-save")
    expect(page.locator("#message")).to_contain_text("edits applied: a new table from the edited scenario (Undo and "
                                                     "Download game start from here")
    expect(page.locator("#undo")).to_be_disabled()


def test_a_record_that_does_not_play_back_names_the_step_and_leaves_the_table(page: Page, tmp_path: Path) -> None:
    """An illegal step is refused with its rule id, dice that do not match with the step; the table stays."""
    saved = _played_game(page, tmp_path)
    data = yaml.safe_load(saved.read_text())
    table, status = page.evaluate("ui.tableId"), page.locator("#status-line").inner_text()
    log = page.locator("#log li").count()

    data["played"]["actions"][0]["power"] = "Fireball"
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(yaml.safe_dump(data))
    page.set_input_files("#upload", str(illegal))
    message = page.locator("#message")
    expect(message).to_contain_text("illegal.yaml: played.actions[0] (step 1): illegal at this point of the game: "
                                    "unknown power 'Fireball'")
    expect(message).to_contain_text("[40k3.psyker.test]")
    expect(message).to_have_attribute("data-kind", "error")
    settled(page)
    assert page.evaluate("ui.tableId") == table and page.locator("#status-line").inner_text() == status
    expect(page.locator("#log li")).to_have_count(log)

    data["played"]["actions"][0]["power"] = "Smite"
    data["played"]["rolls"][0][0] = [6, 6]  # the psychic test rolled otherwise
    wrong_dice = tmp_path / "dice.yaml"
    wrong_dice.write_text(yaml.safe_dump(data))
    page.set_input_files("#upload", str(wrong_dice))
    expect(message).to_contain_text("dice.yaml: played.actions[0] (step 1): the dice do not match the record")
    settled(page)
    assert page.evaluate("ui.tableId") == table and page.locator("#status-line").inner_text() == status


@pytest.mark.rule("40k3.psyker.test")
def test_a_failed_psychic_test_is_said_in_words_and_a_second_power_refused_with_its_rule(page: Page) -> None:
    """The new status ``psychic_test_failed``: its odds row, the tag under the unit, the unit panel, the refusal."""
    open_file(page, PSYKER)
    page.fill("#action-json", json.dumps(SMITE))
    page.click("#json-odds")
    expect(page.locator("#odds .method")).to_contain_text("Exact")
    row = page.locator('#odds tr[data-row="librarian: psychic_test_failed"] td').first
    expect(row).to_have_attribute("title", "librarian: failed its psychic test this turn: no psychic power this turn")
    _apply(page, SMITE, faces="5 6")  # 11 against Ld 10: failed
    expect(page.locator('#table [data-status="tactical"]')).to_have_text("PSYCHIC TEST FAILED")  # he is joined to it
    page.click('#table circle[data-model="Librarian"]')
    expect(page.locator('#unit-info [data-status-id="psychic_test_failed"]')).to_have_text(
        "failed its psychic test this turn: no psychic power this turn")
    settled(page)  # the list is emptied while it is refetched: a count of 0 before it is in says nothing
    expect(page.locator('#actions li[data-do="manifest"]')).to_have_count(0)
    status, log = page.locator("#status-line").inner_text(), page.locator("#log li").count()
    page.fill("#faces", "3 3")
    page.fill("#action-json", json.dumps(SMITE))
    page.click("#json-apply")
    expect(page.locator("#ruling")).to_contain_text("librarian failed its psychic test this turn: a failed psychic "
                                                    "test means no power this turn")
    expect(page.locator('#ruling .rule[data-rule="40k3.psyker.test"]')).to_have_count(1)
    assert page.locator("#status-line").inner_text() == status
    expect(page.locator("#log li")).to_have_count(log)


def test_the_status_picker_lists_the_game_s_statuses_in_words_and_takes_one_off(page: Page, tmp_path: Path) -> None:
    """The editor's status field was comma-separated ids, its hint listing 15 of the 27 (not psychic_test_failed);
    now each status this game reads is a box with a player's words, and a judge takes a status off by a click."""
    data = yaml.safe_load(PSYKER.read_text())
    data["sides"]["marines"][0]["status"] = ["used_power", "psychic_test_failed"]
    failed = tmp_path / "failed.yaml"
    failed.write_text(yaml.safe_dump(data))
    open_file(page, failed)
    page.click("#edit")
    picker = page.locator('#edit-fields [data-path="sides.marines[0].status"]')
    expect(picker.locator("summary")).to_have_text("status: failed its psychic test this turn: no psychic power this "
                                                   "turn; took its psychic test this turn (no other power this turn)")
    picker.locator("summary").click()
    box = picker.locator('input[value="psychic_test_failed"]')
    expect(box).to_be_checked()
    expect(picker.locator('label[title="psychic_test_failed"]')).to_have_text("failed its psychic test this turn: no psychic power this turn")
    expect(picker.locator('input[value="fleeing"]')).to_have_count(0)  # The 9th Age's: not offered in a 40k game
    box.uncheck()
    picker.locator('input[value="used_power"]').uncheck()
    page.click("#edit-save")
    expect(page.locator("#editor")).not_to_be_visible()
    page.click('#table circle[data-model="Librarian"]')
    expect(page.locator("#unit-info .unit-status")).to_have_text("none")
    expect(page.locator('#actions li[data-do="manifest"]').first).to_be_visible()  # he may take his test again


@pytest.mark.rule("published.close-combat")
def test_a_fight_undone_is_to_be_fought_again_and_the_page_says_why_the_phase_may_not_end(page: Page) -> None:
    """After an assault the Legal actions held no End phase and no word why; a joined Chaplain selected showed "none
    now".  Undo after the fight puts the combat back to be fought, the Boyz' dead standing again."""
    open_file(page, EXAMPLES / "40k4_chaplain_combat.yaml")
    _apply(page, {"do": "assault", "unit": "assault_squad", "target": "boyz"})
    refused = page.locator("#actions li.end-phase-refused")
    expect(refused).to_contain_text("end the phase: not yet: the close combat of assault_squad has not been fought")
    expect(refused.locator('.rule[data-rule="published.close-combat"]')).to_have_count(1)
    page.click('#table circle[data-model="Chaplain"]')
    expect(page.locator("#actions li.none-now")).to_have_text(
        "no action of chaplain's own now (joined to assault_squad: select it for the actions they take together)")
    page.click('#table circle[data-model="Sergeant"]')
    fight = page.locator('#actions li[data-do="fight"]')
    fight.locator(".act-odds").click()
    expect(page.locator("#odds .method")).to_contain_text("Exact")
    lost = page.locator('#odds tr[data-row="assault_squad: models lost = 0"] td.p').first
    expect(lost).to_have_text("exact (hover for the fraction)")  # 44 digits over 44: the percentage says it
    assert lost.get_attribute("title") == lost.get_attribute("data-p") and "/" in (lost.get_attribute("title") or "")
    boyz = page.locator('#table [data-unit="boyz"] .model')
    expect(boyz).to_have_count(6)
    page.fill("#faces", "")
    fight.locator(".act-apply").click()
    expect(page.locator("#log")).to_contain_text("combat result")
    events = page.locator("#log li").count() - 1  # the assault's one event before
    # the message line was every event of the fight, a thousand characters pushing the table down: now how it began
    # and how it ended, the log holding each
    expect(page.locator("#message")).to_contain_text("applied (seed ")
    expect(page.locator("#message")).to_contain_text(f"({events} events: the log has each, with its rules)")
    assert len(page.locator("#message").inner_text()) < 400
    settled(page)  # the actions list of the table after the fight is in: no refusal to end the phase
    expect(page.locator("#actions li.end-phase-refused")).to_have_count(0)
    page.click("#undo")
    expect(page.locator("#message")).to_have_text('undone: {"do":"fight","unit":"assault_squad"}')  # was "undone"
    expect(page.locator("#log")).not_to_contain_text("combat result")
    expect(boyz).to_have_count(6)
    expect(page.locator("#actions li.end-phase-refused")).to_contain_text("has not been fought")


def _long_odds(page: Page) -> str:
    """Ask for a million Monte Carlo runs of Smite and return the job's id once its progress is shown."""
    page.fill("#odds-max", "1")
    page.fill("#odds-runs", "1000000")
    page.fill("#action-json", json.dumps(SMITE))
    page.click("#json-odds")
    expect(page.locator("#progress")).to_be_visible()  # hidden before: the job's own progress, not an earlier one's
    expect(page.locator("#progress-label")).to_contain_text("Monte Carlo instead")
    job: str = page.evaluate("ui.job")
    return job


def _job_status(server: str, job: str) -> str:
    """The job's status once it has stopped (a cancel is seen by the job at its next count), polled as the page does."""
    import time

    import httpx2 as httpx

    deadline = time.monotonic() + 20
    while (status := httpx.get(f"{server}/api/jobs/{job}").json()["status"]) == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    return str(status)


def test_odds_of_a_table_that_changed_go_and_their_job_is_cancelled(page: Page, server: str) -> None:
    """Odds asked for, then an action applied (or other odds asked for): the old job ran on to its end, a core taken
    for an answer never shown, and odds of the table before an action stayed up beside the new table."""
    open_file(page, PSYKER)
    first = _long_odds(page)
    _apply(page, {"do": "end_phase"})
    expect(page.locator("#progress")).to_be_hidden()
    expect(page.locator("#odds")).to_be_empty()
    assert _job_status(server, first) == "cancelled"
    page.click("#undo")
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    second = _long_odds(page)
    page.fill("#odds-max", "200000")
    page.click("#json-odds")  # the same question, exact this time: the million runs are not wanted any more
    expect(page.locator("#odds .method")).to_contain_text("Exact")
    assert _job_status(server, second) == "cancelled"
    _apply(page, {"do": "end_phase"})
    expect(page.locator("#odds")).to_be_empty()  # the exact answer was of the table before
