"""Shooting, psychic powers, assaults, close combat and morale in 40k3/40k4, and the odds of whole actions."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from _cli import result_of, run
from herohammer import odds
from herohammer.action_odds import action_odds, wilson
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import IllegalActionError
from herohammer.rulesets import get_ruleset
from herohammer.scenario import load_scenario, state_from_data, state_to_data
from herohammer.state import GameState
from herohammer.units import Status

ROOT = Path(__file__).resolve().parents[1]
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"


def model(name: str, profile: str, x: float, y: float, weapons: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "profile": profile, "base": 25, "at": [x, y], "weapons": weapons or []}


def scenario(ruleset: str, phase: str, red: list[dict[str, Any]], blue: list[dict[str, Any]], **extra: Any) -> GameState:
    data = {"ruleset": ruleset, "phase": phase, "active": "red", "sides": {"red": red, "blue": blue}, **extra}
    return state_from_data(data)


def squad(uid: str, n: int, y: float, profile: str = MARINE, weapons: list[str] | None = None, x0: float = 20) -> dict[str, Any]:
    return {"id": uid, "models": [model(f"{uid} {i}", profile, x0 + 2 * i, y, weapons) for i in range(n)]}


def char(uid: str, profile: str, x: float, y: float, weapons: list[str] | None = None, joined: str | None = None,
         rules: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "character": "independent", "models": [model(uid.title(), profile, x, y, weapons)]}
    if joined:
        out["joined"] = joined
    if rules:
        out["rules"] = rules
    return out


def resolve(state: GameState, action: dict[str, Any], dice: Any) -> tuple[GameState, list[Any]]:
    rs = get_ruleset(state.ruleset)
    act = parse_action(action)
    ruling = rs.rule_on(state, act)
    assert ruling.legal, ruling
    return rs.resolve(state, act, dice)


def ruling(state: GameState, action: dict[str, Any]) -> Any:
    return get_ruleset(state.ruleset).rule_on(state, parse_action(action))


# == shooting =========================================================================
@pytest.mark.rule("40k3.char.shooting-dice", "core.zero.bs")
def test_character_with_different_weapon_rolls_apart_in_40k3() -> None:
    red = [squad("tac", 3, 20, weapons=["storm bolter"]),
           char("capt", "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+", 28, 20, ["plasma pistol"], joined="tac")]
    state = scenario("40k3", "shooting", red, [squad("boyz", 5, 28, BOY)])
    dice = SeededDice(1)
    _, events = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, dice)
    purposes = [r.purpose for r in dice.log]
    assert any(p.startswith("Capt (plasma pistol, BS5): to hit (2+)") for p in purposes)
    assert any(p.startswith("3 models (storm bolter, BS4): to hit (3+)") for p in purposes)
    rules = {r.rule for r in dice.log}
    assert "40k3.char.shooting-dice" in rules


@pytest.mark.rule("40k4.shoot.separate-dice")
def test_character_with_same_weapon_and_bs_pools_but_different_bs_separates_in_40k4() -> None:
    same = [squad("tac", 3, 20, weapons=["storm bolter"]),
            char("vet", MARINE, 28, 20, ["storm bolter"], joined="tac")]
    dice = SeededDice(2)
    resolve(scenario("40k4", "shooting", same, [squad("boyz", 5, 28, BOY)]),
            {"do": "shoot", "unit": "tac", "target": "boyz"}, dice)
    assert [r.rule for r in dice.log][0] == "published.to-hit-bs"
    assert dice.log[0].request == "8D6 3+"  # 4 models x 2 shots, one pool
    differ = [squad("tac", 3, 20, weapons=["storm bolter"]),
              char("capt", "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+", 28, 20, ["storm bolter"], joined="tac")]
    dice = SeededDice(2)
    resolve(scenario("40k4", "shooting", differ, [squad("boyz", 5, 28, BOY)]),
            {"do": "shoot", "unit": "tac", "target": "boyz"}, dice)
    assert "40k4.shoot.separate-dice" in {r.rule for r in dice.log}


@pytest.mark.rule("40k4.shoot.same-target")
def test_joined_character_fires_at_its_units_target() -> None:
    red = [squad("tac", 3, 20, weapons=["bolter"]), char("capt", MARINE, 28, 20, ["bolter"], joined="tac")]
    state = scenario("40k4", "shooting", red, [squad("boyz", 5, 28, BOY)])
    refused = ruling(state, {"do": "shoot", "unit": "capt", "target": "boyz"})
    assert not refused.legal and "40k4.shoot.same-target" in refused.rules
    new, events = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, SeededDice(3))
    assert "40k4.shoot.same-target" in events[0].rules
    assert new.unit("capt").has(Status.SHOT) and new.unit("tac").has(Status.SHOT)


@pytest.mark.rule("core.zero.s", "core.zero.t", "core.zero.w")
def test_shooting_wounds_by_strength_against_toughness_and_removes_casualties() -> None:
    state = scenario("40k3", "shooting", [squad("tac", 1, 20, weapons=["lascannon"])],
                     [squad("boyz", 2, 30, BOY)])
    # hit 3+ (6), wound S9 vs T4 2+ (2): no save against AP2 -> one Boy slain
    new, events = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, ScriptedDice([6, 2, 1, 1, 1, 1]))
    assert len(new.unit("boyz").models) == 1
    assert any(e.kind == "casualties" for e in events)


@pytest.mark.rule("core.zero.bs")
def test_bs0_model_does_not_shoot() -> None:
    state = scenario("40k3", "shooting", [squad("gretchin", 1, 20, "WS2 BS0 S2 T2 W1 I3 A1 Ld5", ["bolter"])],
                     [squad("boyz", 2, 30, BOY)])
    assert not ruling(state, {"do": "shoot", "unit": "gretchin", "target": "boyz"}).legal


@pytest.mark.rule("published.wound-allocation", "40k4.target.joined")
def test_shooting_wounds_go_one_a_model_the_boy_first_then_the_nob() -> None:
    """One wound to each model before any takes a second: the Boy's and the Nob's (the unit's excess would fall on
    the Nob in shooting since session 32: 40k4.cc.no-carry-over is close combat's)."""
    red = [squad("tac", 2, 20, weapons=["lascannon"])]
    # (the Nob of T5: a lascannon's S9 is not double it, so no Instant Death: published.instant-death)
    blue = [squad("boyz", 1, 30, BOY), char("nob", "WS4 BS2 S4 T5 W2 I3 A3 Ld7 Sv6+", 22, 30, joined="boyz")]
    state = scenario("40k4", "shooting", red, blue)
    # two hits, two wounds: one allocated to the Boy, one to the Nob (one per model first)
    new, _ = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, ScriptedDice([6, 6, 2, 2, 1, 1, 1, 1]))
    assert not new.unit("boyz").alive and new.unit("nob").models[0].wounds_taken == 1
    # one wound only: the Boy takes it, the Nob is untouched
    new, _ = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, ScriptedDice([6, 1, 2, 1, 1, 1, 1]))
    assert not new.unit("boyz").alive and new.unit("nob").models[0].wounds_taken == 0


