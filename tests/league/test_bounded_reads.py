"""Public reads that one request cannot make expensive (docs/league.md, "JSON API"): a
member's page of games starts at most ``MAX_OFFSET`` games deep; a pair's statistics
are computed once per change of the pair's rated games; the events API is rate limited
and an event's downloads are computed once per change of its results."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adjacency.league import standings as standings_module
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.routers import events as events_router
from adjacency.league.routers import public
from adjacency.league.standings import standings, standings_elsewhere
from league_helpers import (
    add_member,
    env,
    get,
    make_league,
    request,
    thread_server,
    wait_until,
)


def play(db: Path, x: str, o: str) -> None:
    """A rated game of two bots, written by another connection (as the CLI would)."""
    with LeagueStore(db, create=False) as store:
        x_id, o_id = store.members.member_named(x).id, store.members.member_named(o).id
        game = store.games.start_game(x_id, o_id, "opening")
        store.games.finish_game(game, "x", "normal", "", "record", (5, 3), 8, (1.0, 1.0))


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the calls of ``module.name`` (the route's computation)."""
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_members_games_are_paged_at_most_max_offset_deep(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "alpha")
    with thread_server(db) as url:
        deep = get(f"{url}/api/league/members/alpha?offset={public.MAX_OFFSET}")
        assert deep["recent"] == [] and deep["recent_offset"] == public.MAX_OFFSET
        refused = request(f"{url}/api/league/members/alpha?offset={public.MAX_OFFSET + 1}")
        assert refused.status == 422, refused
        assert "offset" in str(refused.body), refused


def test_a_pairs_statistics_are_computed_once_per_change_of_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "alpha")
    add_member(db, "beta")
    for _ in range(2):
        play(db, "alpha", "beta")
    calls = counting(monkeypatch, public, "pair_stats")
    with thread_server(db, house_games=False) as url:
        answers = [get(f"{url}/api/league/pairs/alpha/beta") for _ in range(5)]
        assert [a["games"] for a in answers] == [2] * 5 and len(calls) == 1
        assert get(f"{url}/api/league/pairs/beta/alpha")["games"] == 2  # its own view
        assert len(calls) == 2
        play(db, "alpha", "beta")  # a game ends: the next answer counts it
        wait_until(
            lambda: get(f"{url}/api/league/pairs/alpha/beta")["games"] == 3, 30, "a new count"
        )
        assert len(calls) == 3
        assert request(f"{url}/api/league/pairs/alpha/nobody").status == 404


def test_the_events_api_is_rate_limited_and_its_downloads_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("alpha", "beta", "gamma"):
        add_member(db, name)
    with LeagueStore(db, create=False) as store:  # scheduled far ahead: it never starts here
        store.events.create("cup", "round-robin", None, ["alpha", "beta", "gamma"], start=1e12)
    calls = counting(monkeypatch, events_router, "exports")
    with thread_server(db, house_games=False) as url:
        first = request(f"{url}/api/league/events/cup/table.csv", raw=True)
        again = request(f"{url}/api/league/events/cup/crosstable.csv", raw=True)
        assert first.status == again.status == 200 and len(calls) == 1
        assert "gamma" in first.body
        with LeagueStore(db, create=False) as store:  # the CLI withdraws gamma
            store.events.withdraw("cup", "gamma")

        def computed_again() -> bool:
            answer = request(f"{url}/api/league/events/cup/table.csv", raw=True)
            return answer.status == 200 and len(calls) == 2

        wait_until(computed_again, 30, "the files computed again")
    limited = LeagueLimits(reads_per_minute=60.0, address_burst=5)
    with thread_server(db, house_games=False, limits=limited) as url:
        statuses = [request(f"{url}/api/league/events").status for _ in range(12)]
        assert statuses[:5] == [200] * 5 and 429 in statuses, statuses
        refused = request(f"{url}/api/league/events/cup/table.csv")
        assert refused.status == 429 and "too many requests" in refused.body["detail"]


def test_a_big_leagues_standings_are_fitted_in_a_worker_process_with_the_same_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big league's fit holds the GIL for seconds: from BIG rated members on, the
    server fits in a worker process (standings_elsewhere), and the table is the same."""
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("alpha", "beta", "gamma"):
        add_member(db, name)
    for x, o in (("alpha", "beta"), ("beta", "gamma"), ("gamma", "alpha"), ("beta", "alpha")):
        play(db, x, o)
    with LeagueStore(db, create=False) as store:
        expected = standings(store, set())
    assert asyncio.run(standings_elsewhere(str(db), set())) == expected
    threads = counting(monkeypatch, standings_module, "standings")  # calls in this process
    monkeypatch.setattr(standings_module, "BIG", 3)  # three rated members: a big league
    with thread_server(db, house_games=False) as url:
        rows = get(f"{url}/api/league/standings")
        assert standings_module._pool is not None
        workers = list(standings_module._pool._processes)
    assert threads == []  # neither the server's first fit nor a request's ran in a thread
    assert [(r["name"], r["rating"], r["games"]) for r in rows] == [
        (r["name"], r["rating"], r["games"]) for r in expected
    ]
    assert standings_module._pool is None  # the server's stop ended its worker
    for pid in workers:
        assert not alive(pid)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie nobody reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state


ORPHAN = """
import asyncio, os, sys, time
from adjacency.league import standings
asyncio.run(standings.standings_elsewhere(sys.argv[1], set()))
print(*standings._pool._processes, flush=True)
time.sleep(600)
"""


def test_a_standings_worker_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    server = subprocess.Popen(
        [sys.executable, "-c", ORPHAN, str(db)], stdout=subprocess.PIPE, text=True, env=env()
    )
    try:
        assert server.stdout is not None
        (worker,) = (int(pid) for pid in server.stdout.readline().split())
        assert alive(worker)
    finally:
        server.kill()
        server.wait()
    wait_until(lambda: not alive(worker), 30, "the orphaned worker to end")
