"""Rank-and-file formations (The 9th Age): ranks and files, facing, front rank slots.

A formation is a grid of equal slots behind a front edge.  ``order`` lists the model
names slot by slot, rank by rank, each rank from left to right as the unit faces; slot
``k`` is rank ``k // files``, file ``k % files``.  Only the rearmost rank may be
incomplete, and its models stand from the left (project decision).  Every model of a
combined unit (its rank and file and the characters joined to it) has a slot, so a
model's place on the table is derived from the formation and never stored twice.

Facing follows ``geometry.Base``: 0 degrees faces +y, positive angles turn
counter-clockwise.  Slots are as wide and deep as the widest and deepest base among
the unit's models (project decision: characters on bigger bases are not offset).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from .catalogue import implements
from .errors import IllegalActionError
from .geometry import MM_PER_INCH, Placed, Point
from .values import cached, evolve

if TYPE_CHECKING:
    from .state import GameState
    from .units import Model, Unit

#: Model roles that stand in the front rank like characters (t9a.char.front-rank decision).
FRONT_RANK_ROLES = frozenset({"champion", "musician", "standard"})
#: The universal special rule that makes a model a character (t9a.char.universal).
CHARACTER_RULE = "Character"

RankChoice = Literal["widen", "second_rank"]
#: The published rule on which ranks shoot: normally the first and the second.
WHO_CAN_SHOOT = "published.t9a-who-can-shoot"
SHOOTING_RANKS = 2


@dataclass(frozen=True)
class Formation:
    """Place a unit on the table: front-edge centre, facing, width in files, slot order."""

    position: Point
    facing: float = 0.0
    files: int = 1
    order: tuple[str, ...] = ()
    slot_mm: tuple[float, float] = (20.0, 20.0)

    @property
    def ranks(self) -> int:
        """Count the ranks, the incomplete rear rank included."""
        return max(1, math.ceil(len(self.order) / self.files))

    @property
    def single_rank(self) -> bool:
        """Say whether the unit stands in one rank (t9a.join.single-rank)."""
        return len(self.order) <= self.files

    def rank_of(self, name: str) -> int:
        """Return the rank (0 = front) a model stands in."""
        return self.order.index(name) // self.files

    @property
    def centre(self) -> Point:
        """Return the centre of the unit's footprint (its ranks' middle): what a flee runs straight away from, and in
        (published.t9a-flee); ``position`` is the front edge's centre, which two units fighting front to front share."""
        half = self.ranks * self.slot_mm[1] / MM_PER_INCH / 2.0
        t = math.radians(self.facing)
        return (self.position[0] + math.sin(t) * half, self.position[1] - math.cos(t) * half)

    def front_rank(self) -> tuple[str, ...]:
        """Return the names in the first rank, left to right."""
        return self.order[: self.files]

    def slot_point(self, index: int) -> Point:
        """Return the table point (inches) at the centre of a slot."""
        w, d = self.slot_mm[0] / MM_PER_INCH, self.slot_mm[1] / MM_PER_INCH
        rank, file = divmod(index, self.files)
        x = (file - (self.files - 1) / 2.0) * w
        y = -(rank + 0.5) * d
        t = math.radians(self.facing)
        right = (math.cos(t), math.sin(t))
        forward = (-math.sin(t), math.cos(t))
        px = self.position[0] + right[0] * x + forward[0] * y
        py = self.position[1] + right[1] * x + forward[1] * y
        return (round(px, 9) + 0.0, round(py, 9) + 0.0)

    def _slot_run(self, start: int, stop: int) -> list[Point]:
        """Return the points of slots ``start`` to ``stop`` (``slot_point``'s arithmetic, its turn worked out once)."""
        w, d = self.slot_mm[0] / MM_PER_INCH, self.slot_mm[1] / MM_PER_INCH
        t = math.radians(self.facing)
        right = (math.cos(t), math.sin(t))
        forward = (-math.sin(t), math.cos(t))
        centre = (self.files - 1) / 2.0
        points: list[Point] = []
        for index in range(start, stop):
            rank, file = divmod(index, self.files)
            x = (file - centre) * w
            y = -(rank + 0.5) * d
            px = self.position[0] + right[0] * x + forward[0] * y
            py = self.position[1] + right[1] * x + forward[1] * y
            points.append((round(px, 9) + 0.0, round(py, 9) + 0.0))
        return points

    @cached
    def slot_grid(self) -> tuple[Point, ...]:
        """The point of every slot its models hold, in slot order, worked out once per formation value."""
        return tuple(self._slot_run(0, len(self.order)))

    @cached
    def slot_points(self) -> dict[str, Point]:
        """Every named model's slot point, worked out once per formation value (a join or a move asks each)."""
        points: dict[str, Point] = {}
        for name, point in zip(self.order, self.slot_grid):
            if name not in points:  # the first slot wins
                points[name] = point
        return points

    def reordered(self, order: tuple[str, ...], files: int | None = None) -> Formation:
        """Return the formation with a new order (and width): its slots are the same points while its front, facing,
        width and slot size stay, so those already worked out are handed over (joins and leaves reorder)."""
        new = evolve(self, order=order, files=self.files if files is None else files)
        known: tuple[Point, ...] | None = self.__dict__.get("slot_grid")
        if known is not None and new.files == self.files:
            n = len(order)
            new.__dict__["slot_grid"] = known[:n] + tuple(new._slot_run(len(known), n)) if n > len(known) else known[:n]
        return new

    def resized(self, slot_mm: tuple[float, float]) -> Formation:
        """Return the formation with a slot size: itself when the size is the same (what it worked out stays)."""
        return self if slot_mm == self.slot_mm else evolve(self, slot_mm=slot_mm)

    def point_of(self, name: str) -> Point:
        """Return the table point of a named model's slot."""
        point = self.slot_points.get(name)
        return point if point is not None else self.slot_point(self.order.index(name))  # raises for a stranger

    def front_corners(self) -> tuple[Point, Point]:
        """Return the left and right ends of the front edge, as the unit faces."""
        half = self.files * self.slot_mm[0] / MM_PER_INCH / 2.0
        t = math.radians(self.facing)
        rx, ry = math.cos(t), math.sin(t)
        x, y = self.position
        return (x - rx * half, y - ry * half), (x + rx * half, y + ry * half)

    def front_arc(self, reach: float = 200.0) -> list[Point]:
        """Return the Front Arc as a polygon: from the front corners outwards at 135 degrees to the front.

        The published 9th Age arcs: lines from the corners of the front at 135 degrees to
        it bound the Front Arc (a quarter turn wide, opening forwards).
        """
        left, right = self.front_corners()
        t = math.radians(self.facing)
        fx, fy = -math.sin(t), math.cos(t)
        rx, ry = math.cos(t), math.sin(t)
        return [left, right, (right[0] + (fx + rx) * reach, right[1] + (fy + ry) * reach),
                (left[0] + (fx - rx) * reach, left[1] + (fy - ry) * reach)]

    def arc_of(self, point: Point) -> str:
        """Return the Arc of the unit a point stands in: ``front``, ``left``, ``right`` or ``rear``.

        The published 9th Age arcs: lines from the four corners at 135 degrees to the front and rear edges part the
        table round a unit into its Front, Flank (left and right) and Rear Arcs.  A point inside the unit's own
        rectangle is given the Arc of the edge nearest to it.
        """
        t = math.radians(self.facing)
        dx, dy = point[0] - self.position[0], point[1] - self.position[1]
        x = dx * math.cos(t) + dy * math.sin(t)  # to the right of the front edge's centre
        y = -dx * math.sin(t) + dy * math.cos(t)  # forwards of the front edge
        half = self.files * self.slot_mm[0] / MM_PER_INCH / 2.0
        depth = self.ranks * self.slot_mm[1] / MM_PER_INCH
        if y >= 0 and y >= abs(x) - half:
            return "front"
        if y <= -depth and -depth - y >= abs(x) - half:
            return "rear"
        if abs(x) < half and -depth < y < 0:  # inside: the nearest edge
            edges = {"front": -y, "rear": y + depth, "right": half - x, "left": half + x}
            return min(edges, key=lambda k: edges[k])
        return "right" if x > 0 else "left"

    def rotated(self, facing: float, files: int) -> Formation:
        """Return the formation reformed about its centre: a new facing and width, the same order."""
        d = self.ranks * self.slot_mm[1] / MM_PER_INCH / 2.0
        t = math.radians(self.facing)
        cx, cy = self.position[0] + math.sin(t) * d, self.position[1] - math.cos(t) * d
        files = max(1, min(files, len(self.order)))
        ranks = max(1, math.ceil(len(self.order) / files))
        d2 = ranks * self.slot_mm[1] / MM_PER_INCH / 2.0
        t2 = math.radians(facing)
        return replace(self, position=(cx - math.sin(t2) * d2, cy + math.cos(t2) * d2), facing=facing, files=files)

    def wheeled(self, degrees: float) -> Formation:
        """Return the formation wheeled: turned about the front corner on the inside of the turn.

        Positive degrees turn left (counter-clockwise, as facings count) about the left
        front corner; negative turn right about the right one (published 9th Age Wheel).
        """
        left, right = self.front_corners()
        px, py = left if degrees > 0 else right
        t = math.radians(degrees)
        dx, dy = self.position[0] - px, self.position[1] - py
        at = (px + math.cos(t) * dx - math.sin(t) * dy, py + math.sin(t) * dx + math.cos(t) * dy)
        return replace(self, position=at, facing=(self.facing + degrees) % 360.0)

    def wheel_distance(self, degrees: float) -> float:
        """Return what a wheel costs of the move: the arc its outer front corner travels, in inches."""
        return self.files * self.slot_mm[0] / MM_PER_INCH * math.radians(abs(degrees))

    def moved_by(self, dx: float, dy: float) -> Formation:
        """Return the formation moved straight without turning."""
        return replace(self, position=(self.position[0] + dx, self.position[1] + dy))

    def to_data(self) -> dict[str, object]:
        """Write the formation as scenario data (``slot_mm`` is derived from the bases)."""
        out: dict[str, object] = {"position": [self.position[0], self.position[1]], "files": self.files,
                                  "order": list(self.order)}
        if self.facing:
            out["facing"] = self.facing
        return out


