"""Pausing and resuming an event: through the teacher's routes against a real league
server (uvicorn in a thread) a paused event starts no new game, pass after pass, while
its page and ``event show`` say ``paused``; resumed, it goes on where it stopped and
finishes with every game played. Only the admin may pause; what cannot be paused or
resumed is refused with its reason and changes nothing, over HTTP and on the command
line."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from adjacency.sandbox.pressure import PRESSURE_ENV
from cli_helpers import run
from league_helpers import ADMIN, add_member, make_league, request, thread_server, wait_until

pytestmark = pytest.mark.xdist_group("league-event-pause")

HOUSE = ("h1", "h2", "h3")


def league(tmp_path: Path) -> Path:
    """A league of three house bots (random: their games end at once) and the bot
    ``absent``, which never connects: after the server's reconnect grace its event games
    start and it loses them on time (a 1 s clock)."""
    db = tmp_path / "league.db"
    make_league(db, base=1.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    add_member(db, "absent")
    return db


def games(db: Path, name: str = "friday") -> tuple[list[int], list[int]]:
    """The event ``name``'s finished and playing games' ids."""
    with LeagueStore(db) as store:
        events = store.events
        event = events.named(name)
        return events.game_ids(event.id), events.game_ids(event.id, "playing")


def test_a_paused_event_starts_no_game_until_it_is_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PRESSURE_ENV, "none")  # a quiet machine's grace: 10 s of wall time
    db = league(tmp_path)
    members = [*HOUSE, "absent"]
    with thread_server(db) as url:
        api = f"{url}/api/league/admin/events"
        made = request(api, "POST", {"name": "friday", "format": "round-robin",
                                     "members": members}, ADMIN)  # fmt: skip
        assert made.status == 201
        assert request(f"{api}/friday/start", "POST", {}, token=ADMIN).status == 200
        # a witness, unpaused: its one board is of "absent" too
        made = request(api, "POST", {"name": "witness", "format": "round-robin",
                                     "members": ["absent", HOUSE[0]]}, ADMIN)  # fmt: skip
        assert made.status == 201
        assert request(f"{api}/witness/start", "POST", {}, token=ADMIN).status == 200
        # within the reconnect grace: the boards of "absent" have not started
        paused = request(f"{api}/friday/pause", "POST", {}, token=ADMIN)
        assert paused.status == 200, paused.body
        assert paused.body == {"name": "friday", "status": "running", "paused": True}
        again = request(f"{api}/friday/pause", "POST", {}, token=ADMIN)
        assert again.status == 400 and "paused already" in str(again.body)
        wait_until(lambda: not games(db)[1], 50, "the games in play to end")
        before = games(db)[0]
        # past the grace: the unpaused witness starts its games of "absent", the paused
        # event none
        wait_until(lambda: any(games(db, "witness")), 50, "the witness's games of absent")
        assert games(db) == (before, [])
        page = request(f"{url}/api/league/events/friday").body["event"]
        assert page["status"] == "running" and page["paused"] is True
        listed = request(f"{url}/api/league/admin/overview", token=ADMIN).body["events"]
        assert [e["paused"] for e in listed if e["name"] == "friday"] == [True]
        status, out, _ = run(capsys, "league", "event", "show", "--db", str(db), "friday")
        assert status == 0 and "round-robin, 3 rounds, paused" in out, out
        resumed = request(f"{api}/friday/resume", "POST", {}, token=ADMIN)
        assert resumed.body == {"name": "friday", "status": "running", "paused": False}
        wait_until(
            lambda: (
                request(f"{url}/api/league/events/friday").body["event"]["status"] == "finished"
            ),
            50,
            "the event to finish",
        )
        page = request(f"{url}/api/league/events/friday").body["event"]
        assert page["paused"] is False
    finished, playing = games(db)
    assert len(finished) == 12 and playing == []  # 6 boards, both colours each
    assert set(before) < set(finished)


def test_only_the_admin_pauses_and_what_cannot_pause_is_refused(tmp_path: Path) -> None:
    db = league(tmp_path)
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE))
    bot = add_member(db, "team1")
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league/admin/events"
        assert request(f"{api}/friday/pause", "POST", {}).status == 401
        assert request(f"{api}/friday/pause", "POST", {}, token=bot).status == 403
        scheduled = request(f"{api}/friday/pause", "POST", {}, token=ADMIN)
        assert scheduled.status == 400 and "only a running event pauses" in str(scheduled.body)
        unpaused = request(f"{api}/friday/resume", "POST", {}, token=ADMIN)
        assert unpaused.status == 400 and "is not paused" in str(unpaused.body)
        assert request(f"{api}/nobody/pause", "POST", {}, token=ADMIN).status == 404
    with LeagueStore(db) as store:
        event = store.events.named("friday")
    assert event.status == "scheduled" and not event.paused


def test_the_command_line_pauses_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(league(tmp_path))
    with LeagueStore(Path(db)) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE))
    event = ("league", "event")
    status, _, err = run(capsys, *event, "pause", "--db", db, "friday")
    assert status == 2 and "friday" in err and "only a running event pauses" in err
    assert "Traceback" not in err
    assert run(capsys, *event, "start", "--db", db, "friday")[0] == 0
    status, out, _ = run(capsys, *event, "pause", "--db", db, "friday")
    assert status == 0 and "Paused event friday" in out
    assert "paused" in run(capsys, *event, "show", "--db", db, "friday")[1]
    status, _, err = run(capsys, *event, "pause", "--db", db, "friday")
    assert status == 2 and "paused already" in err
    status, out, _ = run(capsys, *event, "resume", "--db", db, "friday")
    assert status == 0 and "Resumed event friday" in out
    assert "3 rounds, running" in run(capsys, *event, "show", "--db", db, "friday")[1]
    status, _, err = run(capsys, *event, "resume", "--db", db, "friday")
    assert status == 2 and "is not paused" in err
