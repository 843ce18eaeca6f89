"""The 9th Age Duels over several rounds of one combat, as a judge meets them (published.t9a-duel, 2022 text).

A Duel both duellists survive goes on in the combat's next round, and no other Duel is issued there while it
does; the reactive player may issue a Duel when the active player issues none; a refused Duel's shame (no
attacks, Discipline 0, no Battle Standard) lasts until the shamed character issues or accepts a Duel or no enemy
that could accept one is left in contact with it, and a Duel ends when a duellist falls or the combat ends.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import exact_odds_as_brute_force, refused, scenario
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.state import Phase
from herohammer.units import Status

DUEL = "published.t9a-duel"
NO_ATTACKS_SPEAR = "WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10"
NO_ATTACKS_ORC = "WS3 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8"
BOSS = {"id": "boss", "character": "independent", "joined": "orcs",
        "models": [{"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A3 Ld8 Sv5+ Adv4 Mar8", "base": [25, 25]}]}
FIGHT = {"do": "fight", "unit": "spears"}
ORCS_FIGHT = {"do": "fight", "unit": "orcs"}
#: Every blow misses (the Hero's three, then the Boss's three) and the orcs hold their Break test: the Spearmen's
#: second Full Rank wins by 1, the orcs test on the Boss's Ld 8 - 1 and roll 1 + 1.
ALL_MISS = [1, 1, 1, 1, 1, 1, 1, 1]


def _data(**extra: Any) -> dict[str, Any]:
    """The Hero (in the Spearmen) and the Boss (in the orcs) face each other; only they have Attacks."""
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=NO_ATTACKS_SPEAR, orc_profile=NO_ATTACKS_ORC)
    data["sides"]["orcs"].append(dict(BOSS))
    data.update(extra)
    return data


def _game(**extra: Any) -> Game:
    return Game(state_from_data(_data(**extra)))


def _to_orcs_melee(g: Game) -> None:
    """End phases until the orcs' own Melee phase (the combat's next round)."""
    while not (g.state.active == "orcs" and g.state.phase is Phase.MELEE):
        g.apply({"do": "end_phase"})


@pytest.mark.rule(DUEL)
def test_a_duel_both_survive_goes_on_into_the_next_round_and_bars_a_new_one() -> None:
    g = _game()
    g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice(ALL_MISS))
    assert g.state.duels == (("hero", "boss"),)
    assert state_from_data(state_to_data(g.state)) == g.state  # a save keeps the Duel
    _to_orcs_melee(g)
    assert g.state.duels == (("hero", "boss"),)  # the turn's end does not end it: both live, still in combat
    # the orcs' round: the Duel goes on by itself, and no other is issued in this combat while it does
    said = g.check(ORCS_FIGHT)
    assert said.legal and DUEL in said.rules and "the Duel of hero and boss goes on" in said.reason, said
    refused(g, {**ORCS_FIGHT, "duel": "boss", "accept": "hero"}, DUEL, "no other Duel may be issued until it ends")
    refused(g, {**ORCS_FIGHT, "duel": "boss"}, DUEL, "goes on in this combat")
    refused(g, {**ORCS_FIGHT, "at": "hero"}, DUEL, "hero fights the Duel: only boss may attack it")
    # the Hero (I6) strikes the Boss only, the Boss (I3) the Hero only
    events = g.apply(ORCS_FIGHT, ScriptedDice(ALL_MISS))
    assert events[0].kind == "duel" and dict(events[0].data)["outcome"] == "ongoing", events[0]
    lines = events[1].message.split(": ", 1)[1].split("; ")
    assert lines == ["I6: elves 3 attacks at boss: 0 hits, 0 unsaved", "I3: orcs 3 attacks at hero: 0 hits, "
                     "0 unsaved"], lines
    assert g.state.duels == (("hero", "boss"),)


@pytest.mark.rule(DUEL)
def test_a_duel_that_was_not_carried_on_lets_each_round_issue_its_own() -> None:
    # without a Duel going on (the first round issued none) the next round may issue one
    g = _game()
    g.apply(FIGHT, ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1]))
    assert g.state.duels == ()
    _to_orcs_melee(g)
    assert g.check({**ORCS_FIGHT, "duel": "boss", "accept": "hero"}).legal


@pytest.mark.rule(DUEL)
def test_a_duel_ends_when_a_duellist_falls() -> None:
    # the Hero's 3 attacks: hit 6 6 6, wound 6 6 6, the Boss's saves 1 1 1: the Boss falls before he strikes;
    # the orcs test on Ld 7 - 4 and roll 1 + 1
    g = _game()
    g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice([6, 6, 6] * 2 + [1, 1, 1] + [1, 1]))
    assert not g.state.unit("boss").alive and g.state.duels == ()


@pytest.mark.rule(DUEL)
def test_a_duel_ends_with_its_combat() -> None:
    # the orcs break (Ld 8 - 1: 6 + 6) and flee: the combat is over, and so is the Duel
    g = _game()
    g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice([1] * 6 + [6, 6] + [3, 3, 1, 1]))
    assert g.state.unit("orcs").has(Status.FLEEING) or not g.state.unit("orcs").alive
    assert g.state.duels == ()


@pytest.mark.rule(DUEL)
def test_the_reactive_player_issues_a_duel_when_the_active_player_issues_none() -> None:
    g = _game()
    said = g.check({**FIGHT, "duel": "boss", "accept": "hero"})
    assert said.legal and "boss duels hero" in said.reason, said
    # refused by the active player: the Hero is shamed, makes no attacks, and the Spearmen's Discipline is not his
    events = g.apply({**FIGHT, "duel": "boss"}, ScriptedDice([1, 1, 1, 1, 1]))
    assert dict(events[0].data)["outcome"] == "refused" and "hero may not attack" in events[0].message
    assert "attacks at boss" not in events[1].message and "I6" not in events[1].message
    assert g.state.unit("hero").has(Status.DUEL_REFUSED)
    refused(_game(), {**FIGHT, "duel": "orcs"}, DUEL, "only such a character issues a Duel")


@pytest.mark.rule(DUEL)
def test_a_refusals_shame_lasts_into_the_next_round_until_the_character_issues_a_duel() -> None:
    # round one: the Boss refuses the Hero's Duel; the Hero's blows miss; the orcs lose by 1 and test on Ld 7
    # (the Boss's 8 counts as 0), rolling 1 + 1
    g = _game()
    events = g.apply({**FIGHT, "duel": "hero"}, ScriptedDice([1, 1, 1, 1, 1]))
    assert "Ld 7" in events[-1].message and g.state.unit("boss").has(Status.DUEL_REFUSED)
    assert state_from_data(state_to_data(g.state)) == g.state
    _to_orcs_melee(g)
    # round two: still shamed (an enemy that could accept, the Hero, is still in contact): no attacks, Ld 7
    assert g.state.unit("boss").has(Status.DUEL_REFUSED)
    after = Game(g.state)
    events = after.apply(ORCS_FIGHT, ScriptedDice([1, 1, 1, 1, 1]))
    assert "attacks at hero" not in events[0].message and "Ld 7" in events[-1].message, events
    assert DUEL in events[-1].rules
    # or the Boss issues a Duel himself, and his shame ends: he accepts nothing, the Hero refuses and is shamed
    issued = Game(g.state)
    events = issued.apply({**ORCS_FIGHT, "duel": "boss"}, ScriptedDice([1, 1, 1, 1, 1]))
    assert not issued.state.unit("boss").has(Status.DUEL_REFUSED) and issued.state.unit("hero").has(
        Status.DUEL_REFUSED)
    assert "I3: orcs 3 attacks at spears" in events[1].message and "I6" not in events[1].message, events[1]


@pytest.mark.rule(DUEL)
def test_a_shame_ends_at_the_turns_end_once_no_enemy_that_could_accept_is_in_contact() -> None:
    # the Boss is shamed; the Hero then falls (from the file): nobody in contact could accept a Duel of the Boss's
    data = _data()
    data["sides"]["orcs"][1]["status"] = ["duel_refused"]
    g = Game(state_from_data(data))
    kept = Game(g.state)
    _to_orcs_melee(kept)
    assert kept.state.unit("boss").has(Status.DUEL_REFUSED)  # the Hero could still accept
    data["sides"]["elves"][1]["destroyed"] = True
    data["sides"]["elves"][1]["models"] = []
    gone = Game(state_from_data(data))
    gone.apply({"do": "end_phase"})
    assert not gone.state.unit("boss").has(Status.DUEL_REFUSED)


@pytest.mark.rule(DUEL)
def test_a_shamed_battle_standard_bearer_brings_no_bonus() -> None:
    data = _data()
    data["sides"]["orcs"][1]["rules"] = ["Battle Standard Bearer"]
    plain = Game(state_from_data(data))
    events = plain.apply(FIGHT, ScriptedDice(ALL_MISS[:6] + [1, 1, 1, 1]))
    assert "orcs +1 (battle standard)" in events[-1].message, events[-1]
    shamed = Game(state_from_data(data))
    events = shamed.apply({**FIGHT, "duel": "hero"}, ScriptedDice([1, 1, 1, 1, 1, 1, 1]))
    assert "battle standard" not in events[-1].message and "Rally Around the Flag" not in events[-1].message, \
        events[-1]


@pytest.mark.rule(DUEL)
def test_a_duel_in_the_file_is_checked_at_load() -> None:
    for pair, words in ((["hero", "nobody"], "'nobody' is not a living character"),
                        (["hero", "hero"], "on one side")):
        with pytest.raises(ScenarioError) as exc:
            state_from_data(_data(duels=[pair]))
        assert "duels[0]" in str(exc.value) and words in str(exc.value) and DUEL in str(exc.value), exc.value
    far = _data(duels=[["hero", "boss"]])
    far["sides"]["orcs"][0]["formation"]["position"] = [36, 40]
    far["sides"]["orcs"][0]["status"] = []
    far["sides"]["elves"][0]["status"] = []
    with pytest.raises(ScenarioError, match="not in one combat"):
        state_from_data(far)


@pytest.mark.rule(DUEL)
def test_an_ongoing_duels_round_has_brute_force_odds() -> None:
    g = Game(state_from_data(_data(duels=[["hero", "boss"]])))
    weights = exact_odds_as_brute_force(g.state, FIGHT)
    assert sum(w for _, w in weights) == 1 and len(weights) > 1


@pytest.mark.rule(DUEL)
def test_legal_actions_offer_each_duel_and_none_while_one_goes_on() -> None:
    g = _game()
    fights = {(a.duel, a.accept, a.nominate) for a in g.legal_actions() if a.do == "fight"}
    # the plain fight, the Hero's Duel accepted or refused, and the Boss's (the reactive player's) accepted or refused
    assert fights == {(None, None, None), ("hero", "boss", None), ("hero", None, "boss"), ("boss", "hero", None),
                      ("boss", None, "hero")}, fights
    g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice(ALL_MISS))
    _to_orcs_melee(g)
    assert [(a.unit, a.duel) for a in g.legal_actions() if a.do == "fight" and a.pursuit is None] == [("orcs", None)]


# -- Champions ("Characters and Champions Engaged in Combat may issue a Duel") -----------------------------------
ORC_CHAMPION = "WS4 BS3 S4 T4 W1 I2 A2 Ld7 Sv6+ Adv4 Mar8"


def _champions(orcs: int = 5, spear_profile: str = NO_ATTACKS_SPEAR, spear_champion: bool = False,
               boss: bool = False) -> Game:
    """The Spearmen with their Hero against orcs led by a Champion (o0), who alone of them has Attacks."""
    data = scenario(phase="melee", active="elves", enemy_y=20, spear_status=["engaged"], orc_status=["engaged"],
                    spear_profile=spear_profile, orc_profile=NO_ATTACKS_ORC, orcs=orcs,
                    roles={0: "champion"} if spear_champion else None)
    data["sides"]["orcs"][0]["models"][0].update(role="champion", profile=ORC_CHAMPION)
    if boss:
        data["sides"]["orcs"].append(dict(BOSS))
    return Game(state_from_data(data))


@pytest.mark.rule(DUEL)
def test_a_champion_accepts_a_duel_and_only_he_takes_the_duellists_blows() -> None:
    g = _champions()
    said = g.check({**FIGHT, "duel": "hero", "accept": "orcs"})
    assert said.legal and "hero duels orcs" in said.reason, said
    # I6: the Hero's 3 attacks at the Champion only: hit 6 6 6, wound 6 6 6, no save (S4 against 6+): 3 unsaved on
    # his one Wound: he falls (1 lost) and 2 are Overkill; no other orc is touched
    events = g.apply({**FIGHT, "duel": "hero", "accept": "orcs"}, ScriptedDice([6] * 6 + [1] * 10))
    assert "I6: elves 3 attacks at orcs's Champion o0: 3 hits, 3 unsaved (slain: o0)" in events[1].message, events[1]
    assert "Overkill: elves +2" in events[1].message
    assert [m.name for m in g.state.unit("orcs").models] == ["o1", "o2", "o3", "o4"]
    assert g.state.duels == ()  # the Champion fell: the Duel is over


@pytest.mark.rule(DUEL)
def test_a_duelling_champion_is_struck_by_the_other_duellist_only() -> None:
    # two orcs (the Champion and one more) against ten Spearmen with Attacks, whose own Champion (s0) duels him:
    # whatever the dice, the Spearmen's other blows never slay the orcs' Champion
    for seed in range(12):
        g = _champions(orcs=2, spear_profile="WS4 BS4 S4 T3 W1 I5 A2 Ld8 Sv5+ Adv5 Mar10", spear_champion=True)
        events = g.apply({**FIGHT, "duel": "spears", "accept": "orcs"}, SeededDice(seed))
        lines = events[1].message.split(": ", 1)[1].split("; ")
        assert any(x.startswith("I5: elves 2 attacks at orcs's Champion o0") for x in lines), lines
        others = [x for x in lines if "attacks at orcs:" in x]
        assert all("o0" not in x for x in others), lines
        champion_blows = [x for x in lines if x.startswith("I2: orcs")]
        assert all("attacks at spears's Champion s0" in x for x in champion_blows), lines


@pytest.mark.rule(DUEL)
def test_a_champion_is_never_nominated() -> None:
    # only the orcs' Champion could accept the Hero's Duel: refused, nobody is shamed
    g = _champions()
    said = g.check({**FIGHT, "duel": "hero"})
    assert said.legal and "only Champions could have accepted, and none is nominated" in said.reason, said
    refused(g, {**FIGHT, "duel": "hero", "nominate": "orcs"}, DUEL, "cannot be nominated")
    events = g.apply({**FIGHT, "duel": "hero"}, ScriptedDice([1] * 12))
    assert dict(events[0].data)["outcome"] == "refused" and not any(
        u.has(Status.DUEL_REFUSED) for u in g.state.units)
    # with the Boss there too, the refusal names him, never the Champion
    both = _champions(boss=True)
    refused(both, {**FIGHT, "duel": "hero", "nominate": "orcs"}, DUEL, "Champions cannot be nominated")
    assert both.check({**FIGHT, "duel": "hero"}).legal  # the Boss, the only character, by default
    offered = {(a.duel, a.accept, a.nominate) for a in both.legal_actions() if a.do == "fight"}
    assert ("hero", "orcs", None) in offered and ("hero", None, "orcs") not in offered, offered


@pytest.mark.rule(DUEL)
def test_a_champions_duel_both_survive_goes_on_and_is_saved() -> None:
    g = _champions()
    g.apply({**FIGHT, "duel": "hero", "accept": "orcs"}, ScriptedDice([1] * 12))
    assert g.state.duels == (("hero", "orcs"),)
    assert state_from_data(state_to_data(g.state)) == g.state
    _to_orcs_melee(g)
    said = g.check(ORCS_FIGHT)
    assert said.legal and "the Duel of hero and orcs goes on" in said.reason, said


@pytest.mark.rule(DUEL)
def test_a_champions_duel_has_brute_force_odds() -> None:
    g = _champions()
    weights = exact_odds_as_brute_force(g.state, {**FIGHT, "duel": "hero", "accept": "orcs"})
    assert sum(w for _, w in weights) == 1 and len(weights) > 1


@pytest.mark.rule(DUEL)
def test_the_reactive_players_duellist_is_attacked_by_his_foe_only() -> None:
    # The Spearmen have Attacks here: when the Boss (the reactive player's character) issues the Duel and the Hero
    # accepts, the Spearmen may not aim their blows at the Boss (at: boss), as they may not at an accepter; the
    # ruling said legal and the blows went at the orcs, the at: silently dropped
    data = _data()
    data["sides"]["elves"][0]["models"] = [
        {**m, "profile": "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10"} for m in data["sides"]["elves"][0]["models"]]
    g = Game(state_from_data(data))
    refused(g, {**FIGHT, "duel": "boss", "accept": "hero", "at": "boss"}, DUEL,
            "boss fights the Duel: only hero may attack it")
    refused(g, {**FIGHT, "duel": "hero", "accept": "boss", "at": "boss"}, DUEL,
            "boss fights the Duel: only hero may attack it")
    events = g.apply({**FIGHT, "duel": "boss", "accept": "hero"}, ScriptedDice([1] * 40))
    assert "elves 3 attacks at boss" in events[1].message and "attacks at orcs" in events[1].message, events[1]
    assert g.state.duels == (("boss", "hero"),)
    # the next round, the orcs' turn: the Duel goes on, and their blows may not aim at the Hero
    _to_orcs_melee(g)
    refused(g, {**ORCS_FIGHT, "at": "hero"}, DUEL, "hero fights the Duel: only boss may attack it")
