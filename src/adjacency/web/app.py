"""The FastAPI application: the JSON API, the event stream and the static page.

:func:`create_app` builds the store and the :class:`GameManager`, installs the
request guards and error mapping, and includes one router per area
(:mod:`.routers`). Every endpoint validates its input; errors come back as
``{"detail": "..."}`` with a status that says what was wrong (400 bad value,
404 unknown game, 409 not allowed now, 413 too large, 422 malformed request).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..core import AdjacencyError, AdjacencyRuntimeError
from .errors import RUNTIME_STATUS, WebError
from .limits import Limits, RateLimiter
from .manager import GameManager
from .middleware import BodyLimit, RequestGuard, describe_validation
from .models import MAX_RECORD_CHARS
from .routers import analysis, events, games, lab, pages, play
from .routers.pages import STATIC
from .store import GameStore, default_path

log = logging.getLogger(__name__)

MAX_BODY = 2 * MAX_RECORD_CHARS + 4096
"""Bytes a request body may have (a record of the largest size, JSON-escaped, fits)."""


MAX_DETAIL = 400
"""Characters an error's ``detail`` has at most (messages quote input; never a whole upload)."""


def create_app(
    db: str | Path | None = None,
    grace: float = 10.0,
    allowed_hosts: list[str] | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """Build the app. ``db`` is the SQLite file (default: :func:`store.default_path`).

    ``allowed_hosts`` (if given) refuses requests for any other Host header, which
    shields the server from DNS-rebinding pages; state-changing requests from other
    origins are always refused (:class:`RequestGuard`). ``limits`` are the server's
    caps (:class:`Limits` defaults).
    """
    limits = Limits() if limits is None else limits
    store = GameStore(default_path() if db is None else db)
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
            "GameState, `thinking` events a ThinkingInfo)."
        ),
        lifespan=lifespan,
        docs_url=None,  # replaced by the self-hosted /docs page: no CDN, works offline
        redoc_url=None,
    )
    app.state.manager = manager
    app.state.limits = limits
    app.state.rates = RateLimiter(limits.burst)
    app.state.stopping = threading.Event()  # set by the server on Ctrl-C: event streams end
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts)  # outermost: runs first
    install_error_handlers(app)
    app.state.analyses = analysis.Slots()
    app.state.lab_slots = analysis.Slots()
    for module in (pages, games, play, analysis, lab, events):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def install_error_handlers(app: FastAPI) -> None:
    """Map the error taxonomy onto HTTP statuses with a ``{"detail": ...}`` body."""

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=exc.status)

    @app.exception_handler(AdjacencyError)
    async def bad_value(request: Request, exc: AdjacencyError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=400)

    @app.exception_handler(AdjacencyRuntimeError)
    async def failed(request: Request, exc: AdjacencyRuntimeError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=RUNTIME_STATUS)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(exc)}, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {"detail": f"internal error ({type(exc).__name__}); the game is unchanged"},
            status_code=500,
        )


def _detail(exc: Exception) -> str:
    """The message of ``exc``, cut to :data:`MAX_DETAIL` characters."""
    text = str(exc)
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"
