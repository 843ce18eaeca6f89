"""Judge round 19, second wave: the 9th Age rulings a judge meets in play, read against the rulebook (2nd edition; the
2022 text on the newrecruit.eu wiki): who issues and who accepts a Duel in a combat of several units
(published.t9a-duel, rules/duels: "Characters and Champions Engaged in Combat may issue a Duel"; the accepting model
"must be in a unit that is in base contact with the unit of the model that issued the Duel"), and the weapon a charged
unit's Stand and Shoot fires when its models carry several (published.t9a-shooting-weapons: a Stand and Shoot is a
shooting attack, and the charge's reaction_weapon chooses as a shot's weapon does).  Every case goes through the front
door (Game.check / apply, the CLI), dice through the engine's own Dice, exact odds against brute force.
"""

from __future__ import annotations

from typing import Any

import pytest

from _cli import run
from _t9a import STILL_ORC, STILL_SPEAR, exact_odds_as_brute_force, refused, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

DUEL = "published.t9a-duel"
RESOLUTION = "published.t9a-combat-resolution"
BREAK = "published.t9a-break-test"
WEAPONS = "published.t9a-shooting-weapons"
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
REACTIONS = "published.t9a-charge-reactions"
REDIRECT = "published.t9a-redirect-charge"
FIGHT = {"do": "fight", "unit": "spears"}
IN = 1 / 25.4  # a millimetre, in inches
#: Characters without Attacks, and the ones who fight the Duels (one Attack each).
STILL_HERO = "WS6 BS6 S4 T4 W3 I6 A0 Ld9 Sv4+ Adv5 Mar10"
CAPTAIN = "WS6 BS6 S4 T4 W2 I6 A1 Ld9 Sv4+ Adv5 Mar10"
BOSS = "WS5 BS3 S4 T4 W2 I3 A1 Ld8 Sv5+ Adv4 Mar8"


def _character(cid: str, name: str, profile: str, joined: str, base: int) -> dict[str, Any]:
    return {"id": cid, "character": "independent", "joined": joined,
            "models": [{"name": name, "profile": profile, "base": [base, base]}]}


