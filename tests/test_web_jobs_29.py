"""The server's jobs when the engine fails in an unforeseen way (session 29): an odds job whose work raised anything but
a HerohammerError left its thread dead and the job "running" for ever, so the page's progress bar never ended and no
error was said."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from herohammer.actions import parse_action
from herohammer.game import Game
from herohammer.scenario import load_scenario
from herohammer.web import session

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_an_odds_job_that_breaks_unforeseen_fails_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(session, "action_odds", broken)
    state = Game(load_scenario(EXAMPLES / "40k3_whole_turn.yaml")).state
    job = session.Store().start_odds(state, parse_action({"do": "end_phase"}, "action"), 10, 0, 10, lambda a: {})
    for worker in [t for t in threading.enumerate() if t.name == f"odds-{job.id}"]:
        worker.join(timeout=30)  # the job's own thread: it has ended, whatever became of the job
    assert job.status == "failed"
    assert job.error is not None and "ZeroDivisionError: division by zero" in job.error
    assert "Traceback" not in job.error and "\n" not in job.error


def test_a_request_that_breaks_unforeseen_is_a_500_with_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was Starlette's bare "Internal Server Error" text, which the page showed as "500 Internal Server Error"."""
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    def broken(self: Game, action: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    client = TestClient(create_app(), raise_server_exceptions=False)
    table = client.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"}).json()
    monkeypatch.setattr(Game, "check", broken)
    answer = client.post(f"/api/tables/{table['table_id']}/check", json={"action": {"do": "end_phase"}})
    assert answer.status_code == 500
    assert answer.json()["error"].startswith("herohammer failed unexpectedly (ZeroDivisionError: division by zero)")
