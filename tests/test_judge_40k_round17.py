"""A judge's cases for 40k 3rd and 4th edition, seventeenth round: the published rules the engine plays around the
characters, statement by statement (the `published.*` ids of data/rules.yaml), through the front door.

1. Close combat's wounds lost to no carry-over (40k4.cc.no-carry-over: "wounds on a unit cannot carry over onto a
   joined character, and vice versa") are told as a volley tells them (a ``not_carried_over`` event), with their
   chance in ``odds action``.
2. The charts a judge checks most (to hit by BS and by WS, to wound by S against T, saves), at their edges.
3. Morale, falling back and regrouping at their edges (25% of the models, 2D6/3D6 fall backs, difficult terrain).
4. Combat resolution: a draw, a unit of one, Sweeping Advance ties.

Each case plays actions through ``Game`` (or the CLI) and asserts what the texts say, with the outcome the rule
forbids beside the one it gives.
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

from _w40k import BASE_25, game, model, scenario

VET = "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A0 Ld7 Sv6+"
BOSS = "WS5 BS2 S5 T5 W3 I4 A0 Ld9 Sv4+"
FIGHT = {"do": "fight", "unit": "vets"}


def lost_to_carry(events: list[Any]) -> list[tuple[str, int, tuple[str, ...], str]]:
    """Each ``not_carried_over`` event: its unit, count, rules and words."""
    return [(dict(e.data)["unit"], dict(e.data)["lost"], e.rules, e.message) for e in events
            if e.kind == "not_carried_over"]


# == 1. close combat: wounds lost to no carry-over are told =======================================================
def boyz_fight(ruleset: str, vet_on_boss: bool = False, boy_wounded: bool = False, boss_taken: int = 0
               ) -> dict[str, Any]:
    """A Vet (I5, 3 Attacks) in base contact with Boy 1 (the Boyz' only model) or, with ``vet_on_boss``, with the
    Boss alone (joined to the Boyz, W3); the Boyz and the Boss strike no blow back (A0)."""
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, VET)]}]
    boy = model("Boy 1", 20, 20 + BASE_25, 7, BOY)
    boss = model("Boss", 20 + BASE_25, 20 + BASE_25, 9, BOSS)
    if vet_on_boss:  # the Boss touches the Vet, Boy 1 touches the Boss only
        boss["at"], boy["at"] = [20, 20 + BASE_25], [20, 20 + 2 * BASE_25]
    if boss_taken:
        boss["wounds_taken"] = boss_taken
    blue = [{"id": "boyz", "status": ["locked"], "models": [boy]},
            {"id": "boss", "character": "independent", "joined": "boyz", "status": ["locked"], "models": [boss]}]
    return scenario(ruleset, red, blue, phase="assault")


@pytest.mark.rule("40k4.cc.no-carry-over", "published.wound-allocation")
def test_40k4_a_blows_wounds_past_the_last_boy_are_lost_and_said_lost_to_no_carry_over() -> None:
    """Three unsaved wounds on Boy 1 (one Wound): he is slain, two are lost, not carried over onto the Boss (three
    Wounds left), and an event says so citing 40k4.cc.no-carry-over; the Boss takes none of them."""
    g = game(boyz_fight("40k4"))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert lost_to_carry(events) == [("boyz", 2, ("40k4.cc.no-carry-over", "published.wound-allocation"),
                                      "2 wounds on boyz lost: the unit's unsaved wounds never carry over onto boss, "
                                      "who joined it")]
    assert [m.wounds_taken for m in g.state.unit("boss").models] == [0]
    # one unsaved wound slays the Boy and loses nothing: no event
    g = game(boyz_fight("40k4"))
    assert not lost_to_carry(g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 1, 1, 6, 1, 1] + [1] * 12)))


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_40k4_and_vice_versa_a_blows_wounds_past_the_boss_are_not_carried_onto_his_boyz() -> None:
    """The Vet touches the Boss alone (two Wounds taken already: one left): three unsaved wounds slay him, the other
    two are lost; one of them only because it is not carried onto Boy 1 (one Wound: he could take no more than one),
    so the event counts one, names the Boss's loss, and ``odds``'s words say onto his unit."""
    from herohammer.outcome_labels import event_labels
    g = game(boyz_fight("40k4", vet_on_boss=True, boss_taken=2))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    told = lost_to_carry(events)
    assert told == [("boss", 1, ("40k4.cc.no-carry-over", "published.wound-allocation"),
                     "1 wound on boss lost: a joined character's unsaved wounds never carry over onto boyz")]
    assert "slain: Boss" in [e.message for e in events] and len(g.state.unit("boyz").models) == 1
    assert event_labels(next(e for e in events if e.kind == "not_carried_over")) == [
        "boss: wounds lost with no carry-over onto its unit"]


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_40k4_nothing_is_said_when_the_other_member_has_no_wound_left() -> None:
    """With the Boss gone (no character with the Boyz) the Boy's lost wounds are no loss to the rule: no event; the
    excess is simply wasted on a slain unit."""
    data = boyz_fight("40k4")
    data["sides"]["blue"].pop()
    g = game(data)
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert not lost_to_carry(events) and "slain: Boy 1" in [e.message for e in events]


@pytest.mark.rule("published.wound-allocation")
def test_40k3_the_loss_is_said_citing_the_allocation_reading_only() -> None:
    """3rd edition: the Vet's blows are shared round and round between Boy 1 and the Boss (his own save group); the
    Boy's second unsaved wound is lost while the Boss had Wounds left: said, citing published.wound-allocation and
    no 4th edition clause (nor, since judge round 64, its "never carry over" words: the Boss was dealt his share)."""
    g = game(boyz_fight("40k3"))
    events = g.apply(FIGHT, dice=ScriptedDice([6] * 6 + [1] * 12))
    assert lost_to_carry(events) == [("boyz", 1, ("published.wound-allocation",),
                                      "1 wound on boyz lost: boyz's unsaved wounds past its own models' Wounds are "
                                      "not dealt to boss, who joined it: in close combat a joined character takes "
                                      "only the wounds dealt to him, on his own save")]


@pytest.mark.rule("40k4.cc.no-carry-over")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_exact_odds_of_wounds_lost_in_a_fight_equal_brute_force(ruleset: str) -> None:
    """The wounds the Vet's blows lose to no carry-over, by the fast enumeration and by brute force, are equal."""
    start = game(boyz_fight(ruleset)).state

    def fight(dice: Dice) -> int:
        return sum(n for _, n, _, _ in lost_to_carry(Game(start, dice).apply(FIGHT, dice=dice)))

    fast = enumerate_outcomes(fight, positions=False)
    assert fast == enumerate_outcomes(fight, fine=True)
    assert set(fast) == ({0, 1, 2} if ruleset == "40k4" else {0, 1})


@pytest.mark.rule("40k4.cc.no-carry-over")
def test_odds_action_gives_the_chance_of_a_fights_wounds_lost_to_no_carry_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`odds action` for the fight has the row: a wound is lost when at least two of the Vet's three blows go
    unsaved (each: hit on 3+, wound on 4+, Boy's 6+ save failed: 2/3 * 1/2 * 5/6 = 5/18)."""
    from herohammer.cli import main
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(boyz_fight("40k4")))
    assert main(["odds", "action", str(path), "--action", json.dumps(FIGHT), "--json"]) == 0
    rows = json.dumps(json.loads(capsys.readouterr().out))
    assert "boyz: wounds lost with no carry-over onto its characters" in rows
    p = Fraction(5, 18)
    assert str(3 * p ** 2 * (1 - p) + p ** 3) in rows


# == 3. falling back: 2D6 or 3D6 by type, and difficult terrain ===================================================
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
MORALE = {"do": "test", "unit": "squad", "characteristic": "Ld", "kind": "Morale"}


def falling(ruleset: str, kind: str, wood: bool = False, character: str | None = None) -> Game:
    """A squad of ``kind`` (two models at y = 20, a Boy 10" behind them at y = 10) with, if given, a character of
    ``character``'s type joined; with ``wood`` a difficult wood lies across its way back (y 24 to 28)."""
    red: list[dict[str, Any]] = [{"id": "squad", "type": kind, "models": [model("S1", 20, 20, 8, MARINE),
                                                                           model("S2", 22, 20, 8, MARINE)]}]
    if character:
        red.append({"id": "cap", "type": character, "character": "independent", "joined": "squad",
                    "models": [model("Cap", 21, 21.5, 9, MARINE)]})
    terrain = [{"id": "wood", "kind": "difficult", "polygon": [[10, 24], [30, 24], [30, 28], [10, 28]]}] if wood \
        else None
    return game(scenario(ruleset, red, [{"id": "boyz", "models": [model("Boy", 21, 10, 7, MARINE)]}],
                         phase="shooting", terrain=terrain))


def fall_back_of(g: Game, faces: list[int]) -> tuple[int, float]:
    """Fail the squad's Morale check (6, 6) and fall back on ``faces``: the dice rolled and how far S1 went."""
    rolled, moved, _ = fall_back_told(g, faces)
    return rolled, moved


def fall_back_told(g: Game, faces: list[int]) -> tuple[int, float, str]:
    """``fall_back_of``, and what the fall back event says."""
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, *faces]))
    fell = next(e for e in events if e.kind == "fall_back")
    assert "published.fall-back" in fell.rules
    return len(fell.rolls[0].faces), g.state.unit("squad").models[0].at[1] - 20, fell.message


