""":func:`adjacency.system.signals.interruptible`: a signal during a long call in the main
thread calls the caller's ``stop`` at once (the watcher thread, not Python's handler, which
would wait for the call to return), and the process's wakeup fd is restored after."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest

from adjacency.system.signals import interruptible


@pytest.fixture
def quiet_sigint() -> Iterator[list[int]]:
    """SIGINT handled by a Python handler that only records it (no KeyboardInterrupt)."""
    seen: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_signal_during_a_call_in_the_main_thread_calls_stop(quiet_sigint: list[int]) -> None:
    assert threading.current_thread() is threading.main_thread()
    stopped = threading.Event()

    def call() -> int:
        os.kill(os.getpid(), signal.SIGINT)
        # Stands for a compiled call that returns only when told to stop.
        return 1 if stopped.wait(timeout=60) else 0

    assert interruptible(stopped.set, call) == 1
    assert stopped.is_set()
    assert quiet_sigint == [signal.SIGINT]  # Python's own handler still ran


def test_the_previous_wakeup_fd_comes_back_even_when_the_call_raises() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    previous = signal.set_wakeup_fd(write_end)
    try:
        with pytest.raises(ZeroDivisionError):
            interruptible(lambda: None, lambda: 1 // 0)
        assert signal.set_wakeup_fd(write_end) == write_end
    finally:
        signal.set_wakeup_fd(previous)
        os.close(read_end)
        os.close(write_end)
