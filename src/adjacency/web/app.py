"""The FastAPI application: the JSON API, the event stream and the static page.

:func:`create_app` builds the store and the :class:`GameManager`, installs the
request guards and error mapping, and includes one router per area
(:mod:`.routers`). Every endpoint validates its input; errors come back as
``{"detail": "..."}`` with a status that says what was wrong (400 bad value,
404 unknown game, 409 not allowed now, 413 too large, 422 malformed request).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from .. import __version__
from ..serving.assets import mount_static
from ..serving.handlers import install_error_handlers
from ..serving.headers import install_security_headers
from ..serving.limits import RateLimiter
from ..serving.middleware import BodyLimit, RequestGuard
from ..serving.room import Holdings
from .deps import holding_clients
from .limits import Limits, Slots
from .manager import GameManager
from .models import MAX_RECORD_CHARS
from .puzzle_shown import RecentReveals
from .puzzles import PuzzleSet, PuzzleSource
from .routers import analysis, events, explorer, games, lab, pages, play
from .routers import puzzles as puzzles_router
from .routers.pages import STATIC
from .store import GameStore, default_path

MAX_BODY = 2 * MAX_RECORD_CHARS + 4096
"""Bytes a request body may have (a record of the largest size, JSON-escaped, fits)."""


def create_app(
    db: str | Path | None = None,
    grace: float = 10.0,
    allowed_hosts: list[str] | None = None,
    limits: Limits | None = None,
    puzzles: PuzzleSource | None = None,
    league_db: str | Path | None = None,
) -> FastAPI:
    """Build the app. ``db`` is the SQLite file (default: :func:`store.default_path`).

    ``allowed_hosts`` (if given) refuses requests for any other Host header, which
    shields the server from DNS-rebinding pages; state-changing requests from other
    origins are always refused (:class:`RequestGuard`). ``limits`` are the server's
    caps (:class:`Limits` defaults). ``puzzles`` gives the puzzle page's set (default:
    the shipped one, loaded on first use). ``league_db``: a league's file whose finished
    games the opening explorer also counts (:class:`~.explorer_index.LeagueFeed`).
    """
    limits = Limits() if limits is None else limits
    store = GameStore(default_path() if db is None else db, league=league_db)
    manager = GameManager(store, grace, limits=limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.close()
        store.close()

    app = FastAPI(
        title="Adjacency",
        version=__version__,
        summary="Play the Adjacency Strategy Game in the browser: people and bots.",
        description=(
            "Create games between people and bots, play moves, take them back, ask for "
            "hints, watch bots play, and save or load game records. Game states are pushed "
            "as server-sent events from `/api/games/{id}/events` (`state` events carry a "
            "GameState, `thinking` events a ThinkingInfo; `moved`, `ended` and `took_back` "
            "say what a change did, before its `state`)."
        ),
        lifespan=lifespan,
        docs_url=None,  # replaced by the self-hosted /docs page: no CDN, works offline
        redoc_url=None,
    )
    app.state.manager = manager
    app.state.engine = manager.engine  # the CPU budget and fair queue of every search
    app.state.limits = limits
    app.state.rates = RateLimiter(limits.burst)
    app.state.stopping = threading.Event()  # set by the server on Ctrl-C: event streams end
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    # the requests each client holds open (event streams): a share each, the last places
    # kept for new visitors (serving/room.py)
    app.add_middleware(Holdings, owner=app, who=holding_clients, limits=limits.connections)
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts)  # outermost: runs first
    install_error_handlers(app)
    install_security_headers(app)  # on every response, refusals and errors included
    app.state.analyses = Slots()
    app.state.lab_slots = Slots()
    app.state.puzzle_shown = RecentReveals(limits.puzzle_reveal_seconds)
    app.state.puzzles = PuzzleSet() if puzzles is None else PuzzleSet(puzzles)
    for module in (pages, games, play, analysis, explorer, lab, puzzles_router, events):
        app.include_router(module.router)
    mount_static(app, STATIC)
    return app
