"""A judge's cases for The 9th Age, eighth round: Redirecting a Charge, the Break test's double 1, and which spells
need the Caster's sight.

The 9th Age rulebook, 2022 text (newrecruit.eu wiki, the-ninth-age-(2022)/rules/...): redirecting-a-charge (after a
Flee Charge Reaction the charger may take a Discipline test; passed, it declares a new charge at another viable
target), break-test and discipline-tests (2D6 at most the Discipline, the Break test at minus the Combat Score
difference: no automatic pass or fail), spell-type (Missile: only units in the Caster's Line of Sight; no other Type
asks for sight or the Front Arc). Each case goes through ``Game``: the legal and the illegal step, the clause cited.
"""

from __future__ import annotations

from typing import Any

import pytest

from _t9a import exact_odds_as_brute_force, refused, reloading_game, reloads, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.units import Status

CHARGE = "published.t9a-charge"
REDIRECT = "published.t9a-redirect-charge"
FLEE = "published.t9a-flee-reaction"
BREAK = "published.t9a-break-test"
TYPES = "published.t9a-spell-types"
SIGHT = "published.line-of-sight"
MAGIC = "published.t9a-magic"
GUARD = "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10"
REDIRECTED = {"do": "charge", "unit": "orcs", "target": "spears", "reaction": "flee", "redirect": "guards"}


def _guards(at: tuple[float, float], rules: list[str] | None = None) -> dict[str, Any]:
    return {"id": "guards", "rules": rules or [], "formation": {"position": list(at), "files": 5},
            "models": [{"name": f"g{i}", "profile": GUARD, "base": [20, 20], "weapons": ["bow"]} for i in range(5)]}


def _two_targets(guards_at: tuple[float, float] = (42, 20), guard_rules: list[str] | None = None, **kw: Any) -> Game:
    """The orcs (Ld 7, Advance 4) 10" from two elf units: the Spearmen with their Hero ahead and to the left, the
    Guards ahead and to the right; both in the orcs' Front Arc and sight, with a clear way to each."""
    data = scenario(phase="charge", active="orcs", enemy_y=30, **kw)
    data["sides"]["elves"][0]["formation"]["position"] = [29, 20]
    data["sides"]["elves"].append(_guards(guards_at, guard_rules))
    return reloading_game(data)


# -- 1. the plain charge cites the published charge rule --------------------------------------------------
@pytest.mark.rule(CHARGE, "t9a.charge-out.declare")
def test_a_units_charge_cites_the_published_charge_and_a_charge_out_cites_both() -> None:
    g = _two_targets()
    unit = g.check({"do": "charge", "unit": "orcs", "target": "guards"})
    assert unit.legal and CHARGE in unit.rules and "t9a.charge-out.declare" not in unit.rules
    events = g.apply({"do": "charge", "unit": "orcs", "target": "guards", "reaction": "hold"}, ScriptedDice([6, 6]))
    assert CHARGE in events[-1].rules and "t9a.charge-out.declare" not in events[-1].rules
    assert all(r.rule == CHARGE for r in events[-1].rolls)  # the Charge Range dice cite it too
    out = Game(g.state)  # the orcs are engaged now: no second charge for them
    refused(out, {"do": "charge", "unit": "orcs", "target": "spears"}, CHARGE, "engaged")


# -- 2. Redirecting a Charge ------------------------------------------------------------------------------
@pytest.mark.rule(REDIRECT, FLEE, CHARGE)
def test_a_charger_whose_target_flees_redirects_on_a_passed_discipline_test() -> None:
    g = _two_targets()
    before = g.state
    ruling = g.check(REDIRECTED)
    assert ruling.legal and REDIRECT in ruling.rules and "Discipline test to redirect its charge to guards" in \
        ruling.reason
    # the Spearmen flee 3 + 3 = 6"; the orcs test on Ld 7: 2 + 3 = 5 passes; 6 + 6 = 16" reaches the Guards
    events = g.apply(REDIRECTED, ScriptedDice([3, 3, 2, 3, 6, 6]))
    assert [e.kind for e in events] == ["flee", "redirect", "charge"]
    redirect, charge = events[1], events[2]
    assert dict(redirect.data)["outcome"] == "redirected" and REDIRECT in redirect.rules
    assert "Ld 7" in redirect.message and [r.value for r in redirect.rolls] == [5]
    assert dict(charge.data)["outcome"] == "charged" and "orcs charges guards" in charge.message
    assert [r.value for r in charge.rolls] == [6, 6]  # the flee and the test are on their own events
    assert g.state.unit("guards").has(Status.ENGAGED) and g.state.unit("orcs").has(Status.ENGAGED)
    assert g.state.unit("spears").has(Status.FLEEING) and not g.state.unit("spears").has(Status.ENGAGED)
    reloads(g)
    g.undo()
    assert g.state is before


