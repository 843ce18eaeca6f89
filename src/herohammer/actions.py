"""Actions as validated values: what a player asks to do, in the JSON form the commands take.

Each action is a frozen pydantic model with a ``do`` tag, so ``parse_action`` turns a
JSON object into the right type or fails naming the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Mapping
from fractions import Fraction
from itertools import chain
from math import copysign, prod
from typing import Annotated, Any, Literal, Self, TypeGuard, Union, get_args

import yaml
from pydantic import (BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError,
                      ValidationInfo, field_validator)

from .errors import HerohammerError, field_path, in_our_words, unknown_key_problem
from .input_types import Count, Number, Point, not_bool
from .keys_once import object_once, yaml_keys_once
from .values import drop_oldest
from .profiles import CHARACTERISTIC_MAX, CHARACTERISTIC_MIN
from .limits import MAX_ACTION_CHARS, MAX_DEPTH, MAX_NUMBER, LimitError, check_data, check_size


_not_bool = not_bool


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    def __hash__(self) -> int:
        """Hash the class and the fields' values, as a frozen model does, but also for an action with a mapping among
        them (a fight's pursuit choices, a weapon per member, a split of attacks), by its JSON text with the keys
        sorted (equal mappings in another order are equal actions): every action a game offers goes in a set."""
        try:
            return hash((type(self), tuple(self.__dict__.values())))
        except TypeError:
            return hash((type(self), json.dumps(self.model_dump(mode="json"), sort_keys=True)))

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """Build an action from values a ruleset worked out itself, each already what validation would make of it
        (text, floats, tuples of float pairs): the value validation gives, without validating again.

        Listing legal actions proposes dozens of candidates (a move holds a float pair per model,
        each run through a Python check when validated); ``tests/test_trusted_actions.py`` holds
        every candidate of every ruleset to validation.
        """
        defaults = _DEFAULTS.get(cls)
        if defaults is None:
            defaults = _DEFAULTS[cls] = {name: (None if f.is_required() else f.get_default(call_default_factory=True))
                                         for name, f in cls.model_fields.items()}
        action = _new(cls)
        _set(action, "__dict__", {**defaults, **values})  # every field, in the order of the class
        _set(action, "__pydantic_fields_set__", set(values))
        _set(action, "__pydantic_extra__", None)
        _set(action, "__pydantic_private__", None)
        return action

    def updated(self, **values: Any) -> Self:
        """Return the action with these fields changed, each already what validation would make of it: what
        ``model_copy(update=...)`` gives, at a fraction of its cost (the 9th Age reads every charge it rules on through
        ``named_now``, which fills in whether it flies)."""
        action = _new(type(self))
        _set(action, "__dict__", {**self.__dict__, **values})
        _set(action, "__pydantic_fields_set__", self.__pydantic_fields_set__ | values.keys())
        _set(action, "__pydantic_extra__", None)
        _set(action, "__pydantic_private__", None)
        return action

    def to_json(self) -> dict[str, Any]:
        """Return the action as the JSON object it was read from (defaults left out)."""
        return self.model_dump(mode="json", exclude_defaults=True) | {"do": self.do}  # type: ignore[attr-defined]


#: Each action class's fields with their defaults, in order (``_Action.trusted``).
_DEFAULTS: dict[type, dict[str, Any]] = {}
_new, _set = object.__new__, object.__setattr__


class Join(_Action):
    """Move an independent character to ``to`` and join a unit there."""

    do: Literal["join"]
    character: str
    unit: str
    to: Point | None = None
    rank_choice: Literal["widen", "second_rank"] | None = None  # t9a.join.single-rank
    position: Count | None = None  # t9a: which front-rank file to take
    fly: StrictBool = False  # t9a: join by a Flying Movement (published.t9a-fly): its rates, over other units


class Leave(_Action):
    """Move a character out of its unit to ``to``."""

    do: Literal["leave"]
    character: str
    to: Point
    fly: StrictBool = False


class Move(_Action):
    """Move a unit's models to new places, one position per model in file order."""

    do: Literal["move"]
    unit: str
    to: tuple[Point, ...]
    march: StrictBool = False
    fly: StrictBool = False  # t9a: Flying Movement (every model has Fly); 40k units with Fly pass over models anyway
    wheel: Number | None = Field(default=None, ge=-180, le=180)  # t9a: degrees to wheel before moving straight (positive turns left)


class Run(_Action):
    """Run a unit with Fleet D6" in its Shooting phase instead of shooting (40k), towards these places."""

    do: Literal["run"]
    unit: str
    to: tuple[Point, ...]


class Consolidate(_Action):
    """Consolidate D6" with a unit its close combat left free (40k 4th edition, Assault phase), towards these places."""

    do: Literal["consolidate"]
    unit: str
    to: tuple[Point, ...]


class Infiltrate(_Action):
    """Set up a unit of Infiltrators (with its characters) before the first turn (40k Deployment phase)."""

    do: Literal["infiltrate"]
    unit: str
    to: tuple[Point, ...]


class Embark(_Action):
    """Move a unit (with its characters) into a transport vehicle of its side (40k, Movement phase)."""

    do: Literal["embark"]
    unit: str
    transport: str


class Disembark(_Action):
    """Set a unit (with its characters) down from its transport, one ``[x, y]`` per model (40k, Movement phase)."""

    do: Literal["disembark"]
    unit: str
    to: tuple[Point, ...]


class Reform(_Action):
    """Turn a rank-and-file unit about its centre and change its width (t9a, its move for the phase)."""

    do: Literal["reform"]
    unit: str
    facing: Number | None = None
    files: Count | None = Field(None, ge=1)


#: A choice of weapon (``Shoot.weapon``, a charge's reaction weapons): one name for every model of the unit and its
#: characters that carries it, or one per member ({unit or character id: weapon}); None: each model's first listed.
WeaponChoice = str | dict[str, str] | None


class Shoot(_Action):
    """Fire a unit (with the characters in it) at an enemy unit."""

    do: Literal["shoot"]
    unit: str
    target: str
    at: str | None = None  # t9a: a character of the target unit to direct the hits at, where allowed
    #: The weapon fired: one name for every model carrying it, or one per member ({unit or character id: weapon});
    #: none given, each model's first listed that can fire (t9a: published.t9a-shooting-weapons; 40k:
    #: published.weapon-profiles, a model not carrying the one named fires its first listed that can)
    weapon: str | dict[str, str] | None = None


class Manifest(_Action):
    """Use a psychic power."""

    do: Literal["manifest"]
    psyker: str
    power: str
    target: str | None = None


class Cast(_Action):
    """Cast a spell (t9a Magic phase) with some Magic Dice; the reactive player may dispel with some of theirs."""

    do: Literal["cast"]
    unit: str
    spell: str
    target: str
    #: 1 to 5 for one attempt (published.t9a-magic): more is refused by the ruleset, citing the rule
    dice: Annotated[Count, Field(ge=1, le=12)]
    dispel: Annotated[Count, Field(ge=0, le=12)] = 0


class Assault(_Action):
    """Launch an assault (40k) from a unit at an enemy unit."""

    do: Literal["assault"]
    unit: str
    target: str


class Charge(_Action):
    """Declare a charge (t9a), possibly by a character out of its unit."""

    do: Literal["charge"]
    unit: str
    target: str
    wheel: Number | None = Field(default=None, ge=-180, le=180)  # t9a: one wheel (degrees, positive turns left) before the charger moves straight in
    #: t9a: the charged unit's Charge Reaction, its player's choice (published.t9a-charge-reactions); none given:
    #: Flee for a unit already fleeing (published.t9a-flee-reaction), else Stand and Shoot when it may be taken, else Hold
    reaction: Literal["hold", "stand_and_shoot", "flee"] | None = None
    #: t9a: the Shooting Weapon the charged unit's Stand and Shoot uses (published.t9a-shooting-weapons), as a shot's
    #: ``weapon``: one name for every model carrying it, or one per member; none given, each model's first listed
    reaction_weapon: str | dict[str, str] | None = None
    #: t9a: the unit the charger redirects its charge to when its target Flees and it passes a Discipline test
    #: (published.t9a-redirect-charge), and that unit's Charge Reaction (none given: Flee for a unit already fleeing,
    #: else Stand and Shoot when it may be taken, else Hold)
    redirect: str | None = None
    redirect_reaction: Literal["hold", "stand_and_shoot", "flee"] | None = None
    #: t9a: the weapon the redirect's unit Stands and Shoots with, as ``reaction_weapon``
    redirect_reaction_weapon: str | dict[str, str] | None = None
    #: t9a: when the redirect's unit Flees too, the unit the charger then charges, either target (``target`` or
    #: ``redirect``), declared before the Charge Range roll (published.t9a-redirect-charge); none given: ``redirect``
    if_both_flee: str | None = None
    #: t9a: a Flying charge (published.t9a-fly): the Charge Range from the flying Advance Rate, the Charge Move passing
    #: over units and Impassable Terrain; a unit's only when every model in it has Fly, a character charging out of his
    #: unit by his own Fly. None (not given): a charger able to fly flies, one that cannot goes on foot (2022 text,
    #: Fly: "When declaring a Charge with a unit with Fly, you must declare if the unit will not use Flying Movement");
    #: false declares it will not
    fly: StrictBool | None = None


class Allocate(_Action):
    """Split a character's close combat attacks between enemy models in base contact."""

    do: Literal["allocate"]
    character: str
    attacks: dict[str, Count]


class PursuitChoice(BaseModel):
    """A winning unit's choices after its enemy breaks (t9a, published.t9a-pursuit): try to Restrain Pursuit (a
    Discipline test; failed, it pursues anyway), which broken unit in base contact it pursues, and ``facing`` and
    ``files``: the Post-Combat Pivot (a facing alone) or Reform it makes if it passes that test, as a reform names
    them; ``overrun``: a unit that charged makes an Overrun if the fight wipes out every enemy (2D6" straight on)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    restrain: StrictBool = False
    overrun: StrictBool = False
    pursue: str | None = None
    facing: Number | None = None
    files: Count | None = Field(None, ge=1)


class Fight(_Action):
    """Resolve the close combat a unit is in."""

    do: Literal["fight"]
    unit: str
    at: str | None = None  # t9a: an enemy character that the unit's models in base contact with it attack
    #: t9a: the reactive player's choice as ``at``: a character of the active side in this combat that the reactive
    #: side's models in base contact with it attack (published.t9a-to-hit-melee, t9a.join.part-of-unit)
    reactive_at: str | None = None
    duel: str | None = None  # t9a: a character of this combat who issues a Duel before the blows
    accept: str | None = None  # t9a: the enemy character who accepts it (none: the Duel is refused)
    nominate: str | None = None  # t9a: on a refusal, the enemy character who could have accepted and is shamed
    #: t9a: after the active player's Duel is refused, the reactive player's character who issues one, and the
    #: active player's character who accepts it (none: refused too, ``reactive_nominate`` shamed)
    reactive_duel: str | None = None
    reactive_accept: str | None = None
    reactive_nominate: str | None = None
    #: t9a: the order in which the losing side's units take their Break tests, first to test first: the losing
    #: player's choice (published.t9a-break-test); units left out test after, in the state's order
    break_order: tuple[str, ...] | None = None
    #: t9a: per winning unit (either side's, as either may win), its Restrain Pursuit attempt and the broken unit it
    #: pursues (published.t9a-pursuit); a unit left out pursues the first unit that broke in its contact
    pursuit: dict[str, PursuitChoice] | None = None


class Regroup(_Action):
    """Take a Regroup test for a unit that is falling back (40k, Movement phase)."""

    do: Literal["regroup"]
    unit: str
    leadership: Count | None = None  # the player's pick among the unit's values (core.test.leadership-choice)


#: A modifier's value written as text: a whole number, a decimal or a fraction, in plain ASCII digits ("-2", "0.5",
#: "1/2").
_WRITTEN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|[0-9]+/[0-9]+)")


class TestModifier(BaseModel):
    """One modifier to the tested value: set (borrowed), multiply, or add (core.value.used)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    kind: Literal["set", "multiply", "add"]
    value: Annotated[int | str, BeforeValidator(_not_bool)]
    source: str = ""

    @field_validator("value")
    @classmethod
    def _fraction(cls, value: int | str, info: ValidationInfo) -> int | str:
        # a value in text is written in plain digits: Fraction also reads 1_0, 1e400 and other scripts' digits, which
        # were taken without a word (judge round 40 (core))
        if isinstance(value, str) and _WRITTEN_NUMBER.fullmatch(value.strip()) is None:
            raise ValueError(f"expected a whole number or a fraction like 1/2 in plain digits, got {value!r} "
                             "[core.value.used]")
        try:
            number = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError("expected a whole number or a fraction like 1/2") from None
        kind = info.data.get("kind")
        # a set or borrowed value is itself a characteristic, and a multiplier of less than 0 makes none: refused,
        # as a profile's value out of range is, where only what the modifiers make together is clamped (core.value.used)
        if kind == "set" and not (CHARACTERISTIC_MIN <= number <= CHARACTERISTIC_MAX and number.denominator == 1):
            raise ValueError(f"a set or borrowed value is a characteristic, a whole number "
                             f"{CHARACTERISTIC_MIN}..{CHARACTERISTIC_MAX}, got {value} [core.value.used]")
        # a characteristic is a whole number and no rule adds half a point: a fraction added was rounded up unsaid
        # (judge round 36); only a multiplier may be one (x1/2)
        if kind == "add" and number.denominator != 1:
            raise ValueError(f"an addition or subtraction is a whole number (+1, -2), got {value} [core.value.used]")
        if kind == "multiply" and number < 0:
            raise ValueError(f"a multiplier is 0 or more (x2, x1/2, x0), got {value} [core.value.used]")
        return value


class TakeTest(_Action):
    """Take a test a rule (or the judge) calls for: a characteristic test on a D6, or a Leadership test on 2D6.

    The game's own tests (Morale, Regroup, Last Man Standing, psychic tests) are taken by
    the actions that call for them; this action is for the tests the judge calls for from
    a rule the engine does not play (a Pinning weapon, an Initiative test, Terror ...).
    """

    do: Literal["test"]
    unit: str
    characteristic: Literal["WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    kind: Literal["Leadership", "Morale", "Terror", "Fear", "Break", "Panic", "Pinning"] | None = None
    leadership: Count | None = None
    modifiers: tuple[TestModifier, ...] = ()
    unmodified: StrictBool = False  # true or false only, as every true/false field of a scenario (judge round 40)


class Rally(_Action):
    """Take the Rally test of a fleeing unit (t9a, at the start of its player turn, in the Charge phase); ``facing``
    and ``files`` name the Reform it makes at once if it rallies (published.t9a-rally), as a reform names them."""

    do: Literal["rally"]
    unit: str
    facing: Number | None = None
    files: Count | None = Field(None, ge=1)


class EndPhase(_Action):
    """End the active side's current phase."""

    do: Literal["end_phase"]


_ActionUnion = Union[Join, Leave, Move, Run, Consolidate, Infiltrate, Embark, Disembark, Reform, Shoot, Manifest, Cast, Assault, Charge,
                     Allocate, Fight, Regroup, Rally, TakeTest, EndPhase]
Action = Annotated[_ActionUnion, Field(discriminator="do")]
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
#: The classes an ``Action`` may be (for callers handed objects of unknown type), read from the union itself
#: so that a new action kind cannot be left out.
ACTION_TYPES: tuple[type[_Action], ...] = get_args(_ActionUnion)


def is_action(value: object) -> TypeGuard[Action]:
    """Whether ``value`` is an action object (an instance of one of ``ACTION_TYPES``), for a caller handed values of
    unknown type: ``isinstance(value, Action)`` raises ``TypeError``, ``Action`` being the union pydantic reads by
    ``do``, not a class.  A type checker narrows ``value`` to ``Action``; text or a mapping is not an action object
    (``parse_action`` reads it)."""
    return isinstance(value, ACTION_TYPES)

_ACTION_CLASSES: tuple[type[_Action], ...] = ACTION_TYPES
#: Every action's ``do``, in the union's order: read from the classes, so an unknown kind's message names them all.
ACTION_KINDS: tuple[str, ...] = tuple(get_args(t.model_fields["do"].annotation)[0] for t in ACTION_TYPES)


#: Actions already read, by the exact value of the mapping (a bot or a search sends the same actions again and again).
_READ: dict[tuple[Hashable, ...], Action] = {}
_READ_KEPT = 512
#: Tags in a reading key: they stand where JSON's own types differ but Python's values compare equal
#: (``1``, ``1.0`` and ``true``; ``0.0`` and ``-0.0``), and they can appear in no JSON value.
_FLOAT, _NEGATIVE_ZERO, _TRUE, _FALSE, _LIST, _DICT, _PAIRS, _FLOATS = (object() for _ in range(8))
_NUMBERS = frozenset({int, float})
_ONLY_LISTS = frozenset({list})
_ONLY_FLOATS = frozenset({float})
_ONLY_STR = frozenset({str})
_ONLY_PAIRS = frozenset({2})


class _NotPlain(Exception):
    """Raised while keying a mapping that is not plain JSON."""


def _reading_key(value: Any) -> tuple[Hashable, ...] | None:
    """Return a hashable copy of a mapping that is plain JSON (str keys; str, int, float, bool, None, lists), else None.

    Two mappings with equal keys have the same JSON text (every type JSON tells apart is
    tagged, dicts keep their order), so they read as the same action; anything else
    (tuples, subclasses, other keys) is read afresh.  Cheaper than writing and reading the text.
    """
    try:
        return _keyed_dict(value)
    except (_NotPlain, RecursionError):
        return None


def _keyed_dict(value: dict[Any, Any]) -> tuple[Hashable, ...]:
    if not set(map(type, value)) <= _ONLY_STR:
        raise _NotPlain
    texts = tuple(value.values())
    if set(map(type, texts)) <= _ONLY_STR:  # every value a text (a fight's or a shot's ids): the values themselves
        return (_DICT, tuple(value), texts)
    values = list(texts)
    for i, item in enumerate(values):
        if type(item) is not str:  # a text (a unit's id) is its own key
            values[i] = _keyed(item)
    return (_DICT, tuple(value), tuple(values))  # the keys in order, then their values


def _keyed(value: Any) -> Hashable:
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value  # type: ignore[no-any-return]  # a str, an int or None
    if kind is float:
        return (_FLOAT, value) if value or copysign(1.0, value) > 0 else _NEGATIVE_ZERO
    if kind is list:
        kinds = set(map(type, value))
        if kinds == _ONLY_FLOATS and 0 not in value:  # floats and no zero (a join's place): the numbers themselves
            return (_FLOATS, tuple(value))
        if (kinds == _ONLY_LISTS and set(map(len, value)) == _ONLY_PAIRS
                and (types := tuple(map(type, flat := tuple(chain.from_iterable(value))))) and set(types) <= _NUMBERS
                and 0 not in flat):  # a list of [x, y] (a move's places): its numbers with their types, and no zero
            return (_PAIRS, types, flat)  # whose sign would need a look
        return (_LIST, *map(_keyed, value))
    if kind is dict:
        return _keyed_dict(value)
    if kind is bool:
        return _TRUE if value else _FALSE
    raise _NotPlain


def parse_action(value: object, where: str = "action") -> Action:
    """Read an action from JSON or YAML text (``{do: shoot, unit: a, target: b}``) or any mapping, or fail naming the
    field (``where``: the field or option it came from); an action object is returned as it is.

    What ``Game.apply``, ``check`` and ``odds_of_action`` take, read alike.  Anything else is one
    ``HerohammerError``.  A mapping read before (plain JSON with the same text) gives the action already read.
    """
    if type(value) is not dict and not isinstance(value, str):
        if isinstance(value, ACTION_TYPES):
            return value  # type: ignore[return-value]  # one of the action classes
        if isinstance(value, Mapping):  # a read-only mapping: read as its dict
            value = dict(value)
    key = _reading_key(value) if type(value) is dict else None
    if key is not None and (known := _READ.get(key)) is not None:
        return known
    action = _read_action(value, where)
    if key is not None:
        if len(_READ) >= _READ_KEPT:
            drop_oldest(_READ)  # the oldest first (another thread may have dropped it: no error)
        _READ[key] = action
    return action


#: Each action's key by the action object (kept alive here, so its id is its own), for ``action_key``.
_KEYS: dict[int, tuple[Any, Hashable]] = {}
_KEYS_KEPT = 1024


def action_key(action: Action) -> Hashable:
    """Return a key equal for equal actions and only for them (what a game remembers its rulings by).

    Its class and field values, when they are text, whole numbers, flags and non-zero floats
    (alone, in points, in tuples of points): those compare as the JSON text does, but for the
    sign of a zero (``0.0 == -0.0``), which a ruling may print.  Any other action (a zero among
    its numbers, a mapping of attacks, a list of modifiers) is keyed by its JSON text.  Either
    key is worked out once per action object.
    """
    known = _KEYS.get(id(action))  # an action applied again (a search, a replay) is keyed once
    if known is not None and known[0] is action:
        return known[1]
    values = tuple(action.__dict__.values())
    key: Hashable = (type(action), values) if _plain(values) else action.model_dump_json()
    if len(_KEYS) >= _KEYS_KEPT:
        drop_oldest(_KEYS)  # the oldest first (another thread may have dropped it: no error)
    _KEYS[id(action)] = (action, key)
    return key


_SCALARS = frozenset({str, int, bool, type(None)})


def _plain(values: tuple[Any, ...]) -> bool:
    """Say whether an action's values are text, whole numbers, flags, None and floats (alone, in a point, in a tuple of
    points) none of which is zero, signed or not.

    A point's numbers multiplied together are zero when one is (or when the product underflows: then the
    answer is a cautious no).
    """
    for value in values:
        kind = type(value)
        if kind in _SCALARS:
            continue
        if kind is float:
            if not value:
                return False
        elif kind is tuple:
            if not value:
                continue
            first = type(value[0])
            if first is tuple:
                if not all(type(p) is tuple and len(p) == 2 and type(p[0]) is float and type(p[1]) is float
                           for p in value) or not prod(chain.from_iterable(value)):
                    return False
            elif first is not float or len(value) != 2 or type(value[1]) is not float or not prod(value):
                return False
        else:
            return False
    return True


def _read_action(value: str | dict[str, Any] | Any, where: str) -> Action:
    """Read an action (``parse_action`` without its memory)."""
    if isinstance(value, str):
        check_size(len(value), where, MAX_ACTION_CHARS, "characters")
        text = value
        try:
            value = json.loads(text, object_pairs_hook=lambda pairs: object_once(pairs, where))
        except json.JSONDecodeError as exc:
            try:
                yaml_keys_once(text, where)
                value = yaml.safe_load(text)
            except yaml.YAMLError:
                raise HerohammerError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}) nor YAML") from None
            except RecursionError:
                raise LimitError(f"{where}: nested deeper than {MAX_DEPTH} levels (the limit)") from None
        except RecursionError:
            raise LimitError(f"{where}: nested deeper than {MAX_DEPTH} levels (the limit)") from None
        except HerohammerError:  # a key given twice (keys_once)
            raise
        except ValueError:  # Python's limit on converting integers thousands of digits long
            raise LimitError(f"{where}: a number thousands of digits long (more than {MAX_NUMBER:.0e} is refused)") from None
    # any value read, not a mapping alone: text nested past the limit is refused as such even where the interpreter's
    # recursion limit was raised (mypy run in the same process raises it), so that the parser did not stop it
    check_data(value, where)
    if not isinstance(value, dict):
        if isinstance(value, str) and value.strip() in ACTION_KINDS:  # the kind alone: say how to write it as an action
            raise HerohammerError(f"{where}: expected an object: {{do: {value.strip()}, ...}} (YAML) or "
                                  f"{{\"do\": \"{value.strip()}\", ...}} (JSON), not the action's kind alone")
        raise HerohammerError(f"{where}: expected an object like {{\"do\": \"move\", ...}} (JSON) or {{do: move, ...}} (YAML)")
    try:
        return _ADAPTER.validate_python(value)
    except ValidationError as exc:
        errors = exc.errors()
        err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # a misspelt key explains the rest
        # the path as a scenario file's (``to[0][1]``), the action's kind (the union's tag, its first part) left out:
        # the action names it with `do`
        loc = field_path(err["loc"][1:] if len(err["loc"]) > 1 else ()) or "do"
        msg = in_our_words(err)
        if err["type"] == "extra_forbidden" and len(err["loc"]) == 2:
            cls = next((c for c in _ACTION_CLASSES if get_args(c.model_fields["do"].annotation) == (err["loc"][0],)), None)
            msg = unknown_key_problem(str(err["loc"][1]), sorted(cls.model_fields) if cls else [])
        if err["type"] == "union_tag_invalid" or err["type"] == "union_tag_not_found":
            msg = f"expected do: {', '.join(ACTION_KINDS[:-1])} or {ACTION_KINDS[-1]}"
        raise HerohammerError(f"{where}: field {loc}: {msg}") from None
