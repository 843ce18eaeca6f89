"""The page's odds say how their status rows read (reliability round 46), as ``odds action`` does under its rows:
a unit the action gave a status and then destroyed counts.  Headless Chromium as in ``test_web_browser.py`` (its
fixtures), through the page only; every wait is on something the page shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.test_web_browser import browser, open_file, page, server  # noqa: F401  (fixtures)

from herohammer.action_odds import STATUS_READING  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)

LAST_MAN = (Path(__file__).resolve().parents[1] / "src" / "herohammer" / "book" / "40k3"
            / "40k3-the-last-man-also-tests-for-casualties.yaml")


@pytest.mark.rule("published.leaving-the-battle")
def test_the_odds_say_a_status_counts_a_unit_the_action_then_destroyed(page: Page, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "last_man.json"
    path.write_text(json.dumps(yaml.safe_load(LAST_MAN.read_text(encoding="utf-8"))["scenario"]))
    open_file(page, path)
    page.fill("#action-json", json.dumps({"do": "shoot", "unit": "las", "target": "tac"}))
    page.click("#json-odds")
    expect(page.locator("#odds .method")).to_contain_text("Exact", timeout=120_000)
    expect(page.locator('#odds tr[data-row="tac: falling_back"]')).to_have_count(1)
    expect(page.locator("#odds .reading")).to_have_text(STATUS_READING)
