"""``herohammer simulate`` and ``herohammer sweep``: many games, summarised; grids of variants.

The simulator, numpy, pydantic and shapely take most of a second to import, so this
module imports them only inside the functions that use them: the demos' header line
is on the screen first (issue 11: the main job starts printing at once).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..limits import MAX_RUNS, MAX_WORKERS, METHODS
from . import summary
from .args import say, say_notes, whole_number, worker_count

if TYPE_CHECKING:
    from rich.console import Console

    from ..simulate import SimulationResult

DEMO_RUNS = 100_000
DEMO_SEED = 1


def register_simulate(sub: Any) -> argparse.ArgumentParser:
    """Add ``simulate``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate", help=summary("simulate"),
        description="Play a scenario's plan (or the default policy) N times. With no scenario, run the bundled demos.")
    p.add_argument("scenario", nargs="?", help="scenario file (YAML or JSON); omit for the bundled demos")
    p.add_argument("--runs", type=whole_number("--runs", 1, MAX_RUNS), default=DEMO_RUNS, help="number of runs")
    p.add_argument("--seed", type=whole_number("--seed", 0, 2**64 - 1), default=None,
                   help="seed (a fresh one is drawn and printed if omitted)")
    p.add_argument("--actions", help="plan file: a YAML/JSON list of action objects (instead of the scenario's plan)")
    p.add_argument("--method", choices=METHODS, default="auto",
                   help="compiled: enumerate the chance tree once, sample with numpy; engine: one game per run")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (seed, scenario hash, version, rows)")
    out.add_argument("--csv", action="store_true", help="print the rows as CSV")
    p.add_argument("--workers", type=worker_count("--workers", MAX_WORKERS), default=None, metavar="N|auto",
                   help="play the Monte Carlo runs on N local processes (auto: the cores this process may use); "
                        "the same --seed gives the same counts for every N; an exact enumeration stays in one process")
    p.add_argument("--plot", metavar="FILE.png", help="draw the outcome distributions to a PNG file")
    p.add_argument("--quiet", action="store_true", help="no progress bar on the terminal")
    p.set_defaults(run=_run_simulate)
    return p


def register_sweep(sub: Any) -> argparse.ArgumentParser:
    """Add ``sweep``."""
    s: argparse.ArgumentParser = sub.add_parser(
        "sweep", help=summary("sweep"),
        description="Simulate every combination of the --vary values (each a variant of the scenario, its seed from "
                    "the sweep's seed and its index) and tabulate the outcomes that differ most, or those --outcome "
                    "names.")
    s.add_argument("scenario", help="scenario file (YAML or JSON)")
    s.add_argument("--vary", action="append", required=True, metavar="PATH=V1,V2,...",
                   help="a field and its values, e.g. sides.red[0].models[0].profile.Ld=7,8,9,10 or ...Ld=7..10 "
                        "(repeatable)")
    s.add_argument("--runs", type=whole_number("--runs", 1, MAX_RUNS), default=10_000, help="runs per variant")
    s.add_argument("--seed", type=whole_number("--seed", 0, 2**64 - 1), default=None,
                   help="seed (a fresh one is drawn and printed if omitted)")
    s.add_argument("--actions", help="plan file (instead of the scenario's plan)")
    s.add_argument("--method", choices=METHODS, default="auto",
                   help="compiled: enumerate the chance tree once, sample with numpy; engine: one game per run")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--workers", type=worker_count("--workers", MAX_WORKERS), default=None, metavar="N|auto",
                       help="local processes (auto: the cores this process may use)")
    where.add_argument("--scheduler", metavar="ADDRESS", help="a Dask distributed scheduler, e.g. tcp://host:8786")
    s.add_argument("--outcome", action="append", default=[], metavar="LABEL",
                   help="an outcome to tabulate, as the simulate table labels it (repeatable)")
    s.add_argument("--plot", metavar="FILE.png",
                   help="draw each tabulated outcome against the first --vary's values (a line per value of the others)")
    out = s.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--csv", action="store_true",
                     help="print CSV: a row per variant and outcome (only the --outcome ones if given), "
                          "the varied values first")
    s.add_argument("--quiet", action="store_true", help="no progress bar on the terminal")
    s.set_defaults(run=_run_sweep)
    return s


