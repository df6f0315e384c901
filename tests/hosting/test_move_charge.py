"""The move clock's charge, its excuses and its caps as plain functions of a move's
seconds (:class:`~adjacency.hosting.move_clock.MoveTime`), no program run: what a move is
charged (:func:`~adjacency.hosting.move_clock.charge`), what of its wall time the machine
took and is excused when its threads' own figure cannot be read
(:attr:`~adjacency.hosting.move_clock.MoveTime.excused`), its wall cap and how long it is
waited for (:func:`~adjacency.hosting.move_clock.wall_cap`,
:func:`~adjacency.hosting.move_clock.ceiling`), and the verdict at each boundary
(:func:`~adjacency.hosting.move_clock.blame`). tests/hosting/test_move_time.py has what
is a move's own time; tests/hosting/test_move_clock.py plays the same rules with real
programs in the sandbox."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.core.game import Termination
from adjacency.hosting.move_clock import GRACE, MoveTime, blame, ceiling, charge, wall_cap

SECONDS = st.floats(0.0, 60.0, allow_nan=False)


@st.composite
def move_times(draw: st.DrawFn) -> MoveTime:
    """A move's seconds as a sandbox reports them: its CPU at most its wall time on its
    one core, and its threads' waits for a CPU."""
    wall = draw(SECONDS)
    cpu = draw(st.floats(0.0, wall))
    return MoveTime(cpu, wall, draw(st.floats(0.0, 60.0)))


@pytest.mark.parametrize(
    ("time", "charged"),
    [
        (MoveTime(cpu=5.04, wall=5.04), 4.54),  # its own 5 s timer, on its one core
        (MoveTime(cpu=2.0, wall=0.01), 1.99),  # its CPU branch: more CPU than its own time
        (MoveTime(cpu=0.0, wall=3.0), 2.5),  # slept: its own wall time less the grace
        (MoveTime(cpu=0.3, wall=0.3), 0.0),  # within the grace: nothing
        (MoveTime(cpu=1.0, wall=0.2), 0.8),  # its CPU less the grace its wall time spans
    ],
)
def test_a_move_is_charged_its_own_wall_time_less_the_grace_or_its_cpu(
    time: MoveTime, charged: float
) -> None:
    assert charge(time) == pytest.approx(charged)


@given(move_times())
def test_a_charge_is_never_negative_nor_less_than_its_cpu_beyond_the_grace(time: MoveTime) -> None:
    assert charge(time) >= 0.0
    assert charge(time) >= time.own - GRACE - 1e-9
    assert charge(time) >= time.cpu - GRACE - 1e-9


@given(move_times(), st.floats(0.0, 30.0))
def test_the_servers_wait_is_never_charged(time: MoveTime, held: float) -> None:
    """The same move kept waiting ``held`` seconds more for a CPU the machine gave to
    other work (its threads' figure says so) is charged the same."""
    own = MoveTime(time.cpu, time.wall, stalled=0.0)
    kept = MoveTime(time.cpu, time.wall + held, stalled=held)
    assert kept.excused == pytest.approx(held)
    assert kept.own == pytest.approx(own.own)
    assert charge(kept) == pytest.approx(charge(own))


@given(st.floats(-10.0, 60.0))
def test_the_wall_cap_is_the_clock_and_the_grace_and_the_ceiling_three_caps(left: float) -> None:
    assert wall_cap(left) == pytest.approx(max(0.0, left + GRACE))
    assert ceiling(left) == pytest.approx(max(GRACE, 3 * wall_cap(left)))
    assert ceiling(left) >= wall_cap(left)


def test_a_move_within_its_cap_stands_and_one_over_it_loses_on_time() -> None:
    assert blame(MoveTime(cpu=5.4, wall=5.5), 5.0) is None  # its cap is 5.5 s
    over = blame(MoveTime(cpu=5.6, wall=5.6), 5.0)
    assert over is not None and over[0] is Termination.TIME_FORFEIT
    assert over[1].startswith("took 5.60 s of wall time of its own, more than its 5.50 s")
    kept = blame(MoveTime(cpu=1.0, wall=9.0, stalled=8.0), 5.0)  # 8 s the server's
    assert kept is None


@pytest.mark.parametrize("short", [0.0, GRACE / 2])
def test_a_move_starved_to_the_ceiling_is_abandoned_and_one_that_gave_up_is_its_own(
    short: float,
) -> None:
    """Unanswered when the wait ends at the ceiling (within the grace of it: the
    waiting stops as the ceiling passes), with its own time within its cap, a move was
    starved by the server; one that ended sooner without answering gave up itself."""
    wall = ceiling(2.0) - short
    starved = MoveTime(cpu=1.0, wall=wall, stalled=wall - 1.0)
    abandoned = blame(starved, 2.0, answered=False)
    assert abandoned is not None and abandoned[0] is Termination.ABANDONED
    assert abandoned[1] == starved.account()
    sooner = ceiling(2.0) - 2 * GRACE
    gave_up = MoveTime(cpu=1.0, wall=sooner, stalled=sooner - 1.0)
    assert blame(gave_up, 2.0, answered=False) is None
    assert blame(MoveTime(cpu=0.5, wall=1.0), 2.0, answered=False) is None
