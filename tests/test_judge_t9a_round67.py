"""Round 67: a 9th Age judge's cases on what round 66 left (the Wizard Conclave's spell asked of a Wizard joined to it,
a join after a leave, a join to a unit Shaken by its Hero's failed charge out), played through Game (apply, check,
undo, legal_actions, a save and load) and the command line (`herohammer check`, `herohammer rules`); checked against
seed 002 (XX.2 Characters) and the 2022 rulebook (Characters Joined to Units; Advance/March Moving out of a Combined
Unit; Charging out of a Unit; Shaken).

Cases: 1. a Mage (Lightning Bolt, Fireball) joins the Wizard Conclave (Fireball, Flame Cage, its champion's choice);
in the Magic phase his Flame Cage is refused by the Conclave clause (the unit's spell, chosen by its champion; he casts
only those he selected), the Conclave's own is legal, none is offered him; saved and loaded, and by `herohammer check
--json`. 1b. the same Mage apart from the Conclave, and in it asking a spell neither knows: refused as unknown, citing
published.t9a-magic alone. 2. a Hero leaves his Spearmen (legal: a leave and a join in one move, round 38, is offered
too); then a join to the Spearmen again, or to a lone Mage, is refused citing published.t9a-move beside t9a.join.move
and saying a join is his Advance or March move and his one move of the phase is made; none offered; saved and loaded
the same; undone, the one-move join is legal again; `herohammer rules published.t9a-move` states it. 3. the Hero's
charge out of his Spearmen fails on 1 1 (all Shaken); in the Movement phase the Spearmen's move is refused (Shaken), the
Mage's join to them is offered and legal, its ruling says they could make no Advance or March move and the join stops
them all the same, and that the Mage is not Shaken, citing published.t9a-shaken, t9a.charge-out.failure and
t9a.join.unit-stops; its event says so; undone and applied again, saved and loaded: the Mage not Shaken, the unit
Shaken. The plain join (nobody Shaken) keeps "the unit cannot move again this Movement phase".

Found wrong (each first committed as a strict xfail in 4f8ffbb6, then fixed and its mark removed):

1. Missing citation (fixed ff453598, 53a27c54 a rename for mypy): the joined Mage's Flame Cage was refused "mage does
   not know Flame Cage (it knows: ...)" citing published.t9a-magic alone, though seed 002's Wizard Conclave clause is
   what makes it the unit's (its champion picks two spells "instead of selecting spells the normal way").
   ``t9a_magic._conclaves_not_his`` refuses a Conclave's spell asked of a character joined to it citing
   t9a.spell.wizard-conclave, published.t9a-magic and t9a.join.part-of-unit, and says whose spell it is and which he
   selected (its words still begin "mage does not know Flame Cage", as round 66 reads them).
2. Missing citation (fixed 628560cb): a join refused after the character's leave said "hero has already moved this
   turn" citing t9a.join.move alone. What decides it is one move a Movement phase (published.t9a-move, round 51's
   reading): the 2022 text joins a character "while performing an Advance Move or a March Move" and he leaves by one,
   and "A Character cannot leave a unit and rejoin it in the same phase" is that case. The refusal (any character whose
   move of the phase is spent) now cites published.t9a-move beside t9a.join.move and says so; a rally keeps its own
   words and id (published.t9a-rally).
3. Wrong words (fixed f1bfb3b5): a join to Spearmen Shaken by their Hero's failed charge out said "the unit cannot
   move again this Movement phase" (its event "spears cannot move again this phase") of a unit that had not moved and
   could not. ``t9a_joins._stops_said``: a Shaken unit that has not moved is told it could make no Advance or March
   move and the join stops it all the same, the Mage that he is not Shaken, citing published.t9a-shaken and
   t9a.charge-out.failure; a unit that moved or charged keeps "cannot move again".

Decisions stated (src/herohammer/data/rules.yaml): t9a.spell.wizard-conclave (round 67: the refusal's citation);
published.t9a-move (round 67: one move a phase, a leave too; the refusal cites it; the state keeps no record of the
unit left, and none is needed, since a join to any unit is refused the same way); published.t9a-shaken (round 67: a
character joining a unit Shaken by a failed charge out is not Shaken: the 2022 text Shakes "all models in the Combined
Unit" when the charge fails, and lists no join among what makes a model Shaken; the unit stays Shaken and does not
shoot, him with it, round 57). Book entry (bc3e1bce): t9a-a-character-joining-a-shaken-unit-is-not-shaken. No docs page
shows these rulings (docs/t9a.md's joins are to units not Shaken): none rebuilt.

Checked and holds: the Conclave casts its own Flame Cage (+1); a Wizard apart from it, or in it asking a spell neither
knows, is told he does not know it (published.t9a-magic); a leave and a join in one move is legal and offered; a
Shaken unit does not move; the join to a Shaken unit is allowed (seed 002 forbids only Engaged or Fleeing units), the
joiner not Shaken, the unit Shaken, through undo and a save and load.

Noticed and left: the refusal after a leave cannot name the unit left (the state keeps no record of it, round 61), so
it says "its own, or a leave out of a unit" rather than "he left spears"; a unit Shaken by a charge that caught a unit
that fled has charged, so a join to it keeps "cannot move again" (it moved), which is right.
legal_actions: a join's ruling reads one more loop over its unit's statuses (83bf3069: the status sets, not ``has``,
about 1 us a join, 5 joins offered in captain_joins); bench_legal_actions --only t9a, best of 30, now / main (ms):
captain_joins 0.964 / 0.948 and 0.964 / 0.950, unit_reduced_to_character 0.117 / 0.117 and 0.115 / 0.114,
whole_turn 0.915 / 0.895 and 0.912 / 0.913, wizard_charges_out 0.657 / 0.662 and 0.656 / 0.661; the same actions.
captain_joins' +0.015 ms is not the note's: with it replaced by a constant the time is the same (0.95), and main
against itself differs by 0.007; left to the lead to judge.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from _cli import printed
from _t9a import HERO, offered, play_to, refused, reloading_game, saved_and_loaded, scenario
from test_judge_t9a_round57 import _two_heroes  # the elves' Charge phase: Spearmen and their Hero, a lone Mage
from test_judge_t9a_round66 import _conclave_and_mage  # the whole turn with a Mage 6" behind the Wizard Conclave
from herohammer.dice import ScriptedDice

MAGIC = "published.t9a-magic"
CONCLAVE = "t9a.spell.wizard-conclave"
PART = "t9a.join.part-of-unit"
JOIN = "t9a.join.move"
MOVE = "published.t9a-move"
STOPS = "t9a.join.unit-stops"
SHAKEN = "published.t9a-shaken"
FAILURE = "t9a.charge-out.failure"


def _statuses(g: Any, unit: str) -> set[str]:
    return {s.value for s in g.state.unit(unit).status}


# -- 1. the Conclave's Flame Cage asked of the Mage joined to it: refused by the Conclave clause ------------------------
@pytest.mark.rule(CONCLAVE, MAGIC, PART)
def test_the_conclaves_flame_cage_asked_of_the_mage_joined_to_it_is_refused_by_the_conclave_clause(
        tmp_path: Path) -> None:
    g = reloading_game(_conclave_and_mage())
    g.apply({"do": "join", "character": "mage", "unit": "conclave", "rank_choice": "second_rank"})
    g.apply({"do": "end_phase"})
    assert g.state.phase.value == "magic"
    cage = {"do": "cast", "unit": "mage", "spell": "Flame Cage", "target": "orc_archers", "dice": 2}
    # seed 002: the Conclave's champion picks its two spells from the rule's list "instead of selecting spells the
    # normal way"; the Mage, part of the unit (t9a.join.part-of-unit), selected his the normal way: Flame Cage is the
    # unit's, cast by its champion, and never the Mage's
    refused(g, cage, CONCLAVE, "mage does not know Flame Cage: it is conclave's, chosen by its champion")
    ruling = g.check(cage)
    assert {CONCLAVE, MAGIC, PART} <= set(ruling.rules), ruling
    assert ruling.reason.endswith("casts only the spells he selected (Lightning Bolt, Fireball)"), ruling
    # the legal case: the Conclave casts it (its champion's, +1)
    ok = g.check({**cage, "unit": "conclave"})
    assert ok.legal and CONCLAVE in ok.rules, ok
    assert ("mage", "Flame Cage") not in {(a["unit"], a["spell"]) for a in offered(g, "cast")}
    g = saved_and_loaded(g)
    assert g.check(cage) == ruling
    # the command line says the same
    path = tmp_path / "magic.json"
    g.save(path)
    said = json.loads(printed("check", str(path), "--action", json.dumps(cage), "--json"))
    assert CONCLAVE in said["rules"] and not said["result"]["legal"], said


@pytest.mark.rule(MAGIC, CONCLAVE)
def test_a_spell_no_unit_of_his_knows_is_refused_as_unknown_citing_only_the_magic_rule() -> None:
    # a Mage apart from the Conclave, and one in it asking a spell neither knows: the Conclave decides nothing there
    g = reloading_game(_conclave_and_mage())
    g.apply({"do": "end_phase"})
    cage = {"do": "cast", "unit": "mage", "spell": "Flame Cage", "target": "orc_archers", "dice": 2}
    ruling = g.check(cage)
    assert not ruling.legal and ruling.rules == (MAGIC,) and "mage does not know Flame Cage" in ruling.reason, ruling
    g = reloading_game(_conclave_and_mage())
    g.apply({"do": "join", "character": "mage", "unit": "conclave", "rank_choice": "second_rank"})
    g.apply({"do": "end_phase"})
    blades = {**cage, "spell": "Spectral Blades"}
    ruling = g.check(blades)
    assert not ruling.legal and CONCLAVE not in ruling.rules and "does not know Spectral Blades" in ruling.reason


# -- 2. a Hero who left his Spearmen joins nobody that phase: his leave was his one move --------------------------------
def _hero_and_mage() -> dict[str, Any]:
    """The elves' Movement phase: the Spearmen with their Hero, a lone Mage 3.5" to the right of their centre; the orcs far off."""
    data = scenario(phase="movement", active="elves", enemy_y=44)
    data["sides"]["elves"].append({"id": "mage", "character": "independent",
                                   "models": [{"name": "Mage", "profile": HERO, "base": [20, 20], "at": [41.5, 19]}]})
    return data


