"""A watchdog that ends a private Ray runtime's processes when its driver dies.

A private runtime (``--executor ray`` without ``--ray-address``) is a tree of
processes started by the driver: the GCS server and raylet share the driver's
fate, but the raylet's agents (``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``)
outlive a driver killed with SIGKILL, re-parented to init. The driver therefore
starts this watchdog (``python -m adjacency.workers.reaper``) with a pipe on
its standard input and, once ``ray.init`` has returned, writes the pids of the
children that ``ray.init`` started (one line). While the pipe is open the
watchdog records those processes and their descendants (pid and start time)
every :data:`POLL` seconds; when the pipe closes (the driver closed it after
``ray.shutdown()``, or the driver died, which closes it too) it ends every
recorded process still alive: SIGTERM, then SIGKILL after :data:`GRACE`
seconds. Other children of the driver are never touched. Linux only (it reads
``/proc``); elsewhere no watchdog is started.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

POLL = 0.5
"""Seconds between two records of the driver's process tree."""
GRACE = 2.0
"""Seconds between SIGTERM and SIGKILL for a process still alive."""

Identity = tuple[int, str]
"""A process: its pid and its start time (so that a reused pid is never touched)."""


def _stat(pid: int) -> tuple[int, str] | None:
    """``(parent pid, start time)`` of ``pid``, or None if it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    if fields[0] == "Z":
        return None
    return int(fields[1]), fields[19]


def descendants(root: int) -> set[Identity]:
    """Every living descendant of ``root`` with its start time."""
    children: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        found = _stat(pid)
        if found is not None:
            children.setdefault(found[0], []).append(pid)
            starts[pid] = found[1]
    result: set[Identity] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            result.add((child, starts[child]))
            stack.append(child)
    return result


def end(processes: set[Identity]) -> None:
    """SIGTERM, then SIGKILL, every recorded process that is still the same process."""
    alive = {(pid, start) for pid, start in processes if _same(pid, start)}
    for pid, _ in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = {(pid, start) for pid, start in alive if _same(pid, start)}
    for pid, _ in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _same(pid: int, start: str) -> bool:
    found = _stat(pid)
    return found is not None and found[1] == start


def watch() -> None:
    """Record the processes named on standard input and their descendants until it
    closes, then end them all."""
    roots: set[Identity] = set()
    seen: set[Identity] = set()
    pending = b""
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], POLL)
        if ready:
            data = os.read(sys.stdin.fileno(), 4096)
            if not data:
                break
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                for word in line.split():
                    found = _stat(int(word))
                    if found is not None:
                        roots.add((int(word), found[1]))
        for pid, start in list(roots):
            if _same(pid, start):
                seen.add((pid, start))
                seen |= descendants(pid)
    end(seen)


def children(pid: int) -> set[int]:
    """The living children of ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] == pid:
                found.add(int(entry.name))
    return found


def start() -> subprocess.Popen[bytes] | None:
    """Start a watchdog (None where ``/proc`` is missing). Write it the pids to guard,
    one line; close its ``stdin`` after ``ray.shutdown()`` to let it clean up and exit."""
    if not Path("/proc/self/stat").exists():
        return None
    return subprocess.Popen(
        [sys.executable, "-m", "adjacency.workers.reaper"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C of the driver's terminal must not end it first
    )


if __name__ == "__main__":
    watch()