def _console() -> Console:
    """Return a console; 100 columns when not a terminal (pipes, files, the README)."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=100)


def _check_plot(path: str | None) -> None:
    """Refuse a --plot path that cannot take a PNG before simulating."""
    if path is None:
        return
    from ..errors import HerohammerError
    from ..scenario import check_writable

    p = check_writable(path, "--plot")
    if p.suffix.lower() != ".png":
        raise HerohammerError(f"--plot {p}: expected a file name ending in .png")


def _run_simulate(args: argparse.Namespace) -> int:
    _check_plot(args.plot)
    console = _console()
    # progress goes to stderr (a bar on a terminal, a line every LINE_SECONDS on a pipe: progress_bar), so --json and
    # --csv on stdout show it too: a long compile was a silent wait there (reliability round 46)
    progress = not args.quiet
    if args.scenario is None:
        if args.actions is not None:  # the demos play their own plans: a plan given for them would be dropped unsaid
            from ..errors import HerohammerError

            raise HerohammerError(f"--actions {args.actions}: a plan needs a scenario to play it in "
                                  "(herohammer simulate SCENARIO --actions PLAN); the bundled demos play their own")
        return _run_demos(args, console, progress)
    from ..scenario import read_data
    from ..simulate import fresh_seed, load_plan, prepare, refuse_unplayable, simulate

    data = read_data(args.scenario)
    plan = load_plan(args.actions) if args.actions is not None else None
    # a refused plan step names the file it came from (the plan file, or the scenario holding the plan)
    state, driver, meta = prepare(data, plan, str(args.scenario), f"{args.actions}: --actions")
    refuse_unplayable(state, driver, str(args.actions if args.actions is not None else args.scenario))
    # the notes go in --json's envelope, else to stderr (a CSV has no place), once the input is known good
    if args.json or args.csv:
        result = simulate(data, args.runs, args.seed, plan, args.method, str(args.scenario), progress,
                          workers=args.workers, notice=_notice(args))
        _emit(args, result, console, notes=say(result.notes, args.json))
        return 0
    # a table: its title is the header, printed before the runs (which may take a while)
    seed = fresh_seed() if args.seed is None else args.seed
    say_notes(state, False)
    console.print(title_of({**meta, "seed": seed}, args.runs, args.actions, args.workers))
    result = simulate(data, args.runs, seed, plan, args.method, str(args.scenario), progress, workers=args.workers,
                      notice=_notice(args))
    _emit(args, result, console, titled=False)
    _why_always_skipped(result, state, driver, seed)
    return 0


def _notice(args: argparse.Namespace) -> Callable[[str], None]:
    """Say why the runs go to Monte Carlo the moment they do, before they play, whatever stdout is: a table's line on
    stdout, above it; beside JSON, CSV or ``--quiet``, on stderr, so that what a program reads stays clean."""
    out = sys.stderr if args.json or args.csv or args.quiet else sys.stdout

    def say(line: str) -> None:
        print(f"note: {line}", file=out, flush=True)

    return say


def _why_always_skipped(result: SimulationResult, state: Any, driver: Any, seed: int) -> None:
    """Say why a plan step that every run skipped was refused: its row alone (``skipped: step 2 (charge)``,
    100%) left the designer to guess. One run is played up to the step, with the simulation's seed."""
    import re

    from ..dice import SeededDice
    from ..simulate import SKIP_PREFIX, refusal_at

    for row in result.rows():
        found = re.match(rf"{re.escape(SKIP_PREFIX)}step (\d+) ", row.outcome)
        if found is None or row.count != row.runs:
            continue
        ruling = refusal_at(state, driver, int(found.group(1)), SeededDice(seed))
        if ruling is not None:
            print(f"note: {row.label.removeprefix(SKIP_PREFIX)} was refused in every run, e.g.: {ruling.reason} "
                  f"[{', '.join(ruling.rules) or 'no special rule'}]")


def _emit(args: argparse.Namespace, result: SimulationResult, console: Console, title: str | None = None,
          titled: bool = True, notes: tuple[str, ...] = ()) -> None:
    from ..report import MONTE_CARLO, print_json

    if args.plot:
        _said_plot(args.plot, plot(result, args.plot), args.json or args.csv)
    if args.json:
        print_json("simulate", result.to_json(), ruleset=result.meta.get("ruleset"), method=MONTE_CARLO, notes=notes)
    elif args.csv:
        sys.stdout.write(result.to_csv())
    else:
        show(result, console, title, titled)


