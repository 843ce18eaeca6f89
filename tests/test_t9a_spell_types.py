"""The 9th Age spell Types: an engaged Caster casts no Missile, a Damage spell spares engaged units, and a plain
unit's failed charge cites the general Failed Charge rule (published.t9a-spell-types, published.t9a-failed-charge)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from _cli import run
from _t9a import refused, scenario
from herohammer.actions import Cast
from herohammer.dice import ScriptedDice
from herohammer.errors import HerohammerError
from herohammer.game import Game
from herohammer.scenario import state_from_data
from herohammer.spells import PLAYED_TYPES, bundled_spells, find_spell, spells_from_data
from herohammer.units import Status

TYPES = "published.t9a-spell-types"
FAILED_CHARGE = "published.t9a-failed-charge"


def wizard_game(spells: list[str], *, spear: list[str] | None = None, orc: list[str] | None = None,
                conclave: bool = False) -> Game:
    """The Spearmen's Wizard Adept Hero (or the Spearmen as a Wizard Conclave) in the elves' Magic phase, orcs 14" ahead."""
    status = spear or []
    data = scenario(phase="magic", active="elves", spear_status=status, hero_status=status, orc_status=orc,
                    roles={0: "champion"} if conclave else None,
                    spear_rules=["Wizard Conclave (Fireball, Flame Cage, Burning Head)"] if conclave else None,
                    extra={"magic_dice": {"elves": 6, "orcs": 4}})
    elves = data["sides"]["elves"]
    if conclave:
        elves[0]["spells"] = spells
    else:
        elves[1]["rules"], elves[1]["spells"] = ["Wizard Adept"], spells
    return Game(state_from_data(data))


def cast(unit: str, spell: str) -> dict[str, Any]:
    return {"do": "cast", "unit": unit, "spell": spell, "target": "orcs", "dice": 2}


def test_every_bundled_spell_has_hex_and_only_types_the_engine_plays() -> None:
    for spell in bundled_spells():
        assert "Hex" in spell.types and set(spell.types) <= set(PLAYED_TYPES), spell
    fireball, shadows = find_spell("Fireball"), find_spell("Whispering Shadows")
    assert fireball is not None and fireball.missile and not fireball.damage
    assert shadows is not None and not shadows.missile and not shadows.damage


@pytest.mark.parametrize(("types", "field", "text"), [
    (["Hex", "Misile"], "types[1]", "unknown spell type 'Misile'"),
    (["Augment"], "types[0]", "'Augment' is not played by the engine"),
    (["Missile"], "types", "has the type Hex"),
    (["Hex", "Hex"], "types", "given twice"),
    ([], "types", "at least 1 item"),
])
def test_a_bad_spell_type_is_one_error_naming_the_file_and_the_field(types: list[str], field: str, text: str) -> None:
    entry = {"name": "Fireball", "casting_value": 5, "range": 18, "hits": "D6", "strength": 4, "types": types}
    with pytest.raises(HerohammerError) as err:
        spells_from_data([entry], "data/spells.yaml")
    message = str(err.value)
    assert message.startswith(f"data/spells.yaml[0].{field}: ") and text in message, message
    missing = {k: v for k, v in entry.items() if k != "types"}
    with pytest.raises(HerohammerError, match=r"data/spells\.yaml\[0\]\.types"):
        spells_from_data([missing], "data/spells.yaml")


@pytest.mark.rule(TYPES)
def test_an_engaged_wizard_is_refused_a_missile_spell_but_casts_a_hex() -> None:
    g = wizard_game(["Fireball", "Whispering Shadows"], spear=["engaged"])
    refused(g, cast("hero", "Fireball"), TYPES, "Fireball is a Missile spell: hero cannot cast it while its unit "
                                                "spears is engaged in combat")
    shadows = g.check(cast("hero", "Whispering Shadows"))
    assert shadows.legal, shadows
    offered = {(a.unit, a.spell) for a in g.legal_actions() if isinstance(a, Cast)}
    assert offered == {("hero", "Whispering Shadows")}
    events = g.apply(cast("hero", "Whispering Shadows"), ScriptedDice([3, 3, 3, 6, 6, 6, 1, 1]))
    assert events[0].data == (("outcome", "cast"),)
    # not engaged, the Hero may cast either
    free = wizard_game(["Fireball", "Whispering Shadows"])
    assert free.check(cast("hero", "Fireball")).legal
    assert {a.spell for a in free.legal_actions() if isinstance(a, Cast)} == {"Fireball", "Whispering Shadows"}


