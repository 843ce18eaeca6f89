"""A judge's cases for 40k 3rd and 4th edition, round 67: what round 66 left - a Captain's separate dice read from
the weapon he fires, the Deployment phase's legal actions, and a Captain whose squad is destroyed around him moving
through difficult terrain by his own rule - played through `Game.check`/`apply`/`legal_actions`/undo, save and load,
and `herohammer check`, with exact odds against brute force.

Expected results are derived from the texts (seeds 000 and 001, the catalogue, the decisions of rules.yaml), not read
off the engine.

Cases:
1. both editions: tac (BS4, boltguns) with a Captain of their BS carrying a boltgun and a plasma pistol, Boyz 10"
   off: unnamed he fires the boltgun and rolls with them (one batch of 6 shots; brute force equals 6 independent
   shots of 1/3); named, the plasma pistol sets him apart (4 + 1 shots, brute force). The Boyz 13" off: the pistol
   listed first cannot reach, he fires the boltgun with them (3 shots); carrying the pistol alone, he fires nothing,
   said so (the volley's note), no separate dice (2 shots). Through `check`, `herohammer check`, save and load.
2. both editions: `legal_actions` in Deployment offers scouts (Infiltrate) a set-up toward blue more than 18" from
   it (measured by hand), legal, applied and undone; none for scouts joined by a Captain without Infiltrate (such a
   set-up refused citing 40k4.ic.rules-lost / 40k3.ic.no-unit-abilities), one for a Captain with it (his place
   with theirs), none for a unit without it, none once Deployment ends.
3. both editions: tac with its Captain by a wood rolls 2D6 for 6" (11/36, his rule not the unit's); a boltgun's two
   shots slay both Marines (the unit's own models first) and tac is destroyed around him; in red's next Movement
   phase he walks 4" into the wood alone by his own rule: 3rd edition 2D6 re-rolled below 6 (671/1296,
   40k3.ic.move-through-cover), 4th 3D6 (91/216, 40k4.char.move-through-cover) - ruling, saved and loaded, brute
   force, the roll's event; undone back to tac with him in it.
4. both editions: a shot naming its weapon (with the Captain; tac alone) cites published.weapon-profiles in its
   ruling as in its event; unnamed it does not; a weapon nobody carries is refused citing it.

Found wrong (each first written as an xfail(strict=True) test):
- both editions (40k3.char.shooting-dice, 40k4.shoot.separate-dice; case 1) - left by round 66: the shot's ruling
  read the Captain's separate dice from the weapons he carries, the volley from the weapon he fires: a Captain of
  the squad's BS with a boltgun and a plasma pistol, firing the boltgun, was told his dice were rolled apart; one
  whose only pistol was out of range was told he fired with tac and rolled apart. Commit c8628608.
- both editions (published.infiltrate; case 2) - left by round 66: `legal_actions` in Deployment offered ending the
  phase alone, as if no unit could infiltrate. Commit daf032fa.
- both editions (published.weapon-profiles; case 4) - found this round: a legal shot naming its weapon cited the
  clause in its event alone; its ruling was silent on it. Commit 115cd6bf.

Fixed (the xfail marks removed):
- commit c44df2b4 (reworked in 4143d698): ``fires_with_ruling`` reads the volley's own choice (``_shots``), asked of
  the characters' models and of the troopers that carry a weapon they fire at their BS only (a model's choice is its
  own: its weapons, range, what its member named), so no whole volley is measured for a ruling; its note names the
  weapon fired ("BS4, plasma pistol"), and a character that fires nothing gets the volley's note instead of "fires
  with". Decisions amended under both clauses.
- commit 4143d698: ``_infiltration_candidates``: in Deployment each unit of the active side whose every member has
  Infiltrate (``_lacking``) is offered one set-up, moved as one toward the nearest enemy to a quarter inch beyond
  18" (no other enemy nearer: the shift brings no model nearer any enemy than its length); decision stated under
  published.infiltrate. Only the Deployment phase asks for it.
- commit 92a75b0a: ``rule_shoot`` adds published.weapon-profiles to a legal ruling of a shot naming its weapon;
  decision amended under published.weapon-profiles; book entry (new)
  40k3-a-captain-firing-his-squads-boltgun-rolls-with-it.

Decisions stated: "his weapon" (40k3.char.shooting-dice, 40k4.shoot.separate-dice) is the weapon he fires, not those
he carries; the Deployment phase's legal actions sample one infiltration per unit (as moves are sampled), toward the
nearest enemy.

Checked, as it stands (passed as first written): case 3 (a squad destroyed around its Captain, then his own
difficult-terrain rule: both editions), the refusal of a joined Infiltrators' set-up with a Captain lacking the rule,
and the named-weapon refusal of case 4.

Benchmarks: `legal_actions` per example measured before and after (best of 20, fresh states): unchanged but for
40k3_librarian_psychic (shooting phase, a BS4 Librarian with a bolt pistol joined to BS4 Marines): 0.26 -> about
0.31 ms, his own models' gaps measured for the ruling (a first version measuring the whole volley cost 0.37 ms); the
slowest example (t9a_captain_joins_spearmen, 0.94 ms), the benchmark's figure, is untouched. The volley itself
(``_volley``) and the fights are not changed.

Left (noticed, not changed):
- 4th edition: the move of tac with its Captain into difficult terrain rolls 2D6 (his Move Through Cover not the
  unit's, published.move-through-cover's decision) but its ruling cites neither 40k4.ic.rules-not-shared nor
  40k4.char.move-through-cover to say why; 3rd edition alike (40k3.ic.no-unit-abilities).
- Not played this round: 40k4.cc.base-contact in a new sequence (a Captain whose only foe in contact dies before
  his Initiative step).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from herohammer.dice import ScriptedDice
from herohammer.game import Game

from test_judge_40k_round41 import highest_reaches
from _w40k import (EDITIONS, SAME_TARGET, SEPARATE, armed, brute, cli_check, game, hero, kinds, model, next_turn_to,
                   saved, saved_and_loaded,
                   scenario)


def slain(*batches: tuple[int, Fraction]) -> dict[int, Fraction]:
    """The distribution of models slain (at most four Boyz of one Wound) by independent shots: each batch is (shots,
    the chance one shot slays), convolved by hand."""
    dist = {0: Fraction(1)}
    for n, p in batches:
        one = {k: comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}
        dist = {t: sum((dist[a] * one[t - a] for a in dist if 0 <= t - a <= n), Fraction(0))
                for t in range(max(dist) + n + 1)}
    capped: dict[int, Fraction] = {}
    for k, p in dist.items():
        capped[min(k, 4)] = capped.get(min(k, 4), Fraction(0)) + p
    return {k: p for k, p in capped.items() if p}


# == 1. both editions: the shot's ruling says the dice of the weapon the Captain fires, as the volley rolls them ======

MARINE_BS = "WS5 BS4 S4 T4 W2 I5 A3 Ld10 Sv3+"  # a Captain of the squad's BS4


def tac_and_captain(ruleset: str, weapons: list[str], boyz_y: float = 30) -> Game:
    """Red's Shooting phase: tac (two Marines, boltguns, BS4) at (20, 20), (22, 20) joined by a Captain of their BS
    carrying ``weapons`` (in that order) at (21, 18.5); blue's four Boyz (T4, Sv6+) in a line at y = ``boyz_y``."""
    tac = {"id": "tac", "models": [armed(f"M{i + 1}", 20 + 2 * i, 20, "boltgun") for i in range(2)]}
    cap = hero("cap", 21, 18.5, joined="tac")
    cap["models"][0] = {**cap["models"][0], "profile": MARINE_BS, "weapons": weapons}
    boyz = {"id": "boyz", "models": [model(f"b{i + 1}", 18 + 2 * i, boyz_y, 7, "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+")
                                     for i in range(4)]}
    return game(scenario(ruleset, [tac, cap], [boyz], phase="shooting"))


