"""What hostile clients of the league get, through a real uvicorn server on 127.0.0.1:
a client that floods pings faster than it reads is closed at once with a close code,
and nothing of its connection stays behind (B7); clients on the server's machine are
rate limited and cannot pose as others through forwarded headers (B8)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.exceptions import InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.sync.client import connect
from websockets.uri import parse_uri

from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.play.outbox import OUTBOX, OVERFLOW_CODE, Outbox
from adjacency.serving.sockets import socket_options
from league_helpers import (
    add_member,
    make_league,
    request,
    start_server,
    thread_server,
    wait_until,
)
from web_helpers import uvicorn_thread

GUARD = 30.0
"""Seconds any wait may take (a guard against hangs only)."""
GENEROUS = LeagueLimits(burst=10_000, messages_per_minute=1e6)
"""No message rate in the way: the flood must meet the outbox, not the rate limit."""


@contextlib.contextmanager
def league(tmp_path: Path, limits: LeagueLimits = GENEROUS) -> Iterator[tuple[str, Any, Path]]:
    """The league app under uvicorn in a thread: its URL, the app and the database."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    app = create_app(db, limits=limits, house_games=False)
    with uvicorn_thread(app, "the league", ws="websockets-sansio") as url:
        yield url, app, db


def server_tasks(app: Any) -> Counter[str]:
    """The tasks alive in the server's event loop, counted by their coroutine's name,
    the counting task left out.

    The count is steady between connections: the scheduler waits for its next wake-up
    inside its own task (``asyncio.timeout``). It used to wait with ``asyncio.wait_for``,
    whose wait was a task of its own that existed only while the scheduler slept, and a
    baseline taken while it paired was one short (a CI run failed on that).
    """
    hall = app.state.hall
    loop = hall._task.get_loop()

    async def count() -> Counter[str]:
        me = asyncio.current_task()
        return Counter(
            getattr(task.get_coro(), "__qualname__", "?")
            for task in asyncio.all_tasks()
            if task is not me
        )

    return asyncio.run_coroutine_threadsafe(count(), loop).result(GUARD)


def outboxes() -> int:
    gc.collect()
    return sum(isinstance(o, Outbox) for o in gc.get_objects())


class RawClient:
    """A WebSocket client on a raw socket (websockets' sans-I/O protocol): it writes a
    whole burst of frames in one TCP write and reads only when told to."""

    def __init__(self, url: str, token: str) -> None:
        uri = url.replace("http://", "ws://") + "/api/league/connect"
        self.protocol = ClientProtocol(parse_uri(uri))
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=GUARD)
        request = self.protocol.connect()
        request.headers["Authorization"] = f"Bearer {token}"
        self.protocol.send_request(request)
        self.flush()
        self.texts: list[dict[str, Any]] = []
        while self.protocol.state is not State.OPEN:  # the server's 101 answer
            data = self.sock.recv(65536)
            assert data, "the server refused the connection"
            self.receive(data)

    def flush(self) -> None:
        self.sock.sendall(b"".join(self.protocol.data_to_send()))

    def receive(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Frame) and event.opcode == Opcode.TEXT:
                self.texts.append(json.loads(bytes(event.data)))

    def read_until_closed(self) -> None:
        """Read everything until the server's close frame (or the socket's end)."""
        while self.protocol.close_rcvd is None:
            data = self.sock.recv(65536)
            if not data:
                self.protocol.receive_eof()
                break
            self.receive(data)
        self.flush()  # our half of the closing handshake

    def close(self) -> None:
        self.sock.close()


def test_a_ping_flood_closes_the_connection_at_once_and_leaves_nothing_behind(
    tmp_path: Path,
) -> None:
    with league(tmp_path) as (url, app, db):
        token = add_member(db, "flooder")
        baseline = server_tasks(app)
        for _ in range(3):  # each round leaves nothing: no growth over rounds
            client = RawClient(url, token)
            try:
                for _ in range(4 * OUTBOX):
                    client.protocol.send_text(b'{"type": "ping"}')
                client.flush()  # one write: the server reads the whole burst at once
                client.read_until_closed()
            finally:
                client.close()
            assert client.protocol.close_rcvd is not None, "no close frame"
            assert client.protocol.close_rcvd.code == OVERFLOW_CODE
            assert "unread" in client.protocol.close_rcvd.reason
            assert len(client.texts) <= OUTBOX + 1  # not every pong was buffered for it
            wait_until(
                lambda: not app.state.hall.presence.connections, GUARD, "the hall to drop it"
            )
            wait_until(
                lambda: server_tasks(app) == baseline, GUARD, f"the handlers to end: {baseline}"
            )
        assert outboxes() == 0


