"""BattleScribe data a player brings (session 42): a roster priced from its catalogue where it carries no costs, the
force's and the roster's conditions the roster settles, a 9th Age bracketed Attack Value, and bad files.

The files are written here in the BattleScribe schema (no community data; the importer was tried on
ksnyder1986/Warhammer-40k-3rd-Edition and BSData/The-9th-Age, kept out of the repository: The 9th Age's 2nd edition
catalogues print brackets only in the flyers' rates, ``Adv 2" (9")``, no ``Att 2(3)``).

Found wrong (each first written as an xfail(strict=True) test):
- a roster whose selections carry no ``pts`` cost (written by hand, or by a tool that leaves costs out) was priced
  by nothing, though the catalogue it names stood beside it: its units' points went unsaid, the models and options
  the player chose uncounted;
- a cost modifier under a condition on the force or the roster (a Captain's +10 when the force takes a Chapter
  Trait; a Veteran's -5 when the roster holds two Tactical Squads) could only be noted, never decided, though a
  roster holds every selection of its force and of itself;
- a roster that prices some units and not another, with no catalogue beside it, summed the priced ones without a
  word on the other; a selection naming an entry its catalogue does not hold was priced as nothing;
- ``catalogue`` gave a roster no total in its title when the roster gives none, though each unit was priced;
- a 9th Age ``Att 2(3)`` was said as "the bracketed value, with wargear or an option, is not read", with nothing of
  the Paired Weapons whose +1 Attack Value the t9a ruleset adds itself (published.t9a-paired-weapons).

Fixed: ``battlescribe_pricing`` (new: ``roster_nodes`` reads a roster's forces and selections as the nodes its
conditions are decided on, ``catalogue_cost`` prices a selection from its entry); ``battlescribe._Reader.add_points``
prices a selection without a cost through ``_from_catalogue`` (its catalogue, game system and linked catalogues read
from beside the roster by ``_roster_catalogue``), and ``unpriced_note`` says a unit left unpriced;
``battlescribe_conditions.Node.matches`` knows a roster selection by its ``entryId`` and categories, ``_scoped`` finds
the force and the roster among a roster's nodes (their counts exact), ``Node.below`` reads a roster's numbers as
totals; ``battlescribe._t9a_brackets`` names Paired Weapons for an Attack Value; ``commands.catalogue_cmd._total``
adds up a roster's units when it gives no total and each is priced.

Decisions (docs/data.md, session 42): a roster's own cost wins; a selection without one is priced from its catalogue
entry, ``number`` times, with the cost modifiers the roster settles (counts in the unit, the force, the roster:
exact); a selection the catalogue does not hold, or a roster whose catalogue is not beside it, leaves the unit's
points unsaid, with a note (a roster pricing nothing and no catalogue beside: "not in the roster", as before).  A 9th
Age ``Att a(b)`` reads a: the model's own; the t9a ruleset adds Paired Weapons' +1 itself when the model carries them.

Considered and left: a roster's profiles are not re-modified from its catalogue (BattleScribe writes them as
chosen); a percentage or a count of points stays noted; BattleScribe's roster cost is for all of a selection's
``number`` (a roster's selections add up to its total), so a roster's own costs are not multiplied.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from _cli import run
from herohammer.battlescribe import points_words, read_battlescribe
from test_battlescribe_21 import MARINE, NS, profile
from test_battlescribe_37 import EXAMPLES, _catalogue
from test_battlescribe_41 import _cost, _entry, _min

T9A = "The 9th Age: Fantasy Battles 2nd Edition (test)"


def _when(kind: str, value: str, scope: str, child: str, count: str = "1") -> str:
    """A cost modifier under one condition counting selections of ``child`` in ``scope``."""
    return (f'<modifiers><modifier type="{kind}" field="points" value="{value}"><conditions><condition '
            f'type="atLeast" value="{count}" field="selections" scope="{scope}" childId="{child}" shared="true" '
            'includeChildSelections="true"/></conditions></modifier></modifiers>')


def _army(folder: Path) -> Path:
    """A 40k3 catalogue: Tactical Squads (five Marines at 15 with frag grenades at 1 each; a plasma gun at 10), a
    Captain at 50 (+10 when his force takes a Chapter Trait), Veterans at 20 a model (-5 when the roster holds two
    Tactical Squads), and the Chapter Trait at 0."""
    shutil.copy(EXAMPLES / "w40k3_test.gst", folder)
    marine = _entry("se-marine", "Space Marine", "model", _min(5) + _cost("15") + "<selectionEntries>"
                    + _entry("se-frag", "Frag Grenades", "upgrade", _min(1) + _cost("1")) + "</selectionEntries>")
    squad = _entry("se-tac", "Tactical Squad", "unit", _cost("0") + "<selectionEntries>" + marine
                   + _entry("se-plasma", "Plasma Gun", "upgrade", _cost("10")) + "</selectionEntries>")
    captain = _entry("se-cap", "Captain", "unit", _cost("50") + _when("increment", "10", "force", "se-trait"))
    vet = _entry("se-vet", "Veteran", "model", _min(5) + _cost("20") + _when("decrement", "5", "roster", "se-tac", "2"))
    vets = _entry("se-vets", "Veteran Squad", "unit", "<selectionEntries>" + vet + "</selectionEntries>")
    trait = _entry("se-trait", "Chapter Trait", "upgrade", _cost("0"))
    return _catalogue(folder / "army.cat", "cat-army",
                      f"<selectionEntries>{squad}{captain}{vets}{trait}</selectionEntries>")


def _sel(ident: str, name: str, entry: str, number: int, kind: str, inner: str = "", costs: str = "",
         profiles: str = "") -> str:
    return (f'<selection id="{ident}" name="{name}" entryId="{entry}" number="{number}" type="{kind}">{costs}'
            f"<profiles>{profiles}</profiles><selections>{inner}</selections></selection>")


def _marines(ident: str, n: int) -> str:
    return _sel(ident, "Space Marine", "se-marine", n, "model",
                _sel(f"{ident}-frag", "Frag Grenades", "se-frag", n, "upgrade"),
                profiles=profile("Space Marine", "Unit", MARINE))


def _captain(ident: str = "s-cap", entry: str = "el-cap::se-cap", costs: str = "") -> str:
    return _sel(ident, "Captain", entry, 1, "unit", costs=costs,
                profiles=profile("Captain", "Unit", {**MARINE, "W": "2", "A": "3", "Ld": "9"}))


def _vets(n: int) -> str:
    return _sel("s-vets", "Veteran Squad", "se-vets", 1, "unit",
                _sel("s-vet", "Veteran", "se-vet", n, "model",
                     profiles=profile("Veteran", "Unit", {**MARINE, "A": "2"})))


def _roster(path: Path, *units: str, catalogue: str = "cat-army", game: str = "Warhammer 40,000 3rd Edition (test)",
            total: str = "") -> Path:
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?><roster id="r" name="Test roster" battleScribeVersion="2.03" '
        f'gameSystemId="sys-test-40k3" gameSystemName="{game}" xmlns="{NS}">{total}<forces><force id="f" '
        f'name="Army" entryId="fo" catalogueId="{catalogue}" catalogueName="Space Marines (test)">'
        f'<selections>{"".join(units)}</selections></force></forces></roster>', encoding="utf-8")
    return path


def test_a_roster_without_costs_is_priced_from_its_catalogue_as_the_player_chose(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seven Marines with their frag grenades and the plasma gun chosen: 7 x 15 + 7 x 1 + 10 = 122 points, where
    the catalogue lists the squad as it comes (five, no plasma gun) at 80; the roster's selections say what was
    chosen, and the catalogue what each costs; with the Captain at 50, ``catalogue`` and ``scenario new`` say 172."""
    _army(tmp_path)
    squad = _sel("s-tac", "Tactical Squad", "se-tac", 1, "unit",
                 _marines("s-m", 7) + _sel("s-plasma", "Plasma Gun", "se-plasma", 1, "upgrade"))
    path = _roster(tmp_path / "army.ros", squad, _captain())
    army = read_battlescribe(path)
    assert army.unit("Tactical Squad").points == 7 * 15 + 7 * 1 + 10
    assert read_battlescribe(tmp_path / "army.cat").unit("Tactical Squad").points == 5 * 15 + 5 * 1
    assert army.unit("Tactical Squad").notes == ()
    code, out, err = run(["catalogue", str(path)], capsys)
    assert code == 0 and "2 units, 172 pts (its units added up: the roster gives no total)" in " ".join(out.split())
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code == 0 and "# points: 172 pts: Tactical Squad 122, Captain 50" in out, out


