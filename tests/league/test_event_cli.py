"""``adjacency league event``: create, start, withdraw, show and export, through the
command line; bad input is one line, status 2, and creates nothing."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjacency.core.record import games_from_text
from adjacency.league.league_file import LeagueStore
from cli_helpers import run
from league_helpers import add_member, env, make_league, play_round_robin

NAMES = ("ada", "bob", "cy", "dee")


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "league.db"
    make_league(path)
    for name in NAMES:
        add_member(path, name)
    add_member(path, "carol", kind="person")
    return str(path)


def event_count(db: str) -> int:
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if "events" not in tables:
            return 0
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "round-robin", "--members", "ada"], "two members or more"),
        (["--format", "round-robin", "--members", "ada,zed"], "no member named 'zed'"),
        (["--format", "round-robin", "--members", "ada,ada"], "named twice"),
        (["--format", "round-robin", "--members", "ada,carol"], "is a person"),
        (["--format", "swiss", "--rounds", "4", "--members", "ada,bob,cy,dee"], "at most 3"),
        (["--format", "swiss", "--members", "ada,bob"], "needs --rounds"),
        (["--format", "round-robin", "--rounds", "5", "--members", "ada,bob,cy"], "has 3 rounds"),
        (["--format", "round-robin", "--members", "ada,bob", "--start", "2001-01-01T10:00"],
         "in the past"),
        (["--format", "round-robin", "--members", "ada,bob", "--start", "friday"],
         "not a date and time"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_status_2_and_creates_nothing(
    db: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _, err = run(capsys, "league", "event", "create", "--db", db, "friday", *args)
    assert status == 2, err
    assert message in err and len(err.strip().splitlines()) == 1
    assert event_count(db) == 0


def test_a_second_event_of_the_same_name_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["league", "event", "create", "--db", db, "--format", "round-robin"]
    assert run(capsys, *base, "Friday", "--members", "ada,bob")[0] == 0
    status, _, err = run(capsys, *base, "friday", "--members", "cy,dee")
    assert status == 2 and "exists already" in err
    assert event_count(db) == 1


def test_a_future_start_time_is_stored(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    when = time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 7200))
    status, out, _ = run(capsys, "league", "event", "create", "--db", db, "later",
                         "--format", "swiss", "--rounds", "2", "--members", "ada,bob,cy",
                         "--start", when, "--unrated")  # fmt: skip
    assert status == 0 and "at its start time" in out
    with LeagueStore(db) as store:
        event = store.events.named("later")
    assert event.start is not None and event.start > time.time() and not event.rated


def test_create_start_show_and_export_a_round_robin(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "league", "event", "create", "--db", db, "rr",
                         "--format", "round-robin", "--members", "ada,bob,cy,dee")  # fmt: skip
    assert status == 0 and "3 rounds" in out
    status, _, _ = run(capsys, "league", "event", "start", "--db", db, "rr")
    assert status == 0
    status, _, err = run(capsys, "league", "event", "start", "--db", db, "rr")
    assert status == 2 and "running already" in err
    play_round_robin(db)
    status, out, _ = run(capsys, "league", "event", "show", "--db", db, "rr")
    assert status == 0 and "Crosstable" in out
    for name in NAMES:
        assert name in out
    out_dir = tmp_path / "export"
    status, out, _ = run(capsys, "league", "event", "export", "--db", db, "rr", "--out",
                         str(out_dir))  # fmt: skip
    assert status == 0
    table = json.loads((out_dir / "table.json").read_text())
    # the table is a recomputation from the stored games: 12 games, 12 points in all
    assert sum(row["points"] for row in table["standings"]) == 12.0
    assert sum(row["games"] for row in table["standings"]) == 24
    rows = list(csv.DictReader((out_dir / "table.csv").open()))
    assert [r["name"] for r in rows] == [r["name"] for r in table["standings"]]
    cross = list(csv.reader((out_dir / "crosstable.csv").open()))
    names = cross[0][1:-3]
    assert sorted(names) == sorted(NAMES) and cross[0][-3:] == ["unplayed", "byes", "versions"]
    for i, row in enumerate(cross[1:]):  # each pair's two cells add up to its 2 games
        assert row[-3] == "0"  # every game was played
        for j, cell in enumerate(row[1:-3]):
            if i != j:
                assert float(cell) + float(cross[j + 1][i + 1]) == 2.0
    games = games_from_text((out_dir / "games.txt").read_text())
    assert len(games) == 12 and all(g.is_over for g in games)
    replay = subprocess.run(
        [sys.executable, "-m", "adjacency", "replay", str(out_dir / "games.txt"), "--game", "12"],
        env=env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    report = subprocess.run(
        [sys.executable, "-m", "adjacency", "report", str(out_dir / "games.db"), "--no-report"],
        env=env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    for name in NAMES:
        assert name in report.stdout
    status, _, err = run(capsys, "league", "event", "export", "--db", db, "rr", "--out",
                         str(out_dir))  # fmt: skip
    assert status == 2 and "exists already" in err


def test_withdraw_a_member(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "league", "event", "create", "--db", db, "sw", "--format", "swiss",
        "--rounds", "2", "--members", "ada,bob,cy")  # fmt: skip
    status, out, _ = run(capsys, "league", "event", "withdraw", "--db", db, "sw", "bob")
    assert status == 0
    status, _, err = run(capsys, "league", "event", "withdraw", "--db", db, "sw", "dee")
    assert status == 2 and "not in event" in err
    status, out, _ = run(capsys, "league", "event", "show", "--db", db, "sw")
    assert "bob (withdrawn)" in out
    # The exported table says who was withdrawn, in a column of its own.
    out_dir = Path(db).parent / "sw-export"
    assert run(capsys, "league", "event", "export", "--db", db, "sw", "--out", str(out_dir))[0] == 0
    rows = {r["name"]: r["withdrawn"] for r in csv.DictReader((out_dir / "table.csv").open())}
    assert rows == {"ada": "no", "bob": "yes", "cy": "no"}
