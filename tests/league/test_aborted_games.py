"""Aborted games, with a real ``adjacency league serve`` process and an ``adjacency
connect`` process playing through a ``cmd:`` engine (A3, A4, B13):

* a server that stops (SIGTERM) tells the client (``game_end``, termination
  ``aborted``) and the client closes that game's engine process;
* a server killed with ``kill -9`` tells the client when it is back, with the same effect;
* both ways, the aborted game keeps the moves played so far (written as the game goes).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from league_helpers import Process, add_member, make_league, start_client, start_server, wait_until

pytestmark = pytest.mark.slow

SLEEPY = Path(__file__).resolve().parent / "sleepy_engine.py"
SERVE = ("--no-house-games",)
WAIT = 60.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""


def engines(client: Process) -> set[int]:
    """The pids of the client's ``cmd:`` engines (its descendants running SLEEPY)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        commands[int(entry)] = command
    found: set[int] = set()
    for pid, command in commands.items():
        ancestor = parents.get(pid)
        while ancestor and ancestor != client.popen.pid:
            ancestor = parents.get(ancestor)
        if ancestor == client.popen.pid and str(SLEEPY) in command:
            found.add(pid)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def game_in_play_with_moves(db: Path) -> StoredGame | None:
    """A game in play whose moves so far are already in the database."""
    with LeagueStore(db) as store:
        return next((g for g in store.games.games(status="playing") if g.plies > 0), None)


def stored(db: Path, game_id: int) -> StoredGame:
    with LeagueStore(db) as store:
        game = store.games.game(game_id)
    assert game is not None
    return game


def assert_kept(db: Path, game_id: int, at_least: int) -> None:
    """The aborted game keeps a record of at least ``at_least`` plies, which replays."""
    from adjacency.core.record import game_from_text

    game = stored(db, game_id)
    assert game.status == "aborted" and game.result is None
    assert game.plies >= at_least > 0 and game.record is not None
    replayed = game_from_text(game.record)  # every move replays legally
    assert len(replayed.moves) == game.plies


def test_aborted_games_are_announced_close_their_engine_and_keep_their_moves(
    tmp_path: Path, held_port: int
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-greedy", "house", "greedy")
    token = add_member(db, "sleepy")
    server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
    url = server.url
    client = start_client(url, token, f"cmd:{sys.executable} {SLEEPY}", tmp_path / "client.log")
    try:
        # 1. A graceful stop (SIGTERM) in the middle of a game.
        game = wait_until(lambda: game_in_play_with_moves(db), WAIT, "a game with moves")
        running = wait_until(lambda: engines(client), WAIT, "the client's engine")
        server.stop()
        wait_until(lambda: f"game {game.id} ended: no result (aborted)" in client.text(),
                   WAIT, "the client to hear of the abort")  # fmt: skip
        wait_until(lambda: not any(alive(pid) for pid in running), WAIT, "the engine to end")
        assert_kept(db, game.id, game.plies)
        assert "Traceback" not in server.text() and "ERROR" not in server.text()

        # 2. kill -9 in the middle of a game; the client hears it once the server is back.
        server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
        game = wait_until(lambda: game_in_play_with_moves(db), WAIT, "a game with moves")
        running = wait_until(lambda: engines(client), WAIT, "the client's engine")
        server.kill()
        assert stored(db, game.id).plies >= game.plies  # on disk while it was played
        server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
        wait_until(lambda: f"game {game.id} ended: no result (aborted)" in client.text(),
                   WAIT, "the client to hear of the abort after the restart")  # fmt: skip
        (said,) = [line for line in server.text().splitlines() if "at the last stop" in line]
        assert "marked aborted: " in said and f"{game.id} (" in said  # by game and names
        wait_until(lambda: not any(alive(pid) for pid in running), WAIT, "the engine to end")
        assert_kept(db, game.id, game.plies)
    finally:
        client.stop()
        server.stop()
