"""A judge's cases for 40k 3rd and 4th edition, fifteenth round: the wounds lost beyond the weapons' reach said in the
events and in ``odds action``; each weapon's wounds only on the models within its own range and line of fire.

Each case plays actions through ``Game`` (or the CLI) and asserts what the texts say (4th ed., Removing casualties:
the owning player removes models "providing they are within the line of fire and range of the attacker's
weaponry"; "each [wounding hit] will affect a different model"), with the case the rule forbids beside the one it
allows.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.units import Status

from _w40k import game, model, scenario

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
SHOOT_HB = {"do": "shoot", "unit": "hb", "target": "boyz"}
SHOOT_GUNS = {"do": "shoot", "unit": "guns", "target": "boyz"}


def lost_events(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "beyond_reach"]


# == 1. the wounds lost beyond the models in reach are said ========================================================
def strung_out(ruleset: str, far_y: float) -> dict[str, Any]:
    """A heavy bolter (36") at (16, 2); Boy 1 ~33" away, Boyz 2 and 3 at ``far_y`` (42: beyond 36"; 36: within)."""
    boyz = {"id": "boyz", "models": [model("Boy 1", 16, 36, 7, BOY), model("Boy 2", 18, far_y, 7, BOY),
                                     model("Boy 3", 20, far_y, 7, BOY)]}
    gunner = {"id": "hb", "models": [{**model("Gunner", 16, 2), "weapons": ["heavy bolter"]}]}
    return scenario(ruleset, [gunner], [boyz], phase="shooting")


@pytest.mark.rule("published.wound-allocation")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_wounds_past_the_models_in_range_are_said_lost_with_the_rule(ruleset: str) -> None:
    """Three unsaved wounds, only Boy 1 within 36": he falls and the event says two wounds are lost, naming the Boyz
    beyond range and the rule. With all three in range all three fall and nothing is said lost."""
    g = game(strung_out(ruleset, 42))
    events = g.apply(SHOOT_HB, dice=ScriptedDice([6] * 6 + [1, 1] * 4))
    (lost,) = lost_events(events)
    assert lost.message.startswith("2 wounds on boyz lost: Boy 2, Boy 3 stand beyond the range or line of fire")
    assert lost.rules == ("published.wound-allocation",) and dict(lost.data) == {"unit": "boyz", "lost": 2}
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2", "Boy 3"]
    # the events come in the order a player reads them: the saves, the slain, then the wounds lost
    kinds = [e.kind for e in events]
    assert kinds.index("saves") < kinds.index("casualties") < kinds.index("beyond_reach")
    g = game(strung_out(ruleset, 36))
    events = g.apply(SHOOT_HB, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("boyz").alive and not lost_events(events)


@pytest.mark.rule("published.wound-allocation")
def test_one_wound_in_range_loses_nothing_and_says_nothing() -> None:
    """One wound on Boy 1 (the only Boy in range): nothing is lost, so no event says so."""
    g = game(strung_out("40k4", 42))
    events = g.apply(SHOOT_HB, dice=ScriptedDice([6, 1, 1, 6]))
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2", "Boy 3"] and not lost_events(events)


@pytest.mark.rule("published.wound-allocation")
def test_odds_action_gives_the_chance_of_wounds_lost_beyond_reach(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`odds action` has a row for the wounds lost: two or more of the three shots slay (each 4/9, no save)."""
    from herohammer.cli import main
    path = tmp_path / "boyz.json"
    path.write_text(json.dumps(strung_out("40k4", 42)))
    assert main(["odds", "action", str(path), "--action", json.dumps(SHOOT_HB), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    rows = json.dumps(answer)
    p = Fraction(4, 9)
    expected = 3 * p * p * (1 - p) + p ** 3
    assert "boyz: wounds lost beyond the weapons' reach" in rows and str(expected) in rows
    path.write_text(json.dumps(strung_out("40k4", 36)))
    assert main(["odds", "action", str(path), "--action", json.dumps(SHOOT_HB)]) == 0
    assert "wounds lost beyond" not in capsys.readouterr().out


# == 2. each weapon's wounds only on the models within its own range ============================================
def las_and_bolters(ruleset: str = "40k4", far_y: float = 40) -> dict[str, Any]:
    """A lascannon (48") and two bolters (24", one shot each beyond 12") at y = 2; Boy 1 18" away, Boyz 2 and 3
    at ``far_y`` (40: beyond the bolters' 24", within the lascannon's 48")."""
    boyz = {"id": "boyz", "models": [model("Boy 1", 16, 20, 7, BOY), model("Boy 2", 18, far_y, 7, BOY),
                                     model("Boy 3", 20, far_y, 7, BOY)]}
    guns = {"id": "guns", "models": [{**model("Lascannon", 16, 2), "weapons": ["lascannon"]},
                                     {**model("Bolter 1", 18, 2), "weapons": ["bolter"]},
                                     {**model("Bolter 2", 20, 2), "weapons": ["bolter"]}]}
    return scenario(ruleset, [guns], [boyz], phase="shooting")


@pytest.mark.rule("published.wound-allocation")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_bolters_wounds_fall_only_on_the_boy_it_reaches(ruleset: str) -> None:
    """Two bolter wounds and one lascannon wound: the bolters reach Boy 1 alone, so their second wound is lost, and
    the lascannon's slays Boy 2 (within its 48"). Boy 3 stands; the event says why one wound is lost."""
    g = game(las_and_bolters(ruleset))
    events = g.apply(SHOOT_GUNS, dice=ScriptedDice([6] * 6 + [1, 1] * 4))  # lascannon hits and wounds, both bolters too
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 3"]
    (lost,) = lost_events(events)
    assert lost.message.startswith("1 wound on boyz lost: each weapon's wounds go only to models within its own range")
    # the lascannon misses: the bolters' two wounds can slay Boy 1 only (a bolter's wound never reaches Boy 2)
    g = game(las_and_bolters(ruleset))
    events = g.apply(SHOOT_GUNS, dice=ScriptedDice([1, 6, 6, 6, 6] + [1, 1] * 4))
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2", "Boy 3"]
    assert dict(lost_events(events)[0].data)["lost"] == 1
    # all three within the bolters' 24": the same dice slay all three, nothing lost
    g = game(las_and_bolters(ruleset, far_y=22))
    events = g.apply(SHOOT_GUNS, dice=ScriptedDice([6] * 6))
    assert not g.state.unit("boyz").alive and not lost_events(events)


@pytest.mark.rule("published.wound-allocation")
def test_the_weapon_reaching_fewest_models_places_its_wounds_first() -> None:
    """One lascannon wound, one bolter wound: the bolter's must go to Boy 1, so the lascannon's goes to Boy 2 ("each
    will affect a different model"): two Boyz fall, none lost, whatever order the weapons were fired in."""
    g = game(las_and_bolters())
    events = g.apply(SHOOT_GUNS, dice=ScriptedDice([6, 6, 6, 6, 6, 1]))  # the second bolter fails to wound
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 3"] and not lost_events(events)


@pytest.mark.rule("published.wound-allocation")
def test_the_exact_odds_of_weapons_of_several_ranges_equal_brute_force_and_the_hand_count() -> None:
    """Boyz lost: the lascannon slays with 2/3 x 5/6 = 5/9 (no save against AP 2) and may take a far Boy; the bolters
    slay with 2/3 x 1/2 = 1/3 each (no save against AP 5 for Sv6+) but only ever Boy 1."""
    start = game(las_and_bolters()).state

    def shot(dice: Dice) -> tuple[int, int]:
        played = Game(start, dice)
        events = played.apply(SHOOT_GUNS, dice=dice)
        return 3 - len(played.state.unit("boyz").models), sum(dict(e.data)["lost"] for e in lost_events(events))

    fast = enumerate_outcomes(shot, positions=False)
    assert fast == enumerate_outcomes(shot, fine=True)
    las, bolter = Fraction(5, 9), Fraction(1, 3)
    two_bolters = bolter * bolter
    one_bolter = 2 * bolter * (1 - bolter)
    assert fast[(2, 1)] == las * two_bolters and fast[(2, 0)] == las * one_bolter
    assert fast[(1, 0)] == las * (1 - bolter) ** 2 + (1 - las) * one_bolter
    assert fast[(1, 1)] == (1 - las) * two_bolters


# == 3. troops that may not make a Sweeping Advance (4th edition) ==================================================
SWEEP = "published.sweeping-advance"
VET = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv3+"
BLOWS_AND_FAIL = [6, 6, 1, 1, 1, 6, 6]  # the Vet slays Boy 1, Boy 2 misses twice, the Boyz fail their check (12)


def terminator_fight(ruleset: str, vet_rules: list[str], chaplain_rules: list[str] | None = None) -> Game:
    """The Vet (I5) in base contact with two Boyz (I2); with ``chaplain_rules`` a Chaplain joined to the Vet."""
    from _w40k import BASE_25, hero
    red = [{"id": "vets", "status": ["locked"], "rules": vet_rules, "models": [model("Vet", 20, 20, 10, VET)]}]
    if chaplain_rules is not None:
        red.append(hero("chaplain", 20 - 2 * BASE_25, 20, joined="vets", status=["locked"], rules=chaplain_rules))
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("Boy 1", 20, 20 + BASE_25, 7, BOY), model("Boy 2", 20, 20 - BASE_25, 7, BOY)]}
    return game(scenario(ruleset, red, [boyz], phase="assault"))


def sweeps(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "sweeping_advance"]


@pytest.mark.rule(SWEEP, "published.consolidation")
def test_40k4_terminators_may_not_sweep_the_loser_just_falls_back_and_they_consolidate() -> None:
    """4th ed.: "Some troops, such as Space Marine Terminators, are not allowed to sweeping advance - in such cases
    the unit just consolidates". The Vet in Terminator Armour wins: no Initiative roll, the Boyz fall back 2D6 (the
    next two dice) and the Vet may consolidate. Without it the next die is the Boyz' breaking-off roll."""
    g = terminator_fight("40k4", ["Terminator Armour"])
    events = g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([*BLOWS_AND_FAIL, 3, 3]))
    (sweep,) = sweeps(events)
    assert "may not make a sweeping advance" in sweep.message and "Terminator Armour" in sweep.message
    assert SWEEP in sweep.rules and dict(sweep.data)["outcome"] == "none"
    assert g.state.unit("boyz").has(Status.FALLING_BACK) and g.state.unit("boyz").alive
    assert g.state.unit("vets").has(Status.MAY_CONSOLIDATE)
    g = terminator_fight("40k4", [])
    events = g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([*BLOWS_AND_FAIL, 1, 6]))
    assert dict(sweeps(events)[0].data)["outcome"] == "caught" and not g.state.unit("boyz").alive


@pytest.mark.rule(SWEEP, "40k4.ic.rules-not-shared", "40k4.cc.separate-unit")
def test_40k4_a_character_with_no_sweeping_advance_does_not_bar_the_sweep_of_the_unit_he_joined() -> None:
    """A Chaplain with No Sweeping Advance joined to the Vet, touching no Boy: his rule is his own (40k4.ic.rules-not-
    shared: "the character's special rules are not conferred upon the unit") and he is a victor of his own in close
    combat (40k4.cc.separate-unit), so the Vet sweeps as without him (judge round 42; before, the Chaplain's rule
    barred the Vet's sweep: "it pursues as one"). The Vet in Terminator Armour is barred himself."""
    g = terminator_fight("40k4", [], ["No Sweeping Advance"])
    events = g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([*BLOWS_AND_FAIL, 3, 3]))
    (sweep,) = sweeps(events)
    assert sweep.message.startswith("vets makes a sweeping advance against boyz: 5 + 3 = 8 against 2 + 3 = 5")
    assert dict(sweep.data)["outcome"] == "caught" and not g.state.unit("boyz").alive
    g = terminator_fight("40k4", ["Terminator Armour"], [])
    events = g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([*BLOWS_AND_FAIL, 3, 3]))
    assert "vets has Terminator Armour and may not make a sweeping advance" in sweeps(events)[0].message
    assert g.state.unit("boyz").has(Status.FALLING_BACK)