def test_without_its_catalogue_beside_a_roster_without_costs_stays_not_in_the_roster(tmp_path: Path) -> None:
    squad = _sel("s-tac", "Tactical Squad", "se-tac", 1, "unit", _marines("s-m", 7))
    army = read_battlescribe(_roster(tmp_path / "army.ros", squad))
    assert army.unit("Tactical Squad").points is None and army.unit("Tactical Squad").notes == ()
    assert points_words(army) == "not in the roster"


@pytest.mark.parametrize(("trait", "expected"), [(True, 60), (False, 50)])
def test_a_cost_modifier_on_the_force_is_decided_by_the_roster(tmp_path: Path, trait: bool, expected: int) -> None:
    """The Captain costs 10 more when his force takes a Chapter Trait: the roster holds every selection of the force,
    so it settles the condition (a catalogue alone only notes it)."""
    _army(tmp_path)
    chosen = [_sel("s-trait", "Chapter Trait", "se-trait", 1, "upgrade")] if trait else []
    army = read_battlescribe(_roster(tmp_path / "army.ros", _captain(), *chosen))
    assert army.unit("Captain").points == expected and army.unit("Captain").notes == ()
    listed = read_battlescribe(tmp_path / "army.cat").unit("Captain")
    assert listed.points == 50 and any("the force" in n and "not applied" in n for n in listed.notes), listed.notes


