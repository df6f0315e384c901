"""A bot's move is charged the CPU its search used, through the real server: a real
engine search on two threads is charged its own thread's CPU and its helper's, and a
bot that waits out its move is charged next to nothing, however long it held its core.

Each bot is the real one wrapped to read its thread's CPU clock around its move; the
charge is compared with that clock (and with the whole process's CPU), never with the
wall time. Behind a trusted proxy (uvicorn believes ``X-Forwarded-For`` from
127.0.0.1), so the game's work counts for the address it names."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adjacency.bots import Bot, Search
from adjacency.bots.gate import build
from adjacency.core import Position
from adjacency.serving.cpu_budget import CpuBudget
from adjacency.serving.sockets import socket_options
from adjacency.web import turns as turns_module
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from web_helpers import uvicorn_thread, wait_until

ADDRESS = "10.0.0.5"
OVERHEAD = 0.1
"""CPU seconds the game's thread may spend around the bot's move in its measured block
(publishing the move, saving the game): far below the second the waiting bot waits."""


class WaitingBot(Bot):
    """Waits one second (a search waiting on something else), then plays its first move."""

    def __init__(self) -> None:
        super().__init__()
        self.spec = "waiting"

    def _choose(self, position: Position, search: Search) -> str:
        threading.Event().wait(1.0)
        return position.legal_moves()[0]


def recording(make: Callable[..., Bot], cpu: list[float]) -> Callable[..., Bot]:
    """``make`` whose bots append their thread's CPU seconds of each move to ``cpu``."""

    def build(spec: Any, seed: int | None = None) -> Bot:
        bot = make(spec)
        choose = bot.choose_move

        def timed(*args: Any, **kwargs: Any) -> str:
            start = time.thread_time()
            try:
                return choose(*args, **kwargs)
            finally:
                cpu.append(time.thread_time() - start)

        setattr(bot, "choose_move", timed)  # noqa: B010 (the instance's, not the class's)
        return bot

    return build


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, CpuBudget]]:
    limits = Limits(limit_loopback=True, cpu_per_browser=600.0, cpu_per_address=600.0)
    app = create_app(tmp_path / "games.sqlite3", limits=limits)
    with uvicorn_thread(app, **socket_options(None, "127.0.0.1")) as url:
        yield url, app.state.engine


def bot_moves_once(url: str, spec: str) -> None:
    """A game of a bot of ``spec`` (X, 8x8) against a person; returns once it moved."""
    with httpx.Client(base_url=url, timeout=30, headers={"X-Forwarded-For": ADDRESS}) as http:
        body = {"x": {"kind": "bot", "spec": spec}, "o": {"kind": "human"}, "time": 30.0}
        created = http.post("/api/games", json=body)
        assert created.status_code == 201, created.text
        game = created.json()["id"]
        wait_until(
            lambda: len(http.get(f"/api/games/{game}").json()["moves"]) == 1,
            60,
            what="the bot to move",
        )


def test_a_real_two_thread_search_is_charged_its_threads_cpu(
    server: tuple[str, CpuBudget], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, engine = server
    cpu: list[float] = []
    monkeypatch.setattr(turns_module, "build_bot", recording(build, cpu))
    process_before = time.process_time()
    bot_moves_once(url, "engine:time=0.5,threads=2,book=off")
    wait_until(lambda: engine.busy() == 0, what="the bot's core to be given back")
    charged = engine.usage(f"address {ADDRESS}")
    process = time.process_time() - process_before
    assert len(cpu) == 1
    assert cpu[0] < charged <= process  # its thread's CPU and its helper's; no more


def test_a_bot_that_waits_out_its_move_is_charged_what_its_thread_ran(
    server: tuple[str, CpuBudget], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, engine = server
    cpu: list[float] = []
    monkeypatch.setattr(turns_module, "build_bot", recording(lambda spec: WaitingBot(), cpu))
    bot_moves_once(url, "random")
    wait_until(lambda: engine.busy() == 0, what="the bot's core to be given back")
    charged = engine.usage(f"address {ADDRESS}")
    assert len(cpu) == 1
    assert cpu[0] <= charged <= cpu[0] + OVERHEAD  # not the second it held its core
