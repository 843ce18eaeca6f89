"""The JSON API (mirroring the commands: check, targets, actions, odds, play, simulate) and the page.

FastAPI because every request body is a pydantic model - the same library that
validates scenario files and actions - so bad requests are refused at the field and
the OpenAPI description (``/openapi.json``, ``/docs``) comes from the same models.
Every answer that rules cites its clause ids and their texts; every refusal is a 4xx
with one clear ``error`` line and changes nothing.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.routing import APIRoute
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from .. import __version__
from ..action_odds import DEFAULT_RUNS, ActionOdds, summarise
from ..actions import Action, parse_action
from ..battlescribe import catalogue_files_refused
from ..dice import DEFAULT_MAX_RUNS, Dice, ScriptedDice, SeededDice
from ..errors import DiceRanOut, HerohammerError, IllegalActionError, ScenarioError, validation_problem
from ..game import Game
from ..input_types import Count
from ..keys_once import object_once
from ..limits import ENGINE_MAX_RUNS, MAX_WORKERS
from ..report import EXACT, MONTE_CARLO, envelope, to_jsonable
from ..scenario import scenario_notes, state_to_data
from ..state import GameState
from ..limits import METHODS
from .session import Store, Table, cancel, demo_names, demo_text, parse_scenario_text, unforeseen
from .view import clause_texts, table_view

STATIC = Path(__file__).parent / "static"
SEED_MAX = 2**63 - 1


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class OpenTable(_Body):
    """Open a table: a bundled demo by name, scenario data, or an uploaded file's text (exactly one)."""

    demo: str | None = None
    scenario: dict[str, Any] | None = None
    text: str | None = Field(None, max_length=5_000_000)
    filename: str = Field("upload.yaml", max_length=255)

    @model_validator(mode="after")
    def _one(self) -> OpenTable:
        given = [k for k in ("demo", "scenario", "text") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of demo, scenario, text (got {', '.join(given) or 'none'})")
        return self


class CheckBody(_Body):
    """``herohammer check``: one action to rule on."""

    action: dict[str, Any]


class OddsBody(_Body):
    """``herohammer odds action``: one action, Monte Carlo settings for when the tree is too large."""

    action: dict[str, Any]
    runs: Count = Field(DEFAULT_RUNS, ge=1, le=ENGINE_MAX_RUNS)  # the stated limit (limits.py), as on the command line
    seed: Count = Field(0, ge=0, le=SEED_MAX)
    max_branches: Count = Field(DEFAULT_MAX_RUNS, ge=1, le=ENGINE_MAX_RUNS)


class PlayBody(_Body):
    """``herohammer play``: actions applied in order with seeded dice or a judge's typed-in faces."""

    actions: list[dict[str, Any]] = Field(min_length=1, max_length=1000)
    seed: Count | None = Field(None, ge=0, le=SEED_MAX)
    dice: list[Annotated[Count, Field(ge=1, le=6)]] | None = Field(None, max_length=10_000)  # a die's faces

    @model_validator(mode="after")
    def _dice(self) -> PlayBody:
        if self.seed is not None and self.dice is not None:
            raise ValueError("give seed or dice, not both")
        return self


#: Why an opened scenario's ``catalogues:`` are refused: the files are the server's, named by whoever sends a request.
FILES_REFUSED = ("a scenario opened from the page may not name BattleScribe files: the server opens no path a request "
                 "names; start the server with it (herohammer serve FILE), which reads its catalogues beside it")
#: Most runs one simulate request may ask for (the command line allows more: a server shares its cores).
SIMULATE_MAX_RUNS = 10_000_000


class SimulateBody(_Body):
    """``herohammer simulate``: many games of the table's plan (or the given actions)."""

    method: Literal["auto", "compiled", "engine"] = "auto"  # before runs, whose bound it sets (``_engine_runs``)
    runs: Count = Field(10_000, ge=1, le=SIMULATE_MAX_RUNS)
    seed: Count = Field(1, ge=0, le=2**64 - 1)
    actions: list[dict[str, Any]] | None = None
    #: The Monte Carlo runs on that many local processes, as ``simulate --workers`` (the same counts for any number):
    #: from 1 to the cores this server may use, or ``"auto"`` (all of them); None: one process.
    workers: int | None = Field(None, description='from 1 to the cores the server may use, or "auto" (all of them)')

    @field_validator("runs")
    @classmethod
    def _engine_runs(cls, value: int, info: ValidationInfo) -> int:
        """Refuse more engine runs than the stated limit before a job starts, as ``simulate --method engine`` does on
        the command line (the engine plays one game per run): a request the job would only fail later."""
        if info.data.get("method") == "engine" and value > ENGINE_MAX_RUNS:
            raise ValueError(f"at most {ENGINE_MAX_RUNS:,} runs with method engine (the engine plays one game per run; "
                             "the limit)")
        return value

    @field_validator("workers", mode="before")
    @classmethod
    def _within_cores(cls, value: Any) -> int | None:
        """Refuse more processes than the server's cores: past them the workers only take turns, and one request
        would crowd out every other table's work."""
        from ..parallel import AUTO, cores

        limit = min(cores(), MAX_WORKERS)
        if value is None or isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= limit:
            return value
        if isinstance(value, str) and value.strip().lower() == AUTO:
            return limit
        raise ValueError(f'expected a whole number from 1 to {limit} (the cores this server may use) or "auto"')


assert set(METHODS) == {"auto", "compiled", "engine"}


def _once_in_body(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return object_once(pairs, "request body")


class _KeysOnceRequest(Request):
    """A request whose JSON body is read refusing an object's key given twice (``keys_once``), as the CLI reads an
    ``--action`` and a scenario file: ``{"do": "shoot", ..., "do": "end_phase"}`` would be ruled as its last ``do``."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = json.loads(await self.body(), object_pairs_hook=_once_in_body)
        return self._json


class _KeysOnceRoute(APIRoute):
    """Read every route's request body through ``_KeysOnceRequest``: a key given twice is one 400 naming it."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            request = _KeysOnceRequest(request.scope, request.receive)
            if request.method in _WITH_BODY and request.headers.get("content-type", "").startswith("application/json"):
                with contextlib.suppress(json.JSONDecodeError, UnicodeDecodeError):  # FastAPI refuses it, as before
                    await request.json()  # a ScenarioError (key given twice) is the 400 of _scenario_error
            return await handler(request)

        return checked


_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def _unit_ids_exist(game: Game, action: Action) -> None:
    """Refuse an action naming a unit the table lacks, as ``herohammer check`` does."""
    for name in ("unit", "character", "target", "psyker"):
        unit_id = getattr(action, name, None)
        if isinstance(unit_id, str) and not game.state.has_unit(unit_id):
            known = ", ".join(u.id for u in game.state.units)
            raise HerohammerError(f"action: field {name}: no unit with id {unit_id!r} (units: {known})")


#: The clause ids a note ends with, as the CLI prints them: "... (end the phase to see its odds) [published.x, y]".
_NOTE_RULES = re.compile(r"\[([\w.\-]+(?:,\s*[\w.\-]+)*)\]\s*$")


def _noted_rules(result: Any) -> list[str]:
    """Return the clause ids that the notes of an answer cite (the page shows each with its text on hover)."""
    notes = result.get("notes") if isinstance(result, dict) else None
    return [rid.strip() for note in notes or () if isinstance(note, str) and (m := _NOTE_RULES.search(note))
            for rid in m.group(1).split(",")]


def _answer(command: str, result: Any, state: GameState, rules: tuple[str, ...] | list[str],
            method: str | None = None, **extra: Any) -> dict[str, Any]:
    """Wrap an answer in the CLI's ``--json`` envelope, plus the text of every clause it cites (its notes' too)."""
    out = envelope(command, to_jsonable(result), ruleset=state.ruleset, rules=rules, method=method)
    return out | {"clauses": clause_texts([*out["rules"], *_noted_rules(out["result"])])} | extra


def _view(table: Table) -> dict[str, Any]:
    game = table.game
    return {"table_id": table.id, "name": table.name, "version": __version__, **table_view(game.state),
            "log": [e.to_json() | {"clauses": clause_texts(e.rules)} for e in game.log],
            "can_undo": bool(game.actions), "has_plan": bool(table.plan)}


def _opened(table: Table) -> dict[str, Any]:
    """A table as opening it answers: its view, the load's notes, and what was done with the file's record."""
    return _view(table) | {"notes": list(scenario_notes(table.game.state)), "record_said": table.record_said}


def _scenario_data(table: Table, record: bool = False) -> dict[str, Any]:
    data = state_to_data(table.game.state)
    if table.plan:
        data["plan"] = table.plan
    if record:
        data["played"] = table.record()
    return data


def create_app(store: Store | None = None) -> FastAPI:
    """Build the app; ``store`` holds its tables and jobs (a fresh one by default)."""
    store = store or Store()
    app = FastAPI(title="herohammer", version=__version__,
                  description="Rulings, exact odds and play on a wargame table: the CLI's commands as JSON.")
    app.router.route_class = _KeysOnceRoute  # every route below reads its JSON body refusing a key given twice

    @app.exception_handler(ScenarioError)
    async def _scenario_error(request: Request, exc: ScenarioError) -> JSONResponse:
        return _error(400, str(exc), field=exc.field, source=exc.source)

    @app.exception_handler(IllegalActionError)
    async def _illegal(request: Request, exc: IllegalActionError) -> JSONResponse:
        return _error(409, str(exc), rules=list(exc.rules), clauses=clause_texts(exc.rules))

    @app.exception_handler(DiceRanOut)
    async def _ran_out(request: Request, exc: DiceRanOut) -> JSONResponse:  # cites its roll's rule, as a refusal
        return _error(400, str(exc), rules=list(exc.rules), clauses=clause_texts(exc.rules))

    @app.exception_handler(HerohammerError)
    async def _bad_input(request: Request, exc: HerohammerError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(LookupError)
    async def _missing(request: Request, exc: LookupError) -> JSONResponse:
        return _error(404, str(exc.args[0]) if exc.args else "not found")

    @app.exception_handler(Exception)
    async def _unforeseen(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, unforeseen(exc))  # the traceback stays in the server's log

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":  # pydantic's words would be "body[1]: JSON decode error"
            at = first.get("loc", ("body", 0))[-1]
            why = (first.get("ctx") or {}).get("error", "")
            return _error(422, f"request body: not valid JSON at character {at}: {why}", field="body")
        kind = request.headers.get("content-type", "")
        if request.method in _WITH_BODY and not kind.startswith("application/json") and tuple(first.get("loc", ())) == (
                "body",) and first.get("type") != "missing":  # FastAPI read the JSON text as bytes: its words would
            # be "body: expected a mapping (got b'{...}')", as `curl -d` (a form's type) or a fetch without headers get
            return _error(415, "request body: send it as JSON with the header Content-Type: application/json (got "
                          f"{kind or 'no Content-Type'}; curl -d needs -H 'Content-Type: application/json')",
                          field="body")
        path, problem = validation_problem(exc)
        return _error(422, f"{path}: {problem}" if path else problem, field=path)

    # -- the page ----------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    # -- tables ------------------------------------------------------------------------
    @app.get("/api/server", summary="What this server offers: its version, the cores a simulation may use, the run limits")
    def server() -> dict[str, Any]:
        from ..parallel import cores

        return {"version": __version__, "cores": min(cores(), MAX_WORKERS), "max_runs": SIMULATE_MAX_RUNS,
                "engine_max_runs": ENGINE_MAX_RUNS}

    @app.get("/api/demos", summary="The bundled demo scenarios")
    def demos() -> dict[str, Any]:
        return {"demos": demo_names()}

    @app.post("/api/tables", status_code=201, summary="Open a table from a demo, scenario data or a file's text")
    def open_table(body: OpenTable) -> dict[str, Any]:
        if body.demo is not None:
            data, name = parse_scenario_text(demo_text(body.demo), body.demo), body.demo
        elif body.text is not None:
            data, name = parse_scenario_text(body.text, body.filename), body.filename
        else:
            assert body.scenario is not None
            data, name = body.scenario, body.filename
        with catalogue_files_refused(FILES_REFUSED):
            return _opened(store.open(data, name))  # the notes said once, as the CLI says them

    @app.get("/api/tables/{table_id}", summary="The table as drawn: units, bases, formations, terrain, log, "
             "and what its scenario holds that no rule reads (notes)")
    def get_table(table_id: str) -> dict[str, Any]:
        return _opened(store.table(table_id))  # a page opening a table by its link (serve's) says what a load says

    @app.get("/api/tables/{table_id}/scenario", summary="The current state as a scenario file (the CLI loads it); "
             "record=true adds the game as played (played:, which play FILE --replay and Game.replay check)")
    def scenario(table_id: str, format: Literal["yaml", "json"] = "yaml", download: bool = False,
                 record: bool = False) -> Response:
        table = store.table(table_id)
        with table.lock:
            data = _scenario_data(table, record)
        if format == "json" and not download:
            return JSONResponse(data)
        import yaml

        text = json.dumps(data, indent=2) if format == "json" else yaml.safe_dump(
            data, sort_keys=False, default_flow_style=None)
        stem = Path(table.name).stem or "scenario"
        if record and not stem.endswith("_played"):
            stem += "_played"
        headers = {"Content-Disposition": f'attachment; filename="{stem}.{format}"'} if download else {}
        return Response(text, media_type="application/json" if format == "json" else "application/yaml",
                        headers=headers)

    # -- the commands ------------------------------------------------------------------
    @app.post("/api/tables/{table_id}/check", summary="herohammer check: is this action legal, and why")
    def check(table_id: str, body: CheckBody) -> dict[str, Any]:
        game = store.table(table_id).game
        action = parse_action(body.action, "action")
        _unit_ids_exist(game, action)
        ruling = game.check(action)
        return _answer("check", ruling.to_json(), game.state, ruling.rules, action=action.to_json())

    @app.get("/api/tables/{table_id}/targets", summary="herohammer targets: every enemy unit, legal or not, and why")
    def targets(table_id: str, unit: str = Query(min_length=1)) -> dict[str, Any]:
        game = store.table(table_id).game
        if not game.state.has_unit(unit):
            raise HerohammerError(f"unit: no unit with id {unit!r} (units: {', '.join(u.id for u in game.state.units)})")
        answers = game.ruleset.targets(game.state, unit)
        cited = [r for v in answers.values() for r in v.rules]
        return _answer("targets", {"unit": unit, "targets": {k: v.to_json() for k, v in answers.items()}},
                       game.state, cited)

    @app.get("/api/tables/{table_id}/actions", summary="herohammer actions: the active side's legal actions (each, and summarised)")
    def actions(table_id: str, unit: str | None = None) -> dict[str, Any]:
        game = store.table(table_id).game
        if unit is not None and not game.state.has_unit(unit):
            raise HerohammerError(f"unit: no unit with id {unit!r} (units: {', '.join(u.id for u in game.state.units)})")
        legal = game.legal_actions()
        summary = game.ruleset.summarise_actions(game.state, legal)
        listed = [a.to_json() for a in legal]
        if unit is not None:
            listed = [a for a in listed if unit in (a.get("unit"), a.get("character"), a.get("psyker"))]
            summary = [a for a in summary if unit in (a.get("unit"), a.get("character"), a.get("psyker"))]
        none = game.why_no_actions()  # as herohammer actions says it: the battle is over
        # why the phase may not end yet (a close combat not fought...): the page says it where the button would be
        ending = None if any(a.do == "end_phase" for a in legal) else game.check({"do": "end_phase"})
        refused = {"reason": ending.reason, "rules": list(ending.rules)} if ending else None
        return _answer("actions", {"active": game.state.active, "phase": game.state.phase.value, "actions": listed,
                                   "summary": summary, "none_because": none.reason if none else None},
                       game.state, list(ending.rules) if ending else [], end_phase_refused=refused)

    @app.post("/api/tables/{table_id}/odds", status_code=202,
              summary="herohammer odds action: start the odds of an action (poll /api/jobs/{id})")
    def odds(table_id: str, body: OddsBody) -> dict[str, Any]:
        game = store.table(table_id).game
        action = parse_action(body.action, "action")
        _unit_ids_exist(game, action)
        ruling = game.check(action)
        if not ruling.legal:
            raise IllegalActionError(ruling.reason, ruling.rules)
        state = game.state
        notes = game.ruleset.odds_notes(state, action)  # what a rule takes later (40k4: the Morale check)

        def wrap(answer: ActionOdds) -> dict[str, Any]:
            result = answer.to_json() | ({"notes": list(notes)} if notes else {})
            return _answer("odds action", result, state, ruling.rules, EXACT if answer.exact else MONTE_CARLO)

        return store.start_odds(state, action, body.runs, body.seed, body.max_branches, wrap).to_json()

    @app.post("/api/tables/{table_id}/play", summary="herohammer play: apply actions in order (all or nothing)")
    def play(table_id: str, body: PlayBody) -> dict[str, Any]:
        table = store.table(table_id)
        with table.lock:
            trial = table.game.copy()
            seed = None if body.dice is not None else (body.seed if body.seed is not None else secrets.randbelow(10**9))
            dice: Dice = ScriptedDice(body.dice) if body.dice is not None else SeededDice(seed)
            log: list[dict[str, Any]] = []
            start, happened_events = trial.state, []
            for i, raw in enumerate(body.actions):
                action = parse_action(raw, f"actions[{i}]")
                _unit_ids_exist(trial, action)
                events = trial.apply(action, dice)
                log.append({"action": i + 1, "events": [e.to_json() for e in events]})
                happened_events += events
            table.game = trial
        state = trial.state
        unused = dice.unused if isinstance(dice, ScriptedDice) else ()
        result = {"seed": seed, "dice": body.dice, "unused_dice": len(unused), "unused_faces": list(unused),
                  "log": log, "out": None, "outcome": summarise(start, (trial.state, happened_events)).labels(),
                  "state": {"turn": state.turn, "phase": state.phase.value, "active": state.active}}
        cited = [r for entry in log for e in entry["events"] for r in e["rules"]]
        return _answer("play", result, state, cited, table=_view(table))

    @app.post("/api/tables/{table_id}/undo", summary="Undo the last applied action (one action, as Game.undo)")
    def undo(table_id: str) -> dict[str, Any]:
        table = store.table(table_id)
        with table.lock:
            taken = table.game.actions[-1:]  # said by the page: "undone" alone left a player to guess what went
            table.game.undo()
        return _view(table) | {"undone": taken[0].to_json()}

    @app.post("/api/tables/{table_id}/simulate", status_code=202,
              summary="herohammer simulate: start many games of the plan (poll /api/jobs/{id})")
    def simulate(table_id: str, body: SimulateBody) -> dict[str, Any]:
        table = store.table(table_id)
        plan = body.actions if body.actions is not None else (table.plan or None)
        for i, raw in enumerate(plan or []):
            parse_action(raw, f"actions[{i}]")
        state = table.game.state
        data = state_to_data(state)
        from ..simulate import make_driver, refuse_unplayable  # numpy's load waits for the first simulation

        refuse_unplayable(state, make_driver(state, plan, "actions"))  # as herohammer simulate: a plan refused at step 1, a battle that is over

        def wrap(result: dict[str, Any], workers: int | None) -> dict[str, Any]:
            return _answer("simulate", result, state, [], MONTE_CARLO, workers=workers)

        return store.start_simulation(data, body.runs, body.seed, plan, body.method, table.name, wrap,
                                      body.workers).to_json()

    # -- jobs and clauses --------------------------------------------------------------------
    @app.get("/api/jobs/{job_id}", summary="A long job's progress and, when done, its result")
    def job(job_id: str) -> dict[str, Any]:
        return store.job(job_id).to_json()

    @app.delete("/api/jobs/{job_id}", summary="Cancel a running job")
    def cancel_job(job_id: str) -> dict[str, Any]:
        j = store.job(job_id)
        cancel(j)
        return j.to_json()

    @app.get("/api/rules/{rule_id}", summary="What a clause says")
    def rule(rule_id: str) -> dict[str, Any]:
        texts = clause_texts([rule_id])
        if texts[rule_id].startswith("(not in"):
            raise LookupError(f"no clause {rule_id!r} in the catalogue (see herohammer rules)")
        return {"id": rule_id, "says": texts[rule_id]}

    return app