def slot_size(models: Sequence[Model]) -> tuple[float, float]:
    """Return the slot size in mm: the widest and deepest base of the unit."""
    return (max(m.base.width_mm for m in models), max(m.base.depth_mm for m in models))


@implements("t9a.char.universal")
def is_character(unit: Unit) -> bool:
    """Say whether a unit is a character: taken as one (``character:``) or given the Character rule."""
    return unit.character is not None or CHARACTER_RULE in unit.rules


@implements(WHO_CAN_SHOOT)
def too_far_back_to_shoot(formation: Formation | None) -> frozenset[str]:
    """Name the models behind the second rank: they shoot neither in the Shooting phase nor in a Stand and Shoot.

    Ranks come from the unit's slots, so a character joined to it shoots from his front-rank
    slot (t9a.char.front-rank).  What has no formation (a lone model, a unit held without
    ranks) shoots with every model.
    """
    if formation is None:
        return frozenset()
    cut = SHOOTING_RANKS * formation.files
    return frozenset(formation.order[cut:]) - frozenset(formation.order[:cut])


#: The published rule on where a model of a unit draws its line of sight from.
LINE_OF_SIGHT = "published.line-of-sight"


@implements(LINE_OF_SIGHT)
def sight_from(formation: Formation | None, model: Model) -> Placed:
    """Return the base a model of a unit draws its line of sight from.

    The 9th Age: "models in back ranks always draw Line of Sight as if they were in the front rank, in
    the same file they are in", so a model behind the first rank sees from its file's front slot, with its
    own base; a model in the first rank, or of a unit without ranks (a lone character), from where it stands.
    """
    if formation is None or model.name not in formation.slot_points:
        return model.placed
    index = formation.order.index(model.name)
    if index < formation.files:
        return model.placed
    return Placed(model.base, formation.slot_grid[index % formation.files], model.facing)


