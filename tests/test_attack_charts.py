"""``odds attacks`` from profiles (UnitCrunch-style): the charts work the rolls out; icepool checks the odds exactly."""

from __future__ import annotations

import json
from fractions import Fraction

import icepool
import pytest

from _cli import run

WOUND_BY_DIFFERENCE = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}  # the published to-wound chart, S minus T


def _oracle_wound(s: int, t: int) -> int | None:
    if s == 0:
        return None
    if t == 0:
        return 2
    return WOUND_BY_DIFFERENCE.get(max(-4, min(2, s - t)))


def _success(need: int | None, reroll: str = "none") -> icepool.Die:
    """One D6 against a roll needed, as icepool rolls it (independent of herohammer's dice code)."""
    if need is None:
        return icepool.Die([False])
    if need <= 1:
        return icepool.Die([True])
    die = icepool.d6
    if reroll == "failed":
        die = die.reroll(range(1, need), depth=1)
    elif reroll == "1s":
        die = die.reroll([1], depth=1)
    return die >= need


def _unsaved_die(hit: int | None, wound: int | None, save: int | None, rh: str = "none", rw: str = "none") -> icepool.Die:
    saved = _success(save) if save else icepool.Die([False])
    return _success(hit, rh) & _success(wound, rw) & ~saved


def _oracle(n: icepool.Die | int, per_attack: icepool.Die) -> dict[str, Fraction]:
    total = n @ per_attack.map(lambda x: int(x))
    return {str(k): p for k, p in zip(total.outcomes(), total.probabilities()) if p}


