"""``py:FILE.py:Class`` specs: a user's Bot class, loaded from its file by whichever process
builds the bot (``adjacency match`` and its worker processes here; the league's client in
tests/league/test_python_bot.py), and one clear line for each way the spec can be wrong."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from adjacency.bots import BotError, Limit, make_bot
from adjacency.core import Position
from cli_helpers import run_process
from league_helpers import env

BOT_FILE = '''
import random

from adjacency.bots import Bot, Search


class FirstSquare(Bot):
    """Plays the first legal square in name order: easy to check."""

    def _choose(self, position, search: Search) -> str:
        return sorted(position.legal_moves())[0]


class Seeded(Bot):
    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _choose(self, position, search: Search) -> str:
        return self.rng.choice(sorted(position.legal_moves()))


NOT_A_BOT = 3


class Fussy(Bot):
    def __init__(self) -> None:
        raise RuntimeError("needs a config file")

    def _choose(self, position, search: Search) -> str:
        return "a1"
'''


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "mybots.py").write_text(BOT_FILE)
    (tmp_path / "broken.py").write_text("import math\n\nx = 1 / 0\n")
    (tmp_path / "syntax.py").write_text("def f(:\n")
    return tmp_path


def adjacency(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return run_process(*argv, env=env(), cwd=folder)


def test_a_match_plays_a_class_from_a_file_in_worker_processes(folder: Path) -> None:
    done = adjacency(
        folder, "match", "py:mybots.py:FirstSquare", "random",
        "--games", "4", "--jobs", "2", "--time", "1", "--db", "arena.db",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "4 of 4 planned games stored" in done.stdout
    assert "py:mybots.py:FirstSquare" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:missing.py:Bot", "file 'missing.py' does not exist"),
        ("py:mybots.py:Nope", "'mybots.py' has no class 'Nope' (its Bot classes: "
                              "FirstSquare, Fussy, Seeded)"),
        ("py:mybots.py:NOT_A_BOT", "'NOT_A_BOT' in 'mybots.py' is not a Bot"),
        ("py:broken.py:Bot", "'broken.py' raised when loaded (line 3): ZeroDivisionError"),
        ("py:syntax.py:Bot", "'syntax.py' does not compile when loaded (line 1)"),
        ("py:mybots.py:Fussy", "Fussy() raised RuntimeError: 'needs a config file'"),
        ("py:mybots.py", "expected 'py:PATH/TO/FILE.py:ClassName'"),
    ],
)  # fmt: skip
def test_a_bad_spec_is_one_line_and_status_2(folder: Path, spec: str, message: str) -> None:
    done = adjacency(folder, "match", spec, "random", "--games", "2", "--db", "arena.db")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_the_seed_reaches_a_class_that_takes_rng(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(folder)
    start = Position.start(6, 6, 6)
    moves = [make_bot("py:mybots.py:Seeded", seed=4).choose_move(start, Limit(1)) for _ in "ab"]
    assert moves[0] == moves[1]
    first = sorted(start.legal_moves())[0]
    assert make_bot("py:mybots.py:FirstSquare").choose_move(start, Limit(1)) == first
    with pytest.raises(BotError, match="not a Bot"):
        make_bot("py:mybots.py:NOT_A_BOT")
