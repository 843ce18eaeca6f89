"""A judge's cases for 40k 3rd and 4th edition, sixteenth round: unsaved wounds on multi-Wound models (whole models
removed where possible, a wounded model taking the next wound first), and the wounds a volley loses said with each
reason's own rule.

Each case plays actions through ``Game`` and asserts what the texts say (4th ed., Removing casualties: one model
removed per wound "assuming that the models in the unit have one Wound each"; the owning player chooses who is
removed; published.wound-allocation states the reading for models of several Wounds), with the outcome the rule
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

from _w40k import BASE_25, game, model, scenario

NOB = "WS4 BS2 S4 T4 W2 I3 A3 Ld7 Sv6+"
NOB_NO_BLOWS = "WS4 BS2 S4 T4 W2 I3 A0 Ld7 Sv6+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
VET = "WS5 BS5 S4 T4 W2 I5 A1 Ld10 Sv3+"
SHOOT = {"do": "shoot", "unit": "hb", "target": "nobz"}


def wounds(g: Game, unit: str) -> list[tuple[str, int]]:
    return [(m.name, m.wounds_taken) for m in g.state.unit(unit).models]


# == 1. multi-Wound models: whole models removed where possible ====================================================
def nobz(ruleset: str, taken: tuple[int, ...] = (0, 0, 0), profiles: tuple[str, ...] = (NOB, NOB, NOB)
         ) -> dict[str, Any]:
    """Three models in a line at y = 20 (Nob 2, at x = 18, closest to the heavy bolter at (18, 2)); ``taken``: the
    wounds each has taken already."""
    models = [model(f"Nob {i + 1}", 16 + 2 * i, 20, 7, p) for i, p in enumerate(profiles)]
    for m, t in zip(models, taken):
        if t:
            m["wounds_taken"] = t
    gun = {"id": "hb", "models": [{**model("Gunner", 18, 2), "weapons": ["heavy bolter"]}]}
    return scenario(ruleset, [gun], [{"id": "nobz", "models": models}], phase="shooting")


@pytest.mark.rule("published.wound-allocation", "core.zero.w")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_wounded_nob_takes_the_next_wound_and_is_removed(ruleset: str) -> None:
    """Nob 3 (the farthest) is on his last Wound: one unsaved wound slays him, not a fresh Nob closer to the gun (two
    wounded Nobz and none removed is what the rule forbids)."""
    g = game(nobz(ruleset, (0, 0, 1)))
    events = g.apply(SHOOT, dice=ScriptedDice([6, 1, 1, 6, 1, 1]))
    assert "slain: Nob 3" in [e.message for e in events]
    assert "published.wound-allocation" in next(e for e in events if e.kind == "casualties").rules
    assert wounds(g, "nobz") == [("Nob 1", 0), ("Nob 2", 0)]
    # no wounded Nob: the closest takes it and stands on one Wound
    g = game(nobz(ruleset))
    events = g.apply(SHOOT, dice=ScriptedDice([6, 1, 1, 6, 1, 1]))
    assert not [e for e in events if e.kind == "casualties"]
    assert wounds(g, "nobz") == [("Nob 1", 0), ("Nob 2", 1), ("Nob 3", 0)]


@pytest.mark.rule("published.wound-allocation", "core.zero.w")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_three_unsaved_wounds_on_three_fresh_nobz_slay_one_and_wound_one(ruleset: str) -> None:
    """Wounds are not spread one a Nob to spare casualties: three unsaved wounds slay the closest Nob (2 Wounds) and
    wound the next."""
    g = game(nobz(ruleset))
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 6, 6, 1, 1]))
    assert "slain: Nob 2" in [e.message for e in events]
    assert sorted(t for _, t in wounds(g, "nobz")) == [0, 1]


@pytest.mark.rule("published.wound-allocation")
def test_a_boy_falls_before_the_nob_leading_him_is_wounded() -> None:
    """A Nob (2 Wounds) closest to the gun with two Boyz (1 Wound) of the same save: one unsaved wound removes a Boy
    (a whole model) rather than wounding the Nob."""
    g = game(nobz("40k4", profiles=(BOY, NOB, BOY)))
    events = g.apply(SHOOT, dice=ScriptedDice([6, 1, 1, 6, 1, 1]))
    assert "slain: Nob 1" in [e.message for e in events]
    assert wounds(g, "nobz") == [("Nob 2", 0), ("Nob 3", 0)]


@pytest.mark.rule("published.wound-allocation")
def test_a_joined_characters_wound_stays_his_own_group_after_the_unit() -> None:
    """A wounded character (on his last Wound) joined to fresh Nobz is not moved ahead of them: one wound falls on the
    closest Nob, the character's Wound is untouched."""
    data = nobz("40k4")
    boss = {"id": "boss", "character": "independent", "joined": "nobz",
            "models": [{**model("Boss", 18, 22, 9, "WS5 BS4 S5 T5 W3 I4 A4 Ld9 Sv4+"), "wounds_taken": 2}]}
    data["sides"]["blue"].append(boss)
    g = game(data)
    g.apply(SHOOT, dice=ScriptedDice([6, 1, 1, 6, 1, 1]))
    assert wounds(g, "nobz") == [("Nob 1", 0), ("Nob 2", 1), ("Nob 3", 0)] and wounds(g, "boss") == [("Boss", 2)]


