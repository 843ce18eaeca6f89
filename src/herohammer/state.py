"""The game state: one immutable value holding the table, the units and the turn.

Phases are data (``PhaseSpec``: which actions each allows, what follows it), declared
by each ruleset.  Because the state is immutable, a snapshot for ``undo`` or a branch
for exact odds is the value itself: nothing is deep-copied.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar

from .errors import IllegalActionError
from .geometry import Terrain
from .units import Unit
from .values import HashOnce, cached, evolve

if TYPE_CHECKING:
    from .powers import Power
    from .weapons import Weapon

_ID = attrgetter("id")


class Phase(StrEnum):
    """Name a phase of a player turn (40k: movement, shooting, assault; t9a adds charge, magic, melee).

    ``deployment`` comes once, before the first turn (t9a: characters placed in units).
    """

    DEPLOYMENT = "deployment"
    CHARGE = "charge"
    MOVEMENT = "movement"
    MAGIC = "magic"
    SHOOTING = "shooting"
    ASSAULT = "assault"
    MELEE = "melee"


@dataclass(frozen=True)
class PhaseSpec:
    """Declare a phase: the actions it allows."""

    phase: Phase
    actions: frozenset[str]


@dataclass(frozen=True)
class Table:
    """The table's size in inches."""

    width: float
    depth: float


@dataclass(frozen=True)
class MagicDice(HashOnce):
    """The 9th Age Magic Dice: each side's dice per Magic phase, those used this phase, the spells cast.

    Hashed once per value: every new state's hash reads it."""

    __hash__ = HashOnce.__hash__  # kept by dataclass: hashed once per value
    __eq__ = HashOnce.__eq__  # kept by dataclass: its fields taken in C

    per_phase: tuple[tuple[str, int], ...] = ()
    used: tuple[tuple[str, int], ...] = ()
    cast: tuple[str, ...] = ()  # "unit/spell" already cast this Magic phase
    #: "unit/spell" the Caster cannot cast any more this game (a Miscast's Amnesia, published.t9a-miscast)
    forgotten: tuple[str, ...] = ()

    def left(self, side: str) -> int:
        """Return the Magic Dice a side has left this phase."""
        return dict(self.per_phase).get(side, 0) - dict(self.used).get(side, 0)

    def spend(self, side: str, n: int) -> MagicDice:
        """Return the pools with ``n`` more dice of ``side`` used."""
        used = dict(self.used)
        used[side] = used.get(side, 0) + n
        return MagicDice(self.per_phase, tuple(sorted((k, v) for k, v in used.items() if v)), self.cast,
                         self.forgotten)

    def refund(self, side: str, n: int) -> MagicDice:
        """Return the pools with ``n`` dice of ``side`` given back (a Fizzle's natural 1s, published.t9a-magic)."""
        return self.spend(side, -n) if n else self


