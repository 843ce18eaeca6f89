#!/usr/bin/env python3
"""Time every interaction of ``herohammer serve`` that needs no enumeration, over real HTTP on loopback.

Run on demand from the project root:   .venv/bin/python benchmarks/bench_web.py [--repeats N]

The app runs under uvicorn in a thread on 127.0.0.1; an httpx client asks what the page
asks (open a demo, draw the table, rule on a drag, list targets and legal actions, apply
and undo).  Each figure is the median and the 95th percentile of N requests, measured
with ``time.perf_counter`` around the whole HTTP round trip.  The target is 100 ms.
The first row (a request that does no engine work) is the floor the machine's load sets.
Odds and simulations are left out: they enumerate or sample, run as jobs and show progress.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx2 as httpx
from rich.console import Console
from rich.table import Table

from herohammer.web.api import create_app
from herohammer.web.server import listen, start_in_thread

TARGET_MS = 100.0
JOIN = {"do": "join", "character": "librarian", "unit": "tactical", "to": [20, 24.8]}
FAR = {"do": "join", "character": "librarian", "unit": "tactical", "to": [25, 20.6]}
MOVE = {"do": "move", "unit": "tactical", "to": [[20, 20], [22, 20], [24, 20], [26, 20], [28, 20]]}
CHARGE = {"do": "charge", "unit": "wizard", "target": "orc_archers"}


def timed(call: Callable[[], httpx.Response], repeats: int) -> list[float]:
    call()  # warm up (imports, caches)
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        r = call()
        out.append((time.perf_counter() - t0) * 1000)
        if r.status_code >= 400 and r.status_code != 409:
            raise SystemExit(f"unexpected {r.status_code}: {r.text}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    console = Console(width=100)
    console.print(f"[bold]herohammer serve[/bold]: {args.repeats} requests per interaction over HTTP on loopback")
    running = start_in_thread(create_app(), listen("127.0.0.1", 0))
    base = running.url
    http = httpx.Client(base_url=base, timeout=30)
    t40 = http.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"}).json()["table_id"]
    t9a = http.post("/api/tables", json={"demo": "demo_t9a_wizard_charges_out.yaml"}).json()["table_id"]

    def play_and_undo(tid: str) -> httpx.Response:
        http.post(f"/api/tables/{tid}/play", json={"actions": [{"do": "end_phase"}], "seed": 1})
        return http.post(f"/api/tables/{tid}/undo")

    cases: list[tuple[str, Callable[[], httpx.Response]]] = [
        ("baseline: list the demos (no engine work)", lambda: http.get("/api/demos")),
        ("open the 40k3 demo", lambda: http.post("/api/tables", json={"demo": "demo_40k3_librarian.yaml"})),
        ("draw the table (40k3)", lambda: http.get(f"/api/tables/{t40}")),
        ("drag: rule on a join (legal)", lambda: http.post(f"/api/tables/{t40}/check", json={"action": JOIN})),
        ("drag: rule on a join (illegal)", lambda: http.post(f"/api/tables/{t40}/check", json={"action": FAR})),
        ("drag: rule on a unit's move", lambda: http.post(f"/api/tables/{t40}/check", json={"action": MOVE})),
        ("select: targets of tactical", lambda: http.get(f"/api/tables/{t40}/targets", params={"unit": "tactical"})),
        ("select: legal actions (40k3)", lambda: http.get(f"/api/tables/{t40}/actions", params={"unit": "tactical"})),
        ("apply end_phase + undo (2 requests)", lambda: play_and_undo(t40)),
        ("open the t9a demo", lambda: http.post("/api/tables", json={"demo": "demo_t9a_wizard_charges_out.yaml"})),
        ("draw the table (t9a)", lambda: http.get(f"/api/tables/{t9a}")),
        ("rule on a charge out (t9a)", lambda: http.post(f"/api/tables/{t9a}/check", json={"action": CHARGE})),
        ("select: legal actions (t9a)", lambda: http.get(f"/api/tables/{t9a}/actions", params={"unit": "wizard"})),
        ("download the scenario (YAML)", lambda: http.get(f"/api/tables/{t40}/scenario", params={"download": "true"})),
    ]
    table = Table()
    for col in ("interaction", "median ms", "p95 ms", f"under {TARGET_MS:g} ms"):
        table.add_column(col, justify="left" if col == "interaction" else "right")
    worst = 0.0
    for name, call in cases:
        times = sorted(timed(call, args.repeats))
        median, p95 = statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]
        worst = max(worst, p95)
        table.add_row(name, f"{median:.1f}", f"{p95:.1f}", "yes" if p95 < TARGET_MS else "NO")
    console.print(table)
    console.print(f"worst p95: {worst:.1f} ms (target {TARGET_MS:g} ms); load average now "
                  f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    running.stop()
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
