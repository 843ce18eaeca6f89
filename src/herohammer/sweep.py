"""Sweeps: run a scenario over a grid of variants, locally, in processes, or on a Dask cluster.

A variant sets fields of the scenario data by *path*.  The path syntax:

* ``a.b.c`` walks mapping keys; ``[i]`` indexes a list (``sides.red[0]``);
* ``[name]`` (not a number) picks the list element whose ``id`` (or ``name``) is
  ``name``: ``sides.red[librarian].models[0]``;
* past a profile string (``...models[0].profile``) one more step names a
  characteristic inside it, case-insensitive: ``.profile.Ld`` turns
  ``"WS5 ... Ld10 Sv3+"`` into ``"WS5 ... Ld9 Sv3+"``; a characteristic not in the
  string is appended;
* values are read as YAML scalars: ``9`` is a number, ``true`` a bool, ``3+`` text.

``--vary PATH=V1,V2 --vary PATH2=W1,W2`` runs every combination, in the order of
``itertools.product``.  Variant ``i`` draws from the seed
``SeedSequence(seed, spawn_key=(i,))`` - derived from the sweep's seed and the
variant's index only, never from which worker runs it - so sequential, process-pool
and Dask runs give identical results.
"""

from __future__ import annotations

import copy
import functools
import itertools
import math
import re
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from . import __version__
from . import guards
from .errors import HerohammerError, ScenarioError
from .limits import ENGINE_MAX_RUNS, MAX_ACTION_CHARS, MAX_RUNS, MAX_VARIANTS, MAX_WORKERS, METHODS, LimitError
from .outcome_labels import UNIT_EVENTS
from .parallel import run_chunks, tell
from .profiles import DASHES
from .scenario import parse_text
from .simulate import IDENTITY_COLUMNS, canonical_hash, fresh_seed, identity_of, monte_carlo_notice, simulate

_STEP = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")
Job = tuple[dict[str, Any], list[dict[str, Any]] | None, int, int, str, str]


def parse_path(path: str) -> list[str | int]:
    """Split a path into keys (str) and list indices (int); a non-numeric ``[x]`` stays a str selector."""
    steps: list[str | int] = []
    pos = 0
    text = path.strip()
    if not text:
        raise HerohammerError("--vary: empty path")
    while pos < len(text):
        m = _STEP.match(text, pos)
        if m is None or m.end() == pos:
            raise HerohammerError(f"--vary: cannot read the path {path!r} at character {pos + 1}")
        key, index = m.group(1), m.group(2)
        if index is not None:
            steps.append(int(index) if index.lstrip("-").isdigit() else f"[{index}]")
        else:
            steps.append(key)
        pos = m.end()
    return steps


def _split_top_level(raw: str) -> list[str]:
    """Split on commas outside brackets, so ``[1,2],[3,4]`` gives two values."""
    parts, depth, current = [], 0, ""
    for ch in raw:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _scalar(text: str) -> Any:
    """Read one value as YAML; '-' and '*' stay text (a profile's dash), a bad one fails naming it."""
    text = text.strip()
    if text == "" or text in DASHES:
        return text
    try:
        return parse_text(text, "YAML", "--vary", MAX_ACTION_CHARS)
    except ScenarioError:
        raise HerohammerError(f"--vary: cannot read the value {text!r} (YAML scalars or [lists])") from None


#: A range of whole numbers in a --vary value, ends included: ``Ld=6..10``.
_RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*")


