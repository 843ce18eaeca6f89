"""The 9th Age's Discipline tests around characters: the Shaken (published.t9a-shaken), the Battle Standard's
re-roll (published.t9a-battle-standard), Panic for heavy casualties on the survivors' Leadership, who must take a
March Test (published.t9a-move), and the Wizard Conclave's choice of spells (t9a.spell.wizard-conclave)."""

from __future__ import annotations

from collections.abc import Sequence

from ..catalogue import implements
from ..charging import FLEE_REACTION
from ..checks import LeadershipTestKind, TestResult, leadership_test
from ..dice import Dice
from ..errors import IllegalActionError
from ..geometry import EPSILON, group_distance
from ..rulings import Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from .t9a_units import combined_status, CONCLAVE_PATTERN, current, has_conclave


SHAKEN_RULE = "published.t9a-shaken"


#: The General's Commanding Presence: his Leadership lent to a unit's Discipline tests within 12".
GENERAL_RULE_ID = "published.t9a-general"


@implements(SHAKEN_RULE, "t9a.charge-out.failure", FLEE_REACTION)
def shaken_refusal(state: GameState, unit: Unit, cannot: str, whole_unit: bool = True,
                   charge_bars: bool = True) -> Ruling | None:
    """Refuse what a Shaken model may not do (charge, Advance or March move, reform, shoot), or None.

    ``whole_unit``: the unit acts with every model in it (a move, a reform, a volley), so one
    Shaken model binds it; otherwise only the named model acts (a character leaving, joining or
    charging out), Shaken by its own status or its unit's.  ``charge_bars``: a charger is barred
    this already (a move, a reform, a join, a second charge): a charger Shaken for catching a unit
    that fled (round 57) is left to that refusal, which says it charged (round 45); only its shot
    is barred by the Shaken alone.
    """
    if whole_unit:
        shaken = any(u.has(Status.SHAKEN) for u in state.combined(unit.id))
    else:
        shaken = Status.SHAKEN in combined_status(state, unit)
    if not shaken:
        return None
    group = state.combined(unit.id) if whole_unit else [unit]
    if any(u.has(Status.SHAKEN) and u.has(Status.CHARGED) and not u.has(Status.FAILED_CHARGE) for u in group):
        if charge_bars:
            return None
        return Ruling.forbid(f"{unit.id} is Shaken until the end of the player turn (its charge caught a unit that "
                             f"fled: charging a Fleeing unit Shakes it): it cannot {cannot}", FLEE_REACTION,
                             SHAKEN_RULE)
    return Ruling.forbid(f"{unit.id} is Shaken until the end of the player turn (a failed charge out leaves its "
                         f"unit so): it cannot {cannot}", "t9a.charge-out.failure", SHAKEN_RULE)


#: The special rule naming the army's Battle Standard Bearer, and the reach of Rally Around the Flag (inches).
BSB_RULE = "Battle Standard Bearer"


BATTLE_STANDARD = "published.t9a-battle-standard"


RALLY_AROUND_THE_FLAG = 12.0


@implements(BATTLE_STANDARD)
def bearer_near(state: GameState, host_id: str) -> Model | None:
    """Return the Battle Standard Bearer whose Rally Around the Flag reaches a unit: its side's, not fleeing, within
    12" edge to edge of the unit's models (its own unit included); None when there is none (the common case, settled
    by the names of the side's rules before anything is measured)."""
    host = current(state, host_id)
    bearers = [u for u in state.side_units(host.side) if BSB_RULE in u.rules and u.alive and u.models
               and not u.has(Status.DUEL_REFUSED)]  # a bearer shamed by a refused Duel loses it (published.t9a-duel)
    if not bearers:
        return None
    group = [host, *state.joined_to(host.id)]
    ids = {u.id for u in group}
    mine = [m.placed for u in group for m in u.models]
    for b in bearers:
        if b.has(Status.FLEEING) or (b.joined is not None and current(state, b.joined).has(Status.FLEEING)):
            continue
        if b.id in ids or b.joined in ids or (mine and group_distance([m.placed for m in b.models], mine)
                                              <= RALLY_AROUND_THE_FLAG):
            return b.models[0]
    return None


@implements(BATTLE_STANDARD)
def discipline_test(state: GameState, host_id: str, dice: Dice, leadership: int, kind: LeadershipTestKind,
                    modifier: int = 0, purpose: str | None = None,
                    rule: str = "core.test.leadership") -> tuple[TestResult, str]:
    """Take a unit's Discipline test, re-rolled once when it fails within the reach of its Battle Standard Bearer
    (Rally Around the Flag); return the result that stands and what the re-roll did ("" without one).  ``purpose``
    and ``rule``: the roll log's words and clause for a test named by its own rule (the March Test)."""
    result = leadership_test(dice, leadership, kind, modifier, purpose=purpose, rule=rule)
    if result.passed:
        return result, ""
    bearer = bearer_near(state, host_id)
    if bearer is None:
        return result, ""
    again = leadership_test(dice, leadership, kind, modifier, purpose=purpose, rule=rule)
    return again, (f"the first roll, {result.roll}, failed and was re-rolled for Rally Around the Flag ({bearer.name}, "
                   f"the Battle Standard Bearer) [{BATTLE_STANDARD}]")