@pytest.mark.rule("published.fall-back")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("kind,dice", [("infantry", 2), ("jump_infantry", 3), ("bike", 3), ("cavalry", 3)])
def test_a_unit_falls_back_2d6_or_3d6_for_cavalry_bikes_and_jump_infantry(ruleset: str, kind: str, dice: int
                                                                          ) -> None:
    """4th ed. p. 48: "Most units fall back 2D6""; Jump Infantry and Bikes: 3D6" (and cavalry, published.fall-back).
    The third die is rolled and moved: 4 + 4 (+ 4)."""
    assert fall_back_of(falling(ruleset, kind), [4, 4, 4]) == (dice, 4.0 * dice)


@pytest.mark.rule("published.fall-back", "40k4.ic.falling-back")
@pytest.mark.parametrize("squad,character", [("jump_infantry", "infantry"), ("infantry", "jump_infantry")])
def test_40k4_a_squad_and_character_of_different_types_fall_back_2d6_together(squad: str, character: str) -> None:
    """Decision (published.fall-back): a combined unit falls back 3D6 only when every member is of a 3D6 type; a
    Captain on foot with Assault Marines (or one with a jump pack with a squad on foot) falls back 2D6 with it."""
    rolled, moved = fall_back_of(falling("40k4", squad, character=character), [4, 4, 4])
    assert (rolled, moved) == (2, 8.0)
    assert fall_back_of(falling("40k4", squad, character=squad), [4, 4, 4]) == (
        3 if squad == "jump_infantry" else 2, 12.0 if squad == "jump_infantry" else 8.0)


