"""A fall back that closes up a broken-up unit (judge round 44) takes the cheap way when it may, with the same result.

``MoraleRules._fallen_back`` closes up a unit that stands out of coherency (``straight_moves.gathered``). When the
move is clear of the table edge and every stray closed up stands inside the move's box, clear of its own unit
(``MoraleRules._close_up`` says so), the fall back keeps the quick look a straight move takes (nothing in the box of
the longest roll: nothing in the way); otherwise it settles every model as a move the table edge slid. These cases
play the same volleys on two games, one of them made to take the general way always, and compare what each ends in:
ten Boyz in a line, 2" apart (centre to centre), and their Nob at one end, broken up by the casualties a volley of
bolters makes, falling back with nothing near, with another unit in their way, and with their backs to the table
edge. The general way also measures the unit's coherency again for the event's words, where the quick way takes
``straight_moves.gathered``'s word on it (every stray closed up within reach of its chain, or the one left out
within 2" of it or not).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from herohammer.dice import SeededDice
from herohammer.game import Game
from herohammer.rulesets.w40k_morale import MoraleRules
from herohammer.scenario import state_from_data

from _w40k import EDITIONS, model, scenario

ORK = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv-"
VOLLEY = {"do": "shoot", "unit": "tac", "target": "boyz"}


def volley_at_boyz(ruleset: str, boyz_y: float, others: list[dict[str, Any]]) -> dict[str, Any]:
    """Red's Shooting phase: ten Marines with bolters 20" from blue's ten Boyz (Ld 5: they break often), who stand in
    a line at ``boyz_y`` and fall back away from the Marines (towards greater y), their joined Nob (Ld 5 too) 2" behind
    the line's first Boy, b1: the casualties are taken from b1 on (the models nearest the Marines first, in order on
    a tie), so from the second on the Nob stands adrift, a few inches from the line; ``others``: more blue units."""
    tac = {"id": "tac", "models": [{**model(f"M{i + 1}", 20 + 2 * i, boyz_y - 20), "weapons": ["boltgun"]}
                                   for i in range(10)]}
    boyz = {"id": "boyz", "models": [model(f"b{i + 1}", 20 + 2 * i, boyz_y, 5, ORK) for i in range(10)]}
    nob = {"id": "nob", "character": "independent", "joined": "boyz",
           "models": [model("Nob", 20, boyz_y + 2, 5, ORK)]}
    return scenario(ruleset, [tac], [boyz, nob, *others], phase="shooting")


#: Where the Boyz stand and what else is on the table: nothing in the way; a unit behind them, in the way of a long
#: fall back; their backs 10" from the table edge (48" deep), which the longer fall backs reach.
LAYOUTS: dict[str, tuple[float, list[dict[str, Any]]]] = {
    "open": (24.0, []),
    "a unit in the way": (24.0, [{"id": "grots", "models": [model(f"g{i + 1}", 23 + 3 * i, 31, 5, ORK)
                                                            for i in range(4)]}]),
    "the table edge behind": (36.0, []),
}


def _ends(ruleset: str, layout: str, seed: int, general: bool, monkeypatch: pytest.MonkeyPatch) -> Game:
    boyz_y, others = LAYOUTS[layout]
    if general:
        close_up = MoraleRules.__dict__["_close_up"].__func__

        def never_clean(*args: Any) -> tuple[bool, bool, bool | None]:
            closed, _, _ = close_up(*args)
            return closed, False, None  # nor its coherency known: measured again

        monkeypatch.setattr(MoraleRules, "_close_up", staticmethod(never_clean))
    g = Game(state_from_data(volley_at_boyz(ruleset, boyz_y, others)), SeededDice(seed))
    g.apply(VOLLEY)
    if ruleset == "40k4":  # the Morale check for a quarter lost is taken at the end of the phase
        g.apply({"do": "end_phase"})
    monkeypatch.undo()
    return g


def _seeds() -> Iterator[int]:
    yield from range(1, 41)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@EDITIONS
def test_a_fall_back_that_closes_up_ends_where_the_general_way_ends(ruleset: str, layout: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seed ends in the same state, with the same events, whichever way the fall back was settled; some of
    the seeds close the Boyz up (else the case would test nothing)."""
    closed_up = 0
    for seed in _seeds():
        quick = _ends(ruleset, layout, seed, False, monkeypatch)
        general = _ends(ruleset, layout, seed, True, monkeypatch)
        assert quick.state == general.state, (layout, seed)
        assert [e.message for e in quick.log] == [e.message for e in general.log], (layout, seed)
        closed_up += any("closing up into coherency" in e.message for e in quick.log)
    assert closed_up >= 3, closed_up


def test_gathered_says_whether_the_unit_ends_in_coherency_as_measuring_it_says() -> None:
    """``straight_moves.gathered``'s word on coherency (when it gives one) is what measuring every base says: a line of
    round bases with one or two strays behind it at random, closed up by rolls from 2" to 12"."""
    import random

    from herohammer import geometry as geo
    from herohammer import straight_moves

    rng = random.Random(7)
    said = {True: 0, False: 0}
    for _ in range(400):
        base = geo.Base.parse(rng.choice([25, 32, 40]))
        line = [(10.0 + 2.2 * i, 20.0) for i in range(rng.randint(2, 6))]
        strays = [(rng.uniform(5, 30), rng.uniform(24, 34)) for _ in range(rng.randint(1, 2))]
        starts = [geo.Placed(base, at, 0.0) for at in line + strays]
        found = straight_moves.gathered(starts, [p.at for p in starts], float(rng.randint(2, 12)))
        if found is None or found[2] is None:
            continue
        places, _, whole = found
        assert whole == geo.coherent([geo.Placed(base, at, 0.0) for at in places]), (line, strays)
        said[whole] += 1
    assert said[True] >= 20 and said[False] >= 20, said
