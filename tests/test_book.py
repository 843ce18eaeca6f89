"""The rulings book runs: every entry is played through the public API, one test per entry.

Each case carries ``pytest.mark.rule(*entry.rules)``: an entry is a worked ruling of those
clauses (legal and illegal cases, state after a sequence, exact odds), so a clause the book
shows is tested end to end.  The loader's own checks (malformed entries, a claimed clause no
step cites, a step that disagrees with play) are tested on small inline entries.
"""

from __future__ import annotations

import json

import pytest

from herohammer.book import RulingMismatch, load_book, load_entry_text, run_entry
from herohammer.errors import ScenarioError

from _cli import result_of, run

BOOK = load_book()


def _cases() -> list[object]:
    return [pytest.param(b, id=b.id, marks=pytest.mark.rule(*b.entry.rules)) for b in BOOK]


@pytest.mark.parametrize("item", _cases())
def test_book_entry_holds(item: object) -> None:
    report = run_entry(item)  # type: ignore[arg-type]
    assert set(report.entry.entry.rules) <= report.cited


def test_book_has_entries_for_each_ruleset() -> None:
    rulesets = {b.entry.ruleset for b in BOOK}
    assert {"core", "40k3", "40k4"} <= rulesets


# --------------------------------------------------------------------------------------
# the loader and runner refuse what does not hold
# --------------------------------------------------------------------------------------

SCENARIO = """
scenario:
  ruleset: 40k3
  phase: movement
  active: red
  sides:
    red:
      - id: lib
        character: independent
        models: [{name: Librarian, profile: "WS5 BS4 S4 T4 W2 I4 A2 Ld10 Sv3+", at: [10, 10]}]
      - id: tac
        models:
          - {name: M1, profile: "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", at: [10, 14]}
          - {name: M2, profile: "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", at: [12, 14]}
    blue:
      - id: far
        models: [{name: B1, profile: "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+", at: [60, 40]}]
"""
HEAD = """
id: x
ruleset: 40k3
title: t
question: q
answer: a
source: s
"""


def _entry(body: str, rules: str = "[40k3.ic.join]") -> str:
    return HEAD + f"rules: {rules}\n" + SCENARIO + body


JOIN_OK = """
steps:
  - check: {do: join, character: lib, unit: tac, to: [10, 12.5]}
    expect: {legal: true, rules: [40k3.ic.join]}
"""


def test_a_valid_inline_entry_runs() -> None:
    report = run_entry(load_entry_text(_entry(JOIN_OK), "x.yaml"))
    assert "40k3.ic.join" in report.cited
    assert report.steps[0].lines[0].startswith("LEGAL")


