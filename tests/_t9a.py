"""Shared 9th Age test scenarios: elven spearmen (with a hero who may be joined) facing orc archers."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from herohammer.action_odds import action_odds, summarise
from herohammer.actions import parse_action
from herohammer.dice import enumerate_outcomes
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.rulesets import get_ruleset
from herohammer.state import GameState
from herohammer.scenario import state_from_data, state_to_data

#: Profiles without Attacks: no blows are struck, so a combat's score is its static bonuses alone.
STILL_SPEAR = "WS4 BS4 S3 T3 W1 I5 A0 Ld8 Sv5+ Adv5 Mar10"
STILL_ORC = "WS3 BS3 S3 T4 W1 I2 A0 Ld7 Sv6+ Adv4 Mar8"

SPEAR = "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10"
HERO = "WS6 BS6 S4 T4 W3 I6 A3 Ld9 Sv4+ Adv5 Mar10"
ORC = "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"


def scenario(n: int = 10, orcs: int = 5, phase: str = "shooting", active: str = "orcs", joined: bool = True,
             hero_at: tuple[float, float] = (10, 10), enemy_y: float = 34.0, orc_profile: str = ORC,
             spear_profile: str = SPEAR, orc_weapon: str = "bow", hero_weapons: list[str] | None = None,
             hero_status: list[str] | None = None, spear_status: list[str] | None = None,
             orc_status: list[str] | None = None, spear_rules: list[str] | None = None,
             roles: dict[int, str] | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return scenario data: spearmen at (36, 20) facing up the table, orcs facing them at ``enemy_y``."""
    roles = roles or {}
    spears = [{"name": f"s{i}", "profile": spear_profile, "base": [20, 20],
               **({"role": roles[i]} if i in roles else {})} for i in range(n)]
    hero: dict[str, Any] = {"id": "hero", "character": "independent", "status": hero_status or [],
                            "models": [{"name": "Hero", "profile": HERO, "base": [20, 20],
                                        "weapons": hero_weapons or []}]}
    if joined:
        hero["joined"] = "spears"
    else:
        hero["models"][0]["at"] = list(hero_at)
    archers = [{"name": f"o{i}", "profile": orc_profile, "base": [25, 25], "weapons": [orc_weapon]}
               for i in range(orcs)]
    data: dict[str, Any] = {
        "ruleset": "t9a", "phase": phase, "active": active,
        "sides": {
            "elves": [{"id": "spears", "status": spear_status or [], "rules": spear_rules or [],
                       "formation": {"position": [36, 20], "files": 5}, "models": spears}, hero],
            "orcs": [{"id": "orcs", "status": orc_status or [],
                      "formation": {"position": [36, enemy_y], "facing": 180, "files": 5}, "models": archers}],
        },
    }
    data.update(extra or {})
    return data


def game(**kw: Any) -> Game:
    """Return a game of ``scenario(**kw)``."""
    return Game(state_from_data(scenario(**kw)))


def refused(g: Game, action: dict[str, Any], rule: str, text: str) -> None:
    """Check that an action is illegal for ``rule`` with ``text`` in its reason, and that applying it changes nothing."""
    before = g.state
    ruling = g.check(action)
    assert not ruling.legal and rule in ruling.rules and text in ruling.reason, ruling
    with pytest.raises(IllegalActionError):
        g.apply(action)
    assert g.state is before


def reloading_game(data: dict[str, Any]) -> Game:
    """A game on ``data`` whose state loads back to itself, as every judge's case starts."""
    g = Game(state_from_data(data))
    assert state_from_data(state_to_data(g.state)) == g.state
    return g


def reloads(g: Game) -> None:
    """What play wrote loads back to the same state."""
    assert state_from_data(state_to_data(g.state)) == g.state


def offered(g: Game, do: str) -> list[dict[str, Any]]:
    """The actions of one kind ``legal_actions`` offers, as a player writes them (defaults left out)."""
    return [a.model_dump(exclude_none=True, exclude_defaults=True) for a in g.legal_actions() if a.do == do]


def saved_and_loaded(g: Game) -> Game:
    """A new game on ``g``'s state written as data and read back, as a save and a load between two actions."""
    return Game(state_from_data(state_to_data(g.state)))


