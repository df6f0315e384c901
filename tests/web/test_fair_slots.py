"""Fair slots: one visitor, however many addresses it uses, and one address, however
many browsers it makes, hold at most a share of the server's bot-game slots (2 of 8 by
default) and analysis slots (1 of 2), so a second visitor's game starts at once.

Through the real server behind a trusted proxy (uvicorn believes ``X-Forwarded-For``
from 127.0.0.1, as ``adjacency play --forwarded-allow-ips`` does), so each request
names its visitor's address; the bots think until stopped (no CPU spent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from adjacency.core import Position
from adjacency.serving.sockets import socket_options
from adjacency.web import turns as turns_module
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import SMALL, PatientBot, uvicorn_thread, wait_until

BOTS = {"x": {"kind": "bot", "level": 1}, "o": {"kind": "bot", "level": 1}, "time": 60.0}
"""A bot-vs-bot game whose bots hold their slot (each thinks until stopped)."""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    PatientBot.instances.clear()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    app = create_app(tmp_path / "games.sqlite3", limits=Limits(limit_loopback=True))
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1")) as url:
        yield url


class Visitor:
    """A browser (its own signed cookie, kept across addresses) sending from ``address``."""

    def __init__(self, server: str) -> None:
        self.http = httpx.Client(base_url=server, timeout=30)
        self.http.get("/api/games")  # the server issues its cookie

    def create(self, address: str) -> httpx.Response:
        headers = {"X-Forwarded-For": address}
        return self.http.post("/api/games", json={**BOTS, **SMALL}, headers=headers)

    def analyse(self, address: str) -> httpx.Response:
        fen = quote(Position.start(8, 8, 28).fen())  # a long search: it runs until closed
        request = self.http.build_request(
            "GET", f"/api/analysis/live?fen={fen}", headers={"X-Forwarded-For": address}
        )
        return self.http.send(request, stream=True)


def test_one_visitor_or_address_holds_two_of_eight_bot_slots_and_a_second_starts_at_once(
    server: str,
) -> None:
    ann, bob, ann_again = Visitor(server), Visitor(server), Visitor(server)
    first = [ann.create("10.0.0.1") for _ in range(2)]
    assert [r.status_code for r in first] == [201, 201]
    refused = ann.create("10.0.0.1")
    assert refused.status_code == 429 and "your address" in refused.json()["detail"]
    for address in ("10.0.0.2", "10.0.0.3", "10.0.0.4"):  # the same browser elsewhere
        refused = ann.create(address)
        assert refused.status_code == 429 and "your browser" in refused.json()["detail"]
    refused = ann_again.create("10.0.0.1")  # a fresh cookie on the same address
    assert refused.status_code == 429 and "your address" in refused.json()["detail"]
    started = bob.create("10.0.0.9")  # the second visitor is not kept waiting
    assert started.status_code == 201
    game = started.json()["id"]
    wait_until(
        lambda: bob.http.get(f"/api/games/{game}").json()["thinking"] is not None,
        what="the second visitor's bot to think",
    )
    ann.http.delete(f"/api/games/{first[0].json()['id']}")  # a slot of Ann's share frees
    assert ann.create("10.0.0.2").status_code == 201


def test_one_visitor_on_two_addresses_holds_one_analysis_slot(server: str) -> None:
    ann, bob = Visitor(server), Visitor(server)
    held = ann.analyse("10.0.0.1")
    try:
        assert held.status_code == 200
        elsewhere = ann.analyse("10.0.0.2")  # the same browser from another address
        elsewhere.read()
        assert elsewhere.status_code == 429 and "your browser" in elsewhere.json()["detail"]
        other = bob.analyse("10.0.0.9")  # the server's second slot is another visitor's
        try:
            assert other.status_code == 200
        finally:
            other.close()
    finally:
        held.close()
