"""Dice notation read in one place (notation.py): exact distributions checked against icepool, clear errors."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from _cli import run
from herohammer.dice import ScriptedDice, SeededDice
from herohammer.errors import HerohammerError
from herohammer.notation import DiceAmount, parse_amount, parse_roll_needed
from herohammer.profiles import Profile


def _icepool(die: icepool.Die) -> dict[int, Fraction]:
    return {int(k): p for k, p in zip(die.outcomes(), die.probabilities()) if p}


@pytest.mark.parametrize("text,die", [
    ("D6", icepool.d6),
    ("2D6", 2 @ icepool.d6),
    ("d3+1", icepool.Die([1, 2, 3]) + 1),
    ("2D3", 2 @ icepool.Die([1, 2, 3])),
    ("D6-1", icepool.d6 - 1),
    ("2D6 highest", icepool.highest(icepool.d6, icepool.d6)),
    ("3D6 highest", icepool.highest(icepool.d6, icepool.d6, icepool.d6)),
])
def test_amounts_match_icepool(text: str, die: icepool.Die) -> None:
    amount = parse_amount(text, "test", low=0, high=100)
    assert dict(amount.distribution()) == _icepool(die)
    assert str(parse_amount(str(amount), "again", 0, 100)) == str(amount)  # written back as read


@pytest.mark.parametrize("text,die", [
    ("20D6", 20 @ icepool.d6),
    ("20D6+3", 20 @ icepool.d6 + 3),
    ("12D3", 12 @ icepool.Die([1, 2, 3])),
    ("20D6 highest", icepool.highest(*[icepool.d6] * 20)),
])
def test_many_dice_are_counted_not_walked(text: str, die: icepool.Die) -> None:
    """Every face combination was walked: 6**20 for 20D6, so odds attacks 20D6 (inside the stated limit of 20 dice)
    ran for hours and 10D6 took 25 s."""
    import time

    amount = parse_amount(text, "test", low=0, high=1000)
    start = time.process_time()
    got = dict(amount.distribution())
    assert time.process_time() - start < 1.0
    assert got == _icepool(die)


def test_the_most_attacks_the_notation_allows_answer_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["odds", "attacks", "20D6", "--hit", "3+", "--wound", "4+", "--json"], capsys)
    assert code == 0 and err == "" and '"mean": "70/3"' in out  # 20 x 3.5 attacks x 2/3 x 1/2


def test_fixed_numbers_and_rolls_needed() -> None:
    assert parse_amount("7", "N") == DiceAmount.fixed(7) and parse_amount(3, "N").is_fixed
    assert parse_roll_needed("3+", "--hit") == 3 and parse_roll_needed(5, "Sv") == 5
    assert Profile.parse("WS4 BS4 S4 T4 W1 I4 A1 Ld8 Sv3+").save == 3


@pytest.mark.parametrize("text,where,fragment", [
    ("2X6", "shots", "shots: '2X6' is not a whole number or dice"),
    ("D7", "shots", "is not a whole number or dice"),
    ("D6 highest", "shots", "'highest' of two or more dice"),
    ("30D6", "shots", "1 to 20 dice"),
    ("D3-3", "shots", "dice that always give 0 to"),
    (True, "shots", "is not a whole number"),
    ("1001", "shots", "a number from 0 to 1000"),
])
def test_bad_amounts_name_the_field(text: object, where: str, fragment: str) -> None:
    with pytest.raises(HerohammerError) as info:
        parse_amount(text, where)  # type: ignore[arg-type]
    assert fragment in str(info.value) and str(info.value).startswith(where)


@pytest.mark.parametrize("text", ["7+", "1+", "three", "", "+", "4++", True])
def test_bad_rolls_needed(text: object) -> None:
    with pytest.raises(HerohammerError, match="Sv"):
        parse_roll_needed(text, "Sv")  # type: ignore[arg-type]


def test_rolling_an_amount_goes_through_the_games_dice() -> None:
    scripted = ScriptedDice([3, 5, 6, 2])
    assert parse_amount("2D6").roll(scripted, "shots", "test") == 8
    assert parse_amount("D3+1").roll(scripted, "shots", "test") == 4  # a 6 on the D6 is a 3 on the D3
    assert parse_amount("2D6 highest").roll(ScriptedDice([2, 5]), "x", "test") == 5
    seeded = [parse_amount("D6").roll(SeededDice(s), "x", "test") for s in range(200)]
    assert set(seeded) == {1, 2, 3, 4, 5, 6}
    assert parse_amount("4").roll(ScriptedDice([]), "x", "test") == 4  # no die for a fixed number


def test_cli_arguments_use_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["odds", "attacks", "D6+", "--hit", "3+", "--wound", "4+"], capsys)
    assert code == 2 and "'D6+' is not a whole number or dice such as D6" in err
    code, _, err = run(["odds", "attacks", "3", "--hit", "9+", "--wound", "4+"], capsys)
    assert code == 2 and "'9+' is not a roll from 2+ to 6+" in err


SCATTER = """
ruleset: 40k3
phase: shooting
active: eldar
sides:
  eldar:
    - id: guardians
      models:
        - {name: G1, profile: "WS3 BS3 S3 T3 W1 I4 A1 Ld8 Sv5+", at: [20, 10], weapons: [scatter]}
  orks:
    - id: boyz
      models:
        - {name: Boy 1, profile: "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", at: [20, 20]}
        - {name: Boy 2, profile: "WS4 BS2 S3 T4 W1 I2 A2 Ld7 Sv6+", at: [22, 20]}
weapons:
  - {name: scatter, type: assault, shots: SHOTS, range: 24, strength: 4, ap: "-"}
"""


def test_random_shots_in_weapon_data_are_rolled_through_the_games_dice(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from herohammer import Game, load_scenario
    from herohammer.action_odds import action_odds

    path = tmp_path / "scatter.yaml"
    path.write_text(SCATTER.replace("SHOTS", "D3"), encoding="utf-8")
    state = load_scenario(path)
    shoot = {"do": "shoot", "unit": "guardians", "target": "boyz"}
    game = Game(state, ScriptedDice([5, 6, 6, 6, 6, 6, 1, 1, 4, 4]))  # D3 from a 5: 3 shots, all hit
    events = game.apply(shoot)
    assert any("3 shots" in e.message for e in events)
    answer = action_odds(state, shoot)
    assert answer.exact
    per_shot = (icepool.d6 >= 4) & (icepool.d6 >= 4) & ~(icepool.d6 >= 6)  # BS3, S4 vs T4, save 6+
    unsaved = icepool.Die([1, 2, 3]) @ per_shot.map(lambda x: int(x))
    nothing = dict(zip(unsaved.outcomes(), unsaved.probabilities()))[0]
    assert answer.probability(lambda o: o.lost("boyz") == 0).p == nothing
    assert state.weapons[0].to_data()["shots"] == "D3"  # written back as read


@pytest.mark.parametrize("shots,fragment", [("D7", "shots: 'D7' is not a whole number or dice"),
                                            ("4D6", "dice that always give 0 to 20")])
def test_bad_shots_notation_names_the_weapon_field(tmp_path, shots: str, fragment: str,  # type: ignore[no-untyped-def]
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SCATTER.replace("SHOTS", shots), encoding="utf-8")
    code, _, err = run(["actions", str(path)], capsys)
    assert code == 2 and "weapons[0].shots" in err and fragment in err
