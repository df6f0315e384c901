"""The CPU time of a process tree where no cgroup counts it: :class:`Ledger`.

Without a group of its own (:mod:`.cgroup`), a sandbox is charged from ``/proc``. The
sum over its living processes of their own and their reaped children's time misses
every child that was reaped by the kernel (a parent that ignores ``SIGCHLD``) or by
nobody in the tree: its time reaches no living process's ``cutime``. So each process
seen is kept in a ledger, by pid and start time (one process, whatever later process
reuses the pid), with the largest own time it was seen with; the charge is the larger
of the ledger's sum and the living tree's. What remains unseen: a process that lives
less than one reading apart (:data:`~adjacency.sandbox.monitor.TICK`) and is waited for
by nobody, and the last tick's work of each process (docs/sandbox.md).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..system import proctree


class Ledger:
    """Every process of one tree seen so far, with its largest own CPU time and the
    longest it was seen to wait for a CPU (thread-safe)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], int] = {}
        self._waits: dict[Thread, int] = {}
        self._calm: dict[Thread, int] = {}
        self._lock = threading.Lock()
        self._live_best = 0.0

    def thread_waits(
        self, infos: Iterable[proctree.ProcessInfo], pending: bool = False
    ) -> dict[Thread, int]:
        """Fold in the run delay of each thread of these processes
        (``/proc/PID/task/TID/schedstat``'s second field: nanoseconds it was ready to run
        but waited for a CPU); every thread seen so far with the most it was seen to have
        waited. With ``pending``, a wait still going on counts too
        (:func:`pending_delay`: the kernel adds a wait to the run delay only once the
        thread runs again), so that a reading that ends a move, or comes before its
        process is killed, misses none of it.

        Every reading notes when each thread was last seen not ready to run (asleep or
        waiting on a lock or a pipe): a wait still going on started after that, so a
        thread just woken from a sleep never has its sleep read as a wait for a CPU."""
        with self._lock:
            now = scheduler_now()
            for info in infos:
                for thread, found in thread_readings(info.pid, pending).items():
                    key = (info.pid, info.started, thread)
                    delay = found.delay
                    if not found.runnable:
                        if now is not None:
                            self._calm[key] = now
                    elif pending and now is not None:
                        delay += pending_delay(found, now, self._calm.get(key, 0))
                    self._waits[key] = max(self._waits.get(key, 0), delay)
            return dict(self._waits)

    def add(self, infos: Iterable[proctree.ProcessInfo]) -> float:
        """Fold one reading of the tree's living processes in; the charge so far."""
        infos = list(infos)
        live = proctree.cpu_seconds(infos)
        with self._lock:
            for info in infos:
                key = (info.pid, info.started)
                self._seen[key] = max(self._seen.get(key, 0), info.cpu_ticks)
            self._live_best = max(self._live_best, live)
            return max(self._live_best, sum(self._seen.values()) / proctree.TICKS)


PENDING_FLOOR = 20_000_000
"""Nanoseconds a runnable thread must have gone without running before its wait counts
as pending (:func:`pending_delay`): a thread running on another CPU has its start
stamp refreshed only at the scheduler's ticks, some milliseconds apart."""


Thread = tuple[int, int, int]
"""One thread of a sandbox: its process's pid and start time, and its own id."""


@dataclass(frozen=True)
class ThreadReading:
    """One reading of a thread (``/proc/PID/task/TID``): ``delay``, the nanoseconds it
    has waited for a CPU so far, waits that ended (``schedstat``); ``runnable``, whether
    it is ready to run now (state ``R``: running, or waiting for a CPU); ``last_ran``,
    the scheduler's clock when it last ran (``se.exec_start``), read only where it is
    runnable and known (``None`` for a thread moved to another CPU that has not run
    there yet)."""

    delay: int
    runnable: bool
    last_ran: int | None = None


def thread_readings(pid: int, last_ran: bool = True) -> dict[int, ThreadReading]:
    """Each thread of ``pid`` read now (:func:`thread_reading`), by thread id; empty once
    it is gone."""
    found: dict[int, ThreadReading] = {}
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        reading = thread_reading(f"/proc/{pid}/task/{thread}", last_ran)
        if reading is not None:
            found[int(thread)] = reading
    return found


def thread_reading(folder: str, last_ran: bool = True) -> ThreadReading | None:
    """The thread of ``folder`` (``/proc/PID/task/TID``) read now (when it last ran only
    with ``last_ran``); ``None`` once it is gone."""
    delay = run_delay(folder)
    if delay is None:
        return None
    try:
        with open(f"{folder}/stat", "rb") as stream:
            state = stream.read().rpartition(b")")[2].split()[0]
        if state != b"R" or not last_ran:
            return ThreadReading(delay, state == b"R")
        # 0: the kernel moved it to another CPU's queue, and it has not run there yet
        # (its stamp is cleared on the move): when it last ran is unknown, not the
        # clock's start, which would read as a wait as long as the machine's uptime.
        return ThreadReading(delay, True, _exec_start(f"{folder}/sched") or None)
    except (OSError, IndexError, ValueError):
        return None


