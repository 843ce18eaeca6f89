"""A judge's cases for 40k 3rd and 4th edition, round 44 (docstring completed below when the round ends)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from herohammer import odds_of_action
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import (EDITIONS, HERO, PSY_SHOOT, assert_illegal, assert_legal, brute, game, hero, model, next_turn_to,
                   offered, saved_and_loaded, scenario, squad)

AFTER_SHOOTING = "published.assault-after-shooting"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"
LIBRARIAN_W1 = "WS5 BS5 S4 T4 W1 I5 A3 Ld9 Sv3+"
D6 = range(1, 7)
PERILS_ON_TWO = [1, 1, 4, 5, 1, 1, 1, 1]  # the test 1 + 1, Perils S4 wounds on 5; Smite's four shots miss
PASSED_MISSED = [4, 4, 1, 1, 1, 1]  # the test 4 + 4; Smite's four shots miss


def smite(psyker: str = "lib", target: str = "boyz") -> dict[str, Any]:
    """Return the action of a psyker using Smite."""
    return {"do": "manifest", "psyker": psyker, "power": "Smite", "target": target}


def mobs() -> list[dict[str, Any]]:
    """Return blue's Boyz 6" in front of y = 20 and its Orks 6" behind it, three Orks each, 2" apart from x = 20."""
    return [{"id": "boyz", "models": [model(f"b{i}", 20 + 2 * i, 26, 7, ORK) for i in range(3)]},
            {"id": "orks", "models": [model(f"o{i}", 20 + 2 * i, 14, 7, ORK) for i in range(3)]}]


def lone_librarian_with_chaplain(joined: bool = True) -> Game:
    """3rd edition, red's Shooting phase: a lone Librarian (W1, Ld 9, psyker) at (20, 20) with a Chaplain (bolt pistol)
    joined to him at (22, 20) - a unit of two independent characters (40k3.ic.join's decision)."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 20, 20, 9, LIBRARIAN_W1)]}
    chap = {**hero("chap", 22, 20, **({"joined": "lib"} if joined else {})),
            "models": [{**model("Chap", 22, 20, 10, HERO), "weapons": ["bolt pistol"]}]}
    return game(scenario("40k3", [lib, chap], mobs(), phase="shooting"))


def squad_with_librarian(ruleset: str) -> Game:
    """Red's Shooting phase: three Marines (boltguns) at y = 20 with a Librarian (W1, Ld 9) joined at (22, 21.5)."""
    tac = {**squad("tac", 20, 20), "models": [{**m, "weapons": ["boltgun"]} for m in squad("tac", 20, 20)["models"]]}
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"], "joined": "tac",
           "models": [model("Lib", 22, 21.5, 9, LIBRARIAN_W1)]}
    return game(scenario(ruleset, [tac, lib], mobs(), phase="shooting"))


# == 1. whose shooting bars the assault, said as it was (round 43's question) =====================================

@pytest.mark.rule(AFTER_SHOOTING, "40k3.psyker.as-shooting", "40k3.ic.join", "40k3.psyker.perils-on-2")
def test_40k3_the_chaplain_left_by_perils_is_told_his_hosts_power_was_the_shooting_that_bars_his_assault() -> None:
    """Perils slays the host Librarian on a 2 and his Smite is still used at the Boyz (40k3.psyker.perils-on-2). The
    rulebook bars a charge on any unit but "the unit it shot at" by a unit "that fired in the shooting phase"; the
    Chaplain fired nothing himself, but he was part of the unit (40k3.ic.join) whose shooting the power was
    (40k3.psyker.as-shooting: psychic attacks follow the shooting rules), and round 43 holds what is left of that unit
    to its target. So the bar is right, but the refusal must say what was fired and by whom - the host's psychic
    power, the host since slain - and cite the clauses that make it the Chaplain's unit's shooting, not claim "chap
    fired at boyz". Saved and loaded in the Assault phase, the same; the Boyz stay legal and alone offered."""
    g = lone_librarian_with_chaplain()
    g.apply(smite(), dice=ScriptedDice(list(PERILS_ON_TWO)))
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    for h in (g, saved_and_loaded(g)):
        refused = assert_illegal(h, {"do": "assault", "unit": "chap", "target": "orks"}, AFTER_SHOOTING)
        assert "chap fired" not in refused.reason, refused.reason
        assert "chap was part of lib" in refused.reason and "psychic power" in refused.reason, refused.reason
        assert "lib since slain" in refused.reason and "not orks" in refused.reason, refused.reason
        assert {"40k3.ic.join", "40k3.psyker.as-shooting"} <= set(refused.rules), refused.rules
        assert offered(h, "assault") == {("chap", "boyz")}



