"""The page's message line in a real browser: an old error never outlives a later answer, notes are said on load.

Headless Chromium as in ``test_web_browser.py`` (its fixtures), through the page only.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import yaml

from tests.test_web_browser import browser, page, server  # noqa: F401  (fixtures)

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402  (after the module's skip without chromium)

WRONG_PHASE = {"do": "shoot", "unit": "tactical", "target": "warriors"}  # the demo stands in its Movement phase


def _refused(page: Page) -> None:
    page.fill("#action-json", json.dumps(WRONG_PHASE))
    page.click("#json-apply")
    expect(page.locator("#ruling")).to_have_attribute("data-state", "illegal")
    expect(page.locator("#message")).to_be_visible()
    expect(page.locator("#message")).to_have_attribute("data-kind", "error")


def test_a_later_ruling_clears_an_old_error(page: Page) -> None:
    _refused(page)
    page.fill("#action-json", json.dumps({"do": "end_phase"}))
    page.click("#json-check")
    expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
    expect(page.locator("#message")).to_be_hidden()


def test_a_later_action_replaces_an_old_error(page: Page) -> None:
    _refused(page)
    page.fill("#action-json", json.dumps({"do": "end_phase"}))
    page.click("#json-apply")
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    expect(page.locator("#message")).to_have_attribute("data-kind", "info")
    expect(page.locator("#message")).not_to_contain_text("illegal")


def test_a_later_odds_answer_clears_an_old_error(page: Page) -> None:
    _refused(page)
    page.fill("#action-json", json.dumps({"do": "end_phase"}))
    page.click("#json-odds")
    expect(page.locator("#odds .method")).to_contain_text("Exact")
    expect(page.locator("#message")).to_be_hidden()


def test_an_uploaded_scenario_says_which_rules_no_rule_reads(page: Page, tmp_path: Path) -> None:
    data = yaml.safe_load((resources.files("herohammer") / "examples" / "demo_40k3_librarian.yaml").read_text())
    data["sides"]["red"][1]["rules"] = ["combat_squads"]
    upload = tmp_path / "squads.yaml"
    upload.write_text(yaml.safe_dump(data))
    page.set_input_files("#upload", str(upload))
    message = page.locator("#message")
    expect(message).to_contain_text("opened squads.yaml")
    expect(message).to_contain_text("not modelled by 40k3, read as text: combat_squads")
    expect(message).to_have_attribute("data-kind", "note")


def test_the_table_serve_opens_by_its_link_says_its_notes(browser: BrowserContext) -> None:  # noqa: F811
    """``herohammer serve SCENARIO`` opens the table itself and prints ``/?table=ID``: the page opened by that link
    says the load's notes as an upload does (serve's terminal said them too)."""
    from herohammer.web.api import create_app
    from herohammer.web.server import listen, start_in_thread
    from herohammer.web.session import Store

    data = yaml.safe_load((resources.files("herohammer") / "examples" / "demo_40k3_librarian.yaml").read_text())
    data["sides"]["red"][1]["rules"] = ["combat_squads"]
    store = Store()
    first = store.open(data, "squads.yaml")  # as serve_cmd opens its scenario
    running = start_in_thread(create_app(store), listen("127.0.0.1", 0))
    pg = browser.new_page()
    try:
        pg.goto(f"{running.url}/?table={first.id}")
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        expect(pg.locator("#status-line")).to_contain_text("squads.yaml")
        message = pg.locator("#message")
        expect(message).to_contain_text("not modelled by 40k3, read as text: combat_squads")
        expect(message).to_have_attribute("data-kind", "note")
    finally:
        pg.close()
        running.stop()
