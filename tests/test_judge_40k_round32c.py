"""A judge's cases for 40k 3rd and 4th edition, round 32c: the shooting wounds a joined character takes once the
unit's troopers are dead (published.wound-allocation, session 32), and Pile In (published.pile-in).

Found wrong (each first written as an xfail(strict=True) test):
- both editions: a wound carried onto the character took one Wound whatever its Strength: Instant Death
  (published.instant-death) was not weighed;
- both editions: a carried wound took no save of the character's, even one his unit's save is not (a Captain's
  invulnerable save against a lascannon the Marines had no save against);
- both editions: the wounds of a weapon whose range did not reach the character fell on him, because another weapon
  fired reached him;
- both editions: a Pile In model boxed in behind friends that had not moved yet stopped short of the enemy it could
  reach (published.pile-in: models MUST move up to 6" to contact the enemy);
- both editions (found while fixing the last, tested after the fix): a model standing base to base with a friend
  could not pile in at all, even away from him.

Fixed (judge round 32c), each xfail mark removed: ``carry_over`` (w40k_wounds) puts each excess wound on a
character its own weapon reaches, with its weapon's Strength (Instant Death) and AP; the character saves it with his
own save unless that is the save it already failed (4th ed., Mixed armour), rolled after the troopers' saves so that
enumeration stays exact; the owning player's choice of which wounds are the excess is played as the least harmful
(first those no character is reached by, then those that would not kill one outright).  ``_pile_in_models`` moves
the models nearest the enemy first and walks the unit again while one moves on; ``_first_block`` lets a model move
away from a base it stands touching.  Decisions stated: published.wound-allocation, published.pile-in.  Book entry:
40k4-a-lascannon-wound-carried-onto-the-captain-meets-his-iron-halo.

Each case plays actions through ``Game`` and asserts the ruling and the rule it cites.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game

from _w40k import BASE_25, EDITIONS, game, kinds, model, scenario, squad

GUARD = "WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv5+"
OFFICER = "WS4 BS4 S3 T3 W2 I4 A2 Ld8 Sv5+"
SCATTER = {"name": "scatter laser", "type": "heavy", "shots": 4, "range": 36, "strength": 6, "ap": 6}


def gunners(*weapons: str, x: float = 20, y: float = 2) -> dict[str, Any]:
    return {"id": "guns", "models": [{**model(f"Gunner {i + 1}", x + 2 * i, y), "weapons": [w]}
                                     for i, w in enumerate(weapons)]}


def guardsman_and_officer(ruleset: str) -> dict[str, Any]:
    """Red's scatter laser (4 shots, S6 AP6) 20" from blue's Guardsman (T3 Sv5+) and the officer (T3 W2 Sv5+) who
    joined him: S6 is double the officer's Toughness."""
    blue = [{"id": "vets", "models": [model("Guardsman", 20, 22, 7, GUARD)]},
            {"id": "off", "character": "independent", "joined": "vets", "models": [model("Officer", 22, 22, 8,
                                                                                          OFFICER)]}]
    return scenario(ruleset, [gunners("scatter laser", x=21)], blue, phase="shooting", weapons=[SCATTER])


# == 1. Instant Death on a carried wound ===========================================================================
@pytest.mark.rule("published.wound-allocation", "published.instant-death")
@EDITIONS
def test_a_scatter_laser_wound_carried_onto_the_officer_kills_him_outright(ruleset: str) -> None:
    """Three scatter laser wounds: the Guardsman takes the first and third, the officer the second, which he
    saves. The Guardsman fails both: one slays him, the other falls on the officer (session 32). It is a wound of
    Strength 6, double his Toughness 3: Instant Death, both his Wounds, not one (published.instant-death). His
    save is the Guardsman's (5+, which the wound failed), so none is rolled again."""
    g = game(guardsman_and_officer(ruleset))
    events = g.apply({"do": "shoot", "unit": "guns", "target": "vets"},
                     dice=ScriptedDice([6, 6, 6, 1] + [6, 6, 6] + [1, 1] + [6]))
    assert not g.state.unit("off").alive
    death = kinds(events, "instant_death")
    assert len(death) == 1 and "Officer" in death[0].message and "S6" in death[0].message
    assert "published.instant-death" in death[0].rules