@pytest.mark.rule(MOVE, JOIN, "t9a.leave.move", "t9a.leave.when")
def test_a_hero_who_left_his_spearmen_is_refused_a_join_citing_the_one_move_rule_and_may_leave_and_join_in_one() -> None:
    g = reloading_game(_hero_and_mage())
    # the legal case: a leave and a join in one move (round 38): the Hero moves out of the Spearmen into the Mage
    one = {"do": "join", "character": "hero", "unit": "mage", "rank_choice": "widen"}
    ruling = g.check(one)
    assert ruling.legal and "hero leaves spears and joins mage" in ruling.reason, ruling
    leave = offered(g, "leave")[0]
    g.apply(leave)
    assert saved_and_loaded(g).check({"do": "join", "character": "hero", "unit": "spears"}) == g.check(
        {"do": "join", "character": "hero", "unit": "spears"})
    # the 2022 text: a character joins "by moving into contact with the unit during the Movement Phase while
    # performing an Advance Move or a March Move", and leaves by an Advance or March move out of it; "A Character
    # cannot leave a unit and rejoin it in the same phase": his leave was his move of the phase
    for unit in ("spears", "mage"):
        refused(g, {"do": "join", "character": "hero", "unit": unit}, MOVE, "hero has already moved this turn")
        ruling = g.check({"do": "join", "character": "hero", "unit": unit})
        assert {MOVE, JOIN} <= set(ruling.rules), ruling
        assert "a join is its Advance or March move" in ruling.reason, ruling
    assert not any(a["character"] == "hero" for a in offered(g, "join"))
    g.undo()
    assert g.state.unit("hero").joined == "spears"
    assert g.check({"do": "join", "character": "hero", "unit": "mage", "rank_choice": "widen"}).legal
    said = json.loads(printed("rules", MOVE, "--json"))["result"][0]["decision"]
    assert "Decision (round 67" in said and "cannot leave a unit and rejoin it in the same phase" in said, said


