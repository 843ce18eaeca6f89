"""4th edition Sweeping Advances and consolidation after a close combat (published.sweeping-advance,
published.consolidation); 3rd edition's failed close combat Morale check just falls back, and its victor may
consolidate by its own rule (published.40k3-consolidation).

4th ed. rulebook, Sweeping Advances & Consolidation: "The falling back unit and the winning unit compare their
Initiative characteristic + the roll of a D6 ... If the winner's total is equal or greater they catch the fleeing
enemy ... The destroyed unit(s) is removed immediately"; no Sweeping Advance when "the falling back unit no longer
has any models in base contact with the victor, or if the victor has models still engaged in combat with other
units which are not falling back".

The Vet (I5, one attack) hits (6), wounds (6) and the Boy he strikes fails his save (1); the Boyz (I2) miss with
every attack (1s): red wins by one, and the Boyz take their Morale check on the next two dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.action_odds import summarise, summary_view
from herohammer.actions import parse_action
from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.units import Status

from _w40k import BASE_25, assert_illegal, assert_legal, game, hero, kinds, model, scenario

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
VET = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv3+"
FIGHT = {"do": "fight", "unit": "vets"}
#: The Vet slays Boy 1 (hit 6, wound 6, save 1); Boy 2 misses twice (1, 1).
BLOWS = [6, 6, 1, 1, 1]
FAILS = [6, 6]  # the Boyz' Morale check: 12 fails any Leadership
SWEEP, CONS = "published.sweeping-advance", "published.consolidation"


def vets() -> dict[str, Any]:
    return {"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, VET)]}


def boyz(second: tuple[float, float] = (20, 20 - BASE_25), **extra: Any) -> dict[str, Any]:
    """Two Boyz in base contact with the Vet (the second elsewhere if asked); the first is the one slain."""
    return {"id": "boyz", "status": ["locked"], **extra,
            "models": [model("Boy 1", 20, 20 + BASE_25, 7, BOY), model("Boy 2", *second, 7, BOY)]}


def fight(ruleset: str, blue: list[dict[str, Any]], faces: list[int], red: list[dict[str, Any]] | None = None
          ) -> tuple[Game, list[Any]]:
    g = game(scenario(ruleset, red or [vets()], blue, phase="assault"))
    events = list(g.apply(FIGHT, dice=ScriptedDice(faces)))
    return g, events


def chaplain() -> dict[str, Any]:
    """An independent character joined to the Boyz, behind Boy 2 (touching no enemy: he makes no attacks)."""
    return hero("chaplain", 20, 20 - 2 * BASE_25, ld=10, joined="boyz", status=["locked"])


# == caught, or broken off ===========================================================================================
@pytest.mark.rule(SWEEP, "40k4.ic.falling-back", "published.combat-resolution")
def test_40k4_a_caught_unit_is_destroyed_with_the_chaplain_who_joined_it() -> None:
    """Boy 2 and the Chaplain (I2 and I5: no majority, the lowest counts) roll 6: 2 + 6 = 8; the Vet rolls 3:
    5 + 3 = 8, equal, so he catches them: the Boyz and their Chaplain are destroyed at once, no save."""
    g, events = fight("40k4", [boyz(), chaplain()], [*BLOWS, *FAILS, 6, 3])
    [sweep] = kinds(events, "sweeping_advance")
    assert "5 + 3 = 8 against 2 + 6 = 8" in sweep.message and "caught and destroyed with chaplain" in sweep.message
    assert SWEEP in sweep.rules and "40k4.ic.falling-back" in sweep.rules
    assert dict(sweep.data)["outcome"] == "caught"
    [destroyed] = kinds(events, "destroyed")
    assert "Boy 2" in destroyed.message and "Chaplain" in destroyed.message and SWEEP in destroyed.rules
    assert not g.state.unit("boyz").alive and not g.state.unit("chaplain").alive
    assert not kinds(events, "fall_back")  # no fall back, no further check for a unit that no longer exists
    assert len(kinds(events, "morale")) == 1
    assert g.state.unit("vets").has(Status.MAY_CONSOLIDATE) and not g.state.unit("vets").has(Status.LOCKED)


@pytest.mark.rule(SWEEP, "published.fall-back", "40k4.ic.falling-back")
def test_40k4_a_unit_that_breaks_off_falls_back_and_its_chaplain_may_not_leave_it() -> None:
    """The Vet rolls 2: 5 + 2 = 7 against 8: the Boyz break off and fall back 2D6 (3 + 3), the Chaplain with them;
    in their next Movement phase he may not leave them (seed 000 / 40k4.ic.falling-back)."""
    g, events = fight("40k4", [boyz(), chaplain()], [*BLOWS, *FAILS, 6, 2, 3, 3])
    [sweep] = kinds(events, "sweeping_advance")
    assert "breaks off and falls back" in sweep.message and dict(sweep.data)["outcome"] == "broke off"
    [fell] = kinds(events, "fall_back")
    assert "6\"" in fell.message
    boys, chap = g.state.unit("boyz"), g.state.unit("chaplain")
    assert boys.alive and chap.alive and chap.joined == "boyz"
    assert boys.has(Status.FALLING_BACK) and chap.has(Status.FALLING_BACK)
    g.apply({"do": "end_phase"})  # blue's turn: its Movement phase
    assert_illegal(g, {"do": "leave", "character": "chaplain", "to": [30, 30]}, "40k4.ic.falling-back")


@pytest.mark.rule(SWEEP)
def test_40k4_no_sweeping_advance_without_base_contact_with_the_victor() -> None:
    """Boy 2 stands diagonally off the Vet, touching only Boy 1: once Boy 1 falls no Boy touches the Vet, so the
    Boyz just fall back (the next two dice), with no Sweeping Advance roll."""
    g, events = fight("40k4", [boyz((20 + BASE_25, 20 + BASE_25))], [6, 6, 1, *FAILS, 3, 3])
    [sweep] = kinds(events, "sweeping_advance")
    assert "no sweeping advance against boyz" in sweep.message and "base contact" in sweep.message
    assert dict(sweep.data)["outcome"] == "none" and SWEEP in sweep.rules
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    assert g.state.unit("vets").has(Status.MAY_CONSOLIDATE)


@pytest.mark.rule(SWEEP, "published.fearless")
def test_40k4_no_sweeping_advance_while_the_victor_is_engaged_with_a_unit_not_falling_back() -> None:
    """The Vet also fights Fearless Grots, who lose with the Boyz but hold: the Boyz fall back without a Sweeping
    Advance, and the Vet, still locked with the Grots, may not consolidate."""
    grots = {"id": "grots", "status": ["locked"], "rules": ["fearless"],
             "models": [model("Grot 1", 20, 20 - BASE_25, 7, BOY), model("Grot 2", 20, 20 - 2 * BASE_25, 7, BOY)]}
    blue = [boyz((20 + BASE_25, 20)), grots]
    g, events = fight("40k4", blue, [6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 3, 3])
    [sweep] = kinds(events, "sweeping_advance")
    assert "vets still has models engaged with units that are not falling back" in sweep.message
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    vet = g.state.unit("vets")
    assert vet.has(Status.LOCKED) and not vet.has(Status.MAY_CONSOLIDATE)
    assert not kinds(events, "consolidation")


@pytest.mark.rule(SWEEP, "published.fearless")
def test_40k4_a_fearless_loser_does_not_fall_back_so_meets_no_sweeping_advance() -> None:
    g, events = fight("40k4", [boyz(rules=["fearless"])], BLOWS)
    assert not kinds(events, "sweeping_advance") and not kinds(events, "consolidation")
    assert "Fearless" in kinds(events, "morale")[0].message
    assert g.state.unit("boyz").has(Status.LOCKED) and not g.state.unit("vets").has(Status.MAY_CONSOLIDATE)


@pytest.mark.rule(SWEEP, "published.combat-resolution", "published.fall-back", "published.40k3-consolidation")
def test_40k3_keeps_the_plain_fall_back_and_its_victor_consolidates() -> None:
    """3rd edition (published.sweeping-advance, Decision): the failed check falls back on the next two dice, with no
    Initiative roll-off; the Vet, left with no enemy in base contact, may consolidate by the 3rd edition's own rule
    (published.40k3-consolidation, session 21; before it the 3rd edition had no consolidation at all)."""
    g, events = fight("40k3", [boyz()], [*BLOWS, *FAILS, 3, 3])
    assert not kinds(events, "sweeping_advance")
    [freed] = kinds(events, "consolidation")
    assert freed.rules == ("published.40k3-consolidation",) and "vets" in freed.message
    assert g.state.unit("boyz").has(Status.FALLING_BACK) and len(g.state.unit("boyz").models) == 1
    assert g.state.unit("vets").has(Status.MAY_CONSOLIDATE)
    assert_legal(g, {"do": "consolidate", "unit": "vets", "to": [[20, 17]]}, "published.40k3-consolidation")


# == consolidation ===================================================================================================
def won(grot: tuple[float, float] = (20, 26)) -> Game:
    """The Vet has caught the Boyz; a Grot stands out of the combat (6" north of him unless asked)."""
    far = {"id": "grots", "models": [model("Grot", *grot, 7, BOY)]}
    g, _ = fight("40k4", [boyz(), far], [*BLOWS, *FAILS, 1, 6])
    assert not g.state.unit("boyz").alive
    return g


@pytest.mark.rule(CONS)
def test_40k4_the_victor_consolidates_up_to_d6_once_and_legal_actions_offer_it() -> None:
    g = won()
    offered = [a.to_json() for a in g.legal_actions() if a.do == "consolidate"]
    assert offered and all(a["unit"] == "vets" for a in offered)
    action = {"do": "consolidate", "unit": "vets", "to": [[20, 16]]}
    assert_legal(g, action, CONS)
    events = g.apply(action, dice=ScriptedDice([2]))
    [moved] = kinds(events, "consolidate")
    assert "consolidates 2\"" in moved.message and "stops short" in moved.message and CONS in moved.rules
    assert g.state.unit("vets").models[0].at == pytest.approx((20, 18))
    assert not g.state.unit("vets").has(Status.MAY_CONSOLIDATE)
    assert_illegal(g, {"do": "consolidate", "unit": "vets", "to": [[20, 17]]}, CONS)  # once only


@pytest.mark.rule(CONS)
@pytest.mark.parametrize("to, grot, words", [
    ((27.0, 20.0), (20, 26), "at most 6\""),                          # 7" away: more than a D6 gives
    # (into base contact with a Grot out of any combat: allowed since session 19, a new close combat;
    # tests/test_judge_40k_round19.py)
])
def test_40k4_a_consolidation_too_far_or_into_contact_is_refused_and_changes_nothing(
        to: tuple[float, float], grot: tuple[float, float], words: str) -> None:
    g = won(grot)
    refused = assert_illegal(g, {"do": "consolidate", "unit": "vets", "to": [list(to)]}, CONS)
    assert words in str(refused)
    assert g.state.unit("vets").has(Status.MAY_CONSOLIDATE)


@pytest.mark.rule(CONS)
def test_40k4_the_right_to_consolidate_ends_with_the_phase() -> None:
    g = won()
    g.apply({"do": "end_phase"})
    assert not g.state.unit("vets").has(Status.MAY_CONSOLIDATE)


@pytest.mark.rule(CONS)
def test_40k4_a_unit_that_fought_no_combat_may_not_consolidate() -> None:
    g = game(scenario("40k4", [vets()], [boyz()], phase="assault"))
    assert_illegal(g, {"do": "consolidate", "unit": "vets", "to": [[20, 17]]}, CONS)


# == exact odds ======================================================================================================
@pytest.mark.rule(SWEEP, CONS)
@pytest.mark.parametrize("blue", [[boyz()], [boyz(), chaplain()]], ids=["boyz", "with-chaplain"])
def test_40k4_a_fights_exact_odds_with_its_sweeping_advance_are_the_brute_force_answer(blue: list[dict[str, Any]]
                                                                                        ) -> None:
    """``odds action``'s enumeration (positions not read, events through its summary) equals brute force, and the
    answer tells a caught unit from one that broke off."""
    state = game(scenario("40k4", [vets()], blue, phase="assault")).state
    ruleset, action = get_ruleset("40k4"), parse_action(FIGHT)

    def play(dice: Dice) -> Any:
        return summarise(state, ruleset.resolve(state, action, dice))

    fast = enumerate_outcomes(play, positions=False, event_view=summary_view)
    fine = enumerate_outcomes(play, 400_000, fine=True)
    assert dict(fast.items()) == dict(fine.items())
    labels = {label for outcome, _ in fast.items() for label in str(outcome).split("'")}
    assert "sweeping_advance.outcome: caught" in labels and "sweeping_advance.outcome: broke off" in labels
