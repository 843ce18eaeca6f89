"""The page says when it is settled (reliability round 45).  CI failed on a browser test that counted the actions list
right after an action was applied, while the page was refetching it (round 44's, fixed by ``aria-busy`` on
``#actions``).  The audit of every browser test found the same race where the page has no such signal: a count of 0
read while a list is emptied for its refetch passes whatever the list will hold (round 40's "no manifest once the
test failed" and "no refusal to end the phase after the fight"), an upload of a file named as the table's own was
"waited for" by a status line that already said it (round 40's ``_open``), a "nothing changed" read straight after a
refusal or a typo (rounds 43 and 44's ``_unchanged``, the typed-in faces), and a progress label read before the new
job's progress was shown (the long odds' "Monte Carlo instead").  Now ``<body aria-busy>`` is true while the page
waits on any answer (the server's, a file's read), the lists refetched after an action included, and false once
all is drawn; a running job's polls are not such a wait (its progress bar says it works).  The tests read after
``settled(page)``.  Here the signal itself, with a server that holds a chosen request until the test lets it go.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_web_browser import EXAMPLES, browser, open_file, settled  # noqa: F401  (fixtures)
from tests.test_web_browser import page_on_own_server

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402  (after the module's skip without chromium)

SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


class Gate:
    """ASGI middleware around the app: a request of ``method`` whose path ends with ``suffix`` waits while closed."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.opened = threading.Event()
        self.opened.set()
        self.method, self.suffix = "", ""
        self.held = threading.Event()  # set once a request waits at the gate

    def close(self, method: str, suffix: str) -> None:
        self.method, self.suffix = method, suffix
        self.held.clear()
        self.opened.clear()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (scope["type"] == "http" and not self.opened.is_set() and scope["method"] == self.method
                and scope["path"].endswith(self.suffix)):
            self.held.set()
            await asyncio.get_running_loop().run_in_executor(None, self.opened.wait)
        await self.app(scope, receive, send)


@pytest.fixture()
def gated(browser: BrowserContext) -> Iterator[tuple[Page, Gate]]:  # noqa: F811
    """A page on a server of its own whose requests the test can hold."""
    from herohammer.web.api import create_app

    gate = Gate(create_app())
    with page_on_own_server(browser, gate) as pg:
        try:
            yield pg, gate
        finally:
            gate.opened.set()  # a request still held lets the server stop


def _busy(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("aria-busy", "true")


def test_the_page_is_busy_until_the_actions_of_the_table_after_an_action_are_listed(gated: tuple[Page, Gate]) -> None:
    """The action's answer is drawn (the status line, the log, the message), its list of actions not yet in: busy."""
    page, gate = gated
    settled(page)
    gate.close("GET", "/actions")
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    expect(page.locator("#message")).to_contain_text("applied")
    assert gate.held.wait(20)
    _busy(page)
    expect(page.locator("#actions")).to_have_attribute("aria-busy", "true")
    assert page.locator("#actions li").count() == 0  # emptied for the refetch: what a count read now would see
    gate.opened.set()
    settled(page)
    expect(page.locator("#actions")).to_have_attribute("aria-busy", "false")
    assert page.locator('#actions li[data-do="end_phase"]').count() == 1  # in once settled, read without a wait


def test_the_page_is_busy_while_a_file_opened_is_loaded(gated: tuple[Page, Gate]) -> None:
    """An upload of a file named as the table is: the status line already says its name; the page says it waits."""
    page, gate = gated
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    page.fill("#action-json", '{"do": "end_phase"}')
    page.click("#json-apply")
    expect(page.locator("#status-line")).to_contain_text("assault phase")
    gate.close("POST", "/api/tables")
    page.set_input_files("#upload", str(EXAMPLES / "40k3_librarian_psychic.yaml"))
    assert gate.held.wait(20)
    _busy(page)
    expect(page.locator("#status-line")).to_contain_text("assault phase")  # the table played, still shown
    gate.opened.set()
    settled(page)
    assert "shooting phase" in page.locator("#status-line").inner_text()  # the file's table, read without a wait
    assert page.locator("#log li").count() == 0


def test_a_refused_check_settles_and_a_running_job_does_not_keep_the_page_busy(gated: tuple[Page, Gate]) -> None:
    """A check held is a wait; a job's polls are not (a screen reader hears its progress), and its cancel settles."""
    page, gate = gated
    open_file(page, EXAMPLES / "40k3_librarian_psychic.yaml")
    gate.close("POST", "/check")
    page.fill("#action-json", '{"do": "run", "unit": "librarian", "to": [[1, 1]]}')  # no Fleet of Foot
    page.click("#json-check")
    assert gate.held.wait(20)
    _busy(page)
    expect(page.locator("#ruling")).to_have_attribute("data-state", "none")
    gate.opened.set()
    settled(page)
    assert page.locator("#ruling").get_attribute("data-state") == "illegal"
    page.fill("#odds-max", "1")
    page.fill("#odds-runs", "1000000")
    page.fill("#action-json", json.dumps(SMITE))
    page.click("#json-odds")
    expect(page.locator("#progress")).to_be_visible()
    settled(page)  # the job runs on: the page waits on no answer meanwhile
    assert page.locator("#progress").is_visible()
    page.click("#cancel")
    expect(page.locator("#message")).to_have_text("cancelled")
    settled(page)
