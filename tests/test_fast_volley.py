"""The shortcuts of a volley's resolution give the plain ways' answers exactly.

Batches of firers found in C against the plain grouping; a wound each on a unit of one save
(one save group, its save worked out once) against the same wounds allocated in two batches,
which takes the general per-wound path; a unit's Leadership sources read from its first
model against every model looked at.  Everything is compared by exact equality.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from herohammer.dice import SeededDice
from herohammer.geometry import Base
from herohammer.profiles import Profile
from herohammer.rulesets import get_ruleset
from herohammer.rulesets.base import LeadershipSource
from herohammer.rulesets.w40k_shooting import _batches
from herohammer.rulesets.w40k_wounds import WoundBatch
from herohammer.scenario import state_from_data
from herohammer.state import GameState
from herohammer.units import CharacterKind, Model, Unit, UnitType
from herohammer.weapons import Weapon, WeaponType

saves = st.sampled_from(["", " Sv6+", " Sv4+", " Sv3+", " Sv2+"])
invulnerables = st.sampled_from(["", "", " Inv5+", " Inv4+"])
profiles = st.builds(lambda w, ld, sv, inv: f"WS4 BS4 S4 T4 W{w} I4 A1 Ld{ld}{sv}{inv}",
                     st.sampled_from([1, 1, 2, 3]), st.sampled_from([7, 7, 8, 9]), saves, invulnerables)


def _target(profile_lists: list[list[str]], character: str | None) -> GameState:
    """A unit (and maybe a character joined to it) of the drawn profiles, 10" from one Marine."""
    def model(name: str, profile: str, x: float, y: float) -> dict[str, Any]:
        return {"name": name, "profile": profile, "base": 25, "at": [x, y]}

    host, *others = profile_lists
    units: list[dict[str, Any]] = [{"id": "mob", "models": [model(f"Mob {i}", p, 20 + 2 * i, 30) for i, p in enumerate(host)]}]
    if character is not None and others:
        units.append({"id": "boss", "character": character, "joined": "mob",
                      "models": [model(f"Boss {i}", p, 20 + 2 * i, 33) for i, p in enumerate(others[0])]})
    return state_from_data({"ruleset": "40k3", "phase": "shooting", "active": "red", "table": {"width": 72, "depth": 48},
                            "sides": {"red": [{"id": "marine", "models": [model("Marine", "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+",
                                                                              20, 20)]}],
                                      "blue": units}})


def _plain_batches(fired: list[tuple[Unit, Model, Weapon, int]]) -> dict[tuple[int, str, bool], list[Any]]:
    """The grouping spelt out: a character apart unless a trooper has its BS and weapon."""
    batches: dict[tuple[int, str, bool], list[Any]] = {}
    trooper_keys = {(m.profile.bs, w.name) for u, m, w, _ in fired if not u.is_character}
    for item in fired:
        u, m, w, _ = item
        apart = u.is_character and (m.profile.bs, w.name) not in trooper_keys
        batches.setdefault((m.profile.bs, w.name, apart), []).append(item)
    return batches


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([2, 3, 4]), st.sampled_from(["bolter", "plasma"])),
                max_size=8))
def test_batches_are_the_plain_grouping(firers: list[tuple[bool, int, str]]) -> None:
    weapons = {name: Weapon(name, 24, WeaponType.RAPID_FIRE, 4, 5) for name in ("bolter", "plasma")}
    trooper = Unit("squad", "red", UnitType.INFANTRY, ())
    boss = Unit("boss", "red", UnitType.INFANTRY, (), CharacterKind.INDEPENDENT, joined="squad")
    fired = [(boss if character else trooper, Model(f"M{i}", Profile(bs=bs, w=1), Base.parse(25), (float(i), 0.0)),
              weapons[weapon], 2) for i, (character, bs, weapon) in enumerate(firers)]
    assert _batches(fired) == _plain_batches(fired)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(profiles, min_size=1, max_size=6), min_size=1, max_size=2),
       st.sampled_from([None, "ordinary", "independent"]), st.integers(1, 12), st.sampled_from([None, 2, 4, 6]),
       st.booleans(), st.integers(0, 2**16))
def test_one_batch_allocates_as_the_same_wounds_in_two(profile_lists: list[list[str]], character: str | None,
                                                        wounds: int, ap: int | None, ignores_armour: bool,
                                                        seed: int) -> None:
    state = _target(profile_lists, character)
    ruleset = get_ruleset("40k3")
    pool = [(u.id, i) for u in state.combined("mob") for i in range(len(u.models))]
    first = wounds // 2
    whole = ruleset._take_wounds(state, pool, [WoundBatch(wounds, ap, ignores_armour)], SeededDice(seed), "mob",
                                 ("published.wound-allocation",))
    split = ruleset._take_wounds(state, pool, [WoundBatch(first, ap, ignores_armour),
                                               WoundBatch(wounds - first, ap, ignores_armour)], SeededDice(seed), "mob",
                                 ("published.wound-allocation",))
    assert whole == split


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(profiles, min_size=1, max_size=6), min_size=1, max_size=2),
       st.sampled_from([None, "ordinary", "independent"]), st.sampled_from(["40k3", "40k4"]))
def test_leadership_sources_are_every_models(profile_lists: list[list[str]], character: str | None,
                                             ruleset_name: str) -> None:
    state = _target(profile_lists, character)
    ruleset = get_ruleset(ruleset_name)
    seen: set[tuple[int, bool]] = set()
    sources = []
    for u in state.combined("mob"):
        for m in u.models:
            kind = (m.profile.ld, u.is_character)
            if kind not in seen:
                seen.add(kind)
                sources.append(LeadershipSource(m.name, *kind))
    assert ruleset.leadership_of(state, "mob") == ruleset.unit_leadership(sources)
