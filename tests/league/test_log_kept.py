"""The teacher's log kept in the league file: it lasts across a restart of the server,
is bounded by size (the oldest lines dropped), and is filtered by team and kind."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from adjacency.league.league_file import LeagueStore
from adjacency.league.store.log_rows import KEEP_BYTES, LINE_BYTES, MAX_BYTES, LogRepo, names
from adjacency.league.store.schema import STORE_SCHEMA
from adjacency.serving.logs import LogLine
from league_helpers import ADMIN, make_league, request, thread_server


def line(number: int, logger: str, message: str, level: str = "INFO") -> LogLine:
    severity = logging.getLevelName(level)
    return LogLine(number, 1_700_000_000.0 + number, level, severity, logger, message)


def test_a_line_logged_before_a_restart_is_read_after_it(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db, house_games=False) as url:
        # WARNING: the package's logger passes it at its default level
        logging.getLogger("adjacency.league.events").warning("event friday: team-red was paused")
        first = request(url + "/api/league/admin/log?team=team-red", token=ADMIN)
    assert first.status == 200
    assert [x["message"] for x in first.body["lines"]] == ["event friday: team-red was paused"]
    with thread_server(db, house_games=False) as url:  # the server again, on the same file
        again = request(url + "/api/league/admin/log?kind=events", token=ADMIN)
    assert again.status == 200
    assert "event friday: team-red was paused" in [x["message"] for x in again.body["lines"]]
    assert "events" in again.body["kinds"]


def test_the_log_is_filtered_by_team_as_a_word_and_by_kind(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db) as store:
        repo = LogRepo(store.database)
        repo.add([
            line(1, "adjacency.league.events", "event cup: red-blue paired"),
            line(2, "adjacency.league.play.scheduler", "game 4 red 1-0 reddish"),
            line(3, "adjacency.league.builder", "reddish: version 2 accepted"),
            line(4, "adjacency.league.events", "event cup: green bye", "WARNING"),
        ])  # fmt: skip
        assert [x.message for x in repo.lines(team="red")] == [
            "event cup: red-blue paired",
            "game 4 red 1-0 reddish",
        ]
        assert [x.number for x in repo.lines(kind="events")] == [1, 4]
        assert [x.number for x in repo.lines(level="warning")] == [4]
        assert [x.number for x in repo.lines(text="VERSION")] == [3]
        assert repo.kinds() == ["builder", "events", "scheduler"]
    assert names("red", "red-blue") and not names("red", "reddish") and names("RED", "a red.")


def test_the_log_drops_its_oldest_lines_beyond_its_size(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    text = "x" * 1000
    each = len(text) + len("adjacency.league.events") + LINE_BYTES
    count = MAX_BYTES // each + 50  # past the bound
    with LeagueStore(db) as store:
        repo = LogRepo(store.database)
        for first in range(0, count, 500):
            repo.add([line(n, "adjacency.league.events", text) for n in range(first, first + 500)])
        assert KEEP_BYTES - each < repo.size() <= MAX_BYTES
        newest = repo.lines(most=1)
    with LeagueStore(db) as store:  # the file keeps it: read again from a new connection
        again = LogRepo(store.database)
        assert again.lines(most=1) == newest and again.size() <= MAX_BYTES


def test_a_league_file_of_the_version_before_gets_its_log(tmp_path: Path) -> None:
    """A file as the version before the kept log wrote it (no ``log_lines``, its
    ``user_version`` the step before the log's) opens, is upgraded, and keeps lines from
    then on."""
    db = tmp_path / "league.db"
    make_league(db)
    log_step = next(n for n, s in enumerate(STORE_SCHEMA.steps) if "teacher's log" in s.does)
    with sqlite3.connect(db) as raw:
        raw.execute("DROP TABLE log_lines")
        raw.execute(f"PRAGMA user_version = {log_step}")  # steps[:log_step] done
    raw.close()
    with LeagueStore(db) as store:
        repo = LogRepo(store.database)
        assert repo.lines() == []
        repo.add([line(1, "adjacency.league.events", "event cup started")])
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
        assert raw.execute("SELECT message FROM log_lines").fetchall() == [("event cup started",)]
    raw.close()
