"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright.

Through the page only, as a player would: open the demo, drag the Librarian into the
Tactical squad and read the ruling, list targets, get exact odds equal to the CLI's,
apply with typed-in dice and undo, edit a unit with an error shown at its field, and
upload and download a scenario.  Every wait is on something the page shows, never a sleep.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tests._cli import run

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
T9A = "demo_t9a_wizard_charges_out.yaml"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

if not os.path.exists(CHROMIUM):  # CI installs it (.ci/run); there a missing browser is a failure
    if os.environ.get("CI"):
        raise RuntimeError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page, expect, sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """Run the app under uvicorn on a free loopback port, in a thread, for this module's tests."""
    from herohammer.web.api import create_app
    from herohammer.web.server import listen, start_in_thread

    sock = listen("127.0.0.1", 0)
    running = start_in_thread(create_app(), sock)
    yield running.url
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=FLAGS, headless=True,
                                                   viewport={"width": 1400, "height": 900}, accept_downloads=True)
        ctx.set_default_timeout(20_000)
        yield ctx
        ctx.close()


@pytest.fixture()
def page(server: str, browser: BrowserContext) -> Iterator[Page]:
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    yield pg
    pg.close()
    assert not errors, errors


@contextmanager
def page_on_own_server(browser: BrowserContext, app: Any) -> Iterator[Page]:
    """A page on a server of its own serving ``app`` (a test that empties its store, or holds its requests), ready;
    on leaving, the page and the server closed and no error raised in the page."""
    from herohammer.web.server import listen, start_in_thread

    running = start_in_thread(app, listen("127.0.0.1", 0))
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(running.url + "/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    try:
        yield pg
    finally:
        pg.close()
        running.stop()
    assert not errors, errors


def settled(page: Page) -> None:
    """Wait until the page waits on no answer (``<body aria-busy="false">``): what the last step brought is drawn,
    the lists refetched after it included, so that a plain read (a count, a text, a count of 0) reads the page as it
    stands."""
    expect(page.locator("body")).to_have_attribute("aria-busy", "false")


def open_file(page: Page, path: Path) -> None:
    """Open a scenario (or a game's record) by the page's Open file, and wait until the page has it (the status line
    names a file the table may already have: the wait is on the page being settled too)."""
    page.set_input_files("#upload", str(path))
    expect(page.locator("#status-line")).to_contain_text(f"{path.name}: ")
    settled(page)


def to_screen(page: Page, x: float, y: float) -> tuple[float, float]:
    """Return the page coordinates of a table point (inches), through the SVG's own transform."""
    point: list[float] = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('table');
             const p = svg.createSVGPoint(); p.x = x; p.y = ui.view.table.depth - y;
             const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""", [x, y])
    return point[0], point[1]


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*to_screen(page, *start))
    page.mouse.down()
    page.mouse.move(*to_screen(page, *end), steps=6)
    page.mouse.up()


def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = run(argv, capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["command"] == " ".join(argv[:2] if argv[0] == "odds" else argv[:1])  # the envelope; its result is the answer
    return answer["result"]


@pytest.mark.rule("40k3.ic.join")
def test_drag_the_librarian_into_the_tactical_squad(page: Page) -> None:
    drag(page, (19, 30.5), (25, 20.6))  # within 2" of the squad but beyond his move: illegal
    ruling = page.locator("#ruling")
    expect(ruling).to_have_attribute("data-state", "illegal")
    expect(ruling.locator(".proposed")).to_contain_text('"do":"join"')
    expect(page.locator("#proposal-apply")).to_be_disabled()
    drag(page, (19, 30.5), (20, 24.8))  # 1.8" from the Sergeant: legal, needs a 6 through the woods
    expect(ruling).to_have_attribute("data-state", "legal")
    expect(ruling.locator(".proposed")).to_contain_text('"to":[20,24.8]')
    chip = ruling.locator('.rule[data-rule="40k3.ic.join"]')
    expect(chip).to_be_visible()
    assert "within 2" in (chip.get_attribute("title") or "")
    expect(ruling).to_contain_text("difficult terrain")
    # Apply it with the judge's physical rolls, then undo.
    page.fill("#faces", "6 6 3")  # one die more than the move through cover takes: named, not only counted
    page.click("#proposal-apply")
    expect(page.locator('#table [data-label="tactical"]')).to_have_text("tactical + librarian")
    expect(page.locator("#message")).to_contain_text("1 typed-in die not used: 3")
    expect(page.locator("#log li")).to_have_count(2)
    expect(page.locator('#log .rule[data-rule="40k3.ic.move-through-cover"]')).to_have_count(1)
    page.click("#undo")
    expect(page.locator('#table [data-label="tactical"]')).to_have_text("tactical")
    expect(page.locator("#log li")).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()


def test_a_shooter_lists_every_enemy_as_a_legal_or_illegal_target(page: Page) -> None:
    page.click('#table circle[data-model="Marine 2"]')
    expect(page.locator("#selected-name")).to_have_text("tactical")
    target = page.locator('#targets li[data-target="warriors"]')
    expect(target).to_have_attribute("data-legal", "true")
    expect(target).to_contain_text("visible")
    expect(page.locator('#table g.unit[data-unit="warriors"]')).to_have_class("unit target-legal")
    expect(page.locator('#actions li[data-do="move"]')).to_contain_text("drag it")
    drag(page, (19, 30.5), (20, 24.8))  # a drag elsewhere keeps the selection
    expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
    expect(page.locator("#selected-name")).to_have_text("tactical")
    page.mouse.click(*to_screen(page, 30, 40))  # the bare table: nothing selected, targets cleared
    expect(page.locator("#selected-name")).to_have_text("nothing")
    expect(page.locator("#targets li")).to_have_count(0)
    expect(page.locator('#actions li[data-do="end_phase"]')).to_have_count(1)


def test_exact_odds_on_the_page_equal_the_cli(page: Page, server: str, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    page.click('#table circle[data-model="Librarian"]')
    smite = page.locator('#actions li[data-do="manifest"]').filter(has_text="Smite")
    # every text the progress label shows, recorded as it changes: a fast answer replaces the header at once
    page.evaluate("""() => { window.labelsShown = []; const label = document.getElementById('progress-label');
        new MutationObserver(() => window.labelsShown.push(label.textContent)).observe(
            label, {childList: true, characterData: true, subtree: true}); }""")
    smite.locator(".act-odds").click()
    expect(page.locator("#odds .method")).to_contain_text("Exact", timeout=120_000)
    shown_labels = page.evaluate("window.labelsShown")
    assert any("enumerating the chance tree" in text for text in shown_labels), shown_labels  # progress while it works
    shown = {r.get_attribute("data-row"): r.locator("td.p").first.get_attribute("data-p")
             for r in page.locator("#odds tr").all()}
    action = json.loads(smite.locator("code").inner_text())
    table_id = page.evaluate("ui.tableId")
    import httpx2 as httpx

    saved = tmp_path / "now.yaml"
    saved.write_text(httpx.get(f"{server}/api/tables/{table_id}/scenario?format=yaml").text)
    cli = cli_json(["odds", "action", str(saved), "--action", json.dumps(action), "--json"], capsys)
    assert shown == cli["rows"] and any(k.startswith("warriors") for k in shown)
    expect(page.locator("#odds .bar")).to_have_count(len(cli["rows"]))


def test_edit_a_unit_with_the_error_at_its_field(page: Page) -> None:
    page.click("#edit")
    profile = page.locator('#edit-fields [data-path="sides.red[1].models[0].profile"]')
    profile.fill("WS4 BS4")
    page.click("#edit-save")
    expect(profile).to_have_class("bad")
    expect(profile.locator("xpath=..").locator(".field-error")).to_contain_text("profile")
    profile.fill("WS5 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+")
    page.click("#edit-save")
    expect(page.locator("#editor")).not_to_be_visible()
    page.click('#table circle[data-model="Sergeant"]')
    expect(page.locator("#unit-info")).to_contain_text("Sergeant: WS5 BS4")


def test_upload_and_download_a_scenario(page: Page, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = Path(str(resources.files("herohammer") / "examples" / T9A))
    page.set_input_files("#upload", str(source))
    expect(page.locator("#status-line")).to_contain_text(f"{T9A}: t9a")
    expect(page.locator('#table [data-formation="spearmen"] rect.slot.front')).to_have_count(5)
    charge = {"do": "charge", "unit": "wizard", "target": "orc_archers"}
    page.fill("#action-json", json.dumps(charge))
    page.click("#json-check")
    expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
    # the ruling's own chips (a note's citation has chips of its own, under the note: the charge out's Stand and Shoot
    # note cites t9a.charge-out.stand-and-shoot, which the ruling cites too)
    shown_rules = sorted(c.get_attribute("data-rule") or "" for c in page.locator("#ruling > .rules > .rule").all())
    noted = [c.get_attribute("data-rule") for c in page.locator("#ruling > .note .rule").all()]
    with page.expect_download() as info:
        page.click("#download")
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    cli = cli_json(["check", str(saved), "--action", json.dumps(charge), "--json"], capsys)
    assert cli["legal"] is True and sorted(cli["rules"]) == shown_rules
    cited = [re.search(r"\[([\w.\-]+(?:,\s*[\w.\-]+)*)\]\s*$", n) for n in cli["notes"]]
    assert noted == [r.strip() for c in cited if c for r in c[1].split(",")] and noted, (noted, cli["notes"])
    assert saved.name == "demo_t9a_wizard_charges_out.yaml"


def test_long_odds_switch_to_monte_carlo_show_progress_and_cancel(page: Page) -> None:
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#status-line")).to_contain_text("shooting phase")
    page.fill("#odds-max", "2")
    page.fill("#odds-runs", "300")
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "warriors"}
    page.fill("#action-json", json.dumps(smite))
    page.click("#json-odds")
    expect(page.locator("#odds .method")).to_contain_text("Monte Carlo estimate: Monte Carlo (300 runs", timeout=120_000)
    expect(page.locator("#odds").get_by_text("95% CI").first).to_be_visible()
    assert page.locator("#odds").get_attribute("data-exact") == "false"
    page.fill("#odds-max", "1")
    page.fill("#odds-runs", "1000000")
    page.click("#json-odds")
    expect(page.locator("#progress")).to_be_visible()  # hidden before: the label is this job's, not the last one's
    expect(page.locator("#progress-label")).to_contain_text("Monte Carlo instead")
    page.click("#cancel")
    expect(page.locator("#message")).to_have_text("cancelled")
    expect(page.locator("#progress")).to_be_hidden()


def test_statuses_are_drawn(page: Page) -> None:
    page.set_input_files("#upload", str(EXAMPLES / "40k3_chaplain_falling_back.yaml"))
    expect(page.locator("#status-line")).to_contain_text("40k3_chaplain_falling_back.yaml")
    expect(page.locator("#table [data-status]")).to_contain_text("FALLING BACK")
    page.set_input_files("#upload", str(EXAMPLES / "t9a_unit_reduced_to_character.yaml"))
    expect(page.locator("#table [data-status]").first).to_contain_text("SHAKEN")


@pytest.mark.rule("published.weapon-profiles")
def test_a_40k_squad_lists_its_pistol_shot_and_fires_it(page: Page, tmp_path: Path) -> None:
    """A squad with boltguns and bolt pistols, 6" from the Boyz: the page lists the unnamed shot and the one naming
    the bolt pistol (legal_actions offers each weapon that changes the shot); applying the latter fires the pistols."""
    marine = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
    data = {"ruleset": "40k3", "phase": "shooting", "active": "red", "table": {"width": 72, "depth": 48},
            "sides": {"red": [{"id": "tac", "models": [
                          {"name": f"M{i}", "profile": marine, "base": 25, "at": [20 + 2 * i, 20],
                           "weapons": ["bolter", "bolt pistol"]} for i in range(3)]}],
                      "blue": [{"id": "boyz", "models": [
                          {"name": f"B{i}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", "base": 25,
                           "at": [20 + 2 * i, 26]} for i in range(3)]}]}}
    upload = tmp_path / "pistols.yaml"
    upload.write_text(json.dumps(data))
    page.set_input_files("#upload", str(upload))
    expect(page.locator("#status-line")).to_contain_text("pistols.yaml")
    page.click('#table circle[data-model="M1"]')
    shots = page.locator('#actions li[data-do="shoot"]')
    expect(shots).to_have_count(2)
    pistols = shots.filter(has_text='"weapon":"bolt pistol"')
    expect(pistols).to_have_count(1)
    pistols.locator(".act-check").click()
    expect(page.locator("#ruling")).to_have_attribute("data-state", "legal")
    page.fill("#faces", "1 1 1")
    pistols.locator(".act-apply").click()
    expect(page.locator("#log")).to_contain_text("3 models fire 3 shots with bolt pistol")


def test_a_battle_that_is_over_says_why_nothing_is_left_and_what_a_simulation_plays(page: Page, tmp_path: Path) -> None:
    """Was "none now" under Legal actions, and a "Simulate the plan" answer that never said the table had none; a
    battle that is over is not simulated at all, as ``herohammer simulate`` refuses it (session 28)."""
    import yaml

    data = yaml.safe_load((resources.files("herohammer") / "examples" / "demo_40k3_librarian.yaml").read_text())
    data.pop("plan", None)
    path = tmp_path / "no_plan.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    page.set_input_files("#upload", str(path))
    expect(page.locator("#status-line")).to_contain_text("no_plan.yaml: 40k3")
    page.fill("#sim-runs", "10")
    page.click("#simulate")
    # a child process compiles the default policy (about 1 s of CPU): more than expect's 5 s on a loaded machine
    expect(page.locator("#simulation .method")).to_contain_text(
        "10 runs of the default policy (simple: the table has no plan)", timeout=60_000)
    data.update(turn=7, phase="assault", active="blue")
    path = tmp_path / "over.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))  # blue the last side to play
    page.set_input_files("#upload", str(path))
    expect(page.locator("#status-line")).to_contain_text("over.yaml: 40k3, turn 7")
    expect(page.locator("#actions li.none-now")).to_contain_text("none: the battle is over")
    expect(page.locator("#actions li.none-now")).to_contain_text("[published.game-length]")
    page.fill("#sim-runs", "10")
    page.click("#simulate")
    expect(page.locator("#message")).to_contain_text("nothing to simulate: the battle is over")
    expect(page.locator("#message")).to_contain_text("[published.game-length]")
    expect(page.locator("#simulation .method")).to_have_count(0)


def test_a_simulation_on_two_processes_says_so_and_counts_as_the_cli(page: Page, capsys: pytest.CaptureFixture[str]
                                                                      ) -> None:
    """The page offers 1 to the server's cores as processes (``/api/server``); asked for 2, the simulation runs on 2
    and says so, with the counts of ``herohammer simulate`` on one process (the same for any number).  Until session 32
    only the API took ``workers``."""
    import httpx2 as httpx

    cores = httpx.get(page.url.split("?")[0].rstrip("/") + "/api/server").json()["cores"]
    options = page.locator("#sim-workers option")
    expect(options).to_have_count(cores)
    assert [o.get_attribute("value") for o in options.all()] == [str(n) for n in range(1, cores + 1)]
    if cores < 2:
        pytest.skip("one core: the page offers one process")
    page.select_option("#sim-workers", "2")
    page.fill("#sim-runs", "2000")
    page.fill("#sim-seed", "5")
    page.click("#simulate")
    expect(page.locator("#simulation .method")).to_contain_text("2000 runs", timeout=120_000)
    expect(page.locator("#simulation .method")).to_contain_text("seed 5")
    expect(page.locator("#simulation .method")).to_contain_text("on 2 processes")
    shown = [r.locator("td").first.inner_text() + " " + r.locator("td.p").first.inner_text()
             for r in page.locator("#simulation tr").all()]
    cli = cli_json(["simulate", str(resources.files("herohammer") / "examples" / "demo_40k3_librarian.yaml"),
                    "--runs", "2000", "--seed", "5", "--json"], capsys)
    # labelled as simulate's table labels them: a flag (librarian: moved) by its name alone, not "= null"
    assert shown == [f"{o['outcome']}{'' if o['value'] is None else ' = ' + str(o['value'])} "
                     f"{o['probability'] * 100:.2f}%" for o in cli["outcomes"]]
    assert "librarian: moved 100.00%" in shown


def test_a_typo_in_the_typed_in_faces_is_named_and_nothing_is_played(page: Page) -> None:
    """Was sent as null and shown as REFUSED under the action: "body.dice[2]: expected a whole number"."""
    before = page.locator("#status-line").inner_text()
    page.fill("#faces", "3 5 x")
    page.click('#actions li[data-do="end_phase"] .act-apply')
    expect(page.locator("#message")).to_have_text("typed-in faces: die #3 is 'x': expected a face from 1 to 6")
    settled(page)  # an action sent would be answered by now
    expect(page.locator("#ruling")).not_to_have_attribute("data-state", "illegal")
    assert page.locator("#status-line").inner_text() == before
