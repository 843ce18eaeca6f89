"""A judge's cases for 40k 3rd and 4th edition, fourteenth round: Last Man Standing as well as the casualties' Morale
check (3rd edition), and the clause a 4th edition psychic refusal cites.

Each case plays actions through ``Game`` (``check``, ``apply``, ``undo``) and asserts what the texts say: the legal
case and the illegal one, the clause cited, and that a refused action changes nothing (``assert_illegal``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.units import Status

from _w40k import assert_illegal, falls_back_odds, game, hero, model, scenario

SHOOT = {"do": "shoot", "unit": "las", "target": "tac"}


def lascannons() -> dict[str, Any]:
    """Blue's two lascannons: each shot at a Marine hits on 3+, wounds on 2+ and leaves no save."""
    return {"id": "las", "models": [{**model(f"Gunner {i + 1}", 20 + 2 * i, 30), "weapons": ["lascannon"]}
                                   for i in range(2)]}


def three_marines(ruleset: str = "40k3", **extra: Any) -> Game:
    red = [{"id": "tac", "models": [model(f"tac {i + 1}", 20 + 2 * i, 10, ld=7) for i in range(3)], **extra}]
    return game(scenario(ruleset, red, [lascannons()], phase="shooting", active="blue"))


def checks(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "morale"]


# == 1. 3rd edition: Last Man Standing does not replace the casualties' Morale check ================================
@pytest.mark.rule("published.last-man-standing", "published.morale-casualties")
def test_40k3_the_last_man_passes_last_man_standing_then_takes_the_casualties_check_too() -> None:
    """Two of three Marines slain: Last Man Standing first (passed, 3+3 on Ld 7), then the check for losing two of
    three models (failed, 6+6): he falls back. Both pass: he stands, having rolled both."""
    g = three_marines()
    start = g.state
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 3, 3, 6, 6, 1, 1]))
    tested = checks(events)
    assert [t.rules[0] for t in tested] == ["published.last-man-standing", "published.morale-casualties"]
    assert "rolls 6, passes" in tested[0].message and "lost 2 of 3 models" in tested[1].message
    assert "fails" in tested[1].message and g.state.unit("tac").has(Status.FALLING_BACK)
    g.undo()
    assert g.state == start
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 3, 3, 2, 2]))
    assert [t.rules[0] for t in checks(events)] == ["published.last-man-standing", "published.morale-casualties"]
    assert not g.state.unit("tac").has(Status.FALLING_BACK) and len(g.state.unit("tac").models) == 1


@pytest.mark.rule("published.last-man-standing", "published.morale-casualties")
def test_40k3_a_failed_last_man_standing_falls_back_and_takes_no_second_check() -> None:
    """Last Man Standing failed (6+6): he falls back at once, and a unit falling back takes no casualties check."""
    g = three_marines()
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 6, 6, 1, 1]))
    tested = checks(events)
    assert len(tested) == 1 and tested[0].rules[0] == "published.last-man-standing"
    assert g.state.unit("tac").has(Status.FALLING_BACK)


@pytest.mark.rule("published.last-man-standing", "published.morale-casualties", "published.pinning")
def test_40k3_a_pinned_last_man_takes_last_man_standing_and_is_told_he_takes_no_casualties_check() -> None:
    """A pinned squad takes no Morale check for shooting casualties; Last Man Standing is still taken."""
    g = three_marines(status=["pinned"])
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 3, 3]))
    tested = checks(events)
    assert tested[0].rules[0] == "published.last-man-standing" and tested[0].rolls
    assert "pinned" in tested[1].message and not tested[1].rolls and "published.pinning" in tested[1].rules


@pytest.mark.rule("40k3.ic.no-last-man", "published.morale-casualties")
def test_40k3_a_captain_shot_out_of_his_squad_takes_neither_test() -> None:
    """An independent character left alone is spared Last Man Standing, and no casualties check follows for him."""
    cap = hero("cap", 22, 11.5, ld=9, joined="tac")
    red = [{"id": "tac", "models": [model(f"tac {i + 1}", 20 + 2 * i, 10, ld=7) for i in range(2)]}, cap]
    g = game(scenario("40k3", red, [lascannons()], phase="shooting", active="blue"))
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").alive
    assert checks(events) == [] and [e.rules for e in events if e.kind == "last_man"] == [("40k3.ic.no-last-man",)]


