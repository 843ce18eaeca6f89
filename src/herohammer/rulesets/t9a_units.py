"""The 9th Age: what the rules read of a unit and the characters in it - its host, rates, formation, bases.

The lowest of the 9th Age rules' modules (``t9a_units`` -> ``t9a_casualties`` -> ``t9a_moves`` ->
``t9a_stand_and_shoot`` -> ``t9a``, whose ``NinthAge`` the phase mixins build on); each imports only those before it.
"""

from __future__ import annotations

import math
import re

from ..catalogue import implements
from ..formations import Formation, is_character, sight_from
from ..geometry import Placed, Point, blocks_sight
from ..state import GameState
from ..units import Model, Status, Unit, UnitType

WIZARD_CONCLAVE = "Wizard Conclave"
BUSY = (Status.ENGAGED, Status.FLEEING)
MOVED = (Status.MOVED, Status.MARCHED, Status.CHARGED)
RALLY_RULE = "published.t9a-rally"
RALLIED_WORDS = "it rallied this turn, and a rallied unit counts as having marched: it moves no further this turn"


@implements(RALLY_RULE)
def rallied(unit: Unit) -> bool:
    """Whether ``unit`` rallied this turn (published.t9a-rally): its Rally test taken and passed, so it counts as
    having marched and moves no further (a failed test leaves it fleeing)."""
    return unit.has(Status.RALLY_TESTED) and unit.has(Status.MARCHED) and not unit.has(Status.FLEEING)


def why_moved(unit: Unit, words: str, doing: str = "move") -> tuple[str, tuple[str, ...]]:
    """Say why ``unit`` cannot ``doing`` (move, reform) again: ``words``, or that it rallied this turn citing
    published.t9a-rally."""
    return (f"{unit.id} cannot {doing}: {RALLIED_WORDS}", (RALLY_RULE,)) if rallied(unit) else (words, ())


@implements("published.t9a-move", "published.t9a-reform")
def why_unmovable(state: GameState, unit: Unit, doing: str = "move") -> str:
    """Say the one reason ``unit`` (with its characters) cannot ``doing`` (move, or reform: a reform is its move):
    engaged, fleeing, charged or moved already (round 31b: until then every reason was told at once, whichever held;
    round 32: a reform was told the unit "cannot move")."""
    group = state.combined(unit.id)
    if any(u.has(Status.ENGAGED) for u in group):
        return f"{unit.id} is engaged in combat and cannot {doing}"
    if any(u.has(Status.FLEEING) for u in group):
        return f"{unit.id} is fleeing: it moves only when it flees" + (f" and cannot {doing}" * (doing != "move"))
    if any(u.has(Status.CHARGED) for u in group):
        failed = " (its charge failed: it made a Failed Charge Move)" * failed_charge(state, unit)
        return f"{unit.id} has charged already this turn{failed} and cannot {doing}" + (" again" * (doing == "move"))
    return f"{unit.id} has moved already this turn and cannot {doing}" + (" again" * (doing == "move"))


#: The Failed Charge Move's rule (published.t9a-failed-charge): what bars a failed charger's move and shot.
FAILED_CHARGE = "published.t9a-failed-charge"


@implements(FAILED_CHARGE)
def failed_charge(state: GameState, unit: Unit) -> bool:
    """Say whether a unit (or a member) made a Failed Charge Move this player turn: the mark its failed charge left
    (FAILED_CHARGE). A charger without it reached its target or caught the unit that fled from it (round 45: until
    then every charger engaged in nothing was read as a failed one)."""
    return any(u.has(Status.FAILED_CHARGE) for u in state.combined(unit.id))


@implements(FAILED_CHARGE)
def failed_charge_rules(state: GameState, unit: Unit) -> tuple[str, ...]:
    """Cite the Failed Charge Move when it is what bars a unit's move or reform ("A unit that has performed a Failed
    Charge Move cannot perform Move Manoeuvres in the same Player Turn", 2022 text), as the join's refusal reads it
    (``t9a_joins._charged_refusal``). Round 44: such a refusal cited the move rule alone; round 45: a charger that
    caught a unit that fled cited it too."""
    return (FAILED_CHARGE,) if failed_charge(state, unit) else ()


