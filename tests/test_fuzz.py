"""The project's own fuzz test: mutated scenarios and actions through every command and the API.

It mutates the bundled scenarios (examples/ and src/herohammer/examples/), draws actions
(legal ones from ``Game.legal_actions`` and hostile ones), and asserts what the house
promises: every command ends with exit 0 or 2 and no traceback, a refusal is one line,
a refused action changes nothing, and every state that ``play`` or ``Game.save`` writes
loads back to the same state (hence the same rulings and odds).

A short profile runs with the tests (seconds).  The long one runs on demand::

    HEROHAMMER_FUZZ=long pytest tests/test_fuzz.py -s

and prints its figures (inputs tried, refusals, defects found) at the end.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from _cli import run
from herohammer.dice import SeededDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted([*ROOT.glob("examples/*.yaml"), *ROOT.glob("src/herohammer/examples/*.yaml"),
                    *ROOT.glob("examples/bad/*")])
BATTLESCRIBE = sorted(ROOT.glob("examples/battlescribe/*"))
BOOK_IDS = sorted(p.stem for p in ROOT.glob("src/herohammer/book/*/*.yaml"))
GOOD = [p for p in SCENARIOS if p.parent.name != "bad"]
LONG = os.environ.get("HEROHAMMER_FUZZ") == "long"
EXAMPLES = {"cli": 600, "walk": 150, "web": 150} if LONG else {"cli": 12, "walk": 4, "web": 3}
if os.environ.get("HEROHAMMER_FUZZ_EXAMPLES"):  # e.g. 2000 for a longer long run
    _N = int(os.environ["HEROHAMMER_FUZZ_EXAMPLES"])
    EXAMPLES = {"cli": _N, "walk": _N // 4, "web": _N // 4}
WALK_STEPS = 40 if LONG else 8
FIGURES: Counter[str] = Counter()

def fuzz(kind: str) -> settings:
    """Settings for one fuzz test: derandomized (repeatable) in the short profile, random in the long one."""
    return settings(max_examples=EXAMPLES[kind], deadline=None, derandomize=not LONG, database=None,
                    suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])

HOSTILE: list[Any] = [
    "", "[/]", "[bold red]x", "$x^$", "\x1b[31mred", "-", None, True, [], {}, -1, 0, 1, 7, 13, 10**12 + 1,
    2.5, -0.5, 1e308, float("nan"), "x" * 300, [[[[[1]]]]], {"do": "end_phase"}, "WS4", "40k3", "t9a",
]


def _load(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except Exception:  # noqa: BLE001 - a deliberately broken example stays as text
        return path.read_text(encoding="utf-8", errors="replace")


def _slots(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every value in plain data (mappings and lists)."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _slots(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _slots(v, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


@st.composite
def mutated_scenario(draw: st.DrawFn) -> tuple[str, Any]:
    """Draw a bundled scenario and change up to three of its values (replace, delete, duplicate)."""
    path = draw(st.sampled_from(SCENARIOS))
    data = copy.deepcopy(_load(path))
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):  # a third left whole, to get deep into play
        slots = [s for s in _slots(data) if s]
        if not slots:
            break
        where = draw(st.sampled_from(slots))
        parent, key = _get(data, where[:-1]), where[-1]
        op = draw(st.sampled_from(["replace", "replace", "delete", "duplicate", "nudge"]))
        if op == "replace":
            parent[key] = draw(st.sampled_from(HOSTILE) | st.integers(-100, 100) | st.text(max_size=8))
        elif op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif op == "nudge" and isinstance(parent[key], (int, float)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] + draw(st.sampled_from([-1, 1, 0.5, -3, 20]))
    return path.name, data


def _ids(data: Any) -> list[str]:
    ids: list[str] = []
    if isinstance(data, dict) and isinstance(data.get("sides"), dict):
        for units in data["sides"].values():
            for u in units if isinstance(units, list) else []:
                if isinstance(u, dict) and isinstance(u.get("id"), str):
                    ids.append(u["id"])
    return ids or ["nobody"]


def _points(data: Any) -> list[list[float]]:
    points = [list(_get(data, s)) for s in _slots(data) if s and s[-1] == "at"
              and isinstance(_get(data, s), list) and len(_get(data, s)) == 2]
    return [p for p in points if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)] or [[10, 10]]


@st.composite
def action(draw: st.DrawFn, data: Any) -> Any:
    """Draw an action naming the scenario's units and places near its models (or something hostile)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(HOSTILE + ["{", "[]", '{"do": "fly"}', '{"do": "move", "unit": 3}']))
    ids = st.sampled_from(_ids(data)) | st.sampled_from(["nobody", "[/]"])
    near = st.builds(lambda p, dx, dy: [p[0] + dx, p[1] + dy], st.sampled_from(_points(data)),
                     st.floats(-8, 8), st.floats(-8, 8))
    do = draw(st.sampled_from(["join", "leave", "move", "shoot", "manifest", "assault", "charge", "allocate",
                               "fight", "regroup", "end_phase", "reform", "cast", "test", "consolidate"]))
    fields: dict[str, Any] = {"do": do}
    maybe = st.sampled_from([None, None, None, 0, 15, -45, 90, 180, 181])  # mostly left out, sometimes out of range
    if do == "join":
        fields |= {"character": draw(ids), "unit": draw(ids), "to": draw(near)}
        fields |= draw(st.sampled_from([{}, {"rank_choice": "widen"}, {"rank_choice": "second_rank"},
                                        {"position": 1}, {"position": 0}, {"fly": True}]))
    elif do == "leave":
        fields |= {"character": draw(ids), "to": draw(near), "fly": draw(st.booleans())}
    elif do == "move":
        fields |= {"unit": draw(ids), "to": draw(st.lists(near, min_size=1, max_size=12)),
                   "march": draw(st.booleans()), "fly": draw(st.booleans())}
        if (wheel := draw(maybe)) is not None:
            fields["wheel"] = wheel
    elif do in ("shoot", "assault", "charge"):
        fields |= {"unit": draw(ids), "target": draw(ids)}
        if do == "charge" and (wheel := draw(maybe)) is not None:
            fields["wheel"] = wheel
        if do == "charge" and (reaction := draw(st.sampled_from([None, "hold", "stand_and_shoot", "flee"]))):
            fields["reaction"] = reaction
        if do == "charge" and draw(st.booleans()):  # a Flying charge (published.t9a-fly)
            fields["fly"] = True
        if do == "charge" and draw(st.booleans()):  # published.t9a-redirect-charge
            fields["redirect"] = draw(ids)
            if redirect_reaction := draw(st.sampled_from([None, "hold", "stand_and_shoot", "flee"])):
                fields["redirect_reaction"] = redirect_reaction
            if draw(st.booleans()):  # the target charged when the redirect's unit Flees too
                fields["if_both_flee"] = draw(ids)
        if do == "shoot" and draw(st.booleans()):
            fields["at"] = draw(ids)
        if do == "shoot" and draw(st.booleans()):  # published.t9a-shooting-weapons
            fields["weapon"] = draw(st.sampled_from(["bow", "javelin S4", "sword", ""])) if draw(st.booleans()) \
                else {draw(ids): draw(st.sampled_from(["bow", "crossbow", "x"]))}
    elif do == "consolidate":
        fields |= {"unit": draw(ids), "to": draw(st.lists(near, min_size=0, max_size=12))}
    elif do == "reform":
        fields |= {"unit": draw(ids), "facing": draw(maybe), "files": draw(st.sampled_from([None, 1, 3, 5, 0, 40]))}
        fields = {k: v for k, v in fields.items() if v is not None}
    elif do == "cast":
        fields |= {"unit": draw(ids), "spell": draw(st.sampled_from(["Fireball", "Smite", "x", ""])),
                   "target": draw(ids), "dice": draw(st.integers(0, 6)), "dispel": draw(st.integers(-1, 13))}
    elif do == "test":
        fields |= {"unit": draw(ids), "characteristic": draw(st.sampled_from(["WS", "S", "I", "Ld", "Q"]))}
        fields |= draw(st.sampled_from([{}, {"kind": "Morale"}, {"kind": "Pinning"}, {"kind": "Break"},
                                        {"leadership": 7}, {"unmodified": True},
                                        {"modifiers": [{"kind": "add", "value": -1}]},
                                        {"modifiers": [{"kind": "multiply", "value": "1/0"}]}]))
    elif do == "manifest":
        fields |= {"psyker": draw(ids), "power": draw(st.sampled_from(["Smite", "Fear", "x"])), "target": draw(ids)}
    elif do == "allocate":
        fields |= {"character": draw(ids), "attacks": {draw(st.text(max_size=5)): draw(st.integers(-1, 5))}}
    elif do in ("fight", "regroup"):
        fields |= {"unit": draw(ids)}
        if do == "fight" and draw(st.booleans()):  # t9a: either side's blows at a character
            fields[draw(st.sampled_from(["at", "reactive_at"]))] = draw(ids)
        if do == "regroup" and draw(st.booleans()):
            fields["leadership"] = draw(st.integers(0, 12))
    return fields


