"""Judge round 19: the 9th Age rulings a judge meets in play, read against the rulebook (2nd edition; the 2022 text on
the newrecruit.eu wiki where the engine says so): a model with several Shooting Weapons (published.t9a-shooting-weapons),
the Standard Bearers' +1 and the Battle Standard Bearer's Rally Around the Flag on every Discipline test
(published.t9a-combat-resolution, published.t9a-battle-standard), and a judge's round on the turn around the
characters.  Every case goes through the front door (Game.check / apply, the CLI), dice through the engine's own Dice,
exact odds against brute force.
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

WEAPONS = "published.t9a-shooting-weapons"
TO_HIT = "published.t9a-to-hit-shooting"
RESOLUTION = "published.t9a-combat-resolution"
BSB = "published.t9a-battle-standard"
REDIRECT = "published.t9a-redirect-charge"
SHOOT = {"do": "shoot", "unit": "orcs", "target": "spears"}
FIGHT = {"do": "fight", "unit": "spears"}


# -- 1. a model with more than one Shooting Weapon uses one a phase, the shot chooses it ----------------------------
def _armed(weapons: list[str], enemy_y: float = 34.0, hero: list[str] | None = None, **kw: Any) -> Game:
    """The orc archers, each carrying ``weapons``, 14" (front to front) from the Spearmen and their Hero."""
    data = scenario(enemy_y=enemy_y, hero_weapons=hero, **kw)
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = list(weapons)
    return Game(state_from_data(data))


@pytest.mark.rule(WEAPONS, TO_HIT)
def test_a_model_with_two_weapons_shoots_its_first_listed_unless_the_shot_chooses() -> None:
    g = _armed(["javelin", "crossbow"])
    # javelins (12") do not reach the Spearmen 14" away: the ruling says which weapon and how to choose another
    refused(g, SHOOT, WEAPONS, "orcs shoots javelin of javelin, crossbow (its first listed; choose another with weapon)")
    ruling = g.check({**SHOOT, "weapon": "crossbow"})
    assert ruling.legal and WEAPONS in ruling.rules and "orcs shoots 5 shots at spears" in ruling.reason
    assert any("orcs shoots crossbow of javelin, crossbow (as chosen)" in n for n in ruling.notes), ruling
    # five crossbows (S4 against T3: 3+ to wound; AP 1: the 5+ save becomes 6+) at 14", within half of 30": BS3 hits on 4+
    events = g.apply({**SHOOT, "weapon": "crossbow"}, ScriptedDice([4] * 5 + [3] * 5 + [1] * 5 + [1, 1]))
    assert "5 shots (4+ to hit, S4 AP1)" in events[0].message and "orcs shoots crossbow of javelin, crossbow" in \
        events[0].message and WEAPONS in events[0].rules, events[0]
    assert len(g.state.unit("spears").models) == 5
    reloads(g)


@pytest.mark.rule(WEAPONS)
def test_the_first_listed_weapon_in_reach_shoots_without_a_choice() -> None:
    g = _armed(["crossbow", "javelin"])
    ruling = g.check(SHOOT)
    assert ruling.legal and any("orcs shoots crossbow of crossbow, javelin (its first listed" in n
                                for n in ruling.notes), ruling
    events = g.apply(SHOOT, ScriptedDice([1] * 5))
    assert "S4" in events[0].message
    # one weapon carried: nothing to say
    plain = _armed(["crossbow"]).check(SHOOT)
    assert plain.legal and WEAPONS not in plain.rules and not any(WEAPONS in n for n in plain.notes)


