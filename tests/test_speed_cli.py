"""The command line answers ``--version`` and ``--help`` without loading the heavy libraries."""

from __future__ import annotations

import re
import subprocess
import sys

HEAVY = ("numpy", "pydantic", "rich", "shapely")


def test_version_loads_no_heavy_library() -> None:
    code = ("import sys; from herohammer.cli import main; status = main(['--version']); "
            f"print(status, sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("herohammer ")
    assert out[1] == "0 []"


def _loaded_after(argv: list[str], watched: tuple[str, ...] = HEAVY) -> tuple[str, list[str]]:
    """Run ``main(argv)`` in a fresh interpreter; return what it printed and the watched modules it loaded."""
    code = ("import io, sys, contextlib; from herohammer.cli import main; buf = io.StringIO()\n"
            "with contextlib.redirect_stdout(buf):\n"
            "    try: main(%r)\n"
            "    except SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(%r))); print(buf.getvalue())" % (argv, watched))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded, _, printed = out.partition("\n")
    return printed, eval(loaded)  # a list literal printed by the child


def test_help_lists_every_command_without_importing_them_or_a_heavy_library() -> None:
    from herohammer.commands import COMMANDS

    printed, loaded = _loaded_after(["--help"], (*HEAVY, "herohammer.commands."))
    assert loaded == []
    for command in COMMANDS:
        assert f"    {command.name} " in printed, command.name  # listed with its one-line help


def test_a_command_imports_only_what_it_needs_and_its_full_help_is_there() -> None:
    printed, loaded = _loaded_after(["rules", "--help"], ("herohammer.commands.", "fastapi", "matplotlib"))
    assert "--ruleset" in printed
    assert loaded == ["herohammer.commands.args", "herohammer.commands.rules_cmd"]


def test_a_mistyped_command_is_refused_naming_every_command(capsys: object) -> None:
    from herohammer.cli import main
    from herohammer.commands import COMMANDS

    try:
        main(["simulat"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "no command 'simulat'; did you mean simulate? (commands: " in err and all(c.name in err for c in COMMANDS)


def test_simulate_prints_each_demo_heading_before_its_table_and_quiet_changes_nothing_else(capsys: object) -> None:
    from herohammer.cli import main

    assert main(["simulate", "--runs", "200", "--quiet"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert out.splitlines()[0].startswith("herohammer simulate: the bundled demos")
    first_demo = out.index("demo_40k3")
    assert first_demo < out.index("method: compiled")  # the heading comes first, then the table and its method
    assert main(["simulate", "--runs", "200"]) == 0
    again = capsys.readouterr().out  # type: ignore[attr-defined]
    timings = re.compile(r"\(\d+\.\d+ s\)")
    assert timings.sub("", again) == timings.sub("", out)
