"""A judge's Morale details for 40k 3rd and 4th edition: the modifiers of a lost assault's check, and Insane Heroism.

4th ed. rulebook, Morale: "A score of 2 on the 2D6 always indicates a unit has passed its Morale check regardless of
modifiers" (published.insane-heroism); Taking Morale tests, A) Shooting casualties: "-1 if the unit is below 50% of
its starting strength"; B) Losing an assault: the loser tests at minus the margin only (published.combat-resolution).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

from _w40k import BASE_25, falls_back_odds, game, model, scenario

BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv6+"
HIT = [6, 6]  # one boltgun shot 20" away: hits, wounds; AP 5 leaves a Boy no save
END = {"do": "end_phase"}


def boyz(n: int, ld: int, **extra: Any) -> dict[str, Any]:
    return {"id": "boyz", "models": [model(f"Boy {i + 1}", 14 + 2 * i, 10, ld, BOY) for i in range(n)], **extra}


def shot_at(ruleset: str, ld: int, n: int = 4, **extra: Any) -> Game:
    """Red's Shooting phase: one boltgunner 20" from ``n`` Boyz of Leadership ``ld``."""
    gunner = {"id": "a", "models": [{**model("a 1", 14, 30), "weapons": ["boltgun"]}]}
    return game(scenario(ruleset, [gunner], [boyz(n, ld, **extra)], phase="shooting"))


def morale(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "morale"]


def casualty_check(ruleset: str, ld: int, faces: list[int], **extra: Any) -> tuple[Game, Any]:
    """Slay one Boy of four, then take the Morale check for it (4th ed.: as the phase ends) on ``faces``."""
    g = shot_at(ruleset, ld, **extra)
    dice = ScriptedDice([*HIT, *faces])
    events = list(g.apply({"do": "shoot", "unit": "a", "target": "boyz"}, dice=dice))
    if g.state.shot_this_phase:
        events += g.apply(END, dice=dice)
    checks = morale(events)
    assert len(checks) == 1
    return g, checks[0]


# == Insane Heroism ==================================================================================================
@pytest.mark.rule("published.insane-heroism", "published.morale-casualties")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_double_one_passes_a_morale_check_below_leadership_two(ruleset: str) -> None:
    """On Ld 2 after modifiers 1 + 1 passes and 1 + 2 fails; on Ld 1 (4th ed.: Ld 2, -1 below half its starting
    strength) 1 + 1 still passes - Insane Heroism, cited - and 1 + 2 fails and falls back."""
    four = {"models_at_start": 10} if ruleset == "40k4" else {}
    two = 3 if ruleset == "40k4" else 2  # 4th: Ld 3 -1 below half is Ld 2
    g, check = casualty_check(ruleset, two, [1, 1], **four)
    assert "passes" in check.message and not g.state.unit("boyz").has(Status.FALLING_BACK)
    assert "published.insane-heroism" not in check.rules  # a 2 passes Ld 2 anyway
    g, check = casualty_check(ruleset, two, [1, 2, 3, 3], **four)
    assert "fails" in check.message and g.state.unit("boyz").has(Status.FALLING_BACK)
    one = 2 if ruleset == "40k4" else 1
    g, check = casualty_check(ruleset, one, [1, 1], **four)
    assert "passes" in check.message and "Insane Heroism" in check.message
    assert "published.insane-heroism" in check.rules and not g.state.unit("boyz").has(Status.FALLING_BACK)
    g, check = casualty_check(ruleset, one, [1, 2, 3, 3], **four)
    assert "fails" in check.message and "published.insane-heroism" not in check.rules
    assert g.state.unit("boyz").has(Status.FALLING_BACK)


@pytest.mark.rule("published.insane-heroism", "core.test.leadership-kinds")
def test_insane_heroism_is_the_morale_checks_not_every_leadership_tests() -> None:
    """A judge's Morale test on Ld 0 passes on a double 1 (Insane Heroism); a Pinning test on Ld 0 fails on it."""
    g = shot_at("40k4", 0)
    events = g.apply({"do": "test", "unit": "boyz", "characteristic": "Ld", "kind": "Morale"}, dice=ScriptedDice([1, 1]))
    assert "passes" in events[0].message and "published.insane-heroism" in events[0].rules
    g = shot_at("40k4", 0)
    events = g.apply({"do": "test", "unit": "boyz", "characteristic": "Ld", "kind": "Pinning"},
                     dice=ScriptedDice([1, 1]))
    assert "fails" in events[0].message and "published.insane-heroism" not in events[0].rules
    assert g.state.unit("boyz").has(Status.PINNED)


