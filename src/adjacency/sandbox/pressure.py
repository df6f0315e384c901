"""How long the machine's work has waited for a CPU: :func:`stalled_seconds`.

Linux's pressure stall information (PSI) counts the time in which at least one task
that was ready to run waited for a CPU: the ``some`` line's ``total=``, in microseconds,
of ``/proc/pressure/cpu`` for the whole machine since it booted, or of a cgroup v2
group's ``cpu.pressure`` for that group's tasks. The difference of two readings is the
part of the wall time between them in which the machine could not run everything that
was ready to run; a wait that ends in a verdict counts wall time less it
(:mod:`adjacency.league.play.machine_time`), so that a loaded machine does not decide
that a team was absent.

The whole machine's figure is read first: the processes a wait is for (a team's client
reconnecting, a person's browser) may run outside this process's group. Where a
container hides it, this process's own group's ``cpu.pressure`` (cgroup v2) is read.
Where neither can be read (a kernel without PSI, one booted with ``psi=0``, no cgroup
v2), :func:`stalled_seconds` says ``None`` and the caller keeps to wall time.
:data:`PRESSURE_ENV` names another file, or ``none`` for wall time: a host whose
machine-wide pressure counts work the league need not wait out (a large shared host),
or a test whose subject is a quiet machine's waits.

Not a program's own wait: any task's wait counts here, whoever's it was. A sandboxed
program's waits are read per thread (:mod:`.accounting`), as a group's pressure is one
wait averaged over the CPUs its threads moved between.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from .cgroup import own_group

MACHINE = Path("/proc/pressure/cpu")
"""The whole machine's CPU pressure."""

PRESSURE_ENV = "ADJACENCY_CPU_PRESSURE"
"""The environment variable naming the pressure file to read instead of the machine's
(``none``: none, the waits that would not count its stall are wall time)."""


def stall_total(path: Path) -> float | None:
    """Seconds the ``some`` line of the pressure file ``path`` counts (``some avg10=..
    avg60=.. avg300=.. total=MICROSECONDS``); ``None`` where it cannot be read or has no
    such line (an error from the kernel included: ``psi=0`` refuses the read)."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        kind, *fields = line.split()
        if kind != "some":
            continue
        for field in fields:
            name, _, value = field.partition("=")
            if name == "total" and value.isdigit():
                return int(value) / 1e6
    return None


@functools.cache
def source(setting: str | None = None) -> Path | None:
    """The pressure file :func:`stalled_seconds` reads for ``setting`` (the value of
    :data:`PRESSURE_ENV`), chosen at its first reading and kept, so that every reading
    of one server comes from the same count: the file it names (``none``: ``None``),
    else the whole machine's, else this process's own group's, else ``None``."""
    if setting:
        return None if setting == "none" else Path(setting)
    if stall_total(MACHINE) is not None:
        return MACHINE
    group = own_group()
    if group is not None and stall_total(group / "cpu.pressure") is not None:
        return group / "cpu.pressure"
    return None


def stalled_seconds() -> float | None:
    """Seconds in which work was ready to run and waited for a CPU, counted from a point
    fixed for this process (the machine's boot, or its group's creation): only the
    difference of two readings means anything. ``None`` where PSI cannot be read, or
    :data:`PRESSURE_ENV` says ``none``."""
    path = source(os.environ.get(PRESSURE_ENV))
    return None if path is None else stall_total(path)