def _run_demos(args: argparse.Namespace, console: Console, progress: bool) -> int:
    """Run the bundled demos; as a table, each demo's heading is printed before it is simulated."""
    table = not (args.json or args.csv)
    if table:  # the header first, before the simulator and its libraries load
        console.print("[bold]herohammer simulate[/bold]: the bundled demos, one rules code for play, odds and simulation\n")
    from rich.text import Text

    from ..report import MONTE_CARLO, print_json
    from ..simulate import demo_files, read_demo, simulate

    results = []
    for name in demo_files():
        data, about = read_demo(name)
        if table:
            console.rule(f"[bold]{name}")
            if about:
                console.print(Text(about))
        seed = DEMO_SEED if args.seed is None else args.seed  # fixed, so the README's output is reproducible
        result = simulate(data, args.runs, seed, None, args.method, f"herohammer/examples/{name}", progress,
                          workers=args.workers, notice=_notice(args))
        results.append((name, about, result))
        if table:
            show(result, console)
            console.print()
    if args.plot:
        _said_plot(args.plot, plot([r for _, _, r in results], args.plot), args.json or args.csv)
    if args.json:
        print_json("simulate", {"demos": [r.to_json() for _, _, r in results]}, method=MONTE_CARLO)
        return 0
    if args.csv:
        sys.stdout.write(_demos_csv([(name, r) for name, _, r in results]))
        return 0
    console.print("Your own: [bold]herohammer simulate SCENARIO.yaml --runs 100000 --seed 1[/bold] "
                  "(add --json, --csv, --plot out.png; see also: herohammer sweep)")
    return 0


def _demos_csv(results: Sequence[tuple[str, SimulationResult]]) -> str:
    """Return the demos' rows as one CSV table: a ``scenario`` column naming each demo, one header line."""
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for k, (name, result) in enumerate(results):
        header, *rows = csv.reader(io.StringIO(result.to_csv()))
        if k == 0:
            writer.writerow(["scenario", *header])
        writer.writerows([name, *row] for row in rows)
    return buffer.getvalue()


def title_of(meta: dict[str, Any], runs: int, plan_file: str | None = None, workers: int | None = None) -> str:
    """Return a simulation's title line: the scenario, its ruleset, the runs, what drives them, the seed.

    ``plan_file``: the plan came from ``--actions FILE``, not from the scenario (which may have none).
    ``workers``: the processes asked for (``--workers``).
    """
    from rich.markup import escape

    plan = ("the plan in " + escape(str(plan_file)) if plan_file is not None
            else "its plan" if meta["policy"] == "plan" else "the default policy (simple)")
    on = "" if workers is None else f" on {workers} process{'es' * (workers != 1)}"
    return f"[bold]{escape(meta['scenario'])}[/bold] ({meta['ruleset']}): {_runs(runs)} of {plan}, seed {meta['seed']}" + on


def _runs(runs: int) -> str:
    """Count runs as said: ``1 run``, ``2,000 runs``."""
    return f"{runs:,} run{'s' * (runs != 1)}"


#: The heading over a table's event rows, below the units' rows: what a bare ``saves`` or ``morale = 1`` counts.
EVENTS_HEADING = "events logged in the run"


