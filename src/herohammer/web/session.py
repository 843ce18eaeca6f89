"""The server's memory: open tables (a ``Game`` each) and long-running jobs (odds, simulations).

Everything lives in this process only; nothing is written to disk.  A table keeps its
``Game`` (state, log, undo history) and the plan the scenario came with, for simulate.
A file opened with a game's record (``played:``, as the page's download or ``play --out``
writes it) is played back from its start, every step checked, so undo steps back through
the recorded actions as through the ones played at the table.
Jobs run in a thread (exact odds: progress and cancel through the per-branch summary
hook of ``action_odds``) or in a child process (simulations: cancel ends the process).
"""

from __future__ import annotations

import multiprocessing
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..action_odds import ActionOdds, action_odds
from ..errors import HerohammerError, ScenarioError
from ..game import Game
from ..records import replay_game
from ..report import to_jsonable
from ..scenario import parse_text, refuse_battlescribe, state_from_data
from ..state import GameState

MAX_TABLES = 64
MAX_JOBS = 64


class Cancelled(Exception):
    """Stop a job the user cancelled (raised inside the rules-code loop, never shown as an error)."""


def parse_scenario_text(text: str, filename: str) -> dict[str, Any]:
    """Read uploaded scenario text (JSON if the name ends in .json, else YAML) as the CLI reads files."""
    refuse_battlescribe(filename)
    data = parse_text(text, "JSON" if filename.lower().endswith(".json") else "YAML", filename)
    if not isinstance(data, dict):
        raise ScenarioError(filename, "(top level)", "expected a mapping with ruleset, active, sides ...")
    return data


def demo_names() -> list[str]:
    """List the bundled demo scenarios by file name."""
    root = resources.files("herohammer") / "examples"
    return sorted(p.name for p in root.iterdir() if p.name.startswith("demo_") and p.name.endswith(".yaml"))


def demo_text(name: str) -> str:
    """Return a bundled demo's text; refuse any name that is not one (no path is ever opened from a request)."""
    if name not in demo_names():
        raise HerohammerError(f"demo: no bundled demo {name!r} (demos: {', '.join(demo_names())})")
    return (resources.files("herohammer") / "examples" / name).read_text(encoding="utf-8")


@dataclass
class Table:
    """One open table: a game and where it came from."""

    id: str
    name: str
    game: Game
    plan: list[dict[str, Any]]
    #: The record the opened file's game was played on from (``played.after``, or a record written without its
    #: start), kept under ``played.after`` when the game is downloaded, as ``play --out`` keeps it: the chain replays.
    earlier: dict[str, Any] | None = None
    #: What opening it said of the file's record (played back, or why not), said again by a page opening it by id.
    record_said: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self) -> dict[str, Any]:
        """Return the game as played at this table (``Game.record``), after any record it was played on from."""
        played = self.game.record()
        return played | {"after": self.earlier} if self.earlier else played


@dataclass
class Opened:
    """A game as a file opens it, and what the page says of its record."""

    game: Game
    earlier: dict[str, Any] | None = None
    said: str = ""


def open_game(data: Mapping[str, Any], name: str) -> Opened:
    """Start a table's game from scenario data; one with a record of play (``played:`` with its ``start``) is played
    back from there, every step checked (``Game.replay``: a step that does not play back is one error naming it).

    A record written without its start (before records kept one) cannot be played back: the game opens at the
    state saved, said so, and the record is kept as the earlier one.
    """
    played = data.get("played")
    if not isinstance(played, Mapping) or not played:
        return Opened(Game(state_from_data(data, name)))
    if "start" not in played:
        return Opened(Game(state_from_data(data, name)), dict(played),
                      "its record (played:) has no start, so it cannot be played back: the game opens at its saved "
                      "state and Undo cannot step back before this load (the record is kept in the game's download)")
    replayed = replay_game(data, name)
    count = len(replayed.game.actions)
    earlier = (f", and the {replayed.links} earlier record{'s' * (replayed.links != 1)} it was played on from"
               if replayed.links else "")
    after = played.get("after")
    said = (f"its record played back and verified: {count} action{'s' * (count != 1)} from played.start{earlier}; "
            + (f"Undo steps back through {'it' if count == 1 else 'them'}" if count else "nothing to undo")
            + ("; undo stops at played.start (earlier records are kept in the game's download)" if after else ""))
    return Opened(replayed.game, dict(after) if isinstance(after, Mapping) else None,
                  "; ".join([said, *replayed.notes]))


