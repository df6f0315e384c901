"""A stopping league server stops its hosted games and its builder at the same time, so
its stop waits for the longer of the two, not their sum: through the app's real
lifespan, each part's stop (the real one, then a wait for the other part) is marked
when it starts and when it ends, and the two are in progress together."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from fastapi import FastAPI

from adjacency.league.builder import Builder
from adjacency.league.http.app import create_app, stop_side_by_side
from adjacency.league.play.hosted import HostedPlayers
from league_helpers import make_league

GUARD = 10.0
"""Seconds a part waits for the other to start (reached only when they run in turn)."""


async def started_and_stopped(app: FastAPI) -> None:
    """Run ``app``'s lifespan: its start, then its stop."""
    async with app.router.lifespan_context(app):
        pass


def test_the_hosted_games_and_the_builder_stop_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    marks: dict[str, tuple[float, float]] = {}
    started = {"hosted": threading.Event(), "builder": threading.Event()}
    real_hosted_stop = HostedPlayers.stop
    real_builder_stop = Builder.stop

    def part(name: str, other: str) -> tuple[float, float]:
        """The part ``name`` in progress until ``other`` is too (its marks)."""
        begun = time.monotonic()
        started[name].set()
        started[other].wait(GUARD)  # no CPU: a wait, not a computation
        return begun, time.monotonic()

    def hosted_stop(self: HostedPlayers) -> None:
        real_hosted_stop(self)
        marks["hosted"] = part("hosted", "builder")

    def builder_stop(self: Builder, wait: float = 1.0) -> None:
        real_builder_stop(self, wait)
        marks["builder"] = part("builder", "hosted")

    monkeypatch.setattr(Builder, "start", lambda self: None)  # no sandbox needed here
    monkeypatch.setattr(Builder, "stop", builder_stop)
    monkeypatch.setattr(HostedPlayers, "stop", hosted_stop)
    app = create_app(db, house_games=False, builds=True)
    asyncio.run(started_and_stopped(app))
    assert set(marks) == {"hosted", "builder"}
    (hosted_start, hosted_end), (builder_start, builder_end) = marks["hosted"], marks["builder"]
    assert builder_start < hosted_end and hosted_start < builder_end, marks


def test_a_failed_part_does_not_cut_the_other_short() -> None:
    ended: list[str] = []

    async def fails() -> None:
        raise RuntimeError("the games' part failed")

    async def slower() -> None:
        await asyncio.sleep(0.05)
        ended.append("builder")

    with pytest.raises(RuntimeError, match="games' part failed"):
        asyncio.run(stop_side_by_side(fails(), None, slower()))
    assert ended == ["builder"]
