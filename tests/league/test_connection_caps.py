"""The server's caps on open connections (serving/sockets.py), with raw sockets and real
WebSockets against the league app under a real uvicorn server configured as ``league
serve`` configures it:

* a class behind one address (thirty bots connected and thirty browsers holding six
  keep-alive connections each) is served whole under the default caps;
* the global cap holds across addresses (here 127.0.0.1, .2 and .3: Linux answers every
  127/8 address on the loopback), a refused connection is answered a clear 503 before
  any byte is read, closed and logged, and a freed place can be taken again;
* the last places are kept for the teacher and the bots with games: with many clients
  of one address holding or churning connections, an anonymous request is a 503 that
  closes its connection, a socket opened then that says nothing is closed within the
  shorter deadline, the teacher's overview and a bot coming back to its game are
  served, a bot without games is refused, and the connections never pass the cap
  (sized below the open-file limit).
"""

from __future__ import annotations

import logging
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from adjacency.client.wire import CONNECT_PATH
from adjacency.league.http.app import create_app
from adjacency.league.http.limits import LeagueLimits
from adjacency.serving.sockets import (
    ACCEPT_BURST,
    RESERVED_FILES,
    SocketLimits,
    socket_options,
)
from league_helpers import ADMIN, add_member, env, make_league, wait_until
from net_helpers import announced_port
from web_helpers import uvicorn_thread

GUARD = 30.0
"""Seconds any wait may take before the test fails (a guard against hangs only)."""
TEAMS = 30
WATCHERS = 30
BROWSER_CONNECTIONS = 6
"""Connections a browser opens to one host at most (HTTP/1.1)."""


@contextmanager
def league_app(db: Path, limits: SocketLimits) -> Iterator[tuple[FastAPI, str, int]]:
    """The league app (rates off for this machine: the caps are what is tested) under
    uvicorn with ``limits`` (the app knowing its guard, as ``league serve`` makes it);
    the app, its host and port."""
    app = create_app(db, limits=LeagueLimits(limit_loopback=False), house_games=False)
    with uvicorn_thread(app, "the league server", **socket_options(limits, app=app)) as url:
        host, port = url.removeprefix("http://").split(":")
        yield app, host, int(port)


@contextmanager
def league_server(db: Path, limits: SocketLimits) -> Iterator[tuple[str, int]]:
    """:func:`league_app`'s host and port."""
    with league_app(db, limits) as (_, host, port):
        yield host, port


def get(sock: socket.socket, path: str = "/api/league", token: str | None = None) -> bytes:
    """One keep-alive GET on an open socket (with ``token`` as its bearer); the status
    line of the answer ("" when the server closed the socket instead)."""
    return answer(sock, path, token)[0]


def answer(sock: socket.socket, path: str, token: str | None = None) -> tuple[bytes, bytes]:
    """:func:`get`'s status line and the answer's body (both "" when the socket closed)."""
    auth = "" if token is None else f"Authorization: Bearer {token}\r\n"
    try:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}\r\n".encode())
        sock.settimeout(GUARD)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return b"", b""
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
                return b"", b""
            body += chunk
    except (BrokenPipeError, ConnectionResetError):
        return b"", b""
    return head.split(b"\r\n", 1)[0], body


