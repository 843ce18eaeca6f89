"""Round 62 (docstring written last)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from _t9a import HERO, exact_odds_as_brute_force, play_to, reloading_game, saved_and_loaded, scenario
from herohammer.dice import ScriptedDice
from herohammer.game import Game
from herohammer.scenario import state_from_data

POSITION = "t9a.join.position"
SINGLE = "t9a.join.single-rank"
CHARS = "t9a.join.character-units"
FAILED = "published.t9a-failed-charge"
UNMOVED = "t9a.leave.unit-not-moved"
SLOT = 20 / 25.4  # a 20 mm slot in inches


def _mage(data: dict[str, Any], at: tuple[float, float]) -> dict[str, Any]:
    """``data`` with a lone elf Mage (the Hero's profile) standing at ``at``."""
    data["sides"]["elves"].append({"id": "mage", "character": "independent",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": list(at)}]})
    return data


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6


# -- 1. a Mage joins the lone Hero after his Failed Charge Move: widening the rank does not move him ------------------
@pytest.mark.rule(POSITION, SINGLE, CHARS, FAILED)
def test_a_widened_rank_keeps_its_models_where_they_stand() -> None:
    # The lone Hero (Advance 5") charges the orcs 12.6" off and fails (1 1): his Failed Charge Move takes him 1"
    # on, and this player turn he moves no more (published.t9a-failed-charge). In the Movement phase the Mage joins
    # him (t9a.join.character-units), a unit of a single rank: with rank_choice widen the rank gains a file
    # (t9a.join.single-rank) and the Mage stands in it, at either end; nobody is displaced (t9a.join.position), so the
    # Hero stands where his Failed Charge Move left him. Through a save and load and an undo.
    data = _mage(scenario(n=10, orcs=5, phase="charge", active="elves", joined=False, hero_at=(36, 27), enemy_y=40),
                 (30, 27))
    g = Game(state_from_data(data), dice=ScriptedDice([1, 1]))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"})
    hero_at = g.state.unit("hero").models[0].at
    assert _near(hero_at, (36, 28)), hero_at
    play_to(g, "movement", "elves")
    g = saved_and_loaded(g)
    for file, mage_x in ((0, 36 - SLOT), (1, 36 + SLOT)):
        action = {"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen", "position": file}
        ruling = g.check(action)
        assert ruling.legal and {POSITION, SINGLE, CHARS} <= set(ruling.rules), ruling
        before = g.state
        g.apply(action)
        assert _near(g.state.unit("hero").models[0].at, hero_at), g.state.unit("hero").models[0].at
        assert _near(g.state.unit("mage").models[0].at, (mage_x, 28)), g.state.unit("mage").models[0].at
        g.undo()
        assert g.state is before


@pytest.mark.rule(POSITION, SINGLE)
@pytest.mark.parametrize("file", [0, 2, 3, 5])
def test_widening_a_rank_displaces_only_the_shorter_side_of_the_joiners_file(file: int) -> None:
    # Five Spearmen in one rank; the Hero joins in ``file`` of the widened rank (t9a.join.single-rank): the models of
    # the shorter side of his file (the left one on a tie) step one slot outward to make room (the displacement
    # t9a.join.position allows), the others stand where they stood: the unit itself does not move
    # (t9a.join.unit-stops). File 0 or 5 (an end) moves nobody.
    data = scenario(n=5, orcs=5, phase="movement", active="elves", joined=False, hero_at=(36, 16), enemy_y=40)
    g = reloading_game(data)
    before = {m.name: m.at for m in g.state.unit("spears").models}
    g.apply({"do": "join", "character": "hero", "unit": "spears", "rank_choice": "widen", "position": file})
    after = {m.name: m.at for m in g.state.unit("spears").models}
    left, right = [f"s{i}" for i in range(file)], [f"s{i}" for i in range(file, 5)]
    moved = left if len(left) <= len(right) else right
    for name, at in after.items():
        shift = (-SLOT if name in left else SLOT) if name in moved else 0.0
        assert _near(at, (before[name][0] + shift, before[name][1])), (name, before[name], at)


# -- 3. across phases and turns: the join kept through an undo and a record, the leave moving only the one who leaves --
def _joined_after_failed_charge(tmp_path: Path) -> tuple[Game, tuple[float, float]]:
    """Case 1's Hero (his Failed Charge Move made) joined by the Mage in the widened rank's file 1, undone and joined
    again, saved with its record and played back, then played on to the elves' next Movement phase."""
    data = _mage(scenario(n=10, orcs=5, phase="charge", active="elves", joined=False, hero_at=(36, 27), enemy_y=40),
                 (30, 27))
    g = Game(state_from_data(data), dice=ScriptedDice([1, 1]))
    g.apply({"do": "charge", "unit": "hero", "target": "orcs", "reaction": "hold"})
    hero_at = g.state.unit("hero").models[0].at
    play_to(g, "movement", "elves")
    join = {"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen", "position": 1}
    start = g.state
    g.apply(join)
    g.undo()
    assert g.state == start
    g.apply(join)
    path = tmp_path / "joined.yaml"
    g.save(path, record=True)
    back = Game.replay(path)
    assert back.state == g.state
    play_to(back, "movement", "orcs")
    play_to(back, "movement", "elves")
    return back, hero_at


@pytest.mark.rule(UNMOVED, "t9a.leave.when", "t9a.leave.move", CHARS)
@pytest.mark.parametrize("leaver, stayer", [("mage", "hero"), ("hero", "mage")])
def test_a_leave_from_a_rank_of_two_characters_moves_only_the_one_who_leaves(tmp_path: Path, leaver: str,
                                                                            stayer: str) -> None:
    # Case 1's unit of two characters, the Hero leading, through an undo and a record played back; the next turn's
    # Movement phase either leaves it (t9a.leave.when; the Hero, its leader, hands it to the Mage,
    # t9a.join.character-units). The unit left does not move for the leave (t9a.leave.unit-not-moved): the one who
    # stays stands where he stood, the rank closed at its end, and is offered his own move. A save and load between.
    g, hero_at = _joined_after_failed_charge(tmp_path)
    g = saved_and_loaded(g)
    stands = g.state.unit(stayer).models[0].at
    assert _near(g.state.unit("hero").models[0].at, hero_at)
    leave = {"do": "leave", "character": leaver, "to": [38, 25]}
    ruling = g.check(leave)
    assert ruling.legal and any(f"[{UNMOVED}]" in n for n in ruling.notes), ruling
    g.apply(leave)
    assert _near(g.state.unit(leaver).models[0].at, (38, 25))
    assert _near(g.state.unit(stayer).models[0].at, stands), (stands, g.state.unit(stayer).models[0].at)
    assert g.state.unit(stayer).joined is None and g.state.unit(leaver).joined is None


@pytest.mark.rule(UNMOVED, "t9a.leave.when", "t9a.leave.move")
@pytest.mark.parametrize("file", [0, 2, 3, 5])
def test_a_leave_from_a_single_rank_closes_the_gap_from_its_shorter_side(file: int) -> None:
    # Five Spearmen and their Hero in one rank six wide, the Hero in ``file``; he leaves, 5" back (t9a.leave.when,
    # t9a.leave.move). The rank closes his gap: the Spearmen of its shorter side (the left on a tie) step one slot in,
    # the others stand; from an end nobody moves. The unit does not count as having moved (t9a.leave.unit-not-moved),
    # and its rank does not slide either, as round 62's widened rank does not.
    data = scenario(n=5, orcs=5, phase="movement", active="elves", enemy_y=40)
    order = [f"s{i}" for i in range(5)]
    order.insert(file, "Hero")
    data["sides"]["elves"][0]["formation"].update(files=6, order=order)
    g = reloading_game(data)
    before = {m.name: m.at for m in g.state.unit("spears").models}
    hero = g.state.unit("hero").models[0].at
    leave = {"do": "leave", "character": "hero", "to": [hero[0], hero[1] - 5]}
    ruling = g.check(leave)
    assert ruling.legal and any(f"[{UNMOVED}]" in n for n in ruling.notes), ruling
    g.apply(leave)
    after = {m.name: m.at for m in g.state.unit("spears").models}
    left, right = [f"s{i}" for i in range(file)], [f"s{i}" for i in range(file, 5)]
    moved = left if len(left) <= len(right) else right
    for name, at in after.items():
        shift = (SLOT if name in left else -SLOT) if name in moved else 0.0
        assert _near(at, (before[name][0] + shift, before[name][1])), (name, before[name], at)


# -- 4. a Wizard casts from his unit: range from his own model, sight within his unit's Front Arc ----------------------
def _wizard_in_a_unit(host: str) -> Game:
    """The elves' Magic phase, six Magic Dice a side: a Wizard Adept (Lightning Bolt) joined to ``host`` (the Spearmen,
    he the Hero; or the lone Hero, he the Mage who joined him this Movement phase, widening his rank), the orcs 12"
    before them."""
    data = scenario(n=10, orcs=5, phase="movement", active="elves", joined=host == "spears", hero_at=(36, 22),
                    enemy_y=34, extra={"magic_dice": {"orcs": 6, "elves": 6}})
    wizard = data["sides"]["elves"][1] if host == "spears" else _mage(data, (30, 22))["sides"]["elves"][2]
    wizard["rules"], wizard["spells"] = ["Wizard Adept"], ["Lightning Bolt"]
    g = reloading_game(data)
    if host == "hero":
        g.apply({"do": "join", "character": "mage", "unit": "hero", "rank_choice": "widen", "position": 1})
    play_to(g, "magic", "elves")
    return g


@pytest.mark.rule("t9a.join.part-of-unit", "published.t9a-magic", "published.t9a-spell-types")
@pytest.mark.parametrize("host, wizard", [("spears", "hero"), ("hero", "mage")])
def test_a_wizard_casting_from_his_unit_is_told_so_and_his_bolt_odds_are_exact(host: str, wizard: str) -> None:
    # A Wizard in a unit casts as its part (t9a.join.part-of-unit): the Missile's sight is drawn within his unit's
    # Front Arc, its range from his own model (published.t9a-magic, published.t9a-spell-types). Every refusal of his
    # cast cites the clause; so must the ruling that lets him, and its event. Lightning Bolt (7+ on two Magic Dice,
    # no dispel: 21/36; one S6 hit wounds T4 on 2+, the orc's 6+ save fails on 1-5): an orc slain on 21/36 * 5/6 * 5/6,
    # counted over the dice = exact = brute force. Legal_actions offers the cast; undone.
    g = _wizard_in_a_unit(host)
    action = {"do": "cast", "unit": wizard, "spell": "Lightning Bolt", "target": "orcs", "dice": 2}
    ruling = g.check(action)
    assert ruling.legal and {"t9a.join.part-of-unit", "published.t9a-magic"} <= set(ruling.rules), ruling
    assert any(a.do == "cast" and a.unit == wizard for a in g.legal_actions())
    counted = sum((Fraction(1, 6 ** 4) for cast, wound, save in product(
        [a + b for a, b in product(range(1, 7), repeat=2)], range(1, 7), range(1, 7))
        if cast >= 7 and wound >= 2 and save <= 5), Fraction(0))
    slain = sum((Fraction(w) for o, w in exact_odds_as_brute_force(g.state, action) if o.wounds("orcs")), Fraction(0))
    assert slain == counted == Fraction(21, 36) * Fraction(25, 36)
    before = g.state
    events = g.apply(action, ScriptedDice([4, 3, 6, 1]))
    assert "t9a.join.part-of-unit" in events[0].rules, events
    g.undo()
    assert g.state is before