@pytest.mark.rule("published.fall-back", "published.difficult-terrain")
@pytest.mark.parametrize("ruleset,kind,halved", [
    (r, k, h) for r in ("40k3", "40k4") for k, h in (("infantry", True), ("cavalry", r == "40k4"),
                                                     ("jump_infantry", False), ("bike", False))])
def test_jump_infantry_and_bikes_fall_back_over_a_wood_unhalved(ruleset: str, kind: str, halved: bool) -> None:
    """4th ed. p. 48: a fall back into, out of or through difficult terrain is halved; but "Jump infantry fall back
    3D6", as they will always use their packs. They may, of course, move over any obstructions when falling back",
    and "Bikes are not slowed down by difficult terrain": their 12" over the wood stays 12".  3rd edition cavalry are
    not slowed by difficult terrain either (its Cavalry page: a test for each model instead; session 18)."""
    dice, moved, said = fall_back_told(falling(ruleset, kind, wood=True), [4, 4, 4, 6, 6])  # (6, 6: the Dangerous
    # Terrain tests of the riders who cross the wood unslowed, session 19: bikes, 3rd edition cavalry)
    assert moved == (4.0 * dice / 2 if halved else 4.0 * dice)
    assert ("halved through difficult terrain" in said) == halved
    assert fall_back_of(falling(ruleset, kind), [4, 4, 4]) == (dice, 4.0 * dice)  # no wood: never halved


