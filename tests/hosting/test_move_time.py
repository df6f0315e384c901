"""A move's seconds as the clock reads them (:class:`~adjacency.hosting.move_clock.MoveTime`,
:class:`~adjacency.hosting.move_clock.MoveWatch`, :func:`~adjacency.sandbox.longest_wait`),
without a sandbox: what is its own, what was the machine's, and the three figures an
account gives."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.bots import Limit
from adjacency.bots.external import ExternalBot
from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.hosting import move_clock
from adjacency.hosting.fx_run import BotSpan, DrivenBot, bot_span
from adjacency.hosting.move_clock import (
    GRACE,
    MoveTime,
    MoveWatch,
    StartWatch,
    blame,
    charge,
    start_charge,
    wall_cap,
)
from adjacency.sandbox import Heard, SandboxedProcess, Thread, longest_wait

seconds = st.floats(min_value=0.0, max_value=60.0, allow_nan=False)


@given(wall=seconds, share=st.floats(0.0, 1.0), stalled=seconds)
def test_its_own_time_is_never_less_than_its_cpu_nor_more_than_its_wall(
    wall: float, share: float, stalled: float
) -> None:
    """Whatever the machine's figures say, a move is charged at least the CPU its
    sandbox used (capped at one core, its CPU is at most its wall time) and at most its
    wall time; idle and waited time make up the rest."""
    took = MoveTime(cpu=wall * share, wall=wall, stalled=stalled)
    assert took.cpu - 1e-9 <= took.own <= took.wall + 1e-9
    assert took.excused >= 0.0 and took.idle >= 0.0
    assert took.cpu + took.idle + took.excused == pytest.approx(took.wall)
    figures = took.figures()
    assert set(figures) == {"cpu", "idle", "waited"}
    assert 0.0 < took.share <= 1.0 or took.cpu == 0.0


def test_a_starved_computing_move_is_abandoned_and_a_sleeping_one_lost() -> None:
    """Two moves of 10 s of wall time on a 1 s clock: one that computed 0.5 s and waited
    9.4 s for a CPU is the machine's (not answered by the ceiling: abandoned); one that
    slept 9.5 s by its own choice is late, its account naming its idle time."""
    starved = MoveTime(cpu=0.5, wall=10.0, stalled=9.4)
    assert starved.own == pytest.approx(0.6)
    assert blame(starved, 1.0, answered=False) == (Termination.ABANDONED, starved.account())
    assert "waited 9.40 s for a CPU" in starved.account()
    assert "it had 5% of its core" in starved.account()
    slept = MoveTime(cpu=0.5, wall=10.0, stalled=0.0)
    judged = blame(slept, 1.0)
    assert judged is not None and judged[0] is Termination.TIME_FORFEIT
    assert f"more than its {wall_cap(1.0):.2f} s" in judged[1]
    assert "was idle 9.50 s" in judged[1] and "waited" not in judged[1]


def test_threads_that_wait_for_each_other_excuse_nothing() -> None:
    """A program whose threads spin on its one core (its CPU as long as its wall time)
    waited for itself: however long its threads' waits, none of it is the machine's."""
    spinning = MoveTime(cpu=3.0, wall=3.0, stalled=2.9)
    assert spinning.excused == 0.0 and spinning.own == 3.0
    assert charge(spinning) == pytest.approx(3.0 - GRACE)


def test_the_longest_wait_is_one_thread_s_never_their_sum() -> None:
    """Between two readings, the thread that waited most says what held the program up:
    a second thread's waits, while the first sleeps or runs, are not added; a thread
    born between the readings counts from zero."""
    before = {(10, 1, 10): 1_000_000_000, (10, 1, 11): 0}
    after = {(10, 1, 10): 1_300_000_000, (10, 1, 11): 200_000_000, (10, 1, 12): 250_000_000}
    assert longest_wait(before, after) == pytest.approx(0.3)
    assert longest_wait({}, {}) == 0.0


@given(
    wall=seconds,
    share=st.floats(0.0, 1.0),
    stalled=seconds,
    span=st.floats(0.0, 120.0, allow_nan=False),
    span_waited=st.none() | st.floats(0.0, 120.0, allow_nan=False),
)
def test_a_window_s_span_never_charges_less_than_the_cpu_nor_more_than_the_wall(
    wall: float, share: float, stalled: float, span: float, span_waited: float | None
) -> None:
    """Whatever span a program's window tells, and whatever waits in it (the team's code
    shares its JVM: they may be anything), its own time stays between the CPU its sandbox
    used and what the server's clock alone would charge."""
    alone = MoveTime(cpu=wall * share, wall=wall, stalled=stalled)
    timed = MoveTime(wall * share, wall, stalled, span, span_waited)
    assert timed.cpu - 1e-9 <= timed.own <= alone.own + 1e-9
    assert timed.cpu + timed.idle + timed.excused <= timed.wall + 1e-9