@pytest.mark.rule(WEAPONS)
def test_a_weapon_choice_the_unit_cannot_make_is_refused_naming_the_field() -> None:
    g = _armed(["javelin", "crossbow"])
    refused(g, {**SHOOT, "weapon": "longbow"}, WEAPONS, "shoot.weapon: no model of orcs carries a longbow")
    refused(g, {**SHOOT, "weapon": "crossbow S6"}, WEAPONS, "shoot.weapon: no model of orcs carries a crossbow S6")
    refused(g, {**SHOOT, "weapon": "great axe"}, WEAPONS, "shoot.weapon: 'great axe' is not a missile weapon")
    refused(g, {**SHOOT, "weapon": {"hero": "crossbow"}}, WEAPONS, "shoot.weapon.hero: hero is not orcs nor a "
                                                                     "character in it")
    assert g.check({**SHOOT, "weapon": "Crossbow S4"}).legal  # the table's crossbow, named with its Strength


@pytest.mark.rule(WEAPONS, "t9a.join.part-of-unit")
def test_a_joined_character_chooses_his_own_weapon() -> None:
    # the Hero (BS6) in the Spearmen carries a pistol (12") and a longbow (30"); the Spearmen carry none
    g = _armed(["bow"], hero=["pistol", "longbow"], active="elves")
    shot = {"do": "shoot", "unit": "spears", "target": "orcs"}
    refused(g, shot, TO_HIT, "hero shoots pistol of pistol, longbow (its first listed")
    for choice in ("longbow", {"hero": "longbow"}):
        ruling = g.check({**shot, "weapon": choice})
        assert ruling.legal and "spears shoots 1 shot at orcs" in ruling.reason, ruling
    refused(g, {**shot, "weapon": {"spears": "longbow"}}, WEAPONS, "shoot.weapon.spears: no model of spears carries")


@pytest.mark.rule(WEAPONS, TO_HIT)
def test_a_chosen_weapons_exact_odds_are_brute_forces() -> None:
    g = _armed(["javelin", "crossbow"], orcs=2)
    crossbow = exact_odds_as_brute_force(g.state, {**SHOOT, "weapon": "crossbow"})
    near = _armed(["javelin", "crossbow"], orcs=2, enemy_y=30)  # 10": javelins reach, S3
    javelin = exact_odds_as_brute_force(near.state, SHOOT)
    assert len(crossbow) > 1 and len(javelin) > 1


