"""What the routes read from the app serving a request: the hall, the store, a member.

The hall and the store live on ``app.state`` (set by
:func:`~adjacency.league.http.app.create_app`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from fastapi import Request

from ...serving.errors import GameNotFound
from ..league_file import MAX_NAME, LeagueError, LeagueStore, Member
from ..play.hall import Hall

T = TypeVar("T")


def hall_of(request: Request) -> Hall:
    """The :class:`~adjacency.league.play.hall.Hall` (live games, connections) of the app
    serving ``request``."""
    hall: Hall = request.app.state.hall
    return hall


def store_of(request: Request) -> LeagueStore:
    """The :class:`~adjacency.league.league_file.LeagueStore` of the app serving ``request``."""
    store: LeagueStore = request.app.state.store
    return store


def reader_of(request: Request) -> LeagueStore:
    """The store's read connection for the public GETs (its own SQLite connection and
    lock, so a long read never holds the lock the event loop's writes need); use it in
    a worker thread (:func:`read`), never on the event loop."""
    store: LeagueStore = request.app.state.reader
    return store


HEAVY_THREADS = 2
"""Threads of the heavy reads' own pool (:func:`heavy_read`)."""


class HeavyReads:
    """The heavy reads' own pool and connection: a team's code view, a diff, the
    similarity report. Their work never queues in the pool the league's own work uses
    (asyncio's default: the public GETs, the house bots, game saving), nor holds the
    public GETs' connection, so a dozen code views at once slow only each other."""

    def __init__(self, db: str | Path) -> None:
        self.store = LeagueStore(db, create=False)
        self.pool = ThreadPoolExecutor(HEAVY_THREADS, thread_name_prefix="league-heavy")

    def close(self) -> None:
        """Wait for the reads in hand, then close the connection."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()


async def heavy_read(request: Request, work: Callable[[LeagueStore], T]) -> T:
    """``work(store)`` in the heavy reads' own pool and connection (:class:`HeavyReads`)."""
    heavy: HeavyReads = request.app.state.heavy
    return await asyncio.get_running_loop().run_in_executor(heavy.pool, work, heavy.store)


async def read(request: Request, work: Callable[[LeagueStore], T]) -> T:
    """``work(reader)`` in a worker thread with :func:`reader_of`: public GETs do no
    database work on the event loop, where it would stall every game's clock."""
    reader = reader_of(request)
    return await asyncio.to_thread(work, reader)


def named(store: LeagueStore, name: str) -> Member:
    """The member called ``name`` in ``store``, else :class:`GameNotFound` (404)."""
    try:
        return store.members.member_named(name)
    except LeagueError:
        raise GameNotFound(f"no member named {name[:MAX_NAME]!r}") from None


def member_named(request: Request, name: str) -> Member:
    """The member called ``name``, else :class:`~adjacency.serving.errors.GameNotFound`
    (404)."""
    return named(store_of(request), name)
