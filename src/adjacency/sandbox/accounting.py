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
        self._waits: dict[tuple[int, int], int] = {}
        self._lock = threading.Lock()
        self._live_best = 0.0

    def waited(self, infos: Iterable[proctree.ProcessInfo]) -> float:
        """Fold the run delay of these processes in (``/proc/PID/schedstat``'s second
        field: nanoseconds its threads were ready to run but waited for a CPU); the
        seconds waited so far by every process seen."""
        with self._lock:
            for info in infos:
                delay = run_delay(info.pid)
                if delay is not None:
                    key = (info.pid, info.started)
                    self._waits[key] = max(self._waits.get(key, 0), delay)
            return sum(self._waits.values()) / 1e9

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


def run_delay(pid: int) -> int | None:
    """Nanoseconds the threads of ``pid`` waited for a CPU while ready to run, summed
    over ``/proc/PID/task/*/schedstat``; ``None`` once it is gone."""
    total = 0
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat", "rb") as stream:
                total += int(stream.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total
