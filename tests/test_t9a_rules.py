"""The 9th Age character rules (seed 002): joining, leaving, charging out, combined units."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from herohammer.actions import Charge
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.errors import IllegalActionError, ScenarioError
from herohammer.formations import place_in_front_rank
from herohammer.game import Game
from herohammer.rulesets.t9a_turn import charge_out_odds
from herohammer.rulesets.t9a import is_character, NinthAge
from herohammer.rulesets.t9a_discipline import choose_conclave_spells, heavy_casualties_panic
from herohammer.rulesets.t9a_combat import unit_discipline
from herohammer.rulesets.t9a_units import combined_status, is_destroyed, model_wounds
from herohammer.rulesets.t9a_casualties import remove_casualties
from herohammer.scenario import load_scenario, state_from_data, state_to_data
from herohammer.state import Phase
from herohammer.units import Status

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SPEAR = "WS4 BS4 S3 T3 W1 I5 A1 Ld8 Sv5+ Adv5 Mar10"
HERO = "WS6 BS6 S4 T4 W3 I6 A3 Ld9 Sv4+ Adv5 Mar10"
ORC = "WS3 BS3 S3 T4 W1 I2 A1 Ld7 Sv6+ Adv4 Mar8"


def scenario(n: int = 10, files: int = 5, phase: str = "movement", hero_at: tuple[float, float] = (36, 24),
             joined: bool = False, host_status: list[str] | None = None, roles: dict[int, str] | None = None,
             enemy_y: float = 40.0, enemy_rules: list[str] | None = None, extra: list[dict[str, Any]] | None = None,
             hero_rules: list[str] | None = None, host_rules: list[str] | None = None) -> dict[str, Any]:
    roles = roles or {}
    models = [{"name": f"s{i}", "profile": SPEAR, "base": [20, 20], **({"role": roles[i]} if i in roles else {})}
              for i in range(n)]
    hero: dict[str, Any] = {"id": "hero", "character": "independent", "rules": hero_rules or [],
                            "models": [{"name": "Hero", "profile": HERO, "base": [20, 20], "at": list(hero_at)}]}
    if joined:
        hero["joined"] = "spears"
        del hero["models"][0]["at"]
    orcs = [{"name": f"o{i}", "profile": ORC, "base": [25, 25], "weapons": ["bow S3"]} for i in range(5)]
    return {
        "ruleset": "t9a", "phase": phase, "active": "elves",
        "sides": {
            "elves": [{"id": "spears", "status": host_status or [], "rules": host_rules or [],
                       "formation": {"position": [36, 20], "files": files}, "models": models}, hero, *(extra or [])],
            "orcs": [{"id": "orcs", "rules": enemy_rules or [],
                      "formation": {"position": [36, enemy_y], "facing": 180, "files": 5}, "models": orcs}],
        },
    }


def game(**kw: Any) -> Game:
    return Game(state_from_data(scenario(**kw)))


def refused(g: Game, action: dict[str, Any], rule: str) -> None:
    before = g.state
    ruling = g.check(action)
    assert not ruling.legal and rule in ruling.rules, ruling
    with pytest.raises(IllegalActionError) as exc:
        g.apply(action)
    assert rule in exc.value.rules
    assert g.state is before


JOIN = {"do": "join", "character": "hero", "unit": "spears"}


@pytest.mark.rule("t9a.char.universal")
def test_character_rule_makes_a_character() -> None:
    g = game()
    assert is_character(g.state.unit("hero")) and not is_character(g.state.unit("spears"))
    data = scenario(extra=[{"id": "noble", "rules": ["Character"],
                            "models": [{"name": "Noble", "profile": HERO, "base": [20, 20], "at": [10, 10]}]}])
    assert is_character(state_from_data(data).unit("noble"))
    refused(game(), {"do": "join", "character": "spears", "unit": "hero"}, "t9a.char.universal")


@pytest.mark.rule("t9a.char.front-rank")
def test_front_rank_is_checked_on_load() -> None:
    data = scenario(joined=True)
    data["sides"]["elves"][0]["formation"]["order"] = [f"s{i}" for i in range(5)] + ["Hero"] + [f"s{i}" for i in range(5, 10)]
    with pytest.raises(ScenarioError, match="t9a.char.front-rank"):
        state_from_data(data)
    ok = state_from_data(scenario(joined=True))
    assert "Hero" in ok.unit("spears").formation.front_rank()  # type: ignore[union-attr]


@pytest.mark.rule("t9a.char.front-rank")
def test_front_rank_may_stand_back_only_behind_a_first_rank_of_front_rank_models() -> None:
    data = scenario(n=2, files=2, joined=True, roles={0: "champion", 1: "standard"})
    data["sides"]["elves"][0]["formation"]["order"] = ["s0", "s1", "Hero"]
    state_from_data(data)  # first rank all Front Rank models: legal


@pytest.mark.rule("t9a.char.lone")
def test_lone_character_is_a_unit_of_one_model() -> None:
    g = game()
    assert g.check({"do": "move", "unit": "hero", "to": [[36, 28]]}).legal
    data = scenario()
    data["sides"]["elves"][1]["models"].append({"name": "Hero2", "profile": HERO, "base": [20, 20], "at": [40, 24]})
    with pytest.raises(ScenarioError, match="t9a.char.lone"):
        state_from_data(data)


@pytest.mark.rule("t9a.join.deploy")
def test_deployed_as_part_of_a_unit() -> None:
    state = state_from_data(scenario(joined=True))
    f = state.unit("spears").formation
    assert f is not None and f.front_rank()[2] == "Hero"
    assert state.unit("hero").models[0].at == f.point_of("Hero")
    assert state_from_data(state_to_data(state)) == state
    data = scenario(joined=True)
    data["sides"]["elves"][0]["character"] = "independent"
    data["sides"]["elves"][0]["models"] = data["sides"]["elves"][0]["models"][:1]
    data["sides"]["elves"][0]["joined"] = "orcs"
    with pytest.raises(ScenarioError):
        state_from_data(data)


@pytest.mark.rule("t9a.join.move")
def test_join_in_movement_phase_by_base_contact() -> None:
    g = game()
    assert g.check({**JOIN, "to": [36, 20.4]}).legal
    refused(game(), {**JOIN, "to": [36, 23]}, "t9a.join.move")
    refused(game(phase="charge"), JOIN, "t9a.join.move")


@pytest.mark.rule("t9a.join.forbidden")
@pytest.mark.parametrize("status", ["engaged", "fleeing"])
def test_cannot_join_engaged_or_fleeing_unit(status: str) -> None:
    assert game().check(JOIN).legal
    refused(game(host_status=[status]), JOIN, "t9a.join.forbidden")


@pytest.mark.rule("t9a.join.character-units")
def test_characters_join_each_other() -> None:
    extra = [{"id": "mage", "character": "independent",
              "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [37, 26]}]}]
    g = game(extra=extra)
    action = {"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen", "position": 1}
    g.apply(action)
    assert g.state.unit("mage").joined == "hero"
    assert g.state.unit("hero").formation.order == ("Hero", "Mage")  # type: ignore[union-attr]
    refused(g, {"do": "join", "character": "hero", "unit": "mage", "rank_choice": "widen"}, "t9a.join.character-units")


@pytest.mark.rule("t9a.join.position")
def test_join_displaces_champion_and_needs_reach() -> None:
    g = game(roles={2: "champion"})
    g.apply({**JOIN, "position": 2})
    f = g.state.unit("spears").formation
    assert f is not None
    assert f.front_rank() == ("s0", "s2", "Hero", "s3", "s4")
    assert "s2" in f.front_rank()  # the champion stays in the first rank
    assert f.rank_of("s1") == 1  # the spearman it displaced is pushed back
    far = game(hero_at=(36, 4))  # out of reach behind the unit (not on the orcs)
    refused(far, {**JOIN, "position": 0}, "t9a.join.position")


@pytest.mark.rule("t9a.join.single-rank")
def test_single_rank_choice() -> None:
    g = game(n=5, files=5)
    refused(g, JOIN, "t9a.join.single-rank")
    wide = game(n=5, files=5)
    wide.apply({**JOIN, "rank_choice": "widen", "position": 2})
    f = wide.state.unit("spears").formation
    assert f is not None and f.files == 6 and f.ranks == 1
    deep = game(n=5, files=5)
    deep.apply({**JOIN, "rank_choice": "second_rank", "position": 2})
    f = deep.state.unit("spears").formation
    assert f is not None and f.files == 5 and f.ranks == 2 and f.rank_of("s2") == 1
    refused(game(), {**JOIN, "rank_choice": "widen"}, "t9a.join.single-rank")


@pytest.mark.rule("t9a.join.unit-stops")
def test_unit_stops_after_join() -> None:
    g = game()
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal
    g.apply(JOIN)
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 22]]}, "t9a.join.unit-stops")


@pytest.mark.rule("t9a.join.moved-separately")
def test_moved_separately() -> None:
    g = game(hero_at=(36, 28))  # 8" away from its slot: marches
    g.apply(JOIN)
    assert g.state.unit("hero").has(Status.MARCHED)
    assert not g.state.unit("spears").has(Status.MOVED) and not g.state.unit("spears").has(Status.MARCHED)
    g2 = game()
    g2.apply(JOIN)
    assert g2.state.unit("hero").has(Status.MOVED) and not g2.state.unit("hero").has(Status.MARCHED)


@pytest.mark.rule("t9a.join.part-of-unit")
def test_part_of_unit() -> None:
    g = game()
    g.apply(JOIN)
    refused(g, {"do": "move", "unit": "hero", "to": [[36, 22]]}, "t9a.join.part-of-unit")
    hero = g.state.unit("hero")
    assert Status.HALTED in combined_status(g.state, hero)


@pytest.mark.rule("t9a.leave.when")
def test_leave_when() -> None:
    g = game(joined=True, phase="charge")  # in the Charge phase a character leaves only by charging out
    refused(g, {"do": "leave", "character": "hero", "to": [36, 26]}, "t9a.charge-out.declare")
    assert game(joined=True).check({"do": "leave", "character": "hero", "to": [36, 26]}).legal  # Movement phase
    refused(game(joined=True, phase="magic"), {"do": "leave", "character": "hero", "to": [36, 26]}, "t9a.leave.when")
    refused(game(joined=True, host_status=["engaged"]), {"do": "leave", "character": "hero", "to": [36, 26]},
            "t9a.leave.when")
    g2 = game(joined=True)
    g2.apply({"do": "leave", "character": "hero", "to": [36, 26]})
    refused(g2, {"do": "join", "character": "hero", "unit": "spears"}, "t9a.join.move")


@pytest.mark.rule("t9a.leave.move")
def test_leave_move_ignores_own_unit_and_may_fly() -> None:
    # backwards through its own unit: allowed
    assert game(joined=True).check({"do": "leave", "character": "hero", "to": [36, 12]}).legal
    blocker = [{"id": "wall", "models": [{"name": "w", "profile": SPEAR, "base": [20, 20], "at": [36, 23.5]}]}]
    refused(game(joined=True, extra=blocker), {"do": "leave", "character": "hero", "to": [36, 27]}, "t9a.leave.move")
    refused(game(joined=True, extra=blocker), {"do": "leave", "character": "hero", "to": [36, 27], "fly": True},
            "t9a.leave.move")
    assert game(joined=True, extra=blocker, hero_rules=["Fly"]).check(
        {"do": "leave", "character": "hero", "to": [36, 27], "fly": True}).legal
    refused(game(joined=True), {"do": "leave", "character": "hero", "to": [36, 35]}, "t9a.leave.move")


@pytest.mark.rule("published.t9a-leave-1inch", "t9a.leave.move")
def test_a_character_leaving_must_end_an_inch_from_his_unit() -> None:
    """The Hero leaves his front-rank slot straight ahead: his unit's nearest bases (the slot beside his, now empty)
    have their front edges at y=20, his own base is 20 mm, so he ends (y - 0.39 - 20)" from it."""
    g = game(joined=True)
    refused(g, {"do": "leave", "character": "hero", "to": [36, 21.3]}, "published.t9a-leave-1inch")  # 0.91"
    assert g.state.unit("hero").joined == "spears"
    g.apply({"do": "leave", "character": "hero", "to": [36, 21.45]})  # 1.06": he may
    assert g.state.unit("hero").joined is None and g.state.unit("hero").models[0].at == (36, 21.45)


