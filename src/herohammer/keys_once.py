"""A mapping's key given twice in YAML or JSON text, refused naming it (both formats keep the last one silently).

Why: a scenario with ``turn: 1`` and, lower down, ``turn: 3`` played turn 3; an ``--action`` typed as
``{"do": "shoot", ..., "do": "end_phase"}`` was ruled as ending the phase.  Readers call ``object_once`` as
``json.loads``'s ``object_pairs_hook`` and feed a ``KeysOnce`` the YAML parser's events (or call ``yaml_keys_once``).
"""

from __future__ import annotations

from typing import Any

import yaml

from .errors import ScenarioError

_ADVICE = "give each key once (YAML and JSON would keep the last one silently)"


def object_once(pairs: list[tuple[str, Any]], where: str) -> dict[str, Any]:
    """Build a JSON object from its pairs, refusing a key given twice."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ScenarioError(where, "", f"the key {key!r} is given twice in one object; {_ADVICE}")
            seen.add(key)
    return out


class KeysOnce:
    """Follow the YAML parser's events and refuse a mapping's scalar key given twice (no recursion)."""

    __slots__ = ("where", "_open")

    def __init__(self, where: str) -> None:
        self.where = where
        self._open: list[tuple[set[str] | None, list[bool]]] = []  # per open collection: its keys (None: a list)
        # and whether its next node is a key

    def feed(self, event: Any) -> None:
        """Take the next event; raise ``ScenarioError`` at a key the mapping has had already."""
        opened = self._open
        keys = opened[-1][0] if opened else None
        if keys is not None and isinstance(event, yaml.NodeEvent):
            at_key = opened[-1][1]
            if at_key[0] and isinstance(event, yaml.ScalarEvent):
                if event.value in keys:
                    line = event.start_mark.line + 1 if event.start_mark else 0
                    raise ScenarioError(self.where, "", f"line {line}: the key {event.value!r} is given twice in one "
                                        f"mapping; {_ADVICE}")
                keys.add(event.value)
            if not isinstance(event, yaml.CollectionStartEvent):  # a collection flips its parent when it ends
                at_key[0] = not at_key[0]
        if isinstance(event, yaml.CollectionStartEvent):
            opened.append((set() if isinstance(event, yaml.MappingStartEvent) else None, [True]))
        elif isinstance(event, yaml.CollectionEndEvent):
            opened.pop()
            if opened and opened[-1][0] is not None:
                opened[-1][1][0] = not opened[-1][1][0]


def yaml_keys_once(text: str, where: str, loader: Any = yaml.SafeLoader) -> None:
    """Refuse YAML text with a mapping's key given twice (call before loading it)."""
    keys = KeysOnce(where)
    for event in yaml.parse(text, Loader=loader):
        keys.feed(event)