#: The March Test's clause: the 2022 text's Moving Units, which published.t9a-move cites.
MARCH_RULE = "published.t9a-move"


#: The reach (inches) within which a non-Fleeing enemy unit makes a unit take a March Test before it marches.
MARCH_TEST_RANGE = 8.0


@implements(MARCH_RULE)
def march_test_enemies(state: GameState, host: Unit) -> list[str]:
    """Name the non-Fleeing enemy units within 8" of a unit (its joined characters with it), edge to edge, that make it
    take a March Test (the 2022 text, Moving Units): a Fleeing enemy, or a unit with no model left, counts for
    nothing; an enemy's joined character is part of its unit, measured with it."""
    mine = [m.placed for u in [host, *state.joined_to(host.id)] for m in u.models]
    if not mine:
        return []
    near = []
    for e in state.enemies_of(host.side):
        if e.joined is not None or not e.alive or e.has(Status.FLEEING):
            continue
        theirs = [m.placed for u in [e, *state.joined_to(e.id)] for m in u.models]
        if theirs and group_distance(theirs, mine) <= MARCH_TEST_RANGE + EPSILON:
            near.append(e.id)
    return near


@implements(MARCH_RULE, "t9a.join.part-of-unit")
def march_failed_refusal(state: GameState, unit: Unit) -> Ruling | None:
    """Refuse the March of a unit that failed its March Test this Movement Phase, or that holds a character who failed
    his own (marching out of it, or to join another unit, he stayed where he stood), or None.

    The 2022 text (Moving Units): failed, "the unit cannot perform a March Move during this Movement Phase"; a unit
    that failed marks its characters too, who then do not march out of it, and a character who failed would March
    carried by his unit's March Move (judge round 51: it was made, on his own Discipline).  He may still leave by an
    Advance move, after which the unit marches on its own test."""
    failed = [u for u in state.combined(unit.id) if u.has(Status.MARCH_TEST_FAILED)]
    if not failed:
        return None
    if unit in failed:
        return Ruling.forbid(f"{unit.id} failed its March Test this Movement Phase: it cannot March (it may still "
                             "make an Advance move, Reform or stay)", MARCH_RULE, "core.test.leadership")
    names = " and ".join(u.id for u in failed)
    return Ruling.forbid(f"{names}, part of {unit.id}, failed {'his' if len(failed) == 1 else 'their'} March Test this "
                         f"Movement Phase and cannot March: {unit.id} cannot March carrying "
                         f"{'him' if len(failed) == 1 else 'them'} (it may still make an Advance move, Reform or stay; "
                         f"or {names} may first leave it by an Advance move)", MARCH_RULE, "core.test.leadership",
                         "t9a.join.part-of-unit")


@implements("t9a.combined.last-survivor")
def heavy_casualties_panic(state: GameState, host_id: str, lost: int, at_start: int, dice: Dice,
                           leadership: int) -> tuple[TestResult, str] | None:
    """Take the Panic test for heavy casualties (a quarter of the models lost) on ``leadership``, the unit's
    (``t9a_combat.unit_discipline``: its highest, a joined character's too, or its General's); None when none is due.

    A character left alone takes it alone, with his own Leadership; it is a Leadership
    test (core.test.leadership-kinds).  A failure is re-rolled within the reach of
    the Battle Standard Bearer (``discipline_test``); the second string says so.
    """
    if at_start <= 0 or lost * 4 < at_start:
        return None
    return discipline_test(state, current(state, host_id).id, dice, leadership, LeadershipTestKind.PANIC)


@implements("t9a.spell.wizard-conclave")
def conclave_spells(unit: Unit) -> tuple[str, ...]:
    """Return the spell list given with a unit's Wizard Conclave rule, e.g. ``Wizard Conclave (A, B, C)``."""
    for r in unit.rules:
        m = CONCLAVE_PATTERN.match(r)
        if m:
            return tuple(s.strip() for s in m.group(1).split(",") if s.strip())
    return ()


@implements("t9a.spell.wizard-conclave")
def choose_conclave_spells(unit: Unit, chosen: Sequence[str]) -> tuple[str, str]:
    """Check the champion's choice: exactly two different spells from the rule's list (not normal selection)."""
    rule = "t9a.spell.wizard-conclave"
    if not has_conclave(unit):
        raise IllegalActionError(f"unit {unit.id} has no Wizard Conclave rule", [rule])
    listed = conclave_spells(unit)
    if len(chosen) != 2 or len(set(chosen)) != 2:
        raise IllegalActionError(f"the champion chooses exactly two different spells, got {list(chosen)}", [rule])
    bad = [s for s in chosen if s not in listed]
    if bad:
        raise IllegalActionError(f"{', '.join(bad)} not in the Wizard Conclave list ({', '.join(listed)})", [rule])
    return (chosen[0], chosen[1])
