"""``herohammer odds``: exact odds of tests, psychic tests and attack sequences."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from .. import odds
from ..dice import Reroll
from ..checks import chosen_leadership, highest_value
from ..errors import HerohammerError
from ..report import at_least_rows, distribution_table, odds_table, print_json
from ..rulesets import RULESETS
from ..rulesets.w40k_combat import CombatRules
from . import summary
from .args import add_json_flag, characteristic, dashed, dice_amount, reroll, roll_needed, whole_number


def register(sub: Any) -> argparse.ArgumentParser:
    """Add ``odds`` and its queries."""
    parser: argparse.ArgumentParser = sub.add_parser("odds", help=summary("odds"))
    queries = parser.add_subparsers(dest="query", required=True, parser_class=type(parser))

    p = queries.add_parser("test", help="a characteristic test (core.test.characteristic)",
                           description="A D6 at most the value passes, a 6 always fails, a value of 0 always fails. "
                                       "Several values (a model or unit with more than one): one test on the highest "
                                       "(core.test.highest-value).")
    p.add_argument("value", nargs="+", type=characteristic("VALUE"),
                   help="the characteristic, 0..10 ('-' or '*': 0); several: the highest is used")
    p.add_argument("--reroll-failed", action="store_true", help="re-roll a failed test once")
    add_json_flag(p)
    p.set_defaults(run=_run_test)

    p = queries.add_parser("leadership", help="a Leadership test on 2D6 (core.test.leadership)",
                           description="2D6 at most the Leadership passes. Several values (a unit whose models "
                                       "differ): the player picks one (core.test.leadership-choice), --use names it; "
                                       "the highest by default, as the engine reads a unit whose player names none.")
    p.add_argument("ld", metavar="LD", nargs="+", type=characteristic("LD"),
                   help="Leadership, 0..10 ('-' or '*': 0); several: the unit's values, one of which the player picks")
    p.add_argument("--use", type=characteristic("--use"), default=None,
                   help="the value the player picks among several LD (default: the highest)")
    add_json_flag(p)
    p.set_defaults(run=_run_leadership)

    p = queries.add_parser("psychic", help="a psychic test with Perils of the Warp (40k3.psyker.*; 40k4: published.40k4-psychic-test, published.40k4-perils-of-the-warp)")
    p.add_argument("ld", metavar="LD", type=characteristic("LD"), help="the psyker's Leadership, 0..10 ('-' is 0)")
    p.add_argument("--toughness", type=characteristic("--toughness"), default=None,
                   help="the psyker's Toughness against 3rd edition Perils' Strength D6 hit (default 4; 4th: no part; "
                        "'-' is 0)")
    p.add_argument("--wounds", type=characteristic("--wounds", 1, 10), default=1,
                   help="the psyker's Wounds, 1..10 (default 1): the odds that Perils slays it")
    p.add_argument("--inv", type=roll_needed("--inv"), default=None,
                   help="the psyker's invulnerable save, e.g. 4+ (4th edition Perils allows it; 3rd none)")
    p.add_argument("--ruleset", choices=sorted(k for k, v in RULESETS.items() if v.supports_psychic_tests), default="40k3",
                   help="the edition whose psychic test and Perils of the Warp are used (default 40k3)")
    add_json_flag(p)
    p.set_defaults(run=_run_psychic)

    p = queries.add_parser(
        "attacks", help="unsaved wounds from N identical attacks (rolls given, or worked out from profiles)",
        description="Give the rolls (--hit 3+ --wound 4+ --save 3+) or the profiles as players think of them "
                    "(--bs 4 | --ws 4 --vs-ws 3, --s 4 --t 4, --sv 3+ --inv 5+ --ap 2): the edition's charts "
                    "work the rolls out, values of 0 included.")
    p.add_argument("n", metavar="N", type=dice_amount("N", 0, odds.MAX_ATTACKS),
                   help="number of attacks: a number or dice (D6, 2D6, D3+1)")
    hit = p.add_mutually_exclusive_group(required=True)
    hit.add_argument("--hit", type=roll_needed("--hit"), help="roll needed to hit, e.g. 3+")
    hit.add_argument("--bs", type=characteristic("--bs"), help="the firer's Ballistic Skill (shooting)")
    hit.add_argument("--ws", type=characteristic("--ws"), help="the attacker's Weapon Skill (close combat; with --vs-ws)")
    p.add_argument("--vs-ws", type=characteristic("--vs-ws"), help="the target's Weapon Skill (with --ws)")
    wound = p.add_mutually_exclusive_group(required=True)
    wound.add_argument("--wound", type=roll_needed("--wound"), help="roll needed to wound, e.g. 4+")
    wound.add_argument("--s", type=characteristic("--s"), help="the attack's Strength (with --t)")
    p.add_argument("--t", type=characteristic("--t"), help="the target's Toughness (with --s)")
    p.add_argument("--sv", "--save", dest="save", type=roll_needed("--sv"), default=None,
                   help="the target's armour save, e.g. 3+ (none if omitted)")
    p.add_argument("--inv", type=roll_needed("--inv"), default=None, help="the target's invulnerable save, e.g. 5+")
    p.add_argument("--ap", type=armour_piercing, default=None, help="the weapon's AP, 1..6 or '-' (default '-')")
    p.add_argument("--reroll-hits", type=reroll, default=Reroll.NONE, metavar="failed|1s",
                   help="re-roll every failed roll to hit, or only the 1s")
    p.add_argument("--reroll-wounds", type=reroll, default=Reroll.NONE, metavar="failed|1s",
                   help="re-roll every failed roll to wound, or only the 1s")
    p.add_argument("--ruleset", choices=sorted(k for k, v in RULESETS.items() if issubclass(v, CombatRules)),
                   default="40k3", help="the edition whose charts are used (3rd and 4th print the same charts)")
    add_json_flag(p)
    p.set_defaults(run=_run_attacks)

    from .odds_action_cmd import register_action  # the whole-action query (needs a scenario)

    register_action(queries)
    return parser


def _show(args: argparse.Namespace, title: str, rows: dict[str, Fraction], rules: tuple[str, ...],
          ruleset: str = "core") -> int:
    if args.json:
        print_json(f"odds {args.query}", rows, ruleset=ruleset, rules=rules)
    else:
        odds_table(title, rows)
    return 0


def _run_test(args: argparse.Namespace) -> int:
    values: list[int] = args.value
    value = highest_value(values)
    rows = odds.test_odds(value, args.reroll_failed)
    note = ", re-rolling a failure" if args.reroll_failed else ""
    rules: tuple[str, ...] = ("core.test.characteristic",)
    against = f"{value}"
    if len(values) > 1:  # one test on the highest of a model's or unit's values
        rules += ("core.test.highest-value",)
        against = f"{value}, the highest of {', '.join(map(_printed, values))}"
    rules += dashed(*values)
    if dashed(value):
        against += " ('-' is 0)"
    return _show(args, f"Characteristic test against {against}{note} ({', '.join(rules)})", rows, rules)


def _printed(value: int) -> str:
    """Write a value as given: '-' for one given as '-' or '*' (core.profile.dash), else the number."""
    return "-" if dashed(value) else str(value)


def _run_leadership(args: argparse.Namespace) -> int:
    values: list[int] = args.ld
    rules: tuple[str, ...] = ("core.test.leadership",)
    if len(values) == 1 and args.use is None:
        ld, against = values[0], f"Ld {_printed(values[0])}"
    else:  # the player's pick among the unit's values (refused, naming the clause, when it is none of them)
        listed = ", ".join(map(_printed, values))
        try:
            ld = chosen_leadership(values, args.use)
        except HerohammerError:
            raise HerohammerError(f"--use {args.use}: not one of the unit's Leadership values ({listed}); the player "
                                  "picks one of them (core.test.leadership-choice)") from None
        rules += ("core.test.leadership-choice",)
        against = f"Ld {ld} (the player's pick of {listed})" if args.use is not None else \
            f"Ld {ld} (the highest of {listed}; the player may pick another with --use)"
    rules += dashed(*values, args.use)
    rows = odds.leadership_odds(ld)
    return _show(args, f"Leadership test against {against} ({', '.join(rules)})", rows, rules)


def _run_psychic(args: argparse.Namespace) -> int:
    toughness = 4 if args.toughness is None else args.toughness
    rows = odds.psychic_odds(args.ld, toughness, args.wounds, args.ruleset, args.inv)
    chosen = RULESETS[args.ruleset]
    rules = chosen.psychic_rules()
    reads = chosen.perils_reads  # an input given that this edition's Perils does not read is named
    if "toughness" in reads and args.wounds > 1:  # a Perils hit with a Strength may slay him outright
        rules += ("published.instant-death",)
    rules += dashed(args.ld, args.toughness if "toughness" in reads else None)
    shown = (f" T{_printed(toughness)}" if "toughness" in reads else "") + f" W{args.wounds}" + (
        f" Inv{args.inv}+" if args.inv and "invulnerable" in reads else "")
    unused = [f"--{name} not used" for name, value in (("toughness", args.toughness), ("inv", args.inv))
              if value is not None and {"inv": "invulnerable"}.get(name, name) not in reads]
    note = f"; {', '.join(unused)} by {args.ruleset} Perils ({rules[1]})" if unused else ""
    if args.ld < 2:  # fail and power_used overlap: a 2 over Ld 0 or 1 fails, yet the power is still used
        note += (f"; against Ld {args.ld} a 2 fails the test yet still uses the power ({chosen.power_on_two_rule}): "
                 "it is counted in both fail and power_used")
    title = f"Psychic test, Ld {_printed(args.ld)},{shown}, {args.ruleset}{note} ({', '.join(rules)})"
    return _show(args, title, rows, rules, args.ruleset)


def armour_piercing(text: str) -> int | None:
    """Read an AP value: 1..6, or '-' for none."""
    if text.strip() in ("-", "none"):
        return None
    return whole_number("--ap", 1, 6)(text)


def _attack_rolls(args: argparse.Namespace) -> odds.ChartRolls:
    """Take each roll as given, or work it out from the profiles; name a missing partner option."""
    for one, other, what in (("ws", "vs_ws", "the target's Weapon Skill"), ("vs_ws", "ws", "the attacker's Weapon Skill"),
                             ("s", "t", "the target's Toughness"), ("t", "s", "the attack's Strength")):
        if getattr(args, one) is not None and getattr(args, other) is None:
            flag, partner = "--" + one.replace("_", "-"), "--" + other.replace("_", "-")
            raise HerohammerError(f"{flag} needs {partner} ({what}) to read the chart")
    hit = odds.ChartRolls(args.hit, None, None) if args.hit is not None else odds.hit_roll(
        bs=args.bs, ws=args.ws, vs_ws=args.vs_ws)
    wound = odds.ChartRolls(None, args.wound, None) if args.wound is not None else odds.wound_roll(args.s, args.t)
    save = odds.save_roll(args.save, args.inv, args.ap)
    parts = (hit, wound, save)
    cited = (*(r for p in parts for r in p.rules), *dashed(args.bs, args.ws, args.vs_ws, args.s, args.t))
    return odds.ChartRolls(hit.hit, wound.wound, save.save, tuple(dict.fromkeys(cited)),
                           tuple(n for p in parts for n in p.notes))


def _roll_text(need: int | None) -> str:
    return "cannot" if need is None else ("automatic" if need <= 1 else f"{need}+")


def _run_attacks(args: argparse.Namespace) -> int:
    rolls = _attack_rolls(args)
    dist = odds.unsaved_wounds(args.n, odds.unsaved_chance(rolls.hit, rolls.wound, rolls.save,
                                                           args.reroll_hits, args.reroll_wounds))
    mean = dist.mean()
    table = at_least_rows(dist)
    if args.json:
        print_json("odds attacks", {
            "attacks": str(args.n), "hit": _roll_text(rolls.hit), "wound": _roll_text(rolls.wound),
            "save": _roll_text(rolls.save) if rolls.save else "none", "notes": list(rolls.notes),
            "distribution": {str(k): p for k, p in dist.sorted_items()},
            "at_least": {str(k): row[1] for k, row in table.items()}, "mean": mean},
            ruleset=args.ruleset, rules=rolls.rules)
        return 0
    save = f", save {rolls.save}+" if rolls.save else ", no save"
    charted = args.hit is None or args.wound is None  # a roll read off the edition's charts (a save is no chart's)
    charts = f" ({args.ruleset} charts)" if charted else ""
    title = (f"{args.n} attacks{charts}, hit {_roll_text(rolls.hit)}, wound {_roll_text(rolls.wound)}"
             f"{save}{' [' + ', '.join(rolls.rules) + ']' if rolls.rules else ''}")
    distribution_table(title, table, "unsaved wounds")
    for note in rolls.notes:
        print(f"note: {note}")
    print(f"mean: {mean} = {float(mean):.3f} unsaved wounds")
    return 0
