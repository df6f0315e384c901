"""End to end over loopback: a real ``adjacency league serve`` process, four
``adjacency connect`` processes (one the example ``cmd:`` engine, one a slow ``cmd:``
engine), a house bot. Games are played and rated, a killed client loses on time and
plays again when restarted, and a ``kill -9`` of the server loses nothing finished: the
game it cut keeps its moves, the restarted server names it aborted, and its client hears
so and ends that game's engine.

The waits on the members' lists of finished games look four times a second
(:data:`league_helpers.POLL`): each look asks the server for every game of each
member, work that took the server's time from the games waited for when asked fifty
times a second. A wait ends at most a quarter second after its condition holds; what
it waits for is unchanged."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from league_helpers import (
    MINIMAL_ENGINE,
    POLL,
    Process,
    add_member,
    alive,
    assert_kept,
    assert_replays,
    descendants,
    get,
    make_league,
    start_client,
    start_server,
    wait_until,
)

pytestmark = pytest.mark.slow

SLEEPY = Path(__file__).resolve().parent / "sleepy_engine.py"
SERVE = ("--no-house-games", "--pause", "1")
"""House bots play only the clients; members rest 1 s between games (keeps the CPU low)."""
WAIT = 120.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""


def finished_games(url: str, name: str) -> list[dict[str, Any]]:
    return [
        g
        for g in get(f"{url}/api/league/games?member={name}&limit=500")
        if g["status"] == "finished"
    ]


def test_a_league_plays_rates_survives_a_lost_client_and_a_killed_server(
    tmp_path: Path, held_port: int
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-greedy", "house", "greedy")
    specs = {
        "rando": "random",
        "greedo": "greedy",
        "mini": f"cmd:python3 {MINIMAL_ENGINE}",
        "slow": f"cmd:{sys.executable} {SLEEPY}",
    }
    tokens = {name: add_member(db, name) for name in specs}
    server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
    url = server.url
    clients: dict[str, Process] = {}
    try:
        for name, spec in specs.items():
            clients[name] = start_client(url, tokens[name], spec, tmp_path / f"{name}.log")

        # Everyone plays, and the standings show every member with both ratings.
        everyone = [*specs, "house-greedy"]
        wait_until(
            lambda: all(len(finished_games(url, n)) >= 2 for n in everyone), WAIT, "games", POLL
        )
        rows = {row["name"]: row for row in get(f"{url}/api/league/standings")}
        assert set(rows) == set(everyone)
        for row in rows.values():
            assert row["games"] >= 2 and isinstance(row["rating"], float)
            if row["wins"] + row["draws"] and row["losses"] + row["draws"]:
                assert row["elo_low"] <= row["elo"] <= row["elo_high"]
            else:  # a perfect or a zero score is left out of the Bradley-Terry fit
                assert row["elo"] is None
        assert rows["rando"]["online"] and rows["house-greedy"]["kind"] == "house"

        # Kill the slow client in the middle of a game: that game is lost on time.
        def slow_game() -> int | None:
            return next(
                (g["id"] for g in get(f"{url}/api/league/live") if "slow" in (g["x"], g["o"])), None
            )

        for attempt in range(5):
            game_id = wait_until(slow_game, WAIT, "a game of the slow bot")
            clients["slow"].kill()
            if get(f"{url}/api/league/games/{game_id}")["status"] == "playing":
                break  # killed mid-game (not just after the game's last move)
            log = tmp_path / f"slow-retry{attempt}.log"
            clients["slow"] = start_client(url, tokens["slow"], specs["slow"], log)
        others_before = len(finished_games(url, "rando"))
        lost = wait_until(
            lambda: (g := get(f"{url}/api/league/games/{game_id}"))["status"] == "finished" and g,
            WAIT,
            "the abandoned game to end",
        )
        assert lost["termination"] == "time forfeit"
        assert "slow did not move within its clock (not connected)" in lost["detail"]
        assert lost["result"] == ("o" if lost["x"] == "slow" else "x")
        wait_until(lambda: len(finished_games(url, "rando")) > others_before, WAIT, "others", POLL)

        # Restarted, it plays again.
        restarted = time.time()
        clients["slow"] = start_client(url, tokens["slow"], specs["slow"], tmp_path / "slow2.log")
        wait_until(
            lambda: any(
                g["started"] > restarted and g["termination"] == "normal"
                for g in finished_games(url, "slow")
            ),
            WAIT,
            "the restarted client to play",
            POLL,
        )

        # kill -9 the server in the middle of a game of the slow bot (its moves so far
        # on disk), and restart it on the same file: the games in flight are aborted,
        # keep their moves, and the client hears of it once the server is back.
        def slow_game_with_moves() -> StoredGame | None:
            game_id = slow_game()
            with LeagueStore(db) as store:
                game = None if game_id is None else store.games.game(game_id)
            return game if game and game.status == "playing" and game.plies > 0 else None

        cut = wait_until(slow_game_with_moves, WAIT, "a game of the slow bot with moves")
        running = descendants(clients["slow"], str(SLEEPY))  # its games' cmd: engines
        server.kill()
        with LeagueStore(db) as store:
            finished_before = {g.id for g in store.games.games(status="finished")}
            in_flight = {g.id for g in store.games.games(status="playing")}
        assert cut.id in in_flight
        server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
        for flown in in_flight:
            assert get(f"{url}/api/league/games/{flown}")["status"] == "aborted"
        (said,) = [line for line in server.text().splitlines() if "at the last stop" in line]
        assert "marked aborted: " in said and f"{cut.id} (" in said  # by game and names
        wait_until(
            lambda: f"game {cut.id} ended: no result (aborted)" in clients["slow"].text(),
            WAIT,
            "the slow client to hear of the abort after the restart",
        )
        wait_until(lambda: not any(alive(pid) for pid in running), WAIT, "its engines to end")
        assert_kept(db, cut.id, cut.plies)
        wait_until(
            lambda: all(
                any(g["id"] > max(in_flight) for g in finished_games(url, n)) for n in specs
            ),
            WAIT,
            "every client to play on after the restart",
            POLL,
        )
    finally:
        for client in clients.values():
            client.stop()
        server.stop()
    with LeagueStore(db) as store:
        finished = store.games.games(status="finished", with_record=True)
        assert finished_before <= {g.id for g in finished}
        assert store.ratings.ratings() == store.ratings.recompute_ratings()
        for stored in finished:
            assert_replays(stored)
            assert stored.record is not None
            assert not [t for t in tokens.values() if t in stored.record]
        assert not store.games.games(status="playing")  # stopping the server aborts games in play
    for name, token in tokens.items():
        for log in tmp_path.glob("*.log"):
            assert token not in log.read_text(errors="replace"), (name, log)
