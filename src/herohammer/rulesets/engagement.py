"""Who touches whom in one 40k close combat, measured once on the state the fight starts from.

While blows are struck no model moves - models only leave the fight, slain at the end of
an Initiative step - so every step reads base contact from one table of the combat's
models instead of measuring bases again, keeping the models still standing (each told
by its place and base, all that contact depends on).  Ruling on a fight and resolving
it share one (``state.remember``), and an exact enumeration walks every step from it.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from itertools import repeat
from operator import attrgetter, itemgetter, lt

from .. import geometry as geo
from ..errors import HerohammerError
from ..state import GameState
from ..units import Model, Unit

ModelRef = tuple[str, int]  # (unit id, model index)


def touching(a: Unit, b: Unit) -> bool:
    """Say whether any model of ``a`` is in base contact with any model of ``b``."""
    return geo.groups_touch(a.placed, b.placed)


class Engagement:
    """One close combat: its units, and each model's enemy models in base contact as the fight starts.

    ``units`` are the unit asked about and every unit linked to it by base contact with an
    enemy or by joining, found breadth first (each round in the state's order of units).
    """

    __slots__ = ("units", "levels", "fixed", "_start", "_touches", "_near", "_soles")

    def __init__(self, state: GameState, unit_id: str, striking: Callable[[Model], int] | None = None) -> None:
        """``striking``: the Initiative a model strikes at (its profile's unless a weapon fixes it, a power fist)."""
        first = state.unit(unit_id)
        # every unit that may be in the combat (on the table, or the one asked about), measured in one pass per pair
        # of sides: touches[(unit id, model index)] lists the enemy models it touches (only models that touch any),
        # near[unit id] their units; a side's models are one flat list, refs[k] naming the k-th
        by_side: dict[str, tuple[list[ModelRef], list[geo.Placed]]] = {}
        for u in state.units:
            if u.models and (u.embarked_in is None or u is first):
                refs, placed = by_side.setdefault(u.side, ([], []))
                refs += zip(repeat(u.id), range(len(u.models)))
                placed += u.placed
        groups = list(by_side.values())
        touches: dict[ModelRef, list[ModelRef]] = {}
        near: dict[str, set[str]] = {}
        for k, (refs, placed) in enumerate(groups):
            for other_refs, other_placed in groups[k + 1:]:
                pairs = geo.contact_pairs(placed, other_placed)
                for a, b in pairs:
                    mine, theirs = refs[a], other_refs[b]
                    touches.setdefault(mine, []).append(theirs)
                    touches.setdefault(theirs, []).append(mine)
                for uid, eid in set(zip(map(_UNIT_OF, map(refs.__getitem__, map(_FIRST, pairs))),
                                        map(_UNIT_OF, map(other_refs.__getitem__, map(_SECOND, pairs))))):
                    near.setdefault(uid, set()).add(eid)
                    near.setdefault(eid, set()).add(uid)
        seen = [unit_id]
        at = 0
        while at < len(seen):  # plain loops: a comprehension per round would cost a call each
            u = state.unit(seen[at])
            at += 1
            linked = near.get(u.id, ())
            for x in state.units:
                if x.id not in seen and x.on_table and (x.joined == u.id or u.joined == x.id or x.id in linked):
                    seen.append(x.id)
        self.units: tuple[str, ...] = tuple(seen)
        #: Each unit's models as the fight starts (a later step's models are some of them, in order).
        self._start: dict[str, tuple[Model, ...]] = {uid: state.unit(uid).models for uid in seen}
        #: The Initiative values of each unit's models (models only leave a fight: no other value strikes later).
        self.levels: dict[str, frozenset[int]] = {}
        #: The units with a model whose weapon fixes the Initiative it strikes at (the others strike at their own).
        self.fixed: frozenset[str] = frozenset()
        fixed = []
        for uid, models in self._start.items():
            own = list(map(_INITIATIVE, models))
            struck = own if striking is None else list(map(striking, models))
            self.levels[uid] = frozenset(struck)
            if struck != own:
                fixed.append(uid)
        if fixed:
            self.fixed = frozenset(fixed)
        self._touches = touches
        self._near = near
        self._soles: dict[str, tuple[str | None, ...]] = {}  # ``start_soles`` by unit, as asked

    def start_models(self, unit_id: str) -> tuple[Model, ...] | None:
        """Return a unit's models as the fight starts (None for a unit not in it)."""
        return self._start.get(unit_id)

    def start_soles(self, unit_id: str) -> tuple[str | None, ...]:
        """Return, per start model of a unit, the one enemy unit whose models it touches as the fight starts.

        None for a model touching none, or models of several units.  Worked out once per unit (every Initiative
        step of every fight from the state asks).
        """
        soles = self._soles.get(unit_id)
        if soles is not None:
            return soles
        found = list(map(self._touches.get, zip(repeat(unit_id), range(len(self._start[unit_id]))), repeat(())))
        if set(map(len, found)) == {1}:  # each model touches one enemy model (the usual battle line): read in C
            soles = tuple(map(_UNIT_OF, map(_FIRST, found)))
        else:
            soles = tuple([None if not refs else refs[0][0] if all(r[0] == refs[0][0] for r in refs) else None
                           for refs in found])
        self._soles[unit_id] = soles
        return soles

    def touched_units(self, unit_id: str) -> set[str]:
        """Return the enemy units whose models a unit's models touch as the fight starts."""
        return set(self._near.get(unit_id, ()))

    def now(self, units: Sequence[Unit]) -> Contacts:
        """Return who touches whom among ``units``: the combat's units at a later step of the fight."""
        return Contacts(self, units)


class Contacts:
    """Base contact at one step of a fight: the start table, read for the models still standing.

    Each unit's models are matched with its start models when first asked (most steps ask
    about a few units only).
    """

    __slots__ = ("_touches", "_start", "_units", "_start_of", "_index_of")

    def __init__(self, engagement: Engagement, units: Sequence[Unit]) -> None:
        self._touches = engagement._touches
        self._start = engagement._start
        self._units: dict[str, Unit] = {}
        for unit in units:
            if unit.id not in self._start:
                raise HerohammerError(f"{unit.id} was not in the close combat it fights")
            self._units[unit.id] = unit
        #: Per unit: each model's index at the start, and each start model's index now (-1: slain).
        self._start_of: dict[str, Sequence[int]] = {}
        self._index_of: dict[str, Sequence[int] | None] = {}

    def index_of(self, unit_id: str) -> Sequence[int] | None:
        """Return each start model's index now (-1: slain) for a unit of ``units``; None for any other unit."""
        known = self._index_of.get(unit_id, _UNASKED)
        if known is not _UNASKED:
            return known  # type: ignore[return-value]  # a sequence or None, never the marker
        unit = self._units.get(unit_id)
        if unit is None:
            self._index_of[unit_id] = None
            return None
        start = self._start[unit_id]
        models = unit.models
        if models is start or len(models) == len(start):  # none slain yet: the same models in the same places
            self._start_of[unit_id] = self._index_of[unit_id] = range(len(models))
            return self._index_of[unit_id]
        # the models still standing are mostly the very start models (a wounded one is a new value): matched by identity
        # (both tuples are alive here: no id is reused while this runs)
        found = list(map(dict(zip(map(id, start), range(len(start)))).get, map(id, models), repeat(-1)))
        if -1 not in found and all(map(lt, found, found[1:])):
            self._start_of[unit_id] = found
            index_of = self._index_of[unit_id] = list(map(dict(zip(found, range(len(found)))).get, range(len(start)),
                                                          repeat(-1)))
            return index_of
        start_of: list[int] = []
        index_of = [-1] * len(start)
        j = 0
        for i, m in enumerate(models):  # each model now is the next start model with its place and base
            while j < len(start) and not _same_place(start[j], m):
                j += 1
            if j == len(start):
                raise HerohammerError(f"{unit_id}: {m.name} was not in the close combat it fights")
            start_of.append(j)
            index_of[j] = i
            j += 1
        self._start_of[unit_id] = start_of
        self._index_of[unit_id] = index_of
        return index_of

    def _start_index(self, unit_id: str, i: int) -> int:
        start_of = self._start_of.get(unit_id)
        if start_of is None:
            self.index_of(unit_id)
            start_of = self._start_of[unit_id]
        return start_of[i]

    def sole_unit(self, unit_id: str, i: int) -> str | None:
        """Return the one enemy unit whose models (standing now) model ``i`` of a unit touches: None if none or several."""
        found: str | None = None
        index_of = self.index_of
        for eid, j in self._touches.get((unit_id, self._start_index(unit_id, i)), ()):
            now = index_of(eid)
            if now is not None and now[j] >= 0:
                if found is None:
                    found = eid
                elif found != eid:
                    return None
        return found

    def touches_enemy(self, unit_id: str, apart: Container[str] = ()) -> bool:
        """Say whether a model of a unit of ``units`` touches an enemy model (both standing now) of a unit not in
        ``apart``: ``of`` asked of each model, stopping at the first touch (a combat's result asks it of each unit)."""
        index_of = self.index_of
        mine = index_of(unit_id)
        if mine is None:
            return False
        touches = self._touches
        for start, now_at in enumerate(mine):
            if now_at < 0:
                continue
            for eid, j in touches.get((unit_id, start), ()):
                if eid not in apart and (now := index_of(eid)) is not None and now[j] >= 0:
                    return True
        return False

    def of(self, unit_id: str, i: int) -> list[ModelRef]:
        """Return the enemy models (as they stand now) touching model ``i`` of a unit."""
        index_of = self.index_of
        out: list[ModelRef] = []
        for eid, j in self._touches.get((unit_id, self._start_index(unit_id, i)), ()):
            now = index_of(eid)
            if now is not None and (k := now[j]) >= 0:
                out.append((eid, k))
        return out


_FIRST, _SECOND = itemgetter(0), itemgetter(1)
_UNIT_OF = itemgetter(0)  # a ModelRef's unit id
_INITIATIVE = attrgetter("profile.i")
_UNASKED: object = object()


def _same_place(a: Model, b: Model) -> bool:
    return a.at == b.at and (a.base is b.base or a.base == b.base)
