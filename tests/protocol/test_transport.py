"""The subprocess transport's guarantees: no write blocks for long, no descendant survives."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from adjacency.protocol.client import EngineClient
from adjacency.protocol.errors import EngineTimeout
from adjacency.protocol.transport import SubprocessTransport, descendants
from protocol_helpers import assert_process_gone, running

NOT_READING = [sys.executable, "-c", "import time; time.sleep(60)"]
"""A program that never reads its standard input."""

LINE = "x" * 8191
"""With its newline, 8 kB: a 64 kB pipe fills after eight of them."""


def in_thread(work: threading.Thread, guard: float = 30.0) -> None:
    """Run ``work`` and fail if it is still running after ``guard`` seconds (a hang)."""
    work.start()
    work.join(guard)
    assert not work.is_alive(), "the call hung"


def test_a_write_to_an_engine_that_stopped_reading_fails_instead_of_blocking() -> None:
    transport = SubprocessTransport(NOT_READING, write_timeout=0.3)
    transport.start()
    errors: list[BaseException] = []
    sent = 0

    def fill() -> None:
        nonlocal sent
        try:
            for _ in range(1000):  # 8 MB: far more than any pipe buffer holds
                transport.send_line(LINE)
                sent += 1
        except OSError as exc:
            errors.append(exc)

    try:
        in_thread(threading.Thread(target=fill))
    finally:
        transport.kill()
    assert len(errors) == 1 and isinstance(errors[0], TimeoutError)
    assert "stopped reading its input" in str(errors[0])
    assert 0 < sent < 1000  # the pipe took some lines before it was full


def test_the_client_reports_it_as_a_timeout_naming_the_engine() -> None:
    client = EngineClient(SubprocessTransport(NOT_READING, write_timeout=0.3))
    client.transport.start()
    caught: list[BaseException] = []

    def fill() -> None:
        try:
            for _ in range(1000):
                client.send(LINE)
        except EngineTimeout as exc:
            caught.append(exc)

    try:
        in_thread(threading.Thread(target=fill))
    finally:
        client.transport.kill()
    assert len(caught) == 1
    assert "time.sleep(60)" in str(caught[0]) and "stopped reading its input" in str(caught[0])


def test_kill_reaches_a_grandchild_in_another_session() -> None:
    # The engine starts a grandchild with setsid, then waits on stdin like an engine.
    code = (
        "import subprocess, sys;"
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
        " start_new_session=True);"
        "print(c.pid, flush=True); sys.stdin.read()"
    )
    transport = SubprocessTransport([sys.executable, "-c", code])
    transport.start()
    try:
        line = transport.read_line(30.0)
        assert line is not None
        grandchild = int(line)
        assert transport.pid is not None
        assert grandchild in descendants(transport.pid)
        assert running(grandchild)
    finally:
        transport.kill()
    assert_process_gone(grandchild)


def test_descendants_lists_children_and_their_children() -> None:
    code = (
        "import subprocess, sys;"
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
        "print(c.pid, flush=True); sys.stdin.read()"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert descendants(parent.pid) == [child]
        mine = descendants(os.getpid())
        assert parent.pid in mine and child in mine
    finally:
        for pid in [*descendants(parent.pid), parent.pid]:
            subprocess.run(["kill", "-9", str(pid)], check=False)
        parent.wait()


def test_descendants_of_no_process_is_empty() -> None:
    assert descendants(2**22 + 1) == []  # above Linux's largest pid
