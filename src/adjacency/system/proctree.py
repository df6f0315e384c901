"""The processes of this machine as ``/proc`` shows them: :func:`snapshot`, :func:`tree`,
:func:`subtree`.

One pass over ``/proc`` reads every process's parent, owner, CPU time and resident
memory, so a caller that watches several process trees (the sandbox's monitor) reads
``/proc`` once per check, not once per tree. The owner is a second file per process
(``status``): a caller that needs no owner asks for none (``owners=False``) and pays one
read per process. :func:`subtree` reads one tree only, by the kernel's lists of each
thread's children, for a caller that wants one tree now (a hosted bot's CPU time after
each move) and not the whole table. Linux only: elsewhere :func:`snapshot` returns no
processes.

CPU time is read from ``/proc/PID/stat`` (``utime + stime``: every thread of the
process) plus ``cutime + cstime`` (the children it has waited for), so the sum over a
tree's living processes counts the work of children that already ended, as long as
a living member of the tree reaped them (a pid namespace's init reaps every orphan).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""Clock ticks per second, the unit of the CPU times in ``/proc/PID/stat``."""

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
"""Bytes per page, the unit of the resident set size in ``/proc/PID/stat``."""

UNREAD = -1
"""The ``uid`` of a process read without its owner (no user has it)."""


@dataclass(frozen=True)
class ProcessInfo:
    """One process as ``/proc`` showed it: ``cpu_ticks`` is its own CPU time (all
    threads), ``reaped_ticks`` that of the children it waited for, ``rss`` its resident
    memory in bytes, ``threads`` its threads (each counts against ``RLIMIT_NPROC``);
    ``state`` is the one-letter state (``Z``: a zombie). ``uid`` is :data:`UNREAD` where
    the owner was not asked for. ``started`` is its start time in clock ticks after boot:
    with ``pid`` it names one process, whatever later process reuses the pid."""

    pid: int
    ppid: int
    uid: int
    state: str
    cpu_ticks: int
    reaped_ticks: int
    rss: int
    threads: int = 1
    started: int = 0


def _read_file(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 8192)
    finally:
        os.close(fd)


def read(pid: int, owner: bool = True) -> ProcessInfo | None:
    """``pid`` as ``/proc`` shows it now, or ``None`` once it is gone.

    The owner is the real uid from ``/proc/PID/status`` (the one ``RLIMIT_NPROC``
    counts), not the owner of ``/proc/PID``, which is root for a process that made
    itself non-dumpable; with ``owner=False`` that file is not read (``uid`` is
    :data:`UNREAD`)."""
    try:
        stat = _read_file(f"/proc/{pid}/stat")
        # The command name (field 2) may hold spaces and ')': split after the last ')'.
        fields = stat.rsplit(b")", 1)[1].split()
        uid = UNREAD
        if owner:
            status = _read_file(f"/proc/{pid}/status")
            uid = int(status.split(b"\nUid:", 1)[1].split(None, 1)[0])
        return ProcessInfo(
            pid=pid,
            ppid=int(fields[1]),
            uid=uid,
            state=fields[0].decode("ascii", "replace"),
            cpu_ticks=int(fields[11]) + int(fields[12]),
            reaped_ticks=int(fields[13]) + int(fields[14]),
            rss=int(fields[21]) * PAGE,
            threads=int(fields[17]),
            started=int(fields[19]),
        )
    except (OSError, IndexError, ValueError):
        return None


def snapshot(owners: bool = True) -> dict[int, ProcessInfo]:
    """Every process now, by pid (empty where there is no ``/proc``); without their
    owners (:func:`read`) when ``owners`` is False."""
    found: dict[int, ProcessInfo] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                info = read(int(entry), owners)
                if info is not None:
                    found[info.pid] = info
    return found


def children(pid: int) -> list[int] | None:
    """The children of ``pid`` now, by ``/proc/PID/task/TID/children`` (each thread's
    list), or ``None`` where the kernel keeps no such list; ``[]`` once it is gone."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for thread in threads:
        try:
            found += [
                int(child) for child in _read_file(f"/proc/{pid}/task/{thread}/children").split()
            ]
        except FileNotFoundError:
            if thread == str(pid) and os.path.isdir(f"/proc/{pid}/task/{thread}"):
                return None  # the thread is there but not its list: no such lists here
        except OSError:
            continue  # a thread that ended meanwhile
    return found


def subtree(root: int) -> dict[int, ProcessInfo] | None:
    """``root`` and its descendants now, by pid, without their owners (empty once
    ``root`` is gone), read by following the children lists from ``root`` rather than
    the whole table; ``None`` where the kernel keeps no children lists (use
    :func:`snapshot` and :func:`tree`). The lists are not atomic: a process forked
    while they are read may be missed, so a caller summing CPU time keeps the largest
    sum it has seen and the next reading counts it."""
    found: dict[int, ProcessInfo] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        info = read(pid, owner=False)
        if info is None:
            continue
        below = children(pid)
        if below is None:
            return None
        found[pid] = info
        todo += below
    return found


def tree(processes: Mapping[int, ProcessInfo], root: int) -> list[int]:
    """The descendants of ``root`` in ``processes``, children first (``root`` not
    included). A process that left its parent's group or session still counts; one
    whose parent exited before it was listed (an orphan, re-parented) does not."""
    children: dict[int, list[int]] = {}
    for info in processes.values():
        children.setdefault(info.ppid, []).append(info.pid)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def owned_by(processes: Mapping[int, ProcessInfo], uid: int) -> list[int]:
    """The pids of ``processes`` whose owner is ``uid``."""
    return [info.pid for info in processes.values() if info.uid == uid]


def cpu_seconds(infos: Iterable[ProcessInfo]) -> float:
    """The CPU time of these processes and of the children they reaped, in seconds."""
    return sum(info.cpu_ticks + info.reaped_ticks for info in infos) / TICKS


def began(info: ProcessInfo) -> float:
    """When the process of ``info`` began (its fork, as the kernel records it), on
    ``time.monotonic``'s clock: the kernel counts it in clock ticks since boot, so it
    reads up to a tick (:data:`TICKS`) early. The boot clock and the monotonic clock
    differ only by the time the machine was suspended, which is read at once."""
    now = time.monotonic()
    since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
    return now - (since_boot - info.started / TICKS)


def resident_bytes(infos: Iterable[ProcessInfo]) -> int:
    """The resident memory of these processes, summed (shared pages count once per
    process, so this overstates a tree that shares libraries)."""
    return sum(info.rss for info in infos if info.state != "Z")
