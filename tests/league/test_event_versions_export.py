"""Exports that say what played: every file of an event's export names the versions of
the teams' code that played each game; the teacher's archive and ``adjacency league
event export`` are the same bytes and carry a failure's whole detail, which the public
downloads leave out; a team whose code changed mid-event is named on the event's page;
the teacher's list of events gives each failure, its game and its whole reason."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import urllib.request
import zipfile
from pathlib import Path

import pytest

from adjacency.core.details import DetailCode
from adjacency.core.game import Termination
from adjacency.core.record import game_from_text, game_to_text, games_from_text
from adjacency.league.event_results.event_views import exports, render_html, render_text, table
from adjacency.league.league_file import LeagueStore
from adjacency.serving.details import ended
from cli_helpers import run
from league_helpers import (
    ADMIN,
    add_member,
    make_league,
    play_round_robin,
    request,
    thread_server,
)

Played = tuple[Path, dict[int, tuple[int | None, int | None]], int]
"""The league file, the versions each game was played by, the game alpha's bot failed."""

SECRET = "NullPointerException at /home/alpha/src/Bot.java:12"
"""A failed program's own output: the teacher's and the team's to read, nobody else's."""


def versions_by_game(db: Path) -> dict[int, tuple[int | None, int | None]]:
    """Store the versions that played each game of event ``rr``: alpha's first game by
    its version 1, the rest by its version 2 (it uploaded mid-event), beta's by its
    version 1, gamma none (a connected client). The expected version numbers by game."""
    expected: dict[int, tuple[int | None, int | None]] = {}
    with LeagueStore(db) as store:
        ids = {}
        for team, count in (("alpha", 2), ("beta", 1)):
            member = store.members.member_named(team)
            for n in range(count):
                kept, _ = store.submissions.add(member.id, f"{team} {n}".encode(), "t.zip")
                store.submissions.decide(kept.id, True, "")
                ids[team, n + 1] = kept.id
        alpha, beta = (store.members.member_named(n).id for n in ("alpha", "beta"))
        event = store.events.named("rr")
        alpha_games = 0
        for game_id, _ in store.events.game_rounds(event.id):
            game = store.games.game(game_id)
            assert game is not None
            sides: list[int | None] = []
            for side in (game.x_id, game.o_id):
                if side == alpha:
                    alpha_games += 1
                    sides.append(1 if alpha_games == 1 else 2)
                else:
                    sides.append(1 if side == beta else None)
            x, o = sides
            store.submissions.set_versions(
                game_id,
                None if x is None else ids["alpha" if game.x_id == alpha else "beta", x],
                None if o is None else ids["alpha" if game.o_id == alpha else "beta", o],
            )
            expected[game_id] = (x, o)
    return expected


def fail_first_game(db: Path) -> int:
    """Make alpha's first game of the event one that its bot lost by failing, its error
    output in the detail (as the server stores such an end); that game's id."""
    with LeagueStore(db) as store:
        event = store.events.named("rr")
        alpha_id = store.members.member_named("alpha").id
        text = ""
        for game_id, _ in store.events.game_rounds(event.id):  # alpha's first game
            game = store.games.game(game_id)
            assert game is not None and game.record
            if alpha_id in (game.x_id, game.o_id):
                text = game.record
                break
    record = game_from_text(text)
    while len(record.moves) > 2:  # alpha's bot fails on its second move
        record.undo()
    record.forfeit(
        "x" if record.x_name == "alpha" else "o",
        Termination.DISCONNECTION,
        ended(DetailCode.BOT_FAILED, player="alpha", error=SECRET),
    )
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games SET record = ?, termination = ?, detail = ? WHERE id = ?",
            (game_to_text(record), "disconnection", record.termination_detail, game_id),
        )
    return game_id


@pytest.fixture
def league(tmp_path: Path) -> Played:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("alpha", "beta", "gamma"):
        add_member(db, name)
    with LeagueStore(db) as store:
        store.events.create("rr", "round-robin", None, ["alpha", "beta", "gamma"])
        store.events.start("rr")
    play_round_robin(str(db))
    with LeagueStore(db) as store:  # every board played: over, as the server marks it
        assert store.events.finish(store.events.named("rr").id)
    expected = versions_by_game(db)
    failed = fail_first_game(db)
    return db, expected, failed


