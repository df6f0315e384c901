"""The one way the tests run the ``adjacency`` command: in this process (:func:`run`, with
pytest's captured output) or in a process of its own (:func:`run_process`, as a user's
shell runs it); and the repository's Python scripts (:func:`run_script`, a benchmark).

A process of its own runs in a process group that ends with it (:mod:`reaper`): a
server it started is killed when it returns or times out. Importing this module imports
no part of the package (the command line is imported by :func:`run` when it runs), so
a test module that only runs the command in a process of its own loads nothing more."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from reaper import run_in_group

REPO = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``adjacency ARGV`` in this process: its exit status, standard output and error."""
    from adjacency.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_process(
    *argv: str | Path,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m adjacency ARGV`` in a process group of its own (``env``: its whole
    environment, default this one's; ``cwd``: its folder, default this one's; ``input``:
    its standard input, default none), its output captured as text."""
    return run_in_group(
        [sys.executable, "-m", "adjacency", *map(str, argv)],
        timeout=timeout,
        env=env,
        cwd=cwd,
        input=input,
    )


def run_script(
    script: Path,
    *argv: str,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: Path = REPO,
) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT ARGV`` in a process group of its own, from ``cwd`` (default the
    repository's root), its output captured as text."""
    return run_in_group([sys.executable, str(script), *argv], timeout=timeout, env=env, cwd=cwd)


def computing_for(pid: int, seconds: float, bound: float = 60.0) -> None:
    """Wait until the process ``pid`` and its descendants have used ``seconds`` of CPU
    time more than when called: they are computing, whatever the machine's load (a wall
    clock sleep only guesses that they got the CPU). Fails after ``bound`` seconds."""
    from adjacency.system import proctree

    def used() -> float:
        found = proctree.subtree(pid)
        if found is None:  # no children lists: the whole table
            table = proctree.snapshot(owners=False)
            found = {p: table[p] for p in [pid, *proctree.tree(table, pid)] if p in table}
        return proctree.cpu_seconds(found.values())

    target = used() + seconds
    deadline = time.monotonic() + bound
    while used() < target:
        assert time.monotonic() < deadline, f"process {pid} used under {seconds} s of CPU"
        time.sleep(0.05)