def test_a_window_that_handles_the_click_slowly_is_charged_its_bot_s_span() -> None:
    """A program whose window took 2.6 s of a 3 s move before its bot began (its handler,
    its painting) while its bot thought 0.4 s is charged the bot's 0.4 s, within a 1 s
    clock; the same move without the window's span is late."""
    told = MoveTime(cpu=0.45, wall=3.0, stalled=0.0, span=0.4)
    assert told.own == pytest.approx(0.45)  # its sandbox's CPU bounds it from below
    assert blame(told, 1.0) is None
    assert blame(MoveTime(cpu=0.45, wall=3.0, stalled=0.0), 1.0) is not None
    assert "inside its JVM, its bot took 0.40 s" in told.account()


def test_a_span_s_own_waits_stand_for_the_move_s() -> None:
    """A window that pauses 2.5 s before its bot's call, its bot then sleeping 2.5 s: the
    machine kept the program waiting 1.5 s for a CPU, all in the pause (the driver measured
    none in the call), so none of it comes off the bot's call and the move is late on a
    1 s clock; where the driver measured no waits, the move's are taken off."""
    paused = MoveTime(cpu=0.1, wall=5.0, stalled=1.5, span=2.5, span_waited=0.0)
    assert paused.own == pytest.approx(2.5)
    assert blame(paused, 1.0) is not None
    unmeasured = MoveTime(cpu=0.1, wall=5.0, stalled=1.5, span=2.5)
    assert unmeasured.own == pytest.approx(1.0)
    inside = MoveTime(cpu=0.1, wall=5.0, stalled=1.5, span=2.5, span_waited=2.0)
    assert inside.own == pytest.approx(0.5)  # what it waited in its call: the machine's


@pytest.mark.parametrize(
    ("said", "heard"),
    [
        ("0.25", BotSpan(0.25)),
        ("0.25 waited 0.1", BotSpan(0.25, 0.1)),
        ("soon", None),
        ("-1", None),
        ("0.25 waited", None),
        ("0.25 slept 0.1", None),
    ],
)
def test_a_driven_program_s_span_is_heard_from_its_driver_line(
    said: str, heard: BotSpan | None
) -> None:
    """The driver's ``bot-span`` line before a ``bestmove`` is kept for that move, with the
    seconds of it the program waited for a CPU where it says them, a malformed one
    dropped; a program not played through its window tells none."""
    engine = Path(__file__).resolve().parents[1] / "span_engine.py"
    command = f"{sys.executable} {engine} {shlex.quote(said)}"
    driven, plain = DrivenBot(command), ExternalBot(command)
    try:
        position = Position.start(8, 8, 4)
        driven.choose_move(position, Limit(time=5.0))
        plain.choose_move(position, Limit(time=5.0))
        assert bot_span(driven) == heard
        assert bot_span(plain) is None
    finally:
        driven.close()
        plain.close()