@pytest.mark.rule("published.fall-back")
def test_the_exact_odds_of_a_jump_squads_fall_back_over_a_wood_equal_brute_force() -> None:
    """How far the jump squad falls back over the wood, by the fast enumeration and by brute force: 3D6 unhalved.
    (Session 19: a model whose fall back ends in the wood takes a Dangerous Terrain test; None: both were slain.)"""
    start = falling("40k4", "jump_infantry", wood=True).state

    def moved(dice: Dice) -> float | None:
        g = Game(start, dice)
        g.apply(MORALE, dice=dice)
        return max((m.at[1] - 20 for m in g.state.unit("squad").models), default=None)

    fast = enumerate_outcomes(moved)
    assert fast == enumerate_outcomes(moved, fine=True)
    fails = sum(Fraction(1, 36) for a in range(1, 7) for b in range(1, 7) if a + b > 8)  # Ld 8, no double 1
    assert fast[18.0] == fails / 216 and fast[3.0] == fails / 216 and fast[0.0] == 1 - fails
    assert set(fast) == {0.0, None, *map(float, range(3, 19))}  # 3D6 whole, never half an inch


# == 3b. moving: 4th edition bikes and jump infantry are not slowed by difficult terrain ==========================
WOOD = [{"id": "wood", "kind": "difficult", "polygon": [[10, 24], [30, 24], [30, 28], [10, 28]]}]


def movers(ruleset: str, kind: str, character: str | None = None) -> Game:
    """A squad of ``kind`` at y = 20 in its Movement phase, the wood (y 24 to 28) ahead of it; a character of
    ``character``'s type joined, if given."""
    red: list[dict[str, Any]] = [{"id": "squad", "type": kind, "models": [model("S1", 20, 20, 8, MARINE),
                                                                           model("S2", 22, 20, 8, MARINE)]}]
    if character:
        red.append({"id": "cap", "type": character, "character": "independent", "joined": "squad",
                    "models": [model("Cap", 21, 18.5, 9, MARINE)]})
    return game(scenario(ruleset, red, [{"id": "boyz", "models": [model("Boy", 21, 2, 7, MARINE)]}],
                         terrain=WOOD))


def move_to(y: float, members: int = 2) -> dict[str, Any]:
    return {"do": "move", "unit": "squad", "to": [[20, y], [22, y], [21, y - 1.5]][:members]}


@pytest.mark.rule("published.difficult-terrain", "published.dangerous-terrain")
@pytest.mark.parametrize("kind,end,tests", [("bike", 31.0, 2), ("bike", 26.0, 2), ("jump_infantry", 31.0, 0),
                                            ("jump_infantry", 26.0, 2)])
