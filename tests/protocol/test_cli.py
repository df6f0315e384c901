"""The `adjacency engine` command line: default bot and errors."""

from __future__ import annotations

import subprocess
import sys

from adjacency.bots import entries
from adjacency.cli.protocol_server_commands import PREFERRED_BOTS, default_bot


def test_default_bot_is_the_strongest_registered() -> None:
    names = [item.name for item in entries()]
    expected = next(name for name in PREFERRED_BOTS if name in names)
    assert default_bot() == expected
    if "alphabeta" in names and "engine" not in names:
        assert default_bot() == "alphabeta"


def test_unknown_bot_is_a_clear_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adjacency", "engine", "--bot", "nonsense"],
        input="aep\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "adjacency engine: error: unknown bot 'nonsense'; known bots: random, greedy" in (
        result.stderr
    )


def test_end_of_input_ends_the_session_cleanly() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adjacency", "engine", "--bot", "greedy"],
        input="aep\r\nisready\r\nposition startpos rows 4 cols 4\ngo movetime 50\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[3:5] == ["aepok", "readyok"]
    assert lines[-1].split()[0] == "bestmove"
    assert lines[-1].split()[1] in ("a3", "b3", "c2", "c1", "d1", "d2", "a4", "b4")
