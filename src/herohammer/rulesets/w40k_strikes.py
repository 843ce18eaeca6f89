"""Warhammer 40,000 close combat: who strikes whom, with what and how many attacks.

The layer under the fight (``w40k_close_combat``): a close combat's units and who touches whom
(``Engagement``, once per state), a character's split of his attacks (``allocate``), and the
pools an Initiative step strikes with (``_strikes``: each model's target, weapon, WS, S and
attacks, alike troop units gathered in one pool).  It rolls no dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from functools import partial
from itertools import compress, filterfalse

from .. import geometry as geo
from ..actions import Allocate
from ..catalogue import implements
from ..charts import close_combat_attacks, hit_strength
from ..dice import Dice
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit
from ..values import evolve, keep_bounded
from ..weapons import BARE_HANDS, Weapon, WeaponType, find_weapon
from .base import Resolution
from .engagement import Contacts, Engagement
from .w40k_wounds import ModelRef, MODELS_OF, WEAPONS_OF
from .w40k_combat_result import CombatResultRules

NEAR_CONTACT_INCHES = 2.0
_POOL = "combat pool"  # the key of a unit's models in the order a striker's blows wound them (``_combat_pool``)

#: A pool's key: side, target, WS, S, what takes the armour save away ("" none, ``WEAPON_ARMOUR_OFF`` the weapon, else
#: the id of the rule that does: 4th edition's Monstrous Creatures), whether it strikes apart, who strikes.
StrikeKey = tuple[str, str, int, int, str, bool, str]
#: A pool's armour mark for a weapon that allows no armour save in close combat (a power weapon).
WEAPON_ARMOUR_OFF = "weapon"
Job = tuple[StrikeKey, int, tuple[tuple[str, int], ...]]  # a pool of attacks: who, how many, the models it may hurt
_ID = attrgetter("id")
_ON_TABLE = attrgetter("on_table")
_INITIATIVE = attrgetter("profile.i")
#: A model's WS, read in C (the fight's to-hit reads it too).
WS_OF = attrgetter("profile.ws")
_S = attrgetter("profile.s")
_A = attrgetter("profile.a")


class StrikeRules(CombatResultRules):
    """Who strikes whom in close combat: the combat's units, a character's allocation, an Initiative step's pools."""

    def _contact_units(self, state: GameState, unit_id: str) -> list[str]:
        """Return every unit in the same close combat: linked by base contact, and characters with their units."""
        return list(self._engagement(state, unit_id).units)

    @staticmethod
    def _engagement(state: GameState, unit_id: str) -> Engagement:
        """Return the close combat of a unit with who touches whom in it, worked out once per state.

        Ruling on a fight and resolving it both ask; every step of the fight reads it.
        """
        return state.remember(("close combat", unit_id),
                              lambda: Engagement(state, unit_id, partial(striking_initiative, state)))

    @implements("40k3.char.attack-allocation", "40k3.char.allocation-b2b-only", "40k4.cc.engaged-only", "core.zero.a")
    def rule_allocate(self, state: GameState, action: Allocate) -> Ruling:
        """Rule on splitting attacks between enemy models in base contact.

        A character may always split (40k3.char.attack-allocation); an ordinary trooper only
        when its own opponents - the enemy models in base contact with it - allow it
        (``trooper_may_split``: 3rd edition, when they differ in WS or S, either one; 4th, when
        they belong to more than one enemy unit as well), and then each such model of the unit
        splits its attacks as declared; a model whose own opponents do not allow it strikes as
        it would without a split.
        """
        char = state.unit(action.character)
        if not char.alive:
            return Ruling.forbid(f"{char.id} has no models left", "core.zero.w")
        if not action.attacks:
            return Ruling.forbid("field attacks: nothing allocated; name at least one enemy model (or unit) in base "
                                 "contact and how many attacks go to it, e.g. {\"B1\": 2}",
                                 self.allocation_rule)
        enemies = state.enemies_of(char.side)
        # each model's own opponents, by unit id: whom it may split its attacks between
        opponents = [[(e.id, m) for e in enemies for m in e.models if geo.in_base_contact(m.placed, c.placed)]
                     for c in char.models]
        if not any(opponents):
            return Ruling.forbid(f"{char.id} is not in base contact with any enemy model", self.allocation_contact_rule)
        splitting = [char.is_character or bool(own) and self.trooper_may_split(own) for own in opponents]
        if not any(splitting):
            return Ruling.forbid(f"{char.id} is not a character: {self.trooper_split_words}", self.allocation_rule)
        engaged = [pair for own, may in zip(opponents, splitting) if may for pair in own]
        for key, n in action.attacks.items():
            if n < 1:
                return Ruling.forbid(f"attacks.{key}: expected 1 or more attacks, got {n}", self.allocation_rule)
            if not any(eid == key or m.name == key for eid, m in engaged):
                held = [c.name for c, own in zip(char.models, opponents) if any(eid == key or m.name == key
                                                                               for eid, m in own)]
                if held:
                    return Ruling.forbid(f"attacks.{key}: only {', '.join(held)} of {char.id} "
                                         f"{'is' if len(held) == 1 else 'are'} in base contact with it, and "
                                         f"{'its' if len(held) == 1 else 'their'} own opponents do not let "
                                         f"{'it' if len(held) == 1 else 'them'} split: {self.trooper_split_words}",
                                         self.allocation_rule)
                return Ruling.forbid(f"attacks.{key}: no enemy model of that unit or name is in base contact with "
                                     f"{char.id}; it can wound only those", self.engaged_only_rule)
        have = (sum(self._attacks(state, char, m) for m in char.models) if char.is_character
                else max(self._attacks(state, char, m)  # troopers: per model that may split
                         for m, may in zip(char.models, splitting) if may))
        if have == 0:
            return Ruling.forbid(f"{char.id} has Attacks 0: it makes no close combat attacks, so it has none to split",
                                 "core.zero.a", self.allocation_rule)
        if sum(action.attacks.values()) > have:
            split = sum(action.attacks.values())
            return Ruling.forbid(f"{char.id} splits {split} attack{'s' * (split != 1)} but has {have}",
                                 self.allocation_rule)
        held = [] if char.is_character else [c.name for c, may in zip(char.models, splitting) if not may]
        return Ruling.allow(f"{char.id} splits its {have} attack{'s' * (have != 1)}: "
                            + ", ".join(f"{n} on {k}" for k, n in action.attacks.items())
                            + (f" by the models whose own opponents let them; {', '.join(held)} "
                               f"{'strikes' if len(held) == 1 else 'strike'} as without a split "
                               f"({self.trooper_split_words})" if held else ""),
                            *dict.fromkeys((self.allocation_rule, self.engaged_only_rule)))

    def resolve_allocate(self, state: GameState, action: Allocate, dice: Dice) -> Resolution:
        """Record the split until the character fights."""
        kept = tuple(a for a in state.allocations if a[0] != action.character)
        state = evolve(state, allocations=(*kept, (action.character, tuple(action.attacks.items()))))
        return state, [Event("allocate", f"{action.character} declares its attacks: "
                             + ", ".join(f"{n} on {k}" for k, n in action.attacks.items()),
                             (self.allocation_rule,))]

    @implements("published.close-combat")
    def _attacks(self, state: GameState, unit: Unit, model: Model) -> int:
        """Return a model's close combat attacks: its A, +1 on the turn it charged, +1 for a second single-handed
        weapon (published); Attacks 0 stays 0 (core.zero.a)."""
        base = close_combat_attacks(model.profile.a)
        if not base:
            return 0
        return base + unit.has(Status.CHARGED) + self._second_weapon(state, model.weapons)

    def _second_weapon_notes(self, state: GameState, combat: Iterable[str]) -> list[Event]:
        """Say, per unit of a close combat, which of its models strike with an extra Attack for a second weapon."""
        events = []
        for uid in combat:
            armed = [m.name for m in state.unit(uid).models
                     if close_combat_attacks(m.profile.a) and self._second_weapon(state, m.weapons)]
            if armed:
                events.append(Event("second_weapon", f"{', '.join(armed)} ({uid}) carr{'ies' if len(armed) == 1 else 'y'} "
                                    "two single-handed weapons (a pistol or close combat weapon in each hand): "
                                    "+1 Attack when striking", ("published.close-combat",)))
        return events

    @staticmethod
    def _fixed_initiative_notes(state: GameState, engagement: Engagement) -> list[Event]:
        """Say, per unit of a close combat, which of its models strike at an Initiative their weapon fixes."""
        events = []
        for uid in engagement.units:
            if uid not in engagement.fixed:
                continue
            for m in state.unit(uid).models:
                at = striking_initiative(state, m)
                if m.weapons and at != m.profile.i:
                    weapon = melee_weapon(state, m)
                    events.append(Event("strikes_at", f"{m.name} ({uid}) strikes at Initiative {at} with its "
                                        f"{weapon.name}, whatever its own Initiative of {m.profile.i}",
                                        ("published.initiative",)))
        return events

    @staticmethod
    def _second_weapon(state: GameState, weapons: tuple[str, ...]) -> int:
        """Return the extra Attack of two single-handed weapons (a pistol or a close combat weapon each): 1 or 0.

        Looked up once per set of weapons and the scenario's profiles; a third weapon adds nothing.
        """
        if len(weapons) < 2:
            return 0
        extra = _kept_for_weapons(_SECOND_WEAPON, state, weapons)
        if extra is None:
            hands = sum(find_weapon(name, state.weapons).type in _SINGLE_HANDED for name in weapons)
            extra = _keep_for_weapons(_SECOND_WEAPON, state, weapons, int(hands >= 2))
        return extra

    @implements("published.close-combat", "40k4.cc.separate-unit", "40k4.cc.base-contact")
    def _characters_apart(self, state: GameState, engagement: Engagement) -> list[Event]:
        """Say which joined characters fight as units of their own, and which of them cannot strike (4th ed.).

        3rd edition: a joined character is one of his unit's models, and only models in base contact fight
        (published.close-combat), so one touching no enemy is told he makes no attacks (judge round 54: his blows
        were silently not struck, where the 4th edition's fight said so).
        """
        events: list[Event] = []
        for uid in engagement.units:
            unit = state.unit(uid)
            if not (unit.is_character and unit.joined and unit.alive):
                continue
            touching = any(map(_ON_TABLE, map(state.unit, engagement.touched_units(uid))))
            if not self.character_separate_in_combat:
                if not touching:
                    events.append(Event("character_in_combat", f"{uid} is part of {unit.joined} but makes no "
                                        "attacks: it is not in base contact with an enemy model, and only models in "
                                        "base contact fight", ("published.close-combat",)))
                continue
            events.append(Event("character_in_combat", f"{uid} fights as a unit of its own" + (
                "" if touching else ", and makes no attacks: it is not in base contact with an enemy model"),
                ("40k4.cc.separate-unit", "40k4.cc.base-contact")))
        return events

    def _touching_characters(self, state: GameState, engagement: Engagement) -> dict[int, tuple[tuple[str, str], ...]]:
        """Return the characters' models that touch an enemy model as the fight starts and have Attacks, as (unit id,
        model name) by the Initiative they strike at: ``_foes_gone`` asks of them at their step (one touching none
        from the start is told by ``_characters_apart``)."""
        waiting: dict[int, list[tuple[str, str]]] = {}
        contacts: Contacts | None = None
        for uid in engagement.units:
            unit = state.unit(uid)
            if not (unit.is_character and unit.models):
                continue
            if contacts is None:
                contacts = engagement.now(list(filter(MODELS_OF, map(state.unit, engagement.units))))
            fixed = uid in engagement.fixed
            for i, m in enumerate(unit.models):
                if contacts.of(uid, i) and self._attacks(state, unit, m):
                    level = striking_initiative(state, m) if fixed else m.profile.i
                    waiting.setdefault(level, []).append((uid, m.name))
        return {level: tuple(models) for level, models in waiting.items()}

    @implements("40k4.cc.base-contact", "published.close-combat", "published.initiative")
    def _foes_gone(self, state: GameState, engagement: Engagement, waiting: tuple[tuple[str, str], ...],
                   initiative: int) -> tuple[Event, ...]:
        """Say which of the characters' models that touched an enemy as the fight began and strike at this Initiative
        (``_touching_characters``), still standing, touch none now: the enemy models in base contact with them were
        slain before their step, so they make no attacks - a character "MUST be in base-to-base contact with an enemy
        model in order to fight" (40k4.cc.base-contact; 3rd edition: only models in base contact fight,
        published.close-combat), opponents read as they stand when each strikes. Judge round 68: his blows were not
        struck, and nothing said why."""
        said: list[Event] = []
        contacts: Contacts | None = None
        for uid, name in waiting:
            unit = state.unit(uid)
            at = next((i for i, m in enumerate(unit.models) if m.name == name), None)
            if at is None:  # slain before his step: he does not strike (published.initiative)
                continue
            if contacts is None:
                contacts = engagement.now(list(filter(MODELS_OF, map(state.unit, engagement.units))))
            if not contacts.of(uid, at):
                said.append(Event("character_in_combat", f"{uid} makes no attacks at Initiative {initiative}: the "
                                  f"enemy models in base contact with {name} were slain before it struck, and it "
                                  "touches no other", (self.contact_rule, "published.initiative")))
        return tuple(said)

    @implements("published.close-combat", "40k4.cc.engaged-only", "40k4.cc.separate-unit")
    def _supporters_notes(self, state: GameState, engagement: Engagement) -> list[Event]:
        """Say, in a multiple combat (a unit facing more than one enemy unit, a character among them being a unit of
        his own, 40k4.cc.separate-unit), which units the models that fight for standing within 2" of a friend in base
        contact may strike (``_supported_units``), and which characters they may not (40k4.cc.engaged-only)."""
        units = [u for u in map(state.unit, engagement.units) if u.models]
        if not any(map(self.fights_near_contact, units)):
            return []
        events: list[Event] = []
        contacts, standing = engagement.now(units), {u.id: u for u in units}
        for unit in units:
            foes = [e for e in units if e.side != unit.side]
            if len(foes) < 2 or not self.fights_near_contact(unit):
                continue
            by_targets: dict[tuple[str, ...], list[str]] = {}
            for i, model in enumerate(unit.models):
                if not contacts.of(unit.id, i) and (found := self._supported_units(unit, i, model, contacts, standing)):
                    by_targets.setdefault(tuple(e.id for e in found), []).append(model.name)
            for targets, names in by_targets.items():
                one = len(names) == 1
                barred = [e.id for e in foes if e.is_character and e.id not in targets]
                events.append(Event("supporting", f"{', '.join(names)} ({unit.id}), in base contact with no enemy "
                                    f"model, fight{'s' * one} for standing within 2\" of a friend who is: "
                                    f"{'he' if one else 'they'} may strike only {', '.join(targets)}, the "
                                    f"unit{'s' * (len(targets) > 1)} such a friend touches (multiple combats)" + (
                                        f", not {', '.join(barred)}: only the models engaged with a character may "
                                        "attack him" if barred else ""),
                                    ("published.close-combat", "40k4.cc.separate-unit")
                                    + (("40k4.cc.engaged-only",) if barred else ())))
        return events

    @implements("published.close-combat", "published.initiative")
    def _strikes(self, state: GameState, engagement: Engagement, initiative: int,
                 allocations: dict[str, tuple[tuple[str, int], ...]], arms: dict[tuple[str, ...], Weapon] | None = None
                 ) -> dict[StrikeKey, tuple[int, list[ModelRef]]]:
        """Gather the attacks of models at this Initiative, pooled by side, target, WS, S and weapon.

        ``arms``: the melee weapon of each set of weapons carried, as far as looked up in this fight.
        A troop unit whose models all strike alike (``_alike_strikes``) is gathered at once.
        """
        jobs: dict[StrikeKey, tuple[int, list[ModelRef]]] = {}
        units = list(filter(MODELS_OF, map(state.unit, engagement.units)))
        contacts: Contacts | None = None  # who touches whom now: asked once someone strikes
        standing: dict[str, Unit] = {}
        arms = {} if arms is None else arms  # models that carry the same weapons, looked up once
        separate = self.character_separate_in_combat
        for unit in units:
            if initiative not in engagement.levels[unit.id]:
                continue
            if contacts is None:
                contacts, standing = engagement.now(units), dict(zip(map(_ID, units), units))
            if unit.id not in allocations and not unit.is_character \
                    and self._alike_strikes(state, unit, initiative, engagement, contacts, standing, arms, jobs):
                continue
            attacks: dict[tuple[int, tuple[str, ...]], int] = {}  # a model's attacks by its A and weapons (few kinds)
            strikers: list[tuple[int, Model, int]] = []
            fixed = unit.id in engagement.fixed  # a model's weapon fixes its Initiative (a power fist)
            for i, m in enumerate(unit.models):
                if (striking_initiative(state, m) if fixed else m.profile.i) == initiative:
                    n = attacks.get((m.profile.a, m.weapons))
                    if n is None:
                        n = attacks[(m.profile.a, m.weapons)] = self._attacks(state, unit, m)
                    if n:
                        strikers.append((i, m, n))
            if not strikers:
                continue
            enemies: list[Unit] = []
            creature_armour = self.melee_armour_rule(unit)  # 4th edition: a Monstrous Creature's blows allow none
            split = allocations.get(unit.id)  # checked by rule_allocate: characters, or troopers facing mixed foes
            may_split = self.trooper_may_split
            apart = unit.is_character
            # a trooper touching one enemy unit strikes it with the pool of the first like it (same weapons and
            # profile against the same unit): its attacks are added to that pool at once
            same: dict[tuple[str, tuple[str, ...], int, int], StrikeKey] = {}
            for i, model, n in strikers:
                own = split
                touched: list[ModelRef] | None = None
                if split and not apart:  # a trooper splits only as its own opponents now let it (rule_allocate)
                    touched = contacts.of(unit.id, i)
                    if not may_split([(eid, standing[eid].models[k]) for eid, k in touched]):
                        own = None
                # the usual model touches the models of one enemy unit: the one it attacks
                sole = None if own else contacts.sole_unit(unit.id, i)
                if sole is not None and not apart:
                    like = (sole, model.weapons, model.profile.ws, model.profile.s)
                    if (known := same.get(like)) is not None:
                        have, pool = jobs[known]
                        jobs[known] = (have + n, pool)
                        continue
                if touched is None:
                    touched = contacts.of(unit.id, i) if sole is None or (apart and separate) else []
                if sole is None:
                    enemies = enemies or [e for e in units if e.side != unit.side]
                    counts: dict[str, int] = {}  # enemy models touched, per enemy unit
                    for eid, _ in touched:
                        counts[eid] = counts.get(eid, 0) + 1
                    touching = [e for e in enemies if e.id in counts]
                    supported: list[Unit] = []
                    if not touching:
                        supported = self._supported_units(unit, i, model, contacts, standing)
                        if not supported:
                            continue
                weapon = arms.get(model.weapons)
                if weapon is None:
                    weapon = arms[model.weapons] = melee_weapon(state, model)
                s = hit_strength(model.profile.s, weapon.strength_for(model.profile.s))
                armour_off = creature_armour or (WEAPON_ARMOUR_OFF if weapon.ignores_armour else "")
                if sole is not None:
                    target = standing[sole]
                else:
                    if own:
                        given = 0
                        for key, k in own:
                            pool = [(e.id, k) for e in touching for k, m in enumerate(e.models)
                                    if (e.id == key or m.name == key) and (e.id, k) in touched]
                            k = min(k, n - given)
                            if pool and k > 0:
                                _add(jobs, (unit.side, key, model.profile.ws, s, armour_off, True,
                                            f"{model.name} (split)"), k, pool)
                                given += k
                        n -= given
                        if not n:
                            continue
                    chosen = self._default_target(model, touching, supported, [counts[e.id] for e in touching])
                    if chosen is None:
                        continue
                    target = chosen
                job = (unit.side, target.id, model.profile.ws, s, armour_off, apart,
                       model.name if apart else unit.id)
                if sole is not None and not apart:
                    same[(sole, model.weapons, model.profile.ws, model.profile.s)] = job
                # a character who fights apart (4th ed.: the models engaged with him) or declared a split
                # (40k3.char.allocation-b2b-only: touching him) wounds only those, with the blows left of his split too
                touching_only = apart and (separate or bool(own))
                if job in jobs and not touching_only:
                    _add(jobs, job, n, jobs[job][1])  # the pool is the first striker's: no need to order another
                    continue
                pool = self._combat_pool(state, target, model)
                if touching_only:
                    pool = self._engaged_only(pool, self._engaged_with(pool, touched, contacts, standing)
                                              if separate else touched)
                    if not pool:
                        continue
                _add(jobs, job, n, pool)
        return jobs

    def _alike_strikes(self, state: GameState, unit: Unit, initiative: int, engagement: Engagement,
                       contacts: Contacts, standing: dict[str, Unit], arms: dict[tuple[str, ...], Weapon],
                       jobs: dict[StrikeKey, tuple[int, list[ModelRef]]]) -> bool:
        """Gather a troop unit whose models all strike alike at once, as its models one by one would; say if it did.

        Alike: every model standing has this Initiative, the same weapons, WS and S, and touched
        models of one enemy unit only - the same one - as the fight began, and that unit has lost
        no model since (so each touches it still).  Then every model with attacks strikes that
        unit in one pool: the first model's weapon and pool, the attacks added up.
        """
        models = unit.models
        soles = engagement.start_soles(unit.id)
        if models is not engagement.start_models(unit.id):
            index_of = contacts.index_of(unit.id)
            if index_of is None:
                return False
            soles = tuple(compress(soles, map((0).__le__, index_of)))
        # one pass over the models: the usual unit is alike in every value read here, A and Initiative too
        alike = set(zip(soles, map(WEAPONS_OF, models), map(WS_OF, models), map(_S, models), map(_INITIATIVE, models),
                        map(_A, models)))
        one_a = len(alike) == 1
        fixed = unit.id in engagement.fixed  # a model's weapon fixes its Initiative (a power fist)
        if one_a:
            sole, weapons, ws, _, level, _ = alike.pop()
            if (striking_initiative(state, models[0]) if fixed else level) != initiative:
                return False
        else:
            if len(set(map(_INITIATIVE, models))) != 1 \
                    or (striking_initiative(state, models[0]) if fixed else models[0].profile.i) != initiative:
                return False
            shared = set(zip(soles, map(WEAPONS_OF, models), map(WS_OF, models), map(_S, models)))
            if len(shared) != 1:
                return False
            sole, weapons, ws, _ = shared.pop()
        if sole is None or sole not in standing or standing[sole].models is not engagement.start_models(sole):
            return False
        if one_a:  # one A: each model strikes with the first one's attacks
            each = self._attacks(state, unit, models[0])
            if not each:
                return True
            n, model = each * len(models), models[0]
        else:
            attacks: dict[int, int] = {}
            for a, m in dict(zip(map(_A, models), models)).items():  # once per A
                attacks[a] = self._attacks(state, unit, m)
            n = sum(map(attacks.__getitem__, map(_A, models)))
            if not n:
                return True
            model = models[list(map(bool, map(attacks.__getitem__, map(_A, models)))).index(True)]
        weapon = arms.get(weapons)
        if weapon is None:
            weapon = arms[weapons] = melee_weapon(state, model)
        armour_off = self.melee_armour_rule(unit) or (WEAPON_ARMOUR_OFF if weapon.ignores_armour else "")
        strength = hit_strength(model.profile.s, weapon.strength_for(model.profile.s))  # core.zero.s
        job = (unit.side, sole, ws, strength, armour_off, False, unit.id)
        if job in jobs:
            _add(jobs, job, n, jobs[job][1])  # the pool is the first striker's: no need to order another
        else:
            _add(jobs, job, n, self._combat_pool(state, standing[sole], model))
        return True

    @implements("40k4.cc.base-contact", "40k4.cc.engaged-only", "40k4.cc.separate-unit", "published.close-combat")
    def _supported_units(self, unit: Unit, i: int, model: Model, contacts: Contacts,
                         standing: Mapping[str, Unit]) -> list[Unit]:
        """Return the enemy units model ``i`` of a unit, in base contact with none, may strike for standing within 2"
        of a friend of its unit in base contact: those units that such friends touch (4th ed. rulebook p. 58,
        Multiple Combats: "Models engaged but not in base contact must allocate their attacks against an enemy unit
        that another model from their unit they are within 2" of is in base contact with"). A character is a unit
        of his own there (40k4.cc.separate-unit): the model may strike him only if such a friend touches him, being
        then engaged with him (40k4.cc.engaged-only), and never for his squad being touched. None when the edition
        lets no such model fight (3rd edition: base contact only) or the unit is a character (40k4.cc.base-contact)."""
        if not self.fights_near_contact(unit):
            return []
        found: dict[str, Unit] = {}
        for j, friend in enumerate(unit.models):
            if j == i:
                continue
            touched = contacts.of(unit.id, j)
            if not touched or not geo.within(model.placed, [friend.placed], NEAR_CONTACT_INCHES):
                continue
            for eid, _ in touched:
                if eid not in found:
                    found[eid] = standing[eid]
        return list(found.values())

    @staticmethod
    def _default_target(model: Model, touching: Sequence[Unit], supported: Sequence[Unit],
                        contacts: Sequence[int]) -> Unit | None:
        """Pick the enemy unit a model attacks: of those it touches, the one it touches most (units before
        characters); a model in base contact with none, of the units its friends within 2" touch
        (``_supported_units``), the nearest (units before characters).

        ``contacts``: how many models of each unit in ``touching`` the model touches.
        """
        if touching:
            return max(zip(touching, contacts), key=lambda ek: (not ek[0].is_character, ek[1]))[0]
        return min(supported, key=lambda e: (e.is_character, geo.group_distance([model.placed], e.placed)),
                   default=None)

    @implements("40k4.cc.engaged-only")
    def _engaged_with(self, pool: list[ModelRef], touched: list[ModelRef], contacts: Contacts,
                      standing: Mapping[str, Unit]) -> list[ModelRef]:
        """Return the models of ``pool`` engaged with a character fighting apart: those touching him (``touched``), and
        those in base contact with no enemy that stand within 2" of a friend touching him - the models that may
        strike him (``_supported_units``). The seed's one set: "only the enemy models that are engaged with the
        character may allocate their attacks against it and can be hurt by its attacks" (judge round 52: before, he
        hurt only the models touching him while those beside them struck him)."""
        engaged = list(touched)
        for eid, k in pool:
            if (eid, k) in touched or contacts.of(eid, k) or not self.fights_near_contact(foe := standing[eid]):
                continue
            friends = [foe.models[j].placed for fid, j in touched if fid == eid]
            if friends and geo.within(foe.models[k].placed, friends, NEAR_CONTACT_INCHES):
                engaged.append((eid, k))
        return engaged

    @implements("40k4.cc.engaged-only", "40k3.char.allocation-b2b-only")
    def _engaged_only(self, pool: list[ModelRef], touched: Iterable[ModelRef]) -> list[ModelRef]:
        """Keep the enemy models a character's attacks may hurt: only those engaged with it (4th ed., ``_engaged_with``;
        3rd ed. once he split his attacks, touching him, the blows whose model fell before he struck too: judge round
        49)."""
        return list(filter(set(touched).__contains__, pool))

    def _combat_pool(self, state: GameState, target: Unit, attacker: Model) -> list[ModelRef]:
        """Return the models an attack on ``target`` may wound: 4th ed. never a joined character through its unit."""
        groups = (target,) if self.character_separate_in_combat or target.joined else state.combined(target.id)
        if len(groups) == 1:
            if len(target.models) == 1:  # a lone model (a character fighting apart): nothing to order
                return [(target.id, 0)]
            # the order reads the target unit and the striker's base alone: kept on the unit's value, which stands
            # in every state where the unit has taken no blow since (a later Initiative step's target, as a rule)
            placed = attacker.placed
            return list(target.remember((_POOL, self, placed), lambda: tuple(self._pool_order(
                state, target.id, [placed], with_characters=False))))
        return self._pool_order(state, target.id, [attacker.placed], with_characters=True)


