"""The FastAPI application: the JSON API, the event stream and the static page.

Every endpoint validates its input; errors come back as ``{"detail": "..."}``
with a 4xx status that says what was wrong (400 bad value, 404 unknown game,
409 not allowed now, 413 too large, 422 malformed request). Endpoints that
touch a game are plain functions, run by FastAPI in its thread pool, so the
event loop never waits for a lock or a bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from .. import __version__
from ..bots import DEFAULT_MOVE_TIME, entries
from ..core import AdjacencyError
from ..core.board import MAX_SIDE, MIN_SIDE
from ..core.record import game_to_json, game_to_text
from .errors import WebError
from .levels import available_levels, default_level
from .manager import GameManager
from .middleware import BodyLimit, describe_validation
from .models import (
    MAX_MOVE_TIME,
    MAX_RECORD_CHARS,
    MIN_MOVE_TIME,
    BotInfo,
    Config,
    ControlRequest,
    ErrorMessage,
    GameState,
    GameSummary,
    Hint,
    ImportRequest,
    LevelInfo,
    MoveRequest,
    NewGame,
    OptionInfo,
)
from .store import GameStore, default_path

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 2 * MAX_RECORD_CHARS + 4096
"""Bytes a request body may have (a record of the largest size, JSON-escaped, fits)."""
PING_SECONDS = 15.0
"""An event stream sends a comment this often when idle (keeps proxies from closing it)."""
POLL_SECONDS = 0.25
"""How often an idle event stream checks whether the server is stopping."""

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage, "description": text}
    for code, text in (
        (400, "a value is out of range or illegal (the message says which)"),
        (404, "no such game"),
        (409, "the game's state does not allow this now"),
        (422, "the request is malformed"),
    )
}


def create_app(
    db: str | Path | None = None, grace: float = 10.0, allowed_hosts: list[str] | None = None
) -> FastAPI:
    """Build the app. ``db`` is the SQLite file (default: :func:`store.default_path`).

    ``allowed_hosts`` (if given) refuses requests for any other Host header, which
    shields a server on 127.0.0.1 from DNS-rebinding pages.
    """
    store = GameStore(default_path() if db is None else db)
    manager = GameManager(store, grace)

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
        docs_url=None,  # replaced by the self-hosted /docs page below: no CDN, works offline
        redoc_url=None,
    )
    app.state.manager = manager
    app.state.stopping = threading.Event()  # set by the server on Ctrl-C: event streams end
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(AdjacencyError)
    async def bad_value(request: Request, exc: AdjacencyError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

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

    # ------------------------------------------------------------- pages

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/rules", include_in_schema=False)
    def rules() -> FileResponse:
        return FileResponse(STATIC / "rules.html", headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        """The API reference: a static page that renders ``/openapi.json`` in the browser."""
        return FileResponse(STATIC / "docs.html", headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --------------------------------------------------------------- API

    @app.get("/api/config", response_model=Config, tags=["setup"])
    def config() -> Config:
        """Ranges for new games, the strength levels and the bots available now."""
        bots = [
            BotInfo(
                name=e.name,
                summary=e.summary,
                family=e.family,
                options=[
                    OptionInfo(
                        name=o.name,
                        kind=o.kind,
                        default=o.default,
                        help=o.help,
                        minimum=o.minimum,
                        maximum=o.maximum,
                        choices=list(o.choices) if o.choices else None,
                    )
                    for o in e.options
                ],
            )
            for e in entries()
            if not e.raw
        ]
        return Config(
            min_side=MIN_SIDE,
            max_side=MAX_SIDE,
            default_time=DEFAULT_MOVE_TIME,
            min_time=MIN_MOVE_TIME,
            max_time=MAX_MOVE_TIME,
            max_record_chars=MAX_RECORD_CHARS,
            levels=[
                LevelInfo(
                    number=lv.number,
                    name=lv.name,
                    description=lv.description,
                    spec=lv.spec,
                    time_cap=lv.time_cap,
                )
                for lv in available_levels()
            ],
            default_level=default_level().number,
            bots=bots,
        )

    @app.get("/api/games", response_model=list[GameSummary], tags=["games"])
    def list_games() -> list[GameSummary]:
        """Stored games, most recently changed first (at most 200)."""
        return manager.summaries()

    @app.post(
        "/api/games", response_model=GameState, status_code=201, responses=_ERRORS, tags=["games"]
    )
    def new_game(settings: NewGame) -> GameState:
        """Start a game. Bots begin thinking as soon as it is their turn."""
        return manager.create(settings).state()

    @app.post(
        "/api/games/import",
        response_model=GameState,
        status_code=201,
        responses=_ERRORS,
        tags=["games"],
    )
    def import_game(body: ImportRequest) -> GameState:
        """Load a saved record (the text format, or JSON) as a new game between two people."""
        return manager.import_record(body.record).state()

    @app.get("/api/games/{game_id}", response_model=GameState, responses=_ERRORS, tags=["games"])
    def get_game(game_id: str) -> GameState:
        """The game's state (after a restart it is loaded from the store and resumes)."""
        session = manager.get(game_id)
        session.touch()
        return session.state()

    @app.delete("/api/games/{game_id}", status_code=204, responses=_ERRORS, tags=["games"])
    def delete_game(game_id: str) -> None:
        """Stop the game's bots and remove it from the store."""
        manager.delete(game_id)

    @app.post(
        "/api/games/{game_id}/moves", response_model=GameState, responses=_ERRORS, tags=["play"]
    )
    def play(game_id: str, move: MoveRequest) -> GameState:
        """Play a move for the person to move."""
        session = manager.get(game_id)
        state = session.play(move.square)
        session.touch()
        return state

    @app.post(
        "/api/games/{game_id}/undo", response_model=GameState, responses=_ERRORS, tags=["play"]
    )
    def undo(game_id: str) -> GameState:
        """Take back the last person's move and the bot replies after it (one ply between
        people)."""
        session = manager.get(game_id)
        state = session.undo()
        session.touch()
        return state

    @app.post("/api/games/{game_id}/hint", response_model=Hint, responses=_ERRORS, tags=["play"])
    def hint(game_id: str) -> Hint:
        """The strongest available bot's suggestion for the person to move (takes up to 3 s)."""
        return manager.hint(game_id)

    @app.post(
        "/api/games/{game_id}/move-now",
        response_model=GameState,
        responses=_ERRORS,
        tags=["play"],
    )
    def move_now(game_id: str) -> GameState:
        """Tell the thinking bot to play its best move so far."""
        return manager.get(game_id).move_now()

    @app.post(
        "/api/games/{game_id}/control",
        response_model=GameState,
        responses=_ERRORS,
        tags=["play"],
    )
    def control(game_id: str, body: ControlRequest) -> GameState:
        """Bot vs bot: pause, resume, step one move, and the delay between moves."""
        session = manager.get(game_id)
        session.touch()
        return session.control(body.action, body.delay)

    @app.post(
        "/api/games/{game_id}/rematch",
        response_model=GameState,
        status_code=201,
        responses=_ERRORS,
        tags=["games"],
    )
    def rematch(game_id: str) -> GameState:
        """A new game with the same settings and the colours swapped."""
        return manager.rematch(game_id).state()

    @app.get(
        "/api/games/{game_id}/record",
        response_class=PlainTextResponse,
        responses={**_ERRORS, 200: {"content": {"text/plain": {}}}},
        tags=["games"],
    )
    def record(game_id: str, format: str = "text") -> PlainTextResponse:
        """The game record as a download: the core's text format, or ``format=json``."""
        session = manager.get(game_id)
        if format not in ("text", "json"):
            raise WebError(f"format must be 'text' or 'json', got {format!r}")
        with session.lock:
            text = game_to_text(session.game) if format == "text" else game_to_json(session.game)
        suffix = "txt" if format == "text" else "json"
        return PlainTextResponse(
            text,
            media_type="text/plain; charset=utf-8" if suffix == "txt" else "application/json",
            headers={"Content-Disposition": f'attachment; filename="adjacency-{game_id}.{suffix}"'},
        )

    @app.get(
        "/api/games/{game_id}/events",
        response_class=StreamingResponse,
        responses={**_ERRORS, 200: {"content": {"text/event-stream": {}}}},
        tags=["play"],
    )
    async def events(game_id: str) -> StreamingResponse:
        """Server-sent events: a ``state`` event now and after every change, ``thinking``
        events while a bot searches. While a page listens, the game's bots play; when the
        last page leaves, its bot stops after a short grace period."""
        session = await asyncio.to_thread(manager.get, game_id)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

        def listener(event: str, data: str) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed (shutdown)
                loop.call_soon_threadsafe(queue.put_nowait, (event, data))

        async def stream() -> AsyncIterator[str]:
            await asyncio.to_thread(session.subscribe, listener)
            try:
                state = await asyncio.to_thread(session.state)
                yield f"event: state\ndata: {state.model_dump_json()}\n\n"
                last = time.monotonic()
                while not app.state.stopping.is_set():
                    try:
                        event, data = await asyncio.wait_for(queue.get(), POLL_SECONDS)
                    except TimeoutError:
                        if time.monotonic() - last > PING_SECONDS:
                            last = time.monotonic()
                            yield ": ping\n\n"
                        continue
                    last = time.monotonic()
                    yield f"event: {event}\ndata: {data}\n\n"
            finally:
                session.unsubscribe(listener)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    return app
