"""A judge's cases for 40k 3rd and 4th edition, sixth round: the 4th edition's Morale check for shooting casualties
over the whole Shooting phase, and sequences in which the state changes around a character.

Each case plays actions through ``Game`` (``check``, ``apply``, ``undo``), a scenario file or the command line,
and asserts what the published rulebook says: the legal case and the illegal one, the clause cited, and that a
refused action changes nothing (``assert_illegal``).

4th ed. rulebook, Morale, Taking Morale tests, A) Shooting casualties: "A unit losing 25% or more of its current
unit strength in models from shooting during a single Shooting phase must pass a Morale check at the end of the
Shooting phase, with the appropriate modifiers, or else it will fall back. A unit that is already falling back, is
pinned or is locked in close combat does not have to take this test. The Leadership test is modified by the
following factor: -1 if the unit is below 50% of its starting strength".
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from herohammer import fastsim
from herohammer.dice import Dice, ScriptedDice, enumerate_outcomes
from herohammer.errors import ScenarioError
from herohammer.game import Game
from herohammer.scenario import state_from_data, state_to_data
from herohammer.simulate import Outcome, make_driver, outcome_of, run_engine_once
from herohammer.units import Status

from _cli import run
from _w40k import assert_illegal, assert_legal, game, hero, model, scenario, squad, undo_to

BOTH = pytest.mark.parametrize("ruleset", ["40k3", "40k4"])
BOY = "WS4 BS2 S3 T4 W1 I2 A2 Ld{ld} Sv6+"
HIT = [6, 6]  # one boltgun shot 20" away: hits, wounds; AP 5 leaves a Boy no save


def boyz(n: int = 8, ld: int = 7, **extra: Any) -> dict[str, Any]:
    """Blue's Boyz (Sv 6+), ``n`` of them in a line 2" apart, 20" from red's boltguns."""
    return {"id": "boyz", "models": [model(f"Boy {i + 1}", 14 + 2 * i, 10, ld, BOY) for i in range(n)], **extra}


def gunners(uid: str, x: float, n: int = 1) -> dict[str, Any]:
    """Red's boltgunners (one shot each at 20")."""
    return {"id": uid, "models": [{**model(f"{uid} {i + 1}", x + 2 * i, 30), "weapons": ["boltgun"]}
                                  for i in range(n)]}


def two_teams(ruleset: str, n: int = 8, **extra: Any) -> Game:
    """Red's Shooting phase: two teams of one boltgun each ("a", "b") and the Boyz in range of both."""
    return game(scenario(ruleset, [gunners("a", 14), gunners("b", 24)], [boyz(n, **extra)], phase="shooting"))


def shoot(unit: str, target: str = "boyz") -> dict[str, Any]:
    return {"do": "shoot", "unit": unit, "target": target}


END = {"do": "end_phase"}


def morale(events: list[Any]) -> list[Any]:
    return [e for e in events if e.kind == "morale"]


# == 1. the Morale check for shooting casualties, over the Shooting phase (4th edition) ========
@pytest.mark.rule("published.morale-casualties", "published.fall-back")
def test_40k4_two_volleys_that_together_slay_a_quarter_call_for_one_check_when_the_phase_ends() -> None:
    """Two teams each slay one Boy of eight: neither volley alone is the check's business; together they are 25%
    of the unit's strength in this Shooting phase, so the Boyz test once, when the phase ends, on 2 of 8, and fall
    back there on a failure (4th ed.: "during a single Shooting phase ... at the end of the Shooting phase")."""
    g = two_teams("40k4")
    for team in ("a", "b"):
        events = g.apply(shoot(team), dice=ScriptedDice(HIT))
        assert morale(events) == [] and not g.state.unit("boyz").has(Status.FALLING_BACK)
    assert g.state.shot_this_phase == (("boyz", 8),)
    y = [m.at[1] for m in g.state.unit("boyz").models]
    events = g.apply(END, dice=ScriptedDice([6, 5, 3, 3]))
    checks = morale(events)
    assert len(checks) == 1 and "lost 2 of 8 models this Shooting phase" in checks[0].message
    assert "published.morale-casualties" in checks[0].rules and "fails" in checks[0].message
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    assert all(m.at[1] < v for m, v in zip(g.state.unit("boyz").models, y))  # 6" away from red's guns
    assert g.state.phase.value == "assault" and g.state.shot_this_phase == ()
    assert [e.kind for e in events][-1] == "phase"  # the checks come before the next phase begins