@pytest.mark.parametrize(("squads", "each"), [(2, 15), (1, 20)])
def test_a_cost_modifier_on_the_roster_is_decided_by_the_roster(tmp_path: Path, squads: int, each: int) -> None:
    """A Veteran costs 5 less when the roster holds two Tactical Squads: five Veterans are 75 with two, 100 with one
    (the squads' count across the roster's forces, exact)."""
    _army(tmp_path)
    tacs = [_sel(f"s-tac{k}", "Tactical Squad", "se-tac", 1, "unit", _marines(f"s-m{k}", 5)) for k in range(squads)]
    army = read_battlescribe(_roster(tmp_path / "army.ros", _vets(5), *tacs))
    assert army.unit("Veteran Squad").points == 5 * each and army.unit("Veteran Squad").notes == ()
    assert [u.points for u in army.units if u.name == "Tactical Squad"] == [5 * 15 + 5 * 1] * squads


def test_a_roster_cost_wins_over_the_catalogues(tmp_path: Path) -> None:
    """A selection BattleScribe priced keeps the roster's cost (the player's data as saved), the others beside it
    come from the catalogue."""
    _army(tmp_path)
    army = read_battlescribe(_roster(tmp_path / "army.ros", _captain(costs=_cost("45")), _vets(5)))
    assert army.unit("Captain").points == 45 and army.unit("Veteran Squad").points == 100


