"""A judge's cases for The 9th Age, sixteenth round: seed 002 statement by statement, at its edge values, through
``Game`` (a legal case beside the one the seed forbids)."""

from __future__ import annotations

import pytest

from _t9a import game, refused


def slot_of_join() -> tuple[float, float]:
    """Where the Hero stands once he has joined the Spearmen from (36, 14): file 2 of their first rank."""
    g = game(phase="movement", active="elves", joined=False, hero_at=(36, 14))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    at = g.state.unit("hero").models[0].at
    return at[0], at[1]


@pytest.mark.rule("t9a.join.position", "t9a.join.move")
def test_a_hero_joins_with_exactly_his_march_rate_and_not_a_hair_more() -> None:
    """Seed 002: "if the character has not enough Movement to reach the position, he cannot join": 10" from the slot
    (his March Rate, 10) he joins, moving 10.00"; 10.05" away he is refused."""
    x, y = slot_of_join()
    g = game(phase="movement", active="elves", joined=False, hero_at=(x, y - 10.0))
    ruling = g.check({"do": "join", "character": "hero", "unit": "spears"})
    assert ruling.legal and 'moving 10.00" of its 10"' in ruling.reason
    g = game(phase="movement", active="elves", joined=False, hero_at=(x, y - 10.05))
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.position", "more than its March Rate")


@pytest.mark.rule("t9a.join.forbidden", "t9a.join.move")
@pytest.mark.parametrize("status", ["fleeing", "engaged"])
def test_no_join_to_a_unit_engaged_or_fleeing(status: str) -> None:
    g = game(phase="movement", active="elves", joined=False, hero_at=(36, 14))
    assert g.check({"do": "join", "character": "hero", "unit": "spears"}).legal
    g = game(phase="movement", active="elves", joined=False, hero_at=(36, 14), spear_status=[status])
    refused(g, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.forbidden", status)


@pytest.mark.rule("t9a.join.unit-stops", "t9a.leave.unit-not-moved")
def test_the_unit_may_not_move_after_a_join_but_may_after_a_leave() -> None:
    """Seed 002: once a character has joined, the unit cannot move again this Movement phase; a character leaving
    does not make the unit count as having moved, so it may still move."""
    g = game(phase="movement", active="elves", joined=False, hero_at=(36, 14))
    g.apply({"do": "join", "character": "hero", "unit": "spears"})
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 18]]}, "t9a.join.unit-stops", "cannot move again")
    g = game(phase="movement", active="elves")
    g.apply({"do": "leave", "character": "hero", "to": [36, 10]})
    assert any(getattr(a, "do", "") == "move" and a.unit == "spears" for a in g.legal_actions())
