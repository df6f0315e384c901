"""The league's own work run in a child process, apart from the server's threads: a
version's digest (:mod:`.digest_worker`) and the report cards' reviews
(:mod:`.card_worker`). :class:`Children` runs one such child at a time per call and
keeps those in hand, so a stopping server ends them at once.

A child is started in a new session (the terminal's Ctrl-C is the server's, not its),
and where the sandbox's cgroups are delegated, in a group of the folder of its
:class:`~adjacency.sandbox.cgroup.Priority` with its memory capped; where they are not,
it runs at the niceness it sets itself. Its group is ended and removed when it ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from dataclasses import dataclass

from ...sandbox import cgroup


@dataclass(frozen=True)
class Ended:
    """A child's end: its exit status, its standard output and error, and whether
    :meth:`Children.stop_all` ended it."""

    returncode: int
    out: bytes
    err: bytes
    stopped: bool


class Children:
    """The children of one kind of work in hand (thread-safe)."""

    def __init__(self) -> None:
        self._running: set[subprocess.Popen[bytes]] = set()
        self._stopped: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()

    def run(self, argv: list[str], data: bytes, priority: cgroup.Priority, memory: int) -> Ended:
        """Run ``argv`` with ``data`` on its standard input until it ends (see the
        module), in ``priority``'s folder with at most ``memory`` bytes where groups
        can be made and capped."""
        group = cgroup.create(priority)
        try:
            if group is not None:
                group.cap_memory(memory)
            child = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            with self._lock:
                self._running.add(child)
            try:
                for entry in group.entries if group is not None else []:
                    try:  # best effort: else it runs at its own niceness only
                        entry.write_text(str(child.pid))
                    except OSError:
                        break
                out, err = child.communicate(data)
            finally:
                with self._lock:
                    self._running.discard(child)
                    stopped = child in self._stopped
                    self._stopped.discard(child)
        finally:
            if group is not None:
                group.kill()
                group.remove()
        return Ended(child.returncode, out, err, stopped)

    def running(self) -> list[int]:
        """The process ids of the children in hand."""
        with self._lock:
            return sorted(child.pid for child in self._running)

    def stop_all(self) -> int:
        """End every child in hand (their :class:`Ended` say ``stopped``); how many."""
        with self._lock:
            ending = list(self._running)
            self._stopped.update(ending)
        for child in ending:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
        return len(ending)
