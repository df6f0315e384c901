"""``adjacency league backup`` and ``restore``, against a real ``league serve`` process.

The backup is taken while the server plays house games (its writes go on during the
copy): the copy opens as a league, passes SQLite's integrity check, holds every game
finished before the backup started with the same record, and the server keeps playing.
Restore is refused while the server has the file open, and works once it is stopped;
the restored league serves again. Bad input is one error line, status 2, nothing written.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from cli_helpers import run_process
from league_helpers import Process, add_member, env, make_league, start_server, wait_until

pytestmark = pytest.mark.slow


def adjacency(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env(), timeout=60)


def finished(db: Path) -> dict[int, str]:
    """Each finished game's id and record, read through a league store."""
    with LeagueStore(db, create=False) as store:
        return {
            int(game_id): str(record)
            for game_id, record in store.db.execute(
                "SELECT id, record FROM games WHERE status = 'finished'"
            )
        }


def integrity(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("PRAGMA integrity_check")]


@pytest.fixture
def served(tmp_path: Path) -> tuple[Path, Process]:
    """A 6x6 league whose two house bots play each other, served by a real process."""
    db = tmp_path / "league.db"
    make_league(db, rounds=4, base=2.0, increment=0.05)
    add_member(db, "greedy", "house", "greedy")
    add_member(db, "rando", "house", "random")
    server = start_server(db, 0, tmp_path / "server.log")
    return db, server


def test_a_backup_of_a_served_league_holds_every_game_finished_before_it(
    served: tuple[Path, Process], tmp_path: Path
) -> None:
    db, server = served
    try:
        wait_until(lambda: len(finished(db)) >= 4, 60, "four finished games")
        before = finished(db)
        out = tmp_path / "copy.db"
        done = adjacency("league", "backup", "--db", db, "--out", out)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Backed up {str(db)!r} to {str(out)!r}: ")
        assert "integrity check ok" in done.stdout
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".copy")) == []
        assert integrity(out) == ["ok"]
        copied = finished(out)
        assert {k: copied[k] for k in before} == before  # every game finished before, as it was
        with LeagueStore(out, create=False) as store:
            assert {m.name for m in store.members.members()} == {"greedy", "rando"}
        wait_until(lambda: len(finished(db)) > len(copied), 60, "the server to play on")
        assert server.popen.poll() is None
    finally:
        server.stop()


def test_restore_through_a_symlink_is_refused_while_served(
    served: tuple[Path, Process], tmp_path: Path
) -> None:
    """A restore given another name of the served file (a symlink to it, or the file
    behind the symlink the server was given) is refused too: the games stay."""
    db, server = served
    out = tmp_path / "copy.db"
    link = tmp_path / "elsewhere" / "link.db"
    link.parent.mkdir()
    link.symlink_to(db)
    try:
        wait_until(lambda: len(finished(db)) >= 1, 60, "a finished game")
        assert adjacency("league", "backup", "--db", db, "--out", out).returncode == 0
        kept = finished(out)
        refused = adjacency("league", "restore", "--backup", out, "--db", link, "--force")
        assert refused.returncode == 2, refused.stdout
        assert "is open in another process (a running server?)" in refused.stderr
        wait_until(lambda: len(finished(db)) > len(kept), 60, "more games than the backup")
        assert server.popen.poll() is None
    finally:
        server.stop()
    assert len(finished(db)) > len(kept)  # nothing was replaced


def test_restore_is_refused_while_served_and_works_once_stopped(
    served: tuple[Path, Process], tmp_path: Path
) -> None:
    db, server = served
    out = tmp_path / "copy.db"
    try:
        wait_until(lambda: len(finished(db)) >= 1, 60, "a finished game")
        assert adjacency("league", "backup", "--db", db, "--out", out).returncode == 0
        kept = finished(out)
        refused = adjacency("league", "restore", "--backup", out, "--db", db, "--force")
        assert refused.returncode == 2
        assert refused.stderr.strip().splitlines() == [
            f"adjacency league: error: --db {str(db)!r} is open in another process "
            "(a running server?): stop it, then restore"
        ]
        wait_until(lambda: len(finished(db)) > len(kept), 60, "more games than the backup")
    finally:
        server.stop()
    assert len(finished(db)) > len(kept)
    refused = adjacency("league", "restore", "--backup", out, "--db", db)
    assert refused.returncode == 2 and "--force replaces it" in refused.stderr
    done = adjacency("league", "restore", "--backup", out, "--db", db, "--force")
    assert done.returncode == 0, done.stderr
    assert finished(db) == kept
    again = start_server(db, 0, tmp_path / "again.log")
    try:
        wait_until(lambda: len(finished(db)) > len(kept), 60, "the restored league to play")
    finally:
        again.stop()


def test_bad_input_is_one_line_status_2_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    earlier = tmp_path / "earlier.db"
    assert adjacency("league", "backup", "--db", db, "--out", earlier).returncode == 0
    text = tmp_path / "notes.txt"
    text.write_text("not a league\n")
    results = tmp_path / "results.db"
    with contextlib.closing(sqlite3.connect(results)) as other:
        other.execute("CREATE TABLE t (x)")
    snapshot = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    cases: list[tuple[list[str | Path], str]] = [
        (["--db", db, "--out", earlier], f"--out {str(earlier)!r} exists: --force replaces"),
        (["--db", db, "--out", text, "--force"], "it is not a SQLite database"),
        (["--db", text, "--out", tmp_path / "x.db"], "it is not a SQLite database"),
        (["--db", results, "--out", tmp_path / "x.db"], "tables that no league database has"),
        (["--db", tmp_path / "none.db", "--out", tmp_path / "x.db"], "--db: no such file"),
        (["--db", db, "--out", db, "--force"], "is the league itself"),
        (["--db", db, "--out", tmp_path / "no" / "x.db"], "--out: no such folder"),
    ]
    for args, message in cases:
        done = adjacency("league", "backup", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("adjacency league: error: "), lines
        assert message in lines[0], (message, lines)
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == snapshot
    restores: list[tuple[list[str | Path], str]] = [
        (["--backup", text, "--db", tmp_path / "y.db"], "it is not a SQLite database"),
        (["--backup", earlier, "--db", text, "--force"], "it is not a SQLite database"),
        (["--backup", tmp_path / "none.db", "--db", db], "--backup: no such file"),
    ]
    for args, message in restores:
        done = adjacency("league", "restore", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == snapshot
