"""BattleScribe's XML read by local names: its files carry a namespace per schema version, and the reader (and the
modifiers it applies) walk the same paths in all of them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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


#: The cost types that are a unit's points (BattleScribe's ``pts``; others, such as Power Level, are not shown).
POINTS = ("pts", "points")


def is_points(ident: str, index: Mapping[str, Element]) -> bool:
    """Say whether a cost type id (a modifier's or condition's ``field``) names the points: a ``costType`` of the
    game system named ``pts``/``points``, or, where no such type is defined, the id itself."""
    target = index.get(ident)
    if target is not None and local_name(target.tag) == "costType":
        return target.get("name", "").strip().lower() in POINTS
    return ident.strip().lower() in POINTS
