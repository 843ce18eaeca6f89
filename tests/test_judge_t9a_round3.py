"""A judge's cases for The 9th Age, third round: charge reactions and sequences around a character.

Charge Reactions (published.t9a-charge-reactions): the charged unit's player chooses Hold or Stand
and Shoot, and the choice travels with the charge as a Duel's acceptance travels with the fight.
Then sequences in which the state changes around a character, each through the front door
(``Game``): the legal and the illegal step, the clause cited, and a refused step changing nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.rulings import Event
from herohammer.units import Status
from test_t9a_rules import refused, scenario
from _t9a import play_to, reloading_game, reloads

REACTIONS = "published.t9a-charge-reactions"
STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs"}
UNIT_CHARGE = {"do": "charge", "unit": "spears", "target": "orcs"}








def _shots(events: list[Event]) -> int:
    """Count the Stand and Shoot to-hit dice of a charge."""
    return sum(len(r.faces) for e in events for r in e.rolls if r.purpose.startswith("Stand and Shoot: to hit"))


def _charge(events: list[Event]) -> Event:
    return next(e for e in events if e.kind == "charge")


def _archers(enemy_y: float = 28, **kw: Any) -> dict[str, Any]:
    """The Hero in the Spearmen (front at y 20, facing up); five orc archers with Stand and Shoot facing them."""
    return scenario(joined=True, phase="charge", enemy_y=enemy_y, enemy_rules=["Stand and Shoot"], **kw)


# -- Charge Reactions: the charged unit's player chooses --------------------------------------------
@pytest.mark.rule(REACTIONS, STAND_AND_SHOOT, "t9a.charge-out.stand-and-shoot")
def test_the_charged_units_player_may_hold_instead_of_standing_and_shooting() -> None:
    g = reloading_game(_archers())
    hold = {**CHARGE_OUT, "reaction": "hold"}
    ruling = g.check(hold)
    assert ruling.legal and REACTIONS in ruling.rules and "orcs holds" in ruling.reason
    events = g.apply(hold, ScriptedDice([6, 6]))  # only the charge dice: nobody shoots
    ev = _charge(events)
    assert _shots(events) == 0 and dict(ev.data)["outcome"] == "charged"
    assert REACTIONS in ev.rules and "orcs holds" in ev.message and STAND_AND_SHOOT not in ev.rules
    assert not g.state.unit("orcs").has(Status.STOOD_AND_SHOT)  # holding spends no Stand and Shoot
    assert g.state.unit("hero").joined is None and g.state.unit("hero").has(Status.CHARGED)
    reloads(g)


@pytest.mark.rule(REACTIONS, STAND_AND_SHOOT)
def test_a_unit_that_held_against_one_charge_may_stand_and_shoot_at_the_next_that_turn() -> None:
    data = scenario(joined=False, hero_at=(41, 18), phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    g = reloading_game(data)
    g.apply({**UNIT_CHARGE, "reaction": "hold"}, ScriptedDice([1, 1]))  # the orcs hold; the charge fails
    assert not g.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    shoot = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}
    # round 50 (published.t9a-charge): his base lies right of the orcs' end, so his Charge Move wheels 13 degrees left
    # (9.61" up the table it must come 2.15" left: atan 0.224 = 12.6) and is still legal; the Stand and Shoot is ruled
    # where he stood, unchanged
    assert g.check(shoot).legal and "wheeling 13 degrees" in g.check(shoot).reason
    events = g.apply(shoot, ScriptedDice([1] * 5 + [1, 1]))
    assert _shots(events) == 5 and g.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    # once per player turn: a third charge that turn cannot be met by Stand and Shoot, but by Hold
    mage = reloading_game(data)
    mage.apply({**UNIT_CHARGE, "reaction": "stand_and_shoot"}, ScriptedDice([1] * 5 + [1, 1]))
    refused(mage, {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "stand_and_shoot"}, REACTIONS)
    assert mage.check({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"}).legal


@pytest.mark.rule(REACTIONS, STAND_AND_SHOOT, "t9a.charge-out.own-rate")
def test_stand_and_shoot_chosen_where_the_rule_forbids_it_is_refused_and_hold_is_not() -> None:
    g = reloading_game(_archers(enemy_y=24))  # 4" apart: within the Hero's own Advance Rate of 5"
    refused(g, {**CHARGE_OUT, "reaction": "stand_and_shoot"}, STAND_AND_SHOOT)
    ruling = g.check({**CHARGE_OUT, "reaction": "stand_and_shoot"})
    assert REACTIONS in ruling.rules and "not farther than its Advance Rate (5\")" in ruling.reason
    assert g.check({**CHARGE_OUT, "reaction": "hold"}).legal
    # archers whose rules do not list Stand and Shoot Hold unasked, and may Stand and Shoot when their player names
    # it (session 24: the published reaction is any shooting unit's; before, it was refused to them)
    plain = reloading_game(scenario(joined=True, phase="charge", enemy_y=28))
    ruling = plain.check({**CHARGE_OUT, "reaction": "stand_and_shoot"})
    assert ruling.legal and STAND_AND_SHOOT in ruling.rules, ruling.reason
    plain.apply({**CHARGE_OUT, "reaction": "stand_and_shoot"}, ScriptedDice([1] * 20))
    assert plain.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    unasked = reloading_game(scenario(joined=True, phase="charge", enemy_y=28))
    unasked.apply(CHARGE_OUT, ScriptedDice([1] * 20))
    assert not unasked.state.unit("orcs").has(Status.STOOD_AND_SHOT)  # it Held


@pytest.mark.rule(REACTIONS, STAND_AND_SHOOT)
def test_a_named_stand_and_shoot_plays_as_the_default_reaction_does() -> None:
    dice = [6] * 5 + [6] * 5 + [1] * 5 + [1, 1]  # five hits, five wounds, nothing saved: the Hero is slain; then
    # the Spearmen's Panic test for him, a unit destroyed beside them (published.t9a-panic, round 29b)
    default, named = reloading_game(_archers()), reloading_game(_archers())
    a = default.apply(CHARGE_OUT, ScriptedDice(dice))
    b = named.apply({**CHARGE_OUT, "reaction": "stand_and_shoot"}, ScriptedDice(dice))
    assert default.state == named.state
    assert [e.message for e in a] == [e.message for e in b] and dict(_charge(b).data)["outcome"] == "slain"
    assert REACTIONS in _charge(b).rules and REACTIONS not in _charge(a).rules


@pytest.mark.rule(REACTIONS)
def test_legal_actions_offer_the_hold_beside_the_default_only_where_stand_and_shoot_may_be_taken() -> None:
    def charges(g: Game) -> set[tuple[str, str | None]]:
        return {(a.unit, a.reaction) for a in g.legal_actions() if a.do == "charge"}  # type: ignore[union-attr]

    flee = {("spears", "flee"), ("hero", "flee")}  # offered wherever the charged unit may Flee (published.t9a-flee-reaction)
    assert charges(reloading_game(_archers())) == {("spears", None), ("spears", "hold"), ("hero", None), ("hero", "hold")} | flee
    assert charges(reloading_game(_archers(enemy_y=24))) == {("spears", None), ("hero", None)} | flee  # within Advance Rate
    # archers without the rule Hold unasked; their Stand and Shoot named is legal (session 24) but not listed: the
    # volley it needs would double legal_actions' time on t9a_whole_turn (issue 11's 1 ms)
    assert charges(reloading_game(scenario(joined=True, phase="charge", enemy_y=28))) == {("spears", None), ("hero", None)} | flee


# -- a Wizard in a unit casts from his own model ------------------------------------------------------
def _wide_unit_with_a_wizard(orcs_x: float, conclave: bool = False) -> dict[str, Any]:
    """Ten Spearmen in one rank of ten files with a Wizard Adept hero in the middle; orcs ahead and to the right."""
    from test_t9a_magic import CONCLAVE, magic_scenario

    data = magic_scenario(roles={0: "champion"} if conclave else {}, rules=[CONCLAVE] if conclave else [],
                          spells=["Fireball", "Flame Cage"] if conclave else [])
    spears = data["sides"]["elves"][0]
    spears["formation"]["files"] = 10
    if not conclave:
        del spears["spells"]
    hero = next(u for u in data["sides"]["elves"] if u["id"] == "hero")
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball"]
    data["sides"]["orcs"][0]["formation"]["position"] = [orcs_x, 34]
    return data


@pytest.mark.rule("published.t9a-magic", "t9a.join.part-of-unit")
def test_a_wizard_in_a_unit_measures_a_spells_range_from_his_own_model_not_from_the_unit() -> None:
    cast = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    near = reloading_game(_wide_unit_with_a_wizard(47))  # the Hero about 17" from the orcs: in range
    ruling = near.check(cast)
    assert ruling.legal and "published.t9a-magic" in ruling.rules
    far = reloading_game(_wide_unit_with_a_wizard(50))  # the Hero 18.14" away; the unit's right flank 15.93"
    refused(far, cast, "published.t9a-magic")
    ruling = far.check(cast)
    assert "18.14\" from hero" in ruling.reason and "t9a.join.part-of-unit" in ruling.rules


@pytest.mark.rule("t9a.spell.wizard-conclave", "published.t9a-magic")
def test_a_wizard_conclave_casts_from_its_champion_and_not_at_all_once_he_is_slain() -> None:
    from herohammer.geometry import group_distance

    cast = {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2}
    g = reloading_game(_wide_unit_with_a_wizard(49, conclave=True))
    s = g.state
    orcs = [m.placed for m in s.unit("orcs").models]
    champion = [m.placed for m in s.unit("spears").models if m.role == "champion"]
    assert group_distance(champion, orcs) > 18 >= group_distance([m.placed for m in s.unit("spears").models], orcs)
    refused(g, cast, "t9a.spell.wizard-conclave")
    assert "champion, its Master Wizard" in g.check(cast).reason
    # the Hero, a Wizard of his own in the same unit, still casts (from himself, 18" or less away)
    hero = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    assert g.check(hero).legal


# -- a character in a unit shoots only at what he sees himself ----------------------------------------
WHO_CAN_SHOOT = "published.t9a-who-can-shoot"


def _spears_shoot(wall: bool) -> Game:
    """Spearmen with bows and their Hero (a bow too, in the middle of the first rank) shoot the orcs 14" ahead;
    a wall stands just in front of the Hero."""
    from _t9a import scenario as shooting

    data = shooting(phase="shooting", active="elves", hero_weapons=["bow"], enemy_y=34)
    for m in data["sides"]["elves"][0]["models"]:
        m["weapons"] = ["bow"]
    if wall:
        data["terrain"] = [{"id": "wall", "kind": "blocking", "polygon": [[35, 20.5], [37, 20.5], [37, 21.5], [35, 21.5]]}]
    return reloading_game(data)


@pytest.mark.rule(WHO_CAN_SHOOT, "t9a.join.part-of-unit", "published.line-of-sight")
def test_a_character_in_a_shooting_unit_who_cannot_see_the_target_does_not_shoot() -> None:
    shoot = {"do": "shoot", "unit": "spears", "target": "orcs"}
    clear = _spears_shoot(wall=False).check(shoot)
    assert clear.legal and "10 shots" in clear.reason  # the first two ranks, the Hero among them
    g = _spears_shoot(wall=True)
    ruling = g.check(shoot)  # the unit sees the orcs; the Hero and the spearman behind him do not
    assert ruling.legal and "8 shots" in ruling.reason and WHO_CAN_SHOOT in ruling.rules
    assert any("s2, Hero do not see orcs" in n for n in ruling.notes)
    events = g.apply(shoot, ScriptedDice([1] * 8))  # eight to-hit dice, all missing
    assert sum(len(r.faces) for r in events[0].rolls) == 8 and WHO_CAN_SHOOT in events[0].rules


def _boss_behind_a_wall(wall: bool) -> Game:
    """A lone Hero charges orc archers with Stand and Shoot and a Boss with a bow in their first rank; a wall
    stands just in front of the Boss."""
    from test_t9a_rules import HERO

    data = scenario(joined=False, hero_at=(39.5, 19), phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "joined": "orcs",
                                  "models": [{"name": "Boss", "profile": HERO, "base": [25, 25], "weapons": ["bow"]}]})
    if wall:
        data["terrain"] = [{"id": "wall", "kind": "blocking",
                            "polygon": [[35.45, 27.2], [37, 27.2], [37, 27.95], [35.45, 27.95]]}]
    return reloading_game(data)


@pytest.mark.rule(WHO_CAN_SHOOT, STAND_AND_SHOOT, "t9a.join.part-of-unit")
def test_a_character_in_a_unit_that_stands_and_shoots_shoots_only_if_he_sees_the_charger() -> None:
    seen = _boss_behind_a_wall(wall=False)
    events = seen.apply(CHARGE_OUT, ScriptedDice([1] * 6 + [6, 6]))
    assert _shots(events) == 6  # five archers and the Boss
    g = _boss_behind_a_wall(wall=True)
    # round 50 (published.t9a-charge): the Hero's base (x 39.11 to 39.89) lies right of the orcs' end (38.46): his
    # Charge Move wheels 5 degrees left (8.61" up it must come 0.65" left: atan 0.075 = 4.3); who sees him is read
    # where he stood as he declared, so the Boss's sight is unchanged
    assert g.check(CHARGE_OUT).legal and "wheeling 5 degrees" in g.check(CHARGE_OUT).reason
    events = g.apply(CHARGE_OUT, ScriptedDice([1] * 5 + [6, 6]))
    ev = _charge(events)
    assert _shots(events) == 5 and dict(ev.data)["outcome"] == "charged"
    assert "Boss does not see hero and cannot shoot" in ev.message and WHO_CAN_SHOOT in ev.rules


# -- the last survivor's name, read once for every rule -------------------------------------------------
@pytest.mark.rule("t9a.combined.last-survivor", "t9a.join.character-units")
def test_a_character_joins_the_last_survivor_by_the_destroyed_units_name() -> None:
    from test_judge_t9a import _archers_turn
    from test_t9a_rules import HERO

    mage = {"id": "mage", "character": "independent",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [31, 17]}]}
    g = reloading_game(_archers_turn(2, extra=[mage]))
    # both spearmen fall to the orcs' bows; the Hero alone is left, and is the Spearmen
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
            ScriptedDice([6] * 5 + [6, 6, 1, 1, 1] + [1, 1] + [3, 3]))
    assert g.state.unit("hero").last_of == "spears"
    play_to(g, "movement", "elves")
    join = {"do": "join", "character": "mage", "unit": "spears", "rank_choice": "widen"}
    ruling = g.check(join)
    assert ruling.legal and "mage joins hero" in ruling.reason and "t9a.combined.last-survivor" in ruling.rules
    g.apply(join)
    assert g.state.unit("mage").joined == "hero"
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "t9a.join.unit-stops")  # the same unit, halted
    reloads(g)


@pytest.mark.rule("t9a.combined.last-survivor", "t9a.join.character-units")
def test_when_the_last_survivor_falls_the_character_who_joined_him_is_still_the_destroyed_unit() -> None:
    from herohammer.rulesets.t9a_units import is_destroyed
    from test_judge_t9a import _archers_turn
    from test_t9a_rules import HERO

    mage = {"id": "mage", "character": "independent",
            "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [31, 17]}]}
    g = reloading_game(_archers_turn(2, extra=[mage]))
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
            ScriptedDice([6] * 5 + [6, 6, 1, 1] + [1, 1] + [1] + [3, 3]))  # the Hero is all that is left of them
    play_to(g, "movement", "elves")
    g.apply({"do": "join", "character": "mage", "unit": "spears", "rank_choice": "widen"})
    play_to(g, "shooting", "orcs")
    # no rank and file: the orcs share 5 hits between the Hero (3, named) and the Mage (2); 3 wounds slay the Hero
    events = g.apply({"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"},
                     ScriptedDice([6] * 5 + [6] * 3 + [1] * 3 + [1, 1] + [1, 1]))
    assert not g.state.unit("hero").alive
    panic = events[-1]
    assert panic.kind == "panic" and "mage passes its Panic test" in panic.message  # the Mage tests, alone
    assert "t9a.combined.last-survivor" in panic.rules
    assert g.state.unit("mage").last_of == "spears" and not is_destroyed(g.state, "spears")
    reloads(g)
    play_to(g, "movement", "elves")
    ruling = g.check({"do": "move", "unit": "spears", "to": [[36, 18]]})  # the Spearmen are the Mage now
    assert ruling.legal and "mage moves" in ruling.reason and "t9a.combined.last-survivor" in ruling.rules
    play_to(g, "shooting", "orcs")
    g.apply({"do": "shoot", "unit": "orcs", "target": "spears"}, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5))
    assert not g.state.unit("mage").alive and is_destroyed(g.state, "spears")


# -- the Front Arc screen that listing the Hold asks ---------------------------------------------------
def test_located_in_the_front_arc_agrees_with_shapely_on_and_around_the_arcs_outline() -> None:
    """``located_in_front_arc`` settles a point by the arc's sides and asks shapely only on the outline:
    the same answer as shapely's ``covers`` everywhere, the outline's corners and midpoints included."""
    import itertools
    from dataclasses import replace

    import shapely

    from herohammer.rulesets.t9a_units import front_centre, formation_of
    from herohammer.rulesets.t9a_moves import front_arcs, located_in_front_arc

    g = reloading_game(scenario(phase="charge", enemy_y=28))
    orcs = g.state.unit("orcs")
    arcs = front_arcs(orcs)[0]
    spots = [p for arc in arcs for p in arc]
    spots += [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for arc in arcs for a, b in zip(arc, arc[1:] + arc[:1])]
    spots += [(x, y) for x, y in itertools.product([10.5, 22.0, 33.25, 36.0, 38.75, 50.0, 61.5], [1.0, 14.0, 27.9, 28.0,
                                                                                                 30.0])]
    hero = g.state.unit("hero")
    checked = 0
    for x, y in spots:
        charger = replace(hero, models=(hero.models[0].moved_to((x, y)),))
        f = formation_of(charger)
        at = f.position if f is not None else front_centre(charger)  # the front centre: put it on the spot itself
        charger = replace(hero, models=(hero.models[0].moved_to((2 * x - at[0], 2 * y - at[1])),))
        f = formation_of(charger)
        at = f.position if f is not None else front_centre(charger)
        expected = any(shapely.Polygon(arc).covers(shapely.Point(at)) for arc in arcs)
        assert located_in_front_arc(charger, orcs) is expected, (x, y)
        checked += 1
    assert checked == len(spots) > 20


# -- sequences that the engine already rules as the texts say (kept as judge's cases) -------------------
@pytest.mark.rule("t9a.leave.when", "t9a.charge-out.declare", "published.t9a-rally")
def test_a_character_in_a_fleeing_unit_neither_charges_out_nor_leaves_and_after_it_rallies_stays_that_turn() -> None:
    from _t9a import scenario as plain

    g = reloading_game(plain(phase="charge", active="elves", spear_status=["fleeing"], hero_status=["fleeing"]))
    refused(g, CHARGE_OUT, "t9a.charge-out.declare")  # fleeing: he cannot charge out of it
    assert "fleeing" in g.check(CHARGE_OUT).reason
    g.apply({"do": "rally", "unit": "spears"}, ScriptedDice([4, 5]))  # 9 against the Hero's Ld 9: rallies
    refused(g, CHARGE_OUT, "t9a.charge-out.declare")  # a unit that rallied counts as having marched
    play_to(g, "movement", "elves")
    leave = {"do": "leave", "character": "hero", "to": [36, 14]}
    refused(g, leave, "t9a.leave.when")  # he moved (marched) with it this turn: he may not move again to leave
    assert "it rallied this turn" in g.check(leave).reason  # round 21: said and cited as the Rally rule


@pytest.mark.rule("published.t9a-break-test", "t9a.join.part-of-unit")
def test_a_unit_whose_character_fell_in_the_combat_takes_its_break_test_on_its_own_leadership() -> None:
    from herohammer.dice import SeededDice
    from test_t9a_melee import melee

    # one orc, WS9 S9 AP6 A4 (no armour save against it), strikes first and picks out the Hero (Ld 9) in base
    # contact with it: slain
    g = melee(boss=False, active="orcs", orcs=1, orc_profile="WS9 BS3 S9 T4 W1 I7 A4 Ld7 Sv6+ Adv4 Mar8 AP6")
    events = g.apply({"do": "fight", "unit": "orcs", "at": "hero"}, SeededDice(0))
    assert not g.state.unit("hero").alive and g.state.unit("hero").joined is None
    test = next(e for e in events if "Break test" in e.message)
    assert "Ld 8 (s0)" in test.message and "Hero" not in test.message.split("Break test")[1]
    f = g.state.unit("spears").formation
    assert f is not None and "Hero" not in f.order and len(f.front_rank()) == 5  # the gap is filled
    reloads(g)


@pytest.mark.rule(STAND_AND_SHOOT, "t9a.join.part-of-unit", "t9a.combined.last-survivor")
def test_stand_and_shoot_at_a_charging_unit_of_five_or_more_never_reaches_its_character() -> None:
    from test_t9a_rules import ORC

    def charging(n: int) -> Game:
        data = scenario(n=n, files=5, joined=True, phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
        data["sides"]["orcs"][0]["models"] = [{"name": f"o{i}", "profile": ORC, "base": [25, 25],
                                                "weapons": ["bow S3"]} for i in range(10)]
        return reloading_game(data)

    # ten archers in two ranks: ten hits, ten wounds, no save; then the Panic test (1, 1) and the charge (6, 6)
    dice = [6] * 10 + [6] * 10 + [1] * 10 + [1, 1] + [6, 6]
    g = charging(5)
    events = g.apply(UNIT_CHARGE, ScriptedDice(dice))
    hero = g.state.unit("hero")
    assert hero.alive and hero.models[0].wounds_taken == 0  # five rank and file: the wounds beyond them are lost
    assert hero.last_of == "spears" and dict(_charge(events).data)["outcome"] == "charged"
    assert any(e.kind == "panic" and "hero passes" in e.message for e in events)  # he tests alone, as the unit
    few = charging(4)  # four rank and file: the ten hits are shared as equally as possible, two on the Hero
    events = few.apply(UNIT_CHARGE, ScriptedDice([6] * 10 + [6] * 8 + [1] * 8 + [6, 6] + [1, 1] + [1, 1] + [6, 6]))
    hero = few.state.unit("hero")
    assert hero.alive and hero.models[0].wounds_taken == 2 and hero.last_of == "spears"
    assert "published.t9a-distributing-hits" in _charge(events).rules
    assert dict(_charge(events).data)["outcome"] == "charged"