def officer_slain_closed_form() -> Fraction:
    """The officer's death by the scatter laser, by hand: each shot wounds with 2/3 * 5/6 = 5/9; the wounds go
    Guardsman, officer, Guardsman, officer; each is saved on 5+ (1/3). He dies when one of his own goes unsaved
    (S6: Instant Death) or two of the Guardsman's do (the second carried onto him, Instant Death, no second save:
    the same 5+)."""
    p, save = Fraction(5, 9), Fraction(1, 3)
    total = Fraction(0)
    for w in range(5):
        ways = Fraction([1, 4, 6, 4, 1][w]) * p ** w * (1 - p) ** (4 - w)
        mine, his = (w + 1) // 2, w // 2
        lives = save ** his * (1 - (1 - save) ** 2 if mine == 2 else 1)
        total += ways * (1 - lives)
    return total


@pytest.mark.rule("published.wound-allocation", "published.instant-death")
@EDITIONS
def test_the_odds_the_officer_falls_to_the_scatter_laser_equal_brute_force_and_the_count(ruleset: str) -> None:
    """The chance the officer is slain: the fast enumeration equals brute force and ``officer_slain_closed_form``."""
    start = game(guardsman_and_officer(ruleset)).state

    def officer_slain(dice: Dice) -> bool:
        played = Game(start, dice)
        played.apply({"do": "shoot", "unit": "guns", "target": "vets"}, dice=dice)
        return not played.state.unit("off").alive

    fast = enumerate_outcomes(officer_slain, positions=False)
    assert fast == enumerate_outcomes(officer_slain, fine=True)
    assert fast[True] == officer_slain_closed_form()


# == 2. the character's own save against a carried wound ==========================================================
CAPTAIN = "WS5 BS5 S4 T4 W2 I5 A3 Ld9 Sv3+ Inv4+"


def marine_and_haloed_captain(ruleset: str, *weapons: str) -> dict[str, Any]:
    """Red's gunners 20" from blue's Marine (Sv3+) and the Captain (W2, Sv3+, Inv4+) who joined him."""
    blue = [squad("tac", 20, 22, n=1),
            {"id": "cap", "character": "independent", "joined": "tac", "models": [model("Cap", 22, 22, 9, CAPTAIN)]}]
    return scenario(ruleset, [gunners(*weapons)], blue, phase="shooting")


@pytest.mark.rule("published.wound-allocation", "published.saves")
@EDITIONS
def test_a_lascannon_wound_carried_onto_the_captain_meets_his_invulnerable_save(ruleset: str) -> None:
    """Three lascannon wounds (AP2): the Marine takes the first and third (no save), the Captain the second, which
    his invulnerable 4+ saves. The Marine's second falls on the Captain: his own save against it is 4+, not the
    Marine's none, so he rolls it, and saves it on the 6 (4th ed., Mixed armour: unsaved wounds fall on models of
    the armour type that was used for the save): he stands unhurt."""
    g = game(marine_and_haloed_captain(ruleset, "lascannon", "lascannon", "lascannon"))
    events = g.apply({"do": "shoot", "unit": "guns", "target": "tac"},
                     dice=ScriptedDice([6, 6, 6] + [6, 6, 6] + [6] + [6]))
    assert not g.state.unit("tac").alive
    cap = g.state.unit("cap")
    assert cap.alive and cap.models[0].wounds_taken == 0
    carried = [e for e in kinds(events, "saves") if "carried" in e.message]
    assert len(carried) == 1 and "4+" in carried[0].message and "1 saved" in carried[0].message
    assert "published.wound-allocation" in carried[0].rules