def _mangled(draw: Any, path: Path, tmp: Path) -> Path:
    """Return a BattleScribe file as it is, or cut short, or with markup or an entity spliced in."""
    raw = path.read_bytes()
    how = draw(st.sampled_from(["whole", "whole", "cut", "splice"]))
    if how == "whole":
        return path
    at = draw(st.integers(0, max(0, len(raw) - 1)))
    if how == "cut":
        raw = raw[:at]
    else:
        raw = raw[:at] + draw(st.sampled_from([b"[/]", b"&lol;", b"<!DOCTYPE x [<!ENTITY lol 'x'>]>", b"\xff\xfe",
                                               b'name="[bold red]x"', b"</"])) + raw[at:]
    out = tmp / path.name
    out.write_bytes(raw)
    return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, allow_nan=True)


def _write(tmp: Path, name: str, data: Any, as_json: bool) -> Path:
    path = tmp / (Path(name).stem + (".json" if as_json else ".yaml"))
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    elif as_json:
        path.write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _command(draw: Any, scenario: Path, data: Any, out: Path) -> list[str]:
    acts = [_text(draw(action(data))) for _ in range(draw(st.integers(1, 3)))]
    kind = draw(st.sampled_from(["check", "targets", "actions", "play", "odds action", "simulate", "sweep",
                                 "rules", "odds", "rulings", "catalogue", "scenario new", "schema"]))
    if kind == "rulings":
        chosen = draw(st.sampled_from([[], [draw(st.sampled_from(BOOK_IDS))], ["[/]"], ["nobody"],
                                       ["--rule", draw(st.sampled_from(["40k3.ic.join", "t9a.leave.move", "x"]))],
                                       ["--ruleset", draw(st.sampled_from(["t9a", "40k4", "x"]))]]))
        return ["rulings", *chosen, *draw(st.sampled_from([[], ["--json"]]))]
    if kind in ("catalogue", "scenario new"):
        source = _mangled(draw, draw(st.sampled_from(BATTLESCRIBE)), out.parent)
        if kind == "catalogue":
            unit = draw(st.sampled_from([[], [], ["--unit", "[/]"], ["--unit", "Captain"], ["--unit", "Boyz"]]))
            return ["catalogue", str(source), *unit, *draw(st.sampled_from([[], ["--json"]]))]
        return ["scenario", "new", "--roster", str(source), "--out", str(out),
                *draw(st.sampled_from([[], ["--ruleset", "t9a"], ["--width", "0"], ["--side", "[/]"]]))]
    if kind == "schema":
        return ["schema", *draw(st.sampled_from([[], ["--out", str(out.with_suffix(".json"))]]))]
    if kind == "check":
        return ["check", str(scenario), "--action", acts[0], *draw(st.sampled_from([[], ["--json"]]))]
    if kind == "targets":
        return ["targets", str(scenario), "--unit", draw(st.sampled_from(_ids(data) + ["[/]"]))]
    if kind == "actions":
        return ["actions", str(scenario), *draw(st.sampled_from([[], ["--json"]]))]
    if kind == "play":
        return ["play", str(scenario), *[a for t in acts for a in ("--action", t)], "--seed",
                str(draw(st.integers(0, 99))), "--out", str(out)]
    if kind == "odds action":
        return ["odds", "action", str(scenario), "--action", acts[0], "--runs", "30", "--max-branches", "300"]
    if kind == "simulate":
        return ["simulate", str(scenario), "--runs", str(draw(st.integers(1, 20))), "--seed", "1",
                "--method", "engine", *draw(st.sampled_from([[], ["--json"], ["--csv"]]))]
    if kind == "sweep":
        return ["sweep", str(scenario), "--vary", draw(st.sampled_from(["turn=1,2", "active=x", "[0]=1", "turn="])),
                "--runs", "5", "--seed", "1", "--method", "engine"]
    if kind == "rules":
        return ["rules", *draw(st.sampled_from([[], ["--ruleset", "t9a"], ["--ruleset", "[/]"], ["--json"]]))]
    query = draw(st.sampled_from(["test", "leadership", "psychic", "attacks", "nothing"]))
    tokens = draw(st.lists(st.sampled_from(["4", "13", "-3", "4+", "7+", "failed", "--hit", "--wound", "3+",
                                            "--save", "x", "9" * 5000, "--json"]), max_size=6))
    return ["odds", query, *tokens]


