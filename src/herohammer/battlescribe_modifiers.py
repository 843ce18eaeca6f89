"""A catalogue's modifiers of a profile's characteristics, applied where they hold whatever the player chooses.

A catalogue changes a profile through modifiers on the profile or on the ``infoLink`` that brings it into an entry:
3rd edition's Orks set a Nob's save to 4+ through the link, the Tyranids set a Warrior's to 4+ when Extended
Carapace is chosen.  A roster needs none of this: BattleScribe writes each profile as the player's choices made it.
A catalogue lists each unit as it comes, so a modifier without a condition is applied (the unit always has it), and
one with a condition is applied when the unit as it comes meets it (``battlescribe_conditions``: an option it comes
with, its own category; session 41); one the unit does not settle (the force's or roster's make-up, a percentage)
is said in a note naming the profile, the change, its condition and why, never read into the profile unsaid
(session 40; before, every modifier was ignored).  A catalogue entry's cost is modified alike (``modified_cost``),
and a repeat (once for each N of a selection) counted where the unit settles the count.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from xml.etree.ElementTree import Element

from .battlescribe_conditions import Node, decide, repeated
from .battlescribe_xml import children, local_name

#: The modifiers that change a characteristic's text (others, on a characteristic, are refused in a note).
KINDS = ("set", "increment", "decrement", "append")
_OPS = {"equalTo": "is", "notEqualTo": "is not", "atLeast": "is at least", "atMost": "is at most",
        "greaterThan": "is more than", "lessThan": "is less than", "instanceOf": "is in", "notInstanceOf": "is not in"}
_SCOPES = {"parent": "its selection", "self": "it", "force": "the force", "roster": "the roster",
           "primary-category": "its category", "primary-catalogue": "its catalogue", "ancestor": "its ancestors"}


def _conditional(el: Element) -> bool:
    """Say whether a modifier or modifier group holds only under conditions (or repeats, which count selections)."""
    return any(True for part in ("conditions", "conditionGroups", "repeats") for _ in children(el, part))


#: How deep modifier groups are followed (real data nests one or two; a hostile file thousands).
MAX_GROUPS = 12


_Guarded = tuple[Element, ...]


def _modifiers(holder: Element, guarded: _Guarded = ()) -> Iterator[tuple[Element | None, _Guarded]]:
    """Yield each modifier of an element with the modifier groups around it (a group's conditions guard them all);
    None for groups nested past ``MAX_GROUPS``, which are not read."""
    for modifier in children(holder, "modifiers", "modifier"):
        yield modifier, guarded
    for group in children(holder, "modifierGroups", "modifierGroup"):
        if len(guarded) >= MAX_GROUPS:
            yield None, guarded
            return
        yield from _modifiers(group, (*guarded, group))


def _name_of(ident: str, index: Mapping[str, Element]) -> str:
    target = index.get(ident)
    return str(target.get("name", "")) if target is not None else ident


def describe(condition: Element, index: Mapping[str, Element]) -> str:
    """Say a condition in words: 'the number of Extended Carapace in its selection is 1'."""
    field = condition.get("field", "")
    what = "the number" if field == "selections" else (
        "the forces" if field == "forces" else f"the {_name_of(field, index)}")
    if field.startswith("limit::"):
        what = f"the roster's limit of {_name_of(field.removeprefix('limit::'), index)}"
    child = condition.get("childId", "")
    of = f" of {_name_of(child, index)!r}" if child and child != "any" else ""
    scope = condition.get("scope", "")
    where = _SCOPES.get(scope) or (repr(_name_of(scope, index)) if scope else "")
    op = _OPS.get(condition.get("type", ""), condition.get("type", ""))
    if condition.get("type", "") in ("instanceOf", "notInstanceOf"):
        return f"{where or 'it'} {op} {_name_of(child, index)!r}"
    value = condition.get("value", "")
    value = re.sub(r"\.0$", "", value) + ("%" if condition.get("percentValue", "false") == "true" else "")
    return f"{what}{of} in {where or 'scope'} {op} {value}"


def _conditions_words(modifier: Element, guarded: tuple[Element, ...], index: Mapping[str, Element]) -> str:
    words = []
    for el in (*guarded, modifier):
        words += [describe(c, index) for c in children(el, "conditions", "condition")]
        for group in children(el, "conditionGroups", "conditionGroup"):
            inner = [describe(c, index) for c in group.iter() if local_name(c.tag) == "condition"]
            words.append("(" + f" {group.get('type', 'and')} ".join(inner) + ")")
    return " and ".join(words) or "a condition"


_Arithmetic = Callable[[str, str, str, int], str | None]


def _changed(current: str, kind: str, value: str, times: int = 1) -> str | None:
    """Return a characteristic's text after a modifier applied ``times`` over (a repeat), or None when it cannot be
    worked out (a non-number)."""
    if times == 0:
        return current
    if kind == "set":
        return value
    if kind == "append":
        return f"{current} {value}".strip()
    number = re.fullmatch(r"(\d+)(\+?)", current.strip())
    bracket = re.fullmatch(r"(\d+)\s*\((\d+)\)", current.strip())  # a bike's T 4(5): both values change
    step = re.fullmatch(r"-?\d+(\.0+)?", value.strip())
    if (number is None and bracket is None) or step is None:
        return None
    delta = int(float(value)) * times * (1 if kind == "increment" else -1)
    if bracket is not None:
        return f"{max(0, int(bracket.group(1)) + delta)}({max(0, int(bracket.group(2)) + delta)})"
    return f"{max(0, int(number.group(1)) + delta)}{number.group(2)}" if number is not None else None


def _cost_changed(current: str, kind: str, value: str, times: int = 1) -> str | None:
    """Return a cost's value after a modifier applied ``times`` over, or None when either is not a number."""
    try:
        now, step = float(current), float(value)
    except ValueError:
        return None
    if not (math.isfinite(now) and math.isfinite(step)) or kind == "append":
        return None
    after = now if times == 0 else step if kind == "set" else now + step * times * (1 if kind == "increment" else -1)
    return repr(float(after))


def _applied(current: str, modifier: Element, guarded: _Guarded, scope: Node | None, index: Mapping[str, Element],
             change: str, arithmetic: _Arithmetic) -> tuple[str, str]:
    """Return a value after one modifier where it holds (``scope``: the selection its conditions are read from, None
    in a roster), and a note when it is not applied: its condition or repeat not settled, or a value not worked
    out; a modifier whose condition the unit as it comes does not meet changes nothing, unsaid."""
    held = (*guarded, modifier)
    if any(_conditional(el) for el in held):
        holds, why = decide(held, scope, index)
        if holds is False:
            return current, ""
        if holds is None:
            return current, f"{change} when {_conditions_words(modifier, guarded, index)}: not applied ({why})"
    times, why = repeated(held, scope, index)
    if times is None:
        return current, f"{change} repeated by a count of selections: not applied ({why})"
    after = arithmetic(current, modifier.get("type", ""), modifier.get("value", ""), times) if modifier.get(
        "type", "") in KINDS else None
    if after is None:
        return current, f"{change} on {current!r} cannot be worked out: not applied"
    return after, ""


def _words(name: str, modifier: Element) -> str:
    kind, value = modifier.get("type", ""), modifier.get("value", "")
    return f"{name} set to {value!r}" if kind == "set" else f"{name} {kind} {value!r}"


def modified_cost(entry: Element, cost: Element, node: Node | None,
                  index: Mapping[str, Element]) -> tuple[str, list[str]]:
    """Return a catalogue entry's cost with its own modifiers of that cost applied where they hold for the unit as it
    comes (``node``: the entry's; a repeat counted, a condition decided), and a note for each not applied."""
    value, notes = cost.get("value", "").strip(), []
    words = f"{entry.get('name', '?').strip()}'s cost"
    for modifier, guarded in _modifiers(entry):
        if modifier is None:
            notes.append(f"{words}: modifier groups nested more than {MAX_GROUPS} deep: not read")
        elif modifier.get("field", "") == cost.get("typeId", "") != "":
            value, note = _applied(value, modifier, guarded, node, index, _words(words, modifier), _cost_changed)
            notes += [note] if note else []
    return value, notes


def modified(profile: Element, holders: Iterable[Element], chars: tuple[tuple[str, str], ...],
             index: Mapping[str, Element], node: Node | None = None) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """Return a profile's characteristics with the modifiers of ``holders`` (the profile, the link to it) that hold
    applied, and a note for each one not applied: under a condition the unit as it comes (``node``, the entry
    holding the profile; None in a roster) does not settle, or not one that can be worked out.

    A condition of a profile's modifier is scoped from the profile: its ``parent`` is the entry holding the profile
    (3rd edition's Carnifex sets its save to 2+ through its link when 'Extended Carapace' is in the parent, an option
    of the Carnifex's own).

    A modifier's ``field`` names a characteristic by its type's id (the profile's ``typeId`` on each characteristic,
    or the game system's ``characteristicType``)."""
    by_type = {c.get("typeId", ""): c.get("name", "").strip()
               for c in children(profile, "characteristics", "characteristic") if c.get("typeId")}
    values = dict(chars)
    notes: list[str] = []
    pname = profile.get("name", "").strip()
    for holder in holders:
        for modifier, guarded in _modifiers(holder):
            if modifier is None:
                notes.append(f"profile {pname!r}: modifier groups nested more than {MAX_GROUPS} deep: not read")
                continue
            field = modifier.get("field", "")
            name = by_type.get(field) or _characteristic_name(field, index)
            if name is None or name not in values:
                continue  # a modifier of something else (hidden, name, a cost): not a characteristic
            values[name], note = _applied(values[name], modifier, guarded, Node(profile, 1, node) if node else None,
                                          index, _words(name, modifier), _changed)
            notes += [f"profile {pname!r}: {note}"] if note else []
    return tuple((k, values[k]) for k, _ in chars), notes


def _characteristic_name(field: str, index: Mapping[str, Element]) -> str | None:
    target = index.get(field)
    if target is not None and local_name(target.tag) == "characteristicType":
        return str(target.get("name", "")).strip()
    return None