@pytest.mark.rule("published.wound-allocation", "published.saves", "published.instant-death")
@EDITIONS
def test_the_odds_the_haloed_captain_falls_to_three_lascannons_equal_brute_force_and_the_count(ruleset: str) -> None:
    """Each lascannon shot wounds with 2/3 * 5/6 = 5/9; the wounds go Marine, Captain, Marine; the Marine has no
    save. The Captain dies (S9: Instant Death) when his own wound or the Marine's second, carried onto him, beats
    his invulnerable 4+ (1/2 each): 1/2 with two wounds, 3/4 with three. The fast enumeration equals brute force
    and this count."""
    start = game(marine_and_haloed_captain(ruleset, "lascannon", "lascannon", "lascannon")).state

    def captain_slain(dice: Dice) -> bool:
        played = Game(start, dice)
        played.apply({"do": "shoot", "unit": "guns", "target": "tac"}, dice=dice)
        return not played.state.unit("cap").alive

    p = Fraction(5, 9)
    fast = enumerate_outcomes(captain_slain, positions=False)
    assert fast == enumerate_outcomes(captain_slain, fine=True)
    assert fast[True] == 3 * p ** 2 * (1 - p) * Fraction(1, 2) + p ** 3 * Fraction(3, 4)


# == 3. the reach of the weapon whose wound it is ==================================================================
def bolters_and_heavy_bolter(ruleset: str) -> dict[str, Any]:
    """Two bolters and a heavy bolter 0.5" from the table edge; blue's Marine 22.5" from the bolters, his Captain
    24.5" from them (beyond their 24") and within the heavy bolter's 36"."""
    blue = [squad("tac", 21, 24, n=1), {"id": "cap", "character": "independent", "joined": "tac",
                                        "models": [model("Cap", 21, 26, 9, CAPTAIN)]}]
    return scenario(ruleset, [gunners("bolter", "bolter", "heavy bolter", y=0.5)], blue, phase="shooting")


@pytest.mark.rule("published.wound-allocation")
@EDITIONS
def test_a_bolter_wound_past_the_last_marine_is_lost_when_the_bolter_does_not_reach_the_captain(
        ruleset: str) -> None:
    """Both bolter wounds fall on the Marine (the Captain stands beyond the bolters' 24"), the heavy bolter's on
    the Captain, who saves it. The Marine fails both saves: one slays him, the other is a bolter's wound and the
    bolters do not reach the Captain, so it is lost (said, published.wound-allocation), though the heavy bolter
    reaches him."""
    g = game(bolters_and_heavy_bolter(ruleset))
    events = g.apply({"do": "shoot", "unit": "guns", "target": "tac"},
                     dice=ScriptedDice([6, 6, 6, 6] + [6, 1, 1, 6] + [1, 1] + [6]))
    assert not g.state.unit("tac").alive
    cap = g.state.unit("cap")
    assert cap.alive and cap.models[0].wounds_taken == 0
    lost = kinds(events, "beyond_reach")
    assert len(lost) == 1 and lost[0].message.startswith("1 wound on tac lost")


@pytest.mark.rule("published.wound-allocation")
def test_the_odds_of_the_captains_wounds_from_bolters_and_a_heavy_bolter_equal_brute_force() -> None:
    """The Captain's wounds after the bolters and heavy bolter: the fast enumeration (which reads the carried
    wounds' saves again per result) equals brute force, and no bolter wound ever reaches him: with no heavy bolter
    wound he is never hurt."""
    start = game(bolters_and_heavy_bolter("40k4")).state

    def captain_hurt(dice: Dice) -> tuple[int, int]:
        played = Game(start, dice)
        events = played.apply({"do": "shoot", "unit": "guns", "target": "tac"}, dice=dice)
        cap = played.state.unit("cap")
        heavy = int(next(e.message for e in kinds(events, "shots") if "heavy bolter" in e.message).split(", ")[1][0])
        return min(heavy, 1), (cap.models[0].wounds_taken if cap.alive else 2)

    fast = enumerate_outcomes(captain_hurt, positions=False)
    assert fast == enumerate_outcomes(captain_hurt, fine=True)
    assert not any(hurt for (heavy, hurt) in fast if not heavy)


