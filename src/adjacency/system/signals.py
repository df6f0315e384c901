"""Ctrl-C during a long compiled call: :func:`interruptible`.

Python runs signal handlers only between bytecodes of the main thread, and a
compiled (numba) call does not return to Python until it ends, so a SIGINT would
wait for the whole call. :func:`interruptible` lets a caller pass a ``stop``
function that a watcher thread calls as soon as an interrupting signal arrives.
The engine's driver (:mod:`adjacency.engine.searcher`) runs every kernel call
through it, with ``stop`` setting the search's abort flag.

Long commands (arena runs, tuning, solving the table, training data) also treat
SIGTERM as Ctrl-C within :func:`sigterm_as_interrupt`, so a terminated run ends
its worker processes and keeps what it has finished, as an interrupted one does.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

INTERRUPTING = frozenset({signal.SIGINT, signal.SIGTERM})
"""Signals that stop a compiled call in the main thread (SIGTERM too: the arena turns it
into KeyboardInterrupt)."""

_signal_pipe: list[int] = []
"""The write end of the pipe the watcher thread reads, once started."""
_running: list[Callable[[], None]] = []
"""The ``stop`` of the compiled call the main thread is in (empty between calls)."""


def interruptible(stop: Callable[[], None], call: Callable[[], int]) -> int:
    """Run one compiled call, returning its result, so that Ctrl-C stops it within
    milliseconds.

    CPython's C-level signal handler runs at once and writes the signal number to
    the fd of :func:`signal.set_wakeup_fd`: during a call from the main thread that
    fd is a pipe read by a daemon watcher thread, which calls ``stop`` (the engine's
    kernels release the GIL, so it runs while they do). ``stop`` must make ``call``
    return soon (the engine's abort flag unwinds its kernels within microseconds),
    and Python's own handler then raises ``KeyboardInterrupt`` as usual. The cost
    per call is two ``set_wakeup_fd`` calls, not a thread (a thread per call made a
    depth-2 search 6x slower). Calls from other threads (web handlers, arena
    threads, timers) run directly: signals never interrupt them.
    """
    if threading.current_thread() is not threading.main_thread():
        return int(call())
    try:
        previous = signal.set_wakeup_fd(_signal_fd())
    except (ValueError, OSError):  # no pipes for it here (not POSIX): plain call
        return int(call())
    _running.append(stop)
    try:
        return int(call())
    finally:
        _running.pop()
        signal.set_wakeup_fd(previous)


def _signal_fd() -> int:
    """The write end of the signal pipe; the first call starts its watcher thread."""
    if not _signal_pipe:
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)  # set_wakeup_fd requires it
        watcher = threading.Thread(
            target=_watch_signals, args=(read_end,), name="kernel-signals", daemon=True
        )
        watcher.start()
        _signal_pipe.append(write_end)
    return _signal_pipe[0]


def _watch_signals(read_end: int) -> None:
    """The watcher thread: call the running ``stop`` for every interrupting signal."""
    while True:
        received = os.read(read_end, 64)
        if INTERRUPTING.intersection(received):
            for stop in list(_running):
                stop()


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises ``KeyboardInterrupt`` like Ctrl-C does, so a
    terminated run is marked ``stopped`` and its worker processes are ended.

    Only the main thread can set signal handlers: elsewhere the block changes nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class StopRequest:
    """Whether a stop was asked for (:func:`stop_on_signals`); ``signal`` names the first
    signal that asked."""

    def __init__(self) -> None:
        self.requested = False
        self.signal: int | None = None


@contextlib.contextmanager
def stop_on_signals() -> Iterator[StopRequest]:
    """Within the block, SIGINT and SIGTERM only set the yielded :class:`StopRequest`;
    the caller checks it at points of its own choosing and stops there.

    Why not ``KeyboardInterrupt``: Python raises it at whatever bytecode the main thread
    is on, and a driver waiting for its workers is almost always inside
    ``concurrent.futures``' condition variables, where an exception between a lock's
    release and its re-acquisition ends in ``RuntimeError: release unlocked lock`` (a
    bug report instead of a stop). A flag read between two pieces of work cannot land
    there. Ctrl-C in a terminal reaches the worker processes too (the foreground process
    group), and they stop their work at once, which wakes the driver; a signal sent to
    the driver alone takes effect when the next piece of work finishes.

    Only the main thread can set signal handlers: elsewhere the request is never set."""
    request = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield request
        return

    def ask(signum: int, frame: FrameType | None) -> None:
        if not request.requested:
            request.requested, request.signal = True, signum

    previous = {signum: signal.signal(signum, ask) for signum in INTERRUPTING}
    try:
        yield request
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
