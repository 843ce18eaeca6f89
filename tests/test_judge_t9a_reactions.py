"""A judge's cases for The 9th Age's charge reactions and the last survivor's name, played through the front door.

Stand and Shoot (seed 002 names it under the charge out, t9a.charge-out.stand-and-shoot; the published
rule says when it may be taken and who shoots, published.t9a-stand-and-shoot): the charged unit's joined
characters shoot with it; no reaction when the charger starts within its own Advance Rate, stands
outside the charged unit's Front Arc, or the unit stood and shot already this player turn; a charger
beyond half a weapon's range (even beyond its range) is at Long Range.
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.rulings import Event
from herohammer.units import Status
from test_t9a_rules import HERO, scenario
from _t9a import reloading_game, reloads

STAND_AND_SHOOT = "published.t9a-stand-and-shoot"
CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs"}
UNIT_CHARGE = {"do": "charge", "unit": "spears", "target": "orcs"}




def _archers(enemy_y: float = 28, weapon: str = "bow S3", **kw: Any) -> dict[str, Any]:
    """The Hero in the Spearmen (front at y 20, facing up); five orc archers with Stand and Shoot facing them."""
    data = scenario(joined=True, phase="charge", enemy_y=enemy_y, enemy_rules=["Stand and Shoot"], **kw)
    for m in data["sides"]["orcs"][0]["models"]:
        m["weapons"] = [weapon] if weapon else []  # "": no weapon (a close combat weapon is refused at load)
    return data


def _shots(events: list[Event]) -> int:
    """Count the Stand and Shoot to-hit dice of a charge."""
    return sum(len(r.faces) for e in events for r in e.rolls if r.purpose.startswith("Stand and Shoot: to hit"))


def _charge(events: list[Event]) -> Event:
    return next(e for e in events if e.kind == "charge")


# -- who shoots -------------------------------------------------------------------------------------
@pytest.mark.rule("published.t9a-stand-and-shoot", "t9a.join.part-of-unit", "t9a.charge-out.stand-and-shoot")
def test_a_character_joined_to_the_charged_unit_stands_and_shoots_with_it() -> None:
    data = _archers()
    data["sides"]["orcs"].append({"id": "boss", "character": "independent", "joined": "orcs",
                                  "models": [{"name": "Boss", "profile": HERO, "base": [25, 25], "weapons": ["bow"]}]})
    g = reloading_game(data)
    # five archers BS3 (-1: 5+) and the Boss BS6 (-1: 2+) shoot: six to-hit dice, all missing; then 6, 6 to charge
    events = g.apply(CHARGE_OUT, ScriptedDice([1] * 6 + [6, 6]))
    ev = _charge(events)
    assert _shots(events) == 6
    assert STAND_AND_SHOOT in ev.rules and "t9a.charge-out.stand-and-shoot" in ev.rules
    assert "orcs stood and shot (6 shots)" in ev.message
    assert dict(ev.data)["outcome"] == "charged"
    assert g.state.unit("orcs").has(Status.STOOD_AND_SHOT) and g.state.unit("boss").has(Status.STOOD_AND_SHOT)
    reloads(g)  # a saved game remembers it


@pytest.mark.rule("published.t9a-stand-and-shoot")
def test_a_model_without_a_missile_weapon_does_not_stand_and_shoot() -> None:
    data = _archers(weapon="")
    g = reloading_game(data)
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))  # only the charge dice: nobody shoots
    assert _shots(events) == 0 and dict(_charge(events).data)["outcome"] == "charged"
    assert "no model has a missile weapon" in _charge(events).message


# -- when it may be taken -----------------------------------------------------------------------------
@pytest.mark.rule("published.t9a-stand-and-shoot", "t9a.charge-out.own-rate")
def test_no_stand_and_shoot_when_the_charger_starts_within_its_own_advance_rate() -> None:
    # the Hero's Advance Rate is 5": the archers' front 4" from the Spearmen's is within it
    g = reloading_game(_archers(enemy_y=24))
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    ev = _charge(events)
    assert _shots(events) == 0 and dict(ev.data)["outcome"] == "charged"
    assert STAND_AND_SHOOT in ev.rules and "not farther than its Advance Rate (5\")" in ev.message
    assert not g.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    # 6" away is farther than 5": they shoot (five dice, all missing)
    g2 = reloading_game(_archers(enemy_y=26))
    events = g2.apply(CHARGE_OUT, ScriptedDice([1] * 5 + [6, 6]))
    assert _shots(events) == 5 and dict(_charge(events).data)["outcome"] == "charged"


@pytest.mark.rule("published.t9a-stand-and-shoot")
def test_a_unit_charging_is_measured_by_its_slowest_model() -> None:
    slow = "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv3 Mar6"
    data = _archers(enemy_y=24)  # 4" apart: within the Spearmen's 5", beyond a 3" Advance Rate
    g = reloading_game(data)
    events = g.apply(UNIT_CHARGE, ScriptedDice([6, 6]))
    assert _shots(events) == 0 and "Advance Rate (5\")" in _charge(events).message
    for m in data["sides"]["elves"][0]["models"]:
        m["profile"] = slow
    g2 = reloading_game(data)
    events = g2.apply(UNIT_CHARGE, ScriptedDice([1] * 5 + [6, 6]))
    assert _shots(events) == 5 and dict(_charge(events).data)["outcome"] == "charged"


@pytest.mark.rule("published.t9a-stand-and-shoot")
def test_no_stand_and_shoot_at_a_charger_outside_the_charged_units_front_arc() -> None:
    data = _archers()
    data["sides"]["orcs"][0]["formation"]["facing"] = 0  # the archers turn their backs on the Spearmen
    g = reloading_game(data)
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    ev = _charge(events)
    assert _shots(events) == 0 and dict(ev.data)["outcome"] == "charged"
    assert "hero is not in its Front Arc" in ev.message and STAND_AND_SHOOT in ev.rules


@pytest.mark.rule("published.t9a-stand-and-shoot")
def test_stand_and_shoot_only_once_per_player_turn_and_again_the_next() -> None:
    data = scenario(joined=False, hero_at=(41, 18), phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    g = reloading_game(data)
    events = g.apply(UNIT_CHARGE, ScriptedDice([1] * 5 + [1, 1]))  # they shoot and miss; the charge fails
    assert _shots(events) == 5
    assert g.state.unit("orcs").has(Status.STOOD_AND_SHOT)
    # round 50 (published.t9a-charge): his base (x 40.61 to 41.39) lies right of the orcs' end (38.46), so straight
    # forward he would pass them: his Charge Move wheels left about his left front corner, 13 degrees (9.61" up the
    # table it must come 2.15" left: atan 0.224 = 12.6), and his Failed Charge Move follows that wheel; the Stand and
    # Shoot, ruled where he stood, is unchanged
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1, 1]))
    ev = _charge(events)
    assert _shots(events) == 0 and "stood and shot already this player turn" in ev.message
    g.apply({"do": "end_phase"})
    while g.state.active == "elves":
        g.apply({"do": "end_phase"})
    assert not g.state.unit("orcs").has(Status.STOOD_AND_SHOT)  # the player turn is over


@pytest.mark.rule("published.t9a-stand-and-shoot")
def test_an_engaged_unit_does_not_stand_and_shoot() -> None:
    data = _archers()
    data["sides"]["orcs"][0]["status"] = ["engaged"]
    g = reloading_game(data)
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    assert _shots(events) == 0 and "engaged, fleeing or Shaken" in _charge(events).message


# -- at what range --------------------------------------------------------------------------------------
@pytest.mark.rule("published.t9a-stand-and-shoot", "published.t9a-to-hit-shooting")
def test_a_charger_beyond_half_range_or_beyond_the_range_is_shot_at_long_range() -> None:
    # BS3, -1 Stand and Shoot: 5+; at Long Range 6+.  Five 5s hit at 8" with bows (24") ...
    g = reloading_game(_archers())
    # (then the Spearmen's Panic test for the Hero, a unit destroyed: published.t9a-panic, round 29b)
    events = g.apply(CHARGE_OUT, ScriptedDice([5] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert dict(_charge(events).data)["outcome"] == "slain"
    # ... and miss with javelins (12"): 8" is beyond half their range
    g = reloading_game(_archers(weapon="javelin"))
    events = g.apply(CHARGE_OUT, ScriptedDice([5] * 5 + [6, 6]))
    assert dict(_charge(events).data)["outcome"] == "charged" and "5 at Long Range" in _charge(events).message
    # throwing weapons (8") still shoot at a charger 10" away, beyond their range, at Long Range
    g = reloading_game(_archers(enemy_y=30, weapon="throwing weapons"))
    events = g.apply(CHARGE_OUT, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))
    assert _shots(events) == 5 and dict(_charge(events).data)["outcome"] == "slain"


# -- the last survivor's name ------------------------------------------------------------------------------
def _survivor(mage_joined: bool = False) -> dict[str, Any]:
    """A saved game: the Spearmen destroyed but for the Hero (last_of), the Guards beside him, in the Movement phase."""
    data = scenario(n=2, files=2, joined=True, phase="movement", enemy_y=44)
    spears = data["sides"]["elves"][0]
    spears.update(models=[], destroyed=True)
    del spears["formation"]
    hero = data["sides"]["elves"][1]
    hero.update(joined=None, last_of="spears")
    hero["models"][0]["at"] = [36, 20]
    guards = {"id": "guards", "formation": {"position": [30, 20], "files": 3},
              "models": [{"name": f"g{i}", "profile": HERO.replace("W3", "W1"), "base": [20, 20]} for i in range(6)]}
    data["sides"]["elves"].append(guards)
    if mage_joined:
        data["sides"]["elves"].append({"id": "mage", "character": "independent", "joined": "hero",
                                       "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]})
        hero["formation"] = {"position": [36, 20.5], "files": 2}
        del hero["models"][0]["at"]
    return data


@pytest.mark.rule("t9a.combined.last-survivor", "t9a.join.part-of-unit")
def test_a_last_survivor_who_joins_another_unit_is_the_destroyed_unit_no_more() -> None:
    g = reloading_game(_survivor())
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal  # the Spearmen are the Hero now
    join = {"do": "join", "character": "hero", "unit": "guards"}
    ruling = g.check(join)
    assert ruling.legal and "t9a.combined.last-survivor" in ruling.rules
    assert any("spears is gone from the table" in n for n in ruling.notes)
    events = g.apply(join)
    assert "t9a.combined.last-survivor" in events[-1].rules and "it is spears no more" in events[-1].message
    hero = g.state.unit("hero")
    assert hero.joined == "guards" and hero.last_of is None
    reloads(g)
    # the destroyed unit's name names nothing: not the Hero inside the Guards
    before = g.state
    ruling = g.check({"do": "move", "unit": "spears", "to": [[36, 22]]})
    assert not ruling.legal and "hero" not in ruling.reason
    assert g.state is before
    # the Hero is the Guards' now: he leaves them as himself, not as the Spearmen
    g.apply({"do": "end_phase"})
    while not (g.state.active == "elves" and g.state.phase.value == "movement"):
        g.apply({"do": "end_phase"})
    events = g.apply({"do": "leave", "character": "hero", "to": [30, 23]})
    assert g.state.unit("hero").joined is None and g.state.unit("hero").last_of is None
    assert not g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal


@pytest.mark.rule("t9a.combined.last-survivor", "t9a.join.character-units")
def test_the_unit_of_characters_left_of_a_destroyed_unit_keeps_its_name_when_its_leader_leaves() -> None:
    g = reloading_game(_survivor(mage_joined=True))
    assert g.state.joined_to("hero")[0].id == "mage"
    events = g.apply({"do": "leave", "character": "hero", "to": [36, 25]})
    hero, mage = g.state.unit("hero"), g.state.unit("mage")
    assert hero.joined is None and hero.last_of is None  # he left the Spearmen: a lone character
    assert mage.joined is None and mage.last_of == "spears"  # what is left of the Spearmen is the Mage
    reloads(g)
    ruling = g.check({"do": "move", "unit": "spears", "to": [[36, 22]]})
    assert ruling.legal and "mage" in ruling.reason
    assert g.check({"do": "move", "unit": "hero", "to": [[36, 26]]}).legal is False  # he moved leaving


# -- leaving in the Charge phase ---------------------------------------------------------------------------
@pytest.mark.rule("t9a.leave.when", "t9a.charge-out.declare")
def test_in_the_charge_phase_a_character_leaves_its_unit_only_by_charging_out() -> None:
    g = reloading_game(scenario(joined=True, phase="charge", enemy_y=30))
    leave = {"do": "leave", "character": "hero", "to": [36, 24]}
    before = g.state
    ruling = g.check(leave)
    assert not ruling.legal and {"t9a.leave.when", "t9a.charge-out.declare"} <= set(ruling.rules)
    assert "only by charging out" in ruling.reason
    assert g.state is before
    assert not any(a.do == "leave" for a in g.legal_actions())
    assert any(a.do == "charge" and getattr(a, "unit", None) == "hero" for a in g.legal_actions())
    events = g.apply(CHARGE_OUT, ScriptedDice([6, 6]))  # the way out in this phase: a charge
    assert dict(_charge(events).data)["outcome"] == "charged" and g.state.unit("hero").joined is None
    # in the Movement phase the same move out is a leave
    g2 = reloading_game(scenario(joined=True, phase="charge", enemy_y=40))
    g2.apply({"do": "end_phase"})
    assert g2.state.phase.value == "movement"
    assert g2.check(leave).legal
    g2.apply(leave)
    assert g2.state.unit("hero").joined is None


# -- a character slain charging out ---------------------------------------------------------------------------
@pytest.mark.rule("published.t9a-panic", "t9a.charge-out.stand-and-shoot", "t9a.charge-out.declare")
def test_a_character_slain_by_stand_and_shoot_charging_out_panics_his_friends() -> None:
    """Stand and Shoot slays the Hero charging out of the Spearmen, with the Guards 4" beside them. The 2022 text
    (Charging out of a Unit: "As soon as the Character declares a Charge, it is considered a separate unit") makes
    him a unit of his own once he declared it, so his death is a friendly unit destroyed: the Spearmen (0" away) and
    the Guards within 6" of where he stood take a Panic test (round 29b; session 26 had read him as still part of the
    Spearmen, and nobody tested). A lone Hero shot dead beside the Guards is a unit destroyed as well."""
    guards = {"id": "guards", "formation": {"position": [44, 20], "files": 2},
              "models": [{"name": f"g{i}", "profile": HERO.replace("W2", "W1"), "base": [20, 20]} for i in range(2)]}
    slay = [5] * 5 + [6] * 5 + [1] * 5  # five hits, five wounds, five failed saves
    g = reloading_game(_archers(extra=[guards]))
    events = g.apply(CHARGE_OUT, ScriptedDice(slay + [1, 1]))  # the Spearmen's Panic test (the Guards are 6.8" off)
    assert dict(_charge(events).data)["outcome"] == "slain"
    panics = [e for e in events if e.kind == "panic"]
    assert [e.message.split(" ")[0] for e in panics] == ["spears"], panics
    assert "t9a.charge-out.declare" in panics[0].rules
    alone = _archers(extra=[guards])
    alone["sides"]["elves"][1].pop("joined")
    alone["sides"]["elves"][1]["models"][0]["at"] = [41, 21.5]  # beside both units, 6" from the archers
    g = reloading_game(alone)
    events = g.apply(CHARGE_OUT, ScriptedDice(slay + [1] * 4))  # then two Panic tests of 2D6, passed on 1s
    assert dict(_charge(events).data)["outcome"] == "slain"
    assert [e.message.split(" ")[0] for e in events if e.kind == "panic"] == ["spears", "guards"]
