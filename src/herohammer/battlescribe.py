"""BattleScribe data (``.cat``, ``.gst``, ``.ros`` and their zipped ``z`` forms) read into herohammer's terms.

The community keeps every army of these editions as BattleScribe / New Recruit data
(catalogues and game systems on the BSData GitHub organisation; rosters are what a
player saves from the app).  This module reads those files with defusedxml (no DTDs,
no entities: a hostile file is refused, not expanded), resolves the links a catalogue
uses (``infoLink``, ``entryLink`` to shared entries, also in the game system file
beside it), and turns what it finds into units: models with a profile line herohammer
parses, weapons, special rules, and whether the unit is a character.

Warhammer 40,000 3rd/4th edition profiles are read as printed (WS BS S T W I A Ld Sv).
The 9th Age 2nd edition's characteristics are mapped into the t9a ruleset's profile
(``T9A_MAPPING``; docs/data.md states the mapping).  Every problem with a file is one
``BattleScribeError`` naming the file.
"""

from __future__ import annotations

import lzma
import math
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from . import guards
from .battlescribe_conditions import Node
from .battlescribe_modifiers import modified, modified_cost
from .battlescribe_pricing import catalogue_cost, points_costs, roster_nodes
from .battlescribe_xml import children, local_name
from .battlescribe_values import Read, read_characteristic, read_save, weapon_gives
from .catalogue import implements
from .errors import HerohammerError
from .powers import PowerEffect, find_power
from .profiles import Profile

#: The largest file (after unzipping) read: a real catalogue is a few MB; more is a zip bomb or a mistake.
MAX_BYTES = 64 * 1024 * 1024
ROOTS = {"catalogue": "catalogue", "gameSystem": "game system", "roster": "roster"}
SUFFIXES = (".cat", ".catz", ".gst", ".gstz", ".ros", ".rosz")
#: How deep links and child entries are followed (real data nests a handful deep; a cycle stops here).
MAX_DEPTH = 12
#: How deep a roster's selections may nest (a unit, its models, their wargear: a handful).
MAX_NESTING = 50
FORTY_K = ("WS", "BS", "S", "T", "W", "I", "A", "Ld")
#: The 9th Age 2nd edition characteristic -> the t9a ruleset's characteristic (see docs/data.md).
T9A_MAPPING = {"Adv": "Adv", "Mar": "Mar", "Dis": "Ld", "HP": "W", "Off": "WS", "Res": "T", "Att": "A",
               "Str": "S", "AP": "AP", "Agi": "I", "Arm": "Sv"}
T9A_PARTS = ("Global", "Defensive", "Offensive", "Size")
#: Aim assumed for a T9A model whose data names none (the common 4+ of 2nd edition): BS = 7 - Aim.
T9A_DEFAULT_AIM = 4


class BattleScribeError(HerohammerError):
    """Report a BattleScribe file that cannot be read, naming the file."""

    def __init__(self, path: str | Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True)
class BsWeapon:
    """A weapon profile as the data prints it, and as herohammer's weapon data when it reads as one."""

    name: str
    characteristics: tuple[tuple[str, str], ...]
    data: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    problem: str = ""
    #: A 9th Age missile weapon as the t9a ruleset's table names it (``longbow``, ``longbow S4``); None otherwise.
    missile: str | None = None
    #: A 9th Age Close Combat Weapon as the t9a ruleset names it (``paired weapons``); None otherwise (session 43).
    close_combat: str | None = None
    #: A 40k psychic power the data prints as a weapon profile (3rd edition data's Smite): manifested, not fired
    #: (session 44, ``_psychic_powers``).
    power: bool = False

    @property
    def usable(self) -> str | None:
        """The name a model's ``weapons:`` gives this weapon by, when herohammer can use it (None: it cannot)."""
        if self.power:
            return None
        return self.missile or self.close_combat or (self.name if self.data is not None else None)

    def power_entry(self) -> dict[str, Any] | None:
        """The scenario's ``powers:`` entry of a psychic shooting power printed as a weapon, the data's profile as its
        shot (None: not a power, or one whose effect is not a shot: the bundled one is used)."""
        known = find_power(self.name) if self.power else None
        if known is None or known.effect is not PowerEffect.SHOOTING or self.data is None:
            return None
        return {"name": self.name, "range": self.data["range"], "phase": known.phase.value, "effect": known.effect.value,
                "shooting": {k: v for k, v in self.data.items() if k not in ("name", "range")}}

    def to_json(self) -> dict[str, Any]:
        """Return the weapon as JSON-ready data."""
        out: dict[str, Any] = {"name": self.name, "printed": dict(self.characteristics)}
        if self.data is not None:
            out["herohammer"] = self.data
        elif self.usable is not None:
            out["herohammer"] = self.usable
        if self.problem:
            out["problem"] = self.problem
        if self.power:
            out["power"] = True
        return out


@dataclass(frozen=True)
class BsModel:
    """One model kind of a unit: its profile line (or why it does not read), how many, base and type."""

    name: str
    profile: str
    printed: tuple[tuple[str, str], ...]
    count: int = 1
    base: tuple[float, float] | float | None = None
    troop_type: str = ""
    problem: str = ""
    #: The weapons (``BsWeapon.name``) each of these models carries, as its own roster selection says (with the
    #: unit-wide ones: ``build_unit``); None: the data does not tell the models apart, each carries the unit's.
    weapons: tuple[str, ...] | None = None
    #: The roster selection the models come from (``Boy (selection s-boy1)``), for messages; "" in a catalogue.
    selection: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the model as JSON-ready data."""
        out: dict[str, Any] = {"name": self.name, "count": self.count, "profile": self.profile,
                               "printed": dict(self.printed)}
        if self.base is not None:
            out["base"] = list(self.base) if isinstance(self.base, tuple) else self.base
        if self.troop_type:
            out["type"] = self.troop_type
        if self.weapons is not None:
            out["weapons"] = list(self.weapons)
        if self.problem:
            out["problem"] = self.problem
        return out


@dataclass(frozen=True)
class BsUnit:
    """A unit (catalogue entry or roster selection): models, weapons, special rules, character or not."""

    name: str
    models: tuple[BsModel, ...]
    weapons: tuple[BsWeapon, ...]
    rules: tuple[str, ...]
    categories: tuple[str, ...]
    character: bool
    #: What the import could not do as the data says (a weapon that does not read, one no model is given).
    notes: tuple[str, ...] = ()
    #: The unit (its name) a character was chosen inside in the roster, so fielded joined to it; "" for none.
    joined: str = ""
    #: The unit's points: a roster's as it prices its selections, a catalogue's as the unit comes (its entries'
    #: costs times the numbers it comes with); None when the data gives no cost or one that does not read.
    points: float | None = None
    #: A cost was met that is not a number (a note says which): the points are not said for that reason.
    cost_unread: bool = False

    @property
    def default_weapons(self) -> tuple[str, ...]:
        """Name the weapons herohammer can use (those whose profile reads), of all the unit's models together."""
        return tuple(name for w in self.weapons if (name := w.usable) is not None)

    def model_weapons(self, model: BsModel) -> tuple[str, ...]:
        """Name the weapons herohammer can use that one of ``model`` carries (the unit's when the data does not say)."""
        if model.weapons is None:
            return self.default_weapons
        by_name = {w.name: w for w in self.weapons}
        return tuple(dict.fromkeys(name for carried in model.weapons
                                   if (w := by_name.get(carried)) is not None and (name := w.usable) is not None))

    def to_json(self) -> dict[str, Any]:
        """Return the unit as JSON-ready data."""
        out = {"name": self.name, "character": self.character, "categories": list(self.categories),
               "models": [m.to_json() for m in self.models], "weapons": [w.to_json() for w in self.weapons],
               "rules": list(self.rules)}
        if self.notes:
            out["notes"] = list(self.notes)
        if self.joined:
            out["joined"] = self.joined
        if self.points is not None:
            out["pts"] = self.points
        return out