def show(result: SimulationResult, console: Console, title: str | None = None, titled: bool = True) -> None:
    """Print a simulation as a table: frequency, 95% interval, exact value, and how it was run.

    ``titled=False``: the title line was printed already, before the runs.
    """
    from rich.markup import escape
    from rich.table import Table

    from ..simulate import EVENT_PREFIX, SHARED_CHUNK

    m = result.meta
    if titled:
        console.print(title or title_of(m, result.runs))
    table = Table()
    table.add_column("outcome")
    table.add_column("simulated", justify="right")
    table.add_column("95% interval", justify="right")
    if result.exact_known:
        table.add_column("exact", justify="right")
        table.add_column("exact %", justify="right")
    rows = result.rows()
    headed = False
    for r in rows:
        if not headed and r.outcome.startswith(EVENT_PREFIX) and r is not rows[0]:
            # an event's row (``saves``, ``destroyed``) read as one more unit outcome beside ``boyz: destroyed``
            table.add_section()
            table.add_row(f"[dim]{EVENTS_HEADING}[/dim]")
            headed = True
        lo, hi = r.ci95
        cells = [r.label, f"{r.probability * 100:.2f}%", f"{lo * 100:.2f}-{hi * 100:.2f}%"]
        if result.exact_known:
            cells += [str(r.exact), f"{float(r.exact or 0) * 100:.2f}%"]
        table.add_row(*(escape(c) for c in cells))
    if rows:
        console.print(table)
    else:
        console.print("  (nothing changed in any run)")
    hidden = len(result.keys()) - len({r.outcome for r in rows})
    t = result.timing
    on = f" on {result.workers} processes" if result.workers and result.workers > 1 else ""
    if m["method"] == "compiled":
        how = (f"method: compiled - the rules code ran {m['rules_code_runs']:,} times to enumerate "
               f"{m['exact_outcomes']:,} distinct outcome{'s' * (m['exact_outcomes'] != 1)} with exact odds ({t.get('compile_seconds', 0):.2f} s"
               f"{', in one process: --workers shares out the draws only' if result.workers else ''}), "
               f"then numpy drew the {_runs(result.runs)} from {'them' if m['exact_outcomes'] != 1 else 'it'}{on} "
               f"({t.get('sample_seconds', 0):.3f} s)")
    else:
        shared = m.get("shared")
        way = ("one game per run with seeded dice" if not shared else
               f"the runs that stand on one position take its step together: {shared['drawn']:,} of "
               f"{shared['nodes']:,} positions' steps drawn from their exact odds, {shared['played']:,} steps played "
               "one game each with seeded dice"
               + (f", in chunks of {SHARED_CHUNK:,} runs" if result.workers else ""))
        how = (f"method: engine - {way}{on} "
               f"({result.runs / max(t.get('engine_seconds', 1e-9), 1e-9):,.0f} runs/s); no exact column: "
               + ("the engine was asked for (--method engine)" if m.get("engine_reason") == "requested"
                  else f"{escape(m.get('too_large') or 'the chance tree is too large')}; the budget is the --runs "
                       "asked for, at least 5,000"))
    said = (f"below the line, {EVENTS_HEADING}: an event's name alone is the chance of at least one, '= N' of "
            "exactly N; " if headed else "")
    console.print(f"[dim]{how}; {said}{hidden} outcomes that never changed are not shown; "
                  f"scenario sha256 {m['scenario_sha256'][:12]}…, herohammer {m['herohammer_version']}[/dim]")


@dataclass(frozen=True)
class Panel:
    """One panel of a plot: an outcome group and every row in it (simulated with its interval, exact if known)."""

    title: str
    labels: tuple[str, ...]
    simulated: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    exact: tuple[Fraction | None, ...]
    #: What the values along x are (``models lost``, ``times logged in the run``); empty when the ticks name each bar.
    x_label: str = ""


def panels(result: SimulationResult, prefix: str = "") -> list[Panel]:
    """Group the table's rows into panels: one per numeric outcome (every value), one per unit for yes/no outcomes.

    Every row of the table is in exactly one panel: none is dropped.
    """
    from ..simulate import EVENT_PREFIX

    groups: dict[str, list[Any]] = {}
    for r in result.rows():
        key = r.outcome if r.value is not None else r.outcome.removeprefix(EVENT_PREFIX).split(":")[0].split(".")[0]
        groups.setdefault(key if r.value is not None else f"{key}: chance of each", []).append(r)
    out = []
    for key, items in groups.items():
        labels = tuple((r.label.split(": ", 1)[-1] if r.value is None else str(r.value)) for r in items)
        counted = "" if items[0].value is None else (
            "times logged in the run" if key.startswith(EVENT_PREFIX) else key.split(": ", 1)[-1])
        out.append(Panel(prefix + key, labels, tuple(r.probability for r in items), tuple(r.ci95[0] for r in items),
                         tuple(r.ci95[1] for r in items), tuple(r.exact for r in items), counted))
    return out


def plot(results: SimulationResult | Sequence[SimulationResult], path: str | Path) -> int:
    """Draw one panel per outcome group (bars with 95% intervals, exact values marked and written) to a PNG.

    Returns the number of panels drawn.
    """
    figure, drawn = simulation_figure(results)
    _save(figure, path)
    return drawn


