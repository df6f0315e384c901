"""Shared helpers for the protocol tests: fake engine specs and process-group checks."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "protocol"
FAKE_ENGINE = HERE / "fake_engine.py"
REPO = HERE.parent.parent


def fake_spec(mode: str, settings: str = "grace=0.3;timeout=5") -> str:
    """A ``cmd:`` spec running the misbehaving fake engine in ``mode``."""
    command = shlex.join([sys.executable, str(FAKE_ENGINE), mode])
    return f"cmd:[{settings}] {command}"


def group_members(pgid: int) -> list[int]:
    """Processes of group ``pgid`` that are still running (zombies count as gone).

    Reads /proc, because PID 1 in a container may never reap orphans, so a
    killed grandchild can linger as a zombie that ``os.killpg(pgid, 0)`` still finds.
    """
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state not in ("Z", "X"):
            members.append(int(entry))
    return members


def assert_group_gone(pgid: int | None) -> None:
    """Fail unless every process of the group has ended (waiting up to 5 s for SIGKILL)."""
    assert pgid is not None
    for _ in range(100):
        if not group_members(pgid):
            return
        time.sleep(0.05)
    pytest.fail(f"processes of engine group {pgid} still running: {group_members(pgid)}")


def running(pid: int) -> bool:
    """True if process ``pid`` exists and is not a zombie (read from /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def assert_process_gone(pid: int) -> None:
    """Fail unless process ``pid`` has ended (waiting up to 5 s for SIGKILL)."""
    for _ in range(100):
        if not running(pid):
            return
        time.sleep(0.05)
    pytest.fail(f"process {pid} still running")
