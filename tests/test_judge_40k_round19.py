"""A judge's cases for 40k 3rd and 4th edition, nineteenth round: what the events cite, and moves around combats.

1. A value-0 clause (core.zero.bs/ws/s/t/a) is cited by a shooting, psychic or close combat event only when a value
   of 0 decided its roll: a bolter (S4) against Marines (T4) cites none, a Strength 0 shot core.zero.s, a shot at a
   Toughness 0 model core.zero.t, a blow at or by a Weapon Skill 0 model core.zero.ws, a model of Attacks 0
   core.zero.a, a model of Ballistic Skill 0 beside one that fires core.zero.bs.

Each case plays actions through ``Game`` (or the CLI) and asserts what the texts say, with the outcome the rule
forbids beside the one it gives; where dice decide, the exact odds equal brute force.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.state import GameState
from herohammer.units import Status

from _w40k import assert_illegal, game, model, scenario

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
SERVITOR = "WS- BS- S3 T- W1 I1 A- Ld8 Sv-"
ZEROS = ("core.zero.bs", "core.zero.ws", "core.zero.s", "core.zero.t", "core.zero.a")
STUB = {"name": "stub gun", "type": "assault", "range": 24, "strength": "user", "ap": "-"}  # a weapon of S User


def zeros_cited(events: list[Any], kind: str | None = None) -> set[str]:
    """Return the value-0 clauses the events (of ``kind``, if given) cite."""
    return {r for e in events if kind is None or e.kind == kind for r in e.rules if r in ZEROS}


def volley(ruleset: str, shooters: list[dict[str, Any]], targets: list[dict[str, Any]],
           **extra: Any) -> Game:
    """Red's ``shooters`` (unit ``red``) in its Shooting phase, 6" from blue's ``targets`` (unit ``blue``)."""
    red = [{"id": "red", "models": shooters}]
    blue = [{"id": "blue", "models": targets}]
    return game(scenario(ruleset, red, blue, phase="shooting", **extra))


SHOOT = {"do": "shoot", "unit": "red", "target": "blue"}


# == 1. value-0 clauses only where a value of 0 decided ==========================================================
@pytest.mark.rule("core.zero.s", "core.zero.t")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_bolter_at_marines_cites_no_value_0_clause_strength_0_and_toughness_0_do(ruleset: str) -> None:
    marines = [{**model("M1", 20, 20, profile=MARINE), "weapons": ["bolter"]}]
    plain = volley(ruleset, marines, [model("T1", 20, 26, profile=MARINE), model("T2", 22, 26, profile=MARINE)])
    events = plain.apply(SHOOT, dice=ScriptedDice([6, 6, 6, 6, 1, 1]))
    shots = [e for e in events if e.kind == "shots"]
    assert shots and "S4 vs T4" not in shots[0].message  # (the words name the roll, the rules the clauses)
    assert zeros_cited(events) == set()  # S4 against T4: the chart alone decides
    assert "published.to-hit-bs" in shots[0].rules
    # Strength 0: the shot hits and never wounds (core.zero.s)
    stubs = [{**model("M1", 20, 20, profile="WS4 BS4 S- T4 W1 I4 A1 Ld8 Sv3+"), "weapons": ["stub gun"]}]
    weak = volley(ruleset, stubs, [model("T1", 20, 26, profile=MARINE)], weapons=[STUB])
    events = weak.apply(SHOOT, dice=ScriptedDice([6, 6]))
    assert zeros_cited(events, "shots") == {"core.zero.s"}
    assert "1 hit, 0 wounds" in next(e.message for e in events if e.kind == "shots")
    assert len(weak.state.unit("blue").models) == 1
    # Toughness 0: a bolter wounds on 2+ (core.zero.t), with a 2 that would fail against T4's 4+
    soft = volley(ruleset, marines, [model("S1", 20, 26, profile=SERVITOR)])
    events = soft.apply(SHOOT, dice=ScriptedDice([6, 1, 2]))  # two shots at 6": one hit, wounded on a 2
    assert zeros_cited(events, "shots") == {"core.zero.t"}
    assert not soft.state.unit("blue").alive


@pytest.mark.rule("core.zero.bs")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_bs0_model_beside_a_marine_fires_nothing_and_only_its_note_cites_core_zero_bs(ruleset: str) -> None:
    shooters = [{**model("M1", 20, 20, profile=MARINE), "weapons": ["bolter"]},
                {**model("Servitor", 22, 20, profile=SERVITOR), "weapons": ["bolter"]}]
    g = volley(ruleset, shooters, [model("T1", 20, 26, profile=MARINE), model("T2", 22, 26, profile=MARINE)])
    events = g.apply(SHOOT, dice=ScriptedDice([6, 6, 1, 1, 1, 1]))
    notes = [e for e in events if e.kind == "note"]
    assert [n.rules for n in notes] == [("core.zero.bs",)] and "Servitor" in notes[0].message
    shots = [e for e in events if e.kind == "shots"]
    assert shots[0].message.startswith("M1 fires 2 shots")  # the Marine alone fires (rapid fire at 6")
    assert zeros_cited(shots) == set()
    # a unit of BS 0 models only is refused by the clause
    alone = volley(ruleset, shooters[1:], [model("T1", 20, 26, profile=MARINE)])
    assert_illegal(alone, SHOOT, "core.zero.bs")


def fight(ruleset: str, red: str, blue: str, gap: float = 0.99) -> Game:
    """Red's one model (``red`` profile) in base contact with blue's one (``blue``), red's Assault phase."""
    data = scenario(ruleset, [{"id": "red", "models": [model("R", 20, 20, profile=red)]}],
                    [{"id": "blue", "models": [model("B", 20, 20 + gap, profile=blue)]}], phase="assault")
    return game(data)


