"""A 40k player names the weapon a unit fires (``shoot``'s ``weapon`` field; published.weapon-profiles).

Each model fires one weapon: the one named if it carries it and can fire it, else its first listed that can
(session 25: before, 40k refused the field as The 9th Age's, and a squad of boltguns and bolt pistols always fired the
boltguns, so it could never fire its pistols and assault, published.assault-after-firing).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer.action_odds import action_odds
from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario

SHOOT = {"do": "shoot", "unit": "tac", "target": "boyz"}


def armed_squad(ruleset: str, moved: bool = False, boyz_y: float = 26.0) -> dict[str, Any]:
    """Three Marines with boltgun and bolt pistol (boltgun listed first) and a Captain with a heavy bolter joined to
    them, 6" from three Boyz; red's Shooting phase."""
    tac = {"id": "tac", "status": ["moved"] if moved else [],
           "models": [{**model(f"M{i}", 20 + 2 * i, 20), "weapons": ["bolter", "bolt pistol"]} for i in range(3)]}
    cap = hero("cap", 26, 20, joined="tac", status=["moved"] if moved else [])
    cap["models"][0]["weapons"] = ["heavy bolter", "bolt pistol"]
    boyz = {"id": "boyz", "models": [model(f"B{i}", 20 + 2 * i, boyz_y, 7) for i in range(3)]}
    return scenario(ruleset, [tac, cap], [boyz], phase="shooting")


def shots_said(g: Game, action: dict[str, Any]) -> list[str]:
    """Apply the volley with every die a 1 and return its shots events' words."""
    return [e.message for e in g.apply(action, dice=ScriptedDice([1] * 60)) if e.kind == "shots"]


@pytest.mark.rule("published.weapon-profiles", "published.shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_named_weapon_is_fired_by_every_model_that_carries_it(ruleset: str) -> None:
    """Unnamed, each model fires its first listed weapon that can (the boltguns, the heavy bolter); the bolt pistol
    named for the unit, every model carrying one fires it; named for a member alone, only that member's models."""
    assert shots_said(game(armed_squad(ruleset)), SHOOT) == [
        "3 models fire 6 shots with bolter: 0 hits, 0 wounds", "Cap fires 3 shots with heavy bolter: 0 hits, 0 wounds"]
    assert shots_said(game(armed_squad(ruleset)), {**SHOOT, "weapon": "Bolt Pistol"}) == [
        "3 models fire 3 shots with bolt pistol: 0 hits, 0 wounds", "Cap fires 1 shot with bolt pistol: 0 hits, 0 wounds"]
    assert shots_said(game(armed_squad(ruleset)), {**SHOOT, "weapon": {"cap": "bolt pistol"}}) == [
        "3 models fire 6 shots with bolter: 0 hits, 0 wounds", "Cap fires 1 shot with bolt pistol: 0 hits, 0 wounds"]


@pytest.mark.rule("published.assault-after-firing", "published.weapon-profiles")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_squad_that_fires_its_pistols_may_assault_the_unit_it_shot(ruleset: str) -> None:
    """Pistols fired, the squad with its Captain may assault the Boyz; boltguns fired, it may not."""
    pistols = game(armed_squad(ruleset))
    pistols.apply({**SHOOT, "weapon": "bolt pistol"}, dice=ScriptedDice([1] * 60))
    pistols.apply({"do": "end_phase"})
    assert_legal(pistols, {"do": "assault", "unit": "tac", "target": "boyz"})
    boltguns = game(armed_squad(ruleset))
    boltguns.apply({**SHOOT, "weapon": {"tac": "bolt pistol"}}, dice=ScriptedDice([1] * 60))  # the heavy bolter fires
    boltguns.apply({"do": "end_phase"})
    assert_illegal(boltguns, {"do": "assault", "unit": "tac", "target": "boyz"}, "published.assault-after-firing")


@pytest.mark.rule("published.weapon-profiles")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
@pytest.mark.parametrize(("weapon", "said"), [
    ("lascannon", "weapon: no model of tac carries a shooting weapon named 'lascannon'"),
    ({"orks": "bolter"}, "weapon.orks: orks is not tac nor a character in it"),
    ({"tac": "heavy bolter"}, "weapon.tac: no model of tac carries a shooting weapon named 'heavy bolter'"),
])
def test_a_weapon_no_member_named_carries_is_refused(ruleset: str, weapon: Any, said: str) -> None:
    """Refused, naming the field, the game unchanged: a weapon no model carries, a member that is not the unit nor a
    character in it, a weapon the member named does not carry (the Captain's heavy bolter named for the squad)."""
    refused = assert_illegal(game(armed_squad(ruleset)), {**SHOOT, "weapon": weapon}, "published.weapon-profiles")
    assert said in str(refused)


@pytest.mark.rule("published.weapon-profiles")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_named_weapon_that_cannot_fire_now_is_refused(ruleset: str) -> None:
    """The heavy bolter after its firer moved, and the bolt pistol at Boyz 20" away (its range is 12"), are refused;
    the boltguns at 20" are not (Rapid Fire: one shot beyond 12", up to 24")."""
    moved = game(armed_squad(ruleset, moved=True))
    refused = assert_illegal(moved, {**SHOOT, "weapon": "heavy bolter"}, "published.weapon-profiles")
    assert "no model carrying the heavy bolter can fire it at boyz now" in str(refused)
    far = game(armed_squad(ruleset, boyz_y=40.0))
    assert_illegal(far, {**SHOOT, "weapon": "bolt pistol"}, "published.weapon-profiles")
    assert_legal(far, {**SHOOT, "weapon": "bolter"}, "published.line-of-sight")


@pytest.mark.rule("published.weapon-profiles", "published.to-hit-bs", "published.to-wound", "published.saves")
def test_the_exact_odds_of_a_named_weapon_are_the_binomial_of_its_shots() -> None:
    """``odds action``, exact: each shot kills a Boy (T4, Sv3+) with 2/3 x 1/2 x 1/3 = 1/9; the three bolt pistols
    fire 3 shots (the Captain out of it: he is not joined here), the boltguns at 6" fire 6 (Rapid Fire), at most 3
    Boyz to lose."""
    data = armed_squad("40k3")
    data["sides"]["red"] = data["sides"]["red"][:1]
    g = game(data)
    p = Fraction(1, 9)

    def lost(weapon: str) -> dict[int, Fraction]:
        found: dict[int, Fraction] = {}
        answer = action_odds(g.state, {**SHOOT, "weapon": weapon})
        assert answer.exact
        for outcome, weight in answer.weights:
            n = dict(outcome.models_lost).get("boyz", 0)
            found[n] = found.get(n, Fraction(0)) + Fraction(weight)
        return {n: w for n, w in found.items() if w}

    def binomial(shots: int) -> dict[int, Fraction]:
        dist = {k: comb(shots, k) * p ** k * (1 - p) ** (shots - k) for k in range(shots + 1)}
        return {k: dist[k] for k in range(3)} | {3: sum(dist[k] for k in range(3, shots + 1))}

    assert lost("bolt pistol") == binomial(3)
    assert lost("bolter") == binomial(6)


@pytest.mark.rule("published.weapon-profiles")
def test_the_cli_checks_a_named_weapon(tmp_path: Path) -> None:
    """``herohammer check`` rules on a named weapon: legal for the pistols; a lascannon is ruled illegal in one line
    citing the rule (a ruling, not an error)."""
    path = tmp_path / "squad.yaml"
    path.write_text(yaml.safe_dump(armed_squad("40k4")), encoding="utf-8")

    def check(weapon: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "herohammer", "check", str(path), "--action",
                               json.dumps({**SHOOT, "weapon": weapon})], capture_output=True, text=True, check=False)

    good = check("bolt pistol")
    assert good.returncode == 0 and good.stdout.startswith("LEGAL"), good.stdout
    bad = check("lascannon")
    assert bad.stdout.startswith("ILLEGAL: weapon: no model of tac carries") and "[published.weapon-profiles]" in \
        bad.stdout and not bad.stderr


