"""The shared rules and the hooks each ruleset may override.

In the style of python-chess's variants: a ruleset is a small subclass that overrides
a few hook methods, each a few lines; this base class holds the defaults every game
shares (seed 004), so rules code asks ``ruleset.hook(...)`` and never which ruleset it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ..checks import chosen_leadership
from ..dice import Dice
from ..errors import IllegalActionError
from ..psychic import PsychicResult
from ..rulings import Event, Ruling
from ..state import GameState, Phase, PhaseSpec
from ..units import TURN_STATUSES, Unit

if TYPE_CHECKING:
    from ..actions import Action

Resolution = tuple[GameState, list[Event]]


@dataclass(frozen=True)
class LeadershipSource:
    """One model's Leadership as a unit's test sees it."""

    name: str
    leadership: int
    is_character: bool = False


@dataclass(frozen=True)
class LeadershipRuling:
    """Say which Leadership a unit tests on and which rule decided it."""

    value: int
    rule: str
    source: str


class Ruleset:
    """Hold the rules shared by every game; subclasses override hooks for their seed."""

    name: ClassVar[str] = "core"
    title: ClassVar[str] = "Rules shared by every ruleset (seed 004)"
    seeds: ClassVar[tuple[str, ...]] = ("004",)

    #: The phases of a player turn, in order, each with the actions it allows (data, not code).
    phases: ClassVar[tuple[PhaseSpec, ...]] = (
        PhaseSpec(Phase.MOVEMENT, frozenset({"move", "end_phase"})),
        PhaseSpec(Phase.SHOOTING, frozenset({"end_phase"})),
        PhaseSpec(Phase.ASSAULT, frozenset({"end_phase"})),
    )

    # -- validation of a loaded scenario ------------------------------------------
    def counts_as_character(self, unit: Unit) -> bool:
        """Say whether a unit is a character (may join units): taken as one (``character:``) by default."""
        return unit.is_character

    def validate_state(self, state: GameState, source: str) -> None:
        """Check what only this ruleset forbids in a scenario (nothing by default)."""

    # -- actions: ruling, resolving, listing ---------------------------------------
    def phase_spec(self, phase: Phase) -> PhaseSpec:
        """Return the declaration of a phase, or refuse a phase this ruleset does not have."""
        for spec in self.phases:
            if spec.phase == phase:
                return spec
        raise IllegalActionError(
            f"ruleset {self.name} has no {phase.value} phase (phases: {', '.join(p.phase.value for p in self.phases)})"
        )

    def rule_on(self, state: GameState, action: Action) -> Ruling:
        """Rule on an action: allowed in this phase, then the action's own rules (``rule_<do>``)."""
        spec = self.phase_spec(state.phase)
        if action.do not in spec.actions:
            allowed = ", ".join(sorted(spec.actions))
            return Ruling.forbid(
                f"{action.do!r} is not an action of the {state.phase.value} phase (allowed: {allowed})",
                *self.phase_rules(action.do),
            )
        ruler: Callable[[GameState, Any], Ruling] | None = getattr(self, f"rule_{action.do}", None)
        if ruler is None:
            return Ruling.forbid(f"ruleset {self.name} has no {action.do!r} action")
        try:
            return ruler(state, action)
        except IllegalActionError as exc:  # e.g. an unknown unit id
            return Ruling.forbid(exc.reason, *exc.rules)

    def phase_rules(self, do: str) -> tuple[str, ...]:
        """Return the rule ids that tie an action to its phase (for refusals out of phase)."""
        return ()

    def resolve(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Carry out a legal action (``resolve_<do>``); return the new state and its events."""
        resolver: Callable[[GameState, Any, Dice], Resolution] = getattr(self, f"resolve_{action.do}")
        return resolver(state, action, dice)

    def candidate_actions(self, state: GameState) -> Iterable[Action]:
        """Propose actions for the active side; ``Game.legal_actions`` keeps the legal ones."""
        from ..actions import EndPhase

        yield EndPhase(do="end_phase")

    def targets(self, state: GameState, unit_id: str) -> dict[str, Ruling]:
        """Rule on every enemy unit as a target of ``unit_id`` (phase aside)."""
        shooter = state.unit(unit_id)
        return {u.id: self.target_ruling(state, unit_id, u.id) for u in state.enemies_of(shooter.side)}

    def target_ruling(self, state: GameState, shooter_id: str, target_id: str) -> Ruling:
        """Rule on one target (rulesets with shooting override this)."""
        return Ruling.forbid(f"ruleset {self.name} does not rule on shooting targets")

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
    def rule_end_phase(self, state: GameState, action: Action) -> Ruling:
        """Allow ending any phase."""
        return Ruling.allow(f"{state.active} ends the {state.phase.value} phase")

    def resolve_end_phase(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """Move to the next phase, or hand the turn to the next side after the last one."""
        order = [p.phase for p in self.phases]
        i = order.index(state.phase)
        if i + 1 < len(order):
            nxt = replace(state, phase=order[i + 1])
            return nxt, [Event("phase", f"{state.active}: {order[i + 1].value} phase")]
        return self.end_turn(state)

    def end_turn(self, state: GameState) -> Resolution:
        """Clear this turn's statuses of the active side and give the next side its first phase."""
        side = state.active
        units = tuple(
            u.with_status(remove=tuple(TURN_STATUSES)) if u.side == side else u for u in state.units
        )
        nxt_side = state.opponent(side)
        turn = state.turn + 1 if state.sides.index(nxt_side) == 0 else state.turn
        new = replace(state, units=units, active=nxt_side, turn=turn, phase=self.phases[0].phase)
        return new, [Event("turn", f"turn {turn}: {nxt_side} to play, {new.phase.value} phase")]

    # -- psychic powers -------------------------------------------------------
    supports_psychic_tests: ClassVar[bool] = False

    def require_psychic_tests(self) -> None:
        """Refuse a psychic test in a ruleset that has none."""
        if not self.supports_psychic_tests:
            raise IllegalActionError(
                f"ruleset {self.name} has no 40k psychic test (use 40k3 or 40k4)", ["40k3.psyker.test"]
            )

    def psychic_test(self, dice: Dice, leadership: int, toughness: int, wounds: int) -> PsychicResult:
        """Take a psychic test by this ruleset's rules."""
        self.require_psychic_tests()
        raise NotImplementedError  # pragma: no cover - unreachable, require_ raises

    # -- Leadership -------------------------------------------------------------
    def unit_leadership(self, sources: Sequence[LeadershipSource], chosen: int | None = None) -> LeadershipRuling:
        """Return the Leadership a unit tests on: the player's choice, the highest by default."""
        value = chosen_leadership([s.leadership for s in sources], chosen)
        source = next(s.name for s in sources if s.leadership == value)
        return LeadershipRuling(value, "core.test.leadership-choice", source)

    def leadership_of(self, state: GameState, unit_id: str, chosen: int | None = None) -> LeadershipRuling:
        """Return the Leadership a unit (with the characters that joined it) tests on, by ``unit_leadership``."""
        sources = [
            LeadershipSource(m.name, m.profile.ld, u.is_character)
            for u in state.combined(unit_id) for m in u.models
        ]
        return self.unit_leadership(sources, chosen)

    def takes_last_man_standing(self, is_character: bool) -> bool:
        """Say whether a unit of one model left takes a Last Man Standing test."""
        return True
