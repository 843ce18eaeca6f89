"""What the engine tells the user is consistent: each edition cites its own clauses, and every id it
cites is listed by ``herohammer rules`` with its source.

The ids are collected from play, not from the source code: every rulings book entry, and random
legal walks from every 40k example in which each step rules on every candidate action (legal or
not), records the events, and rules on every unit's shooting targets.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest

from _cli import result_of, run
from herohammer.book import cited_ids, load_book, run_entry
from herohammer.catalogue import clauses
from herohammer.dice import SeededDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import load_scenario, state_from_data
from herohammer.state import GameState

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.yaml") if load_scenario(p).ruleset in ("40k3", "40k4"))
STEPS = 25
#: 3rd edition clauses a 4th edition game may cite, because 4th edition has no clause of its own on
#: the matter. Every other 40k3 clause has a 4th edition counterpart that a 40k4 game must cite instead (moving by
#: troop type: published.movement, which names 4th edition and seed 001's own sentence; the kinds of character:
#: published.40k4-character-kinds; psykers: published.40k4-psychic-test, published.40k4-psychic-shooting,
#: published.40k4-perils-of-the-warp, from the 4th edition rulebook's Psychic Powers).
SHARED_FROM_40K3 = ("40k3.char.special-agreement",)


def foreign(ruleset: str, rule_id: str) -> bool:
    """Say whether a cited id belongs to the other edition (a 40k3 game citing 40k4 or back)."""
    if ruleset == "40k3":
        return rule_id.startswith("40k4.")
    if ruleset == "40k4":
        return rule_id.startswith("40k3.") and not rule_id.startswith(SHARED_FROM_40K3)
    return False


def _rulings_now(g: Game) -> Iterator[tuple[str, str]]:
    """Yield (what, cited id) for every candidate action's ruling and every unit's target rulings."""
    for action in g.ruleset.candidate_actions(g.state):
        ruling = g.check(action)
        for r in ruling.rules:
            yield f"check {action.to_json()}: {ruling.reason}", r
        for note in ruling.notes:
            for r in cited_ids(note):
                yield f"note of {action.to_json()}: {note}", r
    for unit in g.state.units:
        if unit.alive:
            for target, ruling in g.ruleset.targets(g.state, unit.id).items():
                for r in ruling.rules:
                    yield f"targets {unit.id} -> {target}: {ruling.reason}", r


def walk(state: GameState, seed: int) -> Iterator[tuple[str, str]]:
    """Play a random legal walk; yield (what, cited id) for every ruling, target ruling and event."""
    rng = random.Random(seed)
    g = Game(state, SeededDice(seed))
    for _ in range(STEPS):
        yield from _rulings_now(g)
        legal = [a for a in g.legal_actions() if hasattr(g.ruleset, f"resolve_{a.do}")]
        action = rng.choice(legal)
        try:
            events = g.apply(action, dice=SeededDice(rng.randrange(2**32)))
        except IllegalActionError as exc:  # pragma: no cover - legal_actions said it was legal
            pytest.fail(f"legal action refused: {exc}")
        for e in events:
            for r in (*e.rules, *(roll.rule for roll in e.rolls)):
                yield f"event {e.describe()}", r
    yield from _rulings_now(g)


@lru_cache(maxsize=1)
def played() -> tuple[tuple[str, str, str, str], ...]:
    """Return (source, ruleset, what, cited id) for every id cited by the book and the example walks."""
    out: list[tuple[str, str, str, str]] = []
    for item in load_book():
        ruleset = item.state.ruleset if item.state is not None else item.entry.ruleset
        report = run_entry(item)
        for step in report.steps:
            for r in step.cited:
                out.append((item.source, ruleset, f"steps[{step.index}] {step.what}", r))
    for path in EXAMPLES:
        state = load_scenario(path)
        for seed in (1, 2, 3):
            for what, r in walk(state, seed):
                out.append((f"{path.name} (seed {seed})", state.ruleset, what, r))
    return tuple(out)


@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_an_edition_never_cites_the_other_editions_clauses(ruleset: str) -> None:
    cited = [c for c in played() if c[1] == ruleset]
    assert cited, f"nothing played in {ruleset}"
    wrong = sorted({f"{src}: {what} cites {rid}" for src, rs, what, rid in cited if foreign(rs, rid)})
    assert not wrong, "\n".join(wrong[:20])


def test_every_cited_id_is_listed_by_herohammer_rules_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["rules", "--json"], capsys)
    assert code == 0 and err == ""
    listed = {r["id"]: r for r in result_of(out)}
    cited = {rid: f"{src}: {what}" for src, _, what, rid in played()}
    assert any(r.startswith("published.") for r in cited), "no published rule was cited"
    unlisted = sorted(f"{rid} (cited by {where})" for rid, where in cited.items() if rid not in listed)
    assert not unlisted, "\n".join(unlisted)
    for rid in cited:
        assert listed[rid]["source"] and listed[rid]["says"], rid
    # a clause that play cites (40k walks, the book's entries of every ruleset) is decided somewhere: herohammer rules
    # reports it implemented (the t9a Close Combat Weapons' clauses once read "no" while their rows were applied)
    assert not sorted(r for r in cited if not listed[r]["implemented"])


#: A clause id written in the source, in quotes: what an answer may cite without any game citing it (the odds
#: calculator's charts, a ruling only a rare state reaches); every one must be a clause ``herohammer rules`` lists.
_QUOTED_ID = re.compile(r"""["']((?:core|40k3|40k4|t9a|published)\.[a-z0-9][a-z0-9.-]*)["']""")


def test_every_clause_id_the_source_names_is_listed_by_herohammer_rules() -> None:
    """The walks above see what play cites; ``odds attacks`` once cited published.armour-save, a clause no list held,
    from a chart no game plays."""
    listed = {c.id for c in clauses()}
    named = {(m.group(1), str(path.relative_to(ROOT))) for path in sorted((ROOT / "src" / "herohammer").rglob("*.py"))
             for m in _QUOTED_ID.finditer(path.read_text(encoding="utf-8"))}
    assert len(named) > 100
    assert not sorted(f"{rid} in {where}" for rid, where in named if rid not in listed)


def test_odds_attacks_cites_the_saves_clause_whenever_a_save_is_rolled(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, cited in ((["--sv", "3+"], True), (["--inv", "5+"], True), (["--sv", "3+", "--ap", "2"], True), ([], False)):
        code, out, _ = run(["odds", "attacks", "10", "--bs", "4", "--s", "4", "--t", "4", *argv, "--json"], capsys)
        assert code == 0
        assert ("published.saves" in json.loads(out)["rules"]) is cited, argv
    # the rolls given outright: no chart was read, whatever the save cites
    code, out, _ = run(["odds", "attacks", "10", "--hit", "3+", "--wound", "4+", "--save", "4+"], capsys)
    assert code == 0 and out.startswith("10 attacks, hit 3+, wound 4+, save 4+ [published.saves]"), out


def test_the_foreign_check_itself() -> None:
    assert foreign("40k3", "40k4.ic.join") and not foreign("40k3", "40k3.ic.join")
    assert foreign("40k4", "40k3.ic.join") and foreign("40k4", "40k3.psyker.test") and foreign("40k4", "40k3.char.kinds")
    assert not foreign("40k4", "40k3.char.special-agreement")
    assert foreign("40k4", "40k3.char.coherency") and foreign("40k4", "40k3.char.move-as-type")
    assert not foreign("40k4", "published.regroup") and not foreign("40k3", "core.test.leadership")


# --------------------------------------------------------------------------------------
# check --strict
# --------------------------------------------------------------------------------------

LIBRARIAN = str(ROOT / "examples" / "40k4_librarian_joins_tactical.yaml")
JOIN_OK = '{"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 21]}'
JOIN_FAR = '{"do": "join", "character": "librarian", "unit": "tactical", "to": [24, 18]}'


@pytest.mark.rule("40k4.ic.join")
def test_check_exits_non_zero_for_an_illegal_action_only_with_strict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", LIBRARIAN, "--action", JOIN_FAR], capsys)
    assert code == 0 and out.startswith("ILLEGAL: ") and "[40k4.ic.join]" in out
    code, out, _ = run(["check", LIBRARIAN, "--action", JOIN_FAR, "--strict"], capsys)
    assert code == 1 and out.startswith("ILLEGAL: ")
    code, out, _ = run(["check", LIBRARIAN, "--action", JOIN_FAR, "--strict", "--json"], capsys)
    assert code == 1 and result_of(out)["legal"] is False
    code, out, _ = run(["check", LIBRARIAN, "--action", JOIN_OK, "--strict"], capsys)
    assert code == 0 and out.startswith("LEGAL: ")
    code, _, err = run(["check", LIBRARIAN, "--action", "{do: [join", "--strict"], capsys)
    assert code == 2 and "not valid JSON" in err


def test_check_help_says_what_strict_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    assert "--strict" in text and "exit 1 when the action is illegal" in text
    assert "exit status is 0 either way, unless --strict is given" in text


@pytest.mark.rule("40k4.cc.engaged-only")
def test_a_40k4_character_attacking_without_a_split_cites_4th_edition_clauses() -> None:
    """A character's unsplit attacks in 4th edition cite 40k4.cc.engaged-only, never 3rd edition's allocation."""
    data = {
        "ruleset": "40k4", "phase": "assault", "active": "red", "table": {"width": 48, "depth": 48},
        "sides": {
            "red": [{"id": "squad", "models": [{"name": "Marine", "profile": "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                  "at": [20, 20]}]},
                    {"id": "cap", "character": "independent", "joined": "squad",
                     "models": [{"name": "Captain", "profile": "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+", "at": [22, 20]}]}],
            "blue": [{"id": "boyz", "models": [{"name": f"Boy {i}", "profile": "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+",
                                                 "at": [18 + 2 * i, 23]} for i in range(4)]}],
        },
    }
    g = Game(state_from_data(data), SeededDice(3))
    g.apply({"do": "assault", "unit": "squad", "target": "boyz"})
    g.apply({"do": "fight", "unit": "squad"})
    cited = {r for e in g.log for r in (*e.rules, *(roll.rule for roll in e.rolls))}
    assert "40k4.cc.engaged-only" in cited
    assert not {r for r in cited if foreign("40k4", r)}, sorted(cited)
