"""``herohammer schema``: the JSON Schema of scenario and plan files, from the pydantic models that read them.

An editor given the schema (a scenario's ``$schema:`` key, or a YAML language server
setting) validates and completes the files as they are typed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from . import summary
from ..scenario import check_writable

SCHEMA_ID = "https://herohammer.invalid/scenario-and-plan.schema.json"


def scenario_and_plan_schema() -> dict[str, Any]:
    """Return one JSON Schema accepting a scenario file or a plan file (a list of actions, or ``plan:``)."""
    from ..actions import Action
    from ..powers import PowerSpec
    from ..scenario import ScenarioSpec
    from ..weapons import WeaponSpec

    scenario = ScenarioSpec.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    actions = TypeAdapter(list[Action]).json_schema(by_alias=True, ref_template="#/$defs/{model}")
    weapon = WeaponSpec.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    power = PowerSpec.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = {}
    for part in (scenario, actions, weapon, power):
        defs.update(part.pop("$defs", {}))
    # the printed words the weapon models read before validating (weapons._number_or_word)
    weapon["properties"]["strength"] = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 10}, {"const": "user"},
                                                  {"type": "null"}], "description": "a number, or 'user'"}
    weapon["properties"]["ap"] = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 6}, {"const": "-"},
                                            {"type": "null"}], "description": "1..6, or '-'"}
    defs["WeaponSpec"], defs["PowerSpec"] = weapon, power
    props = scenario["properties"]
    props["weapons"]["items"] = {"$ref": "#/$defs/WeaponSpec"}  # the models take plain mappings; say what they hold
    props["powers"]["items"] = {"$ref": "#/$defs/PowerSpec"}
    props["plan"]["items"] = actions["items"]
    props["$schema"] = {"type": "string", "description": "this schema's file name or address (ignored by herohammer)"}
    defs["Scenario"] = scenario
    defs["Plan"] = {"anyOf": [actions, {"type": "object", "properties": {"plan": actions}, "required": ["plan"],
                                        "additionalProperties": False}]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "herohammer scenario or plan file",
            "anyOf": [{"$ref": "#/$defs/Scenario"}, {"$ref": "#/$defs/Plan"}], "$defs": defs}


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``schema [--out FILE]``."""
    p: argparse.ArgumentParser = sub.add_parser(
        "schema", help=summary("schema"),
        description="Name the written file in a scenario ($schema: herohammer.schema.json) or in your editor's "
                    "YAML/JSON settings so it validates and completes scenario and plan files.")
    p.add_argument("--out", default=None, help="write the schema here (default: print it)")
    p.set_defaults(run=_run)
    return p


def _run(args: argparse.Namespace) -> int:
    text = json.dumps(scenario_and_plan_schema(), indent=2)
    if args.out:
        from ..scenario import write_atomically

        write_atomically(check_writable(args.out, "--out"), text + "\n")
        print(f"wrote the JSON Schema of scenario and plan files to {Path(args.out)}")
    else:
        print(text)
    return 0
