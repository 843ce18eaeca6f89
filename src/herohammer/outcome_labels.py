"""The words for outcomes, in one place: ``odds action``, ``simulate`` and ``play`` label what happened alike.

A unit's losses read ``tactical: models lost = 2``; a status it ends with reads
``boyz: falling_back``; an event reads as its kind (``perils``), a flag it raised
(``psychic_test.passed``) or a named result (``charge.outcome: slain``); an event that says what
became of one unit reads as that unit's outcome (``warriors: down to its last model``).
"""

from __future__ import annotations

from .rulings import Event

#: Event kinds that are bookkeeping or commentary, not outcomes.
QUIET_EVENTS = frozenset({"phase", "turn", "note"})
#: Text fields of an event's data that name a result (one label per value, e.g. ``charge.outcome: slain``).
EVENT_TEXT_FIELDS = frozenset({"outcome", "result"})
#: Words for ``last_man``: a unit left with one model that takes no test for it (a character never does; 4th edition
#: has no Last Man Standing test, published.last-man-standing); the name of a test would read as one taken.
LAST_MODEL = "down to its last model"
#: Event kinds that say what became of one unit (named by the event's ``unit``), and the words for it.
#: ``beyond_reach``: wounds lost because the models the weapons fired reach could not take them, the rest of the unit
#: standing beyond their range or line of fire (published.wound-allocation); ``not_carried_over``: the unit's unsaved
#: wounds its models could not take in close combat while a character who joined it could (40k4.cc.no-carry-over).
UNIT_EVENTS = {"last_man": LAST_MODEL, "beyond_reach": "wounds lost beyond the weapons' reach",
               "not_carried_over": "wounds lost with no carry-over onto its characters"}


def models_lost(unit: str) -> str:
    """Name the count of a unit's models removed."""
    return f"{unit}: models lost"


def wounds_lost(unit: str) -> str:
    """Name the count of a unit's wounds lost."""
    return f"{unit}: wounds lost"


def destroyed(unit: str) -> str:
    """Name a unit's destruction."""
    return f"{unit}: destroyed"


def joined(unit: str) -> str:
    """Name the unit a character is with."""
    return f"{unit}: joined"


def status(unit: str, value: str) -> str:
    """Name a status a unit has (``falling_back``, ``shaken`` ...)."""
    return f"{unit}: {value}"


def with_value(label: str, value: object) -> str:
    """Write an outcome with its value: ``tactical: models lost = 2``."""
    return f"{label} = {value}"


def event_labels(event: Event) -> list[str]:
    """Name what an event says happened: its kind, each flag it raised, each named result (none if quiet)."""
    if event.kind in QUIET_EVENTS:
        return []
    if event.kind in UNIT_EVENTS:
        data = dict(event.data)
        if "onto" in data:  # a joined character's wounds kept off his unit (40k4.cc.no-carry-over, "and vice versa")
            return [f"{data['unit']}: wounds lost with no carry-over onto {data['onto']}"]
        return [f"{data['unit']}: {UNIT_EVENTS[event.kind]}"]
    out = [event.kind]
    for name, value in event.data:
        if value is True:
            out.append(f"{event.kind}.{name}")
        elif isinstance(value, str) and name in EVENT_TEXT_FIELDS:
            out.append(f"{event.kind}.{name}: {value}")
    return out
