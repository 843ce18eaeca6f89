"""The 9th Age ruleset as played: the character rules of seed 002 and the phases they sit in.

``NinthAge`` (t9a.py) holds what seed 002 says about characters joining, leaving and
charging out; the Magic, Shooting and Melee phases the seed relies on ("the general
rules") are mixins, one module each, and this class puts them together in the order of
a 9th Age player turn.  It is the class registered as ``t9a``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from ..dice import Dice, enumerate_outcomes
from ..distribution import Distribution
from ..errors import IllegalActionError
from ..state import GameState, Phase, PhaseSpec
from ..catalogue import implements
from ..units import Status
from .base import LeadershipRuling, LeadershipSource, Resolution
from .t9a import NinthAge
from .t9a_discipline import BATTLE_STANDARD, BSB_RULE, bearer_near
from .t9a_units import LARGE_RULES, current
from .t9a_combat import GENERAL, GENERAL_RULE, generals_near, members
from .t9a_magic import WIZARD_LEVELS, MagicPhase
from .t9a_melee import DUEL, MeleePhase, engaged_with, fighting_unit
from .t9a_panic import FriendsPanic
from .t9a_rally import Rallying
from .t9a_shooting import ShootingPhase
from .t9a_weapons import weapon_choices

from ..actions import Cast, Fight, Rally, Shoot  # built by every listing of legal actions

if TYPE_CHECKING:
    from ..actions import Action, Charge, TakeTest


class NinthAgeTurn(Rallying, MagicPhase, ShootingPhase, MeleePhase, FriendsPanic, NinthAge):
    """Play a whole 9th Age player turn: Charge, Movement, Magic, Shooting, Melee."""

    phases: ClassVar[tuple[PhaseSpec, ...]] = (
        PhaseSpec(Phase.CHARGE, frozenset({"charge", "leave", "rally", "test", "end_phase"})),
        PhaseSpec(Phase.MOVEMENT, frozenset({"move", "reform", "join", "leave", "test", "end_phase"})),
        PhaseSpec(Phase.MAGIC, frozenset({"cast", "test", "end_phase"})),
        PhaseSpec(Phase.SHOOTING, frozenset({"shoot", "test", "end_phase"})),
        PhaseSpec(Phase.MELEE, frozenset({"fight", "test", "end_phase"})),
    )
    #: The character rules' names and the phases': the General (Rally, Panic), the Battle Standard Bearer (Combat Score,
    #: re-rolled Discipline tests), a
    #: unit's Height (Large, Gigantic: Full Ranks of three), the Wizard levels (Magic).
    modelled_rules: ClassVar[frozenset[str]] = NinthAge.modelled_rules | {GENERAL_RULE, BSB_RULE, *LARGE_RULES, *WIZARD_LEVELS}

    def candidate_actions(self, state: GameState) -> Iterable[Action]:
        """Propose the phase's own actions (shooting, casting, fighting), then the character moves."""
        if state.phase is Phase.CHARGE:
            for uid in self.rallies_due(state):
                yield Rally.trusted(do="rally", unit=uid)

        if state.phase is Phase.MAGIC:
            for u in state.side_units(state.active):
                for spell in u.spells:
                    for e in state.enemies_of(state.active):
                        yield Cast.trusted(do="cast", unit=u.id, spell=spell, target=e.id, dice=2)
        if state.phase is Phase.MELEE:
            for u in state.side_units(state.active):
                # one combat, offered once: under the unit it is fought from (round 38), as either name fights it alike
                if u.joined is None and engaged_with(state, u.id) and fighting_unit(state, u.id) == u.id:
                    yield Fight.trusted(do="fight", unit=u.id)
                    yield from self.duel_candidates(state, u.id)  # each Duel its characters could issue
                    yield from self.pursuit_candidates(state, u.id)  # each Restrain Pursuit and Overrun (round 36)
        if state.phase is Phase.SHOOTING:
            for u in state.side_units(state.active):
                if u.joined is None:
                    choices = weapon_choices(state, u)  # each other weapon a bot may choose (the plain shot: first listed)
                    for e in state.enemies_of(state.active):
                        yield Shoot.trusted(do="shoot", unit=u.id, target=e.id)
                        for choice in choices:
                            yield Shoot.trusted(do="shoot", unit=u.id, target=e.id, weapon=choice)
        yield from super().candidate_actions(state)

    @implements(GENERAL)
    def lent_leadership(self, state: GameState, unit_id: str, apart: bool = False) -> tuple[LeadershipSource, ...]:
        """Return the General's Leadership where his Commanding Presence reaches the unit (``generals_near``); ``apart``:
        a character charging out, measured as the unit of his own he is from his declaration."""
        return tuple(LeadershipSource(m.name, m.profile.ld, True) for m in generals_near(state, unit_id, apart))

    @implements(BATTLE_STANDARD)
    def failed_leadership_reroll(self, state: GameState, unit_id: str) -> tuple[str, tuple[str, ...]] | None:
        """Re-roll a failed Leadership test the judge calls for within the reach of the Battle Standard Bearer: every
        9th Age Leadership test is a Discipline test, and Rally Around the Flag re-rolls failed Discipline tests
        (``bearer_near``: within 12", the Bearer not fleeing nor shamed by a refused Duel; round 30)."""
        bearer = bearer_near(state, unit_id)
        if bearer is None:
            return None
        return f"Rally Around the Flag ({bearer.name}, the Battle Standard Bearer) [{BATTLE_STANDARD}]", (BATTLE_STANDARD,)

    @implements("core.test.leadership-choice", "t9a.join.part-of-unit", GENERAL, "published.t9a-duel",
                "core.value.unmodified")
    def _tested_leadership(self, state: GameState, action: TakeTest) -> LeadershipRuling:
        """Return the Leadership a unit's Leadership test (the test action) is taken on, as its Discipline tests are.

        A character in a unit tests with it (t9a.join.part-of-unit); the unit's player picks among its models' values
        (the highest by default) and the General's within 12" (Commanding Presence, as a Panic, Break or Rally test
        reads it); a character shamed by a refused Duel counts 0 (published.t9a-duel), which the ruling cites and
        names when his own would have been taken.  A test of the unmodified value takes the unit's own: the General's
        is borrowed, a used value (core.value.used), not one of the unit's profiles (core.value.unmodified; judge
        round 40 (core): it was taken); and a shamed character's is his profile's, the 0 being a value set by a rule
        (the 2022 text, Modifiers: "A Value Set to a Fixed Number", the first modifier; round 42: 0 was taken).
        """
        host = current(state, state.unit(action.unit).joined or action.unit)
        shamed = [] if action.unmodified else [m for u in members(state, host.id) if u.has(Status.DUEL_REFUSED)
                                                for m in u.models]
        own = [LeadershipSource(m.name, 0 if m in shamed else m.profile.ld, u.is_character)
               for u in members(state, host.id) for m in u.models]
        near = [] if action.unmodified else \
            [LeadershipSource(m.name, m.profile.ld, True) for m in generals_near(state, host.id)]
        ld = self.unit_leadership([*own, *near], action.leadership)
        if near and not any(s.name == ld.source for s in own):
            ld = LeadershipRuling(ld.value, GENERAL, f"{ld.source}, the General within 12\"")
        lowered = [m.name for m in shamed if m.profile.ld > ld.value]
        if lowered and action.leadership is None:  # (the General's, when taken, stays the rule cited)
            return LeadershipRuling(ld.value, GENERAL if ld.rule == GENERAL else DUEL,
                                    f"{ld.source}; {' and '.join(lowered)} at 0, shamed by a refused Duel")
        # a joined character's value is the unit's: cited and said (t9a.join.part-of-unit, round 56)
        return self.with_lent(state, host.id, ld)

    def resolve_end_phase(self, state: GameState, action: Action, dice: Dice) -> Resolution:
        """End the phase: a Magic phase discards the Magic Dice used and the spells cast; a Melee phase who fought;
        every phase who passed a Panic test."""
        state = self.end_panic_phase(self.end_melee_phase(self.end_magic_phase(state)))
        return super().resolve_end_phase(state, action, dice)


def charge_out_odds(state: GameState, action: Charge) -> Distribution[str]:
    """Return the exact odds of a charge: 'charged', 'failed_left', 'failed_stayed_shaken' or 'slain'.

    Runs ``NinthAgeTurn.resolve_charge`` (the ruleset as played, its Stand and Shoot and Panic
    hooks included) over every branch of the dice (enumerate_outcomes),
    so the odds come from the same rules code that plays the charge.
    """
    rules = NinthAgeTurn()
    ruling = rules.rule_on(state, action)
    if not ruling.legal:
        raise IllegalActionError(ruling.reason, ruling.rules)

    def run(dice: Dice) -> str:
        _, events = rules.resolve_charge(state, rules.named_now(state, action), dice)
        return str(dict(events[-1].data)["outcome"])

    return enumerate_outcomes(run)
