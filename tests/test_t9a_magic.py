"""The 9th Age Magic phase: Magic Dice, casting value, dispelling, the Wizard Conclave (2022 text: tests/test_t9a_magic_2022.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from _t9a import refused, scenario
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, enumerate_outcomes
from herohammer.errors import HerohammerError, ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data

CONCLAVE = "Wizard Conclave (Fireball, Flame Cage, Burning Head)"
CAST = {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2}


def magic_scenario(spells: list[str] | None = None, rules: list[str] | None = None, n: int = 10,
                   roles: dict[int, str] | None = None, **kw: Any) -> dict[str, Any]:
    data = scenario(phase="magic", active="elves", roles={0: "champion"} if roles is None else roles, n=n,
                    spear_rules=rules if rules is not None else [CONCLAVE],
                    extra={"magic_dice": {"elves": 6, "orcs": 4}}, **kw)
    data["sides"]["elves"][0]["spells"] = spells if spells is not None else ["Fireball", "Flame Cage"]
    return data


def magic_game(**kw: Any) -> Game:
    return Game(state_from_data(magic_scenario(**kw)))



@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_conclave_spells_are_chosen_from_the_rule_list_before_the_game() -> None:
    g = magic_game()
    assert state_from_data(state_to_data(g.state)) == g.state
    with pytest.raises(ScenarioError, match=r"sides\.elves\[0\]\.spells.*not in the Wizard Conclave list"):
        state_from_data(magic_scenario(spells=["Fireball", "Lightning Bolt"]))
    with pytest.raises(ScenarioError, match="exactly two"):
        state_from_data(magic_scenario(spells=["Fireball", "Flame Cage", "Burning Head"]))
    # the normal selection: a Wizard Adept knows at most two spells, from any list
    assert state_from_data(magic_scenario(spells=["Fireball", "Lightning Bolt"], rules=["Wizard Adept"]))
    with pytest.raises(ScenarioError, match="at most 2"):
        state_from_data(magic_scenario(spells=["Fireball", "Lightning Bolt", "Flame Cage"], rules=["Wizard Adept"]))
    with pytest.raises(ScenarioError, match="only a Wizard"):
        state_from_data(magic_scenario(rules=[]))


def test_a_wizard_level_written_with_its_path_is_that_level() -> None:
    """A roster writes the level with the Path its spells come from: ``Wizard Adept (Pyromancy)`` casts as an Adept."""
    plain, pathed = magic_game(spells=["Fireball"], rules=["Wizard Adept"]), magic_game(
        spells=["Fireball"], rules=["Wizard Adept (Pyromancy)"])
    # 2022 text (rules/wizards): only a Wizard Master has a Casting Modifier, so an Adept casts at +0
    assert pathed.check(CAST).legal and pathed.check(CAST).reason == plain.check(CAST).reason and "+0" in pathed.check(
        CAST).reason
    dice = [3, 4, 2, 5, 6, 1, 4, 4, 1, 1, 1, 1]
    assert [e.message for e in pathed.apply(CAST, ScriptedDice(dice))] == [
        e.message for e in plain.apply(CAST, ScriptedDice(dice))]
    with pytest.raises(ScenarioError, match="at most 2"):  # an Adept's two spells, Path or not
        state_from_data(magic_scenario(spells=["Fireball", "Lightning Bolt", "Flame Cage"],
                                       rules=["Wizard Adept (Pyromancy)"]))


@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_the_conclave_casts_its_chosen_spells_as_a_master_wizard() -> None:
    g = magic_game()
    ruling = g.check(CAST)
    assert ruling.legal and "t9a.spell.wizard-conclave" in ruling.rules and "+1" in ruling.reason  # Master: +1
    refused(g, {**CAST, "spell": "Burning Head"}, "t9a.spell.wizard-conclave", "does not know")
    # 2 + 2 + 1 (Master) = 5: cast; D6 = 3 hits of S4 on T4 orcs (4+): 6, 6, 1; their 6+ saves (a Fireball's AP 0)
    # fail on 1 1
    events = g.apply(CAST, ScriptedDice([2, 2, 3, 6, 6, 1] + [1, 1] + [3, 4]))
    assert events[0].data == (("outcome", "cast"),) and "t9a.spell.wizard-conclave" in events[0].rules
    assert len(g.state.unit("orcs").models) == 3
    assert events[-1].kind == "panic" and "passes" in events[-1].message  # 2 of 5 lost; 7 against Ld 7
    # each event lists its own dice: the cast its casting, hit, wound and save dice, the Panic test its 2D6
    assert [f for r in events[0].rolls for f in r.faces or ()] == [2, 2, 3, 6, 6, 1, 1, 1]
    assert [f for r in events[-1].rolls for f in r.faces or ()] == [3, 4]
    refused(g, CAST, "published.t9a-magic", "already cast Fireball")


@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_the_champion_has_one_more_wound_and_the_unit_casts_only_while_he_lives() -> None:
    g = magic_game(n=2)
    champion = next(m for m in g.state.unit("spears").models if m.role == "champion")
    orcs = Game(state_from_data({**state_to_data(g.state), "phase": "shooting", "active": "orcs"}))
    # 5 bows: 2 hit, 2 wound, 2 saves failed: 2 unsaved wounds on the spearman and the champion; Panic passed
    orcs.apply({"do": "shoot", "unit": "orcs", "target": "spears"},
               ScriptedDice([6, 6, 1, 1, 1] + [6, 6] + [1, 1] + [1, 1]))
    left = orcs.state.unit("spears").models
    assert [m.name for m in left] == [champion.name] and left[0].wounds_taken == 1  # W1 + 1: still standing
    no_champion = magic_game(roles={})
    refused(no_champion, CAST, "t9a.spell.wizard-conclave", "champion")


def test_dice_and_range_are_checked() -> None:
    g = magic_game()
    refused(g, {**CAST, "dice": 6}, "published.t9a-magic", "1 to 5 Magic Dice")  # at most five dice in one attempt
    with pytest.raises(HerohammerError, match=r"field dice:"):
        g.check({**CAST, "dice": 13})  # beyond any pool: the file's own bound
    refused(g, {**CAST, "dice": 5, "dispel": 5}, "published.t9a-magic", "4 Magic Dice left to dispel")
    far = magic_game(enemy_y=46)
    refused(far, CAST, "published.t9a-magic", "beyond Fireball's range")
    fizzled = magic_game()
    events = fizzled.apply({**CAST, "spell": "Flame Cage", "dice": 5}, ScriptedDice([1, 1, 1, 1, 1]))  # 5 + 1 < 8
    assert events[0].data == (("outcome", "failed"),)
    assert fizzled.state.magic.left("elves") == 6  # 2022 text: the failed attempt Fizzles, its five 1s come back
    events = g.apply({**CAST, "dice": 5}, ScriptedDice([2, 3, 4, 5, 6] + [1] + [1]))  # cast: 1 hit, not wounded
    assert events[0].data == (("outcome", "cast"),)
    refused(g, {**CAST, "spell": "Flame Cage", "dice": 2}, "published.t9a-magic", "1 Magic Dice left")


def test_dispel_and_no_overwhelming_power() -> None:
    g = magic_game()
    events = g.apply({**CAST, "dispel": 2}, ScriptedDice([3, 2, 4, 3]))  # 6 cast; 7 dispels it
    assert events[0].data == (("outcome", "dispelled"),) and g.state.magic.left("orcs") == 2
    assert g.state.magic.left("elves") == 4
    g2 = magic_game()
    # 2022 text: two natural 6s are no Overwhelming Power (the 1st edition's): 6 + 6 + 1 = 13 is dispelled by 14
    events = g2.apply({**CAST, "dispel": 4}, ScriptedDice([6, 6] + [4, 4, 3, 3]))
    assert events[0].data == (("outcome", "dispelled"),) and g2.state.magic.left("orcs") == 0
    assert not any(e.kind == "miscast" for e in events)
    g2.apply({"do": "end_phase"})
    assert g2.state.magic.left("elves") == 6 and g2.state.magic.cast == ()


def test_casting_odds_are_exact_against_brute_force() -> None:
    g = magic_game(spells=["Lightning Bolt"], rules=["Wizard Adept"])
    action = parse_action({**CAST, "spell": "Lightning Bolt", "dispel": 2})

    def outcome(dice: Any) -> str:
        _, events = g.ruleset.resolve(g.state, action, dice)
        return str(dict(events[0].data)["outcome"])

    got = enumerate_outcomes(outcome)
    want: dict[str, Fraction] = {}
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        roll = a + b  # Wizard Adept: no Casting Modifier (2022 text); two dice: no Miscast, no single-die rule
        if roll < 7:
            o = "failed"
        else:
            o = "dispelled" if c + d >= roll else "cast"
        want[o] = want.get(o, Fraction(0)) + Fraction(1, 6 ** 4)
    assert {k: Fraction(v) for k, v in got.items()} == want