@pytest.mark.rule("published.morale-casualties")
def test_40k3_tests_each_attack_on_its_own_so_two_small_volleys_call_for_none() -> None:
    """3rd edition keeps its reading (decision): the check follows the attack that slew a quarter of the models
    the unit had when it began; two volleys slaying one Boy of eight each call for none, now or at the phase's
    end, and one volley slaying two calls for it at once."""
    g = two_teams("40k3")
    for team in ("a", "b"):
        assert morale(g.apply(shoot(team), dice=ScriptedDice(HIT))) == []
    assert morale(g.apply(END)) == [] and g.state.shot_this_phase == ()
    pair = game(scenario("40k3", [gunners("a", 14, n=2)], [boyz(8)], phase="shooting"))
    checks = morale(pair.apply(shoot("a"), dice=ScriptedDice(HIT * 2 + [1, 1])))
    assert len(checks) == 1 and "lost 2 of 8" in checks[0].message and "passes" in checks[0].message


@pytest.mark.rule("published.morale-casualties")
def test_40k4_losses_under_a_quarter_of_the_phase_strength_call_for_no_check() -> None:
    """One Boy of five is 20%: no check at the end of the phase; two of five (40%) call for it. The strength is the
    unit's when first shot this phase, not its starting strength: five Boyz left of ten lose one of five."""
    g = two_teams("40k4", n=5, models_at_start=10)
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    g.apply(shoot("b"), dice=ScriptedDice([1]))  # a miss
    assert morale(g.apply(END)) == []
    g = two_teams("40k4", n=5, models_at_start=10)
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    g.apply(shoot("b"), dice=ScriptedDice(HIT))
    checks = morale(g.apply(END, dice=ScriptedDice([1, 1])))
    assert len(checks) == 1 and "lost 2 of 5" in checks[0].message


@pytest.mark.rule("published.morale-casualties", "published.pinning", "published.fall-back")
@pytest.mark.parametrize("status,words,rule", [("pinned", "is pinned", "published.pinning"),
                                               ("falling_back", "is already falling back", "published.fall-back")])
def test_40k4_a_pinned_or_falling_back_unit_is_told_it_takes_no_check_at_the_phase_end(status: str, words: str,
                                                                                     rule: str) -> None:
    """"A unit that is already falling back, is pinned ... does not have to take this test": the phase ends with
    the ruling, citing both clauses, and no dice rolled; the unit is as it was."""
    g = two_teams("40k4", status=[status])
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    g.apply(shoot("b"), dice=ScriptedDice(HIT))
    before = g.state.unit("boyz")
    checks = morale(g.apply(END, dice=ScriptedDice([])))
    assert len(checks) == 1 and words in checks[0].message and not checks[0].rolls
    assert {"published.morale-casualties", rule} <= set(checks[0].rules)
    assert g.state.unit("boyz").status == before.status and g.state.unit("boyz").models == before.models