# -- 1. a Duel in a combat of several units --------------------------------------------------------------------------
def _two_friends(boss: str = BOSS) -> Game:
    """Melee, elves to fight: the Spearmen (ten, charged, their Hero without Attacks) before the orcs (nine, their Boss
    in the front rank) and the Guards (five, their Captain joined) at the orcs' rear: one combat of three units.  Only
    the Captain and the Boss (``boss``, his profile) have an Attack."""
    data = scenario(n=10, orcs=9, phase="melee", active="elves", enemy_y=20, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC, orc_status=["engaged"], spear_status=["engaged", "charged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    data["sides"]["orcs"].append(_character("boss", "Boss", boss, "orcs", 25))
    data["sides"]["elves"].append({"id": "guards", "status": ["engaged"],
                                   "formation": {"position": [36, 20 + 50 * IN + 0.001], "facing": 180, "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    data["sides"]["elves"].append(_character("captain", "Captain", CAPTAIN, "guards", 20))
    return Game(state_from_data(data))


@pytest.mark.rule(DUEL, RESOLUTION, "t9a.join.part-of-unit")
def test_a_character_of_a_friend_unit_in_the_combat_issues_the_duel() -> None:
    # "Characters ... Engaged in Combat may issue a Duel": the Captain fights in the Spearmen's combat (through the
    # orcs), so the Spearmen's fight may carry his Duel; the Boss's unit touches the Guards, so he may accept
    g = _two_friends()
    duel = {**FIGHT, "duel": "captain", "accept": "boss"}
    ruling = g.check(duel)
    assert ruling.legal and DUEL in ruling.rules and "captain duels boss" in ruling.reason, ruling
    # the Boss is the reactive player's: when the active player issues no Duel, his may (2022 text, Issuing a Duel)
    assert g.check({**FIGHT, "duel": "boss", "accept": "captain"}).legal
    refused(g, {**FIGHT, "duel": "orcs", "accept": "captain"}, DUEL, "only such a character issues a Duel")
    refused(g, {**FIGHT, "duel": "captain", "accept": "orcs"}, DUEL, "orcs cannot accept: it is not a living enemy "
            "character")
    # the Captain (I6, WS6 against WS5: 4+) strikes the Boss only, the Boss (I3) the Captain only: 4 hits, 3 fails to
    # wound; the Boss's 6 hits, 6 wounds, the Captain's save 2 fails; the orcs test at Ld 8 - 4: 1 + 1 holds
    events = g.apply(duel, ScriptedDice([4, 3, 6, 6, 2, 1, 1]))
    assert [e.kind for e in events] == ["duel", "fight", "combat"], events
    fight = events[1].message
    assert "I6: elves 1 attack at boss: 1 hit, 0 unsaved" in fight and "I3: orcs 1 attack at captain: 1 hit, " \
        "1 unsaved" in fight, fight
    assert len(g.state.unit("captain").models) == 1 and g.state.unit("captain").models[0].wounds_left == 1
    assert "orcs takes a Break test on Ld 8 (Boss)" in events[-1].message, events[-1]
    reloads(g)


@pytest.mark.rule(DUEL, "published.t9a-to-hit-melee", "published.t9a-to-wound")
def test_a_duel_issued_from_a_friend_unit_has_brute_forces_exact_odds() -> None:
    # the Boss without his Attack (brute force walks every die): the Captain's blow goes at him alone
    weights = exact_odds_as_brute_force(_two_friends(boss=BOSS.replace("A1", "A0")).state,
                                        {**FIGHT, "duel": "captain", "accept": "boss"})
    assert len(weights) > 1 and all(o.lost("orcs") in (0, 9) for o, _ in weights)  # no orc is struck: broken or not


def _chain() -> Game:
    """Melee, elves to fight: the Spearmen (fifteen, their Hero) fight the orcs (their Boss) in front and the wolves
    (their Chief) in their right flank; the Guards (their Captain) fight the wolves' rear, touching neither the orcs
    nor the Spearmen.  One combat of four units; only the Captain and the Chief have an Attack."""
    data = scenario(n=15, orcs=5, phase="melee", active="elves", enemy_y=20, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC, spear_status=["engaged"], orc_status=["engaged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    front = 36 + 50 * IN  # the Spearmen's right edge, where the wolves' front stands
    data["sides"]["orcs"] += [
        {"id": "wolves", "status": ["engaged"], "formation": {"position": [front, 17.5], "facing": 90, "files": 5},
         "models": [{"name": f"w{i}", "profile": STILL_ORC, "base": [25, 25]} for i in range(5)]},
        _character("boss", "Boss", STILL_HERO, "orcs", 25), _character("chief", "Chief", BOSS, "wolves", 25)]
    data["sides"]["elves"] += [
        {"id": "guards", "status": ["engaged"],
         "formation": {"position": [front + 50 * IN + 0.001, 17.5], "facing": 90, "files": 5},
         "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]} for i in range(5)]},
        _character("captain", "Captain", CAPTAIN, "guards", 20)]
    return Game(state_from_data(data))


@pytest.mark.rule(DUEL, RESOLUTION)
def test_only_an_enemy_character_whose_unit_touches_the_issuers_unit_accepts_or_is_nominated() -> None:
    g = _chain()
    said = g.check({**FIGHT, "duel": "captain", "accept": "chief"})
    assert said.legal and "spears fights orcs, wolves with guards" in said.reason and "captain duels chief" in \
        said.reason, said
    # the Boss is in the combat, but the orcs do not touch the Guards: he may not take up the Captain's Duel
    refused(g, {**FIGHT, "duel": "captain", "accept": "boss"}, DUEL,
            "boss cannot accept: its unit orcs is not in base contact with guards, the issuer's unit (chief may)")
    refused(g, {**FIGHT, "duel": "captain", "nominate": "boss"}, DUEL, "boss could not have accepted the Duel "
            "(chief could)")
    refused(g, {**FIGHT, "duel": "captain", "accept": "captain"}, DUEL, "captain cannot accept")
    # the Hero's unit touches both: either may accept, and a refusal must name the one shamed
    assert g.check({**FIGHT, "duel": "hero", "accept": "chief"}).legal
    refused(g, {**FIGHT, "duel": "hero"}, DUEL, "nominate: boss or chief")
    # the Guards' fight is the same combat: the Hero, in the Spearmen, issues it there, and the Boss accepts though the
    # orcs do not touch the Guards (his unit touches the Hero's)
    guards = g.check({"do": "fight", "unit": "guards", "duel": "hero", "accept": "boss"})
    assert guards.legal and "guards fights wolves, orcs with spears" in guards.reason, guards


@pytest.mark.rule(DUEL, BREAK)
def test_a_refused_duel_shames_the_only_character_who_could_accept_it() -> None:
    # the Captain's Duel is refused: the Chief, the only one whose unit touches the Guards, is nominated by default; he
    # strikes no blow at the Spearmen he touches and the wolves' Break test is on a wolf's Ld 7, not his 8
    g = _chain()
    ruling = g.check({**FIGHT, "duel": "captain"})
    assert ruling.legal and "the Duel captain issues is refused: chief may not attack" in ruling.reason, ruling
    events = g.apply({**FIGHT, "duel": "captain"}, ScriptedDice([1, 1, 1, 1]))
    assert [e.kind for e in events] == ["duel", "fight", "combat"], events
    assert "no blows are struck" in events[1].message, events[1]
    assert "wolves takes a Break test on Ld 7 (w0) -3: 2, holds" in events[-1].message and DUEL in events[-1].rules
    # without the Duel the Chief strikes (4 hits, 6 wounds, the save 1 fails) and the wolves test on his Ld 8
    plain = _chain()
    events = plain.apply(FIGHT, ScriptedDice([4, 6, 1, 1, 1, 1, 1]))
    assert "I3: orcs 1 attack at spears: 1 hit, 1 unsaved" in events[0].message, events[0]
    assert "wolves takes a Break test on Ld 8 (Chief) -2: 2, holds" in events[-1].message, events[-1]


def test_the_cli_checks_a_duel_in_a_combat_of_several_units(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import yaml

    from herohammer.scenario import state_to_data

    path = tmp_path / "chain.yaml"
    path.write_text(yaml.safe_dump(state_to_data(_chain().state)))
    code, out, _ = run(["check", str(path), "--action", json.dumps({**FIGHT, "duel": "captain", "accept": "boss"})],
                       capsys)
    assert "ILLEGAL" in out and DUEL in out and "not in base contact with guards" in out, out
    code, out, err = run(["check", str(path), "--action", json.dumps({**FIGHT, "duel": "captain", "accept": "chief"})],
                         capsys)
    assert code == 0 and "LEGAL" in out and "captain duels chief" in out, (out, err)


# -- 2. the weapon a Stand and Shoot fires -----------------------------------------------------------------------------
CHARGE = {"do": "charge", "unit": "spears", "target": "orcs"}


def _archers(weapons: list[str], orcs: int = 5, stand_and_shoot: bool = True) -> Game:
    """The Spearmen charge the orcs 8" away, each orc carrying ``weapons``, with Stand and Shoot."""
    data = scenario(phase="charge", active="elves", enemy_y=28, orcs=orcs)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"] if stand_and_shoot else []
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = list(weapons)
    return Game(state_from_data(data))


def _shots(events: list[Any]) -> list[int]:
    return [f for e in events for r in e.rolls if r.purpose.startswith("Stand and Shoot: to hit") for f in r.faces]


@pytest.mark.rule(WEAPONS, STAND_AND_SHOOT)
def test_stand_and_shoot_fires_its_first_listed_weapon_unless_the_reaction_chooses() -> None:
    g = _archers(["javelin", "crossbow"])
    default = g.check(CHARGE)
    assert default.legal and WEAPONS in default.rules and any(
        "orcs will stand and shoot with javelin of javelin, crossbow (its first listed; choose another with "
        "reaction_weapon)" in n for n in default.notes), default
    chosen = g.check({**CHARGE, "reaction": "stand_and_shoot", "reaction_weapon": "crossbow"})
    assert chosen.legal and "orcs will Stand and Shoot" in chosen.reason and any(
        "crossbow of javelin, crossbow (as chosen)" in n for n in chosen.notes), chosen
    # 8" away: javelins (12") at Long Range, BS3 -1 -1: 6+; crossbows (30") 5+ and S4 against T3: 3+ to wound.
    # Five 5s miss with javelins and hit with crossbows
    javelins = _archers(["javelin", "crossbow"]).apply(CHARGE, ScriptedDice([5] * 5 + [6, 6]))
    charge = next(e for e in javelins if e.kind == "charge")
    assert "javelin of javelin, crossbow (its first listed" in charge.message and WEAPONS in charge.rules
    assert len(_shots(javelins)) == 5 and not any("to wound" in r.purpose for e in javelins for r in e.rolls)
    events = g.apply({**CHARGE, "reaction_weapon": "crossbow"}, ScriptedDice([5] * 5 + [3] * 5 + [6] * 5 + [6, 6]))
    charge = next(e for e in events if e.kind == "charge")
    assert "orcs stood and shot (5 shots)" in charge.message and "orcs stands and shoots with crossbow of javelin, " \
        "crossbow (as chosen)" in charge.message and WEAPONS in charge.rules, charge
    wound = [r for e in events for r in e.rolls if "to wound" in r.purpose]
    assert wound and wound[0].faces == (3, 3, 3, 3, 3)  # five hits, each 3+ to wound: S4
    assert g.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    reloads(g)


@pytest.mark.rule(WEAPONS, STAND_AND_SHOOT, REACTIONS)
def test_a_stand_and_shoot_weapon_the_unit_cannot_fire_is_refused_naming_the_field() -> None:
    g = _archers(["javelin", "crossbow"])
    refused(g, {**CHARGE, "reaction_weapon": "sword"}, WEAPONS, "charge.reaction_weapon: 'sword' is not a missile "
            "weapon")
    refused(g, {**CHARGE, "reaction": "stand_and_shoot", "reaction_weapon": "bow"}, WEAPONS,
            "charge.reaction_weapon: no model of orcs carries a bow")
    refused(g, {**CHARGE, "reaction_weapon": {"boss": "crossbow"}}, WEAPONS, "charge.reaction_weapon.boss: boss is "
            "not orcs nor a character in it")
    refused(g, {**CHARGE, "reaction": "hold", "reaction_weapon": "crossbow"}, WEAPONS,
            "charge.reaction_weapon: orcs Holds and fires no weapon")
    refused(g, {**CHARGE, "reaction": "flee", "reaction_weapon": "crossbow"}, WEAPONS,
            "charge.reaction_weapon: orcs Flees and fires no weapon")
    refused(g, {**CHARGE, "redirect_reaction_weapon": "crossbow"}, WEAPONS,
            "charge.redirect_reaction_weapon: no redirect is named")
    # a unit whose rules do not list Stand and Shoot Holds: nothing fires, so a weapon named is refused
    refused(_archers(["javelin", "crossbow"], stand_and_shoot=False), {**CHARGE, "reaction_weapon": "crossbow"},
            WEAPONS, "charge.reaction_weapon: orcs Holds (its rules do not list Stand and Shoot)")
    # one weapon only: naming it is allowed, and nothing is said of a choice
    one = _archers(["crossbow"])
    ruling = one.check({**CHARGE, "reaction_weapon": "crossbow"})
    assert ruling.legal and not ruling.notes, ruling


def _redirect() -> Game:
    """The orcs charge the Spearmen, who flee, and redirect to the Guards (Stand and Shoot, javelins and crossbows)."""
    data = scenario(phase="charge", active="orcs", enemy_y=30)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    data["sides"]["elves"].append({"id": "guards", "rules": ["Stand and Shoot"],
                                   "formation": {"position": [42, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20],
                                               "weapons": ["javelin", "crossbow"]} for i in range(5)]})
    return Game(state_from_data(data))


REDIRECTED = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee", "redirect": "guards"}


@pytest.mark.rule(WEAPONS, STAND_AND_SHOOT, REDIRECT)
def test_the_redirects_unit_stands_and_shoots_with_the_weapon_chosen_for_it() -> None:
    g = _redirect()
    ruling = g.check({**REDIRECTED, "redirect_reaction_weapon": "crossbow"})
    assert ruling.legal and any("guards will stand and shoot with crossbow of javelin, crossbow (as chosen)" in n
                                for n in ruling.notes), ruling
    refused(g, {**REDIRECTED, "redirect_reaction_weapon": "bow"}, WEAPONS,
            "charge.redirect_reaction_weapon: no model of guards carries a bow")
    refused(g, {**REDIRECTED, "redirect_reaction": "hold", "redirect_reaction_weapon": "crossbow"}, WEAPONS,
            "charge.redirect_reaction_weapon: guards Holds and fires no weapon")
    # the Spearmen flee 3 + 3; the orcs' Discipline test 1 + 1 passes; the Guards' five crossbows (BS4 -1 for Stand
    # and Shoot: 4+, within half their 30") hit with five 4s
    events = g.apply({**REDIRECTED, "redirect_reaction_weapon": "crossbow"},
                     ScriptedDice([3, 3, 1, 1] + [4] * 5 + [6] * 5 + [1] * 5 + [6, 6] + [1] * 10))
    charge = next(e for e in events if e.kind == "charge")
    assert "guards stands and shoots with crossbow of javelin, crossbow (as chosen)" in charge.message, charge
    assert _shots(events) == [4] * 5 and WEAPONS in charge.rules


@pytest.mark.rule(WEAPONS, STAND_AND_SHOOT)
def test_a_chosen_stand_and_shoot_weapons_exact_odds_are_brute_forces() -> None:
    g = _archers(["javelin", "crossbow"], orcs=2)
    crossbow = exact_odds_as_brute_force(g.state, {**CHARGE, "reaction_weapon": "crossbow"})
    javelin = exact_odds_as_brute_force(g.state, CHARGE)
    assert len(crossbow) > 1 and len(javelin) > 1 and dict(crossbow) != dict(javelin)


def test_the_cli_checks_a_stand_and_shoot_weapon(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    data = scenario(phase="charge", active="elves", enemy_y=28)
    data["sides"]["orcs"][0]["rules"] = ["Stand and Shoot"]
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["javelin", "crossbow"]
    path = tmp_path / "stand_and_shoot.yaml"
    path.write_text(yaml.safe_dump(data))
    code, out, _ = run(["check", str(path), "--action", '{"do": "charge", "unit": "spears", "target": "orcs", '
                                                       '"reaction_weapon": "sword"}'], capsys)
    assert "ILLEGAL" in out and "charge.reaction_weapon" in out and WEAPONS in out, out
    code, out, err = run(["check", str(path), "--action", '{"do": "charge", "unit": "spears", "target": "orcs", '
                                                        '"reaction_weapon": "crossbow"}'], capsys)
    assert code == 0 and "LEGAL" in out and "crossbow" in out, (out, err)
