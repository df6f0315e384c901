"""The one way the tests run the ``adjacency`` command: in this process (:func:`run`, with
pytest's captured output) or in a process of its own (:func:`run_process`, as a user's
shell runs it); and the repository's Python scripts (:func:`run_script`, a benchmark)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.cli import main

REPO = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``adjacency ARGV`` in this process: its exit status, standard output and error."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_process(
    *argv: str, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m adjacency ARGV`` in a process of its own (``env``: its whole
    environment; default this one's), its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "adjacency", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def run_script(script: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT ARGV`` from the repository's root, its output captured as text."""
    return subprocess.run(
        [sys.executable, str(script), *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
    )
