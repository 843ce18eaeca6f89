"""A judge's cases for 40k 3rd and 4th edition, twenty-fourth round: characters in sequences where the state changes
around them.

Found wrong and fixed in this round:
- a 4th edition retinue leader whose own retinue was destroyed, once he joined another leader's retinue in play, was
  held by it for good ("leads its retinue rb"): only the unit he was fielded with holds him (40k4.char.retinue);
- a model whose squad moved and whose Heavy weapon therefore fired nothing was told "has no weapon that can fire at
  boyz (8.0")", as if out of range, citing no rule: the note says the unit moved and cites published.weapon-profiles;
- in 3rd edition a Captain could join a falling back squad and the squad then take its Regroup test on his
  Leadership: the test is taken at the start of the Movement phase, before any of its models moves
  (published.regroup).
"""

from __future__ import annotations

from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game

from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad


def to_next_movement(g: Game) -> None:
    """End phases until the active side's next Movement phase."""
    side = g.state.active
    g.apply({"do": "end_phase"})
    while not (g.state.active == side and g.state.phase.value == "movement"):
        g.apply({"do": "end_phase"})


# == 1. a retinue holds only the leader fielded with it ============================================================
def two_retinues() -> Game:
    """Inquisitor A, whose retinue ``ra`` was destroyed, stands alone beside Inquisitor B's living retinue ``rb``."""
    ra: dict[str, Any] = {"id": "ra", "rules": ["retinue"], "destroyed": True, "models": []}
    a = {**hero("inqa", 15, 12), "rules": ["retinue"]}
    rb = {**squad("rb", 20, 10, n=2), "rules": ["retinue"]}
    b = {**hero("inqb", 22, 11.5, joined="rb"), "rules": ["retinue"]}
    return game(scenario("40k4", [ra, a, rb, b]))


@pytest.mark.rule("40k4.char.retinue", "40k4.ic.join", "40k4.ic.leave")
def test_40k4_a_leader_whose_retinue_is_destroyed_may_leave_another_leaders_retinue_he_joined() -> None:
    """Inquisitor A, his own retinue destroyed, joins B's retinue; in his next Movement phase he may leave it (before
    session 24 he was refused: "inqa leads its retinue rb"), while B, fielded with it, may not while it lives."""
    g = two_retinues()
    join = {"do": "join", "character": "inqa", "unit": "rb", "to": [19, 12]}
    assert_legal(g, join, "40k4.ic.join")
    g.apply(join)
    assert g.state.unit("inqa").joined == "rb"
    to_next_movement(g)
    assert_legal(g, {"do": "leave", "character": "inqa", "to": [19, 16]}, "40k4.ic.leave")
    refused = assert_illegal(g, {"do": "leave", "character": "inqb", "to": [25, 16]}, "40k4.char.retinue")
    assert "inqb leads its retinue rb" in str(refused)


# == 2. why a model of a squad that moved fires nothing ============================================================
def heavy_squad(ruleset: str, moved: bool) -> Game:
    """Three heavy bolters 8" from three Boyz (one Boy 40" off); red's Shooting phase, the squad moved or not."""
    tac = {"id": "tac", "status": ["moved"] if moved else [],
           "models": [{**model(f"H{i}", 20 + 2 * i, 20), "weapons": ["heavy bolter"]} for i in range(3)]}
    boyz = {"id": "boyz", "models": [model(f"B{i}", 20 + 2 * i, 29, 7) for i in range(3)]}
    return game(scenario(ruleset, [tac], [boyz], phase="shooting"))


@pytest.mark.rule("published.weapon-profiles", "published.shooting")
@pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
def test_a_heavy_weapon_that_does_not_fire_after_moving_is_said_so_citing_its_rule(ruleset: str) -> None:
    """Still, the heavy bolters fire 3 shots each. Moved, none fires, and each note says why, citing
    published.weapon-profiles (before session 24: "H0 has no weapon that can fire at boyz (8.0")", as if out of range,
    citing nothing)."""
    still = heavy_squad(ruleset, moved=False).apply({"do": "shoot", "unit": "tac", "target": "boyz"},
                                                    dice=ScriptedDice([1] * 9))
    assert [e.message for e in still if e.kind == "shots"] == ["3 models fire 9 shots with heavy bolter: 0 hits, "
                                                               "0 wounds"]
    events = heavy_squad(ruleset, moved=True).apply({"do": "shoot", "unit": "tac", "target": "boyz"})
    notes = [e for e in events if e.kind == "note"]
    assert [e.message for e in notes] == [f"H{i}, whose unit moved this turn: its heavy bolter (Heavy) at boyz (8.0\") "
                                          "fires no shot after moving [published.weapon-profiles]" for i in range(3)]
    assert all(e.rules == ("published.weapon-profiles",) for e in notes)
    assert not [e for e in events if e.kind == "shots"]


# == 3. a character who joins a falling back squad lends it no Leadership for its Regroup test ======================
def falling_back_squad() -> Game:
    """3rd edition: three Marines (Ld 8) falling back, their Captain (Ld 10) 3" away; red's Movement phase."""
    red = [squad("tac", 20, 20, status=["falling_back"]), hero("cap", 28, 22)]
    return game(scenario("40k3", red, [squad("orks", 20, 40)], phase="movement"))


@pytest.mark.rule("published.regroup", "40k3.ic.falling-back", "40k3.char.leadership", "40k3.ic.join")
def test_40k3_a_squad_regroups_at_the_start_of_the_phase_before_its_captain_joins_it() -> None:
    """The Regroup test comes at the start of the Movement phase: taken first, it is on the squad's own Ld 8, and the
    Captain may join the squad after; once he has joined it (3rd edition lets him join a falling back unit) the test
    is refused, the game unchanged (before session 24 the squad then tested on his Ld 10)."""
    join = {"do": "join", "character": "cap", "unit": "tac", "to": [25.5, 21]}
    g = falling_back_squad()
    assert_legal(g, {"do": "regroup", "unit": "tac"}, "published.regroup")
    [test] = [e for e in g.apply({"do": "regroup", "unit": "tac"}, dice=ScriptedDice([4, 4])) if e.kind == "regroup"]
    assert "on Ld 8" in test.message
    assert_legal(g, join, "40k3.ic.join")
    g = falling_back_squad()
    g.apply(join)
    refused = assert_illegal(g, {"do": "regroup", "unit": "tac"}, "published.regroup")
    assert "cap has moved this phase" in str(refused)
