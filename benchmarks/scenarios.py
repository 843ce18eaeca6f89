"""The scenarios the speed targets of issue 11 are measured on, built as plain scenario data.

Shared by ``bench_speed.py`` (which also runs them against the baseline commit) and the
exactness tests, so both look at the same positions.
"""

from __future__ import annotations

from typing import Any

MARINE = "WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+"
SERGEANT = "WS4 BS4 S4 T4 W1 I4 A2 Ld9 Sv3+"
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+"
NOB = "WS4 BS2 S4 T4 W2 I3 A3 Ld7 Sv6+"
ORK_WEAPONS = [{"name": "slugga", "type": "pistol", "range": 12, "strength": 4, "ap": 6},
               {"name": "choppa", "type": "melee", "range": 0, "strength": "user", "ap": "-"}]


def _model(name: str, profile: str, x: float, y: float, weapons: list[str]) -> dict[str, Any]:
    return {"name": name, "profile": profile, "base": 25, "at": [x, y], "weapons": weapons}


def _boyz(n: int, y: float, x0: float = 20.0) -> list[dict[str, Any]]:
    """n Boyz in a line at ``y`` and a Nob (an ordinary character in the unit) behind them."""
    boyz = [_model(f"Boy {i + 1}", BOY, x0 + 2 * (i % 15), y + 2 * (i // 15), ["slugga", "choppa"]) for i in range(n)]
    return [{"id": "boyz", "type": "infantry", "models": boyz},
            {"id": "nob", "type": "infantry", "character": "ordinary", "joined": "boyz",
             "models": [_model("Nob", NOB, x0 + 1, y + 5, ["slugga", "choppa"])]}]


def volley(shooters: int = 10, ruleset: str = "40k3") -> dict[str, Any]:
    """``shooters`` Marines with bolters 10" from 10 Boyz led by a Nob (rapid fire: 2 shots each), shooting phase."""
    marines = [_model(f"Marine {i + 1}", SERGEANT if i == 0 else MARINE, 20 + 2 * (i % 15), 10 - 2 * (i // 15),
                      ["bolter"]) for i in range(shooters)]
    return {"ruleset": ruleset, "turn": 1, "phase": "shooting", "active": "marines",
            "table": {"width": 72, "depth": 48},
            "sides": {"marines": [{"id": "tactical", "type": "infantry", "models": marines}],
                      "orks": _boyz(10, 20)},
            "weapons": ORK_WEAPONS}


VOLLEY_ACTION = {"do": "shoot", "unit": "tactical", "target": "boyz"}


def smite() -> dict[str, Any]:
    """A 40k3 Librarian 12" from 10 Boyz and a Nob, in the shooting phase."""
    data = volley(1)
    data["sides"]["marines"] = [{"id": "librarian", "type": "infantry", "character": "independent",
                                 "rules": ["psyker"], "models": [
                                     _model("Librarian", "WS5 BS4 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+", 30, 12,
                                            ["bolt pistol", "force weapon"])]}]
    return data


SMITE_ACTION = {"do": "manifest", "psyker": "librarian", "power": "Smite", "target": "boyz"}


def fight(ruleset: str) -> dict[str, Any]:
    """10 Marines and a Chaplain (joined) in base contact with 10 Boyz and a Nob, in the assault phase."""
    marines = [_model(f"Marine {i + 1}", SERGEANT if i == 0 else MARINE, 20 + 1.2 * i, 20, ["bolt pistol", "chainsword"])
               for i in range(10)]
    boyz = [_model(f"Boy {i + 1}", BOY, 20 + 1.2 * i, 20.99, ["slugga", "choppa"]) for i in range(10)]
    chaplain = _model("Chaplain", "WS5 BS5 S4 T4 W2 I4 A2 Ld10 Sv3+ Inv4+", 32, 20, ["bolt pistol", "crozius arcanum"])
    nob = _model("Nob", NOB, 32, 20.99, ["slugga", "choppa"])
    return {"ruleset": ruleset, "turn": 2, "phase": "assault", "active": "marines",
            "table": {"width": 72, "depth": 48},
            "sides": {"marines": [{"id": "chaplain", "type": "infantry", "character": "independent",
                                   "joined": "squad", "models": [chaplain]},
                                  {"id": "squad", "type": "infantry", "models": marines}],
                      "orks": [{"id": "boyz", "type": "infantry", "models": boyz},
                               {"id": "nob", "type": "infantry", "character": "ordinary", "joined": "boyz",
                                "models": [nob]}]},
            "weapons": ORK_WEAPONS}


FIGHT_ACTION = {"do": "fight", "unit": "squad"}
