"""Characteristic tests and Leadership tests (seed 004), shared by every ruleset.

Named ``checks`` so as not to be confused with the project's unit tests; the rules
themselves call them "tests".  Each function takes the Dice it rolls with, so the same
code plays a game or, under ``enumerate_outcomes``, gives the exact odds.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from .catalogue import implements
from .dice import Dice
from .errors import IllegalActionError, OutOfRangeError
from .profiles import CHARACTERISTIC_MAX, CHARACTERISTIC_MIN
from .values import record


def check_value(name: str, value: int, rule: str) -> int:
    """Reject a characteristic outside 0..10 before any dice are rolled."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutOfRangeError(name, value, "a whole number", rule)
    if not CHARACTERISTIC_MIN <= value <= CHARACTERISTIC_MAX:
        raise OutOfRangeError(name, value, f"{CHARACTERISTIC_MIN}..{CHARACTERISTIC_MAX}", rule)
    return value


@record  # a NamedTuple compared as a frozen dataclass: cheaper to build, and every test builds one
class TestResult(NamedTuple):
    """Say whether a test passed, what was rolled and the value it was taken against."""

    passed: bool
    roll: int
    value: int
    rule: str
    #: passed only because a double 1 always passes (published.insane-heroism), the target being below 2
    insane_heroism: bool = False

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clauses the events that tell of this test cite for it: a Leadership test's own and the one by which
        every named test (Morale, Regroup, Target Priority ...) is a Leadership test (``LEADERSHIP_CLAUSES``); a
        characteristic test's own."""
        return LEADERSHIP_CLAUSES if self.rule == LEADERSHIP_RULE else (self.rule,)

    def verdict(self, check: str) -> str:
        """Say "passes" or "fails", and why a double 1 passed a ``check`` its target could not (Insane Heroism)."""
        if self.insane_heroism:
            return f"passes (a double 1 always passes a {check} check, whatever the modifiers: Insane Heroism)"
        return "passes" if self.passed else "fails"


@implements("core.test.characteristic")
def characteristic_test(
    dice: Dice, value: int, purpose: str = "characteristic test", reroll_failed: bool = False
) -> TestResult:
    """Roll a D6 against a characteristic: at most the value passes; a 6 or a value of 0 fails."""
    rule = "core.test.characteristic"
    check_value("characteristic", value, rule)
    roll = dice.d6(purpose, rule)
    passed = 0 < value and roll != 6 and roll <= value
    if not passed and reroll_failed:
        roll = dice.d6(f"{purpose} (re-roll)", rule)
        passed = 0 < value and roll != 6 and roll <= value
    return TestResult(passed, roll, value, rule)


@implements("core.test.highest-value")
def highest_value(values: Sequence[int]) -> int:
    """Return the one value a model with several values (or a whole unit) tests against."""
    if not values:
        raise OutOfRangeError("values", list(values), "at least one value", "core.test.highest-value")
    return max(values)


class LeadershipTestKind(StrEnum):
    """Name a Leadership test; each is a Leadership test whatever it is called."""

    LEADERSHIP = "Leadership"
    MORALE = "Morale"
    TERROR = "Terror"
    FEAR = "Fear"
    BREAK = "Break"
    PANIC = "Panic"
    LAST_MAN_STANDING = "Last Man Standing"
    PSYCHIC = "Psychic"
    REGROUP = "Regroup"
    RALLY = "Rally"
    PINNING = "Pinning"
    TARGET_PRIORITY = "Target Priority"
    RESTRAIN_PURSUIT = "Restrain Pursuit"


#: The clause by which a named test (Morale, Regroup, Last Man Standing, Target Priority ...) is a Leadership test, so
#: what decides a Leadership test (the unit's value, a character's, the player's pick) decides it: cited by every
#: named test a ruleset rolls, as the judge's own `test` cites it (judge round 59).
LEADERSHIP_KINDS = "core.test.leadership-kinds"
LEADERSHIP_RULE = "core.test.leadership"
#: What a Leadership test's result cites (``TestResult.clauses``), and a ruling that allows a named test before its roll.
LEADERSHIP_CLAUSES = (LEADERSHIP_RULE, LEADERSHIP_KINDS)


@implements("core.test.leadership", "core.test.leadership-kinds")
def leadership_test(
    dice: Dice,
    leadership: int,
    kind: LeadershipTestKind = LeadershipTestKind.LEADERSHIP,
    modifier: int = 0,
    double_one_passes: bool = False,
    purpose: str | None = None,
    rule: str = "core.test.leadership",
) -> TestResult:
    """Roll 2D6 against Leadership: a total at most the value passes.

    Every named test (Terror, Break, Panic ...) comes through here, so whatever applies
    to Leadership tests applies to each (core.test.leadership-kinds); what a failure
    does is decided by the caller, the named test's own rule.  ``double_one_passes``:
    the caller's rule passes a roll of double 1 whatever the modifiers (the ruleset's
    ``double_one_passes`` hook, published.insane-heroism).  ``purpose`` and ``rule``: what the roll log says the
    2D6 are for and the clause it cites, when the named test has its own (the 9th Age's March Test, a Discipline
    test, published.t9a-move); by default the kind's name and core.test.leadership.
    """
    check_value("Leadership", leadership, "core.test.leadership")
    target = max(CHARACTERISTIC_MIN, min(CHARACTERISTIC_MAX, leadership + modifier))
    # a double 1 is the only 2D6 total of 2: it decides only when the target is below 2, and only then is it a class
    # of its own (a split at 2), so a test it cannot change branches as before
    heroic = double_one_passes and target < 2
    splits = (target, 2) if heroic else (target,)
    # only "at most the target?" matters: an exact enumeration branches pass/fail, not 11 totals
    # the kind's name read as the member's own attribute (``value`` is a property looked up through the class)
    said = purpose if purpose is not None else f"{kind._value_} test (Ld {leadership})"
    roll = dice.total(2, said, rule, splits=splits)
    saved = heroic and roll == 2
    return TestResult(roll <= target or saved, roll, target, LEADERSHIP_RULE, saved)


@implements("core.test.leadership-choice")
def chosen_leadership(values: Sequence[int], chosen: int | None = None) -> int:
    """Return the Leadership a unit tests on: the player's pick of its values, the highest by default."""
    if not values:
        raise OutOfRangeError("Leadership values", list(values), "at least one", "core.test.leadership-choice")
    if chosen is None:
        return max(values)
    if chosen not in values:
        raise IllegalActionError(
            f"Leadership {chosen} is not a value of any model in the unit (values: {sorted(set(values))})",
            ["core.test.leadership-choice"],
        )
    return chosen
