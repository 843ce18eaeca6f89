"""A 40k model's printed characteristics as BattleScribe data writes them, read only where the reading is exact.

The data prints more than a number: a bike's Toughness with its bonus in brackets (``T 4(5)``), a walker's or a
Wraithlord's Strength with its close combat weapon's (``S 5(10)``), a value rolled before the game (``A D6``,
``WS D6+1``), a value and a bonus (``A 1+1``), saves as armour and invulnerable (``2+/5+``, ``3+/5++``) or an
invulnerable one alone (``5++``).  Each is read here field by field as the rules engine needs it, said in a note
when a printed value is not the one read, or refused with the reason: ``S 6(10)`` read its first number without a
word, and ``5++`` (an invulnerable save) was read as an armour save that AP takes away (session 40).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: ``4(5)``: a value and, in brackets, the value with a bonus (wargear, a bike, an option).
_BRACKET = re.compile(r"^(\d+)\s*\((\d+)\)$")
#: ``D6``, ``2D6``, ``D3+1``: a value rolled before the game.
_DICE = re.compile(r"^\d*\s*D\s*\d+(\s*[+-]\s*\d+)?$", re.IGNORECASE)
#: ``1+1``: a value and a bonus written beside it.
_BONUS = re.compile(r"^(\d+)\s*\+\s*(\d+)$")
_PLAIN = re.compile(r"^(\d+|-|\*)$")


@dataclass(frozen=True)
class Read:
    """One printed characteristic as read: the value for the profile line, what the import says of it, or why not."""

    value: str
    #: Said beside the profile when the value read is not all the data prints (a bracketed value left out).
    note: str = ""
    #: Why the value is not read (the model is refused): empty when it reads.
    problem: str = ""
    #: A bracketed Strength ``a(b)``: (a, b), for ``weapon_gives`` to find the close combat weapon that gives b.
    bracket: tuple[int, int] | None = None


def read_characteristic(name: str, printed: str) -> Read:
    """Read one 40k characteristic (WS BS S T W I A Ld) as printed; inches ('6"') read as the number."""
    text = printed.replace('"', "").replace("\u2033", "").strip()
    if _PLAIN.match(text):
        return Read(text)
    if m := _BRACKET.match(text):
        own, more = int(m.group(1)), int(m.group(2))
        if name == "T":
            return Read(str(more), f"T {printed!r} read as T{more}, the bracketed Toughness with its bonus (a bike's "
                                   "or jetbike's +1), which wounds are rolled against; herohammer keeps one "
                                   f"Toughness, so Instant Death is also worked out against T{more} (the "
                                   f"unbracketed T{own} is not kept)")
        if name == "S":
            return Read(str(own), f"S {printed!r} read as S{own}: the bracketed {more} is its Strength with a close "
                                  "combat weapon (a Dreadnought close combat weapon doubles it) that the data gives "
                                  f"no weapon profile of, so it fights at S{own}; to play it, give the model a melee "
                                  "weapon of strength x2 (or the value) under the scenario's weapons:",
                        bracket=(own, more))
        extra = (" (a second close combat weapon, whose extra Attack herohammer adds itself when the model "
                 "carries two)" if name == "A" else "")
        return Read(str(own), f"{name} {printed!r} read as {name}{own}: the bracketed {more} is its value with "
                              f"wargear or an option{extra}, not read")
    if _DICE.match(text):
        return Read("", problem=f"{name} {printed!r} is rolled before the game (a random value): herohammer reads "
                                "a fixed profile; write the value rolled under profile: in the scenario")
    if _BONUS.match(text):
        return Read("", problem=f"{name} {printed!r} is a value and a bonus: whether the bonus is one the rules "
                                "add themselves (a second close combat weapon's Attack) is not said; write the value "
                                "meant under profile: in the scenario")
    return Read("", problem=f"{name} {printed!r} is not a number, '-' or '*'")


def weapon_gives(strength: object, own: int, more: int) -> bool:
    """Say whether a melee weapon's strength (herohammer's weapon data: a number, 'x2', '+2', 'user') makes a model
    of Strength ``own`` strike at ``more``, the bracketed value its profile prints."""
    if isinstance(strength, int) and not isinstance(strength, bool):
        return strength == more
    text = str(strength).strip().lower()
    if m := re.fullmatch(r"x\s*(\d+)", text):
        return own * int(m.group(1)) == more
    if m := re.fullmatch(r"\+\s*(\d+)", text):
        return own + int(m.group(1)) == more
    return False


#: A save: armour alone ('3+', '-', '*'), invulnerable alone ('5++'), or both ('2+/5+', '3+/5++', '2+, 4++',
#: '4+ (5++)'); a bracketed plain roll ('4+ (3+)': armour with a bonus?) is not one of them.
_SAVES = re.compile(r"^(?:(?P<armour>-|\*|\d\+?)(?:\s*[/,]\s*(?P<inv>\d)\+{0,2}|\s*\(\s*(?P<bracketed>\d)\+\+\s*\))?"
                    r"|(?P<only>\d)\+\+)$")


def read_save(printed: str) -> tuple[str, str, str]:
    """Read a printed save as (armour, invulnerable, problem): '2+/5+' -> ('2+', '5+', ''), '5++' -> ('-', '5+',
    ''), '3+' -> ('3+', '', ''); anything else is refused saying so, never read as a save it is not."""
    text = printed.strip()
    if not text:
        return "-", "", ""
    m = _SAVES.match(text)
    if m is None:
        return "", "", (f"save {printed!r} is not a roll such as 3+, '-', an invulnerable 5++ or "
                        "armour/invulnerable 2+/5+")
    if m.group("only"):
        return "-", m.group("only") + "+", ""
    armour = m.group("armour")
    armour = armour if armour in ("-", "*") else armour.rstrip("+") + "+"
    inv = m.group("inv") or m.group("bracketed")
    return armour, inv + "+" if inv else "", ""
