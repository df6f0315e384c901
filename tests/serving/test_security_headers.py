"""B12: both apps (``adjacency play`` and the league) send the security headers on every
response: pages, API answers, static files, errors, guard refusals and a refused
WebSocket handshake, through a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from adjacency.serving.headers import CSP
from league_helpers import make_league, thread_server
from web_helpers import live_server

EXPECTED = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def answer(
    url: str,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, dict[str, str]]:
    """One raw HTTP request (any Host header): the status and the lowercased headers."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()


def assert_secured(headers: dict[str, str]) -> None:
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, (name, headers)
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "unsafe-inline" not in headers["content-security-policy"]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path / "games.db", allowed_hosts=["127.0.0.1"]) as url:
        yield url


@pytest.fixture
def league(tmp_path: Path) -> Iterator[str]:
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db, allowed_hosts=["127.0.0.1"], house_games=False) as url:
        yield url


WEB_PATHS = [
    "/",
    "/rules",
    "/docs",
    "/favicon.ico",
    "/static/style.css",
    "/static/js/main.js",
    "/api/config",
    "/api/games",
    "/openapi.json",
    "/api/games/999999",
    "/no-such-page",
]
LEAGUE_PATHS = [
    "/",
    "/play",
    "/docs",
    "/bot/nobody",
    "/favicon.ico",
    "/static/style.css",
    "/league-static/league.js",
    "/api/league",
    "/api/league/standings",
    "/api/league/games/999999",
    "/no-such-page",
]


def refusals(url: str, post: str) -> None:
    """A foreign Host (400), a cross-site POST (403) and an oversized body (413)."""
    status, headers = answer(url, "GET", "/", {"Host": "evil.example"})
    assert status == 400
    assert_secured(headers)
    status, headers = answer(
        url,
        "POST",
        post,
        {"Origin": "http://evil.example", "Content-Type": "application/json"},
        b"{}",
    )
    assert status == 403
    assert_secured(headers)
    status, headers = answer(
        url, "POST", post, {"Content-Type": "application/json"}, b"x" * 500_000
    )
    assert status == 413
    assert_secured(headers)


def test_every_answer_of_the_web_app_carries_the_security_headers(web: str) -> None:
    for path in WEB_PATHS:
        status, headers = answer(web, "GET", path)
        assert status in (200, 404), (path, status)
        assert_secured(headers)
    refusals(web, "/api/games")


def test_every_answer_of_the_league_carries_the_security_headers(league: str) -> None:
    for path in LEAGUE_PATHS:
        status, headers = answer(league, "GET", path)
        assert status in (200, 404), (path, status)
        assert_secured(headers)
    refusals(league, "/api/league/people")
    ws = league.replace("http://", "ws://") + "/api/league/connect"
    with pytest.raises(InvalidStatus) as refused, connect(ws, open_timeout=10):
        pass
    assert refused.value.response.status_code == 401
    assert_secured({k.lower(): v for k, v in refused.value.response.headers.raw_items()})
