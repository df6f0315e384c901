"""Creating a game with bots is checked against the visitor's budgets: a visitor who
holds its share of the bots' search tables, or used its CPU budget, is refused at once
with a code a page translates (``table_budget``, ``cpu_budget``), while a second
visitor's bot game starts and its bot moves at once.

Through the real server behind a trusted proxy (uvicorn believes ``X-Forwarded-For``
from 127.0.0.1, as ``adjacency play --forwarded-allow-ips`` does), with real engine
bots; the budgets are scaled down (64 MB of tables, 32 per client; 0.05 CPU seconds a
visitor) so that one small game reaches them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adjacency.serving.cpu_budget import CpuBudget
from adjacency.serving.sockets import socket_options
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import uvicorn_thread, wait_until

ENGINE = "engine:time=0.3,tt=32,book=off"
"""A real engine holding 32 MB of search tables: one visitor's whole share here."""
DEEP = "engine:time=30,depth=8,tt=16,book=off"
"""A real engine whose move takes about 0.15 CPU seconds whatever the machine's load (a
depth, not a time): more than a visitor's whole CPU budget here."""
I18N = Path(__file__).parents[2] / "src/adjacency/serving/static/i18n"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, CpuBudget]]:
    limits = Limits(
        limit_loopback=True,
        bot_tables_mb=64,
        bot_tables_mb_per_client=32,
        cpu_per_browser=0.05,
        cpu_per_address=0.05,
    )
    app = create_app(tmp_path / "games.sqlite3", limits=limits)
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1")) as url:
        yield url, app.state.engine


class Visitor:
    """A browser (its own signed cookie) on its own address."""

    def __init__(self, url: str, address: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30, headers={"X-Forwarded-For": address})

    def create(self, bot_plays: str, spec: str = ENGINE) -> httpx.Response:
        """A game of the engine against a person, the engine playing ``bot_plays``."""
        person = "o" if bot_plays == "x" else "x"
        body: dict[str, Any] = {bot_plays: {"kind": "bot", "spec": spec}}
        body[person] = {"kind": "human"}
        return self.http.post("/api/games", json=body)

    def moves(self, game: str) -> int:
        return len(self.http.get(f"/api/games/{game}").json()["moves"])


def translated(code: str) -> bool:
    """Whether every language of the pages has a message for ``code``."""
    return all(f"error.{code}" in json.loads(p.read_text()) for p in I18N.glob("*.json"))


def test_a_visitor_holding_its_share_of_tables_is_refused_and_a_second_starts_at_once(
    server: tuple[str, CpuBudget],
) -> None:
    url, _ = server
    ann, bob = Visitor(url, "10.0.0.1"), Visitor(url, "10.0.0.2")
    held = ann.create("o")  # her bot waits for her move, holding its 32 MB
    assert held.status_code == 201, held.text
    refused = ann.create("o")
    assert refused.status_code == 429
    assert refused.json()["code"] == "table_budget" and translated("table_budget")
    assert "32 MB" in refused.json()["detail"]

    started = bob.create("x")  # the second visitor is not kept waiting
    assert started.status_code == 201, started.text
    game = started.json()["id"]
    wait_until(lambda: bob.moves(game) == 1, 60, what="the second visitor's bot to move")


def test_a_visitor_over_its_cpu_budget_is_refused_a_bot_game_and_a_second_starts_at_once(
    server: tuple[str, CpuBudget],
) -> None:
    url, engine = server
    ann, bob = Visitor(url, "10.0.0.1"), Visitor(url, "10.0.0.2")
    first = ann.create("x", DEEP)
    assert first.status_code == 201, first.text
    game = first.json()["id"]
    wait_until(lambda: ann.moves(game) == 1, 60, what="Ann's bot to move")
    wait_until(lambda: engine.busy() == 0, what="Ann's bot to give its core back")
    assert engine.usage("address 10.0.0.1") >= 0.05  # its search's CPU: her whole budget
    assert ann.http.delete(f"/api/games/{game}").status_code == 204  # tables returned

    refused = ann.create("x")
    assert refused.status_code == 429
    assert refused.json()["code"] == "cpu_budget" and translated("cpu_budget")
    assert "games with bots" in refused.json()["detail"]

    started = bob.create("x")
    assert started.status_code == 201, started.text
    mine = started.json()["id"]
    wait_until(lambda: bob.moves(mine) == 1, 60, what="the second visitor's bot to move")
