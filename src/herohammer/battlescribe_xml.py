"""BattleScribe's XML read by local names: its files carry a namespace per schema version, and the reader (and the
modifiers it applies) walk the same paths in all of them."""

from __future__ import annotations

from collections.abc import Iterator
from xml.etree.ElementTree import Element


def local_name(tag: str) -> str:
    """Return an element's tag without its namespace (``{http://www.battlescribe.net/schema/...}profile``: profile)."""
    return tag.rsplit("}", 1)[-1]


def children(el: Element, *path: str) -> Iterator[Element]:
    """Yield the elements under ``el`` along a path of local names (namespace-blind)."""
    if not path:
        yield el
        return
    for child in el:
        if local_name(child.tag) == path[0]:
            yield from children(child, *path[1:])
