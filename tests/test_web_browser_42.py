"""A simulation cancelled from the page (session 42): the API's cancel was tested, the page's Cancel button on a running
simulation never was.  Clicked while the runs are counted, the simulation's process ends (and its workers with it),
the page says "cancelled", shows no answer and hides the progress, and the server takes the next simulation at once.
Headless Chromium as in ``test_web_browser.py`` (its browser and page fixtures; the server here holds its own
``Store`` so the test can see the job's process), through the page only; every wait is on something the page shows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from tests.test_web_browser import EXAMPLES, browser, open_file, page  # noqa: F401  (fixtures)

from herohammer.web.session import Store  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402  (after the module's skip without chromium)

STORE = Store()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app under uvicorn on a free loopback port, in a thread, on a store the tests can read."""
    from herohammer.web.api import create_app
    from herohammer.web.server import listen, start_in_thread

    running = start_in_thread(create_app(STORE), listen("127.0.0.1", 0))
    yield running.url
    running.stop()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (a simulation's workers), from /proc."""
    found = set()
    for entry in __import__("os").listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def _gone(pids: set[int], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(__import__("os").path.exists(f"/proc/{pid}") and _not_zombie(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _not_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


COUNTING = re.compile(r"^([1-9][\d,]*) of 10,000,000 runs")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_running_simulation_cancelled_from_the_page_stops_and_the_next_one_runs(page: Page, workers: str) -> None:  # noqa: F811
    # from the movement phase: Monte Carlo games, counted as they go
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    page.fill("#sim-runs", "10000000")
    if page.locator(f'#sim-workers option[value="{workers}"]').count() == 0:
        pytest.skip(f"the server offers no {workers} processes on this machine")
    page.select_option("#sim-workers", workers)
    page.click("#simulate")
    expect(page.locator("#progress-label")).to_have_text(COUNTING, timeout=120_000)  # runs are being played
    job = STORE.job(page.evaluate("ui.job"))
    process = job.process
    helpers = _children(process.pid) if workers != "1" else set()
    page.click("#cancel")
    expect(page.locator("#message")).to_have_text("cancelled")
    expect(page.locator("#progress")).to_be_hidden()
    expect(page.locator("#simulation")).to_be_empty()  # no answer, and no half answer
    assert job.status == "cancelled" and job.result is None and job.error is None
    process.join(timeout=10)
    assert not process.is_alive(), "the simulation's process outlived its cancel"
    assert _gone(helpers), "a simulation's worker outlived its cancel"
    stopped_at = job.done  # every run may be counted by then on a quiet machine (compiled games are fast): the
    assert 0 < stopped_at <= 10_000_000  # cancel still came before the answer, which is what the page must honour
    page.fill("#sim-runs", "2000")
    page.select_option("#sim-workers", "1")
    page.click("#simulate")
    expect(page.locator("#simulation .method")).to_contain_text("2000 runs", timeout=120_000)
    expect(page.locator("#simulation tr").first).to_be_visible()
    assert job.done == stopped_at  # the cancelled job counted no more runs
    expect(page.locator("#message")).not_to_have_text("cancelled")  # the new answer, not the old word


def test_cancel_while_the_exact_odds_are_worked_out_stops_the_simulation_too(page: Page) -> None:  # noqa: F811
    """The assault phase's game is enumerated before any run is drawn: a cancel then ends the process as well."""
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#status-line")).to_contain_text("assault phase")
    page.fill("#sim-runs", "10000000")
    page.select_option("#sim-workers", "1")
    page.click("#simulate")
    expect(page.locator("#progress")).to_be_visible()
    job = STORE.job(page.evaluate("ui.job"))
    page.click("#cancel")
    expect(page.locator("#message")).to_have_text("cancelled")
    expect(page.locator("#simulation")).to_be_empty()
    job.process.join(timeout=10)
    assert not job.process.is_alive() and job.status == "cancelled"
