"""Sandboxes ended together: a :class:`StopScope` holds every sandbox started by the
threads inside it (:meth:`StopScope.inside`), so that one call ends them all
(:meth:`StopScope.stop`) and none starts after it.

Why: a stopping server must not wait for a build or a check in hand (minutes under a
build's wall cap); it ends their sandboxes at once, and the work that started them
unwinds within moments (its one-shot command returns an :class:`~.process.Outcome`
that its caller reads as failed, and its next start raises :class:`SandboxStopped`).
Whoever stopped the scope knows that such a failure is the stop's, not the program's
(a build so ended is not refused: it is built again at the next start).

A scope is entered per thread (a thread-local: the threads of a server's hosted games
are outside its builders' scope); a sandbox started in a thread inside no scope is
ended only by its own caller, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from .errors import SandboxError


class SandboxStopped(SandboxError):
    """A sandbox was to start inside a scope already stopped (:meth:`StopScope.stop`)."""


class Endable(Protocol):
    """What a scope ends: a started sandbox (:meth:`~.process.SandboxedProcess.kill`)."""

    def kill(self) -> None:
        """End it and everything it started; idempotent."""
        ...


_current = threading.local()


def current() -> StopScope | None:
    """The scope the calling thread is inside, if any."""
    scope: StopScope | None = getattr(_current, "scope", None)
    return scope


class StopScope:
    """The sandboxes started inside it, ended together by :meth:`stop` (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: set[Endable] = set()
        self._stopped = False

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called: whatever failed inside since may be its doing."""
        return self._stopped

    @contextmanager
    def inside(self) -> Iterator[StopScope]:
        """Within the block, every sandbox the calling thread starts is this scope's."""
        outer = current()
        _current.scope = self
        try:
            yield self
        finally:
            _current.scope = outer

    def check(self, what: str) -> None:
        """Raise :class:`SandboxStopped` once stopped (``what``: the command, for the
        message), before anything is started."""
        if self._stopped:
            raise SandboxStopped(f"sandboxed {what!r} was not started: its work was stopped")

    def add(self, process: Endable) -> None:
        """Hold the started ``process``; ended at once if the scope stopped while it started."""
        with self._lock:
            if not self._stopped:
                self._started.add(process)
                return
        process.kill()

    def discard(self, process: Endable) -> None:
        """``process`` ended by its own caller: nothing to end any more."""
        with self._lock:
            self._started.discard(process)

    def stop(self) -> int:
        """End every sandbox started inside and refuse any later start; how many were
        running. Each ends as :meth:`~.process.SandboxedProcess.kill` ends it (its whole
        tree killed), here, in the calling thread."""
        with self._lock:
            self._stopped = True
            ending = list(self._started)
            self._started.clear()
        for process in ending:
            process.kill()
        return len(ending)
