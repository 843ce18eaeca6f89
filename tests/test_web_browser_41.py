"""The page while a simulation runs (session 41): it showed the seconds gone by, never how many runs were done.  Now
its progress is the runs done of the runs asked, with how they are played: the exact odds worked out first, runs drawn
from them, or Monte Carlo games and why (``simulate``'s note word for word).  Headless Chromium as in
``test_web_browser.py`` (its fixtures), through the page only; every wait is on something the page shows.
"""

from __future__ import annotations

import re

from tests.test_web_browser import EXAMPLES, browser, open_file, page, server  # noqa: F401  (fixtures)

from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)

PSYKER = EXAMPLES / "40k3_librarian_psychic.yaml"


def _record_labels(page: Page) -> None:
    """Keep every text the progress label shows, with the bar's value and maximum then (a fast job moves on at once)."""
    page.evaluate("""() => { window.labelsShown = []; const label = document.getElementById('progress-label');
        const bar = document.getElementById('progress-bar');
        new MutationObserver(() => window.labelsShown.push([label.textContent, bar.value, bar.max])).observe(
            label, {childList: true, characterData: true, subtree: true}); }""")


COUNTED = re.compile(r"^([\d,]+) of 20,000 runs: no exact odds: exact enumeration would take about .* \(budget 20,000\)"
                     r".*; playing the 20,000 runs as Monte Carlo games instead$")


def test_a_monte_carlo_simulation_counts_its_runs_and_says_why_it_is_not_exact(page: Page) -> None:  # noqa: F811
    """The librarian's game by the default policy is too large to enumerate: while it runs the label counts the runs
    played of the 20,000 asked, with simulate's reason word for word, and the bar stands at that count."""
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    _record_labels(page)
    page.fill("#sim-runs", "20000")
    page.click("#simulate")
    expect(page.locator("#simulation .method")).to_contain_text("20000 runs", timeout=120_000)
    expect(page.locator("#simulation .method")).to_contain_text("method engine")
    shown = page.evaluate("window.labelsShown")
    counted = [(int(m.group(1).replace(",", "")), value, top) for text, value, top in shown
               if (m := COUNTED.match(text))]
    assert any(0 < done < 20_000 for done, _, _ in counted), shown  # seen part way, not only at the ends
    assert all(value == done and top == 20_000 for done, value, top in counted), shown
    assert [done for done, _, _ in counted] == sorted(done for done, _, _ in counted)
    after = shown[[text for text, _, _ in shown].index(next(t for t, _, _ in shown if COUNTED.match(t))):]
    assert not any(re.search(r"\(\d+(\.\d+)?s\)$", text) for text, _, _ in after), shown  # a count, not seconds


def test_an_exact_simulation_says_it_works_out_the_exact_odds_first(page: Page) -> None:  # noqa: F811
    """A small chance tree: the label says the exact odds are worked out first (no run is done yet), never Monte
    Carlo; the answer is the compiled plan's."""
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    page.click('#actions li[data-do="end_phase"] .act-apply')  # the assault phase: the default policy's game is small
    expect(page.locator("#status-line")).to_contain_text("assault phase")
    _record_labels(page)
    page.fill("#sim-runs", "5000")
    page.click("#simulate")
    expect(page.locator("#simulation .method")).to_contain_text("5000 runs", timeout=120_000)
    expect(page.locator("#simulation .method")).to_contain_text("method compiled")
    shown = [text for text, _, _ in page.evaluate("window.labelsShown")]
    assert any(text.startswith("0 of 5,000 runs: working out the exact odds first (enumerating the chance tree)")
               for text in shown), shown
    assert not any("Monte Carlo" in text for text in shown), shown
