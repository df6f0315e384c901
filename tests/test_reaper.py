"""The programs a test starts through the shared helpers end with them (:mod:`reaper`):
a child they leave behind is killed when they return and when they time out, though
it was handed to init when its parent died."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

import reaper
from sandbox_helpers import host_pids_with, wait_until

LEAVES = """
import subprocess, sys
subprocess.Popen(["sleep", sys.argv[1]])  # a server it starts and never stops
print("started", flush=True)
if sys.argv[2] == "hang":
    subprocess.run(["sleep", "300"])
"""


def token() -> str:
    """A sleep's length no other process on the machine has: 300.<random> seconds."""
    return f"300.{uuid.uuid4().int % 10**9:09d}"


def test_a_child_left_by_a_program_that_returned_is_killed() -> None:
    length = token()
    done = reaper.run_in_group([sys.executable, "-c", LEAVES, length, "end"], timeout=50)
    assert done.returncode == 0 and done.stdout == "started\n", done
    wait_until(lambda: not host_pids_with(length), "the left child is gone")


def test_a_child_of_a_program_that_timed_out_is_killed() -> None:
    length = token()
    command = [sys.executable, "-c", LEAVES, length, "hang"]
    with pytest.raises(subprocess.TimeoutExpired):
        # Time enough to start its child on a loaded machine; the wait below shows it did.
        reaper.run_in_group(command, timeout=5)
    wait_until(lambda: not host_pids_with(length), "the timed-out program's child is gone")


def test_the_fixture_kills_the_groups_started_during_the_test() -> None:
    length = token()
    process = subprocess.Popen(
        [sys.executable, "-c", LEAVES, length, "hang"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    reaper.started(process.pid)
    assert process.stdout is not None and process.stdout.readline() == "started\n"
    fixture = reaper.reap.__wrapped__()  # type: ignore[attr-defined]
    next(fixture)  # the fixture's start: the groups so far are not its test's
    assert host_pids_with(length)
    reaper.started(process.pid)  # as if started during its test
    with pytest.raises(StopIteration):
        next(fixture)
    assert process.wait(50) == -9
    wait_until(lambda: not host_pids_with(length), "the group's child is gone")
