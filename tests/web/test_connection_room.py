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
from adjacency.serving.sockets import socket_options
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import SMALL, events, uvicorn_thread

CAPS = HoldLimits(total=200, reserve=50, per_address=4, per_browser=4, newcomer=1)
ATTACKERS = 65


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(
        tmp_path / "games.sqlite3", limits=Limits(limit_loopback=True, connections=CAPS)
    )
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1", app)) as url:
        yield url


def hold_stream(url: str, game: str, address: str) -> tuple[socket.socket, int, bytes]:
    """Open ``game``'s event stream as ``address``: the socket, the answer's status, and
    what was read of it (up to the first event of a stream that was admitted)."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
    sock.sendall(
        f"GET /api/games/{game}/events HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        f"X-Forwarded-For: {address}\r\n\r\n".encode()
    )
    seen = b""
    while b"\r\n\r\n" not in seen:
        seen += sock.recv(4096)
    status = int(seen.split(b" ", 2)[1])
    while True:  # a stream: up to its first event; a refusal: all of it (it closes)
        if status == 200 and b"event:" in seen:
            break
        chunk = sock.recv(4096)
        if not chunk:
            break
        seen += chunk
    return sock, status, seen


def test_sixty_five_addresses_holding_streams_leave_room_for_a_new_visitor(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as owner:
        made = owner.post(
            "/api/games",
            json={"x": {"kind": "human"}, "o": {"kind": "human"}, **SMALL},
            headers={"X-Forwarded-For": "10.1.0.1"},
        )
        assert made.status_code == 201, made.text
        game = made.json()["id"]
    held: list[socket.socket] = []
    statuses: dict[str, list[int]] = {}
    try:
        for n in range(ATTACKERS):  # each address opens streams until it is refused
            address = f"10.2.{n // 250}.{n % 250 + 1}"
            for _ in range(CAPS.per_address + 1):
                sock, status, seen = hold_stream(server, game, address)
                statuses.setdefault(address, []).append(status)
                if status != 200:
                    sock.close()
                    assert b'"code"' in seen
                    break
                held.append(sock)
        first = statuses["10.2.0.1"]
        assert first == [200] * CAPS.per_address + [429], first  # its share, then refused
        assert all(s.count(200) <= CAPS.per_address for s in statuses.values())
        assert all(s.count(200) >= 1 for s in statuses.values()), statuses
        assert len(held) < CAPS.total  # the reserve kept room: only newcomers got it
        assert any(503 in s for s in statuses.values())  # holders were refused in it

        with httpx.Client(base_url=server, timeout=30) as newcomer:
            fresh = {"X-Forwarded-For": "10.9.9.9"}
            page = newcomer.get("/", headers=fresh)
            assert page.status_code == 200
            body = {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, **SMALL}
            started = newcomer.post("/api/games", json=body, headers=fresh)
            assert started.status_code == 201, started.text
            mine = started.json()["id"]
            with newcomer.stream("GET", f"/api/games/{mine}/events", headers=fresh) as stream:
                assert stream.status_code == 200
                kind, state = next(events(stream))
                assert kind == "state" and state["id"] == mine
            again = hold_stream(server, game, "10.2.0.1")  # the attacker is still capped
            again[0].close()
            assert again[1] == 429
    finally:
        for sock in held:
            sock.close()