FIGHT = {"do": "fight", "unit": "red"}


@pytest.mark.rule("core.zero.ws", "core.zero.a", "core.zero.s", "core.zero.t")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_close_combat_cites_a_value_0_clause_only_where_a_zero_decided(ruleset: str) -> None:
    # Marine against Boy: WS4 v WS4 4+, S4 v T4 4+; nothing of value 0 on either side
    g = fight(ruleset, MARINE, BOY)
    events = g.apply(FIGHT, dice=ScriptedDice([1, 1, 1]))
    assert zeros_cited(events) == set()
    attacks = [e for e in events if e.kind == "attacks"]
    assert attacks and all("published.to-hit-ws" in e.rules for e in attacks)
    # a Marine against a Servitor (WS 0, T 0, A 0): he hits without a roll and wounds on 2+; it strikes back nothing
    g = fight(ruleset, MARINE, SERVITOR)
    events = g.apply(FIGHT, dice=ScriptedDice([2]))
    assert zeros_cited(events, "attacks") == {"core.zero.ws", "core.zero.t"}
    assert [e.rules for e in events if e.kind == "no_attacks"] == [("core.zero.a",)]
    assert not g.state.unit("blue").alive
    # a WS 0 attacker hits only on 6: a 5 misses
    g = fight(ruleset, "WS0 BS0 S4 T4 W1 I4 A1 Ld8 Sv3+", BOY)
    events = g.apply(FIGHT, dice=ScriptedDice([5, 1, 1, 1]))
    red_blows = [e for e in events if e.kind == "attacks" and e.message.startswith("red ")]
    assert red_blows and "0 hits" in red_blows[0].message
    assert {"core.zero.ws"} == zeros_cited(red_blows)
    assert zeros_cited([e for e in events if e.kind == "attacks" and not e.message.startswith("red ")]) \
        == {"core.zero.ws"}  # the Boy's blows against WS 0: automatic hits
    # Strength 0 never wounds
    g = fight(ruleset, "WS4 BS4 S0 T4 W1 I4 A1 Ld8 Sv3+", "WS4 BS4 S4 T4 W1 I1 A0 Ld8 Sv3+")
    events = g.apply(FIGHT, dice=ScriptedDice([6]))
    assert zeros_cited(events, "attacks") == {"core.zero.s"}
    assert "core.zero.a" in zeros_cited(events, "no_attacks")