@pytest.mark.rule(AFTER_SHOOTING, "40k3.psyker.as-shooting")
def test_40k3_the_pair_whose_librarian_smote_the_boyz_is_told_it_was_his_power() -> None:
    """No Perils (4 + 4): the pair, still whole, may assault only the Boyz; the refusal of the Orks names the
    Librarian's psychic power as the unit's shooting and cites the clause that makes it shooting."""
    g = lone_librarian_with_chaplain()
    g.apply(smite(), dice=ScriptedDice(list(PASSED_MISSED)))
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    refused = assert_illegal(g, {"do": "assault", "unit": "lib", "target": "orks"}, AFTER_SHOOTING)
    assert "lib used a psychic power at boyz" in refused.reason and "40k3.psyker.as-shooting" in refused.rules, refused
    assert_legal(g, {"do": "assault", "unit": "lib", "target": "boyz"})



@pytest.mark.rule(AFTER_SHOOTING, "40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
@EDITIONS
@pytest.mark.parametrize("perils", [False, True])
def test_a_squad_that_held_its_fire_is_told_its_librarians_power_bars_its_assault(ruleset: str, perils: bool) -> None:
    """The joined Librarian smites the Boyz (his power his part of the squad's shooting, which binds it to its target,
    40k4.shoot.same-target; 3rd edition: a unit picks one target) and the squad holds its fire. Its assault on the
    Orks is refused saying the Librarian used a psychic power at the Boyz as part of the squad's shooting (he since
    slain, when Perils took him on a 2) - not that the squad fired - citing the edition's psychic shooting clause."""
    g = squad_with_librarian(ruleset)
    g.apply(smite(), dice=ScriptedDice(list(PERILS_ON_TWO if perils else PASSED_MISSED)))
    assert g.state.unit("lib").alive is not perils
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    refused = assert_illegal(g, {"do": "assault", "unit": "tac", "target": "orks"}, AFTER_SHOOTING)
    assert "tac fired" not in refused.reason, refused.reason
    said = "lib used a psychic power (since slain) at boyz" if perils else "lib used a psychic power at boyz"
    assert said in refused.reason and "as part of tac's shooting" in refused.reason, refused.reason
    assert PSY_SHOOT[ruleset] in refused.rules, refused.rules
    assert offered(g, "assault") == {("tac", "boyz")}


# == 2. a Librarian of another unit slain by Perils is not the squad's host =========================================

@pytest.mark.rule("published.shooting", "40k3.psyker.perils-on-2")
def test_40k3_a_squad_that_shot_is_not_told_it_was_part_of_another_units_librarian_slain_by_perils() -> None:
    """A lone Librarian of red, a unit of his own, smites the Boyz and Perils slays him on a 2. Red's squad with its
    joined Captain then fires at the Boyz too (its boltguns' eight shots miss). Asked to fire again, at the Orks, the
    squad is refused because its shooting this phase was at the Boyz (published.shooting: a unit shoots once, at one
    target), and the refusal must not say it "was part of lib" (it never was: 40k3.ic.join is no clause of this
    case). Its Captain is told he is part of the squad, which has shot."""
    lib = {"id": "lib", "character": "independent", "rules": ["psyker"],
           "models": [model("Lib", 14, 24, 9, LIBRARIAN_W1)]}
    tac = {**squad("tac", 20, 20), "models": [{**m, "weapons": ["boltgun"]} for m in squad("tac", 20, 20)["models"]]}
    cap = {**hero("cap", 22, 18.5, joined="tac"),
           "models": [{**model("Cap", 22, 18.5, 10, HERO), "weapons": ["bolt pistol"]}]}
    g = game(scenario("40k3", [lib, tac, cap], mobs(), phase="shooting"))
    g.apply(smite(), dice=ScriptedDice(list(PERILS_ON_TWO)))
    assert not g.state.unit("lib").alive
    g.apply({"do": "shoot", "unit": "tac", "target": "boyz"}, dice=ScriptedDice([1] * 8))
    refused = assert_illegal(g, {"do": "shoot", "unit": "tac", "target": "orks"}, "published.shooting")
    assert "part of lib" not in refused.reason and "40k3.ic.join" not in refused.rules, refused
    assert "at boyz this turn, as part of tac's shooting" in refused.reason, refused.reason
    refused = assert_illegal(g, {"do": "shoot", "unit": "cap", "target": "orks"}, "published.shooting")
    assert "cap is part of tac, which has already shot" in refused.reason, refused.reason
    assert not offered(g, "shoot")