@pytest.mark.rule("published.last-man-standing", "published.morale-casualties")
def test_40k3_the_exact_odds_of_falling_back_hold_both_checks_and_equal_brute_force() -> None:
    """Each shot slays a Marine with 5/9. Two slain: two checks on Ld 7 (7/12 each); one slain: one check."""
    fast = falls_back_odds(three_marines().state, SHOOT, "tac")
    kill = Fraction(5, 9)
    passes = Fraction(21, 36)
    assert fast[True] == kill ** 2 * (1 - passes ** 2) + 2 * kill * (1 - kill) * (1 - passes)


@pytest.mark.rule("published.last-man-standing", "40k4.char.no-last-man")
def test_40k4_a_squad_shot_to_its_last_man_still_tests_once_when_the_phase_ends() -> None:
    """4th edition has no Last Man Standing: the shot rolls no check, the phase's end one."""
    g = three_marines("40k4")
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6]))
    assert checks(events) == []
    assert len(checks(g.apply({"do": "end_phase"}, dice=ScriptedDice([1, 2])))) == 1


# == 2. 4th edition psykers cite the 4th edition's Psychic Powers, not seed 000's clauses ==========================
def psykers(ruleset: str) -> Game:
    lib = {**hero("lib", 30, 20), "rules": ["psyker"]}
    tac = {"id": "tac", "models": [model(f"tac {i + 1}", 40 + 2 * i, 20) for i in range(2)]}
    boyz = {"id": "boyz", "models": [model(f"Boy {i + 1}", 28 + 2 * i, 30, 7) for i in range(3)]}
    return game(scenario(ruleset, [lib, tac], [boyz], phase="shooting"))


TEST = {"40k3": "40k3.psyker.test", "40k4": "published.40k4-psychic-test"}
AS_SHOOTING = {"40k3": "40k3.psyker.as-shooting", "40k4": "published.40k4-psychic-shooting"}


