"""Ctrl-C and SIGTERM stop ``adjacency solutions run`` with its solver threads and workers.

A long entry runs in a pool worker whose main thread drives the split solver's
Python split points while a helper thread runs compiled kernels. Either signal
must end the whole process group with exit status 130 and "interrupted", keep
the entries already solved, and leave no process behind.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import computing_for

CHILD = (
    "import signal, sys\n"
    # As in a terminal, whatever the test runner does with SIGINT.
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "from adjacency.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signum", "whole_group"),
    [(signal.SIGINT, True), (signal.SIGINT, False), (signal.SIGTERM, False)],
    ids=["ctrl-c-in-a-terminal", "sigint-to-the-command", "sigterm-to-the-command"],
)
def test_a_signal_stops_a_two_thread_run_and_keeps_its_finished_entries(
    tmp_path: Path, signum: int, whole_group: bool
) -> None:
    db = tmp_path / "s.db"
    command = [
        sys.executable, "-c", CHILD, "solutions", "run", "--db", str(db), "--sizes", "8x8",
        "--first", "x", "--rounds-max", "7", "--budget", "0", "--threads", "2", "--jobs", "1",
    ]  # fmt: skip
    child = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert child.stderr is not None
        lines = []
        # 8x8 at 4 rounds takes well under a second; 5 rounds then runs for many seconds.
        for line in child.stderr:
            lines.append(line)
            if line.startswith("8x8 4 rounds, x first: value"):
                break
        else:
            pytest.fail(f"the run ended early: {''.join(lines)}")
        computing_for(child.pid, 1.0)  # inside 5 rounds' split solve
        if whole_group:
            os.killpg(child.pid, signum)
        else:
            child.send_signal(signum)
        assert child.wait(timeout=60) == 130
        rest = child.stderr.read()
        assert "interrupted" in rest
        assert "Traceback" not in rest
        deadline = time.monotonic() + 10
        while _group_alive(child.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _group_alive(child.pid), "a worker or solver process outlived the command"
    finally:
        if _group_alive(child.pid):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    with sqlite3.connect(db) as connection:
        rounds = {row[0] for row in connection.execute("SELECT rounds FROM entries")}
    assert {1, 2, 3, 4} <= rounds and 7 not in rounds