def closed(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (its end read, or reset: the request it did not
    read was still in its buffer)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def holding(**caps: int) -> SocketLimits:
    """Limits with ``caps`` under which the test's idle keep-alive sockets hold their
    places until it closes them: neither the header deadline nor the keep-alive (uvicorn's
    5 s by default, shorter than a loaded machine takes over the test's steps) ends
    them first."""
    return SocketLimits(header_timeout=GUARD, keep_alive=int(GUARD), **caps)


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
    limits = holding(per_address=3, total=5)
    caplog.set_level(logging.INFO, logger="adjacency.serving.sockets")
    with league_server(db, limits) as address, ExitStack() as stack:
        held = [stack.enter_context(from_address(address, "127.0.0.1")) for _ in range(3)]
        held += [stack.enter_context(from_address(address, "127.0.0.2")) for _ in range(2)]
        assert {get(sock) for sock in held} == {b"HTTP/1.1 200 OK"}
        for source in ("127.0.0.2", "127.0.0.3"):  # each under its own cap: the total is full
            with from_address(address, source) as extra:
                status, body = answer(extra, "/api/league")
                assert status == b"HTTP/1.1 503 Service Unavailable"  # said, then closed
                assert b"as many as it may" in body
                assert closed(extra)
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


def test_the_last_places_are_kept_for_the_teacher_and_bots_with_games(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=600.0)  # the game in play outlasts the test
    playing = [add_member(db, name) for name in ("alpha", "beta")]
    idle = add_member(db, "gamma")
    total, reserve = 40, 10
    limits = holding(total=total, reserve=reserve)
    with league_app(db, limits) as (app, host, port), ExitStack() as stack:
        guard = app.state.connections
        url = f"ws://{host}:{port}{CONNECT_PATH}"

        def bot(token: str) -> Any:
            return connect(
                url, additional_headers={"Authorization": f"Bearer {token}"}, open_timeout=GUARD
            )

        stack.enter_context(bot(playing[1]))
        with bot(playing[0]) as alpha:
            seen: list[str] = []
            while not any('"game_start"' in m for m in seen):  # the ladder pairs the two
                seen.append(str(alpha.recv(timeout=GUARD)))
        # alpha left: its game goes on while it is away

        # one address (a class) holds connections up to the reserve
        crowd = [stack.enter_context(from_address((host, port), "127.0.0.1"))]
        while guard.count < total - reserve:
            crowd.append(stack.enter_context(from_address((host, port), "127.0.0.1")))
            assert get(crowd[-1]) == b"HTTP/1.1 200 OK"
        with from_address((host, port), "127.0.0.1") as one_more:
            status, body = answer(one_more, "/api/league")
            assert status == b"HTTP/1.1 503 Service Unavailable", status
            assert b"kept for the teacher" in body
            assert closed(one_more)  # its place is freed at once
        silent = [from_address((host, port), "127.0.0.1") for _ in range(reserve)]
        for sock in silent:  # sockets that say nothing do not sit in the reserve
            wait_until(partial(closed, sock), timeout=GUARD / 2, what="a silent socket's end")
            sock.close()
        with from_address((host, port), "127.0.0.1") as teacher:
            assert get(teacher, "/teacher") == b"HTTP/1.1 200 OK"
            assert get(teacher, "/api/league/admin/overview", ADMIN) == b"HTTP/1.1 200 OK"
        with bot(playing[0]) as back:  # alpha comes back to its game
            assert '"welcome"' in str(back.recv(timeout=GUARD))
        with pytest.raises(InvalidStatus) as refused:
            bot(idle).close()
        assert refused.value.response.status_code == 503

        churned = 0
        for _ in range(200):  # reconnect churn: never past the cap, the server answers
            with from_address((host, port), "127.0.0.1") as sock:
                status = get(sock)
            assert status in (b"HTTP/1.1 503 Service Unavailable", b"")
            assert guard.count <= total
            churned += 1
        assert churned == 200
        for sock in crowd[-reserve:]:
            sock.close()
            crowd.remove(sock)
        wait_until(lambda: not guard.pressed(), what="the crowd's places to be freed")
        with from_address((host, port), "127.0.0.2") as later:
            assert get(later) == b"HTTP/1.1 200 OK"  # served again once places are free


def test_the_default_cap_stays_below_the_open_file_limit(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with league_app(db, SocketLimits()) as (app, _, _):
        guard = app.state.connections
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert guard.total <= soft - RESERVED_FILES - ACCEPT_BURST
        assert 0 < guard.reserve < guard.total


FILES = 256
"""The open-file limit (soft and hard) of the server process of the test below."""


def test_a_crowd_under_a_low_file_limit_is_refused_clearly_and_never_reaches_it(
    tmp_path: Path,
) -> None:
    """``adjacency league serve`` with 256 open files at most (hard limit too, so it
    cannot raise it): 300 connections from one address at once. The server accepts what
    its cap allows (the limit less the files it keeps for itself), answers every other
    one a 503 that says why before closing it, never holds more descriptors than the
    limit nor logs a failure to open one, and serves again once the crowd is gone."""
    db = tmp_path / "league.db"
    make_league(db)
    log = tmp_path / "server.log"
    with log.open("ab") as handle:
        server = subprocess.Popen(
            [sys.executable, "-m", "adjacency", "league", "serve", "--db", str(db),
             "--port", "0", "--pace", "0", "--exempt-loopback"],
            stdout=handle, stderr=subprocess.STDOUT, env=env(), start_new_session=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES)),
        )  # fmt: skip
    try:
        wait_until(
            lambda: "ready at" in log.read_text() or server.poll() is not None,
            what="the server to start",
        )
        assert server.poll() is None, log.read_text()
        port = announced_port(log.read_text())
        fds = Path(f"/proc/{server.pid}/fd")
        with ExitStack() as stack:
            crowd = [
                stack.enter_context(from_address(("127.0.0.1", port), "127.0.0.1"))
                for _ in range(300)
            ]
            assert len(list(fds.iterdir())) < FILES
            # every socket ends: refused at once (a 503 saying why), or accepted and
            # closed when it sent no request (its header deadline: 10 s, 1 s once the
            # server is near its cap)
            answers: list[bytes] = []
            waiting = set(crowd)
            while waiting:
                ready, _, _ = select.select(list(waiting), [], [], GUARD)
                assert ready, "a socket neither refused nor closed"
                answers += [sock.recv(65536) for sock in ready]
                waiting -= set(ready)
            refused = [data for data in answers if data]
            silent = len(answers) - len(refused)
            assert refused and silent  # some were accepted, the rest refused clearly
            for data in refused:
                assert data.startswith(b"HTTP/1.1 503 Service Unavailable"), data
                assert b"too_many_connections" in data
        text = log.read_text()
        assert "Too many open files" not in text and "Traceback" not in text, text

        def served() -> bool:
            with from_address(("127.0.0.1", port), "127.0.0.2") as sock:
                return get(sock) == b"HTTP/1.1 200 OK"

        wait_until(served, what="the server to serve again")
    finally:
        server.terminate()
        server.wait(30)