@pytest.mark.rule(TYPES, "t9a.spell.wizard-conclave")
def test_an_engaged_wizard_conclave_is_refused_a_missile_spell() -> None:
    g = wizard_game(["Fireball", "Flame Cage"], spear=["engaged"], conclave=True)
    refused(g, cast("spears", "Fireball"), TYPES, "spears cannot cast it while spears is engaged in combat")
    assert g.check(cast("spears", "Flame Cage")).legal  # a Damage spell, not a Missile: the orcs are not engaged
    assert {a.spell for a in g.legal_actions() if isinstance(a, Cast)} == {"Flame Cage"}


@pytest.mark.rule(TYPES)
def test_a_damage_spell_does_not_target_a_unit_engaged_in_combat() -> None:
    g = wizard_game(["Flame Cage", "Whispering Shadows"], orc=["engaged"])
    refused(g, cast("hero", "Flame Cage"), TYPES, "Flame Cage is a Damage spell: it cannot target orcs, which is "
                                                  "engaged in combat")
    assert g.check(cast("hero", "Whispering Shadows")).legal
    assert {a.spell for a in g.legal_actions() if isinstance(a, Cast)} == {"Whispering Shadows"}
    assert wizard_game(["Flame Cage"]).check(cast("hero", "Flame Cage")).legal


@pytest.mark.rule(TYPES)
def test_the_cli_refuses_an_engaged_wizard_a_missile_and_allows_a_hex(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "engaged.yaml"
    path.write_text(yaml.safe_dump(wizard_game(["Fireball", "Whispering Shadows"], spear=["engaged"]).to_data()),
                    encoding="utf-8")
    code, out, _ = run(["check", str(path), "--action", '{"do": "cast", "unit": "hero", "spell": "Fireball", '
                                                       '"target": "orcs", "dice": 2}', "--strict"], capsys)
    assert code == 1 and out.startswith("ILLEGAL: ") and f"[{TYPES}" in out and "Missile" in out, out
    code, out, _ = run(["check", str(path), "--action", '{"do": "cast", "unit": "hero", "spell": '
                                                       '"Whispering Shadows", "target": "orcs", "dice": 2}'], capsys)
    assert code == 0 and out.startswith("LEGAL"), out


ORCS_CHARGE = {"do": "charge", "unit": "orcs", "target": "spears"}


@pytest.mark.rule(FAILED_CHARGE)
def test_a_units_failed_charge_cites_the_general_rule_not_the_character_clause() -> None:
    g = Game(state_from_data(scenario(phase="charge", active="orcs", enemy_y=30)))
    events = g.apply(ORCS_CHARGE, ScriptedDice([1, 1]))  # 4" + 2 = 6" short of 10": a 1" Failed Charge Move
    assert "fails its charge" in events[-1].message
    assert FAILED_CHARGE in events[-1].rules and "t9a.charge-out.failure" not in events[-1].rules
    assert g.state.unit("orcs").has(Status.CHARGED) and not g.state.unit("orcs").has(Status.ENGAGED)


@pytest.mark.rule("t9a.charge-out.failure")
def test_a_character_charging_out_still_cites_the_charge_out_clause() -> None:
    g = Game(state_from_data(scenario(joined=True, phase="charge", active="elves", enemy_y=36)))
    events = g.apply({"do": "charge", "unit": "hero", "target": "orcs"}, ScriptedDice([1, 1]))
    assert "t9a.charge-out.failure" in events[-1].rules and FAILED_CHARGE not in events[-1].rules
    assert g.state.unit("spears").has(Status.SHAKEN)