def _expanded(path: str, text: str) -> list[Any]:
    """Read one --vary value, or a range ``LO..HI`` as every whole number from LO to HI (a characteristic swept
    over 2..10 is nine values to type otherwise); an empty range is refused, not a sweep of nothing."""
    found = _RANGE.fullmatch(text)
    if found is None:
        return [_scalar(text)]
    low, high = int(found.group(1)), int(found.group(2))
    if low > high:
        raise HerohammerError(f"--vary {path}: the range {text.strip()} is empty (LO..HI takes LO at most HI)")
    if high - low >= MAX_VARIANTS:
        raise LimitError(f"--vary {path}: the range {text.strip()} has {high - low + 1:,} values, more than the "
                         f"limit of {MAX_VARIANTS:,} variants")
    return list(range(low, high + 1))


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """Read ``PATH=V1,V2,...`` into the path and its values (YAML scalars, or ``LO..HI`` ranges of whole numbers)."""
    if "=" not in text:
        raise HerohammerError(f"--vary: expected PATH=V1,V2,..., got {text!r}")
    path, _, raw = text.partition("=")
    path = path.strip()
    if raw.strip() == "":
        raise HerohammerError(f"--vary {path}: no values given")
    parse_path(path)
    return path, [v for part in _split_top_level(raw) for v in _expanded(path, part)]


def _select(container: Any, step: str | int, path: str) -> Any:
    if isinstance(step, int):
        if not isinstance(container, list) or not -len(container) <= step < len(container):
            raise HerohammerError(f"--vary {path}: no element [{step}] there")
        return step
    if step.startswith("["):
        name = step[1:-1]
        if not isinstance(container, list):
            raise HerohammerError(f"--vary {path}: [{name}] selects from a list, found {type(container).__name__}")
        for i, item in enumerate(container):
            if isinstance(item, Mapping) and name in (item.get("id"), item.get("name")):
                return i
        raise HerohammerError(f"--vary {path}: no element with id or name {name!r}")
    if not isinstance(container, dict):
        raise HerohammerError(f"--vary {path}: {step!r} is a key, but the value there is a {type(container).__name__}")
    return step


def set_profile_value(profile: str, characteristic: str, value: Any) -> str:
    """Return a profile string with one characteristic set (``Ld`` in ``"WS4 ... Ld8"``)."""
    tokens = profile.split()
    want = characteristic.lower()
    text = str(value)
    for i, token in enumerate(tokens):
        m = re.match(r"^([A-Za-z]+)", token)
        if m and m.group(1).lower() == want:
            tokens[i] = m.group(1) + text
            return " ".join(tokens)
    return " ".join([*tokens, characteristic + text])