# -- characters and units ------------------------------------------------------------
#: The unit rules naming a Height other than Standard (Full Ranks, published.t9a-combat-resolution; the hits a
#: combined unit's characters take, published.t9a-distributing-hits).
LARGE_RULES = frozenset({"Large", "Gigantic"})


def height(unit: Unit) -> str:
    """Return the Height a unit's own rules name: Gigantic, Large, or Standard when they name neither (a character's
    are his own, not those of the unit he joined: his mount makes him Large, not his bodyguard)."""
    if not unit.rules or LARGE_RULES.isdisjoint(unit.rules):
        return "Standard"
    return "Gigantic" if "Gigantic" in unit.rules else "Large"


#: The Troop Types a 9th Age file names in a unit's ``type`` (published.t9a-distributing-hits): those both games name.
TROOP_TYPES = frozenset({UnitType.INFANTRY, UnitType.CAVALRY})


def classification(unit: Unit) -> tuple[UnitType, str]:
    """Return a unit's Type and Height, as the hits at a combined unit compare them: its ``type`` (Infantry when its
    file names none, as every unit's) and ``height`` (a character's are his own, his mount's, not his unit's)."""
    return unit.type, height(unit)


def advance_rate(unit: Unit) -> int:
    """Return a unit's Advance Rate: its slowest model's (0 when a profile gives none)."""
    return min((m.profile.adv or 0) for m in unit.models) if unit.models else 0


def march_rate(unit: Unit) -> int:
    """Return a unit's March Rate: its slowest model's (twice the Advance Rate when not printed)."""
    return min((m.profile.mar if m.profile.mar is not None else 2 * (m.profile.adv or 0)) for m in unit.models)


def host_of(state: GameState, unit: Unit) -> Unit:
    """Return the unit a character has joined, or the unit itself."""
    return state.unit(unit.joined) if unit.joined else unit


FLY_PATTERN = re.compile(r"^\s*Fly\s*(?:\(\s*(\d+)\s*,\s*(\d+)\s*\))?\s*$")


@implements("published.t9a-fly")
def fly_rates(unit: Unit) -> tuple[int, int] | None:
    """Return a unit's flying Advance and March Rates from ``Fly (X, Y)``; a bare ``Fly`` keeps its ground rates."""
    for r in unit.rules:
        m = FLY_PATTERN.match(r)
        if m:
            return (int(m.group(1)), int(m.group(2))) if m.group(1) else (advance_rate(unit), march_rate(unit))
    return None


def unit_rates(state: GameState, unit: Unit, fly: bool) -> tuple[int, int] | None:
    """Return a combined unit's Advance and March Rates: its slowest model's; flying only if every model has Fly.

    Worked out once per state (charges, moves and their resolutions all ask).
    """
    return state.remember(("t9a unit rates", unit.id, fly), lambda: _unit_rates(state, unit.id, fly))


@implements("t9a.join.part-of-unit", "t9a.leave.move")
def _unit_rates(state: GameState, unit_id: str, fly: bool) -> tuple[int, int] | None:
    members = [u for u in state.combined(unit_id) if u.alive]
    if fly:
        rates = [fly_rates(u) for u in members]
        if any(r is None for r in rates):
            return None
        return min(r[0] for r in rates if r), min(r[1] for r in rates if r)
    return min(advance_rate(u) for u in members), min(march_rate(u) for u in members)


def movers_of(state: GameState, unit: Unit) -> Unit:
    """Return the unit that moves when ``unit`` is named: a character in a unit of characters moves it all."""
    host = host_of(state, unit)
    return host if unit.joined and is_character(host) else unit


def combined_status(state: GameState, unit: Unit) -> frozenset[Status]:
    """Return the statuses that bind a model: its own and, once joined, its unit's (effects stay on the unit)."""
    return unit.status | host_of(state, unit).status


