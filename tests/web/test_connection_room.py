"""Connection caps without lockout: sixty-five addresses holding every event stream they
may do not lock a new visitor out of ``adjacency play``, and one address holds no more
than its share.

Through the real server behind a trusted proxy (uvicorn believes ``X-Forwarded-For``
from 127.0.0.1, as ``adjacency play --forwarded-allow-ips`` does), so each stream names
its address; the streams are real sockets held open, each counted once its first
``state`` event arrived. The caps are scaled down (200 requests in all, 50 of them kept
for new visitors, 4 per address) so the attack fits a test."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from adjacency.serving.room import HoldLimits
from adjacency.serving.sockets import SocketLimits, socket_options
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import SMALL, events, uvicorn_thread

RESET = 0
"""The status :func:`hold_stream` gives a connection refused by a reset (the server
closed it with the request unread, before its refusal could be read)."""
CAPS = HoldLimits(total=200, reserve=50, per_address=4, per_browser=4, newcomer=1)
ATTACKERS = 65


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(
        tmp_path / "games.sqlite3", limits=Limits(limit_loopback=True, connections=CAPS)
    )
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1", app)) as url:
        yield url


def hold_stream(
    url: str, game: str, address: str, direct: bool = False
) -> tuple[socket.socket, int, bytes]:
    """Open ``game``'s event stream as ``address`` (forwarded by the proxy, or
    ``direct``: the socket's own source address, one of this machine's 127.x.y.z): the
    socket, the answer's status, and what was read of it (up to the first event of a
    stream that was admitted)."""
    parts = urlsplit(url)
    source = (address, 0) if direct else None
    sock = socket.create_connection((parts.hostname, parts.port), timeout=30, source_address=source)
    forwarded = "" if direct else f"X-Forwarded-For: {address}\r\n"
    sock.sendall(
        f"GET /api/games/{game}/events HTTP/1.1\r\nHost: {parts.netloc}\r\n{forwarded}\r\n".encode()
    )
    seen = b""
    try:
        while b"\r\n\r\n" not in seen:
            chunk = sock.recv(4096)
            if not chunk:
                return sock, RESET, seen
            seen += chunk
        status = int(seen.split(b" ", 2)[1])
        while True:  # a stream: up to its first event; a refusal: all of it (it closes)
            if status == 200 and b"event:" in seen:
                break
            chunk = sock.recv(4096)
            if not chunk:
                break
            seen += chunk
    except ConnectionResetError:  # refused before the request was read: it was in the
        return sock, RESET, seen  # server's buffer as it closed
    return sock, status, seen


def attack(
    url: str, game: str, addresses: list[str], share: int, held: list[socket.socket], direct: bool
) -> dict[str, list[int]]:
    """Each address opens ``game``'s stream until refused (at most ``share`` + 1 tries),
    the admitted ones kept in ``held``: the statuses each address got, in order."""
    statuses: dict[str, list[int]] = {}
    for address in addresses:
        for _ in range(share + 1):
            sock, status, seen = hold_stream(url, game, address, direct)
            statuses.setdefault(address, []).append(status)
            if status != 200:
                sock.close()
                assert status == RESET or b'"code"' in seen
                break
            held.append(sock)
    return statuses


def a_game(url: str, headers: dict[str, str]) -> str:
    """A new game between two people (the streams the attack holds are its)."""
    with httpx.Client(base_url=url, timeout=30, headers=headers) as owner:
        body = {"x": {"kind": "human"}, "o": {"kind": "human"}, **SMALL}
        made = owner.post("/api/games", json=body)
        assert made.status_code == 201, made.text
        return str(made.json()["id"])


def plays(newcomer: httpx.Client) -> None:
    """A new visitor loads the page, starts a game with a bot and gets its stream."""
    assert newcomer.get("/").status_code == 200
    body = {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, **SMALL}
    started = newcomer.post("/api/games", json=body)
    assert started.status_code == 201, started.text
    mine = started.json()["id"]
    with newcomer.stream("GET", f"/api/games/{mine}/events") as stream:
        assert stream.status_code == 200
        kind, state = next(events(stream))
        assert kind == "state" and state["id"] == mine


def kept_room(statuses: dict[str, list[int]], share: int) -> None:
    """Every address got at most its share and at least one stream, and those refused
    before their share were refused for the reserve (kept for newcomers)."""
    assert all(1 <= s.count(200) <= share for s in statuses.values()), statuses
    early = [s for s in statuses.values() if s.count(200) < share]
    assert early and all(s[-1] in (503, RESET) for s in early)


def test_sixty_five_addresses_holding_streams_leave_room_for_a_new_visitor(server: str) -> None:
    game = a_game(server, {"X-Forwarded-For": "10.1.0.1"})
    held: list[socket.socket] = []
    try:
        addresses = [f"10.2.0.{n + 1}" for n in range(ATTACKERS)]
        statuses = attack(server, game, addresses, CAPS.per_address, held, direct=False)
        first = statuses["10.2.0.1"]
        assert first == [200] * CAPS.per_address + [429], first  # its share, then refused
        assert len(held) < CAPS.total  # the reserve kept room: only newcomers got it
        kept_room(statuses, CAPS.per_address)

        fresh = {"X-Forwarded-For": "10.9.9.9"}
        with httpx.Client(base_url=server, timeout=30, headers=fresh) as newcomer:
            plays(newcomer)
            again = hold_stream(server, game, "10.2.0.1")  # the attacker is still capped
            again[0].close()
            assert again[1] == 429
    finally:
        for sock in held:
            sock.close()


TOTAL = 200
SOCKETS = SocketLimits(total=TOTAL, reserve=50, per_address=4, newcomer=1)
"""The socket guard's caps scaled down as :data:`CAPS` are."""


def test_sixty_five_addresses_holding_sockets_leave_room_for_a_new_visitor(
    tmp_path: Path,
) -> None:
    """The same attack without a proxy: each address is a socket's own (127.0.1.N, this
    machine's loopback network), and the socket guard keeps the last places for
    addresses holding none yet (``adjacency play``'s :data:`~.server.PLAY_SOCKETS`)."""
    app = create_app(tmp_path / "games.sqlite3")
    with uvicorn_thread(app, **socket_options(SOCKETS, None, app)) as url:
        game = a_game(url, {})
        held: list[socket.socket] = []
        try:
            addresses = [f"127.0.1.{n + 1}" for n in range(ATTACKERS)]
            statuses = attack(url, game, addresses, SOCKETS.per_address, held, direct=True)
            first = statuses["127.0.1.1"]
            assert first[:-1] == [200] * SOCKETS.per_address and first[-1] in (429, RESET)
            assert len(held) < TOTAL
            kept_room(statuses, SOCKETS.per_address)

            transport = httpx.HTTPTransport(local_address="127.0.2.1")
            with httpx.Client(base_url=url, timeout=30, transport=transport) as newcomer:
                plays(newcomer)
        finally:
            for sock in held:
                sock.close()