@pytest.mark.rule("40k3.psyker.test", "40k3.psyker.as-shooting", "published.40k4-psychic-test",
                  "published.40k4-psychic-shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_not_a_psyker_and_a_second_power_are_refused_citing_the_editions_own_psychic_rules(ruleset: str) -> None:
    """A squad without `psyker` is refused, citing its edition's psychic test; the Librarian's Smite is legal, cites
    the psychic test and the shooting rule, and his second power is refused. No 40k4 ruling cites a 40k3 clause."""
    g = psykers(ruleset)
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    refused = assert_illegal(g, {**smite, "psyker": "tac"}, TEST[ruleset])
    assert "not a psyker" in refused.reason
    legal = g.check(smite)
    assert legal.legal and legal.rules == (TEST[ruleset], AS_SHOOTING[ruleset])
    events = g.apply(smite, dice=ScriptedDice([3, 4, 1, 1, 1, 1]))
    cited = {r for e in events for r in (*e.rules, *(roll.rule for roll in e.rolls))}
    assert TEST[ruleset] in cited and AS_SHOOTING[ruleset] in cited
    if ruleset == "40k4":
        assert not any(r.startswith("40k3.") for r in (*cited, *refused.rules))
    assert_illegal(g, smite, TEST[ruleset])


@pytest.mark.rule("published.40k4-psychic-test", "published.40k4-perils-of-the-warp")
def test_40k4_psychic_odds_cli_names_the_4th_edition_rules_only(capsys: pytest.CaptureFixture[str]) -> None:
    """`odds psychic --ruleset 40k4` cites the 4th edition's psychic test and Perils; 3rd edition its seed clauses."""
    from herohammer.cli import main
    assert main(["odds", "psychic", "9", "--ruleset", "40k4"]) == 0
    out = capsys.readouterr().out
    assert "published.40k4-psychic-test" in out and "published.40k4-perils-of-the-warp" in out and "40k3." not in out
    assert main(["odds", "psychic", "9"]) == 0
    out = capsys.readouterr().out
    assert "40k3.psyker.test" in out and "40k3.psyker.perils-on-2" in out


# == 4. casualties only from models within range of the weapons fired ===========================================
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def strung_out_boyz(ruleset: str, far_y: float) -> Game:
    """A heavy bolter (36") at (16, 2); Boy 1 ~33" away, Boyz 2 and 3 at ``far_y`` (42: beyond 36"; 36: within)."""
    boyz = {"id": "boyz", "models": [model("Boy 1", 16, 36, 7, BOY), model("Boy 2", 18, far_y, 7, BOY),
                                     model("Boy 3", 20, far_y, 7, BOY)]}
    gunner = {"id": "hb", "models": [{**model("Gunner", 16, 2), "weapons": ["heavy bolter"]}]}
    return game(scenario(ruleset, [gunner], [boyz], phase="shooting"))


@pytest.mark.rule("published.wound-allocation")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_model_beyond_the_range_of_every_weapon_fired_takes_no_wound(ruleset: str) -> None:
    """4th ed., Removing casualties: the owning player removes models "providing they are within the line of fire and
    range of the attacker's weaponry". Three wounds from a heavy bolter: only Boy 1 is within its 36"; the two
    beyond take none and two wounds are lost. With all three within range, all three fall."""
    hits = [6, 6, 6, 6, 6, 6]  # three hits, three wounds (S5 against T4); AP 4 leaves a Boy no save
    g = strung_out_boyz(ruleset, 42)
    events = g.apply({"do": "shoot", "unit": "hb", "target": "boyz"}, dice=ScriptedDice(hits + [1, 1] * 4))
    assert [m.name for m in g.state.unit("boyz").models] == ["Boy 2", "Boy 3"]
    assert any("slain: Boy 1" in e.message and "published.wound-allocation" in e.rules for e in events)
    g = strung_out_boyz(ruleset, 36)
    g.apply({"do": "shoot", "unit": "hb", "target": "boyz"}, dice=ScriptedDice(hits))
    assert not g.state.unit("boyz").alive


@pytest.mark.rule("published.wound-allocation")
def test_the_exact_odds_of_a_volley_partly_out_of_range_equal_brute_force() -> None:
    """At most one Boy can fall (the only one in range): P(at least one unsaved wound of three shots)."""
    start = strung_out_boyz("40k4", 42).state

    def shot(dice: Dice) -> int:
        played = Game(start, dice)
        played.apply({"do": "shoot", "unit": "hb", "target": "boyz"}, dice=dice)
        return 3 - len(played.state.unit("boyz").models)

    fast = enumerate_outcomes(shot, positions=False)
    assert fast == enumerate_outcomes(shot, fine=True)
    slay = Fraction(2, 3) * Fraction(2, 3)  # BS4 hits on 3+, S5 wounds T4 on 3+, no save against AP 4
    assert set(fast) == {0, 1} and fast[1] == 1 - (1 - slay) ** 3


# == 1b. the same reading in close combat: the loser's Morale check, then Last Man Standing (3rd edition) ==========
def boyz_against_a_lone_marine(ruleset: str) -> Game:
    """Two Boyz locked with one Marine (I4), one on each side of him in base contact."""
    red = [{"id": "tac", "status": ["locked"], "models": [model("Marine", 20, 20)]}]
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [{"name": f"Boy {i + 1}", "profile": BOY, "base": 25, "at": [20 + side * 25 / 25.4, 20]}
                       for i, side in enumerate((-1, 1))]}
    return game(scenario(ruleset, red, [boyz], phase="assault", active="red"))


@pytest.mark.rule("published.last-man-standing", "published.combat-resolution")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_loser_cut_down_to_one_model_takes_its_morale_check_then_last_man_standing_in_3rd_edition(
        ruleset: str) -> None:
    """The Marine slays a Boy (to hit 4, to wound 4, save 1); the last Boy misses twice: the Boyz lose by one, down
    to one model. 3rd edition: the loser's check (3+3 passes on Ld 7), then Last Man Standing (6+6 fails): he falls
    back. 4th edition has no Last Man Standing: the loser's check only, at -1."""
    g = boyz_against_a_lone_marine(ruleset)
    faces = [4, 4, 1, 1, 1, 3, 3] + ([6, 6, 1, 1] if ruleset == "40k3" else [])
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice(faces))
    assert len(g.state.unit("boyz").models) == 1
    tested = checks(events)
    assert tested[0].rules[0] == "published.combat-resolution" and "passes" in tested[0].message
    if ruleset == "40k3":
        assert [t.rules[0] for t in tested] == ["published.combat-resolution", "published.last-man-standing"]
        assert "fails" in tested[1].message and g.state.unit("boyz").has(Status.FALLING_BACK)
    else:
        assert len(tested) == 1 and "Ld 7 -1" in tested[0].message
        assert not g.state.unit("boyz").has(Status.FALLING_BACK)