@pytest.mark.rule("published.insane-heroism", "published.morale-casualties")
@pytest.mark.parametrize("ld", [0, 1, 2, 3])
def test_the_odds_of_a_morale_check_equal_brute_force_with_insane_heroism(ld: int) -> None:
    """The exact odds of ending the phase (4th ed., one Boy of four slain, -1 below half) equal the brute-force
    enumeration of every total; the chance the Boyz hold is that of a total at most Ld - 1, a double 1 always."""
    g = shot_at("40k4", ld, models_at_start=10)
    g.apply({"do": "shoot", "unit": "a", "target": "boyz"}, dice=ScriptedDice(HIT))
    fast = falls_back_odds(g.state, END, "boyz")
    held = sum(Fraction(1, 36) for a in range(1, 7) for b in range(1, 7) if a + b <= ld - 1 or a + b == 2)
    assert fast[False] == held


# == the modifiers of a lost assault's check =========================================================================
def lost_assault(ruleset: str, ld: int, models_at_start: int | None) -> Game:
    """Blue's Assault phase: a Nob (WS4 S5 A4) locked with two Marines; ``models_at_start`` for the Marines."""
    nob = "WS4 BS2 S5 T4 W2 I5 A4 Ld7 Sv6+"
    start = {"models_at_start": models_at_start} if models_at_start else {}
    red = [{"id": "squad", "status": ["locked"], **start,
            "models": [model("Marine", 20, 20, ld=ld), model("Marine 2", 22, 20, ld=ld)]}]
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [{"name": "Nob", "profile": nob, "base": 25, "at": [20, 20 + BASE_25]}]}]
    return game(scenario(ruleset, red, blue, phase="assault", active="blue"))


#: The Nob (I5) hits twice (2, 1, 6, 4), wounds once (3, 2), the Marine fails his save (2) and is slain before he
#: strikes (I4): red loses by one.
LOST_BY_ONE = [2, 1, 6, 4, 3, 2, 2]


@pytest.mark.rule("published.combat-resolution", "published.morale-casualties")
@pytest.mark.parametrize("models_at_start", [None, 10])
def test_40k4_a_lost_assault_tests_at_minus_the_margin_only_below_half_strength_too(models_at_start: int | None) -> None:
    """4th ed.: a squad of two that loses by one tests on Ld 9 -1 - whether it began the battle two strong or ten
    (below half its starting strength): the -1 below half is the shooting casualties check's own. 8 on Ld 8
    passes both ways."""
    g = lost_assault("40k4", 9, models_at_start)
    checks = morale(g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([*LOST_BY_ONE, 4, 4])))
    assert len(checks) == 1 and checks[0].message.startswith("squad lost the combat by 1: Morale check on Ld 9 -1 ")
    assert "rolls 8, passes" in checks[0].message and "below half" not in checks[0].message
    assert "published.combat-resolution" in checks[0].rules
    assert not g.state.unit("squad").has(Status.FALLING_BACK)


@pytest.mark.rule("published.combat-resolution", "published.insane-heroism")
def test_40k4_a_double_one_holds_a_squad_that_lost_beyond_its_leadership() -> None:
    """Ld 1 losing by one tests on Ld 0: 1 + 1 passes (Insane Heroism), 1 + 2 fails and falls back."""
    faces = LOST_BY_ONE
    g = lost_assault("40k4", 1, None)
    checks = morale(g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([*faces, 1, 1])))
    assert "Ld 1 -1" in checks[0].message and "Insane Heroism" in checks[0].message
    assert not g.state.unit("squad").has(Status.FALLING_BACK)
    g = lost_assault("40k4", 1, None)
    checks = morale(g.apply({"do": "fight", "unit": "boyz"}, dice=ScriptedDice([*faces, 1, 2, 4, 2])))
    assert "fails" in checks[0].message and g.state.unit("squad").has(Status.FALLING_BACK)