def test_40k4_bikes_and_jump_infantry_cross_a_wood_unslowed_taking_dangerous_terrain_tests(
        kind: str, end: float, tests: int) -> None:
    """4th ed. Bikes: "Bikes are not slowed down by difficult terrain. However, each model entering or moving through
    difficult terrain must take a Dangerous Terrain test"; Jump Infantry: "movement is not reduced for difficult
    terrain ... if they end their move in difficult terrain, they must take a Dangerous Terrain test". No roll for
    the terrain: the squad goes the whole way; a test of 1 is a wound with no armour save."""
    g = movers("40k4", kind)
    ruling = g.check(move_to(end))
    assert ruling.legal and "not slowed by difficult terrain" in ruling.notes[0]
    assert f"{tests} Dangerous Terrain test" in ruling.notes[0]
    events = g.apply(move_to(end), dice=ScriptedDice([1, 4][:tests]))
    assert [m.at[1] for m in g.state.unit("squad").models] == [end] * (2 - (tests > 0))
    said = [e for e in events if e.kind == "dangerous_terrain"]
    assert (said[0].message if said else "") == (f"squad: {tests} dangerous terrain tests, 1 failed (S1)" if tests else "")
    assert next(e for e in events if e.kind == "difficult_terrain").rules == (
        "published.difficult-terrain", "published.dangerous-terrain")


@pytest.mark.rule("published.difficult-terrain", "40k4.ic.slowest-model")
@pytest.mark.parametrize("ruleset,kind,character", [("40k4", "infantry", None), ("40k4", "jump_infantry", "infantry"),
                                                    ("40k3", "infantry", None), ("40k3", "bike", "infantry")])
def test_infantry_a_mixed_squad_and_3rd_edition_still_roll_for_the_wood(ruleset: str, kind: str,
                                                                         character: str | None) -> None:
    """Infantry roll 2D6 and move the highest die; a jump squad with a Captain on foot moves at his pace and rolls
    too (decision: every member must be unslowed); so in 3rd edition (whose bikes are unslowed too since session 18:
    tests/test_judge_40k_round18.py). A roll of 3 stops them 3" on."""
    g = movers(ruleset, kind, character)
    members = 3 if character else 2
    end = 26.0
    ruling = g.check(move_to(end, members))
    assert ruling.legal and "needs the highest of 2D6" in ruling.notes[0]
    g.apply(move_to(end, members), dice=ScriptedDice([3, 2, 1, 1, 1]))
    assert g.state.unit("squad").models[0].at[1] == 23.0


@pytest.mark.rule("published.movement", "published.difficult-terrain")
def test_40k4_a_bike_moves_12_inches_over_the_wood_and_not_a_hair_more() -> None:
    """Unslowed is not further: a bike squad's 12" over the wood is legal, 12.5" is refused citing the move."""
    g = movers("40k4", "bike")
    assert g.check(move_to(32.0)).legal
    refused = g.check(move_to(32.5))
    assert not refused.legal and "published.movement" in refused.rules


@pytest.mark.rule("published.dangerous-terrain")
def test_40k4_the_exact_odds_of_a_bike_squads_dash_through_the_wood_equal_brute_force() -> None:
    """The bikers lost crossing the wood, by the fast enumeration and by brute force: two tests, each a 1 in 6."""
    start = movers("40k4", "bike").state

    def lost(dice: Dice) -> int:
        g = Game(start, dice)
        g.apply(move_to(31.0), dice=dice)
        return 2 - len(g.state.unit("squad").models)

    fast = enumerate_outcomes(lost)
    assert fast == enumerate_outcomes(lost, fine=True)
    assert {k: fast[k] for k in (0, 1, 2)} == {0: Fraction(25, 36), 1: Fraction(10, 36), 2: Fraction(1, 36)}


# == 2. the charts at their edges, through a fight and a volley ===================================================
def blow(ws: int, s: int, vs_ws: int, t: int) -> tuple[str, list[str]]:
    """One Vet blow (WS ``ws``, S ``s``) at a Boy of WS ``vs_ws``, T ``t``: the attacks event's words and rolls."""
    red = [{"id": "vets", "status": ["locked"],
            "models": [model("Vet", 20, 20, 10, f"WS{ws} BS4 S{s} T4 W1 I5 A1 Ld10 Sv3+")]}]
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [model("Boy", 20, 20 + BASE_25, 7, f"WS{vs_ws} BS2 S3 T{t} W1 I2 A0 Ld7 Sv6+")]}]
    g = game(scenario("40k4", red, blue, phase="assault"))
    attacks = next(e for e in g.apply(FIGHT, dice=ScriptedDice([6, 6, 6] + [1] * 10)) if e.kind == "attacks")
    return attacks.message, [r.describe() for r in attacks.rolls]


