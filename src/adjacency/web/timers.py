"""One timer thread for the whole server: clocks' flags and abandoned games' checks.

A game's clock needs to act when its time runs out, with no request to trigger
it, and an abandoned game needs a look after its grace period. A thread per
timer (``threading.Timer``) would hold a thread for up to a clock's whole base
time (hours) in every game, watched or not; :class:`Scheduler` runs every timer
of the process on one daemon thread instead.

Contract of :class:`Scheduler` (thread-safe):

* :meth:`Scheduler.call_later` runs ``callback`` on the scheduler's thread about
  ``delay`` seconds from now (never earlier) and answers a :class:`Timer`;
  :meth:`Timer.cancel` keeps a pending callback from running.
* Callbacks run one at a time, in the order of their due times; each must be
  short (take a lock, check, change state). One that raises is logged and
  does not stop the others.
* The thread starts with the first timer and stays (a daemon: it never keeps
  the process alive); so a server with a thousand clocked games has one timer
  thread, not a thousand.

:data:`SCHEDULER` is the process's scheduler; sessions (and the league) use it
unless given another.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)


class Timer:
    """A pending callback of a :class:`Scheduler`; :meth:`cancel` drops it."""

    __slots__ = ("callback", "cancelled", "due")

    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due = due
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        """Keep the callback from running (no effect once it has run)."""
        self.cancelled = True


class Schedules(Protocol):
    """What a game's parts need of a scheduler (:class:`Scheduler`, or a test's on its
    own time)."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` about ``delay`` seconds from now; the answer cancels it."""


class Scheduler:
    """Runs delayed callbacks on one daemon thread; see the module docstring."""

    def __init__(self, name: str = "timers") -> None:
        self._name = name
        self._heap: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._ready = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` on the scheduler's thread ``delay`` seconds from now."""
        timer = Timer(time.monotonic() + max(0.0, delay), callback)
        with self._ready:
            heapq.heappush(self._heap, (timer.due, next(self._order), timer))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._ready.notify()
        return timer

    def pending(self) -> int:
        """Timers not yet run or dropped (cancelled ones count until their time comes)."""
        with self._ready:
            return len(self._heap)

    def _run(self) -> None:
        while True:
            with self._ready:
                while True:
                    now = time.monotonic()
                    if self._heap and self._heap[0][0] <= now:
                        timer = heapq.heappop(self._heap)[2]
                        break
                    self._ready.wait(None if not self._heap else self._heap[0][0] - now)
            if timer.cancelled:
                continue
            try:
                timer.callback()
            except Exception:
                log.exception("timer callback %r failed", timer.callback)


SCHEDULER = Scheduler()
"""The process's timer thread, shared by every game of every server in it."""
