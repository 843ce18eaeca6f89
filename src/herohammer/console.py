"""The console script ``herohammer`` (and ``python -m herohammer``): a Ctrl-C while the command line loads ends as one.

``cli.main`` answers a Ctrl-C with one line and exit status 130, but only once it runs; the
command line's own imports come first. Catching the interrupt around them too leaves only
the interpreter's start-up (a few tens of milliseconds) to Python's own traceback.
"""

from __future__ import annotations

import signal
import sys

INTERRUPTED = "herohammer: interrupted; nothing was written"


def main() -> int:
    """Load the command line and run the command given on it; 130 after a Ctrl-C at any moment of either."""
    try:
        from .cli import main as run_command
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while it winds up, as cli.main does
        print(INTERRUPTED, file=sys.stderr)
        return 130
    return run_command()
