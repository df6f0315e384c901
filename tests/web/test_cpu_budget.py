"""The CPU budget and fair queue of the engine's work, through the real server.

Every search (a bot's move, an analysis, a hint, a lab search) waits for one of the
server's engine cores (here 1) and is charged to its browser and its address in
the CPU seconds it used over a window. A visitor flooding the queue with analyses waits behind
another visitor's bot move; a browser over its budget is refused new analyses with a
clear 429 while another browser of the same address (a school) still is served, until
the address's larger budget is used too.

Behind a trusted proxy (uvicorn believes ``X-Forwarded-For`` from 127.0.0.1, as
``adjacency play --forwarded-allow-ips`` does), so each request names its address. The
analyses run until their stream closes (half of the time on the CPU, so they are
charged) and the bot answers at once; the asserts are on the queue's grants and
refusals, never on wall time.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI

from adjacency.bots import Bot, Search
from adjacency.core import Position
from adjacency.lab.review import Emit, Stopper
from adjacency.serving.cpu_budget import CpuBudget
from adjacency.serving.sockets import socket_options
from adjacency.web import turns as turns_module
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.routers import analysis as analysis_router
from web_helpers import SMALL, uvicorn_thread, wait_until

FEN = quote(Position.start(8, 8, 28).fen())


class QuickBot(Bot):
    """Answers its first legal move at once."""

    def __init__(self) -> None:
        super().__init__()
        self.spec = "quick"

    def _choose(self, position: Position, search: Search) -> str:
        return position.legal_moves()[0]


def endless(position: Position, emit: Emit, stopper: Stopper, budget: float) -> None:
    """An analysis that holds its core until its page closes the stream, running half
    the time (5 ms of its thread's CPU, then a 5 ms wait): it is charged what it ran."""
    emit("lines", {"depth": 0})
    while not stopper.stopped:
        end = time.thread_time() + 0.005
        while time.thread_time() < end:
            pass
        stopper.event.wait(0.005)


@contextmanager
def serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **limits: Any) -> Iterator[FastAPI]:
    """The web app with ``limits`` (1 engine core, room for many analyses) in a real
    server believing ``X-Forwarded-For`` from this machine (its URL on ``state.url``)."""
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: QuickBot())
    monkeypatch.setattr(analysis_router, "analyse", endless)
    options = dict(limit_loopback=True, engine_cores=1, analyses=8, analyses_per_client=4)
    app = create_app(tmp_path / "games.sqlite3", limits=Limits(**{**options, **limits}))
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1")) as url:
        app.state.url = url
        yield app


class Visitor:
    """A browser (its own signed cookie) sending from ``address``."""

    def __init__(self, url: str, address: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30, headers={"X-Forwarded-For": address})
        self.http.get("/api/games")  # the server issues its cookie
        self.streams: list[httpx.Response] = []

    def analyse(self) -> httpx.Response:
        request = self.http.build_request("GET", f"/api/analysis/live?fen={FEN}")
        response = self.http.send(request, stream=True)
        if response.status_code == 200:
            self.streams.append(response)
        else:
            response.read()
        return response

    def close(self) -> None:
        for stream in self.streams:
            stream.close()
        self.http.close()


def test_a_visitor_flooding_analyses_waits_behind_another_visitors_bot_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(tmp_path, monkeypatch, cpu_per_browser=600.0, cpu_per_address=600.0) as app:
        engine: CpuBudget = app.state.engine
        ann, bob = Visitor(app.state.url, "10.0.0.1"), Visitor(app.state.url, "10.0.0.2")
        try:
            first = ann.analyse()
            assert first.status_code == 200
            wait_until(lambda: engine.busy() == 1, what="Ann's first analysis to take the core")
            assert [ann.analyse().status_code for _ in range(3)] == [200, 200, 200]
            wait_until(lambda: engine.queued() == ["analysis"] * 3, what="Ann's flood to queue")
            body = {"x": {"kind": "bot", "level": 1}, "o": {"kind": "human"}, **SMALL}
            created = bob.http.post("/api/games", json=body)
            assert created.status_code == 201
            game = created.json()["id"]
            wait_until(lambda: f"bot {game}" in engine.queued(), what="Bob's bot to queue")
            assert engine.queued() == ["analysis"] * 3 + [f"bot {game}"]  # it came last

            first.close()  # Ann's first analysis ends: its core goes to Bob's bot first
            wait_until(
                lambda: len(bob.http.get(f"/api/games/{game}").json()["moves"]) == 1,
                what="Bob's bot to move",
            )
            grants = [label for label, _ in engine.granted]
            assert grants[:3] == ["analysis", f"bot {game}", "analysis"]
        finally:
            ann.close()
            bob.close()