@dataclass
class Job:
    """A long computation the page polls: progress, then a result, an error or a cancellation."""

    id: str
    kind: str
    label: str = "starting"
    done: int = 0
    total: int | None = None
    status: str = "running"  # running, done, failed, cancelled
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    process: Any = None

    def to_json(self) -> dict[str, Any]:
        """Return the job as the page sees it."""
        return {"id": self.id, "kind": self.kind, "status": self.status, "label": self.label,
                "done": self.done, "total": self.total, "seconds": round(time.monotonic() - self.started, 2),
                "result": self.result, "error": self.error}


class Store:
    """Hold tables and jobs by id, oldest dropped first past a fixed number."""

    def __init__(self) -> None:
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    # -- tables ----------------------------------------------------------------------
    def open(self, data: Mapping[str, Any], name: str) -> Table:
        """Validate scenario data (the same schema as the files) and open a table on it (``open_game``)."""
        opened = open_game(data, name)
        plan = data.get("plan") or []
        table = Table(uuid.uuid4().hex[:12], name, opened.game, [dict(p) for p in plan if isinstance(p, dict)],
                      opened.earlier, opened.said)
        with self._lock:
            self.tables[table.id] = table
            while len(self.tables) > MAX_TABLES:
                self.tables.popitem(last=False)
        return table

    def table(self, table_id: str) -> Table:
        """Return an open table or refuse naming the id."""
        try:
            return self.tables[table_id]
        except KeyError:
            raise LookupError(f"no open table {table_id!r} (it may have been closed; load the scenario again)") from None

    # -- jobs --------------------------------------------------------------------------
    def job(self, job_id: str) -> Job:
        """Return a job or refuse naming the id."""
        try:
            return self.jobs[job_id]
        except KeyError:
            raise LookupError(f"no job {job_id!r}") from None

    def _add(self, job: Job) -> Job:
        with self._lock:
            self.jobs[job.id] = job
            while len(self.jobs) > MAX_JOBS:
                _, old = self.jobs.popitem(last=False)
                cancel(old)
        return job

    def start_odds(self, state: GameState, action: Any, runs: int, seed: int, max_branches: int,
                   present: Callable[[ActionOdds], dict[str, Any]]) -> Job:
        """Start the odds of an action in a thread; progress counts rules-code runs; ``present`` shapes the answer."""
        job = self._add(Job(uuid.uuid4().hex[:12], "odds", total=max_branches,
                            label=f"exact: enumerating the chance tree (at most {max_branches} rules-code runs)"))

        # Counted through ``walked``/``advance``, not a summary of its own: any summary but the plain one makes the
        # enumeration read positions and every event, a larger tree than the command line's (tests/test_qa_web_odds.py).
        def walked(done: int) -> None:
            if job.cancel.is_set():
                raise Cancelled
            job.done = done
            job.label = f"exact: enumerating the chance tree ({done} of at most {max_branches} rules-code runs)"

        sampled_because = ""

        def notice(why: str) -> None:
            nonlocal sampled_because
            sampled_because = why.removesuffix(f": Monte Carlo with {runs:,} runs")
            job.done, job.total, job.label = 0, runs, f"{sampled_because}: Monte Carlo instead (0 of {runs} runs)"

        def advance(more: int) -> None:
            if job.cancel.is_set():
                raise Cancelled
            job.done += more
            job.label = f"{sampled_because}: Monte Carlo instead ({job.done} of {runs} runs)"

        def work() -> None:
            try:
                answer = action_odds(state, action, max_runs=max_branches, runs=runs, seed=seed, walked=walked,
                                     notice=notice, advance=advance)
                job.result = present(answer)
                job.status = "done"
                job.label = answer.method
            except Cancelled:
                job.status, job.label = "cancelled", "cancelled"
            except HerohammerError as exc:
                job.status, job.error = "failed", str(exc)
            except Exception as exc:  # a fault of the engine: said in one line, not a job left running for ever
                job.status, job.error = "failed", unforeseen(exc)

        threading.Thread(target=work, name=f"odds-{job.id}", daemon=True).start()
        return job

    def start_simulation(self, data: dict[str, Any], runs: int, seed: int, plan: list[dict[str, Any]] | None,
                         method: str, source: str, present: Callable[[dict[str, Any], int | None], dict[str, Any]],
                         workers: int | None = None) -> Job:
        """Start a simulation in a child process (so that cancel can end it at once); ``workers``: its Monte Carlo
        runs on that many processes of its own, which end with it (``parallel._quiet_worker``)."""
        progress = SimulationProgress(runs, method, workers)
        job = self._add(Job(uuid.uuid4().hex[:12], "simulate", label=progress.label(), total=runs))
        ctx = multiprocessing.get_context("spawn")
        queue: Any = ctx.Queue()
        proc = ctx.Process(target=_simulate_worker, args=(queue, data, runs, seed, plan, method, source, workers),
                           daemon=True)
        job.process = proc
        proc.start()

        def told(kind: str, payload: Any) -> bool:
            """Take the runs done so far, or why they are Monte Carlo games; False for the answer (or the error)."""
            if kind not in ("advance", "notice"):
                return False
            job.done = progress.hear(kind, payload)
            job.label = progress.label()
            return True

        def wait() -> None:
            while True:
                try:
                    kind, payload = queue.get(timeout=0.2)
                    if told(kind, payload):
                        continue
                    break
                except Exception:  # queue.Empty: still running (or killed)
                    if not job.cancel.is_set() and not proc.is_alive():
                        try:  # it may have sent its last words and ended between the wait above and this look
                            kind, payload = queue.get(timeout=1.0)
                            if told(kind, payload):
                                continue  # its answer follows
                            break
                        except Exception:  # queue.Empty: it ended without a word
                            pass
                    if job.cancel.is_set() or not proc.is_alive():
                        if job.status == "running":
                            job.status = "cancelled" if job.cancel.is_set() else "failed"
                            job.error = None if job.cancel.is_set() else "the simulation stopped unexpectedly"
                            job.label = job.status
                        return
            proc.join(timeout=5)
            if kind == "ok":
                job.result, job.status, job.label = present(*payload), "done", "done"
            else:
                job.error, job.status = payload, "failed"

        threading.Thread(target=wait, name=f"sim-{job.id}", daemon=True).start()
        return job