@pytest.mark.rule("published.morale-casualties", "published.pinning")
def test_40k4_a_unit_pinned_by_a_test_in_the_same_phase_takes_no_check_at_its_end() -> None:
    """Pinned between the volleys and the end of the phase (the judge's Pinning test for a pinning weapon), the
    Boyz are pinned when the check falls due: they take none."""
    g = two_teams("40k4")
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    g.apply(shoot("b"), dice=ScriptedDice(HIT))
    g.apply({"do": "test", "unit": "boyz", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    assert g.state.unit("boyz").has(Status.PINNED)
    checks = morale(g.apply(END, dice=ScriptedDice([])))
    assert len(checks) == 1 and "is pinned" in checks[0].message


@pytest.mark.rule("published.morale-casualties", "published.stubborn")
def test_40k4_a_unit_below_half_its_starting_strength_tests_at_minus_one() -> None:
    """"-1 if the unit is below 50% of its starting strength", counted on the models left when the check is taken:
    four Boyz (Ld 7) of ten at the start lose one of four; the check is on Ld 7 -1 and a roll of 7 fails. Six of
    ten losing two leave four: -1. Seven of ten losing two leave five, exactly half: no modifier, 7 passes. A
    Stubborn unit ignores the -1 (published.stubborn)."""
    g = two_teams("40k4", n=4, models_at_start=10)
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    checks = morale(g.apply(END, dice=ScriptedDice([3, 4, 1, 1])))
    assert len(checks) == 1 and "Ld 7 -1" in checks[0].message and "fails" in checks[0].message
    assert "below half its starting strength (3 of the 10 models it began the battle with" in checks[0].message
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    half = game(scenario("40k4", [gunners("a", 14, n=2)], [boyz(6, models_at_start=10)], phase="shooting"))
    half.apply(shoot("a"), dice=ScriptedDice(HIT * 2))  # two of six: four of ten left, below half
    checks = morale(half.apply(END, dice=ScriptedDice([3, 4, 1, 1])))
    assert "Ld 7 -1" in checks[0].message
    even = game(scenario("40k4", [gunners("a", 14, n=2)], [boyz(7, models_at_start=10)], phase="shooting"))
    even.apply(shoot("a"), dice=ScriptedDice(HIT * 2))  # two of seven: five of ten left, exactly half
    checks = morale(even.apply(END, dice=ScriptedDice([3, 4])))
    assert "Ld 7 " in checks[0].message and "-1" not in checks[0].message and "passes" in checks[0].message
    stubborn = two_teams("40k4", n=4, models_at_start=10, rules=["Stubborn"])
    stubborn.apply(shoot("a"), dice=ScriptedDice(HIT))
    checks = morale(stubborn.apply(END, dice=ScriptedDice([3, 4])))
    assert "Stubborn" in checks[0].message and "passes" in checks[0].message
    assert "published.stubborn" in checks[0].rules


@pytest.mark.rule("published.morale-casualties")
def test_40k4_undo_takes_back_the_check_and_the_losses_counted() -> None:
    """Undo is exact: undoing the phase's end brings back the count (the check again, with other dice, passes);
    undoing the second volley leaves one Boy lost, too few for a check."""
    g = two_teams("40k4")
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    after_one = g.state
    g.apply(shoot("b"), dice=ScriptedDice(HIT))
    after_two = g.state
    g.apply(END, dice=ScriptedDice([6, 6, 3, 3]))
    assert g.state.unit("boyz").has(Status.FALLING_BACK)
    g.undo()
    assert g.state is after_two and g.state.shot_this_phase == (("boyz", 8),)
    checks = morale(g.apply(END, dice=ScriptedDice([2, 2])))
    assert "passes" in checks[0].message and not g.state.unit("boyz").has(Status.FALLING_BACK)
    undo_to(g, after_one)
    assert g.state.shot_this_phase == (("boyz", 8),) and len(g.state.unit("boyz").models) == 7
    assert morale(g.apply(END)) == []


@pytest.mark.rule("published.morale-casualties", "40k3.psyker.as-shooting", "40k4.char.leadership")
def test_40k4_a_psychic_shooting_attack_counts_with_the_volleys_and_the_squad_tests_on_its_character() -> None:
    """A psychic shooting attack is shooting (40k3.psyker.as-shooting): Smite slaying one of four Marines joined
    by a Captain (Ld 10) counts with the phase's other losses; the squad with its Captain, 5 strong when first
    shot, lost 2 at the end: it tests on the Captain's Leadership."""
    red = [{"id": "lib", "character": "independent", "rules": ["psyker"],
            "models": [{**model("Librarian", 20, 26, 10, "WS5 BS5 S4 T4 W2 I5 A3 Ld{ld} Sv3+"),
                        "weapons": ["bolt pistol"]}]}, gunners("b", 24)]
    blue = [{"id": "tac", "models": [model(f"Marine {i + 1}", 18 + 2 * i, 16, 7, BOY) for i in range(4)]},
            hero("cap", 26, 16, ld=10, joined="tac")]
    g = game(scenario("40k4", red, blue, phase="shooting"))
    events = g.apply({"do": "manifest", "psyker": "lib", "power": "Smite", "target": "tac"},
                     dice=ScriptedDice([3, 3, 6, 1, 1, 1, 6, 1, 1, 1]))
    assert morale(events) == [] and len(g.state.unit("tac").models) == 3
    assert g.state.shot_this_phase == (("tac", 5),)
    g.apply(shoot("b", "tac"), dice=ScriptedDice(HIT))
    checks = morale(g.apply(END, dice=ScriptedDice([5, 5])))
    assert len(checks) == 1 and "lost 2 of 5" in checks[0].message and "Ld 10" in checks[0].message
    assert "40k4.char.leadership" in checks[0].rules


@pytest.mark.rule("published.morale-casualties", "published.fall-back")
def test_40k4_units_test_in_the_order_they_were_first_shot() -> None:
    """Two units broken in one phase test one after the other, in the order they were first shot (decision), each
    falling back at once when it fails."""
    blue = [boyz(4), {"id": "grots", "models": [model(f"Grot {i + 1}", 40 + 2 * i, 10, 5, BOY) for i in range(4)]}]
    g = game(scenario("40k4", [gunners("a", 14), gunners("b", 40)], blue, phase="shooting"))
    g.apply(shoot("b", "grots"), dice=ScriptedDice(HIT))
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    events = g.apply(END, dice=ScriptedDice([6, 6, 1, 1, 6, 6, 1, 1]))
    checks = morale(events)
    assert [c.message.split()[0] for c in checks] == ["grots", "boyz"]
    kinds = [(e.kind, e.message.split()[0]) for e in events if e.kind in ("morale", "fall_back")]
    assert kinds == [("morale", "grots"), ("fall_back", "grots"), ("morale", "boyz"), ("fall_back", "boyz")]


@pytest.mark.rule("published.morale-casualties")
def test_40k4_a_unit_destroyed_in_the_phase_takes_no_check_and_its_character_none_either() -> None:
    """The Boyz shot down to the last model and then destroyed take no check at the end; a Nob (an ordinary
    character) left alone of a destroyed mob is a unit of his own that lost nothing this phase."""
    g = game(scenario("40k4", [gunners("a", 14, n=2)], [boyz(2)], phase="shooting"))
    g.apply(shoot("a"), dice=ScriptedDice(HIT * 2))
    assert not g.state.unit("boyz").alive
    assert morale(g.apply(END, dice=ScriptedDice([]))) == []


@pytest.mark.rule("published.morale-casualties")
def test_40k4_the_count_survives_saving_and_a_bad_count_gets_one_clear_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved between the volleys loads back with the losses counted (``shot_this_phase``) and ends its phase
    with the same check; a count naming no unit, or no whole number of models, is refused in one line naming the
    file and the field."""
    g = two_teams("40k4")
    g.apply(shoot("a"), dice=ScriptedDice(HIT))
    g.apply(shoot("b"), dice=ScriptedDice(HIT))
    saved = state_to_data(g.state)
    assert saved["shot_this_phase"] == {"boyz": 8}
    loaded = Game(state_from_data(saved))
    assert loaded.state == g.state
    checks = morale(loaded.apply(END, dice=ScriptedDice([1, 1])))
    assert "lost 2 of 8" in checks[0].message
    path = tmp_path / "shot.yaml"
    for bad, field, phase in (({"orks": 8}, "shot_this_phase.orks", "shooting"),
                              ({"boyz": 0}, "shot_this_phase", "shooting"),
                              ({"boyz": "eight"}, "shot_this_phase", "shooting"),
                              ({"boyz": 8}, "shot_this_phase", "assault")):
        data = {**saved, "shot_this_phase": bad, "phase": phase}
        path.write_text(yaml.safe_dump(data))
        code, out, err = run(["check", str(path), "--action", json.dumps(END)], capsys)
        assert code == 2 and str(path) in err and field in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
        with pytest.raises(ScenarioError):
            state_from_data(data, str(path))


@pytest.mark.rule("published.morale-casualties")
def test_odds_of_a_4th_edition_volley_say_the_check_comes_at_the_phase_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``odds action`` of one volley in 4th edition has no Morale check in it, and says so citing the clause (text
    and JSON); in 3rd edition the volley's odds hold the check and no such note is printed."""
    for ruleset in ("40k3", "40k4"):
        path = tmp_path / f"{ruleset}.yaml"
        path.write_text(yaml.safe_dump(scenario(ruleset, [gunners("a", 14, n=2)], [boyz(4)], phase="shooting")))
        code, out, err = run(["odds", "action", str(path), "--action", json.dumps(shoot("a"))], capsys)
        assert code == 0, err
        noted = [line for line in out.splitlines() if line.startswith("note:")]
        assert ("falling_back" in out) == (ruleset == "40k3")
        if ruleset == "40k4":
            assert len(noted) == 1 and "[published.morale-casualties]" in noted[0]
            assert "end of" in noted[0] or "Shooting phase ends" in noted[0]
        else:
            assert noted == []
        code, out, err = run(["odds", "action", str(path), "--action", json.dumps(shoot("a")), "--json"], capsys)
        notes = json.loads(out)["result"].get("notes", [])
        assert (len(notes) == 1) == (ruleset == "40k4")


@pytest.mark.rule("published.morale-casualties")
def test_the_web_odds_of_a_4th_edition_volley_carry_the_same_note_as_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``herohammer serve`` answers the odds of a 4th edition volley with the command line's result, its note on the
    Morale check at the end of the Shooting phase included."""
    import time

    from fastapi.testclient import TestClient

    from herohammer.web.api import create_app

    data = scenario("40k4", [gunners("a", 14, n=2)], [boyz(4)], phase="shooting")
    path = tmp_path / "volley.yaml"
    path.write_text(yaml.safe_dump(data))
    code, out, err = run(["odds", "action", str(path), "--action", json.dumps(shoot("a")), "--json"], capsys)
    cli = json.loads(out)["result"]
    client = TestClient(create_app())
    table = client.post("/api/tables", json={"scenario": data}).json()["table_id"]
    job = client.post(f"/api/tables/{table}/odds", json={"action": shoot("a")}).json()
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    assert job["status"] == "done" and job["result"]["result"] == cli
    assert len(cli["notes"]) == 1 and "published.morale-casualties" in cli["notes"][0]


def _compiled_and_brute_force(data: dict[str, Any], plan: list[dict[str, Any]]
                              ) -> tuple[dict[Outcome, Fraction], dict[Outcome, Fraction]]:
    state = state_from_data(data)
    driver = make_driver(state, plan)
    compiled = fastsim.compile_plan(state, driver, 10**6)

    def whole_run(dice: Dice) -> Outcome:
        return outcome_of(state, run_engine_once(state, driver, dice))

    brute = dict(enumerate_outcomes(whole_run, 400_000, fine=True, merge_loops=True).items())
    return dict(zip(compiled.outcomes, compiled.exact)), brute


@pytest.mark.rule("published.morale-casualties")
def test_40k4_a_plan_of_two_volleys_and_the_phase_end_compiles_to_the_brute_force_answer() -> None:
    """The whole-turn compile plays the same rules code: two volleys then the end of the phase give exactly the
    brute-force enumeration's odds, and the Boyz fall back only in runs where the phase ended with 25% lost."""
    data = scenario("40k4", [gunners("a", 14), gunners("b", 24)], [boyz(4)], phase="shooting")
    plan = [shoot("a"), shoot("b"), END]
    compiled, brute = _compiled_and_brute_force(data, plan)
    assert compiled == brute and sum(compiled.values()) == 1
    fell = sum(p for o, p in compiled.items() if dict(o)["boyz: falling_back"])
    assert 0 < fell < 1
    volleys_only, brute_volleys = _compiled_and_brute_force(data, plan[:2])
    assert volleys_only == brute_volleys
    assert not any(dict(o).get("event: morale") for o in volleys_only)
    assert any(dict(o).get("event: morale") for o in compiled)


# == 2. sequences in which the state changes around a character ================================
def lascannons(uid: str, x: float, y: float, n: int = 1) -> dict[str, Any]:
    return {"id": uid, "models": [{**model(f"{uid} {i + 1}", x + 2 * i, y), "weapons": ["lascannon"]}
                                  for i in range(n)]}


@pytest.mark.rule("published.morale-casualties", "40k4.char.leadership", "published.wound-allocation")
def test_40k4_a_captain_slain_by_the_first_volley_is_a_loss_and_lends_no_leadership_at_the_phase_end() -> None:
    """A Captain (Ld 10, one Wound) joined to five Marines (Ld 7) is slain with a Marine by the first volley; a
    second volley slays nobody. When the phase ends the squad, six strong when first shot, has lost two (the Captain
    counts: he was one of its models) and tests on its own Ld 7: a unit is no longer joined by a dead character.
    Undone to before the first volley, the Captain stands and the squad's Leadership is his again."""
    cap = hero("cap", 22, 11.5, ld=10, joined="tac")
    cap["models"][0]["profile"] = "WS5 BS5 S4 T4 W1 I5 A3 Ld10 Sv3+"
    red = [squad("tac", 20, 10, n=5, ld=7), cap]
    blue = [{"id": "bolt", "models": [{**model(f"Gunner {i + 1}", 20 + 2 * i, 30), "weapons": ["boltgun"]}
                                      for i in range(6)]}, gunners("b", 34)]
    g = game(scenario("40k4", red, blue, phase="shooting", active="blue"))
    start = g.state
    # six hits, six wounds: one each on the five Marines and the sixth on the Captain; one Marine and he fail
    events = g.apply(shoot("bolt", "tac"), dice=ScriptedDice([6] * 12 + [6, 6, 6, 6, 1] + [1]))
    assert morale(events) == [] and not g.state.unit("cap").alive and len(g.state.unit("tac").models) == 4
    g.apply(shoot("b", "tac"), dice=ScriptedDice([1]))
    checks = morale(g.apply(END, dice=ScriptedDice([4, 4, 3, 3])))
    assert len(checks) == 1 and "lost 2 of 6" in checks[0].message and "Ld 7" in checks[0].message
    assert "40k4.char.leadership" not in checks[0].rules and "fails" in checks[0].message
    undo_to(g, start)
    assert g.state.unit("cap").alive and g.ruleset.leadership_of(g.state, "tac").value == 10


@pytest.mark.rule("published.morale-casualties", "published.stubborn", "40k4.ic.rules-not-shared", "published.fearless")
def test_40k4_a_stubborn_captain_spares_his_squad_the_minus_one_a_fearless_one_does_not_spare_the_check() -> None:
    """Three Marines of eight at the start lose one this phase, with their Captain beside them. Stubborn is shared
    both ways (published.stubborn, seed 001): with a Stubborn Captain the check ignores the -1 for being below half.
    Fearless is not shared (40k4.ic.rules-not-shared): with a Fearless Captain the squad still tests, at -1."""
    for rule, modifier in (("Stubborn", False), ("Fearless", True)):
        red = [squad("tac", 20, 10, n=3, ld=7, models_at_start=8), hero("cap", 22, 11.5, ld=9, joined="tac",
                                                                        rules=[rule])]
        g = game(scenario("40k4", red, [gunners("b", 20)], phase="shooting", active="blue"))
        g.apply(shoot("b", "tac"), dice=ScriptedDice([6, 6, 1]))
        assert len(g.state.unit("tac").models) == 2
        checks = morale(g.apply(END, dice=ScriptedDice([4, 5, 1, 1])))
        assert len(checks) == 1 and "lost 1 of 4" in checks[0].message and "Ld 9" in checks[0].message
        assert ("fails" in checks[0].message) == modifier  # 9 on Ld 9 passes; on Ld 9 -1 it fails
        assert ("-1" in checks[0].message) == modifier, checks[0].message
        assert ("published.stubborn" in checks[0].rules) == (not modifier)


@pytest.mark.rule("published.last-man-standing", "published.morale-casualties", "published.fall-back")
def test_40k4_a_squad_shot_down_to_one_takes_no_last_man_standing_only_the_phase_check() -> None:
    """Four Boyz shot down to one: 4th edition has no Last Man Standing test (published.last-man-standing, settled
    in round 7; this test once held the opposite), so the volley rolls no check and the last Boy is told why; when
    the phase ends he takes the one check for three of four lost, at -1 (below half strength)."""
    g = game(scenario("40k4", [gunners("a", 14, n=3)], [boyz(4)], phase="shooting"))
    events = g.apply(shoot("a"), dice=ScriptedDice(HIT * 3))
    told = [e for e in events if "published.last-man-standing" in e.rules]
    assert len(told) == 1 and "no Last Man Standing test" in told[0].message and not told[0].rolls
    assert morale(events) == [] and not g.state.unit("boyz").has(Status.FALLING_BACK)
    checks = morale(g.apply(END, dice=ScriptedDice([6, 6, 2, 2])))
    assert len(checks) == 1 and "lost 3 of 4" in checks[0].message and "-1" in checks[0].message
    assert "fails" in checks[0].message and g.state.unit("boyz").has(Status.FALLING_BACK)


@pytest.mark.rule("published.morale-casualties", "40k3.char.kinds", "40k4.char.no-last-man")
def test_40k4_an_ordinary_sergeant_who_outlives_his_squad_is_the_unit_and_takes_its_check_at_the_phase_end() -> None:
    """An ordinary character is part of his unit (seed 000): a Sergeant whose two Marines are shot away is what is
    left of the squad, not a unit of his own. He takes no Last Man Standing test (40k4.char.no-last-man), but the
    squad, three strong when first shot, has lost two: when the phase ends he takes its Morale check, at -1 (none of
    its own models left). An independent Captain left alone the same way is a unit of his own and takes none."""
    red = [squad("tac", 20, 10, n=2), hero("sgt", 21, 11.5, kind="ordinary", joined="tac")]
    g = game(scenario("40k4", red, [lascannons("las", 20, 30, n=2)], phase="shooting", active="blue"))
    start = g.state
    events = g.apply(shoot("las", "tac"), dice=ScriptedDice([6] * 4))
    assert any("40k4.char.no-last-man" in e.rules for e in events) and morale(events) == []
    assert g.state.unit("sgt").last_of == "tac"
    checks = morale(g.apply(END, dice=ScriptedDice([5, 5, 1, 1])))
    assert len(checks) == 1 and checks[0].message.startswith("sgt lost 2 of 3 models this Shooting phase")
    assert "the last of tac" in checks[0].message and "Ld 10 -1" in checks[0].message
    assert "fails" in checks[0].message and g.state.unit("sgt").has(Status.FALLING_BACK)
    undo_to(g, start)
    red[1] = hero("cap", 21, 11.5, joined="tac")
    g = game(scenario("40k4", red, [lascannons("las", 20, 30, n=2)], phase="shooting", active="blue"))
    g.apply(shoot("las", "tac"), dice=ScriptedDice([6] * 4))
    assert g.state.unit("cap").joined is None and morale(g.apply(END, dice=ScriptedDice([]))) == []


@pytest.mark.rule("40k3.ic.target", "40k4.target.closest")
@BOTH
def test_a_lone_character_screened_by_a_squad_becomes_a_target_once_the_squad_is_shot_away(ruleset: str) -> None:
    """Blue's lone Captain stands 5" behind a squad of two. Before, the Lascannon team B may not pick him out: in 3rd
    he is within 6" of another unit of his and not B's closest target; in 4th he is not B's closest target. Team A
    shoots the squad away; in the same phase B may now target him (3rd: no other living unit of his within 6"; 4th:
    now B's closest target), each ruling citing its edition's clause; undone, he is screened again."""
    blue = [squad("screen", 20, 22, n=2), hero("cap", 21, 16, ld=10)]
    g = game(scenario(ruleset, [lascannons("A", 10, 30, n=2), lascannons("B", 22, 30)], blue, phase="shooting"))
    rule = {"40k3": "40k3.ic.target", "40k4": "40k4.target.closest"}[ruleset]
    at_cap = shoot("B", "cap")
    assert_illegal(g, at_cap, rule)
    before = g.state
    g.apply(shoot("A", "screen"), dice=ScriptedDice([6] * 4))
    assert not g.state.unit("screen").alive
    assert_legal(g, at_cap, rule)
    g.undo()
    assert g.state is before
    assert_illegal(g, at_cap, rule)


@pytest.mark.rule("40k4.ic.join", "40k4.ic.pinned", "published.pinning")
@BOTH
def test_a_character_who_joins_a_squad_that_is_then_pinned_in_the_same_phase_is_pinned_with_it(
        ruleset: str) -> None:
    """A Captain joins a squad in its Movement phase (3rd: by moving within 2"; 4th: declared), then the judge's
    Pinning test pins the squad in the same phase: the Captain is pinned with it and may neither leave (4th:
    40k4.ic.pinned; 3rd: he has used his move) nor shoot apart in the Shooting phase; undone, the join stands and
    the squad is unpinned."""
    red = [squad("tac", 20, 10, n=3), hero("cap", 20, 14, ld=10)]
    g = game(scenario(ruleset, red, [squad("orks", 20, 40)], phase="movement"))
    join = ({"do": "join", "character": "cap", "unit": "tac", "to": [22, 11.5]} if ruleset == "40k4"
            else {"do": "move", "unit": "cap", "to": [[22, 11.5]]})
    g.apply(join)
    assert g.state.unit("cap").joined == "tac"
    joined = g.state
    g.apply({"do": "test", "unit": "tac", "characteristic": "Ld", "kind": "Pinning"}, dice=ScriptedDice([6, 6]))
    assert g.state.unit("cap").has(Status.PINNED) and g.state.unit("tac").has(Status.PINNED)
    leave = {"do": "leave", "character": "cap", "to": [22, 16]}
    assert_illegal(g, leave, "40k4.ic.pinned" if ruleset == "40k4" else "40k3.ic.leave")
    g.apply(END)
    assert_illegal(g, shoot("tac", "orks"), "published.pinning")
    g.undo()
    g.undo()
    assert g.state is joined and not g.state.unit("tac").has(Status.PINNED)


# == 3. refusals left to the central turn-sequence check ======================================
RHINO = {"name": "Rhino", "profile": "WS0 BS4 S0 T7 W3 I0 A0 Ld10 Sv3+", "base": [90, 115]}


@pytest.mark.rule("published.turn-sequence", "published.transports")
@BOTH
def test_a_squad_of_the_side_whose_turn_it_is_not_may_not_disembark_and_the_refusal_cites_the_turn(
        ruleset: str) -> None:
    """Blue's squad riding in blue's Rhino may not get out in red's Movement phase: the turn sequence refuses it
    (``Ruleset.judge_checked``, where the disembark's own side check, dead behind it, was removed), citing the rule,
    and the game is unchanged; in blue's own Movement phase the same disembark is legal."""
    rhino = {"id": "rhino", "type": "vehicle", "capacity": 10, "models": [{**RHINO, "at": [26, 30]}]}
    blue = [rhino, squad("tac", 20, 30, n=2, embarked_in="rhino")]
    out = {"do": "disembark", "unit": "tac", "to": [[25, 33.5], [27, 33.5]]}
    g = game(scenario(ruleset, [squad("red", 20, 10)], blue, phase="movement"))
    refused = assert_illegal(g, out, "published.turn-sequence")
    assert "red's turn" in str(refused)
    mine = game(scenario(ruleset, [squad("red", 20, 10)], blue, phase="movement", active="blue"))
    assert_legal(mine, out, "published.transports")
