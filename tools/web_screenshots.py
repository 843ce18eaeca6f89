#!/usr/bin/env python3
"""Take the screenshots of ``herohammer serve``: the 40k3 and the t9a demo tables in Chromium.

The README and docs/web.md show them.
Run from the project root (needs Debian's chromium):   .venv/bin/python tools/web_screenshots.py
Writes docs/web_40k3.png (the Librarian dragged into the Tactical squad, its ruling shown)
and docs/web_t9a.png (the t9a demo, the Wizard selected with his actions and targets).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from herohammer.web.api import create_app
from herohammer.web.server import listen, start_in_thread

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DOCS = Path(__file__).resolve().parent.parent / "docs"


def to_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    p: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('table'); const p = svg.createSVGPoint();
             p.x = x; p.y = ui.view.table.depth - y; const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y])
    return p[0], p[1]


def main() -> None:
    running = start_in_thread(create_app(), listen("127.0.0.1", 0))
    base = running.url
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=FLAGS,
                                                    headless=True, viewport={"width": 1400, "height": 860})
        page = ctx.new_page()
        page.goto(base + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.click('#table circle[data-model="Marine 2"]')
        expect(page.locator('#targets li[data-target="warriors"]')).to_be_visible()
        page.mouse.move(*to_screen(page, 19, 30.5))
        page.mouse.down()
        page.mouse.move(*to_screen(page, 20, 24.8), steps=6)
        page.mouse.up()
        expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
        page.screenshot(path=str(DOCS / "web_40k3.png"))
        page.select_option("#demo-select", "demo_t9a_wizard_charges_out.yaml")
        page.click("#open-demo")
        expect(page.locator("#status-line")).to_contain_text("t9a")
        page.click('#table rect.model[data-model="Wizard"]')
        expect(page.locator("#selected-name")).to_have_text("wizard")
        expect(page.locator('#actions li[data-do="charge"]').first).to_be_visible()
        page.locator('#actions li[data-do="charge"] .act-check').first.click()
        expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
        page.screenshot(path=str(DOCS / "web_t9a.png"))
        ctx.close()
    running.stop()
    print(f"wrote {DOCS / 'web_40k3.png'} and {DOCS / 'web_t9a.png'}")


if __name__ == "__main__":
    main()