def offered_shots(g: Game) -> list[dict[str, Any]]:
    return [a for a in (x.to_json() for x in g.legal_actions()) if a["do"] == "shoot"]


@pytest.mark.rule("published.weapon-profiles")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_legal_actions_offer_each_weapon_that_changes_the_shot(ruleset: str) -> None:
    """Beside the unnamed shot (boltguns and the heavy bolter), ``legal_actions`` offers the bolt pistols named, so a
    bot can choose them: not the boltgun nor the heavy bolter, which the unnamed shot fires already. Beyond the
    pistols' 12" it offers no pistol; every shot offered is legal and applies."""
    near = game(armed_squad(ruleset))
    assert offered_shots(near) == [SHOOT, {**SHOOT, "weapon": "bolt pistol"}]
    for action in offered_shots(near):
        assert game(armed_squad(ruleset)).check(action).legal
    assert offered_shots(game(armed_squad(ruleset, boyz_y=36.0))) == [SHOOT]  # 16" away: boltguns, heavy bolter


@pytest.mark.rule("published.weapon-profiles")
def test_legal_actions_offer_a_weapon_a_moved_unit_can_fire_instead() -> None:
    """The squad moved: its Captain's heavy bolter fires nothing, so unnamed he fires his bolt pistol, and naming
    the heavy bolter changes nothing it could fire: only the bolt pistol is offered besides, for the squad's
    boltguns at 6" (Rapid Fire after moving: 1 shot each, published.weapon-profiles)."""
    g = game(armed_squad("40k4", moved=True))
    assert offered_shots(g) == [SHOOT, {**SHOOT, "weapon": "bolt pistol"}]


@pytest.mark.rule("published.weapon-profiles", "published.transports")
def test_legal_actions_offer_no_named_shot_at_a_unit_riding_in_a_transport() -> None:
    """A squad inside its Rhino is no target: no shot, named or not, is offered against it, while the Boyz beside
    still get the pistol shot beside the unnamed one."""
    data = armed_squad("40k4")
    rhino = {"id": "rhino", "type": "vehicle", "capacity": 10,
             "models": [{"name": "Rhino", "profile": "WS0 BS4 S0 T7 W3 I0 A0 Ld10 Sv3+", "base": [90, 115],
                         "at": [40, 26]}]}
    riders = {"id": "riders", "embarked_in": "rhino", "models": [model("R0", 40, 30), model("R1", 42, 30)]}
    data["sides"]["blue"] += [rhino, riders]
    offered = offered_shots(game(data))
    assert not [a for a in offered if a["target"] == "riders"]
    assert [a for a in offered if a["target"] == "boyz"] == [SHOOT, {**SHOOT, "weapon": "bolt pistol"}]
