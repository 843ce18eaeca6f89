"""Small builders for 40k scenarios in tests: plain data in, a Game out.

Bases are 25mm (0.984" across), so two models 2" apart centre to centre stand about
1" apart edge to edge, which is what the 2" rules measure.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import pytest

from herohammer.dice import Dice, ScriptedDice, SeededDice, enumerate_outcomes
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.state import GameState

BASE_25 = 25 / 25.4  # a 25mm base's width in inches
TROOPER = "WS4 BS4 S4 T4 W1 I4 A1 Ld{ld} Sv3+"
HERO = "WS5 BS5 S4 T4 W2 I5 A3 Ld{ld} Sv3+"

#: Both editions as a test parameter, and each edition's clause for the same question.
EDITIONS = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
PSY_TEST = {"40k3": "40k3.psyker.test", "40k4": "published.40k4-psychic-test"}
PSY_SHOOT = {"40k3": "40k3.psyker.as-shooting", "40k4": "published.40k4-psychic-shooting"}
PERILS = {"40k3": "40k3.psyker.perils", "40k4": "published.40k4-perils-of-the-warp"}
ON_TWO = {"40k3": "40k3.psyker.perils-on-2", "40k4": "published.40k4-perils-of-the-warp"}
CHAR_LD = {"40k3": "40k3.char.leadership", "40k4": "40k4.char.leadership"}
MOVE = {"40k3": "40k3.char.move-as-type", "40k4": "published.movement"}
LEAVE = {"40k3": "40k3.ic.leave", "40k4": "40k4.ic.leave"}
SEPARATE = {"40k3": "40k3.char.shooting-dice", "40k4": "40k4.shoot.separate-dice"}
SAME_TARGET = {"40k3": "published.shooting", "40k4": "40k4.shoot.same-target"}


def offered(g: Game, do: str) -> set[tuple[Any, ...]]:
    """Return the actions of one kind Game.legal_actions offers, as (unit or psyker or character, power, target)."""
    out = set()
    for a in g.legal_actions():
        if a.do == do:
            data = a.to_json()
            out.add(tuple(data[k] for k in ("unit", "psyker", "character", "power", "target") if k in data))
    return out


def kinds(events: list[Any], kind: str) -> list[Any]:
    """Return the events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def messages(events: list[Any], kind: str) -> list[str]:
    """Return the words of the events of one kind, in order."""
    return [e.message for e in kinds(events, kind)]


def model(name: str, x: float, y: float, ld: int = 8, profile: str = TROOPER) -> dict[str, Any]:
    """Return one 25mm model at (x, y)."""
    return {"name": name, "profile": profile.format(ld=ld), "base": 25, "at": [x, y]}


#: A Marine of Leadership 8 (``armed``'s default profile).
MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"


def armed(name: str, x: float, y: float, weapon: str, profile: str = MARINE, ld: int = 8) -> dict[str, Any]:
    """One 25mm model carrying ``weapon``."""
    return {**model(name, x, y, ld, profile), "weapons": [weapon]}


def squad(uid: str, x: float, y: float, n: int = 3, ld: int = 8, **extra: Any) -> dict[str, Any]:
    """Return a unit of ``n`` troopers in a line along x, 2" apart (centre to centre)."""
    return {"id": uid, "models": [model(f"{uid} {i + 1}", x + 2 * i, y, ld) for i in range(n)], **extra}


def gunners(uid: str, x: float, y: float, n: int = 3, ld: int = 8, weapon: str = "boltgun",
            **extra: Any) -> dict[str, Any]:
    """Return ``squad``'s troopers each carrying ``weapon``: a unit that has a shot to fire (one whose models carry no
    shooting weapon may not shoot, published.weapon-profiles: judge round 45)."""
    unit = squad(uid, x, y, n, ld, **extra)
    return {**unit, "models": [{**m, "weapons": [weapon]} for m in unit["models"]]}


def hero(uid: str, x: float, y: float, ld: int = 10, kind: str = "independent", **extra: Any) -> dict[str, Any]:
    """Return a one-model character unit."""
    return {"id": uid, "character": kind, "models": [model(uid.title(), x, y, ld, HERO)], **extra}