def handshake_status(url: str, forwarded_for: str | None = None) -> int:
    """The HTTP status refusing a bot handshake with an unknown token (401, or 429 over
    the address's connection rate), optionally claiming to be forwarded for another."""
    headers = {"Authorization": "Bearer adjl_not-a-token"}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    ws = url.replace("http://", "ws://") + "/api/league/connect"
    with pytest.raises(InvalidStatus) as refused, connect(ws, additional_headers=headers):
        pass
    return int(refused.value.response.status_code)


CONNECT_BURST = LeagueLimits().address_burst
"""Handshakes an address may make at once before its connection rate applies."""
CONNECT_RATE = LeagueLimits().connects_per_minute
"""Handshakes an address regains a minute."""


def handshakes_until_refused(url: str, forwarded: str | None) -> list[int]:
    """Handshakes from ``url``'s client (claiming ``forwarded``) until one is refused; their
    statuses. The bucket refills while they run (on a loaded machine a burst takes
    seconds), so the count allowed is the burst plus what the elapsed time gave back."""
    started = time.monotonic()
    statuses: list[int] = []
    while not statuses or statuses[-1] != 429:
        statuses.append(handshake_status(url, forwarded))
        allowed = CONNECT_BURST + CONNECT_RATE * (time.monotonic() - started) / 60 + 1
        assert len(statuses) <= allowed + 1, f"no 429 after {len(statuses)} handshakes"
    return statuses


def test_clients_on_the_servers_machine_are_limited_and_cannot_pose_as_others(
    tmp_path: Path,
) -> None:
    """With real ``league serve`` processes: by default the connection rate applies to
    127.0.0.1 too, and a local client's ``X-Forwarded-For`` is not believed (it cannot
    spend a remote client's allowance); with ``--forwarded-allow-ips`` it is."""
    db = tmp_path / "league.db"
    make_league(db)
    server = start_server(db, 0, tmp_path / "server.log", exempt_loopback=False)
    url = server.url
    try:
        statuses = handshakes_until_refused(url, "203.0.113.9")
        assert set(statuses[:-1]) == {401} and len(statuses) > CONNECT_BURST
        # counted against 127.0.0.1, the header ignored: its own bucket is the one spent,
        # so it is refused again after no more than the tokens refilled meanwhile (a
        # believed header would have left it a whole burst)
        refused_at = time.monotonic()
        again = handshakes_until_refused(url, None)
        refilled = CONNECT_RATE * (time.monotonic() - refused_at) / 60
        assert len(again) <= refilled + 2 < CONNECT_BURST, (len(again), refilled)
    finally:
        server.stop()
    server = start_server(db, 0, tmp_path / "proxied.log", "--forwarded-allow-ips",
                          "127.0.0.1", exempt_loopback=False)  # fmt: skip
    url = server.url
    try:
        statuses = handshakes_until_refused(url, "203.0.113.9")  # the proxied client's
        assert set(statuses[:-1]) == {401} and len(statuses) > CONNECT_BURST
        assert handshake_status(url, "203.0.113.10") == 401  # another client behind the proxy
    finally:
        server.stop()


def league_with_history(db: Path, games: int) -> None:
    """A league of 6 bots and ``games`` finished games between them (stored directly)."""
    make_league(db)
    names = [f"bot{i}" for i in range(6)]
    for name in names:
        add_member(db, name)
    with LeagueStore(db) as store:
        ids = [store.members.member_named(name).id for name in names]
        for number in range(games):
            x, o = ids[number % 6], ids[(number * 5 + 1) % 6]
            if x == o:
                o = ids[(number + 1) % 6]
            game = store.games.start_game(x, o, "6x6 b - 4")
            result = ("x", "o", "draw")[number % 3]
            store.games.finish_game(game, result, "normal", "", "", (1, 1), 8, (1.0, 1.0))