def undone_and_replayed(g: Game, action: dict[str, Any], path: Path) -> tuple[list[Any], Game]:
    """Apply ``action``, undo it (the state as before), apply it again, save the game with its record at ``path`` and
    play it back (the same state): return the first apply's events and the game played back."""
    start = g.state
    events = g.apply(action)
    g.undo()
    assert g.state == start
    g.apply(action)
    g.save(path, record=True)
    back = Game.replay(path)
    assert back.state == g.state
    return events, back


def play_to(g: Game, phase: str, active: str) -> None:
    """End phases until ``active``'s ``phase``."""
    for _ in range(12):
        if g.state.phase.value == phase and g.state.active == active:
            return
        g.apply({"do": "end_phase"})
    raise AssertionError(f"never reached {active}'s {phase} phase")


def exact_odds_as_brute_force(state: GameState, action: dict[str, Any]) -> list[tuple[Any, Any]]:
    """Return ``odds action``'s exact weights of ``action``, asserting they equal brute force (every die a branch)."""
    odds = action_odds(state, action)
    assert odds.exact
    rules = get_ruleset("t9a")
    act = rules.named_now(state, parse_action(action))
    fine = enumerate_outcomes(lambda dice: summarise(state, rules.resolve(state, act, dice)), fine=True)
    assert dict(odds.weights) == dict(fine.items())
    return list(odds.weights)


def melee_scenario(active: str = "elves", **kw: Any) -> dict[str, Any]:
    """``scenario`` in the Melee phase, both sides engaged (the Spearmen's statuses as given), nobody with an Attack
    unless a profile gives one: the judge rounds' fights whose combat result the test sets by ranks and charges."""
    kw.setdefault("spear_profile", STILL_SPEAR)
    kw.setdefault("orc_profile", STILL_ORC)
    return scenario(phase="melee", active=active, enemy_y=20, spear_status=kw.pop("spear_status", ["engaged"]),
                    orc_status=["engaged"], **kw)


def arrows_at_hero_odds(state: GameState) -> tuple[Fraction, Fraction]:
    """Two orc archers shoot at the Spearmen naming the Hero (``at: hero``): return the engine's exact odds that he is
    wounded and the brute force's over the four dice that decide it when one hit is his whichever hits (BS3 at long
    range: 5+ to hit; an S3 arrow wounds his T4 on 5+; his 4+ save fails on 1-3)."""
    rules = get_ruleset("t9a")
    act = rules.named_now(state, parse_action({"do": "shoot", "unit": "orcs", "target": "spears", "at": "hero"}))

    def hero_wounded(dice: Any) -> bool:
        after, _ = rules.resolve(state, act, dice)
        return after.unit("hero").models[0].wounds_taken > 0

    want = sum((Fraction(1, 6 ** 4) for h1, h2, wound, save in product(range(1, 7), repeat=4)
                if (h1 >= 5 or h2 >= 5) and wound >= 5 and save <= 3), Fraction(0))
    return Fraction(enumerate_outcomes(hero_wounded).get(True, 0)), want


def two_spears_in_melee() -> dict[str, Any]:
    """The orcs' Melee phase: two Spearmen and their Hero (no Attacks, W2) engaged with armed orcs; a friendly unit
    (guard) 5.2" behind them: the last survivor's Break and his friends' Panic (judge rounds 57, 58)."""
    data = melee_scenario(active="orcs", n=2, orc_profile=ORC)
    data["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("A3", "A0").replace("W3", "W2")
    data["sides"]["elves"].append({"id": "guard", "formation": {"position": [36, 14], "files": 5},
                                   "models": [{"name": f"g{i}", "profile": STILL_SPEAR, "base": [20, 20]}
                                              for i in range(5)]})
    return data


def charge_out_end(outcome: Any) -> str:
    """The end an enumerated charge out came to, as its ``charge.outcome`` event says (charged, failed_left ...)."""
    return str(next(e.split(": ")[1] for e in outcome.events if e.startswith("charge.outcome: ")))


def odds_action_says_exact(tmp_path: Path, data: dict[str, Any], action: dict[str, Any]) -> None:
    """``herohammer odds action`` on the scenario, saved to a file, answers exactly (the command line's front door)."""
    from _cli import printed

    scen = tmp_path / "out.json"
    scen.write_text(json.dumps(data), encoding="utf-8")
    said = json.loads(printed("odds", "action", str(scen), "--action", json.dumps(action), "--json", "--quiet"))
    assert said["result"]["exact"] is True, said
