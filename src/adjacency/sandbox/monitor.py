"""One thread that watches every sandboxed process tree of this process: :data:`MONITOR`.

Every :data:`TICK` seconds, while any sandbox runs, it reads ``/proc`` once
(:func:`adjacency.system.proctree.snapshot`, without the owners: one file a process)
and hands the snapshot to each watched sandbox, which sums its tree's CPU time and
memory and ends itself when past a limit. One reading for all sandboxes keeps the cost
flat: thirty hosted bots cost one pass over ``/proc`` per tick, not thirty. The thread
ends when nothing is watched.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Protocol

from ..system import proctree

TICK = 0.05
"""Seconds between two checks: how far past a limit a tree may run (per core it uses)."""

log = logging.getLogger(__name__)


class Watched(Protocol):
    """What the monitor calls: ``check`` returns False once the sandbox needs no more
    watching (it ended)."""

    def check(self, processes: Mapping[int, proctree.ProcessInfo], now: float) -> bool:
        """Look at one reading of ``/proc`` taken at ``now`` (monotonic seconds)."""
        ...


class Monitor:
    """The watching thread and its set of sandboxes (thread-safe)."""

    def __init__(self, tick: float = TICK) -> None:
        self.tick = tick
        self._lock = threading.Lock()
        self._watched: list[Watched] = []
        self._thread: threading.Thread | None = None

    def add(self, watched: Watched) -> None:
        """Watch ``watched`` from the next tick on; starts the thread if it is not running."""
        with self._lock:
            self._watched.append(watched)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="sandbox-monitor", daemon=True
                )
                self._thread.start()

    def remove(self, watched: Watched) -> None:
        """Stop watching ``watched`` (nothing if it is not watched)."""
        with self._lock:
            if watched in self._watched:
                self._watched.remove(watched)

    def _run(self) -> None:
        while True:
            with self._lock:
                watched = list(self._watched)
                if not watched:
                    self._thread = None
                    return
            processes = proctree.snapshot(owners=False)  # a tree's usage needs no owner
            now = time.monotonic()
            for item in watched:
                try:
                    keep = item.check(processes, now)
                except Exception:  # one sandbox's failure must not stop the others' watch
                    log.exception("sandbox monitor: a check failed")
                    keep = True
                if not keep:
                    self.remove(item)
            time.sleep(self.tick)


MONITOR = Monitor()
"""The monitor every sandbox of this process registers with."""