def longest_wait(before: dict[Thread, int], after: dict[Thread, int]) -> float:
    """The seconds the thread that waited most between two readings (``before`` and
    ``after``, :meth:`Ledger.thread_waits`) waited for a CPU: the program's progress
    waited at least that long, and no more is sure (a thread of its own waiting while
    another of its threads sleeps or runs holds nothing up, so its waits are not added)."""
    return max((delay - before.get(key, 0) for key, delay in after.items()), default=0) / 1e9


def server_delay(threads: Iterable[int]) -> float:
    """Seconds this process's ``threads`` (native ids) waited for a CPU so far, waits
    that ended (:func:`run_delay`): a thread woken but not yet run may have slept all
    along (its last run tells nothing of when it woke)."""
    delays = (run_delay(f"/proc/self/task/{thread}") for thread in threads)
    return sum(delay for delay in delays if delay is not None) / 1e9


def run_delay(folder: str) -> int | None:
    """Nanoseconds the thread of ``folder`` (``/proc/PID/task/TID``) has waited for a CPU
    so far, waits that ended (``schedstat``'s second field); ``None`` once it is gone or
    where it cannot be read. Read by a thread of itself just after it woke, it includes
    the wait that ended when it ran."""
    try:
        with open(f"{folder}/schedstat", "rb") as stream:
            return int(stream.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


class ReaderWaits:
    """A pipe's reader's waits for a CPU, read by the reader itself (made on its own
    thread) at each chunk it reads (:meth:`read`), in two parts:

    - the wait that ended when a chunk that did not fill the pipe woke it, since it
      last went to read (:meth:`read`'s value): the server's part of the way of the
      program's line in it, which the program could only take for its own time;
    - while the pipe was full, every wait of the reader since the chunk before
      (:attr:`held`, a running total): the program's writes were held on the pipe by
      the server all that while, not by its own choice. A program printing more than
      its reader keeps up with is otherwise charged the server's waits as its own.

    ``full`` is the size of a read that found the pipe full; ``clock`` reads the
    reader's run delay in nanoseconds (by default, the calling thread's own:
    :func:`run_delay`).

    >>> readings = iter([0, 10, 15, 40])
    >>> waits = ReaderWaits(4096, lambda: next(readings))
    >>> waits.read(100), waits.held  # 10 ns waited to hear a line
    (1e-08, 0)
    >>> waits.rest()  # 5 ns more acting on it
    >>> waits.read(4096), waits.held  # a full pipe: all 30 ns since the last chunk
    (0.0, 30)
    """

    def __init__(self, full: int, clock: Callable[[], int | None] | None = None) -> None:
        self.full = full
        folder = f"/proc/self/task/{threading.get_native_id()}"
        self._now = clock or (lambda: run_delay(folder))
        self._last = self._asleep = self._now()
        self.held = 0
        """Nanoseconds, a running total: the reader's waits while its pipe was full."""

    def read(self, size: int) -> float:
        """Note a chunk of ``size`` bytes just read; the seconds the reader waited for a
        CPU to read it, where it did not fill the pipe (a full one's waits are in
        :attr:`held`), 0 where they cannot be read."""
        now = self._now()
        last, asleep, self._last = self._last, self._asleep, now
        if now is None or last is None or asleep is None:
            return 0.0
        if size >= self.full:
            self.held += max(0, now - last)
            return 0.0
        return max(0, now - asleep) / 1e9

    def rest(self) -> None:
        """Note that the reader has acted on its chunk and goes to read again."""
        self._asleep = self._now()


def pending_delay(reading: ThreadReading, now: int, calm: int) -> int:
    """Nanoseconds the thread of ``reading`` has been waiting for a CPU at the
    scheduler's clock ``now``, where it is runnable and has not run for more than
    :data:`PENDING_FLOOR`; 0 otherwise. The wait started at the later of when it last
    ran (``last_ran``) and ``calm``, the last reading that saw it not ready to run: a
    thread that slept since it last ran woke at some moment after that reading, and
    the kernel keeps no record of when (the wait's start is in no file without
    schedstats), so at most the time between two readings is taken for a wait.

    >>> pending_delay(ThreadReading(0, True, 1_000_000_000), 3_000_000_000, 0)
    2000000000
    >>> pending_delay(ThreadReading(0, True, 1_000_000_000), 3_000_000_000, 2_950_000_000)
    50000000
    >>> pending_delay(ThreadReading(0, False), 3_000_000_000, 0)
    0
    """
    if not reading.runnable or reading.last_ran is None:
        return 0
    waiting = now - max(reading.last_ran, calm)
    return waiting if waiting > PENDING_FLOOR else 0


def scheduler_now() -> int | None:
    """The scheduler's clock now, in nanoseconds: when this thread, running as it reads,
    last had its time counted (its own ``se.exec_start``, at most a tick ago), the
    clock of every thread's ``se.exec_start``; ``None`` where it cannot be read."""
    try:
        return _exec_start(f"/proc/self/task/{threading.get_native_id()}/sched")
    except OSError:
        return None


def _exec_start(path: str) -> int | None:
    """A thread's ``se.exec_start`` from its ``sched`` file (milliseconds with six
    decimals), in nanoseconds."""
    with open(path, "rb") as stream:
        for line in stream:
            if line.startswith(b"se.exec_start"):
                whole, _, part = line.split(b":", 1)[1].strip().partition(b".")
                return int(whole) * 1_000_000 + int((part + b"000000")[:6])
    return None