@pytest.mark.rule("core.zero.t")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_exact_odds_of_a_shot_at_toughness_0_equal_brute_force_and_cite_core_zero_t(ruleset: str) -> None:
    marines = [{**model("M1", 20, 20, profile=MARINE), "weapons": ["bolter"]}]
    state = volley(ruleset, marines, [model("S1", 20, 26, profile=SERVITOR), model("S2", 22, 26, profile=SERVITOR)]
                   ).state

    def after(dice: Dice) -> tuple[int, frozenset[str]]:
        g = Game(state, dice)
        events = g.apply(SHOOT, dice=dice)
        return len(g.state.unit("blue").models), frozenset(zeros_cited(events))

    fast = enumerate_outcomes(after)
    assert fast == enumerate_outcomes(after, fine=True)
    hit_wound = Fraction(2, 3) * Fraction(5, 6)  # 3+ to hit, 2+ to wound (T 0), no save
    assert dict(fast) == {(0, frozenset({"core.zero.t"})): hit_wound ** 2,
                          (1, frozenset({"core.zero.t"})): 2 * hit_wound * (1 - hit_wound),
                          (2, frozenset({"core.zero.t"})): (1 - hit_wound) ** 2}


@pytest.mark.rule("core.zero.t", "40k3.psyker.as-shooting", "40k3.psyker.perils")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_psychic_shooting_attack_cites_core_zero_t_only_against_toughness_0(ruleset: str) -> None:
    def librarian(target: str, psyker: str = "WS5 BS5 S4 T4 W2 I5 A3 Ld10 Sv3+") -> Game:
        red = [{"id": "lib", "character": "independent", "rules": ["psyker"], "models": [model("Lib", 30, 20, 10,
                                                                                                psyker)]}]
        return game(scenario(ruleset, red, [{"id": "blue", "models": [model("B1", 30, 26, profile=target)]}],
                             phase="shooting"))

    smite = {"do": "manifest", "psyker": "lib", "power": "Smite", "target": "blue"}
    g = librarian(MARINE)  # passed on a 3; four S4 AP2 shots at T4: 3+ to hit, 4+ to wound
    events = g.apply(smite, dice=ScriptedDice([1, 2] + [6, 1, 1, 1] + [3]))
    assert any(e.kind == "shots" for e in events) and zeros_cited(events) == set()
    assert g.state.unit("blue").alive  # a 3 to wound fails against T4
    g = librarian(SERVITOR)  # the same dice against T 0: wounded on the 3
    events = g.apply(smite, dice=ScriptedDice([1, 2] + [6, 1, 1, 1] + [3]))
    assert zeros_cited(events, "shots") == {"core.zero.t"} and not g.state.unit("blue").alive
    if ruleset == "40k3":  # Perils on a double 1: a hit of Strength D6 that a Toughness 0 psyker takes on 2+
        g = librarian(MARINE, "WS5 BS5 S4 T0 W1 I5 A3 Ld10 Sv3+")
        events = g.apply(smite, dice=ScriptedDice([1, 1, 1, 2] + [1] * 8))
        perils = next(e for e in events if e.kind == "perils")
        assert "core.zero.t" in perils.rules and not g.state.unit("lib").alive
        g = librarian(MARINE, "WS5 BS5 S4 T4 W1 I5 A3 Ld10 Sv3+")
        events = g.apply(smite, dice=ScriptedDice([1, 1, 1, 2] + [1] * 8))
        assert "core.zero.t" not in next(e for e in events if e.kind == "perils").rules


# == 2. jump infantry ending a fall back in difficult terrain ====================================================
MORALE = {"do": "test", "unit": "squad", "characteristic": "Ld", "kind": "Morale"}
#: a wood across the squad's way back: a fall back of 5" to 7" ends with the models' centres in it
WOOD = [{"id": "wood", "kind": "difficult", "polygon": [[10, 24.5], [30, 24.5], [30, 27.5], [10, 27.5]]}]