def test_every_export_names_the_versions_that_played(
    league: Played,
) -> None:
    db, expected, failed = league
    with LeagueStore(db) as store:
        event = store.events.named("rr")
        files = exports(store, event, whole=True)
        public = exports(store, event)
        data = table(store, event)
    rows = {r["name"]: r["versions"] for r in csv.DictReader(io.StringIO(files["table.csv"]))}
    assert rows == {"alpha": "1 2", "beta": "1", "gamma": ""}
    cross = list(csv.reader(io.StringIO(files["crosstable.csv"])))
    assert cross[0][-2:] == ["byes", "versions"]
    assert {row[0]: row[-1] for row in cross[1:]} == {"alpha": "1 2", "beta": "1", "gamma": ""}
    games = json.loads(files["table.json"])["games"]
    assert {g["id"]: (g["x_version"], g["o_version"]) for g in games} == expected
    assert len(games) == 6 and {g["round"] for g in games} == {1, 2, 3}
    records = games_from_text(files["games.txt"])
    assert [(r.tags.get("XVersion"), r.tags.get("OVersion")) for r in records] == [
        tuple(None if v is None else str(v) for v in expected[g["id"]]) for g in games
    ]
    # the failure's whole detail for the teacher, its public words for anyone
    [lost] = [g for g in games if g["id"] == failed]
    assert SECRET in lost["detail"] and SECRET in files["games.txt"]
    assert SECRET not in public["games.txt"] and SECRET not in public["table.json"]
    [told] = [g for g in json.loads(public["table.json"])["games"] if g["id"] == failed]
    assert "alpha" in told["detail"] and told["termination"] == "disconnection"
    # the team whose code changed mid-event, named wherever the event is shown
    assert data["event"]["changed_versions"] == [{"name": "alpha", "versions": [1, 2]}]
    assert "alpha played versions 1, 2" in render_html(data)
    assert "alpha played versions 1, 2" in render_text(data)


def test_the_teachers_archive_and_the_export_are_the_same_bytes(
    league: Played,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, _, failed = league
    out = tmp_path / "export"
    args = ["league", "event", "export", "--db", str(db), "rr", "--out", str(out)]
    status, printed, _ = run(capsys, *args)
    assert status == 0 and str(out / "rr.zip") in printed
    with thread_server(db, house_games=False) as url:
        asked = urllib.request.Request(
            f"{url}/api/league/admin/events/rr/archive",
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        with urllib.request.urlopen(asked, timeout=30) as answer:
            page_zip = answer.read()
        with urllib.request.urlopen(f"{url}/api/league/events/rr/games.txt", timeout=30) as got:
            public_games = got.read().decode()
        with urllib.request.urlopen(f"{url}/api/league/events/rr", timeout=30) as got:
            shown = json.loads(got.read())
        overview = request(f"{url}/api/league/admin/overview", token=ADMIN)
    # the teacher's list of events: the failure, its game and its whole reason
    [listed] = overview.body["events"]
    assert listed["failures_total"] == 1
    [failure] = listed["failures"]
    with LeagueStore(db) as store:
        rounds = dict(store.events.game_rounds(store.events.named("rr").id))
    assert (failure["game"], failure["termination"]) == (failed, "disconnection")
    assert failure["round"] == rounds[failed] + 1  # counted from 1, as the page says
    assert SECRET in failure["detail"] and "alpha" in (failure["x"], failure["o"])
    with zipfile.ZipFile(io.BytesIO(page_zip)) as zipped:
        for name in zipped.namelist():
            assert zipped.read(name).decode() == (out / name).read_text(), name
        assert SECRET in zipped.read("games.txt").decode()
    assert page_zip == (out / "rr.zip").read_bytes()  # the page's zip is the export's
    assert SECRET not in public_games and "XVersion" in public_games
    assert shown["event"]["changed_versions"] == [{"name": "alpha", "versions": [1, 2]}]
    assert [r["versions"] for r in shown["standings"] if r["name"] == "beta"] == [[1]]