SHOOT = {"do": "shoot", "unit": "tac", "target": "boyz"}
BOLT = Fraction(2, 3) * Fraction(1, 2)  # BS4 hits on 3+, S4 v T4 wounds on 4+, AP5 allows no 6+ save
PLASMA = Fraction(2, 3) * Fraction(5, 6)  # S7 v T4 wounds on 2+, AP2 allows no 6+ save


def boyz_left(h: Game) -> int:
    """How many Boyz the volley slew."""
    return 4 - len(h.state.unit("boyz").models)



@EDITIONS
@pytest.mark.rule("40k3.char.shooting-dice", "40k4.shoot.separate-dice", "40k4.shoot.same-target",
                  "published.shooting", "published.weapon-profiles")
def test_a_captain_firing_the_squads_weapon_rolls_with_it_in_the_ruling_as_in_the_volley(
        ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000/001: a character whose BS or weapon differs from the unit's rolls his dice apart; one who fires as the
    troopers do rolls with them (40k3.char.shooting-dice, 40k4.shoot.separate-dice). A model fires one weapon, the
    first listed that can fire unless its player names one (published.weapon-profiles). The Captain (BS4, as tac)
    carries a boltgun and a plasma pistol, the boltgun first; Boyz 10" off: he fires his boltgun (2 shots, Rapid Fire
    at half range) with the Marines', one batch of 6 shots (brute force equals 6 independent
    shots of 1/3 each: AP5 allows the Boyz no save). The
    ruling said his dice are rolled apart (read from the weapons carried, not the one fired): now it says he rolls
    with them, cites no separate dice, in `herohammer check` too and after save and load. Named ``plasma pistol``, he
    fires it: his dice are rolled apart, ruling and volley alike (4 boltgun shots and 1 plasma shot, brute force)."""
    g = tac_and_captain(ruleset, ["boltgun", "plasma pistol"])
    for h in (g, saved_and_loaded(g)):
        ruling = h.check(SHOOT)
        assert ruling.legal and SAME_TARGET[ruleset] in ruling.rules, ruling
        assert SEPARATE[ruleset] not in ruling.rules and "apart" not in " ".join(ruling.notes), ruling
    assert SEPARATE[ruleset] not in cli_check(saved(g, tmp_path / "tac.json"), SHOOT, capsys)["rules"]
    events = g.apply(SHOOT, dice=ScriptedDice([1] * 6 + [1] * 8))
    assert [e.message.split(":")[0] for e in kinds(events, "shots")] == ["3 models fire 6 shots with boltgun"], events
    assert not any(SEPARATE[ruleset] in e.rules for e in events)
    g.undo()
    assert brute(g.state, SHOOT, boyz_left) == slain((6, BOLT))
    named = {**SHOOT, "weapon": "plasma pistol"}
    ruling = g.check(named)
    assert SEPARATE[ruleset] in ruling.rules and "cap's dice are rolled apart" in " ".join(ruling.notes), ruling
    assert "plasma pistol" in " ".join(ruling.notes) and "boltgun)" not in " ".join(ruling.notes), ruling
    assert any(SEPARATE[ruleset] in e.rules for e in g.apply(named, dice=ScriptedDice([1] * 12)))
    g.undo()
    assert brute(g.state, named, boyz_left) == slain((4, BOLT), (1, PLASMA))



@EDITIONS
@pytest.mark.rule("40k3.char.shooting-dice", "40k4.shoot.separate-dice", "published.weapon-profiles")
def test_a_captain_whose_pistol_is_out_of_range_is_ruled_as_the_volley_fires_him(ruleset: str) -> None:
    """The Boyz 13" off (the Captain 14.5" centre to centre, 13.5" edge to edge): his plasma pistol (12") cannot
    fire. Carrying it before a boltgun, he fires the boltgun (one shot at full range) with the Marines: the ruling said
    apart; now with them, as the volley (3 shots of 1/3, brute force). Carrying the pistol alone, he fires nothing:
    the ruling said he fires with tac and rolls apart; now it says he has no weapon that can fire at the Boyz (as the
    volley's note), cites no separate dice, and the volley is the Marines' 2 shots."""
    g = tac_and_captain(ruleset, ["plasma pistol", "boltgun"], boyz_y=33)
    ruling = g.check(SHOOT)
    assert ruling.legal and SEPARATE[ruleset] not in ruling.rules and "apart" not in " ".join(ruling.notes), ruling
    assert brute(g.state, SHOOT, boyz_left) == slain((3, BOLT))
    g = tac_and_captain(ruleset, ["plasma pistol"], boyz_y=33)
    ruling = g.check(SHOOT)
    said = " ".join(ruling.notes)
    assert ruling.legal and SEPARATE[ruleset] not in ruling.rules and "apart" not in said, ruling
    assert "Cap has no weapon that can fire at boyz" in said and "cap fires with" not in said, ruling
    events = g.apply(SHOOT, dice=ScriptedDice([1] * 2 + [1] * 8))
    assert "Cap has no weapon that can fire at boyz" in " ".join(e.message for e in events)
    g.undo()
    assert brute(g.state, SHOOT, boyz_left) == slain((2, BOLT))


# == 2. both editions: legal_actions in Deployment offers the Infiltrators' set-up ===================================

LOST = {"40k3": "40k3.ic.no-unit-abilities", "40k4": "40k4.ic.rules-lost"}
BASE_25 = 25 / 25.4  # a 25mm base's diameter in inches


def infiltrations(g: Game) -> dict[str, list[tuple[float, float]]]:
    """The infiltrations `legal_actions` offers: unit -> the places named."""
    return {a.unit: [tuple(p) for p in a.to] for a in g.legal_actions() if a.do == "infiltrate"}


def gap(places: list[tuple[float, float]], others: list[tuple[float, float]]) -> float:
    """The least gap, edge to edge, between 25mm bases at ``places`` and at ``others``, worked out by hand."""
    return min(((x - u) ** 2 + (y - v) ** 2) ** 0.5 - BASE_25 for x, y in places for u, v in others)


FAR = [(60.0, 45.0), (62.0, 45.0), (64.0, 45.0)]  # blue's squad (``scenario``'s default)


@EDITIONS
@pytest.mark.rule("published.infiltrate", "40k3.ic.no-unit-abilities", "40k4.ic.rules-lost")
def test_legal_actions_in_deployment_offer_the_infiltrators_set_up(ruleset: str) -> None:
    """published.infiltrate: before the first turn a unit with Infiltrate may be set up more than 18" from every enemy
    (or 12" out of sight). `legal_actions` in Deployment offered ending the phase alone, as if no unit could
    infiltrate. Now scouts (Infiltrate) 45" from blue are offered a set-up toward blue, more than 18" from it (measured
    here by hand) and checked legal; applied, they stand there; undone, where they were. Scouts joined by a Captain
    without Infiltrate: none offered (the rule taken away: 40k4.ic.rules-lost; 3rd edition: he does not share it,
    40k3.ic.no-unit-abilities), and such a set-up is refused citing it; a Captain with Infiltrate: offered, his place
    with theirs. A unit without Infiltrate: none. Once both sides ended Deployment, none (turn 1's Movement phase)."""
    scouts = {"id": "scouts", "rules": ["Infiltrate"], "models": [model(f"S{i + 1}", 20 + 2 * i, 20) for i in range(2)]}
    plain = {"id": "tac", "models": [model(f"T{i + 1}", 20 + 2 * i, 5) for i in range(2)]}
    g = game(scenario(ruleset, [scouts, plain], phase="deployment"))
    offered = infiltrations(g)
    assert set(offered) == {"scouts"}, offered
    to = offered["scouts"]
    assert len(to) == 2 and 18 < gap(to, FAR) < gap([(20, 20), (22, 20)], FAR), to
    action = {"do": "infiltrate", "unit": "scouts", "to": [list(p) for p in to]}
    assert g.check(action).legal and g.check(action).rules == ("published.infiltrate",)
    start = g.state
    g.apply(action, dice=ScriptedDice([]))
    assert [m.at for m in g.state.unit("scouts").models] == to
    g.undo()
    assert g.state == start
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))  # blue's Deployment: blue has no Infiltrators
    assert infiltrations(g) == {}
    g.apply({"do": "end_phase"}, dice=ScriptedDice([]))
    assert g.state.phase.value == "movement" and infiltrations(g) == {}
    lacking = game(scenario(ruleset, [scouts, hero("cap", 21, 18.5, joined="scouts")], phase="deployment"))
    assert infiltrations(lacking) == {}
    refused = lacking.check({"do": "infiltrate", "unit": "scouts", "to": [[30, 30], [32, 30], [31, 28.5]]})
    assert not refused.legal and LOST[ruleset] in refused.rules, refused
    own = game(scenario(ruleset, [scouts, hero("cap", 21, 18.5, joined="scouts", rules=["Infiltrate"])],
                        phase="deployment"))
    to = infiltrations(own)["scouts"]
    assert len(to) == 3 and gap(to, FAR) > 18, to
    own.apply({"do": "infiltrate", "unit": "scouts", "to": [list(p) for p in to]}, dice=ScriptedDice([]))
    assert own.state.unit("cap").models[0].at == to[2]


# == 3. both editions: a Captain whose squad is shot away around him moves through the wood by his own rule ==========

WOODS = [{"id": "woods", "kind": "difficult", "polygon": [[26, 10], [40, 10], [40, 40], [26, 40]]}]
MTC = {"40k3": "40k3.ic.move-through-cover", "40k4": "40k4.char.move-through-cover"}


def tac_by_the_wood(ruleset: str, phase: str, active: str) -> Game:
    """tac's two Marines at (22, 28), (22, 30) joined by the Captain at (24, 29), 2" short of a wood; blue's one
    boltgun at (10, 29), 12" from them."""
    tac = {"id": "tac", "models": [model(f"M{i + 1}", 22, 28 + 2 * i) for i in range(2)]}
    guns = {"id": "guns", "models": [armed("G1", 10, 29, "boltgun")]}
    return game(scenario(ruleset, [tac, hero("cap", 24, 29, joined="tac")], [guns], phase=phase, active=active,
                         terrain=WOODS))


@EDITIONS
@pytest.mark.rule("40k3.ic.move-through-cover", "40k4.char.move-through-cover", "published.move-through-cover",
                  "published.difficult-terrain", "published.wound-allocation")
def test_a_captain_left_alone_by_his_squads_destruction_rolls_the_wood_by_his_own_rule(ruleset: str) -> None:
    """With tac, the Captain's rule for difficult terrain is not the unit's (3rd edition: his re-roll works for a unit
    only when every member has it, 40k3.ic.move-through-cover's decision; 4th: every character has Move Through Cover,
    40k4.char.move-through-cover, but not the unit he joins, published.move-through-cover's decision): tac's move 4"
    into the wood rolls 2D6 for 6", 11/36. In blue's Shooting phase a boltgun's two shots (6s to hit and wound, the
    3+ saves failed) slay both Marines, the unit's own models first (published.wound-allocation's decision): tac is
    destroyed around him. In red's next Movement phase the Captain, alone now, walks the same 6" (4" inside): 3rd
    edition 2D6 each die below 6 re-rolled, 671/1296; 4th 3D6, 91/216 - in the ruling (citing his clause) and by brute
    force, counted here over every face. Undone back to the start, tac stands again with him in it."""
    joined = tac_by_the_wood(ruleset, "movement", "red")
    ruling = joined.check({"do": "move", "unit": "tac", "to": [[28, 28], [28, 30], [30, 29]]})
    assert ruling.legal and "the highest of 2D6" in ruling.notes[0] and "11/36" in ruling.notes[0], ruling
    assert MTC[ruleset] not in " ".join((*ruling.rules, *ruling.notes)), ruling
    assert highest_reaches(2, 6, 0) == Fraction(11, 36)
    g = tac_by_the_wood(ruleset, "shooting", "blue")
    start = g.state
    g.apply({"do": "shoot", "unit": "guns", "target": "tac"}, dice=ScriptedDice([6, 6, 6, 6, 1, 1, 1, 1]))
    assert not g.state.unit("tac").alive and g.state.unit("cap").joined is None
    assert len(g.state.unit("cap").models) == 1 and g.state.unit("cap").models[0].wounds_taken == 0
    g.apply({"do": "end_phase"}, dice=ScriptedDice([1, 1]))  # (4th edition's Morale checks at the phase's end)
    next_turn_to(g, "red", "movement")
    walk = {"do": "move", "unit": "cap", "to": [[30, 29]]}
    n, reroll = (2, 6) if ruleset == "40k3" else (3, 0)
    expected = highest_reaches(n, 6, reroll)
    assert expected == {"40k3": Fraction(671, 1296), "40k4": Fraction(91, 216)}[ruleset]
    for h in (g, saved_and_loaded(g)):
        ruling = h.check(walk)
        assert ruling.legal and f"the highest of {n}D6" in ruling.notes[0] and str(expected) in ruling.notes[0]
        assert MTC[ruleset] in ruling.notes[0], ruling
    reached = brute(g.state, walk, lambda p: p.state.unit("cap").models[0].at == (30.0, 29.0), positions=True)
    assert reached[True] == expected
    [rolled] = kinds(g.apply(walk, dice=ScriptedDice([6, 6, 6, 6, 6, 6])), "difficult_terrain")
    assert MTC[ruleset] in rolled.rules and g.state.unit("cap").models[0].at == (30.0, 29.0)
    while g.state != start:
        g.undo()
    assert [m.name for m in g.state.unit("tac").models] == ["M1", "M2"] and g.state.unit("cap").joined == "tac"


# == 4. both editions: a shot naming its weapon cites the rule that lets it choose, in its ruling as in its event =====

@EDITIONS
@pytest.mark.rule("published.weapon-profiles", "published.line-of-sight")
def test_a_shot_naming_its_weapon_cites_the_weapon_rule_in_its_ruling(ruleset: str, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """published.weapon-profiles: a model fires one weapon, the player choosing which. A shot that names its weapon
    (the Captain's plasma pistol, with tac; tac alone naming its boltguns) is legal, and its event cites the clause;
    its ruling cited line of sight (and the Captain's clauses) only. Now the ruling cites it too, in `herohammer check`
    as well; an unnamed shot does not. Naming a weapon nobody carries is refused citing it (as it stood)."""
    g = tac_and_captain(ruleset, ["boltgun", "plasma pistol"])
    named = {**SHOOT, "weapon": "plasma pistol"}
    ruling = g.check(named)
    assert ruling.legal and "published.weapon-profiles" in ruling.rules, ruling
    assert "published.weapon-profiles" in cli_check(saved(g, tmp_path / "tac.json"), named, capsys)["rules"]
    assert "published.weapon-profiles" in kinds(g.apply(named, dice=ScriptedDice([1] * 12)), "shoot")[0].rules
    g.undo()
    assert "published.weapon-profiles" not in g.check(SHOOT).rules
    alone = game(scenario(ruleset, [{"id": "tac", "models": [armed(f"M{i + 1}", 20 + 2 * i, 20, "boltgun")
                                                             for i in range(2)]}],
                          [{"id": "boyz", "models": [model("b1", 20, 30)]}], phase="shooting"))
    assert alone.check({**SHOOT, "weapon": "boltgun"}).rules == ("published.line-of-sight",
                                                                  "published.weapon-profiles")
    refused = alone.check({**SHOOT, "weapon": "lascannon"})
    assert not refused.legal and "published.weapon-profiles" in refused.rules, refused