def set_path(data: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """Return a deep copy of scenario data with the field at ``path`` set to ``value``."""
    out: dict[str, Any] = copy.deepcopy(dict(data))
    steps = parse_path(path)
    node: Any = out
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        if isinstance(node, str):
            if depth != len(steps) - 1 or steps[depth - 1] != "profile":
                raise HerohammerError(f"--vary {path}: only a profile string can be entered with a characteristic")
            raise AssertionError  # pragma: no cover - handled below
        key = _select(node, step, path)
        if last:
            node[key] = value
            break
        child = node[key] if isinstance(key, int) or key in node else None
        nxt = steps[depth + 1]
        if child is None and (isinstance(nxt, int) or nxt.startswith("[")):  # a list cannot be made up here
            keys = ", ".join(map(str, node)) if isinstance(node, dict) else ""
            raise HerohammerError(f"--vary {path}: no {key!r} there" + (f" (there: {keys})" if keys else ""))
        if child is None:
            child = node[key] = {}
        if isinstance(child, str) and step == "profile" and depth + 1 == len(steps) - 1 and isinstance(nxt, str):
            if isinstance(value, bool) or not isinstance(value, (int, str)):  # spliced in, it read as "Ld[1,"
                raise HerohammerError(f"--vary {path}: a characteristic takes one value (a whole number, '-' or '*', "
                                      f"or a save such as 3+), got {value!r}")
            node[key] = set_profile_value(child, nxt, value)
            break
        if isinstance(child, dict) and step == "profile" and isinstance(nxt, str):
            match = next((k for k in child if k.lower() == nxt.lower()), nxt)
            child[match] = value
            break
        node = child
    return out


def grid(varies: Sequence[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
    """Return every combination of the varied values, as {path: value}, in product order."""
    paths = [p for p, _ in varies]
    return [dict(zip(paths, combo)) for combo in itertools.product(*(v for _, v in varies))]


def variant_seed(seed: int, index: int) -> int:
    """Return variant ``index``'s seed: from the sweep's seed and the index alone."""
    return int(np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1, np.uint64)[0])


def run_job(job: Job, notice: Callable[[str], None] | None = None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Simulate one variant; return its JSON result and its load notes (a top-level function, so processes can
    pickle it).  ``notice``: simulate's, the variant's switch to Monte Carlo said before its runs."""
    data, plan, runs, seed, method, source = job
    result = simulate(data, runs, seed, plan, method, source, notice=notice)
    return result.to_json(), result.notes


def _run_job_telling(job: Job) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``run_job`` on a worker process: the switch to Monte Carlo told to the command at once (``parallel.tell``)."""
    return run_job(job, tell)


class VariantDropped(Exception):
    """Raised inside a variant running on a Dask worker whose sweep has dropped it (``run_job_on_dask``)."""


def run_job_on_dask(job: Job, index: int = 0, topic: str | None = None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Simulate one variant on a Dask worker, and stop as soon as the scheduler drops it (the sweep's Ctrl-C).

    Why: Dask cannot stop a task that has started - its thread runs to the end, minutes of a cluster's core on a
    variant nobody waits for, and the next sweep queued behind it.  A watcher thread looks every
    ``_WATCH_SECONDS`` at this task's state on the worker and, once it is cancelled or released, raises
    ``VariantDropped`` in the task's thread (``PyThreadState_SetAsyncExc``: taken at the thread's next Python step;
    again at each look until the task ends, as one taken inside a garbage collector's callback is lost).
    The watcher acts under a lock the task takes before it returns, so the exception is never raised outside it.
    ``topic``: the variant's switch to Monte Carlo (variant ``index``) is logged under it, which the sweep's client
    hears before the runs end (``_execute``).  Elsewhere (no Dask worker: a plain call) it is ``run_job``.
    """
    try:
        from distributed import get_worker
        from distributed.worker import thread_state  # type: ignore[attr-defined]

        worker, key = get_worker(), thread_state.key
    except (ImportError, ValueError, AttributeError):  # not on a Dask worker
        return run_job(job)

    def notice(line: str) -> None:
        if topic is not None:
            worker.log_event(topic, [index, line])
    import ctypes

    me = threading.get_ident()
    lock = threading.Lock()
    finished = threading.Event()

    def watch() -> None:
        # raised again each look until the task has ended: one taken while a garbage collector's callback runs in the
        # task's thread (distributed's GCDiagnosis) is only printed as "Exception ignored", and the variant played on
        while not finished.wait(_WATCH_SECONDS):
            task = worker.state.tasks.get(key)
            if task is None or task.state in ("cancelled", "released", "forgotten"):
                with lock:
                    if not finished.is_set():
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(me), ctypes.py_object(VariantDropped))

    threading.Thread(target=watch, name="herohammer-variant-watch", daemon=True).start()
    try:
        return run_job(job, notice)
    finally:
        with lock:  # no VariantDropped can be raised in this thread after this block (taken here at the latest)
            finished.set()


#: How often a variant on a Dask worker looks whether its sweep still wants it (``run_job_on_dask``).
_WATCH_SECONDS = 0.2


def sweep_notes(per_variant: Sequence[Sequence[str]]) -> list[str]:
    """Say each variant's load notes (``scenario.scenario_notes``) once for the sweep, in the order first seen.

    A note that only some variants have (a ``--vary`` of a unit's ``rules`` or ``models``) names them by index.
    """
    where: dict[str, list[int]] = {}
    for i, notes in enumerate(per_variant):
        for note in notes:
            where.setdefault(note, []).append(i)
    return [note if len(at) == len(per_variant) else
            f"{note} (variant{'s' * (len(at) > 1)} {', '.join(map(str, at))} of {len(per_variant)})"
            for note, at in where.items()]


def run_sweep(
    data: Mapping[str, Any],
    varies: Sequence[tuple[str, list[Any]]],
    runs: int,
    seed: int | None = None,
    plan: list[dict[str, Any]] | None = None,
    method: str = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    source: str = "<scenario>",
    advance: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run every variant of the grid; return the sweep's identity, each variant's result and the load notes.

    The cost (variants x runs) is checked against the limits before any variant is built
    (``sweep_cost``); ``advance(1)`` is called as each variant finishes, for a progress bar.
    ``notes``: what no rule reads in the variants, each said once (``sweep_notes``).
    ``notice`` hears, once per variant whose exact enumeration is refused, why its runs are played as Monte Carlo
    games, before they play (simulate's ``notice``, named by the variant's index and ``--vary`` values), from a
    worker process or a Dask worker too; one a cluster's message did not bring in time is said as the variant ends.
    """
    guards.mapping(data, "run_sweep", "data")
    guards.hook(notice, "run_sweep", "notice", "one line of text")
    guards.hook(advance, "run_sweep", "advance", "a count of variants")
    guards.instance(source, str, "run_sweep", "source", "the scenario's name (text)")
    varies = checked_varies(varies)
    runs = guards.whole(runs, "run_sweep", "runs", 1, MAX_RUNS)
    seed = guards.seed(seed, "run_sweep")
    plan = None if plan is None else [dict(p) for p in guards.mappings(plan, "run_sweep", "plan")]
    method = guards.choice(method, "run_sweep", "method", METHODS)
    workers = None if workers is None else guards.whole(workers, "run_sweep", "workers", 1, MAX_WORKERS)
    if scheduler is not None:
        guards.instance(scheduler, str, "run_sweep", "scheduler", "a Dask scheduler address (text)")
        if workers is not None:  # the cluster would run it and the processes asked for be dropped unsaid
            raise HerohammerError("sweep: give --workers (local processes) or --scheduler (a Dask cluster), not both")
        check_scheduler(scheduler)
    sweep_cost(varies, runs, method)
    seed = fresh_seed() if seed is None else seed
    variants = grid(varies)
    jobs: list[Job] = []
    for i, values in enumerate(variants):
        variant = dict(data)
        for path, value in values.items():
            variant = set_path(variant, path, value)
        jobs.append((variant, plan, runs, variant_seed(seed, i), method, f"{source} variant {i}"))
    check_variants(data, varies, plan, source, variants)
    told: set[int] = set()
    telling = threading.Lock()  # a Dask client hears on its own thread

    def said(i: int, line: str) -> None:  # each variant's switch once, however many ways it came
        with telling:
            if notice is None or i in told:
                return
            told.add(i)
            notice(f"variant {i} ({', '.join(f'{p}={v}' for p, v in variants[i].items())}): {line}")

    done = _execute(jobs, workers, scheduler, advance or (lambda n: None), said)
    results = [r for r, _ in done]
    for i, r in enumerate(results):  # a Dask message that came after its variant's result
        if r.get("too_large"):
            said(i, monte_carlo_notice(r["too_large"], runs))
    rulesets = {r.get("ruleset") for r in results}
    return {
        "herohammer_version": __version__,
        "scenario": source,
        "ruleset": rulesets.pop() if len(rulesets) == 1 else None,  # None: a --vary of the ruleset itself
        "scenario_sha256": canonical_hash(dict(data)),
        "seed": seed,
        "runs": runs,
        "vary": {p: v for p, v in varies},
        "variants": [{"index": i, "values": values, "result": r}
                     for i, (values, r) in enumerate(zip(variants, results))],
        "notes": sweep_notes([n for _, n in done]),
    }


def check_variants(data: Mapping[str, Any], varies: Sequence[tuple[str, list[Any]]],
                   plan: list[dict[str, Any]] | None, source: str,
                   variants: list[dict[str, Any]] | None = None) -> None:
    """Refuse, before any run, a --vary value the scenario schema refuses: every value is checked in the first
    variant holding it (a few variants, not the grid), and the refusal names the values that variant was built of."""
    from .simulate import prepare

    variants = grid(varies) if variants is None else variants
    first: dict[tuple[str, str], int] = {}  # the first variant holding each --vary value
    for i, values in enumerate(variants):
        for path, value in values.items():
            first.setdefault((path, repr(value)), i)
    for i in sorted(set(first.values())):
        variant = dict(data)
        for path, value in variants[i].items():
            variant = set_path(variant, path, value)
        try:
            prepare(variant, plan, f"{source} variant {i}")
        except ScenarioError as exc:  # name the --vary values the variant was built of, not only its index
            given = ", ".join(f"{path}={value}" for path, value in variants[i].items())
            raise ScenarioError(f"{exc.source} (--vary {given})", exc.field, exc.problem) from None


def checked_varies(varies: Any) -> list[tuple[str, list[Any]]]:
    """Return ``varies`` as (path, values) pairs, refusing anything else naming the parameter."""
    expected = "a list of (path, values) pairs, as parse_vary returns"
    if isinstance(varies, (str, bytes, Mapping)) or not isinstance(varies, Sequence):
        raise guards.ArgumentError("run_sweep", "varies", expected, varies)
    if not varies:
        raise HerohammerError("sweep: give at least one --vary PATH=V1,V2,...")
    out: list[tuple[str, list[Any]]] = []
    fields: dict[tuple[Any, ...], str] = {}  # each field's steps, names in lower case, with the path first naming it
    for i, pair in enumerate(varies):
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[0], str)
                or isinstance(pair[1], (str, bytes, Mapping)) or not isinstance(pair[1], Sequence) or not pair[1]):
            raise guards.ArgumentError("run_sweep", f"varies[{i}]", "a (path, non-empty list of values) pair", pair)
        steps = tuple(x.lower() if isinstance(x, str) else x for x in parse_path(pair[0]))
        twice = fields.get(steps)
        fields.setdefault(steps, pair[0])
        if twice is not None:  # the later --vary would set the field over the earlier: its column would lie
            raise HerohammerError(f"--vary {pair[0]}: the same field as --vary {twice}; give its values once "
                                  f"(--vary {pair[0]}=V1,V2,...)")
        seen: list[Any] = []
        for value in pair[1]:
            if any(type(v) is type(value) and v == value for v in seen):  # 8 and 8.0 and '8' are apart
                raise HerohammerError(f"--vary {pair[0]}: the value {value!r} is given twice (two variants alike)")
            seen.append(value)
        out.append((pair[0], list(pair[1])))
    return out


def sweep_cost(varies: Sequence[tuple[str, Sequence[Any]]], runs: int, method: str = "auto") -> tuple[int, int]:
    """Return (variants, runs in all), refusing a sweep past the stated limits before any variant is built.

    Why: the grid is the product of every ``--vary``'s values, so a few long lists ask
    for millions of simulations; counting first costs nothing, building them could not end.
    """
    guards.choice(method, "sweep_cost", "method", METHODS)
    variants = math.prod(len(values) for _, values in varies)
    if variants > MAX_VARIANTS:
        raise LimitError(f"sweep: {variants:,} variants (the product of the --vary values), "
                         f"more than the limit of {MAX_VARIANTS:,}")
    total = variants * runs
    cap, why = (ENGINE_MAX_RUNS, "engine runs (--method engine plays one game per run)") if method == "engine" \
        else (MAX_RUNS, "runs")
    if total > cap:
        raise LimitError(f"sweep: {variants:,} variants x {runs:,} runs = {total:,} {why}, more than the limit "
                         f"of {cap:,}; give fewer --runs or fewer values")
    return variants, total


#: A Dask scheduler's address: ``tcp://HOST:PORT`` (or another of Dask's protocols, or ``HOST:PORT``), or an
#: in-process cluster's ``inproc://...``.
_SCHEDULER = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})|inproc://\S+")


def check_scheduler(address: str) -> str:
    """Refuse a scheduler address Dask cannot dial before anything runs (its client would hang on closing)."""
    m = _SCHEDULER.fullmatch(address)
    if m is None or (m.group(1) is not None and not 1 <= int(m.group(1)) <= 65535):
        raise HerohammerError(f"--scheduler {address!r}: expected a Dask scheduler's address such as "
                              "tcp://127.0.0.1:8786 (a host and a port from 1 to 65535)")
    return address


def _execute(jobs: list[Job], workers: int | None, scheduler: str | None, advance: Callable[[int], None],
             said: Callable[[int, str], None] | None = None) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    """Run the variants here, on local processes or on a Dask cluster; ``said(i, line)`` hears variant ``i``'s
    switch to Monte Carlo as it happens, ``advance(1)`` each variant as it ends."""
    said = said or (lambda i, line: None)
    if scheduler:
        try:
            from dask.distributed import Client, as_completed
        except ImportError:  # pragma: no cover - dask is an optional extra
            raise HerohammerError("--scheduler needs dask: pip install 'herohammer[dask]'") from None
        _dial(scheduler)
        try:
            client = Client(scheduler, set_as_default=False,  # type: ignore[no-untyped-call]
                            timeout=f"{_DIAL_SECONDS}s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise HerohammerError(f"--scheduler: cannot reach a Dask scheduler at {scheduler!r} ({exc})") from None
        futures: list[Any] = []
        topic = f"herohammer-sweep-{uuid.uuid4().hex}"  # this sweep's own: another sweep's variants are not heard
        try:
            client.subscribe_topic(topic, lambda event: said(*event[1]))  # type: ignore[no-untyped-call]
            futures = client.map(run_job_on_dask, jobs, range(len(jobs)), pure=False, topic=topic)
            for _ in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                advance(1)  # each variant as it finishes, as on processes (was every one at the end)
            return list(client.gather(futures))  # type: ignore[no-untyped-call]
        except BaseException:  # Ctrl-C, or a variant's error: nothing more of this sweep is wanted
            _cancel(client, futures)
            raise
        finally:
            _close(client)
    out: list[tuple[dict[str, Any], tuple[str, ...]]] = []
    if workers and workers > 1:  # the variants on a pool of processes, the bar moved as each finishes
        return run_chunks(_run_job_telling, jobs, workers, lambda i, result: advance(1), told=said)
    for i, job in enumerate(jobs):
        out.append(run_job(job, functools.partial(said, i)))
        advance(1)
    return out


#: How long a Dask scheduler is given to take the connection and to answer Dask's handshake.
_DIAL_SECONDS = 10


def _dial(address: str) -> None:
    """Connect to ``address`` and read Dask's handshake within ``_DIAL_SECONDS``, before a ``Client`` is made.

    Dask's own client reads the handshake with no deadline (a peer that accepts and says nothing: a wait for
    ever) and reads what another service answers as a frame's length (an HTTP server: a ``MemoryError``, then a
    20 s wait while the half-made client closes).  The dial runs on its own thread and event loop, so a caller's
    running loop is no obstacle and nothing of it outlives the deadline.
    """
    import asyncio

    from distributed.comm.core import connect

    outcome: list[BaseException | None] = []

    async def shake() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=_DIAL_SECONDS),  # type: ignore[no-untyped-call]
                                      _DIAL_SECONDS + 2)
        comm.abort()

    def run() -> None:
        try:
            asyncio.run(shake())
            outcome.append(None)
        except BaseException as exc:  # told to the caller below, in one line
            outcome.append(exc)

    dialer = threading.Thread(target=run, name="herohammer-dask-dial", daemon=True)
    dialer.start()
    dialer.join(_DIAL_SECONDS + 5)
    if outcome and outcome[0] is None:
        return
    exc = outcome[0] if outcome else TimeoutError()
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        raise HerohammerError(f"--scheduler: no answer from {address!r} within {_DIAL_SECONDS} s "
                              "(something took the connection but said nothing: is a Dask scheduler there?)")
    if isinstance(exc, OSError):
        raise HerohammerError(f"--scheduler: cannot reach a Dask scheduler at {address!r} ({exc})")
    raise HerohammerError(f"--scheduler: {address!r} answered, but not as a Dask scheduler "
                          f"({type(exc).__name__}: {str(exc)[:120]})")


#: At most this long is spent telling a Dask scheduler to drop a sweep's variants and closing the connection
#: after Ctrl-C (or an error): the command ends at once, whatever state the cluster is in.
_DASK_LET_GO_SECONDS = 2


def _cancel(client: Any, futures: Sequence[Any]) -> None:
    """Ask the scheduler to drop every variant of the sweep, pending and running (``force``: even those another
    client also holds), without waiting on the answer; a cluster already gone is no reason to wait either."""
    if not futures:
        return
    try:
        client.cancel(list(futures), force=True, asynchronous=False)  # one message to the scheduler
    except Exception:  # pragma: no cover - the scheduler is unreachable: closing below is all that is left
        pass


def _close(client: Any) -> None:
    """Close the client without waiting longer than ``_DASK_LET_GO_SECONDS`` on the scheduler."""
    try:
        client.close(timeout=_DASK_LET_GO_SECONDS)
    except Exception:  # pragma: no cover - a scheduler that does not answer: the command ends all the same
        pass


def pick_outcomes(sweep: Mapping[str, Any], wanted: Sequence[str] = (), limit: int = 4,
                  checked: bool = False) -> list[str]:
    """Choose the outcome labels to tabulate: those asked for, else those that vary most across variants.

    The spread is measured on the exact values where known (else the frequencies), and
    an outcome whose column would repeat one already chosen is left out.  ``checked``:
    ``wanted`` passed ``check_outcomes``, so one no run showed is tabulated at 0%, its answer.
    """
    labels: dict[str, None] = {}
    for v in sweep["variants"]:
        for row in v["result"]["outcomes"]:
            labels.setdefault(row_label(row), None)
    if wanted:
        unknown = [w for w in wanted if w not in labels]
        if unknown and not checked:
            raise HerohammerError(f"--outcome {unknown[0]!r}: no such outcome in this sweep; outcomes: "
                                  + "; ".join(labels))
        return list(wanted)
    columns = []
    for label in labels:
        cells = [cell(v["result"], label) for v in sweep["variants"]]
        vector = tuple(round(e if e is not None else s, 12) for s, e in cells)
        columns.append((max(vector) - min(vector), vector, label))
    columns.sort(key=lambda c: -c[0])
    chosen: list[str] = []
    seen: set[tuple[float, ...]] = set()
    for _, vector, label in columns:
        if vector in seen:
            continue
        seen.add(vector)
        chosen.append(label)
        if len(chosen) == limit:
            break
    return chosen


def row_label(row: Mapping[str, Any]) -> str:
    """Return a JSON row's label as the table shows it."""
    from .simulate import Row

    return Row(row["outcome"], row["value"], 0, 0, None).label


def cell(result: Mapping[str, Any], label: str) -> tuple[float, float | None]:
    """Return a variant's simulated and exact probability of an outcome label (0 when it never happened)."""
    for row in result["outcomes"]:
        if row_label(row) == label:
            return float(row["probability"]), row["exact_float"]
    return 0.0, (0.0 if result.get("method") == "compiled" else None)


def outcome_row(result: Mapping[str, Any], label: str) -> dict[str, Any]:
    """Return a variant's JSON row of an outcome label; one that no run showed is its count-0 row (interval and all)."""
    from .action_odds import wilson

    for row in result["outcomes"]:
        if row_label(row) == label:
            return dict(row)
    compiled = result.get("method") == "compiled"
    return {"outcome": label, "value": None, "count": 0, "probability": 0.0, "ci95": list(wilson(0, result["runs"])),
            "exact": "0" if compiled else None, "exact_float": 0.0 if compiled else None}


def sweep_csv(sweep: Mapping[str, Any], labels: Sequence[str] = ()) -> str:
    """Return a sweep as CSV text: one row per variant and outcome, the varied values first, then simulate's columns.

    ``labels`` (``--outcome``): only those outcomes, one row each per variant, a variant that never
    saw one given its count 0 (the row a spreadsheet's chart of the grid needs), not left out.
    """
    import csv
    import io

    sweep = guards.mapping(sweep, "sweep_csv", "sweep")  # run_sweep's answer
    paths = list(sweep["vary"])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*paths, "outcome", "value", "count", "runs", "probability", "ci95_low", "ci95_high", "exact",
                     "exact_float", *IDENTITY_COLUMNS])
    for v in sweep["variants"]:
        result = v["result"]
        values = [v["values"][p] for p in paths]
        identity = identity_of(result)  # the variant's own seed and hash: simulate on the variant gives its rows
        found = [outcome_row(result, label) for label in labels] if labels else result["outcomes"]
        for r in found:
            lo, hi = r["ci95"]
            writer.writerow([*values, r["outcome"], "" if r["value"] is None else r["value"], r["count"],
                             result["runs"], f"{r['probability']:.6f}", f"{lo:.6f}", f"{hi:.6f}", r["exact"] or "",
                             "" if r["exact_float"] is None else f"{r['exact_float']:.6f}", *identity])
    return buf.getvalue()


