"""``herohammer odds action``: the exact odds of a whole action in a scenario (Monte Carlo when too large)."""

from __future__ import annotations

import argparse
from typing import Any

from ..action_odds import DEFAULT_RUNS, action_odds
from ..actions import parse_action
from ..errors import IllegalActionError
from ..dice import DEFAULT_MAX_RUNS
from ..limits import ENGINE_MAX_RUNS
from ..simulate import progress_bar
from ..report import EXACT, MONTE_CARLO, fraction_text, one_line_json, percent, print_json
from ..rulesets import get_ruleset
from ..scenario import load_scenario
from .args import Once, add_json_flag, known_units, say_notes, whole_number


def register_action(queries: Any) -> None:
    """Add ``odds action SCENARIO --action JSON [--runs N] [--seed S] [--max-branches M]``."""
    p: argparse.ArgumentParser = queries.add_parser(
        "action", help="odds of every outcome of one action in a scenario, through the rules code")
    p.add_argument("scenario", help="scenario file (YAML or JSON)")
    p.add_argument("--action", required=True, action=Once, help='the action as JSON, e.g. {"do": "shoot", "unit": ..., "target": ...}')
    p.add_argument("--runs", type=whole_number("--runs", 1, ENGINE_MAX_RUNS), default=DEFAULT_RUNS,
                   help="Monte Carlo runs if the exact enumeration is too large")
    p.add_argument("--seed", type=whole_number("--seed", 0, 2**63 - 1), default=0, help="seed for Monte Carlo")
    p.add_argument("--max-branches", type=whole_number("--max-branches", 1, ENGINE_MAX_RUNS), default=DEFAULT_MAX_RUNS,
                   help="largest exact enumeration before falling back to Monte Carlo")
    add_json_flag(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar on the terminal")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    state = load_scenario(args.scenario)
    action = parse_action(args.action, "--action")
    known_units(state, action)
    ruleset = get_ruleset(state.ruleset)
    ruling = ruleset.rule_on(state, action)
    if not ruling.legal:
        raise IllegalActionError(ruling.reason, ruling.rules)
    loaded = say_notes(state, args.json)  # the input is good: the notes come with the answer
    if not args.json:  # the header, before the enumeration (which may take a while on a large squad)
        print(f"odds of {one_line_json(action.to_json())}", flush=True)
    with _Progress(not args.quiet, args.max_branches, args.runs) as shown:  # on stderr, so with --json too
        answer = action_odds(state, action, max_runs=args.max_branches, runs=args.runs, seed=args.seed,
                             walked=shown.walked, advance=shown.advance, notice=None if args.json else shown.notice)
    notes = ruleset.odds_notes(state, answer.action)
    if args.json:
        result = answer.to_json()
        if notes:
            result["notes"] = list(notes)
        print_json("odds action", result, ruleset=state.ruleset, rules=ruling.rules,
                   method=EXACT if answer.exact else MONTE_CARLO, notes=loaded)
        return 0
    print(f"method: {answer.method}")
    if not answer.rows():  # as simulate says it: an empty answer would read as a failure
        print("  (nothing changes, whatever the dice: no unit loses or gains anything, no event to count)")
    for name, est in answer.rows().items():
        if est.low is None:
            print(f"  {name:<40} {fraction_text(est.p):>14}  {percent(est.p):>8}")
        else:
            print(f"  {name:<40} {float(est.p):>8.4f}  (95% CI {est.low:.4f}-{est.high:.4f})")
    reading = answer.status_reading()
    if reading:  # what a status row counts: a unit the action gave it and then destroyed too
        print(f"  ({reading})")
    for unit in sorted({u for o, _ in answer.weights for u, _ in o.models_lost}):
        mean = answer.mean_lost(unit)
        print(f"  mean models slain in {unit}: {float(mean):.4f}" + (f" (exactly {mean})" if answer.exact else ""))
    for note in notes:
        print(f"note: {note}")
    return 0


class _Progress:
    """The bars of a long odds question on a terminal: the exact enumeration's rules-code runs (out of its
    budget, ``--max-branches``), then, past it, the Monte Carlo runs, with the line saying why between them."""

    def __init__(self, enabled: bool, budget: int, runs: int) -> None:
        self.enabled, self.runs, self.budget = enabled, runs, budget
        self.bar = progress_bar(enabled, budget, "exact odds: rules-code runs")
        self.step = self.bar.__enter__()
        self.counted = 0

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(*exc)

    def walked(self, runs: int) -> None:
        # the size estimate's few sample runs are counted too, so a small tree may pass its budget (17/10 read as a
        # fault): the bar stops full
        runs = min(runs, self.budget)
        self.step(runs - self.counted)
        self.counted = runs

    def notice(self, line: str) -> None:
        """Say at once, before the Monte Carlo runs, why the answer will be sampled; then count those runs."""
        self.bar.__exit__(None, None, None)
        print(line, flush=True)
        self.bar = progress_bar(self.enabled, self.runs, "Monte Carlo runs")
        self.step = self.bar.__enter__()

    def advance(self, runs: int) -> None:
        self.step(runs)
