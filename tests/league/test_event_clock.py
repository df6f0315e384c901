"""An event's own clock: created on the command line (``--clock``, the form of
``league create --clock``) or through the teacher's route, stored with the event and
shown by ``event show`` and the event's table; its games are played on it (their
records' ``TimeControl``, the clock that decides a game of a bot that never
answers), not on the league's. A bad clock is refused and creates nothing; a league
file of the version before the events' own clock opens, and its events keep the
league's clock.

The test of the games sets the server's reconnection grace
(:data:`~adjacency.league.play.scheduler.RECONNECT_GRACE`) to 0: its server starts
fresh, so no bot reconnects after a restart, and ``silent`` is connected before the
event is made; only ``absent`` is waited for, which the grace would delay, not decide
(a bot not connected loses at once after the grace, whatever its length)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from adjacency.league.league_file import LeagueStore
from adjacency.league.play import scheduler as scheduler_module
from adjacency.league.store.schema import EVENT_CLOCK, STORE_SCHEMA
from adjacency.sandbox.pressure import PRESSURE_ENV
from cli_helpers import run
from league_helpers import ADMIN, add_member, make_league, request, thread_server, wait_until
from store_helpers import undo_league_steps

pytestmark = pytest.mark.xdist_group("league-event-clock")

HOUSE = ("h1", "h2")


@contextlib.contextmanager
def silent_bot(url: str, token: str) -> Iterator[None]:
    """A bot connected over the WebSocket protocol for the block, that reads what the
    server sends and never answers. Its queue of messages is unbounded: with the
    default 16, the unread messages of its games would stop its reading, the server's
    answer to its close would go unread and the close would wait out its timeout."""
    address = url.replace("http://", "ws://") + "/api/league/connect"
    headers = {"Authorization": f"Bearer {token}"}
    with connect(address, additional_headers=headers, open_timeout=10, max_queue=None) as ws:
        ws.recv(timeout=30)  # the server's welcome: connected
        yield


def test_an_events_games_are_played_on_its_own_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league on 1+0; the event on 2+0.5, of two random house bots, ``absent``, a bot
    that never connects, and ``silent``, a bot connected that never answers: absent
    loses its games at once (nobody waits for an absent team), and silent's games
    against the house bots are decided by the clock, silent's running out on the
    event's clock, after 2 s of its own, not the league's 1 s."""
    monkeypatch.setenv(PRESSURE_ENV, "none")  # the server's waits in wall time, as when quiet
    monkeypatch.setattr(scheduler_module, "RECONNECT_GRACE", 0.0)  # nobody reconnects here
    db = tmp_path / "league.db"
    make_league(db, base=1.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    add_member(db, "absent")
    token = add_member(db, "silent")
    with thread_server(db) as url, silent_bot(url, token):
        api = f"{url}/api/league/admin/events"
        body = {"name": "friday", "format": "round-robin",
                "members": [*HOUSE, "absent", "silent"], "clock": "2+0.5"}  # fmt: skip
        assert request(api, "POST", body, ADMIN).status == 201
        listed = request(f"{url}/api/league/admin/overview", token=ADMIN).body
        assert (listed["base"], listed["increment"]) == (1.0, 0.0)
        assert [e["time_control"] for e in listed["events"]] == ["2+0.5"]
        assert request(f"{api}/friday/start", "POST", {}, token=ADMIN).status == 200
        table = request(f"{url}/api/league/events/friday").body
        assert table["event"]["time_control"] == "2+0.5"
        wait_until(
            lambda: (
                request(f"{url}/api/league/events/friday").body["event"]["status"] == "finished"
            ),
            55,
            "the event to finish",
        )
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        assert event.clock == (2.0, 0.5)
        absent, silent = (store.members.member_named(name).id for name in ("absent", "silent"))
        games = [store.games.game(g) for g in events.game_ids(event.id)]
    assert len(games) == 12  # six boards, both colours each
    for game in games:
        assert game is not None and game.record is not None
        assert '[TimeControl "2+0.5"]' in game.record
        if absent in (game.x_id, game.o_id):
            assert game.termination == "time forfeit" and game.detail_code == "absent"
        elif silent in (game.x_id, game.o_id):
            assert game.termination == "time forfeit" and game.points(silent) == 0
            # silent's clock ran out: the event's base, not the league's 1 s
            assert game.ended is not None and game.ended - game.started >= 2.0


def test_the_command_line_stores_and_shows_an_events_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=4.0, increment=0.1)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    create = ("league", "event", "create", "--db", str(db))
    members = ("--format", "round-robin", "--members", "h1,h2")
    for bad, reason in (("fast", "expected BASE+INCREMENT"), ("0+1", "base must be above 0"),
                        ("30+99", "increment 0 to 60 s")):  # fmt: skip
        status, _, err = run(capsys, *create, "friday", *members, "--clock", bad)
        assert status == 2 and reason in err and "Traceback" not in err, err
    with LeagueStore(db) as store:
        assert store.events.events() == []
    status, out, _ = run(capsys, *create, "friday", *members, "--clock", "30+0.5")
    assert status == 0 and "1 rounds, 30+0.5" in out, out
    assert run(capsys, *create, "monday", *members)[0] == 0
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "friday")
    assert "scheduled, clock 30+0.5" in out, out
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "monday")
    assert "scheduled, clock 4+0.1" in out, out  # the league's
    with LeagueStore(db) as store:
        events = store.events
        assert events.named("friday").clock == (30.0, 0.5)
        assert events.named("monday").clock is None


def test_a_bad_clock_through_the_teachers_route_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with thread_server(db, house_games=False) as url:
        body = {"name": "friday", "format": "round-robin", "members": list(HOUSE)}
        refused = request(f"{url}/api/league/admin/events", "POST", body | {"clock": "soon"},
                          ADMIN)  # fmt: skip
        assert refused.status == 400 and "expected BASE+INCREMENT" in str(refused.body)
    with LeagueStore(db) as store:
        assert store.events.events() == []


def test_a_league_file_of_the_version_before_keeps_its_events_on_the_leagues_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file as the version before the events' own clock wrote it (its events without
    the two columns, ``user_version`` before the clock's step, and no later step's
    columns) opens, is upgraded, and its event is on the league's clock; a new event
    there takes its own."""
    db = tmp_path / "league.db"
    make_league(db, base=4.0, increment=0.1)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("old", "round-robin", None, list(HOUSE))
    undo_league_steps(db, EVENT_CLOCK)  # its step and every later one undone
    status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "old")
    assert status == 0 and "clock 4+0.1" in out, out
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
    raw.close()
    assert run(capsys, "league", "event", "create", "--db", str(db), "new", "--format",
               "round-robin", "--members", "h1,h2", "--clock", "10+1")[0] == 0  # fmt: skip
    with LeagueStore(db) as store:
        events = store.events
        assert events.named("old").clock is None and events.named("new").clock == (10.0, 1.0)
