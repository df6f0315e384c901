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

import threading
from collections.abc import Iterable

from adjacency.system import proctree


class Ledger:
    """Every process of one tree seen so far, with its largest own CPU time (thread-safe)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, int], int] = {}
        self._lock = threading.Lock()
        self._live_best = 0.0

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