@pytest.mark.parametrize(("body", "field"), [
    ("steps: []\n", "steps"),
    ("steps:\n  - check: {do: join, character: lib}\n", "steps[0]"),
    ("steps:\n  - check: {do: fly, unit: lib}\n", "steps[0]"),
    ("steps:\n  - undo: true\n    check: {do: end_phase}\n", "steps[0]"),
    ("steps:\n  - targets: {unit: lib}\n    expect: {outcomes: {a: 1/2}}\n", "steps[0]"),
    ("steps:\n  - check: {do: end_phase}\n    dice: [1]\n", "steps[0]"),
    ("steps:\n  - odds: {do: end_phase}\n    expect: {outcomes: {a: half}}\n", "steps[0].expect.outcomes"),
    ("steps:\n  - check: {do: end_phase}\nextra: 1\n", "extra"),
])
def test_a_malformed_entry_names_the_file_and_field(body: str, field: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_entry_text(_entry(body), "book/40k3/x.yaml")
    assert info.value.source == "book/40k3/x.yaml"
    assert info.value.field.startswith(field), info.value


def test_an_entry_must_match_its_file_and_folder() -> None:
    with pytest.raises(ScenarioError, match="id: expected the file's name 'y'"):
        load_entry_text(_entry(JOIN_OK), "book/40k3/y.yaml", "40k3", "y")
    with pytest.raises(ScenarioError, match="ruleset: expected '40k4'"):
        load_entry_text(_entry(JOIN_OK), "book/40k4/x.yaml", "40k4", "x")
    with pytest.raises(ScenarioError, match="scenario"):
        load_entry_text(_entry(JOIN_OK).replace("at: [60, 40]", "at: [600, 40]"), "book/40k3/x.yaml")


@pytest.mark.parametrize(("body", "message"), [
    ("steps:\n  - check: {do: join, character: lib, unit: tac, to: [10, 12.5]}\n    expect: {legal: false}\n",
     "expected illegal, got legal"),
    ("steps:\n  - check: {do: join, character: lib, unit: tac, to: [10, 12.5]}\n    expect: {rules: [40k3.ic.leave]}\n",
     "expected the ruling to cite 40k3.ic.leave"),
    ("steps:\n  - apply: {do: join, character: lib, unit: tac, to: [10, 12.5]}\n  - state: {units: {lib: {joined: null}}}\n",
     "lib: expected joined None, got 'tac'"),
    ("steps:\n  - apply: {do: join, character: lib, unit: tac, to: [40, 40]}\n",
     "expected a legal action; refused"),
    ("steps:\n  - apply: {do: join, character: lib, unit: tac, to: [10, 12.5]}\n    dice: [3]\n",
     "1 scripted dice left unused"),
    ("steps:\n  - check: {do: end_phase}\n", "rules: 40k3.ic.join listed but cited by no step"),
    ("steps:\n  - targets: {unit: lib}\n    expect: {legal: [tac]}\n", "expected legal targets ['tac']"),
])
def test_an_entry_that_play_contradicts_is_a_mismatch(body: str, message: str) -> None:
    item = load_entry_text(_entry(body), "book/40k3/x.yaml")
    with pytest.raises(RulingMismatch, match="book/40k3/x.yaml: ") as info:
        run_entry(item)
    assert message in str(info.value)


def test_a_refused_apply_leaves_the_state_unchanged() -> None:
    body = ("steps:\n  - apply: {do: join, character: lib, unit: tac, to: [40, 40]}\n"
            "    expect: {legal: false}\n  - apply: {do: join, character: lib, unit: tac, to: [10, 12.5]}\n"
            "    expect: {rules: [40k3.ic.join]}\n  - state: {units: {lib: {joined: tac}}}\n"
            "  - undo: true\n  - state: {units: {lib: {joined: null}}}\n")
    report = run_entry(load_entry_text(_entry(body), "x.yaml"))
    assert report.steps[0].lines[0].startswith("REFUSED, state unchanged")


# --------------------------------------------------------------------------------------
# herohammer rulings
# --------------------------------------------------------------------------------------


def test_rulings_lists_the_book_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rulings", "--json"], capsys)
    assert code == 0 and err == ""
    listed = result_of(out)
    assert [r["id"] for r in listed] == [b.id for b in BOOK]
    code, out, _ = run(["rulings", "--ruleset", "core", "--json"], capsys)
    assert code == 0 and {r["ruleset"] for r in result_of(out)} == {"core"}
    code, out, _ = run(["rulings", "--rule", "40k3.ic.target", "--json"], capsys)
    assert code == 0 and all("40k3.ic.target" in r["rules"] for r in result_of(out)) and result_of(out)


def test_rulings_prints_one_ruling_as_an_faq_entry(capsys: pytest.CaptureFixture[str]) -> None:
    item = next(b for b in BOOK if b.id == "40k3-lone-character-near-friends-not-a-target")
    code, out, err = run(["rulings", item.id], capsys)
    assert code == 0 and err == ""
    assert "Q: " in out and "A: " in out and "Source: " in out
    assert "[40k3.ic.target] (seed 000)" in out
    assert "ILLEGAL" in out and "verified" in out
    code, out, _ = run(["rulings", item.id, "--json"], capsys)
    data = result_of(out)
    assert data["verified"] is True and data["steps"]


def test_a_state_step_says_a_slain_unit_is_destroyed(capsys: pytest.CaptureFixture[str]) -> None:
    """A Librarian slain by Perils stays in the state with no model and his last "joined": the entry's state step
    says he is destroyed (it read "lib: 0 model(s), joined tac"), and still lists the living as before."""
    code, out, err = run(["rulings", "40k3-a-librarian-slain-by-perils-leaves-his-last-marine-to-stand"], capsys)
    assert code == 0, err
    assert "lib: destroyed (no model left)" in out and "0 model(s)" not in out
    assert "tac: 1 model(s), joined nothing, status falling_back" in out


def test_rulings_refuses_an_unknown_id_or_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rulings", "no-such-ruling"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("herohammer: error: no ruling with id 'no-such-ruling'")
    code, out, err = run(["rulings", "--rule", "40k9.nothing"], capsys)
    assert code == 2 and "--rule: no clause id is or starts with '40k9.nothing'" in err


def test_rulings_rule_takes_a_start_of_ids_and_tells_a_typo_from_a_clause_no_ruling_shows(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--rule t9a.join was refused ("no ruling shows") though rules t9a.join lists its clauses; a typo and a real
    clause no ruling shows were said alike."""
    code, out, err = run(["rulings", "--rule", "t9a.join", "--json"], capsys)
    listed = result_of(out)
    assert code == 0 and listed and all(any(r.startswith("t9a.join.") for r in x["rules"]) for x in listed)
    code, out, err = run(["rulings", "--rule", "t9a.jon"], capsys)
    assert code == 2 and err.rstrip().endswith("did you mean t9a.join?"), err
    code, out, err = run(["rulings", "--rule", "published.regroup", "--ruleset", "t9a"], capsys)
    assert code == 2 and "--rule: no ruling of t9a in the book shows 'published.regroup' yet" in err, err


def test_rulings_id_with_a_filter_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """The filters were dropped without a word when a ruling's id was given."""
    item = BOOK[0]
    code, out, err = run(["rulings", item.id, "--ruleset", "t9a"], capsys)
    assert code == 2 and out == "" and "--ruleset chooses the rulings listed" in err
