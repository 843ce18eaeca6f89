"""A catalogue modifier's conditions decided on the unit as the catalogue lists it, where that unit settles them.

A catalogue lists each unit "as it comes": its models and the options it must take, at their minimum numbers.
A condition that counts selections in the unit (an option it comes with, or one it does not: ``atLeast``,
``equalTo`` ...) or asks what the unit's selection is (``instanceOf`` its entry or category) is decided on that
unit, and its modifier applied or not (session 41; before, every conditional modifier was only noted).  A count in
the force or the roster is at least what the unit holds and has no upper bound, so it is decided only where that
settles it (the unit itself in the roster: at least 1); a roster's own selections (``battlescribe_pricing``) give
the force's and the roster's counts exactly (session 42), and their points, the roster's points limit and a
percentage of either (session 43: a catalogue alone leaves these open); a count of forces, another scope is not
decided, and why is said.  The logic is three-valued: True, False, or None (not decided, with the reason).
A repeat (``<repeats>``: once for each N of a selection) is counted the same way, where the count is known.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from .battlescribe_xml import children, is_points, local_name

#: Why a condition on the force or the roster is not decided by the unit alone.
BEYOND = "the force beyond the unit is the player's: a catalogue lists the unit alone"


@dataclass
class Node:
    """One catalogue entry as the unit comes with it: how many its parent holds, its parent and children."""

    entry: Element
    number: int
    parent: Node | None = None
    kids: list[Node] = field(default_factory=list)
    #: A catalogue entry's number is for each of its parent (five Marines, a grenade each); a roster selection's is
    #: all of them (BattleScribe writes ten sluggas under ten Boyz): not multiplied by its parent's.
    each: bool = True
    #: A roster's root only: prices a selection (its points with all chosen under it), or says why not
    #: (``battlescribe_pricing``); None in a catalogue, whose unit is listed alone.
    pricer: Pricer | None = field(default=None, compare=False, repr=False)

    def matches(self, child_id: str) -> bool:
        """Say whether this selection is the entry ``child_id`` or of that category (or ``any`` selection, or any of
        a kind: ``model``, ``unit``, ``upgrade``).  A roster's selection names its entry by ``entryId`` (the links
        to it and the entry, joined by ``::``) and its categories by their ``entryId``; a force its ``entryId`` and
        its catalogue."""
        entry = self.entry
        if local_name(entry.tag) in ("selection", "force"):
            names = {"any", entry.get("type", "any"), entry.get("catalogueId", ""),
                     *entry.get("entryId", "").split("::")}
            return bool(child_id) and child_id in names or any(
                c.get("entryId") == child_id for c in children(entry, "categories", "category"))
        return child_id in ("any", entry.get("id", ""), entry.get("type", "any")) or any(
            link.get("targetId") == child_id for link in children(entry, "categoryLinks", "categoryLink"))

    def below(self, direct: bool) -> Iterator[tuple[Node, int]]:
        """Yield each selection under this one with how many of it there are in this one."""
        for kid in self.kids:
            if local_name(kid.entry.tag) == "force":  # a roster's forces hold its selections: counted through them
                yield from kid.below(direct)
                continue
            yield kid, kid.number
            if not direct:
                yield from ((n, kid.number * k if kid.each else k) for n, k in kid.below(False))


Verdict = tuple[bool | None, str]
#: Prices one of a roster's selections (its points with all chosen under it), or says why it cannot.
Pricer = Callable[[Node], "float | str"]


def decide(holders: tuple[Element, ...], node: Node | None, index: Mapping[str, Element]) -> Verdict:
    """Decide the conditions on a modifier and the groups around it (all must hold); None with the reason when the
    unit as it comes does not settle them."""
    if node is None:
        return None, "a roster has the profile as chosen"
    verdicts: list[Verdict] = []
    for el in holders:
        verdicts += [_condition(c, node, index) for c in children(el, "conditions", "condition")]
        verdicts += [_group(g, node, index) for g in children(el, "conditionGroups", "conditionGroup")]
    return _all(verdicts)


def repeated(holders: tuple[Element, ...], node: Node | None, index: Mapping[str, Element]) -> tuple[int | None, str]:
    """Return how many times a modifier applies: 1 without ``<repeats>``, else each repeat's ``repeats`` for every
    ``value`` of its count (rounded down, or up with ``roundUp``), the counts multiplied through its groups; None with
    the reason when a count is not known (in the force, or a percentage)."""
    times = 1
    for el in holders:
        for repeat in children(el, "repeats", "repeat"):
            if node is None:
                return None, "a roster has the profile as chosen"
            bounds = _bounds(repeat, node, index)
            if isinstance(bounds, str):
                return None, bounds
            low, high = bounds
            try:
                per, each = float(repeat.get("value", "")), int(float(repeat.get("repeats", "1")))
            except (ValueError, OverflowError):
                return None, f"its value {repeat.get('value', '')!r} is not a count"
            if low != high:
                return None, BEYOND
            if per <= 0 or not math.isfinite(per):
                return None, f"its value {repeat.get('value', '')!r} is not a count"
            steps = low / per
            times *= each * int(math.ceil(steps) if repeat.get("roundUp", "false") == "true" else math.floor(steps))
    return times, ""


def _all(verdicts: list[Verdict]) -> Verdict:
    if any(v is False for v, _ in verdicts):
        return False, ""
    return next(((None, why) for v, why in verdicts if v is None), (True, ""))


def _any(verdicts: list[Verdict]) -> Verdict:
    if any(v is True for v, _ in verdicts):
        return True, ""
    return next(((None, why) for v, why in verdicts if v is None), (False, ""))


def _group(group: Element, node: Node, index: Mapping[str, Element]) -> Verdict:
    verdicts = [_condition(c, node, index) for c in children(group, "conditions", "condition")]
    verdicts += [_group(g, node, index) for g in children(group, "conditionGroups", "conditionGroup")]
    return _any(verdicts) if group.get("type", "and") == "or" else _all(verdicts)


def _scoped(node: Node, scope: str) -> Node | str:
    """Return the selection a condition's scope names, or why it is not one of the unit's.  In a roster (its
    selections read as nodes up to the ``roster``: ``battlescribe_pricing``) the force and the roster are nodes
    too, whose every selection the file holds: a count in them is exact."""
    if scope == "self":
        return node
    if scope == "parent":
        return node.parent if node.parent is not None else "force"
    if scope in ("force", "roster"):
        at: Node | None = node
        while at is not None and local_name(at.entry.tag) != scope:
            at = at.parent
        return at if at is not None else scope
    at = node
    while at is not None:
        if at.entry.get("id") == scope:
            return at
        at = at.parent
    return f"its scope {scope!r} is not a selection of the unit"


def _condition(c: Element, node: Node, index: Mapping[str, Element]) -> Verdict:
    kind, child = c.get("type", ""), c.get("childId", "")
    if kind in ("instanceOf", "notInstanceOf"):
        where = _scoped(node, c.get("scope", ""))
        if not isinstance(where, Node):
            return None, BEYOND if where in ("force", "roster") else where
        return where.matches(child) == (kind == "instanceOf"), ""
    try:
        value = float(c.get("value", ""))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):  # 'nan' and 'inf' parse as floats: no count compares with them
        return None, f"its value {c.get('value', '')!r} is not a number"
    bounds = _bounds(c, node, index)
    if isinstance(bounds, str):
        return None, bounds
    verdict = _compare(kind, value, *bounds)
    return verdict if verdict[0] is not None or verdict[1] else (None, BEYOND)


def _bounds(c: Element, node: Node, index: Mapping[str, Element]) -> tuple[float, float] | str:
    """Return the least and most a condition's (or repeat's) count can be, or why it is not known: selections, exact
    in the unit, at least the unit's own in the force or the roster; points (``field`` a points cost type), the
    roster's points limit (``limit::`` one), and a percentage (``percentValue``) only in a roster (session 43)."""
    field = c.get("field", "")
    cost = field.removeprefix("limit::")
    points, percent = field != "selections", c.get("percentValue", "false") == "true"
    if points and not is_points(cost, index):
        return f"it counts {_field_words(cost, index)}, not the unit's selections or points"
    root = node
    while root.parent is not None:
        root = root.parent
    if (points or percent) and root.pricer is None:
        return ("a count of points or a percentage is decided on a roster's choices: a catalogue lists the unit "
                "alone, not the army around it")
    limit = _limit(root, cost) if field.startswith("limit::") else None
    if isinstance(limit, str) or (limit is not None and not percent):
        return limit if isinstance(limit, str) else (limit, limit)
    child = c.get("childId", "")
    direct = c.get("includeChildSelections", "false") != "true"
    where = _scoped(node, c.get("scope", ""))
    if not isinstance(where, Node):
        if where not in ("force", "roster"):
            return where
        count = (1 if root.matches(child) else 0) + sum(n for kid, n in root.below(direct) if kid.matches(child))
        return count, math.inf
    amount = _amount(where, child, direct, root.pricer if points else None)
    if not percent or isinstance(amount, str):
        return amount if isinstance(amount, str) else (amount, amount)
    whole = limit if limit is not None else _amount(where, "any", direct, root.pricer if points else None)
    if isinstance(whole, str):
        return whole
    if whole <= 0:
        return f"a percentage of {'points' if points else 'selections'} where there are none"
    share = 100 * amount / whole
    return share, share