def formation_of(unit: Unit) -> Formation | None:
    """Return a unit's formation; a lone single model gets a one-file formation around it."""
    if unit.formation is not None:
        return unit.formation
    if len(unit.models) != 1:
        return None
    m = unit.models[0]
    d = m.base.depth_mm / 25.4 / 2.0
    t = math.radians(m.facing)
    front = (m.at[0] - math.sin(t) * d, m.at[1] + math.cos(t) * d)
    return Formation(front, m.facing, 1, (m.name,), (m.base.width_mm, m.base.depth_mm))


CHARGE_ARC = "published.t9a-charge-arc"


def placed_all(state: GameState, host: Unit, skip: str = "") -> list[Placed]:
    out = [m.placed for m in host.models if m.name != skip]
    for ch in state.joined_to(host.id):
        out.extend(m.placed for m in ch.models if m.name != skip)
    return out


@implements("published.line-of-sight", "t9a.join.part-of-unit")
def sight_all(state: GameState, host: Unit) -> list[Placed]:
    """Return where every model of a combined unit (its characters too) draws its line of sight from.

    A model behind the first rank sees as if it stood in the first rank of its file (``sight_from``).
    Where no terrain blocks sight every line is clear, so the models' own places serve as well.
    """
    if not blocks_sight(state.terrain):
        return placed_all(state, host)
    f = host.formation
    return [sight_from(f, m) for u in (host, *state.joined_to(host.id)) for m in u.models]


# -- combined units ------------------------------------------------------------------
LONE_RULE = "t9a.char.lone"


@implements(LONE_RULE)
def lone_rules(state: GameState, *units: Unit) -> tuple[str, ...]:
    """Return t9a.char.lone when any of ``units`` is a lone character: "a character on its own acts as a single-model
    unit and follows all the rules for units", so a ruling on what such a unit does or has done to it is that clause's
    (judge round 61: his move and his being a target cited it; his own charge, shot, spell and Rally, and a charge at
    him, did not).  A last survivor is his unit still (t9a.combined.last-survivor) and a character whom others joined
    leads a unit of characters (t9a.join.character-units): neither is lone."""
    for u in units:
        if is_character(u) and u.joined is None and u.last_of is None and not state.joined_to(u.id):
            return (LONE_RULE,)
    return ()


@implements("t9a.combined.last-survivor")
def current(state: GameState, unit_id: str) -> Unit:
    """Return the unit that now is ``unit_id``: itself, or the last survivor a destroyed combined unit left.

    A slain last survivor was his destroyed unit, so his name leads on to whoever is that unit now
    (another character of it, t9a.join.character-units).
    """
    unit = state.unit(unit_id)
    if unit.alive:
        return unit
    for u in state.units:
        if u.last_of == unit_id and u.alive:
            return u
    if unit.last_of is not None and unit.last_of != unit_id:
        heir = current(state, unit.last_of)
        if heir.alive:
            return heir
    return unit


PART_OF_UNIT = "t9a.join.part-of-unit"


@implements(PART_OF_UNIT)
def lent_by(state: GameState, unit_id: str, model_name: str) -> tuple[tuple[str, ...], str]:
    """Return the clause, and the words, by which ``model_name``'s value is one of a combined unit's, when the model is a
    joined character's (seed 002: after joining, "the character counts as part of the unit for every rule to which that
    matters", which is what puts his values among the unit's for its tests); nothing for the unit's own models, a lone
    unit or a General's lent from outside it.  Round 56: a test of a unit on its Hero's value cited only the test's
    clauses (core.test.highest-value, core.test.leadership-choice), never the one that makes his value the unit's."""
    host = current(state, host_of(state, state.unit(unit_id)).id)
    for u in state.joined_to(host.id):
        if any(m.name == model_name for m in u.models):
            return (PART_OF_UNIT,), f"{model_name} is part of {host.id}: his value is the unit's [{PART_OF_UNIT}]"
    return (), ""


@implements("t9a.combined.last-survivor")
def is_destroyed(state: GameState, unit_id: str) -> bool:
    """Say whether a unit is destroyed for other units' Panic tests: no model of it, nor its last survivor, lives."""
    unit = state.unit(unit_id)
    return not unit.alive and not state.joined_to(unit.id) and not current(state, unit_id).alive