def _odds(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    code, out, err = run(["odds", "attacks", *argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("bs,s,t,sv,ap,inv,rh,rw", [
    (4, 4, 4, 3, None, None, "none", "none"),
    (3, 8, 4, 2, 2, 4, "failed", "none"),
    (5, 3, 5, 4, 5, None, "1s", "failed"),
    (6, 10, 3, 5, None, 6, "none", "1s"),
    (1, 2, 6, None, None, 5, "failed", "failed"),
])
def test_shooting_from_profiles_matches_icepool(capsys: pytest.CaptureFixture[str], bs: int, s: int, t: int,
                                                sv: int | None, ap: int | None, inv: int | None, rh: str, rw: str) -> None:
    argv = ["7", "--bs", str(bs), "--s", str(s), "--t", str(t), "--reroll-hits", rh, "--reroll-wounds", rw]
    argv += ["--sv", f"{sv}+"] if sv else []
    argv += ["--ap", str(ap)] if ap else []
    argv += ["--inv", f"{inv}+"] if inv else []
    answer = _odds(argv, capsys)
    armour = sv if sv is not None and (ap is None or ap > sv) else None
    save = min([x for x in (armour, inv) if x], default=None)
    expected = _oracle(7, _unsaved_die(max(2, 7 - bs), _oracle_wound(s, t), save, rh, rw))
    got = {k: Fraction(v) for k, v in answer["result"]["distribution"].items()}
    assert got == expected
    at_least = {k: Fraction(v) for k, v in answer["result"]["at_least"].items()}
    assert all(at_least[k] == sum(p for j, p in expected.items() if int(j) >= int(k)) for k in expected)
    assert Fraction(answer["result"]["mean"]) == sum(int(k) * p for k, p in expected.items())
    assert answer["command"] == "odds attacks" and answer["method"] == "exact"
    assert "published.to-hit-bs" in answer["rules"] and "published.to-wound" in answer["rules"]


@pytest.mark.parametrize("ws,vs_ws,need", [(4, 3, 3), (4, 4, 4), (3, 7, 5), (3, 6, 4)])
def test_close_combat_reads_ws_against_ws(capsys: pytest.CaptureFixture[str], ws: int, vs_ws: int, need: int) -> None:
    answer = _odds(["D6", "--ws", str(ws), "--vs-ws", str(vs_ws), "--s", "4", "--t", "4", "--sv", "4+"], capsys)
    assert answer["result"]["hit"] == f"{need}+"
    got = {k: Fraction(v) for k, v in answer["result"]["distribution"].items()}
    assert got == _oracle(icepool.d6, _unsaved_die(need, 4, 4))


@pytest.mark.rule("core.zero.ws")
def test_ws_zero_target_is_hit_automatically_and_ws_zero_attacker_hits_on_6(capsys: pytest.CaptureFixture[str]) -> None:
    auto = _odds(["4", "--ws", "4", "--vs-ws", "0", "--s", "4", "--t", "4"], capsys)
    assert auto["result"]["hit"] == "automatic" and "core.zero.ws" in auto["rules"]
    assert {k: Fraction(v) for k, v in auto["result"]["distribution"].items()} == _oracle(4, _unsaved_die(1, 4, None))
    sixes = _odds(["4", "--ws", "0", "--vs-ws", "4", "--s", "4", "--t", "4"], capsys)
    assert sixes["result"]["hit"] == "6+"
    assert {k: Fraction(v) for k, v in sixes["result"]["distribution"].items()} == _oracle(4, _unsaved_die(6, 4, None))


@pytest.mark.rule("core.zero.bs")
def test_bs_zero_cannot_shoot(capsys: pytest.CaptureFixture[str]) -> None:
    answer = _odds(["10", "--bs", "0", "--s", "4", "--t", "4"], capsys)
    assert answer["result"]["distribution"] == {"0": "1"}
    assert "core.zero.bs" in answer["rules"] and answer["result"]["hit"] == "cannot"
    shoots = _odds(["10", "--bs", "1", "--s", "4", "--t", "4"], capsys)
    assert shoots["result"]["hit"] == "6+"


@pytest.mark.rule("core.zero.s", "core.zero.t")
def test_strength_and_toughness_zero(capsys: pytest.CaptureFixture[str]) -> None:
    never = _odds(["10", "--bs", "4", "--s", "0", "--t", "3"], capsys)
    assert never["result"]["distribution"] == {"0": "1"} and "core.zero.s" in never["rules"]
    both = _odds(["10", "--bs", "4", "--s", "0", "--t", "0"], capsys)
    assert both["result"]["distribution"] == {"0": "1"}  # Strength 0 prevails (the project's reading)
    soft = _odds(["5", "--bs", "4", "--s", "1", "--t", "0"], capsys)
    assert soft["result"]["wound"] == "2+" and "core.zero.t" in soft["rules"]
    assert {k: Fraction(v) for k, v in soft["result"]["distribution"].items()} == _oracle(5, _unsaved_die(3, 2, None))
    no_effect = _odds(["5", "--bs", "4", "--s", "3", "--t", "7"], capsys)
    assert no_effect["result"]["wound"] == "cannot" and no_effect["result"]["distribution"] == {"0": "1"}


def test_random_number_of_attacks_is_a_mixture(capsys: pytest.CaptureFixture[str]) -> None:
    answer = _odds(["2D6", "--hit", "3+", "--wound", "4+", "--save", "5+"], capsys)
    got = {k: Fraction(v) for k, v in answer["result"]["distribution"].items()}
    assert got == _oracle(2 @ icepool.d6, _unsaved_die(3, 4, 5))
    plus = _odds(["D3+1", "--hit", "2+", "--wound", "2+"], capsys)
    d3 = icepool.Die([1, 2, 3]) + 1
    assert {k: Fraction(v) for k, v in plus["result"]["distribution"].items()} == _oracle(d3, _unsaved_die(2, 2, None))


def test_table_shows_at_least_and_mean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["odds", "attacks", "3", "--bs", "4", "--s", "4", "--t", "4"], capsys)
    assert code == 0
    assert "at least" in out and "mean: 1 = 1.000" in out and "published.to-hit-bs" in out


@pytest.mark.parametrize("argv,message", [
    (["5", "--ws", "4", "--s", "4", "--t", "4"], "--ws needs --vs-ws"),
    (["5", "--bs", "4", "--s", "4"], "--s needs --t"),
    (["5", "--bs", "4", "--hit", "3+", "--wound", "4+"], "not allowed with"),
    (["5", "--bs", "11", "--s", "4", "--t", "4"], "--bs must be from 0 to 10"),
    (["2X6", "--hit", "3+", "--wound", "4+"], "is not a whole number or dice"),
    (["5", "--hit", "3+", "--wound", "4+", "--ap", "9"], "--ap must be from 1 to 6"),
])
def test_bad_attack_arguments_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(["odds", "attacks", *argv], capsys)
    assert code == 2 and message in err and "Traceback" not in err
