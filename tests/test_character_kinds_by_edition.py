"""An ordinary character (one fielded as part of his unit) outside a unit, or stepping out of it, is refused citing
the edition's own clause: 40k3.char.kinds in 3rd edition, published.40k4-character-kinds in 4th (the ruleset's
``character_kinds_rule`` hook), never the other edition's id."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from _cli import run
from _w40k import assert_illegal, assert_legal, game, hero, scenario, squad
from herohammer.errors import ScenarioError
from herohammer.scenario import load_scenario, state_from_data

KINDS = {"40k3": "40k3.char.kinds", "40k4": "published.40k4-character-kinds"}
EDITIONS = pytest.mark.parametrize("ruleset", sorted(KINDS))


def _unjoined_sergeant(ruleset: str) -> dict[str, object]:
    """A squad and an ordinary Sergeant who names no unit (neither joined nor last_of)."""
    return scenario(ruleset, [squad("tac", 20, 10), hero("sgt", 20, 16, kind="ordinary")])


@pytest.mark.rule("40k3.char.kinds", "published.40k4-character-kinds")
@EDITIONS
def test_the_loader_refuses_an_unjoined_ordinary_character_naming_the_file_the_unit_and_the_editions_id(
        ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / f"{ruleset}_sergeant.yaml"
    path.write_text(yaml.safe_dump(_unjoined_sergeant(ruleset)), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    text = str(info.value)
    assert str(path) in text and "sides.red[1].joined" in text and "sgt is an ordinary character" in text, text
    assert f"[{KINDS[ruleset]}]" in text, text
    other = KINDS["40k4" if ruleset == "40k3" else "40k3"]
    assert other not in text, text
    # the same Sergeant named in his squad loads
    joined = _unjoined_sergeant(ruleset)
    joined["sides"]["red"][1]["joined"] = "tac"  # type: ignore[index]
    assert state_from_data(joined, str(path)).unit("sgt").joined == "tac"


@pytest.mark.rule("40k3.char.kinds", "published.40k4-character-kinds")
@EDITIONS
def test_the_cli_says_it_in_one_line_with_exit_2(ruleset: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{ruleset}_sergeant.yaml"
    path.write_text(yaml.safe_dump(_unjoined_sergeant(ruleset)), encoding="utf-8")
    code, out, err = run(["check", str(path), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert str(path) in lines[0] and "sgt" in lines[0] and f"[{KINDS[ruleset]}]" in lines[0], lines[0]


@pytest.mark.rule("40k3.char.kinds", "published.40k4-character-kinds", "40k3.ic.join", "40k4.ic.join")
@EDITIONS
def test_an_ordinary_character_may_neither_leave_nor_join_and_an_independent_one_may(ruleset: str) -> None:
    red = [squad("tac", 20, 10), squad("other", 20, 20), hero("sgt", 22, 11.5, kind="ordinary", joined="tac"),
           hero("cap", 26, 14)]
    g = game(scenario(ruleset, red))
    assert_illegal(g, {"do": "leave", "character": "sgt", "to": [22, 15]}, KINDS[ruleset])
    assert_illegal(g, {"do": "join", "character": "sgt", "unit": "other", "to": [22, 18.5]}, KINDS[ruleset])
    assert_legal(g, {"do": "join", "character": "cap", "unit": "tac", "to": [24, 11.5]},
                 "40k3.ic.join" if ruleset == "40k3" else "40k4.ic.join")