def _add(jobs: dict[StrikeKey, tuple[int, list[ModelRef]]], key: StrikeKey, n: int, pool: list[ModelRef]) -> None:
    have, old = jobs.get(key, (0, pool))
    jobs[key] = (have + n, old if have else pool)


_IS_SHOOTING = attrgetter("is_shooting")


#: A memo of what each set of weapons carried gives, with the scenario's profiles (``_kept_for_weapons``).
WeaponsMemo = dict[tuple[tuple[str, ...], int], tuple[tuple[Weapon, ...], int]]


#: Each set of weapons carried (with the scenario's profiles, ``_kept_for_weapons``): the Initiative its close combat weapon
#: strikes at, 0 for the wielder's own (``striking_initiative``).
_STRIKES_AT: WeaponsMemo = {}


@implements("published.initiative")
def striking_initiative(state: GameState, model: Model) -> int:
    """Return the Initiative a model strikes at: its profile's, or the one its close combat weapon fixes (a power fist
    strikes at 1); the weapon is the first close combat weapon it lists, as the fight's blows use."""
    if not model.weapons:
        return model.profile.i
    at = _kept_for_weapons(_STRIKES_AT, state, model.weapons)
    if at is None:
        at = _keep_for_weapons(_STRIKES_AT, state, model.weapons, melee_weapon(state, model).strikes_at or 0)
    return at or model.profile.i