@pytest.mark.rule("published.to-wound")
@pytest.mark.parametrize("t,need", [(1, 2), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 6), (8, None)])
def test_the_to_wound_chart_s4_against_every_toughness(t: int, need: int | None) -> None:
    """To Wound chart (4th ed. p. 20): S4 wounds T2 or less on 2+, T3 on 3+, T4 on 4+, T5 on 5+, T6 and T7 on 6+,
    and cannot wound T8 (the hit is told so, and no die is rolled to wound)."""
    said, rolls = blow(4, 4, 4, t)
    if need is None:
        assert said.endswith("1 hit, 0 wounds (S4 cannot wound T8)") and len(rolls) == 1
    else:
        assert rolls[1].startswith(f"vets: to wound ({need}+, S4 vs T{t})") and "published.to-wound" in rolls[1]


@pytest.mark.rule("published.to-wound")
@pytest.mark.parametrize("ws,vs_ws,need", [(5, 4, 3), (4, 4, 4), (4, 8, 4), (4, 9, 5), (1, 2, 4), (1, 3, 5)])
def test_the_close_combat_to_hit_chart_at_its_edges(ws: int, vs_ws: int, need: int) -> None:
    """WS against WS (4th ed. p. 39): 3+ against a lower WS, 4+ against an equal or higher one up to twice the
    attacker's, 5+ against more than twice (WS4 hits WS8 on 4+, WS9 on 5+)."""
    assert blow(ws, 4, vs_ws, 4)[1][0].startswith(f"vets: to hit ({need}+, WS{ws})")


def volley(bs: int, sv: str, ap_weapon: str = "bolter") -> list[str]:
    """A gunner of BS ``bs`` fires his ``ap_weapon`` at a Boy with save ``sv``: the rolls told."""
    gun = {"id": "gun", "models": [{**model("Gunner", 20, 10, 8, f"WS4 BS{bs} S4 T4 W1 I4 A1 Ld8 Sv3+"),
                                    "weapons": [ap_weapon]}]}
    boy = {"id": "boyz", "models": [model("Boy", 20, 18, 7, f"WS4 BS2 S3 T4 W1 I2 A2 Ld7 {sv}")]}
    g = game(scenario("40k4", [gun], [boy], phase="shooting"))
    events = g.apply({"do": "shoot", "unit": "gun", "target": "boyz"}, dice=ScriptedDice([6] * 12))
    return [r.describe() for e in events for r in e.rolls]


@pytest.mark.rule("published.to-hit-bs")
@pytest.mark.parametrize("bs,need", [(1, 6), (3, 4), (4, 3), (5, 2), (6, 2), (10, 2)])
def test_the_ballistic_skill_chart_never_better_than_2(bs: int, need: int) -> None:
    """BS chart (4th ed. p. 33: "Firer's BS 1 2 3 4 5+ / Score to hit 6 5 4 3 2 ... the minimum dice roll needed to
    hit is always at least 2"): 7 - BS, and BS 6 or 10 still needs a 2."""
    rolls = volley(bs, "Sv6+")
    assert any(f"to hit ({need}+" in r and "published.to-hit-bs" in r for r in rolls), rolls


@pytest.mark.rule("published.saves")
@pytest.mark.parametrize("sv,weapon,save", [("Sv4+", "heavy bolter", None), ("Sv3+", "heavy bolter", "3+"),
                                            ("Sv5+", "bolter", None), ("Sv4+", "bolter", "4+"),
                                            ("Sv4+ Inv5+", "heavy bolter", "5+"), ("Sv5+ Inv4+", "bolter", "4+")])
