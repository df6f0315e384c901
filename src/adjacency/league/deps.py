"""What the routes read from the app serving a request: the hall, the store, a member.

The hall and the store live on ``app.state`` (set by
:func:`~adjacency.league.app.create_app`).
"""

from __future__ import annotations

from fastapi import Request

from ..serving.errors import GameNotFound
from .hall import Hall
from .store import MAX_NAME, LeagueError, LeagueStore, Member


def hall_of(request: Request) -> Hall:
    """The :class:`~adjacency.league.hall.Hall` (live games, connections) of the app
    serving ``request``."""
    hall: Hall = request.app.state.hall
    return hall


def store_of(request: Request) -> LeagueStore:
    """The :class:`~adjacency.league.store.LeagueStore` of the app serving ``request``."""
    store: LeagueStore = request.app.state.store
    return store


def member_named(request: Request, name: str) -> Member:
    """The member called ``name``, else :class:`~adjacency.serving.errors.GameNotFound`
    (404)."""
    try:
        return store_of(request).member_named(name)
    except LeagueError:
        raise GameNotFound(f"no member named {name[:MAX_NAME]!r}") from None