@pytest.mark.rule("t9a.leave.unit-not-moved")
def test_leaving_does_not_move_the_unit() -> None:
    g = game(joined=True)
    g.apply({"do": "leave", "character": "hero", "to": [36, 26]})
    assert g.state.unit("hero").joined is None and g.state.unit("hero").has(Status.MOVED)
    assert not g.state.unit("spears").status
    assert "Hero" not in g.state.unit("spears").formation.order  # type: ignore[union-attr]
    assert g.check({"do": "move", "unit": "spears", "to": [[36, 22]]}).legal
    g.undo()
    assert g.state.unit("hero").joined == "spears"


CHARGE_OUT = {"do": "charge", "unit": "hero", "target": "orcs"}


@pytest.mark.rule("t9a.charge-out.declare", "published.t9a-charge")
def test_charge_out_declared() -> None:
    ruling = game(joined=True, phase="charge", enemy_y=30).check(CHARGE_OUT)
    assert ruling.legal and {"t9a.charge-out.declare", "published.t9a-charge"} <= set(ruling.rules)  # both apply
    unit = game(phase="charge", enemy_y=30, hero_at=(10, 10)).check({"do": "charge", "unit": "spears", "target": "orcs"})
    assert unit.legal and "published.t9a-charge" in unit.rules and "t9a.charge-out.declare" not in unit.rules
    refused(game(joined=True, phase="charge", enemy_y=45), CHARGE_OUT, "published.t9a-charge")
    refused(game(joined=True, phase="movement", enemy_y=30), CHARGE_OUT, "t9a.charge-out.declare")
    refused(game(joined=True, phase="charge", host_status=["engaged"]), CHARGE_OUT, "t9a.charge-out.declare")
    refused(game(joined=True, phase="charge", enemy_y=45), CHARGE_OUT, "t9a.charge-out.declare")


