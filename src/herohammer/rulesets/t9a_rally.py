"""The 9th Age rallying: a fleeing unit takes its Rally test at the start of its player turn.

Seed 002 leaves fleeing to "the general rules"; the engine follows the published 9th Age
rules (``herohammer rules --ruleset published``: ``published.t9a-rally``,
``published.t9a-general``):

* In the Charge phase, the first phase of its player turn, each fleeing unit takes a Rally
  test: a Leadership test on its highest Leadership (a joined character's when higher), or
  on the General's when he stands within 12" and is not fleeing himself (Commanding
  Presence).  The phase cannot end while a fleeing unit of the active side has not taken it.
* Passed: the unit stops fleeing and counts as having marched (it moves no further this
  turn and does not shoot).  Failed: it flees again, 2D6" straight away from the closest
  enemy unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..catalogue import implements
from ..checks import LeadershipTestKind
from ..dice import Dice, rolls_made, rolls_since
from ..geometry import Placed, group_distance
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import Status, Unit
from .base import LeadershipRuling, Resolution, Ruleset
from .t9a_discipline import BATTLE_STANDARD, discipline_test
from .t9a_units import current, lone_rules, off_table, RALLY_RULE, unit_centre
from .t9a_casualties import no_models_left
from .t9a_combat import FLEE_RULE, GENERAL, flee, members, unit_discipline

if TYPE_CHECKING:
    from ..actions import Action, Rally

RALLY = RALLY_RULE  # one constant, in t9a.py, which the other phases' refusals after a rally cite too
LAST_SURVIVOR = "t9a.combined.last-survivor"


def _survivor(unit: Unit) -> tuple[tuple[str, ...], str]:
    """Return the clause and the words a last survivor's Rally test is told with: he takes it as the unit he is all
    that is left of (round 55: it cited nothing of it, where his Break and Panic tests did), else nothing."""
    if not unit.last_of:
        return (), ""
    return (LAST_SURVIVOR,), f"{unit.id} is all that is left of {unit.last_of} and takes its tests as it [{LAST_SURVIVOR}]"


def _placed(state: GameState, host: Unit) -> list[Placed]:
    return [m.placed for u in members(state, host.id) for m in u.models]


class Rallying(Ruleset):
    """Rule on and resolve Rally tests (mixed into the t9a ruleset before ``NinthAge``)."""

    if TYPE_CHECKING:  # NinthAge's Reform, made at once by a unit that rallies (published.t9a-rally)
        def reform_problem(self, state: GameState, unit: Unit, facing: float | None,
                           files: int | None) -> Ruling | None: ...

        def reformed(self, state: GameState, unit: Unit, facing: float | None,
                     files: int | None) -> tuple[GameState, str]: ...

    def rallies_due(self, state: GameState) -> list[str]:
        """Return the active side's fleeing units that have not yet taken their Rally test this turn."""
        return [u.id for u in state.side_units(state.active)
                if u.joined is None and u.alive and u.has(Status.FLEEING) and not u.has(Status.RALLY_TESTED)]

    def rally_leadership(self, state: GameState, host: Unit) -> tuple[LeadershipRuling, bool]:
        """Return the Leadership a unit rallies on, and whether it is the General's from up to 12" away, as its Panic
        tests read them (``unit_discipline``)."""
        discipline = unit_discipline(state, host.id)
        assert discipline is not None  # rule_rally refuses a unit with no model left
        return discipline

    @implements(RALLY, LAST_SURVIVOR)
    def rule_rally(self, state: GameState, action: Rally) -> Ruling:
        """Rule on a Rally test: a fleeing unit of the active side, once in its turn."""
        unit = state.unit(action.unit)  # a destroyed combined unit's name is its last survivor's (named_now)
        if not unit.alive:
            return no_models_left(unit, RALLY)
        if unit.joined:
            return Ruling.forbid(f"{unit.id} is part of {unit.joined}: the unit rallies, with it",
                                 "t9a.join.part-of-unit")
        if not unit.has(Status.FLEEING):
            return Ruling.forbid(f"{unit.id} is not fleeing: only a fleeing unit takes a Rally test", RALLY)
        if unit.has(Status.RALLY_TESTED):
            return Ruling.forbid(f"{unit.id} has taken its Rally test this turn", RALLY)
        reform = ""
        if action.facing is not None or action.files is not None:  # the Reform it makes at once if it rallies
            if problem := self.reform_problem(state, unit, action.facing, action.files):
                return Ruling.forbid(f"{problem.reason} (the Reform after Rallying)", RALLY, *problem.rules)
            reform = "; if it rallies it Reforms at once, as named"
        ld, general = self.rally_leadership(state, unit)
        last, said = _survivor(unit)
        return Ruling.allow(f"{unit.id} takes its Rally test on Ld {ld.value} ({ld.source}){reform}", RALLY, *ld.rules,
                            *((GENERAL,) if general else ()), *last, *lone_rules(state, unit),
                            notes=(said,) if said else ())

    @implements(RALLY, LAST_SURVIVOR)
    def resolve_rally(self, state: GameState, action: Rally, dice: Dice) -> Resolution:
        """Roll the Rally test: stop fleeing (counting as having marched), or flee again."""
        start = rolls_made(dice)
        host = state.unit(action.unit)
        ld, general = self.rally_leadership(state, host)
        result, flag = discipline_test(state, host.id, dice, ld.value, LeadershipTestKind.RALLY)
        rules = [RALLY, result.rule, *ld.rules, *((GENERAL,) if general else ()), *((BATTLE_STANDARD,) if flag else ()),
                 *lone_rules(state, host)]  # a lone character rallies as a unit of one (round 61)
        group = members(state, host.id)
        if result.passed:
            state = state.replace_units(*(u.with_status(Status.RALLY_TESTED, Status.MOVED, Status.MARCHED,
                                                        remove=(Status.FLEEING,)) for u in group))
            said = (f"{host.id} rallies ({result.roll} against Ld {ld.value}, {ld.source}{'; ' + flag if flag else ''}); it counts as having "
                    "marched this turn")
            if action.facing is not None or action.files is not None:  # its Reform after Rallying, at once
                state, shape = self.reformed(state, current(state, host.id), action.facing, action.files)
                said += f"; it Reforms after Rallying: {shape}"
                rules.append("published.t9a-reform")
            outcome = "rallied"
        else:
            enemies = [e for e in state.enemies_of(host.side) if e.alive and e.joined is None]
            away = unit_centre(state, min(enemies, key=lambda e: group_distance(e.placed, _placed(state, host))).id) \
                if enemies else unit_centre(state, host.id)
            fled_from = state
            state, dist = flee(state, host.id, away, dice, FLEE_RULE)
            state = state.replace_units(*(u.with_status(Status.RALLY_TESTED) for u in members(state, host.id)))
            rules.append(FLEE_RULE)
            said = (f"{host.id} fails to rally ({result.roll} against Ld {ld.value}, {ld.source}{'; ' + flag if flag else ''}) and flees "
                    f"{dist}\" away from the closest enemy")
            if not current(state, host.id).alive:
                gone, cite = off_table(fled_from, host.id)
                said += gone
                rules += cite
            outcome = "fled"
        last, survivor = _survivor(host)
        if survivor:
            said, rules = f"{said} ({survivor})", [*rules, *last]
        return state, [Event("rally", said, tuple(dict.fromkeys(rules)), rolls_since(dice, start),
                             (("outcome", outcome),))]

    @implements(RALLY)
    def rule_end_phase(self, state: GameState, action: Action) -> Ruling:
        """Refuse to end the Charge phase while a fleeing unit of the active side owes its Rally test."""
        if state.phase is Phase.CHARGE:
            due = self.rallies_due(state)
            if due:
                return Ruling.forbid(f"{', '.join(due)} must first take a Rally test (do: rally): a fleeing unit "
                                     "rallies at the start of its turn", RALLY)
        return super().rule_end_phase(state, action)
