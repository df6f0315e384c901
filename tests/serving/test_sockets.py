"""B4: sockets that never say what they want are closed, and one address cannot hold
more than its share (serving/sockets.py), with raw sockets against the league app under
a real uvicorn server on 127.0.0.1 configured as ``league serve`` configures it, with
small deadlines so the tests are quick."""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from adjacency.league.http.app import create_app
from adjacency.serving.sockets import SocketLimits, socket_options
from league_helpers import make_league
from web_helpers import uvicorn_thread

GUARD = 30.0
"""Seconds any wait may take before the test fails (a guard against hangs only)."""


@contextmanager
def league_server(tmp_path: Path, limits: SocketLimits) -> Iterator[tuple[str, int]]:
    db = tmp_path / "league.db"
    make_league(db)
    app = create_app(db, house_games=False)
    with uvicorn_thread(app, "the league server", **socket_options(limits)) as url:
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def closed_by_server(sock: socket.socket, dribble: bytes = b"") -> bool:
    """Whether the server closes ``sock`` (EOF or reset) while we send ``dribble`` a byte
    at a time, then nothing; ``False`` if it is still open after :data:`GUARD` seconds."""
    deadline = time.monotonic() + GUARD
    pending = list(dribble)
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], 0.05)
        if readable:
            try:
                data = sock.recv(4096)
            except ConnectionResetError:
                return True
            if not data:
                return True
            continue  # an answer (not expected here): keep reading until the close
        if pending:
            try:
                sock.sendall(bytes([pending.pop(0)]))
            except (BrokenPipeError, ConnectionResetError):
                return True
    return False


def get(sock: socket.socket, path: str = "/api/league") -> bytes:
    """One keep-alive GET on an open socket; the status line of the answer."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    sock.settimeout(GUARD)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "closed before answering"
        data += chunk
    return data.split(b"\r\n", 1)[0]


QUICK = SocketLimits(header_timeout=0.5, handshake_timeout=0.5, per_address=64)


def test_an_idle_connection_is_closed(tmp_path: Path) -> None:
    with league_server(tmp_path, QUICK) as address, socket.create_connection(address) as sock:
        assert closed_by_server(sock)


def test_headers_sent_a_byte_at_a_time_are_cut_off(tmp_path: Path) -> None:
    slow = b"GET /api/league HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Padding: " + b"a" * 400
    with league_server(tmp_path, QUICK) as address, socket.create_connection(address) as sock:
        assert closed_by_server(sock, slow)
        # and after a complete request, a slow second one is cut off too (keep-alive)
        with socket.create_connection(address) as again:
            assert get(again).endswith(b"200 OK")
            assert closed_by_server(again, slow)


def test_a_half_sent_websocket_upgrade_is_closed(tmp_path: Path) -> None:
    half = (
        b"GET /api/league/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    )
    with league_server(tmp_path, QUICK) as address, socket.create_connection(address) as sock:
        sock.sendall(half)
        assert closed_by_server(sock)


def test_an_upgrade_the_application_never_answers_is_closed() -> None:
    """The handshake deadline: an app that neither accepts nor refuses a WebSocket."""
    entered = threading.Event()

    async def hanging(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        entered.set()
        await receive()  # the connect message; then say nothing until the client is gone
        while (await receive())["type"] != "websocket.disconnect":
            pass

    upgrade = (
        b"GET /hang HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    with uvicorn_thread(hanging, "a hanging app", **socket_options(QUICK)) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as sock:
            sock.sendall(upgrade)
            assert closed_by_server(sock)
    assert entered.is_set()


def test_one_address_holds_at_most_its_share_of_connections(tmp_path: Path) -> None:
    limits = SocketLimits(header_timeout=GUARD, per_address=3)
    with league_server(tmp_path, limits) as address, ExitStack() as stack:
        held = [stack.enter_context(socket.create_connection(address)) for _ in range(3)]
        for sock in held:
            assert get(sock).endswith(b"200 OK")
        with socket.create_connection(address) as extra:
            assert closed_by_server(extra)
        for sock in held:  # the first three are still served
            assert get(sock).endswith(b"200 OK")
        held[0].close()
        deadline = time.monotonic() + GUARD
        while True:  # a freed place can be taken again
            with socket.create_connection(address) as again:
                try:
                    if get(again).endswith(b"200 OK"):
                        break
                except (AssertionError, ConnectionResetError):
                    pass
            assert time.monotonic() < deadline, "the closed connection's place was not freed"