@dataclass(frozen=True)
class GameState(HashOnce):
    """Everything about a game at one moment: enough to save, load and continue it.

    Hashed once per value (exact odds merge branches by state); a change builds a new
    state sharing every unit it does not touch.  The hash reads the fields a game changes
    (``hashed_fields``): the ruleset, sides, table, terrain, the agreement on special
    characters and the scenario's weapons and powers are fixed for a game, and hashing
    every weapon's profile again for each new state a fight or a volley builds cost a
    third of that state's hash.  States that differ only in those still compare unequal.
    """

    __hash__ = HashOnce.__hash__  # kept by dataclass: hashed once per value
    __eq__ = HashOnce.__eq__  # kept by dataclass: its fields taken in C
    hashed_fields: ClassVar[tuple[str, ...]] = ("turn", "phase", "active", "units", "allocations", "magic", "fired_at",
                                                "joined_when_shot", "shot_this_phase", "duels")

    ruleset: str
    turn: int
    phase: Phase
    active: str
    sides: tuple[str, ...]
    table: Table
    terrain: tuple[Terrain, ...]
    units: tuple[Unit, ...]
    special_characters_agreed: bool = False
    #: The scenario's own weapon profiles and psychic powers (the bundled ones are always known).
    weapons: tuple[Weapon, ...] = ()
    powers: tuple[Power, ...] = ()
    #: Characters' declared splits of close combat attacks (40k3.char.attack-allocation), until they fight.
    allocations: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    #: t9a: Magic Dice per Magic phase and their use this phase.
    magic: MagicDice = MagicDice()
    #: This turn's shooting targets, by the unit that fired (its characters fire at the same one).
    fired_at: tuple[tuple[str, str], ...] = ()
    #: 40k: the characters joined to each unit shot at this turn when it was shot at, each (character, unit): a
    #: character its destruction then left alone is what is left of the unit shot at (published.assault-after-shooting)
    joined_when_shot: tuple[tuple[str, str], ...] = ()
    #: 40k4: the units shot at this Shooting phase, in the order first shot, each with the models it (with its
    #: joined characters) had then: its Morale check for casualties is taken when the phase ends
    #: (published.morale-casualties, 4th ed. "during a single Shooting phase ... at the end of the Shooting phase").
    shot_this_phase: tuple[tuple[str, int], ...] = ()
    #: t9a: the Duels still being fought, each the two duellists (issuer, accepter): a Duel both survive goes on
    #: into the combat's next round, and no other is issued in that combat meanwhile (published.t9a-duel).
    duels: tuple[tuple[str, str], ...] = ()

    def target_fired_at(self, unit_id: str) -> str | None:
        """Return the unit a unit (with its characters) fired at this turn, if it has fired."""
        return next((t for u, t in self.fired_at if u == unit_id), None)

    def was_joined_when_shot(self, character_id: str, unit_id: str) -> bool:
        """Say whether a character was joined to a unit when that unit was shot at this turn."""
        return (character_id, unit_id) in self.joined_when_shot

    # -- lookups ------------------------------------------------------------------
    def _look_up(self) -> dict[str, Unit]:
        """Index the units by id (the first unit of an id, as a scan would find) and the living joined characters by
        the unit they joined (in unit order), in one pass once per state value; return the first index."""
        by_id: dict[str, Unit] = {}
        characters: dict[str, tuple[Unit, ...]] = {}
        for u in self.units:
            if u.id not in by_id:
                by_id[u.id] = u
            if u.joined is not None and u.models:
                characters[u.joined] = (*characters.get(u.joined, ()), u)
        kept = self.__dict__
        kept["_by_id"], kept["_characters_of"] = by_id, characters
        kept.setdefault("_groups", {})  # what ``combined`` finds, filled as asked
        return by_id

    _by_id = cached(_look_up)

    @cached
    def _characters_of(self) -> dict[str, tuple[Unit, ...]]:
        """The living joined characters by the unit they joined (``_look_up``)."""
        self._look_up()
        characters: dict[str, tuple[Unit, ...]] = self.__dict__["_characters_of"]
        return characters

    def unit(self, unit_id: str) -> Unit:
        """Return a unit by id, or refuse with a clear message."""
        found = self._by_id.get(unit_id)
        if found is None:
            raise IllegalActionError(f"no unit with id {unit_id!r} in this scenario")
        return found

    def has_unit(self, unit_id: str) -> bool:
        """Say whether a unit id exists."""
        return unit_id in self._by_id

    def side_units(self, side: str) -> list[Unit]:
        """Return the living units of one side on the table (not those riding in transports)."""
        return [u for u in self.units if u.side == side and u.on_table]

    def enemies_of(self, side: str) -> list[Unit]:
        """Return the living units of every other side on the table (not those riding in transports)."""
        return [u for u in self.units if u.side != side and u.on_table]

    def aboard(self, transport_id: str) -> list[Unit]:
        """Return the units riding in a transport."""
        return [u for u in self.units if u.embarked_in == transport_id and u.alive]

    def opponent(self, side: str) -> str:
        """Return the next side after ``side`` in turn order."""
        i = self.sides.index(side)
        return self.sides[(i + 1) % len(self.sides)]

    def joined_to(self, host_id: str) -> list[Unit]:
        """Return the living characters that have joined a unit."""
        return list(self._characters_of.get(host_id, ()))

    @cached
    def _groups(self) -> dict[str, tuple[Unit, ...]]:
        """What ``combined`` found, by the unit id asked (filled as asked: rules ask it many times per step)."""
        self._by_id  # noqa: B018 - set up with the units' index, in one pass
        groups: dict[str, tuple[Unit, ...]] = self.__dict__.setdefault("_groups", {})
        return groups

    def combined(self, unit_id: str) -> list[Unit]:
        """Return a unit and every character that has joined it (the host first)."""
        group = self._groups.get(unit_id)
        if group is None:
            unit = self.unit(unit_id)
            host = self.unit(unit.joined) if unit.joined else unit
            group = self._groups[unit_id] = (host, *self._characters_of.get(host.id, ()))
        return list(group)

    def iter_units(self) -> Iterator[Unit]:
        """Iterate over every unit, dead ones included (for saving)."""
        return iter(self.units)

    # -- changes (each returns a new state) -----------------------------------------
    def replace_unit(self, unit: Unit) -> GameState:
        """Return the state with one unit replaced by id."""
        uid = unit.id
        return evolve(self, units=tuple([unit if u.id == uid else u for u in self.units]))

    def replace_units(self, *units: Unit) -> GameState:
        """Return the state with several units replaced by id."""
        by_id = {u.id: u for u in units}
        return evolve(self, units=tuple(map(by_id.get, map(_ID, self.units), self.units)))  # in C
