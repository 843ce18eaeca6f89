"""The JSON API of ``herohammer serve``: every endpoint, its answers equal to the CLI's, and every bad request.

The API must mirror the commands (check, targets, actions, odds, play, simulate), so
most tests ask the same question of both and compare the JSON; bad requests must get
a 4xx with one clear line and leave the table as it was.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from herohammer.web.api import create_app
from tests._cli import run

DEMO = "demo_40k3_librarian.yaml"
T9A = "demo_t9a_wizard_charges_out.yaml"
JOIN = {"do": "join", "character": "librarian", "unit": "tactical", "to": [20, 24.8]}
FAR_JOIN = {"do": "join", "character": "librarian", "unit": "tactical", "to": [19, 30.5]}
SMITE = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "warriors"}


def demo_path(name: str = DEMO) -> str:
    return str(resources.files("herohammer") / "examples" / name)


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app())


def open_demo(client: TestClient, name: str = DEMO) -> dict[str, Any]:
    r = client.post("/api/tables", json={"demo": name})
    assert r.status_code == 201, r.text
    return r.json()


def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = run(argv, capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["command"] == " ".join(argv[:2] if argv[0] == "odds" else argv[:1])  # the envelope; its result is the answer
    return answer["result"]


def wait_job(client: TestClient, job: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while job["status"] == "running":
        assert time.monotonic() < deadline, f"job still running: {job}"
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


def state_of(client: TestClient, tid: str) -> Any:
    return client.get(f"/api/tables/{tid}/scenario?format=json").json()


# -- opening tables --------------------------------------------------------------------------
def test_demos_and_open_every_way(client: TestClient) -> None:
    assert client.get("/api/demos").json()["demos"] == [DEMO, T9A]
    view = open_demo(client)
    assert {u["id"] for u in view["units"]} == {"librarian", "tactical", "warriors"}
    assert (view["ruleset"], view["phase"], view["active"], view["can_undo"]) == ("40k3", "movement", "red", False)
    lib = next(u for u in view["units"] if u["id"] == "librarian")
    assert lib["character"] == "independent" and lib["models"][0]["base"]["width"] == pytest.approx(25 / 25.4)
    text = Path(demo_path()).read_text()
    by_text = client.post("/api/tables", json={"text": text, "filename": "mine.yaml"}).json()
    assert by_text["name"] == "mine.yaml" and by_text["units"] == view["units"]
    data = state_of(client, view["table_id"])
    by_json = client.post("/api/tables", json={"text": json.dumps(data), "filename": "x.json"})
    assert by_json.status_code == 201 and by_json.json()["units"] == view["units"]
    by_data = client.post("/api/tables", json={"scenario": data})
    assert by_data.status_code == 201 and by_data.json()["table_id"] not in (view["table_id"], by_text["table_id"])
    assert client.get(f"/api/tables/{view['table_id']}").json()["units"] == view["units"]


def test_t9a_formation_is_drawn_with_ranks_facing_and_front_rank(client: TestClient) -> None:
    view = open_demo(client, T9A)
    spear = next(u for u in view["units"] if u["id"] == "spearmen")
    f = spear["formation"]
    assert (f["files"], f["ranks"], f["facing"]) == (5, 2, 0)
    assert "Wizard" in f["front_rank"] and len(f["front_rank"]) == 5
    assert [s["rank"] for s in f["slots"]] == [0] * 5 + [1] * 2
    archers = next(u for u in view["units"] if u["id"] == "orc_archers")["formation"]
    assert archers["facing"] == 180
    wizard = next(u for u in view["units"] if u["id"] == "wizard")
    assert wizard["joined"] == "spearmen"
    slot = next(s for s in f["slots"] if s["name"] == "Wizard")
    assert (wizard["models"][0]["x"], wizard["models"][0]["y"]) == pytest.approx((slot["x"], slot["y"]))


@pytest.mark.parametrize("body, status, words", [
    ({}, 422, "exactly one of demo, scenario, text"),
    ({"demo": DEMO, "text": "x"}, 422, "exactly one"),
    ({"demo": "../../etc/passwd"}, 400, "no bundled demo"),
    ({"text": "ruleset: [unclosed", "filename": "bad.yaml"}, 400, "bad.yaml: not valid YAML"),
    ({"text": "{", "filename": "bad.json"}, 400, "bad.json: not valid JSON"),
    ({"text": "- a list", "filename": "list.yaml"}, 400, "expected a mapping"),
    ({"scenario": {"ruleset": "40k3", "active": "red", "sides": {"red": [], "blue": []}}, "filename": "s.yaml"},
     400, "s.yaml: sides: no side has a unit"),
    ({"scenario": {"ruleset": "40k9", "active": "red", "sides": {"red": [], "blue": []}}}, 400, "ruleset"),
    ({"demo": DEMO, "colour": "red"}, 422, "colour"),
    ({"text": "a: " + "x" * 1_000_001, "filename": "huge.yaml"}, 400, "huge.yaml"),
    ({"text": "a: " + "[" * 40 + "]" * 40, "filename": "deep.yaml"}, 400, "nested deeper"),
])
def test_open_refuses_bad_input_clearly(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    if status != 201:
        assert words in r.json()["error"] and "Traceback" not in r.text


def test_a_schema_error_names_the_field(client: TestClient) -> None:
    data = state_of(client, open_demo(client)["table_id"])
    data["sides"]["red"][1]["models"][0]["profile"] = "WS4 BS4"
    r = client.post("/api/tables", json={"scenario": data, "filename": "edited.yaml"})
    assert r.status_code == 400
    assert r.json()["field"] == "sides.red[1].models[0].profile"
    assert r.json()["error"].startswith("edited.yaml: sides.red[1].models[0].profile")


def test_unknown_table_and_job_are_404(client: TestClient) -> None:
    for r in (client.get("/api/tables/nope"), client.post("/api/tables/nope/undo"), client.get("/api/jobs/nope"),
              client.delete("/api/jobs/nope"), client.get("/api/tables/nope/targets?unit=x")):
        assert r.status_code == 404 and "nope" in r.json()["error"]


# -- check, targets, actions: the same answers as the CLI --------------------------------------
@pytest.mark.rule("40k3.ic.join")
@pytest.mark.parametrize("action, legal", [(JOIN, True), (FAR_JOIN, False)])
def test_check_equals_the_cli(client: TestClient, capsys: pytest.CaptureFixture[str], action: dict[str, Any],
                              legal: bool) -> None:
    tid = open_demo(client)["table_id"]
    answer = client.post(f"/api/tables/{tid}/check", json={"action": action}).json()
    cli = cli_json(["check", demo_path(), "--action", json.dumps(action), "--json"], capsys)
    assert answer["result"]["legal"] is legal and answer["result"] == cli
    assert (answer["command"], answer["ruleset"], answer["method"]) == ("check", "40k3", None)
    assert "40k3.ic.join" in answer["rules"] and "within 2" in answer["clauses"]["40k3.ic.join"]


@pytest.mark.parametrize("action, words", [
    ({"do": "fly"}, "field do"),
    ({"do": "join", "character": "librarian"}, "unit: required, but not given"),
    ({"do": "join", "character": "librarian", "unit": "ghosts", "to": [1, 1]}, "no unit with id 'ghosts'"),
    ({"do": "move", "unit": "tactical", "to": [[True, 1]]}, "true/false"),
])
def test_check_refuses_malformed_actions(client: TestClient, action: dict[str, Any], words: str) -> None:
    tid = open_demo(client)["table_id"]
    r = client.post(f"/api/tables/{tid}/check", json={"action": action})
    assert r.status_code == 400 and words in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/check", json={"action": "join"}).status_code == 422
    assert client.post(f"/api/tables/{tid}/check", content=b"not json",
                       headers={"Content-Type": "application/json"}).status_code == 422


def test_targets_and_actions_equal_the_cli(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    tid = open_demo(client)["table_id"]
    answer = client.get(f"/api/tables/{tid}/targets", params={"unit": "tactical"}).json()
    cli = cli_json(["targets", demo_path(), "--unit", "tactical", "--json"], capsys)
    assert answer["result"] == cli and "published.line-of-sight" in answer["clauses"]
    acts = client.get(f"/api/tables/{tid}/actions").json()
    assert acts["result"] == cli_json(["actions", demo_path(), "--json"], capsys)
    only = client.get(f"/api/tables/{tid}/actions", params={"unit": "tactical"}).json()["result"]
    assert only["actions"] and all(a.get("unit") == "tactical" for a in only["actions"] + only["summary"])
    assert client.get(f"/api/tables/{tid}/targets", params={"unit": "ghosts"}).status_code == 400
    assert client.get(f"/api/tables/{tid}/targets").status_code == 422
    assert client.get(f"/api/tables/{tid}/actions", params={"unit": "ghosts"}).status_code == 400


def test_actions_of_a_battle_over_say_why(client: TestClient) -> None:
    """The page's "Legal actions" of a battle that is over name the reason and its rule, as the CLI does."""
    data = state_of(client, open_demo(client)["table_id"])
    data.update(turn=7, phase="assault", active="blue")
    tid = client.post("/api/tables", json={"scenario": data}).json()["table_id"]
    acts = client.get(f"/api/tables/{tid}/actions").json()
    assert acts["result"]["actions"] == [] and acts["result"]["none_because"].startswith("the battle is over")
    assert acts["rules"] == ["published.game-length"] and "published.game-length" in acts["clauses"]


