"""The 9th Age casualties: hits shared between a unit and its characters, the slain removed, the command group
spared, and a unit destroyed around its last survivor (seed 002).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..catalogue import implements
from ..formations import arrange, front_rank_test, is_character, remove_from
from ..rulings import Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from .t9a_units import classification, current, host_of, model_wounds

#: Rank and file a combined unit needs for hits to stay off its characters (published.t9a-distributing-hits).
LOOK_OUT_SIR = 5
#: The published rule on hits at combined units (shooting, spells, Stand and Shoot: not close combat).
DISTRIBUTING_HITS = "published.t9a-distributing-hits"
#: The published rule on removing casualties: from the rear rank, and from the first rank one by one as equally as
#: possible from both sides.
REMOVING_CASUALTIES = "published.t9a-removing-casualties"
#: An Engaged first rank's contacts: each of its models (by name) in base contact with an enemy model, and the enemy
#: models it touches as (unit id, model name) (``t9a_combat.engaged_front``).
Contacts = Mapping[str, frozenset[tuple[str, str]]]
NO_CONTACTS: Contacts = MappingProxyType({})


@dataclass(frozen=True)
class Share:
    """What part of a batch of hits one member of a combined unit takes: the rank and file as one pool, or a character."""

    victim: Unit
    hits: int


@implements("t9a.join.part-of-unit", "t9a.combined.last-survivor", DISTRIBUTING_HITS)
def share_hits(state: GameState, target_id: str, hits: int, at: str | None,
               taken: dict[str, int] | None = None) -> list[Share]:
    """Distribute hits at a combined unit as the published rule does, and return each member's share.

    With five or more rank and file, every hit goes to them, but for the characters of another Type or
    Height than theirs (``sharing``). With fewer, hits go to the rank-and-file models and the characters as
    equally as possible: no model takes a second hit until every model has taken one. Where the hits do
    not divide evenly, the attacker picks who takes one more: the character named ``at`` first, then the
    rank and file, then the other characters in the order they joined. A unit reduced to its characters
    shares them among its characters alone.
    ``taken``: the hits each member already took from the same attack (its other batches), updated here.
    """
    host = current(state, host_of(state, state.unit(target_id)).id)
    chars = [c for c in state.joined_to(host.id) if c.alive]
    rf = 0 if is_character(host) else len(host.models)  # the rank and file, one pool of models
    if chars and rf >= LOOK_OUT_SIR:
        chars = sharing(host, chars)
    if not chars or hits <= 0:
        return [Share(host, hits)]
    singles = chars if rf else [host, *chars]  # characters: one model each
    picked = [c for c in singles if c.id == at]
    order = [*picked, *([host] if rf else []), *(c for c in singles if c.id != at)]  # who takes one more, first
    load = taken if taken is not None else {}

    def least_hit(u: Unit) -> int:  # the hits the least hit model of this member has taken
        n = load.get(u.id, 0)
        return n // rf if rf and u is host else n

    got: dict[str, int] = {}
    for _ in range(hits):
        pick = min(order, key=least_hit)  # the first of the least hit: the attacker's pick on a tie
        load[pick.id] = load.get(pick.id, 0) + 1
        got[pick.id] = got.get(pick.id, 0) + 1
    return [Share(u, got[u.id]) for u in ([host] if rf else []) + singles if got.get(u.id)]


@implements(DISTRIBUTING_HITS)
def sharing(host: Unit, chars: Sequence[Unit]) -> list[Unit]:
    """Return the characters who share the hits at a unit of five or more rank and file: those of another Type or
    Height than its rank and file (2022 text: "Characters with the same Type and Height as the R&F models are ignored
    for the hit distributions"). Round 44 read the Height; round 45 the Type too (``classification``)."""
    own = classification(host)
    return [c for c in chars if classification(c) != own]


@implements("core.zero.w")
def no_models_left(unit: Unit, *rules: str) -> Ruling:
    """Refuse an action of a unit with no model on the table: each was removed when its Wounds fell to 0.

    The unit's side is ruled before any rule of its own (published.turn-sequence, ``Ruleset.judge_checked``),
    and a destroyed combined unit's name is its last survivor while he lives (``named_now``).
    """
    return Ruling.forbid(f"{unit.id} has no models left: it is not on the table to act", "core.zero.w", *rules)


#: The statuses of a unit no longer on the table: none.
_NONE: frozenset[Status] = frozenset()


@implements("t9a.combined.last-survivor", "t9a.join.part-of-unit", "core.zero.w", REMOVING_CASUALTIES)
def remove_casualties(state: GameState, host_id: str, names: Iterable[str]) -> GameState:
    """Remove named models from a combined unit; characters left alone are still that unit.

    When the rank and file are gone, the first surviving character becomes the unit: it
    stands where it stood, keeps the unit's statuses (its "until the end of the round"
    effects) and records ``last_of``; any other surviving character stays joined to it
    (a unit of characters only, t9a.join.character-units).  A slain character is part of
    no unit any more (``joined`` cleared): only a character on the table is part of one
    (t9a.join.part-of-unit).  A unit or character left with no model is off the table
    (core.zero.w): it keeps no status (engaged, fleeing, charged...), which only its
    last survivor, who is that unit now, carries on.
    """
    dead = set(names)
    host = current(state, host_id)
    host_id = host.id
    f = host.formation
    changed = [replace(host, models=tuple(m for m in host.models if m.name not in dead))]
    for u in state.joined_to(host.id):
        left = tuple(m for m in u.models if m.name not in dead)
        changed.append(replace(u, models=left, joined=u.joined if left else None, status=u.status if left else _NONE))
    if f is not None:
        front = front_rank_test(state, host)
        for n in [n for n in f.order if n in dead]:  # a single rank's others stand (REMOVING_CASUALTIES)
            f = remove_from(f, n, front, stay=True)
        changed[0] = replace(changed[0], formation=f if f.order else None)
    new = state.replace_units(*changed)
    survivors = new.joined_to(host_id)
    if not new.unit(host_id).alive:
        if survivors:
            return _last_survivors(new, new.unit(host_id), survivors)
        return new.replace_unit(replace(new.unit(host_id), status=_NONE))
    return arrange(new, host_id) if f is not None and f.order else new


#: What a character and his unit moved this turn, counted apart (t9a.join.moved-separately): a last survivor keeps his
#: own, not the unit's.
_OWN_MOVES = frozenset({Status.MOVED, Status.MARCHED})


@implements("t9a.combined.last-survivor", "t9a.join.moved-separately")
def _last_survivors(state: GameState, host: Unit, survivors: Sequence[Unit]) -> GameState:
    """Make the characters left of a destroyed combined unit that unit (t9a.combined.last-survivor).

    The heir keeps the unit's statuses (its effects: engaged, fleeing, Shaken, a Stand and Shoot made...) but his own
    move: the character and the unit count as moved or marched separately (t9a.join.moved-separately), so one who
    only moved to join a unit that had marched still shoots when it is gone; a unit that moved or marched leaves him
    moved at least, as he moved with it or to join it (round 30).
    """
    lead, rest = survivors[0], survivors[1:]
    formation = host.formation if rest else None
    # a host that was itself the last survivor of a destroyed unit hands that unit on: the heir is still it
    # he moved with the unit, or moved to join it after: the unit's move leaves him moved at least (round 30)
    carried = frozenset({Status.MOVED}) if host.status & _OWN_MOVES else frozenset()
    heir = replace(lead, joined=None, last_of=host.last_of or host.id, formation=formation,
                   status=lead.status | (host.status - _OWN_MOVES) | carried)
    moved = [replace(c, joined=heir.id) for c in rest]
    new = state.replace_units(replace(host, formation=None, status=_NONE), heir, *moved)
    return arrange(new, heir.id) if formation is not None else new


#: The published rule on a unit's Command Group as casualties fall: a Musician or Standard Bearer whose place would be
#: a casualty's is not removed while another rank-and-file model is left (that one takes up the instrument or the
#: standard), and the Champion falls last.
COMMAND_GROUP = "published.t9a-command-group"
#: The Command Group models another rank-and-file model stands in for as a casualty.
_REPLACED = ("musician", "standard")


@implements(REMOVING_CASUALTIES)
def _rear_first(unit: Unit, models: Sequence[Model] | None = None, touching: Contacts = NO_CONTACTS) -> list[Model]:
    """Return ``models`` (the unit's by default) in the order their places fall: the rear ranks first (each from its
    right as the unit faces), then the first rank from its two ends (``_from_both_ends``; ``touching``: the enemy
    models each first-rank model is in base contact with, ``engaged_front``)."""
    models = unit.models if models is None else models
    f = unit.formation
    if f is None:
        return list(models)
    index = {n: i for i, n in enumerate(f.order)}
    rear = sorted((m for m in models if index.get(m.name, 0) >= f.files), key=lambda m: -index[m.name])
    first = sorted((m for m in models if index.get(m.name, 0) < f.files), key=lambda m: index.get(m.name, 0))
    return [*rear, *_from_both_ends(f.order[:f.files], first, index, touching)]


@implements(REMOVING_CASUALTIES)
def _from_both_ends(row: Sequence[str], first: Sequence[Model], index: Mapping[str, int],
                    touching: Contacts) -> list[Model]:
    """Return the first rank's ``first`` (in slot order) in the order they fall: one by one from its two ends as
    equally as possible, the right end first on a tie (the 2022 text: "remove models one by one as equally as possible
    from both sides of the unit"), but, for an Engaged single rank, each casualty from the end whose emptied slot
    costs least by the 2022 text's priorities, which come before both sides: the fewest enemy units losing all base
    contact with the unit (its 1st and 2nd priorities, Nudging not modelled), then the fewest models losing base
    contact (its 3rd, before any nudge); judge rounds 64, 65. Each casualty on a side empties that side's outermost
    slot still held (the end falls, or a character or a spared Command Group model beyond it steps one slot in,
    ``remove_casualties``), so what a fall costs is the contacts of that slot's first occupant (``touching``) that no
    slot left standing holds."""
    out: list[Model] = []
    lo, hi, right, left = 0, len(first) - 1, 0, 0
    slots = [touching.get(n, frozenset()) for n in row]

    def cost(on_right: bool) -> tuple[int, int]:  # (enemy units, models) losing base contact if this side's slot goes
        slot = len(row) - 1 - right if on_right else left
        lost = slots[slot]
        if not lost:
            return 0, 0
        held = frozenset().union(*(slots[k] for k in range(left, len(row) - right) if k != slot))
        units = {u for u, _ in held}
        return len({u for u, _ in lost if u not in units}), 1 + len(lost - held)

    while lo <= hi:
        ends = ((hi, True), (lo, False)) if right <= left else ((lo, False), (hi, True))
        i, on_right = min(ends, key=lambda e: cost(e[1])) if touching else ends[0]  # the turn's end on a tie
        out.append(first[i])
        if on_right:
            hi, right = hi - 1, right + 1
        else:
            lo, left = lo + 1, left + 1
    return out


@implements(COMMAND_GROUP, REMOVING_CASUALTIES, "t9a.join.part-of-unit")
def rank_and_file(unit: Unit, touching: Contacts = NO_CONTACTS) -> list[Model]:
    """Return a unit's rank-and-file models in the order they fall: rear rank first, the first rank from both ends in
    turn, the Musician and the Standard Bearer after every other rank-and-file model (another picks up the instrument
    or the standard), the champion last.  The ends are counted among the models that may fall there: a champion at the
    left end, the next model on his side falls in turn (his place taken, ``remove_casualties``)."""
    plain = _rear_first(unit, [m for m in unit.models if m.role not in _REPLACED and m.role != "champion"], touching)
    command = _rear_first(unit, [m for m in unit.models if m.role in _REPLACED], touching)
    return [*plain, *command, *[m for m in unit.models if m.role == "champion"]]


@implements(COMMAND_GROUP)
def spared_command(unit: Unit, slain: Sequence[str], touching: Contacts = NO_CONTACTS) -> tuple[str, ...]:
    """Name the Musicians and Standard Bearers of ``unit`` (as it stood before the casualties) whose places fell to
    ``slain``, rear rank first, but who live: another rank-and-file model fell in their stead (``rank_and_file``)."""
    dead = set(slain)
    rank_and_file_slain = sum(1 for m in unit.models if m.name in dead and m.role != "champion")  # a Duel's Champion
    positional = _rear_first(unit, [m for m in unit.models if m.role != "champion"], touching)[:rank_and_file_slain]
    return tuple(m.name for m in positional if m.role in _REPLACED and m.name not in dead)


def command_said(spared: Sequence[str]) -> str:
    """Say that the Command Group models named stand, another model fallen in each one's place ("" for none)."""
    if not spared:
        return ""
    return (f" ({', '.join(spared)} of the Command Group {'stands' if len(spared) == 1 else 'stand'}: another "
            f"rank-and-file model falls in {'its' if len(spared) == 1 else 'their'} place [{COMMAND_GROUP}])")


@implements("t9a.spell.wizard-conclave")
def take_wounds(state: GameState, victims: Sequence[tuple[Unit, Model]], wounds: int) -> tuple[GameState, list[str]]:
    """Put ``wounds`` on the victims in order, each until it falls (a Wizard Conclave's champion with its +1 Wound);
    return the state and the fallen's names."""
    dead: list[str] = []
    for owner, m in victims:
        if wounds <= 0:
            break
        have = model_wounds(owner, m) - m.wounds_taken
        take = min(wounds, have)
        wounds -= take
        if take == have:
            dead.append(m.name)
            continue
        owner = state.unit(owner.id)
        hurt = replace(m, wounds_taken=m.wounds_taken + take)
        state = state.replace_unit(replace(owner, models=tuple(hurt if x.name == m.name else x for x in owner.models)))
    return state, dead
