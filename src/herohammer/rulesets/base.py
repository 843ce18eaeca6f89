"""The shared rules and the hooks each ruleset may override.

In the style of python-chess's variants: a ruleset is a small subclass that overrides
a few hook methods, each a few lines; this base class holds the defaults every game
shares (seed 004), so rules code asks ``ruleset.hook(...)`` and never which ruleset it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache, partial
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..catalogue import implements
from ..checks import (LEADERSHIP_CLAUSES, LeadershipTestKind, characteristic_test, chosen_leadership, highest_value,
                      leadership_test)
from ..profiles import Characteristic, Modifier, ModifierKind, used_value
from ..dice import Dice, rolls_made, rolls_since
from .. import guards, movement
from ..errors import IllegalActionError
from ..psychic import PsychicResult
from ..rulings import Event, Ruling
from ..state import GameState, Phase, PhaseSpec
from ..units import TURN_STATUSES, CharacterKind, Model, Status, Unit
from ..values import cached, evolve

if TYPE_CHECKING:
    from ..actions import Action, TakeTest

Resolution = tuple[GameState, list[Event]]
#: Actions that put models somewhere: none may end with bases overlapping (published.bases-apart).
PLACING = frozenset({"move", "join", "leave", "charge", "assault", "run", "consolidate", "infiltrate", "disembark"})
#: The turn sequence: an action out of its phase, or by a unit of the side whose turn it is not, is refused citing it.
TURN_SEQUENCE = "published.turn-sequence"


_A_STATE = "a GameState (load_scenario(path) or Game.state)"
_LD = attrgetter("profile.ld")
_PLACES_AS_RULED = "places_as_ruled"
Method = TypeVar("Method", bound=Callable[..., Any])
Act = TypeVar("Act", bound="Action")


def places_as_ruled(method: Method) -> Method:
    """Mark a ``rule_<do>`` that checks every place its action plans against every model (``movement.placement_problem``),
    or the ``resolve_<do>`` that, when no dice roll, puts models exactly there and nowhere else.

    When both methods of an action carry the mark, judging it does not resolve the action
    to check bases apart a second time (``tests/test_move_checks_fast.py`` holds the marked
    40k moves, joins and leaves to it); a subclass overriding either method without the mark
    gets the shared check back (``tests/test_bases_apart.py``).
    """
    setattr(method, _PLACES_AS_RULED, True)
    return method


def _marked(method: Callable[..., Any]) -> bool:
    return bool(getattr(method, _PLACES_AS_RULED, False))


_ROLLS_BEFORE_PLACING = "rolls_before_placing"


def rolls_before_placing(method: Method) -> Method:
    """Mark a ``resolve_<do>`` that rolls dice on every path before it places any model (a 9th Age charge rolls its
    Charge Range): resolved with dice that refuse to roll it never has a result, so judging does not try.

    ``tests/test_t9a_fast_legal.py`` holds the marked resolutions to it; a subclass overriding
    the method without the mark is resolved as before.
    """
    setattr(method, _ROLLS_BEFORE_PLACING, True)
    return method


_PLACES_APART = "places_apart"


def places_apart(method: Method) -> Method:
    """Mark a ``resolve_<do>`` that never puts a model on another: each place it picks is checked against every
    model as they stand by then (a 40k assault's ``_charge_spot``), and a model it cannot place stays put.

    Judging such an action need not resolve it to check bases apart, so its result is worked out
    only if it is applied.  ``tests/test_assault_fast_legal.py`` holds the marked resolutions to the
    shared check; a subclass overriding the method without the mark is resolved and checked as before.
    """
    setattr(method, _PLACES_APART, True)
    return method


#: Whether a ruleset class's action is marked ``places_as_ruled`` (rule and resolution), looked up once per class.
_RULED: dict[tuple[type, str], bool] = {}
#: How ``Ruleset._bases_apart`` looks at each class's placing actions (``Ruleset._placing``).
_PLACING: dict[tuple[type, str], str] = {}
_LATER, _ROLLED, _NOW = "later", "rolled", "now"


@cache
def _action_types() -> tuple[type, ...]:
    from ..actions import ACTION_TYPES

    return ACTION_TYPES


@cache
def _action_classes() -> frozenset[type]:
    return frozenset(_action_types())


def _expect_state_and_action(state: Any, action: Any, where: str) -> None:
    """Refuse a call given something that is not a state or not an action object, naming the parameter."""
    if type(state) is GameState and type(action) in _action_classes():  # the usual call: no ABCMeta isinstance
        return
    guards.instance(state, GameState, where, "state", _A_STATE)
    guards.instance(action, _action_types(), where, "action",
                    "an Action (parse_action reads one from JSON text or a mapping; Game.check takes either)")


class _RollNeeded(Exception):
    """Raised by ``_NoRolls``: the action's result depends on dice."""


class _NoRolls(Dice):
    """Dice for resolving an action ahead of play: any roll means the outcome is not yet known."""

    def _resolve(self, request: Any) -> tuple[int, tuple[int, ...] | None, Fraction | None]:
        raise _RollNeeded


#: The dice that refuse to roll, shared: they refuse before a roll is logged, so their log stays empty.
_NO_ROLLS = _NoRolls()


@dataclass(frozen=True, init=False)
class Judgement:
    """A ruling on an action, with the action's result when no dice decide it (worked out to check the ruling).

    ``Game.apply`` uses ``result`` instead of resolving the action a second time.  When the
    ruling did not need the result (an action marked ``places_as_ruled``), ``resolve_later``
    works it out the first time ``result`` is asked, so listing legal actions never pays for it.
    """

    ruling: Ruling
    resolved: Resolution | None = None
    resolve_later: Callable[[], Resolution | None] | None = field(default=None, compare=False, repr=False)

    def __init__(self, ruling: Ruling, resolved: Resolution | None = None,
                 resolve_later: Callable[[], Resolution | None] | None = None) -> None:
        self.__dict__.update(ruling=ruling, resolved=resolved, resolve_later=resolve_later)  # one per action judged

    @cached
    def result(self) -> Resolution | None:
        """Return the action's result if no dice decide it (None if dice do, or the action is illegal)."""
        if self.resolved is None and self.resolve_later is not None:
            return self.resolve_later()
        return self.resolved


@dataclass(frozen=True)
class LeadershipSource:
    """One model's Leadership as a unit's test sees it."""

    name: str
    leadership: int
    is_character: bool = False
    #: the model's profile prints its Leadership as '-' or '*', the value 0 (core.profile.dash)
    dashed: bool = False


@dataclass(frozen=True)
class LeadershipRuling:
    """Say which Leadership a unit tests on and which rule decided it."""

    value: int
    rule: str
    source: str
    #: the Leadership tested is a '-' or '*' in the source's profile: the value 0 (core.profile.dash)
    dashed: bool = False
    #: the clauses that make the source's value one of the unit's (a joined character's: ``Ruleset.lent_value``)
    also: tuple[str, ...] = ()
    #: the words that say so ("" when the value is the unit's own)
    lent: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        """The clauses that decided the value: its rule, those that make it the unit's (``also``), and
        core.profile.dash when it is a '-' (judge round 51)."""
        return (self.rule, *self.also, *(("core.profile.dash",) if self.dashed else ()))

    @property
    def said(self) -> str:
        """Whose Leadership it is, in words, and that it is a '-' (the value 0) when it is."""
        return f"{self.source}, whose Ld is '-': the value 0" if self.dashed else self.source


class Ruleset:
    """Hold the rules shared by every game; subclasses override hooks for their seed."""

    name: ClassVar[str] = "core"
    title: ClassVar[str] = "Rules shared by every ruleset (seed 004)"
    seeds: ClassVar[tuple[str, ...]] = ("004",)

    #: The phases of a player turn, in order, each with the actions it allows (data, not code).
    #: A Deployment phase before turn 1 (what may be done in it), for the rulesets that have one.
    deployment: ClassVar[PhaseSpec | None] = None
    #: Actions a unit of the side whose turn it is not may take too (published.turn-sequence); by default a test.
    either_side: ClassVar[frozenset[str]] = frozenset({"test"})
    #: Optional action fields this ruleset does not read (another game's choices), by action kind, each with what
    #: it is for: an action that sets one is refused naming it, never played as if the field were not there.
    unread_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: The battle's last game turn (published.game-length): a scenario's turn beyond it is refused at load, and
    #: ending the last phase of the last side's turn in it is refused in play (the battle is over).
    last_turn: ClassVar[int] = 6
    #: Scenario fields another game reads and this ruleset does not, by where they stand (``file``, ``unit``,
    #: ``model``), each with what it is for: a file that sets one (to anything but its default) is refused at load
    #: naming the field and the ruleset (``scenario._check_unread_fields``), never loaded as if it were not there.
    unread_scenario_fields: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: The phases over which ``GameState.shot_this_phase`` counts a unit's losses (the models it had when it first
    #: lost one that phase), and the rule that counts them: a scenario file giving the field in another phase is
    #: refused citing it (40k4: a Shooting phase's Morale checks; the 9th Age: heavy casualties, published.t9a-panic).
    losses_phases: ClassVar[frozenset[Phase]] = frozenset({Phase.SHOOTING})
    losses_rule: ClassVar[str] = "published.morale-casualties"
    #: Another game's unit statuses, each with what it is for: a file that gives a unit one is refused at load
    #: (``scenario._check_unread_fields``), since no rule of this ruleset would read it.
    unread_statuses: ClassVar[Mapping[Status, str]] = {}
    #: Another game's characteristics in a model's profile (the ``Profile`` field, with what it is for): a file
    #: that gives one is refused at load naming the profile (``scenario._check_casualties``), as nothing would read it.
    unread_characteristics: ClassVar[Mapping[str, str]] = {}
    #: The special rules this ruleset's code reads, as ``rule_name`` writes them; a unit's other rules are
    #: kept as text and read by no rule (a scenario's load names them in a note, ``scenario.scenario_notes``).
    modelled_rules: ClassVar[frozenset[str]] = frozenset()
    #: Special rules (as ``rule_name`` writes them) that say what kind of character a unit is: a scenario's unit
    #: that lists one is that kind of character (``character:`` may be left out, and must agree where given), as a
    #: roster's Independent Character is in 40k.
    character_rule_names: ClassVar[Mapping[str, CharacterKind]] = {}
    #: The kinds of character the ruleset has (``character:``); a scenario naming another is refused at load, citing
    #: ``character_kinds_rule`` and saying ``character_kinds_words``.
    character_kinds: ClassVar[frozenset[CharacterKind]] = frozenset(CharacterKind)
    character_kinds_words: ClassVar[str] = ""
    phases: ClassVar[tuple[PhaseSpec, ...]] = (
        PhaseSpec(Phase.MOVEMENT, frozenset({"move", "end_phase"})),
        PhaseSpec(Phase.SHOOTING, frozenset({"end_phase"})),
        PhaseSpec(Phase.ASSAULT, frozenset({"end_phase"})),
    )

    # -- validation of a loaded scenario ------------------------------------------
    def rule_name(self, name: str) -> str:
        """Return a special rule's name as this ruleset's code compares it (``rule_key``: case and spacing aside)."""
        return rule_key(name)

    def model_wounds(self, unit: Unit, model: Model) -> int:
        """Return the Wounds a model has in play: its profile's, plus what this ruleset adds (nothing by default).
        A scenario lists a model only while its wounds taken are fewer (core.zero.w)."""
        return model.profile.w

    def wounds_bonus_said(self, unit: Unit, model: Model) -> str:
        """Say, with its rule, why ``model_wounds`` differs from the profile's Wounds (never asked by default)."""
        return ""

    def counts_as_character(self, unit: Unit) -> bool:
        """Say whether a unit is a character (may join units): taken as one (``character:``) by default."""
        return unit.is_character

    def validate_state(self, state: GameState, source: str) -> None:
        """Check what only this ruleset forbids in a scenario (nothing by default)."""

    #: The rule that reads a model's weapons by name, cited when a scenario names one this ruleset has no profile for.
    weapons_rule: ClassVar[str] = "published.weapon-profiles"
    #: What a refusal of a weapon's name adds: where another weapon may come from.
    weapons_hint: ClassVar[str] = "or define its profile under weapons:"

    def weapon_names(self, state: GameState) -> frozenset[str] | None:
        """Name (in lower case) every weapon a model of ``state`` may carry, or None when this ruleset reads no weapon.

        ``scenario.state_from_data`` refuses any other name at load (``weapons_rule``), so no model
        is left without the weapon its player wrote; ``weapon_known`` compares a name with these.
        """
        return None

    def weapon_key(self, name: str) -> str:
        """Return a model's weapon name as ``weapon_names`` lists it: in lower case (as play finds it)."""
        return name.lower()

    def weapon_known(self, name: str, names: frozenset[str]) -> bool:
        """Say whether a model's weapon ``name`` is one of ``names`` (``weapon_names``)."""
        return self.weapon_key(name) in names

    # -- actions: ruling, resolving, listing ---------------------------------------
    def phase_spec(self, phase: Phase) -> PhaseSpec:
        """Return the declaration of a phase, or refuse a phase this ruleset does not have."""
        if phase is Phase.DEPLOYMENT and self.deployment is not None:
            return self.deployment
        for spec in self.phases:
            if spec.phase == phase:
                return spec
        raise IllegalActionError(
            f"ruleset {self.name} has no {phase.value} phase (phases: {', '.join(p.phase.value for p in self.phases)})"
        )

    def has_phase(self, phase: Phase) -> bool:
        """Say whether a game of this ruleset can stand in ``phase`` (Deployment only if it has one)."""
        if phase is Phase.DEPLOYMENT:
            return self.deployment is not None
        return any(spec.phase == phase for spec in self.phases)

    def end_deployment(self, state: GameState, rule: str, what: str) -> Resolution:
        """End a side's Deployment: the next side deploys, and after the last side the first turn begins.

        Shared by the rulesets that have a Deployment phase; ``rule`` is the clause that
        deploys, ``what`` says what the next side does there.
        """
        i = state.sides.index(state.active)
        if i + 1 < len(state.sides):
            nxt = replace(state, active=state.sides[i + 1])
            return nxt, [Event("phase", f"{nxt.active}: deployment{what}", (rule,))]
        first = replace(state, active=state.sides[0], phase=self.phases[0].phase)
        return first, [Event("turn", f"deployment over; turn {first.turn}: {first.active} to play, "
                                     f"{first.phase.value} phase", (rule,))]

    def rule_on(self, state: GameState, action: Action) -> Ruling:
        """Rule on an action: allowed in this phase, then the action's own rules (``rule_<do>``)."""
        _expect_state_and_action(state, action, "Ruleset.rule_on")
        return self.judge_checked(state, action).ruling

    def judge(self, state: GameState, action: Action) -> Judgement:
        """Rule on an action as ``rule_on`` does; keep the result of a placing action that no dice decide."""
        _expect_state_and_action(state, action, "Ruleset.judge")
        return self.judge_checked(state, action)

    @implements(TURN_SEQUENCE)
    def judge_checked(self, state: GameState, action: Action) -> Judgement:
        """``judge`` for a caller that has checked its arguments already (``Game``: its state, an action it read).

        The turn sequence is ruled here, once for every action: out of its phase, or by a unit of
        the side whose turn it is not (``either_side`` names the actions the other side takes too).
        """
        spec = self.phase_spec(state.phase)
        if action.do not in spec.actions:
            allowed = ", ".join(sorted(spec.actions))
            return Judgement(Ruling.forbid(
                f"{action.do!r} is not an action of the {state.phase.value} phase (allowed: {allowed}): "
                "each phase has its own actions", *self.phase_rules(state, action), TURN_SEQUENCE,
            ))
        ruler: Callable[[GameState, Any], Ruling] | None = getattr(self, f"rule_{action.do}", None)
        if ruler is None:
            return Judgement(Ruling.forbid(f"ruleset {self.name} has no {action.do!r} action"))
        if (unread := self.unread_fields.get(action.do)) is not None and (problem := _unread(action, unread)):
            return Judgement(problem)
        try:
            action = self.named_now(state, action)
            if action.do not in self.either_side and (problem := _not_its_turn(state, action)):
                if own := self.own_turn_rules(action):  # the action's own clause names the player's own phase
                    problem = Ruling.forbid(f"{problem.reason}; {own[0]}", *problem.rules, *own[1:])
                return Judgement(problem)
            ruling = ruler(state, action)
        except IllegalActionError as exc:  # e.g. an unknown unit id
            return Judgement(Ruling.forbid(exc.reason, *exc.rules))
        if ruling.legal and action.do in PLACING:
            return self._bases_apart(state, action, ruling)
        return Judgement(ruling)

    def named_now(self, state: GameState, action: Act) -> Act:
        """Return the action with each unit it names read as the unit that name stands for now (a hook).

        Ruling and resolving both see the action through it, so no ``rule_<do>`` or ``resolve_<do>``
        can forget it: the 9th Age reads a destroyed combined unit's name as its last survivor.
        By default a name is the unit it names.
        """
        return action

    def _bases_apart(self, state: GameState, action: Action, ruling: Ruling) -> Judgement:
        """Forbid a placing action whose models would end on other models, when no dice decide where.

        The action is resolved with dice that refuse to roll; one that rolls (a charge, a
        difficult-terrain move) is checked when it is resolved instead (``resolve``).  An
        action whose rule and resolution are both marked ``places_as_ruled``, or whose resolution
        is marked ``places_apart``, is not resolved to look again: its result is worked out only
        if it is applied.
        """
        placing = self._placing(action.do)
        if placing == _LATER:
            return Judgement(ruling, resolve_later=partial(self._without_dice, state, action))
        if placing == _ROLLED:
            return Judgement(ruling)  # dice decide where its models end: checked when it is resolved
        resolved = self._without_dice(state, action)
        if resolved is None:
            return Judgement(ruling)
        if problem := movement.overlap_problem(state, resolved[0]):
            return Judgement(Ruling.forbid(problem, "published.bases-apart"))
        return Judgement(ruling, resolved)

    def judged_as_ruled(self, do: str) -> bool:
        """Say whether ``judge_checked`` gives an action of this kind its ``rule_<do>`` ruling unchanged once the turn
        sequence's checks pass: no field is barred (``unread_fields``) and no placing check follows the rule (its
        models are placed by dice, or looked at only if it is applied).  A screen that has seen those checks pass may
        then ask the rule alone (``screened_candidates``)."""
        if self.unread_fields.get(do):
            return False
        return do not in PLACING or self._placing(do) != _NOW

    def _placing(self, do: str) -> str:
        """Say how ``_bases_apart`` looks at a placing action: its result worked out only if applied (``_LATER``), its
        models placed by dice and looked at when resolved (``_ROLLED``), or resolved now to look (``_NOW``); kept per
        class and action kind, since the marks are the methods' (looked at afresh for methods set on an instance)."""
        key = (type(self), do)
        known = None if self.__dict__ else _PLACING.get(key)
        if known is None:
            resolver = None if self._places_as_ruled(do) else getattr(self, f"resolve_{do}")
            known = (_LATER if resolver is None or getattr(resolver, _PLACES_APART, False) else
                     _ROLLED if getattr(resolver, _ROLLS_BEFORE_PLACING, False) else _NOW)
            if not self.__dict__:
                _PLACING[key] = known
        return known

    def _places_as_ruled(self, do: str) -> bool:
        """Say whether both ``rule_<do>`` and ``resolve_<do>`` of this ruleset are marked ``places_as_ruled``."""
        if self.__dict__:  # methods set on this very instance: look at them, not at its class
            return _marked(getattr(self, f"rule_{do}")) and _marked(getattr(self, f"resolve_{do}"))
        known = _RULED.get((type(self), do))
        if known is None:
            known = _RULED[(type(self), do)] = (_marked(getattr(self, f"rule_{do}"))
                                                and _marked(getattr(self, f"resolve_{do}")))
        return known

    def _without_dice(self, state: GameState, action: Action) -> Resolution | None:
        """Resolve an action with dice that refuse to roll: its result if no dice decide it, else None."""
        resolver: Callable[[GameState, Any, Dice], Resolution] = getattr(self, f"resolve_{action.do}")
        try:
            return resolver(state, action, _NO_ROLLS)
        except (_RollNeeded, IllegalActionError):
            return None

    def phase_rules(self, state: GameState, action: Action) -> tuple[str, ...]:
        """Return the rule ids that tie an action to its phase (for refusals out of phase)."""
        return ()

    def own_turn_rules(self, action: Action) -> tuple[str, ...]:
        """Return what a refusal of ``action`` in the other side's turn adds: the words of the action's own clause
        where it names the player's own phase, then its rule ids (none: the turn sequence alone is cited)."""
        return ()

    def resolve(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Carry out a legal action (``resolve_<do>``); return the new state and its events."""
        _expect_state_and_action(state, action, "Ruleset.resolve")
        guards.instance(dice, Dice, "Ruleset.resolve", "dice", "a Dice (SeededDice(seed) or ScriptedDice(faces))")
        return self.resolve_checked(state, action, dice)

    def resolve_checked(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """``resolve`` for a caller that has checked its arguments already (``Game.apply``: the action ruled legal)."""
        resolver: Callable[[GameState, Any, Dice], Resolution] = getattr(self, f"resolve_{action.do}")
        after, events = resolver(state, self.named_now(state, action), dice)
        if action.do in PLACING and (problem := movement.overlap_problem(state, after)):
            raise IllegalActionError(problem, ("published.bases-apart",))
        return after, events

    def screened_candidates(self, state: GameState) -> Iterable[tuple[Action, bool]]:
        """Propose ``candidate_actions`` in order, each with True if a check made for several together found it legal.

        A candidate such a check finds surely refused may be left out (40k: the moves of a unit that
        may not move at will, the run of a unit without Fleet).  ``Game.legal_actions`` judges the
        others one by one; by default every one is.
        """
        return ((action, False) for action in self.candidate_actions(state))

    def fallback_candidates(self, state: GameState, legal: Sequence[Action]) -> Iterable[Iterable[Action]]:
        """Propose, after ``legal`` (the candidates found legal), groups of other tries ``Game.legal_actions`` judges
        in order, keeping each group's first legal one: what to offer where a sampled candidate was refused (t9a: a
        unit whose forward moves end on a friend is offered a move back or aside).  By default there are none."""
        return ()

    def candidate_actions(self, state: GameState) -> Iterable[Action]:
        """Propose actions for the active side; ``Game.legal_actions`` keeps the legal ones."""
        from ..actions import EndPhase

        yield EndPhase.trusted(do="end_phase")

    def targets(self, state: GameState, unit_id: str) -> dict[str, Ruling]:
        """Rule on every enemy unit as a target of ``unit_id`` (phase aside)."""
        guards.instance(state, GameState, "Ruleset.targets", "state", _A_STATE)
        guards.instance(unit_id, str, "Ruleset.targets", "unit_id", "a unit id (text)")
        shooter = state.unit(unit_id)
        return {u.id: self.target_ruling(state, unit_id, u.id) for u in state.enemies_of(shooter.side)}

    def target_ruling(self, state: GameState, shooter_id: str, target_id: str) -> Ruling:
        """Rule on one target (rulesets with shooting override this)."""
        return Ruling.forbid(f"ruleset {self.name} does not rule on shooting targets")

    def odds_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        """Say what the odds of one action leave out because a rule takes it later (none by default)."""
        return ()

    def summarise_actions(self, state: GameState, actions: Iterable[Action]) -> list[dict[str, Any]]:
        """Return legal actions as JSON, with moves summarised per unit instead of listed point by point."""
        out: list[dict[str, Any]] = []
        moves: dict[str, int] = {}
        for a in actions:
            if a.do == "move":
                moves[a.unit] = moves.get(a.unit, 0) + 1
                continue
            out.append(a.to_json())
        for unit_id, n in moves.items():
            out.append({"do": "move", "unit": unit_id, "to": "positions, one per model in file order",
                        "sampled_directions_legal": n})
        return out

    # -- ending phases and turns ----------------------------------------------------
    @implements("published.game-length")
    def rule_end_phase(self, state: GameState, action: Action) -> Ruling:
        """Allow ending any phase but the battle's last (the last phase of the last side's turn in its last turn), citing
        the turn sequence that sends play on to the next phase (published.turn-sequence)."""
        if self.ends_the_battle(state):
            return Ruling.forbid(f"the battle is over: it lasts {self.last_turn} game turns, and this "
                                 f"{state.phase.value} phase of turn {state.turn} ({state.active}, the last side to "
                                 f"play) is its last phase", "published.game-length")
        return Ruling.allow(f"{state.active} ends the {state.phase.value} phase", TURN_SEQUENCE)

    def ends_the_battle(self, state: GameState) -> bool:
        """Say whether ending the phase would end the battle's last player turn (published.game-length)."""
        return (state.turn >= self.last_turn and state.phase is self.phases[-1].phase
                and state.sides.index(state.active) == len(state.sides) - 1)

    @implements(TURN_SEQUENCE)
    def resolve_end_phase(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Move to the next phase, or hand the turn to the next side after the last one; the event cites the turn
        sequence, so that every step of a log names its clause (a judge's page shows it)."""
        following = _NEXT_PHASE.get(type(self))
        if following is None:  # each phase's next (None after the last), once per ruleset class
            order = [p.phase for p in self.phases]
            following = _NEXT_PHASE[type(self)] = dict(zip(order, [*order[1:], None]))
        nxt_phase = following[state.phase]
        state = _allowances_renewed(state)
        if nxt_phase is not None:
            return evolve(state, phase=nxt_phase), [_phase_event(state.active, nxt_phase)]
        return self.end_turn(state)

    def end_turn(self, state: GameState) -> Resolution:
        """Clear this turn's statuses of the active side and give the next side its first phase."""
        side = state.active
        units = tuple(
            u.with_status(remove=tuple(TURN_STATUSES)) if u.side == side else u for u in state.units
        )
        nxt_side = state.opponent(side)
        turn = state.turn + 1 if state.sides.index(nxt_side) == 0 else state.turn
        new = evolve(state, units=units, active=nxt_side, turn=turn, phase=self.phases[0].phase, fired_at=(),
                     joined_when_shot=(), shot_this_phase=())
        return new, [Event("turn", f"turn {turn}: {nxt_side} to play, {new.phase.value} phase", (TURN_SEQUENCE,))]

    #: Whether rank-and-file units stand in formations (files and ranks, a facing): a scenario built from a roster
    #: (``roster_scenario``) deploys each such unit as a formation, else model by model.
    ranked_units: ClassVar[bool] = False

    # -- psychic powers -------------------------------------------------------
    supports_psychic_tests: ClassVar[bool] = False
    #: The clause that says what Perils of the Warp does to the psyker.
    perils_rule: ClassVar[str] = "40k3.psyker.perils"
    #: The clauses on the psychic test (and one power a turn), on a power used on a 2 despite Perils, and on a
    #: psychic attack following the Shooting rules: 3rd edition's (seed 000); 4th edition has its own published ones.
    psychic_test_rule: ClassVar[str] = "40k3.psyker.test"
    power_on_two_rule: ClassVar[str] = "40k3.psyker.perils-on-2"
    #: Why a psyker who has taken his psychic test this turn may not take another (``psychic_test_rule``), after a
    #: failed test and after a passed one: each edition's own words.
    failed_test_words: ClassVar[str] = "a failed psychic test means no power this turn"
    one_power_words: ClassVar[str] = "a passed test lets a psyker use one power, never more than one power a turn"
    psychic_shooting_rule: ClassVar[str] = "40k3.psyker.as-shooting"

    def second_psychic_test(self, psyker: Unit) -> str | None:
        """Say why ``psyker`` may take no other psychic test this turn (None: he may), in this edition's words: a game's
        power and a plan's ``psychic_test`` step are refused alike (``psychic_test_rule``)."""
        if psyker.has(Status.PSYCHIC_TEST_FAILED):
            return f"{psyker.id} failed its psychic test this turn: {self.failed_test_words}"
        if psyker.has(Status.USED_POWER):
            return f"{psyker.id} has already used a psychic power this turn: {self.one_power_words}"
        return None
    #: The clause that says a character is ordinary (part of his unit for good) or independent: a scenario's ordinary
    #: character outside a unit, and his join or leave, are refused citing it.
    character_kinds_rule: ClassVar[str] = "40k3.char.kinds"
    #: The clause that lets a special (named) character into a battle only when both players agree (a scenario's
    #: ``special_characters: true``), or None where the ruleset asks no such agreement.
    special_characters_rule: ClassVar[str | None] = None

    @classmethod
    def psychic_rules(cls) -> tuple[str, ...]:
        """The clauses a psychic test with Perils of the Warp cites in this edition: the test, Perils, a power on a 2."""
        return tuple(dict.fromkeys((cls.psychic_test_rule, cls.perils_rule, cls.power_on_two_rule)))

    #: What Perils of the Warp reads of the psyker beside his Wounds (3rd: his Toughness against the Strength D6 hit)
    perils_reads: ClassVar[tuple[str, ...]] = ("toughness",)

    def require_psychic_tests(self) -> None:
        """Refuse a psychic test in a ruleset that has none."""
        if not self.supports_psychic_tests:
            raise IllegalActionError(
                f"ruleset {self.name} has no 40k psychic test (use 40k3 or 40k4)", ["40k3.psyker.test"]
            )

    def psychic_test(self, dice: Dice, leadership: int, toughness: int, wounds: int,
                     invulnerable: int | None = None) -> PsychicResult:
        """Take a psychic test by this ruleset's rules (the psyker's Toughness, Wounds left and invulnerable save)."""
        self.require_psychic_tests()
        raise NotImplementedError  # pragma: no cover - unreachable, require_ raises

    # -- Leadership -------------------------------------------------------------
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Return the Leadership a unit tests on: the player's choice, the highest by default."""
        value = chosen_leadership([s.leadership for s in sources], chosen)
        source = next(s for s in sources if s.leadership == value)
        return LeadershipRuling(value, "core.test.leadership-choice", source.name, source.dashed)

    @implements("core.profile.dash")
    def leadership_of(self, state: GameState, unit_id: str, chosen: int | None = None) -> LeadershipRuling:
        """Return the Leadership a unit (with the characters that joined it) tests on, by ``unit_leadership``.

        The hook sees one source per distinct (Leadership, character or not), the first model
        of each in order: all a test on the highest, the character's or a chosen value reads. A Leadership
        printed '-' is kept as such (``LeadershipRuling.dashed``), so the test taken on it cites core.profile.dash.
        """
        return self.unit_leadership(leadership_sources(state, unit_id), chosen)

    def lent_value(self, state: GameState, unit_id: str, model_name: str) -> tuple[tuple[str, ...], str]:
        """Return the clauses, and the words, by which the value of the model ``model_name`` is one of the unit's when a
        test of the unit is taken on it (nothing by default: the unit's own models' values are its own)."""
        return (), ""

    def with_lent(self, state: GameState, unit_id: str, ld: LeadershipRuling) -> LeadershipRuling:
        """Return ``ld`` with the clauses and words of ``lent_value`` for its source (unchanged when none)."""
        also, lent = self.lent_value(state, unit_id, ld.source)
        return replace(ld, also=also, lent=lent) if also else ld

    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say whether a unit of one model left takes a Last Man Standing test."""
        return True

    # -- special rules as play sees them ----------------------------------------------
    def effective_rules(self, state: GameState, unit_id: str) -> frozenset[str]:
        """Return the special rules a unit (or a joined character) has now, names normalised.

        Every rule that asks "has this unit rule X?" asks here, so what joining shares,
        withholds or takes away (the rulesets' hooks) holds everywhere at once.
        """
        return rule_keys(state.unit(unit_id).rules)

    def group_has_rule(self, state: GameState, unit_id: str, rule: str, alone: bool = False) -> bool:
        """Say whether a unit acting with its joined characters has a rule: only if every member has it.

        A rule that lets a unit do something (Fearless, Move Through Cover, Fleet) works for
        the unit as a whole only when no member lacks it, since a character does not gain
        the unit's rules nor the unit the character's (40k3.ic.no-unit-abilities,
        40k4.ic.rules-not-shared) and the unit acts together.  ``alone``: a character
        moving by itself (joining, leaving) counts only its own rules.
        """
        members = [state.unit(unit_id)] if alone else state.combined(unit_id)
        return all(rule in self.effective_rules(state, u.id) for u in members)

    # -- tests a rule or the judge calls for (seed 004) -------------------------------
    def rule_test(self, state: GameState, action: TakeTest) -> Ruling:
        """Allow a test of a living unit of either side, with a Leadership value that is the unit's to pick."""
        unit = state.unit(action.unit)
        if not unit.alive:
            return Ruling.forbid(f"{unit.id} has no models left to test", "core.zero.w")
        if action.unmodified and action.modifiers:
            return Ruling.forbid("field modifiers: a test of the unmodified value takes no modifiers",
                                 "core.value.unmodified")
        if action.characteristic != "Ld":
            if action.kind is not None or action.leadership is not None:
                field = "kind" if action.kind is not None else "leadership"
                return Ruling.forbid(f"field {field}: only a Leadership test (characteristic Ld) has one",
                                     "core.test.leadership-kinds")
            value, source, dash, lent = self._tested_value(state, action)
            # the ruling cites the value the roll is taken on as the rolled test's event does (core.value.used,
            # core.value.unmodified), and as a Leadership test's ruling does
            return Ruling.allow(f"{unit.id} may take a {action.characteristic} test on {value} ({source}): "
                                "a D6, at most the value passes, a 6 always fails", "core.test.characteristic",
                                "core.test.highest-value", *dash, *_valued(action), notes=(lent,) if lent else ())
        try:
            ld = self._tested_leadership(state, action)
        except IllegalActionError as exc:
            return Ruling.forbid(exc.reason, *exc.rules)
        kind = action.kind or "Leadership"
        # the ruling names the value the roll is taken on, as resolve_test does (core.value.used)
        host = unit.joined or unit.id  # a character in a unit takes its Leadership tests with it, as resolve_test says
        value, cited, how = self._modified_leadership(state, host, LeadershipTestKind(kind), ld.value, action)
        # cites what the rolled test's event cites (``TestResult.clauses``), as a named test's ruling does
        return Ruling.allow(f"{host} may take a {kind} test on Ld {value} ({ld.said}{how}): 2D6, at most the "
                            "value passes", *LEADERSHIP_CLAUSES, *ld.rules, *cited,
                            notes=(ld.lent,) if ld.lent else ())

    @implements("core.value.used", "core.value.unmodified", "core.test.highest-value", "core.profile.dash")
    def _tested_value(self, state: GameState, action: TakeTest) -> tuple[int, str, tuple[str, ...], str]:
        """Return the value a characteristic test uses: each model's used value, the highest in the unit.

        ``unmodified`` tests the profile as it stood at the start of the game (a Veteran's
        Strength already written in); otherwise the modifiers apply in the fixed order of
        core.value.used.  The third value cites core.profile.dash when the model tested prints the characteristic as
        '-' (its words say so): judge round 51, a test on a '-' cited only the test's clause; and the clauses by which
        the model's value is the unit's (``lent_value``), whose words are the fourth.
        """
        ch = Characteristic(action.characteristic)
        mods = [_modifier(ch, m.kind, m.value, m.source) for m in action.modifiers]
        members = state.combined(action.unit) if not state.unit(action.unit).joined else [state.unit(action.unit)]
        values = [(m.profile[ch] if action.unmodified else used_value(m.profile, ch, mods), m)
                  for u in members for m in u.models]
        best = highest_value([v for v, _ in values])
        source = next(m for v, m in values if v == best)
        how = "unmodified" if action.unmodified else ("used value" if mods else "profile")
        dashed = source.profile.is_dashed(ch)
        how += f": its {ch.value} is '-', the value 0" if dashed else ""
        # a character tested alone (not his unit) tests his own value, nobody else's
        also, lent = self.lent_value(state, action.unit, source.name) if len(members) > 1 else ((), "")
        return (best, f"{source.name}'s {how}" + (", the highest in the unit" if len(values) > 1 else ""),
                (*also, *(("core.profile.dash",) if dashed else ())), lent)

    def _tested_leadership(self, state: GameState, action: TakeTest) -> LeadershipRuling:
        unit = state.unit(action.unit)
        if unit.joined:  # a character in a unit tests with it
            return self.leadership_of(state, unit.joined, action.leadership)
        return self.leadership_of(state, unit.id, action.leadership)

    def resolve_test(self, state: GameState, action: TakeTest, dice: Dice) -> Resolution:
        """Roll the test; on a failure the rule that called for it decides (``test_failed``)."""
        unit = state.unit(action.unit)
        start = rolls_made(dice)
        if action.characteristic != "Ld":
            value, source, dash, lent = self._tested_value(state, action)
            result = characteristic_test(dice, value, f"{unit.id}: {action.characteristic} test")
            verdict = "passes" if result.passed else "fails"
            return state, [Event("test", f"{unit.id} takes a {action.characteristic} test on {value} ({source}), "
                                 f"rolls {result.roll}: {verdict}" + (f" ({lent})" if lent else ""),
                                 (*result.clauses, "core.test.highest-value", *dash, *_valued(action)),
                                 rolls_since(dice, start), _outcome(result.passed))]
        kind = LeadershipTestKind(action.kind or "Leadership")
        ld = self._tested_leadership(state, action)
        host = unit.joined or unit.id
        if self.passes_automatically(state, host, kind):
            return state, [Event("test", f"{host} is Fearless: it passes the {kind.value} test without rolling",
                                 ("published.fearless", *self.rules_sharing_rules()), (), _outcome(True))]
        value, cited, how = self._modified_leadership(state, host, kind, ld.value, action)
        cited += self.withheld(state, host, "fearless")
        heroism = self.double_one_passes(kind)
        result = leadership_test(dice, value, kind, double_one_passes=heroism is not None)
        again = ""
        if not result.passed and (reroll := self.failed_leadership_reroll(state, host)) is not None:
            first, (why, rules) = result.roll, reroll
            result = leadership_test(dice, value, kind, double_one_passes=heroism is not None)
            again, cited = f"; the first roll, {first}, failed and was re-rolled for {why}", (*cited, *rules)
        verdict = result.verdict(kind.value)
        if heroism is not None and result.insane_heroism:
            cited += (heroism,)
        event = Event("test", f"{host} takes a {kind.value} test on Ld {value} ({ld.said}{how}), rolls "
                      f"{result.roll}: {verdict}{again}" + (f" ({ld.lent})" if ld.lent else ""),
                      (*result.clauses, *ld.rules, *cited, *self.lost_rules_cited(state, host)),
                      rolls_since(dice, start), _outcome(result.passed))
        if result.passed:
            return state, [event]
        state, more = self.test_failed(state, host, kind, dice)
        return state, [event, *more]

    def _modified_leadership(self, state: GameState, unit_id: str, kind: LeadershipTestKind, value: int,
                             action: TakeTest) -> tuple[int, tuple[str, ...], str]:
        """Apply a Leadership test's modifiers (core.value.used); a Stubborn unit ignores the negative ones.

        A test of the unmodified value (which takes no modifiers) is told so and cites core.value.unmodified, as a
        characteristic test's is (judge round 40 (core): its ruling and event cited nothing of it).  Several set
        values are several values of Leadership, and the test is on the highest: said, citing
        core.test.highest-value (judge round 41 (core): it cited only core.value.used).
        """
        if action.unmodified:
            return value, ("core.value.unmodified",), ", unmodified"
        if not action.modifiers:
            return value, (), ""
        mods = [_modifier(Characteristic.LD, m.kind, m.value, m.source) for m in action.modifiers]
        cited: tuple[str, ...] = ("core.value.used",)
        how = ", modified"
        if self.ignores_negative_modifiers(state, unit_id, kind):
            mods = [m for m in mods if not (m.kind is ModifierKind.ADD and m.value < 0)]
            cited += self.stubborn_cited(state, unit_id)
            how = ", Stubborn: negative modifiers ignored"
        if (sets := sum(m.kind is ModifierKind.SET for m in mods)) > 1:  # several values: the highest (used_value)
            cited += ("core.test.highest-value",)
            how += f": the highest of {sets} set values"
        profile = state.unit(unit_id).models[0].profile.with_value(Characteristic.LD, value)
        return used_value(profile, Characteristic.LD, mods), cited, how

    def withheld(self, state: GameState, unit_id: str, rule: str) -> tuple[str, ...]:
        """Cite the sharing rule when some member of a joined unit has ``rule`` but the unit as a whole has not."""
        members = state.combined(unit_id)
        has = [rule in self.effective_rules(state, u.id) for u in members]
        return self.rules_sharing_rules() if any(has) and not all(has) else ()

    def ignores_negative_modifiers(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether the unit ignores negative Leadership modifiers on this test (none by default)."""
        return False

    def stubborn_cited(self, state: GameState, unit_id: str) -> tuple[str, ...]:
        """Name the clauses by which the unit ignores a test's negative modifiers (40k's Stubborn by default)."""
        return ("published.stubborn", *self.rules_sharing_rules())

    def passes_automatically(self, state: GameState, unit_id: str, kind: LeadershipTestKind) -> bool:
        """Say whether a unit passes this test without rolling (none by default)."""
        return False

    def failed_leadership_reroll(self, state: GameState, unit_id: str) -> tuple[str, tuple[str, ...]] | None:
        """Say what lets a unit re-roll a failed Leadership test the judge calls for, and the clauses that say so
        (None by default: no re-roll)."""
        return None

    def double_one_passes(self, kind: LeadershipTestKind) -> str | None:
        """Return the rule by which a roll of double 1 passes this test whatever its modifiers (None by default)."""
        return None

    def rules_sharing_rules(self) -> tuple[str, ...]:
        """Name the clause that decides which special rules a joined unit shares (none by default)."""
        return ()

    def rules_lost_rules(self) -> tuple[str, ...]:
        """Name the clause by which a unit loses its own special rules to a character joining it (none by default)."""
        return ()

    def lost_rules_cited(self, state: GameState, unit_id: str) -> tuple[str, ...]:
        """Cite ``rules_lost_rules`` when a joined character has taken one of the unit's own rules from it."""
        own = {rule_key(r) for r in state.unit(unit_id).rules}
        if len(state.combined(unit_id)) > 1 and any(not self.group_has_rule(state, unit_id, r) for r in own):
            return self.rules_lost_rules()
        return ()

    def test_failed(self, state: GameState, unit_id: str, kind: LeadershipTestKind, dice: Dice) -> Resolution:
        """Carry out what failing a named test does (nothing by default: the calling rule says)."""
        return state, [Event("test", f"{unit_id} failed its {kind.value} test; the rule that called for it "
                             "decides what follows")]


def with_its_unit(unit: Unit, does: str, ask: str, *rules: str) -> Ruling | None:
    """Refuse an action named on a character that has joined a unit: the unit acts, and the character with it.

    ``does`` says what the character does with its unit ("runs when its unit does"),
    ``ask`` the action to ask for instead ("run with"): the host's id follows it.
    """
    if not unit.joined:
        return None
    return Ruling.forbid(f"{unit.id} is part of {unit.joined}: it {does} ({ask} {unit.joined})", *rules)


_MOVED = attrgetter("moved")
#: Each ruleset class's phases, each with the one that follows it (None: the last, which ends the turn).
_NEXT_PHASE: dict[type, dict[Phase, Phase | None]] = {}


@lru_cache(maxsize=64)
def _phase_event(side: str, phase: Phase) -> Event:
    """The event of a side's next phase beginning (one value per side and phase: events are never changed)."""
    return Event("phase", f"{side}: {phase.value} phase", (TURN_SEQUENCE,))


def _allowances_renewed(state: GameState) -> GameState:
    """Return the state with every model's move allowance whole again (a new phase begins)."""
    spent = [evolve(u, models=tuple([evolve(m, moved=0.0) for m in u.models]))
             for u in state.units if any(map(_MOVED, u.models))]
    return state.replace_units(*spent) if spent else state


def rule_key(name: str) -> str:
    """Return a special rule's name as the engine compares it: lower case, words joined by '_'."""
    return "_".join(name.lower().replace("-", " ").split())


@lru_cache(maxsize=1024)
def rule_keys(names: frozenset[str]) -> frozenset[str]:
    """Return a unit's special rules as the engine compares them (``rule_key`` of each; asked for every unit each ruling)."""
    return frozenset(rule_key(r) for r in names)


def model_name_clash(state: GameState, character: Unit, host: Unit) -> str | None:
    """Say how a character joining ``host`` would put two models of one name in one unit (None: it would not).

    A scenario's load refuses such a unit (actions, allocations and rulings name a model, so two of one
    name could not be told apart); a 40k join in play is refused alike (t9a's join plan refuses it by its
    slots' names).
    """
    names = {m.name for m in character.models}
    for other in (host, *state.joined_to(host.id)):
        if other.id != character.id and (same := next((m.name for m in other.models if m.name in names), None)):
            of = "" if other is host else f" (a character joined to {host.id})"
            return (f"{character.id}'s model {same!r} has the name of a model of {other.id}{of}: joined, one unit "
                    f"would hold two models named {same!r}, which actions, allocations and rulings could not tell "
                    f"apart; give one its own name in the scenario file")
    return None


def _valued(action: TakeTest) -> tuple[str, ...]:
    """Cite the clause of the value a characteristic test is taken on: unmodified, or used after modifiers."""
    return ("core.value.unmodified",) if action.unmodified else ("core.value.used",) if action.modifiers else ()


def _outcome(passed: bool) -> tuple[tuple[str, str], ...]:
    """Name a test's result in its event's data, so ``odds action`` and ``simulate`` count passes and failures
    (``test.outcome: passed``): the words alone said it to a reader only."""
    return (("outcome", "passed" if passed else "failed"),)


def _modifier(ch: Characteristic, kind: str, value: int | str, source: str) -> Modifier:
    return Modifier(ch, ModifierKind(kind), Fraction(value), source)


def _unread(action: Action, unread: Mapping[str, str]) -> Ruling | None:
    """Refuse an action that sets a field its ruleset does not read (``Ruleset.unread_fields``)."""
    fields = action.__dict__  # a pydantic model's fields, read without its raising __getattr__
    for name, what in unread.items():
        value = fields.get(name)
        if value is not None and value is not False:  # a file's position 0 is set (0 == False)
            return Ruling.forbid(f"{action.do}.{name} is {what}, not a choice in this game: leave out {name}")
    return None


def _not_its_turn(state: GameState, action: Action) -> Ruling | None:
    """Refuse an action whose acting unit (the character, psyker or unit it names) is not of the side to play."""
    fields = action.__dict__  # a pydantic model's fields (getattr of a field it lacks would raise inside pydantic)
    name = fields.get("character") or fields.get("psyker") or fields.get("unit")
    if not isinstance(name, str):
        return None
    unit = state.unit(name)
    if unit.side == state.active:
        return None
    return Ruling.forbid(f"{unit.id} belongs to {unit.side}, but it is {state.active}'s turn: a side acts only in "
                         "its own turn", TURN_SEQUENCE)


def leadership_sources(state: GameState, unit_id: str) -> list[LeadershipSource]:
    """Return the Leadership sources of a unit with the characters that joined it (``Ruleset.leadership_of``): one per
    distinct (Leadership, character or not), the first model of each in order."""
    seen: set[tuple[int, bool]] = set()
    sources = []
    for u in state.combined(unit_id):
        is_character = u.character is not None
        # one Leadership throughout the unit (the usual): its first model speaks for it, found in C
        models = u.models[:1] if len(set(map(_LD, u.models))) == 1 else u.models
        for m in models:
            kind = (m.profile.ld, is_character)
            if kind not in seen:
                seen.add(kind)
                sources.append(LeadershipSource(m.name, *kind, m.profile.is_dashed(Characteristic.LD)))
    return sources
