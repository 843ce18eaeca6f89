"""The page played as a player plays it (session 29): what the page must express by dragging, and what it says when
the server has lost the table.  Headless Chromium as in ``test_web_browser.py`` (its fixtures), through the page only;
every wait is on something the page shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_web_browser import EXAMPLES, browser, drag, page, server  # noqa: F401  (fixtures)

from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)


def _open(page: Page, path: Path) -> None:
    page.set_input_files("#upload", str(path))
    expect(page.locator("#status-line")).to_contain_text(f"{path.name}: ")


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
    _open(page, EXAMPLES / "t9a_whole_turn.yaml")
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
    _open(page, path)
    drag(page, (22, 10), (22, 13))
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "legal")
    expect(ruling.locator(".proposed")).to_have_text('{"do":"run","unit":"stealers","to":[[20,13],[22,13],[24,13]]}')
    expect(ruling.locator('.rule[data-rule="published.fleet-of-foot"]')).to_have_count(1)
    page.fill("#faces", "4")
    page.click("#proposal-apply")
    expect(page.locator("#log")).to_contain_text('stealers runs 4" instead of shooting')
    assert page.evaluate("ui.view.units[0].models.map(m => m.y)") == [13, 13, 13]
