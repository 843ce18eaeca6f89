"""What the tests that send Ctrl-C to a command share: its process group read from /proc, and the interrupt itself."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def process_group(group: int) -> dict[int, float]:
    """Return the live processes of a process group with the CPU seconds each has used, from /proc."""
    members = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):  # a process that ended meanwhile
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return members


def stuck_report(proc: subprocess.Popen[str]) -> str:
    """Say where a command that did not end is stuck, for the next look at it: its process group (``ps``), then its
    Python threads' stacks, which faulthandler prints on SIGABRT when the command runs with ``PYTHONFAULTHANDLER=1``
    (the command is ended by it)."""
    group = subprocess.run(["ps", "-L", "-o", "pid,lwp,ppid,stat,wchan:24,args", "-g", str(proc.pid)],
                           capture_output=True, text=True).stdout
    os.kill(proc.pid, signal.SIGABRT)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        err = "(no stacks within 10 s of SIGABRT)"
    return f"its process group:\n{group}its stderr and threads' stacks:\n{err}"


def interrupt_when(proc: subprocess.Popen[str], ready: Callable[[], bool], never: str,
                   settle: float = 0.0) -> tuple[str, str, float]:
    """Wait (at most 120 s) until ``ready()``, send SIGINT to the command's process group as Ctrl-C does, and return
    its stdout, stderr and the seconds it took to end; the group is killed if anything fails meanwhile."""
    try:
        deadline = time.monotonic() + 120
        while not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, never
            time.sleep(0.05)
        time.sleep(settle)
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"no end within 30 s after Ctrl-C\n{stuck_report(proc)}") from None
        return out, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