def test_the_cli_plays_a_shot_with_its_weapon(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    data = scenario()
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = ["javelin", "crossbow"]
    path = tmp_path / "two_weapons.yaml"
    path.write_text(yaml.safe_dump(data))
    code, out, _ = run(["check", str(path), "--action", '{"do": "shoot", "unit": "orcs", "target": "spears", '
                                                       '"weapon": "sword"}'], capsys)
    assert "ILLEGAL" in out and "shoot.weapon" in out and WEAPONS in out, out
    code, out, err = run(["check", str(path), "--action", '{"do": "shoot", "unit": "orcs", "target": "spears", '
                                                        '"weapon": "crossbow"}'], capsys)
    assert code == 0 and "LEGAL" in out and "crossbow" in out, (out, err)


# -- 2. Standard Bearers (per model, 2nd edition) and Rally Around the Flag on every Discipline test -----------------
def _melee(spear_roles: dict[int, str]) -> Game:
    data = scenario(n=10, orcs=5, phase="melee", active="elves", enemy_y=20, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC, spear_status=["engaged"], orc_status=["engaged"], roles=spear_roles)
    data["sides"]["elves"][1]["models"][0]["profile"] = "WS6 BS6 S4 T4 W3 I6 A0 Ld9 Sv4+ Adv5 Mar10"
    return Game(state_from_data(data))


@pytest.mark.rule(RESOLUTION)
def test_each_standard_bearer_engaged_counts_two_in_one_unit_count_two() -> None:
    # 2nd edition Combat Score: "+1 for each Standard Bearer ... Engaged in Combat" (the 2022 text's +1 a unit is not
    # followed); nobody strikes, the Spearmen (one rank behind the first, +1) with two standards win by 3, not 2
    said = _melee({0: "standard", 1: "standard"}).apply(FIGHT, ScriptedDice([1, 1]))[-1].message
    assert "spears +3 (ranks +1, standard +2)" in said and "elves wins by 3" in said, said
    one = _melee({0: "standard"}).apply(FIGHT, ScriptedDice([1, 1]))[-1].message
    assert "standard +1" in one and "elves wins by 2" in one, one


def _redirect(bearer_at: tuple[float, float] | None, fleeing: bool = False) -> Game:
    """The orcs (Ld 7) charge the Spearmen, which flee, and redirect at the Guards; ``bearer_at``: the orcs' lone
    Battle Standard Bearer there."""
    data = scenario(phase="charge", active="orcs", enemy_y=30)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    data["sides"]["elves"].append({"id": "guards", "formation": {"position": [42, 20], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    if bearer_at is not None:
        data["sides"]["orcs"].append({"id": "bsb", "character": "independent", "rules": ["Battle Standard Bearer"],
                                      "status": ["fleeing"] if fleeing else [],
                                      "models": [{"name": "Bearer", "profile": STILL_ORC, "base": [25, 25],
                                                  "at": list(bearer_at)}]})
    return Game(state_from_data(data))


REDIRECTED = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee", "redirect": "guards"}


@pytest.mark.rule(BSB, REDIRECT)
def test_rally_around_the_flag_re_rolls_a_failed_redirect_test() -> None:
    # the Spearmen flee 3 + 3; the orcs' Discipline test 6 + 5 fails on Ld 7, re-rolled 2 + 3 passes; 6 + 6 to charge
    g = _redirect((36, 36))
    events = g.apply(REDIRECTED, ScriptedDice([3, 3, 6, 5, 2, 3, 6, 6]))
    redirect = events[1]
    assert dict(redirect.data)["outcome"] == "redirected", redirect
    assert "re-rolled for Rally Around the Flag (Bearer" in redirect.message and BSB in redirect.rules
    assert [r.value for r in redirect.rolls] == [11, 5] and g.state.unit("guards").has(Status.ENGAGED)
    reloads(g)
    # beyond 12", or fleeing, the Bearer re-rolls nothing: the failed test stands
    for far in (_redirect((5, 45)), _redirect((36, 36), fleeing=True)):
        events = far.apply(REDIRECTED, ScriptedDice([3, 3, 6, 5, 6, 6]))
        assert dict(events[1].data)["outcome"] == "failed" and BSB not in events[1].rules, events[1]


@pytest.mark.rule(BSB, REDIRECT)
def test_a_re_rolled_redirect_tests_exact_odds_are_brute_forces() -> None:
    weights = exact_odds_as_brute_force(_redirect((36, 36)).state, REDIRECTED)
    assert len(weights) > 1


# -- 3. a judge's round on the turn around the characters ----------------------------------------------------------
DUEL = "published.t9a-duel"
BREAK = "published.t9a-break-test"
FLANK_REAR = "published.t9a-flank-rear"
PANIC = "published.t9a-panic"
TYPES = "published.t9a-spell-types"
STILL_HERO = "WS6 BS6 S4 T4 W3 I6 A0 Ld9 Sv4+ Adv5 Mar10"
SLOT = 25 / 25.4  # an orc's 25 mm rank, in inches


def _joined_fight() -> Game:
    """Elves' Charge phase: the orcs (nine, their Boss in the front rank: two full ranks) already fight the Guards at
    their rear; the Spearmen (ten, their Hero in the front rank) stand 10" before the orcs' front.  Nobody has
    Attacks, so a combat's score is its static bonuses."""
    data = scenario(n=10, orcs=9, phase="charge", active="elves", enemy_y=30, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC, orc_status=["engaged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "joined": "orcs", "models": [
        {"name": "Boss", "profile": "WS5 BS3 S4 T4 W2 I3 A0 Ld8 Sv5+ Adv4 Mar8", "base": [25, 25]}]})
    data["sides"]["elves"].append({"id": "guards", "status": ["engaged"],
                                   "formation": {"position": [36, 30 + 2 * SLOT + 0.001], "facing": 180, "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    g = Game(state_from_data(data))
    g.apply({"do": "charge", "unit": "spears", "target": "orcs", "reaction": "hold"}, ScriptedDice([6, 6]))
    for _ in range(4):  # to Movement, Magic, Shooting, Melee
        g.apply({"do": "end_phase"})
    assert g.state.phase.value == "melee"
    return g


@pytest.mark.rule(RESOLUTION, DUEL, FLANK_REAR, "t9a.join.part-of-unit")
def test_a_character_whose_unit_charged_into_a_fight_duels_in_it_and_the_fight_is_one_combat() -> None:
    # a combat is every unit connected through base contact (2022 text, rules/combat): the Spearmen's charge joined
    # the Guards' fight, so it is fought once, with the Guards' Rear Bonus and the Spearmen's charge together
    g = _joined_fight()
    ruling = g.check({**FIGHT, "duel": "hero", "accept": "boss"})
    assert ruling.legal and "spears fights orcs with guards (one combat" in ruling.reason and DUEL in ruling.rules
    refused(g, {**FIGHT, "duel": "hero", "accept": "orcs"}, DUEL, "orcs cannot accept")
    events = g.apply({**FIGHT, "duel": "hero", "accept": "boss"}, ScriptedDice([1, 2]))
    assert [e.kind for e in events] == ["duel", "fight", "combat"], events
    said = events[-1].message
    # elves: ranks +1, charge +1, the Guards in the orcs' rear +2; orcs: ranks +1 -> the orcs test at Ld 8 - 3
    assert "elves wins by 3 (4 to 1;" in said and "guards +2 (rear)" in said and "spears +2 (ranks +1, charge +1)" \
        in said, said
    assert "orcs takes a Break test on Ld 8 (Boss) -3: 3, holds" in said and FLANK_REAR in events[-1].rules
    # the Guards' combat has been fought with it: no second round, no second Break test for the orcs
    refused(g, {"do": "fight", "unit": "guards"}, RESOLUTION, "guards's combat has been fought")
    reloads(g)


def _two_losers() -> Game:
    """The Spearmen (fifteen, charged this turn) fight the orcs in front and the wolves in their right flank."""
    data = scenario(n=15, orcs=5, phase="melee", active="elves", enemy_y=20, spear_profile=STILL_SPEAR,
                    orc_profile=STILL_ORC, spear_status=["engaged", "charged"], orc_status=["engaged"])
    data["sides"]["elves"][1]["models"][0]["profile"] = STILL_HERO
    data["sides"]["orcs"].append({"id": "wolves", "status": ["engaged"],
                                  "formation": {"position": [36 + 2 * 20 / 25.4 + 10 / 25.4, 17.0], "facing": 90,
                                                "files": 5},
                                  "models": [{"name": f"w{i}", "profile": STILL_ORC, "base": [25, 25]}
                                             for i in range(5)]})
    return Game(state_from_data(data))


@pytest.mark.rule(BREAK, RESOLUTION, "published.t9a-pursuit")
def test_every_losing_unit_takes_its_own_break_test() -> None:
    # elves +3 (ranks +2, charge +1) against the wolves' flank +1: both orc units lose by 2 and test at Ld 7 - 2 = 5
    g = _two_losers()
    events = g.apply(FIGHT, ScriptedDice([6, 6, 3, 3, 1, 1]))
    said = events[-1].message
    assert "orcs takes a Break test on Ld 7 (o0) -2: 12, breaks" in said and "wolves takes a Break test on Ld 7 " \
        "(w0) -2: 2, holds" in said, said
    # the wolves held: the combat goes on, the Spearmen still engaged with them; so engaged, they do not pursue the
    # orcs (round 31, the 2022 text: no Pursuit while Engaged with a non-Broken enemy; until then the orcs were
    # pursued, 6 6, and caught)
    assert g.state.unit("spears").has(Status.ENGAGED) and g.state.unit("wolves").has(Status.ENGAGED)
    assert g.state.unit("orcs").has(Status.FLEEING) and len(g.state.unit("orcs").models) == 5
    both = _two_losers()
    # both break (flees 3 3 and 3 3), then the pursuits after every test: 6 6 catches the orcs, 1 1 misses the wolves
    both.apply(FIGHT, ScriptedDice([6, 6, 3, 3, 6, 5, 3, 3, 6, 6, 1, 1]))
    assert both.state.unit("wolves").has(Status.FLEEING) and not both.state.unit("spears").has(Status.ENGAGED)
    reloads(both)


@pytest.mark.rule(BREAK)
def test_two_losers_exact_odds_are_two_independent_break_tests() -> None:
    # brute force (every die a branch) is out of reach with two flees and two pursuits; the oracle is the rulebook's
    # arithmetic: each unit holds on 2D6 <= 5 (10/36), independently of the other
    from fractions import Fraction

    from herohammer.action_odds import action_odds

    odds = action_odds(_two_losers().state, FIGHT)
    assert odds.exact
    held: dict[tuple[bool, bool], Fraction] = {}
    for outcome, p in odds.weights:
        lost = dict(outcome.models_lost)
        gained = dict(outcome.statuses_gained)
        broke = tuple(u in lost or "fleeing" in gained.get(u, ()) for u in ("orcs", "wolves"))
        held[broke] = held.get(broke, Fraction(0)) + Fraction(p)
    hold = Fraction(10, 36)
    assert held == {(False, False): hold * hold, (True, False): (1 - hold) * hold,
                    (False, True): hold * (1 - hold), (True, True): (1 - hold) ** 2}


def _wizard_charges_out() -> Game:
    data = scenario(phase="charge", active="elves", enemy_y=28, extra={"magic_dice": {"elves": 6, "orcs": 4}})
    hero = data["sides"]["elves"][1]
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball", "Whispering Shadows"]
    data["sides"]["orcs"].append({"id": "wolves", "formation": {"position": [60, 30], "facing": 180, "files": 5},
                                  "models": [{"name": f"w{i}", "profile": STILL_ORC, "base": [25, 25]}
                                             for i in range(5)]})
    return Game(state_from_data(data))


@pytest.mark.rule(TYPES, "t9a.charge-out.success", "published.t9a-magic")
def test_a_wizard_who_charged_out_casts_in_the_magic_phase_as_an_engaged_caster() -> None:
    g = _wizard_charges_out()
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}, ScriptedDice([6, 6]))
    assert g.state.unit("hero").has(Status.ENGAGED) and g.state.unit("hero").joined is None
    g.apply({"do": "end_phase"})  # Movement
    g.apply({"do": "end_phase"})  # Magic
    assert g.state.phase.value == "magic"
    # engaged now (a lone character in base contact): no Missile spell, at his foe or at anyone
    for target in ("orcs", "wolves"):
        refused(g, {"do": "cast", "unit": "hero", "spell": "Fireball", "target": target, "dice": 2}, TYPES,
                "hero cannot cast it while hero is engaged in combat")
    # a Hex that is no Missile he may cast, the Spearmen he left know no spell
    assert g.check({"do": "cast", "unit": "hero", "spell": "Whispering Shadows", "target": "wolves", "dice": 2}).legal
    refused(g, {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "wolves", "dice": 2},
            "published.t9a-magic", "spears does not know Fireball")


@pytest.mark.rule("t9a.combined.last-survivor", PANIC, "published.t9a-distributing-hits")
def test_a_unit_shot_down_around_its_character_leaves_him_its_panic_test() -> None:
    # four Spearmen and their Hero: fewer than five rank and file, so the hits are shared; all four fall, the Hero
    # (the unit still, its last survivor) takes its Panic test alone, on his own Ld 9
    from herohammer.dice import SeededDice

    shot = {"do": "shoot", "unit": "orcs", "target": "spears"}
    data = scenario(n=4, orcs=10)
    g = Game(state_from_data(data))
    events = g.apply(shot, SeededDice(37))
    assert not g.state.unit("spears").models and g.state.unit("hero").last_of == "spears"
    panic = events[-1]
    assert panic.kind == "panic" and panic.message.startswith("hero passes its Panic test") and "Ld 9" in \
        panic.message and "t9a.combined.last-survivor" in panic.rules, panic
    # the orcs have shot this phase: no second volley at what is left of the unit
    refused(g, shot, "published.t9a-who-can-shoot", "has already shot this phase")


@pytest.mark.rule("t9a.leave.when", "t9a.charge-out.declare")
def test_a_character_does_not_leave_an_engaged_unit_by_moving_or_charging_out() -> None:
    for phase, action, rule, text in (
            ("movement", {"do": "leave", "character": "hero", "to": [20, 10]}, "t9a.leave.when", "engaged"),
            ("charge", {"do": "charge", "unit": "hero", "target": "orcs"}, "t9a.charge-out.declare", "engaged")):
        g = Game(state_from_data(scenario(phase=phase, active="elves", enemy_y=20, spear_status=["engaged"],
                                          orc_status=["engaged"])))
        refused(g, action, rule, text)
    # the same Hero leaves in the Movement phase once the unit is free
    free = Game(state_from_data(scenario(phase="movement", active="elves")))
    assert free.check({"do": "leave", "character": "hero", "to": [30, 17]}).legal


@pytest.mark.rule("t9a.charge-out.declare", "published.t9a-charge", "published.t9a-rally")
def test_a_charge_out_of_a_fleeing_unit_is_refused_saying_so_and_after_the_rally_too() -> None:
    g = Game(state_from_data(scenario(phase="charge", active="elves", enemy_y=30, spear_status=["fleeing"])))
    out = {"do": "charge", "unit": "hero", "target": "orcs"}
    refused(g, out, "t9a.charge-out.declare", "hero cannot charge: it is part of spears, which is fleeing")
    g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([1, 1]))
    # rallied, the unit (the Hero with it) counts as having marched: no charge out this turn either
    refused(g, out, "published.t9a-charge", "hero cannot charge: it rallied this turn")
    reloads(g)


@pytest.mark.rule("t9a.charge-out.failure", "published.t9a-failed-charge", "published.t9a-shaken")
def test_a_failed_charge_outs_move_is_the_higher_die_and_decides_whether_he_leaves() -> None:
    charge = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}
    data = scenario(phase="charge", active="elves", enemy_y=30)
    start = Game(state_from_data(data)).state.unit("hero").models[0].at
    # 5" + 1 + 2 = 8" does not reach the orcs 10" away: the Hero moves 2" (the higher die) straight at them, ends
    # 1.2" from his unit's front and is alone; the unit is not Shaken and moves in the Movement phase
    away = Game(state_from_data(data))
    events = away.apply(charge, ScriptedDice([1, 2]))
    assert 'moves 2" and leaves spears' in events[-1].message and "t9a.charge-out.failure" in events[-1].rules
    hero = away.state.unit("hero")
    assert hero.joined is None and hero.models[0].at == pytest.approx((start[0], start[1] + 2))
    assert not away.state.unit("spears").has(Status.SHAKEN)
    # 1 + 1: a 1" move ends 0.21" from the unit: he stays in it and every model is Shaken until the turn ends
    stay = Game(state_from_data(data))
    stay.apply(charge, ScriptedDice([1, 1]))
    assert stay.state.unit("hero").joined == "spears" and stay.state.unit("spears").has(Status.SHAKEN)
    stay.apply({"do": "end_phase"})
    refused(stay, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "published.t9a-shaken", "Shaken")
    away.apply({"do": "end_phase"})
    assert away.check({"do": "move", "unit": "spears", "to": [[36, 18]]}).legal