def simulation_figure(results: SimulationResult | Sequence[SimulationResult]) -> tuple[Any, int]:
    """Return ``plot``'s figure (matplotlib's) and the number of panels in it."""
    plt = _pyplot()
    from ..simulate import SimulationResult

    many = [results] if isinstance(results, SimulationResult) else list(results)
    drawn = [p for r in many for p in panels(r, f"{Path(r.meta['scenario']).stem}: " if len(many) > 1 else "")]
    shown = drawn or [Panel("(no outcome changed)", (), (), (), (), ())]
    cols = min(3, len(shown))
    nrows = (len(shown) + cols - 1) // cols
    widest = max((len(p.labels) for p in shown), default=1)
    fig, axes = plt.subplots(nrows, cols, figsize=(max(4.2, 0.45 * widest) * cols, 3.0 * nrows), squeeze=False)
    for ax, panel in zip(axes.flat, shown):
        x = range(len(panel.labels))
        err = [[s - lo for s, lo in zip(panel.simulated, panel.low)], [hi - s for s, hi in zip(panel.simulated, panel.high)]]
        ax.bar(x, panel.simulated, yerr=err, color="#4c72b0", capsize=3, label="simulated (95%)")
        known = [(k, e) for k, e in enumerate(panel.exact) if e is not None]
        if known:  # one mark set, named once: a panel whose first bar has no exact value is marked and named too
            ax.plot([k for k, _ in known], [float(e) for _, e in known], "D", color="black", markersize=5,
                    label="exact")
        for k, e in known:
            text = str(e) if len(str(e)) <= 9 else f"{float(e):.3f}"
            ax.annotate(text, (k, float(e)), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=6)
        ax.set_xticks(list(x), [_plain(label) for label in panel.labels], rotation=30 if widest > 6 else 0,
                      fontsize=7, ha="right" if widest > 6 else "center")
        ax.set_title(_plain(panel.title), fontsize=9)
        ax.set_xlabel(_plain(panel.x_label), fontsize=8)
        ax.set_ylabel("chance", fontsize=8)
        ax.set_ylim(0, 1.08)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    _legend(axes)
    m = many[0].meta
    title = (f"{_plain(m['scenario'])}: {many[0].runs:,} run{'s' * (many[0].runs != 1)}, seed {m['seed']}"
             if len(many) == 1 else "the bundled demos")
    _title(fig, title)
    return fig, len(drawn)


def _legend(axes: Any) -> None:
    """Put the key on the first panel with exact values marked (the first panel may have none), else the first."""
    marked = [ax for ax in axes.flat if any(mark.get_label() == "exact" for mark in ax.get_lines())]
    (marked or list(axes.flat))[0].legend(fontsize=7)


def _pyplot() -> Any:
    """Return matplotlib's pyplot drawing off screen (imported only when a plot is asked for: it is slow)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _title(fig: Any, title: str) -> None:
    """Title the figure above its panels: ``tight_layout`` alone laid the top row's titles under it."""
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / fig.get_figheight()))


def _save(fig: Any, path: str | Path) -> None:
    """Write the figure as a PNG, whole or not at all (no half-written PNG on Ctrl-C), and let it go."""
    from ..scenario import write_atomically

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    _pyplot().close(fig)
    write_atomically(Path(path), buffer.getvalue())


def _said_plot(path: str, count: int, to_stderr: bool) -> None:
    """Say where the plot went (on stderr when stdout carries JSON or CSV)."""
    print(f"plot: {count} panel{'s' * (count != 1)} written to {path}", file=sys.stderr if to_stderr else sys.stdout)


@dataclass(frozen=True)
class SweepLine:
    """One line of a sweep's panel: the variants sharing the values of the other --vary paths, along the first."""

    name: str
    simulated: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    exact: tuple[float | None, ...]


@dataclass(frozen=True)
class SweepPanel:
    """One outcome of a sweep against the first --vary path's values: a line per combination of the others."""

    title: str
    x_label: str
    x: tuple[str, ...]
    lines: tuple[SweepLine, ...]