# -- 3. the Mage joins Spearmen left Shaken by their Hero's failed charge out ------------------------------------------
@pytest.mark.rule(SHAKEN, STOPS, FAILURE, JOIN, "t9a.join.forbidden")
def test_a_mage_joining_spearmen_shaken_by_their_heros_failed_charge_is_told_they_could_not_move_and_he_is_not_shaken(
        ) -> None:
    g = reloading_game(_two_heroes())
    # the Hero's charge out fails on 1 1 and leaves him in the Spearmen: every model Shaken (seed 002)
    g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1, 1]))
    play_to(g, "movement", "elves")
    assert "shaken" in _statuses(g, "spears")
    refused(g, {"do": "move", "unit": "spears", "to": [[36, 16]]}, SHAKEN, "Shaken")
    join = {"do": "join", "character": "mage", "unit": "spears"}
    assert any(a["character"] == "mage" and a["unit"] == "spears" for a in offered(g, "join"))
    ruling = g.check(join)
    # the seed forbids a join only to an Engaged or Fleeing unit: allowed. The Spearmen, Shaken, made no move and
    # could make none (a Shaken model makes no Advance or March move): not "cannot move again"
    assert ruling.legal and "t9a.join.forbidden" not in ruling.rules, ruling
    assert not any("cannot move again" in n for n in ruling.notes), ruling
    assert ("spears is Shaken (a failed charge out left every model in it so) and could make no Advance or March move "
            f"this Movement phase; the join stops it all the same [{STOPS}, {SHAKEN}]") in ruling.notes, ruling
    # the decision: the joiner is not Shaken (the failed charge Shook the models then in the unit); the unit stays
    # Shaken and does not shoot, him with it (round 57)
    assert any(n.startswith("mage is not Shaken: a failed charge out Shakes the models in the unit then")
               for n in ruling.notes), ruling
    assert {SHAKEN, STOPS, FAILURE} <= set(ruling.rules), ruling
    before = g.state
    events = g.apply(join)
    assert "spears, Shaken, could not move this phase and moves no more; mage is not Shaken" in events[0].message
    assert "cannot move again" not in events[0].message and SHAKEN in events[0].rules, events[0]
    assert "shaken" not in _statuses(g, "mage") and "shaken" in _statuses(g, "spears")
    g.undo()
    assert g.state == before
    g.apply(join)
    g = saved_and_loaded(g)
    assert "shaken" not in _statuses(g, "mage") and g.state.unit("mage").joined == "spears"
    # the legal case with no Shaken: a join to an unshaken unit keeps "cannot move again" (round 66)
    h = reloading_game(_two_heroes())
    play_to(h, "movement", "elves")
    plain = h.check(join)
    assert plain.legal and "the unit cannot move again this Movement phase [t9a.join.unit-stops]" in plain.notes
    assert SHAKEN not in plain.rules, plain