def test_a_browser_over_its_budget_is_refused_and_its_school_is_served_until_the_address_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(
        tmp_path, monkeypatch, analyses_per_client=1, cpu_per_browser=0.3, cpu_per_address=0.8
    ) as app:
        engine: CpuBudget = app.state.engine
        url = app.state.url

        def used_up(who: Visitor) -> str | None:
            """The client named by a budget refusal of ``who``'s next analysis, if any."""
            response = who.analyse()
            if response.status_code != 429 or response.json()["code"] != "cpu_budget":
                return None
            detail = response.json()["detail"]
            assert "CPU seconds" in detail, detail
            return "address" if "your address" in detail else "browser"

        refusals: list[str] = []
        while True:  # pupils of one school (one address), one after another
            pupil = Visitor(url, "10.0.0.1")
            try:
                first = pupil.analyse()
                if first.status_code == 429:
                    assert first.json()["code"] == "cpu_budget"
                    assert "your address" in first.json()["detail"]
                    break
                assert first.status_code == 200  # charged while it holds the core
                refusals.append(wait_until(partial(used_up, pupil), what="a budget to be used"))
            finally:
                pupil.close()
            wait_until(lambda: engine.busy() == 0, what="the pupil's analysis to end")
            assert len(refusals) < 8
        assert refusals[0] == "browser"  # the first pupil used its own budget only,
        assert len(refusals) >= 2  # so a classmate was served after it
        assert engine.usage("address 10.0.0.1") >= 0.8
        elsewhere = Visitor(url, "10.0.0.9")
        try:
            assert elsewhere.analyse().status_code == 200  # another address is served
        finally:
            elsewhere.close()


def test_a_visitor_over_its_budget_moves_its_bot_only_when_no_one_else_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(tmp_path, monkeypatch, cpu_per_browser=0.2, cpu_per_address=0.2) as app:
        engine: CpuBudget = app.state.engine
        ann, bob = Visitor(app.state.url, "10.0.0.1"), Visitor(app.state.url, "10.0.0.2")
        try:
            body = {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, **SMALL}
            created = ann.http.post("/api/games", json=body)  # made while within her budget
            assert created.status_code == 201
            game = created.json()["id"]
            first = ann.analyse()
            assert first.status_code == 200
            wait_until(lambda: engine.usage("address 10.0.0.1") >= 0.2, what="Ann's budget")
            refused = ann.http.post("/api/games", json=body)  # no new game with bots now
            assert refused.status_code == 429 and refused.json()["code"] == "cpu_budget"
            moved = ann.http.post(f"/api/games/{game}/moves", json={"square": "c1"})
            assert moved.status_code == 200, moved.text  # her bot's turn: it is not refused
            wait_until(lambda: engine.queued() == [f"bot {game}"], what="Ann's bot to queue")
            assert bob.analyse().status_code == 200  # queued after Ann's bot
            wait_until(lambda: len(engine.queued()) == 2, what="Bob's analysis to queue")

            first.close()  # the core goes to Bob, within his budget, before Ann's bot
            wait_until(lambda: engine.queued() == [f"bot {game}"], what="Bob's analysis")
            assert [label for label, _ in engine.granted] == ["analysis", "analysis"]
            for stream in bob.streams:
                stream.close()  # no one else waits: Ann's bot moves, over budget as she is
            wait_until(
                lambda: len(ann.http.get(f"/api/games/{game}").json()["moves"]) == 2,
                what="Ann's bot to move",
            )
            assert [label for label, _ in engine.granted][2] == f"bot {game}"
        finally:
            ann.close()
            bob.close()
