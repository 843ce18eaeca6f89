"""A roster's selection written without a cost, priced from its catalogue entry beside the roster.

BattleScribe saves each selection of a roster with its cost (``pts``, for all of its ``number``), and herohammer adds
those up.  A roster written without them (by hand, or by a tool that leaves costs out) was priced by nothing: its
units' points went unsaid, its extra models and options uncounted.  Such a selection is priced here from the
catalogue entry its ``entryId`` names, ``number`` times, with the entry's cost modifiers decided on the roster's own
selections (session 42): what the player chose settles a count in the unit, the force or the roster, where a
catalogue alone leaves a count beyond the unit open (``battlescribe_conditions``).  What cannot be priced is said.
A condition counting points in the roster reads them through ``Prices`` (session 43).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from xml.etree.ElementTree import Element

from .battlescribe_conditions import Node
from .battlescribe_modifiers import modified_cost
from .battlescribe_xml import POINTS, children, local_name


def points_costs(el: Element) -> list[Element]:
    """Return an entry's or selection's costs that are points."""
    return [c for c in children(el, "costs", "cost") if c.get("name", "").strip().lower() in POINTS]


def roster_nodes(root: Element, count: Mapping[int, int], index: Mapping[str, Element] | None = None,
                 missing: str = "") -> dict[int, Node]:
    """Return each element of a roster (the roster, its forces, their selections) as a node of what the player
    chose, by ``id`` of the element; ``count`` gives a selection's number (a force's and the roster's are 1).  The
    roster's node prices its selections (``Prices``) from the roster's costs and ``index``, its catalogue."""
    nodes: dict[int, Node] = {}

    def add(el: Element, parent: Node | None) -> None:
        node = Node(el, count.get(id(el), 1), parent, each=False)
        nodes[id(el)] = node
        if parent is not None:
            parent.kids.append(node)
        for kid in (*children(el, "forces", "force"), *children(el, "selections", "selection")):
            add(kid, node)

    add(root, None)
    nodes[id(root)].pricer = Prices(index, missing)
    return nodes


class Prices:
    """A roster's selections priced for a condition counting points or a percentage of them (session 43): each
    selection's own cost (the roster's, for all of its ``number``; or its catalogue entry's, ``catalogue_cost``)
    with all that was chosen under it.  A price whose modifiers ask for itself (the roster's points, the selection's
    among them) is not settled: said, never guessed."""

    def __init__(self, index: Mapping[str, Element] | None, missing: str) -> None:
        self.index, self.missing = index, missing
        self._busy: set[int] = set()
        self._known: dict[int, float] = {}
        #: The price found depending on itself while pricing a selection (said instead of each price on the way).
        self._loop = ""

    def __call__(self, node: Node) -> float | str:
        own = self.own(node)
        if isinstance(own, str):
            return own
        for kid in node.kids:
            price = self(kid)
            if isinstance(price, str):
                return price
            own += price
        return own

    def own(self, node: Node) -> float | str:
        """Return a selection's own points (not its children's; a force's and the roster's are 0), or why not."""
        el = node.entry
        if local_name(el.tag) != "selection":
            return 0.0
        if id(el) in self._known:
            return self._known[id(el)]
        name = el.get("name", "?").strip()
        costs = points_costs(el)
        if costs:
            try:
                value = sum(float(c.get("value", "")) for c in costs)
            except ValueError:
                return f"the cost of {name} is not a number"
        elif id(el) in self._busy:
            self._loop = f"the points of {name} depend on a modifier of its own cost"
            return self._loop
        else:
            if not self._busy:
                self._loop = ""
            self._busy.add(id(el))
            try:
                text, notes = catalogue_cost(el, node, self.index, self.missing)
            finally:
                self._busy.discard(id(el))
            if notes:  # the loop itself said once, not nested in each price it passed through
                return self._loop or f"the points of {name} are not settled ({notes[0]})"
            try:
                value = float(text) * node.number if text is not None else 0.0
            except ValueError:
                return f"the cost of {name} is not a number"
        if not math.isfinite(value):
            return f"the cost of {name} is not a number"
        self._known[id(el)] = value
        return value


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
