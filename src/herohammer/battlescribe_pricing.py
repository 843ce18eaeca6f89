"""A roster's selection written without a cost, priced from its catalogue entry beside the roster.

BattleScribe saves each selection of a roster with its cost (``pts``, for all of its ``number``), and herohammer adds
those up.  A roster written without them (by hand, or by a tool that leaves costs out) was priced by nothing: its
units' points went unsaid, its extra models and options uncounted.  Such a selection is priced here from the
catalogue entry its ``entryId`` names, ``number`` times, with the entry's cost modifiers decided on the roster's own
selections (session 42): what the player chose settles a count in the unit, the force or the roster, where a
catalogue alone leaves a count beyond the unit open (``battlescribe_conditions``).  What cannot be priced is said.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.etree.ElementTree import Element

from .battlescribe_conditions import Node
from .battlescribe_modifiers import modified_cost
from .battlescribe_xml import children, local_name

#: The cost types that are a unit's points (BattleScribe's ``pts``; others, such as Power Level, are not shown).
POINTS = ("pts", "points")


def points_costs(el: Element) -> list[Element]:
    """Return an entry's or selection's costs that are points."""
    return [c for c in children(el, "costs", "cost") if c.get("name", "").strip().lower() in POINTS]


def roster_nodes(root: Element, count: Mapping[int, int]) -> dict[int, Node]:
    """Return each element of a roster (the roster, its forces, their selections) as a node of what the player
    chose, by ``id`` of the element; ``count`` gives a selection's number (a force's and the roster's are 1)."""
    nodes: dict[int, Node] = {}

    def add(el: Element, parent: Node | None) -> None:
        node = Node(el, count.get(id(el), 1), parent, each=False)
        nodes[id(el)] = node
        if parent is not None:
            parent.kids.append(node)
        for kid in (*children(el, "forces", "force"), *children(el, "selections", "selection")):
            add(kid, node)

    add(root, None)
    return nodes


def catalogue_cost(selection: Element, node: Node | None, index: Mapping[str, Element] | None,
                   missing: str) -> tuple[str | None, list[str]]:
    """Return the points of one of a roster selection's catalogue entry (its ``pts`` cost, modified as the roster's
    choices settle), each undecided modifier noted; or None with why not (no catalogue beside the roster:
    ``missing`` says which; an entry it does not hold), None and no note when the entry has no cost either."""
    where = f"{selection.get('name', '?').strip()} (selection {selection.get('id', '')})"
    if index is None:
        return None, [f"{where}: no cost in the roster, and {missing}: the unit's points are not said"]
    found = [index[i] for i in reversed(selection.get("entryId", "").split("::")) if i in index]
    found = [index.get(el.get("targetId", ""), el) if local_name(el.tag) == "entryLink" else el for el in found]
    entry = next((el for el in found if local_name(el.tag) == "selectionEntry"), None)
    if entry is None:
        return None, [f"{where}: no cost in the roster, and its entryId {selection.get('entryId', '')!r} is no entry "
                      "of its catalogue: the unit's points are not said"]
    costs = points_costs(entry)
    if not costs:
        return None, []  # the catalogue gives it no cost either: nothing to add
    return modified_cost(entry, costs[0], node, index)