def falling(ruleset: str, kind: str, terrain: list[dict[str, Any]] | None = None) -> Game:
    """A squad of ``kind`` (S1, S2 at y 20) in red's Shooting phase, a Boy 10" in front of it (y 10): a failed Morale
    check sends it back over y 24.5 to 27.5 (``WOOD``, unless ``terrain`` says otherwise)."""
    red = [{"id": "squad", "type": kind, "models": [model("S1", 20, 20, 8, MARINE), model("S2", 22, 20, 8, MARINE)]}]
    return game(scenario(ruleset, red, [{"id": "boyz", "models": [model("Boy", 21, 10, 7, MARINE)]}],
                         phase="shooting", terrain=WOOD if terrain is None else terrain))

def morale_losses(start: GameState) -> Any:
    """The exact odds of the squad's models lost by its Morale check and what follows (fall back, terrain tests),
    checked equal to brute force over every die (``fine=True``)."""

    def lost(dice: Dice) -> int:
        g = Game(start, dice)
        g.apply(MORALE, dice=dice)
        return 2 - len(g.state.unit("squad").models)

    fast = enumerate_outcomes(lost)
    assert fast == enumerate_outcomes(lost, fine=True)
    return fast


def told(events: list[Any], kind: str) -> list[str]:
    return [e.message for e in events if e.kind == kind]


@pytest.mark.rule("published.fall-back", "published.dangerous-terrain", "published.difficult-terrain")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_jump_squad_whose_fall_back_ends_in_a_wood_takes_dangerous_terrain_tests(ruleset: str) -> None:
    """4th ed., Jump Infantry (stored page rulebook4/84.html), Morale: "They may, of course, move over any obstructions
    when falling back, but if they end their move in difficult terrain they will still have to take a Dangerous
    Terrain test": 2 + 2 + 2 = 6" ends in the wood, each model rolls (S2's 1 slays it); 3 + 3 + 3 = 9" ends beyond it,
    no test.  Infantry are halved by the wood and test nothing (4th ed. p. 48)."""
    g = falling(ruleset, "jump_infantry")
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 2, 2, 2, 5, 1]))
    assert told(events, "fall_back") == ["squad falls back 6\""]
    tests = [e for e in events if e.kind == "dangerous_terrain"]
    assert [e.message for e in tests] == ["squad: 2 dangerous terrain tests, 1 failed (S2)"]
    assert "published.dangerous-terrain" in tests[0].rules
    assert [(m.name, m.at[1]) for m in g.state.unit("squad").models] == [("S1", 26.0)]
    g = falling(ruleset, "jump_infantry")
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 3, 3, 3]))  # 9": over the wood and out of it
    assert told(events, "fall_back") == ["squad falls back 9\""] and not told(events, "dangerous_terrain")
    assert [m.at[1] for m in g.state.unit("squad").models] == [29.0, 29.0]
    g = falling(ruleset, "infantry")
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 3, 3]))
    assert told(events, "fall_back") == ["squad falls back 3\" (6\" rolled, halved through difficult terrain)"]
    assert not told(events, "dangerous_terrain") and len(g.state.unit("squad").models) == 2


@pytest.mark.rule("published.fall-back", "published.dangerous-terrain")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_bikes_falling_back_through_a_wood_test_as_in_their_moves(ruleset: str) -> None:
    """Bikes are not slowed, "However, each model entering or moving through difficult terrain must take a Dangerous
    Terrain test" (4th ed., Bikes, stored page rulebook4/81.html): their 12" fall back over the wood tests both
    riders, though they end beyond it; with no wood on the way no die is rolled for terrain."""
    g = falling(ruleset, "bike")
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 4, 4, 4, 1, 6]))
    assert told(events, "dangerous_terrain") == ["squad: 2 dangerous terrain tests, 1 failed (S1)"]
    assert [(m.name, m.at[1]) for m in g.state.unit("squad").models] == [("S2", 32.0)]
    g = falling(ruleset, "bike", terrain=[])
    events = g.apply(MORALE, dice=ScriptedDice([6, 6, 4, 4, 4]))
    assert not told(events, "dangerous_terrain") and len(g.state.unit("squad").models) == 2