@pytest.mark.rule(REDIRECT, FLEE)
def test_a_failed_discipline_test_leaves_the_charge_on_the_unit_that_fled() -> None:
    g = _two_targets()
    y0 = g.state.unit("orcs").formation.position[1]  # type: ignore[union-attr]
    # flee 6"; the test: 6 + 5 = 11 fails on Ld 7; 16" does not reach the Spearmen 16.3" away now: a failed charge
    events = g.apply(REDIRECTED, ScriptedDice([3, 3, 6, 5, 6, 6]))
    assert [e.kind for e in events] == ["flee", "redirect", "charge"]
    assert dict(events[1].data)["outcome"] == "failed" and "it charges spears still" in events[1].message
    assert dict(events[2].data)["outcome"] == "failed_left" and "published.t9a-failed-charge" in events[2].rules
    assert not g.state.unit("guards").has(Status.ENGAGED)
    assert g.state.unit("orcs").formation.position[1] < y0  # type: ignore[union-attr]  # towards the Spearmen


@pytest.mark.rule(REDIRECT)
def test_a_redirect_needs_a_flee_and_another_viable_unit() -> None:
    g = _two_targets()
    refused(g, {**REDIRECTED, "reaction": "hold"}, REDIRECT, "only when spears Flees")
    refused(g, {**REDIRECTED, "redirect": "spears"}, REDIRECT, "not to spears again")
    refused(g, {**REDIRECTED, "redirect": "hero"}, REDIRECT, "hero is part of spears")
    # a wheel the charge itself could make (session 48: a 10 degree wheel, named until then, brings the orcs' front
    # onto no Spearman, refused as a charge before the redirect is read; the least that does is -15)
    assert g.check({k: v for k, v in REDIRECTED.items() if k not in ("reaction", "redirect")} | {"wheel": -15}).legal
    # round 55: a wheel named with a redirect is the Charge Move's at the unit declared (until then refused, "declare
    # no wheel with a redirect", a bar no text makes); the redirected charge makes its own
    ruling = g.check({**REDIRECTED, "wheel": -15})
    assert ruling.legal and any("the new charge at guards makes its own" in n for n in ruling.notes), ruling
    # guards whose rules do not list Stand and Shoot may still take it when named (session 24; before, refused)
    assert g.check({**REDIRECTED, "redirect_reaction": "stand_and_shoot"}).legal
    assert g.check({**REDIRECTED, "redirect_reaction": "hold"}).legal
    far = _two_targets(guards_at=(56, 27))  # to the orcs' side, out of their Front Arc
    refused(far, REDIRECTED, REDIRECT, "not in orcs's Front Arc")
    fleeing = Game(g.state.replace_unit(g.state.unit("guards").with_status(Status.FLEEING)))
    refused(fleeing, {**REDIRECTED, "redirect_reaction": "hold"}, FLEE, "guards is fleeing")  # it must Flee again


@pytest.mark.rule(REDIRECT, "published.t9a-stand-and-shoot")
def test_the_new_target_chooses_its_charge_reaction_as_normal() -> None:
    g = _two_targets(guard_rules=["Stand and Shoot"])
    assert g.check({**REDIRECTED, "redirect_reaction": "stand_and_shoot"}).legal
    # flee 6"; test 5 passes; the Guards Stand and Shoot: 5 bows (BS4, -1, Long Range -1 more: 5+) all miss
    events = g.apply({**REDIRECTED, "redirect_reaction": "stand_and_shoot"}, ScriptedDice([3, 3, 2, 3] + [1] * 5
                                                                                      + [6, 6]))
    charge = events[-1]
    assert "published.t9a-stand-and-shoot" in charge.rules and "guards stood and shot" in charge.message
    g.undo()
    events = g.apply({**REDIRECTED, "redirect_reaction": "hold"}, ScriptedDice([3, 3, 2, 3, 6, 6]))
    assert "guards holds" in events[-1].message and dict(events[-1].data)["outcome"] == "charged"


@pytest.mark.rule(REDIRECT, "core.test.leadership")
def test_the_exact_odds_of_a_redirected_charge_match_brute_force() -> None:
    g = _two_targets()
    state = g.state
    weights = exact_odds_as_brute_force(state, REDIRECTED)
    redirected = sum((p for o, p in weights if "redirect.outcome: redirected" in o.labels()), 0)
    assert redirected == pytest.approx(21 / 36)  # 2D6 at most Ld 7


# -- 3. the Break test: a double 1 is only a total of 2 ---------------------------------------------------------
def _lost_by_five(ld: int) -> Game:
    """The orcs win a round against lone Spearmen by 5 (five slain, nothing back): the Spearmen test at -5."""
    profile = f"WS4 BS4 S3 T3 W1 I5 A1 Ld{ld} Sv5+ Adv5 Mar10"
    data = scenario(phase="melee", active="orcs", enemy_y=20, joined=False, spear_profile=profile,
                    spear_status=["engaged"], orc_status=["engaged"])
    return reloading_game(data)


# the spearmen's 5 attacks in contact and 5 supporting miss (1s); the orcs' 5 hit (6s), wound (6s), saves fail (1s)
ROUND = [1] * 10 + [6] * 5 + [6] * 5 + [1] * 5


