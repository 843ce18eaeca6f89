"""Warhammer 40,000 (3rd/4th edition) shooting, psychic powers, assaults, close combat and morale.

``CombatRules`` is the mixin of ``rule_<do>`` / ``resolve_<do>`` methods that
``Warhammer40k3`` inherits, built in layers, one module each, each calling only those
below it: ``w40k_hooks`` (what 4th edition overrides) -> ``w40k_wounds`` -> ``w40k_morale``
-> ``w40k_shooting`` -> ``w40k_psychic`` -> ``w40k_assault`` -> ``w40k_combat_result`` ->
``w40k_strikes`` -> ``w40k_close_combat`` -> here, the phases.  Every roll goes through ``Dice`` with its
purpose and rule id, so the same code plays a game and, under ``enumerate_outcomes``,
gives the exact odds of a whole action.  Each module's docstring states the decisions
the seeds leave open in its part of the rules.
"""

from __future__ import annotations


from ..actions import Action, Fight
from ..catalogue import implements
from ..dice import Dice
from ..rulings import Event, Ruling
from ..state import GameState, Phase
from ..units import Status
from ..values import evolve
from .base import Resolution
from .w40k_close_combat import CloseCombatRules

#: What ends with the phase: a combat fought, and the right to consolidate after it (published.consolidation).
_PHASE_DONE_ORDER = (Status.FOUGHT, Status.MAY_CONSOLIDATE)
_PHASE_DONE = frozenset(_PHASE_DONE_ORDER)


class CombatRules(CloseCombatRules):
    """Shoot, manifest psychic powers, assault, allocate attacks, fight, and take Morale checks."""

    # == phases =======================================================================
    @implements("published.close-combat")
    def rule_end_phase(self, state: GameState, action: Action) -> Ruling:
        """Refuse to end an Assault phase while a close combat in it is still to be fought: each close combat is fought
        once in every Assault phase, whoever's turn it is (published.close-combat)."""
        if state.phase is Phase.ASSAULT and (due := self.unfought_combat(state)) is not None:
            return Ruling.forbid(f"the close combat of {due} has not been fought this Assault phase: each close combat "
                                 f"is fought once in every Assault phase (do: fight, unit: {due})",
                                 "published.close-combat")
        return super().rule_end_phase(state, action)

    def unfought_combat(self, state: GameState) -> str | None:
        """Return a unit whose close combat may be fought now and has not been (``rule_fight`` allows it), or None.

        The units locked in combat are the ones ``legal_actions`` offers a fight to; a joined character fights with
        its unit."""
        for u in state.units:
            if u.alive and u.has(Status.LOCKED) and not u.joined and not u.has(Status.FOUGHT) \
                    and self.rule_fight(state, Fight.trusted(do="fight", unit=u.id)).legal:
                return u.id
        return None

    def resolve_end_phase(self, state: GameState, action: object, dice: Dice) -> Resolution:
        """End the phase; combats fought and undeclared splits of attacks end with it.

        A Movement phase ends with the fall back move of every unit of the side that is
        falling back and did not regroup (``_falls_back_again``); a Shooting phase with what the
        edition's Morale checks for casualties call for then (``shooting_phase_ends``).
        """
        events: list[Event] = []
        if state.phase is Phase.MOVEMENT:
            state, events = self._falls_back_again(state, dice)
        elif state.phase is Phase.SHOOTING:
            state, events = self.shooting_phase_ends(state, dice)
        if state.allocations or any([not u.status.isdisjoint(_PHASE_DONE) for u in state.units]):
            state = evolve(state, allocations=(),
                           units=tuple(u.with_status(remove=_PHASE_DONE_ORDER)
                                       if not u.status.isdisjoint(_PHASE_DONE) else u for u in state.units))
        state, more = super().resolve_end_phase(state, action, dice)  # type: ignore[arg-type]
        return state, [*events, *more]

    @implements("published.fall-back", "published.regroup")
    def _falls_back_again(self, state: GameState, dice: Dice) -> Resolution:
        """Move each unit of the active side still falling back, that took no Regroup test, a further fall back.

        Published rule (4th ed., Fall Back!): a unit falls back "in each subsequent Movement
        phase until the unit regroups"; one that fails its Regroup test, or may not take it
        (below half strength, an enemy within 6", out of coherency), "must continue to fall
        back".  A failed test has already moved it (``resolve_regroup``), and a unit that fell
        back this very phase has made its move.
        """
        events: list[Event] = []
        for u in state.units:
            if (u.side != state.active or u.joined or not u.models or u.embarked_in is not None
                    or not u.has(Status.FALLING_BACK) or u.has(Status.MOVED)):
                continue
            events.append(Event("regroup", f"{u.id} is still falling back and did not regroup this Movement phase: "
                                "it falls back again", ("published.fall-back", "published.regroup")))
            state, more = self._fall_back(state, u.id, dice)
            events += more
        return state, events
