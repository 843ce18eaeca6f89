"""Listening for the page: one socket, set up so that answers on a kept-alive connection are not delayed.

Why TCP_NODELAY: uvicorn writes a response's head and body separately; with Nagle's
algorithm on, the body waits for the browser's delayed ACK of the head (about 40 ms on
Linux) on every request of a kept-alive connection.  Accepted connections inherit the
option from the listening socket.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..errors import HerohammerError


def listen(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """Bind a listening socket (port 0: any free one), or refuse in one line naming host and port."""
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError as exc:
        raise HerohammerError(f"--host/--port: cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    except (UnicodeError, TypeError, ValueError):  # a name the IDNA codec cannot encode (a label over 63 letters)
        raise HerohammerError(f"--host {host[:80]!r}: not a host name or address (labels of at most 63 "
                              "characters)") from None
    return sock


@dataclass
class Running:
    """A server running in a thread (tests, benchmarks, screenshots): its address, and how to stop it."""

    server: Any
    thread: threading.Thread
    url: str

    def stop(self) -> None:
        """Ask uvicorn to finish and wait for its thread."""
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_in_thread(app: Any, sock: socket.socket) -> Running:
    """Run ``app`` under uvicorn in a daemon thread; return once it listens."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="herohammer-serve")
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    host, port = sock.getsockname()[:2]
    return Running(server, thread, f"http://{host}:{port}")
