"""Child processes that end with their parent: :func:`exit_with_parent`.

A process killed with SIGKILL cannot clean up, so its children must notice on
their own: an arena pool worker blocked on a pipe it holds both ends of, or an
engine child in the middle of a search, would otherwise run forever. A child
calls :func:`exit_with_parent` once, early, and then ends (SIGTERM to itself,
``os._exit`` if that is caught) when its parent dies, by two means:

- on Linux, ``prctl(PR_SET_PDEATHSIG)`` makes the kernel send the signal the
  moment the parent dies. The kernel means the parent *thread* that started the
  child, so a child started from a short-lived thread (a web request's worker
  thread) would be killed when that thread ends: pass ``kernel_signal=False``
  unless the parent starts its children from a thread that lives as long as it;
- everywhere on POSIX, a daemon thread polls ``os.getppid()`` every
  :data:`PARENT_POLL` seconds: when the parent dies the child is re-parented
  (to init or a subreaper), so the parent id changes.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PARENT_POLL = 0.5
"""Seconds between two checks of the parent process id (how late a child may notice)."""

GRACE = 2.0
"""Seconds a child has to end after its own signal before it is ended with ``os._exit``."""

ORPHAN_EXIT = 128 + signal.SIGTERM
"""Exit status of a child that ends with ``os._exit`` because its parent died."""

PR_SET_PDEATHSIG = 1
"""The ``prctl`` option (from ``<linux/prctl.h>``)."""

_lock = threading.Lock()
_watching: int | None = None


def set_parent_death_signal(signum: int = signal.SIGTERM) -> bool:
    """Ask the Linux kernel to send ``signum`` to this process when its parent thread ends.

    Returns False (and changes nothing) where ``prctl`` is unavailable.
    """
    if not sys.platform.startswith("linux"):
        return False
    path = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(path, use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def exit_with_parent(
    parent_pid: int | None = None,
    *,
    kernel_signal: bool = True,
    interval: float = PARENT_POLL,
    signum: int = signal.SIGTERM,
) -> None:
    """End this process when ``parent_pid`` (default: the current parent) dies.

    Idempotent: a second call while a watch runs changes nothing. If the parent
    is already gone when this is called (it died before the child got here), the
    process ends at once. No-op on platforms without ``os.getppid`` semantics
    (Windows).
    """
    global _watching
    if os.name != "posix":
        return
    expected = os.getppid() if parent_pid is None else parent_pid
    with _lock:
        if _watching is not None:
            return
        _watching = expected
    if kernel_signal:
        set_parent_death_signal(signum)
    if os.getppid() != expected:
        _end(signum)
    watch = threading.Thread(
        target=_watch, args=(expected, interval, signum), name="parent-watch", daemon=True
    )
    watch.start()


def _watch(expected: int, interval: float, signum: int) -> None:
    while os.getppid() == expected:
        time.sleep(interval)
    _end(signum)


def _end(signum: int) -> None:
    """Signal this process (its default action ends it); ``os._exit`` if it was handled."""
    with contextlib.suppress(OSError):
        os.kill(os.getpid(), signum)
    time.sleep(GRACE)
    os._exit(ORPHAN_EXIT)
