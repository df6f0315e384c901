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
from collections.abc import Iterable

from ..system import proctree


class Ledger:
    """Every process of one tree seen so far, with its largest own CPU time and the
    longest it was seen to wait for a CPU (thread-safe)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], int] = {}
        self._waits: dict[Thread, int] = {}
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
        process is killed, misses none of it."""
        now = scheduler_now() if pending else None
        with self._lock:
            for info in infos:
                for thread, delay in run_delays(info.pid, now).items():
                    key = (info.pid, info.started, thread)
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


def run_delays(pid: int, now: int | None = None) -> dict[int, int]:
    """Nanoseconds each thread of ``pid`` waited for a CPU while ready to run, by thread
    id (``/proc/PID/task/TID/schedstat``; with ``now``, the scheduler's clock, each
    thread's wait still going on added: :func:`pending_delay`); empty once it is gone."""
    found: dict[int, int] = {}
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        delay = thread_delay(f"/proc/{pid}/task/{thread}", now)
        if delay is not None:
            found[int(thread)] = delay
    return found


def thread_delay(folder: str, now: int | None = None) -> int | None:
    """Nanoseconds the thread of ``folder`` (``/proc/PID/task/TID``) waited for a CPU
    while ready to run (its ``schedstat``; with ``now``, its wait still going on added:
    :func:`pending_delay`); ``None`` once it is gone."""
    try:
        with open(f"{folder}/schedstat", "rb") as stream:
            delay = int(stream.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return delay + pending_delay(folder, now) if now is not None else delay


def longest_wait(before: dict[Thread, int], after: dict[Thread, int]) -> float:
    """The seconds the thread that waited most between two readings (``before`` and
    ``after``, :meth:`Ledger.thread_waits`) waited for a CPU: the program's progress
    waited at least that long, and no more is sure (a thread of its own waiting while
    another of its threads sleeps or runs holds nothing up, so its waits are not added)."""
    return max((delay - before.get(key, 0) for key, delay in after.items()), default=0) / 1e9


def server_delay(threads: Iterable[int]) -> float:
    """Seconds this process's ``threads`` (native ids: the ones that serve a sandboxed
    program, writing to it and reading its answers) waited for a CPU so far, waits still
    going on included: the server's own part of a program's wall time, which the
    program could only take for its idleness."""
    now = scheduler_now()
    delays = (thread_delay(f"/proc/self/task/{thread}", now) for thread in threads)
    return sum(delay for delay in delays if delay is not None) / 1e9


def pending_delay(folder: str, now: int) -> int:
    """Nanoseconds the thread of ``folder`` (``/proc/PID/task/TID``) has been waiting for
    a CPU now, where it is runnable (state ``R``) and has not run for more than
    :data:`PENDING_FLOOR`: the scheduler's clock ``now`` less when it last ran
    (``se.exec_start``); 0 otherwise."""
    try:
        with open(f"{folder}/stat", "rb") as stream:
            state = stream.read().rpartition(b")")[2].split()[0]
        if state != b"R":
            return 0
        started = _exec_start(f"{folder}/sched")
    except (OSError, IndexError, ValueError):
        return 0
    if started is None:
        return 0
    waiting = now - started
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
