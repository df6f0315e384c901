"""An event's own pace: created on the command line (``--pace``) or through the teacher's
route, stored with the event and shown by ``event show``, the event's table and the
teacher's list; every bot's move in its games, a connected bot's too, is played no
sooner than the pace after it was asked, on a server whose own pace is 0, and the wait
is on no clock. A bad pace is refused and creates nothing; a league file of the version
before the events' own pace opens, and its events follow the server's pace."""

from __future__ import annotations

import math
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.core.record import game_from_text
from adjacency.league.league_file import LeagueError, LeagueStore
from adjacency.league.store.schema import EVENT_PACE, STORE_SCHEMA
from cli_helpers import run
from league_helpers import (
    ADMIN,
    add_member,
    make_league,
    request,
    standing,
    start_client,
    thread_server,
    wait_until,
)
from store_helpers import undo_league_steps

pytestmark = pytest.mark.xdist_group("league-event-pace")

PACE = 0.4


def test_an_events_pace_holds_a_connected_bots_moves_off_the_clock(tmp_path: Path) -> None:
    """A server at full speed (pace 0); an event at 0.4 s of a connected bot and a house
    bot, 6 rounds on a 1 s clock: each of its two games lasts at least its plies (those
    after the opening) times the pace and ends normally (the pace, more than a side's
    clock, was not charged). A second event of the same two without a pace plays at full speed."""
    db = tmp_path / "league.db"
    make_league(db, rounds=6, base=1.0, increment=0.0)
    token = add_member(db, "solo")
    add_member(db, "house-a", "house", "random")
    with thread_server(db, house_games=False) as url:
        client = start_client(url, token, "random", tmp_path / "solo.log")
        try:
            # The events start once the client is there: a bot not connected when its
            # game is to start, past the server's reconnection grace (wall time in the
            # suite), loses it at once, and a loaded machine can start the client later.
            wait_until(lambda: standing(url, "solo")["online"], 60, "the bot to connect")
            api = f"{url}/api/league/admin/events"
            for name, pace in (("paced", PACE), ("quick", None)):
                body: dict[str, Any] = {
                    "name": name, "format": "round-robin", "members": ["solo", "house-a"]
                }  # fmt: skip
                if pace is not None:
                    body["pace"] = pace
                assert request(api, "POST", body, ADMIN).status == 201
                assert request(f"{api}/{name}/start", "POST", {}, ADMIN).status == 200
                table = f"{url}/api/league/events/{name}"
                wait_until(
                    partial(lambda at: request(at).body["event"]["status"] == "finished", table),
                    50,
                    f"the event {name} to finish",
                )
            table = request(f"{url}/api/league/events/paced").body["event"]
            assert table["pace"] == PACE
            assert request(f"{url}/api/league/events/quick").body["event"]["pace"] is None
            listed = request(f"{url}/api/league/admin/overview", token=ADMIN).body["events"]
            assert {e["name"]: e["pace"] for e in listed} == {"paced": PACE, "quick": None}
        finally:
            client.stop()
    with LeagueStore(db) as store:
        events = store.events
        paced = [store.games.game(g) for g in events.game_ids(events.named("paced").id)]
        quick = [store.games.game(g) for g in events.game_ids(events.named("quick").id)]
    assert len(paced) == len(quick) == 2
    for game in paced:
        assert game is not None and game.ended is not None and game.record is not None
        assert game.termination == "normal", game.detail
        plies = len(game_from_text(game.record).moves)  # after the opening's plies
        assert plies == game.plies
        assert plies // 2 * PACE > 1.0  # each side waited longer than its whole clock
        assert game.ended - game.started >= plies * PACE
        assert game.x_time < 1.0 and game.o_time < 1.0
    for game in quick:
        assert game is not None and game.ended is not None
        assert game.termination == "normal", game.detail
        assert game.ended - game.started < game.plies * PACE


def test_the_command_line_stores_and_shows_an_events_pace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    create = ("league", "event", "create", "--db", str(db))
    members = ("--format", "round-robin", "--members", "h1,h2")
    before = db.read_bytes()
    for bad in ("-1", "61", "soon", "nan"):
        with pytest.raises(SystemExit) as exit_:
            main([*create, "friday", *members, "--pace", bad])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "--pace" in err and "Traceback" not in err, err
    assert db.read_bytes() == before
    status, out, _ = run(capsys, *create, "friday", *members, "--pace", "2.5")
    assert status == 0 and "2.5 s a move at least" in out, out
    assert run(capsys, *create, "monday", *members)[0] == 0
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "friday")
    assert status == 0 and "pace 2.5 s" in out, out
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "monday")
    assert status == 0 and "pace" not in out, out
    with LeagueStore(db) as store:
        assert store.events.named("friday").pace == 2.5
        assert store.events.named("monday").pace is None
        for bad_pace in (-0.1, 60.5, math.nan, math.inf):
            with pytest.raises(LeagueError, match="pace is 0 to 60 seconds"):
                store.events.create("other", "round-robin", None, ["h1", "h2"], pace=bad_pace)
        assert sorted(e.name for e in store.events.events()) == ["friday", "monday"]


def test_a_bad_pace_through_the_teachers_route_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    with thread_server(db, house_games=False) as url:
        body = {"name": "friday", "format": "round-robin", "members": ["h1", "h2"]}
        for bad in (-1, 61, "soon"):
            refused = request(f"{url}/api/league/admin/events", "POST", body | {"pace": bad}, ADMIN)
            assert refused.status == 422 and "pace" in str(refused.body)
    with LeagueStore(db) as store:
        assert store.events.events() == []


def test_a_league_file_of_the_version_before_keeps_its_events_on_the_servers_pace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file as the version before the events' own pace wrote it (no ``pace`` column,
    ``user_version`` before the pace's step) opens, is upgraded, and its event has no
    pace of its own; a new event there takes its own."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("old", "round-robin", None, ["h1", "h2"])
    undo_league_steps(db, EVENT_PACE)  # its step and every later one undone
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "old")
    assert status == 0 and "pace" not in out, out
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
    raw.close()
    assert run(capsys, "league", "event", "create", "--db", str(db), "new", "--format",
               "round-robin", "--members", "h1,h2", "--pace", "1")[0] == 0  # fmt: skip
    with LeagueStore(db) as store:
        events = store.events
        assert events.named("old").pace is None and events.named("new").pace == 1.0
