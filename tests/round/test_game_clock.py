"""The game clock of a game in play: increments, a flag falling, a stored clock coming
back charged, and a bot's budget within its clock. Every moment is given (``now``):
nothing here waits or reads the wall clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.round.clock import MIN_BUDGET, SAFETY, Clock, move_budget


def test_a_clock_deducts_the_turn_and_adds_the_increment() -> None:
    clock = Clock(60.0, 2.0)
    clock.start("x", now=100.0)
    assert clock.left("x", now=103.0) == 57.0 and clock.left("o", now=103.0) == 60.0
    assert clock.moved("x", now=105.0)
    assert clock.remaining == {"x": 57.0, "o": 60.0}
    clock.start("o", now=105.0)
    assert not clock.moved("o", now=166.0)  # 61 s on a 60 s clock: the flag fell
    assert clock.remaining["o"] == 0.0


@pytest.mark.parametrize(
    ("left", "increment", "plies", "cap"),
    [(60, 0, 56, 60), (1, 0, 2, 60), (0.1, 0, 10, 5), (300, 5, 4, 10), (5, 2, 1, 60)],
)
def test_a_bots_budget_fits_its_clock(
    left: float, increment: float, plies: int, cap: float
) -> None:
    budget = move_budget(left, increment, plies, cap)
    assert 0 < budget <= cap
    assert budget <= max(left - SAFETY, 0.05)


def test_a_stored_clock_comes_back_stopped_with_the_downtime_charged() -> None:
    clock = Clock(60.0, 0.0)
    clock.start("o", now=10.0)
    stored = clock.to_dict()
    assert stored["running"] == "o" and isinstance(stored["started"], float)
    back = Clock.from_dict(stored, now=float(stored["started"]) + 15.0)
    assert back is not None and back.running is None
    assert back.remaining == {"x": 60.0, "o": 45.0}
    late = Clock.from_dict(stored, now=float(stored["started"]) + 600.0)
    assert late is not None and late.remaining["o"] == 0.0  # never below zero
    assert Clock.from_dict(None) is None and Clock.from_dict("junk") is None


EIGHTHS = st.integers(0, 240).map(lambda n: n / 8)
"""Seconds in eighths: sums and differences of them are exact in floating point, so the
expected clock is the clock's own arithmetic to the last bit."""


@given(
    base=st.integers(1, 600).map(float),
    increment=st.integers(0, 80).map(lambda n: n / 8),
    spent=st.lists(EIGHTHS, min_size=1, max_size=20),
)
def test_a_side_keeps_base_plus_increments_minus_its_time_or_loses_on_time(
    base: float, increment: float, spent: list[float]
) -> None:
    clock = Clock(base, increment)
    now, expected = 0.0, base
    for seconds in spent:
        clock.start("x", now=now)
        now += seconds
        in_time = clock.moved("x", now=now)
        expected -= seconds
        assert in_time == (expected >= 0)
        if not in_time:
            assert clock.remaining["x"] == 0.0
            break
        expected += increment
        assert clock.remaining["x"] == expected
        assert clock.remaining["o"] == base  # the other side's clock never ran
    assert clock.running is None


@given(
    left=st.floats(0.0, 600.0),
    increment=st.floats(0.0, 10.0),
    plies=st.integers(0, 200),
    cap=st.floats(0.1, 60.0),
)
def test_a_bots_budget_is_never_more_than_its_cap_or_its_clock(
    left: float, increment: float, plies: int, cap: float
) -> None:
    budget = move_budget(left, increment, plies, cap)
    assert budget >= MIN_BUDGET
    assert budget <= max(MIN_BUDGET, min(cap, left - SAFETY))


def test_a_charge_deducts_the_given_seconds_not_the_time_since_the_turn_began() -> None:
    """A hosted bot's move: charged its CPU seconds at the moment it answered, whatever
    wall time passed; a charge past its clock is a flag."""
    clock = Clock(10.0, 1.0)
    clock.start("x", now=100.0)
    clock.charge("x", 0.5, now=107.0)  # 7 s of wall time, 0.5 s of CPU
    assert clock.moved("x", now=107.0)
    assert clock.remaining["x"] == 10.0 - 0.5 + 1.0
    clock.start("o", now=107.0)
    clock.charge("o", 10.5, now=108.0)
    assert not clock.moved("o", now=108.0)
    assert clock.remaining["o"] == 0.0
