"""The web API and a game's record (session 40): ``GET .../scenario?record=true`` writes the game as played, a file
with a record opens played back from its start (undo through it), one written without its start opens at its saved
state saying so, and a chain of records (``played.after``) is kept; the statuses the page names, in words.

Through FastAPI's TestClient; the CLI (``play --out``, ``play --replay``) and ``Game.replay`` are the independent checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from herohammer import Game
from herohammer.rulesets import RULESETS
from herohammer.units import Status
from herohammer.web.api import create_app
from herohammer.web.session import Store
from herohammer.web.view import STATUS_WORDS, statuses
from tests._cli import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PSYKER = EXAMPLES / "40k3_librarian_psychic.yaml"
SMITE = '{do: manifest, psyker: librarian, power: Smite, target: boyz}'


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app())


def _open_text(client: TestClient, path: Path) -> dict[str, Any]:
    r = client.post("/api/tables", json={"text": path.read_text(), "filename": path.name})
    assert r.status_code == 201, r.text
    return r.json()


def _record(client: TestClient, table_id: str) -> dict[str, Any]:
    data = client.get(f"/api/tables/{table_id}/scenario", params={"format": "json", "record": "true"}).json()
    assert isinstance(data, dict)
    return data


def test_a_chain_of_records_opens_played_back_and_downloads_with_its_earlier_record(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    assert run(["play", str(PSYKER), "--action", SMITE, "--seed", "3", "--out", str(first)], capsys)[0] == 0
    assert run(["play", str(first), "--action", "{do: end_phase}", "--seed", "4", "--out", str(second)], capsys)[0] == 0
    view = _open_text(client, second)
    assert view["record_said"] == ("its record played back and verified: 1 action from played.start, and the 1 "
                                   "earlier record it was played on from; Undo steps back through it; undo stops "
                                   "at played.start (earlier records are kept in the game's download)")
    assert view["can_undo"] and view["phase"] == "assault"
    tid = view["table_id"]
    assert client.post(f"/api/tables/{tid}/play", json={"actions": [{"do": "end_phase"}], "seed": 5}).status_code == 200
    data = _record(client, tid)
    assert [a["do"] for a in data["played"]["actions"]] == ["end_phase", "end_phase"]
    assert data["played"]["after"] == yaml.safe_load(second.read_text())["played"]["after"]  # first.yaml's record
    saved = tmp_path / "third.yaml"
    saved.write_text(yaml.safe_dump(data))
    code, out, err = run(["play", str(saved), "--replay"], capsys)
    assert code == 0 and "and the 1 earlier record it was played on from" in out, err
    assert client.post(f"/api/tables/{tid}/undo").status_code == 200
    assert client.post(f"/api/tables/{tid}/undo").json()["can_undo"] is False  # at second.yaml's played.start
    assert client.post(f"/api/tables/{tid}/undo").status_code == 409


def test_a_seeded_record_played_on_at_the_table_keeps_every_step_s_faces(
        client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table plays on a copy of the replayed game (all or nothing) with its own dice: the record's steps keep
    the faces they rolled, and the whole game replays."""
    first = tmp_path / "first.yaml"
    assert run(["play", str(PSYKER), "--action", SMITE, "--seed", "3", "--out", str(first)], capsys)[0] == 0
    tid = _open_text(client, first)["table_id"]
    shoot = {"do": "shoot", "unit": "tactical", "target": "boyz"}
    assert client.post(f"/api/tables/{tid}/play", json={"actions": [shoot], "seed": 9}).status_code == 200
    played = _record(client, tid)["played"]
    assert played["rolls"][0] == yaml.safe_load(first.read_text())["played"]["rolls"][0] and played["rolls"][1]
    assert [a.do for a in Game.replay(_record(client, tid)).actions] == ["manifest", "shoot"]


def test_a_record_without_its_start_opens_at_the_saved_state_saying_why_undo_stops_there(
        client: TestClient, tmp_path: Path) -> None:
    game = Game.load(PSYKER)
    game.apply({"do": "end_phase"})
    data = game.to_data(record=True)
    del data["played"]["start"]  # as records were written before they kept one
    old = tmp_path / "old.yaml"
    old.write_text(yaml.safe_dump(data))
    view = _open_text(client, old)
    assert view["record_said"].startswith("its record (played:) has no start, so it cannot be played back: the game "
                                          "opens at its saved state and Undo cannot step back before this load")
    assert view["can_undo"] is False and view["phase"] == "assault" and view["log"] == []
    downloaded = _record(client, view["table_id"])
    assert downloaded["played"]["actions"] == [] and downloaded["played"]["after"] == data["played"]
    replayed = Game.replay(downloaded)
    assert replayed.state == game.state


def test_the_plain_download_holds_no_record_and_the_record_s_file_is_named_as_played(client: TestClient) -> None:
    tid = _open_text(client, PSYKER)["table_id"]
    plain = client.get(f"/api/tables/{tid}/scenario", params={"format": "json"}).json()
    assert "played" not in plain
    named = client.get(f"/api/tables/{tid}/scenario", params={"download": "true", "record": "true"})
    assert named.headers["content-disposition"] == 'attachment; filename="40k3_librarian_psychic_played.yaml"'
    assert "played:" in named.text


def test_a_table_opened_by_serve_says_what_was_done_with_its_record(tmp_path: Path) -> None:
    """``herohammer serve FILE`` opens the table before the page asks for it by id: the page says the replay too."""
    game = Game.load(PSYKER)
    game.apply({"do": "end_phase"})
    store = Store()
    first = store.open(game.to_data(record=True), "game.yaml")  # as serve_cmd opens its scenario
    view = TestClient(create_app(store)).get(f"/api/tables/{first.id}").json()
    assert view["record_said"].startswith("its record played back and verified: 1 action from played.start")
    assert view["can_undo"] is True


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_page_names_every_status_its_game_reads_in_words(ruleset: str) -> None:
    assert set(STATUS_WORDS) == set(Status)  # a status added to the engine is named for the page too
    shown = {s["id"] for s in statuses(ruleset)}
    assert shown == {s.value for s in Status if s not in RULESETS[ruleset].unread_statuses}
    assert ("psychic_test_failed" in shown) == ruleset.startswith("40k")


def test_a_table_s_view_carries_its_game_s_statuses(client: TestClient) -> None:
    assert _open_text(client, PSYKER)["statuses"] == statuses("40k3")
