"""When a plan is too large to compile, ``simulate`` says so with the plan's budget, not what was left of it.

Found by using the tool: ``herohammer simulate examples/40k3_librarian_psychic.yaml --runs 2000`` ended
with "no exact column: the chance tree has more than 4 rules-code runs; the budget is the --runs asked
for, at least 5,000": the step that ran out was handed the 4 runs left, and its refusal was passed on.
"""

from __future__ import annotations

import re
from pathlib import Path

from herohammer.scenario import read_data
from herohammer.simulate import COMPILE_FLOOR, simulate

ROOT = Path(__file__).resolve().parents[1]
PSYCHIC = ROOT / "examples" / "40k3_librarian_psychic.yaml"


def test_the_reason_names_the_whole_budget() -> None:
    result = simulate(read_data(PSYCHIC), 20, 1)
    reason = result.meta["too_large"]
    assert result.meta["method"] == "engine" and result.meta["compile_budget"] == COMPILE_FLOOR
    # either may name where (the step that ran out of budget; the step estimated, or the plan's steps added up)
    more_than = re.fullmatch(r"the chance tree has more than ([\d,]+) rules-code runs( \(the budget ran out at .+\))?",
                             reason)
    # or, since reliability round 46, say where the estimate stopped once its paths had settled it (more than N)
    about = re.fullmatch(r"exact enumeration would take (?:about|more than) ([\d.,e]+) rules-code runs "
                         r"\(budget ([\d,]+)\)( (at|for its steps added up(, most of them at| \(the estimate stopped "
                         r"on its random path \d+ of 16 through the plan, at)) .+)?", reason)
    assert more_than or about, reason
    if more_than:
        assert int(more_than.group(1).replace(",", "")) == COMPILE_FLOOR
    else:
        assert about is not None and int(about.group(2).replace(",", "")) == COMPILE_FLOOR
        assert float(about.group(1).replace(",", "")) > COMPILE_FLOOR