def test_an_ap_equal_to_or_better_than_the_save_ignores_it_an_invulnerable_save_stays(sv: str, weapon: str,
                                                                                       save: str | None) -> None:
    """Saves (4th ed.): a weapon whose AP is equal to or better (lower) than the armour save ignores it (heavy bolter
    AP 4 against Sv4+, bolter AP 5 against Sv5+: no save, no die), a worse AP allows it; an invulnerable save is
    always taken, the better of the saves allowed rolled."""
    saves = [r for r in volley(4, sv, weapon) if "saves (" in r]
    assert saves == ([] if save is None else saves) and all(f"saves ({save})" in r for r in saves)
    assert bool(saves) == (save is not None)


# == 4. combat resolution: a draw of equal wounds =================================================================
@pytest.mark.rule("published.combat-resolution")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_equal_wounds_caused_is_a_draw_no_morale_check_and_both_stay_locked(ruleset: str) -> None:
    """The Vet (I5, one Attack, W2) wounds Boy 1 once; Boy 1 (I2) is slain before he strikes, Boy 2 (I2) wounds the
    Vet once: 1 wound each, a draw: no Morale check, no one falls back, the combat stays locked (4th ed. summary:
    "The side which inflicted the most wounds overall in the combat is the winner"; no bonus is added for anything
    else). One more unsaved wound for the Vet's side makes the Boyz lose by 1 and test at -1 in 4th edition."""
    vet = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv6+"
    boy = "WS4 BS2 S4 T4 W1 I2 A1 Ld7 Sv6+"
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, vet)]}]
    blue = [{"id": "boyz", "status": ["locked"], "models": [
        model("Boy 1", 20, 20 + BASE_25, 7, boy), model("Boy 2", 20 + BASE_25, 20, 7, boy),
        model("Boy 3", 20 + BASE_25, 20 - BASE_25, 7, boy.replace("A1", "A0"))]}]  # no blow; two left of three
    g = game(scenario(ruleset, red, blue, phase="assault"))
    # the Vet: hits (3+), wounds (4+), Boy's 6+ save fails; Boy 2: hits (4+), wounds (4+), the Vet's save fails
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 1, 6, 6, 1]))
    result = next(e for e in events if e.kind == "combat_result")
    assert result.message.endswith("a draw") and "published.combat-resolution" in result.rules
    assert not [e for e in events if e.kind in ("morale", "fall_back")]
    assert g.state.unit("boyz").has(Status.LOCKED) and g.state.unit("vets").has(Status.LOCKED)
    # the Vet's blow is saved: Boy 2's wound wins it for the Boyz by 1: the Vet tests (at -1 in 4th edition)
    g.undo()
    events = g.apply(FIGHT, dice=ScriptedDice([6, 6, 6, 6, 1, 6, 1, 3, 3]))  # Boyz 1 and 2: one hit of two
    check = next(e for e in events if e.kind == "morale")
    assert ("Ld 10 -1" in check.message) == (ruleset == "40k4") and "lost the combat by 1" in check.message


# == 2b. a target of mixed Toughness: the majority's, else the lowest ============================================
def mixed_volley(toughness: tuple[int, ...], ruleset: str = "40k4", joined: int | None = None) -> list[str]:
    """A bolter (S4) gunner at a unit whose models have ``toughness`` (in order); with ``joined`` a character of that
    Toughness joined to it: the to-wound roll told."""
    gun = {"id": "gun", "models": [{**model("Gunner", 20, 4, 8, "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"),
                                    "weapons": ["bolter"]}]}
    units: list[dict[str, Any]] = [{"id": "mob", "models": [
        model(f"M{i + 1}", 14 + 2 * i, 20, 7, f"WS4 BS2 S3 T{t} W1 I2 A2 Ld7 Sv6+") for i, t in enumerate(toughness)]}]
    if joined is not None:
        units.append({"id": "boss", "character": "independent", "joined": "mob",
                      "models": [model("Boss", 14 + 2 * len(toughness), 20, 9, f"WS5 BS4 S4 T{joined} W2 I4 A2 Ld9 Sv4+")]})
    g = game(scenario(ruleset, [gun], units, phase="shooting"))
    events = g.apply({"do": "shoot", "unit": "gun", "target": "mob"}, dice=ScriptedDice([6] * 12))
    return [r.describe() for e in events for r in e.rolls if "to wound" in r.purpose]