def nob_fight(ruleset: str, taken: tuple[int, int]) -> dict[str, Any]:
    """A Vet (I5, 1 Attack) in base contact with two Nobz of no Attacks, equally near; ``taken``: their wounds."""
    red = [{"id": "vets", "status": ["locked"], "models": [model("Vet", 20, 20, 10, VET)]}]
    models = [model("Nob 1", 20, 20 + BASE_25, 7, NOB_NO_BLOWS), model("Nob 2", 20, 20 - BASE_25, 7, NOB_NO_BLOWS)]
    for m, t in zip(models, taken):
        if t:
            m["wounds_taken"] = t
    return scenario(ruleset, red, [{"id": "nobz", "status": ["locked"], "models": models}], phase="assault")


@pytest.mark.rule("published.wound-allocation", "core.zero.w")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_in_close_combat_the_wounded_nob_takes_the_blow(ruleset: str) -> None:
    """The Vet's one unsaved wound slays Nob 2 (on his last Wound), not fresh Nob 1 standing as near."""
    g = game(nob_fight(ruleset, (0, 1)))
    events = g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([6, 6, 1] + [1] * 8))
    assert "slain: Nob 2" in [e.message for e in events]
    assert wounds(g, "nobz") == [("Nob 1", 0)]
    g = game(nob_fight(ruleset, (0, 0)))
    g.apply({"do": "fight", "unit": "vets"}, dice=ScriptedDice([6, 6, 1] + [1] * 8))
    assert wounds(g, "nobz") == [("Nob 1", 1), ("Nob 2", 0)]


@pytest.mark.rule("published.wound-allocation")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_the_exact_odds_of_shooting_a_wounded_nob_unit_equal_brute_force(ruleset: str) -> None:
    """The wounds each Nob is left with after a heavy bolter volley: the fast enumeration equals brute force, and a
    single unsaved wound (2/3 x 2/3 each, no save against AP 4) always ends on Nob 3."""
    start = game(nobz(ruleset, (0, 0, 1))).state

    def shot(dice: Dice) -> tuple[tuple[str, int], ...]:
        played = Game(start, dice)
        played.apply(SHOOT, dice=dice)
        return tuple(wounds(played, "nobz"))

    fast = enumerate_outcomes(shot, positions=False)
    assert fast == enumerate_outcomes(shot, fine=True)
    assert ((("Nob 1", 0), ("Nob 2", 1), ("Nob 3", 1)) not in fast
            and (("Nob 1", 0), ("Nob 2", 0)) in fast)


@pytest.mark.rule("published.wound-allocation")
def test_the_exact_odds_of_a_blow_on_a_wounded_nob_equal_brute_force() -> None:
    """The Vet's fight against a wounded Nob: the fast enumeration equals brute force, and no outcome leaves two
    wounded Nobz."""
    start = game(nob_fight("40k4", (0, 1))).state

    def fought(dice: Dice) -> tuple[tuple[str, int], ...]:
        played = Game(start, dice)
        played.apply({"do": "fight", "unit": "vets"}, dice=dice)
        return tuple(wounds(played, "nobz")) if played.state.has_unit("nobz") else ()

    fast = enumerate_outcomes(fought, positions=False)
    assert fast == enumerate_outcomes(fought, fine=True)
    assert (("Nob 1", 1), ("Nob 2", 1)) not in fast