@pytest.mark.rule("t9a.charge-out.stand-and-shoot")
def test_stand_and_shoot_hits_the_character_only() -> None:
    g = game(joined=True, phase="charge", enemy_y=28, enemy_rules=["Stand and Shoot"])
    # 5 shots BS3 -1: hit 5+; S3 vs T4: 6+; Sv4+. Script: all hit, all wound, no saves -> 3 wounds slay the Hero
    g.apply(CHARGE_OUT, ScriptedDice([6] * 5 + [6] * 5 + [1] * 5 + [1, 1]))  # and the Spearmen's Panic test (29b)
    assert not g.state.unit("hero").alive
    assert len(g.state.unit("spears").models) == 10
    assert "Hero" not in g.state.unit("spears").formation.order  # type: ignore[union-attr]
    g2 = game(joined=True, phase="charge", enemy_y=28)  # no Stand and Shoot: no shooting dice at all
    g2.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    assert g2.state.unit("hero").has(Status.ENGAGED)


@pytest.mark.rule("t9a.charge-out.no-other-charges")
def test_no_other_charges() -> None:
    extra = [{"id": "mage", "character": "independent", "joined": "spears",
              "models": [{"name": "Mage", "profile": HERO, "base": [20, 20]}]}]
    g = game(joined=True, phase="charge", enemy_y=28, extra=extra)
    assert g.check({"do": "charge", "unit": "spears", "target": "orcs"}).legal
    g.apply(CHARGE_OUT, ScriptedDice([6, 6]))
    refused(g, {"do": "charge", "unit": "spears", "target": "orcs"}, "t9a.charge-out.no-other-charges")
    refused(g, {"do": "charge", "unit": "mage", "target": "orcs"}, "t9a.charge-out.no-other-charges")


