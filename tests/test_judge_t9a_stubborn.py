"""The 9th Age's Stubborn (published.t9a-stubborn): a unit with one or more models with Stubborn takes its Break test
on its unmodified Discipline, and Disrupted Ranks (which take Steadfast away) do not take it away.  Before session 23
nothing read Stubborn in a 9th Age game.  Every case goes through ``Game`` (the Break test's event and rules)."""

from __future__ import annotations

import pytest

from herohammer.units import Status

from test_judge_t9a_round18 import BREAK, fought, melee, right_flank

STUBBORN = "published.t9a-stubborn"
#: fifteen Spearmen (three Full Ranks) lose by 2 to charging orcs with a standard and ten wolves in their flank
#: (Disrupted Ranks: no Steadfast); the Break test rolls 4 + 5 on the Hero's Ld 9
LOSING = {"n": 14, "orc_roles": {0: "standard"}, "extra": [right_flank(10)]}


@pytest.mark.rule(STUBBORN, BREAK)
@pytest.mark.parametrize("who", ["unit", "character"])
def test_a_stubborn_unit_breaks_on_its_unmodified_discipline_despite_disrupted_ranks(who: str) -> None:
    """Without Stubborn the 9 fails at -2 and the Spearmen break; Stubborn Spearmen, or a Stubborn Hero with them,
    test unmodified: 9 on Ld 9 holds, citing the rule."""
    # the flee, then the orcs' and the wolves' pursuits (every winner in contact pursues, round 32)
    g, said, rules = fought(melee(**LOSING), [4, 5, 1, 1, 1, 1, 1, 1])  # type: ignore[arg-type]
    assert "Ld 9 (Hero) -2" in said and "breaks" in said and STUBBORN not in rules, said
    kw = {"spear_rules": ["Stubborn"]} if who == "unit" else {"hero_rules": ["Stubborn"]}
    g, said, rules = fought(melee(**LOSING, **kw), [4, 5])  # type: ignore[arg-type]
    assert "orcs wins by 2" in said and "Ld 9 (Hero) unmodified, Stubborn" in said and ": 9, holds" in said, said
    assert STUBBORN in rules and BREAK in rules
    assert not g.state.unit("spears").has(Status.FLEEING)


@pytest.mark.rule(STUBBORN, BREAK)
def test_stubborn_does_not_pass_a_test_the_unmodified_discipline_fails() -> None:
    """Stubborn takes the modifier away, nothing more: 6 + 4 on Ld 9 still fails and the Spearmen break."""
    g, said, rules = fought(melee(**LOSING, spear_rules=["Stubborn"]),  # type: ignore[arg-type]
                            [6, 4, 1, 1, 1, 1, 1, 1])
    assert "unmodified, Stubborn" in said and "breaks" in said and STUBBORN in rules, said
