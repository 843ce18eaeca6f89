"""The page played as a player plays it (session 29): what the page must express by dragging, and what it says when
the server has lost the table.  Headless Chromium as in ``test_web_browser.py`` (its fixtures), through the page only;
every wait is on something the page shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_web_browser import EXAMPLES, browser, drag, open_file, page, server  # noqa: F401  (fixtures)
from tests.test_web_browser import page_on_own_server

from herohammer.web.session import Store  # noqa: E402
from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402  (after the module's skip without chromium)


def _end_phase(page: Page, then: str) -> None:
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#status-line")).to_contain_text(f"{then} phase")


def _front_centre(page: Page, unit: str) -> tuple[float, float]:
    x, y = page.evaluate(f"ui.view.units.find(u => u.id === {json.dumps(unit)}).formation.position")
    return x, y


@pytest.mark.rule("published.t9a-move")
def test_a_9th_age_unit_in_formation_is_moved_by_dragging_it(page: Page) -> None:
    """Every drag of a rank-and-file unit was refused ("give one point: the new place of the unit's front centre"):
    the page sent a point per model, where a 9th Age unit in formation moves by its front centre."""
    open_file(page, EXAMPLES / "t9a_whole_turn.yaml")
    _end_phase(page, "movement")
    x, y = _front_centre(page, "spearmen")
    drag(page, (x + 1, y - 0.5), (x + 1, y + 2.5))  # grab a model of the front rank, 3" forward
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "legal")
    expect(ruling.locator(".proposed")).to_contain_text('"do":"move","unit":"spearmen","to":[[')
    expect(ruling).to_contain_text('spearmen moves 3.00" of its 5" (Advance Rate)')
    expect(ruling.locator('.rule[data-rule="published.t9a-move"]')).to_have_count(1)
    page.click("#proposal-apply")
    expect(page.locator("#log li")).to_have_count(2)
    assert _front_centre(page, "spearmen") == pytest.approx((x, y + 3), abs=0.02)
    expect(page.locator("#table .ghost")).to_have_count(0)
    page.click("#undo")  # the formation is drawn back where it stood
    expect(page.locator("#log li")).to_have_count(1)
    assert _front_centre(page, "spearmen") == pytest.approx((x, y), abs=0.02)


@pytest.mark.rule("published.fleet-of-foot")
def test_a_fleet_unit_dragged_in_the_shooting_phase_runs(page: Page, tmp_path: Path) -> None:
    """A drag always proposed a move, which the Shooting phase refuses: a run (and a consolidation, an infiltration)
    could only be taken at the places the server sampled, never where the player wants the unit."""
    profile = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv5+"
    data = {"ruleset": "40k3", "phase": "shooting", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "stealers", "rules": ["fleet"], "models": [
                          {"name": f"G{i}", "profile": profile, "base": 25, "at": [20 + 2 * i, 10]} for i in range(3)]}],
                      "blue": [{"id": "guard", "models": [
                          {"name": f"B{i}", "profile": profile, "base": 25, "at": [20 + 2 * i, 40]} for i in range(3)]}]}}
    path = tmp_path / "fleet.json"
    path.write_text(json.dumps(data))
    open_file(page, path)
    drag(page, (22, 10), (22, 13))
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "legal")
    expect(ruling.locator(".proposed")).to_have_text('{"do":"run","unit":"stealers","to":[[20,13],[22,13],[24,13]]}')
    expect(ruling.locator('.rule[data-rule="published.fleet-of-foot"]')).to_have_count(1)
    page.fill("#faces", "4")
    page.click("#proposal-apply")
    expect(page.locator("#log")).to_contain_text('stealers runs 4" instead of shooting')
    assert page.evaluate("ui.view.units[0].models.map(m => m.y)") == [13, 13, 13]


@pytest.fixture()
def forgetful(browser: BrowserContext) -> Iterator[tuple[Page, Store]]:  # noqa: F811
    """A page on a server of its own, whose store the test can empty as a restarted server's is."""
    from herohammer.web.api import create_app

    store = Store()
    with page_on_own_server(browser, create_app(store)) as pg:
        yield pg, store


LOST = "the server no longer has this table"


def test_a_click_on_a_table_the_restarted_server_lost_says_so_on_the_message_line(
        forgetful: tuple[Page, Store]) -> None:
    """After a restart a click on a unit wrote the 404 only into the actions list; the message line still said
    "opened ..."."""
    page, store = forgetful
    open_file(page, EXAMPLES / "40k3_whole_turn.yaml")
    store.tables.clear()  # what a restart leaves
    page.click('#table circle[data-model="Marine 2"]')
    expect(page.locator("#message")).to_contain_text(LOST)
    expect(page.locator("#message")).to_contain_text("Open file")
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")


def test_a_download_of_a_table_the_restarted_server_lost_says_so(forgetful: tuple[Page, Store]) -> None:
    """Download scenario fetched a 404 that the browser dropped without a word."""
    page, store = forgetful
    open_file(page, EXAMPLES / "40k3_whole_turn.yaml")
    store.tables.clear()
    page.click("#download")
    expect(page.locator("#message")).to_contain_text(LOST)
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")


