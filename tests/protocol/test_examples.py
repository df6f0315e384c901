"""The example engines (plain Python and C) play real games through the cmd: client."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.bots.baseline import immediate_gain
from adjacency.bots.external import ExternalBot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.core.game import Game, Termination
from protocol_helpers import REPO

EXAMPLES = REPO / "examples" / "engines"
STARTS = [Position.start(), Position.start(5, 6, 6, first="o"), Position.start(4, 7, 5)]


def greedy_first(position: Position) -> str:
    """The examples' rule: most squares won now, ties to the first square in index order."""
    squares = position.legal_squares()
    best = max(immediate_gain(position, sq) for sq in squares)
    return position.board.name(next(sq for sq in squares if immediate_gain(position, sq) == best))


def check_games(spec: str, name: str) -> None:
    for number, start in enumerate(STARTS):
        with make_bot(spec) as engine, make_bot(f"random:seed={number}") as opponent:
            assert isinstance(engine, ExternalBot)
            assert engine.name == name
            game = play_game(engine, opponent, start, Limit(time=5.0))
            again = play_game(opponent, engine, start, Limit(time=5.0))  # and the other side
        for record, color in ((game, "x"), (again, "o")):
            assert record.termination == Termination.NORMAL, record.termination_detail
            assert engine_moves(record, color) == [
                greedy_first(p) for p in record.positions[:-1] if p.turn == color
            ]


def engine_moves(game: Game, color: str) -> list[str]:
    return [m.square for m, p in zip(game.moves, game.positions, strict=False) if p.turn == color]


def test_minimal_python_engine_uses_only_the_standard_library() -> None:
    # -I -S: isolated mode without site-packages, so only the standard library is importable.
    command = [sys.executable, "-I", "-S", str(EXAMPLES / "minimal_engine.py")]
    check_games("cmd:" + shlex.join(command), "minimal greedy (Python)")


def test_c_engine(tmp_path: Path) -> None:
    gcc = shutil.which("gcc")
    if gcc is None:
        if os.environ.get("CI"):
            pytest.fail("gcc is not installed: CI must be able to build the C example")
        pytest.skip("gcc is not installed: cannot build the C example")
    binary = tmp_path / "greedy_engine"
    source = EXAMPLES / "c" / "greedy_engine.c"
    flags = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]
    subprocess.run([gcc, *flags, "-o", str(binary), str(source)], check=True, timeout=120)
    check_games(f"cmd:[dir={tmp_path}] ./greedy_engine", "greedy (C)")
