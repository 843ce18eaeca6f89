"""Reliability round 44: what long random play and the simulator's and sweep's bad options found, each case a plain
sequence through the front door.

Found wrong (each first an xfail(strict=True) test here, shortest case):
1. ``sweep --scheduler ADDRESS`` where something that is not a Dask scheduler answers (an HTTP server, a proxy):
   Dask read the peer's first bytes as a frame length and ended the command in a ``MemoryError`` traceback
   ("Unable to allocate 3.07 EiB"), after a further 20 s wait while its half-made client closed.
2. ``sweep --scheduler ADDRESS`` where a peer accepts the connection and says nothing: the command waited for ever
   (Dask's handshake read has no deadline; its 10 s timeout covers the connection alone), a silent wait.

Fixed: 1 and 2. ``sweep._dial``, before ``_execute`` makes its Dask ``Client``: the connection and Dask's handshake
   on a thread and event loop of their own within ``sweep._DIAL_SECONDS`` (10 s), a peer that answers otherwise said
   to be no Dask scheduler, a silent one to have said nothing, each in one line naming ``--scheduler`` and the
   address (``run_sweep(scheduler=...)`` alike).  No ruling changed: no decision or book entry.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WHOLE_TURN = ROOT / "examples" / "40k3_whole_turn.yaml"


def _peer(answer: bytes | None) -> Iterator[str]:
    """A TCP peer on this machine that is not a Dask scheduler: it sends ``answer`` to what it reads, or stays
    silent (None); yields its address."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer is not None:
                try:
                    conn.recv(100)
                    conn.sendall(answer)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.fixture()
def http_peer() -> Iterator[str]:
    yield from _peer(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n" * 4)


@pytest.fixture()
def silent_peer() -> Iterator[str]:
    yield from _peer(None)


def _sweep_on(address: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``herohammer sweep`` of the 40k3 whole turn against ``address``, as a user runs it; its answer and time."""
    pytest.importorskip("dask.distributed")
    argv = [sys.executable, "-m", "herohammer", "sweep", str(WHOLE_TURN), "--vary",
            "sides.orks[0].models[0].profile.Ld=7,8", "--runs", "5", "--seed", "1", "--quiet",
            "--scheduler", address]
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    return done, time.monotonic() - start


def test_a_scheduler_address_where_another_service_answers_is_one_line(http_peer: str) -> None:
    done, took = _sweep_on(http_peer)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert len(err) == 1 and err[0].startswith("herohammer: error: --scheduler: "), err
    assert http_peer in err[0] and "answered, but not as a Dask scheduler" in err[0], err
    assert took < 40, took


def test_a_scheduler_address_where_a_silent_peer_listens_is_one_line_within_the_deadline(silent_peer: str) -> None:
    done, took = _sweep_on(silent_peer)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert len(err) == 1 and err[0].startswith("herohammer: error: --scheduler: "), err
    assert silent_peer in err[0] and "no answer" in err[0], err
    assert took < 40, took