@fuzz("cli")
@given(scenario=mutated_scenario(), as_json=st.booleans(), data=st.data())
def test_every_command_ends_in_an_answer_or_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                      capsys: pytest.CaptureFixture[str],
                                                      scenario: tuple[str, Any], as_json: bool,
                                                      data: st.DataObject) -> None:
    tmp = tmp_path_factory.mktemp("fuzz")
    name, content = scenario
    path = _write(tmp, name, content, as_json)
    out = tmp / "after.yaml"
    argv = _command(data.draw, path, content, out)
    code, stdout, err = run(argv, capsys)
    FIGURES["commands"] += 1
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err + stdout, (argv, err)
    FIGURES[f"command {argv[0]}"] += 1
    if code == 2:
        FIGURES["refusals"] += 1
        message = json.loads(stdout)["error"] if "--json" in argv and not err else err  # --json: the envelope
        assert len(message.strip().splitlines()) == 1, (argv, err, stdout)
        if argv[0] == "play":
            assert not out.exists(), "a refused play wrote its --out file"
    elif argv[0] == "play":
        _same_as_replayed(path, argv, out)
    elif argv[:2] == ["scenario", "new"] and out.exists():
        load_scenario(out)  # what scenario new writes, load accepts
        FIGURES["saves reloaded"] += 1


