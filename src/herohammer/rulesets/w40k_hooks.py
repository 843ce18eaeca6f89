"""Warhammer 40,000 (3rd/4th edition) rules: the hooks each edition sets, at the bottom of the rules' layers.

The 40k rules are one class built in layers, each a module and each only calling the
layers below it: hooks (here) -> wounds -> morale -> shooting -> psychic powers ->
assault -> the combat result -> close combat -> ``CombatRules`` (the phases), which
``Warhammer40k3`` inherits.  4th edition changes them only through the class values and
small methods here (and the combat result's hooks): ``Warhammer40k4`` overrides them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from .. import geometry as geo
from .. import movement
from ..catalogue import implements
from ..dice import Dice
from ..rulings import Event, Ruling
from ..state import GameState
from ..units import Model, Status, Unit, UnitType
from ..weapons import Weapon, WeaponType
from .base import Resolution, Ruleset, rule_keys

ASSAULT_INCHES = 6.0
CAVALRY_ASSAULT_INCHES = 12.0
#: Types that fall back 3D6" instead of 2D6" (published fall back rule).
FAST_TYPES = frozenset({UnitType.CAVALRY, UnitType.BIKE, UnitType.JUMP_INFANTRY})
#: Types difficult terrain does not slow (4th ed. rulebook, Bikes: "Bikes are not slowed down by difficult terrain";
#: Jump Infantry: "Jump infantry fall back 3D6", as they will always use their packs. They may, of course, move over
#: any obstructions when falling back"): the 4th edition's unslowed types in moves and fall backs
#: (``Warhammer40k4.unslowed_types``, read by ``terrain_unslowed`` and ``_fall_back_halved``, published.difficult-terrain).
UNSLOWED_TYPES = frozenset({UnitType.BIKE, UnitType.JUMP_INFANTRY})
#: Types that assault 12" in 3rd edition (3rd ed. rulebook: cavalry, bikes and jump infantry).
ASSAULT_12_TYPES_3RD = FAST_TYPES
#: What coherency asks, as a refusal of a move that would break it says it (``CombatHooks.coherency_rules``).
#: Who re-rolls the dice for difficult terrain, by the first rule ``terrain_reroll_rules`` cites (the events' words).
REROLLERS = {"published.monstrous-creatures": "a Monstrous Creature",
             "40k3.ic.move-through-cover": "an independent character"}
#: said where a member's own rule for difficult terrain is not the moving unit's (``terrain_rules_withheld``)
WITHHELD_WORDS = "; the unit rolls as one, and a rule for difficult terrain some of its members have is not the unit's"
COHERENCY_WORDS = "(every model, the characters who joined it too, within 2\" of another, all connected)"
#: Weapon types whose firing may bar the unit's assault that turn (published.assault-after-firing); Heavy only for
#: a unit that is not a Monstrous Creature (``bars_assault``)
_NO_ASSAULT_TYPES = frozenset({WeaponType.RAPID_FIRE, WeaponType.HEAVY, WeaponType.ORDNANCE})


@implements("published.assault-after-firing")
def bars_assault(unit: Unit, weapon: Weapon, free: frozenset[WeaponType] = frozenset()) -> bool:
    """Say whether ``weapon`` is of a type whose firing bars an assault: Rapid Fire or Ordnance always, Heavy unless
    fired by a Monstrous Creature (the page names Infantry); none of the types ``free`` names (the unit's type's:
    ``ShootingRules.charge_after_firing``, 4th edition bikes). Whether moving first lifts the bar is the edition's
    (``CombatHooks.fire_bars_assault``)."""
    return weapon.type in _NO_ASSAULT_TYPES and weapon.type not in free and not (
        weapon.type is WeaponType.HEAVY and unit.type is UnitType.MONSTROUS_CREATURE)


class CombatHooks(Ruleset):
    """What each edition sets: the rules cited and the small choices 4th edition overrides."""

    # == hooks 4th edition overrides ===============================================
    shooting_dice_rule: ClassVar[str] = "40k3.char.shooting-dice"
    #: 3rd edition: a unit shoots at one enemy unit, and a character who joined it is part of it (40k3.ic.join):
    #: published.shooting decides the same target (its decision); the seed's shooting clause is about his dice
    same_target_rule: ClassVar[str] = "published.shooting"
    assault_alone_rule: ClassVar[str] = "40k3.ic.assault-alone"
    must_assault_rule: ClassVar[str] = "40k3.char.must-assault"
    #: The rule that locks a joined character in its unit's combat (3rd: it assaults with the unit).
    locked_rule: ClassVar[str] = "40k3.char.must-assault"
    #: 4th edition: a joined character is a separate unit in close combat (40k4.cc.separate-unit).
    character_separate_in_combat: ClassVar[bool] = False
    #: The clause that keeps a unit's unsaved wounds off its joined character (3rd: the published allocation only).
    carry_over_rules: ClassVar[tuple[str, ...]] = ()
    #: How a close combat strike's unsaved wounds lost for want of carry-over are said: the unit's past its own models'
    #: Wounds, then a joined character's past his (``{lost}`` wound``{s}`` on ``{uid}``, not onto ``{onto}``).  3rd
    #: edition has no carry-over clause: its reading is published.wound-allocation's (a joined character is one of
    #: the unit's models, dealt his own wounds on his own save, even behind it), so its words say so, not 4th
    #: edition's "never carry over" while the same blows wounded him (judge round 64).
    not_carried_words: ClassVar[tuple[str, str]] = (
        "{lost} wound{s} on {uid} lost: {uid}'s unsaved wounds past its own models' Wounds are not dealt to {onto}, "
        "who joined it: in close combat a joined character takes only the wounds dealt to him, on his own save",
        "{lost} wound{s} on {uid} lost: {uid}'s unsaved wounds past his own Wounds are not dealt to {onto}, the unit "
        "he joined: in close combat its models take only the wounds dealt to them, on their own save")
    #: The clause that spares a character Last Man Standing.
    no_last_man_rule: ClassVar[str] = "40k3.ic.no-last-man"
    #: The clauses on dividing close combat attacks: who may, whom they may hurt, who fights at all.
    allocation_rule: ClassVar[str] = "40k3.char.attack-allocation"
    engaged_only_rule: ClassVar[str] = "40k3.char.allocation-b2b-only"
    #: The clauses that let enemy troopers' blows reach a character, cited by the blows struck at him (4th edition:
    #: only the models engaged with him, 40k4.cc.engaged-only; 3rd edition: models in base contact fight, and a
    #: trooper's attacks go at his opponents, the enemy models in base contact with him, which he divides only as
    #: 40k3.char.attack-allocation lets him - judge round 65: before, they cited the to-hit chart alone).
    struck_character_rules: ClassVar[tuple[str, ...]] = ("published.close-combat", "40k3.char.attack-allocation")
    contact_rule: ClassVar[str] = "published.close-combat"
    allocation_contact_rule: ClassVar[str] = "40k3.char.allocation-b2b-only"
    #: The clause by which a joined character is shot as a target of his own (none in 3rd edition).
    picked_out_rules: ClassVar[tuple[str, ...]] = ()
    #: The clause that keeps a character with its unit while the unit falls back.
    falling_back_rule: ClassVar[str] = "40k3.ic.falling-back"
    #: The clause that keeps a character in coherency with the unit it belongs to.
    coherency_rule: ClassVar[str] = "40k3.char.coherency"

    if TYPE_CHECKING:
        join_rule: ClassVar[str]
        fleet_rule: ClassVar[str]
        locked_with_unit_rules: ClassVar[tuple[str, ...]]
        assault_terrain_factor: ClassVar[Mapping[UnitType, int]]
        unslowed_types: ClassVar[Mapping[str, frozenset[UnitType]]]

        def terrain_unslowed(self, state: GameState, unit: Unit, alone: bool = False, kind: str = "move") -> bool: ...

        def unslowed_moves(self, state: GameState, moves: Sequence[movement.PlannedMove]
                           ) -> list[movement.PlannedMove]: ...

        def difficult_terrain_dice(self, state: GameState, unit: Unit, need: float = 6.0,
                                   alone: bool = False) -> tuple[int, int, str]: ...

        def _dangerous_tests(self, state: GameState, moves: Sequence[movement.PlannedMove],
                             dice: Dice) -> Resolution: ...

        def _own_active(self, state: GameState, unit: Unit) -> Ruling | None: ...

        def out_of_reach_of_fire(self, state: GameState, target: Unit) -> Ruling | None: ...

        def character_target_ruling(self, state: GameState, shooter: Unit, target: Unit) -> Ruling | None: ...

    @implements("40k3.char.coherency", "40k4.ic.join", "published.coherency")
    def coherency_rules(self, members: Sequence[Unit]) -> tuple[str, ...]:
        """Return the rules a unit's coherency is judged by, ``members`` the unit and the characters joined to it: with
        a character, first his clause (he obeys the unit's coherency), so that every move breaking it cites it - a
        run or a consolidation as much as a move (judge round 40: they cited the published rule alone)."""
        return (self.coherency_rule, "published.coherency") if len(members) > 1 else ("published.coherency",)

    #: What barred an assault after firing, as a refusal says it (``fire_bars_assault``).
    assault_bar_words: ClassVar[str] = ("stood still in its Movement phase and fired a Rapid Fire or Heavy weapon in "
                                        "the Shooting phase (3rd edition: a unit that moved may assault after firing "
                                        "them; Assault and Pistol weapons never bar an assault)")

    @implements("published.assault-after-firing")
    def fire_bars_assault(self, unit: Unit, weapon: Weapon, moved: bool) -> bool:
        """Say whether ``unit`` firing ``weapon`` keeps it (and the unit it is part of) from assaulting this turn.

        3rd edition: only a unit that stayed still in its Movement phase to fire Heavy and/or Rapid Fire weapons
        may not assault (an Ordnance weapon counts as Heavy); ``moved``: the firer moved this turn."""
        return not moved and bars_assault(unit, weapon)

    def rapid_fire_shots(self, moved: bool, distance: float, weapon: Weapon) -> int:
        """Return a Rapid Fire weapon's shots (3rd ed.): still, 2 up to half range or 1 up to full; moved, 1 up to half."""
        half = distance <= weapon.range / 2 + geo.EPSILON
        if moved:
            return 1 if half else 0
        return 2 if half else 1

    #: Troop types whose models, entering difficult terrain unslowed, take an accident test instead of a Dangerous Terrain
    #: test: a 1 removes the model (3rd edition cavalry, published.difficult-terrain; none in 4th edition).
    accident_types: ClassVar[frozenset[UnitType]] = frozenset()

    def accident_rules(self, unit: Unit) -> tuple[str, ...]:
        """Cite the rules of an accident test (``accident_types``): the cavalry page's, and the character's clause on
        moving as his type."""
        return ("published.difficult-terrain",)

    def unslowed_tests_words(self, unit: Unit, tested: int) -> tuple[str, tuple[str, ...]]:
        """Say what tests a unit difficult terrain does not slow takes (``tested`` of them), and cite their rules."""
        s = "s" * (tested != 1)
        if unit.type in self.accident_types:
            return f"{tested} test{s}, a 1 removing the model", self.accident_rules(unit)
        return f"{tested} Dangerous Terrain test{s}", ("published.dangerous-terrain",)

    def own_rules(self, unit: Unit) -> frozenset[str]:
        """Return the special rules a unit has of its own, before a join shares or takes any away (the names' keys;
        4th edition adds those every character and its troop type give: ``Warhammer40k4._own_rules``)."""
        return rule_keys(unit.rules)

    def type_rules_cited(self, members: Sequence[Unit], names: frozenset[str]) -> tuple[str, ...]:
        """Cite the clauses by which members have one of the special rules ``names`` for their troop type alone (none
        in 3rd edition)."""
        return ()

    def fires_on_the_move(self, unit: Unit) -> str:
        """Return the rule by which ``unit``'s type fires its Rapid Fire and Heavy weapons after moving as if it stood
        still, and may charge after firing them ("": none; 3rd edition reads no such type)."""
        return ""

    def terrain_reroll_rules(self, state: GameState, unit: Unit, alone: bool = False) -> tuple[str, ...]:
        """Return the rules by which a moving unit re-rolls its difficult terrain dice, each die below the distance
        needed once (``REROLLERS`` names who); none here."""
        return ()

    def terrain_rules_withheld(self, state: GameState, unit: Unit, alone: bool = False) -> tuple[str, ...]:
        """Return the clause by which a member's own rule for difficult terrain is not the moving unit's (none here)."""
        return ()

    def weapons_a_turn(self, unit: Unit) -> int:
        """Return how many weapons each model of ``unit`` fires in a shooting attack (one; 4th edition Monstrous
        Creatures two)."""
        return 1

    def melee_armour_rule(self, unit: Unit) -> str:
        """Return the rule by which no armour save is allowed against a unit's close combat wounds, whatever its weapons
        ("": none; 3rd edition names none)."""
        return ""

    #: Why an ordinary trooper may not split its attacks, as a refusal says it (``trooper_may_split``).
    trooper_split_words: ClassVar[str] = ("ordinary troopers may split their attacks only when their opponents differ "
                                          "in WS or S")

    @implements("40k3.char.attack-allocation")
    def trooper_may_split(self, opponents: Sequence[tuple[str, Model]]) -> bool:
        """Say whether an ordinary trooper may split its attacks, given its own opponents (each enemy model in base
        contact with it, by unit id): 3rd edition, when they differ in WS or S (either one; seed 000)."""
        return len({(m.profile.ws, m.profile.s) for _, m in opponents}) > 1

    def passed_over_as_closest(self, members: Sequence[Unit]) -> bool:
        """Say whether an enemy unit (``members``: it with its joined characters) is passed over in finding a firing
        unit's closest target (40k3.ic.target, 40k4.target.closest): 3rd edition, only a unit locked in close combat,
        which no one may shoot at (published.shooting-into-combat)."""
        return any(x.has(Status.LOCKED) for x in members)

    def fights_near_contact(self, unit: Unit) -> bool:
        """Say whether a model within 2" of a friend in base contact fights (3rd ed.: no, only base contact)."""
        return False

    def combat_morale_modifier(self, margin: int) -> int:
        """Return the Leadership modifier of a close combat Morale check lost by ``margin`` wounds (3rd: none)."""
        return 0

    def combat_result_read(self, caused: tuple[tuple[str, int], ...]) -> Hashable:
        """Return what the combat result reads of the wounds caused: the winner and the Morale modifier of the margin.

        Two fights whose scores read alike here end alike (``_resolve_combat``; its text
        shows the score), so an enumeration merges them before the result.
        """
        if len(caused) != 2 or caused[0][1] == caused[1][1]:
            return None
        (a, x), (b, y) = caused
        return (a if x > y else b), self.combat_morale_modifier(abs(x - y))

    def last_man_spared(self, last: Unit) -> Event | None:
        """Say why a unit newly left with one model takes no Last Man Standing test (None: it takes one).

        3rd edition: an independent character is spared, a unit of its own already (40k3.ic.no-last-man).
        """
        if self.takes_last_man_standing(last.is_independent):
            return None
        return self.character_spared(last)

    @implements("published.last-man-standing")
    def no_last_man_after(self, tested: set[str]) -> set[str]:
        """Return the units a close combat's result spares Last Man Standing, given those that took the loser's
        Morale check (3rd edition: none, the test is taken as well as that check, published.last-man-standing's
        decision; a unit that fell back takes no further check)."""
        return set()

    @implements("published.combat-resolution", "40k3.char.kinds")
    def survivor_tests(self, survivor: Unit, unit_id: str) -> Event:
        """Say why a character who outlived his losing unit takes its Morale check (3rd edition, 40k3.char.kinds: an
        ordinary character was part of the unit from the start and is what is left of it, Last Man Standing to come;
        an independent one fights as a unit of his own)."""
        if survivor.is_independent:
            return Event("combat_result", f"{survivor.id} survives {unit_id} and takes the loser's Morale check as a "
                         "unit of its own", ("published.combat-resolution", "40k3.char.kinds"))
        return Event("combat_result", f"{survivor.id} is what is left of {unit_id} and takes its loser's Morale check",
                     ("published.combat-resolution", "40k3.char.kinds"))

    def character_spared(self, last: Unit) -> Event:
        """The event saying a character left alone takes no Last Man Standing test (its edition's clause)."""
        return Event("last_man", f"{last.id} is the last model but a character never takes Last Man Standing",
                     (self.no_last_man_rule,), data=(("unit", last.id),))

    @implements("40k3.char.move-as-type")
    def move_slowed_rules(self, state: GameState, members: Sequence[Unit]) -> tuple[str, ...]:
        """Name the clause by which a member of a unit moving with its characters is held below its own allowance
        (the move's ruling and event cite it though the move keeps within it): none in 3rd edition, where each
        model moves by its own troop type (40k3.char.move-as-type), a character joined to bikes included."""
        return ()

    @implements("40k3.ic.no-unit-abilities", "published.fall-back")
    def fall_back_slowed_rules(self, members: Sequence[Unit], dice: int) -> tuple[str, ...]:
        """Name the clause by which a joined character holds his unit's fall back to 2D6" where its own models would
        fall back 3D6" (3rd edition: a character who joins cavalry, bikes or jump infantry does not gain their
        ability, 40k3.ic.no-unit-abilities, and falls back with them); none when he does not."""
        if len(members) < 2 or dice > 2 or members[0].type not in FAST_TYPES:
            return ()
        return ("40k3.ic.no-unit-abilities",)

    @implements("40k3.ic.no-unit-abilities")
    def assault_slowed_rules(self, members: Sequence[Unit], reach: float) -> tuple[str, ...]:
        """Name the clause by which a joined character holds his unit's assault to ``reach``, below what the unit's own
        models would assault (none when he does not): in 3rd edition a character who joins cavalry does not gain
        their ability (40k3.ic.no-unit-abilities), so cavalry, bikes or jump infantry with a character on foot assault
        6", as he does."""
        if len(members) < 2 or reach >= CAVALRY_ASSAULT_INCHES or members[0].type not in ASSAULT_12_TYPES_3RD:
            return ()
        return ("40k3.ic.no-unit-abilities",)

    @implements("published.assault-range", "40k3.ic.assault-alone", "40k3.char.move-as-type")
    def assault_range(self, state: GameState, unit: Unit, members: Sequence[Unit]) -> tuple[float, str]:
        """Return how far a unit assaults and the rule deciding it.

        A lone independent character: 6", or 12" if it counts as cavalry (40k3.ic.assault-alone): a character moves
        by the rules of his troop type (40k3.char.move-as-type), and 3rd edition bikes and jump infantry assault 12"
        as cavalry do, so a lone one on a bike or with a jump pack counts as cavalry here (session 28; before, only
        the cavalry type did).  Other units: 12" if every model is cavalry, a bike or jump infantry (3rd ed.), else 6".
        """
        if unit.is_independent and len(members) == 1:  # (an ordinary character left of his unit is that unit)
            reach = CAVALRY_ASSAULT_INCHES if unit.type in ASSAULT_12_TYPES_3RD else ASSAULT_INCHES
            return reach, self.assault_alone_rule
        fast = all(m.type in ASSAULT_12_TYPES_3RD for m in members)
        reach = CAVALRY_ASSAULT_INCHES if fast else ASSAULT_INCHES
        return reach, self.must_assault_rule if len(members) > 1 else "published.assault-range"
