"""An event is edited (``PUT /api/league/admin/events/NAME``: name, format, members,
rounds, start time, rated, clock, pace) and deleted (``DELETE``) until it starts, through a
real league server: what creating refuses is refused here too, with its reason and
nothing changed; once started, both are refused with the reason and the event stays as
it was; only the admin token may do either."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, make_league, request, thread_server

pytestmark = pytest.mark.xdist_group("league-teacher")

HOUSE = ("h1", "h2", "h3", "h4")


def snapshot(db: Path) -> list[tuple[object, ...]]:
    """Every event as stored, with its members by name."""
    with LeagueStore(db) as store:
        events = store.events
        return [
            (e.name, e.format, e.rounds, e.start, e.rated, e.clock, e.pace, e.status,
             [store.members.member(m).name for m in events.members(e.id)])
            for e in events.events()
        ]  # fmt: skip


def test_an_event_is_edited_and_deleted_until_it_starts_then_refused(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    bot = add_member(db, "team1")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, ["h1", "h2"], clock=(30.0, 0.0))
        store.events.create("spare", "round-robin", None, ["h3", "h4"])
    start = round(time.time()) + 86400.0
    edited = {
        "name": "monday", "format": "swiss", "members": ["h4", "h1", "h2", "h3"], "rounds": 2,
        "start": start, "rated": False, "clock": "10+1", "pace": 20,
    }  # fmt: skip
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league/admin/events"
        assert request(f"{api}/friday", "PUT", edited, None).status == 401
        assert request(f"{api}/friday", "PUT", edited, bot).status == 403
        assert request(f"{api}/friday", "DELETE", None, bot).status == 403
        before = snapshot(db)
        for body, status, reason in (
            ({**edited, "name": "spare"}, 400, "exists already"),
            ({**edited, "members": ["h1", "nobody"]}, 400, "no member"),
            ({**edited, "members": ["h1", "h1"]}, 400, "named twice"),
            ({**edited, "start": 1.0}, 400, "in the past"),
            ({**edited, "clock": "fast"}, 400, "clock"),
            ({**edited, "rounds": 9}, 400, "round"),
            ({**edited, "members": ["h1"]}, 422, "members"),
        ):
            answer = request(f"{api}/friday", "PUT", body, ADMIN)
            assert answer.status == status and reason in str(answer.body), (body, answer)
        assert request(f"{api}/nothing", "PUT", edited, ADMIN).status == 404
        assert snapshot(db) == before  # nothing changed

        done = request(f"{api}/friday", "PUT", edited, ADMIN)
        assert done.status == 200 and done.body == {"name": "monday", "status": "scheduled"}
        assert snapshot(db)[1] == (
            "monday", "swiss", 2, start, False, (10.0, 1.0), 20.0, "scheduled",
            ["h4", "h1", "h2", "h3"],
        )  # fmt: skip
        assert request(f"{api}/friday", "PUT", edited, ADMIN).status == 404  # renamed
        gone = request(f"{api}/spare", "DELETE", None, ADMIN)
        assert gone.status == 200 and gone.body == {"name": "spare", "deleted": True}
        assert [e[0] for e in snapshot(db)] == ["monday"]

        assert request(f"{api}/monday/start", "POST", {}, ADMIN).status == 200
        started = snapshot(db)
        changes: list[tuple[str, object, str]] = [
            ("PUT", {**edited, "pace": 1}, "edited"),
            ("DELETE", None, "deleted"),
        ]
        for method, payload, verb in changes:
            refused = request(f"{api}/monday", method, payload, ADMIN)
            assert refused.status == 400, refused
            assert refused.body["detail"] == (
                f"event 'monday' has started (running): only a scheduled event is {verb}"
            )
        assert snapshot(db) == started


def test_an_events_clock_is_the_leagues_as_written_or_its_own_fischer_clock(
    tmp_path: Path,
) -> None:
    """On a league of 3 s a move: ``3 s/move`` (the league's clock as written), an empty
    clock or none are the league's clock; BASE+INCREMENT is the event's own; another
    seconds a move is refused with the reason, nothing created."""
    db = tmp_path / "league.db"
    make_league(db, move_time=3.0)
    for name in ("h1", "h2"):
        add_member(db, name, "house", "random")
    base = {"format": "round-robin", "members": ["h1", "h2"]}
    with thread_server(db, house_games=False) as url:
        api = url + "/api/league/admin/events"
        for name, clock in (("a", "3 s/move"), ("b", ""), ("c", None), ("d", "30+0.5")):
            body = {**base, "name": name} | ({} if clock is None else {"clock": clock})
            assert request(api, "POST", body, ADMIN).status == 201, name
        refused = request(api, "POST", {**base, "name": "e", "clock": "2 s/move"}, ADMIN)
        assert refused.status == 400
        assert "league's clock (3 s/move)" in refused.body["detail"]
        edited = request(api + "/d", "PUT", {**base, "name": "d", "clock": "3 s/move"}, ADMIN)
        assert edited.status == 200
        overview = request(url + "/api/league/admin/overview", token=ADMIN).body
        assert (overview["move_time"], overview["time_control"]) == (3.0, "3 s/move")
        shown = {ev["name"]: ev["time_control"] for ev in overview["events"]}
        assert shown == {"a": "3 s/move", "b": "3 s/move", "c": "3 s/move", "d": "3 s/move"}
    with LeagueStore(db) as store:
        assert [store.events.named(n).clock for n in "abcd"] == [None] * 4
        assert "e" not in [ev.name for ev in store.events.events()]