def test_concurrent_first_standings_requests_share_one_computation(tmp_path: Path) -> None:
    """B9: requests that arrive together just after a start all get the standings (one
    fit, the others wait for it), none a 500."""
    db = tmp_path / "league.db"
    league_with_history(db, 300)
    with thread_server(db, house_games=False) as url, ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: request(f"{url}/api/league/standings"), range(8)))
    assert [a.status for a in answers] == [200] * 8, [a.body for a in answers]
    assert all(a.body == answers[0].body for a in answers)
    assert len(answers[0].body) == 6


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_refused_handshakes_log_one_rate_limited_info_line_and_no_error(tmp_path: Path) -> None:
    """B10/A11: 401s and 429s are logged as INFO lines naming the address and the
    reason, at most the log's burst of them at once, and uvicorn logs no ERROR
    ("ASGI callable returned without completing handshake") for any of them."""
    db = tmp_path / "league.db"
    make_league(db)
    limits = LeagueLimits(burst=5, address_burst=5, connects_per_minute=6.0)
    records = Records()
    app = create_app(db, limits=limits, house_games=False)
    with uvicorn_thread(app, "the league", **socket_options()) as url:
        # after uvicorn configured its loggers (which drops handlers added before)
        names = ("uvicorn.error", "adjacency.league.routers.socket")
        loggers = [logging.getLogger(name) for name in names]
        levels = [lg.level for lg in loggers]
        for lg in loggers:
            lg.addHandler(records)
        loggers[1].setLevel(logging.INFO)
        try:
            statuses = [handshake_status(url) for _ in range(40)]
        finally:
            for lg, level in zip(loggers, levels, strict=True):
                lg.removeHandler(records)
                lg.setLevel(level)
    assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}
    errors = [r.getMessage() for r in records.records if r.levelno >= logging.ERROR]
    assert errors == []
    lines = [r.getMessage() for r in records.records if r.name.startswith("adjacency")]
    assert 1 <= len(lines) <= limits.burst
    assert all(line.startswith("refused a bot connection from 127.0.0.1: 401 ") for line in lines)
    assert all(r.levelno == logging.INFO for r in records.records if r.name.startswith("adj"))


PUBLIC_GETS = [
    "/api/league",
    "/api/league/standings",
    "/api/league/members/bot0",
    "/api/league/pairs/bot0/bot1",
    "/api/league/live",
    "/api/league/games",
    "/api/league/games?member=bot1",
    "/api/league/games/1",
    "/api/league/games/1/record",
    "/api/league/stats",
    "/api/league/members/nobody",
]


def test_public_gets_read_the_database_off_the_event_loop(tmp_path: Path) -> None:
    """B3: every public GET reads through the store's read connection in a worker thread;
    none runs a query on the event loop's thread (where it would stall the clocks)."""
    db = tmp_path / "league.db"
    league_with_history(db, 40)
    limits = LeagueLimits(limit_loopback=False)
    app = create_app(db, limits=limits, house_games=False, tick=3600.0)
    with uvicorn_thread(app, "the league") as url:
        loop = app.state.hall._task.get_loop()

        async def loop_thread() -> int:
            return threading.get_ident()

        loop_ident = asyncio.run_coroutine_threadsafe(loop_thread(), loop).result(GUARD)
        threads: dict[str, list[int]] = {"store": [], "reader": []}
        for name in threads:
            store = getattr(app.state, name)
            original = store.database.query

            def spy(*args: Any, _seen: list[int] = threads[name], _q: Any = original) -> Any:
                _seen.append(threading.get_ident())
                return _q(*args)

            store.database.query = spy
        statuses = [request(url + path).status for path in PUBLIC_GETS]
    assert statuses == [200] * (len(PUBLIC_GETS) - 1) + [404]
    assert threads["reader"] and loop_ident not in threads["reader"]
    assert loop_ident not in threads["store"]


def test_public_gets_are_rate_limited_per_address(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    limits = LeagueLimits(address_burst=5, reads_per_minute=6.0)  # loopback limited: the default
    with thread_server(db, limits=limits, house_games=False) as url:
        answers = [request(f"{url}/api/league/standings") for _ in range(6)]
    assert [a.status for a in answers] == [200] * 5 + [429]
    assert "too many requests from 127.0.0.1" in answers[-1].body["detail"]
