"""The 9th Age's Reform after Rallying (published.t9a-rally, published.t9a-reform): a unit that passes its Rally test
may Reform at once; the rally action names the Reform (``facing``, ``files``), made only if the unit rallies.  Before
session 23 the free Reform was not modelled: a rallied unit could not change its formation that turn at all."""

from __future__ import annotations

import pytest

from herohammer.dice import ScriptedDice
from herohammer.errors import IllegalActionError
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.units import Status

from _t9a import scenario

RALLY = "published.t9a-rally"
REFORM = "published.t9a-reform"


def fleeing(hero_at: tuple[float, float] = (30, 15)) -> Game:
    """The ten Spearmen (5 files, facing 0) fleeing at the start of their Charge phase; the Hero apart at ``hero_at``."""
    data = scenario(phase="charge", active="elves", joined=False, hero_at=hero_at, spear_status=["fleeing"])
    return Game(state_from_data(data))


@pytest.mark.rule(RALLY, REFORM)
def test_a_unit_that_rallies_reforms_at_once_as_its_rally_names() -> None:
    """Passed (3 + 3 on Ld 8): the Spearmen stop fleeing and Reform to 2 files facing 90 degrees, citing both rules;
    they still count as having marched (no further move)."""
    g = fleeing()
    rally = {"do": "rally", "unit": "spears", "facing": 90, "files": 2}
    assert g.check(rally).legal and "Reforms at once" in g.check(rally).reason
    [event] = g.apply(rally, ScriptedDice([3, 3]))
    assert "rallies" in event.message and "Reforms after Rallying: 2 files facing 90 degrees" in event.message
    assert RALLY in event.rules and REFORM in event.rules
    spears = g.state.unit("spears")
    assert spears.formation is not None and (spears.formation.facing, spears.formation.files) == (90.0, 2)
    assert not spears.has(Status.FLEEING) and spears.has(Status.MARCHED)


@pytest.mark.rule(RALLY, REFORM)
def test_a_unit_that_fails_to_rally_makes_no_reform() -> None:
    """Failed (6 + 6): the Spearmen flee on, in their old ranks: no Reform is made."""
    g = fleeing()
    [event] = g.apply({"do": "rally", "unit": "spears", "facing": 90, "files": 2}, ScriptedDice([6, 6, 3, 3]))
    assert "fails to rally" in event.message and "Reform" not in event.message and REFORM not in event.rules
    spears = g.state.unit("spears")
    assert spears.formation is None or spears.formation.files == 5


@pytest.mark.rule(RALLY, REFORM)
def test_a_reform_after_rallying_that_cannot_be_made_is_refused_before_the_test() -> None:
    """A column of one file would end on the Hero (or within 1" of him): refused, citing the Rally and Reform rules
    (and Unit Spacing), and nothing changes; the plain rally stays legal."""
    for at, cited in (((36, 17), REFORM), ((36, 14), "published.t9a-unit-spacing")):
        g = fleeing(at)
        before = g.state
        rally = {"do": "rally", "unit": "spears", "files": 1}
        ruling = g.check(rally)
        assert not ruling.legal and RALLY in ruling.rules and cited in ruling.rules, ruling
        assert "(the Reform after Rallying)" in ruling.reason
        with pytest.raises(IllegalActionError):
            g.apply(rally, ScriptedDice([3, 3]))
        assert g.state is before
        assert g.check({"do": "rally", "unit": "spears"}).legal
