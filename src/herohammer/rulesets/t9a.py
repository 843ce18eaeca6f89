"""The 9th Age: characters in rank-and-file units (seed 002)."""

from __future__ import annotations

from typing import ClassVar

from .base import Ruleset


class NinthAge(Ruleset):
    """Override the shared rules where The 9th Age says otherwise."""

    name: ClassVar[str] = "t9a"
    title: ClassVar[str] = "The 9th Age"
    seeds: ClassVar[tuple[str, ...]] = ("002", "004")
