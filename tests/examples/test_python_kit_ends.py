"""The Python kit's engine (examples/engines/python/engine.py) ends when its controller
goes away: a killed ``adjacency connect`` closes the engine's input and the reading ends
of its output and error pipes. Driven here over real pipes, closed in the middle of a
search (one with a time budget, one ``infinite``), the engine process ends by itself
instead of hanging for ever on an answer it can no longer write."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from kit_helpers import GUARD, kit_command


@pytest.mark.parametrize("go", ["go movetime 3000", "go infinite"])
def test_the_python_kit_engine_ends_when_its_controller_is_gone(go: str, tmp_path: Path) -> None:
    engine = subprocess.Popen(
        kit_command("python", "alphabeta", tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert engine.stdin is not None and engine.stdout is not None and engine.stderr is not None
    try:
        engine.stdin.write(f"aep\nposition startpos\n{go}\n")
        engine.stdin.flush()
        line = engine.stdout.readline()  # the search is under way once it reports
        while line and not line.startswith("info"):
            line = engine.stdout.readline()
        assert line.startswith("info"), line
        for pipe in (engine.stdin, engine.stdout, engine.stderr):  # the controller is gone
            pipe.close()
        status = engine.wait(GUARD)  # a hang fails here
        assert status == 0, status
    finally:
        if engine.poll() is None:
            os.killpg(engine.pid, signal.SIGKILL)
            engine.wait()