@pytest.mark.rule(SWEEP)
def test_40k4_the_exact_odds_of_a_terminators_win_hold_no_sweep() -> None:
    """The Boyz are never caught by the Terminator: the fight's exact odds equal brute force and no outcome destroys
    them (they fall back whenever they fail)."""
    start = terminator_fight("40k4", ["Terminator Armour"]).state

    def fought(dice: Dice) -> tuple[bool, bool]:
        played = Game(start, dice)
        played.apply({"do": "fight", "unit": "vets"}, dice=dice)
        boyz = played.state.unit("boyz")
        return boyz.alive, boyz.has(Status.FALLING_BACK)

    fast = enumerate_outcomes(fought, positions=False)
    assert fast == enumerate_outcomes(fought, fine=True)
    assert all(alive for alive, _ in fast) and (True, True) in fast


@pytest.mark.rule("published.wound-allocation", "published.line-of-sight")
def test_each_weapons_wounds_fall_only_on_models_its_own_firers_see() -> None:
    """A wall hides Boyz 1 and 2 from the heavy bolter, not from the lascannon beside the Boyz' line: the heavy
    bolter's three wounds can take only Boyz 3 and 4 (one is lost), the lascannon's slays Boy 1, and Boy 2 stands.
    Read for the unit's weaponry as a whole (any firer's sight), all four would fall."""
    boyz = {"id": "boyz", "models": [model(f"Boy {i + 1}", 14 + 2 * i, 10, 7, BOY) for i in range(4)]}
    guns = {"id": "guns", "models": [{**model("Gunner", 16, 30), "weapons": ["heavy bolter"]},
                                     {**model("Las", 2, 10), "weapons": ["lascannon"]}]}
    wall = [{"id": "wall", "kind": "blocking", "polygon": [[8, 18], [16.5, 18], [16.5, 20], [8, 20]]}]
    g = game(scenario("40k4", [guns], [boyz], phase="shooting", terrain=wall))
    events = g.apply(SHOOT_GUNS, dice=ScriptedDice([6] * 8))
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2"]
    (lost,) = lost_events(events)
    assert dict(lost.data)["lost"] == 1 and "line of fire" in lost.message