def _same_as_replayed(scenario: Path, argv: list[str], out: Path) -> None:
    """The file ``play --out`` wrote loads, and equals the state the API reaches with the same actions."""
    actions = [argv[i + 1] for i, a in enumerate(argv) if a == "--action"]
    seed = int(argv[argv.index("--seed") + 1])
    game = Game.load(scenario, SeededDice(seed))
    for a in actions:
        game.apply(a)
    assert load_scenario(out) == game.state
    FIGURES["saves reloaded"] += 1


@fuzz("walk")
@given(start=st.sampled_from(GOOD), data=st.data())
def test_random_play_refusals_change_nothing_and_every_state_reloads(start: Path, data: st.DataObject) -> None:
    game = Game.load(start, SeededDice(data.draw(st.integers(0, 2**32))))
    raw = _load(start)
    for _ in range(WALK_STEPS):
        legal = game.legal_actions()
        if legal and data.draw(st.integers(0, 2)) > 0:
            chosen: Any = data.draw(st.sampled_from(legal))
        else:
            chosen = data.draw(action(raw))
        before = game.state
        FIGURES["actions"] += 1
        try:
            game.apply(chosen)
        except HerohammerError:
            FIGURES["actions refused"] += 1
            assert game.state is before
            continue
        _reloads_the_same(game)
        if game.state.phase != before.phase and data.draw(st.booleans()):
            game.undo()
            assert game.state is before