def _amount(where: Node, child: str, direct: bool, pricer: Pricer | None) -> float | str:
    """Return how many selections of ``child`` are in ``where`` (``pricer`` None), or their points with all that
    was chosen under each (a match's own matches not counted twice); or why the points are not known."""
    if pricer is None:
        return sum(n for kid, n in where.below(direct) if kid.matches(child))
    total = 0.0
    for kid in where.kids:
        if kid.matches(child) and local_name(kid.entry.tag) != "force":
            price = pricer(kid)
        elif local_name(kid.entry.tag) == "force" or not direct:
            price = _amount(kid, child, direct, pricer)
        else:
            continue
        if isinstance(price, str):
            return price
        total += price
    return total


def _limit(root: Node, cost: str) -> float | str:
    """Return the points limit the roster sets (its ``costLimit`` of that type), or why there is none."""
    for limit in children(root.entry, "costLimits", "costLimit"):
        if limit.get("typeId", "") == cost:
            try:
                value = float(limit.get("value", ""))
            except ValueError:
                value = math.nan
            if math.isfinite(value) and value >= 0:
                return value
            return f"the roster's points limit {limit.get('value', '')!r} is none (BattleScribe writes -1 for none)"
    return "the roster sets no points limit"


def _compare(kind: str, value: float, low: float, high: float) -> Verdict:
    """Compare a count known to lie in [low, high] with a condition's value."""
    tests = {"atLeast": (low >= value, high < value), "greaterThan": (low > value, high <= value),
             "atMost": (high <= value, low > value), "lessThan": (high < value, low >= value),
             "equalTo": (low == high == value, value < low or value > high),
             "notEqualTo": (value < low or value > high, low == high == value)}
    if kind not in tests:
        return None, f"a condition of type {kind!r} is not worked out"
    holds, fails = tests[kind]
    return (True, "") if holds else (False, "") if fails else (None, "")


def _field_words(ident: str, index: Mapping[str, Element]) -> str:
    target = index.get(ident)
    if target is not None and local_name(target.tag) == "costType":
        return f"points ({target.get('name', ident)})"
    return {"forces": "forces"}.get(ident, repr(target.get("name", ident) if target is not None else ident))
