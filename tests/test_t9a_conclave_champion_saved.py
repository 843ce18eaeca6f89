"""A Wizard Conclave's champion with a wound taken is saved and loads again (session 32).

A T9A sequence fuzz found it: after a Miscast left the champion (W1 in his profile, +1 as the
Conclave's champion, t9a.spell.wizard-conclave) with one wound taken, ``play --out`` and
``Game.save`` wrote a state that every command then refused ("a model with 1 Wounds and 1 taken
is a casualty"), since the loader read the profile's Wounds, not the ruleset's.  Now the
loader asks the ruleset (``Ruleset.model_wounds``): the champion loads with one Wound left, and
a model whose wounds taken reach its Wounds in play is still refused, naming the field.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer.errors import ScenarioError
from herohammer.rulesets.t9a_units import model_wounds
from herohammer.scenario import load_scenario, state_from_data, state_to_data
from tests._cli import run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "t9a_whole_turn.yaml"


def _data(champion_taken: int = 0, mage_taken: int = 0) -> dict[str, Any]:
    data = copy.deepcopy(yaml.safe_load(EXAMPLE.read_text()))
    conclave = next(u for u in data["sides"]["highborn"] if u["id"] == "conclave")
    conclave["models"][0]["wounds_taken"] = champion_taken  # mage1, the champion
    conclave["models"][1]["wounds_taken"] = mage_taken
    return data


@pytest.mark.rule("t9a.spell.wizard-conclave", "core.zero.w")
def test_a_champion_with_a_wound_taken_loads_and_round_trips() -> None:
    state = state_from_data(_data(champion_taken=1))
    conclave = state.unit("conclave")
    champion = conclave.models[0]
    assert champion.role == "champion" and champion.profile.w == 1 and champion.wounds_taken == 1
    assert model_wounds(conclave, champion) - champion.wounds_taken == 1  # one Wound left
    assert state_from_data(state_to_data(state)) == state


@pytest.mark.rule("t9a.spell.wizard-conclave", "core.zero.w")
@pytest.mark.parametrize("champion_taken, mage_taken, index, said", [
    (2, 0, 0, "a model with 2 Wounds (1 in its profile, +1 as the champion of a Wizard Conclave, "
              "t9a.spell.wizard-conclave) and 2 taken is a casualty"),
    (0, 1, 1, "a model with 1 Wounds and 1 taken is a casualty"),  # the other mages have no bonus
])
def test_a_casualty_listed_is_refused_by_its_wounds_in_play(champion_taken: int, mage_taken: int, index: int,
                                                            said: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        state_from_data(_data(champion_taken, mage_taken), "x.yaml")
    assert refused.value.field == f"sides.highborn[2].models[{index}].wounds_taken"
    assert said in str(refused.value) and "[core.zero.w]" in str(refused.value)


@pytest.mark.rule("t9a.spell.wizard-conclave")
def test_play_saves_a_wounded_champion_that_every_command_reads(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The saved file of a game in which the champion is wounded loads in ``check`` (as ``play --out`` writes it)."""
    source = tmp_path / "wounded.yaml"
    source.write_text(yaml.safe_dump(_data(champion_taken=1), sort_keys=False))
    saved = tmp_path / "after.yaml"
    code, out, err = run(["play", str(source), "--action", '{"do": "end_phase"}', "--seed", "1",
                          "--out", str(saved)], capsys)
    assert code == 0, err
    code, out, err = run(["check", str(saved), "--action", '{"do": "end_phase"}'], capsys)
    assert code == 0 and "Traceback" not in err, err
    state = load_scenario(saved)
    champion = state.unit("conclave").models[0]
    assert champion.wounds_taken == 1 and model_wounds(state.unit("conclave"), champion) == 2
