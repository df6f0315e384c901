"""How much of a core the machine left a sandbox, measured outside it: :class:`CoreWatch`.

A sandbox's own figures cannot say whether the server starved it: its group's
``cpu.pressure`` counts the time any of its threads was ready but not running, which a
program inflates at will (threads that spin beside the one that thinks, or once threads
that lowered their own priority). So whether the machine could give a sandbox its core
over a stretch of time is read from the whole machine's busy time (``/proc/stat``'s
``cpu`` line: user, nice, system, irq, softirq and steal) less what the sandbox's own
group used: what every *other* process took. With ``cores`` cores, the others leave it
a whole core as long as they take at most ``cores - 1`` of them; what they took beyond
that is the share of its core the machine could not give it (:meth:`CoreWatch.denied`).
Nothing a sandboxed program does raises that figure: all its processes are in its group.
"""

from __future__ import annotations

import os
import time

TICKS = os.sysconf("SC_CLK_TCK")
"""The kernel's clock ticks a second (``/proc/stat``'s unit)."""

BUSY_FIELDS = (0, 1, 2, 5, 6, 7)
"""The fields of ``/proc/stat``'s ``cpu`` line that are work: user, nice, system, irq,
softirq, steal (guest time is already in user's; idle and iowait are not work)."""


def busy_seconds() -> float:
    """CPU seconds the whole machine has been busy since it started, all cores
    together; 0 where ``/proc/stat`` cannot be read."""
    try:
        with open("/proc/stat", "rb") as stream:
            line = stream.readline().split()
    except OSError:
        return 0.0
    if not line or line[0] != b"cpu":
        return 0.0
    values = [int(v) for v in line[1:]]
    return sum(values[i] for i in BUSY_FIELDS if i < len(values)) / TICKS


def cores() -> int:
    """The cores this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except OSError:
        return max(1, os.cpu_count() or 1)


class CoreWatch:
    """One stretch of a sandbox's time (a move): started at construction, read by
    :meth:`denied` with what the sandbox's own group used meanwhile."""

    def __init__(self) -> None:
        self.began = time.monotonic()
        self.busy = busy_seconds()
        self.cores = cores()

    def denied(self, own_cpu: float, now: float | None = None) -> float:
        """Seconds of its core the machine's other processes took from the sandbox since
        the watch began (``own_cpu``: what its group used meanwhile): the others' busy
        time beyond ``cores - 1`` cores, at most the wall time itself."""
        wall = (time.monotonic() if now is None else now) - self.began
        others = busy_seconds() - self.busy - max(0.0, own_cpu)
        return max(0.0, min(wall, others - (self.cores - 1) * wall))
