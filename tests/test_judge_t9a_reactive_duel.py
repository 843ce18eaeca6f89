"""The 9th Age: the reactive player's Duel after the active player's was refused (published.t9a-duel, 2022 text:
"if no Duel was issued, or it was refused, the Reactive Player may ... issue a Duel").  Before session 23 a fight
action held one Duel, so the reactive player's Duel after a refusal could not be said.  The fight names it in
``reactive_duel`` (with ``reactive_accept`` or, refused too, ``reactive_nominate``)."""

from __future__ import annotations

import pytest

from _t9a import exact_odds_as_brute_force, refused
from herohammer.dice import ScriptedDice
from herohammer.units import Status

from herohammer.game import Game
from herohammer.scenario import state_from_data
from test_judge_t9a_duels_21 import ALL_MISS, BOSS, DUEL, FIGHT, _data

#: the Hero's Duel refused (the Boss shamed), then the Chief issues one and the Hero accepts it (the Boss, who refused
#: it, may not: "Characters or Champions that did not refuse the Active Player's Duel", round 28b)
AFTER_REFUSAL = {**FIGHT, "duel": "hero", "nominate": "boss", "reactive_duel": "chief", "reactive_accept": "hero"}


def _game() -> Game:
    """The duels' game (test_judge_t9a_duels_21) with a second orc character, the Chief, in the orcs."""
    data = _data()
    data["sides"]["orcs"].append({**BOSS, "id": "chief", "models": [{**BOSS["models"][0], "name": "Chief"}]})
    return Game(state_from_data(data))


@pytest.mark.rule(DUEL)
def test_after_a_refusal_the_reactive_player_issues_a_duel_that_is_fought() -> None:
    """Legal, offered by legal_actions; played: two duel events (refused, then accepted), the Boss stays shamed (he
    refused and did not issue), and the Chief and the Hero fight each other only, the Duel kept for the next round."""
    g = _game()
    ruling = g.check(AFTER_REFUSAL)
    assert ruling.legal and DUEL in ruling.rules, ruling
    assert "then the reactive player's chief duels hero" in ruling.reason
    offered = [a for a in g.legal_actions() if getattr(a, "reactive_duel", None) == "chief"]
    assert any(a.duel == "hero" and a.nominate == "boss" and a.reactive_accept == "hero" for a in offered)
    events = g.apply(AFTER_REFUSAL, ScriptedDice(ALL_MISS))
    duels = [e for e in events if e.kind == "duel"]
    assert [dict(e.data)["outcome"] for e in duels] == ["refused", "accepted"], duels
    assert "after the refusal, the reactive player's chief issues a Duel; hero accepts" in duels[1].message
    assert g.state.duels == (("chief", "hero"),)
    assert g.state.unit("boss").has(Status.DUEL_REFUSED)
    lines = events[len(duels)].message.split(": ", 1)[1].split("; ")
    assert lines[0].startswith("I6: elves 3 attacks at chief") and lines[1].startswith("I3: orcs 3 attacks at hero")


@pytest.mark.rule(DUEL)
def test_a_reactive_duel_is_refused_unless_the_active_players_duel_was_refused() -> None:
    """Refused, citing the rule, with nothing changed: after an accepted Duel; with no active Duel at all; issued by
    an active player's character; a reactive_accept without a reactive_duel."""
    g = _game()
    refused(g, {**FIGHT, "duel": "hero", "accept": "boss", "reactive_duel": "boss", "reactive_accept": "hero"},
            DUEL, "only after the active player's Duel was refused (this one was accepted)")
    refused(g, {**FIGHT, "reactive_duel": "boss", "reactive_accept": "hero"}, DUEL,
            "the reactive player's Duel is named in duel:")
    refused(g, {**FIGHT, "duel": "hero", "nominate": "boss", "reactive_duel": "hero", "reactive_accept": "boss"},
            DUEL, "is not the reactive player's character")
    refused(g, {**FIGHT, "duel": "hero", "nominate": "boss", "reactive_accept": "hero"}, DUEL,
            "name the character who issues it")


@pytest.mark.rule(DUEL)
def test_the_odds_of_a_duel_after_a_refusal_equal_brute_force() -> None:
    weights = exact_odds_as_brute_force(_game().state, AFTER_REFUSAL)
    assert len(weights) > 1
