"""herohammer: rules engine, exact odds and simulator for wargame character rules.

Warhammer 40,000 3rd and 4th edition (independent characters, psykers, Perils of the
Warp) and The 9th Age (characters in rank-and-file units), with the characteristic
and Leadership tests they share.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("herohammer")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__"]