def _reloads_the_same(game: Game) -> None:
    """Saving and loading gives the same state: the same rulings and odds follow from it."""
    data = game.to_data()
    try:
        again = state_from_data(yaml.safe_load(yaml.safe_dump(data, sort_keys=False)), "<saved state>")
    except HerohammerError as exc:
        FIGURES["saves refused"] += 1
        pytest.fail(f"a state play reached does not load back: {exc}")
    FIGURES["saves reloaded"] += 1
    assert again == game.state


def _post(client: Any, url: str, body: Any) -> Any:
    """POST a body as a client writes it: a mutated value of inf or NaN goes as JSON's ``Infinity``/``NaN``
    literal (which Python's and JavaScript's parsers read), where httpx's ``json=`` would refuse to send it."""
    return client.post(url, content=json.dumps(body), headers={"content-type": "application/json"})


@fuzz("web")
@given(scenario=mutated_scenario() | st.sampled_from(GOOD).map(lambda p: (p.name, _load(p))),
       as_text=st.booleans(), data=st.data())
def test_the_web_api_answers_or_refuses_in_one_line_and_a_refusal_changes_nothing(
        scenario: tuple[str, Any], as_text: bool, data: st.DataObject) -> None:
    """``herohammer serve``'s API, in-process: never a 500, a refused play leaves the table as it was."""
    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    name, content = scenario
    client = TestClient(create_app(), raise_server_exceptions=True)  # an unhandled error fails the test
    body: dict[str, Any] = ({"text": content if isinstance(content, str) else yaml.safe_dump(content),
                             "filename": name} if as_text or not isinstance(content, dict) else {"scenario": content})
    opened = _answered(_post(client, "/api/tables", body))
    if opened.status_code != 201:
        return
    table = f"/api/tables/{opened.json()['table_id']}"
    raw = content if isinstance(content, dict) else {}
    for _ in range(data.draw(st.integers(1, 4))):
        before = client.get(f"{table}/scenario", params={"format": "json"}).json()
        request = data.draw(st.sampled_from(["check", "play", "play", "targets", "actions", "undo", "scenario"]))
        FIGURES[f"web {request}"] += 1
        if request == "check":
            answer = _answered(_post(client, f"{table}/check", {"action": data.draw(action(raw))}))
        elif request == "play":
            acts = [data.draw(action(raw)) for _ in range(data.draw(st.integers(1, 3)))]
            answer = _answered(_post(client, f"{table}/play", {"actions": acts, "seed": data.draw(st.integers(0, 9))}))
        elif request == "targets":
            answer = _answered(client.get(f"{table}/targets", params={"unit": data.draw(st.sampled_from(_ids(raw)))}))
        elif request == "actions":
            answer = _answered(client.get(f"{table}/actions"))
        elif request == "undo":
            answer = _answered(client.post(f"{table}/undo"))
        else:
            answer = _answered(client.get(f"{table}/scenario", params={"format": data.draw(st.sampled_from(["yaml", "json"]))}))
        after = client.get(f"{table}/scenario", params={"format": "json"}).json()
        if answer.status_code >= 400 or request in ("check", "targets", "actions", "scenario"):
            assert after == before, (request, answer.text)
        state_from_data({k: v for k, v in after.items() if k != "played"}, "<the table's scenario>")
        FIGURES["saves reloaded"] += 1


def _answered(response: Any) -> Any:
    """Check an API answer: a success, or a refusal (4xx) with one line of error; never a server error."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        FIGURES["web refusals"] += 1
        error = response.json().get("error")
        assert isinstance(error, str) and len(error.strip().splitlines()) == 1, response.text
    return response


@pytest.fixture(scope="module", autouse=True)
def _figures() -> Iterator[None]:
    yield
    if LONG:
        print(f"\nfuzz figures: {dict(sorted(FIGURES.items()))}", file=sys.__stdout__)
