"""The teacher's admin routes over HTTP against a real league server (uvicorn in a
thread): only the admin token may use them (401 without it or with an unknown one, 403
with a member's), and then nothing changes; bad input is refused with its reason (400
for what the event store refuses, 422 for a malformed body) and creates nothing; an
event created, started and withdrawn from through them plays, and its archive holds
exactly the files ``adjacency league event export`` writes."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.event_results.event_views import exports
from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, make_league, request, thread_server, wait_until

pytestmark = pytest.mark.xdist_group("league-teacher")

HOUSE = ("h1", "h2", "h3")


def league(tmp_path: Path) -> tuple[Path, str]:
    """A league of three house bots (random: games end at once) and one bot; the bot's
    token."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    return db, add_member(db, "team1")


def events_of(db: Path) -> list[Any]:
    with LeagueStore(db) as store:
        return store.events.events()


def archive(url: str, name: str, token: str | None = ADMIN) -> tuple[int, str, bytes]:
    """The archive route's status, media type and body."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    req = urllib.request.Request(f"{url}/api/league/admin/events/{name}/archive", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read()


def test_only_the_admin_token_may_use_the_teachers_routes(tmp_path: Path) -> None:
    db, bot_token = league(tmp_path)
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE))
    body = {"name": "monday", "format": "round-robin", "members": list(HOUSE)}
    with thread_server(db, house_games=False) as url:
        for token, status in ((None, 401), ("adjl_not-a-token", 401), (bot_token, 403)):
            for method, path, payload in (
                ("GET", "/admin/overview", None),
                ("POST", "/admin/events", body),
                ("POST", "/admin/events/friday/start", {}),
                ("POST", "/admin/events/friday/withdraw", {"member": "h1"}),
            ):
                answer = request(f"{url}/api/league{path}", method, payload, token=token)
                assert answer.status == status, (token, path, answer)
                assert "token" in answer.body["detail"]
                assert bot_token not in str(answer.body)
            assert archive(url, "friday", token)[0] == status
    (event,) = events_of(db)  # nothing changed: no new event, friday neither started
    assert (event.name, event.status) == ("friday", "scheduled")
    with LeagueStore(db) as store:
        assert store.events.withdrawn(event.id) == set()


def test_the_overview_lists_members_waiting_people_and_events(tmp_path: Path) -> None:
    db, _ = league(tmp_path)
    with thread_server(db, house_games=False) as url:
        person = request(f"{url}/api/league/people", "POST", {"name": "ana"})
        assert person.status == 201
        made = request(
            f"{url}/api/league/admin/events",
            "POST",
            {"name": "friday", "format": "swiss", "members": ["h2", "h1", "team1"], "rounds": 2},
            token=ADMIN,
        )
        assert made.status == 201 and made.body == {"name": "friday", "status": "scheduled"}
        seen = request(f"{url}/api/league/admin/overview", token=ADMIN).body
        assert seen["formats"] == ["round-robin", "double-round-robin", "swiss"]
        assert (seen["base"], seen["increment"]) == (30.0, 0.0)
        kinds = {m["name"]: (m["kind"], m["waiting"]) for m in seen["members"]}
        assert kinds == {
            "h1": ("house", False), "h2": ("house", False), "h3": ("house", False),
            "team1": ("bot", False), "ana": ("person", True),
        }  # fmt: skip
        (event,) = seen["events"]
        assert event["format"] == "swiss" and event["rounds"] == 2
        assert [m["name"] for m in event["members"]] == ["h2", "h1", "team1"]
        assert (
            request(f"{url}/api/league/admin/members/ana/approve", "POST", {}, ADMIN).status == 200
        )
        seen = request(f"{url}/api/league/admin/overview", token=ADMIN).body
        assert {m["name"]: m["waiting"] for m in seen["members"]}["ana"] is False


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"name": "x", "format": "round-robin", "members": ["h1", "nobody"]}, 400, "nobody"),
        ({"name": "x", "format": "round-robin", "members": ["h1", "h1"]}, 400, "twice"),
        ({"name": "x", "format": "round-robin", "members": ["h1", "ana"]}, 400, "person"),
        ({"name": "x", "format": "swiss", "members": ["h1", "h2"]}, 400, "rounds"),
        ({"name": "x", "format": "swiss", "members": ["h1", "h2"], "rounds": 9}, 400, "rounds"),
        (
            {"name": "x", "format": "round-robin", "members": ["h1", "h2"], "rounds": 3},
            400,
            "1 rounds",
        ),
        ({"name": "x y", "format": "round-robin", "members": ["h1", "h2"]}, 400, "name"),
        ({"name": "friday", "format": "round-robin", "members": ["h1", "h2"]}, 400, "exists"),
        (
            {"name": "x", "format": "round-robin", "members": ["h1", "h2"], "start": 1.0},
            400,
            "past",
        ),
        ({"name": "x", "format": "knockout", "members": ["h1", "h2"]}, 422, "format"),
        ({"name": "x", "format": "round-robin", "members": ["h1"]}, 422, "members"),
        ({"name": "x" * 33, "format": "round-robin", "members": ["h1", "h2"]}, 422, "name"),
        ({"name": "x", "format": "round-robin", "members": ["h" * 33, "h2"]}, 422, "members"),
        (
            {"name": "x", "format": "round-robin", "members": ["h1", "h2"], "rounds": 0},
            422,
            "rounds",
        ),
        ({"format": "round-robin", "members": ["h1", "h2"]}, 422, "name"),
    ],
)
def test_bad_events_are_refused_with_their_reason_and_create_nothing(
    tmp_path: Path, body: dict[str, Any], status: int, reason: str
) -> None:
    db, _ = league(tmp_path)
    with LeagueStore(db) as store:
        store.members.add_member("ana", "person", None)
        store.events.create("friday", "round-robin", None, list(HOUSE))
    with thread_server(db, house_games=False) as url:
        answer = request(f"{url}/api/league/admin/events", "POST", body, token=ADMIN)
    assert answer.status == status, answer
    assert reason in str(answer.body), answer.body
    assert "Traceback" not in str(answer.body)
    assert [e.name for e in events_of(db)] == ["friday"]


def test_start_and_withdraw_refuse_what_cannot_be_done(tmp_path: Path) -> None:
    db, _ = league(tmp_path)
    with LeagueStore(db) as store:
        events = store.events
        events.create("friday", "round-robin", None, ["h1", "h2"])
        events.create("everyone", "round-robin", None, None)
    with thread_server(db, house_games=False) as url:
        api = f"{url}/api/league/admin/events"
        cases = [
            (f"{api}/nothing/start", {}, 404, "no event named"),
            (f"{api}/everyone/start", {}, 400, "every connected bot"),
            (f"{api}/friday/withdraw", {"member": "h3"}, 400, "not in event"),
            (f"{api}/friday/withdraw", {"member": "nobody"}, 404, "no member"),
            (f"{api}/friday/withdraw", {"member": ""}, 422, "member"),
            (f"{api}/friday/withdraw", {}, 422, "member"),
        ]
        for path, payload, status, reason in cases:
            answer = request(path, "POST", payload, token=ADMIN)
            assert answer.status == status and reason in answer.body["detail"], (path, answer)
        assert request(f"{api}/friday/start", "POST", {}, token=ADMIN).status == 200
        again = request(f"{api}/friday/start", "POST", {}, token=ADMIN)
        assert again.status == 400 and "running already" in again.body["detail"]
        assert archive(url, "nothing")[0] == 404
    statuses = {e.name: e.status for e in events_of(db)}
    assert statuses["everyone"] == "scheduled" and statuses["friday"] != "scheduled"


def test_an_event_made_through_the_api_plays_and_its_archive_is_the_export(
    tmp_path: Path,
) -> None:
    db, _ = league(tmp_path)
    add_member(db, "h4", "house", "random")
    members = [*HOUSE, "h4"]
    with thread_server(db) as url:
        api = f"{url}/api/league/admin/events"
        made = request(
            api, "POST", {"name": "friday", "format": "round-robin", "members": members}, ADMIN
        )
        assert made.status == 201
        # Withdrawn before the start: random house bots may finish a running event
        # before the next request arrives, and a finished event withdraws nobody.
        withdrawn = request(f"{api}/friday/withdraw", "POST", {"member": "h4"}, token=ADMIN)
        assert withdrawn.status == 200
        start = request(f"{api}/friday/start", "POST", {}, token=ADMIN)
        assert start.status == 200 and start.body == {"name": "friday", "status": "running"}
        wait_until(
            lambda: (
                request(f"{url}/api/league/events/friday").body["event"]["status"] == "finished"
            ),
            50,
            "the event to finish",
        )
        status, media, data = archive(url, "friday")
    assert status == 200 and media == "application/zip"
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        expected = exports(store, event, whole=True)  # the teacher's: each failure whole
        assert events.withdrawn(event.id) == {store.members.member_named("h4").id}
        played = len(events.game_ids(event.id))
    with zipfile.ZipFile(io.BytesIO(data)) as zipped:
        assert zipped.namelist() == ["table.csv", "table.json", "crosstable.csv", "games.txt"]
        files = {name: zipped.read(name).decode() for name in zipped.namelist()}
    assert files == expected
    assert played > 0 and files["games.txt"].count('[Event "friday"]') == played