def scenario(ruleset: str, red: list[dict[str, Any]], blue: list[dict[str, Any]] | None = None,
             phase: str = "movement", terrain: list[dict[str, Any]] | None = None,
             **extra: Any) -> dict[str, Any]:
    """Return scenario data with red active; blue gets one far-away squad unless given."""
    data: dict[str, Any] = {
        "ruleset": ruleset, "phase": phase, "active": "red", "table": {"width": 72, "depth": 48},
        "sides": {"red": red, "blue": blue if blue is not None else [squad("far", 60, 45)]},
        **extra,
    }
    if terrain:
        data["terrain"] = terrain
    return data


def game(data: dict[str, Any], dice: Dice | None = None) -> Game:
    """Load scenario data into a game with seeded dice."""
    return Game(state_from_data(data), dice if dice is not None else SeededDice(7))


def tac_with_captain(ruleset: str, cap_ld: int, **extra: Any) -> Game:
    """Red's Movement phase: ``tac`` (two Marines, Ld 8, with ``extra`` fields such as a status) at (20, 20) and
    (22, 20), joined by ``cap`` at (22, 18.5); blue's one squad far away (judge rounds 58 and 59)."""
    return game(scenario(ruleset, [{**squad("tac", 20, 20, n=2), **extra},
                                   {**hero("cap", 22, 18.5, ld=cap_ld), "joined": "tac"}]))


def hive_tyrant_with(escort: dict[str, Any]) -> Game:
    """4th edition, red's Shooting phase: a Hive Tyrant (an independent Monstrous Creature, 60mm) at (32, 24) joined to
    ``escort`` (its models beside him); blue's three Termagants (gants) at (42-46, 14), the enemy closest to dev; red's
    las (two lascannons at (26, 16), (29, 16)) in front of the escort and dev (two lascannons at (44-46, 6))."""
    tyrant = {"id": "tyrant", "type": "monstrous_creature", "character": "independent", "joined": escort["id"],
              "models": [{"name": "Hive Tyrant", "profile": "WS5 BS3 S6 T6 W4 I5 A3 Ld10 Sv3+", "base": 60,
                          "at": [32, 24]}]}
    gants = {"id": "gants", "models": [model(f"g{i + 1}", 42 + 2 * i, 14, 5, "WS3 BS3 S3 T3 W1 I4 A1 Ld{ld} Sv6+")
                                       for i in range(3)]}
    red = [{"id": "las", "models": [armed(f"L{i + 1}", 26 + 3 * i, 16, "lascannon") for i in range(2)]},
           {"id": "dev", "models": [armed(f"D{i + 1}", 44 + 2 * i, 6, "lascannon") for i in range(2)]}]
    return game(scenario("40k4", red, [escort, tyrant, gants], phase="shooting"))


def assert_legal(g: Game, action: dict[str, Any], *rules: str) -> None:
    """Check an action is legal and cites ``rules``."""
    ruling = g.check(action)
    assert ruling.legal, ruling.reason
    for rule in rules:
        assert rule in ruling.rules, (rule, ruling)


def assert_illegal(g: Game, action: dict[str, Any], rule: str) -> IllegalActionError:
    """Check an action is refused citing ``rule``, and that applying it changes nothing."""
    ruling = g.check(action)
    assert not ruling.legal, ruling.reason
    assert rule in ruling.rules, ruling
    before, log = g.state, g.log
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    assert rule in info.value.rules
    assert rule in str(info.value)
    assert g.state == before
    assert g.log == log
    return info.value


def shoot_then_test(g: Game, action: dict[str, Any], faces: list[int]) -> list[Any]:
    """Apply a shooting action with ``faces`` and return its events with those of the Morale check it calls for.

    3rd edition takes the check after the attack; 4th edition counts the losses over the phase and takes it when
    the Shooting phase ends (published.morale-casualties), so there the phase is ended with the faces left.
    """
    dice = ScriptedDice(faces)
    events = list(g.apply(action, dice=dice))
    if g.state.shot_this_phase:
        events += g.apply({"do": "end_phase"}, dice=dice)
    return events


def undo_to(g: Game, state: Any) -> None:
    """Undo actions until the game stands at ``state`` again (a shot and the phase end ``shoot_then_test`` added)."""
    while g.state != state:
        g.undo()


