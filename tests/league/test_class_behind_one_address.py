"""A class behind one address: thirty bots from one school network (one NAT address, here
127.0.0.1, with the rate limits on as for any remote client) play an event on a real
``adjacency league serve`` process, through the real WebSocket protocol.

Limits are per member once the member is known: a bot's messages spend its token's
allowance, never its classmates', and a move the server asked for is never refused by a
rate, so every game ends on the board. The bots are light clients (one asyncio
connection each, answering at once) so that thirty fit in one test process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect as connect_async
from websockets.sync.client import connect

from adjacency.client.wire import CONNECT_PATH
from adjacency.core import Position
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from cli_helpers import run_process
from league_helpers import (
    add_member,
    env,
    get,
    make_league,
    start_server,
    thread_server,
    wait_until,
)

pytestmark = pytest.mark.slow

TEAMS = 30
WAIT = 50.0
"""Seconds any one wait may take (a guard against hangs only)."""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env(), timeout=60)


class Team:
    """One light bot: answers each ``your_turn`` at once with a random legal move and
    keeps every ``error`` the server sends it."""

    def __init__(self, name: str, token: str, seed: int) -> None:
        self.name = name
        self.token = token
        self.rng = random.Random(seed)
        self.errors: list[dict[str, Any]] = []
        self.ended = 0

    async def play(self, url: str, stop: asyncio.Event) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        async with connect_async(url, additional_headers=headers) as ws:
            reader = asyncio.ensure_future(ws.recv())
            stopper = asyncio.ensure_future(stop.wait())
            while True:
                done, _ = await asyncio.wait({reader, stopper}, return_when="FIRST_COMPLETED")
                if stopper in done:
                    reader.cancel()
                    return
                message = json.loads(reader.result())
                reader = asyncio.ensure_future(ws.recv())
                kind = message.get("type")
                if kind == "your_turn":
                    moves = Position.from_fen(message["fen"]).legal_moves()
                    move = {"type": "move", "game": message["game"], "move": self.rng.choice(moves)}
                    await ws.send(json.dumps(move))
                elif kind == "error":
                    self.errors.append(message)
                elif kind == "game_end":
                    self.ended += 1


def event_status(db: Path) -> str:
    with LeagueStore(db) as store:
        return store.events.named("class").status


def test_thirty_bots_on_one_address_play_a_swiss_with_every_game_ended_on_the_board(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=20.0, increment=0.1)
    teams = [Team(f"team{n:02d}", "", n) for n in range(TEAMS)]
    for team in teams:
        team.token = add_member(db, team.name)
    made = cli("league", "event", "create", "--db", str(db), "class", "--format", "swiss",
               "--rounds", "2", "--members", ",".join(t.name for t in teams))  # fmt: skip
    assert made.returncode == 0, made.stderr
    log = tmp_path / "server.log"
    server = start_server(db, 0, log, "--no-house-games", exempt_loopback=False)
    url = server.url

    async def play_the_event() -> None:
        stop = asyncio.Event()
        ws_url = url.replace("http://", "ws://") + CONNECT_PATH
        players = [asyncio.ensure_future(team.play(ws_url, stop)) for team in teams]
        try:
            await asyncio.to_thread(
                wait_until,
                lambda: sum(r["online"] for r in get(f"{url}/api/league/standings")) == TEAMS,
                WAIT,
                "every team to connect",
            )
            started = await asyncio.to_thread(
                cli, "league", "event", "start", "--db", str(db), "class"
            )
            assert started.returncode == 0, started.stderr
            await asyncio.to_thread(
                wait_until, lambda: event_status(db) == "finished", WAIT, "the event to end"
            )
        finally:
            stop.set()
            await asyncio.gather(*players)

    try:
        asyncio.run(play_the_event())
    finally:
        server.stop()

    with LeagueStore(db) as store:
        events = store.events
        event = events.named("class")
        pairs = [b.pair_id for b in events.boards(event.id) if b.pair_id is not None]
        games = [g for g in store.games.games(limit=1000) if g.pair_id in pairs]
    assert len(games) == 2 * TEAMS  # two rounds of 15 boards, each two games
    assert {g.termination for g in games} == {"normal"}, [
        (g.id, g.termination, g.detail) for g in games if g.termination != "normal"
    ]
    assert [t.errors for t in teams if t.errors] == []
    assert "refused" not in log.read_text()


def test_a_bot_over_its_message_rate_still_has_the_moves_it_was_asked_for_accepted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The limiter refuses a bot's pings past its token's allowance (an ``error`` it can
    print, and a line in the server's log), never a move the server waits for: the game
    ends on the board."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    add_member(db, "house-random", "house", "random")
    token = add_member(db, "chatty")
    limits = LeagueLimits(burst=3, messages_per_minute=1.0, reads_per_minute=1e6)
    caplog.set_level(logging.INFO, logger="adjacency.league.routers.socket")
    with thread_server(db, limits=limits, house_games=False) as url:
        ws_url = url.replace("http://", "ws://") + CONNECT_PATH
        with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
            for _ in range(5):
                ws.send(json.dumps({"type": "ping"}))
            errors, end = [], None
            while end is None:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "error":
                    errors.append(message["detail"])
                elif message["type"] == "your_turn":
                    square = Position.from_fen(message["fen"]).legal_moves()[0]
                    ws.send(json.dumps({"type": "move", "game": message["game"], "move": square}))
                elif message["type"] == "game_end":
                    end = message
    assert errors == ["over the rate limit of 1 a minute"] * 2
    assert end["termination"] == "normal", end
    refused = [r.getMessage() for r in caplog.records if "over its rate" in r.getMessage()]
    assert refused and refused[0].startswith("refused a message of chatty: over its rate of 1")
