"""``fewer_collections``: the collector's youngest and middle thresholds raised while an enumeration runs, and put back after."""

from __future__ import annotations

import gc
import threading
from fractions import Fraction
from collections.abc import Iterator

import pytest

from herohammer.collector import MIDDLE_LOOKS, YOUNG_OBJECTS, fewer_collections, with_fewer_collections
from herohammer.dice import Dice, enumerate_outcomes


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_the_threshold_is_raised_inside_and_put_back_after() -> None:
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_OBJECTS, MIDDLE_LOOKS, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_threshold_of_either_generation_is_kept_and_the_other_raised() -> None:
    gc.set_threshold(YOUNG_OBJECTS * 2, 10, 10)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_OBJECTS * 2, MIDDLE_LOOKS, 10)
    assert gc.get_threshold() == (YOUNG_OBJECTS * 2, 10, 10)
    gc.set_threshold(700, MIDDLE_LOOKS * 3, 10)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_OBJECTS, MIDDLE_LOOKS * 3, 10)
    assert gc.get_threshold() == (700, MIDDLE_LOOKS * 3, 10)


def test_an_error_inside_puts_the_threshold_back() -> None:
    with pytest.raises(ZeroDivisionError), fewer_collections():
        _ = 1 / 0
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_blocks_share_one_raise_undone_by_the_outermost() -> None:
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold()[0] == YOUNG_OBJECTS
        assert gc.get_threshold()[0] == YOUNG_OBJECTS  # the outer block still runs
    assert gc.get_threshold() == (700, 10, 10)


def test_collection_turned_off_or_higher_thresholds_are_left_alone() -> None:
    gc.set_threshold(0, 10, 10)
    with fewer_collections():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)
    gc.set_threshold(YOUNG_OBJECTS * 2, MIDDLE_LOOKS * 2, 5)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_OBJECTS * 2, MIDDLE_LOOKS * 2, 5)
    assert gc.get_threshold() == (YOUNG_OBJECTS * 2, MIDDLE_LOOKS * 2, 5)


def test_thresholds_the_caller_sets_inside_are_kept() -> None:
    with fewer_collections():
        gc.set_threshold(5_000, 20, 20)
    assert gc.get_threshold() == (5_000, 20, 20)


def test_concurrent_blocks_put_the_threshold_back_when_the_last_one_ends() -> None:
    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_collections():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(10)
    with fewer_collections():
        pass
    assert gc.get_threshold()[0] == YOUNG_OBJECTS  # the other thread's enumeration still runs
    leave.set()
    thread.join(10)
    assert gc.get_threshold() == (700, 10, 10)


def test_an_enumeration_runs_with_the_raised_threshold_and_gives_it_back() -> None:
    seen: list[int] = []

    def rules(dice: Dice) -> int:
        seen.append(gc.get_threshold()[0])
        return dice.d6("a die", "test")

    dist = enumerate_outcomes(rules)
    assert set(seen) == {YOUNG_OBJECTS}
    assert gc.get_threshold() == (700, 10, 10)
    assert dist.probability(lambda face: face == 6) == Fraction(1, 6)


def test_the_decorator_keeps_the_function_s_name_and_result() -> None:
    @with_fewer_collections
    def threshold_now(plus: int) -> int:
        """What the threshold is."""
        return gc.get_threshold()[0] + plus

    assert threshold_now(1) == YOUNG_OBJECTS + 1
    assert threshold_now.__name__ == "threshold_now" and threshold_now.__doc__ == "What the threshold is."