@implements("t9a.char.front-rank")
def has_front_rank(model: Model, is_character: bool) -> bool:
    """Say whether a model has Front Rank: every character does, and so do command models."""
    return is_character or model.role in FRONT_RANK_ROLES


@implements("t9a.char.front-rank")
def front_rank_problems(formation: Formation, front: Callable[[str], bool]) -> list[str]:
    """List the Front Rank models standing behind a rank that holds a model without Front Rank.

    A Front Rank model stands in the first rank; only when that rank holds Front Rank models alone may one stand
    further back, and then in the foremost rank it can: never behind a rank with a model without Front Rank in it.
    """
    files = max(1, formation.files)
    order = formation.order
    flags = list(map(front, order))  # each name asked once (a join asks it of every model of the unit)
    if all(flags):
        return []
    foremost = flags.index(False) // files  # the first slot without Front Rank is in the foremost such rank
    return [n for k, (n, ranked) in enumerate(zip(order, flags)) if ranked and k // files > foremost]


@implements("t9a.char.front-rank")
def front_ranked(formation: Formation, front: Callable[[str], bool]) -> Formation:
    """Return the formation with every Front Rank model as far forward as the decision asks (itself if so already).

    While a Front Rank model stands behind a rank holding a model without Front Rank, the foremost such Front Rank
    model changes places with the model without it in that rank nearest its file (the left one on a tie): a reform
    that narrows the unit, or a join that pushes a Front Rank model back, leaves no champion, standard, musician or
    character behind a rank and file model (t9a.char.front-rank, t9a.join.position's "other legal places").
    """
    if not front_rank_problems(formation, front):
        return formation
    order = list(formation.order)
    files = max(1, formation.files)
    while True:
        plain = [k for k, n in enumerate(order) if not front(n)]
        foremost = min(k // files for k in plain)
        behind = [k for k, n in enumerate(order) if front(n) and k // files > foremost]
        if not behind:
            return formation.reordered(tuple(order))
        j = behind[0]
        i = min((k for k in plain if k // files == foremost), key=lambda k: (abs(k % files - j % files), k % files))
        order[i], order[j] = order[j], order[i]


def _nearest_plain_front_slot(order: list[str], files: int, file: int, front: Callable[[str], bool]) -> int | None:
    slots = [i for i in range(min(files, len(order))) if i != file and not front(order[i])]
    return min(slots, key=lambda i: (abs(i - file), i)) if slots else None


def _push_back(order: list[str], files: int, column: int, carry: str) -> None:
    """Push ``carry`` into the slot behind ``column``'s front, each model there one rank back."""
    idx = column + files
    while idx < len(order):
        carry, order[idx] = order[idx], carry
        idx += files
    order.append(carry)


@implements("t9a.join.position", "t9a.join.single-rank", "t9a.join.unit-stops")
def _widened(formation: Formation, file: int, files: int) -> Formation:
    """Return the widened rank (``files`` before, the joiner in ``file``) with its models standing where they stood but
    those of the shorter side of his file (the left on a tie), each one slot outward: the join displaces only the
    models it must make room for (t9a.join.position) and the unit does not move (t9a.join.unit-stops). Re-centred, the
    rank slid every model half a slot, a lone Hero after his Failed Charge Move too (round 62)."""
    return _shifted(formation, formation.slot_mm[0] / MM_PER_INCH / 2.0 * (-1.0 if file <= files - file else 1.0))


def _shifted(formation: Formation, right: float) -> Formation:
    """Return the formation with its front's centre moved ``right`` inches along its front (its slots with it)."""
    t = math.radians(formation.facing)
    x, y = formation.position
    return evolve(formation, position=(round(x + math.cos(t) * right, 9) + 0.0,
                                       round(y + math.sin(t) * right, 9) + 0.0))


@implements("t9a.join.position", "t9a.join.single-rank")
def place_in_front_rank(
    formation: Formation, name: str, file: int, front: Callable[[str], bool], choice: RankChoice | None
) -> Formation:
    """Return the formation with ``name`` in front-rank ``file``, displacing models to legal places.

    A Front Rank occupant (champion, musician, standard, character) moves to the nearest
    front slot held by a model without Front Rank, and that model is pushed back one
    rank in its file (the file's rearmost model goes to the rear rank's first free
    slot).  A unit of a single rank follows the player's ``choice``: ``widen`` the rank
    by one file, or put the displaced model in a ``second_rank``.
    """
    order = list(formation.order)
    files = formation.files
    if formation.single_rank and len(order) == files:
        if choice is None:
            raise IllegalActionError(
                "the unit stands in a single rank: choose rank_choice 'widen' or 'second_rank'",
                ["t9a.join.single-rank"])
        if choice == "widen":  # a file added beside the rank, which stays where it stands (``_widened``)
            if not 0 <= file <= files:
                raise IllegalActionError(f"file {file} is outside 0..{files} of the widened rank", ["t9a.join.position"])
            order.insert(file, name)
            return _widened(formation.reordered(tuple(order), files + 1), file, files)
    elif choice == "widen":
        raise IllegalActionError(
            f"the unit stands in {formation.ranks} ranks: only a unit of a single rank may be widened",
            ["t9a.join.single-rank"])
    if not 0 <= file < files:
        raise IllegalActionError(f"file {file} is outside the front rank's files 0..{files - 1}", ["t9a.join.position"])
    if file >= len(order):  # a free slot in an incomplete single rank
        order.append(name)
        return formation.reordered(tuple(order))
    occupant = order[file]
    order[file] = name
    column, carry = file, occupant
    if front(occupant):
        j = _nearest_plain_front_slot(order, files, file, front)
        if j is not None:
            column, carry = j, order[j]
            order[j] = occupant
    _push_back(order, files, column, carry)
    # a Front Rank model pushed back goes no further back than it must (t9a.char.front-rank); the joining character
    # has Front Rank, though ``front`` (the unit's models) does not know him yet
    return front_ranked(formation.reordered(tuple(order)), lambda n: n == name or front(n))


@implements("t9a.char.front-rank")
def remove_from(formation: Formation, name: str, front: Callable[[str], bool] | None = None,
                stay: bool = False) -> Formation:
    """Return the formation without ``name``: a gap before the rear rank is filled from the rear.

    With ``front`` (which names have Front Rank), a gap in the first rank is filled first by the foremost Front Rank
    model standing further back, if any: a first rank that holds a model without Front Rank has every Front Rank
    model of the unit in it (t9a.char.front-rank); that model's place is then filled from the rear.  With ``stay`` (a
    character leaving, a casualty), a single rank left narrower closes its gap as a widened one opened it
    (``_widened``): the models of its shorter side step one slot in, the others stand, the unit left unmoved
    (t9a.leave.unit-not-moved; a casualty at an end moves nobody, published.t9a-removing-casualties).
    """
    order = list(formation.order)
    i = order.index(name)
    if stay and formation.single_rank and len(order) <= formation.files and len(order) > 1:
        order.pop(i)
        w, narrower = formation.slot_mm[0] / MM_PER_INCH, (formation.files - len(order)) / 2.0
        # re-centred, the left side would slide by narrower * w and the right by one slot less: the longer stands
        shift = w - narrower * w if i <= len(order) - i else -narrower * w
        return _shifted(formation.reordered(tuple(order), len(order)), shift)
    if front is not None and i < formation.files:
        back = next((j for j in range(formation.files, len(order)) if front(order[j])), None)
        if back is not None:
            order[i] = order[back]
            i = back
    last_rank_start = (formation.ranks - 1) * formation.files
    if i >= last_rank_start:
        order.pop(i)
    else:
        order[i] = order.pop()
    files = max(1, min(formation.files, len(order)))
    return formation.reordered(tuple(order), files)


def combined_models(state: GameState, host: Unit) -> list[tuple[Unit, Model]]:
    """Return every living model of a combined unit with the unit it belongs to (host first)."""
    out = [(host, m) for m in host.models]
    for ch in state.joined_to(host.id):
        out.extend((ch, m) for m in ch.models)
    return out


def front_rank_test(state: GameState, host: Unit) -> Callable[[str], bool]:
    """Return the test 'has this named model Front Rank?' for a combined unit."""
    flags = {m.name: has_front_rank(m, is_character(u)) for u, m in combined_models(state, host)}
    return lambda n: flags.get(n, False)


def arrange(state: GameState, host_id: str) -> GameState:
    """Return the state with every model of a combined unit standing in its slot, facing the front."""
    host = state.unit(host_id)
    f = host.formation
    if f is None:
        return state
    return state.replace_units(*arranged(f, [host, *[u for u in state.units if u.joined == host.id]]))


def arranged(f: Formation, units: Sequence[Unit]) -> list[Unit]:
    """Return a combined unit's units (host first) with every model named in ``f`` standing in its slot, facing
    the front: what ``arrange`` puts in the state, for a caller changing more of these units at once."""
    changed = []
    points = f.slot_points
    for u in units:
        models = tuple(
            evolve(m, at=points[m.name], facing=f.facing) if m.name in points else m for m in u.models
        )
        changed.append(evolve(u, models=models))
    return changed


@implements("t9a.join.deploy", "t9a.char.front-rank")
def default_formation(state: GameState, host: Unit) -> Formation:
    """Complete a formation read from a file: its slot size, and an order if none was given.

    Without an order the unit's models fill the slots as listed, then each joined
    character takes the centre-most front slot, displacing models (t9a.join.deploy).
    The width is the file's, up to the models of the whole combined unit: a unit of
    characters two files wide stands two files wide (round 40: the width was cut to the
    unit's own models before its characters were placed, so a lone Hero's ``files: 2``
    made a column of them all).
    """
    f = host.formation
    assert f is not None
    names = [m.name for u, m in combined_models(state, host)]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise IllegalActionError(f"model names must be unique within a combined unit, repeated: {', '.join(dup)}")
    f = replace(f, slot_mm=slot_size([m for _, m in combined_models(state, host)]))
    if f.order:
        if sorted(f.order) != sorted(names):
            raise IllegalActionError(
                f"formation order must list each model of the unit and its characters once: {sorted(names)}")
        return replace(f, files=max(1, min(f.files, len(f.order))))
    order = tuple(m.name for m in host.models)
    f = replace(f, order=order, files=max(1, min(f.files, len(names))))
    front = front_rank_test(state, host)
    for ch in state.joined_to(host.id):
        for m in ch.models:
            choice: RankChoice | None = "second_rank" if f.single_rank else None
            if not f.order:
                f = replace(f, order=(m.name,), files=1)
                continue
            f = place_in_front_rank(f, m.name, centre_file(f, front), front, choice)
    return f


def centre_file(f: Formation, front: Callable[[str], bool]) -> int:
    """Return the front file nearest the centre held by a model without Front Rank (else the centre)."""
    mid = (min(f.files, len(f.order)) - 1) / 2.0
    plain = [i for i, n in enumerate(f.front_rank()) if not front(n)]
    pool = plain or list(range(len(f.front_rank())))
    return int(min(pool, key=lambda i: (abs(i - mid), i)))
