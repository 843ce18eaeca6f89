"""``herohammer serve``: the table in a browser, on this machine only unless ``--host`` says otherwise."""

from __future__ import annotations

import argparse
import sys
import webbrowser
from typing import Any

from . import summary
from .args import say_notes, whole_number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``serve [SCENARIO] [--port N] [--host H] [--open]``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "serve", help=summary("serve"),
        description="Start a local web app over the engine. With no scenario it opens the bundled demo.")
    p.add_argument("scenario", nargs="?", help="scenario file (YAML or JSON) to open first; omit for the demo")
    p.add_argument("--port", type=whole_number("--port", 0, 65535), default=8040, help="port (0: any free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..scenario import read_data
    from ..web.api import create_app
    from ..web.server import listen
    from ..web.session import Store, demo_names, demo_text, parse_scenario_text

    store = Store()
    if args.scenario:
        first = store.open(read_data(args.scenario), args.scenario)  # a bad file: one line, exit 2, no server
    else:
        name = demo_names()[0]
        first = store.open(parse_scenario_text(demo_text(name), name), name)
    sock = listen(args.host, args.port)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/?table={first.id}"
    print(f"herohammer serve: {first.name} at {url}  (Ctrl+C stops)", flush=True)
    say_notes(first.game.state, False)  # the page opens this table by id: the load's notes are said here
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"herohammer serve: listening on {args.host}: other machines can reach this table", file=sys.stderr)
    if args.open:
        webbrowser.open(url)
    config = uvicorn.Config(create_app(store), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
    return 0
