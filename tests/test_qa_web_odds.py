"""The web table's odds are the command line's: the same enumeration, so the same method and numbers.

Found by using the tool: the server counted its progress through ``action_odds``'s ``summary`` hook,
and any summary but the plain one makes the enumeration read positions and every event (it cannot
know what a custom summary reads).  The web's chance tree was larger than the CLI's: 380 rules-code
runs for the Librarian example's volley where ``odds action`` needs 100, 1,393 for the 40k4
Chaplain's fight where it needs 144 (5x the CPU on the benchmark fight).  With a budget between the two the
page answered with a Monte Carlo estimate where the command line was exact; and when the size
estimate went to Monte Carlo at once, the page's label still said "exact: enumerating".  Now the
job counts through ``walked``/``advance`` and the summary is the plain one.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from herohammer.web import session
from herohammer.web.api import create_app

from _cli import run

ROOT = Path(__file__).resolve().parents[1]
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"
VOLLEY = {"do": "shoot", "unit": "tactical", "target": "boyz"}


def _job(client: TestClient, job: dict[str, Any], seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}").json()
        if seen is not None:
            seen.append(job)
    return job


def _table(client: TestClient) -> str:
    r = client.post("/api/tables", json={"text": PSYCHIC.read_text(encoding="utf-8"), "filename": PSYCHIC.name})
    assert r.status_code == 201, r.text
    return str(r.json()["table_id"])


@pytest.mark.parametrize("budget", [150, 200_000])
def test_the_page_is_exact_where_the_command_line_is_and_gives_the_same_numbers(
        capsys: pytest.CaptureFixture[str], budget: int) -> None:
    code, out, err = run(["odds", "action", str(PSYCHIC), "--action", json.dumps(VOLLEY), "--max-branches",
                          str(budget), "--json"], capsys)
    assert code == 0, err
    cli = json.loads(out)
    assert cli["method"] == "exact"
    client = TestClient(create_app())
    tid = _table(client)
    job = _job(client, client.post(f"/api/tables/{tid}/odds", json={"action": VOLLEY, "max_branches": budget}).json())
    assert job["status"] == "done", job
    assert job["result"]["method"] == "exact", job["label"]
    assert job["result"]["result"] == cli["result"]


def test_monte_carlo_chosen_at_once_is_labelled_so_and_counts_its_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sampling holds after its first progress report until the page has seen it: 5,000 runs can end
    # between two polls on a fast machine, and then no running job with runs done was ever seen (CI, stop 42).
    seen_sampling = threading.Event()
    real_odds = session.action_odds

    def odds_that_wait_for_a_poll(*args: Any, advance: Callable[[int], None], **kwargs: Any) -> Any:
        def advance_then_wait(more: int) -> None:
            advance(more)
            seen_sampling.wait(timeout=30)
        return real_odds(*args, advance=advance_then_wait, **kwargs)

    monkeypatch.setattr(session, "action_odds", odds_that_wait_for_a_poll)
    client = TestClient(create_app())
    tid = _table(client)
    seen: list[dict[str, Any]] = []
    job = client.post(f"/api/tables/{tid}/odds", json={"action": VOLLEY, "max_branches": 1, "runs": 5000}).json()
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}").json()
        seen.append(job)
        if job["status"] == "running" and job["done"] and "Monte Carlo instead" in job["label"]:
            seen_sampling.set()
    assert job["status"] == "done" and job["result"]["method"] == "monte-carlo"
    running = [j for j in seen if j["status"] == "running" and j["done"]]
    enumerating = [j for j in running if j["label"].startswith("exact: enumerating")]
    sampling = [j for j in running if "Monte Carlo instead" in j["label"]]
    assert sampling and len(enumerating) + len(sampling) == len(running), running
    assert all(j["total"] == 5000 and j["done"] <= 5000 for j in sampling), sampling
    assert all(j["done"] <= 1 for j in enumerating), enumerating  # the size estimate sent it to Monte Carlo


def test_cancel_stops_the_enumeration_and_the_sampling() -> None:
    client = TestClient(create_app())
    tid = _table(client)
    long = client.post(f"/api/tables/{tid}/odds", json={"action": VOLLEY, "max_branches": 1,
                                                         "runs": 1_000_000}).json()
    deadline = time.monotonic() + 60
    while (job := client.get(f"/api/jobs/{long['id']}").json())["done"] == 0:
        assert time.monotonic() < deadline, job
        time.sleep(0.02)
    assert client.delete(f"/api/jobs/{long['id']}").status_code == 200
    assert _job(client, job)["status"] == "cancelled"
