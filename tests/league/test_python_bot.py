"""A bot written with the Python API joins a league: ``adjacency connect URL
'py:FILE.py:Class'`` plays its games against a real server; a spec that
cannot be loaded ends ``connect`` with one line and status 2 before it connects."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from league_helpers import add_member, env, get, make_league, thread_server

BOT_FILE = """
from adjacency.bots import Bot, Search


class FirstSquare(Bot):
    def _choose(self, position, search: Search) -> str:
        return sorted(position.legal_moves())[0]
"""


def connect(folder: Path, url: str, token: str, spec: str) -> subprocess.CompletedProcess[str]:
    environment = env()
    environment["ADJACENCY_LEAGUE_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "-m", "adjacency", "connect", url, spec, "--games", "1"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_python_file_bot_connects_and_finishes_a_game(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT_FILE)
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team-py")
    add_member(db, "sparring", "house", "random")
    with thread_server(db) as url:
        done = connect(tmp_path, url, token, "py:mybot.py:FirstSquare")
        games = get(f"{url}/api/league/games?member=team-py")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    finished = [g for g in games if g["status"] == "finished"]
    assert finished, games
    assert finished[0]["termination"] == "normal"  # legal moves to the end


def test_a_spec_that_cannot_load_stops_connect_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(BOT_FILE)
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "team-py")
    with thread_server(db) as url:
        done = connect(tmp_path, url, token, "py:mybot.py:SecondSquare")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "adjacency connect: error: bot spec 'py:mybot.py:SecondSquare': 'mybot.py' has no "
        "class 'SecondSquare' (its Bot classes: FirstSquare)"
    ]