def test_a_team_holding_its_address_s_places_keeps_no_other_team_out(tmp_path: Path) -> None:
    """One team behind the class's address holds every place of it (keep-alive
    connections asking for a stylesheet, as in a forfeit bought with connections):
    beyond the address's cap, a request with no token is a 429 that closes its
    connection, but the other team's bot (its token on its socket) connects, is
    paired and plays its game; the attacker's own token gets no more than its share of
    the places beyond the cap."""
    db = tmp_path / "league.db"
    make_league(db, base=600.0)
    attacker, victim, other = (add_member(db, name) for name in ("mallory", "alice", "bob"))
    limits = holding(per_address=8, tokened=16, per_token=2)
    with league_app(db, limits) as (app, host, port), ExitStack() as stack:
        guard = app.state.connections
        held = [stack.enter_context(from_address((host, port), "127.0.0.1")) for _ in range(8)]
        assert {get(sock, "/league-static/league.css") for sock in held} == {b"HTTP/1.1 200 OK"}
        with from_address((host, port), "127.0.0.1") as anonymous:  # beyond: no token
            status, body = answer(anonymous, "/league-static/league.css")
            assert status == b"HTTP/1.1 429 Too Many Requests", status
            assert b"token" in body and closed(anonymous)
        mine = [stack.enter_context(from_address((host, port), "127.0.0.1")) for _ in range(3)]
        assert [get(sock, "/api/league", attacker) for sock in mine[:2]] == [b"HTTP/1.1 200 OK"] * 2
        assert get(mine[2], "/api/league", attacker) == b"HTTP/1.1 429 Too Many Requests"
        url = f"ws://{host}:{port}{CONNECT_PATH}"
        seen: list[str] = []
        headers = {"Authorization": f"Bearer {other}"}
        stack.enter_context(connect(url, additional_headers=headers, open_timeout=GUARD))
        headers = {"Authorization": f"Bearer {victim}"}
        with connect(url, additional_headers=headers, open_timeout=GUARD) as alice:
            while not any('"game_start"' in m for m in seen):  # paired and playing
                seen.append(str(alice.recv(timeout=GUARD)))
        assert '"welcome"' in seen[0]
        assert guard.open["127.0.0.1"] == 8  # the address's own cap never grew