def unforeseen(exc: BaseException) -> str:
    """Say an error the engine did not foresee in one line (its kind and words), asking for a report."""
    words = " ".join(str(exc).split())
    return (f"herohammer failed unexpectedly ({type(exc).__name__}: {words}); "
            "please report it with the scenario and the action")


def cancel(job: Job) -> None:
    """Cancel a running job: flag it (threads) and end its process (simulations)."""
    if job.status != "running":
        return
    job.cancel.set()
    if job.process is not None and job.process.is_alive():
        job.process.terminate()


class SimulationProgress:
    """What the page shows while a simulation runs: the runs done of the runs asked, and how they are played (the
    exact odds being worked out, runs drawn from them, or Monte Carlo games and why), from what the child told."""

    def __init__(self, runs: int, method: str, workers: int | None) -> None:
        self.runs, self.method, self.done = runs, method, 0
        self.on = f" on {workers} processes" if workers is not None and workers > 1 else ""
        self.why: str | None = None  # simulate's notice: why the exact odds were refused

    def hear(self, kind: str, payload: Any) -> int:
        """Take one message of the child (``advance``: runs done in all; ``notice``: the switch); return runs done."""
        if kind == "notice":
            self.why = str(payload)
        else:
            self.done = int(payload)
        return self.done

    def label(self) -> str:
        """Say the runs done and the method, as ``simulate`` names them."""
        count = f"{self.done:,} of {self.runs:,} runs{self.on}"
        if self.why is not None:  # simulate's note word for word: no exact odds, why, and what is played instead
            return f"{count}: {self.why}"
        if self.method == "engine":
            return f"{count}: Monte Carlo games (method engine, as asked)"
        if self.done:
            return f"{count}: drawn from the exact odds (the chance tree enumerated)"
        return f"{count}: working out the exact odds first (enumerating the chance tree)"


#: How often at most the child tells the server its count of runs done (a run can take well under a microsecond).
_TELL_SECONDS = 0.1


def _simulate_worker(queue: Any, data: dict[str, Any], runs: int, seed: int, plan: list[dict[str, Any]] | None,
                     method: str, source: str, workers: int | None = None) -> None:
    """Run one simulation in the child process and send back its JSON and the processes it ran on (or the error
    line); on the way, why its runs are Monte Carlo games (``notice``) and, every ``_TELL_SECONDS`` at most and at
    the end, the runs done (``advance``)."""
    from ..simulate import simulate

    done, told = 0, time.monotonic()

    def advance(n: int) -> None:
        nonlocal done, told
        done += n
        if done >= runs or time.monotonic() - told >= _TELL_SECONDS:
            told = time.monotonic()
            queue.put(("advance", done))

    if workers is not None and workers > 1:
        # multiprocessing lets no daemonic process start children, lest they outlive it; this one's workers ask
        # Linux to end them with it (``parallel._quiet_worker``), and the server still ends it as a daemon
        multiprocessing.current_process().daemon = False
    try:
        result = simulate(data, runs, seed, plan, method, source, workers=workers,
                          notice=lambda why: queue.put(("notice", why)), advance=advance)
        queue.put(("ok", (to_jsonable(result.to_json()), result.workers)))
    except HerohammerError as exc:
        queue.put(("error", str(exc)))
    except Exception as exc:  # a fault of the engine: its words, rather than "the simulation stopped unexpectedly"
        queue.put(("error", unforeseen(exc)))