# == 2. the wounds a volley loses, each reason with its own rule and count =========================================
BOSS = "WS5 BS4 S5 T5 W3 I4 A4 Ld9 Sv4+"
SHOOT_BOYZ = {"do": "shoot", "unit": "hb", "target": "boyz"}


def lost_by(events: list[Any]) -> dict[str, tuple[int, tuple[str, ...], str]]:
    """Each lost-wounds event by kind: its count, its rules, its words."""
    return {e.kind: (dict(e.data)["lost"], e.rules, e.message) for e in events
            if e.kind in ("beyond_reach", "not_carried_over")}


def boyz_with_boss(ruleset: str, far: bool = True, gunners: int = 1) -> dict[str, Any]:
    """Boy 1 (33" from the heavy bolters at y = 2) with a Boss joined to the Boyz beside him; with ``far`` Boyz 2
    and 3 stand 40" away, beyond the heavy bolters' 36"."""
    boyz = [model("Boy 1", 16, 35, 7, BOY)]
    if far:
        boyz += [model("Boy 2", 18, 42, 7, BOY), model("Boy 3", 20, 42, 7, BOY)]
    boss = {"id": "boss", "character": "independent", "joined": "boyz", "models": [model("Boss", 14, 35, 9, BOSS)]}
    guns = {"id": "hb", "models": [{**model(f"Gunner {i + 1}", 14 + 2 * i, 2), "weapons": ["heavy bolter"]}
                                   for i in range(gunners)]}
    return scenario(ruleset, [guns], [{"id": "boyz", "models": boyz}, boss], phase="shooting")


@pytest.mark.rule("published.wound-allocation")
def test_40k4_the_boys_second_wound_falls_on_the_boss_who_joined_him() -> None:
    """Three wounds on Boy 1 and the Boss (Boyz 2 and 3 beyond range): Boy 1 takes two, the Boss one. The Boy's
    second wound, which he cannot take, falls on the Boss, one of the unit's models (published.wound-allocation's
    decision of session 32: the seed's "never carry over" is close combat's, where he is a separate unit; before,
    it was said lost citing 40k4.cc.no-carry-over). Nothing is lost, nothing is said lost."""
    g = game(boyz_with_boss("40k4"))
    events = g.apply(SHOOT_BOYZ, dice=ScriptedDice([6] * 6))
    assert not lost_by(events)
    assert all("40k4.cc.no-carry-over" not in e.rules for e in events)
    assert wounds(g, "boss") == [("Boss", 2)]


@pytest.mark.rule("published.wound-allocation")
def test_40k3_the_boys_second_wound_falls_on_the_boss_too() -> None:
    """3rd edition alike: the Boss is part of the unit, and takes the wound the Boy could not."""
    g = game(boyz_with_boss("40k3"))
    assert not lost_by(g.apply(SHOOT_BOYZ, dice=ScriptedDice([6] * 6 + [1, 1])))
    assert wounds(g, "boss") == [("Boss", 2)]


@pytest.mark.rule("published.wound-allocation")
def test_40k4_a_wound_past_the_boss_is_said_lost_to_range() -> None:
    """Five wounds from two heavy bolters: Boy 1 takes three, the Boss two. Boy 1 is slain by one; of his other two
    the Boss takes one (his last Wound) and is slain; the last is lost, since Boyz 2 and 3 stand beyond 36"."""
    g = game(boyz_with_boss("40k4", gunners=2))
    events = g.apply(SHOOT_BOYZ, dice=ScriptedDice([6] * 5 + [1] + [6] * 5))
    told = lost_by(events)
    assert set(told) == {"beyond_reach"} and told["beyond_reach"][:2] == (1, ("published.wound-allocation",))
    assert "Boy 2, Boy 3 stand beyond the range" in told["beyond_reach"][2]
    assert "slain: Boy 1, Boss" in [e.message for e in events if e.kind == "casualties"]


@pytest.mark.rule("published.wound-allocation")
def test_40k4_with_every_model_in_range_nothing_is_said_lost() -> None:
    """Boy 1 alone with the Boss, both in range: three wounds, Boy 1 takes one, the Boss two; nothing lost. Without
    the Boss nothing is said either (the Boy's unit is destroyed)."""
    g = game(boyz_with_boss("40k4", far=False))
    assert not lost_by(g.apply(SHOOT_BOYZ, dice=ScriptedDice([6] * 6)))
    assert wounds(g, "boss") == [("Boss", 2)]
    data = boyz_with_boss("40k4", far=False)
    data["sides"]["blue"].pop()
    g = game(data)
    assert not lost_by(g.apply(SHOOT_BOYZ, dice=ScriptedDice([6] * 6)))