def test_a_link_to_a_table_the_server_lost_says_so_and_opens_the_demo(forgetful: tuple[Page, Store]) -> None:
    """A reload of /?table=ID after a restart opened the first demo without a word: the player's table was gone."""
    page, store = forgetful
    open_file(page, EXAMPLES / "40k3_whole_turn.yaml")
    lost = page.evaluate("ui.tableId")
    store.tables.clear()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#message")).to_contain_text(f"table {lost}: {LOST}")
    expect(page.locator("#message")).to_contain_text("opened the demo demo_40k3_librarian.yaml instead")
    expect(page.locator("#status-line")).to_contain_text("demo_40k3_librarian.yaml: 40k3")


def test_a_download_that_goes_through_still_saves_the_file(page: Page, tmp_path: Path) -> None:  # noqa: F811
    with page.expect_download() as info:
        page.click("#download")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    assert saved.name == "demo_40k3_librarian.yaml" and "ruleset: 40k3" in saved.read_text()


def test_a_unit_is_selected_from_the_keyboard(page: Page) -> None:  # noqa: F811
    """Units were drawn as SVG a keyboard could not reach: without a mouse no unit's actions or targets were listed."""
    for _ in range(40):  # Tab through the page's controls until a unit on the table has the focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.unit === 'librarian'"):
            break
    else:
        pytest.fail("Tab never reached the Librarian on the table")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("librarian")
    page.keyboard.press("Enter")
    expect(page.locator("#selected-name")).to_have_text("librarian")
    expect(page.locator('#actions li[data-do="move"]')).to_contain_text("move librarian")
    assert page.evaluate("document.activeElement.dataset.unit") == "librarian"  # the redrawn unit keeps the focus
    page.keyboard.press("Tab")  # and on to the next unit
    page.keyboard.press("Space")
    expect(page.locator("#selected-name")).not_to_have_text("librarian")


@pytest.mark.rule("published.morale-casualties")
def test_the_odds_of_a_4th_edition_shot_say_what_they_leave_out_with_the_rule(page: Page) -> None:  # noqa: F811
    """``odds action`` says that a 4th edition shot's odds hold no Morale check (taken as the phase ends); the page
    showed the rows alone, so the falling back a player expects was missing without a word."""
    open_file(page, EXAMPLES / "40k4_lone_character_shot.yaml")
    page.fill("#action-json", json.dumps({"do": "shoot", "unit": "tactical", "target": "lord"}))
    page.click("#json-odds")
    expect(page.locator("#odds .method")).to_contain_text("Exact", timeout=120_000)
    note = page.locator("#odds .note")
    expect(note).to_contain_text("no Morale check for these casualties: 4th edition takes it when the Shooting "
                                 "phase ends")
    chip = note.locator('.rule[data-rule="published.morale-casualties"]')
    expect(chip).to_have_count(1)
    assert chip.get_attribute("title") not in (None, "", "published.morale-casualties")  # the clause's text on hover


def test_a_simulation_without_exact_odds_says_why(page: Page) -> None:  # noqa: F811
    """``simulate`` says why a table has no exact column (the chance tree's size at the step that makes it too
    large); the page said "exact values beside them where the chance tree was enumerated" and showed none."""
    open_file(page, EXAMPLES / "t9a_whole_turn.yaml")
    page.fill("#sim-runs", "200")
    page.click("#simulate")
    method = page.locator("#simulation .method")
    expect(method).to_contain_text("200 runs of the table's plan", timeout=120_000)
    expect(method).to_contain_text("no exact column: exact enumeration would take more than")
    # the step named was the largest, the captain's fight, since the 2022 Magic phase (session 32) rolled the casting
    # dice as one request merged by what the rules tell apart (it was the Conclave's cast, die by die, before); since
    # reliability round 46 the estimate stops on its first path, at the Conclave's shooting, and says so
    expect(method).to_contain_text("the estimate stopped on its random path 1 of 16 through the plan, "
                                   "at step 6 (shoot: conclave)")


@pytest.mark.rule("published.t9a-move")
def test_a_9th_age_unit_marches_by_a_drag_with_march_ticked(page: Page) -> None:  # noqa: F811
    """A drag could only propose an Advance move: a march (``march: true``, which the CLI plays) was refused as too
    far ("may move 5" (Advance Rate ...), not 7.00"") with nothing on the page to ask for it."""
    expect(page.locator("#march")).to_be_hidden()  # a 40k table: no marching
    open_file(page, EXAMPLES / "t9a_whole_turn.yaml")
    _end_phase(page, "movement")
    x, y = _front_centre(page, "spearmen")
    page.check("#march")
    drag(page, (x + 1, y - 0.5), (x + 1, y + 6.5))
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "legal")
    expect(ruling.locator(".proposed")).to_contain_text('"march":true')
    expect(ruling).to_contain_text('spearmen moves 7.00" of its 10" (March Rate)')
    page.uncheck("#march")
    drag(page, (x + 1, y - 0.5), (x + 1, y + 6.5))
    expect(ruling).to_have_attribute("data-state", "illegal")
    expect(ruling).to_contain_text("Advance Rate")