@pytest.mark.rule("t9a.charge-out.own-rate")
def test_own_advance_rate_and_unit_bonus() -> None:
    slow = scenario(joined=True, phase="charge", enemy_y=30)
    slow["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("Adv5 Mar10", "Adv3 Mar6")
    state = state_from_data(slow)
    action = Charge(do="charge", unit="hero", target="orcs")
    # 10" away: Adv 3 needs 7+ on 2D6 (own rate, not the unit's 5)
    odds = charge_out_odds(state, action)
    assert odds["charged"] == Fraction(21, 36)
    swift = scenario(joined=True, phase="charge", enemy_y=30, host_rules=["Swiftstride"])
    swift["sides"]["elves"][1]["models"][0]["profile"] = HERO.replace("Adv5 Mar10", "Adv3 Mar6")
    odds2 = charge_out_odds(state_from_data(swift), action)
    assert odds2["charged"] > odds["charged"]


@pytest.mark.rule("t9a.charge-out.success")
def test_charge_success_moves_into_contact() -> None:
    g = game(joined=True, phase="charge", enemy_y=28)
    events = g.apply(CHARGE_OUT, ScriptedDice([2, 2]))  # 5 + 4 = 9 >= 8
    hero = g.state.unit("hero")
    assert hero.joined is None and hero.has(Status.ENGAGED) and hero.has(Status.CHARGED)
    from herohammer.geometry import group_distance
    assert group_distance(hero.placed, g.state.unit("orcs").placed) < 0.02
    assert "t9a.charge-out.success" in events[-1].rules


@pytest.mark.rule("t9a.charge-out.failure")
def test_failed_charge_move_and_shaken() -> None:
    g = game(joined=True, phase="charge", enemy_y=40)  # 20" away: beyond 5" + 12", refused
    refused(g, CHARGE_OUT, "t9a.charge-out.declare")
    g = game(joined=True, phase="charge", enemy_y=36)  # 16" away
    g.apply(CHARGE_OUT, ScriptedDice([1, 1]))  # range 7, Failed Charge move 1": less than 1" away from unit
    assert g.state.unit("hero").joined == "spears"
    assert g.state.unit("spears").has(Status.SHAKEN) and g.state.unit("hero").has(Status.SHAKEN)
    while g.state.phase is not Phase.CHARGE or g.state.active == "elves":
        g.apply({"do": "end_phase"})
    assert not g.state.unit("spears").has(Status.SHAKEN)
    g2 = game(joined=True, phase="charge", enemy_y=36)
    g2.apply(CHARGE_OUT, ScriptedDice([5, 3]))  # range 13 < 16: moves 5"
    assert g2.state.unit("hero").joined is None and not g2.state.unit("spears").has(Status.SHAKEN)


def test_charge_out_odds_exact_against_enumeration() -> None:
    state = load_scenario(EXAMPLES / "t9a_wizard_charges_out.yaml")
    action = Charge(do="charge", unit="wizard", target="orc_archers")
    odds = charge_out_odds(state, action)
    assert sum(odds.values()) == 1
    assert set(odds) == {"charged", "failed_left", "failed_stayed_shaken", "slain"}
    rules = NinthAge()
    again = enumerate_outcomes(lambda d: dict(rules.resolve(state, action, d)[1][-1].data)["outcome"])
    assert again == odds


@pytest.mark.rule("t9a.combined.last-survivor")
def test_last_survivor_is_still_the_unit() -> None:
    state = load_scenario(EXAMPLES / "t9a_unit_reduced_to_character.yaml")
    alone = remove_casualties(state, "swordmasters", ["sword1", "sword2"])
    assert not alone.unit("swordmasters").alive and not is_destroyed(alone, "swordmasters")
    assert Status.SHAKEN in combined_status(alone, alone.unit("captain"))
    ld, lent = unit_discipline(alone, "swordmasters") or (None, True)
    assert ld is not None and (ld.value, ld.source, lent) == (9, "Captain", False)  # the Captain's own Leadership
    dist = enumerate_outcomes(lambda d: heavy_casualties_panic(alone, "swordmasters", 2, 3, d, ld.value))
    assert all(r is not None and r[0].value == 9 for r in dist)  # (no re-roll)
    dead = remove_casualties(alone, "swordmasters", ["Captain"])
    assert is_destroyed(dead, "swordmasters")
    assert heavy_casualties_panic(state, "swordmasters", 0, 3, ScriptedDice([]), 9) is None


@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_wizard_conclave() -> None:
    data = scenario(roles={0: "champion"}, host_rules=["Wizard Conclave (Fireball, Flame Cage, Burning Head)"])
    unit = state_from_data(data).unit("spears")
    champion = next(m for m in unit.models if m.role == "champion")
    assert model_wounds(unit, champion) == champion.profile.w + 1
    assert model_wounds(unit, unit.models[1]) == 1
    assert choose_conclave_spells(unit, ["Fireball", "Flame Cage"]) == ("Fireball", "Flame Cage")
    with pytest.raises(IllegalActionError, match="Wizard Conclave"):
        choose_conclave_spells(unit, ["Fireball", "Meteor"])
    with pytest.raises(IllegalActionError):
        choose_conclave_spells(unit, ["Fireball"])


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("t9a_*.yaml")))
def test_examples_load_play_and_round_trip(name: str) -> None:
    g = Game.load(EXAMPLES / name)
    assert state_from_data(state_to_data(g.state)) == g.state
    for _ in range(12):
        actions = g.legal_actions()
        assert actions
        before = g.state
        g.apply(actions[0])
        g.undo()
        assert g.state == before
        g.apply(actions[-1])


def test_front_rank_displacement_keeps_order_complete() -> None:
    g = game(roles={2: "champion"})
    f = g.state.unit("spears").formation
    assert f is not None
    new = place_in_front_rank(f, "X", 2, lambda n: n in {"s2", "X"}, None)
    assert sorted(new.order) == sorted((*f.order, "X"))
    copy.deepcopy(new)