def falls_back_odds(state: Any, action: dict[str, Any], unit_id: str) -> dict[bool, Fraction]:
    """Return the exact odds that ``unit_id`` is falling back after ``action`` from ``state``, asserting they equal
    brute force (every die a branch)."""
    from herohammer.units import Status

    def falls_back(dice: Dice) -> bool:
        played = Game(state, dice)
        played.apply(action, dice=dice)
        return played.state.unit(unit_id).has(Status.FALLING_BACK)

    fast = enumerate_outcomes(falls_back, positions=False)
    assert fast == enumerate_outcomes(falls_back, fine=True)
    return dict(fast)


def next_turn_to(g: Game, side: str, phase: str) -> None:
    """End phases (at least one) until ``side``'s ``phase`` begins."""
    g.apply({"do": "end_phase"}, dice=ScriptedDice([6] * 12))
    while (g.state.active, g.state.phase.value) != (side, phase):
        g.apply({"do": "end_phase"}, dice=ScriptedDice([6] * 12))


def brute(state: Any, action: dict[str, Any], read: Callable[[Game], Any],
          positions: bool = False, reads_log: bool = False) -> dict[Any, Fraction]:
    """Return the distribution of ``read`` after ``action``, enumerated twice (merged, and die by die) and asserted
    equal: the brute-force oracle of the exact odds.  ``positions``: ``read`` asks where models end, so the merged
    enumeration places every branch (else it places one).  ``reads_log``: ``read`` reads the game's log, so the merged
    enumeration is told it reads each event by its kind and words (``event_view``; without it a loop's merged carries
    keep one representative log, as dice.loop says)."""

    def play(dice: Dice) -> Any:
        played = Game(state, dice)
        played.apply(action, dice=dice)
        return read(played)

    fast = enumerate_outcomes(play, positions=positions,
                              event_view=(lambda e: (e.kind, e.message)) if reads_log else None)
    assert fast == enumerate_outcomes(play, fine=True)
    return dict(fast)


def saved_and_loaded(g: Game) -> Game:
    """Return a new game from ``g``'s state written as data and read back (the state must come back equal)."""
    state = state_from_data(state_to_data(g.state))
    assert state == g.state
    return Game(state, ScriptedDice([]))


def two_d6_at_most(ld: int) -> Fraction:
    """The chance that 2D6 is at most ``ld``, counted over the 36 faces by hand (core.test.leadership)."""
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= ld), 36)


def pass_odds(g: Game, action: dict[str, Any]) -> Fraction:
    """The exact chance that the test ``action`` passes, held equal to brute force (every die a branch)."""

    def passed(dice: Any) -> bool:
        played = Game(g.state, dice)
        return played.apply(action, dice=dice)[0].message.endswith("passes")

    fast = enumerate_outcomes(passed)
    assert fast == enumerate_outcomes(passed, fine=True)
    return dict(fast).get(True, Fraction(0))


def cap_struck(g: Game) -> int:
    """The Wounds the Captain "cap" (W2) lost to the blows, read from the saves events before the combat's result (a
    Sweeping Advance may destroy him after it): judge rounds 64 and 65."""
    unsaved = 0
    for e in g.log:
        if e.kind == "combat_result":
            break
        if e.kind == "saves" and e.message.startswith("Cap: "):
            unsaved += int(e.message.split(", ")[-1].removesuffix(" unsaved"))
    return min(2, unsaved)


#: Base contact between 25 mm bases, and a Boy's profile: the Captain between three Boyz of the enumeration tests.
TOUCH = BASE_25 + 0.001
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"


def captain_between_boyz(ruleset: str) -> GameState:
    """The Captain alone (WS5 S4 A3 I5), locked with three Boyz (I2): b1 and b2 touching him, b3 touching b1."""
    cap = {**hero("cap", 20, 20), "status": ["locked"]}
    boyz = {"id": "boyz", "status": ["locked"],
            "models": [model("b1", 20 + TOUCH, 20, 7, BOY), model("b2", 20 - TOUCH, 20, 7, BOY),
                       model("b3", 20 + 2 * TOUCH, 20, 7, BOY)]}
    return state_from_data(scenario(ruleset, [cap], [boyz], phase="assault"))


def saved(g: Game, path: Path) -> Path:
    """Write the game's state as a scenario file."""
    path.write_text(json.dumps(state_to_data(g.state)))
    return path


def cli_check(path: Path, action: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`herohammer check --json` on a saved state: its ruling."""
    from _cli import run

    code, out, err = run(["check", str(path), "--action", json.dumps(action), "--json"], capsys)
    assert code == 0, (out, err)
    result: dict[str, Any] = json.loads(out)["result"]
    return result