# -- Wizard Conclave -----------------------------------------------------------------
CONCLAVE_PATTERN = re.compile(r"^\s*Wizard Conclave\s*\((.*)\)\s*$")


def has_conclave(unit: Unit) -> bool:
    """Say whether a unit has the Wizard Conclave rule."""
    return any(r == WIZARD_CONCLAVE or CONCLAVE_PATTERN.match(r) for r in unit.rules)


@implements("t9a.spell.wizard-conclave")
def model_wounds(unit: Unit, model: Model) -> int:
    """Return a model's Wounds: the champion of a Wizard Conclave unit has +1, on top of its other bonuses."""
    bonus = 1 if model.role == "champion" and has_conclave(unit) else 0
    return model.profile.w + bonus


def member_models(state: GameState, host: Unit) -> list[tuple[Unit, Model]]:
    return [(u, m) for u in [host, *state.joined_to(host.id)] for m in u.models]


@implements("published.t9a-duel")
def discipline_of(unit: Unit, model: Model) -> int:
    """Return the Discipline (Leadership) a member's model brings to its unit's Discipline tests: 0 while its unit is a
    character shamed by a refused Duel ("its Discipline is set to 0", published.t9a-duel; round 30: the Panic and
    Rally tests read his own until then), else its profile's."""
    return 0 if unit.has(Status.DUEL_REFUSED) else model.profile.ld


def middle(points: list[Point]) -> Point:
    """Return the middle (mean) of some points: a group of models standing without ranks has no other centre."""
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def front_centre(unit: Unit) -> Point:
    """Return the centre of a unit's front (a Front Arc's question, ``located_in_front_arc``; a lone model's place)."""
    if unit.formation is not None:
        return unit.formation.position
    return middle([m.at for m in unit.models])


@implements("published.t9a-flee")
def unit_centre(state: GameState, unit_id: str) -> Point:
    """Return the Centre of a combined unit (its last survivor's once its rank and file are gone), what a flee runs
    away from and through: the middle of its ranks' footprint (``Formation.centre``); for one standing without ranks,
    the middle of all its models, its characters' too.

    Decision (round 40): until then a unit without a formation was centred on its first model (a unit of characters
    placed one by one fled through its first character), and a Flee Charge Reaction ran from the charger's front edge.
    """
    host = current(state, host_of(state, state.unit(unit_id)).id)
    if host.formation is not None:
        return host.formation.centre
    return middle([m.at for u in (host, *state.joined_to(host.id)) for m in u.models])


@implements("published.t9a-flee-reaction", "t9a.charge-out.declare")
def charger_centre(state: GameState, charger: Unit) -> Point:
    """Return the Centre of a charging unit, which a unit that Flees from its charge runs directly away from: a
    character charging out of his unit is a unit of his own from his declaration, so his own model's place."""
    return middle([m.at for m in charger.models]) if charger.joined else unit_centre(state, charger.id)


@implements("published.t9a-flee", "t9a.join.part-of-unit")
def off_table(before: GameState, host_id: str) -> tuple[str, tuple[str, ...]]:
    """Say that a unit fled off the table is destroyed, naming the characters destroyed with it, and the rules to cite.

    The characters in a unit flee with it and are removed with it (t9a.join.part-of-unit, published.t9a-flee): a judge
    asks after the General in it, so the event names them, as a pursuit that catches a unit does (round 35; before,
    "off the table: destroyed" and nothing of them). ``before``: the state the unit fled from. A last survivor is the
    unit itself (t9a.combined.last-survivor), not a character with it.
    """
    host = current(before, host_of(before, before.unit(host_id)).id)
    chars = [u.id for u in before.joined_to(host.id) if u.id != host_id and u.alive and u.last_of != host_id]
    if not chars:
        return ", off the table: destroyed", ()
    return f", off the table: destroyed, {' and '.join(chars)} with it", ("t9a.join.part-of-unit",)
