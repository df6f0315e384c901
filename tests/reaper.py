"""A pytest plugin (loaded by tests/conftest.py): the programs a test starts end with the
test, also when the test fails or times out.

Every program the tests start through the shared helpers (:func:`run_in_group`, used by
:mod:`cli_helpers`; :func:`league_helpers.spawn`) runs in a process group of its own,
which this module records (:func:`started`). A program's children (a benchmark's
``league serve``, a client's bot) stay in its group unless they leave it on purpose, so
killing the group kills them even after the program itself was killed or ended and they
were handed to init.

- :func:`run_in_group` waits for its program and then kills whatever is left in the
  group, on a return, a timeout (``subprocess.TimeoutExpired``) or any exception;
- the autouse fixture :func:`reap` kills, when a test ends, each group started during
  it (its set-up and body, after the fixtures of wider scope started theirs), so a
  server a failing test never stopped does not outlive it. pytest-timeout's signal method
  fails the test with an exception, so the fixture's end runs then too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from hang_guard import guard

_groups: list[int] = []
"""The process groups started so far in this pytest process, oldest first."""


def started(pid: int) -> None:
    """Record the group led by ``pid`` (a program started with ``start_new_session``)."""
    _groups.append(pid)


def end_group(pgid: int) -> None:
    """Kill every process left in the group ``pgid`` (none left: nothing to do)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_in_group(
    command: Sequence[str | Path],
    *,
    timeout: float,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``command`` in a process group of its own, its output captured as text, as
    ``subprocess.run`` would (``subprocess.TimeoutExpired`` past ``timeout`` seconds);
    whatever it leaves in its group is killed as soon as it returns or fails. Its output
    goes to files, not pipes, so a child left holding them does not hold up the return."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(
            [str(part) for part in command],
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            text=True,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        started(process.pid)
        try:
            if input is not None:
                assert process.stdin is not None
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.write(input)
                    process.stdin.close()
            process.wait(guard(timeout))  # stretched beside other work
        finally:
            end_group(process.pid)
            process.wait()
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(process.args, process.returncode, out.read(), err.read())


@pytest.fixture(autouse=True)
def reap() -> Iterator[None]:
    """Kill, when the test ends, the process groups started during it."""
    first = len(_groups)
    yield
    for pgid in _groups[first:]:
        end_group(pgid)
    del _groups[first:]