def sweep_panels(sweep: Mapping[str, Any], labels: Sequence[str]) -> list[SweepPanel]:
    """Lay a sweep's outcomes out for plotting: a panel per label, the first --vary's values along x."""
    from ..sweep import outcome_row

    paths = list(sweep["vary"])
    first, others = paths[0], paths[1:]
    heading = _headings(paths)
    xs = list(sweep["vary"][first])
    lines: dict[str, list[Any]] = {}  # line name -> the variant at each x, in the grid's order
    for v in sweep["variants"]:
        name = ", ".join(f"{heading[p]} = {v['values'][p]}" for p in others) or "simulated"
        lines.setdefault(name, [None] * len(xs))[xs.index(v["values"][first])] = v["result"]
    panels = []
    for label in labels:
        drawn = []
        for name, results in lines.items():
            rows = [outcome_row(r, label) for r in results]
            drawn.append(SweepLine(name, tuple(float(r["probability"]) for r in rows),
                                   tuple(float(r["ci95"][0]) for r in rows), tuple(float(r["ci95"][1]) for r in rows),
                                   tuple(r["exact_float"] for r in rows)))
        panels.append(SweepPanel(label, heading[first], tuple(str(x) for x in xs), tuple(drawn)))
    return panels


def plot_sweep(sweep: Mapping[str, Any], labels: Sequence[str], path: str | Path) -> int:
    """Draw a panel per outcome label (simulated with 95% intervals, exact values as diamonds) to a PNG.

    Returns the number of panels drawn.
    """
    figure, drawn = sweep_figure(sweep, labels)
    _save(figure, path)
    return drawn


def sweep_figure(sweep: Mapping[str, Any], labels: Sequence[str]) -> tuple[Any, int]:
    """Return ``plot_sweep``'s figure (matplotlib's) and the number of panels in it."""
    plt = _pyplot()
    drawn = sweep_panels(sweep, labels)
    shown = drawn or [SweepPanel("(no outcome changed)", "", (), ())]
    cols = min(3, len(shown))
    nrows = (len(shown) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(max(4.2, 0.6 * len(shown[0].x)) * cols, 3.2 * nrows),
                             squeeze=False)
    for ax, panel in zip(axes.flat, shown):
        x = list(range(len(panel.x)))
        for k, line in enumerate(panel.lines):
            color = f"C{k % 10}"
            err = [[s - lo for s, lo in zip(line.simulated, line.low)], [hi - s for s, hi in zip(line.simulated, line.high)]]
            ax.errorbar(x, line.simulated, yerr=err, color=color, marker="o", markersize=4, capsize=3,
                        label=_plain(line.name))
            known = [(i, e) for i, e in zip(x, line.exact) if e is not None]
            if known:  # named on the first line that has exact values, whichever that is
                named = any(mark.get_label() == "exact" for mark in ax.get_lines())
                ax.plot([i for i, _ in known], [e for _, e in known], "D", color=color, markersize=5, fillstyle="none",
                        label=None if named else "exact")
        ax.set_xticks(x, [_plain(v) for v in panel.x], fontsize=7)
        ax.set_xlabel(_plain(panel.x_label), fontsize=8)
        ax.set_ylabel("chance", fontsize=8)
        ax.set_title(_plain(panel.title), fontsize=9)
        ax.set_ylim(0, 1.08)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    _legend(axes)
    variants = len(sweep["variants"])
    _title(fig, f"{_plain(str(sweep['scenario']))}: {variants} variant{'s' * (variants != 1)} x {sweep['runs']:,} "
                f"run{'s' * (sweep['runs'] != 1)}, seed {sweep['seed']}")
    return fig, len(drawn)


def _plain(text: str) -> str:
    """Keep matplotlib from reading ``$...$`` in an id or file name as mathematics (it may not parse)."""
    return text.replace("$", r"\$")


