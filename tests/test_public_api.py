"""The public API at the top of the package: ``from herohammer import Game, load_scenario, ...``, loaded lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import herohammer

LIBRARIAN = str(Path(__file__).resolve().parents[1] / "examples" / "40k3_librarian_psychic.yaml")


def test_every_public_name_resolves() -> None:
    for name in herohammer.__all__:
        assert getattr(herohammer, name) is not None, name
    assert set(herohammer.__all__) <= set(dir(herohammer))


def test_a_game_through_the_top_level_names() -> None:
    from herohammer import Game, ScriptedDice, load_scenario

    game = Game(load_scenario(LIBRARIAN), ScriptedDice([3, 4, 5, 6, 6, 6, 6, 1, 1, 1]))
    smite = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}
    assert game.check(smite).legal
    events = game.apply(smite)
    assert any("40k3.psyker.test" in e.rules for e in events)


def test_importing_the_package_stays_light() -> None:
    code = ("import sys, herohammer; heavy = [m for m in ('pydantic', 'numpy', 'shapely', 'matplotlib', 'rich') "
            "if m in sys.modules]; print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "", out.stdout + out.stderr


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        herohammer.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("expected AttributeError")
