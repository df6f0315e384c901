"""A thread's wait for a CPU, read while it goes on, starts no earlier than the last
reading that saw the thread not ready to run: a bot's thread woken from a sleep and then
kept waiting has its wait excused, never its sleep (the kernel records when a thread
last ran, not when it woke)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.sandbox import accounting
from adjacency.sandbox.accounting import Ledger, ThreadReading, pending_delay
from adjacency.system import proctree

MS = 1_000_000


class Script:
    """The scheduler's clock and one thread's readings, as a test sets them."""

    def __init__(self) -> None:
        self.now = 0
        self.reading = ThreadReading(0, False)

    def readings(self, pid: int, last_ran: bool = True) -> dict[int, ThreadReading]:
        reading = self.reading
        if not last_ran:
            reading = ThreadReading(reading.delay, reading.runnable)
        return {7: reading}


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> Script:
    script = Script()
    monkeypatch.setattr(accounting, "thread_readings", script.readings)
    monkeypatch.setattr(accounting, "scheduler_now", lambda: script.now)
    return script


INFO = proctree.ProcessInfo(
    pid=100, ppid=1, uid=0, state="R", cpu_ticks=0, reaped_ticks=0, rss=0, started=5
)


def wait_of(ledger: Ledger, pending: bool = True) -> int:
    return ledger.thread_waits([INFO], pending=pending)[(100, 5, 7)]


def test_a_sleep_seen_by_the_ticks_is_never_read_as_a_wait(script: Script) -> None:
    """The thread last ran at 0.5 s and slept; the ticks saw it asleep every 50 ms up to
    2.45 s; at 2.6 s it is runnable, not yet run: 150 ms of waiting, not 2.1 s."""
    ledger = Ledger()
    script.reading = ThreadReading(0, False)
    for tick in range(500, 2_451, 50):
        script.now = tick * MS
        wait_of(ledger, pending=False)
    script.now = 2_600 * MS
    script.reading = ThreadReading(0, True, 500 * MS)
    assert wait_of(ledger) == 150 * MS


def test_a_thread_preempted_and_kept_waiting_has_its_whole_wait_counted(script: Script) -> None:
    """Runnable at every reading since it last ran at 1 s: the wait runs from 1 s."""
    ledger = Ledger()
    script.reading = ThreadReading(3 * MS, True, 1_000 * MS)
    for tick in range(1_000, 3_001, 50):
        script.now = tick * MS
        wait_of(ledger, pending=False)
    assert wait_of(ledger) == 3 * MS + 2_000 * MS


def test_a_wait_once_counted_is_kept_when_the_thread_runs_again(script: Script) -> None:
    ledger = Ledger()
    script.now = 2_000 * MS
    script.reading = ThreadReading(0, True, 1_000 * MS)
    assert wait_of(ledger) == 1_000 * MS
    script.now = 2_100 * MS
    script.reading = ThreadReading(1_000 * MS - 5 * MS, False)  # the kernel's own count
    assert wait_of(ledger) == 1_000 * MS


@given(
    last_ran=st.integers(0, 10**10),
    calm=st.integers(0, 10**10),
    after=st.integers(0, 10**10),
)
def test_a_pending_wait_never_reaches_back_past_the_last_calm_reading(
    last_ran: int, calm: int, after: int
) -> None:
    now = max(last_ran, calm) + after
    waiting = pending_delay(ThreadReading(0, True, last_ran), now, calm)
    assert 0 <= waiting <= now - max(last_ran, calm)
    assert waiting in (0, now - max(last_ran, calm))
    assert pending_delay(ThreadReading(0, False), now, calm) == 0


@pytest.fixture
def threads() -> Iterator[tuple[int, int]]:
    """A thread of this process asleep on an event and one spinning: their native ids."""
    stop = threading.Event()
    ids: dict[str, int] = {}
    started = threading.Barrier(3)

    def sleeper() -> None:
        ids["sleeper"] = threading.get_native_id()
        started.wait()
        stop.wait()

    def spinner() -> None:
        ids["spinner"] = threading.get_native_id()
        started.wait()
        while not stop.is_set():
            pass

    workers = [threading.Thread(target=sleeper), threading.Thread(target=spinner)]
    for worker in workers:
        worker.start()
    started.wait()
    time.sleep(0.05)
    yield ids["sleeper"], ids["spinner"]
    stop.set()
    for worker in workers:
        worker.join()


def test_the_kernels_files_are_read_as_asleep_and_runnable(threads: tuple[int, int]) -> None:
    sleeper, spinner = threads
    asleep = accounting.thread_reading(f"/proc/self/task/{sleeper}")
    assert asleep is not None and not asleep.runnable and asleep.last_ran is None
    # A spinning thread holding the GIL or waiting for it may be caught asleep on the
    # GIL's lock; it is runnable at some reading within a few tries.
    # One moved to another CPU and not run there yet has no stamp (None).
    for _ in range(200):
        busy = accounting.thread_reading(f"/proc/self/task/{spinner}")
        assert busy is not None
        assert busy.last_ran is None or busy.last_ran > 0, busy
        if busy.runnable and busy.last_ran is not None:
            break
        time.sleep(0.001)
    else:
        pytest.fail("the spinning thread was never seen ready to run")
    assert accounting.thread_reading("/proc/self/task/0") is None


def test_a_thread_moved_to_another_cpu_has_no_stamp_and_no_pending_wait(tmp_path: Path) -> None:
    """A runnable thread whose ``se.exec_start`` reads 0 (the kernel clears it when it
    moves the thread to another CPU's queue, until it runs there) has no stamp: its
    pending wait is 0, not the scheduler's whole clock, whatever was seen of it before."""
    (tmp_path / "schedstat").write_text("5000000 7000000 12\n")
    (tmp_path / "stat").write_text("42 (a (b) c) R 1 42 42 0 -1\n")
    (tmp_path / "sched").write_text("java (42, #threads: 3)\nse.exec_start : 0.000000\n")
    moved = accounting.thread_reading(str(tmp_path))
    assert moved == ThreadReading(7_000_000, True, None)
    assert pending_delay(moved, 3_600_000_000_000, 0) == 0
    (tmp_path / "sched").write_text("java (42, #threads: 3)\nse.exec_start : 3599000.250000\n")
    ran = accounting.thread_reading(str(tmp_path))
    assert ran == ThreadReading(7_000_000, True, 3_599_000_250_000)
    assert pending_delay(ran, 3_600_000_000_000, 0) == 999_750_000