class Piped:
    """A sandboxed program's pipes and counters as :class:`MoveWatch` reads them, set by
    the test: when its request was written, when its answer was heard and how long the
    server's reader waited for a CPU to hear it, its CPU, its threads' waits (those that
    ended, and ``pending``: those still going on, as estimated), its readers' waits while
    its pipes were full and when it was stopped."""

    def __init__(self) -> None:
        self.said: list[tuple[float, bytes]] = []
        self.heard = Heard(0.0, 0.0)
        self.held = 0.0
        self.cpu = 0.0
        self.waits: dict[Thread, int] = {}
        self.pending: dict[Thread, int] = {}
        self.ended_at: float | None = None
        self.began: float | None = None

    def said_since(self, moment: float, opening: bytes = b"") -> float | None:
        return next(
            (at for at, line in self.said if at >= moment and line.startswith(opening)), None
        )

    def cpu_seconds(self) -> float:
        return self.cpu

    def thread_waits(self, pending: bool = True) -> dict[Thread, int]:
        extra = self.pending if pending else {}
        return {key: wait + extra.get(key, 0) for key, wait in self.waits.items()}

    def held_seconds(self) -> float:
        return self.held

    def stalled_seconds(self) -> float:
        return longest_wait({}, self.waits)


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The clock :mod:`~adjacency.hosting.move_clock` reads, as the test sets it."""
    clock = [100.0]
    monkeypatch.setattr(move_clock, "clock", SimpleNamespace(monotonic=lambda: clock[0]))
    return clock


def test_a_move_s_wall_runs_from_its_request_s_write_to_its_answer_s_arrival(
    now: list[float],
) -> None:
    """The server's thread took 1 s to write the request (it waited for a CPU: before
    that, the program had nothing to think about), the program slept 2.5 s, the answer
    was heard 0.2 s late (the reader waited for a CPU) and the server acted on it 1 s
    later: the move's wall time is 2.7 s, 0.2 s of it the server's, so it is 2.5 s of its
    own and late on a 1.5 s clock. The server's other waits are never the move's."""
    piped = Piped()
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.999, b"position"), (101.0, b"go")]
    piped.heard = Heard(103.7, 0.2)
    now[0] = 104.7
    took = watch.stop()
    assert took.wall == pytest.approx(2.7)
    assert took.excused == pytest.approx(0.2)
    assert took.own == pytest.approx(2.5)
    assert blame(took, 1.5) is not None


def test_a_move_s_wall_starts_at_its_request_to_think_not_at_its_readiness(
    now: list[float],
) -> None:
    """The server wrote the position and ``isready`` at once; the program answered
    ``readyok`` and then waited 0.8 s for the server's threads (on a loaded machine) to
    read it and write ``go``; it computed 0.4 s and answered. Its wall time is the
    0.4 s from ``go``: the round trip was the server's. A move whose ``go`` was never
    written (it was not ready in time) runs from its first line."""
    piped = Piped()
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.0, b"position startpos"), (100.001, b"isready"), (100.8, b"go movetime")]
    piped.cpu = 0.4
    piped.heard = Heard(101.2, 0.0)
    now[0] = 101.3
    took = watch.stop()
    assert took.wall == pytest.approx(0.4)
    assert took.own == pytest.approx(0.4)
    piped.said = piped.said[:2]
    assert watch.stop(False).wall == pytest.approx(1.3)


def test_a_start_runs_from_its_handshake_s_write_to_its_answer_s_arrival(
    now: list[float],
) -> None:
    """The server's threads, on a loaded machine, began the sandbox 1.5 s after the start
    was asked for, wrote the handshake 0.5 s after that and acted on the answer 2 s after
    it was heard: none of it is the program's. Its start is the 0.3 s from the
    handshake's write to its answer, and its CPU is counted whenever it was used."""
    piped = Piped()
    watch = StartWatch()
    piped.began = 101.5
    piped.said = [(102.0, b"aep")]
    piped.heard = Heard(102.3, 0.0)
    piped.cpu = 0.05
    now[0] = 104.3
    took = watch.took(cast(SandboxedProcess, piped))
    assert took.wall == pytest.approx(0.3) and took.cpu == pytest.approx(0.05)
    assert start_charge(took, "python") == 0.0
    piped.said = []  # nothing written yet: from its sandbox's first process to now
    piped.heard = Heard(0.0, 0.0)
    assert watch.took(cast(SandboxedProcess, piped)).wall == pytest.approx(2.8)


def test_a_starved_move_asked_late_was_waited_for_from_its_start(now: list[float]) -> None:
    """The server's threads, starved, took 2 s to write ``go``; the program, starved too,
    gave no answer, and the server waited out the move's 7.5 s ceiling from its start.
    Its wall time is the 5.5 s from ``go``, and the 2 s before are its lead: the move
    was waited for to its ceiling, so it is abandoned (the server's failure), not its
    own early failure."""
    piped = Piped()
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.0, b"position startpos"), (102.0, b"go movetime")]
    piped.cpu = 0.1
    piped.waits = {(1, 1, 1): 5_000_000_000}
    now[0] = 107.5
    took = watch.stop(False)
    assert took.wall == pytest.approx(5.5) and took.lead == pytest.approx(2.0)
    judged = blame(took, 2.0, answered=False)
    assert judged is not None and judged[0] is Termination.ABANDONED, judged


