"""A league with thousands of people, through a real uvicorn server:

* a scheduler pass reads only the members it may pair (house bots, connected bots):
  its database work is the same with 10 people as with 4,000 (counted in SQLite
  virtual-machine steps, not timed);
* ``/standings`` lists every bot and the people who have played or are online, in
  bounded pages (``?page=``, ``?limit=``, ``X-Total-Count``, ``Link``); bad paging is
  a 422, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from league_helpers import Response, join, make_league, me, request, wait_until
from web_helpers import uvicorn_thread

GUARD = 30.0
"""Seconds any wait may take (a guard against hangs only)."""


def add_people(db: Path, count: int) -> None:
    """``count`` people who never played, written in one transaction (as thousands of
    joins over a term would leave them)."""
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        connection.executemany(
            "INSERT INTO members (name, kind, token_hash, created) VALUES (?, 'person', ?, ?)",
            [(f"person-{n}", f"hash-{n}", time.time()) for n in range(count)],
        )


@contextlib.contextmanager
def served(db: Path, **options: Any) -> Iterator[tuple[str, Any]]:
    """The league app under uvicorn in a thread (rate limits off for this machine's
    clients): its URL and the app."""
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), **options)
    with uvicorn_thread(app, "the league", ws="websockets-sansio") as url:
        yield url, app


def pass_steps(app: Any) -> int:
    """SQLite virtual-machine steps (in hundreds) a scheduler pass takes on the
    server's connection, run in the server's event loop: the second of two (the first
    may read what the hall then keeps, such as the ratings)."""
    hall, store = app.state.hall, app.state.store
    assert hall._task is not None
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    async def one_pass() -> None:
        hall.scheduler.pair()
        with store.database.lock:
            store.db.set_progress_handler(count, 100)
        try:
            hall.scheduler.pair()
        finally:
            with store.database.lock:
                store.db.set_progress_handler(None, 100)

    asyncio.run_coroutine_threadsafe(one_pass(), hall._task.get_loop()).result(GUARD)
    return steps[0]


def test_a_scheduler_pass_does_not_read_every_person(tmp_path: Path) -> None:
    counts = {}
    for people in (10, 4000):
        db = tmp_path / f"league-{people}.db"
        make_league(db)
        with LeagueStore(db, create=False) as store:
            store.members.add_member("house-random", "house", spec="random")
            store.members.add_member("team", "bot")  # not connected: not read either
        add_people(db, people)
        # no house games and no connected bot: every pass starts nothing, and the
        # scheduler's own ticks are an hour apart, so only the counted pass runs
        with served(db, house_games=False, tick=3600.0) as (_, app):
            counts[people] = pass_steps(app)
    assert counts[4000] <= counts[10] + 5, counts


def page(url: str) -> Response:
    """A standings request, its headers' names in lower case (as HTTP/2 and uvicorn
    send them)."""
    answer = request(url)
    answer.headers = {name.lower(): value for name, value in answer.headers.items()}
    return answer


def test_standings_list_bots_and_people_who_played_in_bounded_pages(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        bots = [store.members.add_member(f"bot-{n}", "bot")[0] for n in range(3)]
        store.members.add_member("house-random", "house", spec="random")
        people = [store.members.add_member(f"player-{n}", "person")[0] for n in range(6)]
        for n, person in enumerate(people[:4]):  # four people have played a game
            game = store.games.start_game(person.id, bots[n % 3].id, "opening")
            store.games.finish_game(game, "x", "normal", "", "", (3, 2), 10, (1.0, 1.0))
    add_people(db, 500)  # and 500 joined and never played
    with served(db, house_games=False) as (url, _):
        api = f"{url}/api/league/standings"
        whole = page(api)
        assert whole.status == 200
        names = {row["name"] for row in whole.body}
        assert names == {"bot-0", "bot-1", "bot-2", "house-random"} | {p.name for p in people[:4]}
        assert whole.headers["x-total-count"] == "8" and "link" not in whole.headers

        first = page(f"{api}?limit=3")
        assert [row["name"] for row in first.body] == [row["name"] for row in whole.body[:3]]
        assert first.headers["x-total-count"] == "8"
        assert first.headers["link"] == '</api/league/standings?page=2&limit=3>; rel="next"'
        last = page(f"{api}?page=3&limit=3")
        assert [row["name"] for row in last.body] == [row["name"] for row in whole.body[6:]]
        assert "link" not in last.headers
        assert request(f"{api}?page=4&limit=3").body == []

        for bad in ("limit=0", "limit=501", "page=0", "page=x", "limit=1e9", "online=maybe"):
            answer = request(f"{api}?{bad}")
            assert answer.status == 422, (bad, answer)
            assert "Traceback" not in str(answer.body)

        # a person who never played is listed while their page is open (they can be
        # challenged), and ?online=true keeps only who can be challenged now
        secret = join(url, "newcomer")
        me(url, secret)  # the standings are reused for a second at least: wait for them

        def listed() -> Response | None:
            answer = page(f"{api}?online=true")
            return answer if len(answer.body) == 2 else None

        online = wait_until(listed, GUARD, "the newcomer to be listed")
        assert {row["name"] for row in online.body} == {"house-random", "newcomer"}
        assert online.headers["x-total-count"] == "2"