@pytest.mark.rule(BREAK, "core.test.leadership")
def test_a_double_one_does_not_pass_a_break_test_whose_discipline_is_below_two() -> None:
    g = _lost_by_five(6)  # Ld 6 - 5 = 1: no roll passes, a double 1 (2) included: no Insane Courage
    events = g.apply({"do": "fight", "unit": "orcs"}, ScriptedDice(ROUND + [1, 1] + [1, 1] + [6, 6]))
    brk = events[-1]
    assert brk.kind == "break" and "-5: 2" in brk.message and BREAK in brk.rules
    assert dict(brk.data)["outcome"] in ("fled", "destroyed")
    held = _lost_by_five(7)  # Ld 7 - 5 = 2: the same double 1 passes, as any total of 2 would
    events = held.apply({"do": "fight", "unit": "orcs"}, ScriptedDice(ROUND + [1, 1]))
    assert events[-1].kind == "combat" and dict(events[-1].data)["outcome"] == "held" and "-5: 2, holds" in \
        events[-1].message


# -- 4. only a Missile spell needs the Caster's sight and Front Arc -----------------------------------------------
def _wizard_and_targets(behind: bool) -> dict[str, Any]:
    """The Spearmen's Hero, a Wizard Adept knowing Fireball (Hex, Missile) and Spectral Blades (Hex); the orcs 10"
    ahead behind a wall of blocking terrain, or 10" behind the Spearmen (outside their Front Arc)."""
    data = scenario(phase="magic", active="elves", enemy_y=10 if behind else 30,
                    extra={"magic_dice": {"elves": 6, "orcs": 4}})
    hero = data["sides"]["elves"][1]
    hero["rules"], hero["spells"] = ["Wizard Adept"], ["Fireball", "Spectral Blades"]
    if behind:
        data["sides"]["orcs"][0]["formation"]["facing"] = 0
    else:
        data["terrain"] = [{"id": "wall", "kind": "blocking", "polygon": [[20, 24], [52, 24], [52, 25], [20, 25]]}]
    return data


@pytest.mark.rule(TYPES, SIGHT, MAGIC)
def test_a_hex_spell_is_cast_at_a_unit_out_of_sight_but_a_missile_is_not() -> None:
    g = reloading_game(_wizard_and_targets(behind=False))
    missile = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    refused(g, missile, TYPES, "Fireball is a Missile spell: hero (the Caster's own model) cannot see orcs")
    hex_ = g.check({**missile, "spell": "Spectral Blades"})
    assert hex_.legal and MAGIC in hex_.rules and SIGHT not in hex_.rules
    # 3 + 3 + 1 (Adept) = 7 casts it (6+); 2D6 = 2 hits of Strength 2, both failing to wound the T4 orcs (6+)
    events = g.apply({**missile, "spell": "Spectral Blades"}, ScriptedDice([3, 3, 1, 1, 1, 1]))
    assert "hero casts Spectral Blades" in events[0].message


@pytest.mark.rule(TYPES, SIGHT, MAGIC)
def test_a_hex_spell_is_cast_behind_the_casters_unit_but_a_missile_is_not() -> None:
    g = reloading_game(_wizard_and_targets(behind=True))
    missile = {"do": "cast", "unit": "hero", "spell": "Fireball", "target": "orcs", "dice": 2}
    refused(g, missile, TYPES, "not in spears's Front Arc")
    assert g.check({**missile, "spell": "Spectral Blades"}).legal
    refused(g, {**missile, "spell": "Spectral Blades", "target": "spears"}, MAGIC, "not a living enemy")


# -- 5. a character charging out whose target flees, redirected, then his unit -------------------------------------
@pytest.mark.rule(REDIRECT, "t9a.charge-out.declare", "t9a.charge-out.success", "t9a.charge-out.no-other-charges")
def test_a_character_charging_out_redirects_on_his_own_discipline_and_his_unit_charges_no_more() -> None:
    data = scenario(phase="charge", active="elves", enemy_y=28)
    data["sides"]["orcs"][0]["formation"]["position"] = [32, 28]
    data["sides"]["orcs"].append({"id": "brutes", "formation": {"position": [40, 28], "facing": 180, "files": 5},
                                  "models": [{"name": f"b{i}", "profile": "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8",
                                              "base": [25, 25]} for i in range(5)]})
    g = reloading_game(data)
    out = {"do": "charge", "unit": "hero", "target": "orcs", "reaction": "flee", "redirect": "brutes"}
    ruling = g.check(out)
    assert ruling.legal and {REDIRECT, CHARGE, "t9a.charge-out.declare"} <= set(ruling.rules)
    # the orcs flee 6"; the Hero tests on his own Ld 9 (the Spearmen's 8 is not his): 4 + 4 = 8 passes
    events = g.apply(out, ScriptedDice([3, 3, 4, 4, 6, 6]))
    assert "Ld 9, Hero" in events[1].message and dict(events[1].data)["outcome"] == "redirected"
    charge = events[2]
    assert "hero charges brutes" in charge.message and "t9a.charge-out.success" in charge.rules
    assert g.state.unit("hero").joined is None and g.state.unit("brutes").has(Status.ENGAGED)
    refused(g, {"do": "charge", "unit": "spears", "target": "brutes"}, "t9a.charge-out.no-other-charges",
            "cannot declare a charge")
    reloads(g)