@dataclass(frozen=True)
class BsFile:
    """What one BattleScribe file holds: its kind, name, game system and units."""

    path: str
    kind: str
    name: str
    game: str
    units: tuple[BsUnit, ...]
    #: A roster's total points as it prices itself (its own ``pts`` cost; None: a catalogue, or not given).
    points: float | None = None

    @property
    def ruleset(self) -> str | None:
        """Guess the herohammer ruleset from the game system's name (None when it is not one of ours)."""
        return ruleset_for(self.game)

    def unit(self, name: str) -> BsUnit:
        """Return a unit by name (case-insensitive), or fail naming the close ones."""
        for u in self.units:
            if u.name.lower() == name.strip().lower():
                return u
        import difflib

        close = difflib.get_close_matches(name, [u.name for u in self.units], n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise BattleScribeError(self.path, f"no unit named {name!r}{hint} ({len(self.units)} units; "
                                "herohammer catalogue FILE lists them)")


def ruleset_for(game: str) -> str | None:
    """Say which ruleset a game system's name means: 40k 3rd/4th edition or The 9th Age."""
    low = game.lower()
    if "9th age" in low or "ninth age" in low or "ninthage" in low or "t9a" in low:
        return "t9a"
    if "40" in low and ("3rd" in low or "third" in low or "3e" in low):
        return "40k3"
    if "40" in low and ("4th" in low or "fourth" in low or "4e" in low):
        return "40k4"
    return None


# == reading files safely ========================================================================
def read_xml(path: str | Path) -> Element:
    """Read a BattleScribe file (zipped or not) into its root element, safely, or fail naming the file."""
    p = Path(path)
    try:
        with p.open("rb") as f:  # no end (/dev/zero, a pipe still writing): read one past the limit
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BattleScribeError(p, f"cannot read the file ({exc.strerror or exc})") from None
    if raw[:2] == b"PK":
        raw = _unzip(p, raw)
    if len(raw) > MAX_BYTES:
        raise BattleScribeError(p, f"larger than {MAX_BYTES // 2**20} MB: not a BattleScribe file")
    import defusedxml.ElementTree as safe_xml  # here: `herohammer rules` imports this module for its mark only
    from defusedxml import DefusedXmlException

    try:
        root: Element = safe_xml.fromstring(raw, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise BattleScribeError(p, f"refused: the XML declares a DTD or entities ({type(exc).__name__}); "
                                "BattleScribe files never do") from None
    except ParseError as exc:
        if p.suffix.lower() in (".yaml", ".yml", ".json"):  # a scenario or plan given where a roster is read
            raise BattleScribeError(p, f"a {p.suffix.lstrip('.').upper()} file, not a BattleScribe one: expected a "
                                    ".cat, .gst or .ros file (or .catz, .gstz, .rosz) as BattleScribe saves it; a "
                                    "scenario names its catalogues under catalogues:") from None
        raise BattleScribeError(p, f"not well-formed XML ({exc})") from None
    except (LookupError, ValueError) as exc:  # expat asks Python for the declared codec: unknown, multi-byte, not text
        declared = _declared_encoding(raw)
        said = f"its XML declaration names encoding {declared!r}, which cannot be read" if declared else \
            f"not readable XML ({exc})"
        raise BattleScribeError(p, f"{said}: BattleScribe saves UTF-8") from None
    kind = local_name(root.tag)
    if kind not in ROOTS:
        raise BattleScribeError(p, f"not a BattleScribe catalogue, game system or roster (root element <{kind}>)")
    if kind == "roster" and (deep := _nested_past(root, MAX_NESTING)) is not None:
        raise BattleScribeError(p, f"selection {deep.get('name', '')!r} (id {deep.get('id', '')!r}) is nested more "
                                f"than {MAX_NESTING} selections deep: not a roster BattleScribe writes (a unit, its "
                                "models and their wargear nest a handful)")
    return root


def _nested_past(root: Element, most: int) -> Element | None:
    """Return a roster's first selection nested more than ``most`` selections deep (None: none is), walked without
    recursion: a hostile roster thousands deep would otherwise overflow the readers of a roster's selections that
    recurse (session 43: a roster priced from its catalogue ended in a RecursionError's traceback).  A catalogue's
    entries are followed only ``MAX_DEPTH`` deep, its modifier groups ``MAX_GROUPS``: read, with a note."""
    stack = [(root, 0)]
    while stack:
        el, depth = stack.pop()
        depth += local_name(el.tag) == "selection"
        if depth > most:
            return el
        stack.extend((child, depth) for child in el)
    return None


def _unzip(p: Path, raw: bytes) -> bytes:
    import io

    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            members = [i for i in z.infolist() if not i.is_dir()]
            if len(members) != 1:
                raise BattleScribeError(p, f"expected one file inside the zip, found {len(members)}")
            if members[0].file_size > MAX_BYTES:
                raise BattleScribeError(p, f"the zipped file unpacks to more than {MAX_BYTES // 2**20} MB")
            with z.open(members[0]) as f:
                data = f.read(MAX_BYTES + 1)
    except BattleScribeError:  # a ValueError: its own words
        raise
    except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, EOFError, OSError, ValueError) as exc:
        # a damaged directory (an offset: "negative seek value") or damaged packed data
        raise BattleScribeError(p, f"a broken zip file ({exc})") from None
    except NotImplementedError as exc:  # a compression method zipfile lacks
        raise BattleScribeError(p, f"a zip file it cannot unpack ({exc}): BattleScribe deflates") from None
    except RuntimeError:  # zipfile's only RuntimeError when reading: a member that needs a password
        raise BattleScribeError(p, "an encrypted zip file (a password is asked): BattleScribe saves them "
                                "unencrypted") from None
    if len(data) > MAX_BYTES:
        raise BattleScribeError(p, f"the zipped file unpacks to more than {MAX_BYTES // 2**20} MB")
    return data


def _declared_encoding(raw: bytes) -> str:
    """The encoding an XML declaration names (what a refusal quotes), or "" if none is found."""
    found = re.match(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([^\"']*)", raw[:200])
    return found.group(1).decode("ascii", "replace") if found else ""


def _index(roots: Iterable[Element]) -> dict[str, Element]:
    index: dict[str, Element] = {}
    for root in roots:
        for el in root.iter():
            ident = el.get("id")
            if ident and ident not in index:
                index[ident] = el
    return index


def _game_system(p: Path, root: Element) -> Element | None:
    """Find the game system file beside a catalogue (its links often point there)."""
    wanted = root.get("gameSystemId")
    return _beside(p, wanted, ("*.gst", "*.gstz")) if wanted else None


def _beside(p: Path, wanted: str, patterns: tuple[str, ...]) -> Element | None:
    """Find the BattleScribe file of id ``wanted`` in the folder of ``p`` (None: there is none)."""
    for candidate in sorted(c for pattern in patterns for c in p.parent.glob(pattern)):
        if candidate.resolve() == p.resolve():
            continue
        try:
            other = read_xml(candidate)
        except BattleScribeError:
            continue
        if other.get("id") == wanted:
            return other
    return None


def _linked_catalogues(p: Path, root: Element) -> list[Element]:
    """Find the catalogues a catalogue links (``catalogueLink``: a shared library of units and wargear) beside it,
    and those they link in turn, as BattleScribe does: 3rd edition's Catachan links Deathworld Veterans, which
    links the Imperial Guard whose Chimera it names (session 40; one level of links refused the file)."""
    found: list[Element] = []
    seen = {root.get("id", "")}
    queue = [root]
    while queue and len(found) < MAX_DEPTH:
        for link in children(queue.pop(0), "catalogueLinks", "catalogueLink"):
            target = link.get("targetId", "")
            if target and target not in seen and (other := _beside(p, target, ("*.cat", "*.catz"))) is not None:
                seen.add(target)
                found.append(other)
                queue.append(other)
    return found


def _check_links(p: Path, root: Element, index: dict[str, Element], system_found: bool) -> None:
    """Refuse a catalogue whose links lead nowhere: what they link (a rule, a profile, a unit's models) would be
    left out without a word, a Librarian read as no character.  Name the first such link and where it points."""
    for el in root.iter():
        if local_name(el.tag) not in ("infoLink", "entryLink"):
            continue
        target = el.get("targetId", "")
        if not target or target in index:
            continue
        link = f"<{local_name(el.tag)} name={el.get('name', '')!r} targetId={target!r}>"
        wanted = root.get("gameSystemId", "")
        if wanted and not system_found:
            raise BattleScribeError(p, f"{link} leads to nothing in this file, and its game system "
                                    f"(gameSystemId {wanted!r}, {root.get('gameSystemName', '') or 'name not given'}), "
                                    "where catalogues keep shared rules and profiles, is not beside it: put its .gst "
                                    "file in the same folder")
        linked = [link_el.get("name", "") or link_el.get("targetId", "")
                  for link_el in children(root, "catalogueLinks", "catalogueLink")]
        also = (f", nor in the catalogues it links ({', '.join(linked)}) or the ones those link, found beside it"
                if linked else "")
        raise BattleScribeError(p, f"{link} leads to nothing in this file or its game system{also}: the data is "
                                "broken or a file it needs is missing")


# == profiles ====================================================================================
def _characteristics(profile: Element) -> tuple[tuple[str, str], ...]:
    return tuple((c.get("name", "").strip(), (c.text or "").strip())
                 for c in children(profile, "characteristics", "characteristic"))


def _number(text: str) -> str:
    """Keep a printed value's number ('5\"' -> '5'; a flyer's ground rate: '2 (9)' and 'Ground 2, Fly 9' -> '2')."""
    text = text.replace('"', "").replace("\u2033", "").strip()
    m = re.match(r"^(\d+)\s*\(", text) or re.match(r"^Ground\s*(\d+)\b", text)  # 'Ground 5, Fly 9' reads 5
    return m.group(1) if m else text


def save_pair(chars: dict[str, str]) -> tuple[str, str] | None:
    """Return (armour, invulnerable) of a save printed with an invulnerable one in it ('2+/5+', '-/4+', '3+/5++',
    '5++': ``read_save``) when the profile has no invulnerable save of its own."""
    by_lower = {k.lower(): v for k, v in chars.items()}
    if by_lower.get("inv", by_lower.get("invulnerable", "")).strip():
        return None
    armour, inv, _ = read_save(by_lower.get("sv", by_lower.get("save", "")))
    return (armour, inv) if inv else None


def forty_k_profile(chars: dict[str, str]) -> tuple[str, str, tuple[Read, ...]]:
    """Write a 40k profile line from printed characteristics; return (line, problem, the reads to note).

    Each characteristic is read by ``read_characteristic`` (a bike's ``T 4(5)`` as T5, a ``S 5(10)`` as S5, each
    said in a note; a rolled ``D6`` refused); a save printed with an invulnerable one in it (``save_pair``:
    '2+/5+', '-/4+', '5++') reads as the armour save and the invulnerable one."""
    by_lower = {k.lower(): v for k, v in chars.items()}
    reads = {name: read_characteristic(name, by_lower.get(name.lower(), "-")) for name in FORTY_K}
    parts = [f"{name}{read.value or '-'}" for name, read in reads.items()]
    notes = tuple(read for read in reads.values() if read.note)
    pair = save_pair(chars)
    armour, own_inv, save_problem = read_save(by_lower.get("sv", by_lower.get("save", "-")))
    parts.append(f"Sv{pair[0] if pair else armour or '-'}")
    if inv := pair[1] if pair else by_lower.get("inv", by_lower.get("invulnerable", "")).strip():
        parts.append(f"Inv{inv.rstrip('+')}+")
    line = " ".join(parts)
    if missing := missing_characteristics(by_lower):
        return line, (f"has no {', '.join(missing)}: not printed in the data (a characteristic left out is not "
                      "read as '-', which is 0)"), notes
    for read in reads.values():
        if read.problem:
            return line, f"does not read as a profile: {read.problem}", notes
    if save_problem:
        return line, f"does not read as a profile: {save_problem}", notes
    if own_inv and not pair:  # a save printed with an invulnerable one beside an Inv of its own: which is meant?
        return line, (f"prints the save {by_lower.get('sv', by_lower.get('save', ''))!r} with an invulnerable one "
                      f"and an invulnerable save {inv!r} of its own: which is meant is not said"), notes
    if no_wounds := _no_wounds("Wounds", by_lower["w"]):
        return line, no_wounds, notes
    return (*_checked(line), notes)


@implements("core.zero.w")
def _no_wounds(name: str, printed: str) -> str:
    """Say why a model printed with Wounds (or Health Points) of 0 is no model to field, or "": it is a casualty,
    removed from the table (core.zero.w), whether printed 0 or '-' / '*' (core.profile.dash)."""
    text = printed.strip()
    if text in ("-", "*"):
        return (f"prints {name} {text!r}, which is 0 (core.profile.dash): a model of 0 Wounds is a casualty, "
                "removed from the table [core.zero.w]")
    if text.isascii() and text.isdigit() and int(text) == 0:
        return f"prints {name} {text!r}: a model of 0 Wounds is a casualty, removed from the table [core.zero.w]"
    return ""


def missing_characteristics(by_lower: dict[str, str]) -> list[str]:
    """Name the 40k characteristics a profile (keys lower-case) does not print (absent or empty), the save as Sv."""
    missing = [name for name in FORTY_K if not by_lower.get(name.lower(), "").strip()]
    return missing + ([] if "sv" in by_lower or "save" in by_lower else ["Sv"])


def t9a_profile(chars: dict[str, str], aim: int | None) -> tuple[str, str]:
    """Write the t9a ruleset's profile line from T9A 2nd edition characteristics (``T9A_MAPPING``)."""
    parts: list[str] = []
    for printed, ours in T9A_MAPPING.items():
        value = _number(chars.get(printed, ""))
        if value and (problem := read_characteristic(printed, value).problem):  # 'Att D6+2': not a silent 0
            return " ".join(parts), f"does not read as a profile: {problem}"
        if ours == "AP" and (not value.isdigit() or int(value) == 0):
            continue  # no Armour Penetration of its own: left out, as a profile without AP reads 0
        if ours == "Sv":
            arm = value if value.isdigit() else "0"
            parts.append(f"Sv{7 - int(arm)}+" if 1 <= int(arm) <= 5 else ("Sv2+" if int(arm) >= 6 else "Sv-"))
        else:
            parts.append(f"{ours}{value or '-'}")
    parts.append(f"BS{7 - (aim or T9A_DEFAULT_AIM)}")
    if no_wounds := _no_wounds("HP", _number(chars.get("HP", ""))):
        return " ".join(parts), no_wounds
    return _checked(" ".join(parts))


def _checked(line: str) -> tuple[str, str]:
    try:
        Profile.parse(line)
    except HerohammerError as exc:
        return line, f"does not read as a profile: {exc}"
    return line, ""


_SHOTS = re.compile(r"(\d+)")
TEMPLATE_RULE = "published.template-weapons"
#: Why a Template weapon (range 'Template': a flamer) is not used: the engine places no template.
TEMPLATE_PROBLEM = ("a Template weapon: herohammer places no template, which would hit every model under it without a "
                    "roll to hit, so the model fires its other weapons; to play it, write a stand-in profile under "
                    f"the scenario's weapons: and give it to the model [{TEMPLATE_RULE}]")


#: Close combat weapons that strike at Initiative 1 by the rulebooks (published.initiative).
_STRIKE_LAST_NAMES = ("power fist", "power klaw")


@implements(TEMPLATE_RULE)
def weapon_data(name: str, chars: dict[str, str]) -> tuple[dict[str, Any] | None, str]:
    """Turn a printed 40k weapon profile into herohammer's weapon data; return (data, problem).

    A Template weapon (range or type ``Template``) is not modelled: None with the reason (published.template-weapons).
    """
    by_lower = {k.lower(): v.strip() for k, v in chars.items()}
    rng = _number(by_lower.get("range", ""))
    strength = by_lower.get("s", by_lower.get("str", by_lower.get("strength", ""))).strip()
    ap = by_lower.get("ap", "-").strip() or "-"
    kind = by_lower.get("type", "").lower()
    if "template" in rng.lower() or "template" in kind:
        return None, TEMPLATE_PROBLEM
    melee = "close combat" in kind or "melee" in kind or rng.lower() in ("", "-", "cc", "close combat", "melee")
    data: dict[str, Any] = {"name": name, "range": 0 if melee else None}
    if melee:
        data["type"] = "melee"
    else:
        # ("Ordinance": the community data's common misspelling of Ordnance, read as the type it names)
        for word, wtype in (("rapid", "rapid_fire"), ("assault", "assault"), ("heavy", "heavy"),
                            ("pistol", "pistol"), ("ordnance", "ordnance"), ("ordinance", "ordnance")):
            if word in kind:
                data["type"] = wtype
                break
        else:
            return None, f"unknown weapon type {by_lower.get('type', '')!r}"
        if not rng.isdigit():
            return None, f"range {rng!r} is not a number of inches"
        data["range"] = int(rng)
        if (m := _SHOTS.search(kind.split("/")[0])) and data["type"] in ("assault", "heavy", "ordnance"):
            data["shots"] = int(m.group(1))
        if "blast" in kind:
            data["blast"] = 3
    from .weapons import strength_change, weapon_from_data

    if melee and (changed := strength_change(strength)) is not None:  # 'x2', 'User +2': the user's, doubled or added to
        data["strength"] = changed
    elif strength.lower() in ("user", "u", "", "as user") or strength.startswith(("+", "x")):
        data["strength"] = "user"
    elif strength.isdigit():
        data["strength"] = int(strength)
    else:
        return None, f"Strength {strength!r} is not a number or User"
    data["ap"] = int(ap) if ap.isdigit() else "-"
    if melee and ("power" in name.lower() or "ignores armour" in kind):
        data["ignores_armour"] = True
    text = " ".join(by_lower.values()).lower()
    if melee and (any(w in name.lower() for w in _STRIKE_LAST_NAMES)
                  or any(w in text for w in ("initiative 1", "strikes last", "strike last"))):
        data["strikes_at"] = 1  # a power fist strikes at Initiative 1 (published.initiative)
    try:
        weapon_from_data(data, f"weapon {name!r}")
    except HerohammerError as exc:
        return None, str(exc)
    return data, ""


def t9a_missile(name: str, chars: dict[str, str]) -> tuple[str | None, str]:
    """Read a printed 9th Age weapon profile as a missile weapon of the t9a ruleset's table; return (name, problem).

    The table (``t9a_charts.MISSILE_WEAPONS``) gives each kind its range and Strength: a weapon is the kind its
    name names (``Sea Guard Longbow`` a ``longbow``, the longest kind named), its printed Strength written as
    ``longbow S4`` when it is not the table's ("As user", the table's for Throwing Weapons, is the thrower's own at
    play). A printed range other than the table's is refused (the ruleset
    would shoot at the table's), as is a weapon that names no kind or has no range (a close combat weapon).
    """
    from .t9a_charts import MISSILE_WEAPONS

    by_lower = {k.lower(): v.strip() for k, v in chars.items()}
    rng = _number(by_lower.get("range", ""))
    if not rng.isdigit():
        return None, "T9A weapon: no range, not a missile weapon (listed, not used by the t9a ruleset)"
    low = name.lower()
    kinds = [k for k in MISSILE_WEAPONS if re.search(rf"\b{re.escape(k)}\b", low)]
    if not kinds:
        return None, (f"T9A missile weapon {name!r} names none of the t9a ruleset's kinds "
                      f"({', '.join(MISSILE_WEAPONS)}): listed, not used")
    kind = max(kinds, key=len)
    table_range, table_strength, table_ap = MISSILE_WEAPONS[kind]
    if float(rng) != table_range:
        return None, (f"T9A weapon {name!r}: range {rng}\" is not the {kind}'s {table_range:g}\" of the t9a "
                      "ruleset's table: listed, not used")
    strength = _as_user(_number(by_lower.get("str", by_lower.get("s", by_lower.get("strength", "")))))
    if strength and not strength.isdigit():
        return None, f"T9A weapon {name!r}: Strength {strength!r} is not a number: listed, not used"
    ap = _as_user(_number(by_lower.get("ap", "")))
    if ap and not ap.isdigit():
        return None, f"T9A weapon {name!r}: Armour Penetration {ap!r} is not a number: listed, not used"
    named = kind if not strength or int(strength) == table_strength else f"{kind} S{int(strength)}"
    return (named if not ap or int(ap) == table_ap else f"{named} AP{int(ap)}"), ""


@implements("published.t9a-close-combat-weapons")
def t9a_close_combat(name: str) -> str | None:
    """Return the t9a ruleset's Close Combat Weapon a 9th Age weapon or option is, by its name (``Paired Weapons``:
    ``paired weapons``), or None.  The community's catalogues give them as options of these names, with a weapon
    profile of no range or a rule link only (session 43: dropped, so a unit chosen with Paired Weapons fought
    without them); a name that only contains one (``Paired Axes``) is not taken for it, nor the Hand Weapon, which
    every model has without a word."""
    from .rulesets.t9a_weapons import HAND_WEAPON, close_combat_weapons

    key = name.strip().lower()
    return key if key in close_combat_weapons() and key != HAND_WEAPON else None


def _chosen_weapon(selection: Element) -> str:
    """Name the 9th Age Close Combat Weapon a roster's selection is without a weapon profile of its own: by its
    name (``Paired Weapons``) or a rule it carries (``Paired Axes`` with the rule Paired Weapons); "" for none."""
    profiles = {p.get("name", "").strip().lower() for p in children(selection, "profiles", "profile")}
    profiles |= {link.get("name", "").strip().lower() for link in children(selection, "infoLinks", "infoLink")
                 if link.get("type") == "profile"}
    names = [selection.get("name", ""), *(r.get("name", "") for r in children(selection, "rules", "rule")),
             *(link.get("name", "") for link in children(selection, "infoLinks", "infoLink")
               if link.get("type") == "rule")]
    found = [n.strip() for n in names if t9a_close_combat(n) is not None]
    return found[0] if found and not profiles & {n.lower() for n in found} else ""


def _as_user(printed: str) -> str:
    """A printed "As user" (Throwing Weapons' Strength and AP) is no value of the weapon's own: empty."""
    return "" if printed.strip().lower() in ("as user", "user") else printed


# == walking entries =============================================================================
@dataclass(frozen=True)
class _Owner:
    """A roster's model selection: what its profiles and weapons belong to."""

    name: str
    ident: str
    number: int

    @property
    def words(self) -> str:
        return f"{self.name} (selection {self.ident})" if self.ident else self.name


@dataclass(frozen=True)
class _Seen:
    """A profile as the walk met it: name, type, characteristics, how many, whose and how many its selection has."""

    name: str
    type_name: str
    chars: tuple[tuple[str, str], ...]
    count: int
    #: The index of the roster model selection it lies in (``_Found.owners``), -1 outside any (unit level).
    owner: int = -1
    #: The ``number`` of the nearest roster selection holding it (a weapon's: how many of the owner's models carry it).
    held: int = 1
    #: The catalogue entry it was met in below the unit's own (None: the unit's entry): tells two entries apart.
    entry: Element | None = field(default=None, compare=False)


@dataclass
class _Found:
    profiles: list[_Seen] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    owners: list[_Owner] = field(default_factory=list)
    #: What reading the profiles could not do as the data says (a modifier under a condition, not applied).
    notes: list[str] = field(default_factory=list)
    #: A roster unit's points, its selections' ``pts`` added up (None: the roster prices none, or a cost did not read).
    points: float | None = None
    #: A cost that did not read was met: the points stay unsaid.
    unpriced: bool = False
    #: Why a roster selection's ``number`` does not read, by the model selection it is in (``owners``; -1: the unit).
    bad_numbers: dict[int, str] = field(default_factory=dict)


class _Reader:
    """Walk a file's entries (or a roster's selections), following links through the index."""

    def __init__(self, path: str, root: Element, index: dict[str, Element]) -> None:
        self.path = path
        self.root = root
        self.index = index
        #: Selections read as units of their own (a character chosen inside a squad's selection): not the squad's.
        self.apart: set[int] = set()
        #: A roster's catalogues (read when a selection has no cost of its own) and its selections as nodes.
        self._catalogue: tuple[dict[str, Element] | None, str] | None = None
        self._nodes: dict[int, Node] | None = None
        #: The ruleset the file is for (a 9th Age roster's Close Combat Weapons are read by name: ``walk``).
        self.ruleset: str | None = None

    def resolve(self, link: Element) -> Element | None:
        target = link.get("targetId")
        return self.index.get(target) if target else None

    def tree(self, entry: Element, number: int = 1, parent: Node | None = None, depth: int = 0) -> Node:
        """Return a catalogue entry as the unit comes with it, the entries it must take under it, as ``walk`` meets
        them: what a modifier's conditions are decided on (``battlescribe_conditions``)."""
        node = Node(entry, number, parent)
        if depth < MAX_DEPTH:
            node.kids = [self.tree(child, number, node, depth + 1) for child, number in self._child_entries(entry)]
        return node

    def walk(self, entry: Element, found: _Found, count: int, depth: int = 0, owner: int = -1, held: int = 1,
             node: Node | None = None) -> None:
        """Collect the profiles, rules and categories of an entry and the entries under it.

        In a roster each profile is told which model selection (``type="model"``) it lies in, if any, and the
        ``number`` of the selection that holds it: what ``build_unit`` arms each model by.  In a catalogue
        ``node`` is the entry as the unit comes (``tree``), and each entry's cost is counted ``count`` times.
        """
        if depth > MAX_DEPTH:
            return
        if local_name(entry.tag) == "selection":
            held = _count(entry)
            self.add_points(entry, found)
            if entry.get("type") == "model":
                owner = len(found.owners)
                found.owners.append(_Owner(entry.get("name", "?").strip(), entry.get("id", ""), held))
            if (problem := _number_problem(entry)) and owner not in found.bad_numbers:
                found.bad_numbers[owner] = problem
        else:
            self.add_points(entry, found, count, node)
        if self.ruleset == "t9a" and local_name(entry.tag) == "selection" and (weapon := _chosen_weapon(entry)):
            found.profiles.append(_Seen(weapon, "Weapon", (), count, owner, held))
        for prof in children(entry, "profiles", "profile"):
            found.profiles.append(_Seen(prof.get("name", "").strip(), prof.get("typeName", ""),
                                        self._chars(prof, (prof,), found, node), count, owner, held,
                                        entry if depth else None))
        for rule in children(entry, "rules", "rule"):
            found.rules.append(rule.get("name", "").strip())
        for link in children(entry, "infoLinks", "infoLink"):
            target = self.resolve(link)
            kind = link.get("type", "")
            if target is None:
                continue
            if kind == "profile":
                found.profiles.append(_Seen(target.get("name", "").strip(), target.get("typeName", ""),
                                            self._chars(target, (target, link), found, node), count, owner,
                                            held, entry if depth else None))
            elif kind == "rule":
                found.rules.append(str(link.get("name") or target.get("name", "")).strip())
        for cat in (*children(entry, "categoryLinks", "categoryLink"), *children(entry, "categories", "category")):
            target = self.resolve(cat)
            if target is None:
                target = self.index.get(cat.get("entryId", ""))
            found.categories.append((target.get("name", "") if target is not None else cat.get("name", "")).strip())
        kids = node.kids if node is not None else []
        for k, (child, number) in enumerate(self._child_entries(entry)):
            self.walk(child, found, count * number, depth + 1, owner, held, kids[k] if k < len(kids) else None)

    def add_points(self, selection: Element, found: _Found, times: int = 1, node: Node | None = None) -> None:
        """Add a selection's points (its ``pts`` cost) to what ``found`` has: a roster's, for all of its ``number``
        (BattleScribe writes each selection's own; the roster's own is its total), or a catalogue entry's, for one,
        ``times`` over (the number the unit comes with), with its modifiers of the cost that hold for the unit as it
        comes (``node``; the others noted).  A roster's selection without a cost is priced from its catalogue entry
        (``_from_catalogue``).  A cost that is not a number leaves the points unsaid, with a note."""
        costs = points_costs(selection)
        if not costs and local_name(selection.tag) == "selection" and not found.unpriced:
            self._from_catalogue(selection, found)
        for cost in costs:
            if found.unpriced:
                continue
            value = cost.get("value", "").strip()
            if node is not None:
                value, notes = modified_cost(selection, cost, node, self.index)
                found.notes.extend(notes)
            self._add(selection, value, found, times)

    @staticmethod
    def _add(selection: Element, value: str, found: _Found, times: int) -> None:
        if not re.fullmatch(r"-?\d+(\.\d+)?", value):
            what = "selection" if local_name(selection.tag) == "selection" else "entry"
            found.notes.append(f"{selection.get('name', '?').strip()} ({what} {selection.get('id', '')}): cost "
                               f"{value!r} is not a number: the unit's points are not said")
            found.unpriced, found.points = True, None
        else:
            found.points = (found.points or 0.0) + float(value) * times

    def _from_catalogue(self, selection: Element, found: _Found) -> None:
        """Price a roster's selection that carries no cost from its catalogue entry, for all of its ``number``
        (``battlescribe_pricing``); without its catalogue beside the roster it adds nothing (``unpriced_note``
        says so of a unit the roster prices nothing of)."""
        index, missing = self.catalogue()
        if index is None:
            return
        if self._nodes is None:
            self._nodes = roster_nodes(self.root, {id(el): _count(el) for el in self.root.iter()
                                                   if local_name(el.tag) == "selection"}, index, missing)
        value, notes = catalogue_cost(selection, self._nodes.get(id(selection)), index, missing)
        found.notes.extend(notes)
        if value is not None:
            self._add(selection, value, found, _count(selection))
        elif notes:
            found.unpriced, found.points = True, None

    def unpriced_note(self, name: str, found: _Found) -> None:
        """Say that a roster unit none of whose selections has a cost is not priced, where the roster prices others
        and its catalogue is not beside it to price this one from (a roster pricing nothing says so as a whole)."""
        if found.points is None and not found.unpriced and any(points_costs(el) for el in self.root.iter()):
            found.notes.append(f"{name}: no cost in the roster for the unit or its selections, and "
                               f"{self.catalogue()[1]}: its points are not said")

    def catalogue(self) -> tuple[dict[str, Element] | None, str]:
        """Return a roster's catalogues (read once, when a selection has no cost of its own), or None and why."""
        if self._catalogue is None:
            self._catalogue = self._roster_catalogue()
        return self._catalogue

    def _roster_catalogue(self) -> tuple[dict[str, Element] | None, str]:
        """Read the catalogues a roster's forces name (``catalogueId``) from beside it, with their game systems and
        the catalogues they link; None and which is missing when one is not there."""
        p = Path(self.path)
        roots: list[Element] = []
        for force in (el for el in self.root.iter() if local_name(el.tag) == "force"):
            wanted = force.get("catalogueId", "")
            cat = _beside(p, wanted, ("*.cat", "*.catz")) if wanted else None
            if cat is None:
                return None, (f"its catalogue {force.get('catalogueName', '') or wanted or 'not named'!r} "
                              f"(catalogueId {wanted!r}) is not beside it to price it from")
            system = _game_system(p, cat)
            roots += [cat, *([system] if system is not None else []), *_linked_catalogues(p, cat)]
        return (_index(roots), "") if roots else (None, "the roster names no catalogue (no force)")

    def _chars(self, profile: Element, holders: tuple[Element, ...], found: _Found,
               node: Node | None) -> tuple[tuple[str, str], ...]:
        """Read a profile's characteristics with the modifiers that hold applied, the others noted."""
        chars, notes = modified(profile, holders, _characteristics(profile), self.index, node)
        found.notes.extend(notes)
        return chars

    def _child_entries(self, entry: Element) -> Iterator[tuple[Element, int]]:
        """Yield the entries under an entry that come with it, each with how many: a roster's selections (their
        ``number``), a catalogue's models and options of a minimum (at it), and of a group those ``_group_entries``
        takes (3rd edition's Slugga Boyz: a group of at least ten whose default is the Slugga Boy; session 41: one
        was read, priced at one Boy's 9 points)."""
        for c in children(entry, "selections", "selection"):  # a roster: what was chosen
            if id(c) not in self.apart:
                yield c, _count(c)
        for child in children(entry, "selectionEntries", "selectionEntry"):
            if _included(child):
                yield child, _count(child)
        for group in children(entry, "selectionEntryGroups", "selectionEntryGroup"):
            yield from self._group_entries(group)
        for link in children(entry, "entryLinks", "entryLink"):
            target = self.resolve(link)
            if target is not None and local_name(target.tag) == "selectionEntry" and (
                    _included(link) or target.get("type") == "model"):
                yield target, _count(target)

    def _group_entries(self, group: Element) -> Iterator[tuple[Element, int]]:
        """Yield the entries of a group that come with the unit: those of a minimum of their own, at it, and the
        group's default filling the group's minimum the others leave (five Scouts: four Scouts and the default
        Sergeant; one when the group has no minimum); the group's other entries are alternatives, not taken
        (session 41: a Veteran Sergeant offered beside the Sergeant was taken too)."""
        members = [(c, c) for c in children(group, "selectionEntries", "selectionEntry")]
        members += [(link, target) for link in children(group, "entryLinks", "entryLink")
                    if (target := self.resolve(link)) is not None]
        default = group.get("defaultSelectionEntryId")
        own = [(el, target, max(_minimum(el), _minimum(target))) for el, target in members]
        least = _minimum(group)
        rest = least - sum(n for el, _, n in own if el.get("id") != default)
        for el, target, n in own:
            number = (max(n, rest) if least else max(n, 1)) if el.get("id") == default else n
            if number >= 1:
                yield target, number


def _count(el: Element) -> int:
    """How many of an entry a unit has: a roster's ``number``, or a catalogue entry's minimum (at least 1)."""
    if local_name(el.tag) == "selection":
        try:
            return max(1, int(float(el.get("number", "1"))))
        except (ValueError, OverflowError):  # not a number, or "1e400": read as one (a huge one the limits refuse)
            return 1
    return max(1, _minimum(el))


def _number_problem(selection: Element) -> str:
    """Say why a roster selection's ``number`` is not how many were chosen (a whole number of at least 1), or ""."""
    text = selection.get("number", "1").strip()
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if math.isfinite(number) and number >= 1 and number == int(number):
        return ""
    return (f"does not read: its selection's number {text!r} is not a whole number of at least 1 (how many of it "
            "the player chose)")


def _minimum(el: Element) -> int:
    for c in children(el, "constraints", "constraint"):
        if c.get("type") == "min" and c.get("field") == "selections" and c.get("scope") == "parent":
            try:
                return int(float(c.get("value", "0")))
            except (ValueError, OverflowError):
                return 0
    return 0


def _included(el: Element) -> bool:
    """Say whether a catalogue option comes with the unit: a model, or an upgrade with a minimum of one."""
    return el.get("type") == "model" or _minimum(el) >= 1 or local_name(el.tag) == "selection"


# == units =======================================================================================
def _is_model_profile(chars: dict[str, str]) -> bool:
    keys = {k.lower() for k in chars}
    return {"ws", "bs", "s", "t", "w"} <= keys


def _is_weapon_profile(chars: dict[str, str]) -> bool:
    keys = {k.lower() for k in chars}
    return "range" in keys and ({"s", "str", "strength"} & keys) != set() and "ap" in keys


def _part(name: str, type_name: str) -> tuple[str, str] | None:
    """Split a T9A profile name such as 'Sea Guard Offensive' into ('Sea Guard', 'Offensive')."""
    for part in T9A_PARTS:
        if type_name.endswith(part) or name.endswith(" " + part):
            return name.removesuffix(" " + part).strip(), part
    return None


def _aim(rules: Iterable[str], chars: dict[str, str]) -> int | None:
    for text in (*rules, chars.get("Rules", "")):
        if m := re.search(r"\((\d)\+\)", text):
            return int(m.group(1))
    return None


def _shares(number: int, carried: Sequence[tuple[str, int]]) -> list[tuple[tuple[str, ...], int]]:
    """Split the ``number`` models of one roster selection by the weapons they carry: (weapons, how many).

    ``carried``: each weapon of the selection with the ``number`` of the selection holding it.  BattleScribe
    counts a child selection over all its parent's models (eight Boyz, eight sluggas), so a weapon of at least
    ``number`` is carried by each model; one of fewer (a selection of ten Marines with one flamer) by that many,
    handed out in turn from the first model on, the next such weapon from the model after the last one served:
    weapons that stand in for one another (eight boltguns, a flamer, a missile launcher among ten) land on
    different models.  Each model's weapons keep the roster's order.
    """
    spans: dict[str, tuple[int, int]] = {}
    start = 0
    for name, held in carried:
        if held < number:
            spans[name] = (start, held)
            start = (start + held) % number
    cuts = sorted({0, number, *(a for a, _ in spans.values()), *((a + n) % number for a, n in spans.values())})
    out: dict[tuple[str, ...], int] = {}
    for low, high in zip(cuts, cuts[1:]):
        arms = tuple(name for name, held in carried
                     if held >= number or (low - spans[name][0]) % number < spans[name][1])
        out[arms] = out.get(arms, 0) + high - low
    return list(out.items())


def _weapon_kind(pname: str, type_name: str, chars: dict[str, str], game: str | None) -> BsWeapon | None:
    """Read a weapon profile as herohammer can use it (or why not); None when the profile is not a weapon's."""
    if game == "t9a" and (close_combat := t9a_close_combat(pname)) is not None:
        return BsWeapon(pname, tuple(chars.items()), close_combat=close_combat)
    if game == "t9a" and (type_name.lower().endswith("weapon") or _is_weapon_profile(chars)):
        missile, problem = t9a_missile(pname, chars)
        return BsWeapon(pname, tuple(chars.items()), None, problem, missile)
    if _is_weapon_profile(chars):
        data, problem = weapon_data(pname, chars)
        return BsWeapon(pname, tuple(chars.items()), data, problem)
    if type_name.lower().endswith("weapon"):  # another game's weapon: printed only
        return BsWeapon(pname, tuple(chars.items()), None, "T9A weapon: listed, not used by the t9a ruleset")
    return None


def _as_bare_hands(weapon: BsWeapon) -> bool:
    """Say whether a 40k weapon fights as a model without one does: a close combat weapon of the user's Strength that
    ignores no armour (krak grenades and melta bombs as the data prints them: their use against vehicles is not
    modelled), so a model not given it fights the same."""
    data = weapon.data
    printed = {k.lower(): v.strip().lower() for k, v in weapon.characteristics}
    strength = printed.get("s", printed.get("str", printed.get("strength", "")))
    return (data is not None and data.get("type") == "melee" and not data.get("ignores_armour")
            and strength in ("", "-", "user", "u") and printed.get("ap", "") in ("", "-"))


def _melee_gives(weapons: Iterable[BsWeapon], own: int, more: int) -> bool:
    """Say whether one of a unit's close combat weapons makes its Strength ``own`` the bracketed ``more`` its
    profile prints (``S 6(10)`` and a Dreadnought close combat weapon of Strength x2): then S6 is all to read."""
    return any(w.data is not None and w.data.get("type") == "melee"
               and weapon_gives(w.data.get("strength"), own, more) for w in weapons)


def build_unit(name: str, found: _Found, game: str | None, roster: bool = False, ident: str = "") -> BsUnit:
    """Make a unit from what the walk found: 40k profiles as printed, T9A ones through the mapping.

    In a roster (``roster``) every selection is a choice the player made: a second selection of a model of
    one name adds its models to the first's count (a different profile under that name, or other weapons, is a
    model kind of its own, numbered apart when a scenario is built); a catalogue's entries are reached through
    links, so a name's first profile stands for it and its counts are the minimums.

    Each model of a roster carries what its own model selection (``type="model"``) holds, its weapon profiles
    and those of the upgrades under it, shared among its models by their numbers (``_shares``).  The weapons
    the roster puts at unit level (on the unit's selection or its upgrades, outside any model selection):

    - when no model selection of the unit holds a weapon (The 9th Age's data, which gives a unit's weapons
      to the unit, or a 40k roster that does the same), every model carries them all (``BsModel.weapons``
      None: the unit's);
    - when some do, a unit-level weapon whose ``number`` is at least the unit's models is carried by each;
      one of fewer (a 40k squad's missile launcher chosen for the unit) is given to no model, since the
      roster does not say which carries it or what it stands in for, and a note says so (``BsUnit.notes``):
      ten missile launchers would be the silently wrong answer this reading replaced.

    A roster's weapon that herohammer cannot use is noted too, naming the selection (a 9th Age weapon
    without a range, a close combat weapon the t9a ruleset fights with by profile, is not).
    """
    weapons: dict[str, BsWeapon] = {}
    quiet: set[str] = set()  # weapons whose not being used needs no note
    carried: dict[int, dict[str, int]] = {}  # owner -> weapon name -> the most of its selections' numbers
    kinds: list[str] = []
    for seen in found.profiles:
        chars = dict(seen.chars)
        pname, type_name = seen.name, seen.type_name
        if _part(pname, type_name) is not None and (game == "t9a" or "Adv" in chars or "HP" in chars
                                                    or "Off" in chars or "Base" in chars):
            kinds.append("part")
        elif _is_model_profile(chars):
            kinds.append("model")
        elif (weapon := (weapons.get(pname) or _weapon_kind(pname, type_name, chars, game))) is not None:
            kinds.append("weapon")
            if pname not in weapons:
                weapons[pname] = replace(weapon, characteristics=seen.chars)
                if game == "t9a" and not _number(chars.get("Range", chars.get("range", ""))).isdigit():
                    quiet.add(pname)  # a close combat weapon: the t9a ruleset fights by the model's profile
            owned = carried.setdefault(seen.owner, {})
            owned[pname] = max(owned.get(pname, 0), seen.held)
        else:
            kinds.append("")
    powers = _psychic_powers(weapons, game)
    quiet.update(powers)
    owners = found.owners
    per_model = roster and any(owner >= 0 and bool(owned) for owner, owned in carried.items())
    total = sum(o.number for o in owners)
    unit_level = list(carried.get(-1, {}).items())
    unit_words = f"{name} (selection {ident})" if ident else name
    notes: list[str] = [f"{unit_words}: {note}" for note in found.notes]
    profiles: Sequence[_Seen] = found.profiles
    if roster and owners:
        profiles, kinds, unclaimed = _by_model_selection(found.profiles, kinds, owners)
        notes.extend(unclaimed)
    if per_model:
        for wname, held in unit_level:
            if held >= total or wname in quiet or _as_bare_hands(weapons[wname]):
                continue  # every model's, or nothing a model would fight with otherwise (grenades): no note
            if weapons[wname].usable is None:
                notes.append(f"{unit_words}: weapon {wname!r} not used ({weapons[wname].problem})")
            else:
                notes.append(f"{unit_words}: the unit's {wname!r} ({held} for {total} models whose own selections "
                             "hold their weapons) is given to no model: the roster does not say which carries it; "
                             "add it to that model's weapons in the scenario")
    unit_wide = tuple(w for w, held in unit_level if held >= total) if per_model else ()
    shares = {i: _shares(o.number, list(carried.get(i, {}).items())) for i, o in enumerate(owners)}
    if roster:
        given = [(o.words, list(carried.get(i, {}))) for i, o in enumerate(owners)]
        given.append((unit_words, [w for w in carried.get(-1, {}) if not per_model or w in unit_wide]))
        for where, names in given:
            for wname in names:
                w = weapons[wname]
                if w.usable is None and wname not in quiet:
                    notes.append(f"{where}: weapon {wname!r} not used ({w.problem})")

    def split(seen: _Seen) -> list[tuple[tuple[str, ...] | None, int]]:
        """The models a profile stands for, by the weapons each carries."""
        if not per_model:
            return [(None, seen.count)]
        if seen.owner < 0:
            return [(unit_wide, seen.count)]
        factor = max(1, seen.count // owners[seen.owner].number)
        return [((*arms, *(w for w in unit_wide if w not in arms)), n * factor) for arms, n in shares[seen.owner]]

    models: list[BsModel] = []
    met: dict[int, list[Element | None]] = {}  # a catalogue's model -> the entries its profile was met in
    t9a: dict[tuple[str, tuple[str, ...] | None], dict[str, Any]] = {}
    for seen, kind in zip(profiles, kinds):
        chars = dict(seen.chars)
        pname, chars_t = seen.name, seen.chars
        where = owners[seen.owner].words if seen.owner >= 0 else ""
        if kind == "part":
            mname, part = _part(pname, seen.type_name) or ("", "")
            for arms, count in split(seen):
                slot = t9a.setdefault((mname, arms), {"chars": {}, "printed": [], "parts": {}, "where": where,
                                                      "number": found.bad_numbers.get(seen.owner, "")})
                slot["chars"].update({k: v for k, v in chars.items() if k != "Rules"})
                if part not in slot["parts"]:
                    slot["printed"].extend((k, v) for k, v in chars_t if k != "Rules")
                had = slot["parts"].get(part, 0)  # each selection gives each part once: a part's counts add up
                slot["parts"][part] = had + count if roster else max(had, count)
                if part == "Offensive" and chars.get("Rules"):
                    slot.setdefault("rules", []).append(chars["Rules"])
        elif kind == "model":
            line, problem, said = forty_k_profile(chars)
            problem = found.bad_numbers.get(seen.owner, "") or problem
            notes.extend(f"{where or unit_words}: {pname}: {read.note}" for read in said
                         if read.bracket is None or not _melee_gives(weapons.values(), *read.bracket))
            if (pair := save_pair(chars)) is not None:
                printed = next(v for k, v in chars.items() if k.lower() in ("sv", "save"))
                notes.append(f"{where or unit_words}: {pname}: save {printed!r} read as armour {pair[0]} and "
                             f"invulnerable {pair[1]} (the data's armour/invulnerable)")
            for arms, count in split(seen):
                same = next((i for i, m in enumerate(models)
                             if m.name == pname and m.profile == line and m.weapons == arms), None)
                if same is not None and (roster or _another_entry(met.setdefault(same, []), seen.entry)):
                    models[same] = replace(models[same], count=models[same].count + count)  # more of them
                elif same is None and (roster or not any(m.name == pname for m in models)):
                    met[len(models)] = [seen.entry]
                    models.append(BsModel(pname, line, chars_t, count, problem=problem, weapons=arms, selection=where))
    # A mount prints the values that are its rider's as 'C' (Dis C, HP C, Arm C+2): it carries each other model of
    # the unit rather than being one (``_mounted``).
    mounts = {key: slot for key, slot in t9a.items() if _carried(slot["chars"])}
    for (mname, arms), slot in t9a.items():
        if (mname, arms) in mounts:
            continue
        chars = slot["chars"]
        if not ({"Adv", "HP"} & set(chars)):
            if "Att" in chars:  # a mount's or crew's attacks: no model of its own
                found.rules.append(f"{mname} (mount): " + " ".join(f"{k} {v}" for k, v in chars.items()))
            continue
        for (horse, _), ride in mounts.items():
            chars = _mounted(chars, ride["chars"])
            found.rules.append(f"{horse} (mount): " + " ".join(
                f"{k} {v}" for k, v in ride["chars"].items() if k in ("Att", "Off", "Str", "AP", "Agi")))
        line, problem = t9a_profile(chars, _aim([*found.rules, *slot.get("rules", [])], chars))
        problem = slot["number"] or problem
        paired = "paired weapons" in (w.close_combat for w in weapons.values()
                                      if arms is None or w.name in arms)
        notes.extend(f"{slot['where'] or unit_words}: {mname}: {said}" for said in _t9a_brackets(chars, paired))
        models.append(BsModel(mname, line, tuple(slot["printed"]), max(slot["parts"].values()),
                              _base(chars.get("Base", "")), chars.get("Type", ""), problem, arms, slot["where"]))
    if not models:
        notes.extend(_unread_profiles(unit_words, profiles, kinds))
    rules = tuple(dict.fromkeys(r for r in found.rules if r))
    if powers:
        clause = "published.40k4-psychic-shooting" if game == "40k4" else "40k3.psyker.as-shooting"
        notes.extend(f"{unit_words}: {name!r} is the psychic power {name} printed as a weapon: the unit is a psyker "
                     "who uses it with a Psychic test (manifest), not a gun it fires; the data's profile is the "
                     f"power's [{clause}]" for name in powers)
        if "psyker" not in {r.lower() for r in rules}:
            rules += ("Psyker",)
    categories = tuple(dict.fromkeys(c for c in found.categories if c and not c.lower().startswith("new categ")))
    # A character is one model: a squad filed under a character's category (an Infantry Platoon whose officer is an
    # Independent Character) is not one, nor is a squad in HQ (a Command Squad).
    character = sum(m.count for m in models) <= 1 and (any("character" in x.lower() for x in (*rules, *categories))
                                                        or any(c.lower() in ("hq", "lords", "heroes") for c in categories))
    if (many := sum(m.count for m in models)) > 1 and any(r.lower() == INDEPENDENT for r in rules):
        rules = tuple(r for r in rules if r.lower() != INDEPENDENT)  # the scenario would make the squad a character
        notes.append(f"{unit_words}: the rule 'Independent Character' is on the unit's selection of {many} models, "
                     "not on one model's: read as a unit, not a character, and the rule left off it (the roster does "
                     "not say which model is the character); to play him apart, write him in the scenario as a "
                     f"character joined to the unit [{game if game in ('40k3', '40k4') else '40k3'}.ic.join]")
    return BsUnit(name, tuple(models), tuple(weapons.values()), rules, categories, character,
                  tuple(dict.fromkeys(notes)), points=found.points, cost_unread=found.unpriced)


def _another_entry(met: list[Element | None], entry: Element | None) -> bool:
    """Say whether a catalogue profile met again comes from a model entry of its own (a Terminator Sergeant's and
    four Terminators': five), so its models add up; not when either is the unit's own entry (None: the unit's profile
    stands for the models it links) or the same entry met twice.  Records the entry."""
    if entry is None or None in met or any(e is entry for e in met):
        return False
    met.append(entry)
    return True


def _by_model_selection(profiles: Sequence[_Seen], kinds: Sequence[str],
                        owners: Sequence[_Owner]) -> tuple[list[_Seen], list[str], list[str]]:
    """Give a roster's model selections that print no model profile of their own the unit's profile of their name.

    New Recruit (and BattleScribe data whose unit entry holds the profile) writes the profile on the unit's
    selection and the models as a ``type="model"`` selection of that name (or its plural) without one (``Archers``:
    profile ``Archer``; ``Archer``, ``number="10"``): the profile met outside any model selection stands for each such
    selection's models, with its own weapons.  A model selection left with no profile is said, not dropped unsaid:
    the roster does not say which profile its models have (a name of another word: "Boyz" under "Ork Boy").
    Returns the profiles, their kinds and the notes."""
    def model_name(seen: _Seen, kind: str) -> str:
        return ((_part(seen.name, seen.type_name) or ("", ""))[0] if kind == "part" else seen.name).strip().lower()

    printed = {seen.owner for seen, kind in zip(profiles, kinds) if kind in ("model", "part")}
    printed |= {seen.owner for seen, kind in zip(profiles, kinds)
                if kind == "" and {k.lower() for k, _ in seen.chars} & _BODY}  # a vehicle's: _unread_profiles
    bare = [i for i in range(len(owners)) if i not in printed]
    if not bare:
        return list(profiles), list(kinds), []
    loose = [k for k, (seen, kind) in enumerate(zip(profiles, kinds)) if seen.owner < 0 and kind in ("model", "part")]
    mine = {k: [i for i in bare if _same_model(owners[i].name.strip().lower(), model_name(*pair))]
            for k, pair in ((k, (profiles[k], kinds[k])) for k in loose)}
    claimed = {i for held in mine.values() for i in held}
    left = [i for i in bare if i not in claimed]
    # One model selection left and one model named by the unit's own selection's profiles, unclaimed: the same
    # models under two names ('Warriors of Chaos', number 10, under the profile 'Warrior'), said.
    own = {model_name(profiles[k], kinds[k]) for k in loose if profiles[k].entry is None and not mine[k]}
    notes: list[str] = []
    if len(left) == 1 and len(own) == 1:
        for k in loose:
            if profiles[k].entry is None and not mine[k]:
                mine[k] = left
        notes.append(f"{owners[left[0]].words}: its {owners[left[0]].number} model(s) read as the unit's profile "
                     f"{profiles[next(k for k in loose if mine[k] == left)].name!r} (no profile of their own; the "
                     "unit's selection prints that one)")
        left = []
    out: list[_Seen] = []
    out_kinds: list[str] = []
    for k, (seen, kind) in enumerate(zip(profiles, kinds)):
        for i in mine.get(k) or [-2]:
            out.append(seen if i == -2 else replace(seen, count=seen.count * owners[i].number, owner=i,
                                                    held=owners[i].number))
            out_kinds.append(kind)
    notes += [f"{owners[i].words}: a model selection of {owners[i].number} model{'s' * (owners[i].number != 1)} "
              "with no profile of its own and none of its name on the unit: its models are not counted (the roster "
              "does not say which profile they have); add them to the scenario by hand" for i in left]
    return out, out_kinds, notes


@implements("40k3.psyker.as-shooting", "published.40k4-psychic-shooting")
def _psychic_powers(weapons: dict[str, BsWeapon], game: str | None) -> list[str]:
    """Mark a 40k weapon profile named as a psychic power herohammer knows (Smite) as that power, and name them.

    The community's 3rd edition data prints a Librarian's Smite as a ``Weapon`` profile and gives him no rule
    'Psyker': read as a gun it would be fired without a Psychic test or Perils of the Warp.  A power is the
    psyker's, used by ``manifest``; ``roster_scenario`` writes the data's profile as the scenario's power."""
    if game not in ("40k3", "40k4"):
        return []
    found = [name for name, w in weapons.items() if w.data is not None and find_power(name) is not None]
    for name in found:
        weapons[name] = replace(weapons[name], power=True)
    return found


def _same_model(selection: str, printed: str) -> bool:
    """Say whether a model selection's name is a profile's, or its plural (``Halberdiers`` of ``Halberdier``)."""
    return selection in (printed, printed + "s", printed + "es")


#: Characteristics that make an unread profile a model's of some kind (a vehicle's armour, a walker's WS).
_BODY = {"ws", "bs", "s", "t", "w", "i", "a", "ld", "front", "side", "rear", "armour", "av"}


def _unread_profiles(unit_words: str, profiles: Sequence[_Seen], kinds: Sequence[str]) -> list[str]:
    """Say why a unit with profiles of a model's kind got no model: a vehicle's (Front, Side, Rear armour) or another
    profile without the WS BS S T W herohammer reads, so the unit is left out of a scenario, not dropped unsaid."""
    out = []
    for seen, kind in zip(profiles, kinds):
        keys = [k for k, _ in seen.chars]
        if kind == "" and {k.lower() for k in keys} & _BODY:
            out.append(f"{unit_words}: profile {seen.name!r} ({seen.type_name or 'no type'}; prints {', '.join(keys)}) "
                       "is not a model profile herohammer reads (WS BS S T W: a vehicle's armour values are not "
                       "modelled), so the unit has no model and is left out of a scenario")
    return out


@implements("published.t9a-paired-weapons")
def _t9a_brackets(chars: dict[str, str], paired: bool = False) -> list[str]:
    """Say each 9th Age characteristic printed with a bracket (``Res 4(5)``) that is read as its first number, the
    model's own, as the 40k import says its own (``read_characteristic``); an Attack Value's names Paired Weapons,
    whose +1 the t9a ruleset adds itself (published.t9a-paired-weapons); a rate's bracket is a flyer's, its ground
    rate read (docs/data.md), and not said."""
    out = []
    for printed, ours in T9A_MAPPING.items():
        text = chars.get(printed, "").strip()
        if printed not in ("Adv", "Mar") and re.match(r"^\d+\s*\(", text):
            out.append(f"{printed} {text!r} read as {_number(text)} ({ours}{_number(text)}): the bracketed value, "
                       "with wargear or an option, is not read"
                       + ((PAIRED_CARRIED if paired else PAIRED_WORDS) if printed == "Att" else ""))
    return out


#: What a 9th Age ``Att a(b)`` is said with: the bracket is most often Paired Weapons', added by the rules (session 42).
PAIRED_WORDS = ("; Paired Weapons' +1 Attack Value is added by herohammer itself when the scenario gives the model "
                "paired weapons [published.t9a-paired-weapons]")
#: ... and where the roster gives the model Paired Weapons (session 43).
PAIRED_CARRIED = ("; the roster's Paired Weapons are given to the model, and herohammer adds their +1 Attack Value "
                  "itself [published.t9a-paired-weapons]")


def _carried(chars: dict[str, str]) -> bool:
    """Say whether a T9A model's parts are a mount's: its Discipline or Health Points printed 'C' (the rider's)."""
    return any(chars.get(k, "").strip().upper() == "C" for k in ("Dis", "HP"))


def _mounted(rider: dict[str, str], mount: dict[str, str]) -> dict[str, str]:
    """Return a rider's T9A characteristics on its mount: the mount's rates, base, type and height, and its armour
    printed 'C+N' added to the rider's (a barded horse's C+2); what the mount prints 'C' stays the rider's."""
    out = dict(rider)
    for k in ("Adv", "Mar", "Base", "Type", "Height"):
        if mount.get(k, "").strip() and mount[k].strip().upper() != "C":
            out[k] = mount[k]
    bonus = re.fullmatch(r"C\s*\+\s*(\d+)", mount.get("Arm", "").strip(), re.IGNORECASE)
    own = _number(rider.get("Arm", ""))
    if bonus and own.isdigit():
        out["Arm"] = str(int(own) + int(bonus.group(1)))
    return out


def _base(text: str) -> tuple[float, float] | float | None:
    nums = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]
    if len(nums) >= 2:
        return (nums[0], nums[1])
    if len(nums) == 1:
        return nums[0]
    return None


def read_battlescribe(path: str | Path) -> BsFile:
    """Read a catalogue, game system or roster into its units (links resolved, the game system beside it too)."""
    p = guards.path(path, "read_battlescribe")
    root = read_xml(p)
    kind = local_name(root.tag)
    roots = [root]
    game = str(root.get("name", ""))
    if kind == "catalogue":
        system = _game_system(p, root)
        if system is not None:
            roots.append(system)
            game = system.get("name", "")
        else:
            game = str(root.get("gameSystemName", "") or root.get("name", ""))
        roots.extend(_linked_catalogues(p, root))
    index = _index(roots)
    if kind != "roster":  # a roster holds every profile it uses; a catalogue links into other files
        _check_links(p, root, index, kind != "catalogue" or system is not None)
    if kind == "roster":
        game = str(root.get("gameSystemName", ""))
    reader = _Reader(str(p), root, index)
    ruleset = ruleset_for(game) or ruleset_for(root.get("name", ""))
    reader.ruleset = ruleset
    units: list[BsUnit] = []
    for name, entry in _unit_entries(reader, kind):
        inside = _characters_inside(entry) if kind == "roster" and ruleset in ("40k3", "40k4") else []
        reader.apart.update(id(c) for c in inside)
        found = _Found()
        reader.walk(entry, found, _count(entry) if kind == "roster" else 1,
                    node=None if kind == "roster" else reader.tree(entry))
        if kind == "roster":
            reader.unpriced_note(name, found)
        units.append(build_unit(name, found, ruleset, roster=kind == "roster", ident=entry.get("id", "")))
        for character in inside:
            own = _Found()
            reader.walk(character, own, _count(character))
            units.append(replace(build_unit(character.get("name", "?").strip(), own, ruleset, roster=True,
                                            ident=character.get("id", "")), joined=name))
    if kind == "roster" and not units:
        raise BattleScribeError(p, "the roster has no units (no forces/force/selections/selection of type unit)")
    total = _Found()
    if kind == "roster":
        reader.add_points(root, total)
    return BsFile(str(p), ROOTS[kind], root.get("name", p.stem), game, tuple(units), total.points)


def points(value: float) -> str:
    """Write points as the data prices them: 60, or 12.5 when it is a fraction."""
    return f"{value:g}"


def points_words(data: BsFile) -> str:
    """Say a roster's points in a line: its total and each priced unit's ('190 pts: Warboss 90, Boyz 100'), or
    that the roster gives none; the total is the roster's own, or its units' added up when it gives none."""
    priced = [(u.name, u.points) for u in data.units if u.points is not None]
    if data.points is None and not priced:
        return "not in the roster"
    total = data.points if data.points is not None else sum(p for _, p in priced)
    unpriced = [u.name for u in data.units if u.points is None]
    return (f"{points(total)} pts: " + ", ".join(f"{name} {points(p)}" for name, p in priced)
            + (f"; no cost for {', '.join(unpriced)}" if unpriced else ""))

#: The special rule that makes a 40k model a character of its own, able to join and leave units (40k3.ic.join).
INDEPENDENT = "independent character"


def _names_rule(selection: Element, rule: str) -> bool:
    """Say whether a roster selection itself carries a rule (``rules/rule`` or an ``infoLink`` to one) by name."""
    named = [r.get("name", "") for r in children(selection, "rules", "rule")]
    named += [link.get("name", "") for link in children(selection, "infoLinks", "infoLink")
              if link.get("type") == "rule"]
    return any(n.strip().lower() == rule for n in named)


@implements("40k3.ic.join", "40k4.ic.join")
def _characters_inside(unit: Element) -> list[Element]:
    """Find the Independent Characters chosen inside a 40k roster unit's selection (a Chaplain bought with a squad,
    an Inquisitor with his retinue): each is a character of his own joined to the unit (40k3.ic.join,
    40k4.ic.join), not one of its models, and the unit does not take his rule.  Only a selection with its own model
    profile and the rule on itself is one; a rule on the unit's selection does not say which of its models it is
    (``build_unit`` notes it).
    """
    out: list[Element] = []
    for child in unit.iter():
        if (child is not unit and local_name(child.tag) == "selection" and child.get("type") in ("model", "unit")
                and _names_rule(child, INDEPENDENT)
                and any(_is_model_profile(dict(_characteristics(p))) for p in children(child, "profiles", "profile"))
                and not any(child in list(c.iter()) for c in out)):
            out.append(child)
    return out


def _unit_entries(reader: _Reader, kind: str) -> list[tuple[str, Element]]:
    root = reader.root
    out: list[tuple[str, Element]] = []
    if kind == "roster":
        for force in root.iter():
            if local_name(force.tag) != "force":
                continue
            for sel in children(force, "selections", "selection"):
                if sel.get("type") in ("unit", "model") or any(True for _ in children(sel, "selections", "selection")):
                    out.append((sel.get("name", "?").strip(), sel))
        return out
    seen: set[str] = set()
    for entry in children(root, "selectionEntries", "selectionEntry"):
        if entry.get("type") in ("unit", "model") and entry.get("name", "") not in seen:
            seen.add(entry.get("name", ""))
            out.append((entry.get("name", "?").strip(), entry))
    for link in children(root, "entryLinks", "entryLink"):
        target = reader.resolve(link)
        name = str(link.get("name") or (target.get("name", "") if target is not None else "")).strip()
        if target is not None and target.get("type") in ("unit", "model") and name not in seen:
            seen.add(name)
            out.append((name, target))
    if not out:
        for entry in children(root, "sharedSelectionEntries", "selectionEntry"):
            if entry.get("type") == "unit" and entry.get("name", "") not in seen:
                seen.add(entry.get("name", ""))
                out.append((entry.get("name", "?").strip(), entry))
    return out


# == scenarios naming catalogue units ============================================================
def find_model(files: Iterable[BsFile], name: str) -> tuple[BsUnit, BsModel] | None:
    """Find a model by unit name (its first model) or by model name, in the files given in order."""
    files = list(files)
    wanted = name.strip().lower()
    for f in files:
        for u in f.units:
            if u.name.lower() == wanted and u.models:
                return u, u.models[0]
    for f in files:
        for u in f.units:
            for m in u.models:
                if m.name.lower() == wanted:
                    return u, m
    return None


#: Why the files a scenario's ``catalogues:`` names may not be opened here, or None (``catalogue_files_refused``).
_FILES_REFUSED: ContextVar[str | None] = ContextVar("catalogue_files_refused", default=None)


@contextmanager
def catalogue_files_refused(why: str) -> Iterator[None]:
    """While it lasts, refuse a scenario that would open the files its ``catalogues:`` names, saying ``why``: the
    web's scenarios come from a request, and a request opens no path on the server (a record's start included)."""
    token = _FILES_REFUSED.set(why)
    try:
        yield
    finally:
        _FILES_REFUSED.reset(token)


def fill_from_catalogues(data: dict[str, Any], source: str) -> dict[str, Any]:
    """Give each model written ``from: NAME`` its profile, base and weapons from the scenario's ``catalogues``.

    Values written in the scenario win over the catalogue's.  Paths are relative to the
    scenario file.  Every problem is one ``ScenarioError`` naming the field.
    """
    from .errors import ScenarioError

    sides = data.get("sides")
    if not isinstance(sides, dict):
        return data
    wants = [(side, i, j) for side, units in sides.items() if isinstance(units, list)
             for i, u in enumerate(units) if isinstance(u, dict) and isinstance(u.get("models"), list)
             for j, m in enumerate(u["models"]) if isinstance(m, dict) and "from" in m]
    paths = data.get("catalogues") or []
    if not wants:
        return data
    if not isinstance(paths, list) or not paths:
        side, i, j = wants[0]
        raise ScenarioError(source, f"sides.{side}[{i}].models[{j}].from",
                            "name the BattleScribe files first: catalogues: [army.cat] at the top of the scenario")
    if (why := _FILES_REFUSED.get()) is not None:
        raise ScenarioError(source, "catalogues", why)
    here = Path(source).parent if source and not source.startswith("<") else Path(".")
    files = []
    for k, raw in enumerate(paths):
        if not isinstance(raw, str):
            raise ScenarioError(source, f"catalogues[{k}]", f"expected a file name, got {raw!r}")
        p = Path(raw) if Path(raw).is_absolute() else here / raw
        try:
            files.append(read_battlescribe(p))
        except BattleScribeError as exc:
            raise ScenarioError(source, f"catalogues[{k}]", str(exc)) from None
    out = {**data, "sides": {s: [dict(u) if isinstance(u, dict) else u for u in us]
                             for s, us in data["sides"].items()}}
    weapons = list(data.get("weapons") or [])
    known = {str(w.get("name", "")).lower() for w in weapons if isinstance(w, dict)}
    for side, i, j in wants:
        unit = out["sides"][side][i]
        unit["models"] = list(unit["models"])
        model = dict(unit["models"][j])
        where = f"sides.{side}[{i}].models[{j}].from"
        name = model["from"]
        if not isinstance(name, str):
            raise ScenarioError(source, where, f"expected a unit or model name, got {name!r}")
        found = find_model(files, name)
        if found is None:
            import difflib

            names = sorted({x for f in files for u in f.units for x in (u.name, *(m.name for m in u.models))})
            close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
            raise ScenarioError(source, where, f"no unit or model {name!r} in {', '.join(str(p) for p in paths)}{hint}")
        bs_unit, bs_model = found
        if bs_model.problem and "profile" not in model:
            raise ScenarioError(source, where, f"{bs_model.name}: the catalogue's profile {bs_model.problem}; "
                                "give profile: in the scenario")
        model.setdefault("profile", bs_model.profile)
        if bs_model.base is not None:
            model.setdefault("base", list(bs_model.base) if isinstance(bs_model.base, tuple) else bs_model.base)
        if "weapons" not in model:
            model["weapons"] = list(bs_unit.model_weapons(bs_model))  # a roster's model: its own selection's
        for w in bs_unit.weapons:
            if w.data is not None and w.name.lower() not in known and w.name in model["weapons"]:
                weapons.append(w.data)
                known.add(w.name.lower())
        unit["models"][j] = model
    if weapons:
        out["weapons"] = weapons
    return out