@pytest.mark.rule("published.fall-back", "published.dangerous-terrain")
def test_the_exact_odds_of_a_jump_squad_falling_back_into_a_wood_equal_brute_force() -> None:
    """The models lost: the Morale check fails (Ld 8: 2D6 over 8), the 3D6 ends in the wood on 5, 6 or 7
    (6 + 10 + 15 of 216 ways), and each model then dies on a 1."""
    start = falling("40k4", "jump_infantry").state

    fast = morale_losses(start)
    fails = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > 8), 36)
    wood = fails * Fraction(31, 216)
    assert dict(fast) == {0: 1 - wood + wood * Fraction(25, 36), 1: wood * Fraction(10, 36),
                          2: wood * Fraction(1, 36)}


# == 3. consolidation into a new close combat (4th edition) =======================================================
from test_sweeping_advance import BLOWS, FAILS, VET, boyz, vets  # noqa: E402  (the won fight's pieces)
from _w40k import BASE_25, assert_legal  # noqa: E402

CONS = "published.consolidation"
INTO_GROT = {"do": "consolidate", "unit": "vets", "to": [[20, 26 - BASE_25]]}  # touches the Grot on a 6 only


def won(grot_status: list[str] | None = None, guard: bool = False) -> Game:
    """The Vet has caught the Boyz (4th ed. Sweeping Advance) and may consolidate; a Grot (Ld 7) stands 6" north,
    with ``grot_status``; with ``guard`` a red Guardsman fights the Grot in a combat still to be fought."""
    grots: dict[str, Any] = {"id": "grots", "models": [model("Grot", 20, 26, 7, BOY)]}
    red = [vets()]
    if grot_status:
        grots["status"] = grot_status
    if guard:
        grots["status"] = ["locked"]
        red.append({"id": "guard", "status": ["locked"], "models": [model("Guard", 20, 26 + BASE_25, 7, MARINE)]})
    g = game(scenario("40k4", red, [boyz(), grots], phase="assault"))
    g.apply(FIGHT_VETS, dice=ScriptedDice([*BLOWS, *FAILS, 1, 6]))
    assert not g.state.unit("boyz").alive and g.state.unit("vets").has(Status.MAY_CONSOLIDATE)
    return g


FIGHT_VETS = {"do": "fight", "unit": "vets"}


@pytest.mark.rule(CONS, "published.close-combat")
def test_40k4_a_consolidation_may_move_into_base_contact_with_a_new_enemy_unit() -> None:
    """4th ed. p. 44 (quoted from the rulebook in the stored forum thread dakkadakka.com/dakkaforum/posts/list/
    209169.page): "a unit which consolidates into a new close combat does not count as engaged until the next
    Assault phase", and p. 48 (stored page rulebook4/62.html): the assaulted-while-falling-back rule "applies if a unit
    consolidates into enemies falling back too": a consolidation may reach a new foe.  On a 6 the Vet touches the
    Grot: both are locked; the Grot may not move in its Movement phase, and both fight in its Assault phase.  On a 5
    he stops short and is free."""
    g = won()
    ruling = g.check(INTO_GROT)
    assert ruling.legal and CONS in ruling.rules
    assert any("base contact with grots if the D6 rolls 6" in n for n in ruling.notes)
    events = g.apply(INTO_GROT, dice=ScriptedDice([6]))
    [new] = [e for e in events if e.kind == "new_combat"]
    assert "vets consolidates into base contact with grots" in new.message and CONS in new.rules
    assert g.state.unit("vets").has(Status.LOCKED) and g.state.unit("grots").has(Status.LOCKED)
    g.apply({"do": "end_phase"})  # blue's turn: the Grot is locked
    assert_illegal(g, {"do": "move", "unit": "grots", "to": [[20, 30]]}, "published.close-combat")
    g.apply({"do": "end_phase"})
    g.apply({"do": "end_phase"})
    assert g.state.phase.value == "assault"
    assert_legal(g, {"do": "fight", "unit": "grots"}, "published.close-combat")
    short = won()
    events = short.apply(INTO_GROT, dice=ScriptedDice([5]))
    assert not [e for e in events if e.kind == "new_combat"]
    assert not short.state.unit("vets").has(Status.LOCKED) and not short.state.unit("grots").has(Status.LOCKED)


