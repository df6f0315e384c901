"""What the routes read from the app serving a request: the hall, the store, a member.

The hall and the store live on ``app.state`` (set by
:func:`~adjacency.league.app.create_app`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from fastapi import Request

from ..serving.errors import GameNotFound
from .league_file import MAX_NAME, LeagueError, LeagueStore, Member
from .play.hall import Hall

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