@pytest.mark.rule("published.to-wound")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("toughness,joined,t", [((5, 5, 3), None, 5), ((3, 5, 5), None, 5), ((5, 3), None, 3),
                                                ((5,), 3, 3), ((5, 5), 3, 5), ((4, 4, 5, 5), None, 4),
                                                ((6, 6, 5, 5, 4), None, 4)])
def test_a_unit_of_mixed_toughness_is_wounded_on_its_majority_else_its_lowest(
        ruleset: str, toughness: tuple[int, ...], joined: int | None, t: int) -> None:
    """4th ed. p. 34, Multiple Toughness: "use the Toughness characteristic that is in the majority in the target
    unit. If no majority exists, use the lowest in the unit". An Ogryn (T5) with a Commissar (T3) joined is one of
    each: no majority, T3 (not the first model's T5); two Ogryns and the Commissar: T5. Two of five is no majority:
    the lowest."""
    [roll] = mixed_volley(toughness, ruleset, joined)
    assert f"S4 vs T{t})" in roll, roll


@pytest.mark.rule("published.to-wound")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_in_close_combat_a_pair_of_mixed_toughness_and_ws_is_struck_at_the_lowest(ruleset: str) -> None:
    """A Vet (WS4, S4) touches a Boy (WS4, T4) and a Nob (WS9, T5) of one unit: no majority of either, so the lowest
    counts: he hits on 4+ (WS4 against WS4, not 5+ against WS9) and wounds on 4+ (S4 against T4, not 5+)."""
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, "WS4 BS4 S4 T4 W2 I5 A1 Ld10 Sv3+")]}]
    blue = [{"id": "mob", "status": ["locked"], "models": [
        model("Nob", 20, 20 + BASE_25, 7, "WS9 BS2 S3 T5 W1 I2 A0 Ld7 Sv6+"),
        model("Boy", 20 + BASE_25, 20, 7, "WS4 BS2 S3 T4 W1 I2 A0 Ld7 Sv6+")]}]
    g = game(scenario(ruleset, red, blue, phase="assault"))
    attacks = next(e for e in g.apply(FIGHT, dice=ScriptedDice([6, 6, 1] + [1] * 6)) if e.kind == "attacks")
    rolls = [r.describe() for r in attacks.rolls]
    assert rolls[0].startswith("vets: to hit (4+, WS4)") and rolls[1].startswith("vets: to wound (4+, S4 vs T4)")


# == 3c. a regrouped unit moves no further ========================================================================
@pytest.mark.rule("published.regroup")
def test_40k4_a_unit_that_regroups_moves_no_further_that_movement_phase() -> None:
    """4th ed., Regrouping: a unit that passes "cannot move any further during that Movement phase": its move after
    the test is refused (a second move of the phase) and the game is unchanged; it counts as having moved."""
    from _w40k import assert_illegal
    red = [{"id": "squad", "status": ["falling_back"], "models": [model("S1", 20, 20, 8, MARINE),
                                                                  model("S2", 22, 20, 8, MARINE)]}]
    g = game(scenario("40k4", red, [{"id": "boyz", "models": [model("Boy", 21, 40, 7, MARINE)]}]))
    events = g.apply({"do": "regroup", "unit": "squad"}, dice=ScriptedDice([1, 2]))
    assert "regroups" in events[-1].message and not g.state.unit("squad").has(Status.FALLING_BACK)
    assert g.state.unit("squad").has(Status.MOVED)
    refused = assert_illegal(g, {"do": "move", "unit": "squad", "to": [[20, 22], [22, 22]]}, "published.regroup")
    assert "cannot move any further this Movement phase" in str(refused)  # the regroup's own id (session 18)