# == 4. Pile In of a model boxed in behind friends =================================================================
ORK = "WS4 BS2 S3 T4 W1 I2 A1 Ld7 Sv6+"


def boxed_in(ruleset: str) -> Game:
    """Red's Back stands first in his squad, boxed in by five friends in a half ring 1.4" around him (0.09" between
    bases, too little to pass); T1, apart, touches the Boy B1; eight more Boyz stand in a line 5.5" ahead of Back."""
    ring = [model(f"R{k}", 18 + 1.4 * math.cos(math.radians(a)), 17 + 1.4 * math.sin(math.radians(a)))
            for k, a in enumerate((0, 45, 90, 135, 180))]
    tac = {"id": "tac", "status": ["locked"], "models": [model("Back", 18, 17), *ring, model("T1", 24, 20)]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [
        model("B1", 24, 20 + BASE_25, 7, ORK), *(model(f"B{i + 2}", x, 22.5, 7, ORK)
                                                for i, x in enumerate((12, 14, 16, 18, 20, 22, 24, 26)))]}
    return game(scenario(ruleset, [tac], [boyz], phase="assault"))


@pytest.mark.rule("published.pile-in")
@EDITIONS
def test_a_marine_boxed_in_behind_friends_still_piles_in_to_base_contact(ruleset: str) -> None:
    """T1 slays B1 (6, 6, the Boy's save 1); the Boyz pass their check. Every Marine then MUST move up to 6" to
    contact the enemy if he can (published.pile-in): the ring ahead of Back moves in, and Back, boxed in until
    then, follows through the gap they leave; every Marine, Back and R0 included, ends in base contact with a
    Boy."""
    g = boxed_in(ruleset)
    events = g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6, 6, 1, 1, 1, 1] + [1] * 4))
    assert any(e.kind == "pile_in" for e in events)
    boyz = g.state.unit("boyz").models
    for m in g.state.unit("tac").models:
        gap = min(math.dist(m.at, b.at) for b in boyz) - BASE_25
        assert gap <= 0.01, (m.name, gap)


@pytest.mark.rule("published.pile-in")
@EDITIONS
def test_marines_standing_base_to_base_both_pile_in(ruleset: str) -> None:
    """T1 slays B1; T2 and T3, 4" from him, stand base to base beside each other, 3" from the Boyz left.
    Each MUST move up to 6" to contact the enemy (published.pile-in): standing touching a friend does not keep a
    model still (before judge round 32c a model nearer a friend than the Pile In's clearance could not move even
    away from him); all three end in base contact."""
    tac = {"id": "tac", "status": ["locked"], "models": [model("T1", 20, 20), model("T2", 15, 20),
                                                          model("T3", 15 + BASE_25, 20)]}
    boyz = {"id": "boyz", "status": ["locked"], "models": [
        model("B1", 20, 20 + BASE_25, 7, ORK), *(model(f"B{i + 2}", x, 24, 7, ORK) for i, x in enumerate((15, 17, 21)))]}
    g = game(scenario(ruleset, [tac], [boyz], phase="assault"))
    g.apply({"do": "fight", "unit": "tac"}, dice=ScriptedDice([6, 6, 1, 1, 1, 1] + [1] * 4))
    left = g.state.unit("boyz").models
    assert [m.name for m in left] == ["B2", "B3", "B4"]
    for m in g.state.unit("tac").models:
        gap = min(math.dist(m.at, b.at) for b in left) - BASE_25
        assert gap <= 0.01, (m.name, gap)