@pytest.mark.rule(CONS, "published.assaulted-while-falling-back")
def test_40k4_a_unit_consolidated_into_while_falling_back_regroups_or_is_destroyed() -> None:
    """4th ed. p. 48 (stored page rulebook4/62.html): "Note that this rule applies if a unit consolidates into enemies
    falling back too": the Grot tests to regroup at once (Ld 7, no modifier): 12 fails and he is destroyed, the Vet
    left free; 4 passes, and he fights, locked with the Vet."""
    g = won(["falling_back"])
    assert any("falling back and tests to regroup" in n for n in g.check(INTO_GROT).notes)
    events = g.apply(INTO_GROT, dice=ScriptedDice([6, 6, 6]))
    assert [e.kind for e in events] == ["consolidate", "regroup", "destroyed"]
    assert not g.state.unit("grots").alive and not g.state.unit("vets").has(Status.LOCKED)
    g = won(["falling_back"])
    events = g.apply(INTO_GROT, dice=ScriptedDice([6, 2, 2]))
    assert [e.kind for e in events] == ["consolidate", "regroup", "new_combat"]
    grot = g.state.unit("grots")
    assert grot.has(Status.LOCKED) and not grot.has(Status.FALLING_BACK) and g.state.unit("vets").has(Status.LOCKED)


@pytest.mark.rule(CONS)
def test_40k4_no_consolidation_into_a_combat_still_to_be_fought_this_phase() -> None:
    """Decision (published.consolidation): the unit that consolidates into a new close combat "is effectively ignored"
    until the next Assault phase; the engine cannot yet leave it out of a combat still to be fought, so a consolidation
    that may touch a unit locked in one is refused (and changes nothing).  Once that combat is fought it is allowed."""
    g = won(guard=True)
    refused = assert_illegal(g, INTO_GROT, CONS)
    assert "still to be fought this phase" in str(refused)
    g.apply({"do": "fight", "unit": "guard"}, dice=ScriptedDice([1, 1, 1, 1, 1, 1]))
    assert g.state.unit("guard").has(Status.FOUGHT) and g.state.unit("grots").has(Status.LOCKED)
    assert_legal(g, INTO_GROT, CONS)


@pytest.mark.rule(CONS)
def test_the_exact_odds_of_a_consolidation_into_a_new_combat_equal_brute_force() -> None:
    """Into the Grot on a 6 (1/6), or, falling back, the Grot destroyed when its Regroup test fails too."""
    for status, locked in ((None, Fraction(1, 6)),
                           (["falling_back"], Fraction(1, 6) * Fraction(21, 36))):  # Ld 7: 2D6 of 7 or less
        start = won(status).state

        def after(dice: Dice) -> tuple[bool, bool]:
            g = Game(start, dice)
            g.apply(INTO_GROT, dice=dice)
            return g.state.unit("vets").has(Status.LOCKED), g.state.unit("grots").alive

        fast = enumerate_outcomes(after)
        assert fast == enumerate_outcomes(after, fine=True)
        assert sum(p for (is_locked, _), p in fast.items() if is_locked) == locked


# == 4. sequences around a character ==============================================================================
FAST = "WS5 BS4 S6 T4 W1 I6 A2 Ld8 Sv3+"
ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv-"


def split_fight(ruleset: str) -> Game:
    """A Captain (I5, 3 attacks) touching Ork X1 (unit x) and Ork Y1 (unit y); a fast trooper (I6) touches X1 too."""
    from _w40k import hero
    x1 = (20 - 0.5 * BASE_25, 20 + 0.866 * BASE_25)
    red = [{"id": "fast", "status": ["locked"], "models": [model("Fast", x1[0] - BASE_25, x1[1], profile=FAST)]},
           {**hero("cap", 20, 20), "status": ["locked"]}]
    blue = [{"id": "x", "status": ["locked"], "models": [model("X1", *x1, profile=ORK)]},
            {"id": "y", "status": ["locked"], "models": [model("Y1", 20, 20 - BASE_25, profile=ORK)]}]
    return game(scenario(ruleset, red, blue, phase="assault"))


