"""Warhammer 40,000 wounds: allocating a volley's or a strike's wounds, rolling saves, removing the slain.

Decisions the seeds leave open (the published rules where they give them):

- Wound allocation (shooting and close combat alike): wounds are allocated one per
  model before any model takes a second, in order - the unit's own models closest
  to the attackers first, joined characters last - and saves are rolled as one pool
  per group of models with the same save.  A joined character's wounds are always its
  own group; within a group, unsaved wounds slay whole models in order.  In close combat the
  unit's excess never carries over onto its character (40k4.cc.no-carry-over) and is lost;
  a volley's falls on him, one of the unit's models (``carry_over``): each wound with its own
  weapon's Strength (Instant Death), AP and reach, and through his own save unless it is the
  save the wound already failed (judge round 32c).
- To wound uses the majority Toughness of the target (the lowest with none).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter, itemgetter, lt
from typing import Any
from dataclasses import dataclass
from itertools import chain, compress, repeat

from .. import geometry as geo
from ..catalogue import implements
from ..charts import best_save, kills_outright
from ..dice import Dice, RollRecord, Split, Stage, rolls_made, rolls_since
from ..rulings import Event
from ..state import GameState
from ..units import CharacterKind, Model, Status, Unit
from ..values import evolve
from ..weapons import Weapon, bundled_weapons, find_weapon
from .base import rule_keys
from .w40k_hooks import CombatHooks

#: How many dice-free pieces of a combat result of each kind (``_Kept``) a state fought from again remembers.
RESULTS_KEPT = 256
ModelRef = tuple[str, int]  # (unit id, model index)
_WOUNDS = attrgetter("wounds")
_INDEX = itemgetter(1)  # a ModelRef's model index
SaveGroup = tuple[str | None, int | None]
#: A strike's saves as one split of the wound chain (``_save_split``): the split, its groups in order, the models
#: that may take wounds (in order) and each one's group (one key for all when there is one group).
SaveSplit = tuple[Split, tuple[SaveGroup, ...], list[ModelRef], list[SaveGroup]]


@dataclass(frozen=True)
class WoundBatch:
    """Wounds from one batch of attacks, waiting for saves: how many, and what they ignore."""

    wounds: int
    ap: int | None
    ignores_armour: bool = False
    strength: int | None = None  # the attack's Strength, for Instant Death (None: no Strength, as Dangerous Terrain)


INSTANT_DEATH = "published.instant-death"
#: No model of a save group is killed outright (``SavesGroup``'s last item): the usual group.
NO_KILLS: Mapping[ModelRef, int] = {}


@implements("published.instant-death")
def killed_outright(unit: Unit, model: Model, strength: int | None, left: int | None = None) -> bool:
    """Say whether an unsaved wound of ``strength`` kills ``model`` outright: a Strength of double its Toughness or
    more (Instant Death), unless it has Eternal Warrior; it matters only to a model with more than one Wound left
    (``left``: the Wounds it has left, when wounds of this volley are already on it)."""
    if left is None:
        left = model.profile.w - model.wounds_taken
    return kills_outright(strength, model.profile.t) and left > 1 and "eternal_warrior" not in rule_keys(unit.rules)


@implements("published.to-wound")
def majority(values: Sequence[int]) -> int:
    """Return the value in the majority, the lowest if no majority exists (4th ed. p. 34, Multiple Toughness: "use
    the Toughness characteristic that is in the majority in the target unit. If no majority exists, use the lowest
    in the unit"): the value more than half the models have, as ``_sweep_initiative`` reads "majority"."""
    first = values[0]
    if values.count(first) == len(values):  # the usual unit: one value throughout
        return first
    value, count = Counter(values).most_common(1)[0]
    return value if 2 * count > len(values) else min(values)


def zero_rules(strength: int, toughness: int) -> tuple[str, ...]:
    """Name the value-0 clause that decided a to-wound roll, if one did (S 0 prevails over T 0); S 4 against T 4
    names none."""
    if strength <= 0:
        return ("core.zero.s",)
    return ("core.zero.t",) if toughness <= 0 else ()


class WoundRules(CombatHooks):
    """Weapons carried, and wounds taken: the order models take them, their saves, the slain."""

    # == shared helpers ===============================================================
    @implements("published.weapon-profiles")
    def weapon_names(self, state: GameState) -> frozenset[str]:
        """Name every weapon with a profile: the scenario's own (``weapons:``) and the bundled armoury's."""
        return frozenset(w.name.lower() for w in (*state.weapons, *bundled_weapons()))

    def weapons_of(self, state: GameState, model: Model) -> list[Weapon]:
        """Return a model's weapon profiles, the scenario's own first, or fail naming the weapon."""
        return list(map(find_weapon, model.weapons, repeat(state.weapons), repeat(model.name)))

    def _pool_order(self, state: GameState, target_id: str, attackers: Sequence[geo.Placed],
                    with_characters: bool = True, nearest: Sequence[float] | None = None) -> list[ModelRef]:
        """Order the models that take wounds: the unit's own, closest to the attackers first, then its characters.

        ``nearest``: each model's distance to the attackers, already measured (the unit's and
        then its characters' models, as ``state.combined`` lists them).
        """
        host = state.unit(target_id)
        groups = state.combined(target_id) if with_characters else [host]
        out: list[ModelRef] = []
        offset = 0
        for u in groups:
            n = len(u.models)
            gaps: Sequence[float] | None = None
            if nearest is not None:
                gaps = nearest[offset:offset + n]
            elif attackers and n:
                if len(attackers) == 1:  # one striker: its row of gaps to the models (the models measured as
                    # they stand; a gap below 0 is 0, ``geo.clear``, taken in C: -0.0 sorts as 0.0), cleared only
                    # when some base overlaps (no gap below 0: the row sorts as its cleared copy would)
                    gaps = geo.gap_rows(attackers, u.models)[0]
                    if min(gaps) < 0.0:
                        gaps = list(map(max, gaps, repeat(0.0)))
                else:
                    gaps = geo.nearest_distances(u.placed, attackers)
            uid = u.id  # a stable sort of the model indices by their gaps: the closest first, ties in unit order
            out += zip(repeat(uid), range(n) if gaps is None else sorted(range(n), key=gaps.__getitem__))
            offset += n
        return out

    @implements("core.zero.w", "published.wound-allocation")
    def _take_wounds(self, state: GameState, pool: Sequence[ModelRef], batches: Sequence[WoundBatch],
                     dice: Dice, who: str, rules: tuple[str, ...], remove: bool = True,
                     saved_already: dict[SaveGroup, int] | None = None,
                     models: dict[ModelRef, tuple[Unit, Model]] | None = None) -> tuple[GameState, list[Event], int]:
        """Allocate wounds one per model in order, roll saves per group, apply unsaved wounds; return them too.

        ``saved_already``: the saves per group, rolled with the wounds (``_save_split``);
        ``models``: the pool's models (and units) in ``state``, if already looked up.
        """
        taken, events, unsaved = self._saved_wounds(state, pool, batches, dice, who, rules, saved_already, models)
        if taken is None:
            return state, events, unsaved
        state, slain = apply_wounds(state, taken, remove)
        if slain:
            events.append(casualties(slain, rules))
        return state, events, unsaved

    def _saved_wounds(self, state: GameState, pool: Sequence[ModelRef], batches: Sequence[WoundBatch], dice: Dice,
                      who: str, rules: tuple[str, ...], saved_already: dict[SaveGroup, int] | None = None,
                      models: dict[ModelRef, tuple[Unit, Model]] | None = None
                      ) -> tuple[dict[ModelRef, int] | None, list[Event], int]:
        """Allocate wounds and roll the saves (``_take_wounds``): the unsaved wounds each model takes, the events, their total.

        None instead of the wounds taken when there is nothing to allocate (no wounds, or no model
        left to take them): nothing changes.
        """
        if models is None:
            models = models_of(state, pool)
        groups = save_groups(models, pool, batches, who)
        if groups is None:
            return None, [], 0
        events: list[Event] = []
        unsaved: list[int] = []
        for group in groups:
            start = rolls_made(dice)
            saved = saved_already[group[0]] if saved_already is not None else roll_saves(group, dice)
            unsaved.append(group[2] - saved)
            events.append(saves_event(group, saved, rules, rolls_since(dice, start)))
        outright: list[tuple[ModelRef, int, int]] = []
        taken = unsaved_taken(groups, models, unsaved, None, outright)
        return taken, events + outright_events(outright, models), sum(unsaved)

    def _save_split(self, state: GameState, pool: Sequence[ModelRef], ignores_armour: bool, most: int,
                    who: str, models: dict[ModelRef, tuple[Unit, Model]] | None = None,
                    looked: list[Model] | None = None) -> SaveSplit | None:
        """Say how up to ``most`` wounds share out among the save groups ``_take_wounds`` makes, and their saves.

        Then the saves are rolled as the end of the hit-and-wound chain (the same dice in the
        same order), so an enumeration branches once per number of unsaved wounds per group.
        Also return the models that may take wounds (in order) and their groups (one key for
        all when there is one group), for ``_allocate_melee``.  ``looked``: the pool's models, if looked up.
        """
        if models is None:
            models = models_of(state, pool)
        if looked is None:
            looked = list(map(MODEL_OF, map(models.__getitem__, pool)))  # not is_casualty: wounds taken below W
        alive = list(compress(pool, map(lt, map(WOUNDS_TAKEN_OF, looked), map(PROFILE_WOUNDS_OF, looked))))
        if not alive:
            return None
        if max(map(PROFILE_WOUNDS_OF, looked)) > 1:  # as save_groups: the fewest Wounds left first
            alive = _fewest_left_first(alive, models)
        keys: list[SaveGroup] = []
        if len(set(map(UNIT_OF, alive))) == 1 and len(set(zip(map(_SAVE, looked), map(_INVULNERABLE, looked)))) == 1:
            unit, model = models[alive[0]]  # one unit of one save (the usual pool): one group, its save worked out once
            armour = None if ignores_armour else model.profile.save
            keys.append((unit.id if unit.is_character else None, best_save(armour, model.profile.invulnerable, None)))
        else:
            for ref in alive:
                unit, model = models[ref]
                armour = None if ignores_armour else model.profile.save
                keys.append((unit.id if unit.is_character else None, best_save(armour, model.profile.invulnerable, None)))
        order = tuple(dict.fromkeys(keys))
        if len(order) == 1:  # one group takes every wound
            shares: list[tuple[int, ...]] = list(zip(range(most + 1)))
        else:
            index = {k: i for i, k in enumerate(order)}
            counts = [0] * len(order)
            shares = [tuple(counts)]
            for k in range(most):  # wound k goes to the k-th living model, round and round (as _take_wounds)
                counts[index[keys[k % len(keys)]]] += 1
                shares.append(tuple(counts))
        stages = []
        for _, save in order:
            stages.append(Stage(save, f"{who}: saves ({save}+)" if save is not None else f"{who}: no save",
                                "published.saves", fails=True))
        return Split(tuple(stages), tuple(shares)), order, alive, keys


#: A (unit, model, ...) item's parts and a model's fields, read in C: shooting and close combat read them too.
UNIT_OF = itemgetter(0)
MODEL_OF = itemgetter(1)
MODELS_OF = attrgetter("models")
TOUGHNESS_OF = attrgetter("profile.t")
PROFILE_WOUNDS_OF = attrgetter("profile.w")
WOUNDS_TAKEN_OF = attrgetter("wounds_taken")
_SAVE = attrgetter("profile.save")
_INVULNERABLE = attrgetter("profile.invulnerable")
WEAPONS_OF = attrgetter("weapons")


def models_of(state: GameState, refs: Sequence[ModelRef]) -> dict[ModelRef, tuple[Unit, Model]]:
    """Look the referenced models up once (with their units), in order; a reference to no model is left out."""
    if len(uids := set(map(UNIT_OF, refs))) == 1 and state.has_unit(uid := uids.pop()):
        host = state.unit(uid)  # the usual pool: models of one unit, looked up in C
        models = host.models
        at = list(map(_INDEX, refs))
        if max(at) < len(models):
            return dict(zip(refs, zip(repeat(host), map(models.__getitem__, at))))
    units: dict[str, Unit | None] = {}
    out: dict[ModelRef, tuple[Unit, Model]] = {}
    for ref in refs:
        uid = ref[0]
        unit = units[uid] if uid in units else units.setdefault(uid, state.unit(uid) if state.has_unit(uid) else None)
        if unit is not None and ref[1] < len(unit.models):
            out[ref] = (unit, unit.models[ref[1]])
    return out


#: One save group of a volley's or strike's wounds (``save_groups``): its key, the models that take its wounds (in
#: order, once each), how many wounds it takes, the words for those models, the purpose of its saves roll, the
#: models its unsaved wounds kill outright with the Strength that does it (Instant Death; usually none), and the other
#: models its unsaved wounds go on to once its own are slain (``_spares``; usually none).
SavesGroup = tuple[SaveGroup, list[ModelRef], int, str, str, Mapping[ModelRef, int], tuple[ModelRef, ...]]


def save_groups(models: dict[ModelRef, tuple[Unit, Model]], pool: Sequence[ModelRef], batches: Sequence[WoundBatch],
                 who: str, reach: Sequence[frozenset[ModelRef]] | None = None,
                 wound_batches: list[list[int]] | None = None) -> list[SavesGroup] | None:
    """Allocate wounds one per model in order (wound k to the k-th living model, round and round) and group them by
    the save they take (a joined character's always apart); None when there is nothing to allocate.

    What ``_saved_wounds`` decides before any save is rolled: it depends only on the models and the wounds.
    ``reach``: each batch's models, when its weapon reaches fewer than the pool (``_spread``);
    ``wound_batches``: given, each group's wounds are appended to it as their batches' indices, in allocation order
    (a carried wound keeps its weapon's Strength, AP and reach: ``carry_over``).
    """
    total = sum(map(_WOUNDS, batches))
    if total == 0:
        return None
    looked = list(map(MODEL_OF, map(models.__getitem__, pool)))  # not is_casualty: wounds taken below W
    alive = list(compress(pool, map(lt, map(WOUNDS_TAKEN_OF, looked), map(PROFILE_WOUNDS_OF, looked))))
    if not alive:
        return None
    spares: dict[tuple[str | None, int | None, int | None], tuple[ModelRef, ...]] = {}
    several = max(map(PROFILE_WOUNDS_OF, looked)) > 1
    if several:  # multi-Wound models: the fewest Wounds left first (``_fewest_left_first``)
        alive = _fewest_left_first(alive, models)
    per_model: dict[ModelRef, Sequence[WoundBatch]]  # wound k goes to the k-th living model, round and round
    one_each = len(batches) == 1 and total <= len(alive)  # one batch, no model taking a second wound
    if one_each:  # the first models in order, a wound each
        per_model = dict(zip(alive[:total], repeat((batches[0],))))
    elif reach is not None:  # the batches' weapons reach different models
        per_model = _spread(alive, batches, reach, _deadly_first(models, alive, batches) if several else None)
        if not per_model:
            return None
    else:
        per_model = {}
        k, n_alive = 0, len(alive)
        dealt = batches if not several or len(batches) == 1 else [batches[i] for i in _deadly_first(models, alive,
                                                                                                       batches)]
        for batch in dealt:
            for _ in range(batch.wounds):
                ref = alive[k % n_alive]
                taking = per_model.get(ref)
                if taking is None:
                    per_model[ref] = [batch]
                else:
                    taking.append(batch)  # type: ignore[attr-defined]  # a list, made just above
                k += 1
    # each save group's wounds, by the model taking each; a group's wounds that kill outright (Instant Death) apart
    groups: dict[tuple[str | None, int | None, int | None], list[ModelRef]] = {}
    hurt = [models[ref][1] for ref in per_model]
    if one_each and len(set(map(UNIT_OF, per_model))) == 1 \
            and len(set(zip(map(_SAVE, hurt), map(_INVULNERABLE, hurt)))) == 1 \
            and not (several and _any_killed_outright(models, per_model, batches[0].strength, hurt)):
        # a wound each on models of one unit with one save (the usual volley): one save group, its save worked out once
        batch, (unit, model) = batches[0], models[alive[0]]
        armour = None if batch.ignores_armour else model.profile.save
        save = best_save(armour, model.profile.invulnerable, batch.ap)
        groups[(unit.id if unit.character is not None else None, save, None)] = list(per_model)
        if wound_batches is not None:
            wound_batches.append([0] * total)
    else:
        index = {id(b): i for i, b in enumerate(batches)}
        by_batch: dict[tuple[str | None, int | None, int | None], list[int]] = {}
        saves: dict[tuple[int | None, int | None, int | None, bool], int | None] = {}  # best_save by its inputs
        weakest = 2 * min(map(TOUGHNESS_OF, looked)) if several else 0  # the Strength that may kill outright

        def key_of(unit: Unit, model: Model, batch: WoundBatch) -> tuple[str | None, int | None, int | None]:
            """The save group a wound of ``batch`` on ``model`` is saved in: its character, save and Instant Death."""
            profile = model.profile
            asked = (profile.save, profile.invulnerable, batch.ap, batch.ignores_armour)
            if asked in saves:
                save = saves[asked]
            else:
                armour = None if batch.ignores_armour else profile.save
                save = saves[asked] = best_save(armour, profile.invulnerable, batch.ap)
            # wounds that would kill this model outright are saved apart, so that each unsaved one is known
            kills = batch.strength if several and batch.strength is not None and batch.strength >= weakest \
                and killed_outright(unit, model, batch.strength) else None
            return unit.id if unit.character is not None else None, save, kills

        for ref, taking in per_model.items():  # the models that take wounds, in allocation order
            unit, model = models[ref]
            for batch in taking:
                key = key_of(unit, model, batch)
                group = groups.get(key)
                if group is None:
                    groups[key] = [ref]
                else:
                    group.append(ref)
                if wound_batches is not None:
                    by_batch.setdefault(key, []).append(index[id(batch)])
        if wound_batches is not None:
            wound_batches += by_batch.values()
        if sum(len(set(wounded)) for wounded in groups.values()) > len(per_model):  # a model in two groups
            spares = _spares(models, alive, batches, per_model, groups, reach, key_of)
    out: list[SavesGroup] = []
    for key, wounded in groups.items():
        character, save, kills = key
        refs = list(dict.fromkeys(wounded))
        names = models[refs[0]][1].name if len(refs) == 1 else f"{len(refs)} models"
        spare = spares.get(key, ())
        outright = NO_KILLS if kills is None else dict.fromkeys((*refs, *spare), kills)
        out.append(((character, save), refs, len(wounded), names, f"{who}: saves ({save}+) for {names}", outright,
                    spare))
    return out


@implements("published.wound-allocation")
def _spares(models: dict[ModelRef, tuple[Unit, Model]], alive: Sequence[ModelRef], batches: Sequence[WoundBatch],
            per_model: Mapping[ModelRef, Sequence[WoundBatch]],
            groups: Mapping[tuple[str | None, int | None, int | None], list[ModelRef]],
            reach: Sequence[frozenset[ModelRef]] | None,
            key_of: Callable[[Unit, Model, WoundBatch], tuple[str | None, int | None, int | None]]
            ) -> dict[tuple[str | None, int | None, int | None], tuple[ModelRef, ...]]:
    """Return, per save group, the other living models its unsaved wounds go on to once its own models are slain:
    those every weapon of the group reaches on which its wounds would be saved alike (the same save, Instant Death
    alike, the same character or none), in the pool's order.

    "For each wound that is not saved, one model is removed" (4th ed., Removing casualties; 3rd edition alike): the
    wounds are shared out before the saves only to roll each against the right save, so an unsaved wound whose model
    a wound of another group slew falls on another model that can take it. Judge round 48: before, it was lost - a
    squad's boltguns and its joined Captain's heavy bolter, their dice rolled apart (40k3.char.shooting-dice,
    40k4.shoot.separate-dice), slew 3 of 5 Boyz with 5 unsaved wounds. Asked only when a model took wounds of two
    groups (else no group's wounds can outlast its own models while another model stands)."""
    index = {id(b): i for i, b in enumerate(batches)}
    of_group: dict[tuple[str | None, int | None, int | None], set[int]] = {}
    for ref, taking in per_model.items():
        unit, model = models[ref]
        for batch in taking:
            of_group.setdefault(key_of(unit, model, batch), set()).add(index[id(batch)])
    out: dict[tuple[str | None, int | None, int | None], tuple[ModelRef, ...]] = {}
    for key, wounded in groups.items():
        own, used = set(wounded), sorted(of_group[key])
        out[key] = tuple(ref for ref in alive if ref not in own
                         and all(reach is None or ref in reach[b] for b in used)
                         and all(key_of(*models[ref], batches[b]) == key for b in used))
    return out


def _any_killed_outright(models: dict[ModelRef, tuple[Unit, Model]], refs: Iterable[ModelRef],
                         strength: int | None, looked: Sequence[Model]) -> bool:
    """Say whether a wound of ``strength`` would kill any of these models (``looked``: theirs, in order) outright
    (``killed_outright``); the Toughnesses are compared first, so that the usual volley asks no more."""
    return strength is not None and strength >= 2 * min(map(TOUGHNESS_OF, looked)) \
        and any(killed_outright(*models[ref], strength) for ref in refs)


@implements("published.wound-allocation")
def _fewest_left_first(alive: list[ModelRef], models: dict[ModelRef, tuple[Unit, Model]]) -> list[ModelRef]:
    """Order the living models of each unit (the units kept in pool order, a joined character apart) by the Wounds
    each has left, fewest first, ties in pool order: wounds go first to the models they can remove whole, a model
    already wounded taking the next wound before a fresh one ("remove whole models where possible"; 4th ed.,
    Removing casualties: one model removed per wound "assuming that the models in the unit have one Wound each").
    Wound k still goes to the k-th model of this order, so each save group's unsaved wounds (``unsaved_taken``)
    slay whole models before wounding another.  Called only when some model of the pool has more than one Wound."""
    rows = [models[ref][1] for ref in alive]
    left = list(map(int.__sub__, map(PROFILE_WOUNDS_OF, rows), map(WOUNDS_TAKEN_OF, rows)))
    if min(left) == max(left):  # every model as whole as the next (a fresh unit of one W): pool order stands
        return alive
    block = {uid: i for i, uid in enumerate(dict.fromkeys(map(UNIT_OF, alive)))}
    at = dict(zip(alive, left))
    return sorted(alive, key=lambda ref: (block[ref[0]], at[ref]))


@implements("published.wound-allocation", "published.instant-death")
def _deadly_first(models: dict[ModelRef, tuple[Unit, Model]], alive: Sequence[ModelRef],
                  batches: Sequence[WoundBatch]) -> list[int]:
    """Return the batches' indices in the order their wounds are dealt: those that would kill a model of the pool
    outright (Instant Death) first, the others after, each kind in its own order.

    The owning player chooses the casualties (published.wound-allocation): a wound that would slay a model of several
    Wounds outright he gives to a model it slays anyway, one with the fewest Wounds left, which the pool's order deals
    to first (a trooper before his joined Captain, a Nob on his last Wound before a fresh one), not to whichever model
    the firers' listing reaches (judge round 38: a Captain slain by a lascannon wound while the Marine beside him took
    a bolter's).  Asked only when some model of the pool has more than one Wound."""
    weakest = 2 * min(TOUGHNESS_OF(models[ref][1]) for ref in alive)

    def deadly(batch: WoundBatch) -> bool:
        strength = batch.strength
        return strength is not None and strength >= weakest and any(killed_outright(*models[ref], strength)
                                                                    for ref in alive)
    late = [not deadly(b) for b in batches]
    return sorted(range(len(batches)), key=late.__getitem__)


@implements("published.wound-allocation")
def _spread(alive: Sequence[ModelRef], batches: Sequence[WoundBatch], reach: Sequence[frozenset[ModelRef]],
            dealt: Sequence[int] | None = None) -> dict[ModelRef, Sequence[WoundBatch]]:
    """Share out wounds whose weapons reach different models: each goes to the model its weapon reaches that has taken
    the fewest so far (the first of them in order), the batch reaching the fewest models first, so that as many
    models as can take one ("each will affect a different model", 4th ed., Removing casualties) before any takes a
    second.  With every batch reaching every model this is ``save_groups``' round and round.  ``dealt``: the batches'
    order among those reaching as many models (``_deadly_first``), else their own."""
    counts = dict.fromkeys(alive, 0)
    taken: dict[ModelRef, list[WoundBatch]] = {}
    for b in sorted(dealt if dealt is not None else range(len(batches)), key=lambda i: len(reach[i])):  # stable
        can = [ref for ref in alive if ref in reach[b]]
        if not can:  # no living model in its weapon's reach: its wounds are lost (``_lost_events``)
            continue
        batch = batches[b]
        for _ in range(batch.wounds):
            ref = min(can, key=counts.__getitem__)  # the first of the fewest
            counts[ref] += 1
            taken.setdefault(ref, []).append(batch)
    return {ref: taken[ref] for ref in alive if ref in taken}


def outright_events(outright: Sequence[tuple[ModelRef, int, int]], models: dict[ModelRef, tuple[Unit, Model]]
                     ) -> list[Event]:
    """Say which models an unsaved wound killed outright (published.instant-death), with the Wounds each lost."""
    return [outright_event(models[ref][1], strength, lost) for ref, strength, lost in outright]


def outright_event(model: Model, strength: int, lost: int, cause: tuple[str, ...] = ()) -> Event:
    """Say that an unsaved wound of ``strength`` killed ``model`` outright (published.instant-death), ``lost``
    Wounds in all; ``cause``: the clause of the hit, cited first where it is no attack's (3rd edition's Perils of the
    Warp: judge round 62)."""
    return Event("instant_death", f"Instant Death: {model.name} (T{model.profile.t}) takes an unsaved wound of "
                 f"S{strength}, double his Toughness or more, and loses all {lost} Wounds he had left",
                 (*cause, INSTANT_DEATH), data=(("model", model.name), ("strength", strength), ("lost", lost)))


def roll_saves(group: SavesGroup, dice: Dice) -> int:
    """Roll a save group's saves (none without a save); return how many are saved."""
    save = group[0][1]
    return 0 if save is None else dice.pool(group[2], save, group[4], "published.saves")


def saves_event(group: SavesGroup, saved: int, rules: tuple[str, ...], rolls: tuple[RollRecord, ...]) -> Event:
    """Say how a save group's wounds were saved."""
    n, unsaved = group[2], group[2] - saved
    kind = "no save" if group[0][1] is None else f"{saved} saved"
    return Event("saves", f"{group[3]}: {n} wound{'s' * (n != 1)}, {kind}, {unsaved} unsaved", rules, rolls)


#: A character's saves against wounds carried onto him (``Carry.saves``): his model, how many, the save, the words
#: for them (his name, the unit the wounds came from); it returns how many he saves.
CarrySaves = Callable[[ModelRef, int, int, str], int]


@dataclass(frozen=True)
class Carry:
    """What the unit's excess wounds need to fall on its joined characters (``carry_over``): the characters' models
    in order, the volley's wound batches, each save group's wounds by batch index (``save_groups``), whether a
    batch's weapon reaches a model, and the character's own saves (rolled, or read again as rolled)."""

    to: Sequence[ModelRef]
    batches: Sequence[WoundBatch]
    wounds: Sequence[Sequence[int]]
    reaches: Callable[[int, ModelRef], bool]
    saves: CarrySaves
    unit: str


@implements("published.wound-allocation", "published.instant-death", "published.saves")
def carry_over(carry: Carry, groups: Sequence[SavesGroup], models: dict[ModelRef, tuple[Unit, Model]],
               excess: Sequence[int], taken: dict[ModelRef, int],
               outright: list[tuple[ModelRef, int, int]] | None = None) -> int:
    """Put the unit's excess unsaved wounds (``excess``: per save group) on its joined characters, adding to
    ``taken``; return how many no character took (lost).  Decisions (published.wound-allocation, judge round 32c):

    - each wound is its weapon's: it falls only on a character that weapon reaches, with its Strength (Instant
      Death, published.instant-death) and its AP;
    - the owning player chooses the casualties: of a group's wounds, those a character can least be hurt by are the
      excess (first those no character is reached by, then those that would not kill one outright);
    - the character takes a wound only through his own save against it (armour against its AP, or invulnerable):
      4th ed., Mixed armour: unsaved wounds go to the models of the armour type that failed them, so a wound his
      own save (the same as the one it failed) cannot stop again is taken unsaved, any other is saved anew
      (published.saves)."""
    batches, reaches = carry.batches, carry.reaches
    to = [ref for ref in carry.to if models[ref][1].profile.w - models[ref][1].wounds_taken - taken.get(ref, 0) > 0]

    def harm(b: int) -> tuple[bool, bool]:
        reached = [ref for ref in to if reaches(b, ref)]
        return bool(reached), bool(reached) and kills_outright(batches[b].strength, models[reached[0]][1].profile.t)

    waiting: list[tuple[int, int | None]] = []  # each carried wound: its batch, and the save it failed last
    for group, batch_of, left in zip(groups, carry.wounds, excess):
        if left:
            waiting += [(b, group[0][1]) for b in sorted(batch_of, key=harm)[:left]]
    for ref in to:
        if not waiting:
            break
        unit, model = models[ref]
        profile = model.profile
        mine = [w for w in waiting if reaches(w[0], ref)]
        if not mine:
            continue
        waiting = [w for w in waiting if not reaches(w[0], ref)]

        def fatal(w: tuple[int, int | None]) -> bool:
            return kills_outright(batches[w[0]].strength, profile.t)

        mine.sort(key=fatal)  # the owning player's choice: the wounds that would not kill him outright first
        unsaved: list[tuple[int, int | None]] = []
        rolled: dict[int, list[tuple[int, int | None]]] = {}
        for b, failed in mine:
            batch = batches[b]
            own = best_save(None if batch.ignores_armour else profile.save, profile.invulnerable, batch.ap)
            if own is None or own == failed:  # no save, or the very save the wound failed: none rolled again
                unsaved.append((b, own))
            else:
                rolled.setdefault(own, []).append((b, own))
        for save, these in rolled.items():
            saved = carry.saves(ref, len(these), save, f"{model.name}, carried from {carry.unit}")
            unsaved += these[:len(these) - saved]  # the owning player saves the deadliest
        unsaved.sort(key=fatal)
        left = profile.w - model.wounds_taken - taken.get(ref, 0)
        for i, (b, _) in enumerate(unsaved):
            if left <= 0:
                waiting += unsaved[i:]
                break
            strength = batches[b].strength
            got = left if killed_outright(unit, model, strength, left) else 1
            if got > 1 and outright is not None and strength is not None:
                outright.append((ref, strength, got))
            taken[ref] = taken.get(ref, 0) + got
            left -= got
    return len(waiting)


def unsaved_taken(groups: Sequence[SavesGroup], models: dict[ModelRef, tuple[Unit, Model]],
                   unsaved: Sequence[int], left_over: list[int] | None = None,
                   outright: list[tuple[ModelRef, int, int]] | None = None,
                   carry: Carry | None = None) -> dict[ModelRef, int]:
    """Share each group's unsaved wounds out: they slay whole models in order, any excess is lost (each group's
    excess appended to ``left_over`` when given: ``_lost_events`` tells it).  A wound that kills its model outright
    (Instant Death: the group's last item) takes all the Wounds it has left (each such model, the Strength and the
    Wounds it lost appended to ``outright`` when given).

    ``carry``: the joined characters that take the unit's own groups' excess (shooting: a joined character is one
    of the unit's models, published.wound-allocation's decision of session 32; ``carry_over``); close combat passes
    none (40k4.cc.no-carry-over)."""
    taken: dict[ModelRef, int] = {}
    if carry is not None:
        spare: list[int] = []
        taken = unsaved_taken(groups, models, unsaved, spare, outright)
        excess = [left if group[0][0] is None else 0 for group, left in zip(groups, spare)]
        lost = carry_over(carry, groups, models, excess, taken, outright) if any(excess) else 0
        if left_over is not None:  # what the carry left of each of the unit's own groups' excess
            carried = sum(excess) - lost
            for group, left in zip(groups, spare):
                if group[0][0] is None and carried:
                    moved = left if left < carried else carried
                    left -= moved
                    carried -= moved
                left_over.append(left)
        return taken
    for group, left in zip(groups, unsaved):
        kills = group[5]
        for ref in (group[1] if not group[6] else chain(group[1], group[6])):  # its own models, then its spares
            if not left:
                break
            model = models[ref][1]
            room = model.profile.w - model.wounds_taken - taken.get(ref, 0)
            if kills and ref in kills and room > 0:  # published.instant-death: one unsaved wound, every Wound left
                taken[ref] = taken.get(ref, 0) + room
                left -= 1
                if outright is not None and room > 1:
                    outright.append((ref, kills[ref], room))
                continue
            got = room if room < left else left
            if got:
                taken[ref] = taken.get(ref, 0) + got
                left -= got
        if left_over is not None:
            left_over.append(left)
    return taken


def apply_wounds(state: GameState, taken: dict[ModelRef, int], remove: bool = True) -> tuple[GameState, list[str]]:
    """Add wounds to models and remove those reduced to 0 Wounds (core.zero.w); return the slain names.

    With ``remove`` False the slain stay (at 0 Wounds) until the end of an Initiative step,
    since blows at one Initiative are simultaneous.
    """
    changed, slain = wounded_units(state, taken, remove)
    return release_orphans(state.replace_units(*changed)), slain


def slain_data(slain: Sequence[str]) -> tuple[tuple[str, Any], ...]:
    """The data of an event that removes ``slain``: how many, and their names.  Facts of the state, not of a roll, so
    a caller of the fast exact enumeration reads them exactly (``RepresentedEvent``), where the words it may not."""
    return ("slain", len(slain)), ("models", tuple(slain))


def casualties(slain: Sequence[str], rules: tuple[str, ...]) -> Event:
    """Name the models slain by wounds (core.zero.w)."""
    return Event("casualties", f"slain: {', '.join(slain)}", ("core.zero.w", *rules), data=slain_data(slain))


@implements("core.zero.w")
def wounded_units(state: GameState, taken: dict[ModelRef, int], remove: bool = True) -> tuple[list[Unit], list[str]]:
    """Return the units with wounds added (``apply_wounds``, not yet in a state) and the slain names: a model whose
    wounds reach its W is removed as a casualty (core.zero.w), here for every volley and strike."""
    slain: list[str] = []
    changed: list[Unit] = []
    hit: dict[str, list[int]] = {}
    for uid, i in taken:
        wounded = hit.get(uid)
        if wounded is None:
            hit[uid] = [i]
        else:
            wounded.append(i)
    for uid, wounded in hit.items():
        unit = state.unit(uid)
        models: list[Model | None] = list(unit.models)
        for i in sorted(wounded):  # the slain named in the unit's order
            m = unit.models[i]
            wounds = m.wounds_taken + taken[(uid, i)]
            if m.profile.w - wounds <= 0:  # is_casualty
                slain.append(m.name)
                if remove:  # removed at once: no new model to build
                    models[i] = None
                    continue
            models[i] = evolve(m, wounds_taken=wounds)
        if remove:  # and any model left at 0 Wounds before
            kept = tuple([m for m in models if m is not None and m.wounds_taken < m.profile.w])
        else:
            kept = tuple(models)  # type: ignore[arg-type]  # no model removed: none is None
        changed.append(evolve(unit, models=kept))
    return changed, slain


@implements("40k4.cc.locked")
def release_orphans(state: GameState) -> GameState:
    """Make a character whose unit was destroyed a unit of its own again (free to join another).

    40k4.char.retinue: once the retinue is destroyed the character may move between units again.
    An ordinary character (40k3.char.kinds) is all that is left of the unit he was deployed in:
    ``last_of`` names it, so a saved game says where he came from.
    40k4.cc.locked: he was locked in his unit's close combat whatever his own status said (a scenario may mark the
    unit alone), so he keeps its lock; the combat's result releases him if no enemy touches him (judge round 61:
    he was shot while a Boy touched him, and refused the consolidation once he had slain his foes).
    """
    dead = {u.id: u for u in state.units if not u.models}
    if not dead:
        return state
    orphans = [evolve(u, joined=None, last_of=u.joined if u.character is CharacterKind.ORDINARY else u.last_of,
                      status=u.status | (dead[u.joined].status & _LOCK))
               for u in state.units if u.joined in dead and u.models]
    return state.replace_units(*orphans) if orphans else state


#: the status a joined character shares with his unit when it is destroyed around him (``release_orphans``)
_LOCK = frozenset({Status.LOCKED})
