"""Ending a sandbox never waits past :data:`~adjacency.sandbox.process.END_WAIT` for
bubblewrap to be reaped: a bubblewrap that outlived its SIGKILL once held a test worker
in a blocking ``wait4`` for 21 minutes. Here ``wait4`` never reports the child ended (it
is still running) and the reap gives up at its deadline."""

from __future__ import annotations

import os
import threading
import time
from types import SimpleNamespace

import pytest

from adjacency.sandbox import process


def test_a_bubblewrap_never_reaped_is_given_up_at_the_end_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []

    def still_running(pid: int, options: int) -> tuple[int, int, None]:
        asked.append(options)
        return 0, 0, None  # what WNOHANG answers for a child still running

    monkeypatch.setattr(os, "wait4", still_running)
    monkeypatch.setattr(process, "END_WAIT", 0.2)
    sandboxed = object.__new__(process.SandboxedProcess)
    sandboxed._popen = SimpleNamespace(pid=2**22 + 1)  # type: ignore[assignment]
    sandboxed._reap_lock = threading.Lock()
    sandboxed._returncode = None
    began = time.monotonic()
    assert sandboxed._reap(block=True) is None
    assert time.monotonic() - began < 60  # bounded (a blocking wait4 never returns)
    assert len(asked) > 1 and set(asked) == {os.WNOHANG}  # polled, never blocked
    assert sandboxed._reap(block=False) is None and asked[-1] == os.WNOHANG