@pytest.mark.rule("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_split_on_a_unit_slain_before_the_character_strikes_goes_to_the_foe_he_still_touches(ruleset: str) -> None:
    """Seed 000: a character's attacks "may be distributed as the player wishes, but before he rolls to hit", and only
    models in base contact with him may suffer them.  Decision (40k3.char.attack-allocation): a split declared ahead
    whose unit is slain at a higher Initiative is struck, when the Captain's to-hit dice come, at the foe he still
    touches (the player could declare it anew then); the 1 on Y stays 1 apart.  A split naming a unit not in base
    contact is refused, and changes nothing."""
    g = split_fight(ruleset)
    assert_illegal(g, {"do": "allocate", "character": "cap", "attacks": {"far": 1}},
                   "40k3.char.allocation-b2b-only" if ruleset == "40k3" else "40k4.cc.engaged-only")
    g.apply({"do": "allocate", "character": "cap", "attacks": {"x": 2, "y": 1}})
    # Fast: hits 6 6, wounds 6 6 (X1 has no save): X1 slain at I6; the Captain at I5: his split 1 on y (miss: 1),
    # then the 2 declared on x struck at y (6 6 to hit, 6 6 to wound)
    events = g.apply({"do": "fight", "unit": "cap"}, dice=ScriptedDice([6, 6, 6, 6, 1, 6, 6, 6, 6]))
    blows = [e.message for e in events if e.kind == "attacks"]
    assert blows == ["fast attacks x (2): 2 hits, 2 wounds", "Cap (split) attacks y (1): 0 hits, 0 wounds",
                     "Cap attacks y (2): 2 hits, 2 wounds"]
    assert not g.state.unit("x").alive and not g.state.unit("y").alive


def shot_dead_around_captain(ruleset: str, near: bool) -> Game:
    """Blue's one-Marine squad with its Captain joined; red's lascannon (a) and bolter (b); a blue Scout either 6"
    from b (nearer than the Captain, ``near``) or far off, and always more than 6" from the Captain."""
    from _w40k import hero
    blue = [{"id": "tac", "models": [model("T1", 20, 30, profile=MARINE)]}, hero("cap", 22, 30, joined="tac"),
            {"id": "scout", "models": [model("Scout", 30, 22 if near else 45, profile=MARINE)]}]
    red = [{"id": "a", "models": [{**model("A1", 20, 24, profile=MARINE), "weapons": ["lascannon"]}]},
           {"id": "b", "models": [{**model("B1", 24, 22, profile=MARINE), "weapons": ["bolter"]}]}]
    return game(scenario(ruleset, red, blue, phase="shooting"))


@pytest.mark.rule("40k3.ic.target", "40k3.ic.join", "40k4.target.closest", "40k4.target.joined", "40k3.ic.no-last-man",
                  "40k4.char.no-last-man")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_captain_left_alone_by_a_volley_is_a_target_by_the_lone_character_rule_in_the_same_phase(ruleset: str
                                                                                                   ) -> None:
    """The lascannon slays the squad's last Marine: the Captain, a unit of his own at once (no Last Man Standing),
    may be shot by the next unit of the same Shooting phase only as a lone character: in 4th edition when he is its
    closest target (40k4.target.closest), in 3rd when he is its closest within 12" or more than 6" from every other
    unit of his side (40k3.ic.target).  Before the volley he was joined, no target of his own."""
    shoot_b = {"do": "shoot", "unit": "b", "target": "cap"}
    for near in (False, True):
        g = shot_dead_around_captain(ruleset, near)
        assert_illegal(g, shoot_b, "40k3.ic.join" if ruleset == "40k3" else "40k4.target.joined")
        events = g.apply({"do": "shoot", "unit": "a", "target": "tac"}, dice=ScriptedDice([6, 6]))
        assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
        no_last = "40k3.ic.no-last-man" if ruleset == "40k3" else "40k4.char.no-last-man"
        assert any(no_last in e.rules for e in events)
        if ruleset == "40k4" and near:  # the Scout (6" from b, the Captain 8.2") is b's closest target
            assert_illegal(g, shoot_b, "40k4.target.closest")
        elif ruleset == "40k3" and near:  # the Scout is closer to b, but the Captain stands more than 6" from it
            assert_legal(g, shoot_b, "40k3.ic.target")
        else:
            assert_legal(g, shoot_b, "40k3.ic.target" if ruleset == "40k3" else "40k4.target.closest")