@pytest.mark.rule("published.wound-allocation")
def test_40k4_the_exact_odds_of_the_wounds_lost_equal_brute_force() -> None:
    """Two heavy bolters at Boy 1 and the Boss (Boyz 2 and 3 beyond range): the wounds lost, by the fast
    enumeration and by brute force, are equal; a loss happens only past the Boss's Wounds."""
    start = game(boyz_with_boss("40k4", gunners=2)).state

    def shot(dice: Dice) -> tuple[int, int]:
        played = Game(start, dice)
        told = lost_by(played.apply(SHOOT_BOYZ, dice=dice))
        return told.get("not_carried_over", (0,))[0], told.get("beyond_reach", (0,))[0]

    fast = enumerate_outcomes(shot, positions=False)
    assert fast == enumerate_outcomes(shot, fine=True)
    assert set(fast) == {(0, 0), (0, 1), (0, 2)}


@pytest.mark.rule("published.wound-allocation")
def test_odds_action_has_no_row_of_wounds_lost_to_no_carry_over_for_a_volley(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`odds action` for a volley at Boy 1 and the Boss: no wound is lost to a no-carry-over rule (the Boss, W3,
    takes the Boy's excess of three wounds at most), so the table has no such row (session 32; it had one before)."""
    from herohammer.cli import main
    path = tmp_path / "boyz.json"
    path.write_text(json.dumps(boyz_with_boss("40k4", far=False)))
    assert main(["odds", "action", str(path), "--action", json.dumps(SHOOT_BOYZ), "--json"]) == 0
    rows = json.dumps(json.loads(capsys.readouterr().out))
    assert "wounds lost with no carry-over" not in rows


# == 3. the seeds, statement by statement: the edge values ========================================================
def refuses(g: Game, action: dict[str, Any], rule: str) -> str:
    """The action is refused citing ``rule`` (and applying it changes nothing); return the reason."""
    from herohammer.errors import IllegalActionError
    ruling = g.check(action)
    assert not ruling.legal and rule in ruling.rules, ruling
    before = g.state
    with pytest.raises(IllegalActionError):
        g.apply(action)
    assert g.state is before
    return ruling.reason


def allows(g: Game, action: dict[str, Any], rule: str) -> str:
    ruling = g.check(action)
    assert ruling.legal and rule in ruling.rules, ruling
    return ruling.reason


def lone_captain(gap: float, shooter_y: float = 5) -> Game:
    """Seed 000: a lone Captain at (30, 30) with the Boyz ``gap`` inches (edge to edge) to his side; Tactical at
    (30, ``shooter_y``)."""
    from _w40k import gunners, hero, squad
    blue = [hero("cap", 30, 30), squad("boyz", 30 + gap + BASE_25, 30, n=1)]
    return game(scenario("40k3", [gunners("tac", 30, shooter_y, n=1)], blue, phase="shooting"))


@pytest.mark.rule("40k3.ic.target")
def test_40k3_a_lone_character_exactly_6_inches_from_another_unit_is_not_more_than_6_away() -> None:
    """Seed 000: a lone character may be shot "only if more than 6" from another living unit" (or closest within 12"):
    exactly 6" (the Tactical 24" away, not within 12") is refused; a hair over 6" is allowed."""
    reason = refuses(lone_captain(6.0), {"do": "shoot", "unit": "tac", "target": "cap"}, "40k3.ic.target")
    assert "within 6\"" in reason
    assert "more than 6\"" in allows(lone_captain(6.05), {"do": "shoot", "unit": "tac", "target": "cap"},
                                     "40k3.ic.target")


@pytest.mark.rule("40k3.ic.target")
def test_40k3_the_closest_lone_character_exactly_12_inches_away_may_be_shot() -> None:
    """Seed 000: within 6" of the Boyz, the Captain may still be shot as the closest target "at short range (up to
    12")": at exactly 12" he may, a hair over he may not."""
    from _w40k import gunners, hero, squad

    def at(gap: float) -> Game:
        blue = [hero("cap", 30, 5 + gap + BASE_25), squad("boyz", 33, 7 + gap + BASE_25, n=1)]
        return game(scenario("40k3", [gunners("tac", 30, 5, n=1)], blue, phase="shooting"))

    assert "closest target" in allows(at(12.0), {"do": "shoot", "unit": "tac", "target": "cap"}, "40k3.ic.target")
    refuses(at(12.05), {"do": "shoot", "unit": "tac", "target": "cap"}, "40k3.ic.target")


@pytest.mark.rule("40k3.ic.join", "40k3.ic.target", "40k4.ic.no-character-units")
def test_40k3_a_lone_character_may_join_another_and_the_pair_is_one_unit_for_targeting() -> None:
    """Seed 000 lets an independent character join "any unit", and a lone character is a unit of his own: in 3rd
    edition the Captain may join the lone Librarian (4th edition forbids it, 40k4.ic.no-character-units). Joined, the
    Captain is no "other living unit" keeping the Librarian from being shot."""
    from _w40k import gunners, hero, squad
    for ruleset, legal in (("40k3", True), ("40k4", False)):
        g = game(scenario(ruleset, [hero("cap", 30, 20), hero("lib", 33, 20)], None, phase="movement"))
        join = {"do": "join", "character": "cap", "unit": "lib", "to": [31.5, 20]}
        if legal:
            allows(g, join, "40k3.ic.join")
        else:
            refuses(g, join, "40k4.ic.no-character-units")
    blue = [hero("cap", 30, 30, joined="lib"), hero("lib", 31.5, 30)]
    g = game(scenario("40k3", [gunners("tac", 30, 5, n=1)], blue, phase="shooting"))
    allows(g, {"do": "shoot", "unit": "tac", "target": "lib"}, "40k3.ic.target")
    refuses(g, {"do": "shoot", "unit": "tac", "target": "cap"}, "40k3.ic.join")


@pytest.mark.rule("40k3.ic.join", "40k4.ic.join")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_join_ending_exactly_2_inches_away_joins_and_a_hair_more_does_not(ruleset: str) -> None:
    from _w40k import hero, squad
    for gap, legal in ((2.0, True), (2.05, False)):
        g = game(scenario(ruleset, [hero("cap", 34 - gap - BASE_25, 20), squad("tac", 40, 20, n=1)], None))
        join = {"do": "join", "character": "cap", "unit": "tac", "to": [40 - gap - BASE_25, 20]}
        (allows if legal else refuses)(g, join, f"{ruleset}.ic.join")


@pytest.mark.rule("40k3.ic.leave", "40k4.ic.leave")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_leave_must_end_more_than_2_inches_away_exactly_2_stays(ruleset: str) -> None:
    from _w40k import hero, squad
    for gap, legal in ((2.0, False), (2.05, True)):
        red = [hero("cap", 39 - BASE_25, 20, joined="tac"), squad("tac", 40, 20, n=1)]
        g = game(scenario(ruleset, red, None))
        leave = {"do": "leave", "character": "cap", "to": [40 - gap - BASE_25, 20]}
        (allows if legal else refuses)(g, leave, f"{ruleset}.ic.leave")


@pytest.mark.rule("40k3.ic.assault-alone", "40k4.assault.alone")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize("kind, reach", [("infantry", 6.0), ("cavalry", 12.0)])
def test_a_lone_character_assaults_at_exactly_his_range_and_not_beyond(ruleset: str, kind: str, reach: float) -> None:
    """Seed 000: "no further than 6" (12" if cavalry)": exactly the range is allowed, a hair over is not."""
    from _w40k import hero, squad
    rule = "40k3.ic.assault-alone" if ruleset == "40k3" else "40k4.assault.alone"
    for gap, legal in ((reach, True), (reach + 0.05, False)):
        red = [hero("cap", 30, 10, **({"type": "cavalry"} if kind == "cavalry" else {}))]
        g = game(scenario(ruleset, red, [squad("boyz", 30, 10 + gap + BASE_25, n=1)], phase="assault"))
        (allows if legal else refuses)(g, {"do": "assault", "unit": "cap", "target": "boyz"}, rule)


@pytest.mark.rule("40k4.ic.pinned", "40k4.ic.join")
def test_40k4_a_character_may_join_a_pinned_unit_but_not_leave_it() -> None:
    """Seed 001 bars only leaving a pinned unit: the Captain may join the pinned Tactical, and once with it may not
    leave until it is no longer pinned."""
    from _w40k import hero, squad
    g = game(scenario("40k4", [hero("cap", 36, 20), squad("tac", 40, 20, n=2, status=["pinned"])], None))
    allows(g, {"do": "join", "character": "cap", "unit": "tac", "to": [38.5, 20]}, "40k4.ic.join")
    red = [hero("cap", 38.5, 20, joined="tac", status=["pinned"]), squad("tac", 40, 20, n=2, status=["pinned"])]
    g = game(scenario("40k4", red, None))
    refuses(g, {"do": "leave", "character": "cap", "to": [34, 20]}, "40k4.ic.pinned")


@pytest.mark.rule("published.regroup")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_no_regroup_with_an_enemy_exactly_6_inches_away(ruleset: str) -> None:
    """An enemy exactly 6" away is "within 6"": no regroup; a hair further, the squad may test."""
    from _w40k import squad
    for gap, legal in ((6.0, False), (6.05, True)):
        red = [squad("tac", 30, 20, n=2, status=["falling_back"])]
        g = game(scenario(ruleset, red, [squad("boyz", 32 + gap + BASE_25, 20, n=1)]))  # (beside tac 2, at x = 32)
        (allows if legal else refuses)(g, {"do": "regroup", "unit": "tac"}, "published.regroup")


@pytest.mark.rule("40k3.psyker.test", "40k3.psyker.as-shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_psyker_who_fails_his_test_may_still_fire_one_who_used_a_shooting_power_may_not(ruleset: str) -> None:
    """Seed 000: a failed test means no psychic power this turn (a second power is refused); it uses no power, so the
    Librarian may still fire. A passed Smite (a shooting power) is his shooting: he may not fire again."""
    from _w40k import hero, squad
    from herohammer.dice import ScriptedDice as Scripted

    def librarian() -> Game:
        red = [{**hero("lib", 30, 20, rules=["psyker"]), "models": [
            {**model("Lib", 30, 20, 10, "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+"), "weapons": ["bolt pistol"]}]}]
        return game(scenario(ruleset, red, [squad("boyz", 30, 30, n=3)], phase="shooting"))

    test_rule = "40k3.psyker.test" if ruleset == "40k3" else "published.40k4-psychic-test"
    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    g = librarian()
    events = g.apply(smite, dice=Scripted([6, 5]))
    assert "failed" in events[0].message
    refuses(g, {**smite, "power": "Lightning Arc"}, test_rule)
    allows(g, {"do": "shoot", "unit": "lib", "target": "boyz"}, "published.line-of-sight")
    g = librarian()
    g.apply(smite, dice=Scripted([3, 3] + [1] * 20))
    refuses(g, {"do": "shoot", "unit": "lib", "target": "boyz"}, "published.shooting")


@pytest.mark.rule("core.test.leadership", "core.test.leadership-kinds", "core.test.characteristic")
def test_a_leadership_of_0_fails_every_test_but_a_4th_edition_morale_check_on_a_double_1() -> None:
    """Seed 004: a value of 0 fails its characteristic test whatever the roll (a 1 too); a Leadership test on Ld 0
    fails on any 2D6, even a double 1; a 4th edition Morale check passes on a double 1 "always"
    (published.insane-heroism, whose decision reads it so for a profile Leadership of 0)."""
    from herohammer.dice import ScriptedDice as Scripted
    zero = "WS4 BS4 S4 T4 W1 I0 A1 Ld0 Sv3+"

    def test(kind: dict[str, Any], faces: list[int]) -> str:
        g = game(scenario("40k4", [{"id": "z", "models": [model("Zero", 20, 10, profile=zero)]}]))
        return g.apply({"do": "test", "unit": "z", **kind}, dice=Scripted(faces))[0].message

    assert "on 0" in (msg := test({"characteristic": "I"}, [1])) and msg.endswith("fails")
    assert "rolls 2: fails" in test({"characteristic": "Ld"}, [1, 1])
    assert "rolls 2: passes" in test({"characteristic": "Ld", "kind": "Morale"}, [1, 1])
    assert "rolls 3: fails" in test({"characteristic": "Ld", "kind": "Morale"}, [1, 2] + [1] * 6)
