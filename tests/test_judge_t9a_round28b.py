"""Round 28b: The 9th Age melee and its aftermath with characters in play, as a judge meets them.

1. A character pushed into his unit's second rank (the first rank full of Front Rank models, t9a.char.front-rank)
   made no supporting attack: only the unit's own rank and file supported (published.t9a-to-hit-melee: every
   model in the rank behind a fighting front rank makes one).
2. After the active player's Duel was refused, the character nominated for the refusal issued the reactive player's
   Duel (published.t9a-duel, 2022 text: the Reactive Player may issue a Duel with "one of their Characters or
   Champions that did not refuse the Active Player's Duel"); he may not, another character may.
3. A character shamed by a refused Duel kept his Stubborn for his unit's Break test (published.t9a-duel, 2022 text:
   the chosen model "has its Discipline set to 0, and it loses Stubborn"; published.t9a-stubborn).

Each was first committed as a strict xfail, then fixed in this round and its mark removed.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import HERO, refused, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

TO_HIT = "published.t9a-to-hit-melee"
DUEL = "published.t9a-duel"
STUBBORN = "published.t9a-stubborn"
NO_ATTACKS_SPEAR = "WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10"
NO_ATTACKS_ORC = "WS3 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8"
FIGHT = {"do": "fight", "unit": "spears"}


def _crowded_front(**kw: Any) -> dict[str, Any]:
    """Spearmen (no Attacks) with champion, musician and standard and four joined characters: seven Front Rank
    models for five files, so two stand in the second rank."""
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=NO_ATTACKS_SPEAR, orc_profile=NO_ATTACKS_ORC,
                    roles={0: "champion", 1: "musician", 2: "standard"}, **kw)
    for i in (2, 3, 4):
        data["sides"]["elves"].append({"id": f"hero{i}", "character": "independent", "joined": "spears",
                                       "models": [{"name": f"Hero{i}", "profile": HERO, "base": [20, 20]}]})
    return data


# -- 1. a character in the second rank supports ------------------------------------------------------------------------
@pytest.mark.rule(TO_HIT, "t9a.char.front-rank", "t9a.join.part-of-unit")
def test_a_character_in_the_second_rank_makes_one_supporting_attack() -> None:
    g = Game(state_from_data(_crowded_front()))
    f = g.state.unit("spears").formation
    assert f is not None
    second = [n for n in f.order[f.files:2 * f.files] if n.startswith("Hero")]
    first = [n for n in f.order[:f.files] if n.startswith("Hero")]
    assert len(second) == 1 and len(first) == 3, f.order
    events = g.apply(FIGHT, ScriptedDice([1] * 40))
    fight = next(e for e in events if e.kind == "fight")
    # three Heroes in contact strike 3 each; the Hero behind them supports with 1: ten attacks, not nine
    assert "I6: elves 10 attacks at orcs" in fight.message and TO_HIT in fight.rules, fight.message


# -- 2. the nominee of a refused Duel issues no reactive Duel ----------------------------------------------------------
def _two_orc_characters() -> Game:
    from test_judge_t9a_duels_21 import BOSS, _data
    data = _data()
    chief = {**BOSS, "id": "chief", "models": [{**BOSS["models"][0], "name": "Chief"}]}
    data["sides"]["orcs"].append(chief)
    return Game(state_from_data(data))


@pytest.mark.rule(DUEL)
def test_the_character_nominated_for_a_refusal_issues_no_reactive_duel() -> None:
    g = _two_orc_characters()
    refused(g, {**FIGHT, "duel": "hero", "nominate": "boss", "reactive_duel": "boss", "reactive_accept": "hero"},
            DUEL, "boss refused the active player's Duel")
    offered = [a for a in g.legal_actions() if getattr(a, "reactive_duel", None) is not None]
    assert offered and not any(a.nominate == a.reactive_duel for a in offered), offered
    # another orc character, who did not refuse it, may
    ruling = g.check({**FIGHT, "duel": "hero", "nominate": "boss", "reactive_duel": "chief", "reactive_accept": "hero"})
    assert ruling.legal and DUEL in ruling.rules, ruling


# -- 3. a shamed character loses Stubborn ------------------------------------------------------------------------------
@pytest.mark.rule(DUEL, STUBBORN)
def test_a_character_shamed_by_a_refused_duel_gives_his_unit_no_stubborn() -> None:
    from test_judge_t9a_duels_21 import BOSS, _data
    data = _data()
    data["sides"]["orcs"][-1] = {**BOSS, "rules": ["Stubborn"], "status": ["duel_refused"]}
    g = Game(state_from_data(data))
    # the Hero's three blows miss, the shamed Boss strikes none; the Spearmen's second Full Rank wins by 1; the orcs
    # test on o0's Ld 7 (the Boss's is 0) at -1, Stubborn no more: 4 + 3 = 7 breaks them (Stubborn, it would hold)
    events = g.apply(FIGHT, ScriptedDice([1, 1, 1, 4, 3, 1, 1, 1, 1]))
    told = next(e for e in events if e.kind in ("break", "combat"))
    assert "Ld 7 (o0) -1" in told.message and STUBBORN not in told.rules, told.message
    assert "breaks" in told.message