#: Runs of the first variant played to learn which events a scenario's runs produce (``check_outcomes``).
TRIAL_RUNS = 200


#: What a unit's outcome says after its id (``outcome_labels``): losses with a count, whom it is with, destroyed
#: (and the words of the events that say what became of one unit, ``outcome_labels.UNIT_EVENTS``).
_UNIT_OUTCOME = re.compile(r"(models lost|wounds lost) = \d+|joined = .+|destroyed")


def _unit_outcome(label: str, units: set[str]) -> bool | None:
    """Say whether a label naming a unit of the scenario is one it can have (None: the label names no unit)."""
    from .units import Status

    unit, sep, what = label.partition(": ")
    if not sep or unit not in units:
        return None
    return bool(_UNIT_OUTCOME.fullmatch(what)) or what in set(Status) or what in UNIT_EVENTS.values()


def _event_kind(label: str) -> str:
    """Return the event kind a label starts with: ``panic`` of ``panic.outcome: passed = 1``."""
    return re.split(r"\.|: | = ", label, maxsplit=1)[0]


def check_outcomes(data: Mapping[str, Any], varies: Sequence[tuple[str, list[Any]]], wanted: Sequence[str],
                   seed: int, plan: list[dict[str, Any]] | None = None, method: str = "auto",
                   source: str = "<scenario>", trial: Callable[[int], None] | None = None) -> None:
    """Refuse an ``--outcome`` no run of the sweep can show, before the first variant runs.

    A unit's outcomes are known from the scenario (its ids, losses, statuses).  What events
    a run produces is known only by playing: a label that is not a unit's is checked
    against a trial of ``TRIAL_RUNS`` runs of the first variant (``trial(TRIAL_RUNS)`` is
    called first, so the caller can say so); an event of a kind the trial saw is accepted,
    since a rarer result of it may show in a longer run.
    """
    from .simulate import prepare

    first = dict(data)
    for path, values in varies:
        first = set_path(first, path, values[0])
    state = prepare(first, plan, source)[0]
    units = {u.id for u in state.units}
    for w in wanted:
        if _unit_outcome(w, units) is False:
            from .units import Status

            unit, _, what = w.partition(": ")
            raise HerohammerError(f"--outcome {w!r}: {unit} has no outcome {what!r}; a unit's outcomes are models "
                                  f"lost = N, wounds lost = N, joined = ID, destroyed, {', '.join(UNIT_EVENTS.values())}, "
                                  "or a status: "
                                  + ", ".join(Status))
    unsure = [w for w in wanted if _unit_outcome(w, units) is None]
    if not unsure:
        return
    if trial is not None:
        trial(TRIAL_RUNS)
    rows = simulate(first, TRIAL_RUNS, seed, plan, method, source).to_json()["outcomes"]
    seen = [row_label(r) for r in rows]
    kinds = {_event_kind(label) for label in seen if _unit_outcome(label, units) is None}
    for w in unsure:
        if w not in seen and _event_kind(w) not in kinds:
            raise HerohammerError(
                f"--outcome {w!r}: no such outcome: not a unit's outcome (units: {', '.join(sorted(units))}) and no "
                f"event of kind {_event_kind(w)!r} in a trial of {TRIAL_RUNS} runs of the first variant; "
                "outcomes seen: " + "; ".join(seen))