def melee_weapon(state: GameState, model: Model) -> Weapon:
    """Return the weapon a model strikes with in close combat: its first listed close combat weapon, else its bare
    hands (the user's Strength)."""
    carried = (find_weapon(name, state.weapons, model.name) for name in model.weapons)
    return next(filterfalse(_IS_SHOOTING, carried), BARE_HANDS)


def _kept_for_weapons(memo: WeaponsMemo, state: GameState, weapons: tuple[str, ...]) -> int | None:
    """Return what a set of weapons gives as ``memo`` keeps it for the scenario's profiles, or None: the profiles by
    identity, kept with the value (hashing them would cost more than the look-up)."""
    kept = memo.get((weapons, id(state.weapons)))
    return kept[1] if kept is not None and kept[0] is state.weapons else None


def _keep_for_weapons(memo: WeaponsMemo, state: GameState, weapons: tuple[str, ...], value: int) -> int:
    """Keep what a set of weapons gives for the scenario's profiles (``_kept_for_weapons``) and return it."""
    return keep_bounded(memo, (weapons, id(state.weapons)), (state.weapons, value), 4096)[1]


#: The weapon types a model holds in one hand in close combat: two give an extra Attack (published.close-combat).
_SINGLE_HANDED = frozenset((WeaponType.MELEE, WeaponType.PISTOL))


#: Each set of weapons carried (with the scenario's profiles): its extra Attack, 1 or 0 (``_second_weapon``).
_SECOND_WEAPON: WeaponsMemo = {}