# == psychic powers ======================================================================
PSYKER = "WS5 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+"


def psychic_state(ruleset: str = "40k3", phase: str = "shooting", distance: float = 8) -> GameState:
    return scenario(ruleset, phase, [char("lib", PSYKER, 20, 20, rules=["psyker"])],
                    [squad("boyz", 3, 20 + distance, BOY)])


@pytest.mark.rule("40k3.psyker.test")
def test_manifest_needs_a_psyker_one_power_a_turn_and_the_right_phase() -> None:
    state = psychic_state()
    good = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"}
    assert ruling(state, good).legal
    assert "40k3.psyker.test" in ruling(state, {**good, "power": "Nope"}).rules
    used = state.replace_unit(state.unit("lib").with_status(Status.USED_POWER))
    r = ruling(used, good)
    assert not r.legal and "never more than one" in r.reason
    r = ruling(psychic_state(phase="assault"), good)
    assert not r.legal and "shooting phase" in r.reason
    new, events = resolve(state, good, ScriptedDice([5, 6, 1, 1, 1, 1]))  # 11 > 9: failed, no power
    assert not any(e.kind == "power_used" for e in events) and new.unit("lib").has(Status.USED_POWER)


@pytest.mark.rule("40k3.psyker.as-shooting")
def test_psychic_shooting_attack_needs_range_and_sight() -> None:
    r = ruling(psychic_state(distance=20), {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"})
    assert not r.legal and "40k3.psyker.as-shooting" in r.rules and "range" in r.reason
    blocked = state_from_data({**state_to_data(psychic_state()), "terrain": [
        {"id": "wall", "kind": "blocking", "polygon": [[10, 23], [40, 23], [40, 25], [10, 25]]}]})
    r = ruling(blocked, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"})
    assert not r.legal and "line of sight" in r.reason


@pytest.mark.rule("40k3.psyker.perils")
def test_perils_on_12_wounds_with_no_save() -> None:
    # 6+6 = 12: failed and perils; S6 hit, to wound 2+ (roll 3): the W1 psyker dies, no power
    new, events = resolve(psychic_state(), {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                          ScriptedDice([6, 6, 6, 3]))
    assert not new.unit("lib").alive
    assert any(e.kind == "perils" for e in events) and not any(e.kind == "power_used" for e in events)


@pytest.mark.rule("40k3.psyker.perils-on-2")
def test_on_a_2_the_power_is_used_even_if_the_psyker_dies() -> None:
    new, events = resolve(psychic_state(), {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"},
                          ScriptedDice([1, 1, 6, 3, 6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1]))
    assert not new.unit("lib").alive
    used = [e for e in events if e.kind == "power_used"]
    assert used and "40k3.psyker.perils-on-2" in used[0].rules
    assert not new.unit("boyz").alive


@pytest.mark.rule("40k3.psyker.test", "40k3.psyker.perils", "40k3.psyker.perils-on-2")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_action_odds_of_one_psychic_test_agree_with_psychic_odds(ruleset: str) -> None:
    state = scenario(ruleset, "shooting", [char("lib", PSYKER, 20, 20, rules=["psyker"])],
                     [squad("boyz", 3, 30, BOY)])
    answer = action_odds(state, {"do": "manifest", "psyker": "lib", "power": "Fear of the Darkness", "target": "boyz"})
    assert answer.exact
    expected = odds.psychic_odds(9, 4, 1, ruleset)
    assert answer.probability(lambda o: "power_used" in o.events).p == expected["power_used"]
    assert answer.probability(lambda o: "perils" in o.events).p == expected["perils"]
    assert answer.probability(lambda o: o.lost("lib") == 1).p == expected["psyker_slain"]


# == exact odds of a whole shooting action, against brute force ===========================
def brute_force_shooting(shots: int, hit: int, wound: int, save: int | None, models: int) -> dict[int, Fraction]:
    """Walk every die one by one (each succeeds or fails with its own chance): the models slain (W1 models)."""
    def p(target: int) -> Fraction:
        return Fraction(7 - target, 6)

    out: Counter[int] = Counter()
    for hit_dice in itertools.product((True, False), repeat=shots):
        p_hits = Fraction(1)
        for ok in hit_dice:
            p_hits *= p(hit) if ok else 1 - p(hit)
        hits = sum(hit_dice)
        for wound_dice in itertools.product((True, False), repeat=hits):
            p_w = p_hits
            for ok in wound_dice:
                p_w *= p(wound) if ok else 1 - p(wound)
            wounds = sum(wound_dice)
            for save_dice in itertools.product((True, False), repeat=wounds if save else 0):
                p_s = p_w
                for ok in save_dice:
                    p_s *= p(save or 7) if ok else 1 - p(save or 7)
                out[min(wounds - sum(save_dice), models)] += p_s
    assert sum(out.values()) == 1
    return {k: v for k, v in out.items() if v}


@pytest.mark.rule("core.zero.s", "core.zero.w", "40k4.shoot.separate-dice")
def test_exact_odds_of_shooting_equal_brute_force() -> None:
    # 2 storm bolters (4 shots, BS4 3+), S4 vs T3 3+, Sv4+ against AP5 ... AP5 ignores 5+ only: save 4+ stands
    red = [squad("tac", 2, 20, weapons=["storm bolter"])]
    blue = [squad("guard", 3, 28, "WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv4+")]
    state = scenario("40k4", "shooting", red, blue)
    answer = action_odds(state, {"do": "shoot", "unit": "tac", "target": "guard"})
    assert answer.exact
    got = {k: answer.probability(lambda o, k=k: o.lost("guard") == k).p for k in range(4)}
    expected = brute_force_shooting(4, 3, 3, 4, 3)
    assert {k: v for k, v in got.items() if v} == expected


def test_monte_carlo_names_its_method_and_interval() -> None:
    red = [squad("tac", 2, 20, weapons=["storm bolter"])]
    state = scenario("40k4", "shooting", red, [squad("guard", 3, 28, "WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv4+")])
    answer = action_odds(state, {"do": "shoot", "unit": "tac", "target": "guard"}, max_runs=2, runs=400, seed=5)
    assert not answer.exact and "Monte Carlo" in answer.method and "95%" in answer.method
    est = answer.probability(lambda o: o.lost("guard") == 0)
    assert est.low is not None and est.high is not None and est.low <= float(est.p) <= est.high
    lo, hi = wilson(50, 100)
    assert 0.40 < lo < 0.5 < hi < 0.6


def test_action_odds_refuses_illegal_actions() -> None:
    state = psychic_state(distance=20)
    with pytest.raises(IllegalActionError, match="40k3.psyker.as-shooting"):
        action_odds(state, {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "boyz"})


# == assault ===========================================================================
@pytest.mark.rule("40k3.ic.assault-alone")
def test_lone_character_assaults_within_6_or_12_if_cavalry() -> None:
    near = scenario("40k3", "assault", [char("capt", MARINE, 20, 20)], [squad("boyz", 2, 26, BOY)])
    far = scenario("40k3", "assault", [char("capt", MARINE, 20, 20)], [squad("boyz", 2, 30, BOY)])
    act = {"do": "assault", "unit": "capt", "target": "boyz"}
    assert ruling(near, act).legal and "40k3.ic.assault-alone" in ruling(near, act).rules
    r = ruling(far, act)
    assert not r.legal and "40k3.ic.assault-alone" in r.rules
    bike = {**char("capt", MARINE, 20, 20), "type": "cavalry"}
    assert ruling(scenario("40k3", "assault", [bike], [squad("boyz", 2, 30, BOY)]), act).legal


@pytest.mark.rule("40k4.assault.alone")
def test_40k4_lone_character_charges_if_within_range() -> None:
    act = {"do": "assault", "unit": "capt", "target": "boyz"}
    ok = scenario("40k4", "assault", [char("capt", MARINE, 20, 20)], [squad("boyz", 2, 26, BOY)])
    assert ruling(ok, act).legal and "40k4.assault.alone" in ruling(ok, act).rules
    new, _ = resolve(ok, act, SeededDice(1))
    assert new.unit("capt").has(Status.LOCKED) and new.unit("boyz").has(Status.LOCKED)
    far = scenario("40k4", "assault", [char("capt", MARINE, 20, 20)], [squad("boyz", 2, 27.5, BOY)])
    assert not ruling(far, act).legal


@pytest.mark.rule("40k3.char.must-assault", "40k4.assault.must-charge", "40k4.cc.locked")
@pytest.mark.parametrize("ruleset,rule", [("40k3", "40k3.char.must-assault"), ("40k4", "40k4.assault.must-charge")])
def test_joined_character_assaults_with_its_unit(ruleset: str, rule: str) -> None:
    red = [squad("tac", 3, 20), char("capt", MARINE, 26, 20, joined="tac")]
    state = scenario(ruleset, "assault", red, [squad("boyz", 3, 24, BOY)])
    r = ruling(state, {"do": "assault", "unit": "capt", "target": "boyz"})
    assert not r.legal and rule in r.rules
    new, events = resolve(state, {"do": "assault", "unit": "tac", "target": "boyz"}, SeededDice(1))
    assert new.unit("capt").has(Status.LOCKED) and new.unit("capt").has(Status.CHARGED)
    assert rule in events[0].rules


# == close combat ========================================================================
def combat_state(ruleset: str, chaplain_in_contact: bool = True) -> GameState:
    """A Chaplain and 2 Marines in base contact with 3 Boyz (25mm bases: 0.984" apart is contact)."""
    gap = 25 / 25.4
    red = [{"id": "sq", "status": ["locked"], "models": [model("M1", MARINE, 20, 20), model("M2", MARINE, 22, 20)]},
           {**char("chap", "WS5 BS5 S4 T4 W2 I4 A2 Ld10 Sv3+", 24 if chaplain_in_contact else 24, 20 if chaplain_in_contact
                   else 18, ["crozius arcanum"], joined="sq"), "status": ["locked"]}]
    blue = [{"id": "boyz", "status": ["locked"],
             "models": [model("B1", BOY, 20, 20 + gap), model("B2", BOY, 22, 20 + gap), model("B3", BOY, 24, 20 + gap)]}]
    return scenario(ruleset, "assault", red, blue)


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only")
@pytest.mark.parametrize(("ruleset", "split", "engaged"), [
    ("40k3", "40k3.char.attack-allocation", "40k3.char.allocation-b2b-only"),
    ("40k4", "40k4.cc.engaged-only", "40k4.cc.engaged-only"),  # each edition cites its own clause
])
def test_character_splits_attacks_only_onto_models_in_base_contact(ruleset: str, split: str, engaged: str) -> None:
    state = combat_state(ruleset)
    ok = ruling(state, {"do": "allocate", "character": "chap", "attacks": {"B3": 2}})
    assert ok.legal and split in ok.rules
    r = ruling(state, {"do": "allocate", "character": "chap", "attacks": {"B1": 1}})
    assert not r.legal and engaged in r.rules
    r = ruling(state, {"do": "allocate", "character": "chap", "attacks": {"B3": 5}})
    assert not r.legal and split in r.rules
    r = ruling(state, {"do": "allocate", "character": "sq", "attacks": {"B1": 1}})
    assert not r.legal and split in r.rules
    other = "40k4." if ruleset == "40k3" else "40k3."
    assert not any(x.startswith(other) for x in ok.rules + r.rules)
    new, _ = resolve(state, {"do": "allocate", "character": "chap", "attacks": {"B3": 2}}, SeededDice(0))
    dice = SeededDice(4)
    resolve(new, {"do": "fight", "unit": "sq"}, dice)
    assert any(r.purpose.startswith("Chap (split): to hit") and r.rule == split for r in dice.log)


@pytest.mark.rule("40k4.cc.base-contact", "40k4.cc.separate-unit", "core.zero.ws", "core.zero.a")
def test_character_fights_only_in_base_contact_in_40k4() -> None:
    state = combat_state("40k4", chaplain_in_contact=False)  # within 2" of M2 (in contact) but not touching
    dice = SeededDice(1)
    _, events = resolve(state, {"do": "fight", "unit": "sq"}, dice)
    assert not any("Chap" in r.purpose for r in dice.log)
    assert any(r.purpose.startswith("sq: to hit") for r in dice.log)
    # a lone character out of base contact is refused by the character clause; a squad by the published rule
    alone = ruling(scenario("40k4", "assault", [char("chap", MARINE, 20, 20)], [squad("boyz", 1, 30, BOY)]),
                   {"do": "fight", "unit": "chap"})
    assert not alone.legal and "40k4.cc.base-contact" in alone.rules
    plain = ruling(scenario("40k4", "assault", [squad("sq", 1, 20)], [squad("boyz", 1, 30, BOY)]),
                   {"do": "fight", "unit": "sq"})
    assert not plain.legal and plain.rules == ("published.close-combat",)


@pytest.mark.rule("40k4.cc.no-carry-over", "40k4.cc.separate-unit", "40k4.cc.engaged-only")
def test_wounds_on_the_unit_never_carry_over_onto_the_character_in_combat() -> None:
    state = combat_state("40k4")
    ruleset = get_ruleset("40k4")
    act = parse_action({"do": "fight", "unit": "sq"})
    for seed in range(30):
        new, events = ruleset.resolve(state, act, SeededDice(seed))
        chap_hits = sum(r.value for r in SeededDice(0).log)
        # only B3 touches the Chaplain: at most its 2 attacks can wound him
        attacks_on_chap = [e for e in events if e.kind == "attacks" and "chap" in e.message and e.message.startswith("boyz")]
        assert all("(2)" in e.message for e in attacks_on_chap)
        if new.has_unit("chap") and new.unit("chap").alive:
            assert new.unit("chap").models[0].wounds_taken <= 2 + chap_hits


@pytest.mark.rule("40k3.ic.no-last-man", "40k4.char.no-last-man", "40k3.char.leadership")
def test_last_man_standing_is_not_taken_by_characters_but_by_a_lone_trooper() -> None:
    red = [squad("tac", 2, 20, weapons=["lascannon"])]
    blue = [squad("boyz", 1, 30, BOY), char("nob", "WS4 BS2 S4 T4 W2 I3 A3 Ld7 Sv6+", 22, 30, joined="boyz")]
    for rs in ("40k3", "40k4"):
        state = scenario(rs, "shooting", red, blue)
        # one wound: the Boy dies, the Nob is the last model - a character takes no Last Man Standing
        new, events = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"},
                              ScriptedDice([6, 1, 2, 1, 1, 1, 1, 1, 1]))
        lms = [e for e in events if e.kind == "last_man"]
        assert lms and not any(e.kind == "morale" for e in events)
    state = scenario("40k3", "shooting", red, [squad("boyz", 2, 30, BOY)])
    new, events = resolve(state, {"do": "shoot", "unit": "tac", "target": "boyz"}, ScriptedDice([6, 1, 2, 6, 6, 3, 3]))
    morale = [e for e in events if e.kind == "morale"]
    assert morale and "Last Man Standing" in morale[0].message and new.unit("boyz").has(Status.FALLING_BACK)


@pytest.mark.rule("40k4.char.leadership", "core.test.leadership")
def test_losing_a_combat_tests_on_the_characters_leadership_with_the_margin_in_40k4() -> None:
    state = combat_state("40k4")
    ruleset = get_ruleset("40k4")
    act = parse_action({"do": "fight", "unit": "boyz"})
    seen = False
    for seed in range(40):
        _, events = ruleset.resolve(state, act, SeededDice(seed))
        for e in events:
            if e.kind == "morale" and e.message.startswith("sq"):
                assert "Ld 10" in e.message and "40k4.char.leadership" in e.rules
                seen = True
    assert seen


# == play and odds action on the command line ===========================================
def test_play_prints_every_roll_and_writes_the_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    code, text, err = run(["play", str(ROOT / "examples/40k3_librarian_psychic.yaml"), "--seed", "3",
                           "--action", '{"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}',
                           "--action", '{"do": "end_phase"}', "--out", str(out)], capsys)
    assert code == 0, err
    assert "psychic test (Ld 10): 2D6" in text and "(40k3.psyker.test)" in text
    state = load_scenario(out)
    assert state.phase.value == "assault" and state.weapons  # the scenario's own weapons round-trip
    again = tmp_path / "again.yaml"
    run(["play", str(out), "--action", '{"do": "end_phase"}', "--out", str(again)], capsys)
    assert load_scenario(again).active == "orks"


def test_play_illegal_action_is_one_line_exit_2_and_writes_nothing(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "after.yaml"
    code, _, err = run(["play", str(ROOT / "examples/40k4_lone_character_shot.yaml"),
                        "--action", '{"do": "assault", "unit": "tactical", "target": "lord"}', "--out", str(out)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    code, _, err = run(["play", str(ROOT / "examples/40k4_lone_character_shot.yaml"),
                        "--action", '{"do": "end_phase"}',
                        "--action", '{"do": "manifest", "psyker": "tactical", "power": "Smite", "target": "lord"}',
                        "--out", str(out)], capsys)
    assert code == 2 and "published.40k4-psychic-test" in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.rule("40k4.target.closest")
def test_odds_action_cli_exact_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    scen = str(ROOT / "examples/40k4_lone_character_shot.yaml")
    code, out, err = run(["odds", "action", scen, "--action", '{"do": "shoot", "unit": "tactical", "target": "lord"}',
                          "--json"], capsys)
    assert code == 0, err
    data = result_of(out)
    assert data["exact"] and data["method"].startswith("exact")
    for count in ("lord: models lost = ", "lord: wounds lost = "):  # each a whole distribution (his wounds too)
        assert sum(Fraction(v) for k, v in data["rows"].items() if k.startswith(count)) == 1
    code, out, err = run(["odds", "action", scen, "--action", '{"do": "manifest", "psyker": "tactical", "power": "Smite", '
                          '"target": "lord"}'], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "published.40k4-psychic-test" in err
    code, out, err = run(["odds", "action", scen, "--action", '{"do": "shoot", "unit": "tactical", "target": "lord"}',
                          "--max-branches", "1", "--runs", "200"], capsys)
    assert code == 0 and "Monte Carlo" in out and "95% CI" in out
