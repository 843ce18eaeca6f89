"""The 9th Age Magic phase read against the 2022 text (newrecruit wiki, the-ninth-age-(2022)/rules/...).

spell-casting-sequence: Casting Attempt of 1 to 5 dice, a single die's natural 1 or 2 always fails, one Casting Attempt
per spell per phase even for a spell known by different Wizards, the Dispelling Attempt, Broken Concentration; Casting
and Dispelling Modifiers (+1 to cast for a Wizard Master, rules/wizards); Fizzle; miscasts: three of a kind, -1 with 3
dice, +1 with 5, and the Miscast table.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from _t9a import exact_odds_as_brute_force, play_to, refused, reloads, scenario
from herohammer.action_odds import action_odds
from herohammer.actions import parse_action
from herohammer.dice import ScriptedDice, SeededDice, enumerate_outcomes
from herohammer.game import Game
from herohammer.rulesets.t9a_magic import attempt_passes, fizzled, miscast_value
from herohammer.scenario import state_from_data, state_to_data

MAGIC = "published.t9a-magic"
MISCAST = "published.t9a-miscast"
CONCLAVE = "t9a.spell.wizard-conclave"
CONCLAVE_RULE = "Wizard Conclave (Fireball, Flame Cage, Burning Head)"
CAST = {"do": "cast", "unit": "spears", "spell": "Fireball", "target": "orcs", "dice": 2}
#: Fireball's D6 = 1 hit, then its to-wound roll of 1 (S4 against the orcs' T4): nothing happens to the orcs.
FIZZLING_FIREBALL = [1, 1]


def conclave(hero: dict[str, Any] | None = None, dice: dict[str, int] | None = None, n: int = 10) -> Game:
    """Ten Spearmen with Wizard Conclave (Fireball, Flame Cage), their champion a Master Wizard (W1 + 1); the Hero
    (``hero``: his rules and spells) with them; the orcs 14" away; elves 6 Magic Dice, orcs 4."""
    data = scenario(n=n, phase="magic", active="elves", roles={0: "champion"}, spear_rules=[CONCLAVE_RULE],
                    extra={"magic_dice": dice or {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][0]["spells"] = ["Fireball", "Flame Cage"]
    if hero:
        data["sides"]["elves"][1].update(hero)
    g = Game(state_from_data(data))
    assert state_from_data(state_to_data(g.state)) == g.state
    return g


def outcome(event: Any) -> str:
    return str(dict(event.data)["outcome"])


# -- Casting Modifiers -------------------------------------------------------------------------------------------------
@pytest.mark.rule(MAGIC, CONCLAVE)
@pytest.mark.parametrize("level, modifier", [("Wizard Apprentice", "+0"), ("Wizard Adept", "+0"),
                                             ("Wizard Master", "+1")])
def test_only_a_wizard_master_has_a_casting_modifier(level: str, modifier: str) -> None:
    g = conclave({"rules": [level], "spells": ["Lightning Bolt"]})
    ruling = g.check({**CAST, "unit": "hero", "spell": "Lightning Bolt"})
    assert ruling.legal and f"Magic Dice {modifier}" in ruling.reason, ruling
    # the Wizard Conclave's champion is its Master Wizard: +1
    assert "Magic Dice +1 (a Wizard Master's Casting Modifier)" in g.check(CAST).reason
    # 3 + 1 + 1 = 5 casts Fireball (CV 5) for the Conclave; the same 4 would not have for an Adept
    events = g.apply(CAST, ScriptedDice([3, 1] + FIZZLING_FIREBALL))
    assert outcome(events[0]) == "cast" and "3+1+1 = 5" in events[0].message, events[0].message


# -- a single Magic Dice ----------------------------------------------------------------------------------------------
@pytest.mark.rule(MAGIC)
def test_a_single_dice_natural_1_or_2_always_fails() -> None:
    assert not attempt_passes((2,), 9, 5) and not attempt_passes((1,), 12, 2)  # whatever the modifiers
    assert attempt_passes((3,), 5, 5) and attempt_passes((2, 1), 5, 3)  # two dice: only their total counts
    g = conclave()
    events = g.apply({**CAST, "dice": 1}, ScriptedDice([2]))
    assert outcome(events[0]) == "failed" and "a natural 2 on a single Magic Dice" in events[0].message
    assert g.state.magic.left("elves") == 5  # one die: no Fizzle
    # a single dispelling die's natural 1 or 2 fails too (the Dispelling Attempt read as the Casting Attempt's mirror)
    events = g.apply({**CAST, "spell": "Flame Cage", "dice": 2, "dispel": 1}, ScriptedDice([4, 4, 2] + [1, 1] + [1, 1]))
    assert outcome(events[0]) == "cast" and "natural 2 on a single Magic Dice fails" in events[0].message


# -- Fizzle -----------------------------------------------------------------------------------------------------------
@pytest.mark.rule(MAGIC)
def test_a_failed_attempt_of_two_dice_or_more_fizzles_its_natural_1s_back() -> None:
    assert fizzled((1, 1, 3)) == 2 and fizzled((1,)) == 0 and fizzled((2, 3)) == 0
    g = conclave()
    events = g.apply(CAST, ScriptedDice([1, 2]))  # 1 + 2 + 1 = 4 < 5: failed; the 1 comes back
    assert outcome(events[0]) == "failed" and "Fizzle: 1 natural 1 back to elves's Magic Dice" in events[0].message
    assert g.state.magic.left("elves") == 5 and MAGIC in events[0].rules
    # a passed Casting Attempt then dispelled gives nothing back; the passed Dispelling Attempt neither
    events = g.apply({**CAST, "spell": "Flame Cage", "dice": 3, "dispel": 3}, ScriptedDice([1, 3, 4] + [6, 1, 3]))
    assert outcome(events[0]) == "dispelled" and "Fizzle" not in events[0].message
    assert g.state.magic.left("elves") == 2 and g.state.magic.left("orcs") == 1
    # a failed Dispelling Attempt of two dice gives its natural 1s back to the reactive player
    g = conclave()
    events = g.apply({**CAST, "dispel": 3}, ScriptedDice([6, 5] + [1, 1, 4] + FIZZLING_FIREBALL))
    assert outcome(events[0]) == "cast" and "Fizzle: 2 natural 1s back to orcs's Magic Dice" in events[0].message
    assert g.state.magic.left("orcs") == 3 and g.state.magic.left("elves") == 4
    reloads(g)


# -- one Casting Attempt per spell ----------------------------------------------------------------------------------
@pytest.mark.rule(MAGIC, CONCLAVE)
def test_one_casting_attempt_per_spell_even_one_known_by_different_wizards() -> None:
    g = conclave({"rules": ["Wizard Master"], "spells": ["Fireball", "Lightning Bolt"]})
    hero = {**CAST, "unit": "hero"}
    g.apply(CAST, ScriptedDice([1, 2]))  # the Conclave's attempt fails: it is still the spell's attempt
    refused(g, hero, MAGIC, "spears has already cast Fireball this Magic phase: one Casting Attempt per spell, even one "
                            "known by different Wizards")
    refused(g, CAST, MAGIC, "spears has already cast Fireball this Magic phase")
    play_to(g, "magic", "orcs")
    play_to(g, "magic", "elves")
    assert g.check(hero).legal and g.check(CAST).legal  # a new Magic phase, a new attempt


# -- illegal casts ----------------------------------------------------------------------------------------------------
@pytest.mark.rule(MAGIC)
def test_an_illegal_cast_changes_nothing_and_says_why() -> None:
    g = conclave()
    refused(g, {**CAST, "dice": 6}, MAGIC, "a Casting Attempt uses 1 to 5 Magic Dice, not 6")
    refused(g, {**CAST, "dispel": 6}, MAGIC, "a Dispelling Attempt uses 1 to 5 Magic Dice, not 6")
    refused(g, {**CAST, "dice": 5, "dispel": 5}, MAGIC, "orcs has 4 Magic Dice left to dispel with, not 5")
    none_left = conclave(dice={"elves": 0, "orcs": 4})
    refused(none_left, CAST, MAGIC, "elves has 0 Magic Dice left, not 2")
    g.apply({**CAST, "dice": 5}, ScriptedDice([2, 3, 4, 5, 6] + FIZZLING_FIREBALL))
    refused(g, {**CAST, "spell": "Flame Cage"}, MAGIC, "elves has 1 Magic Dice left, not 2")
    refused(g, {**CAST, "dice": 1}, MAGIC, "already cast Fireball")


# -- Miscasts ---------------------------------------------------------------------------------------------------------
@pytest.mark.rule(MISCAST)
def test_a_miscast_is_three_of_a_kind_with_its_modifier_by_the_dice_used() -> None:
    assert miscast_value((3, 3, 3)) == 2 and miscast_value((3, 3, 3, 1)) == 3 and miscast_value((3, 3, 3, 1, 2)) == 4
    assert miscast_value((6, 6, 1)) is None and miscast_value((6, 6)) is None  # no Overwhelming Power in 2022
    assert miscast_value((1, 1, 1)) == 0 and miscast_value((6, 6, 6, 6, 1)) == 7


@pytest.mark.rule(MISCAST, MAGIC)
def test_broken_concentration_fails_the_cast_and_fizzles() -> None:
    g = conclave()
    # three 2s with 3 dice (-1): 111, Broken Concentration; 6 + 1 = 7 had passed; the orcs make no Dispelling Attempt
    events = g.apply({**CAST, "dice": 3, "dispel": 2}, ScriptedDice([2, 2, 2]))
    assert [e.kind for e in events] == ["cast"] and outcome(events[0]) == "broken_concentration"
    assert "three 2s with 3 Magic Dice (-1): 111: Broken Concentration" in events[0].message, events[0].message
    assert MISCAST in events[0].rules and g.state.magic.left("orcs") == 4 and g.state.magic.left("elves") == 3
    # three 1s with 4 dice: 111, the attempt fails and Fizzles: the three 1s come back
    events = g.apply({**CAST, "spell": "Flame Cage", "dice": 3}, ScriptedDice([1, 1, 1]))  # 000 failed anyway
    assert outcome(events[0]) == "failed" and "has no effect" in events[0].message and g.state.magic.left("elves") == 3
    g = conclave()
    events = g.apply({**CAST, "dice": 4}, ScriptedDice([1, 1, 1, 6]))
    assert outcome(events[0]) == "broken_concentration" and g.state.magic.left("elves") == 5, events[0].message


@pytest.mark.rule(MISCAST, "published.t9a-to-wound")
@pytest.mark.parametrize("dice, name, script, said", [
    # Witchfire: D6 = 2 hits of S3 (3 dice) with Armour Penetration 2 on the Spearmen (T3, 4+): both wound, no save
    ([3, 3, 3], "Witchfire", [2, 6, 6], "2 hits of S3 on spears, 2 unsaved"),
    # Magical Inferno: 2D6 = 2 hits of S3, neither wounds
    ([4, 4, 4], "Magical Inferno", [1, 1, 1, 1], "2 hits of S3 on spears, 0 unsaved"),
    # four dice: no modifier; 555 Backlash: 2 hits on the champion wounding on 4+, no armour save: his 2 Wounds
    ([5, 5, 5, 1], "Backlash", [4, 6], "2 hits on s0 wounding on 4+, Armour Penetration 10 (no armour save): 2 wounds"),
    # 666 Implosion: 4 hits on the champion, 1 wound: he stands
    ([6, 6, 6, 2], "Implosion", [1, 1, 1, 4], "4 hits on s0 wounding on 4+, Armour Penetration 10 (no armour save): 1 wound"),
    # five dice (+1): 666 + 1 = 777, Breach in the Veil: the Caster's model is removed, no saves
    ([6, 6, 6, 1, 2], "Breach in the Veil", [], "s0 is removed as a casualty (no saves of any kind)"),
])
def test_the_miscast_table_after_the_spell(dice: list[int], name: str, script: list[int], said: str) -> None:
    g = conclave()
    events = g.apply({**CAST, "dice": len(dice)}, ScriptedDice(dice + FIZZLING_FIREBALL + script))
    assert [e.kind for e in events] == ["cast", "miscast"], events
    miscast = events[-1]
    assert outcome(miscast) == name and MISCAST in miscast.rules and said in miscast.message, miscast.message
    champion = [m for m in g.state.unit("spears").models if m.role == "champion"]
    if name in ("Backlash", "Breach in the Veil"):  # the Master Wizard falls: the Conclave casts no more
        assert not champion
        refused(g, {**CAST, "spell": "Flame Cage"}, CONCLAVE, "champion")
    elif name == "Implosion":
        assert champion[0].wounds_taken == 1  # W1 in his profile, +1 as the Conclave's champion: he stands
    reloads(g)  # and the saved state loads again (Ruleset.model_wounds; the loader refused it until session 32)


@pytest.mark.rule(MISCAST)
def test_amnesia_forgets_the_spell_for_the_rest_of_the_game() -> None:
    g = conclave()
    events = g.apply({**CAST, "dice": 4}, ScriptedDice([4, 4, 4, 2] + FIZZLING_FIREBALL))  # 444, four dice
    assert outcome(events[-1]) == "Amnesia" and "cannot cast Fireball any more this game" in events[-1].message
    assert g.state.magic.forgotten == ("spears/Fireball",)
    reloads(g)  # spells_forgotten in the saved state
    play_to(g, "magic", "orcs")
    play_to(g, "magic", "elves")
    refused(g, CAST, MISCAST, "spears forgot Fireball to a Miscast's Amnesia")
    assert g.check({**CAST, "spell": "Flame Cage"}).legal


@pytest.mark.rule(MISCAST, MAGIC)
def test_a_dispelled_or_failed_miscast_has_no_effect() -> None:
    g = conclave()
    events = g.apply({**CAST, "dice": 3, "dispel": 4}, ScriptedDice([3, 3, 3] + [6, 6, 6, 6]))
    assert [e.kind for e in events] == ["cast"] and outcome(events[0]) == "dispelled"
    assert "three 3s with 3 Magic Dice (-1): 222, has no effect" in events[0].message, events[0].message


@pytest.mark.rule(MISCAST, MAGIC)
def test_a_wizard_character_suffers_backlash_himself() -> None:
    g = conclave({"rules": ["Wizard Master"], "spells": ["Lightning Bolt"]})
    # three 5s with 4 dice: 555 Backlash; the Bolt's one hit fails to wound (1); the Hero, not his unit, takes the
    # two hits, both wounding (6s) with no armour save
    events = g.apply({**CAST, "unit": "hero", "spell": "Lightning Bolt", "dice": 4},
                     ScriptedDice([5, 5, 5, 1] + [1] + [6, 6]))
    miscast = events[-1]
    assert outcome(miscast) == "Backlash" and "2 hits on Hero" in miscast.message and "2 wounds" in miscast.message
    assert g.state.unit("hero").models[0].wounds_taken == 2 and len(g.state.unit("spears").models) == 10


# -- exact odds and simulation ------------------------------------------------------------------------------------------
def _brute_force_cast(n: int, dispel: int, mod: int, value: int) -> dict[tuple[str, str, int, int], Fraction]:
    """The 2022 text's cast outcome, Miscast effect and dice left, die by die."""
    want: dict[tuple[str, str, int, int], Fraction] = {}
    names = {2: "Witchfire", 3: "Magical Inferno", 4: "Amnesia", 5: "Backlash", 6: "Implosion", 7: "Breach in the Veil"}
    for faces in itertools.product(range(1, 7), repeat=n):
        total = sum(faces) + mod
        same = [v for v, k in Counter(faces).items() if k >= 3]
        miscast = same[0] + {3: -1, 5: 1}.get(n, 0) if same else None
        ones = faces.count(1) if n >= 2 else 0
        passed = total >= value and not (n == 1 and faces[0] <= 2)
        for d in itertools.product(range(1, 7), repeat=dispel):
            p = Fraction(1, 6 ** (n + dispel))
            if not passed:
                key = ("failed", "", 6 - n + ones, 4)
            elif miscast == 1:
                key = ("broken_concentration", "", 6 - n + ones, 4)
            elif dispel and sum(d) >= total and not (dispel == 1 and d[0] <= 2):
                key = ("dispelled", "", 6 - n, 4 - dispel)
            else:
                back = d.count(1) if dispel >= 2 else 0
                effect = names[min(miscast, 7)] if miscast is not None and miscast >= 2 else ""
                key = ("cast", effect, 6 - n, 4 - dispel + back)
            want[key] = want.get(key, Fraction(0)) + p
    return want


def lone_wizard(spell: str = "Lightning Bolt", level: str = "Wizard Master") -> Game:
    """The Hero alone 7" before twenty orcs (no Panic test from one spell), his Spearmen behind him."""
    data = scenario(phase="magic", active="elves", joined=False, hero_at=(36, 27), orcs=20,
                    extra={"magic_dice": {"elves": 6, "orcs": 4}})
    data["sides"]["elves"][1].update({"rules": [level], "spells": [spell]})
    return Game(state_from_data(data))


@pytest.mark.rule(MAGIC, MISCAST)
@pytest.mark.parametrize("n, dispel", [(1, 1), (2, 2), (3, 2), (4, 1), (5, 0)])
def test_casting_odds_are_exact_against_brute_force(n: int, dispel: int) -> None:
    g = lone_wizard()
    action = parse_action({**CAST, "unit": "hero", "spell": "Lightning Bolt", "dice": n, "dispel": dispel})

    def read(dice: Any) -> tuple[str, str, int, int]:
        after, events = g.ruleset.resolve(g.state, action, dice)
        miscast = next((outcome(e) for e in events if e.kind == "miscast"), "")
        return outcome(events[0]), miscast, after.magic.left("elves"), after.magic.left("orcs")

    got = enumerate_outcomes(read)
    assert {k: Fraction(v) for k, v in got.items()} == _brute_force_cast(n, dispel, 1, 7)  # Master +1, CV 7


@pytest.mark.rule(MAGIC)
def test_odds_action_of_a_cast_is_the_brute_force_enumeration() -> None:
    """``odds action`` (merged classes of rolls) equals the oracle that branches on every die, Fizzle included."""
    state = lone_wizard(level="Wizard Adept").state
    cast = {"do": "cast", "unit": "hero", "spell": "Lightning Bolt", "target": "orcs", "dice": 2, "dispel": 2}
    weights = exact_odds_as_brute_force(state, cast)
    flags = Counter(f for o, _ in weights for f in o.events)
    assert {"cast.outcome: cast", "cast.outcome: failed", "cast.outcome: dispelled"} <= set(flags)
    odds = action_odds(state, cast)
    assert odds.exact and odds.probability(lambda o: "cast.outcome: failed" in o.events).p == Fraction(15, 36)


@pytest.mark.rule(MAGIC, MISCAST)
def test_play_with_seeded_dice_keeps_the_pools_within_the_phase() -> None:
    """Seeded play over many games: dice used never exceed the pool, a Fizzle never gives more than was used."""
    seen: Counter[str] = Counter()
    for seed in range(300):
        g = conclave()
        events = g.apply({**CAST, "spell": "Flame Cage", "dice": 3, "dispel": 2}, SeededDice(seed))
        seen[outcome(events[0])] += 1
        seen.update(outcome(e) for e in events if e.kind == "miscast")
        assert 3 <= g.state.magic.left("elves") <= 6 and 2 <= g.state.magic.left("orcs") <= 4
    assert seen["cast"] and seen["dispelled"] and seen["failed"]