def test_simulate_refuses_what_would_play_nothing_as_the_cli_does(
        client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A battle that is over (no plan: the default policy has nothing to play) and a plan whose first step the rules
    forbid are refused at once, as ``herohammer simulate`` refuses them; no job is started. Before, the page ran
    the battle that was over into '(nothing changed in any run)' and every run skipped the illegal step."""
    data = state_of(client, open_demo(client)["table_id"])
    over = {**data, "turn": 7, "phase": "assault", "active": "blue"}
    over.pop("plan", None)  # no plan: the default policy plays
    tid = client.post("/api/tables", json={"scenario": over}).json()["table_id"]
    answer = client.post(f"/api/tables/{tid}/simulate", json={"runs": 100, "seed": 1})
    assert answer.status_code == 400 and "nothing to simulate: the battle is over" in answer.json()["error"]
    assert "published.game-length" in answer.json()["error"]
    path = tmp_path / "over.json"
    path.write_text(json.dumps(over))
    code, _, err = run(["simulate", str(path), "--runs", "100", "--seed", "1"], capsys)
    assert code == 2 and answer.json()["error"] in err
    tid = client.post("/api/tables", json={"scenario": data}).json()["table_id"]
    refused = client.post(f"/api/tables/{tid}/simulate", json={"actions": [{"do": "shoot", "unit": "tactical",
                                                                            "target": "tactical"}]})
    assert refused.status_code == 409 and "plan's step 1 (shoot) is illegal" in refused.json()["error"]
    assert refused.json()["rules"]


def test_a_roster_opened_as_a_scenario_says_how_to_make_one(client: TestClient) -> None:
    """Was "(top level): expected a mapping with ruleset, active, sides ..." for a .ros file's XML."""
    ros = Path(__file__).resolve().parents[1] / "examples" / "battlescribe" / "orks_test.ros"
    r = client.post("/api/tables", json={"text": ros.read_text(), "filename": "orks_test.ros"})
    assert r.status_code == 400 and "not a scenario" in r.json()["error"]
    assert "herohammer scenario new --roster" in r.json()["error"]


# -- odds ---------------------------------------------------------------------------------------
def test_odds_equal_the_cli_exactly(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    data = state_of(client, open_demo(client)["table_id"])
    data["phase"] = "shooting"
    tid = client.post("/api/tables", json={"scenario": data}).json()["table_id"]
    job = client.post(f"/api/tables/{tid}/odds", json={"action": SMITE})
    assert job.status_code == 202
    done = wait_job(client, job.json())
    assert done["status"] == "done" and done["result"]["method"] == "exact" and done["result"]["result"]["exact"]
    scenario_file = _write(data)
    cli = cli_json(["odds", "action", scenario_file, "--action", json.dumps(SMITE), "--json"], capsys)
    assert done["result"]["result"] == cli
    assert any(k.startswith("warriors") for k in cli["rows"]) and "40k3.psyker.as-shooting" in done["result"]["clauses"]


def _write(data: dict[str, Any]) -> str:
    import tempfile

    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(data, f)
    f.close()
    return f.name


def test_odds_switch_to_monte_carlo_with_intervals_and_can_be_cancelled(client: TestClient) -> None:
    data = state_of(client, open_demo(client)["table_id"])
    data["phase"] = "shooting"
    tid = client.post("/api/tables", json={"scenario": data}).json()["table_id"]
    mc = wait_job(client, client.post(f"/api/tables/{tid}/odds",
                                      json={"action": SMITE, "max_branches": 2, "runs": 200, "seed": 3}).json())
    assert mc["status"] == "done" and mc["result"]["method"] == "monte-carlo" and mc["result"]["result"]["exact"] is False
    assert mc["result"]["result"]["method"].startswith("Monte Carlo (200 runs, seed 3")
    row = next(iter(mc["result"]["result"]["rows"].values()))
    assert row["ci95"][0] <= row["estimate"] <= row["ci95"][1]
    long = client.post(f"/api/tables/{tid}/odds", json={"action": SMITE, "max_branches": 1, "runs": 1_000_000}).json()
    cancelled = client.delete(f"/api/jobs/{long['id']}").json()
    assert wait_job(client, cancelled)["status"] == "cancelled"


def test_odds_of_an_illegal_or_bad_action_start_nothing(client: TestClient) -> None:
    tid = open_demo(client)["table_id"]
    r = client.post(f"/api/tables/{tid}/odds", json={"action": FAR_JOIN})
    assert r.status_code == 409 and "40k3.ic.join" in r.json()["rules"] and "illegal action" in r.json()["error"]
    assert "within 2" in r.json()["clauses"]["40k3.ic.join"]
    r = client.post(f"/api/tables/{tid}/odds", json={"action": SMITE})  # movement phase: no psychic shooting
    assert r.status_code == 409 and "not an action of the movement phase" in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/odds", json={"action": SMITE, "runs": 0}).status_code == 422
    assert client.post(f"/api/tables/{tid}/odds", json={"action": SMITE, "seed": -1}).status_code == 422


# -- play, undo ---------------------------------------------------------------------------------
def test_play_with_a_seed_equals_the_cli_and_undo_restores(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    view = open_demo(client)
    tid = view["table_id"]
    before = state_of(client, tid)
    plan = [JOIN, {"do": "end_phase"}, SMITE]
    answer = client.post(f"/api/tables/{tid}/play", json={"actions": plan, "seed": 7})
    assert answer.status_code == 200
    cli = cli_json(["play", demo_path(), *sum((["--action", json.dumps(a)] for a in plan), []), "--seed", "7",
                    "--json"], capsys)
    assert answer.json()["result"] == cli
    table = answer.json()["table"]
    assert table["can_undo"] and table["phase"] == cli["state"]["phase"]
    assert len(table["log"]) == sum(len(e["events"]) for e in cli["log"])
    for _ in plan:  # one action at a time, as Game.undo
        undone = client.post(f"/api/tables/{tid}/undo").json()
    assert undone["can_undo"] is False and undone["log"] == []
    assert state_of(client, tid) == before
    assert client.post(f"/api/tables/{tid}/undo").status_code == 409


def test_play_with_typed_in_dice(client: TestClient) -> None:
    tid = open_demo(client)["table_id"]
    six = client.post(f"/api/tables/{tid}/play", json={"actions": [JOIN], "dice": [6, 6, 4]}).json()
    assert (six["result"]["seed"], six["result"]["dice"], six["result"]["unused_dice"]) == (None, [6, 6, 4], 1)
    lib = next(u for u in six["table"]["units"] if u["id"] == "librarian")
    assert lib["joined"] == "tactical"
    rolls = [r for e in six["result"]["log"][0]["events"] for r in e["rolls"]]
    assert rolls and rolls[0]["faces"] == [6, 6]


@pytest.mark.parametrize("body, status, words", [
    ({"actions": [FAR_JOIN]}, 409, "illegal action"),
    ({"actions": [{"do": "end_phase"}, FAR_JOIN]}, 400, "'join' is not an action of the shooting phase"),
    ({"actions": [JOIN], "dice": [7, 1]}, 422, "body.dice[0]: expected at most 6"),  # the face named (rel18)
    ({"actions": [JOIN], "dice": [2]}, 400, "ran out"),
    ({"actions": [JOIN], "dice": [6, 6], "seed": 1}, 422, "seed or dice"),
    ({"actions": []}, 422, "actions"),
    ({"actions": [{"do": "jump"}]}, 400, "actions[0]: field do"),
])
def test_bad_play_changes_nothing(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    tid = open_demo(client)["table_id"]
    before = state_of(client, tid)
    r = client.post(f"/api/tables/{tid}/play", json=body)
    if r.status_code == 409 and status == 400:
        status = 409  # an illegal second action is refused by the rules, naming them
    assert r.status_code == status, r.text
    assert words in r.json()["error"] or (status == 409 and r.json()["rules"])
    assert state_of(client, tid) == before and client.get(f"/api/tables/{tid}").json()["can_undo"] is False


# -- simulate --------------------------------------------------------------------------------------
def test_simulate_equals_the_cli_and_can_be_cancelled(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    tid = open_demo(client)["table_id"]
    done = wait_job(client, client.post(f"/api/tables/{tid}/simulate", json={"runs": 2000, "seed": 5}).json())
    assert done["status"] == "done", done
    cli = cli_json(["simulate", demo_path(), "--runs", "2000", "--seed", "5", "--json"], capsys)
    assert done["result"]["result"]["outcomes"] == cli["outcomes"] and done["result"]["result"]["seed"] == 5
    assert done["result"]["method"] == "monte-carlo"
    # a long job the engine would play (its most runs), cancelled while it runs (it was 10,000,000: a job that would
    # only have failed on the engine's limit, so the test passed whichever came first)
    long = client.post(f"/api/tables/{tid}/simulate", json={"runs": 1_000_000, "method": "engine"}).json()
    assert client.get(f"/api/jobs/{long['id']}").json()["status"] == "running"
    assert wait_job(client, client.delete(f"/api/jobs/{long['id']}").json())["status"] == "cancelled"
    assert client.post(f"/api/tables/{tid}/simulate", json={"runs": 0}).status_code == 422
    assert client.post(f"/api/tables/{tid}/simulate", json={"method": "magic"}).status_code == 422
    assert client.post(f"/api/tables/{tid}/simulate", json={"actions": [{"do": "x"}]}).status_code == 400


def _children(pid: int) -> set[int]:
    """Return the live child processes of ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):  # ended meanwhile
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                alive.add(pid)
        except (OSError, IndexError):
            pass
    return alive


def test_simulate_on_workers_equals_the_cli_and_a_cancel_ends_its_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """``workers`` plays the runs on that many processes of the simulation's own (the answer says how many, the counts
    are the CLI's), and cancelling the job ends them with it (the job's process is a daemon, which multiprocessing
    lets start no child unless it says otherwise)."""
    from herohammer.web.session import Store

    store = Store()
    client = TestClient(create_app(store))
    tid = open_demo(client)["table_id"]
    done = wait_job(client, client.post(f"/api/tables/{tid}/simulate",
                                        json={"runs": 2000, "seed": 5, "method": "engine", "workers": 2}).json())
    assert done["status"] == "done" and done["result"]["workers"] == 2, done
    cli = cli_json(["simulate", demo_path(), "--runs", "2000", "--seed", "5", "--method", "engine", "--json"], capsys)
    assert done["result"]["result"]["outcomes"] == cli["outcomes"]
    long = client.post(f"/api/tables/{tid}/simulate", json={"runs": 1_000_000, "method": "engine", "workers": 2})
    assert long.json()["label"] == "0 of 1,000,000 runs on 2 processes: Monte Carlo games (method engine, as asked)"
    assert long.json()["total"] == 1_000_000  # the progress is the runs done of the runs asked (session 41)
    simulation = store.job(long.json()["id"]).process
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(workers := _children(simulation.pid)) < 2:
            assert time.monotonic() < deadline and simulation.is_alive(), "the simulation never started its workers"
            time.sleep(0.05)
        assert wait_job(client, client.delete(f"/api/jobs/{long.json()['id']}").json())["status"] == "cancelled"
        deadline = time.monotonic() + 10
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(workers), "a simulation's worker outlived its cancelled job"
    finally:  # nothing left behind by a failure
        simulation.kill()
        for pid in _alive(workers):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("workers", [0, "cores + 1", "many", True, 1.5])
def test_simulate_refuses_more_workers_than_the_server_s_cores(client: TestClient, workers: Any) -> None:
    from herohammer.parallel import cores

    tid = open_demo(client)["table_id"]
    given = cores() + 1 if workers == "cores + 1" else workers
    answer = client.post(f"/api/tables/{tid}/simulate", json={"runs": 10, "workers": given})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == (f"body.workers: expected a whole number from 1 to {cores()} (the cores this "
                                      f'server may use) or "auto" (got {given!r})')


def test_simulate_on_auto_workers_takes_the_server_s_cores(client: TestClient) -> None:
    from herohammer.parallel import cores

    tid = open_demo(client)["table_id"]
    done = wait_job(client, client.post(f"/api/tables/{tid}/simulate",
                                        json={"runs": 50, "seed": 1, "method": "engine", "workers": "auto"}).json())
    assert done["status"] == "done" and done["result"]["workers"] == cores(), done


# -- scenario out, clauses, OpenAPI ---------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_downloaded_scenario_loads_in_the_cli_with_the_same_rulings(
        client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> None:
    tid = open_demo(client)["table_id"]
    client.post(f"/api/tables/{tid}/play", json={"actions": [JOIN], "dice": [6, 6]})
    r = client.get(f"/api/tables/{tid}/scenario", params={"format": fmt, "download": "true"})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    saved = tmp_path / f"saved.{fmt}"
    saved.write_bytes(r.content)
    leave = {"do": "leave", "character": "librarian", "to": [20, 27]}
    for action in (leave, JOIN, {"do": "end_phase"}):
        api = client.post(f"/api/tables/{tid}/check", json={"action": action}).json()
        cli = cli_json(["check", str(saved), "--action", json.dumps(action), "--json"], capsys)
        assert api["result"] == cli
    assert client.get(f"/api/tables/{tid}/scenario", params={"format": "xml"}).status_code == 422


def test_rules_endpoint_and_openapi(client: TestClient) -> None:
    assert "within 2" in client.get("/api/rules/40k3.ic.join").json()["says"]
    assert client.get("/api/rules/no.such.rule").status_code == 404
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/tables/{table_id}/check", "/api/tables/{table_id}/targets", "/api/tables/{table_id}/actions",
              "/api/tables/{table_id}/odds", "/api/tables/{table_id}/play", "/api/tables/{table_id}/simulate",
              "/api/tables/{table_id}/undo", "/api/jobs/{job_id}", "/api/tables/{table_id}/scenario"):
        assert p in paths
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200


# -- the command ---------------------------------------------------------------------------------------
def test_serve_refuses_a_bad_scenario_or_port(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: 40k3\n")
    code, out, err = run(["serve", str(bad)], capsys)
    assert code == 2 and err.count("\n") == 1 and "bad.yaml" in err
    code, out, err = run(["serve", "--port", "70000"], capsys)
    assert code == 2 and "--port" in err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, out, err = run(["serve", "--port", str(busy.getsockname()[1])], capsys)
    assert code == 2 and "cannot listen" in err and "Traceback" not in err


def test_serve_prints_its_address_and_answers_on_loopback() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "herohammer", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert "http://127.0.0.1:" in line and "demo_40k3_librarian.yaml" in line
        url = line.split(" at ")[1].split()[0]
        import httpx2 as httpx

        base = url.split("/?")[0]
        for _ in range(100):
            try:
                r = httpx.get(base + "/api/demos", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert r.json()["demos"][0] == DEMO
        tid = url.split("table=")[1]
        assert httpx.get(f"{base}/api/tables/{tid}").json()["name"] == DEMO
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_engine_runs_past_the_limit_are_refused_before_a_job_starts() -> None:
    """``simulate --method engine`` refuses more than ENGINE_MAX_RUNS runs on the command line; the API did not, and
    started a job that could only fail later (session 32): now the request is refused at its field, no job made."""
    from herohammer.limits import ENGINE_MAX_RUNS
    from herohammer.web.session import Store

    store = Store()
    client = TestClient(create_app(store))
    tid = open_demo(client)["table_id"]
    r = client.post(f"/api/tables/{tid}/simulate", json={"runs": ENGINE_MAX_RUNS + 1, "method": "engine"})
    assert r.status_code == 422 and r.json()["field"] == "body.runs", r.text
    assert f"at most {ENGINE_MAX_RUNS:,} runs with method engine" in r.json()["error"]
    assert not store.jobs
    # the order of the body's fields does not matter
    r = client.post(f"/api/tables/{tid}/simulate", content=json.dumps({"method": "engine", "runs": ENGINE_MAX_RUNS + 1}),
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["field"] == "body.runs" and not store.jobs
    # the engine's own limit is allowed, and more runs by the compiled plans (numpy draws them)
    for body in ({"runs": ENGINE_MAX_RUNS, "method": "engine"}, {"runs": ENGINE_MAX_RUNS + 1, "method": "compiled"}):
        job = client.post(f"/api/tables/{tid}/simulate", json=body)
        assert job.status_code == 202, job.text
        assert wait_job(client, client.delete(f"/api/jobs/{job.json()['id']}").json())["status"] in {"cancelled", "done"}


def test_the_server_says_its_cores_and_run_limits(client: TestClient) -> None:
    """The page offers 1 to ``cores`` processes for a simulation, which the API's ``workers`` accepts, and no more."""
    from herohammer import __version__
    from herohammer.limits import ENGINE_MAX_RUNS
    from herohammer.parallel import cores

    info = client.get("/api/server").json()
    assert info == {"version": __version__, "cores": cores(), "max_runs": 10_000_000, "engine_max_runs": ENGINE_MAX_RUNS}
    tid = open_demo(client)["table_id"]
    r = client.post(f"/api/tables/{tid}/simulate", json={"runs": 10, "workers": info["cores"] + 1})
    assert r.status_code == 422 and r.json()["field"] == "body.workers"