def _run_sweep(args: argparse.Namespace) -> int:
    _check_plot(getattr(args, "plot", None))
    from rich.table import Table
    from rich.text import Text

    from ..report import MONTE_CARLO, print_json
    from ..scenario import read_data
    from ..simulate import fresh_seed, load_plan, progress_bar
    from ..sweep import (cell, check_outcomes, check_scheduler, check_variants, checked_varies, parse_vary,
                         pick_outcomes, row_label, run_sweep, sweep_cost, sweep_csv)

    varies = checked_varies([parse_vary(v) for v in args.vary])  # a field or a value twice: refused first
    twice = next((o for i, o in enumerate(args.outcome) if o in args.outcome[:i]), None)
    if twice is not None:  # two columns alike, as a --vary value given twice would be two variants alike
        from ..errors import HerohammerError

        raise HerohammerError(f"--outcome {twice!r} is given twice (two columns alike)")
    variants, total = sweep_cost(varies, args.runs, args.method)  # refused here, before reading anything more
    if args.scheduler is not None:
        check_scheduler(args.scheduler)
    plan = load_plan(args.actions) if args.actions else None
    data = read_data(args.scenario)
    # every value and the plan checked before the header says what will run (a path the scenario lacks,
    # a value its schema refuses, a plan step that is no action)
    check_variants(data, varies, plan, args.scenario)
    seed = fresh_seed() if args.seed is None else args.seed
    console = _console()
    where = f"Dask at {args.scheduler}" if args.scheduler else f"{args.workers} processes" if args.workers else "1 process"
    header = Text.assemble((args.scenario, "bold"), f": {variants:,} variant{'s' * (variants != 1)} x {args.runs:,} "
                           f"run{'s' * (args.runs != 1)} = {total:,} run{'s' * (total != 1)}, seed {seed} ({where})")
    if not (args.json or args.csv):  # the header first: a sweep may take minutes
        console.print(header)
        heading = _headings([path for path, _ in varies])
        for path, _ in varies:
            console.print(Text(f"  vary {heading[path]}" + (f": {path}" if heading[path] != path else "")))
    if args.outcome:  # a typo is said before the first variant runs, not after the last
        check_outcomes(data, varies, args.outcome, seed, plan, args.method, args.scenario, lambda n: print(
            f"--outcome: events are known only from play: checking against a trial of {n} runs of the first variant",
            file=sys.stderr))
    with progress_bar(not args.quiet, variants, "variants", elapsed=True) as advance:  # on stderr: --json/--csv too
        sweep = run_sweep(data, varies, args.runs, seed, plan, args.method,
                          args.workers, args.scheduler, args.scenario, advance, notice=_notice(args))
    notes = say(sweep.pop("notes"), args.json)  # each once for the sweep (sweep_notes), before the answer
    labels = pick_outcomes(sweep, args.outcome, checked=True)
    panels = plot_sweep(sweep, labels, args.plot) if args.plot else 0  # the table's columns against the first --vary
    if args.plot and (args.json or args.csv):
        _said_plot(args.plot, panels, True)
    if args.json:
        print_json("sweep", sweep, ruleset=sweep.get("ruleset"), method=MONTE_CARLO, notes=notes)
        return 0
    if args.csv:
        sys.stdout.write(sweep_csv(sweep, args.outcome))
        return 0
    table = Table()
    for column in _headings(list(sweep["vary"])).values():
        table.add_column(Text(column, overflow="fold"), overflow="fold")
    for label in labels:
        table.add_column(Text(f"{label}\nsimulated (exact)"), justify="right")
    for v in sweep["variants"]:
        cells = [str(v["values"][p]) for p in sweep["vary"]]
        for label in labels:
            sim, exact = cell(v["result"], label)
            cells.append(f"{sim * 100:.2f}%" + ("" if exact is None else f" ({exact * 100:.2f}%)"))
        table.add_row(*(Text(c) for c in cells))
    console.print(table)
    known = {row_label(r) for v in sweep["variants"] for r in v["result"]["outcomes"]}
    console.print(f"[dim]{len(known)} outcome rows in all; pick columns with --outcome LABEL, or see --json[/dim]")
    if args.plot:
        _said_plot(args.plot, panels, False)
    return 0


def _headings(paths: Sequence[str]) -> dict[str, str]:
    """Name each --vary path by its last steps as a column heading (``profile.Ld``), as many more steps as it takes
    to tell it from the others (``blue[0].models[0].profile.Ld`` beside ``red[0].models[0].profile.Ld``: two
    columns headed alike were two values nobody could tell apart)."""
    from ..sweep import parse_path

    steps = {p: [s if isinstance(s, str) else f"[{s}]" for s in parse_path(p)] for p in paths}

    def tail(path: str, n: int) -> str:
        while n < len(steps[path]) and steps[path][-n].startswith("["):
            n += 1  # begin at a name, not a list place
        return ".".join(steps[path][-n:]).replace(".[", "[")

    length = dict.fromkeys(paths, 2)
    while True:
        named = {p: tail(p, length[p]) for p in paths}
        alike = [p for p in paths if list(named.values()).count(named[p]) > 1 and length[p] < len(steps[p])]
        if not alike:
            return named
        for p in alike:
            length[p] += 1
