"""Waits counted in the time the machine could run things: :class:`MachineClock`.

Some of the league's waits end in a verdict by absence: an event game waits for its
bots to reconnect after the server starts (:data:`.scheduler.RECONNECT_GRACE`), for a bot
whose connection the league refused (:data:`.scheduler.REFUSED_WAIT`), and a person
counts as present for a while after their page last asked (:data:`.presence.PRESENCE`);
past its wait, an absent member loses its event game at once. On a loaded machine a
team's client reconnecting, a person's browser asking and the server answering them
all take longer by the load: counted in wall time, the waits would let the load decide
that a team was absent.

So such a wait counts only the wall time in which the machine could run what was
ready to run: the wall time since it began less the time the machine's work waited for
a CPU meanwhile (Linux's pressure stall information,
:func:`~adjacency.sandbox.pressure.stalled_seconds`). :func:`wait_over` is the rule:

* a wait is over once its wall time less its stalled time reaches its length;
* it is never over before its length in wall time (stalled time never adds), and always
  over once its wall time reaches :data:`WAIT_CAP`, so a machine that never frees still
  ends it;
* more stalled time never ends it sooner.

Where PSI cannot be read (a kernel without it, ``psi=0``, a container that hides both the
machine's and its group's), the waits are wall time, as on a quiet machine.

A wait begins at a time of the clock (``time.monotonic`` unless a test gives another);
the stalled time since then is read from the readings kept at each :meth:`MachineClock.read`,
at most one per :data:`KEEP_EVERY` seconds, for the last :data:`WAIT_CAP` seconds: the
first reading at or after the wait's start is its base, so no stall from before it counts
(a wait begun between two readings counts its stall from the next one).
:meth:`MachineClock.mark` keeps a reading at once, for a wait that begins now.

:meth:`MachineClock.calm` reads the same readings the other way: whether the machine ran
everything ready to run for most of a recent span, so that a hold on new games
(:meth:`~adjacency.league.play.hosted.HostedPlayers.held`) ends as soon as the machine
has freed, not only once its window has passed.

Contract, in the server's event loop (one thread, no locks).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable

from ...sandbox.pressure import stalled_seconds

WAIT_CAP = 180.0
"""Wall seconds after which a wait is over however stalled the machine was. At the loads
measured on a 2-core server (20 to 35), a process gets about a fifteenth of a core, so
three minutes give a client the ten or so seconds of a core that a quiet machine's
reconnection grace gives it; a machine that never frees ends each wait by then."""

KEEP_EVERY = 0.25
"""Seconds between two readings kept (the scheduler's tick): a wait begun between two
readings misses at most this much of its stalled time."""

CALM_STALL = 0.1
"""The most of a span in which the machine's work may have waited for a CPU for the span
to be calm (:meth:`MachineClock.calm`): at a tenth, a program started then finds its core
nine tenths of the time."""

Reading = tuple[float, float | None]
"""One reading: the clock's time, and the machine's stalled seconds then (``None``
without PSI)."""


def wait_over(wall: float, stalled: float | None, wait: float, cap: float = WAIT_CAP) -> bool:
    """Whether a wait of ``wait`` seconds is over after ``wall`` seconds of wall time of
    which the machine was stalled ``stalled`` seconds (``None``: not known, wall time
    alone): its unstalled time has reached ``wait``, or its wall time the larger of
    ``cap`` and ``wait``. Stalled time is taken as at least 0 and at most ``wall`` (a
    wait begun later than now, ``wall`` below 0, has none)."""
    if wall >= max(cap, wait):
        return True
    if stalled is None:
        return wall >= wait
    return wall - min(max(stalled, 0.0), max(wall, 0.0)) >= wait


class MachineClock:
    """The clock of the league's waits by absence: its time, and the machine's stalled
    time since a wait began, from readings kept for the last :data:`WAIT_CAP` seconds."""

    def __init__(
        self,
        stalled: Callable[[], float | None] = stalled_seconds,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``stalled``: the machine's stalled seconds so far (a fixed origin; ``None``
        without PSI); ``clock``: the time waits begin and end by."""
        self.stalled = stalled
        self.clock = clock
        self._times: list[float] = []
        self._stalls: list[float] = []

    def read(self, keep: bool = False) -> Reading:
        """The time and the stalled seconds now; kept as a reading where ``keep`` or the
        last one kept is :data:`KEEP_EVERY` seconds old (readings older than
        :data:`WAIT_CAP` are dropped: a wait begun before them is over)."""
        now, stalled = self.clock(), self.stalled()
        if stalled is not None and (keep or not self._times or now - self._times[-1] >= KEEP_EVERY):
            self._times.append(now)
            self._stalls.append(stalled)
            old = bisect.bisect_left(self._times, now - WAIT_CAP)
            if old:
                del self._times[:old], self._stalls[:old]
        return now, stalled

    def mark(self) -> float:
        """The time now, a reading kept at it: a wait that begins now counts its stalled
        time from its very start."""
        return self.read(keep=True)[0]

    def now(self) -> float:
        """The time now, for a wait that begins now (a reading kept where one is due)."""
        return self.read()[0]

    def over(self, since: float, wait: float, reading: Reading | None = None) -> bool:
        """Whether a wait of ``wait`` seconds begun at ``since`` is over (:func:`wait_over`),
        at ``reading`` (one :meth:`read`, for many waits judged at once) or now."""
        now, stalled = self.read() if reading is None else reading
        wall = now - since
        meanwhile = None if stalled is None else 0.0
        if stalled is not None and wait <= wall < WAIT_CAP:  # else wall time alone decides
            first = bisect.bisect_left(self._times, since)
            meanwhile = stalled - (self._stalls[first] if first < len(self._stalls) else stalled)
        return wait_over(wall, meanwhile, wait)

    def calm(self, span: float, most: float = CALM_STALL) -> bool:
        """Whether the machine's work waited for a CPU at most ``most`` of the last
        ``span`` seconds, read from the kept readings (a reading is kept now where one
        is due): ``False`` without PSI, and until a kept reading is ``span`` seconds old,
        so that a calm is never inferred from less than the span."""
        now, stalled = self.read()
        if stalled is None:
            return False
        before = bisect.bisect_right(self._times, now - span) - 1
        if before < 0:
            return False
        wall = now - self._times[before]
        return stalled - self._stalls[before] <= most * wall