def test_a_unit_the_roster_does_not_price_is_said_when_its_catalogue_is_not_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _roster(tmp_path / "army.ros", _captain(costs=_cost("50")), _vets(5))
    army = read_battlescribe(path)
    assert army.unit("Captain").points == 50 and army.unit("Veteran Squad").points is None
    [note] = army.unit("Veteran Squad").notes
    assert "no cost in the roster" in note and "'Space Marines (test)'" in note and "not beside" in note, note
    assert points_words(army) == "50 pts: Captain 50; no cost for Veteran Squad"
    code, out, err = run(["scenario", "new", "--roster", str(path)], capsys)
    assert code == 0 and "Veteran Squad" in err and "not beside" in err, err


def test_a_selection_naming_no_entry_of_its_catalogue_leaves_its_units_points_unsaid(tmp_path: Path) -> None:
    _army(tmp_path)
    army = read_battlescribe(_roster(tmp_path / "army.ros", _captain(entry="el-x::se-gone"), _vets(5)))
    captain = army.unit("Captain")
    assert captain.points is None and army.unit("Veteran Squad").points == 100
    assert any("'el-x::se-gone' is no entry of its catalogue" in n for n in captain.notes), captain.notes


def _t9a_roster(path: Path, attacks: str, wargear: str = "") -> Path:
    """Return a 9th Age roster of ten Blades (one selection of 10 models, ``attacks`` printed) with ``wargear`` (more
    selections) under the models' selection."""
    parts = {"Global": {"Adv": '5"', "Mar": '10"', "Dis": "8"},
             "Defensive": {"HP": "1", "Def": "4", "Res": "3", "Arm": "1"},
             "Offensive": {"Att": attacks, "Off": "4", "Str": "3", "AP": "0", "Agi": "4"},
             "Size": {"Base": "20x20", "Type": "Infantry", "Height": "Standard"}}
    profiles = "".join(profile(f"Blade {p}", f"{n} {p}", c) for n, (p, c) in enumerate(parts.items()))
    return _roster(path, _sel("s-u", "Blades", "e-u", 1, "unit", _sel("s-b", "Blade", "e-b", 10, "model",
                                                                       profiles=profiles) + wargear),
                   game=T9A, catalogue="cat-none")


@pytest.mark.rule("published.t9a-paired-weapons")
def test_a_9th_age_attack_value_in_brackets_reads_the_models_own_and_names_paired_weapons(tmp_path: Path) -> None:
    """``Att 2(3)``: the model's own 2, the 3 its value with Paired Weapons, whose +1 the t9a ruleset adds itself when
    the model carries them (published.t9a-paired-weapons): read as A2, and the note says where the 3 comes from."""
    blades = read_battlescribe(_t9a_roster(tmp_path / "b.ros", "2(3)")).unit("Blades")
    assert " A2 " in f" {blades.models[0].profile} ", blades.models[0].profile
    [note] = [n for n in blades.notes if "Att" in n]
    assert "Att '2(3)' read as 2" in note and "Paired Weapons" in note and "published.t9a-paired-weapons" in note


def test_bad_roster_files_are_one_line_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A roster that is not XML, a zipped roster holding two files, a roster holding no units, and a unit asked of a
    roster that has none of that name: one line naming the file (and the unit), exit status 2, no traceback."""
    broken = tmp_path / "broken.ros"
    broken.write_text("<roster><forces>", encoding="utf-8")
    two = tmp_path / "two.rosz"
    with zipfile.ZipFile(two, "w") as z:
        z.writestr("a.ros", "<roster/>")
        z.writestr("b.ros", "<roster/>")
    empty = _roster(tmp_path / "empty.ros")
    good = _roster(tmp_path / "good.ros", _vets(5))
    for args, said in ((["catalogue", str(broken)], str(broken)), (["catalogue", str(two)], str(two)),
                       (["scenario", "new", "--roster", str(empty)], str(empty)),
                       (["catalogue", str(good), "--unit", "Veteran Sqaud"], "'Veteran Sqaud'")):
        code, out, err = run(args, capsys)
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (args, err)
        assert said in err, (args, err)
    code, _, err = run(["catalogue", str(good), "--unit", "Veteran Sqaud"], capsys)
    assert "did you mean 'Veteran Squad'" in err, err