def test_a_move_without_an_answer_runs_to_now_and_excuses_no_reader(now: list[float]) -> None:
    """No answer within the move (the line heard last came before its request): its wall
    time runs from the request to now, and only its own threads' waits are the server's."""
    piped = Piped()
    piped.heard = Heard(99.0, 3.0)  # an earlier move's answer, heard late
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.5, b"go")]
    piped.waits = {(1, 1, 1): 400_000_000}
    now[0] = 104.5
    for answered in (True, False):
        took = watch.stop(answered)
        assert took.wall == pytest.approx(4.0)
        assert took.stalled == pytest.approx(0.4)


def test_an_answered_move_excuses_no_wait_still_going_on(now: list[float]) -> None:
    """The program slept 1.5 s and computed 0.25 s, and its answer was heard; one of its
    threads (a compiler's, woken by its loop) is still waiting for a CPU then, its wait
    estimated at 1.6 s from the last reading that saw it calm, before the sleep. The
    answer was written, so that wait held nothing up: the move excuses the 0.3 s its
    computing thread waited, and is 1.75 s of its own. Without an answer the wait still
    going on counts: the answer may be the one waiting."""
    piped = Piped()
    piped.waits = {(1, 1, 1): 0, (1, 1, 2): 0}
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.0, b"go")]
    piped.cpu = 0.25
    piped.waits = {(1, 1, 1): 300_000_000, (1, 1, 2): 0}
    piped.pending = {(1, 1, 2): 1_600_000_000}
    piped.heard = Heard(102.05, 0.0)
    now[0] = 102.1
    took = watch.stop()
    assert took.stalled == pytest.approx(0.3)
    assert took.own == pytest.approx(1.75)
    assert blame(took, 1.0) is not None  # over its 1.5 s cap
    assert watch.stop(False).stalled == pytest.approx(1.6)


def test_a_move_held_on_a_full_pipe_has_its_reader_s_waits_excused(now: list[float]) -> None:
    """A program printing more than the server's reader keeps up with (its pipe full
    while the reader waited 3.5 s for a CPU, 0.5 s of it before the move) blocks on the
    server: of its 4 s of wall time, 3 s is the server's, never its own, and with its
    0.6 s of CPU it is within a 1.5 s clock. Waits before the move are not this move's."""
    piped = Piped()
    piped.held = 0.5
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.0, b"go")]
    piped.cpu = 0.6
    piped.held = 3.5
    now[0] = 104.0
    took = watch.stop(False)
    assert took.wall == pytest.approx(4.0)
    assert took.stalled == pytest.approx(3.0)
    assert took.own == pytest.approx(1.0)
    assert blame(took, 1.5, answered=False) is None


def test_a_move_whose_request_was_never_written_runs_from_its_watch(now: list[float]) -> None:
    """A request not written (its program had ended): its wall time runs from the watch."""
    piped = Piped()
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(99.0, b"go")]
    now[0] = 102.0
    assert watch.stop(False).wall == pytest.approx(2.0)


def test_a_stopped_move_s_wall_ends_at_its_stop_not_once_its_processes_died(
    now: list[float],
) -> None:
    """A move never answered is stopped at its ceiling (4.5 s after its request), its
    threads' waits read then (4.2 s: it was starved); on a starved CPU its processes
    took 2 s more to die. Its wall time is 4.5 s, 0.3 s of it its own, within its cap:
    the server starved it, so it is abandoned, not lost."""
    piped = Piped()
    watch = MoveWatch(cast(SandboxedProcess, piped))
    piped.said = [(100.0, b"go")]
    piped.cpu = 0.3
    piped.waits = {(1, 1, 1): 4_200_000_000}
    piped.ended_at = 104.5
    now[0] = 106.5
    took = watch.stop(False)
    assert took.wall == pytest.approx(4.5)
    assert took.own == pytest.approx(0.3)
    found = blame(took, 1.0, answered=False)
    assert found is not None and found[0] is Termination.ABANDONED, found
