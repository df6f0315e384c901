"""A hosted move's wall cap is the bot's own: through :class:`BotSeat` (the seat every
hosted game's move goes through, real bubblewrap and the system's Python inside), a bot
that sleeps past its clock loses on time even under the wall cap, and a bot that
computes honestly but is starved of a CPU by the server's load is not lost: its move is
``ABANDONED``, saying what it used and waited."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.hosting.player import Choice
from adjacency.hosting.seat import BotSeat
from adjacency.round.clock import wall_cap
from adjacency.sandbox import cgroup
from hosted_helpers import first_empty_program
from sandbox_helpers import write_program

BOT = first_empty_program(
    "clock-test",
    """\
BEHAVIOUR, SECONDS = sys.argv[1], float(sys.argv[2])
os.sched_setaffinity(0, {0})  # one core: the one the test's own load runs on

def think():
    if BEHAVIOUR == "sleep":
        time.sleep(SECONDS)
    else:
        end = time.process_time() + SECONDS
        while time.process_time() < end:
            pass
""",
)

LEFT = 1.0
"""The clock's seconds at the move: a wall cap of 4 s, 2.5 s of them the bot's own."""


def _seat(folder: Path, behaviour: str, seconds: float) -> BotSeat:
    write_program(folder, "bot.py", BOT)
    seat = BotSeat(Choice(folder, "bot.py", [behaviour, str(seconds)], kind="python"))
    seat.open()
    return seat


@contextlib.contextmanager
def _load_on_core_zero(burners: int = 8) -> Iterator[None]:
    """The test's own CPU load on core 0: ``burners`` busy loops, each in a session of
    its own (the scheduler shares a core between sessions' groups, whatever their nice
    values), so the bot's session gets at most a ninth of the core."""
    started = [
        subprocess.Popen(
            ["taskset", "-c", "0", "sh", "-c", "while :; do :; done"], start_new_session=True
        )
        for _ in range(burners)
    ]
    try:
        yield
    finally:
        for process in started:
            process.kill()
            process.wait()


@pytest.fixture
def folder(sandbox_box: Path) -> Path:
    return sandbox_box


def test_a_bot_that_sleeps_past_its_own_time_loses_under_the_wall_cap(folder: Path) -> None:
    seat = _seat(folder, "sleep", 3.5)  # under the 4 s wall cap, over its own 2.5 s
    try:
        answer = seat.move(Position.start(6, 6, rounds=4).fen(), LEFT, wall_cap(LEFT))
    finally:
        seat.close()
    assert answer.failure is not None, "a bot sleeping 3.5 s on a 1 s clock was not late"
    termination, why = answer.failure
    assert termination is Termination.TIME_FORFEIT
    assert "a bot that sleeps or waits loses on time" in why
    assert "of wall time of its own" in why


@pytest.mark.parametrize("counted", ["cgroup", "proc"])
def test_a_computing_bot_starved_of_a_cpu_is_abandoned_not_lost(
    folder: Path, counted: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if counted == "proc":
        monkeypatch.setattr(cgroup, "create", lambda: None)
    seat = _seat(folder, "compute", 0.95)  # within its clock, more than the load leaves it
    try:
        with _load_on_core_zero():
            answer = seat.move(Position.start(6, 6, rounds=4).fen(), LEFT, wall_cap(LEFT))
    finally:
        seat.close()
    assert answer.failure is not None, "the starved bot answered in time: no load reached it"
    termination, why = answer.failure
    assert termination is Termination.ABANDONED, why
    assert "s of CPU and waited" in why and "for a CPU" in why
    assert answer.move is None
