"""The CPU time one piece of work takes, over every thread that works for it.

Why: a server that charges its visitors for their searches must charge what they used.
The wall time a search holds its core, times its threads, overcharges a search that
waits (a bot thinking until stopped, a page's analysis between its updates) and says
nothing of what a search really took; the process's CPU clock mixes every visitor's
work. Each thread's own CPU clock (``CLOCK_THREAD_CPUTIME_ID``) counts exactly what that
thread ran, so a meter sums the clocks of the threads that worked for it.

Contract of :class:`CpuMeter` (thread-safe):

* :meth:`CpuMeter.measure` (a context manager) counts the CPU the calling thread uses
  inside it, and makes the meter the thread's :func:`current` one meanwhile;
* :func:`carried` wraps a thread's target so that the thread started by a measured
  thread (a search's helper threads: Lazy SMP, the split solver) is measured on the
  same meter: the engine wraps its helpers with it, so a search on two threads is
  charged both;
* :meth:`CpuMeter.seconds` is the CPU of the measured blocks that ended plus, read live
  from their clocks, of those running now (a running search is charged as it goes);
* work outside any measured block, or in another process (a local bot's program), is
  not counted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_local = threading.local()


def thread_seconds() -> float:
    """The calling thread's CPU seconds (its own clock)."""
    return time.thread_time()


def current() -> CpuMeter | None:
    """The meter the calling thread is measured on now (``None``: none)."""
    meter: CpuMeter | None = getattr(_local, "meter", None)
    return meter


class CpuMeter:
    """CPU seconds used by the threads that measured themselves on it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = 0.0
        self._running: dict[int, tuple[int, float]] = {}
        """Measured blocks running now: per thread id, its CPU clock and its start."""

    @contextmanager
    def measure(self) -> Iterator[CpuMeter]:
        """Count the calling thread's CPU inside the block on this meter."""
        ident = threading.get_ident()
        clock = time.pthread_getcpuclockid(ident)
        outer = current()
        with self._lock:
            if ident in self._running:  # nested on the same meter: already counted
                nested = True
            else:
                nested = False
                self._running[ident] = (clock, time.clock_gettime(clock))
        _local.meter = self
        try:
            yield self
        finally:
            _local.meter = outer
            if not nested:
                with self._lock:  # the thread is alive until its entry is gone
                    _, start = self._running.pop(ident)
                    self._done += time.clock_gettime(clock) - start

    def seconds(self) -> float:
        """CPU seconds counted so far (the blocks running now included, read live)."""
        with self._lock:
            live = sum(time.clock_gettime(clock) - start for clock, start in self._running.values())
            return self._done + live


def carried(target: Callable[..., Any]) -> Callable[..., Any]:
    """``target`` measured on the calling thread's :func:`current` meter when it runs
    (in another thread); ``target`` itself when the caller is not measured."""
    meter = current()
    if meter is None:
        return target

    def measured(*args: Any, **kwargs: Any) -> Any:
        with meter.measure():
            return target(*args, **kwargs)

    return measured
