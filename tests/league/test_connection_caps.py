"""The server's caps on open connections (serving/sockets.py), with raw sockets and real
WebSockets against the league app under a real uvicorn server configured as ``league
serve`` configures it:

* a class behind one address (thirty bots connected and thirty browsers holding six
  keep-alive connections each) is served whole under the default caps;
* the global cap holds across addresses (here 127.0.0.1, .2 and .3: Linux answers every
  127/8 address on the loopback), a refused connection is closed before any byte is
  read and logged, and a freed place can be taken again.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from websockets.sync.client import connect

from adjacency.league.app import create_app
from adjacency.league.limits import LeagueLimits
from adjacency.league.paths import CONNECT_PATH
from adjacency.serving.sockets import SocketLimits, socket_options
from league_helpers import add_member, make_league
from web_helpers import uvicorn_thread

GUARD = 30.0
"""Seconds any wait may take before the test fails (a guard against hangs only)."""
TEAMS = 30
WATCHERS = 30
BROWSER_CONNECTIONS = 6
"""Connections a browser opens to one host at most (HTTP/1.1)."""


@contextmanager
def league_server(db: Path, limits: SocketLimits) -> Iterator[tuple[str, int]]:
    """The league app (rates off for this machine: the caps are what is tested) under
    uvicorn with ``limits``; its host and port."""
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), house_games=False)
    with uvicorn_thread(app, "the league server", **socket_options(limits)) as url:
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def get(sock: socket.socket, path: str = "/api/league") -> bytes:
    """One keep-alive GET on an open socket; the status line of the answer ("" when the
    server closed the socket instead)."""
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        sock.settimeout(GUARD)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return b""
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        while len(body) < length:  # the whole answer: the next one starts clean
            chunk = sock.recv(65536)
            if not chunk:
                return b""
            body += chunk
    except (BrokenPipeError, ConnectionResetError):
        return b""
    return head.split(b"\r\n", 1)[0]


def from_address(address: tuple[str, int], source: str) -> socket.socket:
    return socket.create_connection(address, timeout=GUARD, source_address=(source, 0))


def test_a_class_behind_one_address_is_served_whole_under_the_default_caps(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    tokens = [add_member(db, f"team{n:02d}") for n in range(TEAMS)]
    with (
        league_server(db, SocketLimits(header_timeout=GUARD)) as (host, port),
        ExitStack() as stack,
    ):
        bots = [
            stack.enter_context(
                connect(
                    f"ws://{host}:{port}{CONNECT_PATH}",
                    additional_headers={"Authorization": f"Bearer {token}"},
                    open_timeout=GUARD,
                )
            )
            for token in tokens
        ]
        browsers = [
            stack.enter_context(socket.create_connection((host, port), timeout=GUARD))
            for _ in range(WATCHERS * BROWSER_CONNECTIONS)
        ]
        statuses = {get(sock) for sock in browsers}
        welcomes = [bot.recv(timeout=GUARD) for bot in bots]
    assert statuses == {b"HTTP/1.1 200 OK"}
    assert all('"welcome"' in str(w) for w in welcomes)


def test_the_global_cap_holds_across_addresses_and_frees_places(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    limits = SocketLimits(header_timeout=GUARD, per_address=3, total=5)
    caplog.set_level(logging.INFO, logger="adjacency.serving.sockets")
    with league_server(db, limits) as address, ExitStack() as stack:
        held = [stack.enter_context(from_address(address, "127.0.0.1")) for _ in range(3)]
        held += [stack.enter_context(from_address(address, "127.0.0.2")) for _ in range(2)]
        assert {get(sock) for sock in held} == {b"HTTP/1.1 200 OK"}
        for source in ("127.0.0.2", "127.0.0.3"):  # each under its own cap: the total is full
            with from_address(address, source) as extra:
                assert get(extra) == b""
        assert {get(sock) for sock in held} == {b"HTTP/1.1 200 OK"}  # the five go on
        held[0].close()
        deadline = time.monotonic() + GUARD
        while True:  # the freed place is taken by another address
            with from_address(address, "127.0.0.3") as again:
                if get(again) == b"HTTP/1.1 200 OK":
                    break
            assert time.monotonic() < deadline, "the closed connection's place was not freed"
    lines = [r.getMessage() for r in caplog.records if r.name == "adjacency.serving.sockets"]
    assert lines and "5 connections open in all (the server's cap)" in lines[0]
