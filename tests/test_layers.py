"""The package's layers, read from its import statements: no import circle, and each layer imports only those below.

Dice and odds, state, rules, simulation, interfaces (DEVELOPERS.md): a module-level import that
points up a layer, or closes a circle, fails here.  The 40k rules are one class built as a chain of
modules (``rulesets/w40k_combat.py``'s docstring); each may import only the links below it.
Imports inside functions (the command line's lazy ones) and under ``TYPE_CHECKING`` are not a
module's load-time dependencies and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "herohammer"

#: The 40k rules' chain, lowest first (``rulesets/w40k_combat.py``): each module imports only those before it.
W40K_CHAIN = ("w40k_hooks", "w40k_wounds", "w40k_morale", "w40k_shooting", "w40k_psychic", "w40k_assault",
              "w40k_combat_result", "w40k_strikes", "w40k_close_combat", "w40k_combat")

#: The 9th Age's rules below the ruleset class, lowest first (``rulesets/t9a_units.py``'s docstring): each imports
#: only the links before it; the phase mixins (``t9a_combat`` and above) build on ``t9a``.
T9A_CHAIN = ("t9a_weapons", "t9a_units", "t9a_casualties", "t9a_moves", "t9a_align", "t9a_forward",
             "t9a_stand_and_shoot", "t9a_discipline", "t9a_joins", "t9a_charges", "t9a")

#: Modules at the bottom (dice and odds' arithmetic, immutable values, geometry, the game state), which the rules,
#: the simulator and the interfaces build on; none of them may import those.
LOWER = ("errors", "collector", "values", "distribution", "dice", "geometry", "units", "state")
#: What the lower modules may not import: the rules, the game, simulation and the interfaces.
UPPER = ("rulesets", "game", "simulate", "fastsim", "sweep", "action_odds", "book", "commands", "web", "cli")
#: What the rules may not import: the game that applies them, simulation and the interfaces.
ABOVE_RULES = ("game", "simulate", "fastsim", "sweep", "action_odds", "book", "commands", "web", "cli")


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The package's modules that ``name`` imports when it loads (module level, outside ``TYPE_CHECKING``)."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                if "TYPE_CHECKING" not in ast.unparse(node.test):
                    visit(node.body)
                    visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix("herohammer.") for a in node.names if a.name.startswith("herohammer."))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - (node.level - 1)] + ([node.module] if node.module else [])
                    module = ".".join(p for p in base if p)
                elif node.module and node.module.startswith("herohammer"):
                    module = node.module.removeprefix("herohammer").lstrip(".")
                else:
                    continue
                for alias in node.names:
                    inner = f"{module}.{alias.name}" if module else alias.name
                    found.add(inner if inner in MODULES else module)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    found.discard(name)
    return {m for m in found if m in MODULES}


GRAPH = {name: _imports(name) for name in MODULES}


def _top(name: str) -> str:
    return name.split(".")[0]


def test_the_import_graph_is_read() -> None:
    """The reader finds the imports it checks (a reader that found none would pass every test below)."""
    assert "rulesets.w40k_morale" in GRAPH["rulesets.w40k_shooting"]
    assert "dice" in GRAPH["rulesets.base"]
    assert "state" not in GRAPH["dice"]


def test_no_import_circle() -> None:
    """No module reaches itself through the imports made when it loads."""
    circles = []
    for start in GRAPH:
        seen, todo = set(), list(GRAPH[start])
        while todo:
            here = todo.pop()
            if here == start:
                circles.append(start)
                break
            if here not in seen:
                seen.add(here)
                todo.extend(GRAPH[here])
    assert circles == []


@pytest.mark.parametrize("link", W40K_CHAIN)
def test_each_40k_rules_module_imports_only_the_links_below_it(link: str) -> None:
    below = set(W40K_CHAIN[:W40K_CHAIN.index(link)])
    chain_imports = {m.split(".", 1)[1] for m in GRAPH[f"rulesets.{link}"] if m.startswith("rulesets.w40k_")}
    assert chain_imports <= below, f"{link} imports {sorted(chain_imports - below)}, above it in the chain"


@pytest.mark.parametrize("link", T9A_CHAIN)
def test_each_9th_age_module_below_the_ruleset_imports_only_the_links_below_it(link: str) -> None:
    below = set(T9A_CHAIN[:T9A_CHAIN.index(link)])
    chain_imports = {m.split(".", 1)[1] for m in GRAPH[f"rulesets.{link}"] if m.startswith("rulesets.t9a")}
    assert chain_imports <= below, f"{link} imports {sorted(chain_imports - below)}, above it in the chain"


@pytest.mark.parametrize("module", LOWER)
def test_the_lower_layers_import_nothing_above_them(module: str) -> None:
    assert {m for m in GRAPH[module] if _top(m) in UPPER} == set()


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _top(m) == "rulesets"))
def test_the_rules_import_neither_the_game_nor_simulation_nor_interfaces(module: str) -> None:
    assert {m for m in GRAPH[module] if _top(m) in ABOVE_RULES} == set()


def _marked_classes_with_static_members() -> list[str]:
    """Name each static or class method defined in a class that is itself marked ``@implements``."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ClassDef) or not any(
                    isinstance(d, ast.Call) and getattr(d.func, "id", None) == "implements" for d in node.decorator_list):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and any(
                        getattr(d, "id", None) in ("staticmethod", "classmethod") for d in item.decorator_list):
                    found.append(f"{path.relative_to(SRC)}: {node.name}.{item.name}")
    return found


def test_a_class_marked_implements_has_no_static_or_class_methods() -> None:
    """Rule coverage wraps every member of a class marked ``@implements`` as a plain function, so a static method
    there would be handed the instance under it (session 28: Warhammer40k4._own_reach failed every 4th edition
    assault under rulecov, though the suite passed); such helpers live at module level."""
    assert _marked_classes_with_static_members() == []
