"""A judge's cases for 40k 3rd and 4th edition, seventeenth round: the published rules the engine plays around the
characters, statement by statement (the `published.*` ids of data/rules.yaml), through the front door.

1. Close combat's wounds lost to no carry-over (40k4.cc.no-carry-over: "wounds on a unit cannot carry over onto a
   joined character, and vice versa") are told as a volley tells them (a ``not_carried_over`` event), with their
   chance in ``odds action``.
2. The charts a judge checks most (to hit by BS and by WS, to wound by S against T, saves), at their edges.
3. Morale, falling back and regrouping at their edges (25% of the models, 2D6/3D6 fall backs, difficult terrain).
4. Combat resolution: a draw, a unit of one, Sweeping Advance ties.

Each case plays actions through ``Game`` (or the CLI) and asserts what the texts say, with the outcome the rule
forbids beside the one it gives.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import BASE_25, game, model, scenario

VET = "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A0 Ld7 Sv6+"
BOSS = "WS5 BS2 S5 T5 W3 I4 A0 Ld9 Sv4+"
FIGHT = {"do": "fight", "unit": "vets"}


def lost_to_carry(events: list[Any]) -> list[tuple[str, int, tuple[str, ...], str]]:
    """Each ``not_carried_over`` event: its unit, count, rules and words."""
    return [(dict(e.data)["unit"], dict(e.data)["lost"], e.rules, e.message) for e in events
            if e.kind == "not_carried_over"]


# == 1. close combat: wounds lost to no carry-over are told =======================================================
def boyz_fight(ruleset: str, vet_on_boss: bool = False, boy_wounded: bool = False, boss_taken: int = 0
               ) -> dict[str, Any]:
    """A Vet (I5, 3 Attacks) in base contact with Boy 1 (the Boyz' only model) or, with ``vet_on_boss``, with the
    Boss alone (joined to the Boyz, W3); the Boyz and the Boss strike no blow back (A0)."""
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, VET)]}]
    boy = model("Boy 1", 20, 20 + BASE_25, 7, BOY)
    boss = model("Boss", 20 + BASE_25, 20 + BASE_25, 9, BOSS)
    if vet_on_boss:  # the Boss touches the Vet, Boy 1 touches the Boss only
        boss["at"], boy["at"] = [20, 20 + BASE_25], [20, 20 + 2 * BASE_25]
    if boss_taken:
        boss["wounds_taken"] = boss_taken
    blue = [{"id": "boyz", "status": ["locked"], "models": [boy]},
            {"id": "boss", "character": "independent", "joined": "boyz", "status": ["locked"], "models": [boss]}]
    return scenario(ruleset, red, blue, phase="assault")


@pytest.mark.rule("40k4.cc.no-carry-over", "published.wound-allocation")
def test_40k4_a_blows_wounds_past_the_last_boy_are_lost_and_said_lost_to_no_carry_over() -> None:
    """Three unsaved wounds on Boy 1 (one Wound): he is slain, two are lost, not carried over onto the Boss (three
    Wounds left), and an event says so citing 40k4.cc.no-carry-over; the Boss takes none of them."""
    g = game(boyz_fight("40k4"))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert lost_to_carry(events) == [("boyz", 2, ("40k4.cc.no-carry-over", "published.wound-allocation"),
                                      "2 wounds on boyz lost: the unit's unsaved wounds never carry over onto boss, "
                                      "who joined it")]
    assert [m.wounds_taken for m in g.state.unit("boss").models] == [0]
    # one unsaved wound slays the Boy and loses nothing: no event
    g = game(boyz_fight("40k4"))
    assert not lost_to_carry(g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 1, 1, 6, 1, 1] + [1] * 12)))


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_40k4_and_vice_versa_a_blows_wounds_past_the_boss_are_not_carried_onto_his_boyz() -> None:
    """The Vet touches the Boss alone (two Wounds taken already: one left): three unsaved wounds slay him, the other
    two are lost; one of them only because it is not carried onto Boy 1 (one Wound: he could take no more than one),
    so the event counts one, names the Boss's loss, and ``odds``'s words say onto his unit."""
    from herohammer.outcome_labels import event_labels
    g = game(boyz_fight("40k4", vet_on_boss=True, boss_taken=2))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    told = lost_to_carry(events)
    assert told == [("boss", 1, ("40k4.cc.no-carry-over", "published.wound-allocation"),
                     "1 wound on boss lost: a joined character's unsaved wounds never carry over onto boyz")]
    assert "slain: Boss" in [e.message for e in events] and len(g.state.unit("boyz").models) == 1
    assert event_labels(next(e for e in events if e.kind == "not_carried_over")) == [
        "boss: wounds lost with no carry-over onto its unit"]


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_40k4_nothing_is_said_when_the_other_member_has_no_wound_left() -> None:
    """With the Boss gone (no character with the Boyz) the Boy's lost wounds are no loss to the rule: no event; the
    excess is simply wasted on a slain unit."""
    data = boyz_fight("40k4")
    data["sides"]["blue"].pop()
    g = game(data)
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert not lost_to_carry(events) and "slain: Boy 1" in [e.message for e in events]


@pytest.mark.rule("published.wound-allocation")
def test_40k3_the_loss_is_said_citing_the_allocation_reading_only() -> None:
    """3rd edition: the Vet's blows are shared round and round between Boy 1 and the Boss (his own save group); the
    Boy's second unsaved wound is lost while the Boss had Wounds left: said, citing published.wound-allocation and
    no 4th edition clause."""
    g = game(boyz_fight("40k3"))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert lost_to_carry(events) == [("boyz", 1, ("published.wound-allocation",),
                                      "1 wound on boyz lost: the unit's unsaved wounds never carry over onto boss, "
                                      "who joined it")]


@pytest.mark.rule("40k4.cc.no-carry-over")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_exact_odds_of_wounds_lost_in_a_fight_equal_brute_force(ruleset: str) -> None:
    """The wounds the Vet's blows lose to no carry-over, by the fast enumeration and by brute force, are equal."""
    start = game(boyz_fight(ruleset)).state

    def fight(dice: Dice) -> int:
        return sum(n for _, n, _, _ in lost_to_carry(Game(start, dice).apply(FIGHT, dice=dice)))

    fast = enumerate_outcomes(fight, positions=False)
    assert fast == enumerate_outcomes(fight, fine=True)
    assert set(fast) == ({0, 1, 2} if ruleset == "40k4" else {0, 1})


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_odds_action_gives_the_chance_of_a_fights_wounds_lost_to_no_carry_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`odds action` for the fight has the row: a wound is lost when at least two of the Vet's three blows go
    unsaved (each: hit on 3+, wound on 4+, Boy's 6+ save failed: 2/3 * 1/2 * 5/6 = 5/18)."""
    from herohammer.cli import main
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(boyz_fight("40k4")))
    assert main(["odds", "action", str(path), "--action", json.dumps(FIGHT), "--json"]) == 0
    rows = json.dumps(json.loads(capsys.readouterr().out))
    assert "boyz: wounds lost with no carry-over onto its characters" in rows
    p = Fraction(5, 18)
    assert str(3 * p ** 2 * (1 - p) + p ** 3) in rows
