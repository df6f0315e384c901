"""The teacher's overview costs no query per member on a poll that follows no change:
its member list is read again only when the league file changed (a write of the server,
or a ``league`` command beside it), and then it shows the change."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.overview import MOST, PAGE
from league_helpers import ADMIN, make_league, request
from web_helpers import uvicorn_thread

PEOPLE = 400


def test_polling_the_overview_reads_the_members_only_after_a_change(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    with LeagueStore(db) as store:
        for n in range(PEOPLE):
            store.members.add_member(f"p{n}", "person")
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), builds=False)
    statements: list[str] = []
    with uvicorn_thread(app, "the league server") as url:
        app.state.store.database.db.set_trace_callback(statements.append)

        def poll() -> tuple[dict[str, bool], int]:
            statements.clear()
            seen = request(f"{url}/api/league/admin/overview?limit={MOST}", token=ADMIN).body
            return {m["name"]: m["waiting"] for m in seen["members"]}, len(statements)

        first, _ = poll()
        assert len(first) == PEOPLE and all(first.values())
        again, cost = poll()
        assert again == first
        assert cost < 20  # a few statements, not one or more per member (400 here)
        with LeagueStore(db) as store:  # `adjacency league approve` beside the server
            store.members.approve("p7")
        changed, cost = poll()
        assert changed["p7"] is False and sum(changed.values()) == PEOPLE - 1
        assert cost > PEOPLE  # the change was read


def test_a_league_of_many_members_and_events_pages_its_overview(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    with LeagueStore(db) as store:
        for n in range(PEOPLE):
            store.members.add_member(f"p{n:03}", "person")
        for n in range(3):
            store.members.add_member(f"bot{n}", "bot")
        for n in range(5):
            store.events.create(f"cup{n}", "round-robin", None, ["bot0", "bot1", "bot2"], 1e12)
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), builds=False)
    with uvicorn_thread(app, "the league server") as url:
        overview = f"{url}/api/league/admin/overview"
        first = request(overview, token=ADMIN).body
        assert first["total"] == PEOPLE + 3 and first["offset"] == 0
        assert len(first["members"]) == first["limit"] == PAGE < PEOPLE
        assert first["events_total"] == 5 and len(first["events"]) == 5
        names: list[str] = []
        offset = 0
        while offset < first["total"]:  # every member on exactly one page
            page = request(f"{overview}?offset={offset}&limit=150", token=ADMIN).body
            assert len(page["members"]) == min(150, first["total"] - offset)
            names += [m["name"] for m in page["members"]]
            offset += 150
        assert len(names) == len(set(names)) == PEOPLE + 3
        events = request(f"{overview}?limit=2&events_offset=2", token=ADMIN).body
        assert [e["name"] for e in events["events"]] == ["cup2", "cup1"]  # newest first
        assert len(events["members"]) == 2 and events["events_total"] == 5
        for bad in ("limit=0", f"limit={MOST + 1}", "offset=-1", "page=2"):
            answer = request(f"{overview}?{bad}", token=ADMIN)
            assert answer.status == 422, (bad, answer)
